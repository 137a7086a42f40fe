//! The keyword functions (`mtrain.tournament`, `mtrain.balance`, `mtrain.tune`,
//! `mtrain.compare`) build their
//! run's spec here: the library's own serde spec (`TournamentSpec`, `SweepSpec`, `TuningSpec`,
//! exactly what a run's state file stores under `config.spec`), filled from the keywords by
//! one table per kind. Each row of a table says the keyword, what it must be and where its
//! value goes in the spec; the keyword is checked by its row (with [`crate::args`], so every
//! refusal reads as everywhere else in the package), converted, and put at its path in a JSON
//! value, which serde then reads as the spec. Nothing else names a keyword: the spec is played
//! as `mtrain.run` plays one.

use crate::args::{self, Int};
use mexican_train::balance::{DEFAULT_POPULATION, FirstPlayer, Limits, Objective, RankBy};
use mexican_train::compare::RuleSet;
use mexican_train::rules::MAX_PLAYERS;
use mexican_train::tournament::Sprt;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{Value, json};

/// A library parser: the text given to the value the spec stores, or its one-line message.
type Parser = fn(&str) -> Result<Value, String>;

/// What a keyword must be, and so how its value is made.
#[derive(Clone, Copy)]
enum Want {
    /// An integer from `lo` to `hi` ([`Int::within`]).
    Integer(i128, i128),
    /// An integer, one of these ([`Int::one_of`]).
    OneOf(&'static [i128]),
    /// Rounds per match: an integer from 1 to one per double of the set the spec already
    /// holds at this path.
    Rounds(&'static str),
    /// A share: a number from 0 to 1 ([`args::number`]).
    Share,
    /// A number above `lo` and at most `hi`.
    Above(f64, f64),
    /// One integer or an inclusive range `(lo, hi)`, from `min` to `max` ([`args::span`]).
    Span(u8, u8),
    /// `True` or `False`.
    Bool,
    /// Text, as given.
    Text,
    /// Text a library parser reads (a refusal is the parser's message).
    Parsed(Parser),
    /// A list of strings.
    Texts,
    /// Two numbers `(a, b)`, read by a library parser as the text `a,b` (a refusal is the
    /// parser's message after the keyword).
    Pair(Parser),
    /// Rule changes, a dict or a list ([`args::rule_options`]; `None` is none).
    Options,
    /// Rule sets: a list of `PRESET` or `PRESET:key=value,...` strings, each read by
    /// [`RuleSet::parse`].
    RuleSets,
}

/// One keyword of a kind of run.
pub(crate) struct Row {
    /// The Python keyword.
    pub(crate) keyword: &'static str,
    /// What it must be.
    want: Want,
    /// Where its value goes in the spec: field names joined by `.`.
    path: &'static str,
    /// Whether `None` may be given: it leaves the spec's value at `path` as the kind's base
    /// has it (`null` where the base has none).
    optional: bool,
}

/// A keyword that must be given as its row says.
const fn key(keyword: &'static str, path: &'static str, want: Want) -> Row {
    Row { keyword, want, path, optional: false }
}

/// A keyword that may also be `None`.
const fn maybe(keyword: &'static str, path: &'static str, want: Want) -> Row {
    Row { keyword, want, path, optional: true }
}

/// A kind of run: its keywords and the spec they fill.
pub(crate) struct Kind {
    /// The kind's name (`tournament`...).
    pub(crate) name: &'static str,
    /// Its keywords, checked in this order (the Python signature's).
    pub(crate) rows: &'static [Row],
    /// The spec before the keywords are put in: the values of the optional keywords given as
    /// `None` (where that is not `null`).
    base: fn() -> Value,
}

const U64: i128 = u64::MAX as i128;
const SETS: &[i128] = &[6, 9, 12, 15, 18];
const PLAYERS: i128 = MAX_PLAYERS as i128;

use Want::*;

// THE keyword tables: a keyword is spelled in its Python function's signature (with its default
// and its documentation) and in one row here (what it must be, where it goes in the spec), and
// nowhere else. The spec's own field names (the paths) are those of the state files, which stay
// as they are. A keyword added to a signature and not here is refused as unknown; the tests
// compare each table with its signature.

/// `mtrain.tournament`: a `TournamentSpec` (no SPRT, no shard).
static TOURNAMENT: &[Row] = &[
    maybe("bots", "bots", Text),
    key("players", "table.players", Integer(2, PLAYERS)),
    key("games", "games", Integer(1, U64)),
    key("seed", "seed", Integer(0, U64)),
    key("rules", "table.preset", Text),
    key("set", "table.set", OneOf(SETS)),
    maybe("hand", "table.hand", Integer(1, 255)),
    maybe("rounds", "table.rounds", Rounds("table.set")),
    key("options", "table.rules", Options),
    maybe("gauntlet", "gauntlet", Text),
    maybe("anchor", "anchor", Text),
    key("rotate", "rotate", Bool),
    key("vary_order", "vary_order", Bool),
];

/// `mtrain.balance`: a `SweepSpec`.
static BALANCE: &[Row] = &[
    maybe("bots", "bots", Text),
    maybe("players", "players", Span(2, MAX_PLAYERS as u8)),
    maybe("hands", "hands", Span(1, u8::MAX)),
    key("games", "games", Integer(1, U64)),
    maybe("max_games", "max_games", Integer(1, U64)),
    key("seed", "seed", Integer(0, U64)),
    key("rules", "preset", Text),
    key("set", "set", OneOf(SETS)),
    maybe("rounds", "rounds", Rounds("set")),
    key("options", "rules", Options),
    key("objective", "objective", Parsed(objective)),
    maybe("metrics", "metrics", Texts),
    maybe("max_blocked", "limits.max_blocked", Share),
    maybe("max_first_edge", "limits.max_first_edge", Share),
    maybe("first_player", "limits.first_player", Parsed(first_player)),
    maybe("min_skill", "limits.min_skill", Share),
    maybe("max_skill", "limits.max_skill", Share),
    maybe("margin", "limits.margin", Share),
    key("rank_by", "rank_by", Parsed(rank_by)),
    key("seconds_per_turn", "seconds_per_turn", Above(0.0, 3600.0)),
];

/// `mtrain.tune`: a `TuningSpec`.
static TUNE: &[Row] = &[
    maybe("bot", "bot", Text),
    key("params", "params", Texts),
    key("iterations", "gains.iterations", Integer(1, 1_000_000)),
    key("games", "games", Integer(1, U64)),
    key("perturbation", "gains.c", Above(0.0, 0.5)),
    key("rate", "gains.r", Above(0.0, 100.0)),
    key("seed", "seed", Integer(0, U64)),
    key("confirm_sprt", "confirm", Pair(sprt)),
    key("confirm_games", "confirm_games", Integer(1, U64)),
    key("players", "table.players", Integer(2, PLAYERS)),
    key("rules", "table.preset", Text),
    key("set", "table.set", OneOf(SETS)),
    maybe("hand", "table.hand", Integer(1, 255)),
    maybe("rounds", "table.rounds", Rounds("table.set")),
    key("options", "table.rules", Options),
];

/// `mtrain.compare`: a `CompareSpec`.
static COMPARE: &[Row] = &[
    key("rulesets", "rulesets", RuleSets),
    maybe("bots", "bots", Text),
    maybe("players", "players", Span(2, MAX_PLAYERS as u8)),
    maybe("hands", "hands", Span(1, u8::MAX)),
    key("games", "games", Integer(1, U64)),
    key("seed", "seed", Integer(0, U64)),
    key("set", "set", OneOf(SETS)),
    maybe("rounds", "rounds", Rounds("set")),
    key("margin", "margin", Above(0.0, 1.0)),
    key("relative_margin", "relative_margin", Above(0.0, 1.0)),
    key("seconds_per_turn", "seconds_per_turn", Above(0.0, 3600.0)),
];

/// `mtrain.evaluate`: an `EvalSpec` (the protocol filled in from `quick`).
static EVAL: &[Row] = &[key("bot", "bot", Text), key("quick", "quick", Bool)];

/// Every kind the keyword functions play.
static KINDS: [Kind; 5] = [
    Kind { name: "tournament", rows: TOURNAMENT, base: || json!({"sprt": null, "shard": null}) },
    Kind {
        name: "balance",
        rows: BALANCE,
        base: || json!({"players": [2, 8], "bots": DEFAULT_POPULATION, "limits": Limits::default()}),
    },
    Kind { name: "tune", rows: TUNE, base: || json!({}) },
    Kind { name: "compare", rows: COMPARE, base: || json!({"players": [4, 4], "bots": DEFAULT_POPULATION}) },
    Kind { name: "eval", rows: EVAL, base: || json!({"protocol": ""}) },
];

/// The kind named `name`.
pub(crate) fn kind(name: &str) -> PyResult<&'static Kind> {
    KINDS.iter().find(|k| k.name == name).ok_or_else(|| {
        let valid = KINDS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ");
        PyValueError::new_err(format!("unknown kind of run '{name}' (valid: {valid})"))
    })
}

/// The value the spec stores for a library value.
fn stored<T: serde::Serialize, E: std::fmt::Display>(parsed: Result<T, E>) -> Result<Value, String> {
    parsed.map(|v| serde_json::to_value(v).expect("serialisable")).map_err(|e| e.to_string())
}

fn objective(s: &str) -> Result<Value, String> {
    stored(Objective::parse(s))
}

fn rank_by(s: &str) -> Result<Value, String> {
    stored(RankBy::parse(s))
}

fn first_player(s: &str) -> Result<Value, String> {
    stored(FirstPlayer::parse(s))
}

fn sprt(s: &str) -> Result<Value, String> {
    stored(Sprt::parse(s))
}

/// A value that is not of the type a keyword takes, refused as pyo3 refuses an argument: a
/// `TypeError` "argument '`name`': ..." (another error as it is).
fn argument(py: Python<'_>, name: &str, e: impl Into<PyErr>) -> PyErr {
    let e: PyErr = e.into();
    if e.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(format!("argument '{name}': {}", e.value(py)))
    } else {
        e
    }
}

