//! SVG line charts for the studies: a metric against x (a hand size, an iteration, a time), one
//! line per group (a player count), each point with its 95% interval drawn as a vertical bar.
//! An x that takes whole values only (hand sizes) gets a tick at each whole value and half a unit
//! of room either side; any other x gets an evenly ticked continuous axis.
//!
//! The title and the legend are fitted to the canvas: the legend is as wide as its longest label
//! (up to two fifths of the width), a title too long for the width is set smaller and, below
//! 12 px, shortened in the middle with "…". Lines past the palette's ten colours are dashed.
//!
//! Drawn with plotters' SVG backend alone: text goes out as SVG `<text>`, so no font files or
//! system fonts are needed, and the same data always gives the same bytes.

use plotters::prelude::*;

/// The comment `mtrain plot` writes after an SVG's opening tag: how it knows a plot of its own
/// (the one kind of file it replaces without --force), and the one comment a report page
/// accepts in a plot it shows inline.
pub const PLOT_MARK: &str = "<!-- written by mtrain plot -->";

/// A point: `(x, y, 95% interval)`.
pub type Point = (f64, f64, Option<(f64, f64)>);

/// One line of a chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// `(x, y, interval)` points in x order.
    pub points: Vec<Point>,
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct Chart<'a> {
    /// Title above the plot.
    pub title: &'a str,
    /// X-axis description.
    pub x_label: &'a str,
    /// Y-axis description.
    pub y_label: &'a str,
    /// Show y as a percentage (the data are fractions).
    pub percent: bool,
    /// Draw a horizontal reference line at each of these y (e.g. a limit, or a floor and a ceiling).
    pub references: &'a [f64],
    /// What the reference lines are, under the legend (lines split at `; `); empty: nothing.
    pub note: &'a str,
    /// The lines.
    pub series: &'a [Series],
}

/// Pixels right of the plot for the legend, at least (it widens to its longest label).
const LEGEND_WIDTH: u32 = 130;

/// The width of `text` at `px` pixels in a sans-serif face, estimated (about 0.56 of the size a
/// character): the SVG is drawn without font files, so no measured metrics are at hand.
fn text_width(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * px * 0.56
}

/// `text` shortened in the middle with "…" to at most `px`-pixel text `width` wide.
fn elide(text: &str, width: f64, px: f64) -> String {
    // Half a pixel of slack: a width computed from this very text must not shorten it.
    if text_width(text, px) <= width + 0.5 {
        return text.to_string();
    }
    let keep = ((width / (px * 0.56)) as usize).saturating_sub(1).max(2);
    let chars: Vec<char> = text.chars().collect();
    let head = keep.div_ceil(2);
    let tail = keep - head;
    chars[..head].iter().chain(std::iter::once(&'…')).chain(&chars[chars.len() - tail..]).collect()
}

/// The title's text and font size for a canvas `w` pixels wide: 18 px when it fits, smaller down
/// to 12 px, then shortened.
fn fitted_title(title: &str, w: u32) -> (String, f64) {
    let room = f64::from(w) - 28.0;
    let px = (room / text_width(title, 1.0)).clamp(12.0, 18.0).floor();
    (elide(title, room, px), px)
}

/// The legend's width for these labels (`marker` pixels of line or dot before each), at most two
/// fifths of a canvas `w` wide, and the labels shortened to fit it.
fn fitted_legend<'s>(labels: impl Iterator<Item = &'s str> + Clone, marker: f64, w: u32) -> (u32, Vec<String>) {
    let widest = labels.clone().map(|l| text_width(l, 14.0)).fold(0.0, f64::max);
    let width = (marker + widest + 8.0).clamp(f64::from(LEGEND_WIDTH), f64::from(w) * 0.4);
    (width.ceil() as u32, labels.map(|l| elide(l, width - marker - 8.0, 14.0)).collect())
}

/// A colour-blind-safe palette (Okabe–Ito), then greys.
const COLOURS: [RGBColor; 10] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
    RGBColor(120, 120, 120),
    RGBColor(170, 68, 153),
];

