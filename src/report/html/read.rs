//! Reading a run folder's files for the report: CSV tables by column name (the csv crate) and
//! JSON files (serde), each failure one line naming the file and what is wrong with it.
//!
//! The report shows what the files say: a table is read as text, and a number is parsed only
//! to be formatted (a percentage, fewer decimals), never recomputed.

use super::ReportError;
use serde::de::DeserializeOwned;
use std::path::Path;

/// A CSV file of a run folder, read whole.
pub(super) struct Csv {
    /// Where it is, for messages.
    shown: String,
    header: Vec<String>,
    rows: Vec<csv::StringRecord>,
}

/// One row of a [`Csv`], read by column name.
#[derive(Clone, Copy)]
pub(super) struct Row<'a> {
    table: &'a Csv,
    /// The row's index (0 = the first after the header).
    index: usize,
}

impl Csv {
    /// Reads `dir/name`.
    ///
    /// # Errors
    /// A file that is missing, unreadable, or not CSV.
    pub(super) fn read(dir: &Path, name: &str) -> Result<Csv, ReportError> {
        let path = dir.join(name);
        let shown = path.display().to_string();
        let text = crate::store::read_regular(&path)
            .map_err(|e| ReportError(format!("cannot read '{shown}': {}", crate::store::io_text(&e))))?;
        let mut r = csv::ReaderBuilder::new().has_headers(true).from_reader(text.as_bytes());
        let bad = |e: csv::Error| {
            ReportError(format!(
                "cannot read '{shown}': not a CSV table mtrain writes ({})",
                crate::error::csv_problem(&e)
            ))
        };
        let header: Vec<String> = r.headers().map_err(bad)?.iter().map(str::to_string).collect();
        let rows = r.records().collect::<Result<Vec<_>, _>>().map_err(bad)?;
        Ok(Csv { shown, header, rows })
    }

    /// Reads `dir/name` when it exists, and checks that it has every column of `cols`.
    ///
    /// # Errors
    /// As [`Csv::read`] and [`Csv::require`], for a file that exists.
    pub(super) fn read_optional(dir: &Path, name: &str, cols: &[&str]) -> Result<Option<Csv>, ReportError> {
        if std::fs::symlink_metadata(dir.join(name)).is_err() {
            return Ok(None);
        }
        let csv = Csv::read(dir, name)?;
        csv.require(cols)?;
        Ok(Some(csv))
    }

    /// Checks that every column of `cols` is in the header, so that rows can be read by name.
    ///
    /// # Errors
    /// The first missing column, naming the file.
    pub(super) fn require(&self, cols: &[&str]) -> Result<&Csv, ReportError> {
        match cols.iter().find(|c| !self.has(c)) {
            Some(c) => Err(ReportError(format!(
                "'{}' has no column '{c}' (its columns: {}): not a file this mtrain writes",
                self.shown,
                self.header.join(", ")
            ))),
            None => Ok(self),
        }
    }

    /// Whether the header has column `col`.
    pub(super) fn has(&self, col: &str) -> bool {
        self.header.iter().any(|h| h == col)
    }

    /// The rows, in file order.
    pub(super) fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        (0..self.rows.len()).map(move |index| Row { table: self, index })
    }

    /// The number of rows.
    pub(super) fn len(&self) -> usize {
        self.rows.len()
    }

    /// The row at `index`.
    pub(super) fn row(&self, index: usize) -> Option<Row<'_>> {
        (index < self.rows.len()).then_some(Row { table: self, index })
    }
}

impl<'a> Row<'a> {
    /// The text of column `col` (empty when the column is missing: call [`Csv::require`] first).
    pub(super) fn get(&self, col: &str) -> &'a str {
        let t = self.table;
        t.header.iter().position(|h| h == col).and_then(|i| t.rows[self.index].get(i)).unwrap_or("")
    }

    /// The number in column `col`; `None` for an empty cell (no data, or no interval).
    ///
    /// # Errors
    /// A cell that is not a number, naming the file, row and column.
    pub(super) fn num(&self, col: &str) -> Result<Option<f64>, ReportError> {
        let s = self.get(col).trim();
        if s.is_empty() {
            return Ok(None);
        }
        s.parse::<f64>().map(Some).map_err(|_| {
            ReportError(format!(
                "'{}' row {}: column '{col}' holds '{s}', not a number",
                self.table.shown,
                self.index + 2
            ))
        })
    }

    /// The value and interval of columns `v`, `lo`, `hi`.
    ///
    /// # Errors
    /// As [`Row::num`].
    pub(super) fn interval(&self, v: &str, lo: &str, hi: &str) -> Result<Est, ReportError> {
        Ok(Est { value: self.num(v)?, lo: self.num(lo)?, hi: self.num(hi)? })
    }
}

