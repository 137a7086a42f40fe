//! mtrain in the browser: the engine, the bots and the analyst behind one JSON entry point, for
//! the page `mtrain web` writes (docs/web.md).
//!
//! The page's Web Worker sends a request (`{"op": "new", ...}`) and reads back one JSON answer
//! (`{"ok": true, ...}` or `{"ok": false, "error": "..."}`): [`handle`] does the work, natively
//! testable; [`abi`] carries the text across WebAssembly's linear memory. Everything the page
//! shows of a game comes from its game log (docs/log-format.md), written here by the library's
//! own [`JsonLog`] as the match is played: the page replays those lines into a table with the
//! viewer's code, so a game played in the page is a log `mtrain view` and `mtrain analyze` read,
//! and the same seed and choices give the log `mtrain play --human SEAT --log` writes.

pub mod abi;
pub mod lab;

use mexican_train::analyze::explain::hint_text;
use mexican_train::analyze::replay::parse_log;
use mexican_train::analyze::review::{DEFAULT_THRESHOLD, ReviewSettings, review_decision};
use mexican_train::analyze::{Settings, analyze};
use mexican_train::game::BotSeats;
use mexican_train::log::JsonLog;
use mexican_train::rules::{PARAMS, PRESETS, SHORTCUTS, TableSpec};
use mexican_train::strategies::Registry;
use mexican_train::{Bot, Decision, MatchObserver, MatchSeeds, MatchState, Move, MoveKind, Seat, StrategySpec};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// The bots a person picks from, weakest first: the plain name, the bot, and what it does.
pub const BOTS: &[(&str, &str, &str)] = &[
    ("beginner", "greedy", "plays its heaviest playable tile"),
    ("careful", "planner", "plans a chain through its hand and keeps doubles covered"),
    ("strong", "weighted", "the tuned policy: weighs every move by what it leaves"),
    ("strongest", "expert", "searches sampled deals guided by the tuned policy"),
];

/// The league's ratings (results/ladder/league.csv), for each bot's strength.
const LEAGUE: &str = include_str!("../../results/ladder/league.csv");

/// A game as the page describes it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct GameSpec {
    /// The preset's name.
    pub preset: String,
    /// The set: double-`set`.
    #[serde(default = "twelve")]
    pub set: u8,
    /// `key=value` rule changes.
    #[serde(default)]
    pub rules: Vec<String>,
    /// Tiles dealt to each (`None`: the preset's deal table).
    #[serde(default)]
    pub hand: Option<u8>,
    /// Rounds (`None`: every double down to 0-0).
    #[serde(default)]
    pub rounds: Option<u8>,
    /// One entry per seat: `human`, or a bot as `mtrain play --bots` names it.
    pub seats: Vec<String>,
    /// The match seed, decimal or `0x` hex (text: a seed may exceed a JavaScript number).
    pub seed: String,
}

fn twelve() -> u8 {
    12
}

/// What resumes a game: its spec and the people's choices, in order.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Saved {
    /// The format's version.
    pub version: u32,
    /// The game.
    pub game: GameSpec,
    /// Each person's decision, as the index of the move among the legal moves, in order.
    pub choices: Vec<usize>,
}

/// The log's lines as they are written, shared between the log and the session.
#[derive(Clone, Default)]
struct Buffer(Rc<RefCell<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One game in play.
pub struct Session {
    spec: GameSpec,
    seed: u64,
    state: MatchState,
    seats: BotSeats<Bot>,
    log: JsonLog<Buffer>,
    buffer: Buffer,
    /// How many bytes of the log the page has been sent.
    sent: usize,
    /// The people's choices so far.
    choices: Vec<usize>,
    /// A round ended since the page last continued: the page shows the totals first.
    paused: bool,
    /// The match end has been logged.
    ended: bool,
}

/// Why a request cannot be answered, in one line.
type Fail = String;

fn parse_seed(s: &str) -> Result<u64, Fail> {
    let t = s.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse::<u64>(),
    };
    r.map_err(|_| format!("seed '{s}' is not a number (decimal, or hex as 0x...)"))
}

