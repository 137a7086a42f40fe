//! `mtrain balance`: sweep hand sizes for each player count, measure fairness and playability
//! with intervals, recommend a hand size per player count, and plot every metric.
//!
//! Every input is checked before anything is played or written; the output files are written at
//! the end, each atomically.

use super::tournament::check_out_dir;
use super::values::{self, Hands, Span};
use super::{BotArgs, CliError, all_cores, bot_failure, changes_text, preset_rules, write_atomic};
use crate::balance::{self as bal, Cell, Objective, Value};
use crate::external::StderrTo;
use crate::rules::Rules;
use crate::strategies::Registry;
use crate::strategy::StrategySpec;
use crate::tournament::{ChunkSet, RunOptions, Schedule, Seating, Tally, Tournament};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

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
    /// Games per cell (player count and hand size); each seat rotation of a deal is one game
    #[arg(long, default_value = "4000", value_name = "G", value_parser = values::games, allow_hyphen_values = true)]
    games: u64,
    /// Rounds per match [default: every double from the highest down to 0-0]
    #[arg(long, value_name = "K", value_parser = values::rounds, allow_hyphen_values = true)]
    rounds: Option<u8>,
    /// The population of players, as in `mtrain tournament` (fewer than seats are repeated to
    /// fill the table, more are combined). Skill expression is the first bot's head-to-head
    /// score against the last, so list the stronger first
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
    /// Worker threads [default: every core]
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
    #[command(flatten)]
    bot_args: BotArgs,
}

/// The default population: a realistic mix of a careful player, an aggressive one and a
/// beginner (the planner, cut-throat play and greedy play); skill is planner against greedy.
pub(crate) const DEFAULT_FIELD: &str = "planner,cutthroat,greedy";

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
    seed: u64,
    objective: Objective,
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
        seed: a.seed,
        objective,
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

pub(crate) fn run(a: &BalanceArgs, raw: &[String], base: &Registry) -> Result<i32, CliError> {
    let threads = a.threads.unwrap_or_else(all_cores);
    let logs = a.out.as_ref().map_or(StderrTo::Discard, |d| StderrTo::Dir(d.join("bot-logs")));
    let (registry, ext) = a.bot_args.registry(base, logs)?;
    let p = plan(a, &registry)?;
    if let Some(dir) = &a.out {
        check_out_dir(dir)?;
        prepare_dir(dir, a.force)?;
    }
    let total: u64 = p
        .cells
        .iter()
        .map(|&(players, _)| {
            Schedule::with_seating(&p.entries, players, seating(p.deterministic), p.games, 0).map_or(0, |s| s.games())
        })
        .sum();
    let progress = if a.quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        let pb = indicatif::ProgressBar::new(total);
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
    let mut cells = Vec::with_capacity(p.cells.len());
    for &(players, hand) in &p.cells {
        progress.set_message(format!("{players} players, {hand} tiles"));
        let rules = Rules { players, hand_size: Some(hand), ..p.base.clone() };
        let seed = crate::rng::mix(p.seed, u64::from(players) * 256 + u64::from(hand));
        let schedule = Schedule::with_seating(&p.entries, players, seating(p.deterministic), p.games, seed)
            .expect("checked in plan");
        let t = Tournament::with_registry(rules, p.specs.clone(), schedule, &registry)
            .map_err(|e| CliError::usage(e.to_string()))?;
        let todo: Vec<u64> = (0..t.chunk_count()).collect();
        let opts = RunOptions { progress: progress.clone(), ..RunOptions::new(threads) };
        let result = t
            .run(&todo, Tally::new(t.layout()), ChunkSet::default(), &opts, |_| Ok::<(), CliError>(()), |_| Ok(()))
            .map_err(|e| CliError::failure(e.message))?;
        if let Some(e) = bot_failure(&ext) {
            // A sweep is not resumable: nothing is written.
            progress.finish_and_clear();
            return Err(e);
        }
        cells.push(Cell { players, hand, tally: result.tally });
    }
    progress.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let bots = a.bots.clone();
    print!("{}", crate::report::tournament::trim_lines(&console(&p, &cells, &bots)));
    if !a.quiet {
        eprintln!("played {total} games in {elapsed:.1} s on {threads} thread{}", if threads == 1 { "" } else { "s" });
    }
    if let Some(dir) = &a.out {
        // Render everything first, then write: a failure leaves no partial set of files.
        let mut files: Vec<(String, String)> = vec![
            ("balance.csv".into(), bal::balance_csv(&cells)),
            ("recommendation.csv".into(), bal::recommendation_csv(&p.base, &cells, p.objective)),
            ("manifest.json".into(), manifest(&p, raw, total, &bots, threads)),
        ];
        for m in &p.metrics {
            let rules_name = format!("{}{}", p.base.preset, changes_text(&p.overrides));
            let svg = bal::plot(&cells, m, p.set, &rules_name, &bots).map_err(CliError::failure)?;
            files.push((format!("{}.svg", m.name), svg));
        }
        for (name, text) in &files {
            write_atomic(&dir.join(name), text.as_bytes())?;
        }
    }
    Ok(0)
}

