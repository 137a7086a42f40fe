//! The turn state machine of docs/rules.md §6 (a round step by step): setup (engine search and placement), build phases,
//! and the NORMAL / OBLIGATED / FOLLOWUP procedures with each preset's variants as rule fields.

use super::event::{Event, Observer, PenaltyReason};
use super::movegen::MoveList;
use super::state::{BuildKind, Phase, RoundState};
use super::{Decision, EndReason, Move, Obligation, PlayError, Seat, Step, TrainId};
use crate::rules::{EngineMode, FirstPlayer, FollowUp, Obligation as ObligationRule, Opening, TapModel};
use crate::tile::{Pip, Tile};

impl RoundState {
    /// Applies forced actions until the seat to act has a real choice (two or more legal moves,
    /// written to `moves`) or the round is over.
    ///
    /// Forced actions are: the engine search and placement, beginning a turn, draws, markers,
    /// passes, a placement when exactly one is legal, the end of a turn, and the end of the
    /// round (docs/rules.md §6.1).
    pub fn advance<O: Observer>(&mut self, moves: &mut MoveList, obs: &mut O) -> Step {
        self.advance_until(moves, obs, false).expect("runs to a choice or the end")
    }

    /// [`RoundState::advance`], stopping early (`None`) at the next turn boundary when
    /// `stop_at_turn` is set (where [`RoundState::play_plain`] may take over).
    #[inline(always)]
    pub(crate) fn advance_until<O: Observer>(
        &mut self,
        moves: &mut MoveList,
        obs: &mut O,
        stop_at_turn: bool,
    ) -> Option<Step> {
        self.advance_until_seats(moves, obs, if stop_at_turn { u16::MAX } else { 0 })
    }

