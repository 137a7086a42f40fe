//! `hoarder`: the planner that keeps its doubles for the end.
//!
//! It plays like `planner` but holds doubles back, releasing one when few tiles of its suit are
//! left outside its hand or when its hand is nearly empty, and lays a double on another seat's
//! public train rather than its own. Sources (the strategy behaviours drawn from the rule texts): S2 (hoard doubles; release when
//! `unplayed(v)` less its own `v`-tiles is at most `release`, or its hand holds at most `late`
//! tiles; chains of doubles in a follow-up are free where the rules allow them) and S4 (a double
//! goes on a public train, then the Mexican, then its own), on top of the planner's S1, S6,
//! S7(a), S8, S10, S11, S12. Parameters: `release` (default 2) and `late` (default 3),
//! non-negative integers. Cost per decision: as `planner`, plus one pass over the moves per
//! double offered.

use super::plan::{PlanCache, Traits, choose};
use super::{Bot, BotInfo, ParamInfo, Strategy, param};
use crate::rng::GameRng;
use crate::round::MoveList;
use crate::strategy::{Needs, SpecError, StrategySpec};
use crate::view::View;

pub(super) const INFO: BotInfo = BotInfo {
    name: "hoarder",
    default_field: true,
    about: "the planner, holding doubles back until their suit runs out or the hand is small",
    params: &[
        ParamInfo {
            key: "release",
            default: "2",
            help: "non-negative integer: play a double [v|v] once at most this many v-tiles are outside the hand",
        },
        ParamInfo {
            key: "late",
            default: "3",
            help: "non-negative integer: play doubles freely once the hand holds at most this many tiles",
        },
    ],
    build: |spec| Ok(Bot::Hoarder(Box::new(Hoarder::from_spec(spec)?))),
};

/// Double-hoarding planner.
#[derive(Clone, Debug)]
#[doc(hidden)] // a built-in bot's own type, for the integration tests and benches
pub struct Hoarder {
    pub(super) cache: PlanCache,
    release: u32,
    late: usize,
}

impl Hoarder {
    pub(super) fn from_spec(spec: &StrategySpec) -> Result<Hoarder, SpecError> {
        let num = |key: &str| {
            let v = param(spec, &INFO, key);
            v.parse::<u32>().map_err(|_| SpecError::BadValue {
                bot: INFO.name.into(),
                key: key.into(),
                value: v.into(),
                valid: "a non-negative integer".into(),
            })
        };
        Ok(Hoarder { cache: PlanCache::default(), release: num("release")?, late: num("late")? as usize })
    }
}

impl Strategy for Hoarder {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
        choose(view, moves, &mut self.cache, Traits { hoard: Some((self.release, self.late)), cutthroat: false })
    }

    fn round_start(&mut self, _view: &View<'_>) {
        self.cache.reset();
    }

    fn needs(&self) -> Needs {
        Needs::NOTHING
    }
}
