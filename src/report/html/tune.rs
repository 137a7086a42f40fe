//! The report of a tuning folder (`mtrain tune --out`): the run from `tune.json`, the result
//! (`tuned.txt` and the confirmation's SPRT from `confirm.csv`), each parameter's start and
//! final value and its trajectory (`trajectory.csv`, `trajectory.svg`), and the files.

use super::read::{Csv, json, text_optional};
use super::{Body, Ctx, ReportError, Table, code, elo_est, esc, facts, files_section, pct_est, plot_figure, spec_code};
use crate::external::BotSetup;
use crate::tune::{TUNE_FORMAT, TuningSpec};

/// What the page reads of `tune.json`: the run's description, the bots it adds, and how many
/// iterations it played. (Its self-check guards `--resume`; the report shows what the files
/// say and reads every figure from the CSVs.)
#[derive(serde::Deserialize)]
struct TuneFile {
    format: u32,
    spec: TuningSpec,
    #[serde(default)]
    bots: BotSetup,
    rows: Vec<serde::de::IgnoredAny>,
}

/// What each file of a tuning folder holds.
const FILES: [(&str, &str); 5] = [
    ("trajectory.csv", "every parameter after every iteration, with its score"),
    ("confirm.csv", "the tuned bot against the start on fresh deals (SPRT)"),
    ("tuned.txt", "the tuned bot's spec, ready for --bots"),
    ("trajectory.svg", "each parameter's path through its range"),
    ("tune.json", "the run's state: its description and every iteration"),
];

/// At most this many rows of the trajectory are shown (the start, evenly spaced iterations,
/// the last); the CSV has them all.
const TRAJECTORY_ROWS: usize = 21;

/// The page of the tuning run in `ctx`'s folder.
pub(super) fn page(ctx: &Ctx) -> Result<Body, ReportError> {
    let st: TuneFile = json(&ctx.dir, "tune.json")?;
    if st.format != TUNE_FORMAT {
        return Err(ReportError(format!(
            "'{}' was written by another version of mtrain (format {}; this one reads {TUNE_FORMAT})",
            ctx.dir.join("tune.json").display(),
            st.format
        )));
    }
    let keys: Vec<String> =
        st.spec.params.iter().map(|p| p.split_once('=').map_or(p.as_str(), |(k, _)| k).trim().to_string()).collect();
    let traj = Csv::read(&ctx.dir, "trajectory.csv")?;
    let mut cols = vec!["iteration", "c_k", "a_k", "score", "comparisons"];
    cols.extend(keys.iter().map(String::as_str));
    traj.require(&cols)?;
    let confirm = Csv::read_optional(
        &ctx.dir,
        "confirm.csv",
        &[
            "tuned",
            "start",
            "games",
            "comparisons",
            "score",
            "score_lo",
            "score_hi",
            "elo",
            "elo_lo",
            "elo_hi",
            "sprt",
            "decision",
            "llr",
        ],
    )?;
    let tuned = text_optional(&ctx.dir, "tuned.txt")?;
    let s = &st.spec;
    let bot = s.bot.clone().unwrap_or_else(|| "(the bot's defaults)".into());
    let done = st.rows.len() as u64;
    let mut body = Body {
        lede: format!(
            "{} with {} parameter{}; {} of {} iterations of {} games; {} rules, {} players; seed {}{}",
            esc(bot.split(':').next().unwrap_or(&bot)),
            keys.len(),
            if keys.len() == 1 { "" } else { "s" },
            done,
            s.gains.iterations,
            s.games,
            esc(&s.table.preset),
            s.table.players,
            s.seed,
            verdict_badge(confirm.as_ref())
        ),
        ..Body::default()
    };
    let table = &s.table;
    let changed: Vec<String> = table.rules.iter().map(|r| code(r)).collect();
    let mut items: Vec<(&str, String)> = vec![
        (
            "Rules",
            format!(
                "{}, double-{}, {} players, {}, {}",
                code(&table.preset),
                table.set,
                table.players,
                table.hand.map_or("the deal table's hand".to_string(), |h| format!("{h} tiles each")),
                table.rounds.map_or("every round".to_string(), |r| format!("{r} rounds"))
            ),
        ),
        (
            "Changed rules",
            if changed.is_empty() { "none (the preset as published)".into() } else { changed.join(", ") },
        ),
        ("Bot tuned", spec_code(&bot)),
        ("Parameters", st.spec.params.iter().map(|p| code(p)).collect::<Vec<_>>().join(", ")),
        (
            "Search",
            format!(
                "SPSA, {} iterations of {} games; perturbation {} of each range, rate {}",
                s.gains.iterations, s.games, s.gains.c, s.gains.r
            ),
        ),
        (
            "Confirmation",
            format!(
                "SPRT elo0 {}, elo1 {} (&#945; {}, &#946; {}), at most {} games, on deals no iteration played",
                s.confirm.elo0, s.confirm.elo1, s.confirm.alpha, s.confirm.beta, s.confirm_games
            ),
        ),
        ("Seed", format!("<span class=\"seed\">{}</span>", s.seed)),
    ];
    for (name, command) in &st.bots.ext {
        items.push(("External bot", format!("{} = {}", code(name), code(command))));
    }
    for (name, spec) in &st.bots.names {
        items.push(("Named bot", format!("{} = {}", code(name), code(spec))));
    }
    items.push((
        "Build and time",
        "not recorded: a tuning folder keeps its run in <code>tune.json</code>, which names no build and no time"
            .into(),
    ));
    body.section("run", "The run", &facts(&items));
    body.section("result", "Result", &result_section(tuned.as_deref(), confirm.as_ref(), done, s.gains.iterations)?);
    body.section("parameters", "Parameters", &parameters_section(&traj, &st.spec.params, &keys)?);
    let mut traj_html = String::new();
    if ctx.dir.join("trajectory.svg").is_file() {
        traj_html.push_str(&plot_figure(ctx, "trajectory.svg", "Each parameter's path through its range:")?);
    }
    traj_html.push_str(&trajectory_table(&traj, &keys)?);
    body.section("trajectory", "Trajectory", &traj_html);
    body.section("files", "Files", &files_section(ctx, &FILES)?);
    Ok(body)
}

