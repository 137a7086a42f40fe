//! Invariants at every step of random play (DESIGN.md §7 habit 6, after OpenSpiel's RandomSimTest).
//!
//! 10_000 `wikipedia` rounds over every (set, players) pair of the deal table, with a random mix of
//! `random` and `greedy` bots. Two layers of checks:
//!
//! - After **every action** (every event the round emits) a shadow ledger that knows where each
//!   tile lies checks that the action is possible: a draw takes exactly the next boneyard tile
//!   into the drawer's hand, a play moves a tile of the player's hand onto the table, a marker goes
//!   on only when off and comes off only when on, the round ends once with each seat scoring the
//!   pips left in its hand. Each action moves one tile between places, so the ledger conserves
//!   tiles by construction.
//! - At **every pause** of the engine (each decision point and the end of the round, i.e. between
//!   `advance` and `play` calls) the engine's own state is checked against the ledger and on its
//!   own: each hand, the boneyard and `played()` equal the ledger's; hands, boneyard and table hold
//!   the whole set with no tile twice and nothing else; every `TileSet`'s cached `len()`/`pips()`
//!   equal its `recompute()`; the turn count stays within the bound below.

use mexican_train::rng::{below, mix, rng_from_seed, stream};
use mexican_train::*;

const ROUNDS: u64 = 10_000;
const MASTER_SEED: u64 = 0x1a7a_71a7;

/// Where a tile lies, as the ledger sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    Hand(usize),
    Boneyard,
    Table,
}

/// The shadow ledger: updated from events alone, checked on every event.
struct Ledger {
    players: usize,
    /// `place[tile.index()]`; `None` for tiles outside the set.
    place: Vec<Option<Place>>,
    /// The boneyard in draw order and how many have been drawn.
    boneyard: Vec<Tile>,
    drawn: usize,
    marked: Vec<bool>,
    hand_len: Vec<usize>,
    placements: u32,
    marks: u32,
    over: bool,
    /// The seat whose hand just became empty: the next event must end the round.
    emptied: Option<usize>,
}

impl Ledger {
    fn new(deal: &Deal) -> Ledger {
        let players = deal.players as usize;
        let mut place = vec![None; mexican_train::tile::MAX_TILES];
        place[deal.engine.index()] = Some(Place::Table);
        for (s, hand) in deal.hands[..players].iter().enumerate() {
            for t in hand {
                assert!(place[t.index()].is_none(), "{t} dealt twice");
                place[t.index()] = Some(Place::Hand(s));
            }
        }
        for &t in deal.boneyard.as_slice() {
            assert!(place[t.index()].is_none(), "{t} dealt twice");
            place[t.index()] = Some(Place::Boneyard);
        }
        Ledger {
            players,
            place,
            boneyard: deal.boneyard.as_slice().to_vec(),
            drawn: 0,
            marked: vec![false; players],
            hand_len: deal.hands[..players].iter().map(TileSet::len).collect(),
            placements: 0,
            marks: 0,
            over: false,
            emptied: None,
        }
    }

    /// The pips left in each hand.
    fn hand_pips(&self) -> Vec<u32> {
        let mut pips = vec![0; self.players];
        for (i, p) in self.place.iter().enumerate() {
            if let Some(Place::Hand(s)) = p {
                pips[*s] += u32::from(Tile::from_index(i).expect("index in range").pips());
            }
        }
        pips
    }
}

