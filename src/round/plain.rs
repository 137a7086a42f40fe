//! The plain turn loop: a specialised hot path for the common family of rules.
//!
//! [`RoundState::advance`] is a general state machine: every step re-reads the phase, and every
//! move generation and placement tests the rule fields of all five presets and their variations.
//! Most simulations run rules without any of the rare features, and for them a whole turn can be
//! played as straight-line code: begin the turn, generate the moves, ask the strategy only when
//! there is a real choice, place, follow up a double, end the turn. That is this module.
//!
//! **When it runs.** [`RoundState::plain_rules`] says whether the rules are plain: one-tile
//! opening, cover-the-same-double follow-up without the multiple_doubles variation (docs/rules.md §9), no tap penalty, no
//! uncovered-double penalty, and
//! none of partnerships, swan drive, bullet train, public doubles, continuous draw, blanks wild,
//! branching doubles, the doubler's foreign-train exemption or the marked owner's preference
//! (`wikipedia` and `harbour_cay` are plain with any of their named variations apart from those).
//! Every other rule field (first-turn restriction and its exceptions, Mexican start, marker
//! removal, obligations and their order, exemptions, going out on a double, the stuck test,
//! drawing after a failed follow-up, marking on an empty boneyard, scoring) goes through the same
//! helpers as the general machine, and so does void inference when a strategy reads it. The
//! loop starts only at a turn boundary: [`crate::game::play_round`] lets the general machine
//! finish the setup or a turn in progress first.
//!
//! **One set of rules.** The placement (PLACE, [`RoundState::place`] with `PLAIN`, which compiles
//! out the arms of rules the loop never plays) and the end of a turn (END) are the general
//! machine's own functions; the loop replaces only the machine's dispatch: the phase it re-reads
//! at every step, and the move generation's tests of rare rules. The exceptions are the turn of
//! a heaviest-first seat while void inference is off, and every turn of a table of `weighted`
//! seats, which the plain-rules kernel ([`super::kernel`]) plays with its own placement and end
//! of turn, held to these by the same tests.
//!
//! **Seats played from outside.** A stepped match (`BotSeats`: a learner's seat among bots, the
//! Python `vec_env`) runs the loop over every seat's turns: the bots choose inside it, and the
//! first real choice of a seat without a bot stops it (its `choose` answers [`STOP`]) where the
//! general machine's `advance` returns `Step::Choice`, in the same state, with the same moves;
//! the move chosen outside is then played by the general machine. A turn of that seat with no
//! choice in it is played through. `tests/plain_path.rs` compares the state at every such stop.
//!
//! **Same game, by construction and by test.** Each step below names the general step it
//! replaces; under plain rules the general machine's other branches are dead. The round, its
//! events, the strategies' calls (same views, same move lists in the same order) and the final
//! state are identical: `tests/plain_path.rs` plays thousands of rounds both ways, over random
//! plain rule combinations, and compares everything.

use super::event::Observer;
use super::kernel::Hoisted;
use super::movegen::MoveList;
use super::state::{Phase, RoundState};
use super::{Move, Seat, TrainId};
use crate::rules::{BranchingDoubles, DoublesPerTurn, FollowUp, Opening, Rules, TapModel};
use crate::tile::{Pip, Tile};

/// What a [`RoundState::play_plain`] `choose` answers to leave a choice to the outside.
pub(crate) const STOP: usize = usize::MAX;

impl RoundState {
    /// Whether the round stands at a choice: a seat is to pick among two or more moves (where
    /// [`RoundState::advance`] returns `Step::Choice`, or `play_plain` stopped), not between turns
    /// or over.
    pub(crate) fn at_choice(&self) -> bool {
        !matches!(self.phase, Phase::TurnStart | Phase::Over | Phase::Setup)
    }

    /// Whether the rules allow the plain turn loop (see the module docs).
    ///
    /// Every field of [`Rules`] is named here, so a new rule field does not compile until it is
    /// decided whether the plain loop plays it: a condition below, or `_` with why it needs none.
    #[doc(hidden)] // the engine's state, for its tests
    pub fn plain_rules(&self) -> bool {
        Self::rules_are_plain(&self.rules)
    }

