//! The native module of the `mtrain` Python package (`mtrain._mtrain`): the library's jobs run
//! in Rust with the GIL released, through the same job and session the command line uses, and
//! their reports come back as the very CSV text the command line writes (the Python side reads
//! it into records and data frames). Nothing here plays or counts on its own.

mod args;
mod keywords;
mod pool;
mod pybot;
mod saved;
mod seeds;

use args::Int;

use mexican_train::Bot;
use mexican_train::balance::{SweepConfig, SweepSpec};
use mexican_train::compare::{CompareConfig, CompareSpec};
use mexican_train::external::decide_message;
use mexican_train::game::{ActionSpace, BotSeats, MatchObserver, MatchSeeds, MatchState, ObservationLayout, Shown};
use mexican_train::job::balance::BalanceRun;
use mexican_train::job::compare::CompareRun;
use mexican_train::job::tournament::TournamentRun;
use mexican_train::job::tune::{TuneConfig, TuneRun};
use mexican_train::job::{self, Ending, Job, JobError, Start};
use mexican_train::report::manifest::{Invocation, Started};
use mexican_train::round::{Event, Observer, RoundState, Seat, SeenEvent};
use mexican_train::rules::TableSpec;
use mexican_train::rules::{MAX_PLAYERS, Rules};
use mexican_train::store::Progress;
use mexican_train::strategies::{Origin, Registry};
use mexican_train::strategy::{SpecError, StrategySpec};
use mexican_train::tournament::{TournamentConfig, TournamentSpec};
use mexican_train::tune::TuningSpec;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{IntoPyDict, PyDict};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a waiting call looks for a signal (Ctrl-C) from Python.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// How long the first KeyboardInterrupt waits for the games in flight before cutting them
/// short: the command line's grace after its first signal.
const GRACE: Duration = Duration::from_secs(2);

/// Runs `work` on a thread of its own while this one waits without the GIL, checking for a
/// signal every [`SIGNAL_POLL`], as the command line answers its signals: the first
/// KeyboardInterrupt stops scheduling (`opts.stop`) and prints one line on `sys.stderr`; the
/// games in flight then finish, for at most [`GRACE`]. A second KeyboardInterrupt, or the grace
/// running out, cuts them short (`opts.cut`: the runner discards them) and makes the search bots
/// answer at once, so the call ends within about a second whatever the bots. The first
/// KeyboardInterrupt is raised once the work is back; the search bots search again in the next
/// call.
fn interruptible<T: Send>(
    py: Python<'_>,
    opts: &job::Options,
    mut poll: impl FnMut(Python<'_>) -> PyResult<()>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    mexican_train::strategies::abandon_searches(false);
    let cut = || {
        opts.cut.store(true, Ordering::SeqCst);
        mexican_train::strategies::abandon_searches(true);
    };
    let out = std::thread::scope(|s| {
        let handle = s.spawn(work);
        let mut signal = None;
        let mut deadline = None;
        while !handle.is_finished() {
            py.detach(|| std::thread::sleep(SIGNAL_POLL));
            if let Err(e) = py.check_signals().and_then(|()| poll(py)) {
                if signal.is_none() {
                    opts.stop.store(true, Ordering::SeqCst);
                    say_stopping(py);
                    deadline = Some(Instant::now() + GRACE);
                    signal = Some(e);
                } else {
                    cut();
                }
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                cut();
            }
        }
        let out = handle.join().map_err(|_| PyRuntimeError::new_err("the run panicked"));
        match signal {
            Some(e) => Err(e),
            None => out,
        }
    });
    mexican_train::strategies::abandon_searches(false);
    out
}

/// The one line the first KeyboardInterrupt prints, on Python's `sys.stderr` (where a notebook
/// or a test shows it); a stderr that cannot be written is ignored.
fn say_stopping(py: Python<'_>) {
    let line = format!(
        "mtrain: stopping: finishing the games in flight (at most {} s, then they are cut short); Ctrl-C again to stop now\n",
        GRACE.as_secs()
    );
    if let Ok(stderr) = py.import("sys").and_then(|sys| sys.getattr("stderr")) {
        let _ = stderr.call_method1("write", (line,));
        let _ = stderr.call_method0("flush");
    }
}

/// What a [`Progress`] observer a Python callback watches has heard: units played and planned,
/// read by the waiting thread (which holds the GIL) to call the callback.
#[derive(Default)]
struct Counter {
    done: AtomicU64,
    total: AtomicU64,
}

impl Progress for Counter {
    fn begin(&self, total: u64, done: u64) {
        self.total.store(total, Ordering::SeqCst);
        self.done.store(done, Ordering::SeqCst);
    }
    fn advance(&self, n: u64) {
        self.done.fetch_add(n, Ordering::SeqCst);
    }
    fn extend(&self, n: u64) {
        self.total.fetch_add(n, Ordering::SeqCst);
    }
}

/// Plays a job through the library's driver in memory (no folder: nothing is written), with
/// the command line's answer to Ctrl-C ([`interruptible`]) and `progress(done, total)` called
/// from this thread as the units (games, iterations) are played; the report as a dict:
/// `header` and `console` (the text the command line prints; `console(job, state)` gives it
/// for a stopped run too), `files` (file name to text, as `--out` writes them once the run is
/// complete), `played` units (`games` too), `stopped` (whether a signal or a failing bot cut
/// it short).
#[allow(clippy::too_many_arguments)]
fn run_job<'py, J: Job + Send>(
    py: Python<'py>,
    start: Start<J>,
    registry: &Registry,
    threads: usize,
    progress: Option<Py<PyAny>>,
    failure: &Arc<Mutex<Option<String>>>,
    console: impl Fn(&J, &J::State) -> String,
) -> PyResult<Bound<'py, PyDict>>
where
    J::State: Send,
{
    let counter = Arc::new(Counter::default());
    let options = job::Options { progress: counter.clone(), ..job::Options::new(threads) };
    let opts = options.clone();
    let command: &[String] = &[];
    let invocation = Invocation { subcommand: J::KIND.name, command, started: Started::now(), threads };
    let bad = |e: JobError| match e {
        JobError::Invalid(m) => PyValueError::new_err(m),
        JobError::Failed(m) | JobError::BotFailed(m) => PyRuntimeError::new_err(m),
    };
    let mut prepared = job::prepare::<J>(start, registry, options, invocation).map_err(bad)?;
    let header = prepared.header();
    let mut seen = (u64::MAX, u64::MAX);
    let poll = |py: Python<'_>| -> PyResult<()> {
        let Some(cb) = &progress else { return Ok(()) };
        let now = (counter.done.load(Ordering::SeqCst), counter.total.load(Ordering::SeqCst));
        if now != seen && now.1 > 0 {
            seen = now;
            cb.call1(py, now)?;
        }
        Ok(())
    };
    let ending = interruptible(py, &opts, poll, || prepared.play())?.map_err(bad)?;
    if let Some(why) = failure.lock().expect("not poisoned").take() {
        return Err(PyRuntimeError::new_err(why));
    }
    if let Some(cb) = &progress {
        cb.call1(py, (counter.done.load(Ordering::SeqCst), counter.total.load(Ordering::SeqCst)))?;
    }
    let (report, stopped) = match ending {
        Ending::Complete { report, .. } => (report, false),
        Ending::BotFailed { message, .. } => return Err(PyRuntimeError::new_err(message)),
        Ending::Stopped { .. } | Ending::Shard { .. } => (console(&prepared.job, &prepared.state), true),
    };
    let out = PyDict::new(py);
    out.set_item("header", header)?;
    out.set_item("console", report)?;
    let files = PyDict::new(py);
    for (name, text) in prepared.job.result_files(&prepared.state).map_err(bad)? {
        files.set_item(name, text)?;
    }
    out.set_item("files", files)?;
    let played = J::played(&prepared.state);
    out.set_item("played", played)?;
    out.set_item("games", played)?;
    out.set_item("stopped", stopped)?;
    Ok(out)
}

