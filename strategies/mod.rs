//! The built-in bots and their registry (name → constructor).
//!
//! Built-in bots are dispatched through the [`Bot`] enum, so the hot loop calls them without a
//! virtual call or a box. Any other [`Strategy`] enters as [`Bot::Custom`], by name through a
//! [`Registry`].

mod cutthroat;
mod expert;
mod greedy;
mod hoarder;
mod learned;
mod montecarlo;
mod oracle;
#[doc(hidden)] // the planner's search, for the integration tests and benches
pub mod plan;
mod plan_search;
mod planner;
mod random;
mod weighted;

pub use cutthroat::Cutthroat;
pub use expert::Expert;
pub use greedy::Greedy;
pub use hoarder::Hoarder;
pub use learned::{Learned, MOVE_FEATURES, input as learned_input};
pub use montecarlo::{MonteCarlo, rollouts_on_this_thread};
pub use oracle::Oracle;
pub use planner::Planner;
pub use random::Random;
pub(crate) use weighted::set_weight;
pub use weighted::{CELKO_WEIGHTS, FEATURES, Features, HAND_WEIGHTS, Weighted, hand_spec};

use crate::rng::GameRng;
use crate::round::{MoveList, SeenEvent};
use crate::strategy::{MatchStart, Needs, SpecError, Strategy, StrategySpec};
use crate::view::View;
use std::fmt;
use std::sync::Arc;

/// Set when a run is cutting its games in flight short (a second signal, or the first one's
/// grace period run out): the search bots then answer at once with their first legal move, so
/// a game in flight ends within milliseconds. Such games are never counted (the runner discards
/// every chunk it cuts), so the moves played then do not matter.
static ABANDON: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Tells the search bots (`montecarlo`, `expert`, `oracle`) of this process that the games in
/// flight are being cut short and will be discarded (`true`), or that a new run starts
/// (`false`). Only a runner that discards the games in flight may set it.
#[doc(hidden)] // for the integration tests and benches
pub fn abandon_searches(on: bool) {
    ABANDON.store(on, std::sync::atomic::Ordering::SeqCst);
}

/// Whether the games in flight are being cut short ([`abandon_searches`]).
pub(crate) fn searches_abandoned() -> bool {
    ABANDON.load(std::sync::atomic::Ordering::Relaxed)
}

/// One parameter of a bot.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// Key in the spec.
    pub key: &'static str,
    /// Default value.
    pub default: &'static str,
    /// Accepted values and meaning.
    pub help: &'static str,
}

/// A built-in bot: its entry in the table below.
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
    /// Builds it from a spec whose parameter keys are among `params`.
    pub build: fn(&StrategySpec) -> Result<Bot, SpecError>,
}

/// A strategy from outside the built-in table: any [`Strategy`] that can be cloned and shared
/// between threads. Implemented for every such type; [`Bot::custom`] wraps one.
pub trait CustomStrategy: Strategy + Send + Sync {
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn CustomStrategy>;
}

impl<T: Strategy + Clone + Send + Sync + 'static> CustomStrategy for T {
    fn clone_box(&self) -> Box<dyn CustomStrategy> {
        Box::new(self.clone())
    }
}