/// The files of a balance sweep.
fn is_balance_file(name: &str) -> bool {
    matches!(name, "balance.csv" | "recommendation.csv" | "manifest.json" | "bot-logs") || name.ends_with(".svg")
}

/// `--out` must be new, empty or a balance sweep's (whose files the new sweep replaces): never
/// a tournament's or anything else, unless `--force`, which removes mtrain's own files first.
fn prepare_dir(dir: &std::path::Path, force: bool) -> Result<(), CliError> {
    let foreign: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| CliError::usage(format!("cannot read --out '{}': {e}", dir.display())))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !is_balance_file(n))
        .collect();
    if foreign.is_empty() {
        return Ok(());
    }
    if !force {
        let mut shown: Vec<&str> = foreign.iter().map(String::as_str).take(5).collect();
        shown.sort_unstable();
        return Err(CliError::usage(format!(
            "--out '{}' is not empty and holds more than a balance sweep (it has {}{}): give a new or empty folder, or --force to replace mtrain's files in it",
            dir.display(),
            shown.join(", "),
            if foreign.len() > 5 { ", ..." } else { "" }
        )));
    }
    for name in super::tournament::OUTPUT_FILES {
        let _ = std::fs::remove_file(dir.join(name));
    }
    Ok(())
}

/// The field in words, and what skill expression compares.
fn population(p: &Plan) -> String {
    let names: Vec<String> = p.specs.iter().map(ToString::to_string).collect();
    let skill = match names.as_slice() {
        [] | [_] => "no skill figure: the field has one bot".to_string(),
        [first, .., last] => format!("skill = {first}'s head-to-head score against {last} (0.5: no edge)"),
    };
    format!("field {} ({skill})", names.join(", "))
}

fn console(p: &Plan, cells: &[Cell], _bots: &str) -> String {
    let mut s = format!(
        "mtrain balance: {} rules{}, double-{}, {} games per cell; {}\nobjective {}: {}\n\n",
        p.base.preset,
        changes_text(&p.overrides),
        p.set,
        p.games,
        population(p),
        p.objective.name(),
        p.objective.describe()
    );
    s.push_str(&format!(
        "{:>7}  {:>4}  {:<14}  {:<20}  {:<22}  {:<22}  {:<7}  {}\n",
        "players", "pick", "candidates", "blocked", "first player (round)", "skill", "turns", "published"
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
    for (players, pick) in bal::recommendations(&p.base, cells, p.objective) {
        let cell = pick.hand.and_then(|h| cells.iter().find(|c| c.players == players && c.hand == h));
        let get = |name: &str| cell.and_then(|c| bal::read(c, name));
        let pub_list: Vec<String> = bal::published(p.set, players)
            .into_iter()
            .filter_map(|(name, h)| h.map(|h| format!("{name} {h}")))
            .collect();
        any_fallback |= pick.fallback;
        s.push_str(&format!(
            "{players:>7}  {:>4}  {:<14}  {:<20}  {:<22}  {:<22}  {:<7}  {}\n",
            match pick.hand {
                Some(h) if pick.fallback => format!("{h}*"),
                Some(h) => h.to_string(),
                None => "-".to_string(),
            },
            span_list(&pick.set),
            pct(get("blocked_rate"), false),
            pct(get("first_player_advantage"), true),
            score(get("skill")),
            get("turns").map_or("-".to_string(), |v| format!("{:.1}", v.value)),
            if pub_list.is_empty() { "-".to_string() } else { pub_list.join(", ") }
        ));
    }
    s.push_str(&format!("(candidates: {}; intervals are 95%)\n", candidates_text(p.objective)));
    if any_fallback {
        s.push_str(
            "(* every hand size shows a defect at that player count: the candidates have the fewest blocked or first-player defects; the skill floor applies only where some pass it)\n",
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

fn manifest(p: &Plan, raw: &[String], total: u64, bots: &str, threads: usize) -> String {
    let mut players: Vec<u8> = p.cells.iter().map(|c| c.0).collect();
    players.dedup();
    let m = serde_json::json!({
        "command": raw.iter().skip(1).collect::<Vec<_>>(),
        "version": env!("CARGO_PKG_VERSION"),
        "rules": p.base.preset.name(),
        "options": p.overrides.iter().map(|(k, v)| (k.clone(), serde_json::Value::from(v.clone()))).collect::<serde_json::Map<_, _>>(),
        "set": p.set,
        "players": players,
        "cells": p.cells.len(),
        "games_per_cell": p.games,
        "games": total,
        "bots": bots,
        "field": p.specs.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "seed": p.seed,
        "objective": p.objective.name(),
        "objective_description": p.objective.describe(),
        "population": population(p),
        "threads": threads,
    });
    serde_json::to_string_pretty(&m).expect("json") + "\n"
}