/// The confirmation's decision as a badge.
fn verdict_badge(confirm: Option<&Csv>) -> String {
    match confirm.and_then(|c| c.row(0)).map(|r| r.get("decision")) {
        Some("H1") => " <span class=\"badge ok\">the gain holds</span>".into(),
        Some("H0") => " <span class=\"badge warn\">the gain does not hold</span>".into(),
        Some(_) => " <span class=\"badge\">gain not shown</span>".into(),
        None => " <span class=\"badge warn\">not confirmed yet</span>".into(),
    }
}

/// The tuned spec and the confirmation, in words and figures.
fn result_section(tuned: Option<&str>, confirm: Option<&Csv>, done: u64, planned: u64) -> Result<String, ReportError> {
    let mut s = String::new();
    if let Some(t) = tuned {
        s.push_str(&format!("<p class=\"tuned\">Tuned bot: {}</p>\n", spec_code(t)));
    }
    let Some(row) = confirm.and_then(|c| c.row(0)) else {
        s.push_str(&format!(
            "<p class=\"warn\">No confirmation yet: the run played {done} of {planned} iterations (<code>mtrain tune --resume</code> finishes it).</p>\n"
        ));
        return Ok(s);
    };
    let (elo0, elo1) = row.get("sprt").split_once(',').unwrap_or(("?", "?"));
    let verdict = match row.get("decision") {
        "H1" => format!("<b>the gain holds</b> (the SPRT accepted elo &#8805; {})", esc(elo1)),
        "H0" => format!(
            "<b>the gain does not hold</b>: on fresh deals the tuned bot is no better than the start (the SPRT accepted elo &#8804; {})",
            esc(elo0)
        ),
        _ => format!(
            "<b>undecided</b> after {} games: the gain is not shown (the SPRT reached neither bound)",
            esc(row.get("games"))
        ),
    };
    s.push_str(&format!("<p class=\"verdict\">Confirmation on fresh deals, tuned against start: {verdict}.</p>\n"));
    let mut t = Table::new(
        "confirm",
        &[
            "tuned",
            "start",
            "#games",
            "#comparisons",
            "#tuned's score",
            "#Elo",
            "SPRT (elo0, elo1)",
            "decision",
            "#LLR",
        ],
    );
    t.row(
        String::new(),
        vec![
            spec_code(row.get("tuned")),
            spec_code(row.get("start")),
            esc(row.get("games")),
            esc(row.get("comparisons")),
            pct_est(row.interval("score", "score_lo", "score_hi")?),
            elo_est(row.interval("elo", "elo_lo", "elo_hi")?),
            esc(row.get("sprt")),
            format!("<b class=\"decision\">{}</b>", esc(row.get("decision"))),
            row.num("llr")?.map_or(String::new(), |v| format!("{v:.2}")),
        ],
    );
    s.push_str(&t.html());
    Ok(s)
}

