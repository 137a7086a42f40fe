//! The engine's JSONL logs pass an independent referee.
//!
//! `scripts/checks/referee.py` is a second implementation of the `wikipedia` and `harbour_cay` rules, written from
//! RULES.md alone, with the house rules `tap=draw_two`, `tap_forget`, `tap_catch` and
//! `uncovered_double_penalty`. It replays a log and checks that every event is legal and that every forced
//! action (must-play, draws, follow-ups, marks, unmarks, passes, round ends, scores, winners) is
//! exactly what the rules require. These tests run it on the golden log and on fresh logs from the
//! binary across sets, player counts and bots, and check that it rejects corrupted logs.
//! python3 must be on PATH (it is part of the machine image and of CI).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the referee on `log`; panics with a clear message if python3 cannot be started.
fn referee(log: &Path) -> Output {
    let script = manifest_dir().join("scripts").join("checks").join("referee.py");
    Command::new("python3").arg(&script).arg(log).output().unwrap_or_else(|err| {
        panic!("cannot run `python3 {}`: {err}. python3 must be on PATH for the referee tests", script.display())
    })
}

/// Asserts that the referee accepts `log` and prints the OK line.
fn assert_accepted(log: &Path, what: &str) {
    let out = referee(log);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{what}: referee rejected {}:\n{stdout}{stderr}", log.display());
    assert!(stdout.starts_with("OK: ") && stdout.contains(" rounds, "), "{what}: unexpected output: {stdout}{stderr}");
}

/// Asserts that the referee rejects `log` with exit code 1 and `ILLEGAL line <line>: ...`.
fn assert_rejected(log: &Path, line: usize, what: &str) {
    let out = referee(log);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{what}: expected rejection, got:\n{stdout}{stderr}");
    let prefix = format!("ILLEGAL line {line}: ");
    assert!(stdout.starts_with(&prefix), "{what}: expected '{prefix}...', got: {stdout}{stderr}");
    assert_eq!(stdout.lines().count(), 1, "{what}: expected one line, got: {stdout}");
}

