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
//! Rules + seed ─▶ deal ─▶ round ─▶ game (a match) ─▶ runs (tournament, balance, tune) ─▶ report ─▶ job
//!                          ▲                    │
//!                 View ─▶ Strategy (a bot)      └─▶ log (the JSONL game log) ─▶ analyze
//!                         chooses a Move
//! ```
//!
//! 1. **The table.** [`rules`] holds every rule as plain data ([`Rules`], five presets and the
//!    `--rule` variations); [`tile`] and [`tile_set`] are the atoms (a tile, a set of tiles as a
//!    bit matrix).
//! 2. **A round.** [`deal`] shuffles and deals from a seed; [`round`] is the engine: the round
//!    state, move generation, the turn procedure of each preset, and the events a round emits.
//!    A bot sees a round only through a [`view::View`] (what one seat may know).
//! 3. **The players.** [`strategy`] defines the [`Strategy`] trait and bot specs
//!    (`name:key=value`); [`strategies`] holds the built-in bots, the [`strategies::Registry`]
//!    that names them (Rust bots are added there) and the [`strategies::BotLabel`] results show
//!    a bot by; [`external`] plays any program that speaks the JSON-lines bot protocol, whose
//!    wire vocabulary (tiles, trains, events as JSON) is `external::wire`.
//! 4. **A match.** [`game`] plays rounds from the highest double down and scores them
//!    ([`play_match`]), or steps through one decision at a time ([`MatchState`]); [`rng`]
//!    derives every seed by name (`rng::seeds`), so a match is a function of its seed.
//!    [`log`] is the JSONL game log's schema, defined once: the writer ([`log::JsonLog`]), the
//!    `match` line read back ([`log::MatchLine`]) and the events ([`log::EVENTS`]), in the bot
//!    protocol's words; `mtrain play --log` and `tournament --log-games` write it, [`analyze`]
//!    replays it (docs/log-format.md, checked against it by `tests/log_docs.rs`).
//! 5. **The runs.** [`tournament`] schedules many matches as numbered chunks of deals (a pure
//!    plan), runs them on threads, and folds them into exact integer sums (`tournament::Tally`)
//!    that merge across threads, shards and resumes, with the per-game records of
//!    `tournament::rows`. [`balance`] sweeps hand sizes as one tournament per cell and judges
//!    each against its limits (metrics, verdicts and the recommendation, as data); [`tune`] moves
//!    a bot's parameters by SPSA over rounds of games; [`compare`] plays rule sets side by side
//!    on the same deals and pairs their differences deal by deal; [`label`] plays matches and
//!    labels positions by playouts of the true round, for a learned evaluation. They compute and never format: they emit
//!    records and sums, and tell a [`store::Progress`] observer how far they are. [`store`] is
//!    the durable folder they keep their state in: files written atomically, self-checked state
//!    files, what a new run may replace. `stats` turns sums into estimates with intervals.
//! 6. **Reports.** `report` writes what people read: CSV tables (a tournament's, a sweep's),
//!    the console summary, the transcript of a match, manifests, SVG plots, and the two HTML
//!    pages (the run report and the game viewer, `report::html`, in one shell): the runners
//!    compute, the reports format.
//! 7. **One kind of run.** [`job`] is where a run becomes durable: the [`job::Job`] trait (a
//!    kind's configuration as data, its state, how it plays, which files it writes, how its
//!    shards merge), implemented once per kind ([`job::tournament`], [`job::balance`],
//!    [`job::tune`]), and the one driver that runs any of them ([`job::prepare`], [`job::merge`]):
//!    the folder, resume, checkpoints, the stop flags a signal sets, progress, shards and merges.
//! 8. **The front doors.** The `mtrain` command line (the binary, and the private module `cli`
//!    whose two entry points are public: [`run_command_line`] and [`run_command_line_with`]) and
//!    the Python package parse arguments into a job's configuration, hand it to the driver, and
//!    print or return its report; they hold no game logic and no run logic.
//!
//! The modules stand on floors, and a module uses only its own floor and those below (lowest
//! first): `error`, `rng`, `stats`, `tile`; `tile_set`, `rules`; `deal`; `round`, `view`,
//! `strategy`; `game`, `net`; `strategies`, `external`, `log`; `analyze`, `store`; `tournament`,
//! `balance`, `tune`, `compare`, `eval`, `label`; `report`; `job`; `cli`. `tests/module_graph.rs` holds the floors and lists
//! the few imports allowed to run back up, each with its reason.
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
//! | [`strategy`], [`strategies`] | the bot trait and specs; the built-in bots, their registry, bot labels |
//! | [`external`] | bots in other programs, over the JSON-lines protocol, and its wire vocabulary |
//! | [`log`] | the JSONL game log: its writer and schema, defined once |
//! | [`game`] | a match of rounds, scores and the winner |
//! | [`rng`] | the PRNG and every seed derivation |
//! | [`error`] | the error types callers act on |
//! | `stats` (hidden) | integer accumulators and their intervals |
//! | [`tournament`] | schedules, the parallel runner, tallies, ratings, SPRT, per-game records, durable runs |
//! | [`balance`] | hand-size sweeps: metrics, verdicts against limits, the recommendation |
//! | [`tune`] | SPSA tuning of numeric bot parameters |
//! | [`compare`] | rule sets on the same deals: paired differences, adjusted intervals, verdicts at a margin |
//! | [`net`] | the value network: its input, forward pass, file format and training |
//! | [`label`] | training labels for a learned evaluation: positions, features and playout targets as `.npy` files |
//! | [`store`] | the durable folder of every kind of run: atomic files, self-checked state, progress |
//! | `report` (hidden) | CSV, console, transcript, manifests, plots, the HTML run report and game viewer |
//! | [`job`] | the `Job` trait, the kinds of run, and the one driver: new, resumed, merged |
//! | `cli` (private) | the `mtrain` command line; its entry points are [`run_command_line`] and [`run_command_line_with`] (feature `cli`, on by default) |
//!
//! # What a program uses
//!
//! The types a bot, a program or a front door of one's own needs, by what it does. They and what
//! their signatures name are public and documented; the rest of the documented items of the
//! public modules is there to be read, and may change between versions.
//!
//! - **A bot:** implement [`Strategy`] (its [`Needs`], then `choose` over a [`View`] and the
//!   legal [`Move`]s), wrap it with [`Bot::custom`], and name it in a registry with
//!   [`strategies::Registry::add_entry`]; `examples/custom_bot.rs` plugs it into the command
//!   line with [`run_command_line_with`]. A bot in another language speaks the JSON-lines protocol
//!   instead ([`external`], docs/bot-protocol.md).
//! - **A match or a round:** [`Rules`] (a preset, [`Rules::validate`]), [`play_match`], or
//!   [`MatchState`] to step one decision at a time; [`RoundState`] for a single round.
//! - **A run:** a kind's configuration ([`tournament::TournamentConfig`],
//!   [`balance::SweepConfig`], [`job::tune::TuneConfig`]) in a [`job::Start`], played by
//!   [`job::prepare`] and [`job::Prepared::play`] with [`job::Options`] (threads, the stop
//!   flags, a [`store::Progress`] observer); shards join with [`job::merge`]. A new kind of run
//!   implements [`job::Job`] (`tests/job_driver.rs` writes one outside the crate).
//! - **An answer about a position:** [`analyze::analyze`] on a [`View`], or
//!   [`analyze::review::review`] over a logged game ([`log`]).
//!
//! The rest is the crate's own. What no code outside the library names is `pub(crate)`, and
//! `cli` is private. What only the crate's integration tests, benches and Python bindings reach
//! stays `pub` but is `#[doc(hidden)]`, each with a comment saying who uses it: the modules
//! `report`, `stats`, `rng::seeds` and `rng::stream`, `strategies::plan` and `analyze`'s
//! `explain`, `position` and `worlds`; the runners' parts (a tournament's schedule, runner,
//! tallies, ratings, SPRT state and records; a sweep's cells, metrics and verdicts; SPSA's
//! iterations); the built-in bots' own types (a [`Bot`] is made from a spec); and the readers of
//! [`RoundState`]'s internal state that the engine's tests check. Hidden items are not part of
//! the API: they may change or go at any time. `scripts/checks/public-surface.sh` counts what
//! is public.
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

