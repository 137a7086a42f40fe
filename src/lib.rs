//! mtrain: a Monte Carlo strategy simulator and tournament runner for Mexican Train.
//!
//! This page is the map: every module, its role, and how data flows through them. The
//! vocabulary (tiles, rules, rounds, bots) is re-exported at the root by name.
//!
//! # Data flow
//!
//! Everything runs one way, and every step is a pure function of its inputs and a seed:
//!
//! ```text
//! Rules + seed ─▶ deal ─▶ round ─▶ game (a match) ─▶ job (tournament, balance, tune) ─▶ report
//!                          ▲
//!                 View ─▶ Strategy (a bot) chooses a Move
//! ```
//!
//! 1. **The table.** [`rules`] holds every rule as plain data ([`Rules`], five presets and the
//!    `--rule` variations); [`tile`] and [`tile_set`] are the atoms (a tile, a set of tiles as a
//!    bit matrix).
//! 2. **A round.** [`deal`] shuffles and deals from a seed; [`round`] is the engine: the round
//!    state, move generation, the turn procedure of each preset, and the events a round emits.
//!    A bot sees a round only through a [`view::View`] (what one seat may know).
//! 3. **The players.** [`strategy`] defines the [`Strategy`] trait and bot specs
//!    (`name:key=value`); [`strategies`] holds the built-in bots and the [`strategies::Registry`]
//!    that names them (Rust bots are added there); [`external`] plays any program that speaks
//!    the JSON-lines bot protocol.
//! 4. **A match.** [`game`] plays rounds from the highest double down and scores them
//!    ([`play_match`]), or steps through one decision at a time ([`MatchState`]); [`rng`]
//!    derives every seed by name ([`rng::seeds`]), so a match is a function of its seed.
//! 5. **A job.** [`tournament`] schedules many matches as numbered chunks of deals (a pure plan),
//!    runs them on threads, and folds them into exact integer sums ([`tournament::Tally`]) that
//!    merge across threads, shards and resumes; its session keeps the run's state on disk
//!    (`tally.json`, checkpoints, per-game files). [`balance`] sweeps hand sizes as one
//!    tournament per cell and judges each against its limits; [`tune`] moves a bot's parameters
//!    by SPSA over rounds of games. [`job`] is the folder all three keep their state in:
//!    checkpoints, resumption, shards and merges rebuild a run from the configuration its state
//!    stores. [`stats`] turns sums into estimates with intervals.
//! 6. **Reports.** [`report`] writes what people read: CSV tables, the console summary, the
//!    transcript and JSONL log of a match, manifests, SVG plots, the two HTML pages (the run
//!    report and the game viewer, [`report::html`], in one shell), and the per-game rows a
//!    tournament hands its sink ([`report::rows`]): the runners compute, the reports format.
//! 7. **The command line.** [`cli`] parses `mtrain` arguments into the pieces above, runs them,
//!    and prints; it holds no game logic.
//!
//! # Modules
//!
//! | module | role |
//! |---|---|
//! | [`tile`], [`tile_set`] | pips and tiles; sets of tiles as suit bitmaps |
//! | [`rules`] | the rule parameters, presets, deal tables, `--rule` parsing |
//! | [`deal`] | the seeded shuffle and deal of a round |
//! | [`round`] | the engine: round state, moves, turns, events |
//! | [`view`] | a seat's legal knowledge of a round |
//! | [`analyze`] | position analysis and game review: every move's win probability and points, with intervals |
//! | [`strategy`], [`strategies`] | the bot trait and specs; the built-in bots and their registry |
//! | [`external`] | bots in other programs, over the JSON-lines protocol |
//! | [`game`] | a match of rounds, scores and the winner |
//! | [`rng`] | the PRNG and every seed derivation |
//! | [`error`] | the error types callers act on |
//! | [`stats`] | integer accumulators and their intervals |
//! | [`tournament`] | schedules, the parallel runner, tallies, ratings, SPRT, durable runs |
//! | [`balance`] | hand-size sweeps: metrics, verdicts against limits, the recommendation |
//! | [`tune`] | SPSA tuning of numeric bot parameters |
//! | [`job`] | the durable folder of every kind of run: new, resumed, checkpointed |
//! | [`report`] | CSV, console, transcript, JSONL, manifests, plots, the HTML run report and game viewer |
//! | [`cli`] | the `mtrain` command line |
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

pub mod analyze;
pub mod balance;
pub mod cli;
pub mod deal;
pub mod error;
pub mod external;
pub mod game;
pub mod job;
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
pub use game::{
    MatchObserver, MatchResult, MatchSeeds, MatchState, RoundRecord, play_match, play_match_seeded, play_round,
};
pub use rng::{GameRng, mix, rng_from_seed};
pub use round::{
    Decision, EndReason, Event, Move, MoveKind, MoveList, NoObserver, Obligation, Observer, Outcome, Placement,
    PlayError, RoundState, Seat, SeenEvent, Step, Train, TrainId,
};
pub use rules::{Preset, RuleError, RuleErrors, Rules};
pub use strategies::Bot;
pub use strategy::{Needs, SpecError, Strategy, StrategySpec};
pub use tile::{Pip, Tile};
pub use tile_set::TileSet;
pub use view::View;
