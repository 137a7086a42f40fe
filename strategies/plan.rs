//! What the planning bots (`planner`, `hoarder`, `cutthroat`) share: the PLAN search, its cache,
//! and the filter pipeline of RULES.md §6.
//!
//! - [`longest_plan`]: PLAN(p) of RULES.md §6, a longest trail of a hand from an open end, as an
//!   ordered tile list. Ties go to the higher pip total (S12), then to the lexicographically
//!   smallest list. The hand is a multigraph on the pip values (a tile `[a|b]` an edge, a double
//!   a loop); an optimal trail always takes a loop `[v|v]` whenever it stands on `v` and the loop
//!   is unused, so the search takes every double on the first visit of its value and branches
//!   only on the other tiles. Depth-first, children in tile order, so the first trail found with
//!   the best (length, pips) is the smallest list; a branch is cut once an upper bound on the
//!   (length, pips) of its trails does not beat the best so far. The bound counts the tiles
//!   reachable from the current end, less what parity forces out: with U the values of odd
//!   degree there, the current end's parity flipped, a trail ends on one value of U and must
//!   leave out tiles whose odd-degree values are the rest of U, so at least half of them and
//!   their pips. Near the best, that is made exact for parity: a trail as long as the bound
//!   leaves out a perfect matching of U less its far end; if there is none, the cheapest such
//!   set of tiles by (tiles, pips) pairs up U less one value along shortest paths. A search that
//!   outgrows `FIRST_TRY` (500) expansions starts again with a memo of the positions it has been in
//!   (tiles laid, open end): a position met again can only tie, later in tile order, and is
//!   skipped. Each bound is at most the plain one (reachable tiles less `(odd - 2) / 2`, all their
//!   pips), so the search walks part of the plain search's tree and returns its plan; a test
//!   compares the two. Exact for every hand a round deals; a hand swollen by many draws can use
//!   up the budget of [`PLAN_BUDGET`] expanded nodes, and then the best trail found so far is
//!   the plan.
//! - [`PlanCache`]: the plan is searched again only after the hand gained a tile (a draw) or the
//!   seat's own train no longer ends where the unplayed rest of the plan starts (S1c).
//! - [`choose`]: scores every legal move by a key, one component per behaviour in the §6
//!   priority order, and takes the greatest key; remaining ties go to the smallest move (tile,
//!   then train). Filtering the moves behaviour by behaviour is the same thing as comparing these
//!   keys lexicographically; the components are packed into one integer, each in a field wide
//!   enough for all its values, so that one comparison does it. What does not depend on the move
//!   (S11's count for the table as it is, S6, S7(a)) is computed once per decision. Everything
//!   read comes from the [`View`]; nothing allocates.

use crate::round::{Decision, Move, MoveList, Seat, TrainId};
use crate::rules::{DoublesPerTurn, FollowUp, Obligation as ObligationRule};
use crate::tile::{MAX_TILES, PIP_COUNT, Pip, Tile};
use crate::tile_set::TileSet;
use crate::view::View;

/// Search nodes (with tiles left to try from their end) one [`longest_plan`] search may expand;
/// a search that starts again with a memo has this budget anew.
pub const PLAN_BUDGET: u32 = 200_000;

/// An ordered trail of tiles from an open end: a plan.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Trail {
    start: Pip,
    tiles: [Tile; MAX_TILES],
    len: u8,
    pips: u16,
}

impl Trail {
    /// The empty trail from `start`.
    pub const fn empty(start: Pip) -> Trail {
        Trail { start, tiles: [Tile::from_pips(0, 0); MAX_TILES], len: 0, pips: 0 }
    }

    /// The open end the trail starts from.
    pub fn start(&self) -> Pip {
        self.start
    }

    /// The tiles in laying order.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles[..self.len as usize]
    }

    /// Number of tiles.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the trail holds no tile.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Pip total of its tiles.
    pub fn pips(&self) -> u16 {
        self.pips
    }

    /// The open end after the whole trail.
    pub fn end(&self) -> Pip {
        self.tiles().iter().fold(self.start, |v, t| t.other(v))
    }
}

/// Expansions a search may spend before it starts again with a [`Memo`].
const FIRST_TRY: u32 = 500;

/// The most non-doubles a hand may hold for a [`Memo`] key.
const MEMO_TILES: u32 = 58;

/// Slots of the [`Memo`] table (a power of two).
const MEMO_SLOTS: usize = 1 << 12;

/// The most values of U the exact parity bound ([`Search::t_join`]) handles.
const T_JOIN_MAX: u32 = 11;

/// Positions already searched: the non-doubles laid so far (a bit per non-double of the hand)
/// and the open end. Two paths that lay the same tiles and end on the same value have the
/// same future; the second, later in tile order, can only tie the first and never wins.
struct Memo {
    used: u64,
    bit: [[u8; PIP_COUNT]; PIP_COUNT],
    slots: [u64; MEMO_SLOTS],
}

