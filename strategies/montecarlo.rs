//! `montecarlo`: flat determinized Monte Carlo search over the legal moves.
//!
//! At each decision it deals the tiles it cannot see afresh, consistently with what it knows
//! ([`View::sample_world`]), tries every legal move in that world, and plays each world to the
//! end of the round with a cheap rollout bot in every seat; the move with the best mean result
//! wins. The strategy behaviours the planning bots code by hand emerge here from
//! looking ahead.
//!
//! Details:
//! - **Common random numbers.** Every candidate move of one decision is scored on the same
//!   sampled worlds, and each world's rollouts all start from the same rollout seed, so the
//!   differences between candidates are not drowned by the luck of the deal.
//! - **What is maximised.** `score=margin` (default): the round-score margin, the mean of the
//!   other seats' round scores minus one's own (under partnerships each seat is credited its
//!   team's score, so the partner cancels out and only the opponents count). It rewards going
//!   out and, when going out is out of reach, shedding pips and leaving others with theirs; in a
//!   match, where the lowest total wins, a point taken off oneself and a point added to an
//!   opponent are worth the same. `score=own`: minus one's own round score only.
//! - **Rollouts.** Every seat, the deciding one included, is played by a fresh copy of the
//!   rollout bot, which gets `round_start` with the sampled world's view (it joins the round
//!   mid-way) and then chooses from the sampled world's views: it is part of this bot's own
//!   imagination and sees nothing of the real table.
//! - **Reproducible.** All randomness comes from the `rng` given to `choose`: one draw gives the
//!   decision's seed, and the worlds and rollout streams are derived from it with [`mix`]. The
//!   search reads only the view, so two real worlds that the seat cannot tell apart give the
//!   same choice.
//! - **No heap per decision.** Buffers (a move list, the per-seat rollout bots, the totals) live
//!   in the bot and only grow; worlds are plain data copied on the stack.
//!
//! Parameters:
//! - `samples` (default 32, 1..=100000): sampled worlds per decision; each costs one rollout
//!   per legal move.
//! - `rollout` (default `greedy`; `greedy` or `random`): the bot that plays every seat in the
//!   rollouts, with its default parameters.
//! - `score` (default `margin`; `margin` or `own`): what a rollout is worth, see above.
//!
//! Cost per decision (release build, double-12, `wikipedia`, defaults, every seat `montecarlo`):
//! about 230 µs at 4 players and 180 µs at 2 on a 2-core AMD EPYC machine
//! (results/benchmarks/SEARCH.md, `scripts/bench/bench-search.sh`), i.e. 32 × (legal moves) greedy
//! rollouts of the rest of the round, about 110 at 4 players; `mtrain bench --bots montecarlo`
//! prints decisions and rollouts per second. It scales linearly with `samples`. Strength against `greedy`, wikipedia rules, double-12, full
//! matches: 93.3% [92.1, 94.3] of 2000 two-player games
//! (`mtrain tournament --bots montecarlo,greedy --players 2 --games 2000 --seed 1`); at four
//! players (two of each, 400 games, `--players 4 --games 400`) 46.9% [45.8, 48.0] of the games
//! per montecarlo seat against 3.1% per greedy seat. The choices above were measured too:
//! `score=margin` beats `score=own` at four players (27.0% against 23.0% of 400 four-round
//! games each), and `samples=64` beats the default (58.8% of 400 four-round two-player games),
//! so more samples buy strength at a linear cost.

use super::{Bot, BotInfo, ParamInfo, Strategy, param};
use crate::game::{play_round, play_round_for};
use crate::rng::{GameRng, mix, rng_from_seed};
use crate::round::{Move, MoveList, NoObserver, RoundState, Seat, TRAIN_SLOTS};
use crate::rules::MAX_PLAYERS;
use crate::strategy::{Needs, SpecError, StrategySpec};
use crate::tile::PIP_COUNT;
use crate::view::View;
use rand::RngCore;
use std::fmt;

pub(super) const INFO: BotInfo = BotInfo {
    name: "montecarlo",
    default_field: false,
    about: "samples the hidden tiles, plays every move out with rollouts, keeps the best mean",
    params: &[
        ParamInfo { key: "samples", default: "32", help: "1..=100000: sampled worlds per decision" },
        ROLLOUT_PARAM,
        SCORE_PARAM,
    ],
    build: |spec| Ok(Bot::MonteCarlo(MonteCarlo::from_spec(spec)?)),
};

