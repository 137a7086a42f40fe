//! `mtrain report DIR`: one self-contained HTML page for a run folder (a tournament, a balance
//! sweep, a tuning run, or the ladder study), written to `DIR/report.html` or `--out FILE`.
//!
//! The page is built by [`crate::report::html`] from the folder's own files. It is written
//! atomically, and only over a page `mtrain report` wrote (its first line is
//! [`MARKER`]): any other file by that name is left alone and the command refused, as is a
//! folder that is not a run folder, each with one line and exit code 2.

use super::{CliError, check_out_file, write_atomic};
use crate::report::html::page::written_with;
use crate::report::html::{MARKER, render};
use clap::Args;
use std::path::{Path, PathBuf};

/// Options of `mtrain report`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ReportArgs {
    /// The run folder: the --out of mtrain tournament, balance, tune or merge, or the ladder
    /// study's folder (results/ladder)
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The HTML file to write [default: DIR/report.html]; an existing file is replaced only if
    /// mtrain report wrote it
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Writes the report; returns the exit code.
pub(crate) fn run(a: &ReportArgs) -> Result<i32, CliError> {
    let out = a.out.clone().unwrap_or_else(|| a.dir.join("report.html"));
    // The folder first: a wrong folder is named before anything about the output.
    crate::report::html::RunFolder::of(&a.dir).map_err(|e| CliError::usage(e.to_string()))?;
    check_out_file("--out", &out)?;
    refuse_foreign(&out)?;
    let page_dir = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let (html, kind) = render(&a.dir, page_dir).map_err(|e| CliError::usage(e.to_string()))?;
    write_atomic(&out, html.as_bytes())?;
    outln!("mtrain report: wrote {} ({} report of '{}')", out.display(), kind.name(), a.dir.display());
    Ok(0)
}

/// Refuses to replace a regular file at `out` that is not a page `mtrain report` wrote.
fn refuse_foreign(out: &Path) -> Result<(), CliError> {
    // Only a regular file (or one a link points at) is replaced; a device or pipe is written in
    // place, and nothing is there to protect.
    let Ok(meta) = std::fs::metadata(out) else { return Ok(()) };
    if !meta.is_file() {
        return Ok(());
    }
    let ours = written_with(out, MARKER).map_err(|e| {
        CliError::usage(format!(
            "cannot read '{}' to check it before replacing it: {}",
            out.display(),
            crate::store::io_text(&e)
        ))
    })?;
    if !ours {
        return Err(CliError::usage(format!(
            "'{}' exists and is not a page mtrain report wrote (its first line is not {MARKER}): give another --out or move the file away",
            out.display()
        )));
    }
    Ok(())
}
