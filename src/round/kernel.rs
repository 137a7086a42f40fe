//! The plain-rules kernel: the turns of heaviest-first seats under plain rules, played with
//! their own placement and end of turn.
//!
//! The plain loop ([`super::plain`]) replaced the general machine's dispatch but kept its
//! placement ([`RoundState::place`]) and end of turn ([`RoundState::end_turn`]): each placement
//! converted a tile's triangular index to its halves and back, every turn re-read the rule
//! fields of all five presets and wrote the turn machine's phase and scratch flags into the round
//! state, and the end of every turn called the tap-penalty check. Most simulated turns are a
//! heaviest-first strategy's (`greedy`, the rollouts of `montecarlo`), and for those this module
//! plays the whole turn with:
//!
//! - **moves as (train, end joined, other half)**: the heaviest move is found from the hand's
//!   suit rows without building a tile, and placing it updates the rows from its halves;
//! - **the turn's flags in locals** (placed, drew, marker changed, doubles laid), written back to
//!   the round state only when the loop stops, and no phase at all: a kernel turn starts at a
//!   turn boundary and ends at the next one or at the round's end;
//! - **the rule fields read once per call** ([`Hoisted`]), and the rules the plain family never
//!   plays (taps, uncovered-double penalties, partnerships, several doubles a turn) left out;
//! - **"is this suit played out?"** as a comparison of the played set's row with the full row,
//!   where the general machine counts the row's bits.
//!
//! **A second copy of placement and end of turn, held by tests.** The general machine stays the
//! definition of the rules; this is a second statement of the same steps for the plain family
//! only, kept because the first one cannot be this cheap while it serves every preset. Each step
//! below names the general step it replaces. `tests/plain_path.rs` plays thousands of rounds with
//! heaviest-first seats (alone and mixed with others) both ways over random plain rule
//! combinations and compares outcomes, events and final states; the golden files and
//! `scripts/compare-builds.sh` hold the moves of every bot. It runs only while void inference is
//! off (no strategy at the table reads voids), since its turns keep no void records.
//!
//! **Listing turns, for a table of `weighted` seats** ([`RoundState::play_plain_listed`]): the
//! same steps, but each choice's moves are listed as compact `(train, end, other half)` triples
//! in the order the move list holds them ([`KList`]), the strategy picks among them from the
//! round state directly (`Weighted`'s pick through `Strategy::pick_listed`: no view, no move list, no move to decode),
//! and the void records are kept where the plain loop keeps them (a seat that finds no
//! placement is void in the values offered; after a draw it keeps, the records narrow). These
//! are the rollouts of `expert` and every all-`weighted` table; `tests/plain_path.rs`
//! (`the_listing_kernel_plays_weighteds_game`) compares them with the general machine, void
//! records included in the final states.

use super::event::{Event, Observer};
use super::state::{Phase, RoundState, TurnDouble};
use super::{EndReason, Obligation, Seat, TrainId};
use crate::rules::{MarkerRemoval, MexicanStart, Obligation as ObligationRule, ObligationOrder};
use crate::tile::{Pip, Tile};

/// The rule fields a kernel turn reads, read once for a run of turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Hoisted {
    players: u8,
    /// Every seat's bit.
    pub(super) everyone: u16,
    /// A seat's first turn may use only its own train (under the plain family's one-tile opening).
    first_turn_own_train_only: bool,
    obligation_overrides_first_turn: bool,
    max_mexican_trains: u8,
    mexican_start: MexicanStart,
    parsons_first_move: bool,
    marker_removal: MarkerRemoval,
    only_others_unmark: bool,
    mark_on_empty_boneyard: bool,
    /// An uncovered double obliges (any obligation rule but none: the plain family lays at most
    /// one double a turn, for which every rule reads the same).
    obliges: bool,
    lifo: bool,
    followup_draw_per_double: bool,
    last_of_suit_exempt: bool,
    reprivatise_exempt: bool,
    early_end_when_stuck: bool,
    /// The played set's row of a suit all of whose tiles are on the table.
    full_row: u32,
}

/// The rule facts of the `wikipedia` preset (the default rules), as constants: a run of turns
/// under them is compiled with them ([`Hoisted::wikipedia_facts`]), so that the compiler drops
/// the tests of every other variation (7% of a greedy round's instructions, STEPS.md step 21).
/// The table's size (`players`, `everyone`, `full_row`) stays the run's own. The test
/// `wikipedia_facts_are_the_presets` holds these to `Rules::wikipedia()`.
const WIKIPEDIA: Hoisted = Hoisted {
    players: 0,
    everyone: 0,
    first_turn_own_train_only: true,
    obligation_overrides_first_turn: false,
    max_mexican_trains: 1,
    mexican_start: MexicanStart::AnyTime,
    parsons_first_move: false,
    marker_removal: MarkerRemoval::OwnerOnOwnTrain,
    only_others_unmark: false,
    mark_on_empty_boneyard: true,
    obliges: true,
    lifo: true,
    followup_draw_per_double: true,
    last_of_suit_exempt: true,
    reprivatise_exempt: false,
    early_end_when_stuck: false,
    full_row: 0,
};