/// Largest accepted `samples`.
pub(crate) const MAX_SAMPLES: u32 = 100_000;

/// Bots accepted as `rollout`: the built-ins without search. `weighted` plays its tuned set for
/// the match's preset (the rollout bot is told of the match when the searcher is).
pub(crate) const ROLLOUT_BOTS: &[&str] = &["greedy", "random", "weighted", "planner"];

/// Seed stream ids under a decision's seed: world `i` uses `mix(seed, 2i)`, its rollouts
/// `mix(seed, 2i + 1)`.
pub(super) const fn world_stream(i: u32) -> u64 {
    2 * i as u64
}

pub(super) const fn rollout_stream(i: u32) -> u64 {
    2 * i as u64 + 1
}

thread_local! {
    /// Rollouts played on this thread by the search bots (`montecarlo`, `expert`, `oracle`).
    static ROLLOUTS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many rollouts the search bots have played on the calling thread so far: `mtrain bench`
/// reads it before and after a run to report rollouts per second.
#[doc(hidden)] // for the integration tests
pub fn rollouts_on_this_thread() -> u64 {
    ROLLOUTS.with(std::cell::Cell::get)
}

/// What a finished rollout is worth to the deciding seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Score {
    /// Sum of the other seats' scores minus (players − 1) × own score: the round-score margin
    /// scaled by (players − 1), kept integral.
    Margin,
    /// Minus own score.
    Own,
}

impl Score {
    /// Parses the `score` parameter of `bot`.
    pub(super) fn parse(bot: &str, v: &str) -> Result<Score, SpecError> {
        match v {
            "margin" => Ok(Score::Margin),
            "own" => Ok(Score::Own),
            v => Err(SpecError::BadValue {
                bot: bot.into(),
                key: "score".into(),
                value: v.into(),
                valid: "margin, own".into(),
            }),
        }
    }

    /// What round scores `scores` (a finished round's, or the hands' when a rollout stops
    /// early) are worth to `me` at a table of `n`.
    #[inline]
    fn value(self, scores: &[u32; MAX_PLAYERS], me: Seat, n: usize) -> i64 {
        let own = scores[me.index()] as i64;
        match self {
            Score::Own => -own,
            Score::Margin => {
                let all: i64 = scores[..n].iter().map(|&s| s as i64).sum();
                (all - own) - (n as i64 - 1) * own
            }
        }
    }
}

/// Reused buffers: nothing here is part of the bot's configuration.
pub(super) struct Scratch {
    /// The rollouts' move list.
    moves: MoveList,
    /// One rollout bot per seat, refreshed from the prototype before each rollout.
    seats: Vec<Bot>,
    /// Per-seat rollout streams.
    rngs: [GameRng; MAX_PLAYERS],
    /// Summed value per candidate move.
    pub(super) totals: Vec<i64>,
}

impl Scratch {
    /// Makes room for `n` seats of `rollout` and `k` zeroed totals.
    pub(super) fn reset(&mut self, rollout: &Bot, n: usize, k: usize) {
        self.totals.clear();
        self.totals.resize(k, 0);
        if self.seats.len() < n {
            self.seats.resize(n, rollout.clone());
        }
    }

