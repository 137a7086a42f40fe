//! One round: state, the turn state machine, move generation, events.
//!
//! The round is driven by [`RoundState::advance`], which applies every forced action (draws,
//! markers, passes, single-option placements, round end) and stops only when the seat to act has
//! a real choice of two or more moves, or when the round is over. The caller then applies one of
//! the offered moves with [`RoundState::play`] (checked) or [`RoundState::play_unchecked`].

mod determinize;
mod event;
mod infer;
pub(crate) mod kernel;
mod movegen;
mod plain;
mod state;
mod trail;
mod turn;

pub use determinize::WorldSampler;
pub use event::{Event, NoObserver, Observer, PenaltyReason, SeenEvent};
pub use infer::OpponentModel;
#[cfg(test)]
pub(crate) use infer::recorded_rounds;
pub(crate) use infer::{History, Recording, Workspace};
pub use infer::{Probe as InferenceProbe, measure as measure_inference};
pub use movegen::MoveList;
pub(crate) use plain::STOP;
pub use state::{LOOSE_LEVELS, RoundSetup, RoundState};
pub(crate) use state::{MAX_OPEN_DOUBLES, PositionParts};
pub use trail::longest_trail;
pub(crate) use trail::whole_hand_trail;

use crate::rules::{MAX_MEXICAN_TRAINS, MAX_PLAYERS};
use crate::tile::{Pip, Tile};
use std::fmt;

/// A seat at the table, `0..players`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Seat(u8);

impl Seat {
    /// A checked seat.
    pub const fn new(s: u8) -> Option<Seat> {
        if (s as usize) < MAX_PLAYERS { Some(Seat(s)) } else { None }
    }

    /// Seat from an index the caller knows to be in range.
    #[inline]
    pub const fn from_index(s: usize) -> Seat {
        debug_assert!(s < MAX_PLAYERS);
        Seat(s as u8)
    }

    /// As an array index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat clockwise among `players`.
    #[inline]
    pub const fn next(self, players: u8) -> Seat {
        Seat(if self.0 + 1 == players { 0 } else { self.0 + 1 })
    }

