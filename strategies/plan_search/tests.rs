//! Tests of the PLAN search: against the search as it was before its tighter bounds (kept here
//! as the reference), and the pairing routine against brute force.

use super::*;
use crate::rng::{GameRng, below, mix, rng_from_seed};

/// The PLAN search as it was before the bounds of `plan_search.rs`, kept to test them against: the same
/// order and tie rule, pruned only by the reachable tiles less those the parity of the
/// degrees forces out, `(odd - 2) / 2`, and all their pips.
struct RefSearch {
    rows: [u32; PIP_COUNT],
    doubles: u32,
    path: Trail,
    best: Trail,
    budget: u32,
    exhausted: bool,
}

impl RefSearch {
    fn bound(&self, v: u8) -> (usize, u16) {
        let mut seen = 1u32 << v;
        let mut frontier = seen;
        while frontier != 0 {
            let mut next = 0u32;
            let mut f = frontier;
            while f != 0 {
                let u = f.trailing_zeros();
                f &= f - 1;
                next |= self.rows[u as usize];
            }
            frontier = next & !seen;
            seen |= next;
        }
        let (mut twice, mut odd, mut pips) = (0usize, 0usize, 0u32);
        let mut s = seen;
        while s != 0 {
            let u = s.trailing_zeros();
            s &= s - 1;
            let row = self.rows[u as usize];
            let deg = row.count_ones();
            twice += deg as usize;
            odd += (deg % 2) as usize;
            pips += u * deg;
        }
        let loops = self.doubles & seen;
        let mut loop_pips = 0u32;
        let mut l = loops;
        while l != 0 {
            loop_pips += 2 * l.trailing_zeros();
            l &= l - 1;
        }
        let tiles = twice / 2 + loops.count_ones() as usize - odd.saturating_sub(2) / 2;
        (tiles, (pips + loop_pips) as u16)
    }

    fn better(&self, len: usize, pips: u16) -> bool {
        len > self.best.len() || (len == self.best.len() && pips > self.best.pips)
    }

    fn push(&mut self, t: Tile) {
        self.path.tiles[self.path.len as usize] = t;
        self.path.len += 1;
        self.path.pips += t.pips();
    }

    fn pop(&mut self, t: Tile) {
        self.path.len -= 1;
        self.path.pips -= t.pips();
    }

    fn dfs(&mut self, v: u8) {
        let double = self.doubles >> v & 1 == 1;
        let d = Tile::new(Pip::from_u8(v), Pip::from_u8(v));
        if double {
            self.doubles &= !(1 << v);
            self.push(d);
        }
        if self.better(self.path.len(), self.path.pips) {
            self.best = self.path;
        }
        if self.budget > 0 {
            self.budget -= 1;
            let (more, more_pips) = self.bound(v);
            let (ub, ub_pips) = (self.path.len() + more, self.path.pips + more_pips);
            let mut bits = self.rows[v as usize];
            while bits != 0 && self.better(ub, ub_pips) {
                let q = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let t = Tile::new(Pip::from_u8(v), Pip::from_u8(q));
                self.rows[v as usize] &= !(1 << q);
                self.rows[q as usize] &= !(1 << v);
                self.push(t);
                self.dfs(q);
                self.pop(t);
                self.rows[v as usize] |= 1 << q;
                self.rows[q as usize] |= 1 << v;
            }
        } else {
            self.exhausted = true;
        }
        if double {
            self.pop(d);
            self.doubles |= 1 << v;
        }
    }
}

/// The reference search's plan, and whether its budget cut it short.
fn longest_plan_reference(hand: &TileSet, start: Pip) -> (Trail, bool) {
    let mut rows = [0u32; PIP_COUNT];
    let mut doubles = 0u32;
    for (v, row) in rows.iter_mut().enumerate() {
        let r = hand.row(Pip::from_u8(v as u8));
        *row = r & !(1 << v);
        doubles |= (r >> v & 1) << v;
    }
    let mut s = RefSearch {
        rows,
        doubles,
        path: Trail::empty(start),
        best: Trail::empty(start),
        budget: PLAN_BUDGET,
        exhausted: false,
    };
    s.dfs(start.get());
    (s.best, s.exhausted)
}

/// A hand of `n` distinct tiles drawn from `all`.
fn hand(rng: &mut GameRng, all: &[Tile], n: usize) -> TileSet {
    let mut h = TileSet::EMPTY;
    while h.len() < n {
        h.insert(all[below(rng, all.len() as u64) as usize]);
    }
    h
}

/// The search returns exactly the reference search's plan (length, pips, and the tie rule
/// among equal plans) on random hands of 1 to 30 tiles from the double-12 and double-15
/// sets, from random open ends, whenever the reference finished within its budget; and its
/// own budget then never runs out, as it searches a part of the reference's tree.
#[test]
fn search_matches_the_reference_search() {
    for max in [12u8, 15] {
        let all: Vec<Tile> = Tile::canonical(Pip::from_u8(max)).collect();
        let mut compared = 0;
        for i in 0..1500u64 {
            let mut rng = rng_from_seed(mix(u64::from(max), i));
            let n = 1 + below(&mut rng, 30) as usize;
            let h = hand(&mut rng, &all, n);
            let v = Pip::from_u8(below(&mut rng, u64::from(max) + 1) as u8);
            let (want, cut_short) = longest_plan_reference(&h, v);
            if cut_short {
                continue;
            }
            let (got, ran_out) = plan_search(&h, v, PLAN_BUDGET);
            assert!(!ran_out, "{h} from {v}: out of budget where the reference was not");
            assert_eq!(
                (got.start(), got.tiles(), got.pips()),
                (want.start(), want.tiles(), want.pips()),
                "{h} from {v}"
            );
            compared += 1;
        }
        // The reference runs out on some of the largest hands only.
        assert!(compared >= 1200, "double-{max}: only {compared} hands compared");
    }
}

