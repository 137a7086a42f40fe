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
pub(crate) mod compare;
pub(crate) mod durable;
mod eval;
mod human;
mod label;
mod limits;
pub(crate) mod merge;
mod play;
mod plot;
mod report_page;
mod rules;
mod save;
mod shard;
mod signals;
mod strategies;
mod tournament;
mod tune;
pub(crate) mod values;
mod view;
mod web;

use crate::external::{BotSetup, ExternalBots, ExternalSpec, ExternalSpecError, Settings, StderrTo};
use crate::rules::{RuleErrors, Rules, TableError, TableSpec};
use crate::strategies::Registry;
use clap::{Args, Parser, Subcommand};
use std::ffi::OsString;
use std::path::Path;

/// mtrain: a Monte Carlo strategy simulator and tournament runner for Mexican Train.
#[derive(Parser, Debug)]
#[command(name = "mtrain", version = env!("MTRAIN_VERSION_LINE"), about, long_about = None)]
pub(crate) struct Cli {
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
    /// Compare two or more rule sets on the same deals: what a house rule changes, with
    /// intervals and verdicts at a margin, and a summary in plain words.
    Compare(compare::CompareArgs),
    /// Rate a bot under the standard evaluation (mtrain-eval v1) against frozen baselines:
    /// score and Elo difference per preset, table size and baseline, and one rating.
    Eval(eval::EvalArgs),
    /// Write training labels for a learned evaluation: positions from matches a bot plays, each
    /// with its observation, the hidden hands and what playouts of the true round say it is worth.
    Label(label::LabelArgs),
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
    /// Write the play page: one self-contained HTML file that plays Mexican Train in the browser
    /// against mtrain's bots, with hints, save and resume (docs/web.md).
    Web(web::WebArgs),
}

/// Exit code of a run stopped by a failing bot (an external program that could not start,
/// crashed, timed out, broke the protocol or chose a move it was not offered).
pub(crate) const EXIT_BOT_FAILED: i32 = 3;

/// Exit code of a run stopped by Ctrl-C (or SIGTERM) after saving its work.
pub(crate) const EXIT_INTERRUPTED: i32 = 130;

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
pub(crate) struct CliError {
    /// Exit code: 2 for bad input, 1 for other failures, [`EXIT_BOT_FAILED`] for a failing
    /// bot.
    pub(crate) code: i32,
    /// One line.
    pub(crate) message: String,
}

impl CliError {
    /// Bad input (exit code 2).
    pub(crate) fn usage(message: impl Into<String>) -> CliError {
        CliError { code: 2, message: message.into() }
    }

    /// A failure that is not the user's input (exit code 1).
    pub(crate) fn failure(message: impl Into<String>) -> CliError {
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
            crate::store::io_text(&e)
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

/// Runs the `mtrain` command line `args` (program name first) with the built-in bots, as the
/// binary does, and returns the exit code: see [`run_command_line_with`](crate::run_command_line_with)
/// (feature `cli`, on by default).
///
/// # Examples
///
/// The whole `mtrain` binary:
///
/// ```no_run
/// std::process::exit(mexican_train::run_command_line(std::env::args_os()));
/// ```
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    run_with(&Registry::builtin(), args)
}

/// Runs the command line `args` (program name first) with the bots of `registry`: the whole
/// `mtrain` command line, every subcommand, with a user's own bots in it (feature `cli`, on by
/// default). Returns the exit code: 0 done, 1 a failure, 2 bad input (one line on stderr names
/// it), 3 a failing bot (an external program that could not start, crashed, timed out or broke
/// the protocol), 4 a merge that lacks shards (without `--partial`), 130 stopped by Ctrl-C or
/// SIGTERM after saving its work.
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
/// std::process::exit(mexican_train::run_command_line_with(&registry, std::env::args_os()));
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
        Command::Compare(a) => compare::run(&a, &raw, registry),
        Command::Eval(a) => eval::run(&a, &raw, registry),
        Command::Label(a) => label::run(&a, &raw, registry),
        Command::Strategies(a) => strategies::run(&a, registry).map(|()| 0),
        Command::Plot(a) => plot::run(&a).map(|()| 0),
        Command::Bench(a) => bench::run(&a, &raw, registry).map(|()| 0),
        Command::Tune(a) => tune::run(&a, &raw, registry),
        Command::Report(a) => report_page::run(&a),
        Command::Analyze(a) => analyze::run(&a, registry).map(|()| 0),
        Command::View(a) => view::run(&a).map(|()| 0),
        Command::Web(a) => web::run(&a).map(|()| 0),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mtrain: {}", e.message);
            e.code
        }
    }
}

pub(crate) use crate::store::AtomicFile;

/// Writes `contents` to `path`, a file the user named, atomically ([`crate::store::write_atomic`]).
pub(crate) fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), CliError> {
    Ok(crate::store::write_atomic(path, contents)?)
}
