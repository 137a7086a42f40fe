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

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::SeqCst);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCS.load(Ordering::SeqCst);
    let r = f();
    (ALLOCS.load(Ordering::SeqCst) - before, r)
}

#[test]
fn rounds_and_matches_do_not_allocate() {
    // One test function: the counter is global, and tests in one binary run in parallel.
    for (set, players) in [(12u8, 4u8), (6, 2), (18, 13)] {
        let rules = Rules { set: Pip::from_u8(set), players, ..Rules::wikipedia() };
        rules.validate().unwrap();
        for spec in ["greedy", "random", "greedy:ties=random"] {
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
