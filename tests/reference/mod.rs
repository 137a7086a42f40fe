//! A deliberately naive reference model of one `wikipedia` round (RULES.md §5.0 and §5.2).
//!
//! Written from RULES.md alone, never from the engine's `src/round` code: the point is to have
//! two independent implementations that must agree move for move (DESIGN.md §7 habit 5). So
//! everything here is the obvious thing: tiles are `(low, high)` pairs in `Vec`s, legal moves are
//! found by looping over every tile and every train, and unplayed tiles are counted by scanning
//! every hand and the boneyard. No bitsets, no caches, no engine types.
//!
//! The model follows the engine's convention for choices (RULES.md §5.0.1): it stops and asks only
//! when the seat to act has two or more legal placements; a single legal placement is applied
//! without asking, and draws, markers, passes and the round end are always forced.
//!
//! Rules modelled (the `wikipedia` preset):
//! - engine `[e|e]` set aside; hands and the boneyard in draw order are given (ED-1);
//! - OBLIGATED (§5.0.5 O1, O3–O5): cover the single pending double on its train, else draw one
//!   and cover with it if it fits, else mark (`mark_on_empty_boneyard = true`);
//! - NORMAL (§5.0.5 N1–N3): in a seat's first turn only its own train (ED-27); from its second
//!   turn its own train, the started Mexican train, every other seat's marked train, and starting
//!   the Mexican train with a tile holding e (AnyTime, at most one); else draw one and play it if
//!   it fits, else mark;
//! - markers come off only when the owner places on his own train (OwnerOnOwnTrain, N-4);
//! - FOLLOWUP (§5.2 F1–F4): the last-of-suit exemption, then cover the same double from hand,
//!   else draw one for that double (ED-9) and cover with it, else mark (ED-28);
//! - going out ends the round at once, even on a double (ED-14, N-6); END is then not run;
//! - END (§5.0.4): obligation creation, turn count, idle count, blocked after N idle turns with
//!   an empty boneyard (ED-16);
//! - scoring: the sum of the pips left in each hand (`[0|0]` is 0).

/// A tile as `(low, high)`.
pub type Pair = (u8, u8);

/// Where a tile can go.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Target {
    /// The personal train of a seat.
    Personal(usize),
    /// The Mexican train (placing here when it does not exist yet starts it).
    Mexican,
}

/// One placement: a tile from the hand on a train.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Placement {
    pub tile: Pair,
    pub target: Target,
}

/// What kind of choice a seat faces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Normal,
    Cover,
    FollowUp,
}

/// Why the round ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    Out(usize),
    Blocked,
}

/// An uncovered double that the following players must cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pending {
    pub target: Target,
    pub value: u8,
    pub placer: usize,
}

/// Things that happen at the table, in order (DESIGN.md §6 event semantics).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Happening {
    Play { seat: usize, tile: Pair, target: Target, end: u8 },
    Draw { seat: usize, tile: Pair },
    Mark { seat: usize },
    Unmark { seat: usize },
    Pass { seat: usize },
    End { ending: Ending, scores: Vec<u32> },
}

/// Counts of the rarer rule situations met in a round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Doubles freed by the last-of-suit exemption.
    pub exempt_doubles: u32,
    /// Doubles left uncovered at END that became obligations.
    pub obligations: u32,
    /// Obligated turns that failed (draw, then mark).
    pub failed_covers: u32,
    /// Follow-up draws in a turn that had already drawn (ED-9).
    pub second_draws: u32,
    /// Placements on another seat's marked train.
    pub foreign_plays: u32,
    /// Mexican train starts.
    pub mexican_starts: u32,
    /// Rounds won by placing a double as the last tile.
    pub out_on_double: u32,
    /// Rounds ended blocked.
    pub blocked: u32,
    /// Failed turns with an empty boneyard (mark without a draw).
    pub empty_marks: u32,
    /// Normal choices among placements of a just-drawn tile.
    pub drawn_choices: u32,
}

