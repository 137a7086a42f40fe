//! `mtrain play --human SEAT`: the terminal seat's comforts, held through standard input: moves
//! entered as tiles, "your train", forced actions marked, the pause between rounds, the random
//! seed, and the save that `--resume` goes on from with the log of a match played without a stop.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

mod common;
use common::{bin, mtrain, temp};

/// `mtrain args` run in `dir` with `input` on its standard input.
fn human_in(dir: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = bin()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The match may end before every line is read: a closed pipe is not an error here.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The one line of a refusal, exit code 2.
fn refusal(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// Seed 7 at 3 players, one round: the person at seat 1 first chooses among 2-12, 9-12 and 10-12
/// on their own train, then 9-12 and 10-12 fit both train 2 and the Mexican train.
const SEED7: [&str; 11] =
    ["play", "--players", "3", "--seed", "7", "--rounds", "1", "--bots", "greedy,planner", "--human", "1"];

#[test]
fn a_move_is_entered_as_the_tile_and_the_train() {
    let dir = temp("tiles");
    let mut input = String::from("13-2\n0-0\n1-7\n12-2 2\n12-2 your\n");
    input.push_str("12-9\n3\n9-12\nmexican\n");
    input.push_str(&"1\n".repeat(200));
    let s = text(&human_in(&dir, &SEED7, &input));
    for line in [
        "13-2 is not a tile of the double-12 set (halves 0 to 12)\n",
        "you do not hold 0-0\n",
        "1-7 cannot be played: it fits no train open to you now\n",
        "2-12 cannot go on train 2: it fits your train\n",
        "9-12 fits train 2 and mexican: which train? (2, mexican): 9-12 cannot go on train 3: it fits train 2 and mexican\n",
        "9-12 fits train 2 and mexican: which train? (2, mexican): ",
    ] {
        assert!(s.contains(line), "{line:?} in\n{s}");
    }
    // 12-2 your: the tile in either order; the asked train chosen.
    assert!(s.contains("  turn   2  seat 1  plays 12-2 on your train (end 2)\n"), "{s}");
    assert!(s.contains("  turn   5  seat 1  plays 12-9 on mexican (end 9)"), "{s}");
    assert!(s.contains("Match over"));

    // The same choices by number play the same match.
    let mut by_number = String::from("1\n5\n");
    by_number.push_str(&"1\n".repeat(200));
    let n = text(&human_in(&dir, &SEED7, &by_number));
    assert_eq!(n[n.find("Match over").unwrap()..], s[s.find("Match over").unwrap()..]);
    assert!(!dir.join("mtrain-save.json").exists(), "a finished match writes no save");
}

#[test]
fn the_persons_train_is_your_train_and_forced_actions_are_marked() {
    let dir = temp("yours");
    let s = text(&human_in(&dir, &SEED7, &"1\n".repeat(200)));
    // The moves offered, the table and the transcript call seat 1's train "your train".
    assert!(s.contains("   1  2-12 on your train\n   2  9-12 on your train\n   3  10-12 on your train\n"), "{s}");
    assert!(s.contains("  your train: not started\n  train 2: not started\n  mexican: not started\n"), "{s}");
    assert!(s.contains("   3  9-12 on train 2\n   4  10-12 on train 2\n   5  9-12 on mexican\n"), "{s}");
    assert!(s.contains("  turn   2  seat 1  plays 12-2 on your train (end 2)\n"), "{s}");
    for (i, _) in s.match_indices("train 1") {
        let next = s[i + 7..].chars().next();
        assert!(
            next.is_some_and(|c| c.is_ascii_digit()),
            "seat 1's train named by number: {}",
            &s[i.saturating_sub(60)..i + 20]
        );
    }
    // What the seat did not choose is marked forced; no other seat's action is.
    let mine: Vec<&str> = s.lines().filter(|l| l.starts_with("  turn ") && l.contains(" seat 1  ")).collect();
    assert!(mine.len() > 5);
    let mut forced_plays = 0;
    for l in &mine {
        if l.contains("draws") {
            assert!(l.contains("draws ") && l.contains(" (forced)"), "{l}");
        }
        if l.contains("marks own train") {
            assert!(l.contains("marks own train (forced)"), "{l}");
        }
        forced_plays += usize::from(l.contains(") (forced)"));
    }
    assert!(forced_plays > 0, "a single legal move is played for the person, marked");
    assert!(
        s.contains("  turn   5  seat 1  plays 2-5 on your train (end 5)        | markers: 2\n"),
        "chosen: not marked\n{s}"
    );
    for l in s.lines().filter(|l| l.starts_with("  turn ") && !l.contains(" seat 1  ")) {
        assert!(!l.contains("(forced)"), "{l}");
    }
    // A table of bots alone reads as before: trains by number, nothing marked.
    let bots = text(&mtrain(&["play", "--players", "3", "--seed", "7", "--rounds", "1", "--bots", "greedy,planner"]));
    assert!(!bots.contains("(forced)") && !bots.contains("your train"), "{bots}");
    assert!(bots.contains("on train 1 (end"), "{bots}");
    assert_eq!(bots.matches("  totals  ").count(), 1, "only the match's totals");
}

#[test]
fn rounds_end_with_the_running_totals_and_a_pause() {
    let dir = temp("pause");
    let args = ["play", "--players", "3", "--seed", "3", "--rounds", "3", "--bots", "greedy", "--human", "0"];
    let s = text(&human_in(&dir, &args, &"1\n".repeat(400)));
    // After each round: its scores, then every seat's total so far, which sum to the match's.
    let totals: Vec<Vec<u32>> = s
        .lines()
        .filter(|l| l.starts_with("  totals  "))
        .map(|l| l.split(": ").skip(1).map(|v| v.split_whitespace().next().unwrap().parse().unwrap()).collect())
        .collect();
    let scores: Vec<Vec<u32>> = s
        .lines()
        .filter(|l| l.starts_with("  scores  "))
        .map(|l| l.split(": ").skip(1).map(|v| v.split_whitespace().next().unwrap().parse().unwrap()).collect())
        .collect();
    assert_eq!(scores.len(), 3);
    assert_eq!(totals.len(), 4, "a total after each of 3 rounds and the match's");
    for r in 0..3 {
        let sum: Vec<u32> = (0..3).map(|p| scores[..=r].iter().map(|x| x[p]).sum()).collect();
        assert_eq!(totals[r], sum);
    }
    assert_eq!(totals[2], totals[3]);
    for round in 1..3 {
        let you = totals[round - 1][0];
        let at =
            s.find(&format!("\nRound {round} over: you have {you} points; the lowest total is ")).expect("the pause");
        let line = s[at + 1..].lines().next().unwrap();
        assert!(line.ends_with(&format!(". Press Enter for round {}, or quit: ", round + 1)), "{line}");
        let low = totals[round - 1].iter().min().unwrap();
        assert!(line.contains(&format!("the lowest total is {low} (")), "{line}");
    }
    assert!(!s.contains("Round 3 over: you have"), "no pause after the last round");
    // `quit` at the pause stops and saves.
    let mut input = String::new();
    let mut i = 0;
    let stopped = loop {
        // As many choices as round 1 needs, then quit at the pause.
        input.push_str("1\n");
        i += 1;
        let out = text(&human_in(&dir, &args, &format!("{input}quit\n")));
        if out.contains("Press Enter for round 2") {
            break out;
        }
        assert!(i < 100);
    };
    let after = &stopped[stopped.find("Press Enter for round 2").unwrap()..];
    assert!(
        after.contains(
            "the match is stopped\nsaved to mtrain-save.json: go on with mtrain play --resume mtrain-save.json\n"
        ),
        "{after}"
    );
    assert!(!after.contains("Round 2:"));
}

/// The seed in `mtrain play`'s header.
fn header_seed(s: &str) -> u64 {
    let head = s.lines().find(|l| l.starts_with("mtrain play: ")).unwrap();
    head.rsplit("seed ").next().unwrap().parse().unwrap()
}

#[test]
fn a_persons_match_has_a_random_seed_printed_to_play_again() {
    let dir = temp("seed");
    let args = ["play", "--players", "3", "--rounds", "1", "--bots", "greedy", "--human", "2"];
    let input = "1\n".repeat(200);
    let a = text(&human_in(&dir, &args, &input));
    let b = text(&human_in(&dir, &args, &input));
    let first = a.lines().next().unwrap();
    let hex = first.strip_prefix("seed ").unwrap().split(' ').next().unwrap();
    assert_eq!(first, format!("seed {hex} (replay with --seed {hex})"));
    assert!(hex.starts_with("0x") && hex.len() == 18, "{hex}");
    let seed = u64::from_str_radix(&hex[2..], 16).unwrap();
    assert_eq!(header_seed(&a), seed);
    assert_ne!(header_seed(&b), seed, "another match, another seed");
    // Given back, the seed plays the same match, and prints no seed line.
    let mut again: Vec<&str> = args.to_vec();
    again.extend(["--seed", hex]);
    let c = text(&human_in(&dir, &again, &input));
    assert_eq!(c, a[first.len() + 1..]);
    // Without a person the default seed stays 1.
    let bots = text(&mtrain(&["play", "--players", "3", "--rounds", "1"]));
    assert_eq!(header_seed(&bots), 1);
    assert!(!bots.contains("replay with"));
}

/// A scratch folder's file names.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// The 2-round match of seed 3, person at seat 1, `--log` to `log`.
fn two_rounds(log: &Path) -> Vec<String> {
    ["play", "--players", "3", "--seed", "3", "--rounds", "2", "--bots", "greedy,planner", "--human", "1", "--log"]
        .iter()
        .map(|s| s.to_string())
        .chain([log.to_str().unwrap().to_string()])
        .collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_stopped_match_is_saved_and_resumed_to_the_same_log() {
    let dir = temp("resume");
    let full: PathBuf = dir.join("full.jsonl");
    let input = "2\n1\n2\n".to_string() + &"1\n".repeat(400);
    let whole = text(&human_in(&dir, &strs(&two_rounds(&full)), &input));
    assert!(whole.contains("Match over"));
    let expected = std::fs::read(&full).unwrap();

    // Quit after three choices: the save holds them, no log is written.
    let part = dir.join("part.jsonl");
    let s = text(&human_in(&dir, &strs(&two_rounds(&part)), "2\n1\n2\nquit\n"));
    assert!(s.ends_with(
        "the match is stopped\nsaved to mtrain-save.json: go on with mtrain play --resume mtrain-save.json\nno log written: the match was stopped (mtrain play --resume with --log writes the whole match's)\n"
    ), "{s}");
    let save = std::fs::read_to_string(dir.join("mtrain-save.json")).unwrap();
    assert_eq!(
        save,
        "{\"mtrain_save\":1,\"rules\":\"wikipedia\",\"rule\":[],\"set\":12,\"players\":3,\"hand\":null,\"rounds\":2,\"bots\":\"greedy,planner\",\"names\":[],\"human\":1,\"seed\":\"0x0000000000000003\",\"choices\":[1,0,1]}\n"
    );
    assert_eq!(names(&dir), ["full.jsonl", "mtrain-save.json"]);

    // Resumed: the choices are replayed without asking, then the person goes on; the log is the
    // uninterrupted match's, byte for byte.
    let resumed = dir.join("resumed.jsonl");
    let args = ["play", "--resume", "mtrain-save.json", "--log", resumed.to_str().unwrap()];
    let r = text(&human_in(&dir, &args, &"1\n".repeat(400)));
    assert_eq!(std::fs::read(&resumed).unwrap(), expected);
    assert!(
        r.contains("\nresumed from mtrain-save.json: your 3 saved choices are replayed above; the match goes on\n"),
        "{r}"
    );
    assert_eq!(r.matches("Your move").count() + 3, whole.matches("Your move").count());
    assert_eq!(r[r.find("Match over").unwrap()..], whole[whole.find("Match over").unwrap()..]);

    // Stopped again after one more choice: the save, written over the one resumed, holds four.
    let r = text(&human_in(&dir, &["play", "--resume", "mtrain-save.json"], "1\n"));
    assert!(r.contains("no more input: the match is stopped\nsaved to mtrain-save.json"), "{r}");
    assert!(std::fs::read_to_string(dir.join("mtrain-save.json")).unwrap().ends_with("\"choices\":[1,0,1,0]}\n"));
    // --save puts it elsewhere.
    let r = text(&human_in(&dir, &["play", "--resume", "mtrain-save.json", "--save", "other.json"], "quit\n"));
    assert!(r.contains("saved to other.json"), "{r}");
    assert!(std::fs::read_to_string(dir.join("other.json")).unwrap().ends_with("\"choices\":[1,0,1,0]}\n"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_saves_the_match_and_leaves_no_temporary_file() {
    use std::io::{Read, Write};
    let dir = temp("signal");
    let full = dir.join("full.jsonl");
    let input = "2\n1\n".to_string() + &"1\n".repeat(400);
    text(&human_in(&dir, &strs(&two_rounds(&full)), &input));

    let log = dir.join("stopped.jsonl");
    let mut child = bin()
        .args(strs(&two_rounds(&log)))
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"2\n1\n").unwrap();
    // Wait for the third question: two choices made, the input left open.
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    while seen.matches("Your move").count() < 3 {
        let n = stdout.read(&mut buf).unwrap();
        assert!(n > 0, "{seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    assert!(names(&dir).iter().any(|n| n.starts_with("stopped.jsonl.") && n.ends_with(".tmp")));
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert_eq!(out.status.code(), Some(130));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.ends_with("mtrain: stopped: saved to mtrain-save.json: go on with mtrain play --resume mtrain-save.json\n"),
        "{err}"
    );
    assert_eq!(names(&dir), ["full.jsonl", "mtrain-save.json"], "no log, no temporary file");
    assert!(std::fs::read_to_string(dir.join("mtrain-save.json")).unwrap().ends_with("\"choices\":[1,0]}\n"));
    let resumed = dir.join("resumed.jsonl");
    text(&human_in(
        &dir,
        &["play", "--resume", "mtrain-save.json", "--log", resumed.to_str().unwrap()],
        &"1\n".repeat(400),
    ));
    assert_eq!(std::fs::read(&resumed).unwrap(), std::fs::read(&full).unwrap());
}

#[test]
fn a_bad_save_or_resume_is_refused_in_one_line() {
    let dir = temp("bad-resume");
    let run = |args: &[&str]| human_in(&dir, args, "");
    let err = refusal(&run(&["play", "--resume", "missing.json"]));
    assert_eq!(err, "mtrain: --resume 'missing.json': cannot read it: it does not exist\n");
    std::fs::write(dir.join("notes.txt"), "my notes\n").unwrap();
    let err = refusal(&run(&["play", "--resume", "notes.txt"]));
    assert!(err.starts_with("mtrain: --resume 'notes.txt': not a save file mtrain wrote"), "{err}");
    std::fs::write(dir.join("v9.json"), "{\"mtrain_save\":9}\n").unwrap();
    let err = refusal(&run(&["play", "--resume", "v9.json"]));
    assert!(err.starts_with("mtrain: --resume 'v9.json': not a save file mtrain can read: missing field"), "{err}");
    // A choice the position does not have: the file was edited.
    let good = "{\"mtrain_save\":1,\"rules\":\"wikipedia\",\"rule\":[],\"set\":12,\"players\":3,\"hand\":null,\"rounds\":1,\"bots\":\"greedy,planner\",\"names\":[],\"human\":1,\"seed\":\"0x0000000000000003\",\"choices\":[";
    std::fs::write(dir.join("edited.json"), format!("{good}0,7]}}\n")).unwrap();
    let err = refusal(&run(&["play", "--resume", "edited.json"]));
    assert_eq!(
        err,
        "mtrain: --resume 'edited.json': saved choice 2 is move 8 of a position with 4 legal moves: the file was changed or written for another match\n"
    );
    std::fs::write(dir.join("later.json"), format!("{good}{}0]}}\n", "0,".repeat(300))).unwrap();
    let err = refusal(&run(&["play", "--resume", "later.json"]));
    assert!(err.contains("the match ended with") && err.contains("saved choices still to replay"), "{err}");
    let err = refusal(&run(&["play", "--resume", "edited.json", "--players", "4"]));
    assert!(err.contains("'--resume <FILE>' cannot be used with '--players <N>'"), "{err}");
    // --save never replaces a file mtrain did not write, and needs a person's match.
    let err = refusal(&run(&["play", "--human", "0", "--save", "notes.txt"]));
    assert!(
        err.starts_with("mtrain: --save 'notes.txt' exists and is not a save file mtrain wrote: not replacing it"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(dir.join("notes.txt")).unwrap(), "my notes\n");
    let err = refusal(&run(&["play", "--save", "s.json"]));
    assert!(err.contains("--save FILE is where a person's stopped match goes: add --human SEAT"), "{err}");
    let err = refusal(&run(&["play", "--human", "0", "--save", "no/such/folder/s.json"]));
    assert!(err.contains("does not exist"), "{err}");
}
