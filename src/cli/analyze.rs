//! `mtrain analyze`: what should be played here, and game review (docs/analyze.md).

use super::{AtomicFile, CliError, check_out_file, refuse_foreign_file, values};
use crate::analyze::position::{Position, TEMPLATE};
use crate::analyze::replay::{Decision, LoggedGame, read_log};
use crate::analyze::review::{self, DEFAULT_CHECK_WORLDS, DEFAULT_THRESHOLD, ReviewRow, ReviewSettings, SummaryRow};
use crate::analyze::{
    Analysis, DEFAULT_MAX_WORLDS, DEFAULT_MIN_WORLDS, DEFAULT_MODEL, DEFAULT_REVIEW_WORLDS, Hands, Metric, Settings,
    Table, analyze, to_json,
};
use crate::round::Seat;
use crate::strategies::Registry;
use crate::strategy::StrategySpec;
use crate::view::View;
use clap::{Args, ValueEnum};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `mtrain analyze`.
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("input").required(true).args(["log", "position", "template"]))]
pub(crate) struct AnalyzeArgs {
    /// A JSONL game log (`mtrain play --log`, `mtrain tournament --log-games`): analyse the
    /// position at --round and --decision, or with --review every decision
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// A position file written by hand (JSON; `--template` prints one to start from)
    #[arg(long, value_name = "FILE", conflicts_with = "log")]
    position: Option<PathBuf>,
    /// Print a position file to start from, and stop
    #[arg(long, conflicts_with_all = ["log", "position"])]
    template: bool,
    /// With --log: the game, by the `game` number of its `match` line (tournament logs)
    /// [default: the first; with --review: every game in the file]
    #[arg(long, value_name = "G", requires = "log")]
    game: Option<u64>,
    /// With --log: the round of the position, from 1
    #[arg(long, value_name = "R", requires = "log", conflicts_with = "review")]
    round: Option<u8>,
    /// With --log: the decision in that round, from 1, every seat's decisions counted (the
    /// `decision` column of the review CSV)
    #[arg(long, value_name = "D", requires = "round")]
    decision: Option<u32>,
    /// With --review: only this seat's decisions; with --round/--decision: the seat that must be
    /// the one to move
    #[arg(long, value_name = "S", requires = "log")]
    seat: Option<u8>,
    /// Review every decision of the log (of --seat, of --game) against the analysis
    #[arg(long, requires = "log")]
    review: bool,
    /// With --review: write one row per decision to FILE (CSV)
    #[arg(long, value_name = "FILE", requires = "review")]
    csv: Option<PathBuf>,
    /// With --csv: replace an existing file even if it is not a review mtrain wrote
    #[arg(long, requires = "csv")]
    force: bool,
    /// With --review: the loss (points) that must hold at the confidence (the lower end of its
    /// interval) for a mistake; a blunder holds 4 times as much, an inaccuracy any loss above 0
    /// with a mean of this or more
    #[arg(long, value_name = "P", default_value_t = DEFAULT_THRESHOLD, value_parser = non_negative, requires = "review")]
    threshold: f64,
    /// With --review: worker threads, at most 4 per core [default: every core]
    #[arg(long, value_name = "T", value_parser = values::threads, allow_hyphen_values = true, requires = "review")]
    threads: Option<usize>,
    /// With --review: worlds of the deeper check that a mistake or blunder of an expert or
    /// montecarlo seat must pass (every seat's own bot in the rollouts); 0 turns it off
    #[arg(long, value_name = "N", default_value_t = DEFAULT_CHECK_WORLDS, requires = "review",
          value_parser = clap::value_parser!(u32).range(0..=100_000))]
    check_worlds: u32,
    /// The most worlds one analysis samples (every move still in the running is played once
    /// in each) [default: 100000; with --review 20000 per decision]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    samples: Option<u32>,
    /// The fewest worlds played before any move is dropped or the moves are called
    /// indistinguishable: the first look; raise it to demand a floor [default: 128, or --samples
    /// if that is fewer]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(8..=10_000_000))]
    min_samples: Option<u32>,
    /// A time cap per analysis in seconds (results then depend on the machine) [default: none]
    #[arg(long, value_name = "S", value_parser = values::seconds)]
    seconds: Option<f64>,
    /// Confidence of the intervals and of the tests that drop and separate moves
    #[arg(long, value_name = "C", default_value_t = 0.95, value_parser = confidence)]
    confidence: f64,
    /// Moves surely within this of the best (points, or win probability with --by win) are
    /// called indistinguishable [default: 0.5 points, 0.01 win probability]
    #[arg(long, value_name = "T", value_parser = positive)]
    tolerance: Option<f64>,
    /// What ranks the moves
    #[arg(long, value_enum, default_value_t = By::Points)]
    by: By,
    /// The rollout model: the bot that plays every seat from the position to the round's end
    /// (name or name:key=value,...; weighted is the tuned policy expert's rollouts play)
    #[arg(long, value_name = "BOT", default_value = DEFAULT_MODEL)]
    rollout: String,
    /// How the hands the mover cannot see are dealt in each world: plans (as the tuned policy
    /// leaves them: hands holding longer own-train chains weigh more), uniform (every deal that
    /// meets the table's records equally likely), or auto: plans for the models built on the
    /// tuned policy (weighted, expert, oracle), uniform for the others
    #[arg(long, value_name = "HOW", default_value = "auto", value_parser = ["auto", "plans", "uniform"])]
    hands: String,
    /// The analysis seed, decimal or hex (0x...)
    #[arg(long, default_value = "1", value_name = "S", value_parser = values::seed, allow_hyphen_values = true)]
    seed: u64,
    /// Print JSON instead of tables
    #[arg(long)]
    json: bool,
}

