//! External bots: any program that speaks the line protocol of `docs/bot-protocol.md` on its
//! standard input and output plays as a [`Strategy`].
//!
//! `--ext-bot NAME=COMMAND` registers NAME (see [`ExternalBots`]); every spec of it
//! (`NAME:key=value,...`) is one bot, its parameters sent to the program in the handshake. Each
//! worker thread starts its own process of a bot the first time it seats it and keeps it for
//! the whole run, every seat of that bot on that thread sharing it: one long-lived process per
//! bot and thread, not one per game. A process that a finished thread leaves behind is reused by
//! the next thread that needs one.
//!
//! A bot that cannot start, exits, stays silent past the timeout, writes malformed JSON, a line
//! longer than [`MAX_LINE`] or a line no request asked for, or picks a move that is not offered
//! is a [`BotFailure`]: its process group is killed, the bot answers every later question with a
//! placeholder and reports [`Strategy::has_failed`], and the run stops and discards the games it
//! touched. Only the first failure is kept.
//!
//! A line no request asked for is caught before mtrain sends the bot its next message: if
//! anything the bot wrote is already waiting (read, or readable without waiting), the bot fails.
//! A second answer written together with the first is caught as the first is read.
//!
//! On Linux, a thread that talks to an external bot is pinned to one CPU, together with the
//! processes it talks to (see `affinity` below): a library user who plays such bots on a thread
//! of their own should know that the thread stays pinned.
//!
//! The processes run in a process group of their own, so that Ctrl-C in a terminal reaches
//! mtrain (which then saves its work) and not the bots; when the run ends each is sent `quit`,
//! its input is closed, and it is killed if it has not exited within two seconds. Whatever is
//! left of its process group then (processes the bot started) is killed too, as is the whole
//! group of a bot that fails: no process of a bot outlives mtrain.

pub(crate) mod protocol;
pub(crate) mod wire;

pub use protocol::PROTOCOL_VERSION;

/// The bot protocol's `decide` message for the seat `view` belongs to, as one line of JSON
/// (no newline): what an external bot is sent when it must choose among `moves` in round
/// `round`, with the `events` it has seen since its last message. The Python `State`'s
/// observation is this message, so one schema serves both (docs/bot-protocol.md).
#[doc(hidden)] // for the integration tests
pub fn decide_message(
    round: u8,
    view: &crate::view::View<'_>,
    events: &[crate::round::SeenEvent],
    moves: &[crate::round::Move],
) -> String {
    let mut out = Vec::new();
    protocol::decide(&mut out, round, view, events, moves);
    out.pop();
    String::from_utf8(out).expect("JSON is UTF-8")
}

use crate::error::InvalidInput;
use crate::rng::GameRng;
use crate::round::{Event, MoveList, Seat, SeenEvent};
use crate::strategies::{Bot, NameError, Origin, Registry};
use crate::strategy::{MatchStart, Needs, Strategy, StrategySpec};
use crate::tile::Pip;
use crate::view::View;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

/// The default `--bot-timeout`: far above what a slow interpreted bot needs for one reply.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest line a bot may write, in bytes, its newline not counted (1 MiB): a longer one
/// fails the bot.
pub const MAX_LINE: usize = 1 << 20;

/// The most bytes of one process's standard error kept in its log file (10 MiB); what follows
/// is read and dropped, and one last line says how many bytes were cut.
pub const LOG_CAP: u64 = 10 << 20;

/// While waiting for a reply, how often mtrain looks whether the bot has exited (a process it
/// started may hold its output open, so that no end of file comes).
const EXIT_CHECK: Duration = Duration::from_millis(100);

/// Longest stretch of standard error handled as one line (longer ones are handled in pieces).
const ERR_PIECE: u64 = 64 << 10;

/// Where the bots' standard error goes.
#[derive(Clone, Debug)]
pub enum StderrTo {
    /// A file per process in this folder: `NAME-K.log`, `K` numbering the processes of NAME.
    Dir(PathBuf),
    /// mtrain's own standard error, each line prefixed with the bot's name (for commands
    /// without a progress bar).
    Forward,
    /// Nowhere (the last line is still kept for the failure report).
    Discard,
}

/// How external bots are run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Longest wait for the handshake and for each reply.
    pub timeout: Duration,
    /// Where their standard error goes.
    pub stderr: StderrTo,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { timeout: DEFAULT_TIMEOUT, stderr: StderrTo::Discard }
    }
}

/// `NAME=COMMAND`: a name for `--bots` and the program to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSpec {
    /// The name.
    pub name: String,
    /// The program and its arguments, split as a POSIX shell splits words (quotes and
    /// backslashes), without running a shell.
    pub argv: Vec<String>,
    /// The command as given.
    pub command: String,
}

