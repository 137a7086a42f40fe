//! The golden transcripts and JSONL logs, one match per preset: any change in play or format
//! shows up as a diff here. Regenerate only with `scripts/regen/update-golden.sh`, and review the diff.

use std::process::Command;

const ARGS: &[&str] =
    &["play", "--players", "4", "--set", "12", "--bots", "greedy,random,greedy,random", "--seed", "7"];

fn check(preset: &str, golden_txt: &str, golden_log: &str) {
    let dir = std::env::temp_dir().join(format!("mtrain-golden-{}-{preset}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("log.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_mtrain"))
        .args(ARGS)
        .args(["--rules", preset, "--log"])
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8(out.stdout).unwrap() == golden_txt, "{preset}: transcript differs from its golden file");
    assert!(std::fs::read_to_string(&log).unwrap() == golden_log, "{preset}: log differs from its golden file");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wikipedia_matches_golden_files() {
    check("wikipedia", include_str!("golden/play_seed7.txt"), include_str!("golden/play_seed7.jsonl"));
}

#[test]
fn celko1998_matches_golden_files() {
    check("celko1998", include_str!("golden/celko1998_seed7.txt"), include_str!("golden/celko1998_seed7.jsonl"));
}

#[test]
fn dominorules_matches_golden_files() {
    check("dominorules", include_str!("golden/dominorules_seed7.txt"), include_str!("golden/dominorules_seed7.jsonl"));
}

#[test]
fn family_house_matches_golden_files() {
    check(
        "family_house",
        include_str!("golden/family_house_seed7.txt"),
        include_str!("golden/family_house_seed7.jsonl"),
    );
}

#[test]
fn harbour_cay_matches_golden_files() {
    check("harbour_cay", include_str!("golden/harbour_cay_seed7.txt"), include_str!("golden/harbour_cay_seed7.jsonl"));
}
