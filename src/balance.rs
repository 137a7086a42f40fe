//! Hand-size balancing: sweep every (player count, hand size) cell of a set, measure what a
//! designer cares about, with intervals, and recommend a hand size per player count.
//!
//! Each cell is a tournament ([`crate::tournament::Tournament`]) of a stated field of bots with
//! the hand size overridden: duplicate deals in every seat rotation and seating order,
//! statistics over deals with 95% intervals, byte-identical at any thread count. The cell's seed
//! is `mix(seed, players * 256 + hand)`, so adding cells never changes the others.
//!
//! **What is measured**, per cell (docs/csv.md has every column):
//! - *the criteria*: rounds nobody finishes (`blocked_rate`); the first player's edge, per match
//!   by default (`match_first_player_advantage`: the match win rate of the seat that leads round
//!   1 minus `1/N`; the lead rotates, so most of a round's edge cancels) or per round
//!   (`first_player_advantage`: the round win rate of each round's first player minus `1/N`);
//!   *skill expression* (`skill`): the head-to-head score of the field's first bot against its
//!   last (list the strongest first and a beginner last; the default field is `weighted`, the
//!   strongest bot cheap enough for a sweep, `planner` and `greedy`): 0.5 means the hand size
//!   leaves no room for the better player; and *luck* (`skill_ceiling`): the field's second
//!   bot's score against its last (a careful player against a beginner; the first's, in a field
//!   of two), which near 1 means the weaker player no longer has a chance;
//! - round length (`turns`, and its spread `turns_sd`), decisiveness (`winner_margin`,
//!   `lead_changes`), draws;
//! - descriptive figures that are no defect in themselves: `dry_rate` (rounds that empty the
//!   boneyard: players then mark and pass), the RMS turn-order advantage, `no_start_rate`.
//!
//! **Deciding with intervals and a margin.** Each criterion has a limit ([`Limits`], the user's
//! to set) and an indifference margin. A figure is *beyond* its limit (a defect) when its 95%
//! interval lies wholly past the limit and the margin, *within* when it lies wholly on the good
//! side of the limit, and *on the limit* (no defect, and reported as such) when it reaches past
//! the limit but not past the margin (`Verdict::of`). Only the margin's far edge decides a
//! defect, so an interval that contains it is *undecided*, and a sweep plays the cell further
//! (sequential sampling, up to a cap): a cell near the edge gets the games it needs instead of
//! being decided by the noise of a fixed sample; at the cap it is no defect, and marked.
//!
//! An objective never compares point estimates alone: "the best" is a set, every hand size whose
//! figure is not distinguishable from the best one at 95% (the difference of two independent
//! cells within 1.96 standard errors). The pick within a set follows a stated rule: the published
//! hand or the nearest candidate, or the largest hand.

mod sweep;

pub(crate) use sweep::{AUTO_MAX_HAND, AUTO_MIN_HAND, all_planned_played, games_played};
pub use sweep::{Sweep, SweepConfig, SweepError, SweepSpec, complete};

use crate::rules::{PRESETS, Rules};
use crate::stats::{Estimate, Z95};
use crate::tournament::{Tally, WIN_UNIT};

/// The default blocked-round limit: 5% of rounds. A blocked round (nobody can go out) is a
/// normal, scored ending under every source's rules; counting more than one round in twenty
/// as a defect is this project's convention for an ending players find unsatisfying, not a
/// finding.
pub(crate) const MAX_BLOCKED: f64 = 0.05;
/// The default first-player limit: 3 percentage points over the fair share `1/N`, at any table
/// size. Three points is about one extra win in 33 matches (or rounds): the smallest edge a
/// regular group would notice over an evening's play.
pub(crate) const MAX_FIRST_EDGE: f64 = 0.03;

/// The default skill floor: the field's first bot finishing ahead of its last in fewer than 55%
/// of comparisons, a 5-point edge that a player would take many matches to feel, means the hand
/// size leaves little room for the better player.
pub(crate) const MIN_SKILL: f64 = 0.55;

/// The default skill ceiling: the field's last bot (a beginner) finishing ahead of its second (a
/// careful player) in fewer than one comparison in twenty means luck no longer gives the weaker
/// player a chance: a game with no luck left is a defect too. The ceiling is judged on the
/// second bot, not the strongest: over a 13-round match the strongest bot beats a beginner
/// almost always at most tables (tuned `weighted` against `greedy`: 0.97 at 4 players and 15
/// tiles), which says more about the bot than about the hand size.
pub(crate) const MAX_SKILL: f64 = 0.95;

/// The default indifference margin: 1 percentage point on every criterion. A figure whose 95%
/// interval lies within one point of its limit is "on the limit": no defect, and reported as
/// such, rather than decided by the noise of the sample.
pub(crate) const MARGIN: f64 = 0.01;

