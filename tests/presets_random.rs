//! Random play under every preset, every deal-table entry, and random combinations of options
//! that validate: it never panics, always conserves tiles, keeps caches exact, and ends.

use mexican_train::rng::{below, mix, rng_from_seed};
use mexican_train::rules::{
    BranchingDoubles, DoublesPerTurn, EngineMode, FirstPlayer, FollowUp, GoOutOnDouble, MarkerRemoval, MexicanStart,
    Obligation, ObligationOrder, Opening, PRESETS, SETS, TapModel,
};
use mexican_train::*;

fn pip(v: u8) -> Pip {
    Pip::from_u8(v)
}

/// Plays one round with uniformly random choices, checking invariants at every decision.
/// Returns the outcome, the number of decisions, the engine number and the branches opened.
fn play_checked(rules: &Rules, r: u8, seed: u64, used: u32) -> (Outcome, u32, Pip, usize) {
    let mut rng = rng_from_seed(seed);
    let e = rules.engine_of_round(r);
    let mode = if rules.set_aside_from_round2 && r >= 2 { EngineMode::SetAside } else { rules.engine_mode };
    let deal = loop {
        let d = deal::deal(rules, e, mode == EngineMode::SetAside, &mut rng);
        if mode != EngineMode::HolderElseHighestOfNumberElseRedeal || !d.no_hand_shows(e) {
            break d;
        }
    };
    let n = rules.players as usize;
    let lead = Seat::from_index(below(&mut rng, n as u64) as usize);
    let setup = round::RoundSetup { e, engine_mode: mode, lead, first: lead, used_doubles: used };
    let mut st = RoundState::with_setup(rules, &deal, setup);
    let full = TileSet::full(rules.set);
    let mut moves = MoveList::new();
    let mut decisions = 0;
    let bound = 4 * (full.len() as u32 + 1) * n as u32 + 100;
    loop {
        let step = st.advance(&mut moves, &mut NoObserver);
        // Conservation: hands, boneyard and table partition the set (the engine is on the
        // table once placed; before that it is in a hand or the boneyard).
        let mut seen = st.view(st.current()).played().to_owned();
        let mut count = seen.len();
        for s in 0..n {
            let h = st.hand(Seat::from_index(s));
            assert_eq!(h.recompute(), (h.len(), h.pips()), "hand cache");
            assert!(h.intersect(&seen).is_empty(), "a tile in two places");
            seen = seen.union(h);
            count += h.len();
        }
        for &t in st.boneyard().as_slice() {
            assert!(seen.insert(t), "boneyard tile {t} also elsewhere");
            count += 1;
        }
        assert_eq!((count, seen), (full.len(), full), "tiles not conserved under {:?}", rules.preset);
        // Void inference is sound: a seat known void in v holds no tile fitting an end v.
        for s in 0..n {
            let seat = Seat::from_index(s);
            let voids = st.view(seat).known_voids(seat);
            for t in st.hand(seat) {
                if st.view(seat).drawn() == Some(t) {
                    continue; // just drawn and about to be played: the void held before the draw
                }
                for v in 0..=rules.set.get() {
                    let fits = t.contains(pip(v)) || (rules.blanks_wild && (t.contains(pip(0)) || v == 0));
                    assert!(
                        voids & (1 << v) == 0 || !fits,
                        "seat {s} holds {t} but is known void in {v} under {:?} at turn {} seed {seed}",
                        rules.preset,
                        st.turns()
                    );
                }
            }
            // Loosened records: at most l + 1 tiles of the hand fit level l.
            for (l, &mask) in st.view(seat).loose_voids(seat).iter().enumerate() {
                let fitting = st
                    .hand(seat)
                    .iter()
                    .filter(|&t| st.view(seat).drawn() != Some(t))
                    .filter(|&t| {
                        (0..=rules.set.get()).any(|v| {
                            mask & (1 << v) != 0
                                && (t.contains(pip(v)) || (rules.blanks_wild && (t.contains(pip(0)) || v == 0)))
                        })
                    })
                    .count();
                assert!(
                    fitting <= l + 1,
                    "seat {s} holds {fitting} tiles fitting loose level {l} ({mask:#b}) under {:?} at turn {} seed {seed}",
                    rules.preset,
                    st.turns()
                );
            }
        }
        match step {
            Step::Over => break,
            Step::Choice(_, _) => {
                assert!(moves.len() >= 2);
                let m = moves[below(&mut rng, moves.len() as u64) as usize];
                st.play(m, &mut NoObserver).expect("offered move is legal");
                decisions += 1;
                assert!(decisions < bound, "round does not end");
            }
        }
    }
    (*st.outcome().unwrap(), decisions, st.view(st.current()).engine().1, st.branches())
}

