//! `RoundState`: everything about one round in progress, as plain data (no heap).

use super::event::{Event, Observer};
use super::{ALL_TRAIN_SLOTS, EndReason, MAX_BRANCHES, Move, Obligation, Outcome, Seat, Train, TrainId};
use crate::deal::{Boneyard, Deal};
use crate::rules::{
    BranchingDoubles, EngineMode, FollowUp, GoOutOnDouble, MAX_MEXICAN_TRAINS, MAX_PLAYERS, MarkerRemoval, Opening,
    Rules,
};
use crate::tile::{PIP_COUNT, Pip, Tile};
use crate::tile_set::TileSet;

/// At most one double per pip value exists, so at most `PIP_COUNT` doubles can be open at once.
pub(crate) const MAX_OPEN_DOUBLES: usize = PIP_COUNT;

/// Where the turn state machine stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Phase {
    /// The engine is still to be found and placed (engine search draws, then placement).
    Setup,
    /// A build: the current seat lays tiles on its own train; `built` seats have finished,
    /// `placed` says whether this one has laid a tile yet.
    Build { kind: BuildKind, built: u8, placed: bool },
    /// The current seat's turn has not begun.
    TurnStart,
    /// Normal play; `Some(t)` once the seat has drawn `t` after finding no play.
    Normal(Option<Tile>),
    /// An obligation is pending; `Some(t)` once the seat has drawn `t`.
    Cover(Option<Tile>),
    /// The doubler's follow-up for the double on `train` showing `value` (what is legal depends
    /// on `rules.follow_up`).
    FollowUp { train: TrainId, value: Pip, drawn: Option<Tile> },
    /// Swan drive (`swan_drive`, docs/rules.md §9): the walk over the public trains, at walk position `pos` (see
    /// [`RoundState::swan_target`]).
    Swan { pos: u8 },
    /// dominorules.com: after a second double, the third tile goes on either double.
    SecondDouble { train: TrainId, value: Pip, train2: TrainId, value2: Pip },
    /// The round is over.
    Over,
}

/// Which kind of build is under way.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum BuildKind {
    /// Celko's "working on the railroad": any length from 1, a trailing double obliges (N-2).
    Celko,
    /// Fast game: maximum length, no obligations, going out only after all builds (`fast_game`, docs/rules.md §9).
    Fast,
    /// Bullet train: the declarer lays his whole hand on `train` (his own, or his partner's
    /// under partnerships), then every other seat a maximum-length build on its own (`bullet_train`, docs/rules.md §9).
    Bullet { declarer: Seat, train: TrainId },
    /// Delayed first turn: an unstarted seat lays a maximum-length build in its turn; `optional`
    /// once it could only start with the tile it drew (it may pass) (`delayed_first_turn`, docs/rules.md §9).
    Delayed { optional: bool },
}

/// A double placed this turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct TurnDouble {
    pub train: TrainId,
    pub value: Pip,
    pub exempt: bool,
}

/// What the match tells a round beyond the deal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RoundSetup {
    /// The round's engine number (a `HighestUnusedDoubleInHands` round finds its own).
    pub e: Pip,
    /// How this round's engine is found (a set-aside deal always uses `SetAside`).
    pub engine_mode: EngineMode,
    /// L_r (edge cases of docs/rules.md §11): where engine-search draws start.
    pub lead: Seat,
    /// The first player when the rules do not make it the engine placer.
    pub first: Seat,
    /// Doubles already used as engines this match (bit v for `[v|v]`).
    pub used_doubles: u32,
}

/// The parts of a round described from one seat's side ([`RoundState::from_position`]).
#[derive(Clone, Debug)]
pub(crate) struct PositionParts {
    /// The engine tile (a double).
    pub engine: Tile,
    /// Every hand: the mover's as described, the others filled with unseen tiles.
    pub hands: [TileSet; MAX_PLAYERS],
    /// The boneyard, in some order.
    pub boneyard: Vec<Tile>,
    /// Each started or marked train: id, open end, tiles laid, open double.
    pub trains: Vec<(TrainId, Pip, u8, bool)>,
    /// Markers on, bit per seat.
    pub markers: u16,
    /// Open doubles owed, oldest first.
    pub owed: Vec<Obligation>,
    /// Every tile on the table, the engine included.
    pub played: TileSet,
    /// The seat to move.
    pub current: Seat,
    /// The tile the mover just drew and must play, if any.
    pub drawn: Option<Tile>,
    /// Known voids per seat (bit per value).
    pub voids: [u32; MAX_PLAYERS],
}

/// Levels of loosened void records kept per seat ([`View::loose_voids`](crate::View::loose_voids)).
pub const LOOSE_LEVELS: usize = 2;

/// The table: what lies in the middle for every seat to see. Invariants: `played` holds exactly
/// the engine (once placed) and every tile on a train; `mexican_started` counts the Mexican
/// train slots with `len > 0`, and `branches` the branch slots in use, each grown from
/// `branch_root`; `pending[..pending_len]` are the open doubles owed, oldest first, with
/// `pending_fails` beside them (one entry per obligation, moved with it).
#[derive(Clone, Debug)]
pub(super) struct Table {
    pub(super) engine: Tile,
    pub(super) e: Pip,
    pub(super) trains: [Train; ALL_TRAIN_SLOTS],
    pub(super) mexican_started: u8,
    /// The seat that started the first Mexican train (its place in a swan walk, an edge case of docs/rules.md §11).
    pub(super) mexican_starter: Option<Seat>,
    /// Branching doubles (`branching_doubles`, docs/rules.md §9): branches opened so far, and the train each grew from.
    pub(super) branches: u8,
    pub(super) branch_root: [TrainId; MAX_BRANCHES],
    /// Markers on, bit per seat.
    pub(super) markers: u16,
    pub(super) played: TileSet,
    pub(super) pending: [Obligation; MAX_OPEN_DOUBLES],
    pub(super) pending_len: u8,
    /// Continuous draw (`continuous_draw`, docs/rules.md §9): failed cover attempts per pending obligation.
    pub(super) pending_fails: [u8; MAX_OPEN_DOUBLES],
}

