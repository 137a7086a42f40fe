//! A match stepped one decision at a time ([`MatchState`]) is the match the runner plays: with
//! the choices the same bots make, every preset, table size and seed gives the same rounds,
//! scores, places and winners as [`play_match`].

use mexican_train::game::{MatchSeeds, MatchState};
use mexican_train::rng::rng_from_seed;
use mexican_train::round::MoveList;
use mexican_train::rules::{PRESETS, TableSpec};
use mexican_train::strategy::MatchStart;
use mexican_train::{Bot, NoObserver, Rules, Seat, Strategy, play_match};

/// Plays the match of `seed` through a [`MatchState`], asking `bots` as the runner asks them.
fn stepped(rules: &Rules, seed: u64, bots: &mut [Bot]) -> MatchState {
    let seeds = MatchSeeds::from_seed(seed);
    let mut st = MatchState::seeded(rules, &seeds);
    let mut rngs: Vec<_> = (0..bots.len()).map(|s| rng_from_seed(seeds.bots[s])).collect();
    for (s, bot) in bots.iter_mut().enumerate() {
        let start = MatchStart { rules, seat: Seat::from_index(s), game: 0, seed: seeds.bots[s] };
        bot.match_start(&start);
    }
    let mut round = 0;
    while let Some(seat) = st.current() {
        if st.round_number() != round {
            round = st.round_number();
            let state = st.round().unwrap();
            for (s, bot) in bots.iter_mut().enumerate() {
                bot.round_start(&state.view(Seat::from_index(s)));
            }
        }
        let i = {
            let view = st.view(seat).unwrap();
            let mut moves = MoveList::new();
            moves.set_from(st.legal());
            bots[seat.index()].choose(&view, &moves, &mut rngs[seat.index()])
        };
        st.apply(i);
    }
    st
}

#[test]
fn a_stepped_match_is_the_match_the_runner_plays() {
    let fields: [&[&str]; 3] = [
        &["greedy", "random"],
        &["planner", "cutthroat", "hoarder", "weighted"],
        &["random", "greedy", "planner", "random", "hoarder", "cutthroat"],
    ];
    let mut checked = 0;
    for preset in PRESETS {
        for field in fields {
            let rules = Rules { players: field.len() as u8, ..Rules::preset(preset.name).unwrap() };
            if rules.validate().is_err() {
                continue;
            }
            for seed in [1, 7, 42] {
                let mut a: Vec<Bot> = field.iter().map(|b| Bot::parse(b).unwrap()).collect();
                let mut b = a.clone();
                let played = play_match(&rules, seed, &mut a, &mut NoObserver);
                let st = stepped(&rules, seed, &mut b);
                assert!(st.is_over() && st.legal().is_empty());
                assert_eq!(st.result(), &played, "{} with {field:?}, seed {seed}", preset.name);
                checked += 1;
            }
        }
    }
    assert!(checked >= 30, "{checked} matches");
}

#[test]
fn a_state_clones_into_an_independent_copy() {
    let rules = Rules { players: 3, ..Rules::wikipedia() };
    let mut st = MatchState::new(&rules, 5);
    assert_eq!(st.round_number(), 1);
    assert!(st.legal().len() >= 2, "only real choices are asked for");
    let copy = st.clone();
    st.apply(0);
    // The copy is where the original was; playing the same move there gives the same state.
    let mut again = copy.clone();
    again.apply(0);
    assert_eq!((again.current(), again.legal().len()), (st.current(), st.legal().len()));
    assert_eq!(again.round().unwrap().turns(), st.round().unwrap().turns());
    assert_eq!(copy.round().unwrap().turns(), MatchState::new(&rules, 5).round().unwrap().turns());
}

