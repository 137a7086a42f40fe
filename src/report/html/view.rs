//! The game viewer: one self-contained HTML page that replays a logged match move by move
//! (`mtrain view LOG`, docs/viewer.md).
//!
//! The Rust side only reads and checks the log (every line JSON, a known event with its fields:
//! [`GameLog::parse`]), picks the game, attaches the rows of a review ([`Review::parse`]) to
//! the moves they name, and embeds the game's log lines, as JSON strings, in the page
//! ([`render`]): the shared shell of [`super::page`] around the body of `viewer.html`, with
//! `viewer.css` after the shared stylesheet and `viewer.js` inline. Everything the page shows
//! is computed in the browser by replaying those lines: no position is computed here. The page
//! needs no network and its policy forbids every fetch: its CSS and script are inlined.
//!
//! Every page starts with the line [`MARKER`]: `mtrain view` replaces a file only when it
//! begins with it ([`super::page::written_with`]).

use super::page::{self, Head};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The first line of every page `mtrain view` writes: what lets it replace its own pages, and
/// only those.
pub const MARKER: &str = "<!-- mtrain view -->";

/// The page's body, with the placeholders `{{DATA}}` and `{{JS}}`.
const TEMPLATE: &str = include_str!("viewer.html");
/// The page's own stylesheet, after [`page::BASE_CSS`].
const CSS: &str = include_str!("viewer.css");
/// The page's script: the replay and its controls.
const JS: &str = include_str!("viewer.js");
/// The table shared with the play page (`mtrain web`): the replay of events and the drawing of
/// trains; inlined before [`JS`].
pub(crate) const TABLE_JS: &str = include_str!("table.js");

/// Why a log or a review cannot be shown, in one line naming the file (and the line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ViewError(pub String);

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
        "tap" => &[("seat", Seat)],
        "round_end" => &[("reason", Str), ("scores", Ints)],
        "match_end" => &[("totals", Ints), ("winners", Ints)],
        _ => return None,
    })
}

const EVENTS: &str =
    "match, round, engine, play, draw, mark, unmark, pass, branch, penalty, tap, skip, round_end, match_end";

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
pub struct Game {
    /// The `game` field of its `match` line, as written (tournament logs), if any.
    number: Option<String>,
    /// The 1-based file line number of each of its events, `match` first.
    line_numbers: Vec<u64>,
    /// The lines themselves, as in the file.
    lines: Vec<String>,
}

impl Game {
    /// The `game` number of its `match` line (a tournament's log), if any.
    pub fn number(&self) -> Option<&str> {
        self.number.as_deref()
    }

    /// Its moves: the events after the `match` line.
    pub fn moves(&self) -> usize {
        self.lines.len() - 1
    }
}

/// A game log checked line by line: its games in file order (at least one, each ending in
/// `match_end`).
pub struct GameLog {
    games: Vec<Game>,
}

impl GameLog {
    /// Reads and checks every line of the log text `text`, of the file shown as `name`.
    ///
    /// # Errors
    /// A line that is not JSON, not an event of docs/log-format.md, or without a field the page
    /// reads (or with one of the wrong kind), naming `name` and the line; a log without a
    /// `match` line, or with a game cut short (no `match_end`).
    pub fn parse(name: &str, text: &str) -> Result<GameLog, ViewError> {
        let mut games: Vec<Game> = Vec::new();
        let mut players = 0u64;
        for (i, raw) in text.lines().enumerate() {
            let n = i as u64 + 1;
            let line = raw.trim_end_matches('\r');
            if line.trim().is_empty() {
                continue;
            }
            let at = |what: String| ViewError(format!("{name}:{n}: {what}"));
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
            return Err(ViewError(format!("{name}: no match line: not an mtrain game log")));
        }
        if let Some(g) = games.iter().find(|g| !g.lines.iter().any(|l| l.contains("\"event\":\"match_end\""))) {
            return Err(ViewError(format!(
                "{name}: the game that starts at line {} has no match_end line: the log is cut short (a run killed while writing it, or a truncated file)",
                g.line_numbers[0]
            )));
        }
        Ok(GameLog { games })
    }

