//! The golden transcript and JSONL log: any change in play or format shows up as a diff here.
//! Regenerate only with `scripts/update-golden.sh`, and review the diff.

use std::process::Command;

const ARGS: &[&str] =
    &["play", "--players", "4", "--set", "12", "--bots", "greedy,random,greedy,random", "--seed", "7"];

fn run(log: &std::path::Path) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_mtrain")).args(ARGS).arg("--log").arg(log).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn play_seed7_matches_golden_files() {
    let dir = std::env::temp_dir().join(format!("mtrain-golden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("log.jsonl");
    let transcript = run(&log);
    let golden_txt = include_str!("golden/play_seed7.txt");
    let golden_log = include_str!("golden/play_seed7.jsonl");
    assert!(
        String::from_utf8(transcript).unwrap() == golden_txt,
        "transcript differs from tests/golden/play_seed7.txt"
    );
    assert!(std::fs::read_to_string(&log).unwrap() == golden_log, "log differs from tests/golden/play_seed7.jsonl");
    std::fs::remove_dir_all(&dir).unwrap();
}