impl Row {
    /// The value `obj` given for the keyword stands for in the spec, checked as the row says
    /// (`spec`: the spec as filled so far, for a range that depends on an earlier keyword).
    fn value(&self, obj: &Bound<'_, PyAny>, spec: &Value) -> PyResult<Value> {
        let (py, name) = (obj.py(), self.keyword);
        let int = || obj.extract::<Int>();
        let text = || obj.extract::<String>().map_err(|e| argument(py, name, e));
        Ok(match self.want {
            Integer(lo, hi) => json!(int()?.within::<u64>(name, lo, hi)?),
            OneOf(valid) => json!(int()?.one_of::<u64>(name, valid)?),
            Rounds(set) => {
                let set = spec.pointer(&pointer(set)).and_then(Value::as_u64).expect("the set is checked first");
                json!(int()?.within::<u64>(name, 1, i128::from(set) + 1)?)
            }
            Share => json!(args::number(Some(obj), name, 0.0, 1.0)?),
            Above(lo, hi) => {
                let v: f64 = obj.extract().map_err(|e| argument(py, name, e))?;
                if !(v > lo && v <= hi) {
                    return Err(PyValueError::new_err(format!(
                        "{name} must be a number above {lo} and at most {hi}; got {v}"
                    )));
                }
                json!(v)
            }
            Span(min, max) => json!(args::span(obj, name, min, max)?),
            Bool => json!(obj.extract::<bool>().map_err(|e| argument(py, name, e))?),
            Text => json!(text()?),
            Parsed(parse) => parse(&text()?).map_err(PyValueError::new_err)?,
            Texts => json!(obj.extract::<Vec<String>>().map_err(|e| argument(py, name, e))?),
            Pair(parse) => {
                let (a, b): (f64, f64) = obj.extract().map_err(|e| argument(py, name, e))?;
                parse(&format!("{a},{b}")).map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?
            }
            Options => json!(args::rule_options(Some(obj))?),
            RuleSets => {
                let texts = obj.extract::<Vec<String>>().map_err(|e| argument(py, name, e))?;
                let sets = texts
                    .iter()
                    .map(|t| RuleSet::parse(t))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))?;
                json!(sets)
            }
        })
    }
}