impl Session {
    /// Deals the game of `spec`; the bots play up to the first person's decision.
    pub fn new(spec: GameSpec) -> Result<Session, Fail> {
        let table = TableSpec {
            preset: spec.preset.clone(),
            set: spec.set,
            players: spec.seats.len() as u8,
            hand: spec.hand,
            rounds: spec.rounds,
            rules: spec.rules.clone(),
        };
        let (rules, changes) = table.build().map_err(|e| e.to_string())?;
        let seed = parse_seed(&spec.seed)?;
        let registry = Registry::builtin();
        let mut names = Vec::new();
        let mut bots = Vec::new();
        for s in &spec.seats {
            if s == "human" {
                names.push("human".to_string());
                bots.push(None);
                continue;
            }
            let parsed: StrategySpec = s.parse().map_err(|e| format!("seat bot '{s}': {e}"))?;
            let canonical = registry.canonical(&parsed).map_err(|e| format!("seat bot '{s}': {e}"))?;
            bots.push(Some(registry.build(&canonical).map_err(|e| format!("seat bot '{s}': {e}"))?));
            names.push(canonical.to_string());
        }
        let buffer = Buffer::default();
        let mut log = JsonLog::new(buffer.clone(), names).with_options(changes);
        let (seats, state) = BotSeats::deal_observed(&rules, &MatchSeeds::from_seed(seed), bots, &mut log);
        let mut s = Session {
            spec,
            seed,
            state,
            seats,
            log,
            buffer,
            sent: 0,
            choices: Vec::new(),
            paused: false,
            ended: false,
        };
        s.run_bots();
        Ok(s)
    }

    /// Replays a saved game: the people's choices in order, the bots choosing as they did.
    pub fn resume(saved: &Saved) -> Result<Session, Fail> {
        if saved.version != 1 {
            return Err(format!("a saved game of version {} (this page reads version 1)", saved.version));
        }
        let mut s = Session::new(saved.game.clone())?;
        for (k, &i) in saved.choices.iter().enumerate() {
            s.paused = false;
            s.run_bots();
            s.play(i).map_err(|e| format!("saved choice {} of {}: {e}", k + 1, saved.choices.len()))?;
        }
        Ok(s)
    }

    /// The seat to act, when it is a person's.
    fn person(&self) -> Option<Seat> {
        self.state.current().filter(|&s| !self.seats.is_bot(s))
    }

    /// The bots play until a person is to act, a round ends or the match is over.
    fn run_bots(&mut self) {
        if self.paused {
            return;
        }
        let round = self.state.round_number();
        while !self.state.is_over() && self.state.round_number() == round {
            if !self.seats.step_observed(&mut self.state, &mut self.log) {
                break;
            }
        }
        self.after(round);
    }

    /// After a move made in round `round`: a pause when the round ended, the match end logged.
    fn after(&mut self, round: u8) {
        if self.state.is_over() {
            if !self.ended {
                self.log.match_end(self.state.result());
                self.ended = true;
            }
        } else if self.state.round_number() != round {
            self.paused = true;
        }
    }

    /// The person to act plays move `i` of the legal moves; the bots then play on.
    pub fn play(&mut self, i: usize) -> Result<(), Fail> {
        if self.paused {
            return Err("the round is over: continue first".into());
        }
        if self.person().is_none() {
            return Err("no person is to act".into());
        }
        let k = self.state.legal().len();
        if i >= k {
            return Err(format!("move {i} is not one of the {k} legal moves (0 to {})", k - 1));
        }
        let round = self.state.round_number();
        self.seats.apply_observed(&mut self.state, i, &mut self.log);
        self.choices.push(i);
        self.after(round);
        self.run_bots();
        Ok(())
    }

    /// Ends the pause after a round; the bots play on.
    pub fn proceed(&mut self) {
        self.paused = false;
        self.run_bots();
    }

    /// The whole log so far.
    pub fn log_text(&self) -> String {
        String::from_utf8_lossy(&self.buffer.0.borrow()).into_owned()
    }

