//! Long runs survive what shared machines and clusters do to them: SIGKILL and SIGTERM at any
//! moment, two SIGINTs in a row, files damaged or deleted between a stop and a resume, output
//! folders that hold something else.
#![cfg(unix)]

mod common;
use common::{bin, mtrain, read, temp};
use mexican_train::tournament::{ChunkSet, RunState};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

fn s(p: &Path) -> String {
    p.display().to_string()
}

const RESULTS: &[&str] = &["summary.csv", "seats.csv", "pairs.csv", "ratings.csv", "round_stats.csv"];
const PER_GAME: &[&str] = &["games.csv", "rounds.csv"];

/// The tournament every test here plays: a few seconds in the test build.
fn args(out: &str, per_game: bool) -> Vec<&str> {
    let mut a = vec!["tournament", "--bots", "greedy,random,planner", "--games", "50000", "--seed", "5", "--quiet"];
    a.extend(["--checkpoint", "0.3", "--out", out]);
    if per_game {
        a.push("--per-game");
    }
    a
}

fn spawn(args: &[&str]) -> Child {
    bin().args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: kill(2) on the pid of a child this test started and has not yet waited for.
    unsafe {
        libc::kill(child.id() as libc::pid_t, sig);
    }
}

/// Milliseconds from a fixed-seed generator: "random moments" that replay.
fn moments(seed: u64, n: usize, lo: u64, hi: u64) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            lo + x % (hi - lo)
        })
        .collect()
}

fn same_files(a: &Path, b: &Path, per_game: bool) {
    let names = RESULTS.iter().chain(if per_game { PER_GAME } else { &[] });
    for f in names {
        assert!(read(&a.join(f)) == read(&b.join(f)), "{f} differs between {} and {}", a.display(), b.display());
    }
    let leftovers: Vec<String> = std::fs::read_dir(a)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left in {}: {leftovers:?}", a.display());
}

