//! The JSONL game log (`mtrain play --log`, `mtrain tournament --log-games`,
//! `docs/log-format.md`): one JSON object per line, full information, enough for an independent
//! program to replay and referee the match. This module is the log's schema, defined once: the
//! writer ([`JsonLog`]), the `match` line that readers parse back ([`MatchLine`]), and the events
//! a log may hold ([`EVENTS`]). The events of a round are written in the bot protocol's words
//! (`external::wire`); the replay ([`crate::analyze`]), the tournament runner and the
//! command line all write and read the log through here, and `tests/log_docs.rs` checks
//! `docs/log-format.md` against what the types write.
//!
//! Events: `match`, `round` (hands, and the boneyard in draw order), `engine`, `play`, `draw`,
//! `mark`, `unmark`, `pass`, `skip`, `penalty`, `tap`, `branch`, `round_end`, `match_end`. In `play`
//! events the tile is written as laid: the half joined to the train first, so `"tile":"12-5"`
//! with `"end":5`.
//!
//! No field is ever `null`. The `round` event's `engine` is always the round's engine number:
//! the double set aside, the number the engine search looks for, or, where the search picks
//! the highest double found in the hands, the value of the double it will pick (the log is full
//! information: the search is run ahead on a copy, as for `first`). When a deal is gathered and
//! redealt (Great Harbour Cay: no hand holds a tile showing the engine number), its `round`
//! event carries `"redeal":true` and no `first` (no turn is played on it), and the next line
//! repeats the `round` event with the same round number and the new hands and boneyard.

use crate::external::wire::{EventJson, Pairs, Tiles};
use crate::game::{MatchObserver, MatchResult};
use crate::round::{Event, Observer, RoundState, Seat};
use crate::rules::{EngineMode, Rules};
use crate::tile::Tile;
use serde::{Deserialize, Serialize, Serializer};
use std::io::Write;

/// The events a log may hold, as their `event` field names them (docs/log-format.md).
pub const EVENTS: [&str; 14] = [
    "match",
    "round",
    "engine",
    "play",
    "draw",
    "mark",
    "unmark",
    "pass",
    "skip",
    "penalty",
    "tap",
    "branch",
    "round_end",
    "match_end",
];

/// Writes the log to `out`. The first write error is kept in `error`.
pub struct JsonLog<W: Write> {
    /// The output; its `error` holds the first I/O error, if any.
    pub out: Lines<W>,
    bots: Vec<String>,
    players: usize,
    engine_number: Option<crate::tile::Pip>,
    options: Vec<(String, String)>,
    game: Option<u64>,
}

/// Serialises one line.
fn json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("log lines serialize")
}

/// The `match` line: the table, the seed and the bots of a match, as written and as read back
/// (without its `"event":"match"`, which [`MatchLine::to_line`] writes first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchLine {
    /// The game's number in its tournament (`tournament --log-games`), else absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<u64>,
    /// The preset's name.
    pub rules: String,
    /// M of the double-M set.
    pub set: u8,
    /// Seats.
    pub players: u8,
    /// Tiles dealt to each seat.
    pub hand: u8,
    /// Rounds in the match.
    pub rounds: u8,
    /// The match seed.
    pub seed: u64,
    /// One bot spec per seat.
    pub bots: Vec<String>,
    /// Every `--rule` override as given, key and value, in order (a value that is not a string
    /// is read as its JSON text).
    #[serde(default, serialize_with = "pairs", deserialize_with = "options")]
    pub options: Vec<(String, String)>,
}

impl MatchLine {
    /// The line as the log writes it, `"event":"match"` first.
    pub fn to_line(&self) -> String {
        #[derive(Serialize)]
        struct Tagged<'a> {
            event: &'static str,
            #[serde(flatten)]
            line: &'a MatchLine,
        }
        json(&Tagged { event: "match", line: self })
    }
}

fn pairs<S: Serializer>(v: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    Pairs(v).serialize(s)
}

fn options<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
    let m = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
    Ok(m.into_iter().map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect())
}

#[derive(Serialize)]
#[serde(bound = "")]
struct RoundLine<'a, H: Iterator<Item = Tile> + Clone> {
    event: &'static str,
    round: u8,
    engine: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    first: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    redeal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lead: Option<usize>,
    hands: Vec<Tiles<H>>,
    boneyard: Tiles<std::iter::Copied<std::slice::Iter<'a, Tile>>>,
}

