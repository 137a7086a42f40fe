//! What every durable run shares on the command line (tournament, balance, tune), written once:
//! a [`Durable`] command catches signals from its first moment and checks the output options;
//! [`drive`] hands the run to the library's driver ([`crate::job`]) with the threads, stop
//! flags, checkpoint interval and a progress bar, prints its header and report, and says what a
//! stopped run saved and how to go on. Each subcommand only turns its arguments into a
//! [`Start`] and names its kind.

use super::signals::Stop;
use super::{CliError, EXIT_BOT_FAILED, EXIT_INTERRUPTED};
use crate::job::{self, Ending, Job, JobError, Options, Start};
use crate::report::manifest::{Invocation, Started};
use crate::store::{Kind, Progress};
use crate::strategies::Registry;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Seconds between checkpoints when `--checkpoint` is not given.
pub(crate) const DEFAULT_CHECKPOINT: f64 = 60.0;

/// A durable command from its first moment: signals caught, output options checked, the clock
/// started.
pub(crate) struct Durable<'a> {
    /// The kind of run.
    pub(crate) kind: Kind,
    /// The signals that stop it.
    pub(crate) stop: Stop,
    /// When it started.
    pub(crate) started: Started,
    /// Worker threads.
    pub(crate) threads: usize,
    /// The whole command line.
    pub(crate) raw: &'a [String],
    /// The subcommand's own arguments.
    pub(crate) raw_sub: Vec<String>,
    /// No progress bar or timing line.
    pub(crate) quiet: bool,
}

/// The options every durable command has, as given.
pub(crate) struct Common<'a> {
    /// `--out`.
    pub(crate) out: Option<&'a Path>,
    /// `--resume`.
    pub(crate) resume: Option<&'a Path>,
    /// `--threads`.
    pub(crate) threads: Option<usize>,
    /// `--quiet`.
    pub(crate) quiet: bool,
    /// Options that need a folder, new or resumed (`--checkpoint`), and whether each was given.
    pub(crate) with_folder: &'a [(&'a str, bool)],
    /// Options that act on a new folder only (`--force`), and whether each was given.
    pub(crate) new_folder: &'a [(&'a str, bool)],
}

impl<'a> Durable<'a> {
    /// Starts the command `kind` of the command line `raw`: signals are caught from here on (one
    /// that arrives while the run is set up stops it as soon as it starts, with what it has
    /// saved), and the output options are checked.
    pub(crate) fn start(kind: Kind, raw: &'a [String], c: &Common<'_>) -> Result<Durable<'a>, CliError> {
        let stop = Stop::install();
        super::needs_out(c.out, c.resume, c.with_folder, c.new_folder)?;
        let raw_sub = raw.iter().skip_while(|s| s.as_str() != kind.name).skip(1).cloned().collect();
        Ok(Durable {
            kind,
            stop,
            started: Started::now(),
            threads: c.threads.unwrap_or_else(super::all_cores),
            raw,
            raw_sub,
            quiet: c.quiet,
        })
    }

    /// The invocation, for manifests.
    pub(crate) fn invocation(&self) -> Invocation<'_> {
        Invocation { subcommand: self.kind.name, command: self.raw, started: self.started, threads: self.threads }
    }

    /// The timing line on stderr (unless quiet): `played` units (games, matches) in `elapsed`.
    pub(crate) fn timing(&self, played: u64, unit: &str, elapsed: Duration) {
        if !self.quiet {
            let s = elapsed.as_secs_f64();
            eprintln!(
                "played {played} {unit} in {s:.2} s: {:.0} {unit}/s on {} thread{}",
                played as f64 / s.max(1e-9),
                self.threads,
                if self.threads == 1 { "" } else { "s" }
            );
        }
    }
}

/// The arguments that determine results (for --resume): drops threads, output and progress.
pub(crate) fn result_args(raw: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in raw {
        if skip {
            skip = false;
            continue;
        }
        let name = a.split('=').next().unwrap_or("");
        match name {
            "--threads" | "--out" | "--resume" | "--bot-timeout" | "--checkpoint" if !a.contains('=') => skip = true,
            "--threads" | "--out" | "--resume" | "--bot-timeout" | "--checkpoint" | "--quiet" | "--force" => {}
            _ => out.push(a.clone()),
        }
    }
    out
}

