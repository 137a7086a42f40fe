//! Bots from outside the crate: external programs over the line protocol (docs/bot-protocol.md)
//! and Rust strategies added to a registry (examples/custom_bot.rs), run as a user runs them.
//!
//! The bot programs are in Python with the standard library only (`python3` on the PATH), and
//! the compiled examples are the ones `cargo test` builds.

mod common;
use common::{bin, mtrain, read, temp};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file in the repository, as an argument.
fn repo(path: &str) -> String {
    root().join(path).display().to_string()
}

/// A binary of this package's examples, built by `cargo test` next to the test binaries.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().parent().unwrap().join("examples");
    let path = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} is not built (cargo test builds the examples)", path.display());
    path
}

fn ok(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr: {err}");
    String::from_utf8(out.stdout.clone()).unwrap()
}

const RESULT_FILES: &[&str] = &[
    "summary.csv",
    "seats.csv",
    "pairs.csv",
    "ratings.csv",
    "round_stats.csv",
    "games.csv",
    "rounds.csv",
    "tally.json",
];

#[test]
fn python_greedy_plays_exactly_as_the_built_in_greedy() {
    let dir = temp("pygreedy");
    let ext = format!("pygreedy=python3 {}", repo("examples/bots/greedy.py"));
    for (players, games) in [("2", "600"), ("4", "400")] {
        let (a, b) = (dir.join(format!("py{players}")), dir.join(format!("builtin{players}")));
        let common = ["tournament", "--players", players, "--games", games, "--seed", "11", "--per-game", "--quiet"];
        let mut args: Vec<&str> = common.to_vec();
        let a_s = a.display().to_string();
        args.extend(["--ext-bot", &ext, "--bots", "pygreedy,random", "--out", &a_s]);
        let out_a = ok(&mtrain(&args));
        let mut args: Vec<&str> = common.to_vec();
        let b_s = b.display().to_string();
        args.extend(["--bots", "greedy,random", "--out", &b_s]);
        let out_b = ok(&mtrain(&args));
        // The console pads columns to the longest name: compare it word by word.
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&out_a.replace("pygreedy", "greedy")), words(&out_b));
        for f in RESULT_FILES {
            if *f == "tally.json" {
                continue; // it stores the command line, which names the bots differently
            }
            assert_eq!(read(&a.join(f)).replace("pygreedy", "greedy"), read(&b.join(f)), "{players} players: {f}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_seeded_external_bot_gives_the_same_files_at_any_thread_count() {
    let dir = temp("threads");
    let ext = format!("rec=python3 {} {}", repo("tests/bots/recorder.py"), dir.join("messages.jsonl").display());
    let mut outputs = Vec::new();
    for threads in ["1", "2", "3"] {
        let out = dir.join(format!("t{threads}"));
        let o = out.display().to_string();
        let args = [
            "tournament",
            "--players",
            "3",
            "--games",
            "300",
            "--ext-bot",
            &ext,
            "--bots",
            "rec,greedy,random",
            "--threads",
            threads,
            "--per-game",
            "--quiet",
            "--out",
            &o,
        ];
        let stdout = ok(&mtrain(&args));
        let files: Vec<String> =
            RESULT_FILES.iter().filter(|f| **f != "tally.json").map(|f| read(&out.join(f))).collect();
        outputs.push((stdout, files));
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]), "results differ between thread counts");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The tiles named in a JSON value (`"3-12"`, `"12-5"`), as (low, high).
fn tiles_in(v: &Value, out: &mut Vec<(u8, u8)>) {
    match v {
        Value::String(s) => {
            if let Some((a, b)) = s.split_once('-')
                && let (Ok(a), Ok(b)) = (a.parse::<u8>(), b.parse::<u8>())
            {
                out.push((a.min(b), a.max(b)));
            }
        }
        Value::Array(items) => items.iter().for_each(|x| tiles_in(x, out)),
        Value::Object(m) => m.values().for_each(|x| tiles_in(x, out)),
        _ => {}
    }
}

fn tile(v: &Value) -> (u8, u8) {
    let mut t = Vec::new();
    tiles_in(v, &mut t);
    assert_eq!(t.len(), 1, "{v}");
    t[0]
}

