//! `mtrain analyze`: position analysis, log replay and game review.

use mexican_train::analyze::position::{Position, TEMPLATE};
use mexican_train::analyze::replay::parse_log;
use mexican_train::analyze::{Metric, Settings, Stop, Table, analyze, to_json};
use mexican_train::rng_from_seed;
use mexican_train::round::Move;
use std::process::Output;

mod common;
use common::{bin, mtrain, temp};

/// A logged match of `preset` at `players`, its text.
fn logged(dir: &std::path::Path, preset: &str, players: u8, bots: &str, extra: &[&str]) -> String {
    let log = dir.join(format!("{preset}-{players}.jsonl"));
    let p = players.to_string();
    let mut args =
        vec!["play", "--rules", preset, "--players", &p, "--bots", bots, "--seed", "5", "--log", log.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = mtrain(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(log).unwrap()
}

/// Every decision of the log `text` (one game), checked to replay to the end it logged: the
/// last decision's move ends the match with the logged totals.
fn replayed_to_the_end(text: &str, players: usize, what: &str) -> Vec<mexican_train::analyze::replay::Decision> {
    let decisions = parse_log(text, "log").unwrap()[0].decisions().unwrap_or_else(|e| panic!("{what}: {e}"));
    let last = decisions.last().unwrap();
    let mut st = last.state.clone();
    st.apply(last.played);
    assert!(st.is_over(), "{what}");
    let end: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let totals: Vec<u32> = serde_json::from_value(end["totals"].clone()).unwrap();
    assert_eq!(&st.result().totals[..players], &totals[..], "{what}");
    decisions
}

fn no_time(mut v: serde_json::Value) -> serde_json::Value {
    v["elapsed"] = serde_json::Value::Null;
    v
}

#[test]
fn every_decision_of_every_preset_replays_to_the_logged_scores() {
    let dir = temp("replay");
    for preset in ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"] {
        for players in [2u8, 4] {
            let bots = if players == 2 { "greedy,planner" } else { "greedy,planner,random,cutthroat" };
            let text = logged(&dir, preset, players, bots, &["--rounds", "3"]);
            let games = parse_log(&text, "log").unwrap();
            assert_eq!(games.len(), 1);
            let decisions = games[0].decisions().unwrap();
            // Every decision is a real choice, numbered from 1 in its round, and the played move
            // is one of the legal ones.
            assert!(decisions.len() > 10, "{preset} at {players}: {} decisions", decisions.len());
            for d in &decisions {
                assert!(d.state.legal().len() >= 2);
                assert!(d.played < d.state.legal().len());
                assert_eq!(d.state.current(), Some(d.seat));
            }
            let rounds: Vec<u8> = decisions.iter().map(|d| d.round).collect();
            assert!(rounds.windows(2).all(|w| w[0] <= w[1]));
            // The last decision played out reaches the match's logged totals.
            let last = decisions.last().unwrap();
            let mut st = last.state.clone();
            st.apply(last.played);
            assert!(st.is_over(), "{preset}: the last decision ends the match");
            let end: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
            let totals: Vec<u32> = serde_json::from_value(end["totals"].clone()).unwrap();
            assert_eq!(&st.result().totals[..players as usize], &totals[..], "{preset} at {players}");
        }
    }
}

#[test]
fn decisions_that_write_no_event_replay_too() {
    // A `stop` (a build, a swan walk, a bullet train declined) writes nothing before the next
    // decision: the replay must still find the move played, to the logged scores.
    let dir = temp("variations");
    for (i, rule) in
        ["bullet_train=true", "swan_drive=true", "branching_doubles=four_way", "blanks_wild=true"].iter().enumerate()
    {
        for seed in ["5", "6", "7"] {
            let log = dir.join(format!("v{i}-{seed}.jsonl"));
            let out = mtrain(&[
                "play",
                "--rule",
                rule,
                "--players",
                "4",
                "--bots",
                "expert,greedy,random",
                "--seed",
                seed,
                "--rounds",
                "3",
                "--log",
                log.to_str().unwrap(),
            ]);
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let text = std::fs::read_to_string(&log).unwrap();
            replayed_to_the_end(&text, 4, &format!("{rule} seed {seed}"));
        }
    }
}

/// Declaring a bullet train writes nothing (the declarer's tiles are its next decisions), and
/// its first tile is also a legal move on its own: the replay must take the declaration, which
/// the log goes on with, and not the single tile. `weighted` declares in these games (seeds 7
/// and 13 under `bullet_train`, 4 players), which a replay taking the longest output alone
/// refused.
#[test]
fn a_bullet_train_declaration_replays() {
    let dir = temp("bullet");
    let mut declared = 0;
    for seed in ["7", "13"] {
        let log = dir.join(format!("b{seed}.jsonl"));
        let out = mtrain(&[
            "play",
            "--rule",
            "bullet_train=true",
            "--players",
            "4",
            "--bots",
            "weighted,planner,random,cutthroat",
            "--seed",
            seed,
            "--rounds",
            "3",
            "--log",
            log.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&log).unwrap();
        let decisions = replayed_to_the_end(&text, 4, &format!("seed {seed}"));
        declared += decisions.iter().filter(|d| d.state.legal()[d.played] == Move::BULLET).count();
    }
    assert!(declared >= 2, "a declaration in each game: {declared}");
}

#[test]
fn an_edited_log_is_refused_at_the_line_that_differs() {
    let dir = temp("edited");
    let text = logged(&dir, "wikipedia", 4, "greedy", &["--rounds", "1"]);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // The round line deals otherwise than the seed does: its last boneyard tile is dropped.
    assert!(lines[1].starts_with("{\"event\":\"round\""));
    let cut = lines[1].rfind(",\"").unwrap();
    lines[1] = format!("{}]}}", &lines[1][..cut]);
    let i = 1;
    let games = parse_log(&lines.join("\n"), "edited.jsonl").unwrap();
    let err = games[0].decisions().unwrap_err().to_string();
    assert!(
        err.starts_with(&format!("edited.jsonl line {}: the log does not follow from its seed and rules", i + 1)),
        "{err}"
    );
}

#[test]
fn hidden_tiles_do_not_change_the_analysis() {
    let dir = temp("hidden");
    let text = logged(&dir, "wikipedia", 4, "greedy,random", &["--rounds", "1"]);
    let games = parse_log(&text, "log").unwrap();
    let decisions = games[0].decisions().unwrap();
    let settings = Settings { max_worlds: 400, ..Settings::default() };
    let mut checked = 0;
    for d in decisions.iter().step_by(5).take(6) {
        let round = d.state.round().unwrap();
        let view = round.view(d.seat);
        let a = to_json(&analyze(&view, d.state.legal(), &settings, 9));
        // The same position with every hidden tile dealt otherwise.
        for s in 0..3u64 {
            let other = view.sample_world(&mut rng_from_seed(100 + s)).unwrap();
            assert!(
                (0..4).any(|p| other.hand(mexican_train::Seat::from_index(p))
                    != round.hand(mexican_train::Seat::from_index(p)))
            );
            let b = to_json(&analyze(&other.view(d.seat), d.state.legal(), &settings, 9));
            assert_eq!(no_time(a.clone()), no_time(b));
        }
        checked += 1;
    }
    assert_eq!(checked, 6);
}

/// The template's position, with the hand and trains replaced.
fn position(hand: &[&str], trains: serde_json::Value, hands: &[u32]) -> Position {
    let mut v: serde_json::Value = serde_json::from_str(TEMPLATE).unwrap();
    v["hand"] = serde_json::json!(hand);
    v["trains"] = trains;
    v["hands"] = serde_json::json!(hands);
    serde_json::from_value(v).unwrap()
}

#[test]
fn a_clear_choice_is_separated_and_ranked_first() {
    // Every other seat holds one tile: the round is about to end, so the 23-pip tile must go now.
    let p = position(
        &["0-1", "11-12"],
        serde_json::json!([{"train": 0, "tiles": ["12-1"]}, {"train": 1, "tiles": ["12-2"]},
                           {"train": 2, "tiles": ["12-3"]}, {"train": 3, "tiles": ["12-4"]}]),
        &[2, 1, 1, 1],
    );
    let (_, state, moves) = p.build().unwrap();
    let a = analyze(&state.view(state.current()), &moves, &Settings::default(), 1);
    assert_eq!(a.best().mv.to_string(), "11-12 on mexican");
    assert_eq!(a.stop, Stop::Separated);
    let other = &a.moves[1];
    assert!(other.loss.lo > 5.0, "{other:?}");
    // By win probability too.
    let w = analyze(&state.view(state.current()), &moves, &Settings { by: Metric::Win, ..Settings::default() }, 1);
    assert_eq!(w.by, Metric::Win);
    assert!(w.moves.iter().all(|m| (0.0..=1.0).contains(&m.win.lo) && m.win.lo <= m.win.hi));
}

#[test]
fn equal_moves_are_declared_indistinguishable() {
    // The same tile on two trains that end alike, with nothing else to tell them apart.
    let p = position(
        &["5-9", "0-0"],
        serde_json::json!([{"train": 0, "tiles": ["12-5"]}, {"train": "mexican", "tiles": ["12-5"]}]),
        &[2, 10, 10, 10],
    );
    assert!(p.build().is_err(), "12-5 twice is refused");
    let p = position(
        &["5-9", "1-1"],
        serde_json::json!([{"train": 0, "tiles": ["12-5"]}, {"train": "mexican", "tiles": ["12-6", "6-5"]}]),
        &[2, 10, 10, 10],
    );
    let (_, state, moves) = p.build().unwrap();
    let settings = Settings { tolerance: 2.0, max_worlds: 20_000, ..Settings::default() };
    let a = analyze(&state.view(state.current()), &moves, &settings, 3);
    assert_eq!(a.moves.len(), 2);
    assert_eq!(a.stop, Stop::Indistinguishable, "{}", Table(&a));
    assert!(a.moves[1].loss.lo > -2.0 && a.moves[1].loss.hi < 2.0, "{:?}", a.moves[1].loss);
}

#[test]
fn an_analysis_is_reproducible_and_its_budget_is_kept() {
    let p = Position::parse(TEMPLATE, "template").unwrap();
    let (_, state, moves) = p.build().unwrap();
    let view = state.view(state.current());
    let s = Settings { max_worlds: 64, ..Settings::default() };
    let a = analyze(&view, &moves, &s, 4);
    assert!(a.worlds <= 64);
    assert_eq!(no_time(to_json(&a)), no_time(to_json(&analyze(&view, &moves, &s, 4))));
    assert!(a.moves.iter().all(|m| m.points.lo <= m.points.mean && m.points.mean <= m.points.hi));
}

#[test]
fn position_file_errors_name_the_problem() {
    let cases: [(&str, &str); 8] = [
        (
            r#"{"hand": ["1-2"], "trains": [{"train": 0, "tiles": ["12-3", "4-5"]}]}"#,
            "train 0: 4-5 does not join its open end 3",
        ),
        (r#"{"hand": ["1-2", "1-2"]}"#, "hand: 1-2 is used twice"),
        (r#"{"hand": ["1-13"]}"#, "hand: 1-13 is not a tile of the double-12 set"),
        (r#"{"hand": ["1-2"], "seat": 7}"#, "seat 7 is not a seat of a 4-player table (valid: 0 to 3)"),
        (
            r#"{"hand": ["1-2"], "trains": [{"train": "caboose", "tiles": ["12-3"]}]}"#,
            "is not a train (valid: a seat number 0 to 3 or \"mexican\")",
        ),
        (
            r#"{"hand": ["1-2", "3-4"], "hands": [1, 5, 5, 5]}"#,
            "hands: seat 0 holds 2 tiles by \"hand\" but 1 by \"hands\"",
        ),
        (
            r#"{"hand": ["1-2", "3-4"], "hands": [2, 5, 0, 5]}"#,
            "hands: seat 2 holds 0 tiles: a seat with no tiles has gone out",
        ),
        (
            r#"{"hand": ["1-2", "3-4"], "trains": [{"train": 0, "tiles": ["12-3"]}]}"#,
            "seat 0 has only one legal move here (3-4 on 0)",
        ),
    ];
    for (text, want) in cases {
        let err = Position::parse(text, "p.json").and_then(|p| p.build().map(|_| ())).unwrap_err().to_string();
        assert!(err.contains(want), "{text}: {err}");
    }
    let err = Position::parse(r#"{"hand": ["1-2"], "colour": 1}"#, "p.json").unwrap_err().to_string();
    assert!(err.starts_with("p.json: not a position file (unknown field `colour`"), "{err}");
}

#[test]
fn the_command_line_analyses_reviews_and_refuses_bad_input() {
    let dir = temp("cli");
    let text = logged(&dir, "wikipedia", 4, "expert,greedy,planner,random", &["--rounds", "2"]);
    let log = dir.join("wikipedia-4.jsonl");
    let log = log.to_str().unwrap();
    let _ = text;
    let out = mtrain(&["analyze", "--log", log, "--round", "1", "--decision", "2", "--samples", "500"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.starts_with("round 1, decision 2: seat "), "{s}");
    assert!(s.contains("rank  move"), "{s}");
    // JSON for programs.
    let out = mtrain(&["analyze", "--log", log, "--round", "1", "--decision", "2", "--samples", "500", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["moves"].as_array().unwrap().len() >= 2);
    assert!(v["moves"][0]["move"]["action"].is_string());
    // Review: one row per decision, the same at one and two threads.
    let csv1 = dir.join("r1.csv");
    let csv2 = dir.join("r2.csv");
    for (csv, t) in [(&csv1, "1"), (&csv2, "2")] {
        let out = mtrain(&[
            "analyze",
            "--log",
            log,
            "--review",
            "--samples",
            "300",
            "--threads",
            t,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let s = String::from_utf8(out.stdout).unwrap();
        assert!(
            s.starts_with("model: if every seat plays like weighted from each position to the round's end; hidden hands dealt as the tuned policy keeps them\n"),
            "{s}"
        );
        assert!(s.contains("\n  game  seat  bot      decisions  inaccuracies  mistakes  blunders  unconfirmed"), "{s}");
    }
    let a = std::fs::read_to_string(&csv1).unwrap();
    assert_eq!(a, std::fs::read_to_string(&csv2).unwrap());
    assert!(a.starts_with(
        "game,round,decision,seat,line,kind,moves,played,best,played_points,best_points,loss,loss_lo,loss_hi,played_win,best_win,mistake,worlds,grade,checked_loss\n"
    ));
    let games = parse_log(&std::fs::read_to_string(log).unwrap(), "log").unwrap();
    assert_eq!(a.lines().count() - 1, games[0].decisions().unwrap().len());
    // Bad input: one line, exit code 2, nothing written.
    let bad: [(&[&str], &str); 9] = [
        (
            &["analyze", "--log", log, "--round", "1", "--decision", "2", "--samples", "500", "--min-samples", "600"],
            "--min-samples 600 is above the cap of 500 worlds (--samples): give a floor at most the cap",
        ),
        (
            &["analyze", "--log", log, "--round", "1", "--decision", "2", "--min-samples", "3"],
            "invalid value '3' for '--min-samples <N>': 3 is not in 8..=10000000",
        ),
        (&["analyze", "--log", "/nonexistent.jsonl", "--review"], "cannot read the log '/nonexistent.jsonl'"),
        (
            &["analyze", "--log", log, "--round", "9", "--decision", "1"],
            "--round 9: the game has no decision in round 9",
        ),
        (&["analyze", "--log", log, "--round", "1", "--decision", "999"], "--decision 999: round 1 has decisions 1 to"),
        (&["analyze", "--log", log, "--seat", "4", "--review"], "--seat 4: the game has 4 seats (valid: 0 to 3)"),
        (&["analyze", "--log", log], "--log needs --round R --decision D"),
        (&["analyze", "--log", log, "--game", "3", "--review"], "--game 3: the log holds no such game"),
        (&["analyze", "--position", "/nonexistent.json"], "cannot read the position file"),
    ];
    for (args, want) in bad {
        let out = mtrain(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let csv3 = dir.join("r3.csv");
    let out = mtrain(&["analyze", "--log", log, "--round", "1", "--decision", "1", "--seat", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--seat 3: decision 1 of round 1 is seat"));
    let out = mtrain(&["analyze", "--log", log, "--review", "--threads", "0", "--csv", csv3.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!csv3.exists());
    // The template analyses as printed.
    let out = mtrain(&["analyze", "--template"]);
    let t = dir.join("t.json");
    std::fs::write(&t, &out.stdout).unwrap();
    let out = mtrain(&["analyze", "--position", t.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `mtrain play --human SEAT` with `input` on its standard input.
fn human(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = bin()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The match may end before every line is read: a closed pipe is not an error here.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

#[test]
fn a_person_plays_a_seat_through_standard_input() {
    let dir = temp("human");
    let log = dir.join("h.jsonl");
    let args = ["play", "--players", "3", "--seed", "3", "--rounds", "1", "--bots", "greedy,planner", "--human", "1"];
    // Bad entries are asked again; `hint` shows the analysis; then the first move every time.
    let mut input = String::from("abc\n0\n99\n\nhint 9\nhint\n");
    input.push_str(&"1\n".repeat(200));
    let mut with_log: Vec<&str> = args.to_vec();
    with_log.extend(["--log", log.to_str().unwrap()]);
    let out = human(&with_log, &input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("seat 1: human (you)"));
    assert!(s.contains("  hand 0: 15 tiles\n") && s.contains("  hand 2: 15 tiles\n"), "other hands are hidden");
    assert!(s.contains("  hand 1: 0-7 0-8 0-9 0-11 0-12 3-3 3-4 3-11 3-12 4-4 5-11 5-12 7-7 8-10 10-10"));
    for bad in ["'abc'", "'0'", "'99'", "''", "'hint 9'"] {
        assert!(
            s.contains(&format!(
                "{bad} is not a move: enter a number from 1 to 3, a tile you hold (7-11, or 7-11 mexican, 7-11 your, 7-11 N for seat N's train), hint, hint N (N from 1 to 3), or quit"
            )),
            "{bad}"
        );
    }
    // The hint names the best move with its figures, the model, and why it beats the runner-up.
    assert!(
        s.contains(
            "model: if every seat plays like weighted from here to the round's end; hidden hands dealt as the tuned policy keeps them"
        ),
        "{s}"
    );
    let hint = &s[s.find("hint: ").expect("a hint")..];
    assert!(hint.starts_with("hint: 2 3-12 on 1 (expected "), "{hint}");
    let lines: Vec<&str> = hint.lines().take(4).collect();
    assert!(lines[1].starts_with("against 3 5-12 on 1 (loses "), "{hint}");
    // Here the policy plays the best move too, and the hint says what it weighs.
    assert_eq!(lines[2], "  + keeps your own-train chain intact (5-12 belongs to it)", "{hint}");
    assert_eq!(lines[3], "  + 3-12 is the next tile of your own-train chain", "{hint}");
    assert!(s.contains("Match over"), "the match is played to its end");
    // No other seat's drawn tile is shown.
    let mut others_drew = 0;
    for line in s.lines().filter(|l| l.contains("draws") && !l.contains("seat 1")) {
        others_drew += 1;
        for (i, _) in line.match_indices("draws") {
            let next = line[i + 5..].chars().nth(1);
            assert!(!next.is_some_and(|c| c.is_ascii_digit()), "a hidden tile shown: {line}");
        }
    }
    assert!(others_drew > 0, "the test sees other seats draw");
    // The log is the match played: seat 1 is named human, and the replay finds its choices.
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("{\"event\":\"match\"") && text.contains("\"human\""));
    let games = parse_log(&text, "h.jsonl").unwrap();
    let mine: Vec<_> = games[0].decisions().unwrap().into_iter().filter(|d| d.seat.index() == 1).collect();
    assert!(mine.len() >= 3);
    assert!(mine.iter().skip(1).all(|d| d.played == 0), "every later choice was move 1");

    // Input that ends stops the match; quitting keeps no log.
    let log2 = dir.join("q.jsonl");
    let save = dir.join("s.json");
    let mut quit: Vec<&str> = args.to_vec();
    quit.extend(["--log", log2.to_str().unwrap(), "--save", save.to_str().unwrap()]);
    let out = human(&quit, "2\nquit\n");
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("the match is stopped"));
    assert!(!log2.exists());
    let mut args: Vec<&str> = args.to_vec();
    args.extend(["--save", save.to_str().unwrap()]);
    let out = human(&args, "");
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("no more input: the match is stopped"));
    // A seat the table does not have.
    let out = human(&["play", "--players", "3", "--human", "3"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "mtrain: --human 3: the table has 3 seats (valid: 0 to 2)\n");
}

/// The lines of an analysis table with the time taken blanked.
fn timeless(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| match (l.find(" rollouts in "), l.find(" s: ")) {
            (Some(a), Some(b)) => format!("{}{}", &l[..a + 13], &l[b..]),
            _ => l.to_string(),
        })
        .collect()
}

#[test]
fn the_readme_example_is_what_the_command_prints() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("position.json: seat 0 to move").expect("the worked example");
    let end = start + readme[start..].find("```").unwrap();
    let quoted = &readme[start..end];
    let dir = temp("readme");
    let out = mtrain(&["analyze", "--template"]);
    std::fs::write(dir.join("position.json"), &out.stdout).unwrap();
    let out = bin().current_dir(&dir).args(["analyze", "--position", "position.json"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(timeless(quoted), timeless(&String::from_utf8(out.stdout).unwrap()));
    // The template in docs/analyze.md is the one the command prints.
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/analyze.md")).unwrap();
    assert!(docs.contains(&format!("```json\n{TEMPLATE}```")), "docs/analyze.md quotes the template");
}

/// The rollout bot is told of the match as a seat is: `--rollout weighted` under `celko1998`
/// plays that preset's weights, as `weighted:set=celko1998` does, not the `wikipedia` set.
#[test]
fn the_rollout_bot_plays_the_presets_weights() {
    let dir = temp("rollout-set");
    logged(&dir, "celko1998", 3, "greedy", &["--rounds", "1"]);
    let log = dir.join("celko1998-3.jsonl");
    let analysis = |rollout: &str| {
        let out = mtrain(&[
            "analyze",
            "--log",
            log.to_str().unwrap(),
            "--round",
            "1",
            "--decision",
            "6",
            "--samples",
            "400",
            "--rollout",
            rollout,
            "--json",
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mut v = no_time(serde_json::from_slice(&out.stdout).unwrap());
        v["settings"] = serde_json::Value::Null;
        v["model"] = serde_json::Value::Null;
        v
    };
    let auto = analysis("weighted");
    assert_eq!(auto, analysis("weighted:set=celko1998"));
    assert_ne!(auto, analysis("weighted:set=wikipedia"));
}

#[test]
fn looks_are_planned_before_the_analysis_starts() {
    use mexican_train::analyze::looks;
    let l = looks(128, 100_000);
    assert_eq!(&l[..6], &[128, 192, 288, 432, 648, 972]);
    assert_eq!((l.len(), l[l.len() - 1]), (18, 100_000));
    assert!(l.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(looks(128, 64), vec![64]);
    assert_eq!(looks(500, 500), vec![500]);
    assert_eq!(looks(100, 160), vec![100, 150, 160]);
}

/// The stop reads intervals whose error is shared over the comparisons and every planned look,
/// the printed loss intervals are those, the model is named, and a floor is kept.
#[test]
fn the_stop_holds_its_confidence_over_every_look() {
    use mexican_train::analyze::looks;
    let p = Position::parse(TEMPLATE, "template").unwrap();
    let (_, state, moves) = p.build().unwrap();
    let view = state.view(state.current());
    let a = analyze(&view, &moves, &Settings::default(), 1);
    assert_eq!(a.model, "weighted");
    assert_eq!(a.looks, 18);
    let k = a.moves.len() as f64;
    assert!((a.comparison_error - 0.05 / ((k - 1.0) * 18.0)).abs() < 1e-15, "{}", a.comparison_error);
    assert_eq!(a.stop, Stop::Separated);
    assert!(looks(128, 100_000).contains(&a.worlds), "it stopped at a planned look: {}", a.worlds);
    // The table says what the intervals are.
    let t = Table(&a).to_string();
    assert!(t.contains("loss [95% joint]") && t.contains("over 18 planned looks hold together at 95%"), "{t}");
    assert!(t.contains("model: if every seat plays like weighted from here to the round's end"), "{t}");
    // Each of ten seeds separates the same move: the stated error allows a different one in
    // at most 5% of pairs of runs, and this position's best is clear.
    let named: Vec<String> = (1..=10)
        .map(|seed| analyze(&view, &moves, &Settings::default(), seed))
        .filter(|a| a.stop == Stop::Separated)
        .map(|a| a.best().mv.to_string())
        .collect();
    assert!(named.len() >= 8, "{named:?}");
    assert!(named.iter().all(|m| *m == named[0]), "{named:?}");
    // A floor: no stop before --min-samples worlds.
    let f = analyze(&view, &moves, &Settings { min_worlds: 3000, ..Settings::default() }, 1);
    assert!(f.worlds >= 3000, "{}", f.worlds);
    assert_eq!(f.looks, looks(3000, 100_000).len() as u32);
}

#[test]
fn a_review_grades_by_the_loss_that_holds() {
    use mexican_train::analyze::review::grade;
    assert_eq!(grade(6.0, 4.5, 1.0), "blunder");
    assert_eq!(grade(6.0, 3.9, 1.0), "mistake");
    assert_eq!(grade(3.0, 1.0, 1.0), "mistake");
    assert_eq!(grade(3.0, 0.4, 1.0), "inaccuracy");
    assert_eq!(grade(0.8, 0.1, 1.0), "");
    assert_eq!(grade(5.0, -0.1, 1.0), "");
    assert_eq!(grade(9.0, 8.0, 2.0), "blunder");
    assert_eq!(grade(9.0, 7.9, 2.0), "mistake");
}

/// The hint's reasons come from the tuned policy's features, with the position's numbers.
#[test]
fn a_hint_says_why_in_the_policys_terms() {
    use mexican_train::analyze::explain::{hint_text, why};
    // Seat 1 holds two tiles: shedding the 23-pip tile now is urgent.
    let p = position(
        &["0-1", "11-12", "1-2"],
        serde_json::json!([{"train": 0, "tiles": ["12-1"]}, {"train": 1, "tiles": ["12-2"]},
                           {"train": 2, "tiles": ["12-3"]}, {"train": 3, "tiles": ["12-4"]}]),
        &[3, 2, 6, 6],
    );
    let (_, state, moves) = p.build().unwrap();
    let view = state.view(state.current());
    let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let heavy = texts.iter().position(|t| t == "11-12 on mexican").unwrap();
    let light = texts.iter().position(|t| t == "0-1 on 0").unwrap();
    let w = why(&view, &moves, heavy, light);
    assert!(w.policy_agrees);
    assert!(
        w.for_best.iter().any(|r| r == "sheds 23 pips now, while seat 1 holds 2 and may go out soon (0-1: 1)"),
        "{w:?}"
    );
    let a = analyze(&view, &moves, &Settings::default(), 1);
    assert_eq!(a.best().mv.to_string(), "11-12 on mexican");
    let text = hint_text(&a, &view, &moves, Some(light), |i| format!("{}", i + 1));
    assert!(text.starts_with(&format!("hint: {} 11-12 on mexican (expected +", heavy + 1)), "{text}");
    assert!(text.contains(&format!("against {} 0-1 on 0 (loses ", light + 1)), "{text}");
    assert!(text.contains("  + sheds 23 pips now, while seat 1 holds 2"), "{text}");
    // Asked about the best move itself.
    let text = hint_text(&a, &view, &moves, Some(heavy), |i| format!("{}", i + 1));
    assert!(text.contains(&format!("{} is the move the analysis ranks first", heavy + 1)), "{text}");
    assert!(!text.contains("by the chance of winning"), "{text}");
    // When another move wins the round more often than the best by points, the hint says which
    // to prefer.
    let mut b = a.clone();
    b.moves[1].win.mean = b.moves[0].win.mean + 0.05;
    let other = b.moves[1].mv.to_string();
    let text = hint_text(&b, &view, &moves, None, |i| format!("{}", i + 1));
    assert!(
        text.contains(&format!("by the chance of winning this round {} {other} is ahead", b.moves[1].index + 1)),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "the match is scored in points, so prefer 11-12 on mexican; prefer {other} only if winning this round is all that counts"
        )),
        "{text}"
    );
}

/// `--hands plans` (the default for the tuned policy) deals the other seats hands holding longer
/// own-train plans than uniform deals do, from the same records; `auto` picks it for `weighted`
/// and not for `greedy`; the model line says which; a bad value is refused naming the choices.
#[test]
fn planned_deals_hold_longer_plans_and_the_output_says_how_hands_were_dealt() {
    use mexican_train::analyze::Hands;
    use mexican_train::round::TrainId;
    use mexican_train::strategies::plan::PlanCache;
    let dir = temp("hands");
    let text = logged(&dir, "wikipedia", 4, "weighted", &["--rounds", "1"]);
    let decisions = parse_log(&text, "log").unwrap()[0].decisions().unwrap();
    let d = &decisions[6];
    let round = d.state.round().unwrap();
    let view = round.view(d.seat);
    let plans = |hands: Hands| {
        let mut rng = rng_from_seed(3);
        let mut total = 0usize;
        for _ in 0..200 {
            let w = hands.deal(&view, true, &mut rng).unwrap();
            for o in (0..4).map(mexican_train::Seat::from_index).filter(|&o| o != d.seat) {
                total += PlanCache::default().rest(w.hand(o), w.view(o).train(TrainId::personal(o)).end).0.len();
            }
        }
        total as f64 / 600.0
    };
    let (uniform, planned) = (plans(Hands::Uniform), plans(Hands::Plans));
    assert!(planned > uniform + 0.8, "planned {planned:.2}, uniform {uniform:.2}");
    assert_eq!(Hands::for_model("weighted"), Hands::Plans);
    assert_eq!(Hands::for_model("expert:samples=8"), Hands::Plans);
    assert_eq!(Hands::for_model("greedy"), Hands::Uniform);
    assert_eq!(Hands::for_model("planner"), Hands::Uniform);
    let log = dir.join("wikipedia-4.jsonl");
    let log = log.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["analyze", "--log", log, "--round", "1", "--decision", "7", "--samples", "200"];
        args.extend_from_slice(extra);
        mtrain(&args)
    };
    let out = run(&[]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("; hidden hands dealt as the tuned policy keeps them\n"));
    let out = run(&["--rollout", "greedy"]);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("plays like greedy from here to the round's end; hidden hands dealt uniformly\n")
    );
    let out = run(&["--hands", "uniform"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("; hidden hands dealt uniformly\n"));
    let out = run(&["--hands", "sorted"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sorted") && err.contains("auto") && err.contains("plans") && err.contains("uniform"),
        "{err}"
    );
}

/// Where the policy alone would play the runner-up, the hint says so and which to prefer.
#[test]
fn a_hint_says_when_the_search_overrules_the_policy() {
    let args = ["play", "--players", "3", "--seed", "5", "--rounds", "1", "--bots", "greedy,planner", "--human", "1"];
    let mut input = String::from("hint\n");
    input.push_str(&"1\n".repeat(200));
    let out = human(&args, &input);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let s = String::from_utf8(out.stdout).unwrap();
    let hint = &s[s.find("hint: ").expect("a hint")..];
    let lines: Vec<&str> = hint.lines().take(3).collect();
    assert!(lines[0].starts_with("hint: 3 10-12 on 1 (expected "), "{hint}");
    assert!(lines[1].starts_with("against 4 11-12 on 1 (loses "), "{hint}");
    assert_eq!(
        lines[2],
        "  the tuned policy alone would play 11-12 on 1, but played out to the round's end 10-12 on 1 comes out ahead: the search sees further than the policy's features",
        "{hint}"
    );
}
