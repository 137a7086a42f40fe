//! Rules as `key=value`: the `--rule` overrides and the parameter listing of `mtrain rules`.
//!
//! Every parameter of [`Rules`] has a key, a list of valid values, a reader and a writer, and for
//! each preset the source its default comes from: a source named by its title, or "engine default"
//! with its reason when the sources are silent or ambiguous (see `docs/rules.md`).
//! Named variations are shortcuts that set several parameters at once (`cover_optional`,
//! `any_train_can_cover`, and the `family_house` variations `v1`..`v5` and `literal_basic`).

use super::*;
use crate::error::InvalidInput;

/// Names of enum values on the command line.
trait Named: Sized + Copy + PartialEq + 'static {
    const NAMES: &'static [(&'static str, Self)];
    fn name(self) -> &'static str {
        Self::NAMES.iter().find(|(_, v)| *v == self).map_or("?", |(n, _)| n)
    }
    fn parse(s: &str) -> Option<Self> {
        Self::NAMES.iter().find(|(n, _)| *n == s).map(|&(_, v)| v)
    }
    fn valid() -> String {
        Self::NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
    }
}

macro_rules! named {
    ($t:ty { $($n:literal => $v:expr),+ $(,)? }) => {
        impl Named for $t {
            const NAMES: &'static [(&'static str, Self)] = &[$(($n, $v)),+];
        }
    };
}

named!(EngineMode {
    "set_aside" => EngineMode::SetAside,
    "holder_else_draw_sequential" => EngineMode::HolderElseDrawSequential,
    "holder_else_draw_rounds" => EngineMode::HolderElseDrawRounds,
    "highest_unused_double" => EngineMode::HighestUnusedDoubleInHands,
    "holder_else_highest_of_number" => EngineMode::HolderElseHighestOfNumberElseRedeal,
    "galt" => EngineMode::GaltFirstPlayerHighestDouble,
});
named!(FirstPlayer {
    "rotating" => FirstPlayer::Rotating,
    "engine_placer" => FirstPlayer::EnginePlacer,
    "previous_out" => FirstPlayer::PreviousOut,
    "highest_pip_draw" => FirstPlayer::HighestPipDraw,
    "holder_of_top_double" => FirstPlayer::HolderOfTopDouble,
});
named!(Opening {
    "one_tile" => Opening::OneTile,
    "celko_build" => Opening::CelkoBuildPhase,
    "fast_build" => Opening::FastBuild,
    "delayed_first_turn" => Opening::DelayedFirstTurn,
});
named!(MexicanStart {
    "any_time" => MexicanStart::AnyTime,
    "only_if_no_other_play" => MexicanStart::OnlyIfNoOtherPlay,
    "requires_own_train_play" => MexicanStart::RequiresOwnTrainPlay,
    "after_opening_go_round" => MexicanStart::AfterOpeningGoRound,
});
named!(MarkerRemoval {
    "any_play_on_train" => MarkerRemoval::AnyPlayOnTrain,
    "owner_on_own_train" => MarkerRemoval::OwnerOnOwnTrain,
    "owner_anywhere" => MarkerRemoval::OwnerAnywhere,
});
named!(FollowUp {
    "cover_same_double" => FollowUp::CoverSameDouble,
    "any_eligible" => FollowUp::AnyEligible,
    "any_eligible_with_second_double" => FollowUp::AnyEligibleWithSecondDouble,
    "optional" => FollowUp::Optional,
});
named!(DoublesPerTurn { "one" => DoublesPerTurn::One, "two" => DoublesPerTurn::Two, "unlimited" => DoublesPerTurn::Unlimited });
named!(Obligation {
    "none" => Obligation::None,
    "uncovered_double" => Obligation::UncoveredDouble,
    "last_double_of_turn" => Obligation::LastDoubleOfTurn,
    "all_uncovered" => Obligation::AllUncovered,
});
named!(ObligationOrder { "lifo" => ObligationOrder::Lifo, "fifo" => ObligationOrder::Fifo });
named!(GoOutOnDouble { "allowed" => GoOutOnDouble::Allowed, "must_cover" => GoOutOnDouble::MustCover });
named!(TapModel {
    "always_announced" => TapModel::AlwaysAnnounced,
    "draw_two" => TapModel::DrawTwo,
    "draw_one_else_skip" => TapModel::DrawOneElseSkip,
});
named!(BlankScoring { "per_half" => BlankScoring::PerHalf, "flat_per_tile" => BlankScoring::FlatPerTile });
named!(TieBreak { "co_winners" => TieBreak::CoWinners, "wikipedia" => TieBreak::Wikipedia });
named!(BranchingDoubles {
    "off" => BranchingDoubles::Off,
    "four_way" => BranchingDoubles::FourWay,
    "four_way_triple_cover" => BranchingDoubles::FourWayTripleCover,
});

fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "yes" | "on" | "1" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// One parameter as the command line sees it.
pub struct Param {
    /// The key of `--rule key=value`.
    pub key: &'static str,
    /// What it means.
    pub about: &'static str,
    /// The valid values.
    pub valid: fn() -> String,
    get: fn(&Rules) -> String,
    set: fn(&mut Rules, &str) -> Option<()>,
    /// Where each preset's default comes from: celko1998, wikipedia, dominorules,
    /// family_house, harbour_cay.
    pub sources: [&'static str; 5],
}

impl Param {
    /// The parameter's value in `r`.
    pub(crate) fn value(&self, r: &Rules) -> String {
        (self.get)(r)
    }

    /// The source of `preset`'s default.
    pub(crate) fn source(&self, preset: Preset) -> &'static str {
        self.sources[preset as usize]
    }
}

macro_rules! enum_param {
    ($key:literal, $field:ident, $t:ty, $about:literal, $src:expr) => {
        Param {
            key: $key,
            about: $about,
            valid: <$t as Named>::valid,
            get: |r| r.$field.name().to_string(),
            set: |r, v| {
                r.$field = <$t as Named>::parse(v)?;
                Some(())
            },
            sources: $src,
        }
    };
}

macro_rules! bool_param {
    ($key:literal, $field:ident, $about:literal, $src:expr) => {
        Param {
            key: $key,
            about: $about,
            valid: || "true, false".to_string(),
            get: |r| r.$field.to_string(),
            set: |r, v| {
                r.$field = parse_bool(v)?;
                Some(())
            },
            sources: $src,
        }
    };
}

macro_rules! num_param {
    ($key:literal, $field:ident, $t:ty, $valid:literal, $about:literal, $src:expr) => {
        Param {
            key: $key,
            about: $about,
            valid: || $valid.to_string(),
            get: |r| r.$field.to_string(),
            set: |r, v| {
                r.$field = v.parse::<$t>().ok()?;
                Some(())
            },
            sources: $src,
        }
    };
}

const OPTION: [&str; 5] = ["option (off in every preset)"; 5];
const FOLLOWUP_DRAW: &str = "engine default: yes (the literal reading of \"draw when unable\"; sources silent)";
const NO_EXEMPTION: &str = "engine default: no exemption (the source states none)";
const CO_WINNERS: &str = "engine default: co-winners (the source has no tie-break)";
const PROBABILITY: &str = "a probability between 0 and 1 (at most 6 decimals)";
const TAP_COIN: &str = "engine default: 1 (the tap penalty models as stated: never announced, always caught); the catch is Celko 1998, Last Tile";
const COMMON_PRACTICE: &str = "common practice, in none of the five sources: off (0)";

