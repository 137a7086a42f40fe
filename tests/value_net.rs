//! The value network (`mexican_train::net`): the shipped network's test vectors, training that
//! gives the same weights from the same labels and seed and learns something, the input that
//! renumbers seats from the seat judged, and `expert:leaf=net`.

mod common;

use common::{run_ok, temp_path};
use mexican_train::net::train::{Dataset, TrainConfig, fit, train};
use mexican_train::net::{Encoder, Inputs, NetFile};
use mexican_train::rng::{mix, rng_from_seed};
use mexican_train::{RoundState, Rules, Seat, deal_round};

fn shipped() -> NetFile {
    NetFile::from_json(&std::fs::read_to_string("strategies/nets/value-d12-4p.json").unwrap()).unwrap()
}

#[test]
fn the_shipped_network_answers_its_test_vectors_bit_for_bit() {
    let file = shipped();
    assert_eq!((file.preset.as_str(), file.set, file.players), ("wikipedia", 12, 4));
    assert_eq!(file.sizes[0], 640);
    assert_eq!(file.inputs, Inputs::ObservationAndHands);
    // A file whose weights do not fit its sizes is refused.
    let mut bad = file.clone();
    bad.layers[1].b.pop();
    assert!(NetFile::from_json(&bad.to_json()).unwrap_err().contains("layer 1"));
}

/// Every network under strategies/nets/ (the value network, `learned`'s) answers its own test
/// vectors, and reads as many inputs as its encoder gives at its table.
#[test]
fn every_shipped_network_answers_its_test_vectors_bit_for_bit() {
    let mut names: Vec<String> = std::fs::read_dir("strategies/nets")
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert_eq!(names, ["learned-d12-2p.json", "learned-d12-4p.json", "value-d12-2p.json", "value-d12-4p.json"]);
    for name in names {
        let file = NetFile::from_json(&std::fs::read_to_string(format!("strategies/nets/{name}")).unwrap()).unwrap();
        let rules = Rules { players: file.players, ..Rules::wikipedia() };
        let encoder = file.encoder(&rules).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            encoder.inputs(),
            if name.starts_with("learned") { Inputs::Observation } else { Inputs::ObservationAndHands }
        );
        assert_eq!(file.test_vectors.len(), 8, "{name}");
        let net = file.mlp();
        let mut a = net.activations();
        for (k, v) in file.test_vectors.iter().enumerate() {
            let out = net.forward(&v.idx, &v.val, &mut a);
            assert_eq!(out.map(f32::to_bits), v.out.map(f32::to_bits), "{name}: test vector {k}");
        }
        // At another table the network is refused with a line naming both.
        let other = Rules { players: 3, ..Rules::wikipedia() };
        assert!(file.encoder(&other).unwrap_err().0.contains("3 players"), "{name}");
    }
}