/// The built-in bots with each Python bot `(name, object)` added; their failures go to
/// `failure`.
fn with_python_bots(bots: Vec<(String, Py<PyAny>)>, failure: &Arc<Mutex<Option<String>>>) -> PyResult<Registry> {
    let mut registry = Registry::builtin();
    for (name, obj) in bots {
        let bot = pybot::PyBot::new(&name, obj, failure.clone());
        registry
            .add_entry(&name, "a Python bot", Origin::Rust, move |_| Ok(Bot::custom(bot.clone())))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(registry)
}

/// A run of any kind from its keywords, as `mtrain.tournament`, `mtrain.balance` and
/// `mtrain.tune` call it: `kwargs` maps the keywords of the kind's table (see `keywords.rs`;
/// one left out is `None`) to their values, each checked there and put into the kind's spec,
/// which is played as [`run`] plays one; `python_bots` are the Python bots `(name, object)` the
/// field names. `threads` is checked as the command line checks `--threads`. The report as
/// [`run`]'s.
#[pyfunction]
#[pyo3(signature = (kind, kwargs, *, python_bots = Vec::new(), threads = None, progress = None))]
fn run_keywords<'py>(
    py: Python<'py>,
    kind: &str,
    kwargs: Bound<'py, PyDict>,
    python_bots: Vec<(String, Py<PyAny>)>,
    threads: Option<Int>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = keywords::spec(keywords::kind(kind)?, &kwargs)?;
    let threads = args::threads(threads.as_ref())?;
    play(py, kind, Given::Value(spec), python_bots, threads, progress)
}

/// The keywords of a kind of run, in its table's order.
#[pyfunction]
fn kind_keywords(kind: &str) -> PyResult<Vec<&'static str>> {
    Ok(keywords::kind(kind)?.rows.iter().map(|r| r.keyword).collect())
}

/// Any kind of run from its configuration as data: `kind` (`tournament`, `balance`, `tune`)
/// and `spec`, the JSON text of the spec exactly as a run's state file stores it under
/// `config.spec` (so a stored run is rerun from its folder). Played in memory by the library's
/// job driver ([`run_job`]); the report as a dict: `header` and `console` (the text the command
/// line prints), `files` (file name to text, as `--out` writes them), `games` (or `played`
/// iterations), `stopped`, and `spec` (the spec played, as JSON text).
#[pyfunction]
#[pyo3(signature = (kind, spec, *, threads = None, progress = None))]
fn run<'py>(
    py: Python<'py>,
    kind: &str,
    spec: &str,
    threads: Option<Int>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = args::threads(threads.as_ref())?;
    play(py, kind, Given::Text(spec), Vec::new(), threads, progress)
}

/// A spec as given: JSON text ([`run`]) or a value built from keywords ([`run_keywords`]).
enum Given<'a> {
    Text(&'a str),
    Value(serde_json::Value),
}

impl Given<'_> {
    /// The spec of a run of `kind`; one that does not parse raises `ValueError`.
    fn read<T: serde::de::DeserializeOwned>(self, kind: &str) -> PyResult<T> {
        let bad = |e: serde_json::Error| PyValueError::new_err(format!("not a {kind} spec: {e}"));
        match self {
            Given::Text(text) => serde_json::from_str(text).map_err(bad),
            Given::Value(value) => serde_json::from_value(value).map_err(bad),
        }
    }
}

/// Plays the run of `kind` the spec `given` describes, with the built-in bots and
/// `python_bots`; the report as [`run`]'s.
fn play<'py>(
    py: Python<'py>,
    kind: &str,
    given: Given<'_>,
    python_bots: Vec<(String, Py<PyAny>)>,
    threads: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let failure = Arc::new(Mutex::new(None));
    let registry = with_python_bots(python_bots, &failure)?;
    let (out, spec) = match kind {
        "tournament" => {
            let spec: TournamentSpec = given.read(kind)?;
            let json = serde_json::to_string(&spec).expect("serialisable");
            let start = Start::unsaved(TournamentConfig::new(&spec, Default::default()), spec.shard);
            (run_job::<TournamentRun>(py, start, &registry, threads, progress, &failure, |j, st| j.console(st))?, json)
        }
        "balance" => {
            let spec: SweepSpec = given.read(kind)?;
            let json = serde_json::to_string(&spec).expect("serialisable");
            let start = Start::unsaved(SweepConfig { spec, bots: Default::default() }, None);
            (run_job::<BalanceRun>(py, start, &registry, threads, progress, &failure, |j, st| j.table(st))?, json)
        }
        "tune" => {
            let spec: TuningSpec = given.read(kind)?;
            let json = serde_json::to_string(&spec).expect("serialisable");
            let iterations = spec.gains.iterations;
            // A stopped run's report: the tuned and the starting bot so far.
            let report = |j: &TuneRun, st: &mexican_train::tune::TuneState| {
                j.bots_of(st, &registry).map_or_else(
                    |_| String::new(),
                    |(tuned, start)| {
                        format!("after {} of {iterations} iterations:\nstart: {start}\ntuned: {tuned}\n", st.rows.len())
                    },
                )
            };
            let start = Start::unsaved(TuneConfig { spec, bots: Default::default() }, None);
            (run_job::<TuneRun>(py, start, &registry, threads, progress, &failure, report)?, json)
        }
        "compare" => {
            let spec: CompareSpec = given.read(kind)?;
            let json = serde_json::to_string(&spec).expect("serialisable");
            let start = Start::unsaved(CompareConfig { spec, bots: Default::default() }, None);
            (run_job::<CompareRun>(py, start, &registry, threads, progress, &failure, |j, st| j.table(st))?, json)
        }
        "eval" => {
            let mut spec: mexican_train::eval::EvalSpec = given.read(kind)?;
            if spec.protocol.is_empty() {
                spec.protocol = mexican_train::eval::Protocol::of(spec.quick).name.to_string();
            }
            let json = serde_json::to_string(&spec).expect("serialisable");
            let start = Start::unsaved(mexican_train::eval::EvalConfig { spec, bots: Default::default() }, None);
            (
                run_job::<mexican_train::job::eval::EvalRun>(
                    py,
                    start,
                    &registry,
                    threads,
                    progress,
                    &failure,
                    |j, st| j.table(st),
                )?,
                json,
            )
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown kind of run '{other}' (valid: {})",
                mexican_train::store::KINDS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
            )));
        }
    };
    out.set_item("spec", spec)?;
    Ok(out)
}

/// A seed: any 64-bit unsigned integer.
fn seed_arg(s: &Int) -> PyResult<u64> {
    s.within("seed", 0, u64::MAX.into())
}

/// The set: one of the five the rules know.
fn set_arg(s: &Int) -> PyResult<u8> {
    s.one_of("set", &[6, 9, 12, 15, 18])
}

/// Rounds per match on double-`set`: 1 to one per double.
fn rounds_arg(r: &Int, set: u8) -> PyResult<u8> {
    r.within("rounds", 1, i128::from(set) + 1)
}