    /// Plays `m` in `world` and the rest of the round with `rollout` in every seat (or, given
    /// one bot per seat, seat `s` played by `rollout[s]`), each seat's stream derived from `seed`; what the result is worth to `me` under `score`. With
    /// `depth` > 0 the rollout stops after `depth` more turns and the position is judged by the
    /// scores the hands would get ([`RoundState::hand_scores`]).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn play_out(
        &mut self,
        world: &RoundState,
        m: Move,
        rollout: &[Bot],
        seed: u64,
        score: Score,
        me: Seat,
        depth: u32,
        leaf: Option<&mut super::expert::NetLeaf>,
    ) -> i64 {
        ROLLOUTS.with(|r| r.set(r.get() + 1));
        let n = world.players() as usize;
        let mut sim = world.clone();
        sim.play_unchecked(m, &mut NoObserver);
        for (s, bot) in self.seats[..n].iter_mut().enumerate() {
            let model = &rollout[if rollout.len() == 1 { 0 } else { s }];
            bot.clone_from(model);
            // A rollout bot that never draws on its stream (greedy) is not given a fresh one.
            if model.needs().rng {
                self.rngs[s] = rng_from_seed(mix(seed, s as u64));
            }
        }
        let (seats, rngs) = (&mut self.seats[..n], &mut self.rngs[..n]);
        if let Some(leaf) = leaf {
            // The network judges the position reached (at once with `depth` 0); a round that
            // ends first is scored as it ended, in the network's finer units.
            let ended = if depth == 0 || sim.is_over() {
                sim.outcome().copied()
            } else {
                play_round_for(&mut sim, seats, rngs, &mut self.moves, &mut NoObserver, depth)
            };
            return match ended {
                Some(outcome) => score.value(&outcome.scores, me, n) * super::expert::NET_UNITS,
                None => leaf.judge(&sim, me),
            };
        }
        if depth == 0 {
            let outcome = play_round(&mut sim, seats, rngs, &mut self.moves, &mut NoObserver);
            return score.value(&outcome.scores, me, n);
        }
        let scores = match play_round_for(&mut sim, seats, rngs, &mut self.moves, &mut NoObserver, depth) {
            Some(outcome) => outcome.scores,
            None => sim.hand_scores(),
        };
        score.value(&scores, me, n)
    }

    pub(super) fn new() -> Box<Scratch> {
        Box::new(Scratch {
            moves: MoveList::new(),
            seats: Vec::new(),
            rngs: std::array::from_fn(|_| rng_from_seed(0)),
            // Room for every list outside blanks wild (see `MOVE_CAPACITY`): rarely grows.
            totals: Vec::with_capacity(TRAIN_SLOTS * PIP_COUNT + 3),
        })
    }
}

/// Where the worlds a search plays out come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Worlds {
    /// Dealt afresh, consistent with the seat's view (`montecarlo`).
    Sampled,
    /// The true round: every hand and the boneyard's order (the `oracle`).
    True,
    /// The true hands, the boneyard in a fresh order (the oracle that does not see the order
    /// of the draws).
    TrueHands,
}

/// The parameters the search bots share (`samples`, `rollout`, `score`), checked, with errors
/// naming the bot `info` describes.
pub(super) struct SearchParams {
    /// Worlds per legal move; 0 for `auto` where the bot allows it.
    pub(super) samples: u32,
    pub(super) rollout: Box<Bot>,
    pub(super) score: Score,
}

impl SearchParams {
    /// The parameters of `spec`; `samples=auto` (read as 0) is accepted when `auto` is set.
    pub(super) fn from_spec(
        spec: &StrategySpec,
        info: &'static BotInfo,
        auto: bool,
    ) -> Result<SearchParams, SpecError> {
        let bad = |key: &str, value: &str, valid: &str| SpecError::BadValue {
            bot: info.name.into(),
            key: key.into(),
            value: value.into(),
            valid: valid.into(),
        };
        let v = param(spec, info, "samples");
        let samples = match v.parse::<u32>() {
            Ok(s) if (1..=MAX_SAMPLES).contains(&s) => s,
            _ if auto && v == "auto" => 0,
            _ => {
                let or_auto = if auto { "auto, or " } else { "" };
                return Err(bad("samples", v, &format!("{or_auto}an integer from 1 to {MAX_SAMPLES}")));
            }
        };
        let v = param(spec, info, "rollout");
        if !ROLLOUT_BOTS.contains(&v) {
            return Err(bad("rollout", v, &ROLLOUT_BOTS.join(", ")));
        }
        let mut rollout = Box::new(Bot::parse(v)?);
        rollout.limit_plan(super::plan::ROLLOUT_PLAN_BUDGET);
        let score = Score::parse(info.name, param(spec, info, "score"))?;
        Ok(SearchParams { samples, rollout, score })
    }
}

/// The `rollout` and `score` parameters as `montecarlo` and `expert` list them.
pub(super) const ROLLOUT_PARAM: ParamInfo = ParamInfo {
    key: "rollout",
    default: "greedy",
    help: "greedy|random|weighted|planner: the bot playing every seat in the rollouts",
};
pub(super) const SCORE_PARAM: ParamInfo = ParamInfo {
    key: "score",
    default: "margin",
    help: "margin|own: maximise others' mean round score minus one's own, or minimise one's own",
};

