//! `oracle`: the ceiling of play, not a player. It sees what no seat can: every hand (and, with
//! `sees=all`, the order of the boneyard), and searches the true round instead of sampled ones.
//! What it wins over a player measures how much better play could do with perfect information;
//! `sees=hands` hides the boneyard's order (the worlds keep the true hands, the draws
//! reshuffled), splitting that gap into what inference about the hands could buy and what is the
//! luck of the draw. Never in a default field; its results are labelled a ceiling.
//! Parameters: `search=guided|flat`, `sees=auto|all|hands`, `seats=own|policy` (guided only),
//! and `samples`, `rollout`, `score` (and, guided, `prior` and `depth`) as for the search it runs.
//!
//! **`search=guided`** (the default) is `expert`'s search on the true round: the policy's move
//! credited 5 points, rollouts of 12 turns a seat judged by the hands, successive halving,
//! `samples` worlds a move, the oracle's own seat rolled out by the tuned policy
//! (`rollout=auto` means `weighted` here). **Every other seat is rolled out by the bot that
//! plays it** (`seats=own`, the default): seeing every hand, the oracle puts each recorded
//! decision of another seat to each built-in bot that needs no search (`weighted`, the
//! hand-set `weighted:set=hand`, `greedy`, `planner`, `cutthroat`, `hoarder`, `random`) exactly
//! as that seat faced it, and models the seat by the one that fits its decisions this match
//! best (a search bot or a person, whom none fits exactly, mostly by the tuned policy).
//! `seats=policy` rolls every seat out by the tuned policy, the oracle before this model: it
//! beat `expert` at 2 and 4 players but not at 6, where most of a round is the other seats'
//! play and a tuned-policy model of a `hoarder` or a `random` seat is wrong however well the
//! hands are known. With `seats=own` it scored 80.0% [75.3, 84.0] of 300 head-to-head
//! comparisons against `expert` at a 6-player `wikipedia` table (`--players 6 --bots
//! oracle,expert,weighted,greedy,planner,montecarlo --games 300 --seed 7`) where
//! `seats=policy` scored 56.3% [51.8, 60.7]. The league (results/ladder/README.md) measures
//! it in every cell; the shares of "the gap to the oracle" are taken against it. `sees=hands`
//! (the default here) reshuffles the boneyard in each world: with `sees=all` every world is
//! the one true round, a rollout is one fixed line of play, and the search trusts it too much
//! (`oracle:seats=policy,sees=all` scored 37.7% [32.7, 43.0] against `expert` at that table).
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
use crate::round::{MoveList, RoundState, Seat};
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
        ParamInfo {
            key: "seats",
            default: "own",
            help: "search=guided only: own|policy: each other seat rolled out by the built-in bot its recorded decisions match best (the tuned policy for a search bot or a person), or every seat by the rollout bot",
        },
    ],
    build: |spec| Ok(Bot::Oracle(Oracle::from_spec(spec)?)),
};

/// Search on the true round: a measure of the ceiling.
#[derive(Clone, Debug)]
#[doc(hidden)] // a built-in bot's own type, for the integration tests and benches
pub struct Oracle {
    search: Search,
    /// `seats=own`: how each other seat plays, learnt from its decisions.
    seats: Option<Box<SeatModels>>,
}

/// The bots a seat's play is matched against (`seats=own`), in order of preference when they
/// fit its decisions equally well: the tuned policy first (the model of a seat that matches
/// none, a search bot or a person), then the other deterministic built-ins, then `random`.
const CANDIDATES: &[&str] = &["weighted", "weighted:set=hand", "greedy", "planner", "cutthroat", "hoarder", "random"];

/// Each move keeps at least this share of a deterministic candidate's probability, spread over
/// the legal moves: one decision it would not make costs a candidate ln(0.05 / moves), not
/// everything, so a search bot that mostly plays the tuned policy's move is still modelled by
/// it.
const MISMATCH_FLOOR: f64 = 0.05;

