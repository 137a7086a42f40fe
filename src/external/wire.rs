//! The wire vocabulary of the bot protocol (`docs/bot-protocol.md`): tiles, trains and events as
//! JSON, written with serde. The game log (`mtrain play --log`, `tournament --log-games`,
//! [`crate::log`]) writes its events in the same words (docs/log-format.md).

use crate::round::{EndReason, Event, PenaltyReason, Seat, TrainId};
use crate::tile::{Pip, Tile};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// A tile as text, low half first: `3-12`.
pub(crate) struct TileText(pub Tile);

impl Serialize for TileText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// A tile as laid: the half joined to the train first, `12-5` with the new end 5.
pub(crate) struct Laid(pub Tile, pub Pip);

impl Serialize for Laid {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{}-{}", self.0.other(self.1), self.1))
    }
}

/// A train: a seat number for a personal train, otherwise its name (`mexican`, `mexican2`,
/// `branch1`, ...), as in the game log.
pub(crate) struct TrainRef(pub TrainId);

impl Serialize for TrainRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.base().owner() {
            Some(seat) => s.serialize_u8(seat.index() as u8),
            None => s.collect_str(&self.0.base()),
        }
    }
}

/// A hand or any tile set as a list of tiles.
pub(crate) struct Tiles<I>(pub I);

impl<I: Iterator<Item = Tile> + Clone> Serialize for Tiles<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for t in self.0.clone() {
            seq.serialize_element(&TileText(t))?;
        }
        seq.end()
    }
}

/// A `key=value` list as a JSON object, in the order given.
pub(crate) struct Pairs<'a>(pub &'a [(String, String)]);

impl Serialize for Pairs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// One event as JSON, in the vocabulary of the game log (docs/log-format.md). With a `viewer`,
/// as that seat may see it (the bot protocol): another seat's drawn tiles are left out, and a
/// penalty says how many tiles it drew (`count`). Without, full information (the game log).
pub(crate) struct EventJson<'a> {
    /// The event.
    pub ev: &'a Event,
    /// The seat it is shown to, or `None` for everyone.
    pub viewer: Option<Seat>,
    /// The round's engine number, when known (an `engine` event writes it first).
    pub engine: Option<Pip>,
    /// Seats at the table.
    pub players: usize,
}

impl Serialize for EventJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        match *self.ev {
            Event::Play { seat, tile, train, end } => {
                m.serialize_entry("event", "play")?;
                m.serialize_entry("seat", &seat.index())?;
                m.serialize_entry("tile", &Laid(tile, end))?;
                m.serialize_entry("train", &TrainRef(train))?;
                m.serialize_entry("end", &end.get())?;
            }
            Event::Draw { seat, tile } => {
                m.serialize_entry("event", "draw")?;
                m.serialize_entry("seat", &seat.index())?;
                if self.viewer.is_none_or(|v| v == seat) {
                    m.serialize_entry("tile", &TileText(tile))?;
                }
            }
            Event::Branch { train, value, first, root } => {
                m.serialize_entry("event", "branch")?;
                m.serialize_entry("train", &TrainRef(train))?;
                m.serialize_entry("value", &value.get())?;
                let second = TrainId::branch(first.branch_index().unwrap_or(0) + 1);
                m.serialize_entry("branches", &[TrainRef(first), TrainRef(second)])?;
                m.serialize_entry("root", &TrainRef(root))?;
            }
            Event::Engine { seat, tile } => {
                m.serialize_entry("event", "engine")?;
                m.serialize_entry("seat", &seat.index())?;
                let e = self.engine.filter(|&e| tile.contains(e)).unwrap_or(tile.low());
                m.serialize_entry("tile", &format_args!("{e}-{}", tile.other(e)).to_string())?;
            }
            Event::Mark { seat } => {
                m.serialize_entry("event", "mark")?;
                m.serialize_entry("seat", &seat.index())?;
            }
            Event::Unmark { seat } => {
                m.serialize_entry("event", "unmark")?;
                m.serialize_entry("seat", &seat.index())?;
            }
            Event::Pass { seat } => {
                m.serialize_entry("event", "pass")?;
                m.serialize_entry("seat", &seat.index())?;
            }
            Event::Skip { seat } => {
                m.serialize_entry("event", "skip")?;
                m.serialize_entry("seat", &seat.index())?;
            }
            Event::Penalty { seat, tiles, reason } => {
                m.serialize_entry("event", "penalty")?;
                m.serialize_entry("seat", &seat.index())?;
                // A last-tile penalty writes no reason (the log as it was before there were two).
                if reason != PenaltyReason::LastTile {
                    m.serialize_entry("reason", reason.name())?;
                }
                if self.viewer.is_some() {
                    m.serialize_entry("count", &tiles.iter().flatten().count())?;
                }
                if self.viewer.is_none_or(|v| v == seat) {
                    m.serialize_entry("tiles", &Tiles(tiles.iter().flatten().copied()))?;
                }
            }
            Event::Tap { seat, forgot, caught } => {
                m.serialize_entry("event", "tap")?;
                m.serialize_entry("seat", &seat.index())?;
                m.serialize_entry("forgot", &forgot)?;
                m.serialize_entry("caught", &caught)?;
            }
            Event::RoundEnd { reason, scores } => {
                m.serialize_entry("event", "round_end")?;
                m.serialize_entry("reason", reason.name())?;
                if let EndReason::Out(s) = reason {
                    m.serialize_entry("out", &s.index())?;
                }
                m.serialize_entry("scores", &scores[..self.players])?;
            }
        }
        m.end()
    }
}
