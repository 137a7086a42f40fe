//! Rounds played a stretch of turns at a time (`play_round_for`, what a search's shortened
//! rollouts use) and hands scored mid-round (`RoundState::hand_scores`): stopping and going on
//! plays the same round as playing it in one go, a stop lands where it was asked to, and the
//! final hand scores are the round's scores.

use mexican_train::game::play_round_for;
use mexican_train::rng::{below, mix, rng_from_seed};
use mexican_train::rules::{EngineMode, PRESETS};
use mexican_train::*;

/// A round of `rules` ready to play, dealt from `seed`.
fn new_round(rules: &Rules, seed: u64) -> RoundState {
    let mut rng = rng_from_seed(seed);
    let e = rules.engine_of_round(1);
    let deal = deal::deal(rules, e, rules.engine_mode == EngineMode::SetAside, &mut rng);
    let lead = Seat::from_index(below(&mut rng, rules.players as u64) as usize);
    let setup = round::RoundSetup { e, engine_mode: rules.engine_mode, lead, first: lead, used_doubles: 0 };
    RoundState::with_setup(rules, &deal, setup)
}

fn seats(spec: &str, n: usize, seed: u64) -> (Vec<Bot>, Vec<GameRng>) {
    let bots = (0..n).map(|_| Bot::parse(spec).unwrap()).collect();
    let rngs = (0..n).map(|s| rng_from_seed(mix(seed, s as u64))).collect();
    (bots, rngs)
}

#[test]
fn a_round_played_in_stretches_is_the_round_played_at_once() {
    let mut stops = 0;
    for info in PRESETS {
        for players in [2u8, 4] {
            let rules = Rules { players, ..Rules::preset(info.name).unwrap() };
            for seed in 0..12u64 {
                let n = players as usize;
                let spec = if seed % 2 == 0 { "random" } else { "greedy" };
                let mut whole = new_round(&rules, seed);
                let (mut bots, mut rngs) = seats(spec, n, seed);
                let once = play_round(&mut whole, &mut bots, &mut rngs, &mut MoveList::new(), &mut NoObserver);
                assert_eq!(whole.hand_scores(), once.scores, "{} {players}p seed {seed}", info.name);

                let stretch = 1 + (seed % 7) as u32;
                let mut state = new_round(&rules, seed);
                let (mut bots, mut rngs) = seats(spec, n, seed);
                let mut moves = MoveList::new();
                let outcome = loop {
                    let before = state.turns();
                    match play_round_for(&mut state, &mut bots, &mut rngs, &mut moves, &mut NoObserver, stretch) {
                        Some(outcome) => break outcome,
                        None => {
                            stops += 1;
                            assert!(state.outcome().is_none());
                            assert!(state.turns() >= before + stretch, "{} seed {seed}: stopped early", info.name);
                            // The plain loop stops exactly; the general machine may pass skipped turns.
                            if state.plain_rules() {
                                assert_eq!(state.turns(), before + stretch, "{} seed {seed}", info.name);
                            }
                        }
                    }
                };
                assert_eq!(outcome, once, "{} {players}p seed {seed}, stretches of {stretch}", info.name);
                assert_eq!(format!("{state:?}"), format!("{whole:?}"));
            }
        }
    }
    assert!(stops > 1000, "the stretches stopped only {stops} times");
}

#[test]
fn a_stretch_of_zero_turns_plays_nothing_and_hands_score_as_dealt() {
    let rules = Rules::preset("wikipedia").unwrap();
    let mut state = new_round(&rules, 5);
    let (mut bots, mut rngs) = seats("greedy", 4, 5);
    // The setup (engine placed) is not a turn: nothing is played with a budget of none.
    assert_eq!(play_round_for(&mut state, &mut bots, &mut rngs, &mut MoveList::new(), &mut NoObserver, 0), None);
    assert_eq!(state.turns(), 0);
    let dealt: Vec<u32> =
        (0..4).map(|s| state.hand(Seat::from_index(s)).iter().map(|t| rules.tile_score(t)).sum()).collect();
    assert_eq!(&state.hand_scores()[..4], &dealt[..]);
    assert!(dealt.iter().all(|&p| p > 0));
}
