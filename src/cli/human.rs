//! `mtrain play --human SEAT`: a person plays one seat in the terminal.
//!
//! The person's seat is a [`Strategy`] that asks on standard input: the hand and table are shown
//! each time it must choose, the legal moves numbered from 1, the person's own train called
//! "your train". A move is entered by its number or as the tile (`7-11`, either half first),
//! with the train where it fits more than one (`7-11 mexican`, `7-11 your`, `7-11 3` for seat 3's
//! train); a tile that fits several trains without one named is asked about, listing them. `hint`
//! runs the analyser (`mtrain analyze`) on the position, `quit` stops the match. A bad entry is
//! answered in one line and asked again.
//!
//! The transcript shows the person only what the seat may know; it is shared with the seat, which
//! writes the turn in progress before each question and notes each choice, so that the seat's
//! other actions (draws, passes, markers, a single legal move played for the person) show as
//! `(forced)`. Between rounds the match pauses for Enter, with the running totals.
//!
//! Every choice is kept in the [`Session`], which writes the save file ([`super::save`]) when
//! the person quits, the input ends, or a signal (Ctrl-C, SIGTERM, SIGHUP) stops the match; a
//! resumed match replays the saved choices, without asking, before the person goes on.

use super::save::Save;
use crate::analyze::explain::hint_text;
use crate::analyze::{Settings, Table, analyze};
use crate::game::{MatchObserver, MatchResult};
use crate::report::transcript::{Transcript, train_name};
use crate::rng::GameRng;
use crate::round::{Event, Move, MoveList, Observer, RoundState, Seat};
use crate::rules::Rules;
use crate::strategy::{Needs, Strategy};
use crate::tile::Tile;
use crate::view::View;
use rand::RngCore;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The transcript both the table and the person's seat write to.
pub(crate) type Shared = Arc<Mutex<Transcript<std::io::Stdout>>>;

/// The person's match as it goes: what its save holds (the choices so far), the saved choices
/// still to replay, and where the save goes.
pub(crate) struct Session {
    /// The save: the options and every choice known (those replayed from a file first).
    pub(crate) save: Save,
    /// Where the save is written.
    pub(crate) path: PathBuf,
    /// How many of the choices came from a save file (replayed without asking).
    resumed: usize,
    /// How many choices the match has used.
    used: usize,
    /// Whether the line saying that the saved choices were replayed was shown.
    announced: bool,
    /// Whether the save was written.
    saved: bool,
    /// A saved choice that does not fit its position (the file was edited).
    pub(crate) bad: Option<String>,
}

/// The session shared by the seat, the table's transcript and the signal handler.
pub(crate) type SharedSession = Arc<Mutex<Session>>;

impl Session {
    /// A session writing to `path`, replaying the choices `save` holds.
    pub(crate) fn new(save: Save, path: PathBuf) -> Session {
        let resumed = save.choices.len();
        Session { save, path, resumed, used: 0, announced: false, saved: false, bad: None }
    }

    /// Whether saved choices are still being replayed.
    fn replaying(&self) -> bool {
        self.used < self.resumed
    }

    /// The saved choices the match did not use (it ended first).
    pub(crate) fn unused(&self) -> usize {
        self.resumed.saturating_sub(self.used)
    }

    /// The next saved choice, while replaying.
    fn next_replayed(&mut self) -> Option<u32> {
        if !self.replaying() {
            return None;
        }
        self.used += 1;
        Some(self.save.choices[self.used - 1])
    }

    /// Keeps a choice the person made.
    fn record(&mut self, i: usize) {
        self.save.choices.push(i as u32);
        self.used += 1;
    }

    /// Once, at the first question after a replay: the line that says so.
    fn resume_note(&mut self) -> String {
        if self.resumed == 0 || std::mem::replace(&mut self.announced, true) {
            return String::new();
        }
        format!(
            "\nresumed from {}: your {} saved choice{} replayed above; the match goes on\n",
            self.path.display(),
            self.resumed,
            if self.resumed == 1 { " is" } else { "s are" }
        )
    }

