//! `--shard`: which slice of a run this process plays, given (`I/N`) or read from the scheduler
//! that started it (`auto`, `auto/N`).
//!
//! Schedulers that run one command many times each tell a copy its index in an environment
//! variable; `--shard auto` reads it, so one job script serves every index:
//!
//! | scheduler | index | count |
//! |---|---|---|
//! | Slurm job array (`--array=1-64` or `0-63`) | `SLURM_ARRAY_TASK_ID` minus `SLURM_ARRAY_TASK_MIN` | `SLURM_ARRAY_TASK_COUNT` |
//! | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` (from 0) | `--shard auto/N` (the Job's `completions`) |
//! | GNU parallel | `PARALLEL_SEQ`, the job's sequence number (from 1) | `--shard auto/N` |
//!
//! GNU parallel also has a job *slot*, but a slot is reused by every job that runs in it; only
//! the sequence number names one job. A variable that is set but cannot be read as a shard, or
//! a scheduler's index without its count, is refused with one line rather than played as the
//! whole run.

use super::CliError;

/// The `--shard` value as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShardArg {
    /// `I/N`: slice `I` of `N`, 1-based.
    Slice(u64, u64),
    /// `auto` (`None`) or `auto/N`: from the scheduler's environment, with the count given.
    Auto(Option<u64>),
}

/// Parses `I/N`, `auto` or `auto/N` (clap's value parser).
pub(crate) fn parse(s: &str) -> Result<ShardArg, String> {
    let s = s.trim();
    if s == "auto" {
        return Ok(ShardArg::Auto(None));
    }
    if let Some(n) = s.strip_prefix("auto/") {
        return match n.trim().parse::<u64>() {
            Ok(n) if n >= 1 => Ok(ShardArg::Auto(Some(n))),
            _ => Err("expected auto/N with N at least 1, like auto/64".into()),
        };
    }
    let (i, n) = super::values::shard(s).map_err(|_| {
        "expected i/n with 1 <= i <= n (like 1/4), auto (the scheduler's shard), or auto/N (its index, N shards)"
            .to_string()
    })?;
    Ok(ShardArg::Slice(i, n))
}

/// The slice `arg` names, reading the scheduler's variables through `var` for `auto`.
///
/// # Errors
/// One line naming the variables found (or looked for) and what is wrong with them.
pub(crate) fn resolve(arg: ShardArg, var: &dyn Fn(&str) -> Option<String>) -> Result<(u64, u64), String> {
    let count = match arg {
        ShardArg::Slice(i, n) => return Ok((i, n)),
        ShardArg::Auto(count) => count,
    };
    let number = |k: &str, v: &str| -> Result<u64, String> {
        v.trim().parse::<u64>().map_err(|_| format!("--shard auto: {k}={v} is not a whole number"))
    };
    if let Some(id) = var("SLURM_ARRAY_TASK_ID") {
        let Some(total) = var("SLURM_ARRAY_TASK_COUNT") else {
            return Err(format!(
                "--shard auto: SLURM_ARRAY_TASK_ID={id} is set but SLURM_ARRAY_TASK_COUNT is not: run it as a Slurm job array (sbatch --array), or give --shard I/N"
            ));
        };
        if let Some(step) = var("SLURM_ARRAY_TASK_STEP").filter(|s| s.trim() != "1") {
            return Err(format!(
                "--shard auto: SLURM_ARRAY_TASK_STEP={step}: the array must be contiguous (like --array=1-64), or give --shard I/N"
            ));
        }
        let min = var("SLURM_ARRAY_TASK_MIN").unwrap_or_else(|| "0".into());
        let (id_n, min_n, total_n) = (
            number("SLURM_ARRAY_TASK_ID", &id)?,
            number("SLURM_ARRAY_TASK_MIN", &min)?,
            number("SLURM_ARRAY_TASK_COUNT", &total)?,
        );
        if total_n == 0 || id_n < min_n || id_n - min_n >= total_n {
            return Err(format!(
                "--shard auto: SLURM_ARRAY_TASK_ID={id} is outside the array SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_COUNT={total}"
            ));
        }
        if let Some(n) = count.filter(|&n| n != total_n) {
            return Err(format!(
                "--shard auto/{n}: the Slurm array has SLURM_ARRAY_TASK_COUNT={total} tasks, not {n}: give --shard auto"
            ));
        }
        return Ok((id_n - min_n + 1, total_n));
    }
    // Schedulers that give an index only: (variable, its first index).
    for (k, first) in [("JOB_COMPLETION_INDEX", 0u64), ("PARALLEL_SEQ", 1)] {
        let Some(v) = var(k) else { continue };
        let index = number(k, &v)?;
        let Some(n) = count else {
            return Err(format!(
                "--shard auto: {k}={v} gives this copy's index but not the number of shards: give --shard auto/N"
            ));
        };
        if index < first || index - first >= n {
            return Err(format!("--shard auto/{n}: {k}={v} is outside the {n} shards (from {first})"));
        }
        return Ok((index - first + 1, n));
    }
    Err("--shard auto found no scheduler's shard in the environment (looked for SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT, JOB_COMPLETION_INDEX, PARALLEL_SEQ): give --shard I/N".into())
}

