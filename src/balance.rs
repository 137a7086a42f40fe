//! Hand-size balancing: sweep every (player count, hand size) cell of a set, measure what makes a
//! deal fair and playable, and recommend a hand size per player count.
//!
//! Each cell is a tournament ([`crate::tournament::Tournament`]) of the given bots with the hand
//! size overridden: duplicate deals in every seat rotation, statistics over deals with 95%
//! intervals, byte-identical at any thread count. The cell's seed is `mix(seed, players * 256 +
//! hand)`, so adding cells never changes the others.
//!
//! **Turn-order advantage** is measured per round, where it arises: position `K` is the `K`-th
//! seat to act in a round (1 = the round's first player), and its advantage is its round win rate
//! minus `1/N`. (Over a whole match the first player rotates, which hides most of the effect.) It
//! is summed up as the root mean square of the advantages with the sampling noise removed
//! ([`turn_order_advantage`]); the raw spread (best minus worst position) is reported too, but it
//! grows with noise, so no objective uses it.
//!
//! **Objectives** choose one hand size per player count. A hand size is *playable* when at most
//! 5% of its rounds end blocked and at most 25% empty the boneyard.
//! - `fair` (default): among playable hand sizes, the smallest turn-order advantage; sizes within
//!   half a percentage point of the smallest count as equal, and the largest of them is chosen
//!   (longer rounds, as the published tables prefer). If none is playable: the fewest blocked
//!   rounds.
//! - `playable`: the largest playable hand size (if none: the fewest blocked rounds).
//! - `least_blocked`: the fewest blocked rounds (ties: the larger hand).
//! - `least_advantage`: the smallest turn-order advantage, playable or not (same tolerance).
//!
//! Point estimates decide; the CSV gives the intervals to judge how clear a choice is.

use crate::rules::{PRESETS, Rules};
use crate::stats::Estimate;
use crate::tournament::{Tally, WIN_UNIT};

/// Largest blocked-round share the `fair` objective accepts.
pub const FAIR_MAX_BLOCKED: f64 = 0.05;
/// Largest dry-boneyard share the `fair` objective accepts.
pub const FAIR_MAX_DRY: f64 = 0.25;

/// How a hand size is chosen for a player count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Playable, then the smallest turn-order advantage.
    Fair,
    /// The largest playable hand.
    Playable,
    /// The fewest blocked rounds.
    LeastBlocked,
    /// The smallest turn-order advantage.
    LeastAdvantage,
}

/// Turn-order advantages closer than this to the smallest count as equal.
pub const ADVANTAGE_TOLERANCE: f64 = 0.005;

impl Objective {
    /// Every objective with its name.
    pub const ALL: [(&'static str, Objective); 4] = [
        ("fair", Objective::Fair),
        ("playable", Objective::Playable),
        ("least_blocked", Objective::LeastBlocked),
        ("least_advantage", Objective::LeastAdvantage),
    ];

    /// Parses a name.
    ///
    /// # Errors
    /// A message naming the valid objectives.
    pub fn parse(s: &str) -> Result<Objective, String> {
        Objective::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|&(_, o)| o)
            .ok_or_else(|| format!("unknown objective '{s}' (valid: {})", Objective::ALL.map(|(n, _)| n).join(", ")))
    }

    /// The name.
    pub fn name(self) -> &'static str {
        Objective::ALL.iter().find(|(_, o)| *o == self).map(|(n, _)| *n).expect("listed")
    }

    /// The objective in plain words (for the README and the CSV header).
    pub fn describe(self) -> String {
        let playable = format!(
            "at most {:.0}% of rounds blocked and at most {:.0}% emptying the boneyard",
            FAIR_MAX_BLOCKED * 100.0,
            FAIR_MAX_DRY * 100.0
        );
        match self {
            Objective::Fair => format!(
                "among hand sizes with {playable}, the smallest turn-order advantage (RMS over seats in turn order of round win rate minus 1/N, noise removed), taking the largest hand within {:.1} percentage points of it; if none qualifies, the fewest blocked rounds",
                ADVANTAGE_TOLERANCE * 100.0
            ),
            Objective::Playable => {
                format!("the largest hand size with {playable}; if none qualifies, the fewest blocked rounds")
            }
            Objective::LeastBlocked => "the fewest blocked rounds (ties: the larger hand)".to_string(),
            Objective::LeastAdvantage => format!(
                "the smallest turn-order advantage, taking the largest hand within {:.1} percentage points of it",
                ADVANTAGE_TOLERANCE * 100.0
            ),
        }
    }
}

