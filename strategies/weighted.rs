//! `weighted`: scores every legal move by a weighted sum of named features and plays the best.
//!
//! Every weight is a parameter (`weighted:pips=1.2,plan_tile=-0.5`), so the bot is a family of
//! strategies that `mtrain tune` can search. The features describe the move from what the seat
//! sees; each is scaled to about 0 to 1, so weights compare:
//!
//! | feature | value for a move of tile `t` onto train `T` |
//! |---|---|
//! | `pips` | `t`'s pips over the heaviest tile's (shedding weight lowers one's score if another goes out) |
//! | `urgent` | `pips`, when another seat holds at most two tiles (it may go out soon) |
//! | `double` | 1 if `t` is a double (a double is followed by another tile) |
//! | `open_double` | 1 if `t` is a double and the hand has nothing else to cover it with |
//! | `own` | 1 if `T` is the seat's own train |
//! | `unmark` | 1 if `T` is the seat's own train and it is marked (playing there lifts the marker) |
//! | `mexican` | 1 if `T` is a Mexican train (starting one included) |
//! | `other` | 1 if `T` is another seat's (marked) train |
//! | `plan` | 1 if `t` is the next tile of PLAN, the longest trail of the hand from its own train's end (as `planner` keeps it), laid on its own train |
//! | `plan_tile` | 1 if `t` belongs to PLAN but is not played as its next step (spending a planned tile) |
//! | `follow` | tiles left in the hand that fit the end `t` leaves, over the hand's size |
//! | `void_end` | 1 if `t` leaves an end on a train others may use (not one's own unmarked train) that the next seat is publicly known to lack |
//! | `unplayed` | tiles not yet on the table showing the end `t` leaves, over the most there can be |
//!
//! A move's score is the sum of weight × feature; ties go to the first move in the engine's
//! order. Ending an optional sequence (stop, skip) scores 0; a bullet train (going out at once)
//! is always played. With every weight 0 but `pips` it is `greedy` exactly.
//!
//! The defaults are tuned, one set per preset where that measurably plays better (`set=auto`):
//! under `celko1998` the weights `mtrain tune` (SPSA) found under `celko1998` ([`CELKO_WEIGHTS`]),
//! under every other preset those it found under `wikipedia` ([`FEATURES`]' defaults), both at
//! four players, double-12, full matches (results/tuning, `scripts/studies/study-tuning.sh`, which also
//! measures them). On deals the tuning never saw the wikipedia set beats the hand-set weights the
//! bot had before ([`HAND_WEIGHTS`]) by 155 to 175 Elo under `wikipedia`, `dominorules`,
//! `family_house` and `harbour_cay` (under `dominorules` it is level with weights tuned for
//! it, so one set serves those four), and beats the former `expert` (`expert-v1`) at four players. Under `celko1998` it
//! loses to the hand-set weights (-227 Elo), and the set tuned there beats both (+90 and +314
//! Elo): so `auto` plays that one under `celko1998`. `set=wikipedia`, `set=celko1998` and
//! `set=hand` choose a set whatever the rules; a weight given in the spec overrides its set's.
//! The preset is read when the match starts ([`Strategy::match_start`]); before that (a bot
//! used outside a match) `auto` plays the wikipedia set.
//!
//! Cost per decision: one pass over the moves with a few bit counts each, plus a PLAN search
//! (as `planner`) after a draw or a change of its own train's end: about as much as `planner`,
//! some six times `greedy` (results/tuning/cost.csv, from `mtrain bench`).

use super::plan::PlanCache;
use super::{Bot, BotInfo, ParamInfo, Strategy, param};
use crate::rng::GameRng;
use crate::round::{Move, MoveKind, MoveList, OpponentModel, Seat, TrainId};
use crate::strategy::{Needs, SpecError, StrategySpec};
use crate::tile::Pip;
use crate::view::View;

