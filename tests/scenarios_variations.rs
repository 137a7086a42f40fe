//! Scenario tests for the named variations of RULES.md §4 and the single-parameter
//! alternatives of §8.1, layered on the `wikipedia` preset unless a test says otherwise.
//!
//! Every scenario runs on a double-6 set (engine number e = 6) with explicit hands, an explicit
//! front of the boneyard (drawn first), then every other tile of the set in canonical order, so
//! every tile appears exactly once (checked by `assert_conserved`). `wikipedia` and
//! `dominorules` set `[6|6]` aside ([`deal6`]); `celko1998` and `harbour_cay` deal the whole set
//! ([`deal_hand`]) and find the engine in a hand.
//!
//! Play is driven through `advance`/`play`: forced actions (single legal moves, draws, markers,
//! passes, round ends) run inside `advance`; every real choice is scripted. `Table::pick`
//! asserts whose choice it is and of which kind and returns the offered moves (sorted);
//! `Table::step` plays a move that may be a choice or forced. Comments give the table after each
//! step, e.g. `A:3` = seat A's train ends in 3, `M:4` = the Mexican train ends in 4.
//!
//! Test names start with the variation: `partnerships_*`, `fast_game_*`, `delayed_first_turn_*`,
//! `bullet_train_*`, `cover_optional_*`, `any_train_can_cover_*`, `multiple_doubles_*`,
//! `double_public_*`, `continuous_draw_*`, `exception_*` (§4.11), `blank_scoring_*`, `tap_*`
//! and `alt_*` (the single-parameter alternatives of §8.1).

mod common;
use common::*;
use mexican_train::*;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn set(s: &str) -> TileSet {
    tiles(s).into_iter().collect()
}

/// `moves` plus [`Move::STOP`] or [`Move::BULLET`].
fn moves_and(list: &[(&str, TrainId)], extra: Move) -> Vec<Move> {
    let mut v = moves(list);
    v.push(extra);
    sorted(v)
}

fn ev_penalty(seat: Seat, a: Option<&str>, b: Option<&str>) -> Event {
    Event::Penalty { seat, tiles: [a.map(t), b.map(t), None, None], reason: PenaltyReason::LastTile }
}

/// The `wikipedia` rules on a double-6 set with `players` seats and the `key=value` overrides
/// `opts`, validated. The d6 deal table gives 2 → 9, 3 → 8, 4 → 6 tiles; the hand size only
/// matters for `validate`, since the deals below are explicit.
fn wiki(players: u8, opts: &[&str]) -> Rules {
    let mut r = Rules { set: pip(6), players, ..Rules::wikipedia() };
    for o in opts {
        r.apply_rule(o).unwrap_or_else(|e| panic!("{o}: {e}"));
    }
    r.validate().unwrap_or_else(|e| panic!("{opts:?}: {e}"));
    r
}

/// Another preset on double-6 with 5 tiles each (a test deal table).
fn preset6(name: &str, players: u8, opts: &[&str]) -> Rules {
    let mut r = Rules {
        set: pip(6),
        players,
        hand_size: Some(5),
        deal_table: test_table(6, players, 5),
        ..Rules::preset(name).unwrap()
    };
    for o in opts {
        r.apply_rule(o).unwrap_or_else(|e| panic!("{o}: {e}"));
    }
    r.validate().unwrap_or_else(|e| panic!("{name} {opts:?}: {e}"));
    r
}

/// The tiles of double-6 (without `[6|6]`) not named in `used`, as a hand string.
fn rest_of_set(used: &[&str]) -> String {
    let mut seen = TileSet::EMPTY.with(t("6-6"));
    for u in used {
        for x in tiles(u) {
            assert!(seen.insert(x), "{x} named twice");
        }
    }
    Tile::canonical(pip(6)).filter(|x| !seen.contains(*x)).map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}

// ---------------------------------------------------------------------------------------------
// 1. Partnerships (§4.1, ED-31a): seats s and s + 2 of four are partners
// ---------------------------------------------------------------------------------------------

/// A partner's train is one's own: it is offered while unmarked, in the first turn too. One
/// failed turn alone places no marker; the partner's failure then marks both trains; a play by
/// either partner on either team train (owner_on_own_train) lifts both markers.
#[test]
fn partnerships_team_train_marking_and_unmarking() {
    let rules = wiki(4, &["partnerships=true"]);
    assert!(rules.partnerships);
    let deal = deal_aside(&["0-1 0-2 1-2", "5-6 1-5 3-6", "1-3 2-3", "4-6 4-5"], "0-3 0-4 0-5");
    let mut tb = Table::new(&rules, &deal, A);

    // A1: no 6 for A's or C's train → draws 0-3, which fits neither → fails, but C has not
    // failed: no marker. B1's first turn offers B's and its partner D's train, both unmarked.
    let b1 = tb.choice(B, Decision::Normal);
    assert_eq!(tb.log.0, vec![ev_draw(A, "0-3")]);
    assert!(!tb.view().is_marked(A));
    assert_eq!(b1, moves(&[("5-6", own(B)), ("5-6", own(D)), ("3-6", own(B)), ("3-6", own(D))]));
    tb.play("5-6", own(B)); // B:5

    // C1: no 6 → draws 0-4 → fails; partner A failed too → both team trains become public.
    let i = tb.mark();
    let d1 = tb.pick(D, Decision::Normal, "4-6", own(D)); // D:4
    assert_eq!(tb.since(i)[..3], [ev_draw(C, "0-4"), Event::Mark { seat: C }, Event::Mark { seat: A }]);
    // D's first turn: its own and partner B's train (B:5), not the public A and C trains
    // (4-6 would fit both, ED-27).
    assert_eq!(d1, moves(&[("4-6", own(D)), ("4-5", own(B))]));

    // A2: nothing fits A:6, C:6 or a Mexican start → draws 0-5 → fails again (already marked).
    // B2 may play on both public team trains, on its own and the Mexican start.
    let i = tb.mark();
    let b2 = tb.pick(B, Decision::Normal, "3-6", own(A)); // A:3, by B: the markers stay
    assert_eq!(tb.since(i), &[ev_draw(A, "0-5"), ev_play(B, "3-6", own(A), 3)]);
    assert_eq!(b2, moves(&[("1-5", own(B)), ("3-6", own(A)), ("3-6", own(C)), ("3-6", MEX)]));
    assert!(tb.view().is_marked(A) && tb.view().is_marked(C));

    // C2: C's own train (C:6) has no fit; partner A's train (A:3) is C's own too.
    let i = tb.mark();
    let c2 = tb.pick(C, Decision::Normal, "1-3", own(A)); // A:1
    assert_eq!(c2, moves(&[("1-3", own(A)), ("2-3", own(A))]));
    // C's play on the team train lifts both markers.
    assert_eq!(tb.since(i), &[ev_play(C, "1-3", own(A), 1), Event::Unmark { seat: A }, Event::Unmark { seat: C }]);
    assert!(!tb.view().is_marked(A) && !tb.view().is_marked(C));
    // D3: the team trains are private again: D is offered only its own and B's train.
    let d3 = tb.choice(D, Decision::Normal);
    assert_eq!(d3, moves(&[("4-5", own(D)), ("4-5", own(B))]));
}

/// Team scoring: when a seat goes out both partners score 0, even though the partner still holds
/// tiles; each seat of the other team is credited the sum of both its hands.
#[test]
fn partnerships_team_scoring() {
    let rules = wiki(4, &["partnerships=true"]);
    let deal = deal_aside(&["1-6", "2-3 4-5", "3-4 5-5", "0-1 2-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    // A's only tile may go on its own or its partner's train; on C's it empties A's hand.
    let a1 = tb.pick(A, Decision::Normal, "1-6", own(C));
    assert_eq!(a1, moves(&[("1-6", own(A)), ("1-6", own(C))]));
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(A));
    // B + D = (2+3+4+5) + (0+1+2+2) = 19 each; C's 17 pips count for nothing.
    assert_eq!(tb.scores(&out), vec![0, 19, 0, 19]);
    assert_eq!(tb.st.hand(C).pips(), 17);
    assert_eq!(
        tb.log.0,
        vec![ev_play(A, "1-6", own(C), 1), Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores }]
    );
}

// ---------------------------------------------------------------------------------------------
// 2. Fast game (§4.2, ED-30)
// ---------------------------------------------------------------------------------------------

/// Every seat, in turn order from the first player, lays a maximum-length build: only tiles that
/// keep a maximum-length build are offered, and `Move::STOP` only when nothing fits any more
/// (then it is forced). A seat with no tile for its train passes. A trailing double creates no
/// obligation, nobody draws or marks, and the first normal turn is not restricted to the own
/// train (the build was the opening).
#[test]
fn fast_game_maximum_builds_then_unrestricted_turns() {
    let rules = wiki(3, &["fast_game=true"]);
    let deal = deal_aside(&["1-6 2-6 1-2 3-6 4-6 5-6", "0-6 0-0 2-3", "1-3 2-4 3-4"], "");
    let bone = deal.boneyard.as_slice().to_vec();
    let mut tb = Table::new(&rules, &deal, A);
    // A: 6-1-2-6-x lays four tiles; starting with 3-6, 4-6 or 5-6 lays only one.
    let a1 = tb.pick(A, Decision::Build, "1-6", own(A)); // A:1
    assert_eq!(a1, moves(&[("1-6", own(A)), ("2-6", own(A))]));
    // 1-2 and 2-6 are forced; back at 6 any of the three ends the build at maximum length.
    let a2 = tb.pick(A, Decision::Build, "3-6", own(A)); // A:3
    assert_eq!(a2, moves(&[("3-6", own(A)), ("4-6", own(A)), ("5-6", own(A))]));
    assert!(!a1.contains(&Move::STOP) && !a2.contains(&Move::STOP));
    // A's STOP (nothing fits 3) is forced; B lays 0-6 0-0 (forced) and ends on an open double;
    // C has no 6 and passes. Then A's first normal turn may start the Mexican train.
    let normal = tb.pick(A, Decision::Normal, "4-6", MEX); // M:4
    assert_eq!(normal, moves(&[("4-6", MEX), ("5-6", MEX)]));
    assert_eq!(
        tb.log.0[..8],
        [
            ev_play(A, "1-6", own(A), 1),
            ev_play(A, "1-2", own(A), 2),
            ev_play(A, "2-6", own(A), 6),
            ev_play(A, "3-6", own(A), 3),
            ev_play(B, "0-6", own(B), 0),
            ev_play(B, "0-0", own(B), 0),
            Event::Pass { seat: C },
            ev_play(A, "4-6", MEX, 4),
        ]
    );
    assert!(tb.view().pending().is_empty(), "a trailing double in a fast-game build obliges nobody");
    assert_eq!(*tb.view().train(own(B)), Train { end: pip(0), len: 2, open_double: true });
    assert_eq!(*tb.view().train(own(C)), Train { end: pip(6), len: 0, open_double: false });
    assert_eq!(tb.st.marker_mask(), 0);
    assert_eq!(tb.st.boneyard().as_slice(), &bone[..], "no draws in the builds");
    assert_eq!((tb.view().turns_taken(A), tb.view().turns_taken(B), tb.view().turns_taken(C)), (2, 1, 1));
    // B's turn is a normal one (no obligation): its 2-3 fits nothing, so B draws.
    let i = tb.mark();
    tb.run();
    assert_eq!(tb.since(i)[0], Event::Draw { seat: B, tile: bone[0] });
}

