//! `mtrain balance --rank-by`: the candidates ranked by a stated figure, ties said, the published
//! hand kept only when nothing is measurably better, and match length in minutes beside turns.

mod common;

use common::{read, rejects, run_ok, temp};

/// `recommendation.csv`'s rows as maps of column to value.
fn rows(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    lines.map(|l| header.iter().cloned().zip(l.split(',').map(str::to_string)).collect()).collect()
}

fn sweep(rank: &str, dir: &std::path::Path) -> std::collections::HashMap<String, String> {
    run_ok(&[
        "balance",
        "--players",
        "4",
        "--hands",
        "9-15",
        "--games",
        "240",
        "--max-games",
        "240",
        "--rounds",
        "4",
        "--rank-by",
        rank,
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    rows(&read(&dir.join("recommendation.csv"))).remove(0)
}

#[test]
fn a_ranking_orders_the_candidates_and_says_whether_the_published_hand_stays() {
    let d = temp("rank");
    // Match length closest to a short match: the smallest candidate is measurably better than
    // the published 15 (a hand of 9 plays far fewer turns).
    let short = sweep("minutes=20", &d.join("short"));
    assert_eq!(short["ranked_by"], "minutes=20");
    assert_eq!(short["pick_reason"], "measurably_better");
    assert_eq!(short["reference_hand"], "15");
    let first_group: Vec<&str> = short["ranking"].split(" > ").next().unwrap().split('=').collect();
    assert!(first_group.contains(&short["recommended_hand"].as_str()), "{short:?}");
    assert!(short["ranking"].starts_with("9"), "{}", short["ranking"]);
    // Minutes are match turns at 15 seconds a turn.
    let turns: f64 = short["match_turns"].parse().unwrap();
    let minutes: f64 = short["match_minutes"].parse().unwrap();
    assert!((minutes - turns * 15.0 / 60.0).abs() < 1e-4, "{turns} {minutes}");
    // Without a ranking the published hand stays whenever it is a candidate, and says so.
    let plain = sweep("published", &d.join("plain"));
    assert_eq!((plain["recommended_hand"].as_str(), plain["pick_reason"].as_str()), ("15", "published"));
    assert_eq!(plain["ranking"], "");
    let csv = read(&d.join("plain").join("balance.csv"));
    assert!(csv.contains("\n4,9,match_minutes,") && csv.contains("\n4,9,round_minutes,"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_bad_ranking_is_refused_in_one_line() {
    rejects(
        &["balance", "--players", "4", "--games", "8", "--rank-by", "fast"],
        &["--rank-by", "unknown ranking 'fast'", "minutes=M"],
    );
    rejects(&["balance", "--players", "4", "--games", "8", "--rank-by", "minutes=0"], &["unknown ranking 'minutes=0'"]);
    rejects(
        &["balance", "--players", "4", "--games", "8", "--rank-by", "skill", "--objective", "no_defect"],
        &["--rank-by skill", "balanced objective"],
    );
}
