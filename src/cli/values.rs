//! clap value parsers for every number and structured value on the command line.
//!
//! Each parser returns what is valid as its error; clap prefixes it with the flag and the value
//! given (`invalid value '-5' for '--games <G>': expected ...`), and [`super::run`] prints that as
//! one line. Options that take numbers also accept values that start with a hyphen, so that a
//! negative number is reported as a bad value of its flag rather than as an unknown argument.

use std::str::FromStr;

fn whole<T: FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.trim().parse().map_err(|_| format!("expected {what}"))
}

/// A whole number of games (or games per cell), 1 or more.
pub(crate) fn games(s: &str) -> Result<u64, String> {
    match whole::<u64>(s, "a whole number of games, 1 or more")? {
        0 => Err("0 plays nothing: expected a whole number of games, 1 or more".into()),
        n => Ok(n),
    }
}

/// A seed: 0 to 2^64-1, in decimal or as hex with `0x` (the form `deal_seed_hex` columns use).
pub(crate) fn seed(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    };
    parsed.ok_or_else(|| "expected a whole number from 0 to 18446744073709551615, or hex like 0x1f".into())
}

/// A domino set: the highest double, a whole number (the rules check it is one of the five).
pub(crate) fn set(s: &str) -> Result<u8, String> {
    whole(s, "one of 6, 9, 12, 15, 18")
}

/// A number of players (the rules check the range).
pub(crate) fn players(s: &str) -> Result<u8, String> {
    whole(s, "a whole number of players, 2 to 16")
}

/// Tiles per player (the rules check that they can be dealt).
pub(crate) fn hand(s: &str) -> Result<u8, String> {
    whole(s, "a whole number of tiles per player")
}

/// Rounds per match (the rules check the range).
pub(crate) fn rounds(s: &str) -> Result<u8, String> {
    whole(s, "a whole number of rounds")
}

/// A timeout in seconds: more than 0, at most a day.
pub(crate) fn timeout(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err("expected a number of seconds above 0 and at most 86400, e.g. 10 or 0.5".into()),
    }
}

/// The most worker threads a run may ask for: 4 per core the machine makes available (a modest
/// oversubscription, e.g. to check that results do not depend on the thread count), and never
/// fewer than 16. More only starts threads that wait on each other.
pub(crate) fn max_threads() -> usize {
    (4 * super::all_cores()).max(16)
}

/// Why a thread count is refused, if it is: 0, or more than [`max_threads`].
fn thread_count(n: usize) -> Result<usize, String> {
    let most = max_threads();
    let cores = super::all_cores();
    match n {
        0 => Err("0 threads run nothing: expected a whole number of threads, 1 or more".into()),
        n if n > most => Err(format!(
            "{n} threads is more than this machine can use: it has {cores} core{} available, so give 1 to {most} (4 per core, at least 16)",
            if cores == 1 { "" } else { "s" }
        )),
        n => Ok(n),
    }
}

/// Worker threads, 1 to [`max_threads`].
pub(crate) fn threads(s: &str) -> Result<usize, String> {
    thread_count(whole::<usize>(s, "a whole number of threads, 1 or more")?)
}

/// A share or score: a number from 0 to 1, e.g. 0.05.
pub(crate) fn share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err("expected a share from 0 to 1, e.g. 0.05 for 5%".into()),
    }
}

/// Thread counts to measure, comma-separated, each 1 or more.
#[derive(Clone, Debug)]
pub(crate) struct ThreadList(pub(crate) Vec<usize>);

pub(crate) fn thread_list(s: &str) -> Result<ThreadList, String> {
    let bad = || "expected a comma-separated list of thread counts, each 1 or more, like 1,2".to_string();
    let list: Vec<usize> = s.split(',').map(|t| t.trim().parse().map_err(|_| bad())).collect::<Result<_, _>>()?;
    if list.contains(&0) {
        return Err(bad());
    }
    for &n in &list {
        thread_count(n)?;
    }
    Ok(ThreadList(list))
}