/// Declares the built-in bots, one table entry each (`Variant(Type): module`, the module
/// holding its `INFO`): the [`Bot`] enum, its dispatch and the [`BOTS`] table all come from
/// this list, so registering a built-in is one line. Built-ins are dispatched through the
/// enum, so the hot loop calls them without a virtual call or a box; a [`Bot::Custom`] bot
/// costs one virtual call per decision.
macro_rules! builtin_bots {
    ($($variant:ident($ty:ty): $module:ident),+ $(,)?) => {
        /// A bot: one of the built-ins, or a custom [`Strategy`] (a user's Rust bot, an
        /// external program).
        pub enum Bot {
            $(
                #[doc = concat!("The built-in `", stringify!($module), "`.")]
                $variant($ty),
            )+
            /// A strategy from outside the table.
            Custom(Box<dyn CustomStrategy>),
        }

        /// Every built-in bot.
        pub const BOTS: &[BotInfo] = &[$($module::INFO),+];

        impl Clone for Bot {
            fn clone(&self) -> Bot {
                match self {
                    $(Bot::$variant(b) => Bot::$variant(b.clone()),)+
                    Bot::Custom(b) => Bot::Custom(b.clone_box()),
                }
            }

            /// Reuses the buffers of a bot of the same kind (the tournament resets its seats
            /// with this between games, so a search bot allocates once per seat, not once per
            /// game).
            fn clone_from(&mut self, source: &Bot) {
                match (self, source) {
                    $((Bot::$variant(a), Bot::$variant(b)) => a.clone_from(b),)+
                    (this, _) => *this = source.clone(),
                }
            }
        }

        impl fmt::Debug for Bot {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(Bot::$variant(b) => f.debug_tuple(stringify!($variant)).field(b).finish(),)+
                    Bot::Custom(_) => f.write_str("Custom(..)"),
                }
            }
        }

        impl Strategy for Bot {
            #[inline]
            fn picks_listed(&self) -> bool {
                matches!(self, Bot::Weighted(_))
            }

            #[inline]
            fn pick_listed(
                &mut self,
                st: &crate::round::RoundState,
                me: crate::round::Seat,
                moves: &[(crate::round::TrainId, crate::tile::Pip, crate::tile::Pip)],
            ) -> usize {
                match self {
                    Bot::Weighted(w) => w.pick_compact(st, me, moves),
                    _ => unreachable!("only weighted picks from listed moves"),
                }
            }

            #[inline]
            fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
                match self {
                    $(Bot::$variant(b) => b.choose(view, moves, rng),)+
                    Bot::Custom(b) => b.choose(view, moves, rng),
                }
            }

            fn needs(&self) -> Needs {
                match self {
                    $(Bot::$variant(b) => b.needs(),)+
                    Bot::Custom(b) => b.needs(),
                }
            }

            fn round_start(&mut self, view: &View<'_>) {
                match self {
                    $(Bot::$variant(b) => b.round_start(view),)+
                    Bot::Custom(b) => b.round_start(view),
                }
            }

            fn match_start(&mut self, start: &MatchStart<'_>) {
                match self {
                    $(Bot::$variant(b) => b.match_start(start),)+
                    Bot::Custom(b) => b.match_start(start),
                }
            }

            fn observe(&mut self, events: &[SeenEvent]) {
                match self {
                    $(Bot::$variant(b) => b.observe(events),)+
                    Bot::Custom(b) => b.observe(events),
                }
            }

            fn has_failed(&self) -> bool {
                match self {
                    $(Bot::$variant(b) => b.has_failed(),)+
                    Bot::Custom(b) => b.has_failed(),
                }
            }
        }
    };
}

// The bots with a few hundred bytes of tables are boxed, so that a `Bot` is small: every game of
// a Python `VecEnv` keeps one per opponent seat.
builtin_bots! {
    Random(Random): random,
    Greedy(Greedy): greedy,
    Planner(Box<Planner>): planner,
    Hoarder(Box<Hoarder>): hoarder,
    Cutthroat(Box<Cutthroat>): cutthroat,
    MonteCarlo(MonteCarlo): montecarlo,
    Expert(Box<Expert>): expert,
    Oracle(Oracle): oracle,
    Weighted(Box<Weighted>): weighted,
    Learned(Box<Learned>): learned,
}

/// Comma-separated names of the built-in bots.
pub(crate) fn bot_names() -> String {
    BOTS.iter().map(|b| b.name).collect::<Vec<_>>().join(", ")
}

