//! What every durable run shares on the command line (tournament, balance, tune): the settings
//! a resume takes from the stored run, the folder checks, the header printed at once, and what
//! a stopped run says and returns. Each subcommand describes its job; these steps are written
//! once here.

use super::signals::Stop;
use super::{CliError, EXIT_INTERRUPTED};
use std::io::Write;
use std::path::Path;

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

/// Checks that `dir` can be written, creating it if needed; leaves nothing behind.
pub(crate) fn check_out_dir(dir: &Path) -> Result<(), CliError> {
    let fail = |e: std::io::Error| CliError::usage(format!("cannot write to --out '{}': {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(fail)?;
    let probe = dir.join(format!(".mtrain-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
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
pub(crate) fn resume_hint(command: &str, out: Option<&Path>, played: u64, planned: u64) -> String {
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
pub(crate) fn stopped(failed: Option<CliError>, hint: &str, stop: &Stop) -> Result<i32, CliError> {
    if let Some(mut e) = failed {
        e.message = format!("{}; {hint}", e.message);
        return Err(e);
    }
    eprintln!("mtrain: interrupted: {hint}");
    Ok(stop.exit_code().unwrap_or(EXIT_INTERRUPTED))
}

/// The `tally.json` text of the `what` (run, sweep) in `dir` that `--resume` continues, after
/// checking that the command line (`raw_sub`, the subcommand's arguments) gives no setting but
/// those a resume may change.
pub(crate) fn stored_state(dir: &Path, raw_sub: &[String], what: &str) -> Result<String, CliError> {
    stored_state_file(dir, raw_sub, what, "tally.json")
}

/// As [`stored_state`], for the state file `file`.
pub(crate) fn stored_state_file(dir: &Path, raw_sub: &[String], what: &str, file: &str) -> Result<String, CliError> {
    let extra = without_option(&result_args(raw_sub), "--ext-bot");
    if !extra.is_empty() {
        return Err(CliError::usage(format!(
            "--resume takes every setting from the {what} it continues; drop {} (only --threads, --checkpoint, --bot-timeout, --quiet and a corrected --ext-bot command may be given)",
            extra.join(" ")
        )));
    }
    std::fs::read_to_string(dir.join(file))
        .map_err(|e| CliError::usage(format!("cannot resume from '{}': no readable {file} ({e})", dir.display())))
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

/// The stored arguments of a run with the command of each external bot in `new` replaced (a
/// bot fixed after it stopped the run keeps its name, so the run is the same run). A name the
/// run does not define is refused.
pub(crate) fn replace_ext_bots(
    stored: &[String],
    new: &[crate::external::ExternalSpec],
) -> Result<Vec<String>, CliError> {
    let mut out = Vec::new();
    let mut names = Vec::new();
    let mut it = stored.iter();
    while let Some(a) = it.next() {
        let (value, joined) = if a == "--ext-bot" {
            (it.next().cloned().unwrap_or_default(), false)
        } else if let Some(v) = a.strip_prefix("--ext-bot=") {
            (v.to_string(), true)
        } else {
            out.push(a.clone());
            continue;
        };
        let name = value.split_once('=').map_or(value.as_str(), |(n, _)| n.trim()).to_string();
        let value = match new.iter().find(|n| n.name == name) {
            Some(n) => format!("{}={}", n.name, n.command),
            None => value,
        };
        names.push(name);
        if joined {
            out.push(format!("--ext-bot={value}"));
        } else {
            out.extend(["--ext-bot".to_string(), value]);
        }
    }
    if let Some(n) = new.iter().find(|n| !names.contains(&n.name)) {
        let known = if names.is_empty() { "none".to_string() } else { names.join(", ") };
        return Err(CliError::usage(format!(
            "--resume: the run has no external bot '{}' to give a new command (its external bots: {known})",
            n.name
        )));
    }
    Ok(out)
}

/// `w` as one shell word: as is when it holds only safe characters, else in single quotes.
pub(crate) fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// The stored arguments of a run (`args`, without the program and subcommand), parsed as
/// `mtrain SUBCOMMAND` parses its command line, the options taken by `pick`; `what` names the
/// arguments in errors (run, sweep, tuning) and `kind` the run (a tournament, a balance sweep).
pub(crate) fn stored_args<T>(
    subcommand: &str,
    (what, kind): (&str, &str),
    args: &[String],
    pick: impl FnOnce(super::Command) -> Option<T>,
) -> Result<T, CliError> {
    use clap::Parser;
    let argv: Vec<String> = ["mtrain", subcommand].iter().map(|s| s.to_string()).chain(args.iter().cloned()).collect();
    let cli = super::Cli::try_parse_from(&argv)
        .map_err(|e| CliError::usage(format!("the stored {what} arguments no longer parse: {}", e.kind())))?;
    pick(cli.command).ok_or_else(|| CliError::usage(format!("the stored {what} arguments are not {kind}")))
}
