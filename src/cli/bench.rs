//! `mtrain bench`: engine throughput as measured, not estimated.
//!
//! For each thread count, `--runs` timed runs of `--seconds / --runs` each: every thread plays
//! full matches (deal included) with its own seeds until the run's time is up, counting rounds,
//! matches, decisions (choices among two or more legal moves, as the engine counts them) and the
//! search bots' rollouts. Each thread
//! plays its games the way a tournament worker does (one move list and one result kept for all
//! its matches, `play_match_reusing`). Each figure is the median over the runs; the speed-up
//! divides the median rounds per second by that of the first thread count.
//!
//! Beside each thread count above one, the same number of independent single-thread processes
//! (this program again, `--threads 1`, started together) are timed the same way: their summed
//! rounds per second over the first row's is the speed-up the machine itself allows (shared
//! caches, memory bandwidth, clock boost), and the runner's efficiency is its own speed-up over
//! that one. `--deal-only` times just the seeded shuffle and deal of a round (the floor under a
//! round).

use super::values::{self, ThreadList};
use super::{
    BotArgs, CliError, TableArgs, bot_failure, changes_text, check_out_file, refuse_foreign_file, write_atomic,
};
use crate::deal::deal_round;
use crate::external::StderrTo;
use crate::game::{MatchResult, MatchSeeds, play_match_reusing};
use crate::rng::{mix, rng_from_seed};
use crate::round::MoveList;
use crate::rules::Rules;
use crate::strategies::{Bot, Registry, rollouts_on_this_thread};
use crate::strategy::Strategy;
use clap::Args;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Options of `mtrain bench`.
#[derive(Args, Debug, Clone)]
pub(crate) struct BenchArgs {
    #[command(flatten)]
    table: TableArgs,
    /// Bots in seat order, as in `mtrain play`: as many as seats, or fewer, repeated to fill the
    /// table
    #[arg(long, default_value = "greedy", value_name = "BOTS")]
    bots: String,
    /// Thread counts to measure, comma-separated
    #[arg(long, default_value = "1,2", value_name = "LIST", value_parser = values::thread_list, allow_hyphen_values = true)]
    threads: ThreadList,
    /// Seconds of timed play per thread count
    #[arg(long, default_value = "5", value_name = "S", value_parser = values::seconds, allow_hyphen_values = true)]
    seconds: f64,
    /// Timed runs per thread count (the figures are their medians)
    #[arg(long, default_value = "5", value_name = "R", value_parser = values::runs, allow_hyphen_values = true)]
    runs: usize,
    /// Time only the seeded shuffle and deal of a round
    #[arg(long)]
    deal_only: bool,
    /// Also write the table as CSV to FILE
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replace an existing file at --out even if it is not a bench table mtrain wrote
    #[arg(long, requires = "out")]
    force: bool,
    /// Do not time independent single-thread processes beside the thread counts above one
    #[arg(long)]
    no_processes: bool,
    /// Internal: run as one of the independent processes (one line of figures, nothing else)
    #[arg(long, hide = true)]
    child: bool,
    #[command(flatten)]
    bot_args: BotArgs,
}

/// What one thread did in one run.
#[derive(Clone, Copy, Default)]
struct Work {
    rounds: u64,
    matches: u64,
    decisions: u64,
    rollouts: u64,
}

/// One timed run on `threads` threads for `dur`: total work and elapsed seconds.
fn timed_run(rules: &Rules, bots: &[Bot], threads: usize, dur: Duration, deal_only: bool, run: u64) -> (Work, f64) {
    let start = Instant::now();
    let deadline = start + dur;
    let works: Vec<Work> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut w = Work::default();
                    // The bots themselves, as a tournament seats them (a wrapper would hide what a
                    // bot tells the engine, such as `Needs::heaviest_first`); the engine counts decisions.
                    let mut seats: Vec<Bot> = bots.to_vec();
                    let base = mix(run, t as u64);
                    let mut i = 0u64;
                    let mut moves = Box::new(MoveList::new());
                    let mut state = None;
                    let mut result = MatchResult::empty(rules.players);
                    let rollouts = rollouts_on_this_thread();
                    while Instant::now() < deadline && !seats.iter().any(Strategy::has_failed) {
                        if deal_only {
                            // A batch between clock reads, so the clock does not dominate.
                            for _ in 0..64 {
                                let mut rng = rng_from_seed(mix(base, i));
                                let d = deal_round(rules, rules.set, &mut rng);
                                black_box(&d);
                                i += 1;
                                w.rounds += 1;
                            }
                        } else {
                            let seeds = MatchSeeds::from_seed(mix(base, i));
                            let obs = &mut crate::round::NoObserver;
                            play_match_reusing(rules, &seeds, &mut seats, obs, &mut moves, &mut state, &mut result);
                            black_box(&result);
                            i += 1;
                            w.matches += 1;
                            w.rounds += u64::from(result.rounds);
                            w.decisions += result.round_records().map(|r| u64::from(r.outcome.decisions)).sum::<u64>();
                        }
                    }
                    w.rollouts = rollouts_on_this_thread() - rollouts;
                    w
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("bench thread")).collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    let total = works.iter().fold(Work::default(), |a, w| Work {
        rounds: a.rounds + w.rounds,
        matches: a.matches + w.matches,
        decisions: a.decisions + w.decisions,
        rollouts: a.rollouts + w.rollouts,
    });
    (total, elapsed)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// Medians of one thread count.
