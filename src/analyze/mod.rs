//! Position analysis: what should be played here, and what each alternative costs.
//!
//! [`analyze`] takes one seat's [`View`] at a decision and its legal moves, and estimates for
//! every move the mover's **round-win probability** and **expected point margin** (the other
//! seats' mean round score minus the mover's: positive is good), each with an interval. It is
//! `expert`'s search made into a measurement: worlds are sampled from what the seat to move
//! could know (its hand, the table, hand and boneyard sizes, the voids the table has shown and
//! their loosened records after draws: `expert`'s `infer=draws`), every move is played in the
//! same worlds (common random numbers), and each is played out to the round's end by the
//! rollout model in every seat (the tuned `weighted` policy, the one `expert`'s rollouts play,
//! unless told otherwise).
//!
//! **Error control.** The worlds are looked at on a schedule fixed in advance ([`looks`]: the
//! floor, then half as many again each time, up to the cap). At each look the leader is compared
//! with every other move still in the running on their paired difference, with a Student-t
//! interval whose level is Bonferroni-corrected over the `k - 1` comparisons and every planned
//! look: two-sided `1 - (1 - confidence) / ((k - 1) * looks)`. A move is dropped when its whole
//! interval lies behind the leader; the analysis ends when one move is left (**separated**),
//! when every move left is within `tolerance` of the leader on these intervals
//! (**indistinguishable**), or when the worlds or the time run out (**budget**). The chance that
//! the truly best move is ever dropped is then at most `(1 - confidence) / 2`, whatever the
//! number of looks, so two analyses of one position name different separated moves at most
//! `1 - confidence` of the time (`scripts/studies/study-analyze-stability.sh` measures it). The `loss`
//! intervals printed are these same intervals.
//!
//! Only the [`View`] is read: hidden tiles cannot change the answer (a test swaps them and gets
//! the same analysis, byte for byte). With no time cap the same seed gives the same analysis.

#[doc(hidden)] // the reasons shown beside a move, for the integration tests
pub mod explain;
#[doc(hidden)] // the position file `mtrain analyze` reads, for the integration tests
pub mod position;
pub mod replay;
pub mod review;
#[doc(hidden)] // the sampled worlds' forecasts, for the integration tests
pub mod worlds;

use crate::game::play_round;
use crate::rng::{GameRng, mix, rng_from_seed};
use crate::round::{Move, MoveList, NoObserver, RoundState, Seat, TrainId};
use crate::rules::MAX_PLAYERS;
use crate::strategies::Bot;
use crate::strategies::plan::{ROLLOUT_PLAN_BUDGET, longest_plan_memo};
use crate::strategy::{MatchStart, Strategy};
use crate::view::View;
use rand::Rng;
use std::fmt;
use std::time::Duration;

/// Which estimate ranks the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Expected point margin (the match is scored in points): the default.
    Points,
    /// Round-win probability.
    Win,
}

impl Metric {
    /// The default `tolerance` for this metric: half a point, or one percentage point.
    pub fn default_tolerance(self) -> f64 {
        match self {
            Metric::Points => 0.5,
            Metric::Win => 0.01,
        }
    }
}

