//! The run-state file `tally.json`: exact statistics, which chunks they cover, what run they
//! belong to, and how much of the per-game files they vouch for. `mtrain merge` adds the tallies
//! of shards; `--resume` continues a run from its last checkpoint.
//!
//! The file carries a CRC-32 of its own content (`check`): a file edited by hand, truncated or
//! damaged is refused rather than trusted.

use super::record::PerGameMarks;
use super::{ChunkSet, Tally};
use serde::{Deserialize, Serialize};

/// Format version of `tally.json`.
pub const STORE_FORMAT: u32 = 3;

/// Everything needed to merge or resume a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// [`STORE_FORMAT`].
    pub format: u32,
    /// Identity of the run: rules, field, seed, schedule. Runs merge only with equal
    /// fingerprints.
    pub fingerprint: String,
    /// The tournament arguments that reproduce the run (without threads, output or progress
    /// options).
    pub args: Vec<String>,
    /// Total chunks in the whole (unsharded) run.
    pub chunks_total: u64,
    /// Chunks this state was asked to play (a shard's slice, or all).
    pub chunks_planned: ChunkSet,
    /// Chunks whose games are in `tally`.
    pub done: ChunkSet,
    /// The statistics.
    pub tally: Tally,
    /// How much of `games.csv` and `rounds.csv` belongs to `done` (per-game runs only).
    #[serde(default)]
    pub per_game: Option<PerGameMarks>,
    /// CRC-32 of the file's content with this field 0.
    #[serde(default)]
    pub check: u32,
}

impl RunState {
    /// The CRC-32 of the state with `check` 0, in its compact JSON form.
    fn content_check(&self) -> u32 {
        let mut plain = self.clone();
        plain.check = 0;
        crc32fast::hash(serde_json::to_string(&plain).expect("serialisable").as_bytes())
    }

    /// Serialises to pretty JSON, with its check.
    pub fn to_json(&self) -> String {
        let mut st = self.clone();
        st.check = st.content_check();
        serde_json::to_string_pretty(&st).expect("serialisable") + "\n"
    }

    /// Parses `tally.json`.
    ///
    /// # Errors
    /// A message naming the problem.
    pub fn from_json(s: &str) -> Result<RunState, String> {
        if kind_of(s).is_some_and(|k| k == BALANCE_KIND) {
            return Err(
                "its tally.json is a balance sweep's, not a tournament's (resume it with mtrain balance --resume)"
                    .into(),
            );
        }
        let st: RunState = serde_json::from_str(s).map_err(|e| format!("not a valid tally.json: {e}"))?;
        if st.format != STORE_FORMAT {
            return Err(format!(
                "tally.json was written by another version of mtrain (format {}; this one reads {STORE_FORMAT})",
                st.format
            ));
        }
        if st.tally.clusters.len() != st.tally.layout.len() {
            return Err("tally.json is damaged: cluster count does not match its layout".into());
        }
        if st.check != st.content_check() {
            return Err("tally.json was changed after mtrain wrote it (its check does not match its content)".into());
        }
        Ok(st)
    }
}

/// One cell of a sweep: the tournament of one player count and hand size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellState {
    /// Seats.
    pub players: u8,
    /// Tiles dealt to each.
    pub hand: u8,
    /// Chunks of the cell's whole tournament.
    pub chunks_total: u64,
    /// Chunks this state was asked to play (a shard's slice, or all).
    pub chunks_planned: ChunkSet,
    /// Chunks whose games are in `tally`.
    pub done: ChunkSet,
    /// The statistics.
    pub tally: Tally,
}

/// What [`SweepState::kind`] says for `mtrain balance`.
pub const BALANCE_KIND: &str = "balance";

/// The state of a sweep (`mtrain balance`): one tournament per cell, played cell after cell,
/// kept in the same `tally.json` with the same self-check as a tournament's, for resuming and
/// merging shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepState {
    /// [`STORE_FORMAT`].
    pub format: u32,
    /// [`BALANCE_KIND`].
    pub kind: String,
    /// Identity of the sweep: rules, cells, field, games, seed.
    pub fingerprint: String,
    /// The arguments that reproduce the sweep (without threads, output or progress options).
    pub args: Vec<String>,
    /// Every cell, in sweep order.
    pub cells: Vec<CellState>,
    /// CRC-32 of the file's content with this field 0.
    #[serde(default)]
    pub check: u32,
}

impl SweepState {
    fn content_check(&self) -> u32 {
        let mut plain = self.clone();
        plain.check = 0;
        crc32fast::hash(serde_json::to_string(&plain).expect("serialisable").as_bytes())
    }

    /// Serialises to pretty JSON, with its check.
    pub fn to_json(&self) -> String {
        let mut st = self.clone();
        st.check = st.content_check();
        serde_json::to_string_pretty(&st).expect("serialisable") + "\n"
    }

    /// Parses a sweep's `tally.json`.
    ///
    /// # Errors
    /// A message naming the problem.
    pub fn from_json(s: &str) -> Result<SweepState, String> {
        if kind_of(s).as_deref() != Some(BALANCE_KIND) {
            return Err(
                "its tally.json is a tournament's, not a balance sweep's (resume it with mtrain tournament --resume)"
                    .into(),
            );
        }
        let st: SweepState = serde_json::from_str(s).map_err(|e| format!("not a valid tally.json: {e}"))?;
        if st.format != STORE_FORMAT {
            return Err(format!(
                "tally.json was written by another version of mtrain (format {}; this one reads {STORE_FORMAT})",
                st.format
            ));
        }
        if st.cells.iter().any(|c| c.tally.clusters.len() != c.tally.layout.len()) {
            return Err("tally.json is damaged: cluster count does not match its layout".into());
        }
        if st.check != st.content_check() {
            return Err("tally.json was changed after mtrain wrote it (its check does not match its content)".into());
        }
        Ok(st)
    }
}

/// The `kind` of a `tally.json` (`None` for a tournament's, which has none), if it parses.
pub fn kind_of(s: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(s).ok()?;
    v.get("kind").and_then(|k| k.as_str()).map(str::to_string)
}