struct Row {
    threads: usize,
    rounds: f64,
    matches: f64,
    decisions: f64,
    rollouts: f64,
    ns_per_decision: f64,
    ns_per_round: f64,
    /// Summed rounds per second of `threads` independent single-thread processes (`None`: not
    /// measured).
    processes: Option<f64>,
}

/// The medians of `runs` timed runs on `t` threads.
fn measure(rules: &Rules, bots: &[Bot], t: usize, dur: Duration, deal_only: bool, runs: usize) -> Row {
    let (mut rr, mut mr, mut dr, mut ro, mut nsd, mut nsr) = (vec![], vec![], vec![], vec![], vec![], vec![]);
    for r in 0..runs {
        let (w, secs) = timed_run(rules, bots, t, dur, deal_only, r as u64);
        rr.push(w.rounds as f64 / secs);
        mr.push(w.matches as f64 / secs);
        dr.push(w.decisions as f64 / secs);
        ro.push(w.rollouts as f64 / secs);
        // CPU time per unit on each thread.
        nsd.push(if w.decisions > 0 { secs * 1e9 * t as f64 / w.decisions as f64 } else { f64::NAN });
        nsr.push(if w.rounds > 0 { secs * 1e9 * t as f64 / w.rounds as f64 } else { f64::NAN });
    }
    Row {
        threads: t,
        rounds: median(rr),
        matches: median(mr),
        decisions: median(dr),
        rollouts: median(ro),
        ns_per_decision: median(nsd),
        ns_per_round: median(nsr),
        processes: None,
    }
}

/// The line a child process prints: its median rounds per second.
const CHILD_TAG: &str = "mtrain-bench-child rounds_per_s=";

/// This command line for one of `k` independent processes: the same table and bots, one thread,
/// no output file, marked as a child.
fn child_args(raw: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in raw.iter().skip(1) {
        if skip {
            skip = false;
            continue;
        }
        if a == "--threads" || a == "--out" {
            skip = true;
            continue;
        }
        if a.starts_with("--threads=") || a.starts_with("--out=") || a == "--child" || a == "--no-processes" {
            continue;
        }
        out.push(a.clone());
    }
    out.extend(["--threads", "1", "--no-processes", "--child"].map(String::from));
    out
}

/// Starts `k` copies of this program as single-thread benches at once and sums their rounds per
/// second.
fn processes(raw: &[String], k: usize) -> Result<f64, CliError> {
    let exe =
        std::env::current_exe().map_err(|e| CliError::failure(format!("bench: cannot find this program: {e}")))?;
    let args = child_args(raw);
    let children = (0..k)
        .map(|_| {
            std::process::Command::new(&exe)
                .args(&args)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::inherit())
                .spawn()
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::failure(format!("bench: cannot start an independent process: {e}")))?;
    let mut sum = 0.0;
    for c in children {
        let out = c.wait_with_output().map_err(|e| CliError::failure(format!("bench: independent process: {e}")))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let rate = text.lines().find_map(|l| l.strip_prefix(CHILD_TAG)).and_then(|v| v.trim().parse::<f64>().ok());
        match rate {
            Some(r) if out.status.success() => sum += r,
            _ => {
                return Err(CliError::failure("bench: an independent process failed (its error is above)".to_string()));
            }
        }
    }
    Ok(sum)
}

