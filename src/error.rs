//! The library's error types. Every failure a caller can act on is a type here (or the
//! module's own, such as [`crate::balance::SweepError`]), with a one-line message naming the
//! problem and the valid choices; the command line prints that line and picks the exit code
//! from the type.

/// An input the library cannot use: a name, a value or a combination, in one line naming it
/// and what is accepted (an unknown preset, a malformed `--rule`, an SPRT that does not parse).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidInput(pub String);

/// A stored state (`tally.json`) that cannot be trusted or does not fit the run it is given to.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// Not JSON of a state's shape.
    #[error("not a valid tally.json: {0}")]
    NotJson(String),
    /// Written by a version of mtrain with another format.
    #[error("tally.json was written by another version of mtrain (format {found}; this one reads {reads})")]
    OtherFormat {
        /// The file's format.
        found: u32,
        /// The format this build reads.
        reads: u32,
    },
    /// A balance sweep's state where a tournament's was expected.
    #[error("its tally.json is a balance sweep's, not a tournament's (resume it with mtrain balance --resume)")]
    SweepNotRun,
    /// A tournament's state where a sweep's was expected.
    #[error("its tally.json is a tournament's, not a balance sweep's (resume it with mtrain tournament --resume)")]
    RunNotSweep,
    /// Statistics whose shape does not match their layout.
    #[error("tally.json is damaged: its statistics do not match its layout")]
    Damaged,
    /// Content changed after mtrain wrote it (its self-check fails).
    #[error("tally.json was changed after mtrain wrote it (its check does not match its content)")]
    Edited,
    /// A state that does not describe the run it is checked against, in a phrase.
    #[error("{0}")]
    Mismatch(String),
}

impl From<StoreError> for String {
    fn from(e: StoreError) -> String {
        e.to_string()
    }
}

/// A chart that cannot be drawn (no data, or the drawing backend failed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PlotError(pub String);

/// A per-game file (`games.csv`, `rounds.csv`) that cannot be written, reopened or joined,
/// naming the file and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RecordError(pub String);

/// A one-line error that is its message: read as text (`e.contains("valid:")`), made from a
/// `String` or `&str`, and turned back into one.
macro_rules! message_error {
    ($($t:ident),*) => {$(
        impl std::ops::Deref for $t {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl From<String> for $t {
            fn from(s: String) -> $t {
                $t(s)
            }
        }

        impl From<&str> for $t {
            fn from(s: &str) -> $t {
                $t(s.to_string())
            }
        }

        impl From<$t> for String {
            fn from(e: $t) -> String {
                e.0
            }
        }
    )*};
}
message_error!(InvalidInput, PlotError, RecordError);
