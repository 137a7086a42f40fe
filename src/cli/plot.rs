//! `mtrain plot`: an SVG chart from any CSV mtrain writes, for the study scripts.
//!
//! `--kind line` draws `--y` against a numeric `--x`, one line per `--group`; `--kind dot` draws a
//! row per distinct `--x` (a category, in order of first appearance) with `--y` on the horizontal
//! axis, one colour per `--group`. `--lo`/`--hi` add interval bars, `--where COL=VALUE` keeps
//! matching rows. Bad input (no such file or column, a non-number, no rows left) is one line and
//! exit code 2, and nothing is written.

use super::{CliError, check_out_file, refuse_foreign_file, write_atomic};
use crate::report::plot::{Chart, DotChart, DotGroup, Series, dot_chart_svg, line_chart_svg};
use clap::Args;
use std::path::PathBuf;

/// Options of `mtrain plot`.
#[derive(Args, Debug, Clone)]
pub(crate) struct PlotArgs {
    /// The CSV file (lines starting with # are skipped)
    #[arg(long, value_name = "FILE")]
    csv: PathBuf,
    /// Chart kind [valid: line, dot]
    #[arg(long, default_value = "line", value_name = "KIND")]
    kind: String,
    /// Column for the x axis (line) or the rows (dot)
    #[arg(long, value_name = "COL")]
    x: String,
    /// Column of the values
    #[arg(long, value_name = "COL")]
    y: String,
    /// Column of the interval's lower end
    #[arg(long, value_name = "COL")]
    lo: Option<String>,
    /// Column of the interval's upper end
    #[arg(long, value_name = "COL")]
    hi: Option<String>,
    /// Column whose values make the lines (line) or colours (dot)
    #[arg(long, value_name = "COL")]
    group: Option<String>,
    /// Text before each group's value in the legend, e.g. "players: "
    #[arg(long, default_value = "", value_name = "TEXT")]
    group_prefix: String,
    /// Keep only rows whose column equals the value (repeatable)
    #[arg(long = "where", value_name = "COL=VALUE")]
    filter: Vec<String>,
    /// Chart title
    #[arg(long, default_value = "", value_name = "TEXT")]
    title: String,
    /// X-axis label [default: the x column]
    #[arg(long, value_name = "TEXT")]
    x_label: Option<String>,
    /// Y-axis label [default: the y column]
    #[arg(long, value_name = "TEXT")]
    y_label: Option<String>,
    /// The values are shares: show them as percentages
    #[arg(long)]
    percent: bool,
    /// Draw a reference line at this value
    #[arg(long, value_name = "V")]
    reference: Option<f64>,
    /// The SVG file to write
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Replace an existing file at --out even if it is not a plot mtrain wrote
    #[arg(long)]
    force: bool,
}

use crate::report::plot::PLOT_MARK;

struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn read(path: &PathBuf) -> Result<Table, CliError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::usage(format!("cannot read --csv '{}': {e}", path.display())))?;
        let body: String = text.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
        let mut r = csv::ReaderBuilder::new().has_headers(true).from_reader(body.as_bytes());
        let bad = |e: csv::Error| CliError::usage(format!("cannot parse --csv '{}': {e}", path.display()));
        let header = r.headers().map_err(bad)?.iter().map(str::to_string).collect();
        let rows: Vec<Vec<String>> = r
            .records()
            .map(|rec| rec.map(|x| x.iter().map(str::to_string).collect()))
            .collect::<Result<_, _>>()
            .map_err(bad)?;
        let header: Vec<String> = header;
        if header.iter().all(|h: &String| h.trim().is_empty()) {
            return Err(CliError::usage(format!(
                "--csv '{}' is empty: expected a header line and rows, as mtrain writes them",
                path.display()
            )));
        }
        if rows.is_empty() {
            return Err(CliError::usage(format!(
                "--csv '{}' has a header but no rows: nothing to plot",
                path.display()
            )));
        }
        Ok(Table { header, rows })
    }

    fn col(&self, name: &str, flag: &str) -> Result<usize, CliError> {
        self.header.iter().position(|h| h == name).ok_or_else(|| {
            CliError::usage(format!("{flag} '{name}' is not a column (valid: {})", self.header.join(", ")))
        })
    }
}

fn number(v: &str, col: &str) -> Result<f64, CliError> {
    v.trim().parse().map_err(|_| CliError::usage(format!("column '{col}' holds '{v}', not a number")))
}

type Point = (String, String, f64, Option<(f64, f64)>);