/// The table of a tournament or a [`Game`]: the numbers checked here (the rules then check
/// that the table can be dealt), the options in either shape.
fn table(
    rules: &str,
    set: &Int,
    players: &Int,
    hand: Option<&Int>,
    rounds: Option<&Int>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<TableSpec> {
    let set = set_arg(set)?;
    Ok(TableSpec {
        preset: rules.to_string(),
        set,
        players: players.within("players", 2, MAX_PLAYERS as i128)?,
        hand: hand.map(|h| h.within("hand", 1, u8::MAX.into())).transpose()?,
        rounds: rounds.map(|r| rounds_arg(r, set)).transpose()?,
        rules: args::rule_options(options)?,
    })
}

/// A seat number `name` (`player`, `seat`) at a table of `n`: 0 to `n - 1`.
fn seat_arg(p: &Int, name: &str, n: usize) -> PyResult<usize> {
    p.within(name, 0, n as i128 - 1)
}

/// An action number of `space`: 0 to its size less one.
fn action_arg(a: &Int, space: &ActionSpace) -> PyResult<usize> {
    a.within("action", 0, space.len() as i128 - 1)
}

/// An action an environment takes: any integer (a float or a bool raises `TypeError`), as an
/// action number of `space` or `usize::MAX` for one outside it (played as an illegal action).
fn loose_action_arg(a: &Int, space: &ActionSpace) -> PyResult<usize> {
    let range = format!("an integer action number (0 to {})", space.len() - 1);
    let v: i128 = a.checked("action", i128::MIN, i128::MAX, &range)?;
    Ok(usize::try_from(v).ok().filter(|&v| v < space.len()).unwrap_or(usize::MAX))
}

/// A match configuration: the rules, the set, the table. `new_state(seed)` deals a match.
/// `set` is one of 6, 9, 12, 15, 18, `players` 2 to 16; `options` a dict `{rule: value}` or a
/// list of `"rule=value"` strings.
#[pyclass(name = "Game", module = "mtrain", frozen)]
struct Game {
    rules: Rules,
    space: Arc<ActionSpace>,
    /// The table as given, kept to pickle the game and the states it deals.
    spec: Arc<TableSpec>,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (
        rules = args::RulesName::wikipedia(), *, set = Int::of(12), players = Int::of(4), hand = None, rounds = None, options = None
    ), text_signature = "(rules='wikipedia', *, set=12, players=4, hand=None, rounds=None, options=None)")]
    fn new(
        rules: args::RulesName,
        set: Int,
        players: Int,
        hand: Option<Int>,
        rounds: Option<Int>,
        options: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let table = table(rules.get()?, &set, &players, hand.as_ref(), rounds.as_ref(), options.as_ref())?;
        Game::from_spec(table)
    }

    /// A match dealt from `seed`, at its first decision.
    fn new_state(&self, seed: Int) -> PyResult<State> {
        let seed = seed_arg(&seed)?;
        Ok(self.dealt(seed))
    }

    /// How many actions the configuration numbers (every move it can offer).
    fn num_distinct_actions(&self) -> usize {
        self.space.len()
    }

    /// The length of `State.observation_tensor`.
    fn observation_shape(&self) -> (usize,) {
        (ObservationLayout::new(&self.rules).len(),)
    }

    /// Seats at the table.
    fn num_players(&self) -> usize {
        self.rules.players as usize
    }

    /// Rounds in a match.
    fn num_rounds(&self) -> u8 {
        self.rules.round_count()
    }

    fn __repr__(&self) -> String {
        let r = &self.rules;
        format!("mtrain.Game({} rules, double-{}, {} players)", r.preset, r.set, r.players)
    }

    /// The table this game was built from, as JSON text (`preset`, `set`, `players`, `hand`,
    /// `rounds`, `rules`: the rule changes as `key=value`): what a pickled game stores.
    fn spec(&self) -> String {
        serde_json::to_string(&*self.spec).expect("serialisable")
    }

    /// The game of a table given as [`Game::spec`]'s JSON text.
    #[classmethod]
    fn from_spec_json(_cls: &Bound<'_, pyo3::types::PyType>, spec: &str) -> PyResult<Game> {
        let spec: TableSpec =
            serde_json::from_str(spec).map_err(|e| PyValueError::new_err(format!("not a game spec: {e}")))?;
        Game::from_spec(spec)
    }

    /// Pickles as its table ([`Game::spec`]).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let rebuild = slf.get_type().getattr("from_spec_json")?;
        Ok((rebuild, (slf.get().spec(),)))
    }

    /// A game never changes: a copy is the game itself.
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// A game never changes: a deep copy is the game itself.
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }

    /// Two games are equal when their tables are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Game>().is_ok_and(|o| o.get().spec == self.spec)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.spec().hash(&mut h);
        h.finish()
    }

    /// The state `text` describes (a [`State::serialize`] of a state of this game), rebuilt by
    /// replaying its recipe: the match seed, then every action and resampling in order.
    /// Text that is not such a recipe, one of another table, or one whose actions are not legal
    /// in this game raises `ValueError`.
    fn deserialize_state(&self, text: &str) -> PyResult<State> {
        let recipe = saved::Recipe::from_text(text, &self.spec)?;
        let mut state = self.dealt(recipe.seed);
        let mut resamples = recipe.resamples.iter().peekable();
        for (k, &a) in recipe.actions.iter().enumerate() {
            while let Some(r) = resamples.next_if(|r| r.after as usize == k) {
                state = state.resample(r.player as usize, r.seed)?;
            }
            state.apply(usize::from(a)).map_err(|e| {
                PyValueError::new_err(format!("not a state of this game: at action {k} of the recipe: {e}"))
            })?;
        }
        for r in resamples {
            state = state.resample(r.player as usize, r.seed)?;
        }
        Ok(state)
    }
}

impl Game {
    /// The game of table `spec` (checked: one the rules cannot deal raises `ValueError`).
    fn from_spec(spec: TableSpec) -> PyResult<Game> {
        let (rules, _) = spec.build().map_err(|e| PyValueError::new_err(e.to_string()))?;
        let space = Arc::new(ActionSpace::new(&rules));
        Ok(Game { rules, space, spec: Arc::new(spec) })
    }

    /// A match dealt from `seed`, at its first decision, its recipe started.
    fn dealt(&self, seed: u64) -> State {
        State {
            st: MatchState::new(&self.rules, seed),
            space: self.space.clone(),
            events: Vec::new(),
            spec: Some(self.spec.clone()),
            recipe: saved::Recipe::dealt(seed),
        }
    }
}

/// Collects the events of the round in play (a new deal starts the list again).
struct RoundEvents<'a>(&'a mut Vec<Event>);

impl Observer for RoundEvents<'_> {
    fn event(&mut self, e: &Event) {
        self.0.push(*e);
    }
}

impl MatchObserver for RoundEvents<'_> {
    fn round_start(&mut self, _round: u8, _state: &RoundState) {
        self.0.clear();
    }
}

/// A match in play, one decision at a time (forced actions are applied for you).
#[pyclass(name = "State", module = "mtrain")]
#[derive(Clone)]
struct State {
    st: MatchState,
    space: Arc<ActionSpace>,
    /// The events of the round in play, in order.
    events: Vec<Event>,
    /// The table it is played on; `None` for a copy from `Solo.state()`, which has no recipe.
    spec: Option<Arc<TableSpec>>,
    /// What made it (see `saved.rs`).
    recipe: saved::Recipe,
}

/// Seat `s`'s return from a finished match: its share of the win (1/k for each of k co-winners)
/// minus 1/N, so the seats' returns sum to zero.
fn match_return(r: &mexican_train::MatchResult, s: usize) -> f64 {
    let k = f64::from(r.winners.count_ones());
    let share = if r.winners >> s & 1 == 1 { 1.0 / k } else { 0.0 };
    share - 1.0 / f64::from(r.players)
}

/// The player id of a state with nobody to act (a finished match), as OpenSpiel numbers it.
const TERMINAL: i64 = -4;

#[pymethods]
impl State {
    /// The seat to act, or -4 once the match is over.
    fn current_player(&self) -> i64 {
        self.st.current().map_or(TERMINAL, |s| s.index() as i64)
    }

    /// The legal actions, ascending (numbers of `Game.num_distinct_actions()`'s space).
    fn legal_actions(&self) -> Vec<usize> {
        let mut a: Vec<usize> =
            self.st.legal().iter().map(|&m| self.space.encode(m).expect("every legal move is numbered")).collect();
        a.sort_unstable();
        a
    }

    /// Plays `action` (one of `legal_actions()`), then the forced actions after it.
    fn apply_action(&mut self, action: Int) -> PyResult<()> {
        let action = action_arg(&action, &self.space)?;
        self.apply(action)
    }

    /// The move `action` stands for, in words (`12-5 on 2`, `stop`).
    fn action_to_string(&self, action: Int) -> PyResult<String> {
        let action = action_arg(&action, &self.space)?;
        self.space
            .decode(action)
            .map(|m| m.to_string())
            .ok_or_else(|| PyValueError::new_err(format!("no action {action}")))
    }

