//! Rules as plain data.
//!
//! [`Rules`] holds every rule parameter of the five presets, plus the named variations, as fields
//! with enums (`docs/rules.md` describes each one and its sources). Presets are constructors
//! ([`Rules::preset`]); the engine branches on fields and never on a preset name.
//! [`Rules::validate`] reports every problem at once.
//!
//! The engine plays every value of every parameter; [`Rules::validate`] refuses only the
//! combinations that cannot work together, and configurations that cannot be dealt.

mod deal_table;
mod options;
mod presets;

pub use deal_table::{DealRow, DealTable};
pub use options::{PARAMS, Param, SHORTCUTS, Shortcut, rule_keys};
pub use presets::{PRESETS, PresetInfo};

use crate::tile::{Pip, Tile};
use std::fmt;

/// Most seats the engine supports (markers and first-turn flags are 16-bit masks).
pub const MAX_PLAYERS: usize = 16;
/// Most Mexican trains a rule set may allow.
pub(crate) const MAX_MEXICAN_TRAINS: usize = 4;
/// Most tiles one penalty draws (`uncovered_double_penalty` is at most this).
pub const MAX_PENALTY_TILES: usize = 4;
/// The sets the engine plays.
pub const SETS: [u8; 5] = [6, 9, 12, 15, 18];

/// The five rule sets of the sources.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Preset {
    /// Celko 1998: Joe Celko, "Mexican Trains" (rev. 2, 1998).
    Celko1998,
    /// Encyclopedia: the consensus of the encyclopedia article "Mexican Train".
    Wikipedia,
    /// dominorules.com: "Mexican Train".
    Dominorules,
    /// Family house rules: a family's house rules page.
    FamilyHouse,
    /// Great Harbour Cay: Ernie Martin, "Mexican Train as played in Great Harbour Cay, Bahamas".
    HarbourCay,
}

impl Preset {
    /// The preset's id as used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Celko1998 => "celko1998",
            Preset::Wikipedia => "wikipedia",
            Preset::Dominorules => "dominorules",
            Preset::FamilyHouse => "family_house",
            Preset::HarbourCay => "harbour_cay",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the engine tile is found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EngineMode {
    /// `[e|e]` is removed before the shuffle and placed (Encyclopedia, dominorules.com).
    SetAside,
    /// Holder places it, else seats draw one at a time until it appears (Celko 1998).
    HolderElseDrawSequential,
    /// Holder places it, else complete rounds of drawing (Family house rules).
    HolderElseDrawRounds,
    /// Highest unused double in the hands (Family house rules, variation 3).
    HighestUnusedDoubleInHands,
    /// Holder of `[e|e]`, else the highest `[e|w]`, else redeal (Great Harbour Cay).
    HolderElseHighestOfNumberElseRedeal,
    /// Galt: the first player (or the next seat holding one) places its highest double (Galt, in the Encyclopedia).
    GaltFirstPlayerHighestDouble,
}

/// Who takes the first normal turn of a round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FirstPlayer {
    /// `F_r = (F1 + r - 1) mod N`.
    Rotating,
    /// The seat that placed the engine.
    EnginePlacer,
    /// The seat that went out in the previous round (Family house rules, variation 4).
    PreviousOut,
    /// Each seat draws a tile; the highest pip total starts (Encyclopedia).
    HighestPipDraw,
    /// The holder of the round's top double starts (Encyclopedia).
    HolderOfTopDouble,
}

/// Where the first player of round 1 comes from (an engine default where the sources name none).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FirstSeat {
    /// A fixed seat (default 0).
    Seat(u8),
    /// The first draw of the match's deal stream, uniform over the seats.
    Random,
}

/// The opening of a round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Opening {
    /// One tile per turn from the start.
    OneTile,
    /// Celko's build phase, in turn order from the placer.
    CelkoBuildPhase,
    /// Fast game: every seat lays a maximum-length build (Encyclopedia, Fast game).
    FastBuild,
    /// Delayed first turn (Encyclopedia).
    DelayedFirstTurn,
}

