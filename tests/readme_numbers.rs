//! Figures the README quotes match the CSV of the script that measured them.

use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

/// `n` with its thousands grouped by commas, as the pages write counts.
fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn set_up_times_are_those_of_results_setup_times_csv() {
    let readme = read("README.md");
    let at =
        readme.find("(`scripts/bench/setup-times.sh`, `results/setup/times.csv`)").expect("the set-up times' source");
    let quote = &readme[at..at + 400];
    let csv = read("results/setup/times.csv");
    let mut rows = 0;
    for line in csv.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let seconds: f64 = cells[1].parse().unwrap();
        assert_eq!(cells[2], "2", "measured on 2 cores, as the README says");
        let shown = format!("{seconds:.0} s");
        assert!(quote.contains(&shown), "README's set-up times lack {shown} ({}): {quote}", cells[0]);
        rows += 1;
    }
    assert_eq!(rows, 4);
}

#[test]
fn the_balance_study_quotes_its_tables_and_its_seeds_agree() {
    let readme = read("results/balance/README.md");
    for table in ["results/balance/table-wikipedia.md", "results/balance/table-dominorules.md"] {
        let t = read(table);
        assert!(t.lines().count() >= 9, "{table}: a header and 7 player counts");
        assert!(readme.contains(&t), "results/balance/README.md does not quote {table} as it is");
    }
    // "The picks are the same for seeds 1 to 5": seeds.csv says so for every player count.
    let seeds = read("results/balance/seeds.csv");
    let header: Vec<&str> = seeds.lines().next().unwrap().split(',').collect();
    assert_eq!(header.iter().filter(|h| h.ends_with("_pick")).count(), 5, "{seeds}");
    for line in seeds.lines().skip(1) {
        assert!(line.ends_with(",yes"), "the seeds disagree: {line}");
    }
    assert!(read("README.md").contains("picks are the same for seeds 1 to 5"));
    // The prose figures, from seed 1's balance.csv.
    let bal = records("results/balance/d12-wikipedia-seed1/balance.csv");
    let v = |p: u8, h: u8, m: &str| {
        let r = bal.iter().find(|r| r["players"] == p.to_string() && r["hand"] == h.to_string() && r["metric"] == m);
        num(r.unwrap_or_else(|| panic!("{p} {h} {m}")), "value")
    };
    let cells = |p: u8, m: &str| -> Vec<(u8, f64)> {
        bal.iter()
            .filter(|r| r["players"] == p.to_string() && r["metric"] == m)
            .map(|r| (r["hand"].parse().unwrap(), num(r, "value")))
            .collect()
    };
    let page = readme.replace("\n  ", " ");
    let blocked2 = cells(2, "blocked_rate");
    let (lo, hi) = (
        blocked2.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap(),
        blocked2.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap(),
    );
    let quoted = format!(
        "from {:.1}% with {} tiles, rising steadily with the hand, to {:.1}% with {}",
        100.0 * lo.1,
        lo.0,
        100.0 * hi.1,
        hi.0
    );
    assert!(page.contains(&quoted), "results/balance/README.md lacks '{quoted}'");
    let skill2: Vec<f64> = cells(2, "skill").iter().map(|c| c.1).collect();
    let quoted = format!(
        "{:.2} to {:.2} at 2 players, and even at 8 players {:.2} with 5 tiles (on the floor, within the margin) and {:.2} at the published 11",
        skill2.iter().copied().fold(f64::MAX, f64::min),
        skill2.iter().copied().fold(f64::MIN, f64::max),
        v(8, 5, "skill"),
        v(8, 11, "skill")
    );
    assert!(page.contains(&quoted), "results/balance/README.md lacks '{quoted}'");
    let quoted = format!("21 and 22 tiles ({:.3} and {:.3})", v(4, 21, "skill_ceiling"), v(4, 22, "skill_ceiling"));
    assert!(page.contains(&quoted), "results/balance/README.md lacks '{quoted}'");
    let quoted = format!("({:.3} at 4 players and 15 tiles, below)", v(4, 15, "skill"));
    assert!(page.contains(&quoted), "results/balance/README.md lacks '{quoted}'");
    // README's headline and the results index: the 2-player blocked range, skill and luck at
    // the published hands, the luck defects at 4 players.
    let published: Vec<(u8, u8)> = records("results/balance/d12-wikipedia-seed1/recommendation.csv")
        .iter()
        .map(|r| (r["players"].parse().unwrap(), r["reference_hand"].parse().unwrap()))
        .collect();
    let at = |m: &str| -> (f64, f64) {
        let v: Vec<f64> = published.iter().map(|&(p, h)| v(p, h, m)).collect();
        (v.iter().copied().fold(f64::MAX, f64::min), v.iter().copied().fold(f64::MIN, f64::max))
    };
    let s = at("skill");
    // Luck at the published hands where it is measured (the luck pair's better bot beats the
    // last); the player counts where it is not.
    let luck_at = |p: u8, h: u8| {
        bal.iter()
            .find(|r| r["players"] == p.to_string() && r["hand"] == h.to_string() && r["metric"] == "skill_ceiling")
            .filter(|r| !r["value"].is_empty())
            .map(|r| num(r, "value"))
    };
    let measured: Vec<(u8, f64)> = published.iter().filter_map(|&(p, h)| luck_at(p, h).map(|v| (p, v))).collect();
    let unmeasured: Vec<u8> = published.iter().filter(|&&(p, h)| luck_at(p, h).is_none()).map(|&(p, _)| p).collect();
    assert_eq!(unmeasured, [7, 8], "luck is not measurable at the published hands of 7 and 8 players");
    let l =
        (measured.iter().map(|m| m.1).fold(f64::MAX, f64::min), measured.iter().map(|m| m.1).fold(f64::MIN, f64::max));
    let main = read("README.md").replace("\n  ", " ");
    for quoted in [
        format!("({:.1}% with {} tiles to {:.1}% with {})", 100.0 * lo.1, lo.0, 100.0 * hi.1, hi.0),
        format!("(`weighted`'s score against `greedy`: {:.2} to {:.2})", s.0, s.1),
        format!(
            "(a careful `planner` against a beginner: {:.2} to {:.2} at {} to {} players; at 7 and 8 players `planner` does not beat `greedy`, so luck is reported as not measurable there",
            l.0,
            l.1,
            measured[0].0,
            measured[measured.len() - 1].0
        ),
        format!(
            "({:.3} and {:.3} at 4 players with 21 and 22 tiles)",
            v(4, 21, "skill_ceiling"),
            v(4, 22, "skill_ceiling")
        ),
        format!("beats `greedy` almost always at most tables ({:.3} at 4 players and 15 tiles)", v(4, 15, "skill")),
    ] {
        assert!(main.contains(&quoted), "README lacks '{quoted}'");
    }
    let index = read("results/README.md");
    let quoted = format!("every hand size blocks too many rounds ({:.1}% to {:.1}%)", 100.0 * lo.1, 100.0 * hi.1);
    assert!(index.contains(&quoted), "results/README.md lacks '{quoted}'");
    // Defects at the published hands: only the 2-player blocked one.
    let dec = records("results/balance/d12-wikipedia-seed1/decisions.csv");
    for &(p, h) in &published {
        for r in dec.iter().filter(|r| r["players"] == p.to_string() && r["hand"] == h.to_string()) {
            let expected = if p == 2 && r["criterion"] == "blocked" {
                "beyond"
            } else if r["criterion"] == "skill_ceiling" && unmeasured.contains(&p) {
                "unknown"
            } else {
                "within"
            };
            assert_eq!(r["verdict"], expected, "{p} players, {h} tiles, {}", r["criterion"]);
        }
    }
}

