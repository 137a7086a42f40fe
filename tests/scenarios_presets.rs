//! Scenario tests for the `celko1998`, `dominorules`, `family_house` and `harbour_cay` presets:
//! one test per row of RULES.md §7 (E1–E30) and preset column, named `eNN_<preset>_<what>`.
//!
//! Every scenario runs on a double-6 set (engine number e = 6) with the preset's rules and a
//! hand-size override (the hand size only matters for `validate`: the deal tables of
//! `celko1998` and `harbour_cay` list only double-12). A deal is explicit: the given hands, an
//! explicit front of the boneyard (drawn first), then every other tile of the set in canonical
//! order, so every tile appears exactly once (checked by `assert_conserved`).
//! - `dominorules` sets `[6|6]` aside ([`deal_aside`]).
//! - `celko1998`, `family_house` and `harbour_cay` deal the whole set ([`deal_hand`]); the engine
//!   search finds the placer, who has one tile fewer and takes the first turn (or build).
//!
//! Play is driven through `advance`/`play`: forced actions run inside `advance`; every real
//! choice is scripted (`Table::pick` asserts whose choice it is and of which kind; `Table::step`
//! plays a move that may be a choice or forced). Comments give the table after each step, e.g.
//! `A:3` = seat A's train ends in 3, `M:4` = the Mexican train ends in 4.
//!
//! `family_house` runs as the preset (v1 obligations, ED-29), as `literal_basic` (the §7 "basic"
//! cell) and as `v2` where the table distinguishes them. Rows a column calls impossible or n/a
//! are checked structurally where checkable (hand-built positions and `audit` over random
//! rounds) or skipped with a comment.

mod common;
use common::*;
use mexican_train::game::{MatchObserver, winners};
use mexican_train::rng::{below, rng_from_seed};
use mexican_train::round::RoundSetup;
use mexican_train::rules::{EngineMode, FirstSeat, MarkerRemoval, Obligation as ObligationRule, TieBreak};
use mexican_train::*;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn ev_engine(seat: Seat, tile: &str) -> Event {
    Event::Engine { seat, tile: t(tile) }
}

fn celko(players: u8) -> Rules {
    rules6("celko1998", players)
}

fn domino(players: u8) -> Rules {
    rules6("dominorules", players)
}

fn harbour(players: u8) -> Rules {
    rules6("harbour_cay", players)
}

/// `family_house` as the preset plays it: v1 obligations (ED-29), markers `OwnerAnywhere`.
fn family(players: u8) -> Rules {
    let r = rules6("family_house", players);
    assert_eq!((r.obligation, r.marker_removal), (ObligationRule::AllUncovered, MarkerRemoval::OwnerAnywhere));
    r
}

/// `family_house` with option `literal_basic`: doubles oblige nobody but the doubler.
fn family_basic(players: u8) -> Rules {
    let mut r = family(players);
    r.apply_rule("literal_basic=true").unwrap();
    assert_eq!(r.obligation, ObligationRule::None);
    r.validate().unwrap();
    r
}

/// `family_house` v2: v1 obligations, markers `OwnerOnOwnTrain`.
fn family_v2(players: u8) -> Rules {
    let mut r = family(players);
    r.apply_rule("v2=true").unwrap();
    assert_eq!((r.obligation, r.marker_removal), (ObligationRule::AllUncovered, MarkerRemoval::OwnerOnOwnTrain));
    r.validate().unwrap();
    r
}

/// The events from a point where seat `first` is next to act and no tile can be placed any
/// more: every seat in turn draws the boneyard `pile` tile by tile (marking at its first draw
/// unless `marked` says it already is), then every seat passes once (already marked, or
/// celko1998's pass without a marker).
fn drain_then_pass(first: Seat, n: u8, pile: &[Tile], mut marked: Vec<bool>) -> Vec<Event> {
    let mut expect = Vec::new();
    let mut s = first;
    for &x in pile {
        expect.push(Event::Draw { seat: s, tile: x });
        if !marked[s.index()] {
            expect.push(Event::Mark { seat: s });
            marked[s.index()] = true;
        }
        s = s.next(n);
    }
    for _ in 0..n {
        expect.push(Event::Pass { seat: s });
        s = s.next(n);
    }
    expect
}

// ---------------------------------------------------------------------------------------------
// Random-play audit for the rows that "cannot arise"
// ---------------------------------------------------------------------------------------------

/// What the audit saw, so tests can show their checks were not vacuous.
#[derive(Default, Debug)]
struct Audit {
    rounds: u32,
    choices: u32,
    build_choices: u32,
    follow_up_choices: u32,
    cover_choices: u32,
    first_turn_choices: u32,
    doubles_placed: u32,
    two_double_turns: u32,
    max_pending_seen: usize,
    pending_seen: u32,
}

/// The seat an event belongs to (engine-search draws and the engine are setup, not a turn).
fn actor(ev: &Event) -> Option<Seat> {
    match *ev {
        Event::Play { seat, .. }
        | Event::Draw { seat, .. }
        | Event::Mark { seat }
        | Event::Unmark { seat }
        | Event::Pass { seat }
        | Event::Skip { seat } => Some(seat),
        Event::RoundEnd { .. }
        | Event::Engine { .. }
        | Event::Penalty { .. }
        | Event::Tap { .. }
        | Event::Branch { .. } => None,
    }
}

/// Splits the events after the engine placement into runs of events by the same seat. Under
/// `AnyPlayOnTrain` an `Unmark` may name another seat: it stays with the run it follows.
fn turns_of(events: &[Event]) -> Vec<Vec<Event>> {
    let start = events.iter().position(|e| matches!(e, Event::Engine { .. })).map_or(0, |i| i + 1);
    let mut out: Vec<Vec<Event>> = Vec::new();
    let mut cur: Option<Seat> = None;
    for ev in &events[start..] {
        let Some(s) = actor(ev) else { continue };
        if matches!(ev, Event::Unmark { .. })
            && let Some(last) = out.last_mut()
        {
            last.push(*ev);
            continue;
        }
        if cur != Some(s) {
            out.push(Vec::new());
            cur = Some(s);
        }
        out.last_mut().unwrap().push(*ev);
    }
    out
}

/// Plays `rounds` random rounds of `rules` (engine numbers and lead seats random, deals from
/// the seed), calling `check` at every real choice with the state, the seat, the kind and the
/// offered moves, and `per_turn` on each turn's events after the round (see [`turns_of`]).
fn audit(
    rules: &Rules,
    rounds: u32,
    seed: u64,
    mut check: impl FnMut(&RoundState, Seat, Decision, &[Move]),
    mut per_turn: impl FnMut(&[Event]),
) -> Audit {
    rules.validate().expect("valid rules");
    let n = rules.players as usize;
    let mut rng = rng_from_seed(seed);
    let mut list = MoveList::new();
    let mut a = Audit::default();
    for _ in 0..rounds {
        let e = pip(below(&mut rng, rules.set.get() as u64 + 1) as u8);
        let set_aside = rules.engine_mode == EngineMode::SetAside;
        let deal = loop {
            let d = deal::deal(rules, e, set_aside, &mut rng);
            if rules.engine_mode != EngineMode::HolderElseHighestOfNumberElseRedeal || !d.no_hand_shows(e) {
                break d;
            }
        };
        let lead = Seat::from_index(below(&mut rng, n as u64) as usize);
        let setup = RoundSetup { e, engine_mode: rules.engine_mode, lead, first: lead, used_doubles: 0 };
        let mut st = RoundState::with_setup(rules, &deal, setup);
        let mut log = Log::default();
        loop {
            match st.advance(&mut list, &mut log) {
                Step::Over => break,
                Step::Choice(seat, kind) => {
                    a.choices += 1;
                    a.max_pending_seen = a.max_pending_seen.max(st.view(A).pending().len());
                    a.pending_seen += u32::from(!st.view(A).pending().is_empty());
                    match kind {
                        Decision::Build => a.build_choices += 1,
                        Decision::FollowUp => a.follow_up_choices += 1,
                        Decision::Cover => a.cover_choices += 1,
                        Decision::Normal => {}
                        Decision::Swan => panic!("no preset walks a swan drive"),
                    }
                    if st.view(seat).turns_taken(seat) == 0 && kind != Decision::Build {
                        a.first_turn_choices += 1;
                    }
                    check(&st, seat, kind, &list);
                    let m = list[below(&mut rng, list.len() as u64) as usize];
                    st.play(m, &mut log).expect("offered move is legal");
                }
            }
        }
        for turn in turns_of(&log.0) {
            let doubles = turn.iter().filter(|e| matches!(e, Event::Play { tile, .. } if tile.is_double())).count();
            a.doubles_placed += doubles as u32;
            a.two_double_turns += u32::from(doubles >= 2);
            per_turn(&turn);
        }
        a.rounds += 1;
    }
    a
}

/// Rules for the audits: the preset on double-6 with `players` seats and a hand of `h`.
fn audit_rules(preset: &str, players: u8, h: u8) -> Rules {
    let r = Rules {
        set: pip(6),
        players,
        hand_size: Some(h),
        deal_table: test_table(6, players, h),
        ..Rules::preset(preset).unwrap()
    };
    r.validate().unwrap();
    r
}

/// Records the first seat and engine of every round of a match, and the deals it discarded.
#[derive(Default)]
struct RoundStarts {
    /// (round, first seat, engine, every hand) at each `round_start`, redeals included.
    starts: Vec<(u8, Seat, Tile, Vec<TileSet>)>,
}

impl Observer for RoundStarts {
    fn event(&mut self, _ev: &Event) {}
}

impl MatchObserver for RoundStarts {
    fn round_start(&mut self, round: u8, state: &RoundState) {
        let hands = (0..state.view(A).players() as usize).map(|s| *state.hand(Seat::from_index(s))).collect();
        self.starts.push((round, state.first(), state.view(A).engine().0, hands));
    }
}

/// Matches with random bots: the winners are exactly the seats with the lowest total
/// (co-winners on ties, ED-24), totals being the sums of the round scores.
fn co_winner_matches(rules: &Rules, seeds: std::ops::Range<u64>) {
    let n = rules.players as usize;
    for seed in seeds {
        let mut bots: Vec<Bot> = (0..n).map(|_| Bot::parse("random").unwrap()).collect();
        let res = play_match(rules, seed, &mut bots, &mut NoObserver);
        let mut totals = vec![0u32; n];
        for rec in res.round_records() {
            for (s, tot) in totals.iter_mut().enumerate() {
                *tot += rec.outcome.scores[s];
            }
        }
        assert_eq!(&res.totals[..n], &totals[..]);
        let best = *totals.iter().min().unwrap();
        let mask = (0..n).filter(|&s| totals[s] == best).fold(0u16, |m, s| m | 1 << s);
        assert_eq!(res.winners, mask, "seed {seed}: totals {totals:?}");
    }
}

/// The co-winner rule itself, for presets without the [001] tie-break.
fn assert_co_winners(rules: &Rules) {
    assert_eq!(rules.tie_break, TieBreak::CoWinners);
    let w = |tot: &[u32], zero: &[u8], minnz: &[u32]| winners(rules.tie_break, tot.len(), tot, zero, minnz);
    assert_eq!(w(&[29, 30], &[0, 5], &[1, 1]), 0b01);
    // Equal totals are co-winners whatever the zero rounds and the lowest non-zero round say.
    assert_eq!(w(&[30, 30, 40], &[1, 2, 5], &[5, 10, 1]), 0b011);
    assert_eq!(w(&[30, 30, 30], &[3, 1, 0], &[1, 4, 9]), 0b111);
    assert_eq!(w(&[0, 0, 3], &[7, 6, 6], &[u32::MAX, 2, 3]), 0b011);
}

// =============================================================================================
// celko1998 (RULES.md §5.1)
// =============================================================================================

/// E1 celko1998: p places a double as his last tile → out (ED-14), no follow-up.
#[test]
fn e01_celko_double_as_last_tile_goes_out() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 3-3", "5-6 0-1 0-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6"); // A:3, keeps 3-3 (a choice: 3-3 or stop)
    tb.build(B, "5-6"); // B:5
    // A1: 3-3 is A's last tile and only move: the round is over.
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(A));
    assert_eq!(tb.scores(&out), vec![0, 1 + 2]);
    assert_eq!(
        tb.log.0,
        vec![
            ev_engine(A, "6-6"),
            ev_play(A, "3-6", own(A), 3),
            ev_play(B, "5-6", own(B), 5),
            ev_play(A, "3-3", own(A), 3),
            Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores },
        ]
    );
    assert!(tb.view().unplayed(pip(3)) > 0, "the double would otherwise need a follow-up");
    assert!(tb.view().pending().is_empty());
    assert_eq!((out.draws, out.boneyard_left), (0, 28 - 6));
}

/// E2 celko1998: p's second double (a chain) empties his hand → out.
#[test]
fn e02_celko_second_double_of_chain_goes_out() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 4-6 3-4 3-3 5-5", "5-6 0-1"], "0-0");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "4-6"); // A:4 (stops although 3-4 fits)
    tb.build(B, "5-6"); // B:5
    // A1 3-4 forced (A:3); B1: no play → draws 0-0 → marks B.
    let a2 = tb.pick(A, Decision::Normal, "3-3", own(A));
    assert_eq!(a2, moves(&[("3-3", own(A)), ("5-5", own(B))]));
    // Follow-up: 5-5 on B's marked train is A's last tile (forced).
    let i = tb.mark() - 1;
    let out = tb.finish();
    assert_eq!(
        tb.since(i),
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_play(A, "5-5", own(B), 5),
            Event::Unmark { seat: B },
            Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores },
        ]
    );
    assert_eq!(tb.scores(&out), vec![0, 1]);
}

/// E3 celko1998: p places `[v|v]` and afterwards unplayed(v) = 0 while he still has tiles → he
/// must still make a follow-up elsewhere (here: the only one, starting the Mexican train); the
/// double, last of the turn, pends and can never be covered; each later player draws 1 and
/// marks each turn, then passes without a marker once the boneyard is empty; blocked after N
/// idle turns (no exemption, ED-19).
#[test]
fn e03_celko_last_of_suit_double_pends_forever() {
    let rules = celko(2);
    // B keeps 1-3, which fits the Mexican train (M:3) but is never playable under the obligation.
    let deal = deal_hand(&["6-6 5-6 0-5 0-1 1-5 2-5 2-3 3-5 5-5 3-6 0-0", "4-6 4-5 1-1 1-3"], "");
    let mut tb = Table::new(&rules, &deal, A);
    // A's build runs through 5 three times: 6-5 5-0 0-1 1-5 5-2 2-3 3-5 (A:5).
    tb.build(A, "5-6 0-5 0-1 1-5 2-5 2-3 3-5");
    tb.build(B, "4-6 4-5"); // B:5; every non-double 5 is on the table.
    let pile: Vec<Tile> = deal.boneyard.as_slice().to_vec();
    assert_eq!(pile.len(), 13);
    let out = tb.finish();
    let i = tb.pos(ev_play(B, "4-5", own(B), 5)) + 1;
    // A1: 5-5 (forced); unplayed(5) = 0; follow-up: nothing fits, so 3-6 starts the Mexican train.
    assert_eq!(&tb.since(i)[..2], &[ev_play(A, "5-5", own(A), 5), ev_play(A, "3-6", MEX, 3)]);
    assert_eq!(tb.view().unplayed(pip(5)), 0);
    let mut expect = drain_then_pass(B, 2, &pile, vec![false, false]);
    expect.push(Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores });
    assert_eq!(&tb.since(i)[2..], &expect[..]);
    assert_eq!(out.reason, EndReason::Blocked);
    assert_eq!(tb.scores(&out), tb.hand_scores());
    assert!(tb.view().train(own(A)).open_double, "the double was never covered");
    assert!(tb.st.hand(B).contains(t("1-3")));
    assert_eq!((out.draws, out.boneyard_left), (13, 0));
}

/// E4 celko1998: boneyard empty and nobody can play → each seat passes without marking
/// (ED-12); blocked after N idle turns; everyone scores his pips.
#[test]
fn e04_celko_empty_boneyard_passes_without_marker() {
    let rules = celko(2);
    let deal = deal_hand(
        &[
            "6-6 0-6 0-1 1-6 4-6 4-5 5-6 0-0 0-2 0-3 0-4 0-5 1-1 1-2 1-3 1-4",
            "2-6 2-3 3-6 1-5 2-2 2-4 2-5 3-3 3-4 3-5 4-4 5-5",
        ],
        "",
    );
    assert!(deal.boneyard.is_empty());
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "0-6 0-1 1-6 4-6 4-5 5-6"); // A:6
    tb.build(B, "2-6 2-3 3-6"); // B:6: every 6 is on the table
    let out = tb.finish();
    let i = tb.pos(ev_play(B, "3-6", own(B), 6)) + 1;
    assert_eq!(
        tb.since(i),
        &[
            Event::Pass { seat: A },
            Event::Pass { seat: B },
            Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores }
        ]
    );
    assert!(!tb.view().is_marked(A) && !tb.view().is_marked(B), "no marker on an empty boneyard (ED-12)");
    assert_eq!(tb.scores(&out), tb.hand_scores());
    assert_eq!(tb.scores(&out), vec![28, 62]);
    assert_eq!(out.turns, 2 + 2, "two builds and two idle turns");
}

