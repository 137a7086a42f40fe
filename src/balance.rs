//! Hand-size balancing: sweep every (player count, hand size) cell of a set, measure what a
//! designer cares about, with intervals, and recommend a hand size per player count.
//!
//! Each cell is a tournament ([`crate::tournament::Tournament`]) of a stated field of bots with
//! the hand size overridden: duplicate deals in every seat rotation and seating order,
//! statistics over deals with 95% intervals, byte-identical at any thread count. The cell's seed
//! is `mix(seed, players * 256 + hand)`, so adding cells never changes the others.
//!
//! **What is measured**, per cell (docs/csv.md has every column):
//! - *defects*: rounds nobody finishes (`blocked_rate`); the first player's edge per round
//!   (`first_player_advantage`: round win rate of the round's first player minus `1/N`);
//! - *skill expression* (`skill`): the head-to-head score of the field's first bot against its
//!   last (list the stronger first; the default field lists `planner` first and `greedy` last):
//!   0.5 means the hand size leaves no room for the better player;
//! - the first player's edge over a whole match (`match_first_player_advantage`: the seat that
//!   leads round 1; the lead rotates, so most of the per-round edge cancels), round length
//!   (`turns`, and its spread `turns_sd`), decisiveness (`winner_margin`, `lead_changes`), draws;
//! - descriptive figures that are no defect in themselves: `dry_rate` (rounds that empty the
//!   boneyard: players then mark and pass), the RMS turn-order advantage, `no_start_rate`.
//!
//! **Deciding with intervals.** An objective never compares point estimates alone: a defect
//! counts only when its interval lies wholly beyond the limit (shown at 95%), and "the best" is
//! a set: every hand size whose figure is not distinguishable from the best one at 95% (the
//! difference of two independent cells within 1.96 standard errors). The pick within the set
//! follows a stated rule: the largest hand (more tiles is more play, and the set already
//! excludes what the objective counts against it).

use crate::rules::{PRESETS, Rules};
use crate::stats::{Estimate, Z95};
use crate::tournament::{Tally, WIN_UNIT};

/// The blocked-round share an objective counts as a defect when shown to exceed it.
pub const MAX_BLOCKED: f64 = 0.05;
/// The first player's per-round edge over `1/N` (round win rate minus `1/N`) counted as a defect
/// when shown to exceed it: 3 percentage points at any table size.
pub const MAX_FIRST_EDGE: f64 = 0.03;

/// The skill floor: a hand size where the field's first bot is shown to finish ahead of its last
/// in fewer than this share of comparisons is one where skill stops mattering (a defect).
pub const MIN_SKILL: f64 = 0.55;

