//! The rules lab against the command line: the `compare.csv` and `summary.txt` the `mtrain
//! compare` binary writes are byte for byte the lab's for the same options.
//!
//! The binary is the one built beside this test (`cargo build --release --bin mtrain` for
//! `cargo test -p mtrain-web --release`), or `MTRAIN` where set.

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;

fn mtrain() -> PathBuf {
    if let Some(p) = std::env::var_os("MTRAIN") {
        return PathBuf::from(p);
    }
    // target/<profile>/deps/<this test> -> target/<profile>/mtrain
    let exe = std::env::current_exe().expect("the test's path");
    let bin = exe.parent().and_then(|d| d.parent()).expect("target/<profile>").join("mtrain");
    assert!(
        bin.is_file(),
        "this test runs the mtrain binary, not found at {}: build it first (cargo build --release --bin mtrain) or set MTRAIN",
        bin.display()
    );
    bin
}

fn ask(request: Value) -> Value {
    serde_json::from_str(&mtrain_web::handle(&request.to_string())).unwrap()
}

#[test]
fn the_labs_files_are_the_command_lines() {
    let mut a = ask(json!({"op": "compare_start", "lab": {
        "rulesets": ["wikipedia", "wikipedia:tap=draw_two"], "players": 4, "hands": "14-15",
        "games": 50, "seed": "0x51", "rounds": 3}}));
    assert_eq!(a["ok"], true, "{a}");
    let command = a["about"]["command"].as_str().unwrap().to_string();
    assert_eq!(
        command,
        "mtrain compare --ruleset wikipedia --ruleset wikipedia:tap=draw_two --players 4 --hands 14-15 --games 50 --rounds 3 --seed 81"
    );
    while a["finished"] != true {
        a = ask(json!({"op": "compare_step", "games": 40}));
        assert_eq!(a["ok"], true, "{a}");
    }
    let dir = std::env::temp_dir().join(format!("mtrain-web-cli-compare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // The lab's command line, as given (its words need no quotes), with a folder for the files.
    let words: Vec<&str> = command.split(' ').skip(1).collect();
    let o = Command::new(mtrain()).args(&words).args(["--quiet", "--out"]).arg(&dir).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let r = &a["result"];
    assert_eq!(r["compare_csv"].as_str().unwrap(), read("compare.csv"));
    assert_eq!(r["rulesets_csv"].as_str().unwrap(), read("rulesets.csv"));
    assert_eq!(r["summary"].as_str().unwrap(), read("summary.txt"));
    std::fs::remove_dir_all(&dir).unwrap();
}
