//! `mtrain play`: one match, a readable transcript on stdout, optionally the JSONL log.

use super::human::{Human, SharedTranscript};
use super::{
    AtomicFile, BotArgs, CliError, TableArgs, bot_failure, changes_text, check_out_file, refuse_foreign_file, values,
};
use crate::analyze::Settings;
use crate::external::{ExternalBots, StderrTo};
use crate::game::{MatchObserver, MatchResult, play_match};
use crate::log::JsonLog;
use crate::report::transcript::Transcript;
use crate::round::{Event, Observer, RoundState};
use crate::rules::Rules;
use crate::strategies::{Bot, Registry};
use crate::strategy::StrategySpec;
use clap::Args;
use std::io::BufWriter;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Options of `mtrain play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    #[command(flatten)]
    table: TableArgs,
    /// Bots in seat order, as name or name:key=value,...: as many as seats, or fewer, repeated
    /// to fill the table (`greedy` is greedy in every seat)
    /// [default: greedy and random alternating; `mtrain strategies` lists the bots]
    #[arg(long, value_name = "BOTS")]
    bots: Option<String>,
    /// Match seed, decimal or hex (0x...); the same arguments and seed give the same match, byte
    /// for byte
    #[arg(long, default_value = "1", value_name = "S", value_parser = values::seed, allow_hyphen_values = true)]
    seed: u64,
    /// Also write the full-information JSONL game log to FILE
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Replace an existing file at --log even if it is not a game log mtrain wrote
    #[arg(long, requires = "log")]
    force: bool,
    /// A person plays seat SEAT in the terminal (the bots fill the other seats): the hand and
    /// table are shown each turn, legal moves numbered; `hint` asks the analyser, `quit` stops
    #[arg(long, value_name = "SEAT")]
    human: Option<u8>,
    #[command(flatten)]
    bot_args: BotArgs,
}

/// Builds one bot per seat from a `--bots` list: as many as seats, or fewer, repeated to fill the
/// table (the grammar every subcommand shares; see [`Field`]).
pub(crate) fn seat_bots(
    list: &str,
    players: u8,
    registry: &Registry,
) -> Result<(Vec<StrategySpec>, Vec<Bot>), CliError> {
    let field = registry.field(list).map_err(|e| CliError::usage(e.to_string()))?;
    let n = players as usize;
    if field.entries.len() > n {
        return Err(CliError::usage(format!(
            "{players} players need at most {players} bots (fewer are repeated to fill the table), got {}: '{list}'; a longer field is for mtrain tournament",
            field.entries.len()
        )));
    }
    let specs: Vec<StrategySpec> = field.lineup(n).map(|b| field.bots[b].clone()).collect();
    let bots = specs
        .iter()
        .map(|s| registry.build(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError::usage(e.to_string()))?;
    Ok((specs, bots))
}

/// Sends events to both the transcript and, when asked, the log, until an external bot fails
/// (what follows is not the bots' game: the transcript ends where the failure happened).
struct Both<'a, A: MatchObserver, B: MatchObserver>(&'a mut A, Option<&'a mut B>, &'a ExternalBots);

impl<A: MatchObserver, B: MatchObserver> Observer for Both<'_, A, B> {
    fn event(&mut self, ev: &Event) {
        if self.2.failed() {
            return;
        }
        self.0.event(ev);
        if let Some(b) = self.1.as_mut() {
            b.event(ev);
        }
    }
}

impl<A: MatchObserver, B: MatchObserver> MatchObserver for Both<'_, A, B> {
    fn match_start(&mut self, rules: &Rules, seed: u64) {
        self.0.match_start(rules, seed);
        if let Some(b) = self.1.as_mut() {
            b.match_start(rules, seed);
        }
    }
    fn round_start(&mut self, round: u8, state: &RoundState) {
        if self.2.failed() {
            return;
        }
        self.0.round_start(round, state);
        if let Some(b) = self.1.as_mut() {
            b.round_start(round, state);
        }
    }
    fn match_end(&mut self, result: &MatchResult) {
        if self.2.failed() {
            return;
        }
        self.0.match_end(result);
        if let Some(b) = self.1.as_mut() {
            b.match_end(result);
        }
    }
}

pub(crate) fn run(args: &PlayArgs, base: &Registry) -> Result<(), CliError> {
    let table = args.table.table()?;
    let rules = table.rules.clone();
    // No progress bar here: a bot's stderr goes to ours, each line marked with its name.
    let (registry, ext) = args.bot_args.registry(base, StderrTo::Forward)?;
    let seed = args.seed;
    let list = args.bots.clone().unwrap_or_else(|| {
        (0..rules.players).map(|s| if s % 2 == 0 { "greedy" } else { "random" }).collect::<Vec<_>>().join(",")
    });
    let (specs, mut bots) = seat_bots(&list, rules.players, &registry)?;
    let mut names: Vec<String> = specs.iter().map(StrategySpec::to_string).collect();
    if let Some(h) = args.human
        && h >= rules.players
    {
        return Err(CliError::usage(format!(
            "--human {h}: the table has {} seats (valid: 0 to {})",
            rules.players,
            rules.players - 1
        )));
    }
    if let Some(log) = &args.log {
        check_out_file("--log", log)?;
        refuse_foreign_file("--log", log, args.force, "a game log", |head| head.starts_with("{\"event\":\"match\""))?;
    }
    let mut log_file = args.log.as_deref().map(AtomicFile::create).transpose()?;

    // The transcript marks a bot that sees hidden tiles; the log keeps the plain names.
    let mut shown: Vec<String> =
        specs.iter().map(|s| crate::strategies::BotLabel::of(&registry, s).to_string()).collect();
    if let Some(h) = args.human {
        let seat = crate::round::Seat::from_index(h as usize);
        names[h as usize] = "human".into();
        shown[h as usize] = "human (you)".into();
        let transcript = Transcript::new(std::io::stdout(), shown).with_changes(changes_text(&table.changes));
        let shared = Arc::new(Mutex::new(transcript.with_viewer(seat)));
        let quit = Arc::new(AtomicBool::new(false));
        bots[h as usize] =
            Bot::custom(Human { transcript: shared.clone(), quit: quit.clone(), hint: Settings::default() });
        let mut table_out = SharedTranscript { transcript: shared, quit: quit.clone() };
        match log_file.as_mut() {
            Some(f) => {
                let mut log = JsonLog::new(f.writer(), names).with_options(table.changes.clone());
                play_match(&rules, seed, &mut bots, &mut Both(&mut table_out, Some(&mut log), &ext));
                if let Some(e) = bot_failure(&ext) {
                    return Err(e);
                }
                if let Some(e) = log.out.error {
                    return Err(CliError::failure(format!("cannot write the log: {e}")));
                }
            }
            None => {
                play_match(&rules, seed, &mut bots, &mut Both::<_, JsonLog<std::io::Sink>>(&mut table_out, None, &ext));
            }
        }
        if let Some(e) = bot_failure(&ext) {
            return Err(e);
        }
        if quit.load(Ordering::Relaxed) {
            // The rest of the match was not the person's: no log is kept.
            if args.log.is_some() {
                println!("no log written: the match was stopped");
            }
            return Ok(());
        }
        if let Some(f) = log_file {
            f.commit()?;
        }
        return Ok(());
    }

    let stdout = std::io::stdout();
    let mut transcript =
        Transcript::new(BufWriter::new(stdout.lock()), shown).with_changes(changes_text(&table.changes));
    let result = match log_file.as_mut() {
        Some(f) => {
            let mut log = JsonLog::new(f.writer(), names).with_options(table.changes.clone());
            let r = play_match(&rules, seed, &mut bots, &mut Both(&mut transcript, Some(&mut log), &ext));
            if let Some(e) = bot_failure(&ext) {
                // The match is not what the bots would have played: no log is kept.
                return Err(e);
            }
            if let Some(e) = log.out.error {
                return Err(CliError::failure(format!("cannot write the log: {e}")));
            }
            r
        }
        None => {
            play_match(&rules, seed, &mut bots, &mut Both::<_, JsonLog<std::io::Sink>>(&mut transcript, None, &ext))
        }
    };
    let _ = result;
    if let Some(e) = bot_failure(&ext) {
        return Err(e);
    }
    if let Some(f) = log_file {
        f.commit()?;
    }
    match transcript.out.error {
        Some(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::failure(format!("cannot write the transcript: {e}")))
        }
        _ => Ok(()),
    }
}
