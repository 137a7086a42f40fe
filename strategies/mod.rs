//! The built-in bots and their registry (name → constructor).
//!
//! Built-in bots are dispatched through the [`Bot`] enum, so the hot loop calls them without a
//! virtual call or a box; the [`Strategy`] trait stays the extension point.

mod cutthroat;
mod greedy;
mod hoarder;
mod montecarlo;
pub mod plan;
mod plan_search;
mod planner;
mod random;

pub use cutthroat::Cutthroat;
pub use greedy::Greedy;
pub use hoarder::Hoarder;
pub use montecarlo::{MAX_SAMPLES, MonteCarlo, ROLLOUT_BOTS};
pub use planner::Planner;
pub use random::Random;

use crate::rng::GameRng;
use crate::round::MoveList;
use crate::strategy::{SpecError, Strategy, StrategySpec};
use crate::view::View;

/// One parameter of a bot.
pub struct ParamInfo {
    /// Key in the spec.
    pub key: &'static str,
    /// Default value.
    pub default: &'static str,
    /// Accepted values and meaning.
    pub help: &'static str,
}

/// A registered bot.
pub struct BotInfo {
    /// Registry name.
    pub name: &'static str,
    /// Whether `mtrain tournament` without `--bots` fields it (search bots are left out: they
    /// cost about a millisecond per decision, a thousand times the others).
    pub default_field: bool,
    /// The idea in one line.
    pub about: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
}

/// Every built-in bot.
pub const BOTS: &[BotInfo] =
    &[random::INFO, greedy::INFO, planner::INFO, hoarder::INFO, cutthroat::INFO, montecarlo::INFO];

/// Comma-separated registry names.
pub fn bot_names() -> String {
    BOTS.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")
}

/// A built-in bot.
#[derive(Debug)]
pub enum Bot {
    /// Uniform over legal moves.
    Random(Random),
    /// Highest pip count first.
    Greedy(Greedy),
    /// Longest own-train plan, extras elsewhere.
    Planner(Planner),
    /// The planner, hoarding doubles.
    Hoarder(Hoarder),
    /// The planner, leaving doubles open and steering ends into known voids.
    Cutthroat(Cutthroat),
    /// Determinized search with rollouts.
    MonteCarlo(MonteCarlo),
}

impl Clone for Bot {
    fn clone(&self) -> Bot {
        match self {
            Bot::Random(b) => Bot::Random(b.clone()),
            Bot::Greedy(b) => Bot::Greedy(b.clone()),
            Bot::Planner(b) => Bot::Planner(b.clone()),
            Bot::Hoarder(b) => Bot::Hoarder(b.clone()),
            Bot::Cutthroat(b) => Bot::Cutthroat(b.clone()),
            Bot::MonteCarlo(b) => Bot::MonteCarlo(b.clone()),
        }
    }

    /// Reuses the buffers of a bot of the same kind (the tournament resets its seats with this
    /// between games, so a search bot allocates once per seat, not once per game).
    fn clone_from(&mut self, source: &Bot) {
        match (self, source) {
            (Bot::MonteCarlo(a), Bot::MonteCarlo(b)) => a.clone_from(b),
            (this, _) => *this = source.clone(),
        }
    }
}

impl Bot {
    /// Builds a bot from its spec.
    ///
    /// # Errors
    /// Unknown name, unknown parameter or bad value, each naming the valid choices.
    pub fn from_spec(spec: &StrategySpec) -> Result<Bot, SpecError> {
        let info = BOTS
            .iter()
            .find(|b| b.name == spec.name)
            .ok_or_else(|| SpecError::UnknownBot { name: spec.name.clone(), valid: bot_names() })?;
        for (k, _) in &spec.params {
            if !info.params.iter().any(|p| p.key == k) {
                let valid = if info.params.is_empty() {
                    "none: this bot takes no parameters".to_string()
                } else {
                    info.params.iter().map(|p| p.key).collect::<Vec<_>>().join(", ")
                };
                return Err(SpecError::UnknownParam { bot: spec.name.clone(), key: k.clone(), valid });
            }
        }
        Ok(match info.name {
            "random" => Bot::Random(Random),
            "greedy" => Bot::Greedy(Greedy::from_spec(spec)?),
            "planner" => Bot::Planner(Planner::default()),
            "hoarder" => Bot::Hoarder(Hoarder::from_spec(spec)?),
            "cutthroat" => Bot::Cutthroat(Cutthroat::default()),
            "montecarlo" => Bot::MonteCarlo(MonteCarlo::from_spec(spec)?),
            _ => unreachable!("registry and constructor list disagree"),
        })
    }

    /// Parses and builds in one step.
    ///
    /// # Errors
    /// As [`StrategySpec::from_str`] and [`Bot::from_spec`].
    pub fn parse(s: &str) -> Result<Bot, SpecError> {
        Bot::from_spec(&s.parse()?)
    }
}