#[test]
fn every_preset_and_table_entry_plays_cleanly() {
    let mut rounds = 0;
    for info in PRESETS {
        let base = Rules::preset(info.name).unwrap();
        for set in SETS {
            for (players, _) in base.deal_table.entries(set) {
                let rules = Rules { set: Pip::from_u8(set), players, ..base.clone() };
                rules.validate().unwrap();
                let mut used = 0u32;
                for r in 1..=rules.round_count().min(6) {
                    let (out, _, e, _) =
                        play_checked(&rules, r, mix(set as u64 * 100 + players as u64, r as u64), used);
                    used |= 1 << e.get();
                    let scored: u32 = out.scores[..players as usize].iter().sum();
                    if let EndReason::Out(s) = out.reason {
                        assert_eq!(out.scores[s.index()], 0);
                    }
                    assert!(scored > 0 || matches!(out.reason, EndReason::Out(_)));
                    rounds += 1;
                }
            }
        }
    }
    assert!(rounds > 200);
}

#[test]
fn every_preset_plays_full_matches_for_every_player_count() {
    for info in PRESETS {
        let base = Rules::preset(info.name).unwrap();
        for (players, _) in base.deal_table.entries(base.set.get()) {
            let rules = Rules { players, ..base.clone() };
            let mut bots: Vec<Bot> =
                (0..players).map(|s| Bot::parse(if s % 2 == 0 { "greedy" } else { "random" }).unwrap()).collect();
            let r = play_match(&rules, 3, &mut bots, &mut NoObserver);
            assert_eq!(r.rounds, rules.round_count(), "{} {players}p", info.name);
            assert!(r.winners != 0);
            if rules.engine_mode == EngineMode::HighestUnusedDoubleInHands {
                let engines: u32 = r.round_records().fold(0, |m, rec| m | 1 << rec.engine.get());
                assert_eq!(engines.count_ones(), 13);
            }
        }
    }
}