/// E5 celko1998: p marks while his train is unstarted → the marker sits at his spot (ED-26);
/// another seat may start his train, and that play removes the marker.
#[test]
fn e05_celko_marker_on_unstarted_train_lifted_by_other() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 3-4 4-5 2-6 0-0", "0-1 1-2"], "0-5");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6"); // A:3
    // B cannot build (no 6): "a train made up of just the engine", no draw, no marker.
    // A1 3-4 (forced); B1: no play → draws 0-5 → marks his unstarted train.
    let a2 = tb.pick(A, Decision::Normal, "2-6", own(B));
    assert_eq!(tb.log.0[2], Event::Pass { seat: B });
    assert_eq!(a2, moves(&[("4-5", own(A)), ("2-6", own(B))]));
    assert_eq!(tb.view().train(own(B)).len, 1);
    assert!(!tb.view().is_marked(B), "the play that started B's train took his marker off");
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 4..],
        &[ev_draw(B, "0-5"), Event::Mark { seat: B }, ev_play(A, "2-6", own(B), 2), Event::Unmark { seat: B }]
    );
}

/// E6 celko1998: two open doubles from the build phase → LIFO: the last-laid double is covered
/// first, one per turn.
#[test]
fn e06_celko_two_open_doubles_lifo() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 3-3 1-5 4-5", "5-6 5-5 2-3 0-0"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6 3-3"); // A:3 open
    tb.build(B, "5-6 5-5"); // B:5 open
    let a1 = tb.pick(A, Decision::Cover, "4-5", own(B));
    assert_eq!(a1, moves(&[("1-5", own(B)), ("4-5", own(B))]), "the top of the stack is B's double");
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    // B1: A's double is next: 2-3 (forced).
    tb.run();
    assert!(tb.played(B, "2-3", own(A)));
    assert!(!tb.view().train(own(A)).open_double);
}

/// E6 celko1998 (ED-11): earlier doubles of a chain create no obligation; only the turn's
/// last double can.
#[test]
fn e06_celko_only_last_double_of_a_chain_obliges() {
    let rules = celko(2);
    // B places the engine and builds first; A then builds 1-6; B1 fails and marks.
    let hands = ["1-6 1-1 2-2 1-4 2-4", "6-6 2-6 0-0"];
    // (i) 1-1, 2-2, then 2-4 on 2-2: "he has gotten off the train": nothing pends, and 1-1
    // stays an ordinary uncovered end.
    let deal = deal_hand(&hands, "0-3");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(B, "2-6");
    tb.build(A, "1-6");
    let a1 = tb.pick(A, Decision::Normal, "1-1", own(A));
    assert_eq!(a1, moves(&[("1-1", own(A)), ("1-4", own(A)), ("2-2", own(B)), ("2-4", own(B))]));
    let f1 = tb.pick(A, Decision::FollowUp, "2-2", own(B));
    assert_eq!(f1, moves(&[("1-4", own(A)), ("2-2", own(B)), ("2-4", own(B))]));
    assert!(!tb.view().is_marked(B), "taking on freight");
    let f2 = tb.pick(A, Decision::FollowUp, "2-4", own(B));
    assert_eq!(f2, moves(&[("1-4", own(A)), ("2-4", own(B))]), "the double on B's train stays reachable");
    tb.run();
    assert!(tb.view().pending().is_empty(), "the last double was covered; 1-1 creates no obligation");
    assert!(tb.view().train(own(A)).open_double);

    // (ii) 1-1 on A, 2-2 on C's marked train, then nothing fits: 4-6 must start the Mexican
    // train. The last double (2-2) pends, the first (1-1) does not.
    let rules = celko(3);
    let deal = deal_hand(&["6-6 3-6 1-3 1-1 2-2 4-6 5-5", "5-6 0-5 2-3 2-4", "2-6 0-0"], "3-3");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6"); // A:3
    tb.build(B, "5-6"); // B:5
    tb.build(C, "2-6"); // C:2
    // A1 1-3 (A:1), B1 0-5 (B:0), C1: draws 3-3 → marks.
    let a2 = tb.pick(A, Decision::Normal, "1-1", own(A));
    assert_eq!(a2, moves(&[("1-1", own(A)), ("2-2", own(C))]));
    let i = tb.mark() - 1;
    // Follow-ups 2-2 on C (forced), then 4-6 on a new Mexican train (forced: nothing else).
    let b2 = tb.choice(B, Decision::Cover);
    assert_eq!(
        tb.since(i),
        &[
            ev_play(A, "1-1", own(A), 1),
            ev_play(A, "2-2", own(C), 2),
            Event::Unmark { seat: C },
            ev_play(A, "4-6", MEX, 4)
        ]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(C), 2, A)], "only the last double obliges");
    assert!(tb.view().train(own(A)).open_double, "1-1 stays an ordinary uncovered end");
    assert_eq!(sorted(b2), moves(&[("2-3", own(C)), ("2-4", own(C))]));
}

/// E7 celko1998: the engine holder places E and, in the same move, builds his whole train; the
/// other seats build in turn; he then opens normal play. Without a holder, seats draw one at a
/// time from the lead seat until `[e|e]` appears (ED-7).
#[test]
fn e07_celko_engine_holder_builds_then_opens() {
    let rules = celko(3);
    let deal = deal_hand(&["3-6 3-4 0-0", "6-6 2-6 2-5 1-5 0-5", "4-6 0-1"], "");
    let mut tb = Table::new(&rules, &deal, A);
    // B's build: 2-6 is forced (his only 6), then a choice.
    let b1 = tb.pick(B, Decision::Build, "2-5", own(B));
    assert_eq!(b1, sorted(vec![mv("2-5", own(B)), Move::STOP]));
    tb.stop(B);
    tb.build(C, "4-6");
    tb.build(A, "3-6");
    let b2 = tb.choice(B, Decision::Normal);
    assert_eq!(sorted(b2), moves(&[("0-5", own(B)), ("1-5", own(B))]));
    assert_eq!(
        tb.log.0,
        vec![
            ev_engine(B, "6-6"),
            ev_play(B, "2-6", own(B), 2),
            ev_play(B, "2-5", own(B), 5),
            ev_play(C, "4-6", own(C), 4),
            ev_play(A, "3-6", own(A), 3),
        ]
    );
    assert_eq!((tb.st.placer(), tb.st.first(), tb.st.current()), (Some(B), B, B));
    assert!(!tb.st.hand(B).contains(t("6-6")) && tb.view().played().contains(t("6-6")));
    assert_eq!(tb.st.turns(), 3, "three builds");
    assert_eq!(tb.view().turns_taken(B), 1, "a build is the seat's opening turn (§5.0.2: turns of any kind)");

    // Nobody holds 6-6: B, C, A draw one tile each in turn; A draws it and places it.
    let deal = deal_hand(&["3-6 0-2", "5-6 1-2", "4-6 1-3"], "0-0 1-1 6-6");
    let mut tb = Table::with_lead(&rules, &deal, B);
    tb.run();
    assert_eq!(
        &tb.log.0[..5],
        &[ev_draw(B, "0-0"), ev_draw(C, "1-1"), ev_draw(A, "6-6"), ev_engine(A, "6-6"), ev_play(A, "3-6", own(A), 3)]
    );
    assert_eq!((tb.st.placer(), tb.st.first()), (Some(A), A));
}

/// E8 celko1998: an obligation is pending and p could play on his own train → not allowed:
/// only the double (r1).
#[test]
fn e08_celko_obligation_excludes_own_train() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 3-4 1-5 4-5", "5-6 5-5 0-0"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6"); // A:3 (3-4 kept)
    tb.build(B, "5-6 5-5"); // B:5 open: pending
    let a1 = tb.choice(A, Decision::Cover);
    assert_eq!(tb.view().pending(), &[obligation(own(B), 5, B)]);
    assert_eq!(sorted(a1), moves(&[("1-5", own(B)), ("4-5", own(B))]));
    let bad = mv("3-4", own(A));
    assert_eq!(tb.st.play(bad, &mut NoObserver), Err(PlayError::Illegal(bad)));
}

/// E9 celko1998: p placed a drawn double and holds no follow-up → a follow-up draw is allowed
/// (ED-9); a playable drawn tile is played, otherwise p marks and the double pends.
#[test]
fn e09_celko_drawn_double_gets_a_follow_up_draw() {
    let rules = celko(2);
    for (front, covers) in [("3-3 3-4", true), ("3-3 0-2", false)] {
        let deal = deal_hand(&["6-6 3-6 0-0 1-1", "5-6 1-5 0-5 1-3 2-3"], front);
        let mut tb = Table::new(&rules, &deal, A);
        tb.build(A, "3-6"); // A:3
        tb.build(B, "5-6"); // B:5 (1-5, 0-5 kept)
        let i = tb.pos(ev_play(B, "5-6", own(B), 5)) + 1;
        // A1: no play → draws 3-3 → plays it → no follow-up in hand → draws again.
        let b1 = tb.choice(B, if covers { Decision::Normal } else { Decision::Cover });
        let second = tiles(front)[1];
        let mut expect = vec![ev_draw(A, "3-3"), ev_play(A, "3-3", own(A), 3), Event::Draw { seat: A, tile: second }];
        if covers {
            expect.push(ev_play(A, "3-4", own(A), 4));
            assert!(tb.view().pending().is_empty() && !tb.view().is_marked(A));
            assert_eq!(sorted(b1), moves(&[("0-5", own(B)), ("1-5", own(B))]));
        } else {
            expect.push(Event::Mark { seat: A });
            assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
            assert!(tb.view().is_marked(A));
            assert_eq!(sorted(b1), moves(&[("1-3", own(A)), ("2-3", own(A))]));
        }
        assert_eq!(tb.since(i), &expect[..]);
        assert_eq!(tb.view().draws(A), 2);
    }
}

/// E9 celko1998: drawn doubles keep the chain going: A draws 3-3 (plays it on his own marked
/// train), has no follow-up, draws 4-4 (plays it on B's marked train: a chain), draws 2-4 and
/// covers 4-4. The last double is covered, so nothing pends; 3-3 stays an open end (ED-11).
#[test]
fn e09_celko_drawn_doubles_chain_on() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 0-0", "4-6 1-1"], "0-1 1-2 3-3 4-4 2-4");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6"); // A:3
    tb.build(B, "4-6"); // B:4
    tb.run();
    // A1: draws 0-1 → marks. B1: draws 1-2 → marks. A2: no play → the chain of draws.
    tb.expect_from(
        3,
        &[
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_draw(B, "1-2"),
            Event::Mark { seat: B },
            ev_draw(A, "3-3"),
            ev_play(A, "3-3", own(A), 3),
            Event::Unmark { seat: A },
            ev_draw(A, "4-4"),
            ev_play(A, "4-4", own(B), 4),
            Event::Unmark { seat: B },
            ev_draw(A, "2-4"),
            ev_play(A, "2-4", own(B), 2),
        ],
    );
    // B2 is not obligated by 3-3: he plays 1-2 on his own train (B:1).
    let next = tb.pos(ev_play(A, "2-4", own(B), 2)) + 1;
    assert_eq!(tb.log.0[next], ev_play(B, "1-2", own(B), 1));
}

/// E10 celko1998: p places a double on another player's public train (taking on freight: that
/// lifts the owner's marker) and cannot follow up → draws; otherwise marks; the double, last
/// of the turn, pends.
#[test]
fn e10_celko_double_on_foreign_train_draw_mark_pend() {
    let rules = celko(3);
    let deal = deal_hand(&["6-6 3-6 3-4 5-5 0-0", "2-6 0-2 1-5 4-5", "5-6 1-1"], "2-3 1-2");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6"); // A:3
    tb.build(B, "2-6"); // B:2
    tb.build(C, "5-6"); // C:5
    // A1 3-4 (A:4), B1 0-2 (B:0); C1: no play → draws 2-3 → marks.
    // A2: 5-5 on C's marked train (forced) lifts C's marker; no follow-up → draws 1-2 → marks.
    let i = tb.log.0.iter().position(|e| *e == ev_play(B, "0-2", own(B), 0)).map(|k| k + 1);
    let b2 = tb.choice(B, Decision::Cover);
    let i = i.expect("B1 played 0-2");
    assert_eq!(
        tb.since(i),
        &[
            ev_draw(C, "2-3"),
            Event::Mark { seat: C },
            ev_play(A, "5-5", own(C), 5),
            Event::Unmark { seat: C },
            ev_draw(A, "1-2"),
            Event::Mark { seat: A },
        ]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(C), 5, A)]);
    assert!(tb.view().is_marked(A) && !tb.view().is_marked(C));
    assert_eq!(sorted(b2), moves(&[("1-5", own(C)), ("4-5", own(C))]));
}

/// E11 celko1998: p (not the owner) covers a double on q's marked train → q's marker is
/// removed ("taking on freight"). (A plain play on a marked train: E5, E10, E13.)
#[test]
fn e11_celko_other_players_cover_lifts_marker() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-2 1-2", "5-6 2-3 1-5"], "0-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6"); // A:3
    tb.build(B, "5-6"); // B:5
    // A1 3-3 (forced), no follow-up → draws 0-1 → marks; pending. B1 covers with 2-3 (forced).
    let a2 = tb.choice(A, Decision::Normal);
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 5..],
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_play(B, "2-3", own(A), 2),
            Event::Unmark { seat: A },
        ]
    );
    assert!(!tb.view().is_marked(A) && tb.view().pending().is_empty());
    assert_eq!(sorted(a2), moves(&[("0-2", own(A)), ("1-2", own(A))]));
}

/// Shared opening for E12 and E28: B's build ends in 5-5 (pending); A cannot cover, draws 0-0
/// and marks; B covers his own double with 4-5 (B:4). A's train (A:3) is marked.
fn celko_e12(a_hand: &str, front: &str) -> Table {
    let deal = deal_hand(&[a_hand, "5-6 5-5 4-5 1-4 2-4 2-3 3-5"], front);
    let mut tb = Table::new(&celko(2), &deal, A);
    tb.build(A, "3-6");
    tb.build(B, "5-6 5-5");
    tb.pick(B, Decision::Cover, "4-5", own(B));
    assert!(tb.view().is_marked(A));
    tb
}

/// E12 celko1998: the owner places a double on his own marked train → marker removed; the
/// chain's follow-up follows; if the follow-up fails → re-marked.
#[test]
fn e12_celko_double_on_own_marked_train() {
    // (a) The follow-up comes from hand: unmarked at the end.
    let mut tb = celko_e12("6-6 3-6 3-3 3-4", "0-0");
    let a2 = tb.pick(A, Decision::Normal, "3-3", own(A));
    assert_eq!(a2, moves(&[("3-3", own(A)), ("3-4", own(A))]));
    let i = tb.pos(ev_play(A, "3-3", own(A), 3));
    let b2 = tb.choice(B, Decision::Normal);
    assert_eq!(tb.since(i), &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_play(A, "3-4", own(A), 4)]);
    assert!(!tb.view().is_marked(A) && tb.view().pending().is_empty());
    assert_eq!(sorted(b2), moves(&[("1-4", own(B)), ("2-4", own(B))]));

    // (b) No follow-up: draw 1-2 misses → marked again, and 3-3 pends.
    let mut tb = celko_e12("6-6 3-6 3-3 0-1", "0-0 1-2");
    let b2 = tb.choice(B, Decision::Cover);
    let i = tb.pos(ev_play(A, "3-3", own(A), 3));
    assert_eq!(
        tb.since(i),
        &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_draw(A, "1-2"), Event::Mark { seat: A }]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(sorted(b2), moves(&[("2-3", own(A)), ("3-5", own(A))]));
}

/// E13 celko1998: the owner's train is marked and he plays elsewhere (on another marked
/// train) → his marker stays (the other train's marker comes off).
#[test]
fn e13_celko_owner_playing_elsewhere_keeps_marker() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 1-5", "5-6 0-0 0-1"], "0-2 1-2");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6"); // A:3
    tb.build(B, "5-6"); // B:5
    // A1: draws 0-2 → marks. B1: draws 1-2 → marks. A2: 1-5 on B's train (forced).
    let b2 = tb.choice(B, Decision::Normal);
    assert_eq!(
        &tb.log.0[3..],
        &[
            ev_draw(A, "0-2"),
            Event::Mark { seat: A },
            ev_draw(B, "1-2"),
            Event::Mark { seat: B },
            ev_play(A, "1-5", own(B), 1),
            Event::Unmark { seat: B },
        ]
    );
    assert!(tb.view().is_marked(A), "a play off his own train does not lift the owner's marker");
    assert!(!tb.view().is_marked(B));
    assert_eq!(sorted(b2), moves(&[("0-1", own(B)), ("1-2", own(B))]));
}

/// E14 celko1998: the obligated player covers with his last tile → out.
#[test]
fn e14_celko_cover_with_last_tile_goes_out() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-0", "5-6 2-3"], "0-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6");
    tb.build(B, "5-6");
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(B));
    assert_eq!(tb.scores(&out), vec![1, 0]);
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 4..],
        &[
            Event::Mark { seat: A },
            ev_play(B, "2-3", own(A), 2),
            Event::Unmark { seat: A },
            Event::RoundEnd { reason: EndReason::Out(B), scores: out.scores },
        ]
    );
}

/// E15 celko1998: nobody can cover and the obligation returns to the doubler → he is
/// obligated like anyone else: one draw, a drawn tile that fits elsewhere stays in hand.
#[test]
fn e15_celko_obligation_returns_to_doubler() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-0", "5-6 1-1"], "0-1 1-2 0-5 3-4");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6");
    tb.build(B, "5-6");
    tb.run();
    tb.expect_from(
        3,
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_draw(B, "1-2"),
            Event::Mark { seat: B },
            // Back to the doubler: exactly one draw; 0-5 fits B's marked train but may not go there.
            ev_draw(A, "0-5"),
            ev_draw(B, "3-4"),
            ev_play(B, "3-4", own(A), 4),
            Event::Unmark { seat: A },
            // The obligation is gone: A's next turn puts 0-5 on B's marked train.
            ev_play(A, "0-5", own(B), 0),
            Event::Unmark { seat: B },
        ],
    );
}