    /// Writes the save (once): the path written, or why not.
    pub(crate) fn write(&mut self) -> Result<&Path, String> {
        if !self.saved {
            self.save.write(&self.path)?;
            self.saved = true;
        }
        Ok(&self.path)
    }
}

/// The line that tells the person where the match was saved.
pub(crate) fn saved_line(path: &Path) -> String {
    let p = path.display();
    format!("saved to {p}: go on with mtrain play --resume {p}")
}

/// Writes to stdout at once.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// One line from standard input, trimmed; `None` when the input has ended.
fn read_entry() -> Option<String> {
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_string()),
    }
}

/// Stops the match: what the person is told, and the flag the table and seat watch.
fn stop(quit: &AtomicBool, why: &str) {
    say(why);
    quit.store(true, Ordering::Relaxed);
}

/// The table's side of the shared transcript: silent once the person has quit, and pausing
/// between rounds.
pub(crate) struct SharedTranscript {
    pub(crate) transcript: Shared,
    pub(crate) quit: Arc<AtomicBool>,
    pub(crate) session: SharedSession,
    /// The person's seat.
    pub(crate) seat: Seat,
}

impl SharedTranscript {
    fn with(&self, f: impl FnOnce(&mut Transcript<std::io::Stdout>)) {
        if !self.quit.load(Ordering::Relaxed) {
            f(&mut self.transcript.lock().expect("the transcript lock"));
        }
    }

    /// Before round `round` (from the second on): the totals so far and a wait for Enter (not
    /// while saved choices are replayed). `quit` or the end of the input stops the match.
    fn pause(&self, round: u8) {
        if self.quit.load(Ordering::Relaxed) {
            return;
        }
        let note = {
            let mut s = self.session.lock().expect("the session lock");
            if s.replaying() {
                return;
            }
            s.resume_note()
        };
        let text = {
            let mut t = self.transcript.lock().expect("the transcript lock");
            t.out.flush();
            pause_text(round, t.totals(), self.seat)
        };
        say(&format!("{note}{text}"));
        match read_entry().as_deref() {
            None => stop(&self.quit, "\nno more input: the match is stopped\n"),
            Some("quit" | "q") => stop(&self.quit, "the match is stopped\n"),
            Some(_) => {}
        }
    }
}

/// `Round 2 over: ...`: the person's total, who leads, and the question.
fn pause_text(round: u8, totals: &[u32], you: Seat) -> String {
    let low = totals.iter().copied().min().unwrap_or(0);
    let leaders: Vec<String> = (0..totals.len())
        .filter(|&s| totals[s] == low)
        .map(|s| if s == you.index() { "you".to_string() } else { format!("seat {s}") })
        .collect();
    format!(
        "\nRound {} over: you have {} points; the lowest total is {low} ({}). Press Enter for round {round}, or quit: ",
        round - 1,
        totals.get(you.index()).copied().unwrap_or(0),
        leaders.join(" and ")
    )
}

impl Observer for SharedTranscript {
    fn event(&mut self, ev: &Event) {
        self.with(|t| t.event(ev));
    }
}

impl MatchObserver for SharedTranscript {
    fn match_start(&mut self, rules: &Rules, seed: u64) {
        self.with(|t| t.match_start(rules, seed));
    }
    fn round_start(&mut self, round: u8, state: &RoundState) {
        if round > 1 {
            self.pause(round);
        }
        self.with(|t| t.round_start(round, state));
    }
    fn match_end(&mut self, result: &MatchResult) {
        self.with(|t| t.match_end(result));
    }
}

/// `hint` (Some(None)) or `hint N` for a move N from 1 to `k` (Some(Some(N - 1))); `None` for
/// anything else.
fn hint_of(entry: &str, k: usize) -> Option<Option<usize>> {
    let mut words = entry.split_whitespace();
    if !matches!(words.next(), Some("hint" | "h")) {
        return None;
    }
    match (words.next(), words.next()) {
        (None, _) => Some(None),
        (Some(n), None) => match n.parse::<usize>() {
            Ok(i) if (1..=k).contains(&i) => Some(Some(i - 1)),
            _ => None,
        },
        _ => None,
    }
}