/// The value axis from `lo` to `hi`, widened to show the reference lines and padded by 6%.
fn padded(lo: f64, hi: f64, references: &[f64]) -> (f64, f64) {
    let (lo, hi) = references.iter().fold((lo, hi), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    let pad = ((hi - lo) * 0.06).max(1e-9);
    (lo - pad, hi + pad)
}

/// Tick labels for an axis spanning `span`: shares as percentages, with enough decimals that
/// neighbouring ticks differ.
fn value_format(span: f64, percent: bool) -> impl Fn(&f64) -> String {
    let digits = |scaled: f64| {
        if scaled >= 20.0 {
            0
        } else if scaled >= 2.0 {
            1
        } else {
            2
        }
    };
    move |v: &f64| {
        let (scaled, places, unit) =
            if percent { (v * 100.0, digits(span * 100.0), "%") } else { (*v, digits(span), "") };
        let text = format!("{scaled:.places$}{unit}");
        // A tick a rounding error below zero reads "0", not "-0".
        match text.strip_prefix('-') {
            Some(rest) if rest.chars().all(|c| matches!(c, '0' | '.' | '%')) => rest.to_string(),
            _ => text,
        }
    }
}

/// Renders `chart` as an SVG document of `size` pixels.
///
/// # Errors
/// A message when there is nothing to draw or the backend fails.
pub fn line_chart_svg(chart: &Chart<'_>, size: (u32, u32)) -> Result<String, crate::error::PlotError> {
    let pts = chart.series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
    for &(x, y, ci) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        let (lo, hi) = ci.unwrap_or((y, y));
        y0 = y0.min(y).min(lo);
        y1 = y1.max(y).max(hi);
    }
    if !x0.is_finite() || !y0.is_finite() {
        return Err(format!("nothing to plot for {}", chart.title).into());
    }
    let (y0, y1) = padded(y0, y1, chart.references);
    // Whole-valued x (hand sizes, iterations): a tick at whole values, half a unit of room either
    // side. Any other x: a continuous axis padded like the values.
    let whole = chart.series.iter().flat_map(|s| &s.points).all(|p| (p.0 - p.0.round()).abs() < 1e-9);
    let (xa, xb) = if whole { (x0 - 0.5, x1 + 0.5) } else { padded(x0, x1, &[]) };
    let x_ticks = if whole { ((x1 - x0) as usize + 2).min(24) } else { 10 };
    let x_cont = value_format(x1 - x0, false);
    let x_fmt = move |v: &f64| {
        if !whole {
            x_cont(v)
        } else if (v - v.round()).abs() < 1e-6 {
            format!("{v:.0}")
        } else {
            String::new()
        }
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let (w, _) = size;
        let labelled = chart.series.iter().any(|s| !s.label.is_empty());
        let (legend, labels) = fitted_legend(chart.series.iter().map(|s| s.label.as_str()), 30.0, w);
        let legend = if labelled { legend } else { 0 };
        let (title, title_px) = fitted_title(chart.title, w);
        let mut c = ChartBuilder::on(&root)
            .caption(&title, ("sans-serif", title_px))
            .margin(14)
            .margin_right(legend + 14)
            .x_label_area_size(46)
            .y_label_area_size(70)
            .build_cartesian_2d(xa..xb, y0..y1)
            .map_err(e)?;
        let y_fmt = value_format(y1 - y0, chart.percent);
        c.configure_mesh()
            .x_desc(chart.x_label)
            .y_desc(chart.y_label)
            .x_labels(x_ticks)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()
            .map_err(e)?;
        for &r in chart.references {
            c.draw_series(LineSeries::new([(xa, r), (xb, r)], BLACK.mix(0.5).stroke_width(1))).map_err(e)?;
        }
        // Series sit side by side around each x so that their interval bars do not overlap (on
        // a continuous axis, by a share of its span).
        let k = chart.series.len() as f64;
        let unit = if whole { 1.0 } else { (x1 - x0) / 24.0 };
        for (i, s) in chart.series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let dashed = i >= COLOURS.len();
            let dx = (i as f64 - (k - 1.0) / 2.0) * (0.5 / k.max(1.0)).min(0.08) * unit;
            let line = s.points.iter().map(|&(x, y, _)| (x + dx, y));
            if dashed {
                c.draw_series(DashedLineSeries::new(line, 7, 4, colour.stroke_width(2))).map_err(e)?;
            } else {
                c.draw_series(LineSeries::new(line, colour.stroke_width(2))).map_err(e)?;
            }
            c.draw_series(s.points.iter().map(|&(x, y, _)| Circle::new((x + dx, y), 3, colour.filled()))).map_err(e)?;
            let bars = s.points.iter().filter_map(|&(x, _, ci)| ci.map(|(lo, hi)| (x + dx, lo, hi)));
            c.draw_series(
                bars.map(|(x, lo, hi)| PathElement::new(vec![(x, lo), (x, hi)], colour.mix(0.8).stroke_width(1))),
            )
            .map_err(e)?;
            // Legend, right of the plot.
            if !s.label.is_empty() {
                let (lx, ly) = (w as i32 - legend as i32, 60 + 22 * i as i32);
                if dashed {
                    for (a, b) in [(0, 9), (14, 24)] {
                        root.draw(&PathElement::new(vec![(lx + a, ly), (lx + b, ly)], colour.stroke_width(3)))
                            .map_err(e)?;
                    }
                } else {
                    root.draw(&PathElement::new(vec![(lx, ly), (lx + 24, ly)], colour.stroke_width(3))).map_err(e)?;
                }
                root.draw(&Text::new(labels[i].clone(), (lx + 30, ly - 8), ("sans-serif", 14))).map_err(e)?;
            }
        }
        let mut ly = 60 + 22 * chart.series.len() as i32 + 10;
        let lx = w as i32 - legend as i32;
        if legend > 0 && chart.series.iter().any(|s| s.points.iter().any(|p| p.2.is_some())) {
            root.draw(&Text::new("bars: 95% interval", (lx, ly), ("sans-serif", 12))).map_err(e)?;
            ly += 18;
        }
        if legend > 0 {
            for line in chart.note.split("; ").filter(|l| !l.is_empty()) {
                root.draw(&Text::new(line.to_string(), (lx, ly), ("sans-serif", 12))).map_err(e)?;
                ly += 16;
            }
        }
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// A group of a dot chart: its legend label and `(row index, value, interval)` points.
pub type DotGroup = (String, Vec<(usize, f64, Option<(f64, f64)>)>);

/// A horizontal dot chart: one row per category (top to bottom in the given order), the value on
/// the x axis with its interval, one colour per group.
#[derive(Clone, Debug)]
pub struct DotChart<'a> {
    /// Title above the plot.
    pub title: &'a str,
    /// X-axis description (the value).
    pub x_label: &'a str,
    /// Show x as a percentage.
    pub percent: bool,
    /// A vertical reference line.
    pub reference: Option<f64>,
    /// Category names, top row first.
    pub rows: &'a [String],
    /// Groups: label and `(row index, value, interval)` points.
    pub groups: &'a [DotGroup],
}