    /// The games, in file order (never empty).
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    /// The game whose `match` line has the `game` number `number`.
    pub fn game(&self, number: u64) -> Option<&Game> {
        let want = number.to_string();
        self.games.iter().find(|g| g.number.as_deref() == Some(want.as_str()))
    }

    /// The game numbers of the file, runs of consecutive numbers shortened ("0-15, 32"); empty
    /// when its games have none (a play log).
    pub fn numbers_text(&self) -> String {
        let nums: Vec<u64> = self.games.iter().filter_map(|g| g.number.as_deref()?.parse().ok()).collect();
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
struct Annotation<'a> {
    #[serde(rename = "move")]
    index: usize,
    #[serde(flatten)]
    row: &'a ReviewRow,
}

/// The rows of a review.csv of `mtrain analyze --review` (one row per decision).
pub struct Review {
    rows: Vec<ReviewRow>,
}

impl Review {
    /// Reads the review CSV `csv`, of the file shown as `name`.
    ///
    /// # Errors
    /// A CSV that cannot be read, lacks one of the columns a review has, or has a value of the
    /// wrong kind (naming the line and the column). Each message begins with `name`.
    pub fn parse(name: &str, csv: impl std::io::Read) -> Result<Review, ViewError> {
        let mut rdr = csv::ReaderBuilder::new().from_reader(csv);
        let headers =
            rdr.headers().map_err(|e| ViewError(format!("'{name}': {}", crate::error::csv_problem(&e))))?.clone();
        let missing: Vec<&str> =
            REVIEW_COLUMNS.iter().copied().filter(|c| !headers.iter().any(|h| h.trim() == *c)).collect();
        if !missing.is_empty() {
            return Err(ViewError(format!(
                "'{name}' lacks the column{} {} (a review CSV has: {})",
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
                ViewError(format!("{name}{line}: {what}"))
            })?;
            rows.push(row);
        }
        Ok(Review { rows })
    }

    /// Refuses a review that does not belong to `game`: every row that names a line of this
    /// game must find there the tile it says was played, by its seat (rows naming other lines,
    /// another game's in a file of many, are left out as before); and a review with rows must
    /// name some line of this game.
    ///
    /// # Errors
    /// Why the review is not of this game.
    pub fn check_belongs(&self, game: &Game) -> Result<(), ViewError> {
        // "3-6" and "6-3" are one tile.
        let tile = |t: &str| -> Option<(u8, u8)> {
            let (a, b) = t.split_once('-')?;
            let (a, b): (u8, u8) = (a.parse().ok()?, b.parse().ok()?);
            Some((a.min(b), a.max(b)))
        };
        let mut landed = 0;
        for r in &self.rows {
            let Ok(i) = game.line_numbers.binary_search(&r.line) else { continue };
            landed += 1;
            let Some(played) = r.played.split_whitespace().next().and_then(tile) else { continue };
            let v: Value = serde_json::from_str(&game.lines[i]).unwrap_or_default();
            let logged = v.get("tile").and_then(|t| t.as_str()).and_then(tile);
            let seat = v.get("seat").and_then(Value::as_u64);
            if logged != Some(played) || (r.seat.is_some() && seat != r.seat.map(u64::from)) {
                return Err(ViewError(format!(
                    "line {} of the log is not seat {} playing {} (the review's row says it is)",
                    r.line,
                    r.seat.map_or("?".into(), |s| s.to_string()),
                    r.played
                )));
            }
        }
        if !self.rows.is_empty() && landed == 0 {
            return Err(ViewError("none of its rows names a line of this game".into()));
        }
        Ok(())
    }
}

/// The page's data, embedded as JSON.
#[derive(Serialize)]
struct PageData<'a> {
    /// The log's file name, for the header.
    file: &'a str,
    game: Option<&'a str>,
    /// The file line number of the game's `match` line.
    first_line: u64,
    /// The game's lines, as JSON strings (the page parses each; the seed is read from the text,
    /// as it may exceed what a JavaScript number holds).
    lines: &'a [String],
    review: Vec<Annotation<'a>>,
}

/// A page made by [`render`], and what it holds of the review.
pub struct Page {
    /// The page.
    pub html: String,
    /// The review's rows shown, each on the move of its line.
    pub review_rows: usize,
    /// Those of them that are mistakes.
    pub mistakes: usize,
    /// The review's rows left out: they name lines outside this game.
    pub left_out: usize,
}

/// The page of `game`, a game of the log whose file name is `file` (shown in its header), with
/// the rows of `review` on the moves of the lines they name. Check a review with
/// [`Review::check_belongs`] first.
pub fn render(file: &str, game: &Game, review: Option<&Review>) -> Page {
    let rows = review.map_or(&[][..], |r| &r.rows);
    let annotations: Vec<Annotation<'_>> = rows
        .iter()
        .filter_map(|row| Some(Annotation { index: game.line_numbers.binary_search(&row.line).ok()?, row }))
        .collect();
    let (review_rows, left_out) = (annotations.len(), rows.len() - annotations.len());
    let mistakes = annotations.iter().filter(|a| a.row.mistake == Some(true)).count();
    let data = PageData {
        file,
        game: game.number.as_deref(),
        first_line: game.line_numbers[0],
        lines: &game.lines,
        review: annotations,
    };
    let json = page::script_safe(&serde_json::to_string(&data).expect("page data serializes"));
    let head = Head { marker: MARKER, title: "mtrain view", css: CSS, script: true, body_class: None, wasm: false };
    let mut out = page::open(&head);
    out.reserve(TEMPLATE.len() + TABLE_JS.len() + JS.len() + json.len() + page::CLOSE.len());
    // Placeholders go in one pass, so text inside the data or the script is never taken for one.
    let mut rest = TEMPLATE;
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find("}}").map(|e| at + e + 2).expect("closed placeholder");
        match &rest[at..end] {
            "{{JS}}" => {
                out.push_str(TABLE_JS);
                out.push_str(JS);
            }
            "{{DATA}}" => out.push_str(&json),
            other => panic!("unknown placeholder {other} in viewer.html"),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.push_str(page::CLOSE);
    Page { html: out, review_rows, mistakes, left_out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_template_has_no_stray_closing_tags() {
        assert!(!JS.contains("</script"), "viewer.js must not close its script element");
        assert!(!TABLE_JS.contains("</script"), "table.js must not close its script element");
        assert!(!CSS.contains("</style"), "viewer.css must not close its style element");
        assert!(!TEMPLATE.contains("<body") && !TEMPLATE.contains("</body"), "viewer.html is the body's content");
    }

    #[test]
    fn tiles_are_checked() {
        assert!(is_tile("3-12") && is_tile("0-0"));
        assert!(!is_tile("3") && !is_tile("a-b") && !is_tile("-1") && !is_tile("1-"));
    }

    #[test]
    fn a_page_holds_the_game_and_its_review() {
        let log = concat!(
            r#"{"event":"match","rules":"wikipedia","set":6,"players":2,"hand":7,"rounds":1,"seed":7,"bots":["a","b"],"options":{}}"#,
            "\n",
            r#"{"event":"match_end","totals":[0,0],"winners":[0]}"#,
            "\n"
        );
        let games = GameLog::parse("g.jsonl", log).unwrap();
        let game = &games.games()[0];
        assert_eq!((game.number(), game.moves(), games.numbers_text()), (None, 1, String::new()));
        let page = render("g.jsonl", game, None);
        assert!(page.html.starts_with(MARKER));
        assert!(page.html.contains("\"file\":\"g.jsonl\",\"game\":null,\"first_line\":1,"));
        assert!(page.html.ends_with("</script>\n</body>\n</html>\n"));
        let err = GameLog::parse("g.jsonl", "{\"event\":\"teleport\"}\n").err().unwrap();
        assert!(err.0.starts_with("g.jsonl:1: unknown event 'teleport'"), "{err}");
    }
}
