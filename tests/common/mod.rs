//! Helpers shared by the test suites: for the scenario suites, tile and move shorthands, expected
//! events, and an observer that records every event; for the command-line suites, running the
//! built `mtrain` binary, scratch folders and one-line refusals.

// Each test file is its own crate and compiles this whole module, yet uses only part of it: the
// rest would be reported as dead code in every one of them.
#![allow(dead_code)]

use mexican_train::round::RoundSetup;
use mexican_train::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Seats of the scenarios.
pub const A: Seat = Seat::from_index(0);
pub const B: Seat = Seat::from_index(1);
pub const C: Seat = Seat::from_index(2);
pub const D: Seat = Seat::from_index(3);
/// The first Mexican train.
pub const MEX: TrainId = TrainId::mexican(0);

pub fn own(s: Seat) -> TrainId {
    TrainId::personal(s)
}

pub fn t(s: &str) -> Tile {
    s.parse().unwrap_or_else(|e| panic!("bad tile {s:?}: {e:?}"))
}

pub fn tiles(s: &str) -> Vec<Tile> {
    s.split_whitespace().map(t).collect()
}

/// A deal table with one row, for engine tests that play a preset at a small table its own deal
/// table does not list: the preset's rules, `players` seats on double-`set`, `hand` tiles each.
/// (`--hand` alone never lifts a preset's set or player-count restriction.)
pub fn test_table(set: u8, players: u8, hand: u8) -> mexican_train::rules::DealTable {
    let row = mexican_train::rules::DealRow { set, players_lo: players, players_hi: players, hand };
    mexican_train::rules::DealTable(Box::leak(Box::new([row])))
}

/// A preset on a double-6 set with `players` seats and 5 tiles each (a test deal table),
/// checked by `validate`.
pub fn rules6(preset: &str, players: u8) -> Rules {
    let r = Rules {
        set: pip(6),
        players,
        hand_size: Some(5),
        deal_table: test_table(6, players, 5),
        ..Rules::preset(preset).unwrap()
    };
    r.validate().expect("valid rules");
    r
}

pub fn pip(v: u8) -> Pip {
    Pip::from_u8(v)
}

pub fn mv(tile: &str, train: TrainId) -> Move {
    Move::place(t(tile), train)
}

pub fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

pub fn moves(list: &[(&str, TrainId)]) -> Vec<Move> {
    sorted(list.iter().map(|&(x, tr)| mv(x, tr)).collect())
}

pub fn ev_play(seat: Seat, tile: &str, train: TrainId, end: u8) -> Event {
    Event::Play { seat, tile: t(tile), train, end: pip(end) }
}

pub fn ev_draw(seat: Seat, tile: &str) -> Event {
    Event::Draw { seat, tile: t(tile) }
}

pub fn obligation(train: TrainId, value: u8, placer: Seat) -> Obligation {
    Obligation { train, value: pip(value), placer }
}

/// Records every event.
#[derive(Default)]
pub struct Log(pub Vec<Event>);

impl Observer for Log {
    fn event(&mut self, ev: &Event) {
        self.0.push(*ev);
    }
}

/// A whole match's events, every round's in order.
impl MatchObserver for Log {}

/// Hands, then a boneyard of `front` followed by every remaining tile of double-6 in canonical
/// order, leaving `skip` out (the set-aside engine).
pub fn layout(hands: &[&str], front: &str, skip: Option<Tile>) -> (Vec<TileSet>, Vec<Tile>) {
    let mut seen = TileSet::EMPTY;
    if let Some(x) = skip {
        seen.insert(x);
    }
    let mut hand_sets = Vec::new();
    for h in hands {
        let mut hs = TileSet::EMPTY;
        for x in tiles(h) {
            assert!(seen.insert(x), "{x} dealt twice");
            hs.insert(x);
        }
        hand_sets.push(hs);
    }
    let mut bone = tiles(front);
    for &x in &bone {
        assert!(seen.insert(x), "{x} dealt twice");
    }
    for x in Tile::canonical(pip(6)) {
        if !seen.contains(x) {
            bone.push(x);
        }
    }
    (hand_sets, bone)
}

/// A deal of the double-6 set with `[6|6]` set aside (`wikipedia`, `dominorules`).
pub fn deal_aside(hands: &[&str], front: &str) -> Deal {
    let engine = t("6-6");
    let (h, bone) = layout(hands, front, Some(engine));
    let deal = Deal::from_parts(engine, &h, &bone);
    assert_conserved(&deal);
    deal
}