/// How an analysis searches and when it stops.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The bot that plays every seat in the rollouts: the model the estimates assume.
    pub rollout: Bot,
    /// The rollout bot's name as the output states it ("if every seat plays like `model`").
    pub model: String,
    /// The fewest worlds played before any move is dropped or the moves are called
    /// indistinguishable (the first look).
    pub min_worlds: u32,
    /// The most worlds played (each move is played at most once per world).
    pub max_worlds: u32,
    /// A time cap (off by default: a clock makes results machine-dependent).
    pub time_cap: Option<Duration>,
    /// Confidence of the intervals and of the stopping tests, e.g. 0.95.
    pub confidence: f64,
    /// Moves whose difference from the leader is surely within this (in the ranking metric's
    /// units) are called indistinguishable.
    pub tolerance: f64,
    /// What ranks the moves.
    pub by: Metric,
    /// Sample worlds that meet the loosened void records too (`expert`'s `infer=draws`).
    pub infer_draws: bool,
    /// How the other seats' hidden hands are dealt in each world.
    pub hands: Hands,
    /// A move (index in the legal list) played in every world even once dropped: the move
    /// played in a game under review, whose loss is then measured on every world.
    pub keep: Option<usize>,
    /// A bot per seat for the rollouts instead of `rollout` in every seat (a review's deeper
    /// check plays each seat's own bot).
    pub seats: Option<Vec<Bot>>,
    /// Only these moves (indices in the legal list) are compared; `None` for all.
    pub only: Option<Vec<usize>>,
}

/// The default most worlds of one analysis: enough to separate the best move or call the
/// moves left indistinguishable in nearly every position (results/benchmarks/analyze.csv).
pub(crate) const DEFAULT_MAX_WORLDS: u32 = 100_000;

/// The default most worlds of each decision's analysis in a game review, where hundreds of
/// decisions share the time.
pub(crate) const DEFAULT_REVIEW_WORLDS: u32 = 20_000;

/// The default fewest worlds before the first look: enough for the variance of a paired
/// difference to be estimated (results/analyze/stability.csv).
pub(crate) const DEFAULT_MIN_WORLDS: u32 = 128;

/// Each look comes after this many times the worlds of the one before (rounded up).
pub(crate) const LOOK_GROWTH: f64 = 1.5;

/// The default rollout model: the tuned policy `expert`'s rollouts play.
pub(crate) const DEFAULT_MODEL: &str = "weighted";

/// The worlds after which an analysis looks, fixed before it starts: `min` (at most `max`), then
/// [`LOOK_GROWTH`] times more each time, the last at `max`.
#[doc(hidden)] // for the integration tests
pub fn looks(min: u32, max: u32) -> Vec<u32> {
    let mut at = vec![min.clamp(1, max.max(1))];
    while let Some(&last) = at.last()
        && last < max
    {
        let next = ((f64::from(last) * LOOK_GROWTH).ceil() as u32).max(last + 1).min(max);
        at.push(next);
    }
    at
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            rollout: Bot::parse(DEFAULT_MODEL).expect("weighted is built in"),
            model: DEFAULT_MODEL.to_string(),
            min_worlds: DEFAULT_MIN_WORLDS,
            max_worlds: DEFAULT_MAX_WORLDS,
            time_cap: None,
            confidence: 0.95,
            tolerance: Metric::Points.default_tolerance(),
            by: Metric::Points,
            infer_draws: true,
            hands: Hands::Plans,
            keep: None,
            seats: None,
            only: None,
        }
    }
}

/// How an analysis deals the hands it cannot see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Hands {
    /// Every deal that meets the table's records equally likely.
    Uniform,
    /// As the tuned policy leaves them: of `PLAN_POOL` uniform deals, one is picked with
    /// weight `e^(b L)` for each other seat, L the length of the longest trail its hand holds
    /// from its own train's end (the plan `planner` and `weighted` keep) and b
    /// `plan_weight`. `weighted`'s tuned weights
    /// play the plan's tiles last, so a real hand of that model holds a longer plan than a
    /// uniform deal of the same size (4.9 tiles against 3.0 at 4 players); rolled out from
    /// uniform deals its opponents get stuck more often than real ones and the mover's win
    /// chance is forecast about 9 points of % too high (results/analyze/worlds.csv). The
    /// weight brings the plans of the dealt hands to those of real ones.
    Plans,
}

impl Hands {
    /// How the hidden hands are dealt, in words, for the model line.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Hands::Uniform => "hidden hands dealt uniformly",
            Hands::Plans => "hidden hands dealt as the tuned policy keeps them",
        }
    }
}