    /// What resumes this game.
    pub fn saved(&self) -> Saved {
        Saved { version: 1, game: self.spec.clone(), choices: self.choices.clone() }
    }

    /// The log lines not yet sent.
    fn new_lines(&mut self) -> Vec<String> {
        let buf = self.buffer.0.borrow();
        let text = String::from_utf8_lossy(&buf[self.sent..]).into_owned();
        self.sent = buf.len();
        text.lines().map(str::to_string).collect()
    }

    /// The answer to the page after any change: the new log lines and the decision in hand.
    fn update(&mut self, all: bool) -> Value {
        if all {
            self.sent = 0;
        }
        let lines = self.new_lines();
        let person = self.person();
        let legal: Vec<Value> = match person {
            Some(seat) => self.state.legal().iter().enumerate().map(|(i, m)| move_json(i, *m, seat)).collect(),
            None => Vec::new(),
        };
        let view = person.and_then(|s| self.state.view(s));
        let result = self.state.result();
        let n = self.state.rules().players as usize;
        json!({
            "ok": true,
            "reset": all,
            "lines": lines,
            "to_act": person.map(Seat::index),
            "legal": legal,
            "drawn": view.as_ref().and_then(|v| v.drawn()).map(|t| t.to_string()),
            "decision": view.as_ref().and_then(|v| v.decision()).map(decision_name),
            "round": self.state.round_number(),
            "totals": &result.totals[..n],
            "paused": self.paused,
            "over": self.state.is_over(),
            "choices": self.choices.len(),
            "seed": self.seed.to_string(),
        })
    }

    /// The analyst's hint for the person to act: the best move and why, in words.
    pub fn hint(&self) -> Result<Value, Fail> {
        let seat = self.person().ok_or("no person is to act")?;
        let view = self.state.view(seat).ok_or("no round in play")?;
        let moves = self.state.legal();
        // The hint's seed: the match seed and the decision's place in the game, so asking twice
        // gives the same answer.
        let seed = mexican_train::mix(self.seed ^ 0x4849_4e54, self.choices.len() as u64);
        let a = analyze(&view, moves, &Settings::default(), seed);
        let text = hint_text(&a, &view, moves, None, |i| format!("move {}", i + 1));
        let rows: Vec<Value> = a
            .moves
            .iter()
            .map(|m| {
                json!({"index": m.index, "points": m.points.mean, "win": m.win.mean,
                       "loss": m.loss.mean, "loss_lo": m.loss.lo, "loss_hi": m.loss.hi})
            })
            .collect();
        Ok(json!({"ok": true, "best": a.best().index, "text": text, "moves": rows, "worlds": a.worlds}))
    }
}

impl Session {
    /// The review of the people's decisions (of round `round`, or of the whole game): how many
    /// there are, and the `k`-th graded (one analysis per call, so the page can show progress)
    /// with its place among the people's choices (what "try again from here" rewinds to).
    pub fn review(&self, round: Option<u8>, k: usize) -> Result<Value, Fail> {
        let games = parse_log(&self.log_text(), "the game").map_err(|e| e.to_string())?;
        let game = games.first().ok_or("no game to review")?;
        let people: Vec<usize> =
            self.spec.seats.iter().enumerate().filter(|(_, s)| *s == "human").map(|(i, _)| i).collect();
        let mut listed = Vec::new();
        let mut choice = 0usize;
        for d in game.decisions().map_err(|e| e.to_string())? {
            if !people.contains(&d.seat.index()) {
                continue;
            }
            if round.is_none_or(|r| r == d.round) {
                listed.push((choice, d));
            }
            choice += 1;
        }
        let total = listed.len();
        let Some((choice, d)) = listed.into_iter().nth(k) else {
            return Ok(json!({"ok": true, "total": total}));
        };
        let settings = ReviewSettings {
            analysis: Settings::default(),
            seat: None,
            threshold: DEFAULT_THRESHOLD,
            check_worlds: 0,
            seed: self.seed,
            threads: 1,
        };
        let row = review_decision(&d, &settings);
        Ok(json!({"ok": true, "total": total, "choice": choice, "row": row}))
    }

