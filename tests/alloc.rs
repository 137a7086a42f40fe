//! Playing rounds and matches with the built-in bots performs zero heap allocations.
//!
//! A counting global allocator wraps the system allocator for this test binary only.

use mexican_train::rng::{mix, rng_from_seed};
use mexican_train::{
    Bot, GameRng, MoveList, NoObserver, Pip, RoundState, Rules, Seat, deal_round, play_match, play_round,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Only allocations made by a thread inside [`allocations`] are counted, so the test
    /// harness's own threads cannot disturb the count.
    static COUNTING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn count() {
    if COUNTING.with(|c| c.get()) {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Tests in one binary run in parallel and the counter is global: each test holds this lock.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCS.load(Ordering::SeqCst);
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (ALLOCS.load(Ordering::SeqCst) - before, r)
}

#[test]
fn rounds_and_matches_do_not_allocate() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for (set, players) in [(12u8, 4u8), (6, 2), (18, 13)] {
        let rules = Rules { set: Pip::from_u8(set), players, ..Rules::wikipedia() };
        rules.validate().unwrap();
        for spec in ["greedy", "random", "greedy:ties=random", "planner", "hoarder", "cutthroat"] {
            let mut bots: Vec<Bot> = (0..players).map(|_| Bot::parse(spec).unwrap()).collect();
            let mut rngs: Vec<GameRng> = (0..players as u64).map(rng_from_seed).collect();
            let mut moves = MoveList::new();
            for i in 0..50u64 {
                let (n, turns) = allocations(|| {
                    let deal = deal_round(&rules, rules.set, &mut rng_from_seed(mix(11, i)));
                    let mut state = RoundState::new(&rules, &deal, Seat::from_index(0));
                    play_round(&mut state, &mut bots, &mut rngs, &mut moves, &mut NoObserver).turns
                });
                assert!(turns > 0);
                assert_eq!(n, 0, "{spec} round {i} on d{set} with {players} players allocated {n} times");
            }
            let (n, result) = allocations(|| play_match(&rules, 5, &mut bots, &mut NoObserver));
            assert_eq!(result.rounds, set + 1);
            assert_eq!(n, 0, "{spec} match on d{set} allocated {n} times");
        }
    }
}

#[test]
fn tournament_chunks_allocate_nothing_per_game() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    use mexican_train::tournament::{Schedule, Tournament};
    let rules = Rules::wikipedia();
    let specs: Vec<mexican_train::StrategySpec> =
        ["greedy", "random", "greedy:ties=random"].iter().map(|s| s.parse().unwrap()).collect();
    // A chunk of one deal (4 games) and a full chunk of 16 deals (64 games).
    let small = Tournament::new(rules.clone(), specs.clone(), Schedule::distinct(3, 4, true, 4, 9).unwrap());
    let full = Tournament::new(rules, specs, Schedule::distinct(3, 4, true, 64, 9).unwrap());
    assert_eq!((small.chunk_games(0), full.chunk_games(0)), (4, 64));
    let (a, out_small) = allocations(|| small.play_chunk(0, false));
    let (b, out_full) = allocations(|| full.play_chunk(0, false));
    assert_eq!((out_small.tally.games, out_full.tally.games), (4, 64));
    assert_eq!(a, b, "allocations grow with the number of games: {a} for 4 games, {b} for 64");
}

