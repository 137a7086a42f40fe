//! Move generation into a fixed-capacity list: no heap, ever.

use super::state::{BuildKind, Phase, RoundState};
use super::{ALL_TRAIN_SLOTS, Move, Seat, TRAIN_SLOTS, TrainId};
use super::{longest_trail, whole_hand_trail};
use crate::rules::{DoublesPerTurn, FollowUp, MAX_PLAYERS, MexicanStart, ObligationOrder, Opening};
use crate::tile::{MAX_TILES, PIP_COUNT, Pip, Tile};
use crate::tile_set::TileSet;
use std::ops::Deref;

/// Capacity of a [`MoveList`].
///
/// Bound: a move is a placement (tile, train, orientation) or one of the three non-placements
/// [`Move::STOP`], [`Move::BULLET`], [`Move::SKIP`]. Each decision offers each train slot at
/// most once ([`TRAIN_SLOTS`] = personal trains of up to 16 seats plus up to 4 Mexican trains;
/// the generators skip a train already offered); a tile has at most two orientations (only under
/// blanks wild, otherwise one); and the tiles offered are distinct tiles of one hand, at most
/// [`MAX_TILES`]. Hence at most `2 * TRAIN_SLOTS * MAX_TILES + 3` moves. (Without blanks wild a
/// train with open end `v` takes at most the [`crate::tile::PIP_COUNT`] tiles showing `v`, so real lists stay
/// under `TRAIN_SLOTS * PIP_COUNT + 3`; a dominorules.com second double adds at most one tile per train
/// that the same train's singles leave out.) Branching doubles (`branching_doubles`, docs/rules.md §9) add up to
/// [`super::MAX_BRANCHES`] slots but cannot be combined with blanks wild, so their lists stay under
/// `ALL_TRAIN_SLOTS * PIP_COUNT + 3`, far inside the bound. A test pins the constant and builds
/// a wide position.
pub(crate) const MOVE_CAPACITY: usize = 2 * TRAIN_SLOTS * MAX_TILES + 3;

const _: () = assert!(ALL_TRAIN_SLOTS * PIP_COUNT + 3 <= MOVE_CAPACITY);

/// A fixed-capacity list of legal moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MOVE_CAPACITY],
    len: u16,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        MoveList { moves: [Move { tile: Tile::from_pips(0, 0), train: TrainId(0) }; MOVE_CAPACITY], len: 0 }
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move.
    ///
    /// # Panics
    /// Panics if the list is full, which the capacity bound rules out.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }

    /// Makes the list `moves` (at most the capacity, as every list of one decision).
    pub fn set_from(&mut self, moves: &[Move]) {
        self.moves[..moves.len()].copy_from_slice(moves);
        self.len = moves.len() as u16;
    }

    /// Keeps the moves for which `f` holds, in order (`f` sees them in order, once each).
    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        let mut k = 0;
        for i in 0..self.len as usize {
            let m = self.moves[i];
            if f(&m) {
                self.moves[k] = m;
                k += 1;
            }
        }
        self.len = k as u16;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Pushes `(t, train)` for every tile `t` of `row` (bit `q` = tile `[v|q]`).
    #[inline]
    pub(super) fn push_row(&mut self, mut bits: u32, v: Pip, train: TrainId) {
        let suit = Tile::suit_indices(v);
        let mut len = self.len as usize;
        while bits != 0 {
            let q = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.moves[len] = Move { tile: Tile::from_index_unchecked(suit[q & 31]), train };
            len += 1;
        }
        self.len = len as u16;
    }
}