/// Why a `NAME=COMMAND` is not an [`ExternalSpec`]; each names the text given (the whole, or
/// the name).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExternalSpecError {
    /// No `=`.
    #[error("invalid --ext-bot '{0}': expected NAME=COMMAND, e.g. mine='python3 my_bot.py'")]
    NoCommand(String),
    /// A name that is empty or has characters other than letters, digits, `_` and `-`.
    #[error("invalid --ext-bot name '{0}': use letters, digits, '_' and '-'")]
    BadName(String),
    /// A command that does not split into words.
    #[error("invalid --ext-bot '{0}': unbalanced quotes or a trailing backslash in the command")]
    Unbalanced(String),
    /// A command of no words.
    #[error("invalid --ext-bot '{0}': the command is empty")]
    EmptyCommand(String),
}

impl std::str::FromStr for ExternalSpec {
    type Err = ExternalSpecError;

    fn from_str(s: &str) -> Result<ExternalSpec, ExternalSpecError> {
        let (name, command) = s.split_once('=').ok_or_else(|| ExternalSpecError::NoCommand(s.to_string()))?;
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(ExternalSpecError::BadName(name.to_string()));
        }
        // shlex: the maintained implementation of POSIX shell word splitting.
        let argv = shlex::split(command).ok_or_else(|| ExternalSpecError::Unbalanced(s.to_string()))?;
        if argv.is_empty() {
            return Err(ExternalSpecError::EmptyCommand(s.to_string()));
        }
        Ok(ExternalSpec { name: name.to_string(), argv, command: command.trim().to_string() })
    }
}

/// The bots a run adds to the built-in registry, as data a run stores and rebuilds from:
/// external programs (`--ext-bot NAME=COMMAND`) and named specs (`--name NAME=SPEC`), each in the
/// order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BotSetup {
    /// External bots: name and command, as given.
    pub ext: Vec<(String, String)>,
    /// Named specs: name and spec.
    pub names: Vec<(String, String)>,
}

impl BotSetup {
    /// `base` with the external bots (started with `settings`) and the named specs added.
    ///
    /// # Errors
    /// A bad external bot definition or name, in one line naming the option.
    pub fn registry(&self, base: &Registry, settings: &Settings) -> Result<(Registry, ExternalBots), InvalidInput> {
        let mut registry = base.clone();
        let specs = self
            .ext
            .iter()
            .map(|(name, command)| format!("{name}={command}").parse::<ExternalSpec>())
            .collect::<Result<Vec<_>, ExternalSpecError>>()
            .map_err(|e| InvalidInput(format!("--ext-bot: {e}")))?;
        let ext = ExternalBots::register(&specs, settings, &mut registry)
            .map_err(|e| InvalidInput(format!("--ext-bot: {e}")))?;
        for (name, spec) in &self.names {
            registry.alias(name, spec).map_err(|e| InvalidInput(format!("--name {name}={spec}: {e}")))?;
        }
        Ok((registry, ext))
    }

    /// The same bots with the command of each external bot in `new` replaced (a bot fixed after
    /// it stopped a run keeps its name, so the run is the same run).
    ///
    /// # Errors
    /// A name the setup does not define.
    pub fn with_commands(&self, new: &[ExternalSpec]) -> Result<BotSetup, InvalidInput> {
        let mut out = self.clone();
        for n in new {
            let Some(slot) = out.ext.iter_mut().find(|(name, _)| *name == n.name) else {
                let names: Vec<&str> = self.ext.iter().map(|(name, _)| name.as_str()).collect();
                let known = if names.is_empty() { "none".to_string() } else { names.join(", ") };
                return Err(InvalidInput(format!(
                    "--resume: the run has no external bot '{}' to give a new command (its external bots: {known})",
                    n.name
                )));
            };
            slot.1 = n.command.clone();
        }
        Ok(out)
    }
}

/// Why an external bot stopped a run: one line naming the bot, the game and seat, what went
/// wrong, the last request and the reply (or the last line the bot wrote on stderr).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotFailure {
    /// The bot's spec.
    pub bot: String,
    /// Its command.
    pub command: String,
    /// The game (a tournament's game index).
    pub game: u64,
    /// The seat.
    pub seat: usize,
    /// What went wrong.
    pub what: String,
    /// The last request sent, if any.
    pub request: Option<String>,
    /// The reply, if one came.
    pub reply: Option<String>,
    /// The last line on the bot's standard error, if any.
    pub stderr: Option<String>,
}

/// Longest request or reply quoted in a failure line.
const QUOTE_CHARS: usize = 300;