/// The exponent of [`Hands::Plans`]'s weight per unit of plan length: 1 (a plan one tile longer
/// weighs e times as much), ½ at two players, where the one other hand is bigger (15 tiles) and
/// its plans vary more from deal to deal. Chosen so that the plans of the dealt hands match
/// those real `weighted` hands keep at 2, 4 and 6 players (results/analyze/worlds.csv).
pub(crate) fn plan_weight(players: u8) -> f64 {
    if players == 2 { 0.5 } else { 1.0 }
}

/// Uniform deals a world of [`Hands::Plans`] is picked from.
pub(crate) const PLAN_POOL: usize = 16;

impl Hands {
    /// The dealing that suits rollout model `model` (a bot spec): [`Hands::Plans`] for the
    /// tuned policy and the players built on it (`weighted`, `expert`, `oracle`),
    /// [`Hands::Uniform`] for the others. `planner` spends its plan from the front, so its
    /// hands keep shorter plans than `weighted`'s and uniform deals forecast it without bias,
    /// as they do `greedy` (results/analyze/worlds.csv).
    pub fn for_model(model: &str) -> Hands {
        let name = model.split(':').next().unwrap_or(model);
        match name {
            "weighted" | "expert" | "oracle" => Hands::Plans,
            _ => Hands::Uniform,
        }
    }

    /// One world for `view`'s seat dealt this way, from `rng`; `None` if the seat is not to act.
    pub fn deal(self, view: &View<'_>, loose: bool, rng: &mut GameRng) -> Option<RoundState> {
        self.deal_from(view, &view.world_sampler(), loose, rng)
    }

    /// [`Hands::deal`] with `worlds` (`view`'s [`View::world_sampler`]), for many worlds at one
    /// position: the same world from the same `rng`.
    pub fn deal_from(
        self,
        view: &View<'_>,
        worlds: &crate::round::WorldSampler<'_>,
        loose: bool,
        rng: &mut GameRng,
    ) -> Option<RoundState> {
        let sample = |rng: &mut GameRng| worlds.sample_with(rng, loose);
        if self == Hands::Uniform {
            return sample(rng);
        }
        let me = view.seat();
        let others: Vec<Seat> = (0..view.players() as usize).map(Seat::from_index).filter(|&s| s != me).collect();
        let mut pool = Vec::with_capacity(PLAN_POOL);
        let mut plans = Vec::with_capacity(PLAN_POOL);
        for _ in 0..PLAN_POOL {
            let world = sample(rng)?;
            // Through the rollouts' memo of plan searches: the rollouts in the world picked
            // search these hands again first, and find them there.
            let plan: usize = others
                .iter()
                .map(|&o| {
                    let end = world.train(TrainId::personal(o)).end;
                    longest_plan_memo(world.hand(o), end, ROLLOUT_PLAN_BUDGET).len()
                })
                .sum();
            plans.push(plan as f64);
            pool.push(world);
        }
        // Weights relative to the longest, so that none overflows.
        let top = plans.iter().copied().fold(0.0, f64::max);
        let beta = plan_weight(view.players());
        let weights: Vec<f64> = plans.iter().map(|&l| (beta * (l - top)).exp()).collect();
        let mut u = rng.random::<f64>() * weights.iter().sum::<f64>();
        let mut pick = PLAN_POOL - 1;
        for (i, &w) in weights.iter().enumerate() {
            if u < w {
                pick = i;
                break;
            }
            u -= w;
        }
        Some(pool.swap_remove(pick))
    }
}

/// Why an analysis ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// One legal move: nothing to compare.
    Single,
    /// The best move beat every other at the stated confidence.
    Separated,
    /// The moves left are within the tolerance of each other at the stated confidence.
    Indistinguishable,
    /// The worlds ran out first.
    Worlds,
    /// The time cap came first.
    Time,
}

