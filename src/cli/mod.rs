//! The command line: one file per subcommand. `main.rs` only calls [`run`].
//!
//! Every error a user can cause is reported as one line naming the problem and the valid
//! choices, with exit code 2; nothing half-written is left behind.

/// `print!` to stdout that ignores a reader who stopped reading (`mtrain ... | head`): the
/// standard macro panics on a closed pipe, which would stop a run before it writes its files.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}

/// `println!` that ignores a closed stdout, as [`out!`].
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

mod analyze;
pub(crate) mod balance;
mod bench;
mod human;
pub(crate) mod job;
mod limits;
pub(crate) mod merge;
mod play;
mod plot;
mod report_page;
mod rules;
mod shard;
mod signals;
mod strategies;
mod tournament;
mod tune;
pub(crate) mod values;
mod view;

use crate::external::{BotSetup, ExternalBots, ExternalSpec, ExternalSpecError, Settings, StderrTo};
use crate::rules::{RuleErrors, Rules, TableError, TableSpec};
use crate::strategies::Registry;
use clap::{Args, Parser, Subcommand};
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, TryLockError};

/// mtrain: a Monte Carlo strategy simulator and tournament runner for Mexican Train.
#[derive(Parser, Debug)]
#[command(name = "mtrain", version = env!("MTRAIN_VERSION_LINE"), about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Play one match and print a transcript a person can follow.
    Play(play::PlayArgs),
    /// Play many seeded games in parallel and report who wins, by how much, how surely.
    Tournament(tournament::TournamentArgs),
    /// Combine the output directories of tournament shards into one result.
    Merge(merge::MergeArgs),
    /// List the rules presets, or print every parameter of one with its value and source.
    Rules(rules::RulesArgs),
    /// Sweep hand sizes per player count: fairness and playability with intervals, a
    /// recommended hand size per player count, and plots.
    Balance(balance::BalanceArgs),
    /// List the built-in bots with their idea, parameters and defaults.
    Strategies(strategies::StrategiesArgs),
    /// Draw an SVG chart (lines or dots, with interval bars) from a CSV that mtrain wrote.
    Plot(plot::PlotArgs),
    /// Measure engine throughput: rounds, matches and decisions per second per thread count.
    Bench(bench::BenchArgs),
    /// Tune a bot's numeric parameters by SPSA on duplicate deals, then confirm the gain on
    /// fresh deals with an SPRT.
    Tune(tune::TuneArgs),
    /// Write one self-contained HTML page (report.html) for a tournament, balance, tune or ladder folder.
    Report(report_page::ReportArgs),
    /// What should be played here: every legal move's round-win probability and points with
    /// intervals, for a position from a game log or a position file; or a review of a logged
    /// game's decisions.
    Analyze(analyze::AnalyzeArgs),
    /// Write one self-contained HTML page that replays a logged match move by move (docs/viewer.md).
    View(view::ViewArgs),
}

/// Exit code of a run stopped by a failing bot (an external program that could not start,
/// crashed, timed out, broke the protocol or chose a move it was not offered).
pub const EXIT_BOT_FAILED: i32 = 3;

/// Exit code of a run stopped by Ctrl-C (or SIGTERM) after saving its work.
pub const EXIT_INTERRUPTED: i32 = 130;

/// The options that bring external bots in, shared by every command that plays.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct BotArgs {
    /// Define bot NAME as an external program speaking the bot protocol (docs/bot-protocol.md),
    /// usable in --bots like any other, with parameters (NAME:key=value) passed on to it.
    /// COMMAND is split into words as a shell would (quotes, backslashes) but run without a
    /// shell, e.g. --ext-bot mine='python3 my_bot.py' (repeatable)
    #[arg(long = "ext-bot", value_name = "NAME=COMMAND", value_parser = ext_spec)]
    ext_bot: Vec<ExternalSpec>,
    /// Seconds an external bot may take to start and to answer each request before the run
    /// stops with that bot's failure
    #[arg(long, default_value = "10", value_name = "S", value_parser = values::timeout, allow_hyphen_values = true)]
    bot_timeout: f64,
    /// Name a bot spec: NAME stands for SPEC in --bots, and tables, CSVs and plots show NAME
    /// (the manifest and the `spec` column of summary.csv and ratings.csv keep SPEC), e.g.
    /// --name tuned=weighted:pips=0.46,urgent=1.9 --bots tuned,expert (repeatable)
    #[arg(long = "name", value_name = "NAME=SPEC", value_parser = name_spec)]
    name: Vec<(String, String)>,
}