impl Memo {
    /// Whether the position (`used`, `v`) was seen before; records it if not.
    fn seen(&mut self, v: u8) -> bool {
        let key = self.used << 5 | v as u64 | 1 << 63;
        let h = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (MEMO_SLOTS - 1);
        if self.slots[h] == key || self.slots[h ^ 1] == key {
            return true;
        }
        self.slots[h ^ 1] = self.slots[h];
        self.slots[h] = key;
        false
    }
}

/// The DFS state: non-double tiles as adjacency rows and degrees, doubles as a value mask, and
/// running totals for the bound.
struct Search<'m> {
    rows: [u32; PIP_COUNT],
    deg: [u8; PIP_COUNT],
    /// Values with a non-double tile left.
    active: u32,
    /// Values with an odd number of non-double tiles left.
    odd: u32,
    /// Non-double tiles left, and their pips.
    edges: u32,
    pips: u32,
    /// Values whose double is still in hand, how many, and their pips.
    doubles: u32,
    n_doubles: u32,
    loop_pips: u32,
    path: Trail,
    best: Trail,
    /// What a trail must beat to become `best`: `best`'s length and pips.
    best_len: u32,
    best_pips: u32,
    /// Whether `best` is still the start of `path` and not yet copied out of it.
    pending: bool,
    budget: u32,
    exhausted: bool,
    memo: Option<&'m mut Memo>,
}

