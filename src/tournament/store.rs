//! The run-state file `tally.json`: exact statistics, which chunks they cover, and what run
//! they belong to. `mtrain merge` adds the tallies of shards; `--resume` continues a run.

use super::{ChunkSet, Tally};
use serde::{Deserialize, Serialize};

/// Format version of `tally.json`.
pub const STORE_FORMAT: u32 = 2;

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
}

impl RunState {
    /// Serialises to pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("serialisable") + "\n"
    }

    /// Parses `tally.json`.
    ///
    /// # Errors
    /// A message naming the problem.
    pub fn from_json(s: &str) -> Result<RunState, String> {
        let st: RunState = serde_json::from_str(s).map_err(|e| format!("not a valid tally.json: {e}"))?;
        if st.format != STORE_FORMAT {
            return Err(format!("tally.json format {} is not {STORE_FORMAT}", st.format));
        }
        if st.tally.clusters.len() != st.tally.layout.len() {
            return Err("tally.json is damaged: cluster count does not match its layout".into());
        }
        Ok(st)
    }
}