/// Every train slot unstarted, at each engine number: a table is reset by copying its row.
/// Filled at run time, the 58 slots of three bytes were a loop of about 230 instructions, a
/// twentieth of a deal.
static UNSTARTED: [[Train; ALL_TRAIN_SLOTS]; crate::tile::PIP_COUNT] = {
    let mut rows = [[Train { end: Pip::ZERO, len: 0, open_double: false }; ALL_TRAIN_SLOTS]; crate::tile::PIP_COUNT];
    let mut p = 0;
    while p < crate::tile::PIP_COUNT {
        rows[p] = [Train { end: Pip::from_u8(p as u8), len: 0, open_double: false }; ALL_TRAIN_SLOTS];
        p += 1;
    }
    rows
};

impl Table {
    /// The table of a round about to begin: every train unstarted at `e`, nothing owed, the
    /// engine in the played set when it is set aside.
    #[inline]
    pub(super) fn new(engine: Tile, e: Pip, set_aside: bool) -> Table {
        Table {
            engine,
            e,
            trains: UNSTARTED[e.index()],
            mexican_started: 0,
            mexican_starter: None,
            branches: 0,
            branch_root: [TrainId(0); MAX_BRANCHES],
            markers: 0,
            played: if set_aside { TileSet::EMPTY.with(engine) } else { TileSet::EMPTY },
            pending: [Obligation { train: TrainId(0), value: Pip::ZERO, placer: Seat(0) }; MAX_OPEN_DOUBLES],
            pending_len: 0,
            pending_fails: [0; MAX_OPEN_DOUBLES],
        }
    }

    /// Removes the obligation on `train`, if any, and returns where it stood.
    pub(super) fn remove_pending(&mut self, train: TrainId) -> Option<usize> {
        let n = self.pending_len as usize;
        let i = self.pending[..n].iter().position(|o| o.train == train)?;
        self.pending.copy_within(i + 1..n, i);
        self.pending_fails.copy_within(i + 1..n, i);
        self.pending_len -= 1;
        Some(i)
    }

    /// Inserts an obligation at `at` (or last), keeping the others' order.
    pub(super) fn insert_pending(&mut self, at: Option<usize>, o: Obligation) {
        let n = self.pending_len as usize;
        let i = at.unwrap_or(n).min(n);
        self.pending.copy_within(i..n, i + 1);
        self.pending_fails.copy_within(i..n, i + 1);
        self.pending[i] = o;
        self.pending_fails[i] = 0;
        self.pending_len += 1;
    }

    /// Appends an obligation; `fails` counts the doubler's own failed follow-up (`continuous_draw`, docs/rules.md §9).
    pub(super) fn push_pending(&mut self, o: Obligation, fails: u8) {
        self.pending[self.pending_len as usize] = o;
        self.pending_fails[self.pending_len as usize] = fails;
        self.pending_len += 1;
    }
}

/// The tiles out of sight: every hand and the boneyard. Invariant: with the table's `played`
/// they partition the set, each tile in exactly one place.
#[derive(Clone, Debug)]
pub(super) struct Holdings {
    pub(super) hands: [TileSet; MAX_PLAYERS],
    pub(super) boneyard: Boneyard,
}

/// What the current turn has done so far: cleared when a turn begins
/// ([`RoundState::begin_turn`]), read when it ends ([`RoundState::end_turn`]). Invariant:
/// `doubles[..doubles_len]` are this turn's doubles in the order laid.
#[derive(Clone, Debug)]
pub(super) struct TurnScratch {
    pub(super) placed: bool,
    pub(super) drew: bool,
    pub(super) marker_changed: bool,
    pub(super) doubles: [TurnDouble; MAX_OPEN_DOUBLES],
    pub(super) doubles_len: u8,
    /// Double public (docs/rules.md §11): markers put on by a double this turn, which this turn's later
    /// placements do not lift.
    pub(super) public_this_turn: u16,
    /// Swan drive: this turn began normally with a placement on one's own train.
    pub(super) swan_ok: bool,
    /// Swan drive: the walk position to resume after a double's follow-up (0: not walking).
    pub(super) swan_resume: u8,
}

impl TurnScratch {
    /// Before the first turn.
    pub(super) fn new() -> TurnScratch {
        TurnScratch {
            placed: false,
            drew: false,
            marker_changed: false,
            doubles: [TurnDouble { train: TrainId(0), value: Pip::ZERO, exempt: false }; MAX_OPEN_DOUBLES],
            doubles_len: 0,
            public_this_turn: 0,
            swan_ok: false,
            swan_resume: 0,
        }
    }

    /// A turn begins: nothing done yet (the doubles' slots are left, `doubles_len` says none is
    /// valid).
    #[inline]
    pub(super) fn clear(&mut self) {
        self.placed = false;
        self.drew = false;
        self.marker_changed = false;
        self.doubles_len = 0;
        self.public_this_turn = 0;
        self.swan_ok = false;
        self.swan_resume = 0;
    }

    /// This turn's doubles, in the order laid.
    pub(super) fn doubles(&self) -> &[TurnDouble] {
        &self.doubles[..self.doubles_len as usize]
    }
}

