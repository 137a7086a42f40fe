//! The plain turn loop (src/round/plain.rs) plays exactly the game the general turn machine
//! plays: over random rule combinations, deals and bots, `play_round` and
//! `play_round_general` give the same events, the same strategy calls (move lists and picks),
//! the same outcome and the same final state, also when handed a round in the middle of a turn.

use mexican_train::game::play_round_general;
use mexican_train::rng::{below, mix, rng_from_seed};
use mexican_train::rules::{
    EngineMode, FirstPlayer, GoOutOnDouble, MarkerRemoval, MexicanStart, Obligation, ObligationOrder, Opening,
    Probability, SETS, TapModel,
};
use mexican_train::*;

/// Every event, in order.
#[derive(Default)]
struct Recorder(Vec<Event>);

impl Observer for Recorder {
    fn event(&mut self, ev: &Event) {
        self.0.push(*ev);
    }
}

/// One strategy call: the seat's hand, every seat's publicly known voids (exact and loosened), the moves offered,
/// the pick.
type Call = (TileSet, Vec<(u32, [u32; mexican_train::round::LOOSE_LEVELS])>, Vec<Move>, usize);

/// Everything observable of a round: outcome, events, each seat's calls, the final state.
type Played = (Outcome, Vec<Event>, Vec<Vec<Call>>, String);

/// A bot that logs every call.
struct Logged {
    bot: Bot,
    log: Vec<Call>,
}

impl Strategy for Logged {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        let k = self.bot.choose(view, moves, rng);
        let voids = (0..view.players())
            .map(|s| (view.known_voids(Seat::from_index(s as usize)), view.loose_voids(Seat::from_index(s as usize))))
            .collect();
        self.log.push((*view.hand(), voids, moves.to_vec(), k));
        k
    }
    fn round_start(&mut self, view: &View<'_>) {
        self.bot.round_start(view);
    }
    fn needs(&self) -> Needs {
        Needs::SAFE.voids(self.bot.needs().voids)
    }
}

/// Rules built around `wikipedia` or `harbour_cay` with every option the plain loop handles
/// drawn at random; now and then one it does not handle (the general machine then plays alone);
/// one time in six the `wikipedia` preset itself.
fn random_rules(rng: &mut GameRng) -> Rules {
    let flip = |rng: &mut GameRng| below(rng, 2) == 1;
    let mut r = if flip(rng) { Rules::wikipedia() } else { Rules::preset("harbour_cay").unwrap() };
    r.first_turn_own_train_only = flip(rng);
    r.mark_on_empty_boneyard = flip(rng);
    r.last_of_suit_exempt = flip(rng);
    r.reprivatise_exempt = flip(rng);
    r.parsons_first_move = flip(rng);
    r.only_others_unmark = flip(rng);
    r.obligation_overrides_first_turn = flip(rng);
    r.followup_draw_per_double = flip(rng);
    r.early_end_when_stuck = flip(rng);
    r.double_blank_value = if flip(rng) { 50 } else { 0 };
    r.blank_half_value = if flip(rng) { 25 } else { 0 };
    r.go_out_on_double = if flip(rng) { GoOutOnDouble::MustCover } else { GoOutOnDouble::Allowed };
    r.max_mexican_trains = below(rng, 3) as u8;
    r.marker_removal = [MarkerRemoval::AnyPlayOnTrain, MarkerRemoval::OwnerOnOwnTrain, MarkerRemoval::OwnerAnywhere]
        [below(rng, 3) as usize];
    r.mexican_start = [
        MexicanStart::AnyTime,
        MexicanStart::OnlyIfNoOtherPlay,
        MexicanStart::RequiresOwnTrainPlay,
        MexicanStart::AfterOpeningGoRound,
    ][below(rng, 4) as usize];
    r.obligation =
        [Obligation::None, Obligation::UncoveredDouble, Obligation::LastDoubleOfTurn, Obligation::AllUncovered]
            [below(rng, 4) as usize];
    r.obligation_order = if flip(rng) { ObligationOrder::Fifo } else { ObligationOrder::Lifo };
    if flip(rng) {
        r.engine_mode = [
            EngineMode::HolderElseDrawSequential,
            EngineMode::HolderElseDrawRounds,
            EngineMode::HighestUnusedDoubleInHands,
            EngineMode::GaltFirstPlayerHighestDouble,
            EngineMode::SetAside,
        ][below(rng, 5) as usize];
        if r.engine_mode != EngineMode::SetAside {
            r.first_player = FirstPlayer::EnginePlacer;
        }
    }
    match below(rng, 10) {
        0 => r.swan_drive = true,
        1 => r.opening = Opening::DelayedFirstTurn,
        2 => r.partnerships = true,
        _ => {}
    }
    // The house rules' keys: a tap penalty with its coins, the uncovered-double penalty
    // (neither plain: the general machine plays them alone, as it must, every coin included).
    match below(rng, 20) {
        0 => {
            r.tap = if flip(rng) { TapModel::DrawTwo } else { TapModel::DrawOneElseSkip };
            r.tap_forget = Probability::from_millionths(below(rng, 1_000_001) as u32).unwrap();
            r.tap_catch = Probability::from_millionths(below(rng, 1_000_001) as u32).unwrap();
        }
        1 => r.uncovered_double_penalty = 1 + below(rng, 4) as u8,
        _ => {}
    }
    r.set = Pip::from_u8(SETS[below(rng, SETS.len() as u64) as usize]);
    let entries: Vec<(u8, u8)> = r.deal_table.entries(r.set.get()).collect();
    if entries.is_empty() {
        r.set = Pip::from_u8(12);
    }
    let entries: Vec<(u8, u8)> = r.deal_table.entries(r.set.get()).collect();
    r.players = entries[below(rng, entries.len() as u64) as usize].0;
    // One time in six, the `wikipedia` preset itself at the table's size, whose runs the kernel
    // compiles with the preset's rule facts as constants.
    if below(rng, 6) == 0 {
        let mut w = Rules::wikipedia();
        w.set = r.set;
        let entries: Vec<(u8, u8)> = w.deal_table.entries(w.set.get()).collect();
        if !entries.is_empty() {
            w.players = entries[below(rng, entries.len() as u64) as usize].0;
            return w;
        }
    }
    r
}