/// Every parameter, in the order `mtrain rules PRESET` prints them.
pub const PARAMS: &[Param] = &[
    enum_param!(
        "engine_mode",
        engine_mode,
        EngineMode,
        "how the engine tile is found",
        [
            "Celko 1998, introduction; engine default: the search draws start at the lead seat",
            "Encyclopedia, Opening the station",
            "dominorules.com, set-up",
            "Family house rules, rule 5; engine default: the drawing rounds start at the lead seat",
            "Great Harbour Cay, Center domino"
        ]
    ),
    enum_param!(
        "first_player",
        first_player,
        FirstPlayer,
        "who takes the first turn of a round",
        [
            "Celko 1998, introduction",
            "Encyclopedia, Opening the station; engine default: rotates from first_seat",
            "dominorules.com; engine default: rotates from first_seat",
            "Family house rules, rule 9",
            "Great Harbour Cay, Start of play"
        ]
    ),
    Param {
        key: "first_seat",
        about: "the first player of round 1 under rotation, and the lead seat where engine searches start",
        valid: || "a seat number, or random".to_string(),
        get: |r| match r.first_seat {
            FirstSeat::Seat(s) => s.to_string(),
            FirstSeat::Random => "random".to_string(),
        },
        set: |r, v| {
            r.first_seat = if v == "random" { FirstSeat::Random } else { FirstSeat::Seat(v.parse().ok()?) };
            Some(())
        },
        sources: [
            "engine default: seat 0 (the source names no seat)",
            "engine default: seat 0 (the source leaves the choice to the players)",
            "dominorules.com (a random first player)",
            "engine default: seat 0 (the source names no seat)",
            "engine default: seat 0 (the source names no seat)",
        ],
    },
    bool_param!(
        "set_aside_from_round2",
        set_aside_from_round2,
        "hold [e|e] out before the shuffle from round 2 (Family house rules, variation 4)",
        ["option", "option", "option", "Family house rules, variation 4 (off by default)", "option"]
    ),
    enum_param!(
        "opening",
        opening,
        Opening,
        "the opening of a round",
        [
            "Celko 1998, introduction (build phase)",
            "Encyclopedia, Opening phase",
            "dominorules.com",
            "Family house rules, rule 9",
            "Great Harbour Cay, Start of play"
        ]
    ),
    bool_param!(
        "first_turn_own_train_only",
        first_turn_own_train_only,
        "a seat's first turn may only use its own train",
        [
            "n/a (build phase)",
            "Encyclopedia, Opening phase; engine default: the first turn is the opening move",
            "dominorules.com",
            "Family house rules, rule 9",
            "Great Harbour Cay, Player can't play"
        ]
    ),
    enum_param!(
        "mexican_start",
        mexican_start,
        MexicanStart,
        "when the Mexican train may be started (any_time: Encyclopedia; only_if_no_other_play: Celko 1998; requires_own_train_play: Great Harbour Cay; after_opening_go_round: Encyclopedia, as an option)",
        [
            "Celko 1998, Playing Tiles rule 4; engine default: then it must be started",
            "Encyclopedia, Mexican Train; engine default: from the second turn",
            "dominorules.com",
            "Family house rules, rule 9",
            "Great Harbour Cay, The Mexican Train"
        ]
    ),
    num_param!(
        "max_mexican_trains",
        max_mexican_trains,
        u8,
        "0 to 4",
        "Mexican trains allowed",
        [
            "Celko 1998, Playing Tiles rule 4",
            "Encyclopedia, Mexican Train",
            "dominorules.com",
            "Family house rules, rule 8",
            "Great Harbour Cay, The Mexican Train"
        ]
    ),
    enum_param!(
        "marker_removal",
        marker_removal,
        MarkerRemoval,
        "who lifts a marker (any_play_on_train: Celko 1998; owner_on_own_train: Encyclopedia, dominorules.com, Great Harbour Cay; owner_anywhere: Family house rules)",
        [
            "Celko 1998, Playing Tiles rule 3; engine default: the owner's own play lifts it too",
            "Encyclopedia, Public and private status",
            "dominorules.com",
            "Family house rules, rule 10 and variation 1; engine default: at any later turn",
            "Great Harbour Cay, Player can't play"
        ]
    ),
    bool_param!(
        "mark_on_empty_boneyard",
        mark_on_empty_boneyard,
        "a failed turn with an empty boneyard marks",
        [
            "Celko 1998, Playing Tiles (\"simply passes\"); engine default: read literally, no marker",
            "Encyclopedia, basic rule 4",
            "dominorules.com, General rules",
            "engine default: mark (the source is silent; the other sources mark)",
            "engine default: mark (the source is silent; the other sources mark)"
        ]
    ),
    enum_param!(
        "follow_up",
        follow_up,
        FollowUp,
        "the doubler's follow-up (cover_same_double: Encyclopedia, Great Harbour Cay; any_eligible: Celko 1998, Family house rules; any_eligible_with_second_double: dominorules.com; optional: Encyclopedia, Cover optional)",
        [
            "Celko 1998, Playing Doubles",
            "Encyclopedia, basic rule 5",
            "dominorules.com",
            "Family house rules, rule 11",
            "Great Harbour Cay, Doubles"
        ]
    ),
    enum_param!(
        "doubles_per_turn",
        doubles_per_turn,
        DoublesPerTurn,
        "doubles one turn may place (one: Encyclopedia, Great Harbour Cay; two: dominorules.com; unlimited: Celko 1998, Family house rules, Encyclopedia, Multiple doubles)",
        [
            "Celko 1998, Playing Doubles",
            "Encyclopedia, Train building",
            "dominorules.com",
            "Family house rules, rule 11",
            "Great Harbour Cay, Doubles (derived: the cover goes on the double)"
        ]
    ),
    enum_param!(
        "obligation",
        obligation,
        Obligation,
        "which open doubles oblige the next players (none: Family house basic rules, Encyclopedia, Cover optional; uncovered_double: Encyclopedia, dominorules.com, Great Harbour Cay, and a turn that leaves several open obliges the first left open; last_double_of_turn: Celko 1998; all_uncovered: Family house variation 1, Encyclopedia, Multiple doubles)",
        [
            "Celko 1998, Playing Doubles; engine default: only the last double of the turn",
            "Encyclopedia, basic rule 5",
            "dominorules.com",
            "Family house rules, variation 1 and strategy note; engine default: played by default",
            "Great Harbour Cay, Doubles"
        ]
    ),
    enum_param!(
        "obligation_order",
        obligation_order,
        ObligationOrder,
        "order in which obligations are served (lifo: Celko 1998; fifo: Family house variation 1, Encyclopedia, Multiple doubles)",
        [
            "Celko 1998, closing tips",
            "n/a (one at a time)",
            "n/a (one at a time)",
            "Family house rules, variation 1",
            "n/a (one at a time)"
        ]
    ),
    bool_param!(
        "followup_draw_per_double",
        followup_draw_per_double,
        "a follow-up may draw after an earlier draw in the same turn",
        [FOLLOWUP_DRAW; 5]
    ),
    bool_param!(
        "last_of_suit_exempt",
        last_of_suit_exempt,
        "the last double of its suit needs no cover",
        [
            NO_EXEMPTION,
            "Encyclopedia, Playing doubles",
            NO_EXEMPTION,
            NO_EXEMPTION,
            "Great Harbour Cay, End of a round (the round ends stuck instead)"
        ]
    ),
    bool_param!(
        "reprivatise_exempt",
        reprivatise_exempt,
        "a double that lifts one's own marker needs no cover (Encyclopedia, Exceptions)",
        OPTION
    ),
    enum_param!(
        "go_out_on_double",
        go_out_on_double,
        GoOutOnDouble,
        "going out on a double",
        [
            "engine default: allowed (the source is silent; play stops when a hand is empty)",
            "engine default: allowed (the consensus is silent; Galt allows it)",
            "dominorules.com, General rules",
            "Family house rules, rule 11",
            "Great Harbour Cay, Doubles"
        ]
    ),
    bool_param!(
        "early_end_when_stuck",
        early_end_when_stuck,
        "end the round when provably stuck",
        [
            "Celko 1998, end of play",
            "Encyclopedia, Ending and scoring",
            "dominorules.com, General rules",
            "engine default: blocked rounds only (the source defines no blocked round)",
            "Great Harbour Cay, End of a round; engine default: the exact stuck test"
        ]
    ),
    enum_param!(
        "tap",
        tap,
        TapModel,
        "last-tile announcement model (always_announced: engine default; draw_two: Celko 1998, Encyclopedia; draw_one_else_skip: Great Harbour Cay)",
        [
            "Celko 1998, Last Tile; engine default: always announced",
            "Encyclopedia, Ending and scoring; engine default: always announced",
            "dominorules.com; engine default: always announced",
            "Family house rules, rule 12; engine default: always announced",
            "Great Harbour Cay, Last domino; engine default: always announced"
        ]
    ),
    Param {
        key: "tap_forget",
        about: "with a tap penalty model, the chance a seat left with one tile forgets to announce it (1: never announces)",
        valid: || PROBABILITY.to_string(),
        get: |r| r.tap_forget.to_string(),
        set: |r, v| {
            r.tap_forget = v.parse().ok()?;
            Some(())
        },
        sources: [TAP_COIN; 5],
    },
    Param {
        key: "tap_catch",
        about: "with a tap penalty model, the chance another seat catches a forgotten announcement before play returns to the offender (Celko 1998, Last Tile)",
        valid: || PROBABILITY.to_string(),
        get: |r| r.tap_catch.to_string(),
        set: |r, v| {
            r.tap_catch = v.parse().ok()?;
            Some(())
        },
        sources: [TAP_COIN; 5],
    },
    Param {
        key: "uncovered_double_penalty",
        about: "tiles a seat draws when its turn ends leaving a double it placed uncovered (common practice, in none of the five sources)",
        valid: || "0 to 4".to_string(),
        get: |r| r.uncovered_double_penalty.to_string(),
        set: |r, v| {
            r.uncovered_double_penalty = v.parse::<u8>().ok().filter(|&n| n as usize <= MAX_PENALTY_TILES)?;
            Some(())
        },
        sources: [COMMON_PRACTICE; 5],
    },
    num_param!(
        "double_blank_value",
        double_blank_value,
        u16,
        "a whole number",
        "score of [0|0] left in hand",
        [
            "Celko 1998, end of play (pips)",
            "Encyclopedia, Blanks",
            "dominorules.com (pips)",
            "Family house rules, rule 13",
            "Great Harbour Cay, Scoring"
        ]
    ),
    num_param!(
        "blank_half_value",
        blank_half_value,
        u16,
        "a whole number (0 = ordinary pips)",
        "score of each blank half (Encyclopedia, Blanks)",
        OPTION
    ),
    enum_param!(
        "blank_scoring",
        blank_scoring,
        BlankScoring,
        "blank_half_value per blank half, or flat per tile with a blank",
        OPTION
    ),
    enum_param!(
        "tie_break",
        tie_break,
        TieBreak,
        "tie-break on equal totals",
        [CO_WINNERS, "Encyclopedia, Ending and scoring", CO_WINNERS, CO_WINNERS, CO_WINNERS]
    ),
    bool_param!(
        "parsons_first_move",
        parsons_first_move,
        "the first player may start the Mexican train with his first move (Parsons, in the Encyclopedia)",
        OPTION
    ),
    bool_param!(
        "doubler_exempt_on_foreign_train",
        doubler_exempt_on_foreign_train,
        "no marker for an uncovered double on another seat's train (Encyclopedia, strategy section)",
        OPTION
    ),
    bool_param!(
        "obligation_overrides_first_turn",
        obligation_overrides_first_turn,
        "an obligation outranks the first-turn ban on other trains",
        OPTION
    ),
    bool_param!(
        "only_others_unmark",
        only_others_unmark,
        "under any_play_on_train, only other seats' plays lift a marker (Celko 1998 read literally)",
        OPTION
    ),
    bool_param!(
        "marked_owner_must_prefer_own_train",
        marked_owner_must_prefer_own_train,
        "a marked owner must play on his own train when he can (another reading of dominorules.com)",
        OPTION
    ),
    bool_param!("partnerships", partnerships, "teams of two (Encyclopedia, Partnerships)", OPTION),
    bool_param!("swan_drive", swan_drive, "swan drive (Encyclopedia, Swan drive)", OPTION),
    bool_param!("bullet_train", bullet_train, "bullet train (Encyclopedia, Bullet Train)", OPTION),
    bool_param!(
        "double_public",
        double_makes_train_public,
        "a double makes its train public (Encyclopedia, Double public)",
        OPTION
    ),
    bool_param!("continuous_draw", continuous_draw, "continuous draw (Encyclopedia, Continuous draw)", OPTION),
    bool_param!("blanks_wild", blanks_wild, "blanks wild (Encyclopedia, Blanks)", OPTION),
    enum_param!(
        "branching_doubles",
        branching_doubles,
        BranchingDoubles,
        "branching doubles (Encyclopedia, Branching doubles)",
        OPTION
    ),
];

