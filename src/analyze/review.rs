//! Game review: every decision of a logged game analysed, the played move's loss against the
//! best, and the inaccuracies, mistakes and blunders (docs/analyze.md).
//!
//! A decision is graded by the loss that **holds**: the lower end of the played move's joint
//! interval (the analysis is that sure the played move loses at least so much). With the
//! threshold `M` (default 1 point): a **blunder** holds `4 M` points or more, a **mistake** `M` or
//! more, an **inaccuracy** more than 0 with a mean loss of `M` or more. A mistake or blunder of a
//! seat played by a search bot (`expert`, `montecarlo`), which plays better than the analysis's
//! rollout model, is flagged only once a **deeper check** confirms it: the played and the best
//! move are played again in fresh worlds with every seat's own bot from the log in the rollouts,
//! and the played move must come out behind by the mistake threshold `M` or more on average, and
//! behind at the stated confidence (the lower end of its loss's interval in the check above 0):
//! a check that finds it behind by less, or not surely behind, does not confirm a mistake, and
//! the decision is marked unconfirmed.

use super::replay::{Decision, LoggedGame};
use super::{Analysis, Settings, analyze};
use crate::error::InvalidInput;
use crate::rng::mix;
use crate::round::{Decision as Kind, Seat};
use crate::strategies::Bot;
use crate::strategy::StrategySpec;
use rayon::prelude::*;

/// One reviewed decision: a row of the review CSV (docs/analyze.md lists the columns).
#[derive(Clone, Debug, serde::Serialize)]
pub struct ReviewRow {
    /// The game's number (tournament logs; empty for `mtrain play` logs).
    pub game: Option<u64>,
    pub round: u8,
    /// The decision's number in its round, from 1, every seat's decisions counted.
    pub decision: u32,
    pub seat: usize,
    /// 1-based line of the log file where the played move's first event is.
    pub line: usize,
    /// `normal`, `cover`, `follow_up`, `build` or `swan`.
    pub kind: &'static str,
    /// Legal moves.
    pub moves: usize,
    pub played: String,
    pub best: String,
    pub played_points: f64,
    pub best_points: f64,
    /// Best minus played, in points, with its interval.
    pub loss: f64,
    pub loss_lo: f64,
    pub loss_hi: f64,
    pub played_win: f64,
    pub best_win: f64,
    /// Flagged: a mistake or a blunder (confirmed by the deeper check where one is due).
    pub mistake: bool,
    /// Worlds the analysis sampled.
    pub worlds: u32,
    /// `inaccuracy`, `mistake`, `blunder`, or empty; `unconfirmed` for a mistake or blunder the
    /// deeper check did not confirm.
    pub grade: &'static str,
    /// The deeper check's mean loss of the played move (points), where one was run.
    pub checked_loss: Option<f64>,
}

/// A decision's grade from the played move's loss (mean and the lower end of its joint
/// interval) and the mistake threshold.
pub fn grade(loss: f64, holds: f64, threshold: f64) -> &'static str {
    if holds >= BLUNDER_FACTOR * threshold && holds > 0.0 {
        "blunder"
    } else if holds >= threshold && holds > 0.0 {
        "mistake"
    } else if holds > 0.0 && loss >= threshold {
        "inaccuracy"
    } else {
        ""
    }
}

/// What to review and how.
#[derive(Clone, Debug)]
pub struct ReviewSettings {
    /// The analysis of each decision.
    pub analysis: Settings,
    /// Only this seat's decisions (all seats when `None`).
    pub seat: Option<Seat>,
    /// The loss that must hold (the lower end of its interval, in points) for a mistake; a
    /// blunder holds `BLUNDER_FACTOR` times as much.
    pub threshold: f64,
    /// Worlds of the deeper check of a search bot's mistake or blunder; 0 for none.
    pub check_worlds: u32,
    /// The review's seed: each decision's analysis is seeded from it, its game, round and
    /// decision number, so a review is the same at any thread count.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

/// The default mistake threshold, in points: the loss that must hold at the stated confidence.
pub const DEFAULT_THRESHOLD: f64 = 1.0;

/// A blunder holds this many times the mistake threshold.
pub(crate) const BLUNDER_FACTOR: f64 = 4.0;

/// The default worlds of the deeper check.
pub(crate) const DEFAULT_CHECK_WORLDS: u32 = 32;

/// The bots whose mistakes the deeper check must confirm: searches that play better than the
/// analysis's rollout model.
pub(crate) const CHECKED_BOTS: [&str; 2] = ["expert", "montecarlo"];

/// The protocol's name of a kind of decision.
pub(crate) fn kind_name(k: Option<Kind>) -> &'static str {
    match k {
        Some(Kind::Cover) => "cover",
        Some(Kind::FollowUp) => "follow_up",
        Some(Kind::Build) => "build",
        Some(Kind::Swan) => "swan",
        _ => "normal",
    }
}

