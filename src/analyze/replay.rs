//! Replaying a JSONL game log (docs/log-format.md) decision by decision.
//!
//! A log's `match` line names the rules and the match seed, and the seed decides every deal, so
//! the match is rebuilt as a [`MatchState`] and stepped: at each decision the legal move whose
//! events are the log's next lines is the one that was played. Every line the replay produces
//! is checked against the log, so a log that does not follow from its own first line (edited,
//! or written by another version) is refused at the first line that differs.

use crate::error::InvalidInput;
use crate::game::{MatchSeeds, MatchState};
use crate::log::{EVENTS, JsonLog, MatchLine};
use crate::round::Seat;
use crate::rules::{Rules, TableSpec};
use std::path::Path;

/// One match of a log file.
#[derive(Clone, Debug)]
pub struct LoggedGame {
    /// The `game` field of its `match` line (tournament logs), if any.
    pub game: Option<u64>,
    /// The match seed.
    pub seed: u64,
    /// The table, as the `match` line gives it.
    pub table: TableSpec,
    /// The bots, one spec per seat.
    pub bots: Vec<String>,
    /// 1-based line number of its `match` line in the file.
    pub first_line: usize,
    /// The lines after the `match` line, to its `match_end` (or the file's end).
    lines: Vec<String>,
    /// The file's name, for messages.
    file: String,
}

/// Reads every match of the log file at `path`.
///
/// # Errors
/// The file cannot be read, a line is not a JSON object with a known `event`, the file does not
/// start with a `match` line, or a `match` line lacks a field or names rules that do not build;
/// the message names the file and line.
pub(crate) fn read_log(path: &Path) -> Result<Vec<LoggedGame>, InvalidInput> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| InvalidInput(format!("cannot read the log '{file}': {}", crate::store::io_text(&e))))?;
    parse_log(&text, &file)
}

/// `read_log` on the text of a log; `file` names it in messages.
///
/// # Errors
/// As `read_log`.
pub fn parse_log(text: &str, file: &str) -> Result<Vec<LoggedGame>, InvalidInput> {
    let mut games: Vec<LoggedGame> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let no = i + 1;
        let at = |what: String| InvalidInput(format!("{file} line {no}: {what}"));
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| at(format!("not a JSON object ({})", crate::error::json_problem(line, &e))))?;
        let event = v.get("event").and_then(|e| e.as_str()).ok_or_else(|| at("no \"event\" field".into()))?;
        if !EVENTS.contains(&event) {
            return Err(at(format!("unknown event '{event}' (valid: {})", EVENTS.join(", "))));
        }
        if event == "match" {
            let m: MatchLine = serde_json::from_str(line).map_err(|e| {
                at(format!("a match line the replay cannot read ({})", crate::error::json_problem(line, &e)))
            })?;
            let rules = m.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let table = TableSpec {
                preset: m.rules,
                set: m.set,
                players: m.players,
                hand: Some(m.hand),
                rounds: Some(m.rounds),
                rules,
            };
            table.build().map_err(|e| at(format!("rules that do not build: {e}")))?;
            games.push(LoggedGame {
                game: m.game,
                seed: m.seed,
                table,
                bots: m.bots,
                first_line: no,
                lines: Vec::new(),
                file: file.to_string(),
            });
        } else {
            let g = games.last_mut().ok_or_else(|| at("the log does not start with a match line".into()))?;
            g.lines.push(line.to_string());
        }
    }
    if games.is_empty() {
        return Err(InvalidInput(format!("{file}: no match line: not a game log (docs/log-format.md)")));
    }
    // A game without its `match_end` line was cut short (a run killed while writing it, a file
    // truncated): its decisions cannot be judged against how the match went on.
    if let Some(g) = games.iter().find(|g| !g.lines.iter().any(|l| l.contains("\"event\":\"match_end\""))) {
        return Err(InvalidInput(format!(
            "{file}: the game that starts at line {} has no match_end line: the log is cut short (a run killed while writing it, or a truncated file); only whole games are analysed",
            g.first_line
        )));
    }
    Ok(games)
}

/// How many decisions that write nothing [`LoggedGame::replay`] follows ahead to tell which of
/// several moves agreeing with the log was played.
const LOOKAHEAD: u32 = 3;

/// One decision of a replayed match: the match just before it and the move that was played.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The game's number (tournament logs) or `None`.
    pub game: Option<u64>,
    /// Round number, from 1.
    pub round: u8,
    /// The decision's number in its round, from 1, counting every seat's decisions.
    pub decision: u32,
    /// The seat that decided.
    pub seat: Seat,
    /// 1-based line number in the file of the first event the played move produced (the next
    /// line of the log when it produced none before the next decision).
    pub line: usize,
    /// The match at the decision.
    pub state: MatchState,
    /// The index of the played move in `state.legal()`.
    pub played: usize,
}

impl LoggedGame {
    /// The rules of the game.
    pub fn rules(&self) -> Rules {
        self.table.build().expect("checked when read").0
    }