/// E16 celko1998: p's only legal tile would start the Mexican train → he must start it; it is
/// allowed only because nothing else is possible (ED-13).
#[test]
fn e16_celko_mexican_start_only_when_nothing_else() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 1-3 3-4 2-6", "5-6 0-0"], "1-1");
    let mut tb = Table::new(&rules, &deal, A);
    let a0 = tb.pick(A, Decision::Build, "3-6", own(A));
    assert_eq!(a0, moves(&[("2-6", own(A)), ("3-6", own(A))]), "no Mexican train in the build");
    tb.stop(A);
    tb.build(B, "5-6");
    let a1 = tb.pick(A, Decision::Normal, "3-4", own(A));
    assert_eq!(a1, moves(&[("1-3", own(A)), ("3-4", own(A))]), "2-6 may not start the Mexican train yet");
    // B1: draws 1-1 → marks. A2: nothing fits A:4 or B:5 → 2-6 must start the Mexican train.
    tb.run();
    tb.expect_from(4, &[ev_draw(B, "1-1"), Event::Mark { seat: B }, ev_play(A, "2-6", MEX, 2)]);
}

/// The celko1998 structural checks of E17/E18 over random rounds: build choices offer only
/// the builder's own train (and STOP once he has laid a tile), never the Mexican train nor a
/// marked train (no marker can exist yet), and whatever is pending.
fn celko_build_audit() -> Audit {
    let mut builds_with_pending = 0;
    let mut a = Audit::default();
    for (players, h, seed) in [(2u8, 8u8, 171u64), (3, 7, 172), (4, 6, 173)] {
        let r = audit(
            &audit_rules("celko1998", players, h),
            300,
            seed,
            |st, seat, kind, list| {
                if kind == Decision::Build {
                    assert_eq!(st.marker_mask(), 0, "a marker during the build phase");
                    assert_eq!(st.view(A).mexican_started(), 0);
                    assert_eq!(st.view(seat).turns_taken(seat), 0);
                    builds_with_pending += u32::from(!st.view(A).pending().is_empty());
                    for m in list {
                        assert!(m.is_stop() || m.train().unwrap() == own(seat), "build offers {list:?}");
                    }
                } else {
                    assert!(st.turns() >= players as u32, "a normal turn before every seat has built");
                }
            },
            |_| {},
        );
        a.rounds += r.rounds;
        a.build_choices += r.build_choices;
        a.choices += r.choices;
    }
    assert!(a.build_choices > 500, "{a:?}");
    assert!(builds_with_pending > 10, "builds after an open double: {builds_with_pending}");
    a
}

/// E17 celko1998: "on his first turn p holds a tile for another player's open train" cannot
/// occur: a seat's first turn is its build, which lays tiles on its own train only, and no
/// marker exists before the build phase is over.
#[test]
fn e17_celko_first_turn_is_the_build() {
    let a = celko_build_audit();
    assert!(a.rounds >= 900);
    // A hand-built case: B's build never offers A's train, although 4-5 and 3-4 would fit it.
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 0-0", "4-6 3-4 4-5 1-1"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6");
    let b0 = tb.pick(B, Decision::Build, "3-4", own(B));
    assert_eq!(b0, sorted(vec![mv("3-4", own(B)), mv("4-5", own(B)), Move::STOP]));
}

/// E18 celko1998: n/a (an obligation in one's first turn): the first turn is the build, which
/// ignores the doubles rule. A's build ends in 3-3 (pending) and B still builds freely on his
/// own train, although he holds a cover; the random audit checks builds under pending doubles.
#[test]
fn e18_celko_build_ignores_pending_doubles() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-0", "5-6 2-3 2-5 1-5"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6 3-3");
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    // B: 5-6 (forced), then his own train only: 2-3 would cover A's double but is not offered.
    let b0 = tb.pick(B, Decision::Build, "2-5", own(B));
    assert_eq!(b0, sorted(vec![mv("1-5", own(B)), mv("2-5", own(B)), Move::STOP]));
    let _ = celko_build_audit();
}

/// E19 celko1998: a required draw (follow-up or obligation) meets an empty boneyard → pass,
/// no marker (ED-12); the double pends as usual.
#[test]
fn e19_celko_required_draw_on_empty_boneyard_passes_unmarked() {
    let rules = celko(3);
    // The whole set is dealt: the boneyard is empty from the start. Only C holds 3s.
    let deal = deal_hand(
        &[
            "6-6 3-6 3-3 0-0 1-1 2-2",
            "5-6 0-1 0-2 1-2 0-4 1-4 2-4 4-4",
            "0-3 0-5 0-6 1-3 1-5 1-6 2-3 2-5 2-6 3-4 3-5 4-5 4-6 5-5",
        ],
        "",
    );
    assert!(deal.boneyard.is_empty());
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6"); // A:3
    tb.build(B, "5-6"); // B:5
    tb.build(C, "4-6"); // C:4
    let i = tb.mark();
    // A1: 3-3, no follow-up, no draw possible → no marker. B1: obligated, no 3, no draw → pass.
    let c1 = tb.choice(C, Decision::Cover);
    assert_eq!(tb.since(i), &[ev_play(A, "3-3", own(A), 3), Event::Pass { seat: B }]);
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(tb.st.marker_mask(), 0);
    assert_eq!(tb.st.idle(), 1);
    assert_eq!(
        sorted(c1),
        moves(&[("0-3", own(A)), ("1-3", own(A)), ("2-3", own(A)), ("3-4", own(A)), ("3-5", own(A))])
    );
}

// E20 celko1998: tap penalties are a non-default tap model (`TapModel::DrawTwo`), which
// `validate()` rejects ("not supported by the engine yet"): nothing to test yet.

/// E21 celko1998: a seat empties its hand during the build phase → the round ends at once;
/// later seats do not build (ED-8). Also when the placer's build takes his last tile.
#[test]
fn e21_celko_hand_emptied_in_build_ends_round() {
    let rules = celko(3);
    let deal = deal_hand(&["6-6 3-6 3-4 0-0", "5-6 4-5", "2-6 1-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6");
    tb.step(B, "5-6", own(B));
    tb.step(B, "4-5", own(B)); // a choice (4-5 or stop): B's last tile
    let out = tb.finish();
    assert_eq!(
        tb.log.0,
        vec![
            ev_engine(A, "6-6"),
            ev_play(A, "3-6", own(A), 3),
            ev_play(B, "5-6", own(B), 5),
            ev_play(B, "4-5", own(B), 4),
            Event::RoundEnd { reason: EndReason::Out(B), scores: out.scores },
        ]
    );
    assert_eq!(tb.scores(&out), vec![7, 0, 11]);
    assert_eq!(tb.view().train(own(C)).len, 0, "C never built");

    let deal = deal_hand(&["6-6 3-6", "5-6 4-5", "2-6 1-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let out = tb.finish();
    assert_eq!(
        tb.log.0,
        vec![
            ev_engine(A, "6-6"),
            ev_play(A, "3-6", own(A), 3),
            Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores },
        ]
    );
    assert_eq!(tb.scores(&out), vec![0, 20, 11]);
}

// E22 (non-double engine) and E23 (redeal) are n/a for celko1998: the engine is always
// `[e|e]`, found by drawing until it appears (E7 tests the engine search).

/// E24 celko1998: tied final totals → co-winners (ED-24).
#[test]
fn e24_celko_co_winners() {
    let rules = celko(3);
    assert_co_winners(&rules);
    co_winner_matches(&rules, 0..20);
}

/// E25 celko1998: deliberately leaving a double uncovered while holding a cover is legal (the
/// follow-up may go elsewhere); it pends for the next player.
#[test]
fn e25_celko_may_leave_double_uncovered() {
    let rules = celko(2);
    let deal = deal_hand(&["3-6 3-3 3-4 1-5", "6-6 5-6 0-0 1-3 2-3"], "0-2");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(B, "5-6"); // B places the engine and builds first: B:5
    tb.build(A, "3-6"); // A:3
    // B1: no play → draws 0-2 → marks.
    let a1 = tb.pick(A, Decision::Normal, "3-3", own(A));
    assert_eq!(a1, moves(&[("3-3", own(A)), ("3-4", own(A)), ("1-5", own(B))]));
    let f = tb.pick(A, Decision::FollowUp, "1-5", own(B));
    assert_eq!(f, moves(&[("3-4", own(A)), ("1-5", own(B))]), "the cover is offered, so is another train");
    let b2 = tb.choice(B, Decision::Cover);
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert!(tb.st.hand(A).contains(t("3-4")));
    assert_eq!(sorted(b2), moves(&[("1-3", own(A)), ("2-3", own(A))]));
}

/// E26 celko1998: build-phase trains end in doubles → after the build the stack is satisfied
/// LIFO, starting with the placer's first normal turn.
#[test]
fn e26_celko_build_doubles_satisfied_lifo() {
    let rules = celko(3);
    let deal = deal_hand(&["6-6 3-6 3-3 0-1 1-4", "5-6 5-5 2-5 0-5", "1-6 1-1 2-3 3-4"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6 3-3");
    tb.build(B, "5-6 5-5");
    tb.build(C, "1-6 1-1");
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A), obligation(own(B), 5, B), obligation(own(C), 1, C)]);
    let a1 = tb.pick(A, Decision::Cover, "1-4", own(C));
    assert_eq!(a1, moves(&[("0-1", own(C)), ("1-4", own(C))]));
    let b1 = tb.pick(B, Decision::Cover, "2-5", own(B));
    assert_eq!(b1, moves(&[("0-5", own(B)), ("2-5", own(B))]));
    let c1 = tb.pick(C, Decision::Cover, "3-4", own(A));
    assert_eq!(c1, moves(&[("2-3", own(A)), ("3-4", own(A))]));
    assert!(tb.view().pending().is_empty());
}

/// E27 celko1998: during an obligation the drawn tile fits both the double and another train
/// → it must go on the double (ED-10); covering on A's marked train lifts A's marker.
#[test]
fn e27_celko_drawn_tile_covers_the_double() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-0", "5-6 1-1"], "0-1 3-5");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6");
    tb.build(B, "5-6");
    tb.run();
    tb.expect_from(
        3,
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_draw(B, "3-5"),
            ev_play(B, "3-5", own(A), 5),
            Event::Unmark { seat: A },
        ],
    );
    assert_eq!(tb.view().train(own(B)).len, 1);
}

/// E28 celko1998: a marker removed and replaced in one turn → net marked.
#[test]
fn e28_celko_marker_lifted_and_replaced() {
    let mut tb = celko_e12("6-6 3-6 3-3 0-1", "0-0 1-2");
    tb.choice(B, Decision::Cover);
    let unmark = tb.log.0.iter().position(|e| *e == Event::Unmark { seat: A }).expect("lifted");
    let remark = tb.log.0.iter().rposition(|e| *e == Event::Mark { seat: A }).expect("replaced");
    assert!(unmark < remark);
    assert_eq!(tb.log.0[unmark - 1], ev_play(A, "3-3", own(A), 3));
    assert!(tb.view().is_marked(A), "net: marked");
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
}

/// E29 celko1998: every open end's value is exhausted while the boneyard is not empty → play
/// continues: everyone draws and marks until the boneyard is empty, then passes; blocked.
#[test]
fn e29_celko_exhausted_ends_play_on_until_blocked() {
    let rules = celko(2);
    let deal = deal_hand(&["6-6 0-6 0-1 1-6 4-6 4-5 5-6 2-2", "2-6 2-3 3-6 1-1"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "0-6 0-1 1-6 4-6 4-5 5-6");
    tb.build(B, "2-6 2-3 3-6");
    let pile: Vec<Tile> = deal.boneyard.as_slice().to_vec();
    assert_eq!(pile.len(), 16);
    let out = tb.finish();
    assert_eq!(tb.view().unplayed(pip(6)), 0);
    let i = tb.pos(ev_play(B, "3-6", own(B), 6)) + 1;
    let mut expect = drain_then_pass(A, 2, &pile, vec![false, false]);
    expect.push(Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores });
    assert_eq!(tb.since(i), &expect[..]);
    assert_eq!(tb.scores(&out), tb.hand_scores());
}

/// E30 celko1998: `[0|0]` left in hand scores 0.
#[test]
fn e30_celko_double_blank_scores_zero() {
    let rules = celko(2);
    assert_eq!(rules.tile_score(t("0-0")), 0);
    let deal = deal_hand(&["6-6 3-6 3-3", "5-6 0-0 1-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.build(A, "3-6");
    tb.build(B, "5-6");
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(A));
    assert!(tb.st.hand(B).contains(t("0-0")));
    assert_eq!(tb.scores(&out), vec![0, 3]);
}

// =============================================================================================
// dominorules (RULES.md §5.3): engine set aside, first player given, no first-turn limits
// =============================================================================================

/// E1 dominorules: p places a double as his last tile → out ("no matter if it normally
/// requires a follow-up").
#[test]
fn e01_domino_double_as_last_tile_goes_out() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 3-3", "5-6 0-1 2-4"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let a1 = tb.pick(A, Decision::Normal, "3-6", own(A));
    assert_eq!(a1, moves(&[("3-6", own(A)), ("3-6", MEX)]), "the starter may start the Mexican train");
    tb.pick(B, Decision::Normal, "5-6", own(B));
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(A));
    assert_eq!(
        &tb.log.0[2..],
        &[ev_play(A, "3-3", own(A), 3), Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores }]
    );
    assert_eq!(tb.scores(&out), vec![0, 7]);
}

/// E2 dominorules: two doubles as the last play → out ("a double or two doubles as his last
/// play"): the second double needs no third tile when it empties the hand.
#[test]
fn e02_domino_two_doubles_as_last_play_go_out() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 5-6 3-3 5-5", "2-6 1-2 0-1"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "2-6", own(B)), (A, "5-6", MEX), (B, "1-2", own(B))]);
    let a3 = tb.pick(A, Decision::Normal, "3-3", own(A));
    assert_eq!(a3, moves(&[("3-3", own(A)), ("5-5", MEX)]));
    let out = tb.finish();
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 3..],
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_play(A, "5-5", MEX, 5),
            Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores }
        ]
    );
    assert_eq!(tb.scores(&out), vec![0, 1]);
}

/// The dominorules / family_house E3 position: every non-double 5 goes on the table (A's
/// train and B's), A starts the Mexican train, then lays 5-5 on his own train (A:5): the last
/// 5 of the set. His follow-up goes elsewhere (0-2 on the Mexican train, M:2).
fn last_of_suit_script(tb: &mut Table) {
    tb.steps(&[
        (A, "5-6", own(A)), // A:5
        (B, "2-6", own(B)), // B:2
        (A, "0-5", own(A)), // A:0
        (B, "2-5", own(B)), // B:5
        (A, "0-1", own(A)), // A:1
        (B, "3-5", own(B)), // B:3
        (A, "1-5", own(A)), // A:5
        (B, "3-4", own(B)), // B:4
        (A, "0-6", MEX),    // M:0
        (B, "4-5", own(B)), // B:5
        (A, "5-5", own(A)), // A:5, unplayed(5) = 0
        (A, "0-2", MEX),    // M:2: the follow-up elsewhere
    ]);
}

/// E3 dominorules: p places `[v|v]` and afterwards unplayed(v) = 0 → p makes a follow-up
/// elsewhere; the double pends forever; later players draw 1 and mark each turn until the
/// boneyard is empty; then the round is blocked (ED-19).
#[test]
fn e03_domino_last_of_suit_double_pends_forever() {
    let rules = domino(2);
    let deal = deal_aside(&["5-6 0-5 0-1 1-5 0-6 5-5 0-2 3-3", "2-6 2-5 3-5 3-4 4-5 1-1"], "");
    let pile: Vec<Tile> = deal.boneyard.as_slice().to_vec();
    assert_eq!(pile.len(), 13);
    let mut tb = Table::new(&rules, &deal, A);
    last_of_suit_script(&mut tb);
    let out = tb.finish();
    assert_eq!(tb.view().unplayed(pip(5)), 0);
    let i = tb.pos(ev_play(A, "0-2", MEX, 2)) + 1;
    let mut expect = drain_then_pass(B, 2, &pile, vec![false, false]);
    expect.push(Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores });
    assert_eq!(tb.since(i), &expect[..]);
    assert!(tb.view().train(own(A)).open_double);
    assert_eq!(tb.scores(&out), tb.hand_scores());
}

/// The position of E4 and E29 (from the wikipedia scenarios): A 0-6 0-1 1-6 (A:6), B 2-6 2-3
/// 3-6 (B:6), Mexican 4-6 (A) 4-5 (B) 5-6 (A): all three trains end in 6 and all seven 6s are
/// on the table.
fn all_sixes_script(tb: &mut Table) {
    tb.steps(&[
        (A, "0-6", own(A)),
        (B, "2-6", own(B)),
        (A, "0-1", own(A)),
        (B, "2-3", own(B)),
        (A, "1-6", own(A)),
        (B, "3-6", own(B)),
        (A, "4-6", MEX),
        (B, "4-5", MEX),
        (A, "5-6", MEX),
    ]);
}

const ALL_SIXES_E4: [&str; 2] =
    ["0-6 0-1 1-6 4-6 5-6 2-2 2-4 3-3 3-4 4-4 0-2 0-3 0-4 1-2 1-3 1-4 2-5 3-5", "2-6 2-3 3-6 4-5 0-0 0-5 1-1 1-5 5-5"];

