//! `mtrain report DIR`: the page of each kind of run folder, and its refusals: a folder that is
//! not a run folder, a file mtrain did not write at the output path, a damaged or incomplete
//! folder; one line and exit code 2 each, nothing written or replaced.

mod common;
use common::{mtrain, run_ok, temp};
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `args`, expects exit code 2, nothing on stdout, one stderr line containing each of
/// `needles`.
// Stricter than `common::rejects`: also nothing on stdout.
fn rejects(args: &[&str], needles: &[&str]) {
    let out = mtrain(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(err.lines().count(), 1, "{args:?}: expected one line, got:\n{err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: '{err}' lacks '{n}'");
    }
}

/// A small two-player tournament of three bots in `dir`.
fn tournament(dir: &Path) {
    run_ok(&[
        "tournament",
        "--bots",
        "greedy,random,planner",
        "--players",
        "2",
        "--games",
        "60",
        "--seed",
        "5",
        "--quiet",
        "--out",
        s(dir),
    ]);
}

/// Every `href` of `page` that is not an anchor in the page.
fn links(page: &str) -> Vec<String> {
    page.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|h| !h.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// `href` (percent-encoded, relative) resolved against the folder `from`.
fn resolve(from: &Path, href: &str) -> PathBuf {
    let mut bytes = Vec::new();
    let b = href.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            bytes.push(u8::from_str_radix(&href[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            bytes.push(b[i]);
            i += 1;
        }
    }
    from.join(String::from_utf8(bytes).unwrap())
}

#[test]
fn a_folder_that_is_not_a_run_is_refused_naming_what_it_holds() {
    let d = temp("foreign");
    rejects(
        &["report", s(&d)],
        &["is not an mtrain run folder", "it is empty", "tally.json", "tune.json", "ladder.csv"],
    );
    std::fs::write(d.join("notes.txt"), "mine").unwrap();
    std::fs::write(d.join("data.csv"), "a,b\n1,2\n").unwrap();
    rejects(&["report", s(&d)], &["is not an mtrain run folder: it holds data.csv, notes.txt", "expected"]);
    assert!(!d.join("report.html").exists());
    let sprt = Path::new(env!("CARGO_MANIFEST_DIR")).join("results/sprt");
    rejects(&["report", s(&sprt), "--out", s(&d.join("x.html"))], &["holds README.md, runs.csv"]);
    rejects(&["report", s(&d.join("missing"))], &["does not exist"]);
    rejects(&["report", s(&d.join("notes.txt"))], &["is not a folder"]);
    // A state file mtrain does not know, or cannot read.
    std::fs::write(d.join("tally.json"), "{\"kind\":\"poker\"}").unwrap();
    rejects(&["report", s(&d)], &["of kind 'poker'"]);
    std::fs::write(d.join("tally.json"), "{\"kind\":").unwrap();
    rejects(&["report", s(&d)], &["tally.json", "not the JSON mtrain writes"]);
    assert!(!d.join("report.html").exists());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_file_mtrain_did_not_write_is_never_replaced_and_its_own_page_is() {
    let d = temp("safe");
    tournament(&d);
    let page = d.join("report.html");
    std::fs::write(&page, "<html>my notes</html>\n").unwrap();
    rejects(
        &["report", s(&d)],
        &["report.html' exists and is not a page mtrain report wrote", "<!-- mtrain report -->"],
    );
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "<html>my notes</html>\n");
    std::fs::remove_file(&page).unwrap();
    let said = run_ok(&["report", s(&d)]);
    assert!(said.contains("wrote") && said.contains("tournament report"), "{said}");
    let first = std::fs::read(&page).unwrap();
    assert!(first.starts_with(b"<!-- mtrain report -->\n<!DOCTYPE html>"));
    // Its own page is replaced, by the same bytes: nothing on the page depends on the clock.
    run_ok(&["report", s(&d)]);
    assert_eq!(std::fs::read(&page).unwrap(), first);
    // --out elsewhere: a folder, or a folder that does not exist, is refused.
    rejects(&["report", s(&d), "--out", s(&d)], &["is a folder"]);
    rejects(&["report", s(&d), "--out", s(&d.join("no/such.html"))], &["does not exist"]);
    // No temporary file is left behind.
    let left: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_tournament_page_shows_the_files_figures_and_links_to_them() {
    let d = temp("tournament");
    tournament(&d);
    let out = d.join("pages");
    std::fs::create_dir_all(&out).unwrap();
    run_ok(&["report", s(&d), "--out", s(&out.join("t.html"))]);
    let page = std::fs::read_to_string(out.join("t.html")).unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("manifest.json")).unwrap()).unwrap();
    // The header: seed, commit (when the build has one), rules.
    assert!(page.contains("<span class=\"seed\">5</span>"));
    if let Some(c) = manifest["commit"].as_str() {
        assert!(page.contains(c), "commit {c} missing");
    }
    assert!(page.contains("<code>wikipedia</code>, double-12, 2 players"));
    // A rating and a win rate, as ratings.csv and summary.csv state them.
    let ratings = std::fs::read_to_string(d.join("ratings.csv")).unwrap();
    let planner = ratings.lines().find(|l| l.starts_with("planner,")).unwrap();
    let cols: Vec<f64> = planner.split(',').skip(3).take(3).map(|x| x.parse().unwrap()).collect();
    let elo = format!("{:+.0} [{:+.0}, {:+.0}]", cols[0].round(), cols[1].round(), cols[2].round());
    assert!(page.contains(&elo), "rating {elo} missing");
    // A crosstable cell: wins, losses and draws of a pair.
    let pairs = std::fs::read_to_string(d.join("pairs.csv")).unwrap();
    let row: Vec<&str> = pairs.lines().nth(1).unwrap().split(',').collect();
    let cell = format!("data-row=\"{}\" data-col=\"{}\">{}&#8211;{}&#8211;{}<", row[0], row[1], row[3], row[4], row[5]);
    assert!(page.contains(&cell), "crosstable cell {cell} missing");
    let mirrored =
        format!("data-row=\"{}\" data-col=\"{}\">{}&#8211;{}&#8211;{}<", row[1], row[0], row[4], row[3], row[5]);
    assert!(page.contains(&mirrored), "crosstable cell {mirrored} missing");
    // The ratings chart is inline, with a bar per rated bot but the anchor.
    assert_eq!(page.matches("<svg class=\"chart ratings\"").count(), 1);
    assert_eq!(page.matches("class=\"bar\"").count(), 2 * 3);
    // No script, no address but the SVG namespace; every link is a file of the folder.
    let bare = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assert!(!page.contains("<script") && !bare.contains("http:") && !bare.contains("https:"));
    let hrefs = links(&page);
    assert!(hrefs.contains(&"../summary.csv".to_string()), "{hrefs:?}");
    for h in &hrefs {
        assert!(resolve(&out, h).is_file(), "link {h} points at nothing");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_damaged_folder_is_one_line_naming_the_file() {
    let d = temp("damaged");
    tournament(&d);
    let ratings = std::fs::read_to_string(d.join("ratings.csv")).unwrap();
    let without_se: String = ratings
        .lines()
        .map(|l| {
            let mut c: Vec<&str> = l.split(',').collect();
            c.remove(6);
            c.join(",") + "\n"
        })
        .collect();
    std::fs::write(d.join("ratings.csv"), without_se).unwrap();
    rejects(&["report", s(&d)], &["ratings.csv' has no column 'se'"]);
    std::fs::write(d.join("ratings.csv"), &ratings).unwrap();
    let summary = std::fs::read_to_string(d.join("summary.csv")).unwrap();
    std::fs::write(d.join("summary.csv"), summary.replacen(",0.", ",zero.", 1)).unwrap();
    rejects(&["report", s(&d)], &["summary.csv' row 2", "not a number"]);
    std::fs::write(d.join("summary.csv"), &summary).unwrap();
    std::fs::remove_file(d.join("seats.csv")).unwrap();
    rejects(&["report", s(&d)], &["cannot read", "seats.csv"]);
    std::fs::write(d.join("manifest.json"), "{}").unwrap();
    rejects(&["report", s(&d)], &["manifest.json", "field `subcommand` is missing"]);
    assert!(!d.join("report.html").exists());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn every_string_from_the_files_is_escaped() {
    let d = temp("escape");
    tournament(&d);
    // A folder edited by hand: a bot named with markup in every file.
    for f in ["summary.csv", "ratings.csv", "pairs.csv", "manifest.json"] {
        let text = std::fs::read_to_string(d.join(f)).unwrap();
        std::fs::write(d.join(f), text.replace("random", "<i>r&d</i>")).unwrap();
    }
    run_ok(&["report", s(&d)]);
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert!(!page.contains("<i>"), "markup from a file reached the page");
    assert!(page.contains("&lt;i&gt;r&amp;d&lt;/i&gt;"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_balance_page_embeds_only_mtrains_own_plots() {
    let d = temp("balance");
    run_ok(&[
        "balance",
        "--set",
        "6",
        "--players",
        "2-3",
        "--hands",
        "5-6",
        "--games",
        "24",
        "--max-games",
        "24",
        "--seed",
        "2",
        "--quiet",
        "--out",
        s(&d),
    ]);
    let svgs: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".svg"))
        .collect();
    assert!(svgs.len() > 5, "{svgs:?}");
    run_ok(&["report", s(&d)]);
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert_eq!(page.matches("<figure class=\"plot\"").count(), svgs.len());
    // The pick per player count, as recommendation.csv states it.
    let rec = std::fs::read_to_string(d.join("recommendation.csv")).unwrap();
    for line in rec.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        assert!(
            page.contains(&format!(
                "<tr data-players=\"{}\"><td class=\"n\">{}</td><td class=\"n\"><b class=\"pick\">{}</b>",
                c[1], c[1], c[2]
            )),
            "pick of {line}"
        );
    }
    // A plot that is not mtrain's is named, not embedded.
    let skill = d.join("skill.svg");
    let text = std::fs::read_to_string(&skill).unwrap();
    std::fs::write(&skill, text.replacen("<rect", "<script>alert(1)</script><rect", 1)).unwrap();
    run_ok(&["report", s(&d)]);
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    assert!(!page.contains("<script") && !page.contains("alert(1)"));
    assert!(page.contains("The plot <code>skill.svg</code> is not shown"), "skill.svg was embedded");
    assert_eq!(page.matches("<figure class=\"plot\"").count(), svgs.len() - 1);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_tuning_page_shows_the_final_values_and_the_confirmation() {
    let d = temp("tune");
    run_ok(&[
        "tune",
        "--bot",
        "weighted",
        "--param",
        "pips=0:3",
        "--iterations",
        "3",
        "--games",
        "16",
        "--confirm-games",
        "64",
        "--seed",
        "3",
        "--quiet",
        "--out",
        s(&d),
    ]);
    run_ok(&["report", s(&d)]);
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    let tuned = std::fs::read_to_string(d.join("tuned.txt")).unwrap();
    let tuned = tuned.trim().replace(',', ",<wbr>").replace(':', ":<wbr>");
    assert!(page.contains(&tuned), "tuned spec {tuned} missing");
    let confirm = std::fs::read_to_string(d.join("confirm.csv")).unwrap();
    let decision = confirm.lines().nth(1).unwrap().rsplit(',').nth(1).unwrap().to_string();
    assert!(page.contains(&format!("<b class=\"decision\">{decision}</b>")), "decision {decision}");
    let last = std::fs::read_to_string(d.join("trajectory.csv"))
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .rsplit(',')
        .next()
        .unwrap()
        .to_string();
    assert!(page.contains(&format!("<b>{last}</b>")), "final pips {last}");
    assert_eq!(page.matches("<figure class=\"plot\"").count(), 1);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn the_committed_folders_report_with_links_that_resolve() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = temp("committed");
    for (folder, kind, figure) in [
        ("results/ladder", "ladder", "74.0%"),
        ("results/balance/d12-wikipedia-seed1", "balance", "12.6%"),
        ("results/tuning/runs/tune-wikipedia", "tune", "66.4%"),
        ("results/ladder/runs/wikipedia-2p-expert-montecarlo-sprt", "tournament", "H1 accepted"),
    ] {
        let page = out.join(format!("{kind}.html"));
        let said = run_ok(&["report", s(&root.join(folder)), "--out", s(&page)]);
        assert!(said.contains(&format!("{kind} report")), "{said}");
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(html.contains(figure), "{folder}: {figure} missing");
        for h in links(&html) {
            assert!(resolve(&out, &h).is_file(), "{folder}: link {h} points at nothing");
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// A report mtrain wrote in a run folder is the run's: a rerun of the run removes the stale page,
/// another run into the folder does not count it among the other files; a `report.html` that
/// mtrain did not write stays, and the folder is refused.
#[test]
fn a_report_page_in_a_run_folder_is_the_runs() {
    let dir = temp("owned");
    tournament(&dir);
    run_ok(&["report", s(&dir)]);
    tournament(&dir);
    assert!(!dir.join("report.html").exists(), "the rerun removed the stale report");
    run_ok(&["report", s(&dir)]);
    let other = temp("owned-other");
    std::fs::copy(dir.join("report.html"), other.join("report.html")).unwrap();
    tournament(&other);
    let mine = temp("owned-mine");
    std::fs::write(mine.join("report.html"), "<html>my notes</html>").unwrap();
    rejects(
        &["tournament", "--bots", "greedy,random", "--players", "2", "--games", "60", "--quiet", "--out", s(&mine)],
        &["is not empty: it holds other files (report.html)"],
    );
    assert_eq!(std::fs::read_to_string(mine.join("report.html")).unwrap(), "<html>my notes</html>");
}

/// The committed ladder folder's report leads with the league: every bot's rating per cell,
/// the gap in points per round and skill against time, each with its plot inline; the former
/// expert's ladder follows under its own name.
#[test]
fn the_ladder_report_leads_with_the_league() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = temp("league");
    let page = out.join("ladder.html");
    run_ok(&["report", s(&root.join("results/ladder")), "--out", s(&page)]);
    let html = std::fs::read_to_string(&page).unwrap();
    let rows = std::fs::read_to_string(root.join("results/ladder/league.csv")).unwrap().lines().count() - 1;
    assert_eq!(html.matches("data-league=\"").count(), rows);
    assert!(html.contains("data-league=\"wikipedia-6-expert\""));
    assert!(html.contains("<code>oracle</code> (ceiling)"));
    for plot in
        ["league-ratings-wikipedia.svg", "league-ratings-dominorules.svg", "league-skill.svg", "skill_curve.svg"]
    {
        assert!(html.contains(&format!("<figure class=\"plot\" data-file=\"{plot}\"")), "{plot} not inline");
    }
    let (league, former) =
        (html.find("Every bot in one field").unwrap(), html.find("The ladder of the former expert").unwrap());
    assert!(league < former);
    std::fs::remove_dir_all(&out).unwrap();
}

/// A comparison's page opens with the summary in plain words (as `summary.txt` says it), then
/// the differences with their verdicts (as `compare.csv` states them), and shows the command
/// without this machine's paths.
#[test]
fn a_comparison_page_leads_with_the_plain_words_then_the_evidence() {
    let d = temp("compare");
    run_ok(&[
        "compare",
        "--ruleset",
        "wikipedia",
        "--ruleset",
        "wikipedia:tap=draw_two",
        "--hands",
        "9-10",
        "--games",
        "160",
        "--rounds",
        "3",
        "--bots",
        "greedy,random",
        "--quiet",
        "--out",
        s(&d),
    ]);
    run_ok(&["report", s(&d)]);
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    let summary = std::fs::read_to_string(d.join("summary.txt")).unwrap();
    let first = summary.split("\n\n").next().unwrap().trim().replace('\'', "&#39;");
    let at_summary = page.find(&format!("<p class=\"plain\">{first}</p>")).expect("the summary's paragraph");
    let at_table = page.find("<table class=\"differences\">").expect("the differences' table");
    assert!(at_summary < at_table, "the plain words come first");
    // A difference as compare.csv states it: turns at 9 tiles, with its adjusted interval.
    let csv = std::fs::read_to_string(d.join("compare.csv")).unwrap();
    let row: Vec<&str> =
        csv.lines().find(|l| l.starts_with("4,9,") && l.contains(",turns,")).unwrap().split(',').collect();
    let f = |i: usize| row[i].parse::<f64>().unwrap();
    let cell =
        format!("<span class=\"v\">{:+.1}</span> <span class=\"ci\">[{:+.1}, {:+.1}]</span>", f(7), f(10), f(11));
    assert!(page.contains(&cell), "{cell} missing");
    assert_eq!(row[14], "changes");
    // The command as one types it: no absolute path of this machine.
    let dir = std::fs::canonicalize(&d).unwrap();
    assert!(!page.contains(dir.parent().unwrap().to_str().unwrap()), "a machine path in the page");
    assert!(page.contains("<code class=\"cmd\">mtrain compare --ruleset wikipedia"));
    std::fs::remove_dir_all(&d).unwrap();
}

/// A balance page opens with the hand to deal in plain words, then the recommendation, then
/// every hand size's verdicts as a table.
#[test]
fn a_balance_page_says_what_to_deal_first_and_shows_every_verdict() {
    let d = temp("balance-plain");
    run_ok(&[
        "balance",
        "--players",
        "4",
        "--hands",
        "13-15",
        "--games",
        "120",
        "--max-games",
        "120",
        "--rounds",
        "3",
        "--quiet",
        "--out",
        s(&d),
    ]);
    run_ok(&["report", s(&d)]);
    let page = std::fs::read_to_string(d.join("report.html")).unwrap();
    let plain = page
        .find("<p class=\"plain\"><b>Deal 15 at 4 players.</b> It is the hand the rules publish")
        .expect("plain words");
    let rec = page.find("<section id=\"recommendation\">").unwrap();
    let every = page.find("<section id=\"verdicts\">").unwrap();
    assert!(plain < rec && rec < every, "plain words, then the recommendation, then every hand size");
    assert_eq!(page.matches("<tr data-hand=").count(), 3, "a row per hand size");
    assert!(page.contains("Hands of 13-15 all work."), "the candidates in words");
    // Match length in minutes at the pick, as recommendation.csv states it.
    let rec = std::fs::read_to_string(d.join("recommendation.csv")).unwrap();
    let header: Vec<&str> = rec.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = rec.lines().nth(1).unwrap().split(',').collect();
    let minutes: f64 = row[header.iter().position(|h| *h == "match_minutes").unwrap()].parse().unwrap();
    assert!(page.contains("<th class=\"n\">minutes a match</th>"));
    assert!(page.contains(&format!("<span class=\"v\">{minutes:.0}</span>")), "{minutes}");
    std::fs::remove_dir_all(&d).unwrap();
}