#[test]
fn the_turn_order_headline_matches_turn_order_csv() {
    let csv = read("results/turn-order/turn_order.csv");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (per, pos, adv, players) = (col("per"), col("position"), col("advantage"), col("players"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let first = |p: &'static str| rows.iter().filter(move |r| r[per] == p && r[pos] == "1");
    let top = first("round").max_by(|a, b| a[adv].parse::<f64>().unwrap().total_cmp(&b[adv].parse().unwrap())).unwrap();
    let quoted = format!("+{:.1} points at {} players", 100.0 * top[adv].parse::<f64>().unwrap(), top[players]);
    let readme = read("README.md");
    assert!(readme.contains(&quoted), "README lacks '{quoted}', the largest per-round edge in turn_order.csv");
    // At 4 players under the three presets where the lead goes by the deal's order, and the
    // ratio of family_house's and harbour_cay's mean edge to theirs at 2 to 8 players.
    let edge = |preset: &str, n: u32| -> f64 {
        let r = first("round").find(|r| r[0] == preset && r[players] == n.to_string()).unwrap();
        100.0 * r[adv].parse::<f64>().unwrap()
    };
    let three = ["celko1998", "wikipedia", "dominorules"];
    let four: Vec<f64> = three.iter().map(|p| edge(p, 4)).collect();
    let ratios: Vec<f64> = (2..=8)
        .map(|n| {
            let holder = (edge("family_house", n) + edge("harbour_cay", n)) / 2.0;
            holder / (three.iter().map(|p| edge(p, n)).sum::<f64>() / 3.0)
        })
        .collect();
    let span = |v: &[f64]| (v.iter().copied().fold(f64::MAX, f64::min), v.iter().copied().fold(f64::MIN, f64::max));
    let ((a, b), (c, d)) = (span(&four), span(&ratios));
    let quoted = format!(
        "by {a:.1} to {b:.1} points at\n  4 players and by more at bigger tables, and by {c:.1} to {d:.1} times as much under `family_house`"
    );
    assert!(readme.contains(&quoted), "README lacks '{quoted}'");
    // "78 comparisons": two figures (per round, per match) for each case (preset, players).
    let cases = first("round").count();
    assert_eq!(first("match").count(), cases);
    assert!(readme.contains(&format!("correction for the {} comparisons", 2 * cases)), "{cases} cases");
    // "the match win rate of the seat that led round 1 is within 2 points of fair everywhere"
    assert!(readme.contains("within 2 points of fair everywhere"));
    for r in first("match") {
        assert!(r[adv].parse::<f64>().unwrap().abs() < 0.02, "{r:?}");
    }
}

#[test]
fn the_ladder_quotes_its_gap_shares_from_gap_csv() {
    let csv = read("results/ladder/gap.csv");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let ladder = read("results/ladder/README.md");
    let mut rows = 0;
    for line in lines {
        let r: Vec<&str> = line.split(',').collect();
        if r[col("ceiling")] != "oracle" {
            // The hands-only oracle is no ceiling: every share's interval reaches 100%.
            assert!(r[col("share_hi")].parse::<f64>().unwrap() > 1.0, "{line}");
            continue;
        }
        let pct = |c: &str| format!("{:.1}", 100.0 * r[col(c)].parse::<f64>().unwrap());
        let quoted = format!("{}% [{}, {}]", pct("share"), pct("share_lo"), pct("share_hi"));
        assert!(ladder.contains(&quoted), "results/ladder/README.md lacks {quoted} ({line})");
        rows += 1;
    }
    assert_eq!(rows, 4);
    // The headline's ranges are those shares: about a quarter at 2 players, their range at 4.
    let shares = |players: &str| -> Vec<f64> {
        records("results/ladder/gap.csv")
            .iter()
            .filter(|r| r["ceiling"] == "oracle" && r["players"] == players)
            .map(|r| num(r, "share"))
            .collect()
    };
    assert!(shares("2").iter().all(|s| (0.2..0.3).contains(s)), "{:?}", shares("2"));
    let quoted = format!(
        "about a quarter of\n  the gap to the flat all-seeing oracle (`oracle:search=flat`) at 2 players and {} at 4",
        pct_range(&shares("4"))
    );
    assert!(read("README.md").contains(&quoted), "README lacks '{quoted}'");
    // expert against montecarlo in the fixed-size runs: score and Elo ranges over the 4 cells.
    let (mut score, mut elo) = (Vec::new(), Vec::new());
    for cell in ["wikipedia-2p", "wikipedia-4p", "dominorules-2p", "dominorules-4p"] {
        let p = records(&format!("results/ladder/runs/{cell}-gap-expert/pairs.csv")).remove(0);
        assert_eq!((p["a"].as_str(), p["b"].as_str()), ("expert-v1", "montecarlo"));
        score.push(num(&p, "a_score"));
        elo.push(num(&p, "elo"));
    }
    let (lo, hi) = (elo.iter().copied().fold(f64::MAX, f64::min), elo.iter().copied().fold(f64::MIN, f64::max));
    let quoted = format!("{} head to head (+{lo:.0} to +{hi:.0} Elo;", pct_range(&score));
    assert!(read("README.md").contains(&quoted), "README lacks '{quoted}'");
    let quoted = format!("put it at {} (+{lo:.0} to +{hi:.0} Elo)", pct_range(&score));
    assert!(ladder.contains(&quoted), "results/ladder/README.md lacks '{quoted}'");
}

#[test]
fn the_league_headline_matches_league_csv() {
    let csv = read("results/strategies/league.csv");
    let rate = |preset: &str, players: &str, bot: &str| -> String {
        let row = csv
            .lines()
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|r| r[0] == preset && r[1] == players && r[3] == bot)
            .unwrap_or_else(|| panic!("{preset} {players} {bot} not in league.csv"));
        format!("{:.1}%", 100.0 * row[5].parse::<f64>().unwrap())
    };
    let readme = read("README.md");
    let quoted = format!(
        "`tuned` wins {} of two-player matches and\n  {} of four-player ones (a fair share is 25%); `montecarlo` is second at {} and {}.",
        rate("wikipedia", "2", "tuned"),
        rate("wikipedia", "4", "tuned"),
        rate("wikipedia", "2", "montecarlo"),
        rate("wikipedia", "4", "montecarlo")
    );
    assert!(readme.contains(&quoted), "README lacks: {quoted}");
    // "the strongest player everywhere": first in every cell.
    for line in csv.lines().skip(1) {
        let r: Vec<&str> = line.split(',').collect();
        if r[2] == "1" {
            assert_eq!(r[3], "tuned", "{line}");
        }
    }
}

#[test]
fn the_tuning_and_sprt_headlines_match_their_csvs() {
    let readme = read("README.md");
    // Tuning: the tuned bot's and its hand-set weights' match win rates on fresh deals, both presets.
    let gain = read("results/tuning/gain.csv");
    let mut reader = csv_cells(&gain);
    let header = reader.remove(0);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let range = |name: &str| {
        let v: Vec<f64> = reader.iter().map(|r| 100.0 * r[col(name)].parse::<f64>().unwrap()).collect();
        let (lo, hi) = (v.iter().copied().fold(f64::MAX, f64::min), v.iter().copied().fold(f64::MIN, f64::max));
        format!("{:.0}-{:.0}%", lo, hi)
    };
    let (tuned, start) = (range("tuned_win"), range("start_win"));
    assert!(readme.contains(&format!("wins {tuned} of\n  4-player matches")), "README lacks the tuned bot's {tuned}");
    assert!(
        readme.contains(&format!("(its\n  hand-set weights: {start})")),
        "README lacks the hand-set weights' {start}"
    );
    // Its ratings: over planner (the anchor) and over montecarlo, in tens of Elo, both presets.
    let elo = |preset: &str, tuned: &str| {
        let rows = csv_cells(&read(&format!("results/tuning/runs/ratings-{preset}/ratings.csv")));
        let of = |bot: &str| rows.iter().find(|r| r[0] == bot).unwrap()[3].parse::<f64>().unwrap();
        (of(tuned), of(tuned) - of("montecarlo"))
    };
    let (w, d) = (elo("wikipedia", "tw"), elo("dominorules", "td"));
    let tens = |a: f64, b: f64| {
        format!("+{:.0} to +{:.0}", 10.0 * (a.min(b) / 10.0).round(), 10.0 * (a.max(b) / 10.0).round())
    };
    let quoted = format!("rates {} Elo over `planner` and {} over `montecarlo`", tens(w.0, d.0), tens(w.1, d.1));
    assert!(readme.contains(&quoted), "README lacks '{quoted}'");
    let page = read("results/tuning/README.md").replace('\n', " ");
    let quoted = format!("{:.0} to {:.0} Elo above", w.1.min(d.1), w.1.max(d.1));
    assert!(page.contains(&quoted), "results/tuning/README.md lacks '{quoted}'");
    // Transfer: the wikipedia weights beat the hand-set ones under every preset but celko1998,
    // where they lose, and are level with the dominorules weights under dominorules.
    for r in csv_cells(&read("results/tuning/transfer.csv")).iter().skip(1) {
        let (lo, hi) = (r[7].parse::<f64>().unwrap(), r[8].parse::<f64>().unwrap());
        match (r[0].as_str(), r[1].as_str()) {
            ("celko1998", "celko1998-tuned vs hand-set" | "celko1998-tuned vs wikipedia-tuned") => {
                assert!(lo > 0.0, "{r:?}");
                // The tuning page quotes the score, its interval and the Elo.
                let pct = |x: &str| 100.0 * x.parse::<f64>().unwrap();
                let quoted = format!(
                    "{:.1}% [{:.1}, {:.1}] (+{:.0} Elo)",
                    pct(&r[3]),
                    pct(&r[4]),
                    pct(&r[5]),
                    r[6].parse::<f64>().unwrap()
                );
                let page = read("results/tuning/README.md").replace('\n', " ");
                assert!(page.contains(&quoted), "results/tuning/README.md lacks '{quoted}'");
            }
            ("celko1998", _) => assert!(hi < 0.0, "{r:?}"),
            ("dominorules", "wikipedia-tuned vs dominorules-tuned") => assert!(lo < 0.0 && hi > 0.0, "{r:?}"),
            (_, "wikipedia-tuned vs hand-set") => assert!(lo > 0.0, "{r:?}"),
            _ => {}
        }
    }
    // Head to head with expert: at four players, and at two (score, interval, Elo interval).
    let p4 = records("results/tuning/runs/search-4p-expert/pairs.csv").remove(0);
    let p2 = records("results/tuning/runs/search-2p-expert/pairs.csv").remove(0);
    let quoted = format!(
        "beats the former `expert` at four players ({:.0}%) and is not distinguishable from it at two\n  ({:.1}% [{:.1}, {:.1}], {:+.0} to {:+.0} Elo)",
        100.0 * num(&p4, "a_score"),
        100.0 * num(&p2, "a_score"),
        100.0 * num(&p2, "a_score_lo"),
        100.0 * num(&p2, "a_score_hi"),
        num(&p2, "elo_lo"),
        num(&p2, "elo_hi")
    );
    assert!(readme.contains(&quoted), "README lacks '{quoted}'");
    // results/tuning/README.md quotes the transfer and cost tables as the script wrote them.
    let (tables, page) = (read("results/tuning/tables.md"), read("results/tuning/README.md"));
    for head in ["| played under | pair |", "| bot | decisions/s |"] {
        let from = tables.find(head).unwrap();
        let table: String =
            tables[from..].lines().take_while(|l| l.starts_with('|')).map(|l| format!("{l}\n")).collect();
        assert!(page.contains(&table), "results/tuning/README.md does not quote tables.md's {head}");
    }
    // The SPRT's false-positive rate between equal bots.
    let runs = read("results/sprt/runs.csv");
    let total = runs.lines().skip(1).count();
    let h1 = runs.lines().skip(1).filter(|l| l.split(',').nth(1) == Some("H1")).count();
    let quoted = format!("{:.1}% of {total} runs", 100.0 * h1 as f64 / total as f64);
    assert!(readme.contains(&quoted), "README lacks '{quoted}'");
}

/// The cells of a CSV text, header first.
fn csv_cells(text: &str) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
    r.records().map(|rec| rec.unwrap().iter().map(str::to_string).collect()).collect()
}

/// The rows of a CSV file under results/ as maps from column to cell.
fn records(rel: &str) -> Vec<std::collections::HashMap<String, String>> {
    let cells = csv_cells(&read(rel));
    let header = &cells[0];
    cells[1..].iter().map(|r| header.iter().cloned().zip(r.iter().cloned()).collect()).collect()
}

