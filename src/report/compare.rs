//! The reports of a comparison of rule sets: the header printed before it runs, the console
//! table of differences, the summary in plain words, and the result files (CSV and the
//! manifest), rendered from the cells; nothing here plays or writes.

use super::changes_text;
use super::csv_table;
use super::manifest::{Invocation, RulesRecord};
use crate::compare::{self as cmp, Change, CompareCell, Comparison, Difference};

/// The figures the console table and the summary speak of (every figure is in `compare.csv`).
pub const HEADLINE: [(&str, &str); 7] = [
    ("turns", "turns/round"),
    ("match_minutes", "minutes/match"),
    ("blocked_rate", "blocked (pt)"),
    ("match_first_player_advantage", "first player (pt)"),
    ("skill", "skill (pt)"),
    ("skill_ceiling", "luck pair (pt)"),
    ("draws", "draws/round"),
];

/// A rule set in words: its name, and its changes where the name does not show them.
fn described(c: &Comparison, r: usize) -> String {
    let s = &c.sets[r];
    if s.name.contains(':') || s.rules.is_empty() {
        s.name.clone()
    } else {
        format!("{} ({}{})", s.name, s.preset, changes_text(&c.changes[r]))
    }
}

/// Hand sizes as ranges: `5-9, 12`.
pub fn ranges(hands: &[u8]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < hands.len() {
        let mut j = i;
        while j + 1 < hands.len() && hands[j + 1] == hands[j] + 1 {
            j += 1;
        }
        out.push(if i == j { hands[i].to_string() } else { format!("{}-{}", hands[i], hands[j]) });
        i = j + 1;
    }
    out.join(", ")
}

fn span(v: &[u8]) -> String {
    let (lo, hi) = (v.iter().min().copied().unwrap_or(0), v.iter().max().copied().unwrap_or(0));
    if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") }
}

/// What the comparison is: rule sets, cells, games, field, seed, margins (printed before it
/// runs).
pub fn header(c: &Comparison) -> String {
    let players: Vec<u8> = c.cells.iter().map(|x| x.0).collect();
    let hands: Vec<u8> = c.cells.iter().map(|x| x.1).collect();
    let mut s = format!(
        "mtrain compare: {} rule sets, double-{}, {} players, hands {}, {} games per cell and rule set; seed {}; field {}\n",
        c.sets.len(),
        c.rules[0].set.get(),
        span(&players),
        span(&hands),
        c.games,
        c.seed,
        c.specs.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
    );
    for r in 0..c.sets.len() {
        let role = if r == 0 { "baseline" } else { "compared" };
        s.push_str(&format!("  {role}: {}\n", described(c, r)));
    }
    s.push_str(&format!(
        "paired on the same deals; a change is shown when its interval, adjusted for every difference reported (Bonferroni), lies beyond a margin of {:.1} points on shares and {:.0}% of the baseline on counts; minutes at {} seconds a turn\n\n",
        100.0 * c.margin,
        100.0 * c.relative_margin,
        c.seconds_per_turn
    ));
    s
}

/// A difference as the console shows it: shares in percentage points, counts as they are.
fn shown(d: &Difference) -> String {
    let mark = match d.change {
        Change::Changes => "*",
        Change::NoChange => "=",
        Change::Undecided => "?",
    };
    if d.measure.share {
        format!("{:+.1} [{:+.1},{:+.1}]{mark}", 100.0 * d.difference, 100.0 * d.adjusted.0, 100.0 * d.adjusted.1)
    } else {
        format!("{:+.1} [{:+.1},{:+.1}]{mark}", d.difference, d.adjusted.0, d.adjusted.1)
    }
}

/// The console table: per compared rule set and player count, a row per hand size with the
/// headline differences from the baseline and their adjusted intervals, then the summary.
pub fn table(c: &Comparison, cells: &[CompareCell]) -> String {
    let diffs = cmp::differences(c, cells);
    let mut s = String::new();
    let mut players: Vec<u8> = c.cells.iter().map(|x| x.0).collect();
    players.dedup();
    for r in 1..c.sets.len() {
        for &p in &players {
            s.push_str(&format!("{} against {}, {p} players:\n", described(c, r), c.sets[0].name));
            s.push_str(&format!("{:>4}", "hand"));
            for (_, h) in HEADLINE {
                s.push_str(&format!("  {h:<22}"));
            }
            s.push('\n');
            for &(_, hand) in c.cells.iter().filter(|x| x.0 == p) {
                s.push_str(&format!("{hand:>4}"));
                for (h, _) in HEADLINE {
                    let d =
                        diffs.iter().find(|d| d.set == r && d.players == p && d.hand == hand && d.measure.name == h);
                    s.push_str(&format!("  {:<22}", d.map_or("-".to_string(), shown)));
                }
                s.push('\n');
            }
            s.push('\n');
        }
    }
    s.push_str(&format!(
        "differences from the baseline (shares in percentage points) with intervals adjusted over all {} differences; * changes by more than the margin, = no measurable change at the margin, ? undecided (more games would tell)\n\n",
        diffs.len()
    ));
    s.push_str(&summary(c, &diffs));
    s
}