impl Stop {
    /// A sentence for the console.
    pub(crate) fn describe(self, confidence: f64, tolerance: f64, by: Metric) -> String {
        let c = confidence * 100.0;
        let unit = match by {
            Metric::Points => format!("{tolerance} points"),
            Metric::Win => format!("{} percentage points of win probability", tolerance * 100.0),
        };
        match self {
            Stop::Single => "only one legal move".into(),
            Stop::Separated => {
                format!("the best move is separated from every other at {c}% confidence (joint over moves and looks)")
            }
            Stop::Indistinguishable => {
                format!("the moves left are indistinguishable: within {unit} of the best at {c}% confidence (joint)")
            }
            Stop::Worlds => "the worlds ran out before the best move was separated (raise --samples)".into(),
            Stop::Time => "the time ran out before the best move was separated (raise --seconds)".into(),
        }
    }
}

/// A mean with its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Written to four decimals: the estimates carry no more.
impl serde::Serialize for Estimate {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let r = |x: f64| {
            let v = (x * 1e4).round() / 1e4;
            if v == 0.0 { 0.0 } else { v }
        };
        let mut st = s.serialize_struct("Estimate", 3)?;
        st.serialize_field("mean", &r(self.mean))?;
        st.serialize_field("lo", &r(self.lo))?;
        st.serialize_field("hi", &r(self.hi))?;
        st.end()
    }
}

/// One move's estimates.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MoveEval {
    /// Its index in the legal move list (the engine's order).
    pub index: usize,
    /// The move.
    #[serde(skip)]
    pub mv: Move,
    /// Worlds it was played in.
    pub worlds: u32,
    /// The mover's round-win probability (ties for the lowest round score share the win).
    pub win: Estimate,
    /// The other seats' mean round score minus the mover's.
    pub points: Estimate,
    /// The best move's point margin minus this one's, paired over the worlds both were played
    /// in (0 for the best).
    pub loss: Estimate,
    /// The same for the win probability.
    pub loss_win: Estimate,
    /// Whether it was still in the running at the end.
    pub survived: bool,
}

/// What [`analyze`] found: the moves, best first.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Analysis {
    /// The seat to move.
    #[serde(serialize_with = "seat_index")]
    pub seat: Seat,
    /// Every legal move: those still in the running at the end first, each group by its mean
    /// in the ranking metric, best first.
    pub moves: Vec<MoveEval>,
    /// Worlds sampled.
    pub worlds: u32,
    /// Rollouts played.
    pub rollouts: u64,
    /// Why it ended.
    pub stop: Stop,
    /// The ranking metric.
    pub by: Metric,
    /// The confidence of the intervals and tests.
    pub confidence: f64,
    /// The tolerance of the indistinguishable test.
    pub tolerance: f64,
    /// The rollout model the estimates assume (every seat plays like it from here).
    pub model: String,
    /// How the hidden hands were dealt.
    pub hands: Hands,
    /// Looks planned (the Bonferroni correction counts them all).
    pub looks: u32,
    /// The two-sided error of each loss interval: `(1 - confidence) / ((k - 1) * looks)`.
    pub comparison_error: f64,
    /// Time spent.
    #[serde(serialize_with = "seconds")]
    pub elapsed: Duration,
}

fn seat_index<S: serde::Serializer>(s: &Seat, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_u64(s.index() as u64)
}

fn seconds<S: serde::Serializer>(d: &Duration, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_f64((d.as_secs_f64() * 1e4).round() / 1e4)
}

impl Analysis {
    /// The best move.
    pub fn best(&self) -> &MoveEval {
        &self.moves[0]
    }

    /// The estimates of the move at `index` in the legal list.
    pub fn of(&self, index: usize) -> Option<&MoveEval> {
        self.moves.iter().find(|m| m.index == index)
    }
}

/// The standard normal quantile.
fn quantile(p: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    Normal::new(0.0, 1.0).expect("the standard normal").inverse_cdf(p)
}

