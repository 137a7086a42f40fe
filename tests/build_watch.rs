//! build.rs reruns when any source the library or the binary is built from changes (so that
//! `mtrain --version` and the manifests say truly whether the tree had changes): every module
//! file reached by `#[path]` and every file embedded by `include_str!`, `include_bytes!` or
//! `include!` lies in a folder build.rs watches (its `WATCHED` list).

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The quoted entries of build.rs's `const WATCHED: [&str; N] = [...];`.
fn watched() -> Vec<String> {
    let build = std::fs::read_to_string(root().join("build.rs")).expect("build.rs is readable");
    let start = build.find("const WATCHED").expect("build.rs declares `const WATCHED`");
    let list = &build[start..];
    let list = &list[list.find("= [").expect("WATCHED's list") + 3..];
    let list = &list[..list.find("];").expect("WATCHED's list ends")];
    let names: Vec<String> =
        list.split('"').enumerate().filter(|(i, _)| i % 2 == 1).map(|(_, s)| s.to_string()).collect();
    assert!(names.iter().any(|n| n == "src"), "build.rs watches src/: {names:?}");
    names
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string arguments of `#[path = "..."]` and of `include_str!("...")`, `include_bytes!("...")`
/// and `include!("...")` in `text`.
fn referenced_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for opener in ["#[path = \"", "include_str!(\"", "include_bytes!(\"", "include!(\""] {
        let mut rest = text;
        while let Some(at) = rest.find(opener) {
            rest = &rest[at + opener.len()..];
            if let Some(end) = rest.find('"') {
                found.push(rest[..end].to_string());
            }
        }
    }
    found
}

#[test]
fn build_rs_watches_every_source_folder() {
    let watched: Vec<PathBuf> =
        watched().iter().map(|w| root().join(w).canonicalize().expect("a watched path exists")).collect();
    let mut files = Vec::new();
    for dir in &watched {
        if dir.is_dir() {
            rust_files(dir, &mut files);
        }
    }
    assert!(files.len() > 10, "the watched folders hold the sources: {files:?}");
    let mut outside = Vec::new();
    let mut seen = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for rel in referenced_paths(&text) {
            seen += 1;
            let target = file.parent().unwrap().join(&rel);
            let target = target.canonicalize().unwrap_or(target);
            if !watched.iter().any(|w| target.starts_with(w)) {
                outside.push(format!("{} -> {rel}", file.strip_prefix(root()).unwrap_or(file).display()));
            }
        }
    }
    assert!(seen > 0, "no #[path] or include_str! found: the scan is broken");
    assert!(
        outside.is_empty(),
        "these sources or assets lie outside the folders build.rs watches: add their folder to \
         `WATCHED` in build.rs: {outside:?}"
    );
}
