//! The files mtrain writes and their documentation agree: every column of every CSV, every
//! metric a CSV names, and every field of manifest.json is described in docs/csv.md, and every
//! column docs/csv.md lists is written.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn docs() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/csv.md")).unwrap()
}

/// The text of the docs section whose `###` heading starts with `file` (the first one after
/// `after`, a `##` heading).
fn section<'a>(docs: &'a str, after: &str, file: &str) -> &'a str {
    let start = docs.find(after).unwrap_or_else(|| panic!("no section {after}"));
    let rest = &docs[start..];
    let head = format!("### {file}");
    let i = rest.find(&head).unwrap_or_else(|| panic!("no section {head} after {after}"));
    let body = &rest[i + head.len()..];
    &body[..body.find("\n### ").or_else(|| body.find("\n## ")).unwrap_or(body.len())]
}

/// A name with its numbers as `K` (`rank3_lo` → `rankK_lo`, `scoreN-1` → `scoreK`).
fn pattern(name: &str) -> String {
    let name = name.replace("N-1", "K");
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_digit() {
            if !out.ends_with('K') {
                out.push('K');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Backticked names in the first cell of the section's table rows: (every table, the first
/// table only).
fn documented(section: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut all = BTreeSet::new();
    let mut first = BTreeSet::new();
    let mut table = 0;
    let mut in_table = false;
    for line in section.lines() {
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        if !in_table {
            in_table = true;
            table += 1;
        }
        let cell = line.split('|').nth(1).unwrap_or("");
        for (i, piece) in cell.split('`').enumerate() {
            if i % 2 == 1 && !piece.contains(' ') {
                all.insert(pattern(piece));
                if table == 1 {
                    first.insert(pattern(piece));
                }
            }
        }
    }
    (all, first)
}

/// Whether a written column (or metric) is documented: by name, or as a documented name with
/// `_lo`/`_hi` where the section documents those suffixes.
fn known(col: &str, all: &BTreeSet<String>) -> bool {
    let p = pattern(col);
    all.contains(&p)
        || ["_lo", "_hi"].iter().any(|s| p.strip_suffix(s).is_some_and(|stem| all.contains(stem) && all.contains(*s)))
}

fn check_csv(dir: &Path, docs: &str, after: &str, file: &str, metric_column: Option<&str>) {
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = rows.headers().unwrap().iter().map(str::to_string).collect();
    let (all, first) = documented(section(docs, after, file));
    for col in &header {
        assert!(known(col, &all), "{file}: column '{col}' is not in docs/csv.md");
    }
    let written: BTreeSet<String> = header.iter().map(|c| pattern(c)).collect();
    for doc in &first {
        let shown = written.contains(doc) || written.iter().any(|w| w.starts_with(doc.as_str()));
        assert!(shown || doc.starts_with('_'), "{file}: docs/csv.md lists '{doc}', which is not written");
    }
    if let Some(m) = metric_column {
        let k = header.iter().position(|c| c == m).unwrap();
        for r in rows.records() {
            let r = r.unwrap();
            assert!(known(&r[k], &all), "{file}: metric '{}' is not in docs/csv.md", &r[k]);
        }
    }
}

fn check_manifest(dir: &Path, docs: &str, sections: &[(&str, &str)]) {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let mut all = BTreeSet::new();
    for (after, file) in sections {
        all.extend(documented(section(docs, after, file)).0);
    }
    for key in v.as_object().unwrap().keys() {
        assert!(all.contains(&pattern(key)), "manifest.json field '{key}' is not in docs/csv.md");
    }
}

#[test]
fn every_file_matches_its_documentation() {
    let dir = std::env::temp_dir().join(format!("mtrain-schemas-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (t, b) = (dir.join("t"), dir.join("b"));
    let run = |args: &[&str], out: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_mtrain")).args(args).arg("--out").arg(out).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&["tournament", "--games", "200", "--per-game", "--quiet", "--bots", "greedy,random,planner"], &t);
    run(&["balance", "--players", "2-3", "--hands", "7-8", "--games", "100", "--quiet"], &b);
    let docs = docs();
    let tour = "## mtrain tournament";
    for f in ["summary.csv", "seats.csv", "pairs.csv", "ratings.csv", "games.csv", "rounds.csv"] {
        check_csv(&t, &docs, tour, f, None);
    }
    check_csv(&t, &docs, tour, "round_stats.csv", Some("metric"));
    let bal = "## mtrain balance";
    check_csv(&b, &docs, bal, "balance.csv", Some("metric"));
    check_csv(&b, &docs, bal, "recommendation.csv", None);
    check_manifest(&t, &docs, &[(tour, "manifest.json")]);
    check_manifest(&b, &docs, &[(tour, "manifest.json"), (bal, "manifest.json")]);
    std::fs::remove_dir_all(&dir).unwrap();
}