    /// Bit of this seat in a seat mask.
    #[inline]
    pub const fn bit(self) -> u16 {
        1 << self.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Number of whole-train slots: one personal train per seat plus the Mexican trains.
pub(crate) const TRAIN_SLOTS: usize = MAX_PLAYERS + MAX_MEXICAN_TRAINS;

/// Branch slots (branching doubles, `branching_doubles`, docs/rules.md §9): each covered double opens two, and a train holds at
/// most one of each of the `PIP_COUNT` doubles, the engine never among them.
pub(crate) const MAX_BRANCHES: usize = 2 * crate::tile::PIP_COUNT;

/// Every slot a placement can target: the trains, then the branches.
pub(crate) const ALL_TRAIN_SLOTS: usize = TRAIN_SLOTS + MAX_BRANCHES;

// Slot ids must leave the turned flag (0x40) free.
const _: () = assert!(ALL_TRAIN_SLOTS <= 0x40);

/// A train: a seat's personal train, Mexican train `i`, or branch `k` (under branching doubles,
/// `branching_doubles`, docs/rules.md §9, an extra open end of the train it grew from; see
/// [`View::root_of`](crate::View::root_of)).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct TrainId(u8);

impl TrainId {
    /// The personal train of `seat`.
    #[inline]
    pub const fn personal(seat: Seat) -> TrainId {
        TrainId(seat.0)
    }

    /// Mexican train number `i` (0 is the first one started).
    #[inline]
    pub const fn mexican(i: usize) -> TrainId {
        TrainId((MAX_PLAYERS + i) as u8)
    }

    /// Branch number `k` (0 is the first opened).
    #[inline]
    pub const fn branch(k: usize) -> TrainId {
        TrainId((TRAIN_SLOTS + k) as u8)
    }

    /// The owner, for a personal train (a branch's owner is its root's:
    /// [`View::root_of`](crate::View::root_of)).
    #[inline]
    pub const fn owner(self) -> Option<Seat> {
        if (self.0 as usize) < MAX_PLAYERS { Some(Seat(self.0)) } else { None }
    }

    /// Whether this is a Mexican train.
    #[inline]
    pub const fn is_mexican(self) -> bool {
        self.0 as usize >= MAX_PLAYERS && (self.0 as usize) < TRAIN_SLOTS
    }

    /// The branch number, for a branch.
    #[inline]
    pub const fn branch_index(self) -> Option<usize> {
        if (self.0 as usize) >= TRAIN_SLOTS && (self.0 as usize) < ALL_TRAIN_SLOTS {
            Some(self.0 as usize - TRAIN_SLOTS)
        } else {
            None
        }
    }

    /// As an index into the train slots.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Flag bit of a turned placement (slot ids are below 64; the non-train targets above 128).
    const TURNED: u8 = 0x40;

    /// The same train, with the tile laid high half inward (blanks wild, `blanks_wild`, docs/rules.md §9).
    #[inline]
    pub const fn turned(self) -> TrainId {
        TrainId(self.0 | TrainId::TURNED)
    }

    /// Whether a placement on this target lays the tile high half inward (blanks wild).
    #[inline]
    pub const fn is_turned(self) -> bool {
        self.0 < 0x80 && self.0 & TrainId::TURNED != 0
    }

    /// The train itself, without the orientation flag.
    #[inline]
    pub const fn base(self) -> TrainId {
        if self.0 < 0x80 { TrainId(self.0 & !TrainId::TURNED) } else { self }
    }

    /// Not a train: the target of [`Move::STOP`].
    pub const STOP: TrainId = TrainId(u8::MAX);

    /// Not a train: the target of [`Move::BULLET`].
    pub const BULLET: TrainId = TrainId(u8::MAX - 1);

    /// Not a train: the target of [`Move::SKIP`].
    pub const SKIP: TrainId = TrainId(u8::MAX - 2);
}

impl fmt::Display for TrainId {
    /// A seat number for a personal train, `mexican` (or `mexican2`, ...) otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_turned() {
            return write!(f, "{} (turned)", self.base());
        }
        match self.owner() {
            Some(s) => write!(f, "{s}"),
            None if *self == TrainId::STOP => f.write_str("stop"),
            None if *self == TrainId::BULLET => f.write_str("bullet"),
            None if *self == TrainId::SKIP => f.write_str("skip"),
            None if self.branch_index().is_some() => write!(f, "branch{}", self.0 as usize - TRAIN_SLOTS + 1),
            None if self.0 as usize == MAX_PLAYERS => f.write_str("mexican"),
            None => write!(f, "mexican{}", self.0 as usize - MAX_PLAYERS + 1),
        }
    }
}

/// One train's public state. An unstarted train has `len == 0` and its open end is the engine
/// number.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Train {
    /// The open end.
    pub end: Pip,
    /// Tiles laid on it.
    pub len: u8,
    /// Whether the last tile is a double with nothing on it yet.
    pub open_double: bool,
}

/// One legal move: a tile placed on a train, or one of the moves that place nothing
/// ([`Move::STOP`], [`Move::SKIP`], [`Move::BULLET`]).
///
/// The kind of move is explicit: [`Move::tile`] and [`Move::train`] are `None` for a move that
/// places nothing, and [`Move::kind`] names it, so a strategy cannot take a stop for the double
/// blank without saying so. Placing on an unstarted Mexican slot starts that train. A move is two
/// bytes, and the engine reads it without a branch.
///
/// # Examples
///
/// ```
/// use mexican_train::{Move, MoveKind, Tile, TrainId, Seat};
///
/// let own = TrainId::personal(Seat::new(0).unwrap());
/// let play = Move::place("12-5".parse::<Tile>().unwrap(), own);
/// assert_eq!(play.tile().map(|t| t.pips()), Some(17));
/// assert_eq!(play.train(), Some(own));
/// assert_eq!(Move::STOP.tile(), None); // not the double blank
/// assert!(matches!(Move::STOP.kind(), MoveKind::Stop));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move {
    /// The tile from hand (a placeholder for a move that places nothing).
    pub(crate) tile: Tile,
    /// The target slot, with the turned flag ([`TrainId::turned`]), or a non-train target.
    pub(crate) train: TrainId,
}

