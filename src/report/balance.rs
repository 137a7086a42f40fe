//! The reports of a hand-size sweep: the header printed before it runs, the recommendation
//! table, and the result files (CSV and SVG), rendered from the cells; nothing here plays or
//! writes.

use super::changes_text;
use super::csv_table;
use super::manifest::{Invocation, RulesRecord};
use super::plot::{Chart, Series, line_chart_svg};
use crate::balance::{self as bal, Cell, Limits, Metric, Objective, Pick, RankBy, Reason, Sweep, Value, Verdict};
use crate::rules::{PRESETS, Rules};

/// The field in words, and what skill expression compares.
pub fn population(p: &Sweep) -> String {
    let names: Vec<String> = p.specs.iter().map(ToString::to_string).collect();
    let skill = match names.as_slice() {
        [] | [_] => "no skill figure: the field has one bot".to_string(),
        [first, last] => format!("skill and luck = {first}'s head-to-head score against {last} (0.5: no edge)"),
        [first, second, .., last] => format!(
            "skill = {first}'s head-to-head score against {last} (0.5: no edge); luck = {second}'s against {last}"
        ),
    };
    format!("field {} ({skill})", names.join(", "))
}

/// What the sweep is: rules, cells, games, field, seed and objective (printed before it runs).
pub fn header(p: &Sweep) -> String {
    let players: Vec<u8> = p.cells.iter().map(|c| c.0).collect();
    let (lo, hi) = (players.iter().min().copied().unwrap_or(0), players.iter().max().copied().unwrap_or(0));
    let span = if lo == hi { format!("{lo} players") } else { format!("{lo}-{hi} players") };
    format!(
        "mtrain balance: {} rules{}, double-{}, {span}, {} of {} games; seed {}; {}\nobjective {}: {}\n\n",
        p.base.preset,
        changes_text(&p.changes),
        p.base.set.get(),
        if p.cells.len() == 1 { "1 cell".to_string() } else { format!("{} cells", p.cells.len()) },
        p.games,
        p.seed,
        population(p),
        p.objective.name(),
        p.objective.describe(&p.limits)
            + &match p.rank_by {
                RankBy::Published => String::new(),
                by => format!(
                    "; the candidates are ranked by {}, and the published hand stays the pick only when none is measurably better at 95%",
                    rank_words(by)
                ),
            }
    )
}

