//! The report of a comparison folder (`mtrain compare --out`): the summary in plain words first,
//! then the differences from the baseline per rule set and player count (each with its adjusted
//! interval and verdict, from `compare.csv`), the comparison from `manifest.json`, and the files.

use super::read::{Csv, Manifest, json, text_optional};
use super::{
    Body, Ctx, ReportError, Table, build_html, code, command_html, esc, facts, files_section, ranges, when_html,
};
use crate::report::compare::HEADLINE;
use std::fmt::Write as _;

/// What each file of a comparison folder holds.
const FILES: [(&str, &str); 5] = [
    ("compare.csv", "every difference from the baseline, with its intervals and verdict"),
    ("rulesets.csv", "every rule set's figures per cell, with their own intervals"),
    ("summary.txt", "the summary in plain words"),
    ("manifest.json", "what was run: command, build, rule sets, margins, seed, times"),
    ("compare.json", "the comparison's exact sums, for merging and resuming"),
];

/// The columns of `compare.csv` the page reads.
const COLUMNS: [&str; 10] = [
    "players",
    "hand",
    "ruleset",
    "baseline",
    "metric",
    "difference",
    "adjusted_lo",
    "adjusted_hi",
    "margin",
    "verdict",
];

/// What the manifest of a comparison adds to every run's.
#[derive(serde::Deserialize)]
struct Details {
    rulesets: Vec<RuleSetIn>,
    games_per_cell_and_ruleset: u64,
    margin: f64,
    relative_margin: f64,
    seconds_per_turn: f64,
}

#[derive(serde::Deserialize)]
struct RuleSetIn {
    name: String,
    preset: String,
    changes: Vec<String>,
}

/// The page of the comparison in `ctx`'s folder.
pub(super) fn page(ctx: &Ctx) -> Result<Body, ReportError> {
    let m: Manifest = json(&ctx.dir, "manifest.json")?;
    let d: Details = json(&ctx.dir, "manifest.json")?;
    let mut body = Body {
        lede: format!(
            "{} rule sets at {} players, hand sizes {}; double-{}; {} games per cell and rule set; seed {}{}",
            d.rulesets.len(),
            esc(&ranges(&m.rules.players)),
            esc(&ranges(&m.rules.hand)),
            m.rules.set,
            d.games_per_cell_and_ruleset,
            m.seed,
            if m.complete {
                " <span class=\"badge ok\">complete</span>"
            } else {
                " <span class=\"badge warn\">incomplete</span>"
            }
        ),
        ..Body::default()
    };
    let summary = text_optional(&ctx.dir, "summary.txt")?;
    let diffs = Csv::read_optional(&ctx.dir, "compare.csv", &COLUMNS)?;
    match (summary, diffs) {
        (Some(summary), Some(diffs)) => {
            body.section("summary", "In plain words", &summary_section(&summary));
            body.section("differences", "Differences from the baseline", &differences_section(&diffs, &d));
        }
        _ => body.section(
            "summary",
            "In plain words",
            "<p class=\"warn\">The comparison is not finished: <code>mtrain compare --resume</code> plays the rest (or <code>mtrain merge</code> its shards), then this page shows its results.</p>\n",
        ),
    }
    body.section("run", "The comparison", &run_section(&m, &d));
    body.section("files", "Files", &files_section(ctx, &FILES)?);
    Ok(body)
}

/// `summary.txt`, a paragraph per rule set and player count.
fn summary_section(text: &str) -> String {
    let mut s = String::new();
    for para in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        let _ = writeln!(s, "<p class=\"plain\">{}</p>", esc(para));
    }
    s
}

/// A difference as a cell: in points for a share, as it is for a count, with its adjusted
/// interval; its class says the verdict.
fn cell(r: &super::read::Row<'_>, share: bool) -> String {
    let f = |col: &str| r.get(col).parse::<f64>().ok();
    let (Some(v), Some(lo), Some(hi)) = (f("difference"), f("adjusted_lo"), f("adjusted_hi")) else {
        return "<span class=\"none\">&#8211;</span>".into();
    };
    let k = if share { 100.0 } else { 1.0 };
    let (class, word) = match r.get("verdict") {
        "changes" => ("chg", "changes"),
        "no_change" => ("same", "no change"),
        _ => ("open", "undecided"),
    };
    format!(
        "<span class=\"{class}\"><span class=\"v\">{:+.1}</span> <span class=\"ci\">[{:+.1}, {:+.1}]</span> <span class=\"word\">{word}</span></span>",
        k * v,
        k * lo,
        k * hi
    )
}

