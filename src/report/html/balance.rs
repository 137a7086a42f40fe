//! The report of a balance folder (`mtrain balance --out`): the sweep from `manifest.json`, the
//! recommendation per player count from `recommendation.csv`, every plot of the folder inline,
//! and the files.

use super::read::{Csv, Est, Manifest, Row, json};
use super::{
    Body, Ctx, ReportError, Table, build_html, changed_html, code, command_html, esc, est_html, facts, files_section,
    num_est, pct_est, plot_figure, ranges, when_html,
};
use crate::balance::METRICS;
use std::fmt::Write as _;

/// What each file of a balance folder holds.
const FILES: [(&str, &str); 5] = [
    ("recommendation.csv", "the pick per player count, with its figures"),
    ("balance.csv", "every metric per player count and hand size"),
    ("decisions.csv", "every cell's verdict per criterion"),
    ("manifest.json", "what was run: command, build, rules, limits, seed, times"),
    ("tally.json", "the sweep's exact sums, for merging and resuming"),
];

/// The columns of `recommendation.csv` the page reads.
const COLUMNS: [&str; 29] = [
    "objective",
    "players",
    "recommended_hand",
    "reference_hand",
    "fallback",
    "candidates",
    "games",
    "first_player",
    "defects",
    "on_limit",
    "undecided",
    "blocked_rate",
    "blocked_rate_lo",
    "blocked_rate_hi",
    "first_player_advantage",
    "first_player_advantage_lo",
    "first_player_advantage_hi",
    "match_first_player_advantage",
    "match_first_player_advantage_lo",
    "match_first_player_advantage_hi",
    "skill",
    "skill_lo",
    "skill_hi",
    "skill_ceiling",
    "skill_ceiling_lo",
    "skill_ceiling_hi",
    "turns",
    "turns_lo",
    "turns_hi",
];

/// The columns of `decisions.csv` the page reads.
const DECISION_COLUMNS: [&str; 5] = ["players", "hand", "criterion", "verdict", "games"];

/// What a criterion beyond its limit says of a hand size, in plain words.
fn defect_words(criterion: &str) -> &'static str {
    match criterion {
        "blocked" => "end too many rounds blocked",
        "first_player" => "give the first player too large an edge",
        "skill" => "leave too little room for skill",
        "skill_ceiling" => "leave too little to luck",
        _ => "show a defect",
    }
}

/// Hand sizes as English ranges: `5-8 and 13`.
fn hands_words(h: &[u8]) -> String {
    ranges(h).replace(' ', ", ")
}

/// The opening sentences: per player count, the hand to deal and why, which sizes fail and
/// what they get wrong, which all work, and how long a match takes (from `recommendation.csv`
/// and `decisions.csv`).
fn plain_section(rec: &Csv, decisions: Option<&Csv>) -> String {
    let mut s = String::new();
    for r in rec.rows() {
        let players = r.get("players");
        let pick = r.get("recommended_hand");
        let published = r.get("reference_hand");
        if pick.is_empty() {
            let _ = writeln!(s, "<p class=\"plain\">At {} players no hand size can be recommended.</p>", esc(players));
            continue;
        }
        let mut text = format!("<b>Deal {} at {} players.</b> ", esc(pick), esc(players));
        let ranked = r.get("ranked_by");
        text.push_str(&match r.get("pick_reason") {
            "published" => "It is the hand the rules publish, and it shows no defect.".to_string(),
            "published_kept" => {
                format!("It is the hand the rules publish, and no other size is measurably better by {}.", esc(ranked))
            }
            "measurably_better" => format!(
                "It is measurably better by {} than the {} tiles the rules publish.",
                esc(ranked),
                esc(published)
            ),
            "nearest_to_published" => format!(
                "The {} tiles the rules publish show a defect; {} is the nearest size without one.",
                esc(published),
                esc(pick)
            ),
            _ => String::new(),
        });
        if r.get("fallback") == "true" {
            text.push_str(" Every size shows a defect at this table: this one has the fewest.");
        }
        if let Some(d) = decisions {
            let mut failing: Vec<(&str, Vec<u8>)> = Vec::new();
            for row in d.rows().filter(|x| x.get("players") == players && x.get("verdict") == "beyond") {
                let Ok(h) = row.get("hand").parse::<u8>() else { continue };
                let c = row.get("criterion");
                match failing.iter_mut().find(|(k, _)| *k == c) {
                    Some((_, v)) => v.push(h),
                    None => failing.push((c, vec![h])),
                }
            }
            for (c, mut hands) in failing {
                hands.sort_unstable();
                hands.dedup();
                let which = if hands.len() == 1 {
                    format!("A hand of {}", hands_words(&hands))
                } else {
                    format!("Hands of {}", hands_words(&hands))
                };
                let _ = write!(text, " {which} {}.", defect_words(c));
            }
        }
        let candidates: Vec<u8> = r.get("candidates").split_whitespace().filter_map(|c| c.parse().ok()).collect();
        if candidates.len() > 1 {
            let _ = write!(text, " Hands of {} all work.", esc(&hands_words(&candidates)));
        }
        if let Ok(m) = r.get("match_minutes").parse::<f64>() {
            let _ = write!(text, " A match of {} takes about {:.0} minutes.", esc(pick), m);
        }
        let _ = writeln!(s, "<p class=\"plain\">{text}</p>");
    }
    s
}

