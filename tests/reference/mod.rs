//! A deliberately naive reference model of one round under each of the five presets of
//! RULES.md §5 (`celko1998` §5.1, `wikipedia` §5.2, `dominorules` §5.3, `family_house` §5.4 with
//! its default v1 obligation, `harbour_cay` §5.5), built on the shared machinery of §5.0.
//!
//! Written from RULES.md alone, never from the engine's `src/round` code: the point is to have
//! two independent implementations that must agree move for move (DESIGN.md §7 habit 5). So
//! everything here is the obvious thing: tiles are `(low, high)` pairs in `Vec`s, legal moves are
//! found by looping over every tile and every train, and unplayed tiles are counted by scanning
//! every hand and the boneyard. No bitsets, no caches, no engine types. Each procedure of §5.0.5
//! and each preset section is a plain function that `match`es on the [`Preset`] where the presets
//! differ, so the code reads side by side with the pseudocode.
//!
//! The model follows the engine's convention for choices (RULES.md §5.0.1): it stops and asks only
//! when the seat to act has two or more legal options; a single legal option is applied without
//! asking, and draws, markers, passes, the engine search and the round end are always forced.
//! A Celko build (§5.1 S5) is asked for one tile at a time: the options are every hand tile that
//! fits the builder's open end, plus [`Placement::STOP`] once at least one tile is laid.
//!
//! Conventions the rules leave to the engine, mirrored here:
//! - the turn in which the round ends (going out, or STUCK in `harbour_cay`) counts as taken
//!   (RULES.md PLACE step 6 ends the round before END would count it);
//! - a Celko build is each seat's opening turn: it counts in `turns` and `turns_taken` (one per
//!   seat, an empty build included), does not change `idle`, and an empty build (m = 0) is
//!   logged as a pass;
//! - a turn ended by going out or by STUCK leaves `idle` as it was (END does not run);
//! - the engine-search draws (N-1) are ordinary draws, logged before the engine placement;
//! - the doubles left open by Celko builds are stacked in build order (LIFO served);
//! - `dominorules`: the third tile after a second double is a follow-up choice of its own.
//!
//! Rules modelled, per preset (the preset sections of RULES.md have the sources):
//! - `celko1998`: `[e|e]` from a hand, else sequential draws from L_r (N-1); the build phase from
//!   the placer (N-2, ED-8); Mexican start only when nothing else fits (ED-13); anyone's play
//!   lifts a marker (ED-34); no marker with an empty boneyard (ED-12); follow-up anywhere eligible
//!   or on the turn's own uncovered doubles, chains of doubles, Mexican start as a last resort;
//!   the last double of a turn obliges (ED-11), LIFO;
//! - `wikipedia`: `[e|e]` set aside; first turn own train only (ED-27); cover the same double,
//!   last-of-suit exemption; owner unmarks; the doubler marks wherever the double lies (ED-28);
//! - `dominorules`: `[e|e]` set aside; follow-up anywhere eligible, or a second double when a
//!   third tile from hand then covers one of the two; a drawn follow-up goes anywhere eligible;
//! - `family_house`: `[e|e]` from a hand, else complete rounds of drawing from L_r (N-1); the
//!   owner's placement anywhere lifts his marker (ED-35); follow-up anywhere, chains; every
//!   uncovered double of a turn obliges, FIFO (ED-29);
//! - `harbour_cay`: `[e|e]` from a hand, else the highest `[e|w]` held; other seats' open trains
//!   only from the second turn; Mexican start only after a play on one's own train; cover the
//!   same double; ED-17 (a first-turn player facing a foreign obligation draws and marks); the
//!   STUCK test after every placement (ED-18); `[0|0]` scores 50.
//!
//! Shared by all: going out ends the round at once, even on a double (ED-14, N-6); END
//! (§5.0.4): obligation creation, turn count, idle count, blocked after N idle turns with an
//! empty boneyard (ED-16); scoring is the sum of the pips left in each hand.

/// A tile as `(low, high)`.
pub type Pair = (u8, u8);

/// The five presets of RULES.md §5.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Preset {
    Celko1998,
    Wikipedia,
    Dominorules,
    FamilyHouse,
    HarbourCay,
}

impl Preset {
    /// The preset id of RULES.md §0.1.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Celko1998 => "celko1998",
            Preset::Wikipedia => "wikipedia",
            Preset::Dominorules => "dominorules",
            Preset::FamilyHouse => "family_house",
            Preset::HarbourCay => "harbour_cay",
        }
    }

    /// N-1 `SetAside`: `[e|e]` is removed before the deal. Otherwise the whole set is dealt and
    /// the engine comes from a hand.
    pub fn sets_engine_aside(self) -> bool {
        matches!(self, Preset::Wikipedia | Preset::Dominorules)
    }

    /// P-17: a failed turn with an empty boneyard marks (`celko1998`: "he simply passes", ED-12).
    fn mark_on_empty_boneyard(self) -> bool {
        self != Preset::Celko1998
    }

    /// P-34: the value of `[0|0]` left in hand.
    fn double_blank_value(self) -> u32 {
        if self == Preset::HarbourCay { 50 } else { 0 }
    }
}

/// Where a tile can go.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Target {
    /// The personal train of a seat.
    Personal(usize),
    /// The Mexican train (placing here when it does not exist yet starts it).
    Mexican,
    /// Not a train: ending a Celko build (see [`Placement::STOP`]).
    Stop,
}

