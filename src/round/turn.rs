//! The turn state machine of RULES.md §5.0.4–§5.0.5 and §5.2.

use super::event::{Event, Observer};
use super::movegen::MoveList;
use super::state::{Phase, RoundState};
use super::{Decision, EndReason, Move, Obligation, PlayError, Seat, Step, TrainId};
use crate::rules::Obligation as ObligationRule;
use crate::tile::Pip;

impl RoundState {
    /// Applies forced actions until the seat to act has a real choice (two or more legal moves,
    /// written to `moves`) or the round is over.
    ///
    /// Forced actions are: beginning a turn, draws, markers, passes, a placement when exactly one
    /// is legal, the end of a turn, and the end of the round (RULES.md §5.0.1).
    pub fn advance<O: Observer>(&mut self, moves: &mut MoveList, obs: &mut O) -> Step {
        loop {
            match self.phase {
                Phase::Over => {
                    moves.clear();
                    return Step::Over;
                }
                Phase::TurnStart => {
                    self.turn_placed = false;
                    self.turn_drew = false;
                    self.turn_marker_changed = false;
                    self.turn_doubles_len = 0;
                    self.phase = if self.pending_len > 0 { Phase::Cover(None) } else { Phase::Normal(None) };
                }
                phase => {
                    self.legal_moves(moves);
                    match moves.len() {
                        0 => self.no_move(phase, obs),
                        1 => {
                            let m = moves[0];
                            self.apply(m, obs);
                        }
                        _ => {
                            let kind = match phase {
                                Phase::Cover(_) => Decision::Cover,
                                Phase::FollowUp { .. } => Decision::FollowUp,
                                _ => Decision::Normal,
                            };
                            return Step::Choice(self.current, kind);
                        }
                    }
                }
            }
        }
    }

    /// Applies `m`, which must be legal for the pending choice; the state is unchanged on error.
    ///
    /// # Errors
    /// [`PlayError::NoChoicePending`] if the round is over or between turns,
    /// [`PlayError::Illegal`] if `m` is not among [`RoundState::legal_moves`].
    pub fn play<O: Observer>(&mut self, m: Move, obs: &mut O) -> Result<(), PlayError> {
        if matches!(self.phase, Phase::Over | Phase::TurnStart) {
            return Err(PlayError::NoChoicePending);
        }
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        if !legal.contains(&m) {
            return Err(PlayError::Illegal(m));
        }
        self.apply(m, obs);
        Ok(())
    }

    /// Applies `m` without checking it (it must come from the list `advance` wrote).
    pub fn play_unchecked<O: Observer>(&mut self, m: Move, obs: &mut O) {
        debug_assert!(
            {
                let mut legal = MoveList::new();
                self.legal_moves(&mut legal);
                legal.contains(&m)
            },
            "illegal move {m}"
        );
        self.apply(m, obs);
    }

    /// No legal placement in the current phase: draw, or fail the turn.
    fn no_move<O: Observer>(&mut self, phase: Phase, obs: &mut O) {
        let p = self.current;
        let drawn = match phase {
            Phase::Normal(d) | Phase::Cover(d) | Phase::FollowUp { drawn: d, .. } => d,
            Phase::TurnStart | Phase::Over => unreachable!("no_move outside a choice phase"),
        };
        // A tile was already drawn for this step and does not fit: the turn fails (N2, O5, F4).
        // A follow-up draw after an earlier draw needs ED-9 (`followup_draw_per_double`).
        let may_draw = drawn.is_none()
            && !(matches!(phase, Phase::FollowUp { .. }) && self.turn_drew && !self.rules.followup_draw_per_double);
        if !may_draw {
            self.mark(p, obs);
            self.end_turn(obs);
            return;
        }
        match self.draw(p, obs) {
            Some(t) => {
                self.phase = match phase {
                    Phase::Normal(_) => Phase::Normal(Some(t)),
                    Phase::Cover(_) => Phase::Cover(Some(t)),
                    Phase::FollowUp { train, value, .. } => Phase::FollowUp { train, value, drawn: Some(t) },
                    Phase::TurnStart | Phase::Over => unreachable!(),
                }
            }
            None => {
                if self.rules.mark_on_empty_boneyard {
                    self.mark(p, obs);
                }
                self.end_turn(obs);
            }
        }
    }

    fn apply<O: Observer>(&mut self, m: Move, obs: &mut O) {
        let p = self.current;
        let phase = self.phase;
        let own_lifted = self.place(p, m, obs);
        if self.outcome.is_some() {
            return;
        }
        match phase {
            Phase::Normal(_) if m.tile.is_double() => self.after_double(p, m.train, m.tile.low(), own_lifted, obs),
            _ => self.end_turn(obs),
        }
    }

    /// FOLLOWUP entry for `CoverSameDouble` (RULES.md §5.2 F1): exemptions, else the follow-up.
    fn after_double<O: Observer>(&mut self, _p: Seat, train: TrainId, value: Pip, own_lifted: bool, obs: &mut O) {
        let exempt = (self.rules.last_of_suit_exempt && self.unplayed(value) == 0)
            || (self.rules.reprivatise_exempt && own_lifted);
        if exempt {
            let i = self.turn_doubles_len as usize - 1;
            self.turn_doubles[i].exempt = true;
            self.end_turn(obs);
        } else {
            self.phase = Phase::FollowUp { train, value, drawn: None };
        }
    }

    /// END(p): obligations, turn counters, idle count, blocked test, next seat.
    fn end_turn<O: Observer>(&mut self, obs: &mut O) {
        let p = self.current;
        if self.rules.obligation == ObligationRule::UncoveredDouble {
            for i in 0..self.turn_doubles_len as usize {
                let d = self.turn_doubles[i];
                let tr = &self.trains[d.train.index()];
                if !d.exempt && tr.open_double && tr.end == d.value {
                    self.push_pending(Obligation { train: d.train, value: d.value, placer: p });
                    break;
                }
            }
        }
        self.turn_doubles_len = 0;
        self.turns_taken[p.index()] += 1;
        self.turns += 1;
        if self.turn_placed || self.turn_drew || self.turn_marker_changed {
            self.idle = 0;
        } else {
            self.idle += 1;
            obs.event(&Event::Pass { seat: p });
        }
        if self.boneyard.is_empty() && self.idle >= self.players {
            self.finish(EndReason::Blocked, false, obs);
            return;
        }
        self.current = p.next(self.players);
        self.phase = Phase::TurnStart;
    }
}