/// The features, in the order of [`Weighted::weights`]: name, default weight, help. The defaults
/// are the weights SPSA tuning found under `wikipedia` at four players (the tuning study in
/// results/tuning: one set serves four presets of five, not `celko1998`; [`HAND_WEIGHTS`] are
/// the earlier hand-set ones).
#[doc(hidden)] // a built-in bot's features, for the integration tests
pub const FEATURES: [(&str, &str, &str); 13] = [
    ("pips", "0.462543", "the tile's pips over the heaviest tile's"),
    ("urgent", "1.687504", "the tile's pips (as `pips`) when another seat holds at most two tiles"),
    ("double", "0.437424", "the tile is a double"),
    ("open_double", "0.57154", "a double the hand cannot cover itself"),
    ("own", "-0.975204", "on the seat's own train"),
    ("unmark", "1.710909", "on the seat's own train while it is marked"),
    ("mexican", "1.422504", "on a Mexican train"),
    ("other", "1.074482", "on another seat's marked train"),
    ("plan", "1.007879", "the next tile of the seat's longest own-train plan, on its own train"),
    ("plan_tile", "-2.949265", "a tile of that plan spent out of turn"),
    ("follow", "1.106573", "hand tiles fitting the end left, over the hand's size"),
    ("void_end", "0.17044", "leaves a public end the next seat is known to lack"),
    ("unplayed", "-0.515532", "tiles not yet played showing the end left, over the most possible"),
];

/// The hand-set weights `weighted` had before tuning, in the order of [`FEATURES`]: reachable as
/// the spec [`hand_spec`] returns. The tuning study starts from them.
#[doc(hidden)] // a built-in bot's weights, for the integration tests
pub const HAND_WEIGHTS: [(&str, &str); 13] = [
    ("pips", "1"),
    ("urgent", "2"),
    ("double", "0.3"),
    ("open_double", "-0.3"),
    ("own", "0"),
    ("unmark", "1"),
    ("mexican", "0.1"),
    ("other", "0.1"),
    ("plan", "0.5"),
    ("plan_tile", "-0.8"),
    ("follow", "0.3"),
    ("void_end", "0.3"),
    ("unplayed", "-0.2"),
];

/// The weights SPSA tuning found under `celko1998` at four players (results/tuning, the
/// `tune-celko1998` run), in the order of [`FEATURES`]: `set=celko1998`, and `set=auto` under
/// that preset.
#[doc(hidden)] // a built-in bot's weights, for the integration tests
pub const CELKO_WEIGHTS: [(&str, &str); 13] = [
    ("pips", "1.592327"),
    ("urgent", "1.080217"),
    ("double", "1.479812"),
    ("open_double", "0.018564"),
    ("own", "-0.970742"),
    ("unmark", "1.259737"),
    ("mexican", "0.968898"),
    ("other", "0.711524"),
    ("plan", "1.601782"),
    ("plan_tile", "-0.788442"),
    ("follow", "0.757033"),
    ("void_end", "0.373729"),
    ("unplayed", "-0.174103"),
];

/// The spec of `weighted` with the hand-set weights ([`HAND_WEIGHTS`]): `weighted:pips=1,urgent=2,...`.
#[doc(hidden)] // a built-in bot's weights, for the integration tests
pub fn hand_spec() -> String {
    let params: Vec<String> = HAND_WEIGHTS.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("weighted:{}", params.join(","))
}

/// Which set of weights a `weighted` bot starts from (`set=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WeightSet {
    /// The set tuned for the match's preset where one plays measurably better: `celko1998`'s
    /// under `celko1998`, the `wikipedia` set under every other preset.
    Auto,
    /// The set tuned under `wikipedia` ([`FEATURES`]' defaults).
    Wikipedia,
    /// The set tuned under `celko1998` ([`CELKO_WEIGHTS`]).
    Celko1998,
    /// The hand-set weights ([`HAND_WEIGHTS`]).
    Hand,
}

impl WeightSet {
    /// The set a `set=` value names.
    fn parse(v: &str) -> Option<WeightSet> {
        match v {
            "auto" => Some(WeightSet::Auto),
            "wikipedia" => Some(WeightSet::Wikipedia),
            "celko1998" => Some(WeightSet::Celko1998),
            "hand" => Some(WeightSet::Hand),
            _ => None,
        }
    }

    /// The weights of this set under `preset` (`Auto` resolves by it).
    pub fn weights(self, preset: Option<crate::rules::Preset>) -> [f64; FEATURES.len()] {
        let table: [&str; 13] = match self {
            WeightSet::Auto if preset == Some(crate::rules::Preset::Celko1998) => CELKO_WEIGHTS.map(|(_, v)| v),
            WeightSet::Auto | WeightSet::Wikipedia => FEATURES.map(|(_, v, _)| v),
            WeightSet::Celko1998 => CELKO_WEIGHTS.map(|(_, v)| v),
            WeightSet::Hand => HAND_WEIGHTS.map(|(_, v)| v),
        };
        table.map(|v| v.parse().expect("the sets are numbers"))
    }
}

