//! `mtrain view LOG`: one self-contained HTML page that replays a logged match move by move.
//!
//! The Rust side only reads and checks the log (every line JSON, a known event with its fields),
//! picks the game, attaches the review rows of `--review` to the moves they name, and embeds
//! the game's log lines, as JSON strings, in the page template of `src/view_page/`. Everything
//! the page shows is computed in the browser by replaying those lines: no position is computed
//! here. The page needs no network: its CSS and script are inlined.
//!
//! The output never replaces a file that mtrain did not write: every page starts with the line
//! [`MARKER`], and an existing `--out` without it is refused.

use super::{AtomicFile, CliError, check_out_file};
use clap::Args;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The first line of every page `mtrain view` writes: what lets it replace its own pages, and
/// only those.
pub(crate) const MARKER: &str = "<!-- mtrain view -->";

const TEMPLATE: &str = include_str!("../view_page/viewer.html");
const CSS: &str = include_str!("../view_page/viewer.css");
const JS: &str = include_str!("../view_page/viewer.js");

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

/// What a field of an event must hold.
#[derive(Clone, Copy)]
enum Kind {
    Int,
    Str,
    Tile,
    /// A seat number (below the match's player count).
    Seat,
    /// A train: a seat number or a string id.
    Train,
    Tiles,
    Ints,
    Hands,
    Strs,
    Object,
}

/// Every event of docs/log-format.md with the fields the page reads.
fn fields(event: &str) -> Option<&'static [(&'static str, Kind)]> {
    use Kind::*;
    Some(match event {
        "match" => &[
            ("rules", Str),
            ("set", Int),
            ("players", Int),
            ("hand", Int),
            ("rounds", Int),
            ("seed", Int),
            ("bots", Strs),
            ("options", Object),
        ],
        "round" => &[("round", Int), ("engine", Int), ("hands", Hands), ("boneyard", Tiles)],
        "engine" => &[("seat", Seat), ("tile", Tile)],
        "play" => &[("seat", Seat), ("tile", Tile), ("train", Train), ("end", Int)],
        "draw" => &[("seat", Seat), ("tile", Tile)],
        "mark" | "unmark" | "pass" | "skip" => &[("seat", Seat)],
        "branch" => &[("train", Train), ("value", Int), ("branches", Strs), ("root", Train)],
        "penalty" => &[("seat", Seat), ("tiles", Tiles)],
        "round_end" => &[("reason", Str), ("scores", Ints)],
        "match_end" => &[("totals", Ints), ("winners", Ints)],
        _ => return None,
    })
}

const EVENTS: &str =
    "match, round, engine, play, draw, mark, unmark, pass, branch, penalty, skip, round_end, match_end";

fn is_tile(s: &str) -> bool {
    s.split_once('-').is_some_and(|(a, b)| {
        [a, b].iter().all(|h| !h.is_empty() && h.len() <= 2 && h.bytes().all(|c| c.is_ascii_digit()))
    })
}

/// Whether `v` holds what `kind` asks, with `players` seats.
fn fits(v: &Value, kind: Kind, players: u64) -> bool {
    let tiles = |v: &Value| v.as_array().is_some_and(|a| a.iter().all(|t| t.as_str().is_some_and(is_tile)));
    match kind {
        Kind::Int => v.is_u64() || v.is_i64(),
        Kind::Str => v.is_string(),
        Kind::Tile => v.as_str().is_some_and(is_tile),
        Kind::Seat => v.as_u64().is_some_and(|s| s < players),
        Kind::Train => v.as_u64().is_some_and(|s| s < players) || v.as_str().is_some_and(|s| !s.is_empty()),
        Kind::Tiles => tiles(v),
        Kind::Ints => v.as_array().is_some_and(|a| a.iter().all(|x| x.is_i64() || x.is_u64())),
        Kind::Hands => v.as_array().is_some_and(|a| a.len() as u64 == players && a.iter().all(tiles)),
        Kind::Strs => v.as_array().is_some_and(|a| a.iter().all(Value::is_string)),
        Kind::Object => v.is_object(),
    }
}

fn kind_text(kind: Kind, players: u64) -> String {
    match kind {
        Kind::Int => "a whole number".into(),
        Kind::Str => "a string".into(),
        Kind::Tile => "a tile like \"3-12\"".into(),
        Kind::Seat => format!("a seat number from 0 to {}", players.saturating_sub(1)),
        Kind::Train => "a train (a seat number or a name like \"mexican\")".into(),
        Kind::Tiles => "an array of tiles".into(),
        Kind::Ints => "an array of whole numbers".into(),
        Kind::Hands => format!("an array of {players} hands"),
        Kind::Strs => "an array of strings".into(),
        Kind::Object => "an object".into(),
    }
}

