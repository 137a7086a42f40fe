//! `mtrain merge`: combines the outputs of the shards of a run (a tournament, a balance sweep)
//! into the results of one run, through the run's job ([`crate::job::merge_any`]).
//!
//! The merged `summary.csv`, `seats.csv`, `pairs.csv` and `round_stats.csv` are byte-identical
//! to those of a single run of the same games, because every statistic is an exact integer sum.

use super::CliError;
use super::shard::incomplete;
use crate::report::manifest::{Invocation, Started};
use crate::strategies::Registry;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
/// Options of `mtrain merge`.
#[derive(Args, Debug)]
pub(crate) struct MergeArgs {
    /// Output directories of the shards (each holds a tally.json)
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Where to write the merged results
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Accept a merge that lacks shards (exit code 0). Without it, an incomplete merge still
    /// writes what it has (`mtrain tournament --resume OUT` plays the rest) but exits with code
    /// 4, naming the missing shards on stderr
    #[arg(long)]
    partial: bool,
}

pub(crate) fn run(a: &MergeArgs, raw_all: &[String], registry: &Registry) -> Result<i32, CliError> {
    let inv = Invocation { subcommand: "merge", command: raw_all, started: Started::now(), threads: 0 };
    let (kind, merged) = crate::job::merge_any(&a.dirs, &a.out, registry, inv)?;
    let _ = std::io::stdout().lock().write_all(merged.report.as_bytes());
    if !merged.missing.is_empty() {
        return Ok(incomplete(kind.name, &merged.missing, &a.out, a.partial));
    }
    Ok(0)
}