/// The weight `key` that `spec` (a `weighted` spec) plays when it does not give it, under
/// `preset`: its set's (`set=auto` resolves by the preset). `None` for a key that is no weight.
/// `mtrain tune` starts a weight the spec leaves out here, so that it starts from the bot that
/// plays.
pub(crate) fn set_weight(spec: &StrategySpec, key: &str, preset: crate::rules::Preset) -> Option<f64> {
    let set = spec.get("set").and_then(WeightSet::parse).unwrap_or(WeightSet::Auto);
    let i = FEATURES.iter().position(|(k, _, _)| *k == key)?;
    Some(set.weights(Some(preset))[i])
}

/// Largest accepted absolute weight.
pub const MAX_WEIGHT: f64 = 1000.0;

const PARAMS: [ParamInfo; 14] = {
    let mut p = [ParamInfo {
        key: "set",
        default: "auto",
        help: "auto|wikipedia|celko1998|hand: the weights to start from (auto: those tuned under celko1998 when the match plays that preset, else those tuned under wikipedia, the defaults listed here); a weight given overrides its set's",
    }; 14];
    let mut i = 0;
    while i < 13 {
        p[i + 1] = ParamInfo { key: FEATURES[i].0, default: FEATURES[i].1, help: FEATURES[i].2 };
        i += 1;
    }
    p
};

pub(super) const INFO: BotInfo = BotInfo {
    name: "weighted",
    default_field: false,
    about: "scores moves by a weighted sum of named features, the weights tuned by SPSA: under celko1998 the set tuned there, under the other presets the set tuned under wikipedia (every weight a parameter; set=hand for the hand-set weights: weighted:pips=1,urgent=2,double=0.3,open_double=-0.3,own=0,unmark=1,mexican=0.1,other=0.1,plan=0.5,plan_tile=-0.8,follow=0.3,void_end=0.3,unplayed=-0.2)",
    params: &PARAMS,
    build: |spec| Ok(Bot::Weighted(Box::new(Weighted::from_spec(spec)?))),
};

/// Linear move scoring.
#[derive(Clone, Debug)]
#[doc(hidden)] // a built-in bot's own type, for the integration tests and benches
pub struct Weighted {
    weights: [f64; FEATURES.len()],
    set: WeightSet,
    /// The weights the spec gives (bit `i` for feature `i`), which override the set's: they
    /// stay in `weights` whatever the set.
    given: u16,
    pub(super) cache: PlanCache,
}

impl Weighted {
    pub(super) fn from_spec(spec: &StrategySpec) -> Result<Weighted, SpecError> {
        let Some(set) = WeightSet::parse(param(spec, &INFO, "set")) else {
            return Err(spec.bad_value("set", "auto, wikipedia, celko1998, hand"));
        };
        let mut w = Weighted { weights: set.weights(None), set, given: 0, cache: PlanCache::default() };
        for (i, (key, _, _)) in FEATURES.iter().enumerate() {
            let Some(v) = spec.get(key) else { continue };
            w.given |= 1 << i;
            w.weights[i] = match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x.abs() <= MAX_WEIGHT => x,
                _ => {
                    return Err(SpecError::BadValue {
                        bot: INFO.name.into(),
                        key: (*key).into(),
                        value: v.into(),
                        valid: format!("a number from -{MAX_WEIGHT} to {MAX_WEIGHT}"),
                    });
                }
            };
        }
        Ok(w)
    }

    /// The weights for a match under `preset`: the set's, overridden by those given.
    fn resolve(&mut self, preset: Option<crate::rules::Preset>) {
        let base = self.set.weights(preset);
        for (i, (w, b)) in self.weights.iter_mut().zip(base).enumerate() {
            if self.given & (1 << i) == 0 {
                *w = b;
            }
        }
    }

    /// The weights, in the order of [`FEATURES`].
    pub fn weights(&self) -> &[f64; FEATURES.len()] {
        &self.weights
    }
}

/// What [`Weighted`] sees of one move.
#[derive(Clone, Copy, Debug, PartialEq)]
#[doc(hidden)] // a built-in bot's features, for the integration tests
pub enum Features {
    /// Declaring a bullet train: always played.
    Bullet,
    /// Ending an optional sequence (a stop or a skip): scores 0.
    End,
    /// Laying a tile: each feature's value, in the order of [`FEATURES`].
    Place([f64; FEATURES.len()]),
}

