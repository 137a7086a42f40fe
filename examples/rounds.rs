//! Plays a fixed number of rounds for instruction-count profiling:
//! `cargo build --release --example rounds && valgrind --tool=callgrind target/release/examples/rounds greedy 2000`.
//!
//! Arguments: bot spec (default `greedy`), rounds (default 2000), and a mode: `play` (default:
//! `play_round`, which takes the plain turn loop under these rules), `general` (the general turn
//! machine only, `play_round_general`), or `deal` (only the seeded shuffle, the deal and the
//! round's initial state: the floor under every round). 4 players, double-12, `wikipedia`, deal
//! included, the same rounds as the `round/*` criterion benchmarks. A fourth argument `all`
//! cycles the engine through 12, 11, ..., 0 as the rounds of a match do (the floor a tournament
//! of full matches is compared with); the default `top` always uses the double-12.

use mexican_train::game::play_round_general;
use mexican_train::rng::{mix, rng_from_seed};
use mexican_train::{
    Bot, GameRng, MoveList, NoObserver, Pip, RoundState, Rules, Seat, deal_round, play_round, round::RoundSetup,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bot = args.get(1).map_or("greedy", String::as_str);
    let n: u64 = args.get(2).map_or(2000, |s| s.parse().expect("rounds: a number"));
    let mode = args.get(3).map_or("play", String::as_str);
    assert!(matches!(mode, "play" | "general" | "deal"), "mode: play, general or deal");
    let all = match args.get(4).map_or("top", String::as_str) {
        "top" => false,
        "all" => true,
        other => panic!("engines: top or all, not {other}"),
    };
    let rules = Rules::wikipedia();
    // The bots as the tournament runs them (the same `play_round::<Bot, _>`); decisions are
    // counted by the engine (`Outcome::decisions`).
    let mut bots: Vec<Bot> = (0..4).map(|_| Bot::parse(bot).expect("bot spec")).collect();
    let mut rngs: Vec<GameRng> = (0..4).map(rng_from_seed).collect();
    let mut moves = MoveList::new();
    let (mut turns, mut decisions) = (0u64, 0u64);
    // One round state, each round dealt into it in place (as the tournament runner deals):
    // the same round `deal_round` and `RoundState::new` would build.
    let mut state: Option<RoundState> = None;
    for i in 0..n {
        let mut deal_rng = rng_from_seed(mix(7, i));
        let engine = Pip::from_u8(if all { 12 - (i % 13) as u8 } else { 12 });
        let first = Seat::from_index((i % 4) as usize);
        let setup = RoundSetup { e: engine, engine_mode: rules.engine_mode, lead: first, first, used_doubles: 0 };
        let state = match &mut state {
            Some(s) => {
                s.redeal(&rules, setup, &mut deal_rng);
                s
            }
            None => state.insert(RoundState::new(&rules, &deal_round(&rules, engine, &mut deal_rng), first)),
        };
        let outcome = match mode {
            "play" => play_round(state, &mut bots, &mut rngs, &mut moves, &mut NoObserver),
            "general" => play_round_general(state, &mut bots, &mut rngs, &mut moves, &mut NoObserver),
            _ => {
                std::hint::black_box(&state);
                continue;
            }
        };
        turns += u64::from(outcome.turns);
        decisions += u64::from(outcome.decisions);
    }
    println!("{n} rounds, {turns} turns, {decisions} decisions");
}