/// A named variation: a key that sets several parameters.
pub struct Shortcut {
    /// The key of `--rule key=value`.
    pub key: &'static str,
    /// What it means, with its source.
    pub about: &'static str,
    /// The values it takes.
    pub valid: &'static str,
    /// The parameters it sets (pinned by a test against `apply`), for conflict checks.
    sets: &'static [&'static str],
    apply: fn(&mut Rules, &str) -> Option<()>,
}

/// Every named variation, in the order `mtrain rules` lists them.
pub const SHORTCUTS: &[Shortcut] = &[
    Shortcut {
        key: "cover_optional",
        about: "the doubler may cover his double or end his turn; nobody is obliged (Encyclopedia, Cover optional)",
        valid: "true",
        sets: &["follow_up", "doubles_per_turn", "obligation"],
        apply: |r, v| {
            parse_bool(v)?.then(|| {
                r.follow_up = FollowUp::Optional;
                r.doubles_per_turn = DoublesPerTurn::One;
                r.obligation = Obligation::None;
            })
        },
    },
    Shortcut {
        key: "any_train_can_cover",
        about: "the doubler's second tile may go on any eligible train; anyone: nobody is obliged after (Family house rules, rule 11), doubler_only: an open double still obliges (dominorules.com, Family house variation 1)",
        valid: "anyone, doubler_only",
        sets: &["obligation", "follow_up", "doubles_per_turn"],
        apply: |r, v| {
            r.obligation = match v {
                "anyone" => Obligation::None,
                "doubler_only" => Obligation::UncoveredDouble,
                _ => return None,
            };
            r.follow_up = FollowUp::AnyEligible;
            r.doubles_per_turn = DoublesPerTurn::One;
            Some(())
        },
    },
    Shortcut {
        key: "fast_game",
        about: "every seat lays a longest train on its own train first (Encyclopedia, Fast game)",
        valid: "true",
        sets: &["opening"],
        apply: |r, v| parse_bool(v)?.then(|| r.opening = Opening::FastBuild),
    },
    Shortcut {
        key: "galt_opening",
        about: "the first player places his highest double as the engine (Galt, in the Encyclopedia)",
        valid: "true",
        sets: &["engine_mode", "first_player", "set_aside_from_round2"],
        apply: |r, v| {
            parse_bool(v)?.then(|| {
                r.engine_mode = EngineMode::GaltFirstPlayerHighestDouble;
                r.first_player = FirstPlayer::Rotating;
                r.set_aside_from_round2 = false;
            })
        },
    },
    Shortcut {
        key: "delayed_first_turn",
        about: "a seat whose train has not started lays a longest train, or draws and may pass (Encyclopedia, Delayed first turn)",
        valid: "true",
        sets: &["opening"],
        apply: |r, v| parse_bool(v)?.then(|| r.opening = Opening::DelayedFirstTurn),
    },
    Shortcut {
        key: "multiple_doubles",
        about: "several doubles in one turn, the first covered, the open ones oblige first laid first (Encyclopedia, Multiple doubles)",
        valid: "true",
        sets: &["follow_up", "doubles_per_turn", "obligation", "obligation_order"],
        apply: |r, v| {
            parse_bool(v)?.then(|| {
                r.follow_up = FollowUp::CoverSameDouble;
                r.doubles_per_turn = DoublesPerTurn::Unlimited;
                r.obligation = Obligation::AllUncovered;
                r.obligation_order = ObligationOrder::Fifo;
            })
        },
    },
    Shortcut {
        key: "v1",
        about: "open doubles oblige the next players, first laid first; the owner lifts his marker playing anywhere (Family house rules, variation 1)",
        valid: "true",
        sets: &["obligation", "obligation_order", "marker_removal"],
        apply: |r, v| {
            parse_bool(v)?.then(|| {
                r.obligation = Obligation::AllUncovered;
                r.obligation_order = ObligationOrder::Fifo;
                r.marker_removal = MarkerRemoval::OwnerAnywhere;
            })
        },
    },
    Shortcut {
        key: "v2",
        about: "as v1, but the owner lifts his marker only on his own train (Family house rules, variation 2)",
        valid: "true",
        sets: &["obligation", "obligation_order", "marker_removal"],
        apply: |r, v| {
            parse_bool(v)?.then(|| {
                r.obligation = Obligation::AllUncovered;
                r.obligation_order = ObligationOrder::Fifo;
                r.marker_removal = MarkerRemoval::OwnerOnOwnTrain;
            })
        },
    },
    Shortcut {
        key: "v3",
        about: "the engine is the highest double in any hand not yet used (Family house rules, variation 3)",
        valid: "true",
        sets: &["engine_mode"],
        apply: |r, v| parse_bool(v)?.then(|| r.engine_mode = EngineMode::HighestUnusedDoubleInHands),
    },
    Shortcut {
        key: "v4",
        about: "from round 2 the engine is held out, and the seat that went out last starts (Family house rules, variation 4)",
        valid: "true",
        sets: &["set_aside_from_round2", "first_player"],
        apply: |r, v| {
            parse_bool(v)?.then(|| {
                r.set_aside_from_round2 = true;
                r.first_player = FirstPlayer::PreviousOut;
            })
        },
    },
    Shortcut {
        key: "v5",
        about: "0-0 scores 50 (Family house rules, variation 5)",
        valid: "true",
        sets: &["double_blank_value"],
        apply: |r, v| parse_bool(v)?.then(|| r.double_blank_value = 50),
    },
    Shortcut {
        key: "literal_basic",
        about: "the Family house basic rules alone: an open double obliges nobody (Family house rules, rule 11)",
        valid: "true",
        sets: &["obligation"],
        apply: |r, v| parse_bool(v)?.then(|| r.obligation = Obligation::None),
    },
];

