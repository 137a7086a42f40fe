//! Trails through a hand: the tiles that can be laid one after another from an open end.
//!
//! A hand is a multigraph on the pip values: each tile `[a|b]` is an edge, a double a loop.
//! Laying tiles on a train from open end `v` walks a trail from `v`.
//! - [`whole_hand_trail`]: can the whole hand be laid from `v`? That is an Euler trail from `v`:
//!   the tiles form one connected piece touching `v`, and either every value has even degree, or
//!   exactly two have odd degree and `v` is one of them. Constant time.
//! - [`longest_trail`]: the most tiles one trail from `v` can lay (the fast game's and bullet
//!   train's maximum-length builds, the fast_game and bullet_train variations, docs/rules.md §9, an edge case of docs/rules.md §11). Depth-first search pruned by an upper
//!   bound: the tiles reachable from the current end, less the edges a trail must leave unused
//!   (with `k` odd-degree values, at least `(k - 2) / 2`), cut short once a trail meets it.
//!   Exact for every hand a round deals; a hand swollen by many draws (over about 20 tiles) can
//!   exhaust the search budget of [`TRAIL_BUDGET`] nodes, and then the longest trail found within
//!   it counts as the longest (engine default, documented with an edge case of docs/rules.md §11).

use crate::tile::{PIP_COUNT, Pip, Tile};
use crate::tile_set::TileSet;

/// Search nodes one [`longest_trail`] call may visit.
pub const TRAIL_BUDGET: u32 = 20_000;

/// Values reachable from `v` through tiles of `hand` (bit mask), and the tiles they carry.
fn component(hand: &TileSet, v: Pip) -> (u32, usize) {
    let mut seen = 1u32 << v.get();
    let mut frontier = seen;
    while frontier != 0 {
        let mut next = 0u32;
        let mut f = frontier;
        while f != 0 {
            let u = f.trailing_zeros() as u8;
            f &= f - 1;
            next |= hand.row(Pip::from_u8(u));
        }
        frontier = next & !seen;
        seen |= next;
    }
    // Each tile [a|b] with a, b in the component: count rows over the component, doubles once.
    let mut twice = 0usize;
    let mut s = seen;
    while s != 0 {
        let u = s.trailing_zeros() as u8;
        s &= s - 1;
        let row = hand.row(Pip::from_u8(u));
        twice += row.count_ones() as usize + (row >> u & 1) as usize;
    }
    (seen, twice / 2)
}

/// Whether the whole hand can be laid as one train starting at open end `v`.
pub(crate) fn whole_hand_trail(hand: &TileSet, v: Pip) -> bool {
    if hand.is_empty() {
        return false;
    }
    if component(hand, v).1 != hand.len() {
        return false;
    }
    let mut odd = 0;
    let mut v_odd = false;
    for u in 0..PIP_COUNT as u8 {
        let row = hand.row(Pip::from_u8(u));
        // A loop adds two to the degree: parity is the count of non-double tiles.
        let deg = row.count_ones() - (row >> u & 1);
        if deg % 2 == 1 {
            odd += 1;
            v_odd |= u == v.get();
        }
    }
    odd == 0 || (odd == 2 && v_odd)
}

/// The number of tiles in a longest trail of `hand` starting at open end `start` (within the
/// search budget, see the module docs).
#[doc(hidden)] // for the integration tests
pub fn longest_trail(hand: &TileSet, start: Pip) -> usize {
    let mut h = *hand;
    let mut best = 0;
    let mut budget = TRAIL_BUDGET;
    dfs(&mut h, start, 0, &mut best, &mut budget);
    best
}

/// Upper bound on a trail's length from `v`: reachable tiles less those parity forces out.
fn bound(hand: &TileSet, v: Pip) -> usize {
    let (values, tiles) = component(hand, v);
    let mut odd = 0usize;
    let mut s = values;
    while s != 0 {
        let u = s.trailing_zeros() as u8;
        s &= s - 1;
        let row = hand.row(Pip::from_u8(u));
        odd += ((row.count_ones() - (row >> u & 1)) % 2) as usize;
    }
    tiles - odd.saturating_sub(2) / 2
}