/// A train: the tiles laid on it, in order, and its open end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub tiles: Vec<Pair>,
    pub end: u8,
}

impl Line {
    /// Whether the last tile is a double (nothing can lie on the last tile).
    pub fn open_double(&self) -> bool {
        match self.tiles.last() {
            Some(&(a, b)) => a == b,
            None => false,
        }
    }
}

/// Where the model is inside the current turn.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// The seat `current` is about to start its turn.
    TurnStart,
    /// Waiting for the seat to pick one of these.
    Choose(Kind, Vec<Placement>),
    /// A normal placement was made; a double now needs its follow-up.
    AfterNormal(Placement),
    /// The turn's actions are done; run END.
    EndTurn,
    /// The round is over.
    Over,
}

/// What happened in the current turn (for END).
#[derive(Clone, Debug, Default)]
struct TurnLog {
    placed: bool,
    drew: bool,
    marker_changed: bool,
    /// Doubles placed this turn, with whether the last-of-suit exemption freed them.
    doubles: Vec<(Target, u8, bool)>,
}

/// One round of the `wikipedia` rules, naively.
#[derive(Clone, Debug)]
pub struct Model {
    /// The engine number.
    pub e: u8,
    pub hands: Vec<Vec<Pair>>,
    /// Draw order: index 0 is drawn first.
    pub boneyard: Vec<Pair>,
    pub personal: Vec<Line>,
    /// `None` until started.
    pub mexican: Option<Line>,
    pub marker: Vec<bool>,
    pub pending: Vec<Pending>,
    pub turns_taken: Vec<u32>,
    pub played_own: Vec<bool>,
    pub idle: u32,
    pub current: usize,
    /// Turns completed (END run) in the round.
    pub turns: u32,
    /// Tiles drawn in the round.
    pub draws: u32,
    /// Set when the round is over: why, and each seat's score.
    pub result: Option<(Ending, Vec<u32>)>,
    /// Everything that happened since the caller last cleared it.
    pub log: Vec<Happening>,
    /// How often the rarer rules fired (to prove a test exercises them).
    pub tally: Tally,
    phase: Phase,
    turn: TurnLog,
}

fn norm(a: u8, b: u8) -> Pair {
    if a <= b { (a, b) } else { (b, a) }
}

fn has(t: Pair, v: u8) -> bool {
    t.0 == v || t.1 == v
}

fn other_half(t: Pair, v: u8) -> u8 {
    if t.0 == v { t.1 } else { t.0 }
}

impl Model {
    /// A round on double-`max` with engine `[e|e]` set aside, the given hands, the boneyard in
    /// draw order, and `first` to play first.
    pub fn new(max: u8, e: u8, hands: Vec<Vec<Pair>>, boneyard: Vec<Pair>, first: usize) -> Model {
        let n = hands.len();
        assert!(first < n);
        let hands: Vec<Vec<Pair>> =
            hands.into_iter().map(|h| h.into_iter().map(|(a, b)| norm(a, b)).collect()).collect();
        let boneyard: Vec<Pair> = boneyard.into_iter().map(|(a, b)| norm(a, b)).collect();
        // The deal must be the whole set minus the engine, each tile once.
        let mut all: Vec<Pair> = hands.iter().flatten().copied().chain(boneyard.iter().copied()).collect();
        all.push((e, e));
        all.sort();
        let mut full = Vec::new();
        for a in 0..=max {
            for b in a..=max {
                full.push((a, b));
            }
        }
        assert_eq!(all, full, "the deal is not the double-{max} set");
        Model {
            e,
            hands,
            boneyard,
            personal: vec![Line { tiles: Vec::new(), end: e }; n],
            mexican: None,
            marker: vec![false; n],
            pending: Vec::new(),
            turns_taken: vec![0; n],
            played_own: vec![false; n],
            idle: 0,
            current: first,
            turns: 0,
            draws: 0,
            result: None,
            log: Vec::new(),
            tally: Tally::default(),
            phase: Phase::TurnStart,
            turn: TurnLog::default(),
        }
    }

