//! Engine throughput: one round per bot (deal included), one full match.
//!
//! Each benchmark asserts what it computes, so `cargo test --benches` doubles as a smoke test.

use criterion::{Criterion, criterion_group, criterion_main};
use mexican_train::rng::{mix, rng_from_seed};
use mexican_train::{
    Bot, GameRng, MoveList, NoObserver, Pip, RoundState, Rules, Seat, deal_round, play_match, play_round,
};
use std::hint::black_box;

/// Plays round `i` (deal included) with `bots`; returns the turns taken.
fn one_round(rules: &Rules, bots: &mut [Bot], rngs: &mut [GameRng], moves: &mut MoveList, i: u64) -> u32 {
    let mut deal_rng = rng_from_seed(mix(7, i));
    let deal = deal_round(rules, Pip::from_u8(12), &mut deal_rng);
    let mut state = RoundState::new(rules, &deal, Seat::from_index((i % 4) as usize));
    play_round(&mut state, bots, rngs, moves, &mut NoObserver).turns
}

fn rounds(c: &mut Criterion) {
    let rules = Rules::wikipedia();
    for bot in ["greedy", "random"] {
        let mut bots: Vec<Bot> = (0..4).map(|_| Bot::parse(bot).unwrap()).collect();
        let mut rngs: Vec<GameRng> = (0..4).map(rng_from_seed).collect();
        let mut moves = MoveList::new();
        // Every round ends, and takes at least one turn per tile of the shortest path out.
        assert!(one_round(&rules, &mut bots, &mut rngs, &mut moves, 0) >= 15);
        let mut i = 0u64;
        c.bench_function(&format!("round/{bot}/4p/d12"), |b| {
            b.iter(|| {
                i += 1;
                black_box(one_round(&rules, &mut bots, &mut rngs, &mut moves, i))
            })
        });
    }
}

fn matches(c: &mut Criterion) {
    let rules = Rules::wikipedia();
    let mut bots: Vec<Bot> = (0..4).map(|_| Bot::parse("greedy").unwrap()).collect();
    let mut seed = 0u64;
    assert_eq!(play_match(&rules, 1, &mut bots, &mut NoObserver).rounds, 13);
    c.bench_function("match/greedy/4p/d12", |b| {
        b.iter(|| {
            seed += 1;
            black_box(play_match(&rules, seed, &mut bots, &mut NoObserver).totals[0])
        })
    });
}

criterion_group!(benches, rounds, matches);
criterion_main!(benches);
