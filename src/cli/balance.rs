//! `mtrain balance`: sweep hand sizes for each player count, measure fairness and playability
//! with intervals, recommend a hand size per player count, and plot every metric.
//!
//! Every input is checked before anything is played or written. A sweep is as durable as a
//! tournament: with `--out` it saves its exact state (`tally.json`, one [`CellState`] per cell)
//! every `--checkpoint` seconds and on SIGINT, SIGTERM and SIGHUP, resumes with `--resume`,
//! plays a slice with `--shard` (or Slurm array variables), and `mtrain merge` combines the
//! slices. The result files are written, each atomically, once every cell is complete.

use super::signals::Stop;
use super::tournament::{check_out_dir, replace_ext_bots, result_args, stored_state};
use super::values::{self, Hands, Span};
use super::{BotArgs, CliError, all_cores, bot_failure, changes_text, preset_rules, write_atomic};
use crate::balance::{self as bal, Cell, Objective, Value, Verdict};
use crate::external::StderrTo;
use crate::report::manifest::{Manifest, RulesRecord, Started};
use crate::rules::Rules;
use crate::strategies::Registry;
use crate::strategy::StrategySpec;
use crate::tournament::record::{OUTPUT_FILES, prepare_out_dir, remove_stale_temporaries, shown, write_checkpoint};
use crate::tournament::{
    BALANCE_KIND, CHUNK_DEALS, CellState, ChunkSet, RunOptions, STORE_FORMAT, Schedule, Seating, SweepState, Tally,
    Tournament, kind_of,
};
use clap::Args;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Seconds between checkpoints when `--checkpoint` is not given.
const DEFAULT_CHECKPOINT: f64 = 60.0;

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
    /// Blocked-round limit: a defect above this share of rounds. Blocked rounds are a normal,
    /// scored ending under every source's rules; 5% is this project's convention for an ending
    /// players find unsatisfying, not a finding
    #[arg(long, default_value = "0.05", value_name = "SHARE", value_parser = values::share, allow_hyphen_values = true)]
    max_blocked: f64,
    /// First-player limit: a defect when the first player wins more than this above the fair
    /// share 1/N (0.03: 3 points, about one extra win in 33)
    #[arg(long, default_value = "0.03", value_name = "SHARE", value_parser = values::share, allow_hyphen_values = true)]
    max_first_edge: f64,
    /// Which first player is judged: match (the seat that leads round 1, over a whole match:
    /// how the game is played) or round (the first player of each round, per round)
    #[arg(long, default_value = "match", value_name = "match|round", value_parser = bal::FirstPlayer::parse)]
    first_player: bal::FirstPlayer,
    /// Skill floor: a defect when the field's first bot finishes ahead of its last in fewer than
    /// this share of comparisons (0.55: a 5-point edge, little room for the better player)
    #[arg(long, default_value = "0.55", value_name = "SCORE", value_parser = values::share, allow_hyphen_values = true)]
    min_skill: f64,
    /// Skill ceiling: a defect when the field's second bot (the first, in a field of two)
    /// finishes ahead of its last in more than this share of comparisons (0.95: the weaker player
    /// wins fewer than one in twenty; luck no longer gives it a chance)
    #[arg(long, default_value = "0.95", value_name = "SCORE", value_parser = values::share, allow_hyphen_values = true)]
    max_skill: f64,
    /// Indifference margin: a defect needs the 95% interval wholly past the limit by more than
    /// this; one past the limit but not the margin is "on the limit" (no defect, and reported),
    /// and one containing the margin's edge is sampled further (0.01: 1 point)
    #[arg(long, default_value = "0.01", value_name = "SHARE", value_parser = values::share, allow_hyphen_values = true)]
    margin: f64,
    /// Rounds per match [default: every double from the highest down to 0-0]
    #[arg(long, value_name = "K", value_parser = values::rounds, allow_hyphen_values = true)]
    rounds: Option<u8>,
    /// The population of players, as in `mtrain tournament` (fewer than seats are repeated to
    /// fill the table, more are combined). List the strongest first and a beginner last: skill
    /// (the floor) is the first bot's head-to-head score against the last, luck (the ceiling) the
    /// second's against the last (the first's in a field of two)
    #[arg(long, default_value = DEFAULT_FIELD, value_name = "BOTS")]
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

