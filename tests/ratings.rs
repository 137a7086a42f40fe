//! Ratings and gauntlets through `mtrain tournament` as a user runs them: ratings.csv and the
//! console table, the anchor, a gauntlet's lineups and report, merged shards, and the bad
//! inputs (one line, exit code 2).

use std::path::Path;

mod common;
use common::{rejects, run_ok, temp_path};

/// The rows of a CSV file as maps from column to cell.
fn rows(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().clone();
    r.records()
        .map(|rec| header.iter().map(String::from).zip(rec.unwrap().iter().map(String::from)).collect())
        .collect()
}

fn num(row: &std::collections::BTreeMap<String, String>, col: &str) -> f64 {
    row[col].parse().unwrap_or_else(|_| panic!("{col}: {:?}", row[col]))
}

/// Two bots: the joint rating is the pair's own Elo difference (up to the prior's one virtual
/// level comparison), and its interval about the width of the pair's.
#[test]
fn two_bots_rate_as_their_head_to_head_score() {
    let d = temp_path("two");
    let out = d.to_str().unwrap();
    run_ok(&[
        "tournament",
        "--players",
        "2",
        "--bots",
        "greedy,random",
        "--games",
        "600",
        "--seed",
        "4",
        "--quiet",
        "--out",
        out,
    ]);
    let pair = &rows(&d.join("pairs.csv"))[0];
    let ratings = rows(&d.join("ratings.csv"));
    assert_eq!(ratings.len(), 2);
    assert_eq!(
        (ratings[0]["bot"].as_str(), ratings[0]["anchor"].as_str(), num(&ratings[0], "elo")),
        ("greedy", "1", 0.0)
    );
    // random's rating is minus greedy's edge over it.
    let (elo, pair_elo) = (num(&ratings[1], "elo"), num(pair, "elo"));
    assert!(elo < -100.0 && (elo + pair_elo).abs() < 2.0, "rating {elo}, pair {pair_elo}");
    let width = num(&ratings[1], "elo_hi") - num(&ratings[1], "elo_lo");
    let pair_width = num(pair, "elo_hi") - num(pair, "elo_lo");
    assert!((width / pair_width - 1.0).abs() < 0.15, "widths {width} and {pair_width}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Four bots at four seats: the ratings order the field as its head-to-head scores do, the
/// anchor moves every rating by the same amount, and the console shows the table best first.
#[test]
fn the_anchor_shifts_the_scale_and_the_console_ranks_the_field() {
    let (a, b) = (temp_path("anchor-a"), temp_path("anchor-b"));
    let field = "random,greedy,planner,hoarder";
    let base = ["tournament", "--players", "4", "--bots", field, "--games", "400", "--seed", "9", "--quiet"];
    let text = run_ok(&[&base[..], &["--out", a.to_str().unwrap()]].concat());
    run_ok(&[&base[..], &["--out", b.to_str().unwrap(), "--anchor", "planner"]].concat());
    let (ra, rb) = (rows(&a.join("ratings.csv")), rows(&b.join("ratings.csv")));
    let elo = |r: &Vec<_>, i: usize| num(&r[i], "elo");
    assert_eq!(rb[2]["anchor"], "1");
    for i in 0..4 {
        assert!((elo(&rb, i) - (elo(&ra, i) - elo(&ra, 2))).abs() < 0.02, "bot {i}");
    }
    // planner > greedy > hoarder > random, as every head-to-head score here says.
    assert!(elo(&ra, 2) > elo(&ra, 1) && elo(&ra, 1) > elo(&ra, 3) && elo(&ra, 3) > elo(&ra, 0));
    let table: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("Ratings")).skip(1).take(4).collect();
    let names: Vec<&str> = table.iter().map(|l| l.split_whitespace().next().unwrap()).collect();
    assert_eq!(names, ["planner", "greedy", "hoarder", "random"], "{table:?}");
    assert!(table[3].contains("(anchor)"));
    std::fs::remove_dir_all(&a).unwrap();
    std::fs::remove_dir_all(&b).unwrap();
}

/// Shards merged give the ratings of the whole run, byte for byte.
#[test]
fn merged_shards_give_the_whole_runs_ratings() {
    let d = temp_path("shards");
    let args = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = [
            "tournament",
            "--players",
            "3",
            "--bots",
            "greedy,planner,random,cutthroat",
            "--games",
            "480",
            "--seed",
            "5",
            "--quiet",
        ]
        .map(String::from)
        .to_vec();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let path = |n: &str| d.join(n).to_str().unwrap().to_string();
    let run = |extra: &[&str]| {
        let a = args(extra);
        run_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    };
    run(&["--out", &path("whole")]);
    run(&["--shard", "1/2", "--out", &path("s1")]);
    run(&["--shard", "2/2", "--out", &path("s2")]);
    run_ok(&["merge", &path("s1"), &path("s2"), "--out", &path("merged")]);
    for f in ["ratings.csv", "pairs.csv"] {
        let whole = std::fs::read(d.join("whole").join(f)).unwrap();
        assert_eq!(std::fs::read(d.join("merged").join(f)).unwrap(), whole, "{f}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// A gauntlet seats its bot at every table: at two players it meets each opponent in turn and
/// the opponents never meet; it is added to the field when --bots does not list it, rated 0,
/// and reported against each opponent.
#[test]
fn a_gauntlet_puts_its_bot_at_every_table() {
    let d = temp_path("gauntlet");
    let out = d.to_str().unwrap();
    let text = run_ok(&[
        "tournament",
        "--players",
        "2",
        "--gauntlet",
        "planner",
        "--bots",
        "greedy,random,hoarder",
        "--games",
        "240",
        "--seed",
        "2",
        "--quiet",
        "--out",
        out,
    ]);
    assert!(text.contains("gauntlet: planner at every table"), "{text}");
    assert!(text.contains("Gauntlet: planner against each opponent"));
    for o in ["greedy", "random", "hoarder"] {
        assert!(text.lines().any(|l| l.trim_start().starts_with(&format!("vs {o} "))), "{o}: {text}");
    }
    let pairs = rows(&d.join("pairs.csv"));
    for p in &pairs {
        let with_planner = p["a"] == "planner" || p["b"] == "planner";
        assert_eq!(p["comparisons"] != "0", with_planner, "{p:?}");
    }
    assert_eq!(pairs.iter().filter(|p| p["a"] == "planner").map(|p| &p["comparisons"]).collect::<Vec<_>>(), ["80"; 3]);
    let ratings = rows(&d.join("ratings.csv"));
    assert_eq!((ratings[0]["bot"].as_str(), ratings[0]["anchor"].as_str()), ("planner", "1"));
    // At four seats with one opponent listed, the opponent fills the other three seats.
    let text = run_ok(&[
        "tournament",
        "--players",
        "4",
        "--gauntlet",
        "expert:samples=2",
        "--bots",
        "greedy",
        "--games",
        "8",
        "--quiet",
    ]);
    assert!(text.contains("1 lineup;") && text.contains("vs greedy"), "{text}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bad_anchors_and_gauntlets_get_one_line_and_exit_2() {
    let t = ["tournament", "--games", "4", "--quiet", "--bots", "greedy,random"];
    rejects(
        &[&t[..], &["--anchor", "planner"]].concat(),
        &["--anchor 'planner' is not in the field", "valid: greedy, random"],
    );
    rejects(&[&t[..], &["--anchor", "greedy,random"]].concat(), &["is not one bot of the field"]);
    rejects(&[&t[..], &["--anchor", "alien"]].concat(), &["--anchor 'alien'", "valid: greedy, random"]);
    rejects(&[&t[..], &["--gauntlet", "alien"]].concat(), &["--gauntlet: unknown bot 'alien'", "valid: random"]);
    rejects(&[&t[..], &["--gauntlet", "greedy,random"]].concat(), &["--gauntlet 'greedy,random' is not one bot but 2"]);
    rejects(
        &["tournament", "--games", "4", "--bots", "greedy", "--gauntlet", "greedy"],
        &["--gauntlet needs at least one other bot"],
    );
}
