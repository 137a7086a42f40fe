//! mtrain: a Monte Carlo strategy simulator and tournament runner for Mexican Train.
//!
//! Data flows one way: rules + seed → [`deal`] → [`round`] → [`game`] (match) → record.
//! This file is the map: every module is listed here and the vocabulary is re-exported by name.
//!
//! # Examples
//!
//! Play a seeded match between four built-in bots under the `wikipedia` rules:
//!
//! ```
//! use mexican_train::{Bot, NoObserver, Rules, play_match};
//!
//! let rules = Rules::wikipedia(); // double-12, 4 players, 15 tiles each
//! rules.validate().unwrap();
//! let mut bots: Vec<Bot> = ["greedy", "random", "greedy", "random"]
//!     .iter()
//!     .map(|s| Bot::parse(s).unwrap())
//!     .collect();
//! let result = play_match(&rules, 7, &mut bots, &mut NoObserver);
//! assert_eq!(result.rounds, 13);
//! // The same seed always gives the same match.
//! assert_eq!(play_match(&rules, 7, &mut bots, &mut NoObserver), result);
//! ```

pub mod balance;
pub mod cli;
pub mod deal;
pub mod external;
pub mod game;
pub mod report;
pub mod rng;
pub mod round;
pub mod rules;
pub mod stats;
pub mod strategy;
pub mod tile;
pub mod tile_set;
pub mod tournament;
pub mod tune;
pub mod view;

#[path = "../strategies/mod.rs"]
pub mod strategies;

pub use deal::{Boneyard, Deal, deal_round};
pub use game::{MatchObserver, MatchResult, MatchSeeds, RoundRecord, play_match, play_match_seeded, play_round};
pub use rng::{GameRng, mix, rng_from_seed};
pub use round::{
    Decision, EndReason, Event, Move, MoveKind, MoveList, NoObserver, Obligation, Observer, Outcome, Placement,
    PlayError, RoundState, Seat, SeenEvent, Step, Train, TrainId,
};
pub use rules::{Preset, RuleError, RuleErrors, Rules};
pub use strategies::Bot;
pub use strategy::{SpecError, Strategy, StrategySpec};
pub use tile::{Pip, Tile};
pub use tile_set::TileSet;
pub use view::View;
