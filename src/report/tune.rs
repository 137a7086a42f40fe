//! The reports of a tuning run: the header printed before it runs, the trajectory (CSV and
//! SVG), and the confirmation's line and CSV, rendered from the run's state; nothing here plays
//! or writes.

use super::changes_text;
use super::csv_table;
use super::plot::{Chart, Series, line_chart_svg};
use crate::strategy::StrategySpec;
use crate::tournament::{Hypothesis, score_to_elo};
use crate::tune::{Confirmation, TuneState, Tuning};

/// What runs, before it runs (and after how many iterations it resumes).
pub fn header(t: &Tuning, st: &TuneState) -> String {
    let d = t.params.len();
    format!(
        "mtrain tune: {} rules{}, double-{}, {} players; {} with {} parameter{} ({}); {} iterations of {} games; seed {}{}\n",
        t.rules.preset,
        changes_text(&t.changes),
        t.rules.set,
        t.rules.players,
        t.base.name,
        d,
        if d == 1 { "" } else { "s" },
        t.params.iter().map(|p| p.key.clone()).collect::<Vec<_>>().join(", "),
        t.gains.iterations,
        t.games,
        t.seed,
        if st.rows.is_empty() { String::new() } else { format!("; resumed after {} iterations", st.rows.len()) }
    )
}

/// `trajectory.csv`: the start, then every parameter after every iteration, with the
/// iteration's gains and score.
pub fn trajectory_csv(t: &Tuning, st: &TuneState) -> String {
    let mut header = vec!["iteration".to_string(), "c_k".into(), "a_k".into(), "score".into(), "comparisons".into()];
    header.extend(t.params.iter().map(|p| p.key.clone()));
    let start = std::iter::once({
        let mut row = vec!["0".to_string(), String::new(), String::new(), String::new(), "0".into()];
        row.extend(t.params.iter().zip(&st.start).map(|(p, &u)| p.text(p.value(u))));
        row
    });
    let rows = st.rows.iter().map(|r| {
        let k = r.iteration;
        let mut row = vec![
            (k + 1).to_string(),
            format!("{:.6}", t.gains.c_k(k)),
            format!("{:.6}", t.gains.a_k(k)),
            format!("{:.6}", r.score),
            r.comparisons.to_string(),
        ];
        row.extend(t.params.iter().zip(&r.u).map(|(p, &u)| p.text(p.value(u))));
        row
    });
    csv_table(header, start.chain(rows))
}

/// `trajectory.svg`: each parameter's path through its range.
///
/// # Errors
/// A chart that cannot be drawn.
pub fn trajectory_svg(t: &Tuning, st: &TuneState) -> Result<String, crate::error::PlotError> {
    let series: Vec<Series> = t
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| Series {
            label: format!("{} [{}, {}]", p.key, p.text(p.lo), p.text(p.hi)),
            points: std::iter::once((0.0, st.start[i], None))
                .chain(st.rows.iter().map(|r| ((r.iteration + 1) as f64, r.u[i], None)))
                .collect(),
        })
        .collect();
    // A long starting spec (every weight of a linear bot) is in tune.json; the title names the bot.
    let spec = t.base.to_string();
    let bot = if spec.chars().count() <= 48 {
        spec
    } else {
        format!("{}, {} parameter{}", t.base.name, t.params.len(), if t.params.len() == 1 { "" } else { "s" })
    };
    let title = format!("SPSA trajectory of {bot} ({} rules, {} players)", t.rules.preset, t.rules.players);
    let chart = Chart {
        title: &title,
        x_label: "iteration",
        y_label: "position in its range",
        percent: true,
        references: &[],
        note: "",
        series: &series,
    };
    line_chart_svg(&chart, (900, 480))
}

/// The confirmation's console line and `confirm.csv`.
pub fn confirmation(t: &Tuning, tuned: &StrategySpec, start: &StrategySpec, c: &Confirmation) -> (String, String) {
    let (tally, sprt) = (&c.tally, &c.sprt);
    let s = tally.pair_score(0, 1).proportion(1.0).expect("games played");
    let verdict = match sprt.decision {
        Some(Hypothesis::H1) => format!("the gain holds (SPRT accepted elo >= {})", t.confirm.elo1),
        Some(Hypothesis::H0) => format!(
            "the gain does NOT hold: on fresh deals the tuned bot is no better than the start (SPRT accepted elo <= {})",
            t.confirm.elo0
        ),
        None => {
            format!("undecided after {} games: the gain is not shown (the SPRT reached neither bound)", tally.games)
        }
    };
    let decision = match sprt.decision {
        Some(Hypothesis::H1) => "H1",
        Some(Hypothesis::H0) => "H0",
        None => "none",
    };
    let comps = tally.pair_score(0, 1).units / 2;
    let line = format!(
        "\nConfirmation on fresh deals, tuned against start: {comps} comparisons, score {:.1}% [{:.1}, {:.1}], {:+.0} Elo [{:+.0}, {:+.0}]; {verdict}\n",
        100.0 * s.value,
        100.0 * s.lo,
        100.0 * s.hi,
        score_to_elo(s.value),
        score_to_elo(s.lo),
        score_to_elo(s.hi)
    );
    let f = |v: f64| if v.is_finite() { format!("{v:.6}") } else { String::new() };
    let row = vec![
        tuned.to_string(),
        start.to_string(),
        tally.games.to_string(),
        comps.to_string(),
        f(s.value),
        f(s.lo),
        f(s.hi),
        f(score_to_elo(s.value)),
        f(score_to_elo(s.lo)),
        f(score_to_elo(s.hi)),
        format!("{},{}", t.confirm.elo0, t.confirm.elo1),
        decision.to_string(),
        format!("{:.6}", sprt.llr),
    ];
    let header = "tuned,start,games,comparisons,score,score_lo,score_hi,elo,elo_lo,elo_hi,sprt,decision,llr".split(',');
    (line, csv_table(header, std::iter::once(row)))
}
