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

/// What is wrong with a JSON file, in its reader's terms: the field and what it should hold
/// (`field `players`: expected a whole number from 0 to 255, not 300`), a missing field, or
/// that the text is not JSON at all; never the parser's line and column. `text` is what was
/// parsed (the field is found before the place the parser stopped).
pub(crate) fn json_problem(text: &str, e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Syntax | Category::Eof => "it is not valid JSON (cut short, damaged or edited)".to_string(),
        Category::Io => "it cannot be read".to_string(),
        Category::Data => {
            let full = e.to_string();
            let msg = full.rfind(" at line ").map_or(full.as_str(), |i| &full[..i]);
            if let Some(f) = between(msg, "missing field `", "`") {
                return format!("field `{f}` is missing");
            }
            if let Some(f) = between(msg, "unknown field `", "`") {
                return format!("unknown field `{f}`");
            }
            let what = expectation(msg);
            match key_before(text, e.line(), e.column()) {
                Some(k) => format!("field `{k}`: {what}"),
                None => what,
            }
        }
    }
}

/// The text between `start` and the next `end` in `s`.
fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = &s[s.find(start)? + start.len()..];
    Some(&rest[..rest.find(end)?])
}

/// The name of the last `"key":` before line `line`, column `column` of `text` (1-based, as the
/// parser counts): the field whose value the parser stopped in.
fn key_before(text: &str, line: usize, column: usize) -> Option<String> {
    if line == 0 {
        return None;
    }
    let start: usize = text.split_inclusive('\n').take(line - 1).map(str::len).sum();
    let mut end = (start + column).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text.as_bytes()[..end];
    let mut i = head.len();
    while i > 0 {
        i -= 1;
        if head[i] != b':' {
            continue;
        }
        let before = text[..i].trim_end();
        if let Some(quoted) = before.strip_suffix('"')
            && let Some(open) = quoted.rfind('"')
        {
            let key = &quoted[open + 1..];
            if !key.is_empty() && !key.contains(['\\', '{', '}', '[', ']', ',', ':']) {
                return Some(key.to_string());
            }
        }
    }
    None
}

/// serde's `invalid type: X, expected Y` in words: `expected Y', not X'`.
fn expectation(msg: &str) -> String {
    let found_expected = ["invalid type: ", "invalid value: "]
        .iter()
        .find_map(|p| msg.strip_prefix(p))
        .and_then(|rest| rest.split_once(", expected "));
    if let Some((found, expected)) = found_expected {
        return format!("expected {}, not {}", expected_words(expected), found_words(found));
    }
    if let Some(rest) = msg.strip_prefix("unknown variant ")
        && let Some((v, valid)) = rest.split_once(", expected ")
    {
        let valid = valid.trim_start_matches("one of ").replace('`', "");
        return format!("{} is not a valid value (valid: {valid})", v.replace('`', "'"));
    }
    if let Some(rest) = msg.strip_prefix("invalid length ")
        && let Some((n, expected)) = rest.split_once(", expected ")
    {
        return format!("{n} items where {} were expected", expected_words(expected));
    }
    msg.to_string()
}

/// What serde says a field should be, in words.
fn expected_words(expected: &str) -> String {
    let unsigned = |bits: u32| format!("a whole number from 0 to {}", (1u64 << bits) - 1);
    match expected {
        "u8" => unsigned(8),
        "u16" => unsigned(16),
        "u32" => unsigned(32),
        "u64" | "usize" => "a whole number, 0 or more".to_string(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_string(),
        "f32" | "f64" => "a number".to_string(),
        "a sequence" => "a list".to_string(),
        "a string" | "a borrowed string" | "a char" => "text (a quoted string)".to_string(),
        "a boolean" => "true or false".to_string(),
        "a map" => "an object".to_string(),
        e if e.starts_with("struct ") => "an object".to_string(),
        e if e.starts_with("a tuple of size ") => format!("a list of {}", &e["a tuple of size ".len()..]),
        e => e.to_string(),
    }
}

/// What serde says a field held, in words.
fn found_words(found: &str) -> String {
    if let Some(v) = ["integer ", "floating point ", "boolean "].iter().find_map(|p| found.strip_prefix(p)) {
        return v.trim_matches('`').to_string();
    }
    match found {
        "sequence" => "a list".to_string(),
        "map" => "an object".to_string(),
        "null" => "null".to_string(),
        f => f.strip_prefix("string ").map_or_else(|| f.to_string(), |s| format!("text {s}")),
    }
}

/// What is wrong with a CSV file, without the library's record numbers and byte offsets: the
/// line and what is wrong there.
pub(crate) fn csv_problem(e: &csv::Error) -> String {
    let line = |p: Option<&csv::Position>| p.map_or(String::new(), |p| format!("line {}: ", p.line()));
    match e.kind() {
        csv::ErrorKind::UnequalLengths { pos, expected_len, len } => format!(
            "{}{len} field{} where the header has {expected_len}",
            line(pos.as_ref()),
            if *len == 1 { "" } else { "s" }
        ),
        // The library's position of a UTF-8 error is the record's, not always its line.
        csv::ErrorKind::Utf8 { .. } => "it is not UTF-8 text".to_string(),
        csv::ErrorKind::Deserialize { pos, err } => {
            let field = err.field().map_or(String::new(), |f| format!("field {}: ", f + 1));
            format!("{}{field}{}", line(pos.as_ref()), err.kind())
        }
        csv::ErrorKind::Io(io) => {
            let text = io.to_string();
            text.rfind(" (os error ").map_or(text.clone(), |i| text[..i].to_string())
        }
        _ => "it is not a CSV table".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Shape {
        players: Vec<u8>,
        seed: u64,
        name: String,
    }

    fn problem(text: &str) -> String {
        json_problem(text, &serde_json::from_str::<Shape>(text).unwrap_err())
    }

    #[test]
    fn a_json_problem_names_the_field_and_the_expectation_without_a_position() {
        let p = problem(r#"{"name": "a", "seed": 1, "players": [4, 300]}"#);
        assert_eq!(p, "field `players`: expected a whole number from 0 to 255, not 300");
        let p = problem("{\n  \"name\": \"a\",\n  \"players\": [4],\n  \"seed\": \"x\"\n}");
        assert_eq!(p, "field `seed`: expected a whole number, 0 or more, not text \"x\"");
        assert_eq!(problem(r#"{"name": "a", "players": 4, "seed": 1}"#), "field `players`: expected a list, not 4");
        assert_eq!(problem(r#"{"name": "a: b", "seed": 1}"#), "field `players` is missing");
        assert_eq!(problem(r#"{"name": "#), "it is not valid JSON (cut short, damaged or edited)");
    }

    #[test]
    fn a_csv_problem_names_the_line_without_record_numbers_or_bytes() {
        let mut r = csv::Reader::from_reader("a,b\n1,2\n3,4,5\n".as_bytes());
        let e = r.records().find_map(Result::err).unwrap();
        assert_eq!(csv_problem(&e), "line 3: 3 fields where the header has 2");
        let mut r = csv::Reader::from_reader(&b"a,b\n\xff,2\n"[..]);
        let e = r.records().find_map(Result::err).unwrap();
        assert_eq!(csv_problem(&e), "it is not UTF-8 text");
    }
}