/// How a hand size is chosen for a player count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    pub const ALL: [(&'static str, Objective); 5] = [
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

    /// The objective in plain words (console, manifest, docs).
    pub fn describe(self) -> String {
        let defect = format!(
            "a defect is shown when its 95% interval lies wholly beyond the limit: more than {:.0}% of rounds blocked (nobody goes out), the first player of a round winning more than {:.0} percentage points above the fair share 1/N, or skill stopping to matter (the first bot's head-to-head score against the last below {:.2})",
            MAX_BLOCKED * 100.0,
            MAX_FIRST_EDGE * 100.0,
            MIN_SKILL
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

/// Turn-order advantage as one number: the root mean square over positions of (round win rate
/// minus `1/N`), with each position's sampling variance subtracted from its square first, so that
/// noise alone does not look like an advantage (0 when none is detectable). Descriptive.
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

/// The head-to-head score of the field's first bot against its last (`None` with one bot).
pub fn skill(c: &Cell) -> Option<Value> {
    let bots = c.tally.layout.bots;
    (bots >= 2).then(|| c.tally.pair_score(0, bots - 1).proportion(1.0).map(Value::from)).flatten()
}

/// The round-to-round spread of round length: the root of half the mean squared difference in
/// turns between consecutive rounds of a match, with the root of its interval.
pub fn turns_sd(c: &Cell) -> Option<Value> {
    let e = c.tally.round_turns_diff2().mean(1.0)?;
    let root = |v: f64| v.max(0.0).sqrt();
    Some(Value::from(Estimate { value: root(e.value), lo: root(e.lo), hi: root(e.hi) }))
}

/// Every metric `mtrain balance` measures, in CSV order (the per-position advantages follow them
/// in `balance.csv`).
pub const METRICS: &[Metric] = &[
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
        reference: Some(MAX_FIRST_EDGE),
        read: |c| position_win(c, 0).map(|e| shifted(e, 1.0 / c.players as f64)),
    },
    Metric {
        name: "skill",
        axis: "head-to-head score",
        label: "skill expression: first bot's head-to-head score against the last",
        share: true,
        // The floor the recommendation holds skill to.
        reference: Some(MIN_SKILL),
        read: skill,
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

/// Reads a metric by name.
pub fn read(c: &Cell, name: &str) -> Option<Value> {
    (METRICS.iter().find(|m| m.name == name).expect("a listed metric").read)(c)
}

/// The defects shown at 95% in a cell, in words (empty: none shown): the rule defects first
/// ([`rule_defects`]), then the skill floor.
pub fn defects(c: &Cell) -> Vec<String> {
    defect_metrics(c)
        .into_iter()
        .filter_map(|name| {
            let v = read(c, name)?.value;
            Some(match name {
                "blocked_rate" => format!("blocked {:.1}%", 100.0 * v),
                "first_player_advantage" => format!("first player +{:.1} points", 100.0 * v),
                _ => format!("skill {v:.3}"),
            })
        })
        .collect()
}

/// The metrics shown beyond their limit at 95% in a cell, by name (`blocked_rate`,
/// `first_player_advantage`, then `skill`), as `recommendation.csv` lists them.
pub fn defect_metrics(c: &Cell) -> Vec<&'static str> {
    let mut out = rule_defects(c);
    if skill_defect(c).is_some() {
        out.push("skill");
    }
    out
}

/// The defects a table suffers whoever plays, by metric name: blocked rounds and the first
/// player's edge.
pub fn rule_defects(c: &Cell) -> Vec<&'static str> {
    let mut out = Vec::new();
    if let Some(Value { interval: Some((lo, _)), .. }) = read(c, "blocked_rate")
        && lo > MAX_BLOCKED
    {
        out.push("blocked_rate");
    }
    if let Some(Value { interval: Some((lo, _)), .. }) = read(c, "first_player_advantage")
        && lo > MAX_FIRST_EDGE
    {
        out.push("first_player_advantage");
    }
    out
}

/// The skill figure when it is shown below [`MIN_SKILL`].
pub fn skill_defect(c: &Cell) -> Option<f64> {
    match read(c, "skill") {
        Some(Value { value, interval: Some((_, hi)) }) if hi < MIN_SKILL => Some(value),
        _ => None,
    }
}

/// The cells whose `metric` is not distinguishable at 95% from the best (the largest when
/// `higher`, else the smallest): the difference from the best within 1.96 standard errors of
/// the two (independent) cells. Cells without the figure are left out.
pub fn best_set<'a>(cells: &[&'a Cell], metric: &str, higher: bool) -> Vec<&'a Cell> {
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

/// A recommendation for one player count.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    /// The recommended hand.
    pub hand: Option<u8>,
    /// The candidates the pick was made from.
    pub set: Vec<u8>,
    /// Whether every size shows a defect: the candidates are those with the fewest rule defects
    /// (blocked rounds, first-player edge), the skill floor applied only where some pass it.
    pub fallback: bool,
}

/// The hand size `objective` picks among `cells` (all of one player count, in hand order);
/// `published` is the preset's hand for that count, if it has one.
pub fn recommend(cells: &[&Cell], objective: Objective, published: Option<u8>) -> Pick {
    // Rule defects first: the fewest (normally none). Then the skill floor, but only where some
    // of those sizes pass it: a player count at which skill is shown not to matter at every hand
    // size is a property of the table that no hand size fixes, so it does not move the pick.
    let fewest = cells.iter().map(|c| rule_defects(c).len()).min().unwrap_or(0);
    let fair: Vec<&Cell> = cells.iter().copied().filter(|c| rule_defects(c).len() == fewest).collect();
    let skilled: Vec<&Cell> = fair.iter().copied().filter(|c| skill_defect(c).is_none()).collect();
    let fallback = fewest > 0 || skilled.is_empty();
    let sound = if skilled.is_empty() { fair } else { skilled };
    let hands = |set: &[&Cell]| set.iter().map(|c| c.hand).collect::<Vec<u8>>();
    let largest =
        |set: Vec<&Cell>, fallback: bool| Pick { hand: set.iter().map(|c| c.hand).max(), set: hands(&set), fallback };
    match objective {
        Objective::Balanced => {
            let set = hands(&sound);
            let hand = match published {
                // Nearest to the published hand; on a tie the larger.
                Some(p) => set.iter().copied().min_by_key(|&h| (h.abs_diff(p), std::cmp::Reverse(h))),
                None => set.get(set.len() / 2).copied(),
            };
            Pick { hand, set, fallback }
        }
        Objective::NoDefect => largest(sound, fallback),
        Objective::MostSkill => {
            let set = best_set(cells, "skill", true);
            // A field of one bot has no skill figure: every size qualifies.
            largest(if set.is_empty() { cells.to_vec() } else { set }, false)
        }
        Objective::LeastAdvantage => largest(best_set(cells, "first_player_advantage", false), false),
        Objective::LeastBlocked => largest(best_set(cells, "blocked_rate", false), false),
    }
}