/// A move as the person reads it: `7-11 on your train`, `7-11 on train 2`, `7-11 on mexican`.
pub(crate) fn move_name(m: Move, you: Seat) -> String {
    match m.placement() {
        Some(p) => format!("{} on {}", p.tile, train_name(m.train, Some(you))),
        None => m.to_string(),
    }
}

/// What a typed entry names.
#[derive(Debug, PartialEq, Eq)]
enum Entry {
    /// The move with this index.
    Move(usize),
    /// The tile fits the trains of these moves: which one?
    Trains(Tile, Vec<usize>),
    /// Not a move, and why (one line).
    Bad(String),
}

/// The words a train answers to, for the person at `you`.
fn train_words(m: Move, you: Seat) -> Vec<String> {
    let t = m.train.base();
    match t.owner() {
        Some(s) if s == you => ["your", "yours", "mine", "my", "own", "me", "you"]
            .iter()
            .map(|w| w.to_string())
            .chain([s.to_string()])
            .collect(),
        Some(s) => vec![s.to_string()],
        None if t.is_mexican() && t.to_string() == "mexican" => vec!["mexican".into(), "mex".into(), "m".into()],
        None => vec![t.to_string()],
    }
}

/// The train a person named (`your`, `mexican train`, `3`, `train 3`, `on 3`), as a word
/// [`train_words`] holds.
fn train_word(text: &str) -> String {
    let mut w = text.trim().to_lowercase();
    for prefix in ["on ", "the "] {
        if let Some(rest) = w.strip_prefix(prefix) {
            w = rest.trim().to_string();
        }
    }
    if let Some(rest) = w.strip_prefix("train") {
        w = rest.trim().to_string();
    }
    if let Some(rest) = w.strip_suffix("train") {
        w = rest.trim().to_string();
    }
    if let Some(rest) = w.strip_suffix("'s") {
        w = rest.to_string();
    }
    if let Some(rest) = w.strip_prefix("seat ") {
        w = rest.trim().to_string();
    }
    w
}

