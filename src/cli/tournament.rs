//! `mtrain tournament`: many seeded games in parallel, statistics with intervals, CSV, shards,
//! early stopping, interruption and resumption.

use super::job::{Common, Durable, print_now, result_args};
use super::{BotArgs, CliError, TableArgs, bot_failure, values, write_in_folder};
use crate::external::{ExternalBots, Settings, StderrTo};
use crate::job::TOURNAMENT;
use crate::report::tournament as rep;
use crate::strategies::Registry;
use crate::tournament::{
    CHUNK_DEALS, ChunkSet, Identity, Outputs, RunOptions, RunState, Session, Sprt, SprtState, TournamentConfig,
    TournamentJob, TournamentSpec,
};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

/// A fully checked run: the library's job, and what the command line adds to it.
pub(crate) struct Config {
    /// The tournament, its stopping rule, anchor, gauntlet, shard and labels.
    pub(crate) job: TournamentJob,
    /// What the run is, as its state stores it.
    pub(crate) stored: TournamentConfig,
    per_game: bool,
    /// The arguments that gave the run (stored for people reading the folder).
    args: Vec<String>,
    /// The external bots, for their failure.
    pub(crate) ext: ExternalBots,
    /// Where game logs go, if anywhere.
    log_games: Option<PathBuf>,
}

impl std::ops::Deref for Config {
    type Target = TournamentJob;
    fn deref(&self) -> &TournamentJob {
        &self.job
    }
}

/// The run `stored` describes, playing `shard`: the registry with its bots (external bots
/// started with `timeout` seconds and their stderr to `stderr`) and the job, checked.
pub(crate) fn open(
    stored: TournamentConfig,
    shard: Option<(u64, u64)>,
    base: &Registry,
    stderr: StderrTo,
    timeout: f64,
) -> Result<Config, CliError> {
    let settings = Settings { timeout: Duration::from_secs_f64(timeout), stderr };
    let (registry, ext) = stored.bots.registry(base, &settings).map_err(CliError::usage)?;
    let spec = TournamentSpec { shard, ..stored.spec.clone() };
    let job = TournamentJob::new(&spec, &registry).map_err(CliError::usage)?;
    Ok(Config { job, stored, per_game: false, args: Vec::new(), ext, log_games: None })
}

/// Checks the arguments and sets the run up; external bots run with `timeout` seconds and
/// their stderr to `stderr`.
pub(crate) fn build(
    a: &TournamentArgs,
    raw: &[String],
    base: &Registry,
    stderr: StderrTo,
    timeout: f64,
) -> Result<Config, CliError> {
    // The table first: its errors come before the bots'.
    a.table.table()?;
    let mut args = result_args(raw);
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
    let c = open(TournamentConfig::new(&spec, a.bot_args.setup()), shard, base, stderr, timeout)?;
    Ok(Config { per_game: a.per_game, args, log_games: a.log_games.clone(), ..c })
}

/// The run stored in `st` (`dir`'s), rebuilt from its configuration, with a corrected command
/// for any external bot in `ext`; `st` then stores the corrected configuration.
fn resumed(
    st: &mut RunState,
    dir: &Path,
    ext: &[crate::external::ExternalSpec],
    base: &Registry,
    timeout: f64,
) -> Result<Config, CliError> {
    let bad = |e: &dyn std::fmt::Display| CliError::usage(format!("cannot resume from '{}': {e}", dir.display()));
    let mut stored = TournamentConfig::of(st).map_err(|e| bad(&e))?;
    stored.bots = stored.bots.with_commands(ext).map_err(CliError::usage)?;
    st.config = stored.to_value();
    let c = open(stored, st.shard, base, bot_logs(Some(dir)), timeout)?;
    Ok(Config { per_game: st.per_game.is_some(), args: st.args.clone(), log_games: st.log_games.clone(), ..c })
}

/// What runs, before it runs.
pub(crate) fn header(c: &Config) -> String {
    c.job.header()
}

