//! The play page of `mtrain web`: one self-contained HTML file that plays Mexican Train in the
//! browser with the engine, the bots and the analyst compiled to WebAssembly (the `web/` crate,
//! built by `scripts/regen/build-web.sh`; docs/web.md).
//!
//! [`render`] puts the page together in the shared shell of [`super::page`]: the body of
//! `web/page/index.html`, the viewer's stylesheet and the page's own (the game's, then the rules
//! lab's), the worker's script as text (the page starts it from a `blob:` URL), the WebAssembly
//! as base64 text, and the page's scripts (the game's, then the rules lab's) after the table
//! script it shares with the viewer ([`super::view::TABLE_JS`]). The page fetches nothing: its
//! policy forbids every request.

use super::page::{self, Head};
use base64::Engine as _;

/// The first line of every page `mtrain web` writes.
pub const MARKER: &str = "<!-- mtrain web -->";

const TEMPLATE: &str = include_str!("../../../web/page/index.html");
const VIEWER_CSS: &str = include_str!("viewer.css");
const CSS: &str = include_str!("../../../web/page/app.css");
const APP_JS: &str = include_str!("../../../web/page/app.js");
const WORKER_JS: &str = include_str!("../../../web/page/worker.js");
const LAB_CSS: &str = include_str!("../../../web/page/lab.css");
const LAB_JS: &str = include_str!("../../../web/page/lab.js");
const GUIDE_JS: &str = include_str!("../../../web/page/guide.js");
/// The strategy guide the Guide tab shows: its rules, with their measured sizes (checked against
/// the study's CSV by tests/readme_numbers.rs), and the logged match its examples come from.
const STRATEGY: &str = include_str!("../../../docs/strategy.md");
const EXAMPLE_LOG: &str = include_str!("../../../results/strategy/example.jsonl");

/// The Guide tab's data: each rule of docs/strategy.md's "The rules, largest first" (its title,
/// its paragraphs as HTML, the example's move number) and the example match's log lines.
fn guide_json() -> String {
    let start = STRATEGY.find("## The rules, largest first").expect("docs/strategy.md lists its rules");
    let end = STRATEGY[start..].find("\n## ").map_or(STRATEGY.len(), |e| start + e + 1);
    let mut rules = Vec::new();
    for section in STRATEGY[start..end].split("\n### ").skip(1) {
        let (title, body) = section.split_once('\n').unwrap_or((section, ""));
        let paragraphs: Vec<String> = body
            .split("\n\n")
            .map(|p| p.trim().replace('\n', " "))
            .filter(|p| !p.is_empty())
            .map(|p| inline(&p))
            .collect();
        let example = body.find("**Example:** move ").and_then(|at| {
            let rest = &body[at + "**Example:** move ".len()..];
            rest[..rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len())].parse::<u32>().ok()
        });
        rules.push(serde_json::json!({"title": title.trim(), "paragraphs": paragraphs, "move": example}));
    }
    let lines: Vec<&str> = EXAMPLE_LOG.lines().collect();
    page::script_safe(&serde_json::json!({"rules": rules, "log": lines}).to_string())
}

/// A paragraph of the guide as HTML: escaped, with its two inline marks, `**bold**` and
/// `` `code` ``, made elements. Written here because the guide's paragraphs use nothing else
/// (no links, lists or nesting), which a Markdown crate would be a dependency for.
fn inline(text: &str) -> String {
    let escaped = page::esc(text);
    let mut out = String::with_capacity(escaped.len());
    let (mut bold, mut code) = (false, false);
    let mut rest = escaped.as_str();
    while let Some(i) = rest.find(['*', '`']) {
        out.push_str(&rest[..i]);
        if rest[i..].starts_with("**") && !code {
            out.push_str(if bold { "</b>" } else { "<b>" });
            bold = !bold;
            rest = &rest[i + 2..];
        } else if rest[i..].starts_with('`') {
            out.push_str(if code { "</code>" } else { "<code>" });
            code = !code;
            rest = &rest[i + 1..];
        } else {
            out.push('*');
            rest = &rest[i + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// The page around the engine `wasm` (the `mtrain_web` WebAssembly module).
pub fn render(wasm: &[u8]) -> String {
    let css = format!("{VIEWER_CSS}{CSS}{LAB_CSS}");
    let head =
        Head { marker: MARKER, title: "mtrain: Mexican Train", css: &css, script: true, body_class: None, wasm: true };
    let b64 = base64::engine::general_purpose::STANDARD.encode(wasm);
    let mut out = page::open(&head);
    out.reserve(TEMPLATE.len() + APP_JS.len() + LAB_JS.len() + WORKER_JS.len() + b64.len() + 1024);
    // Placeholders go in one pass, so text inside the scripts is never taken for one.
    let mut rest = TEMPLATE;
    while let Some(at) = rest.find("{{") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find("}}").map(|e| at + e + 2).expect("closed placeholder");
        match &rest[at..end] {
            "{{JS}}" => {
                out.push_str(super::view::TABLE_JS);
                out.push_str(APP_JS);
                out.push_str(LAB_JS);
                out.push_str(GUIDE_JS);
            }
            "{{WORKER}}" => out.push_str(WORKER_JS),
            "{{GUIDE}}" => out.push_str(&guide_json()),
            "{{WASM}}" => out.push_str(&b64),
            "{{VERSION}}" => out.push_str(env!("CARGO_PKG_VERSION")),
            other => panic!("unknown placeholder {other} in web/page/index.html"),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out.push_str(page::CLOSE);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scripts_never_close_their_elements() {
        for (name, text) in [
            ("app.js", APP_JS),
            ("lab.js", LAB_JS),
            ("guide.js", GUIDE_JS),
            ("worker.js", WORKER_JS),
            ("table.js", super::super::view::TABLE_JS),
        ] {
            assert!(!text.contains("</script"), "{name} must not close its script element");
        }
        assert!(!CSS.contains("</style"), "app.css must not close its style element");
        assert!(!LAB_CSS.contains("</style"), "lab.css must not close its style element");
        assert!(!TEMPLATE.contains("<body"), "index.html is the body's content");
    }

    #[test]
    fn the_guide_carries_every_rule_of_the_strategy_guide_with_its_example() {
        let g: serde_json::Value = serde_json::from_str(&guide_json()).unwrap();
        let rules = g["rules"].as_array().unwrap();
        let listed = STRATEGY.split("## The rules, largest first").nth(1).unwrap();
        let listed = &listed[..listed.find("\n## ").unwrap()];
        assert_eq!(rules.len(), listed.matches("\n### ").count());
        assert!(rules[0]["title"].as_str().unwrap().starts_with("1. "));
        assert!(rules.iter().all(|r| r["move"].as_u64().is_some()), "every rule has its example move");
        assert!(rules[0]["paragraphs"][0].as_str().unwrap().contains("<code>plan_tile</code>"));
        assert_eq!(g["log"].as_array().unwrap().len(), EXAMPLE_LOG.lines().count());
        assert_eq!(inline("a **b** `c*d` <e>"), "a <b>b</b> <code>c*d</code> &lt;e&gt;");
    }

    #[test]
    fn the_page_carries_the_engine_as_base64_and_allows_only_what_it_needs() {
        let html = render(&[0, 97, 115, 109, 1, 0, 0, 0]);
        assert!(html.starts_with(MARKER));
        assert!(html.contains(">AGFzbQEAAAA=</script>"), "the module's bytes in base64");
        assert!(html.contains(
            "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; worker-src blob:"
        ));
        assert!(!html.contains("{{"), "every placeholder filled");
    }
}