/// Which first player the first-player criterion judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[doc(hidden)] // the sweep's parts, for the integration tests
pub enum FirstPlayer {
    /// The seat that leads round 1, over a whole match (the lead rotates, so most of a round's
    /// edge cancels): how the game is played, and the default.
    Match,
    /// The first player of each round, per round: for single rounds.
    Round,
}

impl FirstPlayer {
    /// Parses `match` or `round`.
    ///
    /// # Errors
    /// A message naming the valid values.
    pub fn parse(s: &str) -> Result<FirstPlayer, crate::error::InvalidInput> {
        match s.trim() {
            "match" => Ok(FirstPlayer::Match),
            "round" => Ok(FirstPlayer::Round),
            other => Err(format!("unknown first-player criterion '{other}' (valid: match, round)").into()),
        }
    }

    /// `match` or `round`.
    pub fn name(self) -> &'static str {
        match self {
            FirstPlayer::Match => "match",
            FirstPlayer::Round => "round",
        }
    }

    /// The metric the criterion reads.
    pub fn metric(self) -> &'static str {
        match self {
            FirstPlayer::Match => "match_first_player_advantage",
            FirstPlayer::Round => "first_player_advantage",
        }
    }
}

/// The limits a hand size is judged against, each a share, and the indifference margin.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Blocked rounds: a defect above this share.
    pub max_blocked: f64,
    /// The first player's edge over `1/N`: a defect above this.
    pub max_first_edge: f64,
    /// Skill (the first bot's head-to-head score against the last): a defect below this.
    pub min_skill: f64,
    /// Luck (the second bot's head-to-head score against the last; the first's in a field of
    /// two): a defect above this (luck no longer matters).
    pub max_skill: f64,
    /// Per match or per round.
    pub first_player: FirstPlayer,
    /// A figure whose interval lies within this of its limit is on the limit.
    pub margin: f64,
}

/// The default population: the strongest bot cheap enough for a sweep (`weighted`, with its
/// tuned weights: it beats every bot but `expert` and costs what `planner` does), a
/// careful player (`planner`) and a beginner (`greedy`). Skill is `weighted` against `greedy`
/// (can the best player show it?), luck `planner` against `greedy` (does an ordinary gap between
/// two players still leave the weaker one a chance?).
#[doc(hidden)] // the sweep's parts, for the integration tests
pub const DEFAULT_POPULATION: &str = "weighted,planner,greedy";

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_blocked: MAX_BLOCKED,
            max_first_edge: MAX_FIRST_EDGE,
            min_skill: MIN_SKILL,
            max_skill: MAX_SKILL,
            first_player: FirstPlayer::Match,
            margin: MARGIN,
        }
    }
}

/// How a figure stands against its limit. A defect needs the figure shown beyond the limit by
/// more than the margin: the margin is a zone of indifference, and only its far edge decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Its 95% interval lies wholly on the good side of the limit.
    Within,
    /// Its interval reaches past the limit, but not past the margin: no defect, and said so.
    OnLimit,
    /// Its interval lies wholly beyond the limit and the margin: a defect.
    Beyond,
    /// Its interval contains the margin's far edge: more games would decide it (a sweep samples
    /// on until its cap; at the cap it is no defect).
    Undecided,
    /// No figure (e.g. skill with one bot in the field).
    Unknown,
}

impl Verdict {
    /// The word CSVs and the console use.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Within => "within",
            Verdict::OnLimit => "on_limit",
            Verdict::Beyond => "beyond",
            Verdict::Undecided => "undecided",
            Verdict::Unknown => "unknown",
        }
    }

    /// The verdict of `v` against `limit`, where `above` says that a figure above the limit is
    /// beyond it (else below), with indifference `margin`: beyond when the whole interval lies
    /// past `limit + margin` (or below `limit - margin`), within when it lies wholly on the good
    /// side of the limit, on the limit when it reaches past the limit but not past the margin,
    /// undecided when it contains the margin's edge.
    pub fn of(v: Option<Value>, limit: f64, above: bool, margin: f64) -> Verdict {
        let Some(Value { interval: Some((lo, hi)), .. }) = v else { return Verdict::Unknown };
        // How far past the limit, in the bad direction, the interval's near and far ends lie.
        let (near, far) = if above { (lo - limit, hi - limit) } else { (limit - hi, limit - lo) };
        if near > margin {
            Verdict::Beyond
        } else if far < 0.0 {
            Verdict::Within
        } else if far < margin {
            Verdict::OnLimit
        } else {
            Verdict::Undecided
        }
    }
}

/// The criteria, in order: blocked rounds, the first player, the skill floor, the skill ceiling.
pub(crate) const CRITERIA: [&str; 4] = ["blocked", "first_player", "skill", "skill_ceiling"];