fn group(n: f64) -> String {
    let s = format!("{:.0}", n);
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The header of `--out`'s table: also how bench knows a table of its own, the one kind of file
/// it replaces without --force.
const BENCH_HEADER: &str = "threads,runs,seconds,rounds_per_s,matches_per_s,decisions_per_s,ns_per_round,ns_per_decision,speedup,rollouts_per_s,process_speedup,efficiency";

pub(crate) fn run(a: &BenchArgs, raw: &[String], base: &Registry) -> Result<(), CliError> {
    let table = a.table.table()?;
    let rules = table.rules.clone();
    let (registry, ext) = a.bot_args.registry(base, StderrTo::Forward)?;
    if let Some(out) = &a.out {
        check_out_file("--out", out)?;
        refuse_foreign_file("--out", out, a.force, "a bench table", |head| head.starts_with(BENCH_HEADER))?;
    }
    let (specs, bots) = super::play::seat_bots(&a.bots, rules.players, &registry)?;
    let threads = a.threads.0.clone();
    let (seconds, runs) = (a.seconds, a.runs);
    let dur = Duration::from_secs_f64(seconds / runs as f64);
    if a.child {
        let _ = timed_run(&rules, &bots, 1, Duration::from_millis(200), a.deal_only, u64::MAX);
        let row = measure(&rules, &bots, 1, dur, a.deal_only, runs);
        if let Some(e) = bot_failure(&ext) {
            return Err(e);
        }
        outln!("{CHILD_TAG}{}", row.rounds);
        return Ok(());
    }
    let bot_names = specs.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
    let changes = changes_text(&table.changes);
    let what = if a.deal_only { "seeded shuffle and deal only".to_string() } else { format!("bots {bot_names}") };
    outln!(
        "mtrain bench: {} rules{changes}, double-{}, {} players, {} tiles each; {what}; {runs} runs of {:.2} s per thread count (medians)",
        rules.preset,
        rules.set,
        rules.players,
        rules.hand().unwrap_or(0),
        seconds / runs as f64
    );
    // Warm-up: caches, page faults, thread start-up.
    let _ = timed_run(&rules, &bots, threads[0], Duration::from_millis(200), a.deal_only, u64::MAX);
    if let Some(e) = bot_failure(&ext) {
        return Err(e);
    }
    let mut rows = Vec::new();
    for &t in &threads {
        let mut row = measure(&rules, &bots, t, dur, a.deal_only, runs);
        if let Some(e) = bot_failure(&ext) {
            return Err(e);
        }
        if t > 1 && !a.no_processes {
            row.processes = Some(processes(raw, t)?);
        }
        rows.push(row);
    }
    let base = rows[0].rounds;
    let searched = rows.iter().any(|r| r.rollouts > 0.0);
    let unit = if a.deal_only { "  deals/s" } else { " rounds/s" };
    let rollouts_head = if searched { "   rollouts/s" } else { "" };
    let show_processes = rows.iter().any(|r| r.processes.is_some());
    let processes_head = if show_processes { "  processes  efficiency" } else { "" };
    outln!("threads   {unit}   matches/s  decisions/s{rollouts_head}  ns/round  ns/decision  speed-up{processes_head}");
    let mut csv_rows = Vec::new();
    for r in &rows {
        // Speed-ups over the first row; the efficiency compares like with like (as many
        // threads as processes).
        let speedup = r.rounds / base;
        let machine = r.processes.map(|p| p / base);
        let efficiency = r.processes.map(|p| r.rounds / p);
        let nsd = if r.ns_per_decision.is_finite() { format!("{:.0}", r.ns_per_decision) } else { "-".into() };
        let count = |v: f64| if a.deal_only { "-".to_string() } else { group(v) };
        let rollouts = if searched { format!("  {:>11}", group(r.rollouts)) } else { String::new() };
        let procs = match (show_processes, machine, efficiency) {
            (false, _, _) => String::new(),
            (true, Some(m), Some(e)) => format!("  {m:>8.2}x  {:>9.1}%", 100.0 * e),
            (true, _, _) => format!("  {:>9}  {:>10}", "-", "-"),
        };
        outln!(
            "{:>7}  {:>10}  {:>10}  {:>11}{rollouts}  {:>8.0}  {:>11}  {:>7.2}x{procs}",
            r.threads,
            group(r.rounds),
            count(r.matches),
            count(r.decisions),
            r.ns_per_round,
            nsd,
            speedup
        );
        // Decimals with 6 places, as in every CSV mtrain writes.
        let num = |v: f64| format!("{v:.6}");
        csv_rows.push(vec![
            r.threads.to_string(),
            runs.to_string(),
            num(seconds),
            num(r.rounds),
            num(r.matches),
            num(r.decisions),
            num(r.ns_per_round),
            if r.ns_per_decision.is_finite() { num(r.ns_per_decision) } else { String::new() },
            num(speedup),
            num(r.rollouts),
            machine.map_or(String::new(), num),
            efficiency.map_or(String::new(), num),
        ]);
    }
    if show_processes {
        outln!(
            "processes: the speed-up of as many independent single-thread processes run together (the machine's own limit); efficiency: the speed-up over it"
        );
    }
    if let Some(path) = &a.out {
        write_atomic(path, crate::report::csv_table(BENCH_HEADER.split(','), csv_rows).as_bytes())?;
    }
    Ok(())
}