/// E4 dominorules: boneyard empty and nobody can play → each seat marks once ("pass … and
/// then place a marker"), then idles; blocked after N idle turns; everyone scores his pips.
#[test]
fn e04_domino_empty_boneyard_marks_then_blocks() {
    let rules = domino(2);
    let deal = deal_aside(&ALL_SIXES_E4, "");
    assert!(deal.boneyard.is_empty());
    let mut tb = Table::new(&rules, &deal, A);
    all_sixes_script(&mut tb);
    let out = tb.finish();
    let i = tb.pos(ev_play(A, "5-6", MEX, 6)) + 1;
    assert_eq!(
        tb.since(i),
        &[
            Event::Mark { seat: B },
            Event::Mark { seat: A },
            Event::Pass { seat: B },
            Event::Pass { seat: A },
            Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores },
        ]
    );
    assert_eq!(tb.scores(&out), vec![67, 23]);
}

/// E5 dominorules: p marks while his train is unstarted → the marker sits "next to the
/// engine"; another player may start his train (even in his first turn); the marker stays
/// until p plays on his own train.
#[test]
fn e05_domino_marker_on_unstarted_train_stays_until_owner_plays() {
    let rules = domino(2);
    let deal = deal_aside(&["0-1 0-2", "5-6 0-6 1-5 4-5"], "3-4");
    let mut tb = Table::new(&rules, &deal, A);
    // A1: no 6 → draws 3-4 → marks his unstarted train.
    let b1 = tb.pick(B, Decision::Normal, "0-6", own(A));
    assert_eq!(&tb.log.0[..2], &[ev_draw(A, "3-4"), Event::Mark { seat: A }]);
    assert_eq!(
        b1,
        moves(&[("5-6", own(B)), ("0-6", own(B)), ("5-6", own(A)), ("0-6", own(A)), ("5-6", MEX), ("0-6", MEX)])
    );
    let a2 = tb.choice(A, Decision::Normal);
    assert!(tb.view().is_marked(A), "another player starting p's train does not lift p's marker");
    assert_eq!(*tb.view().train(own(A)), Train { end: pip(0), len: 1, open_double: false });
    assert_eq!(sorted(a2), moves(&[("0-1", own(A)), ("0-2", own(A))]));
    let i = tb.mark();
    tb.play("0-2", own(A));
    assert_eq!(tb.since(i), &[ev_play(A, "0-2", own(A), 2), Event::Unmark { seat: A }]);
}

/// E6 dominorules: two open doubles cannot arise: a turn with two doubles covers one of them
/// with its third tile, so at most one double is ever pending (DERIVED, §5.3). A hand-built
/// turn with two doubles, and random rounds.
#[test]
fn e06_domino_never_two_pending() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 5-6 3-3 5-5 3-4 0-0", "2-6 1-2 0-5 2-5"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "2-6", own(B)), (A, "5-6", MEX), (B, "1-2", own(B))]);
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let f = tb.pick(A, Decision::FollowUp, "5-5", MEX);
    assert_eq!(f, moves(&[("3-4", own(A)), ("5-5", MEX)]), "a second double needs a third tile from hand");
    // The third tile must go on one of the two doubles: 3-4 on A's (forced).
    let b3 = tb.choice(B, Decision::Cover);
    assert!(tb.played(A, "3-4", own(A)));
    assert_eq!(tb.view().pending(), &[obligation(MEX, 5, A)]);
    assert_eq!(sorted(b3), moves(&[("0-5", MEX), ("2-5", MEX)]));

    // Without a third tile from hand for either double, the second double is not offered:
    // the follow-up draws (0-4, no place) and A marks; 3-3 pends.
    let deal = deal_aside(&["3-6 5-6 3-3 5-5 0-0 1-1", "2-6 1-2 0-5 2-5"], "0-4");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "2-6", own(B)), (A, "5-6", MEX), (B, "1-2", own(B))]);
    let a3 = tb.pick(A, Decision::Normal, "3-3", own(A));
    assert_eq!(a3, moves(&[("3-3", own(A)), ("5-5", MEX)]));
    let i = tb.pos(ev_play(A, "3-3", own(A), 3));
    tb.run();
    tb.expect_from(i, &[ev_play(A, "3-3", own(A), 3), ev_draw(A, "0-4"), Event::Mark { seat: A }]);
    assert!(!tb.played(A, "5-5", MEX));

    let mut total = Audit::default();
    for (players, h, seed) in [(2u8, 8u8, 61u64), (3, 7, 62), (4, 6, 63)] {
        let a = audit(
            &audit_rules("dominorules", players, h),
            400,
            seed,
            |st, _, _, _| assert!(st.view(A).pending().len() <= 1, "two obligations: {:?}", st.view(A).pending()),
            |turn| {
                let plays: Vec<Tile> = turn
                    .iter()
                    .filter_map(|e| match e {
                        Event::Play { tile, .. } => Some(*tile),
                        _ => None,
                    })
                    .collect();
                assert!(plays.iter().filter(|x| x.is_double()).count() <= 2, "three doubles: {turn:?}");
                assert!(plays.len() <= 3, "{turn:?}");
            },
        );
        total.two_double_turns += a.two_double_turns;
        total.pending_seen += a.pending_seen;
        total.max_pending_seen = total.max_pending_seen.max(a.max_pending_seen);
    }
    assert!(total.two_double_turns > 5 && total.pending_seen > 100, "{total:?}");
    assert_eq!(total.max_pending_seen, 1);
}

/// E7 dominorules: n/a (E set aside); the first player rotates: round r starts at
/// (F1 + r − 1) mod N (ED-2), F1 random by default; round r's engine is `[M−r+1|M−r+1]`.
#[test]
fn e07_domino_engine_set_aside_first_player_rotates() {
    for first_seat in [FirstSeat::Random, FirstSeat::Seat(2)] {
        let rules = Rules { first_seat, ..domino(3) };
        rules.validate().unwrap();
        for seed in 0..4 {
            let mut bots: Vec<Bot> = (0..3).map(|_| Bot::parse("random").unwrap()).collect();
            let mut obs = RoundStarts::default();
            let res = play_match(&rules, seed, &mut bots, &mut obs);
            assert_eq!(res.rounds, 7);
            let f1 = obs.starts[0].1.index();
            if first_seat == FirstSeat::Seat(2) {
                assert_eq!(f1, 2);
            }
            for (k, (round, first, engine, hands)) in obs.starts.iter().enumerate() {
                assert_eq!(*round as usize, k + 1);
                assert_eq!(first.index(), (f1 + k) % 3, "round {round}");
                assert_eq!(*engine, Tile::from_pips(6 - k as u8, 6 - k as u8));
                assert!(hands.iter().all(|h| !h.contains(*engine)), "the engine is set aside");
            }
        }
    }
}

/// E8 dominorules: an obligation is pending and p could play on his own train → not allowed.
#[test]
fn e08_domino_obligation_excludes_own_train() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 3-3 0-2 1-2", "5-6 2-3 3-4 1-5 2-4"], "0-5 1-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    // A2: 3-3 (forced); no follow-up anywhere → draws 0-5 → no place for it → marks.
    let b2 = tb.choice(B, Decision::Cover);
    assert_eq!(&tb.log.0[2..], &[ev_play(A, "3-3", own(A), 3), ev_draw(A, "0-5"), Event::Mark { seat: A }]);
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(sorted(b2), moves(&[("2-3", own(A)), ("3-4", own(A))]));
    let bad = mv("1-5", own(B));
    assert_eq!(tb.st.play(bad, &mut NoObserver), Err(PlayError::Illegal(bad)));
}

/// E9 dominorules: p placed a drawn double and holds no follow-up → a second draw is allowed
/// (ED-9): it may go on the double or on any eligible train; a drawn second double is never
/// legal (DERIVED), so p marks and the double pends.
#[test]
fn e09_domino_drawn_double_second_draw() {
    let rules = domino(2);
    for second in ["3-4", "2-4", "4-4"] {
        let deal = deal_aside(&["3-6 0-0 1-1", "4-6 5-6 1-2 1-3 2-3"], &format!("3-3 {second}"));
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "4-6", MEX)]); // A:3, M:4
        let i = tb.pos(ev_play(B, "4-6", MEX, 4)) + 1;
        // A2: no play → draws 3-3 → plays it → no follow-up in hand → draws `second`.
        let step = tb.run();
        let mut expect = vec![ev_draw(A, "3-3"), ev_play(A, "3-3", own(A), 3), ev_draw(A, second)];
        match second {
            "3-4" => {
                // Fits the double and the Mexican train: A's choice; covering ends the turn.
                assert_eq!(step, Step::Choice(A, Decision::FollowUp));
                assert_eq!(sorted(tb.moves.to_vec()), moves(&[("3-4", own(A)), ("3-4", MEX)]));
                tb.play("3-4", own(A));
                expect.push(ev_play(A, "3-4", own(A), 4));
                assert!(tb.view().pending().is_empty() && !tb.view().is_marked(A));
            }
            "2-4" => {
                // Fits only the Mexican train: played there; the double stays uncovered and pends.
                assert_eq!(step, Step::Choice(B, Decision::Cover));
                expect.push(ev_play(A, "2-4", MEX, 2));
                assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
                assert!(!tb.view().is_marked(A));
            }
            _ => {
                // A drawn double can never be the follow-up (4-4 would fit M:4): marked, pending.
                assert_eq!(step, Step::Choice(B, Decision::Cover));
                expect.push(Event::Mark { seat: A });
                assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
            }
        }
        assert_eq!(tb.since(i), &expect[..]);
        assert_eq!(tb.view().draws(A), 2);
    }
}

/// E10 dominorules: p places a double on another player's public train → the follow-up may go
/// on any eligible train (here A's own), and the double pends; with no follow-up p draws, then
/// marks; the double pends. The owner's marker stays (owner-only removal).
#[test]
fn e10_domino_double_on_foreign_train() {
    let rules = domino(2);
    // (a) Follow-up on A's own train.
    let deal = deal_aside(&["3-6 2-3 5-5 1-5 0-2", "5-6 1-1"], "0-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    // A2 2-3 (forced, A:2); B2: no play → draws 0-1 → marks.
    let a3 = tb.pick(A, Decision::Normal, "5-5", own(B));
    assert!(tb.view().is_marked(B));
    assert_eq!(a3, moves(&[("0-2", own(A)), ("5-5", own(B)), ("1-5", own(B))]));
    let f = tb.pick(A, Decision::FollowUp, "0-2", own(A));
    assert_eq!(f, moves(&[("0-2", own(A)), ("1-5", own(B))]));
    assert_eq!(tb.view().pending(), &[obligation(own(B), 5, A)]);
    assert!(tb.view().is_marked(B) && !tb.view().is_marked(A));

    // (b) No follow-up: draws 1-3 (no place) → marks; B is then obligated by A's double on his
    // train: he draws 4-5 and covers (which, being his own train, lifts his marker).
    let deal = deal_aside(&["3-6 2-3 5-5 0-0", "5-6 1-1"], "0-1 1-3 4-5");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    tb.run();
    let i = tb.pos(ev_play(A, "5-5", own(B), 5));
    tb.expect_from(
        i,
        &[
            ev_play(A, "5-5", own(B), 5),
            ev_draw(A, "1-3"),
            Event::Mark { seat: A },
            ev_draw(B, "4-5"),
            ev_play(B, "4-5", own(B), 4),
            Event::Unmark { seat: B },
        ],
    );
}

/// E11 dominorules: p (not the owner) places a tile on q's marked train, including covering a
/// double there → q's marker stays.
#[test]
fn e11_domino_non_owner_play_keeps_marker() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 3-3 0-2 1-2", "5-6 2-3 3-4 1-5 2-4"], "0-5 1-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    // A2: 3-3, draws 0-5, marks (E8). B2 covers A's double with 3-4 (A:4).
    tb.pick(B, Decision::Cover, "3-4", own(A));
    assert!(tb.view().pending().is_empty() && tb.view().is_marked(A));
    // A3: draws 1-1, no play. B3: 2-4 on A's marked train (A:2).
    let b3 = tb.pick(B, Decision::Normal, "2-4", own(A));
    assert_eq!(b3, moves(&[("1-5", own(B)), ("2-4", own(A))]));
    let a4 = tb.choice(A, Decision::Normal);
    assert!(tb.view().is_marked(A), "neither the cover nor the plain play lifted A's marker");
    assert!(!tb.log.0.iter().any(|e| matches!(e, Event::Unmark { .. })));
    assert_eq!(sorted(a4), moves(&[("0-2", own(A)), ("1-2", own(A))]));
}

/// Shared opening for E12 and E28 (dominorules, family_house, harbour_cay): A 2-6 (A:2), B
/// 5-6 (B:5), A draws 0-1 and marks, B plays 2-3 on A's marked train (A:3).
fn e12_table(rules: &Rules, deal: &Deal) -> Table {
    let mut tb = Table::new(rules, deal, A);
    tb.steps(&[(A, "2-6", own(A)), (B, "5-6", own(B))]);
    let b2 = tb.pick(B, Decision::Normal, "2-3", own(A));
    assert!(b2.contains(&mv("2-3", own(A))) && b2.contains(&mv("3-5", own(B))));
    assert!(tb.view().is_marked(A));
    assert!(tb.log.0.contains(&ev_draw(A, "0-1")));
    tb
}

const E12_B: &str = "5-6 2-3 1-3 3-5 4-5";

/// E12 dominorules: the owner places a double on his own marked train → marker removed; the
/// follow-up may go anywhere; if it fails → re-marked (and the double pends).
#[test]
fn e12_domino_double_on_own_marked_train() {
    let rules = domino(2);
    let mut tb = e12_table(&rules, &deal_aside(&["2-6 3-3 3-4 0-0", E12_B], "0-1"));
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let i = tb.pos(ev_play(A, "3-3", own(A), 3));
    tb.choice(B, Decision::Normal);
    assert_eq!(tb.since(i), &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_play(A, "3-4", own(A), 4)]);
    assert!(!tb.view().is_marked(A) && tb.view().pending().is_empty());

    let mut tb = e12_table(&rules, &deal_aside(&["2-6 3-3 0-0", E12_B], "0-1 0-2"));
    let b3 = tb.choice(B, Decision::Cover);
    let i = tb.pos(ev_play(A, "3-3", own(A), 3));
    assert_eq!(
        tb.since(i),
        &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_draw(A, "0-2"), Event::Mark { seat: A }]
    );
    assert!(tb.view().is_marked(A));
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(sorted(b3), moves(&[("1-3", own(A)), ("3-5", own(A))]));
}

/// E13 dominorules: the owner's train is marked and he plays elsewhere (starts the Mexican
/// train) → the marker stays ("does not make him eligible").
#[test]
fn e13_domino_owner_playing_elsewhere_keeps_marker() {
    let rules = domino(2);
    let deal = deal_aside(&["2-6 0-0", "5-6 1-5 1-3 1-4"], "0-1 4-6");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "2-6", own(A)), (B, "5-6", own(B))]);
    // A2 draws 0-1 → marks; B2 1-5 (forced); A3 draws 4-6 → starts the Mexican train.
    let b3 = tb.choice(B, Decision::Normal);
    assert_eq!(
        &tb.log.0[2..],
        &[
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_play(B, "1-5", own(B), 1),
            ev_draw(A, "4-6"),
            ev_play(A, "4-6", MEX, 4)
        ]
    );
    assert!(tb.view().is_marked(A));
    assert_eq!(sorted(b3), moves(&[("1-3", own(B)), ("1-4", own(B)), ("1-4", MEX)]));
}

/// E14 dominorules: the obligated player covers with his last tile → out.
#[test]
fn e14_domino_cover_with_last_tile_goes_out() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 3-3 0-0", "5-6 2-3"], "0-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(B));
    assert_eq!(tb.scores(&out), vec![1, 0]);
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 3..],
        &[
            Event::Mark { seat: A },
            ev_play(B, "2-3", own(A), 2),
            Event::RoundEnd { reason: EndReason::Out(B), scores: out.scores }
        ]
    );
}

/// E15 dominorules: nobody can cover and the obligation returns to the doubler → he is
/// obligated like anyone else: one draw; his drawn tile may not go elsewhere.
#[test]
fn e15_domino_obligation_returns_to_doubler() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 3-3 0-0", "5-6 1-1"], "0-1 1-2 0-5 3-4");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    tb.run();
    tb.expect_from(
        2,
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_draw(B, "1-2"),
            Event::Mark { seat: B },
            ev_draw(A, "0-5"),
            ev_draw(B, "3-4"),
            ev_play(B, "3-4", own(A), 4),
            ev_play(A, "0-5", own(B), 0),
        ],
    );
}

/// E16 dominorules: p's only legal tile would start the Mexican train → he must start it
/// (starting it is open at any time, even in the very first move).
#[test]
fn e16_domino_must_start_mexican() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 4-6 0-0", "5-6 1-5 4-5"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let a1 = tb.pick(A, Decision::Normal, "3-6", own(A));
    assert_eq!(a1, moves(&[("3-6", own(A)), ("4-6", own(A)), ("3-6", MEX), ("4-6", MEX)]));
    tb.step(B, "5-6", own(B));
    let b2 = tb.choice(B, Decision::Normal);
    assert_eq!(tb.log.0[2], ev_play(A, "4-6", MEX, 4), "A2: 4-6 fits only a new Mexican train");
    assert_eq!(sorted(b2), moves(&[("1-5", own(B)), ("4-5", own(B)), ("4-5", MEX)]));
}

/// E17 dominorules: on his first turn p holds a tile for another player's open train but none
/// for his own → he must play it there.
#[test]
fn e17_domino_first_turn_must_use_open_train() {
    let rules = domino(3);
    let deal = deal_aside(&["0-1 0-2", "3-6 4-6", "2-3 1-1"], "4-5");
    let mut tb = Table::new(&rules, &deal, A);
    // A1: no 6 → draws 4-5 → marks. B1 (first turn) may start A's open train.
    let b1 = tb.pick(B, Decision::Normal, "3-6", own(A));
    assert!(b1.contains(&mv("3-6", own(A))) && b1.contains(&mv("3-6", MEX)));
    // C1 (first turn): 2-3 fits only A's open train (A:3): it must go there.
    tb.run();
    tb.expect_from(
        0,
        &[ev_draw(A, "4-5"), Event::Mark { seat: A }, ev_play(B, "3-6", own(A), 3), ev_play(C, "2-3", own(A), 2)],
    );
    assert_eq!(tb.view().draws(C), 0);
}