/// [`Pairing::min`] finds the cheapest pairing with one index left over, as trying every
/// pairing does, and `u32::MAX` when that does not beat the limit.
#[test]
fn pairing_is_the_cheapest() {
    /// Every pairing of `left` with at most one index unpaired (when `spare`).
    fn plain(dist: &[[u32; T_JOIN_MAX as usize]; T_JOIN_MAX as usize], left: u32, spare: bool) -> u32 {
        if left == 0 {
            return 0;
        }
        let i = left.trailing_zeros() as usize;
        let rest = left & (left - 1);
        let mut best = if spare { plain(dist, rest, false) } else { u32::MAX };
        let mut r = rest;
        while r != 0 {
            let j = r.trailing_zeros() as usize;
            r &= r - 1;
            let sub = plain(dist, rest & !(1 << j), spare);
            if sub != u32::MAX {
                best = best.min(dist[i][j] + sub);
            }
        }
        best
    }
    let mut rng = rng_from_seed(3);
    for _ in 0..2000 {
        let k = 1 + 2 * below(&mut rng, 5) as usize;
        let mut dist = [[0u32; T_JOIN_MAX as usize]; T_JOIN_MAX as usize];
        let mut near = [u32::MAX; T_JOIN_MAX as usize];
        for i in 0..k {
            for j in i + 1..k {
                let d = (1 + below(&mut rng, 4) as u32) << 16 | below(&mut rng, 60) as u32;
                dist[i][j] = d;
                dist[j][i] = d;
                near[i] = near[i].min(d);
                near[j] = near[j].min(d);
            }
        }
        if k == 1 {
            near[0] = 0;
        }
        let far = near[..k].iter().copied().max().unwrap();
        let sum = near[..k].iter().sum();
        let p = Pairing { dist, near, far };
        let all = (1u32 << k) - 1;
        let want = plain(&p.dist, all, true);
        assert_eq!(p.min(all, true, sum, u32::MAX), want);
        assert_eq!(p.min(all, true, sum, want + 1), want);
        assert_eq!(p.min(all, true, sum, want), u32::MAX);
    }
}

#[test]
fn trails_compare_by_their_tiles_only() {
    let t = |a, b| Tile::from_pips(a, b);
    let mut a = Trail::empty(Pip::from_u8(3));
    a.tiles[0] = t(3, 5);
    a.len = 1;
    a.pips = 8;
    let mut b = a;
    b.tiles[1] = t(5, 9); // a leftover slot past the end of the trail
    assert_eq!(a, b);
    b.len = 2;
    b.pips = 22;
    assert_ne!(a, b);
    assert_ne!(a, Trail { start: Pip::from_u8(5), ..a });
}

/// [`longest_plan_memo`] answers from its memo exactly as a search would: over random hands
/// (small budgets included, so that some searches stop short), asked in an order that repeats
/// many of them and overwrites slots, every answer is the search's own trail, with its length
/// and pips, and counts the nodes that search counts.
#[test]
fn the_plan_memo_answers_as_the_search() {
    let all: Vec<Tile> = Tile::canonical(Pip::from_u8(12)).collect();
    let mut rng = rng_from_seed(41);
    let asks: Vec<(TileSet, Pip, u32)> = (0..600)
        .map(|_| {
            let n = 1 + below(&mut rng, 24) as usize;
            let v = Pip::from_u8(below(&mut rng, 13) as u8);
            let budget = [3, 40, ROLLOUT_PLAN_BUDGET][below(&mut rng, 3) as usize];
            (hand(&mut rng, &all, n), v, budget)
        })
        .collect();
    let mut hits = 0;
    let mut dirty = Trail::empty(Pip::ZERO);
    for i in 0..6000 {
        // Mostly the recent asks again, sometimes any.
        let k = if i % 5 == 0 { below(&mut rng, 600) as usize } else { (i / 10) % 600 };
        let (h, v, budget) = asks[k];
        let before = plan_nodes_on_this_thread();
        let searched = PLAN_MEMO.with(|m| {
            m.borrow().as_ref().is_none_or(|m| !m.get_into(m.slot(&h, v, budget), &h, v, budget, &mut Trail::empty(v)))
        });
        let after_peek = plan_nodes_on_this_thread();
        let got = longest_plan_memo(&h, v, budget);
        let counted = plan_nodes_on_this_thread() - after_peek;
        let peek_counted = after_peek - before;
        let (want, _) = plan_search(&h, v, budget);
        let want_nodes = plan_nodes_on_this_thread() - after_peek - counted;
        assert_eq!(
            (got.start(), got.tiles(), got.pips(), got.len()),
            (want.start(), want.tiles(), want.pips(), want.len())
        );
        assert_eq!(counted, want_nodes, "{h} from {v}, budget {budget}");
        // Written into a trail that held the previous answer (a plan cache's own), the same.
        longest_plan_memo_into(&h, v, budget, &mut dirty);
        assert_eq!(
            (dirty.start(), dirty.tiles(), dirty.pips(), dirty.len()),
            (want.start(), want.tiles(), want.pips(), want.len())
        );
        if !searched {
            hits += 1;
            assert_eq!(peek_counted, want_nodes);
        }
    }
    assert!(hits > 3000, "only {hits} answers from the memo");
}