fn name_spec(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(n, spec)| (n.trim().to_string(), spec.trim().to_string()))
        .filter(|(n, spec)| !n.is_empty() && !spec.is_empty())
        .ok_or_else(|| format!("expected NAME=SPEC, e.g. tuned=weighted:pips=0.5, not '{s}'"))
}

fn ext_spec(s: &str) -> Result<ExternalSpec, ExternalSpecError> {
    s.parse()
}

impl BotArgs {
    /// The `--ext-bot` definitions.
    pub(crate) fn ext_bots(&self) -> &[ExternalSpec] {
        &self.ext_bot
    }

    /// `base` with the external bots added; their stderr goes to `stderr`.
    pub(crate) fn registry(&self, base: &Registry, stderr: StderrTo) -> Result<(Registry, ExternalBots), CliError> {
        self.registry_with(base, stderr, self.bot_timeout)
    }

    /// As [`BotArgs::registry`], with `timeout` seconds in place of `--bot-timeout`.
    pub(crate) fn registry_with(
        &self,
        base: &Registry,
        stderr: StderrTo,
        timeout: f64,
    ) -> Result<(Registry, ExternalBots), CliError> {
        let settings = Settings { timeout: std::time::Duration::from_secs_f64(timeout), stderr };
        self.setup().registry(base, &settings).map_err(CliError::usage)
    }

    /// The bots these options add, as data.
    pub(crate) fn setup(&self) -> BotSetup {
        BotSetup {
            ext: self.ext_bot.iter().map(|e| (e.name.clone(), e.command.clone())).collect(),
            names: self.name.clone(),
        }
    }

    /// Seconds an external bot may take (`--bot-timeout`).
    pub(crate) fn timeout(&self) -> f64 {
        self.bot_timeout
    }
}

/// The failure of an external bot, if one stopped the run, as the error to report.
pub(crate) fn bot_failure(ext: &ExternalBots) -> Option<CliError> {
    ext.failure().map(|f| CliError { code: EXIT_BOT_FAILED, message: f.to_string() })
}

/// A failure to report: the message (one line) and the exit code.
#[derive(Debug)]
pub struct CliError {
    /// Exit code: 2 for bad input, 1 for other failures, [`EXIT_BOT_FAILED`] for a failing
    /// bot.
    pub code: i32,
    /// One line.
    pub message: String,
}

impl CliError {
    /// Bad input (exit code 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError { code: 2, message: message.into() }
    }

    /// A failure that is not the user's input (exit code 1).
    pub fn failure(message: impl Into<String>) -> CliError {
        CliError { code: 1, message: message.into() }
    }
}

impl From<crate::tournament::SessionError> for CliError {
    fn from(e: crate::tournament::SessionError) -> CliError {
        match e {
            crate::tournament::SessionError::Refused(m) => CliError::usage(m),
            crate::tournament::SessionError::Io(m) => CliError::failure(m),
        }
    }
}

impl From<RuleErrors> for CliError {
    fn from(e: RuleErrors) -> CliError {
        CliError::usage(e.to_string())
    }
}

/// The table every playing subcommand sets up: rules preset, set, players, hand, rounds.
#[derive(Args, Debug, Clone)]
pub(crate) struct TableArgs {
    /// Rules preset [valid: celko1998, wikipedia, dominorules, family_house, harbour_cay]
    #[arg(long, default_value = "wikipedia", value_name = "PRESET")]
    rules: String,
    /// Change one rule of the preset, e.g. --rule marker_removal=any_play_on_train (repeatable;
    /// `mtrain rules PRESET` lists the keys, values and sources; options that disagree are refused)
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rule: Vec<String>,
    /// Domino set: double-M [valid: 6, 9, 12, 15, 18]
    #[arg(long, default_value = "12", value_name = "M", value_parser = values::set, allow_hyphen_values = true)]
    set: u8,
    /// Number of players [valid: 2 to 16, as the preset's deal table allows for the set]
    #[arg(long, default_value = "4", value_name = "N", value_parser = values::players, allow_hyphen_values = true)]
    players: u8,
    /// Tiles dealt to each player [default: the preset's deal table; the set and player count
    /// must still be ones the preset deals]
    #[arg(long, value_name = "H", value_parser = values::hand, allow_hyphen_values = true)]
    hand: Option<u8>,
    /// Rounds to play [default: every double from the highest down to 0-0]
    #[arg(long, value_name = "K", value_parser = values::rounds, allow_hyphen_values = true)]
    rounds: Option<u8>,
}

