//! Preset constructors, one per source text; `mtrain rules PRESET` and `docs/rules.md` give the
//! source of every value. The engine never sees a preset name.

use super::*;
use crate::error::InvalidInput;

/// A preset's id and a one-line description.
pub struct PresetInfo {
    /// Command-line id.
    pub name: &'static str,
    /// What it is, in one line.
    pub about: &'static str,
}

/// The five presets.
pub const PRESETS: &[PresetInfo] = &[
    PresetInfo {
        name: "celko1998",
        about: "Celko 1998: engine from a hand, build phase, anyone's play lifts a marker, chains of doubles, LIFO",
    },
    PresetInfo {
        name: "wikipedia",
        about: "Encyclopedia consensus: engine set aside, cover the same double, owner unmarks, last-of-suit exemption",
    },
    PresetInfo {
        name: "dominorules",
        about: "dominorules.com: follow-up anywhere, a second double with a third tile from hand, random first player",
    },
    PresetInfo {
        name: "family_house",
        about: "Family house rules: engine from drawing rounds, marker off on any own play, every open double obliges (FIFO)",
    },
    PresetInfo {
        name: "harbour_cay",
        about: "Great Harbour Cay: highest tile of the number if no double, own train first, stuck rounds end, 0-0 = 50",
    },
];

