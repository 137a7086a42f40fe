//! What every durable run shares on the command line (tournament, balance, tune), written once:
//! a [`Durable`] command catches signals from its first moment, checks the output options,
//! opens the stored run a `--resume` continues ([`crate::job::Folder`]), gives the run its
//! threads, stop flags, checkpoint interval and progress bar, and says what a stopped run saved
//! and how to go on. Each subcommand only turns its arguments into a job, runs it, and prints its
//! report.

use super::signals::Stop;
use super::{CliError, EXIT_INTERRUPTED};
use crate::job::{Folder, Kind};
use crate::report::manifest::{Invocation, Started};
use crate::tournament::RunOptions;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

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

    /// The folder `dir` of the run `--resume` continues and its state file's text, after
    /// checking that the command line gives no setting but those a resume may change.
    pub(crate) fn stored(&self, dir: &Path) -> Result<(Folder, String), CliError> {
        stored(dir, &self.raw_sub, self.kind)
    }

    /// The invocation, for manifests.
    pub(crate) fn invocation(&self) -> Invocation<'_> {
        Invocation { subcommand: self.kind.name, command: self.raw, started: self.started, threads: self.threads }
    }

    /// How the run plays: the threads, the stop flags, and with a folder a checkpoint every
    /// `checkpoint` seconds (default [`DEFAULT_CHECKPOINT`]).
    pub(crate) fn options(&self, folder: bool, checkpoint: Option<f64>) -> RunOptions {
        RunOptions {
            stop: self.stop.stop.clone(),
            cut: self.stop.cut.clone(),
            checkpoint: folder.then(|| Duration::from_secs_f64(checkpoint.unwrap_or(DEFAULT_CHECKPOINT))),
            ..RunOptions::new(self.threads)
        }
    }

    /// A progress bar of `len` `unit`s on stderr (hidden when quiet or not a terminal).
    pub(crate) fn progress(&self, len: u64, unit: &'static str) -> indicatif::ProgressBar {
        super::progress_bar(self.quiet, len, unit)
    }

    /// The end of a run stopped early, by a failing bot (`failed`) or a signal: what `out`
    /// saved (`played` of `planned` games) and the `--resume` command that goes on.
    pub(crate) fn stopped(
        &self,
        failed: Option<CliError>,
        out: Option<&Path>,
        played: u64,
        planned: u64,
    ) -> Result<i32, CliError> {
        stopped(failed, &resume_hint(self.kind.name, out, played, planned), &self.stop)
    }

    /// The exit code of a run a signal stopped, after `mtrain: interrupted LINE` on stderr.
    pub(crate) fn interrupted(&self, line: &str) -> i32 {
        eprintln!("mtrain: interrupted {line}");
        self.stop.exit_code().unwrap_or(EXIT_INTERRUPTED)
    }

    /// The timing line on stderr (unless quiet): `played` games in `elapsed`.
    pub(crate) fn timing(&self, played: u64, elapsed: Duration) {
        if !self.quiet {
            let s = elapsed.as_secs_f64();
            eprintln!(
                "played {played} games in {s:.2} s: {:.0} games/s on {} thread{}",
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

/// What a stopped run saved and how to go on, in words: `played` of `planned` games, and the
/// `--resume` command of `command` on `out` (or that nothing was saved without one).
fn resume_hint(command: &str, out: Option<&Path>, played: u64, planned: u64) -> String {
    match out {
        Some(dir) => format!(
            "{played} of {planned} games played and saved; continue with: mtrain {command} --resume {}",
            shell_word(&dir.display().to_string())
        ),
        None => format!("{played} of {planned} games played; without --out nothing was saved to resume from"),
    }
}

/// The end of a run stopped early: by a failing bot (its one-line error, with `hint`), or by a
/// signal (`hint` on stderr, which a redirected stdout does not swallow, and the signal's exit
/// code).
fn stopped(failed: Option<CliError>, hint: &str, stop: &Stop) -> Result<i32, CliError> {
    if let Some(mut e) = failed {
        e.message = format!("{}; {hint}", e.message);
        return Err(e);
    }
    eprintln!("mtrain: interrupted: {hint}");
    Ok(stop.exit_code().unwrap_or(EXIT_INTERRUPTED))
}

/// The folder `dir` of the run of `kind` that `--resume` continues, and its state file's text,
/// after checking that the command line (`raw_sub`, the subcommand's arguments) gives no
/// setting but those a resume may change.
fn stored(dir: &Path, raw_sub: &[String], kind: Kind) -> Result<(Folder, String), CliError> {
    let extra = without_option(&result_args(raw_sub), "--ext-bot");
    if !extra.is_empty() {
        return Err(CliError::usage(format!(
            "--resume takes every setting from the {} it continues; drop {} (only --threads, --checkpoint, --bot-timeout, --quiet and a corrected --ext-bot command may be given)",
            kind.described.trim_start_matches("a "),
            extra.join(" ")
        )));
    }
    Ok(Folder::open(dir, kind)?)
}

impl From<crate::job::FolderError> for CliError {
    fn from(e: crate::job::FolderError) -> CliError {
        CliError::usage(e.0)
    }
}

/// `args` without any option `flag` (`--flag VALUE` or `--flag=VALUE`).
pub(crate) fn without_option(args: &[String], flag: &str) -> Vec<String> {
    let joined = format!("{flag}=");
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == flag {
            it.next();
        } else if !a.starts_with(&joined) {
            out.push(a.clone());
        }
    }
    out
}

/// `w` as one shell word: as is when it holds only safe characters, else in single quotes.
pub(crate) fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}
