//! PLAN search speed: fixed double-12 hands of 8, 12 and 16 tiles, each planned from the value
//! it holds most tiles of (the smallest such value), one plan per iteration, cycling through
//! eight hands of each size.
//!
//! The hands are dealt from a fixed seed, and each benchmark first asserts the planned length
//! of every hand (and that it matches the engine's count-only trail search), so
//! `cargo test --benches` doubles as a check.

use criterion::{Criterion, criterion_group, criterion_main};
use mexican_train::rng::{below, mix, rng_from_seed};
use mexican_train::round::longest_trail;
use mexican_train::strategies::plan::longest_plan;
use mexican_train::{Pip, Tile, TileSet};
use std::hint::black_box;

/// Eight hands of `n` tiles from double-12 without the engine 12-12, dealt from seed `n`, each
/// with the value to plan from.
fn hands(n: usize) -> Vec<(TileSet, Pip)> {
    let all: Vec<Tile> = Tile::canonical(Pip::from_u8(12)).filter(|t| *t != Tile::from_pips(12, 12)).collect();
    (0..8)
        .map(|i| {
            let mut rng = rng_from_seed(mix(n as u64, i));
            let mut h = TileSet::EMPTY;
            while h.len() < n {
                h.insert(all[below(&mut rng, all.len() as u64) as usize]);
            }
            let start = (0..=12u8).map(Pip::from_u8).max_by_key(|&v| (h.suit_len(v), std::cmp::Reverse(v))).unwrap();
            (h, start)
        })
        .collect()
}

/// The planned lengths of the eight hands of each size.
const LENGTHS: [(usize, [usize; 8]); 3] =
    [(8, [2, 2, 5, 6, 4, 2, 1, 4]), (12, [7, 9, 9, 7, 6, 3, 7, 9]), (16, [11, 15, 9, 11, 12, 12, 13, 8])];

fn plans(c: &mut Criterion) {
    for (n, lengths) in LENGTHS {
        let hs = hands(n);
        let got: Vec<usize> = hs.iter().map(|(h, v)| longest_plan(h, *v).len()).collect();
        assert_eq!(got, lengths, "planned lengths of the {n}-tile hands");
        for (h, v) in &hs {
            assert_eq!(longest_plan(h, *v).len(), longest_trail(h, *v));
        }
        let mut i = 0;
        c.bench_function(&format!("plan/{n}-tiles"), |b| {
            b.iter(|| {
                i = (i + 1) % hs.len();
                let (h, v) = &hs[i];
                black_box(longest_plan(black_box(h), *v))
            })
        });
    }
}

criterion_group!(benches, plans);
criterion_main!(benches);