/// Where the tiles of a choice come from: the whole hand, or the one tile just drawn; `Wild*`
/// when blanks are wild (`blanks_wild`, docs/rules.md §9).
#[derive(Clone, Copy)]
enum Source<'a> {
    Hand(&'a TileSet),
    Tile(Tile),
    WildHand(&'a TileSet),
    WildTile(Tile),
}

impl Source<'_> {
    /// Pushes every placement of the source's tiles on `train` (open end `v`); `singles` leaves
    /// doubles out.
    #[inline]
    fn push(self, out: &mut MoveList, v: Pip, train: TrainId, singles: bool) {
        match self {
            Source::Hand(h) => {
                let row = if singles { h.row(v) & !(1 << v.get()) } else { h.row(v) };
                out.push_row(row, v, train)
            }
            Source::Tile(t) => {
                if t.contains(v) && !(singles && t.is_double()) {
                    out.push(Move { tile: t, train });
                }
            }
            _ => self.push_wild(out, v, train, singles),
        }
    }

    /// The blanks-wild arms, apart from the common ones.
    #[cold]
    fn push_wild(self, out: &mut MoveList, v: Pip, train: TrainId, singles: bool) {
        match self {
            Source::Hand(_) | Source::Tile(_) => unreachable!("not a wild source"),
            Source::WildHand(h) => {
                if v == Pip::ZERO {
                    for t in h.iter() {
                        push_wild(out, t, v, train, singles);
                    }
                } else {
                    // Tiles showing v or a blank, each once: row v, then the blanks not in it.
                    for t in h.suit(v) {
                        push_wild(out, t, v, train, singles);
                    }
                    for t in h.suit(Pip::ZERO) {
                        if !t.contains(v) {
                            push_wild(out, t, v, train, singles);
                        }
                    }
                }
            }
            Source::WildTile(t) => push_wild(out, t, v, train, singles),
        }
    }
}