    /// [`RoundState::plain_rules`] of a round played under `rules` (a match asks once for all
    /// its rounds).
    pub(crate) fn rules_are_plain(rules: &Rules) -> bool {
        let Rules {
            // The table's size, read by every step alike.
            set: _,
            players: _,
            // Outside the turn loop: the deal, the engine search and its placement (the loop
            // starts after the setup), the first seat, scoring and the match's tie-break.
            preset: _,
            hand_size: _,
            deal_table: _,
            rounds: _,
            engine_mode: _,
            set_aside_from_round2: _,
            first_player: _,
            first_seat: _,
            double_blank_value: _,
            blank_half_value: _,
            blank_scoring: _,
            tie_break: _,
            // Read only under a tap penalty model, which is decided here.
            tap_forget: _,
            tap_catch: _,
            // Played by helpers the loop shares with the general machine.
            first_turn_own_train_only: _,
            mexican_start: _,
            max_mexican_trains: _,
            marker_removal: _,
            mark_on_empty_boneyard: _,
            obligation: _,
            obligation_order: _,
            followup_draw_per_double: _,
            last_of_suit_exempt: _,
            reprivatise_exempt: _,
            go_out_on_double: _,
            early_end_when_stuck: _,
            obligation_overrides_first_turn: _,
            only_others_unmark: _,
            parsons_first_move: _,
            // Decided here.
            opening,
            follow_up,
            doubles_per_turn,
            tap,
            uncovered_double_penalty,
            partnerships,
            swan_drive,
            bullet_train,
            double_makes_train_public,
            continuous_draw,
            blanks_wild,
            branching_doubles,
            doubler_exempt_on_foreign_train,
            marked_owner_must_prefer_own_train,
        } = rules;
        *opening == Opening::OneTile
            && *follow_up == FollowUp::CoverSameDouble
            && *doubles_per_turn != DoublesPerTurn::Unlimited
            && *tap == TapModel::AlwaysAnnounced
            && *uncovered_double_penalty == 0
            && !partnerships
            && !swan_drive
            && !bullet_train
            && !double_makes_train_public
            && !continuous_draw
            && !blanks_wild
            && *branching_doubles == BranchingDoubles::Off
            && !doubler_exempt_on_foreign_train
            && !marked_owner_must_prefer_own_train
    }

    /// Plays the round with the plain loop until it ends or, when `LIMITED`, until
    /// [`RoundState::turns`] reaches `until` (the unlimited loop has no test to pay for), asking `choose(state, seat, moves)` for the index of the
    /// move to play whenever a seat has two or more legal moves. For the seats of `heavy` (a
    /// mask of those whose strategy declares [`crate::Needs::heaviest_first`]) the loop makes that
    /// pick itself, without listing the moves.
    ///
    /// `choose` may answer [`STOP`] (a seat played from outside the loop, such as a learner's):
    /// the loop then stops where the general machine's [`RoundState::advance`] would return
    /// `Step::Choice`, in the same state, with the choice's moves in `moves` in the order
    /// `legal_moves` lists them ([`RoundState::at_choice`] says so); the move chosen is played
    /// with [`RoundState::play_unchecked`].
    ///
    /// The caller guarantees [`RoundState::plain_rules`] and a turn boundary (phase
    /// `TurnStart`, where [`RoundState::advance_until`] stops).
    pub(crate) fn play_plain<const LIMITED: bool, O: Observer>(
        &mut self,
        moves: &mut MoveList,
        obs: &mut O,
        until: u32,
        heavy: u16,
        mut choose: impl FnMut(&RoundState, Seat, &MoveList) -> usize,
    ) {
        debug_assert!(self.plain_rules() && self.phase == Phase::TurnStart);
        if heavy != 0 && !self.voids.track {
            // The heaviest-first seats' turns on the kernel (round/kernel.rs), which keeps no
            // void records: only while no strategy at the table reads them.
            let k = Hoisted::of(self);
            if heavy & k.everyone == k.everyone {
                // Every seat heaviest-first (a greedy table, `montecarlo`'s rollouts).
                // Under the `wikipedia` preset's rule facts (the default rules) the loop is
                // compiled a second time with them as constants, the tests of the other
                // variations dropped (STEPS.md step 21). Each copy is a function of its own
                // (step 22).
                if k.is_wikipedia() {
                    self.kernel_run_wikipedia::<LIMITED, O>(&k, obs, until);
                } else {
                    self.kernel_run_facts::<LIMITED, O>(&k, obs, until);
                }
                return;
            }
            let mut last = None;
            while self.outcome.is_none() && (!LIMITED || self.stats.turns < until) {
                if heavy & self.current.bit() != 0 {
                    last = Some(self.kernel_turn(&k, obs));
                } else {
                    // The turn clears the flags a kernel turn left.
                    last = None;
                    self.plain_turn(moves, obs, &mut choose);
                    if self.phase != Phase::TurnStart {
                        // Over, or stopped at a choice (`STOP`).
                        return;
                    }
                }
            }
            if let Some(f) = last {
                self.kernel_write_back(f);
            }
            return;
        }
        while self.outcome.is_none() && (!LIMITED || self.stats.turns < until) {
            if heavy & self.current.bit() != 0 {
                self.plain_turn(&mut Heaviest::default(), obs, &mut choose);
            } else {
                self.plain_turn(moves, obs, &mut choose);
                if self.phase != Phase::TurnStart {
                    // Over, or stopped at a choice (`STOP`).
                    return;
                }
            }
        }
    }

