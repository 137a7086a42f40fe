//! Inference from behaviour: how likely a hypothetical deal of the hidden tiles makes the moves
//! the other seats were seen to play.
//!
//! A search samples worlds: the tiles it cannot see dealt into the other hands. The void
//! records rule some deals out (a seat that drew on 7 holds no 7). But a seat's plays say more:
//! a player who laid a heavy double early probably held few others; a player who passed up a
//! safe play probably needed that tile elsewhere. [`History`] keeps, for every decision of the
//! round, the round as it stood and the move played; [`History::log_likelihood`] scores a world
//! by the probability an opponent model gives each of those moves, had each seat held what the
//! world deals it. The model is the caller's ([`OpponentModel`]: move scores, made stochastic
//! by a softmax); `expert:infer=policy` passes the tuned `weighted` policy.
//!
//! A past decision is evidence only where the world fixes the hand the seat held then: its hand
//! now plus the tiles it has laid since, when it has taken in no tile since (a draw or a
//! penalty would add a tile the world cannot place in time). The check is by count: that union
//! must be as large as the seat's hand was. Decisions taken just after a draw in the same turn
//! are left out too (the drawn tile is the seat's private knowledge).
//!
//! What the model reads of a past round is what a seat's [`crate::View`] shows: the table, the
//! counts, the void records, and the hand, which is the world's hypothesis, never the true one.

use super::state::RoundState;
use super::{Event, MoveList, Observer, Seat};
use crate::round::Move;
use crate::rules::MAX_PLAYERS;
use crate::tile_set::TileSet;
use crate::view::View;

/// How a seat is expected to play, for inference from behaviour: a score for every legal move
/// of a view, higher for a move played more often. The inference turns the scores into
/// probabilities by a softmax ([`History::log_likelihood`]'s temperature says how far apart one
/// point of score sets two moves); a score of `f64::INFINITY` is a move always played.
#[doc(hidden)] // expert inference's parts, for the integration tests
pub trait OpponentModel {
    /// The score of each of `moves` (in their order) for the seat of `view`, into `out`, which
    /// it clears first. `moves` are the legal moves of `view`.
    fn move_scores(&mut self, view: &View<'_>, moves: &MoveList, out: &mut Vec<f64>);
}

/// One decision of the round: the state before it, and what was played.
#[derive(Clone, Debug)]
pub(crate) struct Past {
    state: RoundState,
    seat: Seat,
    played: Move,
    /// The tiles `seat` had laid before this decision.
    laid_before: TileSet,
}

/// Working space of [`History::log_likelihood`], kept by its caller between calls.
#[derive(Default)]
pub(crate) struct Workspace {
    state: Option<RoundState>,
    moves: MoveList,
    scores: Vec<f64>,
}

/// Every decision of the round in play, and the tiles each seat has laid (from the events).
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    past: Vec<Past>,
    laid: [TileSet; MAX_PLAYERS],
}

/// Every move keeps at least this share of the model's probability, spread evenly: a player the
/// model does not describe (a person, another bot) makes no world impossible.
pub(crate) const FLOOR: f64 = 0.05;

impl History {
    /// Records that `played` is about to be played by `seat` in `state`.
    pub(crate) fn record(&mut self, state: &RoundState, seat: Seat, played: Move) {
        if state.drawn_this_turn().is_some() {
            return;
        }
        self.past.push(Past { state: state.clone(), seat, played, laid_before: self.laid[seat.index()] });
    }

    /// How many decisions are recorded.
    pub(crate) fn decisions(&self) -> usize {
        self.past.len()
    }

    /// The recorded decisions from the `from`-th on: the true state at each, the seat that
    /// decided, and what it played. Only a strategy that sees every hand (the `oracle`) may
    /// read the states: they hold the hidden tiles.
    pub(crate) fn decisions_from(&self, from: usize) -> impl Iterator<Item = (&RoundState, Seat, Move)> {
        self.past.get(from..).unwrap_or(&[]).iter().map(|p| (&p.state, p.seat, p.played))
    }

    /// The tiles laid, from the round's events.
    fn observe(&mut self, ev: &Event) {
        if let Event::Play { seat, tile, .. } = *ev {
            self.laid[seat.index()].insert(tile);
        }
    }

