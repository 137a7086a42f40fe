//! `mtrain play`: one match, a readable transcript on stdout, optionally the JSONL log.
//!
//! With `--human SEAT` a person plays a seat in the terminal ([`super::human`]); the seed is then
//! drawn at random unless `--seed` names one (and printed, to play the same deal again), and a
//! stopped match is saved (`--save`, [`super::save`]) for `--resume` to go on with. A resumed
//! match replays the saved choices from the start, so its transcript and log are those of the
//! match played without a stop.

use super::human::{Human, Session, SharedTranscript, save_on_signal, saved_line};
use super::save::{DEFAULT_SAVE, Save, check_save_path};
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
use std::path::{Path, PathBuf};
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
    /// for byte [default: 1; with --human, drawn at random and printed]
    #[arg(long, value_name = "S", value_parser = values::seed, allow_hyphen_values = true)]
    seed: Option<u64>,
    /// Also write the full-information JSONL game log to FILE
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Replace an existing file at --log even if it is not a game log mtrain wrote
    #[arg(long, requires = "log")]
    force: bool,
    /// A person plays seat SEAT in the terminal (the bots fill the other seats): the hand and
    /// table are shown each turn, legal moves numbered; a move is entered by number or as the
    /// tile (7-11, 7-11 mexican); `hint` asks the analyser, `quit` stops and saves
    #[arg(long, value_name = "SEAT")]
    human: Option<u8>,
    /// Where a person's stopped match is saved (quit, the end of the input, Ctrl-C): replaced
    /// only if it is a save file mtrain wrote [default: mtrain-save.json in the current folder;
    /// with --resume, the file resumed]
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Go on with a person's match saved in FILE: its table, bots, seat and seed, the person's
    /// choices replayed, then play on (--ext-bot, --bot-timeout, --log and --save may be given)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["rules", "rule", "set", "players", "hand", "rounds", "bots", "seed", "human", "name"])]
    resume: Option<PathBuf>,
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

/// A seed nobody chose: the process's hash keys (drawn from the operating system) mixed with
/// the time.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    h.write_u128(now.as_nanos());
    h.write_u32(std::process::id());
    h.finish()
}

pub(crate) fn run(args: &PlayArgs, base: &Registry) -> Result<(), CliError> {
    if args.save.is_some() && args.human.is_none() && args.resume.is_none() {
        return Err(CliError::usage(
            "--save FILE is where a person's stopped match goes: add --human SEAT (or --resume FILE)".to_string(),
        ));
    }
    // A resumed match takes its table, bots, seat and seed from the save.
    let resumed = args.resume.as_deref().map(Save::read).transpose()?;
    let (table_args, bots, bot_args, human, given_seed) = match &resumed {
        Some(s) => (
            TableArgs {
                rules: s.rules.clone(),
                rule: s.rule.clone(),
                set: s.set,
                players: s.players,
                hand: s.hand,
                rounds: s.rounds,
            },
            Some(s.bots.clone()),
            BotArgs { name: s.names.clone(), ..args.bot_args.clone() },
            Some(s.human),
            s.seed(),
        ),
        None => (args.table.clone(), args.bots.clone(), args.bot_args.clone(), args.human, args.seed),
    };
    let table = table_args.table()?;
    let rules = table.rules.clone();
    // No progress bar here: a bot's stderr goes to ours, each line marked with its name.
    let (registry, ext) = bot_args.registry(base, StderrTo::Forward)?;
    let (seed, drawn) = match given_seed {
        Some(s) => (s, false),
        None if human.is_some() => (random_seed(), true),
        None => (1, false),
    };
    let list = bots.unwrap_or_else(|| {
        (0..rules.players).map(|s| if s % 2 == 0 { "greedy" } else { "random" }).collect::<Vec<_>>().join(",")
    });
    let (specs, mut bots) = seat_bots(&list, rules.players, &registry)?;
    let mut names: Vec<String> = specs.iter().map(StrategySpec::to_string).collect();
    if let Some(h) = human
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
    let save_path = match (&args.save, &args.resume) {
        (Some(p), _) | (None, Some(p)) => p.clone(),
        (None, None) => PathBuf::from(DEFAULT_SAVE),
    };
    if human.is_some() {
        check_save_path(&save_path)?;
    }
    let mut log_file = args.log.as_deref().map(AtomicFile::create).transpose()?;

    // The transcript marks a bot that sees hidden tiles; the log keeps the plain names.
    let mut shown: Vec<String> =
        specs.iter().map(|s| crate::strategies::BotLabel::of(&registry, s).to_string()).collect();
    if let Some(h) = human {
        let seat = crate::round::Seat::from_index(h as usize);
        names[h as usize] = "human".into();
        shown[h as usize] = "human (you)".into();
        let t = &table_args;
        let mut save = Save::new(
            t.rules.clone(),
            t.rule.clone(),
            t.set,
            t.players,
            t.hand,
            t.rounds,
            list.clone(),
            bot_args.name.clone(),
            h,
            seed,
        );
        save.choices = resumed.map(|s| s.choices).unwrap_or_default();
        let session = Arc::new(Mutex::new(Session::new(save, save_path)));
        save_on_signal(session.clone());
        if drawn {
            outln!("seed 0x{seed:016x} (replay with --seed 0x{seed:016x})");
        }
        let transcript = Transcript::new(std::io::stdout(), shown).with_changes(changes_text(&table.changes));
        let shared = Arc::new(Mutex::new(transcript.with_viewer(seat)));
        let quit = Arc::new(AtomicBool::new(false));
        bots[h as usize] = Bot::custom(Human {
            transcript: shared.clone(),
            quit: quit.clone(),
            session: session.clone(),
            hint: Settings::default(),
        });
        let mut table_out = SharedTranscript { transcript: shared, quit: quit.clone(), session: session.clone(), seat };
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
        let mut session = session.lock().expect("the session lock");
        let from = || args.resume.as_deref().unwrap_or(Path::new("")).display().to_string();
        if let Some(bad) = &session.bad {
            return Err(CliError::usage(format!("--resume '{}': {bad}", from())));
        }
        if quit.load(Ordering::Relaxed) {
            // The rest of the match was not the person's: no log is kept (the resumed match,
            // replayed from the start, writes the whole log).
            match session.write() {
                Ok(path) => outln!("{}", saved_line(path)),
                Err(e) => return Err(CliError::failure(format!("cannot write the save: {e}"))),
            }
            if args.log.is_some() {
                outln!(
                    "no log written: the match was stopped (mtrain play --resume with --log writes the whole match's)"
                );
            }
            return Ok(());
        }
        if session.unused() > 0 {
            return Err(CliError::usage(format!(
                "--resume '{}': the match ended with {} saved choices still to replay: the file was changed or written for another match",
                from(),
                session.unused()
            )));
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