/// The recommendation table.
pub fn table(p: &Sweep, cells: &[Cell]) -> String {
    let mut s = String::new();
    let first_head = format!("first player ({})", p.limits.first_player.name());
    s.push_str(&format!(
        "{:>7}  {:>4}  {:<14}  {:>6}  {:<20}  {:<22}  {:<22}  {:<22}  {:<7}  {:<9}  {}\n",
        "players",
        "pick",
        "candidates",
        "games",
        "blocked",
        first_head,
        "skill",
        "luck",
        "turns",
        "min/match",
        "published"
    ));
    let pct = |v: Option<Value>, signed: bool| match v {
        Some(Value { value, interval: Some((lo, hi)) }) if signed => {
            format!("{:+.1} [{:+.1}, {:+.1}]", 100.0 * value, 100.0 * lo, 100.0 * hi)
        }
        Some(Value { value, interval: Some((lo, hi)) }) => {
            format!("{:.1}% [{:.1}, {:.1}]", 100.0 * value, 100.0 * lo, 100.0 * hi)
        }
        Some(Value { value, .. }) => format!("{:.1}%", 100.0 * value),
        None => "-".to_string(),
    };
    let score = |v: Option<Value>| match v {
        Some(Value { value, interval: Some((lo, hi)) }) => format!("{value:.3} [{lo:.3}, {hi:.3}]"),
        Some(Value { value, .. }) => format!("{value:.3}"),
        None => "-".to_string(),
    };
    let mut any_fallback = false;
    let mut any_unmeasured = false;
    let (mut any_on, mut any_undecided) = (false, false);
    let mut ranked = Vec::new();
    for (players, pick) in bal::recommendations(&p.base, cells, p.objective, &p.limits, p.rank_by, p.seconds_per_turn) {
        let cell = pick.hand.and_then(|h| cells.iter().find(|c| c.players == players && c.hand == h));
        let get = |name: &str| cell.and_then(|c| bal::read(c, name));
        let pub_list: Vec<String> = bal::published(p.base.set.get(), players)
            .into_iter()
            .filter_map(|(name, h)| h.map(|h| format!("{name} {h}")))
            .collect();
        any_fallback |= pick.fallback;
        // A figure on its limit (within the margin) or undecided at the cap is marked.
        let mark = |name: &str| match cell.map(|c| bal::verdicts(c, &p.limits)) {
            Some(v) => match v.iter().find(|x| x.0 == name).map(|x| x.4) {
                Some(Verdict::OnLimit) => "~",
                Some(Verdict::Undecided) => "?",
                _ => "",
            },
            None => "",
        };
        let unmeasured = cell.is_some_and(bal::luck_not_measurable);
        any_unmeasured |= unmeasured;
        any_on |= bal::CRITERIA.iter().any(|n| mark(n) == "~");
        any_undecided |= bal::CRITERIA.iter().any(|n| mark(n) == "?");
        if !pick.ranking.is_empty() {
            ranked.push(format!("{players} players: {}", ranking_text(&pick, &p.base, players)));
        }
        s.push_str(&format!(
            "{players:>7}  {:>4}  {:<14}  {:>6}  {:<20}  {:<22}  {:<22}  {:<22}  {:<7}  {:<9}  {}\n",
            match pick.hand {
                Some(h) if pick.fallback => format!("{h}*"),
                Some(h) => h.to_string(),
                None => "-".to_string(),
            },
            span_list(&pick.set),
            cell.map_or("-".to_string(), |c| c.tally.games.to_string()),
            pct(get("blocked_rate"), false) + mark("blocked"),
            pct(get(p.limits.first_player.metric()), true) + mark("first_player"),
            score(get("skill")) + mark("skill"),
            if unmeasured { "not measurable".to_string() } else { score(get("skill_ceiling")) + mark("skill_ceiling") },
            get("turns").map_or("-".to_string(), |v| format!("{:.1}", v.value)),
            get("match_turns").map_or("-".to_string(), |v| format!("{:.0}", v.value * p.seconds_per_turn / 60.0)),
            if pub_list.is_empty() { "-".to_string() } else { pub_list.join(", ") }
        ));
    }
    s.push_str(&format!(
        "(candidates: {}; intervals are 95%; minutes at {} seconds a turn)\n",
        candidates_text(p.objective),
        p.seconds_per_turn
    ));
    if !ranked.is_empty() {
        s.push_str(&format!("ranked by {} (best first; = not told apart at 95%):\n", rank_words(p.rank_by)));
        for line in ranked {
            s.push_str(&format!("  {line}\n"));
        }
    }
    if any_on {
        s.push_str(&format!(
            "(~ on the limit: the interval reaches past the limit but not past the {:.1}-point margin, so no defect)\n",
            100.0 * p.limits.margin
        ));
    }
    if any_unmeasured {
        s.push_str(
            "(luck not measurable: the second bot does not beat the last at that table, so its score would measure that bot's weakness, not luck)\n",
        );
    }
    if any_undecided {
        s.push_str("(? undecided at --max-games: the interval still contains the margin's edge; no defect)\n");
    }
    if any_fallback {
        s.push_str(
            "(* every hand size shows a defect at that player count: the candidates have the fewest blocked or first-player defects; the skill floor and ceiling apply only where some pass them)\n",
        );
    }
    s
}

/// A ranking in words.
pub fn rank_words(by: RankBy) -> String {
    match by {
        RankBy::Published => "the published hand".into(),
        RankBy::Skill => "skill expression (most first)".into(),
        RankBy::Blocked => "blocked rounds (fewest first)".into(),
        RankBy::FirstPlayer => "the first player's edge (smallest first)".into(),
        RankBy::Minutes(m) => format!("match length (closest to {m} minutes first)"),
    }
}