/// Flat determinized Monte Carlo search.
#[doc(hidden)] // a built-in bot's own type, for the integration tests and benches
pub struct MonteCarlo {
    samples: u32,
    worlds: Worlds,
    score: Score,
    /// The rollout bot as configured; boxed because it is itself a [`Bot`].
    rollout: Box<Bot>,
    scratch: Box<Scratch>,
}

impl MonteCarlo {
    pub(super) fn from_spec(spec: &StrategySpec) -> Result<MonteCarlo, SpecError> {
        let SearchParams { samples, rollout, score } = SearchParams::from_spec(spec, &INFO, false)?;
        Ok(MonteCarlo { samples, worlds: Worlds::Sampled, score, rollout, scratch: Scratch::new() })
    }

    /// The same search over other worlds (the oracle's).
    pub(super) fn with_worlds(mut self, worlds: Worlds) -> MonteCarlo {
        self.worlds = worlds;
        self
    }
}

impl Clone for MonteCarlo {
    fn clone(&self) -> MonteCarlo {
        MonteCarlo {
            samples: self.samples,
            worlds: self.worlds,
            score: self.score,
            rollout: self.rollout.clone(),
            scratch: Scratch::new(),
        }
    }

    /// Copies the configuration and keeps this bot's buffers: no allocation.
    fn clone_from(&mut self, source: &MonteCarlo) {
        self.samples = source.samples;
        self.worlds = source.worlds;
        self.score = source.score;
        self.rollout.clone_from(&source.rollout);
    }
}

impl fmt::Debug for MonteCarlo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MonteCarlo")
            .field("samples", &self.samples)
            .field("score", &self.score)
            .field("rollout", &self.rollout)
            .finish_non_exhaustive()
    }
}

impl Strategy for MonteCarlo {
    /// The rollout bot learns the match's rules (`weighted` picks its set by them).
    fn match_start(&mut self, start: &crate::strategy::MatchStart<'_>) {
        self.rollout.match_start(start);
    }

    /// The candidate with the highest summed rollout value; ties go to the first in move order.
    /// A view whose seat is not to act (no world can be sampled) gets the first move.
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        if super::searches_abandoned() {
            // The game is being cut short and will not be counted: no search.
            return 0;
        }
        let seed = rng.next_u64();
        let me = view.seat();
        let n = view.players() as usize;
        let k = moves.len();
        let sc = &mut *self.scratch;
        sc.reset(&self.rollout, n, k);
        // The true world is the same in every sample: with a rollout that draws on no random
        // stream, one sample says all the others would (the sums compare the same).
        let samples = if self.worlds == Worlds::True && !self.rollout.needs().rng { 1 } else { self.samples };
        let nodes = super::plan::plan_nodes_on_this_thread();
        // What every sampled world of this decision shares, computed once.
        let worlds = view.world_sampler();
        for i in 0..samples {
            // Planning rollouts (`planner`, `weighted`) on hands swollen by draws: the search
            // stops once they have done a decision's work (every candidate has the same worlds).
            if i > 0 && super::plan::plan_nodes_on_this_thread() - nodes >= super::plan::DECISION_PLAN_BUDGET {
                break;
            }
            let mut world_rng = rng_from_seed(mix(seed, world_stream(i)));
            let world = match (self.worlds, view.hidden()) {
                (Worlds::True, Some(state)) => Some(state.clone()),
                (Worlds::TrueHands, Some(state)) => {
                    let mut w = state.clone();
                    w.reshuffle_boneyard(&mut world_rng);
                    Some(w)
                }
                _ => worlds.sample(&mut world_rng),
            };
            let Some(world) = world else {
                return 0;
            };
            let rollout_seed = mix(seed, rollout_stream(i));
            for (c, &m) in moves.iter().enumerate() {
                sc.totals[c] +=
                    sc.play_out(&world, m, std::slice::from_ref(&*self.rollout), rollout_seed, self.score, me, 0, None);
            }
        }
        let mut best = 0;
        for c in 1..k {
            if sc.totals[c] > sc.totals[best] {
                best = c;
            }
        }
        best
    }

    /// The sampled worlds respect the voids the table has revealed; the search draws on its
    /// random stream.
    fn needs(&self) -> Needs {
        Needs::SAFE
    }
}
