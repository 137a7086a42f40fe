//! `random`: plays a legal move chosen uniformly at random.
//!
//! The baseline every other bot must beat: it knows nothing and plans nothing. It comes from no
//! source; it is the null model. Parameters: none. Cost per decision: one bounded random draw.

use super::{Bot, BotInfo, Strategy};
use crate::rng::{GameRng, below};
use crate::round::MoveList;
use crate::strategy::Needs;
use crate::view::View;

pub(super) const INFO: BotInfo = BotInfo {
    name: "random",
    default_field: true,
    about: "uniform over the legal moves; the null model",
    params: &[],
    build: |_| Ok(Bot::Random(Random)),
};

/// Uniform over legal moves.
#[derive(Clone, Debug, Default)]
#[doc(hidden)] // a built-in bot's own type, for the integration tests and benches
pub struct Random;

impl Strategy for Random {
    #[inline]
    fn choose(&mut self, _view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        below(rng, moves.len() as u64) as usize
    }

    fn needs(&self) -> Needs {
        Needs::NOTHING.rng(true)
    }
}