/// One round of the full-information log: the hands dealt and the events in order.
struct LoggedRound {
    hands: Vec<BTreeSet<(u8, u8)>>,
    events: Vec<Value>,
}

fn parse_log(text: &str) -> BTreeMap<u64, LoggedRound> {
    let mut rounds = BTreeMap::new();
    let mut current = None;
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match v["event"].as_str().unwrap() {
            "match" | "match_end" => {}
            "round" => {
                // A redealt deal is repeated under the same number: the last one is played.
                let r = v["round"].as_u64().unwrap();
                let hands = v["hands"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| h.as_array().unwrap().iter().map(tile).collect())
                    .collect();
                rounds.insert(r, LoggedRound { hands, events: Vec::new() });
                current = Some(r);
            }
            _ => rounds.get_mut(&current.unwrap()).unwrap().events.push(v),
        }
    }
    rounds
}

/// Checks every message to every seat against the full-information log of the same match: a
/// message names no tile its seat could not know at that moment (its own deal and draws, and
/// tiles on the table), and its events are the log's, in order, with other seats' draws hidden.
fn check_messages(log: &str, messages: &str) -> usize {
    let rounds = parse_log(log);
    // Where each seat has got to in each round's events.
    let mut pos: BTreeMap<(u64, u64), usize> = BTreeMap::new();
    let mut checked = 0;
    for line in messages.lines() {
        let m: Value = serde_json::from_str(line).unwrap();
        let kind = m["type"].as_str().unwrap();
        if !matches!(kind, "round" | "decide" | "round_end") {
            let mut t = Vec::new();
            tiles_in(&m, &mut t);
            assert!(t.is_empty(), "{kind} names tiles: {line}");
            continue;
        }
        let seat = m["seat"].as_u64().unwrap();
        let r = m["round"].as_u64().unwrap();
        let round = &rounds[&r];
        let p = pos.entry((r, seat)).or_insert(0);
        let empty = Vec::new();
        let events = m.get("events").and_then(Value::as_array).unwrap_or(&empty);
        let end = *p + events.len();
        assert!(end <= round.events.len(), "more events than the log has: {line}");
        let mut known: BTreeSet<(u8, u8)> = round.hands[seat as usize].clone();
        for (i, logged) in round.events[..end].iter().enumerate() {
            let own = logged["seat"].as_u64() == Some(seat);
            let name = logged["event"].as_str().unwrap();
            match name {
                "play" | "engine" => {
                    known.insert(tile(&logged["tile"]));
                }
                "draw" if own => {
                    known.insert(tile(&logged["tile"]));
                }
                "penalty" if own => {
                    let mut t = Vec::new();
                    tiles_in(&logged["tiles"], &mut t);
                    known.extend(t);
                }
                _ => {}
            }
            if i >= *p {
                // The event as the seat got it: the log's, less what the seat cannot see.
                let mut expect = logged.clone();
                let obj = expect.as_object_mut().unwrap();
                match name {
                    "draw" if !own => {
                        obj.remove("tile");
                    }
                    "penalty" => {
                        let n = logged["tiles"].as_array().unwrap().len();
                        obj.insert("count".into(), n.into());
                        if !own {
                            obj.remove("tiles");
                        }
                    }
                    _ => {}
                }
                assert_eq!(events[i - *p], expect, "seat {seat}, round {r}: event {i} differs");
            }
        }
        let mut named = Vec::new();
        tiles_in(&m, &mut named);
        for t in named {
            assert!(known.contains(&t), "seat {seat}, round {r}: {kind} names {}-{} it cannot know: {line}", t.0, t.1);
        }
        *p = end;
        checked += 1;
    }
    checked
}

