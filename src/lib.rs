//! mtrain: a Monte Carlo strategy simulator and tournament runner for Mexican Train.
//!
//! Data flows one way: rules + seed → [`deal`] → [`round`] → [`game`] (match) → record.
//! This file is the map: every module is listed here and the vocabulary is re-exported by name.

pub mod cli;
pub mod deal;
pub mod game;
pub mod report;
pub mod rng;
pub mod round;
pub mod rules;
pub mod strategy;
pub mod tile;
pub mod tile_set;
pub mod view;

#[path = "../strategies/mod.rs"]
pub mod strategies;

pub use deal::{Boneyard, Deal, deal_round};
pub use game::{MatchObserver, MatchResult, RoundRecord, play_match, play_round};
pub use rng::{GameRng, mix, rng_from_seed};
pub use round::{
    Decision, EndReason, Event, Move, MoveList, NoObserver, Obligation, Observer, Outcome, PlayError, RoundState, Seat,
    Step, Train, TrainId,
};
pub use rules::{Preset, RuleError, RuleErrors, Rules};
pub use strategies::Bot;
pub use strategy::{SpecError, Strategy, StrategySpec};
pub use tile::{Pip, Tile};
pub use tile_set::TileSet;
pub use view::View;