/// How the summary speaks of a headline figure: what a rise says, what a fall says, its name
/// in a list, and the unit of its change (shares in percentage points).
const PLAIN: [(&str, &str, &str, &str, &str); 7] = [
    ("turns", "rounds run longer", "rounds run shorter", "round length", " turns"),
    ("match_minutes", "a match takes longer", "a match is quicker", "match length", " minutes"),
    ("blocked_rate", "more rounds end blocked", "fewer rounds end blocked", "blocked rounds", " points"),
    (
        "match_first_player_advantage",
        "the first player's edge grows",
        "the first player's edge shrinks",
        "the first player's edge",
        " points",
    ),
    ("skill", "skill counts for more", "skill counts for less", "skill", " points"),
    (
        "skill_ceiling",
        "a careful player gains on a beginner",
        "a beginner gains on a careful player",
        "the careful player's edge over a beginner",
        " points",
    ),
    ("draws", "more tiles are drawn", "fewer tiles are drawn", "tiles drawn", " a round"),
];

/// Items as English: `a`, `a and b`, `a, b and c`.
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The summary in plain words: per compared rule set and player count, two or three sentences:
/// what the rule changes beyond the margin (by how much, at which hand sizes), what it does not
/// measurably change, and what these games leave undecided.
pub fn summary(c: &Comparison, diffs: &[Difference]) -> String {
    let mut s = String::new();
    let mut players: Vec<u8> = c.cells.iter().map(|x| x.0).collect();
    players.dedup();
    for r in 1..c.sets.len() {
        for &p in &players {
            let mut changes = Vec::new();
            let mut same = Vec::new();
            let mut open = Vec::new();
            for (name, up, down, plain, unit) in PLAIN {
                let of: Vec<&Difference> =
                    diffs.iter().filter(|d| d.set == r && d.players == p && d.measure.name == name).collect();
                let Some(first) = of.first() else { continue };
                let k = if first.measure.share { 100.0 } else { 1.0 };
                let hands =
                    |want: Change| -> Vec<u8> { of.iter().filter(|d| d.change == want).map(|d| d.hand).collect() };
                let changed: Vec<&&Difference> = of.iter().filter(|d| d.change == Change::Changes).collect();
                if !changed.is_empty() {
                    let lo = changed.iter().map(|d| k * d.difference).fold(f64::INFINITY, f64::min);
                    let hi = changed.iter().map(|d| k * d.difference).fold(f64::NEG_INFINITY, f64::max);
                    let at = if changed.len() == of.len() {
                        String::new()
                    } else {
                        format!(" with {} tiles", ranges(&hands(Change::Changes)))
                    };
                    let phrase = if lo > 0.0 {
                        if (hi - lo).abs() < 0.05 {
                            format!("{up} (+{lo:.1}{unit}{at})")
                        } else {
                            format!("{up} (+{lo:.1} to +{hi:.1}{unit}{at})")
                        }
                    } else if hi < 0.0 {
                        if (hi - lo).abs() < 0.05 {
                            format!("{down} ({hi:.1}{unit}{at})")
                        } else {
                            format!("{down} ({hi:.1} to {lo:.1}{unit}{at})")
                        }
                    } else {
                        format!("{plain} changes ({lo:+.1} to {hi:+.1}{unit}{at})")
                    };
                    changes.push(phrase);
                }
                if hands(Change::NoChange).len() == of.len() {
                    same.push(plain.to_string());
                }
                let undecided = hands(Change::Undecided);
                if !undecided.is_empty() {
                    let at = if undecided.len() == of.len() {
                        String::new()
                    } else {
                        format!(" with {} tiles", ranges(&undecided))
                    };
                    open.push(format!("{plain}{at}"));
                }
            }
            let hands: Vec<u8> = c.cells.iter().filter(|x| x.0 == p).map(|x| x.1).collect();
            let lead = format!(
                "Under {} (against {}) at {p} players, hands of {} tiles",
                described(c, r),
                c.sets[0].name,
                ranges(&hands)
            );
            if changes.is_empty() {
                s.push_str(&format!("{lead}, nothing is shown to change by more than the margin."));
            } else {
                s.push_str(&format!("{lead}, {}.", listed(&changes)));
            }
            if !same.is_empty() {
                s.push_str(&format!(" No measurable change in {}.", listed(&same)));
            }
            if !open.is_empty() {
                s.push_str(&format!(" Not decided by these games: {}.", listed(&open)));
            }
            s.push_str("\n\n");
        }
    }
    s
}