/// A build that empties a hand ends the round only after every seat has built; the round's
/// `EndReason::Out` names the first seat in build order (from the first player) with an empty
/// hand, and every seat that went out scores 0.
#[test]
fn fast_game_going_out_waits_for_all_builds() {
    let rules = wiki(3, &["fast_game=true"]);
    let deal = deal_aside(&["2-6 2-2", "3-6 3-4 0-1", "4-6"], "");
    // First player B: builds run B, C, A. C empties its hand first, A after it.
    let mut tb = Table::new(&rules, &deal, B);
    let out = tb.finish();
    assert_eq!(out.reason, EndReason::Out(C));
    assert_eq!(tb.scores(&out), vec![0, 1, 0]);
    assert_eq!(
        tb.log.0,
        vec![
            ev_play(B, "3-6", own(B), 3),
            ev_play(B, "3-4", own(B), 4),
            ev_play(C, "4-6", own(C), 4),
            ev_play(A, "2-6", own(A), 2),
            ev_play(A, "2-2", own(A), 2),
            Event::RoundEnd { reason: EndReason::Out(C), scores: out.scores },
        ]
    );
    assert_eq!(out.turns, 3, "each build is a turn taken");
}

// ---------------------------------------------------------------------------------------------
// 3. Delayed first turn (§4.3, ED-30)
// ---------------------------------------------------------------------------------------------

/// An unstarted seat holding a tile with e must lay a maximum-length build (a Build choice with
/// no STOP); otherwise it draws one tile, and if that tile starts its train it may build or
/// pass (STOP offered before any tile). Neither a pass nor a failed draw places a marker. An
/// unstarted seat is offered nothing but its own train, even with a Mexican train and a public
/// train on the table; once started, normal turns follow.
#[test]
fn delayed_first_turn_builds_draws_and_passes() {
    let rules = wiki(2, &["opening=delayed_first_turn"]);
    assert_eq!(rules, wiki(2, &["delayed_first_turn=true"]));
    let deal = deal_aside(&["1-6 1-2 1-3 4-6", "3-5 4-5 0-3 0-4"], "0-1 5-6 1-5");
    let mut tb = Table::new(&rules, &deal, A);
    // A1 holds 6s: 1-6 (forced: 4-6 would lay one tile only), then 1-2 or 1-3.
    let a1 = tb.pick(A, Decision::Build, "1-2", own(A)); // A:2
    assert_eq!(a1, moves(&[("1-2", own(A)), ("1-3", own(A))]));
    // A's STOP is forced. B1 has no 6: draws 0-1, which does not start its train → turn over.
    // A2 (started, normal, not restricted): 4-6 starts the Mexican train (forced).
    // B2: no 6 → draws 5-6, which starts its train: build or pass.
    let b2 = tb.choice(B, Decision::Build);
    assert_eq!(b2, moves_and(&[("5-6", own(B))], Move::STOP));
    assert_eq!(
        tb.log.0,
        vec![
            ev_play(A, "1-6", own(A), 1),
            ev_play(A, "1-2", own(A), 2),
            ev_draw(B, "0-1"),
            ev_play(A, "4-6", MEX, 4),
            ev_draw(B, "5-6"),
        ]
    );
    assert!(!tb.view().is_marked(B), "a failed draw in a delayed first turn places no marker");
    // B's 0-4 and 4-5 fit the Mexican train (M:4): not offered while B's train is unstarted.
    tb.play_move(Move::STOP);
    let i = tb.mark();
    // A3: 1-3 fits nothing (A:2, M:4) → draws 1-5 → marks. B3 now holds a 6: it must build.
    let b3 = tb.choice(B, Decision::Build);
    // B's build starts with its only 6 (forced).
    assert_eq!(tb.since(i), &[ev_draw(A, "1-5"), Event::Mark { seat: A }, ev_play(B, "5-6", own(B), 5)]);
    assert!(!tb.view().is_marked(B), "B's voluntary pass placed no marker");
    assert_eq!(tb.view().turns_taken(B), 2);
    // 3-5 and 4-5 both continue to five tiles. Only B's own train is offered, not 0-4 or 4-5
    // on the Mexican train (M:4), which a started seat could play.
    assert_eq!(b3, moves(&[("3-5", own(B)), ("4-5", own(B))]));
    assert_eq!(tb.view().train(own(B)).len, 1);
    let j = tb.mark();
    tb.play("3-5", own(B));
    // 0-3, 0-4, 4-5 forced; then STOP is forced (B keeps 0-1) and A's normal turn comes: A
    // cannot play and draws 0-0.
    tb.choice(A, Decision::Normal);
    assert_eq!(
        tb.since(j)[..5],
        [
            ev_play(B, "3-5", own(B), 3),
            ev_play(B, "0-3", own(B), 0),
            ev_play(B, "0-4", own(B), 4),
            ev_play(B, "4-5", own(B), 5),
            ev_draw(A, "0-0"),
        ]
    );
    assert_eq!(*tb.view().train(own(B)), Train { end: pip(5), len: 5, open_double: false });
}

// ---------------------------------------------------------------------------------------------
// 4. Bullet train (§4.5)
// ---------------------------------------------------------------------------------------------

/// `Move::BULLET` is offered in a Normal decision exactly when the whole hand lays as one train
/// from the own open end (not after a draw). Declaring lays the whole hand in Build steps; then
/// every other seat, clockwise, lays a maximum-length build on its own train, with no draws and
/// no obligations; the declarer is out and the others score their leftovers.
#[test]
fn bullet_train_declared_whole_hand_then_others_build() {
    let rules = wiki(3, &["bullet_train=true"]);
    let deal = deal_aside(&["3-4 3-5 4-5 3-3", "0-6 4-6 0-1 0-2 1-2", "2-6 2-5 0-5 0-0 1-4"], "3-6");
    let mut tb = Table::new(&rules, &deal, A);
    // A1: no 6 → draws 3-6 and must play it (A:3): forced, no bullet after a draw.
    // B1: its hand does not lay whole from 6 (0 and 4 have odd degree): no bullet offered.
    let b1 = tb.pick(B, Decision::Normal, "0-6", own(B)); // B:0
    assert_eq!(b1, moves(&[("0-6", own(B)), ("4-6", own(B))]));
    assert_eq!(tb.log.0[..2], [ev_draw(A, "3-6"), ev_play(A, "3-6", own(A), 3)]);
    // C1: 2-6 forced (C:2). A2: 3-3 3-4 3-5 4-5 lays whole from 3.
    let a2 = tb.choice(A, Decision::Normal);
    assert_eq!(a2, moves_and(&[("3-3", own(A)), ("3-4", own(A)), ("3-5", own(A))], Move::BULLET));
    let bone = tb.boneyard_len();
    tb.play_move(Move::BULLET);
    // Every first tile keeps the whole hand in one train.
    let lay = tb.pick(A, Decision::Build, "3-4", own(A));
    assert_eq!(lay, moves(&[("3-3", own(A)), ("3-4", own(A)), ("3-5", own(A))]));
    // 4-5, 3-5, 3-3 forced; A's hand is empty but the round waits for the others' builds.
    // B from 0: 0-1 1-2 0-2 or 0-2 1-2 0-1, three tiles either way; 4-6 stays.
    let i = tb.mark();
    let b = tb.pick(B, Decision::Build, "0-2", own(B));
    assert_eq!(b, moves(&[("0-1", own(B)), ("0-2", own(B))]));
    // C from 2: 2-5 0-5 0-0 (forced), ending on an open double; 1-4 stays.
    let out = tb.finish();
    assert_eq!(
        tb.since(i),
        &[
            ev_play(A, "4-5", own(A), 5),
            ev_play(A, "3-5", own(A), 3),
            ev_play(A, "3-3", own(A), 3),
            ev_play(B, "0-2", own(B), 2),
            ev_play(B, "1-2", own(B), 1),
            ev_play(B, "0-1", own(B), 0),
            ev_play(C, "2-5", own(C), 5),
            ev_play(C, "0-5", own(C), 0),
            ev_play(C, "0-0", own(C), 0),
            Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores },
        ]
    );
    assert_eq!(out.reason, EndReason::Out(A));
    assert_eq!(tb.scores(&out), vec![0, 10, 5]);
    assert_eq!(tb.boneyard_len(), bone, "no draws after the declaration");
    assert!(tb.view().pending().is_empty());
    assert_eq!(out.turns, 6, "three opening turns, then the bullet and two builds");
}

// ---------------------------------------------------------------------------------------------
// 5. Cover optional (§4.6, ED-31c)
// ---------------------------------------------------------------------------------------------

/// After a double the doubler may cover it or end the turn (`Move::STOP`); without a cover in
/// hand the turn simply ends (no draw). No marker and no obligation either way: the uncovered
/// double is an ordinary open end.
#[test]
fn cover_optional_doubler_may_stop() {
    let rules = wiki(2, &["cover_optional=true"]);
    let deal = deal_aside(&["3-6 3-3 2-3 3-4 0-1", "5-6 5-5 0-2 1-2"], "0-4");
    let mut tb = Table::new(&rules, &deal, A);
    // A1 3-6 (A:3) and B1 5-6 (B:5) are forced.
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let follow = tb.choice(A, Decision::FollowUp);
    assert_eq!(follow, moves_and(&[("2-3", own(A)), ("3-4", own(A))], Move::STOP));
    let i = tb.mark();
    tb.play_move(Move::STOP);
    // B2: 5-5 is B's only play (forced); it holds no 5 to cover, so its turn ends at once:
    // no draw, no marker. A3 faces an ordinary Normal choice on its open double.
    let a3 = tb.choice(A, Decision::Normal);
    assert_eq!(tb.since(i), &[ev_play(B, "5-5", own(B), 5)]);
    assert_eq!(a3, moves(&[("2-3", own(A)), ("3-4", own(A))]));
    assert!(tb.view().pending().is_empty());
    assert_eq!(tb.st.marker_mask(), 0);
    assert_eq!(tb.boneyard_len(), 28 - 1 - 9, "nobody drew");
    assert_eq!(*tb.view().train(own(A)), Train { end: pip(3), len: 2, open_double: true });
    assert_eq!(*tb.view().train(own(B)), Train { end: pip(5), len: 2, open_double: true });
}

// ---------------------------------------------------------------------------------------------
// 6. Any train can cover (§4.7)
// ---------------------------------------------------------------------------------------------