pub(crate) use crate::report::changes_text;

/// The one progress bar of every long run (tournament, balance, tune): on stderr when it is a
/// terminal and `--quiet` is not given, counting `unit` (games, iterations) of `len`, with their
/// rate and the time left; its message names the part running (a sweep's cell).
pub(crate) fn progress_bar(quiet: bool, len: u64, unit: &'static str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let pb = indicatif::ProgressBar::new(len);
    let template = format!(
        "{{elapsed_precise}} [{{wide_bar}}] {{human_pos}}/{{human_len}} {unit}  {{rate}}  {{msg}}  ETA {{eta}}"
    );
    pb.set_style(
        indicatif::ProgressStyle::with_template(&template)
            .expect("template")
            .with_key("rate", move |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} {unit}/s", s.per_sec());
            })
            .progress_chars("=> "),
    );
    pb
}

/// The table a subcommand plays, parsed once from [`TableArgs`]: the rules, and the `--rule`
/// options as applied (each once, in the order first given), which headers, logs and manifests
/// name as the user gave them.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    /// The validated rules.
    pub(crate) rules: Rules,
    /// The `--rule` options as applied.
    pub(crate) changes: Vec<(String, String)>,
}

impl TableArgs {
    /// The table as data.
    pub(crate) fn spec(&self) -> TableSpec {
        TableSpec {
            preset: self.rules.clone(),
            set: self.set,
            players: self.players,
            hand: self.hand,
            rounds: self.rounds,
            rules: self.rule.clone(),
        }
    }

    /// Parses the options once: the rules, built and validated, and the changes applied.
    pub(crate) fn table(&self) -> Result<Table, CliError> {
        let (rules, changes) = self.spec().build().map_err(|e| match e {
            TableError::Input(e) => CliError::usage(e),
            TableError::Rules(e) => CliError::from(e),
        })?;
        Ok(Table { rules, changes })
    }
}

/// Checks that an output file can be created at `path` (named by `flag`): not a folder, in a
/// folder that exists. Run before any work, so that bad paths cost nothing.
pub(crate) fn check_out_file(flag: &str, path: &Path) -> Result<(), CliError> {
    if path.is_dir() {
        return Err(CliError::usage(format!("{flag} '{}' is a folder: give a file name", path.display())));
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(CliError::usage(format!(
            "cannot write {flag} '{}': the folder '{}' does not exist",
            path.display(),
            parent.display()
        )));
    }
    Ok(())
}

/// Refuses to replace an existing regular file at `path` (named by `flag`) that mtrain did not
/// write, unless `force`: `ours` judges the file's first 4 KiB (as text), `what` names the kind
/// of file in the message. A missing file, a device or a pipe passes (nothing to protect). Run
/// before any work.
pub(crate) fn refuse_foreign_file(
    flag: &str,
    path: &Path,
    force: bool,
    what: &str,
    ours: impl Fn(&str) -> bool,
) -> Result<(), CliError> {
    use std::io::Read;
    let Ok(meta) = std::fs::metadata(path) else { return Ok(()) };
    if force || !meta.is_file() {
        return Ok(());
    }
    let mut head = Vec::with_capacity(4096);
    std::fs::File::open(path).and_then(|f| f.take(4096).read_to_end(&mut head)).map_err(|e| {
        CliError::usage(format!(
            "cannot read {flag} '{}' to check it before replacing it: {}",
            path.display(),
            crate::job::io_text(&e)
        ))
    })?;
    if ours(&String::from_utf8_lossy(&head)) {
        return Ok(());
    }
    Err(CliError::usage(format!(
        "{flag} '{}' exists and is not {what} mtrain wrote: not replacing it (remove it, choose another {flag}, or add --force)",
        path.display()
    )))
}

