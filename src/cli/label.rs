//! `mtrain label`: positions from matches a bot plays, each labelled by playouts of the true
//! round, written as `.npy` files for training a learned evaluation (docs/labels.md). As
//! durable as every run: the labels are saved chunk by chunk, `--resume` plays what is left,
//! `--shard` splits the run and `mtrain merge` gathers the shards.

use super::durable::{Common, Durable, drive, result_args};
use super::{BotArgs, CliError, TableArgs, values};
use crate::job::Start;
use crate::job::label::LabelRun;
use crate::label::{LabelConfig, LabelSpec, MAX_EVERY, MAX_ROLLOUTS};
use crate::store::LABEL;
use crate::strategies::Registry;
use clap::Args;
use std::path::PathBuf;

/// `--rollouts`: 1 to [`MAX_ROLLOUTS`].
fn rollouts(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(k) if (1..=MAX_ROLLOUTS).contains(&k) => Ok(k),
        _ => Err(format!("expected a whole number of playouts per label, 1 to {MAX_ROLLOUTS}")),
    }
}

/// `--every`: 1 to [`MAX_EVERY`].
fn every(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(k) if (1..=MAX_EVERY).contains(&k) => Ok(k),
        _ => Err(format!("expected a whole number from 1 (every decision) to {MAX_EVERY}")),
    }
}

/// Options of `mtrain label`.
#[derive(Args, Debug, Clone)]
pub(crate) struct LabelArgs {
    #[command(flatten)]
    table: TableArgs,
    /// The bot playing every seat of the matches the positions come from
    #[arg(long, default_value = "weighted", value_name = "SPEC")]
    policy: String,
    /// The bot playing every seat of the playouts that label a position
    #[arg(long, default_value = "weighted", value_name = "SPEC")]
    rollout: String,
    /// Playouts of the true round per label, each with the boneyard shuffled afresh
    #[arg(long, default_value = "8", value_name = "K", value_parser = rollouts, allow_hyphen_values = true)]
    rollouts: u32,
    /// Label one decision in K (drawn at random), seen from a seat drawn at random
    #[arg(long, default_value = "4", value_name = "K", value_parser = every, allow_hyphen_values = true)]
    every: u32,
    /// Matches to play
    #[arg(long, default_value = "100", value_name = "M", value_parser = values::games, allow_hyphen_values = true)]
    matches: u64,
    /// Seed (decimal or 0x hex): the labels depend only on it and the settings
    #[arg(long, default_value = "1", value_name = "S", value_parser = values::seed, allow_hyphen_values = true)]
    seed: u64,
    /// Worker threads, at most 4 per core (and at least 16 allowed) [default: every core]
    #[arg(long, value_name = "T", value_parser = values::threads, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Write the labels here: labels-CHUNK.x.npy, .y.npy and .meta.npy per chunk of 4 matches,
    /// labels.json (what the files hold), manifest.json and the run's state, label.json
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress bar and no timing line on stderr
    #[arg(long)]
    quiet: bool,
    /// Play only slice i of n (1 <= i <= n) of the chunks; gather slices with mtrain merge. auto
    /// and auto/N: the slice a scheduler gives (docs/cluster.md)
    #[arg(long, value_name = "I/N|auto|auto/N", value_parser = super::shard::parse)]
    shard: Option<super::shard::ShardArg>,
    /// Continue the interrupted run whose output is in DIR (its settings are reused)
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// Save the run's state to --out every S seconds (and on Ctrl-C, SIGTERM or SIGHUP); each
    /// chunk's files are written as it ends [default: 60]
    #[arg(long, value_name = "S", value_parser = values::timeout, allow_hyphen_values = true)]
    checkpoint: Option<f64>,
    /// Write into a --out folder that already holds other files (mtrain's own files in it are
    /// replaced; other files are left alone)
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    bot_args: BotArgs,
}

pub(crate) fn run(a: &LabelArgs, raw_all: &[String], base: &Registry) -> Result<i32, CliError> {
    if a.out.is_none() && a.resume.is_none() {
        return Err(CliError::usage("mtrain label writes its labels as files: give --out DIR (or --resume DIR)"));
    }
    let common = Common {
        out: a.out.as_deref(),
        resume: a.resume.as_deref(),
        threads: a.threads,
        quiet: a.quiet,
        with_folder: &[("--checkpoint", a.checkpoint.is_some())],
        new_folder: &[("--force", a.force)],
    };
    let d = Durable::start(LABEL, raw_all, &common)?;
    let start = match &a.resume {
        Some(dir) => Start::Resume { dir: dir.clone(), ext: a.bot_args.ext_bots().to_vec() },
        None => {
            a.table.table()?;
            let mut args = result_args(&d.raw_sub);
            let shard = super::shard::resolve_shard(a.shard, &mut args)?;
            let spec = LabelSpec {
                table: a.table.spec(),
                policy: a.policy.clone(),
                rollout: a.rollout.clone(),
                rollouts: a.rollouts,
                every: a.every,
                matches: a.matches,
                seed: a.seed,
            };
            Start::New {
                config: LabelConfig { spec, bots: a.bot_args.setup() },
                shard,
                outputs: (),
                out: a.out.clone(),
                force: a.force,
            }
        }
    };
    drive::<LabelRun>(&d, start, base, a.checkpoint, a.bot_args.timeout())
}
