//! `planner`: keeps the longest train its hand can lay on its own train, and sheds the rest.
//!
//! It plans PLAN, the longest trail of its hand from its own train's open end, plays PLAN's next
//! tile on its own train and places the tiles outside PLAN (EXTRAS) on the Mexican and public
//! trains, breaking PLAN only when nothing else is legal. Sources (the strategy behaviours drawn from the rule texts): S1 (plan; a build
//! lays PLAN), S12 (ties in PLAN to the higher pip total), S6 (dump the highest tile when an
//! opponent holds one tile), S7(a) (a marked seat plays on its own train), S10 (start the Mexican
//! train early), S8 (own, public, Mexican) and S11 (keep options open), in the priority order of
//! the default bot; ties go to the smallest move. Parameters: none; no randomness. Cost per
//! decision: one pass over the moves with a few bit counts each, plus a PLAN search (an exact
//! depth-first search, microseconds for a 16-tile hand) only after a draw or a change of its own
//! train's end.

use super::plan::{PlanCache, Traits, choose};
use super::{Bot, BotInfo, Strategy};
use crate::rng::GameRng;
use crate::round::MoveList;
use crate::strategy::Needs;
use crate::view::View;

pub(super) const INFO: BotInfo = BotInfo {
    name: "planner",
    default_field: true,
    about: "plays its longest own-train plan and dumps the other tiles on public trains",
    params: &[],
    build: |_| Ok(Bot::Planner(Box::default())),
};

/// Longest-train planner.
#[derive(Clone, Debug, Default)]
#[doc(hidden)] // a built-in bot's own type, for the integration tests and benches
pub struct Planner {
    pub(super) cache: PlanCache,
}

impl Planner {
    /// How many times this bot searched a plan (the cache at work).
    pub fn plan_searches(&self) -> u64 {
        self.cache.searches()
    }
}

impl Strategy for Planner {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
        choose(view, moves, &mut self.cache, Traits::default())
    }

    fn round_start(&mut self, _view: &View<'_>) {
        self.cache.reset();
    }

    fn needs(&self) -> Needs {
        Needs::NOTHING
    }
}
