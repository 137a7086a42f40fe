//! Records the git commit mtrain is built from, when it is built from a checkout, for the
//! manifests (`MTRAIN_GIT_COMMIT`; absent otherwise, e.g. from a source package), and the line
//! `mtrain --version` prints (`MTRAIN_VERSION_LINE`: the version, the commit and whether the
//! tree had changes).

use std::process::Command;

/// Every folder and file the library and the binary are built from: the modules (`src/`, and
/// `strategies/`, which `src/lib.rs` mounts with `#[path]`), the assets they embed with
/// `include_str!` (all under `src/`), this script and the manifests. A new top-level folder of
/// sources or assets belongs here: `tests/build_watch.rs` fails for a `#[path]`, `include_str!`,
/// `include_bytes!` or `include!` that reaches outside these. The play page (`mtrain web`) embeds
/// its own files from `web/page/`, its engine `web/mtrain.wasm`, and the strategy guide with its
/// example match.
const WATCHED: [&str; 9] = [
    "src",
    "strategies",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "web/page",
    "web/mtrain.wasm",
    "docs/strategy.md",
    "results/strategy/example.jsonl",
];

fn main() {
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/index");
    // Whether the tree has changes follows the sources the binary is built from.
    for p in WATCHED {
        println!("cargo:rerun-if-changed={p}");
    }
    let commit = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| s.len() == 40 && s.chars().all(|c| c.is_ascii_hexdigit()));
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let line = match commit {
        Some(c) => {
            let dirty = Command::new("git")
                .args(["status", "--porcelain", "--untracked-files=no"])
                .output()
                .ok()
                .is_some_and(|o| o.status.success() && !o.stdout.is_empty());
            println!("cargo:rustc-env=MTRAIN_GIT_COMMIT={c}{}", if dirty { "+changes" } else { "" });
            let tree = if dirty { "with uncommitted changes" } else { "clean tree" };
            format!("{version} (commit {c}, {tree})")
        }
        None => format!("{version} (not built from a git checkout: commit unknown)"),
    };
    println!("cargo:rustc-env=MTRAIN_VERSION_LINE={line}");
}