/// One game of the log: its lines and where they are in the file.
struct Game {
    /// The `game` field of its `match` line, as written (tournament logs), if any.
    number: Option<String>,
    /// The 1-based file line number of each of its events, `match` first.
    line_numbers: Vec<u64>,
    /// The lines themselves, as in the file.
    lines: Vec<String>,
}

/// Reads and checks every line of the log; returns its games in file order.
fn read_games(path: &Path) -> Result<Vec<Game>, CliError> {
    let name = path.display();
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_string(&mut text))
        .map_err(|e| CliError::usage(format!("cannot read the log '{name}': {}", crate::store::io_text(&e))))?;
    let mut games: Vec<Game> = Vec::new();
    let mut players = 0u64;
    for (i, raw) in text.lines().enumerate() {
        let n = i as u64 + 1;
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let at = |what: String| CliError::usage(format!("{name}:{n}: {what}"));
        let v: Value = serde_json::from_str(line)
            .map_err(|e| at(format!("not JSON ({})", crate::error::json_problem(line, &e))))?;
        let event = v
            .get("event")
            .and_then(Value::as_str)
            .ok_or_else(|| at("not a log event (no \"event\" field naming its kind)".into()))?;
        let Some(spec) = fields(event) else {
            return Err(at(format!("unknown event '{event}' (valid: {EVENTS})")));
        };
        if event == "match" {
            players = v.get("players").and_then(Value::as_u64).unwrap_or(0);
            if !(1..=64).contains(&players) {
                return Err(at("the match line's \"players\" is not a player count".into()));
            }
        } else if games.is_empty() {
            return Err(at(format!("a '{event}' event before the first match line")));
        }
        for &(field, kind) in spec {
            match v.get(field) {
                None => return Err(at(format!("the '{event}' event has no \"{field}\" field"))),
                Some(x) if !fits(x, kind, players) => {
                    return Err(at(format!(
                        "the '{event}' event's \"{field}\" is {x}, expected {}",
                        kind_text(kind, players)
                    )));
                }
                Some(_) => {}
            }
        }
        if event == "match" {
            let number = v.get("game").map(|g| g.to_string().trim_matches('"').to_string());
            games.push(Game { number, line_numbers: Vec::new(), lines: Vec::new() });
        }
        let game = games.last_mut().expect("a match line came first");
        game.line_numbers.push(n);
        game.lines.push(line.to_string());
    }
    if games.is_empty() {
        return Err(CliError::usage(format!("{name}: no match line: not an mtrain game log")));
    }
    if let Some(g) = games.iter().find(|g| !g.lines.iter().any(|l| l.contains("\"event\":\"match_end\""))) {
        return Err(CliError::usage(format!(
            "{name}: the game that starts at line {} has no match_end line: the log is cut short (a run killed while writing it, or a truncated file)",
            g.line_numbers[0]
        )));
    }
    Ok(games)
}

/// Refuses a review that does not belong to `game` of the log `log`: every row that names a
/// line of this game must find there the tile it says was played, by its seat (rows naming
/// other lines, another game's in a file of many, are left out as before); and a review with
/// rows must name some line of this game.
fn check_review_belongs(rows: &[ReviewRow], game: &Game, log: &Path, review: &Path) -> Result<(), CliError> {
    let refuse = |why: String| {
        CliError::usage(format!(
            "--review '{}' does not belong to '{}'{}: {why}",
            review.display(),
            log.display(),
            game.number.as_deref().map_or(String::new(), |g| format!(" (game {g})"))
        ))
    };
    // "3-6" and "6-3" are one tile.
    let tile = |t: &str| -> Option<(u8, u8)> {
        let (a, b) = t.split_once('-')?;
        let (a, b): (u8, u8) = (a.parse().ok()?, b.parse().ok()?);
        Some((a.min(b), a.max(b)))
    };
    let mut landed = 0;
    for r in rows {
        let Ok(i) = game.line_numbers.binary_search(&r.line) else { continue };
        landed += 1;
        let Some(played) = r.played.split_whitespace().next().and_then(tile) else { continue };
        let v: serde_json::Value = serde_json::from_str(&game.lines[i]).unwrap_or_default();
        let logged = v.get("tile").and_then(|t| t.as_str()).and_then(tile);
        let seat = v.get("seat").and_then(serde_json::Value::as_u64);
        if logged != Some(played) || (r.seat.is_some() && seat != r.seat.map(u64::from)) {
            return Err(refuse(format!(
                "line {} of the log is not seat {} playing {} (the review's row says it is)",
                r.line,
                r.seat.map_or("?".into(), |s| s.to_string()),
                r.played
            )));
        }
    }
    if !rows.is_empty() && landed == 0 {
        return Err(refuse("none of its rows names a line of this game".into()));
    }
    Ok(())
}