    /// [`RoundState::kernel_run`] under the `wikipedia` preset's rule facts, as constants.
    ///
    /// Not inlined into `play_plain`, and neither is its twin below: there, the run was
    /// compiled with the rest of the round's loop around it, into code that took about 10% more
    /// time a round for 2.5% more instructions, and into a different copy for each caller (the
    /// tournament's ran some 5% slower than the example's for 1.2% fewer instructions). A call
    /// a round costs nothing measurable, and every caller now runs the same code (STEPS.md
    /// step 22).
    #[inline(never)]
    fn kernel_run_wikipedia<const LIMITED: bool, O: Observer>(&mut self, k: &Hoisted, obs: &mut O, until: u32) {
        self.kernel_run::<LIMITED, O>(&k.wikipedia_facts(), obs, until);
    }

    /// [`RoundState::kernel_run`] under the rule facts `k`.
    #[inline(never)]
    fn kernel_run_facts<const LIMITED: bool, O: Observer>(&mut self, k: &Hoisted, obs: &mut O, until: u32) {
        self.kernel_run::<LIMITED, O>(k, obs, until);
    }

    /// The turns of a table whose every seat is heaviest-first, on the kernel, under the rule
    /// facts `k`: inlined where it is called (the two functions above), so that facts built
    /// there as constants ([`Hoisted::wikipedia_facts`]) compile as such.
    #[inline(always)]
    fn kernel_run<const LIMITED: bool, O: Observer>(&mut self, k: &Hoisted, obs: &mut O, until: u32) {
        // The seats play in turn (plain rules skip no one), so once the seat to play has
        // played, every seat has: the first go-round's turns, then the rest with no first-turn
        // rules to test.
        let mut last = None;
        while self.outcome.is_none()
            && (!LIMITED || self.stats.turns < until)
            && self.stats.turns_taken[self.current.index()] == 0
        {
            last = Some(self.kernel_turn_first(true, k, obs));
        }
        while self.outcome.is_none() && (!LIMITED || self.stats.turns < until) {
            last = Some(self.kernel_turn_first(false, k, obs));
        }
        if let Some(f) = last {
            self.kernel_write_back(f);
        }
    }

    /// One whole turn (general: `advance` from `TurnStart` to the next `TurnStart` or `Over`).
    fn plain_turn<G: Gather, O: Observer>(
        &mut self,
        moves: &mut G,
        obs: &mut O,
        choose: &mut impl FnMut(&RoundState, Seat, &MoveList) -> usize,
    ) {
        let p = self.current;
        // TurnStart (tap penalties and skips never arise under plain rules).
        self.begin_turn();
        if self.table.pending_len > 0 {
            self.phase = Phase::Cover(None);
            if self.cover_forbidden_by_first_turn() {
                // O2 (docs/rules.md §11): draw, keep, mark.
                let _ = self.draw(p, obs);
                self.void_kept_draw(p, 0);
                self.mark(p, obs);
                self.end_turn(obs);
            } else {
                self.plain_cover(p, moves, obs, choose);
            }
        } else {
            self.phase = Phase::Normal(None);
            self.plain_normal(p, moves, obs, choose);
        }
    }

