//! The `montecarlo` bot: it plays every preset, it is reproducible, it cannot see hidden tiles,
//! and it is stronger than `random` and `greedy`. Every seed is fixed: the outcomes asserted here
//! are exact facts of this code, not chances.

use mexican_train::rng::{below, mix, rng_from_seed};
use mexican_train::rules::PRESETS;
use mexican_train::*;
use rand::RngCore;

mod common;
use common::bots;

/// Checks the bookkeeping of a finished match of `rounds` rounds.
fn check_match(r: &MatchResult, rounds: u8, what: &str) {
    assert_eq!(r.rounds, rounds, "{what}");
    assert!(r.winners != 0, "{what}");
    let n = r.players as usize;
    for s in 0..n {
        let sum: u32 = r.round_records().map(|rec| rec.outcome.scores[s]).sum();
        assert_eq!(sum, r.totals[s], "{what}: seat {s}");
    }
}

#[test]
fn plays_matches_under_every_preset_at_two_and_four_players() {
    for info in PRESETS {
        for players in [2u8, 4] {
            let rules = Rules { players, rounds: Some(2), ..Rules::preset(info.name).unwrap() };
            rules.validate().unwrap();
            let what = format!("{} {players}p", info.name);
            // Default rollouts and score in seat 0, the other options in seat 2.
            let specs = ["montecarlo:samples=4", "greedy", "montecarlo:samples=3,rollout=random,score=own", "random"];
            let mut b = bots(&specs[..players as usize]);
            let r = play_match(&rules, 11, &mut b, &mut NoObserver);
            check_match(&r, 2, &what);
        }
    }
}

#[test]
fn same_seed_same_match_and_a_reused_bot_plays_like_a_fresh_one() {
    let rules = Rules { rounds: Some(3), ..Rules::wikipedia() };
    let specs = ["montecarlo:samples=6", "greedy", "montecarlo:samples=6,rollout=random", "random"];
    let first = play_match(&rules, 21, &mut bots(&specs), &mut NoObserver);
    let again = play_match(&rules, 21, &mut bots(&specs), &mut NoObserver);
    assert_eq!(first, again);
    check_match(&first, 3, "wikipedia 4p");
    // Another seed is another match.
    let other = play_match(&rules, 22, &mut bots(&specs), &mut NoObserver);
    assert_ne!(first.totals, other.totals);
    // A bot that has played a match and is then reset with `clone_from` (as the tournament
    // runner does between games) plays exactly as a fresh one.
    assert_eq!(common::match_after_reset(&rules, &specs, 99, 21), first);
}

#[test]
fn parameters_are_validated_and_errors_name_the_valid_choices() {
    assert!(Bot::parse("montecarlo:samples=1,rollout=random,score=own").is_ok());
    assert!(Bot::parse("montecarlo:samples=100000").is_ok());
    let err = |s: &str| Bot::parse(s).unwrap_err().to_string();
    for bad in ["0", "-3", "100001", "many", "1.5"] {
        let e = err(&format!("montecarlo:samples={bad}"));
        assert!(e.contains("an integer from 1 to 100000"), "{e}");
    }
    let e = err("montecarlo:rollout=montecarlo");
    assert!(e.contains("valid: greedy, random"), "{e}");
    let e = err("montecarlo:score=win");
    assert!(e.contains("valid: margin, own"), "{e}");
    let e = err("montecarlo:depth=2");
    assert!(e.contains("valid: samples, rollout, score"), "{e}");
}

/// At decision points of random play under every preset, the hidden tiles are dealt afresh (an
/// alternative real world the seat cannot tell from the real one): the bot, given the same
/// random stream, makes the same choice in both.
#[test]
fn choices_do_not_depend_on_hidden_tiles() {
    let mut checked = 0;
    let mut hidden_differ = 0;
    for (p, info) in PRESETS.iter().enumerate() {
        for players in [2u8, 4] {
            let rules = Rules { players, ..Rules::preset(info.name).unwrap() };
            let mut rng = rng_from_seed(mix(31, p as u64 * 16 + players as u64));
            let mut mc = Bot::parse("montecarlo:samples=3").unwrap();
            let mut moves = MoveList::new();
            let mut alt_moves = MoveList::new();
            for round in 0..2u64 {
                let deal = deal_round(&rules, rules.engine_of_round(1 + round as u8), &mut rng);
                let mut state = RoundState::new(&rules, &deal, Seat::from_index(round as usize % players as usize));
                while let Step::Choice(seat, _) = state.advance(&mut moves, &mut NoObserver) {
                    if below(&mut rng, 3) == 0 {
                        let view = state.view(seat);
                        let other = Seat::from_index((seat.index() + 1) % players as usize);
                        let watched = state.view(other).sample_world(&mut rng).expect("any seat samples");
                        assert_eq!(watched.hand(other), state.hand(other), "a watcher keeps its own hand");
                        let alt = view.sample_world(&mut rng).unwrap();
                        // The alternative agrees on everything the seat sees.
                        assert_eq!(alt.hand(seat), state.hand(seat));
                        assert_eq!(alt.view(alt.current()).played(), state.view(state.current()).played());
                        assert_eq!(alt.boneyard().len(), state.boneyard().len());
                        for s in 0..players as usize {
                            let s = Seat::from_index(s);
                            assert_eq!(alt.hand(s).len(), state.hand(s).len());
                        }
                        alt.legal_moves(&mut alt_moves);
                        assert_eq!(alt_moves.as_slice(), moves.as_slice());
                        if (0..players as usize)
                            .any(|s| alt.hand(Seat::from_index(s)) != state.hand(Seat::from_index(s)))
                            || alt.boneyard() != state.boneyard()
                        {
                            hidden_differ += 1;
                        }
                        let seed = rng.next_u64();
                        let real = mc.choose(&view, &moves, &mut rng_from_seed(seed));
                        let imagined = mc.choose(&alt.view(seat), &alt_moves, &mut rng_from_seed(seed));
                        assert_eq!(real, imagined, "{} {players}p turn {}", info.name, state.turns());
                        checked += 1;
                    }
                    let m = moves[below(&mut rng, moves.len() as u64) as usize];
                    state.play_unchecked(m, &mut NoObserver);
                }
            }
        }
    }
    assert!(checked > 150, "{checked} positions");
    // The test has teeth: the alternative world nearly always differs in what is hidden.
    assert!(hidden_differ * 10 > checked * 9, "{hidden_differ} of {checked}");
}

