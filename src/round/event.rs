//! Events a round emits, and the observer hook that receives them.

use super::{EndReason, Seat, TrainId};
use crate::rules::{MAX_PENALTY_TILES, MAX_PLAYERS};
use crate::tile::{Pip, Tile};

/// Something that happened at the table, in the order it happened.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    /// A tile was placed; `end` is the train's new open end.
    Play {
        /// Who placed it.
        seat: Seat,
        /// The tile.
        tile: Tile,
        /// Where.
        train: TrainId,
        /// The new open end.
        end: Pip,
    },
    /// Branching doubles: the double showing `value` on `train` was covered, and two
    /// new open ends grew from it: branches `first` and the one after it.
    Branch {
        /// Where the double lies (a train or a branch).
        train: TrainId,
        /// The double's value, the new ends' value.
        value: Pip,
        /// The first of the two new branches; the second is the next branch id.
        first: TrainId,
        /// The whole train they belong to (`train` itself unless that is a branch).
        root: TrainId,
    },
    /// The engine was placed in the centre from `seat`'s hand.
    Engine {
        /// The placer.
        seat: Seat,
        /// The engine tile.
        tile: Tile,
    },
    /// A tile was drawn from the boneyard (full information; a strategy receives another seat's
    /// draw as [`SeenEvent::HiddenDraw`]).
    Draw {
        /// Who drew.
        seat: Seat,
        /// What was drawn.
        tile: Tile,
    },
    /// `seat`'s marker went on (logged only when it was off).
    Mark {
        /// The marker's owner.
        seat: Seat,
    },
    /// `seat`'s marker came off, right after the placement that lifted it.
    Unmark {
        /// The marker's owner.
        seat: Seat,
    },
    /// A penalty draw: `seat` draws the tiles listed (fewer when the boneyard runs short, none
    /// when it is empty).
    Penalty {
        /// The seat penalised.
        seat: Seat,
        /// The tiles drawn, in draw order; the rest `None`.
        tiles: [Option<Tile>; MAX_PENALTY_TILES],
        /// What it is for.
        reason: PenaltyReason,
    },
    /// The last-tile coins (`tap_forget`, `tap_catch`) judged `seat`'s unannounced-or-not last
    /// tile, when the penalty would fall (only under [`crate::Rules::tap_coins`]): a penalty
    /// follows when it `forgot` and was `caught`.
    Tap {
        /// The seat that was left with one tile.
        seat: Seat,
        /// It forgot to announce it.
        forgot: bool,
        /// Another seat caught it (never without `forgot`).
        caught: bool,
    },
    /// `seat` misses this turn (the Great Harbour Cay penalty with an empty boneyard).
    Skip {
        /// The seat that misses its turn.
        seat: Seat,
    },
    /// An idle turn: no placement, no draw, no marker change.
    Pass {
        /// Who passed.
        seat: Seat,
    },
    /// The round ended.
    RoundEnd {
        /// Why.
        reason: EndReason,
        /// Each seat's score.
        scores: [u32; MAX_PLAYERS],
    },
}

/// Why a seat draws penalty tiles.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PenaltyReason {
    /// The `tap` penalty models: a last tile not announced, caught.
    LastTile,
    /// `uncovered_double_penalty`: a turn ended leaving a double the seat placed uncovered.
    UncoveredDouble,
}

impl PenaltyReason {
    /// The name a log writes (`"reason"` of a `penalty` event; the last-tile penalty writes none).
    pub const fn name(self) -> &'static str {
        match self {
            PenaltyReason::LastTile => "last_tile",
            PenaltyReason::UncoveredDouble => "uncovered_double",
        }
    }
}

/// An event as one seat sees it, what [`Strategy::observe`](crate::Strategy::observe) receives:
/// another seat's draws and penalty tiles are hidden, everything else is public. Only a strategy
/// that declares [`Needs::hidden`](crate::Needs::hidden) gets every event
/// [`SeenEvent::Open`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SeenEvent {
    /// An event the seat sees whole: every public event, and its own draws and penalties.
    Open(Event),
    /// Another seat drew a tile from the boneyard.
    HiddenDraw {
        /// Who drew.
        seat: Seat,
    },
    /// Another seat drew `count` tiles as a penalty.
    HiddenPenalty {
        /// Who drew them.
        seat: Seat,
        /// How many (fewer than the penalty when the boneyard ran short).
        count: u8,
        /// What for.
        reason: PenaltyReason,
    },
}

impl Event {
    /// This event as `viewer` sees it; `all` for a strategy that sees the hidden tiles.
    pub fn seen_by(self, viewer: Seat, all: bool) -> SeenEvent {
        match self {
            Event::Draw { seat, .. } if !all && seat != viewer => SeenEvent::HiddenDraw { seat },
            Event::Penalty { seat, tiles, reason } if !all && seat != viewer => {
                SeenEvent::HiddenPenalty { seat, count: tiles.iter().flatten().count() as u8, reason }
            }
            ev => SeenEvent::Open(ev),
        }
    }
}

/// Receives events. With [`NoObserver`] every call compiles to nothing.
pub trait Observer {
    /// Called for every event.
    fn event(&mut self, ev: &Event);
}

/// The observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {
    #[inline(always)]
    fn event(&mut self, _ev: &Event) {}
}

impl<O: Observer + ?Sized> Observer for &mut O {
    #[inline]
    fn event(&mut self, ev: &Event) {
        (**self).event(ev)
    }
}
