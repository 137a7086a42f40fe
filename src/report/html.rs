//! The run report: one self-contained HTML page for a tournament, balance, tune or ladder
//! folder (`mtrain report DIR`), to read in a browser, mail, or attach to an issue.
//!
//! Everything on the page comes from the folder's own files, read with the csv crate and serde
//! ([`read`]): the run's header from its manifest (or `tune.json`, or the ladder's runs), the
//! tables with their intervals as the CSVs state them (formatted, never recomputed), the
//! ratings drawn as an inline SVG with their error bars, and the folder's plots embedded inline
//! once checked to be mtrain's own ([`svg::sanitize`]). The page has no script and loads
//! nothing: CSS inline, a Content-Security-Policy that forbids every fetch, and links (relative)
//! only to the folder's files. Every string from a file is escaped ([`esc`]).
//!
//! The page begins with the line [`MARKER`], by which `mtrain report` knows a page it wrote
//! and may replace; it holds nothing that changes between two runs of the command on the same
//! folder (no clock), so the same folder gives the same bytes.
//!
//! The game viewer of `mtrain view` ([`view`]) is built here too: both pages share one shell
//! ([`page`]: the marker line, the head, the policy, the house stylesheet, escaping).

mod balance;
mod compare;
mod ladder;
pub mod page;
mod read;
mod svg;
mod tournament;
mod tune;
pub mod view;
pub mod web;

pub(crate) use page::esc;

use read::Est;
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

/// The first line of every page `mtrain report` writes.
pub const MARKER: &str = crate::store::REPORT_MARKER;

/// The report's own stylesheet, inlined into every page after the shared one
/// ([`page::BASE_CSS`]).
const CSS: &str = include_str!("html/page.css");

/// Why a folder cannot be reported, in one line (bad input: another folder, a damaged file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReportError(pub String);

/// The kinds of folder a report is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunFolder {
    /// `mtrain tournament --out` (or `mtrain merge` of its shards): `tally.json` of kind
    /// `tournament`.
    Tournament,
    /// `mtrain balance --out`: `tally.json` of kind `balance`.
    Balance,
    /// `mtrain tune --out`: `tune.json`.
    Tune,
    /// `mtrain compare --out`: `compare.json`.
    Compare,
    /// The ladder study (`scripts/studies/study-ladder.sh`): `ladder.csv`, its tables and `runs/`.
    Ladder,
}

impl RunFolder {
    /// The kind in words.
    pub fn name(self) -> &'static str {
        match self {
            RunFolder::Tournament => "tournament",
            RunFolder::Balance => "balance",
            RunFolder::Tune => "tune",
            RunFolder::Compare => "compare",
            RunFolder::Ladder => "ladder",
        }
    }

    /// The kind of run folder `dir` is, from its state file (or the ladder's `ladder.csv`).
    ///
    /// # Errors
    /// `dir` is not a folder, or not a run folder (naming what it holds and what was expected),
    /// or its state file cannot be read.
    pub fn of(dir: &Path) -> Result<RunFolder, ReportError> {
        let shown = dir.display();
        if !dir.is_dir() {
            return Err(ReportError(if dir.exists() {
                format!("'{shown}' is not a folder: give a tournament, balance, tune, compare or ladder folder")
            } else {
                format!("'{shown}' does not exist: give a tournament, balance, tune, compare or ladder folder")
            }));
        }
        // The kind of run, as every command that resumes or merges a folder reads it.
        match crate::store::Kind::of_folder(dir) {
            Some(k) if k == crate::store::TUNE => return Ok(RunFolder::Tune),
            Some(k) if k == crate::store::COMPARE => return Ok(RunFolder::Compare),
            Some(k) if k == crate::store::BALANCE => return Ok(RunFolder::Balance),
            Some(k) if k == crate::store::TOURNAMENT => return Ok(RunFolder::Tournament),
            _ => {}
        }
        if dir.join("tally.json").is_file() {
            // A state file of no kind mtrain knows, or one it cannot read: say which.
            let v: serde_json::Value = read::json(dir, "tally.json")?;
            return match v.get("kind").map(|k| k.as_str()) {
                None | Some(Some("tournament" | "balance")) => Err(ReportError(format!(
                    "cannot read '{shown}/tally.json' as the state of a run (a file of an older or newer mtrain?)"
                ))),
                Some(k) => Err(ReportError(format!(
                    "'{shown}/tally.json' is of kind {}, which mtrain report does not know (it reports tournament and balance folders)",
                    k.map_or("(not a name)".to_string(), |k| format!("'{k}'"))
                ))),
            };
        }
        if dir.join("ladder.csv").is_file() {
            return Ok(RunFolder::Ladder);
        }
        let mut entries: Vec<String> = std::fs::read_dir(dir)
            .map_err(|e| ReportError(format!("cannot read the folder '{shown}': {}", crate::store::io_text(&e))))?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        entries.sort_unstable();
        let holds = if entries.is_empty() {
            "it is empty".to_string()
        } else {
            format!("it holds {}", crate::store::shown(&entries))
        };
        Err(ReportError(format!(
            "'{shown}' is not an mtrain run folder: {holds}; expected the --out folder of mtrain tournament or balance (tally.json), of mtrain tune (tune.json), of mtrain compare (compare.json), or the ladder study's folder (ladder.csv)"
        )))
    }
}