/// The default population: the strongest bot cheap enough for a sweep (`weighted`, with its
/// tuned weights: it beats the search bots at four players and costs what `planner` does), a
/// careful player (`planner`) and a beginner (`greedy`). Skill is `weighted` against `greedy`
/// (can the best player show it?), luck `planner` against `greedy` (does an ordinary gap between
/// two players still leave the weaker one a chance?).
pub(crate) const DEFAULT_FIELD: &str = "weighted,planner,greedy";

/// The smallest hand `--hands auto` sweeps: fewer tiles make rounds of a few turns that no source
/// deals (the smallest published hand is 6 tiles).
const AUTO_MIN_HAND: u8 = 5;
/// The largest hand `--hands auto` sweeps: half again the largest any source deals (16), so
/// two and three players do not spend most of the sweep on hands no table would deal.
const AUTO_MAX_HAND: u8 = 24;

/// A checked sweep.
struct Plan {
    base: Rules,
    /// The `--rule` options as applied.
    overrides: Vec<(String, String)>,
    set: u8,
    /// `(players, hand)` in player-then-hand order.
    cells: Vec<(u8, u8)>,
    specs: Vec<StrategySpec>,
    entries: Vec<u16>,
    games: u64,
    /// The most games a cell may play (sequential sampling stops there).
    max_games: u64,
    seed: u64,
    objective: Objective,
    limits: bal::Limits,
    metrics: Vec<&'static bal::Metric>,
    /// Whether every bot of the field is deterministic.
    deterministic: bool,
}

fn plan(a: &BalanceArgs, registry: &Registry) -> Result<Plan, CliError> {
    let (mut base, overrides) = preset_rules(&a.rules, &a.rule, a.set)?;
    let set = a.set;
    base.rounds = a.rounds;
    let Span(p0, p1) = a.players;
    let mut cells = Vec::new();
    for players in p0..=p1 {
        // The player counts are the preset's (as for `play`); the hand sizes are the sweep's.
        let mut rules = Rules { players, hand_size: None, ..base.clone() };
        rules.validate().map_err(|e| CliError::usage(format!("--players {}: {e}", span_text(a.players))))?;
        let max = (rules.dealable_tiles() / players.max(1) as usize).min(u8::MAX as usize) as u8;
        let Span(h0, h1) = a.hands.0.unwrap_or(Span(AUTO_MIN_HAND.min(max), max.min(AUTO_MAX_HAND)));
        if a.hands.0.is_some() && h1 > max {
            return Err(CliError::usage(format!(
                "--hands {h0}-{h1} cannot be dealt to {players} players from double-{set}: at most {max} tiles each ({} tiles to deal)",
                rules.dealable_tiles()
            )));
        }
        for hand in h0..=h1 {
            rules.hand_size = Some(hand);
            rules.validate().map_err(|e| CliError::usage(format!("{players} players with {hand} tiles each: {e}")))?;
            cells.push((players, hand));
        }
    }
    let field = registry.field(&a.bots).map_err(|e| CliError::usage(e.to_string()))?;
    let deterministic = registry.deterministic(&field.bots);
    for &(players, _) in &cells {
        Schedule::with_seating(&field.entries, players, seating(deterministic), a.games, 0)
            .map_err(|e| CliError::usage(e.to_string()))?;
    }
    let objective = Objective::parse(a.objective.trim()).map_err(CliError::usage)?;
    if a.min_skill >= a.max_skill {
        return Err(CliError::usage(format!(
            "--min-skill {} is not below --max-skill {}: give a floor below the ceiling",
            a.min_skill, a.max_skill
        )));
    }
    let max_games = a.max_games.unwrap_or(a.games.saturating_mul(4));
    if max_games < a.games {
        return Err(CliError::usage(format!(
            "--max-games {max_games} is fewer than --games {}: give at least as many (equal: a fixed sample)",
            a.games
        )));
    }
    let metrics = match &a.metrics {
        Some(list) => bal::parse_metrics(list).map_err(CliError::usage)?,
        None => bal::METRICS.iter().collect(),
    };
    Ok(Plan {
        base,
        overrides,
        set,
        cells,
        specs: field.bots,
        entries: field.entries,
        games: a.games,
        max_games,
        seed: a.seed,
        objective,
        limits: bal::Limits {
            max_blocked: a.max_blocked,
            max_first_edge: a.max_first_edge,
            min_skill: a.min_skill,
            max_skill: a.max_skill,
            first_player: a.first_player,
            margin: a.margin,
        },
        metrics,
        deterministic,
    })
}

