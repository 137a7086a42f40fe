//! `docs/log-format.md` against the game log's schema (`mexican_train::log`): every event and
//! field the docs list is one the log writes, and every one it writes is listed, so the docs
//! cannot drift from the serde types. The log is a real one: matches played through the library
//! with fixed seeds under rules that produce every kind of event.

use mexican_train::log::{EVENTS, JsonLog, MatchLine};
use mexican_train::rules::TableSpec;
use mexican_train::{Bot, play_match};
use std::collections::{BTreeMap, BTreeSet};

type Fields = BTreeMap<String, BTreeSet<String>>;

fn docs() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/log-format.md")).unwrap()
}

/// The keys of a JSON object's text (the top level only), `event` left out.
fn keys(line: &str) -> BTreeSet<String> {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    v.as_object().unwrap().keys().filter(|k| *k != "event").cloned().collect()
}

/// Every `"word":` in `s`: the keys of an example, read without parsing it (examples elide
/// with `...`).
fn quoted_keys(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let parts: Vec<&str> = s.split('"').collect();
    for i in (1..parts.len().saturating_sub(1)).step_by(2) {
        let word = parts[i];
        if parts[i + 1].trim_start().starts_with(':')
            && !word.is_empty()
            && word.bytes().all(|c| c.is_ascii_lowercase() || c == b'_' || c.is_ascii_digit())
        {
            out.push(word.to_string());
        }
    }
    out
}