/// `--by`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum By {
    /// Expected point margin: the other seats' mean round score minus the mover's
    Points,
    /// Round-win probability
    Win,
}

fn confidence(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(c) if (0.5..1.0).contains(&c) => Ok(c),
        _ => Err(format!("'{s}' is not a confidence: give a number from 0.5 up to (not including) 1, e.g. 0.95")),
    }
}

fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{s}' is not a positive number")),
    }
}

fn non_negative(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x >= 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{s}' is not a number of 0 or more")),
    }
}

/// The analysis settings of `args`.
fn settings(args: &AnalyzeArgs, registry: &Registry) -> Result<Settings, CliError> {
    let spec: StrategySpec =
        args.rollout.parse().map_err(|e: crate::strategy::SpecError| CliError::usage(format!("--rollout: {e}")))?;
    let rollout = registry.build(&spec).map_err(|e| CliError::usage(format!("--rollout: {e}")))?;
    let by = match args.by {
        By::Points => Metric::Points,
        By::Win => Metric::Win,
    };
    let max_worlds = args.samples.unwrap_or(if args.review { DEFAULT_REVIEW_WORLDS } else { DEFAULT_MAX_WORLDS });
    let min_worlds = match args.min_samples {
        Some(m) if m > max_worlds => {
            return Err(CliError::usage(format!(
                "--min-samples {m} is above the cap of {max_worlds} worlds (--samples): give a floor at most the cap"
            )));
        }
        Some(m) => m,
        None => DEFAULT_MIN_WORLDS.min(max_worlds),
    };
    Ok(Settings {
        rollout,
        model: spec.to_string(),
        min_worlds,
        max_worlds,
        time_cap: args.seconds.map(Duration::from_secs_f64),
        confidence: args.confidence,
        tolerance: args.tolerance.unwrap_or(by.default_tolerance()),
        by,
        infer_draws: true,
        hands: match args.hands.as_str() {
            "plans" => Hands::Plans,
            "uniform" => Hands::Uniform,
            _ => Hands::for_model(&args.rollout),
        },
        keep: None,
        seats: None,
        only: None,
    })
}