#[test]
fn killed_and_terminated_runs_resume_to_the_uninterrupted_files() {
    let dir = temp("kill");
    let mut stopped = 0;
    for per_game in [false, true] {
        let reference = dir.join(format!("reference-{per_game}"));
        let r = s(&reference);
        assert_eq!(mtrain(&args(&r, per_game)).status.code(), Some(0));
        for (i, (sig, wait)) in [libc::SIGKILL, libc::SIGTERM, libc::SIGKILL, libc::SIGTERM]
            .into_iter()
            .zip(moments(7 + u64::from(per_game), 4, 150, 3000))
            .enumerate()
        {
            let out = dir.join(format!("run-{per_game}-{i}"));
            let o = s(&out);
            let mut child = spawn(&args(&o, per_game));
            std::thread::sleep(Duration::from_millis(wait));
            signal(&child, sig);
            let status = child.wait().unwrap();
            let finished = status.code() == Some(0);
            if sig == libc::SIGTERM && !finished {
                assert_eq!(status.code(), Some(143), "SIGTERM exits 143");
                let m = read(&out.join("manifest.json"));
                assert!(m.contains("\"stopped\": \"interrupted\""), "{m}");
            }
            if !finished {
                stopped += 1;
                // Killed again while resuming, then left to finish.
                let mut again = spawn(&["tournament", "--resume", &o, "--quiet"]);
                std::thread::sleep(Duration::from_millis(wait / 2));
                signal(&again, libc::SIGKILL);
                let _ = again.wait();
                let r = mtrain(&["tournament", "--resume", &o, "--quiet"]);
                assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
            }
            same_files(&out, &reference, per_game);
        }
    }
    assert!(stopped >= 6, "only {stopped} of 8 runs were stopped before they finished");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_interrupts_in_a_row_still_save() {
    let dir = temp("int2");
    let (a, b) = (dir.join("a"), dir.join("b"));
    let o = s(&a);
    let mut child = spawn(&args(&o, true));
    std::thread::sleep(Duration::from_millis(900));
    signal(&child, libc::SIGINT);
    signal(&child, libc::SIGINT);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let r = mtrain(&["tournament", "--resume", &o, "--quiet"]);
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(mtrain(&args(&s(&b), true)).status.code(), Some(0));
    same_files(&a, &b, true);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Expects exit code 2 and one line holding `needle`.
fn refused(args: &[&str], needle: &str) {
    let r = mtrain(args);
    let err = String::from_utf8(r.stderr).unwrap();
    assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
}

/// A stopped per-game run in `dir`, as after SIGTERM.
fn stopped_run(dir: &Path) {
    let o = s(dir);
    let mut child = spawn(&args(&o, true));
    std::thread::sleep(Duration::from_millis(900));
    signal(&child, libc::SIGTERM);
    assert_eq!(child.wait().unwrap().code(), Some(143));
}

#[test]
fn damaged_edited_or_foreign_state_is_refused_with_one_line() {
    let dir = temp("damage");
    let run = dir.join("run");
    stopped_run(&run);
    let r = s(&run);
    let tally = read(&run.join("tally.json"));
    let resume = ["tournament", "--resume", r.as_str(), "--quiet"];
    // Edited by hand: `done` claims every chunk (the check no longer matches).
    let mut v: serde_json::Value = serde_json::from_str(&tally).unwrap();
    v["done"] = serde_json::json!([[0, v["chunks_total"]]]);
    std::fs::write(run.join("tally.json"), serde_json::to_string_pretty(&v).unwrap()).unwrap();
    refused(&resume, "tally.json was changed after mtrain wrote it");
    // The same edit with a matching check (a forgery): the counts give it away.
    let mut st: RunState = serde_json::from_str(&tally).unwrap();
    st.done = ChunkSet(vec![(0, st.chunks_total)]);
    std::fs::write(run.join("tally.json"), st.to_json()).unwrap();
    refused(&resume, "but the chunks it lists hold");
    // Truncated.
    std::fs::write(run.join("tally.json"), &tally[..tally.len() / 2]).unwrap();
    refused(&resume, "not a valid tally.json");
    // Another run's tally.json: its arguments describe another tournament, whose files these
    // are not.
    let other = dir.join("other");
    let o = s(&other);
    assert_eq!(mtrain(&["tournament", "--games", "100", "--quiet", "--out", &o]).status.code(), Some(0));
    std::fs::copy(other.join("tally.json"), run.join("tally.json")).unwrap();
    refused(&resume, "records no per-game files, but the folder has games.csv");
    std::fs::write(run.join("tally.json"), &tally).unwrap();
    // Per-game rows lost: truncated, then deleted.
    let games = read(&run.join("games.csv"));
    let cut = games.len() / 3;
    std::fs::write(run.join("games.csv"), &games[..cut]).unwrap();
    refused(&resume, &format!("games.csv has {cut} bytes, fewer than"));
    std::fs::remove_file(run.join("games.csv")).unwrap();
    refused(&resume, "games.csv is missing");
    // Rows changed in place.
    std::fs::write(run.join("games.csv"), games.replacen(",greedy,", ",random,", 1)).unwrap();
    refused(&resume, "games.csv was changed since its last checkpoint");
    // Restored: it resumes.
    std::fs::write(run.join("games.csv"), &games).unwrap();
    let r2 = mtrain(&resume);
    assert_eq!(r2.status.code(), Some(0), "{}", String::from_utf8_lossy(&r2.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_folders_are_never_mixed_or_overwritten_by_accident() {
    let dir = temp("safe");
    let run = dir.join("run");
    let r = s(&run);
    let small = |out: &str, extra: &[&str]| {
        let mut a = vec!["tournament", "--games", "200", "--quiet", "--out", out];
        a.extend_from_slice(extra);
        mtrain(&a)
    };
    assert_eq!(small(&r, &[]).status.code(), Some(0));
    // The same run again: allowed (it starts afresh and writes the same files).
    assert_eq!(small(&r, &[]).status.code(), Some(0));
    // Another run into it: refused, unless --force.
    refused(&["tournament", "--games", "300", "--quiet", "--out", &r], "is not empty: it holds another tournament (");
    assert_eq!(small(&r, &["--seed", "9", "--force"]).status.code(), Some(0));
    // A folder of other files: refused; --force leaves the other files alone.
    let mine = dir.join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep me").unwrap();
    let m = s(&mine);
    refused(&["tournament", "--games", "200", "--quiet", "--out", &m], "holds other files (notes.txt)");
    assert_eq!(small(&m, &["--force"]).status.code(), Some(0));
    assert_eq!(read(&mine.join("notes.txt")), "keep me");
    // balance into a tournament folder: refused.
    refused(
        &["balance", "--players", "2-2", "--hands", "7-7", "--games", "50", "--quiet", "--out", &r],
        "is not empty: it holds a tournament's files",
    );
    // merge into one of its inputs: refused.
    let (s1, s2) = (dir.join("s1"), dir.join("s2"));
    for (i, d) in [(1, &s1), (2, &s2)] {
        let shard = format!("{i}/2");
        let extra: &[&str] = if i == 1 { &["--per-game"] } else { &[] };
        let mut a = vec!["tournament", "--games", "400", "--quiet", "--shard", &shard];
        let ds = s(d);
        a.extend(["--out", &ds]);
        a.extend_from_slice(extra);
        assert_eq!(mtrain(&a).status.code(), Some(0));
    }
    let (a1, a2) = (s(&s1), s(&s2));
    refused(&["merge", &a1, &a2, "--out", &a1], "is one of the folders to merge");
    // Shards of which only some have per-game files: refused.
    let merged = s(&dir.join("merged"));
    refused(&["merge", &a1, &a2, "--out", &merged], "some shards have per-game files");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merged_per_game_files_equal_one_run() {
    let dir = temp("merge");
    let whole = dir.join("whole");
    let w = s(&whole);
    let base = ["tournament", "--games", "3000", "--quiet", "--per-game"];
    let mut a = base.to_vec();
    a.extend(["--out", &w]);
    assert_eq!(mtrain(&a).status.code(), Some(0));
    let shards: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("shard{i}"))).collect();
    for (i, d) in shards.iter().enumerate() {
        let shard = format!("{}/3", i + 1);
        let ds = s(d);
        let mut a = base.to_vec();
        a.extend(["--shard", &shard, "--out", &ds]);
        assert_eq!(mtrain(&a).status.code(), Some(0));
    }
    let merged = dir.join("merged");
    let m = s(&merged);
    // Given in any order.
    let names: Vec<String> = [2, 0, 1].iter().map(|&i| s(&shards[i])).collect();
    let mut a = vec!["merge"];
    a.extend(names.iter().map(String::as_str));
    a.extend(["--out", &m]);
    let r = mtrain(&a);
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    same_files(&merged, &whole, true);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The sweep the balance tests play: a few seconds in the test build. Sequential sampling
/// (first looks of 2,000 games, up to 6,000) unless `extra` says otherwise; a population whose
/// skill figure sits near its floor at 4 players, so that some cells sample on.
fn sweep<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec!["balance", "--players", "2-4", "--hands", "7-9", "--bots", "planner,cutthroat,greedy", "--quiet"];
    if !extra.contains(&"--games") {
        a.extend(["--games", "2000", "--max-games", "6000"]);
    }
    a.extend(["--checkpoint", "0.3", "--out", out]);
    a.extend_from_slice(extra);
    a
}

const SWEEP_FILES: &[&str] = &["balance.csv", "recommendation.csv", "decisions.csv", "skill.svg", "blocked_rate.svg"];

#[test]
fn a_balance_sweep_survives_kill_term_and_shards() {
    let dir = temp("balance");
    let reference = dir.join("reference");
    let r = s(&reference);
    let whole = mtrain(&sweep(&r, &[]));
    assert_eq!(whole.status.code(), Some(0));
    let mut stopped = 0;
    for (i, (sig, wait)) in [libc::SIGKILL, libc::SIGTERM].into_iter().zip(moments(3, 2, 300, 2000)).enumerate() {
        let out = dir.join(format!("run{i}"));
        let o = s(&out);
        let mut child = spawn(&sweep(&o, &[]));
        std::thread::sleep(Duration::from_millis(wait));
        signal(&child, sig);
        let status = child.wait().unwrap();
        if status.code() != Some(0) {
            stopped += 1;
            if sig == libc::SIGTERM {
                assert_eq!(status.code(), Some(143));
            }
            let r = mtrain(&["balance", "--resume", &o, "--quiet"]);
            assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
            assert_eq!(r.stdout, whole.stdout, "the resumed sweep prints what the whole one did");
        }
        for f in SWEEP_FILES {
            assert!(read(&out.join(f)) == read(&reference.join(f)), "{f} differs after signal {sig}");
        }
    }
    assert!(stopped >= 1, "no sweep was stopped before it finished");
    // Sequential sampling played some cells past their first look, none past the cap.
    let decisions = read(&reference.join("decisions.csv"));
    let games: Vec<u64> = decisions.lines().skip(1).map(|l| l.split(',').nth(2).unwrap().parse().unwrap()).collect();
    assert!(games.iter().any(|&g| g > 2100) && games.iter().all(|&g| g <= 6100), "{decisions}");
    // Three shards of a fixed sample, merged in any order, give the whole sweep's files.
    let fixed = ["--games", "6000", "--max-games", "6000"];
    let reference = dir.join("fixed");
    assert_eq!(mtrain(&sweep(&s(&reference), &fixed)).status.code(), Some(0));
    let shards: Vec<String> = (1..=3).map(|i| s(&dir.join(format!("shard{i}")))).collect();
    for (i, d) in shards.iter().enumerate() {
        let sh = format!("{}/3", i + 1);
        let mut extra = fixed.to_vec();
        extra.extend(["--shard", sh.as_str()]);
        assert_eq!(mtrain(&sweep(d, &extra)).status.code(), Some(0));
        assert!(!Path::new(d).join("balance.csv").exists(), "a shard alone writes no results");
    }
    // Sequential sampling cannot be split into shards.
    refused(&sweep(&s(&dir.join("seq-shard")), &["--shard", "1/3"]), "--shard splits a fixed sample");
    refused(&["merge", &shards[0], &shards[1], "--out", &shards[1]], "is one of the folders to merge");
    let merged = dir.join("merged");
    let m = s(&merged);
    let r = mtrain(&["merge", &shards[2], &shards[0], &shards[1], "--out", &m]);
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    for f in SWEEP_FILES {
        assert!(read(&merged.join(f)) == read(&reference.join(f)), "merged {f} differs");
    }
    // A sweep's state is not a tournament's, and an edited one is refused.
    refused(
        &["tournament", "--resume", &s(&reference)],
        "holds a balance sweep, not a tournament (continue it with mtrain balance --resume)",
    );
    let tally = read(&reference.join("tally.json"));
    std::fs::write(reference.join("tally.json"), tally.replacen("\"games\": ", "\"games\": 1", 1)).unwrap();
    refused(&["balance", "--resume", &s(&reference)], "tally.json was changed after mtrain wrote it");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The files of a folder, by name.
fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().into_string().unwrap(), std::fs::read(e.path()).unwrap())
        })
        .collect();
    v.sort();
    v
}

#[test]
fn game_logs_resume_to_the_uninterrupted_logs() {
    let dir = temp("logs");
    let log_args = |out: &Path, logs: &Path| -> Vec<String> {
        ["tournament", "--players", "2", "--games", "1600", "--quiet", "--checkpoint", "0.1", "--out"]
            .iter()
            .map(|s| s.to_string())
            .chain([s(out), "--log-games".into(), s(logs)])
            .collect()
    };
    let (ref_out, ref_logs) = (dir.join("ref"), dir.join("ref-logs"));
    let started = std::time::Instant::now();
    let a = log_args(&ref_out, &ref_logs);
    assert_eq!(bin().args(&a).output().unwrap().status.code(), Some(0));
    let took = started.elapsed();
    let (out, logs) = (dir.join("run"), dir.join("run-logs"));
    let a = log_args(&out, &logs);
    let mut child = bin().args(&a).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    // Killed once its first checkpoint is on disk (or at half the reference run's time): a
    // loaded machine slows one run more than the other, so the clock alone can miss the run.
    let deadline = started.elapsed() + took / 2;
    while !out.join("tally.json").is_file() && started.elapsed() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    signal(&child, libc::SIGKILL);
    let status = child.wait().unwrap();
    assert_ne!(status.code(), Some(0), "the run finished before it was killed");
    let o = s(&out);
    let r = mtrain(&["tournament", "--resume", &o, "--quiet"]);
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    let (x, y) = (files_of(&logs), files_of(&ref_logs));
    assert_eq!(x.len(), y.len(), "log files differ in number");
    for ((na, a), (nb, b)) in x.iter().zip(&y) {
        assert_eq!(na, nb);
        assert!(a == b, "{na} differs from the uninterrupted run's");
    }
    // Each file is a run of whole matches, numbered in order.
    let first = String::from_utf8(x[0].1.clone()).unwrap();
    assert!(first.starts_with("{\"event\":\"match\",\"game\":0,"), "{}", &first[..80]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Links planted in a run's folder are replaced, never written through: with `--force`, on
/// `--resume`, for the per-game files and the game logs; a state file that is a link is not
/// read (a link to /dev/zero would be read forever); `report` refuses a linked CSV.
#[test]
fn links_planted_in_a_run_folder_are_never_followed() {
    use std::os::unix::fs::symlink;
    let dir = temp("links");
    let outside = dir.join("outside.txt");
    std::fs::write(&outside, "the user's own file\n").unwrap();
    let run = dir.join("run");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::create_dir_all(&logs).unwrap();
    let names = ["summary.csv", "ratings.csv", "games.csv", "tally.json", "manifest.json"];
    for name in names {
        symlink(&outside, run.join(name)).unwrap();
    }
    symlink(&outside, logs.join("games-000000.jsonl")).unwrap();
    let o = s(&run);
    let l = s(&logs);
    let small = ["tournament", "--bots", "greedy,random", "--games", "40", "--seed", "3", "--quiet"];
    let mut a = small.to_vec();
    a.extend(["--per-game", "--log-games", &l, "--out", &o, "--force"]);
    let r = mtrain(&a);
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(read(&outside), "the user's own file\n", "a file outside the folder was written");
    for name in names {
        let m = std::fs::symlink_metadata(run.join(name)).unwrap();
        assert!(m.file_type().is_file(), "{name} is not a regular file after the run");
    }
    assert!(std::fs::symlink_metadata(logs.join("games-000000.jsonl")).unwrap().file_type().is_file());
    // On --resume, a result file turned into a link is replaced, not written through.
    std::fs::remove_file(run.join("summary.csv")).unwrap();
    symlink(&outside, run.join("summary.csv")).unwrap();
    let r = mtrain(&["tournament", "--resume", &o, "--quiet"]);
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(read(&outside), "the user's own file\n");
    assert!(std::fs::symlink_metadata(run.join("summary.csv")).unwrap().file_type().is_file());
    // `report` reads no CSV through a link.
    std::fs::remove_file(run.join("ratings.csv")).unwrap();
    symlink(&outside, run.join("ratings.csv")).unwrap();
    let page = s(&dir.join("page.html"));
    refused(&["report", &o, "--out", &page], "symbolic link");
    // A state file that is a link (here to an endless device) is not read: one line, at once.
    std::fs::remove_file(run.join("tally.json")).unwrap();
    symlink("/dev/zero", run.join("tally.json")).unwrap();
    refused(&["tournament", "--resume", &o, "--quiet"], "tally.json");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run killed before its first state file (the manifest and some reports written, no
/// `tally.json`): `--resume` says to run the same command again, and that command starts the
/// run afresh in the same folder; a folder of files mtrain did not write is still refused.
#[test]
fn a_run_killed_before_its_first_checkpoint_is_rerun_by_the_same_command() {
    let dir = temp("first-checkpoint");
    let run = dir.join("run");
    let o = s(&run);
    let cmd = ["tournament", "--bots", "greedy,random", "--games", "200", "--seed", "4", "--quiet", "--out", &o];
    assert_eq!(mtrain(&cmd).status.code(), Some(0));
    let whole = read(&run.join("summary.csv"));
    // What a kill between the manifest and the state leaves (the manifest is written first).
    for f in ["tally.json", "pairs.csv", "ratings.csv"] {
        std::fs::remove_file(run.join(f)).unwrap();
    }
    std::fs::write(run.join("summary.csv.999.tmp"), "half").unwrap();
    refused(&["tournament", "--resume", &o], "run the same command again");
    let r = mtrain(&cmd);
    assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(read(&run.join("summary.csv")), whole);
    assert!(run.join("tally.json").is_file() && !run.join("summary.csv.999.tmp").exists());
    // Without mtrain's manifest the same names are someone else's files: refused.
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("summary.csv"), "mine\n").unwrap();
    let oo = s(&other);
    refused(&["tournament", "--bots", "greedy,random", "--games", "20", "--quiet", "--out", &oo], "is not empty");
    assert_eq!(read(&other.join("summary.csv")), "mine\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A merge killed at any moment leaves a folder the same merge command completes: it writes
/// its manifest first, then the per-game files, the reports and the state, each through a
/// temporary file, so every folder a kill can leave (the write check's file, the manifest and
/// some of the files after it, a half-written temporary file) is recognised as a start of its
/// own, and the rerun writes the files of an uninterrupted merge. Its refusals name no option
/// merge lacks.
#[test]
fn a_merge_killed_at_any_moment_is_completed_by_the_same_command() {
    let dir = temp("merge-killed");
    let shards: Vec<String> = (1..=2).map(|i| s(&dir.join(format!("s{i}")))).collect();
    for (i, d) in shards.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let a = ["tournament", "--bots", "greedy,random", "--games", "96", "--per-game", "--quiet"];
        let r = bin().args(a).args(["--shard", &shard, "--out", d]).output().unwrap();
        assert_eq!(r.status.code(), Some(0), "{}", String::from_utf8_lossy(&r.stderr));
    }
    let merge = |out: &Path| bin().args(["merge", &shards[0], &shards[1], "--out", &s(out)]).output().unwrap();
    let whole = dir.join("whole");
    assert_eq!(merge(&whole).status.code(), Some(0));
    // The order a merge writes its files in.
    let order = [
        "manifest.json",
        "games.csv",
        "rounds.csv",
        "summary.csv",
        "seats.csv",
        "pairs.csv",
        "ratings.csv",
        "round_stats.csv",
    ];
    for k in 0..=order.len() {
        let out = dir.join(format!("killed-{k}"));
        std::fs::create_dir_all(&out).unwrap();
        for f in &order[..k] {
            std::fs::copy(whole.join(f), out.join(f)).unwrap();
        }
        // The file being written when the kill came, and the write check's file.
        let next = order.get(k).copied().unwrap_or("tally.json");
        std::fs::write(out.join(format!("{next}.4242.tmp")), "half").unwrap();
        std::fs::write(out.join(".mtrain-probe-4242"), "").unwrap();
        if k == 1 {
            refused(&["tournament", "--resume", &s(&out)], "run the same command again");
        }
        let r = merge(&out);
        assert_eq!(r.status.code(), Some(0), "killed after {k} files: {}", String::from_utf8_lossy(&r.stderr));
        same_files(&out, &whole, true);
        assert_eq!(read(&out.join("tally.json")), read(&whole.join("tally.json")), "killed after {k} files");
        assert!(!out.join(".mtrain-probe-4242").exists());
    }
    // Files mtrain did not write are never replaced, and the refusal names no --force or
    // --resume, which merge does not have.
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("summary.csv"), "mine\n").unwrap();
    let r = merge(&other);
    let e = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(2), "{e}");
    assert!(e.contains("is not empty: it holds other files (summary.csv)"), "{e}");
    assert!(!e.contains("--force") && !e.contains("--resume"), "{e}");
    assert_eq!(read(&other.join("summary.csv")), "mine\n");
    std::fs::remove_dir_all(&dir).unwrap();
}