/// When the Mexican train may be started.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MexicanStart {
    /// Any time (subject to `first_turn_own_train_only`).
    AnyTime,
    /// Only when no other placement is possible (Celko 1998).
    OnlyIfNoOtherPlay,
    /// Only after a placement on one's own train this round (Great Harbour Cay).
    RequiresOwnTrainPlay,
    /// Only after every seat has had one turn.
    AfterOpeningGoRound,
}

/// Who removes a marker.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MarkerRemoval {
    /// Any placement on the marked train (Celko 1998).
    AnyPlayOnTrain,
    /// The owner placing on his own train (Encyclopedia, dominorules.com, Great Harbour Cay).
    OwnerOnOwnTrain,
    /// The owner placing anywhere (Family house rules).
    OwnerAnywhere,
}

/// The doubler's follow-up.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FollowUp {
    /// Must cover the same double with a non-double (Encyclopedia, Great Harbour Cay).
    CoverSameDouble,
    /// Another tile anywhere eligible (Celko 1998, Family house rules).
    AnyEligible,
    /// Anywhere eligible, or a second double with a third tile from hand (dominorules.com).
    AnyEligibleWithSecondDouble,
    /// May cover the double or end the turn (Encyclopedia, Cover optional).
    Optional,
}

/// How many doubles one turn may place.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DoublesPerTurn {
    /// One.
    One,
    /// Two, the second needing a third tile from hand (dominorules.com).
    Two,
    /// A chain of any length.
    Unlimited,
}

/// Which uncovered doubles oblige later players.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Obligation {
    /// None: the double is an ordinary open end.
    None,
    /// The uncovered double of the turn. Where a turn places several doubles (several doubles
    /// per turn, or a follow-up on any train) and leaves more than one open, only the first
    /// double left open obliges: the earliest placed among those still uncovered when the turn
    /// ends (a double covered later in the same turn does not count). The others stay ordinary
    /// open ends. Engine default: the sources allow one double per turn under this rule and do
    /// not say.
    UncoveredDouble,
    /// The last double placed in the turn (Celko 1998, as the engine reads it).
    LastDoubleOfTurn,
    /// Every uncovered double of the turn (Family house rules, variation 1).
    AllUncovered,
}

/// Order in which pending obligations are served.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ObligationOrder {
    /// Last placed first (Celko 1998).
    Lifo,
    /// First placed first (Family house rules, variation 1).
    Fifo,
}

/// Going out on a double that would need cover.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GoOutOnDouble {
    /// The round ends as soon as the hand is empty.
    Allowed,
    /// The follow-up procedure still runs (Encyclopedia, Exceptions).
    MustCover,
}

/// Last-tile announcement model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TapModel {
    /// Always announced: no penalty ever applies (engine default).
    AlwaysAnnounced,
    /// Never announced, caught, penalty draw of two (Celko 1998, Encyclopedia).
    DrawTwo,
    /// Never announced, draw one or miss the next turn (Great Harbour Cay).
    DrawOneElseSkip,
}

/// A probability in millionths, exact: `--rule` writes it as a decimal from 0 to 1 with at most
/// six decimals (`0.25`), and the engine's coins compare a uniform whole number below a million
/// with it, so another program can repeat every coin exactly (docs/log-format.md, `tap`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub struct Probability(u32);

impl Probability {
    /// Millionths in one.
    pub const SCALE: u32 = 1_000_000;
    /// Certainty.
    pub const ONE: Probability = Probability(Probability::SCALE);
    /// Never.
    pub const ZERO: Probability = Probability(0);

    /// `millionths` / 1 000 000, or `None` above one.
    pub const fn from_millionths(millionths: u32) -> Option<Probability> {
        if millionths <= Probability::SCALE { Some(Probability(millionths)) } else { None }
    }

    /// The probability in millionths.
    pub const fn millionths(self) -> u32 {
        self.0
    }