/// The game numbers of a file, runs of consecutive numbers shortened ("0-15, 32").
fn numbers_text(games: &[Game]) -> String {
    let nums: Vec<u64> = games.iter().filter_map(|g| g.number.as_deref()?.parse().ok()).collect();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < nums.len() {
        let mut j = i;
        while j + 1 < nums.len() && nums[j + 1] == nums[j] + 1 {
            j += 1;
        }
        parts.push(if j > i { format!("{}-{}", nums[i], nums[j]) } else { nums[i].to_string() });
        i = j + 1;
    }
    parts.join(", ")
}

/// The columns every review row has.
const REVIEW_COLUMNS: [&str; 18] = [
    "game",
    "round",
    "decision",
    "seat",
    "line",
    "kind",
    "moves",
    "played",
    "best",
    "played_points",
    "best_points",
    "loss",
    "loss_lo",
    "loss_hi",
    "played_win",
    "best_win",
    "mistake",
    "worlds",
];

/// One row of a review.csv (extra columns are ignored).
#[derive(Debug, Deserialize, Serialize)]
struct ReviewRow {
    game: String,
    round: Option<u32>,
    decision: Option<u64>,
    seat: Option<u32>,
    line: u64,
    kind: String,
    moves: Option<u32>,
    played: String,
    best: String,
    played_points: Option<f64>,
    best_points: Option<f64>,
    loss: Option<f64>,
    loss_lo: Option<f64>,
    loss_hi: Option<f64>,
    played_win: Option<f64>,
    best_win: Option<f64>,
    mistake: Option<bool>,
    worlds: Option<u64>,
    /// `inaccuracy`, `mistake`, `blunder`, `unconfirmed` or empty (reviews before grades: absent).
    #[serde(default)]
    grade: Option<String>,
}

/// A review row as the page gets it: the move (index into the game's lines) it belongs to.
#[derive(Serialize)]
struct Annotation {
    #[serde(rename = "move")]
    index: usize,
    #[serde(flatten)]
    row: ReviewRow,
}

fn read_review(path: &Path) -> Result<Vec<ReviewRow>, CliError> {
    let name = path.display();
    let file = std::fs::File::open(path)
        .map_err(|e| CliError::usage(format!("cannot read --review '{name}': {}", crate::store::io_text(&e))))?;
    let mut rdr = csv::ReaderBuilder::new().from_reader(std::io::BufReader::new(file));
    let headers = rdr
        .headers()
        .map_err(|e| CliError::usage(format!("--review '{name}': {}", crate::error::csv_problem(&e))))?
        .clone();
    let missing: Vec<&str> =
        REVIEW_COLUMNS.iter().copied().filter(|c| !headers.iter().any(|h| h.trim() == *c)).collect();
    if !missing.is_empty() {
        return Err(CliError::usage(format!(
            "--review '{name}' lacks the column{} {} (a review CSV has: {})",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            REVIEW_COLUMNS.join(",")
        )));
    }
    let trimmed: csv::StringRecord = headers.iter().map(str::trim).collect();
    rdr.set_headers(trimmed);
    let mut rows = Vec::new();
    for r in rdr.deserialize::<ReviewRow>() {
        let row = r.map_err(|e| {
            let line = e.position().map_or(String::new(), |p| format!(":{}", p.line()));
            let what = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => {
                    let column = err.field().and_then(|f| headers.get(f as usize)).map(str::trim);
                    let why = match err.kind() {
                        csv::DeserializeErrorKind::Message(m) => m.clone(),
                        k => k.to_string(),
                    };
                    match column {
                        Some(c) => format!("column '{c}': {why}"),
                        None => why,
                    }
                }
                _ => e.to_string(),
            };
            CliError::usage(format!("--review {name}{line}: {what}"))
        })?;
        rows.push(row);
    }
    Ok(rows)
}

/// The page's data, embedded as JSON.
#[derive(Serialize)]
struct PageData<'a> {
    /// The log's file name, for the header.
    file: String,
    game: Option<&'a str>,
    /// The file line number of the game's `match` line.
    first_line: u64,
    /// The game's lines, as JSON strings (the page parses each; the seed is read from the text,
    /// as it may exceed what a JavaScript number holds).
    lines: &'a [String],
    review: Vec<Annotation>,
}

/// JSON safe inside a `<script>` element: no `<` at all (so no `</script>` or `<!--`), and
/// the two line separators JavaScript once treated as line ends escaped too.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c").replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// Refuses to replace a regular file that is not a page of `mtrain view`.
fn check_replaceable(out: &Path) -> Result<(), CliError> {
    let Ok(meta) = std::fs::metadata(out) else { return Ok(()) };
    if !meta.is_file() {
        return Ok(());
    }
    let mut head = Vec::new();
    let ours = std::fs::File::open(out)
        .and_then(|f| f.take(MARKER.len() as u64).read_to_end(&mut head))
        .is_ok_and(|_| head == MARKER.as_bytes());
    if ours {
        Ok(())
    } else {
        Err(CliError::usage(format!(
            "--out '{}' exists and is not a page mtrain view wrote: not replacing it (remove it or choose another --out)",
            out.display()
        )))
    }
}