impl Hoisted {
    /// The facts of `st`'s rules.
    pub(super) fn of(st: &RoundState) -> Hoisted {
        Hoisted::of_rules(&st.rules, st.players)
    }

    /// The facts of `r` at a table of `players`.
    fn of_rules(r: &crate::rules::Rules, players: u8) -> Hoisted {
        Hoisted {
            players,
            everyone: ((1u32 << players) - 1) as u16,
            first_turn_own_train_only: r.first_turn_own_train_only,
            obligation_overrides_first_turn: r.obligation_overrides_first_turn,
            max_mexican_trains: r.max_mexican_trains,
            mexican_start: r.mexican_start,
            parsons_first_move: r.parsons_first_move,
            marker_removal: r.marker_removal,
            only_others_unmark: r.only_others_unmark,
            mark_on_empty_boneyard: r.mark_on_empty_boneyard,
            obliges: r.obligation != ObligationRule::None,
            lifo: r.obligation_order == ObligationOrder::Lifo,
            followup_draw_per_double: r.followup_draw_per_double,
            last_of_suit_exempt: r.last_of_suit_exempt,
            reprivatise_exempt: r.reprivatise_exempt,
            early_end_when_stuck: r.early_end_when_stuck,
            full_row: (1u32 << (r.set.get() + 1)) - 1,
        }
    }

    /// These facts with the table's size left out.
    #[inline(always)]
    fn rules_only(self) -> Hoisted {
        Hoisted { players: 0, everyone: 0, full_row: 0, ..self }
    }

    /// Whether these are the `wikipedia` preset's rule facts ([`WIKIPEDIA`], whatever the
    /// table's size): then a run of turns may be played with [`Hoisted::wikipedia_facts`].
    #[inline(always)]
    pub(super) fn is_wikipedia(&self) -> bool {
        self.rules_only() == WIKIPEDIA
    }

    /// [`WIKIPEDIA`]'s facts, as constants, with this table's size: to be built where the run
    /// of turns is inlined, so that the compiler sees the constants.
    #[inline(always)]
    pub(super) fn wikipedia_facts(&self) -> Hoisted {
        Hoisted { players: self.players, everyone: self.everyone, full_row: self.full_row, ..WIKIPEDIA }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`WIKIPEDIA`] is what `Rules::wikipedia()` gives at every table size and set; a rule
    /// changed makes other facts.
    #[test]
    fn wikipedia_facts_are_the_presets() {
        let mut r = crate::rules::Rules::wikipedia();
        for set in [6, 9, 12, 15, 18] {
            r.set = Pip::from_u8(set);
            for players in 2..=8 {
                let k = Hoisted::of_rules(&r, players);
                assert!(k.is_wikipedia(), "{k:?}");
                assert_eq!(k.wikipedia_facts(), k);
            }
        }
        r.obligation_order = ObligationOrder::Fifo;
        assert!(!Hoisted::of_rules(&r, 4).is_wikipedia());
        r.obligation_order = ObligationOrder::Lifo;
        r.mark_on_empty_boneyard = false;
        assert!(!Hoisted::of_rules(&r, 4).is_wikipedia());
    }
}

/// What a kernel turn has done so far (the general machine's `TurnScratch` flags, in locals).
#[derive(Clone, Copy, Default, Debug)]
pub(super) struct Flags {
    placed: bool,
    drew: bool,
    marker_changed: bool,
    /// Doubles laid this turn and not yet settled by the end of the turn (0 or 1; the slot is
    /// `turn.doubles[0]` of the round state).
    doubles: u8,
}

/// A placement: `[v|q]` on `train`, whose open end shows `v`; `q` becomes the open end.
#[derive(Clone, Copy, Debug)]
struct KMove {
    train: TrainId,
    v: Pip,
    q: Pip,
}

/// The heaviest-first pick among the moves gathered: whether there are none, one or several,
/// and the first with the most pips in the order the move list would hold them.
#[derive(Clone, Copy)]
struct Best {
    /// Exact up to one, and at least 2 for several.
    count: u32,
    /// The pick's pips, -1 before the first move.
    pips: i32,
    m: KMove,
}

/// What the target walk gathers into: whether nothing was gathered yet (the Mexican start that
/// is allowed only when no other play is).
trait Gathered {
    fn is_empty(&self) -> bool;
}

