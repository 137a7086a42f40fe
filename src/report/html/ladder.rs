//! The report of the ladder study's folder (`results/ladder/`): the league of every bot
//! (`league.csv`, `league-gap.csv`, `league-skill.csv` and their plots, when
//! `scripts/studies/study-league.sh` wrote them); then the former `expert`'s ladder
//! (`scripts/studies/study-ladder.sh`): the study from its runs' manifests, the ladder (`ladder.csv`),
//! the share of the ceiling gap (`gap.csv`), the skill curve (`skill.csv`, `skill_curve.svg`),
//! the rollout depths (`depth.csv`, when `scripts/studies/study-depth.sh` wrote it); every run under
//! `runs/`, and the files.

use super::read::{Csv, Manifest, json};
use super::{
    Body, Ctx, ReportError, Table, code, elo_est, esc, facts, files_section, num_est, pct_est, plot_figure, spec_code,
    when_html,
};
use std::collections::BTreeSet;

/// What each file of the ladder's folder holds.
const FILES: [(&str, &str); 17] = [
    ("league.csv", "every bot in one field: ratings per preset and table size"),
    ("league-gap.csv", "the share of the montecarlo-to-oracle gap each expert closes, in the league"),
    ("league-skill.csv", "each search's score against tuned weighted by time per decision"),
    ("league.md", "the league's tables, as the script writes them"),
    ("league-ratings-wikipedia.svg", "the league's ratings, wikipedia"),
    ("league-ratings-dominorules.svg", "the league's ratings, dominorules"),
    ("league-skill.svg", "skill against time"),
    ("inference.md", "inference from behaviour: how close to the truth, and what it buys"),
    ("policy-search.md", "how expert's defaults were chosen"),
    ("ladder.csv", "the former expert's ladder: each bot against the one below it"),
    ("gap.csv", "the share of the ceiling gap the former expert closes"),
    ("skill.csv", "the former expert's score by search budget"),
    ("depth.csv", "the former expert's score by rollout depth"),
    ("skill_curve.svg", "the former expert's skill curve"),
    ("tables.md", "the tables, as the script writes them"),
    ("depth.md", "the rollout-depth table"),
    ("README.md", "the study and its findings"),
];

/// A run of the study: its folder's name and manifest.
struct Run {
    name: String,
    manifest: Manifest,
}

/// The page of the ladder study in `ctx`'s folder.
pub(super) fn page(ctx: &Ctx) -> Result<Body, ReportError> {
    let ladder = Csv::read(&ctx.dir, "ladder.csv")?;
    ladder.require(&[
        "preset",
        "players",
        "a",
        "b",
        "comparisons",
        "a_score",
        "a_score_lo",
        "a_score_hi",
        "sprt_decision",
        "sprt_llr",
    ])?;
    let gap = Csv::read_optional(
        &ctx.dir,
        "gap.csv",
        &[
            "preset",
            "players",
            "ceiling",
            "expert_score",
            "expert_lo",
            "expert_hi",
            "ceiling_score",
            "ceiling_lo",
            "ceiling_hi",
            "expert_gain",
            "expert_gain_lo",
            "expert_gain_hi",
            "ceiling_gain",
            "ceiling_gain_lo",
            "ceiling_gain_hi",
            "share",
            "share_lo",
            "share_hi",
        ],
    )?;
    let skill =
        Csv::read_optional(&ctx.dir, "skill.csv", &["samples", "comparisons", "score", "score_lo", "score_hi"])?;
    let depth = Csv::read_optional(
        &ctx.dir,
        "depth.csv",
        &["players", "bot", "games", "seed", "score", "score_lo", "score_hi"],
    )?;
    let league = Csv::read_optional(
        &ctx.dir,
        "league.csv",
        &[
            "preset",
            "players",
            "rank",
            "bot",
            "sees_hidden",
            "elo",
            "elo_lo",
            "elo_hi",
            "win_rate",
            "win_lo",
            "win_hi",
            "round_score",
            "round_score_lo",
            "round_score_hi",
        ],
    )?;
    let league_gap = Csv::read_optional(
        &ctx.dir,
        "league-gap.csv",
        &[
            "preset",
            "players",
            "bot",
            "gain",
            "gain_lo",
            "gain_hi",
            "ceiling_gain",
            "ceiling_gain_lo",
            "ceiling_gain_hi",
            "share",
            "share_lo",
            "share_hi",
        ],
    )?;
    let league_skill = Csv::read_optional(
        &ctx.dir,
        "league-skill.csv",
        &["bot", "samples", "ms_per_decision", "score", "score_lo", "score_hi", "elo", "elo_lo", "elo_hi"],
    )?;
    let runs = read_runs(ctx)?;
    let mut body = Body {
        lede: match &league {
            Some(l) => format!(
                "every bot in one field ({} ratings), made by <code>scripts/studies/study-league.sh</code>; the former expert's ladder ({} steps), made by <code>scripts/studies/study-ladder.sh</code>; {} runs",
                l.len(),
                ladder.len(),
                runs.len()
            ),
            None => format!(
                "{} steps of the ladder, {} runs; made by <code>scripts/studies/study-ladder.sh</code>",
                ladder.len(),
                runs.len()
            ),
        },
        ..Body::default()
    };
    if let Some(l) = &league {
        body.section("league", "Every bot in one field", &league_section(ctx, l)?);
    }
    if let Some(g) = &league_gap {
        body.section("league-gap", "The gap to the oracle, in the league", &league_gap_section(g)?);
    }
    if let Some(k) = &league_skill {
        body.section("league-skill", "Skill against time", &league_skill_section(ctx, k)?);
    }
    let former = if league.is_some() { " of the former expert (expert-v1)" } else { "" };
    body.section("run", &format!("The study{former}"), &study_section(&runs));
    body.section("ladder", &format!("The ladder{former}"), &ladder_section(&ladder)?);
    if let Some(g) = &gap {
        body.section("gap", &format!("The ceiling gap{former}"), &gap_section(g)?);
    }
    if skill.is_some() || ctx.dir.join("skill_curve.svg").is_file() {
        body.section("skill", &format!("The skill curve{former}"), &skill_section(ctx, skill.as_ref())?);
    }
    if let Some(d) = &depth {
        body.section("depth", "Rollout depth", &depth_section(d)?);
    }
    if !runs.is_empty() {
        body.section("runs", "Runs", &runs_section(ctx, &runs));
    }
    body.section("files", "Files", &files_section(ctx, &FILES)?);
    Ok(body)
}

