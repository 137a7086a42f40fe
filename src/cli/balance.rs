//! `mtrain balance`: sweep hand sizes for each player count, measure fairness and playability
//! with intervals, recommend a hand size per player count, and plot every metric.
//!
//! Every input is checked before anything is played or written. A sweep is as durable as a
//! tournament: with `--out` it saves its exact state (`tally.json`, one [`CellState`] per cell)
//! every `--checkpoint` seconds and on SIGINT, SIGTERM and SIGHUP, resumes with `--resume`,
//! plays a slice with `--shard` (`auto`: the scheduler's, docs/cluster.md), and `mtrain merge` combines the
//! slices. The result files are written, each atomically, once every cell is complete.

use super::durable::{Common, Durable, drive};
use super::limits::LimitArgs;
use super::values::{self, Hands, Span};
use super::{BotArgs, CliError};
use crate::balance::{self as bal, Objective, RankBy, SweepConfig, SweepSpec};
use crate::job::Start;
use crate::job::balance::BalanceRun;
use crate::store::BALANCE;
use crate::strategies::Registry;
use clap::Args;
use std::path::PathBuf;

/// Options of `mtrain balance`.
#[derive(Args, Debug, Clone)]
pub(crate) struct BalanceArgs {
    /// Rules preset [valid: celko1998, wikipedia, dominorules, family_house, harbour_cay]
    #[arg(long, default_value = "wikipedia", value_name = "PRESET")]
    rules: String,
    /// Change one rule of the preset (repeatable), as in `mtrain tournament`
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rule: Vec<String>,
    /// Domino set: double-M [valid: 6, 9, 12, 15, 18]
    #[arg(long, default_value = "12", value_name = "M", value_parser = values::set, allow_hyphen_values = true)]
    set: u8,
    /// Player counts: N or A-B [valid: the counts the preset's deal table has for the set]
    #[arg(long, default_value = "2-8", value_name = "A-B", value_parser = values::player_span, allow_hyphen_values = true)]
    players: Span,
    /// Hand sizes: H, A-B, or auto (from 5 tiles to the most the set can deal each player count,
    /// at most 24)
    #[arg(long, default_value = "auto", value_name = "A-B|auto", value_parser = values::hands, allow_hyphen_values = true)]
    hands: Hands,
    /// Games per cell (player count and hand size) at the first look, and the size of each
    /// further batch; each seat rotation of a deal is one game
    #[arg(long, default_value = "4000", value_name = "G", value_parser = values::games, allow_hyphen_values = true)]
    games: u64,
    /// Most games a cell may play: a cell whose figures are not yet decided against their limits
    /// (an interval that contains the edge of a limit's margin) plays another --games,
    /// up to this [default: 4 x --games; equal to --games for a fixed sample]
    #[arg(long, value_name = "G", value_parser = values::games, allow_hyphen_values = true)]
    max_games: Option<u64>,
    #[command(flatten)]
    limits: LimitArgs,
    /// Rounds per match [default: every double from the highest down to 0-0]
    #[arg(long, value_name = "K", value_parser = values::rounds, allow_hyphen_values = true)]
    rounds: Option<u8>,
    /// The population of players, as in `mtrain tournament` (fewer than seats are repeated to
    /// fill the table, more are combined). List the strongest first and a beginner last: skill
    /// (the floor) is the first bot's head-to-head score against the last, luck (the ceiling) the
    /// second's against the last (the first's in a field of two)
    #[arg(long, default_value = bal::DEFAULT_POPULATION, value_name = "BOTS")]
    bots: String,
    /// How to pick the recommended hand size [valid: balanced, no_defect, most_skill, least_advantage, least_blocked]
    #[arg(long, default_value = "balanced", value_name = "NAME")]
    objective: String,
    /// Rank the candidates of the balanced objective [valid: published (no ranking: the
    /// published hand whenever it is a candidate), skill (most skill expression), blocked (fewest
    /// blocked rounds), first_player (smallest first-player edge), minutes=M (match length
    /// closest to M minutes)]; the published hand stays the pick only when no candidate is
    /// measurably better, and recommendation.csv says which happened
    #[arg(long, default_value = "published", value_name = "RANKING")]
    rank_by: String,
    /// Seconds a turn takes at the table, for match length in minutes [default: 15, from a
    /// published estimate of a four-player home match; see docs/compare.md]
    #[arg(long, default_value_t = bal::SECONDS_PER_TURN, value_name = "S", value_parser = values::seconds, allow_hyphen_values = true)]
    seconds_per_turn: f64,
    /// Metrics to plot, comma-separated [default: all; see docs/csv.md]
    #[arg(long, value_name = "LIST")]
    metrics: Option<String>,
    /// Master seed (decimal or 0x hex)
    #[arg(long, default_value = "1", value_name = "S", value_parser = values::seed, allow_hyphen_values = true)]
    seed: u64,
    /// Worker threads, at most 4 per core (and at least 16 allowed) [default: every core]
    #[arg(long, value_name = "T", value_parser = values::threads, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Write balance.csv, recommendation.csv, one SVG per metric and manifest.json here
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress bar and no timing line on stderr
    #[arg(long)]
    quiet: bool,
    /// Write into a --out folder that holds files other than a balance sweep's (mtrain's own
    /// output files in it are replaced; other files are left alone)
    #[arg(long)]
    force: bool,
    /// Continue the interrupted sweep whose output is in DIR (its settings are reused)
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// Play only slice i of n (1 <= i <= n) of the sweep's games; merge slices with mtrain
    /// merge. auto: the slice a Slurm job array gives this task; auto/N: the index a Kubernetes
    /// Indexed Job (JOB_COMPLETION_INDEX) or GNU parallel (PARALLEL_SEQ) gives, of N shards
    /// (docs/cluster.md)
    #[arg(long, value_name = "I/N|auto|auto/N", value_parser = super::shard::parse)]
    shard: Option<super::shard::ShardArg>,
    /// Save the sweep's exact state to --out every S seconds (and on Ctrl-C, SIGTERM or SIGHUP)
    /// [default: 60]
    #[arg(long, value_name = "S", value_parser = values::timeout, allow_hyphen_values = true)]
    checkpoint: Option<f64>,
    #[command(flatten)]
    bot_args: BotArgs,
}

