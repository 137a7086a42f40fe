//! `mtrain view LOG`: one self-contained HTML page that replays a logged match move by move.
//!
//! The page is built by [`crate::report::html::view`] from the log and the review; this file
//! parses the arguments, reads the files, picks the game, writes the page atomically, and only
//! over a page `mtrain view` wrote (its first line is [`MARKER`]), and prints what it wrote.

use super::{AtomicFile, CliError, check_out_file};
use crate::report::html::page::written_with;
use crate::report::html::view::{GameLog, MARKER, Review, render};
use clap::Args;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Options of `mtrain view`.
#[derive(Args, Debug)]
pub(crate) struct ViewArgs {
    /// The JSONL game log: from `mtrain play --log FILE`, or a file of `mtrain tournament
    /// --log-games DIR` (several games one after another)
    #[arg(value_name = "LOG")]
    log: PathBuf,
    /// The HTML file to write [default: LOG with the extension .html]. An existing file is
    /// replaced only if it is a page `mtrain view` wrote
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// The game to show, by the `game` number of its `match` line (tournament logs)
    /// [default: the first game in the file]
    #[arg(long, value_name = "G")]
    game: Option<u64>,
    /// Review annotations: a review.csv of `mtrain analyze --review` (one row per decision),
    /// shown on the moves they name
    #[arg(long, value_name = "CSV")]
    review: Option<PathBuf>,
}

/// Refuses to replace a regular file that is not a page of `mtrain view`.
fn check_replaceable(out: &Path) -> Result<(), CliError> {
    let Ok(meta) = std::fs::metadata(out) else { return Ok(()) };
    if !meta.is_file() || written_with(out, MARKER).is_ok_and(|ours| ours) {
        return Ok(());
    }
    Err(CliError::usage(format!(
        "--out '{}' exists and is not a page mtrain view wrote: not replacing it (remove it or choose another --out)",
        out.display()
    )))
}

pub(crate) fn run(args: &ViewArgs) -> Result<(), CliError> {
    let out = args.out.clone().unwrap_or_else(|| args.log.with_extension("html"));
    check_out_file("--out", &out)?;
    if std::fs::canonicalize(&out).ok().is_some_and(|o| std::fs::canonicalize(&args.log).ok() == Some(o)) {
        return Err(CliError::usage(format!("--out '{}' is the log itself: choose another --out", out.display())));
    }
    check_replaceable(&out)?;
    let name = args.log.display().to_string();
    let mut text = String::new();
    std::fs::File::open(&args.log)
        .and_then(|mut f| f.read_to_string(&mut text))
        .map_err(|e| CliError::usage(format!("cannot read the log '{name}': {}", crate::store::io_text(&e))))?;
    let log = GameLog::parse(&name, &text).map_err(|e| CliError::usage(e.to_string()))?;
    let game = match args.game {
        None => &log.games()[0],
        Some(g) => log.game(g).ok_or_else(|| {
            let held = log.numbers_text();
            let n = log.games().len();
            CliError::usage(if held.is_empty() {
                format!(
                    "--game {g}: '{name}' holds {n} game{} without game numbers (a play log): drop --game",
                    if n == 1 { "" } else { "s" }
                )
            } else {
                format!("--game {g}: '{name}' holds games {held}")
            })
        })?,
    };
    let review = match &args.review {
        None => None,
        Some(path) => {
            let shown = path.display();
            let file = std::fs::File::open(path).map_err(|e| {
                CliError::usage(format!("cannot read --review '{shown}': {}", crate::store::io_text(&e)))
            })?;
            let review = Review::parse(&shown.to_string(), std::io::BufReader::new(file))
                .map_err(|e| CliError::usage(format!("--review {e}")))?;
            review.check_belongs(game).map_err(|why| {
                let which = game.number().map_or(String::new(), |g| format!(" (game {g})"));
                CliError::usage(format!("--review '{shown}' does not belong to '{name}'{which}: {why}"))
            })?;
            Some(review)
        }
    };
    let file = args.log.file_name().map_or_else(|| name.clone(), |f| f.to_string_lossy().into_owned());
    let page = render(&file, game, review.as_ref());
    let mut f = AtomicFile::create(&out)?;
    f.writer()
        .write_all(page.html.as_bytes())
        .map_err(|e| CliError::failure(format!("cannot write '{}': {}", out.display(), crate::store::io_text(&e))))?;
    f.commit()?;
    let which = game.number().map_or(String::new(), |g| format!("game {g}, "));
    let notes = if review.is_some() {
        let mut s = format!(", {} review rows ({} mistakes)", page.review_rows, page.mistakes);
        if page.left_out > 0 {
            s.push_str(&format!("; {} rows name lines outside this game and are left out", page.left_out));
        }
        s
    } else {
        String::new()
    };
    let summary = format!("mtrain view: wrote {} ({which}{} moves{notes})", out.display(), game.moves());
    // A page written to stdout (`--out /dev/stdout`) is not followed by the summary there.
    if std::fs::metadata(&out).is_ok_and(|m| m.is_file()) {
        outln!("{summary}");
    } else {
        eprintln!("{summary}");
    }
    Ok(())
}