/// The first Markdown table in `md`, its lines each ending in a newline.
fn first_table(md: &str) -> String {
    md.lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn num(r: &std::collections::HashMap<String, String>, col: &str) -> f64 {
    r[col].parse().unwrap_or_else(|_| panic!("{col}: {:?}", r.get(col)))
}

/// "lo-hi" of a set of shares, in whole percent.
fn pct_range(v: &[f64]) -> String {
    let (lo, hi) = (v.iter().copied().fold(f64::MAX, f64::min), v.iter().copied().fold(f64::MIN, f64::max));
    format!("{:.0}-{:.0}%", 100.0 * lo, 100.0 * hi)
}

/// The index of results/ states each study's headline: each figure in it is recomputed here
/// from the study's CSVs (the balance row is checked with its own study above).
#[test]
fn the_results_index_headlines_match_their_csvs() {
    let index = read("results/README.md");
    let row = |study: &str| -> String {
        index
            .lines()
            .find(|l| l.starts_with(&format!("| {study} |")))
            .unwrap_or_else(|| panic!("no row {study}"))
            .to_string()
    };
    let has = |study: &str, quoted: &str| {
        assert!(row(study).contains(quoted), "results/README.md's {study} row lacks '{quoted}'");
    };

    // The league: tuned first everywhere, montecarlo second, their win-rate ranges.
    let league = records("results/strategies/league.csv");
    let rates =
        |bot: &str| -> Vec<f64> { league.iter().filter(|r| r["bot"] == bot).map(|r| num(r, "win_rate")).collect() };
    for r in &league {
        match r["rank"].as_str() {
            "1" => assert_eq!(r["bot"], "tuned"),
            "2" => assert_eq!(r["bot"], "montecarlo"),
            _ => {}
        }
    }
    has("Strategy league", &format!("wins {} of matches", pct_range(&rates("tuned"))));
    has("Strategy league", &format!("`montecarlo` is second ({})", pct_range(&rates("montecarlo"))));

    // House rules: tap=draw_two at the published hands, 3 to 7 players; nothing at 8.
    let published = [(3, 15), (4, 15), (5, 12), (6, 12), (7, 11), (8, 11)];
    let at = |p: u8, hand: u8, set: &str, metric: &str| -> std::collections::HashMap<String, String> {
        records(&format!("results/house-rules/p{p}/compare.csv"))
            .into_iter()
            .find(|r| r["hand"] == hand.to_string() && r["ruleset"] == set && r["metric"] == metric)
            .unwrap_or_else(|| panic!("p{p} {set} {metric}"))
    };
    let (mut minutes, mut skill) = (Vec::new(), Vec::new());
    for &(p, hand) in &published[..5] {
        let m = at(p, hand, "wikipedia:tap=draw_two", "match_minutes");
        let k = at(p, hand, "wikipedia:tap=draw_two", "skill");
        assert_eq!((m["verdict"].as_str(), k["verdict"].as_str()), ("changes", "changes"), "p{p}");
        minutes.push(num(&m, "difference"));
        skill.push(100.0 * num(&k, "difference"));
    }
    let span = |v: &[f64]| (v.iter().copied().fold(f64::MAX, f64::min), v.iter().copied().fold(f64::MIN, f64::max));
    let (lo, hi) = span(&minutes);
    has("House rules", &format!("a match takes +{lo:.1} to +{hi:.1} minutes longer at 3 to 7 players"));
    let (lo, hi) = span(&skill);
    has("House rules", &format!("skill counts for less ({hi:.1} to {lo:.1} points)"));
    for metric in ["turns", "match_minutes", "skill", "blocked_rate"] {
        assert_eq!(at(8, 11, "wikipedia:tap=draw_two", metric)["verdict"], "no_change", "8 players, {metric}");
    }
    for set in [
        "wikipedia:tap=draw_two,tap_forget=0.2,tap_catch=0.5",
        "wikipedia:uncovered_double_penalty=2",
        "wikipedia:follow_up=any_eligible",
        "wikipedia:continuous_draw=true",
    ] {
        for &(p, hand) in &published {
            for metric in ["turns", "match_minutes"] {
                assert_ne!(at(p, hand, set, metric)["verdict"], "changes", "{set} p{p} {metric}");
            }
        }
    }

    // Turn order: the largest per-round edge of the seat that leads.
    let turn = records("results/turn-order/turn_order.csv");
    let top = turn
        .iter()
        .filter(|r| r["per"] == "round" && r["position"] == "1")
        .max_by(|a, b| num(a, "advantage").total_cmp(&num(b, "advantage")))
        .unwrap();
    has("Turn-order advantage", &format!("+{:.1} points at {} players", 100.0 * num(top, "advantage"), top["players"]));
    let edge = |preset: &str, n: u32| -> f64 {
        let r = turn.iter().find(|r| {
            r["per"] == "round" && r["position"] == "1" && r["preset"] == preset && r["players"] == n.to_string()
        });
        num(r.unwrap(), "advantage")
    };
    let ratios: Vec<f64> = (2..=8)
        .map(|n| {
            let others = (edge("celko1998", n) + edge("wikipedia", n) + edge("dominorules", n)) / 3.0;
            (edge("family_house", n) + edge("harbour_cay", n)) / 2.0 / others
        })
        .collect();
    let (lo, hi) = (ratios.iter().copied().fold(f64::MAX, f64::min), ratios.iter().copied().fold(f64::MIN, f64::max));
    has("Turn-order advantage", &format!("is {lo:.1}-{hi:.1} times larger where the engine's holder leads"));

    // Rule changes: how many survive the correction, and the largest moves.
    let changes = records("results/rule-changes/rule_changes.csv");
    let surviving = |col: &str| changes.iter().filter(|r| r[col] == "true").count();
    has(
        "Single rule changes",
        &format!(
            "Of 56 comparisons, {} changes move blocked rounds and {} the first player's",
            surviving("survives_blocked_rate"),
            surviving("survives_first_player_advantage")
        ),
    );
    assert_eq!(2 * (changes.len() - 1), 56, "28 changes on two figures");
    let delta = |change: &str, col: &str| 100.0 * num(changes.iter().find(|r| r["change"] == change).unwrap(), col);
    has(
        "Single rule changes",
        &format!("(+{:.1} points)", delta("mark_on_empty_boneyard=false", "delta_blocked_rate")),
    );
    let tap = changes
        .iter()
        .filter(|r| r["change"].starts_with("tap="))
        .map(|r| 100.0 * num(r, "delta_blocked_rate"))
        .fold(f64::MAX, f64::min);
    has("Single rule changes", &format!("last-tile penalty (+{tap:.1})"));
    let biggest: Vec<f64> = {
        let mut v: Vec<f64> = changes.iter().map(|r| 100.0 * num(r, "delta_first_player_advantage")).collect();
        v.sort_by(|a, b| b.total_cmp(a));
        v
    };
    has("Single rule changes", &format!("(+{:.1} to +{:.1})", biggest[1], biggest[0]));

    // The ladder: expert's fixed-size scores, the SPRT decisions, the shares, the skill curve.
    let gap = records("results/ladder/gap.csv");
    let oracle: Vec<_> = gap.iter().filter(|r| r["ceiling"] == "oracle").collect();
    let scores: Vec<f64> = oracle.iter().map(|r| num(r, "expert_score")).collect();
    has("Ladder and ceiling", &format!("by {} (SPRT 0/20: H1 in all 4 cells)", pct_range(&scores)));
    let sprts: Vec<_> =
        records("results/ladder/ladder.csv").into_iter().filter(|r| !r["sprt_decision"].is_empty()).collect();
    assert_eq!(sprts.len(), 4);
    assert!(sprts.iter().all(|r| r["sprt_decision"] == "H1"));
    let shares = |players: &str| -> Vec<f64> {
        oracle.iter().filter(|r| r["players"] == players).map(|r| num(r, "share")).collect()
    };
    assert!(shares("2").iter().all(|s| (0.2..0.3).contains(s)), "about a quarter at 2 players: {:?}", shares("2"));
    has(
        "Ladder and ceiling",
        &format!(
            "a quarter of the gap to the flat all-seeing oracle (`oracle:search=flat`) at 2 players and {} at 4",
            pct_range(&shares("4"))
        ),
    );
    let curve: Vec<f64> = records("results/ladder/skill.csv").iter().map(|r| 100.0 * num(r, "score")).collect();
    let gains: Vec<f64> = curve.windows(2).skip(2).map(|w| w[1] - w[0]).collect();
    let (lo, hi) = (gains.iter().copied().fold(f64::MAX, f64::min), gains.iter().copied().fold(f64::MIN, f64::max));
    has("Ladder and ceiling", &format!("From 4 samples on, each budget doubling gains {lo:.0}-{hi:.0} points"));
    let ladder_page = read("results/ladder/README.md");
    let early: Vec<f64> = gains[..2].to_vec();
    let late: Vec<f64> = gains[2..].to_vec();
    let span = |v: &[f64]| {
        format!("{:.0}-{:.0}", v.iter().copied().fold(f64::MAX, f64::min), v.iter().copied().fold(f64::MIN, f64::max))
    };
    let quoted = format!("each doubling from 4 to 16 gains {} points, from 16 on {}", span(&early), span(&late));
    assert!(ladder_page.replace('\n', " ").contains(&quoted), "results/ladder/README.md lacks '{quoted}'");

    // Tuning: gain, ratings, head to head with the search bots.
    let gain = records("results/tuning/gain.csv");
    let g: Vec<String> = gain.iter().map(|r| format!("+{:.1}", 100.0 * num(r, "gain"))).collect();
    has("Tuning", &format!("{} and {} points of match win rate over its hand-set weights", g[0], g[1]));
    let elo = |preset: &str, bot: &str| {
        let rows = records(&format!("results/tuning/runs/ratings-{preset}/ratings.csv"));
        num(rows.iter().find(|r| r["bot"] == bot).unwrap(), "elo")
    };
    has("Tuning", &format!("rated +{:.0} / +{:.0} Elo over planner", elo("wikipedia", "tw"), elo("dominorules", "td")));
    has(
        "Tuning",
        &format!(
            "above `montecarlo` (+{:.0} / +{:.0})",
            elo("wikipedia", "montecarlo"),
            elo("dominorules", "montecarlo")
        ),
    );
    let pair = |run: &str| records(&format!("results/tuning/runs/{run}/pairs.csv")).remove(0);
    let p4 = pair("search-4p-expert");
    has("Tuning", &format!("at 4 players ({:.1}%)", 100.0 * num(&p4, "a_score")));
    let p2 = pair("search-2p-expert");
    has(
        "Tuning",
        &format!(
            "not distinguishable from it at 2 ({:.1}% [{:.1}, {:.1}])",
            100.0 * num(&p2, "a_score"),
            100.0 * num(&p2, "a_score_lo"),
            100.0 * num(&p2, "a_score_hi")
        ),
    );

    // The SPRT: the figures its script-written page states, and the runs behind them.
    let sprt = read("results/sprt/README.md");
    let runs = records("results/sprt/runs.csv");
    let h1 = runs.iter().filter(|r| r["decision"] == "H1").count();
    let line = sprt.lines().find(|l| l.starts_with("| H1 accepted")).unwrap();
    assert!(line.contains(&format!("| {h1} | {:.1}% [", 100.0 * h1 as f64 / runs.len() as f64)), "{line}");
    let share = line.rsplit('|').nth(1).unwrap().trim();
    has("SPRT error rate", &format!("{} SPRT (0, 20) runs", runs.len()));
    has("SPRT error rate", &format!("accepted in {share}"));
    let mut comps: Vec<u64> = runs.iter().map(|r| r["comparisons"].parse().unwrap()).collect();
    comps.sort_unstable();
    let median = (comps[comps.len() / 2 - 1] + comps[comps.len() / 2]) / 2;
    let thousands = format!("{},{:03}", median / 1000, median % 1000);
    has("SPRT error rate", &format!("median {thousands} comparisons a run"));
}

/// Every committed tally.json and tune.json is the current format, so `--resume` and `mtrain
/// merge` take it.
#[test]
fn every_committed_tally_is_the_current_format() {
    let format = mexican_train::tournament::STORE_FORMAT;
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("results")];
    let mut seen = 0;
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "tune.json") {
                let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                assert_eq!(v["format"], mexican_train::tune::TUNE_FORMAT, "{} is not the current format", p.display());
            } else if p.file_name().is_some_and(|n| n == "tally.json") {
                let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
                // A sweep's state has its own format (it stores the sweep as data).
                let format = if v["kind"] == "balance" { mexican_train::tournament::SWEEP_FORMAT } else { format };
                assert_eq!(v["format"], format, "{} is not format {format}", p.display());
                seen += 1;
            }
        }
    }
    assert!(seen > 100, "{seen} tally files");
}

#[test]
fn analysis_times_are_those_of_results_benchmarks_analyze_csv() {
    let readme = read("README.md").replace("\n", " ");
    let at = readme.find("Speed (`scripts/bench/bench-analyze.sh`").expect("the analysis speed");
    let quote = &readme[at..at + 700];
    let rows = records("results/benchmarks/analyze.csv");
    let count = |stop: &str| rows.iter().filter(|r| r["stop"] == stop).count();
    let slowest = rows.iter().map(|r| num(r, "seconds")).fold(0.0, f64::max);
    let resolved = count("separated") + count("indistinguishable");
    for want in [
        format!("{resolved} of {} positions resolved", rows.len()),
        format!("({} separated, {} indistinguishable", count("separated"), count("indistinguishable")),
        format!("the slowest in {slowest:.2} s"),
    ] {
        assert!(quote.contains(&want), "README lacks '{want}': {quote}");
    }
    assert_eq!(resolved + count("worlds"), rows.len(), "every position resolved or ran to the cap");
    assert!(rows.len() - resolved <= 1, "at most one position ran to the cap");
    let review = records("results/benchmarks/review.csv");
    let r = &review[0];
    let want = format!("{} decisions, took {:.1} s with two threads", r["decisions"], num(r, "seconds"));
    assert!(quote.contains(&want), "README lacks '{want}': {quote}");
    assert_eq!(r["threads"], "2");
}

/// The former `expert`: its defaults before the policy search, as the studies pin it.
const FORMER: &str = "expert:rollout=greedy,prior=0,depth=8,samples=auto";

/// The policy-guided search's first measurements: results/ladder/README.md quotes its table as
/// the script wrote it, and the figures `expert`'s docs and the README text quote are the CSV's.
#[test]
fn the_policy_search_figures_are_those_of_policy_search_csv() {
    let table = read("results/ladder/policy-search.md");
    let readme = read("results/ladder/README.md");
    assert!(readme.contains(&table), "results/ladder/README.md does not quote policy-search.md as it is");
    let rows = records("results/ladder/policy-search.csv");
    let row = |spec: &str| rows.iter().find(|r| r["spec"] == spec).unwrap_or_else(|| panic!("{spec}"));
    let best = row("expert:rollout=weighted,prior=5,depth=12,samples=31");
    let quote = format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * num(best, "score"),
        100.0 * num(best, "score_lo"),
        100.0 * num(best, "score_hi")
    );
    let elo = format!("{:+.0} Elo", num(best, "elo"));
    let ms = format!("{:.2} ms a decision", num(best, "ms_per_decision"));
    let former = format!("{:.1}%", 100.0 * num(row(FORMER), "score"));
    let docs = read("strategies/expert.rs");
    for text in [&readme, &docs] {
        for q in [&quote, &elo, &ms, &former] {
            assert!(text.contains(q.as_str()), "missing {q}");
        }
    }
    // The claims: the former expert loses to the policy, the guided search beats it.
    assert!(num(row(FORMER), "score_hi") < 0.5);
    assert!(num(best, "score_lo") > 0.5);
    assert!(num(best, "ms_per_decision") <= 1.0);
    let alone = [
        row("expert:rollout=greedy,prior=5,depth=8,samples=auto"),
        row("expert:rollout=weighted,prior=0,depth=8,samples=auto"),
    ];
    let alone: Vec<String> = alone.iter().map(|r| format!("{:.0}", 100.0 * num(r, "score"))).collect();
    assert_eq!(alone, ["46", "45"]);
    assert!(docs.contains("bring it to 45-46%"));
    let short =
        format!("`depth=4`: {:.1}%", 100.0 * num(row("expert:rollout=weighted,prior=5,depth=4,samples=80"), "score"));
    assert!(readme.contains(&short), "missing {short}");
}

/// The guided search's SPRTs: every cell decided for it, README's ranges are the CSV's, and
/// results/ladder/README.md quotes the table the script wrote.
#[test]
fn the_guided_search_headline_matches_strongest_sprt_csv() {
    let table = read("results/ladder/strongest-sprt.md");
    assert!(read("results/ladder/README.md").contains(&table));
    let rows = records("results/ladder/strongest-sprt.csv");
    assert_eq!(rows.len(), 8, "2 presets x 2 table sizes x 2 opponents");
    for r in &rows {
        assert_eq!(r["decision"], "H1", "{r:?}");
    }
    let range = |opp: &str| {
        let elos: Vec<f64> = rows.iter().filter(|r| r["opponent"] == opp).map(|r| num(r, "elo")).collect();
        let (lo, hi) = elos.iter().fold((f64::MAX, f64::MIN), |(a, b), &e| (a.min(e), b.max(e)));
        format!("{lo:+.0} to {hi:+.0}")
    };
    let readme = read("README.md");
    let at =
        readme.find("**`expert` is the strongest player: search guided by the tuned policy.**").expect("the headline");
    let quote = readme[at..at + 1500].split_whitespace().collect::<Vec<_>>().join(" ");
    let quote = quote.as_str();
    assert!(
        quote.contains(&format!("SPRTs' own estimates ({} and {} Elo)", range("weighted"), range("expert-v1"))),
        "{quote}"
    );
    // The magnitudes quoted are the fixed-sample league's: expert's rating minus the opponent's.
    let league = records("results/ladder/league.csv");
    let elo = |preset: &str, players: &str, bot: &str| {
        league
            .iter()
            .find(|r| r["preset"] == preset && r["players"] == players && r["bot"] == bot)
            .map(|r| num(r, "elo"))
            .unwrap()
    };
    let gap = |opp: &str, players: &[&str]| {
        let d: Vec<f64> = players
            .iter()
            .flat_map(|p| ["wikipedia", "dominorules"].map(|pr| elo(pr, p, "expert") - elo(pr, p, opp)))
            .collect();
        let (lo, hi) = d.iter().fold((f64::MAX, f64::MIN), |(a, b), &e| (a.min(e), b.max(e)));
        (lo.round(), hi.round())
    };
    let (a, b) = gap("weighted", &["2", "4"]);
    let (c, d) = gap("weighted", &["6"]);
    let (e, f) = gap("expert-v1", &["2", "4", "6"]);
    let flat = quote.split_whitespace().collect::<Vec<_>>().join(" ");
    let want = format!(
        "{a:+} to {b:+} Elo above tuned `weighted` at 2 and 4 players ({c:+} to {d:+} at 6) and {e:+} to {f:+} above the former `expert`"
    );
    assert!(flat.contains(&want), "{want}\n{flat}");
    let index = read("results/README.md");
    let want =
        format!("{a:+} to {b:+} Elo over tuned `weighted` at 2 and 4 players, {e:+} to {f:+} over the former `expert`");
    assert!(index.contains(&want), "results/README.md lacks {want}");
    let ms = records("results/ladder/policy-search.csv")
        .into_iter()
        .find(|r| r["spec"] == "expert:rollout=weighted,prior=5,depth=12,samples=31")
        .map(|r| num(&r, "ms_per_decision"))
        .unwrap();
    assert!(quote.contains(&format!("{ms:.2} ms a decision")), "{quote}");
}

