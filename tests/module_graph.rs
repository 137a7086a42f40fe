//! The layering of the crate, held by a test over its module graph.
//!
//! Every `.rs` file under `src/` and `strategies/` is read (comments, string contents and
//! `#[cfg(test)] mod` blocks left out), and every path that names a top-level module is
//! collected: `crate::NAME` (and `crate::{a, b}`), the root re-exports of `lib.rs`
//! (`crate::Strategy` is the module `strategy`), and `super::` chains that climb out of a
//! top-level module. Each file belongs to its top-level module (`strategies/` is the module
//! `strategies`), and each module to a floor of [`FLOORS`]. A module may use its own floor and
//! the floors below; a reference to a higher floor is a *back-up import*, and only those listed
//! in [`ALLOWED`] (each with its reason) may exist.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The floors of the house, lowest first. Every top-level module of `lib.rs` must be listed,
/// and every module listed must exist.
const FLOORS: &[(usize, &[&str])] = &[
    (0, &["error", "rng", "stats", "tile"]),
    (1, &["tile_set", "rules"]),
    (2, &["deal"]),
    (3, &["round", "view", "strategy"]),
    (4, &["game", "net"]),
    (5, &["strategies", "external", "log"]),
    (6, &["analyze", "store"]),
    (7, &["tournament", "balance", "tune", "compare", "eval", "label"]),
    (8, &["report"]),
    (9, &["job"]),
    (10, &["cli"]),
];

/// A back-up import that may exist: (from, to, why).
struct Allowed {
    from: &'static str,
    to: &'static str,
    why: &'static str,
}

/// The back-up imports allowed (none today), at most [`MAX_ALLOWED`].
const ALLOWED: &[Allowed] = &[];

