//! The PLAN search: a longest trail of a hand from an open end, shared by the
//! planning bots through `plan.rs`.
//!
//! [`longest_plan`] returns the trail as an ordered tile list. Ties go to the higher pip total (S12), then to the lexicographically
//! smallest list. The hand is a multigraph on the pip values (a tile `[a|b]` an edge, a double
//! a loop); an optimal trail always takes a loop `[v|v]` whenever it stands on `v` and the loop
//! is unused, so the search takes every double on the first visit of its value and branches
//! only on the other tiles. Depth-first, children in tile order, so the first trail found with
//! the best (length, pips) is the smallest list; a branch is cut once an upper bound on the
//! (length, pips) of its trails does not beat the best so far. The bound counts the tiles
//! reachable from the current end, less what parity forces out: with U the values of odd
//! degree there, the current end's parity flipped, a trail ends on one value of U and must
//! leave out tiles whose odd-degree values are the rest of U, so at least half of them and
//! their pips. Near the best, that is made exact for parity: a trail as long as the bound
//! leaves out a perfect matching of U less its far end; if there is none, the cheapest such
//! set of tiles by (tiles, pips) pairs up U less one value along shortest paths. A search that
//! outgrows `FIRST_TRY` (500) expansions starts again with a memo of the positions it has been in
//! (tiles laid, open end): a position met again can only tie, later in tile order, and is
//! skipped. Each bound is at most the plain one (reachable tiles less `(odd - 2) / 2`, all their
//! pips), so the search walks part of the plain search's tree and returns its plan; a test
//! compares the two. Exact for every hand a round deals; a hand swollen by many draws can use
//! up the budget of [`PLAN_BUDGET`] expanded nodes, and then the best trail found so far is
//! the plan.

use crate::tile::{MAX_TILES, PIP_COUNT, Pip, Tile};
use crate::tile_set::TileSet;

/// Search nodes (with tiles left to try from their end) one [`longest_plan`] search may expand;
/// a search that starts again with a memo has this budget anew.
#[doc(hidden)] // the planner's search, for the integration tests and benches
pub const PLAN_BUDGET: u32 = 200_000;

/// The budget of a plan search inside a search bot's rollouts (`weighted` or `planner` playing
/// every seat of a sampled world): a decision of `expert` or `montecarlo` plays thousands of
/// rollout turns, so the plan of a hand swollen by draws (30 tiles and more, at two players under
/// `celko1998` or `family_house`) may not cost what a decision of the bot itself may. Hands a
/// round deals find their plan within it, so rollouts from dealt-size hands play as before.
#[doc(hidden)] // the planner's search, for the integration tests and benches
pub const ROLLOUT_PLAN_BUDGET: u32 = 20_000;

/// Plan-search nodes the rollouts of one search decision (`expert`, `montecarlo`, `oracle`) may
/// expand in all: once they have, the search stops at the end of the world it is playing and
/// plays the best move so far, as it does at its `ms` deadline. The busiest decisions of
/// dealt-size hands use about a tenth of it (98,000 nodes at most in a two-player `wikipedia`
/// match); it binds where draws swell hands past 30 tiles, and keeps one decision there within
/// about half a second on one core (`scripts/bench/bench-decision-cost.sh`).
#[doc(hidden)] // the planner's search, for the integration tests and benches
pub const DECISION_PLAN_BUDGET: u64 = 1_000_000;