/// A deal of the whole set for the presets whose engine comes from a hand (e = 6).
pub fn deal_hand(hands: &[&str], front: &str) -> Deal {
    let (h, bone) = layout(hands, front, None);
    let deal = Deal::with_engine_in_play(pip(6), &h, &bone);
    assert_conserved(&deal);
    deal
}

/// Every tile of double-6 exactly once across (a set-aside engine,) hands and boneyard.
pub fn assert_conserved(deal: &Deal) {
    let mut all = TileSet::EMPTY;
    let mut count = 0;
    if deal.set_aside {
        all.insert(deal.engine);
        count += 1;
    }
    for h in &deal.hands[..deal.players as usize] {
        for x in h {
            assert!(all.insert(x), "{x} twice");
            count += 1;
        }
    }
    for &x in deal.boneyard.as_slice() {
        assert!(all.insert(x), "{x} twice");
        count += 1;
    }
    assert_eq!(count, 28);
    assert_eq!(all, TileSet::full(pip(6)));
}

/// A round under test with its event log: the scenario suites' driver. Offered moves come back
/// sorted, so expectations can be written in any order.
pub struct Table {
    pub st: RoundState,
    pub log: Log,
    pub moves: MoveList,
}

impl Table {
    pub fn new(rules: &Rules, deal: &Deal, first: Seat) -> Table {
        Table { st: RoundState::new(rules, deal, first), log: Log::default(), moves: MoveList::new() }
    }

    /// The table as a player sees it (seat A's view): the trains, markers, obligations, played
    /// tiles and what the table knows of each seat, the same from every seat.
    pub fn view(&self) -> View<'_> {
        self.st.view(A)
    }

    /// Runs forced actions until a real choice or the end of the round.
    pub fn run(&mut self) -> Step {
        self.st.advance(&mut self.moves, &mut self.log)
    }

    /// Runs to the next real choice; asserts it is `seat`'s, of kind `kind`; returns the moves
    /// (sorted).
    pub fn choice(&mut self, seat: Seat, kind: Decision) -> Vec<Move> {
        match self.run() {
            Step::Choice(s, k) => {
                assert_eq!((s, k), (seat, kind), "unexpected choice; moves {:?}; events {:?}", self.moves, self.log.0);
                sorted(self.moves.to_vec())
            }
            Step::Over => panic!("round over; expected a choice of seat {seat}; events {:?}", self.log.0),
        }
    }

    /// Plays a move at the current choice (checked).
    pub fn play_move(&mut self, m: Move) {
        if let Err(e) = self.st.play(m, &mut self.log) {
            panic!("{e}; offered {:?}; events {:?}", self.moves, self.log.0);
        }
    }

    pub fn play(&mut self, tile: &str, train: TrainId) {
        self.play_move(mv(tile, train));
    }

    /// `choice` then `play`; returns the moves that were offered (sorted).
    pub fn pick(&mut self, seat: Seat, kind: Decision, tile: &str, train: TrainId) -> Vec<Move> {
        let offered = self.choice(seat, kind);
        self.play(tile, train);
        offered
    }

    pub fn played(&self, seat: Seat, tile: &str, train: TrainId) -> bool {
        let x = t(tile);
        self.log
            .0
            .iter()
            .any(|e| matches!(*e, Event::Play { seat: s, tile: y, train: tr, .. } if (s, y, tr) == (seat, x, train)))
    }

    /// `seat` places `tile` on `train`, as a real choice or as a forced move (which `advance`
    /// applies by itself): the play must be in the log afterwards.
    pub fn step(&mut self, seat: Seat, tile: &str, train: TrainId) {
        if self.played(seat, tile, train) {
            return;
        }
        match self.run() {
            _ if self.played(seat, tile, train) => {}
            Step::Choice(s, _) => {
                assert_eq!(s, seat, "expected {seat} to place {tile} on {train}; moves {:?}", self.moves);
                self.play(tile, train);
            }
            Step::Over => panic!("round over before {seat} placed {tile} on {train}; events {:?}", self.log.0),
        }
    }

    /// Several steps in order.
    pub fn steps(&mut self, list: &[(Seat, &str, TrainId)]) {
        for &(s, x, tr) in list {
            self.step(s, x, tr);
        }
    }

    /// Runs to the end of the round (panics on a choice).
    pub fn finish(&mut self) -> Outcome {
        match self.run() {
            Step::Over => *self.st.outcome().expect("over"),
            Step::Choice(s, k) => {
                panic!("unexpected choice {k:?} of seat {s}: {:?}; events {:?}", self.moves, self.log.0)
            }
        }
    }

    /// Index into the log, for `since`.
    pub fn mark(&self) -> usize {
        self.log.0.len()
    }

    pub fn since(&self, i: usize) -> &[Event] {
        &self.log.0[i..]
    }

    pub fn scores(&self, out: &Outcome) -> Vec<u32> {
        out.scores[..self.st.view(Seat::default()).players() as usize].to_vec()
    }

    pub fn boneyard_len(&self) -> usize {
        self.st.boneyard().as_slice().len()
    }

    /// A round whose engine-search draws start at `lead`.
    pub fn with_lead(rules: &Rules, deal: &Deal, lead: Seat) -> Table {
        let setup = RoundSetup { e: pip(6), engine_mode: rules.engine_mode, lead, first: lead, used_doubles: 0 };
        Table { st: RoundState::with_setup(rules, deal, setup), log: Log::default(), moves: MoveList::new() }
    }

    /// Ends `seat`'s build with [`Move::STOP`] if that is a choice; a forced stop (no tile
    /// fits any more) happens inside `advance`.
    pub fn stop(&mut self, seat: Seat) {
        if let Step::Choice(s, Decision::Build) = self.run()
            && s == seat
            && self.moves.contains(&Move::STOP)
        {
            self.st.play(Move::STOP, &mut self.log).unwrap();
        }
    }

    /// A Celko build: `tiles` on `seat`'s own train in order, then stop.
    pub fn build(&mut self, seat: Seat, list: &str) {
        for x in list.split_whitespace() {
            self.step(seat, x, own(seat));
        }
        self.stop(seat);
    }

    /// Index of `ev` in the log.
    pub fn pos(&self, ev: Event) -> usize {
        self.log.0.iter().position(|e| *e == ev).unwrap_or_else(|| panic!("{ev:?} not in {:?}", self.log.0))
    }

    /// Asserts that the log, from index `i`, starts with `expect`.
    pub fn expect_from(&self, i: usize, expect: &[Event]) {
        let got = &self.log.0[i..];
        assert!(
            got.len() >= expect.len() && got[..expect.len()] == *expect,
            "events from {i}:\n got {got:?}\nwant {expect:?}"
        );
    }

    /// Each seat's score recomputed from its hand under the round's rules.
    pub fn hand_scores(&self) -> Vec<u32> {
        (0..self.st.view(Seat::default()).players() as usize)
            .map(|s| {
                self.st
                    .hand(Seat::from_index(s))
                    .iter()
                    .map(|x| self.st.view(Seat::default()).rules().tile_score(x))
                    .sum()
            })
            .collect()
    }
}

