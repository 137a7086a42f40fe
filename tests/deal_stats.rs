//! Deal statistics against exact hypergeometric values.
//!
//! Each test compares a sample proportion with the exact probability using a normal
//! approximation 99.9% interval, |p̂ − p| ≤ 3.29 · sqrt(p(1 − p)/n). Seeds are fixed, so the
//! tests are deterministic; the sample sizes keep the interval within a few percent of p and
//! the tests well under a few seconds in a debug build.

use mexican_train::rng::{GameRng, rng_from_seed, shuffle};
use mexican_train::*;

/// z for a two-sided 99.9% normal interval.
const Z999: f64 = 3.29;

/// Exact binomial coefficient (fits u128 for every value used here).
fn binom(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c * (n - i) is divisible by (i + 1) at every step.
        c = c * (n - i) as u128 / (i + 1) as u128;
    }
    c
}

/// Hypergeometric P(X = k): k successes in a hand of `hand` drawn from `population` tiles
/// of which `successes` are successes.
fn hypergeom(population: u64, successes: u64, hand: u64, k: u64) -> f64 {
    let num = binom(successes, k) * binom(population - successes, hand - k);
    num as f64 / binom(population, hand) as f64
}

/// Asserts that `hits / n` lies in the 99.9% normal interval around `p`.
fn assert_in_interval(what: &str, hits: u64, n: u64, p: f64) {
    let phat = hits as f64 / n as f64;
    let half = Z999 * (p * (1.0 - p) / n as f64).sqrt();
    eprintln!("{what}: sample {phat:.5} ({hits}/{n}), exact {p:.7}, 99.9% half-width {half:.5}");
    assert!((phat - p).abs() <= half, "{what}: sample {phat:.5} ({hits}/{n}) outside {p:.5} ± {half:.5} (99.9%)");
    // The interval must be meaningful: a few percent of p.
    assert!(half < 0.06 * p, "{what}: interval ±{half:.5} too wide for p = {p:.5}");
}

#[test]
fn binomials_are_exact() {
    assert_eq!(binom(91, 11), 47_325_339_895_743);
    assert_eq!(binom(90, 15), 45_795_673_964_460_816);
    assert_eq!(binom(13, 4), 715);
    assert_eq!(binom(5, 0), 1);
    assert_eq!(binom(5, 6), 0);
}

/// (a) P(exactly 4 doubles in an 11-tile hand from the full double-12 set) = 0.0399143:
/// 13 doubles among 91 tiles, C(13,4)·C(78,7)/C(91,11). Hands are the first 11 tiles of the
/// canonical 91-tile list shuffled with the engine's Fisher–Yates (`rng::shuffle`).
#[test]
fn four_doubles_in_eleven_tile_hand() {
    let p = hypergeom(91, 13, 11, 4);
    assert!((p - 0.0399143).abs() < 5e-8, "exact value {p} is not 0.0399143 to 7 digits");

    let set: Vec<Tile> = Tile::canonical(Pip::from_u8(12)).collect();
    assert_eq!(set.len(), 91);
    assert_eq!(set.iter().filter(|t| t.is_double()).count(), 13);
    let n = 150_000u64;
    let mut rng: GameRng = rng_from_seed(0x5EED_0004);
    let mut tiles = set.clone();
    let mut hits = 0u64;
    for _ in 0..n {
        tiles.copy_from_slice(&set);
        shuffle(&mut rng, &mut tiles);
        if tiles[..11].iter().filter(|t| t.is_double()).count() == 4 {
            hits += 1;
        }
    }
    assert_in_interval("4 doubles in 11 of 91", hits, n, p);
}

/// (a') The same statistic for the population the engine actually deals from with 8 players
/// on double-12 (11 tiles each, `[12|12]` set aside: 90 tiles, 12 doubles). The exact value
/// differs from (a): C(12,4)·C(78,7)/C(90,11) = 0.03143. Only seat 0 of each deal is counted,
/// since hands within one deal are dependent.
#[test]
fn four_doubles_in_eleven_tile_engine_hand() {
    let p = hypergeom(90, 12, 11, 4);
    assert!((p - 0.0314325).abs() < 5e-8, "{p}");
    let rules = Rules { players: 8, ..Rules::wikipedia() };
    rules.validate().unwrap();
    assert_eq!(rules.hand(), Some(11));
    let n = 150_000u64;
    let mut rng = rng_from_seed(0x5EED_0008);
    let mut hits = 0u64;
    for _ in 0..n {
        let deal = deal_round(&rules, Pip::from_u8(12), &mut rng);
        let hand = &deal.hands[0];
        assert_eq!(hand.len(), 11);
        if hand.iter().filter(|t| t.is_double()).count() == 4 {
            hits += 1;
        }
    }
    assert_in_interval("4 doubles in 11 of 90 (engine deal)", hits, n, p);
}

/// (b) P(a 15-tile hand dealt after `[12|12]` is set aside holds no tile showing 12)
/// = C(78,15)/C(90,15) = 0.0954 (12 tiles show 12 among the 90 dealt). Sampled with the
/// engine's real deal, `deal_round(&Rules::wikipedia(), 12, ..)`: 4 players × 15 tiles; only
/// seat 0 is counted, since hands within one deal are dependent.
#[test]
fn no_twelve_in_fifteen_tile_hand() {
    let p = binom(78, 15) as f64 / binom(90, 15) as f64;
    assert!((p - hypergeom(90, 12, 15, 0)).abs() < 1e-15);
    assert!((p - 0.0954).abs() < 5e-5, "exact value {p} is not 0.0954 to 4 digits");
    let rules = Rules::wikipedia();
    rules.validate().unwrap();
    let twelve = Pip::from_u8(12);
    let n = 100_000u64;
    let mut rng = rng_from_seed(0x5EED_0012);
    let mut hits = 0u64;
    for _ in 0..n {
        let deal = deal_round(&rules, twelve, &mut rng);
        assert_eq!(deal.engine, Tile::from_pips(12, 12));
        let hand = &deal.hands[0];
        assert_eq!(hand.len(), 15);
        if !hand.has_suit(twelve) {
            hits += 1;
        }
    }
    assert_in_interval("no 12 in 15 of 90", hits, n, p);
}
