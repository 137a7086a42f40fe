//! SVG in the report: the plots a run folder holds, embedded inline only once checked to be
//! mtrain's own (what `src/report/plot.rs` draws through plotters' SVG backend: a root `svg`,
//! then `rect`, `line`, `polyline`, `polygon`, `circle` and `text`, with presentation
//! attributes only), and the ratings chart with its error bars, drawn here.
//!
//! The check is a whitelist, not a filter: the file is parsed, and any element, attribute,
//! value, comment, entity or declaration that mtrain's plots do not have makes it "not
//! mtrain's", so it is named on the page and not embedded. What passes is written out again
//! from the parse (text re-escaped), so nothing of the file reaches the page unread.

use super::esc;
use std::fmt::Write as _;

/// The elements mtrain's plots use.
const ELEMENTS: [&str; 7] = ["svg", "rect", "line", "polyline", "polygon", "circle", "text"];

/// The attributes mtrain's plots use (presentation attributes and geometry).
const ATTRIBUTES: [&str; 30] = [
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "dx",
    "dy",
    "width",
    "height",
    "viewBox",
    "xmlns",
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-linecap",
    "stroke-linejoin",
    "opacity",
    "fill-opacity",
    "stroke-opacity",
    "points",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
];

/// Attributes beyond [`ATTRIBUTES`]: a rotated axis label's `transform`.
const MORE_ATTRIBUTES: [&str; 2] = ["transform", "dominant-baseline"];

/// The largest SVG file embedded (a sweep's plot is about 35 KB, a 400-iteration trajectory
/// about 550 KB).
pub(super) const MAX_SVG_BYTES: usize = 8 << 20;

/// Why an SVG file is not one as mtrain writes it, in a few words (the page names it in its
/// note on the plot).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum NotOurs {
    /// Over [`MAX_SVG_BYTES`].
    #[error("larger than {mib} MiB")]
    TooLarge { mib: usize },
    /// `<?xml` without its `?>`.
    #[error("an unclosed XML declaration")]
    UnclosedDeclaration,
    /// Character data outside a `text` element.
    #[error("text outside a text element")]
    TextOutsideText,
    /// Anything after the root element closes.
    #[error("content after the root element")]
    AfterRoot,
    /// `<!...>` or `<?...>` after the XML declaration.
    #[error("a comment, declaration or processing instruction")]
    Markup,
    /// An end tag without its `>`.
    #[error("an unclosed tag")]
    UnclosedTag,
    /// An end tag that does not close the open element (its name, at most 20 characters).
    #[error("a misplaced </{0}>")]
    MisplacedEnd(String),
    /// An element mtrain's plots do not use (its name, at most 20 characters).
    #[error("element <{0}>")]
    Element(String),
    /// An `svg` below the root, or another element as the root.
    #[error("no single svg root")]
    NoSingleRoot,
    /// A tag whose attributes do not parse (the element).
    #[error("a malformed <{0}> tag")]
    MalformedTag(String),
    /// An attribute without `=` (the attribute).
    #[error("attribute {0} without a value")]
    NoValue(String),
    /// An attribute value without quotes.
    #[error("an unquoted attribute")]
    Unquoted,
    /// An attribute value without its closing quote.
    #[error("an unclosed attribute")]
    UnclosedAttribute,
    /// A root with neither `viewBox` nor `width` and `height`.
    #[error("an svg root without a size")]
    NoSize,
    /// The text ends before the root closes, or has no root.
    #[error("an unclosed or missing svg root")]
    NoRoot,
    /// An attribute mtrain's plots do not use (its name, at most 30 characters).
    #[error("attribute {0}")]
    Attribute(String),
    /// An `xmlns` other than SVG's.
    #[error("another XML namespace")]
    Namespace,
    /// A value that is not a plain number, colour or name (the attribute).
    #[error("a {0} value that is not a plain number, colour or name")]
    Value(String),
    /// A `&` without its `;`.
    #[error("a bare &")]
    BareAmpersand,
    /// A character reference that is not one of the five XML entities or a valid code point
    /// (its name, at most 12 characters).
    #[error("the entity &{0};")]
    Entity(String),
}