/// Shared position: A lays 3-3 on its own train; its follow-up may cover it (2-3) or go on any
/// eligible train, here starting the Mexican train with 0-6, which leaves 3-3 uncovered.
fn any_train_position(option: &str) -> Table {
    let rules = wiki(2, &[option]);
    let deal = deal_aside(&["3-6 0-6 3-3 2-3 1-1", "5-6 1-3 3-5 0-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(A, Decision::Normal, "3-6", own(A)); // A:3 ; B1 5-6 forced (B:5)
    let a2 = tb.pick(A, Decision::Normal, "3-3", own(A));
    assert_eq!(a2, moves(&[("3-3", own(A)), ("2-3", own(A)), ("0-6", MEX)]));
    // The follow-up: any eligible train, no double (1-1 fits nothing anyway).
    let follow = tb.pick(A, Decision::FollowUp, "0-6", MEX); // M:0
    assert_eq!(follow, moves(&[("2-3", own(A)), ("0-6", MEX)]));
    assert!(!tb.view().is_marked(A), "the doubler made its follow-up");
    tb
}

/// `any_train_can_cover=anyone`: nobody is obliged afterwards; B plays normally and may not
/// even use A's private train.
#[test]
fn any_train_can_cover_anyone_obliges_nobody() {
    let mut tb = any_train_position("any_train_can_cover=anyone");
    let b2 = tb.choice(B, Decision::Normal);
    assert!(tb.view().pending().is_empty());
    assert_eq!(b2, moves(&[("3-5", own(B)), ("0-2", MEX)]));
}

/// `any_train_can_cover=doubler_only`: the doubler's follow-up may go anywhere, but the
/// uncovered double obliges the next player, who may only cover it.
#[test]
fn any_train_can_cover_doubler_only_obliges_the_next_player() {
    let mut tb = any_train_position("any_train_can_cover=doubler_only");
    let b2 = tb.choice(B, Decision::Cover);
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(b2, moves(&[("1-3", own(A)), ("3-5", own(A))]));
    tb.play("1-3", own(A));
    assert!(tb.view().pending().is_empty());
}

// ---------------------------------------------------------------------------------------------
// 7. Multiple doubles (§4.9)
// ---------------------------------------------------------------------------------------------

/// After a double D1 the doubler may lay more doubles on other eligible ends before covering
/// D1; he must then cover D1. The other uncovered doubles oblige the following players in
/// placement order (FIFO).
#[test]
fn multiple_doubles_cover_first_others_oblige_fifo() {
    let rules = wiki(3, &["multiple_doubles=true"]);
    let deal = deal_aside(&["1-6 2-6 1-1 0-0 2-2 1-3 4-4", "5-6 3-5 0-3 0-4 2-4", "0-6 4-5"], "1-4 2-5");
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(A, Decision::Normal, "1-6", own(A)); // A:1 ; B1 5-6 (B:5), C1 0-6 (C:0) forced
    tb.pick(A, Decision::Normal, "2-6", MEX); // M:2
    tb.pick(B, Decision::Normal, "3-5", own(B)); // B:3
    // C2: 4-5 fits nothing → draws 1-4 → marks (C:0 public).
    let a3 = tb.pick(A, Decision::Normal, "1-1", own(A)); // D1 on A:1
    assert!(tb.view().is_marked(C));
    assert_eq!(a3, moves(&[("1-1", own(A)), ("1-3", own(A)), ("0-0", own(C)), ("2-2", MEX)]));
    // Follow-up: cover D1, or another double on another eligible end.
    let f1 = tb.pick(A, Decision::FollowUp, "0-0", own(C)); // D2 on C's public train
    assert_eq!(f1, moves(&[("1-3", own(A)), ("0-0", own(C)), ("2-2", MEX)]));
    let f2 = tb.pick(A, Decision::FollowUp, "2-2", MEX); // D3
    assert_eq!(f2, moves(&[("1-3", own(A)), ("2-2", MEX)]));
    // Only D1's cover remains (forced).
    let i = tb.mark();
    let b3 = tb.choice(B, Decision::Cover);
    assert_eq!(tb.since(i), &[ev_play(A, "1-3", own(A), 3)]);
    assert_eq!(tb.view().pending(), &[obligation(own(C), 0, A), obligation(MEX, 2, A)]);
    assert!(!tb.view().is_marked(A));
    // B serves the first: 0-x on C's train; its 2-4 (which fits the second) is not offered.
    assert_eq!(b3, moves(&[("0-3", own(C)), ("0-4", own(C))]));
    tb.play("0-4", own(C)); // C:4
    assert_eq!(tb.view().pending(), &[obligation(MEX, 2, A)]);
    // C3 serves the second: no 2 → draws 2-5, which covers (forced).
    let i = tb.mark();
    tb.run();
    assert_eq!(tb.since(i)[..2], [ev_draw(C, "2-5"), ev_play(C, "2-5", MEX, 5)]);
    assert!(tb.view().pending().is_empty());
}

/// A doubler who cannot cover D1 draws one tile; if it does not cover either, he marks and
/// every uncovered double of his turn pends, D1 first.
#[test]
fn multiple_doubles_uncovered_first_double_marks_and_pends_first() {
    let rules = wiki(2, &["multiple_doubles=true"]);
    let deal = deal_aside(&["1-6 2-6 1-1 2-2 0-5", "5-6 3-5 2-3 1-3 1-4"], "0-4 2-4");
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(A, Decision::Normal, "1-6", own(A)); // A:1 ; B1 5-6 forced (B:5)
    tb.pick(A, Decision::Normal, "2-6", MEX); // M:2
    tb.pick(B, Decision::Normal, "3-5", own(B)); // B:3
    let i = tb.mark();
    tb.pick(A, Decision::Normal, "1-1", own(A));
    // No 1 to cover: the further doubles are optional (§4.9 "may"), so A chooses between 2-2 on
    // the Mexican train and stopping to draw for 1-1's cover.
    assert_eq!(tb.choice(A, Decision::FollowUp), sorted(vec![mv("2-2", MEX), Move::STOP]));
    let mut stopped = Table { st: tb.st.clone(), log: Log::default(), moves: MoveList::new() };
    tb.play("2-2", MEX);
    // A then draws 0-4, which does not cover 1-1, and marks; both doubles oblige, FIFO.
    let b3 = tb.choice(B, Decision::Cover);
    assert_eq!(
        tb.since(i),
        &[ev_play(A, "1-1", own(A), 1), ev_play(A, "2-2", MEX, 2), ev_draw(A, "0-4"), Event::Mark { seat: A }]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(A), 1, A), obligation(MEX, 2, A)]);
    assert_eq!(b3, moves(&[("1-3", own(A)), ("1-4", own(A))]));
    // Stopping instead: A draws 0-4 at once, marks, and only 1-1 obliges.
    stopped.play_move(Move::STOP);
    stopped.choice(B, Decision::Cover);
    assert_eq!(stopped.log.0, &[ev_draw(A, "0-4"), Event::Mark { seat: A }]);
    assert_eq!(stopped.view().pending(), &[obligation(own(A), 1, A)]);
}

/// `obligation=uncovered_double` with several doubles in one turn: only the first double left
/// open at the end of the turn obliges. Two turns from the positions above: (a) the doubler
/// cannot cover D1 and leaves D1 and D2 open: D1 obliges, D2 is an ordinary open end; (b) the
/// doubler covers D1 and leaves D2 and D3 open: D2, the first left open, obliges (not D1, which
/// was placed first but covered, nor D3, the last double of the turn).
#[test]
fn multiple_doubles_uncovered_double_obliges_the_first_left_open() {
    let rules = wiki(2, &["multiple_doubles=true", "obligation=uncovered_double"]);
    // (a)
    let deal = deal_aside(&["1-6 2-6 1-1 2-2 0-5", "5-6 3-5 2-3 1-3 1-4 2-4"], "0-4");
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(A, Decision::Normal, "1-6", own(A)); // A:1 ; B1 5-6 forced (B:5)
    tb.pick(A, Decision::Normal, "2-6", MEX); // M:2
    tb.pick(B, Decision::Normal, "3-5", own(B)); // B:3
    let i = tb.mark();
    tb.pick(A, Decision::Normal, "1-1", own(A)); // D1
    tb.pick(A, Decision::FollowUp, "2-2", MEX); // D2
    // No 1: A draws 0-4, which covers neither, and marks. B holds 2-4, which would fit D2.
    let b3 = tb.choice(B, Decision::Cover);
    assert_eq!(
        tb.since(i),
        &[ev_play(A, "1-1", own(A), 1), ev_play(A, "2-2", MEX, 2), ev_draw(A, "0-4"), Event::Mark { seat: A }]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(A), 1, A)]);
    assert_eq!(b3, moves(&[("1-3", own(A)), ("1-4", own(A))]));
    tb.play("1-4", own(A)); // A:4 ; D2 stays open but obliges nobody
    assert!(tb.view().pending().is_empty());
    assert!(tb.view().train(MEX).open_double);

    // (b)
    let deal = deal_aside(&["1-6 2-6 1-1 0-0 2-2 1-3 4-4", "5-6 3-5 0-3 0-4 2-4", "0-6 4-5"], "1-4 2-5");
    let rules3 = wiki(3, &["multiple_doubles=true", "obligation=uncovered_double"]);
    let mut tb = Table::new(&rules3, &deal, A);
    tb.pick(A, Decision::Normal, "1-6", own(A)); // A:1 ; B1 5-6, C1 0-6 forced
    tb.pick(A, Decision::Normal, "2-6", MEX); // M:2
    tb.pick(B, Decision::Normal, "3-5", own(B)); // B:3 ; C2 draws 1-4 and marks (C:0 public)
    tb.pick(A, Decision::Normal, "1-1", own(A)); // D1
    tb.pick(A, Decision::FollowUp, "0-0", own(C)); // D2
    tb.pick(A, Decision::FollowUp, "2-2", MEX); // D3, then 1-3 covers D1 (forced)
    let b3 = tb.choice(B, Decision::Cover);
    assert!(tb.played(A, "1-3", own(A)));
    assert_eq!(tb.view().pending(), &[obligation(own(C), 0, A)]);
    // B serves D2; its 2-4, which fits D3, is not offered.
    assert_eq!(b3, moves(&[("0-3", own(C)), ("0-4", own(C))]));
}

// ---------------------------------------------------------------------------------------------
// 8. Double public (§4.10, ED-31e)
// ---------------------------------------------------------------------------------------------

/// A double on a personal train puts its owner's marker on; a later placement in the same turn
/// (the owner's own cover) does not lift it; in later turns the owner's play lifts it as usual.
/// A double on the Mexican train changes no marker.
#[test]
fn double_public_marks_the_doubles_train() {
    let rules = wiki(2, &["double_public=true"]);
    let deal = deal_aside(&["3-6 3-3 2-3 0-2 1-1", "5-6 4-6 4-4 1-4 2-5"], "");
    let mut tb = Table::new(&rules, &deal, A);
    // A1 3-6 forced (A:3).
    tb.pick(B, Decision::Normal, "5-6", own(B)); // B:5
    let i = tb.mark();
    tb.pick(A, Decision::Normal, "3-3", own(A));
    // 2-3 covers (forced) on A's own train, in the same turn: the marker stays.
    let b2 = tb.choice(B, Decision::Normal);
    assert_eq!(tb.since(i), &[ev_play(A, "3-3", own(A), 3), Event::Mark { seat: A }, ev_play(A, "2-3", own(A), 2)]);
    assert!(tb.view().is_marked(A));
    assert!(tb.view().pending().is_empty());
    // A's train is public: B may play on it.
    assert_eq!(b2, moves(&[("2-5", own(B)), ("2-5", own(A)), ("4-6", MEX)]));
    tb.play("4-6", MEX); // M:4
    // A3: 0-2 on its own train (forced) lifts the marker: a later turn, owner removal. B3's
    // 4-4 on the Mexican train marks nobody; its cover 1-4 is forced.
    let i = tb.mark();
    tb.pick(B, Decision::Normal, "4-4", MEX);
    tb.run();
    assert_eq!(
        tb.since(i)[..4],
        [ev_play(A, "0-2", own(A), 0), Event::Unmark { seat: A }, ev_play(B, "4-4", MEX, 4), ev_play(B, "1-4", MEX, 1)]
    );
}

// ---------------------------------------------------------------------------------------------
// 9. Continuous draw (§4.12, ED-31h)
// ---------------------------------------------------------------------------------------------

/// Once every seat, the doubler's own failed follow-up included, has failed to cover, the
/// doubler's next turn draws tile after tile until one covers, and plays it. Other seats still
/// draw only once. Without the option the doubler draws once and the double pends on.
#[test]
fn continuous_draw_doubler_draws_until_a_cover() {
    let deal = deal_aside(&["3-6 3-3 0-1 0-2", "5-6 1-5 4-4"], "1-2 1-4 0-4 2-4 2-3");
    for continuous in [true, false] {
        let rules = wiki(2, &[&format!("continuous_draw={continuous}")]);
        let mut tb = Table::new(&rules, &deal, A);
        // A1 3-6 (A:3), B1 5-6 (B:5), A2 3-3 (all forced); A cannot cover: draws 1-2, marks.
        // B2 cannot cover: draws 1-4, marks. A3 is the doubler's turn again.
        tb.run();
        let expect_start = [
            ev_play(A, "3-6", own(A), 3),
            ev_play(B, "5-6", own(B), 5),
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "1-2"),
            Event::Mark { seat: A },
            ev_draw(B, "1-4"),
            Event::Mark { seat: B },
        ];
        assert_eq!(tb.log.0[..7], expect_start);
        if continuous {
            assert_eq!(
                tb.log.0[7..12],
                [
                    ev_draw(A, "0-4"),
                    ev_draw(A, "2-4"),
                    ev_draw(A, "2-3"),
                    ev_play(A, "2-3", own(A), 2),
                    Event::Unmark { seat: A },
                ]
            );
        } else {
            // A3 draws once (0-4) and the turn fails; B3 is obligated again and draws 2-4; only
            // A4 draws the cover 2-3.
            assert_eq!(
                tb.log.0[7..12],
                [
                    ev_draw(A, "0-4"),
                    ev_draw(B, "2-4"),
                    ev_draw(A, "2-3"),
                    ev_play(A, "2-3", own(A), 2),
                    Event::Unmark { seat: A },
                ]
            );
        }
        assert!(tb.view().pending().is_empty());
    }
}

