//! Events a round emits, and the observer hook that receives them.

use super::{EndReason, Seat, TrainId};
use crate::rules::MAX_PLAYERS;
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
    /// A last-tile penalty (the `tap` penalty models): `seat` draws the tiles listed (fewer when the
    /// boneyard runs short).
    Penalty {
        /// The seat that did not announce its last tile.
        seat: Seat,
        /// The tiles drawn.
        tiles: [Option<Tile>; 2],
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
    /// Another seat drew `count` tiles as a last-tile penalty.
    HiddenPenalty {
        /// Who drew them.
        seat: Seat,
        /// How many (fewer than the penalty when the boneyard ran short).
        count: u8,
    },
}

impl Event {
    /// This event as `viewer` sees it; `all` for a strategy that sees the hidden tiles.
    pub fn seen_by(self, viewer: Seat, all: bool) -> SeenEvent {
        match self {
            Event::Draw { seat, .. } if !all && seat != viewer => SeenEvent::HiddenDraw { seat },
            Event::Penalty { seat, tiles } if !all && seat != viewer => {
                SeenEvent::HiddenPenalty { seat, count: tiles.iter().flatten().count() as u8 }
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
