//! The native module of the `mtrain` Python package (`mtrain._mtrain`): the library's jobs run
//! in Rust with the GIL released, through the same job and session the command line uses, and
//! their reports come back as the very CSV text the command line writes (the Python side reads
//! it into records and data frames). Nothing here plays or counts on its own.

mod pybot;

use mexican_train::Bot;
use mexican_train::balance::{
    self as bal, DEFAULT_POPULATION, FirstPlayer, Limits, Objective, Sweep, SweepConfig, SweepError, SweepSpec,
};
use mexican_train::external::decide_message;
use mexican_train::game::{ActionSpace, BotSeats, MatchObserver, MatchSeeds, MatchState, ObservationLayout};
use mexican_train::report::balance as brep;
use mexican_train::report::tournament as rep;
use mexican_train::round::{Event, MoveList, Observer, RoundState, Seat, SeenEvent};
use mexican_train::rules::Rules;
use mexican_train::rules::TableSpec;
use mexican_train::strategies::{Origin, Registry};
use mexican_train::strategy::{SpecError, StrategySpec};
use mexican_train::tournament::{
    ChunkSet, Identity, Outputs, RunOptions, RunResult, Session, SessionError, TournamentConfig, TournamentJob,
    TournamentSpec,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
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
    anchor = None, rotate = true, vary_order = true, python_bots = Vec::new()
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
    python_bots: Vec<(String, Py<PyAny>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let failure = Arc::new(Mutex::new(None));
    let registry = with_python_bots(python_bots, &failure)?;
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
    if let Some(why) = failure.lock().expect("not poisoned").take() {
        return Err(PyRuntimeError::new_err(why));
    }
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

/// The built-in bots with each Python bot `(name, object)` added; their failures go to
/// `failure`.
fn with_python_bots(bots: Vec<(String, Py<PyAny>)>, failure: &Arc<Mutex<Option<String>>>) -> PyResult<Registry> {
    let mut registry = Registry::builtin();
    for (name, obj) in bots {
        let bot = pybot::PyBot::new(&name, obj, failure.clone());
        registry
            .add_entry(&name, "a Python bot", Origin::Rust, move |_| Ok(Bot::custom(bot.clone())))
            .map_err(PyValueError::new_err)?;
    }
    Ok(registry)
}

/// A balance sweep, played as `mtrain balance` plays it; the report as a dict: `header` and
/// `console`, `files` (file name to text: the CSV files and one SVG plot per metric, as `--out`
/// writes them), `games` played, `stopped`.
#[pyfunction]
#[pyo3(signature = (
    bots = None, *, players = (2, 8), hands = None, games = 4000, max_games = None, seed = 1,
    rules = "wikipedia", set = 12, rounds = None, options = Vec::new(), objective = "balanced",
    metrics = None, threads = None, max_blocked = None, max_first_edge = None, first_player = None,
    min_skill = None, max_skill = None, margin = None, python_bots = Vec::new()
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
    python_bots: Vec<(String, Py<PyAny>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let bad = |e: &dyn std::fmt::Display| PyValueError::new_err(e.to_string());
    let failure = Arc::new(Mutex::new(None));
    let registry = with_python_bots(python_bots, &failure)?;
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
    if let Some(why) = failure.lock().expect("not poisoned").take() {
        return Err(PyRuntimeError::new_err(why));
    }
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

/// A match configuration: the rules, the set, the table. `new_state(seed)` deals a match.
#[pyclass(name = "Game", module = "mtrain", frozen)]
struct Game {
    rules: Rules,
    space: Arc<ActionSpace>,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = "wikipedia", *, set = 12, players = 4, hand = None, rounds = None, options = Vec::new()))]
    fn new(
        rules: &str,
        set: u8,
        players: u8,
        hand: Option<u8>,
        rounds: Option<u8>,
        options: Vec<String>,
    ) -> PyResult<Game> {
        let table = TableSpec { preset: rules.to_string(), set, players, hand, rounds, rules: options };
        let (rules, _) = table.build().map_err(|e| PyValueError::new_err(e.to_string()))?;
        let space = Arc::new(ActionSpace::new(&rules));
        Ok(Game { rules, space })
    }

    /// A match dealt from `seed`, at its first decision.
    fn new_state(&self, seed: u64) -> State {
        State { st: MatchState::new(&self.rules, seed), space: self.space.clone(), events: Vec::new() }
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
    fn apply_action(&mut self, action: usize) -> PyResult<()> {
        let i = self
            .st
            .legal()
            .iter()
            .position(|&m| self.space.encode(m) == Some(action))
            .ok_or_else(|| PyValueError::new_err(format!("action {action} is not legal here")))?;
        self.st.apply_observed(i, &mut RoundEvents(&mut self.events));
        Ok(())
    }

    /// The move `action` stands for, in words (`12-5 on 2`, `stop`).
    fn action_to_string(&self, action: usize) -> PyResult<String> {
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
    fn observation<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyAny>> {
        let n = self.st.rules().players as usize;
        if player >= n {
            return Err(PyValueError::new_err(format!("player {player} of {n}")));
        }
        let seat = Seat::from_index(player);
        let Some(view) = self.st.view(seat) else {
            return Err(PyValueError::new_err("the match is over: there is nothing to observe"));
        };
        let seen: Vec<SeenEvent> = self.events.iter().map(|e| e.seen_by(seat, false)).collect();
        let empty = MoveList::new();
        let moves = if self.st.current() == Some(seat) { self.st.legal() } else { &empty };
        let text = decide_message(self.st.round_number(), &view, &seen, moves);
        let obs = py.import("json")?.call_method1("loads", (text,))?;
        let actions: Vec<usize> = moves.iter().map(|&m| self.space.encode(m).expect("numbered")).collect();
        obs.set_item("actions", actions)?;
        Ok(obs)
    }

    /// What `player` may know now as a numpy array (`Game.observation_shape()` float32s): the
    /// layout docs/python.md describes. Zeros once the match is over.
    fn observation_tensor<'py>(&self, py: Python<'py>, player: usize) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let layout = ObservationLayout::new(self.st.rules());
        let n = self.st.rules().players as usize;
        if player >= n {
            return Err(PyValueError::new_err(format!("player {player} of {n}")));
        }
        let mut out = vec![0.0; layout.len()];
        if let Some(view) = self.st.view(Seat::from_index(player)) {
            layout.write(&view, self.st.round_number(), self.st.current(), &mut out);
        }
        Ok(PyArray1::from_vec(py, out))
    }

    /// A full state consistent with everything `player` has seen: the hidden hands and
    /// boneyard redrawn by the engine's determinization (the worlds search bots sample), the
    /// later deals redrawn, all from `seed`. Its events are `player`'s view of the round so far.
    fn resample_from_infostate(&self, player: usize, seed: u64) -> PyResult<State> {
        let n = self.st.rules().players as usize;
        if player >= n {
            return Err(PyValueError::new_err(format!("player {player} of {n}")));
        }
        let st = self
            .st
            .resampled(Seat::from_index(player), seed)
            .ok_or_else(|| PyValueError::new_err("the match is over: there is nothing hidden to resample"))?;
        Ok(State { st, space: self.space.clone(), events: self.events.clone() })
    }

    /// An independent copy.
    fn clone(&self) -> State {
        Clone::clone(self)
    }

    fn __repr__(&self) -> String {
        format!(
            "mtrain.State(round {}, to act: {}, scores {:?})",
            self.st.round_number(),
            self.current_player(),
            self.scores()
        )
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
}

impl SoloCore {
    /// The seat `seat` of `game` against `opponents` (fewer than the other seats are repeated).
    fn new(
        game: &Game,
        opponents: &[String],
        seat: usize,
        registry: Arc<Registry>,
        failure: Arc<Mutex<Option<String>>>,
    ) -> PyResult<SoloCore> {
        let n = game.rules.players as usize;
        if seat >= n {
            return Err(PyValueError::new_err(format!("seat {seat} of {n}")));
        }
        if opponents.is_empty() || opponents.len() > n - 1 {
            return Err(PyValueError::new_err(format!(
                "give 1 to {} opponents (fewer are repeated around the table)",
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
        let (mut seats, mut st) = BotSeats::deal(&self.rules, &MatchSeeds::from_seed(seed), bots);
        seats.play(&mut st);
        self.seats = Some(seats);
        self.st = Some(st);
    }

    /// Plays `action` (the first legal action when it is not legal), then the bots. Returns the
    /// seat's reward, whether the match is over and whether the action was illegal; `None` when
    /// the seat is not to act (no match dealt, or over).
    fn step(&mut self, action: usize) -> Option<(f64, bool, bool)> {
        let (seat, space) = (self.seat, self.space.clone());
        let st = self.st.as_mut()?;
        if st.current() != Some(seat) {
            return None;
        }
        let seats = self.seats.as_mut().expect("dealt with the state");
        let found = st.legal().iter().position(|&m| space.encode(m) == Some(action));
        let before = st.result().totals[seat.index()];
        seats.apply(st, found.unwrap_or(0));
        seats.play(st);
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
        let Some(st) = self.st.as_ref() else {
            obs.fill(0.0);
            return;
        };
        match st.view(self.seat) {
            Some(view) => self.layout.write(&view, st.round_number(), st.current(), obs),
            None => obs.fill(0.0),
        }
        if st.current() == Some(self.seat) {
            for &m in st.legal().iter() {
                mask[self.space.encode(m).expect("numbered")] = 1;
            }
        }
    }
}

/// One seat of a match played from Python, every other seat by a built-in bot: the core of
/// `mtrain.gym`. `reset(seed)` deals and lets the bots play up to the seat's first choice;
/// `step(action)` plays the seat's action, then the bots', up to its next choice or the end.
#[pyclass(name = "Solo", module = "mtrain")]
struct Solo(SoloCore);

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
    #[pyo3(signature = (game, opponents, seat = 0, python_bots = Vec::new()))]
    fn new(game: &Game, opponents: Vec<String>, seat: usize, python_bots: Vec<(String, Py<PyAny>)>) -> PyResult<Solo> {
        let failure = Arc::new(Mutex::new(None));
        let registry = Arc::new(with_python_bots(python_bots, &failure)?);
        Ok(Solo(SoloCore::new(game, &opponents, seat, registry, failure)?))
    }

    /// Deals the match of `seed`; the bots play up to the seat's first choice. Returns the
    /// observation tensor and the action mask.
    fn reset(&mut self, seed: u64) -> PyResult<(Vec<f32>, Vec<u8>)> {
        self.0.reset(seed);
        self.0.failed()?;
        Ok(self.observe())
    }

    /// Plays `action` for the seat (an action outside the mask plays the first legal one
    /// instead, and says so), then the bots, up to the seat's next choice or the end. Returns
    /// the observation, the mask, the seat's reward (minus each round's score over 100 as the
    /// round ends, and at the end its win share minus 1/N), whether the match is over, and
    /// whether the action was illegal.
    fn step(&mut self, action: usize) -> PyResult<Stepped> {
        self.0.dealt()?;
        let (reward, over, illegal) =
            self.0.step(action).ok_or_else(|| PyRuntimeError::new_err("the match is over: call reset()"))?;
        self.0.failed()?;
        let (obs, mask) = self.observe();
        Ok((obs, mask, reward, over, illegal))
    }

    /// The match as it stands (a copy), for inspection.
    fn state(&self) -> PyResult<State> {
        Ok(State { st: self.0.dealt()?.clone(), space: self.0.space.clone(), events: Vec::new() })
    }
}

/// `n` games of one seat against built-in bots, stepped together in Rust on every core with
/// the GIL released: observations, action masks, rewards and dones are numpy arrays the
/// environment writes in place (`obs`, `mask`, `rewards`, `dones`). A game that ends is dealt
/// again at once (its reward and `dones` say it ended; `obs` is already the new match's).
/// Game `i`'s `k`-th match is dealt from `mix(seed, i * 2^32 + k)`, so a run is reproducible
/// at any thread count.
#[pyclass(name = "VecEnv", module = "mtrain")]
struct VecEnv {
    games: Vec<SoloCore>,
    /// Matches dealt so far per game.
    episodes: Vec<u64>,
    seed: u64,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<u8>>,
    rewards: Py<PyArray1<f64>>,
    dones: Py<PyArray1<bool>>,
}

impl VecEnv {
    fn deal(&mut self, i: usize) {
        let seed = mexican_train::rng::mix(self.seed, ((i as u64) << 32) + self.episodes[i]);
        self.episodes[i] += 1;
        self.games[i].reset(seed);
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (n, game, opponents, seat = 0, seed = 1, python_bots = Vec::new()))]
    fn new(
        py: Python<'_>,
        n: usize,
        game: &Game,
        opponents: Vec<String>,
        seat: usize,
        seed: u64,
        python_bots: Vec<(String, Py<PyAny>)>,
    ) -> PyResult<VecEnv> {
        if n == 0 {
            return Err(PyValueError::new_err("n must be at least 1"));
        }
        let failure = Arc::new(Mutex::new(None));
        let registry = Arc::new(with_python_bots(python_bots, &failure)?);
        let games = (0..n)
            .map(|_| SoloCore::new(game, &opponents, seat, registry.clone(), failure.clone()))
            .collect::<PyResult<Vec<_>>>()?;
        let (width, actions) = (games[0].layout.len(), games[0].space.len());
        Ok(VecEnv {
            games,
            episodes: vec![0; n],
            seed,
            obs: PyArray2::zeros(py, [n, width], false).unbind(),
            mask: PyArray2::zeros(py, [n, actions], false).unbind(),
            rewards: PyArray1::zeros(py, n, false).unbind(),
            dones: PyArray1::from_vec(py, vec![false; n]).unbind(),
        })
    }

    /// Deals every game afresh (from the environment's seed) and writes the observations.
    fn reset(&mut self, py: Python<'_>) -> PyResult<()> {
        self.episodes.iter_mut().for_each(|e| *e = 0);
        for i in 0..self.games.len() {
            self.deal(i);
        }
        let mut obs = self.obs.bind(py).readwrite();
        let mut mask = self.mask.bind(py).readwrite();
        let (o, m) = (obs.as_slice_mut()?, mask.as_slice_mut()?);
        let (w, a) = (self.games[0].layout.len(), self.games[0].space.len());
        for (i, g) in self.games.iter().enumerate() {
            g.write(&mut o[i * w..(i + 1) * w], &mut m[i * a..(i + 1) * a]);
        }
        self.rewards.bind(py).readwrite().as_slice_mut()?.fill(0.0);
        self.dones.bind(py).readwrite().as_slice_mut()?.fill(false);
        self.games[0].failed()
    }

    /// Plays `actions[i]` in game `i` (an illegal action plays the first legal one), then its
    /// bots; writes `obs`, `mask`, `rewards` and `dones`, dealing a finished game again.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let acts = actions.as_slice()?;
        if acts.len() != self.games.len() {
            return Err(PyValueError::new_err(format!("{} actions for {} games", acts.len(), self.games.len())));
        }
        let (w, a) = (self.games[0].layout.len(), self.games[0].space.len());
        let mut obs = self.obs.bind(py).readwrite();
        let mut mask = self.mask.bind(py).readwrite();
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut dones = self.dones.bind(py).readwrite();
        let (o, m, r, d) = (obs.as_slice_mut()?, mask.as_slice_mut()?, rewards.as_slice_mut()?, dones.as_slice_mut()?);
        let (games, episodes, seed) = (&mut self.games, &mut self.episodes, self.seed);
        py.detach(|| {
            use rayon::prelude::*;
            games
                .par_iter_mut()
                .zip(episodes.par_iter_mut())
                .zip(o.par_chunks_mut(w))
                .zip(m.par_chunks_mut(a))
                .zip(r.par_iter_mut())
                .zip(d.par_iter_mut())
                .enumerate()
                .for_each(|(i, (((((g, e), o), m), r), d))| {
                    let (reward, over) = match g.step(usize::try_from(acts[i]).unwrap_or(usize::MAX)) {
                        Some((reward, over, _)) => (reward, over),
                        None => (0.0, true),
                    };
                    if over {
                        g.reset(mexican_train::rng::mix(seed, ((i as u64) << 32) + *e));
                        *e += 1;
                    }
                    *r = reward;
                    *d = over;
                    g.write(o, m);
                });
        });
        self.games[0].failed()
    }

    /// The observations, one row per game (float32, written in place).
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.obs.bind(py).clone()
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

    /// Games.
    fn __len__(&self) -> usize {
        self.games.len()
    }
}

/// The `mtrain` command line, run in this process with `args` (the program name first); returns
/// its exit code. `python -m mtrain` and the `mtrain` script the package installs call it.
#[pyfunction]
fn main(py: Python<'_>, args: Vec<String>) -> i32 {
    py.detach(|| mexican_train::cli::run(args))
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
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<Solo>()?;
    m.add_class::<VecEnv>()?;
    Ok(())
}