/// Public void inference (the known voids of docs/rules.md §2). Invariant: while `track` is off,
/// the records are not kept up to date and every reader sees them empty ([`Voids::of`],
/// [`Voids::loose_of`]).
#[derive(Clone, Debug)]
pub(super) struct Voids {
    /// Bit `v` of seat `s`: every other seat can tell that `s` holds no tile that fits an open end `v`.
    pub(super) known: [u32; MAX_PLAYERS],
    /// Older void records loosened by the tiles a seat has since taken in unseen
    /// ([`View::loose_voids`](crate::View::loose_voids)): level `l` holds at most `l + 1`
    /// fitting tiles.
    pub(super) loose: [[u32; LOOSE_LEVELS]; MAX_PLAYERS],
    /// Whether `known` and `loose` are kept up to date (see [`RoundState::set_void_tracking`]).
    pub(super) track: bool,
}

impl Voids {
    /// Nothing known yet, tracking on.
    #[inline]
    pub(super) fn new() -> Voids {
        Voids { known: [0; MAX_PLAYERS], loose: [[0; LOOSE_LEVELS]; MAX_PLAYERS], track: true }
    }

    /// Turns the bookkeeping on or off; off, every record is cleared (and stays clear).
    fn set_tracking(&mut self, on: bool) {
        self.track = on;
        if !on {
            self.known = [0; MAX_PLAYERS];
            self.loose = [[0; LOOSE_LEVELS]; MAX_PLAYERS];
        }
    }

    /// The values `seat` is publicly known to lack (empty while not tracking).
    #[inline]
    pub(super) fn of(&self, seat: Seat) -> u32 {
        if self.track { self.known[seat.index()] } else { 0 }
    }

    /// The loosened records of `seat` (empty while not tracking).
    pub(super) fn loose_of(&self, seat: Seat) -> [u32; LOOSE_LEVELS] {
        if self.track { self.loose[seat.index()] } else { [0; LOOSE_LEVELS] }
    }

    /// Seat `p` took a tile in unseen by the table, after which it is known void in `now`:
    /// every record loosens by one tile.
    #[inline]
    pub(super) fn kept_draw(&mut self, p: Seat, now: u32) {
        let i = p.index();
        if self.track {
            let l = &mut self.loose[i];
            l.copy_within(0..LOOSE_LEVELS - 1, 1);
            l[0] = self.known[i] & !now;
        }
        self.known[i] = now;
    }
}

/// Counts kept for the round's [`Outcome`] and for the first-turn rules. Invariant: they only
/// grow during a round.
#[derive(Clone, Debug)]
pub(super) struct RoundStats {
    /// Turns each seat has begun.
    pub(super) turns_taken: [u16; MAX_PLAYERS],
    /// Seats that have played on their own train (bit per seat).
    pub(super) played_own: u16,
    /// Tiles each seat has drawn.
    pub(super) draws: [u16; MAX_PLAYERS],
    /// Seats that began their first turn unable to start their own train ([`Outcome::no_start`]).
    pub(super) no_start: u16,
    pub(super) turns: u32,
    pub(super) total_draws: u32,
    pub(super) decisions: u32,
}

impl RoundStats {
    /// Nothing counted yet.
    #[inline]
    pub(super) fn new() -> RoundStats {
        RoundStats {
            turns_taken: [0; MAX_PLAYERS],
            played_own: 0,
            draws: [0; MAX_PLAYERS],
            no_start: 0,
            turns: 0,
            total_draws: 0,
            decisions: 0,
        }
    }
}

/// One round in progress. Full information: only the engine, tests and observers see all of it;
/// strategies see a [`crate::view::View`].
///
/// Its parts each keep their own invariants: the [`Table`], the [`Holdings`], the
/// [`TurnScratch`], the [`Voids`] and the [`RoundStats`]; what is left here is whose turn it is
/// and where the turn machine stands.
#[derive(Clone, Debug)]
pub struct RoundState {
    pub(super) rules: Rules,
    pub(super) players: u8,
    pub(super) table: Table,
    pub(super) holdings: Holdings,
    pub(super) turn: TurnScratch,
    pub(super) voids: Voids,
    pub(super) stats: RoundStats,
    /// Consecutive idle turns (blocked test).
    pub(super) idle: u8,
    pub(super) current: Seat,
    pub(super) first: Seat,
    pub(super) lead: Seat,
    pub(super) placer: Option<Seat>,
    pub(super) engine_mode: EngineMode,
    pub(super) used_doubles: u32,
    pub(super) phase: Phase,
    /// Partnerships (docs/rules.md §11): seats whose last turn failed and that have not placed since.
    pub(super) failed: u16,
    /// Tap penalty models (N-8): the seat that ended its last turn on one tile unannounced.
    pub(super) tap_due: Option<Seat>,
    /// Great Harbour Cay tap penalty with an empty boneyard: seats that miss their next turn.
    pub(super) skip_next: u16,
    /// The seed of this round's last-tile coins (`tap_forget`, `tap_catch`):
    /// [`crate::rng::seeds::tap_round`] in a match, a fresh seed in a sampled world. Never shown
    /// to a seat.
    pub(super) tap_seed: u64,
    /// Last tiles judged by the coins so far this round (the index of the next coin pair).
    pub(super) taps_judged: u16,
    /// Seats with an idle, non-skipped turn since the table last changed (blocked test).
    pub(super) idle_seats: u16,
    pub(super) outcome: Option<Outcome>,
}

impl RoundState {
    /// A round ready to start: the engine in the centre, hands and boneyard from `deal`, `first`
    /// to act. `rules` must be valid; `deal.players` must equal `rules.players`.
    ///
    /// # Panics
    /// Panics if the deal and the rules disagree on the number of seats or `first` is not a seat.
    pub fn new(rules: &Rules, deal: &Deal, first: Seat) -> RoundState {
        let engine_mode = if deal.set_aside { EngineMode::SetAside } else { rules.engine_mode };
        let setup = RoundSetup { e: deal.engine.low(), engine_mode, lead: first, first, used_doubles: 0 };
        RoundState::with_setup(rules, deal, setup)
    }

