//! `mtrain tournament` and `mtrain merge` as a user runs them: reproducible at any thread
//! count, shards that merge exactly, early stopping, interruption and resumption, bad input.

mod common;
use common::{bin, mtrain, run_ok, temp_path};
use std::path::{Path, PathBuf};
use std::process::Command;

fn read(dir: &Path, f: &str) -> String {
    std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(f).display()))
}

const REPORTS: [&str; 7] =
    ["summary.csv", "seats.csv", "pairs.csv", "ratings.csv", "round_stats.csv", "games.csv", "rounds.csv"];

#[test]
fn byte_identical_at_any_thread_count_and_seed_matters() {
    let base = ["tournament", "--bots", "greedy,random,greedy:ties=random", "--players", "3", "--set", "9"];
    let (a, b, c) = (temp_path("t1"), temp_path("t2"), temp_path("seed"));
    let common = ["--games", "600", "--rounds", "4", "--per-game", "--quiet"];
    let s1 = run_ok(&[&base[..], &common, &["--threads", "1", "--out", a.to_str().unwrap()]].concat());
    let s2 = run_ok(&[&base[..], &common, &["--threads", "2", "--out", b.to_str().unwrap()]].concat());
    assert_eq!(s1, s2);
    for f in REPORTS {
        assert_eq!(read(&a, f), read(&b, f), "{f} differs between 1 and 2 threads");
    }
    let s3 = run_ok(&[&base[..], &common, &["--seed", "2", "--out", c.to_str().unwrap()]].concat());
    assert_ne!(s1, s3);
    assert_ne!(read(&a, "summary.csv"), read(&c, "summary.csv"));
    // Shape: 600 games of 3 seats; 4 rounds each.
    assert_eq!(read(&a, "games.csv").lines().count(), 1 + 600 * 3);
    assert_eq!(read(&a, "rounds.csv").lines().count(), 1 + 600 * 4);
    let summary = read(&a, "summary.csv");
    assert!(
        summary.starts_with("strategy,spec,sees_hidden,games,win_rate,win_lo,win_hi,mean_score,score_lo,score_hi,")
    );
    assert_eq!(summary.lines().count(), 4);
    assert!(s1.contains("600 games = 200 deals x 3 rotations"));
    let manifest = read(&a, "manifest.json");
    assert!(manifest.contains("\"complete\": true") && manifest.contains("\"threads\": 1"));
    for d in [a, b, c] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn play_replays_a_tournament_game_from_its_deal_seed() {
    let d = temp_path("replay");
    run_ok(&[
        "tournament",
        "--bots",
        "greedy,random",
        "--games",
        "40",
        "--rounds",
        "3",
        "--per-game",
        "--quiet",
        "--out",
        d.to_str().unwrap(),
    ]);
    let games = read(&d, "games.csv");
    // Deal 7, rotation 0 = game 28. The seating order varies over deals: deal 7 plays the
    // lineup greedy, random, greedy, random in its second order, random and greedy swapped at
    // the last two seats.
    let rows: Vec<Vec<&str>> =
        games.lines().skip(1).map(|l| l.split(',').collect()).filter(|r: &Vec<&str>| r[0] == "28").collect();
    assert_eq!(rows.len(), 4);
    let seed = rows[0][2];
    let totals: Vec<&str> = rows.iter().map(|r| r[7]).collect();
    let bots: Vec<&str> = rows.iter().map(|r| r[6]).collect();
    assert_eq!(bots, ["greedy", "random", "random", "greedy"]);
    let text = run_ok(&["play", "--bots", &bots.join(","), "--rounds", "3", "--seed", seed]);
    let line = text.lines().find(|l| l.trim_start().starts_with("totals")).unwrap();
    let nums: Vec<&str> = line.split(':').skip(1).map(|p| p.split_whitespace().next().unwrap()).collect();
    assert_eq!(nums, totals, "{line}");
    // The hex column names the same seed, and --seed takes it as it is written.
    let hex = rows[0][3];
    assert_eq!(u64::from_str_radix(hex.trim_start_matches("0x"), 16).unwrap().to_string(), seed);
    let again = run_ok(&["play", "--bots", &bots.join(","), "--rounds", "3", "--seed", hex]);
    assert_eq!(again.replace(&format!("seed {seed}"), ""), text.replace(&format!("seed {seed}"), ""));
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn greedy_beats_random_with_intervals_that_exclude_a_tie() {
    let d = temp_path("strength");
    run_ok(&[
        "tournament",
        "--bots",
        "greedy,random",
        "--games",
        "2000",
        "--rounds",
        "5",
        "--quiet",
        "--out",
        d.to_str().unwrap(),
    ]);
    let pairs = read(&d, "pairs.csv");
    let row: Vec<&str> = pairs.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(&row[..2], ["greedy", "random"]);
    let lo: f64 = row[7].parse().unwrap();
    assert!(lo > 0.5, "greedy's head-to-head score interval {row:?} should lie above one half");
    // Per-seat games add up: 2000 games, each seat once per game.
    let seats = read(&d, "seats.csv");
    assert!(seats.lines().skip(1).all(|l| l.split(',').nth(1) == Some("2000")));
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn shards_merge_to_the_single_run() {
    let whole = temp_path("whole");
    let args = [
        "tournament",
        "--bots",
        "greedy,random",
        "--players",
        "4",
        "--games",
        "1000",
        "--rounds",
        "3",
        "--quiet",
        "--per-game",
    ];
    run_ok(&[&args[..], &["--out", whole.to_str().unwrap()]].concat());
    let parts: Vec<PathBuf> = (1..=3).map(|i| temp_path(&format!("shard{i}"))).collect();
    for (i, p) in parts.iter().enumerate() {
        let shard = format!("{}/3", i + 1);
        run_ok(&[&args[..], &["--shard", &shard, "--threads", "1", "--out", p.to_str().unwrap()]].concat());
        assert!(read(p, "manifest.json").contains(&format!("\"shard\": \"{shard}\"")));
    }
    let merged = temp_path("merged");
    // Merge in a scrambled order: the result does not depend on it.
    run_ok(&[
        "merge",
        parts[2].to_str().unwrap(),
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    for f in REPORTS {
        assert_eq!(read(&whole, f), read(&merged, f), "merged {f} differs from the single run");
    }
    assert!(read(&merged, "manifest.json").contains("\"complete\": true"));
    // One shard's folder given twice is refused; two shards alone merge but are incomplete.
    let out = mtrain(&[
        "merge",
        parts[0].to_str().unwrap(),
        parts[0].to_str().unwrap(),
        "--out",
        temp_path("dup").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is given twice (it holds shard 1/3)"), "{err}");
    let partial = temp_path("partial");
    let text = run_ok(&[
        "merge",
        parts[0].to_str().unwrap(),
        parts[1].to_str().unwrap(),
        "--out",
        partial.to_str().unwrap(),
        "--partial",
    ]);
    assert!(text.contains("Incomplete"));
    assert!(read(&partial, "manifest.json").contains("\"complete\": false"));
    for d in parts.iter().chain([&whole, &merged, &partial]) {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn shard_auto_reads_the_schedulers_variables() {
    let (a, b, c, d) = (temp_path("slurm"), temp_path("slurm-flag"), temp_path("k8s"), temp_path("whole"));
    let args = ["tournament", "--bots", "greedy,random", "--games", "400", "--rounds", "2", "--quiet"];
    let with_env = |extra: &[&str], env: &[(&str, &str)]| {
        let mut cmd = bin();
        cmd.args(args).args(extra);
        for k in [
            "SLURM_ARRAY_TASK_ID",
            "SLURM_ARRAY_TASK_MIN",
            "SLURM_ARRAY_TASK_COUNT",
            "JOB_COMPLETION_INDEX",
            "PARALLEL_SEQ",
        ] {
            cmd.env_remove(k);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    // A Slurm array 4-5: task 5 is slice 2 of 2.
    let slurm = [("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_MIN", "4"), ("SLURM_ARRAY_TASK_COUNT", "2")];
    let out = with_env(&["--shard", "auto", "--out", a.to_str().unwrap()], &slurm);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    run_ok(&[&args[..], &["--shard", "2/2", "--out", b.to_str().unwrap()]].concat());
    assert_eq!(read(&a, "summary.csv"), read(&b, "summary.csv"));
    // The stored arguments name the slice, not `auto`: --resume and merge need no variables.
    let tally = read(&a, "tally.json");
    assert!(tally.contains("\"2/2\"") && !tally.contains("\"auto\""), "{tally}");
    // A Kubernetes Indexed Job's index 1 of 2 (from 0) is the same slice.
    let out = with_env(&["--shard", "auto/2", "--out", c.to_str().unwrap()], &[("JOB_COMPLETION_INDEX", "1")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(read(&c, "summary.csv"), read(&b, "summary.csv"));
    // Without --shard the variables do not shard the run, and a note says so.
    let out = with_env(&["--out", d.to_str().unwrap()], &slurm);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --shard auto to play its slice"));
    assert!(read(&d, "manifest.json").contains("\"shard\": null"));
    // A lone task id, or no scheduler at all, is refused with one line.
    for (env, needle) in [
        (&[("SLURM_ARRAY_TASK_ID", "3")][..], "SLURM_ARRAY_TASK_COUNT is not"),
        (&[][..], "found no scheduler's shard"),
        (&[("JOB_COMPLETION_INDEX", "3")][..], "give --shard auto/N"),
    ] {
        let out = with_env(&["--shard", "auto"], env);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle) && err.lines().count() == 1, "{err}");
    }
    for dir in [a, b, c, d] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn sprt_stops_at_the_same_game_at_any_thread_count() {
    let base =
        ["tournament", "--bots", "greedy,random", "--players", "2", "--games", "200000", "--sprt", "0,20", "--quiet"];
    let one = run_ok(&[&base[..], &["--threads", "1"]].concat());
    let two = run_ok(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert!(one.contains("accepted H1 (elo >= 20)"), "{one}");
    let rounds: u64 = one.split("Rounds (").nth(1).unwrap().split(')').next().unwrap().parse().unwrap();
    assert!(rounds < 200_000 * 13 / 10, "the test should stop long before the planned games");
}

#[test]
fn interrupted_run_resumes_to_the_uninterrupted_result() {
    let full = temp_path("full");
    let part = temp_path("part");
    let args = [
        "tournament",
        "--bots",
        "greedy,random,greedy:ties=random",
        "--games",
        "30000",
        "--rounds",
        "13",
        "--quiet",
        "--threads",
        "2",
    ];
    run_ok(&[&args[..], &["--per-game", "--out", full.to_str().unwrap()]].concat());
    let mut child = bin()
        .args(args)
        .args(["--per-game", "--out", part.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "an interrupted run exits with 130");
    let manifest = read(&part, "manifest.json");
    assert!(
        manifest.contains("\"complete\": false") && manifest.contains("\"stopped\": \"interrupted\""),
        "{manifest}"
    );
    assert_ne!(read(&part, "summary.csv"), read(&full, "summary.csv"));
    run_ok(&["tournament", "--resume", part.to_str().unwrap(), "--quiet", "--threads", "1"]);
    for f in REPORTS {
        assert_eq!(read(&full, f), read(&part, f), "resumed {f} differs from the uninterrupted run");
    }
    assert!(read(&part, "manifest.json").contains("\"complete\": true"));
    std::fs::remove_dir_all(full).unwrap();
    std::fs::remove_dir_all(part).unwrap();
}

#[test]
fn bad_input_gets_one_line_exit_2_and_writes_nothing() {
    let out_dir = temp_path("bad");
    let o = out_dir.to_str().unwrap();
    let file = std::env::temp_dir().join(format!("mtrain-tour-{}-afile", std::process::id()));
    std::fs::write(&file, "x").unwrap();
    let under_file = file.join("sub");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--games", "0"], "'--games <G>': 0 plays nothing"),
        (vec!["--players", "9"], "9 players on double-12"),
        (vec!["--players", "1"], "1 player is not playable"),
        (vec!["--bots", "greedy,random,greedy:ties=random,alien"], "unknown bot 'alien'"),
        (vec!["--bots", "greedy,random,greedy:ties=random", "--players", "2", "--no-rotate"], "do not fit 2 seats"),
        (vec!["--shard", "3/2"], "invalid value '3/2' for '--shard <I/N|auto|auto/N>'"),
        (vec!["--shard", "0/2"], "invalid value '0/2' for '--shard <I/N|auto|auto/N>'"),
        (vec!["--sprt", "0,10", "--bots", "greedy,random,greedy:ties=random"], "--sprt compares two bots"),
        (vec!["--sprt", "10,0"], "invalid value '10,0' for '--sprt <ELO0,ELO1>'"),
        (vec!["--sprt", "0,10", "--bots", "greedy,greedy:ties=first"], "the field has 1 distinct bot"),
        (vec!["--threads", "0"], "'--threads <T>': 0 threads"),
        (vec!["--games", "lots"], "invalid value 'lots' for '--games <G>'"),
        (vec!["--games", "-5"], "invalid value '-5' for '--games <G>'"),
        (vec!["--seed", "-1"], "invalid value '-1' for '--seed <S>'"),
    ];
    for (extra, needle) in cases {
        let args = [&["tournament", "--out", o][..], &extra].concat();
        let out = mtrain(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
        assert!(out.stdout.is_empty());
        assert!(!out_dir.exists(), "{args:?} created the output directory");
    }
    let out = mtrain(&["tournament", "--games", "10", "--out", under_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write to --out"));
    let out = mtrain(&["tournament", "--resume", o]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot resume"));
    let out = mtrain(&["tournament", "--resume", o, "--games", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("drop --games 5"));
    std::fs::remove_file(file).unwrap();
}

/// The share of seats that cannot start their train on turn 1 is a hypergeometric probability:
/// no tile of the round's number among 15 drawn from 90, 12 of which show it: C(78,15)/C(90,15).
#[test]
fn no_start_rate_matches_the_exact_probability() {
    let dir = temp_path("nostart");
    let d = dir.to_str().unwrap();
    run_ok(&["tournament", "--bots", "greedy", "--games", "400", "--quiet", "--out", d]);
    let stats = read(&dir, "round_stats.csv");
    let row = stats.lines().find(|l| l.starts_with("no_start_rate,")).expect("no_start_rate row");
    assert!(row.starts_with("no_start_rate,seat_round,20800,"), "{row}");
    let value: f64 = row.split(',').nth(3).unwrap().parse().unwrap();
    let exact = (0..15).map(|i| (78.0 - i as f64) / (90.0 - i as f64)).product::<f64>();
    assert!((exact - 0.0954).abs() < 1e-3);
    // 400 games x 13 rounds x 4 seats: the standard deviation is about 0.0014.
    assert!((value - exact).abs() < 0.015, "measured {value}, exact {exact}");
}

/// Per-game rows of one chunk, by game: the score of each seat.
fn chunk_scores(t: &mexican_train::tournament::Tournament) -> Vec<Vec<u32>> {
    let out = t.play_chunk(0, true);
    let text = String::from_utf8(out.games_csv).unwrap();
    let mut games: Vec<Vec<u32>> = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split(',').collect();
        let (g, score): (usize, u32) = (f[0].parse().unwrap(), f[7].parse().unwrap());
        if games.len() <= g {
            games.resize(g + 1, Vec::new());
        }
        games[g].push(score);
    }
    games
}

#[test]
fn one_deterministic_bot_replays_one_game_in_every_rotation_so_rotations_are_skipped() {
    use mexican_train::rules::Rules;
    use mexican_train::strategies::deterministic;
    use mexican_train::strategy::StrategySpec;
    use mexican_train::tournament::{Schedule, Tournament};
    let rules = Rules { players: 4, rounds: Some(3), ..Rules::preset("wikipedia").unwrap() };
    // The justification: with planner in every seat, each rotation of a deal gives every seat
    // (every hand) the same score; with random bots the rotations differ.
    for (bot, same) in [("planner", true), ("greedy", true), ("random", false), ("greedy:ties=random", false)] {
        let specs: Vec<StrategySpec> = vec![bot.parse().unwrap()];
        assert_eq!(deterministic(&specs), same, "{bot}");
        let t = Tournament::new(rules.clone(), specs, Schedule::new(&[0], 4, true, 16, 5).unwrap());
        let games = chunk_scores(&t);
        let replays = (0..4).all(|d| (1..4).all(|r| games[4 * d + r] == games[4 * d]));
        assert_eq!(replays, same, "{bot}: {games:?}");
    }
    // The command line skips the replays and says so; a random bot keeps its rotations.
    let text = run_ok(&["tournament", "--bots", "planner", "--games", "40", "--rounds", "2", "--quiet"]);
    assert!(text.contains("40 games = 40 deals x 1 rotation;"), "{text}");
    assert!(text.contains("one deterministic bot in every seat"), "{text}");
    let text = run_ok(&["tournament", "--bots", "random", "--games", "40", "--rounds", "2", "--quiet"]);
    assert!(text.contains("40 games = 10 deals x 4 rotations;"), "{text}");
}

#[test]
fn seating_varies_by_default_and_can_be_fixed() {
    let d = temp_path("seating");
    let args = ["tournament", "--bots", "greedy,planner,random", "--players", "3", "--games", "60", "--rounds", "1"];
    let varied = run_ok(&[&args[..], &["--quiet", "--per-game", "--out", d.to_str().unwrap()]].concat());
    assert!(
        varied.contains("seating: every seat rotation, all 2 orders around the table in turn (balanced every 2 deals)"),
        "{varied}"
    );
    // Deal 0 seats greedy, planner, random; deal 1 greedy, random, planner.
    let games = read(&d, "games.csv");
    let seats = |g: &str| -> Vec<String> {
        games
            .lines()
            .filter(|l| l.starts_with(&format!("{g},")))
            .map(|l| l.split(',').nth(6).unwrap().to_string())
            .collect()
    };
    assert_eq!(seats("0"), ["greedy", "planner", "random"]);
    assert_eq!(seats("3"), ["greedy", "random", "planner"]);
    let fixed = run_ok(&[&args[..], &["--quiet", "--fixed-seating"]].concat());
    assert!(fixed.contains("seating: every seat rotation, the list's order around the table"), "{fixed}");
    assert_ne!(varied, fixed);
    std::fs::remove_dir_all(d).unwrap();
}