/// The most back-up imports allowed.
const MAX_ALLOWED: usize = 4;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The source with comments and the contents of string and character literals blanked (line
/// breaks kept, so line numbers still hold).
fn strip(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let prev_ident = i > 0 && is_ident(b[i - 1]);
        if b[i..].starts_with(b"//") {
            let end = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let (mut depth, mut j) = (0, i);
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if !prev_ident && (b[i] == b'r' || b[i..].starts_with(b"br")) && {
            let k = i + if b[i] == b'b' { 2 } else { 1 };
            let hashes = b[k..].iter().take_while(|&&c| c == b'#').count();
            b.get(k + hashes) == Some(&b'"')
        } {
            let k = i + if b[i] == b'b' { 2 } else { 1 };
            let hashes = b[k..].iter().take_while(|&&c| c == b'#').count();
            let open = k + hashes + 1;
            let mut close = Vec::from(&b"\""[..]);
            close.extend(std::iter::repeat_n(b'#', hashes));
            let end = (open..b.len()).find(|&j| b[j..].starts_with(&close)).unwrap_or(b.len());
            blank(&mut out, open, end);
            i = end + close.len();
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j.min(b.len()));
            i = j + 1;
        } else if b[i] == b'\'' && !prev_ident {
            // A character literal ('x', '\n', '\u{..}'), or a lifetime ('a), left alone.
            if b.get(i + 1) == Some(&b'\\') {
                let end = (i + 2..b.len()).find(|&j| b[j] == b'\'').unwrap_or(b.len());
                blank(&mut out, i + 1, end);
                i = end + 1;
            } else if let Some(len) = src[i + 1..].chars().next().map(char::len_utf8)
                && b.get(i + 1 + len) == Some(&b'\'')
            {
                blank(&mut out, i + 1, i + 1 + len);
                i += len + 2;
            } else {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `s` with every `#[cfg(test)] mod NAME { ... }` block blanked (on stripped source).
fn without_test_mods(s: &str) -> String {
    let mut out = s.as_bytes().to_vec();
    let mut from = 0;
    while let Some(at) = s[from..].find("#[cfg(test)]").map(|n| from + n) {
        let rest = s[at + "#[cfg(test)]".len()..].trim_start();
        let rest = rest.strip_prefix("pub ").unwrap_or(rest).trim_start();
        from = at + 1;
        let Some(after_mod) = rest.strip_prefix("mod ") else { continue };
        let name_len = after_mod.bytes().take_while(|&c| is_ident(c)).count();
        if !after_mod[name_len..].trim_start().starts_with('{') {
            continue;
        }
        let open = s.len() - after_mod.len() + name_len + after_mod[name_len..].find('{').unwrap();
        let mut depth = 0;
        let mut end = s.len();
        for (j, c) in s[open..].bytes().enumerate() {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        for c in &mut out[at..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end;
    }
    String::from_utf8(out).unwrap()
}

/// The spans of the inline `mod NAME { ... }` blocks of `s` (stripped source).
fn inline_mods(s: &str) -> Vec<std::ops::Range<usize>> {
    let b = s.as_bytes();
    let mut spans = Vec::new();
    for (at, _) in s.match_indices("mod ") {
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let rest = &s[at + 4..];
        let n = rest.bytes().take_while(|&c| is_ident(c)).count();
        if n == 0 || !rest[n..].trim_start().starts_with('{') {
            continue;
        }
        let open = at + 4 + n + rest[n..].find('{').unwrap();
        let mut depth = 0;
        for (j, c) in s[open..].bytes().enumerate() {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        spans.push(open..open + j + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    spans
}

/// The first path segment of each item of a `{...}` group starting at `s` (after the brace).
fn group_heads(s: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let (mut depth, mut expecting) = (0, true);
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'{' {
            depth += 1;
        } else if c == b'}' {
            if depth == 0 {
                break;
            }
            depth -= 1;
        } else if c == b',' && depth == 0 {
            expecting = true;
        } else if depth == 0 && expecting && is_ident(c) {
            let n = b[i..].iter().take_while(|&&c| is_ident(c)).count();
            heads.push(s[i..i + n].to_string());
            expecting = false;
            i += n;
            continue;
        }
        i += 1;
    }
    heads
}

/// The names a path names after `::` at `s`: one segment, or the heads of a group.
fn names_at(s: &str) -> Vec<String> {
    let s = s.trim_start();
    if let Some(g) = s.strip_prefix('{') {
        return group_heads(g);
    }
    let n = s.bytes().take_while(|&c| is_ident(c)).count();
    if n == 0 { Vec::new() } else { vec![s[..n].to_string()] }
}

/// A file's module path: `src/report/html/read.rs` is `[report, html, read]`, `strategies/mod.rs` is
/// `[strategies]`.
fn module_path(rel: &Path) -> Vec<String> {
    let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let mut path: Vec<String> = if parts[0] == "strategies" { vec!["strategies".into()] } else { Vec::new() };
    path.extend(parts[1..].iter().map(|p| p.trim_end_matches(".rs").to_string()));
    if path.last().is_some_and(|l| l == "mod") {
        path.pop();
    }
    path
}

/// One reference from a file to a top-level module.
struct Reference {
    from: String,
    to: String,
    at: String,
}

struct Graph {
    modules: BTreeSet<String>,
    refs: Vec<Reference>,
}

/// Reads the crate's module graph.
fn graph() -> Graph {
    let root = root();
    let lib = strip(&std::fs::read_to_string(root.join("src/lib.rs")).unwrap());
    // Top-level modules, and the root re-exports of lib.rs (name -> module).
    let mut modules = BTreeSet::new();
    let mut reexports: BTreeMap<String, String> = BTreeMap::new();
    for stmt in lib.split(';') {
        let words: Vec<&str> = stmt.split_whitespace().collect();
        if let Some(k) = words.iter().position(|w| *w == "mod")
            && words.len() == k + 2
        {
            modules.insert(words[k + 1].to_string());
        }
        if let Some(at) = stmt.find("pub use ") {
            let path = &stmt[at + "pub use ".len()..];
            let module = path.split("::").next().unwrap().trim().to_string();
            let rest = &path[module.len()..];
            let names = match rest.find('{') {
                Some(b) => rest[b + 1..].split([',', '}']).map(str::trim).filter(|n| !n.is_empty()).collect(),
                None => vec![rest.rsplit("::").next().unwrap().trim()],
            };
            for n in names {
                reexports.insert(n.to_string(), module.clone());
            }
        }
    }
    let mut files = Vec::new();
    rs_files(&root.join("src"), &mut files);
    rs_files(&root.join("strategies"), &mut files);
    files.sort();
    let mut refs = Vec::new();
    let mut unknown = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&root).unwrap().to_path_buf();
        let path = module_path(&rel);
        let Some(from) = path.first().cloned() else { continue }; // lib.rs, main.rs: the root
        if from == "main" {
            continue;
        }
        let text = without_test_mods(&strip(&std::fs::read_to_string(&file).unwrap()));
        let line_of = |at: usize| text[..at].matches('\n').count() + 1;
        let original: Vec<String> = std::fs::read_to_string(&file).unwrap().lines().map(str::to_string).collect();
        let mut found = |at: usize, name: String| {
            let to = if modules.contains(&name) {
                name
            } else if let Some(m) = reexports.get(&name) {
                m.clone()
            } else {
                unknown.push(format!("{}:{}: crate::{name}", rel.display(), line_of(at)));
                return;
            };
            if to != from {
                let line = line_of(at);
                let shown = format!("{}:{line}: {}", rel.display(), original[line - 1].trim());
                refs.push(Reference { from: from.clone(), to, at: shown });
            }
        };
        let b = text.as_bytes();
        for (at, _) in text.match_indices("crate::") {
            if at > 0 && (is_ident(b[at - 1]) || b[at - 1] == b':') {
                continue;
            }
            for n in names_at(&text[at + "crate::".len()..]) {
                found(at, n);
            }
        }
        for (at, _) in text.match_indices("super::") {
            if at > 0 && (is_ident(b[at - 1]) || b[at - 1] == b':') {
                continue; // not the start of a chain
            }
            let mut k = 0;
            let mut rest = &text[at..];
            while let Some(r) = rest.strip_prefix("super::") {
                k += 1;
                rest = r.trim_start();
            }
            let depth = path.len() + inline_mods(&text).iter().filter(|r| r.contains(&at)).count();
            assert!(k <= depth, "{}: super:: climbs above the crate", rel.display());
            if k == depth {
                for n in names_at(rest) {
                    if n != "self" {
                        found(at, n);
                    }
                }
            }
        }
    }
    assert!(unknown.is_empty(), "paths the test cannot place in a module:\n{}", unknown.join("\n"));
    Graph { modules, refs }
}

fn floor_of(m: &str) -> Option<usize> {
    FLOORS.iter().find(|(_, ms)| ms.contains(&m)).map(|&(f, _)| f)
}

#[test]
fn every_module_is_on_a_floor() {
    let g = graph();
    let unplaced: Vec<&String> = g.modules.iter().filter(|m| floor_of(m).is_none()).collect();
    assert!(unplaced.is_empty(), "top-level modules on no floor (add them to FLOORS): {unplaced:?}");
    let mut seen = BTreeSet::new();
    for (_, ms) in FLOORS {
        for m in *ms {
            assert!(seen.insert(m), "{m} is on two floors");
        }
    }
}

#[test]
fn imports_run_down_the_floors_but_for_the_listed_ones() {
    let g = graph();
    let mut backup: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for r in &g.refs {
        let (Some(a), Some(b)) = (floor_of(&r.from), floor_of(&r.to)) else { continue };
        if b > a {
            backup.entry((r.from.clone(), r.to.clone())).or_default().push(r.at.clone());
        }
    }
    let allowed = |from: &str, to: &str| ALLOWED.iter().any(|a| a.from == from && a.to == to);
    let unlisted: Vec<String> = backup
        .iter()
        .filter(|((f, t), _)| !allowed(f, t))
        .map(|((f, t), at)| format!("{f} -> {t}:\n  {}", at.join("\n  ")))
        .collect();
    assert!(unlisted.is_empty(), "imports that run back up the floors:\n{}", unlisted.join("\n"));
    // Every listed one still exists (a stale entry is removed from the list) and has a reason.
    for a in ALLOWED {
        assert!(!a.why.is_empty());
        assert!(
            backup.contains_key(&(a.from.to_string(), a.to.to_string())),
            "{} -> {} is allowed but no longer imported: remove it from ALLOWED",
            a.from,
            a.to
        );
    }
    assert!(ALLOWED.len() <= MAX_ALLOWED, "{} back-up imports allowed, at most {MAX_ALLOWED}", ALLOWED.len());
}

#[test]
fn the_floors_have_no_cycle_and_job_and_report_no_circle() {
    let g = graph();
    // Floor edges, without the allowed back-up imports.
    let mut edges: BTreeSet<(usize, usize)> = BTreeSet::new();
    for r in &g.refs {
        if ALLOWED.iter().any(|a| a.from == r.from && a.to == r.to) {
            continue;
        }
        if let (Some(a), Some(b)) = (floor_of(&r.from), floor_of(&r.to))
            && a != b
        {
            edges.insert((a, b));
        }
    }
    // Depth-first search for a cycle.
    fn visit(n: usize, edges: &BTreeSet<(usize, usize)>, state: &mut BTreeMap<usize, u8>) -> Option<usize> {
        match state.get(&n) {
            Some(1) => return Some(n),
            Some(_) => return None,
            None => {}
        }
        state.insert(n, 1);
        for &(_, b) in edges.iter().filter(|e| e.0 == n) {
            if let Some(c) = visit(b, edges, state) {
                return Some(c);
            }
        }
        state.insert(n, 2);
        None
    }
    let mut state = BTreeMap::new();
    for &(f, _) in FLOORS {
        assert_eq!(visit(f, &edges, &mut state), None, "the floors form a cycle");
    }
    // The run machinery (src/job*, src/store*) and src/report* never import each other both
    // ways.
    let uses = |from: &str, to: &str| g.refs.iter().any(|r| r.from == from && r.to == to);
    for m in ["job", "store"] {
        assert!(!(uses(m, "report") && uses("report", m)), "{m} and report import each other");
    }
}

#[test]
fn the_reader_sees_paths_through_comments_strings_and_groups() {
    let s = strip("let a = \"crate::x\"; // crate::y\nuse crate::{b, c::{d}}; let q = '{'; 'a: loop {}");
    assert!(!s.contains("crate::x") && !s.contains("crate::y"));
    let at = s.find("crate::").unwrap();
    assert_eq!(names_at(&s[at + 7..]), ["b", "c"]);
    let t = without_test_mods("fn f() {}\n#[cfg(test)]\nmod tests {\n use crate::z; { }\n}\nfn g() {}");
    assert!(!t.contains("crate::z") && t.contains("fn g()"));
    assert_eq!(module_path(Path::new("src/report/mod.rs")), ["report"]);
    assert_eq!(module_path(Path::new("strategies/plan_search/x.rs")), ["strategies", "plan_search", "x"]);
}