/// Blanks wild (`blanks_wild`, docs/rules.md §9 and §11): a half joins end `v` if it equals `v`, is blank, or `v` is
/// blank. Each legal orientation is its own move: unturned lays the low half inward (the new
/// end is the high half), [`TrainId::turned`] lays the high half inward.
#[inline]
fn push_wild(out: &mut MoveList, t: Tile, v: Pip, train: TrainId, singles: bool) {
    if singles && t.is_double() {
        return;
    }
    let joins = |h: Pip| h == v || h == Pip::ZERO || v == Pip::ZERO;
    if joins(t.low()) {
        out.push(Move { tile: t, train });
    }
    if !t.is_double() && joins(t.high()) {
        out.push(Move { tile: t, train: train.turned() });
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl RoundState {
    /// Writes the legal moves of the pending choice into `out` (empty when none is pending or
    /// when the only action is forced).
    ///
    /// Order: own train first, then other seats' marked trains clockwise from the seat to act,
    /// then started Mexican trains, then the trains of this turn's open doubles, then starting a
    /// new Mexican train; within a train, by the tile's other half. [`Move::STOP`] comes last.
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let p = self.current;
        match self.phase {
            Phase::Build { kind, placed, .. } => self.build_moves(p, kind, placed, out),
            Phase::Normal(drawn) => {
                self.normal_moves(p, self.source(p, drawn), out);
                if drawn.is_none() && self.rules.bullet_train && self.bullet_train_for(p).is_some() {
                    out.push(Move::BULLET);
                }
            }
            Phase::Cover(drawn) => {
                let ob = self.obligation_to_serve();
                self.source(p, drawn).push(out, ob.value, ob.train, false);
            }
            Phase::FollowUp { .. } | Phase::Swan { .. } | Phase::SecondDouble { .. } => self.other_moves(p, out),
            Phase::Setup | Phase::TurnStart | Phase::Over => {}
        }
    }

    /// Moves of the less frequent phases (follow-ups, swan walks, dominorules.com second doubles), kept out
    /// of `legal_moves` so that its common arms stay small.
    #[inline(never)]
    fn other_moves(&self, p: Seat, out: &mut MoveList) {
        match self.phase {
            Phase::FollowUp { train, value, drawn } => match self.rules.follow_up {
                FollowUp::CoverSameDouble => {
                    self.source(p, drawn).push(out, value, train, false);
                    if drawn.is_none() && self.rules.doubles_per_turn == DoublesPerTurn::Unlimited {
                        // Multiple doubles (`multiple_doubles`, docs/rules.md §9): more doubles on other eligible ends before
                        // covering the first. They are optional ("may"): holding no cover, the
                        // doubler may also stop laying doubles and draw for it (Move::STOP).
                        let covers = out.len();
                        let hand = &self.holdings.hands[p.index()];
                        self.for_each_eligible(p, |t| {
                            let v = self.table.trains[t.index()].end;
                            let d = Tile::new(v, v);
                            if t != train && hand.contains(d) && !self.table.trains[t.index()].open_double {
                                out.push(Move { tile: d, train: t });
                            }
                        });
                        if covers == 0 && !out.is_empty() {
                            out.push(Move::STOP);
                        }
                    }
                }
                FollowUp::Optional => {
                    // Cover optional (`cover_optional`, docs/rules.md §9): cover the double from hand, or end the turn.
                    self.source(p, drawn).push(out, value, train, false);
                    out.push(Move::STOP);
                }
                FollowUp::AnyEligible => {
                    let singles = self.rules.doubles_per_turn != DoublesPerTurn::Unlimited;
                    self.follow_any_moves(p, self.source(p, drawn), singles, out);
                }
                FollowUp::AnyEligibleWithSecondDouble => self.second_double_moves(p, train, value, drawn, out),
            },
            Phase::Swan { pos } => {
                if let Some((_, t)) = self.swan_target(p, pos) {
                    let src = self.hand_source(&self.holdings.hands[p.index()]);
                    src.push(out, self.table.trains[t.index()].end, t, false);
                    // Branching doubles: any open end of that train.
                    self.for_each_branch_of(t, |b| src.push(out, self.table.trains[b.index()].end, b, false));
                    if t.is_mexican() {
                        out.push(Move::SKIP);
                    }
                }
                out.push(Move::STOP);
            }
            Phase::SecondDouble { train, value, train2, value2 } => {
                let hand = self.hand_source(&self.holdings.hands[p.index()]);
                hand.push(out, value, train, true);
                hand.push(out, value2, train2, true);
            }
            _ => unreachable!("other_moves outside its phases"),
        }
    }

    /// Build-phase moves (kept out of `legal_moves`: its large score table would make every
    /// call pay for a big stack frame).
    #[inline(never)]
    fn build_moves(&self, p: Seat, kind: BuildKind, placed: bool, out: &mut MoveList) {
        let own = match kind {
            BuildKind::Bullet { declarer, train } if declarer == p => train,
            _ => TrainId::personal(p),
        };
        let end = self.table.trains[own.index()].end;
        let hand = &self.holdings.hands[p.index()];
        self.hand_source(hand).push(out, end, own, false);
        if kind == BuildKind::Celko {
            if placed {
                out.push(Move::STOP);
            }
        } else {
            // an edge case of docs/rules.md §11: a build of maximum length; keep the tiles whose continuation is
            // longest (each candidate is scored once, so the kept set is never empty).
            let mut score = [0u8; MOVE_CAPACITY];
            let mut best = 0;
            for (i, m) in out.iter().enumerate() {
                score[i] = longest_trail(&hand.without(m.tile), m.tile.other(end)) as u8;
                best = best.max(score[i]);
            }
            let mut i = 0;
            out.retain(|_| {
                i += 1;
                score[i - 1] == best
            });
            let may_pass = kind == (BuildKind::Delayed { optional: true }) && !placed;
            if (out.is_empty() && placed) || may_pass {
                out.push(Move::STOP);
            }
        }
    }

    /// The next position of `p`'s swan walk at or after `pos` (`swan_drive`, docs/rules.md §9 and §11), and its train.
    ///
    /// Positions run clockwise: odd `2k-1` is the gap after seat `p+k-1`, where the first Mexican
    /// train sits if that seat started it; even `2k` is seat `p+k`, a stop only if its train is
    /// marked (private trains are passed over). Position `2N` is `p`'s own seat: the walk is over.
    pub(super) fn swan_target(&self, p: Seat, pos: u8) -> Option<(u8, TrainId)> {
        let n = self.players as usize;
        for at in pos as usize..2 * n {
            if at % 2 == 1 {
                let gap = Seat::from_index((p.index() + at / 2) % n);
                if self.table.mexican_started > 0 && self.table.mexican_starter == Some(gap) {
                    return Some((at as u8, TrainId::mexican(0)));
                }
            } else {
                let q = Seat::from_index((p.index() + at / 2) % n);
                if q != p && self.table.markers & q.bit() != 0 && self.team(p) & q.bit() == 0 {
                    return Some((at as u8, TrainId::personal(q)));
                }
            }
        }
        None
    }

    /// Bullet train (`bullet_train`, docs/rules.md §9): the train on which `p` may declare, when its whole hand lays as one
    /// train from its own end (or, under partnerships, its partner's end, `partnerships`, docs/rules.md §9).
    pub(super) fn bullet_train_for(&self, p: Seat) -> Option<TrainId> {
        let hand = &self.holdings.hands[p.index()];
        if !self.rules.bullet_train || hand.is_empty() {
            return None;
        }
        let mut ends = [TrainId::personal(p), TrainId::personal(self.partner(p))];
        let n = if self.team(p) == p.bit() { 1 } else { 2 };
        ends[..n].sort_unstable();
        ends[..n].iter().copied().find(|t| whole_hand_trail(hand, self.table.trains[t.index()].end))
    }

    /// The open-end values `p` was checked against when it found no legal placement in
    /// `phase` (for [`RoundState::known_voids`]). A follow-up that excludes doubles says nothing
    /// about doubles, so it yields no values.
    pub(super) fn void_targets(&self, p: Seat, phase: Phase) -> u32 {
        let mut bits = 0u32;
        match phase {
            Phase::Normal(_) => {
                self.for_each_eligible(p, |t| bits |= 1 << self.table.trains[t.index()].end.get());
                if self.start_target(p, true).is_some() {
                    bits |= 1 << self.table.e.get();
                }
            }
            Phase::Cover(_) => bits = 1 << self.obligation_to_serve().value.get(),
            Phase::FollowUp { value, .. } => match self.rules.follow_up {
                FollowUp::CoverSameDouble | FollowUp::Optional => bits = 1 << value.get(),
                FollowUp::AnyEligible if self.rules.doubles_per_turn == DoublesPerTurn::Unlimited => {
                    self.for_each_eligible(p, |t| bits |= 1 << self.table.trains[t.index()].end.get());
                    // Only this turn's doubles still uncovered were offered (as in
                    // `follow_any_moves`); a covered one's value is no open end.
                    for d in self.turn.doubles() {
                        let tr = &self.table.trains[d.train.index()];
                        if tr.open_double && tr.end == d.value {
                            bits |= 1 << d.value.get();
                        }
                    }
                    if self.start_target(p, true).is_some() {
                        bits |= 1 << self.table.e.get();
                    }
                }
                FollowUp::AnyEligible | FollowUp::AnyEligibleWithSecondDouble => {}
            },
            Phase::Build { .. } => bits = 1 << self.table.trains[p.index()].end.get(),
            _ => {}
        }
        bits
    }

    /// The obligation the seat to act must serve (LIFO or FIFO per the rules).
    pub(super) fn obligation_to_serve(&self) -> super::Obligation {
        debug_assert!(self.table.pending_len > 0);
        match self.rules.obligation_order {
            ObligationOrder::Lifo => self.table.pending[self.table.pending_len as usize - 1],
            ObligationOrder::Fifo => self.table.pending[0],
        }
    }

    fn source(&self, p: Seat, drawn: Option<Tile>) -> Source<'_> {
        match (drawn, self.rules.blanks_wild) {
            (None, false) => Source::Hand(&self.holdings.hands[p.index()]),
            (Some(t), false) => Source::Tile(t),
            (None, true) => Source::WildHand(&self.holdings.hands[p.index()]),
            (Some(t), true) => Source::WildTile(t),
        }
    }

    fn hand_source<'a>(&self, hand: &'a TileSet) -> Source<'a> {
        if self.rules.blanks_wild { Source::WildHand(hand) } else { Source::Hand(hand) }
    }

    /// Whether `p` is in a first turn that may only use its own train (an edge case of docs/rules.md §11, Great Harbour Cay).
    pub(super) fn first_turn_restricted(&self, p: Seat) -> bool {
        // A build phase is the opening itself: the seat's first normal turn is not restricted.
        self.rules.first_turn_own_train_only
            && self.stats.turns_taken[p.index()] == 0
            && matches!(self.rules.opening, Opening::OneTile | Opening::DelayedFirstTurn)
    }

    /// eligible(p): own train, other seats' marked trains clockwise, started Mexican trains;
    /// under branching doubles each train is followed by its branches (`branching_doubles`, docs/rules.md §9).
    fn for_each_eligible(&self, p: Seat, mut f: impl FnMut(TrainId)) {
        if self.table.branches > 0 {
            self.for_each_eligible_train(p, |t| {
                f(t);
                self.for_each_branch_of(t, &mut f);
            });
        } else {
            self.for_each_eligible_train(p, f);
        }
    }

    /// The branches grown from train `t`, in the order they opened.
    pub(super) fn for_each_branch_of(&self, t: TrainId, mut f: impl FnMut(TrainId)) {
        for k in 0..self.table.branches as usize {
            if self.table.branch_root[k] == t {
                f(TrainId::branch(k));
            }
        }
    }

    /// The whole trains of eligible(p), without branches.
    fn for_each_eligible_train(&self, p: Seat, mut f: impl FnMut(TrainId)) {
        f(TrainId::personal(p));
        let team = self.team(p);
        if team != p.bit() {
            // Partnerships: the partner's train is part of one's own (`partnerships`, docs/rules.md §9).
            f(TrainId::personal(self.partner(p)));
        }
        if self.first_turn_restricted(p) {
            return;
        }
        self.for_each_marked_other(p, team, &mut f);
        for i in 0..self.table.mexican_started as usize {
            f(TrainId::mexican(i));
        }
    }

    /// The other seats' marked trains (not `team`'s), clockwise from `p`.
    #[inline]
    pub(super) fn for_each_marked_other(&self, p: Seat, team: u16, mut f: impl FnMut(TrainId)) {
        let others = u32::from(self.table.markers & !team);
        if others != 0 {
            // Clockwise from p: the seats after p in their bits, then the seats before p moved
            // up past the 16 seat bits, so rising bits run clockwise and a bit's low four bits
            // are its seat (no rotation by the table's size, no wrap test per seat).
            const _: () = assert!(MAX_PLAYERS == 16);
            let before = (1u32 << p.index()) - 1;
            let mut order = (others & !before) | ((others & before) << 16);
            while order != 0 {
                let k = order.trailing_zeros();
                order &= order - 1;
                f(TrainId::personal(Seat::from_index(k as usize % MAX_PLAYERS)));
            }
        }
    }

    /// The Mexican slot `p` may start now, given whether any other placement exists (N-3).
    #[inline]
    pub(super) fn start_target(&self, p: Seat, nothing_else: bool) -> Option<TrainId> {
        if self.table.mexican_started >= self.rules.max_mexican_trains {
            return None;
        }
        self.start_target_open(p, nothing_else)
    }

    /// [`RoundState::start_target`] once a slot is free.
    fn start_target_open(&self, p: Seat, nothing_else: bool) -> Option<TrainId> {
        let started = self.table.mexican_started as usize;
        if self.first_turn_restricted(p) {
            // Parsons (an option, docs/rules.md §11): the round's very first move may start the Mexican train.
            let first_move = self.rules.parsons_first_move && p == self.first && self.stats.turns == 0;
            return first_move.then_some(TrainId::mexican(started));
        }
        let ok = match self.rules.mexican_start {
            MexicanStart::AnyTime => true,
            MexicanStart::RequiresOwnTrainPlay => self.stats.played_own & p.bit() != 0,
            MexicanStart::AfterOpeningGoRound => self.stats.turns_taken[..self.players as usize].iter().all(|&t| t > 0),
            MexicanStart::OnlyIfNoOtherPlay => nothing_else,
        };
        ok.then_some(TrainId::mexican(started))
    }

    /// NORMAL_OPTIONS(p, S).
    fn normal_moves(&self, p: Seat, src: Source<'_>, out: &mut MoveList) {
        if let Source::Hand(h) = src {
            // The common case, with the source's dispatch taken out of the loop.
            self.for_each_eligible(p, |t| {
                let v = self.table.trains[t.index()].end;
                out.push_row(h.row(v), v, t);
            });
        } else {
            self.for_each_eligible(p, |t| src.push(out, self.table.trains[t.index()].end, t, false));
        }
        if let Some(t) = self.start_target(p, out.is_empty()) {
            src.push(out, self.table.e, t, false);
        }
        let team = self.team(p);
        let own = |m: &Move| self.root_of(m.train.base()).owner().is_some_and(|q| team & q.bit() != 0);
        if self.rules.marked_owner_must_prefer_own_train && self.table.markers & p.bit() != 0 && out.iter().any(own) {
            // an edge case of docs/rules.md §11: a marked owner who can play on his own train must.
            out.retain(own);
        }
    }

    /// FOLLOWUP for `AnyEligible` (Celko 1998, the Family house rules): eligible trains plus the trains of this turn's
    /// uncovered doubles, then the Mexican start; `singles` excludes doubles (one double a turn).
    fn follow_any_moves(&self, p: Seat, src: Source<'_>, singles: bool, out: &mut MoveList) {
        let open = self.turn.doubles().iter().filter_map(|d| {
            let tr = &self.table.trains[d.train.index()];
            (tr.open_double && tr.end == d.value).then_some(d.train)
        });
        self.eligible_and(p, src, singles, open, out);
    }

    /// Placements of `src` on eligible(p) and then on `extra` trains, each train once, then the
    /// Mexican start; `singles` excludes doubles.
    fn eligible_and(
        &self,
        p: Seat,
        src: Source<'_>,
        singles: bool,
        extra: impl Iterator<Item = TrainId>,
        out: &mut MoveList,
    ) {
        let mut seen = 0u64;
        let mut push = |t: TrainId, out: &mut MoveList| {
            if seen & (1 << t.index()) == 0 {
                seen |= 1 << t.index();
                src.push(out, self.table.trains[t.index()].end, t, singles);
            }
        };
        self.for_each_eligible(p, |t| push(t, out));
        for t in extra {
            push(t, out);
        }
        if let Some(t) = self.start_target(p, out.is_empty()) {
            src.push(out, self.table.e, t, singles);
        }
    }

    /// FOLLOWUP for dominorules.com after double D1 (`train`, `v1`): F_1, a non-double on any eligible
    /// train or on D1, and F_2, a second double when a third tile from hand can follow.
    fn second_double_moves(&self, p: Seat, train: TrainId, v1: Pip, drawn: Option<Tile>, out: &mut MoveList) {
        if drawn.is_some_and(Tile::is_double) {
            return; // A drawn double can never be the follow-up (docs/rules.md §6.3).
        }
        self.follow_single_or_d1(p, self.source(p, drawn), train, out);
        if drawn.is_some() {
            return;
        }
        let hand = &self.holdings.hands[p.index()];
        let mut targets = [TrainId::STOP; super::ALL_TRAIN_SLOTS];
        let mut n = 0;
        self.for_each_eligible(p, |t| {
            targets[n] = t;
            n += 1;
        });
        for &t in &targets[..n] {
            let v2 = self.table.trains[t.index()].end;
            let d2 = Tile::new(v2, v2);
            if !hand.contains(d2) {
                continue;
            }
            let rest = hand.without(d2);
            let single_fits = |v: Pip| rest.row(v) & !(1 << v.get()) != 0;
            if rest.is_empty() || single_fits(v1) || single_fits(v2) {
                out.push(Move { tile: d2, train: t });
            }
        }
    }

    /// F_1 of dominorules.com: a non-double on any eligible train or on D1.
    fn follow_single_or_d1(&self, p: Seat, src: Source<'_>, d1: TrainId, out: &mut MoveList) {
        self.eligible_and(p, src, true, std::iter::once(d1), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_is_the_proven_bound() {
        assert_eq!(MOVE_CAPACITY, 2 * 20 * 190 + 3);
        assert_eq!(std::mem::size_of::<Move>(), 2);
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;
    use crate::deal::Deal;
    use crate::rules::Rules;

    /// The widest position we can build: 16 seats on double-18, engine 0-0, every train
    /// unstarted and marked, the seat to act holding all 18 other blanks, up to 4 Mexican
    /// trains allowed: 16 personal trains + 1 Mexican start, 18 tiles each = 306 moves, inside
    /// the proven bound (and under the non-wild bound of 20 * 19 + 3 = 383).
    #[test]
    fn widest_position_fits() {
        let rules = Rules {
            set: Pip::from_u8(18),
            players: 16,
            hand_size: Some(1),
            max_mexican_trains: 4,
            first_turn_own_train_only: false,
            ..Rules::wikipedia()
        };
        let blanks: TileSet = (1..=18).map(|q| Tile::from_pips(0, q)).collect();
        let mut hands = vec![TileSet::EMPTY; 16];
        hands[0] = blanks;
        let deal = Deal::from_parts(Tile::from_pips(0, 0), &hands, &[]);
        let mut state = RoundState::new(&rules, &deal, Seat::from_index(0));
        state.table.markers = u16::MAX;
        state.phase = Phase::Normal(None);
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        assert_eq!(moves.len(), 17 * 18);
        assert!(moves.len() <= MOVE_CAPACITY);
        // Every move is distinct.
        let mut v = moves.to_vec();
        v.sort();
        v.dedup();
        assert_eq!(v.len(), 306);
    }
}
