//! The page's measurements: the engine's speed in the browser.

use mexican_train::strategies::Registry;
use mexican_train::{NoObserver, Rules, play_match};

/// Plays full 4-player matches of `wikipedia` on double-12 with `greedy` in every seat, seeds
/// 1, 2, ..., until at least `rounds` rounds are played; returns the rounds played. The page
/// times it in its worker and `scripts/bench/web-speed.sh` natively: the same work on both.
pub fn greedy_rounds(rounds: u32) -> u64 {
    let rules = Rules::wikipedia();
    let registry = Registry::builtin();
    let bot = registry.build(&"greedy".parse().expect("greedy parses")).expect("greedy builds");
    let mut bots = vec![bot; rules.players as usize];
    let mut played = 0u64;
    let mut seed = 0u64;
    while played < u64::from(rounds) {
        seed += 1;
        let result = play_match(&rules, seed, &mut bots, &mut NoObserver);
        played += result.round_records().count() as u64;
    }
    played
}