    /// Whether the coin `u` (64 uniform bits) comes up: `((u >> 32) * 1 000 000) >> 32`, a
    /// whole number in `0..1 000 000`, is below the probability's millionths. Certain at one,
    /// never at zero.
    #[inline]
    pub const fn holds(self, u: u64) -> bool {
        ((u >> 32) * Probability::SCALE as u64) >> 32 < self.0 as u64
    }
}

impl fmt::Display for Probability {
    /// The shortest decimal: `1`, `0`, `0.25`, `0.000001`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, frac) = (self.0 / Probability::SCALE, self.0 % Probability::SCALE);
        if frac == 0 {
            return write!(f, "{whole}");
        }
        let digits = format!("{frac:06}");
        write!(f, "{whole}.{}", digits.trim_end_matches('0'))
    }
}

impl std::str::FromStr for Probability {
    type Err = ();

    /// A decimal from 0 to 1 with at most six decimals (`1`, `0.5`, `.5`, `1.000`).
    fn from_str(s: &str) -> Result<Probability, ()> {
        let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
        let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
        if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) || frac.len() > 6 {
            return Err(());
        }
        let whole: u32 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| ())? };
        let frac: u32 = if frac.is_empty() { 0 } else { format!("{frac:0<6}").parse().map_err(|_| ())? };
        whole
            .checked_mul(Probability::SCALE)
            .and_then(|w| w.checked_add(frac))
            .and_then(Probability::from_millionths)
            .ok_or(())
    }
}

/// Tie-break on equal totals.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TieBreak {
    /// Co-winners (engine default).
    CoWinners,
    /// More zero rounds, then the lower minimum non-zero round (Encyclopedia).
    Wikipedia,
}

/// How blank halves score under `blank_half_value`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BlankScoring {
    /// Each blank half scores the value: `[0|x]` = value + x, `[0|0]` = 2 × value.
    PerHalf,
    /// Any tile with a blank scores the value flat (`flat_25_per_blank_tile`).
    FlatPerTile,
}

/// Branching doubles (Encyclopedia).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BranchingDoubles {
    /// A double has one open end.
    Off,
    /// A covered double opens two more ends.
    FourWay,
    /// Four-way, and all three sides must be covered.
    FourWayTripleCover,
}