/// E18 dominorules: on his first turn p faces an obligation on another player's train → he
/// must cover it.
#[test]
fn e18_domino_first_turn_must_cover() {
    let rules = domino(4);
    let deal = deal_aside(&["0-1 0-2", "3-6 5-6", "3-3 1-1", "2-3 3-4 4-6"], "4-5 0-0");
    let mut tb = Table::new(&rules, &deal, A);
    // A1: draws 4-5 → marks (unstarted). B1: 3-6 on A's open train (A:3).
    tb.pick(B, Decision::Normal, "3-6", own(A));
    // C1: 3-3 on A's train (forced); no follow-up; draws 0-0 (a drawn double: never a
    // follow-up) → marks; pending. D1, in his first turn, must cover.
    let d1 = tb.choice(D, Decision::Cover);
    assert_eq!(tb.view().turns_taken(D), 0);
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, C)]);
    assert_eq!(sorted(d1), moves(&[("2-3", own(A)), ("3-4", own(A))]));
}

/// E19 dominorules: a required draw (follow-up or obligation) meets an empty boneyard → pass
/// and mark; the double pends.
#[test]
fn e19_domino_required_draw_on_empty_boneyard_marks_and_pends() {
    let rules = domino(3);
    let deal = deal_aside(
        &[
            "3-6 3-3 0-0 0-1 0-2 0-4 0-5 1-1 1-2",
            "5-6 0-6 1-6 2-6 1-4 1-5 2-2 2-4 2-5",
            "4-6 0-3 1-3 2-3 3-4 3-5 4-4 4-5 5-5",
        ],
        "",
    );
    assert!(deal.boneyard.is_empty());
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B)), (C, "4-6", own(C))]);
    let c2 = tb.choice(C, Decision::Cover);
    assert_eq!(&tb.log.0[3..], &[ev_play(A, "3-3", own(A), 3), Event::Mark { seat: A }, Event::Mark { seat: B }]);
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(
        sorted(c2),
        moves(&[("0-3", own(A)), ("1-3", own(A)), ("2-3", own(A)), ("3-4", own(A)), ("3-5", own(A))])
    );
}

// E20 dominorules: no tap penalty is defined ("No penalty"); a penalty model is a
// non-default tap model, which `validate()` rejects: nothing to test.
//
// E21 (build phase), E22 (non-double engine), E23 (redeal) and E26 (build doubles) are n/a
// for dominorules.

/// E24 dominorules: tied final totals → co-winners (ED-24).
#[test]
fn e24_domino_co_winners() {
    let rules = domino(3);
    assert_co_winners(&rules);
    co_winner_matches(&rules, 0..20);
}

/// E25 dominorules: deliberately leaving a double uncovered while holding a cover is legal; it
/// pends.
#[test]
fn e25_domino_may_leave_double_uncovered() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 3-3 3-4 5-6", "2-6 1-3 2-3"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "2-6", own(B))]);
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let f = tb.pick(A, Decision::FollowUp, "5-6", MEX);
    assert_eq!(f, moves(&[("3-4", own(A)), ("5-6", MEX)]));
    let b2 = tb.choice(B, Decision::Cover);
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert!(!tb.view().is_marked(A));
    assert_eq!(
        sorted(b2),
        moves(&[("1-3", own(A)), ("2-3", own(A))]),
        "2-3 fits B's own train too, but only covers count"
    );
}

/// E27 dominorules: during an obligation the drawn tile fits both the double and another
/// train → it goes on the double.
#[test]
fn e27_domino_drawn_tile_covers_the_double() {
    let rules = domino(2);
    let deal = deal_aside(&["3-6 3-3 0-5 1-5", "5-6 1-1"], "0-1 3-5");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    let a3 = tb.choice(A, Decision::Normal);
    assert_eq!(
        &tb.log.0[2..],
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_draw(B, "3-5"),
            ev_play(B, "3-5", own(A), 5)
        ]
    );
    assert!(tb.view().pending().is_empty());
    assert_eq!(tb.view().train(own(B)).len, 1);
    assert_eq!(sorted(a3), moves(&[("0-5", own(A)), ("1-5", own(A))]));
}

/// E28 dominorules: a marker removed and replaced in one turn → net marked.
#[test]
fn e28_domino_marker_lifted_and_replaced() {
    let rules = domino(2);
    let mut tb = e12_table(&rules, &deal_aside(&["2-6 3-3 0-0", E12_B], "0-1 0-2"));
    tb.choice(B, Decision::Cover);
    let i = tb.pos(ev_play(A, "3-3", own(A), 3));
    let turn = tb.since(i);
    let unmark = turn.iter().position(|e| *e == Event::Unmark { seat: A }).expect("lifted");
    let mark = turn.iter().position(|e| *e == Event::Mark { seat: A }).expect("replaced");
    assert!(unmark < mark);
    assert!(tb.view().is_marked(A), "net: marked");
}

const ALL_SIXES_E29: [&str; 2] = ["0-6 0-1 1-6 4-6 5-6 2-2 3-4", "2-6 2-3 3-6 4-5 1-1 0-5"];

/// E29 dominorules: every open end's value is exhausted, boneyard not empty → play continues:
/// everyone draws and marks until the boneyard is empty, then the round is blocked.
#[test]
fn e29_domino_exhausted_ends_play_on_until_blocked() {
    let rules = domino(2);
    let deal = deal_aside(&ALL_SIXES_E29, "");
    let pile: Vec<Tile> = deal.boneyard.as_slice().to_vec();
    assert_eq!(pile.len(), 14);
    let mut tb = Table::new(&rules, &deal, A);
    all_sixes_script(&mut tb);
    let out = tb.finish();
    let i = tb.pos(ev_play(A, "5-6", MEX, 6)) + 1;
    let mut expect = drain_then_pass(B, 2, &pile, vec![false, false]);
    expect.push(Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores });
    assert_eq!(tb.since(i), &expect[..]);
    assert_eq!(out.reason, EndReason::Blocked);
    assert_eq!(tb.scores(&out), vec![52, 38]);
}

/// E30 dominorules: `[0|0]` left in hand scores 0.
#[test]
fn e30_domino_double_blank_scores_zero() {
    let rules = domino(2);
    assert_eq!(rules.tile_score(t("0-0")), 0);
    let deal = deal_aside(&["3-6 3-3", "5-6 0-0 1-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(A));
    assert_eq!(tb.scores(&out), vec![0, 3]);
}

// =============================================================================================
// family_house (RULES.md §5.4): v1 obligations by default (ED-29); `literal_basic`; `v2`
// =============================================================================================

/// `hand` with the engine `[6|6]` added: A holds it in the family_house and harbour_cay
/// scenarios, so A places it and takes the first turn.
fn with_engine(hand: &str) -> String {
    format!("6-6 {hand}")
}

/// E1 family_house: p places a double as his last tile → out ("A PLAYER MAY GO OUT WITH A
/// DOUBLE"), in the default, basic and v2 rules alike.
#[test]
fn e01_family_double_as_last_tile_goes_out() {
    for rules in [family(2), family_basic(2), family_v2(2)] {
        let deal = deal_hand(&["6-6 3-6 3-3", "5-6 0-1 2-4"], "");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
        let out = tb.finish();
        assert_eq!(
            tb.log.0,
            vec![
                ev_engine(A, "6-6"),
                ev_play(A, "3-6", own(A), 3),
                ev_play(B, "5-6", own(B), 5),
                ev_play(A, "3-3", own(A), 3),
                Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores },
            ]
        );
        assert_eq!(tb.scores(&out), vec![0, 7]);
    }
}

/// E2 family_house: p's second double empties his hand → out.
#[test]
fn e02_family_second_double_goes_out() {
    let rules = family(2);
    let deal = deal_hand(&["6-6 3-6 5-6 3-3 5-5", "2-6 1-2 0-1"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "2-6", own(B)), (A, "5-6", MEX), (B, "1-2", own(B))]);
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let out = tb.finish();
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 3..],
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_play(A, "5-5", MEX, 5),
            Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores }
        ]
    );
    assert_eq!(tb.scores(&out), vec![0, 1]);
}

const E3_FAMILY: [&str; 2] = ["6-6 5-6 0-5 0-1 1-5 0-6 5-5 0-2 3-3", "2-6 2-5 3-5 3-4 4-5 1-1"];

/// E3 family_house (basic): p lays the last 5 of the set and plays another tile anywhere; the
/// double is a dead end with no obligation: play goes on normally (A later plays a drawn 1-2
/// on the Mexican train).
#[test]
fn e03_family_basic_last_of_suit_double_is_a_dead_end() {
    let rules = family_basic(2);
    let deal = deal_hand(&E3_FAMILY, "");
    let mut tb = Table::new(&rules, &deal, A);
    last_of_suit_script(&mut tb);
    tb.run();
    let i = tb.pos(ev_play(A, "0-2", MEX, 2)) + 1;
    assert!(tb.view().pending().is_empty());
    // Boneyard: 0-0 0-3 0-4 1-2 ... B draws 0-0 (marks), A 0-3 (marks), B 0-4, A draws 1-2 and
    // plays it on the Mexican train (M:2): nobody is obligated by the dead 5-5.
    tb.expect_from(
        i,
        &[
            ev_draw(B, "0-0"),
            Event::Mark { seat: B },
            ev_draw(A, "0-3"),
            Event::Mark { seat: A },
            ev_draw(B, "0-4"),
            ev_draw(A, "1-2"),
            ev_play(A, "1-2", MEX, 1),
            Event::Unmark { seat: A },
        ],
    );
    assert!(tb.view().train(own(A)).open_double);
}

/// E3 family_house (v1, and v2): as `dominorules`: the double pends forever; later players
/// draw 1 and mark each turn until the boneyard is empty; blocked (ED-19).
#[test]
fn e03_family_v1_v2_last_of_suit_double_pends_forever() {
    for rules in [family(2), family_v2(2)] {
        let deal = deal_hand(&E3_FAMILY, "");
        let pile: Vec<Tile> = deal.boneyard.as_slice().to_vec();
        assert_eq!(pile.len(), 13);
        let mut tb = Table::new(&rules, &deal, A);
        last_of_suit_script(&mut tb);
        let out = tb.finish();
        let i = tb.pos(ev_play(A, "0-2", MEX, 2)) + 1;
        let mut expect = drain_then_pass(B, 2, &pile, vec![false, false]);
        expect.push(Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores });
        assert_eq!(tb.since(i), &expect[..], "{:?}", rules.marker_removal);
        assert!(!tb.played(A, "1-2", MEX));
    }
}

/// E4 family_house: boneyard empty and nobody can play → each seat marks once (ED-15), then
/// idles; blocked after N idle turns (ED-16); everyone scores his pips.
#[test]
fn e04_family_empty_boneyard_marks_then_blocks() {
    for rules in [family(2), family_basic(2)] {
        let a = with_engine(ALL_SIXES_E4[0]);
        let deal = deal_hand(&[&a, ALL_SIXES_E4[1]], "");
        assert!(deal.boneyard.is_empty());
        let mut tb = Table::new(&rules, &deal, A);
        all_sixes_script(&mut tb);
        let out = tb.finish();
        let i = tb.pos(ev_play(A, "5-6", MEX, 6)) + 1;
        assert_eq!(
            tb.since(i),
            &[
                Event::Mark { seat: B },
                Event::Mark { seat: A },
                Event::Pass { seat: B },
                Event::Pass { seat: A },
                Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores },
            ]
        );
        assert_eq!(tb.scores(&out), vec![67, 23]);
    }
}

/// E5 family_house: p marks while his train is unstarted → the marker sits on his "assigned
/// spot"; others may start his train; the marker comes off at p's next placement anywhere
/// (here on the Mexican train); v2: only at a placement on his own train.
#[test]
fn e05_family_marker_on_unstarted_train() {
    for v2 in [false, true] {
        let rules = if v2 { family_v2(3) } else { family(3) };
        let deal = deal_hand(&["6-6 0-1 0-2", "5-6 0-6 1-5", "4-6 2-2"], "3-4 1-1");
        let mut tb = Table::new(&rules, &deal, A);
        // A1: no 6 → draws 3-4 → marks. B1 starts A's train with 0-6 (A:0). C1 starts the
        // Mexican train (M:4).
        let b1 = tb.pick(B, Decision::Normal, "0-6", own(A));
        assert!(b1.contains(&mv("0-6", own(A))));
        tb.pick(C, Decision::Normal, "4-6", MEX);
        let a2 = tb.pick(A, Decision::Normal, "3-4", MEX);
        assert!(tb.log.0.contains(&Event::Mark { seat: A }));
        assert_eq!(a2, moves(&[("0-1", own(A)), ("0-2", own(A)), ("3-4", MEX)]));
        assert_eq!(tb.view().is_marked(A), v2, "v1: any placement by the owner; v2: only on his own train");
        if v2 {
            // B2 5-6 on his own train (forced); C2 draws 1-1 → marks; A3 plays on his own train.
            tb.pick(A, Decision::Normal, "0-2", own(A));
            let n = tb.log.0.len();
            assert_eq!(&tb.log.0[n - 2..], &[ev_play(A, "0-2", own(A), 2), Event::Unmark { seat: A }]);
        }
    }
}

/// E6 family_house: two open doubles. Basic: doubles carry no obligation. v1/v2: every
/// uncovered double of the turn pends, FIFO: one double satisfied per turn, the first first.
#[test]
fn e06_family_two_open_doubles_fifo() {
    let hands = ["6-6 3-6 5-6 3-3 5-5 0-0", "2-6 0-2 2-3 1-3 0-5"];
    for rules in [family(2), family_v2(2), family_basic(2)] {
        let deal = deal_hand(&hands, "1-1 4-5");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "2-6", own(B)), (A, "5-6", MEX), (B, "0-2", own(B))]);
        // A3: 3-3 on his own train, then 5-5 on the Mexican train (a double as follow-up), then
        // nothing: draws 1-1 → marks. Both doubles stay uncovered.
        tb.pick(A, Decision::Normal, "3-3", own(A));
        let i = tb.pos(ev_play(A, "3-3", own(A), 3));
        if rules.obligation == ObligationRule::None {
            let b3 = tb.choice(B, Decision::Normal);
            assert!(tb.view().pending().is_empty());
            assert_eq!(sorted(b3), moves(&[("0-5", own(B)), ("2-3", own(A)), ("1-3", own(A)), ("0-5", MEX)]));
            continue;
        }
        let b3 = tb.pick(B, Decision::Cover, "2-3", own(A));
        assert_eq!(
            tb.since(i)[..4],
            [ev_play(A, "3-3", own(A), 3), ev_play(A, "5-5", MEX, 5), ev_draw(A, "1-1"), Event::Mark { seat: A }]
        );
        assert_eq!(b3, moves(&[("1-3", own(A)), ("2-3", own(A))]), "FIFO: A's 3-3 first, although 0-5 covers 5-5");
        assert_eq!(tb.view().pending(), &[obligation(MEX, 5, A)]);
        // A4: obligated by 5-5: draws 4-5 and covers.
        tb.run();
        assert!(tb.played(A, "4-5", MEX));
        assert!(tb.view().pending().is_empty());
    }
}

/// E7 family_house: the engine holder places E (one tile short) and takes the first turn: one
/// tile on his own train, or start the Mexican train. Without a holder: complete rounds of
/// drawing from the lead seat (ED-7), checked after each round.
#[test]
fn e07_family_engine_holder_opens() {
    let rules = family(3);
    let deal = deal_hand(&["0-1 1-2", "6-6 2-6 3-6", "4-6 0-0"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let b1 = tb.pick(B, Decision::Normal, "2-6", own(B));
    assert_eq!(b1, moves(&[("2-6", own(B)), ("3-6", own(B)), ("2-6", MEX), ("3-6", MEX)]));
    assert_eq!(tb.log.0[0], ev_engine(B, "6-6"));
    assert_eq!((tb.st.placer(), tb.st.first()), (Some(B), B));
    assert_eq!(tb.st.hand(B).len(), 1);

    // Nobody holds 6-6: A, B, C each draw one tile; B drew it, but C still draws (a complete
    // round of drawing), then B places it.
    let deal = deal_hand(&["0-1 1-2", "2-6 3-6", "4-6 0-2"], "0-0 6-6 1-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.choice(B, Decision::Normal);
    assert_eq!(&tb.log.0, &[ev_draw(A, "0-0"), ev_draw(B, "6-6"), ev_draw(C, "1-1"), ev_engine(B, "6-6")]);
}

/// E8 family_house: an obligation is pending and p could play on his own train → not allowed
/// (v1/v2); basic: n/a (no obligation: he may play anywhere).
#[test]
fn e08_family_obligation_excludes_own_train() {
    for rules in [family(2), family_v2(2), family_basic(2)] {
        let deal = deal_hand(&["6-6 3-6 3-3 0-2 1-2", "5-6 2-3 3-4 1-5 2-4"], "0-5 1-1");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
        // A2: 3-3, no follow-up, draws 0-5 (no place) → marks.
        if rules.obligation == ObligationRule::None {
            let b2 = tb.choice(B, Decision::Normal);
            assert_eq!(sorted(b2), moves(&[("1-5", own(B)), ("2-3", own(A)), ("3-4", own(A))]));
            continue;
        }
        let b2 = tb.choice(B, Decision::Cover);
        assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
        assert_eq!(sorted(b2), moves(&[("2-3", own(A)), ("3-4", own(A))]));
        let bad = mv("1-5", own(B));
        assert_eq!(tb.st.play(bad, &mut NoObserver), Err(PlayError::Illegal(bad)));
    }
}

/// E9 family_house: p placed a drawn double and holds no follow-up → a follow-up draw is
/// allowed (ED-9); the chain continues while draws yield playable tiles (a drawn double is
/// played and earns another follow-up).
#[test]
fn e09_family_drawn_double_chain_continues() {
    for rules in [family(2), family_basic(2)] {
        let deal = deal_hand(&["6-6 3-6 0-0 1-1", "4-6 5-6 1-2"], "3-3 4-4 2-4");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "4-6", MEX)]); // A:3, M:4
        let i = tb.pos(ev_play(B, "4-6", MEX, 4)) + 1;
        let step = tb.run();
        // A2: draws 3-3 → plays it; draws 4-4 → plays it on the Mexican train; draws 2-4 →
        // plays it on the Mexican train (covering 4-4). 3-3 stays uncovered: v1 pends it.
        tb.expect_from(
            i,
            &[
                ev_draw(A, "3-3"),
                ev_play(A, "3-3", own(A), 3),
                ev_draw(A, "4-4"),
                ev_play(A, "4-4", MEX, 4),
                ev_draw(A, "2-4"),
                ev_play(A, "2-4", MEX, 2),
            ],
        );
        if rules.obligation == ObligationRule::None {
            assert_eq!(step, Step::Choice(B, Decision::Normal), "basic: B plays freely");
            assert_eq!(sorted(tb.moves.to_vec()), moves(&[("5-6", own(B)), ("1-2", MEX)]));
            assert!(tb.view().pending().is_empty());
        } else {
            assert!(matches!(tb.log.0[i + 6], Event::Draw { seat: B, .. }), "v1: B is obligated by 3-3");
        }
    }
}