/// Every key `--rule` accepts.
pub fn rule_keys() -> String {
    PARAMS.iter().map(|p| p.key).chain(SHORTCUTS.iter().map(|s| s.key)).collect::<Vec<_>>().join(", ")
}

/// One `--rule` option: its key, its value, and the value it gives each parameter it sets.
struct Override {
    key: String,
    value: String,
    effects: Vec<(&'static str, String)>,
}

impl Rules {
    /// Applies `--rule` options to a preset, refusing any two that disagree: the same key with
    /// different values (`v1=true` and `v1=yes` are the same), or two options that set one
    /// parameter to different values (`v1` with `v2`, `literal_basic` with `v1`,
    /// `cover_optional` with `obligation=all_uncovered`). The order of the options never
    /// matters. Returns the options that were applied, each once, in the order first given:
    /// what logs and manifests record.
    ///
    /// # Errors
    /// One line naming the problem: a bad key or value (as [`Rules::apply_rule`]), or the two
    /// options that conflict and the parameter they disagree on.
    pub fn apply_rules<S: AsRef<str>>(&mut self, specs: &[S]) -> Result<Vec<(String, String)>, InvalidInput> {
        let mut applied: Vec<Override> = Vec::new();
        for spec in specs {
            let spec = spec.as_ref();
            let mut probe = self.clone();
            probe.apply_rule(spec)?;
            let (k, v) = spec.split_once('=').map(|(k, v)| (k.trim(), v.trim())).expect("checked by apply_rule");
            let sets: Vec<&'static str> = match SHORTCUTS.iter().find(|s| s.key == k) {
                Some(s) => s.sets.to_vec(),
                None => vec![PARAMS.iter().find(|p| p.key == k).expect("checked by apply_rule").key],
            };
            let effects: Vec<(&'static str, String)> = sets
                .into_iter()
                .map(|key| (key, PARAMS.iter().find(|p| p.key == key).expect("a parameter key").value(&probe)))
                .collect();
            let this = Override { key: k.to_string(), value: v.to_string(), effects };
            if let Some(same) = applied.iter().find(|o| o.key == this.key) {
                if same.effects == this.effects {
                    continue;
                }
                return Err(format!(
                    "--rule {k} is given twice with different values ('{}' and '{v}'): give it once",
                    same.value
                )
                .into());
            }
            for other in &applied {
                for (param, value) in &this.effects {
                    if let Some((_, theirs)) = other.effects.iter().find(|(p, x)| p == param && x != value) {
                        return Err(format!(
                            "--rule {}={} and --rule {k}={v} conflict: they set {param} to {theirs} and to {value} (give only one)",
                            other.key, other.value
                        ).into());
                    }
                }
            }
            applied.push(this);
        }
        for o in &applied {
            self.apply_rule(&format!("{}={}", o.key, o.value))?;
        }
        Ok(applied.into_iter().map(|o| (o.key, o.value)).collect())
    }