/// Duplicate matches at two players: each seed is played with `a` in seat 0 and again in seat 1.
/// Returns the summed match totals of `a` and `b` and `a`'s match wins (ties count half, ×2).
fn duplicate_2p(rules: &Rules, a: &str, b: &str, seeds: u64) -> (u32, u32, u32) {
    let (mut ta, mut tb, mut wins2) = (0, 0, 0);
    for i in 0..seeds {
        let seed = mix(2024, i);
        for a_seat in 0..2 {
            let specs = if a_seat == 0 { [a, b] } else { [b, a] };
            let r = play_match(rules, seed, &mut bots(&specs), &mut NoObserver);
            ta += r.totals[a_seat];
            tb += r.totals[1 - a_seat];
            let a_wins = r.is_winner(Seat::from_index(a_seat));
            let b_wins = r.is_winner(Seat::from_index(1 - a_seat));
            wins2 += match (a_wins, b_wins) {
                (true, false) => 2,
                (true, true) => 1,
                _ => 0,
            };
        }
    }
    (ta, tb, wins2)
}

#[test]
fn beats_random_and_greedy_at_two_players() {
    let rules = Rules { players: 2, rounds: Some(3), ..Rules::wikipedia() };
    let mc = "montecarlo:samples=16";
    // 20 seeds x 2 seatings = 40 three-round matches against each opponent. Measured with the
    // tournament over 400 such matches each: montecarlo wins 77.5% against random and 78.8%
    // against greedy, and scores 43% and 38% of their points; the thresholds (2/3 of the
    // points, 23 of 40 wins) sit about three standard errors of 40 matches inside that.
    let (ta, tb, wins2) = duplicate_2p(&rules, mc, "random", 20);
    eprintln!("vs random: totals {ta} vs {tb}, wins x2 {wins2} of 80");
    assert!(ta * 3 < tb * 2, "montecarlo {ta} points vs random {tb}");
    assert!(wins2 >= 46, "montecarlo won {wins2}/2 of 40 matches against random");
    let (ta, tb, wins2) = duplicate_2p(&rules, mc, "greedy", 20);
    eprintln!("vs greedy: totals {ta} vs {tb}, wins x2 {wins2} of 80");
    assert!(ta * 3 < tb * 2, "montecarlo {ta} points vs greedy {tb}");
    assert!(wins2 >= 46, "montecarlo won {wins2}/2 of 40 matches against greedy");
}

/// Four players, one `montecarlo` against three `greedy`, each deal in all four seat rotations:
/// per round, montecarlo scores less than the greedy seats' average.
#[test]
fn beats_greedy_at_four_players() {
    let rules = Rules { rounds: Some(2), ..Rules::wikipedia() };
    let (mut mc_total, mut greedy_total, mut rounds) = (0u32, 0u32, 0u32);
    for i in 0..30u64 {
        let seed = mix(4044, i);
        for mc_seat in 0..4 {
            let specs: Vec<&str> =
                (0..4).map(|s| if s == mc_seat { "montecarlo:samples=16" } else { "greedy" }).collect();
            let r = play_match(&rules, seed, &mut bots(&specs), &mut NoObserver);
            mc_total += r.totals[mc_seat];
            greedy_total += (0..4).filter(|&s| s != mc_seat).map(|s| r.totals[s]).sum::<u32>();
            rounds += r.rounds as u32;
        }
    }
    eprintln!("4p: {rounds} rounds, montecarlo {mc_total}, greedy (3 seats) {greedy_total}");
    // Per seat, montecarlo scores under 90% of a greedy seat's mean (measured: 68% over 240
    // rounds, and between 54% and 83% in blocks of 48 rounds).
    assert!(mc_total * 3 * 10 < greedy_total * 9, "montecarlo {mc_total} vs greedy seats {greedy_total}");
}