/// Every rotation and seating order; one game per deal for one deterministic bot everywhere.
fn seating(deterministic: bool) -> Seating {
    Seating { deterministic, ..Seating::default() }
}

fn span_text(s: Span) -> String {
    if s.0 == s.1 { s.0.to_string() } else { format!("{}-{}", s.0, s.1) }
}

/// The identity of a sweep: what its results depend on.
fn fingerprint(p: &Plan) -> String {
    let specs: Vec<String> = p.specs.iter().map(ToString::to_string).collect();
    format!(
        "rules={:?};cells={:?};bots={};entries={:?};games={};max_games={};seed={};deterministic={};limits={:?}",
        p.base,
        p.cells,
        specs.join("|"),
        p.entries,
        p.games,
        p.max_games,
        p.seed,
        p.deterministic,
        p.limits
    )
}

/// The tournament of one cell, scheduled for the most games it may play: its first chunks are
/// the first look (a schedule's games depend only on their index, so a longer schedule extends
/// a shorter one).
fn cell_tournament(p: &Plan, players: u8, hand: u8, registry: &Registry) -> Result<Tournament, CliError> {
    let rules = Rules { players, hand_size: Some(hand), ..p.base.clone() };
    let seed = crate::rng::seeds::balance_cell(p.seed, players, hand);
    let schedule = Schedule::with_seating(&p.entries, players, seating(p.deterministic), p.max_games, seed)
        .expect("checked in plan");
    Tournament::with_registry(rules, p.specs.clone(), schedule, registry).map_err(|e| CliError::usage(e.to_string()))
}

/// Chunks of each cell's tournament of `games` games.
fn chunks_of(p: &Plan, games: u64) -> Vec<u64> {
    p.cells
        .iter()
        .map(|&(players, _)| {
            Schedule::with_seating(&p.entries, players, seating(p.deterministic), games, 0)
                .map_or(0, |s| s.deals.div_ceil(CHUNK_DEALS))
        })
        .collect()
}

/// Chunks of each cell's whole tournament (its most games).
fn cell_chunks(p: &Plan) -> Vec<u64> {
    chunks_of(p, p.max_games)
}

/// The games of a cell's chunks.
fn games_in(t: &Tournament, set: &ChunkSet) -> u64 {
    set.0.iter().flat_map(|&(a, b)| a..b).map(|c| t.chunk_games(c)).sum()
}

/// A sweep set up from its arguments: the plan, the arguments to store, and the shard.
struct Setup {
    plan: Plan,
    args: Vec<String>,
    shard: Option<(u64, u64)>,
    bots: String,
}

fn setup(a: &BalanceArgs, raw_sub: &[String], registry: &Registry) -> Result<Setup, CliError> {
    let plan = plan(a, registry)?;
    let mut args = result_args(raw_sub);
    let shard = super::shard::resolve_shard(a.shard, &mut args)?;
    Ok(Setup { plan, args, shard, bots: a.bots.clone() })
}