/// The backticked words of `s`.
fn ticked(s: &str) -> Vec<String> {
    s.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// The events and fields the docs list: each `### ` section under `## Events` names its events
/// in backticks; a field is a row of its table (`| \`field\` | ...`), a key of an example line
/// (`{"event":...}`, to the event it names), or a `"key":` its prose quotes.
fn documented() -> Fields {
    let text = docs();
    let events_part = text.split("\n## Events\n").nth(1).unwrap().split("\n## ").next().unwrap();
    let mut fields = Fields::new();
    for section in events_part.split("\n### ").skip(1) {
        let (heading, body) = section.split_once('\n').unwrap();
        let events = ticked(heading);
        assert!(!events.is_empty(), "a section of docs/log-format.md names no event: {heading}");
        for e in &events {
            fields.entry(e.clone()).or_default();
        }
        for line in body.lines() {
            let line = line.trim();
            if line.starts_with("{\"event\":") {
                let event = line.split('"').nth(3).unwrap().to_string();
                assert!(events.contains(&event), "an example of '{event}' under {heading}");
                let set = fields.get_mut(&event).unwrap();
                set.extend(quoted_keys(line).into_iter().filter(|k| k != "event"));
            } else if let Some(row) = line.strip_prefix("| `") {
                assert_eq!(events.len(), 1, "a table under {heading}, which names several events");
                let field = row.split('`').next().unwrap().to_string();
                fields.get_mut(&events[0]).unwrap().insert(field);
            } else if events.len() == 1 {
                for t in ticked(line) {
                    if t.starts_with('"') {
                        fields.get_mut(&events[0]).unwrap().extend(quoted_keys(&t));
                    }
                }
            }
        }
    }
    fields
}

fn bots(specs: &[&str]) -> Vec<Bot> {
    specs.iter().map(|s| Bot::parse(s).unwrap()).collect()
}

/// A log of one match, its lines.
fn log(table: &TableSpec, seed: u64, specs: &[&str], game: Option<u64>) -> Vec<String> {
    let (rules, changes) = table.build().unwrap();
    let names: Vec<String> = specs.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::new();
    let mut jl = JsonLog::new(&mut out, names).with_options(changes);
    if let Some(g) = game {
        jl = jl.with_game(g);
    }
    play_match(&rules, seed, &mut bots(specs), &mut jl);
    assert!(jl.out.error.is_none());
    drop(jl);
    String::from_utf8(out).unwrap().lines().map(str::to_string).collect()
}

fn table(preset: &str, players: u8, rounds: u8, rules: &[&str]) -> TableSpec {
    TableSpec {
        preset: preset.into(),
        set: 12,
        players,
        hand: None,
        rounds: Some(rounds),
        rules: rules.iter().map(|s| s.to_string()).collect(),
    }
}

/// What real logs write: the fields of each event, over matches under rules that between them
/// produce every event.
fn written() -> Fields {
    let tables = [
        table("wikipedia", 4, 3, &[]),
        table("celko1998", 4, 3, &["tap=draw_two"]),
        table("harbour_cay", 4, 4, &["tap=draw_one_else_skip"]),
        table("family_house", 3, 3, &["v3=true", "branching_doubles=four_way"]),
        table("dominorules", 2, 3, &["galt_opening=true", "tap=draw_two"]),
        table("wikipedia", 4, 4, &["tap=draw_two", "tap_forget=0.7", "tap_catch=0.6", "uncovered_double_penalty=2"]),
    ];
    let mut fields = Fields::new();
    for (i, t) in tables.iter().enumerate() {
        for seed in 0..12u64 {
            let specs: Vec<&str> = ["random", "greedy"].iter().cycle().take(t.players as usize).copied().collect();
            let game = (seed % 2 == 0).then_some(seed + i as u64);
            for line in log(t, seed, &specs, game) {
                let v: serde_json::Value = serde_json::from_str(&line).unwrap();
                let event = v["event"].as_str().unwrap().to_string();
                fields.entry(event).or_default().extend(keys(&line));
            }
        }
    }
    // A redeal (Great Harbour Cay: no hand holds a tile of the engine number) is rare: short
    // hands at two seats, until one is seen.
    let short = TableSpec { hand: Some(4), ..table("harbour_cay", 2, 13, &[]) };
    for seed in 0..200u64 {
        let lines = log(&short, seed, &["random", "greedy"], None);
        if lines.iter().any(|l| l.contains("\"redeal\":true")) {
            for line in lines.iter().filter(|l| l.starts_with("{\"event\":\"round\"")) {
                fields.entry("round".into()).or_default().extend(keys(line));
            }
            break;
        }
    }
    fields
}

#[test]
fn the_docs_list_every_event_and_field_the_log_writes_and_no_other() {
    let docs = documented();
    let log = written();
    let listed: BTreeSet<&String> = docs.keys().collect();
    let known: BTreeSet<String> = EVENTS.iter().map(|e| e.to_string()).collect();
    assert_eq!(listed, known.iter().collect(), "the events of docs/log-format.md and log::EVENTS");
    let seen: BTreeSet<&String> = log.keys().collect();
    assert_eq!(seen, known.iter().collect(), "the events the test's matches wrote, and log::EVENTS");
    for (event, fields) in &log {
        assert_eq!(&docs[event], fields, "the fields of '{event}': docs/log-format.md (left) and the log (right)");
    }
}

#[test]
fn the_worked_example_is_what_the_library_writes() {
    let text = docs();
    let example = text.split("\n## A worked example\n").nth(1).unwrap();
    let block = example.split("```text\n").nth(1).unwrap().split("```").next().unwrap();
    let want: Vec<&str> = block.lines().collect();
    let t =
        TableSpec { preset: "wikipedia".into(), set: 6, players: 2, hand: None, rounds: Some(1), rules: Vec::new() };
    assert_eq!(log(&t, 7, &["greedy", "random"], None), want);
}

#[test]
fn a_match_line_reads_back_as_written() {
    let t = table("harbour_cay", 3, 1, &["tap=draw_two"]);
    let lines = log(&t, 5, &["greedy", "random", "greedy"], Some(41));
    let m: MatchLine = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(m.game, Some(41));
    assert_eq!(m.options, [("tap".to_string(), "draw_two".to_string())]);
    assert_eq!(m.to_line(), lines[0]);
    // A non-string option value is read as its JSON text.
    let m: MatchLine = serde_json::from_str(&lines[0].replace("\"draw_two\"", "true")).unwrap();
    assert_eq!(m.options[0].1, "true");
}

#[test]
fn the_referee_reads_only_documented_fields() {
    let referee = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/checks/referee.py")).unwrap();
    let listed: BTreeSet<String> = documented().into_values().flatten().collect();
    for part in referee.split("need(ev, line, \"").skip(1) {
        let field = part.split('"').next().unwrap();
        assert!(
            listed.contains(field),
            "scripts/checks/referee.py needs '{field}', which docs/log-format.md does not list"
        );
    }
}
