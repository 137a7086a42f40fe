//! `mtrain web`: the page it writes, the engine it carries, and the input it refuses. What the
//! page does is tested in a browser by tests/browser/test_web.py (scripts/checks/browser-test.sh).

mod common;
use common::{mtrain, temp};
use std::path::Path;

/// The CRC-32 of the sources `scripts/regen/build-web.sh` builds the engine from, as it computes
/// it: every Rust file under src/ (but the command line's src/cli/ and src/main.rs), strategies/
/// and web/src/, the manifests and lock file, and the league's ratings, in path order, each as
/// its path, a line end and its bytes.
fn sources_crc() -> String {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            let p = format!("{rel}/{name}");
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &p, out);
            } else {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for r in ["src", "strategies", "web/src"] {
        walk(&root.join(r), r, &mut files);
    }
    files.retain(|p| p.ends_with(".rs") && !p.starts_with("src/cli/") && p != "src/main.rs");
    files.extend(["Cargo.toml", "Cargo.lock", "web/Cargo.toml", "results/ladder/league.csv"].map(String::from));
    files.sort();
    files.dedup();
    let mut h = crc32fast::Hasher::new();
    for p in &files {
        h.update(p.as_bytes());
        h.update(b"\n");
        h.update(&std::fs::read(root.join(p)).unwrap());
    }
    format!("{:08x}", h.finalize())
}

#[test]
fn the_committed_engine_is_built_from_these_sources() {
    let info: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/web/mtrain.wasm.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        info["sources_crc32"].as_str().unwrap(),
        sources_crc(),
        "web/mtrain.wasm is older than the library's sources: run scripts/regen/build-web.sh and commit web/mtrain.wasm*"
    );
    let wasm = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/web/mtrain.wasm")).unwrap();
    assert_eq!(info["bytes"].as_u64().unwrap(), wasm.len() as u64);
    assert_eq!(&wasm[..4], b"\0asm");
}

#[test]
fn the_page_is_one_file_under_three_megabytes_and_replaces_only_its_own() {
    let dir = temp("web");
    let out = dir.join("play.html");
    let o = mtrain(&["web", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.starts_with("<!-- mtrain web -->\n<!DOCTYPE html>"));
    assert!(html.len() < 3_000_000, "the page is {} bytes", html.len());
    // No reference outside the file: no src or href to another resource.
    for needle in ["src=\"http", "href=\"http", "<link", "src=\"//", "@import", "url(http"] {
        assert!(!html.contains(needle), "the page references '{needle}'");
    }
    // Written again over its own page.
    let o = mtrain(&["web", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    // Never over a file it did not write.
    let foreign = dir.join("notes.html");
    std::fs::write(&foreign, "my notes").unwrap();
    let o = mtrain(&["web", "--out", foreign.to_str().unwrap()]);
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("is not a page mtrain web wrote"), "{err}");
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), "my notes");
    // A folder that does not exist.
    let o = mtrain(&["web", "--out", dir.join("nowhere/x.html").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8(o.stderr).unwrap().contains("does not exist"));
}