pub(crate) fn run(a: &BalanceArgs, raw: &[String], base: &Registry) -> Result<i32, CliError> {
    // Signals are caught from the first moment: one that arrives while the run is set up stops
    // it as soon as it starts, with what it has saved.
    let stop = Stop::install();
    super::needs_out(
        a.out.as_deref(),
        a.resume.as_deref(),
        &[("--checkpoint", a.checkpoint.is_some())],
        &[("--force", a.force)],
    )?;
    let started_at = Started::now();
    let threads = a.threads.unwrap_or_else(all_cores);
    let raw_sub: Vec<String> = raw.iter().skip_while(|s| s.as_str() != "balance").skip(1).cloned().collect();
    let logs = |d: Option<&Path>| d.map_or(StderrTo::Discard, |d| StderrTo::Dir(d.join("bot-logs")));
    let (stored_args, out, previous) = match &a.resume {
        Some(dir) => {
            let text = stored_state(dir, &raw_sub, "sweep")?;
            let st = SweepState::from_json(&text)
                .map_err(|e| CliError::usage(format!("cannot resume from '{}': {e}", dir.display())))?;
            let args = replace_ext_bots(&st.args, a.bot_args.ext_bots())?;
            (Some(args), Some(dir.clone()), Some(st))
        }
        None => (None, a.out.clone(), None),
    };
    let (eff, eff_raw) = match &stored_args {
        Some(args) => (stored_balance_args(args)?, args.clone()),
        None => (a.clone(), raw_sub.clone()),
    };
    let (registry, ext) = eff.bot_args.registry_with(base, logs(out.as_deref()), a.bot_args.bot_timeout)?;
    let Setup { plan: p, args, shard, bots, .. } = setup(&eff, &eff_raw, &registry)?;
    if shard.is_some() && out.is_none() {
        return Err(CliError::usage(
            "a shard of a sweep is only useful merged with the others: give --out DIR (then mtrain merge the shards' folders)",
        ));
    }
    if shard.is_some() && p.max_games != p.games {
        return Err(CliError::usage(
            "--shard splits a fixed sample, but sequential sampling decides each cell from all its games: give --max-games equal to --games with --shard",
        ));
    }
    let chunks = cell_chunks(&p);
    // The first look: --games of each cell (all of a shard's slice when sharded).
    let first = chunks_of(&p, p.games);
    let planned = SweepState::shard_plan(&first, shard);
    let fp = fingerprint(&p);
    let mut state = match previous {
        Some(st) => {
            let dir = out.as_deref().expect("resume has a folder");
            let bad = |why: &str| CliError::usage(format!("cannot resume from '{}': {why}", dir.display()));
            if st.fingerprint != fp {
                return Err(bad("its tally.json belongs to a different sweep"));
            }
            let same_cells = st.cells.len() == p.cells.len()
                && st
                    .cells
                    .iter()
                    .zip(&p.cells)
                    .zip(&chunks)
                    .all(|((c, &(pl, h)), &n)| c.players == pl && c.hand == h && c.chunks_total == n);
            if !same_cells {
                return Err(bad("its tally.json describes other cells"));
            }
            for (c, &(players, hand)) in st.cells.iter().zip(&p.cells) {
                let t = cell_tournament(&p, players, hand, &registry)?;
                let outside = c.done.0.iter().any(|&(x, y)| (x..y).any(|k| !c.chunks_planned.contains(k)));
                if outside || c.tally.games != games_in(&t, &c.done) {
                    return Err(bad("its tally.json counts games its chunks do not hold"));
                }
            }
            st
        }
        None => SweepState {
            format: STORE_FORMAT,
            kind: BALANCE_KIND.to_string(),
            fingerprint: fp,
            args,
            cells: p
                .cells
                .iter()
                .zip(&chunks)
                .zip(&planned)
                .map(|((&(players, hand), &n), plan)| CellState {
                    players,
                    hand,
                    chunks_total: n,
                    chunks_planned: plan.clone(),
                    done: ChunkSet::default(),
                    tally: Tally::new(crate::tournament::Layout { bots: p.specs.len(), players: players as usize }),
                })
                .collect(),
            check: 0,
        },
    };
    if let Some(dir) = &out {
        check_out_dir(dir)?;
        if a.resume.is_none() {
            prepare_dir(dir, a.force)?;
        }
        remove_stale_temporaries(dir, OUTPUT_FILES);
    }
    let total_games: u64 = p
        .cells
        .iter()
        .zip(&state.cells)
        .map(|(&(players, hand), c)| {
            cell_tournament(&p, players, hand, &registry).map(|t| games_in(&t, &c.chunks_planned))
        })
        .sum::<Result<u64, _>>()?;
    let save = |st: &SweepState, complete: bool, stopped: Option<&str>| -> Result<(), CliError> {
        let Some(dir) = &out else { return Ok(()) };
        let played: u64 = st.cells.iter().map(|c| c.tally.games).sum();
        let m = manifest(&p, "balance", raw, started_at, total_games, &bots, threads, shard, played, complete, stopped);
        write_checkpoint(
            dir,
            None,
            &[("manifest.json", m)],
            |_| st.to_json(),
            &mut |p, b| write_atomic(p, b),
            CliError::failure,
        )
    };
    if out.is_some() && a.resume.is_none() {
        save(&state, false, Some("interrupted"))?;
    }
    // What runs, before it runs.
    super::tournament::print_now(&console_header(&p));
    let done_games: u64 = state.cells.iter().map(|c| c.tally.games).sum();
    let progress = if a.quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        let pb = indicatif::ProgressBar::new(total_games.saturating_sub(done_games));
        pb.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games  {msg}  ETA {eta}",
            )
            .expect("template")
            .progress_chars("=> "),
        );
        pb
    };
    let started = Instant::now();
    let opts = RunOptions {
        progress: progress.clone(),
        stop: stop.stop.clone(),
        cut: stop.cut.clone(),
        checkpoint: out.as_ref().map(|_| Duration::from_secs_f64(a.checkpoint.unwrap_or(DEFAULT_CHECKPOINT))),
        ..RunOptions::new(threads)
    };
    // Sequential sampling: a cell with a figure not yet decided against its limit plays another
    // --games, up to --max-games. Decided after whole batches, so the games played depend only
    // on the seed, never on the thread count or an interruption.
    let more = |i: usize, c: &CellState| -> Option<u64> {
        let end = c.chunks_planned.0.last().map_or(0, |r| r.1);
        let cell = Cell { players: c.players, hand: c.hand, tally: c.tally.clone() };
        (shard.is_none() && end < chunks[i] && bal::undecided(&cell, &p.limits))
            .then(|| (end + first[i]).min(chunks[i]))
    };
    let interrupted = state.play(
        &opts,
        |i| cell_tournament(&p, p.cells[i].0, p.cells[i].1, &registry),
        |i| progress.set_message(format!("{} players, {} tiles", p.cells[i].0, p.cells[i].1)),
        more,
        |t, added| progress.inc_length(games_in(t, added)),
        |st| save(st, false, Some("interrupted")),
    )?;
    progress.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let failed = bot_failure(&ext);
    // A cell is complete when its sequential sampling has stopped: all it planned is played.
    let complete =
        state.cells.iter().all(|c| c.done == c.chunks_planned && (shard.is_none() || c.done.len() == c.chunks_total));
    let shard_done = state.cells.iter().all(|c| c.done == c.chunks_planned);
    save(&state, complete, if shard_done { None } else { Some("interrupted") })?;
    if interrupted || !shard_done || failed.is_some() {
        let played: u64 = state.cells.iter().map(|c| c.tally.games).sum();
        let hint = super::tournament::resume_hint("balance", out.as_deref(), played, total_games);
        return super::tournament::stopped(failed, &hint, &stop);
    }
    if !complete {
        let (i, n) = shard.unwrap_or((1, 1));
        let played: u64 = state.cells.iter().map(|c| c.tally.games).sum();
        println!(
            "mtrain balance: shard {i}/{n} complete: {played} games; combine the shards with mtrain merge DIR... --out DIR"
        );
        return Ok(0);
    }
    let cells: Vec<Cell> =
        state.cells.iter().map(|c| Cell { players: c.players, hand: c.hand, tally: c.tally.clone() }).collect();
    print!("{}", crate::report::tournament::trim_lines(&console(&p, &cells, &bots)));
    if !a.quiet {
        eprintln!(
            "played {} games in {elapsed:.1} s on {threads} thread{}",
            state.cells.iter().map(|c| c.tally.games).sum::<u64>() - done_games,
            if threads == 1 { "" } else { "s" }
        );
    }
    if let Some(dir) = &out {
        write_results(dir, &p, &cells, &bots)?;
    }
    Ok(0)
}