    /// Whether the match is over.
    fn is_terminal(&self) -> bool {
        self.st.is_over()
    }

    /// Each seat's return: once the match is over, its share of the win (1/k for each of k
    /// co-winners) minus 1/N, so the returns sum to zero; 0 before.
    fn returns(&self) -> Vec<f64> {
        let r = self.st.result();
        let n = r.players as usize;
        if !self.st.is_over() {
            return vec![0.0; n];
        }
        (0..n).map(|s| match_return(r, s)).collect()
    }

    /// Each seat's match total so far (lower is better).
    fn scores(&self) -> Vec<u32> {
        let r = self.st.result();
        r.totals[..r.players as usize].to_vec()
    }

    /// The round in play (1-based), or the last once the match is over.
    fn round(&self) -> u8 {
        self.st.round_number()
    }

    /// What `player` may know now, as the bot protocol's `decide` message (docs/bot-protocol.md):
    /// its hand, the trains, the counts, the events of this round as it saw them, and the legal
    /// moves when it is to act (with `legal_actions()`'s numbers as `actions`, in the same order).
    /// Once the match is over: `{"type": "over", "round", "scores", "winners", "returns",
    /// "actions": []}`.
    fn observation<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyAny>> {
        let player = seat_arg(&player, "player", self.st.rules().players as usize)?;
        let seat = Seat::from_index(player);
        let Some(view) = self.st.view(seat) else {
            return self.final_observation(py);
        };
        let seen: Vec<SeenEvent> = self.events.iter().map(|e| e.seen_by(seat, false)).collect();
        let moves = if self.st.current() == Some(seat) { self.st.legal() } else { &[] };
        let text = decide_message(self.st.round_number(), &view, &seen, moves);
        let obs = py.import("json")?.call_method1("loads", (text,))?;
        let actions: Vec<usize> = moves.iter().map(|&m| self.space.encode(m).expect("numbered")).collect();
        obs.set_item("actions", actions)?;
        Ok(obs)
    }

    /// What `player` may know now as a numpy array (`Game.observation_shape()` float32s): the
    /// layout docs/python.md describes. Zeros once the match is over.
    fn observation_tensor<'py>(&self, py: Python<'py>, player: Int) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let layout = ObservationLayout::new(self.st.rules());
        let player = seat_arg(&player, "player", self.st.rules().players as usize)?;
        let mut out = vec![0.0; layout.len()];
        if let Some(view) = self.st.view(Seat::from_index(player)) {
            layout.write(&view, self.st.round_number(), self.st.current(), &mut out);
        }
        Ok(PyArray1::from_vec(py, out))
    }

    /// What `player` sees and may do now, in one call (what the environments ask at every
    /// step): its observation tensor (as [`State::observation_tensor`]) and its action mask over
    /// `Game.num_distinct_actions()` (int8, 1: legal; all zero when another seat is to act or
    /// the match is over).
    #[allow(clippy::type_complexity)]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        player: Int,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>)> {
        let layout = ObservationLayout::new(self.st.rules());
        let player = seat_arg(&player, "player", self.st.rules().players as usize)?;
        let seat = Seat::from_index(player);
        let mut obs = vec![0.0; layout.len()];
        if let Some(view) = self.st.view(seat) {
            layout.write(&view, self.st.round_number(), self.st.current(), &mut obs);
        }
        let mut mask = vec![0i8; self.space.len()];
        if self.st.current() == Some(seat) {
            for &m in self.st.legal().iter() {
                mask[self.space.encode(m).expect("every legal move is numbered")] = 1;
            }
        }
        Ok((PyArray1::from_vec(py, obs), PyArray1::from_vec(py, mask)))
    }

    /// Plays `action` as [`State::apply_action`] does and returns each seat's reward for it as
    /// the environments count them: minus the score of each round it ended over 100, and once
    /// the match is over, the seat's return ([`State::returns`]) added.
    fn apply_action_rewards(&mut self, action: Int) -> PyResult<Vec<f64>> {
        let n = self.st.rules().players as usize;
        let before: Vec<u32> = self.st.result().totals[..n].to_vec();
        self.apply_action(action)?;
        let r = self.st.result();
        let over = self.st.is_over();
        Ok((0..n)
            .map(|s| {
                let round = -f64::from(r.totals[s] - before[s]) / 100.0;
                if over { round + match_return(r, s) } else { round }
            })
            .collect())
    }

    /// A full state consistent with everything `player` has seen: the hidden hands and
    /// boneyard redrawn by the engine's determinization (the worlds search bots sample), the
    /// later deals redrawn, all from `seed`. Its events are `player`'s view of the round so far.
    fn resample_from_infostate(&self, player: Int, seed: Int) -> PyResult<State> {
        let player = seat_arg(&player, "player", self.st.rules().players as usize)?;
        let seed = seed_arg(&seed)?;
        self.resample(player, seed)
    }

    /// An independent copy.
    fn clone(&self) -> State {
        Clone::clone(self)
    }

    /// The board as text, as `player` (default: the seat to act) sees it: the round, who is to
    /// act, the engine, every train (its owner, tiles, open end, an open double, a marker), the
    /// Mexican train(s), each seat's hand size and score, the boneyard, and `player`'s hand and
    /// legal moves. Once the match is over: the final scores and the winners.
    #[pyo3(signature = (player = None))]
    fn render(slf: &Bound<'_, Self>, player: Option<Int>) -> PyResult<String> {
        let n = slf.borrow().st.rules().players as usize;
        let player = player.map(|p| seat_arg(&p, "player", n)).transpose()?;
        slf.py().import("mtrain._render")?.call_method1("text", (slf, player))?.extract()
    }

    /// The board as HTML (a notebook shows it): `render()`'s content drawn as tiles.
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("mtrain._render")?.call_method1("html", (slf, None::<usize>))?.extract()
    }

    /// The engine tile of the round in play (`"12-12"`), or `None` once the match is over.
    fn _engine(&self) -> Option<String> {
        self.st.round().map(|r| r.view(Seat::from_index(0)).engine().0.to_string())
    }

    fn __repr__(&self) -> String {
        format!(
            "mtrain.State(round {}, to act: {}, scores {:?})",
            self.st.round_number(),
            self.current_player(),
            self.scores()
        )
    }

    /// The state as text: its recipe (its table, the match seed, every action applied and
    /// every resampling, as JSON), which `Game.deserialize_state` replays into an equal state.
    /// A copy taken from `Solo.state()` has no recipe and raises `ValueError`.
    fn serialize(&self) -> PyResult<String> {
        Ok(self.recipe.to_text(self.table()?))
    }

    /// The game this state is played in (a new `Game` of the same table).
    fn game(&self) -> PyResult<Game> {
        Game::from_spec((**self.table()?).clone())
    }

    /// Pickles as its game's `deserialize_state` and its recipe ([`State::serialize`]).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let game = Bound::new(py, self.game()?)?;
        Ok((game.getattr("deserialize_state")?, (self.serialize()?,)))
    }

    /// An independent copy (as `clone()`).
    fn __copy__(&self) -> State {
        Clone::clone(self)
    }

    /// An independent copy (as `clone()`: nothing in a state refers to Python objects).
    fn __deepcopy__(&self, _memo: Bound<'_, PyAny>) -> State {
        Clone::clone(self)
    }

    /// How many actions made this state (resamplings not counted).
    fn history_len(&self) -> usize {
        self.recipe.actions.len()
    }
}

impl State {
    /// The table, when the state has a recipe.
    fn table(&self) -> PyResult<&Arc<TableSpec>> {
        self.spec.as_ref().ok_or_else(|| {
            PyValueError::new_err(
                "this State is a copy from Solo.state() and has no recipe: pickle the Solo (or the env) instead",
            )
        })
    }