fn clip(s: &str) -> String {
    let s = s.trim_end();
    if s.chars().count() <= QUOTE_CHARS {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(QUOTE_CHARS).collect::<String>())
    }
}

impl fmt::Display for BotFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bot '{}' ({}) failed in game {}, seat {}: {}",
            self.bot, self.command, self.game, self.seat, self.what
        )?;
        match &self.request {
            Some(r) => write!(f, "; last request: {}", clip(r))?,
            None => f.write_str("; no request sent yet")?,
        }
        match &self.reply {
            Some(r) => write!(f, "; reply: {}", clip(r))?,
            None => f.write_str("; no reply")?,
        }
        if let Some(e) = &self.stderr {
            write!(f, "; last stderr line: {}", clip(e))?;
        }
        Ok(())
    }
}

/// The external bots of one command line, and the first failure among them.
#[derive(Clone, Default)]
pub struct ExternalBots {
    failure: Arc<Mutex<Option<BotFailure>>>,
}

impl ExternalBots {
    /// Adds each `NAME=COMMAND` to `registry`.
    ///
    /// # Errors
    /// A name already taken.
    pub fn register(
        specs: &[ExternalSpec],
        settings: &Settings,
        registry: &mut Registry,
    ) -> Result<ExternalBots, NameError> {
        let bots = ExternalBots::default();
        for spec in specs {
            let def = Arc::new(Def {
                info: Arc::new(Info {
                    name: spec.name.clone(),
                    argv: spec.argv.clone(),
                    command: spec.command.clone(),
                    settings: settings.clone(),
                    failure: bots.failure.clone(),
                    spawned: AtomicUsize::new(0),
                }),
                cache: Mutex::new(HashMap::new()),
            });
            registry.add_entry(
                &spec.name,
                &format!("external program: {}", spec.command),
                Origin::External(spec.command.clone()),
                move |s: &StrategySpec| Ok(Bot::custom(def.bot(s))),
            )?;
        }
        Ok(bots)
    }

    /// The first failure, if a bot failed.
    pub fn failure(&self) -> Option<BotFailure> {
        lock(&self.failure).clone()
    }