/// `decisions.csv` as a table per player count: a row per hand size, a column per criterion,
/// each cell the verdict.
fn verdicts_section(d: &Csv) -> String {
    let mut s = String::from(
        "<p class=\"note\">Every hand size against every limit (<code>decisions.csv</code>): <span class=\"chg\">beyond</span> is a defect; within, on the limit (past it by less than the margin), undecided (no defect) and unknown are not.</p>\n",
    );
    let mut counts: Vec<&str> = Vec::new();
    for r in d.rows() {
        if !counts.contains(&r.get("players")) {
            counts.push(r.get("players"));
        }
    }
    for p in counts {
        let mut t = Table::new("verdicts", &["#hand", "#games", "blocked", "first player", "skill", "luck"]);
        let mut hands: Vec<&str> = Vec::new();
        for r in d.rows().filter(|r| r.get("players") == p) {
            if !hands.contains(&r.get("hand")) {
                hands.push(r.get("hand"));
            }
        }
        for h in hands {
            let of =
                |c: &str| d.rows().find(|r| r.get("players") == p && r.get("hand") == h && r.get("criterion") == c);
            let games = of("blocked").map_or(String::new(), |r| esc(r.get("games")));
            let mut cells = vec![format!("<b>{}</b>", esc(h)), games];
            for c in ["blocked", "first_player", "skill", "skill_ceiling"] {
                cells.push(of(c).map_or("<span class=\"none\">&#8211;</span>".into(), |r| {
                    let v = r.get("verdict");
                    let class = if v == "beyond" { "chg" } else { "same" };
                    format!("<span class=\"{class}\">{}</span>", esc(&v.replace('_', " ")))
                }));
            }
            t.row(format!("data-hand=\"{}\"", esc(h)), cells);
        }
        let _ = writeln!(s, "<h3>{} players</h3>", esc(p));
        s.push_str(&t.html());
    }
    s
}

/// The rules presets, whose published hands `recommendation.csv` lists in columns of their names.
const PRESETS: [&str; 5] = ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"];

/// The page of the sweep in `ctx`'s folder.
pub(super) fn page(ctx: &Ctx) -> Result<Body, ReportError> {
    let m: Manifest = json(&ctx.dir, "manifest.json")?;
    let rec = Csv::read(&ctx.dir, "recommendation.csv")?;
    rec.require(&COLUMNS)?;
    let players = ranges(&m.rules.players);
    let mut body = Body {
        lede: format!(
            "hand sizes {} at {} players; {} rules, double-{}; {} games; seed {}{}",
            esc(&ranges(&m.rules.hand)),
            esc(&players),
            esc(&m.rules.preset),
            m.rules.set,
            m.games.map_or("?".to_string(), |g| g.to_string()),
            m.seed,
            if m.complete {
                " <span class=\"badge ok\">complete</span>"
            } else {
                " <span class=\"badge warn\">incomplete</span>"
            }
        ),
        ..Body::default()
    };
    let decisions = Csv::read_optional(&ctx.dir, "decisions.csv", &DECISION_COLUMNS)?;
    body.section("plain", "In plain words", &plain_section(&rec, decisions.as_ref()));
    body.section("recommendation", "Recommendation", &recommendation_section(&rec)?);
    if let Some(d) = &decisions {
        body.section("verdicts", "Every hand size", &verdicts_section(d));
    }
    body.section("run", "The sweep", &run_section(&m));
    body.section("plots", "Plots", &plots_section(ctx)?);
    body.section("files", "Files", &files_section(ctx, &FILES)?);
    Ok(body)
}