/// What a [`Move`] does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    /// A tile from hand laid on a train.
    Place(Placement),
    /// Ending an optional sequence: finishing a build after at least one tile, or declining
    /// another double or another tile on a swan walk.
    Stop,
    /// Passing the Mexican train by in a swan walk and going on (`swan_drive`, docs/rules.md §9).
    Skip,
    /// Declaring a bullet train (`bullet_train`, docs/rules.md §9): the whole hand goes out on one's own train.
    Bullet,
}

/// A tile laid on a train.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Placement {
    /// The tile from hand.
    pub tile: Tile,
    /// The train (never carries the turned flag).
    pub train: TrainId,
    /// Blanks wild only (`blanks_wild`, docs/rules.md §9): the tile is laid high half inward, so its low half becomes the
    /// open end. Otherwise the half that matches the open end goes inward.
    pub turned: bool,
}

impl Placement {
    /// The train's open end after this placement, given its open end `joined` before it.
    /// Under blanks wild (`blanks_wild`) the orientation decides: the high half is the new end,
    /// or the low one when [`Placement::turned`]; otherwise the half that does not match
    /// `joined`.
    #[inline]
    pub fn new_end(self, joined: Pip, blanks_wild: bool) -> Pip {
        match (blanks_wild, self.turned) {
            (true, false) => self.tile.high(),
            (true, true) => self.tile.low(),
            (false, _) => self.tile.other(joined),
        }
    }
}

impl Move {
    /// Ending an optional sequence: finishing a build after at least one tile.
    pub const STOP: Move = Move { tile: Tile::from_pips(0, 0), train: TrainId::STOP };

    /// Declaring a bullet train (`bullet_train`, docs/rules.md §9): the whole hand goes out on one's own train.
    pub const BULLET: Move = Move { tile: Tile::from_pips(0, 0), train: TrainId::BULLET };

    /// Passing the Mexican train by in a swan walk and going on (`swan_drive`, docs/rules.md §9).
    pub const SKIP: Move = Move { tile: Tile::from_pips(0, 0), train: TrainId::SKIP };

    /// `tile` laid on `train` (low half inward under blanks wild).
    ///
    /// # Panics
    ///
    /// If `train` is not a train slot (one of the non-train targets such as [`TrainId::STOP`]).
    #[inline]
    pub const fn place(tile: Tile, train: TrainId) -> Move {
        assert!(train.index() < ALL_TRAIN_SLOTS, "not a train");
        Move { tile, train }
    }

    /// Blanks wild (`blanks_wild`, docs/rules.md §9): `tile` laid on `train` high half inward.
    ///
    /// # Panics
    ///
    /// If `train` is not a train slot.
    #[inline]
    pub const fn place_turned(tile: Tile, train: TrainId) -> Move {
        assert!(train.index() < ALL_TRAIN_SLOTS, "not a train");
        Move { tile, train: train.turned() }
    }

    /// What this move does.
    #[inline]
    pub fn kind(self) -> MoveKind {
        match self.train {
            TrainId::STOP => MoveKind::Stop,
            TrainId::SKIP => MoveKind::Skip,
            TrainId::BULLET => MoveKind::Bullet,
            t => MoveKind::Place(Placement { tile: self.tile, train: t.base(), turned: t.is_turned() }),
        }
    }

    /// The placement, for a move that lays a tile.
    #[inline]
    pub fn placement(self) -> Option<Placement> {
        match self.kind() {
            MoveKind::Place(p) => Some(p),
            _ => None,
        }
    }

    /// The tile laid; `None` for a move that places nothing.
    #[inline]
    pub fn tile(self) -> Option<Tile> {
        self.placement().map(|p| p.tile)
    }

    /// The train a tile is laid on (without the orientation); `None` for a move that places
    /// nothing.
    #[inline]
    pub fn train(self) -> Option<TrainId> {
        self.placement().map(|p| p.train)
    }

    /// Whether this is [`Move::STOP`].
    #[inline]
    pub fn is_stop(self) -> bool {
        self.train == TrainId::STOP
    }

