//! `mtrain compare`: two or more rule sets side by side on the same deals, at the player counts
//! and hand sizes asked: every figure's difference from the first (the baseline) with its
//! interval and a verdict at a margin, corrected for the number of differences, and a summary
//! in plain words.
//!
//! A rule set is a preset with changes (`wikipedia:tap=draw_two,continuous_draw=true`) or a
//! house-rule file (`preset = wikipedia` and one `key = value` a line). A comparison is as
//! durable as a sweep: `--out` saves its exact state (`compare.json`) every `--checkpoint`
//! seconds and on a signal, `--resume` continues it, `--shard` plays a slice and `mtrain merge`
//! combines the slices.

use super::durable::{Common, Durable, drive};
use super::values::{self, Hands, Span};
use super::{BotArgs, CliError};
use crate::compare::{self as cmp, CompareConfig, CompareSpec, RuleSet};
use crate::job::Start;
use crate::job::compare::CompareRun;
use crate::rules::PRESETS;
use crate::store::COMPARE;
use crate::strategies::Registry;
use clap::Args;
use std::path::{Path, PathBuf};

/// Options of `mtrain compare`.
#[derive(Args, Debug, Clone)]
pub(crate) struct CompareArgs {
    /// A rule set (repeatable, at least twice; the first is the baseline): PRESET, or
    /// PRESET:key=value,key=value with any `--rule` changes, or a house-rule file (a line
    /// `preset = NAME` and one `key = value` a line; `#` comments)
    #[arg(long = "ruleset", value_name = "PRESET[:KEY=VALUE,...]|FILE")]
    rulesets: Vec<String>,
    /// Domino set: double-M [valid: 6, 9, 12, 15, 18]
    #[arg(long, default_value = "12", value_name = "M", value_parser = values::set, allow_hyphen_values = true)]
    set: u8,
    /// Player counts: N or A-B
    #[arg(long, default_value = "4", value_name = "A-B", value_parser = values::player_span, allow_hyphen_values = true)]
    players: Span,
    /// Hand sizes: H, A-B, or auto (from 5 tiles to the most every rule set can deal each
    /// player count, at most 24)
    #[arg(long, default_value = "auto", value_name = "A-B|auto", value_parser = values::hands, allow_hyphen_values = true)]
    hands: Hands,
    /// Games per cell (player count and hand size) and rule set; each seat rotation of a deal
    /// is one game, and every rule set plays the same deals
    #[arg(long, default_value_t = cmp::GAMES, value_name = "G", value_parser = values::games, allow_hyphen_values = true)]
    games: u64,
    /// Rounds per match [default: every double from the highest down to 0-0]
    #[arg(long, value_name = "K", value_parser = values::rounds, allow_hyphen_values = true)]
    rounds: Option<u8>,
    /// The population of players, as in `mtrain balance` (strongest first, a beginner last)
    #[arg(long, default_value = crate::balance::DEFAULT_POPULATION, value_name = "BOTS")]
    bots: String,
    /// Margin on shares (blocked rounds, first-player edge, skill): a change smaller than this
    /// is no change (0.01: 1 percentage point)
    #[arg(long, default_value_t = cmp::MARGIN, value_name = "M", value_parser = values::share, allow_hyphen_values = true)]
    margin: f64,
    /// Margin on counts (turns, minutes, points, tiles), as a share of the baseline's figure
    /// (0.05: 5%)
    #[arg(long, default_value_t = cmp::RELATIVE_MARGIN, value_name = "M", value_parser = values::share, allow_hyphen_values = true)]
    relative_margin: f64,
    /// Seconds a turn takes at the table, for minutes per round and per match [default: 15,
    /// from a published estimate of a four-player home match; see docs/compare.md]
    #[arg(long, default_value_t = cmp::SECONDS_PER_TURN, value_name = "S", value_parser = values::seconds, allow_hyphen_values = true)]
    seconds_per_turn: f64,
    /// Master seed (decimal or 0x hex)
    #[arg(long, default_value = "1", value_name = "S", value_parser = values::seed, allow_hyphen_values = true)]
    seed: u64,
    /// Worker threads, at most 4 per core (and at least 16 allowed) [default: every core]
    #[arg(long, value_name = "T", value_parser = values::threads, allow_hyphen_values = true)]
    threads: Option<usize>,
    /// Write compare.csv, rulesets.csv, summary.txt and manifest.json here
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress bar and no timing line on stderr
    #[arg(long)]
    quiet: bool,
    /// Write into a --out folder that holds files other than a comparison's (mtrain's own
    /// output files in it are replaced; other files are left alone)
    #[arg(long)]
    force: bool,
    /// Continue the interrupted comparison whose output is in DIR (its settings are reused)
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// Play only slice i of n (1 <= i <= n) of the comparison's games; merge slices with mtrain
    /// merge (auto, auto/N: as in mtrain balance, docs/cluster.md)
    #[arg(long, value_name = "I/N|auto|auto/N", value_parser = super::shard::parse)]
    shard: Option<super::shard::ShardArg>,
    /// Save the comparison's exact state to --out every S seconds (and on Ctrl-C, SIGTERM or
    /// SIGHUP) [default: 60]
    #[arg(long, value_name = "S", value_parser = values::timeout, allow_hyphen_values = true)]
    checkpoint: Option<f64>,
    #[command(flatten)]
    bot_args: BotArgs,
}