    /// Applies one `key=value` override.
    ///
    /// # Errors
    /// One line naming the problem and the valid keys or values.
    pub fn apply_rule(&mut self, spec: &str) -> Result<(), InvalidInput> {
        let (k, v) = spec
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .filter(|(k, v)| !k.is_empty() && !v.is_empty())
            .ok_or_else(|| format!("invalid --rule '{spec}': expected key=value (keys: {})", rule_keys()))?;
        if let Some(p) = PARAMS.iter().find(|p| p.key == k) {
            return Ok(
                (p.set)(self, v).ok_or_else(|| format!("invalid value '{v}' for rule {k} (valid: {})", (p.valid)()))?
            );
        }
        if let Some(s) = SHORTCUTS.iter().find(|s| s.key == k) {
            return Ok(
                (s.apply)(self, v).ok_or_else(|| format!("invalid value '{v}' for rule {k} (valid: {})", s.valid))?
            );
        }
        Err(format!("unknown rule '{k}' (valid: {})", rule_keys()).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_round_trips_through_its_key() {
        for preset in ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"] {
            let r = Rules::preset(preset).unwrap();
            for p in PARAMS {
                let mut copy = r.clone();
                copy.apply_rule(&format!("{}={}", p.key, p.value(&r))).unwrap();
                assert_eq!(copy, r, "{preset}: {} does not round-trip", p.key);
                assert!(!p.source(r.preset).is_empty());
            }
        }
    }

    #[test]
    fn shortcuts_name_every_parameter_they_set() {
        for preset in ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"] {
            let base = Rules::preset(preset).unwrap();
            for s in SHORTCUTS {
                let value = s.valid.split(", ").next().unwrap();
                let mut r = base.clone();
                (s.apply)(&mut r, value).unwrap();
                for p in PARAMS {
                    if p.value(&r) != p.value(&base) {
                        assert!(s.sets.contains(&p.key), "{preset}: {} sets {} but does not say so", s.key, p.key);
                    }
                }
                assert!(s.sets.iter().all(|k| PARAMS.iter().any(|p| p.key == *k)), "{}", s.key);
            }
        }
    }