#[test]
fn every_legal_move_has_one_number_that_gives_it_back() {
    use mexican_train::game::ActionSpace;
    let variations: [&[&str]; 5] =
        [&[], &["blanks_wild=true"], &["branching_doubles=four_way"], &["bullet_train=true"], &["swan_drive=true"]];
    let mut decisions = 0;
    for preset in PRESETS {
        for changes in variations {
            let table = TableSpec {
                preset: preset.name.to_string(),
                set: 12,
                players: 4,
                hand: None,
                rounds: Some(4),
                rules: changes.iter().map(|c| c.to_string()).collect(),
            };
            let Ok((rules, _)) = table.build() else { continue };
            let space = ActionSpace::new(&rules);
            for seed in [3, 11] {
                let mut st = MatchState::new(&rules, seed);
                let mut k = 0usize;
                while !st.is_over() {
                    let mut seen = std::collections::BTreeSet::new();
                    for &m in st.legal().iter() {
                        let a = space.encode(m).unwrap_or_else(|| panic!("{m} has no number"));
                        assert!(a < space.len());
                        assert_eq!(space.decode(a), Some(m));
                        assert!(seen.insert(a), "two moves numbered {a}");
                    }
                    decisions += 1;
                    k = k.wrapping_mul(31).wrapping_add(7);
                    st.apply(k % st.legal().len());
                }
            }
        }
    }
    assert!(decisions > 2000, "{decisions} decisions");
    let space = ActionSpace::new(&Rules::wikipedia());
    assert_eq!(space.len(), 91 * (4 + 1) + 3);
    assert_eq!(space.decode(space.len()), None);
}

#[test]
fn bots_in_every_seat_of_a_stepped_match_play_the_runners_match() {
    use mexican_train::game::BotSeats;
    for preset in PRESETS {
        let rules = Rules { players: 4, ..Rules::preset(preset.name).unwrap() };
        if rules.validate().is_err() {
            continue;
        }
        for seed in [2, 19] {
            let field = ["planner", "random", "cutthroat", "weighted"];
            let mut a: Vec<Bot> = field.iter().map(|b| Bot::parse(b).unwrap()).collect();
            let played = play_match(&rules, seed, &mut a, &mut NoObserver);
            let bots = field.iter().map(|b| Some(Bot::parse(b).unwrap())).collect();
            let (mut seats, mut st) = BotSeats::deal(&rules, &MatchSeeds::from_seed(seed), bots);
            seats.play(&mut st);
            assert!(st.is_over());
            assert_eq!(st.result(), &played, "{} seed {seed}", preset.name);
        }
    }
    // A seat without a bot is left to its player.
    let rules = Rules { players: 3, ..Rules::wikipedia() };
    let bots = vec![None, Some(Bot::parse("greedy").unwrap()), Some(Bot::parse("planner").unwrap())];
    let (mut seats, mut st) = BotSeats::deal(&rules, &MatchSeeds::from_seed(4), bots);
    seats.play(&mut st);
    while let Some(seat) = st.current() {
        assert_eq!(seat.index(), 0);
        seats.apply(&mut st, 0);
        seats.play(&mut st);
    }
    assert!(st.is_over() && !seats.is_bot(Seat::from_index(0)) && seats.is_bot(Seat::from_index(1)));
}

