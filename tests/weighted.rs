//! The `weighted` bot: its weights are parameters, checked with one clear error; with only
//! the `pips` weight it is exactly `greedy`; it plays every preset; its defaults beat `planner`.

use mexican_train::rng::mix;
use mexican_train::rules::PRESETS;
use mexican_train::strategies::{CELKO_WEIGHTS, FEATURES, HAND_WEIGHTS, Registry, hand_spec};
use mexican_train::*;

mod common;
use common::bots;

/// `weighted` with every weight 0 but `pips`.
fn pips_only() -> String {
    let params: Vec<String> =
        FEATURES.iter().map(|(k, _, _)| format!("{k}={}", if *k == "pips" { "1" } else { "0" })).collect();
    format!("weighted:{}", params.join(","))
}

#[test]
fn with_only_the_pips_weight_it_plays_exactly_as_greedy() {
    let spec = pips_only();
    for players in [2u8, 4] {
        let rules = Rules { players, rounds: Some(4), ..Rules::wikipedia() };
        for seed in 0..6u64 {
            let with = |first: &str| {
                let specs: Vec<&str> = (0..players).map(|s| if s == 0 { first } else { "planner" }).collect();
                play_match(&rules, mix(31, seed), &mut bots(&specs), &mut NoObserver)
            };
            assert_eq!(with(&spec), with("greedy"), "{players}p seed {seed}");
        }
    }
    // The defaults are another bot: some match differs.
    let rules = Rules { players: 2, rounds: Some(4), ..Rules::wikipedia() };
    let differs = (0..6u64).any(|seed| {
        play_match(&rules, mix(31, seed), &mut bots(&["weighted", "planner"]), &mut NoObserver)
            != play_match(&rules, mix(31, seed), &mut bots(&["greedy", "planner"]), &mut NoObserver)
    });
    assert!(differs);
}

#[test]
fn weights_are_parameters_with_one_clear_error() {
    assert!(Bot::parse("weighted:pips=2.5,plan_tile=-1e2,urgent=0").is_ok());
    let err = |s: &str| Bot::parse(s).unwrap_err().to_string();
    for bad in ["x", "1001", "-1001", "NaN", "inf"] {
        let e = err(&format!("weighted:pips={bad}"));
        assert!(e.contains("a number from -1000 to 1000"), "{e}");
    }
    let e = err("weighted:colour=1");
    assert!(e.contains("unknown parameter 'colour'") && e.contains("pips, urgent, double"), "{e}");
    let registry = Registry::builtin();
    assert!(registry.get("weighted").is_some());
    assert!(!registry.default_field().contains("weighted"));
    assert_eq!(FEATURES.len(), 13);
}

#[test]
fn plays_every_preset_at_two_and_four_players() {
    for info in PRESETS {
        for players in [2u8, 4] {
            let rules = Rules { players, rounds: Some(2), ..Rules::preset(info.name).unwrap() };
            let specs = ["weighted", "weighted:double=-1,follow=2", "planner", "greedy"];
            let r = play_match(&rules, 17, &mut bots(&specs[..players as usize]), &mut NoObserver);
            assert_eq!(r.rounds, 2, "{} {players}p", info.name);
        }
    }
}

/// The defaults are the tuning study's wikipedia weights: the last row of its trajectory, and
/// its tuned spec is `weighted` itself; the hand-set weights are reachable by the spec `mtrain
/// strategies` prints.
#[test]
fn the_defaults_are_the_tuned_weights_and_the_hand_set_ones_stay_reachable() {
    let dir = "results/tuning/runs/tune-wikipedia";
    let traj = std::fs::read_to_string(format!("{dir}/trajectory.csv")).unwrap();
    let header: Vec<&str> = traj.lines().next().unwrap().split(',').collect();
    let last: Vec<&str> = traj.lines().last().unwrap().split(',').collect();
    for (k, d, _) in FEATURES {
        let col = header.iter().position(|h| *h == k).unwrap();
        assert_eq!(last[col], d, "{k}");
    }
    assert_eq!(std::fs::read_to_string(format!("{dir}/tuned.txt")).unwrap().trim(), "weighted");
    let registry = Registry::builtin();
    assert!(registry.get("weighted").unwrap().about.contains(&hand_spec()));
    let Bot::Weighted(hand) = Bot::parse(&hand_spec()).unwrap() else { panic!("weighted") };
    let expected: Vec<f64> = HAND_WEIGHTS.iter().map(|(_, v)| v.parse().unwrap()).collect();
    assert_eq!(hand.weights().to_vec(), expected);
    assert_eq!(HAND_WEIGHTS.map(|(k, _)| k), FEATURES.map(|(k, _, _)| k));
}