/// Each parameter's range, start (the trajectory's first row) and final value (its last).
fn parameters_section(traj: &Csv, params: &[String], keys: &[String]) -> Result<String, ReportError> {
    let (Some(first), Some(last)) = (traj.row(0), traj.len().checked_sub(1).and_then(|i| traj.row(i))) else {
        return Ok("<p>The trajectory has no rows yet.</p>\n".into());
    };
    let mut t = Table::new("params", &["parameter", "range", "#start", "#final"]);
    for (key, p) in keys.iter().zip(params) {
        let range = p.split_once('=').map_or("", |(_, r)| r).replace(':', " to ");
        t.row(
            format!("data-param=\"{}\"", esc(key)),
            vec![code(key), esc(&range), esc(first.get(key)), format!("<b>{}</b>", esc(last.get(key)))],
        );
    }
    Ok(format!(
        "<p class=\"note\">Start: iteration 0 of <code>trajectory.csv</code>; final: after iteration {}.</p>\n{}",
        esc(last.get("iteration")),
        t.html()
    ))
}

/// The trajectory at most [`TRAJECTORY_ROWS`] rows: the start, evenly spaced iterations and the
/// last, as `trajectory.csv` states them.
fn trajectory_table(traj: &Csv, keys: &[String]) -> Result<String, ReportError> {
    let n = traj.len();
    if n == 0 {
        return Ok(String::new());
    }
    let step = if n <= TRAJECTORY_ROWS { 1 } else { n.div_ceil(TRAJECTORY_ROWS - 1) };
    let mut picks: Vec<usize> = (0..n).step_by(step).collect();
    if picks.last() != Some(&(n - 1)) {
        picks.push(n - 1);
    }
    let mut cols = vec!["#iteration".to_string(), "#c_k".into(), "#a_k".into(), "#score".into(), "#comparisons".into()];
    cols.extend(keys.iter().map(|k| format!("#{k}")));
    let refs: Vec<&str> = cols.iter().map(String::as_str).collect();
    let mut t = Table::new("trajectory", &refs);
    for i in picks {
        let Some(r) = traj.row(i) else { continue };
        let mut cells: Vec<String> =
            ["iteration", "c_k", "a_k", "score", "comparisons"].iter().map(|c| esc(r.get(c))).collect();
        cells.extend(keys.iter().map(|k| esc(r.get(k))));
        t.row(format!("data-iteration=\"{}\"", esc(r.get("iteration"))), cells);
    }
    let note = if n > TRAJECTORY_ROWS {
        format!(
            "<p class=\"note\">{} of the {n} rows of <code>trajectory.csv</code> (every {step}th and the last).</p>\n",
            t_len(n, step)
        )
    } else {
        String::new()
    };
    Ok(format!("{note}{}", t.html()))
}

/// How many rows [`trajectory_table`] shows of `n` at every `step`-th.
fn t_len(n: usize, step: usize) -> usize {
    let k = n.div_ceil(step);
    if (k - 1) * step == n - 1 { k } else { k + 1 }
}