    /// A round whose engine is found by `setup.engine_mode` (docs/rules.md §8, `engine_mode`): with `SetAside` the
    /// deal's engine is already in the centre; otherwise [`RoundState::advance`] first runs the
    /// engine search (draws from the boneyard), the placement, and any build phase.
    ///
    /// # Panics
    /// Panics if the deal and the rules disagree on the number of seats, or a seat is out of
    /// range.
    pub fn with_setup(rules: &Rules, deal: &Deal, setup: RoundSetup) -> RoundState {
        assert_eq!(deal.players, rules.players, "deal and rules disagree on players");
        let first = setup.first;
        assert!(first.index() < rules.players as usize, "first seat out of range");
        assert!(setup.lead.index() < rules.players as usize, "lead seat out of range");
        let set_aside = setup.engine_mode == EngineMode::SetAside;
        assert_eq!(set_aside, deal.set_aside, "a set-aside round needs a set-aside deal");
        RoundState {
            rules: rules.clone(),
            players: rules.players,
            table: Table::new(deal.engine, setup.e, set_aside),
            holdings: Holdings { hands: deal.hands, boneyard: deal.boneyard },
            turn: TurnScratch::new(),
            voids: Voids::new(),
            stats: RoundStats::new(),
            idle: 0,
            current: first,
            first,
            lead: setup.lead,
            placer: None,
            engine_mode: setup.engine_mode,
            used_doubles: setup.used_doubles,
            phase: RoundState::opening_phase(rules, set_aside),
            failed: 0,
            tap_due: None,
            skip_next: 0,
            tap_seed: 0,
            taps_judged: 0,
            idle_seats: 0,
            outcome: None,
        }
    }

    /// The phase a round begins in: its first turn when the engine is set aside and opens a
    /// one-tile game, else the setup (the engine search, its placement, any build phase).
    fn opening_phase(rules: &Rules, set_aside: bool) -> Phase {
        if set_aside && rules.opening == Opening::OneTile { Phase::TurnStart } else { Phase::Setup }
    }

    /// This state dealt again, in place, as [`RoundState::with_setup`] would build it from
    /// [`crate::deal::deal`]`(rules, setup.e, setup.engine_mode == SetAside, rng)`: the same
    /// round, field for field (a test in `game.rs` checks), without building a [`Deal`] and
    /// copying it in, which costs a round several hundred instructions. A loop that plays many
    /// rounds keeps one state and deals each into it, as the tournament runner does.
    ///
    /// # Panics
    /// As [`RoundState::with_setup`]; and if the rules are not valid.
    pub fn redeal(&mut self, rules: &Rules, setup: RoundSetup, rng: &mut crate::rng::GameRng) {
        let first = setup.first;
        assert!(first.index() < rules.players as usize, "first seat out of range");
        assert!(setup.lead.index() < rules.players as usize, "lead seat out of range");
        let set_aside = setup.engine_mode == EngineMode::SetAside;
        // Seats past the table's keep empty hands; a state from a larger table empties them.
        for h in self.holdings.hands.iter_mut().take(self.players as usize).skip(rules.players as usize) {
            *h = TileSet::EMPTY;
        }
        let engine = crate::deal::deal_into(
            rules,
            setup.e,
            set_aside,
            rng,
            &mut self.holdings.hands,
            &mut self.holdings.boneyard,
        );
        // A copy costs less than comparing (the deal table is a slice).
        self.rules = rules.clone();
        self.players = rules.players;
        self.table = Table::new(engine, setup.e, set_aside);
        self.turn = TurnScratch::new();
        self.voids = Voids::new();
        self.stats = RoundStats::new();
        self.idle = 0;
        self.current = first;
        self.first = first;
        self.lead = setup.lead;
        self.placer = None;
        self.engine_mode = setup.engine_mode;
        self.used_doubles = setup.used_doubles;
        self.phase = RoundState::opening_phase(rules, set_aside);
        self.failed = 0;
        self.tap_due = None;
        self.skip_next = 0;
        self.tap_seed = 0;
        self.taps_judged = 0;
        self.idle_seats = 0;
        self.outcome = None;
    }

    /// A round in play described from one seat's side (`mtrain analyze --position`,
    /// docs/analyze.md): every seat past its first turn, `p.current` at the start of its turn (or,
    /// with `p.drawn`, holding the tile it just drew), no public void known beyond `p.voids`.
    /// The caller checks the description (tiles used once, trains that chain from the engine).
    pub(crate) fn from_position(rules: &Rules, p: &PositionParts) -> RoundState {
        let deal = Deal {
            engine: p.engine,
            set_aside: true,
            players: rules.players,
            hands: p.hands,
            boneyard: Boneyard::from_tiles(&p.boneyard),
        };
        let setup = RoundSetup {
            e: p.engine.low(),
            engine_mode: EngineMode::SetAside,
            lead: p.current,
            first: p.current,
            used_doubles: 0,
        };
        let mut st = RoundState::with_setup(rules, &deal, setup);
        for &(id, end, len, open_double) in &p.trains {
            st.table.trains[id.index()] = Train { end, len, open_double };
            if id.is_mexican() && len > 0 {
                st.table.mexican_started += 1;
            }
        }
        st.table.markers = p.markers;
        for (i, &o) in p.owed.iter().enumerate() {
            st.table.pending[i] = o;
        }
        st.table.pending_len = p.owed.len() as u8;
        st.table.played = p.played;
        st.stats.turns_taken = [1; MAX_PLAYERS];
        st.voids.known = p.voids;
        st.phase = match p.drawn {
            None => Phase::TurnStart,
            Some(t) if p.owed.is_empty() => Phase::Normal(Some(t)),
            Some(t) => Phase::Cover(Some(t)),
        };
        if p.drawn.is_some() {
            st.begin_turn();
            st.turn.drew = true;
            st.stats.draws[p.current.index()] = 1;
        }
        st
    }