    /// The log-likelihood of the other seats' recorded decisions had they held what `world`
    /// deals them, under `policy`'s scores as a softmax at temperature `temp` (points of score
    /// per unit of log-odds), each move's probability floored at [`FLOOR`] spread evenly. `me`'s
    /// own decisions are not evidence.
    pub(crate) fn log_likelihood<M: OpponentModel + ?Sized>(
        &self,
        world: &RoundState,
        me: Seat,
        policy: &mut M,
        temp: f64,
        ws: &mut Workspace,
    ) -> f64 {
        let Workspace { state: scratch, moves, scores } = ws;
        let mut ll = 0.0;
        for p in &self.past {
            let s = p.seat.index();
            if p.seat == me {
                continue;
            }
            let since = self.laid[s].difference(&p.laid_before);
            let then = world.hand(p.seat).union(&since);
            if then.len() != p.state.hand(p.seat).len() {
                continue;
            }
            let st = match scratch {
                Some(st) => {
                    st.clone_from(&p.state);
                    st
                }
                None => scratch.insert(p.state.clone()),
            };
            st.set_hand(p.seat, then);
            st.legal_moves(moves);
            let Some(k) = moves.iter().position(|&m| m == p.played) else {
                // The world's hand could not have played it: as unlikely as the floor allows.
                ll += (FLOOR / (moves.len().max(1) + 1) as f64).ln();
                continue;
            };
            if moves.len() == 1 {
                continue;
            }
            policy.move_scores(&st.view(p.seat), moves, scores);
            ll += softmax_floored(scores, k, temp).ln();
        }
        ll
    }
}

/// The probability of move `k` under a softmax of `scores / temp`, mixed with the uniform
/// distribution at weight [`FLOOR`]. An infinite score (a move the policy always plays) takes
/// the whole softmax share.
fn softmax_floored(scores: &[f64], k: usize, temp: f64) -> f64 {
    let n = scores.len() as f64;
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let p = if top.is_infinite() {
        let sure = scores.iter().filter(|s| s.is_infinite()).count() as f64;
        if scores[k].is_infinite() { 1.0 / sure } else { 0.0 }
    } else {
        let z: f64 = scores.iter().map(|s| ((s - top) / temp).exp()).sum();
        ((scores[k] - top) / temp).exp() / z
    };
    (1.0 - FLOOR) * p + FLOOR / n
}

/// Passes events on to `inner` and keeps the tiles each seat lays in `history`.
pub(crate) struct Recording<'a, O: Observer> {
    pub(crate) inner: &'a mut O,
    pub(crate) history: &'a mut History,
}

impl<O: Observer> Observer for Recording<'_, O> {
    #[inline]
    fn event(&mut self, ev: &Event) {
        self.history.observe(ev);
        self.inner.event(ev);
    }
}