// Without the command line (`default-features = false`, as the browser page builds it), the report
// pages, the run files' writers and the terminal transcript lose their only caller; they stay
// compiled rather than each gated behind `cli`, and the linker drops them.
#![cfg_attr(not(feature = "cli"), allow(dead_code, unused_imports))]

pub mod analyze;
pub mod balance;
// The `mtrain` command line, private: its two entry points are re-exported below.
#[cfg(feature = "cli")]
mod cli;
pub mod compare;
pub mod deal;
pub mod error;
pub mod eval;
pub mod external;
pub mod game;
pub mod job;
pub mod label;
pub mod log;
pub mod net;
#[doc(hidden)] // what the runs write; the integration tests and the Python crate read manifests
pub mod report;
pub mod rng;
pub mod round;
pub mod rules;
#[doc(hidden)] // the sums and intervals behind the runs' estimates, for the integration tests
pub mod stats;
pub mod store;
pub mod strategy;
pub mod tile;
pub mod tile_set;
pub mod tournament;
pub mod tune;
pub mod view;

#[path = "../strategies/mod.rs"]
pub mod strategies;

pub use deal::{Boneyard, Deal, deal_round};
pub use game::{MatchObserver, MatchResult, MatchSeeds, MatchState, RoundRecord, play_match, play_round};
pub use rng::{GameRng, mix, rng_from_seed};
pub use round::{
    Decision, EndReason, Event, Move, MoveKind, MoveList, NoObserver, Obligation, Observer, Outcome, PenaltyReason,
    Placement, PlayError, RoundState, Seat, SeenEvent, Step, Train, TrainId,
};
pub use rules::{Preset, RuleError, RuleErrors, Rules};
pub use strategies::Bot;
pub use strategy::{Needs, SpecError, Strategy, StrategySpec};
pub use tile::{Pip, Tile};
pub use tile_set::TileSet;
pub use view::View;
// The `mtrain` command line's entry points (feature `cli`): the binary, and the same with a
// registry of one's own bots.
#[cfg(feature = "cli")]
pub use cli::{run as run_command_line, run_with as run_command_line_with};