/// How a hand size is chosen for a player count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// No defect shown; of those, the preset's published hand or the nearest to it.
    Balanced,
    /// The largest hand with no defect shown.
    NoDefect,
    /// Skill not distinguishable from the best, then the largest hand (defects ignored).
    MostSkill,
    /// The first player's per-round edge not distinguishable from the smallest.
    LeastAdvantage,
    /// Blocked rounds not distinguishable from the fewest.
    LeastBlocked,
}

impl Objective {
    /// Every objective with its name.
    pub(crate) const ALL: [(&'static str, Objective); 5] = [
        ("balanced", Objective::Balanced),
        ("no_defect", Objective::NoDefect),
        ("most_skill", Objective::MostSkill),
        ("least_advantage", Objective::LeastAdvantage),
        ("least_blocked", Objective::LeastBlocked),
    ];

    /// Parses a name.
    ///
    /// # Errors
    /// A message naming the valid objectives.
    pub fn parse(s: &str) -> Result<Objective, crate::error::InvalidInput> {
        Ok(Objective::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|&(_, o)| o)
            .ok_or_else(|| format!("unknown objective '{s}' (valid: {})", Objective::ALL.map(|(n, _)| n).join(", ")))?)
    }

    /// The name.
    pub fn name(self) -> &'static str {
        Objective::ALL.iter().find(|(_, o)| *o == self).map(|(n, _)| *n).expect("listed")
    }

    /// The objective in plain words (console, manifest, docs), with the limits it uses.
    pub fn describe(self, l: &Limits) -> String {
        let first = match l.first_player {
            FirstPlayer::Match => "the seat that leads round 1 winning the match",
            FirstPlayer::Round => "the first player of a round winning it",
        };
        let defect = format!(
            "a defect is shown when its 95% interval lies wholly beyond the limit by more than a margin of {:.1} points (past the limit but within the margin it is on the limit, no defect): more than {:.1}% of rounds blocked (nobody goes out), {first} more than {:.1} percentage points above the fair share 1/N, skill stopping to matter (the first bot's head-to-head score against the last below {:.3}), or luck stopping to matter (the second bot's score against the last, or the first's in a field of two, above {:.3})",
            l.margin * 100.0,
            l.max_blocked * 100.0,
            l.max_first_edge * 100.0,
            l.min_skill,
            l.max_skill
        );
        let set = "not distinguishable from the best at 95%";
        match self {
            Objective::Balanced => format!(
                "the hand sizes with no defect shown are the candidates; the pick is the preset's published hand when it is one of them, else the candidate nearest to it (ties: the larger), or the middle candidate where the preset publishes none; {defect}; if every size shows a defect, the candidates are those with the fewest blocked or first-player defects, and the skill floor applies only where some of them pass it (no hand size fixes a table where skill never matters)"
            ),
            Objective::NoDefect => {
                format!(
                    "the largest hand size with no defect shown; {defect}; if every size shows one, those with the fewest"
                )
            }
            Objective::MostSkill => format!("the hand sizes whose skill expression is {set}, taking the largest"),
            Objective::LeastAdvantage => {
                format!("the hand sizes whose first-player edge per round is {set} (the smallest), taking the largest")
            }
            Objective::LeastBlocked => {
                format!("the hand sizes whose blocked-round share is {set} (the smallest), taking the largest")
            }
        }
    }
}

/// One measured cell: a player count and hand size, and its statistics.
#[derive(Clone, Debug)]
#[doc(hidden)] // the sweep's parts, for the integration tests
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
#[doc(hidden)] // the sweep's parts, for the integration tests
pub struct Value {
    /// Point estimate.
    pub value: f64,
    /// 95% interval.
    pub interval: Option<(f64, f64)>,
}

impl Value {
    /// The standard error implied by the interval (its width over 2 × 1.96).
    pub fn se(&self) -> Option<f64> {
        self.interval.map(|(lo, hi)| (hi - lo) / (2.0 * Z95))
    }
}

impl From<Estimate> for Value {
    fn from(e: Estimate) -> Value {
        let interval = (e.lo.is_finite() && e.hi.is_finite()).then_some((e.lo, e.hi));
        Value { value: e.value, interval }
    }
}

/// A metric: name, axis label, whether it is a share, and how to read it from a cell.
#[derive(Debug)]
#[doc(hidden)] // the sweep's parts, for the integration tests
pub struct Metric {
    /// CSV and CLI name.
    pub name: &'static str,
    /// Plot title.
    pub label: &'static str,
    /// Y-axis label.
    pub(crate) axis: &'static str,
    /// A share in [0, 1] (plotted as a percentage).
    pub share: bool,
    /// Reference line for the plot.
    pub reference: Option<f64>,
    /// Reads the value; `None` when the cell has no data for it.
    pub read: fn(&Cell) -> Option<Value>,
}

/// The edge of the `k`-th seat of the turn order (from 0): its round win rate minus `1/N`.
pub(crate) fn position_advantage(c: &Cell, k: usize) -> Option<Value> {
    position_win(c, k).map(|e| shifted(e, 1.0 / c.players as f64))
}