/// The guided search's tuning runs: tune-expert.md's table is each run's confirm.csv, and
/// results/ladder/README.md, README and the module docs quote it as the runs have it.
#[test]
fn the_guided_search_tuning_is_quoted_from_its_runs() {
    let page = read("results/ladder/README.md");
    let md = read("results/ladder/tune-expert.md");
    let table = first_table(&md);
    assert!(page.contains(&table), "results/ladder/README.md does not quote tune-expert.md's table");
    let pct = |c: &std::collections::HashMap<String, String>, sep: &str| {
        format!(
            "{:.1}% [{:.1},{sep}{:.1}]",
            100.0 * num(c, "score"),
            100.0 * num(c, "score_lo"),
            100.0 * num(c, "score_hi")
        )
    };
    let elo = |c: &std::collections::HashMap<String, String>| {
        format!("{:+.0} Elo [{:+.0}, {:+.0}]", num(c, "elo"), num(c, "elo_lo"), num(c, "elo_hi"))
    };
    for (dir, decision, tuned, games) in [
        ("tune-expert", "none", "prior=7.415033", 800),
        ("tune-expert-samples", "H1", "samples=39", 576),
        ("tune-expert-temp", "none", "temp=0.192195", 400),
    ] {
        let c = &records(&format!("results/ladder/{dir}/confirm.csv"))[0];
        assert_eq!((c["decision"].as_str(), num(c, "games") as u32), (decision, games), "{dir}");
        assert!(read(&format!("results/ladder/{dir}/tuned.txt")).contains(tuned), "{dir}");
        let row = format!(
            "| `{}` | `{}` | {} | {} | {:+.0} [{:+.0}, {:+.0}] |",
            c["start"],
            c["tuned"],
            c["games"],
            pct(c, " "),
            num(c, "elo"),
            num(c, "elo_lo"),
            num(c, "elo_hi")
        );
        assert!(table.contains(&row), "tune-expert.md lacks {row}");
        let (score, games) = (pct(c, "\n"), format!("after {games} games"));
        let quoted = [score.as_str(), &score.replace('\n', " "), &score.replace(" [", "\n[")];
        assert!(quoted.iter().any(|q| page.contains(q)), "results/ladder/README.md misses {score} for {dir}");
        assert!(page.contains(&elo(c)) || page.contains(&elo(c).replace(" [", "\n[")), "{dir}: {}", elo(c));
        assert!(page.contains(&games), "{dir}: {games}");
    }
    let c = &records("results/ladder/tune-expert-samples/confirm.csv")[0];
    let e = format!("{:+.0} Elo [{:+.0}, {:+.0}]", num(c, "elo"), num(c, "elo_lo"), num(c, "elo_hi"));
    for doc in ["README.md", "strategies/expert.rs"] {
        let text = read(doc).replace("\n//! ", " ").replace("\n  ", " ");
        assert!(text.contains(&e), "{doc} does not quote {e}");
    }
}

/// STEPS.md quotes the search bots' rates before and after the engine work and the plain-rules
/// kernel's steps as scripts/bench/bench-engine-steps.sh wrote them (its two series).
#[test]
fn the_search_bots_rates_before_and_after_are_those_of_engine_steps() {
    for series in ["engine", "kernel"] {
        let md = read(&format!("results/benchmarks/{series}-steps.md"));
        let table = first_table(&md);
        assert!(table.lines().count() == 4, "{table}");
        assert!(read("results/benchmarks/STEPS.md").contains(&table), "STEPS.md does not quote {series}-steps.md");
        for r in records(&format!("results/benchmarks/{series}-steps.csv")) {
            let ratio = num(&r, "decisions_per_s_new") / num(&r, "decisions_per_s_old");
            assert!((ratio - num(&r, "decisions_ratio")).abs() < 1e-3 && ratio > 1.0, "{r:?}");
            assert!(table.contains(&format!("| {:.2} |", ratio)), "{ratio}");
        }
    }
}

/// The league: `expert` is first among players in every cell; results/ladder/README.md quotes
/// the script's tables as written; README's headline quotes the lead over the runner-up and the
/// gap share at 4 players from the CSVs.
#[test]
fn the_league_figures_are_those_of_league_csv() {
    let md = read("results/ladder/league.md");
    let page = read("results/ladder/README.md");
    for head in [
        "## Ratings at a glance",
        "## The first player against the runner-up",
        "## Share of the montecarlo-to-oracle gap closed",
        "## Skill against time",
    ] {
        let from = md.find(head).unwrap_or_else(|| panic!("{head}"));
        let table = first_table(&md[from..]);
        assert!(page.contains(&table), "results/ladder/README.md does not quote league.md's {head}");
    }
    let rows = records("results/ladder/league.csv");
    let mut leads = Vec::new();
    for preset in ["wikipedia", "dominorules"] {
        for players in ["2", "4", "6"] {
            let cell: Vec<_> = rows.iter().filter(|r| r["preset"] == preset && r["players"] == players).collect();
            let rank =
                |k: &str| cell.iter().find(|r| r["rank"] == k).unwrap_or_else(|| panic!("{preset} {players} {k}"));
            assert_eq!(rank("1")["bot"], "expert", "{preset} {players}");
            leads.push(num(rank("1"), "elo") - num(rank("2"), "elo"));
        }
    }
    assert!(leads.iter().all(|&x| x > 0.0), "{leads:?}");
    // Headline 1's note on the full league: plain search level with the hand-set weights at 2
    // and 4 players (and with cutthroat at 2), clearly ahead of both at 6.
    let elo = |preset: &str, players: &str, bot: &str| {
        let r = rows.iter().find(|r| r["preset"] == preset && r["players"] == players && r["bot"] == bot).unwrap();
        (num(r, "elo_lo"), num(r, "elo_hi"))
    };
    let overlap = |a: (f64, f64), b: (f64, f64)| a.0 <= b.1 && b.0 <= a.1;
    for preset in ["wikipedia", "dominorules"] {
        let mc = |p: &str| elo(preset, p, "montecarlo");
        for p in ["2", "4"] {
            assert!(overlap(mc(p), elo(preset, p, "hand")), "{preset} {p}");
        }
        assert!(overlap(mc("2"), elo(preset, "2", "cutthroat")), "{preset}");
        assert!(mc("6").0 > elo(preset, "6", "hand").1 && mc("6").0 > elo(preset, "6", "cutthroat").1, "{preset}");
    }
    let readme = read("README.md");
    assert!(readme.contains("plain search is level with `weighted`'s hand-set weights at 2 and 4\n  players"));
    let at = readme.find("**`expert` is the strongest player").expect("the headline");
    let quote = readme[at..at + 1700].replace("\n  ", " ");
    // README quotes the league's margins over tuned `weighted` (the runner-up in every cell
    // but one), checked by the_guided_search_headline_matches_strongest_sprt_csv, and the gap
    // shares to the oracle at every table size: it is a ceiling at 2, 4 and 6 players.
    let gap = records("results/ladder/league-gap.csv");
    let shares = |players: &str| -> Vec<f64> {
        gap.iter().filter(|r| r["bot"] == "expert" && r["players"] == players).map(|r| num(r, "share")).collect()
    };
    assert_eq!(shares("4").len(), 2);
    assert!(shares("4").iter().all(|&s| s >= 0.5), "at least half the gap at 4 players: {:?}", shares("4"));
    let two = shares("2");
    let want = format!(
        "`expert` closes {} of the gap to it at 4 players, {} at 2 and {} at 6",
        pct_range(&shares("4")),
        pct_range(&two),
        pct_range(&shares("6"))
    );
    let quote = quote.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(quote.contains(&want), "{want}\n{quote}");
    assert!(page.replace('\n', " ").contains(&format!("At 4 players `expert` closes {}", pct_range(&shares("4")))));
    let v1 = |players: &str| -> Vec<f64> {
        gap.iter().filter(|r| r["bot"] == "expert-v1" && r["players"] == players).map(|r| num(r, "share")).collect()
    };
    let flat_page = page.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        format!(
            "where the former `expert` closed {}; at 2 players {} (the former: {}); at 6 players {} (the former: {}",
            pct_range(&v1("4")),
            pct_range(&two),
            pct_range(&v1("2")),
            pct_range(&shares("6")),
            pct_range(&v1("6"))
        ),
        format!("against it `expert-v1` closes {} at 4 players", pct_range(&v1("4"))),
    ] {
        assert!(flat_page.contains(&want), "{want}");
    }
    // The oracle is a ceiling at 2, 4 and 6 players (rated above expert, intervals apart); the
    // head-to-head scores quoted are the league's.
    let page_flat = page.split_whitespace().collect::<Vec<_>>().join(" ");
    for preset in ["wikipedia", "dominorules"] {
        for players in ["2", "4", "6"] {
            let (o, e) = (elo(preset, players, "oracle"), elo(preset, players, "expert"));
            assert!(o.0 > e.1, "{preset} {players}: oracle {o:?} expert {e:?}");
            let pair = records(&format!("results/ladder/runs/league-{preset}-{players}p/pairs.csv"))
                .into_iter()
                .find(|r| r["a"] == "expert" && r["b"] == "oracle")
                .unwrap();
            let score = format!("{:.1}%", 100.0 * (1.0 - num(&pair, "a_score")));
            let with = format!(
                "{score} [{:.1}, {:.1}]",
                100.0 * (1.0 - num(&pair, "a_score_hi")),
                100.0 * (1.0 - num(&pair, "a_score_lo"))
            );
            let quoted = if players == "2" { score } else { with };
            assert!(page_flat.contains(&quoted), "{preset} {players}: {quoted}");
        }
    }
}

/// Inference from behaviour: results/ladder/README.md quotes the script's table and its result
/// in play; every cell against the policy's own play gains with an interval above 0, and the
/// README's range is the pool-32 whole-round gains.
#[test]
fn the_inference_figures_are_those_of_inference_csv() {
    let md = read("results/ladder/inference.md");
    let page = read("results/ladder/README.md");
    for block in md.split("\n\n").filter(|b| b.starts_with('|')) {
        assert!(
            page.contains(block.trim_end()),
            "results/ladder/README.md does not quote inference.md's table {block}"
        );
    }
    let temps = records("results/ladder/inference-temp.csv");
    assert_eq!(temps.len(), 5);
    assert!(temps.iter().all(|r| num(r, "gain_lo") > 0.0), "{temps:?}");
    let play = md.lines().find(|l| l.starts_with("In play")).expect("the result in play");
    assert!(page.contains(play), "results/ladder/README.md does not quote: {play}");
    let rows = records("results/ladder/inference.csv");
    let whole: Vec<_> = rows.iter().filter(|r| r["stage"] == "all").collect();
    assert_eq!(whole.len(), 8, "4 cells x 2 pools");
    for r in &whole {
        assert!(num(r, "gain_lo") > 0.0, "{r:?}");
    }
    let gains: Vec<f64> = whole
        .iter()
        .filter(|r| r["pool"] == "32" && r["opponents"] == "weighted")
        .map(|r| 100.0 * num(r, "gain"))
        .collect();
    let (lo, hi) = gains.iter().fold((f64::MAX, f64::MIN), |(a, b), &g| (a.min(g), b.max(g)));
    let quote = format!("+{lo:.1} to +{hi:.1}\n  points of tiles in the right hand with a pool of 32");
    assert!(read("README.md").contains(&quote), "README lacks {quote}");
    let p = &records("results/ladder/inference-play.csv")[0];
    assert!(num(p, "score_lo") < 0.5 && num(p, "score_hi") > 0.5, "no gain in play shown: {p:?}");
}

