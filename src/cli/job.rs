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

/// `w` as one shell word: as is when it holds only safe characters, else in single quotes.
pub(crate) fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}
