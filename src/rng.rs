//! The one named PRNG, seed derivation, and our own sampling primitives.
//!
//! Every random decision in mtrain goes through [`GameRng`] (`rand_pcg::Pcg64Mcg`) with
//! [`below`] and [`shuffle`] defined here, so an upgrade of `rand` cannot change any result.
//! Seeds are derived, never drawn: a game's seed is `mix(master, game index)`, a bot's seed is
//! `mix(game seed, stream)`. Test vectors below pin all of it.

use rand::RngCore;

/// The simulator's PRNG.
pub type GameRng = rand_pcg::Pcg64Mcg;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64 finaliser: a bijective scrambling of 64 bits.
#[inline]
#[doc(hidden)] // the engine's helpers, for the integration tests
pub const fn splitmix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives a child seed from a parent seed and an index (game index, seat, stream id).
#[inline]
pub const fn mix(seed: u64, index: u64) -> u64 {
    splitmix64(seed.wrapping_add(GOLDEN.wrapping_mul(index.wrapping_add(1))))
}

/// A generator seeded from a 64-bit seed (both 64-bit halves of the 128-bit state are derived).
pub fn rng_from_seed(seed: u64) -> GameRng {
    let hi = splitmix64(seed);
    let lo = splitmix64(seed ^ GOLDEN);
    GameRng::new(((hi as u128) << 64) | lo as u128)
}

/// Stream ids for [`mix`]: deals and the match-level choices use their own streams, bots use
/// their seat number, so adding a bot never changes a deal.
#[doc(hidden)] // the stream names seeds derive from, pinned by the integration tests
pub mod stream {
    /// The deal stream of a match (shuffles, random first player).
    pub const DEAL: u64 = 1 << 32;
    /// Bots: `BOT + seat`.
    pub const BOT: u64 = 2 << 32;
    /// The seating order of a deal at a table too large to go through every order.
    pub(crate) const SEATING: u64 = 3 << 32;
}

/// Every seed a run derives, by name, in one place: a result depends on a seed only through
/// these (test vectors below pin them). A tournament's master seed gives each deal its seed;
/// a deal's seed gives its shuffles, its seating order and each seat's bot stream; a balance
/// sweep gives each cell a master seed; a tuning run gives each iteration its deals and signs,
/// and its confirmation a master seed of its own.
#[doc(hidden)] // every seed derivation, pinned by the integration tests
pub mod seeds {
    use super::{mix, stream};

    /// Stream of the SPSA perturbation signs of iteration `k` (`SIGNS + k`).
    pub(crate) const SIGNS: u64 = 7 << 32;
    /// Stream of a tuning run's confirmation.
    pub(crate) const CONFIRM: u64 = 8 << 32;
    /// Stream of a resampled round's hidden tiles.
    pub(crate) const RESAMPLE_WORLD: u64 = 9 << 32;
    /// Stream of a resampled match's later deals.
    pub(crate) const RESAMPLE_DEALS: u64 = 10 << 32;
    /// Stream of the last-tile coins of round `r` (`TAP + r`).
    pub(crate) const TAP: u64 = 11 << 32;
    /// Stream of a resampled match's later last-tile coins.
    pub(crate) const RESAMPLE_COINS: u64 = 12 << 32;

    /// Deal `deal` of a tournament whose master seed is `run`: every rotation of the deal
    /// shares it.
    pub const fn deal(run: u64, deal: u64) -> u64 {
        mix(run, deal)
    }

    /// The shuffles and match-level choices (a random first player) of a match or deal seed.
    pub(crate) const fn shuffles(match_seed: u64) -> u64 {
        mix(match_seed, stream::DEAL)
    }

    /// The bot stream of seat (or table position) `seat` under a match or deal seed.
    pub const fn bot(match_seed: u64, seat: u64) -> u64 {
        mix(match_seed, stream::BOT + seat)
    }