/// A scratch directory under the system temp dir, unique to this test process and `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mtrain-referee-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Plays one match with the binary, writing its log to `log`.
fn play(log: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_mtrain")).arg("play").args(args).arg("--log").arg(log).output().unwrap();
    assert!(out.status.success(), "mtrain play {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn golden_log_is_legal() {
    assert_accepted(&manifest_dir().join("tests/golden/play_seed7.jsonl"), "golden play_seed7");
}

#[test]
fn fresh_logs_are_legal() {
    // (set, players, bots, seed, extra arguments)
    let matches: &[(&str, &str, &str, &str, &[&str])] = &[
        ("6", "2", "random", "1", &[]),
        ("6", "2", "greedy", "2", &[]),
        ("6", "4", "greedy,random,greedy,random", "3", &[]),
        ("9", "3", "random", "4", &[]),
        ("9", "3", "greedy", "5", &[]),
        ("12", "2", "random", "6", &[]),
        ("12", "2", "greedy,random", "7", &[]),
        ("12", "4", "random", "8", &[]),
        ("12", "4", "greedy", "9", &[]),
        ("12", "4", "greedy:ties=random", "10", &[]),
        ("12", "6", "random", "11", &[]),
        ("12", "6", "greedy", "12", &[]),
        ("12", "8", "random", "13", &[]),
        ("12", "8", "greedy:ties=random", "14", &[]),
        ("15", "9", "random", "15", &[]),
        ("15", "9", "greedy", "16", &[]),
        ("18", "13", "random", "17", &[]),
        ("18", "13", "greedy", "18", &[]),
        ("12", "3", "random", "19", &["--rounds", "4", "--hand", "20"]),
        ("12", "5", "greedy:ties=random", "20", &["--rounds", "6"]),
    ];
    let dir = scratch("fresh");
    for &(set, players, bots, seed, extra) in matches {
        let what = format!("--set {set} --players {players} --bots {bots} --seed {seed} {}", extra.join(" "));
        let log = dir.join(format!("d{set}-p{players}-s{seed}.jsonl"));
        let mut args = vec!["--set", set, "--players", players, "--bots", bots, "--seed", seed];
        args.extend_from_slice(extra);
        play(&log, &args);
        assert_accepted(&log, &what);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Replaces the value of the string field `field` in one JSONL line.
fn set_string_field(line: &str, field: &str, value: &str) -> String {
    let key = format!("\"{field}\":\"");
    let start = line.find(&key).unwrap_or_else(|| panic!("no {field} in {line}")) + key.len();
    let end = start + line[start..].find('"').unwrap();
    format!("{}{value}{}", &line[..start], &line[end..])
}

fn string_field<'a>(line: &'a str, field: &str) -> &'a str {
    let key = format!("\"{field}\":\"");
    let start = line.find(&key).unwrap_or_else(|| panic!("no {field} in {line}")) + key.len();
    &line[start..start + line[start..].find('"').unwrap()]
}

fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

#[test]
fn corrupted_logs_are_rejected() {
    let dir = scratch("corrupt");
    let log = dir.join("base.jsonl");
    play(&log, &["--set", "12", "--players", "4", "--bots", "greedy,random,greedy,random", "--seed", "11"]);
    assert_accepted(&log, "uncorrupted base log");
    let lines: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(String::from).collect();
    let find = |kind: &str| -> Vec<usize> {
        let tag = format!("\"event\":\"{kind}\"");
        lines.iter().enumerate().filter(|(_, l)| l.contains(&tag)).map(|(i, _)| i).collect()
    };

    // 1. Swap the tiles of two draws: the first of them no longer takes the boneyard's next tile.
    let draws = find("draw");
    let (a, b) = (draws[0], draws[1]);
    let (ta, tb) = (string_field(&lines[a], "tile").to_string(), string_field(&lines[b], "tile").to_string());
    assert_ne!(ta, tb);
    let mut bad = lines.clone();
    bad[a] = set_string_field(&lines[a], "tile", &tb);
    bad[b] = set_string_field(&lines[b], "tile", &ta);
    let path = dir.join("swapped-draws.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, a + 1, "two draw tiles swapped");

    // 2. Drop a mark: the failed turn must end with the marker going on.
    let mark = find("mark")[0];
    let mut bad = lines.clone();
    bad.remove(mark);
    let path = dir.join("dropped-mark.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, mark + 1, "mark line dropped");

    // 3. Play the engine tile, which is never in a hand.
    let play_line = find("play")[0];
    let mut bad = lines.clone();
    bad[play_line] = set_string_field(&lines[play_line], "tile", "12-12");
    let path = dir.join("engine-played.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, play_line + 1, "a play's tile changed to the engine");

    // 4. Turn a play into a draw-less mark: must-play is violated.
    let mut bad = lines.clone();
    let seat_field = &lines[play_line][lines[play_line].find("\"seat\":").unwrap()..];
    let seat: String = seat_field["\"seat\":".len()..].chars().take_while(char::is_ascii_digit).collect();
    bad[play_line] = format!("{{\"event\":\"mark\",\"seat\":{seat}}}");
    let path = dir.join("play-to-mark.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, play_line + 1, "a play replaced by a mark");

    // 5. A wrong total in match_end.
    let last = lines.len() - 1;
    assert!(lines[last].contains("\"match_end\""));
    let mut bad = lines.clone();
    // Prefixing "1000" to the first total makes it a different number.
    bad[last] = lines[last].replacen("\"totals\":[", "\"totals\":[1000", 1);
    let path = dir.join("bad-totals.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, last + 1, "match_end totals changed");

    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn harbour_cay_logs_are_legal_redeals_and_stuck_rounds_included() {
    // (players, bots, seed, extra arguments); the first two meet redealt deals (a repeated
    // round event), the small hands make redeals and stuck rounds common.
    let matches: &[(&str, &str, &str, &[&str])] = &[
        ("2", "hoarder,hoarder", "10565069067352601973", &[]),
        ("6", "hoarder", "3560248796974285688", &["--hand", "1"]),
        ("4", "greedy,random,greedy,random", "7", &[]),
        ("3", "random", "21", &["--hand", "2"]),
        ("5", "greedy", "22", &["--hand", "3"]),
        ("10", "greedy:ties=random", "23", &[]),
    ];
    let dir = scratch("harbour");
    let (mut redeals, mut stuck) = (0, 0);
    for &(players, bots, seed, extra) in matches {
        let what = format!("harbour_cay --players {players} --bots {bots} --seed {seed} {}", extra.join(" "));
        let log = dir.join(format!("p{players}-s{seed}.jsonl"));
        let mut args = vec!["--rules", "harbour_cay", "--players", players, "--bots", bots, "--seed", seed];
        args.extend_from_slice(extra);
        play(&log, &args);
        assert_accepted(&log, &what);
        let text = std::fs::read_to_string(&log).unwrap();
        redeals += text.matches(r#""redeal":true"#).count();
        stuck += text.matches(r#""reason":"stuck""#).count();
    }
    assert!(redeals >= 3 && stuck >= 1, "{redeals} redeals, {stuck} stuck rounds: the sample lost its edge cases");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn corrupted_harbour_cay_logs_are_rejected() {
    let dir = scratch("harbour-corrupt");
    let log = dir.join("base.jsonl");
    play(&log, &["--rules", "harbour_cay", "--players", "2", "--bots", "hoarder", "--seed", "10565069067352601973"]);
    assert_accepted(&log, "uncorrupted harbour_cay log");
    let lines: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(String::from).collect();
    let first_with = |tag: &str| lines.iter().position(|l| l.contains(tag)).unwrap_or_else(|| panic!("no {tag}"));

    // 1. A redealt deal passed off as a played one: someone must hold a tile showing e.
    let r = first_with(r#""redeal":true"#);
    let mut bad = lines.clone();
    bad[r] = lines[r].replace(r#""redeal":true"#, r#""first":0"#);
    let path = dir.join("no-redeal.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, r + 1, "redeal flag removed");

    // 2. The repeated round event dropped: the redealt deal would have to be played.
    let mut bad = lines.clone();
    bad.remove(r + 1);
    let path = dir.join("no-repeat.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, r + 2, "repeated round event dropped");

    // 3. The engine placed by the wrong seat.
    let e = first_with(r#""event":"engine""#);
    let mut bad = lines.clone();
    bad[e] = lines[e].replace(r#""seat":"#, r#""seat":1"#);
    let path = dir.join("engine-seat.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, e + 1, "engine seat changed");

    // 4. A stuck round reported as blocked.
    let s = first_with(r#""reason":"stuck""#);
    let mut bad = lines.clone();
    bad[s] = lines[s].replace(r#""reason":"stuck""#, r#""reason":"blocked""#);
    let path = dir.join("stuck-as-blocked.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, s + 1, "stuck round_end turned into blocked");

    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tournament_game_logs_are_legal() {
    let dir = scratch("tournament-logs");
    let (out, logs) = (dir.join("out"), dir.join("logs"));
    for rules in ["wikipedia", "harbour_cay"] {
        let _ = std::fs::remove_dir_all(&logs);
        let run = Command::new(env!("CARGO_BIN_EXE_mtrain"))
            .args(["tournament", "--rules", rules, "--games", "256", "--quiet", "--force", "--out"])
            .arg(&out)
            .arg("--log-games")
            .arg(&logs)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let mut files: Vec<PathBuf> = std::fs::read_dir(&logs).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        assert_eq!(files.len(), 4, "{rules}: 256 games of 4 rotations in chunks of 16 deals");
        for f in &files {
            let r = referee(f);
            let text = String::from_utf8_lossy(&r.stdout);
            assert!(r.status.success(), "{rules}: {}: {text}", f.display());
            assert!(text.starts_with("OK: 64 matches"), "{text}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The house rules: the last-tile penalty with its coins (each recomputed by the referee from
/// the match seed) and the uncovered-double penalty, on both presets, single matches and a
/// tournament's logs; and the referee rejects a coin or a penalty changed.
#[test]
fn house_rule_logs_are_legal() {
    let dir = scratch("house");
    let house = ["tap=draw_two", "tap_forget=0.6", "tap_catch=0.5", "uncovered_double_penalty=2"];
    let rule_args: Vec<&str> = house.iter().flat_map(|r| ["--rule", *r]).collect();
    let (mut taps, mut doubles) = (0, 0);
    // (preset, players, bots, seed, extra arguments)
    let matches: &[(&str, &str, &str, &str, &[&str])] = &[
        ("wikipedia", "4", "greedy,random,greedy,random", "1", &[]),
        ("wikipedia", "3", "random", "2", &["--hand", "6"]),
        ("wikipedia", "6", "greedy:ties=random", "3", &[]),
        ("harbour_cay", "4", "greedy,random", "4", &[]),
        ("harbour_cay", "2", "hoarder,random", "5", &["--hand", "5"]),
    ];
    for &(preset, players, bots, seed, extra) in matches {
        let what = format!("{preset} --players {players} --bots {bots} --seed {seed} {} {house:?}", extra.join(" "));
        let log = dir.join(format!("{preset}-p{players}-s{seed}.jsonl"));
        let mut args = vec!["--rules", preset, "--players", players, "--bots", bots, "--seed", seed];
        args.extend_from_slice(extra);
        args.extend_from_slice(&rule_args);
        play(&log, &args);
        assert_accepted(&log, &what);
        let text = std::fs::read_to_string(&log).unwrap();
        taps += text.matches(r#""event":"tap""#).count();
        doubles += text.matches(r#""reason":"uncovered_double""#).count();
    }
    assert!(taps >= 20 && doubles >= 20, "{taps} taps, {doubles} double penalties: the sample lost its edge");

    // A tournament under the house rules: every game's log passes.
    let (out, logs) = (dir.join("out"), dir.join("logs"));
    let mut args = vec!["tournament", "--rules", "wikipedia", "--games", "64", "--quiet", "--force"];
    args.extend_from_slice(&rule_args);
    let run = Command::new(env!("CARGO_BIN_EXE_mtrain"))
        .args(&args)
        .arg("--out")
        .arg(&out)
        .arg("--log-games")
        .arg(&logs)
        .output();
    let run = run.unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let files: Vec<PathBuf> = std::fs::read_dir(&logs).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(!files.is_empty());
    for f in &files {
        let r = referee(f);
        let text = String::from_utf8_lossy(&r.stdout);
        assert!(r.status.success(), "{}: {text}", f.display());
        assert!(text.starts_with("OK: 64 matches"), "{text}");
    }

    // Corrupted: a coin turned over, a penalty tile dropped, a penalty's reason removed.
    let log = dir.join("wikipedia-p4-s1.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(String::from).collect();
    let first_with = |tag: &str| lines.iter().position(|l| l.contains(tag)).unwrap_or_else(|| panic!("no {tag}"));
    let cases = [
        (r#""forgot":true"#, r#""forgot":false"#, "a forgotten announcement logged as made"),
        (r#""forgot":false"#, r#""forgot":true"#, "an announcement logged as forgotten"),
        (r#""reason":"uncovered_double","#, "", "an uncovered-double penalty without its reason"),
    ];
    for (k, (from, to, what)) in cases.into_iter().enumerate() {
        let at = first_with(from);
        let mut bad = lines.clone();
        bad[at] = lines[at].replacen(from, to, 1);
        let path = dir.join(format!("bad{k}.jsonl"));
        write_lines(&path, &bad);
        assert_rejected(&path, at + 1, what);
    }
    let at = first_with(r#""reason":"uncovered_double","tiles":[""#);
    let mut bad = lines.clone();
    bad[at] = format!("{}]}}", &lines[at][..lines[at].find("\"tiles\":[").unwrap() + "\"tiles\":[".len()]);
    let path = dir.join("bad-tiles.jsonl");
    write_lines(&path, &bad);
    assert_rejected(&path, at + 1, "a double penalty that draws nothing from a full boneyard");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Options the referee does not play are refused, not ignored.
#[test]
fn unknown_options_are_refused() {
    let dir = scratch("options");
    let log = dir.join("opts.jsonl");
    play(&log, &["--players", "2", "--rounds", "1", "--seed", "3", "--rule", "tap=draw_one_else_skip"]);
    let out = referee(&log);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.starts_with("ILLEGAL line 1: option tap='draw_one_else_skip' is not supported"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}