fn position_win(c: &Cell, k: usize) -> Option<Estimate> {
    c.tally.position_win(k).proportion(WIN_UNIT as f64)
}

fn shifted(e: Estimate, by: f64) -> Value {
    Value::from(Estimate { value: e.value - by, lo: e.lo - by, hi: e.hi - by })
}

/// Turn-order advantage as one number: the root mean square over positions of (round win rate
/// minus `1/N`), with each position's sampling variance subtracted from its square first, so that
/// noise alone does not look like an advantage (0 when none is detectable). Descriptive.
pub(crate) fn turn_order_advantage(c: &Cell) -> Option<Value> {
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

/// The head-to-head score of the field's first bot against its last (`None` with one bot).
#[doc(hidden)] // the sweep's parts, for the integration tests
pub fn skill(c: &Cell) -> Option<Value> {
    let bots = c.tally.layout.bots;
    (bots >= 2).then(|| c.tally.pair_score(0, bots - 1).proportion(1.0).map(Value::from)).flatten()
}

/// The figure the skill ceiling judges: the head-to-head score of the field's second bot
/// against its last, or of the first against the last in a field of two (`None` with one bot).
///
/// Luck is measured by how often the weaker player still wins, which means something only where
/// the "careful" bot really is the better player at that table: where its score's 95% interval
/// does not lie above 0.5 (at 6 to 8 players `planner` loses to `greedy` at most hand sizes), a
/// low score is that bot's weakness, not luck, and the figure is `None`: not measurable there
/// (the console and reports say so).
#[doc(hidden)] // the sweep's parts, for the integration tests
pub fn skill_ceiling(c: &Cell) -> Option<Value> {
    let v = luck_pair(c)?;
    match v.interval {
        Some((lo, _)) if lo > 0.5 => Some(v),
        _ => None,
    }
}

/// The luck pair's head-to-head score, measurable or not.
fn luck_pair(c: &Cell) -> Option<Value> {
    let bots = c.tally.layout.bots;
    let second = if bots >= 3 { 1 } else { 0 };
    (bots >= 2).then(|| c.tally.pair_score(second, bots - 1).proportion(1.0).map(Value::from)).flatten()
}

/// Whether a cell has the pair the luck figure compares but that pair's better bot does not
/// beat the last at this table: the luck figure is not measurable there.
pub(crate) fn luck_not_measurable(c: &Cell) -> bool {
    c.tally.layout.bots >= 2 && skill_ceiling(c).is_none()
}

/// The round-to-round spread of round length: the root of half the mean squared difference in
/// turns between consecutive rounds of a match, with the root of its interval.
#[doc(hidden)] // the sweep's parts, for the integration tests
pub fn turns_sd(c: &Cell) -> Option<Value> {
    let e = c.tally.round_turns_diff2().mean(1.0)?;
    let root = |v: f64| v.max(0.0).sqrt();
    Some(Value::from(Estimate { value: root(e.value), lo: root(e.lo), hi: root(e.hi) }))
}

/// Every metric `mtrain balance` measures, in CSV order (the per-position advantages follow them
/// in `balance.csv`).
pub(crate) const METRICS: &[Metric] = &[
    Metric {
        name: "blocked_rate",
        axis: "share of rounds",
        label: "rounds nobody goes out (blocked or stuck)",
        share: true,
        reference: Some(MAX_BLOCKED),
        read: |c| c.tally.round_blocked().proportion(1.0).map(Value::from),
    },
    Metric {
        name: "first_player_advantage",
        axis: "advantage",
        label: "first player's round win rate minus 1/N",
        share: true,
        // The line is the limit the recommendation holds the edge to.
        reference: Some(0.0),
        read: |c| position_win(c, 0).map(|e| shifted(e, 1.0 / c.players as f64)),
    },
    Metric {
        name: "skill",
        axis: "head-to-head score",
        label: "skill expression: first bot's head-to-head score against the last",
        share: true,
        // The floor the recommendation holds skill to.
        reference: Some(0.5),
        read: skill,
    },
    Metric {
        name: "skill_ceiling",
        axis: "head-to-head score",
        label: "luck: second bot's head-to-head score against the last (where it beats the last)",
        share: true,
        reference: Some(0.5),
        read: skill_ceiling,
    },
    Metric {
        name: "match_first_player_advantage",
        axis: "advantage",
        label: "match win rate of round 1's first player minus 1/N",
        share: true,
        reference: Some(0.0),
        read: |c| c.tally.match_position_win(0).proportion(WIN_UNIT as f64).map(|e| shifted(e, 1.0 / c.players as f64)),
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
        name: "turns_sd",
        axis: "turns",
        label: "round-to-round spread of round length (turns)",
        share: false,
        reference: None,
        read: turns_sd,
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
        name: "lead_changes",
        axis: "changes",
        label: "lead changes per match",
        share: false,
        reference: None,
        read: |c| c.tally.game_lead_changes().mean(1.0).map(Value::from),
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
        name: "dry_rate",
        axis: "share of rounds",
        label: "rounds that empty the boneyard (descriptive, no defect)",
        share: true,
        reference: None,
        read: |c| c.tally.round_dry().proportion(1.0).map(Value::from),
    },
    Metric {
        name: "turn_order_advantage",
        axis: "RMS advantage",
        label: "turn-order advantage (RMS over positions, noise removed)",
        share: true,
        reference: Some(0.0),
        read: turn_order_advantage,
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
    Metric {
        name: "match_turns",
        axis: "turns",
        label: "turns per match",
        share: false,
        reference: None,
        // The rounds' turns over the games: every deal plays the same games.
        read: |c| {
            let mut turns = *c.tally.round_turns();
            turns.units = c.tally.games;
            turns.mean(1.0).map(Value::from)
        },
    },
];

/// The seconds a turn takes at a family table, for minutes (`--seconds-per-turn`): 15. A
/// four-player home match of 13 rounds is estimated at three to four hours, a dessert break
/// included, by the "Mexican Train Dominoes" rules page of spaanszt.home.xs4all.nl ("With 4
/// people who know the game ... between 3 or 4 hours"); at the 66.4 turns a round mtrain
/// measures at 4 players with 15 tiles each (wikipedia rules, the default population: 863 turns
/// a match), that is 12.5 to 16.7 seconds a turn. Quick players take less: set it.
pub const SECONDS_PER_TURN: f64 = 15.0;

/// Looks up metrics by comma-separated names.
///
/// # Errors
/// A message naming the unknown metric and the valid ones.
pub(crate) fn parse_metrics(s: &str) -> Result<Vec<&'static Metric>, crate::error::InvalidInput> {
    s.split(',')
        .map(|name| {
            let name = name.trim();
            METRICS.iter().find(|m| m.name == name).ok_or_else(|| {
                crate::error::InvalidInput(format!(
                    "unknown metric '{name}' (valid: {})",
                    METRICS.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
                ))
            })
        })
        .collect()
}

/// Reads a metric by name.
#[doc(hidden)] // the sweep's parts, for the integration tests
pub fn read(c: &Cell, name: &str) -> Option<Value> {
    (METRICS.iter().find(|m| m.name == name).expect("a listed metric").read)(c)
}

/// Every criterion's figure and verdict in a cell: `(criterion, metric, figure, limit,
/// verdict)`, in [`CRITERIA`] order.
pub(crate) fn verdicts(c: &Cell, l: &Limits) -> [(&'static str, &'static str, Option<Value>, f64, Verdict); 4] {
    let blocked = read(c, "blocked_rate");
    let first = read(c, l.first_player.metric());
    let skill = read(c, "skill");
    let luck = read(c, "skill_ceiling");
    // Not measurable yet, but a sample too small to say so could still reach past the ceiling:
    // undecided, so that sequential sampling plays on.
    let luck_verdict = match (luck, luck_pair(c)) {
        (Some(_), _) => Verdict::of(luck, l.max_skill, true, l.margin),
        (None, Some(Value { interval: Some((_, hi)), .. })) if hi - l.max_skill >= l.margin => Verdict::Undecided,
        _ => Verdict::Unknown,
    };
    [
        ("blocked", "blocked_rate", blocked, l.max_blocked, Verdict::of(blocked, l.max_blocked, true, l.margin)),
        (
            "first_player",
            l.first_player.metric(),
            first,
            l.max_first_edge,
            Verdict::of(first, l.max_first_edge, true, l.margin),
        ),
        ("skill", "skill", skill, l.min_skill, Verdict::of(skill, l.min_skill, false, l.margin)),
        ("skill_ceiling", "skill_ceiling", luck, l.max_skill, luck_verdict),
    ]
}

/// Whether more games would decide a criterion of the cell: some verdict is undecided.
#[doc(hidden)] // the sweep's parts, for the integration tests
pub fn undecided(c: &Cell, l: &Limits) -> bool {
    verdicts(c, l).iter().any(|v| v.4 == Verdict::Undecided)
}

/// The criteria of a cell with the verdict `which`.
pub(crate) fn with_verdict(c: &Cell, l: &Limits, which: Verdict) -> Vec<&'static str> {
    verdicts(c, l).iter().filter(|v| v.4 == which).map(|v| v.0).collect()
}

