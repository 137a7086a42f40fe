//! The command line as a user meets it: bad input gets one clear line and exit code 2, and the
//! same arguments give byte-identical output.

mod common;
use common::{mtrain, temp_path};
use std::process::Command;

/// Runs `args`, expects exit code 2, nothing on stdout, one stderr line containing each of `needles`.
// Stricter than `common::rejects`: also nothing on stdout and the `mtrain: ` prefix.
fn rejects(args: &[&str], needles: &[&str]) {
    let out = mtrain(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(err.lines().count(), 1, "{args:?}: expected one line, got:\n{err}");
    assert!(err.starts_with("mtrain: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: '{err}' lacks '{n}'");
    }
}

#[test]
fn bad_input_gets_one_line_and_exit_2() {
    rejects(&["play", "--players", "1"], &["1 player", "valid: 2 to 16"]);
    rejects(&["play", "--players", "9", "--set", "12"], &["9 players on double-12", "valid: 2-8 players"]);
    rejects(&["play", "--hand", "23"], &["23 tiles", "valid hand sizes: 1 to 22"]);
    rejects(&["play", "--hand", "0"], &["hand size of 0"]);
    rejects(&["play", "--set", "7"], &["double-7", "valid: 6, 9, 12, 15, 18"]);
    rejects(&["play", "--set", "99"], &["double-99", "valid: 6, 9, 12, 15, 18"]);
    rejects(&["play", "--bots", "greedy,alien"], &["unknown bot 'alien'", "valid: random, greedy"]);
    rejects(&["play", "--bots", "greedy:depth=3"], &["unknown parameter 'depth'", "valid: ties"]);
    rejects(&["play", "--bots", "greedy:ties=maybe"], &["invalid value 'maybe'", "valid: first, random"]);
    rejects(&["play", "--bots", "random:x=1"], &["unknown parameter 'x'", "takes no parameters"]);
    rejects(&["play", "--bots", "greedy,random,greedy,random,planner"], &["4 players need at most 4 bots"]);
    rejects(&["play", "--rules", "klingon"], &["unknown rules preset 'klingon'", "valid: celko1998, wikipedia"]);
    rejects(&["play", "--seed", "abc"], &["invalid value 'abc' for '--seed <S>'", "whole number"]);
    rejects(&["play", "--rounds", "14"], &["14 rounds", "valid: 1 to 13"]);
    rejects(&["play", "--players", "3", "--set", "15"], &["3 players on double-15", "valid: 9-12 players"]);
    rejects(&["play", "--frobnicate"], &["--frobnicate"]);
    rejects(&["dance"], &["dance"]);
}

#[test]
fn bad_input_leaves_no_log_file() {
    let dir = std::env::temp_dir().join(format!("mtrain-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("x.jsonl");
    let out = mtrain(&["play", "--seed", "abc", "--log", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out2 = mtrain(&["play", "--rounds", "1", "--log", dir.join("missing/y.jsonl").to_str().unwrap()]);
    assert_eq!(out2.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out2.stderr).contains("cannot write"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "a file was left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn same_arguments_same_bytes_and_seed_matters() {
    let args = ["play", "--players", "3", "--set", "9", "--bots", "random", "--seed", "11", "--rounds", "3"];
    let a = mtrain(&args);
    let b = mtrain(&args);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let mut other = args;
    other[8] = "12";
    assert_ne!(mtrain(&other).stdout, a.stdout);
    let text = String::from_utf8(a.stdout).unwrap();
    assert!(text.starts_with("mtrain play: wikipedia rules, double-9, 3 players, 11 tiles each, 3 rounds, seed 11"));
    assert_eq!(text.matches("Round over after").count(), 3);
}

#[test]
fn defaults_play_a_full_match() {
    let out = mtrain(&["play"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("Round over after").count(), 13);
    assert!(text.contains("seat 0: greedy   seat 1: random   seat 2: greedy   seat 3: random"));
    assert!(text.contains("\nWinner: ") || text.contains("\nCo-winners: "));
}

#[test]
fn rules_presets_and_overrides_reject_bad_input() {
    rejects(
        &["rules", "klingon"],
        &["unknown rules preset 'klingon'", "valid: celko1998, wikipedia, dominorules, family_house, harbour_cay"],
    );
    rejects(&["play", "--rule", "colour=blue"], &["unknown rule 'colour'", "valid: engine_mode"]);
    rejects(
        &["play", "--rule", "marker_removal=sometimes"],
        &["invalid value 'sometimes'", "valid: any_play_on_train"],
    );
    rejects(&["play", "--rule", "nonsense"], &["invalid --rule 'nonsense'", "key=value"]);
    rejects(&["play", "--rule", "partnerships=true", "--players", "3"], &["partnerships need 4, 6 or 8 players"]);
    rejects(
        &["play", "--rules", "celko1998", "--set", "9"],
        &["celko1998 rules do not use a double-9 set", "valid: 12"],
    );
    rejects(
        &["play", "--rules", "harbour_cay", "--players", "11"],
        &["11 players on double-12", "valid: 2-10 players"],
    );
    rejects(&["play", "--rules", "dominorules", "--hand", "12", "--players", "8"], &["does not fit double-12"]);
    rejects(
        &["play", "--rules", "family_house", "--rule", "v3=true", "--rule", "v4=true"],
        &["v3 (highest unused double) and v4"],
    );
    rejects(
        &["tournament", "--rule", "branching_doubles=four_way", "--rule", "blanks_wild=true"],
        &["cannot be combined: blanks wild with branching doubles"],
    );
    rejects(
        &["play", "--rule", "blanks_wild=true", "--rule", "fast_game=true"],
        &["blanks wild is played with one-tile openings"],
    );
}

#[test]
fn rules_lists_presets_and_parameters_with_sources() {
    let out = mtrain(&["rules"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for p in ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"] {
        assert!(text.lines().any(|l| l.starts_with(p)), "{p} missing from:\n{text}");
    }
    let out = mtrain(&["rules", "harbour_cay", "--rule", "double_blank_value=0"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "engine_mode                         holder_else_highest_of_number  Great Harbour Cay, Center domino"
        ),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("double_blank_value") && l.ends_with("--rule")));
    assert!(text.contains("double-12: 2->15, 3->15, 4->15, 5->12, 6->12, 7->10, 8->10, 9->8, 10->8"));
    // Every preset plays a full match for every player count its deal table allows.
    for p in ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"] {
        let out = mtrain(&["play", "--rules", p, "--bots", "greedy", "--seed", "2", "--players", "5"]);
        assert!(out.status.success(), "{p}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.matches("Round over after").count(), 13, "{p}");
    }
}

#[test]
fn strategies_lists_every_bot_with_its_parameters() {
    let out = mtrain(&["strategies"]);
    assert!(out.status.success());
    assert!(out.stderr.is_empty());
    let text = String::from_utf8(out.stdout).unwrap();
    for b in ["random", "greedy", "planner", "hoarder", "cutthroat"] {
        assert!(text.lines().any(|l| l.starts_with(&format!("{b} "))), "{b} missing from:\n{text}");
    }
    let hoarder = text.lines().position(|l| l.starts_with("hoarder ")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[hoarder + 1].trim_start().starts_with("release=2 "), "{text}");
    assert!(lines[hoarder + 2].trim_start().starts_with("late=3 "), "{text}");
    let planner = lines.iter().position(|l| l.starts_with("planner ")).unwrap();
    assert_eq!(lines[planner + 1].trim(), "no parameters");
    assert_eq!(mtrain(&["strategies"]).stdout, text.as_bytes(), "same output every time");
    rejects(&["strategies", "--frobnicate"], &["--frobnicate"]);
    // The new bots take their parameters and reject bad ones, naming the valid choices.
    rejects(
        &["play", "--bots", "hoarder:release=-1"],
        &["invalid value '-1' for hoarder:release", "non-negative integer"],
    );
    rejects(&["play", "--bots", "hoarder:depth=3"], &["unknown parameter 'depth'", "valid: release, late"]);
    rejects(&["play", "--bots", "planner:x=1"], &["unknown parameter 'x'", "takes no parameters"]);
    let out = mtrain(&["play", "--bots", "planner,hoarder:release=1,late=2,cutthroat,greedy", "--rounds", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn balance_rejects_bad_input_and_writes_nothing() {
    let out = temp_path("bad");
    let o = out.to_str().unwrap();
    let cases: &[(&[&str], &[&str])] = &[
        (&["--hands", "5-16", "--players", "6"], &["--hands 5-16 cannot be dealt to 6 players", "at most 15 tiles"]),
        (&["--players", "1-3"], &["--players 1-3", "valid: 2 to 16 players"]),
        (&["--rule", "partnerships=true", "--players", "4-5"], &["--players 4-5", "partnerships need 4, 6 or 8"]),
        (&["--metrics", "turns,fun"], &["unknown metric 'fun'", "valid: blocked_rate, first_player_advantage, skill"]),
        (&["--objective", "best"], &["unknown objective 'best'", "valid: balanced, no_defect, most_skill"]),
        (&["--hands", "0-4"], &["'--hands <A-B|auto>'", "0 tiles deal nothing"]),
        (&["--players", "4-2"], &["invalid value '4-2' for '--players <A-B>'"]),
        (&["--players", "9"], &["--players 9", "no row for 9 players on double-12", "valid: 2-8 players"]),
        (&["--set", "12", "--rules", "celko1998", "--bots", "greedy,nobot"], &["unknown bot 'nobot'"]),
    ];
    // A shard without a folder could never be merged.
    rejects(
        &["balance", "--shard", "1/2", "--players", "2-2", "--hands", "7-7"],
        &["a shard of a sweep", "give --out DIR"],
    );
    for (extra, needles) in cases {
        let mut args = vec!["balance", "--games", "8", "--out", o];
        args.extend_from_slice(extra);
        rejects(&args, needles);
        assert!(!out.exists(), "{extra:?} created the output directory");
    }
}

#[test]
fn balance_sweeps_recommends_and_plots_reproducibly() {
    let a = temp_path("a");
    let b = temp_path("b");
    let args = |dir: &std::path::Path, threads: &'static str| {
        let d = dir.to_str().unwrap().to_string();
        vec![
            "balance".to_string(),
            "--players".into(),
            "3-4".into(),
            "--hands".into(),
            "6-9".into(),
            "--games".into(),
            "96".into(),
            "--rounds".into(),
            "3".into(),
            "--quiet".into(),
            "--threads".into(),
            threads.into(),
            "--out".into(),
            d,
        ]
    };
    let run = |v: Vec<String>| {
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        let out = mtrain(&refs);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let console = run(args(&a, "1"));
    run(args(&b, "2"));
    assert!(
        console.contains(
            "field weighted, planner, greedy (skill = weighted's head-to-head score against greedy (0.5: no edge); luck = planner's against greedy)"
        ),
        "{console}"
    );
    assert!(console.contains("objective balanced:"), "{console}");
    for f in ["balance.csv", "recommendation.csv", "blocked_rate.svg", "skill.svg"] {
        let x = std::fs::read(a.join(f)).unwrap();
        assert_eq!(x, std::fs::read(b.join(f)).unwrap(), "{f} differs between 1 and 2 threads");
    }
    let csv = std::fs::read_to_string(a.join("balance.csv")).unwrap();
    // 2 player counts x 4 hand sizes, each with every metric (15), match length in minutes
    // (round_minutes, match_minutes) and one row per position.
    let metrics = 15 + 2;
    assert_eq!(csv.lines().count(), 1 + 4 * (metrics + 3) + 4 * (metrics + 4));
    let rec = std::fs::read_to_string(a.join("recommendation.csv")).unwrap();
    // The header comes first, then a row per player count (the objective in its own column).
    assert!(rec.starts_with("objective,players,recommended_hand,"), "{rec}");
    let rows: Vec<&str> =
        rec.lines().filter(|l| l.starts_with("balanced,3,") || l.starts_with("balanced,4,")).collect();
    assert_eq!(rows.len(), 2, "{rec}");
    for r in rows {
        let hand: u8 = r.split(',').nth(2).unwrap().parse().unwrap();
        assert!((6..=9).contains(&hand), "{r}");
    }
    // wikipedia publishes 15 tiles for 4 players on double-12.
    assert!(rec.contains("wikipedia"), "{rec}");
    let svg = std::fs::read_to_string(a.join("blocked_rate.svg")).unwrap();
    assert!(svg.contains("3 players") && svg.contains("tiles dealt per player"));
    // The defects column names metrics; the plots' lines are the limits the decision uses.
    let mut table = csv_rows(&rec);
    let header = table.remove(0);
    let col = header.iter().position(|h| h == "defects").unwrap();
    for r in &table {
        for name in r[col].split(';').filter(|n| !n.is_empty()) {
            assert!(["blocked", "first_player", "skill", "skill_ceiling"].contains(&name), "{r:?}");
        }
    }
    // The first player is judged per match by default: that plot carries the limit.
    let svg = std::fs::read_to_string(a.join("match_first_player_advantage.svg")).unwrap();
    assert!(svg.contains("line: the +3.0-point"), "the reference line is not the limit");
    let svg = std::fs::read_to_string(a.join("first_player_advantage.svg")).unwrap();
    assert!(svg.contains("line at 0%"), "the per-round figure is not judged by default");
    let svg = std::fs::read_to_string(a.join("skill.svg")).unwrap();
    assert!(svg.contains("line: the 0.55 floor"), "skill's line is not its floor");
    let svg = std::fs::read_to_string(a.join("skill_ceiling.svg")).unwrap();
    assert!(svg.contains("line: the 0.95 ceiling"), "luck's line is not its ceiling");
    // Skill is the first bot against the last, luck the second against the last.
    let dec = std::fs::read_to_string(a.join("decisions.csv")).unwrap();
    let bal = std::fs::read_to_string(a.join("balance.csv")).unwrap();
    for (criterion, metric) in [("skill", "skill"), ("skill_ceiling", "skill_ceiling")] {
        let row = dec.lines().find(|l| l.starts_with("3,6,") && l.contains(&format!(",{criterion},"))).unwrap();
        let value = row.split(',').nth(5).unwrap();
        assert!(bal.contains(&format!("3,6,{metric},{value},")), "{row}");
    }
    // Luck is shown only where its pair's better bot beats the last: its interval above 0.5.
    for l in bal.lines().filter(|l| l.contains(",skill_ceiling,")) {
        let f: Vec<&str> = l.split(',').collect();
        if !f[3].is_empty() {
            assert!(f[4].parse::<f64>().unwrap() > 0.5, "{l}");
        }
    }
}

/// At 7 players `planner` (the careful bot) loses to `greedy` (the beginner): its score there
/// would read as "luck" below 0.5, so the figure is reported as not measurable.
#[test]
fn luck_is_not_measurable_where_the_careful_bot_does_not_beat_the_beginner() {
    let dir = temp_path("luck7");
    let out = mtrain(&[
        "balance",
        "--players",
        "7",
        "--hands",
        "11",
        "--games",
        "1000",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let console = String::from_utf8(out.stdout).unwrap();
    let row = console.lines().find(|l| l.trim_start().starts_with("7 ")).unwrap();
    assert!(row.contains("not measurable"), "{console}");
    assert!(console.contains("(luck not measurable: the second bot does not beat the last at that table"), "{console}");
    let bal = std::fs::read_to_string(dir.join("balance.csv")).unwrap();
    assert!(bal.contains("\n7,11,skill_ceiling,,,\n"), "{bal}");
    // Skill (weighted against greedy) is measured there: the two figures compare different pairs.
    let skill = bal.lines().find(|l| l.starts_with("7,11,skill,")).unwrap();
    assert!(skill.split(',').nth(4).unwrap().parse::<f64>().unwrap() > 0.55, "{skill}");
    let dec = std::fs::read_to_string(dir.join("decisions.csv")).unwrap();
    let luck = dec.lines().find(|l| l.starts_with("7,11,") && l.contains(",skill_ceiling,")).unwrap();
    assert!(luck.contains(",unknown"), "{luck}");
}

/// The rows of a CSV text, each cell as written (no cell in these files holds a comma).
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines().map(|l| l.split(',').map(str::to_string).collect()).collect()
}

#[test]
fn plot_draws_from_a_csv_and_rejects_bad_columns() {
    let dir = temp_path("plot");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("t.csv");
    std::fs::write(
        &csv,
        "# a comment line\nplayers,hand,value,lo,hi\n4,10,0.1,0.08,0.12\n4,11,0.2,,\n6,10,0.3,0.2,0.4\n",
    )
    .unwrap();
    let c = csv.to_str().unwrap();
    let svg = dir.join("t.svg");
    let s = svg.to_str().unwrap();
    let base = ["plot", "--csv", c, "--x", "hand", "--y", "value", "--out", s];
    let mut line: Vec<&str> = base.to_vec();
    line.extend(["--group", "players", "--group-prefix", "players: ", "--lo", "lo", "--hi", "hi", "--percent"]);
    let out = mtrain(&line);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("players: 4") && text.contains("players: 6") && text.contains("30%"));
    std::fs::remove_file(&svg).unwrap();
    let mut dot: Vec<&str> = base.to_vec();
    dot.extend(["--kind", "dot", "--where", "hand=10"]);
    assert!(mtrain(&dot).status.success());
    // The dot chart's one row is the category 10, written as a label of its own.
    assert!(std::fs::read_to_string(&svg).unwrap().contains(">\n10\n</text>"));
    std::fs::remove_file(&svg).unwrap();
    rejects(
        &["plot", "--csv", c, "--x", "hnd", "--y", "value", "--out", s],
        &["--x 'hnd' is not a column", "valid: players, hand"],
    );
    rejects(
        &["plot", "--csv", c, "--x", "hand", "--y", "value", "--kind", "pie", "--out", s],
        &["unknown --kind 'pie'", "valid: line, dot"],
    );
    rejects(&["plot", "--csv", c, "--x", "hand", "--y", "value", "--where", "players=9", "--out", s], &["no rows"]);
    rejects(&["plot", "--csv", "/nonexistent.csv", "--x", "a", "--y", "b", "--out", s], &["cannot read --csv"]);
    assert!(!svg.exists(), "a failed plot wrote its file");
}

#[test]
fn bench_measures_every_thread_count_and_writes_csv() {
    let dir = temp_path("bench");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("bench.csv");
    let out = mtrain(&[
        "bench",
        "--seconds",
        "0.3",
        "--runs",
        "3",
        "--threads",
        "1,2",
        "--players",
        "3",
        "--out",
        csv.to_str().unwrap(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("rounds/s") && text.contains("speed-up"), "{text}");
    let rows: Vec<Vec<String>> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0][0].as_str(), rows[1][0].as_str()), ("1", "2"));
    for r in &rows {
        let rounds: f64 = r[3].parse().unwrap();
        let decisions: f64 = r[5].parse().unwrap();
        assert!(rounds > 0.0 && decisions > rounds, "{r:?}");
    }
    assert_eq!(rows[0][8], "1.000000", "the first thread count is the speed-up's base");
    // Decimals as in every CSV mtrain writes: exactly 6 places.
    for r in &rows {
        for cell in r.iter().filter(|c| c.contains('.')) {
            assert_eq!(cell.split('.').nth(1).map(str::len), Some(6), "{cell} in {r:?}");
        }
    }
    // Beside two threads, two independent single-thread processes: their speed-up over the
    // first row, and the runner's rate as a share of theirs (no rollouts without a search bot).
    assert!(text.contains("processes") && text.contains("efficiency"), "{text}");
    assert_eq!((rows[0][9].as_str(), rows[0][10].as_str(), rows[0][11].as_str()), ("0.000000", "", ""));
    let machine: f64 = rows[1][10].parse().unwrap();
    let efficiency: f64 = rows[1][11].parse().unwrap();
    let speedup: f64 = rows[1][8].parse().unwrap();
    assert!(machine > 0.0 && efficiency > 0.0, "{:?}", rows[1]);
    assert!((speedup / machine - efficiency).abs() < 1e-3, "efficiency = speed-up / process speed-up: {:?}", rows[1]);
    // A search bot's rollouts are counted.
    let out = mtrain(&[
        "bench",
        "--bots",
        "montecarlo:samples=2",
        "--players",
        "2",
        "--threads",
        "1",
        "--seconds",
        "0.3",
        "--runs",
        "1",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("rollouts/s") && !text.contains("efficiency"), "{text}");
    let row: Vec<String> =
        std::fs::read_to_string(&csv).unwrap().lines().nth(1).unwrap().split(',').map(str::to_string).collect();
    let (decisions, rollouts): (f64, f64) = (row[5].parse().unwrap(), row[9].parse().unwrap());
    assert!(rollouts >= 2.0 * decisions && decisions > 0.0, "2 worlds x every legal move per decision: {row:?}");
    rejects(&["bench", "--threads", "1,0"], &["'--threads <LIST>'", "each 1 or more"]);
    rejects(&["bench", "--runs", "0"], &["'--runs <R>': 0 runs measure nothing"]);
    rejects(&["bench", "--seconds", "-1"], &["invalid value '-1' for '--seconds <S>'", "positive number"]);
    rejects(&["bench", "--bots", "greedy,random,greedy,random,planner"], &["4 players need at most 4 bots"]);
}

/// The `round` events of a JSONL log, parsed.
fn round_events(log: &str) -> Vec<serde_json::Value> {
    log.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["event"] == "round")
        .collect()
}

#[test]
fn harbour_cay_redeal_is_logged_as_a_repeated_round() {
    // Great Harbour Cay: a deal in which no hand shows the engine number is gathered and
    // redealt. Each match below meets such a deal (round 3 of the first, rounds 2 and 3 of the
    // second); the log must repeat the round event, not stop.
    let cases: [(&[&str], u64, usize); 2] = [
        (&["--players", "2", "--bots", "hoarder,hoarder", "--seed", "10565069067352601973"], 3, 1),
        (&["--players", "6", "--hand", "1", "--bots", "hoarder", "--seed", "3560248796974285688"], 2, 1),
    ];
    let dir = std::env::temp_dir().join(format!("mtrain-cli-redeal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (extra, round, redeals)) in cases.iter().enumerate() {
        let log = dir.join(format!("redeal{i}.jsonl"));
        let mut args = vec!["play", "--rules", "harbour_cay", "--set", "12", "--log", log.to_str().unwrap()];
        args.extend_from_slice(extra);
        let plain = mtrain(&args[..5].iter().chain(extra.iter()).copied().collect::<Vec<_>>());
        let out = mtrain(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.stdout, plain.stdout, "{args:?}: --log changed the match");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("the tiles are gathered, reshuffled and redealt"), "{text}");
        let rounds = round_events(&std::fs::read_to_string(&log).unwrap());
        let this: Vec<_> = rounds.iter().filter(|r| r["round"] == *round).collect();
        assert_eq!(this.len(), redeals + 1, "round {round}: {this:?}");
        let (last, redealt) = this.split_last().unwrap();
        for r in redealt {
            assert_eq!(r["redeal"], true, "{r}");
            assert!(r.get("first").is_none(), "a redealt deal has no first turn: {r}");
            assert_eq!(r["engine"], 13 - round, "{r}");
            assert_ne!(r["hands"], last["hands"]);
        }
        assert!(last.get("redeal").is_none() && last["first"].is_u64(), "{last}");
        // Every round is played once: 13 rounds end.
        assert_eq!(std::fs::read_to_string(&log).unwrap().matches(r#""event":"round_end""#).count(), 13);
        // The independent referee replays it, redeals included (tests/referee.rs requires
        // python3; here it is used when present).
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/checks/referee.py");
        if let Ok(r) = Command::new("python3").arg(&script).arg(&log).output() {
            let said = String::from_utf8_lossy(&r.stdout);
            assert!(r.status.success() && said.starts_with("OK: 13 rounds"), "{args:?}: referee: {said}");
        }
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), cases.len(), "temporary files left behind: {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Panics if `v` holds a `null` anywhere.
fn assert_no_null(v: &serde_json::Value, line: &str) {
    match v {
        serde_json::Value::Null => panic!("null in log line {line}"),
        serde_json::Value::Array(a) => a.iter().for_each(|x| assert_no_null(x, line)),
        serde_json::Value::Object(o) => o.values().for_each(|x| assert_no_null(x, line)),
        _ => {}
    }
}

#[test]
fn log_round_event_always_names_the_engine_number() {
    // Every engine mode: set aside, searched by number, and picked as a double from the hands
    // (family_house v3, Galt's opening), where the number is known only once the search runs.
    let cases: &[&[&str]] = &[
        &["--rules", "wikipedia"],
        &["--rules", "celko1998"],
        &["--rules", "family_house"],
        &["--rules", "family_house", "--rule", "v3=true"],
        &["--rules", "family_house", "--rule", "v3=true", "--players", "2", "--seed", "5"],
        &["--rules", "wikipedia", "--rule", "galt_opening=true", "--seed", "3"],
        &["--rules", "harbour_cay", "--players", "3"],
    ];
    let dir = std::env::temp_dir().join(format!("mtrain-cli-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, extra) in cases.iter().enumerate() {
        let log = dir.join(format!("engine{i}.jsonl"));
        let mut args = vec!["play", "--rounds", "6", "--log", log.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = mtrain(&args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        for (v, l) in lines.iter().zip(text.lines()) {
            assert_no_null(v, l);
        }
        let mut rounds = 0;
        for (k, r) in lines.iter().enumerate().filter(|(_, v)| v["event"] == "round" && v.get("redeal").is_none()) {
            rounds += 1;
            let e = r["engine"].as_u64().unwrap_or_else(|| panic!("{args:?}: engine is not a number: {r}"));
            // Where a seat places the engine, the engine event (after any search draws) shows
            // the engine number.
            if let Some(ev) = lines[k + 1..]
                .iter()
                .take_while(|v| v["event"] == "draw" || v["event"] == "engine")
                .find(|v| v["event"] == "engine")
            {
                let tile = ev["tile"].as_str().unwrap();
                assert!(tile.starts_with(&format!("{e}-")), "{args:?}: round engine {e}, engine event {ev}");
                if extra.contains(&"v3=true") || extra.contains(&"galt_opening=true") {
                    assert_eq!(tile, format!("{e}-{e}"), "{args:?}: the search picks a double");
                }
            }
        }
        assert_eq!(rounds, 6, "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The audit's reproductions, each as the user typed it.
#[test]
fn audit_bots_grammar_rule_changes_and_output_files() {
    // One --bots grammar: a shorter list fills the table in play as in tournament, and a list as
    // long as the table may repeat a bot.
    let short = mtrain(&["play", "--bots", "greedy,random", "--rounds", "1"]);
    let long = mtrain(&["play", "--bots", "greedy,random,greedy,random", "--rounds", "1"]);
    assert_eq!(short.status.code(), Some(0));
    assert_eq!(short.stdout, long.stdout);
    let dir = std::env::temp_dir().join(format!("mtrain-audit-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = mtrain(&[
        "tournament",
        "--bots",
        "greedy,greedy:ties=first,greedy,greedy",
        "--games",
        "8",
        "--quiet",
        "--rule",
        "tap=draw_two",
        "--rule",
        "tap=draw_two",
        "--out",
        d,
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // One distinct bot, self-play: 1 bot, exact win rate, the rule change in the header.
    assert!(text.starts_with("mtrain tournament: wikipedia rules (changed: tap=draw_two), double-12"), "{text}");
    assert!(text.contains("; 1 bot, 1 lineup;"), "{text}");
    assert!(text.contains(" 25.0% (every seat)"), "{text}");
    assert!(text.lines().all(|l| l == l.trim_end()), "trailing spaces:\n{text}");
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 2, "{summary}");
    assert!(summary.lines().nth(1).unwrap().starts_with("greedy,greedy,0,32,0.250000,0.250000,0.250000,"), "{summary}");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["rules"]["changed"], serde_json::json!({"tap": "draw_two"}));
    assert_eq!(manifest["rules"]["options"]["tap"], "draw_two");
    std::fs::remove_dir_all(&dir).unwrap();

    // The SPRT line says where the LLR lies.
    let out = mtrain(&["tournament", "--bots", "greedy,random", "--sprt", "-1,1", "--games", "400", "--quiet"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("at or above the upper bound [-2.9444, 2.9444]: accepted H1"), "{text}");

    // Conflicting --rule options, in either order; --hand keeps the preset's set and counts.
    rejects(
        &["play", "--rules", "family_house", "--rule", "v2=true", "--rule", "v1=true"],
        &["conflict", "marker_removal"],
    );
    rejects(
        &["play", "--rules", "family_house", "--rule", "v1=true", "--rule", "literal_basic=true"],
        &["conflict", "obligation"],
    );
    rejects(&["play", "--rule", "tap=draw_two", "--rule", "tap=draw_one_else_skip"], &["given twice"]);
    rejects(
        &["play", "--rules", "celko1998", "--set", "18", "--players", "2", "--hand", "10"],
        &["do not use a double-18"],
    );
    rejects(&["play", "--set", "12", "--players", "9", "--hand", "8"], &["no row for 9 players on double-12"]);

    // Bad input names its flag, one line, exit 2; folders where files belong; missing arguments.
    rejects(&["tournament", "--games", "-5"], &["'--games <G>'"]);
    rejects(&["tournament", "--seed", "-1"], &["'--seed <S>'"]);
    rejects(&["bench", "--seconds", "-1"], &["'--seconds <S>'"]);
    rejects(&["plot", "--csv", "x.csv"], &["not provided: --x <COL>, --y <COL>, --out <FILE>"]);
    rejects(&["merge", "--out", "m"], &["not provided: <DIR>..."]);
    let tmp = std::env::temp_dir();
    rejects(&["play", "--rounds", "1", "--log", tmp.to_str().unwrap()], &["--log", "is a folder"]);
    rejects(&["bench", "--out", tmp.to_str().unwrap()], &["--out", "is a folder"]);
    rejects(&["balance", "--set", "12", "--players", "9"], &["no row for 9 players on double-12"]);
}

#[test]
fn balance_picks_survive_the_seed() {
    // Three seeds on a small sweep around the published hands (4 players: 15, 5 players: 12 under
    // wikipedia on double-12), with the default field and objective: the same picks each time.
    let picks = |seed: &str| -> Vec<String> {
        let dir = temp_path(&format!("seed{seed}"));
        let d = dir.to_str().unwrap();
        let args = ["balance", "--players", "4-5", "--hands", "11-16", "--rounds", "3", "--games", "400"];
        let out = mtrain(&[&args[..], &["--seed", seed, "--quiet", "--out", d]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let rec = std::fs::read_to_string(dir.join("recommendation.csv")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        rec.lines().skip(1).map(|l| l.split(',').take(4).collect::<Vec<_>>().join(",")).collect()
    };
    let first = picks("1");
    assert_eq!(first, ["balanced,4,15,15", "balanced,5,12,12"]);
    assert_eq!(picks("2"), first);
    assert_eq!(picks("3"), first);
}
