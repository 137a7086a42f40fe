//! The one checked conversion of the arguments the native module takes from Python: every
//! number is read as any Python integer (extraction never fails, so the refusal can name the
//! keyword), then checked against its range here; a bad one raises one `ValueError` (a value
//! out of range) or `TypeError` (not an integer at all) naming the keyword, the valid range and
//! the value given. Rule options are taken in either shape, a dict `{rule: value}` or a list of
//! `"rule=value"` strings.

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString, PyTuple};

/// A Python integer argument as given, before its range is checked ([`Int::within`]).
#[derive(Clone, Debug)]
pub(crate) struct Int(Result<i128, Bad>);

/// Why a value given for an integer argument is not one, with the value as Python shows it.
#[derive(Clone, Debug)]
enum Bad {
    /// Not an integer at all (a float, a string, a bool...).
    NotAnInteger(String),
    /// An integer far outside any range (beyond 128 bits).
    Huge(String),
}

impl Int {
    /// The value `v`, as if given from Python (a default).
    pub(crate) const fn of(v: i128) -> Int {
        Int(Ok(v))
    }

    /// The value, checked to lie in `lo..=hi`: else a `ValueError` (a `TypeError` for a value
    /// that is no integer) saying "`name` must be an integer from `lo` to `hi`; got ...".
    pub(crate) fn within<T: TryFrom<i128>>(&self, name: &str, lo: i128, hi: i128) -> PyResult<T> {
        self.checked(name, lo, hi, &format!("an integer from {lo} to {hi}"))
    }

    /// As [`Int::within`], with `range` describing `lo..=hi` in words.
    pub(crate) fn checked<T: TryFrom<i128>>(&self, name: &str, lo: i128, hi: i128, range: &str) -> PyResult<T> {
        match &self.0 {
            Ok(v) if (lo..=hi).contains(v) => T::try_from(*v).map_err(|_| refused(name, range, &v.to_string())),
            Ok(v) => Err(refused(name, range, &v.to_string())),
            Err(Bad::Huge(shown)) => Err(refused(name, range, shown)),
            Err(Bad::NotAnInteger(shown)) => Err(PyTypeError::new_err(format!("{name} must be {range}; got {shown}"))),
        }
    }

    /// The value, checked to be one of `valid`.
    pub(crate) fn one_of<T: TryFrom<i128>>(&self, name: &str, valid: &[i128]) -> PyResult<T> {
        let list = valid.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let range = format!("one of {list}");
        match &self.0 {
            Ok(v) if !valid.contains(v) => Err(refused(name, &range, &v.to_string())),
            _ => self.checked(name, i128::MIN, i128::MAX, &range),
        }
    }
}

/// The `ValueError` for `name` given `shown`, outside `range`.
fn refused(name: &str, range: &str, shown: &str) -> PyErr {
    PyValueError::new_err(format!("{name} must be {range}; got {shown}"))
}

/// A value as the refusal shows it: its repr, and its type when that is not an int.
fn shown(obj: &Bound<'_, PyAny>) -> String {
    let repr = obj.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
    let kind = obj.get_type().name().map_or_else(|_| "?".to_string(), |n| n.to_string());
    format!("{repr} ({kind})")
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        let obj = obj.to_owned();
        // A bool is an int to Python, never a count or a seed; a float is refused even where
        // Python would truncate it.
        if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyFloat>() {
            return Ok(Int(Err(Bad::NotAnInteger(shown(&obj)))));
        }
        if let Ok(v) = obj.extract::<i64>() {
            return Ok(Int(Ok(i128::from(v))));
        }
        Ok(Int(match obj.extract::<i128>() {
            Ok(v) => Ok(v),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(Bad::Huge(obj.to_string())),
            Err(_) => Err(Bad::NotAnInteger(shown(&obj))),
        }))
    }
}

/// A number argument (a share, a score): a Python int or float from `lo` to `hi`.
pub(crate) fn number(obj: Option<&Bound<'_, PyAny>>, name: &str, lo: f64, hi: f64) -> PyResult<Option<f64>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(None) };
    let range = format!("a number from {lo} to {hi}");
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!("{name} must be {range}; got {}", shown(obj))));
    }
    let v: f64 =
        obj.extract().map_err(|_| PyTypeError::new_err(format!("{name} must be {range}; got {}", shown(obj))))?;
    if v.is_nan() || !(lo..=hi).contains(&v) {
        return Err(refused(name, &range, &v.to_string()));
    }
    Ok(Some(v))
}