#[derive(Serialize)]
struct MatchEndLine<'a> {
    event: &'static str,
    totals: &'a [u32],
    winners: Vec<usize>,
}

impl<W: Write> JsonLog<W> {
    /// A log for a match between `bots` (one spec per seat).
    pub fn new(out: W, bots: Vec<String>) -> JsonLog<W> {
        JsonLog {
            out: Lines::new(out),
            players: bots.len(),
            bots,
            engine_number: None,
            options: Vec::new(),
            game: None,
        }
    }

    /// Records the `--rule` overrides (key, value) in the `match` event's `options`.
    #[must_use]
    pub fn with_options(mut self, options: Vec<(String, String)>) -> JsonLog<W> {
        self.options = options;
        self
    }

    /// Records the game's number in its tournament in the `match` event (`"game":N`).
    #[must_use]
    pub fn with_game(mut self, game: u64) -> JsonLog<W> {
        self.game = Some(game);
        self
    }

    fn line(&mut self, s: &str) {
        self.out.line(s);
    }
}

impl<W: Write> Observer for JsonLog<W> {
    fn event(&mut self, ev: &Event) {
        let s = json(&EventJson { ev, viewer: None, engine: self.engine_number, players: self.players });
        self.line(&s);
    }
}

impl<W: Write> MatchObserver for JsonLog<W> {
    fn match_start(&mut self, rules: &Rules, seed: u64) {
        let s = MatchLine {
            game: self.game,
            rules: rules.preset.name().to_string(),
            set: rules.set.get(),
            players: rules.players,
            hand: rules.hand().unwrap_or(0),
            rounds: rules.round_count(),
            seed,
            bots: self.bots.clone(),
            options: self.options.clone(),
        }
        .to_line();
        self.line(&s);
    }

    fn round_start(&mut self, round: u8, state: &RoundState) {
        // When the engine comes from a hand, `lead` is where the search starts.
        let lead = (state.engine_mode() != EngineMode::SetAside).then(|| state.lead().index());
        // `engine` and `first` are what the deterministic engine search will find, run on a copy
        // (the log is full information): the engine number (also where a search picks the
        // double) and the seat of the first normal turn. A deal that is gathered and redealt has
        // neither a placer nor a first turn: it is marked `"redeal":true`, carries no `first`,
        // and the next line repeats the `round` event with the same round number.
        let setup = state.after_setup();
        if let Some((engine, _)) = setup {
            self.engine_number = Some(engine);
        }
        let s = json(&RoundLine {
            event: "round",
            round,
            engine: setup.map_or(state.engine_number(), |(e, _)| e).get(),
            first: setup.map(|(_, f)| f.index()),
            redeal: setup.is_none().then_some(true),
            lead,
            hands: (0..self.players).map(|s| Tiles(state.hand(Seat::from_index(s)).iter())).collect(),
            boneyard: Tiles(state.boneyard().as_slice().iter().copied()),
        });
        self.line(&s);
    }

    fn match_end(&mut self, result: &MatchResult) {
        let s = json(&MatchEndLine {
            event: "match_end",
            totals: &result.totals[..self.players],
            winners: result.winner_seats().map(Seat::index).collect(),
        });
        self.line(&s);
        self.out.flush();
    }
}

/// A line-oriented writer that keeps the first I/O error instead of failing every event:
/// observers cannot return errors, so the caller checks [`Lines::error`] at the end.
pub struct Lines<W: Write> {
    out: W,
    /// The first I/O error, if any.
    pub error: Option<std::io::Error>,
}

impl<W: Write> Lines<W> {
    /// Wraps a writer.
    pub fn new(out: W) -> Lines<W> {
        Lines { out, error: None }
    }

    /// Writes `s` and a newline, unless an earlier write failed.
    pub fn line(&mut self, s: &str) {
        if self.error.is_none()
            && let Err(e) = writeln!(self.out, "{s}")
        {
            self.error = Some(e);
        }
    }

    /// Flushes, keeping the first error.
    pub fn flush(&mut self) {
        if let Err(e) = self.out.flush() {
            self.error.get_or_insert(e);
        }
    }

    /// Gives back the writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}