/// `text`, an SVG file, checked and written out again for inline use (its size attributes
/// dropped, so that it scales to the page), with `class` on its root.
///
/// # Errors
/// Why it is not an SVG as mtrain writes it, in a few words.
pub(super) fn sanitize(text: &str, class: &str) -> Result<String, NotOurs> {
    if text.len() > MAX_SVG_BYTES {
        return Err(NotOurs::TooLarge { mib: MAX_SVG_BYTES >> 20 });
    }
    let mut p = Parser { s: text, i: 0 };
    let mut out = String::with_capacity(text.len());
    let mut stack: Vec<&str> = Vec::new();
    let mut root_done = false;
    p.skip_ws();
    if p.rest().starts_with("<?xml") {
        let end = p.rest().find("?>").ok_or(NotOurs::UnclosedDeclaration)?;
        p.i += end + 2;
    }
    loop {
        if p.i >= p.s.len() {
            break;
        }
        if !p.rest().starts_with('<') {
            let end = p.rest().find('<').unwrap_or(p.rest().len());
            let raw = &p.rest()[..end];
            p.i += end;
            if raw.trim().is_empty() {
                if !stack.is_empty() {
                    out.push_str(raw);
                }
                continue;
            }
            if stack.last() != Some(&"text") {
                return Err(NotOurs::TextOutsideText);
            }
            out.push_str(&esc(&decode(raw)?));
            continue;
        }
        if root_done {
            return Err(NotOurs::AfterRoot);
        }
        let rest = p.rest();
        // The one comment mtrain's plots hold, their mark, is dropped; any other is refused.
        if rest.starts_with(crate::report::plot::PLOT_MARK) {
            p.i += crate::report::plot::PLOT_MARK.len();
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("<?") {
            return Err(NotOurs::Markup);
        }
        if let Some(after) = rest.strip_prefix("</") {
            let end = after.find('>').ok_or(NotOurs::UnclosedTag)?;
            let name = after[..end].trim();
            if stack.pop() != Some(name) {
                return Err(NotOurs::MisplacedEnd(name.chars().take(20).collect()));
            }
            out.push_str("</");
            out.push_str(name);
            out.push('>');
            p.i += 2 + end + 1;
            root_done = stack.is_empty();
            continue;
        }
        p.i += 1;
        let name = p.name();
        if !ELEMENTS.contains(&name) {
            return Err(NotOurs::Element(name.chars().take(20).collect()));
        }
        if (name == "svg") != stack.is_empty() {
            return Err(NotOurs::NoSingleRoot);
        }
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        let closed = loop {
            p.skip_ws();
            if p.rest().starts_with("/>") {
                p.i += 2;
                break true;
            }
            if p.rest().starts_with('>') {
                p.i += 1;
                break false;
            }
            let key = p.name();
            if key.is_empty() {
                return Err(NotOurs::MalformedTag(name.to_string()));
            }
            p.skip_ws();
            if !p.rest().starts_with('=') {
                return Err(NotOurs::NoValue(key.to_string()));
            }
            p.i += 1;
            p.skip_ws();
            let quote = p.rest().chars().next().filter(|&c| c == '"' || c == '\'').ok_or(NotOurs::Unquoted)?;
            p.i += 1;
            let end = p.rest().find(quote).ok_or(NotOurs::UnclosedAttribute)?;
            let value = &p.rest()[..end];
            p.i += end + 1;
            check_attribute(key, value)?;
            attrs.push((key, value));
        };
        out.push('<');
        out.push_str(name);
        if name == "svg" {
            let size = |k: &str| attrs.iter().find(|a| a.0 == k).map(|a| a.1);
            let view = match (size("viewBox"), size("width"), size("height")) {
                (Some(v), _, _) => v.to_string(),
                (None, Some(w), Some(h)) => format!("0 0 {w} {h}"),
                _ => return Err(NotOurs::NoSize),
            };
            let _ = write!(out, " class=\"{}\" viewBox=\"{view}\" xmlns=\"http://www.w3.org/2000/svg\"", esc(class));
            let _ = write!(out, " role=\"img\" preserveAspectRatio=\"xMidYMid meet\"");
        } else {
            for (k, v) in &attrs {
                let _ = write!(out, " {k}=\"{v}\"");
            }
        }
        if closed {
            out.push_str("/>");
            root_done = stack.is_empty();
        } else {
            out.push('>');
            stack.push(name);
        }
    }
    if !root_done || !stack.is_empty() {
        return Err(NotOurs::NoRoot);
    }
    Ok(out)
}

/// Checks one attribute against what mtrain's plots write.
fn check_attribute(key: &str, value: &str) -> Result<(), NotOurs> {
    if !ATTRIBUTES.contains(&key) && !MORE_ATTRIBUTES.contains(&key) {
        return Err(NotOurs::Attribute(key.chars().take(30).collect()));
    }
    if key == "xmlns" {
        return if value == "http://www.w3.org/2000/svg" { Ok(()) } else { Err(NotOurs::Namespace) };
    }
    let plain = value.chars().all(|c| c.is_ascii_alphanumeric() || " #.,%()+-_".contains(c));
    let lower = value.to_ascii_lowercase();
    if !plain || lower.contains("url") || lower.contains("script") || lower.contains("expression") {
        return Err(NotOurs::Value(key.to_string()));
    }
    Ok(())
}

/// Decodes the character references of a text node (the five XML entities and numeric ones).
fn decode(raw: &str) -> Result<String, NotOurs> {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let end = rest[at..].find(';').ok_or(NotOurs::BareAmpersand)? + at;
        let name = &rest[at + 1..end];
        let c = match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(hex) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                    u32::from_str_radix(hex, 16).ok()
                } else {
                    name.strip_prefix('#').and_then(|d| d.parse().ok())
                };
                code.and_then(char::from_u32).ok_or_else(|| NotOurs::Entity(name.chars().take(12).collect()))?
            }
        };
        out.push(c);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A cursor over the SVG text.