/// Bots parsed from specs (panics on a bad spec: tests name valid ones).
pub fn bots(specs: &[&str]) -> Vec<Bot> {
    specs.iter().map(|s| Bot::parse(s).unwrap()).collect()
}

/// Plays match `seed` with bots that first played another match (`other_seed`) and were then
/// reset with `clone_from`, as the tournament runner resets its seats between games.
pub fn match_after_reset(rules: &Rules, specs: &[&str], other_seed: u64, seed: u64) -> MatchResult {
    let mut used = bots(specs);
    play_match(rules, other_seed, &mut used, &mut NoObserver);
    for (b, proto) in used.iter_mut().zip(bots(specs)) {
        b.clone_from(&proto);
    }
    play_match(rules, seed, &mut used, &mut NoObserver)
}

/// The built `mtrain` binary as a command, to add arguments, input and pipes to.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mtrain"))
}

/// Runs `mtrain args` to its end (no input on stdin) and returns what it did.
pub fn mtrain(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

/// Runs `mtrain args`, expects exit code 0 (its stderr in the message if not), returns its stdout.
pub fn run_ok(args: &[&str]) -> String {
    let out = mtrain(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The scratch path `name` of this test file and process, removed if it was left from before.
/// Not created: for a run's `--out` to create (see [`temp`] for an empty folder).
pub fn temp_path(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mtrain-{}-{name}-{}", env!("CARGO_CRATE_NAME"), std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A fresh, empty scratch folder `name` for one test ([`temp_path`], created).
pub fn temp(name: &str) -> PathBuf {
    let d = temp_path(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The text of the file at `p` (its path in the message if it cannot be read).
pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Runs `mtrain args`, expects exit code 2 and one stderr line containing each of `needles`.
pub fn rejects(args: &[&str], needles: &[&str]) {
    let out = mtrain(args);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: '{err}' lacks '{n}'");
    }
}
