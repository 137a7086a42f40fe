//! The planning bots (`planner`, `hoarder`, `cutthroat`): the PLAN search on hand-built hands,
//! their behaviours in hand-built positions, full matches under every preset, information
//! hiding (re-dealing what a seat cannot see never changes its choice), and planner beating
//! random.
//!
//! Positions are double-6 deals with explicit hands and boneyard fronts (`tests/common`), played
//! through `advance`/`play` with scripted moves until the seat under test has a choice.

mod common;
use common::*;
use mexican_train::rng::{mix, rng_from_seed};
use mexican_train::rules::PRESETS;
use mexican_train::strategies::plan::longest_plan;
use mexican_train::*;

fn set(s: &str) -> TileSet {
    tiles(s).into_iter().collect()
}

fn plan(hand: &str, start: u8) -> Vec<Tile> {
    longest_plan(&set(hand), pip(start)).tiles().to_vec()
}

// ---------------------------------------------------------------------------------------------
// PLAN search
// ---------------------------------------------------------------------------------------------

#[test]
fn plan_finds_the_longest_trail() {
    // A path with a double on it: the double is a loop taken on arrival at its value.
    assert_eq!(plan("12-5 5-5 5-3 3-9 1-1", 12), tiles("5-12 5-5 3-5 3-9"));
    assert_eq!(plan("12-5 5-5 5-3 3-9 1-1", 7), tiles(""));
    // A branch: 12-4 alone, or 12-5 5-6 6-6 6-2.
    assert_eq!(plan("12-4 12-5 5-6 6-6 6-2", 12), tiles("5-12 5-6 6-6 2-6"));
    // A cycle back to the start, then out: 1-2 2-3 3-1 1-4 (smaller tile first at each branch).
    assert_eq!(plan("1-2 2-3 1-3 1-4", 1), tiles("1-2 2-3 1-3 1-4"));
    // A double at the start is laid first.
    assert_eq!(plan("4-4 4-1 1-0", 4), tiles("4-4 1-4 0-1"));
    // Only doubles: the one at the start, nothing else connects.
    assert_eq!(plan("3-3 2-2", 3), tiles("3-3"));
    assert!(longest_plan(&TileSet::EMPTY, pip(0)).is_empty());
}

#[test]
fn plan_ties_go_to_pips_then_smallest_list() {
    // Two trails of two tiles from 6: 6-1 1-0 (8 pips) and 6-2 2-5 (15 pips): the heavier wins.
    assert_eq!(plan("6-1 1-0 6-2 2-5", 6), tiles("2-6 2-5"));
    // Equal length and pips: 6-1 1-5 and 6-2 2-3 (both 13): the smaller first tile wins.
    assert_eq!(plan("6-2 2-3 6-1 1-5", 6), tiles("1-6 1-5"));
    // Length beats pips: 6-0 0-1 1-2 (three tiles) over 6-12 (one heavy tile).
    assert_eq!(plan("6-0 0-1 1-2 6-12", 6), tiles("0-6 0-1 1-2"));
}

/// A 16-tile double-12 hand with a known plan: a 12-tile trail through four doubles.
const HAND16: &str = "12-11 11-11 11-10 10-9 9-9 9-8 8-8 8-7 7-6 6-6 6-5 5-4 0-1 2-3 0-3 1-2";