/// The report of the run folder `dir` as one HTML page, to be written into the folder
/// `page_dir` (its links to the folder's files are relative to it), and the kind of folder.
///
/// # Errors
/// A folder that is not a run folder, a file that cannot be read, a column or field missing.
pub fn render(dir: &Path, page_dir: &Path) -> Result<(String, RunFolder), ReportError> {
    let kind = RunFolder::of(dir)?;
    let ctx = Ctx { dir: dir.to_path_buf(), base: relative_url(dir, page_dir)? };
    let body = match kind {
        RunFolder::Tournament => tournament::page(&ctx)?,
        RunFolder::Balance => balance::page(&ctx)?,
        RunFolder::Tune => tune::page(&ctx)?,
        RunFolder::Compare => compare::page(&ctx)?,
        RunFolder::Ladder => ladder::page(&ctx)?,
    };
    Ok((shell(&body, kind, dir), kind))
}

/// What every part of a page needs: the folder and the link to it from the page.
pub(crate) struct Ctx {
    /// The run folder.
    dir: PathBuf,
    /// The folder as a relative URL from the page's folder, ending in `/` (empty: the same).
    base: String,
}

impl Ctx {
    /// The link to the folder's file `name` (a relative path inside the folder).
    fn href(&self, name: &str) -> String {
        format!("{}{}", self.base, name.split('/').map(url_segment).collect::<Vec<_>>().join("/"))
    }
}

/// A body made into the page: the shared shell ([`page::open`]: the marker, the head with the
/// stylesheet and the policy), the report's header and contents bar, and a footer naming the
/// writer.
fn shell(body: &Body, kind: RunFolder, dir: &Path) -> String {
    let folder = dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string());
    let title = format!("mtrain {} report: {folder}", kind.name());
    let head = page::Head {
        marker: MARKER,
        title: &title,
        css: CSS,
        script: false,
        body_class: Some(kind.name()),
        wasm: false,
    };
    let mut s = page::open(&head);
    s.reserve(body.html.len() + 2048);
    let _ = writeln!(
        s,
        "<header class=\"top\"><p class=\"kind\">mtrain {} report</p><h1>{}</h1><p class=\"lede\">{}</p></header>",
        kind.name(),
        esc(&folder),
        body.lede
    );
    if body.toc.len() > 1 {
        s.push_str("<nav class=\"toc\" aria-label=\"sections\">");
        for (id, title) in &body.toc {
            let _ = write!(s, "<a href=\"#{id}\">{}</a>", esc(title));
        }
        s.push_str("</nav>\n");
    }
    s.push_str("<main>\n");
    s.push_str(&body.html);
    s.push_str("</main>\n");
    let _ = writeln!(
        s,
        "<footer>Written by <code>mtrain report</code> (mtrain {}) from the files of this folder: every figure is as the files state it; intervals are 95%.</footer>",
        env!("CARGO_PKG_VERSION")
    );
    s.push_str(page::CLOSE);
    s
}