impl Gathered for Best {
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl Gathered for KList {
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Best {
    #[inline(always)]
    fn new() -> Best {
        Best {
            count: 0,
            pips: -1,
            m: KMove { train: TrainId::personal(Seat::from_index(0)), v: Pip::ZERO, q: Pip::ZERO },
        }
    }

    /// The tiles `[v|q]` of `row` (bit `q`) on `train`: a row lists them by rising `q`, so its
    /// heaviest is its highest bit, and one tile is a row with a single bit.
    #[inline(always)]
    fn row(&mut self, row: u32, v: Pip, train: TrainId) {
        if row != 0 {
            self.count += 1 + u32::from(row & (row - 1) != 0);
            let q = 31 - row.leading_zeros();
            let pips = i32::from(v.get()) + q as i32;
            if pips > self.pips {
                self.pips = pips;
                self.m = KMove { train, v, q: Pip::from_u8(q as u8) };
            }
        }
    }

    /// One move (the drawn tile on a train it fits): its pips are the same wherever it goes, so
    /// only the first is kept.
    #[inline(always)]
    fn one(&mut self, m: KMove) {
        if self.count == 0 {
            self.m = m;
        }
        self.count += 1;
    }
}

impl RoundState {
    /// Plays the current seat's whole turn (the plain loop's `plain_turn` with a heaviest-first
    /// pick) and returns the turn's flags. The caller guarantees plain rules, a turn boundary
    /// and void inference off. Inlined into the loop: called, a turn costs about 1,000
    /// instructions more a round (the rule facts and the round state's addresses reloaded).
    #[inline(always)]
    pub(super) fn kernel_turn<O: Observer>(&mut self, k: &Hoisted, obs: &mut O) -> Flags {
        let first = self.stats.turns_taken[self.current.index()] == 0;
        self.kernel_turn_first(first, k, obs)
    }

    /// [`RoundState::kernel_turn`] where the caller knows whether this is the seat's first
    /// turn of the round: the loops that play every seat's turns pass a constant, so that the
    /// first-turn rules (the own train only, the no-start statistic, the Parsons start, a
    /// Mexican train after the opening go-round) cost nothing once every seat has played.
    #[inline(always)]
    pub(super) fn kernel_turn_first<O: Observer>(&mut self, first: bool, k: &Hoisted, obs: &mut O) -> Flags {
        let p = self.current;
        let pi = p.index();
        debug_assert_eq!(first, self.stats.turns_taken[pi] == 0);
        let mut f = Flags::default();
        // TurnStart: the no-start statistic (`begin_turn`).
        if first && self.table.trains[pi].len == 0 && !self.holdings.hands[pi].has_suit(self.table.trains[pi].end) {
            self.stats.no_start |= p.bit();
        }
        let restricted = k.first_turn_own_train_only && first;
        if self.table.pending_len > 0 {
            self.kernel_cover(p, restricted, k, &mut f, obs);
        } else {
            self.kernel_normal(p, first, restricted, k, &mut f, obs);
        }
        f
    }

    /// The turn's flags as the general machine leaves them: called when the loop stops after
    /// a kernel turn.
    pub(super) fn kernel_write_back(&mut self, f: Flags) {
        self.turn.clear();
        self.turn.placed = f.placed;
        self.turn.drew = f.drew;
        self.turn.marker_changed = f.marker_changed;
        self.turn.doubles_len = f.doubles;
    }

    /// OBLIGATED (`plain_cover`): cover the obligation to serve from hand or with one drawn
    /// tile, or (first turn restricted, another seat's double) draw, keep and mark.
    #[inline(always)]
    fn kernel_cover<O: Observer>(&mut self, p: Seat, restricted: bool, k: &Hoisted, f: &mut Flags, obs: &mut O) {
        let n = self.table.pending_len as usize;
        let ob = if k.lifo { self.table.pending[n - 1] } else { self.table.pending[0] };
        if restricted && !k.obligation_overrides_first_turn && ob.train.owner().is_some_and(|q| q != p) {
            // O2 (docs/rules.md §11).
            let _ = self.kernel_draw(p, f, obs);
            self.void_kept_draw(p, 0);
            self.kernel_mark(p, f, obs);
            self.kernel_end(p, k, f, obs);
            return;
        }
        let row = self.holdings.hands[p.index()].row(ob.value);
        if row != 0 {
            let m = self.kernel_pick_row(row, ob.value, ob.train);
            self.kernel_place_and_end(p, m, k, f, obs);
            return;
        }
        match self.kernel_draw(p, f, obs) {
            Some(t) if t.contains(ob.value) => {
                let m = KMove { train: ob.train, v: ob.value, q: t.other(ob.value) };
                self.kernel_place_and_end(p, m, k, f, obs);
            }
            Some(_) => {
                self.kernel_cover_failed(k);
                self.kernel_mark(p, f, obs);
                self.kernel_end(p, k, f, obs);
            }
            None => {
                self.kernel_cover_failed(k);
                if k.mark_on_empty_boneyard {
                    self.kernel_mark(p, f, obs);
                }
                self.kernel_end(p, k, f, obs);
            }
        }
    }

    /// The heaviest of one row's moves (a cover or a follow-up), counting a decision when the
    /// row holds several (`plain_pick`).
    #[inline(always)]
    fn kernel_pick_row(&mut self, row: u32, v: Pip, train: TrainId) -> KMove {
        if row & (row - 1) != 0 {
            self.stats.decisions += 1;
        }
        KMove { train, v, q: Pip::from_u8((31 - row.leading_zeros()) as u8) }
    }

    /// A failed attempt at the obligation served (`note_cover_failure` in the cover phase).
    #[inline(always)]
    fn kernel_cover_failed(&mut self, k: &Hoisted) {
        let i = if k.lifo { self.table.pending_len as usize - 1 } else { 0 };
        self.table.pending_fails[i] = self.table.pending_fails[i].saturating_add(1);
    }

    /// NORMAL (`plain_normal`): the heaviest placement on an eligible train or a new Mexican
    /// train, from hand or with one drawn tile; a double then owes its follow-up.
    #[inline(always)]
    fn kernel_normal<O: Observer>(
        &mut self,
        p: Seat,
        first: bool,
        restricted: bool,
        k: &Hoisted,
        f: &mut Flags,
        obs: &mut O,
    ) {
        let hand = &self.holdings.hands[p.index()];
        let mut best = Best::new();
        self.kernel_targets(p, first, restricted, k, &mut best, |b, v, t| b.row(hand.row(v), v, t));
        if best.count == 0 {
            let Some(d) = self.kernel_draw(p, f, obs) else {
                if k.mark_on_empty_boneyard {
                    self.kernel_mark(p, f, obs);
                }
                self.kernel_end(p, k, f, obs);
                return;
            };
            let (lo, hi) = (d.low(), d.high());
            self.kernel_targets(p, first, restricted, k, &mut best, |b, v, t| {
                if v == lo {
                    b.one(KMove { train: t, v, q: hi });
                } else if v == hi {
                    b.one(KMove { train: t, v, q: lo });
                }
            });
            if best.count == 0 {
                self.kernel_mark(p, f, obs);
                self.kernel_end(p, k, f, obs);
                return;
            }
        }
        if best.count > 1 {
            self.stats.decisions += 1;
        }
        let m = best.m;
        let own_lifted = self.kernel_place(p, m, k, f, obs);
        if self.outcome.is_some() {
            return;
        }
        if m.v != m.q {
            self.kernel_end_or_stuck(p, k, f, obs);
            return;
        }
        // A double (`after_double`): exempt, it ends the turn; else its follow-up.
        let v = m.q;
        if (k.last_of_suit_exempt && self.table.played.row(v) == k.full_row) || (k.reprivatise_exempt && own_lifted) {
            self.turn.doubles[0].exempt = true;
            self.kernel_end_or_stuck(p, k, f, obs);
            return;
        }
        if k.early_end_when_stuck && self.kernel_stuck(Phase::FollowUp { train: m.train, value: v, drawn: None }) {
            self.finish(EndReason::Stuck, true, obs);
            return;
        }
        self.kernel_follow_up(p, m.train, v, k, f, obs);
    }

    /// NORMAL_OPTIONS(p, S) (`plain_normal_moves`): `push(best, end, train)` for the own
    /// train, then (unless the first turn is restricted) the other seats' marked trains
    /// clockwise and the started Mexican trains, then the Mexican start if allowed.
    #[inline(always)]
    fn kernel_targets<C: Gathered>(
        &self,
        p: Seat,
        first: bool,
        restricted: bool,
        k: &Hoisted,
        best: &mut C,
        mut push: impl FnMut(&mut C, Pip, TrainId),
    ) {
        let trains = &self.table.trains;
        push(best, trains[p.index()].end, TrainId::personal(p));
        let started = self.table.mexican_started;
        if !restricted {
            self.for_each_marked_other(p, p.bit(), |t| push(best, trains[t.index()].end, t));
            // One bounds check for the started trains' slice, not one a train.
            let first = TrainId::mexican(0).index();
            for (i, tr) in trains[first..first + started as usize].iter().enumerate() {
                push(best, tr.end, TrainId::mexican(i));
            }
        }
        if started < k.max_mexican_trains {
            let ok = if restricted {
                // Parsons (docs/rules.md §11): the round's very first move may start it.
                k.parsons_first_move && p == self.first && self.stats.turns == 0
            } else {
                match k.mexican_start {
                    MexicanStart::AnyTime => true,
                    MexicanStart::RequiresOwnTrainPlay => self.stats.played_own & p.bit() != 0,
                    MexicanStart::AfterOpeningGoRound => {
                        !first && self.stats.turns_taken[..k.players as usize].iter().all(|&t| t > 0)
                    }
                    MexicanStart::OnlyIfNoOtherPlay => best.is_empty(),
                }
            };
            if ok {
                push(best, self.table.e, TrainId::mexican(started as usize));
            }
        }
    }

    /// FOLLOWUP (`plain_follow_up`, cover the same double): from hand, else one draw (when
    /// the rules allow a draw after this turn's earlier one), else the turn fails.
    #[inline(always)]
    fn kernel_follow_up<O: Observer>(
        &mut self,
        p: Seat,
        train: TrainId,
        v: Pip,
        k: &Hoisted,
        f: &mut Flags,
        obs: &mut O,
    ) {
        let row = self.holdings.hands[p.index()].row(v);
        if row != 0 {
            let m = self.kernel_pick_row(row, v, train);
            self.kernel_place_and_end(p, m, k, f, obs);
            return;
        }
        if f.drew && !k.followup_draw_per_double {
            self.kernel_mark(p, f, obs);
            self.kernel_end(p, k, f, obs);
            return;
        }
        match self.kernel_draw(p, f, obs) {
            Some(t) if t.contains(v) => {
                let m = KMove { train, v, q: t.other(v) };
                self.kernel_place_and_end(p, m, k, f, obs);
            }
            Some(_) => {
                self.kernel_mark(p, f, obs);
                self.kernel_end(p, k, f, obs);
            }
            // An emptied hand goes out (an edge case of docs/rules.md §11).
            None if self.holdings.hands[p.index()].is_empty() => self.finish(EndReason::Out(p), true, obs),
            None => {
                if k.mark_on_empty_boneyard {
                    self.kernel_mark(p, f, obs);
                }
                self.kernel_end(p, k, f, obs);
            }
        }
    }

    /// DRAW(p) (`draw`).
    #[inline(always)]
    fn kernel_draw<O: Observer>(&mut self, p: Seat, f: &mut Flags, obs: &mut O) -> Option<Tile> {
        let t = self.holdings.boneyard.draw()?;
        self.holdings.hands[p.index()].insert_new(t);
        self.stats.draws[p.index()] += 1;
        self.stats.total_draws += 1;
        f.drew = true;
        obs.event(&Event::Draw { seat: p, tile: t });
        Some(t)
    }

    /// MARK(p) without partnerships (`mark_one`).
    #[inline(always)]
    fn kernel_mark<O: Observer>(&mut self, p: Seat, f: &mut Flags, obs: &mut O) {
        if self.table.markers & p.bit() == 0 {
            self.table.markers |= p.bit();
            f.marker_changed = true;
            obs.event(&Event::Mark { seat: p });
        }
    }

    /// PLACE(p, t, τ) (`place` with `PLAIN`), from the move's halves; returns whether p's own
    /// marker came off.
    #[inline(always)]
    fn kernel_place<O: Observer>(&mut self, p: Seat, m: KMove, k: &Hoisted, f: &mut Flags, obs: &mut O) -> bool {
        let KMove { train, v, q } = m;
        self.holdings.hands[p.index()].remove_halves(v, q);
        self.table.played.insert_halves(v, q);
        let tr = &mut self.table.trains[train.index()];
        debug_assert_eq!(tr.end, v, "the move's end is its train's");
        let started = tr.len == 0 && train.is_mexican();
        let covered = tr.open_double;
        let double = v == q;
        tr.end = q;
        tr.len += 1;
        tr.open_double = double;
        if started {
            self.table.mexican_started += 1;
            if train == TrainId::mexican(0) {
                self.table.mexican_starter = Some(p);
            }
        }
        f.placed = true;
        // `failed` (a partnership's failed turns) stays empty without partnerships.
        debug_assert_eq!(self.failed, 0);
        obs.event(&Event::Play { seat: p, tile: Tile::new(v, q), train, end: q });
        if covered {
            self.table.remove_pending(train);
        }
        if double {
            self.turn.doubles[0] = TurnDouble { train, value: q, exempt: false };
            f.doubles = 1;
        }
        let owner = train.owner();
        let own = owner == Some(p);
        if own {
            self.stats.played_own |= p.bit();
        }
        let lifted = match k.marker_removal {
            MarkerRemoval::OwnerOnOwnTrain if own => p.bit(),
            MarkerRemoval::OwnerOnOwnTrain => 0,
            MarkerRemoval::AnyPlayOnTrain => match owner {
                Some(o) if k.only_others_unmark && o == p => 0,
                Some(o) => o.bit(),
                None => 0,
            },
            MarkerRemoval::OwnerAnywhere => p.bit(),
        } & self.table.markers;
        if lifted != 0 {
            // One seat's marker at most: the train's owner or p.
            self.table.markers &= !lifted;
            f.marker_changed = true;
            obs.event(&Event::Unmark { seat: Seat::from_index(lifted.trailing_zeros() as usize) });
        }
        let own_lifted = lifted & p.bit() != 0;
        if self.holdings.hands[p.index()].is_empty() && !(double && self.cover_owed(q, own_lifted)) {
            self.finish(EndReason::Out(p), true, obs);
        }
        own_lifted
    }

    /// The turn's last placement, then the end of the turn unless it ended the round.
    #[inline(always)]
    fn kernel_place_and_end<O: Observer>(&mut self, p: Seat, m: KMove, k: &Hoisted, f: &mut Flags, obs: &mut O) {
        self.kernel_place(p, m, k, f, obs);
        if self.outcome.is_none() {
            self.kernel_end_or_stuck(p, k, f, obs);
        }
    }

    /// After the placements of a turn: the stuck test (if the rules end stuck rounds), else END.
    #[inline(always)]
    fn kernel_end_or_stuck<O: Observer>(&mut self, p: Seat, k: &Hoisted, f: &mut Flags, obs: &mut O) {
        if k.early_end_when_stuck && self.kernel_stuck(Phase::Normal(None)) {
            self.finish(EndReason::Stuck, true, obs);
        } else {
            self.kernel_end(p, k, f, obs);
        }
    }

    /// STUCK() as the general machine tests it in `phase` (rare: only under
    /// `early_end_when_stuck`); the kernel keeps no phase, so it is set for the test and put back.
    #[cold]
    #[inline(never)]
    fn kernel_stuck(&mut self, phase: Phase) -> bool {
        let before = std::mem::replace(&mut self.phase, phase);
        let stuck = self.stuck();
        self.phase = before;
        stuck
    }

    /// END(p) (`end_turn` and `end_turn_rest` under plain rules: no tap penalty model, no
    /// uncovered-double penalty, at most one double a turn).
    #[inline(always)]
    fn kernel_end<O: Observer>(&mut self, p: Seat, k: &Hoisted, f: &mut Flags, obs: &mut O) {
        if f.doubles != 0 {
            let d = self.turn.doubles[0];
            let tr = &self.table.trains[d.train.index()];
            if k.obliges && !d.exempt && tr.open_double && tr.end == d.value {
                self.table.push_pending(Obligation { train: d.train, value: d.value, placer: p }, 1);
            }
            f.doubles = 0;
        }
        let pi = p.index();
        self.stats.turns_taken[pi] += 1;
        self.stats.turns += 1;
        if f.placed || f.drew || f.marker_changed {
            self.idle = 0;
            self.idle_seats = 0;
        } else {
            self.idle = self.idle.saturating_add(1);
            self.idle_seats |= p.bit();
            obs.event(&Event::Pass { seat: p });
            // Blocked: only an idle turn can complete a go-round of idle turns (after any
            // other, the idle count is 0 and the test fails), so only an idle turn tests it.
            if self.holdings.boneyard.is_empty() && self.idle >= k.players && self.idle_seats == k.everyone {
                self.finish(EndReason::Blocked, false, obs);
                return;
            }
        }
        self.current = p.next(k.players);
    }
}

/// The moves of a listing kernel turn's choice, `(train, v, q)` (tile `[v|q]` on `train`, whose
/// end shows `v`), in the order the move list would hold them. Its size bounds a turn's moves
/// as the move list's does (every train slot's end with a full suit row, and the Mexican start).
pub(crate) struct KList {
    moves: [(TrainId, Pip, Pip); super::ALL_TRAIN_SLOTS * crate::tile::PIP_COUNT + 3],
    len: usize,
}

impl KList {
    pub(crate) fn new() -> KList {
        KList {
            moves: [(TrainId::personal(Seat::from_index(0)), Pip::ZERO, Pip::ZERO);
                super::ALL_TRAIN_SLOTS * crate::tile::PIP_COUNT + 3],
            len: 0,
        }
    }
    #[inline(always)]
    fn row(&mut self, mut row: u32, v: Pip, train: TrainId) {
        while row != 0 {
            let q = row.trailing_zeros();
            row &= row - 1;
            self.moves[self.len] = (train, v, Pip::from_u8(q as u8));
            self.len += 1;
        }
    }
    #[inline(always)]
    fn one(&mut self, train: TrainId, v: Pip, q: Pip) {
        self.moves[self.len] = (train, v, q);
        self.len += 1;
    }
}

impl RoundState {
    /// The plain loop for a table whose every pick `pick` makes from the listed compact moves,
    /// with void records kept (see the module docs): until the round ends or, when `LIMITED`,
    /// until [`RoundState::turns`] reaches `until`. The caller guarantees plain rules and a turn
    /// boundary.
    pub(crate) fn play_plain_listed<const LIMITED: bool, O: Observer>(
        &mut self,
        obs: &mut O,
        until: u32,
        list: &mut KList,
        pick: &mut impl FnMut(&RoundState, Seat, &[(TrainId, Pip, Pip)]) -> usize,
    ) {
        // Under the `wikipedia` preset's rule facts, compiled with them as constants (as the
        // greedy tables' run, `kernel_run`).
        let k = Hoisted::of(self);
        if k.is_wikipedia() {
            self.lrun::<LIMITED, O>(&k.wikipedia_facts(), obs, until, list, pick);
        } else {
            self.lrun::<LIMITED, O>(&k, obs, until, list, pick);
        }
    }

    /// The listing turns under the rule facts `k`, inlined where it is called.
    #[inline(always)]
    fn lrun<const LIMITED: bool, O: Observer>(
        &mut self,
        k: &Hoisted,
        obs: &mut O,
        until: u32,
        list: &mut KList,
        pick: &mut impl FnMut(&RoundState, Seat, &[(TrainId, Pip, Pip)]) -> usize,
    ) {
        let mut last = None;
        while self.outcome.is_none() && (!LIMITED || self.stats.turns < until) {
            let first = self.stats.turns_taken[self.current.index()] == 0;
            last = Some(self.lturn(first, k, obs, list, pick));
        }
        if let Some(f) = last {
            self.kernel_write_back(f);
        }
    }

    #[inline(always)]
    fn lchoose(
        &mut self,
        p: Seat,
        list: &KList,
        pick: &mut impl FnMut(&RoundState, Seat, &[(TrainId, Pip, Pip)]) -> usize,
    ) -> KMove {
        let i = if list.len > 1 {
            self.stats.decisions += 1;
            pick(self, p, &list.moves[..list.len])
        } else {
            0
        };
        let (train, v, q) = list.moves[i];
        KMove { train, v, q }
    }

    #[inline(always)]
    fn lvoid_known(&mut self, p: Seat, bits: u32) {
        if self.voids.track {
            self.voids.known[p.index()] |= bits;
        }
    }

    #[inline(always)]
    fn lvoid_kept(&mut self, p: Seat, bits: u32) {
        if self.voids.track {
            self.void_kept_draw(p, bits);
        }
    }

    #[inline(always)]
    fn lturn<O: Observer>(
        &mut self,
        first: bool,
        k: &Hoisted,
        obs: &mut O,
        list: &mut KList,
        pick: &mut impl FnMut(&RoundState, Seat, &[(TrainId, Pip, Pip)]) -> usize,
    ) -> Flags {
        let p = self.current;
        let pi = p.index();
        let mut f = Flags::default();
        if first && self.table.trains[pi].len == 0 && !self.holdings.hands[pi].has_suit(self.table.trains[pi].end) {
            self.stats.no_start |= p.bit();
        }
        let restricted = k.first_turn_own_train_only && first;
        if self.table.pending_len > 0 {
            self.lcover(p, restricted, k, &mut f, obs, list, pick);
        } else {
            self.lnormal(p, first, restricted, k, &mut f, obs, list, pick);
        }
        f
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn lcover<O: Observer>(
        &mut self,
        p: Seat,
        restricted: bool,
        k: &Hoisted,
        f: &mut Flags,
        obs: &mut O,
        list: &mut KList,
        pick: &mut impl FnMut(&RoundState, Seat, &[(TrainId, Pip, Pip)]) -> usize,
    ) {
        let n = self.table.pending_len as usize;
        let ob = if k.lifo { self.table.pending[n - 1] } else { self.table.pending[0] };
        if restricted && !k.obligation_overrides_first_turn && ob.train.owner().is_some_and(|q| q != p) {
            let _ = self.kernel_draw(p, f, obs);
            self.void_kept_draw(p, 0);
            self.kernel_mark(p, f, obs);
            self.kernel_end(p, k, f, obs);
            return;
        }
        let row = self.holdings.hands[p.index()].row(ob.value);
        if row != 0 {
            list.len = 0;
            list.row(row, ob.value, ob.train);
            let m = self.lchoose(p, list, pick);
            self.kernel_place_and_end(p, m, k, f, obs);
            return;
        }
        self.lvoid_known(p, 1 << ob.value.get());
        match self.kernel_draw(p, f, obs) {
            Some(t) if t.contains(ob.value) => {
                let m = KMove { train: ob.train, v: ob.value, q: t.other(ob.value) };
                self.kernel_place_and_end(p, m, k, f, obs);
            }
            Some(_) => {
                self.lvoid_kept(p, 1 << ob.value.get());
                self.kernel_cover_failed(k);
                self.kernel_mark(p, f, obs);
                self.kernel_end(p, k, f, obs);
            }
            None => {
                self.kernel_cover_failed(k);
                if k.mark_on_empty_boneyard {
                    self.kernel_mark(p, f, obs);
                }
                self.kernel_end(p, k, f, obs);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn lnormal<O: Observer>(
        &mut self,
        p: Seat,
        first: bool,
        restricted: bool,
        k: &Hoisted,
        f: &mut Flags,
        obs: &mut O,
        list: &mut KList,
        pick: &mut impl FnMut(&RoundState, Seat, &[(TrainId, Pip, Pip)]) -> usize,
    ) {
        let hand = self.holdings.hands[p.index()];
        list.len = 0;
        self.kernel_targets(p, first, restricted, k, list, |l, v, t| l.row(hand.row(v), v, t));
        if list.len == 0 {
            // Void in every value offered (`void_targets` of the normal phase): the ends of the
            // trains just walked, the engine's where a Mexican train could start.
            let mut offered = 0u32;
            if self.voids.track {
                self.kernel_targets(p, first, restricted, k, list, |_, v, _| offered |= 1 << v.get());
                self.voids.known[p.index()] |= offered;
            }
            let Some(d) = self.kernel_draw(p, f, obs) else {
                if k.mark_on_empty_boneyard {
                    self.kernel_mark(p, f, obs);
                }
                self.kernel_end(p, k, f, obs);
                return;
            };
            let (lo, hi) = (d.low(), d.high());
            self.kernel_targets(p, first, restricted, k, list, |l, v, t| {
                if v == lo {
                    l.one(t, v, hi);
                } else if v == hi {
                    l.one(t, v, lo);
                }
            });
            if list.len == 0 {
                // The draw kept: the records narrow to the same values (the draw changed no
                // train, marker or first-turn fact).
                if self.voids.track {
                    self.void_kept_draw(p, offered);
                }
                self.kernel_mark(p, f, obs);
                self.kernel_end(p, k, f, obs);
                return;
            }
        }
        let m = self.lchoose(p, list, pick);
        let own_lifted = self.kernel_place(p, m, k, f, obs);
        if self.outcome.is_some() {
            return;
        }
        if m.v != m.q {
            self.kernel_end_or_stuck(p, k, f, obs);
            return;
        }
        let v = m.q;
        if (k.last_of_suit_exempt && self.table.played.row(v) == k.full_row) || (k.reprivatise_exempt && own_lifted) {
            self.turn.doubles[0].exempt = true;
            self.kernel_end_or_stuck(p, k, f, obs);
            return;
        }
        if k.early_end_when_stuck && self.kernel_stuck(Phase::FollowUp { train: m.train, value: v, drawn: None }) {
            self.finish(EndReason::Stuck, true, obs);
            return;
        }
        self.lfollow_up(p, m.train, v, k, f, obs, list, pick);
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn lfollow_up<O: Observer>(
        &mut self,
        p: Seat,
        train: TrainId,
        v: Pip,
        k: &Hoisted,
        f: &mut Flags,
        obs: &mut O,
        list: &mut KList,
        pick: &mut impl FnMut(&RoundState, Seat, &[(TrainId, Pip, Pip)]) -> usize,
    ) {
        let row = self.holdings.hands[p.index()].row(v);
        if row != 0 {
            list.len = 0;
            list.row(row, v, train);
            let m = self.lchoose(p, list, pick);
            self.kernel_place_and_end(p, m, k, f, obs);
            return;
        }
        self.lvoid_known(p, 1 << v.get());
        if f.drew && !k.followup_draw_per_double {
            self.kernel_mark(p, f, obs);
            self.kernel_end(p, k, f, obs);
            return;
        }
        match self.kernel_draw(p, f, obs) {
            Some(t) if t.contains(v) => {
                let m = KMove { train, v, q: t.other(v) };
                self.kernel_place_and_end(p, m, k, f, obs);
            }
            Some(_) => {
                self.lvoid_kept(p, 1 << v.get());
                self.kernel_mark(p, f, obs);
                self.kernel_end(p, k, f, obs);
            }
            None if self.holdings.hands[p.index()].is_empty() => self.finish(EndReason::Out(p), true, obs),
            None => {
                if k.mark_on_empty_boneyard {
                    self.kernel_mark(p, f, obs);
                }
                self.kernel_end(p, k, f, obs);
            }
        }
    }
}