    /// Goes back to just before the person's `choice`-th decision (from 0): "try again from here".
    pub fn rewind(&mut self, choice: usize) -> Result<(), Fail> {
        let mut saved = self.saved();
        if choice > saved.choices.len() {
            return Err(format!("decision {choice} is not one of the {} made", saved.choices.len()));
        }
        saved.choices.truncate(choice);
        *self = Session::resume(&saved)?;
        Ok(())
    }
}

/// A kind of decision as the page names it.
fn decision_name(d: Decision) -> &'static str {
    match d {
        Decision::Normal => "normal",
        Decision::Cover => "cover",
        Decision::FollowUp => "follow_up",
        Decision::Build => "build",
        Decision::Swan => "swan",
    }
}

/// A legal move for the page: the tile as laid, the train as the log names it.
fn move_json(i: usize, m: Move, seat: Seat) -> Value {
    let (kind, place) = match m.kind() {
        MoveKind::Place(p) => ("play", Some(p)),
        MoveKind::Stop => ("stop", None),
        MoveKind::Skip => ("skip", None),
        MoveKind::Bullet => ("bullet", None),
    };
    json!({
        "index": i,
        "kind": kind,
        "tile": place.map(|p| p.tile.to_string()),
        "train": place.map(|p| p.train.to_string()),
        "turned": place.is_some_and(|p| p.turned),
        "own": place.is_some_and(|p| p.train.owner() == Some(seat)),
        "text": m.to_string(),
    })
}

/// What the page offers: presets, rule keys, the bots and their strength.
fn info() -> Value {
    let presets: Vec<Value> = PRESETS.iter().map(|p| json!({"name": p.name, "about": p.about})).collect();
    let mut rules: Vec<Value> =
        PARAMS.iter().map(|p| json!({"key": p.key, "about": p.about, "valid": (p.valid)()})).collect();
    rules.extend(SHORTCUTS.iter().map(|s| json!({"key": s.key, "about": s.about, "valid": s.valid})));
    let bots: Vec<Value> = BOTS
        .iter()
        .map(|(name, bot, about)| json!({"name": name, "bot": bot, "about": about, "elo": elo_of(bot)}))
        .collect();
    json!({"ok": true, "presets": presets, "rules": rules, "bots": bots, "version": env!("CARGO_PKG_VERSION")})
}

/// A bot's league ratings: `{"wikipedia": {"2": elo, "4": ..}, ...}` (greedy = 0).
fn elo_of(bot: &str) -> Value {
    let mut out = serde_json::Map::new();
    let mut rd = csv::ReaderBuilder::new().from_reader(LEAGUE.as_bytes());
    let headers = rd.headers().expect("league.csv has a header").clone();
    let col = |name: &str| headers.iter().position(|h| h == name).expect("a league.csv column");
    let (preset, players, b, elo) = (col("preset"), col("players"), col("bot"), col("elo"));
    for row in rd.records().flatten() {
        if &row[b] != bot {
            continue;
        }
        let e: f64 = row[elo].parse().unwrap_or(f64::NAN);
        let entry = out.entry(row[preset].to_string()).or_insert_with(|| json!({}));
        entry[row[players].to_string()] = json!(e.round());
    }
    Value::Object(out)
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    /// The rules lab's comparison, apart from the game: the page can play while it runs.
    static LAB: RefCell<Option<lab::Lab>> = const { RefCell::new(None) };
}

fn with_lab(f: impl FnOnce(&mut lab::Lab) -> Result<Value, Fail>) -> Result<Value, Fail> {
    LAB.with(|s| match s.borrow_mut().as_mut() {
        Some(l) => f(l),
        None => Err("no comparison: start one".into()),
    })
}

/// A comparison's progress, and its results once every game is played.
fn lab_progress(l: &lab::Lab) -> Result<Value, Fail> {
    let (done, total) = l.progress();
    let mut v = json!({"ok": true, "done": done, "total": total, "finished": l.finished()});
    if l.finished() {
        v["result"] = l.result()?;
    }
    Ok(v)
}