/// `balance.csv`: a row per cell and metric, then a row per cell and position
/// (`positionK_advantage`).
pub fn balance_csv(cells: &[Cell]) -> String {
    let f = |v: f64| if v.is_finite() { format!("{v:.6}") } else { String::new() };
    let row = |c: &Cell, name: &str, v: Option<Value>| {
        let (value, lo, hi) = match v {
            Some(Value { value, interval: Some((lo, hi)) }) => (f(value), f(lo), f(hi)),
            Some(Value { value, interval: None }) => (f(value), String::new(), String::new()),
            None => (String::new(), String::new(), String::new()),
        };
        vec![c.players.to_string(), c.hand.to_string(), name.to_string(), value, lo, hi]
    };
    let mut rows = Vec::new();
    for c in cells {
        for m in METRICS {
            rows.push(row(c, m.name, (m.read)(c)));
        }
        for k in 0..c.players as usize {
            let v = position_win(c, k).map(|e| shifted(e, 1.0 / c.players as f64));
            rows.push(row(c, &format!("position{}_advantage", k + 1), v));
        }
    }
    crate::report::csv_table("players,hand,metric,value,lo,hi".split(','), rows)
}

/// The published hand size of every preset for `set` and `players` (`None`: not in its table).
pub fn published(set: u8, players: u8) -> Vec<(&'static str, Option<u8>)> {
    PRESETS.iter().map(|p| (p.name, Rules::preset(p.name).ok().and_then(|r| r.deal_table.hand(set, players)))).collect()
}

/// `recommendation.csv`: per player count, the recommended hand, the set it was picked from, the
/// figures of the pick with their intervals, and each preset's published hand size beside it.
pub fn recommendation_csv(base: &Rules, cells: &[Cell], objective: Objective) -> String {
    let set = base.set.get();
    // The header comes first (no comment line), so that every CSV reader loads it as is; the
    // objective is a column, and manifest.json says it in words.
    let mut header: Vec<String> = "objective,players,recommended_hand,reference_hand,fallback,candidates,defects"
        .split(',')
        .map(str::to_string)
        .collect();
    for m in DECIDING {
        header.extend([m.to_string(), format!("{m}_lo"), format!("{m}_hi")]);
    }
    header.extend(PRESETS.iter().map(|p| p.name.to_string()));
    let f = |v: f64| if v.is_finite() { format!("{v:.6}") } else { String::new() };
    let hand = |h: Option<u8>| h.map_or(String::new(), |h| h.to_string());
    let rows = recommendations(base, cells, objective).into_iter().map(|(players, pick)| {
        let cell = pick.hand.and_then(|h| cells.iter().find(|c| c.players == players && c.hand == h));
        let mut row = vec![
            objective.name().to_string(),
            players.to_string(),
            hand(pick.hand),
            hand(base.deal_table.hand(set, players)),
            pick.fallback.to_string(),
            pick.set.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
            cell.map(|c| defect_metrics(c).join(";")).unwrap_or_default(),
        ];
        for m in DECIDING {
            let v = cell.and_then(|c| read(c, m));
            let (lo, hi) = v.and_then(|v| v.interval).map_or((String::new(), String::new()), |(l, h)| (f(l), f(h)));
            row.extend([v.map_or(String::new(), |v| f(v.value)), lo, hi]);
        }
        row.extend(published(set, players).into_iter().map(|(_, h)| hand(h)));
        row
    });
    crate::report::csv_table(header, rows)
}

/// The figures the objectives decide on, in recommendation.csv and the console.
pub const DECIDING: [&str; 4] = ["blocked_rate", "first_player_advantage", "skill", "turns"];

/// The recommendation per player count, in player order.
/// `base` is the preset swept (its deal table gives the published hand each pick starts from).
pub fn recommendations(base: &Rules, cells: &[Cell], objective: Objective) -> Vec<(u8, Pick)> {
    let mut counts: Vec<u8> = cells.iter().map(|c| c.players).collect();
    counts.dedup();
    counts
        .into_iter()
        .map(|p| {
            let group: Vec<&Cell> = cells.iter().filter(|c| c.players == p).collect();
            (p, recommend(&group, objective, base.deal_table.hand(base.set.get(), p)))
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
    // Say what the line is: the limit the recommendation uses, or the no-effect value.
    let line = match (m.name, m.reference) {
        ("blocked_rate", Some(r)) => format!("; line: the {:.0}% limit", 100.0 * r),
        ("first_player_advantage", Some(r)) => format!("; line: the +{:.0}-point limit", 100.0 * r),
        ("skill", Some(r)) => format!("; line: the {r:.2} floor"),
        (_, Some(r)) if m.share => format!("; line at {:.0}%", 100.0 * r),
        (_, Some(r)) => format!("; line at {r}"),
        (_, None) => String::new(),
    };
    let title = format!("{} (double-{set}, {preset}, {bots}{line})", m.label);
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
