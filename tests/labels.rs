//! How results name bots: a short name for a long spec (`--name NAME=SPEC`) shown everywhere
//! with the full spec kept in the records, and a bot that sees hidden tiles marked wherever
//! results are shown.

mod common;

use common::{run_ok, temp_path};
use std::path::Path;

fn column(path: &Path, name: &str) -> Vec<String> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let i = r.headers().unwrap().iter().position(|h| h == name).unwrap_or_else(|| panic!("no {name} in {path:?}"));
    r.records().map(|x| x.unwrap()[i].to_string()).collect()
}

const TUNED: &str = "weighted:pips=0.46,urgent=1.9,double=0.1,open_double=-0.5,own=0.2,unmark=0.9";

#[test]
fn a_named_spec_is_shown_by_its_name_and_recorded_in_full() {
    let out = temp_path("named");
    let name = format!("tuned={TUNED}");
    let dir = out.to_str().unwrap();
    let text = run_ok(&[
        "tournament",
        "--quiet",
        "--name",
        &name,
        "--bots",
        "tuned,greedy",
        "--players",
        "2",
        "--games",
        "20",
        "--per-game",
        "--out",
        dir,
    ]);
    assert!(!text.contains("pips=0.46"), "the long spec in the console:\n{text}");
    let row = text.lines().find(|l| l.trim_start().starts_with("tuned ")).unwrap_or_else(|| panic!("{text}"));
    assert!(row.len() < 130, "{row}");
    assert_eq!(column(&out.join("summary.csv"), "strategy"), ["tuned", "greedy"]);
    assert_eq!(column(&out.join("summary.csv"), "spec"), [TUNED, "greedy"]);
    assert_eq!(column(&out.join("ratings.csv"), "bot"), ["tuned", "greedy"]);
    assert_eq!(column(&out.join("ratings.csv"), "spec"), [TUNED, "greedy"]);
    assert_eq!(column(&out.join("pairs.csv"), "a"), ["tuned"]);
    assert!(column(&out.join("games.csv"), "strategy").iter().all(|s| s == "tuned" || s == "greedy"));
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains(&format!("\"spec\": \"{TUNED}\"")), "{manifest}");
    // The named bot plays as its spec: the same games as the spec written out.
    let direct = temp_path("direct");
    let list = format!("{TUNED},greedy");
    run_ok(&[
        "tournament",
        "--quiet",
        "--bots",
        &list,
        "--players",
        "2",
        "--games",
        "20",
        "--out",
        direct.to_str().unwrap(),
    ]);
    assert_eq!(column(&out.join("summary.csv"), "mean_score"), column(&direct.join("summary.csv"), "mean_score"));
    // A resume reads the names back from the stored arguments.
    let merged = temp_path("merged");
    let text = run_ok(&["merge", dir, "--out", merged.to_str().unwrap()]);
    assert!(text.contains("tuned") && !text.contains("pips=0.46"), "{text}");
    for d in [out, direct, merged] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn bad_names_are_refused_with_one_line() {
    common::rejects(&["tournament", "--name", "tuned=weighted:pips=x", "--bots", "tuned,greedy"], &["--name", "pips"]);
    common::rejects(&["tournament", "--name", "greedy=planner", "--bots", "greedy"], &["already exists"]);
    common::rejects(&["tournament", "--name", "two=greedy,planner", "--bots", "two"], &["not one bot"]);
    common::rejects(&["tournament", "--name", "tuned", "--bots", "greedy"], &["NAME=SPEC"]);
    common::rejects(&["tournament", "--name", "t=planner", "--bots", "t:x=1"], &["unknown parameter 'x'"]);
}

#[test]
fn a_bot_that_sees_hidden_tiles_is_marked_wherever_results_are_shown() {
    let out = temp_path("oracle");
    let dir = out.to_str().unwrap();
    let text = run_ok(&[
        "tournament",
        "--quiet",
        "--bots",
        "oracle:samples=2,greedy",
        "--players",
        "2",
        "--games",
        "4",
        "--rounds",
        "2",
        "--out",
        dir,
    ]);
    assert!(text.contains("oracle:samples=2 [sees hidden]"), "{text}");
    assert!(text.contains("[sees hidden]: this bot sees every hand"), "{text}");
    assert!(!text.contains("greedy [sees hidden]"), "{text}");
    assert_eq!(column(&out.join("summary.csv"), "sees_hidden"), ["1", "0"]);
    assert_eq!(column(&out.join("ratings.csv"), "sees_hidden"), ["1", "0"]);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let shown = manifest.to_string();
    assert!(shown.contains("\"sees_hidden\":[\"oracle:samples=2\"]"), "{shown}");
    // A single match's transcript marks it too.
    let text = run_ok(&["play", "--bots", "oracle:samples=2,greedy", "--players", "2", "--rounds", "1"]);
    assert!(text.contains("seat 0: oracle:samples=2 [sees hidden]   seat 1: greedy"), "{text}");
    // A field of players only says nothing of it.
    let text = run_ok(&[
        "tournament",
        "--quiet",
        "--bots",
        "planner,greedy",
        "--players",
        "2",
        "--games",
        "4",
        "--rounds",
        "1",
    ]);
    assert!(!text.contains("sees hidden"), "{text}");
    let _ = std::fs::remove_dir_all(out);
}