/// The analysis seed of one decision.
pub(crate) fn decision_seed(seed: u64, d: &Decision) -> u64 {
    mix(mix(mix(seed, d.game.unwrap_or(0)), u64::from(d.round)), u64::from(d.decision))
}

/// Analyses one decision; the played move is played in every world, so its loss is measured
/// on all of them.
pub(crate) fn analyze_decision(d: &Decision, settings: &Settings, seed: u64) -> Analysis {
    let view = d.state.view(d.seat).expect("a decision is in a round");
    let settings = Settings { keep: Some(d.played), ..settings.clone() };
    analyze(&view, d.state.legal(), &settings, decision_seed(seed, d))
}

/// Reviews one decision as [`review`] reviews each, without the deeper check (which only the
/// mistakes of a search bot get): the row of `d` analysed at `settings` (its threshold and seed;
/// its seat and thread count are not read). One decision at a time, on the calling thread: what
/// the browser page's review runs, where there are no threads.
pub fn review_decision(d: &Decision, settings: &ReviewSettings) -> ReviewRow {
    let a = analyze_decision(d, &settings.analysis, settings.seed);
    row(d, &a, settings.threshold)
}

/// Reviews `games`: each decision of the chosen seats, in log order.
///
/// # Errors
/// A log that does not replay.
pub fn review(games: &[&LoggedGame], settings: &ReviewSettings) -> Result<Vec<ReviewRow>, InvalidInput> {
    let mut decisions = Vec::new();
    for g in games {
        g.replay(|d| {
            if settings.seat.is_none_or(|s| s == d.seat) {
                decisions.push(d);
            }
            true
        })?;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads.max(1))
        .build()
        .map_err(|e| InvalidInput(format!("cannot start {} threads: {e}", settings.threads)))?;
    // Per game, each seat's bot as built here (None: not a built-in, e.g. a person or an external
    // program) and whether its mistakes need the deeper check.
    let seats: Vec<Vec<(Option<Bot>, bool)>> = games
        .iter()
        .map(|g| {
            g.bots
                .iter()
                .map(|b| {
                    let checked = b.parse::<StrategySpec>().is_ok_and(|s| CHECKED_BOTS.contains(&s.name.as_str()));
                    (Bot::parse(b).ok(), checked)
                })
                .collect()
        })
        .collect();
    let rows = pool.install(|| {
        decisions
            .par_iter()
            .map(|d| {
                let a = analyze_decision(d, &settings.analysis, settings.seed);
                let mut r = row(d, &a, settings.threshold);
                let seats = &seats[games.iter().position(|g| g.game == d.game).unwrap_or(0)];
                if matches!(r.grade, "mistake" | "blunder")
                    && settings.check_worlds > 0
                    && seats.get(d.seat.index()).is_some_and(|s| s.1)
                {
                    let (loss, held) = deeper_check(d, &a, seats, settings);
                    r.checked_loss = Some(round4(loss));
                    if !held || loss < settings.threshold.max(f64::MIN_POSITIVE) {
                        r.grade = "unconfirmed";
                        r.mistake = false;
                    }
                }
                r
            })
            .collect()
    });
    Ok(rows)
}