/// A round ready to play: dealt from `seed`, engine `e`.
fn new_round(rules: &Rules, seed: u64) -> RoundState {
    let mut rng = rng_from_seed(seed);
    let e = rules.engine_of_round(1 + below(&mut rng, 3) as u8);
    let set_aside = rules.engine_mode == EngineMode::SetAside;
    let deal = deal::deal(rules, e, set_aside, &mut rng);
    let n = rules.players as usize;
    let lead = Seat::from_index(below(&mut rng, n as u64) as usize);
    let setup = round::RoundSetup { e, engine_mode: rules.engine_mode, lead, first: lead, used_doubles: 0 };
    let mut state = RoundState::with_setup(rules, &deal, setup);
    state.set_tap_seed(mix(seed, 3));
    state
}

/// Below `most` steps of the general machine with random moves (stopping if the round ends):
/// a round handed over to the plain loop in the middle of play.
fn random_steps(state: &mut RoundState, rng: &mut GameRng, most: u64) {
    let mut moves = MoveList::new();
    for _ in 0..below(rng, most) {
        match state.advance(&mut moves, &mut NoObserver) {
            Step::Over => break,
            Step::Choice(..) => {
                let m = moves[below(rng, moves.len() as u64) as usize];
                state.play(m, &mut NoObserver).unwrap();
            }
        }
    }
}

/// Plays `state` to the end with `general` or not; returns everything observable.
fn play(mut state: RoundState, specs: &[&str], seed: u64, general: bool) -> Played {
    let n = state.view(state.current()).players() as usize;
    let mut bots: Vec<Logged> =
        (0..n).map(|s| Logged { bot: Bot::parse(specs[s % specs.len()]).unwrap(), log: Vec::new() }).collect();
    let mut rngs: Vec<GameRng> = (0..n).map(|s| rng_from_seed(mix(seed, s as u64))).collect();
    let mut moves = MoveList::new();
    let mut rec = Recorder::default();
    let out = if general {
        play_round_general(&mut state, &mut bots, &mut rngs, &mut moves, &mut rec)
    } else {
        play_round(&mut state, &mut bots, &mut rngs, &mut moves, &mut rec)
    };
    (out, rec.0, bots.into_iter().map(|b| b.log).collect(), format!("{state:?}"))
}