/// One placement: a tile from the hand on a train.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Placement {
    pub tile: Pair,
    pub target: Target,
}

impl Placement {
    /// Ending a Celko build voluntarily once at least one tile is laid.
    pub const STOP: Placement = Placement { tile: (0, 0), target: Target::Stop };
}

/// What kind of choice a seat faces.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Build,
    Normal,
    Cover,
    FollowUp,
}

/// Why the round ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    Out(usize),
    Blocked,
    Stuck,
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
    Engine { seat: usize, tile: Pair },
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
    /// Doubles freed by the last-of-suit exemption (wikipedia).
    pub exempt_doubles: u32,
    /// Doubles left uncovered at END that became obligations.
    pub obligations: u32,
    /// Turns that began with two or more obligations pending.
    pub stacked_obligations: u32,
    /// Obligated turns that failed (draw, then mark or pass).
    pub failed_covers: u32,
    /// Follow-up draws in a turn that had already drawn (ED-9).
    pub second_draws: u32,
    /// Placements on another seat's marked train outside an obligation.
    pub foreign_plays: u32,
    /// Mexican train starts.
    pub mexican_starts: u32,
    /// Mexican train starts as a follow-up.
    pub followup_starts: u32,
    /// Rounds won by placing a double as the last tile.
    pub out_on_double: u32,
    /// Rounds won right after an idle turn (`idle` stays as it was: END is not run).
    pub out_after_idle: u32,
    /// Rounds ended blocked.
    pub blocked: u32,
    /// Failed turns with an empty boneyard that marked.
    pub empty_marks: u32,
    /// Failed turns with an empty boneyard that passed without a marker (celko1998, ED-12).
    pub empty_passes: u32,
    /// Follow-ups that had to draw from an empty boneyard (mark, or celko1998's pass).
    pub empty_follow_ups: u32,
    /// Normal choices among placements of a just-drawn tile.
    pub drawn_choices: u32,
    /// Engine-search draws (N-1).
    pub search_draws: u32,
    /// family_house: a round of drawing cut short by the empty boneyard (N-1).
    pub search_rounds_cut: u32,
    /// Celko builds of no tile (ED-8).
    pub build_passes: u32,
    /// Celko builds stopped by choice while another tile fitted.
    pub build_stops: u32,
    /// Celko builds that ended on a double (an obligation from the build).
    pub build_doubles: u32,
    /// Rounds that ended during the build phase.
    pub build_outs: u32,
    /// Doubles placed as a follow-up (chains; dominorules' second double).
    pub chained_doubles: u32,
    /// Follow-up tiles placed somewhere other than on an uncovered double of the turn.
    pub followup_elsewhere: u32,
    /// Follow-ups offered the train of a turn's uncovered double that was not otherwise eligible.
    pub reached_own_doubles: u32,
    /// dominorules: third-tile choices after a second double.
    pub third_tile_choices: u32,
    /// dominorules: rounds won with a second double as the last tile.
    pub second_double_outs: u32,
    /// Markers lifted by another seat's play (celko1998, taking on freight).
    pub freight_unmarks: u32,
    /// Markers lifted by the owner's play away from his own train (family_house).
    pub anywhere_unmarks: u32,
    /// harbour_cay: a non-double engine `[e|w]`.
    pub non_double_engines: u32,
    /// harbour_cay: ED-17 (first turn, obligation on another seat's train).
    pub first_turn_blocks: u32,
    /// harbour_cay: Mexican start refused for lack of a play on one's own train.
    pub start_refusals: u32,
    /// harbour_cay: STUCK (a), an uncovered double with no cover left.
    pub stuck_double: u32,
    /// harbour_cay: STUCK (b), every open end exhausted.
    pub stuck_ends: u32,
    /// harbour_cay: STUCK while the boneyard still held tiles.
    pub stuck_early: u32,
}

impl Tally {
    pub fn add(&mut self, t: &Tally) {
        self.exempt_doubles += t.exempt_doubles;
        self.obligations += t.obligations;
        self.stacked_obligations += t.stacked_obligations;
        self.failed_covers += t.failed_covers;
        self.second_draws += t.second_draws;
        self.foreign_plays += t.foreign_plays;
        self.mexican_starts += t.mexican_starts;
        self.followup_starts += t.followup_starts;
        self.out_on_double += t.out_on_double;
        self.out_after_idle += t.out_after_idle;
        self.blocked += t.blocked;
        self.empty_marks += t.empty_marks;
        self.empty_passes += t.empty_passes;
        self.empty_follow_ups += t.empty_follow_ups;
        self.drawn_choices += t.drawn_choices;
        self.search_draws += t.search_draws;
        self.search_rounds_cut += t.search_rounds_cut;
        self.build_passes += t.build_passes;
        self.build_stops += t.build_stops;
        self.build_doubles += t.build_doubles;
        self.build_outs += t.build_outs;
        self.chained_doubles += t.chained_doubles;
        self.followup_elsewhere += t.followup_elsewhere;
        self.reached_own_doubles += t.reached_own_doubles;
        self.third_tile_choices += t.third_tile_choices;
        self.second_double_outs += t.second_double_outs;
        self.freight_unmarks += t.freight_unmarks;
        self.anywhere_unmarks += t.anywhere_unmarks;
        self.non_double_engines += t.non_double_engines;
        self.first_turn_blocks += t.first_turn_blocks;
        self.start_refusals += t.start_refusals;
        self.stuck_double += t.stuck_double;
        self.stuck_ends += t.stuck_ends;
        self.stuck_early += t.stuck_early;
    }
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

/// Which procedure offered a choice, so that the placement is followed up the right way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// §5.1 S5: the next tile of a Celko build, or STOP.
    Build,
    /// NORMAL N3.
    Normal,
    /// OBLIGATED O3/O4.
    Cover,
    /// The preset's FOLLOWUP.
    FollowUp,
    /// §5.3 F2: the third tile after a second double.
    ThirdTile,
}