fn with_session(f: impl FnOnce(&mut Session) -> Result<Value, Fail>) -> Result<Value, Fail> {
    SESSION.with(|s| match s.borrow_mut().as_mut() {
        Some(sess) => f(sess),
        None => Err("no game: start one".into()),
    })
}

fn field<T: for<'de> Deserialize<'de>>(req: &Value, name: &str) -> Result<T, Fail> {
    serde_json::from_value(req.get(name).cloned().unwrap_or(Value::Null)).map_err(|e| format!("'{name}': {e}"))
}

/// Answers one request (a JSON object with `op`), as JSON text.
pub fn handle(request: &str) -> String {
    let answer = serde_json::from_str::<Value>(request).map_err(|e| format!("a request that is not JSON: {e}")).and_then(
        |req| {
            let op = req.get("op").and_then(Value::as_str).unwrap_or("").to_string();
            match op.as_str() {
                "info" => Ok(info()),
                "new" => {
                    let spec: GameSpec = field(&req, "game")?;
                    let mut s = Session::new(spec)?;
                    let v = s.update(true);
                    SESSION.with(|c| *c.borrow_mut() = Some(s));
                    Ok(v)
                }
                "resume" => {
                    let saved: Saved = field(&req, "saved")?;
                    let mut s = Session::resume(&saved)?;
                    let v = s.update(true);
                    SESSION.with(|c| *c.borrow_mut() = Some(s));
                    Ok(v)
                }
                "play" => {
                    let i: usize = field(&req, "move")?;
                    with_session(|s| {
                        s.play(i)?;
                        Ok(s.update(false))
                    })
                }
                "continue" => with_session(|s| {
                    s.proceed();
                    Ok(s.update(false))
                }),
                "undo" => with_session(|s| {
                    let mut saved = s.saved();
                    if saved.choices.pop().is_none() {
                        return Err("nothing to undo".into());
                    }
                    *s = Session::resume(&saved)?;
                    Ok(s.update(true))
                }),
                "state" => with_session(|s| Ok(s.update(true))),
                "review" => {
                    let round: Option<u8> = field(&req, "round")?;
                    let k: usize = field(&req, "k")?;
                    with_session(|s| s.review(round, k))
                }
                "rewind" => {
                    let choice: usize = field(&req, "choice")?;
                    with_session(|s| {
                        s.rewind(choice)?;
                        Ok(s.update(true))
                    })
                }
                "hint" => with_session(|s| s.hint()),
                "save" => with_session(|s| Ok(json!({"ok": true, "saved": s.saved()}))),
                "log" => with_session(|s| Ok(json!({"ok": true, "log": s.log_text()}))),
                "bench" => {
                    let rounds: u32 = field(&req, "rounds")?;
                    Ok(json!({"ok": true, "rounds": lab::greedy_rounds(rounds)}))
                }
                "compare_start" => {
                    let spec: lab::LabSpec = field(&req, "lab")?;
                    let l = lab::Lab::start(&spec)?;
                    let mut v = lab_progress(&l)?;
                    v["about"] = l.about();
                    LAB.with(|c| *c.borrow_mut() = Some(l));
                    Ok(v)
                }
                "compare_step" => {
                    let games: u64 = field(&req, "games")?;
                    with_lab(|l| {
                        l.step(games)?;
                        lab_progress(l)
                    })
                }
                "compare_result" => with_lab(|l| Ok(json!({"ok": true, "result": l.result()?}))),
                "" => Err("a request without 'op'".into()),
                other => Err(format!(
                    "unknown op '{other}' (valid: info, new, resume, play, continue, undo, state, hint, review, rewind, save, log, bench, compare_start, compare_step, compare_result)"
                )),
            }
        },
    );
    match answer {
        Ok(v) => v.to_string(),
        Err(e) => json!({"ok": false, "error": e}).to_string(),
    }
}

#[cfg(test)]
mod tests;