fn labels(name: &str, matches: &str) -> std::path::PathBuf {
    let dir = temp_path(name);
    run_ok(&[
        "label",
        "--matches",
        matches,
        "--rollouts",
        "4",
        "--every",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    dir
}

#[test]
fn training_is_reproducible_and_beats_the_mean_on_held_out_matches() {
    let dir = labels("train", "40");
    let (data, rules) = Dataset::load(&dir, Inputs::ObservationAndHands).unwrap();
    assert_eq!(rules.players, 4);
    let width = Encoder::new(&rules).width();
    let cfg = TrainConfig { hidden: vec![32, 16], epochs: 6, lr: 3e-3, ..TrainConfig::default() };
    let (a, history) = train(&data, width, &cfg, |_| {});
    let (b, _) = train(&data, width, &cfg, |_| {});
    assert_eq!(a, b, "the same labels and seed give the same weights");
    let (c, _) = train(&data, width, &TrainConfig { seed: 2, ..cfg.clone() }, |_| {});
    assert_ne!(a, c, "another seed, other weights");
    assert_eq!(history.len(), 6);
    // Held out: matches 9, 19, 29, 39 (one in ten). The network against the training mean.
    let held: Vec<usize> = (0..data.len()).filter(|&r| data.matches[r] % 10 == 9).collect();
    let train_rows: Vec<usize> = (0..data.len()).filter(|&r| data.matches[r] % 10 != 9).collect();
    let mean = train_rows.iter().map(|&r| f64::from(data.margin[r])).sum::<f64>() / train_rows.len() as f64;
    let base = held.iter().map(|&r| (f64::from(data.margin[r]) - mean).powi(2)).sum::<f64>() / held.len() as f64;
    let got = fit(&a, &data, held.iter().copied());
    assert_eq!(got.labels, held.len());
    assert_eq!(got, history[5].held_out);
    assert!(got.margin_mse < 0.96 * base, "held-out margin MSE {} against the mean's {base}", got.margin_mse);
}

#[test]
fn the_input_renumbers_seats_from_the_seat_judged() {
    let rules = Rules::wikipedia();
    let mut enc = Encoder::new(&rules);
    let deal = deal_round(&rules, rules.set, &mut rng_from_seed(mix(3, 0)));
    let state = RoundState::new(&rules, &deal, Seat::from_index(0));
    let (obs, tiles) = (276u32, 91u32);
    let (mut idx, mut val) = (Vec::new(), Vec::new());
    for s in 0..4 {
        let seat = Seat::from_index(s);
        enc.from_round(&state, 1, seat, &mut idx, &mut val);
        // Hands block 0 is the judged seat's hand, block 1 the next seat's.
        for (block, who) in [(0u32, s), (1, (s + 1) % 4)] {
            for t in state.hand(Seat::from_index(who)).iter() {
                assert!(idx.contains(&(obs + block * tiles + t.index() as u32)), "seat {s}: block {block}");
            }
        }
        // The seat one-hot is always seat 0's; the seat to act (seat 0) is (4 - s) % 4 places on.
        let seat_at = obs - 1 - 8;
        assert!(idx.contains(&seat_at) && !(1..4).any(|k| idx.contains(&(seat_at + k))));
        assert!(idx.contains(&(seat_at + 4 + ((4 - s as u32) % 4))));
    }
}

#[test]
fn expert_with_the_network_leaf_plays_reproducibly_and_as_the_hands_where_no_network_is_built_in() {
    let match_at = |players: &str, bot: &str| {
        let out = run_ok(&["play", "--bots", bot, "--players", players, "--seed", "3", "--rounds", "2"]);
        out.lines().filter(|l| !l.contains("expert:")).collect::<Vec<_>>().join("\n")
    };
    let bots = "expert:leaf=net,depth=0,samples=4";
    let run = |threads: &str| {
        run_ok(&[
            "tournament",
            "--bots",
            bots,
            "--players",
            "4",
            "--games",
            "2",
            "--rounds",
            "2",
            "--quiet",
            "--threads",
            threads,
        ])
    };
    assert_eq!(run("1"), run("2"));
    // At two and four players a network is built in and judges: the match differs from the
    // hands' judging. At three none is: the leaf is judged by the hands.
    for players in ["2", "4"] {
        assert_ne!(
            match_at(players, "expert:leaf=net,samples=4,depth=2"),
            match_at(players, "expert:leaf=hands,samples=4,depth=2"),
            "{players} players"
        );
    }
    assert_eq!(
        match_at("3", "expert:leaf=net,samples=4,depth=2"),
        match_at("3", "expert:leaf=hands,samples=4,depth=2")
    );
    // `net=FILE` with the built-in network's own file plays the built-in's match; at a table the
    // file was not made for, the hands judge.
    let file = "expert:leaf=net,net=strategies/nets/value-d12-4p.json,samples=4,depth=2";
    assert_eq!(match_at("4", file), match_at("4", "expert:leaf=net,samples=4,depth=2"));
    assert_eq!(match_at("2", file), match_at("2", "expert:leaf=hands,samples=4,depth=2"));
    // A file that is not a value network, one that is missing, and a file without leaf=net are
    // refused with one line each.
    common::rejects(
        &["tournament", "--bots", "expert:leaf=net,net=strategies/nets/learned-d12-4p.json", "--games", "1"],
        &["expert:net", "reads other inputs"],
    );
    common::rejects(
        &["tournament", "--bots", "expert:leaf=net,net=no-such-net.json", "--games", "1"],
        &["expert:net", "cannot be read"],
    );
    // A file whose weights do not fit the table it names is refused too.
    let mut wrong = shipped();
    wrong.players = 2;
    let path = temp_path("wrong-table-net.json");
    std::fs::write(&path, wrong.to_json()).unwrap();
    common::rejects(
        &["tournament", "--bots", &format!("expert:leaf=net,net={}", path.display()), "--games", "1"],
        &["expert:net", "reads 640 inputs of 2 players"],
    );
    common::rejects(
        &["tournament", "--bots", "expert:net=strategies/nets/value-d12-4p.json", "--games", "1"],
        &["expert:net", "with leaf=net"],
    );
    common::rejects(
        &["tournament", "--bots", "expert:leaf=net,score=own", "--games", "1"],
        &["score", "margin with leaf=net"],
    );
    common::rejects(&["tournament", "--bots", "expert:leaf=tree", "--games", "1"], &["leaf", "hands, net"]);
}

/// `learned`, the baseline without search: reproducible at any thread count, its own player at
/// the tables it has a network for (2 and 4 players on double-12), and `weighted` elsewhere.
#[test]
fn learned_plays_its_network_where_it_has_one_and_weighted_elsewhere() {
    let run = |threads: &str| {
        run_ok(&[
            "tournament",
            "--bots",
            "learned,weighted",
            "--players",
            "4",
            "--games",
            "4",
            "--rounds",
            "2",
            "--quiet",
            "--threads",
            threads,
        ])
    };
    assert_eq!(run("1"), run("2"));
    let moves = |bot: &str, players: &str| {
        let out = run_ok(&["play", "--bots", bot, "--players", players, "--seed", "5", "--rounds", "2"]);
        out.lines().filter(|l| !l.contains(bot)).collect::<Vec<_>>().join("\n")
    };
    for players in ["2", "4"] {
        assert_ne!(moves("learned", players), moves("weighted", players), "{players} players");
    }
    assert_eq!(moves("learned", "3"), moves("weighted", "3"));
    assert!(run_ok(&["strategies"]).contains("learned"));
}

/// Imitation (`train_choices`): on decisions where the teacher always plays the move whose
/// input holds column 3, the network learns to pick it on held-out decisions, and the same
/// decisions and seed give the same weights.
#[test]
fn imitation_learns_the_teachers_rule_and_is_reproducible() {
    use mexican_train::net::train::{Choices, train_choices};
    let mut rng = rng_from_seed(9);
    let mut c = Choices::new();
    for k in 0..600u32 {
        let moves = 2 + (mexican_train::rng::below(&mut rng, 3) as u32);
        let chosen = mexican_train::rng::below(&mut rng, u64::from(moves)) as u32;
        for i in 0..moves {
            // Two noise columns out of 20, and column 3 on the teacher's move alone.
            let mut idx: Vec<u32> = (0..2).map(|_| 4 + mexican_train::rng::below(&mut rng, 16) as u32).collect();
            if i == chosen {
                idx.push(3);
            }
            idx.sort_unstable();
            idx.dedup();
            let val = vec![1.0; idx.len()];
            c.push_after(&idx, &val);
        }
        c.end_decision(chosen, k / 10);
    }
    let cfg = TrainConfig { hidden: vec![8], epochs: 8, batch: 16, lr: 1e-2, ..TrainConfig::default() };
    let (a, history) = train_choices(&c, 20, &cfg, |_| {});
    let (b, _) = train_choices(&c, 20, &cfg, |_| {});
    assert_eq!(a, b);
    let last = history.last().unwrap();
    assert!(last.held_out_agreement > 0.95, "{last:?}");
    // Chance is about 1 in 3: the first epoch's loss is above the last's.
    assert!(history[0].loss > last.loss, "{history:?}");
}