    // ---- full-information accessors ----

    /// The rules in force.
    pub(crate) fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Number of seats.
    pub(crate) fn players(&self) -> u8 {
        self.players
    }

    /// The engine tile.
    pub(crate) fn engine(&self) -> Tile {
        self.table.engine
    }

    /// The engine number e: every train starts with a tile showing it.
    pub(crate) fn engine_number(&self) -> Pip {
        self.table.e
    }

    /// A seat's hand.
    pub fn hand(&self, seat: Seat) -> &TileSet {
        &self.holdings.hands[seat.index()]
    }

    /// The boneyard, in draw order.
    pub fn boneyard(&self) -> &Boneyard {
        &self.holdings.boneyard
    }

    /// Seeds this round's last-tile coins (`tap_forget`, `tap_catch`, docs/rules.md `tap`): a
    /// match sets [`crate::rng::seeds::tap_round`] of its seed and the round's number before
    /// the first turn; a round built alone keeps seed 0 unless told. The coins matter only
    /// under [`Rules::tap_coins`]; the seed is never part of what a seat sees.
    pub fn set_tap_seed(&mut self, seed: u64) {
        self.tap_seed = seed;
    }

    /// The coin seed, for the engine's own tests.
    #[cfg(test)]
    pub(crate) fn tap_seed_for_tests(&self) -> u64 {
        self.tap_seed
    }

    /// One train.
    pub(crate) fn train(&self, id: TrainId) -> &Train {
        &self.table.trains[id.index()]
    }