/// The criteria shown beyond their limit in a cell, by name (`blocked`, `first_player`,
/// `skill`, `skill_ceiling`), as `recommendation.csv` lists them.
pub(crate) fn defect_metrics(c: &Cell, l: &Limits) -> Vec<&'static str> {
    with_verdict(c, l, Verdict::Beyond)
}

/// The defects a table suffers whoever plays, by criterion: blocked rounds and the first
/// player's edge.
pub(crate) fn rule_defects(c: &Cell, l: &Limits) -> Vec<&'static str> {
    defect_metrics(c, l).into_iter().filter(|&n| !n.starts_with("skill")).collect()
}

/// Whether skill is shown below the floor or luck above the ceiling.
pub(crate) fn skill_defect(c: &Cell, l: &Limits) -> bool {
    let v = verdicts(c, l);
    v[2].4 == Verdict::Beyond || v[3].4 == Verdict::Beyond
}

/// The cells whose `metric` is not distinguishable at 95% from the best (the largest when
/// `higher`, else the smallest): the difference from the best within 1.96 standard errors of
/// the two (independent) cells. Cells without the figure are left out.
pub(crate) fn best_set<'a>(cells: &[&'a Cell], metric: &str, higher: bool) -> Vec<&'a Cell> {
    let sign = if higher { 1.0 } else { -1.0 };
    let vals: Vec<(&Cell, Value)> = cells.iter().filter_map(|c| read(c, metric).map(|v| (*c, v))).collect();
    let Some(&(_, best)) = vals.iter().max_by(|a, b| (sign * a.1.value).total_cmp(&(sign * b.1.value))) else {
        return Vec::new();
    };
    vals.iter()
        .filter(|(_, v)| {
            let gap = sign * (best.value - v.value);
            let se = (v.se().unwrap_or(0.0).powi(2) + best.se().unwrap_or(0.0).powi(2)).sqrt();
            gap <= Z95 * se
        })
        .map(|(c, _)| *c)
        .collect()
}

