//! What the planning bots (`planner`, `hoarder`, `cutthroat`) share: the PLAN search, its cache,
//! and the filter pipeline of the strategy behaviours drawn from the rule texts.
//!
//! - [`longest_plan`] (in `plan_search.rs`): PLAN(p), a longest trail of a hand
//!   from an open end, as an ordered tile list; ties to the higher pip total (S12), then to the
//!   lexicographically smallest list.
//! - [`PlanCache`]: the plan is searched again only after the hand gained a tile (a draw) or the
//!   seat's own train no longer ends where the unplayed rest of the plan starts (S1c).
//! - [`choose`]: scores every legal move by a key, one component per behaviour in
//!   priority order, and takes the greatest key; remaining ties go to the smallest move (tile,
//!   then train). Filtering the moves behaviour by behaviour is the same thing as comparing these
//!   keys lexicographically; the components are packed into one integer, each in a field wide
//!   enough for all its values, so that one comparison does it. What does not depend on the move
//!   (S11's count for the table as it is, S6, S7(a)) is computed once per decision. Everything
//!   read comes from the [`View`]; nothing allocates.

use crate::round::{Decision, Move, MoveList, Seat, TrainId};
use crate::rules::{DoublesPerTurn, FollowUp, Obligation as ObligationRule};
use crate::tile::{PIP_COUNT, Pip, Tile};
use crate::tile_set::TileSet;
use crate::view::View;

pub use super::plan_search::Trail;
pub use super::plan_search::{
    DECISION_PLAN_BUDGET, PLAN_BUDGET, ROLLOUT_PLAN_BUDGET, longest_plan, plan_nodes_on_this_thread,
};
pub(crate) use super::plan_search::{longest_plan_memo, longest_plan_memo_into, longest_plan_within};

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
    /// Nodes one plan search may expand ([`PLAN_BUDGET`], or [`ROLLOUT_PLAN_BUDGET`] for a bot
    /// playing a search bot's rollouts).
    budget: u32,
    /// Whether searches go through the thread's memo of recent searches (a limited cache: a
    /// search bot's rollouts, whose searches repeat across the candidate moves of a world).
    memo: bool,
}

impl Default for PlanCache {
    fn default() -> Self {
        PlanCache {
            trail: Trail::empty(Pip::ZERO),
            set: TileSet::EMPTY,
            hand: TileSet::EMPTY,
            valid: false,
            searches: 0,
            budget: PLAN_BUDGET,
            memo: false,
        }
    }
}

impl PlanCache {
    /// Forgets the plan (a new round).
    pub fn reset(&mut self) {
        self.valid = false;
    }

    /// Limits every plan search of this cache to `budget` expanded nodes, and has them answered
    /// from the thread's memo of recent searches where they repeat one: a limited cache plays
    /// a search bot's rollouts, whose searches repeat (the same answers, and the same nodes
    /// counted, as searching).
    pub fn limit(&mut self, budget: u32) {
        self.budget = budget;
        self.memo = true;
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
        if self.memo {
            longest_plan_memo_into(hand, end, self.budget, &mut self.trail);
        } else {
            self.trail = longest_plan_within(hand, end, self.budget);
        }
        // A trail's tiles are distinct.
        self.set = TileSet::EMPTY;
        for &t in self.trail.tiles() {
            self.set.insert_new(t);
        }
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
        let mut v = self.trail.start();
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
    pub(crate) hoard: Option<(u32, usize)>,
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