/// E10 family_house: p places a double on another player's public train and cannot follow up
/// → the follow-up may go anywhere; otherwise draw, then mark. Basic: no pend. v1/v2: pend.
#[test]
fn e10_family_double_on_foreign_train() {
    for rules in [family(2), family_basic(2)] {
        let pends = rules.obligation != ObligationRule::None;
        // (a) Follow-up on A's own train.
        let deal = deal_hand(&["6-6 3-6 2-3 5-5 1-5 0-2", "5-6 1-1"], "0-1");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
        // A2 2-3 (forced, A:2); B2 draws 0-1 → marks.
        let a3 = tb.pick(A, Decision::Normal, "5-5", own(B));
        assert_eq!(a3, moves(&[("0-2", own(A)), ("5-5", own(B)), ("1-5", own(B))]));
        let f = tb.pick(A, Decision::FollowUp, "0-2", own(A));
        assert_eq!(f, moves(&[("0-2", own(A)), ("1-5", own(B))]));
        assert_eq!(tb.view().pending().len(), usize::from(pends));
        assert!(tb.view().is_marked(B), "only B's own placements lift his marker");

        // (b) No follow-up: draws 1-3 (no place) → marks. B holds 1-2, which fits A's train
        // (A:2), now marked: basic lets B play it there; v1 obliges B to cover 5-5 instead.
        let deal = deal_hand(&["6-6 3-6 2-3 5-5 0-0", "5-6 1-1 1-2"], "0-1 1-3");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
        tb.run();
        let j = tb.pos(ev_play(A, "5-5", own(B), 5));
        tb.expect_from(j, &[ev_play(A, "5-5", own(B), 5), ev_draw(A, "1-3"), Event::Mark { seat: A }]);
        let next = tb.log.0[j + 3];
        if pends {
            assert!(matches!(next, Event::Draw { seat: B, .. }), "v1: B is obligated: {next:?}");
        } else {
            assert_eq!(next, ev_play(B, "1-2", own(A), 1), "basic: no obligation");
        }
    }
}

/// E11 family_house: p (not the owner) places a tile on q's marked train, including covering
/// a double there → q's marker stays (v1, v2; basic for the plain play).
#[test]
fn e11_family_non_owner_play_keeps_marker() {
    for rules in [family(2), family_v2(2)] {
        let deal = deal_hand(&["6-6 3-6 3-3 0-2 1-2", "5-6 2-3 3-4 1-5 2-4"], "0-5 1-1");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
        tb.pick(B, Decision::Cover, "3-4", own(A)); // A:4
        assert!(tb.view().is_marked(A));
        // A3: draws 1-1, no play. B3: 2-4 on A's marked train (A:2).
        let b3 = tb.pick(B, Decision::Normal, "2-4", own(A));
        assert_eq!(b3, moves(&[("1-5", own(B)), ("2-4", own(A))]));
        let a4 = tb.choice(A, Decision::Normal);
        assert!(tb.view().is_marked(A));
        assert!(!tb.log.0.iter().any(|e| matches!(e, Event::Unmark { .. })));
        assert_eq!(sorted(a4), moves(&[("0-2", own(A)), ("1-2", own(A))]));
    }
    // Basic: no cover is owed; B's plain play on A's marked train keeps the marker too.
    let rules = family_basic(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-2 1-2", "5-6 2-3 3-4 1-5 2-4"], "0-5 1-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    tb.pick(B, Decision::Normal, "3-4", own(A));
    assert!(tb.view().is_marked(A));
}

/// E12 family_house: the owner places a double on his own marked train → marker removed (any
/// placement by the owner); follow-up anywhere; fails → re-marked.
#[test]
fn e12_family_double_on_own_marked_train() {
    for rules in [family(2), family_basic(2), family_v2(2)] {
        let mut tb = e12_table(&rules, &deal_hand(&["6-6 2-6 3-3 3-4 0-0", E12_B], "0-1"));
        tb.pick(A, Decision::Normal, "3-3", own(A));
        let i = tb.pos(ev_play(A, "3-3", own(A), 3));
        tb.choice(B, Decision::Normal);
        assert_eq!(
            tb.since(i),
            &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_play(A, "3-4", own(A), 4)]
        );
        assert!(!tb.view().is_marked(A) && tb.view().pending().is_empty());

        let mut tb = e12_table(&rules, &deal_hand(&["6-6 2-6 3-3 0-0", E12_B], "0-1 0-2"));
        tb.run();
        let i = tb.pos(ev_play(A, "3-3", own(A), 3));
        tb.expect_from(
            i,
            &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_draw(A, "0-2"), Event::Mark { seat: A }],
        );
    }
}

/// E13 family_house: the owner's train is marked and he plays elsewhere (starts the Mexican
/// train) → basic/v1: the marker comes off; v2: it stays.
#[test]
fn e13_family_owner_playing_elsewhere() {
    for (rules, lifted) in [(family(2), true), (family_basic(2), true), (family_v2(2), false)] {
        let deal = deal_hand(&["6-6 2-6 0-0", "5-6 1-5 1-3 1-4"], "0-1 4-6");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "2-6", own(A)), (B, "5-6", own(B))]);
        tb.choice(B, Decision::Normal);
        let mut expect = vec![
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_play(B, "1-5", own(B), 1),
            ev_draw(A, "4-6"),
            ev_play(A, "4-6", MEX, 4),
        ];
        if lifted {
            expect.push(Event::Unmark { seat: A });
        }
        assert_eq!(&tb.log.0[3..], &expect[..]);
        assert_eq!(tb.view().is_marked(A), !lifted);
    }
}

/// E14 family_house (v1/v2): the obligated player covers with his last tile → out.
#[test]
fn e14_family_cover_with_last_tile_goes_out() {
    for rules in [family(2), family_v2(2)] {
        let deal = deal_hand(&["6-6 3-6 3-3 0-0", "5-6 2-3"], "0-1");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
        let out = tb.finish();
        assert_eq!(out.reason, EndReason::Out(B));
        assert_eq!(tb.scores(&out), vec![1, 0]);
        let n = tb.log.0.len();
        assert_eq!(
            &tb.log.0[n - 2..],
            &[ev_play(B, "2-3", own(A), 2), Event::RoundEnd { reason: EndReason::Out(B), scores: out.scores }]
        );
    }
}

/// E15 family_house (v1/v2): nobody can cover and the obligation returns to the doubler → he
/// is obligated like anyone else. (v1: B's cover anywhere also lifts B's own marker.)
#[test]
fn e15_family_obligation_returns_to_doubler() {
    for v2 in [false, true] {
        let rules = if v2 { family_v2(2) } else { family(2) };
        let deal = deal_hand(&["6-6 3-6 3-3 0-0", "5-6 1-1"], "0-1 1-2 0-5 3-4");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
        tb.run();
        let mut expect = vec![
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_draw(B, "1-2"),
            Event::Mark { seat: B },
            ev_draw(A, "0-5"),
            ev_draw(B, "3-4"),
            ev_play(B, "3-4", own(A), 4),
        ];
        if v2 {
            // B stays marked: A's next turn puts 0-5 on B's open train.
            expect.push(ev_play(A, "0-5", own(B), 0));
        } else {
            expect.push(Event::Unmark { seat: B });
        }
        tb.expect_from(3, &expect);
    }
}

/// E16 family_house: p's only legal tile would start the Mexican train → he must start it.
#[test]
fn e16_family_must_start_mexican() {
    let rules = family(2);
    let deal = deal_hand(&["6-6 3-6 4-6 0-0", "5-6 1-5 4-5"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let a1 = tb.pick(A, Decision::Normal, "3-6", own(A));
    assert_eq!(a1, moves(&[("3-6", own(A)), ("4-6", own(A)), ("3-6", MEX), ("4-6", MEX)]));
    tb.step(B, "5-6", own(B));
    let b2 = tb.choice(B, Decision::Normal);
    assert_eq!(tb.log.0[3], ev_play(A, "4-6", MEX, 4));
    assert_eq!(sorted(b2), moves(&[("1-5", own(B)), ("4-5", own(B)), ("4-5", MEX)]));
}

/// E17 family_house: on his first turn p holds a tile for another player's open train but
/// none for his own → he must play it there.
#[test]
fn e17_family_first_turn_must_use_open_train() {
    let rules = family(3);
    let deal = deal_hand(&["6-6 0-1 0-2", "3-6 4-6", "2-3 1-1"], "4-5");
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(B, Decision::Normal, "3-6", own(A));
    tb.run();
    tb.expect_from(
        1,
        &[ev_draw(A, "4-5"), Event::Mark { seat: A }, ev_play(B, "3-6", own(A), 3), ev_play(C, "2-3", own(A), 2)],
    );
    assert_eq!(tb.view().draws(C), 0);
}

/// E18 family_house (v1/v2): on his first turn p faces an obligation on another player's
/// train → he must cover it. (Basic: no obligation; he plays freely.)
#[test]
fn e18_family_first_turn_must_cover() {
    for rules in [family(4), family_v2(4), family_basic(4)] {
        let deal = deal_hand(&["6-6 0-1 0-2", "3-6 5-6", "3-3 1-1", "2-3 3-4 4-6"], "4-5 0-0");
        let mut tb = Table::new(&rules, &deal, A);
        tb.pick(B, Decision::Normal, "3-6", own(A)); // A:3
        // C1: 3-3 on A's marked train (forced); no follow-up; draws 0-0 (no place) → marks.
        if rules.obligation == ObligationRule::None {
            let d1 = tb.choice(D, Decision::Normal);
            assert!(d1.contains(&mv("4-6", own(D))));
            continue;
        }
        let d1 = tb.choice(D, Decision::Cover);
        assert_eq!(tb.view().turns_taken(D), 0);
        assert_eq!(tb.view().pending(), &[obligation(own(A), 3, C)]);
        assert_eq!(sorted(d1), moves(&[("2-3", own(A)), ("3-4", own(A))]));
    }
}

/// E19 family_house: a required draw meets an empty boneyard → mark (ED-15); v1/v2: the
/// double pends; basic: it does not.
#[test]
fn e19_family_required_draw_on_empty_boneyard_marks() {
    for rules in [family(3), family_v2(3), family_basic(3)] {
        let deal = deal_hand(
            &[
                "6-6 3-6 3-3 0-0 0-1 0-2 0-4 0-5 1-1 1-2",
                "5-6 0-6 1-6 2-6 1-4 1-5 2-2 2-4 2-5",
                "4-6 0-3 1-3 2-3 3-4 3-5 4-4 4-5 5-5",
            ],
            "",
        );
        assert!(deal.boneyard.is_empty());
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B)), (C, "4-6", own(C))]);
        let i = tb.pos(ev_play(C, "4-6", own(C), 4)) + 1;
        if rules.obligation == ObligationRule::None {
            // A2: 3-3, no follow-up → marks; no obligation: B2 chooses freely.
            let b2 = tb.choice(B, Decision::Normal);
            assert_eq!(tb.since(i), &[ev_play(A, "3-3", own(A), 3), Event::Mark { seat: A }]);
            assert!(tb.view().pending().is_empty());
            assert!(b2.contains(&mv("1-5", own(B))) && b2.contains(&mv("0-6", MEX)));
            continue;
        }
        let c2 = tb.choice(C, Decision::Cover);
        assert_eq!(tb.since(i), &[ev_play(A, "3-3", own(A), 3), Event::Mark { seat: A }, Event::Mark { seat: B }]);
        assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
        assert_eq!(
            sorted(c2),
            moves(&[("0-3", own(A)), ("1-3", own(A)), ("2-3", own(A)), ("3-4", own(A)), ("3-5", own(A))])
        );
    }
}

// E20 family_house: no tap penalty is defined; a penalty model is a non-default tap model,
// which `validate()` rejects: nothing to test.
//
// E21 (build phase), E22 (non-double engine) and E26 (build doubles) are n/a for
// family_house; E23 is n/a ("drawing rounds": E7 tests them).

/// E24 family_house: tied final totals → co-winners (ED-24).
#[test]
fn e24_family_co_winners() {
    let rules = family(3);
    assert_co_winners(&rules);
    co_winner_matches(&rules, 0..20);
}

/// E25 family_house: deliberately leaving a double uncovered while holding a cover → legal;
/// basic: no pend; v1/v2: it pends (FIFO).
#[test]
fn e25_family_may_leave_double_uncovered() {
    for rules in [family(2), family_v2(2), family_basic(2)] {
        let deal = deal_hand(&["6-6 3-6 3-3 3-4 5-6", "2-6 1-3 2-3"], "");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "2-6", own(B))]);
        tb.pick(A, Decision::Normal, "3-3", own(A));
        let f = tb.pick(A, Decision::FollowUp, "5-6", MEX);
        assert_eq!(f, moves(&[("3-4", own(A)), ("5-6", MEX)]));
        if rules.obligation == ObligationRule::None {
            assert!(tb.view().pending().is_empty());
            tb.run();
            assert!(tb.played(B, "2-3", own(B)), "basic: B plays freely");
            continue;
        }
        let b2 = tb.choice(B, Decision::Cover);
        assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
        assert_eq!(sorted(b2), moves(&[("1-3", own(A)), ("2-3", own(A))]));
    }
}

/// E27 family_house (v1/v2): during an obligation the drawn tile fits both the double and
/// another train → it goes on the double.
#[test]
fn e27_family_drawn_tile_covers_the_double() {
    for rules in [family(2), family_v2(2)] {
        let deal = deal_hand(&["6-6 3-6 3-3 0-5 1-5", "5-6 1-1"], "0-1 3-5");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
        let a3 = tb.choice(A, Decision::Normal);
        tb.expect_from(
            3,
            &[
                ev_play(A, "3-3", own(A), 3),
                ev_draw(A, "0-1"),
                Event::Mark { seat: A },
                ev_draw(B, "3-5"),
                ev_play(B, "3-5", own(A), 5),
            ],
        );
        assert!(tb.view().pending().is_empty());
        assert_eq!(tb.view().train(own(B)).len, 1);
        assert_eq!(sorted(a3), moves(&[("0-5", own(A)), ("1-5", own(A))]));
    }
}

/// E28 family_house: a marker removed and replaced in one turn → net marked.
#[test]
fn e28_family_marker_lifted_and_replaced() {
    for rules in [family(2), family_basic(2), family_v2(2)] {
        let mut tb = e12_table(&rules, &deal_hand(&["6-6 2-6 3-3 0-0", E12_B], "0-1 0-2"));
        // A3: 3-3 on his own marked train (forced) lifts the marker; no follow-up; draws 0-2
        // (no place) → marked again. B3 then has a choice (a cover, or any play under basic).
        assert!(matches!(tb.run(), Step::Choice(B, _)));
        let i = tb.pos(ev_play(A, "3-3", own(A), 3));
        assert_eq!(
            tb.since(i),
            &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_draw(A, "0-2"), Event::Mark { seat: A }]
        );
        assert!(tb.view().is_marked(A), "net: marked");
    }
}

/// E29 family_house: every open end's value is exhausted, boneyard not empty → play
/// continues: everyone draws and marks until the boneyard is empty, then blocked.
#[test]
fn e29_family_exhausted_ends_play_on_until_blocked() {
    let rules = family(2);
    let a = with_engine(ALL_SIXES_E29[0]);
    let deal = deal_hand(&[&a, ALL_SIXES_E29[1]], "");
    let pile: Vec<Tile> = deal.boneyard.as_slice().to_vec();
    assert_eq!(pile.len(), 14);
    let mut tb = Table::new(&rules, &deal, A);
    all_sixes_script(&mut tb);
    let out = tb.finish();
    let i = tb.pos(ev_play(A, "5-6", MEX, 6)) + 1;
    let mut expect = drain_then_pass(B, 2, &pile, vec![false, false]);
    expect.push(Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores });
    assert_eq!(tb.since(i), &expect[..]);
    assert_eq!(tb.scores(&out), vec![52, 38]);
}

