//! Engine throughput: one round per bot (deal included), one full match.
//!
//! Each benchmark asserts what it computes, so `cargo test --benches` doubles as a smoke test.

use criterion::{Criterion, criterion_group, criterion_main};
use mexican_train::rng::{mix, rng_from_seed};
use mexican_train::{
    Bot, GameRng, MoveList, NoObserver, Pip, RoundState, Rules, Seat, Step, Strategy, deal_round, play_match,
    play_round,
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

/// Decision points of greedy rounds (4 players, double-12): each position with its moves.
fn decision_points(rules: &Rules, rounds: u64) -> Vec<(RoundState, MoveList)> {
    let mut greedy = Bot::parse("greedy").unwrap();
    let mut rng = rng_from_seed(3);
    let mut moves = MoveList::new();
    let mut out = Vec::new();
    for i in 0..rounds {
        let deal = deal_round(rules, Pip::from_u8(12), &mut rng_from_seed(mix(11, i)));
        let mut state = RoundState::new(rules, &deal, Seat::from_index((i % 4) as usize));
        while let Step::Choice(seat, _) = state.advance(&mut moves, &mut NoObserver) {
            out.push((state.clone(), moves.clone()));
            let c = greedy.choose(&state.view(seat), &moves, &mut rng);
            state.play_unchecked(moves[c], &mut NoObserver);
        }
    }
    out
}

/// One `montecarlo` decision (default parameters) at positions from greedy play.
fn decisions(c: &mut Criterion) {
    let rules = Rules::wikipedia();
    let points = decision_points(&rules, 20);
    assert!(points.len() > 100);
    let mut bot = Bot::parse("montecarlo").unwrap();
    let mut rng = rng_from_seed(5);
    let mut i = 0usize;
    c.bench_function("decision/montecarlo/4p/d12", |b| {
        b.iter(|| {
            i = (i + 1) % points.len();
            let (state, moves) = &points[i];
            let k = bot.choose(&state.view(state.current()), moves, &mut rng);
            assert!(k < moves.len());
            black_box(k)
        })
    });
}

criterion_group!(benches, rounds, matches, decisions);
criterion_main!(benches);