/// The result files of a complete sweep: rendered first, then each written atomically.
fn write_results(dir: &Path, p: &Plan, cells: &[Cell], bots: &str) -> Result<(), CliError> {
    let mut files: Vec<(String, String)> = vec![
        ("balance.csv".into(), bal::balance_csv(cells)),
        ("recommendation.csv".into(), bal::recommendation_csv(&p.base, cells, p.objective, &p.limits)),
        ("decisions.csv".into(), bal::decisions_csv(cells, &p.limits)),
    ];
    for m in &p.metrics {
        let rules_name = format!("{}{}", p.base.preset, changes_text(&p.overrides));
        let svg = bal::plot(cells, m, p.set, &rules_name, bots, &p.limits).map_err(CliError::failure)?;
        files.push((format!("{}.svg", m.name), svg));
    }
    for (name, text) in &files {
        write_atomic(&dir.join(name), text.as_bytes())?;
    }
    Ok(())
}

/// Parses stored `mtrain balance` arguments.
fn stored_balance_args(args: &[String]) -> Result<BalanceArgs, CliError> {
    use clap::Parser;
    let mut argv = vec!["mtrain".to_string(), "balance".to_string()];
    argv.extend(args.iter().cloned());
    let cli = super::Cli::try_parse_from(&argv)
        .map_err(|e| CliError::usage(format!("the stored sweep arguments no longer parse: {}", e.kind())))?;
    match cli.command {
        super::Command::Balance(b) => Ok(b),
        _ => Err(CliError::usage("the stored arguments are not a balance sweep")),
    }
}

