//! `mtrain compare`: rule sets on the same deals, paired differences, verdicts at a margin,
//! durable like every run (shards merge to the unsharded result), and bad input refused in one
//! line.

mod common;

use common::{mtrain, read, rejects, run_ok, temp, temp_path};
use mexican_train::balance::{Limits, Objective, SweepConfig, SweepSpec};
use mexican_train::compare::{self, Change, CompareConfig, CompareSpec, CompareState, Comparison, RuleSet};
use mexican_train::job::balance::BalanceRun;
use mexican_train::job::compare::CompareRun;
use mexican_train::job::{self, Ending, Options, Start};
use mexican_train::report::manifest::{Invocation, Started};
use mexican_train::strategies::Registry;

fn spec(sets: &[&str], hands: (u8, u8), games: u64) -> CompareSpec {
    CompareSpec {
        rulesets: sets.iter().map(|s| RuleSet::parse(s).unwrap()).collect(),
        set: 12,
        rounds: Some(3),
        players: (4, 4),
        hands: Some(hands),
        bots: "greedy,random".into(),
        games,
        seed: 5,
        margin: compare::MARGIN,
        relative_margin: compare::RELATIVE_MARGIN,
        seconds_per_turn: compare::SECONDS_PER_TURN,
    }
}

fn invocation(kind: &'static str, threads: usize) -> Invocation<'static> {
    Invocation { subcommand: kind, command: &[], started: Started::now(), threads }
}

/// Plays a comparison in memory on `threads` threads; its final state.
fn play(spec: &CompareSpec, threads: usize) -> CompareState {
    let config = CompareConfig { spec: spec.clone(), bots: Default::default() };
    let mut p = job::prepare::<CompareRun>(
        Start::unsaved(config, None),
        &Registry::builtin(),
        Options::new(threads),
        invocation("compare", threads),
    )
    .unwrap();
    assert!(matches!(p.play().unwrap(), Ending::Complete { .. }));
    p.state
}

/// The baseline plays exactly the deals of a balance sweep with the same seed and a fixed
/// sample: its tally is that sweep's cell, and the first rule set of every comparison plays
/// those deals too.
#[test]
fn every_rule_set_plays_the_balance_sweeps_deals() {
    let s = spec(&["wikipedia", "wikipedia:tap=draw_two"], (9, 10), 64);
    let st = play(&s, 2);
    let sweep = SweepSpec {
        preset: "wikipedia".into(),
        set: 12,
        rounds: Some(3),
        rules: Vec::new(),
        players: (4, 4),
        hands: Some((9, 10)),
        bots: "greedy,random".into(),
        games: 64,
        max_games: Some(64),
        seed: 5,
        objective: Objective::Balanced,
        limits: Limits::default(),
        metrics: None,
        rank_by: Default::default(),
        seconds_per_turn: mexican_train::balance::SECONDS_PER_TURN,
    };
    let config = SweepConfig { spec: sweep, bots: Default::default() };
    let mut p = job::prepare::<BalanceRun>(
        Start::unsaved(config, None),
        &Registry::builtin(),
        Options::new(1),
        invocation("balance", 1),
    )
    .unwrap();
    p.play().unwrap();
    let cells = &p.state.cells;
    assert_eq!(cells.len(), 2);
    for (c, b) in st.cells.iter().zip(cells) {
        assert_eq!((c.players, c.hand), (b.players, b.hand));
        assert_eq!(c.tallies[0], b.tally, "the baseline is the sweep's cell");
        assert_eq!(c.tallies[1].games, c.tallies[0].games);
        assert_ne!(c.tallies[1], c.tallies[0], "the penalty rule plays other games");
    }
}

/// The state is a function of the chunks played, never of the threads.
#[test]
fn a_comparison_is_the_same_at_any_thread_count() {
    let s = spec(&["wikipedia", "wikipedia:tap=draw_two"], (10, 10), 96);
    assert_eq!(play(&s, 1).to_json(), play(&s, 3).to_json());
}

/// A rule that penalises every last tile (nobody announces) makes rounds longer and changes
/// it beyond the margin.
#[test]
fn a_rule_that_changes_the_game_is_shown_to_change_it() {
    let s = spec(&["wikipedia", "wikipedia:tap=draw_two"], (8, 9), 160);
    let st = play(&s, 2);
    let cmp = Comparison::new(&s, &Registry::builtin()).unwrap();
    let diffs = compare::differences(&cmp, &st.cells);
    let turns: Vec<_> = diffs.iter().filter(|d| d.measure.name == "turns").collect();
    assert_eq!(turns.len(), 2);
    for d in &turns {
        assert!(d.paired);
        assert_eq!(d.change, Change::Changes, "{d:?}");
        assert!(d.difference > 5.0, "{d:?}");
    }
    // Minutes are turns at the seconds a turn.
    let minutes = diffs.iter().find(|d| d.measure.name == "round_minutes").unwrap();
    assert!((minutes.difference - turns[0].difference * compare::SECONDS_PER_TURN / 60.0).abs() < 1e-9);
    // Every interval is adjusted over all the differences: wider than the 95% one.
    let z = compare::adjusted_z(diffs.len());
    assert!(z > 3.0);
    for d in &diffs {
        assert!(d.adjusted.0 <= d.interval.0 && d.adjusted.1 >= d.interval.1);
    }
}

/// A rule that seldom fires plays mostly the same games on the same deals: the paired
/// interval of the difference is narrower than the two figures' own intervals would give.
#[test]
fn the_same_deals_make_a_small_difference_tight() {
    let s = spec(&["wikipedia", "wikipedia:continuous_draw=true"], (10, 11), 160);
    let st = play(&s, 2);
    let cmp = Comparison::new(&s, &Registry::builtin()).unwrap();
    let diffs = compare::differences(&cmp, &st.cells);
    let turns: Vec<_> = diffs.iter().filter(|d| d.measure.name == "turns").collect();
    assert_eq!(turns.len(), 2);
    for d in turns {
        assert!(d.paired);
        let own = |v: compare::Value| v.interval.map(|(lo, hi)| (hi - lo) / 2.0).unwrap();
        let independent = (own(d.value).powi(2) + own(d.baseline).powi(2)).sqrt();
        assert!(d.interval.1 - d.difference < 0.8 * independent, "{d:?}");
    }
}

/// The command line: a house-rule file, the console's verdicts and summary, the CSV files, and
/// two shards merged into what one run writes.
#[test]
fn the_command_compares_writes_and_merges_its_shards() {
    let dir = temp("cli");
    let house = dir.join("ours.rules");
    std::fs::write(&house, "# our table\npreset = wikipedia\ntap = draw_two   # nobody taps\n").unwrap();
    let common = ["--hands", "9-10", "--games", "160", "--rounds", "3", "--bots", "greedy,random", "--quiet"];
    let whole = dir.join("whole");
    let mut args = vec!["compare", "--ruleset", "wikipedia", "--ruleset", house.to_str().unwrap()];
    args.extend(common);
    let mut with_out = args.clone();
    with_out.extend(["--out", whole.to_str().unwrap()]);
    let out = run_ok(&with_out);
    assert!(out.contains("ours (wikipedia (changed: tap=draw_two)) against wikipedia, 4 players:"), "{out}");
    assert!(out.contains("Under ours (wikipedia (changed: tap=draw_two)) (against wikipedia) at 4 players, hands of 9-10 tiles, rounds run longer (+"), "{out}");
    let csv = read(&whole.join("compare.csv"));
    assert!(csv.starts_with(
        "players,hand,ruleset,baseline,metric,baseline_value,value,difference,lo,hi,adjusted_lo,adjusted_hi,margin,paired,verdict\n4,9,ours,wikipedia,blocked_rate,"
    ));
    assert!(
        read(&whole.join("rulesets.csv")).starts_with("players,hand,ruleset,metric,value,lo,hi,games\n4,9,wikipedia,")
    );
    assert!(read(&whole.join("summary.txt")).contains("(against wikipedia) at 4 players"));
    let mut shards = Vec::new();
    for i in 1..=2 {
        let d = dir.join(format!("shard{i}"));
        let mut a = args.clone();
        let slice = format!("{i}/2");
        a.extend(["--shard", &slice, "--out", d.to_str().unwrap()]);
        let out = mtrain(&a);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(!d.join("compare.csv").exists(), "a shard writes no results");
        shards.push(d);
    }
    let merged = dir.join("merged");
    run_ok(&["merge", shards[0].to_str().unwrap(), shards[1].to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    for f in ["compare.csv", "rulesets.csv", "summary.txt"] {
        assert_eq!(read(&merged.join(f)), read(&whole.join(f)), "{f}");
    }
    // The merged folder is a comparison `mtrain compare --resume` recognises as complete.
    let again = run_ok(&["compare", "--resume", merged.to_str().unwrap(), "--quiet"]);
    assert!(again.contains("against wikipedia"), "{again}");
}

#[test]
fn bad_input_is_refused_in_one_line() {
    fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        let mut v = vec!["compare", "--games", "8", "--hands", "9-9"];
        v.extend_from_slice(extra);
        v
    }
    rejects(&with(&["--ruleset", "wikipedia"]), &["at least two rule sets", "got 1"]);
    rejects(&with(&["--ruleset", "wikipedia", "--ruleset", "wikipedai"]), &["'wikipedai'", "valid: celko1998"]);
    rejects(&with(&["--ruleset", "wikipedia", "--ruleset", "wikipedia:first_seat=0"]), &["the same rules"]);
    rejects(&with(&["--ruleset", "wikipedia", "--ruleset", "wikipedia:tap=often"]), &["tap"]);
    rejects(&with(&["--ruleset", "wikipedia", "--ruleset", "celko1998", "--margin", "2"]), &["--margin"]);
    rejects(&with(&["--ruleset", "wikipedia", "--ruleset", "celko1998", "--seconds-per-turn", "0"]), &["seconds"]);
    let file = temp_path("bad.rules");
    std::fs::write(&file, "tap = draw_two\n").unwrap();
    rejects(
        &with(&["--ruleset", "wikipedia", "--ruleset", file.to_str().unwrap()]),
        &["names no preset", "preset = NAME"],
    );
    let _ = std::fs::remove_file(&file);
}