#[test]
fn plan_of_a_sixteen_tile_hand() {
    let p = longest_plan(&set(HAND16), pip(12));
    assert_eq!(p.len(), 12);
    assert_eq!(p.tiles(), tiles("11-12 11-11 10-11 9-10 9-9 8-9 8-8 7-8 6-7 6-6 5-6 4-5").as_slice());
    assert_eq!(p.end(), pip(4));
    // From 0, the square 0-1 1-2 2-3 3-0: all four, and back to 0.
    let q = longest_plan(&set(HAND16), pip(0));
    assert_eq!((q.len(), q.end()), (4, pip(0)));
    // The search agrees with the engine's count-only trail search on many random hands.
    let mut rng = rng_from_seed(5);
    let all: Vec<Tile> = Tile::canonical(pip(12)).collect();
    for _ in 0..300 {
        let mut h = TileSet::EMPTY;
        while h.len() < 16 {
            h.insert(all[mexican_train::rng::below(&mut rng, all.len() as u64) as usize]);
        }
        let v = pip(mexican_train::rng::below(&mut rng, 13) as u8);
        let p = longest_plan(&h, v);
        assert_eq!(p.len(), round::longest_trail(&h, v), "{h} from {v}");
        // It is a trail of the hand from v.
        let mut end = v;
        let mut seen = TileSet::EMPTY;
        for &t in p.tiles() {
            assert!(h.contains(t) && seen.insert(t) && t.contains(end), "{h} from {v}: {t}");
            end = t.other(end);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Full matches
// ---------------------------------------------------------------------------------------------

const PLANNERS: [&str; 3] = ["planner", "hoarder", "cutthroat"];

fn bots(specs: &[&str], n: u8) -> Vec<Bot> {
    (0..n as usize).map(|s| Bot::parse(specs[s % specs.len()]).unwrap()).collect()
}

/// Every planning bot finishes full matches under all five presets at 2, 4 and 6 seats, alone
/// and mixed with the others; the engine's checked `play` is not needed because `play_round`
/// asserts the index, and a wrong index panics.
#[test]
fn full_matches_under_every_preset() {
    let mut played = 0;
    for info in PRESETS {
        for players in [2u8, 4, 6] {
            let rules = Rules { players, ..Rules::preset(info.name).unwrap() };
            if rules.validate().is_err() {
                continue;
            }
            let lineups: [&[&str]; 4] = [
                &["planner"],
                &["hoarder:release=1,late=2"],
                &["cutthroat"],
                &["planner", "hoarder", "cutthroat", "greedy"],
            ];
            for (k, lineup) in lineups.iter().enumerate() {
                let mut b = bots(lineup, players);
                let r = play_match(&rules, mix(players as u64, k as u64), &mut b, &mut NoObserver);
                assert_eq!(r.rounds, rules.round_count(), "{} {players}p {lineup:?}", info.name);
                assert!(r.winners != 0);
                played += 1;
            }
        }
    }
    assert!(played >= 5 * 2 * 4, "only {played} matches were playable");
}

// ---------------------------------------------------------------------------------------------
// Information hiding
// ---------------------------------------------------------------------------------------------

/// At every decision of rounds played by the bot in every seat, re-dealing the hidden tiles
/// consistently with the seat's view (`View::sample_world`) gives the same legal moves and the
/// same choice. Returns the number of decisions checked.
fn same_choice_in_resampled_worlds(spec: &str, preset: &str, players: u8, rounds: u64) -> usize {
    let rules = Rules { players, ..Rules::preset(preset).unwrap() };
    rules.validate().unwrap();
    let mut checked = 0;
    for r in 0..rounds {
        let mut deal_rng = rng_from_seed(mix(31, r));
        let deal = deal_round(&rules, pip(12 - r as u8 % 13), &mut deal_rng);
        let mut state = RoundState::new(&rules, &deal, Seat::from_index(r as usize % players as usize));
        let mut b = bots(&[spec], players);
        for (s, bot) in b.iter_mut().enumerate() {
            bot.round_start(&state.view(Seat::from_index(s)));
        }
        let mut rng = rng_from_seed(mix(77, r));
        let mut moves = MoveList::new();
        let mut world_moves = MoveList::new();
        let mut step = 0u64;
        while let Step::Choice(seat, _) = state.advance(&mut moves, &mut NoObserver) {
            // Randomized bots get the same fixed seed in the real and the re-dealt worlds.
            step += 1;
            let bot_seed = mix(r, step);
            let before = b[seat.index()].clone();
            let chosen = moves[b[seat.index()].choose(&state.view(seat), &moves, &mut rng_from_seed(bot_seed))];
            for _ in 0..2 {
                let world = state.view(seat).sample_world(&mut rng).expect("the seat is to act");
                world.legal_moves(&mut world_moves);
                assert_eq!(world_moves.as_slice(), moves.as_slice(), "{spec} {preset}: moves differ");
                let mut again = before.clone();
                let m = world_moves[again.choose(&world.view(seat), &world_moves, &mut rng_from_seed(bot_seed))];
                assert_eq!(m, chosen, "{spec} under {preset}: the hidden tiles changed the choice");
                checked += 1;
            }
            state.play(chosen, &mut NoObserver).expect("legal");
        }
    }
    checked
}

#[test]
fn choices_depend_only_on_the_view() {
    for spec in ["random", "greedy", "greedy:ties=random"].into_iter().chain(PLANNERS) {
        let mut total = 0;
        for info in PRESETS {
            total += same_choice_in_resampled_worlds(spec, info.name, 4, 6);
        }
        assert!(total > 500, "{spec}: only {total} decisions checked");
    }
}

// ---------------------------------------------------------------------------------------------
// Behaviours in hand-built positions
// ---------------------------------------------------------------------------------------------

/// Plays `script` (one move per real choice, asserted legal) from the deal with `first` to act,
/// then stops at the next choice: the state and the moves offered.
fn position(rules: &Rules, deal: &Deal, first: Seat, script: &[Move]) -> (RoundState, MoveList) {
    let mut state = RoundState::new(rules, deal, first);
    let mut moves = MoveList::new();
    for &m in script {
        assert!(matches!(state.advance(&mut moves, &mut NoObserver), Step::Choice(..)), "no choice for {m}");
        state.play(m, &mut NoObserver).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    assert!(matches!(state.advance(&mut moves, &mut NoObserver), Step::Choice(..)), "no choice at the end");
    (state, moves)
}

/// The move `spec` picks for the seat to act.
fn pick(spec: &str, state: &RoundState, moves: &MoveList) -> Move {
    let seat = state.current();
    let mut bot = Bot::parse(spec).unwrap();
    bot.round_start(&state.view(seat));
    moves[bot.choose(&state.view(seat), moves, &mut rng_from_seed(0))]
}

/// dominorules, 2 seats. B starts the Mexican train with 6-4. A holds 4-4 4-1 6-2 2-1 3-0:
/// PLAN from 6 is 6-2 2-1 1-4 4-4, the extra is 3-0; A may play 6-2 on its own train, or 4-1 or
/// 4-4 on the Mexican train (end 4).
fn double_position() -> (Rules, RoundState, MoveList) {
    let rules = rules6("dominorules", 2);
    let deal = deal_aside(&["4-4 4-1 6-2 2-1 3-0", "6-4 5-5 3-3 1-1 0-0"], "5-0");
    let (state, moves) = position(&rules, &deal, B, &[mv("6-4", MEX)]);
    assert_eq!(sorted(moves.to_vec()), moves_of(&[("2-6", own(A)), ("1-4", MEX), ("4-4", MEX)]));
    (rules, state, moves)
}

fn moves_of(list: &[(&str, TrainId)]) -> Vec<Move> {
    common::moves(list)
}

#[test]
fn planner_plays_its_plan_on_its_own_train() {
    let (_, state, moves) = double_position();
    assert_eq!(pick("planner", &state, &moves), mv("2-6", own(A)));
}

#[test]
fn hoarder_holds_a_double_until_released() {
    let (_, state, moves) = double_position();
    // 4-4: six 4-tiles unplayed, two in A's hand, so four outside; five tiles in hand.
    assert_eq!(pick("hoarder", &state, &moves), mv("2-6", own(A)), "release=2, late=3: held");
    assert_eq!(pick("hoarder:release=3", &state, &moves), mv("2-6", own(A)), "four outside > 3: held");
    assert_eq!(pick("hoarder:release=4", &state, &moves), mv("4-4", MEX), "four outside <= 4: released");
    assert_eq!(pick("hoarder:late=5", &state, &moves), mv("4-4", MEX), "five tiles <= 5: late");
}

#[test]
fn cutthroat_leaves_a_double_open_on_the_mexican_train() {
    let (_, mut state, moves) = double_position();
    let mut bot = Bot::parse("cutthroat").unwrap();
    let mut rng = rng_from_seed(0);
    let m = moves[bot.choose(&state.view(A), &moves, &mut rng)];
    assert_eq!(m, mv("4-4", MEX));
    state.play(m, &mut NoObserver).unwrap();
    // The follow-up: cover the double with 4-1, or play 6-2 on its own train and leave it open.
    let mut moves = MoveList::new();
    assert_eq!(state.advance(&mut moves, &mut NoObserver), Step::Choice(A, Decision::FollowUp));
    assert_eq!(sorted(moves.to_vec()), moves_of(&[("2-6", own(A)), ("1-4", MEX)]));
    let m = moves[bot.choose(&state.view(A), &moves, &mut rng)];
    assert_eq!(m, mv("2-6", own(A)));
    state.play(m, &mut NoObserver).unwrap();
    // B must now cover 4 on the Mexican train.
    assert_eq!(state.view(A).pending(), &[obligation(MEX, 4, A)]);
    // The planner would not: it plays its plan (and a planner covers its own double).
    assert_eq!(pick("planner", &double_position().1, &double_position().2), mv("2-6", own(A)));
}

/// dominorules, 2 seats: B opens the Mexican train with 6-4, A plays 6-5, B lays 4-4 on the
/// Mexican train and must follow up with 6-1 on its own train, so A must cover 4 holding
/// 5-4 4-2 4-0 1-3. PLAN from 5 is 5-4 4-2; 4-0 is an extra. B keeps `b_rest` tiles.
fn cover_position(b_rest: &str) -> (RoundState, MoveList) {
    let rules = rules6("dominorules", 2);
    let b = format!("6-4 4-4 6-1 {b_rest}");
    let deal = deal_aside(&["6-5 5-4 4-2 4-0 1-3", &b], "5-5");
    let (state, moves) = position(&rules, &deal, B, &[mv("6-4", MEX), mv("6-5", own(A)), mv("4-4", MEX)]);
    assert_eq!(state.view(A).decision(), Some(Decision::Cover));
    assert_eq!(sorted(moves.to_vec()), moves_of(&[("4-5", MEX), ("2-4", MEX), ("0-4", MEX)]));
    (state, moves)
}

#[test]
fn planner_covers_with_an_extra_rather_than_break_its_plan() {
    let (state, moves) = cover_position("3-3 2-2");
    assert_eq!(pick("planner", &state, &moves), mv("0-4", MEX));
    assert_eq!(pick("greedy", &state, &moves), mv("4-5", MEX), "greedy takes the heavy tile");
}

#[test]
fn planner_dumps_its_heaviest_tile_when_an_opponent_holds_one() {
    let (state, moves) = cover_position("3-3");
    assert_eq!(state.hand(B).len(), 1);
    assert_eq!(pick("planner", &state, &moves), mv("4-5", MEX));
}

/// dominorules, 3 seats, B first. B opens the Mexican train with 6-4, C plays 6-3 on its own
/// train, A cannot play, draws 0-1 and marks; B plays 6-5 on A's public train, C plays 4-2 on the
/// Mexican train. A, marked, may lay 5-5 on its own train or 0-2 on the Mexican train.
#[test]
fn a_marked_seat_plays_on_its_own_train() {
    let rules = rules6("dominorules", 3);
    let deal = deal_aside(&["5-5 0-2 1-3", "6-4 6-5 0-0", "6-3 4-2 2-3 1-1"], "0-1");
    let script = [mv("6-4", MEX), mv("3-6", own(C)), mv("5-6", own(A)), mv("2-4", MEX)];
    let (state, moves) = position(&rules, &deal, B, &script);
    assert!(state.view(A).is_marked(A));
    assert_eq!(sorted(moves.to_vec()), moves_of(&[("5-5", own(A)), ("0-2", MEX)]));
    // The hoarder would hold 5-5 back (S2), but S7(a) comes first.
    for spec in PLANNERS {
        assert_eq!(pick(spec, &state, &moves), mv("5-5", own(A)), "{spec}");
    }
}

/// S10: no Mexican train yet and two tiles with the engine number: start it with the one that
/// is not PLAN's first tile.
#[test]
fn planner_starts_the_mexican_train_with_a_spare_engine_tile() {
    let rules = rules6("dominorules", 2);
    // PLAN from 6: 6-5 5-4 4-3; 6-1 is the spare 6.
    let deal = deal_aside(&["6-5 5-4 4-3 6-1 2-0", "3-3 2-2 1-1 0-0 5-5"], "");
    let (state, moves) = position(&rules, &deal, A, &[]);
    assert_eq!(pick("planner", &state, &moves), mv("1-6", TrainId::mexican(0)));
    assert_eq!(pick("greedy", &state, &moves).tile().unwrap(), t("5-6"));
}

/// S3 where the follow-up must cover the same double (`wikipedia`): lay a double one cannot
/// cover on another seat's public train. 3 seats, B first, every move forced until C's third
/// turn: B 6-1 1-5 5-4 (keeping 0-2 2-2), C 6-2 2-4, A 6-3 and then, holding 0-0 5-5, draws 1-1 and marks at 3.
/// C holds 3-3 (no other 3) and 4-0.
#[test]
fn cutthroat_lays_an_uncoverable_double_on_a_public_train() {
    let rules = rules6("wikipedia", 3);
    let deal = deal_aside(&["6-3 0-0 5-5", "6-1 1-5 5-4 0-2 2-2", "6-2 2-4 3-3 0-4"], "1-1");
    let (state, moves) = position(&rules, &deal, B, &[]);
    assert_eq!(state.current(), C);
    assert!(state.view(A).is_marked(A));
    assert_eq!(sorted(moves.to_vec()), moves_of(&[("0-4", own(C)), ("3-3", own(A))]));
    assert_eq!(pick("cutthroat", &state, &moves), mv("3-3", own(A)));
    assert_eq!(pick("planner", &state, &moves), mv("0-4", own(C)));
    // The hoarder holds two tiles, at most `late`: it releases 3-3, on the public train (S4).
    assert_eq!(pick("hoarder", &state, &moves), mv("3-3", own(A)));
    assert_eq!(pick("hoarder:late=1", &state, &moves), mv("0-4", own(C)));
}

/// S5: dominorules, 3 seats, B first. B opens the Mexican train with 6-2, C extends it with
/// 2-4, A (no 6, no 4) draws 0-1 and marks: A is publicly void in 4 and 6. B holds 6-4 6-5 0-0;
/// PLAN from 6 is 6-5 (the heavier single), so 6-4 is an extra.
#[test]
fn cutthroat_turns_a_public_train_to_a_known_void() {
    let rules = rules6("dominorules", 3);
    let deal = deal_aside(&["5-5 0-2 1-3", "6-2 6-4 6-5 0-0", "2-4 6-3 1-1"], "0-1");
    let (state, moves) = position(&rules, &deal, B, &[mv("2-6", MEX), mv("2-4", MEX)]);
    assert_eq!(state.current(), B);
    assert!(state.view(A).is_marked(A));
    assert_eq!(state.view(B).known_voids(A), 1 << 4 | 1 << 6);
    assert_eq!(pick("cutthroat", &state, &moves), mv("4-6", own(A)));
    assert_eq!(pick("planner", &state, &moves), mv("5-6", own(B)));
}

/// The plan is searched once and kept while A plays along it and dumps an extra; every draw
/// makes it search again.
#[test]
fn plan_is_searched_again_only_when_stale() {
    use mexican_train::strategies::Planner;
    let rules = rules6("dominorules", 2);
    // A: PLAN from 6 is 6-5 5-4 4-2; 4-0 and 1-3 are extras. B opens the Mexican train with 6-4,
    // then lays 4-4 there and follows up with 6-1 (its only follow-up); then B plays greedy.
    let deal = deal_aside(&["6-5 5-4 4-2 4-0 1-3", "6-4 4-4 6-1 3-3 2-2"], "");
    let mut state = RoundState::new(&rules, &deal, B);
    let mut moves = MoveList::new();
    let (mut a, mut b) = (Planner::default(), Bot::parse("greedy").unwrap());
    let mut rng = rng_from_seed(0);
    let mut script = [mv("6-4", MEX), mv("4-4", MEX)].into_iter();
    let (mut a_moves, mut searches, mut redraws) = (Vec::new(), Vec::new(), 0);
    let mut last = (TileSet::EMPTY, 0);
    while let Step::Choice(seat, _) = state.advance(&mut moves, &mut NoObserver) {
        let m = if seat == A {
            let m = moves[a.choose(&state.view(A), &moves, &mut rng)];
            let drew = state.hand(A).iter().any(|x| !last.0.contains(x));
            if !a_moves.is_empty() && drew {
                assert_eq!(a.plan_searches(), last.1 + 1, "a draw makes the plan stale");
                redraws += 1;
            }
            a_moves.push(m);
            searches.push(a.plan_searches());
            m
        } else {
            script.next().unwrap_or_else(|| moves[b.choose(&state.view(B), &moves, &mut rng)])
        };
        state.play(m, &mut NoObserver).unwrap();
        last = (*state.hand(A), a.plan_searches());
    }
    // A: 6-5 on its own train (plan), then 0-4 to cover the double (an extra): one search.
    assert_eq!(a_moves[..2], [mv("5-6", own(A)), mv("0-4", MEX)]);
    assert_eq!(searches[..2], [1, 1]);
    // Over dealt rounds: every decision after a draw searched again, and many did not search.
    let rules = Rules { players: 2, ..Rules::wikipedia() };
    let (mut decisions, mut total_searches) = (0, 0);
    for r in 0..20u64 {
        let deal = deal_round(&rules, pip(12), &mut rng_from_seed(r));
        let mut state = RoundState::new(&rules, &deal, Seat::from_index(r as usize % 2));
        let mut a = Planner::default();
        let mut last = (*state.hand(A), 0);
        while let Step::Choice(seat, _) = state.advance(&mut moves, &mut NoObserver) {
            let m = if seat == A {
                let m = moves[a.choose(&state.view(A), &moves, &mut rng)];
                if decisions > 0 && state.hand(A).iter().any(|x| !last.0.contains(x)) {
                    assert_eq!(a.plan_searches(), last.1 + 1, "a draw makes the plan stale");
                    redraws += 1;
                }
                decisions += 1;
                m
            } else {
                moves[b.choose(&state.view(B), &moves, &mut rng)]
            };
            state.play(m, &mut NoObserver).unwrap();
            last = (*state.hand(A), a.plan_searches());
        }
        total_searches += a.plan_searches();
    }
    assert!(redraws > 10, "only {redraws} decisions after a draw");
    assert!(total_searches * 3 < decisions * 2, "{total_searches} searches for {decisions} decisions");
}

// ---------------------------------------------------------------------------------------------
// Strength
// ---------------------------------------------------------------------------------------------

/// Planner against random, heads up under `wikipedia`, 300 seeded matches with the seats
/// swapped every other match: the planner wins far more than half (about 95% when measured).
#[test]
fn planner_beats_random() {
    let rules = Rules { players: 2, ..Rules::wikipedia() };
    let (mut wins, mut planner_total, mut random_total) = (0.0, 0u64, 0u64);
    let n = 300;
    for g in 0..n {
        let p = (g % 2) as usize;
        let mut lineup = if p == 0 { bots(&["planner", "random"], 2) } else { bots(&["random", "planner"], 2) };
        let r = play_match(&rules, mix(2024, g), &mut lineup, &mut NoObserver);
        let (ps, rs) = (Seat::from_index(p), Seat::from_index(1 - p));
        wins += match (r.is_winner(ps), r.is_winner(rs)) {
            (true, false) => 1.0,
            (true, true) => 0.5,
            _ => 0.0,
        };
        planner_total += r.totals[p] as u64;
        random_total += r.totals[1 - p] as u64;
    }
    assert!(wins > 0.8 * n as f64, "planner won {wins} of {n}");
    assert!(planner_total * 2 < random_total, "planner {planner_total} points, random {random_total}");
}