/// Refuses parameter keys a bot does not list, naming the valid ones.
fn check_keys(spec: &StrategySpec, params: &[ParamInfo]) -> Result<(), SpecError> {
    for (k, _) in &spec.params {
        if !params.iter().any(|p| p.key == k) {
            let valid = if params.is_empty() {
                "none: this bot takes no parameters".to_string()
            } else {
                params.iter().map(|p| p.key).collect::<Vec<_>>().join(", ")
            };
            return Err(SpecError::UnknownParam { bot: spec.name.clone(), key: k.clone(), valid });
        }
    }
    Ok(())
}

impl Bot {
    /// Builds a built-in bot from its spec.
    ///
    /// # Errors
    /// Unknown name, unknown parameter or bad value, each naming the valid choices.
    pub(crate) fn from_spec(spec: &StrategySpec) -> Result<Bot, SpecError> {
        let info = BOTS
            .iter()
            .find(|b| b.name == spec.name)
            .ok_or_else(|| SpecError::UnknownBot { name: spec.name.clone(), valid: bot_names() })?;
        check_keys(spec, info.params)?;
        (info.build)(spec)
    }

    /// Parses and builds a built-in bot in one step.
    ///
    /// # Errors
    /// As parsing a [`StrategySpec`] and `Bot::from_spec`.
    pub fn parse(s: &str) -> Result<Bot, SpecError> {
        Bot::from_spec(&s.parse()?)
    }

    /// Limits each plan search of a planning bot (`planner`, `hoarder`, `cutthroat`,
    /// `weighted`) to `budget` expanded nodes; other bots are left as they are. The search bots
    /// do this to their rollout bots, and the `oracle` to the bots it models the seats with.
    pub(crate) fn limit_plan(&mut self, budget: u32) {
        match self {
            Bot::Planner(b) => b.cache.limit(budget),
            Bot::Hoarder(b) => b.cache.limit(budget),
            Bot::Cutthroat(b) => b.cache.limit(budget),
            Bot::Weighted(b) => b.cache.limit(budget),
            _ => {}
        }
    }

    /// Wraps any strategy that can be cloned and shared between threads.
    pub fn custom<S: Strategy + Clone + Send + Sync + 'static>(strategy: S) -> Bot {
        Bot::Custom(Box::new(strategy))
    }
}

/// Builds a bot of a registry entry.
type Builder = Arc<dyn Fn(&StrategySpec) -> Result<Bot, SpecError> + Send + Sync>;

/// Where a registered bot comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// One of mtrain's own bots.
    BuiltIn,
    /// A Rust [`Strategy`] added with [`Registry::add`].
    Rust,
    /// An external program (`--ext-bot NAME=COMMAND`), run as written here.
    External(String),
    /// A short name for a spec (`--name NAME=SPEC`): the spec written here, in canonical form.
    Alias(String),
}

/// One bot in a [`Registry`].
#[derive(Clone)]
pub struct Entry {
    /// The name used in `--bots`.
    pub name: String,
    /// The idea in one line.
    pub about: String,
    /// Whether `mtrain tournament` without `--bots` fields it.
    pub default_field: bool,
    /// Its parameters, checked and defaulted by the registry; `None` when any `key=value` is
    /// passed through unchecked (an external program checks its own).
    pub params: Option<Vec<ParamInfo>>,
    /// Where it comes from.
    pub origin: Origin,
    build: Builder,
}

