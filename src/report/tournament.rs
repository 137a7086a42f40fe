//! Tournament reports: the console table and the CSV files, all computed from a [`Tally`].
//!
//! Every figure comes with its 95% interval over deals (see [`crate::stats`]). Numbers are
//! written with fixed decimals, rows sorted by field index or seat, so the same tally always
//! gives the same bytes. Schemas are documented in `docs/csv.md`.

use super::csv_table;
use super::{BotLabel, SEES_HIDDEN_NOTE};
use crate::stats::{Cluster, Estimate};
use crate::tournament::{Tally, WIN_UNIT, ratings, score_to_elo};
use std::fmt::Write as _;

fn f6(v: f64) -> String {
    if v.is_finite() { format!("{v:.6}") } else { String::new() }
}

fn est(e: Option<Estimate>) -> [String; 3] {
    match e {
        Some(e) => [f6(e.value), f6(e.lo), f6(e.hi)],
        None => [String::new(), String::new(), String::new()],
    }
}

/// The one tie convention, as the console states it.
pub const TIES: &str = "Ties: a match's finishing order is the lower total, then the rules' tie-break where they have one; seats still level share equally (co-winners split the win, tied seats split the ranks they span, a level pair scores half each).";

fn win(c: &Cluster) -> Option<Estimate> {
    c.proportion(WIN_UNIT as f64)
}

/// `summary.csv`: one row per bot, in field order.
pub fn summary_csv(specs: &[BotLabel], t: &Tally) -> String {
    let n = t.layout.players;
    let mut header: Vec<String> = "strategy,spec,sees_hidden,games,win_rate,win_lo,win_hi,mean_score,score_lo,score_hi,round_score,round_score_lo,round_score_hi,out_rate,out_lo,out_hi,deals"
        .split(',')
        .map(str::to_string)
        .collect();
    for k in 1..=n {
        header.extend([format!("rank{k}"), format!("rank{k}_lo"), format!("rank{k}_hi")]);
    }
    // Self-play: win rate and rank shares are 1/N by construction, exact (no interval).
    let exact = |e: Option<Estimate>| match e {
        Some(e) if specs.len() == 1 => est(Some(Estimate { lo: e.value, hi: e.value, ..e })),
        e => est(e),
    };
    let rows = specs.iter().enumerate().map(|(b, spec)| {
        let games = t.bot_score(b).units;
        let mut row =
            vec![spec.name.clone(), spec.spec.clone(), u8::from(spec.sees_hidden).to_string(), games.to_string()];
        row.extend(exact(win(t.bot_win(b))));
        row.extend(est(t.bot_score(b).mean(1.0)));
        row.extend(est(t.bot_round_score(b).mean(1.0)));
        row.extend(est(t.bot_outs(b).proportion(1.0)));
        row.push(t.bot_score(b).deals.to_string());
        for k in 0..n {
            row.extend(exact(t.bot_rank(b, k).proportion(WIN_UNIT as f64)));
        }
        row
    });
    csv_table(header, rows)
}

/// `seats.csv`: one row per seat: win rate, its difference from `1/N`, mean score.
pub fn seats_csv(t: &Tally) -> String {
    let n = t.layout.players;
    let header =
        "seat,games,win_rate,win_lo,win_hi,advantage,mean_score,score_lo,score_hi,out_rate,out_lo,out_hi".split(',');
    let rows = (0..n).map(|seat| {
        let w = win(t.seat_win(seat));
        let mut row = vec![seat.to_string(), t.seat_score(seat).units.to_string()];
        row.extend(est(w));
        row.push(w.map_or(String::new(), |e| f6(e.value - 1.0 / n as f64)));
        row.extend(est(t.seat_score(seat).mean(1.0)));
        row.extend(est(t.round_out_seat(seat).proportion(1.0)));
        row
    });
    csv_table(header, rows)
}

/// The Elo difference of a head-to-head score and its interval (infinite ends left empty).
fn pair_elo(e: Option<Estimate>) -> Option<Estimate> {
    e.map(|e| Estimate { value: score_to_elo(e.value), lo: score_to_elo(e.lo), hi: score_to_elo(e.hi) })
}