#[test]
fn nothing_hidden_reaches_an_external_bot() {
    let dir = temp("hidden");
    let presets = ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"];
    let variations: &[&[&str]] = &[
        &[],
        &["--rule", "blanks_wild=true"],
        &["--rule", "branching_doubles=four_way"],
        &["--rule", "tap=draw_two"],
        &["--rule", "swan_drive=true", "--rule", "bullet_train=true"],
    ];
    let mut messages_checked = 0;
    let mut matches = 0;
    for (i, preset) in presets.iter().enumerate() {
        for (j, rules) in variations.iter().enumerate() {
            let players = ["2", "3", "4", "6"][(i + j) % 4];
            let seed = (100 + i * 10 + j).to_string();
            let msgs = dir.join(format!("{preset}-{j}.jsonl"));
            let log = dir.join(format!("{preset}-{j}.log"));
            let ext = format!("rec=python3 {} {}", repo("tests/bots/recorder.py"), msgs.display());
            let l = log.display().to_string();
            let mut args =
                vec!["play", "--rules", preset, "--players", players, "--seed", &seed, "--log", &l, "--ext-bot", &ext];
            args.extend_from_slice(rules);
            // Every seat the recorder, but one random seat (its draws must stay hidden too).
            args.extend(["--bots", if players == "2" { "rec,random" } else { "rec,rec,random" }]);
            let out = mtrain(&args);
            if out.status.code() == Some(2) {
                // A variation this preset refuses (it says why); the others cover it.
                continue;
            }
            ok(&out);
            messages_checked += check_messages(&read(&log), &read(&msgs));
            matches += 1;
        }
    }
    assert!(matches >= 23, "only {matches} matches ran");
    assert!(messages_checked > 5_000, "only {messages_checked} messages checked");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs a tournament with a misbehaving bot; returns the exit code, stdout, the stderr lines
/// and the seconds it took.
fn bad_run(mode: &str, out: &Path, extra: &[&str]) -> (Option<i32>, String, Vec<String>, f64) {
    let ext = format!("bad=python3 {} {mode}", repo("tests/bots/bad.py"));
    let o = out.display().to_string();
    let mut args = vec!["tournament", "--players", "2", "--games", "200", "--ext-bot", &ext, "--bots", "bad,greedy"];
    args.extend(["--quiet", "--out", &o, "--bot-timeout", "1"]);
    args.extend_from_slice(extra);
    let t = Instant::now();
    let r = mtrain(&args);
    let secs = t.elapsed().as_secs_f64();
    let err: Vec<String> = String::from_utf8(r.stderr).unwrap().lines().map(str::to_string).collect();
    (r.status.code(), String::from_utf8(r.stdout).unwrap(), err, secs)
}

/// Runs a tournament with a misbehaving bot in `out` and checks that it stopped with one line
/// of exit code 3 that holds each of `needles`, saved as after Ctrl-C; returns that line.
fn bad_run_fails(mode: &str, out: &Path, needles: &[&str]) -> String {
    let (code, stdout, err, secs) = bad_run(mode, out, &[]);
    assert_eq!(code, Some(3), "{mode}: {err:?}");
    assert_eq!(err.len(), 1, "{mode}: expected one line, got {err:?}");
    let line = &err[0];
    assert!(line.starts_with("mtrain: bot 'bad' (python3 "), "{mode}: {line}");
    assert!(line.contains("failed in game ") && line.contains(", seat "), "{mode}: {line}");
    for n in needles {
        assert!(line.contains(n), "{mode}: '{line}' lacks '{n}'");
    }
    // Within the timeout: nothing waits on the bot longer than --bot-timeout and the
    // two-second shutdown.
    assert!(secs < 30.0, "{mode}: took {secs:.1} s");
    // The same line says what was saved and how to go on (stdout may be redirected).
    assert!(line.contains("games played and saved; continue with: mtrain tournament --resume"), "{mode}: {line}");
    assert!(!stdout.contains("continue with"), "{mode}: {stdout}");
    // Saved as after Ctrl-C: resumable, marked interrupted.
    let manifest: Value = serde_json::from_str(&read(&out.join("manifest.json"))).unwrap();
    assert_eq!(manifest["stopped"], "interrupted", "{mode}");
    assert!(out.join("tally.json").exists());
    line.clone()
}

#[test]
fn a_line_the_protocol_does_not_expect_fails_the_bot() {
    let dir = temp("unexpected");
    // Two answers to one decide (written at once), and an answer to each message that takes none.
    for mode in ["twice", "answer=match", "answer=round", "answer=round_end"] {
        let out = dir.join(mode.replace('=', "-"));
        bad_run_fails(mode, &out, &["wrote a line when no reply was expected", "reply: {\"move\": 0}"]);
    }
    // play: the extra line once changed the match silently (314-440 instead of 462-202).
    let ext = format!("bad=python3 {} answer=round", repo("tests/bots/bad.py"));
    let r = mtrain(&["play", "--seed", "5", "--players", "2", "--ext-bot", &ext, "--bots", "bad,greedy"]);
    let err = String::from_utf8(r.stderr).unwrap();
    assert_eq!(r.status.code(), Some(3), "{err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with("[bad]")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains("wrote a line when no reply was expected"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failing_bot_is_reported_with_the_real_cause() {
    let dir = temp("cause");
    let cases: &[(&str, &[&str])] = &[
        (
            "huge",
            &["reply longer than 1 MiB", "last request: {\"type\":\"decide\"", "reply: {\"move\": 0, \"pad\": \"xxx"],
        ),
        ("exit-child", &["exited with status 5", "last request: {\"type\":\"decide\"", "no reply"]),
        ("close-input", &["closed its input"]),
    ];
    for (mode, needles) in cases {
        let line = bad_run_fails(mode, &dir.join(mode), needles);
        assert!(!line.contains("no reply within"), "{mode}: {line}");
        assert!(!line.contains("closed its output"), "{mode}: {line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether process `pid` has ended (gone, or a zombie its parent has yet to collect).
#[cfg(target_os = "linux")]
fn ended(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat.rsplit_once(") ").is_some_and(|(_, rest)| rest.starts_with('Z')),
    }
}

/// Waits (generously) until every pid listed in `file` has ended; panics naming one that has not.
#[cfg(target_os = "linux")]
fn all_ended(file: &Path, what: &str) {
    let text = read(file);
    let pids: Vec<&str> = text.split_whitespace().collect();
    assert!(!pids.is_empty(), "{what}: no child started");
    let deadline = Instant::now() + std::time::Duration::from_secs(20);
    for pid in pids {
        while !ended(pid) {
            assert!(Instant::now() < deadline, "{what}: the bot's child {pid} is still running");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn no_bot_process_outlives_mtrain() {
    let dir = temp("group");
    let bot = repo("tests/bots/bad.py");
    // A normal end.
    let pids = dir.join("normal.pids");
    let ext = format!("bad=python3 {bot} none --child {}", pids.display());
    ok(&mtrain(&["play", "--players", "2", "--ext-bot", &ext, "--bots", "bad,greedy"]));
    all_ended(&pids, "normal end");
    // A failing bot (exit code 3), and one that exits leaving a child with its output open.
    for mode in ["crash", "exit-child"] {
        let pids = dir.join(format!("{mode}.pids"));
        let out = dir.join(mode);
        let (code, _, err, _) = bad_run(&format!("{mode} --child {}", pids.display()), &out, &["--threads", "1"]);
        assert_eq!(code, Some(3), "{mode}: {err:?}");
        all_ended(&pids, mode);
    }
    // SIGTERM (exit code 143): the run saves and ends its bots.
    let pids = dir.join("term.pids");
    let ext = format!("bad=python3 {bot} none --child {}", pids.display());
    let o = dir.join("term").display().to_string();
    let mut child = bin()
        .args(["tournament", "--players", "2", "--games", "10000000", "--ext-bot", &ext, "--bots", "bad,greedy"])
        .args(["--threads", "1", "--quiet", "--out", &o])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&pids).map_or(true, |t| !t.ends_with('\n')) {
        assert!(Instant::now() < deadline, "the bot did not start");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let kill = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    assert_eq!(child.wait().unwrap().code(), Some(143));
    all_ended(&pids, "SIGTERM");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bot_log_is_capped() {
    let dir = temp("chatty");
    let out = dir.join("run");
    let ext = format!("bad=python3 {} chatty", repo("tests/bots/bad.py"));
    let o = out.display().to_string();
    let args = ["tournament", "--players", "2", "--games", "4", "--ext-bot", &ext, "--bots", "bad,greedy"];
    ok(&mtrain(&[&args[..], &["--threads", "1", "--quiet", "--out", &o]].concat()));
    let logs: Vec<PathBuf> = std::fs::read_dir(out.join("bot-logs")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(logs.len(), 1, "{logs:?}");
    let log = std::fs::read(&logs[0]).unwrap();
    const CAP: usize = 10 * 1024 * 1024;
    // The bot wrote 12,000,000 bytes: the first 10 MiB are kept, then one line says what was cut.
    assert!(log.len() > CAP && log.len() < CAP + 300, "{} bytes", log.len());
    assert!(log[..CAP].iter().all(|&b| b == b'x' || b == b'\n'));
    let last = String::from_utf8_lossy(&log[CAP..]).trim().to_string();
    assert!(!last.contains('\n'), "{last}");
    assert!(last.contains(&format!("{} more bytes", 12_000_000 - CAP)), "{last}");
    assert!(last.contains("10 MiB"), "{last}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tune_starts_an_external_bot_at_the_value_its_spec_gives() {
    let dir = temp("tune");
    let ext = format!("mine=python3 {} none", repo("tests/bots/bad.py"));
    let run = |bot: &str, out: &str| {
        let o = dir.join(out).display().to_string();
        mtrain(
            &["tune", "--ext-bot", &ext, "--bot", bot, "--param", "w=0:1", "--players", "2"]
                .iter()
                .chain(&["--iterations", "1", "--games", "2", "--confirm-games", "2", "--threads", "1", "--quiet"])
                .chain(&["--out", o.as_str()])
                .copied()
                .collect::<Vec<_>>(),
        )
    };
    let stdout = ok(&run("mine:w=0.3", "given"));
    assert!(stdout.contains("start: mine:w=0.3"), "{stdout}");
    // Without it mtrain cannot know the bot's own default: it refuses rather than guess.
    let r = run("mine", "missing");
    let err = String::from_utf8(r.stderr).unwrap();
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("give the starting value in the spec, e.g. --bot mine:w="), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_bot_stops_the_run_with_one_line_and_exit_code_3() {
    let dir = temp("bad");
    let cases: &[(&str, &[&str])] = &[
        (
            "crash",
            &[
                "exited with status 7",
                "last stderr line: bad.py: crashing on purpose",
                "last request: {\"type\":\"decide\"",
            ],
        ),
        ("hang", &["no reply within 1 s", "last request: {\"type\":\"decide\"", "no reply"]),
        ("garbage", &["malformed JSON", "reply: this is not json"]),
        ("illegal", &["chose move", "were offered", "reply: {\"move\":"]),
        ("noreply-hello", &["no handshake reply within 1 s"]),
        ("old", &["speaks protocol version 0", "this mtrain speaks version 1"]),
    ];
    for (mode, needles) in cases {
        let out = dir.join(mode);
        bad_run_fails(mode, &out, needles);
        // The bot's stderr went to a file, not over the terminal.
        if *mode == "crash" {
            let logs: String =
                std::fs::read_dir(out.join("bot-logs")).unwrap().map(|e| read(&e.unwrap().path())).collect();
            assert!(logs.contains("bad.py: crashing on purpose"), "{logs}");
        }
    }
    // A program that does not exist.
    let o = dir.join("ghost").display().to_string();
    let r = mtrain(&[
        "tournament",
        "--players",
        "2",
        "--games",
        "50",
        "--ext-bot",
        "ghost=/nonexistent/bot --fast",
        "--bots",
        "ghost,greedy",
        "--quiet",
        // One thread: with more, another thread's chunk may fail first and be the one reported.
        "--threads",
        "1",
        "--out",
        &o,
    ]);
    let err = String::from_utf8(r.stderr).unwrap();
    assert_eq!(r.status.code(), Some(3), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bot 'ghost' (/nonexistent/bot --fast) failed in game 0, seat"), "{err}");
    assert!(err.contains("cannot start '/nonexistent/bot'"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_stopped_by_a_bot_resumes_to_the_results_of_an_unbroken_run() {
    let dir = temp("resume");
    let marker = dir.join("crashed-once");
    let broken = dir.join("broken");
    // Crashes at its third decision the first time only (the marker records it).
    let mode = format!("crash-once={}", marker.display());
    let (code, _, err, _) = bad_run(&mode, &broken, &["--threads", "2", "--per-game"]);
    assert_eq!(code, Some(3), "{err:?}");
    let b = broken.display().to_string();
    let r = mtrain(&["tournament", "--resume", &b, "--quiet"]);
    ok(&r);
    let clean = dir.join("clean");
    let (code, _, err, _) = bad_run("none", &clean, &["--threads", "2", "--per-game"]);
    assert_eq!(code, Some(0), "{err:?}");
    for f in RESULT_FILES {
        if *f == "tally.json" {
            continue;
        }
        assert_eq!(read(&broken.join(f)), read(&clean.join(f)), "{f}");
    }
    // A bot that fails every time: fixed, and given its new command on resume under its name.
    let fixed = dir.join("fixed");
    let (code, _, err, _) = bad_run("crash", &fixed, &["--threads", "2", "--per-game"]);
    assert_eq!(code, Some(3), "{err:?}");
    let f = fixed.display().to_string();
    let r = mtrain(&["tournament", "--resume", &f, "--ext-bot", "ghost=python3 x.py", "--quiet"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        String::from_utf8(r.stderr)
            .unwrap()
            .contains("the run has no external bot 'ghost' to give a new command (its external bots: bad)")
    );
    let cured = format!("bad=python3 {} none", repo("tests/bots/bad.py"));
    ok(&mtrain(&["tournament", "--resume", &f, "--ext-bot", &cured, "--quiet"]));
    for f in RESULT_FILES {
        if *f == "tally.json" {
            continue;
        }
        assert_eq!(read(&fixed.join(f)), read(&clean.join(f)), "{f}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ext_bot_options_refuse_bad_input_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["play", "--ext-bot", "mine"], "expected NAME=COMMAND"),
        (&["play", "--ext-bot", "mine='python3 x.py"], "unbalanced quotes"),
        (&["play", "--ext-bot", "mine="], "the command is empty"),
        (&["play", "--ext-bot", "my bot=x"], "invalid --ext-bot name 'my bot'"),
        (&["play", "--ext-bot", "greedy=python3 x.py"], "a bot named 'greedy' already exists"),
        (&["play", "--ext-bot", "a=x", "--ext-bot", "a=y"], "a bot named 'a' already exists"),
        (&["tournament", "--ext-bot", "a=x", "--bot-timeout", "0"], "above 0"),
        (&["tournament", "--bots", "mine,greedy"], "unknown bot 'mine'"),
    ];
    for (args, needle) in cases {
        let out = mtrain(args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    }
}

#[test]
fn external_bots_play_in_balance_and_bench_and_are_listed() {
    let minimal = example("minimal_bot").display().to_string();
    let ext = format!("first={minimal}");
    let out = ok(&mtrain(&[
        "bench",
        "--ext-bot",
        &ext,
        "--bots",
        "first,greedy",
        "--threads",
        "1",
        "--seconds",
        "0.4",
        "--runs",
        "2",
    ]));
    let row = out.lines().find(|l| l.trim_start().starts_with("1 ")).unwrap_or_else(|| panic!("{out}"));
    let decisions: f64 = row.split_whitespace().nth(3).unwrap().replace(',', "").parse().unwrap();
    assert!(decisions > 0.0, "{out}");
    let py = format!("pygreedy=python3 {}", repo("examples/bots/greedy.py"));
    let out = ok(&mtrain(&[
        "balance",
        "--ext-bot",
        &py,
        "--bots",
        "pygreedy,planner",
        "--players",
        "2-3",
        "--hands",
        "8-9",
        "--games",
        "40",
        "--quiet",
    ]));
    assert!(out.contains("pygreedy"), "{out}");
    let out = ok(&mtrain(&["strategies", "--ext-bot", &py]));
    assert!(out.contains("pygreedy") && out.contains("[external]"), "{out}");
    // A parameter the program refuses: it says so on stderr and exits, and that is the report.
    let r = mtrain(&["play", "--ext-bot", &py, "--bots", "pygreedy:depth=2,random", "--players", "2"]);
    let err = String::from_utf8(r.stderr).unwrap();
    assert_eq!(r.status.code(), Some(3), "{err}");
    assert!(err.contains("greedy.py takes no parameters"), "{err}");
}

#[test]
fn the_custom_bot_example_runs_the_whole_command_line() {
    let exe = example("custom_bot");
    let run = |args: &[&str]| Command::new(&exe).args(args).output().unwrap();
    let out = ok(&run(&["strategies"]));
    assert!(out.contains("lightest") && out.contains("late=0"), "{out}");
    let out = ok(&run(&["tournament", "--bots", "lightest,greedy", "--players", "2", "--games", "200", "--quiet"]));
    // Shedding the lightest tiles first loses to shedding the heaviest.
    let line = out.lines().find(|l| l.contains("lightest vs greedy")).unwrap_or_else(|| panic!("{out}"));
    let score: f64 = line.split("A's score").nth(1).unwrap().trim().split('%').next().unwrap().trim().parse().unwrap();
    assert!(score < 30.0, "{line}");
    let out = ok(&run(&["play", "--bots", "lightest:late=3,random", "--players", "2"]));
    assert!(out.contains("lightest:late=3"), "{out}");
    let r = run(&["play", "--bots", "lightest:late=x"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        String::from_utf8(r.stderr).unwrap().contains("invalid value 'x' for lightest:late (valid: a whole number)")
    );
}

/// The inverse of `rng::mix`: the parent seed `mix(parent, index)` came from. `mix` is
/// splitmix64's finaliser after adding a multiple of the golden ratio, and both steps undo.
fn unmix(child: u64, index: u64) -> u64 {
    fn unshift(x: u64, s: u32) -> u64 {
        // x ^ (x >> s), undone by applying it until the shifted part runs out.
        let mut y = x;
        let mut k = s;
        while k < 64 {
            y = x ^ (y >> s);
            k += s;
        }
        y
    }
    // Modular inverses of the finaliser's odd multipliers.
    fn inv(a: u64) -> u64 {
        let mut x = a;
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        }
        x
    }
    let mut z = unshift(child, 31);
    z = unshift(z.wrapping_mul(inv(0x94D0_49BB_1331_11EB)), 27);
    z = unshift(z.wrapping_mul(inv(0xBF58_476D_1CE4_E5B9)), 30);
    z.wrapping_sub(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(index.wrapping_add(1)))
}

/// The audit's attack on the `seed` of the `match` message: undo the mix that made it from the
/// match seed, and replay the deal. The seed is now one-way: the attack finds nothing, while on
/// the seat's stream seed itself (what the message used to carry) it finds the match seed.
#[test]
fn a_bot_cannot_work_back_from_its_seed_to_the_deal() {
    use mexican_train::rng::{mix, seeds};
    // The inverse is right: it undoes mix.
    for (s, i) in [(0u64, 0u64), (5, 2 << 32), (u64::MAX, 17), (0x1234_5678_9abc_def0, 3)] {
        assert_eq!(unmix(mix(s, i), i), s);
    }
    let dir = temp("seed-attack");
    let msgs = dir.join("messages.jsonl");
    let ext = format!("rec=python3 {} {}", repo("tests/bots/recorder.py"), msgs.display());
    ok(&mtrain(&["play", "--players", "2", "--rounds", "1", "--seed", "5", "--ext-bot", &ext, "--bots", "rec,rec"]));
    let mut seen = 0;
    for line in read(&msgs).lines() {
        let m: Value = serde_json::from_str(line).unwrap();
        if m["type"] != "match" {
            continue;
        }
        seen += 1;
        let seat = m["seat"].as_u64().unwrap();
        let told = m["seed"].as_u64().unwrap();
        let bot_stream = seeds::bot(5, seat);
        assert_eq!(unmix(bot_stream, (2 << 32) + seat), 5, "the attack works on the stream seed");
        assert_eq!(told, seeds::bot_public(bot_stream), "the message carries the one-way seed");
        assert_ne!(told, bot_stream);
        assert_ne!(unmix(told, (2 << 32) + seat), 5, "the attack finds the match seed");
    }
    assert_eq!(seen, 2, "one match message per seat");
}