/// `mtrain merge` of balance shards: the cells' tallies added; the result files once every cell
/// is complete.
pub(crate) fn merge(
    dirs: &[PathBuf],
    out: &Path,
    raw: &[String],
    base: &Registry,
    partial: bool,
) -> Result<i32, CliError> {
    let started_at = Started::now();
    let mut states = Vec::new();
    for d in dirs {
        let text = std::fs::read_to_string(d.join("tally.json"))
            .map_err(|e| CliError::usage(format!("cannot merge '{}': no readable tally.json ({e})", d.display())))?;
        states.push(
            SweepState::from_json(&text)
                .map_err(|e| CliError::usage(format!("cannot merge '{}': {e}", d.display())))?,
        );
    }
    let first = &states[0];
    let mut merged = SweepState::merge_shards(&states).map_err(|(i, why)| {
        CliError::usage(format!("cannot merge '{}' (with '{}'): {why}", dirs[i].display(), dirs[0].display()))
    })?;
    // Arguments that reproduce the merged sweep: without the shard.
    let args = super::shard::without_shard(&first.args);
    merged.args = args.clone();
    let b = stored_balance_args(&args)?;
    let (registry, _ext) = b.bot_args.registry(base, StderrTo::Discard)?;
    let Setup { plan: p, bots, .. } = setup(&b, &args, &registry)?;
    if fingerprint(&p) != merged.fingerprint {
        return Err(CliError::usage("cannot merge: the stored sweep arguments no longer describe these shards"));
    }
    check_out_dir(out)?;
    prepare_dir(out, false)?;
    let complete = merged.cells.iter().all(|c| c.done.len() == c.chunks_total);
    let played: u64 = merged.cells.iter().map(|c| c.tally.games).sum();
    let total_games: u64 = p
        .cells
        .iter()
        .zip(&merged.cells)
        .map(|(&(players, hand), c)| {
            cell_tournament(&p, players, hand, &registry).map(|t| games_in(&t, &c.chunks_planned))
        })
        .sum::<Result<u64, _>>()?;
    write_atomic(
        &out.join("manifest.json"),
        manifest(
            &p,
            "merge",
            raw,
            started_at,
            total_games,
            &bots,
            0,
            None,
            played,
            complete,
            (!complete).then_some("interrupted"),
        )
        .as_bytes(),
    )?;
    write_atomic(&out.join("tally.json"), merged.to_json().as_bytes())?;
    if !complete {
        println!(
            "mtrain merge: {played} of {total_games} games of the sweep are in these folders; merge every shard for the results"
        );
        let chunks: Vec<u64> = merged.cells.iter().map(|c| c.chunks_total).collect();
        let done: Vec<&crate::tournament::ChunkSet> = merged.cells.iter().map(|c| &c.done).collect();
        let lacking = super::shard::missing_shards(&first.args, &|s| SweepState::shard_plan(&chunks, s), &done);
        return Ok(super::shard::incomplete("balance", &lacking, out, partial));
    }
    let cells: Vec<Cell> =
        merged.cells.iter().map(|c| Cell { players: c.players, hand: c.hand, tally: c.tally.clone() }).collect();
    print!("{}", crate::report::tournament::trim_lines(&(console_header(&p) + &console(&p, &cells, &bots))));
    write_results(out, &p, &cells, &bots)?;
    Ok(0)
}

/// Whether a folder's `tally.json` is a balance sweep's.
pub(crate) fn is_sweep_dir(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("tally.json")).ok().and_then(|t| kind_of(&t)).as_deref() == Some(BALANCE_KIND)
}

/// The files of a balance sweep.
fn is_balance_file(name: &str) -> bool {
    matches!(name, "balance.csv" | "recommendation.csv" | "decisions.csv" | "manifest.json" | "bot-logs")
        || name.ends_with(".svg")
}

/// Whether `name` in `dir` belongs to a balance sweep (its `tally.json` one of a sweep's).
fn is_sweep_file(dir: &Path, name: &str) -> bool {
    is_balance_file(name) || (name == "tally.json" && is_sweep_dir(dir)) || name.ends_with(".tmp")
}

