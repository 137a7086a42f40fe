//! A tournament as a job: what a run is asked to be ([`TournamentSpec`]), checked into a run
//! ([`TournamentJob`]): the tournament, its stopping rule, the bot its ratings are anchored on,
//! the gauntlet bot, the shard it plays, and how its reports name the bots. The command line
//! (`mtrain tournament`) and any other caller build one, run it through a
//! [`super::Session`], and report its tally.

use super::{Schedule, Seating, Sprt, Tournament};
use crate::error::{InvalidInput, StoreError};
use crate::rules::TableSpec;
use crate::strategies::BotLabel;
use crate::strategies::Registry;
use crate::strategy::StrategySpec;

/// What a tournament is asked to be, before it is checked: plain data (serde), the
/// configuration a run is rebuilt from.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TournamentSpec {
    /// The table.
    pub table: TableSpec,
    /// The field as a `--bots` list (`None`: the registry's default field).
    pub bots: Option<String>,
    /// A bot that sits at every table (added to the field if missing).
    pub gauntlet: Option<String>,
    /// The bot rated 0 (`None`: the gauntlet bot, else the first of the field).
    pub anchor: Option<String>,
    /// Games (each seat rotation of a deal is one).
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Every seat rotation of a deal (else each deal once).
    pub rotate: bool,
    /// Vary the order around the table over deals.
    pub vary_order: bool,
    /// Stop a two-bot comparison by a sequential test.
    pub sprt: Option<Sprt>,
    /// Slice `i` of `n` of the deals.
    pub shard: Option<(u64, u64)>,
}

/// What a run is, as its `tally.json` stores it: the spec (without its shard: the shards of one
/// run share one configuration) and the external bots and named specs the field uses. A
/// resumed or merged run is rebuilt from it; two folders hold the same run when their
/// configurations are equal.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TournamentConfig {
    /// The tournament (`shard` always `None`).
    pub spec: TournamentSpec,
    /// The bots the registry adds for it.
    pub bots: crate::external::BotSetup,
}

impl TournamentConfig {
    /// The configuration of `spec` (its shard dropped) with `bots`.
    pub fn new(spec: &TournamentSpec, bots: crate::external::BotSetup) -> TournamentConfig {
        TournamentConfig { spec: TournamentSpec { shard: None, ..spec.clone() }, bots }
    }

    /// As stored in a state.
    pub(crate) fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("serialisable")
    }

    /// The configuration a state stores.
    ///
    /// # Errors
    /// [`StoreError::Mismatch`] when the stored value does not describe a tournament.
    pub(crate) fn of(st: &super::RunState) -> Result<TournamentConfig, StoreError> {
        serde_json::from_value(st.config.clone())
            .map_err(|e| StoreError::Mismatch(format!("its tally.json does not describe a tournament ({e})")))
    }
}

/// A checked tournament run.
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct TournamentJob {
    /// The tournament.
    pub tournament: Tournament,
    /// Its stopping rule.
    pub sprt: Option<Sprt>,
    /// Field index of the bot rated 0.
    pub anchor: usize,
    /// The gauntlet bot's field index, if any.
    pub gauntlet: Option<usize>,
    /// The slice it plays.
    pub shard: Option<(u64, u64)>,
    /// The `--rule` changes as applied.
    pub changes: Vec<(String, String)>,
    /// How results show each bot of the field.
    pub(crate) labels: Vec<BotLabel>,
}

/// The field index of the bot `name` names (canonical form, so `montecarlo:samples=32` is
/// `montecarlo`), or an error listing the field.
fn anchor_index(registry: &Registry, bots: &[StrategySpec], name: &str) -> Result<usize, InvalidInput> {
    let listed = || bots.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    let spec =
        registry.field(name).ok().filter(|f| f.bots.len() == 1).ok_or_else(|| {
            InvalidInput(format!("--anchor '{name}' is not one bot of the field (valid: {})", listed()))
        })?;
    bots.iter()
        .position(|b| *b == spec.bots[0])
        .ok_or_else(|| InvalidInput(format!("--anchor '{name}' is not in the field (valid: {})", listed())))
}

impl TournamentJob {
    /// Checks a run: the field and gauntlet known to the registry, a schedule the table can
    /// seat, an SPRT only for two bots and never on a shard, an anchor in the field.
    ///
    /// # Errors
    /// One line naming the problem (as the command line's options).
    pub fn new(spec: &TournamentSpec, registry: &Registry) -> Result<TournamentJob, InvalidInput> {
        let bad = |e: &dyn std::fmt::Display| InvalidInput(e.to_string());
        let (rules, changes) = spec.table.build().map_err(|e| bad(&e))?;
        let mut list = spec.bots.clone().unwrap_or_else(|| registry.default_field());
        let mut field = registry.field(&list).map_err(|e| bad(&e))?;
        let gauntlet = match &spec.gauntlet {
            None => None,
            Some(name) => {
                // An unknown bot or parameter is named as in --bots; a list is not one bot.
                let one = registry.field(name).map_err(|e| InvalidInput(format!("--gauntlet: {e}")))?;
                if one.entries.len() != 1 {
                    return Err(InvalidInput(format!(
                        "--gauntlet '{name}' is not one bot but {}: give one name or name:key=value spec",
                        one.entries.len()
                    )));
                }
                if !field.bots.contains(&one.bots[0]) {
                    list = format!("{name},{list}");
                    field = registry.field(&list).map_err(|e| bad(&e))?;
                }
                let bot = field.bots.iter().position(|b| *b == one.bots[0]).expect("in the field");
                Some((bot, field.entries.iter().position(|&e| e as usize == bot).expect("listed")))
            }
        };
        let seating = Seating {
            rotate: spec.rotate,
            vary_order: spec.vary_order,
            deterministic: registry.deterministic(&field.bots),
            gauntlet: gauntlet.map(|(_, entry)| entry),
        };
        let schedule = Schedule::with_seating(&field.entries, rules.players, seating, spec.games, spec.seed)
            .map_err(|e| bad(&e))?;
        if spec.sprt.is_some() && field.bots.len() != 2 {
            return Err(InvalidInput(format!(
                "--sprt compares two bots, but the field has {} distinct bot{}",
                field.bots.len(),
                if field.bots.len() == 1 { "" } else { "s" }
            )));
        }
        if spec.sprt.is_some() && spec.shard.is_some() {
            return Err("--sprt decides on the whole run in order, so it cannot be combined with --shard".into());
        }
        let anchor = match (&spec.anchor, gauntlet) {
            (Some(name), _) => anchor_index(registry, &field.bots, name)?,
            (None, Some((bot, _))) => bot,
            (None, None) => 0,
        };
        let labels = field.bots.iter().map(|b| BotLabel::of(registry, b)).collect();
        let tournament = Tournament::with_registry(rules, field.bots, schedule, registry).map_err(|e| bad(&e))?;
        Ok(TournamentJob {
            tournament,
            sprt: spec.sprt,
            anchor,
            gauntlet: gauntlet.map(|(bot, _)| bot),
            shard: spec.shard,
            changes,
            labels,
        })
    }
}