    /// The move of a choice among the one or more moves `moves` gathered: the only one, or the
    /// pick among two or more (general: `Step::Choice`), which counts as a decision. `None`
    /// when `choose` answers [`STOP`]: the choice is left at the general machine's
    /// `Step::Choice`, to be played from outside (where it counts as the decision).
    #[inline(always)]
    fn plain_pick<G: Gather>(
        &mut self,
        p: Seat,
        moves: &G,
        choose: &mut impl FnMut(&RoundState, Seat, &MoveList) -> usize,
    ) -> Option<Move> {
        if moves.len() > 1 {
            self.stats.decisions += 1;
        }
        let m = moves.pick(self, p, choose);
        if m.is_none() {
            self.stats.decisions -= 1;
        }
        m
    }

    /// Void inference when the seat finds no placement (general: the start of `no_move`): the
    /// values offered in this phase are void; after a draw the set narrows to them.
    #[inline]
    fn plain_void(&mut self, p: Seat) -> &mut Self {
        if self.voids.track {
            let targets = self.void_targets(p, self.phase);
            let drawn = matches!(
                self.phase,
                Phase::Normal(Some(_)) | Phase::Cover(Some(_)) | Phase::FollowUp { drawn: Some(_), .. }
            );
            if drawn {
                self.void_kept_draw(p, targets);
            } else {
                self.voids.known[p.index()] |= targets;
            }
        }
        self
    }

    /// A failed turn (general: `fail_turn` after `no_move`): a failed cover counts against the
    /// obligation, the marker goes on, the turn ends.
    #[inline]
    fn plain_fail<O: Observer>(&mut self, p: Seat, obs: &mut O) {
        let phase = self.phase;
        self.note_cover_failure(phase);
        self.mark(p, obs);
        self.end_turn(obs);
    }

    /// Nothing to draw after no placement (general: `no_move`'s empty-boneyard arms).
    #[inline]
    fn plain_dry<O: Observer>(&mut self, p: Seat, obs: &mut O) {
        if self.rules.mark_on_empty_boneyard {
            self.plain_fail(p, obs);
        } else {
            let phase = self.phase;
            self.note_cover_failure(phase);
            self.end_turn(obs);
        }
    }

    /// OBLIGATED: cover the obligation to serve, from hand or with one drawn tile.
    fn plain_cover<G: Gather, O: Observer>(
        &mut self,
        p: Seat,
        moves: &mut G,
        obs: &mut O,
        choose: &mut impl FnMut(&RoundState, Seat, &MoveList) -> usize,
    ) {
        let ob = self.obligation_to_serve();
        moves.clear();
        moves.push_row(self.holdings.hands[p.index()].row(ob.value), ob.value, ob.train);
        let m = match moves.len() {
            0 => match self.plain_void(p).plain_draw_to_cover(p, ob.train, ob.value, obs) {
                Some(m) => m,
                None => return,
            },
            _ => match self.plain_pick(p, moves, choose) {
                Some(m) => m,
                None => return,
            },
        };
        self.place_and_end_plain(p, m, obs);
    }

    /// The one draw of OBLIGATED or FOLLOWUP when the hand cannot cover the double on `train`
    /// (showing `value`): the covering move if the drawn tile fits; otherwise the turn fails, or
    /// with nothing to draw ends (a follow-up's emptied hand goes out, an edge case of docs/rules.md §11), and `None`.
    #[inline(always)]
    fn plain_draw_to_cover<O: Observer>(&mut self, p: Seat, train: TrainId, value: Pip, obs: &mut O) -> Option<Move> {
        let follow_up = matches!(self.phase, Phase::FollowUp { .. });
        match self.draw(p, obs) {
            Some(t) => {
                self.phase =
                    if follow_up { Phase::FollowUp { train, value, drawn: Some(t) } } else { Phase::Cover(Some(t)) };
                if t.contains(value) {
                    return Some(Move { tile: t, train });
                }
                self.plain_void(p);
                self.plain_fail(p, obs);
            }
            None if follow_up && self.holdings.hands[p.index()].is_empty() => {
                self.finish(super::EndReason::Out(p), true, obs)
            }
            None => self.plain_dry(p, obs),
        }
        None
    }

