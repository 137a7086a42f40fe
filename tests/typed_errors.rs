//! The library reports failures as typed errors (`src/error.rs`, or the module's own
//! `thiserror` enum), never as a bare `String`: no function of `src/` or `strategies/` returns
//! `Result<_, String>`, and no `FromStr` has `type Err = String`. The command line (`src/cli/`)
//! turns errors into its messages and is left out.

use std::path::{Path, PathBuf};

/// Folders below `src/` that the rule does not cover yet.
const LEFT_OUT: [&str; 1] = ["src/cli"];

/// Every `.rs` file below `dir`, in a stable order.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// `text` with its `//` comments removed, so that a doc example or a remark is not read as code.
fn without_comments(text: &str) -> String {
    text.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n")
}

/// The functions of `code` whose return type is `Result<_, String>`: (line, name, return type
/// with its whitespace squeezed). A signature may span lines; it ends at the first `{` or `;`
/// outside parentheses and brackets, and its return type is what follows the last `->` at that
/// level (an `impl Fn(..) -> ..` argument's arrow is inside the parentheses).
fn string_results(code: &str) -> Vec<(usize, String, String)> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..].find("fn ") {
        let start = i + at;
        i = start + 3;
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let name: String =
            code[i..].trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            continue;
        }
        let (mut depth, mut arrow, mut j) = (0i32, None, i);
        while j < bytes.len() {
            match bytes[j] {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b'-' if depth == 0 && bytes.get(j + 1) == Some(&b'>') => arrow = Some(j + 2),
                b'{' | b';' if depth == 0 => break,
                _ => {}
            }
            j += 1;
        }
        let Some(from) = arrow else { continue };
        let squeezed: String = code[from..j].split_whitespace().take_while(|w| *w != "where").collect();
        let squeezed = squeezed.replace(",>", ">");
        if squeezed.contains("Result<") && squeezed.ends_with(",String>") {
            found.push((code[..start].matches('\n').count() + 1, name, squeezed));
        }
    }
    found
}

fn library_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("strategies"), &mut files);
    files.retain(|p| !LEFT_OUT.iter().any(|d| p.starts_with(root.join(d))));
    files
}

#[test]
fn the_scan_finds_a_string_error_in_every_form_it_takes() {
    let code = "pub fn a(x: u8) -> Result<u8, String> {\n}\n\
                fn b(\n    f: impl Fn(&str) -> Result<(), Error>,\n) -> Result<\n    Vec<u8>,\n    String,\n> {\n}\n\
                fn c(s: &str) -> Result<Option<String>, Error> {}\n\
                fn d(v: [u8; 2]) -> std::result::Result<(), String>;\n\
                fn e(f: impl Fn() -> Result<(), String>) -> u8 {}\n\
                fn g<T>(t: T) -> Result<T, String>\nwhere\n    T: Clone,\n{}\n";
    let names: Vec<(usize, String)> = string_results(code).into_iter().map(|(l, n, _)| (l, n)).collect();
    assert_eq!(names, [(1, "a".to_string()), (3, "b".to_string()), (11, "d".to_string()), (13, "g".to_string())]);
}

#[test]
fn no_library_function_returns_a_string_error() {
    let files = library_files();
    assert!(files.len() > 50, "the scan sees only {} files", files.len());
    let mut offenders = Vec::new();
    for path in &files {
        let code = without_comments(&std::fs::read_to_string(path).unwrap());
        for (line, name, ret) in string_results(&code) {
            offenders.push(format!("{}:{line}: fn {name} -> {ret}", path.display()));
        }
        for (n, l) in code.lines().enumerate() {
            if l.split_whitespace().collect::<String>() == "typeErr=String;" {
                offenders.push(format!("{}:{}: type Err = String", path.display(), n + 1));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "functions returning Result<_, String> (give them a typed error):\n{}",
        offenders.join("\n")
    );
}
