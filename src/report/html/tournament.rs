//! The report of a tournament folder (`mtrain tournament --out`, `mtrain merge`): the run from
//! `manifest.json`, then `summary.csv`, `ratings.csv` (a chart and a table), `pairs.csv` (a
//! crosstable and the head-to-head table), `seats.csv` and `round_stats.csv`, and the files.

use super::read::{Csv, Manifest, json};
use super::svg::{Rated, ratings_chart};
use super::{
    Body, Ctx, ReportError, Table, build_html, changed_html, code, command_html, elo_est, esc, facts, files_section,
    num_est, pct, pct_est, spec_code, when_html,
};
use std::fmt::Write as _;

/// What each file of a tournament folder holds.
pub(super) const FILES: [(&str, &str); 9] = [
    ("summary.csv", "one row per bot: win rate, scores, ranks"),
    ("ratings.csv", "the field on one Elo scale (Bradley-Terry)"),
    ("pairs.csv", "head to head, one row per pair of bots"),
    ("seats.csv", "one row per seat: the turn-order advantage"),
    ("round_stats.csv", "per-round and per-game figures"),
    ("games.csv", "one row per game and seat (--per-game)"),
    ("rounds.csv", "one row per round (--per-game)"),
    ("manifest.json", "what was run: command, build, rules, seed, times"),
    ("tally.json", "the run's exact sums, for merging and resuming"),
];

/// The page of the tournament in `ctx`'s folder.
pub(super) fn page(ctx: &Ctx) -> Result<Body, ReportError> {
    let m: Manifest = json(&ctx.dir, "manifest.json")?;
    let summary = Csv::read(&ctx.dir, "summary.csv")?;
    summary.require(&[
        "strategy",
        "sees_hidden",
        "games",
        "win_rate",
        "win_lo",
        "win_hi",
        "mean_score",
        "score_lo",
        "score_hi",
        "round_score",
        "round_score_lo",
        "round_score_hi",
        "out_rate",
        "out_lo",
        "out_hi",
    ])?;
    let ratings = Csv::read(&ctx.dir, "ratings.csv")?;
    ratings.require(&["bot", "elo", "elo_lo", "elo_hi", "se", "comparisons", "anchor"])?;
    let pairs = Csv::read(&ctx.dir, "pairs.csv")?;
    pairs.require(&[
        "a",
        "b",
        "comparisons",
        "a_ahead",
        "b_ahead",
        "ties",
        "a_score",
        "a_score_lo",
        "a_score_hi",
        "elo",
        "elo_lo",
        "elo_hi",
    ])?;
    let seats = Csv::read(&ctx.dir, "seats.csv")?;
    seats.require(&[
        "seat",
        "games",
        "win_rate",
        "win_lo",
        "win_hi",
        "advantage",
        "mean_score",
        "score_lo",
        "score_hi",
        "out_rate",
        "out_lo",
        "out_hi",
    ])?;
    let rounds = Csv::read_optional(&ctx.dir, "round_stats.csv", &["metric", "per", "count", "value", "lo", "hi"])?;
    let players = m.rules.players.first().copied().unwrap_or(0);
    let mut body = Body {
        lede: format!(
            "{} bots at {} players, {} games; {} rules, double-{}; seed {}{}",
            m.field.len(),
            players,
            m.games.map_or("?".to_string(), |g| g.to_string()),
            esc(&m.rules.preset),
            m.rules.set,
            m.seed,
            status_badge(&m)
        ),
        ..Body::default()
    };
    body.section("run", "The run", &run_section(&m));
    body.section("bots", "Bots", &summary_section(&summary, players)?);
    let order = rating_order(&ratings)?;
    body.section("ratings", "Ratings", &ratings_section(&ratings, &order, &m)?);
    let ranked: Vec<String> = order.iter().filter_map(|&i| ratings.row(i)).map(|r| r.get("bot").to_string()).collect();
    body.section("pairs", "Head to head", &pairs_section(&pairs, &ranked)?);
    body.section("seats", "Seats", &seats_section(&seats, players)?);
    if let Some(r) = &rounds {
        body.section("rounds", "Rounds and games", &round_stats_section(r)?);
    }
    body.section("files", "Files", &files_section(ctx, &FILES)?);
    Ok(body)
}