/// One measured cell: a player count and hand size, and its statistics.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Seats.
    pub players: u8,
    /// Tiles per player.
    pub hand: u8,
    /// The tournament tally.
    pub tally: Tally,
}

/// A metric of a cell, with its interval when it has one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// Point estimate.
    pub value: f64,
    /// 95% interval.
    pub interval: Option<(f64, f64)>,
}

impl From<Estimate> for Value {
    fn from(e: Estimate) -> Value {
        let interval = (e.lo.is_finite() && e.hi.is_finite()).then_some((e.lo, e.hi));
        Value { value: e.value, interval }
    }
}

/// A metric: name, axis label, whether it is a share, and how to read it from a cell.
pub struct Metric {
    /// CSV and CLI name.
    pub name: &'static str,
    /// Plot title.
    pub label: &'static str,
    /// Y-axis label.
    pub axis: &'static str,
    /// A share in [0, 1] (plotted as a percentage).
    pub share: bool,
    /// Reference line for the plot.
    pub reference: Option<f64>,
    /// Reads the value; `None` when the cell has no data for it.
    pub read: fn(&Cell) -> Option<Value>,
}

fn position_win(c: &Cell, k: usize) -> Option<Estimate> {
    c.tally.position_win(k).proportion(WIN_UNIT as f64)
}

fn shifted(e: Estimate, by: f64) -> Value {
    Value::from(Estimate { value: e.value - by, lo: e.lo - by, hi: e.hi - by })
}

/// The largest minus the smallest round win rate over positions.
pub fn advantage_spread(c: &Cell) -> Option<Value> {
    let n = c.players as usize;
    let wins: Option<Vec<f64>> = (0..n).map(|k| position_win(c, k).map(|e| e.value)).collect();
    let wins = wins?;
    let max = wins.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = wins.iter().copied().fold(f64::INFINITY, f64::min);
    Some(Value { value: max - min, interval: None })
}

/// Turn-order advantage as one number: the root mean square over positions of (round win rate
/// minus `1/N`), with each position's sampling variance subtracted from its square first, so that
/// noise alone does not look like an advantage (0 when none is detectable).
pub fn turn_order_advantage(c: &Cell) -> Option<Value> {
    let n = c.players as usize;
    let mut sum = 0.0;
    for k in 0..n {
        let cl = c.tally.position_win(k);
        let p = cl.proportion(WIN_UNIT as f64)?.value;
        let var = cl.mean_variance(WIN_UNIT as f64)?;
        let d = p - 1.0 / n as f64;
        sum += d * d - var;
    }
    Some(Value { value: (sum / n as f64).max(0.0).sqrt(), interval: None })
}

/// Every metric `mtrain balance` measures, in CSV order (the per-position advantages follow them
/// in `balance.csv`).
pub const METRICS: &[Metric] = &[
    Metric {
        name: "turn_order_advantage",
        axis: "RMS advantage",
        label: "turn-order advantage (RMS over positions, noise removed)",
        share: true,
        reference: Some(0.0),
        read: turn_order_advantage,
    },
    Metric {
        name: "advantage_spread",
        axis: "win-rate spread",
        label: "turn-order spread (best minus worst position)",
        share: true,
        reference: Some(0.0),
        read: advantage_spread,
    },
    Metric {
        name: "first_player_advantage",
        axis: "advantage",
        label: "first player's round win rate minus 1/N",
        share: true,
        reference: Some(0.0),
        read: |c| position_win(c, 0).map(|e| shifted(e, 1.0 / c.players as f64)),
    },
    Metric {
        name: "blocked_rate",
        axis: "share of rounds",
        label: "rounds nobody goes out (blocked or stuck)",
        share: true,
        reference: None,
        read: |c| c.tally.round_blocked().proportion(1.0).map(Value::from),
    },
    Metric {
        name: "dry_rate",
        axis: "share of rounds",
        label: "rounds that empty the boneyard",
        share: true,
        reference: None,
        read: |c| c.tally.round_dry().proportion(1.0).map(Value::from),
    },
    Metric {
        name: "turns",
        axis: "turns",
        label: "turns per round",
        share: false,
        reference: None,
        read: |c| c.tally.round_turns().mean(1.0).map(Value::from),
    },
    Metric {
        name: "draws",
        axis: "tiles",
        label: "tiles drawn per round",
        share: false,
        reference: None,
        read: |c| c.tally.round_draws().mean(1.0).map(Value::from),
    },
    Metric {
        name: "winner_margin",
        axis: "points",
        label: "winner's margin per match (points)",
        share: false,
        reference: None,
        read: |c| c.tally.game_margin().mean(1.0).map(Value::from),
    },
    Metric {
        name: "score_spread",
        axis: "points",
        label: "score spread per match (highest minus lowest)",
        share: false,
        reference: None,
        read: |c| c.tally.game_spread().mean(1.0).map(Value::from),
    },
    Metric {
        name: "no_start_rate",
        axis: "share of players",
        label: "players unable to start their train on turn 1",
        share: true,
        reference: None,
        read: |c| c.tally.round_no_start().proportion(1.0).map(Value::from),
    },
];

