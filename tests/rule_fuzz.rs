//! Every built-in bot under every `--rule` key and value the engine accepts, on every preset that
//! accepts it: a bot or an engine that panics under some rule fails the suite, not a user's run.
//!
//! The keys and their values come from the engine itself (`rule_keys()` and the "valid" list each
//! key's error names), and the bots from the built-in registry, so a rule or a bot added later is
//! covered without editing this file. Search bots play at the smallest budget.

use mexican_train::rules::{PRESETS, rule_keys};
use mexican_train::strategies::Registry;
use mexican_train::*;

/// The values `key` accepts, as its error message lists them, with numbers sampled: both ends
/// and the middle of a range, a few whole numbers, two seats and `random`.
fn values(key: &str) -> Vec<String> {
    let err = Rules::wikipedia().apply_rule(&format!("{key}=\u{1}")).unwrap_err();
    let valid = err.split_once("(valid: ").map(|(_, v)| &v[..v.len() - 1]).unwrap_or_else(|| panic!("{err}"));
    if valid.starts_with("a probability") {
        return ["0", "0.5", "1"].map(String::from).to_vec();
    }
    if let Some((lo, hi)) = valid.split_once(" to ") {
        let (lo, hi): (u32, u32) = (lo.parse().unwrap(), hi.parse().unwrap());
        return [lo, (lo + hi) / 2, hi].iter().map(u32::to_string).collect();
    }
    if valid.starts_with("a whole number") {
        return ["0", "1", "50"].map(String::from).to_vec();
    }
    if valid.starts_with("a seat number") {
        return ["0", "3", "random"].map(String::from).to_vec();
    }
    valid.split(", ").map(String::from).collect()
}

/// Every built-in bot, search bots at the smallest budget that still searches.
fn bots() -> Vec<String> {
    Registry::builtin()
        .entries()
        .iter()
        .map(|e| {
            let keys: Vec<&str> = e.params.iter().flatten().map(|p| p.key).collect();
            let mut spec = vec![];
            if keys.contains(&"samples") {
                spec.push("samples=2");
            }
            if keys.contains(&"depth") {
                spec.push("depth=3");
            }
            if keys.contains(&"ties") {
                spec.push("ties=random");
            }
            if spec.is_empty() { e.name.clone() } else { format!("{}:{}", e.name, spec.join(",")) }
        })
        .collect()
}

/// Plays three-round matches of `preset` under each value of each rule key in `keys`, seating every
/// built-in bot, and returns how many configurations the preset accepted.
fn fuzz(preset: &str, keys: &[&str]) -> usize {
    let bots = bots();
    let mut accepted = 0;
    for (k, key) in keys.iter().enumerate() {
        for (v, value) in values(key).iter().enumerate() {
            // The preset's own table, and two players where its deal table allows them.
            for players in [None, Some(2)] {
                let mut rules = Rules::preset(preset).unwrap();
                if let Some(n) = players {
                    rules.players = n;
                }
                if rules.apply_rule(&format!("{key}={value}")).is_err() || rules.validate().is_err() {
                    continue;
                }
                rules.rounds = Some(3);
                accepted += 1;
                let n = rules.players as usize;
                // The search bots play the preset's own table only: at two players under the
                // Celko build openings one of their matches takes minutes in a test build.
                let bots: Vec<&String> = bots.iter().filter(|b| players.is_none() || !b.contains("samples=")).collect();
                // Tables of n seats, each bot in turn, until every bot has played.
                for (t, start) in (0..bots.len()).step_by(n).enumerate() {
                    let mut table: Vec<Bot> =
                        (0..n).map(|s| Bot::parse(bots[(start + s) % bots.len()]).unwrap()).collect();
                    let seed = mix(mix(mix(k as u64, v as u64), t as u64), u64::from(rules.players));
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        play_match(&rules, seed, &mut table, &mut NoObserver)
                    }));
                    let names: Vec<&str> = (0..n).map(|s| bots[(start + s) % bots.len()].as_str()).collect();
                    let result = result.unwrap_or_else(|_| {
                        panic!("{preset} --rule {key}={value}, bots {}, seed {seed}: panicked", names.join(","))
                    });
                    assert_eq!(result.rounds, 3, "{preset} --rule {key}={value}");
                }
            }
        }
    }
    accepted
}