/// Shared by the last-of-suit and continuous-draw scenarios: all six non-double 3s go on the
/// table (A 3-6, 3-5, 0-3; B 3-4, 2-3, 1-3) while A's train ends in 3; A's next play, 3-3 on its
/// own train, is then forced, and unplayed(3) = 0 once it lies. The boneyard holds five tiles,
/// none with a 3 (none is left). Returns before A's forced 3-3.
fn last_three_position(opts: &[&str]) -> Table {
    let rules = wiki(2, opts);
    let deal = deal_aside(
        &["3-6 5-6 3-5 0-3 0-2 3-3 0-0 0-4 0-5 0-6 1-1", "4-6 3-4 2-3 1-2 1-3 1-6 2-2 2-4 2-6 4-4 5-5"],
        "0-1 1-4 2-5 4-5 1-5",
    );
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[
        (A, "3-6", own(A)), // A:3
        (B, "4-6", own(B)), // B:4
        (A, "5-6", MEX),    // M:5
        (B, "3-4", own(B)), // B:3
        (A, "3-5", MEX),    // M:3
        (B, "2-3", own(B)), // B:2
        (A, "0-3", MEX),    // M:0
        (B, "1-2", own(B)), // B:1
        (A, "0-2", MEX),    // M:2
        (B, "1-3", own(B)), // B:3
    ]);
    assert_eq!(tb.view().unplayed(pip(3)), 1, "only 3-3 is left");
    tb
}

/// Continuous draw with a boneyard that runs out: the doubler draws it empty, marks (he already
/// is) and the obligation passes on; the round then ends blocked with the double pending.
#[test]
fn continuous_draw_empty_boneyard_marks_and_passes_on() {
    // last_of_suit_exempt=false keeps the double pending although no 3 is left (§4.11).
    let mut tb = last_three_position(&["continuous_draw=true", "last_of_suit_exempt=false"]);
    let i = tb.mark();
    let out = tb.finish();
    assert_eq!(
        tb.since(i),
        &[
            ev_play(A, "3-3", own(A), 3),
            // A's follow-up: one draw, then the marker.
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            // B fails once: one draw.
            ev_draw(B, "1-4"),
            Event::Mark { seat: B },
            // Everyone failed once: A draws tile after tile until the boneyard is empty.
            ev_draw(A, "2-5"),
            ev_draw(A, "4-5"),
            ev_draw(A, "1-5"),
            // The obligation passes on: B cannot draw or cover; A neither.
            Event::Pass { seat: B },
            Event::Pass { seat: A },
            Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores },
        ]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert!(tb.view().is_marked(A) && tb.view().is_marked(B));
    assert_eq!(tb.scores(&out), vec![tb.st.hand(A).pips() as u32, tb.st.hand(B).pips() as u32]);
}

// ---------------------------------------------------------------------------------------------
// 10. Exceptions (§4.11)
// ---------------------------------------------------------------------------------------------

/// `last_of_suit_exempt` (on in `wikipedia`): the last double of its suit needs no cover; the
/// turn ends at once with no draw, no marker, nothing pending.
#[test]
fn exception_last_of_suit_exempt_on_by_default() {
    let mut tb = last_three_position(&[]);
    let i = tb.mark();
    let b6 = tb.choice(B, Decision::Normal);
    assert_eq!(tb.since(i), &[ev_play(A, "3-3", own(A), 3)], "no follow-up draw, no marker");
    assert_eq!(tb.view().unplayed(pip(3)), 0);
    assert!(tb.view().pending().is_empty());
    assert_eq!(b6, moves(&[("2-2", MEX), ("2-4", MEX), ("2-6", MEX)]));
}

/// `last_of_suit_exempt=false`: the last double of a suit pends forever. The doubler draws and
/// marks, every later turn is obligated to a double nobody can cover, and the round ends blocked
/// once the boneyard is empty.
#[test]
fn exception_last_of_suit_exempt_off_double_pends_forever() {
    let mut tb = last_three_position(&["last_of_suit_exempt=false"]);
    let i = tb.mark();
    let out = tb.finish();
    assert_eq!(
        tb.since(i),
        &[
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-1"),
            Event::Mark { seat: A },
            ev_draw(B, "1-4"),
            Event::Mark { seat: B },
            ev_draw(A, "2-5"),
            ev_draw(B, "4-5"),
            ev_draw(A, "1-5"),
            Event::Pass { seat: B },
            Event::Pass { seat: A },
            Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores },
        ]
    );
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    // A: 0-0 0-4 0-5 0-6 1-1 + 0-1 2-5 1-5; B: 1-6 2-2 2-4 2-6 4-4 5-5 + 1-4 4-5.
    assert_eq!(tb.scores(&out), vec![31, 57]);
}

/// `reprivatise_exempt`: a double laid on one's own public train, lifting the marker, needs no
/// cover: the turn ends, nothing pends, the double is an ordinary end. Without the option the
/// cover is owed (and made).
#[test]
fn exception_reprivatise_exempt() {
    let deal = deal_aside(&["3-6 4-4 0-4", "5-6 3-4 2-5 0-5"], "1-2");
    for exempt in [true, false] {
        let rules = wiki(2, &[&format!("reprivatise_exempt={exempt}")]);
        let mut tb = Table::new(&rules, &deal, A);
        // A1 3-6 (A:3), B1 5-6 (B:5) forced; A2: nothing fits → draws 1-2 → marks.
        let b2 = tb.pick(B, Decision::Normal, "3-4", own(A)); // A:4, by B
        assert!(tb.view().is_marked(A));
        assert_eq!(b2, moves(&[("2-5", own(B)), ("0-5", own(B)), ("3-4", own(A))]));
        let i = tb.mark();
        let a3 = tb.pick(A, Decision::Normal, "4-4", own(A));
        assert_eq!(a3, moves(&[("4-4", own(A)), ("0-4", own(A))]));
        let b3 = tb.choice(B, Decision::Normal);
        if exempt {
            assert_eq!(tb.since(i), &[ev_play(A, "4-4", own(A), 4), Event::Unmark { seat: A }]);
            assert_eq!(*tb.view().train(own(A)), Train { end: pip(4), len: 3, open_double: true });
            assert_eq!(*tb.st.hand(A), set("0-4 1-2"), "the cover A holds was not required");
        } else {
            assert_eq!(
                tb.since(i),
                &[ev_play(A, "4-4", own(A), 4), Event::Unmark { seat: A }, ev_play(A, "0-4", own(A), 0)]
            );
        }
        assert!(tb.view().pending().is_empty());
        assert!(!tb.view().is_marked(A));
        assert_eq!(b3, moves(&[("2-5", own(B)), ("0-5", own(B))]));
    }
}

/// `go_out_on_double=must_cover` (ED-31g): emptying the hand with a double that needs cover does
/// not end the round: the doubler draws, and covering with the drawn tile ends the round with him
/// out.
#[test]
fn exception_must_cover_drawn_cover_goes_out() {
    let rules = wiki(2, &["go_out_on_double=must_cover"]);
    let deal = deal_aside(&["3-6 3-3", "5-6 0-1 1-2"], "2-3");
    let mut tb = Table::new(&rules, &deal, A);
    // A1 3-6, B1 5-6, A2 3-3 (A's last tile) are forced; A draws 2-3 and covers with it.
    let out = tb.finish();
    assert_eq!(
        tb.log.0[2..],
        [
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "2-3"),
            ev_play(A, "2-3", own(A), 2),
            Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores },
        ]
    );
    assert_eq!(tb.scores(&out), vec![0, 4]);

    // With the default (Allowed) the double itself ends the round.
    let mut tb = Table::new(&wiki(2, &[]), &deal, A);
    let out = tb.finish();
    assert_eq!(
        tb.log.0[2..],
        [ev_play(A, "3-3", own(A), 3), Event::RoundEnd { reason: out.reason, scores: out.scores }]
    );
    assert_eq!(out.reason, EndReason::Out(A));
}

/// MustCover: a drawn tile that does not cover is kept; the doubler marks and the double pends.
#[test]
fn exception_must_cover_drawn_miss_marks_and_pends() {
    let rules = wiki(2, &["go_out_on_double=must_cover"]);
    let deal = deal_aside(&["3-6 3-3", "5-6 1-3 3-4"], "0-2");
    let mut tb = Table::new(&rules, &deal, A);
    let b2 = tb.choice(B, Decision::Cover);
    assert_eq!(tb.log.0[2..], [ev_play(A, "3-3", own(A), 3), ev_draw(A, "0-2"), Event::Mark { seat: A }]);
    assert_eq!(*tb.st.hand(A), set("0-2"));
    assert_eq!(tb.view().pending(), &[obligation(own(A), 3, A)]);
    assert_eq!(b2, moves(&[("1-3", own(A)), ("3-4", own(A))]));
}

/// MustCover with an empty boneyard: nothing to draw, the hand stays empty and the round ends
/// with the doubler out.
#[test]
fn exception_must_cover_empty_boneyard_goes_out() {
    let rules = wiki(2, &["go_out_on_double=must_cover"]);
    let rest = rest_of_set(&["3-6 3-3"]);
    let deal = deal_aside(&["3-6 3-3", &rest], "");
    assert!(deal.boneyard.is_empty());
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(B, Decision::Normal, "5-6", own(B)); // A1 3-6 forced; B:5
    let out = tb.finish();
    assert_eq!(
        tb.log.0[2..],
        [ev_play(A, "3-3", own(A), 3), Event::RoundEnd { reason: EndReason::Out(A), scores: out.scores }]
    );
    assert_eq!(tb.scores(&out), vec![0, tb.st.hand(B).pips() as u32]);
}

// ---------------------------------------------------------------------------------------------
// 11. Blank scoring (§4.13, ED-32)
// ---------------------------------------------------------------------------------------------

/// A goes out at once; B keeps `[0|0] [0|3] [2|4]`. Default: pips (0 + 3 + 6). Per blank half
/// 25: 50 + 28 + 6. Flat 25 per tile with a blank: 25 + 25 + 6. `double_blank_value=50`:
/// 50 + 3 + 6.
#[test]
fn blank_scoring_variants() {
    let deal = deal_aside(&["3-6", "0-0 0-3 2-4"], "");
    let cases: [(&[&str], u32); 4] = [
        (&[], 9),
        (&["blank_half_value=25"], 84),
        (&["blank_half_value=25", "blank_scoring=flat_per_tile"], 56),
        (&["double_blank_value=50"], 59),
    ];
    for (opts, b) in cases {
        let rules = wiki(2, opts);
        let mut tb = Table::new(&rules, &deal, A);
        let out = tb.finish();
        assert_eq!(out.reason, EndReason::Out(A));
        assert_eq!(tb.scores(&out), vec![0, b], "{opts:?}");
    }
    let per_half = wiki(2, &["blank_half_value=25"]);
    assert_eq!([t("0-0"), t("0-5"), t("1-5")].map(|x| per_half.tile_score(x)), [50, 30, 6]);
    let flat = wiki(2, &["blank_half_value=25", "blank_scoring=flat_per_tile"]);
    assert_eq!([t("0-0"), t("0-5"), t("1-5")].map(|x| flat.tile_score(x)), [25, 25, 6]);
    let fifty = wiki(2, &["double_blank_value=50"]);
    assert_eq!([t("0-0"), t("0-5"), t("1-5")].map(|x| fifty.tile_score(x)), [50, 5, 6]);
}

// ---------------------------------------------------------------------------------------------
// 12. Tap penalty models (N-8, E20)
// ---------------------------------------------------------------------------------------------