/// Looks up metrics by comma-separated names.
///
/// # Errors
/// A message naming the unknown metric and the valid ones.
pub fn parse_metrics(s: &str) -> Result<Vec<&'static Metric>, String> {
    s.split(',')
        .map(|name| {
            let name = name.trim();
            METRICS.iter().find(|m| m.name == name).ok_or_else(|| {
                format!(
                    "unknown metric '{name}' (valid: {})",
                    METRICS.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
                )
            })
        })
        .collect()
}

fn metric(name: &str) -> &'static Metric {
    METRICS.iter().find(|m| m.name == name).expect("a listed metric")
}

/// Whether a cell meets the playable conditions: at most [`FAIR_MAX_BLOCKED`] of its rounds end
/// with nobody out and at most [`FAIR_MAX_DRY`] empty the boneyard.
pub fn is_playable(c: &Cell) -> bool {
    let read = |m: &str| (metric(m).read)(c).map_or(f64::INFINITY, |v| v.value);
    read("blocked_rate") <= FAIR_MAX_BLOCKED && read("dry_rate") <= FAIR_MAX_DRY
}

/// The hand size `objective` picks among `cells` (all of one player count, in hand order).
pub fn recommend(cells: &[&Cell], objective: Objective) -> Option<u8> {
    let read = |c: &Cell, m: &str| (metric(m).read)(c).map(|v| v.value);
    let adv = |c: &Cell| read(c, "turn_order_advantage").unwrap_or(f64::INFINITY);
    let blocked = |c: &Cell| read(c, "blocked_rate").unwrap_or(f64::INFINITY);
    let playable: Vec<&Cell> = cells.iter().copied().filter(|c| is_playable(c)).collect();
    // The fewest blocked rounds; ties go to the larger hand.
    let least_blocked = || cells.iter().rev().min_by(|a, b| blocked(a).total_cmp(&blocked(b))).map(|c| c.hand);
    // The largest hand whose advantage is within the tolerance of the smallest.
    let least_adv = |group: &[&Cell]| {
        let best = group.iter().map(|c| adv(c)).fold(f64::INFINITY, f64::min);
        group.iter().rev().find(|c| adv(c) <= best + ADVANTAGE_TOLERANCE).map(|c| c.hand)
    };
    match objective {
        Objective::Fair => least_adv(&playable).or_else(least_blocked),
        Objective::Playable => playable.last().map(|c| c.hand).or_else(least_blocked),
        Objective::LeastBlocked => least_blocked(),
        Objective::LeastAdvantage => least_adv(cells),
    }
}

