//! Python bots in-process: any Python object with a `choose(observation, legal)` method plays
//! as a [`Strategy`] beside the built-ins. The observation is the bot protocol's `decide`
//! message (docs/bot-protocol.md) with the events since the bot's last decision, `legal` its
//! list of moves, and the answer an index into it. A bot that raises, or answers anything but a
//! valid index, fails the run with its name and the error, as an external bot does.

use mexican_train::external::decide_message;
use mexican_train::rng::GameRng;
use mexican_train::round::{MoveList, SeenEvent};
use mexican_train::strategy::{MatchStart, Needs, Strategy};
use mexican_train::view::View;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// A Python object playing a seat.
#[derive(Clone)]
pub struct PyBot {
    /// Its name in the field.
    name: String,
    /// The object.
    obj: Arc<Py<PyAny>>,
    /// Why it failed, shared by every copy (one per worker thread and seat).
    failure: Arc<Mutex<Option<String>>>,
    /// The events since its last decision.
    events: Vec<SeenEvent>,
    /// The round in play.
    round: u8,
}

impl PyBot {
    /// The bot `obj`, named `name`, reporting failures into `failure`.
    pub fn new(name: &str, obj: Py<PyAny>, failure: Arc<Mutex<Option<String>>>) -> PyBot {
        PyBot { name: name.to_string(), obj: Arc::new(obj), failure, events: Vec::new(), round: 0 }
    }

    fn fail(&self, why: String) {
        let mut slot = self.failure.lock().expect("not poisoned");
        if slot.is_none() {
            *slot = Some(format!("Python bot '{}' failed: {why}", self.name));
        }
    }

    /// Asks the object; `Err` names what went wrong.
    fn ask(&self, msg: String, n: usize) -> Result<usize, String> {
        Python::attach(|py| {
            let describe = |e: PyErr| {
                let tb = e.traceback(py).and_then(|t| t.format().ok()).unwrap_or_default();
                format!(
                    "{e}{}",
                    if tb.is_empty() { String::new() } else { format!(" ({})", tb.trim().replace('\n', " | ")) }
                )
            };
            let obs = py.import("json").and_then(|j| j.call_method1("loads", (msg,))).map_err(describe)?;
            let legal = obs.get_item("moves").map_err(describe)?;
            let answer = self.obj.bind(py).call_method1("choose", (obs, legal)).map_err(describe)?;
            let i: usize = answer.extract().map_err(|_| format!("choose returned {answer}, not an index"))?;
            if i < n { Ok(i) } else { Err(format!("choose returned {i}, but there are {n} legal moves")) }
        })
    }
}

impl Strategy for PyBot {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
        if self.has_failed() {
            return 0;
        }
        let msg = decide_message(self.round, view, &self.events, moves);
        self.events.clear();
        match self.ask(msg, moves.len()) {
            Ok(i) => i,
            Err(why) => {
                self.fail(why);
                0
            }
        }
    }

    fn round_start(&mut self, _view: &View<'_>) {
        self.round += 1;
        self.events.clear();
    }

    fn match_start(&mut self, _start: &MatchStart<'_>) {
        self.round = 0;
    }

    fn needs(&self) -> Needs {
        Needs::SAFE.events(true)
    }

    fn observe(&mut self, events: &[SeenEvent]) {
        self.events.extend_from_slice(events);
    }

    fn has_failed(&self) -> bool {
        self.failure.lock().expect("not poisoned").is_some()
    }
}