/// Every tournament under `runs/` (a folder with a `tally.json`), by name.
fn read_runs(ctx: &Ctx) -> Result<Vec<Run>, ReportError> {
    let dir = ctx.dir.join("runs");
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map_err(|e| ReportError(format!("cannot read the folder '{}': {}", dir.display(), crate::store::io_text(&e))))?
        .flatten()
        .filter(|e| e.path().join("tally.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort_unstable();
    names.into_iter().map(|name| Ok(Run { manifest: json(&dir.join(&name), "manifest.json")?, name })).collect()
}

/// The study's header, from its runs: rules, seeds, builds, times.
fn study_section(runs: &[Run]) -> String {
    if runs.is_empty() {
        return "<p>The folder has no <code>runs/</code> with their manifests: only the tables are shown.</p>\n".into();
    }
    let set = |f: &dyn Fn(&Manifest) -> String| runs.iter().map(|r| f(&r.manifest)).collect::<BTreeSet<String>>();
    let join = |s: BTreeSet<String>| s.into_iter().collect::<Vec<_>>().join(", ");
    let rules = join(set(&|m| format!("{} double-{}", m.rules.preset, m.rules.set)));
    let players = join(set(&|m| m.rules.players.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")));
    let changed = set(&|m| m.rules.changed.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", "));
    let seeds = join(set(&|m| m.seed.to_string()));
    let builds =
        join(set(&|m| format!("mtrain {} at {}", m.version, m.commit.as_deref().unwrap_or("an unrecorded commit"))));
    let started = runs.iter().map(|r| r.manifest.started.as_str()).min().unwrap_or("");
    let ended = runs.iter().map(|r| r.manifest.ended.as_str()).max().unwrap_or("");
    let changed = join(changed.into_iter().filter(|c| !c.is_empty()).collect());
    facts(&[
        ("Rules", esc(&rules)),
        ("Changed rules", if changed.is_empty() { "none (the presets as published)".into() } else { esc(&changed) }),
        ("Players", esc(&players)),
        ("Runs", format!("{} tournaments (listed below)", runs.len())),
        ("Seeds", format!("<span class=\"seed\">{}</span>", esc(&seeds))),
        ("Build", esc(&builds)),
        ("When", format!("from the first run's start to the last run's end: {}", when_html(started, ended, None))),
    ])
}

/// `league.csv` and its plots: every bot's rating in each cell, best first, players ranked.
fn league_section(ctx: &Ctx, league: &Csv) -> Result<String, ReportError> {
    let mut s = String::from(
        "<p class=\"note\">Every bot in one field per preset and table size, every combination of seats equally often on duplicate deals; Bradley-Terry ratings over every head-to-head comparison (Elo, <code>greedy</code> = 0), 95% intervals over deals. The rank is among players: a bot that sees every hand is a ceiling, not a player.</p>\n",
    );
    for preset in ["wikipedia", "dominorules"] {
        let name = format!("league-ratings-{preset}.svg");
        if ctx.dir.join(&name).is_file() {
            s.push_str(&plot_figure(ctx, &name, &format!("Ratings under {preset}:"))?);
        }
    }
    let mut t =
        Table::new("league", &["rules", "#players", "#rank", "bot", "#Elo", "#match win rate", "#points per round"]);
    for r in league.rows() {
        let ceiling = r.get("sees_hidden") == "1";
        t.row(
            format!("data-league=\"{}-{}-{}\"", esc(r.get("preset")), esc(r.get("players")), esc(r.get("bot"))),
            vec![
                esc(r.get("preset")),
                esc(r.get("players")),
                if ceiling { "&#8212;".to_string() } else { esc(r.get("rank")) },
                format!("{}{}", code(r.get("bot")), if ceiling { " (ceiling)" } else { "" }),
                elo_est(r.interval("elo", "elo_lo", "elo_hi")?),
                pct_est(r.interval("win_rate", "win_lo", "win_hi")?),
                num_est(r.interval("round_score", "round_score_lo", "round_score_hi")?, 2),
            ],
        );
    }
    s.push_str(&t.html());
    Ok(s)
}

/// `league-gap.csv`: the share of the montecarlo-to-oracle gap, in points per round.
fn league_gap_section(gap: &Csv) -> Result<String, ReportError> {
    let mut t = Table::new(
        "league-gap",
        &["rules", "#players", "bot", "#saves against montecarlo", "#the oracle saves", "#share closed"],
    );
    for r in gap.rows() {
        t.row(
            format!("data-league-gap=\"{}-{}-{}\"", esc(r.get("preset")), esc(r.get("players")), esc(r.get("bot"))),
            vec![
                esc(r.get("preset")),
                esc(r.get("players")),
                code(r.get("bot")),
                num_est(r.interval("gain", "gain_lo", "gain_hi")?, 2),
                num_est(r.interval("ceiling_gain", "ceiling_gain_lo", "ceiling_gain_hi")?, 2),
                pct_est(r.interval("share", "share_lo", "share_hi")?),
            ],
        );
    }
    Ok(format!(
        "<p class=\"note\">Points per round each saves against <code>montecarlo</code> in the league's games (lower scores win), and that saving as a share of the oracle's; a scale that does not saturate.</p>\n{}",
        t.html()
    ))
}

/// `league-skill.csv` and `league-skill.svg`: each search's score by its time per decision.
fn league_skill_section(ctx: &Ctx, skill: &Csv) -> Result<String, ReportError> {
    let mut s = String::new();
    if ctx.dir.join("league-skill.svg").is_file() {
        s.push_str(&plot_figure(
            ctx,
            "league-skill.svg",
            "Each search against tuned weighted by its time per decision:",
        )?);
    }
    let mut t = Table::new("league-skill", &["bot", "#samples", "#ms per decision", "#score against weighted", "#Elo"]);
    for r in skill.rows() {
        t.row(
            format!("data-skill=\"{}-{}\"", esc(r.get("bot")), esc(r.get("samples"))),
            vec![
                code(r.get("bot")),
                esc(r.get("samples")),
                esc(r.get("ms_per_decision")),
                pct_est(r.interval("score", "score_lo", "score_hi")?),
                elo_est(r.interval("elo", "elo_lo", "elo_hi")?),
            ],
        );
    }
    s.push_str(&t.html());
    Ok(s)
}

/// `ladder.csv`: each bot against the one below it.
fn ladder_section(ladder: &Csv) -> Result<String, ReportError> {
    let mut t =
        Table::new("ladder", &["rules", "#players", "step", "#comparisons", "#upper bot's score", "SPRT (0, 20)"]);
    for r in ladder.rows() {
        let sprt = match (r.get("sprt_decision"), r.num("sprt_llr")?) {
            ("", _) => String::new(),
            (d, Some(llr)) => format!("<b>{}</b>, LLR {llr:.2}", esc(d)),
            (d, None) => format!("<b>{}</b>", esc(d)),
        };
        t.row(
            format!("data-step=\"{}-{}-{}\"", esc(r.get("preset")), esc(r.get("players")), esc(r.get("a"))),
            vec![
                esc(r.get("preset")),
                esc(r.get("players")),
                format!("{} &gt; {}", code(r.get("a")), code(r.get("b"))),
                esc(r.get("comparisons")),
                pct_est(r.interval("a_score", "a_score_lo", "a_score_hi")?),
                sprt,
            ],
        );
    }
    Ok(format!(
        "<p class=\"note\">Each bot against the one below it, head to head: the share of comparisons the upper bot finished ahead (a level finish counts half), 95% intervals over deals.</p>\n{}",
        t.html()
    ))
}

/// `gap.csv`: points per round saved against `montecarlo`, and the share of the ceiling's.
fn gap_section(gap: &Csv) -> Result<String, ReportError> {
    let mut t = Table::new(
        "gap",
        &[
            "rules",
            "#players",
            "ceiling",
            "#expert saves",
            "#the ceiling saves",
            "#share closed",
            "#expert's score",
            "#ceiling's score",
        ],
    );
    for r in gap.rows() {
        t.row(
            format!("data-gap=\"{}-{}-{}\"", esc(r.get("preset")), esc(r.get("players")), esc(r.get("ceiling"))),
            vec![
                esc(r.get("preset")),
                esc(r.get("players")),
                spec_code(r.get("ceiling")),
                num_est(r.interval("expert_gain", "expert_gain_lo", "expert_gain_hi")?, 2),
                num_est(r.interval("ceiling_gain", "ceiling_gain_lo", "ceiling_gain_hi")?, 2),
                pct_est(r.interval("share", "share_lo", "share_hi")?),
                pct_est(r.interval("expert_score", "expert_lo", "expert_hi")?),
                pct_est(r.interval("ceiling_score", "ceiling_lo", "ceiling_hi")?),
            ],
        );
    }
    Ok(format!(
        "<p class=\"note\">Points per round each saves against the common field <code>montecarlo</code> in the same games, and expert's saving as a share of the ceiling's; the head-to-head scores beside them.</p>\n{}",
        t.html()
    ))
}

/// `skill.csv` and `skill_curve.svg`: expert's score against montecarlo by search budget.
fn skill_section(ctx: &Ctx, skill: Option<&Csv>) -> Result<String, ReportError> {
    let mut s = String::new();
    if ctx.dir.join("skill_curve.svg").is_file() {
        s.push_str(&plot_figure(ctx, "skill_curve.svg", "expert's score against montecarlo by search budget:")?);
    }
    if let Some(skill) = skill {
        let mut t = Table::new("skill", &["#samples per legal move", "#comparisons", "#score against montecarlo"]);
        for r in skill.rows() {
            t.row(
                format!("data-samples=\"{}\"", esc(r.get("samples"))),
                vec![
                    esc(r.get("samples")),
                    esc(r.get("comparisons")),
                    pct_est(r.interval("score", "score_lo", "score_hi")?),
                ],
            );
        }
        s.push_str(&t.html());
    }
    Ok(s)
}

/// `depth.csv`: expert's score against montecarlo by rollout depth.
fn depth_section(depth: &Csv) -> Result<String, ReportError> {
    let mut t = Table::new("depth", &["#players", "bot", "#games", "#seed", "#score against montecarlo"]);
    for r in depth.rows() {
        t.row(
            String::new(),
            vec![
                esc(r.get("players")),
                spec_code(r.get("bot")),
                esc(r.get("games")),
                esc(r.get("seed")),
                pct_est(r.interval("score", "score_lo", "score_hi")?),
            ],
        );
    }
    Ok(t.html())
}

/// Every run: its field, table, games, seed, and links to its files.
fn runs_section(ctx: &Ctx, runs: &[Run]) -> String {
    let mut t = Table::new("runs", &["run", "rules", "#players", "field", "#games", "#seed", "stopped", "files"]);
    for r in runs {
        let m = &r.manifest;
        let links: Vec<String> = ["summary.csv", "pairs.csv", "ratings.csv"]
            .iter()
            .filter(|f| ctx.dir.join("runs").join(&r.name).join(f).is_file())
            .map(|f| format!("<a href=\"{}\">{}</a>", esc(&ctx.href(&format!("runs/{}/{f}", r.name))), esc(f)))
            .collect();
        let stopped = match (m.complete, m.stopped.as_deref()) {
            (_, Some("sprt")) => format!("SPRT: {}", esc(m.sprt.as_ref().map_or("", |s| s.decision.as_str()))),
            (true, _) => String::new(),
            (false, _) => "<span class=\"badge warn\">incomplete</span>".into(),
        };
        t.row(
            format!("data-run=\"{}\"", esc(&r.name)),
            vec![
                code(&r.name),
                esc(&m.rules.preset),
                m.rules.players.iter().map(u8::to_string).collect::<Vec<_>>().join(" "),
                m.field.iter().map(|f| spec_code(f)).collect::<Vec<_>>().join(", "),
                m.games.map_or(String::new(), |g| g.to_string()),
                m.seed.to_string(),
                stopped,
                links.join(" "),
            ],
        );
    }
    format!(
        "<p class=\"note\">Each run is a tournament folder: <code>mtrain report runs/NAME</code> writes its own report.</p>\n{}",
        t.html()
    )
}