/// A head-to-head quoted in a results README names the bot as its run did: the tuning study's
/// search opponent was the former `expert` (run as `expert-v1`), so no README may say tuned
/// `weighted` beats `expert`, and the tuning study's quote names the run's bot.
#[test]
fn results_readmes_name_the_bots_their_runs_played() {
    let summary = records("results/tuning/runs/search-4p-expert/summary.csv");
    let names: Vec<&str> = summary.iter().map(|r| r["strategy"].as_str()).collect();
    assert_eq!(names, ["tw", "expert-v1"]);
    assert_eq!(summary[1]["spec"], "expert:samples=auto,depth=8,prior=0,rollout=greedy");
    let tuning = read("results/tuning/README.md");
    let at = tuning.find("68.1% [65.4, 70.7]").expect("the four-player head-to-head");
    let sentence = &tuning[tuning[..at].rfind("):").unwrap()..at];
    assert!(sentence.contains("the former `expert` (`expert-v1`"), "{sentence}");
    for file in [
        "README.md",
        "results/tuning/README.md",
        "results/balance/README.md",
        "results/README.md",
        "results/ladder/README.md",
    ] {
        let text = read(file);
        for bad in ["beats `expert` at four", "beats the search bots", "it beats `expert`"] {
            assert!(!text.contains(bad), "{file} says '{bad}'");
        }
    }
}

/// results/analyze: the stability study's table is quoted, the figures in its text are the CSV's,
/// and the stated error rate holds (the share of pairs of runs of one position that separated
/// different moves is at most 1 - confidence).
#[test]
fn the_analysis_stability_figures_are_those_of_stability_csv() {
    let page = read("results/analyze/README.md");
    assert!(page.contains(&read("results/analyze/stability.md")), "the README quotes stability.md");
    let rows = records("results/analyze/stability.csv");
    assert!(rows.len() >= 30, "at least 30 positions");
    assert!(rows.iter().all(|r| r["runs"] == "20"), "20 seeds each");
    for players in ["2 players", "4 players", "6 players"] {
        assert!(rows.iter().any(|r| r["table"].starts_with(players)), "{players}");
    }
    let sum = |c: &str| rows.iter().map(|r| num(r, c)).sum::<f64>();
    let (pairs, differ) = (sum("pairs"), sum("pairs_differ"));
    assert!(differ / pairs <= 0.05, "{differ} of {pairs}");
    let conflicting = rows.iter().filter(|r| num(r, "separated_moves") > 1.0).count();
    assert!(conflicting as f64 / rows.len() as f64 <= 0.05, "{conflicting}");
    let text = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let pairs_text = format!("{:.0}", pairs);
    let with_comma = format!("{},{}", &pairs_text[..pairs_text.len() - 3], &pairs_text[pairs_text.len() - 3..]);
    let quote = format!(
        "Of the {with_comma} pairs of runs of one position, {differ:.0} ({:.2}%) separated",
        100.0 * differ / pairs
    );
    assert!(text.contains(&quote), "{quote}");
    assert!(text.contains(&format!("so {conflicting} position of {} ", rows.len())), "{text}");
    let runs = records("results/analyze/stability-runs.csv");
    let budget = runs.iter().filter(|r| r["stop"] == "worlds" || r["stop"] == "time").count();
    assert!(text.contains(&format!("{budget} of {} reached the 10,000-world cap", runs.len())), "{budget}");
    // The index of results/ quotes the same figures.
    let index = read("results/README.md").split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(index.contains(&format!("{differ:.0} of {with_comma} pairs of runs ({:.2}%)", 100.0 * differ / pairs)));
}

/// results/analyze: the review study's table is quoted and its targets hold: at most 3% of the
/// strongest player's decisions flagged in each match, and at least 80% of the sampled flags
/// confirmed by the players' own bots.
#[test]
fn the_review_flags_are_those_of_review_check_csv() {
    let page = read("results/analyze/README.md");
    assert!(page.contains(&read("results/analyze/review-check.md")), "the README quotes review-check.md");
    let flags = records("results/analyze/review-flags.csv");
    let decisions: f64 = flags.iter().map(|r| num(r, "decisions")).sum();
    let flagged: f64 = flags.iter().map(|r| num(r, "flagged")).sum();
    assert!(flagged / decisions <= 0.03, "{flagged} of {decisions}");
    for r in &flags {
        assert_eq!(num(r, "flagged"), num(r, "mistakes") + num(r, "blunders"), "{r:?}");
        // The target holds in every match, not only over the study.
        assert!(num(r, "flagged") <= 0.03 * num(r, "decisions"), "{r:?}");
    }
    let checks = records("results/analyze/review-check.csv");
    let confirmed = checks.iter().filter(|r| r["confirmed"] == "True").count();
    assert!(confirmed as f64 >= 0.8 * checks.len() as f64, "{confirmed} of {}", checks.len());
    for r in &checks {
        assert_eq!(r["confirmed"] == "True", num(r, "check_loss") > 0.0, "{r:?}");
    }
    let text = page.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains(&format!("({confirmed} of {})", checks.len())), "{text}");
    assert!(text.contains(&format!("flags {flagged:.0} of 1,592 decisions")) && decisions == 1592.0, "{text}");
}

/// results/analyze: the calibration table is quoted; `greedy` self-play analysed with `greedy`
/// rollouts is calibrated (bias within 2 points of win %, Brier better than the base rate); the
/// `weighted` self-play biases quoted in the README and docs/analyze.md are the CSV's.
#[test]
fn the_calibration_figures_are_those_of_calibration_csv() {
    let page = read("results/analyze/README.md");
    assert!(page.contains(&read("results/analyze/calibration.md")), "the README quotes calibration.md");
    let rows = records("results/analyze/calibration.csv");
    let row = |table: &str, bot: &str| rows.iter().find(|r| r["table"] == table && r["seat_bot"] == bot).unwrap();
    let g = row("greedy-4", "greedy");
    assert!(num(g, "bias_win_lo") >= -2.0 && num(g, "bias_win_hi") <= 2.0, "{g:?}");
    assert!(num(g, "skill_lo") > 0.0, "{g:?}");
    let text = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let docs = read("docs/analyze.md").split_whitespace().collect::<Vec<_>>().join(" ");
    let ci = |r: &std::collections::HashMap<String, String>| {
        format!("{:+.1} [{:+.1}, {:+.1}]", num(r, "bias_win"), num(r, "bias_win_lo"), num(r, "bias_win_hi"))
    };
    let (four, six, two) =
        (row("weighted-4", "weighted"), row("weighted-6", "weighted"), row("weighted-2", "weighted"));
    let quote =
        format!("forecast win chance is {} points of % at 4 players, {} at 6 and {} at 2", ci(four), ci(six), ci(two));
    assert!(text.contains(&quote), "{quote}");
    let quote = format!(
        "bias {:+.1} points of % [{:+.1}, {:+.1}] at 4 players ({:+.1} at 6, {:+.1} at 2)",
        num(four, "bias_win"),
        num(four, "bias_win_lo"),
        num(four, "bias_win_hi"),
        num(six, "bias_win"),
        num(two, "bias_win")
    );
    assert!(docs.contains(&quote), "{quote}");
    // Item 2's target: in self-play of the rollout model the bias is within 2 points and the
    // Brier score beats the base rate, at every table size.
    for r in [four, six, two] {
        assert!(num(r, "bias_win").abs() <= 2.0, "{r:?}");
        assert!(num(r, "skill") > 0.0, "{r:?}");
    }
    let e = row("expert-4", "expert");
    assert!(text.contains(&format!(
        "`expert` self-play, whose rollouts and prior are the same policy, is calibrated too: {}",
        ci(e)
    )));
    assert!(
        docs.contains(&format!(
            "(bias {:.1} points of win % [{:.1}, {:+.1}])",
            num(g, "bias_win"),
            num(g, "bias_win_lo"),
            num(g, "bias_win_hi")
        )),
        "{docs}"
    );
}

#[test]
fn the_world_structure_figures_are_those_of_worlds_csv() {
    let page = read("results/analyze/README.md");
    let text = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let docs = read("docs/analyze.md").split_whitespace().collect::<Vec<_>>().join(" ");
    let rows = records("results/analyze/worlds.csv");
    assert_eq!(rows.len(), 5);
    let cell = |r: &std::collections::HashMap<String, String>, a: &str| {
        format!("{:+.1} [{:+.1}, {:+.1}]", num(r, a), num(r, &format!("{a}_lo")), num(r, &format!("{a}_hi")))
    };
    for r in &rows {
        // Every row of the CSV is in the page's table, as written.
        let line = format!(
            "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r["bot"],
            r["players"],
            r["forecasts"],
            r["rounds"],
            r["sampled"],
            r["planned"],
            r["true_hands"],
            r["realised"],
            cell(r, "bias_sampled"),
            cell(r, "bias_planned"),
            cell(r, "bias_true"),
            r["plan_sampled"],
            r["plan_planned"],
            r["plan_true"]
        );
        assert!(page.contains(&line), "{line}");
        // "With the true hands the forecast is calibrated for every bot (each interval covers 0)".
        assert!(num(r, "bias_true_lo") < 0.0 && num(r, "bias_true_hi") > 0.0, "{r:?}");
    }
    let w = |players: &str| rows.iter().find(|r| r["bot"] == "weighted" && r["players"] == players).unwrap();
    let quote = format!(
        "uniform deals `weighted` is off by {:+.1} points at 4 players and {:+.1} at 6",
        num(w("4"), "bias_sampled"),
        num(w("6"), "bias_sampled")
    );
    assert!(text.contains(&quote), "{quote}");
    // `greedy` and `planner` are calibrated with uniform deals (the analysis's `auto` for them).
    for (who, r) in [("greedy", "4"), ("planner", "4")] {
        let r = rows.iter().find(|x| x["bot"] == who && x["players"] == r).unwrap();
        assert!(num(r, "bias_sampled_lo") < 0.0 && num(r, "bias_sampled_hi") > 0.0, "{r:?}");
    }
    let quote = format!(
        "plan of {} tiles at 4 players where a uniform deal of the same size holds {}",
        w("4")["plan_true"],
        w("4")["plan_sampled"]
    );
    assert!(text.contains(&quote), "{quote}");
    let quote = format!(
        "the bias falls to {} at 4 players, {} at 2 and {} at 6",
        cell(w("4"), "bias_planned"),
        cell(w("2"), "bias_planned"),
        cell(w("6"), "bias_planned")
    );
    assert!(text.contains(&quote), "{quote}");
    let quote = format!(
        "({} tiles of own-train trail at 4 players against {} in a uniform deal and {} in a planned one",
        w("4")["plan_true"],
        w("4")["plan_sampled"],
        w("4")["plan_planned"]
    );
    assert!(docs.contains(&quote), "{quote}");
    // With planned deals, `weighted` self-play is within 3 points at every table size.
    for p in ["2", "4", "6"] {
        assert!(num(w(p), "bias_planned").abs() < 3.0, "{p}");
    }
}

/// results/benchmarks/DECISION-COST.md: its table is decision-cost.csv's, the budgets it states
/// are the code's, and no search decision went far past the decision budget (the node columns do
/// not depend on the machine).
#[test]
fn the_decision_cost_table_is_that_of_its_csv_and_keeps_to_the_budgets() {
    use mexican_train::strategies::plan::{DECISION_PLAN_BUDGET, PLAN_BUDGET, ROLLOUT_PLAN_BUDGET};
    let page = read("results/benchmarks/DECISION-COST.md");
    let text = page.split_whitespace().collect::<Vec<_>>().join(" ");
    for quote in [
        format!("at most {} nodes (a bot's own plan)", grouped(u64::from(PLAN_BUDGET))),
        format!("or {} (a plan searched in a search bot's rollout)", grouped(u64::from(ROLLOUT_PLAN_BUDGET))),
        format!("in which they passed {} nodes", grouped(DECISION_PLAN_BUDGET)),
    ] {
        assert!(text.contains(&quote), "{quote}");
    }
    let rows = records("results/benchmarks/decision-cost.csv");
    assert_eq!(rows.len(), 5 * 10, "every preset and bot");
    for r in &rows {
        let line = format!(
            "| {} | `{}` | {} | {} | {:.3} | {:.2} | {:.1} | {} | {} | {} |",
            r["preset"],
            r["bot"],
            grouped(num(r, "decisions") as u64),
            r["max_hand"],
            num(r, "mean_ms"),
            num(r, "p99_ms"),
            num(r, "max_ms"),
            grouped(num(r, "mean_nodes").round() as u64),
            grouped(num(r, "max_nodes") as u64),
            grouped(num(r, "max_rollouts") as u64),
        );
        assert!(page.contains(&line), "{line}");
        // One world past the budget at most: a world of planning rollouts where hands pass 40
        // tiles costs well under another budget.
        assert!(num(r, "max_nodes") <= 3.0 * DECISION_PLAN_BUDGET as f64, "{r:?}");
    }
    // Hands do swell past 40 tiles under the two presets that deal by drawing.
    for preset in ["celko1998", "family_house"] {
        assert!(rows.iter().any(|r| r["preset"] == preset && num(r, "max_hand") >= 40.0), "{preset}");
    }
}

