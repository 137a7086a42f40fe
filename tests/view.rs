//! `mtrain view`: the page it writes and the input it refuses. What the page shows is tested in a
//! browser by tests/browser/test_viewer.py (scripts/checks/browser-test.sh).

mod common;
use common::{bin, mtrain, temp};
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `args`, expects exit code 2 and one stderr line containing each of `needles`.
// Stricter than `common::rejects`: also the `mtrain: ` prefix.
fn rejects(args: &[&str], needles: &[&str]) {
    let out = mtrain(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: expected one line, got:\n{err}");
    assert!(err.starts_with("mtrain: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: '{err}' lacks '{n}'");
    }
}

/// A one-round double-6 log of `mtrain play`.
fn small_log(dir: &Path) -> PathBuf {
    let log = dir.join("game.jsonl");
    let out = mtrain(&["play", "--players", "2", "--set", "6", "--rounds", "1", "--seed", "7", "--log", s(&log)]);
    assert_eq!(out.status.code(), Some(0));
    log
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

#[test]
fn writes_one_self_contained_page_the_same_bytes_each_time() {
    let dir = temp("page");
    let log = small_log(&dir);
    let out = mtrain(&["view", s(&log)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let page = dir.join("game.html");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.trim(), format!("mtrain view: wrote {} (21 moves)", page.display()));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!-- mtrain view -->\n<!DOCTYPE html>"));
    // Self-contained: no external script, style, font or image, no URL but the SVG namespace.
    let rest = html.replace("\"http://www.w3.org/2000/svg\"", "");
    for bad in ["src=", "href=", "http:", "https:", "@import", "url("] {
        assert!(!rest.contains(bad), "the page contains '{bad}'");
    }
    // The log's lines are in it as JSON strings, the match line first.
    let first = std::fs::read_to_string(&log).unwrap().lines().next().unwrap().to_string();
    let as_string = serde_json::to_string(&first).unwrap().replace('<', "\\u003c");
    assert!(html.contains(&as_string));
    // Again, to another name: the same bytes.
    let again = dir.join("again.html");
    assert_eq!(mtrain(&["view", s(&log), "--out", s(&again)]).status.code(), Some(0));
    assert_eq!(std::fs::read(&page).unwrap(), std::fs::read(&again).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_seed_beyond_2_to_the_53_stays_exact_in_the_page() {
    let dir = temp("seed");
    let log = dir.join("big.jsonl");
    let seed = "18446744073709551557";
    let out = mtrain(&["play", "--players", "2", "--set", "6", "--rounds", "1", "--seed", seed, "--log", s(&log)]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(mtrain(&["view", s(&log)]).status.code(), Some(0));
    let html = std::fs::read_to_string(dir.join("big.html")).unwrap();
    assert!(html.contains(&format!("\\\"seed\\\":{seed},")), "the seed's digits are not in the page");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_script_end_tag_in_the_log_cannot_break_the_page() {
    let dir = temp("escape");
    let log = small_log(&dir);
    let text = std::fs::read_to_string(&log).unwrap();
    let evil = text.replacen("\"bots\":[\"greedy\"", "\"bots\":[\"</script><script>alert(1)</script>\"", 1);
    assert_ne!(evil, text);
    std::fs::write(&log, evil).unwrap();
    assert_eq!(mtrain(&["view", s(&log)]).status.code(), Some(0));
    let html = std::fs::read_to_string(dir.join("game.html")).unwrap();
    assert_eq!(html.matches("</script>").count(), 2, "only the page's own two script elements close");
    assert!(html.contains("\\u003c/script>\\u003cscript>alert(1)"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_log_line_is_one_error_with_its_line_number_and_no_page() {
    let dir = temp("bad");
    let log = small_log(&dir);
    let good = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    let cases: [(usize, &str, &[&str]); 5] = [
        (5, "{\"event\":\"play\",\"seat\":0", &[":5: not JSON"]),
        (7, "{\"event\":\"teleport\",\"seat\":1}", &[":7: unknown event 'teleport'", "valid: match, round"]),
        (3, "[1,2,3]", &[":3: not a log event"]),
        (
            4,
            "{\"event\":\"play\",\"seat\":9,\"tile\":\"6-4\",\"train\":0,\"end\":4}",
            &[":4:", "\"seat\" is 9", "0 to 1"],
        ),
        (6, "{\"event\":\"draw\",\"seat\":0}", &[":6: the 'draw' event has no \"tile\" field"]),
    ];
    for (n, bad, needles) in cases {
        let keep = lines[n - 1];
        lines[n - 1] = bad;
        let broken = dir.join("broken.jsonl");
        std::fs::write(&broken, lines.join("\n")).unwrap();
        let mut want = vec!["broken.jsonl"];
        want.extend_from_slice(needles);
        rejects(&["view", s(&broken)], &want);
        lines[n - 1] = keep;
    }
    assert_eq!(listing(&dir), ["broken.jsonl", "game.jsonl"], "a page or a temporary file was left behind");

    // No match line at all, an event before it, an empty file, a missing file.
    std::fs::write(dir.join("nomatch.jsonl"), lines[2..].join("\n")).unwrap();
    rejects(&["view", s(&dir.join("nomatch.jsonl"))], &["nomatch.jsonl:1: a 'play' event before the first match line"]);
    std::fs::write(dir.join("empty.jsonl"), "").unwrap();
    rejects(&["view", s(&dir.join("empty.jsonl"))], &["empty.jsonl: no match line"]);
    rejects(&["view", s(&dir.join("absent.jsonl"))], &["cannot read the log", "absent.jsonl"]);
    rejects(&["view", s(&log), "--out", s(&dir.join("no/such/dir.html"))], &["--out", "does not exist"]);
    rejects(&["view", s(&log), "--out", s(&dir)], &["is a folder"]);
    assert_eq!(listing(&dir), ["broken.jsonl", "empty.jsonl", "game.jsonl", "nomatch.jsonl"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_existing_file_is_replaced_only_if_it_is_a_viewer_page() {
    let dir = temp("safe");
    let log = small_log(&dir);
    let page = dir.join("game.html");
    std::fs::write(&page, "<html>my own notes</html>\n").unwrap();
    rejects(&["view", s(&log)], &["game.html", "exists and is not a page mtrain view wrote"]);
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "<html>my own notes</html>\n");
    // The log itself is never the output.
    rejects(&["view", s(&log), "--out", s(&log)], &["is the log itself"]);
    // A page of mtrain view is replaced.
    std::fs::write(&page, "<!-- mtrain view -->\nan older page\n").unwrap();
    assert_eq!(mtrain(&["view", s(&log)]).status.code(), Some(0));
    assert!(std::fs::read_to_string(&page).unwrap().contains("id=\"mtrain-data\""));
    assert_eq!(listing(&dir), ["game.html", "game.jsonl"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_tournament_log_shows_the_game_asked_for() {
    let dir = temp("tournament");
    let logs = dir.join("logs");
    let run = [
        "tournament",
        "--bots",
        "greedy,random",
        "--players",
        "2",
        "--set",
        "6",
        "--rounds",
        "1",
        "--games",
        "8",
        "--seed",
        "3",
        "--quiet",
        "--out",
        &dir.join("run").to_string_lossy(),
        "--log-games",
        &logs.to_string_lossy(),
    ]
    .map(String::from);
    let out = bin().args(&run).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let file = logs.join("games-000000.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let page = dir.join("g.html");
    let out = mtrain(&["view", s(&file), "--game", "5", "--out", s(&page)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("(game 5, "));
    let html = std::fs::read_to_string(&page).unwrap();
    let first_line = text.lines().position(|l| l.contains("\"game\":5")).unwrap() + 1;
    assert!(html.contains(&format!("\"game\":\"5\",\"first_line\":{first_line},")), "game 5's first line number");
    // The default is the first game; a game the file lacks names those it holds.
    assert_eq!(mtrain(&["view", s(&file), "--out", s(&page)]).status.code(), Some(0));
    assert!(std::fs::read_to_string(&page).unwrap().contains("\"game\":\"0\",\"first_line\":1,"));
    rejects(&["view", s(&file), "--game", "99", "--out", s(&page)], &["--game 99", "holds games 0-7"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

const REVIEW_HEADER: &str = "game,round,decision,seat,line,kind,moves,played,best,played_points,best_points,loss,loss_lo,loss_hi,played_win,best_win,mistake,worlds";

#[test]
fn review_rows_attach_to_the_moves_of_their_lines() {
    let dir = temp("review");
    let log = small_log(&dir);
    let csv = dir.join("review.csv");
    // Line 5 is the fourth move; line 99 is not in the game; an extra column is ignored.
    std::fs::write(
        &csv,
        format!(
            "{REVIEW_HEADER},note\n\
             0,1,3,0,5,play,4,6-3 on mexican,4-3 on 0,-1.5,2.25,3.75,1.5,6,0.2,0.45,true,64,x\n\
             0,1,4,1,99,play,2,1-4 on 1,1-4 on 1,0,0,0,0,0,0.5,0.5,false,64,y\n"
        ),
    )
    .unwrap();
    let page = dir.join("game.html");
    let out = mtrain(&["view", s(&log), "--review", s(&csv)]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(said.contains("1 review rows (1 mistakes); 1 rows name lines outside this game"), "{said}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"review\":[{\"move\":4,\"game\":\"0\",\"round\":1,\"decision\":3,\"seat\":0,\"line\":5,"));
    assert!(html.contains("\"loss\":3.75,\"loss_lo\":1.5,\"loss_hi\":6.0,"));
    assert!(!html.contains("\"line\":99"));

    // A missing column, a bad value, a missing file: one line, exit 2, the old page untouched.
    let before = std::fs::read(&page).unwrap();
    let short = dir.join("short.csv");
    std::fs::write(&short, "game,round,decision,seat,line\n0,1,1,0,3\n").unwrap();
    rejects(&["view", s(&log), "--review", s(&short)], &["short.csv", "lacks the columns kind, moves, played"]);
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, format!("{REVIEW_HEADER}\n0,1,3,0,five,play,4,a,b,0,0,0,0,0,0,0,true,1\n")).unwrap();
    rejects(&["view", s(&log), "--review", s(&bad)], &["bad.csv:2:", "line"]);
    rejects(&["view", s(&log), "--review", s(&dir.join("none.csv"))], &["cannot read --review", "none.csv"]);
    assert_eq!(std::fs::read(&page).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A review of another game (here another preset's) is refused, not attached where its line
/// numbers happen to land; a log cut short (no `match_end`) is refused by `view` and by
/// `analyze` alike.
#[test]
fn another_games_review_and_a_cut_log_are_refused() {
    let dir = temp("belongs");
    let log = small_log(&dir);
    let other = dir.join("other.jsonl");
    let out = mtrain(&[
        "play",
        "--rules",
        "dominorules",
        "--players",
        "2",
        "--rounds",
        "1",
        "--seed",
        "9",
        "--log",
        s(&other),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // A quick review of `log` into `csv`.
    let review_of = |log: &Path, csv: &Path| {
        let args = ["--samples", "16", "--min-samples", "8", "--check-worlds", "0"];
        let out = mtrain(&[&["analyze", "--log", s(log), "--review", "--csv", s(csv)], &args[..]].concat());
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    };
    let review = dir.join("other.csv");
    review_of(&other, &review);
    rejects(&["view", s(&log), "--review", s(&review)], &["does not belong to", "game.jsonl"]);
    // Its own review attaches.
    let own = dir.join("own.csv");
    review_of(&log, &own);
    assert!(mtrain(&["view", s(&log), "--review", s(&own), "--out", s(&dir.join("own.html"))]).status.success());
    // The log without its last line (the match_end).
    let text = std::fs::read_to_string(&log).unwrap();
    let cut = dir.join("cut.jsonl");
    let kept: Vec<&str> = text.lines().collect();
    std::fs::write(&cut, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    rejects(&["view", s(&cut)], &["cut.jsonl", "no match_end line", "cut short"]);
    rejects(&["analyze", "--log", s(&cut), "--review"], &["cut.jsonl", "no match_end line", "cut short"]);
    assert!(!dir.join("cut.html").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