/// Writes `text` to stdout at once (a header before a long run, a report after it).
pub(crate) fn print_now(text: &str) {
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let _ = lock.write_all(text.as_bytes());
    let _ = lock.flush();
}

impl From<crate::store::FolderError> for CliError {
    fn from(e: crate::store::FolderError) -> CliError {
        CliError::usage(e.0)
    }
}

pub(crate) use crate::job::without_option;

/// Refuses a `--resume` whose command line (`raw_sub`, the subcommand's arguments) gives a
/// setting other than those a resume may change: every other setting comes from the stored run.
fn check_resume_args(raw_sub: &[String], kind: Kind) -> Result<(), CliError> {
    let extra = without_option(&result_args(raw_sub), "--ext-bot");
    if !extra.is_empty() {
        return Err(CliError::usage(format!(
            "--resume takes every setting from the {} it continues; drop {} (only --threads, --checkpoint, --bot-timeout, --quiet and a corrected --ext-bot command may be given)",
            kind.described.trim_start_matches("a "),
            extra.join(" ")
        )));
    }
    Ok(())
}

impl From<JobError> for CliError {
    fn from(e: JobError) -> CliError {
        match e {
            JobError::Invalid(m) => CliError::usage(m),
            JobError::Failed(m) => CliError::failure(m),
            JobError::BotFailed(m) => CliError { code: EXIT_BOT_FAILED, message: m },
        }
    }
}

impl From<crate::store::WriteError> for CliError {
    fn from(e: crate::store::WriteError) -> CliError {
        CliError::from(JobError::from(e))
    }
}

/// The progress bar of the command line, as the driver's observer.
struct Bar(indicatif::ProgressBar);

impl Progress for Bar {
    fn begin(&self, total: u64, done: u64) {
        self.0.set_length(total);
        self.0.set_position(done);
    }
    fn advance(&self, n: u64) {
        self.0.inc(n);
    }
    fn extend(&self, n: u64) {
        self.0.inc_length(n);
    }
    fn stage(&self, what: &str) {
        self.0.set_message(what.to_string());
    }
    fn end(&self) {
        self.0.finish_and_clear();
    }
}

/// Runs the job `start` describes through the library's driver: the run checked and its folder
/// readied, its header printed, played with the command's threads, signals, checkpoints every
/// `checkpoint` seconds (default [`DEFAULT_CHECKPOINT`]), a progress bar and external bots that
/// time out after `timeout` seconds; then its report, and for a stopped run what was saved and
/// how to go on. The exit code: 0, or the signal's.
pub(crate) fn drive<J: Job>(
    d: &Durable<'_>,
    start: Start<J>,
    base: &Registry,
    checkpoint: Option<f64>,
    timeout: f64,
) -> Result<i32, CliError> {
    if matches!(start, Start::Resume { .. }) {
        check_resume_args(&d.raw_sub, d.kind)?;
    }
    let options = Options {
        stop: d.stop.stop.clone(),
        cut: d.stop.cut.clone(),
        checkpoint: Some(Duration::from_secs_f64(checkpoint.unwrap_or(DEFAULT_CHECKPOINT))),
        progress: Arc::new(Bar(super::progress_bar(d.quiet, 0, J::UNIT))),
        bot_timeout: Duration::from_secs_f64(timeout),
        ..Options::new(d.threads)
    };
    let mut run = job::prepare::<J>(start, base, options, d.invocation())?;
    for note in run.notes() {
        eprintln!("mtrain: note: {note}");
    }
    // What runs, before it runs: a long run shows more than a progress bar.
    print_now(&run.header());
    let started = Instant::now();
    match run.play()? {
        Ending::Complete { report, played } => {
            print_now(&report);
            if let Some(n) = played {
                d.timing(n, J::UNIT, started.elapsed());
            }
            Ok(0)
        }
        Ending::Stopped { report, saved } => {
            print_now(&report);
            eprintln!("mtrain: interrupted: {}", run.resume_hint(&saved));
            Ok(d.stop.exit_code().unwrap_or(EXIT_INTERRUPTED))
        }
        Ending::BotFailed { report, message } => {
            print_now(&report);
            Err(CliError { code: EXIT_BOT_FAILED, message })
        }
        Ending::Shard { line } => {
            print_now(&(line + "\n"));
            Ok(0)
        }
    }
}