/// The sweep's header: rules, population, objective, limits, games, seed, build, times.
fn run_section(m: &Manifest) -> String {
    let r = &m.rules;
    let mut items: Vec<(&str, String)> = vec![
        (
            "Rules",
            format!(
                "{}, double-{}, {} players, hand sizes {}, {} rounds",
                code(&r.preset),
                r.set,
                esc(&ranges(&r.players)),
                esc(&ranges(&r.hand)),
                r.rounds
            ),
        ),
        ("Changed rules", changed_html(&r.changed)),
        ("Population", m.population.as_deref().map_or_else(|| esc(&m.field.join(", ")), esc)),
    ];
    if let Some(o) = &m.objective {
        items.push(("Objective", code(o)));
    }
    if let Some(l) = &m.limits {
        let f = |k: &str| l.get(k).and_then(serde_json::Value::as_f64);
        let mut parts = Vec::new();
        if let Some(v) = f("max_blocked") {
            parts.push(format!("blocked rounds at most {:.1}%", 100.0 * v));
        }
        if let Some(v) = f("max_first_edge") {
            let judged = l.get("first_player").and_then(serde_json::Value::as_str).unwrap_or("match");
            parts.push(format!("first player's edge at most {:.1} points (judged per {})", 100.0 * v, esc(judged)));
        }
        if let Some(v) = f("min_skill") {
            parts.push(format!("skill at least {v:.3}"));
        }
        if let Some(v) = f("max_skill") {
            parts.push(format!("luck: the second bot's score at most {v:.3}"));
        }
        if let Some(v) = f("margin") {
            parts.push(format!("margin {:.1} points", 100.0 * v));
        }
        items.push(("Limits", parts.join("; ")));
    }
    let mut games = match (m.games, m.games_planned) {
        (Some(g), Some(p)) => format!("{g} played ({p} at the first look)"),
        (Some(g), None) => g.to_string(),
        _ => "not recorded".into(),
    };
    if let (Some(c), Some(per), Some(max)) = (m.cells, m.games_per_cell, m.max_games_per_cell) {
        games.push_str(&format!("; {c} cells of {per} games, up to {max} where undecided"));
    }
    if !m.complete {
        games.push_str("; incomplete: <code>mtrain balance --resume</code> plays the rest");
    }
    items.push(("Games", games));
    items.push(("Seed", format!("<span class=\"seed\">{}</span>", m.seed)));
    if let Some(s) = &m.shard {
        items.push(("Shard", esc(s)));
    }
    let by = if m.subcommand == "merge" { "mtrain merge of shards, by " } else { "" };
    items.push(("Build", format!("{by}{}", build_html(&m.version, m.commit.as_deref()))));
    items.push(("When", when_html(&m.started, &m.ended, m.elapsed_seconds)));
    items.push(("Command", command_html(&m.command)));
    let mut s = facts(&items);
    if let Some(d) = &m.objective_description {
        s.push_str(&format!("<details><summary>How the pick is made</summary><p>{}</p></details>\n", esc(d)));
    }
    s
}

/// A figure of the recommendation by its column name.
fn figure(r: &Row<'_>, name: &str) -> Result<Est, ReportError> {
    r.interval(name, &format!("{name}_lo"), &format!("{name}_hi"))
}

/// An advantage in percentage points with its sign: `+0.3 [-0.8, +1.3]`.
fn points_est(e: Est) -> String {
    est_html(e, |v| format!("{:+.1}", 100.0 * v))
}

