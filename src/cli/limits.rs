//! The limits a balance sweep judges each hand size against (`mtrain balance`), an option group
//! of its own under the "Limits" heading of `--help`.

use super::values;
use crate::balance::{FirstPlayer, Limits};
use clap::Args;

/// The limits of `mtrain balance`.
#[derive(Args, Debug, Clone)]
pub(crate) struct LimitArgs {
    /// Blocked-round limit: a defect above this share of rounds. Blocked rounds are a normal,
    /// scored ending under every source's rules; 5% is this project's convention for an ending
    /// players find unsatisfying, not a finding
    #[arg(long, help_heading = "Limits", default_value = "0.05", value_name = "SHARE", value_parser = values::share, allow_hyphen_values = true)]
    max_blocked: f64,
    /// First-player limit: a defect when the first player wins more than this above the fair
    /// share 1/N (0.03: 3 points, about one extra win in 33)
    #[arg(long, help_heading = "Limits", default_value = "0.03", value_name = "SHARE", value_parser = values::share, allow_hyphen_values = true)]
    max_first_edge: f64,
    /// Which first player is judged: match (the seat that leads round 1, over a whole match:
    /// how the game is played) or round (the first player of each round, per round)
    #[arg(long, help_heading = "Limits", default_value = "match", value_name = "match|round", value_parser = FirstPlayer::parse)]
    first_player: FirstPlayer,
    /// Skill floor: a defect when the field's first bot finishes ahead of its last in fewer than
    /// this share of comparisons (0.55: a 5-point edge, little room for the better player)
    #[arg(long, help_heading = "Limits", default_value = "0.55", value_name = "SCORE", value_parser = values::share, allow_hyphen_values = true)]
    min_skill: f64,
    /// Skill ceiling: a defect when the field's second bot (the first, in a field of two)
    /// finishes ahead of its last in more than this share of comparisons (0.95: the weaker player
    /// wins fewer than one in twenty; luck no longer gives it a chance)
    #[arg(long, help_heading = "Limits", default_value = "0.95", value_name = "SCORE", value_parser = values::share, allow_hyphen_values = true)]
    max_skill: f64,
    /// Indifference margin: a defect needs the 95% interval wholly past the limit by more than
    /// this; one past the limit but not the margin is "on the limit" (no defect, and reported),
    /// and one containing the margin's edge is sampled further (0.01: 1 point)
    #[arg(long, help_heading = "Limits", default_value = "0.01", value_name = "SHARE", value_parser = values::share, allow_hyphen_values = true)]
    margin: f64,
}

impl LimitArgs {
    /// The limits, as the library takes them.
    pub(crate) fn limits(&self) -> Limits {
        Limits {
            max_blocked: self.max_blocked,
            max_first_edge: self.max_first_edge,
            min_skill: self.min_skill,
            max_skill: self.max_skill,
            first_player: self.first_player,
            margin: self.margin,
        }
    }
}