/// `complete`, `stopped by the SPRT` or `interrupted`, as a badge after the lede.
fn status_badge(m: &Manifest) -> String {
    match (m.complete, m.stopped.as_deref()) {
        (_, Some("sprt")) => " <span class=\"badge\">stopped by the SPRT</span>".into(),
        (false, _) => " <span class=\"badge warn\">incomplete</span>".into(),
        _ => " <span class=\"badge ok\">complete</span>".into(),
    }
}

/// The run's header: rules, field, games, seating, SPRT, seed, build, times, command.
fn run_section(m: &Manifest) -> String {
    let r = &m.rules;
    let hand = match r.hand.first() {
        Some(h) => format!("{h} tiles each"),
        None => "the deal table's hand".to_string(),
    };
    let players = r.players.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
    let mut items: Vec<(&str, String)> = vec![
        ("Rules", format!("{}, double-{}, {players} players, {hand}, {} rounds", code(&r.preset), r.set, r.rounds)),
        ("Changed rules", changed_html(&r.changed)),
    ];
    let games = match (m.games, m.games_planned, m.deals) {
        (Some(g), Some(p), Some(d)) => format!("{g} of {p} planned ({d} deals)"),
        (Some(g), _, _) => g.to_string(),
        _ => "not recorded".into(),
    };
    let state = match (m.complete, m.stopped.as_deref()) {
        (_, Some("sprt")) => "; stopped early: the SPRT decided".to_string(),
        (true, _) => "; complete".to_string(),
        (false, Some(why)) => {
            format!("; incomplete ({}): <code>mtrain tournament --resume</code> plays the rest", esc(why))
        }
        (false, None) => "; incomplete".to_string(),
    };
    items.push(("Games", games + &state));
    let mut seating = Vec::new();
    match m.rotate {
        Some(true) => seating.push("every seat rotation of each deal".to_string()),
        Some(false) => seating.push("no rotation (--no-rotate)".to_string()),
        None => {}
    }
    match (m.seating.as_deref(), m.seating_orders) {
        (Some("varied"), Some(0)) => seating.push("a random order around the table per deal".into()),
        (Some("varied"), Some(n)) => {
            seating.push(format!("the order around the table varied over deals ({n} orders in turn)"))
        }
        (Some("fixed"), _) => seating.push("the list's order around the table".into()),
        _ => {}
    }
    if m.replays_skipped == Some(true) {
        seating.push("one deterministic bot in every seat: each deal played once".into());
    }
    if !seating.is_empty() {
        items.push(("Seating", seating.join("; ")));
    }
    if let Some(s) = &m.sprt {
        let verdict = match s.decision.as_str() {
            "H1" => format!("H1 accepted (elo &#8805; {})", s.elo1),
            "H0" => format!("H0 accepted (elo &#8804; {})", s.elo0),
            _ => "undecided".to_string(),
        };
        items.push((
            "SPRT",
            format!(
                "elo0 {}, elo1 {}, &#945; {}, &#946; {}: {verdict}; LLR {:.2} (bounds {:.2}, {:.2})",
                s.elo0, s.elo1, s.alpha, s.beta, s.llr, s.lower, s.upper
            ),
        ));
    }
    if let Some(g) = &m.gauntlet {
        items.push(("Gauntlet", format!("{} at every table", code(g))));
    }
    items.push(("Seed", format!("<span class=\"seed\">{}</span>", m.seed)));
    if let Some(s) = &m.shard {
        items.push(("Shard", format!("{} of the deals", esc(s))));
    }
    let by = if m.subcommand == "merge" { "mtrain merge of shards, by " } else { "" };
    items.push(("Build", format!("{by}{}", build_html(&m.version, m.commit.as_deref()))));
    items.push(("When", when_html(&m.started, &m.ended, m.elapsed_seconds)));
    items.push(("Command", command_html(&m.command)));
    let mut s = facts(&items);
    s.push_str(&field_table(m));
    s
}

