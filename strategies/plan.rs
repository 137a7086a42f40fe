//! What the planning bots (`planner`, `hoarder`, `cutthroat`) share: the PLAN search, its cache,
//! and the filter pipeline of RULES.md §6.
//!
//! - [`longest_plan`]: PLAN(p) of RULES.md §6, a longest trail of a hand from an open end, as an
//!   ordered tile list. Ties go to the higher pip total (S12), then to the lexicographically
//!   smallest list. The hand is a multigraph on the pip values (a tile `[a|b]` an edge, a double
//!   a loop); an optimal trail always takes a loop `[v|v]` whenever it stands on `v` and the loop
//!   is unused, so the search takes every double on the first visit of its value and branches
//!   only on the other tiles. Depth-first, children in tile order, pruned by an upper bound on
//!   (length, pips): the tiles reachable from the current end less those the parity of the
//!   degrees forces out. Exact for every hand a round deals; a hand swollen by many draws can hit
//!   the budget of [`PLAN_BUDGET`] nodes, and then the best trail found so far is the plan.
//! - [`PlanCache`]: the plan is searched again only after the hand gained a tile (a draw) or the
//!   seat's own train no longer ends where the unplayed rest of the plan starts (S1c).
//! - [`choose`]: scores every legal move by a key, one component per behaviour in the §6
//!   priority order, and takes the greatest key; remaining ties go to the smallest move (tile,
//!   then train). Filtering the moves behaviour by behaviour is the same thing as comparing these
//!   keys lexicographically. Everything read comes from the [`View`]; nothing allocates.

use crate::round::{Decision, Move, MoveList, Seat, TrainId};
use crate::rules::{DoublesPerTurn, FollowUp, Obligation as ObligationRule};
use crate::tile::{MAX_TILES, PIP_COUNT, Pip, Tile};
use crate::tile_set::TileSet;
use crate::view::View;

/// Search nodes one [`longest_plan`] call may visit.
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

/// The DFS state: non-double tiles as adjacency rows, doubles as a value mask.
struct Search {
    rows: [u32; PIP_COUNT],
    doubles: u32,
    path: Trail,
    best: Trail,
    budget: u32,
}

impl Search {
    /// Upper bounds on the tiles and pips a trail from `v` can still add.
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
            // Edge [u|q] adds u from row u and q from row q: its pips, once.
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
        }
        if double {
            self.pop(d);
            self.doubles |= 1 << v;
        }
    }
}

/// PLAN: a longest trail of `hand` from open end `start`; ties to the most pips, then the
/// lexicographically smallest tile list (each double laid on the first visit of its value).
pub fn longest_plan(hand: &TileSet, start: Pip) -> Trail {
    let mut rows = [0u32; PIP_COUNT];
    let mut doubles = 0u32;
    for (v, row) in rows.iter_mut().enumerate() {
        let r = hand.row(Pip::from_u8(v as u8));
        *row = r & !(1 << v);
        doubles |= (r >> v & 1) << v;
    }
    let mut s = Search { rows, doubles, path: Trail::empty(start), best: Trail::empty(start), budget: PLAN_BUDGET };
    s.dfs(start.get());
    s.best
}

/// The current plan of one seat, searched again only when it went stale (S1c).
#[derive(Clone, Debug)]
pub struct PlanCache {
    trail: Trail,
    /// The hand when the plan was made: a hand that is not a subset of it has drawn.
    hand: TileSet,
    /// Whether `trail` was ever computed this round.
    valid: bool,
    /// Plans searched (for tests and measurements).
    searches: u64,
}

impl Default for PlanCache {
    fn default() -> Self {
        PlanCache { trail: Trail::empty(Pip::ZERO), hand: TileSet::EMPTY, valid: false, searches: 0 }
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
    /// train no longer ends where the rest starts.
    pub fn rest(&mut self, hand: &TileSet, end: Pip) -> &[Tile] {
        if let Some(k) = self.fresh_from(hand, end) {
            return &self.trail.tiles()[k..];
        }
        self.trail = longest_plan(hand, end);
        self.hand = *hand;
        self.valid = true;
        self.searches += 1;
        self.trail.tiles()
    }

    fn fresh_from(&self, hand: &TileSet, end: Pip) -> Option<usize> {
        let drew = (0..PIP_COUNT as u8).any(|v| hand.row(Pip::from_u8(v)) & !self.hand.row(Pip::from_u8(v)) != 0);
        if !self.valid || drew {
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
    hand: TileSet,
    plan: &'a [Tile],
    plan_set: TileSet,
    decision: Option<Decision>,
    e: Pip,
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

    /// S11: the placements this seat would have next turn after `m`, the table otherwise as now.
    fn options_after(&self, m: Move, target: Target) -> u32 {
        let (hand, moved) = match target {
            Target::None => (self.hand, None),
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
const KEYS: usize = 12;

/// Picks a move: the index into `moves` of the greatest key, ties to the smallest move.
///
/// Key components, most important first: build (lay PLAN; a bullet train always), S6, S7(a),
/// S3, S5, S10, S2, S4, S1, S8, S11. A component a bot lacks, or whose trigger is off, is 0.
pub fn choose(view: &View<'_>, moves: &MoveList, cache: &mut PlanCache, traits: Traits) -> usize {
    let me = view.seat();
    let own = TrainId::personal(me);
    let hand = *view.hand();
    let plan = cache.rest(&hand, view.train(own).end);
    let plan_set: TileSet = plan.iter().copied().collect();
    let ctx = Ctx { view, me, own, hand, plan, plan_set, decision: view.decision(), e: view.engine().1 };
    let mut best = 0usize;
    let mut best_key = [i64::MIN; KEYS];
    for (i, &m) in moves.iter().enumerate() {
        let key = key(&ctx, moves, m, traits);
        if key > best_key || (key == best_key && m < moves[best]) {
            best = i;
            best_key = key;
        }
    }
    best
}

fn key(c: &Ctx<'_, '_>, moves: &MoveList, m: Move, traits: Traits) -> [i64; KEYS] {
    let view = c.view;
    let rules = view.rules();
    let target = c.target(m);
    let placed = target != Target::None;
    let next_plan = c.plan.first().copied();
    let in_plan = placed && c.plan_set.contains(m.tile);
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
    let tapped =
        (0..view.players()).any(|s| s as usize != c.me.index() && view.hand_size(Seat::from_index(s as usize)) == 1);
    if tapped {
        k[1] = if placed { rules.tile_score(m.tile) as i64 } else { -1 };
    }

    // S7(a): marked, and a play on one's own train is possible.
    k[2] = i64::from(view.is_marked(c.me) && target == Target::Own);

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
    k
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