/// Every parameter of one game: the preset's values, the set, the table size and the overrides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The preset these values started from.
    pub preset: Preset,
    /// The set: double-`set`.
    pub set: Pip,
    /// Number of seats.
    pub players: u8,
    /// Hand size override; `None` uses the deal table.
    pub hand_size: Option<u8>,
    /// The preset's deal table.
    pub deal_table: DealTable,
    /// Number of rounds; `None` plays every double from `[M|M]` down to `[0|0]`.
    pub rounds: Option<u8>,
    /// How the engine tile is found.
    pub engine_mode: EngineMode,
    /// Who takes the first turn of a round.
    pub first_player: FirstPlayer,
    /// Family house rules, variation 4: `[e|e]` is held out before the shuffle from round 2 on.
    pub set_aside_from_round2: bool,
    /// The first player of round 1.
    pub first_seat: FirstSeat,
    /// The opening of a round.
    pub opening: Opening,
    /// A seat's first turn may only play on its own train.
    pub first_turn_own_train_only: bool,
    /// When the Mexican train may be started.
    pub mexican_start: MexicanStart,
    /// Mexican trains allowed.
    pub max_mexican_trains: u8,
    /// Who lifts a marker.
    pub marker_removal: MarkerRemoval,
    /// A failed turn with an empty boneyard marks (else passes without a marker).
    pub mark_on_empty_boneyard: bool,
    /// The doubler's follow-up.
    pub follow_up: FollowUp,
    /// Doubles one turn may place.
    pub doubles_per_turn: DoublesPerTurn,
    /// Which uncovered doubles oblige the following players; under
    /// [`Obligation::UncoveredDouble`] a turn that leaves several doubles open obliges the
    /// first of them only.
    pub obligation: Obligation,
    /// The order in which obligations are served.
    pub obligation_order: ObligationOrder,
    /// A follow-up draw is allowed even after an earlier draw in the same turn.
    pub followup_draw_per_double: bool,
    /// The last double of its suit needs no cover.
    pub last_of_suit_exempt: bool,
    /// A double that lifts one's own marker needs no cover (Encyclopedia, Exceptions).
    pub reprivatise_exempt: bool,
    /// Going out on a double.
    pub go_out_on_double: GoOutOnDouble,
    /// End the round when it is provably stuck (Great Harbour Cay).
    pub early_end_when_stuck: bool,
    /// Last-tile announcement model.
    pub tap: TapModel,
    /// Under a tap penalty model, the chance that a seat left with one tile forgets to announce
    /// it (1: never announces, the models as the sources state them).
    pub tap_forget: Probability,
    /// Under a tap penalty model, the chance that a forgotten announcement is caught before play
    /// returns to the offender (Celko 1998, Last Tile); the penalty falls with probability
    /// `tap_forget` × `tap_catch`.
    pub tap_catch: Probability,
    /// Tiles a seat draws when its turn ends leaving uncovered a double it placed in that turn
    /// (0: off; at most [`MAX_PENALTY_TILES`]): a common family rule, in none of the five
    /// sources. The reading (docs/rules.md, `uncovered_double_penalty`):
    /// - it falls at the END of the doubler's turn (after any follow-up draw and marker, before
    ///   the turn's obligations are served by anyone), once per turn however many doubles the
    ///   turn left open;
    /// - a double counts when it is still the open end of its train with nothing on it; a double
    ///   that needs no cover (`last_of_suit_exempt`, `reprivatise_exempt`) does not count, nor
    ///   doubles laid in a build phase (Celko build, fast game, delayed first turn);
    /// - the seat draws min(N, boneyard) tiles from the front of the boneyard (none when it is
    ///   empty; the penalty is still logged), keeps them, and neither plays nor marks because of
    ///   them;
    /// - going out on a double ends the round at once, so no penalty falls.
    pub uncovered_double_penalty: u8,
    /// Value of `[0|0]` left in hand.
    pub double_blank_value: u16,
    /// Value of each blank half (0 = ordinary pips).
    pub blank_half_value: u16,
    /// Per blank half, or flat per tile with a blank.
    pub blank_scoring: BlankScoring,
    /// Tie-break on equal totals.
    pub tie_break: TieBreak,
    /// Partnerships.
    pub partnerships: bool,
    /// Swan drive.
    pub swan_drive: bool,
    /// Bullet train.
    pub bullet_train: bool,
    /// Double public.
    pub double_makes_train_public: bool,
    /// Continuous draw.
    pub continuous_draw: bool,
    /// Blanks wild.
    pub blanks_wild: bool,
    /// Branching doubles.
    pub branching_doubles: BranchingDoubles,
    /// Option: the first player may start the Mexican train with his first move (Parsons).
    pub parsons_first_move: bool,
    /// Option: a doubler who cannot cover a double on another seat's train does not mark.
    pub doubler_exempt_on_foreign_train: bool,
    /// Option: an obligation outranks the first-turn ban on other trains.
    pub obligation_overrides_first_turn: bool,
    /// Option: only other seats' plays lift a marker under `AnyPlayOnTrain`.
    pub only_others_unmark: bool,
    /// Option: a marked owner must prefer his own train when he can play there.
    pub marked_owner_must_prefer_own_train: bool,
}

