//! `oracle`: the ceiling of play, not a player. It sees what no seat can: every hand and, by
//! default, the order of the boneyard, and searches the true round instead of sampled ones.
//! What it wins over a player measures how much better play could do with perfect information;
//! `sees=hands` hides the boneyard's order (the worlds keep the true hands, the draws
//! reshuffled), splitting that gap into what inference about the hands could buy and what is the
//! luck of the draw. Never in a default field; its results are labelled a ceiling.
//! Parameters: `search=guided|flat`, `sees=all|hands`, and `samples`, `rollout` and `score` as
//! for the search it runs.
//!
//! **`search=guided`** (the default) is `expert`'s search on the true round: rollouts played by
//! the tuned policy (`rollout=auto` means `weighted` here), the policy's move credited 5 points,
//! rollouts of 12 turns a seat judged by the hands, successive halving, `samples` worlds a
//! move. With `sees=all` every world is the true round, so a rollout of the deterministic
//! policy is one exact line of play: the search judges each move by how the round would go on
//! if every seat played the tuned policy from there, the boneyard's draws included. It is the
//! strongest play measured here (results/ladder/league.md: first at 2, 4 and 6 players under
//! `wikipedia` and `dominorules`), so the shares of "the gap to the oracle" are taken against
//! it.
//!
//! **`search=flat`** is `montecarlo`'s flat search on the true round, the `oracle` before the
//! guided one. Its rollouts are random by default (`rollout=auto`): on the true round a greedy
//! rollout is one fixed line of play, and at four players that oracle lost to `montecarlo`
//! (32.3% [27.7, 37.4] of 640 head-to-head comparisons, wikipedia, `--players 4 --bots
//! oracle:search=flat,rollout=greedy,...`); with random rollouts it won 88.3% [85.4, 90.7] in
//! the same run, and 100% of 200 two-player games. It plays about level with `expert` at 4
//! and 6 players: no ceiling for the strongest player.

use super::expert::{Expert, INFO as EXPERT};
use super::montecarlo::{INFO as MC, MonteCarlo, Worlds};
use super::{Bot, BotInfo, ParamInfo, Strategy, param};
use crate::rng::GameRng;
use crate::round::MoveList;
use crate::strategy::{Needs, SpecError, StrategySpec};
use crate::view::View;

pub(super) const INFO: BotInfo = BotInfo {
    name: "oracle",
    default_field: false,
    about: "CEILING, NOT A PLAYER: sees every hand and searches the true round with expert's guided search (search=flat: montecarlo's)",
    params: &[
        ParamInfo {
            key: "search",
            default: "guided",
            help: "guided|flat: expert's search guided by the tuned policy, or montecarlo's flat search, on the true round",
        },
        ParamInfo {
            key: "sees",
            default: "auto",
            help: "auto|all|hands: every hand and the boneyard's order, or the hands only (the draws reshuffled); auto: hands for search=guided, all for search=flat",
        },
        ParamInfo {
            key: "samples",
            default: "auto",
            help: "auto|1..=100000: worlds per legal move (auto: 64 for search=guided, 32 for search=flat)",
        },
        ParamInfo {
            key: "rollout",
            default: "auto",
            help: "auto|random|greedy|weighted|planner: the bot playing every seat in the rollouts (auto: weighted for search=guided, random for search=flat)",
        },
        ParamInfo { key: "score", default: "margin", help: "margin|own: as for montecarlo" },
        ParamInfo { key: "prior", default: "5", help: "search=guided only: as for expert" },
        ParamInfo { key: "depth", default: "12", help: "search=guided only: as for expert" },
    ],
    build: |spec| Ok(Bot::Oracle(Oracle::from_spec(spec)?)),
};

/// Search on the true round: a measure of the ceiling.
#[derive(Clone, Debug)]
pub struct Oracle(Search);

/// The search the oracle runs.
#[derive(Clone, Debug)]
enum Search {
    Guided(Box<Expert>),
    Flat(MonteCarlo),
}

impl Oracle {
    fn from_spec(spec: &StrategySpec) -> Result<Oracle, SpecError> {
        let guided = match param(spec, &INFO, "search") {
            "guided" => true,
            "flat" => false,
            v => {
                return Err(SpecError::BadValue {
                    bot: INFO.name.into(),
                    key: "search".into(),
                    value: v.into(),
                    valid: "guided, flat".into(),
                });
            }
        };
        // A guided-only parameter given to the flat search would be silently ignored.
        if let Some((key, value)) = spec.params.iter().find(|(k, _)| !guided && (k == "prior" || k == "depth")) {
            return Err(SpecError::BadValue {
                bot: INFO.name.into(),
                key: key.clone(),
                value: value.clone(),
                valid: "nothing with search=flat (it applies to search=guided only)".into(),
            });
        }
        let worlds = match param(spec, &INFO, "sees") {
            "all" => Worlds::True,
            "hands" => Worlds::TrueHands,
            "auto" if guided => Worlds::TrueHands,
            "auto" => Worlds::True,
            v => {
                return Err(SpecError::BadValue {
                    bot: INFO.name.into(),
                    key: "sees".into(),
                    value: v.into(),
                    valid: "auto, all, hands".into(),
                });
            }
        };
        // The search's own parameters, checked as that search checks them.
        let params: Vec<(String, String)> = ["samples", "rollout", "score"]
            .iter()
            .map(|&k| {
                let v = match (k, param(spec, &INFO, k)) {
                    ("rollout", "auto") if guided => "weighted",
                    ("rollout", "auto") => "random",
                    ("samples", "auto") if guided => "64",
                    ("samples", "auto") => "32",
                    (_, v) => v,
                };
                (k.to_string(), v.to_string())
            })
            .collect();
        let rename = |e: SpecError| match e {
            SpecError::BadValue { key, value, valid, .. } => {
                SpecError::BadValue { bot: INFO.name.into(), key, value, valid }
            }
            e => e,
        };
        let search = if guided {
            let mut params = params;
            params.extend(["prior", "depth"].iter().map(|&k| (k.to_string(), param(spec, &INFO, k).to_string())));
            let expert = Expert::from_spec(&StrategySpec { name: EXPERT.name.into(), params }).map_err(rename)?;
            Search::Guided(Box::new(expert.with_worlds(worlds)))
        } else {
            Search::Flat(
                MonteCarlo::from_spec(&StrategySpec { name: MC.name.into(), params })
                    .map_err(rename)?
                    .with_worlds(worlds),
            )
        };
        Ok(Oracle(search))
    }
}

impl Strategy for Oracle {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        match &mut self.0 {
            Search::Guided(e) => e.choose(view, moves, rng),
            Search::Flat(m) => m.choose(view, moves, rng),
        }
    }

    fn match_start(&mut self, start: &crate::strategy::MatchStart<'_>) {
        match &mut self.0 {
            Search::Guided(e) => e.match_start(start),
            Search::Flat(m) => m.match_start(start),
        }
    }

    fn round_start(&mut self, view: &View<'_>) {
        match &mut self.0 {
            Search::Guided(e) => e.round_start(view),
            Search::Flat(m) => m.round_start(view),
        }
    }

    /// Every hand and the boneyard, and a random stream for its search; the hands are true,
    /// so the voids add nothing.
    fn needs(&self) -> Needs {
        Needs::NOTHING.rng(true).hidden(true)
    }
}