    /// The seed a seat is told of its own stream ([`crate::MatchStart::seed`], the `seed` of an
    /// external program's `match` message), from the seat's stream seed [`bot`]: one ChaCha20
    /// block keyed by it. Unlike [`mix`], which is a bijection (anyone can run it backwards
    /// from a seat's seed to the deal's and from there to the run's master seed, and replay
    /// every hand), this is one-way: finding the stream seed back from it means trying the 2^64
    /// keys. What stays open is guessing the run's own seed: a bot that tries likely `--seed`
    /// values (1, 2, ...) through the whole derivation finds the one in use, so a match against
    /// a program you do not trust should use a seed it cannot guess (docs/external-bots.md).
    /// The built-in bots' streams are [`bot`]'s seeds themselves; this only changes what a
    /// program is told.
    pub fn bot_public(bot_stream: u64) -> u64 {
        use rand::{RngCore, SeedableRng};
        // The key: the stream seed, then a fixed label that keeps these draws apart from any
        // other use of ChaCha20 keyed by the same 64 bits.
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&bot_stream.to_le_bytes());
        key[8..].copy_from_slice(b"mtrain: a seat's public ");
        rand_chacha::ChaCha20Rng::from_seed(key).next_u64()
    }

    /// The seating order of a deal at a table too large to go through every order.
    pub const fn seating(deal_seed: u64) -> u64 {
        mix(deal_seed, stream::SEATING)
    }

    /// The master seed of the balance cell of `players` and `hand`: adding cells to a sweep
    /// never changes the others.
    pub(crate) const fn balance_cell(run: u64, players: u8, hand: u8) -> u64 {
        mix(run, players as u64 * 256 + hand as u64)
    }

    /// The master seed of the games of SPSA iteration `k`.
    pub(crate) const fn tune_iteration(run: u64, k: u64) -> u64 {
        mix(run, k)
    }

    /// The seed of iteration `k`'s perturbation signs.
    pub(crate) const fn tune_signs(run: u64, k: u64) -> u64 {
        mix(run, SIGNS + k)
    }

    /// The master seed of a tuning run's confirmation games (deals no iteration plays).
    pub(crate) const fn tune_confirm(run: u64) -> u64 {
        mix(run, CONFIRM)
    }

    /// The hidden tiles of a round resampled from one seat's knowledge with `seed`.
    pub(crate) const fn resample_world(seed: u64) -> u64 {
        mix(seed, RESAMPLE_WORLD)
    }

    /// The later deals of a match resampled with `seed`.
    pub(crate) const fn resample_deals(seed: u64) -> u64 {
        mix(seed, RESAMPLE_DEALS)
    }

    /// The match seed whose [`tap_round`] coins a match resampled with `seed` plays in its
    /// later rounds (the real ones stay hidden).
    pub const fn resample_coins(seed: u64) -> u64 {
        mix(seed, RESAMPLE_COINS)
    }

    /// The last-tile coins (`tap_forget`, `tap_catch`) of round `round` (1-based) of the match
    /// with match seed `match_seed`: a stream of its own, so no deal, bot or other coin changes
    /// with them, and rotations of a deal (which share its seed) meet the same coins.
    pub const fn tap_round(match_seed: u64, round: u8) -> u64 {
        mix(match_seed, TAP + round as u64)
    }

    /// Coin `which` (0: forgets, 1: caught) of the `k`-th last tile judged in the round whose
    /// coin seed is `round_seed` (0-based, in the order they are judged). Every coin is a
    /// function of the seed and its index alone: none is drawn from a stream anybody else reads.
    pub const fn tap_coin(round_seed: u64, k: u64, which: u64) -> u64 {
        mix(round_seed, 2 * k + which)
    }
}

/// A uniform integer in `0..n` (Lemire's multiply-shift with rejection; unbiased).
///
/// # Panics
/// Panics if `n == 0`.
#[inline]
#[doc(hidden)] // the engine's helpers, for the integration tests
pub fn below(rng: &mut GameRng, n: u64) -> u64 {
    assert!(n > 0, "below(0)");
    let mut m = (rng.next_u64() as u128) * (n as u128);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = (rng.next_u64() as u128) * (n as u128);
        }
    }
    (m >> 64) as u64
}