impl Search<'_> {
    /// The best trail found.
    fn finish(&mut self) -> Trail {
        let mut best = if self.pending { self.path } else { self.best };
        best.len = self.best_len as u8;
        best.pips = self.best_pips as u16;
        best
    }

    fn better(&self, len: u32, pips: u32) -> bool {
        len > self.best_len || (len == self.best_len && pips > self.best_pips)
    }

    /// Upper bounds on the tiles and pips a trail from `v` can still add, and U: the values of
    /// odd degree in `v`'s component with `v` toggled (the ends a trail must fix).
    fn bound(&self, v: u8) -> (u32, u32, u32) {
        let vb = 1u32 << v;
        let mut seen = vb;
        let mut frontier = vb;
        while frontier != 0 && self.active & !seen != 0 {
            let mut next = 0u32;
            let mut f = frontier;
            while f != 0 {
                let x = f.trailing_zeros();
                f &= f - 1;
                next |= self.rows[x as usize];
            }
            frontier = next & !seen;
            seen |= next;
        }
        let (mut edges, mut pips) = (self.edges, self.pips);
        let (mut doubles, mut loop_pips) = (self.n_doubles, self.loop_pips);
        let out = self.active & !seen;
        if out != 0 {
            let (mut twice, mut p) = (0u32, 0u32);
            let mut s = out;
            while s != 0 {
                let x = s.trailing_zeros();
                s &= s - 1;
                let d = self.deg[x as usize] as u32;
                twice += d;
                p += x * d;
            }
            edges -= twice / 2;
            pips -= p;
        }
        let mut s = self.doubles & !seen;
        while s != 0 {
            let x = s.trailing_zeros();
            s &= s - 1;
            doubles -= 1;
            loop_pips -= 2 * x;
        }
        let u = (self.odd & seen) ^ vb;
        let (mut n, mut sum) = (0u32, 0u32);
        let mut s = u;
        while s != 0 {
            n += 1;
            sum += s.trailing_zeros();
            s &= s - 1;
        }
        let top = 31 - u.leading_zeros();
        (edges + doubles - n / 2, pips + loop_pips - (sum - top), u)
    }

    /// The bound (`ub`, `ub_pips`) made exact for parity: a trail as long as [`Search::bound`]
    /// allows leaves out a perfect matching of U less one value w (its far end); if there is
    /// none, [`Search::t_join`] says how many more tiles and pips a trail must leave out.
    fn refine(&self, u: u32, ub: u32, ub_pips: u32) -> (u32, u32) {
        // Values of U with no neighbour in U can only be w.
        let mut lonely = 0u32;
        let mut s = u;
        while s != 0 {
            let x = s.trailing_zeros();
            s &= s - 1;
            if self.rows[x as usize] & u == 0 {
                lonely |= 1 << x;
            }
        }
        let top = 31 - u.leading_zeros();
        let mut cands = if lonely == 0 {
            u
        } else if lonely & (lonely - 1) == 0 {
            lonely
        } else {
            0
        };
        while cands != 0 {
            let w = 31 - cands.leading_zeros();
            cands &= !(1 << w);
            if matchable(&self.rows, u & !(1 << w)) {
                return (ub, ub_pips - (top - w));
            }
        }
        self.t_join(u, ub, ub_pips)
    }

    /// The exact parity bound: the cheapest set of tiles whose odd values are U less some w,
    /// costed by (tiles, pips) in that order. Its paths pair up U less w; each path costs at
    /// least the shortest one between its ends. Once the cost is known to reach what leaves
    /// nothing better than `best`, returns `best`'s own length and pips.
    #[inline(never)]
    fn t_join(&self, u: u32, ub: u32, ub_pips: u32) -> (u32, u32) {
        let mut vals = [0u32; T_JOIN_MAX as usize];
        let (mut k, mut sum) = (0usize, 0u32);
        let mut s = u;
        while s != 0 {
            if k == T_JOIN_MAX as usize {
                // No perfect matching: at least one tile more.
                return (ub - 1, ub_pips);
            }
            let x = s.trailing_zeros();
            s &= s - 1;
            vals[k] = x;
            sum += x;
            k += 1;
        }
        let top = vals[k - 1];
        let base = (k as u32 - 1) / 2;
        let cut = sum - top;
        // A cost of `enough` or more leaves nothing better than `best`.
        let enough = (ub + base - self.best_len) << 16 | (ub_pips + cut).saturating_sub(self.best_pips);
        // dist[i][j]: tiles << 16 | pips of the cheapest path between vals[i] and vals[j].
        let mut p = Pairing {
            dist: [[0u32; T_JOIN_MAX as usize]; T_JOIN_MAX as usize],
            near: [u32::MAX; T_JOIN_MAX as usize],
            far: 0,
        };
        for i in 0..k - 1 {
            let mut d = [u32::MAX; PIP_COUNT];
            let src = vals[i];
            d[src as usize] = 0;
            let mut seen = 1u32 << src;
            let mut frontier = seen;
            let mut need = u & !(2u32 << src).wrapping_sub(1);
            while need & !seen != 0 {
                let mut next = 0u32;
                let mut f = frontier;
                while f != 0 {
                    let x = f.trailing_zeros();
                    f &= f - 1;
                    let dx = d[x as usize] + (1 << 16) + x;
                    let mut nb = self.rows[x as usize] & !seen;
                    next |= nb;
                    while nb != 0 {
                        let y = nb.trailing_zeros();
                        nb &= nb - 1;
                        d[y as usize] = d[y as usize].min(dx + y);
                    }
                }
                seen |= next;
                frontier = next;
                need &= !next;
            }
            for j in i + 1..k {
                let dd = d[vals[j] as usize];
                p.dist[i][j] = dd;
                p.dist[j][i] = dd;
                p.near[i] = p.near[i].min(dd);
                p.near[j] = p.near[j].min(dd);
            }
        }
        let mut near_sum = 0u32;
        for &n in &p.near[..k] {
            p.far = p.far.max(n);
            near_sum += n;
        }
        match p.min((1u32 << k) - 1, true, near_sum, enough) {
            u32::MAX => (self.best_len, self.best_pips),
            cost => (ub + base - (cost >> 16), ub_pips + cut - (cost & 0xFFFF)),
        }
    }

    fn expand(&mut self, v: u8) {
        if let Some(m) = self.memo.as_deref_mut()
            && m.seen(v)
        {
            return;
        }
        let (m, mp, u) = self.bound(v);
        let (mut ub, mut ub_pips) = (self.path.len as u32 + m, self.path.pips as u32 + mp);
        let mut refined = false;
        let mut bits = self.rows[v as usize];
        let vb = 1u32 << v;
        while self.better(ub, ub_pips) {
            if !refined && ub <= self.best_len + 1 {
                refined = true;
                (ub, ub_pips) = self.refine(u, ub, ub_pips);
                if !self.better(ub, ub_pips) {
                    break;
                }
            }
            let q = bits.trailing_zeros() as u8;
            self.step(v, vb, q);
            bits &= bits - 1;
            if bits == 0 {
                break;
            }
        }
    }

    /// Lays the tile `[v|q]` (and the double `[q|q]` after it), then searches on from `q`.
    #[inline]
    fn step(&mut self, v: u8, vb: u32, q: u8) {
        let qb = 1u32 << q;
        let (vi, qi) = (v as usize, q as usize);
        let (v32, q32) = (v as u32, q as u32);
        let double = self.doubles & qb != 0;
        let len = self.path.len as usize;
        if self.pending && (len as u32) < self.best_len {
            // The path leaves the best trail: keep a copy of it.
            self.best.tiles = self.path.tiles;
            self.pending = false;
        }
        self.path.tiles[len] = Tile::new(Pip::from_u8(v), Pip::from_u8(q));
        if double {
            self.path.tiles[len + 1] = Tile::new(Pip::from_u8(q), Pip::from_u8(q));
        }
        let new_len = len as u32 + 1 + double as u32;
        let new_pips = self.path.pips as u32 + v32 + q32 + 2 * q32 * double as u32;
        if self.better(new_len, new_pips) {
            self.pending = true;
            (self.best_len, self.best_pips) = (new_len, new_pips);
        }
        if self.rows[qi] & !vb == 0 {
            // A dead end: nothing to search from q.
            return;
        }
        if self.budget == 0 {
            self.exhausted = true;
            return;
        }
        self.budget -= 1;
        let saved = (self.path.len, self.path.pips, self.active, self.odd);
        (self.path.len, self.path.pips) = (new_len as u8, new_pips as u16);
        self.rows[vi] &= !qb;
        self.rows[qi] &= !vb;
        self.deg[vi] -= 1;
        self.deg[qi] -= 1;
        if self.rows[vi] == 0 {
            self.active &= !vb;
        }
        self.odd ^= vb | qb;
        self.edges -= 1;
        self.pips -= v32 + q32;
        if double {
            self.doubles &= !qb;
            self.n_doubles -= 1;
            self.loop_pips -= 2 * q32;
        }
        if let Some(m) = self.memo.as_deref_mut() {
            m.used ^= 1 << m.bit[vi][qi];
        }
        self.expand(q);
        if let Some(m) = self.memo.as_deref_mut() {
            m.used ^= 1 << m.bit[vi][qi];
        }
        if double {
            self.doubles |= qb;
            self.n_doubles += 1;
            self.loop_pips += 2 * q32;
        }
        self.pips += v32 + q32;
        self.edges += 1;
        self.deg[vi] += 1;
        self.deg[qi] += 1;
        self.rows[vi] |= qb;
        self.rows[qi] |= vb;
        (self.path.len, self.path.pips, self.active, self.odd) = saved;
    }
}

