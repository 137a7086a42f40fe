//! The native module of the `mtrain` Python package (`mtrain._mtrain`): the library's jobs run
//! in Rust with the GIL released, through the same job and session the command line uses, and
//! their reports come back as the very CSV text the command line writes (the Python side reads
//! it into records and data frames). Nothing here plays or counts on its own.

use mexican_train::balance::{
    self as bal, DEFAULT_POPULATION, FirstPlayer, Limits, Objective, Sweep, SweepConfig, SweepError, SweepSpec,
};
use mexican_train::report::balance as brep;
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
    let opts = RunOptions::new(threads_or_cores(threads)?);
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

/// A balance sweep, played as `mtrain balance` plays it; the report as a dict: `header` and
/// `console`, `files` (file name to text: the CSV files and one SVG plot per metric, as `--out`
/// writes them), `games` played, `stopped`.
#[pyfunction]
#[pyo3(signature = (
    bots = None, *, players = (2, 8), hands = None, games = 4000, max_games = None, seed = 1,
    rules = "wikipedia", set = 12, rounds = None, options = Vec::new(), objective = "balanced",
    metrics = None, threads = None, max_blocked = None, max_first_edge = None, first_player = None,
    min_skill = None, max_skill = None, margin = None
))]
#[allow(clippy::too_many_arguments)]
fn balance<'py>(
    py: Python<'py>,
    bots: Option<String>,
    players: (u8, u8),
    hands: Option<(u8, u8)>,
    games: u64,
    max_games: Option<u64>,
    seed: u64,
    rules: &str,
    set: u8,
    rounds: Option<u8>,
    options: Vec<String>,
    objective: &str,
    metrics: Option<Vec<String>>,
    threads: Option<usize>,
    max_blocked: Option<f64>,
    max_first_edge: Option<f64>,
    first_player: Option<&str>,
    min_skill: Option<f64>,
    max_skill: Option<f64>,
    margin: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let bad = |e: &dyn std::fmt::Display| PyValueError::new_err(e.to_string());
    let registry = Registry::builtin();
    let d = Limits::default();
    let limits = Limits {
        max_blocked: max_blocked.unwrap_or(d.max_blocked),
        max_first_edge: max_first_edge.unwrap_or(d.max_first_edge),
        first_player: first_player.map_or(Ok(d.first_player), FirstPlayer::parse).map_err(|e| bad(&e))?,
        min_skill: min_skill.unwrap_or(d.min_skill),
        max_skill: max_skill.unwrap_or(d.max_skill),
        margin: margin.unwrap_or(d.margin),
    };
    let spec = SweepSpec {
        preset: rules.to_string(),
        set,
        rounds,
        rules: options,
        players,
        hands,
        bots: bots.unwrap_or_else(|| DEFAULT_POPULATION.to_string()),
        games,
        max_games,
        seed,
        objective: Objective::parse(objective).map_err(|e| bad(&e))?,
        limits,
        metrics,
    };
    let sweep = Sweep::new(&spec, &registry).map_err(|e| bad(&e))?;
    let config = SweepConfig { spec, bots: Default::default() };
    let mut state = sweep.start(None, &config, None, &registry).map_err(|e| bad(&e))?;
    let opts = RunOptions::new(threads_or_cores(threads)?);
    let stop = opts.stop.clone();
    let interrupted = interruptible(py, &stop, || {
        sweep.play::<SweepError>(&mut state, false, &opts, &registry, |_| {}, |_| {}, |_| Ok(()))
    })?
    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let cells = Sweep::cells_of(&state);
    let out = PyDict::new(py);
    out.set_item("header", brep::header(&sweep))?;
    out.set_item("console", rep::trim_lines(&brep::table(&sweep, &cells)))?;
    let files = PyDict::new(py);
    let complete = bal::complete(&state);
    if complete {
        for (name, text) in brep::result_files(&sweep, &cells, &config.spec.bots).map_err(|e| bad(&e))? {
            files.set_item(name, text)?;
        }
    }
    out.set_item("files", files)?;
    out.set_item("games", bal::games_played(&state))?;
    out.set_item("stopped", interrupted || !complete)?;
    Ok(out)
}

/// `threads`, or every core; at least one.
fn threads_or_cores(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
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
    m.add_function(wrap_pyfunction!(balance, m)?)?;
    m.add_function(wrap_pyfunction!(strategies, m)?)?;
    Ok(())
}
