//! Your own bot in the whole `mtrain` command line, in about twenty lines: a Rust `Strategy`
//! added to the built-in registry, handed to the library's command-line entry point.
//!
//! ```text
//! cargo run --release --example custom_bot -- tournament --bots lightest,greedy --players 2
//! cargo run --release --example custom_bot -- balance --bots lightest,planner --players 2-4
//! cargo run --release --example custom_bot -- strategies
//! ```

use mexican_train::strategies::{ParamInfo, Registry};
use mexican_train::{GameRng, MoveList, Needs, Strategy, View};

/// Sheds its lightest tile first (the opposite of `greedy`), or its heaviest once the hand is
/// down to `late` tiles.
#[derive(Clone)]
struct Lightest {
    late: usize,
}

impl Strategy for Lightest {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
        // From `late` tiles on, shed the heaviest instead. A stop, skip or bullet lays no tile:
        // it is the last choice, taken only when no tile is offered.
        let sign = if view.hand().len() <= self.late { -1 } else { 1 };
        let weight = |i: usize| moves[i].tile().map_or(i32::MAX, |t| sign * i32::from(t.pips()));
        (0..moves.len()).min_by_key(|&i| weight(i)).unwrap_or(0)
    }

    /// Reads neither the voids nor its random stream: the engine skips both.
    fn needs(&self) -> Needs {
        Needs::NOTHING
    }
}

const PARAMS: &[ParamInfo] =
    &[ParamInfo { key: "late", default: "0", help: "hand size from which to shed the heaviest" }];

fn main() {
    let mut registry = Registry::builtin();
    registry.add("lightest", "sheds its lightest tile first", PARAMS, |spec| {
        let late = spec.get("late").unwrap_or("0");
        late.parse().map(|late| Lightest { late }).map_err(|_| spec.bad_value("late", "a whole number"))
    });
    std::process::exit(mexican_train::run_command_line_with(&registry, std::env::args_os()));
}