    /// NORMAL: a placement on an eligible train (or a new Mexican train), from hand or with one
    /// drawn tile; a double then owes its follow-up.
    fn plain_normal<G: Gather, O: Observer>(
        &mut self,
        p: Seat,
        moves: &mut G,
        obs: &mut O,
        choose: &mut impl FnMut(&RoundState, Seat, &MoveList) -> usize,
    ) {
        let hand = &self.holdings.hands[p.index()];
        self.plain_normal_moves(p, moves, |out, v, t| out.push_row(hand.row(v), v, t));
        let m = match moves.len() {
            0 => match self.plain_void(p).draw(p, obs) {
                Some(d) => {
                    self.phase = Phase::Normal(Some(d));
                    self.plain_normal_moves(p, moves, |out, v, t| {
                        if d.contains(v) {
                            out.push(Move { tile: d, train: t });
                        }
                    });
                    match moves.len() {
                        0 => {
                            self.plain_void(p);
                            self.plain_fail(p, obs);
                            return;
                        }
                        _ => match self.plain_pick(p, moves, choose) {
                            Some(m) => m,
                            None => return,
                        },
                    }
                }
                None => {
                    self.plain_dry(p, obs);
                    return;
                }
            },
            _ => match self.plain_pick(p, moves, choose) {
                Some(m) => m,
                None => return,
            },
        };
        let own_lifted = self.place::<true, _>(p, m, obs);
        if self.outcome.is_some() {
            return;
        }
        if !m.tile.is_double() {
            self.end_turn_or_stuck_plain(obs);
            return;
        }
        let (train, value) = (m.train, m.tile.low());
        self.after_double(train, value, own_lifted, obs);
        if self.outcome.is_none() && matches!(self.phase, Phase::FollowUp { .. }) {
            if self.rules.early_end_when_stuck && self.stuck() {
                self.finish(super::EndReason::Stuck, true, obs);
            } else {
                self.plain_follow_up(p, train, value, moves, obs, choose);
            }
        }
    }

    /// FOLLOWUP (cover the same double): from hand, else one draw (when the rules allow a
    /// draw after this turn's earlier one), else the turn fails.
    #[allow(clippy::too_many_arguments)]
    fn plain_follow_up<G: Gather, O: Observer>(
        &mut self,
        p: Seat,
        train: TrainId,
        value: Pip,
        moves: &mut G,
        obs: &mut O,
        choose: &mut impl FnMut(&RoundState, Seat, &MoveList) -> usize,
    ) {
        moves.clear();
        moves.push_row(self.holdings.hands[p.index()].row(value), value, train);
        let m = match moves.len() {
            0 => {
                self.plain_void(p);
                if self.turn.drew && !self.rules.followup_draw_per_double {
                    self.plain_fail(p, obs);
                    return;
                }
                match self.plain_draw_to_cover(p, train, value, obs) {
                    Some(m) => m,
                    None => return,
                }
            }
            _ => match self.plain_pick(p, moves, choose) {
                Some(m) => m,
                None => return,
            },
        };
        self.place_and_end_plain(p, m, obs);
    }

    /// NORMAL_OPTIONS(p, S) without partnerships or branches: `push(out, end, train)` for the
    /// own train, then (unless the first turn is restricted) the other seats' marked trains
    /// clockwise and the started Mexican trains, then the Mexican start if allowed.
    #[inline]
    fn plain_normal_moves<G: Gather>(&self, p: Seat, out: &mut G, mut push: impl FnMut(&mut G, Pip, TrainId)) {
        out.clear();
        push(out, self.table.trains[p.index()].end, TrainId::personal(p));
        if !self.first_turn_restricted(p) {
            self.for_each_marked_other(p, p.bit(), |t| push(out, self.table.trains[t.index()].end, t));
            for i in 0..self.table.mexican_started as usize {
                let t = TrainId::mexican(i);
                push(out, self.table.trains[t.index()].end, t);
            }
        }
        if let Some(t) = self.start_target(p, out.is_empty()) {
            push(out, self.table.e, t);
        }
    }

    /// The turn's last placement, then the end of the turn (unless the placement ended the round).
    #[inline]
    fn place_and_end_plain<O: Observer>(&mut self, p: Seat, m: Move, obs: &mut O) {
        self.place::<true, _>(p, m, obs);
        if self.outcome.is_none() {
            self.end_turn_or_stuck_plain(obs);
        }
    }