/// Tiles of `hand` other than `t` showing `v`: the tiles of `hand.without(t)` showing `v`,
/// counted from `v`'s row without copying the hand.
#[inline]
fn fitting_without(hand: &crate::tile_set::TileSet, t: crate::tile::Tile, v: Pip) -> u32 {
    let (a, b) = (t.low(), t.high());
    let mut row = hand.row(v);
    if v == a {
        row &= !(1 << b.get());
    }
    if v == b {
        row &= !(1 << a.get());
    }
    crate::tile_set::row_len(row)
}

/// What the features of every move of one choice share: the seat, its hand and plan, the
/// table's facts.
struct Facts<'a> {
    me: Seat,
    own: TrainId,
    hand: &'a crate::tile_set::TileSet,
    max: Pip,
    heaviest: f64,
    hand_size: f64,
    next: Seat,
    next_voids: u32,
    urgent: bool,
    marked: bool,
    plan_next: Option<crate::tile::Tile>,
    plan_set: &'a crate::tile_set::TileSet,
}

/// What the features of every move of `view`'s seat share, the plan read from `cache`.
#[inline(always)]
fn facts<'a>(cache: &'a mut PlanCache, view: &View<'a>) -> Facts<'a> {
    let me = view.seat();
    let n = view.players() as usize;
    let hand = view.hand();
    let own = TrainId::personal(me);
    let max = view.rules().set;
    let (rest, plan_set) = cache.rest(hand, view.train(own).end);
    Facts {
        me,
        own,
        hand,
        max,
        heaviest: 2.0 * f64::from(max.get()).max(1.0),
        hand_size: f64::from(hand.len() as u32).max(1.0),
        next: Seat::from_index((me.index() + 1) % n),
        next_voids: view.known_voids(Seat::from_index((me.index() + 1) % n)),
        urgent: (0..n).any(|s| s != me.index() && view.hand_size(Seat::from_index(s)) <= 2),
        marked: view.is_marked(me),
        plan_next: rest.first().copied(),
        plan_set,
    }
}

/// What receives a move's features from [`Facts::place`], in the order of [`FEATURES`]: the
/// array of their values ([`Values`], what a hint explains) or the weighted sum ([`Score`], what
/// a pick compares).
trait Sink {
    /// Feature `i` has the value `x` (a feature never given is 0).
    fn value(&mut self, i: usize, x: f64);
    /// Feature `i` is 1 if `on`, else 0.
    fn flag(&mut self, i: usize, on: bool);
}

/// The features' values.
#[derive(Debug)]
struct Values([f64; FEATURES.len()]);

impl Sink for Values {
    #[inline(always)]
    fn value(&mut self, i: usize, x: f64) {
        self.0[i] = x;
    }

    #[inline(always)]
    fn flag(&mut self, i: usize, on: bool) {
        self.0[i] = f64::from(u8::from(on));
    }
}

/// The weighted sum of the features, added in the order of [`FEATURES`]. A feature that is 0
/// is not added and a flag adds its weight: the sum of every value times its weight, added in
/// that order, to the bit, except that a sum of zero may differ in its sign, which no
/// comparison sees (`0.0 * w` is a zero, and adding a zero leaves any other sum as it is;
/// `1.0 * w` is `w`). The test `the_score_is_the_sum_of_the_values_times_the_weights` holds
/// it to that sum.
struct Score<'w> {
    weights: &'w [f64; FEATURES.len()],
    sum: f64,
}

impl Sink for Score<'_> {
    #[inline(always)]
    fn value(&mut self, i: usize, x: f64) {
        self.sum += x * self.weights[i];
    }

    #[inline(always)]
    fn flag(&mut self, i: usize, on: bool) {
        if on {
            self.sum += self.weights[i];
        }
    }
}

