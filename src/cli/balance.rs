//! `mtrain balance`: sweep hand sizes for each player count, measure fairness and playability
//! with intervals, recommend a hand size per player count, and plot every metric.
//!
//! Every input is checked before anything is played or written. A sweep is as durable as a
//! tournament: with `--out` it saves its exact state (`tally.json`, one [`CellState`] per cell)
//! every `--checkpoint` seconds and on SIGINT, SIGTERM and SIGHUP, resumes with `--resume`,
//! plays a slice with `--shard` (`auto`: the scheduler's, docs/cluster.md), and `mtrain merge` combines the
//! slices. The result files are written, each atomically, once every cell is complete.

use super::job::{Common, Durable, print_now};
use super::limits::LimitArgs;
use super::values::{self, Hands, Span};
use super::{BotArgs, CliError, bot_failure, write_in_folder};
use crate::balance::{self as bal, Cell, Objective, Sweep, SweepConfig, SweepError, SweepSpec};
use crate::external::Settings;
use crate::external::StderrTo;
use crate::job::{BALANCE, BOT_LOGS, Folder};
use crate::report::balance as rep;
use crate::strategies::Registry;
use crate::tournament::{RunOptions, SweepState};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    })
}

/// The registry of a sweep's bots (external bots' stderr to `stderr`) and the sweep, checked.
pub(crate) fn open(
    c: &SweepConfig,
    base: &Registry,
    stderr: StderrTo,
    timeout: f64,
) -> Result<(Sweep, Registry, crate::external::ExternalBots), CliError> {
    let settings = Settings { timeout: Duration::from_secs_f64(timeout), stderr };
    let (registry, ext) = c.bots.registry(base, &settings).map_err(CliError::usage)?;
    let p = Sweep::new(&c.spec, &registry)?;
    Ok((p, registry, ext))
}

impl From<SweepError> for CliError {
    fn from(e: SweepError) -> CliError {
        CliError::usage(e.to_string())
    }
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
    let job = Durable::start(BALANCE, raw, &common)?;
    // A resumed sweep is rebuilt from the configuration its state stores, not from a command
    // line; a corrected --ext-bot command may replace one.
    let (config, out, previous) = match &a.resume {
        Some(dir) => {
            let (_, text) = job.stored(dir)?;
            let bad = |e: String| CliError::usage(format!("cannot resume from '{}': {e}", dir.display()));
            let mut st = SweepState::from_json(&text).map_err(|e| bad(e.to_string()))?;
            let mut c = SweepConfig::of(&st).map_err(|e| bad(e.to_string()))?;
            c.bots = c.bots.with_commands(a.bot_args.ext_bots()).map_err(CliError::usage)?;
            st.config = c.to_value();
            (c, Some(dir.clone()), Some(st))
        }
        None => (SweepConfig { spec: spec(a)?, bots: a.bot_args.setup() }, a.out.clone(), None),
    };
    let logs = out.as_ref().map_or(StderrTo::Discard, |d| StderrTo::Dir(d.join(BOT_LOGS)));
    let (p, registry, ext) = open(&config, base, logs, a.bot_args.timeout())?;
    let shard = match &previous {
        Some(st) => st.shard,
        None => super::shard::resolve_shard(a.shard, &mut Vec::new())?,
    };
    if shard.is_some() && out.is_none() {
        return Err(CliError::usage(
            "a shard of a sweep is only useful merged with the others: give --out DIR (then mtrain merge the shards' folders)",
        ));
    }
    let resumed = previous.is_some();
    let mut state = p.start(previous, &config, shard, &registry).map_err(|e| match (&e, &out) {
        (SweepError::State(_), Some(dir)) => CliError::usage(format!("cannot resume from '{}': {e}", dir.display())),
        _ => CliError::from(e),
    })?;
    let folder = match &out {
        Some(dir) if !resumed => Some(new_folder(dir, &config, a.force)?),
        Some(dir) => Some(Folder { dir: dir.clone(), kind: BALANCE }),
        None => None,
    };
    let total_games = p.planned_games(&state, &registry)?;
    let inv = job.invocation();
    let save = |st: &SweepState, complete: bool, stopped: Option<&str>| -> Result<(), CliError> {
        let Some(folder) = &folder else { return Ok(()) };
        let played = (bal::games_played(st), total_games);
        let m = rep::manifest(&p, &inv, &config.spec.bots, shard, played, complete, stopped);
        folder.save(&[("manifest.json", m)], &st.to_json(), &mut |p, b| write_in_folder(p, b))
    };
    if !resumed {
        save(&state, false, Some("interrupted"))?;
    }
    // What runs, before it runs.
    print_now(&rep::header(&p));
    let before = bal::games_played(&state);
    let progress = job.progress(total_games.saturating_sub(before), "games");
    let opts = RunOptions { progress: progress.clone(), ..job.options(out.is_some(), a.checkpoint) };
    let started = Instant::now();
    let interrupted = p.play(
        &mut state,
        shard.is_some(),
        &opts,
        &registry,
        |i| progress.set_message(format!("{} players, {} tiles", p.cells[i].0, p.cells[i].1)),
        |games| progress.inc_length(games),
        |st| save(st, false, Some("interrupted")),
    )?;
    progress.finish_and_clear();
    let failed = bot_failure(&ext);
    // A cell is complete when its sequential sampling has stopped: all it planned is played.
    let played_out = bal::all_planned_played(&state);
    save(&state, bal::complete(&state), if played_out { None } else { Some("interrupted") })?;
    let played = bal::games_played(&state);
    if interrupted || !played_out || failed.is_some() {
        return job.stopped(failed, out.as_deref(), played, total_games);
    }
    if !bal::complete(&state) {
        let (i, n) = shard.unwrap_or((1, 1));
        outln!(
            "mtrain balance: shard {i}/{n} complete: {played} games; combine the shards with mtrain merge DIR... --out DIR"
        );
        return Ok(0);
    }
    let cells = Sweep::cells_of(&state);
    out!("{}", crate::report::tournament::trim_lines(&rep::table(&p, &cells)));
    job.timing(played - before, started.elapsed());
    if let Some(dir) = &out {
        write_results(dir, &p, &cells, &config.spec.bots)?;
    }
    Ok(0)
}

/// Writes the result files of a complete sweep, each atomically.
pub(crate) fn write_results(dir: &Path, p: &Sweep, cells: &[Cell], bots: &str) -> Result<(), CliError> {
    for (name, text) in rep::result_files(p, cells, bots).map_err(CliError::failure)? {
        write_in_folder(&dir.join(name), text.as_bytes())?;
    }
    Ok(())
}

/// The folder `dir` readied for the new sweep `c`: new, empty or holding this same sweep, or
/// any folder with `force`.
pub(crate) fn new_folder(dir: &Path, c: &SweepConfig, force: bool) -> Result<Folder, CliError> {
    let config = c.to_value();
    Ok(Folder::create(dir, BALANCE, force, |text| SweepState::from_json(text).is_ok_and(|st| st.config == config))?)
}