/// Refuses options that act only on an output folder when there is none, and `--out` beside
/// `--resume` (a resumed run writes into the folder it continues). `with_resume` lists options
/// a resumed run's folder also serves (e.g. `--checkpoint`); `new_out` those that serve only a
/// new `--out` (e.g. `--force`). Each entry is the flag and whether it was given.
pub(crate) fn needs_out(
    out: Option<&Path>,
    resume: Option<&Path>,
    with_resume: &[(&str, bool)],
    new_out: &[(&str, bool)],
) -> Result<(), CliError> {
    if let (Some(o), Some(r)) = (out, resume) {
        return Err(CliError::usage(format!(
            "--resume writes into the folder it continues ('{}'): drop --out '{}'",
            r.display(),
            o.display()
        )));
    }
    for &(flag, given) in with_resume {
        if given && out.is_none() && resume.is_none() {
            return Err(CliError::usage(format!(
                "{flag} acts on the output folder, but no --out was given: add --out DIR"
            )));
        }
    }
    for &(flag, given) in new_out {
        if given && out.is_none() {
            return Err(CliError::usage(if resume.is_some() {
                format!("{flag} acts on a new --out folder, and --resume continues its own: drop {flag}")
            } else {
                format!("{flag} acts on a new --out folder, but no --out was given: add --out DIR or drop {flag}")
            }));
        }
    }
    Ok(())
}

/// Every core.
pub(crate) fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs the command line `args` (program name first) with the built-in bots; returns the exit
/// code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    run_with(&Registry::builtin(), args)
}

/// Runs the command line `args` (program name first) with the bots of `registry`: the whole
/// `mtrain` command line, every subcommand, with a user's own bots in it. Returns the exit
/// code (0 done, 2 bad input, 1 other failure, [`EXIT_BOT_FAILED`], [`EXIT_INTERRUPTED`]).
///
/// # Examples
///
/// A program of one's own that is `mtrain` plus a bot (`examples/custom_bot.rs` in full):
///
/// ```no_run
/// use mexican_train::strategies::Registry;
/// # #[derive(Clone)] struct Mine;
/// # impl mexican_train::Strategy for Mine {
/// #     fn choose(&mut self, _: &mexican_train::View<'_>, _: &mexican_train::MoveList, _: &mut mexican_train::GameRng) -> usize { 0 }
/// # }
/// let mut registry = Registry::builtin();
/// registry.add("mine", "my own way of playing", &[], |_spec| Ok(Mine));
/// std::process::exit(mexican_train::cli::run_with(&registry, std::env::args_os()));
/// ```
pub fn run_with<I, T>(registry: &Registry, args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let raw: Vec<String> = args.into_iter().map(|a| a.into().to_string_lossy().into_owned()).collect();
    // A negative number given to a numeric option (`--tolerance -1`) reaches the option's value
    // parser, which names the option and its range, instead of being taken for a flag.
    let cli = {
        use clap::{CommandFactory, FromArgMatches};
        let cmd = Cli::command().allow_negative_numbers(true).mut_subcommands(|c| c.allow_negative_numbers(true));
        cmd.try_get_matches_from(&raw).and_then(|m| Cli::from_arg_matches(&m))
    };
    let cli = match cli {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return 0;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return 2;
            }
            // One line: clap's first paragraph (the message and, for missing arguments, their
            // list), with the pointer to --help.
            let text = e.render().to_string();
            let mut para = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim);
            let head = para.next().unwrap_or("").trim_start_matches("error: ").trim_end_matches(':');
            let list: Vec<&str> = para.collect();
            let first = if list.is_empty() { head.to_string() } else { format!("{head}: {}", list.join(", ")) };
            // Point at the help that describes the option: the subcommand's, when there is one.
            use clap::CommandFactory;
            let sub = raw.get(1).filter(|w| Cli::command().get_subcommands().any(|c| c.get_name() == w.as_str()));
            let help = sub.map_or("mtrain --help".to_string(), |s| format!("mtrain {s} --help"));
            eprintln!("mtrain: {} (see {help})", if first.is_empty() { "invalid arguments" } else { first.as_str() });
            return 2;
        }
    };
    let result = match cli.command {
        Command::Play(a) => play::run(&a, registry).map(|()| 0),
        Command::Tournament(a) => tournament::run(&a, &raw, registry),
        Command::Merge(a) => merge::run(&a, &raw, registry),
        Command::Rules(a) => rules::run(&a).map(|()| 0),
        Command::Balance(a) => balance::run(&a, &raw, registry),
        Command::Strategies(a) => strategies::run(&a, registry).map(|()| 0),
        Command::Plot(a) => plot::run(&a).map(|()| 0),
        Command::Bench(a) => bench::run(&a, &raw, registry).map(|()| 0),
        Command::Tune(a) => tune::run(&a, &raw, registry),
        Command::Report(a) => report_page::run(&a),
        Command::Analyze(a) => analyze::run(&a, registry).map(|()| 0),
        Command::View(a) => view::run(&a).map(|()| 0),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mtrain: {}", e.message);
            e.code
        }
    }
}