/// The bots a command line knows, by name: the built-ins, plus whatever a user adds. Every
/// subcommand takes its bots from here, so a bot added to a registry handed to
/// [`crate::run_command_line_with`] plays in `play`, `tournament`, `balance` and `bench` exactly
/// as a built-in does.
///
/// # Examples
///
/// ```
/// use mexican_train::strategies::{ParamInfo, Registry};
/// use mexican_train::{GameRng, MoveList, Strategy, View};
///
/// #[derive(Clone)]
/// struct Nth(usize);
///
/// impl Strategy for Nth {
///     fn choose(&mut self, _view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
///         self.0.min(moves.len() - 1)
///     }
/// }
///
/// let mut registry = Registry::builtin();
/// const PARAMS: &[ParamInfo] = &[ParamInfo { key: "n", default: "0", help: "which legal move to play" }];
/// registry.add("nth", "plays the n-th legal move", PARAMS, |spec| {
///     // Every listed parameter is present: as given, or at its default.
///     let n = spec.get("n").unwrap_or("0");
///     n.parse().map(Nth).map_err(|_| spec.bad_value("n", "a non-negative integer"))
/// });
/// let field = registry.field("nth:n=1,greedy").unwrap();
/// assert_eq!(field.bots[0].to_string(), "nth:n=1");
/// assert!(registry.field("nth:n=x").unwrap_err().to_string().contains("invalid value 'x'"));
/// // `mexican_train::run_command_line_with(&registry, std::env::args_os())` runs mtrain with it.
/// ```
#[derive(Clone)]
pub struct Registry {
    entries: Vec<Entry>,
}

/// Why a name cannot be given to a bot in a [`Registry`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty, or a character other than letters, digits, `_` and `-`.
    #[error("invalid bot name '{0}': use letters, digits, '_' and '-'")]
    Invalid(String),
    /// A bot of the registry has the name already.
    #[error("a bot named '{name}' already exists (taken: {taken})")]
    Taken {
        /// The name.
        name: String,
        /// Every name of the registry, comma-separated.
        taken: String,
    },
}

impl Default for Registry {
    fn default() -> Registry {
        Registry::builtin()
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.entries.iter().map(|e| &e.name)).finish()
    }
}

impl Registry {
    /// The built-in bots.
    pub fn builtin() -> Registry {
        let entries = BOTS
            .iter()
            .map(|info| {
                let build = info.build;
                Entry {
                    name: info.name.to_string(),
                    about: info.about.to_string(),
                    default_field: info.default_field,
                    params: Some(info.params.to_vec()),
                    origin: Origin::BuiltIn,
                    build: Arc::new(build),
                }
            })
            .collect();
        Registry { entries }
    }

    /// No bots at all.
    pub fn empty() -> Registry {
        Registry { entries: Vec::new() }
    }

    /// Adds a Rust strategy under `name`, with its parameters. `build` makes one from a spec
    /// whose parameters the registry has checked (unknown keys and repeats are refused) and
    /// completed (every listed key present, at its default when not given). Not in the default
    /// tournament field.
    ///
    /// # Panics
    /// If `name` is taken or is not a valid bot name (letters, digits, `_` and `-`): a mistake
    /// in the program that builds the registry.
    pub fn add<S, F>(&mut self, name: &str, about: &str, params: &[ParamInfo], build: F) -> &mut Registry
    where
        S: Strategy + Clone + Send + Sync + 'static,
        F: Fn(&StrategySpec) -> Result<S, SpecError> + Send + Sync + 'static,
    {
        if let Err(e) = self.check_name(name) {
            panic!("Registry::add: {e}");
        }
        self.entries.push(Entry {
            name: name.to_string(),
            about: about.to_string(),
            default_field: false,
            params: Some(params.to_vec()),
            origin: Origin::Rust,
            build: Arc::new(move |spec| build(spec).map(Bot::custom)),
        });
        self
    }

    /// Adds an entry made elsewhere (external programs: [`crate::external`]).
    ///
    /// # Errors
    /// A taken or invalid name.
    pub fn add_entry(
        &mut self,
        name: &str,
        about: &str,
        origin: Origin,
        build: impl Fn(&StrategySpec) -> Result<Bot, SpecError> + Send + Sync + 'static,
    ) -> Result<(), NameError> {
        self.check_name(name)?;
        self.entries.push(Entry {
            name: name.to_string(),
            about: about.to_string(),
            default_field: false,
            params: None,
            origin,
            build: Arc::new(build),
        });
        Ok(())
    }