/// A rule set from the command line: a preset spec, or else a house-rule file by that name.
fn ruleset(text: &str) -> Result<RuleSet, CliError> {
    let head = text.split_once(':').map_or(text, |(h, _)| h).trim();
    if PRESETS.iter().any(|p| p.name == head) {
        return RuleSet::parse(text).map_err(|e| CliError::usage(format!("--ruleset: {e}")));
    }
    let path = Path::new(text);
    if !path.is_file() {
        return Err(CliError::usage(format!(
            "--ruleset '{text}' is neither a preset (valid: {}) nor a house-rule file",
            PRESETS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
        )));
    }
    let body = std::fs::read_to_string(path)
        .map_err(|e| CliError::usage(format!("--ruleset: cannot read '{}': {e}", path.display())))?;
    let name = path.file_stem().map_or_else(|| text.to_string(), |s| s.to_string_lossy().into_owned());
    RuleSet::from_file(&name, &body).map_err(|e| CliError::usage(format!("--ruleset: {e}")))
}

fn spec(a: &CompareArgs) -> Result<CompareSpec, CliError> {
    Ok(CompareSpec {
        rulesets: a.rulesets.iter().map(|r| ruleset(r)).collect::<Result<_, _>>()?,
        set: a.set,
        rounds: a.rounds,
        players: (a.players.0, a.players.1),
        hands: a.hands.0.map(|Span(lo, hi)| (lo, hi)),
        bots: a.bots.clone(),
        games: a.games,
        seed: a.seed,
        margin: a.margin,
        relative_margin: a.relative_margin,
        seconds_per_turn: a.seconds_per_turn,
    })
}

pub(crate) fn run(a: &CompareArgs, raw: &[String], base: &Registry) -> Result<i32, CliError> {
    let common = Common {
        out: a.out.as_deref(),
        resume: a.resume.as_deref(),
        threads: a.threads,
        quiet: a.quiet,
        with_folder: &[("--checkpoint", a.checkpoint.is_some())],
        new_folder: &[("--force", a.force)],
    };
    let d = Durable::start(COMPARE, raw, &common)?;
    let start = match &a.resume {
        Some(dir) => Start::Resume { dir: dir.clone(), ext: a.bot_args.ext_bots().to_vec() },
        None => Start::New {
            config: CompareConfig { spec: spec(a)?, bots: a.bot_args.setup() },
            shard: super::shard::resolve_shard(a.shard, &mut Vec::new())?,
            outputs: (),
            out: a.out.clone(),
            force: a.force,
        },
    };
    drive::<CompareRun>(&d, start, base, a.checkpoint, a.bot_args.timeout())
}