/// Whether the values in `t` pair up along tiles of `rows`.
fn matchable(rows: &[u32; PIP_COUNT], t: u32) -> bool {
    if t == 0 {
        return true;
    }
    let u = t.trailing_zeros();
    let rest = t & (t - 1);
    let mut nb = rows[u as usize] & rest;
    while nb != 0 {
        let x = nb & nb.wrapping_neg();
        nb ^= x;
        if matchable(rows, rest ^ x) {
            return true;
        }
    }
    false
}

/// Distances between the values of U (see [`Search::t_join`]), and each one's nearest.
struct Pairing {
    dist: [[u32; T_JOIN_MAX as usize]; T_JOIN_MAX as usize],
    near: [u32; T_JOIN_MAX as usize],
    /// The largest of `near`.
    far: u32,
}

impl Pairing {
    /// The cheapest pairing of the indices in `left` by `dist`, where (while `spare`) one
    /// index may stay unpaired for free; `u32::MAX` if none costs less than `limit`. `near_sum`
    /// is the sum of `near` over `left`: each pair costs at least half its two `near`.
    fn min(&self, left: u32, spare: bool, near_sum: u32, limit: u32) -> u32 {
        if left == 0 {
            return 0;
        }
        // Half the nearest distances (one index left out, while `spare`) is a lower bound.
        let low = (near_sum - if spare { self.far.min(near_sum) } else { 0 }).div_ceil(2);
        if low >= limit {
            return u32::MAX;
        }
        let i = left.trailing_zeros() as usize;
        let rest = left & (left - 1);
        let rest_sum = near_sum - self.near[i];
        let mut best = limit;
        if spare {
            best = best.min(self.min(rest, false, rest_sum, best));
        }
        let mut r = rest;
        while r != 0 {
            let j = r.trailing_zeros() as usize;
            r &= r - 1;
            let d = self.dist[i][j];
            if d < best {
                let sub = self.min(rest & !(1 << j), spare, rest_sum - self.near[j], best - d);
                if sub != u32::MAX {
                    best = best.min(d + sub);
                }
            }
        }
        if best == limit { u32::MAX } else { best }
    }
}

/// PLAN: a longest trail of `hand` from open end `start`; ties to the most pips, then the
/// lexicographically smallest tile list (each double laid on the first visit of its value).
pub fn longest_plan(hand: &TileSet, start: Pip) -> Trail {
    plan_search(hand, start).0
}

/// [`longest_plan`], and whether the budget cut the search short.
fn plan_search(hand: &TileSet, start: Pip) -> (Trail, bool) {
    let mut s = Search {
        rows: [0; PIP_COUNT],
        deg: [0; PIP_COUNT],
        active: 0,
        odd: 0,
        edges: 0,
        pips: 0,
        doubles: 0,
        n_doubles: 0,
        loop_pips: 0,
        path: Trail::empty(start),
        best: Trail::empty(start),
        best_len: 0,
        best_pips: 0,
        pending: false,
        budget: 0,
        exhausted: false,
        memo: None,
    };
    for a in 0..PIP_COUNT {
        let r = hand.row(Pip::from_u8(a as u8));
        if r == 0 {
            continue;
        }
        let row = r & !(1 << a);
        s.rows[a] = row;
        s.active |= u32::from(row != 0) << a;
        if r != row {
            s.doubles |= 1 << a;
            s.n_doubles += 1;
            s.loop_pips += 2 * a as u32;
        }
        // Each non-double [a|b] once, from its smaller half.
        let mut up = row & !((2u32 << a) - 1);
        while up != 0 {
            let b = up.trailing_zeros() as usize;
            up &= up - 1;
            s.deg[a] += 1;
            s.deg[b] += 1;
            s.odd ^= 1 << a | 1 << b;
            s.edges += 1;
            s.pips += (a + b) as u32;
        }
    }
    let v = start.get();
    let vb = 1u32 << v;
    if s.doubles & vb != 0 {
        s.doubles &= !vb;
        s.n_doubles -= 1;
        s.loop_pips -= 2 * v as u32;
        s.path.tiles[0] = Tile::new(start, start);
        s.path.len = 1;
        s.path.pips = 2 * v as u16;
    }
    // The best so far: the root's own trail, the start of `path`.
    s.pending = true;
    (s.best_len, s.best_pips) = (s.path.len as u32, s.path.pips as u32);
    if s.rows[v as usize] == 0 {
        return (s.finish(), false);
    }
    // A memo key holds a bit per non-double of the hand beside the open end and a marker bit.
    let memo = s.edges <= MEMO_TILES;
    s.budget = if memo { FIRST_TRY } else { PLAN_BUDGET } - 1;
    s.expand(v);
    if !(memo && s.exhausted) {
        return (s.finish(), s.exhausted);
    }
    search_with_memo(s)
}

