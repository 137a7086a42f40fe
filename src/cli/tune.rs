//! `mtrain tune`: SPSA over a bot's numeric parameters, then a confirmation on fresh deals.
//!
//! Each iteration plays the two perturbed bots against each other on duplicate deals (the
//! tournament runner, every thread) and steps the parameters ([`crate::tune`]). After every
//! iteration the state is saved atomically to `tune.json` with `trajectory.csv`, so Ctrl-C,
//! SIGTERM or SIGHUP lose at most the iteration in flight and `--resume DIR` continues exactly.
//! At the end: `trajectory.svg`, `tuned.txt` (the tuned bot's spec) and the confirmation, an
//! SPRT of the tuned bot against the starting one on deals no iteration played (`confirm.csv`),
//! which says plainly whether the gain holds.

use super::tournament::shell_word;
use super::values;
use super::{BotArgs, CliError, EXIT_INTERRUPTED, TableArgs, all_cores, bot_failure, write_atomic};
use crate::external::StderrTo;
use crate::report::csv_table;
use crate::report::plot::{Chart, Series, line_chart_svg};
use crate::rng::seeds;
use crate::rules::Rules;
use crate::strategies::Registry;
use crate::strategy::StrategySpec;
use crate::tournament::{ChunkSet, Hypothesis, RunOptions, Schedule, Seating, Sprt, Tally, Tournament, score_to_elo};
use crate::tune::{Gains, TuneParam, perturbed, signs, spec_at, step};
use clap::Args;
use serde::{Deserialize, Serialize};
use std::io::Write as _;
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

/// Format version of `tune.json`.
const TUNE_FORMAT: u32 = 1;

/// The files a tuning run writes into its folder.
const TUNE_FILES: &[&str] = &["tune.json", "trajectory.csv", "trajectory.svg", "tuned.txt", "confirm.csv"];

/// One finished iteration.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Row {
    iteration: u64,
    /// The plus point's head-to-head score against the minus point (½ when they were equal).
    score: f64,
    comparisons: u64,
    /// The parameters after the step, in unit coordinates.
    u: Vec<f64>,
}

/// `tune.json`: everything a resume needs.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct TuneState {
    format: u32,
    /// The arguments that determine the run (for --resume).
    args: Vec<String>,
    /// The starting point, unit coordinates.
    start: Vec<f64>,
    rows: Vec<Row>,
}

/// A checked configuration.
struct Config {
    rules: Rules,
    /// The `--rule` options as applied.
    changes: Vec<(String, String)>,
    registry: Registry,
    ext: crate::external::ExternalBots,
    base: StrategySpec,
    params: Vec<TuneParam>,
    gains: Gains,
    games: u64,
    seed: u64,
    confirm: Sprt,
    confirm_games: u64,
}