/// `tap=draw_two` ([000]/[001]): a seat that plays down to one tile (never announced) is caught
/// at the start of the next player's turn and draws min(2, boneyard) tiles.
#[test]
fn tap_draw_two_caught_at_next_turn() {
    let rules = wiki(2, &["tap=draw_two"]);
    let deal = deal_aside(&["3-6 0-1", "5-6 1-5 2-4"], "0-2 0-3 0-4");
    let mut tb = Table::new(&rules, &deal, A);
    // A1 3-6 (forced) leaves A one tile; B's turn opens with A's penalty; B1 5-6 (forced).
    tb.run();
    assert_eq!(
        tb.log.0[..3],
        [ev_play(A, "3-6", own(A), 3), ev_penalty(A, Some("0-2"), Some("0-3")), ev_play(B, "5-6", own(B), 5)]
    );

    // A boneyard of one tile: the penalty draws what there is.
    let rest = rest_of_set(&["3-6 0-1 0-2"]);
    let deal = deal_aside(&["3-6 0-1", &rest], "0-2");
    assert_eq!(deal.boneyard.as_slice(), &[t("0-2")]);
    let mut tb = Table::new(&rules, &deal, A);
    tb.choice(B, Decision::Normal);
    assert_eq!(tb.log.0, vec![ev_play(A, "3-6", own(A), 3), ev_penalty(A, Some("0-2"), None)]);
    assert_eq!(*tb.st.hand(A), set("0-1 0-2"));
    assert!(tb.st.boneyard().is_empty());
}

/// No penalty when a turn goes from two tiles to none (double plus cover): the round is over.
#[test]
fn tap_no_penalty_from_two_tiles_to_none() {
    for tap in ["draw_two", "draw_one_else_skip"] {
        let rules = wiki(2, &[&format!("tap={tap}")]);
        let deal = deal_aside(&["3-6 3-3 2-3", "5-6 1-5 2-4"], "0-2 0-3");
        let mut tb = Table::new(&rules, &deal, A);
        // A1 3-6 (A keeps two tiles), B1 5-6; A2 3-3 then 2-3 (forced): out.
        tb.pick(A, Decision::Normal, "3-3", own(A));
        let out = tb.finish();
        assert_eq!(out.reason, EndReason::Out(A));
        assert!(!tb.log.0.iter().any(|e| matches!(e, Event::Penalty { .. } | Event::Skip { .. })), "{tap}");
        assert_eq!(tb.scores(&out), vec![0, 12]);
    }
}

/// `tap=draw_one_else_skip` ([004]): the offender draws one tile right after the next player's
/// turn.
#[test]
fn tap_draw_one_after_the_next_players_turn() {
    let rules = wiki(2, &["tap=draw_one_else_skip"]);
    let deal = deal_aside(&["3-6 0-1", "5-6 1-5 2-4"], "0-2 0-3");
    let mut tb = Table::new(&rules, &deal, A);
    // A1 3-6 leaves one tile; B1 5-6; then A draws 0-2; A2: 0-1 0-2 fit nothing → draws 0-3,
    // which fits A:3 (forced).
    tb.run();
    assert_eq!(
        tb.log.0[..5],
        [
            ev_play(A, "3-6", own(A), 3),
            ev_play(B, "5-6", own(B), 5),
            ev_penalty(A, Some("0-2"), None),
            ev_draw(A, "0-3"),
            ev_play(A, "0-3", own(A), 0),
        ]
    );
}

/// `tap=draw_one_else_skip` with an empty boneyard: the offender misses its next turn
/// (`Event::Skip`). The skipped turn counts as taken, and a skipped seat must still have an idle
/// turn of its own before the round can end blocked.
///
/// The whole set is dealt. After B's 5-6 every train ends in 6 and all 6s are on the table, so
/// nobody can play again; A's train is already marked, B's not.
#[test]
fn tap_skip_with_empty_boneyard_and_blocked_test() {
    let rules = wiki(2, &["tap=draw_one_else_skip"]);
    let b = "2-6 2-3 3-6 4-6 5-6 3-4";
    let a = format!("0-6 0-1 1-6 4-5 {}", rest_of_set(&[b, "0-6 0-1 1-6 4-5"]));
    let deal = deal_aside(&[&a, b], "");
    assert!(deal.boneyard.is_empty());
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[
        (A, "0-6", own(A)), // A:0
        (B, "2-6", own(B)), // B:2
        (A, "0-1", own(A)), // A:1
        (B, "2-3", own(B)), // B:3
        (A, "1-6", own(A)), // A:6
        (B, "3-6", own(B)), // B:6
    ]);
    // A4: no 6 left in A's hand, no Mexican train: A marks (nothing to draw).
    let i = tb.mark();
    tb.steps(&[(B, "4-6", MEX), (A, "4-5", MEX)]); // M:4, M:5
    assert_eq!(tb.since(i)[0], Event::Mark { seat: A });
    let turns_b = tb.view().turns_taken(B);
    let i = tb.mark();
    tb.step(B, "5-6", MEX); // M:6, B down to one tile (3-4), not announced
    let out = tb.finish();
    assert_eq!(
        tb.since(i),
        &[
            ev_play(B, "5-6", MEX, 6),
            Event::Pass { seat: A }, // idle 1; then B's penalty falls due: no tile to draw
            Event::Skip { seat: B }, // B misses this turn: idle unchanged
            Event::Pass { seat: A }, // idle 2 = N, but B has had no idle turn of its own
            Event::Mark { seat: B }, // B's own failed turn changes the table: idle 0
            Event::Pass { seat: A }, // idle 1
            Event::Pass { seat: B }, // idle 2, both seats idle: blocked
            Event::RoundEnd { reason: EndReason::Blocked, scores: out.scores },
        ]
    );
    assert_eq!(tb.view().turns_taken(B), turns_b + 4, "the 5-6 turn, the skipped turn and two more");
    assert_eq!(tb.scores(&out)[1], 7);
}

// ---------------------------------------------------------------------------------------------
// 12b. House rules: the last-tile coins (`tap_forget`, `tap_catch`) and the uncovered-double
// penalty (`uncovered_double_penalty`)
// ---------------------------------------------------------------------------------------------

fn ev_tap(seat: Seat, forgot: bool, caught: bool) -> Event {
    Event::Tap { seat, forgot, caught }
}

fn ev_double_penalty(seat: Seat, drawn: &str) -> Event {
    let mut tiles = [None; mexican_train::rules::MAX_PENALTY_TILES];
    for (slot, x) in tiles.iter_mut().zip(self::tiles(drawn)) {
        *slot = Some(x);
    }
    Event::Penalty { seat, tiles, reason: PenaltyReason::UncoveredDouble }
}

/// `tap_forget=0`: the seat always announces its last tile, so nobody is ever penalised; the
/// coins are judged (and logged) where the penalty would fall, under both penalty models.
#[test]
fn tap_forget_zero_penalises_nobody() {
    let deal = deal_aside(&["3-6 0-1", "5-6 1-5 2-4"], "0-2 0-3 0-4");
    let rules = wiki(2, &["tap=draw_two", "tap_forget=0"]);
    let mut tb = Table::new(&rules, &deal, A);
    tb.run();
    assert_eq!(tb.log.0[..3], [ev_play(A, "3-6", own(A), 3), ev_tap(A, false, false), ev_play(B, "5-6", own(B), 5)]);
    assert!(!tb.log.0.iter().any(|e| matches!(e, Event::Penalty { .. })), "{:?}", tb.log.0);
    let rules = wiki(2, &["tap=draw_one_else_skip", "tap_forget=0"]);
    let mut tb = Table::new(&rules, &deal, A);
    tb.run();
    assert_eq!(
        tb.log.0[..4],
        [ev_play(A, "3-6", own(A), 3), ev_play(B, "5-6", own(B), 5), ev_tap(A, false, false), ev_draw(A, "0-2")]
    );
    // Over whole matches, no penalty either.
    for tap in ["draw_two", "draw_one_else_skip"] {
        let mut rules = Rules { rounds: Some(4), hand_size: Some(5), ..Rules::wikipedia() };
        rules.apply_rules(&[format!("tap={tap}"), "tap_forget=0".into(), "tap_catch=0.5".into()]).unwrap();
        let mut log = Log::default();
        play_match(&rules, 3, &mut bots(&["greedy", "random", "greedy", "random"]), &mut log);
        let taps = log.0.iter().filter(|e| matches!(e, Event::Tap { forgot: false, caught: false, .. })).count();
        assert!(taps > 5, "{tap}: only {taps} last tiles judged");
        assert!(!log.0.iter().any(|e| matches!(e, Event::Penalty { .. } | Event::Skip { .. })), "{tap}");
    }
}

/// `tap_catch=0`: every seat forgets, nobody catches it: no penalty.
#[test]
fn tap_catch_zero_penalises_nobody() {
    let deal = deal_aside(&["3-6 0-1", "5-6 1-5 2-4"], "0-2 0-3 0-4");
    let rules = wiki(2, &["tap=draw_two", "tap_catch=0"]);
    let mut tb = Table::new(&rules, &deal, A);
    tb.run();
    assert_eq!(tb.log.0[..3], [ev_play(A, "3-6", own(A), 3), ev_tap(A, true, false), ev_play(B, "5-6", own(B), 5)]);
}

/// `tap_forget=1` and `tap_catch=1` (the defaults) are `tap=draw_two` as it always played: the
/// same rules, no coin drawn or logged, the same penalty; and whole matches are the same.
#[test]
fn tap_coins_at_one_are_todays_draw_two() {
    let plain = wiki(2, &["tap=draw_two"]);
    let ones = wiki(2, &["tap=draw_two", "tap_forget=1", "tap_catch=1.000000"]);
    assert_eq!(plain, ones);
    assert!(!ones.tap_coins());
    let deal = deal_aside(&["3-6 0-1", "5-6 1-5 2-4"], "0-2 0-3 0-4");
    let mut tb = Table::new(&ones, &deal, A);
    tb.st.set_tap_seed(12345);
    tb.run();
    assert_eq!(
        tb.log.0[..3],
        [ev_play(A, "3-6", own(A), 3), ev_penalty(A, Some("0-2"), Some("0-3")), ev_play(B, "5-6", own(B), 5)]
    );
    for seed in 0..4 {
        let mut base = Rules { rounds: Some(5), ..Rules::wikipedia() };
        base.apply_rule("tap=draw_two").unwrap();
        let mut with = base.clone();
        with.apply_rules(&["tap_forget=1", "tap_catch=1"]).unwrap();
        let (mut a, mut b) = (Log::default(), Log::default());
        let ra = play_match(&base, seed, &mut bots(&["greedy", "random", "planner", "random"]), &mut a);
        let rb = play_match(&with, seed, &mut bots(&["greedy", "random", "planner", "random"]), &mut b);
        assert_eq!((ra.totals, a.0.len()), (rb.totals, b.0.len()));
        assert_eq!(a.0, b.0);
        assert!(a.0.iter().any(|e| matches!(e, Event::Penalty { .. })), "seed {seed}: no penalty to compare");
    }
}

/// The coins are the round's seed's: coin `k` of the round is `seeds::tap_coin(seed, k, ·)`,
/// compared in millionths, and the penalty falls exactly when both came up.
#[test]
fn tap_coins_follow_the_rounds_seed() {
    use mexican_train::rng::seeds::tap_coin;
    use mexican_train::rules::Probability;
    let rules = wiki(2, &["tap=draw_two", "tap_forget=0.5", "tap_catch=0.5"]);
    assert_eq!(rules.tap_forget, Probability::from_millionths(500_000).unwrap());
    let deal = deal_aside(&["3-6 0-1", "5-6 1-5 2-4"], "0-2 0-3 0-4");
    let mut seen = [0; 3];
    for seed in 0..64u64 {
        let mut tb = Table::new(&rules, &deal, A);
        tb.st.set_tap_seed(seed);
        tb.run();
        let forgot = rules.tap_forget.holds(tap_coin(seed, 0, 0));
        let caught = forgot && rules.tap_catch.holds(tap_coin(seed, 0, 1));
        assert_eq!(tb.log.0[1], ev_tap(A, forgot, caught), "seed {seed}");
        let next = if caught { ev_penalty(A, Some("0-2"), Some("0-3")) } else { ev_play(B, "5-6", own(B), 5) };
        assert_eq!(tb.log.0[2], next, "seed {seed}");
        seen[usize::from(forgot) + usize::from(caught)] += 1;
    }
    assert!(seen.iter().all(|&n| n > 5), "every outcome meets the coins: {seen:?}");
}

