//! Position files: a decision described by hand (docs/analyze.md), in the vocabulary of the bot
//! protocol's `decide` message.
//!
//! ```json
//! {"rules": "wikipedia", "players": 4, "round": 1, "seat": 0,
//!  "hand": ["2-7", "5-9", "7-7", "7-11", "9-12"],
//!  "trains": [{"train": 0, "tiles": ["12-4", "4-7"]},
//!             {"train": 1, "tiles": ["12-3"], "marked": true},
//!             {"train": "mexican", "tiles": ["12-9"]}],
//!  "hands": [5, 7, 9, 8]}
//! ```
//!
//! Every field but `hand` may be left out: the rules default to `wikipedia` (its set and four
//! players), the round to 1 (its engine is the set's top double), the seat to move to 0, the
//! trains to none started, the other seats' hand sizes to the mover's, the boneyard to every
//! tile nobody holds, the open doubles to those the trains end in. The tiles the seat cannot
//! see are dealt to the other hands and the boneyard in a fixed order: the analysis never looks
//! at them (it samples worlds from the seat's knowledge).

use crate::error::InvalidInput;
use crate::round::{Event, MoveList, Obligation, Observer, PositionParts, RoundState, Seat, Step, TrainId};
use crate::rules::{MAX_MEXICAN_TRAINS, MAX_PLAYERS, Rules, TableSpec};
use crate::tile::{Pip, Tile};
use crate::tile_set::TileSet;
use std::collections::BTreeMap;

/// A position file, as read.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// The preset (default `wikipedia`).
    #[serde(default = "default_rules")]
    pub rules: String,
    /// Rule changes, key → value, as `--rule key=value`.
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// The set (default: the preset's, double-12).
    pub set: Option<u8>,
    /// Seats (default: the length of `hands`, else 4).
    pub players: Option<u8>,
    /// The round number (default 1): decides the engine unless `engine` is given.
    #[serde(default = "one")]
    pub round: u8,
    /// The engine number.
    pub engine: Option<u8>,
    /// The seat to move (default 0).
    #[serde(default)]
    pub seat: u8,
    /// The mover's hand.
    pub hand: Vec<String>,
    /// A tile the mover just drew and must play, if any (it is in `hand`).
    pub drawn: Option<String>,
    /// The trains started (or marked).
    #[serde(default)]
    pub trains: Vec<TrainDesc>,
    /// Open doubles to cover, oldest first (default: every train that ends in a double).
    pub owed: Option<Vec<Owed>>,
    /// Every seat's number of tiles (default: the mover's count for every seat).
    pub hands: Option<Vec<u32>>,
    /// Tiles left in the boneyard (default: every tile nobody holds).
    pub boneyard: Option<u32>,
    /// Per seat, the open-end values it is known to hold no tile for.
    #[serde(default)]
    pub voids: Vec<Vec<u8>>,
}

/// One train.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainDesc {
    /// A seat number, or `"mexican"` (`"mexican2"`, ... where several are allowed).
    pub train: serde_json::Value,
    /// Its tiles from the engine outward.
    #[serde(default)]
    pub tiles: Vec<String>,
    /// Its owner's marker is on.
    #[serde(default)]
    pub marked: bool,
}

/// An open double to cover.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Owed {
    /// The train it ends.
    pub train: serde_json::Value,
    /// The seat that laid it (default: the seat before the mover).
    pub placer: Option<u8>,
}

fn default_rules() -> String {
    "wikipedia".into()
}

fn one() -> u8 {
    1
}

/// A position file to start from (`mtrain analyze --template`).
pub const TEMPLATE: &str = r#"{
  "rules": "wikipedia",
  "players": 4,
  "round": 1,
  "seat": 0,
  "hand": ["0-5", "1-5", "1-9", "2-7", "2-9", "3-3", "4-9", "5-9", "5-10", "6-11", "7-11", "8-10", "9-10"],
  "trains": [
    {"train": 0, "tiles": ["12-4", "4-7"]},
    {"train": 1, "tiles": ["12-6", "6-2"], "marked": true},
    {"train": 2, "tiles": ["12-11", "11-1"]},
    {"train": 3, "tiles": ["12-0"], "marked": true},
    {"train": "mexican", "tiles": ["12-8", "8-3"]}
  ],
  "hands": [13, 14, 12, 14]
}
"#;

impl Position {
    /// Reads a position file's text; `file` names it in messages.
    ///
    /// # Errors
    /// Text that is not a position file, with serde's line and column.
    pub fn parse(text: &str, file: &str) -> Result<Position, InvalidInput> {
        serde_json::from_str(text)
            .map_err(|e| InvalidInput(format!("{file}: not a position file ({e}; docs/analyze.md)")))
    }