/// A figure as a file states it: its value and its 95% interval, each possibly empty.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Est {
    pub(super) value: Option<f64>,
    pub(super) lo: Option<f64>,
    pub(super) hi: Option<f64>,
}

/// Reads `dir/name` as JSON of type `T`.
///
/// # Errors
/// A file that is missing, unreadable, or not of the shape mtrain writes (serde names the
/// field).
pub(super) fn json<T: DeserializeOwned>(dir: &Path, name: &str) -> Result<T, ReportError> {
    let path = dir.join(name);
    let text = crate::store::read_regular(&path)
        .map_err(|e| ReportError(format!("cannot read '{}': {}", path.display(), crate::store::io_text(&e))))?;
    serde_json::from_str(&text).map_err(|e| {
        ReportError(format!(
            "cannot read '{}': not the JSON mtrain writes ({})",
            path.display(),
            crate::error::json_problem(&text, &e)
        ))
    })
}

/// Reads `dir/name` as text, trimmed, when it exists.
///
/// # Errors
/// A file that exists and cannot be read.
pub(super) fn text_optional(dir: &Path, name: &str) -> Result<Option<String>, ReportError> {
    let path = dir.join(name);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    crate::store::read_regular(&path)
        .map(|t| Some(t.trim().to_string()))
        .map_err(|e| ReportError(format!("cannot read '{}': {}", path.display(), crate::store::io_text(&e))))
}

/// A `manifest.json` of a tournament or a balance sweep (`src/report/manifest.rs` writes it):
/// the fields every manifest has, and those of either kind, absent in the other.
#[derive(serde::Deserialize)]
pub(super) struct Manifest {
    pub(super) subcommand: String,
    pub(super) command: Vec<String>,
    pub(super) version: String,
    pub(super) commit: Option<String>,
    pub(super) rules: RulesIn,
    pub(super) field: Vec<String>,
    pub(super) seed: u64,
    pub(super) started: String,
    pub(super) ended: String,
    pub(super) elapsed_seconds: Option<f64>,
    pub(super) complete: bool,
    pub(super) stopped: Option<String>,
    pub(super) games: Option<u64>,
    pub(super) games_planned: Option<u64>,
    pub(super) shard: Option<String>,
    // A tournament's.
    pub(super) deals: Option<u64>,
    #[serde(default)]
    pub(super) bot_specs: Vec<BotIn>,
    pub(super) anchor: Option<String>,
    pub(super) gauntlet: Option<String>,
    pub(super) sprt: Option<SprtIn>,
    pub(super) rotate: Option<bool>,
    pub(super) seating: Option<String>,
    pub(super) seating_orders: Option<u64>,
    pub(super) replays_skipped: Option<bool>,
    // A sweep's.
    pub(super) cells: Option<u64>,
    pub(super) games_per_cell: Option<u64>,
    pub(super) max_games_per_cell: Option<u64>,
    pub(super) objective: Option<String>,
    pub(super) objective_description: Option<String>,
    pub(super) population: Option<String>,
    pub(super) limits: Option<serde_json::Map<String, serde_json::Value>>,
}

/// A manifest's `rules`.
#[derive(serde::Deserialize)]
pub(super) struct RulesIn {
    pub(super) preset: String,
    pub(super) set: u8,
    pub(super) players: Vec<u8>,
    pub(super) hand: Vec<u8>,
    pub(super) rounds: u8,
    pub(super) changed: std::collections::BTreeMap<String, String>,
}

/// A tournament manifest's `bot_specs` entry.
#[derive(serde::Deserialize)]
pub(super) struct BotIn {
    pub(super) name: String,
    pub(super) spec: String,
    #[serde(default)]
    pub(super) sees_hidden: bool,
}

/// A tournament manifest's `sprt`.
#[derive(serde::Deserialize)]
pub(super) struct SprtIn {
    pub(super) elo0: f64,
    pub(super) elo1: f64,
    pub(super) alpha: f64,
    pub(super) beta: f64,
    pub(super) llr: f64,
    pub(super) lower: f64,
    pub(super) upper: f64,
    pub(super) decision: String,
}