/// `balance.csv`: a row per cell and metric, then a row per cell and position
/// (`positionK_advantage`).
pub fn balance_csv(cells: &[Cell]) -> String {
    let mut s = String::from("players,hand,metric,value,lo,hi\n");
    let f = |v: f64| if v.is_finite() { format!("{v:.6}") } else { String::new() };
    let mut row = |c: &Cell, name: &str, v: Option<Value>| {
        let (value, lo, hi) = match v {
            Some(Value { value, interval: Some((lo, hi)) }) => (f(value), f(lo), f(hi)),
            Some(Value { value, interval: None }) => (f(value), String::new(), String::new()),
            None => (String::new(), String::new(), String::new()),
        };
        s.push_str(&format!("{},{},{name},{value},{lo},{hi}\n", c.players, c.hand));
    };
    for c in cells {
        for m in METRICS {
            row(c, m.name, (m.read)(c));
        }
        for k in 0..c.players as usize {
            let v = position_win(c, k).map(|e| shifted(e, 1.0 / c.players as f64));
            row(c, &format!("position{}_advantage", k + 1), v);
        }
    }
    s
}

/// The published hand size of every preset for `set` and `players` (`None`: not in its table).
pub fn published(set: u8, players: u8) -> Vec<(&'static str, Option<u8>)> {
    PRESETS.iter().map(|p| (p.name, Rules::preset(p.name).ok().and_then(|r| r.deal_table.hand(set, players)))).collect()
}

/// `recommendation.csv`: per player count, the recommended hand with the figures that decided it,
/// and each preset's published hand size beside it.
pub fn recommendation_csv(set: u8, cells: &[Cell], objective: Objective) -> String {
    // The header comes first (no comment line), so that every CSV reader loads it as is; the
    // objective is a column, and manifest.json says it in words.
    let mut s = String::from(
        "objective,players,recommended_hand,playable,playable_hands,turn_order_advantage,first_player_advantage,blocked_rate,dry_rate",
    );
    for p in PRESETS {
        s.push_str(&format!(",{}", p.name));
    }
    s.push('\n');
    let f = |v: Option<Value>| v.map_or(String::new(), |v| format!("{:.6}", v.value));
    for (players, rec) in recommendations(cells, objective) {
        let cell = rec.and_then(|h| cells.iter().find(|c| c.players == players && c.hand == h));
        let get = |m: &str| cell.and_then(|c| (metric(m).read)(c));
        let group: Vec<&Cell> = cells.iter().filter(|c| c.players == players).collect();
        let ok: Vec<u8> = group.iter().filter(|c| is_playable(c)).map(|c| c.hand).collect();
        s.push_str(&format!(
            "{},{players},{},{},{},{},{},{},{}",
            objective.name(),
            rec.map_or(String::new(), |h| h.to_string()),
            cell.is_some_and(is_playable),
            ok.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
            f(get("turn_order_advantage")),
            f(get("first_player_advantage")),
            f(get("blocked_rate")),
            f(get("dry_rate"))
        ));
        for (_, h) in published(set, players) {
            s.push_str(&format!(",{}", h.map_or(String::new(), |h| h.to_string())));
        }
        s.push('\n');
    }
    s
}

/// The recommended hand per player count, in player order.
pub fn recommendations(cells: &[Cell], objective: Objective) -> Vec<(u8, Option<u8>)> {
    let mut counts: Vec<u8> = cells.iter().map(|c| c.players).collect();
    counts.dedup();
    counts
        .into_iter()
        .map(|p| {
            let group: Vec<&Cell> = cells.iter().filter(|c| c.players == p).collect();
            (p, recommend(&group, objective))
        })
        .collect()
}

/// The plot of one metric: a line per player count against the hand size.
///
/// # Errors
/// A message if the metric has no data in any cell.
pub fn plot(cells: &[Cell], m: &Metric, set: u8, preset: &str, bots: &str) -> Result<String, String> {
    use crate::report::plot::{Chart, Series, line_chart_svg};
    let mut counts: Vec<u8> = cells.iter().map(|c| c.players).collect();
    counts.dedup();
    let series: Vec<Series> = counts
        .iter()
        .map(|&p| Series {
            label: format!("{p} players"),
            points: cells
                .iter()
                .filter(|c| c.players == p)
                .filter_map(|c| (m.read)(c).map(|v| (c.hand as f64, v.value, v.interval)))
                .collect(),
        })
        .filter(|s| !s.points.is_empty())
        .collect();
    let title = format!("{} (double-{set}, {preset}, {bots})", m.label);
    let y_label = m.axis;
    let chart = Chart {
        title: &title,
        x_label: "tiles dealt per player",
        y_label,
        percent: m.share,
        reference: m.reference,
        series: &series,
    };
    line_chart_svg(&chart, (960, 600))
}