pub(super) fn by_name(name: &str) -> Result<Rules, InvalidInput> {
    match name {
        "celko1998" => Ok(celko1998()),
        "wikipedia" => Ok(wikipedia()),
        "dominorules" => Ok(dominorules()),
        "family_house" => Ok(family_house()),
        "harbour_cay" => Ok(harbour_cay()),
        _ => Err(InvalidInput(format!(
            "unknown rules preset '{name}' (valid: {})",
            PRESETS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// `wikipedia`: the Encyclopedia consensus.
pub(super) fn wikipedia() -> Rules {
    Rules {
        preset: Preset::Wikipedia,
        set: Pip::from_u8(12),
        players: 4,
        hand_size: None,
        deal_table: DealTable::WIKIPEDIA,
        rounds: None,
        engine_mode: EngineMode::SetAside,
        first_player: FirstPlayer::Rotating,
        set_aside_from_round2: false,
        first_seat: FirstSeat::Seat(0),
        opening: Opening::OneTile,
        first_turn_own_train_only: true,
        mexican_start: MexicanStart::AnyTime,
        max_mexican_trains: 1,
        marker_removal: MarkerRemoval::OwnerOnOwnTrain,
        mark_on_empty_boneyard: true,
        follow_up: FollowUp::CoverSameDouble,
        doubles_per_turn: DoublesPerTurn::One,
        obligation: Obligation::UncoveredDouble,
        obligation_order: ObligationOrder::Lifo,
        followup_draw_per_double: true,
        last_of_suit_exempt: true,
        reprivatise_exempt: false,
        go_out_on_double: GoOutOnDouble::Allowed,
        early_end_when_stuck: false,
        tap: TapModel::AlwaysAnnounced,
        tap_forget: Probability::ONE,
        tap_catch: Probability::ONE,
        uncovered_double_penalty: 0,
        double_blank_value: 0,
        blank_half_value: 0,
        blank_scoring: BlankScoring::PerHalf,
        tie_break: TieBreak::Wikipedia,
        partnerships: false,
        swan_drive: false,
        bullet_train: false,
        double_makes_train_public: false,
        continuous_draw: false,
        blanks_wild: false,
        branching_doubles: BranchingDoubles::Off,
        parsons_first_move: false,
        doubler_exempt_on_foreign_train: false,
        obligation_overrides_first_turn: false,
        only_others_unmark: false,
        marked_owner_must_prefer_own_train: false,
    }
}

/// `celko1998`: Celko 1998.
pub(super) fn celko1998() -> Rules {
    Rules {
        preset: Preset::Celko1998,
        deal_table: DealTable::CELKO1998,
        engine_mode: EngineMode::HolderElseDrawSequential,
        first_player: FirstPlayer::EnginePlacer,
        opening: Opening::CelkoBuildPhase,
        first_turn_own_train_only: false,
        mexican_start: MexicanStart::OnlyIfNoOtherPlay,
        marker_removal: MarkerRemoval::AnyPlayOnTrain,
        mark_on_empty_boneyard: false,
        follow_up: FollowUp::AnyEligible,
        doubles_per_turn: DoublesPerTurn::Unlimited,
        obligation: Obligation::LastDoubleOfTurn,
        obligation_order: ObligationOrder::Lifo,
        last_of_suit_exempt: false,
        tie_break: TieBreak::CoWinners,
        ..wikipedia()
    }
}

/// `dominorules`: dominorules.com.
pub(super) fn dominorules() -> Rules {
    Rules {
        preset: Preset::Dominorules,
        deal_table: DealTable::DOMINORULES,
        first_seat: FirstSeat::Random,
        first_turn_own_train_only: false,
        follow_up: FollowUp::AnyEligibleWithSecondDouble,
        doubles_per_turn: DoublesPerTurn::Two,
        last_of_suit_exempt: false,
        tie_break: TieBreak::CoWinners,
        ..wikipedia()
    }
}

/// `family_house`: Family house rules (variation 1's obligations by default, an engine default).
pub(super) fn family_house() -> Rules {
    Rules {
        preset: Preset::FamilyHouse,
        deal_table: DealTable::FAMILY_HOUSE,
        engine_mode: EngineMode::HolderElseDrawRounds,
        first_player: FirstPlayer::EnginePlacer,
        first_turn_own_train_only: false,
        marker_removal: MarkerRemoval::OwnerAnywhere,
        follow_up: FollowUp::AnyEligible,
        doubles_per_turn: DoublesPerTurn::Unlimited,
        obligation: Obligation::AllUncovered,
        obligation_order: ObligationOrder::Fifo,
        last_of_suit_exempt: false,
        tie_break: TieBreak::CoWinners,
        ..wikipedia()
    }
}

/// `harbour_cay`: Great Harbour Cay.
pub(super) fn harbour_cay() -> Rules {
    Rules {
        preset: Preset::HarbourCay,
        deal_table: DealTable::HARBOUR_CAY,
        engine_mode: EngineMode::HolderElseHighestOfNumberElseRedeal,
        first_player: FirstPlayer::EnginePlacer,
        mexican_start: MexicanStart::RequiresOwnTrainPlay,
        last_of_suit_exempt: false,
        early_end_when_stuck: true,
        double_blank_value: 50,
        tie_break: TieBreak::CoWinners,
        ..wikipedia()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_validates_for_every_table_entry() {
        for info in PRESETS {
            let base = Rules::preset(info.name).unwrap();
            base.validate().unwrap();
            for set in SETS {
                for (players, hand) in base.deal_table.entries(set) {
                    let r = Rules { set: Pip::from_u8(set), players, ..base.clone() };
                    assert_eq!(r.hand(), Some(hand));
                    r.validate().unwrap_or_else(|e| panic!("{} d{set} {players}p: {e}", info.name));
                }
            }
        }
        assert_eq!(Rules::preset("dominorules").unwrap().deal_table.hand(12, 8), Some(9));
        assert_eq!(Rules::preset("harbour_cay").unwrap().deal_table.hand(12, 10), Some(8));
        assert_eq!(Rules::preset("family_house").unwrap().deal_table.hand(9, 5), Some(9));
        // The engine is dealt in the hand-engine presets: all 91 tiles are available.
        assert_eq!(Rules::preset("celko1998").unwrap().dealable_tiles(), 91);
    }

    #[test]
    fn validate_reports_every_problem() {
        let r = Rules {
            players: 9,
            rounds: Some(20),
            branching_doubles: BranchingDoubles::FourWay,
            blanks_wild: true,
            ..Rules::wikipedia()
        };
        let errs = r.validate().unwrap_err().0;
        assert_eq!(errs.len(), 3, "{errs:?}");
        assert!(matches!(errs[0], RuleError::NoDealRow { players: 9, .. }));
        assert!(matches!(errs[1], RuleError::Rounds { rounds: 20, .. }));
        assert!(matches!(&errs[2], RuleError::Combination(w) if w.contains("branching")));
        let r = Rules { hand_size: Some(23), ..Rules::wikipedia() };
        let e = r.validate().unwrap_err();
        assert_eq!(
            e.to_string(),
            "a hand of 23 tiles for 4 players does not fit double-12 (90 tiles to deal; valid hand sizes: 1 to 22)"
        );
        // A hand size changes the tiles per player only: neither a player count nor a set the
        // preset's deal table lacks becomes playable with one.
        let e = Rules { players: 9, hand_size: Some(10), ..Rules::wikipedia() }.validate().unwrap_err();
        assert!(matches!(e.0[..], [RuleError::NoDealRow { players: 9, set: 12, .. }]), "{e:?}");
        let celko18 =
            Rules { set: Pip::from_u8(18), players: 2, hand_size: Some(10), ..Rules::preset("celko1998").unwrap() };
        assert_eq!(
            celko18.validate().unwrap_err().to_string(),
            "the celko1998 rules do not use a double-18 set (valid: 12)"
        );
        assert!(
            Rules::preset("nope")
                .unwrap_err()
                .contains("valid: celko1998, wikipedia, dominorules, family_house, harbour_cay")
        );
    }

    #[test]
    fn scoring_values() {
        let mut r = Rules::wikipedia();
        let t = |s: &str| s.parse::<Tile>().unwrap();
        assert_eq!(r.tile_score(t("0-0")), 0);
        assert_eq!(r.tile_score(t("3-12")), 15);
        r.double_blank_value = 50;
        assert_eq!(r.tile_score(t("0-0")), 50);
        r.double_blank_value = 0;
        r.blank_half_value = 25;
        assert_eq!(r.tile_score(t("0-7")), 32);
        assert_eq!(r.tile_score(t("0-0")), 50);
    }
}