/// A file written under a temporary name and renamed into place only when complete.
///
/// Only a regular file (or a new name) is ever replaced: a destination that is a symbolic link is
/// followed (the file it points at is written, the link stays), and one that is a device, a FIFO
/// or a socket (`/dev/stdout`, a named pipe) is written directly, in place, since renaming over it
/// would replace something mtrain did not make.
///
/// The temporary file goes when the value is dropped unfinished, and also when the process
/// panics: release builds abort on a panic without running `Drop`, so every unfinished
/// temporary file is registered with a panic hook that removes it before the abort. (A process
/// killed by a signal it cannot catch still leaves its `NAME.PID.tmp`.)
pub(crate) struct AtomicFile {
    /// The temporary file; the destination itself when it is written directly.
    tmp: PathBuf,
    /// Where the file goes (the final target of a symbolic link).
    dest: PathBuf,
    /// Whether `dest` is written in place (a device, FIFO or socket).
    direct: bool,
    file: Option<BufWriter<File>>,
}

/// The path a chain of symbolic links at `path` ends at (the path itself when it is no link),
/// whether or not that final file exists yet.
fn link_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    // The kernel's own limit on links followed in one lookup.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = if to.is_absolute() { to } else { p.parent().unwrap_or(Path::new(".")).join(to) };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// The temporary files of unfinished [`AtomicFile`]s, for the panic hook.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unfinished() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    UNFINISHED.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Installs, once, the panic hook that removes unfinished temporary files and then reports
/// the panic as before.
fn install_cleanup_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            remove_unfinished();
        }));
    });
}

/// Removes every registered temporary file. Never blocks: a panic raised while the registry
/// is locked (by this thread) skips the cleanup rather than deadlock.
fn remove_unfinished() {
    let list = match UNFINISHED.try_lock() {
        Ok(l) => l,
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
        Err(TryLockError::WouldBlock) => return,
    };
    for tmp in list.iter() {
        let _ = std::fs::remove_file(tmp);
    }
}

impl AtomicFile {
    /// A file inside a run's folder (its CSVs, state, plots, game logs): whatever is at `path`
    /// (a link planted there, a pipe) is replaced when the file is committed, never followed or
    /// written through, so nothing outside the folder can be reached by its names.
    pub(crate) fn create_in_folder(path: &Path) -> Result<AtomicFile, CliError> {
        let cannot = |e: std::io::Error| {
            CliError::usage(format!("cannot write '{}': {}", path.display(), crate::job::io_text(&e)))
        };
        AtomicFile::through_temporary(path, |tmp| {
            // The temporary name too is created afresh: an entry already there (a link) is removed.
            if std::fs::symlink_metadata(tmp).is_ok() {
                std::fs::remove_file(tmp).map_err(cannot)?;
            }
            std::fs::OpenOptions::new().write(true).create_new(true).open(tmp).map_err(cannot)
        })
    }

    /// The file `dest` written under a temporary name beside it (`open` creates that file),
    /// renamed to `dest` on commit; the temporary file is on the panic hook's list meanwhile.
    fn through_temporary(
        dest: &Path,
        open: impl FnOnce(&Path) -> Result<File, CliError>,
    ) -> Result<AtomicFile, CliError> {
        let name =
            dest.file_name().ok_or_else(|| CliError::usage(format!("invalid output file '{}'", dest.display())))?;
        let mut tmp_name = name.to_os_string();
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = dest.with_file_name(tmp_name);
        install_cleanup_hook();
        let mut list = unfinished();
        let file = open(&tmp)?;
        list.push(tmp.clone());
        Ok(AtomicFile { tmp, dest: dest.to_path_buf(), direct: false, file: Some(BufWriter::new(file)) })
    }