/// Renders a [`DotChart`].
///
/// # Errors
/// A message when there is nothing to draw or the backend fails.
pub fn dot_chart_svg(chart: &DotChart<'_>, width: u32) -> Result<String, crate::error::PlotError> {
    let k = chart.rows.len();
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    for (_, pts) in chart.groups {
        for &(_, v, ci) in pts {
            let (lo, hi) = ci.unwrap_or((v, v));
            x0 = x0.min(v).min(lo);
            x1 = x1.max(v).max(hi);
        }
    }
    if k == 0 || !x0.is_finite() {
        return Err(format!("nothing to plot for {}", chart.title).into());
    }
    let (x0, x1) = padded(x0, x1, chart.reference.as_slice());
    let name_width = chart.rows.iter().map(|r| r.len()).max().unwrap_or(0) as u32 * 7 + 20;
    let row_px = (10 + 9 * chart.groups.len() as u32).max(26);
    let height = 120 + row_px * k as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let labelled = chart.groups.iter().any(|g| !g.0.is_empty());
        let (legend, labels) = fitted_legend(chart.groups.iter().map(|g| g.0.as_str()), 20.0, width);
        let legend = if labelled { legend } else { 0 };
        let (title, title_px) = fitted_title(chart.title, width);
        let mut c = ChartBuilder::on(&root)
            .caption(&title, ("sans-serif", title_px))
            .margin(14)
            .margin_right(legend + 14)
            .x_label_area_size(46)
            .y_label_area_size(name_width)
            .build_cartesian_2d(x0..x1, -0.5..(k as f64 - 0.5))
            .map_err(e)?;
        let x_fmt = value_format(x1 - x0, chart.percent);
        let rows = chart.rows;
        // Row i is drawn at y = k - 1 - i, so the first row is at the top.
        let y_fmt = move |v: &f64| {
            let i = k as f64 - 1.0 - v.round();
            if (v - v.round()).abs() < 1e-6 && i >= 0.0 && (i as usize) < k {
                rows[i as usize].clone()
            } else {
                String::new()
            }
        };
        c.configure_mesh()
            .x_desc(chart.x_label)
            .x_label_formatter(&x_fmt)
            .y_labels(k + 1)
            .y_label_formatter(&y_fmt)
            .label_style(("sans-serif", 13))
            .axis_desc_style(("sans-serif", 15))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()
            .map_err(e)?;
        if let Some(r) = chart.reference {
            c.draw_series(LineSeries::new([(r, -0.5), (r, k as f64 - 0.5)], BLACK.mix(0.5).stroke_width(1)))
                .map_err(e)?;
        }
        let g = chart.groups.len() as f64;
        for (j, (label, pts)) in chart.groups.iter().enumerate() {
            let colour = COLOURS[j % COLOURS.len()];
            let dy = (j as f64 - (g - 1.0) / 2.0) * (0.6 / g.max(1.0)).min(0.2);
            let y = |i: usize| k as f64 - 1.0 - i as f64 - dy;
            c.draw_series(pts.iter().map(|&(i, v, _)| Circle::new((v, y(i)), 4, colour.filled()))).map_err(e)?;
            let bars = pts.iter().filter_map(|&(i, _, ci)| ci.map(|(lo, hi)| (y(i), lo, hi)));
            c.draw_series(bars.map(|(y, lo, hi)| PathElement::new(vec![(lo, y), (hi, y)], colour.stroke_width(2))))
                .map_err(e)?;
            if !label.is_empty() {
                let (lx, ly) = (width as i32 - legend as i32, 60 + 22 * j as i32);
                root.draw(&Circle::new((lx + 8, ly), 4, colour.filled())).map_err(e)?;
                root.draw(&Text::new(labels[j].clone(), (lx + 20, ly - 8), ("sans-serif", 14))).map_err(e)?;
            }
        }
        root.present().map_err(e)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_lines_labels_and_intervals() {
        let series = vec![
            Series { label: "4 players".into(), points: vec![(10.0, 0.1, Some((0.08, 0.12))), (11.0, 0.2, None)] },
            Series { label: "6 players".into(), points: vec![(10.0, 0.3, Some((0.25, 0.35)))] },
        ];
        let chart = Chart {
            title: "blocked rounds",
            x_label: "tiles per player",
            y_label: "share of rounds",
            percent: true,
            references: &[0.05],
            note: "line: the 5% limit",
            series: &series,
        };
        let svg = line_chart_svg(&chart, (640, 400)).unwrap();
        assert!(svg.starts_with("<svg"));
        for text in [
            "blocked rounds",
            "tiles per player",
            "share of rounds",
            "4 players",
            "6 players",
            "30%",
            "line: the 5% limit",
        ] {
            assert!(svg.contains(text), "{text} missing");
        }
        assert_eq!(svg, line_chart_svg(&chart, (640, 400)).unwrap(), "deterministic");
        let f = value_format(0.3, true);
        assert_eq!((f(&-1e-17), f(&-0.05), f(&0.05)), ("0%".to_string(), "-5%".to_string(), "5%".to_string()));
        assert!(line_chart_svg(&Chart { series: &[], ..chart }, (640, 400)).is_err());
    }

    #[test]
    fn long_titles_and_labels_fit_and_colours_past_the_palette_are_dashed() {
        let series: Vec<Series> = (0..12)
            .map(|i| Series {
                label: format!("parameter_with_a_long_name_{i} [-2, 2]"),
                points: vec![(0.0, 0.1 * f64::from(i), None), (1.0, 0.05 * f64::from(i), None)],
            })
            .collect();
        let title = "SPSA trajectory of ".to_string() + &"weighted:pips=1,".repeat(20) + "unplayed=-0.2 (end)";
        let chart = Chart {
            title: &title,
            x_label: "iteration",
            y_label: "position",
            percent: true,
            references: &[],
            note: "",
            series: &series,
        };
        let svg = line_chart_svg(&chart, (900, 480)).unwrap();
        // The title is shortened in the middle, keeping both ends, and set at 12 px.
        assert!(!svg.contains(&title));
        assert!(svg.contains("SPSA trajectory of weighted") && svg.contains("(end)") && svg.contains('…'));
        assert_eq!(fitted_title(&title, 900).1, 12.0, "title size");
        // The legend is as wide as its longest label (here under two fifths of 900 px): every
        // label whole, starting that far from the right edge.
        assert!(svg.contains("parameter_with_a_long_name_11 [-2, 2]"));
        // A label that sets the legend's width is never shortened by it.
        for label in ["temp [0.05, 2]", "samples [8, 62]", "x", "a label of thirty-two characters"] {
            assert_eq!(fitted_legend([label].into_iter(), 30.0, 900).1, vec![label.to_string()]);
        }
        let legend_x = 900 - fitted_legend(series.iter().map(|s| s.label.as_str()), 30.0, 900).0;
        assert!(legend_x < 900 - LEGEND_WIDTH && svg.contains(&format!("x=\"{}\"", legend_x + 30)));
        // Ten colours, then dashes: the 11th and 12th lines are dashed paths.
        assert_eq!(svg.matches("stroke-dasharray").count(), 0, "plotters draws dashes as segments");
        assert!(svg.matches("<polyline").count() > 12 + 10, "dashed lines are drawn as several segments");
        // A short title stays at 18 px, whole.
        assert_eq!(fitted_title("blocked rounds", 640), ("blocked rounds".to_string(), 18.0));
        // 45 px of 10 px text holds 8 characters: 7 kept around the "…".
        assert_eq!(elide("abcdefghij", 45.0, 10.0), "abcd…hij");
        assert_eq!(elide("abcdefgh", 45.0, 10.0), "abcdefgh");
    }

    #[test]
    fn a_continuous_x_gets_its_own_ticks() {
        let series = vec![Series {
            label: String::new(),
            points: vec![(0.18, 0.4, None), (0.72, 0.56, None), (1.64, 0.6, None)],
        }];
        let chart = Chart {
            title: "skill",
            x_label: "ms per decision",
            y_label: "score",
            percent: true,
            references: &[],
            note: "",
            series: &series,
        };
        let svg = line_chart_svg(&chart, (640, 400)).unwrap();
        // Ticks inside the data's span with decimals (the whole-valued axis would label none).
        assert!(svg.contains(">\n0.4\n<") || svg.contains(">\n0.40\n<"), "a tick at 0.4");
        assert!(svg.contains(">\n1.6\n<") || svg.contains(">\n1.60\n<"), "a tick at 1.6");
    }
}
