//! `mtrain eval`: the protocol as data and stable, the frozen baselines pinned (full specs and
//! fingerprints of their play), a quick evaluation reproducible at any thread count, a baseline
//! against itself at 0 within its interval, and bad input refused in one line.

mod common;

use common::{bin, mtrain, read, rejects, run_ok, temp_path};
use mexican_train::eval::{self, BASELINES, Protocol, QUICK, V1};
use mexican_train::strategies::Registry;
use std::process::Stdio;
use std::time::Duration;

#[test]
fn protocol_is_printed_and_stable() {
    let text = run_ok(&["eval", "--protocol"]);
    assert_eq!(text, V1.text());
    assert!(text.starts_with("mtrain-eval v1\n"), "{text}");
    for b in &BASELINES {
        assert!(text.contains(b.spec), "{text} lacks {}", b.spec);
    }
    // What v1 is: a change to any of these is a new protocol (bump VERSION in src/eval.rs).
    assert_eq!(eval::VERSION, "mtrain-eval v1");
    assert_eq!((V1.rounds, V1.games_2p, V1.games_4p), (3, 640, 384));
    assert_eq!(V1.seed(), 3_548_104_525);
    assert_eq!(eval::PRESETS, ["wikipedia", "dominorules"]);
    assert_eq!(eval::PLAYERS, [2, 4]);
    assert_eq!(V1.cells().len(), 20);
    let quick = run_ok(&["eval", "--protocol", "--quick"]);
    assert!(quick.starts_with("mtrain-eval v1-quick (smoke test, not v1)\n"), "{quick}");
    assert_ne!(QUICK.seed(), V1.seed());
}

#[test]
fn baselines_spell_out_every_parameter() {
    let registry = Registry::builtin();
    for b in &BASELINES {
        let (name, params) = b.spec.split_once(':').unwrap_or((b.spec, ""));
        assert_eq!(name, b.name);
        let entry = registry.get(name).expect("a built-in bot");
        let given: Vec<&str> =
            params.split(',').filter(|p| !p.is_empty()).map(|p| p.split('=').next().unwrap()).collect();
        for p in entry.params.as_ref().expect("built-in") {
            assert!(given.contains(&p.key), "the baseline {} leaves {} at its default: spell it out", b.name, p.key);
        }
        registry.field(b.spec).unwrap_or_else(|e| panic!("{}: {e}", b.spec));
    }
}

#[test]
fn baselines_play_as_frozen() {
    let mut moved = Vec::new();
    for b in &BASELINES {
        let now = eval::fingerprint(b.spec);
        if now != b.fingerprint {
            moved.push(format!("{} (committed {}, now {now})", b.name, b.fingerprint));
        }
    }
    assert!(
        moved.is_empty(),
        "the play of baselines moved: {}. A baseline of mtrain-eval must not change: bump the protocol version (VERSION in src/eval.rs), remeasure the league ratings with scripts/studies/eval-leaderboard.sh, and commit the new fingerprints",
        moved.join(", ")
    );
}

fn quick(bot: &str, threads: &str, name: &str) -> String {
    let dir = temp_path(name);
    let d = dir.to_str().unwrap();
    run_ok(&["eval", "--bot", bot, "--quick", "--threads", threads, "--out", d, "--quiet"]);
    let csv = read(&dir.join("eval.csv"));
    let manifest = read(&dir.join("manifest.json"));
    assert!(manifest.contains("\"protocol\": \"mtrain-eval v1-quick (smoke test, not v1)\""), "{manifest}");
    let _ = std::fs::remove_dir_all(&dir);
    csv
}

fn row<'a>(csv: &'a str, preset: &str, players: &str, baseline: &str) -> Vec<&'a str> {
    let want = format!(",{preset},{players},{baseline},");
    let line = csv.lines().find(|l| l.contains(&want)).unwrap_or_else(|| panic!("no row {want} in {csv}"));
    // The fields after the baseline's spec (which may be quoted and hold commas).
    let tail = line.rsplitn(9, ',').collect::<Vec<_>>();
    tail.into_iter().rev().collect()
}