/// Where the external bots' stderr goes: `bot-logs/` in the output folder, if there is one.
fn bot_logs(out: Option<&Path>) -> StderrTo {
    out.map_or(StderrTo::Discard, |d| StderrTo::Dir(d.join("bot-logs")))
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
    let job = Durable::start(TOURNAMENT, raw_all, &common)?;
    // Everything is checked before anything is written.
    let (config, out, previous) = match &a.resume {
        Some(dir) => {
            let (_, text) = job.stored(dir)?;
            let mut st = RunState::from_json(&text)
                .map_err(|e| CliError::usage(format!("cannot resume from '{}': {e}", dir.display())))?;
            // The run is rebuilt from the configuration its state stores, not from a command line.
            let c = resumed(&mut st, dir, a.bot_args.ext_bots(), base, a.bot_args.bot_timeout)?;
            (c, Some(dir.clone()), Some(st))
        }
        None => {
            let c = build(a, &job.raw_sub, base, bot_logs(a.out.as_deref()), a.bot_args.bot_timeout)?;
            (c, a.out.clone(), None)
        }
    };
    let t = &config.tournament;
    let id = Identity {
        config: config.stored.to_value(),
        shard: config.shard,
        args: config.args.clone(),
        plan: ChunkSet::slice(t.chunk_count(), config.shard),
    };
    if let Some((i, n)) = config.shard
        && id.plan.is_empty()
    {
        // More shards than chunks: a slice of none is legal (merge counts it) but plays nothing.
        let chunks = t.chunk_count();
        eprintln!(
            "mtrain: note: shard {i}/{n} holds no deals of this run ({} deals in {chunks} chunk{} of {CHUNK_DEALS}, for {n} shards): it plays nothing (give at most {chunks} shards to give each some deals)",
            t.schedule.deals,
            if chunks == 1 { "" } else { "s" },
        );
    }
    let outputs = Outputs { dir: out.clone(), per_game: config.per_game, logs: config.log_games.clone() };
    if previous.is_none() {
        // A refused log folder leaves no new --out folder behind.
        Session::check_new(&id, &outputs, a.force)?;
    }
    let mut session = match previous {
        Some(st) => Session::resume(t, id, outputs, st)?,
        None => Session::new(t, id, outputs, a.force)?,
    };
    let todo_games: u64 = session.todo().iter().map(|&c| t.chunk_games(c)).sum();
    // What runs, before it runs: a long run shows more than a progress bar.
    print_now(&(header(&config) + "\n"));
    let opts = RunOptions {
        per_game: config.per_game,
        sprt: config.sprt,
        progress: job.progress(todo_games, "games"),
        log_games: config.log_games.as_ref().map(|_| config.changes.clone()),
        ..job.options(out.is_some(), a.checkpoint)
    };
    let started = Instant::now();
    let before = session.games_before();
    // The manifest and reports of a checkpoint: the manifest first, so that a run killed
    // before its first state file leaves a folder the same command recognises as its own.
    let files = |st: &RunState, sprt: Option<&SprtState>| {
        let mut f = vec![("manifest.json", rep::manifest(&config.job, &job.invocation(), &config.args, st, sprt))];
        f.extend(rep::files(&config.labels, &st.tally, config.anchor));
        f
    };
    let result = session.run::<CliError>(&opts, files, write_in_folder)?;
    opts.progress.finish_and_clear();
    let mut report = rep::console(&config.labels, &result.tally, config.anchor, config.gauntlet);
    if let (Some(p), Some(s)) = (&config.sprt, &result.sprt) {
        report.push('\n');
        report.push_str(&rep::sprt_text(p, s));
    }
    let failed = bot_failure(&config.ext);
    print_now(&report);
    if result.interrupted || failed.is_some() {
        return job.stopped(failed, out.as_deref(), result.tally.games, t.schedule.games());
    }
    job.timing(result.tally.games - before, started.elapsed());
    Ok(0)
}