/// The oracle's model of how each seat plays (`seats=own`). Seeing every hand, it can put each
/// recorded decision of another seat to every candidate bot exactly as that seat faced it, and
/// it keeps, per seat and candidate, the log-likelihood of the decisions so far this match:
/// a deterministic candidate gives the played move 1 − 0.05 + 0.05 / k (0.05 / k for any other),
/// `random` 1 / k. Each seat is rolled out by its best candidate; a candidate is replayed on
/// its seat's decisions in order, so its own state (a planning bot's cached plan) follows the
/// seat's as the real bot's would.
#[derive(Clone, Debug)]
struct SeatModels {
    /// Per seat, one of each candidate, replaying that seat's decisions.
    replay: Vec<Vec<Bot>>,
    /// Per seat and candidate, the log-likelihood of the seat's decisions this match.
    loglik: Vec<Vec<f64>>,
    /// This round's decisions already read.
    read: usize,
    /// The candidate each seat is rolled out by (indices into [`CANDIDATES`]).
    chosen: Vec<usize>,
    moves: MoveList,
}

impl SeatModels {
    fn new() -> SeatModels {
        SeatModels { replay: Vec::new(), loglik: Vec::new(), read: 0, chosen: Vec::new(), moves: MoveList::new() }
    }

    fn match_start(&mut self, start: &crate::strategy::MatchStart<'_>) {
        let n = usize::from(start.rules.players);
        self.replay = (0..n)
            .map(|s| {
                CANDIDATES
                    .iter()
                    .map(|c| {
                        let mut b = Bot::parse(c).expect("a valid built-in spec");
                        // Replaying a seat's decisions keeps to the rollouts' plan budget, so a
                        // decision's cost stays bounded however large the hands grow (on the rare
                        // decision the budget binds, a candidate may miss its own seat's move).
                        b.limit_plan(super::plan::ROLLOUT_PLAN_BUDGET);
                        b.match_start(&crate::strategy::MatchStart { seat: Seat::from_index(s), ..*start });
                        b
                    })
                    .collect()
            })
            .collect();
        self.loglik = vec![vec![0.0; CANDIDATES.len()]; n];
        self.chosen = vec![0; n];
        self.read = 0;
    }

    /// A new round: the true state at its start (`view` sees every hand).
    fn round_start(&mut self, state: &RoundState) {
        self.read = 0;
        for (s, bots) in self.replay.iter_mut().enumerate() {
            for b in bots {
                b.round_start(&state.view(Seat::from_index(s)));
            }
        }
    }

    /// Reads the decisions recorded since the last call; true if a seat's best candidate
    /// changed.
    fn update(&mut self, view: &View<'_>, rng: &mut GameRng) -> bool {
        let Some(history) = view.history() else { return false };
        let me = view.seat();
        for (state, seat, played) in history.decisions_from(self.read) {
            // Seats the match did not announce (no `match_start`) are left to the rollout bot.
            if seat == me || seat.index() >= self.replay.len() {
                continue;
            }
            state.legal_moves(&mut self.moves);
            let k = self.moves.len();
            if k < 2 {
                continue;
            }
            let s = seat.index();
            let seen = state.view(seat);
            for (c, bot) in self.replay[s].iter_mut().enumerate() {
                let p = if CANDIDATES[c] == "random" {
                    1.0 / k as f64
                } else {
                    let hit = self.moves[bot.choose(&seen, &self.moves, rng)] == played;
                    let floor = MISMATCH_FLOOR / k as f64;
                    if hit { 1.0 - MISMATCH_FLOOR + floor } else { floor }
                };
                self.loglik[s][c] += p.ln();
            }
        }
        self.read = history.decisions();
        let mut changed = false;
        for (s, ll) in self.loglik.iter().enumerate() {
            // The first of the best: the tuned policy while nothing tells the candidates apart.
            let best = (0..ll.len()).fold(0, |b, c| if ll[c] > ll[b] { c } else { b });
            changed |= self.chosen[s] != best;
            self.chosen[s] = best;
        }
        changed
    }