/// A pick's ranking (`12=13 > 11 > 10`) and what it means for the pick.
fn ranking_text(pick: &Pick, base: &Rules, players: u8) -> String {
    let order = pick
        .ranking
        .iter()
        .map(|g| g.iter().map(ToString::to_string).collect::<Vec<_>>().join("="))
        .collect::<Vec<_>>()
        .join(" > ");
    let published = base.deal_table.hand(base.set.get(), players);
    let why = match (pick.reason, published, pick.hand) {
        (Reason::PublishedKept, Some(p), _) => format!("the published {p} stays: nothing measurably better"),
        (Reason::MeasurablyBetter, Some(p), Some(h)) => format!("{h} is measurably better than the published {p}"),
        (_, _, Some(h)) => format!("{h}, the best ranked (the published hand is no candidate)"),
        _ => "no pick".into(),
    };
    format!("{order}; {why}")
}

fn candidates_text(o: Objective) -> &'static str {
    match o {
        Objective::Balanced => {
            "hand sizes with no defect shown; the pick is the published hand or the nearest candidate"
        }
        Objective::NoDefect => "hand sizes with no defect shown; the pick is the largest",
        _ => "hand sizes the objective cannot tell apart at 95%; the pick is the largest",
    }
}

/// Hand sizes as compact ranges: `9-12 14`.
fn span_list(hands: &[u8]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < hands.len() {
        let mut j = i;
        while j + 1 < hands.len() && hands[j + 1] == hands[j] + 1 {
            j += 1;
        }
        parts.push(if i == j { hands[i].to_string() } else { format!("{}-{}", hands[i], hands[j]) });
        i = j + 1;
    }
    if parts.is_empty() { "-".to_string() } else { parts.join(" ") }
}

/// The result files of a complete sweep, rendered: `balance.csv`, `recommendation.csv`,
/// `decisions.csv` and one SVG per metric (`bots`: the population as the plots name it).
///
/// # Errors
/// A plot that cannot be drawn.
pub fn result_files(p: &Sweep, cells: &[Cell], bots: &str) -> Result<Vec<(String, String)>, crate::error::PlotError> {
    let mut files: Vec<(String, String)> = vec![
        ("balance.csv".into(), balance_csv(cells, p.seconds_per_turn)),
        ("recommendation.csv".into(), recommendation_csv(p, cells)),
        ("decisions.csv".into(), decisions_csv(cells, &p.limits)),
    ];
    let rules_name = format!("{}{}", p.base.preset, changes_text(&p.changes));
    for m in &p.metrics {
        // A metric no cell measured (the round-to-round spread of one-round matches) has no
        // plot: balance.csv leaves its cells empty.
        if cells.iter().all(|c| (m.read)(c).is_none()) {
            continue;
        }
        let svg = plot(cells, m, p.base.set.get(), &rules_name, bots, &p.limits)?;
        files.push((format!("{}.svg", m.name), svg));
    }
    Ok(files)
}

/// Turns as minutes at `seconds_per_turn`, interval and all.
fn minutes_of(v: Value, seconds_per_turn: f64) -> Value {
    let k = seconds_per_turn / 60.0;
    Value { value: k * v.value, interval: v.interval.map(|(lo, hi)| (k * lo, k * hi)) }
}

/// `balance.csv`: a row per cell and metric, then a row per cell and position
/// (`positionK_advantage`).
pub fn balance_csv(cells: &[Cell], seconds_per_turn: f64) -> String {
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
        for m in bal::METRICS {
            rows.push(row(c, m.name, (m.read)(c)));
        }
        for (name, turns) in [("round_minutes", "turns"), ("match_minutes", "match_turns")] {
            rows.push(row(c, name, bal::read(c, turns).map(|v| minutes_of(v, seconds_per_turn))));
        }
        for k in 0..c.players as usize {
            rows.push(row(c, &format!("position{}_advantage", k + 1), bal::position_advantage(c, k)));
        }
    }
    csv_table("players,hand,metric,value,lo,hi".split(','), rows)
}