/// The sweep the arguments describe, checked.
fn spec(a: &BalanceArgs) -> Result<SweepSpec, CliError> {
    Ok(SweepSpec {
        preset: a.rules.clone(),
        set: a.set,
        rounds: a.rounds,
        rules: a.rule.clone(),
        players: (a.players.0, a.players.1),
        hands: a.hands.0.map(|Span(lo, hi)| (lo, hi)),
        bots: a.bots.clone(),
        games: a.games,
        max_games: a.max_games,
        seed: a.seed,
        objective: Objective::parse(a.objective.trim()).map_err(CliError::usage)?,
        limits: a.limits.limits(),
        metrics: a.metrics.as_ref().map(|m| m.split(',').map(|s| s.trim().to_string()).collect()),
        rank_by: RankBy::parse(&a.rank_by).map_err(|e| CliError::usage(format!("--rank-by: {e}")))?,
        seconds_per_turn: a.seconds_per_turn,
    })
}

pub(crate) fn run(a: &BalanceArgs, raw: &[String], base: &Registry) -> Result<i32, CliError> {
    let common = Common {
        out: a.out.as_deref(),
        resume: a.resume.as_deref(),
        threads: a.threads,
        quiet: a.quiet,
        with_folder: &[("--checkpoint", a.checkpoint.is_some())],
        new_folder: &[("--force", a.force)],
    };
    let d = Durable::start(BALANCE, raw, &common)?;
    // A resumed sweep is rebuilt from the configuration its state stores, not from a command
    // line; a corrected --ext-bot command may replace one.
    let start = match &a.resume {
        Some(dir) => Start::Resume { dir: dir.clone(), ext: a.bot_args.ext_bots().to_vec() },
        None => Start::New {
            config: SweepConfig { spec: spec(a)?, bots: a.bot_args.setup() },
            shard: super::shard::resolve_shard(a.shard, &mut Vec::new())?,
            outputs: (),
            out: a.out.clone(),
            force: a.force,
        },
    };
    drive::<BalanceRun>(&d, start, base, a.checkpoint, a.bot_args.timeout())
}
