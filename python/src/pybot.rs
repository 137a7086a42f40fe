//! Python bots in-process: a Python object plays as a [`Strategy`] beside the built-ins, in one of
//! two shapes.
//!
//! - An object with `act(obs, mask)` takes what an environment gives a learner: `obs` the seat's
//!   observation tensor (`State.observation_tensor`, float32) and `mask` the action mask over the
//!   fixed action space (int8, 1: legal), exactly as `mtrain.gym` and `mtrain.pettingzoo` give them
//!   at the same decision; its answer is an action number (a Python or numpy integer). A policy
//!   trained in the environments therefore plays in tournaments as it is.
//! - Otherwise an object with `choose(observation, legal)` takes the bot protocol's `decide`
//!   message (docs/bot-protocol.md) with the events since the bot's last decision, `legal` its
//!   list of moves, and answers an index into it.
//!
//! A bot that raises, or answers anything but a legal action (an index into `legal`), fails the
//! run with its name and the error, as an external bot does.

use mexican_train::external::decide_message;
use mexican_train::game::{ActionSpace, ObservationLayout};
use mexican_train::rng::GameRng;
use mexican_train::round::{MoveList, SeenEvent};
use mexican_train::strategy::{MatchStart, Needs, Strategy};
use mexican_train::view::View;
use numpy::PyArray1;
use pyo3::prelude::*;
use std::sync::{Arc, Mutex};

/// What a tensor bot (`act(obs, mask)`) is given, sized for the match in play.
#[derive(Clone)]
struct Tensors {
    layout: ObservationLayout,
    space: ActionSpace,
    obs: Vec<f32>,
    mask: Vec<i8>,
}

/// A Python object playing a seat.
#[derive(Clone)]
pub struct PyBot {
    /// Its name in the field.
    name: String,
    /// The object.
    obj: Arc<Py<PyAny>>,
    /// Whether it is a tensor bot (`act(obs, mask)`) rather than a protocol bot (`choose`).
    act: bool,
    /// Why it failed, shared by every copy (one per worker thread and seat).
    failure: Arc<Mutex<Option<String>>>,
    /// The events since its last decision (protocol bots).
    events: Vec<SeenEvent>,
    /// The round in play.
    round: u8,
    /// The tensors of the match in play (tensor bots).
    tensors: Option<Box<Tensors>>,
}

/// Whether `obj` is a tensor bot: it has a callable `act`.
pub fn is_tensor_bot(py: Python<'_>, obj: &Py<PyAny>) -> bool {
    obj.bind(py).getattr("act").is_ok_and(|a| a.is_callable())
}

impl PyBot {
    /// The bot `obj`, named `name`, reporting failures into `failure`.
    pub fn new(name: &str, obj: Py<PyAny>, failure: Arc<Mutex<Option<String>>>) -> PyBot {
        let act = Python::attach(|py| is_tensor_bot(py, &obj));
        PyBot { name: name.to_string(), obj: Arc::new(obj), act, failure, events: Vec::new(), round: 0, tensors: None }
    }

    fn fail(&self, why: String) {
        let mut slot = self.failure.lock().expect("not poisoned");
        if slot.is_none() {
            *slot = Some(format!("Python bot '{}' failed: {why}", self.name));
        }
    }

    /// A Python error with its traceback, on one line.
    fn describe(py: Python<'_>, e: PyErr) -> String {
        let tb = e.traceback(py).and_then(|t| t.format().ok()).unwrap_or_default();
        format!("{e}{}", if tb.is_empty() { String::new() } else { format!(" ({})", tb.trim().replace('\n', " | ")) })
    }

    /// Asks a protocol bot; `Err` names what went wrong.
    fn ask(&self, msg: String, n: usize) -> Result<usize, String> {
        Python::attach(|py| {
            let describe = |e| Self::describe(py, e);
            let obs = py.import("json").and_then(|j| j.call_method1("loads", (msg,))).map_err(describe)?;
            let legal = obs.get_item("moves").map_err(describe)?;
            let answer = self.obj.bind(py).call_method1("choose", (obs, legal)).map_err(describe)?;
            let i: usize = answer.extract().map_err(|_| format!("choose returned {answer}, not an index"))?;
            if i < n { Ok(i) } else { Err(format!("choose returned {i}, but there are {n} legal moves")) }
        })
    }

    /// Asks a tensor bot at `view`'s decision among `moves`; the index of the move it chose, or
    /// `Err` naming what went wrong.
    fn ask_tensor(&mut self, view: &View<'_>, moves: &MoveList) -> Result<usize, String> {
        let t = self.tensors.as_mut().ok_or("asked before the match started")?;
        t.layout.write(view, self.round, Some(view.seat()), &mut t.obs);
        t.mask.fill(0);
        for &m in moves.iter() {
            t.mask[t.space.encode(m).expect("every legal move is numbered")] = 1;
        }
        let t = &**t;
        Python::attach(|py| {
            let obs = PyArray1::from_slice(py, &t.obs);
            let mask = PyArray1::from_slice(py, &t.mask);
            let answer = self.obj.bind(py).call_method1("act", (obs, mask)).map_err(|e| Self::describe(py, e))?;
            let a: i64 = answer.extract().map_err(|_| format!("act returned {answer}, not an action number"))?;
            usize::try_from(a).ok().and_then(|a| moves.iter().position(|&m| t.space.encode(m) == Some(a))).ok_or_else(
                || {
                    let mut legal: Vec<usize> = moves.iter().filter_map(|&m| t.space.encode(m)).collect();
                    legal.sort_unstable();
                    format!("act returned action {a}, which is not legal here (legal: {legal:?})")
                },
            )
        })
    }
}

impl Strategy for PyBot {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
        if self.has_failed() {
            return 0;
        }
        let answer = if self.act {
            self.ask_tensor(view, moves)
        } else {
            let msg = decide_message(self.round, view, &self.events, moves);
            self.events.clear();
            self.ask(msg, moves.len())
        };
        answer.unwrap_or_else(|why| {
            self.fail(why);
            0
        })
    }

    fn round_start(&mut self, _view: &View<'_>) {
        self.round += 1;
        self.events.clear();
    }

    fn match_start(&mut self, start: &MatchStart<'_>) {
        self.round = 0;
        if self.act {
            let layout = ObservationLayout::new(start.rules);
            let space = ActionSpace::new(start.rules);
            let fresh = self.tensors.as_ref().is_none_or(|t| t.layout != layout || t.space != space);
            if fresh {
                let (obs, mask) = (vec![0.0; layout.len()], vec![0; space.len()]);
                self.tensors = Some(Box::new(Tensors { layout, space, obs, mask }));
            }
        }
    }

    fn needs(&self) -> Needs {
        // A tensor bot sees only the position (the tensor has no history); a protocol bot is
        // told the events since its last decision.
        Needs::SAFE.events(!self.act)
    }

    fn observe(&mut self, events: &[SeenEvent]) {
        if !self.act {
            self.events.extend_from_slice(events);
        }
    }

    fn has_failed(&self) -> bool {
        self.failure.lock().expect("not poisoned").is_some()
    }
}