#[test]
fn the_compare_time_is_that_of_results_compare_time_csv() {
    let csv = read("results/compare/time.csv");
    let row: Vec<&str> = csv.lines().nth(1).expect("a row").split(',').collect();
    assert_eq!(row[4], "2", "measured on 2 cores, as the README says");
    let median: f64 = row[1].parse().unwrap();
    assert!(median < 60.0, "the target: under a minute");
    let readme = read("README.md").replace('\n', " ");
    let quote = format!("answer in {median:.1} s on 2 cores (median of 3, `scripts/bench/compare-time.sh`");
    assert!(readme.contains(&quote), "README lacks: {quote}");
}

/// results/house-rules/README.md quotes every player count's summary as `mtrain compare` wrote
/// it, and its table's differences are those of each `compare.csv` at the published hand.
#[test]
fn the_house_rules_study_quotes_its_runs() {
    let readme = read("results/house-rules/README.md");
    let published = [(3, 15), (4, 15), (5, 12), (6, 12), (7, 11), (8, 11)];
    for (p, hand) in published {
        let summary = read(&format!("results/house-rules/p{p}/summary.txt"));
        for para in summary.split("\n\n").map(str::trim).filter(|x| !x.is_empty()) {
            assert!(readme.contains(para), "README lacks p{p}'s summary: {para}");
        }
        let rows = records(&format!("results/house-rules/p{p}/compare.csv"));
        let mark = |v: &str| match v {
            "changes" => "*",
            "no_change" => "=",
            _ => "?",
        };
        for r in rows.iter().filter(|r| r["hand"] == hand.to_string() && r["metric"] == "turns") {
            let shown =
                format!("| {p} | {hand} | `{}` | {:+.1}{} |", r["ruleset"], num(r, "difference"), mark(&r["verdict"]));
            assert!(readme.contains(&shown), "README lacks {shown}");
        }
    }
}

/// docs/compare.md quotes the measured miss rates of `mtrain compare`'s intervals from
/// results/compare/error.csv, at both sample sizes, and the family-wise rate at the default
/// 2000 games holds its claimed 5% (the upper end of its Wilson interval under 5%).
#[test]
fn the_compare_error_rates_are_those_of_error_csv() {
    let doc = read("docs/compare.md").replace("\n  ", " ");
    let rows = records("results/compare/error.csv");
    assert_eq!(rows.len(), 2, "error.csv has one row per sample size");
    for r in &rows {
        let plain = format!(
            "{} of {} differences ({:.2}%)",
            r["plain_misses"],
            r["differences"],
            100.0 * num(r, "plain_miss_rate")
        );
        assert!(doc.contains(&plain), "docs/compare.md lacks: {plain}");
        let family = format!(
            "{} of the {} runs ({:.1}%, {:.1}% to {:.1}%)",
            r["family_misses"],
            r["seeds"],
            100.0 * num(r, "family_miss_rate"),
            100.0 * num(r, "family_lo"),
            100.0 * num(r, "family_hi")
        );
        assert!(doc.contains(&family), "docs/compare.md lacks: {family}");
    }
    let default = rows.iter().find(|r| r["games"] == "2000").expect("a row at 2000 games");
    assert!(num(default, "family_hi") < 0.05, "the adjusted intervals' 5% is not shown to hold");
}

/// docs/strategy.md, the strategy guide: every rule's size is quoted from
/// results/strategy/ablation.csv (the tuned bot against itself with that weight set to 0, at 4
/// and 2 players), every example position from results/strategy/examples.csv, and each example
/// is the move it names in the committed log (the viewer's move N is line N of the file, the
/// `match` line being move 0); the strongest bot's margin is the league's head to head.
#[test]
fn the_strategy_guide_quotes_its_study() {
    let doc = read("docs/strategy.md").split_whitespace().collect::<Vec<_>>().join(" ");
    let ablation = records("results/strategy/ablation.csv");
    let examples = records("results/strategy/examples.csv");
    let log: Vec<String> = read("results/strategy/example.jsonl").lines().map(str::to_string).collect();
    let size = |r: &std::collections::HashMap<String, String>| {
        format!(
            "{:.1}% [{:.1}, {:.1}] ({:+.0} Elo), {:+.2} points a round [{:+.2}, {:+.2}]",
            100.0 * num(r, "score"),
            100.0 * num(r, "score_lo"),
            100.0 * num(r, "score_hi"),
            num(r, "elo"),
            num(r, "points"),
            num(r, "points_lo"),
            num(r, "points_hi")
        )
    };
    let train = |seat: &str, t: &str| match t {
        "mexican" => "the Mexican train".to_string(),
        t if t == seat => "its own train".to_string(),
        t => format!("seat {t}'s train"),
    };
    let and_list = |items: &[&str]| match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    let mut quoted = 0;
    let features: Vec<&str> = ablation.iter().filter(|r| r["players"] == "4").map(|r| r["feature"].as_str()).collect();
    assert_eq!(features.len(), 13, "every feature of `weighted`");
    for f in features {
        let row = |players: &str| {
            ablation
                .iter()
                .find(|r| r["feature"] == f && r["players"] == players && r["rules"] == "wikipedia")
                .unwrap_or_else(|| panic!("ablation.csv lacks {f} at {players} players"))
        };
        let at = doc.find(&format!("(`weighted:{f}=0`)")).unwrap_or_else(|| panic!("docs/strategy.md lacks {f}"));
        let section = &doc[at..doc[at..].find("### ").map_or(doc.len(), |e| at + e)];
        let want = format!("at 4 players {}; at 2 players {}", size(row("4")), size(row("2")));
        assert!(section.contains(&want), "docs/strategy.md, {f}: lacks '{want}'");
        let w = format!("weight {:+.2}", num(row("4"), "weight"));
        assert!(section.contains(&w), "docs/strategy.md, {f}: lacks '{w}'");
        // The example: a move of the tuned bot that the bot without the rule plays otherwise.
        let Some(e) = examples.iter().find(|e| e["feature"] == f && !e["move"].is_empty()) else { continue };
        assert_eq!((e["alt_kind"].as_str(), e["alt_seat"].as_str()), ("play", e["seat"].as_str()), "{f}");
        let m: usize = e["move"].parse().unwrap();
        let line = log.get(m).unwrap_or_else(|| panic!("example.jsonl has no move {m}"));
        for field in [
            "\"event\":\"play\"".to_string(),
            format!("\"seat\":{}", e["seat"]),
            format!("\"tile\":\"{}\"", e["tile"]),
            match e["train"].parse::<u32>() {
                Ok(t) => format!("\"train\":{t}"),
                Err(_) => format!("\"train\":\"{}\"", e["train"]),
            },
        ] {
            assert!(line.contains(&field), "{f}: move {m} of example.jsonl is not {field}: {line}");
        }
        let hands: Vec<&str> = e["hands"].split(' ').collect();
        let marked: Vec<&str> = e["marked"].split(' ').filter(|s| !s.is_empty()).collect();
        let markers = match marked.len() {
            0 => String::new(),
            1 => format!(", a marker on seat {}", marked[0]),
            _ => format!(", markers on seats {}", and_list(&marked)),
        };
        let want = format!(
            "move {m} (round {}, hands of {} tiles{markers}): seat {} plays {} on {}, where without the rule it would play {} on {}",
            e["round"],
            and_list(&hands),
            e["seat"],
            e["tile"],
            train(&e["seat"], &e["train"]),
            e["alt_tile"],
            train(&e["seat"], &e["alt_train"])
        );
        assert!(section.contains(&want), "docs/strategy.md, {f}: lacks '{want}'");
        quoted += 1;
    }
    assert!(quoted >= 10, "ten or so rules with an example each: {quoted}");
    // The method as stated: 13 features at 2 and 4 players, 24,000 games each; the log's moves.
    assert_eq!(ablation.len(), 26, "13 features at 2 and 4 players");
    assert!(ablation.iter().all(|r| r["games"] == "24000" && r["rules"] == "wikipedia"));
    assert!(doc.contains("24,000 games at 4 players (two seats each) and 24,000 at 2 players"));
    let moves = log.len() - 1;
    assert!(doc.contains("mtrain view results/strategy/example.jsonl"));
    let thousands = format!("{},{:03}", moves / 1000, moves % 1000);
    assert!(doc.contains(&format!("{thousands} moves")) && doc.contains(&format!("/ {moves}`")), "{moves} moves");
    // results/strategy/README.md holds the table as the script wrote it; its finding and the
    // results index's headline are the CSV's.
    let page = read("results/strategy/README.md");
    let table = read("results/strategy/ablation.md");
    assert!(page.contains(table.split_once("\n\n").unwrap().1), "results/strategy/README.md quotes ablation.md");
    let at = |f: &str, players: &str| {
        ablation.iter().find(|r| r["feature"] == f && r["players"] == players).unwrap_or_else(|| panic!("{f}"))
    };
    let pts = |r: &std::collections::HashMap<String, String>| {
        format!("{:+.2} [{:+.2}, {:+.2}]", num(r, "points"), num(r, "points_lo"), num(r, "points_hi"))
    };
    let index = read("results/README.md");
    for want in [
        format!(
            "worth {:+.2} points a round [{:+.2}, {:+.2}] at 4 players (the tuned bot ends ahead in {:.1}% of meetings)",
            num(at("plan_tile", "4"), "points"),
            num(at("plan_tile", "4"), "points_lo"),
            num(at("plan_tile", "4"), "points_hi"),
            100.0 * num(at("plan_tile", "4"), "score")
        ),
        format!(
            "laying the chain in order {}, playing on the Mexican train {};",
            pts(at("plan", "4")),
            pts(at("mexican", "4"))
        ),
        "`open_double` and `void_end` are worth under 0.1 points a round at 4 players".to_string(),
        "`other`, `follow` and `urgent` help at 4 players and cost at 2".to_string(),
    ] {
        assert!(index.contains(&want), "results/README.md lacks '{want}'");
    }
    for f in ["open_double", "void_end"] {
        assert!(num(at(f, "4"), "points").abs() < 0.1, "{f}");
    }
    for f in ["other", "follow", "urgent"] {
        assert!(num(at(f, "4"), "points_lo") > 0.0 && num(at(f, "2"), "points_hi") < 0.0, "{f}");
    }
    let largest =
        ablation.iter().filter(|r| r["players"] == "4").max_by(|a, b| num(a, "points").total_cmp(&num(b, "points")));
    assert_eq!(largest.unwrap()["feature"], "plan_tile");
    assert!(page.contains("`other`, `follow` and `urgent` help at 4 players and cost at 2"));
    // "The rules, largest first": the rules before the section on weights that do not pay come
    // in order of the points a round they save at 4 players.
    let cut = doc.find("## What the policy weighs but does not pay").expect("the section");
    let mut order: Vec<(usize, f64)> = ablation
        .iter()
        .filter(|r| r["players"] == "4")
        .filter_map(|r| doc[..cut].find(&format!("(`weighted:{}=0`)", r["feature"])).map(|p| (p, num(r, "points"))))
        .collect();
    order.sort_by_key(|o| o.0);
    assert_eq!(order.len(), 11, "eleven rules");
    assert!(order.windows(2).all(|w| w[0].1 >= w[1].1), "the rules are not largest first: {order:?}");
    // Two claims from the strategy league: `hoarder` last but `random` at 4 and 6 players, and
    // `greedy` below `planner` and `cutthroat` under wikipedia at 2, 4 and 6.
    let league = records("results/strategies/league.csv");
    let rank = |preset: &str, players: &str, bot: &str| -> u32 {
        league
            .iter()
            .find(|r| r["preset"] == preset && r["players"] == players && r["bot"] == bot)
            .map(|r| r["rank"].parse().unwrap())
            .unwrap()
    };
    for preset in ["wikipedia", "dominorules"] {
        for players in ["4", "6"] {
            assert_eq!(rank(preset, players, "hoarder") + 1, rank(preset, players, "random"), "{preset} {players}");
            assert_eq!(rank(preset, players, "random"), 7);
        }
    }
    for players in ["2", "4", "6"] {
        let g = rank("wikipedia", players, "greedy");
        assert!(g > rank("wikipedia", players, "planner") && g > rank("wikipedia", players, "cutthroat"), "{players}");
    }
    // The strongest bot: `expert` against tuned `weighted` head to head in the league.
    for players in ["2", "4"] {
        let pair = records(&format!("results/ladder/runs/league-wikipedia-{players}p/pairs.csv"))
            .into_iter()
            .find(|r| r["a"] == "weighted" && r["b"] == "expert")
            .unwrap();
        let want = format!(
            "{:.1}% [{:.1}, {:.1}] at {players} players",
            100.0 * (1.0 - num(&pair, "a_score")),
            100.0 * (1.0 - num(&pair, "a_score_hi")),
            100.0 * (1.0 - num(&pair, "a_score_lo"))
        );
        assert!(doc.contains(&want), "docs/strategy.md lacks '{want}'");
    }
    let gain = records("results/tuning/gain.csv").into_iter().find(|r| r["preset"] == "wikipedia").unwrap();
    let want = format!(
        "{:.1}% [{:.1}, {:.1}] of 4-player matches against {:.1}% [{:.1}, {:.1}]",
        100.0 * num(&gain, "tuned_win"),
        100.0 * num(&gain, "tuned_win_lo"),
        100.0 * num(&gain, "tuned_win_hi"),
        100.0 * num(&gain, "start_win"),
        100.0 * num(&gain, "start_win_lo"),
        100.0 * num(&gain, "start_win_hi")
    );
    assert!(doc.contains(&want), "docs/strategy.md lacks '{want}'");
}