pub(crate) fn run(args: &AnalyzeArgs, registry: &Registry) -> Result<(), CliError> {
    if args.template {
        return emit(TEMPLATE);
    }
    let settings = settings(args, registry)?;
    if let Some(path) = &args.position {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| {
            CliError::usage(format!("cannot read the position file '{file}': {}", crate::store::io_text(&e)))
        })?;
        let pos = Position::parse(&text, &file).map_err(|e| CliError::usage(e.to_string()))?;
        let (_, state, moves) = pos.build().map_err(|e| CliError::usage(format!("{file}: {e}")))?;
        let seat = state.current();
        let view = state.view(seat);
        let a = analyze(&view, &moves, &settings, args.seed);
        let head = format!("{file}: seat {} to move", seat.index());
        return print_one(args, &head, &view, &a, None);
    }
    let path = args.log.as_ref().expect("the input group requires one");
    let games = read_log(path).map_err(|e| CliError::usage(e.to_string()))?;
    let chosen: Vec<&LoggedGame> = match args.game {
        Some(g) => {
            let found: Vec<&LoggedGame> = games.iter().filter(|x| x.game == Some(g)).collect();
            if found.is_empty() {
                return Err(CliError::usage(format!(
                    "--game {g}: the log holds no such game (it holds {})",
                    games_text(&games)
                )));
            }
            found
        }
        None if args.review => games.iter().collect(),
        None => vec![&games[0]],
    };
    let n = chosen[0].table.players;
    if let Some(s) = args.seat
        && s >= n
    {
        return Err(CliError::usage(format!("--seat {s}: the game has {n} seats (valid: 0 to {})", n - 1)));
    }
    if args.review {
        return run_review(args, &chosen, settings);
    }
    let (Some(round), Some(decision)) = (args.round, args.decision) else {
        return Err(CliError::usage(
            "--log needs --round R --decision D (the position to analyse) or --review (every decision)",
        ));
    };
    let game = chosen[0];
    let mut found: Option<Decision> = None;
    let mut last_in_round = 0u32;
    let mut rounds = 0u8;
    game.replay(|d| {
        rounds = rounds.max(d.round);
        if d.round == round {
            last_in_round = d.decision;
            if d.decision == decision {
                found = Some(d);
                return false;
            }
        }
        d.round <= round
    })
    .map_err(|e| CliError::usage(e.to_string()))?;
    let Some(d) = found else {
        return Err(CliError::usage(if last_in_round == 0 {
            format!(
                "--round {round}: the game has no decision in round {round} (its rounds with decisions: 1 to {rounds})"
            )
        } else {
            format!("--decision {decision}: round {round} has decisions 1 to {last_in_round}")
        }));
    };
    if let Some(s) = args.seat
        && usize::from(s) != d.seat.index()
    {
        return Err(CliError::usage(format!(
            "--seat {s}: decision {decision} of round {round} is seat {}'s",
            d.seat.index()
        )));
    }
    let view = d.state.view(d.seat).expect("a decision is in a round");
    let a = review::analyze_decision(&d, &settings, args.seed);
    let bot = game.bots.get(d.seat.index()).cloned().unwrap_or_default();
    let mut head = String::new();
    if let Some(g) = d.game {
        let _ = write!(head, "game {g}, ");
    }
    let _ = write!(head, "round {round}, decision {decision}: seat {} ({bot}) to move", d.seat.index());
    print_one(args, &head, &view, &a, Some(d.played))
}

/// Writes `text` to standard output; a reader that stopped reading (a closed pipe) is no error.
fn emit(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::failure(format!("cannot write to standard output: {e}")))
        }
        _ => Ok(()),
    }
}

/// The games a log holds, for messages.
fn games_text(games: &[LoggedGame]) -> String {
    let numbers: Vec<String> = games.iter().filter_map(|g| g.game).map(|g| g.to_string()).collect();
    if numbers.is_empty() {
        format!("{} game(s) without numbers: leave out --game", games.len())
    } else if numbers.len() > 12 {
        format!("games {} to {}", numbers[0], numbers[numbers.len() - 1])
    } else {
        format!("games {}", numbers.join(", "))
    }
}