/// Why a hand size is the pick, in `recommendation.csv`'s `pick_reason` and the console.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    /// No ranking asked: the published hand is a candidate.
    Published,
    /// No ranking asked: the published hand is no candidate; the nearest candidate.
    NearestToPublished,
    /// No ranking asked and no published hand: the middle candidate.
    Middle,
    /// Ranked: the published hand is among the best (nothing measurably better), and stays.
    PublishedKept,
    /// Ranked: a candidate is measurably better than the published hand.
    MeasurablyBetter,
    /// Ranked, with no published hand among the candidates: the best ranked.
    BestRanked,
    /// Another objective's rule.
    Objective,
}

impl Reason {
    /// The word in `recommendation.csv`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Reason::Published => "published",
            Reason::NearestToPublished => "nearest_to_published",
            Reason::Middle => "middle_candidate",
            Reason::PublishedKept => "published_kept",
            Reason::MeasurablyBetter => "measurably_better",
            Reason::BestRanked => "best_ranked",
            Reason::Objective => "objective",
        }
    }
}

/// A recommendation for one player count.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pick {
    /// The recommended hand.
    pub hand: Option<u8>,
    /// The candidates the pick was made from.
    pub set: Vec<u8>,
    /// Whether every size shows a defect: the candidates are those with the fewest rule defects
    /// (blocked rounds, first-player edge), the skill floor applied only where some pass it.
    pub(crate) fallback: bool,
    /// Why this hand.
    pub(crate) reason: Reason,
    /// The candidates ranked (with a ranking asked): groups best first, the sizes of a group
    /// not told apart at 95%.
    pub(crate) ranking: Vec<Vec<u8>>,
}

/// How the candidates of the `balanced` objective are ranked (`--rank-by`). Without a ranking
/// (`published`, the default) the published hand is the pick whenever it is a candidate;
/// with one, the candidates are ordered by the figure, and the published hand stays the pick
/// only when no candidate is measurably better (at 95%, the two cells taken as independent).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankBy {
    /// No ranking: the published hand, else the nearest candidate.
    #[default]
    Published,
    /// Most skill expression (the first bot's head-to-head score against the last).
    Skill,
    /// Fewest blocked rounds.
    Blocked,
    /// The smallest first-player edge (in size; per match or per round as the limits judge it).
    FirstPlayer,
    /// Match length closest to this many minutes (at the sweep's seconds a turn).
    Minutes(f64),
}

impl RankBy {
    /// Parses `published`, `skill`, `blocked`, `first_player` or `minutes=M`.
    ///
    /// # Errors
    /// A message naming the valid rankings.
    pub fn parse(s: &str) -> Result<RankBy, crate::error::InvalidInput> {
        let s = s.trim();
        let bad = || {
            crate::error::InvalidInput(format!(
                "unknown ranking '{s}' (valid: published, skill, blocked, first_player, minutes=M with M minutes a match above 0)"
            ))
        };
        Ok(match s {
            "published" => RankBy::Published,
            "skill" => RankBy::Skill,
            "blocked" => RankBy::Blocked,
            "first_player" => RankBy::FirstPlayer,
            _ => match s.strip_prefix("minutes=").map(|m| m.trim().parse::<f64>()) {
                Some(Ok(m)) if m > 0.0 && m.is_finite() => RankBy::Minutes(m),
                _ => return Err(bad()),
            },
        })
    }