fn build(a: &TuneArgs, base_registry: &Registry, stderr: StderrTo) -> Result<(Config, Vec<f64>), CliError> {
    let table = a.table.table()?;
    let rules = table.rules;
    let (registry, ext) = a.bot_args.registry(base_registry, stderr)?;
    let bot = a.bot.as_deref().ok_or_else(|| CliError::usage("give the bot to tune with --bot BOT"))?;
    let spec: StrategySpec = bot.parse().map_err(|e: crate::strategy::SpecError| CliError::usage(e.to_string()))?;
    registry.build(&spec).map_err(|e| CliError::usage(e.to_string()))?;
    if a.params.is_empty() {
        return Err(CliError::usage("give at least one parameter to tune with --param key=lo:hi"));
    }
    let entry = registry.get(&spec.name).expect("built");
    let mut params: Vec<TuneParam> = Vec::new();
    let mut start = Vec::new();
    for text in &a.params {
        let mut p = TuneParam::parse(text).map_err(CliError::usage)?;
        if params.iter().any(|q| q.key == p.key) {
            return Err(CliError::usage(format!("--param {} is given twice", p.key)));
        }
        let default = match &entry.params {
            Some(list) => match list.iter().find(|i| i.key == p.key) {
                Some(info) => Some(info.default),
                None => {
                    let valid = list.iter().map(|i| i.key).collect::<Vec<_>>().join(", ");
                    let valid = if valid.is_empty() { "none: it takes no parameters".to_string() } else { valid };
                    return Err(CliError::usage(format!(
                        "--param {}: {} has no parameter '{}' (valid: {valid})",
                        p.key, spec.name, p.key
                    )));
                }
            },
            None => None,
        };
        let given = spec.get(&p.key).or(default);
        if given.is_none() && entry.params.is_none() {
            // An external bot's defaults are its own: mtrain cannot know where to start.
            return Err(CliError::usage(format!(
                "--param {key}: {name} is an external bot whose default for '{key}' mtrain cannot know: give the starting value in the spec, e.g. --bot {name}:{key}={}",
                p.text((p.lo + p.hi) / 2.0),
                key = p.key,
                name = spec.name,
            )));
        }
        let value = match given {
            Some(v) => v.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                CliError::usage(format!(
                    "--param {}: {}'s '{}' is not a number ({v}): only numeric parameters can be tuned",
                    p.key, spec.name, p.key
                ))
            })?,
            None => (p.lo + p.hi) / 2.0,
        };
        if value < p.lo || value > p.hi {
            return Err(CliError::usage(format!(
                "--param {}: the starting value {value} lies outside the range {}:{}",
                p.key, p.lo, p.hi
            )));
        }
        // A parameter the bot refuses halfway between two whole numbers takes whole numbers.
        let half = StrategySpec { params: vec![(p.key.clone(), format!("{}", value.floor() + 0.5))], ..spec.clone() };
        p.integer = entry.params.is_some() && registry.build(&with_params(&spec, &half)).is_err();
        for end in [p.lo, p.hi] {
            let at = StrategySpec { params: vec![(p.key.clone(), p.text(end))], ..spec.clone() };
            registry.build(&with_params(&spec, &at)).map_err(|e| {
                CliError::usage(format!("--param {}: the range end {} is not a valid value ({e})", p.key, p.text(end)))
            })?;
        }
        start.push(p.unit(value));
        params.push(p);
    }
    let gains = Gains { iterations: a.iterations, c: a.perturbation, r: a.rate };
    let config = Config {
        rules,
        changes: table.changes,
        registry,
        ext,
        base: spec,
        params,
        gains,
        games: a.games,
        seed: a.seed,
        confirm: a.confirm_sprt,
        confirm_games: a.confirm_games,
    };
    Ok((config, start))
}

/// `spec` with the parameters of `over` set.
fn with_params(spec: &StrategySpec, over: &StrategySpec) -> StrategySpec {
    let mut s = spec.clone();
    for (k, v) in &over.params {
        match s.params.iter_mut().find(|(key, _)| key == k) {
            Some(slot) => slot.1 = v.clone(),
            None => s.params.push((k.clone(), v.clone())),
        }
    }
    s
}

/// The head-to-head score of `a` against `b` over `games` games from master seed `seed`
/// (`None` when a signal stopped it), with the tally; optionally under an SPRT.
#[allow(clippy::too_many_arguments)]
fn play(
    c: &Config,
    a: &StrategySpec,
    b: &StrategySpec,
    games: u64,
    seed: u64,
    threads: usize,
    stop: &super::signals::Stop,
    sprt: Option<Sprt>,
) -> Result<Option<(Tally, Option<crate::tournament::SprtState>)>, CliError> {
    let specs = vec![a.clone(), b.clone()];
    let seating = Seating { deterministic: c.registry.deterministic(&specs), ..Seating::default() };
    let schedule = Schedule::with_seating(&[0, 1], c.rules.players, seating, games, seed)
        .map_err(|e| CliError::usage(e.to_string()))?;
    let t = Tournament::with_registry(c.rules.clone(), specs, schedule, &c.registry)
        .map_err(|e| CliError::usage(e.to_string()))?;
    let todo: Vec<u64> = (0..t.chunk_count()).collect();
    let mut opts = RunOptions::new(threads);
    opts.stop = stop.stop.clone();
    opts.cut = stop.cut.clone();
    opts.sprt = sprt;
    let r = t.run::<CliError>(&todo, Tally::new(t.layout()), ChunkSet::default(), &opts, |_| Ok(()), |_| Ok(()))?;
    if let Some(e) = bot_failure(&c.ext) {
        return Err(e);
    }
    let decided = r.sprt.is_some_and(|s| s.decision.is_some());
    Ok(if r.interrupted && !decided { None } else { Some((r.tally, r.sprt)) })
}