/// The field: each bot's name, full spec and role.
fn field_table(m: &Manifest) -> String {
    let mut t = Table::new("field", &["bot", "spec", "note"]);
    let bots: Vec<(String, String, bool)> = if m.bot_specs.is_empty() {
        m.field.iter().map(|f| (f.clone(), f.clone(), false)).collect()
    } else {
        m.bot_specs.iter().map(|b| (b.name.clone(), b.spec.clone(), b.sees_hidden)).collect()
    };
    for (name, spec, hidden) in bots {
        let mut notes = Vec::new();
        if m.anchor.as_deref() == Some(name.as_str()) {
            notes.push("rating anchor (0)");
        }
        if m.gauntlet.as_deref() == Some(name.as_str()) {
            notes.push("gauntlet");
        }
        if hidden {
            notes.push("sees hidden tiles: a ceiling of play, not a player");
        }
        t.row(format!("data-bot=\"{}\"", esc(&name)), vec![esc(&name), spec_code(&spec), notes.join("; ")]);
    }
    format!("<h3>Field</h3>\n{}", t.html())
}

/// A bot's name as a cell, marked when it sees hidden tiles.
fn bot_cell(name: &str, hidden: bool) -> String {
    if hidden {
        format!(
            "{} <span class=\"badge warn\" title=\"sees every hand: a ceiling of play, not a player\">sees hidden</span>",
            esc(name)
        )
    } else {
        esc(name)
    }
}

/// `summary.csv`: a row per bot; with more than two players, the finishing ranks too.
fn summary_section(summary: &Csv, players: u8) -> Result<String, ReportError> {
    let mut t = Table::new(
        "summary",
        &["bot", "#games", "#win rate", "#match score (lower wins)", "#round score", "#rounds gone out"],
    );
    for r in summary.rows() {
        t.row(
            format!("data-bot=\"{}\"", esc(r.get("strategy"))),
            vec![
                bot_cell(r.get("strategy"), r.get("sees_hidden") == "1"),
                esc(r.get("games")),
                pct_est(r.interval("win_rate", "win_lo", "win_hi")?),
                num_est(r.interval("mean_score", "score_lo", "score_hi")?, 1),
                num_est(r.interval("round_score", "round_score_lo", "round_score_hi")?, 1),
                pct_est(r.interval("out_rate", "out_lo", "out_hi")?),
            ],
        );
    }
    let mut s = String::from(
        "<p class=\"note\">Co-winners share a win; a match's order is the lower total, then the rules' tie-break.</p>\n",
    );
    s.push_str(&t.html());
    let ranks: Vec<String> = (1..=players).map(|k| format!("rank{k}")).collect();
    if players > 2 && ranks.iter().all(|k| summary.has(k)) {
        let heads: Vec<String> = ranks.iter().map(|k| format!("#{}", k.replace("rank", "rank "))).collect();
        let mut cols = vec!["bot"];
        cols.extend(heads.iter().map(String::as_str));
        let mut rt = Table::new("ranks", &cols);
        for r in summary.rows() {
            let mut cells = vec![esc(r.get("strategy"))];
            for k in &ranks {
                cells.push(pct_est(r.interval(k, &format!("{k}_lo"), &format!("{k}_hi"))?));
            }
            rt.row(format!("data-bot=\"{}\"", esc(r.get("strategy"))), cells);
        }
        s.push_str("<h3>Finishing ranks (share of games)</h3>\n");
        s.push_str(&rt.html());
    }
    Ok(s)
}

/// The rows of `ratings.csv`, best first (a bot without a rating last), as row indexes.
fn rating_order(ratings: &Csv) -> Result<Vec<usize>, ReportError> {
    let mut keyed = Vec::new();
    for (i, r) in ratings.rows().enumerate() {
        keyed.push((r.num("elo")?, i));
    }
    keyed.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => y.total_cmp(&x).then(a.1.cmp(&b.1)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.1.cmp(&b.1),
    });
    Ok(keyed.into_iter().map(|k| k.1).collect())
}