/// One problem found by [`Rules::validate`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The set is not one of the five.
    #[error("double-{0} is not a supported set (valid: 6, 9, 12, 15, 18)")]
    UnknownSet(u8),
    /// The preset does not use this set.
    #[error("the {preset} rules do not use a double-{set} set (valid: {valid})")]
    SetNotInPreset { preset: Preset, set: u8, valid: String },
    /// Fewer than two or more than MAX_PLAYERS seats.
    #[error("{n} player{s} is not playable (valid: 2 to {max} players)", n = .0, s = if *.0 == 1 { "" } else { "s" }, max = MAX_PLAYERS)]
    PlayerCount(u8),
    /// No deal-table row for this (set, players): the preset is not played at that table, whatever
    /// the hand size.
    #[error(
        "the {preset} deal table has no row for {players} players on double-{set} (valid: {valid} players; --hand changes only the tiles per player)"
    )]
    NoDealRow { preset: Preset, set: u8, players: u8, valid: String },
    /// The hand size cannot be dealt.
    #[error(
        "a hand of {hand} tiles for {players} players does not fit double-{set} ({available} tiles to deal; valid hand sizes: 1 to {max})"
    )]
    HandTooLarge { hand: u8, players: u8, set: u8, available: usize, max: usize },
    /// Zero hand size.
    #[error("a hand size of 0 is not playable (valid: 1 or more)")]
    HandZero,
    /// Rounds out of range.
    #[error("{rounds} rounds is not playable on double-{set} (valid: 1 to {max})")]
    Rounds { rounds: u8, set: u8, max: u8 },
    /// First seat out of range.
    #[error("first seat {seat} does not exist with {players} players (valid: 0 to {})", players - 1)]
    FirstSeat { seat: u8, players: u8 },
    /// Rule values that cannot be combined.
    #[error("these rules cannot be combined: {0}")]
    Combination(String),
}

/// Every problem with a configuration, in the order found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleErrors(pub Vec<RuleError>);

impl fmt::Display for RuleErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RuleErrors {}

/// A table described as a person gives it (a preset, the set, the seats, the hand and rounds,
/// and `--rule key=value` changes), before it is built: the data a run stores to rebuild its
/// rules, and what the command line and other callers hand the library.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TableSpec {
    /// The preset's name.
    pub preset: String,
    /// The set: double-`set`.
    pub set: u8,
    /// Seats.
    pub players: u8,
    /// Tiles dealt to each (`None`: the preset's deal table).
    pub hand: Option<u8>,
    /// Rounds per match (`None`: every double from the highest down to 0-0).
    pub rounds: Option<u8>,
    /// `key=value` rule changes, in the order given.
    pub rules: Vec<String>,
}

impl TableSpec {
    /// The preset with the rule changes applied on double-`set` (players, hand and rounds left
    /// at the preset's), and the changes as applied, each once, in the order first given; not
    /// yet validated for a table size.
    ///
    /// # Errors
    /// An unknown preset, a bad or conflicting rule change, or an unsupported set.
    pub(crate) fn preset_rules(&self) -> Result<(Rules, Vec<(String, String)>), crate::error::InvalidInput> {
        let mut rules = Rules::preset(&self.preset)?;
        let applied = rules.apply_rules(&self.rules)?;
        rules.set = crate::tile::Pip::new(self.set).ok_or_else(|| {
            crate::error::InvalidInput(format!("double-{} is not a supported set (valid: 6, 9, 12, 15, 18)", self.set))
        })?;
        Ok((rules, applied))
    }

    /// The validated rules of the table, and the changes as applied.
    ///
    /// # Errors
    /// As `TableSpec::preset_rules`, or a table the rules do not allow (its seats, hand or
    /// rounds), naming every problem.
    pub fn build(&self) -> Result<(Rules, Vec<(String, String)>), TableError> {
        let (mut rules, changes) = self.preset_rules().map_err(TableError::Input)?;
        rules.players = self.players;
        rules.hand_size = self.hand;
        rules.rounds = self.rounds;
        rules.validate().map_err(TableError::Rules)?;
        Ok((rules, changes))
    }
}

/// Why a [`TableSpec`] cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// A bad preset, rule change or set.
    #[error("{0}")]
    Input(crate::error::InvalidInput),
    /// A table the rules do not allow.
    #[error("{0}")]
    Rules(RuleErrors),
}

