//! Reports: the human transcript and the JSONL game log of `mtrain play`.

pub(crate) mod balance;
// Public for the browser page's rules lab (web/src/lab.rs), which shows what `mtrain compare` writes.
pub mod compare;
pub(crate) mod html;
pub mod manifest;
pub(crate) mod plot;
pub(crate) mod tournament;
pub(crate) mod transcript;
pub(crate) mod tune;

/// How results show one bot of a field, from [`crate::strategies`] (its console form, the
/// [`fmt::Display`] below, is the report's).
pub use crate::strategies::BotLabel;

/// The line writer of the transcript and the game log, from [`crate::log`].
pub use crate::log::Lines;

use std::fmt;
use std::io::Write;

/// The console's mark after the name of a bot that sees hidden tiles.
pub(crate) const SEES_HIDDEN_MARK: &str = " [sees hidden]";

/// The console's note under a table with a marked bot.
pub(crate) const SEES_HIDDEN_NOTE: &str =
    "[sees hidden]: this bot sees every hand (and the boneyard), which no player can: a ceiling of play, not a player";

impl fmt::Display for BotLabel {
    /// The name, then `SEES_HIDDEN_MARK` for a bot that sees hidden tiles: as the console shows
    /// it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if self.sees_hidden { f.write_str(SEES_HIDDEN_MARK) } else { Ok(()) }
    }
}

/// A CSV table as text: a header and rows, written with the csv crate (comma separators, `\n`
/// line ends, a field quoted only when it holds a comma, a quote or a line break), the one
/// dialect every file mtrain writes uses (`docs/csv.md`).
pub(crate) fn csv_table<H, R, F>(header: H, rows: R) -> String
where
    H: IntoIterator<Item = F>,
    R: IntoIterator<Item = Vec<String>>,
    F: AsRef<[u8]>,
{
    let mut w = csv_writer(Vec::new());
    w.write_record(header).expect("writing to memory");
    for row in rows {
        w.write_record(&row).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("UTF-8 fields")
}

/// A CSV writer in mtrain's dialect (see [`csv_table`]).
pub(crate) fn csv_writer<W: Write>(out: W) -> csv::Writer<W> {
    csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out)
}

/// The `--rule` changes as the console headers, manifests and plot titles show them:
/// `"; rules changed: v1=true, tap=draw_two"`, or nothing.
pub(crate) fn changes_text(overrides: &[(String, String)]) -> String {
    if overrides.is_empty() {
        return String::new();
    }
    let list: Vec<String> = overrides.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!(" (changed: {})", list.join(", "))
}
