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
        let st: RunState = serde_json::from_str(s).map_err(|e| format!("not a valid tally.json: {e}"))?;
        if st.format != STORE_FORMAT {
            return Err(format!("tally.json format {} is not {STORE_FORMAT}", st.format));
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