/// E30 family_house: `[0|0]` left in hand scores 0; v5: 50.
#[test]
fn e30_family_double_blank_zero_or_v5_fifty() {
    let mut v5 = family(2);
    v5.apply_rule("v5=true").unwrap();
    v5.validate().unwrap();
    for (rules, b) in [(family(2), 3), (family_basic(2), 3), (v5, 53)] {
        assert_eq!(rules.tile_score(t("0-0")), b - 3);
        let deal = deal_hand(&["6-6 3-6 3-3", "5-6 0-0 1-2"], "");
        let mut tb = Table::new(&rules, &deal, A);
        tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
        let out = tb.finish();
        assert_eq!(out.reason, EndReason::Out(A));
        assert_eq!(tb.scores(&out), vec![0, b]);
    }
}

// =============================================================================================
// harbour_cay (RULES.md §5.5)
// =============================================================================================

/// The harbour_cay structural checks over random rounds (E2, E6, E17, E25): at most one
/// obligation; a follow-up offers only non-doubles on the train of the double just placed; a
/// seat's first turn offers only its own train; a Mexican start is offered only after a
/// placement on one's own train; no turn places two doubles.
fn harbour_audit() -> Audit {
    let mut total = Audit::default();
    for (players, h, seed) in [(2u8, 8u8, 41u64), (3, 7, 42), (4, 6, 43)] {
        let a = audit(
            &audit_rules("harbour_cay", players, h),
            400,
            seed,
            |st, seat, kind, list| {
                assert!(st.view(A).pending().len() <= 1, "two obligations: {:?}", st.view(A).pending());
                if kind == Decision::FollowUp {
                    let train = list[0].train().unwrap();
                    assert!(st.view(A).train(train).open_double);
                    for m in list {
                        assert!(
                            !m.tile().unwrap().is_double() && m.train().unwrap() == train,
                            "follow-up offers {list:?}"
                        );
                    }
                }
                if st.view(seat).turns_taken(seat) == 0 {
                    assert!(list.iter().all(|m| m.train().unwrap() == own(seat)), "first turn offers {list:?}");
                }
                if list.iter().any(|m| m.train().unwrap().is_mexican() && st.view(A).train(m.train().unwrap()).len == 0)
                {
                    assert!(st.played_own(seat), "Mexican start before playing on one's own train");
                }
            },
            |turn| {
                let doubles = turn.iter().filter(|e| matches!(e, Event::Play { tile, .. } if tile.is_double())).count();
                assert!(doubles <= 1, "two doubles in one turn: {turn:?}");
            },
        );
        total.rounds += a.rounds;
        total.follow_up_choices += a.follow_up_choices;
        total.first_turn_choices += a.first_turn_choices;
        total.doubles_placed += a.doubles_placed;
        total.pending_seen += a.pending_seen;
        total.cover_choices += a.cover_choices;
        total.max_pending_seen = total.max_pending_seen.max(a.max_pending_seen);
    }
    assert!(total.follow_up_choices > 20 && total.first_turn_choices > 200 && total.doubles_placed > 300, "{total:?}");
    assert!(total.pending_seen > 50 && total.cover_choices > 20, "{total:?}");
    total
}

/// E1 harbour_cay: p places a double as his last tile → out ("a player can go out with a
/// double"). (The tap remark, "no tap needed if he went 2→0", concerns the tap penalty model,
/// which the engine does not implement yet: E20.)
#[test]
fn e01_harbour_double_as_last_tile_goes_out() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 3-6 3-3", "5-6 0-1 2-4"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let out = tb.finish();
    assert_eq!(
        tb.log.0,
        vec![
            ev_engine(A, "6-6"),
            ev_play(A, "3-6", own(A), 3),
            ev_play(B, "5-6", own(B), 5),
            ev_play(A, "3-3", own(A), 3),
            Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores },
        ]
    );
    assert_eq!(tb.scores(&out), vec![0, 7]);
}

/// E2 harbour_cay: "p's second double empties his hand" is impossible: the follow-up must
/// cover the same double with a non-double. Hand-built (4-4, 5-5 never offered as follow-up)
/// and over random rounds.
#[test]
fn e02_harbour_follow_up_never_a_double() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 3-6 3-3 2-3 3-4 4-4 5-5", "5-6 0-0"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B))]);
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let f = tb.choice(A, Decision::FollowUp);
    assert_eq!(sorted(f), moves(&[("2-3", own(A)), ("3-4", own(A))]));
    let bad = mv("4-4", own(A));
    assert_eq!(tb.st.play(bad, &mut NoObserver), Err(PlayError::Illegal(bad)));
    harbour_audit();
}

/// E3 harbour_cay: p places `[v|v]` and afterwards unplayed(v) = 0 → the round ends at once
/// (STUCK (a)), even with a non-empty boneyard; everyone scores his hand (p without the double).
#[test]
fn e03_harbour_last_of_suit_double_ends_round() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 5-6 0-5 0-1 1-5 0-6 5-5 3-3", "2-6 2-5 3-5 3-4 4-5 1-1"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[
        (A, "5-6", own(A)), // A:5
        (B, "2-6", own(B)), // B:2
        (A, "0-5", own(A)), // A:0
        (B, "2-5", own(B)), // B:5
        (A, "0-1", own(A)), // A:1
        (B, "3-5", own(B)), // B:3
        (A, "1-5", own(A)), // A:5
        (B, "3-4", own(B)), // B:4
        (A, "0-6", MEX),    // M:0 (A has played on his own train)
        (B, "4-5", own(B)), // B:5
    ]);
    tb.step(A, "5-5", own(A)); // forced
    let out = *tb.st.outcome().expect("the round ended at the placement");
    assert_eq!(out.reason, EndReason::Stuck);
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 2..],
        &[ev_play(A, "5-5", own(A), 5), Event::RoundEnd { reason: EndReason::Stuck, scores: out.scores }]
    );
    assert_eq!(tb.scores(&out), vec![6, 2]);
    assert_eq!(out.boneyard_left, 14);
    assert_eq!(tb.view().unplayed(pip(5)), 0);
    assert_eq!(tb.run(), Step::Over);
}

/// E4 harbour_cay: the boneyard runs out and nobody can play: each seat marks once, then
/// idles; blocked after N idle turns with an empty boneyard. The boneyard running out does not
/// end the round, and STUCK never holds here: every train ends in 5 (all 5s are played) but A
/// and C still hold 6s, which could start the Mexican train, were it not that neither has
/// played on his own train (N-3). The engine is the non-double `[6|5]` (6-6 is the only
/// boneyard tile). Found by random play, replayed here move by move.
#[test]
fn e04_harbour_blocked_not_stuck() {
    let rules = harbour(3);
    let deal = deal_hand(
        &[
            "0-1 0-3 0-6 1-1 1-5 2-4 2-5 3-5 3-6",
            "0-2 0-4 1-4 2-2 2-3 3-4 4-4 5-5 5-6",
            "0-0 0-5 1-2 1-3 1-6 2-6 3-3 4-5 4-6",
        ],
        "",
    );
    assert_eq!(deal.boneyard.as_slice(), &[t("6-6")]);
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[
        (C, "2-6", own(B)),
        (A, "2-5", own(B)),
        (C, "4-5", own(B)),
        (A, "3-6", own(C)),
        (B, "4-4", own(B)),
        (B, "1-4", own(B)),
        (C, "1-6", own(A)),
        (A, "3-5", own(C)),
        (C, "1-2", own(A)),
        (A, "1-5", own(B)),
        (B, "2-2", own(A)),
        (B, "0-2", own(A)),
        (C, "0-0", own(A)),
    ]);
    let out = tb.finish();
    assert_eq!(
        tb.log.0,
        vec![
            ev_engine(B, "5-6"),
            // B1: no 6 → draws 6-6, the last boneyard tile → plays it as his train's first tile;
            // it needs a cover; none, no draw left → marks. The round goes on.
            ev_draw(B, "6-6"),
            ev_play(B, "6-6", own(B), 6),
            Event::Mark { seat: B },
            // C1, A1: first turns facing an obligation on B's train (ED-17): no draw left → mark.
            Event::Mark { seat: C },
            Event::Mark { seat: A },
            // B2: obligated by his own double, no cover, no draw: idle.
            Event::Pass { seat: B },
            ev_play(C, "2-6", own(B), 2),
            ev_play(A, "2-5", own(B), 5),
            ev_play(B, "5-5", own(B), 5),
            Event::Unmark { seat: B },
            Event::Mark { seat: B },
            ev_play(C, "4-5", own(B), 4),
            ev_play(A, "3-6", own(C), 3),
            ev_play(B, "4-4", own(B), 4),
            Event::Unmark { seat: B },
            ev_play(B, "1-4", own(B), 1),
            ev_play(C, "1-6", own(A), 1),
            ev_play(A, "3-5", own(C), 5),
            Event::Mark { seat: B },
            ev_play(C, "1-2", own(A), 2),
            ev_play(A, "1-5", own(B), 5),
            ev_play(B, "2-2", own(A), 2),
            ev_play(B, "0-2", own(A), 0),
            ev_play(C, "0-0", own(A), 0),
            ev_play(C, "0-5", own(A), 5),
            Event::Pass { seat: A },
            Event::Pass { seat: B },
            Event::Pass { seat: C },
            Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores },
        ]
    );
    assert_eq!(out.reason, EndReason::Blocked);
    assert_eq!(tb.scores(&out), vec![18, 16, 20]);
    assert_eq!(tb.scores(&out), tb.hand_scores());
    for s in [A, B, C] {
        assert_eq!(tb.view().train(own(s)).end, pip(5));
        assert!(tb.view().is_marked(s));
    }
    assert_eq!(tb.view().unplayed(pip(5)), 0);
    assert!(tb.view().unplayed(pip(6)) > 0 && tb.view().mexican_started() == 0);
    assert!(!tb.st.played_own(A) && !tb.st.played_own(C));
    assert!(tb.st.hand(A).contains(t("0-6")) && tb.st.hand(C).contains(t("4-6")));
}

/// E4 harbour_cay (the earlier end): the E4 position of the other presets, with every 6 on the
/// table and an empty boneyard, is provably stuck at the placement that exhausts the 6s: the
/// round ends there, with no marks and no idle go-round.
#[test]
fn e04_harbour_stuck_ends_before_blocked() {
    let rules = harbour(2);
    let a = with_engine(ALL_SIXES_E4[0]);
    let deal = deal_hand(&[&a, ALL_SIXES_E4[1]], "");
    let mut tb = Table::new(&rules, &deal, A);
    all_sixes_script(&mut tb);
    let out = *tb.st.outcome().expect("over at the last 6");
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 2..],
        &[ev_play(A, "5-6", MEX, 6), Event::RoundEnd { reason: EndReason::Stuck, scores: out.scores }]
    );
    assert_eq!(tb.scores(&out), vec![67, 23 + 50], "B's [0|0] scores 50");
}

/// E5 harbour_cay: p marks while his train is unstarted → the marker sits on his spot; only
/// seats with turns_taken ≥ 1 may start it; the marker stays until p plays on it.
#[test]
fn e05_harbour_marker_on_unstarted_train() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 3-4 0-0", "2-6 3-6 5-5"], "0-1 1-1");
    let mut tb = Table::new(&rules, &deal, A);
    // A1: no 6 → draws 0-1 → marks. B1 (first turn): his own train only.
    let b1 = tb.pick(B, Decision::Normal, "2-6", own(B));
    assert_eq!(b1, moves(&[("2-6", own(B)), ("3-6", own(B))]), "A's open spot is not offered in B's first turn");
    // A2: draws 1-1, no play. B2 may start A's train.
    let b2 = tb.pick(B, Decision::Normal, "3-6", own(A));
    assert_eq!(b2, moves(&[("3-6", own(A)), ("3-6", MEX)]));
    assert!(tb.view().is_marked(A), "another seat starting A's train leaves the marker");
    tb.run();
    let i = tb.pos(ev_play(B, "3-6", own(A), 3));
    tb.expect_from(i + 1, &[ev_play(A, "3-4", own(A), 4), Event::Unmark { seat: A }]);
}

/// E6 harbour_cay: two open doubles cannot arise: at most one obligation exists at any time
/// (one double per turn, and nobody plays elsewhere while it is open).
#[test]
fn e06_harbour_never_two_pending() {
    let a = harbour_audit();
    assert_eq!(a.max_pending_seen, 1);
}

/// E7 harbour_cay: the placer places E (one tile short), then takes the first turn: his own
/// train only (no Mexican train yet), or draw/mark.
#[test]
fn e07_harbour_engine_holder_opens_own_train_only() {
    let rules = harbour(3);
    let deal = deal_hand(&["0-1 1-2", "6-6 2-6 3-6", "4-6 0-0"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let b1 = tb.pick(B, Decision::Normal, "2-6", own(B));
    assert_eq!(b1, moves(&[("2-6", own(B)), ("3-6", own(B))]));
    assert_eq!(tb.log.0[0], ev_engine(B, "6-6"));
    assert_eq!((tb.st.placer(), tb.st.first()), (Some(B), B));
    assert_eq!(tb.st.hand(B).len(), 1);
    // A placer without a 6 draws, and marks when the drawn tile does not fit his train.
    let deal = deal_hand(&["6-6 0-1", "2-6 1-2", "4-6 0-0"], "1-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.run();
    tb.expect_from(0, &[ev_engine(A, "6-6"), ev_draw(A, "1-1"), Event::Mark { seat: A }, ev_play(B, "2-6", own(B), 2)]);
}

/// E8 harbour_cay: an obligation is pending and p could play on his own train → not allowed.
#[test]
fn e08_harbour_obligation_excludes_own_train() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-2 1-2", "5-6 2-3 3-4 1-5 2-4"], "0-5 1-1");
    let mut tb = Table::new(&rules, &deal, A);
    let b2 = tb.choice(B, Decision::Cover);
    assert_eq!(
        &tb.log.0[1..],
        &[
            ev_play(A, "3-6", own(A), 3),
            ev_play(B, "5-6", own(B), 5),
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-5"),
            Event::Mark { seat: A }
        ]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(sorted(b2), moves(&[("2-3", own(A)), ("3-4", own(A))]));
    let bad = mv("1-5", own(B));
    assert_eq!(tb.st.play(bad, &mut NoObserver), Err(PlayError::Illegal(bad)));
}

/// E9 harbour_cay: p placed a drawn double and holds no cover → a second draw to cover is
/// allowed (ED-9); otherwise mark and pend.
#[test]
fn e09_harbour_drawn_double_second_draw() {
    let rules = harbour(2);
    for (front, covers) in [("3-3 3-4", true), ("3-3 0-1", false)] {
        let deal = deal_hand(&["6-6 3-6 0-0 1-1", "5-6 2-3 3-5 1-5"], front);
        let mut tb = Table::new(&rules, &deal, A);
        let b2 = tb.choice(B, if covers { Decision::Normal } else { Decision::Cover });
        let second = tiles(front)[1];
        let mut expect = vec![ev_draw(A, "3-3"), ev_play(A, "3-3", own(A), 3), Event::Draw { seat: A, tile: second }];
        if covers {
            expect.push(ev_play(A, "3-4", own(A), 4));
            assert!(tb.view().pending().is_empty() && !tb.view().is_marked(A));
            assert_eq!(sorted(b2), moves(&[("1-5", own(B)), ("3-5", own(B))]));
        } else {
            expect.push(Event::Mark { seat: A });
            assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
            assert_eq!(sorted(b2), moves(&[("2-3", own(A)), ("3-5", own(A))]));
        }
        assert_eq!(&tb.log.0[3..], &expect[..]);
        assert_eq!(tb.view().draws(A), 2);
    }
}

/// E10 harbour_cay: p places a double on another player's public train and cannot cover →
/// draws; otherwise marks his own train; the double pends; the owner's marker stays.
#[test]
fn e10_harbour_double_on_foreign_train() {
    let rules = harbour(3);
    let deal = deal_hand(&["6-6 3-6 3-4 5-5 0-0", "2-6 1-5 4-5 0-2", "5-6 2-2"], "1-2 0-1");
    let mut tb = Table::new(&rules, &deal, A);
    // A1 3-6, B1 2-6, C1 5-6; A2 3-4 (A:4); B2 0-2 (B:0); C2: draws 1-2 → marks.
    // A3: only 5-5 on C's open train → no cover → draws 0-1 → marks.
    let b3 = tb.choice(B, Decision::Cover);
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 5..],
        &[
            ev_draw(C, "1-2"),
            Event::Mark { seat: C },
            ev_play(A, "5-5", own(C), 5),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A }
        ]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(C), 5, A)]);
    assert!(tb.view().is_marked(A) && tb.view().is_marked(C));
    assert_eq!(sorted(b3), moves(&[("1-5", own(C)), ("4-5", own(C))]));
}

/// E11 harbour_cay: p (not the owner) places a tile on q's marked train, including covering a
/// double there → q's marker stays.
#[test]
fn e11_harbour_non_owner_play_keeps_marker() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-2 1-2", "5-6 2-3 3-4 1-5 2-4"], "0-5 1-1");
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(B, Decision::Cover, "3-4", own(A));
    let b3 = tb.pick(B, Decision::Normal, "2-4", own(A));
    assert_eq!(b3, moves(&[("1-5", own(B)), ("2-4", own(A))]));
    let a4 = tb.choice(A, Decision::Normal);
    assert!(tb.view().is_marked(A));
    assert!(!tb.log.0.iter().any(|e| matches!(e, Event::Unmark { .. })));
    assert_eq!(sorted(a4), moves(&[("0-2", own(A)), ("1-2", own(A))]));
}