/// `--out` must be new, empty or a balance sweep's (whose files the new sweep replaces): never
/// a tournament's or anything else, unless `--force`, which removes mtrain's own files first.
fn prepare_dir(dir: &Path, force: bool) -> Result<(), CliError> {
    prepare_out_dir(dir, |n| is_sweep_file(dir, n), force).map_err(|foreign| {
        CliError::usage(format!(
            "--out '{}' is not empty and holds more than a balance sweep (it has {}): give a new or empty folder, or --force to replace mtrain's files in it",
            dir.display(),
            shown(&foreign)
        ))
    })
}

/// The field in words, and what skill expression compares.
fn population(p: &Plan) -> String {
    let names: Vec<String> = p.specs.iter().map(ToString::to_string).collect();
    let skill = match names.as_slice() {
        [] | [_] => "no skill figure: the field has one bot".to_string(),
        [first, last] => format!("skill and luck = {first}'s head-to-head score against {last} (0.5: no edge)"),
        [first, second, .., last] => format!(
            "skill = {first}'s head-to-head score against {last} (0.5: no edge); luck = {second}'s against {last}"
        ),
    };
    format!("field {} ({skill})", names.join(", "))
}

/// What the sweep is: rules, cells, games, field, seed and objective (printed before it runs).
fn console_header(p: &Plan) -> String {
    let players: Vec<u8> = p.cells.iter().map(|c| c.0).collect();
    let (lo, hi) = (players.iter().min().copied().unwrap_or(0), players.iter().max().copied().unwrap_or(0));
    let span = if lo == hi { format!("{lo} players") } else { format!("{lo}-{hi} players") };
    format!(
        "mtrain balance: {} rules{}, double-{}, {span}, {} of {} games; seed {}; {}\nobjective {}: {}\n\n",
        p.base.preset,
        changes_text(&p.overrides),
        p.set,
        if p.cells.len() == 1 { "1 cell".to_string() } else { format!("{} cells", p.cells.len()) },
        p.games,
        p.seed,
        population(p),
        p.objective.name(),
        p.objective.describe(&p.limits)
    )
}

/// The recommendation table.
fn console(p: &Plan, cells: &[Cell], _bots: &str) -> String {
    let mut s = String::new();
    let first_head = format!("first player ({})", p.limits.first_player.name());
    s.push_str(&format!(
        "{:>7}  {:>4}  {:<14}  {:>6}  {:<20}  {:<22}  {:<22}  {:<22}  {:<7}  {}\n",
        "players", "pick", "candidates", "games", "blocked", first_head, "skill", "luck", "turns", "published"
    ));
    let pct = |v: Option<Value>, signed: bool| match v {
        Some(Value { value, interval: Some((lo, hi)) }) if signed => {
            format!("{:+.1} [{:+.1}, {:+.1}]", 100.0 * value, 100.0 * lo, 100.0 * hi)
        }
        Some(Value { value, interval: Some((lo, hi)) }) => {
            format!("{:.1}% [{:.1}, {:.1}]", 100.0 * value, 100.0 * lo, 100.0 * hi)
        }
        Some(Value { value, .. }) => format!("{:.1}%", 100.0 * value),
        None => "-".to_string(),
    };
    let score = |v: Option<Value>| match v {
        Some(Value { value, interval: Some((lo, hi)) }) => format!("{value:.3} [{lo:.3}, {hi:.3}]"),
        Some(Value { value, .. }) => format!("{value:.3}"),
        None => "-".to_string(),
    };
    let mut any_fallback = false;
    let (mut any_on, mut any_undecided) = (false, false);
    for (players, pick) in bal::recommendations(&p.base, cells, p.objective, &p.limits) {
        let cell = pick.hand.and_then(|h| cells.iter().find(|c| c.players == players && c.hand == h));
        let get = |name: &str| cell.and_then(|c| bal::read(c, name));
        let pub_list: Vec<String> = bal::published(p.set, players)
            .into_iter()
            .filter_map(|(name, h)| h.map(|h| format!("{name} {h}")))
            .collect();
        any_fallback |= pick.fallback;
        // A figure on its limit (within the margin) or undecided at the cap is marked.
        let mark = |name: &str| match cell.map(|c| bal::verdicts(c, &p.limits)) {
            Some(v) => match v.iter().find(|x| x.0 == name).map(|x| x.4) {
                Some(Verdict::OnLimit) => "~",
                Some(Verdict::Undecided) => "?",
                _ => "",
            },
            None => "",
        };
        any_on |= bal::CRITERIA.iter().any(|n| mark(n) == "~");
        any_undecided |= bal::CRITERIA.iter().any(|n| mark(n) == "?");
        s.push_str(&format!(
            "{players:>7}  {:>4}  {:<14}  {:>6}  {:<20}  {:<22}  {:<22}  {:<22}  {:<7}  {}\n",
            match pick.hand {
                Some(h) if pick.fallback => format!("{h}*"),
                Some(h) => h.to_string(),
                None => "-".to_string(),
            },
            span_list(&pick.set),
            cell.map_or("-".to_string(), |c| c.tally.games.to_string()),
            pct(get("blocked_rate"), false) + mark("blocked"),
            pct(get(p.limits.first_player.metric()), true) + mark("first_player"),
            score(get("skill")) + mark("skill"),
            score(get("skill_ceiling")) + mark("skill_ceiling"),
            get("turns").map_or("-".to_string(), |v| format!("{:.1}", v.value)),
            if pub_list.is_empty() { "-".to_string() } else { pub_list.join(", ") }
        ));
    }
    s.push_str(&format!("(candidates: {}; intervals are 95%)\n", candidates_text(p.objective)));
    if any_on {
        s.push_str(&format!(
            "(~ on the limit: the interval reaches past the limit but not past the {:.1}-point margin, so no defect)\n",
            100.0 * p.limits.margin
        ));
    }
    if any_undecided {
        s.push_str("(? undecided at --max-games: the interval still contains the margin's edge; no defect)\n");
    }
    if any_fallback {
        s.push_str(
            "(* every hand size shows a defect at that player count: the candidates have the fewest blocked or first-player defects; the skill floor and ceiling apply only where some pass them)\n",
        );
    }
    s
}

