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
            }
            "{{WORKER}}" => out.push_str(WORKER_JS),
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