    pub fn players(&self) -> usize {
        self.hands.len()
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The open end of a target. The unstarted Mexican slot shows e.
    pub fn end_of(&self, target: Target) -> u8 {
        match target {
            Target::Personal(s) => self.personal[s].end,
            Target::Mexican => match &self.mexican {
                Some(line) => line.end,
                None => self.e,
            },
        }
    }

    /// Every tile on the table, the engine included.
    pub fn table(&self) -> Vec<Pair> {
        let mut out = vec![(self.e, self.e)];
        for line in &self.personal {
            out.extend(line.tiles.iter().copied());
        }
        if let Some(line) = &self.mexican {
            out.extend(line.tiles.iter().copied());
        }
        out
    }

    /// How many tiles holding `v` are not on the table (in some hand or in the boneyard).
    pub fn unplayed(&self, v: u8) -> usize {
        let mut count = 0;
        for hand in &self.hands {
            for &t in hand {
                if has(t, v) {
                    count += 1;
                }
            }
        }
        for &t in &self.boneyard {
            if has(t, v) {
                count += 1;
            }
        }
        count
    }

    /// The trains seat `p` may play on in a normal turn (not counting the Mexican start).
    fn normal_targets(&self, p: usize) -> Vec<Target> {
        let mut targets = vec![Target::Personal(p)];
        if self.turns_taken[p] == 0 {
            // ED-27: the first turn is the opening move, own train only.
            return targets;
        }
        if self.mexican.is_some() {
            targets.push(Target::Mexican);
        }
        for q in 0..self.players() {
            if q != p && self.marker[q] {
                targets.push(Target::Personal(q));
            }
        }
        targets
    }

    /// NORMAL_OPTIONS(p, tiles) of §5.2.
    fn normal_options(&self, p: usize, tiles: &[Pair]) -> Vec<Placement> {
        let mut out = Vec::new();
        let targets = self.normal_targets(p);
        for &t in tiles {
            for &target in &targets {
                if has(t, self.end_of(target)) {
                    out.push(Placement { tile: t, target });
                }
            }
        }
        // startOpts: from the second turn, while no Mexican train exists.
        if self.turns_taken[p] >= 1 && self.mexican.is_none() {
            for &t in tiles {
                if has(t, self.e) {
                    out.push(Placement { tile: t, target: Target::Mexican });
                }
            }
        }
        out
    }

    /// Tiles of `tiles` that can cover value `v` on `target`.
    fn cover_options(tiles: &[Pair], v: u8, target: Target) -> Vec<Placement> {
        let mut out = Vec::new();
        for &t in tiles {
            if has(t, v) {
                out.push(Placement { tile: t, target });
            }
        }
        out
    }

    fn draw(&mut self, p: usize) -> Option<Pair> {
        if self.boneyard.is_empty() {
            return None;
        }
        let t = self.boneyard.remove(0);
        self.hands[p].push(t);
        self.draws += 1;
        self.turn.drew = true;
        self.log.push(Happening::Draw { seat: p, tile: t });
        Some(t)
    }

    fn mark(&mut self, p: usize) {
        if !self.marker[p] {
            self.marker[p] = true;
            self.turn.marker_changed = true;
            self.log.push(Happening::Mark { seat: p });
        }
    }

    /// PLACE(p, t, τ) of §5.0.3. Returns true if the round ended (p went out).
    fn place(&mut self, p: usize, mv: Placement) -> bool {
        let t = mv.tile;
        let at = self.hands[p].iter().position(|&x| x == t).expect("placing a tile not in hand");
        self.hands[p].remove(at);
        let e = self.e;
        if mv.target == Target::Mexican && self.mexican.is_none() {
            self.tally.mexican_starts += 1;
        }
        if let Target::Personal(q) = mv.target
            && q != p
            && self.marker[q]
            && self.pending.is_empty()
        {
            self.tally.foreign_plays += 1;
        }
        let line = match mv.target {
            Target::Personal(s) => &mut self.personal[s],
            Target::Mexican => self.mexican.get_or_insert_with(|| Line { tiles: Vec::new(), end: e }),
        };
        assert!(has(t, line.end), "{t:?} does not match end {}", line.end);
        let covered = line.open_double();
        let new_end = other_half(t, line.end);
        line.tiles.push(t);
        line.end = new_end;
        // 2. Covering a double removes it from pending.
        if covered {
            self.pending.retain(|o| o.target != mv.target);
        }
        self.turn.placed = true;
        self.log.push(Happening::Play { seat: p, tile: t, target: mv.target, end: new_end });
        // 3. Remember doubles placed this turn.
        if t.0 == t.1 {
            self.turn.doubles.push((mv.target, t.0, false));
        }
        // 4, 5. Own train: played_own, and the owner's placement lifts his marker.
        if mv.target == Target::Personal(p) {
            self.played_own[p] = true;
            if self.marker[p] {
                self.marker[p] = false;
                self.turn.marker_changed = true;
                self.log.push(Happening::Unmark { seat: p });
            }
        }
        // 6. Going out ends the round at once, double or not (ED-14).
        if self.hands[p].is_empty() {
            if t.0 == t.1 {
                self.tally.out_on_double += 1;
            }
            self.finish(Ending::Out(p));
            return true;
        }
        false
    }

    fn finish(&mut self, ending: Ending) {
        let mut scores = Vec::new();
        for hand in &self.hands {
            let mut sum = 0u32;
            for &(a, b) in hand {
                sum += u32::from(a) + u32::from(b);
            }
            scores.push(sum);
        }
        self.log.push(Happening::End { ending, scores: scores.clone() });
        self.result = Some((ending, scores));
        self.phase = Phase::Over;
    }

    /// Applies every forced action until the seat to act has a real choice (returned with the
    /// legal placements, two or more) or the round is over (`None`).
    pub fn advance(&mut self) -> Option<(usize, Kind, Vec<Placement>)> {
        loop {
            let p = self.current;
            match self.phase.clone() {
                Phase::Over => return None,
                Phase::Choose(kind, moves) => return Some((p, kind, moves)),
                Phase::TurnStart => {
                    self.turn = TurnLog::default();
                    if let Some(&x) = self.pending.last() {
                        self.obligated(p, x);
                    } else {
                        self.normal(p);
                    }
                }
                Phase::AfterNormal(mv) => {
                    if mv.tile.0 == mv.tile.1 {
                        self.follow_up(p, mv.target, mv.tile.0);
                    } else {
                        self.phase = Phase::EndTurn;
                    }
                }
                Phase::EndTurn => self.end_turn(p),
            }
        }
    }

    /// Applies the seat's choice, which must be one of the placements `advance` offered.
    pub fn play(&mut self, mv: Placement) {
        let p = self.current;
        let kind = match &self.phase {
            Phase::Choose(kind, moves) => {
                assert!(moves.contains(&mv), "{mv:?} was not offered: {moves:?}");
                *kind
            }
            other => panic!("no choice pending (phase {other:?})"),
        };
        if self.place(p, mv) {
            return;
        }
        self.phase = match kind {
            Kind::Normal => Phase::AfterNormal(mv),
            Kind::Cover | Kind::FollowUp => Phase::EndTurn,
        };
    }

    /// OBLIGATED(p) of §5.0.5 (LIFO; there is only ever one obligation in this preset).
    fn obligated(&mut self, p: usize, x: Pending) {
        let c = Model::cover_options(&self.hands[p], x.value, x.target);
        if c.len() >= 2 {
            self.phase = Phase::Choose(Kind::Cover, c);
            return;
        }
        if c.len() == 1 {
            if !self.place(p, c[0]) {
                self.phase = Phase::EndTurn;
            }
            return;
        }
        match self.draw(p) {
            Some(t) if has(t, x.value) => {
                if !self.place(p, Placement { tile: t, target: x.target }) {
                    self.phase = Phase::EndTurn;
                }
            }
            drawn => {
                // Drew a non-fitting tile, or the boneyard is empty: mark either way.
                self.tally.failed_covers += 1;
                if drawn.is_none() {
                    self.tally.empty_marks += 1;
                }
                self.mark(p);
                self.phase = Phase::EndTurn;
            }
        }
    }

    /// NORMAL(p) of §5.0.5.
    fn normal(&mut self, p: usize) {
        let hand = self.hands[p].clone();
        let a = self.normal_options(p, &hand);
        let a = if a.is_empty() {
            match self.draw(p) {
                None => {
                    self.tally.empty_marks += 1;
                    self.mark(p);
                    self.phase = Phase::EndTurn;
                    return;
                }
                Some(t) => self.normal_options(p, &[t]),
            }
        } else {
            a
        };
        if a.is_empty() {
            self.mark(p);
            self.phase = Phase::EndTurn;
        } else if a.len() == 1 {
            if !self.place(p, a[0]) {
                self.phase = Phase::AfterNormal(a[0]);
            }
        } else {
            if self.turn.drew {
                self.tally.drawn_choices += 1;
            }
            self.phase = Phase::Choose(Kind::Normal, a);
        }
    }

    /// FOLLOWUP(p, D) of §5.2, for the double `[v|v]` just placed on `target`.
    fn follow_up(&mut self, p: usize, target: Target, v: u8) {
        // F1: last of its suit needs no cover.
        if self.unplayed(v) == 0 {
            let last = self.turn.doubles.last_mut().expect("a double was placed");
            last.2 = true;
            self.tally.exempt_doubles += 1;
            self.phase = Phase::EndTurn;
            return;
        }
        // F2: cover from hand.
        let c = Model::cover_options(&self.hands[p], v, target);
        if c.len() >= 2 {
            self.phase = Phase::Choose(Kind::FollowUp, c);
            return;
        }
        if c.len() == 1 {
            if !self.place(p, c[0]) {
                self.phase = Phase::EndTurn;
            }
            return;
        }
        // F3: draw for the double (ED-9), even if this turn already drew.
        if self.turn.drew && !self.boneyard.is_empty() {
            self.tally.second_draws += 1;
        }
        match self.draw(p) {
            Some(t) if has(t, v) => {
                if !self.place(p, Placement { tile: t, target }) {
                    self.phase = Phase::EndTurn;
                }
            }
            _ => {
                // F4: mark, wherever the double lies (ED-28).
                self.mark(p);
                self.phase = Phase::EndTurn;
            }
        }
    }

    /// END(p) of §5.0.4 with the §5.2 obligation step.
    fn end_turn(&mut self, p: usize) {
        // 1. The turn's double, if still uncovered and not exempt, becomes the obligation.
        if self.turn.doubles.len() == 1 {
            let (target, v, exempt) = self.turn.doubles[0];
            let line = match target {
                Target::Personal(s) => &self.personal[s],
                Target::Mexican => self.mexican.as_ref().expect("a double lies on it"),
            };
            let uncovered = line.open_double() && line.end == v;
            if uncovered && !exempt {
                self.pending = vec![Pending { target, value: v, placer: p }];
                self.tally.obligations += 1;
            }
        }
        assert!(self.turn.doubles.len() <= 1, "one double per turn");
        // 2.
        self.turns_taken[p] += 1;
        self.turns += 1;
        // 3.
        if !self.turn.placed && !self.turn.drew && !self.turn.marker_changed {
            self.idle += 1;
            self.log.push(Happening::Pass { seat: p });
        } else {
            self.idle = 0;
        }
        // 4.
        if self.boneyard.is_empty() && self.idle as usize >= self.players() {
            self.tally.blocked += 1;
            self.finish(Ending::Blocked);
            return;
        }
        self.current = (p + 1) % self.players();
        self.phase = Phase::TurnStart;
    }
}