fn trajectory_csv(c: &Config, st: &TuneState) -> String {
    let mut header = vec!["iteration".to_string(), "c_k".into(), "a_k".into(), "score".into(), "comparisons".into()];
    header.extend(c.params.iter().map(|p| p.key.clone()));
    let start = std::iter::once({
        let mut row = vec!["0".to_string(), String::new(), String::new(), String::new(), "0".into()];
        row.extend(c.params.iter().zip(&st.start).map(|(p, &u)| p.text(p.value(u))));
        row
    });
    let rows = st.rows.iter().map(|r| {
        let k = r.iteration;
        let mut row = vec![
            (k + 1).to_string(),
            format!("{:.6}", c.gains.c_k(k)),
            format!("{:.6}", c.gains.a_k(k)),
            format!("{:.6}", r.score),
            r.comparisons.to_string(),
        ];
        row.extend(c.params.iter().zip(&r.u).map(|(p, &u)| p.text(p.value(u))));
        row
    });
    csv_table(header, start.chain(rows))
}

fn trajectory_svg(c: &Config, st: &TuneState) -> Result<String, CliError> {
    let series: Vec<Series> = c
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| Series {
            label: format!("{} [{}, {}]", p.key, p.text(p.lo), p.text(p.hi)),
            points: std::iter::once((0.0, st.start[i], None))
                .chain(st.rows.iter().map(|r| ((r.iteration + 1) as f64, r.u[i], None)))
                .collect(),
        })
        .collect();
    let title = format!("SPSA trajectory of {} ({} rules, {} players)", c.base, c.rules.preset, c.rules.players);
    let chart = Chart {
        title: &title,
        x_label: "iteration",
        y_label: "position in its range",
        percent: true,
        references: &[],
        note: "",
        series: &series,
    };
    line_chart_svg(&chart, (900, 480)).map_err(CliError::failure)
}

/// The arguments that determine the run: drops threads, output and progress options.
fn result_args(raw: &[String]) -> Vec<String> {
    super::tournament::result_args(raw)
}