/// `decisions.csv`: a row per cell and criterion: the games the cell played, the figure with its
/// interval, the limit, the margin and the verdict.
pub fn decisions_csv(cells: &[Cell], l: &Limits) -> String {
    let f = |v: f64| if v.is_finite() { format!("{v:.6}") } else { String::new() };
    let mut rows = Vec::new();
    for c in cells {
        for (criterion, metric, v, limit, verdict) in bal::verdicts(c, l) {
            let (value, lo, hi) = match v {
                Some(Value { value, interval: Some((lo, hi)) }) => (f(value), f(lo), f(hi)),
                Some(Value { value, interval: None }) => (f(value), String::new(), String::new()),
                None => (String::new(), String::new(), String::new()),
            };
            rows.push(vec![
                c.players.to_string(),
                c.hand.to_string(),
                c.tally.games.to_string(),
                criterion.to_string(),
                metric.to_string(),
                value,
                lo,
                hi,
                f(limit),
                f(l.margin),
                verdict.name().to_string(),
            ]);
        }
    }
    csv_table("players,hand,games,criterion,metric,value,lo,hi,limit,margin,verdict".split(','), rows)
}

/// `recommendation.csv`: per player count, the recommended hand, the set it was picked from, the
/// figures of the pick with their intervals, and each preset's published hand size beside it.
pub fn recommendation_csv(p: &Sweep, cells: &[Cell]) -> String {
    let (base, objective, l) = (&p.base, p.objective, &p.limits);
    let set = base.set.get();
    // The header comes first (no comment line), so that every CSV reader loads it as is; the
    // objective is a column, and manifest.json says it in words.
    let mut header: Vec<String> =
        "objective,players,recommended_hand,reference_hand,fallback,candidates,games,first_player,defects,on_limit,undecided,ranked_by,ranking,pick_reason"
        .split(',')
        .map(str::to_string)
        .collect();
    for m in bal::DECIDING {
        header.extend([m.to_string(), format!("{m}_lo"), format!("{m}_hi")]);
    }
    header.extend(["match_minutes", "match_minutes_lo", "match_minutes_hi"].map(str::to_string));
    header.extend(PRESETS.iter().map(|p| p.name.to_string()));
    let f = |v: f64| if v.is_finite() { format!("{v:.6}") } else { String::new() };
    let hand = |h: Option<u8>| h.map_or(String::new(), |h| h.to_string());
    let rows = bal::recommendations(base, cells, objective, l, p.rank_by, p.seconds_per_turn).into_iter().map(
        |(players, pick)| {
            let cell = pick.hand.and_then(|h| cells.iter().find(|c| c.players == players && c.hand == h));
            let mut row = vec![
                objective.name().to_string(),
                players.to_string(),
                hand(pick.hand),
                hand(base.deal_table.hand(set, players)),
                pick.fallback.to_string(),
                pick.set.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
                cell.map(|c| c.tally.games.to_string()).unwrap_or_default(),
                l.first_player.name().to_string(),
                cell.map(|c| bal::defect_metrics(c, l).join(";")).unwrap_or_default(),
                cell.map(|c| bal::with_verdict(c, l, Verdict::OnLimit).join(";")).unwrap_or_default(),
                cell.map(|c| bal::with_verdict(c, l, Verdict::Undecided).join(";")).unwrap_or_default(),
                p.rank_by.name(),
                pick.ranking
                    .iter()
                    .map(|g| g.iter().map(ToString::to_string).collect::<Vec<_>>().join("="))
                    .collect::<Vec<_>>()
                    .join(" > "),
                pick.reason.name().to_string(),
            ];
            for m in bal::DECIDING {
                let v = cell.and_then(|c| bal::read(c, m));
                let (lo, hi) = v.and_then(|v| v.interval).map_or((String::new(), String::new()), |(l, h)| (f(l), f(h)));
                row.extend([v.map_or(String::new(), |v| f(v.value)), lo, hi]);
            }
            let minutes = cell.and_then(|c| bal::read(c, "match_turns")).map(|v| minutes_of(v, p.seconds_per_turn));
            let (lo, hi) =
                minutes.and_then(|v| v.interval).map_or((String::new(), String::new()), |(l, h)| (f(l), f(h)));
            row.extend([minutes.map_or(String::new(), |v| f(v.value)), lo, hi]);
            row.extend(bal::published(set, players).into_iter().map(|(_, h)| hand(h)));
            row
        },
    );
    csv_table(header, rows)
}