/// Where the model is inside the round.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    /// The engine is not placed yet (engine from a hand).
    Setup,
    /// The Celko build phase: the builder is seat `(placer + build_k) mod N`.
    Build,
    /// The seat `current` is about to start its turn.
    TurnStart,
    /// Waiting for the seat to pick one of these.
    Choose(Ctx, Vec<Placement>),
    /// The double `[v|v]` was just placed on this train: run the preset's FOLLOWUP.
    FollowUp(Target, u8),
    /// dominorules: a second double was placed; a third tile must cover one of the two.
    ThirdTile,
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
    /// Doubles placed this turn, in order, with whether the last-of-suit exemption freed them.
    doubles: Vec<(Target, u8, bool)>,
}

/// One round under one preset, naively.
#[derive(Clone, Debug)]
pub struct Model {
    pub preset: Preset,
    /// The engine number.
    pub e: u8,
    /// The engine tile, once it lies in the centre.
    pub engine: Option<Pair>,
    /// The seat that placed the engine from its hand.
    pub placer: Option<usize>,
    /// L_r: where engine-search draws start.
    pub lead: usize,
    /// The first player of the normal phase: the given seat, or the engine placer once placed
    /// in the presets where he starts (§5.1 S6, §5.4 S4, §5.5 S5).
    pub first: usize,
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
    /// Turns completed in the round (Celko builds included).
    pub turns: u32,
    /// Tiles drawn in the round (engine-search draws included).
    pub draws: u32,
    /// Set when the round is over: why, and each seat's score.
    pub result: Option<(Ending, Vec<u32>)>,
    /// Everything that happened since the caller last cleared it.
    pub log: Vec<Happening>,
    /// How often the rarer rules fired (to prove a test exercises them).
    pub tally: Tally,
    phase: Phase,
    turn: TurnLog,
    /// Celko build phase: how many seats have built, and the current builder's tile count.
    build_k: usize,
    build_laid: usize,
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

fn is_double(t: Pair) -> bool {
    t.0 == t.1
}

impl Model {
    /// A round of `preset` on double-`max` with engine number `e`, the given hands and boneyard
    /// (draw order). Under `SetAside` presets `[e|e]` is not in the deal and `first` plays
    /// first; otherwise the whole set is dealt, the engine search starts at `lead`, and the
    /// engine placer plays first.
    pub fn new(
        preset: Preset,
        max: u8,
        e: u8,
        hands: Vec<Vec<Pair>>,
        boneyard: Vec<Pair>,
        lead: usize,
        first: usize,
    ) -> Model {
        let n = hands.len();
        assert!(first < n && lead < n);
        let hands: Vec<Vec<Pair>> =
            hands.into_iter().map(|h| h.into_iter().map(|(a, b)| norm(a, b)).collect()).collect();
        let boneyard: Vec<Pair> = boneyard.into_iter().map(|(a, b)| norm(a, b)).collect();
        // The deal must be the whole set (minus the engine when it is set aside), each tile once.
        let mut all: Vec<Pair> = hands.iter().flatten().copied().chain(boneyard.iter().copied()).collect();
        if preset.sets_engine_aside() {
            all.push((e, e));
        }
        all.sort();
        let mut full = Vec::new();
        for a in 0..=max {
            for b in a..=max {
                full.push((a, b));
            }
        }
        assert_eq!(all, full, "the deal is not the double-{max} set");
        let (engine, phase) =
            if preset.sets_engine_aside() { (Some((e, e)), Phase::TurnStart) } else { (None, Phase::Setup) };
        Model {
            preset,
            e,
            engine,
            placer: None,
            lead,
            first,
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
            phase,
            turn: TurnLog::default(),
            build_k: 0,
            build_laid: 0,
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
            Target::Stop => panic!("STOP is not a train"),
        }
    }

    fn line(&self, target: Target) -> Option<&Line> {
        match target {
            Target::Personal(s) => Some(&self.personal[s]),
            Target::Mexican => self.mexican.as_ref(),
            Target::Stop => None,
        }
    }

    /// Whether `[v|v]` is the last tile of `target`, with nothing on it.
    fn uncovered(&self, target: Target, v: u8) -> bool {
        match self.line(target) {
            Some(line) => line.tiles.last() == Some(&(v, v)),
            None => false,
        }
    }

