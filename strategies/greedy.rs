//! `greedy`: plays the tile with the highest pip count.
//!
//! Shedding the heaviest tile first lowers the score if someone else goes out, the simplest
//! reading of the scoring rule (the "dump high pips" advice of the Encyclopedia and dominorules.com
//! applied on every turn). Parameters: `ties=first|random` (default `first`): among moves with equal pips,
//! take the first in the engine's move order (own train first, then marked trains clockwise,
//! then the Mexican train), or one uniformly at random. Cost per decision: one pass over the
//! moves.

use super::{Bot, BotInfo, ParamInfo, Strategy, param};
use crate::rng::{GameRng, below};
use crate::round::MoveList;
use crate::strategy::{Needs, SpecError, StrategySpec};
use crate::view::View;

pub(super) const INFO: BotInfo = BotInfo {
    name: "greedy",
    default_field: true,
    about: "plays the highest-pip tile it can",
    params: &[ParamInfo {
        key: "ties",
        default: "first",
        help: "first|random: among equal pip counts, the first move in engine order or a random one",
    }],
    build: |spec| Ok(Bot::Greedy(Greedy::from_spec(spec)?)),
};

/// Highest pip count first.
#[derive(Clone, Debug, Default)]
#[doc(hidden)] // a built-in bot's own type, for the integration tests and benches
pub struct Greedy {
    random_ties: bool,
}

impl Greedy {
    pub(super) fn from_spec(spec: &StrategySpec) -> Result<Greedy, SpecError> {
        let random_ties = match param(spec, &INFO, "ties") {
            "first" => false,
            "random" => true,
            v => {
                return Err(SpecError::BadValue {
                    bot: "greedy".into(),
                    key: "ties".into(),
                    value: v.into(),
                    valid: "first, random".into(),
                });
            }
        };
        Ok(Greedy { random_ties })
    }
}

impl Strategy for Greedy {
    #[inline]
    fn choose(&mut self, _view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        let mut best = 0;
        // The raw tile field: a move that places nothing carries the double blank, so it weighs 0
        // pips, as `m.tile().map_or(0, Tile::pips)` would, without a branch on the hot path.
        let mut best_pips = moves[0].tile.pips();
        let mut ties = 1u64;
        for (i, m) in moves.iter().enumerate().skip(1) {
            let p = m.tile.pips();
            if p > best_pips {
                best = i;
                best_pips = p;
                ties = 1;
            } else if p == best_pips && self.random_ties {
                // Reservoir sampling over the tied moves.
                ties += 1;
                if below(rng, ties) == 0 {
                    best = i;
                }
            }
        }
        best
    }

    /// `ties=random` draws on the random stream; with `ties=first` the pick is the first
    /// heaviest move, which the engine may make itself.
    fn needs(&self) -> Needs {
        Needs::NOTHING.rng(self.random_ties).heaviest_first(!self.random_ties)
    }
}
