//! Reports: the human transcript and the JSONL game log of `mtrain play`.

pub(crate) mod json;
pub mod jsonl;
pub mod manifest;
pub mod plot;
pub mod tournament;
pub mod transcript;

use std::io::Write;

/// A CSV table as text: a header and rows, written with the csv crate (comma separators, `\n`
/// line ends, a field quoted only when it holds a comma, a quote or a line break), the one
/// dialect every file mtrain writes uses (`docs/csv.md`).
pub fn csv_table<H, R, F>(header: H, rows: R) -> String
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
pub fn csv_writer<W: Write>(out: W) -> csv::Writer<W> {
    csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out)
}

/// A line-oriented writer that keeps the first I/O error instead of failing every event:
/// observers cannot return errors, so the caller checks [`Lines::error`] at the end.
pub struct Lines<W: Write> {
    out: W,
    /// The first I/O error, if any.
    pub error: Option<std::io::Error>,
}

impl<W: Write> Lines<W> {
    /// Wraps a writer.
    pub fn new(out: W) -> Lines<W> {
        Lines { out, error: None }
    }

    /// Writes `s` and a newline, unless an earlier write failed.
    pub fn line(&mut self, s: &str) {
        if self.error.is_none()
            && let Err(e) = writeln!(self.out, "{s}")
        {
            self.error = Some(e);
        }
    }

    /// Flushes, keeping the first error.
    pub fn flush(&mut self) {
        if let Err(e) = self.out.flush() {
            self.error.get_or_insert(e);
        }
    }

    /// Gives back the writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}