impl Observer for Ledger {
    fn event(&mut self, ev: &Event) {
        assert!(!self.over, "{ev:?} after the round ended");
        if let Some(s) = self.emptied {
            // PLACE step 5 (the owner's marker comes off) precedes step 6 (out): RULES.md §5.0.3.
            let lifted = matches!(*ev, Event::Unmark { seat } if seat.index() == s);
            assert!(
                lifted || matches!(ev, Event::RoundEnd { .. }),
                "seat {s} went out but the round went on with {ev:?}"
            );
        }
        match *ev {
            Event::Draw { seat, tile } => {
                assert!(seat.index() < self.players);
                assert_eq!(self.boneyard.get(self.drawn), Some(&tile), "drew a tile that is not next in the boneyard");
                assert_eq!(self.place[tile.index()], Some(Place::Boneyard));
                self.place[tile.index()] = Some(Place::Hand(seat.index()));
                self.hand_len[seat.index()] += 1;
                self.drawn += 1;
            }
            Event::Play { seat, tile, train, end } => {
                let s = seat.index();
                assert_eq!(self.place[tile.index()], Some(Place::Hand(s)), "seat {s} played {tile}, not in its hand");
                assert!(tile.contains(end), "{tile} cannot leave end {end}");
                assert!(
                    train.is_mexican()
                        || train.branch_index().is_some()
                        || train.owner().unwrap().index() < self.players,
                    "no train {train}"
                );
                self.place[tile.index()] = Some(Place::Table);
                self.placements += 1;
                self.hand_len[s] -= 1;
                if self.hand_len[s] == 0 {
                    self.emptied = Some(s);
                }
            }
            Event::Mark { seat } => {
                assert!(!self.marked[seat.index()], "seat {seat} marked twice");
                self.marked[seat.index()] = true;
                self.marks += 1;
            }
            Event::Unmark { seat } => {
                assert!(self.marked[seat.index()], "seat {seat} unmarked while unmarked");
                self.marked[seat.index()] = false;
            }
            Event::Pass { seat } | Event::Skip { seat } => assert!(seat.index() < self.players),
            Event::Tap { seat, forgot, caught } => assert!(seat.index() < self.players && (forgot || !caught)),
            Event::Penalty { seat, tiles, .. } => {
                for tile in tiles.into_iter().flatten() {
                    assert_eq!(self.boneyard.get(self.drawn), Some(&tile), "penalty tile is not next in the boneyard");
                    self.place[tile.index()] = Some(Place::Hand(seat.index()));
                    self.hand_len[seat.index()] += 1;
                    self.drawn += 1;
                }
            }
            Event::Branch { .. } => panic!("wikipedia does not branch doubles"),
            Event::Engine { seat, tile } => {
                let s = seat.index();
                assert_eq!(
                    self.place[tile.index()],
                    Some(Place::Hand(s)),
                    "seat {s} placed engine {tile}, not in its hand"
                );
                self.place[tile.index()] = Some(Place::Table);
                self.hand_len[s] -= 1;
            }
            Event::RoundEnd { reason, scores } => {
                match reason {
                    EndReason::Out(s) => assert_eq!(self.emptied, Some(s.index()), "out without an empty hand"),
                    EndReason::Blocked => {
                        assert_eq!(self.emptied, None);
                        assert_eq!(self.drawn, self.boneyard.len(), "blocked with tiles in the boneyard");
                    }
                    EndReason::Stuck => panic!("wikipedia rounds never end stuck"),
                }
                let pips = self.hand_pips();
                for (s, &score) in scores.iter().enumerate() {
                    let want = pips.get(s).copied().unwrap_or(0);
                    assert_eq!(score, want, "seat {s} scored {score}, holds {want} pips ([0|0] counts 0)");
                }
                self.over = true;
            }
        }
    }
}

fn check_cache(what: &str, set: &TileSet) {
    assert_eq!((set.len(), set.pips()), set.recompute(), "{what}: cached len/pips differ from recomputation");
}

/// The engine's state on its own and against the ledger.
fn check_state(state: &RoundState, ledger: &Ledger, rules: &Rules) {
    let max = rules.set;
    // What every seat sees alike: the table, the markers, the obligations.
    let table = state.view(state.current());
    let played = table.played();
    check_cache("played", played);
    // Every tile lies in exactly one of the hands, the boneyard and the table, and each place
    // holds exactly what the ledger says. With `count == T`, no tile seen twice and every tile in
    // the set, the places partition the set.
    let mut seen = [0u8; mexican_train::tile::MAX_TILES];
    let mut count = 0;
    let mut visit = |t: Tile, want: Place, what: &str| {
        assert!(t.in_set(max), "{what} holds {t}, outside double-{max}");
        assert_eq!(ledger.place[t.index()], Some(want), "{what} holds {t}");
        seen[t.index()] += 1;
        assert_eq!(seen[t.index()], 1, "{t} lies in two places");
        count += 1;
    };
    for s in 0..ledger.players {
        let hand = state.hand(Seat::from_index(s));
        check_cache("hand", hand);
        assert_eq!(hand.len(), ledger.hand_len[s], "seat {s}'s hand size");
        for t in hand {
            visit(t, Place::Hand(s), "a hand");
        }
    }
    assert_eq!(state.boneyard().as_slice(), &ledger.boneyard[ledger.drawn..], "boneyard");
    for &t in state.boneyard().as_slice() {
        visit(t, Place::Boneyard, "the boneyard");
    }
    assert!(played.contains(table.engine().0), "the engine is on the table");
    for t in played {
        visit(t, Place::Table, "the table");
    }
    assert_eq!(count, rules.set_tiles(), "tiles not conserved");
    // Trains: the tiles laid on them are the table minus the engine.
    let on_trains: usize = table.train_ids().map(|id| table.train(id).len as usize).sum();
    assert_eq!(on_trains + 1, played.len(), "train lengths and played tiles disagree");
    for s in 0..ledger.players {
        assert_eq!(table.is_marked(Seat::from_index(s)), ledger.marked[s], "seat {s}'s marker");
    }
    assert!(table.pending().len() <= 1, "wikipedia has at most one obligation");
}