/// The plot of one metric: a line per player count against the hand size.
///
/// # Errors
/// A message if the metric has no data in any cell.
pub fn plot(
    cells: &[Cell],
    m: &Metric,
    set: u8,
    preset: &str,
    bots: &str,
    l: &Limits,
) -> Result<String, crate::error::PlotError> {
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
    // The lines are the limits the decision uses (the criterion's own figure), else the
    // no-effect value; the note under the legend says which (split into lines at "; ").
    let fp = l.first_player.metric();
    let (references, note) = match m.name {
        "blocked_rate" => (vec![l.max_blocked], format!("line: the {:.1}%; limit", 100.0 * l.max_blocked)),
        name if name == fp => {
            (vec![l.max_first_edge], format!("line: the +{:.1}-point; limit", 100.0 * l.max_first_edge))
        }
        "skill" => (vec![l.min_skill], format!("line: the {:.2} floor", l.min_skill)),
        "skill_ceiling" => (vec![l.max_skill], format!("line: the {:.2} ceiling", l.max_skill)),
        _ => match m.reference {
            Some(r) if m.share => (vec![r], format!("line at {:.0}%", 100.0 * r)),
            Some(r) => (vec![r], format!("line at {r}")),
            None => (Vec::new(), String::new()),
        },
    };
    let title = format!("{} (double-{set}, {preset}, {bots})", m.label);
    let y_label = m.axis;
    let chart = Chart {
        title: &title,
        x_label: "tiles dealt per player",
        y_label,
        percent: m.share,
        references: &references,
        note: &note,
        series: &series,
    };
    line_chart_svg(&chart, (960, 600))
}

/// The `manifest.json` of a sweep (or a shard or merge of one) for the invocation `inv`: the
/// population `bots`, the `shard` played, `(played, planned)` games, whether it is `complete`,
/// and why it `stopped`.
pub fn manifest(
    p: &Sweep,
    inv: &Invocation<'_>,
    bots: &str,
    shard: Option<(u64, u64)>,
    (played, total): (u64, u64),
    complete: bool,
    stopped: Option<&str>,
) -> String {
    let mut players: Vec<u8> = p.cells.iter().map(|c| c.0).collect();
    players.dedup();
    let mut hands: Vec<u8> = p.cells.iter().map(|c| c.1).collect();
    hands.sort_unstable();
    hands.dedup();
    let details = serde_json::json!({
        "cells": p.cells.len(),
        "games_per_cell": p.games,
        "games_planned": total,
        "games": played,
        "bots": bots,
        "objective": p.objective.name(),
        "objective_description": p.objective.describe(&p.limits),
        "max_games_per_cell": p.max_games,
        "limits": {
            "max_blocked": p.limits.max_blocked,
            "max_first_edge": p.limits.max_first_edge,
            "first_player": p.limits.first_player.name(),
            "min_skill": p.limits.min_skill,
            "max_skill": p.limits.max_skill,
            "margin": p.limits.margin,
        },
        "population": population(p),
        "shard": shard.map(|(i, n)| format!("{i}/{n}")),
    });
    inv.manifest(
        RulesRecord::new(&p.base, &p.changes, players, hands),
        p.specs.iter().map(ToString::to_string).collect(),
        p.seed,
        complete,
        stopped,
        details,
    )
}
