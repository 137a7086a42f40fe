//! The native module of the `mtrain` Python package (`mtrain._mtrain`): the library's jobs run
//! in Rust with the GIL released, through the same job and session the command line uses, and
//! their reports come back as the very CSV text the command line writes (the Python side reads
//! it into records and data frames). Nothing here plays or counts on its own.

use mexican_train::report::tournament as rep;
use mexican_train::rules::TableSpec;
use mexican_train::strategies::Registry;
use mexican_train::tournament::{
    ChunkSet, Identity, Outputs, RunOptions, RunResult, Session, SessionError, TournamentConfig, TournamentJob,
    TournamentSpec,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How often a waiting call looks for a signal (Ctrl-C) from Python.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own while this one waits without the GIL, checking for a
/// signal every [`SIGNAL_POLL`]: a KeyboardInterrupt sets `stop` (the run finishes the games in
/// flight and returns) and is raised once the work is back.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &std::sync::atomic::AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|s| {
        let handle = s.spawn(work);
        let mut signal = None;
        while !handle.is_finished() {
            py.detach(|| std::thread::sleep(SIGNAL_POLL));
            if signal.is_none()
                && let Err(e) = py.check_signals()
            {
                stop.store(true, Ordering::SeqCst);
                signal = Some(e);
            }
        }
        let out = handle.join().map_err(|_| PyRuntimeError::new_err("the run panicked"))?;
        match signal {
            Some(e) => Err(e),
            None => Ok(out),
        }
    })
}

/// A tournament, played as `mtrain tournament` plays it; the report as a dict: `header` and
/// `console` (the text the command line prints), `files` (file name to CSV text, as `--out`
/// writes them), `games` played, `stopped` (whether a signal or a failing bot cut it short).
#[pyfunction]
#[pyo3(signature = (
    bots = None, *, players = 4, games = 10_000, seed = 1, rules = "wikipedia", set = 12,
    hand = None, rounds = None, options = Vec::new(), threads = None, gauntlet = None,
    anchor = None, rotate = true, vary_order = true
))]
#[allow(clippy::too_many_arguments)]
fn tournament<'py>(
    py: Python<'py>,
    bots: Option<String>,
    players: u8,
    games: u64,
    seed: u64,
    rules: &str,
    set: u8,
    hand: Option<u8>,
    rounds: Option<u8>,
    options: Vec<String>,
    threads: Option<usize>,
    gauntlet: Option<String>,
    anchor: Option<String>,
    rotate: bool,
    vary_order: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let registry = Registry::builtin();
    let spec = TournamentSpec {
        table: TableSpec { preset: rules.to_string(), set, players, hand, rounds, rules: options },
        bots,
        gauntlet,
        anchor,
        games,
        seed,
        rotate,
        vary_order,
        sprt: None,
        shard: None,
    };
    spec.table.build().map_err(|e| PyValueError::new_err(e.to_string()))?;
    let job = TournamentJob::new(&spec, &registry).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let t = &job.tournament;
    let id = Identity {
        config: TournamentConfig::new(&spec, Default::default()).to_value(),
        shard: None,
        args: Vec::new(),
        plan: ChunkSet::slice(t.chunk_count(), None),
    };
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let opts = RunOptions::new(threads);
    let stop = opts.stop.clone();
    let result: Result<RunResult, SessionError> = interruptible(py, &stop, || {
        let mut session = Session::new(t, id, Outputs::default(), false)?;
        session.run::<SessionError>(&opts, |_, _| Vec::new(), |_, _| Ok(()))
    })?;
    let r = result.map_err(|e| PyRuntimeError::new_err(format!("{e:?}")))?;
    let out = PyDict::new(py);
    out.set_item("header", job.header())?;
    out.set_item("console", rep::console(&job.labels, &r.tally, job.anchor, job.gauntlet))?;
    let files = PyDict::new(py);
    for (name, text) in rep::files(&job.labels, &r.tally, job.anchor) {
        files.set_item(name, text)?;
    }
    out.set_item("files", files)?;
    out.set_item("games", r.tally.games)?;
    out.set_item("stopped", r.interrupted || r.bot_failed)?;
    Ok(out)
}

/// The built-in bots: name to a one-line description.
#[pyfunction]
fn strategies<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for e in Registry::builtin().entries() {
        out.set_item(&e.name, &e.about)?;
    }
    Ok(out)
}

/// The module.
#[pymodule]
fn _mtrain(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(tournament, m)?)?;
    m.add_function(wrap_pyfunction!(strategies, m)?)?;
    Ok(())
}
