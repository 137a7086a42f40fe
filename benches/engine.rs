//! Engine throughput: move generation over fixed positions, one round per bot (deal included), the
//! greedy round on the general turn machine alone, one full match, one montecarlo decision, one
//! tournament chunk.
//!
//! Each benchmark asserts what it computes, so `cargo test --benches` doubles as a smoke test.

use criterion::{Criterion, criterion_group, criterion_main};
use mexican_train::game::play_round_general;
use mexican_train::rng::{mix, rng_from_seed};
use mexican_train::tournament::{Schedule, Tournament};
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
    for bot in ["greedy", "random", "planner", "hoarder", "cutthroat"] {
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

/// The same greedy rounds on the general turn machine only: what the plain loop saves.
fn rounds_general(c: &mut Criterion) {
    let rules = Rules::wikipedia();
    let mut bots: Vec<Bot> = (0..4).map(|_| Bot::parse("greedy").unwrap()).collect();
    let mut rngs: Vec<GameRng> = (0..4).map(rng_from_seed).collect();
    let mut moves = MoveList::new();
    let play = |i: u64, bots: &mut [Bot], rngs: &mut [GameRng], moves: &mut MoveList| {
        let mut deal_rng = rng_from_seed(mix(7, i));
        let deal = deal_round(&rules, Pip::from_u8(12), &mut deal_rng);
        let mut state = RoundState::new(&rules, &deal, Seat::from_index((i % 4) as usize));
        play_round_general(&mut state, bots, rngs, moves, &mut NoObserver)
    };
    // Same round as the plain loop plays, from the same seeds.
    let general = play(0, &mut bots, &mut rngs, &mut moves);
    let mut bots2: Vec<Bot> = (0..4).map(|_| Bot::parse("greedy").unwrap()).collect();
    let mut rngs2: Vec<GameRng> = (0..4).map(rng_from_seed).collect();
    let deal = deal_round(&rules, Pip::from_u8(12), &mut rng_from_seed(mix(7, 0)));
    let mut state = RoundState::new(&rules, &deal, Seat::from_index(0));
    assert_eq!(play_round(&mut state, &mut bots2, &mut rngs2, &mut moves, &mut NoObserver), general);
    let mut i = 0u64;
    c.bench_function("round/greedy-general-machine/4p/d12", |b| {
        b.iter(|| {
            i += 1;
            black_box(play(i, &mut bots, &mut rngs, &mut moves).turns)
        })
    });
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

/// One call of the value network `expert:leaf=net` uses (strategies/nets/value-d12-4p.json):
/// the input built from a position of greedy play (the seat to act judging), then the forward
/// pass. Both allocate nothing (tests/alloc.rs).
fn value_net(c: &mut Criterion) {
    use mexican_train::net::{Encoder, NetFile};
    let rules = Rules::wikipedia();
    let points: Vec<RoundState> = decision_points(&rules, 20).into_iter().map(|(s, _)| s).collect();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/strategies/nets/value-d12-4p.json"))
        .expect("the shipped network");
    let net = NetFile::from_json(&text).expect("it reads").mlp();
    let mut encoder = Encoder::new(&rules);
    let mut acts = net.activations();
    let (mut idx, mut val) = (Vec::with_capacity(encoder.width()), Vec::with_capacity(encoder.width()));
    let mut i = 0usize;
    c.bench_function("value_net/encode+forward/4p/d12", |b| {
        b.iter(|| {
            i = (i + 1) % points.len();
            let s = &points[i];
            encoder.from_round(s, 1, s.current(), &mut idx, &mut val);
            let v = net.value(&idx, &val, &mut acts);
            assert!(v.margin.is_finite() && (0.0..=1.0).contains(&v.win));
            black_box(v)
        })
    });
}

/// Move generation alone over a fixed list of 2,000 positions from greedy play; the total
/// number of moves is pinned, so a change in what the engine offers fails the benchmark.
fn movegen(c: &mut Criterion) {
    let rules = Rules::wikipedia();
    let points: Vec<RoundState> = decision_points(&rules, 60).into_iter().map(|(s, _)| s).take(2000).collect();
    assert_eq!(points.len(), 2000);
    let mut moves = MoveList::new();
    let total: usize = points
        .iter()
        .map(|s| {
            s.legal_moves(&mut moves);
            moves.len()
        })
        .sum();
    assert_eq!(total, MOVEGEN_TOTAL, "the engine offers different moves at the pinned positions");
    c.bench_function("movegen/2000-positions/4p/d12", |b| {
        b.iter(|| {
            let mut n = 0;
            for s in &points {
                s.legal_moves(&mut moves);
                n += moves.len();
            }
            black_box(n)
        })
    });
}

/// Moves offered over the 2,000 positions of `movegen`.
const MOVEGEN_TOTAL: usize = 6875;

/// One chunk of a tournament (16 deals in 4 rotations = 64 greedy matches), as the runner plays it.
fn chunk(c: &mut Criterion) {
    let rules = Rules::wikipedia();
    let specs = vec!["greedy".parse().unwrap()];
    let schedule = Schedule::distinct(1, 4, true, 64, 1).unwrap();
    let t = Tournament::new(rules, specs, schedule);
    assert_eq!(t.chunk_games(0), 64);
    assert_eq!(t.play_chunk(0, false).tally.games, 64);
    c.bench_function("chunk/greedy/64-matches/4p/d12", |b| b.iter(|| black_box(t.play_chunk(0, false).tally.games)));
}

criterion_group!(benches, rounds, rounds_general, matches, decisions, value_net, movegen, chunk);
criterion_main!(benches);
