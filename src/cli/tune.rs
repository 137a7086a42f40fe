//! `mtrain tune`: SPSA over a bot's numeric parameters, then a confirmation on fresh deals.
//!
//! Each iteration plays the two perturbed bots against each other on duplicate deals (the
//! tournament runner, every thread) and steps the parameters ([`crate::tune`]). After every
//! iteration the state is saved atomically to `tune.json` with `trajectory.csv`, so Ctrl-C,
//! SIGTERM or SIGHUP lose at most the iteration in flight and `--resume DIR` continues exactly.
//! At the end: `trajectory.svg`, `tuned.txt` (the tuned bot's spec) and the confirmation, an
//! SPRT of the tuned bot against the starting one on deals no iteration played (`confirm.csv`),
//! which says plainly whether the gain holds.

use super::job::{Common, Durable, print_now, shell_word};
use super::values;
use super::{BotArgs, CliError, TableArgs, bot_failure, write_in_folder};
use crate::external::{BotSetup, Settings, StderrTo};
use crate::job::{Folder, TUNE};
use crate::report::tune as rep;
use crate::strategies::Registry;
use crate::tournament::Sprt;
use crate::tune::{Gains, TuneError, TuneState, Tuning, TuningSpec};
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

/// The run `spec` describes, checked, with its starting point; the registry with the bots of
/// `bots` (external bots' stderr to `stderr`).
fn build(
    spec: &TuningSpec,
    bots: &BotSetup,
    base: &Registry,
    settings: &Settings,
) -> Result<(Tuning, Vec<f64>, Registry, crate::external::ExternalBots), CliError> {
    let (registry, ext) = bots.registry(base, settings).map_err(CliError::usage)?;
    let (t, start) = Tuning::new(spec, &registry).map_err(|e| CliError::usage(e.to_string()))?;
    Ok((t, start, registry, ext))
}

impl From<TuneError> for CliError {
    fn from(e: TuneError) -> CliError {
        CliError::usage(e.to_string())
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
    let job = Durable::start(TUNE, raw, &common)?;
    let settings = |out: &std::path::Path| Settings {
        timeout: std::time::Duration::from_secs_f64(a.bot_args.timeout()),
        stderr: StderrTo::Dir(out.join("bot-logs")),
    };
    let (folder, mut st, t, registry, ext) = match &a.resume {
        Some(dir) => {
            let (folder, text) = job.stored(dir)?;
            let mut st = TuneState::from_json(&text, None)
                .map_err(|e| CliError::usage(format!("cannot resume from '{}': {e}", dir.display())))?;
            // The run is rebuilt from its stored data; a corrected --ext-bot command may replace one.
            st.bots = st.bots.with_commands(a.bot_args.ext_bots()).map_err(CliError::usage)?;
            let (t, _, registry, ext) = build(&st.spec, &st.bots, registry, &settings(dir))?;
            st.check_points(t.params.len()).map_err(CliError::usage)?;
            (folder, st, t, registry, ext)
        }
        None => {
            let (spec, bots) = (spec(a), a.bot_args.setup());
            // The table's errors first, then the bot's and the parameters', then the folder's.
            a.table.table()?;
            let Some(out) = a.out.clone() else {
                build(&spec, &bots, registry, &Settings::default())?;
                return Err(CliError::usage("give an output folder with --out DIR (or --resume DIR)"));
            };
            let (t, start, registry, ext) = build(&spec, &bots, registry, &settings(&out))?;
            let same = |text: &str| TuneState::from_json(text, None).is_ok_and(|st| st.spec == spec && st.bots == bots);
            let folder = Folder::create(&out, TUNE, a.force, same)?;
            let st = t.new_state(spec, bots, start);
            (folder, st, t, registry, ext)
        }
    };
    let total = t.gains.iterations;
    let progress = job.progress(total, "iterations");
    progress.set_position(st.rows.len() as u64);
    let out = &folder.dir;
    let save = |st: &TuneState| -> Result<(), CliError> {
        folder
            .save(&[("trajectory.csv", rep::trajectory_csv(&t, st))], &st.to_json(), &mut |p, b| write_in_folder(p, b))
    };
    save(&st)?;
    // What runs, before it runs.
    print_now(&rep::header(&t, &st));
    // Each iteration is saved as it ends: no timed checkpoints.
    let opts = job.options(false, None);
    let interrupted = t.iterate(&mut st, &registry, &opts, save, || progress.inc(1))?;
    progress.finish_and_clear();
    if let Some(e) = bot_failure(&ext) {
        return Err(e);
    }
    let tuned = t.bot_at(st.rows.last().map_or(&st.start, |r| &r.u), &registry)?;
    let startspec = t.bot_at(&st.start, &registry)?;
    let mut report = format!("after {} of {total} iterations:\nstart: {startspec}\ntuned: {tuned}\n", st.rows.len());
    let resume = shell_word(&out.display().to_string());
    if interrupted {
        print_now(&report);
        let line = format!(
            "after {} of {total} iterations, saved; continue with: mtrain tune --resume {resume}",
            st.rows.len()
        );
        return Ok(job.interrupted(&line));
    }
    write_in_folder(&out.join("trajectory.svg"), rep::trajectory_svg(&t, &st).map_err(CliError::failure)?.as_bytes())?;
    write_in_folder(&out.join("tuned.txt"), format!("{tuned}\n").as_bytes())?;
    // The confirmation: fresh deals, an SPRT.
    if tuned == startspec {
        report.push_str("\nConfirmation: the tuned parameters are the starting ones; there is no gain to confirm.\n");
    } else {
        let confirmed = t.confirmation(&tuned, &startspec, &registry, &opts)?;
        if let Some(e) = bot_failure(&ext) {
            return Err(e);
        }
        let Some(c) = confirmed else {
            print_now(&report);
            let line = format!(
                "during the confirmation (the tuning is saved); run the confirmation again with: mtrain tune --resume {resume}"
            );
            return Ok(job.interrupted(&line));
        };
        let (line, csv) = rep::confirmation(&t, &tuned, &startspec, &c);
        write_in_folder(&out.join("confirm.csv"), csv.as_bytes())?;
        report.push_str(&line);
    }
    print_now(&report);
    Ok(0)
}