/// E12 harbour_cay: the owner places a double on his own marked train → marker removed; he
/// must cover; if he cannot → re-marked and the double pends.
#[test]
fn e12_harbour_double_on_own_marked_train() {
    let rules = harbour(2);
    let mut tb = e12_table(&rules, &deal_hand(&["6-6 2-6 3-3 3-4 0-0", E12_B], "0-1"));
    let a3 = tb.pick(A, Decision::Normal, "3-3", own(A));
    assert_eq!(a3, moves(&[("3-3", own(A)), ("3-4", own(A))]));
    let i = tb.pos(ev_play(A, "3-3", own(A), 3));
    tb.choice(B, Decision::Normal);
    assert_eq!(tb.since(i), &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_play(A, "3-4", own(A), 4)]);

    let mut tb = e12_table(&rules, &deal_hand(&["6-6 2-6 3-3 0-0", E12_B], "0-1 0-2"));
    let b3 = tb.choice(B, Decision::Cover);
    let i = tb.pos(ev_play(A, "3-3", own(A), 3));
    assert_eq!(
        tb.since(i),
        &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_draw(A, "0-2"), Event::Mark { seat: A }]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(sorted(b3), moves(&[("1-3", own(A)), ("3-5", own(A))]));
}

/// E13 harbour_cay: the owner's train is marked and he plays elsewhere (starts the Mexican
/// train) → the marker stays.
#[test]
fn e13_harbour_owner_playing_elsewhere_keeps_marker() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 2-6 0-0", "5-6 1-5 1-3 1-4"], "0-1 4-6");
    let mut tb = Table::new(&rules, &deal, A);
    let b3 = tb.choice(B, Decision::Normal);
    assert_eq!(
        &tb.log.0[3..],
        &[
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_play(B, "1-5", own(B), 1),
            ev_draw(A, "4-6"),
            ev_play(A, "4-6", MEX, 4)
        ]
    );
    assert!(tb.view().is_marked(A));
    assert_eq!(sorted(b3), moves(&[("1-3", own(B)), ("1-4", own(B)), ("1-4", MEX)]));
}

/// E14 harbour_cay: the obligated player covers with his last tile → out.
#[test]
fn e14_harbour_cover_with_last_tile_goes_out() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-0", "5-6 2-3"], "0-1");
    let mut tb = Table::new(&rules, &deal, A);
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(B));
    assert_eq!(tb.scores(&out), vec![50 + 1, 0], "[0|0] scores 50");
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 2..],
        &[ev_play(B, "2-3", own(A), 2), Event::RoundEnd { reason: EndReason::Out(B), scores: out.scores }]
    );
}

/// E15 harbour_cay: nobody can cover and the obligation returns to the doubler → he is
/// obligated like anyone else.
#[test]
fn e15_harbour_obligation_returns_to_doubler() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-0", "5-6 1-1"], "0-1 1-2 0-5 3-4");
    let mut tb = Table::new(&rules, &deal, A);
    tb.run();
    tb.expect_from(
        3,
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_draw(B, "1-2"),
            Event::Mark { seat: B },
            ev_draw(A, "0-5"),
            ev_draw(B, "3-4"),
            ev_play(B, "3-4", own(A), 4),
            ev_play(A, "0-5", own(B), 0),
        ],
    );
}

/// E16 harbour_cay: p's only legal tile would start the Mexican train → allowed only after a
/// placement on his own train: before, he must draw (and mark if the drawn tile does not
/// play); afterwards he must start it.
#[test]
fn e16_harbour_mexican_start_needs_own_train_play() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 0-0 1-1", "2-6 3-6 2-5 0-5 4-4"], "0-1 1-2 4-6 3-5");
    let mut tb = Table::new(&rules, &deal, A);
    // A1: no 6 → draws 0-1 → marks. B1: 2-6 on his own train (B:2).
    tb.pick(B, Decision::Normal, "2-6", own(B));
    // A2: draws 1-2 (B's train is private) → keeps it. B2 starts A's train: 3-6 (A:3).
    let b2 = tb.pick(B, Decision::Normal, "3-6", own(A));
    assert_eq!(b2, moves(&[("2-5", own(B)), ("3-6", own(A)), ("3-6", MEX)]));
    // A3: nothing fits A:3; A never played on his own train, so 4-6 may not start the
    // Mexican train: drawn and kept. B3: 2-5 (B:5). A4: draws 3-5 → own train (A:5), unmarked.
    // B4: 0-5 (B:0). A5: now 4-6 must start the Mexican train.
    tb.run();
    let i = tb.pos(ev_play(B, "3-6", own(A), 3)) + 1;
    tb.expect_from(
        i,
        &[
            ev_draw(A, "4-6"),
            ev_play(B, "2-5", own(B), 5),
            ev_draw(A, "3-5"),
            ev_play(A, "3-5", own(A), 5),
            Event::Unmark { seat: A },
            ev_play(B, "0-5", own(B), 0),
            ev_play(A, "4-6", MEX, 4),
        ],
    );
}

/// E17 harbour_cay: in his first turn p may not play on another player's open train; he draws
/// and marks unless the drawn tile fits his own train. (As in `wikipedia`, the exact
/// precondition cannot occur: in the first go-round every open train is unstarted and shows
/// e, like p's own. What is checkable: the open train is never offered in a first turn, here
/// and over random rounds.)
#[test]
fn e17_harbour_first_turn_may_not_use_open_trains() {
    let rules = harbour(3);
    let deal = deal_hand(&["6-6 0-1", "2-6 3-6", "0-0"], "1-2 4-6");
    let mut tb = Table::new(&rules, &deal, A);
    // A1: no 6 → draws 1-2 → marks: A's train is open (unstarted, shows 6).
    let b1 = tb.pick(B, Decision::Normal, "2-6", own(B));
    assert!(tb.view().is_marked(A));
    assert_eq!(b1, moves(&[("2-6", own(B)), ("3-6", own(B))]), "A's open train is not offered");
    tb.run();
    // C1: no 6 → draws 4-6, which fits A's open train too: it goes on C's own train.
    tb.expect_from(
        1,
        &[
            ev_draw(A, "1-2"),
            Event::Mark { seat: A },
            ev_play(B, "2-6", own(B), 2),
            ev_draw(C, "4-6"),
            ev_play(C, "4-6", own(C), 4),
        ],
    );
    harbour_audit();
}

/// E18 harbour_cay (ED-17): in his first turn p faces an obligation on another player's train
/// → he may not play there: he draws (and keeps the tile even if it fits) and marks. It needs
/// a non-double engine and `[e|e]` drawn later: A holds the highest 6 (5-6, the engine), draws
/// 6-6 and lays it as his train's first tile, cannot cover and marks. Option
/// `obligation_overrides_first_turn`: B covers instead.
#[test]
fn e18_harbour_first_turn_obligation_on_other_train() {
    let deal = deal_hand(&["5-6 0-0 1-1", "2-6 0-2"], "6-6 0-1 3-6");
    let mut tb = Table::new(&harbour(2), &deal, A);
    tb.run();
    tb.expect_from(
        0,
        &[
            ev_engine(A, "5-6"),
            ev_draw(A, "6-6"),
            ev_play(A, "6-6", own(A), 6),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            // B1: first turn; 3-6 (drawn) and 2-6 (held) fit the double, but he may not play
            // on A's train, nor on his own while the double is open.
            ev_draw(B, "3-6"),
            Event::Mark { seat: B },
        ],
    );
    assert_eq!(tb.view().engine().1, pip(6));
    assert!(tb.st.hand(B).contains(t("3-6")) && tb.st.hand(B).contains(t("2-6")));

    let rules = Rules { obligation_overrides_first_turn: true, ..harbour(2) };
    rules.validate().unwrap();
    let mut tb = Table::new(&rules, &deal, A);
    tb.run();
    tb.expect_from(5, &[ev_play(B, "2-6", own(A), 2)]);
}

/// E19 harbour_cay: a required draw (cover or obligation) meets an empty boneyard → mark
/// (ED-15); the double pends.
#[test]
fn e19_harbour_required_draw_on_empty_boneyard_marks_and_pends() {
    let rules = harbour(3);
    let deal = deal_hand(
        &[
            "6-6 3-6 3-3 0-0 0-1 0-2 0-4 0-5 1-1 1-2",
            "5-6 0-6 1-6 2-6 1-4 1-5 2-2 2-4 2-5",
            "4-6 0-3 1-3 2-3 3-4 3-5 4-4 4-5 5-5",
        ],
        "",
    );
    assert!(deal.boneyard.is_empty());
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "3-6", own(A)), (B, "5-6", own(B)), (C, "4-6", own(C))]);
    let c2 = tb.choice(C, Decision::Cover);
    let i = tb.pos(ev_play(C, "4-6", own(C), 4)) + 1;
    assert_eq!(tb.since(i), &[ev_play(A, "3-3", own(A), 3), Event::Mark { seat: A }, Event::Mark { seat: B }]);
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(
        sorted(c2),
        moves(&[("0-3", own(A)), ("1-3", own(A)), ("2-3", own(A)), ("3-4", own(A)), ("3-5", own(A))])
    );
}

// E20 harbour_cay: the tap penalty ("miss his next turn" with an empty boneyard, otherwise
// draw 1) is the non-default tap model `TapModel::DrawOneElseSkip`, which `validate()` rejects
// ("not supported by the engine yet"): nothing to test yet.
//
// E21 (build phase) and E26 (build doubles) are n/a for harbour_cay.

/// E22 harbour_cay: non-double engine: nobody holds `[e|e]` → E = the highest `[e|w]`; trains
/// start with e (not w); `[e|e]`, drawn later, is an ordinary double: a cover on the same
/// train is required, even as the first tile of a train.
#[test]
fn e22_harbour_non_double_engine() {
    let rules = harbour(2);
    for covers in [true, false] {
        let front = if covers { "6-6 1-6" } else { "6-6 0-1" };
        let deal = deal_hand(&["0-0 1-1 4-5", "5-6 2-6 3-6 1-5"], front);
        let mut tb = Table::new(&rules, &deal, A);
        let b1 = tb.pick(B, Decision::Normal, "2-6", own(B));
        assert_eq!(b1, moves(&[("2-6", own(B)), ("3-6", own(B))]), "1-5 matches w = 5, not e");
        assert_eq!((tb.view().engine(), tb.st.placer()), ((t("5-6"), pip(6)), Some(B)));
        tb.run();
        // A1: no 6 → draws 6-6 → lays it as his train's first tile → must cover it there.
        let mut expect =
            vec![ev_engine(B, "5-6"), ev_play(B, "2-6", own(B), 2), ev_draw(A, "6-6"), ev_play(A, "6-6", own(A), 6)];
        if covers {
            expect.extend([ev_draw(A, "1-6"), ev_play(A, "1-6", own(A), 1)]);
        } else {
            expect.extend([ev_draw(A, "0-1"), Event::Mark { seat: A }]);
        }
        tb.expect_from(0, &expect);
        if !covers {
            // B2 is obligated by the double on A's train: 3-6 is his only cover.
            assert_eq!(tb.log.0[expect.len()], ev_play(B, "3-6", own(A), 3));
        }
    }
}

/// Records every round's deals (redeals included) for E23.
#[derive(Default)]
struct Deals(Vec<(u8, Vec<TileSet>, Vec<Tile>)>);

impl Observer for Deals {
    fn event(&mut self, _ev: &Event) {}
}

impl MatchObserver for Deals {
    fn round_start(&mut self, round: u8, state: &RoundState) {
        let hands = (0..state.view(A).players() as usize).map(|s| *state.hand(Seat::from_index(s))).collect();
        self.0.push((round, hands, state.boneyard().as_slice().to_vec()));
    }
}

/// E23 harbour_cay: no hand holds a tile containing e → all tiles are reshuffled and redealt
/// (the RNG stream continues), until some hand shows e.
#[test]
fn e23_harbour_redeal_when_no_hand_shows_e() {
    let rules = Rules { hand_size: Some(3), ..harbour(2) };
    rules.validate().unwrap();
    let mut redeals = 0;
    for seed in 0..10 {
        let mut bots: Vec<Bot> = (0..2).map(|_| Bot::parse("random").unwrap()).collect();
        let mut obs = Deals::default();
        let res = play_match(&rules, seed, &mut bots, &mut obs);
        assert_eq!(res.rounds, 7);
        for r in 1..=7u8 {
            let e = pip(7 - r);
            let deals: Vec<&(u8, Vec<TileSet>, Vec<Tile>)> = obs.0.iter().filter(|d| d.0 == r).collect();
            let shows = |d: &(u8, Vec<TileSet>, Vec<Tile>)| d.1.iter().any(|h| h.has_suit(e));
            let (last, discarded) = deals.split_last().unwrap();
            assert!(shows(last), "round {r}: played a deal with no {e} in any hand");
            for d in discarded {
                assert!(!shows(d), "round {r}: redealt a deal that showed {e}");
                assert_ne!((&d.1, &d.2), (&last.1, &last.2), "a redeal reshuffles");
                let tiles: usize = d.1.iter().map(TileSet::len).sum::<usize>() + d.2.len();
                assert_eq!(tiles, 28, "all tiles are gathered and redealt");
            }
            redeals += discarded.len();
        }
    }
    assert!(redeals >= 3, "only {redeals} redeals seen");
}

/// E24 harbour_cay: tied final totals → co-winners (ED-24).
#[test]
fn e24_harbour_co_winners() {
    let rules = harbour(3);
    assert_co_winners(&rules);
    co_winner_matches(&rules, 0..20);
}

/// E25 harbour_cay: deliberately leaving a double uncovered while holding a cover is illegal
/// (footnote **): the follow-up offers only covers; anything else is refused.
#[test]
fn e25_harbour_cannot_leave_double_uncovered() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 3-6 1-6 3-3 2-3 3-4", "5-6 0-0"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let a1 = tb.pick(A, Decision::Normal, "3-6", own(A));
    assert_eq!(a1, moves(&[("1-6", own(A)), ("3-6", own(A))]));
    let a2 = tb.pick(A, Decision::Normal, "3-3", own(A));
    assert!(a2.contains(&mv("1-6", MEX)), "1-6 could start the Mexican train in a normal turn");
    let follow = tb.choice(A, Decision::FollowUp);
    assert_eq!(sorted(follow), moves(&[("2-3", own(A)), ("3-4", own(A))]));
    for bad in [mv("1-6", MEX), mv("2-3", own(B)), mv("1-6", own(A))] {
        assert_eq!(tb.st.play(bad, &mut NoObserver), Err(PlayError::Illegal(bad)));
    }
    tb.play("3-4", own(A));
    assert!(tb.view().pending().is_empty() && !tb.view().is_marked(A));
}

/// E27 harbour_cay: during an obligation the drawn tile fits both the double and another
/// train → it goes on the double.
#[test]
fn e27_harbour_drawn_tile_covers_the_double() {
    let rules = harbour(2);
    let deal = deal_hand(&["6-6 3-6 3-3 0-5 1-5", "5-6 1-1"], "0-1 3-5");
    let mut tb = Table::new(&rules, &deal, A);
    let a3 = tb.choice(A, Decision::Normal);
    tb.expect_from(
        3,
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_draw(B, "3-5"),
            ev_play(B, "3-5", own(A), 5),
        ],
    );
    assert!(tb.view().pending().is_empty());
    assert_eq!(tb.view().train(own(B)).len, 1);
    assert_eq!(sorted(a3), moves(&[("0-5", own(A)), ("1-5", own(A))]));
}

/// E28 harbour_cay: a marker removed and replaced in one turn → net marked.
#[test]
fn e28_harbour_marker_lifted_and_replaced() {
    let rules = harbour(2);
    let mut tb = e12_table(&rules, &deal_hand(&["6-6 2-6 3-3 0-0", E12_B], "0-1 0-2"));
    tb.choice(B, Decision::Cover);
    let i = tb.pos(ev_play(A, "3-3", own(A), 3));
    assert_eq!(
        tb.since(i),
        &[ev_play(A, "3-3", own(A), 3), Event::Unmark { seat: A }, ev_draw(A, "0-2"), Event::Mark { seat: A }]
    );
    assert!(tb.view().is_marked(A), "net: marked");
}

/// E29 harbour_cay: every open end's value is exhausted while the boneyard is not empty → the
/// round ends at once (STUCK (b)).
#[test]
fn e29_harbour_exhausted_ends_stuck_at_once() {
    let rules = harbour(2);
    let a = with_engine(ALL_SIXES_E29[0]);
    let deal = deal_hand(&[&a, ALL_SIXES_E29[1]], "");
    assert_eq!(deal.boneyard.len(), 14);
    let mut tb = Table::new(&rules, &deal, A);
    all_sixes_script(&mut tb);
    let out = *tb.st.outcome().expect("stuck at the last 6");
    let n = tb.log.0.len();
    assert_eq!(
        &tb.log.0[n - 2..],
        &[ev_play(A, "5-6", MEX, 6), Event::RoundEnd { reason: EndReason::Stuck, scores: out.scores }]
    );
    assert_eq!(out.boneyard_left, 14);
    assert_eq!(tb.scores(&out), vec![4 + 7, 2 + 5]);
    for id in [own(A), own(B), MEX] {
        assert_eq!(tb.view().train(id).end, pip(6));
    }
}

/// E30 harbour_cay: `[0|0]` left in hand scores 50.
#[test]
fn e30_harbour_double_blank_scores_fifty() {
    let rules = harbour(2);
    assert_eq!(rules.tile_score(t("0-0")), 50);
    assert_eq!(rules.tile_score(t("0-6")), 6);
    let deal = deal_hand(&["6-6 3-6 3-3", "5-6 0-0 1-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(A));
    assert_eq!(tb.scores(&out), vec![0, 53]);
}