fn candidates_text(o: Objective) -> &'static str {
    match o {
        Objective::Balanced => {
            "hand sizes with no defect shown; the pick is the published hand or the nearest candidate"
        }
        Objective::NoDefect => "hand sizes with no defect shown; the pick is the largest",
        _ => "hand sizes the objective cannot tell apart at 95%; the pick is the largest",
    }
}

/// Hand sizes as compact ranges: `9-12 14`.
fn span_list(hands: &[u8]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < hands.len() {
        let mut j = i;
        while j + 1 < hands.len() && hands[j + 1] == hands[j] + 1 {
            j += 1;
        }
        parts.push(if i == j { hands[i].to_string() } else { format!("{}-{}", hands[i], hands[j]) });
        i = j + 1;
    }
    if parts.is_empty() { "-".to_string() } else { parts.join(" ") }
}

#[allow(clippy::too_many_arguments)]
fn manifest(
    p: &Plan,
    subcommand: &str,
    raw: &[String],
    started: Started,
    total: u64,
    bots: &str,
    threads: usize,
    shard: Option<(u64, u64)>,
    played: u64,
    complete: bool,
    stopped: Option<&str>,
) -> String {
    let mut players: Vec<u8> = p.cells.iter().map(|c| c.0).collect();
    players.dedup();
    let mut hands: Vec<u8> = p.cells.iter().map(|c| c.1).collect();
    hands.sort_unstable();
    hands.dedup();
    let details = serde_json::json!({
        "cells": p.cells.len(),
        "games_per_cell": p.games,
        "games_planned": total,
        "games": played,
        "bots": bots,
        "objective": p.objective.name(),
        "objective_description": p.objective.describe(&p.limits),
        "max_games_per_cell": p.max_games,
        "limits": {
            "max_blocked": p.limits.max_blocked,
            "max_first_edge": p.limits.max_first_edge,
            "first_player": p.limits.first_player.name(),
            "min_skill": p.limits.min_skill,
            "max_skill": p.limits.max_skill,
            "margin": p.limits.margin,
        },
        "population": population(p),
        "shard": shard.map(|(i, n)| format!("{i}/{n}")),
    });
    Manifest::new(
        subcommand,
        raw,
        RulesRecord::new(&p.base, &p.overrides, players, hands),
        p.specs.iter().map(ToString::to_string).collect(),
        p.seed,
        threads,
        started,
        complete,
        stopped,
        details,
    )
    .to_json()
}