    /// Plays action number `action`, then the forced actions after it, and records it.
    fn apply(&mut self, action: usize) -> PyResult<()> {
        if self.st.is_over() {
            return Err(PyValueError::new_err(format!("action {action} is not legal here: the match is over")));
        }
        let i = self
            .st
            .legal()
            .iter()
            .position(|&m| self.space.encode(m) == Some(action))
            .ok_or_else(|| PyValueError::new_err(format!("action {action} is not legal here")))?;
        self.st.apply_observed(i, &mut RoundEvents(&mut self.events));
        self.recipe.push(action);
        Ok(())
    }

    /// [`State::resample_from_infostate`] for a checked seat and seed, recorded in the recipe.
    fn resample(&self, player: usize, seed: u64) -> PyResult<State> {
        let st = self
            .st
            .resampled(Seat::from_index(player), seed)
            .ok_or_else(|| PyValueError::new_err("the match is over: there is nothing hidden to resample"))?;
        let mut recipe = self.recipe.clone();
        recipe.push_resample(player, seed);
        Ok(State { st, space: self.space.clone(), events: self.events.clone(), spec: self.spec.clone(), recipe })
    }

    /// The observation once the match is over: `{"type": "over", "round", "scores",
    /// "winners", "returns", "actions": []}`.
    fn final_observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = self.st.result();
        let out = PyDict::new(py);
        out.set_item("type", "over")?;
        out.set_item("round", self.st.round_number())?;
        out.set_item("scores", self.scores())?;
        let winners: Vec<usize> = r.winner_seats().map(|s| s.index()).collect();
        out.set_item("winners", winners)?;
        out.set_item("returns", self.returns())?;
        out.set_item("actions", Vec::<usize>::new())?;
        Ok(out.into_any())
    }
}

/// What `Solo.step` returns: observation, action mask, reward, over, illegal.
type Stepped = (Vec<f32>, Vec<u8>, f64, bool, bool);

/// One seat of a match against built-in bots, without Python: what `Solo` and each game of a
/// `VecEnv` are.
struct SoloCore {
    rules: Rules,
    space: Arc<ActionSpace>,
    layout: ObservationLayout,
    seat: Seat,
    /// Each seat's bot spec (`None` for the seat played from outside).
    opponents: Vec<Option<StrategySpec>>,
    /// The bots' registry: the built-ins and any Python bots.
    registry: Arc<Registry>,
    /// Why a Python bot failed, if one did.
    failure: Arc<Mutex<Option<String>>>,
    seats: Option<BotSeats<Bot>>,
    st: Option<MatchState>,
    /// The events of the round in play, when kept (`Solo` keeps them for `state()`, a
    /// `VecEnv`'s games do not).
    events: Option<Vec<Event>>,
    /// The seed of the match in play, if one is dealt, and the seat's actions in it: what
    /// rebuilds the game after pickling (the bots replay their own choices from their seeds).
    replay: Option<(u64, Vec<u16>)>,
    /// What the `VecEnv` row of this game shows of the tile blocks ([`SoloCore::write_changes`]).
    shown: Shown,
    /// The actions set in that row's mask, in the order of the seat's legal moves.
    masked: Vec<u16>,
    /// Whether `masked` lists the legal moves of the state in play (written by
    /// [`SoloCore::write_changes`] since the last step): a step then finds its action there.
    masked_now: bool,
}

impl SoloCore {
    /// The seat `seat` of `game` against `opponents` (fewer than the other seats are repeated).
    fn new(
        game: &Game,
        opponents: &[String],
        seat: &Int,
        registry: Arc<Registry>,
        failure: Arc<Mutex<Option<String>>>,
    ) -> PyResult<SoloCore> {
        let n = game.rules.players as usize;
        let seat = seat_arg(seat, "seat", n)?;
        if opponents.is_empty() || opponents.len() > n - 1 {
            let given = match opponents.len() {
                0 => "none".to_string(),
                k => k.to_string(),
            };
            return Err(PyValueError::new_err(format!(
                "opponents must be 1 to {} bot specs for a table of {n} players (fewer are repeated around the table); got {given}",
                n - 1
            )));
        }
        let mut specs = Vec::new();
        for o in opponents {
            let spec: StrategySpec = o.parse().map_err(|e: SpecError| PyValueError::new_err(e.to_string()))?;
            registry.build(&spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
            specs.push(spec);
        }
        let mut others = specs.iter().cycle();
        let opponents = (0..n).map(|s| if s == seat { None } else { others.next().cloned() }).collect();
        Ok(SoloCore {
            rules: game.rules.clone(),
            space: game.space.clone(),
            layout: ObservationLayout::new(&game.rules),
            seat: Seat::from_index(seat),
            opponents,
            registry,
            failure,
            seats: None,
            st: None,
            events: None,
            replay: None,
            shown: Shown::default(),
            masked: Vec::new(),
            masked_now: false,
        })
    }

    fn dealt(&self) -> PyResult<&MatchState> {
        self.st.as_ref().ok_or_else(|| PyRuntimeError::new_err("call reset() first"))
    }

    /// A Python bot's failure, as the error to raise.
    fn failed(&self) -> PyResult<()> {
        match self.failure.lock().expect("not poisoned").take() {
            Some(why) => Err(PyRuntimeError::new_err(why)),
            None => Ok(()),
        }
    }

    /// Deals the match of `seed`; the bots play up to the seat's first choice.
    fn reset(&mut self, seed: u64) {
        let bots =
            self.opponents.iter().map(|o| o.as_ref().map(|o| self.registry.build(o).expect("checked"))).collect();
        let seeds = MatchSeeds::from_seed(seed);
        let (seats, st) = match self.events.as_mut() {
            Some(events) => {
                let mut seen = RoundEvents(events);
                let (mut seats, mut st) = BotSeats::deal_observed(&self.rules, &seeds, bots, &mut seen);
                while seats.step_observed(&mut st, &mut seen) {}
                (seats, st)
            }
            None => {
                // A `VecEnv`'s game: the seat sees the tensor, which has no void records.
                let (mut seats, mut st) = BotSeats::deal(&self.rules, &seeds, bots);
                seats.outside_reads_no_voids(&mut st);
                seats.play(&mut st);
                (seats, st)
            }
        };
        self.seats = Some(seats);
        self.st = Some(st);
        self.replay = Some((seed, Vec::new()));
        self.shown = Shown::default();
        self.masked_now = false;
    }

    /// Plays `action` (the first legal action when it is not legal), then the bots. Returns the
    /// seat's reward, whether the match is over and whether the action was illegal; `None` when
    /// the seat is not to act (no match dealt, or over).
    fn step(&mut self, action: usize) -> Option<(f64, bool, bool)> {
        // The space borrowed, not its `Arc` cloned: every game shares that `Arc`, and its count
        // touched by each game's step from every thread of the pool costs a contended line.
        let (seat, space) = (self.seat, &*self.space);
        let st = self.st.as_mut()?;
        if st.current() != Some(seat) {
            return None;
        }
        let seats = self.seats.as_mut().expect("dealt with the state");
        // The action's move, found among the legal ones: in a `VecEnv` among the numbers its
        // mask row was written from (the legal moves' numbers, in their order), otherwise by
        // decoding the action (one decoding costs less than encoding every legal move;
        // `tests/match_state.rs` holds the two to each other).
        let (found, first) = if self.masked_now {
            let found = self.masked.iter().position(|&a| usize::from(a) == action);
            (found, Some(usize::from(self.masked[0])))
        } else {
            let found = space.decode(action).and_then(|d| st.legal().iter().position(|&m| m == d));
            (found, None)
        };
        self.masked_now = false;
        let before = st.result().totals[seat.index()];
        if let Some((_, played)) = self.replay.as_mut() {
            // A legal action is its move's number already; otherwise the first legal move's.
            let a = match (found, first) {
                (Some(_), _) => action,
                (None, Some(first)) => first,
                (None, None) => space.encode(st.legal()[0]).expect("numbered"),
            };
            played.push(a as u16);
        }
        match self.events.as_mut() {
            Some(events) => {
                let mut seen = RoundEvents(events);
                seats.apply_observed(st, found.unwrap_or(0), &mut seen);
                while seats.step_observed(st, &mut seen) {}
            }
            None => {
                seats.apply(st, found.unwrap_or(0));
                seats.play(st);
            }
        }
        let over = st.is_over();
        let r = st.result();
        let mut reward = -f64::from(r.totals[seat.index()] - before) / 100.0;
        if over {
            reward += match_return(r, seat.index());
        }
        Some((reward, over, found.is_none()))
    }

    /// Writes the seat's observation tensor into `obs` and its action mask into `mask`.
    fn write(&self, obs: &mut [f32], mask: &mut [u8]) {
        mask.fill(0);
        write_seat(self.st.as_ref(), &self.layout, &self.space, self.seat, obs, mask, &mut Shown::default(), None);
    }

    /// [`SoloCore::write`] into this game's own `VecEnv` row, which holds what it last wrote
    /// there (or is written whole after a deal): only the tiles that changed are rewritten, and
    /// in the mask only the actions it last set are cleared.
    fn write_changes(&mut self, obs: &mut [f32], mask: &mut [u8]) {
        if self.shown.is_blank() {
            mask.fill(0);
        } else {
            for &a in &self.masked {
                mask[usize::from(a)] = 0;
            }
        }
        self.masked.clear();
        let masked = Some(&mut self.masked);
        write_seat(self.st.as_ref(), &self.layout, &self.space, self.seat, obs, mask, &mut self.shown, masked);
        self.masked_now = !self.masked.is_empty();
    }
}

/// Writes `seat`'s observation tensor into `obs` (see `ObservationLayout::write_changes`) and
/// its legal actions into `mask` (cleared by the caller), noting them in `masked` if given.
#[allow(clippy::too_many_arguments)]
fn write_seat(
    st: Option<&MatchState>,
    layout: &ObservationLayout,
    space: &ActionSpace,
    seat: Seat,
    obs: &mut [f32],
    mask: &mut [u8],
    shown: &mut Shown,
    mut masked: Option<&mut Vec<u16>>,
) {
    let Some((st, view)) = st.and_then(|st| Some((st, st.view(seat)?))) else {
        obs.fill(0.0);
        *shown = Shown::default();
        return;
    };
    layout.write_changes(&view, st.round_number(), st.current(), obs, shown);
    if st.current() == Some(seat) {
        for &m in st.legal() {
            let a = space.encode(m).expect("numbered");
            mask[a] = 1;
            if let Some(v) = masked.as_deref_mut() {
                v.push(u16::try_from(a).expect("action numbers fit 16 bits"));
            }
        }
    }
}

/// One seat of a match played from Python, every other seat by a built-in bot: the core of
/// `mtrain.gym`. `reset(seed)` deals and lets the bots play up to the seat's first choice;
/// `step(action)` plays the seat's action, then the bots', up to its next choice or the end.
#[pyclass(name = "Solo", module = "mtrain._mtrain")]
struct Solo(SoloCore, Made);

/// What a `Solo` or a `VecEnv` was made from, as given: its constructor's arguments, kept to
/// pickle it (the Python bots pickle as the objects they are).
struct Made {
    game: Py<Game>,
    opponents: Vec<String>,
    seat: usize,
    python_bots: Vec<(String, Py<PyAny>)>,
}

impl Made {
    fn new(
        py: Python<'_>,
        game: &Bound<'_, Game>,
        opponents: &[String],
        seat: Seat,
        bots: &[(String, Py<PyAny>)],
    ) -> Made {
        Made {
            game: game.clone().unbind(),
            opponents: opponents.to_vec(),
            seat: seat.index(),
            python_bots: bots.iter().map(|(n, o)| (n.clone(), o.clone_ref(py))).collect(),
        }
    }