/// The Student-t quantile with `n - 1` degrees of freedom that leaves `tail` above it; infinite
/// below three values (no interval yet).
fn t_quantile(tail: f64, n: u32) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    if n < 3 {
        return f64::INFINITY;
    }
    StudentsT::new(0.0, 1.0, f64::from(n - 1)).expect("positive degrees of freedom").inverse_cdf(1.0 - tail)
}

/// Running sums of one quantity.
#[derive(Clone, Copy, Default)]
struct Sums {
    n: u32,
    sum: f64,
    sq: f64,
}

impl Sums {
    fn add(&mut self, v: f64) {
        self.n += 1;
        self.sum += v;
        self.sq += v * v;
    }

    fn mean(&self) -> f64 {
        if self.n == 0 { 0.0 } else { self.sum / f64::from(self.n) }
    }

    /// The standard error of the mean (0 below two values).
    fn se(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let m = f64::from(self.n);
        let var = ((self.sq - self.sum * self.sum / m) / (m - 1.0)).max(0.0);
        (var / m).sqrt()
    }

    /// The interval with `tail` error above and below, on Student's t.
    fn joint(&self, tail: f64) -> Estimate {
        let half = t_quantile(tail, self.n) * self.se();
        let mean = self.mean();
        let half = if half.is_finite() { half } else { f64::INFINITY };
        Estimate { mean, lo: mean - half, hi: mean + half }
    }

    fn estimate(&self, z: f64, clamp: Option<(f64, f64)>) -> Estimate {
        let (mean, half) = (self.mean(), z * self.se());
        let (mut lo, mut hi) = (mean - half, mean + half);
        if let Some((a, b)) = clamp {
            lo = lo.clamp(a, b);
            hi = hi.clamp(a, b);
        }
        Estimate { mean, lo, hi }
    }
}

/// One rollout's result for the mover: (point margin, win share).
fn judge(scores: &[u32; MAX_PLAYERS], me: Seat, n: usize) -> (f64, f64) {
    let own = f64::from(scores[me.index()]);
    let others: f64 = (0..n).filter(|&s| s != me.index()).map(|s| f64::from(scores[s])).sum();
    let low = scores[..n].iter().min().copied().unwrap_or(0);
    let win =
        if scores[me.index()] == low { 1.0 / scores[..n].iter().filter(|&&s| s == low).count() as f64 } else { 0.0 };
    (others / (n - 1) as f64 - own, win)
}

/// Reused rollout buffers.
struct Rollouts {
    seats: Vec<Bot>,
    rngs: Vec<GameRng>,
    moves: MoveList,
}

