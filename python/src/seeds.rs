//! The one seed rule of the Python package, shared by every entry point: a stream seed `S`
//! gives its `k`-th match (k = 0, 1, ...) the match seed [`episode_seed`]`(S, k)`, the seed
//! `Game.new_state` deals from; the environments' `reset(seed=S)` starts the stream `S`; game `i`
//! of `vec_env(seed=S)` plays the stream [`stream_seed`]`(S, i)`.

use crate::args::Int;
use mexican_train::rng::mix;
use pyo3::prelude::*;

/// The stream id a vec_env's games derive their streams from (apart from every stream the
/// engine's own derivations use).
const VEC_GAMES: u64 = 13 << 32;

/// The match seed of match `k` of the stream `stream`: the engine's `mix`, as a tournament
/// derives deal `k` from its master seed.
pub(crate) const fn episode(stream: u64, k: u64) -> u64 {
    mix(stream, k)
}

/// The stream of game `i` of a vec_env seeded `seed`.
pub(crate) const fn stream(seed: u64, i: u64) -> u64 {
    mix(mix(seed, VEC_GAMES), i)
}

fn u64_arg(v: &Int, name: &str) -> PyResult<u64> {
    v.within(name, 0, u64::MAX.into())
}

/// The match seed of match `k` (0, 1, ...) of the seed stream `seed`: what an environment
/// reset with `seed=seed` deals at its `k`-th reset, and what `Game.new_state` takes.
#[pyfunction]
pub(crate) fn episode_seed(seed: Int, k: Int) -> PyResult<u64> {
    Ok(episode(u64_arg(&seed, "seed")?, u64_arg(&k, "k")?))
}

/// The seed stream of game `i` of `vec_env(seed=seed)`: a single environment reset with
/// `seed=stream_seed(seed, i)` plays game `i`'s matches.
#[pyfunction]
pub(crate) fn stream_seed(seed: Int, i: Int) -> PyResult<u64> {
    Ok(stream(u64_arg(&seed, "seed")?, u64_arg(&i, "i")?))
}