/// Two players, wikipedia, 50 deals with `weighted` in either seat, full matches: the tuned
/// defaults finish ahead of `planner` in more than half.
#[test]
fn the_defaults_beat_planner() {
    let rules = Rules { players: 2, ..Rules::wikipedia() };
    let (mut ahead, mut games) = (0u32, 0u32);
    for i in 0..50u64 {
        for seat in 0..2 {
            let specs = if seat == 0 { ["weighted", "planner"] } else { ["planner", "weighted"] };
            let r = play_match(&rules, mix(77, i), &mut bots(&specs), &mut NoObserver);
            ahead += u32::from(r.places[seat] < r.places[1 - seat]);
            games += 1;
        }
    }
    eprintln!("weighted ahead in {ahead} of {games}");
    assert!(ahead > games / 2, "weighted ahead in only {ahead} of {games}");
}

/// `weighted` with `pairs` as its whole spec.
fn spec_of(pairs: &[(&str, &str)]) -> String {
    let params: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("weighted:{}", params.join(","))
}

/// `set=auto` plays the weights tuned under `celko1998` when the match plays that preset and
/// the wikipedia weights under the others; a named set holds whatever the rules; a weight given
/// overrides its set's; the committed study's celko1998 spec is the set.
#[test]
fn the_default_set_follows_the_preset_and_a_given_weight_overrides_it() {
    let celko = spec_of(&CELKO_WEIGHTS);
    let wiki: Vec<(&str, &str)> = FEATURES.iter().map(|(k, v, _)| (*k, *v)).collect();
    let wiki = spec_of(&wiki);
    let tuned = std::fs::read_to_string("results/tuning/runs/tune-celko1998/tuned.txt").unwrap();
    assert_eq!(tuned.trim(), celko);
    let game = |preset: &str, first: &str, seed: u64| {
        let rules = Rules { players: 3, rounds: Some(3), ..Rules::preset(preset).unwrap() };
        play_match(&rules, mix(5, seed), &mut bots(&[first, "planner", "cutthroat"]), &mut NoObserver)
    };
    let same = |preset: &str, a: &str, b: &str| (0..8u64).all(|seed| game(preset, a, seed) == game(preset, b, seed));
    assert!(same("celko1998", "weighted", &celko));
    assert!(same("celko1998", "weighted:set=celko1998", &celko));
    assert!(same("wikipedia", "weighted", &wiki));
    assert!(same("dominorules", "weighted:set=auto", &wiki));
    assert!(same("celko1998", "weighted:set=wikipedia", &wiki));
    assert!(same("wikipedia", "weighted:set=celko1998", &celko));
    assert!(same("celko1998", "weighted:set=hand", &hand_spec()));
    // The sets are different bots under celko1998: some game differs.
    assert!(!same("celko1998", "weighted", &wiki));
    // A weight given overrides the set's, the others stay.
    let mut over = CELKO_WEIGHTS.to_vec();
    over[0] = ("pips", "3");
    assert!(same("celko1998", "weighted:pips=3", &spec_of(&over)));
    assert!(!same("celko1998", "weighted:pips=3", &celko));
    let e = Bot::parse("weighted:set=mine").unwrap_err().to_string();
    assert!(e.contains("'mine'") && e.contains("auto, wikipedia, celko1998, hand"), "{e}");
}