    /// Every tile on the table, the engine included once placed.
    pub fn table(&self) -> Vec<Pair> {
        let mut out = Vec::new();
        if let Some(t) = self.engine {
            out.push(t);
        }
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

    /// eligible(p) of §5.0.3 (harbour_cay: other seats' marked trains from the 2nd turn, §5.5).
    fn eligible(&self, p: usize) -> Vec<Target> {
        let mut targets = vec![Target::Personal(p)];
        if self.mexican.is_some() {
            targets.push(Target::Mexican);
        }
        for q in 0..self.players() {
            if q != p && self.marker[q] {
                if self.preset == Preset::HarbourCay && self.turns_taken[p] == 0 {
                    continue;
                }
                targets.push(Target::Personal(q));
            }
        }
        targets
    }

    /// opts(p, S, T) of §5.0.3.
    fn opts(&self, tiles: &[Pair], targets: &[Target]) -> Vec<Placement> {
        let mut out = Vec::new();
        for &t in tiles {
            for &target in targets {
                if has(t, self.end_of(target)) {
                    out.push(Placement { tile: t, target });
                }
            }
        }
        out
    }

    /// startOpts(p, S) of §5.0.3 with the start condition `startMex(p)` of N-3. For
    /// `celko1998` (OnlyIfNoOtherPlay) the "nothing else" half of the condition is checked by the
    /// callers, which ask only when they found nothing else.
    fn start_opts(&self, p: usize, tiles: &[Pair]) -> Vec<Placement> {
        let mut out = Vec::new();
        if self.mexican.is_some() {
            return out;
        }
        let allowed = match self.preset {
            Preset::Celko1998 | Preset::Dominorules | Preset::FamilyHouse => true,
            // ED-27: from the second turn.
            Preset::Wikipedia => self.turns_taken[p] >= 1,
            // RequiresOwnTrainPlay.
            Preset::HarbourCay => self.played_own[p],
        };
        if allowed {
            for &t in tiles {
                if has(t, self.e) {
                    out.push(Placement { tile: t, target: Target::Mexican });
                }
            }
        }
        out
    }

    /// NORMAL_OPTIONS(p, S) of the preset.
    fn normal_options(&self, p: usize, tiles: &[Pair]) -> Vec<Placement> {
        match self.preset {
            Preset::Celko1998 => {
                let a = self.opts(tiles, &self.eligible(p));
                // [000] r4: the Mexican train only when nothing else is possible (ED-13).
                if a.is_empty() { self.start_opts(p, tiles) } else { a }
            }
            Preset::Wikipedia if self.turns_taken[p] == 0 => self.opts(tiles, &[Target::Personal(p)]),
            Preset::Wikipedia | Preset::Dominorules | Preset::FamilyHouse | Preset::HarbourCay => {
                let mut a = self.opts(tiles, &self.eligible(p));
                a.extend(self.start_opts(p, tiles));
                a
            }
        }
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

    fn unmark(&mut self, q: usize) {
        self.marker[q] = false;
        self.turn.marker_changed = true;
        self.log.push(Happening::Unmark { seat: q });
    }

    /// PLACE(p, t, τ) of §5.0.3. Returns true if the round ended (p went out, or STUCK).
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
        // 1. Attach; the new open end is the other half.
        let line = match mv.target {
            Target::Personal(s) => &mut self.personal[s],
            Target::Mexican => self.mexican.get_or_insert_with(|| Line { tiles: Vec::new(), end: e }),
            Target::Stop => panic!("STOP is not a placement"),
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
        if is_double(t) {
            self.turn.doubles.push((mv.target, t.0, false));
        }
        // 4. played_own.
        if mv.target == Target::Personal(p) {
            self.played_own[p] = true;
        }
        // 5. Marker removal (N-4).
        match self.preset {
            Preset::Celko1998 => {
                // AnyPlayOnTrain, the owner's own play included (ED-34).
                if let Target::Personal(q) = mv.target
                    && self.marker[q]
                {
                    if q != p {
                        self.tally.freight_unmarks += 1;
                    }
                    self.unmark(q);
                }
            }
            Preset::Wikipedia | Preset::Dominorules | Preset::HarbourCay => {
                // OwnerOnOwnTrain.
                if mv.target == Target::Personal(p) && self.marker[p] {
                    self.unmark(p);
                }
            }
            Preset::FamilyHouse => {
                // OwnerAnywhere (ED-35). A marker goes on only as the last action of a turn, so
                // any placement by its owner is in a later turn.
                if self.marker[p] {
                    if mv.target != Target::Personal(p) {
                        self.tally.anywhere_unmarks += 1;
                    }
                    self.unmark(p);
                }
            }
        }
        // 6. Going out ends the round at once, double or not (ED-14, N-6).
        if self.hands[p].is_empty() {
            if is_double(t) {
                self.tally.out_on_double += 1;
            }
            if self.idle > 0 {
                self.tally.out_after_idle += 1;
            }
            if self.phase == Phase::Build {
                self.tally.build_outs += 1;
            }
            // The going-out turn counts in `turns_taken` too, a going-out build included.
            self.count_turn(p);
            self.finish(Ending::Out(p));
            return true;
        }
        // 7. harbour_cay: STUCK (ED-18).
        if self.preset == Preset::HarbourCay && self.stuck() {
            if !self.boneyard.is_empty() {
                self.tally.stuck_early += 1;
            }
            // STUCK is tested inside PLACE, before END: as for going out, the turn counts as
            // taken and `idle` stays as it was.
            self.count_turn(p);
            self.finish(Ending::Stuck);
            return true;
        }
        false
    }

    /// The turn in which the round ends mid-turn counts as taken (engine convention).
    fn count_turn(&mut self, p: usize) {
        self.turns_taken[p] += 1;
        self.turns += 1;
    }

    /// STUCK() of §5.0.4 (ED-18).
    fn stuck(&mut self) -> bool {
        // (a) An uncovered double that still needs cover: pending, or placed this turn (the
        // follow-up is CoverSameDouble in harbour_cay).
        let mut needing: Vec<u8> = Vec::new();
        for o in &self.pending {
            needing.push(o.value);
        }
        for &(target, v, _) in &self.turn.doubles {
            if self.uncovered(target, v) {
                needing.push(v);
            }
        }
        assert!(needing.len() <= 1, "harbour_cay never has two open doubles");
        if let Some(&v) = needing.first() {
            let stuck = self.unplayed(v) == 0;
            if stuck {
                self.tally.stuck_double += 1;
            }
            return stuck;
        }
        // (b) Every open end, and e while a Mexican train may still be started, is exhausted.
        let mut values: Vec<u8> = self.personal.iter().map(|l| l.end).collect();
        match &self.mexican {
            Some(line) => values.push(line.end),
            None => values.push(self.e),
        }
        for v in values {
            if self.unplayed(v) > 0 {
                return false;
            }
        }
        self.tally.stuck_ends += 1;
        true
    }

    fn finish(&mut self, ending: Ending) {
        let mut scores = Vec::new();
        for hand in &self.hands {
            let mut sum = 0u32;
            for &(a, b) in hand {
                if (a, b) == (0, 0) {
                    sum += self.preset.double_blank_value();
                } else {
                    sum += u32::from(a) + u32::from(b);
                }
            }
            scores.push(sum);
        }
        if ending == Ending::Blocked {
            self.tally.blocked += 1;
        }
        self.log.push(Happening::End { ending, scores: scores.clone() });
        self.result = Some((ending, scores));
        self.phase = Phase::Over;
    }

    /// Applies every forced action until the seat to act has a real choice (returned with the
    /// legal options, two or more) or the round is over (`None`).
    pub fn advance(&mut self) -> Option<(usize, Kind, Vec<Placement>)> {
        loop {
            let p = self.current;
            match self.phase.clone() {
                Phase::Over => return None,
                Phase::Choose(ctx, moves) => {
                    let kind = match ctx {
                        Ctx::Build => Kind::Build,
                        Ctx::Normal => Kind::Normal,
                        Ctx::Cover => Kind::Cover,
                        Ctx::FollowUp | Ctx::ThirdTile => Kind::FollowUp,
                    };
                    return Some((p, kind, moves));
                }
                Phase::Setup => self.setup(),
                Phase::Build => self.build_step(),
                Phase::TurnStart => {
                    self.turn = TurnLog::default();
                    if self.pending.len() >= 2 {
                        self.tally.stacked_obligations += 1;
                    }
                    if self.pending.is_empty() {
                        self.normal(p);
                    } else {
                        self.obligated(p);
                    }
                }
                Phase::FollowUp(target, v) => self.follow_up(p, target, v),
                Phase::ThirdTile => self.third_tile(p),
                Phase::EndTurn => self.end_turn(p),
            }
        }
    }

    /// Applies the seat's choice, which must be one of the options `advance` offered.
    pub fn play(&mut self, mv: Placement) {
        let ctx = match &self.phase {
            Phase::Choose(ctx, moves) => {
                assert!(moves.contains(&mv), "{mv:?} was not offered: {moves:?}");
                *ctx
            }
            other => panic!("no choice pending (phase {other:?})"),
        };
        if ctx == Ctx::Build && mv == Placement::STOP {
            self.tally.build_stops += 1;
        }
        self.apply(ctx, mv);
    }

    /// Places a chosen or forced option and moves on to what the procedure that offered it
    /// does next.
    fn apply(&mut self, ctx: Ctx, mv: Placement) {
        let p = self.current;
        if ctx == Ctx::Build {
            if mv == Placement::STOP {
                self.end_build(p);
            } else {
                self.phase = Phase::Build;
                if !self.place(p, mv) {
                    self.build_laid += 1;
                }
            }
            return;
        }
        if ctx == Ctx::FollowUp {
            if self.preset == Preset::Dominorules && is_double(mv.tile) && self.hands[p].len() == 1 {
                self.tally.second_double_outs += 1;
            }
            let mut on_turn_double = false;
            for &(target, v, _) in &self.turn.doubles {
                if target == mv.target && self.uncovered(target, v) {
                    on_turn_double = true;
                }
            }
            if !on_turn_double {
                self.tally.followup_elsewhere += 1;
            }
            if mv.target == Target::Mexican && self.mexican.is_none() {
                self.tally.followup_starts += 1;
            }
        }
        if self.place(p, mv) {
            return;
        }
        let double = is_double(mv.tile);
        self.phase = match ctx {
            Ctx::Normal if double => Phase::FollowUp(mv.target, mv.tile.0),
            Ctx::FollowUp if double => {
                self.tally.chained_doubles += 1;
                match self.preset {
                    // F4: the chain goes on.
                    Preset::Celko1998 | Preset::FamilyHouse => Phase::FollowUp(mv.target, mv.tile.0),
                    // F2: a second double; the third tile comes from hand.
                    Preset::Dominorules => Phase::ThirdTile,
                    Preset::Wikipedia | Preset::HarbourCay => panic!("a cover is never a double"),
                }
            }
            _ => Phase::EndTurn,
        };
    }

    /// Places a single forced option, or offers two or more.
    fn offer(&mut self, ctx: Ctx, options: Vec<Placement>) {
        assert!(!options.is_empty());
        if options.len() == 1 {
            self.apply(ctx, options[0]);
        } else {
            self.phase = Phase::Choose(ctx, options);
        }
    }

    /// SETUP for the presets whose engine comes from a hand (N-1; §5.1 S3–S4, §5.4 S3, §5.5 S3).
    fn setup(&mut self) {
        let n = self.players();
        let e = self.e;
        let mut holder = None;
        for s in 0..n {
            if self.hands[s].contains(&(e, e)) {
                holder = Some(s);
            }
        }
        let (placer, tile) = match (self.preset, holder) {
            (_, Some(s)) => (s, (e, e)),
            (Preset::Celko1998, None) => {
                // HolderElseDrawSequential: one draw each from L_r until [e|e] shows.
                let mut s = self.lead;
                loop {
                    let t = self.draw(s).expect("[e|e] is in the boneyard");
                    self.tally.search_draws += 1;
                    if t == (e, e) {
                        break (s, t);
                    }
                    s = (s + 1) % n;
                }
            }
            (Preset::FamilyHouse, None) => {
                // HolderElseDrawRounds: complete rounds of drawing from L_r, then look.
                let mut found = None;
                while found.is_none() {
                    for k in 0..n {
                        let s = (self.lead + k) % n;
                        if self.draw(s).is_none() {
                            self.tally.search_rounds_cut += 1;
                            break;
                        }
                        self.tally.search_draws += 1;
                    }
                    for s in 0..n {
                        if self.hands[s].contains(&(e, e)) {
                            found = Some(s);
                        }
                    }
                }
                (found.expect("found"), (e, e))
            }
            (Preset::HarbourCay, None) => {
                // The highest tile of the number held by anyone.
                let mut best: Option<(usize, Pair)> = None;
                for s in 0..n {
                    for &t in &self.hands[s] {
                        if has(t, e) {
                            let better = match best {
                                None => true,
                                Some((_, b)) => other_half(t, e) > other_half(b, e),
                            };
                            if better {
                                best = Some((s, t));
                            }
                        }
                    }
                }
                self.tally.non_double_engines += 1;
                best.expect("the caller redeals when no hand shows e")
            }
            (Preset::Wikipedia | Preset::Dominorules, None) => panic!("the engine is set aside"),
        };
        let at = self.hands[placer].iter().position(|&x| x == tile).expect("the placer holds the engine");
        self.hands[placer].remove(at);
        self.engine = Some(tile);
        self.placer = Some(placer);
        self.first = placer;
        self.log.push(Happening::Engine { seat: placer, tile });
        self.current = placer;
        self.turn = TurnLog::default();
        if self.preset == Preset::Celko1998 {
            self.build_k = 0;
            self.build_laid = 0;
            self.phase = Phase::Build;
        } else {
            self.phase = Phase::TurnStart;
        }
    }

    /// §5.1 S5: the next step of the Celko build phase.
    fn build_step(&mut self) {
        let n = self.players();
        let s = (self.placer.expect("placed") + self.build_k) % n;
        self.current = s;
        let end = self.personal[s].end;
        let mut options = Vec::new();
        for &t in &self.hands[s] {
            if has(t, end) {
                options.push(Placement { tile: t, target: Target::Personal(s) });
            }
        }
        if self.build_laid == 0 && options.is_empty() {
            // "a train made up of just the engine": no draw, no marker (ED-8).
            self.tally.build_passes += 1;
            self.log.push(Happening::Pass { seat: s });
            self.end_build(s);
            return;
        }
        if self.build_laid >= 1 {
            options.push(Placement::STOP);
        }
        self.offer(Ctx::Build, options);
    }

    /// The end of seat `s`'s build: a trailing double is stacked on `pending`.
    fn end_build(&mut self, s: usize) {
        if self.build_laid >= 1 && self.personal[s].open_double() {
            let v = self.personal[s].end;
            self.pending.push(Pending { target: Target::Personal(s), value: v, placer: s });
            self.tally.build_doubles += 1;
        }
        // A build is the seat's opening turn: it counts in `turns_taken` (§5.0.2 "any kind").
        self.turns_taken[s] += 1;
        self.turns += 1;
        self.build_k += 1;
        self.build_laid = 0;
        if self.build_k == self.players() {
            // S6: "play has returned to A".
            self.current = self.placer.expect("placed");
            self.phase = Phase::TurnStart;
        } else {
            self.phase = Phase::Build;
        }
    }

    /// OBLIGATED(p) of §5.0.5.
    fn obligated(&mut self, p: usize) {
        // O1.
        let x = match self.preset {
            Preset::FamilyHouse => self.pending[0],
            _ => *self.pending.last().expect("pending"),
        };
        // O2 (harbour_cay, ED-17).
        if self.preset == Preset::HarbourCay
            && let Target::Personal(q) = x.target
            && q != p
            && self.turns_taken[p] == 0
        {
            self.tally.first_turn_blocks += 1;
            self.draw(p);
            self.mark(p);
            self.phase = Phase::EndTurn;
            return;
        }
        // O3.
        let c = Model::cover_options(&self.hands[p], x.value, x.target);
        if !c.is_empty() {
            self.offer(Ctx::Cover, c);
            return;
        }
        // O4.
        let drawn = self.draw(p);
        if let Some(t) = drawn
            && has(t, x.value)
        {
            self.apply(Ctx::Cover, Placement { tile: t, target: x.target });
            return;
        }
        // O5.
        self.tally.failed_covers += 1;
        if drawn.is_some() || self.preset.mark_on_empty_boneyard() {
            if drawn.is_none() {
                self.tally.empty_marks += 1;
            }
            self.mark(p);
        } else {
            self.tally.empty_passes += 1;
        }
        self.phase = Phase::EndTurn;
    }

    /// NORMAL(p) of §5.0.5.
    fn normal(&mut self, p: usize) {
        let hand = self.hands[p].clone();
        if self.preset == Preset::HarbourCay && self.mexican.is_none() && !self.played_own[p] {
            for &t in &hand {
                if has(t, self.e) && self.turns_taken[p] >= 1 {
                    self.tally.start_refusals += 1;
                }
            }
        }
        let mut a = self.normal_options(p, &hand);
        if a.is_empty() {
            match self.draw(p) {
                None => {
                    if self.preset.mark_on_empty_boneyard() {
                        self.tally.empty_marks += 1;
                        self.mark(p);
                    } else {
                        self.tally.empty_passes += 1;
                    }
                    self.phase = Phase::EndTurn;
                    return;
                }
                Some(t) => a = self.normal_options(p, &[t]),
            }
            if a.is_empty() {
                self.mark(p);
                self.phase = Phase::EndTurn;
                return;
            }
            if a.len() >= 2 {
                self.tally.drawn_choices += 1;
            }
        }
        self.offer(Ctx::Normal, a);
    }

    /// The preset's FOLLOWUP(p, D) for the double `[v|v]` just placed on `target`.
    fn follow_up(&mut self, p: usize, target: Target, v: u8) {
        match self.preset {
            Preset::Wikipedia => self.follow_up_wikipedia(p, target, v),
            Preset::HarbourCay => self.follow_up_harbour_cay(p, target, v),
            Preset::Celko1998 | Preset::FamilyHouse => self.follow_up_anywhere(p),
            Preset::Dominorules => self.follow_up_dominorules(p, target, v),
        }
    }

    /// Marks at the end of a failed follow-up, unless celko1998's empty-boneyard pass applies.
    fn fail_follow_up(&mut self, p: usize, drawn: Option<Pair>) {
        if drawn.is_some() || self.preset.mark_on_empty_boneyard() {
            self.mark(p);
        }
        self.phase = Phase::EndTurn;
    }

    /// Counts a follow-up draw made after an earlier draw of the same turn (ED-9).
    fn follow_up_draw(&mut self, p: usize) -> Option<Pair> {
        if self.turn.drew && !self.boneyard.is_empty() {
            self.tally.second_draws += 1;
        }
        if self.boneyard.is_empty() {
            self.tally.empty_follow_ups += 1;
        }
        self.draw(p)
    }

    /// §5.2 FOLLOWUP.
    fn follow_up_wikipedia(&mut self, p: usize, target: Target, v: u8) {
        // F1: last of its suit needs no cover.
        if self.unplayed(v) == 0 {
            let last = self.turn.doubles.last_mut().expect("a double was placed");
            last.2 = true;
            self.tally.exempt_doubles += 1;
            self.phase = Phase::EndTurn;
            return;
        }
        self.cover_same_double(p, target, v);
    }

    /// §5.5 FOLLOWUP (F0: PLACE has already tested STUCK).
    fn follow_up_harbour_cay(&mut self, p: usize, target: Target, v: u8) {
        self.cover_same_double(p, target, v);
    }

    /// Cover the same double from hand, else draw for it (ED-9) and cover, else mark (ED-28).
    fn cover_same_double(&mut self, p: usize, target: Target, v: u8) {
        let c = Model::cover_options(&self.hands[p], v, target);
        if !c.is_empty() {
            self.offer(Ctx::FollowUp, c);
            return;
        }
        let drawn = self.follow_up_draw(p);
        if let Some(t) = drawn
            && has(t, v)
        {
            self.apply(Ctx::FollowUp, Placement { tile: t, target });
            return;
        }
        self.fail_follow_up(p, drawn);
    }

    /// The follow-up targets of §5.1/§5.4 F1: eligible(p) plus the trains of the turn's
    /// uncovered doubles.
    fn follow_up_targets(&mut self, p: usize) -> Vec<Target> {
        let mut targets = self.eligible(p);
        let mut reached = false;
        for i in 0..self.turn.doubles.len() {
            let (target, v, _) = self.turn.doubles[i];
            if self.uncovered(target, v) && !targets.contains(&target) {
                targets.push(target);
                reached = true;
            }
        }
        if reached {
            self.tally.reached_own_doubles += 1;
        }
        targets
    }

    /// §5.1 F1 / §5.4 F1: the follow-up options among `tiles`.
    fn anywhere_options(&self, p: usize, tiles: &[Pair], targets: &[Target]) -> Vec<Placement> {
        let mut f = self.opts(tiles, targets);
        match self.preset {
            // ED-13: the Mexican start only when nothing else is possible.
            Preset::Celko1998 => {
                if f.is_empty() {
                    f = self.start_opts(p, tiles);
                }
            }
            _ => f.extend(self.start_opts(p, tiles)),
        }
        f
    }

    /// §5.1 FOLLOWUP (celko1998) and §5.4 FOLLOWUP (family_house): another tile anywhere
    /// eligible, a chain while it is a double (F4 is `apply`'s job).
    fn follow_up_anywhere(&mut self, p: usize) {
        let targets = self.follow_up_targets(p);
        let hand = self.hands[p].clone();
        let f = self.anywhere_options(p, &hand, &targets);
        if !f.is_empty() {
            self.offer(Ctx::FollowUp, f);
            return;
        }
        // F2.
        let drawn = self.follow_up_draw(p);
        let Some(t) = drawn else {
            self.fail_follow_up(p, drawn);
            return;
        };
        let f = self.anywhere_options(p, &[t], &targets);
        if f.is_empty() {
            self.mark(p);
            self.phase = Phase::EndTurn;
        } else {
            self.offer(Ctx::FollowUp, f);
        }
    }

    /// §5.3 FOLLOWUP (dominorules) for D1 = `[v1|v1]` on `d1`.
    fn follow_up_dominorules(&mut self, p: usize, d1: Target, v1: u8) {
        let hand = self.hands[p].clone();
        let mut singles = Vec::new();
        let mut doubles = Vec::new();
        for &t in &hand {
            if is_double(t) {
                doubles.push(t);
            } else {
                singles.push(t);
            }
        }
        let eligible = self.eligible(p);
        let mut targets = eligible.clone();
        if !targets.contains(&d1) {
            targets.push(d1);
        }
        // F1: single options.
        let mut f = self.opts(&singles, &targets);
        f.extend(self.start_opts(p, &singles));
        // F1: second-double options.
        for &d2 in &doubles {
            let v2 = d2.0;
            let mut third = false;
            let mut rest = 0;
            for &t in &hand {
                if t != d2 {
                    rest += 1;
                    if !is_double(t) && (has(t, v1) || has(t, v2)) {
                        third = true;
                    }
                }
            }
            if rest == 0 || third {
                f.extend(self.opts(&[d2], &eligible));
            }
        }
        // F2.
        if !f.is_empty() {
            self.offer(Ctx::FollowUp, f);
            return;
        }
        // F3.
        let drawn = self.follow_up_draw(p);
        if let Some(t) = drawn
            && !is_double(t)
        {
            let mut g = self.opts(&[t], &targets);
            g.extend(self.start_opts(p, &[t]));
            if !g.is_empty() {
                self.offer(Ctx::FollowUp, g);
                return;
            }
        }
        self.fail_follow_up(p, drawn);
    }

    /// §5.3 F2 after a second double: the third tile, from hand, on D1 or D2.
    fn third_tile(&mut self, p: usize) {
        assert_eq!(self.turn.doubles.len(), 2, "two doubles this turn");
        let (d1, v1, _) = self.turn.doubles[0];
        let (d2, v2, _) = self.turn.doubles[1];
        let mut g = Vec::new();
        for &t in &self.hands[p] {
            if !is_double(t) && has(t, v1) {
                g.push(Placement { tile: t, target: d1 });
            }
            if !is_double(t) && has(t, v2) {
                g.push(Placement { tile: t, target: d2 });
            }
        }
        assert!(!g.is_empty(), "a second double needs a third tile in hand");
        if g.len() >= 2 {
            self.tally.third_tile_choices += 1;
        }
        self.offer(Ctx::ThirdTile, g);
    }

    /// END(p) of §5.0.4 with the preset's obligation step.
    fn end_turn(&mut self, p: usize) {
        // 1. Obligation creation.
        let mut open = Vec::new();
        for &(target, v, exempt) in &self.turn.doubles {
            if self.uncovered(target, v) && !exempt {
                open.push(Pending { target, value: v, placer: p });
            }
        }
        match self.preset {
            Preset::Celko1998 => {
                // The last double of the turn, if still uncovered (ED-11).
                if let Some(&(target, v, _)) = self.turn.doubles.last()
                    && self.uncovered(target, v)
                {
                    self.pending.push(Pending { target, value: v, placer: p });
                    self.tally.obligations += 1;
                }
            }
            Preset::Wikipedia | Preset::HarbourCay => {
                assert!(self.turn.doubles.len() <= 1, "one double per turn");
                if let Some(&x) = open.first() {
                    self.pending = vec![x];
                    self.tally.obligations += 1;
                }
            }
            Preset::Dominorules => {
                assert!(open.len() <= 1, "at most one double left open (§5.3 note)");
                if let Some(&x) = open.first() {
                    self.pending = vec![x];
                    self.tally.obligations += 1;
                }
            }
            Preset::FamilyHouse => {
                // Every uncovered double of the turn, in placement order (v1, ED-29).
                for x in open {
                    self.pending.push(x);
                    self.tally.obligations += 1;
                }
            }
        }
        // 2.
        self.turns_taken[p] += 1;
        self.turns += 1;
        self.turn.doubles.clear();
        // 3.
        if !self.turn.placed && !self.turn.drew && !self.turn.marker_changed {
            self.idle += 1;
            self.log.push(Happening::Pass { seat: p });
        } else {
            self.idle = 0;
        }
        // 4.
        if self.boneyard.is_empty() && self.idle as usize >= self.players() {
            self.finish(Ending::Blocked);
            return;
        }
        // 5. A guard only: STUCK changes only when a tile is placed.
        if self.preset == Preset::HarbourCay && self.stuck() {
            self.finish(Ending::Stuck);
            return;
        }
        self.current = (p + 1) % self.players();
        self.phase = Phase::TurnStart;
    }
}