/// A page's content: the line under its title (HTML), the sections, and their list for the
/// contents bar.
#[derive(Default)]
pub(crate) struct Body {
    lede: String,
    html: String,
    toc: Vec<(&'static str, String)>,
}

impl Body {
    /// Adds a section with id `id`, heading `title` and the HTML `inner`.
    fn section(&mut self, id: &'static str, title: &str, inner: &str) {
        let _ = writeln!(self.html, "<section id=\"{id}\">\n<h2>{}</h2>\n{inner}</section>", esc(title));
        self.toc.push((id, title.to_string()));
    }
}

/// One path segment percent-encoded for a URL (unreserved characters kept).
fn url_segment(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The folder `dir` as a relative URL from the folder `from`, ending in `/` (empty when they
/// are the same folder).
fn relative_url(dir: &Path, from: &Path) -> Result<String, ReportError> {
    let canon = |p: &Path| {
        p.canonicalize().map_err(|e| {
            ReportError(format!("cannot resolve the folder '{}': {}", p.display(), crate::store::io_text(&e)))
        })
    };
    let (to, from) = (canon(dir)?, canon(from)?);
    let parts = |p: &PathBuf| -> Vec<String> {
        p.components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let (to, from) = (parts(&to), parts(&from));
    let common = to.iter().zip(&from).take_while(|(a, b)| a == b).count();
    let mut url = String::new();
    for _ in common..from.len() {
        url.push_str("../");
    }
    for seg in &to[common..] {
        url.push_str(&url_segment(seg));
        url.push('/');
    }
    Ok(url)
}

/// A table: its columns (name, whether numeric, so right-aligned) and rows of ready HTML cells.
pub(crate) struct Table {
    class: &'static str,
    cols: Vec<(String, bool)>,
    rows: Vec<(String, Vec<String>)>,
}

impl Table {
    /// An empty table of class `class` with columns `cols` (a leading `#` marks a numeric one).
    fn new(class: &'static str, cols: &[&str]) -> Table {
        let cols = cols
            .iter()
            .map(|c| match c.strip_prefix('#') {
                Some(n) => (n.to_string(), true),
                None => (c.to_string(), false),
            })
            .collect();
        Table { class, cols, rows: Vec::new() }
    }

    /// Adds a row of HTML cells, with attributes `attrs` (HTML, may be empty) on the `tr`.
    fn row(&mut self, attrs: String, cells: Vec<String>) {
        self.rows.push((attrs, cells));
    }

    /// The table, in a wrapper that scrolls sideways on a narrow screen.
    fn html(&self) -> String {
        let mut s = format!("<div class=\"scroll\"><table class=\"{}\">\n<thead><tr>", self.class);
        for (name, num) in &self.cols {
            let _ = write!(s, "<th{}>{}</th>", if *num { " class=\"n\"" } else { "" }, esc(name));
        }
        s.push_str("</tr></thead>\n<tbody>\n");
        for (attrs, cells) in &self.rows {
            let _ = write!(s, "<tr{}{}>", if attrs.is_empty() { "" } else { " " }, attrs);
            for (i, c) in cells.iter().enumerate() {
                let num = self.cols.get(i).is_some_and(|c| c.1);
                let _ = write!(s, "<td{}>{c}</td>", if num { " class=\"n\"" } else { "" });
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody></table></div>\n");
        s
    }
}

/// A list of facts (`dt`/`dd` pairs of HTML).
fn facts(items: &[(&str, String)]) -> String {
    let mut s = String::from("<dl class=\"facts\">\n");
    for (k, v) in items {
        let _ = writeln!(s, "<div><dt>{}</dt><dd>{v}</dd></div>", esc(k));
    }
    s.push_str("</dl>\n");
    s
}

/// A value (already formatted) and its interval, as a cell: `40.3% [31.8, 49.4]`.
fn est_html(e: Est, f: impl Fn(f64) -> String) -> String {
    match (e.value, e.lo, e.hi) {
        (None, _, _) => "<span class=\"none\">&#8211;</span>".to_string(),
        (Some(v), Some(lo), Some(hi)) => {
            format!("<span class=\"v\">{}</span> <span class=\"ci\">[{}, {}]</span>", f(v), f(lo), f(hi))
        }
        (Some(v), _, _) => format!("<span class=\"v\">{}</span>", f(v)),
    }
}

/// A share as a percentage with one decimal, as the console prints it (`0.403` → `40.3%`).
fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// A share as a percentage with its interval: `40.3% [31.8, 49.4]`.
fn pct_est(e: Est) -> String {
    match (e.value, e.lo, e.hi) {
        (Some(v), Some(lo), Some(hi)) => format!(
            "<span class=\"v\">{}</span> <span class=\"ci\">[{:.1}, {:.1}]</span>",
            pct(v),
            100.0 * lo,
            100.0 * hi
        ),
        _ => est_html(e, pct),
    }
}

/// A number with `places` decimals and its interval.
fn num_est(e: Est, places: usize) -> String {
    est_html(e, |v| format!("{v:.places$}"))
}

/// An Elo difference and its interval, whole numbers with their signs.
fn elo_est(e: Est) -> String {
    est_html(e, svg::signed)
}

/// Code-formatted text from a file.
fn code(s: &str) -> String {
    format!("<code>{}</code>", esc(s))
}

/// A bot spec as code, with line-break opportunities after its commas and colon, so that a
/// long spec wraps between parameters rather than inside a number.
fn spec_code(s: &str) -> String {
    let mut out = String::from("<code class=\"spec\">");
    for c in s.chars() {
        out.push_str(&esc(c.encode_utf8(&mut [0; 4])));
        if c == ',' || c == ':' {
            out.push_str("<wbr>");
        }
    }
    out.push_str("</code>");
    out
}

/// The folder's files of interest as a list of links: every CSV, then the other files named in
/// `more` that exist, each with what it holds.
fn files_section(ctx: &Ctx, about: &[(&str, &str)]) -> Result<String, ReportError> {
    let mut names: Vec<String> = std::fs::read_dir(&ctx.dir)
        .map_err(|e| {
            ReportError(format!("cannot read the folder '{}': {}", ctx.dir.display(), crate::store::io_text(&e)))
        })?
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".csv") || about.iter().any(|a| a.0 == n))
        .collect();
    names.sort_unstable_by_key(|n| (!n.ends_with(".csv"), n.clone()));
    let mut s = String::from("<ul class=\"files\">\n");
    for n in &names {
        let what = about.iter().find(|a| a.0 == n).map_or("", |a| a.1);
        let _ = writeln!(
            s,
            "<li><a href=\"{}\">{}</a>{}</li>",
            esc(&ctx.href(n)),
            esc(n),
            if what.is_empty() { String::new() } else { format!(" &#8212; {}", esc(what)) }
        );
    }
    s.push_str("</ul>\n<p class=\"note\">Every column is described in <code>docs/csv.md</code>.</p>\n");
    Ok(s)
}

/// The plot `name` of the folder as an inline figure when it is mtrain's own SVG; else a note
/// saying why it is not shown.
fn plot_figure(ctx: &Ctx, name: &str, caption: &str) -> Result<String, ReportError> {
    let path = ctx.dir.join(name);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| ReportError(format!("cannot read '{}': {}", path.display(), crate::store::io_text(&e))))?;
    Ok(match svg::sanitize(&text, "plot") {
        Ok(svg) => format!(
            "<figure class=\"plot\" data-file=\"{}\">{svg}<figcaption>{} <a href=\"{}\">{}</a></figcaption></figure>\n",
            esc(name),
            esc(caption),
            esc(&ctx.href(name)),
            esc(name)
        ),
        Err(why) => format!(
            "<p class=\"warn\">The plot <code>{}</code> is not shown: it is not an SVG as mtrain writes it ({}).</p>\n",
            esc(name),
            esc(&why.to_string())
        ),
    })
}

/// The build that wrote a run, from its manifest: version and commit.
fn build_html(version: &str, commit: Option<&str>) -> String {
    match commit {
        Some(c) => format!("mtrain {} at commit {}", esc(version), code(c)),
        None => format!("mtrain {} (commit not recorded: built outside a git checkout)", esc(version)),
    }
}

/// The `--rule` changes as a line: `tap=draw_two, v1=true`, or `none (the preset as published)`.
fn changed_html<'a>(changes: impl IntoIterator<Item = (&'a String, &'a String)>) -> String {
    let list: Vec<String> = changes.into_iter().map(|(k, v)| code(&format!("{k}={v}"))).collect();
    if list.is_empty() { "none (the preset as published)".to_string() } else { list.join(", ") }
}

/// A command line as a shell would take it, without this machine's paths: the program as
/// `mtrain`, and an absolute path (an argument, or the value of `--key=PATH`) as its last part,
/// so that a page mailed elsewhere shows the command as one would type it in the folder's place.
fn command_html(words: &[String]) -> String {
    let last = |p: &str| Path::new(p).file_name().map_or_else(|| p.to_string(), |n| n.to_string_lossy().into_owned());
    let shown: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, w)| match w.split_once('=') {
            _ if i == 0 => "mtrain".to_string(),
            Some((k, v)) if k.starts_with("--") && v.starts_with('/') => format!("{k}={}", last(v)),
            _ if w.starts_with('/') => last(w),
            _ => w.clone(),
        })
        .collect();
    let joined = shlex::try_join(shown.iter().map(String::as_str)).unwrap_or_else(|_| shown.join(" "));
    format!("<code class=\"cmd\">{}</code>", esc(&joined))
}

