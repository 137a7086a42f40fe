//! Where the analysis's forecast goes wrong: the sampled worlds against the true hands.
//!
//! The analysis deals the tiles a seat cannot see at random (meeting the void records) and
//! plays every seat out with the rollout model. [`measure`] plays rounds of one bot in every
//! seat and, at decisions of the seat to move, forecasts the round-win chance of the move it
//! plays twice: in worlds sampled as the analysis samples them, and in the true round with only
//! the boneyard's order reshuffled. With the true hands the forecast of a deterministic bot's
//! self-play is exact but for the draws; the difference between the two is what the sampled
//! hands lack; a third forecast deals the worlds as the analysis does by default for a planning
//! model ([`Hands::Plans`]). It also reports the length of each other seat's plan (the longest trail from its
//! own train's end, as `planner` and `weighted` keep it) in both, the structure `weighted`'s
//! tuned weights leave in a hand (they spend plan tiles last). results/analyze/worlds.md,
//! `scripts/studies/study-analyze-worlds.sh`.

use super::Hands;
use crate::game::play_round;
use crate::rng::{mix, rng_from_seed};
use crate::round::{MoveList, NoObserver, RoundState, Seat, Step, TrainId};
use crate::rules::Rules;
use crate::strategies::Bot;
use crate::strategies::plan::PlanCache;
use crate::strategy::{MatchStart, SpecError, Strategy};
use crate::tile::Pip;
use crate::tile_set::TileSet;

/// One forecast of [`measure`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Forecast {
    /// The round (game) it was taken in.
    pub game: u64,
    /// The seat to move.
    pub seat: u8,
    /// Mean round-win share of the played move over worlds dealt uniformly ([`Hands::Uniform`]).
    pub sampled: f64,
    /// The same over worlds dealt as planning players keep their hands ([`Hands::Plans`], the
    /// analysis's default for this model).
    pub planned: f64,
    /// The same over the true round with the boneyard reshuffled.
    pub true_hands: f64,
    /// The seat's realised share of the round's win (1/k for a k-way tie for lowest).
    pub realised: f64,
    /// Mean plan length of the other seats, in the uniform worlds, the planned ones and the
    /// true round.
    pub plan_sampled: f64,
    /// See [`Forecast::plan_sampled`].
    pub plan_planned: f64,
    /// See [`Forecast::plan_sampled`].
    pub plan_true: f64,
}

fn win_share(scores: &[u32], me: usize) -> f64 {
    let low = scores.iter().min().copied().unwrap_or(0);
    if scores[me] == low { 1.0 / scores.iter().filter(|&&s| s == low).count() as f64 } else { 0.0 }
}

fn plan_len(hand: &TileSet, end: Pip) -> f64 {
    PlanCache::default().rest(hand, end).0.len() as f64
}

/// Plays `games` rounds of `bot` in every seat under `rules` (double-12, round `g` dealt from
/// `mix(seed, g)`, seat `g mod players` first) and forecasts, at every `every`-th decision with
/// at least two legal moves, the played move's round-win chance over `worlds` worlds of each
/// kind, every seat rolled out by `bot`.
///
/// # Errors
/// A bot spec that does not parse.
#[doc(hidden)]
pub fn measure(
    rules: &Rules,
    bot: &str,
    games: u64,
    seed: u64,
    worlds: u32,
    every: u32,
) -> Result<Vec<Forecast>, SpecError> {
    let n = rules.players as usize;
    let proto: Vec<Bot> = (0..n)
        .map(|s| {
            let mut b = Bot::parse(bot)?;
            b.match_start(&MatchStart { rules, seat: Seat::from_index(s), game: 0, seed: 0 });
            Ok(b)
        })
        .collect::<Result<_, SpecError>>()?;
    let (mut moves, mut scratch) = (MoveList::new(), MoveList::new());
    let mut out = Vec::new();
    for g in 0..games {
        let game_seed = mix(seed, g);
        let deal = crate::deal::deal_round(rules, Pip::new(12).expect("12"), &mut rng_from_seed(game_seed));
        let mut state = RoundState::new(rules, &deal, Seat::from_index((g % n as u64) as usize));
        state.set_tap_seed(crate::rng::seeds::tap_round(game_seed, 1));
        let mut bots = proto.clone();
        for (s, b) in bots.iter_mut().enumerate() {
            b.round_start(&state.view(Seat::from_index(s)));
        }
        let mut rngs: Vec<_> = (0..n).map(|s| rng_from_seed(mix(game_seed, 1 + s as u64))).collect();
        let mut sampler = rng_from_seed(mix(game_seed, 1 << 40));
        let mut pending = Vec::new();
        let mut decision = 0u32;
        while let Some(Step::Choice(seat, _)) = state.advance_until(&mut moves, &mut NoObserver, false) {
            let m = moves[bots[seat.index()].choose(&state.view(seat), &moves, &mut rngs[seat.index()])];
            decision += 1;
            if moves.len() >= 2 && decision.is_multiple_of(every) {
                let (mut sampled, mut planned, mut true_hands) = (0.0, 0.0, 0.0);
                let (mut plan_s, mut plan_p, mut plan_t, mut plans) = (0.0, 0.0, 0.0, 0.0);
                for w in 0..worlds {
                    let view = state.view(seat);
                    let sample = Hands::Uniform.deal(&view, false, &mut sampler).expect("the seat is to act");
                    let plan_world = Hands::Plans.deal(&view, false, &mut sampler).expect("the seat is to act");
                    let mut truth = state.clone();
                    truth.reshuffle_boneyard(&mut sampler);
                    for o in (0..n).filter(|&o| o != seat.index()) {
                        let os = Seat::from_index(o);
                        let end = view.train(TrainId::personal(os)).end;
                        plan_s += plan_len(sample.hand(os), end);
                        plan_p += plan_len(plan_world.hand(os), end);
                        plan_t += plan_len(state.hand(os), end);
                        plans += 1.0;
                    }
                    for (world, total) in [(sample, &mut sampled), (plan_world, &mut planned), (truth, &mut true_hands)]
                    {
                        let mut sim = world;
                        sim.play_unchecked(m, &mut NoObserver);
                        let mut seats = proto.clone();
                        let mut rr: Vec<_> =
                            (0..n).map(|s| rng_from_seed(mix(mix(game_seed, u64::from(w)), s as u64))).collect();
                        let o = play_round(&mut sim, &mut seats, &mut rr, &mut scratch, &mut NoObserver);
                        *total += win_share(&o.scores[..n], seat.index());
                    }
                }
                let k = f64::from(worlds);
                pending.push(Forecast {
                    game: g,
                    seat: seat.index() as u8,
                    sampled: sampled / k,
                    planned: planned / k,
                    true_hands: true_hands / k,
                    realised: 0.0,
                    plan_sampled: plan_s / plans,
                    plan_planned: plan_p / plans,
                    plan_true: plan_t / plans,
                });
            }
            state.play_unchecked(m, &mut NoObserver);
        }
        let scores = state.outcome().expect("the round is over").scores;
        for mut f in pending {
            f.realised = win_share(&scores[..n], usize::from(f.seat));
            out.push(f);
        }
    }
    Ok(out)
}
