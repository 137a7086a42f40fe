//! scripts/README.md indexes every file in scripts/, and names no script that is not there.

use std::path::Path;

#[test]
fn every_script_is_in_the_scripts_index() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let index = std::fs::read_to_string(dir.join("README.md")).expect("scripts/README.md exists");

    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("scripts/ is readable") {
        let name = entry.unwrap().file_name().into_string().expect("a UTF-8 file name");
        if name == "README.md" || name == "__pycache__" || name.starts_with('.') {
            continue;
        }
        files.push(name);
    }
    files.sort();
    assert!(!files.is_empty(), "scripts/ holds no files");
    let missing: Vec<&String> = files.iter().filter(|name| !index.contains(&format!("`{name}`"))).collect();
    assert!(
        missing.is_empty(),
        "scripts/README.md does not list these files of scripts/ (as `name`, backticked): {missing:?}"
    );

    // Every backticked script name in the index is a file of scripts/ (a removed script leaves
    // no stale line).
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
    assert!(stale.is_empty(), "scripts/README.md names scripts that are not in scripts/: {stale:?}");
}
