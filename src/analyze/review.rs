//! Game review: every decision of a logged game analysed, the played move's loss against the
//! best, and the mistakes (docs/analyze.md).

use super::replay::{Decision, LoggedGame};
use super::{Analysis, Settings, analyze};
use crate::error::InvalidInput;
use crate::rng::mix;
use crate::round::{Decision as Kind, Seat};
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
    /// The loss is at least the threshold and its interval excludes zero.
    pub mistake: bool,
    /// Worlds the analysis sampled.
    pub worlds: u32,
}

/// What to review and how.
#[derive(Clone, Debug)]
pub struct ReviewSettings {
    /// The analysis of each decision.
    pub analysis: Settings,
    /// Only this seat's decisions (all seats when `None`).
    pub seat: Option<Seat>,
    /// A loss (in points) from which a decision is a mistake.
    pub threshold: f64,
    /// The review's seed: each decision's analysis is seeded from it, its game, round and
    /// decision number, so a review is the same at any thread count.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
}

/// The default mistake threshold, in points.
pub const DEFAULT_THRESHOLD: f64 = 3.0;

/// The protocol's name of a kind of decision.
pub fn kind_name(k: Option<Kind>) -> &'static str {
    match k {
        Some(Kind::Cover) => "cover",
        Some(Kind::FollowUp) => "follow_up",
        Some(Kind::Build) => "build",
        Some(Kind::Swan) => "swan",
        _ => "normal",
    }
}

/// The analysis seed of one decision.
pub fn decision_seed(seed: u64, d: &Decision) -> u64 {
    mix(mix(mix(seed, d.game.unwrap_or(0)), u64::from(d.round)), u64::from(d.decision))
}

/// Analyses one decision; the played move is played in every world, so its loss is measured
/// on all of them.
pub fn analyze_decision(d: &Decision, settings: &Settings, seed: u64) -> Analysis {
    let view = d.state.view(d.seat).expect("a decision is in a round");
    let settings = Settings { keep: Some(d.played), ..settings.clone() };
    analyze(&view, d.state.legal(), &settings, decision_seed(seed, d))
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
    let rows = pool.install(|| {
        decisions
            .par_iter()
            .map(|d| {
                let a = analyze_decision(d, &settings.analysis, settings.seed);
                row(d, &a, settings.threshold)
            })
            .collect()
    });
    Ok(rows)
}

/// The review row of decision `d` analysed as `a`.
pub fn row(d: &Decision, a: &Analysis, threshold: f64) -> ReviewRow {
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
        mistake: played.loss.mean >= threshold && played.loss.lo > 0.0,
        worlds: a.worlds,
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
    pub mistakes: usize,
    /// Mean loss per decision, in points.
    pub mean_loss: f64,
    /// Summed loss, in points.
    pub total_loss: f64,
}

/// The summary of `rows`, per game and seat, in that order.
pub fn summary(games: &[&LoggedGame], rows: &[ReviewRow]) -> Vec<SummaryRow> {
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
                mistakes: mine.iter().filter(|r| r.mistake).count(),
                mean_loss: round4(total / mine.len() as f64),
                total_loss: round4(total),
            });
        }
    }
    out
}