fn num(v: f64) -> String {
    if v.is_finite() { format!("{v:.6}") } else { String::new() }
}

/// `compare.csv`: a row per cell, compared rule set and figure: both figures, the difference,
/// its 95% interval and its adjusted interval, the margin, whether the deals paired, and the
/// verdict.
pub fn compare_csv(c: &Comparison, diffs: &[Difference]) -> String {
    let rows = diffs.iter().map(|d| {
        vec![
            d.players.to_string(),
            d.hand.to_string(),
            c.sets[d.set].name.clone(),
            c.sets[0].name.clone(),
            d.measure.name.to_string(),
            num(d.baseline.value),
            num(d.value.value),
            num(d.difference),
            num(d.interval.0),
            num(d.interval.1),
            num(d.adjusted.0),
            num(d.adjusted.1),
            num(d.margin),
            d.paired.to_string(),
            d.change.name().to_string(),
        ]
    });
    csv_table(
        "players,hand,ruleset,baseline,metric,baseline_value,value,difference,lo,hi,adjusted_lo,adjusted_hi,margin,paired,verdict"
            .split(','),
        rows,
    )
}

/// `rulesets.csv`: a row per cell, rule set and figure, with its own 95% interval and the games
/// it rests on.
pub fn rulesets_csv(c: &Comparison, cells: &[CompareCell]) -> String {
    let rows = cmp::values(c, cells).into_iter().map(|(i, r, m, v)| {
        let (lo, hi) = v.interval.map_or((String::new(), String::new()), |(lo, hi)| (num(lo), num(hi)));
        vec![
            cells[i].players.to_string(),
            cells[i].hand.to_string(),
            c.sets[r].name.clone(),
            m.name.to_string(),
            num(v.value),
            lo,
            hi,
            cells[i].tallies[r].games.to_string(),
        ]
    });
    csv_table("players,hand,ruleset,metric,value,lo,hi,games".split(','), rows)
}

/// The files of a complete comparison: `compare.csv`, `rulesets.csv` and `summary.txt`.
pub fn result_files(c: &Comparison, cells: &[CompareCell]) -> Vec<(String, String)> {
    let diffs = cmp::differences(c, cells);
    vec![
        ("compare.csv".into(), compare_csv(c, &diffs)),
        ("rulesets.csv".into(), rulesets_csv(c, cells)),
        ("summary.txt".into(), summary(c, &diffs)),
    ]
}

/// The manifest.
pub fn manifest(
    c: &Comparison,
    inv: &Invocation<'_>,
    bots: &str,
    shard: Option<(u64, u64)>,
    (played, total): (u64, u64),
    complete: bool,
    stopped: Option<&str>,
) -> String {
    let mut players: Vec<u8> = c.cells.iter().map(|x| x.0).collect();
    players.dedup();
    let mut hands: Vec<u8> = c.cells.iter().map(|x| x.1).collect();
    hands.sort_unstable();
    hands.dedup();
    let rulesets: Vec<serde_json::Value> = c
        .sets
        .iter()
        .zip(&c.changes)
        .map(|(s, ch)| {
            serde_json::json!({
                "name": s.name,
                "preset": s.preset,
                "changes": ch.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
            })
        })
        .collect();
    let details = serde_json::json!({
        "rulesets": rulesets,
        "cells": c.cells.len(),
        "games_per_cell_and_ruleset": c.games,
        "games_planned": total,
        "games": played,
        "bots": bots,
        "margin": c.margin,
        "relative_margin": c.relative_margin,
        "seconds_per_turn": c.seconds_per_turn,
        "shard": shard.map(|(i, n)| format!("{i}/{n}")),
    });
    inv.manifest(
        RulesRecord::new(&c.rules[0], &c.changes[0], players, hands),
        c.specs.iter().map(ToString::to_string).collect(),
        c.seed,
        complete,
        stopped,
        details,
    )
}