/// The deeper check: the played and the best move in `check_worlds` fresh worlds, every seat
/// played by its own bot from the log (the rollout model where a seat's bot is not built in).
/// Returns the played move's mean loss against the best, and whether the check is sure of a loss
/// at the analysis's confidence (the played move behind, its loss's interval above 0).
fn deeper_check(d: &Decision, a: &Analysis, seats: &[(Option<Bot>, bool)], settings: &ReviewSettings) -> (f64, bool) {
    let model = &settings.analysis.rollout;
    let best = a.best().index;
    let check = Settings {
        seats: Some(seats.iter().map(|(b, _)| b.as_ref().unwrap_or(model).clone()).collect()),
        only: Some(vec![best, d.played]),
        keep: Some(d.played),
        min_worlds: settings.check_worlds,
        max_worlds: settings.check_worlds,
        time_cap: None,
        ..settings.analysis.clone()
    };
    let view = d.state.view(d.seat).expect("a decision is in a round");
    let c = analyze(&view, d.state.legal(), &check, mix(decision_seed(settings.seed, d), CHECK_STREAM));
    let (p, b) = (c.of(d.played).expect("played"), c.of(best).expect("best"));
    // With two moves the played move's loss is measured against the best one when that leads;
    // when the played move leads, its loss is 0 and nothing is sure.
    (b.points.mean - p.points.mean, p.loss.lo > 0.0)
}

/// The stream of the deeper check's seed, apart from the analysis's.
const CHECK_STREAM: u64 = 0xC4EC;

/// The review row of decision `d` analysed as `a`.
pub(crate) fn row(d: &Decision, a: &Analysis, threshold: f64) -> ReviewRow {
    let best = a.best();
    let played = a.of(d.played).expect("the played move is legal");
    let view = d.state.view(d.seat).expect("a decision is in a round");
    ReviewRow {
        game: d.game,
        round: d.round,
        decision: d.decision,
        seat: d.seat.index(),
        line: d.line,
        kind: kind_name(view.decision()),
        moves: a.moves.len(),
        played: played.mv.to_string(),
        best: best.mv.to_string(),
        played_points: round4(played.points.mean),
        best_points: round4(best.points.mean),
        loss: round4(played.loss.mean),
        loss_lo: round4(played.loss.lo),
        loss_hi: round4(played.loss.hi),
        played_win: round4(played.win.mean),
        best_win: round4(best.win.mean),
        mistake: matches!(grade(played.loss.mean, played.loss.lo, threshold), "mistake" | "blunder"),
        worlds: a.worlds,
        grade: grade(played.loss.mean, played.loss.lo, threshold),
        checked_loss: None,
    }
}

fn round4(x: f64) -> f64 {
    let r = (x * 1e4).round() / 1e4;
    if r == 0.0 { 0.0 } else { r }
}

/// One line of the review's summary: a seat of a game.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SummaryRow {
    pub game: Option<u64>,
    pub seat: usize,
    /// The seat's bot, as the log names it.
    pub bot: String,
    pub decisions: usize,
    pub inaccuracies: usize,
    /// Mistakes flagged (confirmed where the deeper check is due).
    pub mistakes: usize,
    pub blunders: usize,
    /// Mistakes and blunders the deeper check did not confirm.
    pub unconfirmed: usize,
    /// Mean loss per decision, in points.
    pub mean_loss: f64,
    /// Summed loss, in points.
    pub total_loss: f64,
}

/// The summary of `rows`, per game and seat, in that order.
pub(crate) fn summary(games: &[&LoggedGame], rows: &[ReviewRow]) -> Vec<SummaryRow> {
    let mut out: Vec<SummaryRow> = Vec::new();
    for g in games {
        for (s, bot) in g.bots.iter().enumerate() {
            let mine: Vec<&ReviewRow> = rows.iter().filter(|r| r.game == g.game && r.seat == s).collect();
            if mine.is_empty() {
                continue;
            }
            let total: f64 = mine.iter().map(|r| r.loss).sum();
            out.push(SummaryRow {
                game: g.game,
                seat: s,
                bot: bot.clone(),
                decisions: mine.len(),
                inaccuracies: mine.iter().filter(|r| r.grade == "inaccuracy").count(),
                mistakes: mine.iter().filter(|r| r.grade == "mistake").count(),
                blunders: mine.iter().filter(|r| r.grade == "blunder").count(),
                unconfirmed: mine.iter().filter(|r| r.grade == "unconfirmed").count(),
                mean_loss: round4(total / mine.len() as f64),
                total_loss: round4(total),
            });
        }
    }
    out
}