/// Fisher–Yates shuffle: for `i` from the last index down to 1, swap `i` with `below(i + 1)`.
#[doc(hidden)] // the engine's helpers, for the integration tests
pub fn shuffle<T>(rng: &mut GameRng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// [`shuffle`] of the first `n` entries of a table of 256: the same swaps from the same draws.
/// An index into 256 entries made from a `u8` needs no bounds check, where the slice's swap
/// checked both of its indices on each of the shuffle's steps (a deal's shuffle is a tenth of a
/// greedy round).
///
/// # Panics
/// Panics if `n` exceeds 256.
#[inline]
pub(crate) fn shuffle_first<T>(rng: &mut GameRng, items: &mut [T; 256], n: usize) {
    assert!(n <= 256, "shuffle_first of {n} entries");
    for i in (1..n).rev() {
        let j = below(rng, i as u64 + 1);
        // i < n <= 256 and j <= i: the casts keep both.
        items.swap(i as u8 as usize, j as u8 as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each named seed is the derivation it has always been: [`mix`] (pinned below) of the
    /// parent and a fixed index, so moving the formulas here changed no result.
    #[test]
    fn named_seeds_are_the_published_derivations() {
        let (run, k) = (0x1234_5678_9abc_def0, 77);
        assert_eq!(seeds::deal(run, k), mix(run, k));
        assert_eq!(seeds::shuffles(run), mix(run, 1 << 32));
        assert_eq!(seeds::bot(run, 3), mix(run, (2 << 32) + 3));
        assert_eq!(seeds::seating(run), mix(run, 3 << 32));
        assert_eq!(seeds::balance_cell(run, 7, 12), mix(run, 7 * 256 + 12));
        assert_eq!(seeds::tune_iteration(run, k), mix(run, k));
        assert_eq!(seeds::tune_signs(run, k), mix(run, (7 << 32) + k));
        assert_eq!(seeds::tune_confirm(run), mix(run, 8 << 32));
        assert_eq!(seeds::tap_round(run, 3), mix(run, (11 << 32) + 3));
        assert_eq!(seeds::tap_coin(run, 5, 1), mix(run, 11));
        assert_eq!(seeds::resample_coins(run), mix(run, 12 << 32));
    }

    /// `shuffle_first` swaps as `shuffle` does, from the same draws, for every length a table
    /// of 256 holds.
    #[test]
    fn shuffle_first_is_shuffle() {
        for n in [0, 1, 2, 3, 28, 90, 91, 190, 255, 256] {
            for seed in 0..8 {
                let mut a: [u16; 256] = std::array::from_fn(|i| i as u16);
                let mut b = a;
                let (mut ra, mut rb) = (rng_from_seed(seed), rng_from_seed(seed));
                shuffle(&mut ra, &mut a[..n]);
                shuffle_first(&mut rb, &mut b, n);
                assert_eq!(a, b, "{n} entries, seed {seed}");
                assert_eq!(ra.next_u64(), rb.next_u64(), "the same draws");
            }
        }
    }

    // Test vectors: these pin the exact streams. Changing them changes every published result.
    #[test]
    fn splitmix_and_mix_vectors() {
        assert_eq!(splitmix64(0), 0);
        assert_eq!(splitmix64(GOLDEN), 0xE220_A839_7B1D_CDAF);
        assert_eq!(mix(0, 0), 0xE220_A839_7B1D_CDAF);
        assert_ne!(mix(7, 0), mix(7, 1));
        assert_ne!(mix(7, 0), mix(8, 0));
    }

    #[test]
    fn pcg_stream_vector() {
        let mut r = rng_from_seed(7);
        let got: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(got, PCG_SEED7);
    }

    #[test]
    fn below_and_shuffle_vectors() {
        let mut r = rng_from_seed(42);
        let got: Vec<u64> = (0..8).map(|_| below(&mut r, 10)).collect();
        assert_eq!(got, BELOW_SEED42);
        let mut v: Vec<u8> = (0..10).collect();
        shuffle(&mut rng_from_seed(42), &mut v);
        assert_eq!(v, SHUFFLE_SEED42);
    }

    #[test]
    fn below_is_uniform_enough() {
        let mut r = rng_from_seed(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[below(&mut r, 6) as usize] += 1;
        }
        // Each count is Binomial(60000, 1/6): sd ~ 91; 6 sd bounds never flake.
        for c in counts {
            assert!((9_450..=10_550).contains(&c), "{counts:?}");
        }
    }

    const PCG_SEED7: [u64; 3] = [2902684122797510862, 14196350672071961026, 14244589265566100170];
    const BELOW_SEED42: [u64; 8] = [2, 2, 9, 7, 1, 3, 7, 1];
    const SHUFFLE_SEED42: [u8; 10] = [8, 4, 6, 3, 1, 0, 5, 7, 9, 2];
}