    /// The rules, the round at the mover's decision and its legal moves.
    ///
    /// # Errors
    /// Anything the description gets wrong, one problem per message: a bad rule, tile or train,
    /// a tile used twice, a train that does not chain from the engine, counts that do not add
    /// up, or a seat with fewer than two legal moves.
    pub fn build(&self) -> Result<(Rules, RoundState, MoveList), InvalidInput> {
        let bad = |s: String| Err(InvalidInput(s));
        let players = self.players.or(self.hands.as_ref().map(|h| h.len() as u8)).unwrap_or(4);
        let mut rules0 = Rules::preset(&self.rules)?;
        let set = self.set.unwrap_or(rules0.set.get());
        let spec = TableSpec {
            preset: self.rules.clone(),
            set,
            players,
            hand: None,
            rounds: None,
            rules: self
                .options
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().map_or_else(|| v.to_string(), str::to_string)))
                .collect(),
        };
        let rules = spec.build().map_err(|e| InvalidInput(e.to_string()))?.0;
        rules0 = rules.clone();
        if rules.blanks_wild {
            return bad("positions under blanks wild are not supported in position files: analyse a logged game".into());
        }
        let n = players as usize;
        if usize::from(self.seat) >= n {
            return bad(format!("seat {} is not a seat of a {n}-player table (valid: 0 to {})", self.seat, n - 1));
        }
        let me = Seat::from_index(self.seat as usize);
        let e = match self.engine {
            Some(v) if v <= set => Pip::from_u8(v),
            Some(v) => return bad(format!("engine {v} is not a pip of the double-{set} set (valid: 0 to {set})")),
            None if self.round >= 1 && self.round <= set + 1 => rules0.engine_of_round(self.round),
            None => {
                return bad(format!(
                    "round {} is not a round of a double-{set} match (valid: 1 to {})",
                    self.round,
                    set + 1
                ));
            }
        };
        let engine = Tile::new(e, e);
        let mut used = TileSet::EMPTY.with(engine);
        let mut take = |text: &str, what: &str| -> Result<Tile, InvalidInput> {
            let t: Tile = text.parse().map_err(|e| InvalidInput(format!("{what}: {e}")))?;
            if t.high().get() > set {
                return Err(InvalidInput(format!("{what}: {t} is not a tile of the double-{set} set")));
            }
            if used.contains(t) {
                return Err(InvalidInput(format!("{what}: {t} is used twice (or is the engine {engine})")));
            }
            used.insert(t);
            Ok(t)
        };
        let mut hand = TileSet::EMPTY;
        for text in &self.hand {
            hand.insert(take(text, "hand")?);
        }
        if hand.is_empty() {
            return bad("hand: the seat to move holds no tile".into());
        }
        let mut trains = Vec::new();
        let mut markers = 0u16;
        let mut ends: Vec<(TrainId, Option<Tile>)> = Vec::new();
        let mut mexicans = 0usize;
        for t in &self.trains {
            let id = train_id(&t.train, n, &rules)?;
            if ends.iter().any(|&(i, _)| i == id) {
                return bad(format!("trains: train {id} is described twice"));
            }
            if id.is_mexican() {
                if t.tiles.is_empty() {
                    return bad(format!("trains: train {id} has no tiles (leave out a Mexican train not started)"));
                }
                mexicans += 1;
            }
            let mut end = e;
            let mut last = None;
            for text in &t.tiles {
                let tile = take(text, &format!("train {id}"))?;
                if !tile.contains(end) {
                    return bad(format!("train {id}: {tile} does not join its open end {end}"));
                }
                end = tile.other(end);
                last = Some(tile);
            }
            if t.marked {
                match id.owner() {
                    Some(s) => markers |= s.bit(),
                    None => return bad(format!("trains: the Mexican train {id} cannot be marked")),
                }
            }
            let open = last.is_some_and(Tile::is_double);
            trains.push((id, end, t.tiles.len() as u8, open));
            ends.push((id, last));
        }
        if mexicans > 0 && usize::from(rules.max_mexican_trains) < mexicans {
            return bad(format!("trains: {mexicans} Mexican trains, the rules allow {}", rules.max_mexican_trains));
        }
        let before = Seat::from_index((n + me.index() - 1) % n);
        let owed: Vec<Obligation> = match &self.owed {
            None => ends
                .iter()
                .filter_map(|&(id, last)| last.filter(|t| t.is_double()).map(|t| (id, t)))
                .map(|(train, t)| Obligation { train, value: t.low(), placer: before })
                .collect(),
            Some(list) => {
                let mut out = Vec::new();
                for o in list {
                    let train = train_id(&o.train, n, &rules)?;
                    let Some(&(_, Some(last))) = ends.iter().find(|&&(i, _)| i == train) else {
                        return bad(format!("owed: train {train} has no tiles"));
                    };
                    if !last.is_double() {
                        return bad(format!("owed: train {train} ends in {last}, not a double"));
                    }
                    let placer = match o.placer {
                        Some(p) if usize::from(p) < n => Seat::from_index(p as usize),
                        Some(p) => return bad(format!("owed: placer {p} is not a seat (valid: 0 to {})", n - 1)),
                        None => before,
                    };
                    out.push(Obligation { train, value: last.low(), placer });
                }
                out
            }
        };
        if owed.len() > crate::round::MAX_OPEN_DOUBLES {
            return bad(format!("owed: {} open doubles, at most {}", owed.len(), crate::round::MAX_OPEN_DOUBLES));
        }
        let counts: Vec<u32> = match &self.hands {
            Some(h) if h.len() != n => return bad(format!("hands: {} counts for {n} seats", h.len())),
            Some(h) => h.clone(),
            None => vec![hand.len() as u32; n],
        };
        if counts[me.index()] != hand.len() as u32 {
            return bad(format!(
                "hands: seat {} holds {} tiles by \"hand\" but {} by \"hands\"",
                me.index(),
                hand.len(),
                counts[me.index()]
            ));
        }
        if let Some(s) = (0..n).find(|&s| s != me.index() && counts[s] == 0) {
            return bad(format!(
                "hands: seat {s} holds 0 tiles: a seat with no tiles has gone out, and the round is over (give each other seat 1 tile or more)"
            ));
        }
        let unseen: Vec<Tile> = TileSet::full(rules.set).difference(&used).iter().collect();
        let others: u32 = (0..n).filter(|&s| s != me.index()).map(|s| counts[s]).sum();
        if others as usize > unseen.len() {
            return bad(format!(
                "hands: the other seats hold {others} tiles, but only {} tiles are neither in the hand nor on the table",
                unseen.len()
            ));
        }
        let left = unseen.len() - others as usize;
        if let Some(b) = self.boneyard
            && b as usize != left
        {
            return bad(format!(
                "boneyard: {b} tiles, but the hand sizes leave {left} (the tiles nobody holds are the boneyard)"
            ));
        }
        let mut hands = [TileSet::EMPTY; MAX_PLAYERS];
        hands[me.index()] = hand;
        let mut rest = unseen.into_iter();
        for s in (0..n).filter(|&s| s != me.index()) {
            for t in rest.by_ref().take(counts[s] as usize) {
                hands[s].insert(t);
            }
        }
        let boneyard: Vec<Tile> = rest.collect();
        let mut voids = [0u32; MAX_PLAYERS];
        if self.voids.len() > n {
            return bad(format!("voids: {} lists for {n} seats", self.voids.len()));
        }
        for (s, list) in self.voids.iter().enumerate() {
            for &v in list {
                if v > set {
                    return bad(format!("voids: {v} is not a pip of the double-{set} set"));
                }
                voids[s] |= 1 << v;
            }
        }
        let drawn = match &self.drawn {
            None => None,
            Some(text) => {
                let t: Tile = text.parse().map_err(|e| InvalidInput(format!("drawn: {e}")))?;
                if !hand.contains(t) {
                    return bad(format!("drawn: {t} is not in the hand"));
                }
                Some(t)
            }
        };
        let parts = PositionParts {
            engine,
            hands,
            boneyard,
            trains,
            markers,
            owed,
            played: used.difference(&hand),
            current: me,
            drawn,
            voids,
        };
        let mut state = RoundState::from_position(&rules, &parts);
        let mut moves = MoveList::new();
        let mut first = FirstEvent(None);
        match state.advance(&mut moves, &mut first) {
            Step::Choice(s, _) if s == me && first.0.is_none() => Ok((rules, state, moves)),
            _ => match first.0 {
                Some(Event::Play { tile, train, .. }) => bad(format!(
                    "seat {} has only one legal move here ({tile} on {train}): there is nothing to choose",
                    me.index()
                )),
                _ => bad(format!("seat {} has no tile to play here: there is nothing to choose", me.index())),
            },
        }
    }
}