/// The wall clock of an analysis. WebAssembly in a browser (`wasm32-unknown-unknown`) has no clock
/// in std (`Instant::now` panics there): there an analysis reports 0 s and a time cap never fires,
/// which changes nothing else (the results never depend on the clock without a cap).
struct Clock(#[cfg(not(target_family = "wasm"))] std::time::Instant);

impl Clock {
    fn start() -> Clock {
        Clock(
            #[cfg(not(target_family = "wasm"))]
            std::time::Instant::now(),
        )
    }

    fn elapsed(&self) -> Duration {
        #[cfg(not(target_family = "wasm"))]
        return self.0.elapsed();
        #[cfg(target_family = "wasm")]
        Duration::ZERO
    }
}

/// Analyses the decision `view`'s seat faces with legal moves `moves` (as the engine lists them
/// at this decision), from `seed`.
///
/// # Panics
/// Panics if `moves` is empty or `view`'s seat is not the seat to act (no world can be sampled).
pub fn analyze(view: &View<'_>, moves: &[Move], settings: &Settings, seed: u64) -> Analysis {
    assert!(!moves.is_empty(), "a decision has legal moves");
    let start = Clock::start();
    let me = view.seat();
    let n = view.players() as usize;
    let k = moves.len();
    let conf = settings.confidence;
    let z_interval = quantile(1.0 - (1.0 - conf) / 2.0);
    let schedule = looks(settings.min_worlds, settings.max_worlds);
    // A time cap can end the analysis between two planned looks: that is one look more.
    let planned = schedule.len() as u32 + u32::from(settings.time_cap.is_some());
    // Each loss interval's two-sided error, shared over the k - 1 comparisons with the leader
    // and every planned look (Bonferroni); `tail` is the error on one side.
    // The moves compared: every legal move, or those `only` names.
    let compared = settings.only.as_ref().map_or(k, |o| (0..k).filter(|c| o.contains(c)).count());
    let comparison_error = (1.0 - conf) / ((compared.max(2) - 1) as f64 * f64::from(planned));
    let tail = comparison_error / 2.0;
    let mut pts = vec![Sums::default(); k];
    let mut win = vec![Sums::default(); k];
    // Per-world values, world-major, for the paired differences.
    let mut vp: Vec<f64> = Vec::new();
    let mut vw: Vec<f64> = Vec::new();
    let mut alive: Vec<bool> = (0..k).map(|c| settings.only.as_ref().is_none_or(|o| o.contains(&c))).collect();
    // The rollout bot is told of the match, as a seat is: `weighted` plays its preset's set.
    let protos: Vec<Bot> = (0..n)
        .map(|s| {
            let mut b = settings.seats.as_ref().map_or(&settings.rollout, |seats| &seats[s]).clone();
            // A rollout's plans keep to the budget `expert`'s rollouts keep: the model is the
            // policy those rollouts play, and where draws swell hands past 30 tiles a plan of
            // the whole budget would cost a rollout milliseconds.
            b.limit_plan(ROLLOUT_PLAN_BUDGET);
            b.match_start(&MatchStart { rules: view.rules(), seat: Seat::from_index(s), game: 0, seed: 0 });
            b
        })
        .collect();
    let mut ro =
        Rollouts { seats: protos.clone(), rngs: (0..n).map(|_| rng_from_seed(0)).collect(), moves: MoveList::new() };
    let mut rollouts = 0u64;
    // What every world of this analysis shares, computed once.
    let worlds = view.world_sampler();
    let mut w = 0u32;
    let mut next_look = schedule.iter().copied();
    let mut look_at = next_look.next().unwrap_or(1);
    let stop = if alive.iter().filter(|&&a| a).count() <= 1 {
        Stop::Single
    } else {
        loop {
            if w >= settings.max_worlds {
                break Stop::Worlds;
            }
            if w > 0 && settings.time_cap.is_some_and(|cap| start.elapsed() >= cap) {
                break Stop::Time;
            }
            let mut world_rng = rng_from_seed(mix(seed, 2 * u64::from(w)));
            let world = settings
                .hands
                .deal_from(view, &worlds, settings.infer_draws, &mut world_rng)
                .expect("the view's seat is to act");
            let rollout_seed = mix(seed, 2 * u64::from(w) + 1);
            vp.resize((w as usize + 1) * k, f64::NAN);
            vw.resize((w as usize + 1) * k, f64::NAN);
            for c in (0..k).filter(|&c| alive[c] || settings.keep == Some(c)) {
                let mut sim = world.clone();
                sim.play_unchecked(moves[c], &mut NoObserver);
                for (s, (seat, rng)) in ro.seats.iter_mut().zip(ro.rngs.iter_mut()).enumerate() {
                    seat.clone_from(&protos[s]);
                    *rng = rng_from_seed(mix(rollout_seed, s as u64));
                }
                let outcome = play_round(&mut sim, &mut ro.seats, &mut ro.rngs, &mut ro.moves, &mut NoObserver);
                let (p, q) = judge(&outcome.scores, me, n);
                pts[c].add(p);
                win[c].add(q);
                vp[w as usize * k + c] = p;
                vw[w as usize * k + c] = q;
                rollouts += 1;
            }
            w += 1;
            if w < look_at {
                continue;
            }
            look_at = next_look.next().unwrap_or(u32::MAX);
            let values = if settings.by == Metric::Points { &vp } else { &vw };
            let sums = if settings.by == Metric::Points { &pts } else { &win };
            let lead = leader(sums, &alive);
            for (c, a) in alive.iter_mut().enumerate() {
                if c != lead && *a && paired(values, k, w, lead, c).joint(tail).lo > 0.0 {
                    *a = false;
                }
            }
            if alive.iter().filter(|&&a| a).count() == 1 {
                break Stop::Separated;
            }
            let close = (0..k).filter(|&c| c != lead && alive[c]).all(|c| {
                let d = paired(values, k, w, lead, c).joint(tail);
                d.lo > -settings.tolerance && d.hi < settings.tolerance
            });
            if close {
                break Stop::Indistinguishable;
            }
        }
    };
    let sums = if settings.by == Metric::Points { &pts } else { &win };
    let lead = if k == 1 { 0 } else { leader(sums, &alive) };
    let mut evals: Vec<MoveEval> = (0..k)
        .map(|c| {
            let (loss, loss_win) = if c == lead || k == 1 {
                let zero = Estimate { mean: 0.0, lo: 0.0, hi: 0.0 };
                (zero, zero)
            } else {
                (paired(&vp, k, w, lead, c).joint(tail), paired(&vw, k, w, lead, c).joint(tail))
            };
            MoveEval {
                index: c,
                mv: moves[c],
                worlds: pts[c].n,
                win: win[c].estimate(z_interval, Some((0.0, 1.0))),
                points: pts[c].estimate(z_interval, None),
                loss,
                loss_win,
                survived: alive[c],
            }
        })
        .collect();
    let key = |e: &MoveEval| if settings.by == Metric::Points { e.points.mean } else { e.win.mean };
    // Survivors first, the leader at the top; then by mean, best first; then move order.
    evals.sort_by(|a, b| {
        (b.index == lead)
            .cmp(&(a.index == lead))
            .then(b.survived.cmp(&a.survived))
            .then(key(b).total_cmp(&key(a)))
            .then(a.index.cmp(&b.index))
    });
    Analysis {
        seat: me,
        moves: evals,
        worlds: w,
        rollouts,
        stop,
        by: settings.by,
        confidence: conf,
        tolerance: settings.tolerance,
        model: settings.model.clone(),
        hands: settings.hands,
        looks: planned,
        comparison_error,
        elapsed: start.elapsed(),
    }
}

/// The surviving move with the highest mean; ties go to the first in move order.
fn leader(sums: &[Sums], alive: &[bool]) -> usize {
    let mut best = alive.iter().position(|&a| a).expect("a move survives");
    for c in best + 1..sums.len() {
        if alive[c] && sums[c].mean() > sums[best].mean() {
            best = c;
        }
    }
    best
}

/// `a − b` per world over the first `worlds` worlds in which both were played.
fn paired(values: &[f64], k: usize, worlds: u32, a: usize, b: usize) -> Sums {
    let mut d = Sums::default();
    for w in 0..worlds as usize {
        let (x, y) = (values[w * k + a], values[w * k + b]);
        if !x.is_nan() && !y.is_nan() {
            d.add(x - y);
        }
    }
    d
}

/// The console table: one line per move, best first.
pub struct Table<'a>(pub &'a Analysis);

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0;
        let c = a.confidence * 100.0;
        writeln!(
            f,
            "{} legal moves, {} worlds, {} rollouts in {:.2} s: {}",
            a.moves.len(),
            a.worlds,
            a.rollouts,
            a.elapsed.as_secs_f64(),
            a.stop.describe(a.confidence, a.tolerance, a.by)
        )?;
        writeln!(
            f,
            "model: if every seat plays like {} from here to the round's end; {}",
            a.model,
            a.hands.describe()
        )?;
        let width = a.moves.iter().map(|m| m.mv.to_string().len()).max().unwrap_or(4).max(4);
        let cells: Vec<[String; 3]> = a
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                [
                    format!("{:.1} [{:.1}, {:.1}]", m.win.mean * 100.0, m.win.lo * 100.0, m.win.hi * 100.0),
                    format!("{:+.2} [{:+.2}, {:+.2}]", m.points.mean, m.points.lo, m.points.hi),
                    match (i, a.by) {
                        (0, _) => "best".to_string(),
                        (_, Metric::Points) => format!("{:.2} [{:.2}, {:.2}]", m.loss.mean, m.loss.lo, m.loss.hi),
                        (_, Metric::Win) => format!(
                            "{:.1} [{:.1}, {:.1}]",
                            m.loss_win.mean * 100.0,
                            m.loss_win.lo * 100.0,
                            m.loss_win.hi * 100.0
                        ),
                    },
                ]
            })
            .collect();
        let loss = if a.by == Metric::Points { "loss" } else { "loss, win %" };
        let heads = [format!("win % [{c}%]"), format!("points [{c}%]"), format!("{loss} [{c}% joint]")];
        let w: Vec<usize> =
            (0..3).map(|j| cells.iter().map(|r| r[j].len()).chain([heads[j].len()]).max().unwrap_or(0)).collect();
        writeln!(
            f,
            "{:>4}  {:<width$}  {:<w0$}  {:<w1$}  {:<w2$}  {:>6}",
            "rank",
            "move",
            heads[0],
            heads[1],
            heads[2],
            "worlds",
            w0 = w[0],
            w1 = w[1],
            w2 = w[2]
        )?;
        for (i, (m, r)) in a.moves.iter().zip(&cells).enumerate() {
            let rank = if m.survived { format!("{}", i + 1) } else { format!("{}x", i + 1) };
            writeln!(
                f,
                "{:>4}  {:<width$}  {:<w0$}  {:<w1$}  {:<w2$}  {:>6}",
                rank,
                m.mv.to_string(),
                r[0],
                r[1],
                r[2],
                m.worlds,
                w0 = w[0],
                w1 = w[1],
                w2 = w[2]
            )?;
        }
        if a.moves.len() > 1 {
            let others = a.moves.len() - 1;
            writeln!(
                f,
                "joint: each loss interval at {}%, so that the {} with the best over {} planned looks hold together at {c}%; the stop reads them",
                trim_percent(100.0 * (1.0 - a.comparison_error)),
                if others == 1 { "1 comparison".to_string() } else { format!("{others} comparisons") },
                a.looks
            )?;
        }
        if a.moves.iter().any(|m| !m.survived) {
            writeln!(f, "x: dropped once clearly behind the best (its interval is from fewer worlds)")?;
        }
        Ok(())
    }
}

/// A percentage near 100 written with the digits that show its distance from 100.
fn trim_percent(p: f64) -> String {
    let gap = 100.0 - p;
    let digits = if gap <= 0.0 { 2 } else { ((-gap.log10()).ceil() as usize + 1).clamp(1, 8) };
    format!("{p:.digits$}")
}

/// `Analysis` as JSON, each move with its protocol form and text.
pub fn to_json(a: &Analysis) -> serde_json::Value {
    let mut v = serde_json::to_value(a).expect("an analysis serializes");
    if let Some(list) = v.get_mut("moves").and_then(|m| m.as_array_mut()) {
        for (j, m) in list.iter_mut().zip(&a.moves) {
            // The move as the bot protocol writes it.
            j["move"] = serde_json::to_value(crate::external::protocol::MoveJson(m.mv)).expect("a move serializes");
            j["text"] = serde_json::Value::String(m.mv.to_string());
        }
    }
    v
}
