//! Reports: the human transcript and the JSONL game log of `mtrain play`.

pub mod jsonl;
pub mod plot;
pub mod tournament;
pub mod transcript;

use std::io::Write;

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
