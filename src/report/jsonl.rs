//! The JSONL game log of `mtrain play --log` (`docs/log-format.md`): one JSON object per line, full
//! information, enough for an independent program to replay and referee the match.
//!
//! Events: `match`, `round` (hands, and the boneyard in draw order), `play`, `draw`, `mark`,
//! `unmark`, `pass`, `round_end`, `match_end`. In `play` events the tile is written as laid:
//! the half joined to the train first, so `"tile":"12-5"` with `"end":5`.
//!
//! No field is ever `null`. The `round` event's `engine` is always the round's engine number:
//! the double set aside, the number the engine search looks for, or, where the search picks
//! the highest double found in the hands, the value of the double it will pick (the log is full
//! information: the search is run ahead on a copy, as for `first`). When a deal is gathered and
//! redealt (Great Harbour Cay: no hand holds a tile showing the engine number), its `round`
//! event carries `"redeal":true` and no `first` (no turn is played on it), and the next line
//! repeats the `round` event with the same round number and the new hands and boneyard.

use super::Lines;
use crate::external::wire::{EventJson, Pairs, Tiles};
use crate::game::{MatchObserver, MatchResult};
use crate::round::{Event, Observer, RoundState, Seat};
use crate::rules::{EngineMode, Rules};
use crate::tile::Tile;
use serde::Serialize;
use std::io::Write;

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

#[derive(Serialize)]
struct MatchLine<'a> {
    event: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<u64>,
    rules: &'static str,
    set: u8,
    players: u8,
    hand: u8,
    rounds: u8,
    seed: u64,
    bots: &'a [String],
    options: Pairs<'a>,
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
        let s = json(&MatchLine {
            event: "match",
            game: self.game,
            rules: rules.preset.name(),
            set: rules.set.get(),
            players: rules.players,
            hand: rules.hand().unwrap_or(0),
            rounds: rules.round_count(),
            seed,
            bots: &self.bots,
            options: Pairs(&self.options),
        });
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