    /// Names a spec: `name` in a `--bots` list is the bot `spec` (one bot of this registry, with
    /// its parameters), and results show `name`. A tuned bot's long spec becomes a short column
    /// in every table; [`Registry::full_spec`] gives the spec back for the records.
    ///
    /// # Errors
    /// A taken or invalid name, or a spec that is not one valid bot, as one line.
    ///
    /// # Examples
    ///
    /// ```
    /// use mexican_train::strategies::Registry;
    ///
    /// let mut registry = Registry::builtin();
    /// registry.alias("patient", "hoarder:release=1,late=5").unwrap();
    /// let field = registry.field("patient,greedy").unwrap();
    /// assert_eq!(field.bots[0].to_string(), "patient");
    /// assert_eq!(registry.full_spec(&field.bots[0]), "hoarder:release=1,late=5");
    /// ```
    pub fn alias(&mut self, name: &str, spec: &str) -> Result<(), crate::error::InvalidInput> {
        self.check_name(name).map_err(|e| crate::error::InvalidInput(e.to_string()))?;
        let field = self.field(spec).map_err(|e| e.to_string())?;
        if field.entries.len() != 1 {
            return Err(format!("'{spec}' is not one bot (give one name or name:key=value spec)").into());
        }
        let target = field.bots[0].clone();
        let full = self.full_spec(&target);
        let inner = self.clone();
        self.entries.push(Entry {
            name: name.to_string(),
            about: format!("a name for {full}"),
            default_field: false,
            params: Some(Vec::new()),
            origin: Origin::Alias(full),
            build: Arc::new(move |_| inner.build(&target)),
        });
        Ok(())
    }

    /// The spec a bot stands for: the named spec of a [`Registry::alias`], else the spec itself.
    pub fn full_spec(&self, spec: &StrategySpec) -> String {
        match self.get(&spec.name).map(|e| &e.origin) {
            Some(Origin::Alias(full)) => full.clone(),
            _ => spec.to_string(),
        }
    }

    fn check_name(&self, name: &str) -> Result<(), NameError> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(NameError::Invalid(name.to_string()));
        }
        if self.get(name).is_some() {
            return Err(NameError::Taken { name: name.to_string(), taken: self.names() });
        }
        Ok(())
    }

    /// Every entry, in the order added.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry of `name`.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Comma-separated names.
    pub fn names(&self) -> String {
        self.entries.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(", ")
    }

    /// The entry of a spec, its keys checked.
    fn entry(&self, spec: &StrategySpec) -> Result<&Entry, SpecError> {
        let e = self
            .get(&spec.name)
            .ok_or_else(|| SpecError::UnknownBot { name: spec.name.clone(), valid: self.names() })?;
        if let Some(params) = &e.params {
            check_keys(spec, params)?;
        }
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
        Ok(e)
    }

    /// Builds the bot of a spec.
    ///
    /// # Errors
    /// An unknown bot or parameter, a parameter given twice, or a bad value, each naming the
    /// valid choices.
    pub fn build(&self, spec: &StrategySpec) -> Result<Bot, SpecError> {
        let e = self.entry(spec)?;
        match (&e.origin, &e.params) {
            (Origin::Rust, Some(params)) => {
                let mut full = spec.clone();
                for p in params {
                    if full.get(p.key).is_none() {
                        full.params.push((p.key.to_string(), p.default.to_string()));
                    }
                }
                (e.build)(&full)
            }
            _ => (e.build)(spec),
        }
    }

    /// A spec in its one canonical form: parameters equal to their defaults dropped, the rest
    /// in the bot's parameter order, so that two specs of the same bot compare equal (`greedy`
    /// and `greedy:ties=first` are one bot). An external program's parameters stay as given.
    ///
    /// # Errors
    /// As [`Registry::build`].
    pub fn canonical(&self, spec: &StrategySpec) -> Result<StrategySpec, SpecError> {
        self.build(spec)?;
        let e = self.entry(spec)?;
        let Some(params) = &e.params else { return Ok(spec.clone()) };
        let params = params
            .iter()
            .filter_map(|p| {
                let v = spec.get(p.key).unwrap_or(p.default);
                (v != p.default).then(|| (p.key.to_string(), v.to_string()))
            })
            .collect();
        Ok(StrategySpec { name: spec.name.clone(), params })
    }

    /// Whether every bot of `specs` plays the same move from the same view (never draws on its
    /// random stream); unknown specs count as not.
    pub fn deterministic(&self, specs: &[StrategySpec]) -> bool {
        specs.iter().all(|s| self.build(s).is_ok_and(|b| !b.needs().rng))
    }

    /// Parses and checks a `--bots` list (see [`Field`]).
    ///
    /// # Errors
    /// Malformed text, an unknown bot or parameter, or a bad value.
    pub fn field(&self, list: &str) -> Result<Field, SpecError> {
        let mut field = Field { bots: Vec::new(), entries: Vec::new() };
        for spec in crate::strategy::parse_bot_list(list)? {
            let c = self.canonical(&spec)?;
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

    /// The default tournament field, as a `--bots` list.
    pub fn default_field(&self) -> String {
        self.entries.iter().filter(|e| e.default_field).map(|e| e.name.as_str()).collect::<Vec<_>>().join(",")
    }
}

/// Whether every built-in bot of `specs` plays the same move from the same view; unknown specs
/// count as not. See [`Registry::deterministic`].
#[doc(hidden)] // for the integration tests
pub fn deterministic(specs: &[StrategySpec]) -> bool {
    Registry::builtin().deterministic(specs)
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
    /// The bot of each of `players` seats when the list is no longer than the table: the
    /// entries, repeated to fill it.
    pub(crate) fn lineup(&self, players: usize) -> impl Iterator<Item = usize> + '_ {
        debug_assert!(self.entries.len() <= players);
        (0..players).map(move |s| self.entries[s % self.entries.len()] as usize)
    }
}