/// An inclusive range argument of `balance` (`players`, `hands`): one integer `n` (the range
/// `n..=n`) or a pair `(lo, hi)` of integers with `min <= lo <= hi <= max`.
pub(crate) fn span(obj: &Bound<'_, PyAny>, name: &str, min: u8, max: u8) -> PyResult<(u8, u8)> {
    let range = format!("an integer from {min} to {max} or a range (lo, hi) with {min} <= lo <= hi <= {max}");
    let (min, max) = (i128::from(min), i128::from(max));
    let pair = obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>();
    if !pair {
        let n: Int = obj.extract()?;
        let v = n.checked(name, min, max, &range)?;
        return Ok((v, v));
    }
    let items: Vec<Int> = obj.extract()?;
    let shown_pair = || obj.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
    let [lo, hi] = items.as_slice() else { return Err(refused(name, &range, &shown_pair())) };
    let (lo, hi): (u8, u8) = (lo.checked(name, min, max, &range)?, hi.checked(name, min, max, &range)?);
    if lo > hi {
        return Err(refused(name, &range, &format!("{} (an empty range: {lo} > {hi})", shown_pair())));
    }
    Ok((lo, hi))
}

/// Rule changes as `key=value` strings, from either shape Python may give them: a dict
/// `{rule: value}` (`True` is `true`) or a list (or tuple) of `"rule=value"` strings; `None`
/// is none.
pub(crate) fn rule_options(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    const SHAPES: &str = "options must be a dict {rule: value} or a list of \"rule=value\" strings";
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(Vec::new()) };
    if let Ok(dict) = obj.cast::<PyDict>() {
        let mut out = Vec::with_capacity(dict.len());
        for (k, v) in dict.iter() {
            let key: String =
                k.extract().map_err(|_| PyTypeError::new_err(format!("{SHAPES}; got the key {}", shown(&k))))?;
            let value = if let Ok(b) = v.cast::<PyBool>() {
                if b.is_true() { "true".to_string() } else { "false".to_string() }
            } else {
                v.str()?.to_string()
            };
            out.push(format!("{key}={value}"));
        }
        return Ok(out);
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for item in obj.try_iter()? {
            let item = item?;
            let text: String =
                item.extract().map_err(|_| PyTypeError::new_err(format!("{SHAPES}; got the item {}", shown(&item))))?;
            if !text.contains('=') {
                return Err(PyValueError::new_err(format!("{SHAPES}; got {text:?}, with no '='")));
            }
            out.push(text);
        }
        return Ok(out);
    }
    Err(PyTypeError::new_err(format!("{SHAPES}; got {}", shown(obj))))
}

/// The most worker threads a run may ask for: the command line's rule for `--threads`, 4 per
/// core the machine makes available, and never fewer than 16.
fn max_threads(cores: usize) -> usize {
    (4 * cores).max(16)
}

/// The cores the machine makes available to this process.
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `threads`, checked as the command line checks `--threads`; `None`: every core.
pub(crate) fn threads(threads: Option<&Int>) -> PyResult<usize> {
    let cores = cores();
    let Some(n) = threads else { return Ok(cores) };
    let most = max_threads(cores);
    let range = format!(
        "an integer from 1 to {most} (4 per core, at least 16: this machine has {cores} core{} available)",
        if cores == 1 { "" } else { "s" }
    );
    n.checked("threads", 1, most as i128, &range)
}

/// A rules preset's name as given: a `str` (which preset is checked with the rules), or the
/// refusal to raise where it is read ([`RulesName::get`]), so that the message names the
/// argument and the presets (as [`Int`] defers its own).
pub(crate) struct RulesName(Result<String, String>);

impl RulesName {
    /// The default preset.
    pub(crate) fn wikipedia() -> RulesName {
        RulesName(Ok("wikipedia".to_string()))
    }

    /// The name, or a `TypeError` for a value that is not a `str`.
    pub(crate) fn get(&self) -> PyResult<&str> {
        self.0.as_deref().map_err(|shown| {
            let names: Vec<&str> = mexican_train::rules::PRESETS.iter().map(|p| p.name).collect();
            pyo3::exceptions::PyTypeError::new_err(format!(
                "rules must be a preset name ({}); got {shown}",
                names.join(", ")
            ))
        })
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for RulesName {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<RulesName> {
        let obj = obj.to_owned();
        Ok(RulesName(obj.extract::<String>().map_err(|_| shown(&obj))))
    }
}
