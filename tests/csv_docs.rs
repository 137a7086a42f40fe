//! docs/csv.md's sample lines are what the commands it names write: each sample line matches a
//! line of the file, in order, the header first (`...` stands for cut text or left-out rows).
//! `scripts/regen/csv-samples.py` regenerates them.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether `line` is what `sample` shows: equal, or, where the sample has `...`, the pieces
/// around each `...` found in order (the first at the start, the last at the end).
fn shows(sample: &str, line: &str) -> bool {
    let parts: Vec<&str> = sample.split("...").collect();
    if parts.len() == 1 {
        return sample == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || !line[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    true
}

/// The `mtrain ...` commands of the opening sh block: (subcommand, arguments, output folder).
fn commands(doc: &str) -> Vec<(String, Vec<String>, String)> {
    let block = doc.split("```sh\n").nth(1).expect("an sh block").split("```").next().unwrap();
    block
        .lines()
        .filter_map(|l| {
            let words: Vec<String> = l.split('#').next().unwrap().split_whitespace().map(str::to_string).collect();
            (words.first().map(String::as_str) == Some("mtrain")).then_some(words)
        })
        .map(|w| {
            let out = w[w.iter().position(|x| x == "--out").expect("--out") + 1].clone();
            (w[1].clone(), w[1..].to_vec(), out)
        })
        .collect()
}

#[test]
fn csv_md_samples_are_what_the_named_commands_write() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/csv.md")).unwrap();
    let work = std::env::temp_dir().join(format!("mtrain-csv-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let mut folders: Vec<(String, PathBuf)> = Vec::new();
    for (sub, args, out) in commands(&doc) {
        let run = Command::new(env!("CARGO_BIN_EXE_mtrain")).args(&args).arg("--quiet").current_dir(&work).output();
        let run = run.unwrap();
        assert!(run.status.success(), "{args:?}: {}", String::from_utf8_lossy(&run.stderr));
        folders.push((sub, work.join(out)));
    }
    assert_eq!(folders.len(), 4, "tournament, balance, tune and compare");
    let (mut section, mut heading, mut checked) = (None::<PathBuf>, None::<String>, 0);
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(sub) = line.strip_prefix("## mtrain ") {
            section = folders.iter().find(|(s, _)| s == sub.trim()).map(|(_, d)| d.clone());
        }
        if let Some(h) = line.strip_prefix("### ") {
            heading = h
                .split_whitespace()
                .next()
                .map(|f| f.trim_end_matches(':'))
                .filter(|f| f.ends_with(".csv"))
                .map(str::to_string);
        }
        if line != "```text" {
            continue;
        }
        let (Some(dir), Some(file)) = (&section, heading.take()) else { continue };
        let text = std::fs::read_to_string(dir.join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let real: Vec<&str> = text.lines().collect();
        let mut at = 0;
        for (k, sample) in lines.by_ref().take_while(|l| *l != "```").enumerate() {
            if sample == "..." {
                continue;
            }
            let found = real[at..].iter().position(|r| shows(sample, r));
            assert!(
                found.is_some(),
                "docs/csv.md, {file}: '{sample}' is not a line the command writes (from line {at})"
            );
            if k == 0 {
                assert_eq!(found, Some(0), "{file}: the sample starts with the header");
            }
            at += found.unwrap() + 1;
            checked += 1;
        }
    }
    // summary, seats, pairs, ratings, round_stats, games, rounds, balance, recommendation,
    // trajectory, compare, rulesets
    assert!(checked >= 27, "only {checked} sample lines checked");
    std::fs::remove_dir_all(&work).unwrap();
}

#[test]
fn a_sample_with_cut_text_matches_only_its_line() {
    assert!(shows("a,b,...", "a,b,c,d"));
    assert!(shows("a,...,d", "a,b,c,d"));
    assert!(shows("a,...,c,...,e", "a,b,c,d,e"));
    assert!(!shows("a,...,x", "a,b,c,d"));
    assert!(!shows("b,...", "a,b,c"));
    assert!(!shows("a,b", "a,b,c"));
}