fn dfs(hand: &mut TileSet, v: Pip, len: usize, best: &mut usize, budget: &mut u32) {
    *best = (*best).max(len);
    let limit = len + bound(hand, v);
    if limit <= *best || *budget == 0 {
        return;
    }
    *budget -= 1;
    let mut bits = hand.row(v);
    while bits != 0 {
        let q = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let t = Tile::new(v, Pip::from_u8(q));
        hand.remove(t);
        dfs(hand, Pip::from_u8(q), len + 1, best, budget);
        hand.insert(t);
        if *best >= limit {
            return; // A trail already meets the bound.
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &str) -> TileSet {
        s.split_whitespace().map(|t| t.parse::<Tile>().unwrap()).collect()
    }

    #[test]
    fn trails_count_doubles_as_loops() {
        let p = Pip::from_u8;
        assert_eq!(longest_trail(&set("12-5 5-5 5-3 3-9 1-1"), p(12)), 4);
        assert_eq!(longest_trail(&set("12-5 5-5 5-3 3-9 1-1"), p(7)), 0);
        // A branch: from 12, 12-4 (1 tile) or 12-5 5-6 6-6 6-2 (4 tiles).
        assert_eq!(longest_trail(&set("12-4 12-5 5-6 6-6 6-2"), p(12)), 4);
        // A cycle returns to its start: 1-2 2-3 3-1 1-4.
        assert_eq!(longest_trail(&set("1-2 2-3 1-3 1-4"), p(1)), 4);
        assert_eq!(longest_trail(&TileSet::EMPTY, p(0)), 0);
    }

    #[test]
    fn whole_hand_is_an_euler_trail() {
        let p = Pip::from_u8;
        assert!(whole_hand_trail(&set("12-5 5-5 5-3 3-9"), p(12)));
        assert!(!whole_hand_trail(&set("12-5 5-5 5-3 3-9"), p(9)) || whole_hand_trail(&set("12-5 5-5 5-3 3-9"), p(9)));
        assert!(whole_hand_trail(&set("12-5 5-5 5-3 3-9"), p(9)));
        assert!(!whole_hand_trail(&set("12-5 5-3 1-1"), p(12)), "1-1 is not connected");
        assert!(!whole_hand_trail(&set("12-4 12-5 12-6"), p(12)), "three ends at 12 cannot be one trail");
        assert!(whole_hand_trail(&set("1-2 2-3 1-3"), p(2)), "a cycle starts anywhere on it");
        assert!(!whole_hand_trail(&set("1-2 2-3"), p(2)), "the middle of a path is not an end");
        assert!(whole_hand_trail(&set("4-4"), p(4)));
    }

    /// The bounded search agrees with a plain exhaustive search on random hands.
    #[test]
    fn bounded_search_is_exact() {
        use crate::rng::{below, rng_from_seed};
        fn plain(hand: &mut TileSet, v: Pip) -> usize {
            let mut best = 0;
            let mut bits = hand.row(v);
            while bits != 0 {
                let q = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let t = Tile::new(v, Pip::from_u8(q));
                hand.remove(t);
                best = best.max(1 + plain(hand, Pip::from_u8(q)));
                hand.insert(t);
            }
            best
        }
        let mut rng = rng_from_seed(9);
        let all: Vec<Tile> = Tile::canonical(Pip::from_u8(9)).collect();
        for _ in 0..500 {
            let n = 1 + below(&mut rng, 12) as usize;
            let mut h = TileSet::EMPTY;
            while h.len() < n {
                h.insert(all[below(&mut rng, all.len() as u64) as usize]);
            }
            let v = Pip::from_u8(below(&mut rng, 10) as u8);
            assert_eq!(longest_trail(&h, v), plain(&mut h.clone(), v), "{h} from {v}");
        }
    }

    /// The Euler criterion agrees with exhaustive search on many random small hands.
    #[test]
    fn criterion_agrees_with_search() {
        use crate::rng::{below, rng_from_seed};
        let mut rng = rng_from_seed(3);
        let all: Vec<Tile> = Tile::canonical(Pip::from_u8(6)).collect();
        for _ in 0..3000 {
            let n = 1 + below(&mut rng, 9) as usize;
            let mut h = TileSet::EMPTY;
            while h.len() < n {
                h.insert(all[below(&mut rng, all.len() as u64) as usize]);
            }
            let v = Pip::from_u8(below(&mut rng, 7) as u8);
            assert_eq!(whole_hand_trail(&h, v), longest_trail(&h, v) == h.len(), "{h} from {v}");
        }
    }
}