    /// The name, as parsed.
    pub fn name(self) -> String {
        match self {
            RankBy::Published => "published".into(),
            RankBy::Skill => "skill".into(),
            RankBy::Blocked => "blocked".into(),
            RankBy::FirstPlayer => "first_player".into(),
            RankBy::Minutes(m) => format!("minutes={m}"),
        }
    }

    /// The figure a cell is ranked by, higher better, with its standard error; `None`: no
    /// ranking, or no figure in the cell.
    fn key(self, c: &Cell, l: &Limits, seconds_per_turn: f64) -> Option<(f64, f64)> {
        let with = |v: Value, sign: f64| v.se().map(|se| (sign * v.value, se));
        match self {
            RankBy::Published => None,
            RankBy::Skill => read(c, "skill").and_then(|v| with(v, 1.0)),
            RankBy::Blocked => read(c, "blocked_rate").and_then(|v| with(v, -1.0)),
            RankBy::FirstPlayer => read(c, l.first_player.metric()).and_then(|v| v.se().map(|se| (-v.value.abs(), se))),
            RankBy::Minutes(target) => read(c, "match_turns").and_then(|v| {
                let k = seconds_per_turn / 60.0;
                v.se().map(|se| (-(k * v.value - target).abs(), k * se))
            }),
        }
    }
}

/// `cells` ranked by `by`: groups best first, each the sizes whose figure is not told apart at
/// 95% from the group's best (the difference within 1.96 standard errors of the two independent
/// cells). Cells without the figure are left out.
pub(crate) fn rank(cells: &[&Cell], by: RankBy, l: &Limits, seconds_per_turn: f64) -> Vec<Vec<u8>> {
    let mut keyed: Vec<(u8, f64, f64)> =
        cells.iter().filter_map(|c| by.key(c, l, seconds_per_turn).map(|(k, se)| (c.hand, k, se))).collect();
    keyed.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    let mut groups: Vec<Vec<u8>> = Vec::new();
    let mut head: Option<(f64, f64)> = None;
    for (hand, k, se) in keyed {
        match head {
            Some((hk, hse)) if hk - k <= Z95 * (hse * hse + se * se).sqrt() => {
                groups.last_mut().expect("a group").push(hand)
            }
            _ => {
                groups.push(vec![hand]);
                head = Some((k, se));
            }
        }
    }
    groups
}

/// The hand size `objective` picks among `cells` (all of one player count, in hand order);
/// `published` is the preset's hand for that count, if it has one; `by` ranks the candidates of
/// the `balanced` objective (minutes at `seconds_per_turn`).
pub(crate) fn recommend(
    cells: &[&Cell],
    objective: Objective,
    published: Option<u8>,
    l: &Limits,
    by: RankBy,
    seconds_per_turn: f64,
) -> Pick {
    // Rule defects first: the fewest (normally none). Then the skill floor, but only where some
    // of those sizes pass it: a player count at which skill is shown not to matter at every hand
    // size is a property of the table that no hand size fixes, so it does not move the pick.
    let fewest = cells.iter().map(|c| rule_defects(c, l).len()).min().unwrap_or(0);
    let fair: Vec<&Cell> = cells.iter().copied().filter(|c| rule_defects(c, l).len() == fewest).collect();
    let skilled: Vec<&Cell> = fair.iter().copied().filter(|c| !skill_defect(c, l)).collect();
    let fallback = fewest > 0 || skilled.is_empty();
    let sound = if skilled.is_empty() { fair } else { skilled };
    let hands = |set: &[&Cell]| set.iter().map(|c| c.hand).collect::<Vec<u8>>();
    let largest = |set: Vec<&Cell>, fallback: bool| Pick {
        hand: set.iter().map(|c| c.hand).max(),
        set: hands(&set),
        fallback,
        reason: Reason::Objective,
        ranking: Vec::new(),
    };
    match objective {
        Objective::Balanced => {
            let set = hands(&sound);
            let ranking = rank(&sound, by, l, seconds_per_turn);
            let (hand, reason) = match (ranking.first(), published) {
                (Some(best), Some(p)) if best.contains(&p) => (Some(p), Reason::PublishedKept),
                (Some(best), Some(p)) if set.contains(&p) => (best.first().copied(), Reason::MeasurablyBetter),
                (Some(best), _) => (best.first().copied(), Reason::BestRanked),
                (None, Some(p)) if set.contains(&p) => (Some(p), Reason::Published),
                // Nearest to the published hand; on a tie the larger.
                (None, Some(p)) => (
                    set.iter().copied().min_by_key(|&h| (h.abs_diff(p), std::cmp::Reverse(h))),
                    Reason::NearestToPublished,
                ),
                (None, None) => (set.get(set.len() / 2).copied(), Reason::Middle),
            };
            Pick { hand, set, fallback, reason, ranking }
        }
        Objective::NoDefect => largest(sound, fallback),
        Objective::MostSkill => {
            let set = best_set(cells, "skill", true);
            // A field of one bot has no skill figure: every size qualifies.
            largest(if set.is_empty() { cells.to_vec() } else { set }, false)
        }
        Objective::LeastAdvantage => largest(best_set(cells, l.first_player.metric(), false), false),
        Objective::LeastBlocked => largest(best_set(cells, "blocked_rate", false), false),
    }
}