/// Over many matches the penalty falls with probability P · Q: forgotten in P of the last
/// tiles, caught in Q of those.
#[test]
fn tap_coins_come_up_at_their_rates() {
    let mut rules = Rules { rounds: Some(13), ..Rules::wikipedia() };
    rules.apply_rules(&["tap=draw_two", "tap_forget=0.3", "tap_catch=0.5"]).unwrap();
    let (mut judged, mut forgot, mut caught, mut penalties) = (0u32, 0u32, 0u32, 0u32);
    for seed in 0..40 {
        let mut log = Log::default();
        play_match(&rules, seed, &mut bots(&["greedy", "random", "greedy", "random"]), &mut log);
        for e in &log.0 {
            match *e {
                Event::Tap { forgot: f, caught: c, .. } => {
                    judged += 1;
                    forgot += u32::from(f);
                    caught += u32::from(c);
                }
                Event::Penalty { .. } => penalties += 1,
                _ => {}
            }
        }
    }
    assert_eq!(caught, penalties, "a penalty exactly for each caught last tile");
    assert!(judged > 1000, "{judged}");
    let (pf, pc) = (f64::from(forgot) / f64::from(judged), f64::from(caught) / f64::from(forgot));
    // Binomial standard errors are about 0.013 and 0.025: six of them never flake.
    assert!((pf - 0.3).abs() < 0.08, "forgot {pf}");
    assert!((pc - 0.5).abs() < 0.15, "caught {pc}");
}

/// `uncovered_double_penalty=N`: a turn that ends leaving the seat's own double uncovered
/// draws min(N, boneyard) more tiles, after the failed follow-up's draw and marker.
#[test]
fn uncovered_double_penalty_draws_min_n_boneyard() {
    // A1 3-6, B1 5-6 (forced); A2 3-3 (forced), no 3 to cover: draws 0-4, marks; then the
    // penalty: the next two tiles.
    let deal = deal_aside(&["3-6 3-3 0-1 0-2", "5-6 1-5 2-4"], "0-4 0-5 1-1");
    let rules = wiki(2, &["uncovered_double_penalty=2"]);
    let mut tb = Table::new(&rules, &deal, A);
    tb.run();
    assert_eq!(
        tb.log.0[..6],
        [
            ev_play(A, "3-6", own(A), 3),
            ev_play(B, "5-6", own(B), 5),
            ev_play(A, "3-3", own(A), 3),
            ev_draw(A, "0-4"),
            Event::Mark { seat: A },
            ev_double_penalty(A, "0-5 1-1"),
        ]
    );
    assert_eq!(*tb.st.hand(A), set("0-1 0-2 0-4 0-5 1-1"));
    // The obligation is the preset's as before: B must cover 3-3 next.
    assert!(matches!(tb.log.0[6], Event::Draw { seat: B, .. }));

    // A short boneyard: the penalty takes what is left, then nothing.
    for (n, front, drawn) in [(4, "0-4 0-5", "0-5"), (3, "0-4", ""), (1, "0-4 0-5 1-1", "0-5")] {
        let rest = rest_of_set(&["3-6 3-3 0-1 0-2", front]);
        let deal = deal_aside(&["3-6 3-3 0-1 0-2", &rest], front);
        let rules = wiki(2, &[&format!("uncovered_double_penalty={n}")]);
        let mut tb = Table::new(&rules, &deal, A);
        tb.pick(B, Decision::Normal, "5-6", own(B));
        let i = tb.mark();
        tb.run();
        assert_eq!(
            tb.since(i)[..4],
            [ev_play(A, "3-3", own(A), 3), ev_draw(A, "0-4"), Event::Mark { seat: A }, ev_double_penalty(A, drawn)],
            "N = {n}, boneyard {front}"
        );
        assert_eq!(tb.st.boneyard().len(), tiles(front).len().saturating_sub(1 + n));
    }
}

/// No penalty when the double is covered; with a double left open by choice (`cover_optional`),
/// the penalty falls. (A double that needs no cover, the last of its suit, is left out: the
/// referee checks it over whole matches, `tests/referee.rs`.)
#[test]
fn uncovered_double_penalty_only_for_a_double_left_open() {
    // Covered in the same turn: no penalty.
    let deal = deal_aside(&["3-6 3-3 2-3 0-1", "5-6 1-5 2-4"], "0-4 0-5 1-1");
    let rules = wiki(2, &["uncovered_double_penalty=2"]);
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(A, Decision::Normal, "3-3", own(A));
    tb.run();
    assert!(!tb.log.0.iter().any(|e| matches!(e, Event::Penalty { .. })), "{:?}", tb.log.0);
    assert!(tb.played(A, "2-3", own(A)));

    // Cover optional: A chooses not to cover and pays for it.
    let rules = wiki(2, &["cover_optional=true", "uncovered_double_penalty=1"]);
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let i = tb.mark();
    let follow = tb.choice(A, Decision::FollowUp);
    assert!(follow.contains(&Move::STOP), "{follow:?}");
    tb.play_move(Move::STOP);
    tb.run();
    assert_eq!(tb.log.0[i - 1..i + 1], [ev_play(A, "3-3", own(A), 3), ev_double_penalty(A, "0-4")]);
}

// ---------------------------------------------------------------------------------------------
// 13. Single-parameter alternatives (§8.1)
// ---------------------------------------------------------------------------------------------

/// `parsons_first_move` (ED-27 option): the round's very first move may start the Mexican
/// train; no other first turn may, and first turns still use only the own train.
#[test]
fn alt_parsons_first_move() {
    let deal = deal_aside(&["3-6 2-6 0-1", "5-6 4-6 1-2"], "");
    let rules = wiki(2, &["parsons_first_move=true"]);
    let mut tb = Table::new(&rules, &deal, A);
    let a1 = tb.pick(A, Decision::Normal, "2-6", MEX); // M:2
    assert_eq!(a1, moves(&[("2-6", own(A)), ("3-6", own(A)), ("2-6", MEX), ("3-6", MEX)]));
    // B's first turn: own train only (1-2 would fit M:2).
    let b1 = tb.choice(B, Decision::Normal);
    assert_eq!(b1, moves(&[("4-6", own(B)), ("5-6", own(B))]));

    // Not the round's first move: B may not start it in its first turn.
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(A, Decision::Normal, "3-6", own(A));
    let b1 = tb.choice(B, Decision::Normal);
    assert_eq!(b1, moves(&[("4-6", own(B)), ("5-6", own(B))]));

    // Without the option the first move is an own-train move too.
    let mut tb = Table::new(&wiki(2, &[]), &deal, A);
    let a1 = tb.choice(A, Decision::Normal);
    assert_eq!(a1, moves(&[("2-6", own(A)), ("3-6", own(A))]));
}

/// `doubler_exempt_on_foreign_train` (ED-28 alternative): a doubler who cannot cover a double he
/// laid on another seat's train does not mark; the double still pends. By default he marks.
#[test]
fn alt_doubler_exempt_on_foreign_train() {
    let deal = deal_aside(&["3-6 2-3 5-5 1-1", "4-6 0-4 0-5 1-5", "5-6 0-1"], "2-4 1-2");
    for exempt in [true, false] {
        let rules = wiki(3, &[&format!("doubler_exempt_on_foreign_train={exempt}")]);
        let mut tb = Table::new(&rules, &deal, A);
        // Forced: A1 3-6, B1 4-6, C1 5-6, A2 2-3, B2 0-4; C2: 0-1 fits nothing → draws 2-4 →
        // marks. A3: 5-5 on C's public train; no 5 to cover → draws 1-2.
        let b3 = tb.choice(B, Decision::Cover);
        let mut a3 = vec![ev_play(A, "5-5", own(C), 5), ev_draw(A, "1-2")];
        if !exempt {
            a3.push(Event::Mark { seat: A });
        }
        assert_eq!(tb.log.0[5..7], [ev_draw(C, "2-4"), Event::Mark { seat: C }]);
        assert_eq!(tb.log.0[7..], a3[..]);
        assert_eq!(tb.view().is_marked(A), !exempt);
        assert_eq!(tb.view().pending(), &[obligation(own(C), 5, A)], "the double pends either way");
        assert_eq!(b3, moves(&[("0-5", own(C)), ("1-5", own(C))]));
    }
}

/// `marked_owner_must_prefer_own_train` (ED-20 alternative) on `dominorules`: a marked owner who
/// can play on his own train must; by default (ED-20) he may play anywhere eligible.
#[test]
fn alt_marked_owner_must_prefer_own_train_dominorules() {
    let deal = deal_aside(&["0-1 2-3 3-4 1-2", "3-6 4-5", "2-6 0-0"], "0-5");
    for prefer in [true, false] {
        let rules = preset6("dominorules", 3, &[&format!("marked_owner_must_prefer_own_train={prefer}")]);
        let mut tb = Table::new(&rules, &deal, A);
        // A1: no 6 → draws 0-5 → marks. B1 starts A's public train; C1 starts the Mexican train.
        let b1 = tb.pick(B, Decision::Normal, "3-6", own(A)); // A:3
        assert_eq!(tb.log.0[..2], [ev_draw(A, "0-5"), Event::Mark { seat: A }]);
        assert_eq!(b1, moves(&[("3-6", own(B)), ("3-6", own(A)), ("3-6", MEX)]));
        tb.pick(C, Decision::Normal, "2-6", MEX); // M:2
        let a2 = tb.choice(A, Decision::Normal);
        if prefer {
            assert_eq!(a2, moves(&[("2-3", own(A)), ("3-4", own(A))]));
        } else {
            assert_eq!(a2, moves(&[("2-3", own(A)), ("3-4", own(A)), ("1-2", MEX), ("2-3", MEX)]));
        }
    }
}

/// `only_others_unmark` (ED-34 alternative) on `celko1998`: under `AnyPlayOnTrain` the owner's
/// own play no longer lifts his marker; another seat's play still does. By default (ED-34) the
/// owner's play lifts it too.
#[test]
fn alt_only_others_unmark_celko() {
    let deal = deal_hand(&["6-6 1-6 0-3 2-4", "5-6 0-5 1-4 3-4"], "2-3 1-3");
    for only_others in [true, false] {
        let rules = preset6("celko1998", 2, &[&format!("only_others_unmark={only_others}")]);
        let mut tb = Table::new(&rules, &deal, A);
        // A holds 6-6 and places it. Builds: A 1-6 (its only move, then STOP, forced); B 5-6,
        // then stops rather than add 0-5.
        let stop = tb.choice(B, Decision::Build);
        assert_eq!(stop, moves_and(&[("0-5", own(B))], Move::STOP));
        tb.play_move(Move::STOP);
        // A's first normal turn: nothing fits A:1 → draws 2-3 → marks.
        let b = tb.pick(B, Decision::Normal, "0-5", own(B)); // B:0
        assert_eq!(b, moves(&[("0-5", own(B)), ("1-4", own(A))]));
        assert!(tb.view().is_marked(A));
        // A: nothing fits → draws 1-3, which fits its own train (forced).
        let i = tb.mark();
        tb.run();
        let expect = if only_others {
            // A stays marked; B's 3-4 on A's public train (forced) lifts the marker.
            vec![
                ev_draw(A, "1-3"),
                ev_play(A, "1-3", own(A), 3),
                ev_play(B, "3-4", own(A), 4),
                Event::Unmark { seat: A },
            ]
        } else {
            // A's own play lifts it; A's train is private again, so B (3-4, 1-4) must draw.
            vec![ev_draw(A, "1-3"), ev_play(A, "1-3", own(A), 3), Event::Unmark { seat: A }, ev_draw(B, "0-0")]
        };
        assert_eq!(tb.since(i)[..expect.len()], expect[..], "only_others_unmark={only_others}");
    }
}