    /// The Python bots as a list of `(name, object)` tuples.
    fn bots<'py>(&self, py: Python<'py>) -> Vec<(String, Py<PyAny>)> {
        self.python_bots.iter().map(|(n, o)| (n.clone(), o.clone_ref(py))).collect()
    }
}

/// A game's replay state as Python values: `None` (no match dealt) or `(seed, actions)`.
type Replay = Option<(u64, Vec<u16>)>;

impl SoloCore {
    /// Deals the match of `replay` again and replays the seat's actions in it (the bots
    /// choosing as they did: they are deterministic given their seeds).
    fn replay(&mut self, replay: Replay) -> PyResult<()> {
        let Some((seed, actions)) = replay else {
            self.seats = None;
            self.st = None;
            self.replay = None;
            self.masked_now = false;
            return Ok(());
        };
        self.reset(seed);
        for (k, &a) in actions.iter().enumerate() {
            let legal = self.st.as_ref().is_some_and(|st| {
                st.current() == Some(self.seat) && st.legal().iter().any(|&m| self.space.encode(m) == Some(a.into()))
            });
            if !legal {
                return Err(PyValueError::new_err(format!(
                    "cannot restore the game: action {a} (the seat's action {k} of the match of seed {seed}) is not legal on replay"
                )));
            }
            self.step(a.into());
        }
        self.failed()
    }
}

impl Solo {
    fn observe(&self) -> (Vec<f32>, Vec<u8>) {
        let mut obs = vec![0.0; self.0.layout.len()];
        let mut mask = vec![0u8; self.0.space.len()];
        self.0.write(&mut obs, &mut mask);
        (obs, mask)
    }
}

#[pymethods]
impl Solo {
    #[new]
    #[pyo3(signature = (game, opponents, seat = Int::of(0), python_bots = Vec::new()))]
    fn new(
        game: &Bound<'_, Game>,
        opponents: Vec<String>,
        seat: Int,
        python_bots: Vec<(String, Py<PyAny>)>,
    ) -> PyResult<Solo> {
        let failure = Arc::new(Mutex::new(None));
        let bots: Vec<(String, Py<PyAny>)> =
            python_bots.iter().map(|(n, o)| (n.clone(), o.clone_ref(game.py()))).collect();
        let registry = Arc::new(with_python_bots(python_bots, &failure)?);
        let mut core = SoloCore::new(game.get(), &opponents, &seat, registry, failure)?;
        core.events = Some(Vec::new());
        let made = Made::new(game.py(), game, &opponents, core.seat, &bots);
        Ok(Solo(core, made))
    }

    /// Deals the match of `seed`; the bots play up to the seat's first choice. Returns the
    /// observation tensor and the action mask.
    fn reset(&mut self, seed: Int) -> PyResult<(Vec<f32>, Vec<u8>)> {
        self.0.reset(seed_arg(&seed)?);
        self.0.failed()?;
        Ok(self.observe())
    }

    /// Plays `action` for the seat (an integer, a Python or numpy one; one outside the mask, or
    /// outside 0 to `Game.num_distinct_actions() - 1`, plays the first legal action instead, and
    /// says so; a float or a bool raises `TypeError`), then the bots, up to the seat's next
    /// choice or the end. Returns the observation, the mask, the seat's reward (minus each
    /// round's score over 100 as the round ends, and at the end its win share minus 1/N),
    /// whether the match is over, and whether the action was illegal.
    fn step(&mut self, action: Int) -> PyResult<Stepped> {
        let action = loose_action_arg(&action, &self.0.space)?;
        self.0.dealt()?;
        let (reward, over, illegal) =
            self.0.step(action).ok_or_else(|| PyRuntimeError::new_err("the match is over: call reset()"))?;
        self.0.failed()?;
        let (obs, mask) = self.observe();
        Ok((obs, mask, reward, over, illegal))
    }

    /// The match as it stands (a copy), for inspection.
    fn state(&self) -> PyResult<State> {
        Ok(State {
            st: self.0.dealt()?.clone(),
            space: self.0.space.clone(),
            events: self.0.events.clone().unwrap_or_default(),
            spec: None,
            recipe: saved::Recipe::default(),
        })
    }