impl Strategy for Bot {
    #[inline]
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        match self {
            Bot::Random(b) => b.choose(view, moves, rng),
            Bot::Greedy(b) => b.choose(view, moves, rng),
            Bot::Planner(b) => b.choose(view, moves, rng),
            Bot::Hoarder(b) => b.choose(view, moves, rng),
            Bot::Cutthroat(b) => b.choose(view, moves, rng),
            Bot::MonteCarlo(b) => b.choose(view, moves, rng),
        }
    }

    fn uses_voids(&self) -> bool {
        // Only cutthroat reads voids, and montecarlo samples worlds that respect them.
        matches!(self, Bot::Cutthroat(_) | Bot::MonteCarlo(_))
    }

    fn uses_rng(&self) -> bool {
        match self {
            Bot::Random(_) | Bot::MonteCarlo(_) => true,
            Bot::Greedy(b) => b.random_ties(),
            Bot::Planner(_) | Bot::Hoarder(_) | Bot::Cutthroat(_) => false,
        }
    }

    fn round_start(&mut self, view: &View<'_>) {
        match self {
            Bot::Random(b) => b.round_start(view),
            Bot::Greedy(b) => b.round_start(view),
            Bot::Planner(b) => b.round_start(view),
            Bot::Hoarder(b) => b.round_start(view),
            Bot::Cutthroat(b) => b.round_start(view),
            Bot::MonteCarlo(b) => b.round_start(view),
        }
    }
}

/// Whether every bot of `specs` plays the same move from the same view (never draws on its
/// random stream); unknown specs count as not.
pub fn deterministic(specs: &[StrategySpec]) -> bool {
    specs.iter().all(|s| Bot::from_spec(s).is_ok_and(|b| !b.uses_rng()))
}

/// Looks up a parameter value in a spec, or the default.
pub(crate) fn param<'a>(spec: &'a StrategySpec, info: &'static BotInfo, key: &str) -> &'a str {
    spec.params
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| info.params.iter().find(|p| p.key == key).map(|p| p.default).expect("parameter registered"))
}

/// A spec in its one canonical form: parameters equal to their defaults dropped, the rest in
/// the bot's parameter order, so that two specs of the same bot compare equal (`greedy` and
/// `greedy:ties=first` are one bot).
///
/// # Errors
/// An unknown bot or parameter, a parameter given twice, or a bad value, each naming the valid
/// choices.
pub fn canonical(spec: &StrategySpec) -> Result<StrategySpec, SpecError> {
    Bot::from_spec(spec)?;
    let info = BOTS.iter().find(|b| b.name == spec.name).expect("checked by from_spec");
    for (i, (k, _)) in spec.params.iter().enumerate() {
        if spec.params[..i].iter().any(|(j, _)| j == k) {
            return Err(SpecError::BadValue {
                bot: spec.name.clone(),
                key: k.clone(),
                value: "given twice".into(),
                valid: "each parameter once".into(),
            });
        }
    }
    let params = info
        .params
        .iter()
        .filter_map(|p| {
            let v = param(spec, info, p.key);
            (v != p.default).then(|| (p.key.to_string(), v.to_string()))
        })
        .collect();
    Ok(StrategySpec { name: spec.name.clone(), params })
}

/// A `--bots` list, the grammar every subcommand shares: its distinct bots and, for each entry
/// of the list, which of them it is.
///
/// With as many entries as seats the list is the lineup (repeats allowed: `greedy,greedy,
/// planner,planner`); with fewer, it is repeated to fill the table (`greedy,random` on four seats
/// is `greedy,random,greedy,random`; `greedy` alone is self-play); with more (tournaments only),
/// every combination of entries plays equally often. Results are reported per distinct bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The distinct bots, canonical, in order of first appearance.
    pub bots: Vec<StrategySpec>,
    /// Index into `bots` of each list entry, in list order.
    pub entries: Vec<u16>,
}

impl Field {
    /// Parses and checks a comma-separated list of bot specs.
    ///
    /// # Errors
    /// Malformed text, an unknown bot or parameter, or a bad value.
    pub fn parse(list: &str) -> Result<Field, SpecError> {
        let mut field = Field { bots: Vec::new(), entries: Vec::new() };
        for spec in crate::strategy::parse_bot_list(list)? {
            let c = canonical(&spec)?;
            let i = match field.bots.iter().position(|b| *b == c) {
                Some(i) => i,
                None => {
                    field.bots.push(c);
                    field.bots.len() - 1
                }
            };
            field.entries.push(i as u16);
        }
        Ok(field)
    }

    /// The bot of each of `players` seats when the list is no longer than the table: the
    /// entries, repeated to fill it.
    pub fn lineup(&self, players: usize) -> impl Iterator<Item = usize> + '_ {
        debug_assert!(self.entries.len() <= players);
        (0..players).map(move |s| self.entries[s % self.entries.len()] as usize)
    }
}

#[cfg(test)]
mod field_tests {
    use super::*;

    #[test]
    fn one_bot_one_name_and_lists_fill_the_table() {
        let f = Field::parse("greedy,greedy:ties=first,planner,greedy:ties=random").unwrap();
        let names: Vec<String> = f.bots.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["greedy", "planner", "greedy:ties=random"]);
        assert_eq!(f.entries, [0, 0, 1, 2]);
        assert_eq!(f.lineup(4).collect::<Vec<_>>(), [0, 0, 1, 2]);
        let f = Field::parse("greedy,random").unwrap();
        assert_eq!(f.lineup(4).collect::<Vec<_>>(), [0, 1, 0, 1]);
        assert_eq!(f.lineup(3).collect::<Vec<_>>(), [0, 1, 0]);
        let c = canonical(&"montecarlo:rollout=greedy,samples=16".parse().unwrap()).unwrap();
        assert_eq!(c.to_string(), "montecarlo:samples=16");
        assert!(Field::parse("greedy:ties=first,ties=random").unwrap_err().to_string().contains("given twice"));
        assert!(Field::parse("alien").unwrap_err().to_string().contains("unknown bot 'alien'"));
    }
}