/// The published hand size of every preset for `set` and `players` (`None`: not in its table).
#[doc(hidden)] // the sweep's parts, for the integration tests
pub fn published(set: u8, players: u8) -> Vec<(&'static str, Option<u8>)> {
    PRESETS.iter().map(|p| (p.name, Rules::preset(p.name).ok().and_then(|r| r.deal_table.hand(set, players)))).collect()
}

/// The figures the objectives decide on, in recommendation.csv and the console.
pub(crate) const DECIDING: [&str; 7] = [
    "blocked_rate",
    "first_player_advantage",
    "match_first_player_advantage",
    "skill",
    "skill_ceiling",
    "turns",
    "match_turns",
];

/// The recommendation per player count, in player order.
/// `base` is the preset swept (its deal table gives the published hand each pick starts from).
pub(crate) fn recommendations(
    base: &Rules,
    cells: &[Cell],
    objective: Objective,
    l: &Limits,
    by: RankBy,
    seconds_per_turn: f64,
) -> Vec<(u8, Pick)> {
    let mut counts: Vec<u8> = cells.iter().map(|c| c.players).collect();
    counts.dedup();
    counts
        .into_iter()
        .map(|p| {
            let group: Vec<&Cell> = cells.iter().filter(|c| c.players == p).collect();
            (p, recommend(&group, objective, base.deal_table.hand(base.set.get(), p), l, by, seconds_per_turn))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(lo: f64, hi: f64) -> Option<Value> {
        Some(Value { value: (lo + hi) / 2.0, interval: Some((lo, hi)) })
    }

    #[test]
    fn a_figure_is_judged_by_where_its_interval_lies_against_limit_and_margin() {
        let (limit, m) = (0.05, 0.01);
        // A ceiling (a defect above): a defect only past limit + margin.
        assert_eq!(Verdict::of(v(0.061, 0.070), limit, true, m), Verdict::Beyond);
        assert_eq!(Verdict::of(v(0.040, 0.049), limit, true, m), Verdict::Within);
        // Past the limit, not past the margin: on the limit, no defect.
        assert_eq!(Verdict::of(v(0.056, 0.0599), limit, true, m), Verdict::OnLimit);
        assert_eq!(Verdict::of(v(0.045, 0.055), limit, true, m), Verdict::OnLimit);
        // The margin's edge inside the interval: more games would decide it.
        assert_eq!(Verdict::of(v(0.057, 0.061), limit, true, m), Verdict::Undecided);
        assert_eq!(Verdict::of(v(0.03, 0.08), limit, true, m), Verdict::Undecided);
        // A floor (a defect below).
        assert_eq!(Verdict::of(v(0.50, 0.535), 0.55, false, m), Verdict::Beyond);
        assert_eq!(Verdict::of(v(0.57, 0.60), 0.55, false, m), Verdict::Within);
        assert_eq!(Verdict::of(v(0.545, 0.556), 0.55, false, m), Verdict::OnLimit);
        assert_eq!(Verdict::of(v(0.52, 0.58), 0.55, false, m), Verdict::Undecided);
        // No interval: nothing to judge.
        assert_eq!(Verdict::of(None, limit, true, m), Verdict::Unknown);
        assert_eq!(Verdict::of(Some(Value { value: 0.1, interval: None }), limit, true, m), Verdict::Unknown);
        // Without a margin the limit itself decides; an interval across it is undecided.
        assert_eq!(Verdict::of(v(0.051, 0.059), limit, true, 0.0), Verdict::Beyond);
        assert_eq!(Verdict::of(v(0.041, 0.049), limit, true, 0.0), Verdict::Within);
        assert_eq!(Verdict::of(v(0.045, 0.055), limit, true, 0.0), Verdict::Undecided);
    }

    #[test]
    fn the_first_player_criterion_names_its_metric() {
        assert_eq!(FirstPlayer::parse("match").unwrap().metric(), "match_first_player_advantage");
        assert_eq!(FirstPlayer::parse("round").unwrap().metric(), "first_player_advantage");
        assert!(FirstPlayer::parse("game").unwrap_err().contains("valid: match, round"));
        assert_eq!(Limits::default().first_player, FirstPlayer::Match);
    }
}
