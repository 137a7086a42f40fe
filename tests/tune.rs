//! `mtrain tune` as a user runs it: a whole run writes its trajectory, plot, tuned spec and
//! confirmation, reproducibly at any thread count; an interrupted run resumes to the same
//! files; bad ranges and unknown parameters get one line and exit code 2.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

mod common;
use common::{bin, mtrain, read, rejects, temp_path};

const TUNE: [&str; 13] = [
    "tune",
    "--players",
    "2",
    "--rounds",
    "2",
    "--bot",
    "weighted",
    "--param",
    "pips=0:3",
    "--param",
    "follow=-1:2",
    "--seed",
    "5",
];

fn run(out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&str> = TUNE.to_vec();
    args.extend(extra);
    args.extend(["--quiet", "--out", out.to_str().unwrap()]);
    mtrain(&args)
}

#[test]
fn a_run_writes_its_files_the_same_at_any_thread_count() {
    let (a, b) = (temp_path("a"), temp_path("b"));
    let o = run(&a, &["--iterations", "12", "--games", "16", "--threads", "1", "--confirm-games", "200"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("start: weighted\ntuned: weighted:"), "{text}");
    assert!(text.contains("Confirmation on fresh deals, tuned against start:"), "{text}");
    let traj = read(&a.join("trajectory.csv"));
    let lines: Vec<&str> = traj.lines().collect();
    assert_eq!(lines[0], "iteration,c_k,a_k,score,comparisons,pips,follow");
    assert_eq!(lines[1], "0,,,,0,0.462543,1.106573", "the starting point: the bot's defaults");
    assert_eq!(lines.len(), 14);
    let tuned = read(&a.join("tuned.txt"));
    assert!(tuned.starts_with("weighted:") && text.contains(tuned.trim()));
    let confirm = read(&a.join("confirm.csv"));
    assert!(confirm.starts_with("tuned,start,games,comparisons,score"));
    assert!(read(&a.join("trajectory.svg")).contains("<svg"));
    let o = run(&b, &["--iterations", "12", "--games", "16", "--threads", "2", "--confirm-games", "200"]);
    assert_eq!(o.status.code(), Some(0));
    for f in ["trajectory.csv", "tuned.txt", "confirm.csv", "trajectory.svg"] {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{f}");
    }
    std::fs::remove_dir_all(&a).unwrap();
    std::fs::remove_dir_all(&b).unwrap();
}

/// SIGTERM once a few iterations are saved (watching trajectory.csv, so the signal lands while
/// the run is surely going on), then `--resume`: the files of an uninterrupted run.
#[test]
fn an_interrupted_run_resumes_to_the_same_files() {
    let (whole, cut) = (temp_path("whole"), temp_path("cut"));
    let extra = ["--iterations", "200", "--games", "64", "--threads", "1", "--confirm-games", "100"];
    assert_eq!(run(&whole, &extra).status.code(), Some(0));
    let mut args: Vec<&str> = TUNE.to_vec();
    args.extend(extra);
    args.extend(["--quiet", "--out", cut.to_str().unwrap()]);
    let mut child = bin().args(&args).stdout(std::process::Stdio::null()).spawn().unwrap();
    let rows = || std::fs::read_to_string(cut.join("trajectory.csv")).map_or(0, |t| t.lines().count());
    while rows() < 6 && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(2));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143), "the run finished before the signal");
    let done = rows();
    assert!((6..202).contains(&done), "{done} rows after SIGTERM");
    assert!(!cut.join("tuned.txt").exists(), "an interrupted run has no tuned spec yet");
    // What SIGKILL in the middle of a save leaves: the resume clears it.
    std::fs::write(cut.join("tune.json.99999.tmp"), "{").unwrap();
    let o = mtrain(&["tune", "--resume", cut.to_str().unwrap(), "--quiet"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let leftovers: Vec<_> = std::fs::read_dir(&cut)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    for f in ["trajectory.csv", "tuned.txt", "confirm.csv"] {
        assert_eq!(read(&cut.join(f)), read(&whole.join(f)), "{f}");
    }
    let o = mtrain(&["tune", "--resume", cut.to_str().unwrap(), "--seed", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume takes every setting"));
    std::fs::remove_dir_all(&whole).unwrap();
    std::fs::remove_dir_all(&cut).unwrap();
}

#[test]
fn bad_ranges_and_parameters_get_one_line_and_exit_2() {
    let dir = temp_path("bad");
    let out = dir.to_str().unwrap();
    let t = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["tune", "--out", out].iter().map(|s| s.to_string()).collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let check = |extra: &[&str], needle: &str| {
        let v = t(extra);
        rejects(&v.iter().map(String::as_str).collect::<Vec<_>>(), &[needle]);
    };
    check(
        &["--bot", "weighted", "--param", "colour=0:1"],
        "weighted has no parameter 'colour' (valid: set, pips, urgent",
    );
    check(&["--bot", "weighted", "--param", "pips=3:1"], "the range is empty");
    check(&["--bot", "weighted", "--param", "pips=zero:1"], "expected key=lo:hi");
    check(&["--bot", "weighted", "--param", "pips"], "expected key=lo:hi");
    check(&["--bot", "weighted", "--param", "pips=2:3"], "the starting value 0.462543 lies outside the range 2:3");
    // Under celko1998 `weighted` plays the set tuned there: a weight starts from that set's.
    check(
        &["--rules", "celko1998", "--bot", "weighted", "--param", "pips=2:3"],
        "the starting value 1.592327 lies outside the range 2:3",
    );
    check(
        &["--rules", "celko1998", "--bot", "weighted:set=hand", "--param", "pips=2:3"],
        "the starting value 1 lies outside the range 2:3",
    );
    check(&["--bot", "weighted", "--param", "pips=0:5000"], "the range end 5000 is not a valid value");
    check(&["--bot", "weighted", "--param", "pips=0:2", "--param", "pips=0:1"], "--param pips is given twice");
    check(&["--bot", "montecarlo", "--param", "rollout=0:1"], "'rollout' is not a number (greedy)");
    check(&["--bot", "greedy", "--param", "x=0:1"], "greedy has no parameter 'x'");
    check(&["--bot", "alien", "--param", "x=0:1"], "unknown bot 'alien'");
    check(&["--param", "pips=0:1"], "give the bot to tune with --bot BOT");
    check(&["--bot", "weighted"], "give at least one parameter to tune");
    check(&["--bot", "weighted", "--param", "pips=0:2", "--iterations", "0"], "--iterations");
    check(&["--bot", "weighted", "--param", "pips=0:2", "--perturbation", "0.9"], "at most 0.5");
    rejects(&["tune", "--bot", "weighted", "--param", "pips=0:2"], &["give an output folder with --out DIR"]);
    assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().count() == 0, "a refused run left files");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tune.json` holds the run as data (its spec and bots), which a resume rebuilds it from; a
/// file of another format, or one edited by hand, is refused with one line.
#[test]
fn the_state_is_the_run_as_data_and_another_format_is_refused() {
    let dir = temp_path("data");
    let o = run(&dir, &["--iterations", "3", "--games", "8", "--threads", "1", "--confirm-games", "50"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let text = read(&dir.join("tune.json"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!((v["format"].clone(), v["kind"].clone()), (serde_json::json!(3), serde_json::json!("tune")));
    assert_eq!(v["spec"]["bot"], "weighted");
    assert_eq!(v["spec"]["params"], serde_json::json!(["pips=0:3", "follow=-1:2"]));
    assert_eq!(v["spec"]["table"]["players"], 2);
    assert_eq!(v["spec"]["table"]["rounds"], 2);
    assert_eq!(v["bots"]["ext"], serde_json::json!([]));
    assert!(v.get("args").is_none(), "no command line to re-parse");
    // An edited score: refused, not trusted.
    let edited = text.replacen("\"score\": ", "\"score\": 1", 1);
    assert_ne!(edited, text);
    std::fs::write(dir.join("tune.json"), edited).unwrap();
    rejects(&["tune", "--resume", dir.to_str().unwrap()], &["tune.json was changed after mtrain wrote it"]);
    std::fs::write(dir.join("tune.json"), text.replacen("\"format\": 3", "\"format\": 1", 1)).unwrap();
    let o = mtrain(&["tune", "--resume", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("format 1; this one reads 3") && err.lines().count() == 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A state file holds floats (the parameters, the trajectory): each must read back as the exact
/// value written, or the state's self-check refuses its own file. The committed study run, whose
/// floats once read back a unit off, resumes (complete: it only reports) without a change.
#[test]
fn a_state_with_many_floats_reads_back_exactly() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/tuning/runs/tune-wikipedia");
    let dir = temp_path("floats");
    std::fs::create_dir_all(&dir).unwrap();
    for f in std::fs::read_dir(&src).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    let o = mtrain(&["tune", "--resume", dir.to_str().unwrap(), "--quiet", "--threads", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read(&dir.join("tune.json")), read(&src.join("tune.json")));
}