/// With a seat left to its player, the bots' turns played on the plain loop (where the rules
/// allow it) give the same match as the general turn machine: the same decisions offered to the
/// player, in the same positions, and the same result, under every preset and a house rule.
#[test]
fn bots_turns_on_the_plain_loop_are_the_general_machines() {
    use mexican_train::game::BotSeats;
    use mexican_train::rng::below;
    let mut tables: Vec<Rules> = PRESETS.iter().map(|p| Rules::preset(p.name).unwrap()).collect();
    tables.push(Rules { players: 3, ..Rules::wikipedia() });
    tables.push(Rules { players: 2, set: mexican_train::tile::Pip::new(9).unwrap(), ..Rules::wikipedia() });
    let mut plain_tables = 0;
    for (k, rules) in tables.iter().enumerate() {
        if rules.validate().is_err() {
            continue;
        }
        plain_tables += usize::from(MatchState::new(rules, 1).round().is_some_and(|r| r.plain_rules()));
        let n = rules.players as usize;
        // Seat 0 played from outside; with the third seed, seat n / 2 too (the bots' turns in
        // runs broken by another outside seat).
        for (seed, other) in [(3u64, 0), (40, 0), (77, n / 2)] {
            let field = ["greedy", "weighted", "random", "planner", "cutthroat"];
            let outside = |s: usize| s == 0 || s == other;
            let bots =
                || (0..n).map(|s| (!outside(s)).then(|| Bot::parse(field[(s + k) % field.len()]).unwrap())).collect();
            let deal = |bots| BotSeats::deal(rules, &MatchSeeds::from_seed(seed), bots);
            let ((fast, mut a), (general, mut b)) = (deal(bots()), deal(bots()));
            let (mut fast, mut general) = (fast, general.general_only());
            let mut pick = rng_from_seed(seed);
            let mut decisions = 0;
            loop {
                fast.play(&mut a);
                general.play(&mut b);
                assert_eq!(a.current(), b.current(), "table {k} seed {seed} decision {decisions}");
                let Some(seat) = a.current() else { break };
                assert!(outside(seat.index()), "seat {seat} has a bot");
                let (la, lb): (Vec<String>, Vec<String>) = (
                    a.legal().iter().map(|m| m.to_string()).collect(),
                    b.legal().iter().map(|m| m.to_string()).collect(),
                );
                assert_eq!(la, lb, "table {k} seed {seed} decision {decisions}");
                assert_eq!(a.round().map(|r| r.turns()), b.round().map(|r| r.turns()));
                let i = below(&mut pick, la.len() as u64) as usize;
                fast.apply(&mut a, i);
                general.apply(&mut b, i);
                decisions += 1;
            }
            assert!(decisions > 20, "table {k} seed {seed}: {decisions} decisions");
            assert_eq!(a.result(), b.result(), "table {k} seed {seed}");
        }
    }
    assert!(plain_tables >= 2, "the plain loop was tried on {plain_tables} tables");
}

/// A `VecEnv` row rewritten only where it changed (`ObservationLayout::write_changes`) is, at
/// every decision of whole matches (rounds ending, hands refilled, every preset, several seats),
/// the observation written whole; and a fresh `Shown` writes a row full of stale numbers whole.
/// Rows are also written at some of the other seats' decisions, so the seat to act moves, and
/// skip some of the seat's own, so several turns' changes meet in one write.
#[test]
fn an_observation_written_by_its_changes_is_the_observation_written_whole() {
    use mexican_train::game::{ObservationLayout, Shown};
    let mut decisions = 0;
    for preset in PRESETS {
        let table = TableSpec {
            preset: preset.name.to_string(),
            set: 12,
            players: 3,
            hand: None,
            rounds: Some(3),
            rules: Vec::new(),
        };
        let (rules, _) = table.build().expect("a preset builds");
        let layout = ObservationLayout::new(&rules);
        for (seed, seat) in [(5u64, 0usize), (6, 2)] {
            let seat = Seat::from_index(seat);
            let mut kept = vec![7.0f32; layout.len()];
            let mut shown = Shown::default();
            let mut st = MatchState::new(&rules, seed);
            let mut k = 0usize;
            while !st.is_over() {
                let look = if st.current() == Some(seat) { !k.is_multiple_of(5) } else { k.is_multiple_of(3) };
                if look {
                    let view = st.view(seat).expect("a round in play");
                    let mut whole = vec![0.0f32; layout.len()];
                    layout.write(&view, st.round_number(), st.current(), &mut whole);
                    layout.write_changes(&view, st.round_number(), st.current(), &mut kept, &mut shown);
                    assert_eq!(kept, whole, "{} seed {seed}, round {}", preset.name, st.round_number());
                    decisions += 1;
                }
                k = k.wrapping_mul(31).wrapping_add(7);
                st.apply(k % st.legal().len());
            }
        }
    }
    assert!(decisions > 300, "{decisions} decisions");
}
