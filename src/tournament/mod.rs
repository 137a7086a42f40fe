//! Tournaments: a pure schedule of games, a parallel runner, exact mergeable statistics.
//!
//! The scheduling unit is the deal (every rotation of a deal is one game); deals are grouped
//! into fixed-size chunks of `CHUNK_DEALS`, the unit of parallel work, progress, sharding and
//! resumption. Results depend only on (rules, field, master seed, deal index), so any thread
//! count, shard split or interruption gives the same totals.

mod ratings;
mod runner;
mod schedule;
mod spec;
mod sprt;
mod store;
mod tally;

pub(crate) mod record;
pub(crate) mod rows;
pub(crate) mod session;
pub(crate) use ratings::score_to_elo;
pub use ratings::{Rating, Ratings, ratings};
pub use record::{FileMark, PerGameMarks};
pub(crate) use rows::{PerGame, games_header, rounds_header};
pub(crate) use runner::DealTotals;
pub use runner::{ChunkOutput, ChunkSet, RunOptions, RunResult, Tournament};
pub(crate) use schedule::Seating;
pub use schedule::{GameSpec, Schedule, ScheduleError};
pub(crate) use session::{Identity, Outputs, Session, SessionError};
pub use spec::{TournamentConfig, TournamentJob, TournamentSpec};
pub use sprt::{Hypothesis, Sprt, SprtState};
pub(crate) use store::{BALANCE_KIND, TOURNAMENT_KIND};
pub use store::{CellState, RunState, STORE_FORMAT, SWEEP_FORMAT, SweepState, kind_of};
pub(crate) use tally::WIN_UNIT;
pub use tally::{DealAcc, Layout, Tally};

/// Deals per chunk: small enough for a live progress bar and fine-grained interruption, large
/// enough that scheduling costs nothing.
pub(crate) const CHUNK_DEALS: u64 = 16;
