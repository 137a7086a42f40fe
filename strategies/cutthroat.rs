//! `cutthroat`: the planner that makes the next players pay for its doubles.
//!
//! It plays like `planner` but, where a double's follow-up may go elsewhere and later players
//! must cover, lays a double on the Mexican train and plays its follow-up elsewhere, so the next
//! seat must cover from the middle of its plan; and it turns public trains to ends their owners
//! are publicly known to lack. Sources (the strategy behaviours drawn from the rule texts): S3 (leave a double open on the Mexican train,
//! preferring a value the next seat is known void in, else the most unplayed tiles outside its
//! hand; where the follow-up must cover the same double, lay doubles it cannot cover on other
//! seats' public trains), S5 (turn a marked opponent's end to one of its known voids, and else
//! leave public ends the next seat is known to lack, never breaking PLAN for it) and the void
//! inference (`View::known_voids`), on top of the planner's S1, S6, S7(a), S8, S10, S11, S12.
//! Parameters: none; no randomness. Cost per decision: as `planner`, plus a scan of the hand's
//! rows per double offered on the Mexican train.

use super::plan::{PlanCache, Traits, choose};
use super::{Bot, BotInfo, Strategy};
use crate::rng::GameRng;
use crate::round::MoveList;
use crate::strategy::Needs;
use crate::view::View;

pub(super) const INFO: BotInfo = BotInfo {
    name: "cutthroat",
    default_field: true,
    about: "the planner, leaving doubles open for others and steering ends into known voids",
    params: &[],
    build: |_| Ok(Bot::Cutthroat(Box::default())),
};

/// Aggressive planner.
#[derive(Clone, Debug, Default)]
#[doc(hidden)] // a built-in bot's own type, for the integration tests and benches
pub struct Cutthroat {
    pub(super) cache: PlanCache,
}

impl Strategy for Cutthroat {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
        choose(view, moves, &mut self.cache, Traits { hoard: None, cutthroat: true })
    }

    fn round_start(&mut self, _view: &View<'_>) {
        self.cache.reset();
    }

    /// Steers open ends into the voids the table has revealed; no random draw.
    fn needs(&self) -> Needs {
        Needs::NOTHING.voids(true)
    }
}
