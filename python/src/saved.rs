//! Saving a match by its recipe: what made a `State` (its match seed, the actions applied and
//! any resampling along the way), and what made each game of a `Solo` or a `VecEnv` (the seed
//! of the match in play and the agent's actions in it). The engine is deterministic, so the
//! same recipe replayed gives the same state: pickling, deep copies across processes and
//! OpenSpiel's `serialize` all travel as a recipe and are rebuilt by replaying it.

use mexican_train::rules::TableSpec;
use pyo3::PyResult;
use pyo3::exceptions::PyValueError;
use serde::{Deserialize, Serialize};

/// The name and version a serialised state starts with.
pub const FORMAT: &str = "mtrain-state";

/// The version of [`FORMAT`] written and read.
pub const VERSION: u32 = 1;

/// A `resample_from_infostate(player, seed)` in a state's history, after its `after`-th action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resample {
    /// How many actions were applied before it.
    pub after: u32,
    /// The seat whose information state was kept.
    pub player: u8,
    /// The resampling seed.
    pub seed: u64,
}

/// What made a state: dealt from `seed`, then `actions` applied (action numbers), with the
/// `resamples` interleaved at their places. Keeping it costs one `u16` per action.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recipe {
    /// The match seed.
    pub seed: u64,
    /// Every action applied, in order.
    pub actions: Vec<u16>,
    /// Every resampling, in order.
    pub resamples: Vec<Resample>,
}

/// A recipe as text: `{"format": "mtrain-state", "version": 1, "game": {the table},
/// "seed": .., "actions": [..], "resamples": [{"after": .., "player": .., "seed": ..}]}`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Text {
    format: String,
    version: u32,
    /// The table the state is played on (checked on reading when given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    game: Option<TableSpec>,
    seed: u64,
    actions: Vec<u16>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    resamples: Vec<Resample>,
}

impl Recipe {
    /// A match dealt from `seed`, nothing applied yet.
    pub fn dealt(seed: u64) -> Recipe {
        Recipe { seed, actions: Vec::new(), resamples: Vec::new() }
    }

    /// Records action `a` (an action number, below 65,536 in every configuration).
    pub fn push(&mut self, a: usize) {
        self.actions.push(u16::try_from(a).expect("action numbers fit 16 bits"));
    }

    /// Records a resampling for `player` from `seed` at this point.
    pub fn push_resample(&mut self, player: usize, seed: u64) {
        let after = u32::try_from(self.actions.len()).expect("fewer than 2^32 actions");
        self.resamples.push(Resample { after, player: player as u8, seed });
    }

    /// The recipe of a state played on `game`, as JSON text.
    pub fn to_text(&self, game: &TableSpec) -> String {
        let t = Text {
            format: FORMAT.to_string(),
            version: VERSION,
            game: Some(game.clone()),
            seed: self.seed,
            actions: self.actions.clone(),
            resamples: self.resamples.clone(),
        };
        serde_json::to_string(&t).expect("serialisable")
    }

    /// The recipe in `text`, for a state played on `game`; anything but a recipe of this
    /// version, or one of another table, raises `ValueError`.
    pub fn from_text(text: &str, game: &TableSpec) -> PyResult<Recipe> {
        let t: Text = serde_json::from_str(text)
            .map_err(|e| PyValueError::new_err(format!("not a serialised mtrain state ({FORMAT} v{VERSION}): {e}")))?;
        if t.format != FORMAT || t.version != VERSION {
            return Err(PyValueError::new_err(format!(
                "not a serialised mtrain state: format {:?} version {} (valid: {FORMAT:?} version {VERSION})",
                t.format, t.version
            )));
        }
        if let Some(other) = t.game.as_ref().filter(|&g| g != game) {
            let show = |g: &TableSpec| serde_json::to_string(g).expect("serialisable");
            return Err(PyValueError::new_err(format!(
                "not a state of this game: it was played on {}, this game is {}",
                show(other),
                show(game)
            )));
        }
        let mut last = 0;
        for r in &t.resamples {
            if r.after < last || r.after as usize > t.actions.len() {
                return Err(PyValueError::new_err(format!(
                    "not a serialised mtrain state: a resampling after action {} of {} (out of order or past the end)",
                    r.after,
                    t.actions.len()
                )));
            }
            last = r.after;
        }
        Ok(Recipe { seed: t.seed, actions: t.actions, resamples: t.resamples })
    }
}