/// A positive, finite number of seconds.
pub(crate) fn seconds(s: &str) -> Result<f64, String> {
    let v: f64 = whole(s, "a positive number of seconds")?;
    if v > 0.0 && v.is_finite() { Ok(v) } else { Err("expected a positive number of seconds".into()) }
}

/// Timed runs, 1 or more.
pub(crate) fn runs(s: &str) -> Result<usize, String> {
    match whole::<usize>(s, "a whole number of runs, 1 or more")? {
        0 => Err("0 runs measure nothing: expected a whole number of runs, 1 or more".into()),
        n => Ok(n),
    }
}

/// An inclusive range `N` or `A-B` of small whole numbers, `A <= B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span(pub(crate) u8, pub(crate) u8);

fn span(s: &str, valid: &str) -> Result<Span, String> {
    let bad = || format!("expected {valid}");
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?),
        None => {
            let v: u8 = s.trim().parse().map_err(|_| bad())?;
            (v, v)
        }
    };
    if a > b {
        return Err(bad());
    }
    Ok(Span(a, b))
}

/// Player counts of `balance`: `N` or `A-B`.
pub(crate) fn player_span(s: &str) -> Result<Span, String> {
    span(s, "N or A-B, like 2-8")
}

/// Hand sizes of `balance`: `H`, `A-B`, or `auto` (`None`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hands(pub(crate) Option<Span>);

pub(crate) fn hands(s: &str) -> Result<Hands, String> {
    if s.trim() == "auto" {
        return Ok(Hands(None));
    }
    let r = span(s, "H, A-B like 8-15, or auto")?;
    if r.0 == 0 {
        return Err("0 tiles deal nothing: expected hand sizes of 1 or more tiles".into());
    }
    Ok(Hands(Some(r)))
}

/// A shard `i/n`, `1 <= i <= n`.
pub(crate) fn shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || "expected i/n with 1 <= i <= n, like 1/4".to_string();
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// SPSA iterations, 1 to 1,000,000.
pub(crate) fn iterations(s: &str) -> Result<u64, String> {
    match whole::<u64>(s, "a whole number of iterations, 1 to 1000000")? {
        n @ 1..=1_000_000 => Ok(n),
        _ => Err("expected a whole number of iterations, 1 to 1000000".into()),
    }
}

/// A share of a range in (0, 0.5]: the SPSA perturbation.
pub(crate) fn perturbation(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 0.5 => Ok(v),
        _ => Err("expected a share of each range above 0 and at most 0.5, e.g. 0.1".into()),
    }
}

/// A positive learning rate, at most 1000.
pub(crate) fn rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 1000.0 => Ok(v),
        _ => Err("expected a number above 0 and at most 1000, e.g. 2".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_their_errors() {
        assert_eq!(seed("0x1f"), Ok(31));
        assert_eq!(seed("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(seed("0xffffffffffffffff"), Ok(u64::MAX));
        assert!(seed("-1").is_err() && seed("0x").is_err() && seed("1e3").is_err());
        assert!(games("0").unwrap_err().contains("plays nothing"));
        assert!(games("-5").unwrap_err().contains("1 or more"));
        assert_eq!(thread_list("1, 2,4").unwrap().0, [1, 2, 4]);
        assert!(thread_list("1,0").is_err() && thread_list("").is_err());
        assert!(seconds("-1").is_err() && seconds("inf").is_err() && seconds("0").is_err());
        assert_eq!(seconds("0.5"), Ok(0.5));
        assert_eq!(player_span("2-8"), Ok(Span(2, 8)));
        assert_eq!(player_span("4"), Ok(Span(4, 4)));
        assert!(player_span("8-2").is_err());
        assert!(hands("auto").unwrap().0.is_none());
        assert!(hands("0-4").unwrap_err().contains("0 tiles"));
        assert_eq!(shard("2/4"), Ok((2, 4)));
        assert!(shard("5/4").is_err() && shard("0/4").is_err());
    }
}