/// `obligation_overrides_first_turn` (ED-17 alternative) on `harbour_cay`: a seat in its first
/// turn, obligated to a double on another seat's train, may cover it. By default (ED-17) the
/// first-turn ban wins: it draws, keeps the tile even if it fits, and marks.
#[test]
fn alt_obligation_overrides_first_turn_harbour_cay() {
    // Nobody holds 6-6 (it is the first boneyard tile): A's 5-6 is the highest 6 held, so A
    // places it as the engine and starts.
    let deal = deal_hand(&["5-6 0-1 0-2", "2-6 3-6 1-1"], "6-6 0-3 4-6");
    for overrides in [true, false] {
        let rules = preset6("harbour_cay", 2, &[&format!("obligation_overrides_first_turn={overrides}")]);
        let mut tb = Table::new(&rules, &deal, A);
        let step = tb.run();
        // A1: no 6 in hand → draws 6-6 and lays it; draws 0-3 for the follow-up → marks.
        assert_eq!(
            tb.log.0[..5],
            [
                Event::Engine { seat: A, tile: t("5-6") },
                ev_draw(A, "6-6"),
                ev_play(A, "6-6", own(A), 6),
                ev_draw(A, "0-3"),
                Event::Mark { seat: A },
            ]
        );
        if overrides {
            assert_eq!(step, Step::Choice(B, Decision::Cover));
            assert_eq!(tb.view().pending(), &[obligation(own(A), 6, A)]);
            assert_eq!(sorted(tb.moves.to_vec()), moves(&[("2-6", own(A)), ("3-6", own(A))]));
            tb.play("2-6", own(A));
            assert!(tb.view().pending().is_empty());
        } else {
            // B's first turn: the ban wins; B draws 4-6, keeps it although it covers, marks.
            // A2 (obligated to its own double) draws 0-0 and fails again; B's second turn may
            // cover, also with the kept 4-6.
            assert_eq!(tb.log.0[5..], [ev_draw(B, "4-6"), Event::Mark { seat: B }, ev_draw(A, "0-0")]);
            assert_eq!(step, Step::Choice(B, Decision::Cover));
            assert_eq!(tb.view().pending(), &[obligation(own(A), 6, A)]);
            assert_eq!(sorted(tb.moves.to_vec()), moves(&[("2-6", own(A)), ("3-6", own(A)), ("4-6", own(A))]));
        }
    }
}

/// `mexican_start=after_opening_go_round` (N-3): the Mexican train may be started only once
/// every seat has had a turn. On `wikipedia` the first turn is own-train only anyway, so the
/// option shows with `first_turn_own_train_only=false`.
#[test]
fn alt_mexican_start_after_opening_go_round() {
    let deal = deal_aside(&["3-6 2-6 0-1", "5-6 4-6 1-2"], "");
    // Any time: A's very first move may start it.
    let rules = wiki(2, &["first_turn_own_train_only=false"]);
    let mut tb = Table::new(&rules, &deal, A);
    let a1 = tb.choice(A, Decision::Normal);
    assert_eq!(a1, moves(&[("2-6", own(A)), ("3-6", own(A)), ("2-6", MEX), ("3-6", MEX)]));

    let rules = wiki(2, &["first_turn_own_train_only=false", "mexican_start=after_opening_go_round"]);
    let mut tb = Table::new(&rules, &deal, A);
    let a1 = tb.pick(A, Decision::Normal, "3-6", own(A)); // A:3
    assert_eq!(a1, moves(&[("2-6", own(A)), ("3-6", own(A))]));
    // B has not had its turn yet either.
    let b1 = tb.pick(B, Decision::Normal, "5-6", own(B)); // B:5
    assert_eq!(b1, moves(&[("4-6", own(B)), ("5-6", own(B))]));
    // A's second turn, after the go-round: 2-6 starts it (A holds nothing else that fits).
    let i = tb.mark();
    tb.run();
    assert_eq!(tb.since(i)[0], ev_play(A, "2-6", MEX, 2));

    // On plain wikipedia the option changes nothing visible: first turns are own-train only and
    // a seat's second turn comes after everyone's first.
    let rules = wiki(2, &["mexican_start=after_opening_go_round"]);
    let mut tb = Table::new(&rules, &deal, A);
    let a1 = tb.pick(A, Decision::Normal, "3-6", own(A));
    assert_eq!(a1, moves(&[("2-6", own(A)), ("3-6", own(A))]));
    let i = tb.mark();
    tb.pick(B, Decision::Normal, "5-6", own(B));
    tb.run();
    assert_eq!(tb.since(i)[..2], [ev_play(B, "5-6", own(B), 5), ev_play(A, "2-6", MEX, 2)]);
}