/// How results show one bot of a field: its name (the spec as given in `--bots`, or the short
/// name given with `--name`), the full spec it stands for, and whether it sees the hidden tiles
/// (a ceiling of play such as `oracle`, never a silent player). Data: the reports show it
/// (`crate::report` writes its console form).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotLabel {
    /// The name every table shows.
    pub name: String,
    /// The spec in full (the named spec of a `--name`).
    pub spec: String,
    /// Whether the bot reads every hand ([`crate::Needs::hidden`]).
    pub sees_hidden: bool,
}

impl BotLabel {
    /// The label of `spec`, a bot of `registry`.
    pub(crate) fn of(registry: &Registry, spec: &StrategySpec) -> BotLabel {
        BotLabel {
            name: spec.to_string(),
            spec: registry.full_spec(spec),
            sees_hidden: registry.build(spec).is_ok_and(|b| Strategy::needs(&b).hidden),
        }
    }
}

#[cfg(test)]
mod field_tests {
    use super::*;

    #[test]
    fn one_bot_one_name_and_lists_fill_the_table() {
        let f = Registry::builtin().field("greedy,greedy:ties=first,planner,greedy:ties=random").unwrap();
        let names: Vec<String> = f.bots.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["greedy", "planner", "greedy:ties=random"]);
        assert_eq!(f.entries, [0, 0, 1, 2]);
        assert_eq!(f.lineup(4).collect::<Vec<_>>(), [0, 0, 1, 2]);
        let f = Registry::builtin().field("greedy,random").unwrap();
        assert_eq!(f.lineup(4).collect::<Vec<_>>(), [0, 1, 0, 1]);
        assert_eq!(f.lineup(3).collect::<Vec<_>>(), [0, 1, 0]);
        let c = Registry::builtin().canonical(&"montecarlo:rollout=greedy,samples=16".parse().unwrap()).unwrap();
        assert_eq!(c.to_string(), "montecarlo:samples=16");
        assert!(
            Registry::builtin().field("greedy:ties=first,ties=random").unwrap_err().to_string().contains("given twice")
        );
        assert!(Registry::builtin().field("alien").unwrap_err().to_string().contains("unknown bot 'alien'"));
    }
}