/// `compare.csv`'s headline figures: a table per compared rule set and player count, a row per
/// hand size.
fn differences_section(diffs: &Csv, d: &Details) -> String {
    let mut s = format!(
        "<p class=\"note\">Each figure under the rule set minus the baseline's, on the same deals, with its interval adjusted for every difference in <code>compare.csv</code> (all hold at once with 95% confidence). Shares are in percentage points. A change counts beyond a margin of {:.1} points on shares and {:.0}% of the baseline's figure on counts: <span class=\"chg\">changes</span>, <span class=\"same\">no change</span> (no measurable change at the margin), <span class=\"open\">undecided</span> (more games would tell). Minutes at {} seconds a turn. Every figure is in <code>compare.csv</code>.</p>\n",
        100.0 * d.margin,
        100.0 * d.relative_margin,
        d.seconds_per_turn
    );
    let mut groups: Vec<(String, String, String)> = Vec::new();
    for r in diffs.rows() {
        let g = (r.get("ruleset").to_string(), r.get("players").to_string(), r.get("baseline").to_string());
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    let shares = ["blocked_rate", "match_first_player_advantage", "skill", "skill_ceiling"];
    for (set, players, baseline) in &groups {
        let mut cols = vec!["#hand".to_string()];
        cols.extend(HEADLINE.iter().map(|(_, h)| format!("#{}", h.trim_end_matches(" (pt)"))));
        let cols: Vec<&str> = cols.iter().map(String::as_str).collect();
        let mut t = Table::new("differences", &cols);
        let mut hands: Vec<String> = Vec::new();
        for r in diffs.rows().filter(|r| r.get("ruleset") == set && r.get("players") == players) {
            if !hands.iter().any(|h| h == r.get("hand")) {
                hands.push(r.get("hand").to_string());
            }
        }
        for hand in &hands {
            let mut cells = vec![format!("<b>{}</b>", esc(hand))];
            for (name, _) in HEADLINE {
                let row = diffs.rows().find(|r| {
                    r.get("ruleset") == set
                        && r.get("players") == players
                        && r.get("hand") == hand
                        && r.get("metric") == name
                });
                cells.push(
                    row.map_or("<span class=\"none\">&#8211;</span>".into(), |r| cell(&r, shares.contains(&name))),
                );
            }
            t.row(format!("data-hand=\"{}\"", esc(hand)), cells);
        }
        let _ = writeln!(s, "<h3>{} against {}, {} players</h3>", code(set), code(baseline), esc(players));
        s.push_str(&t.html());
    }
    s
}

/// The comparison: rule sets, field, games, margins, seed, build, times, command.
fn run_section(m: &Manifest, d: &Details) -> String {
    let mut sets = String::from("<ol class=\"rulesets\">");
    for (i, r) in d.rulesets.iter().enumerate() {
        let changes = if r.changes.is_empty() {
            "the preset as published".to_string()
        } else {
            r.changes.iter().map(|c| code(c)).collect::<Vec<_>>().join(", ")
        };
        let _ = write!(
            sets,
            "<li>{}{}: {} with {changes}</li>",
            code(&r.name),
            if i == 0 { " (baseline)" } else { "" },
            code(&r.preset)
        );
    }
    sets.push_str("</ol>");
    let mut games = match (m.games, m.games_planned) {
        (Some(g), Some(p)) => format!("{g} of {p} played"),
        (Some(g), None) => g.to_string(),
        _ => "not recorded".into(),
    };
    if !m.complete {
        games.push_str("; incomplete: <code>mtrain compare --resume</code> plays the rest");
    }
    let by = if m.subcommand == "merge" { "mtrain merge of shards, by " } else { "" };
    facts(&[
        ("Rule sets", sets),
        (
            "Table",
            format!(
                "double-{}, {} players, hand sizes {}, {} rounds",
                m.rules.set,
                esc(&ranges(&m.rules.players)),
                esc(&ranges(&m.rules.hand)),
                m.rules.rounds
            ),
        ),
        ("Population", esc(&m.field.join(", "))),
        ("Games", games),
        (
            "Verdicts",
            format!(
                "margin {:.1} points on shares, {:.0}% of the baseline on counts; intervals adjusted for every difference (Bonferroni)",
                100.0 * d.margin,
                100.0 * d.relative_margin
            ),
        ),
        ("Minutes", format!("{} seconds a turn", d.seconds_per_turn)),
        ("Seed", format!("<span class=\"seed\">{}</span>", m.seed)),
        ("Build", format!("{by}{}", build_html(&m.version, m.commit.as_deref()))),
        ("When", when_html(&m.started, &m.ended, m.elapsed_seconds)),
        ("Command", command_html(&m.command)),
    ])
}
