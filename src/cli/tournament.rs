//! `mtrain tournament`: many seeded games in parallel, statistics with intervals, CSV, shards,
//! early stopping, interruption and resumption.

use super::durable::{Common, Durable, drive, result_args};
use super::{BotArgs, CliError, TableArgs, values};
use crate::job::Start;
use crate::job::tournament::{TournamentOutputs, TournamentRun};
use crate::store::TOURNAMENT;
use crate::strategies::Registry;
use crate::tournament::{Sprt, TournamentConfig, TournamentSpec};
use clap::Args;
use std::path::PathBuf;

/// Options of `mtrain tournament`.
#[derive(Args, Debug, Clone)]
pub(crate) struct TournamentArgs {
    #[command(flatten)]
    table: TableArgs,
    /// The field: bots as name or name:key=value,..., comma-separated. As many as seats: that
    /// lineup (repeats allowed, e.g. greedy,greedy,planner,planner); fewer: repeated to fill the
    /// table (`greedy` alone is self-play); more: every combination of seats equally often.
    /// Results are per distinct bot [default: random, greedy, planner, hoarder, cutthroat: every built-in bot but weighted, the search bots montecarlo and expert, and the oracle]
    #[arg(long, value_name = "BOTS")]
    bots: Option<String>,
    /// Games to play; each seat rotation of a deal is one game, rounded up to whole deals (with
    /// one deterministic bot in every seat, rotations would replay the same game, so each deal
    /// is played once)
    #[arg(long, default_value = "10000", value_name = "G", value_parser = values::games, allow_hyphen_values = true)]
    games: u64,
    /// Master seed (decimal or 0x hex): game results depend only on it, the rules, the field and
    /// the game index
    #[arg(long, default_value = "1", value_name = "S", value_parser = values::seed, allow_hyphen_values = true)]
    seed: u64,
    /// Worker threads, at most 4 per core (and at least 16 allowed) [default: every core]
    #[arg(long, value_name = "T", value_parser = values::threads, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Write summary.csv, seats.csv, pairs.csv, ratings.csv, round_stats.csv, manifest.json and
    /// tally.json here
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress bar and no timing line on stderr
    #[arg(long)]
    quiet: bool,
    /// Play each deal once, in the given seating, instead of in every seat rotation
    #[arg(long)]
    no_rotate: bool,
    /// Keep the list's order around the table in every deal. By default the order varies over
    /// deals (every order in turn up to 8 seats, a random one per deal beyond), so who sits next
    /// to whom is balanced
    #[arg(long)]
    fixed_seating: bool,
    /// Also write games.csv (a row per game and seat) and rounds.csv (a row per round)
    #[arg(long)]
    per_game: bool,
    /// Stop a two-bot comparison as soon as a sequential test decides between Elo differences
    /// elo0 and elo1 (alpha = beta = 0.05), e.g. 0,10 or -5,5
    #[arg(long, value_name = "ELO0,ELO1", value_parser = Sprt::parse, allow_hyphen_values = true)]
    sprt: Option<Sprt>,
    /// The bot whose rating is 0 in the ratings (one of the field, as written in --bots)
    /// [default: the --gauntlet bot, else the first bot of the field]
    #[arg(long, value_name = "BOT")]
    anchor: Option<String>,
    /// Play BOT against the rest of the field: every table holds BOT once, the other seats
    /// filled from --bots (every combination in turn when they do not all fit). BOT is added
    /// to the field if --bots does not list it
    #[arg(long, value_name = "BOT")]
    gauntlet: Option<String>,
    /// Play only slice i of n (1 <= i <= n) of the deals; merge slices with mtrain merge. auto:
    /// the slice a Slurm job array gives this task; auto/N: the index a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX) or GNU parallel (PARALLEL_SEQ) gives, of N shards (docs/cluster.md)
    #[arg(long, value_name = "I/N|auto|auto/N", value_parser = super::shard::parse)]
    shard: Option<super::shard::ShardArg>,
    /// Continue the interrupted run whose output is in DIR (its settings are reused)
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// Save the run's exact state to --out every S seconds (and on Ctrl-C, SIGTERM or SIGHUP):
    /// after any interruption, even SIGKILL, --resume loses at most the games since the last one
    /// [default: 60]
    #[arg(long, value_name = "S", value_parser = values::timeout, allow_hyphen_values = true)]
    checkpoint: Option<f64>,
    /// Also write the full-information JSONL log of every game (the format of `mtrain play
    /// --log`, refereeable by scripts/checks/referee.py) into DIR, one file per chunk of 16 deals
    /// (games-NNNNNN.jsonl), the games in order
    #[arg(long, value_name = "DIR")]
    log_games: Option<PathBuf>,
    /// Write into a --out folder that already holds other files (mtrain's own output files in it
    /// are replaced; other files are left alone)
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    bot_args: BotArgs,
}

pub(crate) fn run(a: &TournamentArgs, raw_all: &[String], base: &Registry) -> Result<i32, CliError> {
    let common = Common {
        out: a.out.as_deref(),
        resume: a.resume.as_deref(),
        threads: a.threads,
        quiet: a.quiet,
        with_folder: &[("--per-game", a.per_game), ("--checkpoint", a.checkpoint.is_some())],
        new_folder: &[("--force", a.force)],
    };
    let d = Durable::start(TOURNAMENT, raw_all, &common)?;
    let start = match &a.resume {
        Some(dir) => Start::Resume { dir: dir.clone(), ext: a.bot_args.ext_bots().to_vec() },
        None => {
            // The table first: its errors come before the bots'.
            a.table.table()?;
            let mut args = result_args(&d.raw_sub);
            let shard = super::shard::resolve_shard(a.shard, &mut args)?;
            let spec = TournamentSpec {
                table: a.table.spec(),
                bots: a.bots.clone(),
                gauntlet: a.gauntlet.clone(),
                anchor: a.anchor.clone(),
                games: a.games,
                seed: a.seed,
                rotate: !a.no_rotate,
                vary_order: !a.fixed_seating,
                sprt: a.sprt,
                shard: None,
            };
            Start::New {
                config: TournamentConfig::new(&spec, a.bot_args.setup()),
                shard,
                outputs: TournamentOutputs { per_game: a.per_game, log_games: a.log_games.clone(), args },
                out: a.out.clone(),
                force: a.force,
            }
        }
    };
    drive::<TournamentRun>(&d, start, base, a.checkpoint, a.bot_args.timeout())
}