/// The page for `data`.
fn page(data: &PageData<'_>) -> String {
    let json = serde_json::to_string(data).expect("page data serializes");
    // Placeholders go in one pass, so text inside the data or the script is never taken for one.
    let mut out = String::with_capacity(TEMPLATE.len() + CSS.len() + JS.len() + json.len());
    let mut rest = TEMPLATE;
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find("}}").map(|e| at + e + 2).expect("closed placeholder");
        match &rest[at..end] {
            "{{CSS}}" => out.push_str(CSS),
            "{{JS}}" => out.push_str(JS),
            "{{DATA}}" => out.push_str(&script_safe(&json)),
            other => panic!("unknown placeholder {other} in viewer.html"),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

pub(crate) fn run(args: &ViewArgs) -> Result<(), CliError> {
    let out = args.out.clone().unwrap_or_else(|| args.log.with_extension("html"));
    check_out_file("--out", &out)?;
    if std::fs::canonicalize(&out).ok().is_some_and(|o| std::fs::canonicalize(&args.log).ok() == Some(o)) {
        return Err(CliError::usage(format!("--out '{}' is the log itself: choose another --out", out.display())));
    }
    check_replaceable(&out)?;
    let games = read_games(&args.log)?;
    let game = match args.game {
        None => &games[0],
        Some(g) => {
            let want = g.to_string();
            games.iter().find(|x| x.number.as_deref() == Some(want.as_str())).ok_or_else(|| {
                let held = numbers_text(&games);
                CliError::usage(if held.is_empty() {
                    format!(
                        "--game {g}: '{}' holds {} game{} without game numbers (a play log): drop --game",
                        args.log.display(),
                        games.len(),
                        if games.len() == 1 { "" } else { "s" }
                    )
                } else {
                    format!("--game {g}: '{}' holds games {held}", args.log.display())
                })
            })?
        }
    };
    let rows = args.review.as_deref().map(read_review).transpose()?.unwrap_or_default();
    if let Some(review) = &args.review {
        check_review_belongs(&rows, game, &args.log, review)?;
    }
    let total_rows = rows.len();
    let review: Vec<Annotation> = rows
        .into_iter()
        .filter_map(|row| {
            let index = game.line_numbers.binary_search(&row.line).ok()?;
            Some(Annotation { index, row })
        })
        .collect();
    let data = PageData {
        file: args.log.file_name().map_or_else(|| args.log.display().to_string(), |f| f.to_string_lossy().into_owned()),
        game: game.number.as_deref(),
        first_line: game.line_numbers[0],
        lines: &game.lines,
        review,
    };
    let html = page(&data);
    let mut f = AtomicFile::create(&out)?;
    f.writer()
        .write_all(html.as_bytes())
        .map_err(|e| CliError::failure(format!("cannot write '{}': {}", out.display(), crate::store::io_text(&e))))?;
    f.commit()?;
    let which = game.number.as_deref().map_or(String::new(), |g| format!("game {g}, "));
    let notes = if args.review.is_some() {
        let shown = data.review.len();
        let skipped = total_rows - shown;
        let mistakes = data.review.iter().filter(|a| a.row.mistake == Some(true)).count();
        let mut s = format!(", {shown} review rows ({mistakes} mistakes)");
        if skipped > 0 {
            s.push_str(&format!("; {skipped} rows name lines outside this game and are left out"));
        }
        s
    } else {
        String::new()
    };
    let summary = format!("mtrain view: wrote {} ({which}{} moves{notes})", out.display(), game.lines.len() - 1);
    // A page written to stdout (`--out /dev/stdout`) is not followed by the summary there.
    if std::fs::metadata(&out).is_ok_and(|m| m.is_file()) {
        outln!("{summary}");
    } else {
        eprintln!("{summary}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_template_has_no_stray_closing_tags() {
        assert!(!JS.contains("</script"), "viewer.js must not close its script element");
        assert!(!CSS.contains("</style"), "viewer.css must not close its style element");
        assert!(TEMPLATE.starts_with(MARKER), "viewer.html must start with the marker line");
    }

    #[test]
    fn embedded_json_cannot_close_the_script() {
        let s = script_safe(r#"{"a":"</script><!--"}"#);
        assert!(!s.contains('<'));
        let back: Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["a"], "</script><!--");
    }

    #[test]
    fn tiles_are_checked() {
        assert!(is_tile("3-12") && is_tile("0-0"));
        assert!(!is_tile("3") && !is_tile("a-b") && !is_tile("-1") && !is_tile("1-"));
    }
}