impl Facts<'_> {
    /// Gives `sink` the features of laying `t` on `train`, leaving `end` showing, of which
    /// `unplayed` tiles are not yet on the table: in the order of [`FEATURES`].
    #[inline(always)]
    fn place(&self, t: crate::tile::Tile, train: TrainId, end: Pip, unplayed: u32, sink: &mut impl Sink) {
        let on_own = train == self.own;
        let pips = f64::from(t.pips()) / self.heaviest;
        let is_plan = on_own && self.plan_next == Some(t);
        let public = !on_own || self.marked;
        sink.value(0, pips);
        if self.urgent {
            sink.value(1, pips);
        }
        sink.flag(2, t.is_double());
        sink.flag(3, t.is_double() && fitting_without(self.hand, t, t.low()) == 0);
        sink.flag(4, on_own);
        sink.flag(5, on_own && self.marked);
        sink.flag(6, train.is_mexican());
        sink.flag(7, train.owner().is_some_and(|s| s != self.me));
        sink.flag(8, is_plan);
        sink.flag(9, self.plan_set.contains(t) && !is_plan);
        sink.value(10, f64::from(fitting_without(self.hand, t, end)) / self.hand_size);
        sink.flag(11, public && self.next != self.me && self.next_voids & (1 << end.get()) != 0);
        sink.value(12, f64::from(unplayed) / f64::from(self.max.get() + 2));
    }

    /// The features' values (see [`Facts::place`]).
    #[inline(always)]
    fn values(&self, t: crate::tile::Tile, train: TrainId, end: Pip, unplayed: u32) -> [f64; FEATURES.len()] {
        let mut v = Values([0.0; FEATURES.len()]);
        self.place(t, train, end, unplayed, &mut v);
        v.0
    }

    /// The weighted sum of the features (see [`Facts::place`] and [`Score`]).
    #[inline(always)]
    fn score(&self, w: &[f64; FEATURES.len()], t: crate::tile::Tile, train: TrainId, end: Pip, unplayed: u32) -> f64 {
        let mut s = Score { weights: w, sum: 0.0 };
        self.place(t, train, end, unplayed, &mut s);
        s.sum
    }
}

impl Weighted {
    /// Calls `f(i, score)` for every legal move in order: the weighted sum of its features
    /// (declaring a bullet train scores infinity, a stop or a skip 0). [`Strategy::choose`]
    /// plays the first best; `expert`'s inference reads the scores as a stochastic policy.
    #[inline]
    fn for_each_score(&mut self, view: &View<'_>, moves: &[Move], mut f: impl FnMut(usize, f64)) {
        let wild = view.rules().blanks_wild;
        let facts = facts(&mut self.cache, view);
        let w = &self.weights;
        for (i, m) in moves.iter().enumerate() {
            let score = match m.kind() {
                MoveKind::Bullet => f64::INFINITY,
                MoveKind::Stop | MoveKind::Skip => 0.0,
                MoveKind::Place(p) => {
                    let end = p.new_end(view.train(p.train).end, wild);
                    facts.score(w, p.tile, p.train, end, view.unplayed(end))
                }
            };
            f(i, score);
        }
    }

    /// Calls `f(i, features)` for every legal move in order: its features in the order of
    /// [`FEATURES`].
    #[inline]
    fn for_each_feature(&mut self, view: &View<'_>, moves: &[Move], mut f: impl FnMut(usize, Features)) {
        let wild = view.rules().blanks_wild;
        let facts = facts(&mut self.cache, view);
        for (i, m) in moves.iter().enumerate() {
            let features = match m.kind() {
                MoveKind::Bullet => Features::Bullet,
                MoveKind::Stop | MoveKind::Skip => Features::End,
                MoveKind::Place(p) => {
                    let end = p.new_end(view.train(p.train).end, wild);
                    Features::Place(facts.values(p.tile, p.train, end, view.unplayed(end)))
                }
            };
            f(i, features);
        }
    }

    /// [`Strategy::choose`] among compact moves `(train, v, q)` (tile `[v|q]` laid on `train`,
    /// whose end shows `v`), read from the round state: the plain-rules kernel's listing turns
    /// ask this. Under the plain rules the kernel plays there is no bullet, stop or skip and no
    /// wild blank, so the end a move leaves is `q`; the features ([`Facts::place`]), their sum
    /// and the first best are [`Strategy::choose`]'s: the same pick, bit for bit.
    pub(super) fn pick_compact(
        &mut self,
        st: &crate::round::RoundState,
        me: Seat,
        moves: &[(TrainId, Pip, Pip)],
    ) -> usize {
        let view = st.view(me);
        let facts = facts(&mut self.cache, &view);
        let w = &self.weights;
        let (mut best, mut best_score) = (0, f64::NEG_INFINITY);
        for (i, &(train, v, q)) in moves.iter().enumerate() {
            let score = facts.score(w, crate::tile::Tile::new(v, q), train, q, st.unplayed(q));
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        best
    }

    /// The features of every legal move, in order (see [`Features`]): what a hint reads to say
    /// why one move scores above another.
    pub fn features(&mut self, view: &View<'_>, moves: &[Move]) -> Vec<Features> {
        let mut out = Vec::with_capacity(moves.len());
        self.for_each_feature(view, moves, |_, x| out.push(x));
        out
    }
}

/// As an opponent model for inference from behaviour (`expert:infer=policy`): the score of
/// every legal move (see [`Weighted::for_each_score`]).
impl OpponentModel for Weighted {
    fn move_scores(&mut self, view: &View<'_>, moves: &MoveList, out: &mut Vec<f64>) {
        out.clear();
        self.for_each_score(view, moves, |_, s| out.push(s));
    }
}

impl Strategy for Weighted {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
        let (mut best, mut best_score) = (0, f64::NEG_INFINITY);
        self.for_each_score(view, moves, |i, score| {
            if score > best_score {
                best = i;
                best_score = score;
            }
        });
        best
    }