    /// The rollout bot of each seat: `own` for this oracle's seat, each other seat's best
    /// candidate (its plan searches limited as every rollout bot's are).
    fn models(&self, me: Seat, own: &Bot) -> Vec<Bot> {
        (0..self.chosen.len())
            .map(|s| {
                if s == me.index() {
                    return own.clone();
                }
                self.replay[s][self.chosen[s]].clone()
            })
            .collect()
    }
}

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
        if let Some((key, value)) =
            spec.params.iter().find(|(k, _)| !guided && (k == "prior" || k == "depth" || k == "seats"))
        {
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
        let seats = match param(spec, &INFO, "seats") {
            "own" => guided,
            "policy" => false,
            v => {
                return Err(SpecError::BadValue {
                    bot: INFO.name.into(),
                    key: "seats".into(),
                    value: v.into(),
                    valid: "own, policy".into(),
                });
            }
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
        Ok(Oracle { search, seats: seats.then(|| Box::new(SeatModels::new())) })
    }
}

impl Strategy for Oracle {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        if let (Some(seats), Search::Guided(e)) = (&mut self.seats, &mut self.search) {
            // Replaying the others' decisions must not touch the search's stream: a fixed one.
            let mut replay_rng = crate::rng::rng_from_seed(0);
            if seats.update(view, &mut replay_rng) || e.seat_models_mut().is_empty() {
                let mut models = seats.models(view.seat(), e.rollout_bot());
                // One model a seat, or none (the rollout bot in every seat).
                if models.len() != usize::from(view.players()) {
                    models.clear();
                }
                *e.seat_models_mut() = models;
            }
        }
        match &mut self.search {
            Search::Guided(e) => e.choose(view, moves, rng),
            Search::Flat(m) => m.choose(view, moves, rng),
        }
    }

    fn match_start(&mut self, start: &crate::strategy::MatchStart<'_>) {
        if let (Some(seats), Search::Guided(e)) = (&mut self.seats, &mut self.search) {
            seats.match_start(start);
            e.seat_models_mut().clear();
        }
        match &mut self.search {
            Search::Guided(e) => e.match_start(start),
            Search::Flat(m) => m.match_start(start),
        }
    }

    fn round_start(&mut self, view: &View<'_>) {
        if let (Some(seats), Some(state)) = (&mut self.seats, view.hidden()) {
            seats.round_start(state);
        }
        match &mut self.search {
            Search::Guided(e) => e.round_start(view),
            Search::Flat(m) => m.round_start(view),
        }
    }

    /// Every hand and the boneyard, and a random stream for its search; the hands are true,
    /// so the voids add nothing. With `seats=own`, the round's record of decisions.
    fn needs(&self) -> Needs {
        Needs::NOTHING.rng(true).hidden(true).history(self.seats.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::recorded_rounds;

    /// Replayed on the true states, each seat's own deterministic bot fits its decisions and is
    /// the model chosen; `random`, which no deterministic candidate fits, is modelled as random.
    #[test]
    fn each_seat_is_modelled_by_the_bot_that_plays_it() {
        let rules = crate::rules::Rules { players: 4, ..crate::rules::Rules::wikipedia() };
        let mut bots: Vec<Bot> =
            ["greedy", "planner", "cutthroat", "random"].iter().map(|b| Bot::parse(b).unwrap()).collect();
        for (s, b) in bots.iter_mut().enumerate() {
            b.match_start(&crate::strategy::MatchStart { rules: &rules, seat: Seat::from_index(s), game: 0, seed: 0 });
        }
        let mut seats = SeatModels::new();
        seats.match_start(&crate::strategy::MatchStart { rules: &rules, seat: Seat::from_index(0), game: 0, seed: 0 });
        let mut rng = crate::rng::rng_from_seed(3);
        let mut decisions = 0;
        recorded_rounds(6, &mut bots, |state, history| {
            if history.decisions() < seats.read {
                seats.round_start(state);
            }
            let view = state.view_as(Seat::from_index(0), true).with_history(Some(history));
            seats.update(&view, &mut rng);
            decisions = decisions.max(seats.read);
        });
        let name = |s: usize| CANDIDATES[seats.chosen[s]];
        assert_eq!([name(1), name(2), name(3)], ["planner", "cutthroat", "random"], "{:?}", seats.loglik);
        // The planner's own decisions all fit it: nothing but the floor's share lost.
        let planner = CANDIDATES.iter().position(|&c| c == "planner").unwrap();
        let others = seats.loglik[1].iter().enumerate().filter(|&(c, _)| c != planner);
        assert!(others.clone().all(|(_, &ll)| ll < seats.loglik[1][planner]), "{:?}", seats.loglik[1]);
        assert!(decisions > 10);
    }
}