/// Prints one analysis: the position, then the table (or JSON).
fn print_one(
    args: &AnalyzeArgs,
    head: &str,
    view: &View<'_>,
    a: &Analysis,
    played: Option<usize>,
) -> Result<(), CliError> {
    if args.json {
        let mut v = to_json(a);
        v["position"] = serde_json::Value::String(head.to_string());
        if let Some(p) = played {
            v["played"] = serde_json::Value::from(p);
        }
        return emit(&format!("{}\n", serde_json::to_string_pretty(&v).expect("JSON")));
    }
    let mut out = String::new();
    let _ = writeln!(out, "{head}, a {} decision", review::kind_name(view.decision()));
    let _ = writeln!(out, "{}", describe(view));
    if let Some(p) = played
        && let Some(m) = a.of(p)
    {
        let _ = writeln!(out, "played: {}", m.mv);
    }
    let _ = write!(out, "\n{}", Table(a));
    emit(&out)
}

/// The position as the seat to move sees it: hand, trains, hand sizes, boneyard.
pub(crate) fn describe(view: &View<'_>) -> String {
    describe_for(view, None)
}

/// [`describe`] as the person at `you` reads it (`mtrain play --human`): the trains named
/// `your train`, `train 2`, `mexican`; `None` names every train by its id (`train 0`).
pub(crate) fn describe_for(view: &View<'_>, you: Option<Seat>) -> String {
    let name = |id: crate::round::TrainId| match you {
        Some(_) => crate::report::transcript::train_name(id, you),
        None => format!("train {id}"),
    };
    let mut s = String::new();
    let hand: Vec<String> = view.hand().iter().map(|t| t.to_string()).collect();
    let (engine, _) = view.engine();
    let _ = writeln!(s, "hand: {}   engine: {engine}", hand.join(" "));
    for id in view.train_ids() {
        let t = view.train(id);
        let mut line = format!("  {}: ", name(id));
        if t.len == 0 {
            line.push_str("not started");
        } else {
            let _ = write!(line, "{} tile{}, open end {}", t.len, if t.len == 1 { "" } else { "s" }, t.end);
        }
        if t.open_double {
            line.push_str(", open double");
        }
        if let Some(owner) = id.owner()
            && view.is_marked(owner)
        {
            line.push_str(", marked");
        }
        let _ = writeln!(s, "{line}");
    }
    let sizes: Vec<String> =
        (0..view.players()).map(|p| view.hand_size(Seat::from_index(p as usize)).to_string()).collect();
    let _ = write!(s, "hand sizes by seat: {}   boneyard: {}", sizes.join(" "), view.boneyard_len());
    if let Some((train, value)) = view.follow_up_double() {
        let _ = write!(s, "\nfollow-up of the double {value} on {}", name(train));
    }
    for o in view.pending() {
        let _ = write!(s, "\nopen double {} on {} owed (laid by seat {})", o.value, name(o.train), o.placer.index());
    }
    s
}