/// `recommendation.csv`: the pick per player count with the figures it rests on.
fn recommendation_section(rec: &Csv) -> Result<String, ReportError> {
    let first = rec.row(0).map_or("match", |r| r.get("first_player"));
    let edge_head = "#first player's edge".to_string();
    // Match minutes where the sweep wrote them (a sweep of an older mtrain has none).
    let minutes = rec.has("match_minutes");
    let mut cols = vec![
        "#players",
        "#pick",
        "#published",
        "candidates",
        "#games",
        "#blocked",
        &edge_head,
        "#skill",
        "#luck",
        "#turns",
    ];
    if minutes {
        cols.push("#minutes a match");
    }
    cols.push("verdicts at the pick");
    let mut t = Table::new("recommendation stack", &cols);
    let mut any_fallback = false;
    for r in rec.rows() {
        let fallback = r.get("fallback") == "true";
        any_fallback |= fallback;
        let pick = match r.get("recommended_hand") {
            "" => "&#8211;".to_string(),
            h if fallback => format!("<b class=\"pick\">{}</b>*", esc(h)),
            h => format!("<b class=\"pick\">{}</b>", esc(h)),
        };
        let candidates: Vec<u8> = r.get("candidates").split_whitespace().filter_map(|c| c.parse().ok()).collect();
        let edge_col = if first == "round" { "first_player_advantage" } else { "match_first_player_advantage" };
        let mut verdicts = Vec::new();
        for (col, words) in [("defects", "defects"), ("on_limit", "on the limit"), ("undecided", "undecided")] {
            let v = r.get(col).trim();
            if !v.is_empty() {
                verdicts.push(format!("{words}: {}", esc(&v.replace(' ', ", "))));
            }
        }
        let mut cells = vec![
            esc(r.get("players")),
            pick,
            esc(r.get("reference_hand")),
            esc(&ranges(&candidates)),
            esc(r.get("games")),
            pct_est(figure(&r, "blocked_rate")?),
            points_est(figure(&r, edge_col)?),
            num_est(figure(&r, "skill")?, 3),
            num_est(figure(&r, "skill_ceiling")?, 3),
            num_est(figure(&r, "turns")?, 1),
        ];
        if minutes {
            cells.push(num_est(figure(&r, "match_minutes")?, 0));
        }
        cells.push(if verdicts.is_empty() { "no defect".to_string() } else { verdicts.join("; ") });
        t.row(format!("data-players=\"{}\"", esc(r.get("players"))), cells);
    }
    let objective = rec.row(0).map_or("", |r| r.get("objective"));
    let mut s = format!(
        "<p class=\"note\">Objective {}: the recommended hand size per player count (<b>pick</b>), the hand the preset publishes, the candidates the objective chose from, and the pick's figures with 95% intervals. First player's edge: percentage points above the fair share 1/N, judged per {}. Skill: the first bot's head-to-head score against the last; luck: the second's against the last.</p>\n",
        code(objective),
        esc(first)
    );
    s.push_str(&t.html());
    if any_fallback {
        s.push_str("<p class=\"note\">* every hand size shows a defect at that player count: the candidates are those with the fewest blocked or first-player defects.</p>\n");
    }
    let presets: Vec<&str> = PRESETS.iter().copied().filter(|p| rec.has(p)).collect();
    if !presets.is_empty() {
        let heads: Vec<String> = presets.iter().map(|p| format!("#{p}")).collect();
        let mut cols = vec!["#players"];
        cols.extend(heads.iter().map(String::as_str));
        let mut t = Table::new("published", &cols);
        for r in rec.rows() {
            let mut cells = vec![esc(r.get("players"))];
            cells.extend(presets.iter().map(|p| match r.get(p) {
                "" => "<span class=\"none\">&#8211;</span>".to_string(),
                h => esc(h),
            }));
            t.row(format!("data-players=\"{}\"", esc(r.get("players"))), cells);
        }
        s.push_str("<h3>The hands the presets publish</h3>\n<p class=\"note\">Tiles per player in each preset's deal table for this set (&#8211;: the preset does not deal this table).</p>\n");
        s.push_str(&t.html());
    }
    Ok(s)
}

/// Every SVG of the folder, inline: the metrics in the sweep's order, then any other plot.
fn plots_section(ctx: &Ctx) -> Result<String, ReportError> {
    let mut names: Vec<String> = std::fs::read_dir(&ctx.dir)
        .map_err(|e| {
            ReportError(format!("cannot read the folder '{}': {}", ctx.dir.display(), crate::store::io_text(&e)))
        })?
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    let rank = |n: &str| METRICS.iter().position(|m| format!("{}.svg", m.name) == n).unwrap_or(METRICS.len());
    names.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
    if names.is_empty() {
        return Ok(
            "<p>The folder holds no plots (<code>--metrics</code> chose none, or the sweep is not finished).</p>\n"
                .into(),
        );
    }
    let mut s = String::from("<div class=\"plots\">\n");
    for n in &names {
        let label = METRICS.iter().find(|m| format!("{}.svg", m.name) == *n).map_or("", |m| m.label);
        s.push_str(&plot_figure(ctx, n, label)?);
    }
    s.push_str("</div>\n");
    Ok(s)
}