/// The search again from the root, with a [`Memo`] and the whole budget.
#[inline(never)]
fn search_with_memo(mut s: Search<'_>) -> (Trail, bool) {
    let mut memo = Memo { used: 0, bit: [[0; PIP_COUNT]; PIP_COUNT], slots: [0; MEMO_SLOTS] };
    let mut n = 0u8;
    for a in 0..PIP_COUNT {
        let mut r = s.rows[a] & !((2u32 << a) - 1);
        while r != 0 {
            let b = r.trailing_zeros() as usize;
            r &= r - 1;
            memo.bit[a][b] = n;
            memo.bit[b][a] = n;
            n += 1;
        }
    }
    // Back at the root, whose trail `path` still starts with.
    s.pending = true;
    (s.best_len, s.best_pips) = (s.path.len as u32, s.path.pips as u32);
    s.budget = PLAN_BUDGET - 1;
    s.exhausted = false;
    let mut s = Search { memo: Some(&mut memo), ..s };
    s.expand(s.path.start.get());
    (s.finish(), s.exhausted)
}

/// The PLAN search as it was before the bounds above, kept to test them against: the same
/// order and tie rule, pruned only by the reachable tiles less those the parity of the
/// degrees forces out, `(odd - 2) / 2`, and all their pips.
#[cfg(test)]
struct RefSearch {
    rows: [u32; PIP_COUNT],
    doubles: u32,
    path: Trail,
    best: Trail,
    budget: u32,
    exhausted: bool,
}

#[cfg(test)]
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
#[cfg(test)]
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

/// The current plan of one seat, searched again only when it went stale (S1c).
#[derive(Clone, Debug)]
pub struct PlanCache {
    trail: Trail,
    /// The tiles of `trail`, laid ones included.
    set: TileSet,
    /// The hand when the plan was made: a hand that is not a subset of it has drawn.
    hand: TileSet,
    /// Whether `trail` was ever computed this round.
    valid: bool,
    /// Plans searched (for tests and measurements).
    searches: u64,
}

impl Default for PlanCache {
    fn default() -> Self {
        PlanCache {
            trail: Trail::empty(Pip::ZERO),
            set: TileSet::EMPTY,
            hand: TileSet::EMPTY,
            valid: false,
            searches: 0,
        }
    }
}

impl PlanCache {
    /// Forgets the plan (a new round).
    pub fn reset(&mut self) {
        self.valid = false;
    }

    /// How many times a plan was searched.
    pub fn searches(&self) -> u64 {
        self.searches
    }

    /// The unplayed rest of the plan for `hand` and own open end `end`, searching again if the
    /// cached plan is stale: the hand drew, a plan tile left the hand out of order, or the own
    /// train no longer ends where the rest starts. Also the whole plan's tiles: the rest is
    /// exactly the plan's tiles still in `hand`.
    pub fn rest(&mut self, hand: &TileSet, end: Pip) -> (&[Tile], &TileSet) {
        if let Some(k) = self.fresh_from(hand, end) {
            return (&self.trail.tiles()[k..], &self.set);
        }
        self.trail = longest_plan(hand, end);
        self.set = self.trail.tiles().iter().copied().collect();
        self.hand = *hand;
        self.valid = true;
        self.searches += 1;
        (self.trail.tiles(), &self.set)
    }

    fn fresh_from(&self, hand: &TileSet, end: Pip) -> Option<usize> {
        if !self.valid {
            return None;
        }
        let drew = (0..PIP_COUNT as u8).fold(0, |d, v| d | hand.row(Pip::from_u8(v)) & !self.hand.row(Pip::from_u8(v)));
        if drew != 0 {
            return None;
        }
        let tiles = self.trail.tiles();
        let mut v = self.trail.start;
        let k = tiles.iter().take_while(|&&t| !hand.contains(t)).count();
        for &t in &tiles[..k] {
            v = t.other(v);
        }
        (v == end && tiles[k..].iter().all(|&t| hand.contains(t))).then_some(k)
    }
}

/// Which of the shared behaviours a bot adds to the planner.
#[derive(Clone, Copy, Debug, Default)]
pub struct Traits {
    /// S2 and S4 (`hoarder`): `(release, late)`.
    pub hoard: Option<(u32, usize)>,
    /// S3 and S5 (`cutthroat`).
    pub cutthroat: bool,
}