/// `montecarlo` keeps its buffers: once they have grown in a first round, decisions allocate
/// nothing, and a seat that keeps its bot between games (no rotation here; a rotation that
/// swaps a seat's bot builds it afresh) reuses them, so a chunk allocates no more for 64 games
/// than for 4.
#[test]
fn montecarlo_decisions_do_not_allocate() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let rules = Rules::wikipedia();
    let spec = "montecarlo:samples=2";
    let mut bots: Vec<Bot> = (0..4).map(|_| Bot::parse(spec).unwrap()).collect();
    let mut rngs: Vec<GameRng> = (0..4).map(rng_from_seed).collect();
    let mut moves = MoveList::new();
    let mut round = |i: u64| {
        let deal = deal_round(&rules, rules.set, &mut rng_from_seed(mix(13, i)));
        let mut state = RoundState::new(&rules, &deal, Seat::from_index(0));
        play_round(&mut state, &mut bots, &mut rngs, &mut moves, &mut NoObserver).turns
    };
    assert!(round(0) > 0);
    for i in 1..6u64 {
        let (n, turns) = allocations(|| round(i));
        assert!(turns > 0);
        assert_eq!(n, 0, "{spec} round {i} allocated {n} times");
    }
    use mexican_train::tournament::{Schedule, Tournament};
    let specs: Vec<mexican_train::StrategySpec> = [spec, "greedy"].iter().map(|s| s.parse().unwrap()).collect();
    let rules = Rules { rounds: Some(1), ..rules };
    let small = Tournament::new(rules.clone(), specs.clone(), Schedule::distinct(2, 4, false, 4, 9).unwrap());
    let full = Tournament::new(rules, specs, Schedule::distinct(2, 4, false, 64, 9).unwrap());
    let (a, _) = allocations(|| small.play_chunk(0, false));
    let (b, _) = allocations(|| full.play_chunk(0, false));
    assert_eq!(a, b, "allocations grow with the number of games: {a} for 4 games, {b} for 64");
}

/// The value network's input and forward pass allocate nothing once its buffers are made, and
/// `expert:leaf=net` decisions allocate nothing once its buffers have grown in a first round.
#[test]
fn value_network_calls_do_not_allocate() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    use mexican_train::net::{Encoder, NetFile};
    let rules = Rules::wikipedia();
    let net = NetFile::from_json(&std::fs::read_to_string("strategies/nets/value-d12-4p.json").unwrap()).unwrap().mlp();
    let mut encoder = Encoder::new(&rules);
    let mut acts = net.activations();
    let (mut idx, mut val) = (Vec::with_capacity(1024), Vec::with_capacity(1024));
    let mut states = Vec::new();
    for i in 0..20u64 {
        let deal = deal_round(&rules, rules.set, &mut rng_from_seed(mix(17, i)));
        states.push(RoundState::new(&rules, &deal, Seat::from_index((i % 4) as usize)));
    }
    let (n, total) = allocations(|| {
        let mut total = 0f32;
        for (i, s) in states.iter().enumerate() {
            encoder.from_round(s, 1, Seat::from_index(i % 4), &mut idx, &mut val);
            total += net.value(&idx, &val, &mut acts).margin;
        }
        total
    });
    assert!(total.is_finite());
    assert_eq!(n, 0, "20 network calls allocated {n} times");

    let mut bots: Vec<Bot> = (0..4).map(|_| Bot::parse("expert:leaf=net,depth=0,samples=3").unwrap()).collect();
    for (s, b) in bots.iter_mut().enumerate() {
        use mexican_train::Strategy;
        b.match_start(&mexican_train::strategy::MatchStart {
            rules: &rules,
            seat: Seat::from_index(s),
            game: 0,
            seed: 0,
        });
    }
    let mut rngs: Vec<GameRng> = (0..4).map(rng_from_seed).collect();
    let mut moves = MoveList::new();
    let mut round = |i: u64| {
        let deal = deal_round(&rules, rules.set, &mut rng_from_seed(mix(19, i)));
        let mut state = RoundState::new(&rules, &deal, Seat::from_index(0));
        play_round(&mut state, &mut bots, &mut rngs, &mut moves, &mut NoObserver).turns
    };
    assert!(round(0) > 0);
    for i in 1..10u64 {
        let (n, turns) = allocations(|| round(i));
        assert!(turns > 0);
        assert_eq!(n, 0, "expert:leaf=net round {i} allocated {n} times");
    }
}