#[test]
fn quick_eval_is_reproducible_at_any_thread_count() {
    let one = quick("greedy", "1", "q1");
    let two = quick("greedy", "2", "q2");
    assert_eq!(one, two, "eval.csv differs between 1 and 2 threads");
    assert_eq!(one.lines().count(), 1 + 20 + 5);
    assert!(one.starts_with(eval::CSV_HEADER));
    // greedy against its frozen self: the same deterministic play in both seats, exactly level.
    for (p, n) in Protocol::groups(&QUICK) {
        let r = row(&one, p, &n.to_string(), "greedy");
        assert_eq!(r[r.len() - 6], "0.5000", "{r:?}");
        assert_eq!(r[r.len() - 3..], ["0.0", "0.0", "0.0"], "{r:?}");
    }
    // Stopped by SIGTERM after a checkpoint, then resumed: the same file.
    let dir = temp_path("resumed");
    let d = dir.to_str().unwrap();
    let mut child = bin()
        .args(["eval", "--bot", "greedy", "--quick", "--threads", "1", "--checkpoint", "0.2", "--out", d, "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    // SAFETY: kill(2) on the pid of a child this test started and has not yet waited for.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    if status.code() != Some(0) {
        assert_eq!(status.code(), Some(143), "SIGTERM exits 143");
        assert!(!dir.join("eval.csv").exists(), "a stopped evaluation wrote eval.csv");
        assert!(read(&dir.join("manifest.json")).contains("\"stopped\": \"interrupted\""));
        run_ok(&["eval", "--resume", d, "--quiet"]);
    }
    assert_eq!(read(&dir.join("eval.csv")), one, "the resumed evaluation differs");
    let _ = std::fs::remove_dir_all(&dir);
    // A specific result, committed: greedy against expert at two players under wikipedia.
    let r = row(&one, "wikipedia", "2", "expert");
    assert_eq!(r[r.len() - 8..].join(","), "32,32,0.1250,0.0517,0.2725,-320.7,-477.6,-163.7", "{one}");
}

#[test]
fn a_stochastic_baseline_against_itself_is_level_within_its_interval() {
    let csv = quick("random", "2", "qr");
    for (p, n) in Protocol::groups(&QUICK) {
        let r = row(&csv, p, &n.to_string(), "random");
        let f: Vec<f64> = r[r.len() - 6..].iter().map(|x| x.parse().unwrap()).collect();
        assert!(f[1] <= 0.5 && 0.5 <= f[2], "score interval misses 0.5: {r:?}");
        assert!(f[4] <= 0.0 && 0.0 <= f[5], "Elo interval misses 0: {r:?}");
        assert!(f[3].abs() < 150.0, "{r:?}");
        // Random is not the same bot as its frozen copy's seat draws: the games are not all level.
        assert!(f[0] != 0.5 || f[3] != 0.0, "{r:?}");
    }
}

#[test]
fn bad_input_is_refused_in_one_line() {
    rejects(&["eval", "--bot", "nonsense", "--quick"], &["--bot", "nonsense", "greedy"]);
    rejects(&["eval", "--bot", "greedy", "--threads", "0"], &["--threads"]);
    rejects(&["eval", "--quick"], &["--bot"]);
    rejects(&["eval", "--bot", "greedy,random", "--quick"], &["not one bot"]);
    rejects(&["eval", "--bot", "greedy:ties=sometimes", "--quick"], &["ties"]);
    rejects(&["eval", "--name", "greedy-v1=random", "--bot", "greedy", "--quick"], &["greedy-v1", "frozen baseline"]);
    let out = mtrain(&["eval", "--resume", "/nonexistent/mtrain-eval"]);
    assert_eq!(out.status.code(), Some(2));
}
