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
use crate::game::{MatchObserver, MatchResult};
use crate::round::{EndReason, Event, Observer, RoundState, Seat, TrainId};
use crate::rules::{EngineMode, Rules};
use std::fmt::Write as _;
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

fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(q, "\\u{:04x}", c as u32);
            }
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

fn list<T, I: IntoIterator<Item = T>>(items: I, f: impl Fn(T) -> String) -> String {
    let parts: Vec<String> = items.into_iter().map(f).collect();
    format!("[{}]", parts.join(","))
}

fn train_json(t: TrainId) -> String {
    match t.owner() {
        Some(s) => s.to_string(),
        None => quote(&t.to_string()),
    }
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
        let s = match *ev {
            Event::Play { seat, tile, train, end } => format!(
                r#"{{"event":"play","seat":{seat},"tile":"{}-{end}","train":{},"end":{end}}}"#,
                tile.other(end),
                train_json(train)
            ),
            Event::Draw { seat, tile } => format!(r#"{{"event":"draw","seat":{seat},"tile":"{tile}"}}"#),
            Event::Branch { train, value, first, root } => format!(
                r#"{{"event":"branch","train":{},"value":{value},"branches":[{},{}],"root":{}}}"#,
                train_json(train),
                train_json(first),
                train_json(TrainId::branch(first.branch_index().unwrap_or(0) + 1)),
                train_json(root)
            ),
            Event::Engine { seat, tile } => {
                // The engine number first ([004]'s `[e|w]`); a double found by search as is.
                let e = self.engine_number.filter(|&e| tile.contains(e)).unwrap_or(tile.low());
                format!(r#"{{"event":"engine","seat":{seat},"tile":"{e}-{}"}}"#, tile.other(e))
            }
            Event::Mark { seat } => format!(r#"{{"event":"mark","seat":{seat}}}"#),
            Event::Unmark { seat } => format!(r#"{{"event":"unmark","seat":{seat}}}"#),
            Event::Pass { seat } => format!(r#"{{"event":"pass","seat":{seat}}}"#),
            Event::Skip { seat } => format!(r#"{{"event":"skip","seat":{seat}}}"#),
            Event::Penalty { seat, tiles } => {
                format!(
                    r#"{{"event":"penalty","seat":{seat},"tiles":{}}}"#,
                    list(tiles.iter().flatten(), |t| quote(&t.to_string()))
                )
            }
            Event::RoundEnd { reason, scores } => {
                let out = match reason {
                    EndReason::Out(s) => format!(r#","out":{s}"#),
                    _ => String::new(),
                };
                format!(
                    r#"{{"event":"round_end","reason":"{}"{out},"scores":{}}}"#,
                    reason.name(),
                    list(&scores[..self.players], |v| v.to_string())
                )
            }
        };
        self.line(&s);
    }
}

impl<W: Write> MatchObserver for JsonLog<W> {
    fn match_start(&mut self, rules: &Rules, seed: u64) {
        let game = self.game.map_or(String::new(), |g| format!(r#","game":{g}"#));
        let s = format!(
            r#"{{"event":"match"{game},"rules":"{}","set":{},"players":{},"hand":{},"rounds":{},"seed":{seed},"bots":{},"options":{{{}}}}}"#,
            rules.preset,
            rules.set,
            rules.players,
            rules.hand().unwrap_or(0),
            rules.round_count(),
            list(&self.bots, |b| quote(b)),
            self.options.iter().map(|(k, v)| format!("{}:{}", quote(k), quote(v))).collect::<Vec<_>>().join(",")
        );
        self.line(&s);
    }

    fn round_start(&mut self, round: u8, state: &RoundState) {
        let hands = list(0..self.players, |s| list(state.hand(Seat::from_index(s)), |t| quote(&t.to_string())));
        let boneyard = list(state.boneyard().as_slice(), |t| quote(&t.to_string()));
        // When the engine comes from a hand, `lead` is where the search starts.
        let lead = if state.engine_mode() == EngineMode::SetAside {
            String::new()
        } else {
            format!(r#","lead":{}"#, state.lead())
        };
        // `engine` and `first` are what the deterministic engine search will find, run on a copy
        // (the log is full information): the engine number (also where a search picks the
        // double) and the seat of the first normal turn. A deal that is gathered and redealt has
        // neither a placer nor a first turn: it is marked `"redeal":true`, carries no `first`,
        // and the next line repeats the `round` event with the same round number.
        let s = match state.after_setup() {
            Some((engine, first)) => {
                self.engine_number = Some(engine);
                format!(
                    r#"{{"event":"round","round":{round},"engine":{engine},"first":{first}{lead},"hands":{hands},"boneyard":{boneyard}}}"#
                )
            }
            None => format!(
                r#"{{"event":"round","round":{round},"engine":{},"redeal":true{lead},"hands":{hands},"boneyard":{boneyard}}}"#,
                state.engine_number()
            ),
        };
        self.line(&s);
    }

    fn match_end(&mut self, result: &MatchResult) {
        let s = format!(
            r#"{{"event":"match_end","totals":{},"winners":{}}}"#,
            list(&result.totals[..self.players], |v| v.to_string()),
            list(result.winner_seats(), |s| s.to_string())
        );
        self.line(&s);
        self.out.flush();
    }
}