/// Keeps the first event.
struct FirstEvent(Option<Event>);

impl Observer for FirstEvent {
    fn event(&mut self, ev: &Event) {
        if self.0.is_none() {
            self.0 = Some(*ev);
        }
    }
}

/// A train named in a position file: a seat number or `"mexican"`, `"mexican2"`, ...
fn train_id(v: &serde_json::Value, n: usize, rules: &Rules) -> Result<TrainId, InvalidInput> {
    let valid = || format!("a seat number 0 to {} or \"mexican\"", n - 1);
    if let Some(s) = v.as_u64() {
        if (s as usize) < n {
            return Ok(TrainId::personal(Seat::from_index(s as usize)));
        }
        return Err(InvalidInput(format!("train {s} is not a train of a {n}-player table (valid: {})", valid())));
    }
    if let Some(name) = v.as_str() {
        let k = match name {
            "mexican" => Some(1),
            _ => name.strip_prefix("mexican").and_then(|d| d.parse::<usize>().ok()),
        };
        if let Some(k) = k.filter(|&k| k >= 1 && k <= usize::from(rules.max_mexican_trains).min(MAX_MEXICAN_TRAINS)) {
            return Ok(TrainId::mexican(k - 1));
        }
    }
    Err(InvalidInput(format!("train {v} is not a train (valid: {})", valid())))
}
