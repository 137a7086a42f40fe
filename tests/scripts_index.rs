//! scripts/README.md indexes every script under scripts/ by its path in its folder (`studies/x.sh`),
//! names no script that is not there, and no script lies loose in scripts/ itself: each one sits
//! in the folder of its purpose.

use std::path::Path;

/// Every file under `dir`, as a path relative to `scripts/` with `/` between folders, skipping
/// Python's caches and hidden files.
fn scripts_under(dir: &Path, prefix: &str, files: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder under scripts/") {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().expect("a UTF-8 file name");
        if name == "__pycache__" || name.starts_with('.') {
            continue;
        }
        let rel = format!("{prefix}{name}");
        if entry.file_type().unwrap().is_dir() {
            scripts_under(&entry.path(), &format!("{rel}/"), files);
        } else {
            files.push(rel);
        }
    }
}

#[test]
fn every_script_is_in_the_scripts_index() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let index = std::fs::read_to_string(dir.join("README.md")).expect("scripts/README.md exists");

    let mut files = Vec::new();
    scripts_under(&dir, "", &mut files);
    files.retain(|f| f != "README.md");
    files.sort();
    assert!(!files.is_empty(), "scripts/ holds no files");

    let loose: Vec<&String> = files.iter().filter(|f| !f.contains('/')).collect();
    assert!(
        loose.is_empty(),
        "these scripts lie loose in scripts/: move each into the folder of its purpose \
         (studies/, bench/, checks/, regen/) and list it there in scripts/README.md: {loose:?}"
    );

    let missing: Vec<&String> = files.iter().filter(|f| !index.contains(&format!("`{f}`"))).collect();
    assert!(
        missing.is_empty(),
        "scripts/README.md does not list these files of scripts/ (as `folder/name`, backticked): {missing:?}"
    );

    // Every backticked script in the index is a file under scripts/ at that path (a removed or
    // moved script leaves no stale line).
    let mut stale = Vec::new();
    for (i, quoted) in index.split('`').enumerate() {
        if i % 2 == 0 || !(quoted.ends_with(".sh") || quoted.ends_with(".py")) {
            continue;
        }
        let name = quoted.strip_prefix("scripts/").unwrap_or(quoted);
        if !dir.join(name).is_file() {
            stale.push(quoted.to_string());
        }
    }
    assert!(stale.is_empty(), "scripts/README.md names scripts that are not under scripts/ at that path: {stale:?}");
}