/// Plays `games` rounds (4 players, `wikipedia`, round `g` dealt from `mix(9, g)`, seat 0
/// leads) with `bots` through the recording loop, calling `probe` at every decision of seat 0
/// with the state and the record so far. The driver of the inference's tests, here and where
/// an opponent model lives.
#[cfg(test)]
pub(crate) fn recorded_rounds<S: crate::strategy::Strategy>(
    games: u64,
    bots: &mut [S],
    mut probe: impl FnMut(&RoundState, &History),
) {
    use crate::rng::{mix, rng_from_seed};
    let rules = crate::rules::Rules { players: 4, ..crate::rules::Rules::wikipedia() };
    let mut moves = MoveList::new();
    for g in 0..games {
        let deal = crate::deal::deal_round(&rules, crate::tile::Pip::new(12).unwrap(), &mut rng_from_seed(mix(9, g)));
        let mut state = RoundState::new(&rules, &deal, Seat::from_index(0));
        for (s, b) in bots.iter_mut().enumerate() {
            b.round_start(&state.view(Seat::from_index(s)));
        }
        let mut rng = rng_from_seed(g);
        let mut history = History::default();
        let mut obs = super::NoObserver;
        while let Some(super::Step::Choice(seat, _)) =
            state.advance_until(&mut moves, &mut Recording { inner: &mut obs, history: &mut history }, false)
        {
            if seat.index() == 0 {
                probe(&state, &history);
            }
            let m = moves[bots[seat.index()].choose(&state.view(seat), &moves, &mut rng)];
            history.record(&state, seat, m);
            state.play_unchecked(m, &mut Recording { inner: &mut obs, history: &mut history });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{GameRng, rng_from_seed};
    use crate::strategy::{Needs, Strategy};
    use crate::tile::{Pip, Tile};

    /// An opponent model of the tests, and a player that follows it: a move scores the pips it
    /// lays (a move that lays no tile scores -1); the player plays the first best-scoring move.
    #[derive(Clone, Copy)]
    struct Heaviest;

    impl OpponentModel for Heaviest {
        fn move_scores(&mut self, _view: &View<'_>, moves: &MoveList, out: &mut Vec<f64>) {
            out.clear();
            out.extend(moves.iter().map(|m| m.tile().map_or(-1.0, |t| f64::from(t.pips()))));
        }
    }

    impl Strategy for Heaviest {
        fn choose(&mut self, view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
            let mut scores = Vec::new();
            self.move_scores(view, moves, &mut scores);
            (0..scores.len()).fold(0, |best, i| if scores[i] > scores[best] { i } else { best })
        }

        fn needs(&self) -> Needs {
            Needs::NOTHING
        }
    }

    /// With the true hands, every decision that counts as evidence is given exactly the hand
    /// its seat held then: the hand now plus the tiles laid since.
    #[test]
    fn a_past_hand_is_rebuilt_exactly_from_the_true_world() {
        let (mut rebuilt, mut skipped) = (0, 0);
        recorded_rounds(30, &mut [Heaviest; 4], |state, history| {
            for p in &history.past {
                let since = history.laid[p.seat.index()].difference(&p.laid_before);
                let then = state.hand(p.seat).union(&since);
                if then.len() == p.state.hand(p.seat).len() {
                    assert_eq!(then, *p.state.hand(p.seat));
                    rebuilt += 1;
                } else {
                    // A tile taken in since is in the hand now but was not then: the union is larger.
                    assert!(then.len() > p.state.hand(p.seat).len(), "{then:?}");
                    skipped += 1;
                }
            }
        });
        assert!(rebuilt > 1_000 && skipped > 1_000, "rebuilt {rebuilt}, skipped {skipped}");
    }

    /// The likelihood reads nothing of a past round but the table and the world's hypothesis:
    /// every hand of every recorded state replaced by other tiles of the same count leaves it
    /// as it was. And where the seats play as the model says, the true hands are more likely
    /// than sampled ones far more often than not.
    #[test]
    fn the_likelihood_reads_no_hidden_tile_and_favours_the_truth() {
        let mut ws = Workspace::default();
        let (mut probes, mut truth_ahead) = (0, 0);
        let mut sampler = rng_from_seed(5);
        recorded_rounds(12, &mut [Heaviest; 4], |state, history| {
            let me = Seat::from_index(0);
            let mut ll = |h: &History, w: &RoundState| h.log_likelihood(w, me, &mut Heaviest, 0.25, &mut ws);
            let truth = ll(history, state);
            let mut scrambled = history.clone();
            for p in &mut scrambled.past {
                for s in 0..4 {
                    let k = p.state.hand(Seat::from_index(s)).len();
                    let junk: TileSet = Tile::canonical(Pip::new(12).unwrap()).skip(3 * s).take(k).collect();
                    p.state.set_hand(Seat::from_index(s), junk);
                }
            }
            assert_eq!(ll(&scrambled, state), truth);
            let world = state.view(me).sample_world_loose(&mut sampler).unwrap();
            probes += 1;
            truth_ahead += usize::from(truth > ll(history, &world));
        });
        assert!(probes > 100 && truth_ahead * 10 > probes * 6, "{truth_ahead} of {probes}");
    }

    #[test]
    fn the_floored_softmax_is_a_distribution() {
        for scores in [vec![1.0, 2.0, 0.5], vec![0.0, 0.0], vec![f64::INFINITY, 3.0, 1.0], vec![-5.0, 10.0, 10.0, 0.0]]
        {
            for temp in [0.1, 1.0, 5.0] {
                let total: f64 = (0..scores.len()).map(|k| softmax_floored(&scores, k, temp)).sum();
                assert!((total - 1.0).abs() < 1e-12, "{scores:?} at {temp}: {total}");
                assert!((0..scores.len()).all(|k| softmax_floored(&scores, k, temp) >= FLOOR / scores.len() as f64));
            }
        }
        // A lower temperature trusts the scores more.
        let s = [1.0, 0.0];
        assert!(softmax_floored(&s, 0, 0.2) > softmax_floored(&s, 0, 1.0));
    }
}

/// One probe of [`measure`]: at a decision of seat 0, how many of the tiles in the other hands
/// the two samplers put in the right hand, on average over their worlds.
#[derive(Clone, Copy, Debug, PartialEq)]
#[doc(hidden)] // expert inference's parts, for the integration tests
pub struct Probe {
    /// The game (one round each).
    pub game: u64,
    /// Tiles on the table when the probe was taken, as a share of the set: the round's stage.
    pub played_share: f64,
    /// Tiles in the other hands.
    pub hidden: u32,
    /// Share of them in the right hand, over worlds that meet the void records.
    pub uniform: f64,
    /// The same over worlds picked by likelihood (`expert:infer=policy`'s sampler).
    pub policy: f64,
}

/// The measure of the inference from behaviour (results/ladder/inference.md): `games` rounds
/// under `rules` (double-12, the engine 12-12, seat 0 leads) played by `bots`, one per seat
/// (`examples/inference.rs` seats `weighted` in seat 0 and the opponents after it); at every
/// decision of seat 0 with at least two legal moves, `worlds` worlds from each sampler (the void
/// records, loosened by draws, then the same with each world picked from `pool` by the
/// likelihood `policy` gives the recorded plays at temperature `temp`), each scored by the
/// share of the tiles in the other hands it deals to the right hand. `policy` hears of each
/// game and round as seat 0. Game `g` is dealt from `mix(seed, g)`; the samplers' streams
/// derive from it too.
///
/// # Panics
/// If `bots` has not one entry per seat of `rules`.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub fn measure<S: crate::strategy::Strategy, M: OpponentModel + crate::strategy::Strategy>(
    rules: &crate::rules::Rules,
    bots: &mut [S],
    policy: &mut M,
    games: u64,
    seed: u64,
    worlds: u32,
    pool: u32,
    temp: f64,
) -> Vec<Probe> {
    use crate::rng::{mix, rng_from_seed};
    use crate::strategy::MatchStart;
    let n = rules.players as usize;
    assert_eq!(bots.len(), n, "one bot per seat");
    let (mut moves, mut ws) = (MoveList::new(), Workspace::default());
    let mut probes = Vec::new();
    for g in 0..games {
        let game_seed = mix(seed, g);
        for (s, b) in bots.iter_mut().enumerate() {
            let start = MatchStart { rules, seat: Seat::from_index(s), game: g, seed: 0 };
            b.match_start(&start);
            if s == 0 {
                policy.match_start(&start);
            }
        }
        let mut deal_rng = rng_from_seed(game_seed);
        let deal = crate::deal::deal_round(rules, crate::tile::Pip::new(12).expect("12"), &mut deal_rng);
        let mut state = RoundState::new(rules, &deal, Seat::from_index(0));
        for (s, b) in bots.iter_mut().enumerate() {
            b.round_start(&state.view(Seat::from_index(s)));
        }
        policy.round_start(&state.view(Seat::from_index(0)));
        let mut rngs: Vec<crate::GameRng> = (0..n).map(|s| rng_from_seed(mix(game_seed, 1 + s as u64))).collect();
        let mut history = History::default();
        let mut sampler = rng_from_seed(mix(game_seed, 1 << 40));
        let mut obs = super::NoObserver;
        loop {
            let step =
                state.advance_until(&mut moves, &mut Recording { inner: &mut obs, history: &mut history }, false);
            let Some(super::Step::Choice(seat, _)) = step else { break };
            if seat.index() == 0 && moves.len() >= 2 {
                let v = state.view(seat);
                let truth: Vec<TileSet> = (1..n).map(|s| *state.hand(Seat::from_index(s))).collect();
                let hidden: u32 = truth.iter().map(|h| h.len() as u32).sum();
                let right = |w: &RoundState| -> f64 {
                    let hits: u32 =
                        (1..n).map(|s| w.hand(Seat::from_index(s)).intersect(&truth[s - 1]).len() as u32).sum();
                    f64::from(hits) / f64::from(hidden.max(1))
                };
                let (mut uniform, mut guided) = (0.0, 0.0);
                let mut pool_worlds: Vec<(RoundState, f64)> = Vec::new();
                for _ in 0..worlds {
                    let w = v.sample_world_loose(&mut sampler).expect("seat 0 is to act");
                    uniform += right(&w);
                    pool_worlds.clear();
                    for _ in 0..pool {
                        let w = v.sample_world_loose(&mut sampler).expect("seat 0 is to act");
                        let ll = history.log_likelihood(&w, seat, policy, temp, &mut ws);
                        pool_worlds.push((w, ll));
                    }
                    // The expected share over the pool's pick: each world's share by its weight.
                    let top = pool_worlds.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
                    let total: f64 = pool_worlds.iter().map(|p| (p.1 - top).exp()).sum();
                    guided += pool_worlds.iter().map(|(w, l)| (l - top).exp() * right(w)).sum::<f64>() / total;
                }
                let played_share = state.played().len() as f64 / TileSet::full(rules.set).len() as f64;
                probes.push(Probe {
                    game: g,
                    played_share,
                    hidden,
                    uniform: uniform / f64::from(worlds),
                    policy: guided / f64::from(worlds),
                });
            }
            let v = state.view(seat).with_history(Some(&history));
            let i = bots[seat.index()].choose(&v, &moves, &mut rngs[seat.index()]);
            let m = moves[i];
            history.record(&state, seat, m);
            state.play_unchecked(m, &mut Recording { inner: &mut obs, history: &mut history });
        }
    }
    probes
}