fn keys() -> Vec<&'static str> {
    let keys: &'static str = Box::leak(rule_keys().into_boxed_str());
    keys.split(", ").collect()
}

#[test]
fn the_fuzz_covers_every_bot_key_and_value() {
    let bots = bots();
    assert_eq!(bots.len(), Registry::builtin().entries().len());
    assert!(bots.iter().any(|b| b == "weighted") && bots.iter().any(|b| b.starts_with("expert:samples=2")));
    let keys = keys();
    assert!(keys.len() >= 45 && keys.contains(&"blanks_wild") && keys.contains(&"v5"), "{keys:?}");
    assert_eq!(values("blanks_wild"), ["true", "false"]);
    assert_eq!(values("max_mexican_trains"), ["0", "2", "4"]);
    assert!(values("v1").contains(&"true".to_string()));
    assert_eq!(values("tap_forget"), ["0", "0.5", "1"]);
    assert_eq!(values("uncovered_double_penalty"), ["0", "2", "4"]);
}

/// The audit's case: `weighted` indexed the trains with the orientation flag of a turned tile.
#[test]
fn weighted_plays_under_blanks_wild() {
    let mut rules = Rules::preset("wikipedia").unwrap();
    rules.apply_rule("blanks_wild=true").unwrap();
    rules.set = Pip::from_u8(9);
    rules.players = 2;
    rules.rounds = Some(3);
    let mut bots = vec![Bot::parse("greedy:ties=random").unwrap(), Bot::parse("weighted").unwrap()];
    let result = play_match(&rules, 11038120067453629327, &mut bots, &mut NoObserver);
    assert_eq!(result.rounds, 3);
}

/// The house rules' keys only act together (`tap_forget` and `tap_catch` need a tap penalty
/// model): every bot, search bots included (their sampled worlds draw coins of their own),
/// plays whole matches under them, on both plain presets.
#[test]
fn every_bot_plays_the_house_rules_together() {
    let bots = bots();
    for (preset, tap) in [("wikipedia", "draw_two"), ("harbour_cay", "draw_one_else_skip"), ("celko1998", "draw_two")] {
        let mut rules = Rules::preset(preset).unwrap();
        let changes = [
            format!("tap={tap}"),
            "tap_forget=0.5".into(),
            "tap_catch=0.7".into(),
            "uncovered_double_penalty=2".into(),
        ];
        rules.apply_rules(&changes).unwrap();
        rules.validate().unwrap();
        rules.rounds = Some(3);
        assert!(rules.tap_coins());
        let n = rules.players as usize;
        for (t, start) in (0..bots.len()).step_by(n).enumerate() {
            let mut table: Vec<Bot> = (0..n).map(|s| Bot::parse(&bots[(start + s) % bots.len()]).unwrap()).collect();
            let result = play_match(&rules, mix(44, t as u64), &mut table, &mut NoObserver);
            assert_eq!(result.rounds, 3, "{preset} {changes:?}");
        }
    }
}

macro_rules! preset_fuzz {
    ($name:ident, $preset:literal, $min:literal) => {
        #[test]
        fn $name() {
            assert!(PRESETS.iter().any(|p| p.name == $preset));
            let accepted = fuzz($preset, &keys());
            // Most keys' values apply to every preset; a preset refuses only the combinations its
            // deal or phases cannot take.
            assert!(accepted >= $min, "{} accepted only {accepted} configurations", $preset);
        }
    };
}

preset_fuzz!(every_rule_under_celko1998, "celko1998", 150);
preset_fuzz!(every_rule_under_wikipedia, "wikipedia", 150);
preset_fuzz!(every_rule_under_dominorules, "dominorules", 150);
preset_fuzz!(every_rule_under_family_house, "family_house", 150);
preset_fuzz!(every_rule_under_harbour_cay, "harbour_cay", 150);

#[test]
fn every_preset_is_fuzzed() {
    let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
    assert_eq!(names, ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"]);
}