/// `ratings.csv`: the chart with error bars and the table, best first.
fn ratings_section(ratings: &Csv, order: &[usize], m: &Manifest) -> Result<String, ReportError> {
    let mut rated = Vec::new();
    let mut t = Table::new("ratings", &["bot", "#Elo", "#standard error", "#comparisons"]);
    for &i in order {
        let Some(r) = ratings.row(i) else { continue };
        let e = r.interval("elo", "elo_lo", "elo_hi")?;
        let anchor = r.get("anchor") == "1";
        if let Some(elo) = e.value {
            rated.push(Rated { name: r.get("bot").to_string(), elo, lo: e.lo, hi: e.hi, anchor });
        }
        let elo = if anchor {
            "<span class=\"v\">0</span> <span class=\"ci\">(anchor)</span>".to_string()
        } else {
            elo_est(e)
        };
        t.row(
            format!("data-bot=\"{}\"", esc(r.get("bot"))),
            vec![bot_cell(r.get("bot"), r.get("sees_hidden") == "1"), elo, esc(r.get("se")), esc(r.get("comparisons"))],
        );
    }
    let anchor = m.anchor.as_deref().map_or(String::new(), |a| format!(", {} = 0", code(a)));
    let mut s = format!(
        "<p class=\"note\">Elo on one scale, Bradley-Terry over every head-to-head comparison{anchor}; +100 means finishing ahead about 64% of the time. Intervals over deals.</p>\n"
    );
    if !rated.is_empty() {
        let _ = writeln!(s, "<figure class=\"chart\">{}</figure>", ratings_chart(&rated));
    }
    s.push_str(&t.html());
    Ok(s)
}

/// `pairs.csv`: a crosstable (wins, losses and draws of the row's bot against the column's,
/// and its score) with the bots in the order `ranked` (best rated first), then the table as the
/// file has it.
fn pairs_section(pairs: &Csv, ranked: &[String]) -> Result<String, ReportError> {
    let mut bots: Vec<String> = ranked.to_vec();
    for r in pairs.rows() {
        for b in [r.get("a"), r.get("b")] {
            if !bots.iter().any(|x| x == b) {
                bots.push(b.to_string());
            }
        }
    }
    let mut s = String::new();
    if bots.len() > 1 {
        let mut cols: Vec<String> = vec![String::from("against →")];
        cols.extend(bots.iter().cloned());
        let refs: Vec<&str> = cols.iter().map(String::as_str).collect();
        let mut ct = Table::new("crosstable", &refs);
        for row in &bots {
            let mut cells = vec![format!("<b>{}</b>", esc(row))];
            for col in &bots {
                cells.push(if row == col {
                    "<span class=\"none\">&#183;</span>".to_string()
                } else {
                    cross_cell(pairs, row, col)?
                });
            }
            ct.row(format!("data-bot=\"{}\"", esc(row)), cells);
        }
        s.push_str("<p class=\"note\">Each cell: the row's bot against the column's, as wins&#8211;losses&#8211;draws (finishing ahead, behind, level), and its score (a draw counts half).</p>\n");
        s.push_str(&ct.html());
    }
    let mut t = Table::new(
        "pairs",
        &["a", "b", "#comparisons", "#a ahead", "#b ahead", "#ties", "#a's score", "#Elo a over b"],
    );
    for r in pairs.rows() {
        t.row(
            format!("data-a=\"{}\" data-b=\"{}\"", esc(r.get("a")), esc(r.get("b"))),
            vec![
                esc(r.get("a")),
                esc(r.get("b")),
                esc(r.get("comparisons")),
                esc(r.get("a_ahead")),
                esc(r.get("b_ahead")),
                esc(r.get("ties")),
                pct_est(r.interval("a_score", "a_score_lo", "a_score_hi")?),
                elo_est(r.interval("elo", "elo_lo", "elo_hi")?),
            ],
        );
    }
    if pairs.len() == 0 {
        s.push_str("<p>One bot: no pairs.</p>\n");
    } else {
        s.push_str("<h3>Pairs</h3>\n");
        s.push_str(&t.html());
    }
    Ok(s)
}

