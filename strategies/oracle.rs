//! `oracle`: the ceiling of play, not a player. It sees what no seat can: every hand and, by
//! default, the order of the boneyard, and runs `montecarlo`'s search on the true round instead
//! of sampled ones. What it wins over `montecarlo` measures how much better play could do with
//! perfect information; `sees=hands` hides the boneyard's order (the worlds keep the true hands,
//! the draws reshuffled), splitting that gap into what inference about the hands could buy and
//! what is the luck of the draw. Never in a default field; its results are labelled a ceiling.
//! Parameters: `sees=all|hands`, and `samples`, `rollout` and `score` as for `montecarlo`.
//!
//! The rollouts are random by default, unlike `montecarlo`'s. On the true round a greedy
//! rollout is one fixed line of play, so each move would be judged on a single, arbitrary
//! future; at four players that oracle lost to `montecarlo` (32.3% [27.7, 37.4] of 640
//! head-to-head comparisons, wikipedia, `--players 4 --bots oracle,oracle,montecarlo,montecarlo
//! --games 160 --seed 3`). With `samples` random rollouts a move is judged on many futures of
//! the true deal: 88.3% [85.4, 90.7] in the same run, and 100% of 200 two-player games. (With
//! `rollout=greedy` and `sees=all`, one rollout is played, the others being the same.)

use super::montecarlo::{INFO as MC, MonteCarlo, Worlds};
use super::{Bot, BotInfo, ParamInfo, Strategy, param};
use crate::rng::GameRng;
use crate::round::MoveList;
use crate::strategy::{SpecError, StrategySpec};
use crate::view::View;

pub(super) const INFO: BotInfo = BotInfo {
    name: "oracle",
    default_field: false,
    about: "CEILING, NOT A PLAYER: sees every hand (and the boneyard order) and searches the true round",
    params: &[
        ParamInfo {
            key: "sees",
            default: "all",
            help: "all|hands: every hand and the boneyard's order, or the hands only (the draws reshuffled)",
        },
        ParamInfo { key: "samples", default: "32", help: "1..=100000: worlds per decision (as for montecarlo)" },
        ParamInfo {
            key: "rollout",
            default: "random",
            help: "random|greedy|weighted|planner: the bot playing every seat in the rollouts (random: see the module notes)",
        },
        ParamInfo { key: "score", default: "margin", help: "margin|own: as for montecarlo" },
    ],
    build: |spec| Ok(Bot::Oracle(Oracle::from_spec(spec)?)),
};

/// Search on the true round: a measure of the ceiling.
#[derive(Clone, Debug)]
pub struct Oracle(MonteCarlo);

impl Oracle {
    fn from_spec(spec: &StrategySpec) -> Result<Oracle, SpecError> {
        let worlds = match param(spec, &INFO, "sees") {
            "all" => Worlds::True,
            "hands" => Worlds::TrueHands,
            v => {
                return Err(SpecError::BadValue {
                    bot: INFO.name.into(),
                    key: "sees".into(),
                    value: v.into(),
                    valid: "all, hands".into(),
                });
            }
        };
        // The search's own parameters, checked as montecarlo checks them.
        let params = ["samples", "rollout", "score"]
            .iter()
            .map(|k| (k.to_string(), param(spec, &INFO, k).to_string()))
            .collect();
        let mc = MonteCarlo::from_spec(&StrategySpec { name: MC.name.into(), params }).map_err(|e| match e {
            SpecError::BadValue { key, value, valid, .. } => {
                SpecError::BadValue { bot: INFO.name.into(), key, value, valid }
            }
            e => e,
        })?;
        Ok(Oracle(mc.with_worlds(worlds)))
    }
}

impl Strategy for Oracle {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        self.0.choose(view, moves, rng)
    }

    fn match_start(&mut self, start: &crate::strategy::MatchStart<'_>) {
        self.0.match_start(start);
    }

    fn uses_voids(&self) -> bool {
        // With `sees=hands` the hands are true; voids add nothing.
        false
    }

    fn sees_hidden(&self) -> bool {
        true
    }
}