#[test]
fn plain_loop_plays_the_general_game() {
    let mut rng = rng_from_seed(2026);
    let lineups: [&[&str]; 5] = [
        &["greedy", "random"],
        &["greedy:ties=random", "planner", "random"],
        &["hoarder", "random", "greedy"],
        &["random"],
        &["cutthroat", "greedy", "random"],
    ];
    let (mut plain, mut rounds, mut decisions, mut mid_turn, mut house) = (0, 0, 0, 0, 0);
    for i in 0..1500u64 {
        let rules = random_rules(&mut rng);
        if rules.validate().is_err() {
            continue;
        }
        let mut state = new_round(&rules, mix(i, 1));
        if state.plain_rules() {
            plain += 1;
        }
        // Half the time, hand over in the middle of play: a few random general steps first.
        if i % 2 == 1 {
            random_steps(&mut state, &mut rng, 40);
            if !state.is_over() {
                mid_turn += 1;
            }
        }
        if rules.tap_coins() || rules.uncovered_double_penalty > 0 {
            house += 1;
        }
        let lineup = lineups[i as usize % lineups.len()];
        let a = play(state.clone(), lineup, i, false);
        let b = play(state, lineup, i, true);
        assert_eq!(a.0, b.0, "outcome, case {i}: {rules:?}");
        assert_eq!(a.1, b.1, "events, case {i}: {rules:?}");
        assert_eq!(a.2, b.2, "strategy calls, case {i}: {rules:?}");
        assert_eq!(a.3, b.3, "final state, case {i}: {rules:?}");
        rounds += 1;
        decisions += a.2.iter().map(Vec::len).sum::<usize>();
    }
    assert!(rounds > 1200, "only {rounds} rule combinations validated");
    assert!(plain > 800, "the plain loop ran in only {plain} rounds");
    assert!(mid_turn > 500, "only {mid_turn} rounds handed over mid-play");
    assert!(decisions > 20_000, "only {decisions} decisions compared");
    assert!(house > 60, "only {house} rounds under the house rules' keys");
}

/// Plays `state` to the end with the bots of `specs` themselves (not wrapped): a
/// heaviest-first `greedy` is then picked for by the plain loop without a move list, and while
/// no seat reads voids its turns are played by the plain-rules kernel (round/kernel.rs).
fn play_bare(mut state: RoundState, specs: &[&str], seed: u64, general: bool) -> (Outcome, Vec<Event>, String) {
    let n = state.view(state.current()).players() as usize;
    let mut bots: Vec<Bot> = (0..n).map(|s| Bot::parse(specs[s % specs.len()]).unwrap()).collect();
    let mut rngs: Vec<GameRng> = (0..n).map(|s| rng_from_seed(mix(seed, s as u64))).collect();
    let mut moves = MoveList::new();
    let mut rec = Recorder::default();
    let out = if general {
        play_round_general(&mut state, &mut bots, &mut rngs, &mut moves, &mut rec)
    } else {
        play_round(&mut state, &mut bots, &mut rngs, &mut moves, &mut rec)
    };
    (out, rec.0, format!("{state:?}"))
}

/// Plays 3,000 random rule combinations (salted with `salt`), a third of them handed over
/// mid-play, with the bare bots of `lineups` both ways, and compares outcomes, events and final
/// states; returns how many rounds ran plain and the decisions compared.
fn compare_bare(seed: u64, salt: u64, lineups: &[&[&str]]) -> (u32, u64) {
    let mut rng = rng_from_seed(seed);
    let (mut plain, mut decisions) = (0, 0u64);
    for i in 0..3000u64 {
        let rules = random_rules(&mut rng);
        if rules.validate().is_err() {
            continue;
        }
        let mut state = new_round(&rules, mix(i, salt));
        if state.plain_rules() {
            plain += 1;
        }
        // A third of the time, hand over in the middle of play: a few random general steps first.
        if i % 3 == 2 {
            random_steps(&mut state, &mut rng, 60);
        }
        let lineup = lineups[i as usize % lineups.len()];
        let a = play_bare(state.clone(), lineup, i, false);
        let b = play_bare(state, lineup, i, true);
        assert_eq!(a.0, b.0, "outcome, case {i}: {rules:?}");
        assert_eq!(a.1, b.1, "events, case {i}: {rules:?}");
        assert_eq!(a.2, b.2, "final state, case {i}: {rules:?}");
        decisions += u64::from(a.0.decisions);
    }
    (plain, decisions)
}

#[test]
fn the_plain_loops_heaviest_pick_is_greedys() {
    let lineups: [&[&str]; 4] =
        [&["greedy"], &["greedy", "random"], &["planner", "greedy", "greedy:ties=random"], &["greedy", "hoarder"]];
    let (plain, decisions) = compare_bare(2027, 2, &lineups);
    assert!(plain > 1600, "the plain loop ran in only {plain} rounds");
    assert!(decisions > 40_000, "only {decisions} decisions compared");
}