/// Names for the trains of `cands`, joined: `your train, mexican and train 2`.
fn train_list(moves: &MoveList, cands: &[usize], you: Seat) -> String {
    let mut names: Vec<String> = Vec::new();
    for &i in cands {
        let n = train_name(moves[i].train.base(), Some(you));
        if !names.contains(&n) {
            names.push(n);
        }
    }
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The moves among `cands` on the train `word` names, for the person at `you`; a line saying
/// why when there are none or they differ only in the tile's turn.
fn on_train(tile: Tile, word: &str, moves: &MoveList, cands: &[usize], you: Seat) -> Entry {
    let w = train_word(word);
    let fit: Vec<usize> = cands.iter().copied().filter(|&i| train_words(moves[i], you).contains(&w)).collect();
    match fit.as_slice() {
        [i] => Entry::Move(*i),
        [] => {
            let asked = match w.parse::<u8>() {
                Ok(s) if s as usize == you.index() => "your train".to_string(),
                Ok(s) => format!("train {s}"),
                Err(_) if ["your", "yours", "mine", "my", "own", "me", "you"].contains(&w.as_str()) => {
                    "your train".to_string()
                }
                Err(_) => format!("'{}'", word.trim()),
            };
            Entry::Bad(format!("{tile} cannot go on {asked}: it fits {}", train_list(moves, cands, you)))
        }
        more => turned_choice(tile, moves, more, you),
    }
}

/// Moves of one tile on one train that differ in the turn of the tile: the numbers to choose by.
fn turned_choice(tile: Tile, moves: &MoveList, cands: &[usize], you: Seat) -> Entry {
    let numbers: Vec<String> = cands.iter().map(|i| (i + 1).to_string()).collect();
    Entry::Bad(format!(
        "{tile} can be laid {} ways on {}: enter the move number ({})",
        cands.len(),
        train_list(moves, cands, you),
        numbers.join(" or ")
    ))
}

/// Reads an entry written as a tile (`7-11`, `11-7`), with a train or without; `None` when the
/// entry does not begin with a tile.
fn tile_entry(entry: &str, view: &View<'_>, moves: &MoveList) -> Option<Entry> {
    let you = view.seat();
    let (first, rest) = match entry.split_once(char::is_whitespace) {
        Some((f, r)) => (f, r.trim()),
        None => (entry, ""),
    };
    let (a, b) = first.split_once('-')?;
    let (a, b) = (a.parse::<u8>().ok()?, b.parse::<u8>().ok()?);
    let set = view.rules().set.get();
    if a > set || b > set {
        return Some(Entry::Bad(format!("{first} is not a tile of the double-{set} set (halves 0 to {set})")));
    }
    let tile = Tile::from_pips(a, b);
    if !view.hand().contains(tile) {
        return Some(Entry::Bad(format!("you do not hold {tile}")));
    }
    let cands: Vec<usize> =
        (0..moves.len()).filter(|&i| moves[i].placement().is_some_and(|p| p.tile == tile)).collect();
    if cands.is_empty() {
        let why = match view.drawn() {
            Some(d) if d != tile => format!("only the tile you drew, {d}, may be played now"),
            _ => "it fits no train open to you now".to_string(),
        };
        return Some(Entry::Bad(format!("{tile} cannot be played: {why}")));
    }
    if !rest.is_empty() {
        return Some(on_train(tile, rest, moves, &cands, you));
    }
    let mut trains: Vec<_> = cands.iter().map(|&i| moves[i].train.base()).collect();
    trains.dedup();
    Some(match (cands.as_slice(), trains.len()) {
        ([i], _) => Entry::Move(*i),
        (_, 1) => turned_choice(tile, moves, &cands, you),
        _ => Entry::Trains(tile, cands),
    })
}

/// A person's seat.
#[derive(Clone)]
pub(crate) struct Human {
    pub(crate) transcript: Shared,
    pub(crate) quit: Arc<AtomicBool>,
    pub(crate) session: SharedSession,
    /// The analysis `hint` runs.
    pub(crate) hint: Settings,
}

impl Human {
    /// The person chose move `i`: kept for the save, and noted in the transcript.
    fn chose(&self, i: usize) -> usize {
        self.session.lock().expect("the session lock").record(i);
        self.transcript.lock().expect("the transcript lock").chosen();
        i
    }
}

impl Strategy for Human {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        if self.quit.load(Ordering::Relaxed) {
            return 0;
        }
        let k = moves.len();
        let note = {
            let mut s = self.session.lock().expect("the session lock");
            if let Some(c) = s.next_replayed() {
                let c = c as usize;
                if c >= k {
                    s.bad = Some(format!(
                        "saved choice {} is move {} of a position with {k} legal moves: the file was changed or written for another match",
                        s.used,
                        c + 1
                    ));
                    self.quit.store(true, Ordering::Relaxed);
                    return 0;
                }
                drop(s);
                self.transcript.lock().expect("the transcript lock").chosen();
                return c;
            }
            s.resume_note()
        };
        self.transcript.lock().expect("the transcript lock").flush_partial();
        let you = view.seat();
        let mut text = format!(
            "{note}\nYour move, seat {} ({} decision)\n{}\n",
            you.index(),
            crate::analyze::review::kind_name(view.decision()),
            super::analyze::describe_for(view, Some(you))
        );
        if let Some(t) = view.drawn() {
            text.push_str(&format!("\nyou drew {t}: play it or nothing\n"));
        }
        for (i, m) in moves.iter().enumerate() {
            text.push_str(&format!("  {:>2}  {}\n", i + 1, move_name(*m, you)));
        }
        say(&text);
        loop {
            say(&format!("move 1-{k} or a tile (7-11, 7-11 mexican), hint (or hint N: why not move N), or quit: "));
            let Some(entry) = read_entry() else {
                stop(&self.quit, "\nno more input: the match is stopped\n");
                return 0;
            };
            let entry = entry.as_str();
            match entry {
                "quit" | "q" => {
                    stop(&self.quit, "the match is stopped\n");
                    return 0;
                }
                hint if hint_of(hint, k).is_some() => {
                    let asked = hint_of(hint, k).flatten();
                    let a = analyze(view, moves, &self.hint, rng.next_u64());
                    let text = hint_text(&a, view, moves, asked, |i| format!("{}", i + 1));
                    say(&format!("{}{text}", Table(&a)));
                }
                _ => {
                    if let Ok(i) = entry.parse::<usize>()
                        && (1..=k).contains(&i)
                    {
                        return self.chose(i - 1);
                    }
                    if let Some(i) = moves.iter().position(|m| m.placement().is_none() && m.to_string() == entry) {
                        return self.chose(i);
                    }
                    match tile_entry(entry, view, moves) {
                        Some(Entry::Move(i)) => return self.chose(i),
                        Some(Entry::Bad(why)) => say(&format!("{why}\n")),
                        Some(Entry::Trains(tile, cands)) => {
                            let words: Vec<String> = cands.iter().map(|&i| train_words(moves[i], you)[0].clone()).fold(
                                Vec::new(),
                                |mut v, w| {
                                    if !v.contains(&w) {
                                        v.push(w);
                                    }
                                    v
                                },
                            );
                            say(&format!(
                                "{tile} fits {}: which train? ({}): ",
                                train_list(moves, &cands, you),
                                words.join(", ")
                            ));
                            let Some(answer) = read_entry() else {
                                stop(&self.quit, "\nno more input: the match is stopped\n");
                                return 0;
                            };
                            match on_train(tile, &answer, moves, &cands, you) {
                                Entry::Move(i) => return self.chose(i),
                                Entry::Bad(why) => say(&format!("{why}\n")),
                                Entry::Trains(..) => {}
                            }
                        }
                        None => say(&format!(
                            "'{entry}' is not a move: enter a number from 1 to {k}, a tile you hold (7-11, or 7-11 mexican, 7-11 your, 7-11 N for seat N's train), hint, hint N (N from 1 to {k}), or quit\n"
                        )),
                    }
                }
            }
        }
    }

    /// `hint` draws its seed from the seat's stream (the voids, too, as the safe default).
    fn needs(&self) -> Needs {
        Needs::SAFE
    }
}