    /// After the placements of a turn: the stuck test (if the rules end stuck rounds), else END.
    #[inline]
    fn end_turn_or_stuck_plain<O: Observer>(&mut self, obs: &mut O) {
        if self.rules.early_end_when_stuck && self.stuck() {
            self.finish(super::EndReason::Stuck, true, obs);
        } else {
            self.end_turn(obs);
        }
    }
}

/// Where the plain loop gathers the moves of a choice: the move list (asked of the strategy), or,
/// for a heaviest-first strategy, only their number and the first heaviest.
pub(super) trait Gather {
    /// Forgets the moves gathered.
    fn clear(&mut self);
    /// Gathers `(t, train)` for every tile `t` of `row` (bit `q` = tile `[v|q]`), in that order.
    fn push_row(&mut self, row: u32, v: Pip, train: TrainId);
    /// Gathers one move.
    fn push(&mut self, m: Move);
    /// The moves gathered.
    fn len(&self) -> usize;
    /// Whether none was.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The move to play among the one or more gathered; `None` when the choice is left to the
    /// outside ([`STOP`]).
    fn pick(
        &self,
        st: &RoundState,
        p: Seat,
        choose: &mut impl FnMut(&RoundState, Seat, &MoveList) -> usize,
    ) -> Option<Move>;
}

impl Gather for MoveList {
    #[inline(always)]
    fn clear(&mut self) {
        MoveList::clear(self);
    }
    #[inline(always)]
    fn push_row(&mut self, row: u32, v: Pip, train: TrainId) {
        MoveList::push_row(self, row, v, train);
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    /// The only move, or the strategy's choice (`None`: [`STOP`]).
    #[inline(always)]
    fn pick(
        &self,
        st: &RoundState,
        p: Seat,
        choose: &mut impl FnMut(&RoundState, Seat, &MoveList) -> usize,
    ) -> Option<Move> {
        if self.len() == 1 {
            return Some(self[0]);
        }
        let k = choose(st, p, self);
        if k == STOP {
            return None;
        }
        assert!(k < self.len(), "strategy of seat {p} chose move {k} of {}", self.len());
        Some(self[k])
    }
}

/// The moves of a heaviest-first strategy's choice, without the list: whether there are none,
/// one or several, and the first with the most pips in the order the list would hold them (its
/// choice).
#[derive(Default)]
pub(super) struct Heaviest {
    /// The moves gathered, counted exactly up to one and as at least two beyond: the loop only
    /// asks "none, one or several?" (`len` is 0, 1 or more).
    count: u32,
    pips: u16,
    best: Option<Move>,
}

impl Gather for Heaviest {
    #[inline(always)]
    fn clear(&mut self) {
        *self = Heaviest::default();
    }
    /// A row lists its tiles `[v|q]` by rising `q`, so its heaviest is its highest bit.
    #[inline(always)]
    fn push_row(&mut self, row: u32, v: Pip, train: TrainId) {
        if row != 0 {
            // One tile, or two standing for several: `row & (row - 1)` clears the lowest bit, so
            // it is zero exactly for a single tile. (`count_ones` is a 15-instruction sequence on
            // the baseline x86-64 target this crate builds for, which has no `popcnt`.)
            self.count += 1 + u32::from(row & (row - 1) != 0);
            let q = 31 - row.leading_zeros();
            let tile = Tile::from_index_unchecked(Tile::suit_indices(v)[q as usize]);
            self.push_heaviest(Move { tile, train });
        }
    }
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.count += 1;
        self.push_heaviest(m);
    }
    /// 0, 1, or a number above 1 when there are several (not their count).
    #[inline(always)]
    fn len(&self) -> usize {
        self.count as usize
    }
    #[inline(always)]
    fn pick(&self, _: &RoundState, _: Seat, _: &mut impl FnMut(&RoundState, Seat, &MoveList) -> usize) -> Option<Move> {
        Some(self.best.expect("a choice has a move"))
    }
}

impl Heaviest {
    /// Keeps `m` if it is heavier than the heaviest so far (the first of equals stays).
    #[inline(always)]
    fn push_heaviest(&mut self, m: Move) {
        let pips = m.tile.pips();
        if self.best.is_none() || pips > self.pips {
            self.pips = pips;
            self.best = Some(m);
        }
    }
}