    /// Pickles by recipe: `Solo(game, opponents, seat, python_bots)` again, then the match in
    /// play dealt from its seed and the seat's actions replayed (`__setstate__`).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Py<Game>, Vec<String>, usize, Vec<(String, Py<PyAny>)>), Replay)> {
        let py = slf.py();
        let me = slf.borrow();
        let m = &me.1;
        let args = (m.game.clone_ref(py), m.opponents.clone(), m.seat, m.bots(py));
        Ok((slf.get_type().into_any(), args, me.0.replay.clone()))
    }

    /// Restores the match a pickled `Solo` was playing (see `__reduce__`).
    fn __setstate__(&mut self, state: Replay) -> PyResult<()> {
        self.0.replay(state)
    }
}

/// The most games a [`VecEnv`] steps together.
const MAX_ENVS: usize = 1_000_000;

/// The games a thread of the pool steps as one piece of work.
const STEP_CHUNK: usize = 8;

/// `n` games of one seat against built-in bots, stepped together in Rust on every core with
/// the GIL released: observations, action masks, rewards, dones and illegal flags are numpy
/// arrays the environment writes in place (`obs`, `mask`, `rewards`, `dones`, `illegal`). A game
/// that ends is dealt again at once (its reward and `dones` say it ended; `obs` is already the
/// new match's). Game `i` plays the seed stream `stream_seed(seed, i)`: its `k`-th match is
/// dealt from `episode_seed(stream_seed(seed, i), k)`, so a run is reproducible at any thread
/// count. The games run on a thread pool of this process (a forked child builds its own).
#[pyclass(name = "VecEnv", module = "mtrain._mtrain")]
struct VecEnv {
    games: Vec<SoloCore>,
    /// Matches dealt so far per game.
    episodes: Vec<u64>,
    seed: u64,
    obs: Py<PyArray2<f32>>,
    /// A read-only view of `obs`: what Python sees. Each step rewrites only the tiles that
    /// changed in a row, so a row changed from Python would stay wrong; numpy refuses the write.
    obs_view: Py<PyArray2<f32>>,
    mask: Py<PyArray2<u8>>,
    rewards: Py<PyArray1<f64>>,
    dones: Py<PyArray1<bool>>,
    illegal: Py<PyArray1<bool>>,
    /// Its constructor's arguments, kept to pickle it.
    made: Made,
}

/// Deals game `i`'s next match (its `episode`-th, counting from 0) and counts it.
fn deal_next(game: &mut SoloCore, seed: u64, i: usize, episode: &mut u64) {
    game.reset(seeds::episode(seeds::stream(seed, i as u64), *episode));
    *episode += 1;
}