/// README quotes the play page's speed, hint times and size from results/web/speed.csv, and the
/// page meets its targets: at least half the native engine's rate, a typical (median) hint under
/// a second, under 3 MB.
#[test]
fn the_web_page_figures_are_those_of_speed_csv() {
    let r = records("results/web/speed.csv").remove(0);
    let readme = read("README.md").replace('\n', " ");
    let thousands = |x: f64| {
        let s = format!("{x:.0}");
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let quote = format!(
        "plays {} greedy rounds a second against {} natively for the same work ({:.3} of native); a hint at the analyst's defaults takes a median of {:.2} s over the first {} decisions of a 4-player game, the slowest {:.2} s",
        thousands(num(&r, "browser_rounds_per_s")),
        thousands(num(&r, "native_rounds_per_s")),
        num(&r, "browser_share"),
        num(&r, "hint_s"),
        r["hints"],
        num(&r, "hint_max_s"),
    );
    assert!(readme.contains(&quote), "README lacks: {quote}");
    let quote = format!("the page is {} bytes", thousands(num(&r, "page_bytes")));
    assert!(readme.contains(&quote), "README lacks: {quote}");
    assert!(num(&r, "browser_share") >= 0.5, "the page plays under half the native rate");
    assert!(num(&r, "hint_s") < 1.0, "a hint takes a second or more");
    assert!(num(&r, "page_bytes") < 3e6, "the page is 3 MB or more");
}

/// README and results/eval/README.md quote the mtrain-eval v1 leaderboard as
/// results/eval/leaderboard.csv has it (scripts/studies/eval-leaderboard.sh): each bot's rating
/// with its interval, and results/eval/README.md's table is results/eval/leaderboard.md; the
/// timing of `mtrain eval --bot greedy` is greedy's run's.
#[test]
fn the_eval_leaderboard_figures_are_those_of_leaderboard_csv() {
    let rows = records("results/eval/leaderboard.csv");
    assert!(rows.len() >= 5, "the leaderboard has {} rows", rows.len());
    let readme = read("README.md");
    let results = read("results/eval/README.md");
    assert!(
        results.contains(&read("results/eval/leaderboard.md")),
        "results/eval/README.md lacks leaderboard.md's table"
    );
    for r in &rows {
        let quote = format!(
            "| {} | {:+.0} [{:+.0}, {:+.0}] |",
            r["bot"],
            num(r, "rating"),
            num(r, "rating_lo"),
            num(r, "rating_hi")
        );
        assert!(readme.contains(&quote), "README lacks: {quote}");
    }
    let greedy = rows.iter().find(|r| r["bot"] == "greedy").expect("greedy's row");
    let quote = format!("`mtrain eval --bot greedy --threads 2` took {} s", greedy["seconds"]);
    assert!(readme.contains(&quote), "README lacks: {quote}");
}

/// STEPS.md's table of the plain-rules kernel's steps: its last row is the run that wrote the
/// budgets (`scripts/bench/instructions.sh --update`), so its figures are budgets.csv's.
#[test]
fn the_kernel_steps_last_row_is_the_budgets() {
    let steps = read("results/benchmarks/STEPS.md");
    let section = steps.split("## The plain-rules kernel").nth(1).expect("the kernel's section");
    let table = first_table(section);
    let last = table.lines().last().expect("a row");
    let cells: Vec<&str> = last.trim_matches('|').split('|').map(str::trim).collect();
    let budget = |name: &str| {
        let r = records("results/benchmarks/budgets.csv").into_iter().find(|r| r["name"] == name).expect(name);
        // Grouped by thousands, as the table writes it.
        grouped(r["instructions"].parse().unwrap())
    };
    let want = ["greedy_round", "greedy_round_general", "montecarlo_decision", "tournament_round", "expert_decision"]
        .map(budget);
    assert_eq!(&cells[1..], &want[..], "{last}");
}

/// README's paragraph on instruction counts quotes budgets.csv (the last `instructions.sh
/// --update`): the greedy round, the `montecarlo` and `expert` decisions, the tournament's
/// overheads over the engine round and the plain loop's gain over the general machine.
#[test]
fn readme_instruction_counts_are_the_budgets() {
    let readme = read("README.md").split_whitespace().collect::<Vec<_>>().join(" ");
    let b = |name: &str| -> f64 {
        let r = records("results/benchmarks/budgets.csv").into_iter().find(|r| r["name"] == name).expect(name);
        r["instructions"].parse().unwrap()
    };
    let want = [
        format!("counts a greedy round ({} instructions)", grouped(b("greedy_round") as u64)),
        format!("a `montecarlo` decision ({})", grouped(b("montecarlo_decision") as u64)),
        format!("an `expert` decision ({})", grouped(b("expert_decision") as u64)),
        format!(
            "({:.1}% above `play_round` alone with full matches, {:.1}% with one-round games)",
            (b("tournament_match_round") / b("greedy_round_all") - 1.0) * 100.0,
            (b("tournament_round") / b("greedy_round") - 1.0) * 100.0
        ),
        format!("A greedy round is {:.2}x fewer instructions", b("greedy_round_general") / b("greedy_round")),
    ];
    for w in want {
        assert!(readme.contains(&w), "README does not say: {w}");
    }
}

/// The value network's quality: results/ladder/README.md quotes the study's page as written, the
/// page's table is value-quality.csv's, and each figure the prose draws from it is recomputed.
#[test]
fn the_value_quality_figures_are_those_of_value_quality_csv() {
    let md = read("results/ladder/value-quality.md");
    let page = read("results/ladder/README.md");
    assert!(page.contains(&md), "results/ladder/README.md does not quote value-quality.md as it is");
    let rows = records("results/ladder/value-quality.csv");
    let at = |stage: &str, judge: &str, k: &str| {
        rows.iter().find(|r| r["stage"] == stage && r["judge"] == judge && r["k"] == k).unwrap()
    };
    // Every row of the page's table carries the CSV's Brier scores and margin error.
    let table = first_table(&md);
    for judge in ["net", "playouts", "hands", "cut"] {
        for k in ["1", "2", "4", "8", "16"] {
            if judge == "net" && k != "1" {
                continue;
            }
            let cells: Vec<&str> =
                ["all", "opening", "middle", "ending"].iter().map(|s| at(s, judge, k)["brier"].as_str()).collect();
            let line = format!(" | {k} | ");
            let mse = &at("all", judge, k)["margin_mse"];
            assert!(
                table.lines().any(|l| l.contains(&line)
                    && l.contains(&format!("| {} | {} | {} | {} | {mse} |", cells[0], cells[1], cells[2], cells[3]))),
                "value-quality.md lacks the row of {judge} k={k}"
            );
        }
    }
    // The prose's figures.
    let b3 = |stage: &str, judge: &str, k: &str| format!("{:.3}", num(at(stage, judge, k), "brier"));
    for quoted in [
        format!("scores a Brier of {} against {} for one", b3("all", "net", "1"), b3("all", "playouts", "1")),
        format!("playout and {} for two", b3("all", "playouts", "2")),
        format!("score\n  {}, as well", b3("all", "cut", "1")),
        format!(
            "helping at about {} (16 of them), while 16 playouts reach {}",
            b3("all", "cut", "16"),
            b3("all", "playouts", "16")
        ),
        format!("hand-judged rollouts {}", b3("all", "hands", "16")),
        format!("(Brier {} against {} in the opening)", b3("ending", "net", "1"), b3("opening", "net", "1")),
    ] {
        assert!(page.contains(&quoted), "results/ladder/README.md lacks '{quoted}'");
    }
    // The judges' cost: the page's rounded microseconds are the cost file's.
    let cost = records("results/ladder/value-cost.csv");
    let us = |j: &str| num(cost.iter().find(|r| r["judge"] == j).unwrap(), "us_per_call");
    for quoted in [
        format!("One call (about {:.0} µs)", us("net")),
        format!("one playout (about {:.0} µs)", us("playout")),
        format!("network (about {:.0} µs)", us("cut")),
    ] {
        assert!(page.replace("\n  ", " ").contains(&quoted), "results/ladder/README.md lacks '{quoted}'");
    }
    // The calibration claim: below 0.4, every band within 0.011; 0.4-0.5 too high by 0.031.
    let cal: Vec<_> =
        records("results/ladder/value-calibration.csv").into_iter().filter(|r| r["judge"] == "net").collect();
    let (mut below, mut total) = (0.0, 0.0);
    for r in &cal {
        let (b, n, gap) = (num(r, "bin"), num(r, "positions"), num(r, "mean_predicted") - num(r, "mean_reference"));
        total += n;
        if b < 4.0 {
            below += n;
            assert!(gap.abs() < 0.0115, "band {b}: {gap}");
        } else if b == 4.0 {
            assert_eq!(format!("{gap:.3}"), "0.031");
        }
    }
    assert!(below / total > 0.9 && below / total < 0.96, "more than nine positions in ten: {}", below / total);
}

/// `learned`, the baseline without search: results/ladder/README.md quotes the study's table as
/// written, and each row's score and Elo are learned.csv's.
#[test]
fn the_learned_baseline_figures_are_those_of_learned_csv() {
    let md = read("results/ladder/learned.md");
    let page = read("results/ladder/README.md");
    assert!(page.contains(&md), "results/ladder/README.md does not quote learned.md as it is");
    let rows = records("results/ladder/learned.csv");
    assert_eq!(rows.len(), 8);
    for r in &rows {
        let pct = |c: &str| format!("{:.1}", 100.0 * num(r, c));
        let elo = |c: &str| format!("{:+.0}", num(r, c));
        let line = format!(
            "| `{}` | {} | `{}` | {} | {}% [{}, {}] | {} [{}, {}] |",
            r["preset"],
            r["players"],
            r["opponent"],
            r["games"],
            pct("score"),
            pct("score_lo"),
            pct("score_hi"),
            elo("elo"),
            elo("elo_lo"),
            elo("elo_hi")
        );
        assert!(md.contains(&line), "learned.md lacks '{line}'");
    }
}

/// The prose around learned.md: the Elo differences and the networks' agreement with `expert`
/// (from each network file's record of its training).
#[test]
fn the_learned_baseline_prose_is_that_of_its_csv_and_networks() {
    let page = read("results/ladder/README.md").replace("\n  ", " ");
    let rows = records("results/ladder/learned.csv");
    let elo = |preset: &str, players: &str, opp: &str| {
        let r = rows.iter().find(|r| r["preset"] == preset && r["players"] == players && r["opponent"] == opp).unwrap();
        format!("{:+.0}", num(r, "elo"))
    };
    for quoted in [
        format!(
            "by {} Elo at two players and {} at four",
            elo("wikipedia", "2", "weighted"),
            elo("wikipedia", "4", "weighted")
        ),
        format!(
            "({} and {} Elo, intervals across 0)",
            elo("dominorules", "2", "weighted"),
            elo("dominorules", "4", "weighted")
        ),
    ] {
        assert!(page.contains(&quoted), "results/ladder/README.md lacks '{quoted}'");
    }
    // Above 0 under wikipedia, across 0 under dominorules, below 0 against expert everywhere.
    for r in &rows {
        let (lo, hi) = (num(r, "elo_lo"), num(r, "elo_hi"));
        match (r["preset"].as_str(), r["opponent"].as_str()) {
            ("wikipedia", "weighted") => assert!(lo > 0.0, "{r:?}"),
            ("dominorules", "weighted") => assert!(lo < 0.0 && hi > 0.0, "{r:?}"),
            _ => assert!(hi < 0.0, "{r:?}"),
        }
    }
    let worst = rows.iter().filter(|r| r["opponent"] == "expert").map(|r| num(r, "elo")).fold(0.0, f64::min);
    let best = rows.iter().filter(|r| r["opponent"] == "expert").map(|r| num(r, "elo")).fold(f64::MIN, f64::max);
    assert!(page.contains(&format!("by {:.0} to {:.0} Elo", -best, -worst)));
    let readme = read("README.md").replace("\n  ", " ");
    assert!(readme.contains(&format!("stays {:.0} to {:.0} Elo below `expert`", -best, -worst)), "README");
    let mut agreements = Vec::new();
    for players in [2, 4] {
        let file: serde_json::Value =
            serde_json::from_str(&read(&format!("strategies/nets/learned-d12-{players}p.json"))).unwrap();
        let agree =
            file["trained"]["epochs"].as_array().unwrap().last().unwrap()["held_out_agreement"].as_f64().unwrap();
        let at = if players == 4 { "at four" } else { "at two" };
        let quoted = format!("{:.1}% of decisions {at}", 100.0 * agree);
        let alt = format!("{:.1}% {at}", 100.0 * agree);
        assert!(page.contains(&quoted) || page.contains(&alt), "results/ladder/README.md lacks '{quoted}'");
        let weighted = file["trained"]["weighted_held_out_agreement"].as_f64().unwrap();
        agreements.push((agree, weighted));
    }
    // weighted's agreement with expert on the same decisions, four players first, and above learned's.
    let quoted = format!("picks it at {:.1}% and {:.1}% of the same", 100.0 * agreements[1].1, 100.0 * agreements[0].1);
    assert!(page.replace('\n', " ").contains(&quoted), "results/ladder/README.md lacks '{quoted}'");
    assert!(agreements.iter().all(|&(l, w)| w > l), "{agreements:?}");
}

/// results/ladder/leaf-net.md (`expert:leaf=net` against `expert`) carries every row of the
/// study's CSVs: the depths, the equal-time measurements, the SPRTs and the curve.
#[test]
fn the_leaf_net_figures_are_those_of_its_csvs() {
    let md = read("results/ladder/leaf-net.md");
    let page = read("results/ladder/README.md");
    assert!(page.contains(&md), "results/ladder/README.md does not quote leaf-net.md as it is");
    let pct = |r: &std::collections::HashMap<String, String>| {
        let p = |c: &str| format!("{:.1}", 100.0 * num(r, c));
        format!("{}% [{}, {}]", p("score"), p("score_lo"), p("score_hi"))
    };
    let elo = |r: &std::collections::HashMap<String, String>| {
        let e = |c: &str| format!("{:+.0}", num(r, c));
        format!("{} [{}, {}]", e("elo"), e("elo_lo"), e("elo_hi"))
    };
    let ms = |r: &std::collections::HashMap<String, String>| format!("{:.2}", num(r, "ns_per_decision") / 1e6);
    let depth = records("results/ladder/leaf-net/depth.csv");
    assert_eq!(depth.len(), 6);
    for r in depth.iter().filter(|r| r["depth"] != "expert") {
        let line = format!("| {} | {} | {} | {} |", r["depth"], pct(r), elo(r), ms(r));
        assert!(md.contains(&line), "leaf-net.md lacks '{line}'");
    }
    // Equal time: the medians of five runs a bot, and the worlds they imply.
    let time = records("results/ladder/leaf-net/time.csv");
    assert_eq!(time.len(), 10);
    for players in ["4", "2"] {
        let rs: Vec<_> = time.iter().filter(|r| r["players"] == players).collect();
        let median = |c: &str| {
            let mut v: Vec<f64> = rs.iter().map(|r| num(r, c)).collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let (e, l, p) = (median("expert_ns"), median("leaf_ns"), median("pinned_ns"));
        let implied = 31.0 * e / l;
        let line = format!(
            "| {players} | {:.2} | {:.2} | {implied:.1} | {} | {:.2} |",
            e / 1e6,
            l / 1e6,
            rs[0]["pinned_samples"],
            p / 1e6
        );
        assert!(md.contains(&line), "leaf-net.md lacks '{line}'");
        // The pinned worlds are the implied ones, rounded, as measured when the study was written
        // (a rerun's times drift on a shared machine: within 10% of them).
        let pinned = num(rs[0], "pinned_samples");
        assert!((implied / pinned - 1.0).abs() < 0.10, "{players} players: {implied} worlds implied, {pinned} pinned");
    }
    let sprt = records("results/ladder/leaf-net/sprt.csv");
    assert_eq!(sprt.len(), 4);
    for r in &sprt {
        let games: u64 = r["games"].parse().unwrap();
        assert!(games <= 1200 && (r["decision"] != "undecided" || games == 1200), "{r:?}");
        let line = format!("| {} | {} | `{}` | ", r["preset"], r["players"], r["spec"]);
        let tail = format!(" | {} | {} | {:.2} | {} |", pct(r), elo(r), num(r, "llr"), r["decision"]);
        assert!(md.lines().any(|l| l.starts_with(&line) && l.ends_with(&tail)), "leaf-net.md lacks the SPRT {r:?}");
    }
    let curve = records("results/ladder/leaf-net/curve.csv");
    assert_eq!(curve.len(), 8);
    for r in &curve {
        let params: u64 = r["parameters"].parse().unwrap();
        let line = format!(
            "| {} | `{}` | `{}` | {} | {} | {} | {} |",
            r["setting"],
            r["spec"],
            r["opponent"],
            grouped(params),
            r["held_out_mse"],
            pct(r),
            elo(r)
        );
        assert!(md.contains(&line), "leaf-net.md lacks '{line}'");
    }
}

/// The prose that quotes the leaf=net study (README, results/ladder/README.md, docs/labels.md,
/// `expert`'s rustdoc) says what its CSVs say.
#[test]
fn the_leaf_net_prose_is_that_of_its_csvs() {
    let flat = |rel: &str| read(rel).replace("//!", " ").split_whitespace().collect::<Vec<_>>().join(" ");
    let (readme, page, labels, expert) =
        (flat("README.md"), flat("results/ladder/README.md"), flat("docs/labels.md"), flat("strategies/expert.rs"));
    let sprt = records("results/ladder/leaf-net/sprt.csv");
    let cell = |preset: &str, players: &str| {
        sprt.iter()
            .find(|r| r["preset"] == preset && r["players"] == players)
            .unwrap_or_else(|| panic!("{preset} {players}"))
    };
    let e = |r: &std::collections::HashMap<String, String>, c: &str| format!("{:+.0}", num(r, c));
    // H0 at wikipedia, undecided at dominorules, as every page says.
    for p in ["2", "4"] {
        assert_eq!(cell("wikipedia", p)["decision"], "H0");
        assert_eq!(cell("dominorules", p)["decision"], "undecided");
    }
    let elos: Vec<f64> = sprt.iter().map(|r| num(r, "elo").round()).collect();
    let (lo, hi) = elos.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(
        readme.contains(&format!("{lo:+.0} to {hi:+.0} Elo in the four SPRT cells")),
        "README lacks the SPRT range"
    );
    assert!(elos.iter().all(|x| x.abs() <= 10.0), "the pages say every estimate is within 10 Elo of level");
    let worlds = |p: &str| {
        records("results/ladder/leaf-net/time.csv").into_iter().find(|r| r["players"] == p).unwrap()["pinned_samples"]
            .clone()
    };
    let (w4, w2) = (worlds("4"), worlds("2"));
    assert!(labels.contains(&format!("({w4} worlds a move at four players, {w2} at two")));
    assert!(expert.contains(&format!("`depth=4`, {w4} worlds a move at four players, {w2} at two")));
    assert!(page.contains(&format!("buys it {w4} worlds a move at four players and {w2} at two")));
    let (w2c, w4c) = (cell("wikipedia", "2"), cell("wikipedia", "4"));
    assert!(page.contains(&format!("at 2 and 4 players ({} and {} Elo)", e(w2c, "elo"), e(w4c, "elo"))));
    for p in ["2", "4"] {
        let r = cell("dominorules", p);
        let s = format!("{} [{}, {}] at {p}", e(r, "elo"), e(r, "elo_lo"), e(r, "elo_hi"));
        assert!(page.contains(&s), "results/ladder/README.md lacks '{s}'");
    }
    assert!(labels.contains(&format!("(-1 and {} Elo", e(cell("dominorules", "4"), "elo"))));
    // The depths and the curve.
    let depth = records("results/ladder/leaf-net/depth.csv");
    let d = |k: &str| e(depth.iter().find(|r| r["depth"] == k).unwrap(), "elo");
    assert!(page.contains(&format!("(`depth=0`) loses {} Elo", &d("0")[1..])));
    assert!(page.contains(&format!(
        "({} and {} Elo, 200 games); after 12 it falls back to {}",
        d("4"),
        d("8"),
        d("12")
    )));
    let curve = records("results/ladder/leaf-net/curve.csv");
    let c = |axis: &str, setting: &str| {
        e(curve.iter().find(|r| r["axis"] == axis && r["setting"] == setting).unwrap(), "elo")
    };
    for s in [
        format!(
            "A smaller network (32-16) scores {} Elo and the shipped size {}",
            c("size", "32-16"),
            c("size", "64-32")
        ),
        format!("a larger one (128-64) {}", c("size", "128-64")),
        format!("(1,250 matches) {}", c("labels", "1250")),
        format!("it is level ({}), at 62 behind ({})", c("samples", "16"), c("samples", "62")),
    ] {
        assert!(page.contains(&s), "results/ladder/README.md lacks '{s}'");
    }
}

/// STEPS.md's rates against the bare prototype are floor-rates.csv's: for each build and kind of
/// tournament, the median and range over the pairs of the prototype's seconds over mtrain's.
#[test]
fn the_floor_rates_in_steps_are_floor_rates_csv() {
    let steps = read("results/benchmarks/STEPS.md").split_whitespace().collect::<Vec<_>>().join(" ");
    // Each build's ratios (the prototype's seconds over mtrain's) in a column, sorted.
    let ratios = |path: &str, build: &str, col: &str| -> Vec<f64> {
        let mut r: Vec<f64> = records(path)
            .iter()
            .filter(|r| r["build"] == build)
            .map(|r| r["floor_s"].parse::<f64>().unwrap() / r[col].parse::<f64>().unwrap())
            .collect();
        r.sort_by(f64::total_cmp);
        r
    };
    let median =
        |r: &[f64]| if r.len() % 2 == 1 { r[r.len() / 2] } else { (r[r.len() / 2 - 1] + r[r.len() / 2]) / 2.0 };
    let csv = "results/benchmarks/floor-rates.csv";
    let (full, one) = (ratios(csv, "new", "full_match_s"), ratios(csv, "new", "one_round_s"));
    let (base_full, base_one) = (ratios(csv, "base", "full_match_s"), ratios(csv, "base", "one_round_s"));
    let engine = ratios(csv, "new", "engine_s");
    assert_eq!(full.len(), 7);
    // The runner without statistics (results/benchmarks/prototypes/no-statistics.patch) as the
    // base of a run of its own.
    let proto = "results/benchmarks/prototypes/floor-rates.csv";
    let want = [
        format!(
            "full matches {:.3}x its greedy rounds per CPU-second ({:.3} to {:.3} over {} pairs; the base {:.3}x)",
            median(&full),
            full[0],
            full[full.len() - 1],
            full.len(),
            median(&base_full)
        ),
        format!(
            "one-round games {:.3}x ({:.3} to {:.3}; the base {:.3}x)",
            median(&one),
            one[0],
            one[one.len() - 1],
            median(&base_one)
        ),
        format!("the engine alone {:.3}x ({:.3} to {:.3})", median(&engine), engine[0], engine[engine.len() - 1]),
        format!(
            "without statistics plays one-round games at {:.3}x and full matches at {:.3}x (HEAD {:.3}x and {:.3}x in the same run)",
            median(&ratios(proto, "base", "one_round_s")),
            median(&ratios(proto, "base", "full_match_s")),
            median(&ratios(proto, "new", "one_round_s")),
            median(&ratios(proto, "new", "full_match_s"))
        ),
    ];
    for w in want {
        assert!(steps.contains(&w), "STEPS.md does not say: {w}");
    }
}

/// STEPS.md's table of what the greedy round does beyond the prototype (instructions, data
/// reads and writes, misses, mispredicted branches a round) is floor-memory.csv, as
/// scripts/bench/floor-memory.sh wrote it.
#[test]
fn the_memory_traffic_in_steps_is_floor_memory_csv() {
    let steps = read("results/benchmarks/STEPS.md");
    // One decimal, the whole part grouped by thousands.
    let cell = |x: &str| {
        let (whole, tenth) = x.split_once('.').expect("one decimal");
        format!("{}.{tenth}", grouped(whole.parse().unwrap()))
    };
    let rows = records("results/benchmarks/floor-memory.csv");
    assert_eq!(rows.len(), 2);
    for (r, label) in rows.iter().zip(["the prototype (`floor play`)", "mtrain's greedy round"]) {
        let cols = ["instructions", "data_reads", "data_writes", "d1_misses", "mispredicted_branches"];
        let row = format!("| {label} | {} |", cols.map(|c| cell(&r[c])).join(" | "));
        assert!(steps.contains(&row), "STEPS.md lacks {row}");
    }
}