/// Writes the save when a signal (Ctrl-C, SIGTERM, SIGHUP) stops a person's match: the save is
/// written whole, the unfinished log's temporary file is removed (a stopped match keeps no log),
/// and the process exits with 128 + the signal's number.
pub(crate) fn save_on_signal(session: SharedSession) {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else { return };
        let _ = std::thread::Builder::new().name("save-on-signal".into()).spawn(move || {
            if let Some(sig) = signals.forever().next() {
                let line = match session.lock() {
                    Ok(mut s) if s.bad.is_none() => match s.write() {
                        Ok(path) => format!("mtrain: stopped: {}", saved_line(path)),
                        Err(e) => format!("mtrain: stopped; the save was not written: {e}"),
                    },
                    _ => "mtrain: stopped".to_string(),
                };
                crate::store::discard_unfinished();
                let _ = writeln!(std::io::stderr(), "\n{line}");
                std::process::exit(128 + sig);
            }
        });
    }
    #[cfg(not(unix))]
    let _ = session;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_train_is_named_in_the_words_a_person_uses() {
        for (typed, word) in [
            ("mexican", "mexican"),
            ("Mexican train", "mexican"),
            ("on the mexican train", "mexican"),
            ("train 3", "3"),
            ("on 3", "3"),
            ("3", "3"),
            ("your train", "your"),
            ("mine", "mine"),
            ("seat 2's", "2"),
        ] {
            assert_eq!(train_word(typed), word, "{typed}");
        }
    }

    #[test]
    fn the_pause_names_the_round_the_totals_and_the_next_round() {
        let you = Seat::from_index(1);
        assert_eq!(
            pause_text(3, &[12, 37, 12], you),
            "\nRound 2 over: you have 37 points; the lowest total is 12 (seat 0 and seat 2). Press Enter for round 3, or quit: "
        );
        assert!(pause_text(2, &[20, 5, 9], you).contains("the lowest total is 5 (you)"));
    }
}