/// `pairs.csv`: one row per pair of bots `a < b` (field order): how often each finished ahead,
/// and the Elo difference of A over B that the score means.
pub fn pairs_csv(specs: &[BotLabel], t: &Tally) -> String {
    let header = "a,b,comparisons,a_ahead,b_ahead,ties,a_score,a_score_lo,a_score_hi,elo,elo_lo,elo_hi".split(',');
    let rows = (0..specs.len()).flat_map(|i| (i + 1..specs.len()).map(move |j| (i, j))).map(|(i, j)| {
        let a = t.pair_a_ahead(i, j);
        let b = t.pair_b_ahead(i, j);
        let mut row = vec![
            specs[i].name.clone(),
            specs[j].name.clone(),
            a.units.to_string(),
            a.sum.to_string(),
            b.sum.to_string(),
            (a.units - a.sum - b.sum).to_string(),
        ];
        let score = t.pair_score(i, j).proportion(1.0);
        row.extend(est(score));
        row.extend(est(pair_elo(score)));
        row
    });
    csv_table(header, rows)
}

/// `ratings.csv`: one row per bot (field order): its Bradley-Terry rating on the Elo scale
/// relative to the bot `anchor`, with the 95% interval over deals (see
/// [`crate::tournament::ratings`]).
pub fn ratings_csv(specs: &[BotLabel], t: &Tally, anchor: usize) -> String {
    let r = ratings(t, anchor);
    let header = "bot,spec,sees_hidden,elo,elo_lo,elo_hi,se,comparisons,anchor".split(',');
    let rows = specs.iter().zip(&r.bots).enumerate().map(|(b, (spec, x))| {
        let f2 = |v: f64| if v.is_finite() { format!("{v:.2}") } else { String::new() };
        vec![
            spec.name.clone(),
            spec.spec.clone(),
            u8::from(spec.sees_hidden).to_string(),
            f2(x.elo),
            f2(x.lo),
            f2(x.hi),
            f2(x.se),
            x.comparisons.to_string(),
            u8::from(b == anchor).to_string(),
        ]
    });
    csv_table(header, rows)
}

/// `round_stats.csv`: per-round and per-game figures: `per` names what each figure is counted
/// over (`round`, `game` or `seat_round`), `count` how many of them.
pub fn round_stats_csv(t: &Tally) -> String {
    let mut rows = Vec::new();
    for (name, per, c, prop) in [
        ("turns", "round", t.round_turns(), false),
        ("draws", "round", t.round_draws(), false),
        ("blocked_rate", "round", t.round_blocked(), true),
        ("boneyard_left", "round", t.round_boneyard(), false),
        ("dry_rate", "round", t.round_dry(), true),
        ("no_start_rate", "seat_round", t.round_no_start(), true),
        ("winner_margin", "game", t.game_margin(), false),
        ("score_spread", "game", t.game_spread(), false),
        ("lead_changes", "game", t.game_lead_changes(), false),
    ] {
        let e = if prop { c.proportion(1.0) } else { c.mean(1.0) };
        let mut row = vec![name.to_string(), per.to_string(), c.units.to_string()];
        row.extend(est(e));
        rows.push(row);
    }
    for (what, per, cluster) in [
        ("round_win", "round", Tally::position_win as fn(&Tally, usize) -> &Cluster),
        ("match_win", "game", Tally::match_position_win),
    ] {
        for k in 0..t.layout.players {
            let c = cluster(t, k);
            let mut row = vec![format!("position{}_{what}", k + 1), per.to_string(), c.units.to_string()];
            row.extend(est(win(c)));
            rows.push(row);
        }
    }
    csv_table("metric,per,count,value,lo,hi".split(','), rows)
}

fn pct(e: Option<Estimate>) -> String {
    match e {
        Some(e) if e.lo.is_finite() => format!("{:5.1}% [{:4.1}, {:4.1}]", 100.0 * e.value, 100.0 * e.lo, 100.0 * e.hi),
        Some(e) => format!("{:5.1}% [  -  ,   - ]", 100.0 * e.value),
        None => "-".to_string(),
    }
}

fn num(e: Option<Estimate>) -> String {
    match e {
        Some(e) if e.lo.is_finite() => format!("{:6.1} [{:.1}, {:.1}]", e.value, e.lo, e.hi),
        Some(e) => format!("{:6.1} [-, -]", e.value),
        None => "-".to_string(),
    }
}