pub(crate) fn run(a: &TuneArgs, raw: &[String], registry: &Registry) -> Result<i32, CliError> {
    // Signals are caught from the first moment: one that arrives while the run is set up stops
    // it as soon as it starts, with what it has saved.
    let stop = super::signals::Stop::install();
    super::needs_out(a.out.as_deref(), a.resume.as_deref(), &[], &[("--force", a.force)])?;
    let raw_sub = &raw[2.min(raw.len())..];
    let (a, out, mut state) = match &a.resume {
        Some(dir) => {
            let text = super::tournament::stored_state_file(dir, raw_sub, "tuning run", "tune.json")?;
            let st: TuneState = serde_json::from_str(&text).map_err(|e| {
                CliError::usage(format!("cannot resume from '{}': not a valid tune.json ({e})", dir.display()))
            })?;
            if st.format != TUNE_FORMAT {
                return Err(CliError::usage(format!(
                    "tune.json was written by another version of mtrain (format {}; this one reads {TUNE_FORMAT})",
                    st.format
                )));
            }
            use clap::Parser;
            let argv: Vec<String> =
                ["mtrain", "tune"].iter().map(|s| s.to_string()).chain(st.args.iter().cloned()).collect();
            let cli = super::Cli::try_parse_from(&argv)
                .map_err(|e| CliError::usage(format!("the stored tuning arguments no longer parse: {}", e.kind())))?;
            let super::Command::Tune(mut stored) = cli.command else {
                return Err(CliError::usage("the stored arguments are not a tuning run"));
            };
            stored.threads = a.threads;
            stored.quiet = a.quiet;
            (stored, dir.clone(), Some(st))
        }
        None => {
            let Some(out) = a.out.clone() else {
                // The first real error first: a bad --bot or --param is reported before the
                // missing folder.
                build(a, registry, StderrTo::Discard)?;
                return Err(CliError::usage("give an output folder with --out DIR (or --resume DIR)"));
            };
            (a.clone(), out, None)
        }
    };
    let (c, start) = build(&a, registry, StderrTo::Dir(out.join("bot-logs")))?;
    if state.is_some() {
        // A run killed while saving leaves its temporary file; the resume rewrites every file.
        crate::tournament::record::remove_stale_temporaries(&out, TUNE_FILES);
    }
    if let Some(st) = &state
        && (st.start.len() != c.params.len() || st.rows.iter().any(|r| r.u.len() != c.params.len()))
    {
        return Err(CliError::usage("tune.json is damaged: its points do not match its parameters"));
    }
    if state.is_none() {
        super::tournament::check_out_dir(&out)?;
        let foreign = std::fs::read_dir(&out)
            .map(|d| d.filter_map(Result::ok).any(|e| !e.file_name().to_string_lossy().starts_with(".mtrain")))
            .unwrap_or(false);
        if foreign && !a.force {
            return Err(CliError::usage(format!(
                "--out '{}' already holds files: give a new or empty folder, --resume it, or --force",
                out.display()
            )));
        }
        state =
            Some(TuneState { format: TUNE_FORMAT, args: result_args(raw_sub), start: start.clone(), rows: Vec::new() });
    }
    let mut st = state.expect("set");
    let threads = a.threads.unwrap_or_else(all_cores);
    let d = c.params.len();
    let total = c.gains.iterations;
    let progress = super::progress_bar(a.quiet, total, "iterations");
    progress.set_position(st.rows.len() as u64);
    let save = |st: &TuneState| -> Result<(), CliError> {
        write_atomic(&out.join("trajectory.csv"), trajectory_csv(&c, st).as_bytes())?;
        write_atomic(&out.join("tune.json"), (serde_json::to_string_pretty(st).expect("json") + "\n").as_bytes())
    };
    save(&st)?;
    // What runs, before it runs.
    super::tournament::print_now(&format!(
        "mtrain tune: {} rules{}, double-{}, {} players; {} with {} parameter{} ({}); {total} iterations of {} games; seed {}{}\n",
        c.rules.preset,
        super::changes_text(&c.changes),
        c.rules.set,
        c.rules.players,
        c.base.name,
        d,
        if d == 1 { "" } else { "s" },
        c.params.iter().map(|p| p.key.clone()).collect::<Vec<_>>().join(", "),
        c.games,
        c.seed,
        if st.rows.is_empty() { String::new() } else { format!("; resumed after {} iterations", st.rows.len()) }
    ));
    let mut u = st.rows.last().map_or_else(|| st.start.clone(), |r| r.u.clone());
    let mut interrupted = false;
    for k in st.rows.len() as u64..total {
        if stop.stop.load(std::sync::atomic::Ordering::SeqCst) {
            interrupted = true;
            break;
        }
        let delta = signs(c.seed, k, d);
        let (plus, minus) = perturbed(&u, &delta, c.gains.c_k(k));
        let (ps, ms) = (spec_at(&c.base, &c.params, &plus), spec_at(&c.base, &c.params, &minus));
        let (ps, ms) = (c.registry.canonical(&ps), c.registry.canonical(&ms));
        let (ps, ms) =
            (ps.map_err(|e| CliError::usage(e.to_string()))?, ms.map_err(|e| CliError::usage(e.to_string()))?);
        let (score, comparisons) = if ps == ms {
            // Both points round to the same bot: the games would say nothing.
            (0.5, 0)
        } else {
            match play(&c, &ps, &ms, c.games, seeds::tune_iteration(c.seed, k), threads, &stop, None)? {
                None => {
                    interrupted = true;
                    break;
                }
                Some((tally, _)) => {
                    let cl = tally.pair_score(0, 1);
                    (cl.sum as f64 / cl.units.max(1) as f64, cl.units / 2)
                }
            }
        };
        step(&mut u, &delta, &c.gains, k, score);
        st.rows.push(Row { iteration: k, score, comparisons, u: u.clone() });
        save(&st)?;
        progress.inc(1);
    }
    progress.finish_and_clear();
    let tuned = c.registry.canonical(&spec_at(&c.base, &c.params, &u)).map_err(|e| CliError::usage(e.to_string()))?;
    let startspec =
        c.registry.canonical(&spec_at(&c.base, &c.params, &st.start)).map_err(|e| CliError::usage(e.to_string()))?;
    let mut report = format!("after {} of {total} iterations:\nstart: {startspec}\ntuned: {tuned}\n", st.rows.len());
    if interrupted {
        let _ = std::io::stdout().lock().write_all(report.as_bytes());
        eprintln!(
            "mtrain: interrupted after {} of {total} iterations, saved; continue with: mtrain tune --resume {}",
            st.rows.len(),
            shell_word(&out.display().to_string())
        );
        return Ok(stop.exit_code().unwrap_or(EXIT_INTERRUPTED));
    }
    write_atomic(&out.join("trajectory.svg"), trajectory_svg(&c, &st)?.as_bytes())?;
    write_atomic(&out.join("tuned.txt"), format!("{tuned}\n").as_bytes())?;
    // The confirmation: fresh deals, an SPRT.
    let (line, row) = if tuned == startspec {
        ("\nConfirmation: the tuned parameters are the starting ones; there is no gain to confirm.\n".to_string(), None)
    } else {
        match play(
            &c,
            &tuned,
            &startspec,
            c.confirm_games,
            seeds::tune_confirm(c.seed),
            threads,
            &stop,
            Some(c.confirm),
        )? {
            None => {
                let _ = std::io::stdout().lock().write_all(report.as_bytes());
                eprintln!(
                    "mtrain: interrupted during the confirmation (the tuning is saved); run the confirmation again with: mtrain tune --resume {}",
                    shell_word(&out.display().to_string())
                );
                return Ok(stop.exit_code().unwrap_or(EXIT_INTERRUPTED));
            }
            Some((tally, sprt)) => {
                let s = tally.pair_score(0, 1).proportion(1.0).expect("games played");
                let sprt = sprt.expect("an SPRT ran");
                let verdict = match sprt.decision {
                    Some(Hypothesis::H1) => format!("the gain holds (SPRT accepted elo >= {})", c.confirm.elo1),
                    Some(Hypothesis::H0) => format!(
                        "the gain does NOT hold: on fresh deals the tuned bot is no better than the start (SPRT accepted elo <= {})",
                        c.confirm.elo0
                    ),
                    None => format!(
                        "undecided after {} games: the gain is not shown (the SPRT reached neither bound)",
                        tally.games
                    ),
                };
                let decision = match sprt.decision {
                    Some(Hypothesis::H1) => "H1",
                    Some(Hypothesis::H0) => "H0",
                    None => "none",
                };
                let comps = tally.pair_score(0, 1).units / 2;
                let line = format!(
                    "\nConfirmation on fresh deals, tuned against start: {comps} comparisons, score {:.1}% [{:.1}, {:.1}], {:+.0} Elo [{:+.0}, {:+.0}]; {verdict}\n",
                    100.0 * s.value,
                    100.0 * s.lo,
                    100.0 * s.hi,
                    score_to_elo(s.value),
                    score_to_elo(s.lo),
                    score_to_elo(s.hi)
                );
                let f = |v: f64| if v.is_finite() { format!("{v:.6}") } else { String::new() };
                let row = vec![
                    tuned.to_string(),
                    startspec.to_string(),
                    tally.games.to_string(),
                    comps.to_string(),
                    f(s.value),
                    f(s.lo),
                    f(s.hi),
                    f(score_to_elo(s.value)),
                    f(score_to_elo(s.lo)),
                    f(score_to_elo(s.hi)),
                    format!("{},{}", c.confirm.elo0, c.confirm.elo1),
                    decision.to_string(),
                    format!("{:.6}", sprt.llr),
                ];
                (line, Some(row))
            }
        }
    };
    if let Some(row) = row {
        let header =
            "tuned,start,games,comparisons,score,score_lo,score_hi,elo,elo_lo,elo_hi,sprt,decision,llr".split(',');
        write_atomic(&out.join("confirm.csv"), csv_table(header, std::iter::once(row)).as_bytes())?;
    }
    report.push_str(&line);
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
    Ok(0)
}