struct Parser<'a> {
    s: &'a str,
    i: usize,
}

impl<'a> Parser<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.i..]
    }

    fn skip_ws(&mut self) {
        let r = self.rest();
        self.i += r.len() - r.trim_start().len();
    }

    /// An element or attribute name (letters, digits, `-`, `:`), possibly empty.
    fn name(&mut self) -> &'a str {
        let r = self.rest();
        let n = r.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == ':')).unwrap_or(r.len());
        self.i += n;
        &r[..n]
    }
}

/// A bot's rating as `ratings.csv` states it, for the chart.
pub(super) struct Rated {
    pub(super) name: String,
    pub(super) elo: f64,
    pub(super) lo: Option<f64>,
    pub(super) hi: Option<f64>,
    pub(super) anchor: bool,
}

/// The ratings chart: a row per bot (in the order given), its Elo as a dot, its 95% interval as
/// a bar, the anchor's 0 as a line; sized by its `viewBox`, so it scales with the page.
pub(super) fn ratings_chart(bots: &[Rated]) -> String {
    const PLOT: f64 = 250.0;
    const ROW: f64 = 30.0;
    const TOP: f64 = 16.0;
    const AXIS: f64 = 40.0;
    let label_chars = bots.iter().map(|b| b.name.chars().count()).max().unwrap_or(4).clamp(4, 24);
    let left = 12.0 + 7.2 * label_chars as f64;
    let value_chars = bots
        .iter()
        .map(|b| match (b.lo, b.hi) {
            _ if b.anchor => signed(b.elo).len() + 9,
            (Some(l), Some(h)) => signed(b.elo).len() + signed(l).len() + signed(h).len() + 5,
            _ => signed(b.elo).len(),
        })
        .max()
        .unwrap_or(4);
    let right = left + PLOT;
    let w = (right + 16.0 + 7.6 * value_chars as f64).ceil();
    // Drawn larger than its coordinates where there is room; smaller on a phone.
    let (shown_w, shown_h) = ((1.2 * w).round(), (1.2 * (TOP + ROW * bots.len() as f64 + AXIS)).round());
    let (mut lo, mut hi) = (0.0_f64, 0.0_f64);
    for b in bots {
        lo = lo.min(b.lo.unwrap_or(b.elo)).min(b.elo);
        hi = hi.max(b.hi.unwrap_or(b.elo)).max(b.elo);
    }
    let step = nice_step((hi - lo).max(1.0) / 4.0);
    let (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    let hi = if hi <= lo { lo + step } else { hi };
    let x = |v: f64| left + (v - lo) / (hi - lo) * (right - left);
    let height = TOP + ROW * bots.len() as f64 + AXIS;
    let bottom = TOP + ROW * bots.len() as f64;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"chart ratings\" width=\"{shown_w}\" height=\"{shown_h}\" viewBox=\"0 0 {w} {height}\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"Elo ratings with 95% intervals\">"
    );
    let mut t = lo;
    while t <= hi + step / 2.0 {
        let _ = write!(
            s,
            "<line class=\"grid{}\" x1=\"{:.1}\" y1=\"{TOP}\" x2=\"{:.1}\" y2=\"{bottom}\"/><text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            if t.abs() < step / 1e6 { " zero" } else { "" },
            x(t),
            x(t),
            x(t),
            bottom + 18.0,
            signed(t)
        );
        t += step;
    }
    let _ = write!(
        s,
        "<text class=\"axis\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">Elo (anchor = 0); bars: 95% interval</text>",
        (left + right) / 2.0,
        bottom + 36.0
    );
    for (i, b) in bots.iter().enumerate() {
        let y = TOP + ROW * (i as f64 + 0.5);
        let mut name: String = b.name.chars().take(24).collect();
        if b.name.chars().count() > 24 {
            name.push('…');
        }
        let _ = write!(
            s,
            "<g class=\"bot\" data-bot=\"{}\"><title>{}</title><text class=\"name\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            esc(&b.name),
            esc(&b.name),
            left - 8.0,
            y + 4.5,
            esc(&name)
        );
        if let (Some(l), Some(h)) = (b.lo, b.hi)
            && !b.anchor
        {
            let _ = write!(
                s,
                "<line class=\"bar\" x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/><line class=\"bar\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/><line class=\"bar\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                x(l),
                x(h),
                x(l),
                y - 6.0,
                x(l),
                y + 6.0,
                x(h),
                y - 6.0,
                x(h),
                y + 6.0
            );
        }
        let text = match (b.lo, b.hi) {
            _ if b.anchor => format!("{} (anchor)", signed(b.elo)),
            (Some(l), Some(h)) => format!("{} [{}, {}]", signed(b.elo), signed(l), signed(h)),
            _ => signed(b.elo),
        };
        let _ = write!(
            s,
            "<circle class=\"dot{}\" cx=\"{:.1}\" cy=\"{y:.1}\" r=\"5\"/><text class=\"value\" x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            if b.anchor { " anchor" } else { "" },
            x(b.elo),
            right + 10.0,
            y + 4.5,
            esc(&text)
        );
    }
    s.push_str("</svg>");
    s
}

