//! What mtrain's two HTML pages share: the run report ([`super::render`], `mtrain report`) and
//! the game viewer ([`super::view`], `mtrain view`).
//!
//! Both are one self-contained file built the same way: a marker line of their own (by which
//! each command knows a page it wrote and may replace, [`written_with`]), then the one head
//! written here (`open`: the doctype, the character set, the viewport, a
//! Content-Security-Policy that forbids every fetch, the generator, the title, and the
//! stylesheet: the shared `base.css`, the house palette, fonts and reset, followed by the page's
//! own rules), the page's body, and the same end. Text from files goes through `esc`; data a
//! page's script reads is JSON in a `<script type="application/json">` element, made safe there
//! by `script_safe`. Nothing in the shell changes between two runs on the same input (no
//! clock), so the same input gives the same bytes.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;

/// The palette, fonts and reset of both pages, first in each page's stylesheet.
pub(crate) const BASE_CSS: &str = include_str!("base.css");

/// The head of a page: what differs between the two.
pub(crate) struct Head<'a> {
    /// The page's first line ([`super::MARKER`], [`super::view::MARKER`]).
    pub marker: &'a str,
    /// The title, as text (escaped here).
    pub title: &'a str,
    /// The page's own stylesheet, after [`BASE_CSS`].
    pub css: &'a str,
    /// Whether the page carries an inline script (the policy then allows inline scripts; it
    /// never allows a fetch).
    pub script: bool,
    /// The `class` of `body`, if any.
    pub body_class: Option<&'a str>,
    /// Whether the page runs WebAssembly in a worker made from its own text (`mtrain web`): the
    /// policy then allows compiling WebAssembly and a worker from a `blob:` URL; still no fetch.
    pub wasm: bool,
}

/// The page up to and including the opening `<body>` tag and its line end.
pub(crate) fn open(head: &Head<'_>) -> String {
    let mut s = String::with_capacity(BASE_CSS.len() + head.css.len() + 1024);
    s.push_str(head.marker);
    s.push('\n');
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let script = match (head.script, head.wasm) {
        (_, true) => "; script-src 'unsafe-inline' 'wasm-unsafe-eval'; worker-src blob:",
        (true, false) => "; script-src 'unsafe-inline'",
        (false, false) => "",
    };
    let _ = writeln!(
        s,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'{script}\">"
    );
    let _ = writeln!(s, "<meta name=\"generator\" content=\"mtrain {}\">", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(s, "<title>{}</title>", esc(head.title));
    let _ = writeln!(s, "<style>\n{BASE_CSS}{}</style>\n</head>", head.css);
    match head.body_class {
        Some(c) => {
            let _ = writeln!(s, "<body class=\"{}\">", esc(c));
        }
        None => s.push_str("<body>\n"),
    }
    s
}

/// The end of every page, after its body.
pub(crate) const CLOSE: &str = "</body>\n</html>\n";

/// `s` escaped for HTML text and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON safe inside a `<script>` element: no `<` at all (so no `</script>` or `<!--`), and
/// the two line separators JavaScript once treated as line ends escaped too.
pub(crate) fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c").replace('\u{2028}', "\\u2028").replace('\u{2029}', "\\u2029")
}

/// Whether the file `path` begins with the line `marker`: a page that the command of that
/// marker wrote, which it may replace.
///
/// # Errors
/// The file cannot be opened or read.
pub fn written_with(path: &Path, marker: &str) -> std::io::Result<bool> {
    let mut head = Vec::with_capacity(marker.len());
    std::fs::File::open(path)?.take(marker.len() as u64).read_to_end(&mut head)?;
    Ok(head == marker.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_from_files_are_escaped() {
        assert_eq!(esc("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
    }

    #[test]
    fn embedded_json_cannot_close_the_script() {
        let s = script_safe(r#"{"a":"</script><!--"}"#);
        assert!(!s.contains('<'));
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back["a"], "</script><!--");
    }

    #[test]
    fn the_head_forbids_fetches_and_allows_a_script_only_when_asked() {
        let head =
            |script| Head { marker: "<!-- m -->", title: "a <b>", css: "p{}\n", script, body_class: None, wasm: false };
        let page = open(&head(false));
        assert!(page.starts_with("<!-- m -->\n<!DOCTYPE html>\n"));
        assert!(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""));
        assert!(page.contains("<title>a &lt;b&gt;</title>"));
        assert!(page.contains(&format!("<style>\n{BASE_CSS}p{{}}\n</style>")));
        assert!(page.ends_with("</head>\n<body>\n"));
        assert!(open(&head(true)).contains("style-src 'unsafe-inline'; script-src 'unsafe-inline'\""));
        assert!(BASE_CSS.ends_with('\n') && !BASE_CSS.contains("</style"));
    }
}