#[test]
fn plain_rules_cover_the_common_presets() {
    let deal = deal_round(&Rules::wikipedia(), Pip::from_u8(12), &mut rng_from_seed(1));
    let st = RoundState::new(&Rules::wikipedia(), &deal, Seat::from_index(0));
    assert!(st.plain_rules());
    for (name, plain) in [
        ("wikipedia", true),
        ("harbour_cay", true),
        ("celko1998", false),
        ("dominorules", false),
        ("family_house", false),
    ] {
        let r = Rules::preset(name).unwrap();
        let set_aside = r.engine_mode == EngineMode::SetAside;
        let d = deal::deal(&r, Pip::from_u8(12), set_aside, &mut rng_from_seed(3));
        let setup = round::RoundSetup {
            e: Pip::from_u8(12),
            engine_mode: r.engine_mode,
            lead: Seat::from_index(0),
            first: Seat::from_index(0),
            used_doubles: 0,
        };
        assert_eq!(RoundState::with_setup(&r, &d, setup).plain_rules(), plain, "{name}");
    }
    let swan = Rules { swan_drive: true, ..Rules::wikipedia() };
    assert!(!RoundState::new(&swan, &deal, Seat::from_index(0)).plain_rules());
}

/// A seat played from outside (a learner's: `BotSeats` with no bot there): the plain loop plays
/// the bots' turns and that seat's turns up to its first real choice, where it stops in the
/// state the general machine stops in. Over random rule combinations (most of them plain), one
/// or two seats played from outside, void records kept or not: at every decision the same seat
/// to act, the same moves in the same order and the same round state (every field), and in the
/// end the same match.
#[test]
fn a_seat_played_from_outside_stops_the_plain_loop_where_the_general_machine_stops() {
    use mexican_train::game::{BotSeats, MatchSeeds, MatchState};
    let mut rng = rng_from_seed(4048);
    let field = ["greedy", "weighted", "random", "planner", "greedy:ties=random"];
    let (mut matches, mut plain, mut decisions) = (0, 0, 0);
    for i in 0..400u64 {
        let mut rules = random_rules(&mut rng);
        rules.rounds = Some(2);
        if rules.validate().is_err() {
            continue;
        }
        let n = rules.players as usize;
        let other = if i % 3 == 0 { n / 2 } else { 0 };
        let outside = |s: usize| s == 0 || s == other;
        let bots = || -> Vec<Option<Bot>> {
            (0..n).map(|s| (!outside(s)).then(|| Bot::parse(field[(s + i as usize) % field.len()]).unwrap())).collect()
        };
        let seeds = MatchSeeds::from_seed(mix(i, 7));
        let (mut fast, mut a) = BotSeats::deal(&rules, &seeds, bots());
        let (general, mut b) = BotSeats::deal(&rules, &seeds, bots());
        let mut general = general.general_only();
        if i % 2 == 0 {
            fast.outside_reads_no_voids(&mut a);
            general.outside_reads_no_voids(&mut b);
        }
        plain += usize::from(a.round().is_some_and(RoundState::plain_rules));
        let mut pick = rng_from_seed(i);
        loop {
            fast.play(&mut a);
            general.play(&mut b);
            assert_eq!(a.current(), b.current(), "case {i}, decision {decisions}: {rules:?}");
            let Some(seat) = a.current() else { break };
            assert!(outside(seat.index()), "case {i}: seat {seat} has a bot");
            assert_eq!(a.legal(), b.legal(), "case {i}, decision {decisions}: {rules:?}");
            // Void records apart where nobody reads them: the general machine keeps them from
            // the second round on (`outside_reads_no_voids` turns them off in the plain loop's
            // rounds only); they inform, and the cases with them kept compare them too.
            let state = |st: &MatchState| {
                let s = format!("{:?}", st.round());
                match (i % 2 == 0, s.find("voids: Voids {"), s.find("stats: RoundStats {")) {
                    (true, Some(from), Some(to)) => format!("{}{}", &s[..from], &s[to..]),
                    _ => s,
                }
            };
            assert_eq!(state(&a), state(&b), "case {i}, decision {decisions}: {rules:?}");
            let k = below(&mut pick, a.legal().len() as u64) as usize;
            fast.apply(&mut a, k);
            general.apply(&mut b, k);
            decisions += 1;
        }
        assert_eq!(a.result(), b.result(), "case {i}: {rules:?}");
        matches += 1;
    }
    assert!(matches > 300, "only {matches} rule combinations validated");
    assert!(plain > 200, "the plain loop ran in only {plain} matches");
    assert!(decisions > 6_000, "only {decisions} decisions compared");
}

/// A table of `weighted` seats plays its turns on the listing kernel (round/kernel.rs), which
/// keeps the void records `weighted` reads: the same game as the general machine.
#[test]
fn the_listing_kernel_plays_weighteds_game() {
    let lineups: [&[&str]; 3] =
        [&["weighted"], &["weighted", "weighted:set=hand"], &["weighted:set=celko1998", "weighted"]];
    let (plain, decisions) = compare_bare(2028, 3, &lineups);
    assert!(plain > 1600, "the plain loop ran in only {plain} rounds");
    assert!(decisions > 40_000, "only {decisions} decisions compared");
}