pub(crate) fn run(a: &PlotArgs) -> Result<(), CliError> {
    let kind = a.kind.trim();
    if kind != "line" && kind != "dot" {
        return Err(CliError::usage(format!("unknown --kind '{kind}' (valid: line, dot)")));
    }
    check_out_file("--out", &a.out)?;
    refuse_foreign_file("--out", &a.out, a.force, "a plot", |head| head.contains(PLOT_MARK))?;
    let t = Table::read(&a.csv)?;
    let x = t.col(&a.x, "--x")?;
    let y = t.col(&a.y, "--y")?;
    let lo = a.lo.as_deref().map(|c| t.col(c, "--lo")).transpose()?;
    let hi = a.hi.as_deref().map(|c| t.col(c, "--hi")).transpose()?;
    if lo.is_some() != hi.is_some() {
        return Err(CliError::usage("--lo and --hi go together: give both or neither"));
    }
    let group = a.group.as_deref().map(|c| t.col(c, "--group")).transpose()?;
    let mut filters = Vec::new();
    for f in &a.filter {
        let (c, v) =
            f.split_once('=').ok_or_else(|| CliError::usage(format!("invalid --where '{f}': expected COL=VALUE")))?;
        filters.push((t.col(c.trim(), "--where")?, v.trim().to_string()));
    }
    // (group, x, y, interval) for every kept row with a value (empty cells are skipped).
    let mut points: Vec<Point> = Vec::new();
    for row in &t.rows {
        if !filters.iter().all(|(c, v)| row.get(*c).is_some_and(|x| x == v)) {
            continue;
        }
        let cell = |i: usize| row.get(i).map_or("", String::as_str);
        if cell(y).is_empty() {
            continue;
        }
        let value = number(cell(y), &a.y)?;
        let ci = match (lo, hi) {
            (Some(l), Some(h)) if !cell(l).is_empty() && !cell(h).is_empty() => {
                Some((number(cell(l), &t.header[l])?, number(cell(h), &t.header[h])?))
            }
            _ => None,
        };
        let g = group.map_or(String::new(), |g| format!("{}{}", a.group_prefix, cell(g)));
        points.push((g, cell(x).to_string(), value, ci));
    }
    if points.is_empty() {
        return Err(CliError::usage(format!("no rows of '{}' to plot (check --where and --y)", a.csv.display())));
    }
    let mut groups: Vec<String> = Vec::new();
    for p in &points {
        if !groups.contains(&p.0) {
            groups.push(p.0.clone());
        }
    }
    let x_label = a.x_label.clone().unwrap_or_else(|| a.x.clone());
    let y_label = a.y_label.clone().unwrap_or_else(|| a.y.clone());
    let svg = if kind == "line" {
        let mut series = Vec::new();
        for g in &groups {
            let mut pts = Vec::new();
            for p in points.iter().filter(|p| &p.0 == g) {
                pts.push((number(&p.1, &a.x)?, p.2, p.3));
            }
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            // Two rows at one x in one line would draw a zigzag between them.
            if let Some(w) = pts.windows(2).find(|w| w[0].0 == w[1].0) {
                let at = w[0].0;
                let same: Vec<&Vec<String>> = t
                    .rows
                    .iter()
                    .filter(|r| filters.iter().all(|(c, v)| r.get(*c).is_some_and(|x| x == v)))
                    .filter(|r| group.is_none_or(|gc| format!("{}{}", a.group_prefix, r[gc]) == *g))
                    .filter(|r| r.get(x).and_then(|v| v.trim().parse::<f64>().ok()) == Some(at))
                    .collect();
                let varying: Vec<&str> = (0..t.header.len())
                    .filter(|&c| c != x && c != y && Some(c) != lo && Some(c) != hi)
                    .filter(|&c| same.iter().any(|r| r.get(c) != same[0].get(c)))
                    .map(|c| t.header[c].as_str())
                    .collect();
                return Err(CliError::usage(format!(
                    "{} rows share --x {} = {}{}: one line through them would zigzag; draw one line per group with --group COL or keep one row per x with --where COL=VALUE (columns that differ there: {})",
                    same.len(),
                    a.x,
                    w[0].0,
                    if g.is_empty() { String::new() } else { format!(" in line '{g}'") },
                    if varying.is_empty() { "none".to_string() } else { varying.join(", ") }
                )));
            }
            series.push(Series { label: g.clone(), points: pts });
        }
        let chart = Chart {
            title: &a.title,
            x_label: &x_label,
            y_label: &y_label,
            percent: a.percent,
            references: a.reference.as_slice(),
            note: "",
            series: &series,
        };
        line_chart_svg(&chart, (960, 600))
    } else {
        let mut rows: Vec<String> = Vec::new();
        for p in &points {
            if !rows.contains(&p.1) {
                rows.push(p.1.clone());
            }
        }
        let dots: Vec<DotGroup> = groups
            .iter()
            .map(|g| {
                let pts = points
                    .iter()
                    .filter(|p| &p.0 == g)
                    .map(|p| (rows.iter().position(|r| r == &p.1).expect("listed"), p.2, p.3))
                    .collect();
                (g.clone(), pts)
            })
            .collect();
        let chart = DotChart {
            title: &a.title,
            x_label: &y_label,
            percent: a.percent,
            reference: a.reference,
            rows: &rows,
            groups: &dots,
        };
        dot_chart_svg(&chart, 960)
    }
    .map_err(CliError::usage)?;
    // The mark goes right after the opening tag (a comment is allowed anywhere in the SVG).
    let svg = match svg.find('>') {
        Some(i) => format!("{}\n{PLOT_MARK}{}", &svg[..=i], &svg[i + 1..]),
        None => svg,
    };
    write_atomic(&a.out, svg.as_bytes())
}