/// An upper bound on the turns of a round, known before it starts.
///
/// A turn is *idle* when it places no tile, draws none and changes no marker. Every other turn
/// does at least one of: place a tile (at most `T − 1` placements: each tile but the engine once),
/// draw (at most `B`, the boneyard), or put a marker on. A marker goes on again only after it came
/// off, and only a placement takes it off, so marker-ons are at most `N + placements`. Hence at
/// most `2(T − 1) + B + N` non-idle turns. Idle turns happen only with an empty boneyard (a seat
/// with nothing to play draws while it can), and N consecutive idle turns with an empty boneyard
/// end the round (blocked, ED-16); so at most `N − 1` idle turns follow each non-idle turn, plus a
/// final run of `N`. Total: `turns ≤ (non-idle + 1) · N ≤ (2(T − 1) + B + N + 1) · N`.
fn turn_bound(set_tiles: usize, boneyard: usize, players: usize) -> u32 {
    ((2 * (set_tiles - 1) + boneyard + players + 1) * players) as u32
}

/// The same bound from the round's actual counts: `(placements + draws + marks + 1) · N`.
fn actual_bound(ledger: &Ledger) -> u32 {
    (ledger.placements + ledger.drawn as u32 + ledger.marks + 1) * ledger.players as u32
}

fn play_checked_round(rules: &Rules, seed: u64, bots: &mut [Bot]) {
    let n = rules.players as usize;
    let mut rng = rng_from_seed(seed);
    let e = Pip::from_u8(below(&mut rng, u64::from(rules.set.get()) + 1) as u8);
    let first = Seat::from_index(below(&mut rng, n as u64) as usize);
    let deal = deal_round(rules, e, &mut rng);
    let bound = turn_bound(rules.set_tiles(), deal.boneyard.len(), n);
    let full = TileSet::full(rules.set);
    check_cache("full set", &full);
    assert_eq!(full.len(), rules.set_tiles());
    let mut rngs: Vec<GameRng> = (0..n).map(|s| rng_from_seed(mix(seed, stream::BOT + s as u64))).collect();
    let mut state = RoundState::new(rules, &deal, first);
    let mut ledger = Ledger::new(&deal);
    let mut moves = MoveList::new();
    for (s, bot) in bots.iter_mut().enumerate() {
        bot.round_start(&state.view(Seat::from_index(s)));
    }
    check_state(&state, &ledger, rules);
    loop {
        let step = state.advance(&mut moves, &mut ledger);
        check_state(&state, &ledger, rules);
        assert!(state.turns() <= bound, "{} turns exceed the bound {bound}", state.turns());
        match step {
            Step::Over => break,
            Step::Choice(seat, _) => {
                assert!(moves.len() >= 2, "a choice with {} moves", moves.len());
                let i = bots[seat.index()].choose(&state.view(seat), &moves, &mut rngs[seat.index()]);
                state.play(moves[i], &mut ledger).expect("an offered move is legal");
            }
        }
    }
    let out = *state.outcome().expect("over");
    assert!(ledger.over, "no RoundEnd event");
    let taken: u32 = (0..n).map(|s| u32::from(state.view(state.current()).turns_taken(Seat::from_index(s)))).sum();
    assert_eq!(out.turns, taken, "outcome turns and turns taken per seat");
    assert!(out.turns <= bound, "{} turns exceed the bound {bound}", out.turns);
    assert!(
        out.turns <= actual_bound(&ledger),
        "{} turns exceed (P + D + M + 1)·N = {}",
        out.turns,
        actual_bound(&ledger)
    );
    assert_eq!(out.draws as usize, ledger.drawn);
    assert_eq!(out.boneyard_left as usize, state.boneyard().len());
}

#[test]
fn invariants_hold_at_every_step_of_random_play() {
    let mut tables = Vec::new();
    for set in mexican_train::rules::SETS {
        let base = Rules { set: Pip::from_u8(set), ..Rules::wikipedia() };
        for (players, _) in base.deal_table.entries(set) {
            let rules = Rules { players, ..base.clone() };
            rules.validate().expect("deal-table rules are valid");
            tables.push(rules);
        }
    }
    let kinds = ["random", "greedy"];
    for i in 0..ROUNDS {
        let seed = mix(MASTER_SEED, i);
        let rules = &tables[(i % tables.len() as u64) as usize];
        let mut pick = rng_from_seed(mix(seed, stream::DEAL));
        let mut bots: Vec<Bot> = (0..rules.players)
            .map(|_| Bot::parse(kinds[below(&mut pick, 2) as usize]).expect("built-in bot"))
            .collect();
        play_checked_round(rules, seed, &mut bots);
    }
}