fn run_review(args: &AnalyzeArgs, games: &[&LoggedGame], analysis: Settings) -> Result<(), CliError> {
    if let Some(csv) = &args.csv {
        check_out_file("--csv", csv)?;
        refuse_foreign_file("--csv", csv, args.force, "a review", |head| {
            head.starts_with("game,round,decision,seat,")
        })?;
    }
    let settings = ReviewSettings {
        analysis,
        seat: args.seat.map(|s| Seat::from_index(s as usize)),
        threshold: args.threshold,
        check_worlds: args.check_worlds,
        seed: args.seed,
        threads: args.threads.unwrap_or_else(super::all_cores),
    };
    let start = std::time::Instant::now();
    let rows = review::review(games, &settings).map_err(|e| CliError::usage(e.to_string()))?;
    let summary = review::summary(games, &rows);
    if let Some(path) = &args.csv {
        let mut f = AtomicFile::create(path)?;
        {
            let mut w = csv::Writer::from_writer(f.writer());
            for r in &rows {
                w.serialize(r).map_err(|e| CliError::failure(format!("cannot write --csv: {e}")))?;
            }
            w.flush().map_err(|e| CliError::failure(format!("cannot write --csv: {e}")))?;
        }
        f.commit()?;
    }
    if args.json {
        let v = serde_json::json!({ "summary": summary, "decisions": rows });
        return emit(&format!("{}\n", serde_json::to_string_pretty(&v).expect("JSON")));
    }
    emit(&summary_table(&summary, &rows, &settings))?;
    eprintln!("reviewed {} decisions in {:.1} s", rows.len(), start.elapsed().as_secs_f64());
    Ok(())
}

/// The review's console summary: the model, a line per game and seat, then the largest mistakes
/// and blunders.
fn summary_table(summary: &[SummaryRow], rows: &[ReviewRow], settings: &ReviewSettings) -> String {
    let mut s = String::new();
    let (m, c) = (settings.threshold, settings.analysis.confidence * 100.0);
    let _ = writeln!(
        s,
        "model: if every seat plays like {} from each position to the round's end; {}",
        settings.analysis.model,
        settings.analysis.hands.describe()
    );
    let _ = writeln!(
        s,
        "grades, by the loss that holds at {c}% (its joint interval's lower end): blunder {} points or more, mistake {m} or more, inaccuracy above 0 with a mean of {m} or more",
        review::BLUNDER_FACTOR * m
    );
    if settings.check_worlds > 0 {
        let _ = writeln!(
            s,
            "a mistake or blunder of {} is flagged only if a deeper check ({} worlds, every seat's own bot in the rollouts) confirms it: the played move behind at {c}% and by {m} or more on average\n",
            review::CHECKED_BOTS.join(" or "),
            settings.check_worlds
        );
    } else {
        let _ = writeln!(s);
    }
    let width = summary.iter().map(|r| r.bot.len()).max().unwrap_or(3).max(3);
    let _ = writeln!(
        s,
        "{:>6}  {:>4}  {:<width$}  {:>9}  {:>12}  {:>8}  {:>8}  {:>11}  {:>9}  {:>10}",
        "game",
        "seat",
        "bot",
        "decisions",
        "inaccuracies",
        "mistakes",
        "blunders",
        "unconfirmed",
        "mean loss",
        "total loss"
    );
    for r in summary {
        let game = r.game.map_or_else(|| "-".to_string(), |g| g.to_string());
        let _ = writeln!(
            s,
            "{:>6}  {:>4}  {:<width$}  {:>9}  {:>12}  {:>8}  {:>8}  {:>11}  {:>9.2}  {:>10.1}",
            game,
            r.seat,
            r.bot,
            r.decisions,
            r.inaccuracies,
            r.mistakes,
            r.blunders,
            r.unconfirmed,
            r.mean_loss,
            r.total_loss
        );
    }
    let mut worst: Vec<&ReviewRow> = rows.iter().filter(|r| r.mistake).collect();
    worst.sort_by(|a, b| b.loss_lo.total_cmp(&a.loss_lo));
    if worst.is_empty() {
        let _ = writeln!(s, "\nno mistakes or blunders");
    } else {
        let _ = writeln!(s, "\nlargest mistakes and blunders (by the loss that holds):");
        for r in worst.iter().take(10) {
            let game = r.game.map_or_else(String::new, |g| format!("game {g}, "));
            let _ = writeln!(
                s,
                "  {game}round {}, decision {} (line {}), seat {}: {}: played {}, best {}: loses {:.2} points [{:.2}, {:.2}]",
                r.round, r.decision, r.line, r.seat, r.grade, r.played, r.best, r.loss, r.loss_lo, r.loss_hi
            );
        }
    }
    s
}