/// Where a move goes, relative to the seat to act.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Own,
    /// Another seat's marked train.
    Public(Seat),
    /// A started Mexican train, or starting one.
    Mexican {
        start: bool,
    },
    /// STOP, SKIP or BULLET.
    None,
}

/// What one decision knows, computed once.
struct Ctx<'a, 'v> {
    view: &'a View<'v>,
    me: Seat,
    own: TrainId,
    hand: &'v TileSet,
    plan: &'a [Tile],
    /// The plan's tiles, laid ones included (the rest is those still in `hand`).
    plan_set: &'a TileSet,
    decision: Option<Decision>,
    e: Pip,
    /// S6: another seat holds one tile.
    tapped: bool,
    /// S7(a): this seat's train is marked.
    marked: bool,
    /// S11 with the table as it is: the trains counted (own, the other marked seats', the
    /// started Mexican ones) as a mask of train slots, the hand's tiles fitting their ends
    /// summed over them, how many of those ends show each value, and the hand's tiles showing
    /// each of those ends and the engine number (other values: 0).
    counted: u64,
    fits: u32,
    ends: [u8; PIP_COUNT],
    suit: [u8; PIP_COUNT],
}

impl Ctx<'_, '_> {
    fn target(&self, m: Move) -> Target {
        if matches!(m.train, TrainId::STOP | TrainId::SKIP | TrainId::BULLET) {
            return Target::None;
        }
        let t = m.train.base();
        match t.owner() {
            Some(s) if s == self.me => Target::Own,
            Some(s) => Target::Public(s),
            None => Target::Mexican { start: self.view.train(t).len == 0 },
        }
    }

    /// The open end of the move's train after it.
    fn new_end(&self, m: Move) -> Pip {
        if self.view.rules().blanks_wild {
            if m.train.is_turned() { m.tile.low() } else { m.tile.high() }
        } else {
            m.tile.other(self.view.train(m.train.base()).end)
        }
    }

    /// The S11 totals of the table as it is (see the fields `counted` to `suit`).
    fn table_options(
        view: &View<'_>,
        me: Seat,
        hand: &TileSet,
        e: Pip,
    ) -> (u64, u32, [u8; PIP_COUNT], [u8; PIP_COUNT]) {
        let (mut counted, mut fits, mut ends, mut suit) = (0u64, 0u32, [0u8; PIP_COUNT], [0u8; PIP_COUNT]);
        let mut count = |t: TrainId| {
            let v = view.train(t).end;
            let n = hand.suit_len(v);
            counted |= 1 << t.index();
            fits += n;
            ends[v.index()] += 1;
            suit[v.index()] = n as u8;
        };
        count(TrainId::personal(me));
        for s in 0..view.players() {
            let q = Seat::from_index(s as usize);
            if q != me && view.is_marked(q) {
                count(TrainId::personal(q));
            }
        }
        for i in 0..view.mexican_started() {
            count(TrainId::mexican(i));
        }
        suit[e.index()] = hand.suit_len(e) as u8;
        (counted, fits, ends, suit)
    }

    /// S11: the placements this seat would have next turn after `m`, the table otherwise as
    /// now: on its own train, the other marked seats' trains, the started Mexican trains (one
    /// more if `m` starts one) and, while one may still start, the engine number. From the
    /// totals of the table as it is: the tile leaves the hand, and the moved train's end
    /// changes.
    fn options_after(&self, m: Move, target: Target) -> u32 {
        let view = self.view;
        let start = matches!(target, Target::Mexican { start: true });
        let started = view.mexican_started() + usize::from(start);
        let engine_open = started < view.rules().max_mexican_trains as usize;
        let n = if target == Target::None {
            self.fits + if engine_open { self.suit[self.e.index()] as u32 } else { 0 }
        } else {
            let t = m.tile;
            // The hand without `t`: a value's fitting tiles, less `t` if it shows the value.
            let out = self.hand.contains(t);
            let less = |v: Pip| u32::from(out && t.contains(v));
            let fits = |v: Pip| self.hand.suit_len(v) - less(v);
            // The same for a value in `suit`.
            let known = |v: Pip| self.suit[v.index()] as u32 - less(v);
            let (x, w) = (m.train.base(), self.new_end(m));
            let mut n = self.fits;
            if out {
                let (a, b) = (t.low(), t.high());
                n -= self.ends[a.index()] as u32 + if a == b { 0 } else { self.ends[b.index()] as u32 };
            }
            if x.index() < 64 && self.counted >> x.index() & 1 == 1 {
                n = n + fits(w) - known(view.train(x).end);
            }
            if start {
                let y = TrainId::mexican(view.mexican_started());
                n += fits(if y == x { w } else { view.train(y).end });
            }
            if engine_open {
                n += known(self.e);
            }
            n
        };
        #[cfg(debug_assertions)]
        assert_eq!(n, self.options_after_plain(m, target));
        n
    }