/// A tick step of 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * p).find(|&s| s >= raw).unwrap_or(10.0 * p)
}

/// An Elo figure rounded to a whole number with its sign, as the console prints it.
pub(super) fn signed(v: f64) -> String {
    let r = v.round();
    if r == 0.0 { "0".to_string() } else { format!("{r:+.0}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLOT: &str = "<svg width=\"960\" height=\"600\" viewBox=\"0 0 960 600\" xmlns=\"http://www.w3.org/2000/svg\">\n<rect x=\"0\" y=\"0\" width=\"960\" height=\"600\" opacity=\"1\" fill=\"#FFFFFF\" stroke=\"none\"/>\n<text x=\"480\" y=\"19\" dy=\"0.76em\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"14.5\" opacity=\"1\" fill=\"#000000\" transform=\"rotate(270, 14, 289)\">\nexpert&apos;s budget &lt; 5 &amp; more\n</text>\n<polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\" stroke-width=\"2\" points=\"1,2 3,4 \"/>\n</svg>\n";

    #[test]
    fn an_mtrain_plot_is_embedded_with_its_text_re_escaped_and_its_size_dropped() {
        let out = sanitize(PLOT, "plot").unwrap();
        assert!(out.starts_with("<svg class=\"plot\" viewBox=\"0 0 960 600\""), "{out}");
        let root = &out[..out.find('>').unwrap()];
        assert!(!root.contains("width=") && !root.contains("height="), "{root}");
        assert!(out.contains("expert&#39;s budget &lt; 5 &amp; more"), "{out}");
        assert!(out.contains(
            "<polyline fill=\"none\" opacity=\"1\" stroke=\"#0072B2\" stroke-width=\"2\" points=\"1,2 3,4 \"/>"
        ));
        assert!(out.ends_with("</svg>"), "{out}");
    }

    /// A plot as `mtrain plot` writes it now, its mark after the opening tag, is shown inline
    /// (without the mark); another comment in the same place is still refused.
    #[test]
    fn a_plot_with_its_mark_is_embedded() {
        let at = PLOT.find('>').unwrap() + 1;
        let marked = format!("{}{}{}", &PLOT[..at], crate::report::plot::PLOT_MARK, &PLOT[at..]);
        let out = sanitize(&marked, "plot").unwrap();
        assert_eq!(out, sanitize(PLOT, "plot").unwrap());
        let other = marked.replace("written by mtrain plot", "written by hand");
        assert!(sanitize(&other, "plot").unwrap_err().to_string().contains("comment"));
    }

    #[test]
    fn anything_mtrain_does_not_draw_is_refused() {
        let cases = [
            (PLOT.replace("<rect", "<script>alert(1)</script><rect"), "element <script>"),
            (
                PLOT.replace("opacity=\"1\" fill=\"#FFFFFF\"", "onload=\"alert(1)\" fill=\"#FFFFFF\""),
                "attribute onload",
            ),
            (PLOT.replace("fill=\"#FFFFFF\"", "fill=\"url(#x)\""), "fill value"),
            (PLOT.replace("fill=\"#FFFFFF\"", "fill=\"a&quot;b\""), "fill value"),
            (PLOT.replace("<rect", "<!-- hi --><rect"), "comment"),
            (PLOT.replace("&amp;", "&nbsp;"), "entity &nbsp;"),
            (PLOT.replace("</svg>", "</svg><svg></svg>"), "after the root"),
            (PLOT.replace("</svg>\n", ""), "unclosed"),
            (PLOT.replace("xmlns=\"http://www.w3.org/2000/svg\"", "xmlns=\"http://example.org/x\""), "namespace"),
            ("<html><svg></svg></html>".to_string(), "element <html>"),
            ("not a plot".to_string(), "text outside"),
            (String::new(), "missing svg root"),
        ];
        for (svg, why) in cases {
            let e = sanitize(&svg, "plot").unwrap_err().to_string();
            assert!(e.contains(why), "expected '{why}', got '{e}'");
        }
    }

    #[test]
    fn every_committed_plot_passes() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let files = [
            "results/ladder/skill_curve.svg",
            "results/balance/d12-wikipedia-seed1/skill.svg",
            "results/turn-order/first_player_advantage.svg",
            // Written since plots carry their mark.
            "results/ladder/league-ratings-wikipedia.svg",
        ];
        for f in files {
            let text = std::fs::read_to_string(root.join(f)).unwrap();
            sanitize(&text, "plot").unwrap_or_else(|e| panic!("{f}: {e}"));
        }
    }

    #[test]
    fn the_ratings_chart_has_a_row_per_bot_and_bars_for_intervals() {
        let bots = [
            Rated { name: "planner".into(), elo: 254.88, lo: Some(165.76), hi: Some(344.0), anchor: false },
            Rated { name: "greedy".into(), elo: 0.0, lo: Some(0.0), hi: Some(0.0), anchor: true },
            Rated { name: "<b>".into(), elo: -81.48, lo: Some(-151.01), hi: Some(-11.96), anchor: false },
        ];
        let svg = ratings_chart(&bots);
        assert_eq!(svg.matches("<g class=\"bot\"").count(), 3);
        assert_eq!(svg.matches("class=\"bar\"").count(), 6);
        assert!(svg.contains(">+255 [+166, +344]</text>"), "{svg}");
        assert!(svg.contains(">0 (anchor)</text>"), "{svg}");
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"), "{svg}");
        assert!(svg.contains("class=\"grid zero\""), "{svg}");
        assert_eq!(nice_step(0.9), 1.0);
        assert_eq!(nice_step(96.0), 100.0);
        assert_eq!(nice_step(31.0), 50.0);
    }
}