    /// Whether this lays a tile (not [`Move::STOP`], [`Move::SKIP`] or [`Move::BULLET`]).
    #[inline]
    pub fn is_placement(self) -> bool {
        self.train.index() < 0x80
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.train {
            TrainId::STOP => f.write_str("stop"),
            TrainId::BULLET => f.write_str("bullet train"),
            TrainId::SKIP => f.write_str("skip"),
            _ => write!(f, "{} on {}", self.tile, self.train),
        }
    }
}

/// An uncovered double that later players must cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Obligation {
    /// Where the double lies.
    pub train: TrainId,
    /// Its value.
    pub value: Pip,
    /// Who placed it.
    pub placer: Seat,
}

/// What kind of choice the seat to act faces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decision {
    /// An ordinary placement (possibly restricted to a tile just drawn).
    Normal,
    /// Covering a pending obligation.
    Cover,
    /// The follow-up after one's own double.
    FollowUp,
    /// Laying one's train in a build phase: another tile, or [`Move::STOP`].
    Build,
    /// A swan walk (`swan_drive`, docs/rules.md §9): one tile on the next public train, [`Move::SKIP`] past the Mexican
    /// train, or [`Move::STOP`].
    Swan,
}

/// Where [`RoundState::advance`] stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    /// `seat` must choose among the moves written to the list.
    Choice(Seat, Decision),
    /// The round has ended; see [`RoundState::outcome`].
    Over,
}

/// Why a round ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// This seat emptied its hand.
    Out(Seat),
    /// Boneyard empty and a full go-round of idle turns.
    Blocked,
    /// Provably stuck (harbour_cay).
    Stuck,
}

impl EndReason {
    /// The JSONL name: `out`, `blocked` or `stuck`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Out(_) => "out",
            EndReason::Blocked => "blocked",
            EndReason::Stuck => "stuck",
        }
    }
}

/// The result of a finished round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// Why it ended.
    pub reason: EndReason,
    /// Each seat's score (pips left, per the rules' scoring values).
    pub scores: [u32; MAX_PLAYERS],
    /// Turns taken in the round.
    pub turns: u32,
    /// Tiles drawn in the round.
    pub draws: u32,
    /// Decisions in the round: moves chosen among two or more legal ones (by the strategies in
    /// [`crate::play_round`], or through [`RoundState::play`] when a caller drives the round).
    pub decisions: u32,
    /// Tiles left in the boneyard.
    pub boneyard_left: u8,
    /// Seats that could not start their own train on their first turn: when it began they held
    /// no tile showing their train's open end (the engine number), so they had to draw, pass or
    /// play elsewhere (a seat mask; blanks wild does not count blanks).
    pub no_start: u16,
}

/// Why a checked placement was refused.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PlayError {
    /// No seat has a choice right now (call `advance` first, or the round is over).
    #[error("no choice is pending")]
    NoChoicePending,
    /// The move is not among the legal moves.
    #[error("illegal move {0}")]
    Illegal(Move),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_that_lay_no_tile_have_no_tile() {
        for (m, kind) in [(Move::STOP, MoveKind::Stop), (Move::SKIP, MoveKind::Skip), (Move::BULLET, MoveKind::Bullet)]
        {
            assert_eq!(m.kind(), kind);
            assert_eq!((m.tile(), m.train(), m.placement()), (None, None, None));
            assert!(!m.is_placement());
        }
        let own = TrainId::personal(Seat::from_index(1));
        let t = Tile::from_pips(0, 0);
        let m = Move::place(t, own);
        assert_eq!(m.kind(), MoveKind::Place(Placement { tile: t, train: own, turned: false }));
        assert_ne!(m, Move::STOP);
        // A turned placement names its train without the orientation flag.
        let w = Move::place_turned(Tile::from_pips(0, 5), own);
        assert_eq!(w.train(), Some(own));
        let p = w.placement().unwrap();
        assert!(p.turned);
        assert_eq!(p.new_end(Pip::from_u8(5), true), Pip::from_u8(0));
        assert_eq!(
            Move::place(Tile::from_pips(0, 5), own).placement().unwrap().new_end(Pip::from_u8(5), true),
            Pip::from_u8(5)
        );
        assert_eq!(
            Move::place(Tile::from_pips(0, 5), own).placement().unwrap().new_end(Pip::from_u8(5), false),
            Pip::from_u8(0)
        );
    }
}