/// Random combinations of the options the engine plays, on every preset.
#[test]
fn random_option_combinations_never_break() {
    let mut rng = rng_from_seed(77);
    let mut played = 0;
    let mut branches = 0;
    for i in 0..2000u64 {
        let info = &PRESETS[below(&mut rng, PRESETS.len() as u64) as usize];
        let mut r = Rules::preset(info.name).unwrap();
        let flip = |rng: &mut GameRng| below(rng, 2) == 1;
        r.first_turn_own_train_only = flip(&mut rng);
        r.mark_on_empty_boneyard = flip(&mut rng);
        r.last_of_suit_exempt = flip(&mut rng);
        r.reprivatise_exempt = flip(&mut rng);
        r.parsons_first_move = flip(&mut rng);
        r.doubler_exempt_on_foreign_train = flip(&mut rng);
        r.only_others_unmark = flip(&mut rng);
        r.marked_owner_must_prefer_own_train = flip(&mut rng);
        r.obligation_overrides_first_turn = flip(&mut rng);
        r.followup_draw_per_double = flip(&mut rng);
        r.early_end_when_stuck = flip(&mut rng);
        r.double_blank_value = if flip(&mut rng) { 50 } else { 0 };
        r.partnerships = flip(&mut rng);
        r.double_makes_train_public = flip(&mut rng);
        r.continuous_draw = flip(&mut rng);
        r.go_out_on_double = if flip(&mut rng) { GoOutOnDouble::MustCover } else { GoOutOnDouble::Allowed };
        r.blank_half_value = if flip(&mut rng) { 25 } else { 0 };
        r.max_mexican_trains = below(&mut rng, 3) as u8;
        r.marker_removal =
            [MarkerRemoval::AnyPlayOnTrain, MarkerRemoval::OwnerOnOwnTrain, MarkerRemoval::OwnerAnywhere]
                [below(&mut rng, 3) as usize];
        r.mexican_start = [
            MexicanStart::AnyTime,
            MexicanStart::OnlyIfNoOtherPlay,
            MexicanStart::RequiresOwnTrainPlay,
            MexicanStart::AfterOpeningGoRound,
        ][below(&mut rng, 4) as usize];
        r.obligation =
            [Obligation::None, Obligation::UncoveredDouble, Obligation::LastDoubleOfTurn, Obligation::AllUncovered]
                [below(&mut rng, 4) as usize];
        r.obligation_order = if flip(&mut rng) { ObligationOrder::Fifo } else { ObligationOrder::Lifo };
        if flip(&mut rng) {
            r.opening = [Opening::FastBuild, Opening::OneTile, Opening::DelayedFirstTurn][below(&mut rng, 3) as usize];
        }
        r.bullet_train = flip(&mut rng);
        r.swan_drive = flip(&mut rng);
        r.blanks_wild = below(&mut rng, 4) == 0;
        if !r.blanks_wild {
            r.branching_doubles =
                [BranchingDoubles::Off, BranchingDoubles::FourWay, BranchingDoubles::FourWayTripleCover]
                    [below(&mut rng, 3) as usize];
        }
        r.tap = [TapModel::AlwaysAnnounced, TapModel::DrawTwo, TapModel::DrawOneElseSkip][below(&mut rng, 3) as usize];
        (r.follow_up, r.doubles_per_turn) = [
            (FollowUp::CoverSameDouble, DoublesPerTurn::Unlimited),
            (FollowUp::CoverSameDouble, DoublesPerTurn::One),
            (FollowUp::AnyEligible, DoublesPerTurn::One),
            (FollowUp::AnyEligible, DoublesPerTurn::Unlimited),
            (FollowUp::AnyEligibleWithSecondDouble, DoublesPerTurn::Two),
            (FollowUp::Optional, DoublesPerTurn::One),
        ][below(&mut rng, 6) as usize];
        if r.follow_up == FollowUp::Optional {
            r.obligation = Obligation::None;
        }
        if r.engine_mode != EngineMode::SetAside && flip(&mut rng) {
            r.engine_mode = [
                EngineMode::HolderElseDrawSequential,
                EngineMode::HolderElseDrawRounds,
                EngineMode::HighestUnusedDoubleInHands,
                EngineMode::HolderElseHighestOfNumberElseRedeal,
                EngineMode::GaltFirstPlayerHighestDouble,
            ][below(&mut rng, 5) as usize];
            if flip(&mut rng) {
                r.first_player = [FirstPlayer::Rotating, FirstPlayer::HighestPipDraw, FirstPlayer::HolderOfTopDouble]
                    [below(&mut rng, 3) as usize];
            }
            if !matches!(
                r.engine_mode,
                EngineMode::HighestUnusedDoubleInHands | EngineMode::GaltFirstPlayerHighestDouble
            ) && flip(&mut rng)
            {
                r.set_aside_from_round2 = true;
                r.first_player = FirstPlayer::PreviousOut;
            }
        }
        let entries: Vec<(u8, u8)> = r.deal_table.entries(r.set.get()).collect();
        r.players = entries[below(&mut rng, entries.len() as u64) as usize].0;
        if r.validate().is_err() {
            continue;
        }
        let mut used = 0;
        for round in 1..=3 {
            let (_, _, e, b) = play_checked(&r, round, mix(i, round as u64), used);
            branches += b;
            used |= 1 << e.get();
        }
        let mut bots: Vec<Bot> = (0..r.players).map(|_| Bot::parse("random").unwrap()).collect();
        let short = Rules { rounds: Some(4), ..r.clone() };
        assert_eq!(play_match(&short, i, &mut bots, &mut NoObserver).rounds, 4);
        played += 1;
    }
    assert!(played > 700, "only {played} combinations validated");
    assert!(branches > 500, "branching doubles barely exercised: {branches} branches");
}
