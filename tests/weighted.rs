//! The `weighted` bot: its weights are parameters, checked with one clear error; with only
//! the `pips` weight it is exactly `greedy`; it plays every preset; its defaults beat `planner`.

use mexican_train::rng::mix;
use mexican_train::rules::PRESETS;
use mexican_train::strategies::{FEATURES, HAND_WEIGHTS, Registry, hand_spec};
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