/// The shard to play from `--shard`, with `args` (the stored arguments that reproduce the run)
/// holding the resolved `--shard I/N` in place of `auto`, so that `--resume` and `merge` find
/// the same slice without the scheduler's variables. Without `--shard`, the whole run; a Slurm
/// array variable then gets a note on stderr, since the whole run in every task is rarely meant.
pub(crate) fn resolve_shard(given: Option<ShardArg>, args: &mut Vec<String>) -> Result<Option<(u64, u64)>, CliError> {
    let Some(arg) = given else {
        if let Ok(id) = std::env::var("SLURM_ARRAY_TASK_ID") {
            eprintln!(
                "mtrain: note: SLURM_ARRAY_TASK_ID={id} is set but --shard is not: this task plays the whole run (give --shard auto to play its slice)"
            );
        }
        return Ok(None);
    };
    let (i, n) = resolve(arg, &|k| std::env::var(k).ok()).map_err(CliError::usage)?;
    let mut kept = without_shard(args);
    kept.extend(["--shard".to_string(), format!("{i}/{n}")]);
    *args = kept;
    Ok(Some((i, n)))
}

/// Exit code of a merge that lacks shards (without `--partial`).
pub(crate) const EXIT_INCOMPLETE: i32 = 4;

/// The exit code and the stderr line of a merge that lacks `missing` shards.
pub(crate) fn incomplete(command: &str, missing: &[String], out: &std::path::Path, partial: bool) -> i32 {
    eprintln!(
        "mtrain: incomplete merge: missing {}; the merged folder holds the rest (`mtrain {command} --resume {}` plays what is missing){}",
        missing.join(", "),
        out.display(),
        if partial { "" } else { "; pass --partial to accept it with exit code 0" }
    );
    if partial { 0 } else { EXIT_INCOMPLETE }
}

/// Stored arguments without their `--shard` (what reproduces the merged run).
pub(crate) fn without_shard(args: &[String]) -> Vec<String> {
    super::durable::without_option(args, "--shard")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let owned: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |k: &str| owned.iter().find(|(a, _)| a == k).map(|(_, v)| v.clone())
    }

    #[test]
    fn values_parse() {
        assert_eq!(parse("3/8"), Ok(ShardArg::Slice(3, 8)));
        assert_eq!(parse("auto"), Ok(ShardArg::Auto(None)));
        assert_eq!(parse("auto/64"), Ok(ShardArg::Auto(Some(64))));
        for bad in ["0/4", "5/4", "auto/0", "auto/x", "automatic", ""] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn slurm_arrays_from_zero_or_one_map_to_slices_from_one() {
        let one = env(&[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "64")]);
        assert_eq!(resolve(ShardArg::Auto(None), &one), Ok((1, 64)));
        let zero =
            env(&[("SLURM_ARRAY_TASK_ID", "63"), ("SLURM_ARRAY_TASK_MIN", "0"), ("SLURM_ARRAY_TASK_COUNT", "64")]);
        assert_eq!(resolve(ShardArg::Auto(None), &zero), Ok((64, 64)));
        assert_eq!(resolve(ShardArg::Auto(Some(64)), &zero), Ok((64, 64)));
        assert!(resolve(ShardArg::Auto(Some(32)), &zero).unwrap_err().contains("not 32"));
        // A lone task id is refused, not played as the whole run.
        let lone = env(&[("SLURM_ARRAY_TASK_ID", "3")]);
        assert!(resolve(ShardArg::Auto(None), &lone).unwrap_err().contains("SLURM_ARRAY_TASK_COUNT is not"));
        let out = env(&[("SLURM_ARRAY_TASK_ID", "9"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "8")]);
        assert!(resolve(ShardArg::Auto(None), &out).unwrap_err().contains("outside the array"));
        let step =
            env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_COUNT", "8"), ("SLURM_ARRAY_TASK_STEP", "2")]);
        assert!(resolve(ShardArg::Auto(None), &step).unwrap_err().contains("contiguous"));
    }

    #[test]
    fn index_only_schedulers_need_the_count() {
        let k8s = env(&[("JOB_COMPLETION_INDEX", "0")]);
        assert_eq!(resolve(ShardArg::Auto(Some(64)), &k8s), Ok((1, 64)));
        assert!(resolve(ShardArg::Auto(None), &k8s).unwrap_err().contains("give --shard auto/N"));
        assert!(resolve(ShardArg::Auto(Some(64)), &env(&[("JOB_COMPLETION_INDEX", "64")])).is_err());
        let parallel = env(&[("PARALLEL_SEQ", "64")]);
        assert_eq!(resolve(ShardArg::Auto(Some(64)), &parallel), Ok((64, 64)));
        assert!(resolve(ShardArg::Auto(Some(64)), &env(&[("PARALLEL_SEQ", "0")])).is_err());
        let none = env(&[]);
        assert!(resolve(ShardArg::Auto(Some(4)), &none).unwrap_err().contains("found no scheduler's shard"));
        assert_eq!(resolve(ShardArg::Slice(2, 4), &none), Ok((2, 4)));
    }
}