impl Rules {
    /// The preset named `name` with its default set (double-12) and four players.
    ///
    /// # Errors
    /// Returns the list of valid names if `name` is unknown.
    pub fn preset(name: &str) -> Result<Rules, crate::error::InvalidInput> {
        presets::by_name(name)
    }

    /// The `wikipedia` preset (Encyclopedia consensus) on double-12 with four players.
    pub fn wikipedia() -> Rules {
        presets::wikipedia()
    }

    /// Number of tiles in the set.
    pub fn set_tiles(&self) -> usize {
        Tile::set_size(self.set)
    }

    /// Tiles available to deal: the set minus the engine when it is set aside.
    pub fn dealable_tiles(&self) -> usize {
        self.set_tiles() - usize::from(self.engine_mode == EngineMode::SetAside || self.set_aside_from_round2)
    }

    /// The hand size in force: the override, else the deal table's entry.
    pub fn hand(&self) -> Option<u8> {
        self.hand_size.or_else(|| self.deal_table.hand(self.set.get(), self.players))
    }

    /// Number of rounds in a match.
    pub fn round_count(&self) -> u8 {
        self.rounds.unwrap_or(self.set.get() + 1)
    }

    /// Engine number of round `r` (1-based): the highest double first.
    pub fn engine_of_round(&self, r: u8) -> Pip {
        Pip::from_u8(self.set.get() + 1 - r)
    }

    /// Checks every parameter and reports every problem at once.
    ///
    /// # Errors
    /// [`RuleErrors`] listing each problem found.
    pub fn validate(&self) -> Result<(), RuleErrors> {
        let mut errs = Vec::new();
        let set = self.set.get();
        let set_ok = SETS.contains(&set);
        if !set_ok {
            errs.push(RuleError::UnknownSet(set));
        } else if !self.deal_table.has_set(set) {
            errs.push(RuleError::SetNotInPreset { preset: self.preset, set, valid: self.deal_table.sets_text() });
        }
        let players_ok = (2..=MAX_PLAYERS as u8).contains(&self.players);
        if !players_ok {
            errs.push(RuleError::PlayerCount(self.players));
        }
        if set_ok && players_ok {
            // `--hand` changes the tiles per player only: the sets and player counts a preset
            // plays are those of its deal table.
            if self.deal_table.has_set(set) && self.deal_table.hand(set, self.players).is_none() {
                errs.push(RuleError::NoDealRow {
                    preset: self.preset,
                    set,
                    players: self.players,
                    valid: self.deal_table.players_text(set),
                });
            }
            match self.hand() {
                None => {}
                Some(0) => errs.push(RuleError::HandZero),
                Some(h) => {
                    let available = self.dealable_tiles();
                    if self.players as usize * h as usize > available {
                        errs.push(RuleError::HandTooLarge {
                            hand: h,
                            players: self.players,
                            set,
                            available,
                            max: available / self.players as usize,
                        });
                    }
                }
            }
        }
        if let Some(r) = self.rounds
            && set_ok
            && (r == 0 || r > set + 1)
        {
            errs.push(RuleError::Rounds { rounds: r, set, max: set + 1 });
        }
        if let FirstSeat::Seat(s) = self.first_seat
            && players_ok
            && s >= self.players
        {
            errs.push(RuleError::FirstSeat { seat: s, players: self.players });
        }
        self.check_combinations(&mut errs);
        if errs.is_empty() { Ok(()) } else { Err(RuleErrors(errs)) }
    }

