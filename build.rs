//! Records the git commit mtrain is built from, when it is built from a checkout, for the
//! manifests (`MTRAIN_GIT_COMMIT`; absent otherwise, e.g. from a source package).

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/index");
    let commit = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| s.len() == 40 && s.chars().all(|c| c.is_ascii_hexdigit()));
    if let Some(c) = commit {
        let dirty = Command::new("git")
            .args(["status", "--porcelain", "--untracked-files=no"])
            .output()
            .ok()
            .is_some_and(|o| o.status.success() && !o.stdout.is_empty());
        println!("cargo:rustc-env=MTRAIN_GIT_COMMIT={c}{}", if dirty { "+changes" } else { "" });
    }
}