    /// [`Ctx::options_after`] counted train by train.
    #[cfg(debug_assertions)]
    fn options_after_plain(&self, m: Move, target: Target) -> u32 {
        let (hand, moved) = match target {
            Target::None => (*self.hand, None),
            _ => (self.hand.without(m.tile), Some((m.train.base(), self.new_end(m)))),
        };
        let view = self.view;
        let end = |t: TrainId| match moved {
            Some((x, v)) if x == t => v,
            _ => view.train(t).end,
        };
        let fits = |v: Pip| hand.suit_len(v);
        let mut n = fits(end(self.own));
        for s in 0..view.players() {
            let q = Seat::from_index(s as usize);
            if q != self.me && view.is_marked(q) {
                n += fits(end(TrainId::personal(q)));
            }
        }
        let started = view.mexican_started() + usize::from(matches!(target, Target::Mexican { start: true }));
        for i in 0..started {
            n += fits(end(TrainId::mexican(i)));
        }
        if started < view.rules().max_mexican_trains as usize {
            n += fits(self.e);
        }
        n
    }

    /// The trains this seat may lay a follow-up on besides `except`: own, marked, Mexican.
    fn other_ends(&self, except: TrainId) -> u32 {
        let view = self.view;
        let mut ends = 0u32;
        let mut add = |t: TrainId| {
            if t != except {
                ends |= 1 << view.train(t).end.get();
            }
        };
        add(self.own);
        for s in 0..view.players() {
            let q = Seat::from_index(s as usize);
            if q != self.me && view.is_marked(q) {
                add(TrainId::personal(q));
            }
        }
        for i in 0..view.mexican_started() {
            add(TrainId::mexican(i));
        }
        ends
    }

    /// Whether `hand` holds a non-double fitting one of `ends`.
    fn single_fits(hand: &TileSet, ends: u32) -> bool {
        let mut e = ends;
        while e != 0 {
            let v = e.trailing_zeros() as u8;
            e &= e - 1;
            if hand.row(Pip::from_u8(v)) & !(1 << v) != 0 {
                return true;
            }
        }
        false
    }
}

/// Number of key components (see [`choose`]).
const KEYS: usize = 11;

/// Bits each key component takes in a packed key, most important first, and its least value:
/// a component is stored as its value less that, so comparing packed keys as integers compares
/// the components in order. The widths hold every value a component can take: S6 a tile score
/// (two halves of at most `u16::MAX` each) or -1, S3 at most 1 + 1000 + 19, S4 -2 to 0, S11 at
/// most 19 fitting tiles for each of at most 21 ends (one's own train, 15 other seats' trains,
/// 4 Mexican trains, the engine number); the others 0 to 3.
const KEY_BITS: [u32; KEYS] = [2, 18, 1, 11, 2, 1, 2, 2, 2, 2, 16];
const KEY_MIN: [i64; KEYS] = [0, -1, 0, 0, 0, 0, 0, -2, 0, 0, 0];

/// The key components packed into one integer (see [`KEY_BITS`]).
fn pack(k: [i64; KEYS]) -> u64 {
    let mut key = 0u64;
    for i in 0..KEYS {
        let x = k[i] - KEY_MIN[i];
        debug_assert!((0..1 << KEY_BITS[i]).contains(&x), "key component {i} out of range: {}", k[i]);
        key = key << KEY_BITS[i] | x as u64;
    }
    key
}

/// Picks a move: the index into `moves` of the greatest key, ties to the smallest move.
///
/// Key components, most important first: build (lay PLAN; a bullet train always), S6, S7(a),
/// S3, S5, S10, S2, S4, S1, S8, S11. A component a bot lacks, or whose trigger is off, is 0.
pub fn choose(view: &View<'_>, moves: &MoveList, cache: &mut PlanCache, traits: Traits) -> usize {
    let me = view.seat();
    let own = TrainId::personal(me);
    let hand = view.hand();
    let (plan, plan_set) = cache.rest(hand, view.train(own).end);
    let tapped =
        (0..view.players()).any(|s| s as usize != me.index() && view.hand_size(Seat::from_index(s as usize)) == 1);
    let e = view.engine().1;
    let (counted, fits, ends, suit) = Ctx::table_options(view, me, hand, e);
    let ctx = Ctx {
        view,
        me,
        own,
        hand,
        plan,
        plan_set,
        decision: view.decision(),
        e,
        tapped,
        marked: view.is_marked(me),
        counted,
        fits,
        ends,
        suit,
    };
    let mut best = 0usize;
    let mut best_key = 0u64;
    for (i, &m) in moves.iter().enumerate() {
        let key = key(&ctx, moves, m, traits);
        if key > best_key || (key == best_key && m < moves[best]) {
            best = i;
            best_key = key;
        }
    }
    best
}

