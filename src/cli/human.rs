//! `mtrain play --human SEAT`: a person plays one seat in the terminal.
//!
//! The person's seat is a [`Strategy`] that asks on standard input: the hand and table are shown
//! each time it must choose, the legal moves numbered from 1; `hint` runs the analyser
//! (`mtrain analyze`) on the position, `quit` ends the match. A bad entry is asked again. The
//! transcript shows the person only what the seat may know; it is shared with the seat, which
//! writes the turn in progress before each question.

use crate::analyze::explain::hint_text;
use crate::analyze::{Settings, Table, analyze};
use crate::game::{MatchObserver, MatchResult};
use crate::report::transcript::Transcript;
use crate::rng::GameRng;
use crate::round::{Event, MoveList, Observer, RoundState};
use crate::rules::Rules;
use crate::strategy::{Needs, Strategy};
use crate::view::View;
use rand::RngCore;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The transcript both the table and the person's seat write to.
pub(crate) type Shared = Arc<Mutex<Transcript<std::io::Stdout>>>;

/// The table's side of the shared transcript: silent once the person has quit.
pub(crate) struct SharedTranscript {
    pub(crate) transcript: Shared,
    pub(crate) quit: Arc<AtomicBool>,
}

impl SharedTranscript {
    fn with(&self, f: impl FnOnce(&mut Transcript<std::io::Stdout>)) {
        if !self.quit.load(Ordering::Relaxed) {
            f(&mut self.transcript.lock().expect("the transcript lock"));
        }
    }
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

/// A person's seat.
#[derive(Clone)]
pub(crate) struct Human {
    pub(crate) transcript: Shared,
    pub(crate) quit: Arc<AtomicBool>,
    /// The analysis `hint` runs.
    pub(crate) hint: Settings,
}

impl Human {
    fn say(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
}

impl Strategy for Human {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        if self.quit.load(Ordering::Relaxed) {
            return 0;
        }
        self.transcript.lock().expect("the transcript lock").flush_partial();
        let k = moves.len();
        let mut text = format!(
            "\nYour move, seat {} ({} decision)\n{}\n",
            view.seat().index(),
            crate::analyze::review::kind_name(view.decision()),
            super::analyze::describe(view)
        );
        if let Some(t) = view.drawn() {
            text.push_str(&format!("\nyou drew {t}: play it or nothing\n"));
        }
        for (i, m) in moves.iter().enumerate() {
            text.push_str(&format!("  {:>2}  {m}\n", i + 1));
        }
        self.say(&text);
        let stdin = std::io::stdin();
        loop {
            self.say(&format!("move 1-{k}, hint (or hint N: why not move N), or quit: "));
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => {
                    self.say("\nno more input: the match is stopped\n");
                    self.quit.store(true, Ordering::Relaxed);
                    return 0;
                }
                Ok(_) => {}
            }
            let entry = line.trim();
            match entry {
                "quit" | "q" => {
                    self.quit.store(true, Ordering::Relaxed);
                    self.say("the match is stopped\n");
                    return 0;
                }
                hint if hint_of(hint, k).is_some() => {
                    let asked = hint_of(hint, k).flatten();
                    let a = analyze(view, moves, &self.hint, rng.next_u64());
                    let text = hint_text(&a, view, moves, asked, |i| format!("{}", i + 1));
                    self.say(&format!("{}{text}", Table(&a)));
                }
                _ => match entry.parse::<usize>() {
                    Ok(i) if (1..=k).contains(&i) => return i - 1,
                    _ => self.say(&format!(
                        "'{entry}' is not a move: enter a number from 1 to {k}, hint, hint N (N from 1 to {k}), or quit\n"
                    )),
                },
            }
        }
    }

    /// `hint` draws its seed from the seat's stream (the voids, too, as the safe default).
    fn needs(&self) -> Needs {
        Needs::SAFE
    }
}