/// The crosstable cell of `row` against `col`, from their row of `pairs.csv` (either order).
fn cross_cell(pairs: &Csv, row: &str, col: &str) -> Result<String, ReportError> {
    for r in pairs.rows() {
        let (w, l, score) = if r.get("a") == row && r.get("b") == col {
            (r.get("a_ahead"), r.get("b_ahead"), r.num("a_score")?)
        } else if r.get("a") == col && r.get("b") == row {
            (r.get("b_ahead"), r.get("a_ahead"), r.num("a_score")?.map(|s| 1.0 - s))
        } else {
            continue;
        };
        return Ok(format!(
            "<span class=\"wld\" data-row=\"{}\" data-col=\"{}\">{}&#8211;{}&#8211;{}</span><span class=\"sc\">{}</span>",
            esc(row),
            esc(col),
            esc(w),
            esc(l),
            esc(r.get("ties")),
            score.map_or(String::new(), pct)
        ));
    }
    Ok("<span class=\"none\">not met</span>".to_string())
}

/// `seats.csv`: a row per seat.
fn seats_section(seats: &Csv, players: u8) -> Result<String, ReportError> {
    let mut t = Table::new(
        "seats",
        &["seat", "#games", "#win rate", "#above the fair share", "#match score", "#rounds gone out"],
    );
    for r in seats.rows() {
        let adv = r.num("advantage")?.map_or("&#8211;".to_string(), |a| format!("{:+.1} points", 100.0 * a));
        t.row(
            format!("data-seat=\"{}\"", esc(r.get("seat"))),
            vec![
                esc(r.get("seat")),
                esc(r.get("games")),
                pct_est(r.interval("win_rate", "win_lo", "win_hi")?),
                adv,
                num_est(r.interval("mean_score", "score_lo", "score_hi")?, 1),
                pct_est(r.interval("out_rate", "out_lo", "out_hi")?),
            ],
        );
    }
    let fair = if players > 0 { format!(" (fair share {})", pct(1.0 / f64::from(players))) } else { String::new() };
    Ok(format!(
        "<p class=\"note\">Seats in turn order{fair}: seat 0 leads round 1 under rotating presets.</p>\n{}",
        t.html()
    ))
}

/// What a metric of `round_stats.csv` is, in words.
fn metric_words(metric: &str) -> String {
    let known = [
        ("turns", "turns per round"),
        ("draws", "tiles drawn per round"),
        ("blocked_rate", "rounds blocked (nobody goes out)"),
        ("boneyard_left", "tiles left in the boneyard"),
        ("dry_rate", "rounds that empty the boneyard"),
        ("no_start_rate", "seats with no tile for their own train at their first turn"),
        ("winner_margin", "winner's margin (points)"),
        ("score_spread", "highest total minus lowest"),
        ("lead_changes", "lead changes per match"),
    ];
    if let Some((_, w)) = known.iter().find(|k| k.0 == metric) {
        return (*w).to_string();
    }
    let pos = |suffix: &str| metric.strip_prefix("position").and_then(|m| m.strip_suffix(suffix));
    if let Some(k) = pos("_round_win") {
        return format!("rounds won by the {k}{} seat to act", ordinal(k));
    }
    if let Some(k) = pos("_match_win") {
        return if k == "1" {
            "matches won by round 1's first player".to_string()
        } else {
            format!("matches won by the {k}{} seat in turn order from round 1's first player", ordinal(k))
        };
    }
    String::new()
}

fn ordinal(k: &str) -> &'static str {
    match k {
        "1" => "st",
        "2" => "nd",
        "3" => "rd",
        _ => "th",
    }
}

/// `round_stats.csv`: every figure with its interval (shares as percentages).
fn round_stats_section(rounds: &Csv) -> Result<String, ReportError> {
    let mut t = Table::new("round-stats", &["metric", "what", "per", "#count", "#value"]);
    for r in rounds.rows() {
        let metric = r.get("metric");
        let share = metric.ends_with("_rate") || metric.ends_with("_win");
        let e = r.interval("value", "lo", "hi")?;
        t.row(
            format!("data-metric=\"{}\"", esc(metric)),
            vec![
                code(metric),
                esc(&metric_words(metric)),
                esc(r.get("per")),
                esc(r.get("count")),
                if share { pct_est(e) } else { num_est(e, 2) },
            ],
        );
    }
    Ok(t.html())
}