/// `max_mexican_trains=2` (§4.14, ED-33): a second Mexican train may be started while the first
/// exists, whenever the start condition holds; a third may not.
#[test]
fn alt_two_mexican_trains() {
    let rules = wiki(2, &["max_mexican_trains=2"]);
    let mex2 = TrainId::mexican(1);
    let deal = deal_aside(&["3-6 2-6 0-6 2-4", "5-6 4-6 2-5 1-1"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.pick(A, Decision::Normal, "3-6", own(A)); // A:3
    tb.pick(B, Decision::Normal, "5-6", own(B)); // B:5
    let a2 = tb.pick(A, Decision::Normal, "2-6", MEX); // M:2
    assert_eq!(a2, moves(&[("2-6", MEX), ("0-6", MEX)]));
    let b2 = tb.pick(B, Decision::Normal, "4-6", mex2); // second Mexican train, 4
    assert_eq!(b2, moves(&[("2-5", own(B)), ("2-5", MEX), ("4-6", mex2)]));
    assert_eq!(tb.view().mexican_started(), 2);
    assert_eq!(*tb.view().train(mex2), Train { end: pip(4), len: 1, open_double: false });
    // A holds 0-6 but no third Mexican train may start.
    let a3 = tb.choice(A, Decision::Normal);
    assert_eq!(a3, moves(&[("2-4", MEX), ("2-4", mex2)]));
}

/// `marker_removal=any_play_on_train` on `wikipedia`: another seat's play on a public train
/// lifts its marker; by default only the owner's play does.
#[test]
fn alt_marker_removal_any_play_on_train() {
    let deal = deal_aside(&["0-1 0-2", "5-6 1-6 2-5"], "0-3 2-6");
    for any in [true, false] {
        let removal = if any { "any_play_on_train" } else { "owner_on_own_train" };
        let rules = wiki(2, &[&format!("marker_removal={removal}")]);
        let mut tb = Table::new(&rules, &deal, A);
        // A1: no 6 → draws 0-3 → marks. B1 5-6 (B:5).
        tb.pick(B, Decision::Normal, "5-6", own(B));
        // A2: draws 2-6: its own train or the Mexican train; the latter keeps the marker.
        let a2 = tb.pick(A, Decision::Normal, "2-6", MEX); // M:2
        assert_eq!(a2, moves(&[("2-6", own(A)), ("2-6", MEX)]));
        assert!(tb.view().is_marked(A));
        let b2 = tb.pick(B, Decision::Normal, "1-6", own(A)); // A:1, by B
        assert_eq!(b2, moves(&[("2-5", own(B)), ("1-6", own(A)), ("2-5", MEX)]));
        assert_eq!(tb.view().is_marked(A), !any);
        assert_eq!(tb.log.0.last(), Some(&if any { Event::Unmark { seat: A } } else { ev_play(B, "1-6", own(A), 1) }));
    }
}

// ---------------------------------------------------------------------------------------------
// Combinations the variation texts name
// ---------------------------------------------------------------------------------------------

/// §4.1: under partnerships "own train" means both ends of the team train, for the bullet train
/// too ("Every rule that says 'own train' (…, bullet train) applies to both ends"). A's hand
/// 2-3 3-4 lays whole from partner C's end (C:2), not from A's own (A:1): the bullet is offered.
#[test]
fn partnerships_bullet_train_from_the_partners_end() {
    let rules = wiki(4, &["partnerships=true", "bullet_train=true"]);
    let deal = deal_aside(&["1-6 2-3 3-4", "5-6 0-5 1-2", "2-6 0-0", "4-6 0-4 1-1"], "");
    let mut tb = Table::new(&rules, &deal, A);
    let a1 = tb.pick(A, Decision::Normal, "1-6", own(A)); // A:1
    assert_eq!(a1, moves(&[("1-6", own(A)), ("1-6", own(C))]));
    tb.pick(B, Decision::Normal, "5-6", own(B)); // B:5 ; C1 2-6 (C:2), D1 4-6 (D:4) forced
    // A2: 2-3 on C's end, or the bullet train. (Were the bullet not offered, 2-3 would be forced
    // and the round would run on to the next real choice.)
    let step = tb.run();
    assert_eq!(step, Step::Choice(A, Decision::Normal), "no bullet offered to A; events {:?}", tb.log.0);
    assert_eq!(sorted(tb.moves.to_vec()), moves_and(&[("2-3", own(C))], Move::BULLET));
}

/// §4.3 step 4 (ED-30): a delayed first-turn build that ends on a double creates no obligation
/// and no follow-up.
#[test]
fn delayed_first_turn_trailing_double_obliges_nobody() {
    let rules = wiki(2, &["delayed_first_turn=true"]);
    let deal = deal_aside(&["2-6 2-2 0-1", "5-6 2-5 0-3"], "");
    let mut tb = Table::new(&rules, &deal, A);
    // A: 2-6 2-2 (forced, maximum length) ends on an open double. B: 5-6 2-5 (forced), B:2.
    // A2 is a normal turn with nothing pending.
    tb.run();
    assert_eq!(
        tb.log.0[..4],
        [
            ev_play(A, "2-6", own(A), 2),
            ev_play(A, "2-2", own(A), 2),
            ev_play(B, "5-6", own(B), 5),
            ev_play(B, "2-5", own(B), 2),
        ]
    );
    assert_eq!(tb.view().turns_taken(B), 1);
    assert!(!tb.log.0.iter().take(4).any(|e| matches!(e, Event::Mark { .. })));
    assert_eq!(tb.log.0[4], ev_draw(A, "0-0"), "A's second turn is normal, not a cover of B's 2-2");
}

/// Everything `view` shows of the table and of the other seats (not its own hand, which the
/// two positions compared below share anyway), as text.
fn public_part(view: &View<'_>) -> String {
    let n = view.players();
    let seats: Vec<Seat> = (0..n as usize).map(Seat::from_index).collect();
    let trains: Vec<String> = view.train_ids().map(|id| format!("{id}:{:?}", view.train(id))).collect();
    format!(
        "hand {} | sizes {:?} | boneyard {} | engine {:?} | trains {trains:?} | mexican {} | marked {:?} | \
         pending {:?} | played {} | voids {:?} | draws {:?} | turns {:?} | follow-up {:?} | decision {:?}",
        view.hand(),
        seats.iter().map(|&s| view.hand_size(s)).collect::<Vec<_>>(),
        view.boneyard_len(),
        view.engine(),
        view.mexican_started(),
        seats.iter().map(|&s| view.is_marked(s)).collect::<Vec<_>>(),
        view.pending(),
        view.played(),
        seats.iter().map(|&s| view.known_voids(s)).collect::<Vec<_>>(),
        seats.iter().map(|&s| view.draws(s)).collect::<Vec<_>>(),
        seats.iter().map(|&s| view.turns_taken(s)).collect::<Vec<_>>(),
        view.follow_up_double(),
        view.decision(),
    )
}

/// Delayed first turn: an unstarted seat that draws a tile able to start its train may still pass, so a
/// draw followed by a pass looks the same to the table whether the pass was chosen or forced.
/// B (no 6) draws in its first turn: 5-6 in one deal, which it keeps and passes; 4-5 in the
/// other, which cannot start its train. A, about to choose, must see the same position in both,
/// known voids included: neither pass shows that B holds no 6.
#[test]
fn delayed_first_turn_optional_and_forced_pass_look_the_same() {
    let rules = wiki(2, &["delayed_first_turn=true"]);
    let hands = ["1-6 1-2 4-6 3-6", "0-1 0-2 0-3 3-4"];
    let mut chosen = Table::new(&rules, &deal_aside(&hands, "5-6"), A);
    let mut forced = Table::new(&rules, &deal_aside(&hands, "4-5"), A);
    // A1: 1-6 1-2 (forced, maximum length), A:2. B1 draws.
    assert_eq!(chosen.choice(B, Decision::Build), moves_and(&[("5-6", own(B))], Move::STOP));
    chosen.play_move(Move::STOP);
    // A2: 4-6 or 3-6 starts the Mexican train.
    let a_chosen = chosen.choice(A, Decision::Normal);
    let a_forced = forced.choice(A, Decision::Normal);
    assert_eq!(a_chosen, a_forced);
    assert_eq!(a_chosen, moves(&[("3-6", MEX), ("4-6", MEX)]));
    for tb in [&chosen, &forced] {
        assert_eq!(
            tb.log.0[2],
            Event::Draw { seat: B, tile: tb.st.hand(B).iter().find(|x| !tiles(hands[1]).contains(x)).unwrap() }
        );
        assert_eq!(tb.log.0.len(), 3, "A's build, B's draw, and nothing else: {:?}", tb.log.0);
        assert!(!tb.view().is_marked(B));
    }
    assert_eq!(chosen.view().known_voids(B), 0, "B kept a tile that may fit 6");
    assert_eq!(forced.view().known_voids(B), chosen.view().known_voids(B), "the forced pass told the table more");
    assert_eq!(public_part(&forced.st.view(A)), public_part(&chosen.st.view(A)));
}

// ---------------------------------------------------------------------------------------------
// 14. Blanks wild (§4.13, ED-31i)
// ---------------------------------------------------------------------------------------------

fn turned(tile: &str, train: TrainId) -> Move {
    Move::place_turned(t(tile), train)
}

/// A blank joins any end, an end showing a blank takes any tile, and a tile that can join both
/// ways is offered in both orientations (turned: the high half inward, the low half the new end).
#[test]
fn blanks_wild_matching_and_orientation() {
    let rules = wiki(2, &["blanks_wild=true"]);
    let deal = deal_aside(&["0-3 1-6 2-5", "0-6 4-5 2-4"], "");
    let mut tb = Table::new(&rules, &deal, A);
    // A1 on the engine 6: 0-3 by its blank (new end 3); 1-6 by its 6, turned (new end 1).
    assert_eq!(tb.choice(A, Decision::Normal), sorted(vec![mv("0-3", own(A)), turned("1-6", own(A))]));
    tb.play_move(turned("1-6", own(A)));
    assert_eq!(tb.view().train(own(A)).end, pip(1));
    // B1: 0-6 joins 6 by either half: by its blank (new end 6) or, turned, by its 6 (new end 0).
    assert_eq!(tb.choice(B, Decision::Normal), sorted(vec![mv("0-6", own(B)), turned("0-6", own(B))]));
    let i = tb.mark();
    tb.play_move(turned("0-6", own(B)));
    assert_eq!(tb.since(i), &[ev_play(B, "0-6", own(B), 0)]);
    // A2: 0-3 fits A's end 1 by its blank, and starts the Mexican train on 6 the same way.
    assert_eq!(tb.choice(A, Decision::Normal), sorted(vec![mv("0-3", own(A)), mv("0-3", MEX)]));
    tb.play("0-3", own(A));
    // B2: B's end shows a blank: every tile fits, each non-double both ways.
    let b2 = tb.choice(B, Decision::Normal);
    for m in [mv("4-5", own(B)), turned("4-5", own(B)), mv("2-4", own(B)), turned("2-4", own(B))] {
        assert!(b2.contains(&m), "{m} missing from {b2:?}");
    }
    tb.play_move(turned("4-5", own(B)));
    assert_eq!(tb.view().train(own(B)).end, pip(4));
}

/// The double blank is a double whose open end is wild: any tile covers it.
#[test]
fn blanks_wild_double_blank_is_covered_by_anything() {
    let rules = wiki(2, &["blanks_wild=true"]);
    let deal = deal_aside(&["0-6 0-0 3-5 1-1", "2-6 1-3 4-5 2-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    // A1: 0-6 both ways (turned leaves a blank end), and 0-0, whose blank fits the engine too.
    assert_eq!(
        tb.choice(A, Decision::Normal),
        sorted(vec![mv("0-0", own(A)), mv("0-6", own(A)), turned("0-6", own(A))])
    );
    tb.play_move(turned("0-6", own(A)));
    // B1: only 2-6 fits the engine (turned: new end 2), so it is forced.
    assert!(tb.view().train(own(B)).len == 0);
    let a2 = tb.choice(A, Decision::Normal);
    assert_eq!(tb.view().train(own(B)).end, pip(2));
    assert!(a2.contains(&mv("0-0", own(A))) && a2.contains(&mv("1-1", own(A))), "{a2:?}");
    let i = tb.mark();
    tb.play("0-0", own(A));
    // The follow-up: any tile covers the double blank, each non-double both ways.
    let f = tb.choice(A, Decision::FollowUp);
    assert_eq!(f, sorted(vec![mv("1-1", own(A)), mv("3-5", own(A)), turned("3-5", own(A))]));
    tb.play("3-5", own(A));
    assert_eq!(tb.since(i)[..2], [ev_play(A, "0-0", own(A), 0), ev_play(A, "3-5", own(A), 5)]);
    assert!(tb.view().pending().is_empty());
    assert!(!tb.view().is_marked(A));
}

// ---------------------------------------------------------------------------------------------
// Branching doubles (§4.8, ED-31d)
// ---------------------------------------------------------------------------------------------

const BR1: TrainId = TrainId::branch(0);
const BR2: TrainId = TrainId::branch(1);

fn ev_branch(train: TrainId, value: u8, root: TrainId) -> Event {
    Event::Branch { train, value: pip(value), first: BR1, root }
}

/// `four_way`: covering A's [3|3] opens two more ends of value 3 on A's train. They are A's to
/// play on (private), not B's, and a tile on one of them moves only that end.
#[test]
fn branching_four_way_opens_two_ends_of_the_train() {
    let rules = wiki(2, &["branching_doubles=four_way"]);
    let deal = deal_aside(&["6-3 3-3 3-1 3-4 1-2", "6-5 5-0 0-2 4-5 0-0"], "");
    let mut tb = Table::new(&rules, &deal, A);
    // A1 6-3 and B1 6-5 are forced; A2 lays 3-3 and covers it with 3-1.
    tb.steps(&[(A, "6-3", own(A)), (B, "6-5", own(B))]);
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let i = tb.mark();
    tb.pick(A, Decision::FollowUp, "3-1", own(A));
    assert_eq!(tb.since(i), &[ev_play(A, "3-1", own(A), 1), ev_branch(own(A), 3, own(A))]);
    assert!(tb.view().pending().is_empty(), "four_way owes nothing after the first cover");
    assert_eq!(tb.st.branches(), 2);
    assert_eq!(tb.view().root_of(BR2), own(A));
    assert!(tb.view().train_ids().any(|x| x == BR2));
    // B2: A's train is private, so its branches are not B's.
    assert_eq!(tb.pick(B, Decision::Normal, "5-0", own(B)), moves(&[("4-5", own(B)), ("5-0", own(B))]));
    // A3: the main end (1) and both branch ends (3).
    let offered = tb.pick(A, Decision::Normal, "3-4", BR2);
    assert_eq!(offered, moves(&[("1-2", own(A)), ("3-4", BR1), ("3-4", BR2)]));
    assert_eq!((tb.view().train(BR2).end, tb.view().train(BR2).len), (pip(4), 1));
    assert_eq!((tb.view().train(BR1).end, tb.view().train(own(A)).end), (pip(3), pip(1)));
}

/// `four_way_triple_cover`: the next players cover the two branches in turn, one tile each.
#[test]
fn branching_triple_cover_next_players_cover_the_branches() {
    let rules = wiki(2, &["branching_doubles=four_way_triple_cover"]);
    let deal = deal_aside(&["6-3 3-3 3-1 3-4 1-2", "6-5 5-0 3-2 4-5 0-0"], "");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "6-3", own(A)), (B, "6-5", own(B))]);
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let i = tb.mark();
    tb.pick(A, Decision::FollowUp, "3-1", own(A));
    assert_eq!(tb.view().pending(), &[obligation(BR1, 3, A)]);
    // B2 must cover the second side (forced: 3-2 is its only 3); A3 the third (3-4).
    let choice = tb.choice(B, Decision::Normal);
    assert_eq!(
        tb.since(i),
        &[
            ev_play(A, "3-1", own(A), 1),
            ev_branch(own(A), 3, own(A)),
            ev_play(B, "3-2", BR1, 2),
            ev_play(A, "3-4", BR2, 4),
        ]
    );
    assert!(tb.view().pending().is_empty());
    // Normal play resumes: B may play on its own train, and A's private branch ends are not B's.
    assert_eq!(choice, moves(&[("4-5", own(B)), ("5-0", own(B))]));
    assert!(!tb.view().is_marked(B) && !tb.view().is_marked(A));
}

/// A player who cannot cover a branch draws one tile; if it does not fit, his turn ends without a
/// marker and the stage passes on (ED-31d).
#[test]
fn branching_triple_cover_failed_stage_draws_one_and_does_not_mark() {
    let rules = wiki(2, &["branching_doubles=four_way_triple_cover"]);
    let deal = deal_aside(&["6-3 3-3 3-1 3-4 1-2", "6-5 5-0 0-2 4-5 0-0"], "1-1 2-3");
    let mut tb = Table::new(&rules, &deal, A);
    tb.steps(&[(A, "6-3", own(A)), (B, "6-5", own(B))]);
    tb.pick(A, Decision::Normal, "3-3", own(A));
    let i = tb.mark();
    tb.pick(A, Decision::FollowUp, "3-1", own(A));
    let step = tb.run();
    assert!(matches!(step, Step::Choice(s, _) if s == A), "{step:?}");
    assert_eq!(
        tb.since(i),
        &[
            ev_play(A, "3-1", own(A), 1),
            ev_branch(own(A), 3, own(A)),
            // B2: no 3, draws 1-1 (no fit): no marker, the stage passes to A.
            ev_draw(B, "1-1"),
            // A3 covers stage 2 with its only 3 (forced); B3 draws 2-3 and covers stage 3.
            ev_play(A, "3-4", BR1, 4),
            ev_draw(B, "2-3"),
            ev_play(B, "2-3", BR2, 2),
        ]
    );
    assert!(tb.view().pending().is_empty());
    assert!(!tb.view().is_marked(B));
}

/// Branching with blanks wild is refused with a clear reason.
#[test]
fn branching_doubles_refuse_blanks_wild() {
    let mut r = Rules::wikipedia();
    r.apply_rule("branching_doubles=four_way").unwrap();
    r.apply_rule("blanks_wild=true").unwrap();
    let e = r.validate().unwrap_err().to_string();
    assert!(e.contains("cannot be combined: blanks wild with branching doubles"), "{e}");
}

/// `Outcome::no_start`: the seats whose first turn began without a tile for their own train.
#[test]
fn no_start_records_seats_that_cannot_start_their_train() {
    let rules = wiki(3, &[]);
    // A and C hold a 6; B holds none.
    let deal = deal_aside(&["6-3 3-3 1-2", "0-1 0-2 4-5", "6-5 5-5 2-2"], "");
    let mut tb = Table::new(&rules, &deal, A);
    loop {
        match tb.run() {
            Step::Over => break,
            Step::Choice(..) => {
                let m = tb.moves[0];
                tb.play_move(m);
            }
        }
    }
    assert_eq!(tb.st.outcome().unwrap().no_start, B.bit());
}