/// Numbers as compact ranges: `5-24`, `2 4 6`.
fn ranges(v: &[u8]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        parts.push(if j > i { format!("{}-{}", v[i], v[j]) } else { v[i].to_string() });
        i = j + 1;
    }
    parts.join(" ")
}

/// The time span of a run: `2026-11-26T18:30:54Z to 18:31:01Z (6.2 s)`.
fn when_html(started: &str, ended: &str, elapsed: Option<f64>) -> String {
    let end = match (started.split_once('T'), ended.split_once('T')) {
        (Some((d1, _)), Some((d2, t2))) if d1 == d2 => t2.to_string(),
        _ => ended.to_string(),
    };
    let secs = elapsed.map_or(String::new(), |e| format!(" ({e:.1} s)"));
    format!("{} to {}{secs}", esc(started), esc(&end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_segments_are_percent_encoded() {
        assert_eq!(url_segment("a b#?%é.csv"), "a%20b%23%3F%25%C3%A9.csv");
    }

    #[test]
    fn numbers_read_as_ranges() {
        assert_eq!(ranges(&[5, 6, 7, 8, 24]), "5-8 24");
        assert_eq!(ranges(&[2, 3, 5]), "2-3 5");
        assert_eq!(ranges(&[4]), "4");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn links_are_relative_to_the_page() {
        let root = std::env::temp_dir().join(format!("mtrain-html-rel-{}", std::process::id()));
        let (run, pages) = (root.join("runs").join("a b"), root.join("pages"));
        std::fs::create_dir_all(&run).unwrap();
        std::fs::create_dir_all(&pages).unwrap();
        assert_eq!(relative_url(&run, &run).unwrap(), "");
        assert_eq!(relative_url(&run, &pages).unwrap(), "../runs/a%20b/");
        assert_eq!(relative_url(&root, &run).unwrap(), "../../");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_time_span_shows_the_end_without_repeating_the_day() {
        assert_eq!(
            when_html("2026-11-26T18:30:54Z", "2026-11-26T18:31:01Z", Some(6.204)),
            "2026-11-26T18:30:54Z to 18:31:01Z (6.2 s)"
        );
        assert_eq!(when_html("a", "b", None), "a to b");
    }
}
