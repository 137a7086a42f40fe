//! `mtrain tune`: SPSA over a bot's numeric parameters, then a confirmation on fresh deals.
//!
//! Each iteration plays the two perturbed bots against each other on duplicate deals (the
//! tournament runner, every thread) and steps the parameters ([`crate::tune`]). After every
//! iteration the state is saved atomically to `tune.json` with `trajectory.csv`, so Ctrl-C,
//! SIGTERM or SIGHUP lose at most the iteration in flight and `--resume DIR` continues exactly.
//! At the end: `trajectory.svg`, `tuned.txt` (the tuned bot's spec) and the confirmation, an
//! SPRT of the tuned bot against the starting one on deals no iteration played (`confirm.csv`),
//! which says plainly whether the gain holds.

use super::durable::{Common, Durable, drive};
use super::values;
use super::{BotArgs, CliError, TableArgs};
use crate::job::Start;
use crate::job::tune::{TuneConfig, TuneRun};
use crate::store::TUNE;
use crate::strategies::Registry;
use crate::tournament::Sprt;
use crate::tune::{Gains, TuningSpec};
use clap::Args;
use std::path::PathBuf;

/// Options of `mtrain tune`.
#[derive(Args, Debug, Clone)]
pub(crate) struct TuneArgs {
    #[command(flatten)]
    table: TableArgs,
    /// The bot to tune, with its starting parameters (name or name:key=value,...); for an
    /// external bot (--ext-bot) give the starting value of every --param here
    #[arg(long, value_name = "BOT")]
    bot: Option<String>,
    /// A numeric parameter of the bot to tune and its range, key=lo:hi (repeatable), e.g.
    /// --param pips=0:3 --param plan_tile=-2:1
    #[arg(long = "param", value_name = "KEY=LO:HI")]
    params: Vec<String>,
    /// SPSA iterations
    #[arg(long, default_value = "200", value_name = "K", value_parser = values::iterations, allow_hyphen_values = true)]
    iterations: u64,
    /// Games per iteration, the two perturbed bots against each other (rounded up to whole deals)
    #[arg(long, default_value = "64", value_name = "G", value_parser = values::games, allow_hyphen_values = true)]
    games: u64,
    /// Perturbation at the first iteration, as a share of each parameter's range
    #[arg(long, default_value = "0.1", value_name = "C", value_parser = values::perturbation, allow_hyphen_values = true)]
    perturbation: f64,
    /// Learning rate r: the first step moves a parameter by r x perturbation x (score - 1/2) of its range
    #[arg(long, default_value = "2", value_name = "R", value_parser = values::rate, allow_hyphen_values = true)]
    rate: f64,
    /// Master seed (decimal or 0x hex)
    #[arg(long, default_value = "1", value_name = "S", value_parser = values::seed, allow_hyphen_values = true)]
    seed: u64,
    /// The confirmation's SPRT: tuned against starting bot on fresh deals, Elo bounds elo0,elo1
    #[arg(long, default_value = "0,10", value_name = "ELO0,ELO1", value_parser = Sprt::parse, allow_hyphen_values = true)]
    confirm_sprt: Sprt,
    /// Most games the confirmation may play before it stops undecided
    #[arg(long, default_value = "20000", value_name = "G", value_parser = values::games, allow_hyphen_values = true)]
    confirm_games: u64,
    /// Worker threads, at most 4 per core (and at least 16 allowed) [default: every core]
    #[arg(long, value_name = "T", value_parser = values::threads, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Write tune.json, trajectory.csv, trajectory.svg, tuned.txt and confirm.csv here
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Continue the interrupted run in DIR (its settings are reused)
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// No progress bar
    #[arg(long)]
    quiet: bool,
    /// Write into a --out folder that already holds other files
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    bot_args: BotArgs,
}

/// The run the arguments describe, as data.
fn spec(a: &TuneArgs) -> TuningSpec {
    TuningSpec {
        table: a.table.spec(),
        bot: a.bot.clone(),
        params: a.params.clone(),
        gains: Gains { iterations: a.iterations, c: a.perturbation, r: a.rate },
        games: a.games,
        seed: a.seed,
        confirm: a.confirm_sprt,
        confirm_games: a.confirm_games,
    }
}

pub(crate) fn run(a: &TuneArgs, raw: &[String], registry: &Registry) -> Result<i32, CliError> {
    let common = Common {
        out: a.out.as_deref(),
        resume: a.resume.as_deref(),
        threads: a.threads,
        quiet: a.quiet,
        with_folder: &[],
        new_folder: &[("--force", a.force)],
    };
    let d = Durable::start(TUNE, raw, &common)?;
    let start = match &a.resume {
        Some(dir) => Start::Resume { dir: dir.clone(), ext: a.bot_args.ext_bots().to_vec() },
        None => {
            // The table's errors first, then the bot's and the parameters', then the folder's.
            a.table.table()?;
            let config = TuneConfig { spec: spec(a), bots: a.bot_args.setup() };
            if a.out.is_none() {
                let unsaved = Start::unsaved(config, None);
                crate::job::prepare::<TuneRun>(unsaved, registry, crate::job::Options::new(1), d.invocation())?;
                return Err(CliError::usage("give an output folder with --out DIR (or --resume DIR)"));
            }
            Start::New { config, shard: None, outputs: (), out: a.out.clone(), force: a.force }
        }
    };
    drive::<TuneRun>(&d, start, registry, None, a.bot_args.timeout())
}