    /// A file the user named: a link is followed (the file it points to is replaced), and a
    /// device or pipe is written in place.
    pub(crate) fn create(given: &Path) -> Result<AtomicFile, CliError> {
        let cannot = |e: std::io::Error| {
            CliError::usage(format!("cannot write '{}': {}", given.display(), crate::job::io_text(&e)))
        };
        // Something that is not a regular file (a device, a FIFO, a socket, also reached through
        // a link such as /dev/stdout) is written in place.
        if std::fs::metadata(given).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let file = std::fs::OpenOptions::new().write(true).open(given).map_err(cannot)?;
            return Ok(AtomicFile {
                tmp: given.to_path_buf(),
                dest: given.to_path_buf(),
                direct: true,
                file: Some(BufWriter::new(file)),
            });
        }
        let dest = &link_target(given).map_err(cannot)?;
        AtomicFile::through_temporary(dest, |tmp| {
            File::create(tmp)
                .map_err(|e| CliError::usage(format!("cannot write '{}': {}", dest.display(), crate::job::io_text(&e))))
        })
    }

    pub(crate) fn writer(&mut self) -> &mut BufWriter<File> {
        self.file.as_mut().expect("open")
    }

    pub(crate) fn commit(mut self) -> Result<(), CliError> {
        let mut w = self.file.take().expect("open");
        if self.direct {
            // A device or pipe: what was written is flushed; there is nothing to rename or sync.
            return w.flush().map_err(|e| {
                CliError::failure(format!("cannot write '{}': {}", self.dest.display(), crate::job::io_text(&e)))
            });
        }
        let done = w.flush().and_then(|_| w.get_ref().sync_all()).and_then(|_| std::fs::rename(&self.tmp, &self.dest));
        if done.is_err() {
            let _ = std::fs::remove_file(&self.tmp);
        }
        self.forget_tmp();
        done.map_err(|e| {
            CliError::failure(format!("cannot write '{}': {}", self.dest.display(), crate::job::io_text(&e)))
        })
    }

    /// Takes the temporary file off the panic hook's list.
    fn forget_tmp(&self) {
        let mut list = unfinished();
        if let Some(i) = list.iter().position(|t| *t == self.tmp) {
            list.swap_remove(i);
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() && !self.direct {
            let _ = std::fs::remove_file(&self.tmp);
            self.forget_tmp();
        }
    }
}

/// Writes `contents` to `path`, a file of a run's folder, atomically, replacing (never
/// following) whatever is at `path` ([`AtomicFile::create_in_folder`]).
pub(crate) fn write_in_folder(path: &Path, contents: &[u8]) -> Result<(), CliError> {
    let mut f = AtomicFile::create_in_folder(path)?;
    f.writer()
        .write_all(contents)
        .map_err(|e| CliError::failure(format!("cannot write '{}': {}", path.display(), crate::job::io_text(&e))))?;
    f.commit()
}

/// Writes `contents` to `path` atomically.
pub(crate) fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), CliError> {
    let mut f = AtomicFile::create(path)?;
    f.writer()
        .write_all(contents)
        .map_err(|e| CliError::failure(format!("cannot write '{}': {}", path.display(), crate::job::io_text(&e))))?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_removes_unfinished_temporary_files() {
        let dir = std::env::temp_dir().join(format!("mtrain-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("log.jsonl");
        let mut f = AtomicFile::create(&dest).unwrap();
        f.writer().write_all(b"half a line").unwrap();
        let tmp = f.tmp.clone();
        assert!(tmp.exists());
        // What `panic = "abort"` does: no destructor runs. The hook must clean up alone.
        std::mem::forget(f);
        let caught = std::panic::catch_unwind(|| panic!("deliberate panic: the hook removes temporary files"));
        assert!(caught.is_err());
        assert!(!tmp.exists(), "{} left behind after a panic", tmp.display());
        assert!(!dest.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_committed_file_is_off_the_list() {
        let dir = std::env::temp_dir().join(format!("mtrain-atomic-commit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("out.csv");
        let mut f = AtomicFile::create(&dest).unwrap();
        f.writer().write_all(b"a,b\n").unwrap();
        let tmp = f.tmp.clone();
        f.commit().unwrap();
        assert!(dest.exists() && !tmp.exists());
        assert!(!unfinished().contains(&tmp));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