    /// [`RoundState::advance`], stopping early (`None`) at the next turn boundary of a seat of
    /// `stop_at` (a mask): the turns of the other seats are played through.
    pub(crate) fn advance_until_seats<O: Observer>(
        &mut self,
        moves: &mut MoveList,
        obs: &mut O,
        stop_at: u16,
    ) -> Option<Step> {
        loop {
            match self.phase {
                Phase::Over => {
                    moves.clear();
                    return Some(Step::Over);
                }
                Phase::Setup => self.setup(obs),
                Phase::TurnStart if stop_at & self.current.bit() != 0 => return None,
                Phase::TurnStart => {
                    if self.rules.tap == TapModel::DrawTwo
                        && let Some(q) = self.tap_due.take()
                        && self.tap_caught(q, obs)
                    {
                        // Celko 1998 and the Encyclopedia rules: caught before play returns to him: he draws two.
                        self.penalty_draw(q, 2, PenaltyReason::LastTile, obs);
                    }
                    if self.skip_next & self.current.bit() != 0 {
                        self.skip_next &= !self.current.bit();
                        obs.event(&Event::Skip { seat: self.current });
                        self.end_skipped_turn(obs);
                        continue;
                    }
                    self.begin_turn();
                    self.phase = if self.table.pending_len > 0 { Phase::Cover(None) } else { Phase::Normal(None) };
                    if self.rules.opening == Opening::DelayedFirstTurn
                        && self.table.trains[self.current.index()].len == 0
                    {
                        self.delayed_first_turn(obs);
                        continue;
                    }
                    if self.table.pending_len > 0 && self.cover_forbidden_by_first_turn() {
                        // O2 (docs/rules.md §11): the first-turn ban outranks the obligation: draw, keep, mark
                        // (a branch stage, `branching_doubles`, docs/rules.md §9, never marks).
                        let p = self.current;
                        let _ = self.draw(p, obs);
                        self.void_kept_draw(p, 0);
                        if !self.serving_stage() {
                            self.mark(p, obs);
                        }
                        self.end_turn(obs);
                    }
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
                                Phase::FollowUp { .. } | Phase::SecondDouble { .. } => Decision::FollowUp,
                                Phase::Build { .. } => Decision::Build,
                                Phase::Swan { .. } => Decision::Swan,
                                _ => Decision::Normal,
                            };
                            return Some(Step::Choice(self.current, kind));
                        }
                    }
                }
            }
        }
    }

    /// TurnStart's bookkeeping: the no-start statistic, and this turn's flags cleared.
    #[inline]
    pub(super) fn begin_turn(&mut self) {
        let p = self.current.index();
        if self.stats.turns_taken[p] == 0
            && self.table.trains[p].len == 0
            && !self.holdings.hands[p].has_suit(self.table.trains[p].end)
        {
            self.stats.no_start |= self.current.bit();
        }
        self.turn.clear();
    }

    /// Applies `m`, which must be legal for the pending choice; the state is unchanged on error.
    ///
    /// # Errors
    /// [`PlayError::NoChoicePending`] if the round is over or between turns,
    /// [`PlayError::Illegal`] if `m` is not among [`RoundState::legal_moves`].
    pub fn play<O: Observer>(&mut self, m: Move, obs: &mut O) -> Result<(), PlayError> {
        if matches!(self.phase, Phase::Over | Phase::TurnStart | Phase::Setup) {
            return Err(PlayError::NoChoicePending);
        }
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        if !legal.contains(&m) {
            return Err(PlayError::Illegal(m));
        }
        self.stats.decisions += 1;
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
        self.stats.decisions += 1;
        self.apply(m, obs);
    }

    /// `delayed_first_turn`, docs/rules.md §9 (docs/rules.md §11): an unstarted seat's turn: build at once if it can start its train; else
    /// draw one and, if that tile starts it, build or pass; otherwise pass. No marker either way.
    fn delayed_first_turn<O: Observer>(&mut self, obs: &mut O) {
        let p = self.current;
        let e = self.table.trains[p.index()].end;
        if self.holdings.hands[p.index()].has_suit(e) {
            self.phase = Phase::Build { kind: BuildKind::Delayed { optional: false }, built: 0, placed: false };
            return;
        }
        // He cannot start, which the table sees: his hand before the draw is void in e. After
        // a draw and a pass the table cannot tell a kept starter (an optional pass) from a tile
        // that does not fit (a forced pass), so it knows nothing of his hand; only with an empty
        // boneyard is the pass forced in the open. While he decides, the drawn starter is in his
        // hand: no void in e.
        self.voids.known[p.index()] |= 1 << e.get();
        match self.draw(p, obs) {
            Some(t) if t.contains(e) => {
                self.voids.known[p.index()] &= !(1 << e.get());
                self.phase = Phase::Build { kind: BuildKind::Delayed { optional: true }, built: 0, placed: false };
            }
            Some(_) => {
                self.void_kept_draw(p, 0);
                self.end_turn(obs)
            }
            None => self.end_turn(obs),
        }
    }

    /// an edge case of docs/rules.md §11: a seat in its restricted first turn may not cover on another seat's train.
    pub(super) fn cover_forbidden_by_first_turn(&self) -> bool {
        let p = self.current;
        self.first_turn_restricted(p)
            && !self.rules.obligation_overrides_first_turn
            && self.root_of(self.obligation_to_serve().train).owner().is_some_and(|q| q != p)
    }

    // ---- setup (docs/rules.md §6.1, and `engine_mode` in §8) ----

    /// Whether this deal is gathered, reshuffled and redealt before any play: the engine
    /// comes from a hand under Great Harbour Cay rules and no hand holds a tile showing the
    /// engine number. Such a deal has no engine, no placer and no first turn.
    pub(crate) fn needs_redeal(&self) -> bool {
        self.phase == Phase::Setup
            && self.engine_mode == EngineMode::HolderElseHighestOfNumberElseRedeal
            && self.holdings.hands[..self.players as usize].iter().all(|h| !h.has_suit(self.table.e))
    }

    /// The round's engine number and the seat of its first normal turn, once the engine
    /// search (deterministic given the deal) has run: for logs written before the round is
    /// played. `None` for a deal that is redealt ([`RoundState::needs_redeal`]).
    pub(crate) fn after_setup(&self) -> Option<(Pip, Seat)> {
        if self.phase != Phase::Setup {
            return Some((self.table.e, self.first));
        }
        if self.needs_redeal() {
            return None;
        }
        let mut probe = self.clone();
        probe.setup(&mut super::event::NoObserver);
        Some((probe.table.e, probe.first))
    }

    fn holder(&self, t: Tile) -> Option<Seat> {
        (0..self.players as usize).find(|&s| self.holdings.hands[s].contains(t)).map(Seat::from_index)
    }

    /// One complete round of drawing from the lead seat; false if the boneyard was already empty.
    fn drawing_round<O: Observer>(&mut self, obs: &mut O) -> bool {
        let mut s = self.lead;
        let mut drew = false;
        for _ in 0..self.players {
            if self.draw(s, obs).is_none() {
                break;
            }
            drew = true;
            s = s.next(self.players);
        }
        drew
    }

    /// Finds the engine and who places it, drawing from the boneyard as the mode says.
    fn find_engine<O: Observer>(&mut self, obs: &mut O) -> (Seat, Tile) {
        let target = Tile::new(self.table.e, self.table.e);
        match self.engine_mode {
            EngineMode::HolderElseDrawSequential => {
                if let Some(s) = self.holder(target) {
                    return (s, target);
                }
                let mut s = self.lead;
                loop {
                    match self.draw(s, obs) {
                        Some(t) if t == target => return (s, target),
                        Some(_) => s = s.next(self.players),
                        None => panic!("the engine {target} is in no hand and not in the boneyard"),
                    }
                }
            }
            EngineMode::GaltFirstPlayerHighestDouble => {
                // an edge case of docs/rules.md §11: from the first player clockwise, the first seat holding a double places
                // its highest; if none does, seats draw in turn until a double is drawn.
                let n = self.players as usize;
                for k in 0..n {
                    let s = Seat::from_index((self.first.index() + k) % n);
                    let hand = &self.holdings.hands[s.index()];
                    if let Some(d) =
                        (0..=self.rules.set.get()).rev().map(|v| Tile::from_pips(v, v)).find(|&d| hand.contains(d))
                    {
                        self.table.e = d.low();
                        return (s, d);
                    }
                }
                let mut s = self.first;
                loop {
                    match self.draw(s, obs) {
                        Some(t) if t.is_double() => {
                            self.table.e = t.low();
                            return (s, t);
                        }
                        Some(_) => s = s.next(self.players),
                        None => panic!("no double in the hands or the boneyard"),
                    }
                }
            }
            EngineMode::HolderElseDrawRounds => loop {
                if let Some(s) = self.holder(target) {
                    return (s, target);
                }
                assert!(self.drawing_round(obs), "the engine {target} is in no hand and not in the boneyard");
            },
            EngineMode::HighestUnusedDoubleInHands => loop {
                let best = (0..=self.rules.set.get())
                    .rev()
                    .filter(|&v| self.used_doubles & (1 << v) == 0)
                    .map(|v| Tile::from_pips(v, v))
                    .find_map(|d| self.holder(d).map(|s| (s, d)));
                if let Some((s, d)) = best {
                    self.table.e = d.low();
                    return (s, d);
                }
                assert!(self.drawing_round(obs), "no unused double is left in the set");
            },
            EngineMode::HolderElseHighestOfNumberElseRedeal => {
                if let Some(s) = self.holder(target) {
                    return (s, target);
                }
                let e = self.table.e;
                (0..=self.rules.set.get())
                    .rev()
                    .filter(|&w| w != e.get())
                    .map(|w| Tile::new(e, Pip::from_u8(w)))
                    .find_map(|t| self.holder(t).map(|s| (s, t)))
                    .expect("a deal with no tile showing the engine number is redealt before the round")
            }
            EngineMode::SetAside => unreachable!("a set-aside engine needs no search"),
        }
    }

    /// Setup: engine search and placement, then the build phase or the first turn.
    fn setup<O: Observer>(&mut self, obs: &mut O) {
        if self.engine_mode != EngineMode::SetAside {
            let (p, tile) = self.find_engine(obs);
            self.holdings.hands[p.index()].remove(tile);
            self.table.played.insert(tile);
            self.table.engine = tile;
            self.placer = Some(p);
            obs.event(&Event::Engine { seat: p, tile });
            if matches!(self.rules.first_player, FirstPlayer::EnginePlacer | FirstPlayer::PreviousOut) {
                // EnginePlacer, and PreviousOut's first round (the Family house rules' variation 4 uses rule 5
                // in round 1).
                self.first = p;
            }
            for t in self.table.trains.iter_mut() {
                t.end = self.table.e;
            }
        }
        self.current = self.first;
        self.phase = match self.rules.opening {
            Opening::CelkoBuildPhase => Phase::Build { kind: BuildKind::Celko, built: 0, placed: false },
            Opening::FastBuild => Phase::Build { kind: BuildKind::Fast, built: 0, placed: false },
            _ => Phase::TurnStart,
        };
    }

    // ---- turns ----

    /// No legal placement in the current phase: draw, or fail the turn.
    fn no_move<O: Observer>(&mut self, phase: Phase, obs: &mut O) {
        let p = self.current;
        // Void inference: the hand (or the tile just drawn, which stays in it) fits none of the
        // values this phase offered.
        if self.voids.track {
            let targets = self.void_targets(p, phase);
            match phase {
                Phase::Normal(Some(_)) | Phase::Cover(Some(_)) | Phase::FollowUp { drawn: Some(_), .. } => {
                    self.void_kept_draw(p, targets);
                }
                _ => self.voids.known[p.index()] |= targets,
            }
        }
        let drawn = match phase {
            Phase::Build { kind: BuildKind::Delayed { .. }, .. } => {
                self.end_turn(obs);
                return;
            }
            Phase::Build { kind, built, placed } => {
                // "a train made up of just the engine": no draw, no marker (docs/rules.md §11).
                if !placed && self.table.trains[p.index()].len == 0 {
                    self.stats.no_start |= p.bit();
                }
                obs.event(&Event::Pass { seat: p });
                self.next_builder(kind, built, obs);
                return;
            }
            Phase::Normal(d) | Phase::Cover(d) | Phase::FollowUp { drawn: d, .. } => d,
            Phase::SecondDouble { .. } | Phase::Swan { .. } | Phase::Setup | Phase::TurnStart | Phase::Over => {
                unreachable!("no_move outside a choice phase: {phase:?}")
            }
        };
        // A tile was already drawn for this step and does not fit: the turn fails (N2, O5, F4).
        // A follow-up draw after an earlier draw needs an edge case of docs/rules.md §11 (`followup_draw_per_double`).
        let may_draw = drawn.is_none()
            && !(matches!(phase, Phase::FollowUp { .. }) && self.turn.drew && !self.rules.followup_draw_per_double);
        // an edge case of docs/rules.md §11: a doubler whose double lies on another seat's train does not mark.
        let exempt_mark = self.rules.doubler_exempt_on_foreign_train
            && matches!(phase, Phase::FollowUp { train, .. } if self.root_of(train).owner().is_some_and(|q| q != p));
        if matches!(phase, Phase::Cover(_)) && self.serving_stage() {
            // `branching_doubles`, docs/rules.md §9 triple cover, stages 2 and 3 (docs/rules.md §11): draw one; if it does not fit, the
            // turn ends without a marker and the next player owes the stage.
            let t = if drawn.is_none() { self.draw(p, obs) } else { None };
            match t {
                Some(t) => self.phase = Phase::Cover(Some(t)),
                None => self.end_turn(obs),
            }
            return;
        }
        if let Phase::Cover(Some(_)) = phase
            && self.continuous_draw_due(p)
        {
            // `continuous_draw`, docs/rules.md §9: the doubler, after everyone failed once, draws until a tile covers; an
            // empty boneyard ends it with a marker (docs/rules.md §11).
            match self.draw(p, obs) {
                Some(t) => self.phase = Phase::Cover(Some(t)),
                None => self.fail_turn(phase, p, obs),
            }
            return;
        }
        if !may_draw {
            if !exempt_mark {
                self.fail_turn(phase, p, obs);
            } else {
                self.end_turn(obs);
            }
            return;
        }
        match self.draw(p, obs) {
            Some(t) => {
                self.phase = match phase {
                    Phase::Normal(_) => Phase::Normal(Some(t)),
                    Phase::Cover(_) => Phase::Cover(Some(t)),
                    Phase::FollowUp { train, value, .. } => Phase::FollowUp { train, value, drawn: Some(t) },
                    _ => unreachable!(),
                }
            }
            None if matches!(phase, Phase::FollowUp { .. }) && self.holdings.hands[p.index()].is_empty() => {
                // an edge case of docs/rules.md §11: a hand emptied by a double that needs cover, and nothing to draw: out.
                self.finish(EndReason::Out(p), true, obs);
            }
            None if self.rules.mark_on_empty_boneyard && !exempt_mark => self.fail_turn(phase, p, obs),
            None => {
                self.note_cover_failure(phase);
                self.end_turn(obs);
            }
        }
    }

    /// A failed turn: the marker goes on (MARK is the last action) and the turn ends.
    fn fail_turn<O: Observer>(&mut self, phase: Phase, p: Seat, obs: &mut O) {
        self.note_cover_failure(phase);
        self.mark(p, obs);
        self.end_turn(obs);
    }

    /// Counts a failed attempt at the obligation being served (continuous draw, `continuous_draw`, docs/rules.md §9).
    pub(super) fn note_cover_failure(&mut self, phase: Phase) {
        if matches!(phase, Phase::Cover(_)) && self.table.pending_len > 0 {
            let i = self.served_index();
            self.table.pending_fails[i] = self.table.pending_fails[i].saturating_add(1);
        }
    }

    /// Whether `p` must keep drawing to cover (`continuous_draw`, docs/rules.md §9): it placed the double being served and
    /// every seat, itself included, has failed to cover it once.
    fn continuous_draw_due(&self, p: Seat) -> bool {
        self.rules.continuous_draw
            && self.table.pending_len > 0
            && self.obligation_to_serve().placer == p
            && self.table.pending_fails[self.served_index()] >= self.players
    }

    fn apply<O: Observer>(&mut self, raw: Move, obs: &mut O) {
        let p = self.current;
        let phase = self.phase;
        // `raw` may carry a blanks-wild orientation; the rest of the turn needs the train only.
        let m = Move { tile: raw.tile, train: raw.train.base() };
        if let Phase::Build { kind, built, placed } = phase {
            if m.is_stop() {
                if kind == (BuildKind::Delayed { optional: true }) && !placed {
                    // He keeps the drawn tile: a pass like a forced one, so nothing is known of it.
                    self.void_kept_draw(p, 0);
                }
                self.end_build(p, kind);
                if let BuildKind::Delayed { .. } = kind {
                    self.end_turn(obs);
                } else {
                    self.next_builder(kind, built, obs);
                }
            } else {
                self.place::<false, _>(p, raw, obs);
                if self.outcome.is_none() {
                    self.phase = Phase::Build { kind, built, placed: true };
                }
            }
            return;
        }
        if m.train == TrainId::BULLET {
            // `bullet_train`, docs/rules.md §9: the declarer lays his whole hand, then every other seat builds.
            let train = self.bullet_train_for(p).expect("offered only when possible");
            self.phase = Phase::Build { kind: BuildKind::Bullet { declarer: p, train }, built: 0, placed: false };
            return;
        }
        if let Phase::Swan { pos } = phase {
            if m.is_stop() {
                // Stopped, or the walk is back at the own seat (STOP is then the only move).
                self.turn.swan_ok = false;
                self.end_turn_or_stuck(obs);
                return;
            }
            let Some((at, _)) = self.swan_target(p, pos) else { unreachable!("a swan placement has a target") };
            if m.train == TrainId::SKIP {
                self.phase = Phase::Swan { pos: at + 1 };
            } else {
                let own_lifted = self.place::<false, _>(p, raw, obs);
                if self.outcome.is_some() {
                    return;
                }
                self.turn.swan_resume = at + 1;
                if m.tile.is_double() {
                    // "unless a double must be finished": its follow-up, then on with the walk.
                    self.after_double(m.train, m.tile.low(), own_lifted, obs);
                } else {
                    self.phase = Phase::Swan { pos: at + 1 };
                }
            }
            return;
        }
        if m.is_stop() {
            if matches!(phase, Phase::FollowUp { .. }) && self.rules.follow_up == FollowUp::CoverSameDouble {
                // `multiple_doubles`, docs/rules.md §9: no more doubles, and no cover in hand: draw for the first double's cover.
                self.no_move(phase, obs);
            } else {
                self.end_turn(obs);
            }
            return;
        }
        let own_lifted = self.place::<false, _>(p, raw, obs);
        if self.outcome.is_some() {
            return;
        }
        let double = m.tile.is_double();
        match phase {
            Phase::Normal(_) if double => self.after_double(m.train, m.tile.low(), own_lifted, obs),
            Phase::FollowUp { train, value, .. } if double => match self.rules.follow_up {
                FollowUp::CoverSameDouble => {
                    // `multiple_doubles`, docs/rules.md §9: another double; the first still needs its cover.
                    self.mark_exempt(m.tile.low(), own_lifted);
                    self.phase = Phase::FollowUp { train, value, drawn: None };
                }
                FollowUp::AnyEligibleWithSecondDouble => {
                    self.mark_exempt(m.tile.low(), own_lifted);
                    self.phase = Phase::SecondDouble { train, value, train2: m.train, value2: m.tile.low() };
                }
                // A chain of doubles: each double earns another follow-up (Celko 1998, the Family house
                // rules).
                _ => self.after_double(m.train, m.tile.low(), own_lifted, obs),
            },
            _ => self.placements_done(obs),
        }
        if self.outcome.is_none()
            && self.rules.early_end_when_stuck
            && matches!(self.phase, Phase::FollowUp { .. } | Phase::SecondDouble { .. })
            && self.stuck()
        {
            // STUCK right after a double that opened a follow-up (an edge case of docs/rules.md §11 (a)): the doubler
            // never draws for a double that can no longer be covered.
            self.finish(EndReason::Stuck, true, obs);
        }
    }

    /// The placements this step owed are made: under swan drive a turn that began on one's own
    /// train walks on over the public trains (`swan_drive`, docs/rules.md §9); otherwise the turn ends.
    fn placements_done<O: Observer>(&mut self, obs: &mut O) {
        if self.turn.swan_ok && self.outcome.is_none() {
            let pos = self.turn.swan_resume.max(1);
            self.phase = Phase::Swan { pos };
        } else {
            self.end_turn_or_stuck(obs);
        }
    }

    /// After a placement that completes the turn: STUCK is tested inside PLACE, before END
    /// (docs/rules.md §6.5), so a stuck round ends mid-turn like going out; else END.
    fn end_turn_or_stuck<O: Observer>(&mut self, obs: &mut O) {
        if self.rules.early_end_when_stuck && self.stuck() {
            self.finish(EndReason::Stuck, true, obs);
        } else {
            self.end_turn(obs);
        }
    }

    /// Marks the double just placed as exempt from becoming an obligation when an exception
    /// applies (last of its suit, or it reprivatised the doubler's own train); returns whether.
    fn mark_exempt(&mut self, value: Pip, own_lifted: bool) -> bool {
        let exempt = (self.rules.last_of_suit_exempt && self.unplayed_fitting(value) == 0)
            || (self.rules.reprivatise_exempt && own_lifted);
        if exempt {
            let i = self.turn.doubles_len as usize - 1;
            self.turn.doubles[i].exempt = true;
        }
        exempt
    }

    /// FOLLOWUP entry after a double (docs/rules.md §6.3, and `follow_up` in §8).
    ///
    /// Under `CoverSameDouble` an exempt double ends the turn at once: its follow-up is its
    /// cover, and it needs none. Under the other follow-up rules the extra tile is owed for
    /// laying a double wherever it goes, so an exemption only keeps the double from obliging
    /// anyone (engine reading; the sources pair the exemptions only with covering).
    pub(super) fn after_double<O: Observer>(&mut self, train: TrainId, value: Pip, own_lifted: bool, obs: &mut O) {
        let exempt = self.mark_exempt(value, own_lifted);
        if exempt && matches!(self.rules.follow_up, FollowUp::CoverSameDouble | FollowUp::Optional) {
            self.placements_done(obs);
        } else {
            self.phase = Phase::FollowUp { train, value, drawn: None };
        }
    }

    /// A build ends: under Celko a trailing double is left open and obliges, stacked (N-2);
    /// the other builds create no obligation (docs/rules.md §11).
    fn end_build(&mut self, p: Seat, kind: BuildKind) {
        let own = TrainId::personal(p);
        let tr = self.table.trains[own.index()];
        if tr.open_double && kind == BuildKind::Celko {
            self.table.push_pending(Obligation { train: own, value: tr.end, placer: p }, 0);
        }
        self.turn.doubles_len = 0;
    }

    fn next_builder<O: Observer>(&mut self, kind: BuildKind, built: u8, obs: &mut O) {
        // A build is the seat's opening turn: it counts as taken (docs/rules.md §6.3: a turn of "any kind").
        self.stats.turns += 1;
        self.stats.turns_taken[self.current.index()] += 1;
        self.turn.doubles_len = 0;
        if built + 1 >= self.players {
            if let BuildKind::Bullet { declarer, .. } = kind {
                self.current = declarer;
                self.finish(EndReason::Out(declarer), false, obs);
                return;
            }
            self.current = self.first;
            self.phase = Phase::TurnStart;
            // an edge case of docs/rules.md §11(e): the fast game ends after the builds if one emptied a hand.
            let n = self.players as usize;
            if let Some(s) = (0..n)
                .map(|k| Seat::from_index((self.first.index() + k) % n))
                .find(|s| self.holdings.hands[s.index()].is_empty())
            {
                self.current = s;
                self.finish(EndReason::Out(s), false, obs);
            }
        } else {
            self.current = self.current.next(self.players);
            self.phase = Phase::Build { kind, built: built + 1, placed: false };
        }
    }

    /// Whether `q`, who ended a turn on one tile, is penalised now: always under the tap models
    /// as stated; under [`crate::Rules::tap_coins`], when the coin says he forgot to announce
    /// and the next says he was caught (`tap_forget`, `tap_catch`). The coins are drawn here,
    /// when the penalty would fall, so nobody can know them earlier, and each is a function of
    /// the round's coin seed and the number of last tiles judged before it
    /// ([`crate::rng::seeds::tap_coin`]); the `tap` event records them.
    fn tap_caught<O: Observer>(&mut self, q: Seat, obs: &mut O) -> bool {
        if !self.rules.tap_coins() {
            return true;
        }
        use crate::rng::seeds::tap_coin;
        let k = u64::from(self.taps_judged);
        self.taps_judged += 1;
        let forgot = self.rules.tap_forget.holds(tap_coin(self.tap_seed, k, 0));
        let caught = forgot && self.rules.tap_catch.holds(tap_coin(self.tap_seed, k, 1));
        obs.event(&Event::Tap { seat: q, forgot, caught });
        caught
    }

    /// A penalty draw: `q` draws up to `k` tiles (N-8; `uncovered_double_penalty`).
    fn penalty_draw<O: Observer>(&mut self, q: Seat, k: usize, reason: PenaltyReason, obs: &mut O) {
        let mut tiles = [None; crate::rules::MAX_PENALTY_TILES];
        for slot in tiles.iter_mut().take(k) {
            *slot = self.holdings.boneyard.draw();
            if let Some(t) = *slot {
                self.void_kept_draw(q, 0);
                self.holdings.hands[q.index()].insert(t);
                self.stats.draws[q.index()] += 1;
                self.stats.total_draws += 1;
            }
        }
        if tiles[0].is_some() {
            self.idle = 0;
            self.idle_seats = 0;
        }
        obs.event(&Event::Penalty { seat: q, tiles, reason });
    }

    /// Tap penalties due at the end of a turn (N-8): Great Harbour Cay's falls after the next player's turn;
    /// then this turn's own offence, if it ended on one tile.
    #[inline(always)]
    fn tap_end_of_turn<O: Observer>(&mut self, p: Seat, obs: &mut O) {
        if self.rules.tap == TapModel::AlwaysAnnounced {
            return; // no penalty model: nothing is ever due
        }
        self.tap_end_of_turn_due(p, obs);
    }

    /// [`Self::tap_end_of_turn`] under a tap penalty model (a call, so that the common end of a
    /// turn without one tests one field inline).
    #[inline(never)]
    fn tap_end_of_turn_due<O: Observer>(&mut self, p: Seat, obs: &mut O) {
        if self.rules.tap == TapModel::DrawOneElseSkip
            && let Some(q) = self.tap_due.take()
            && self.tap_caught(q, obs)
        {
            if self.holdings.boneyard.is_empty() {
                self.skip_next |= q.bit();
            } else {
                self.penalty_draw(q, 1, PenaltyReason::LastTile, obs);
            }
        }
        // The offence: playing down to one tile without announcing it (Celko 1998, Last Tile,
        // Great Harbour Cay, Last domino "when playing the next-to-last tile").
        if self.rules.tap != TapModel::AlwaysAnnounced && self.turn.placed && self.holdings.hands[p.index()].len() == 1
        {
            self.tap_due = Some(p);
        }
    }

    /// END for a skipped turn: it counts as taken, leaves the idle count alone, and the round
    /// cannot end blocked until the skipped seat has had an idle turn of its own.
    fn end_skipped_turn<O: Observer>(&mut self, obs: &mut O) {
        let p = self.current;
        self.stats.turns_taken[p.index()] += 1;
        self.stats.turns += 1;
        self.turn.placed = false;
        self.tap_end_of_turn(p, obs);
        self.current = p.next(self.players);
        self.phase = Phase::TurnStart;
    }

    /// END(p): obligations, turn counters, idle count, blocked test, next seat; for both turn
    /// engines (under plain rules a turn lays at most one double, since a double is covered by
    /// a tile of its own suit, never another double, and every obligation rule reads the same).
    #[inline(always)]
    pub(super) fn end_turn<O: Observer>(&mut self, obs: &mut O) {
        let p = self.current;
        match self.turn.doubles_len {
            0 => {}
            // One double (every turn of the plain loop that lays one): each obligation rule
            // obliges it if it is left open.
            1 => {
                let d = self.turn.doubles[0];
                let tr = &self.table.trains[d.train.index()];
                if !d.exempt && tr.open_double && tr.end == d.value {
                    if self.rules.obligation != ObligationRule::None {
                        let fails = u8::from(self.rules.follow_up == FollowUp::CoverSameDouble);
                        self.table.push_pending(Obligation { train: d.train, value: d.value, placer: p }, fails);
                    }
                    if self.rules.uncovered_double_penalty > 0 {
                        self.uncovered_double_penalty(p, obs);
                    }
                }
            }
            n => {
                self.turn_obligations(p, n as usize);
                if self.rules.uncovered_double_penalty > 0 && (0..n as usize).any(|i| self.left_open(i)) {
                    self.uncovered_double_penalty(p, obs);
                }
            }
        }
        self.end_turn_rest(p, obs);
    }

    /// Whether this turn's double `i` is left uncovered and needs cover: still the open end
    /// of its train with nothing on it, and no exemption applies.
    fn left_open(&self, i: usize) -> bool {
        let d = self.turn.doubles[i];
        let tr = &self.table.trains[d.train.index()];
        !d.exempt && tr.open_double && tr.end == d.value
    }

    /// `uncovered_double_penalty` (docs/rules.md): the doubler's turn ends leaving a double he
    /// placed uncovered; he draws min(N, boneyard), once per turn.
    #[cold]
    #[inline(never)]
    fn uncovered_double_penalty<O: Observer>(&mut self, p: Seat, obs: &mut O) {
        let n = self.rules.uncovered_double_penalty as usize;
        self.penalty_draw(p, n, PenaltyReason::UncoveredDouble, obs);
    }

    /// The obligations the `n` doubles seat `p` laid this turn leave (several doubles in a turn
    /// arise only under rare rules: kept out of the common path).
    #[cold]
    #[inline(never)]
    fn turn_obligations(&mut self, p: Seat, n: usize) {
        let open = |s: &Self, i: usize| s.left_open(i);
        // An uncovered double under CoverSameDouble means its doubler already failed to cover it.
        let fails = u8::from(self.rules.follow_up == FollowUp::CoverSameDouble);
        match self.rules.obligation {
            ObligationRule::None => {}
            ObligationRule::UncoveredDouble => {
                // Several doubles left open (several per turn, or any-train follow-ups): the
                // first left open obliges, the rest are ordinary open ends (engine default).
                if let Some(i) = (0..n).find(|&i| open(self, i)) {
                    let d = self.turn.doubles[i];
                    self.table.push_pending(Obligation { train: d.train, value: d.value, placer: p }, fails);
                }
            }
            ObligationRule::LastDoubleOfTurn => {
                if open(self, n - 1) {
                    let d = self.turn.doubles[n - 1];
                    self.table.push_pending(Obligation { train: d.train, value: d.value, placer: p }, fails);
                }
            }
            ObligationRule::AllUncovered => {
                for i in 0..n {
                    if open(self, i) {
                        let d = self.turn.doubles[i];
                        self.table.push_pending(Obligation { train: d.train, value: d.value, placer: p }, fails);
                    }
                }
            }
        }
    }

    /// END after the obligations: turn counters, idle count, tap penalties, the blocked test,
    /// the next seat (shared with the plain loop's END).
    #[inline(always)]
    pub(super) fn end_turn_rest<O: Observer>(&mut self, p: Seat, obs: &mut O) {
        self.turn.doubles_len = 0;
        self.stats.turns_taken[p.index()] += 1;
        self.stats.turns += 1;
        let idle_turn = !(self.turn.placed || self.turn.drew || self.turn.marker_changed);
        if idle_turn {
            self.idle = self.idle.saturating_add(1);
            self.idle_seats |= p.bit();
            obs.event(&Event::Pass { seat: p });
        } else {
            self.idle = 0;
            self.idle_seats = 0;
        }
        self.tap_end_of_turn(p, obs);
        // Blocked: only an idle turn can complete a go-round of idle turns (after any other the
        // idle count is 0, and a tap penalty draw can only reset it), so only an idle turn tests it.
        let everyone = ((1u32 << self.players) - 1) as u16;
        if idle_turn && self.holdings.boneyard.is_empty() && self.idle >= self.players && self.idle_seats == everyone {
            self.finish(EndReason::Blocked, false, obs);
            return;
        }
        self.current = p.next(self.players);
        self.phase = Phase::TurnStart;
    }

    /// STUCK() of docs/rules.md §6.5 (and §11, edge cases): no tile can ever be played again.
    pub(super) fn stuck(&self) -> bool {
        let needing_cover = match self.phase {
            Phase::FollowUp { train, value, .. }
                if self.rules.follow_up == FollowUp::CoverSameDouble
                    && self.table.trains[train.index()].open_double
                    && self.table.trains[train.index()].end == value =>
            {
                Some(value)
            }
            _ if self.table.pending_len > 0 => Some(self.obligation_to_serve().value),
            _ => None,
        };
        if let Some(v) = needing_cover {
            return self.unplayed_fitting(v) == 0;
        }
        let personal_dead = (0..self.players as usize).all(|s| self.unplayed_fitting(self.table.trains[s].end) == 0);
        let branches_dead = (0..self.table.branches as usize)
            .all(|k| self.unplayed_fitting(self.table.trains[TrainId::branch(k).index()].end) == 0);
        let mex_dead = (0..self.table.mexican_started as usize)
            .all(|i| self.unplayed_fitting(self.table.trains[TrainId::mexican(i).index()].end) == 0);
        let start_dead =
            self.table.mexican_started >= self.rules.max_mexican_trains || self.unplayed_fitting(self.table.e) == 0;
        personal_dead && mex_dead && start_dead && branches_dead
    }
}