/// The JSON pointer of a path (`table.set`: `/table/set`).
fn pointer(path: &str) -> String {
    format!("/{}", path.replace('.', "/"))
}

/// Puts `v` at `path` in `spec`, making the objects on the way.
fn put(spec: &mut Value, path: &str, v: Value) {
    let mut at = spec;
    for field in path.split('.') {
        if !at.is_object() {
            *at = json!({});
        }
        at = at.as_object_mut().expect("an object").entry(field).or_insert(Value::Null);
    }
    *at = v;
}

/// The spec of a run of `kind` from its keywords `kwargs` (a keyword left out is `None`),
/// each checked by its row in the table's order; a keyword the table lacks is refused with a
/// `TypeError` naming it and the valid ones.
pub(crate) fn spec(kind: &Kind, kwargs: &Bound<'_, PyDict>) -> PyResult<Value> {
    let py = kwargs.py();
    for (k, _) in kwargs.iter() {
        if !k.extract::<String>().is_ok_and(|k| kind.rows.iter().any(|r| r.keyword == k)) {
            let valid = kind.rows.iter().map(|r| r.keyword).collect::<Vec<_>>().join(", ");
            return Err(PyTypeError::new_err(format!(
                "{}() got an unexpected keyword argument {} (valid: {valid})",
                kind.name,
                k.repr()?
            )));
        }
    }
    let mut spec = (kind.base)();
    for row in kind.rows {
        let given = kwargs.get_item(row.keyword)?.unwrap_or_else(|| py.None().into_bound(py));
        if row.optional && given.is_none() {
            if spec.pointer(&pointer(row.path)).is_none() {
                put(&mut spec, row.path, Value::Null);
            }
            continue;
        }
        let v = row.value(&given, &spec)?;
        put(&mut spec, row.path, v);
    }
    Ok(spec)
}