/// `s` with trailing spaces removed from every line (fixed-width columns pad the last one).
pub fn trim_lines(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for line in s.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The console report: bots, seats, head-to-head and rounds, each figure with its interval.
///
/// A field of one bot (self-play) wins `1/N` of every game and takes each finishing rank `1/N`
/// of the time by construction: those figures are printed as exact, without an interval.
///
/// `anchor` is the field index of the bot rated 0; with a `gauntlet` bot, the head-to-head
/// section shows that bot against each opponent (with the Elo difference) instead of every pair.
pub fn console(specs: &[BotLabel], t: &Tally, anchor: usize, gauntlet: Option<usize>) -> String {
    trim_lines(&console_padded(specs, t, anchor, gauntlet))
}

fn console_padded(specs: &[BotLabel], t: &Tally, anchor: usize, gauntlet: Option<usize>) -> String {
    let self_play = specs.len() == 1;
    let exact = |e: Option<Estimate>| match e {
        Some(e) if self_play => format!("{:5.1}% (every seat)", 100.0 * e.value),
        e => pct(e),
    };
    let n = t.layout.players;
    let name_w = specs.iter().map(|s| s.to_string().len()).max().unwrap_or(8).max(8);
    let mut s = String::new();
    let _ = writeln!(s, "Bots (95% intervals over {} deals)", t.deals);
    let _ = writeln!(s, "{TIES}");
    if specs.iter().any(|b| b.sees_hidden) {
        let _ = writeln!(s, "{SEES_HIDDEN_NOTE}");
    }
    let _ = writeln!(
        s,
        "  {:<name_w$} {:>9}  {:<22} {:<24} {:<20} {:<22}",
        "bot", "games", "win rate", "match score", "round score", "rounds gone out"
    );
    for (b, spec) in specs.iter().enumerate() {
        let _ = writeln!(
            s,
            "  {:<name_w$} {:>9}  {:<22} {:<24} {:<20} {:<22}",
            spec.to_string(),
            t.bot_score(b).units,
            exact(win(t.bot_win(b))),
            num(t.bot_score(b).mean(1.0)),
            num(t.bot_round_score(b).mean(1.0)),
            pct(t.bot_outs(b).proportion(1.0)),
        );
    }
    let _ = writeln!(s, "\nFinishing ranks (share of games)");
    for (b, spec) in specs.iter().enumerate() {
        let mut line = format!("  {:<name_w$}", spec.to_string());
        for k in 0..n {
            let _ = write!(line, "  {}: {}", k + 1, exact(t.bot_rank(b, k).proportion(WIN_UNIT as f64)));
        }
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "\nSeats (turn order; fair share {:.1}%)", 100.0 / n as f64);
    for seat in 0..n {
        let _ = writeln!(
            s,
            "  seat {seat:<3} win rate {}   match score {}   rounds gone out {}",
            pct(win(t.seat_win(seat))),
            num(t.seat_score(seat).mean(1.0)),
            pct(t.round_out_seat(seat).proportion(1.0))
        );
    }
    if let (Some(g), true) = (gauntlet, specs.len() > 1) {
        let _ = writeln!(
            s,
            "\nGauntlet: {} against each opponent (its score: finished ahead, a level finish counting half; Elo from the score)",
            specs[g]
        );
        for o in (0..specs.len()).filter(|&o| o != g) {
            let (i, j) = (g.min(o), g.max(o));
            let (a, b) = (t.pair_a_ahead(i, j), t.pair_b_ahead(i, j));
            let (won, lost) = if g < o { (a.sum, b.sum) } else { (b.sum, a.sum) };
            let score = t
                .pair_score(i, j)
                .proportion(1.0)
                .map(|e| if g < o { e } else { Estimate { value: 1.0 - e.value, lo: 1.0 - e.hi, hi: 1.0 - e.lo } });
            let elo = match pair_elo(score) {
                Some(e) if e.value.is_finite() && e.lo.is_finite() && e.hi.is_finite() => {
                    format!("{:+.0} Elo [{:+.0}, {:+.0}]", e.value, e.lo, e.hi)
                }
                Some(e) if e.value.is_finite() => format!("{:+.0} Elo", e.value),
                _ => "Elo unbounded".to_string(),
            };
            let _ = writeln!(
                s,
                "  vs {:<name_w$} {} comparisons, ahead {won}, behind {lost}, level {}; score {}  {elo}",
                specs[o].to_string(),
                a.units,
                a.units - a.sum - b.sum,
                pct(score)
            );
        }
    } else if specs.len() > 1 {
        let _ = writeln!(s, "\nHead to head (A finished ahead of B; a level finish counts half)");
        for i in 0..specs.len() {
            for j in i + 1..specs.len() {
                let a = t.pair_a_ahead(i, j);
                let b = t.pair_b_ahead(i, j);
                let _ = writeln!(
                    s,
                    "  {} vs {}: {} comparisons, A ahead {}, B ahead {}, ties {}; A's score {}",
                    specs[i],
                    specs[j],
                    a.units,
                    a.sum,
                    b.sum,
                    a.units - a.sum - b.sum,
                    pct(t.pair_score(i, j).proportion(1.0))
                );
            }
        }
    }
    if specs.len() > 1 {
        let r = ratings(t, anchor);
        let _ = writeln!(
            s,
            "\nRatings (Elo, Bradley-Terry over the head-to-head comparisons, {} = 0; 95% intervals over deals)",
            specs[anchor]
        );
        let mut order: Vec<usize> = (0..specs.len()).collect();
        // Best first; unrated bots last; equal ratings keep field order.
        order.sort_by(|&a, &b| {
            let key = |x: usize| if r.bots[x].elo.is_finite() { -r.bots[x].elo } else { f64::INFINITY };
            key(a).total_cmp(&key(b))
        });
        for b in order {
            let x = &r.bots[b];
            let text = if b == anchor {
                "     0 (anchor)".to_string()
            } else if !x.elo.is_finite() {
                "     - (no comparisons linking it to the anchor)".to_string()
            } else if x.lo.is_finite() {
                format!("{:+6.0} [{:+.0}, {:+.0}]", x.elo, x.lo, x.hi)
            } else {
                format!("{:+6.0} [-, -]", x.elo)
            };
            let _ = writeln!(s, "  {:<name_w$}  {text}   {} comparisons", specs[b].to_string(), x.comparisons);
        }
    }
    let _ = writeln!(
        s,
        "\nRounds ({}): turns {}   draws {}   blocked {}   boneyard left {}",
        t.rounds,
        num(t.round_turns().mean(1.0)),
        num(t.round_draws().mean(1.0)),
        pct(t.round_blocked().proportion(1.0)),
        num(t.round_boneyard().mean(1.0)),
    );
    s
}

/// What a tournament runs, before it runs: rules and their `changes`, table, field, games and
/// seed, the `shard` it plays, its seating, and the `gauntlet` bot (field index) if any.
pub fn header(
    t: &crate::tournament::Tournament,
    changes: &[(String, String)],
    shard: Option<(u64, u64)>,
    gauntlet: Option<usize>,
) -> String {
    let r = &t.rules;
    let sch = &t.schedule;
    let shard = shard.map_or(String::new(), |(i, n)| format!("; shard {i}/{n}"));
    format!(
        "mtrain tournament: {} rules{}, double-{}, {} players, {} tiles each, {} round{}; {} bot{}, {} lineup{}; {} games = {} deals x {} rotation{}; seed {}{shard}\nseating: {}\n",
        r.preset,
        super::changes_text(changes),
        r.set,
        r.players,
        r.hand().unwrap_or(0),
        r.round_count(),
        if r.round_count() == 1 { "" } else { "s" },
        t.specs.len(),
        if t.specs.len() == 1 { "" } else { "s" },
        sch.lineup_count(),
        if sch.lineup_count() == 1 { "" } else { "s" },
        sch.games(),
        sch.deals,
        sch.rotations(),
        if sch.rotations() == 1 { "" } else { "s" },
        sch.seed,
        sch.seating_text()
    ) + &gauntlet.map_or(String::new(), |g| format!("gauntlet: {} at every table\n", t.specs[g]))
}

/// An SPRT's end in words: the log-likelihood ratio against its bounds and the verdict.
pub fn sprt_text(t: &crate::tournament::Sprt, s: &crate::tournament::SprtState) -> String {
    use crate::tournament::Hypothesis;
    let verdict = match s.decision {
        Some(Hypothesis::H1) => format!("accepted H1 (elo >= {})", t.elo1),
        Some(Hypothesis::H0) => format!("accepted H0 (elo <= {})", t.elo0),
        None => "undecided".to_string(),
    };
    let place = if s.llr <= s.lower {
        "at or below the lower bound"
    } else if s.llr >= s.upper {
        "at or above the upper bound"
    } else {
        "between the bounds"
    };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.4}, {place} [{:.4}, {:.4}]: {verdict}\n",
        t.elo0, t.elo1, t.alpha, t.beta, s.llr, s.lower, s.upper
    )
}