    /// The train ids in play: personal trains of every seat, every Mexican slot allowed, then
    /// the branches opened so far (branching doubles).
    pub(crate) fn train_ids(&self) -> impl Iterator<Item = TrainId> + '_ {
        let mex = (self.rules.max_mexican_trains as usize).min(MAX_MEXICAN_TRAINS);
        (0..self.players as usize)
            .map(|s| TrainId::personal(Seat::from_index(s)))
            .chain((0..mex).map(TrainId::mexican))
            .chain((0..self.table.branches as usize).map(TrainId::branch))
    }

    /// The whole train a slot belongs to: a branch's root train (branching doubles, `branching_doubles`, docs/rules.md §9), or
    /// the train itself. Whoever may play on the root may play on its branches, and a play on a
    /// branch counts as a play on the root (its owner, its marker).
    #[inline]
    pub(crate) fn root_of(&self, t: TrainId) -> TrainId {
        match t.branch_index() {
            Some(k) => self.table.branch_root[k],
            None => t,
        }
    }

    /// Number of branches opened (branching doubles).
    #[doc(hidden)] // the engine's state, for its tests
    pub fn branches(&self) -> usize {
        self.table.branches as usize
    }

    /// Number of Mexican trains started.
    pub(crate) fn mexican_started(&self) -> usize {
        self.table.mexican_started as usize
    }

    /// Whether `seat`'s marker is on its train.
    pub(crate) fn is_marked(&self, seat: Seat) -> bool {
        self.table.markers & seat.bit() != 0
    }

    /// Markers as a seat mask.
    #[doc(hidden)] // the engine's state, for its tests
    pub fn marker_mask(&self) -> u16 {
        self.table.markers
    }

    /// Pending obligations, in placement order.
    pub(crate) fn pending(&self) -> &[Obligation] {
        &self.table.pending[..self.table.pending_len as usize]
    }

    /// Tiles on the table, the engine included.
    pub(crate) fn played(&self) -> &TileSet {
        &self.table.played
    }

    /// Tiles showing `v` not on the table (in some hand or the boneyard): public information.
    pub(crate) fn unplayed(&self, v: Pip) -> u32 {
        self.rules.set.get() as u32 + 1 - self.table.played.suit_len(v)
    }

    /// Unplayed tiles that could still be laid on an open end `v`: those showing `v`, and under
    /// blanks wild those showing a blank too (every one, if `v` is blank) (`blanks_wild`, docs/rules.md §9).
    pub(super) fn unplayed_fitting(&self, v: Pip) -> u32 {
        if !self.rules.blanks_wild {
            return self.unplayed(v);
        }
        if v == Pip::ZERO {
            return (Tile::set_size(self.rules.set) - self.table.played.len()) as u32;
        }
        let both = u32::from(!self.table.played.contains(Tile::new(v, Pip::ZERO)));
        self.unplayed(v) + self.unplayed(Pip::ZERO) - both
    }

    /// Open-end values `seat` is publicly known to hold no fitting tile for (bit `v` = value
    /// `v`): what the table has seen, described at [`crate::View::known_voids`].
    pub(crate) fn known_voids(&self, seat: Seat) -> u32 {
        self.voids.of(seat)
    }

    /// Turns void inference on or off (on by default). Off, [`RoundState::known_voids`] stays
    /// empty and failed turns skip the bookkeeping; [`crate::game::play_round`] turns it off when
    /// no seat's strategy uses voids. Play is the same either way.
    pub(crate) fn set_void_tracking(&mut self, on: bool) {
        self.voids.set_tracking(on);
    }

    /// The void records of `seat` loosened by tiles it took in unseen since, described at
    /// [`crate::View::loose_voids`].
    pub(crate) fn loose_voids(&self, seat: Seat) -> [u32; LOOSE_LEVELS] {
        self.voids.loose_of(seat)
    }

    /// Seat `p` took a tile in unseen by the table, after which it is known void in `now`:
    /// every record loosens by one tile.
    #[inline]
    pub(super) fn void_kept_draw(&mut self, p: Seat, now: u32) {
        self.voids.kept_draw(p, now);
    }

    /// Turns `seat` has completed this round.
    pub(crate) fn turns_taken(&self, seat: Seat) -> u16 {
        self.stats.turns_taken[seat.index()]
    }

    /// Whether `seat` has placed a tile on its own train this round.
    #[doc(hidden)] // the engine's state, for its tests
    pub fn played_own(&self, seat: Seat) -> bool {
        self.stats.played_own & seat.bit() != 0
    }

    /// Gives `seat` the hand `hand` (inference: a past state under a world's hypothesis).
    pub(crate) fn set_hand(&mut self, seat: Seat, hand: TileSet) {
        self.holdings.hands[seat.index()] = hand;
    }

    /// Tiles `seat` has drawn this round.
    pub(crate) fn draws(&self, seat: Seat) -> u16 {
        self.stats.draws[seat.index()]
    }

    /// Consecutive idle turns.
    #[doc(hidden)] // the engine's state, for its tests
    pub fn idle(&self) -> u8 {
        self.idle
    }

    /// The seat whose turn it is.
    pub fn current(&self) -> Seat {
        self.current
    }

    /// The seat that takes the round's first normal turn (known once the engine is placed).
    pub fn first(&self) -> Seat {
        self.first
    }

    /// L_r: where engine-search draws start (edge cases of docs/rules.md §11).
    #[doc(hidden)] // the engine's state, for its tests
    pub fn lead(&self) -> Seat {
        self.lead
    }

    /// The seat that placed the engine from its hand, once placed (None when set aside).
    #[doc(hidden)] // the engine's state, for its tests
    pub fn placer(&self) -> Option<Seat> {
        self.placer
    }

    /// How this round's engine is found.
    #[doc(hidden)] // the engine's state, for its tests
    pub fn engine_mode(&self) -> EngineMode {
        self.engine_mode
    }

    /// Turns completed so far.
    pub fn turns(&self) -> u32 {
        self.stats.turns
    }

    /// The result, once the round is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the round is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// A strategy's view of the table from `seat`.
    pub fn view(&self, seat: Seat) -> crate::view::View<'_> {
        crate::view::View::new(self, seat)
    }

    /// `seat`'s view, with the hidden tiles visible when `all` (see [`crate::View::hidden`]).
    #[inline]
    pub(crate) fn view_as(&self, seat: Seat, all: bool) -> crate::view::View<'_> {
        if all { crate::view::View::new_all(self, seat) } else { crate::view::View::new(self, seat) }
    }

    /// Shuffles the boneyard's remaining tiles into a new order from `rng` (for a player that
    /// knows every hand but not the order of the draws).
    pub(crate) fn reshuffle_boneyard(&mut self, rng: &mut crate::rng::GameRng) {
        let mut tiles = [crate::tile::Tile::from_pips(0, 0); crate::tile::MAX_TILES];
        let n = self.holdings.boneyard.len();
        tiles[..n].copy_from_slice(self.holdings.boneyard.as_slice());
        crate::rng::shuffle(rng, &mut tiles[..n]);
        self.holdings.boneyard = crate::deal::Boneyard::from_tiles(&tiles[..n]);
    }

    /// Whether an uncovered double is still waiting in this turn's follow-up (for views).
    pub(crate) fn follow_up_double(&self) -> Option<(TrainId, Pip)> {
        match self.phase {
            Phase::FollowUp { train, value, .. } | Phase::SecondDouble { train, value, .. } => Some((train, value)),
            Phase::Swan { .. } => None,
            _ => None,
        }
    }

    /// Whether the seat to act is building its train (a build phase).
    pub(crate) fn building(&self) -> bool {
        matches!(self.phase, Phase::Build { .. })
    }

    /// Whether the seat to act is on a swan walk.
    pub(crate) fn swanning(&self) -> bool {
        matches!(self.phase, Phase::Swan { .. })
    }

    /// The tile this seat drew this turn and must play if it can, if any.
    pub(crate) fn drawn_this_turn(&self) -> Option<Tile> {
        match self.phase {
            Phase::Normal(d) | Phase::Cover(d) | Phase::FollowUp { drawn: d, .. } => d,
            _ => None,
        }
    }

    // ---- primitives (docs/rules.md §6.3) ----

    /// DRAW(p): the next boneyard tile into p's hand.
    pub(super) fn draw<O: Observer>(&mut self, p: Seat, obs: &mut O) -> Option<Tile> {
        let t = self.holdings.boneyard.draw()?;
        self.holdings.hands[p.index()].insert_new(t);
        self.stats.draws[p.index()] += 1;
        self.stats.total_draws += 1;
        self.turn.drew = true;
        obs.event(&Event::Draw { seat: p, tile: t });
        Some(t)
    }

    /// The seats whose trains count as `s`'s own: `s`, and its partner under partnerships.
    #[inline]
    pub(super) fn team(&self, s: Seat) -> u16 {
        if self.rules.partnerships { s.bit() | self.partner(s).bit() } else { s.bit() }
    }

    /// The partner opposite `s` (partnerships).
    #[inline]
    pub(super) fn partner(&self, s: Seat) -> Seat {
        Seat::from_index((s.index() + self.players as usize / 2) % self.players as usize)
    }

    fn mark_one<O: Observer>(&mut self, p: Seat, obs: &mut O) {
        if self.table.markers & p.bit() == 0 {
            self.table.markers |= p.bit();
            self.turn.marker_changed = true;
            obs.event(&Event::Mark { seat: p });
        }
    }

    /// MARK(p) for a failed turn: no-op if already marked. Under partnerships (docs/rules.md §11) a failure
    /// only marks once the partner has failed too, and then marks both ends of the team train.
    pub(super) fn mark<O: Observer>(&mut self, p: Seat, obs: &mut O) {
        if !self.rules.partnerships {
            self.mark_one(p, obs);
            return;
        }
        self.failed |= p.bit();
        let q = self.partner(p);
        if self.failed & q.bit() != 0 {
            self.mark_one(p, obs);
            self.mark_one(q, obs);
        }
    }

    /// PLACE(p, t, τ), steps 1–6, for both turn engines. With `PLAIN` (the plain loop, under
    /// [`RoundState::plain_rules`]) the arms of the rules that loop never plays are compiled out:
    /// blanks wild, branching doubles, partnerships, swan drive, public doubles and builds.
    /// Returns whether p's own marker came off with this placement.
    #[inline(always)]
    pub(super) fn place<const PLAIN: bool, O: Observer>(&mut self, p: Seat, mv: Move, obs: &mut O) -> bool {
        let (tile, turned, train) =
            if PLAIN { (mv.tile, false, mv.train) } else { (mv.tile, mv.train.is_turned(), mv.train.base()) };
        let wild = !PLAIN && self.rules.blanks_wild;
        self.holdings.hands[p.index()].remove_present(tile);
        self.table.played.insert_new(tile);
        let root = if PLAIN { train } else { self.root_of(train) };
        let tr = &mut self.table.trains[train.index()];
        debug_assert!(wild || tile.contains(tr.end), "{tile} does not fit end {}", tr.end);
        // Branching triple cover: the first tile on a branch covers one of its double's sides.
        let branch_stage = !PLAIN && tr.len == 0 && train.branch_index().is_some();
        let started = tr.len == 0 && train.is_mexican();
        let first_of_turn = !self.turn.placed;
        let covered = tr.open_double;
        let joined = tr.end;
        tr.end = match (wild, turned) {
            // Blanks wild: the orientation was chosen (docs/rules.md §11).
            (true, false) => tile.high(),
            (true, true) => tile.low(),
            (false, _) => tile.other(tr.end),
        };
        tr.len += 1;
        let double = tile.is_double();
        tr.open_double = double;
        let end = tr.end;
        if started {
            self.table.mexican_started += 1;
            if train == TrainId::mexican(0) {
                self.table.mexican_starter = Some(p);
            }
        }
        self.turn.placed = true;
        self.failed &= !p.bit();
        obs.event(&Event::Play { seat: p, tile, train, end });
        if covered {
            let at = self.table.remove_pending(train);
            if !PLAIN && self.rules.branching_doubles != BranchingDoubles::Off {
                self.branch_covered(p, train, root, joined, branch_stage, at, obs);
            }
        }
        if double {
            let i = self.turn.doubles_len as usize;
            self.turn.doubles[i] = TurnDouble { train, value: end, exempt: false };
            self.turn.doubles_len += 1;
        }
        // Without partnerships a seat's team is itself.
        let team = if PLAIN { p.bit() } else { self.team(p) };
        let owner = root.owner();
        let own = if PLAIN { owner == Some(p) } else { owner.is_some_and(|q| team & q.bit() != 0) };
        if own {
            self.stats.played_own |= p.bit();
        }
        if !PLAIN && first_of_turn {
            self.turn.swan_ok = self.rules.swan_drive && own && matches!(self.phase, Phase::Normal(_));
        }
        let lifted = match self.rules.marker_removal {
            MarkerRemoval::OwnerOnOwnTrain if own => team,
            MarkerRemoval::OwnerOnOwnTrain => 0,
            MarkerRemoval::AnyPlayOnTrain => match owner {
                Some(q) if PLAIN => {
                    if self.rules.only_others_unmark && q == p {
                        0
                    } else {
                        q.bit()
                    }
                }
                Some(q) => {
                    if self.rules.only_others_unmark && team & q.bit() != 0 {
                        0
                    } else {
                        self.team(q)
                    }
                }
                None => 0,
            },
            MarkerRemoval::OwnerAnywhere => team,
        } & self.table.markers
            & if PLAIN { !0 } else { !self.turn.public_this_turn };
        let own_lifted = lifted & p.bit() != 0;
        if PLAIN {
            if lifted != 0 {
                // One seat's marker at most: the train's owner or p.
                self.table.markers &= !lifted;
                self.turn.marker_changed = true;
                obs.event(&Event::Unmark { seat: Seat::from_index(lifted.trailing_zeros() as usize) });
            }
        } else {
            let mut bits = lifted;
            while bits != 0 {
                let s = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.table.markers &= !(1 << s);
                self.turn.marker_changed = true;
                obs.event(&Event::Unmark { seat: Seat::from_index(s) });
            }
        }
        if !PLAIN
            && double
            && self.rules.double_makes_train_public
            && let Some(q) = root.owner()
            && self.table.markers & q.bit() == 0
        {
            // `double_public`, docs/rules.md §9: the double makes the train public; this turn's later plays keep it so.
            self.mark_one(q, obs);
            self.turn.public_this_turn |= q.bit();
        }
        // an edge case of docs/rules.md §11(e): in the fast game a build that empties a hand ends the round after all builds.
        let deferred =
            !PLAIN && matches!(self.phase, Phase::Build { kind: BuildKind::Fast | BuildKind::Bullet { .. }, .. });
        if self.holdings.hands[p.index()].is_empty() && !deferred && !(double && self.cover_owed(end, own_lifted)) {
            self.finish(EndReason::Out(p), true, obs);
        }
        own_lifted
    }

    /// Under `go_out_on_double = MustCover` (docs/rules.md §11), whether the double just placed showing
    /// `v` still owes its follow-up, so that an empty hand does not end the round yet. A dominorules.com
    /// second double owes nothing more: its third tile "from hand" cannot be drawn, and dominorules.com
    /// lets "two doubles as his last play" end the round.
    pub(super) fn cover_owed(&self, v: Pip, own_lifted: bool) -> bool {
        let second_double = matches!(self.phase, Phase::FollowUp { .. })
            && self.rules.follow_up == FollowUp::AnyEligibleWithSecondDouble;
        self.rules.go_out_on_double == GoOutOnDouble::MustCover
            && !second_double
            && self.rules.follow_up != FollowUp::Optional
            && !(self.rules.last_of_suit_exempt && self.unplayed_fitting(v) == 0)
            && !(self.rules.reprivatise_exempt && own_lifted)
    }

    /// Branching doubles (`branching_doubles`, docs/rules.md §9): a double showing `v` on `train` has just been covered.
    ///
    /// - Its first cover (`stage == false`) opens two branches with open end `v`, ends of `root`.
    ///   Under `FourWayTripleCover` each branch starts with its double side uncovered
    ///   (`open_double`), and the first is owed at once as an obligation, in the place of the one
    ///   just met (docs/rules.md §11): the next player must cover it.
    /// - A cover of the first branch (`stage`) makes the second branch owed; a cover of the
    ///   second completes the double and normal play resumes.
    ///
    /// Builds oblige nobody but Celko's trailing double (an edge case of docs/rules.md §11, N-2), so a double covered inside
    /// a build opens its branches without owing them; they are then plain open ends. The
    /// last-of-suit exception (the three exceptions to covering, docs/rules.md §9) spares a branch no tile can ever reach.
    #[allow(clippy::too_many_arguments)]
    fn branch_covered<O: Observer>(
        &mut self,
        p: Seat,
        train: TrainId,
        root: TrainId,
        v: Pip,
        stage: bool,
        at: Option<usize>,
        obs: &mut O,
    ) {
        let triple = self.rules.branching_doubles == BranchingDoubles::FourWayTripleCover;
        let building = matches!(self.phase, Phase::Build { .. });
        let owed = |s: &Self| triple && !building && !(s.rules.last_of_suit_exempt && s.unplayed_fitting(v) == 0);
        if stage {
            let k = train.branch_index().expect("a stage cover is on a branch");
            let second = TrainId::branch(k + 1);
            if k.is_multiple_of(2) && self.table.trains[second.index()].open_double {
                if owed(self) {
                    self.table.insert_pending(at, Obligation { train: second, value: v, placer: p });
                } else {
                    self.table.trains[second.index()].open_double = false;
                }
            }
            return;
        }
        let k = self.table.branches as usize;
        debug_assert!(k + 2 <= MAX_BRANCHES, "more branches than doubles");
        let owe = owed(self);
        for b in [k, k + 1] {
            self.table.trains[TrainId::branch(b).index()] = Train { end: v, len: 0, open_double: owe };
            self.table.branch_root[b] = root;
        }
        self.table.branches += 2;
        obs.event(&Event::Branch { train, value: v, first: TrainId::branch(k), root });
        if owe {
            self.table.insert_pending(at, Obligation { train: TrainId::branch(k), value: v, placer: p });
        }
    }

    /// Whether the obligation being served is a branch stage (`branching_doubles`, docs/rules.md §9 triple cover): it is on a
    /// branch with no tile yet.
    pub(super) fn serving_stage(&self) -> bool {
        self.table.pending_len > 0 && {
            let t = self.obligation_to_serve().train;
            t.branch_index().is_some() && self.table.trains[t.index()].len == 0
        }
    }

    /// Index in `pending` of the obligation to serve.
    pub(super) fn served_index(&self) -> usize {
        match self.rules.obligation_order {
            crate::rules::ObligationOrder::Lifo => self.table.pending_len as usize - 1,
            crate::rules::ObligationOrder::Fifo => 0,
        }
    }

    /// What every seat would score if the round ended now: its hand under the preset's scoring
    /// (under partnerships each seat is credited its team's score, 0 once a partner is out).
    /// At the end of a round these are [`Outcome::scores`]; a search that stops a rollout early
    /// judges the position by them.
    pub fn hand_scores(&self) -> [u32; MAX_PLAYERS] {
        let mut scores = [0u32; MAX_PLAYERS];
        // With blanks worth nothing, a hand scores its pip total (cached in the set).
        let pips_only = self.rules.double_blank_value == 0 && self.rules.blank_half_value == 0;
        for (s, score) in scores.iter_mut().enumerate().take(self.players as usize) {
            *score = if pips_only {
                u32::from(self.holdings.hands[s].pips())
            } else {
                self.holdings.hands[s].iter().map(|t| self.rules.tile_score(t)).sum()
            };
        }
        if self.rules.partnerships {
            // `partnerships`, docs/rules.md §9: a team whose partner went out scores 0; otherwise both hands. Each partner
            // is credited the team score, so team totals and winners follow per seat.
            let n = self.players as usize;
            let single = scores;
            for s in 0..n {
                let q = (s + n / 2) % n;
                let out = self.holdings.hands[s].is_empty() || self.holdings.hands[q].is_empty();
                scores[s] = if out { 0 } else { single[s] + single[q] };
            }
        }
        scores
    }

    /// Ends the round: scores every hand and emits `RoundEnd`. `mid_turn` counts the turn in
    /// progress as taken (a seat went out); otherwise END has already counted it.
    ///
    /// Convention: docs/rules.md §6.5 stops a going-out turn before END, so its rules never see that
    /// turn counted; mtrain still counts it in `turns_taken` and [`Outcome::turns`], because the
    /// statistics report "turns per round" and the winning turn is one of them. No rule reads the
    /// counters after the round ends, so play is unaffected.
    pub(super) fn finish<O: Observer>(&mut self, reason: EndReason, mid_turn: bool, obs: &mut O) {
        let scores = self.hand_scores();
        if mid_turn {
            self.stats.turns += 1;
            self.stats.turns_taken[self.current.index()] += 1;
        }
        self.phase = Phase::Over;
        self.outcome = Some(Outcome {
            reason,
            scores,
            turns: self.stats.turns,
            draws: self.stats.total_draws,
            decisions: self.stats.decisions,
            boneyard_left: self.holdings.boneyard.len() as u8,
            no_start: self.stats.no_start,
        });
        obs.event(&Event::RoundEnd { reason, scores });
    }
}