    /// Combinations that cannot work, whatever the engine supports.
    fn check_combinations(&self, errs: &mut Vec<RuleError>) {
        let mut bad = |ok: bool, what: &str| {
            if !ok {
                errs.push(RuleError::Combination(what.to_string()));
            }
        };
        bad(
            (self.doubles_per_turn == DoublesPerTurn::Two) == (self.follow_up == FollowUp::AnyEligibleWithSecondDouble),
            "doubles_per_turn = Two goes with follow_up = AnyEligibleWithSecondDouble and only with it (dominorules.com)",
        );
        bad(
            !(self.engine_mode == EngineMode::HighestUnusedDoubleInHands && self.set_aside_from_round2),
            "family_house v3 (highest unused double) and v4 (engine held out from round 2) choose the engine in incompatible ways",
        );
        bad(
            !(self.engine_mode == EngineMode::HighestUnusedDoubleInHands
                && self.rounds.is_some_and(|r| r > self.set.get() + 1)),
            "more rounds than doubles with the highest unused double as engine",
        );
        bad(self.max_mexican_trains as usize <= MAX_MEXICAN_TRAINS, "max_mexican_trains is at most 4");
        bad(
            !(self.opening == Opening::CelkoBuildPhase
                && self.engine_mode == EngineMode::SetAside
                && self.first_player == FirstPlayer::EnginePlacer),
            "a build phase from the engine placer needs an engine that comes from a hand",
        );
        bad(
            !(self.engine_mode == EngineMode::GaltFirstPlayerHighestDouble && self.set_aside_from_round2),
            "the Galt opening finds its engine in the hands; it cannot be held out from round 2",
        );
        bad(
            !(self.first_player == FirstPlayer::EnginePlacer && self.engine_mode == EngineMode::SetAside),
            "first_player = EnginePlacer needs an engine that comes from a hand (engine_mode other than SetAside)",
        );
        bad(
            !(self.first_player == FirstPlayer::PreviousOut && self.engine_mode == EngineMode::SetAside),
            "first_player = PreviousOut starts round 1 with the engine placer: it needs an engine from a hand in round 1",
        );
        bad(
            !self.blanks_wild
                || (self.opening == Opening::OneTile
                    && !self.bullet_train
                    && self.follow_up != FollowUp::AnyEligibleWithSecondDouble
                    && !(self.follow_up == FollowUp::CoverSameDouble
                        && self.doubles_per_turn == DoublesPerTurn::Unlimited)),
            "blanks wild is played with one-tile openings and without the bullet train, dominorules.com second doubles or multiple doubles",
        );
        bad(
            !(self.blanks_wild && self.branching_doubles != BranchingDoubles::Off),
            "blanks wild with branching doubles (the branches of a wild double would have no single value)",
        );
        bad(
            !self.partnerships || matches!(self.players, 4 | 6 | 8),
            "partnerships need 4, 6 or 8 players, partners sitting opposite",
        );
        bad(
            !(self.follow_up == FollowUp::Optional && self.obligation != Obligation::None),
            "cover optional (follow_up = Optional) passes no obligation: set obligation = None",
        );
        bad(self.uncovered_double_penalty as usize <= MAX_PENALTY_TILES, "uncovered_double_penalty is at most 4 tiles");
    }

    /// Whether the last-tile penalty depends on coins: a tap penalty model with a chance of
    /// announcing or of escaping below one. Only then does the engine draw them and log them.
    #[inline]
    pub fn tap_coins(&self) -> bool {
        self.tap != TapModel::AlwaysAnnounced
            && (self.tap_forget != Probability::ONE || self.tap_catch != Probability::ONE)
    }

    /// Score of one tile left in hand at the end of a round.
    #[inline]
    pub fn tile_score(&self, t: Tile) -> u32 {
        let (a, b) = (t.low().get() as u32, t.high().get() as u32);
        let blank = self.blank_half_value as u32;
        if a == 0 && b == 0 {
            let blanks = if self.blank_scoring == BlankScoring::FlatPerTile { blank } else { 2 * blank };
            return (self.double_blank_value as u32).max(blanks);
        }
        if a == 0 && blank > 0 && self.blank_scoring == BlankScoring::FlatPerTile {
            return blank;
        }
        let half = |v: u32| if v == 0 { blank } else { v };
        half(a) + half(b)
    }
}