/// The actions `vec_env.step` takes, as a contiguous int64 array of `n`: any integer numpy
/// array (any width, signed or not, strided), or anything `numpy.asarray` makes one of (a list,
/// a JAX or torch CPU array). Values outside `int64` wrap and count as illegal actions. A float,
/// bool or object array raises `TypeError`, a shape other than `(n,)` `ValueError`, each one
/// line naming what was given and what is taken.
fn actions_arg<'py>(py: Python<'py>, given: &Bound<'py, PyAny>, n: usize) -> PyResult<Bound<'py, PyArray1<i64>>> {
    if let Ok(a) = given.cast::<PyArray1<i64>>()
        && a.is_c_contiguous()
    {
        let len = PyUntypedArrayMethods::len(a);
        if len != n {
            return Err(PyValueError::new_err(format!(
                "{len} actions for {n} games: give one action number per game, shape ({n},)"
            )));
        }
        return Ok(a.clone());
    }
    let takes = format!("an integer array of shape ({n},) (any integer dtype), or a list of {n} ints");
    if given.is_none() {
        return Err(PyTypeError::new_err(format!("actions must be {takes}; got None")));
    }
    let np = py.import("numpy")?;
    let kind = given.get_type().name().map_or_else(|_| "?".to_string(), |k| k.to_string());
    let arr = np
        .call_method1("asarray", (given,))
        .map_err(|_| PyTypeError::new_err(format!("actions must be {takes}; got a {kind} numpy cannot read")))?;
    let shape: Vec<usize> = arr.getattr("shape")?.extract()?;
    let dtype = arr.getattr("dtype")?;
    let (dkind, dname): (String, String) = (dtype.getattr("kind")?.extract()?, dtype.getattr("name")?.extract()?);
    if shape != [n] {
        let shown = shape.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let shown = if shape.len() == 1 { format!("({shown},)") } else { format!("({shown})") };
        if shape.len() == 1 {
            return Err(PyValueError::new_err(format!(
                "{} actions for {n} games: give one action number per game, shape ({n},)",
                shape[0]
            )));
        }
        return Err(PyValueError::new_err(format!("actions must be {takes}; got shape {shown}")));
    }
    if dkind != "i" && dkind != "u" {
        return Err(PyTypeError::new_err(format!("actions must be {takes}; got {dname} values")));
    }
    let ints = np.call_method1("ascontiguousarray", (arr, "int64"))?;
    Ok(ints.cast_into::<PyArray1<i64>>()?)
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (n, game, opponents, seat = Int::of(0), seed = Int::of(1), python_bots = Vec::new()))]
    fn new(
        py: Python<'_>,
        n: Int,
        game: &Game,
        opponents: Vec<String>,
        seat: Int,
        seed: Int,
        python_bots: Vec<(String, Py<PyAny>)>,
    ) -> PyResult<VecEnv> {
        let n: usize = n.within("n", 1, MAX_ENVS as i128)?;
        let seed = seed_arg(&seed)?;
        let failure = Arc::new(Mutex::new(None));
        let kept: Vec<(String, Py<PyAny>)> = python_bots.iter().map(|(n, o)| (n.clone(), o.clone_ref(py))).collect();
        let registry = Arc::new(with_python_bots(python_bots, &failure)?);
        let games = (0..n)
            .map(|_| SoloCore::new(game, &opponents, &seat, registry.clone(), failure.clone()))
            .collect::<PyResult<Vec<_>>>()?;
        let (width, actions) = (games[0].layout.len(), games[0].space.len());
        let made =
            Made::new(py, &Bound::new(py, Game::from_spec((*game.spec).clone())?)?, &opponents, games[0].seat, &kept);
        let obs = PyArray2::<f32>::zeros(py, [n, width], false);
        let obs_view = obs.call_method0("view")?.cast_into::<PyArray2<f32>>()?;
        obs_view.call_method("setflags", (), Some(&[("write", false)].into_py_dict(py)?))?;
        Ok(VecEnv {
            games,
            episodes: vec![0; n],
            seed,
            obs: obs.unbind(),
            obs_view: obs_view.unbind(),
            mask: PyArray2::zeros(py, [n, actions], false).unbind(),
            rewards: PyArray1::zeros(py, n, false).unbind(),
            dones: PyArray1::from_vec(py, vec![false; n]).unbind(),
            illegal: PyArray1::from_vec(py, vec![false; n]).unbind(),
            made,
        })
    }

    /// Deals every game afresh (each game's stream from its first match) and writes the
    /// observations.
    fn reset(&mut self, py: Python<'_>) -> PyResult<()> {
        self.episodes.iter_mut().for_each(|e| *e = 0);
        let seed = self.seed;
        for (i, (g, e)) in self.games.iter_mut().zip(self.episodes.iter_mut()).enumerate() {
            deal_next(g, seed, i, e);
        }
        let mut obs = self.obs.bind(py).readwrite();
        let mut mask = self.mask.bind(py).readwrite();
        let (o, m) = (obs.as_slice_mut()?, mask.as_slice_mut()?);
        let (w, a) = (self.games[0].layout.len(), self.games[0].space.len());
        for (i, g) in self.games.iter_mut().enumerate() {
            g.shown = Shown::default();
            g.write_changes(&mut o[i * w..(i + 1) * w], &mut m[i * a..(i + 1) * a]);
        }
        self.rewards.bind(py).readwrite().as_slice_mut()?.fill(0.0);
        self.dones.bind(py).readwrite().as_slice_mut()?.fill(false);
        self.illegal.bind(py).readwrite().as_slice_mut()?.fill(false);
        self.games[0].failed()
    }

    /// Plays `actions[i]` in game `i`, then its bots; writes `obs`, `mask`, `rewards`, `dones`
    /// and `illegal`, dealing a finished game again. An action outside game `i`'s mask plays its
    /// first legal action instead and sets `illegal[i]`. `actions`: any integer numpy array of
    /// shape `(n,)` (int8 to int64, unsigned too, strided), or a list (`numpy.asarray` reads it,
    /// so JAX and torch CPU arrays too); floats and bools are refused. Returns `(obs, rewards,
    /// dones, infos)`: the arrays written in place and `infos`, as the `infos` property.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<bool>>, Bound<'py, PyDict>)>
    {
        let actions = actions_arg(py, actions, self.games.len())?;
        let actions = actions.readonly();
        let acts = actions.as_slice()?;
        let (w, a) = (self.games[0].layout.len(), self.games[0].space.len());
        {
            let mut obs = self.obs.bind(py).readwrite();
            let mut mask = self.mask.bind(py).readwrite();
            let mut rewards = self.rewards.bind(py).readwrite();
            let mut dones = self.dones.bind(py).readwrite();
            let mut illegal = self.illegal.bind(py).readwrite();
            let (o, m, r, d, il) = (
                obs.as_slice_mut()?,
                mask.as_slice_mut()?,
                rewards.as_slice_mut()?,
                dones.as_slice_mut()?,
                illegal.as_slice_mut()?,
            );
            let (games, episodes, seed) = (&mut self.games, &mut self.episodes, self.seed);
            let pool = pool::get();
            py.detach(|| {
                use rayon::prelude::*;
                pool.install(|| {
                    // Games in chunks of `STEP_CHUNK`: the pool's splitting and the seven zipped
                    // producers cost once a chunk, not once a game.
                    let c = STEP_CHUNK;
                    games
                        .par_chunks_mut(c)
                        .zip(episodes.par_chunks_mut(c))
                        .zip(o.par_chunks_mut(c * w))
                        .zip(m.par_chunks_mut(c * a))
                        .zip(r.par_chunks_mut(c))
                        .zip(d.par_chunks_mut(c).zip(il.par_chunks_mut(c)))
                        .enumerate()
                        .for_each(|(k, (((((gs, es), os), ms), rs), (ds, ils)))| {
                            let rows = os.chunks_exact_mut(w).zip(ms.chunks_exact_mut(a));
                            let flags = rs.iter_mut().zip(ds.iter_mut()).zip(ils.iter_mut());
                            for (j, (((g, e), (o, m)), ((r, d), il))) in
                                gs.iter_mut().zip(es.iter_mut()).zip(rows).zip(flags).enumerate()
                            {
                                let i = k * c + j;
                                let action = usize::try_from(acts[i]).unwrap_or(usize::MAX);
                                let (reward, over, bad) = g.step(action).unwrap_or((0.0, true, false));
                                if over {
                                    deal_next(g, seed, i, e);
                                }
                                *r = reward;
                                *d = over;
                                *il = bad;
                                g.write_changes(o, m);
                            }
                        });
                });
            });
        }
        self.games[0].failed()?;
        Ok((self.obs(py), self.rewards(py), self.dones(py), self.infos(py)?))
    }

    /// The observations, one row per game (float32, written in place): a read-only view, since
    /// each step rewrites only what changed in a row (copy it to change it).
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.obs_view.bind(py).clone()
    }

    /// The action masks, one row per game (uint8, 1: legal).
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
        self.mask.bind(py).clone()
    }

    /// The rewards of the last step.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.rewards.bind(py).clone()
    }

    /// Whether each game's match ended at the last step (it is already dealt again).
    #[getter]
    fn dones<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.dones.bind(py).clone()
    }

    /// Whether each game's action at the last step was illegal (outside its mask: its first
    /// legal action was played instead).
    #[getter]
    fn illegal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.illegal.bind(py).clone()
    }

    /// What the last step says beyond the rewards: `"illegal"` (the array written in place) and
    /// `"episode"` (a copy of `episodes`).
    #[getter]
    fn infos<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        out.set_item("illegal", self.illegal(py))?;
        out.set_item("episode", self.episodes(py))?;
        Ok(out)
    }

    /// The number `k` of the match each game has in play in its seed stream (0 for the first
    /// since the reset): game `i`'s match was dealt from `episode_seed(stream_seed(seed, i), k)`.
    #[getter]
    fn episodes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        let now: Vec<u64> = self.episodes.iter().map(|e| e.saturating_sub(1)).collect();
        PyArray1::from_vec(py, now)
    }

    /// The seed the environment was made with (game `i` plays the stream `stream_seed(seed, i)`).
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Games.
    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Pickles by recipe: `VecEnv(n, game, opponents, seat, seed, python_bots)` again, then
    /// (`__setstate__`) each game's match in play dealt from its seed and the seat's actions
    /// replayed, the matches dealt so far, and the last step's rewards and dones.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (usize, Py<Game>, Vec<String>, usize, u64, Vec<(String, Py<PyAny>)>),
        (Vec<u64>, Vec<Replay>, Vec<f64>, Vec<bool>, Vec<bool>),
    )> {
        let py = slf.py();
        let me = slf.borrow();
        let m = &me.made;
        let args = (me.games.len(), m.game.clone_ref(py), m.opponents.clone(), m.seat, me.seed, m.bots(py));
        let replays = me.games.iter().map(|g| g.replay.clone()).collect();
        let rewards = me.rewards.bind(py).readonly().as_slice()?.to_vec();
        let dones = me.dones.bind(py).readonly().as_slice()?.to_vec();
        let illegal = me.illegal.bind(py).readonly().as_slice()?.to_vec();
        Ok((slf.get_type().into_any(), args, (me.episodes.clone(), replays, rewards, dones, illegal)))
    }

    /// Restores the games a pickled `VecEnv` was playing (see `__reduce__`).
    #[allow(clippy::type_complexity)]
    fn __setstate__(
        &mut self,
        py: Python<'_>,
        state: (Vec<u64>, Vec<Replay>, Vec<f64>, Vec<bool>, Vec<bool>),
    ) -> PyResult<()> {
        let (episodes, replays, rewards, dones, illegal) = state;
        let n = self.games.len();
        if [episodes.len(), replays.len(), rewards.len(), dones.len(), illegal.len()].iter().any(|&k| k != n) {
            return Err(PyValueError::new_err(format!("cannot restore the VecEnv: a state for other than {n} games")));
        }
        for (g, r) in self.games.iter_mut().zip(replays) {
            g.replay(r)?;
        }
        self.episodes = episodes;
        let (w, a) = (self.games[0].layout.len(), self.games[0].space.len());
        let mut obs = self.obs.bind(py).readwrite();
        let mut mask = self.mask.bind(py).readwrite();
        let (o, m) = (obs.as_slice_mut()?, mask.as_slice_mut()?);
        for (i, g) in self.games.iter_mut().enumerate() {
            g.shown = Shown::default();
            g.write_changes(&mut o[i * w..(i + 1) * w], &mut m[i * a..(i + 1) * a]);
        }
        self.rewards.bind(py).readwrite().as_slice_mut()?.copy_from_slice(&rewards);
        self.dones.bind(py).readwrite().as_slice_mut()?.copy_from_slice(&dones);
        self.illegal.bind(py).readwrite().as_slice_mut()?.copy_from_slice(&illegal);
        Ok(())
    }
}

/// The `mtrain` command line, run in this process with `args` (the program name first); returns
/// its exit code. `python -m mtrain` and the `mtrain` script the package installs call it.
#[pyfunction]
fn main(py: Python<'_>, args: Vec<String>) -> i32 {
    py.detach(|| mexican_train::run_command_line(args))
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
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(run_keywords, m)?)?;
    m.add_function(wrap_pyfunction!(kind_keywords, m)?)?;
    m.add_function(wrap_pyfunction!(strategies, m)?)?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(seeds::episode_seed, m)?)?;
    m.add_function(wrap_pyfunction!(seeds::stream_seed, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<Solo>()?;
    m.add_class::<VecEnv>()?;
    Ok(())
}
