//! `mtrain eval`: rate one bot under the standard evaluation "mtrain-eval v1" against the frozen
//! baselines (random, greedy, planner, weighted, expert): a score and an Elo difference with
//! 95% intervals per preset, table size and baseline, and a rating on one scale with the
//! baselines (greedy = 0). `--protocol` prints the protocol; `--quick` plays its small variant
//! for smoke tests (not v1). As durable as every run: `--out` saves the exact state
//! (`eval.json`) every `--checkpoint` seconds and on a signal, and `--resume` continues it.

use super::durable::{Common, Durable, drive};
use super::{BotArgs, CliError, values};
use crate::eval::{EvalConfig, EvalSpec, Protocol};
use crate::job::Start;
use crate::job::eval::EvalRun;
use crate::store::EVAL;
use crate::strategies::Registry;
use clap::Args;
use std::path::PathBuf;

/// Options of `mtrain eval`.
#[derive(Args, Debug, Clone)]
pub(crate) struct EvalArgs {
    /// The bot to evaluate: a built-in spec (NAME or NAME:KEY=VALUE,...), a --name, or an
    /// external program given with --ext-bot NAME=COMMAND
    #[arg(long, value_name = "SPEC")]
    bot: Option<String>,
    /// Play the quick variant (2-round matches, 32 games a cell) for smoke tests: its figures
    /// are not mtrain-eval v1 figures
    #[arg(long)]
    quick: bool,
    /// Print the protocol (v1, or the quick variant with --quick) and exit
    #[arg(long)]
    protocol: bool,
    /// Worker threads, at most 4 per core (and at least 16 allowed) [default: every core]
    #[arg(long, value_name = "T", value_parser = values::threads, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Write eval.csv and manifest.json here (and the run's state, eval.json)
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress bar and no timing line on stderr
    #[arg(long)]
    quiet: bool,
    /// Write into a --out folder that holds files other than an evaluation's (mtrain's own
    /// output files in it are replaced; other files are left alone)
    #[arg(long)]
    force: bool,
    /// Continue the interrupted evaluation whose output is in DIR (its settings are reused)
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// Save the evaluation's exact state to --out every S seconds (and on Ctrl-C, SIGTERM or
    /// SIGHUP) [default: 60]
    #[arg(long, value_name = "S", value_parser = values::timeout, allow_hyphen_values = true)]
    checkpoint: Option<f64>,
    #[command(flatten)]
    bot_args: BotArgs,
}

pub(crate) fn run(a: &EvalArgs, raw: &[String], base: &Registry) -> Result<i32, CliError> {
    if a.protocol {
        out!("{}", Protocol::of(a.quick).text());
        return Ok(0);
    }
    let common = Common {
        out: a.out.as_deref(),
        resume: a.resume.as_deref(),
        threads: a.threads,
        quiet: a.quiet,
        with_folder: &[("--checkpoint", a.checkpoint.is_some())],
        new_folder: &[("--force", a.force)],
    };
    let start = match &a.resume {
        Some(dir) => {
            if a.bot.is_some() || a.quick {
                return Err(CliError::usage(
                    "--resume continues the stored evaluation with its own settings: give no --bot or --quick",
                ));
            }
            Start::Resume { dir: dir.clone(), ext: a.bot_args.ext_bots().to_vec() }
        }
        None => {
            let Some(bot) = &a.bot else {
                return Err(CliError::usage(
                    "give --bot SPEC (the bot to evaluate), --resume DIR, or --protocol to print the protocol",
                ));
            };
            Start::New {
                config: EvalConfig { spec: EvalSpec::new(bot, a.quick), bots: a.bot_args.setup() },
                shard: None,
                outputs: (),
                out: a.out.clone(),
                force: a.force,
            }
        }
    };
    let d = Durable::start(EVAL, raw, &common)?;
    drive::<EvalRun>(&d, start, base, a.checkpoint, a.bot_args.timeout())
}