/// The move's key, packed (see [`pack`]).
fn key(c: &Ctx<'_, '_>, moves: &MoveList, m: Move, traits: Traits) -> u64 {
    let view = c.view;
    let rules = view.rules();
    let target = c.target(m);
    let placed = target != Target::None;
    let next_plan = c.plan.first().copied();
    let in_plan = placed && c.plan_set.contains(m.tile) && c.hand.contains(m.tile);
    let mut k = [0i64; KEYS];

    // Build phase: lay PLAN, then stop. A bullet train goes out at once.
    k[0] = if m.train == TrainId::BULLET {
        3
    } else if c.decision == Some(Decision::Build) {
        match (target, next_plan) {
            (Target::Own, Some(t)) if t == m.tile => 2,
            (Target::None, None) => 1,
            _ => 0,
        }
    } else {
        0
    };

    // S6: someone holds one tile: dump the highest score.
    if c.tapped {
        k[1] = if placed { rules.tile_score(m.tile) as i64 } else { -1 };
    }

    // S7(a): marked, and a play on one's own train is possible.
    k[2] = i64::from(c.marked && target == Target::Own);

    if traits.cutthroat {
        k[3] = s3(c, m, target);
        // S5: turn a marked opponent's end to a value it is known to lack (without breaking
        // PLAN); failing that, leave a public end the next seat is known to lack.
        if placed && !in_plan {
            let end_bit = 1u32 << c.new_end(m).get();
            let next = c.me.next(view.players());
            k[4] = match target {
                Target::Public(q) if view.known_voids(q) & end_bit != 0 => 2,
                Target::Public(_) | Target::Mexican { .. } if view.known_voids(next) & end_bit != 0 => 1,
                _ => 0,
            };
        }
    }

    // S10: start the Mexican train early with an engine-number tile that is not PLAN's first.
    if let Target::Mexican { start: true } = target
        && view.mexican_started() == 0
        && c.hand.suit_len(c.e) >= 2
        && next_plan != Some(m.tile)
    {
        k[5] = 1;
    }

    if let Some((release, late)) = traits.hoard {
        // S2: hold doubles back unless released; released ones go now.
        let chains = c.decision == Some(Decision::FollowUp) && rules.doubles_per_turn == DoublesPerTurn::Unlimited;
        k[6] = if !placed || !m.tile.is_double() {
            1
        } else {
            let v = m.tile.low();
            let outside = view.unplayed(v).saturating_sub(c.hand.suit_len(v));
            if outside <= release || c.hand.len() <= late || chains { 2 } else { 0 }
        };
        // S4: a double goes on another seat's public train, else the Mexican, else one's own.
        if placed && m.tile.is_double() {
            let rank = |t: Target| match t {
                Target::Public(_) => 2,
                Target::Mexican { .. } => 1,
                _ => 0,
            };
            let best = moves.iter().filter(|x| x.tile == m.tile).map(|&x| rank(c.target(x))).max().unwrap_or(0);
            k[7] = rank(target) - best;
        }
    }

    // S1: PLAN's next tile on one's own train, or an EXTRA elsewhere; then stopping; then an
    // extra on one's own train; a PLAN tile elsewhere last.
    k[8] = match target {
        Target::None => 2,
        Target::Own if next_plan == Some(m.tile) => 3,
        Target::Own if !in_plan => 1,
        _ if !in_plan => 3,
        _ => 0,
    };

    // S8: own train, then public trains, then the Mexican train.
    k[9] = match target {
        Target::Own => 2,
        Target::Public(_) => 1,
        _ => 0,
    };

    // S11: keep options open.
    k[10] = c.options_after(m, target) as i64;
    pack(k)
}

/// S3: leave a double open on the Mexican train, or, where the follow-up must cover the same
/// double, lay a double one cannot cover on another seat's public train.
fn s3(c: &Ctx<'_, '_>, m: Move, target: Target) -> i64 {
    let view = c.view;
    let rules = view.rules();
    if rules.obligation == ObligationRule::None {
        return 0;
    }
    let elsewhere = matches!(rules.follow_up, FollowUp::AnyEligible | FollowUp::AnyEligibleWithSecondDouble);
    match c.decision {
        Some(Decision::Normal) if elsewhere => {
            if !m.tile.is_double() || !matches!(target, Target::Mexican { start: false }) {
                return 0;
            }
            let v = m.tile.low();
            let rest = c.hand.without(m.tile);
            if !Ctx::single_fits(&rest, c.other_ends(m.train.base())) {
                return 0;
            }
            let next = c.me.next(view.players());
            let void = i64::from(view.known_voids(next) >> v.get() & 1 == 1);
            let outside = view.unplayed(v).saturating_sub(c.hand.suit_len(v)) as i64;
            1 + 1000 * void + outside
        }
        Some(Decision::FollowUp) if elsewhere => match view.follow_up_double() {
            // Leave one's own double on a train that is not one's own uncovered.
            Some((t, _)) if t.base() != c.own && target != Target::None => i64::from(m.train.base() != t.base()),
            _ => 0,
        },
        Some(Decision::Normal) if !elsewhere => {
            let v = m.tile.low();
            let coverable = c.hand.row(v) & !(1 << v.get()) != 0;
            i64::from(m.tile.is_double() && matches!(target, Target::Public(_)) && !coverable)
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{GameRng, below, mix, rng_from_seed};

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
                let (got, ran_out) = plan_search(&h, v);
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
}