thread_local! {
    /// Nodes expanded by plan searches on this thread (for `mtrain bench` and the cost
    /// benchmark: the search bots' work in units that do not depend on the machine).
    static NODES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Plan-search nodes expanded on the calling thread so far.
#[doc(hidden)] // the planner's search, for the integration tests and benches
pub fn plan_nodes_on_this_thread() -> u64 {
    NODES.with(std::cell::Cell::get)
}

/// An ordered trail of tiles from an open end: a plan.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)] // the planner's search, for the integration tests and benches
pub struct Trail {
    start: Pip,
    tiles: [Tile; MAX_TILES],
    len: u8,
    pips: u16,
}

/// Two trails are equal when they start at the same end and lay the same tiles (the unused
/// slots of the tile array are not part of the trail).
impl PartialEq for Trail {
    fn eq(&self, other: &Trail) -> bool {
        self.start == other.start && self.tiles() == other.tiles()
    }
}

impl Eq for Trail {}

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
#[doc(hidden)] // the planner's search, for the integration tests and benches
pub fn longest_plan(hand: &TileSet, start: Pip) -> Trail {
    plan_search(hand, start, PLAN_BUDGET).0
}

/// [`longest_plan`] with at most `budget` expanded nodes (each of the two tries): the best trail
/// found within it.
pub(crate) fn longest_plan_within(hand: &TileSet, start: Pip, budget: u32) -> Trail {
    plan_search(hand, start, budget.max(1)).0
}

/// [`longest_plan_within`], answered from this thread's [`PlanMemo`] when the same hand, end
/// and budget were searched recently: the same trail, and the same nodes counted. For the
/// searches of a search bot's rollouts, which repeat (a bot's own searches seldom do, and pay
/// the memo's upkeep for nothing).
pub(crate) fn longest_plan_memo(hand: &TileSet, start: Pip, budget: u32) -> Trail {
    let mut trail = Trail::empty(start);
    longest_plan_memo_into(hand, start, budget, &mut trail);
    trail
}

/// [`longest_plan_memo`] written into `out` (a plan cache's own trail): a memo hit copies only
/// the trail's tiles, with no whole trail built, returned and copied again.
pub(crate) fn longest_plan_memo_into(hand: &TileSet, start: Pip, budget: u32, out: &mut Trail) {
    let budget = budget.max(1);
    PLAN_MEMO.with(|cell| {
        let mut memo = cell.borrow_mut();
        let memo = memo.get_or_insert_with(PlanMemo::new);
        let slot = memo.slot(hand, start, budget);
        if memo.get_into(slot, hand, start, budget, out) {
            return;
        }
        let before = plan_nodes_on_this_thread();
        let (trail, _) = plan_search(hand, start, budget);
        memo.put(slot, hand, budget, &trail, plan_nodes_on_this_thread() - before);
        *out = trail;
    })
}

/// Slots of a [`PlanMemo`] (a power of two).
const PLAN_MEMO_SLOTS: usize = 1 << 11;

/// The longest trail a [`PlanMemo`] entry holds; longer plans are searched every time.
const PLAN_MEMO_TILES: usize = 24;

thread_local! {
    /// This thread's recent plan searches (see [`PlanMemo`]), made on first use.
    static PLAN_MEMO: std::cell::RefCell<Option<PlanMemo>> = const { std::cell::RefCell::new(None) };
}

/// Recent plan searches and their answers, direct-mapped by a hash of (hand, end, budget).
///
/// A search bot's rollouts search the same hands again and again: every candidate move of a
/// decision is rolled out in the same sampled worlds, so each opponent's first plan in a world
/// is searched once per candidate, and the seat deciding holds the same hand in every world.
/// In `expert`'s rollouts about a third of the searches repeat one made before (half the
/// nodes). A search is a pure function of the hand, the end and the budget, so the memo's
/// answer is the search's own; a hit adds the nodes the search took to
/// [`plan_nodes_on_this_thread`], so the per-decision budget ([`DECISION_PLAN_BUDGET`]) binds
/// exactly where it did without the memo and no move changes.
struct PlanMemo {
    entries: Vec<MemoEntry>,
}

#[derive(Clone, Copy)]
struct MemoEntry {
    rows: [u32; PIP_COUNT],
    budget: u32,
    /// Nodes the search counted.
    nodes: u32,
    start: Pip,
    /// Tiles of the trail (the first `len` of `tiles`).
    len: u8,
    /// Whether the slot holds an answer.
    used: bool,
    pips: u16,
    tiles: [Tile; PLAN_MEMO_TILES],
}

impl PlanMemo {
    fn new() -> PlanMemo {
        let empty = MemoEntry {
            rows: [0; PIP_COUNT],
            budget: 0,
            nodes: 0,
            start: Pip::ZERO,
            len: 0,
            used: false,
            pips: 0,
            tiles: [Tile::from_pips(0, 0); PLAN_MEMO_TILES],
        };
        PlanMemo { entries: vec![empty; PLAN_MEMO_SLOTS] }
    }

    /// The slot of (hand, start, budget): a multiplicative hash of the rows.
    #[inline]
    fn slot(&self, hand: &TileSet, start: Pip, budget: u32) -> usize {
        let mut h = u64::from(start.get()) << 32 | u64::from(budget);
        for &r in hand.rows() {
            h = (h.rotate_left(7) ^ u64::from(r)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        (h >> 40) as usize & (PLAN_MEMO_SLOTS - 1)
    }

    /// The trail stored in `slot` for exactly (hand, start, budget), written into `out` (true),
    /// its nodes counted again; false, `out` untouched, when the slot holds another search.
    #[inline]
    fn get_into(&self, slot: usize, hand: &TileSet, start: Pip, budget: u32, out: &mut Trail) -> bool {
        let e = &self.entries[slot];
        if !(e.used && e.start == start && e.budget == budget && e.rows == *hand.rows()) {
            return false;
        }
        let n = e.len as usize;
        // The slots past the trail's length are not part of it (see `Trail`'s `PartialEq`).
        out.start = start;
        out.tiles[..n].copy_from_slice(&e.tiles[..n]);
        out.len = e.len;
        out.pips = e.pips;
        count_nodes(e.nodes);
        true
    }

    /// Keeps `trail`, the answer for (hand, its start, budget) that took `nodes` nodes, in `slot`.
    #[inline]
    fn put(&mut self, slot: usize, hand: &TileSet, budget: u32, trail: &Trail, nodes: u64) {
        let (Ok(nodes), true) = (u32::try_from(nodes), trail.len() <= PLAN_MEMO_TILES) else {
            return;
        };
        let e = &mut self.entries[slot];
        e.rows = *hand.rows();
        e.budget = budget;
        e.nodes = nodes;
        e.start = trail.start;
        e.len = trail.len;
        e.used = true;
        e.pips = trail.pips;
        e.tiles[..trail.len()].copy_from_slice(trail.tiles());
    }
}

/// [`longest_plan_within`], and whether the budget cut the search short.
fn plan_search(hand: &TileSet, start: Pip, budget: u32) -> (Trail, bool) {
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
    let first = if memo { FIRST_TRY.min(budget) } else { budget };
    s.budget = first - 1;
    s.expand(v);
    count_nodes(first - 1 - s.budget);
    if !(memo && s.exhausted) {
        return (s.finish(), s.exhausted);
    }
    search_with_memo(s, budget)
}

fn count_nodes(n: u32) {
    NODES.with(|c| c.set(c.get() + u64::from(n)));
}

/// The search again from the root, with a [`Memo`] and the whole budget.
#[inline(never)]
fn search_with_memo(mut s: Search<'_>, budget: u32) -> (Trail, bool) {
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
    s.budget = budget - 1;
    s.exhausted = false;
    let mut s = Search { memo: Some(&mut memo), ..s };
    s.expand(s.path.start.get());
    count_nodes(budget - 1 - s.budget);
    (s.finish(), s.exhausted)
}

#[cfg(test)]
mod tests;