    fn round_start(&mut self, _view: &View<'_>) {
        self.cache.reset();
    }

    /// `set=auto` picks its weights by the match's preset.
    fn match_start(&mut self, start: &crate::strategy::MatchStart<'_>) {
        self.resolve(Some(start.rules.preset));
    }

    /// `void_end` reads the voids the table has revealed; no random draw.
    fn needs(&self) -> Needs {
        Needs::NOTHING.voids(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::round::{History, RoundState, Workspace, recorded_rounds};

    /// [`Score`] adds what [`Values`] holds times the weights, in order, to the bit (a sum of
    /// zero may differ in sign only): over random values, flags and weights, zeros included,
    /// fed as [`Facts::place`] feeds them.
    #[test]
    fn the_score_is_the_sum_of_the_values_times_the_weights() {
        let mut k = 0u64;
        let mut next = || {
            k += 1;
            crate::rng::mix(11, k)
        };
        let unit = |r: u64| if r.is_multiple_of(4) { 0.0 } else { (r >> 11) as f64 / (1u64 << 53) as f64 };
        let (mut zero_sums, mut cases) = (0, 0);
        for _ in 0..20_000 {
            let w: [f64; FEATURES.len()] = std::array::from_fn(|_| {
                let r = next();
                if r.is_multiple_of(5) { 0.0 } else { ((r >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 6.0 }
            });
            let bits = next();
            let (pips, follow, unplayed) = (unit(next()), unit(next()), unit(next()));
            let mut values = Values([0.0; FEATURES.len()]);
            let mut score = Score { weights: &w, sum: 0.0 };
            let feed = |sink: &mut dyn Sink| {
                sink.value(0, pips);
                if bits & 1 != 0 {
                    sink.value(1, pips);
                }
                for i in 2..=9 {
                    sink.flag(i, bits & (1 << i) != 0);
                }
                sink.value(10, follow);
                sink.flag(11, bits & (1 << 11) != 0);
                sink.value(12, unplayed);
            };
            feed(&mut values);
            feed(&mut score);
            let sum: f64 = values.0.iter().zip(&w).map(|(x, w)| x * w).sum();
            assert!(
                score.sum == sum && (sum == 0.0 || score.sum.to_bits() == sum.to_bits()),
                "{} {sum} {values:?} {w:?}",
                score.sum
            );
            zero_sums += usize::from(sum == 0.0);
            cases += 1;
        }
        assert!(zero_sums > 5 && zero_sums < cases / 10, "{zero_sums} sums of zero");
    }

    /// As `expert:infer=policy`'s opponent model, at the temperature it plays: where every seat
    /// plays `weighted`, the true hands are more likely than sampled ones far more often than
    /// not.
    #[test]
    fn as_an_opponent_model_it_favours_the_true_hands() {
        let mut bots: Vec<Bot> = (0..4).map(|_| Bot::parse("weighted").unwrap()).collect();
        let Bot::Weighted(policy) = Bot::parse("weighted").unwrap() else { unreachable!() };
        let mut policy = *policy;
        let mut ws = Workspace::default();
        let (mut probes, mut truth_ahead) = (0, 0);
        let mut sampler = crate::rng::rng_from_seed(5);
        recorded_rounds(12, &mut bots, |state, history| {
            let me = Seat::from_index(0);
            let mut ll = |h: &History, w: &RoundState| h.log_likelihood(w, me, &mut policy, 0.25, &mut ws);
            let truth = ll(history, state);
            let world = state.view(me).sample_world_loose(&mut sampler).unwrap();
            probes += 1;
            truth_ahead += usize::from(truth > ll(history, &world));
        });
        assert!(probes > 100 && truth_ahead * 10 > probes * 6, "{truth_ahead} of {probes}");
    }
}