/// The CSV reports of a tally (`summary.csv`, `seats.csv`, `pairs.csv`, `ratings.csv`,
/// `round_stats.csv`): file name and contents, the bots shown as `specs` and rated against
/// `anchor`.
pub fn files(specs: &[BotLabel], tally: &Tally, anchor: usize) -> Vec<(&'static str, String)> {
    vec![
        ("summary.csv", summary_csv(specs, tally)),
        ("seats.csv", seats_csv(tally)),
        ("pairs.csv", pairs_csv(specs, tally)),
        ("ratings.csv", ratings_csv(specs, tally, anchor)),
        ("round_stats.csv", round_stats_csv(tally)),
    ]
}

/// The `manifest.json` of a tournament run `c` (or a merge of its shards) for the invocation
/// `inv`: the arguments that reproduce it, its schedule, what the state `st` has played, the
/// SPRT's end, the anchor, the gauntlet and how each bot is named.
pub fn manifest(
    c: &crate::tournament::TournamentJob,
    inv: &super::manifest::Invocation<'_>,
    args: &[String],
    st: &crate::tournament::RunState,
    sprt: Option<&crate::tournament::SprtState>,
) -> String {
    use crate::tournament::Hypothesis;
    let t = &c.tournament;
    let r = &t.rules;
    let decided = sprt.is_some_and(|s| s.decision.is_some());
    let all_played = st.chunks_planned.0.iter().all(|&(a, b)| (a..b).all(|x| st.done.contains(x)));
    let complete = all_played || decided;
    let stopped = if decided && !all_played {
        Some("sprt")
    } else if !complete {
        Some("interrupted")
    } else {
        None
    };
    let sprt = match (c.sprt, sprt) {
        (Some(p), Some(s)) => serde_json::json!({
            "elo0": p.elo0, "elo1": p.elo1, "alpha": p.alpha, "beta": p.beta,
            "llr": s.llr, "lower": s.lower, "upper": s.upper,
            "decision": match s.decision { Some(Hypothesis::H0) => "H0", Some(Hypothesis::H1) => "H1", None => "none" }
        }),
        _ => serde_json::Value::Null,
    };
    let details = serde_json::json!({
        "args": args,
        "rotate": t.schedule.rotate,
        "replays_skipped": t.schedule.replays_skipped,
        "seating": if t.schedule.vary_order { "varied" } else { "fixed" },
        "seating_orders": t.schedule.order_count(),
        "games_planned": t.schedule.games(),
        "games": st.tally.games,
        "deals": st.tally.deals,
        "shard": c.shard.map(|(i, n)| format!("{i}/{n}")),
        "chunks_done": st.done.len(),
        "chunks_planned": st.chunks_planned.len(),
        "sprt": sprt,
        "anchor": t.specs[c.anchor].to_string(),
        "gauntlet": c.gauntlet.map(|g| t.specs[g].to_string()),
        "bot_specs": c.labels.iter().map(|b| serde_json::json!({
            "name": b.name, "spec": b.spec, "sees_hidden": b.sees_hidden
        })).collect::<Vec<_>>(),
        "sees_hidden": c.labels.iter().filter(|b| b.sees_hidden).map(|b| b.name.clone()).collect::<Vec<_>>(),
    });
    let hand = r.hand().map_or_else(Vec::new, |h| vec![h]);
    inv.manifest(
        super::manifest::RulesRecord::new(r, &c.changes, vec![r.players], hand),
        t.specs.iter().map(ToString::to_string).collect(),
        t.schedule.seed,
        complete,
        stopped,
        details,
    )
}