    /// Whether a bot has failed.
    pub fn failed(&self) -> bool {
        lock(&self.failure).is_some()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What every process of one `--ext-bot` shares.
struct Info {
    name: String,
    argv: Vec<String>,
    command: String,
    settings: Settings,
    failure: Arc<Mutex<Option<BotFailure>>>,
    spawned: AtomicUsize,
}

/// One `--ext-bot`: its bots by spec.
struct Def {
    info: Arc<Info>,
    cache: Mutex<HashMap<String, Arc<Shared>>>,
}

impl Def {
    fn bot(&self, spec: &StrategySpec) -> ExtBot {
        let shared = lock(&self.cache)
            .entry(spec.to_string())
            .or_insert_with(|| {
                static IDS: AtomicUsize = AtomicUsize::new(0);
                Arc::new(Shared {
                    info: self.info.clone(),
                    spec: spec.clone(),
                    id: IDS.fetch_add(1, Ordering::Relaxed),
                    idle: Mutex::new(Vec::new()),
                    all: Mutex::new(Vec::new()),
                    broken: AtomicBool::new(false),
                })
            })
            .clone();
        ExtBot::new(shared)
    }
}

type ProcRef = Arc<Mutex<Proc>>;

/// One bot (a spec): its processes.
struct Shared {
    info: Arc<Info>,
    spec: StrategySpec,
    id: usize,
    /// Processes no thread holds.
    idle: Mutex<Vec<ProcRef>>,
    /// Every process started, for the shutdown.
    all: Mutex<Vec<ProcRef>>,
    /// Set at the first failure: no process is started after it.
    broken: AtomicBool,
}

impl Drop for Shared {
    fn drop(&mut self) {
        let all = std::mem::take(&mut *lock(&self.all));
        let mut procs: Vec<MutexGuard<'_, Proc>> = all.iter().map(|p| lock(p)).collect();
        for p in &mut procs {
            p.say_quit();
        }
        let deadline = Instant::now() + Duration::from_secs(2);
        for p in &mut procs {
            p.wait_until(deadline);
        }
    }
}

/// The processes a thread holds, by bot; handed back when the thread ends.
struct Held(Vec<(usize, Weak<Shared>, ProcRef)>);

impl Drop for Held {
    fn drop(&mut self) {
        for (_, shared, p) in self.0.drain(..) {
            if let Some(s) = shared.upgrade() {
                lock(&s.idle).push(p);
            }
        }
    }
}

thread_local! {
    static HELD: RefCell<Held> = const { RefCell::new(Held(Vec::new())) };
}

/// A running bot program.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    /// Bytes read and not yet returned as lines.
    buf: Vec<u8>,
    /// How much of `buf` is known to hold no newline.
    scanned: usize,
    /// The last line the bot wrote on stderr.
    last_err: Arc<Mutex<Option<String>>>,
    stderr_thread: Option<std::thread::JoinHandle<()>>,
    /// Set once the process is unusable.
    dead: bool,
    /// Set once its process group has been killed.
    group_killed: bool,
}

/// Why a read came back without a line.
enum ReadError {
    Timeout,
    Closed,
    /// The process exited, but something it started still holds its output open.
    Exited(std::process::ExitStatus),
    /// A line longer than [`MAX_LINE`]: its beginning.
    TooLong(String),
    Io(std::io::Error),
}

impl ReadError {
    /// What went wrong, for a failure line; `timeout` describes the wait that ran out.
    fn what(self, p: &mut Proc, timeout: &str) -> (String, Option<String>) {
        match self {
            ReadError::Timeout => (format!("no {timeout}"), None),
            ReadError::Closed => (p.exit_text(), None),
            ReadError::Exited(status) => (exit_status_text(status), None),
            ReadError::TooLong(start) => {
                ("reply longer than 1 MiB (the protocol's longest line)".to_string(), Some(start))
            }
            ReadError::Io(e) => (format!("cannot read its output: {e}"), None),
        }
    }
}

/// Why a bot's process did not start.
#[derive(Debug, thiserror::Error)]
enum SpawnError {
    /// The program could not be run.
    #[error("cannot start '{program}': {error}")]
    Program { program: String, error: std::io::Error },
    /// The thread that copies its standard error could not be started.
    #[error("cannot start a thread for its stderr: {0}")]
    StderrThread(std::io::Error),
}

impl Proc {
    /// Starts the program; its stderr is copied by a thread of its own.
    fn spawn(info: &Info) -> Result<Proc, SpawnError> {
        let mut cmd = Command::new(&info.argv[0]);
        cmd.args(&info.argv[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|error| SpawnError::Program { program: info.argv[0].clone(), error })?;
        let k = info.spawned.fetch_add(1, Ordering::Relaxed) + 1;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        let last_err = Arc::new(Mutex::new(None));
        let mut sink: Box<dyn Write + Send> = match &info.settings.stderr {
            StderrTo::Dir(dir) => Box::new(LazyFile {
                path: dir.join(format!("{}-{k}.log", info.name)),
                file: None,
                kept: 0,
                cut: 0,
                at_line_start: true,
            }),
            StderrTo::Forward => Box::new(Prefixed { prefix: format!("[{}] ", info.name) }),
            StderrTo::Discard => Box::new(std::io::sink()),
        };
        let last = last_err.clone();
        let stderr_thread = std::thread::Builder::new()
            .name(format!("{}-stderr", info.name))
            .spawn(move || {
                let mut r = BufReader::new(stderr);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    // Read on to the end, whatever the log keeps, so that the bot never blocks on
                    // a full pipe; a line without end is handled in pieces.
                    match r.by_ref().take(ERR_PIECE).read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let _ = sink.write_all(&line);
                            let text = String::from_utf8_lossy(&line).trim().to_string();
                            if !text.is_empty() {
                                *lock(&last) = Some(text);
                            }
                        }
                    }
                }
                let _ = sink.flush();
            })
            .map_err(SpawnError::StderrThread)?;
        Ok(Proc {
            child,
            stdin: Some(stdin),
            stdout,
            buf: Vec::new(),
            scanned: 0,
            last_err,
            stderr_thread: Some(stderr_thread),
            dead: false,
            group_killed: false,
        })
    }

    /// Writes one whole message.
    fn send(&mut self, line: &[u8]) -> std::io::Result<()> {
        match self.stdin.as_mut() {
            Some(w) => w.write_all(line),
            None => Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
        }
    }

    /// The next line (without its newline), waiting at most `timeout`.
    fn read_line(&mut self, timeout: Duration) -> Result<String, ReadError> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(i) = self.buf[self.scanned..].iter().position(|&b| b == b'\n') {
                let end = self.scanned + i;
                self.scanned = 0;
                if end > MAX_LINE {
                    return Err(self.too_long());
                }
                let line: Vec<u8> = self.buf.drain(..=end).collect();
                return Ok(String::from_utf8_lossy(&line[..end]).trim_end_matches('\r').to_string());
            }
            self.scanned = self.buf.len();
            if self.buf.len() > MAX_LINE {
                return Err(self.too_long());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if !wait_readable(&self.stdout, left.min(EXIT_CHECK))? {
                // Nothing yet. A bot that has exited says so, even when a process it started
                // keeps its output open (what it wrote before exiting is read first).
                if let Ok(Some(status)) = self.child.try_wait()
                    && !wait_readable(&self.stdout, Duration::ZERO)?
                {
                    return Err(ReadError::Exited(status));
                }
                if left.is_zero() {
                    return Err(ReadError::Timeout);
                }
                continue;
            }
            self.fill()?;
        }
    }

    /// Reads what the pipe holds into `buf`; end of file is [`ReadError::Closed`].
    fn fill(&mut self) -> Result<(), ReadError> {
        let mut chunk = [0u8; 8192];
        loop {
            match self.stdout.read(&mut chunk) {
                Ok(0) => return Err(ReadError::Closed),
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadError::Io(e)),
            }
        }
    }

    /// A line over [`MAX_LINE`]: its beginning, for the report.
    fn too_long(&self) -> ReadError {
        ReadError::TooLong(String::from_utf8_lossy(&self.buf[..self.buf.len().min(4 * QUOTE_CHARS)]).into_owned())
    }

    /// What the bot wrote that no request asked for, looked at without waiting: bytes left
    /// after its last answer, or waiting in the pipe. `Ok(None)` when there is none.
    fn unexpected(&mut self) -> Result<Option<String>, ReadError> {
        if self.buf.is_empty() {
            if !wait_readable(&self.stdout, Duration::ZERO)? {
                return Ok(None);
            }
            self.fill()?;
        }
        let end = self.buf.iter().position(|&b| b == b'\n').unwrap_or(self.buf.len());
        Ok(Some(String::from_utf8_lossy(&self.buf[..end.min(4 * QUOTE_CHARS)]).trim_end_matches('\r').to_string()))
    }

    /// Why a write to the bot failed: its exit status if it has exited (waiting briefly for
    /// it), or else that it closed its input.
    fn write_failed(&mut self, e: &std::io::Error) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return exit_status_text(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            "closed its input (it reads no more requests)".to_string()
        } else {
            format!("cannot write to its input: {e}")
        }
    }

    /// How the process ended, waiting briefly for it (it has closed its output).
    fn exit_text(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return exit_status_text(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => return "closed its output".to_string(),
            }
        }
    }

    /// Kills the process and its process group, and collects its last stderr line.
    fn kill(&mut self) -> Option<String> {
        self.dead = true;
        self.kill_group();
        self.stdin = None;
        self.join_stderr(Instant::now() + Duration::from_millis(500));
        lock(&self.last_err).clone()
    }

    /// Kills every process of the group the bot leads (the bot, and what it started and left
    /// there), and collects the bot's exit. Once only: a group found empty later may have a
    /// new process's id.
    fn kill_group(&mut self) {
        if std::mem::replace(&mut self.group_killed, true) {
            return;
        }
        #[cfg(unix)]
        {
            // The bot was started with `process_group(0)`: its group's id is its pid. A group
            // outlives its leader while any member lives, so this reaches the processes a bot
            // that has already exited left behind.
            if let Ok(pgid) = libc::pid_t::try_from(self.child.id()) {
                // SAFETY: killpg has no memory effects; the group is the bot's own.
                unsafe {
                    libc::killpg(pgid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits until `deadline` for the stderr copy thread, which ends when the last process
    /// holding the pipe has gone (and writes the log's last line).
    fn join_stderr(&mut self, deadline: Instant) {
        if let Some(t) = self.stderr_thread.take() {
            while !t.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }

    /// Asks the bot to exit and closes its input.
    fn say_quit(&mut self) {
        if !self.dead {
            let mut q = Vec::new();
            protocol::quit(&mut q);
            let _ = self.send(&q);
        }
        self.stdin = None;
    }

    /// Waits for the exit until `deadline`, then kills what is left of the process group.
    fn wait_until(&mut self, deadline: Instant) {
        loop {
            match self.child.try_wait() {
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        self.kill_group();
        self.join_stderr(Instant::now() + Duration::from_secs(2));
    }
}

/// A log file created (with its folder) at the first line, so that a quiet bot leaves none,
/// holding at most [`LOG_CAP`] bytes of the bot's output and then one line saying how many
/// more were cut.
struct LazyFile {
    path: PathBuf,
    file: Option<std::fs::File>,
    /// Bytes written.
    kept: u64,
    /// Bytes dropped past the cap.
    cut: u64,
    /// Whether the last byte written ended a line.
    at_line_start: bool,
}

impl Write for LazyFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len().min(usize::try_from(LOG_CAP - self.kept).unwrap_or(usize::MAX));
        self.cut += (buf.len() - n) as u64;
        if n == 0 {
            return Ok(buf.len());
        }
        if self.file.is_none() {
            if let Some(dir) = self.path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            self.file = Some(std::fs::OpenOptions::new().create(true).append(true).open(&self.path)?);
        }
        self.file.as_mut().expect("opened").write_all(&buf[..n])?;
        self.kept += n as u64;
        self.at_line_start = buf[n - 1] == b'\n';
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().map_or(Ok(()), Write::flush)
    }
}

impl Drop for LazyFile {
    /// The last line of a log that reached its cap.
    fn drop(&mut self) {
        if let Some(f) = self.file.as_mut()
            && self.cut > 0
        {
            let _ = writeln!(
                f,
                "{}[mtrain: this log stops at its limit of 10 MiB; {} more bytes of the bot's standard error were not kept]",
                if self.at_line_start { "" } else { "\n" },
                self.cut
            );
        }
    }
}

/// Standard error lines, prefixed with the bot's name.
struct Prefixed {
    prefix: String,
}

impl Write for Prefixed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut err = std::io::stderr().lock();
        err.write_all(self.prefix.as_bytes())?;
        err.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

fn exit_status_text(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("was killed by signal {sig}");
        }
    }
    match status.code() {
        Some(c) => format!("exited with status {c}"),
        None => "exited".to_string(),
    }
}

/// Whether `out` has data (or end of file) within `timeout`.
#[cfg(unix)]
fn wait_readable(out: &ChildStdout, timeout: Duration) -> Result<bool, ReadError> {
    use std::os::fd::AsRawFd;
    // std has no read with a timeout on a pipe; poll(2) is the system's own way to wait.
    let mut fds = libc::pollfd { fd: out.as_raw_fd(), events: libc::POLLIN, revents: 0 };
    // Zero: look without waiting; otherwise at least a millisecond.
    let ms = if timeout.is_zero() { 0 } else { timeout.as_millis().clamp(1, i32::MAX as u128) as libc::c_int };
    loop {
        // SAFETY: one valid pollfd, owned by this frame, for the duration of the call.
        let r = unsafe { libc::poll(&mut fds, 1, ms) };
        if r >= 0 {
            return Ok(r > 0);
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(ReadError::Io(e));
        }
    }
}

#[cfg(not(unix))]
fn wait_readable(_out: &ChildStdout, _timeout: Duration) -> Result<bool, ReadError> {
    Err(ReadError::Io(std::io::Error::new(std::io::ErrorKind::Unsupported, "external bots need a Unix system")))
}

/// Keeps each worker thread and the bot processes it talks to on one CPU (Linux).
///
/// A request and its answer are two wake-ups. When the thread and the bot sit on different
/// CPUs, each wake-up goes to a CPU that has gone idle, which on a virtual machine costs tens
/// of microseconds; on one CPU it is a plain switch of a few. Threads are given CPUs in turn
/// (thread k the k-th CPU the process may use, modulo their number), so a run with as many
/// threads as CPUs keeps every CPU busy.
mod affinity {
    #[cfg(target_os = "linux")]
    pub(super) fn pin_with_thread(child: u32) {
        use std::cell::Cell;
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        thread_local! {
            static CPU: Cell<Option<usize>> = const { Cell::new(None) };
        }
        let Ok(cpu) = CPU.try_with(|c| {
            if let Some(cpu) = c.get() {
                return Some(cpu);
            }
            // SAFETY: cpu_set_t is plain data; the calls get a valid pointer and its size.
            let cpus: Vec<usize> = unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                    return None;
                }
                (0..libc::CPU_SETSIZE as usize).filter(|&i| libc::CPU_ISSET(i, &set)).collect()
            };
            if cpus.len() < 2 {
                return None;
            }
            let cpu = cpus[NEXT.fetch_add(1, Ordering::Relaxed) % cpus.len()];
            if !set_affinity(0, cpu) {
                return None;
            }
            c.set(Some(cpu));
            Some(cpu)
        }) else {
            return;
        };
        if let Some(cpu) = cpu {
            set_affinity(child as libc::pid_t, cpu);
        }
    }

    /// Restricts `pid` (0: the calling thread) to `cpu`.
    #[cfg(target_os = "linux")]
    fn set_affinity(pid: libc::pid_t, cpu: usize) -> bool {
        // SAFETY: as above.
        unsafe {
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut one);
            libc::sched_setaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &one) == 0
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub(super) fn pin_with_thread(_child: u32) {}
}

/// Takes the process this thread holds for `shared`, or an idle one, or starts one (with its
/// handshake).
fn acquire(shared: &Arc<Shared>) -> Result<ProcRef, (String, Option<String>, Option<String>)> {
    let held = HELD.try_with(|h| h.borrow().0.iter().find(|(id, _, _)| *id == shared.id).map(|(_, _, p)| p.clone()));
    if let Ok(Some(p)) = held {
        return Ok(p);
    }
    if shared.broken.load(Ordering::SeqCst) {
        return Err(("another process of this bot failed".into(), None, None));
    }
    let p = match lock(&shared.idle).pop() {
        Some(p) => p,
        None => {
            let p = Arc::new(Mutex::new(start(shared)?));
            lock(&shared.all).push(p.clone());
            p
        }
    };
    affinity::pin_with_thread(lock(&p).child.id());
    let _ = HELD.try_with(|h| h.borrow_mut().0.push((shared.id, Arc::downgrade(shared), p.clone())));
    Ok(p)
}

/// Starts a process and shakes hands: `hello` out, `ready` with our protocol version back.
fn start(shared: &Shared) -> Result<Proc, (String, Option<String>, Option<String>)> {
    let info = &shared.info;
    let mut p = Proc::spawn(info).map_err(|e| (e.to_string(), None, None))?;
    let mut msg = Vec::new();
    protocol::hello(&mut msg, &shared.spec.name, &shared.spec.params);
    if let Err(e) = p.send(&msg) {
        let what = format!("{} before the handshake", p.write_failed(&e));
        return Err((what, None, p.kill()));
    }
    match p.read_line(info.settings.timeout) {
        Ok(line) => {
            if !p.buf.is_empty() {
                let extra = p.unexpected().ok().flatten();
                return Err((
                    "wrote a line when no reply was expected (a second line after ready)".into(),
                    extra,
                    p.kill(),
                ));
            }
            let v: serde_json::Value = match serde_json::from_str(&line) {
                Ok(v) => v,
                Err(e) => {
                    return Err((format!("answered the handshake with malformed JSON ({e})"), Some(line), p.kill()));
                }
            };
            if v.get("type").and_then(|t| t.as_str()) != Some("ready") {
                return Err(("answered the handshake without {\"type\":\"ready\"}".into(), Some(line), p.kill()));
            }
            match v.get("protocol").and_then(serde_json::Value::as_u64) {
                Some(n) if n == u64::from(PROTOCOL_VERSION) => Ok(p),
                Some(n) => Err((
                    format!("speaks protocol version {n}; this mtrain speaks version {PROTOCOL_VERSION}"),
                    Some(line),
                    p.kill(),
                )),
                None => Err(("its ready message has no protocol version".into(), Some(line), p.kill())),
            }
        }
        Err(ReadError::Timeout) => Err((
            format!("no handshake reply within {} s (--bot-timeout)", info.settings.timeout.as_secs_f64()),
            None,
            p.kill(),
        )),
        Err(e @ (ReadError::Closed | ReadError::Exited(_))) => {
            let what = format!("{} before the handshake", e.what(&mut p, "").0);
            Err((what, None, p.kill()))
        }
        Err(e) => {
            let (what, reply) = e.what(&mut p, "");
            Err((what, reply, p.kill()))
        }
    }
}

/// One seat's external bot.
pub struct ExtBot {
    shared: Arc<Shared>,
    proc: Option<ProcRef>,
    seat: Seat,
    game: u64,
    round: u8,
    players: usize,
    engine: Pip,
    events: Vec<SeenEvent>,
    msg: Vec<u8>,
    failed: bool,
}

impl Clone for ExtBot {
    /// A fresh seat of the same bot (the process is looked up at the match start).
    fn clone(&self) -> ExtBot {
        ExtBot::new(self.shared.clone())
    }
}

impl ExtBot {
    fn new(shared: Arc<Shared>) -> ExtBot {
        ExtBot {
            shared,
            proc: None,
            seat: Seat::default(),
            game: 0,
            round: 0,
            players: 0,
            engine: Pip::from_u8(0),
            events: Vec::new(),
            msg: Vec::new(),
            failed: false,
        }
    }

    /// Records the failure (the first of the run is kept) and stops using the process.
    fn fail(&mut self, what: String, request: bool, reply: Option<String>, stderr: Option<String>) {
        self.failed = true;
        let info = &self.shared.info;
        if self.shared.broken.swap(true, Ordering::SeqCst) && lock(&info.failure).is_some() {
            return;
        }
        let failure = BotFailure {
            bot: self.shared.spec.to_string(),
            command: info.command.clone(),
            game: self.game,
            seat: self.seat.index(),
            what,
            request: request.then(|| String::from_utf8_lossy(&self.msg).into_owned()),
            reply,
            stderr,
        };
        lock(&info.failure).get_or_insert(failure);
    }

    /// Sends the message in `self.msg`; with `reply`, reads and returns the answer.
    fn exchange(&mut self, reply: bool) -> Option<String> {
        if self.failed {
            return None;
        }
        let p = self.proc.clone()?;
        let mut proc = lock(&p);
        if proc.dead {
            drop(proc);
            self.failed = true;
            return None;
        }
        if let Err(e) = proc.send(&self.msg) {
            let what = proc.write_failed(&e);
            let err = proc.kill();
            drop(proc);
            self.fail(what, true, None, err);
            return None;
        }
        if !reply {
            return None;
        }
        match proc.read_line(self.shared.info.settings.timeout) {
            // Anything after the answer answers nothing: a second answer written with the first.
            Ok(line) if !proc.buf.is_empty() => {
                let extra = proc.unexpected().ok().flatten();
                let err = proc.kill();
                drop(proc);
                self.fail(
                    format!("wrote a line when no reply was expected (after its answer {})", clip(&line)),
                    true,
                    extra,
                    err,
                );
                None
            }
            Ok(line) => Some(line),
            Err(e) => {
                let timeout =
                    format!("reply within {} s (--bot-timeout)", self.shared.info.settings.timeout.as_secs_f64());
                let (what, reply) = e.what(&mut proc, &timeout);
                let err = proc.kill();
                drop(proc);
                self.fail(what, true, reply, err);
                None
            }
        }
    }

    /// Fails the bot if it has written anything since its last answer, looking without
    /// waiting: done before each message is written into `self.msg` (which still holds the
    /// last request, the one the stray line followed). Whether to go on.
    fn quiet(&mut self) -> bool {
        if self.failed {
            return false;
        }
        let Some(p) = self.proc.clone() else { return true };
        let mut proc = lock(&p);
        if proc.dead {
            drop(proc);
            self.failed = true;
            return false;
        }
        let (what, line) = match proc.unexpected() {
            Ok(None) => return true,
            Ok(Some(line)) => ("wrote a line when no reply was expected".to_string(), Some(line)),
            Err(e) => e.what(&mut proc, "reply"),
        };
        let err = proc.kill();
        drop(proc);
        let sent = !self.msg.is_empty();
        self.fail(what, sent, line, err);
        false
    }

    /// Fails with a bad reply, killing the process.
    fn bad_reply(&mut self, what: String, line: String) {
        let err = self.proc.as_ref().and_then(|p| lock(p).kill());
        self.fail(what, true, Some(line), err);
    }
}

impl Strategy for ExtBot {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
        if !self.quiet() {
            return 0;
        }
        protocol::decide(&mut self.msg, self.round, view, &self.events, moves);
        self.events.clear();
        let Some(line) = self.exchange(true) else { return 0 };
        let v: serde_json::Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                self.bad_reply(format!("replied with malformed JSON ({e})"), line);
                return 0;
            }
        };
        match v.get("move").and_then(serde_json::Value::as_u64) {
            Some(i) if (i as usize) < moves.len() => i as usize,
            Some(i) => {
                self.bad_reply(format!("chose move {i}, but only moves 0 to {} were offered", moves.len() - 1), line);
                0
            }
            None => {
                self.bad_reply("replied without a non-negative integer \"move\"".into(), line);
                0
            }
        }
    }

    fn round_start(&mut self, view: &View<'_>) {
        self.round += 1;
        self.engine = view.engine().1;
        self.events.clear();
        if !self.quiet() {
            return;
        }
        protocol::round_start(&mut self.msg, self.round, view);
        self.exchange(false);
    }

    fn match_start(&mut self, start: &MatchStart<'_>) {
        self.seat = start.seat;
        self.game = start.game;
        self.round = 0;
        self.players = start.rules.players as usize;
        self.events.clear();
        if self.failed {
            return;
        }
        match acquire(&self.shared) {
            Ok(p) => self.proc = Some(p),
            Err((what, reply, stderr)) => {
                self.fail(what, false, reply, stderr);
                return;
            }
        }
        if !self.quiet() {
            return;
        }
        protocol::match_start(&mut self.msg, start);
        self.exchange(false);
    }

    /// A program is told the voids and the events; whether it draws on a random stream of
    /// its own is its business (seeded from [`MatchStart::seed`]), so the engine assumes it
    /// may.
    fn needs(&self) -> Needs {
        Needs::SAFE.events(true)
    }

    fn observe(&mut self, events: &[SeenEvent]) {
        if self.failed {
            return;
        }
        self.events.extend_from_slice(events);
        if events.iter().any(|e| matches!(e, SeenEvent::Open(Event::RoundEnd { .. }))) {
            if !self.quiet() {
                return;
            }
            protocol::round_end(&mut self.msg, self.seat, self.round, self.engine, self.players, &self.events);
            self.events.clear();
            self.exchange(false);
        }
    }

    fn has_failed(&self) -> bool {
        self.failed
    }
}