    /// Replays the game, calling `visit` at each decision in order, until the match ends, the
    /// log ends, or `visit` returns false.
    ///
    /// # Errors
    /// A line of the log that the match of its seed does not produce, named with its number.
    pub(crate) fn replay(&self, mut visit: impl FnMut(Decision) -> bool) -> Result<(), InvalidInput> {
        let rules = self.rules();
        let names = vec![String::new(); rules.players as usize];
        let mut first = JsonLog::new(Vec::new(), names.clone());
        let mut st = MatchState::seeded_with(&rules, &MatchSeeds::from_seed(self.seed), &mut first);
        let produced = lines_of(first.out.into_inner());
        let mut pos = self.check(&produced, 0)?;
        let (mut round, mut count) = (st.round_number(), 0u32);
        while let Some(seat) = st.current() {
            if pos >= self.lines.len() {
                return Ok(()); // a log cut short: its decisions so far
            }
            if st.round_number() != round {
                round = st.round_number();
                count = 0;
            }
            count += 1;
            // The played move is the one whose events are the log's next lines. A move that
            // writes nothing before the next decision (a `stop`, declaring a bullet train)
            // agrees with any log, and a move can write a prefix of what another does (a tile
            // laid alone, or the first of a bullet train's). So the candidates are tried longest
            // output first, and the first whose match can go on with the log is taken; when
            // none can, the longest.
            let mut agreeing: Vec<(usize, MatchState, usize)> = Vec::new();
            for i in 0..st.legal().len() {
                let (next, out) = self.step(&st, i, &names);
                if self.agrees(&out, pos) {
                    agreeing.push((i, next, out.len()));
                }
            }
            // Stable: among equal outputs the legal moves' order decides.
            agreeing.sort_by_key(|c| std::cmp::Reverse(c.2));
            if agreeing.len() > 1
                && let Some(k) = agreeing.iter().position(|c| self.goes_on(&c.1, pos + c.2, &names, LOOKAHEAD))
            {
                let c = agreeing.remove(k);
                agreeing.insert(0, c);
            }
            let chosen = agreeing.into_iter().next();
            let Some((played, next, n)) = chosen else {
                return Err(InvalidInput(format!(
                    "{} line {}: no legal move of seat {} leads to this line (the log does not follow from its seed and rules): {}",
                    self.file,
                    self.line_no(pos),
                    seat.index(),
                    self.lines[pos]
                )));
            };
            let d =
                Decision { game: self.game, round, decision: count, seat, line: self.line_no(pos), state: st, played };
            if !visit(d) {
                return Ok(());
            }
            st = next;
            pos += n;
        }
        Ok(())
    }

    /// Whether the match `st`, at line `pos` of the log, can go on with it: the log or the match
    /// is over, or some legal move writes the log's next lines (one that writes nothing is
    /// followed up to `depth` decisions further).
    fn goes_on(&self, st: &MatchState, pos: usize, names: &[String], depth: u32) -> bool {
        if pos >= self.lines.len() || st.current().is_none() || depth == 0 {
            return true;
        }
        (0..st.legal().len()).any(|j| {
            let (next, out) = self.step(st, j, names);
            self.agrees(&out, pos) && (!out.is_empty() || self.goes_on(&next, pos, names, depth - 1))
        })
    }

    /// Every decision, in order.
    ///
    /// # Errors
    /// As `LoggedGame::replay`.
    pub fn decisions(&self) -> Result<Vec<Decision>, InvalidInput> {
        let mut all = Vec::new();
        self.replay(|d| {
            all.push(d);
            true
        })?;
        Ok(all)
    }

    /// Plays move `i` of `st` on a copy: the state after it and the log lines it writes up to
    /// the next decision.
    fn step(&self, st: &MatchState, i: usize, names: &[String]) -> (MatchState, Vec<String>) {
        let mut next = st.clone();
        let mut log = JsonLog::new(Vec::new(), names.to_vec());
        next.apply_observed(i, &mut log);
        (next, lines_of(log.out.into_inner()))
    }

    /// 1-based file line number of the game's `i`-th line after its `match` line.
    fn line_no(&self, i: usize) -> usize {
        self.first_line + 1 + i
    }

    /// Whether `out` is what the log holds from line `pos` on (as far as the log goes).
    fn agrees(&self, out: &[String], pos: usize) -> bool {
        out.iter().zip(&self.lines[pos..]).all(|(a, b)| a == b)
    }

    /// Checks `out` against the log from `pos`; the position after it.
    fn check(&self, out: &[String], pos: usize) -> Result<usize, InvalidInput> {
        for (j, (a, b)) in out.iter().zip(&self.lines[pos..]).enumerate() {
            if a != b {
                return Err(InvalidInput(format!(
                    "{} line {}: the log does not follow from its seed and rules: expected {a}, found {b}",
                    self.file,
                    self.line_no(pos + j)
                )));
            }
        }
        Ok(pos + out.len())
    }
}

fn lines_of(bytes: Vec<u8>) -> Vec<String> {
    String::from_utf8(bytes).expect("the log is UTF-8").lines().map(str::to_string).collect()
}