    #[test]
    fn conflicting_or_repeated_rules_are_refused_in_any_order() {
        let family = || Rules::preset("family_house").unwrap();
        for pair in [["v2=true", "v1=true"], ["v1=true", "v2=true"], ["literal_basic=true", "v1=true"]] {
            let e = family().apply_rules(&pair).unwrap_err();
            assert!(e.contains("conflict") && e.contains(pair[0]) && e.contains(pair[1]), "{e}");
        }
        let e = family().apply_rules(&["v1=true", "literal_basic=true"]).unwrap_err();
        assert!(e.contains("obligation"), "{e}");
        let e = Rules::wikipedia().apply_rules(&["tap=draw_two", "tap=draw_one_else_skip"]).unwrap_err();
        assert_eq!(
            &*e,
            "--rule tap is given twice with different values ('draw_two' and 'draw_one_else_skip'): give it once"
        );
        let e = Rules::wikipedia().apply_rules(&["cover_optional=true", "obligation=all_uncovered"]).unwrap_err();
        assert!(e.contains("set obligation to none and to all_uncovered"), "{e}");
        // The same option twice is applied once; options that agree on a parameter combine.
        let mut r = family();
        let applied = r.apply_rules(&["v5=true", "v5=yes", "v1=true", "multiple_doubles=true"]).unwrap();
        assert_eq!(
            applied,
            [("v5".into(), "true".into()), ("v1".into(), "true".into()), ("multiple_doubles".into(), "true".into())]
        );
        assert_eq!((r.double_blank_value, r.marker_removal), (50, MarkerRemoval::OwnerAnywhere));
        assert!(Rules::wikipedia().apply_rules(&["colour=blue"]).unwrap_err().starts_with("unknown rule 'colour'"));
    }

    #[test]
    fn overrides_and_errors() {
        let mut r = Rules::wikipedia();
        r.apply_rule("marker_removal=any_play_on_train").unwrap();
        assert_eq!(r.marker_removal, MarkerRemoval::AnyPlayOnTrain);
        r.apply_rule("double_blank_value=50").unwrap();
        assert_eq!(r.double_blank_value, 50);
        r.apply_rule("cover_optional=true").unwrap();
        assert_eq!((r.follow_up, r.obligation), (FollowUp::Optional, Obligation::None));
        let e = r.apply_rule("marker_removal=sometimes").unwrap_err();
        assert!(e.contains("valid: any_play_on_train, owner_on_own_train, owner_anywhere"), "{e}");
        assert!(r.apply_rule("colour=blue").unwrap_err().starts_with("unknown rule 'colour' (valid: engine_mode,"));
        assert!(r.apply_rule("nonsense").unwrap_err().starts_with("invalid --rule 'nonsense'"));
        let mut f = Rules::preset("family_house").unwrap();
        f.apply_rule("v3=true").unwrap();
        f.apply_rule("v4=true").unwrap();
        assert!(f.validate().unwrap_err().to_string().contains("v3 (highest unused double) and v4"));
    }
}
