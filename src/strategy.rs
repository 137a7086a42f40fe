//! The `Strategy` trait and bot specs (`name` or `name:key=value,...`).
//!
//! No concrete bot lives here: bots are in `strategies/`, and the engine depends only on this
//! trait.

use crate::rng::GameRng;
use crate::round::{MoveList, Seat, SeenEvent};
use crate::rules::Rules;
use crate::view::View;
use std::fmt;
use std::str::FromStr;

/// What a strategy learns when a match begins ([`Strategy::match_start`]).
#[derive(Clone, Copy, Debug)]
pub struct MatchStart<'a> {
    /// The rules of the match.
    pub rules: &'a Rules,
    /// The seat this strategy plays.
    pub seat: Seat,
    /// The game's number in its run (a tournament's game index; 0 for a single match).
    pub game: u64,
    /// A seed for this seat's own randomness: a strategy with randomness of its own (an
    /// external program) seeds it from this, so that the same match replays exactly. It is a
    /// one-way function of the seat's stream ([`crate::rng::seeds::bot_public`]): nothing a
    /// strategy is told leads back to the deal. (The match seed is not told either.) A strategy
    /// whose [`Needs::rng`] is off (it draws no randomness) is told 0.
    pub seed: u64,
}

/// What a strategy needs from the engine, declared once ([`Strategy::needs`]): the engine reads
/// it when a match or a round starts and sets the round up for it (void bookkeeping, a seeded
/// random stream, the record of decisions, the events, the hidden tiles, the fast pick of the
/// heaviest move). Plain data: start from [`Needs::NOTHING`] and switch on what the strategy
/// uses.
///
/// [`Needs::default()`] is what a strategy that declares nothing gets: [`Needs::SAFE`], which
/// reads the voids and draws on its random stream (always correct, only slower); the rest off.
///
/// ```
/// use mexican_train::Needs;
///
/// // Reads the voids the table has revealed; never draws on its random stream.
/// const MINE: Needs = Needs::NOTHING.voids(true);
/// assert!(MINE.voids && !MINE.rng && !MINE.events);
/// assert_eq!(Needs::default(), Needs::SAFE);
/// assert_eq!(Needs::SAFE, Needs::NOTHING.voids(true).rng(true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Needs {
    /// Reads [`View::known_voids`] (or samples hidden worlds, which use them). When no seat of a
    /// round does, the round skips the bookkeeping.
    pub voids: bool,
    /// [`Strategy::choose`] may draw on its random stream. A strategy that never does plays the
    /// same move from the same view, so a table of it alone replays one game in every seat
    /// rotation, and the tournament skips those replays; its stream is not seeded.
    pub rng: bool,
    /// Reads the round's record of decisions (`expert:infer=policy`'s inference from behaviour;
    /// the record is not open to strategies outside this crate). A round with such a seat keeps
    /// a copy of the state at every decision.
    #[doc(hidden)]
    pub history: bool,
    /// Wants the table's events ([`Strategy::observe`]); a round with no such seat records none.
    pub events: bool,
    /// Sees the tiles its seat cannot: every hand and the boneyard's order ([`View::hidden`]).
    /// Only the `oracle`, which measures the ceiling of play, does; an external bot never does.
    pub hidden: bool,
    /// [`Strategy::choose`] always picks the first move with the most pips in the engine's
    /// move order, and nothing else (`greedy` with its default ties: no random draw, no state).
    /// The engine's fast turn loop then makes that pick itself, without listing the moves or
    /// calling `choose`: the same move, found faster.
    pub heaviest_first: bool,
}

impl Needs {
    /// Nothing at all: no voids, no random stream, no record, no events, no hidden tiles.
    pub const NOTHING: Needs =
        Needs { voids: false, rng: false, history: false, events: false, hidden: false, heaviest_first: false };

    /// The default declaration: the voids and the random stream (the safe guesses for a
    /// strategy that says nothing), nothing else.
    pub const SAFE: Needs = Needs::NOTHING.voids(true).rng(true);

    /// With [`Needs::voids`] set to `on`.
    #[must_use]
    pub const fn voids(mut self, on: bool) -> Needs {
        self.voids = on;
        self
    }

    /// With [`Needs::rng`] set to `on`.
    #[must_use]
    pub const fn rng(mut self, on: bool) -> Needs {
        self.rng = on;
        self
    }

    /// With [`Needs::history`] set to `on`.
    #[doc(hidden)]
    #[must_use]
    pub const fn history(mut self, on: bool) -> Needs {
        self.history = on;
        self
    }

    /// With [`Needs::events`] set to `on`.
    #[must_use]
    pub const fn events(mut self, on: bool) -> Needs {
        self.events = on;
        self
    }

    /// With [`Needs::hidden`] set to `on`.
    #[must_use]
    pub const fn hidden(mut self, on: bool) -> Needs {
        self.hidden = on;
        self
    }

    /// With [`Needs::heaviest_first`] set to `on`.
    #[must_use]
    pub const fn heaviest_first(mut self, on: bool) -> Needs {
        self.heaviest_first = on;
        self
    }
}

impl Default for Needs {
    fn default() -> Needs {
        Needs::SAFE
    }
}

/// A player: picks one of the legal moves from what its seat may see.
///
/// The engine asks only when a real choice exists (two or more legal moves); draws, markers and
/// passes are forced. Each match starts from a fresh copy of the configured bot.
///
/// Only [`Strategy::choose`] is required; the other methods have defaults that are always
/// correct. [`Strategy::needs`] declares, once, what the strategy reads: declaring less than
/// the default ([`Needs::SAFE`]: the voids and the random stream) only makes runs faster, and
/// the events, the hidden tiles and the rest are there for a strategy that declares them.
///
/// # Examples
///
/// A bot that sheds its lightest tile, playing in a match against a built-in:
///
/// ```
/// use mexican_train::{Bot, GameRng, MoveList, Needs, NoObserver, Rules, Strategy, View, play_match};
///
/// #[derive(Clone)]
/// struct Lightest;
///
/// impl Strategy for Lightest {
///     fn choose(&mut self, _view: &View<'_>, moves: &MoveList, _rng: &mut GameRng) -> usize {
///         // Index of the move whose tile has the fewest pips; the first on ties. A move that
///         // lays no tile (a stop, skip or bullet) has no pips: it comes last.
///         (0..moves.len()).min_by_key(|&i| moves[i].tile().map_or(u16::MAX, |t| t.pips())).unwrap_or(0)
///     }
///     fn needs(&self) -> Needs {
///         // Never reads View::known_voids, never draws on its random stream.
///         Needs::NOTHING
///     }
/// }
///
/// let rules = Rules { players: 2, ..Rules::wikipedia() };
/// let mut bots = vec![Bot::custom(Lightest), Bot::parse("greedy").unwrap()];
/// let result = play_match(&rules, 1, &mut bots, &mut NoObserver);
/// assert_eq!(result.rounds, 13);
/// // Greedy sheds its heavy tiles first and wins this one.
/// assert!(result.totals[1] < result.totals[0]);
/// ```
///
/// To enter it in `mtrain tournament`, `balance`, `play` and `bench`, add it to a
/// [`Registry`](crate::strategies::Registry) and run the command line with it
/// (`examples/custom_bot.rs`).
pub trait Strategy {
    /// Index into `moves` of the chosen move. `moves` holds at least two moves.
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize;

    /// What this strategy needs from the engine ([`Needs`]). The engine reads it when a match
    /// or a round starts; it is the same for the strategy's whole life (a bot's parameters may
    /// decide it, its play may not). The default is [`Needs::SAFE`].
    fn needs(&self) -> Needs {
        Needs::SAFE
    }

    /// Called once per round before the first turn.
    fn round_start(&mut self, _view: &View<'_>) {}

    /// Called once per match, before the first round.
    fn match_start(&mut self, _start: &MatchStart<'_>) {}

    /// The events since the last call, as this strategy's seat sees them: another seat's
    /// draws and penalty tiles arrive hidden ([`SeenEvent::HiddenDraw`],
    /// [`SeenEvent::HiddenPenalty`]), exactly what an external bot is sent, unless the strategy
    /// declares [`Needs::hidden`]. Called, when the strategy declares [`Needs::events`], before
    /// every decision of any seat and once after the round's last event.
    fn observe(&mut self, _events: &[SeenEvent]) {}

    /// Whether this strategy could not go on (an external program that crashed, timed out or
    /// broke the protocol). Its later choices are placeholders: a runner that sees `true`
    /// after a match discards the match and stops. Unlike [`Strategy::needs`], a state that
    /// may change during play.
    fn has_failed(&self) -> bool {
        false
    }

    /// Whether this strategy picks from the plain-rules kernel's compact move lists (the
    /// built-in `weighted`): a table of such seats has its turns played on the kernel's listing
    /// turns, which ask [`Strategy::pick_listed`] (the engine's business, not a strategy
    /// author's).
    #[doc(hidden)]
    fn picks_listed(&self) -> bool {
        false
    }

    /// The index of the move to play among two or more compact moves `(train, v, q)` (tile
    /// `[v|q]` laid on `train`, whose end shows `v`), read from the round state: the pick
    /// [`Strategy::choose`] would make among the same moves. Asked only of a strategy whose
    /// [`Strategy::picks_listed`] is true; a direct call, not a trait object, so that the pick
    /// inlines into the rollout's turn.
    #[doc(hidden)]
    fn pick_listed(
        &mut self,
        _st: &crate::round::RoundState,
        _me: Seat,
        _moves: &[(crate::round::TrainId, crate::tile::Pip, crate::tile::Pip)],
    ) -> usize {
        unreachable!("pick_listed is asked only of a strategy whose picks_listed is true")
    }
}

impl<S: Strategy + ?Sized> Strategy for Box<S> {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        (**self).choose(view, moves, rng)
    }

    fn needs(&self) -> Needs {
        (**self).needs()
    }

    fn round_start(&mut self, view: &View<'_>) {
        (**self).round_start(view)
    }

    fn match_start(&mut self, start: &MatchStart<'_>) {
        (**self).match_start(start)
    }

    fn observe(&mut self, events: &[SeenEvent]) {
        (**self).observe(events)
    }

    fn has_failed(&self) -> bool {
        (**self).has_failed()
    }
}

/// A parsed bot spec: `greedy`, `greedy:ties=random`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategySpec {
    /// The bot's registry name.
    pub name: String,
    /// `key=value` parameters in the order given.
    pub params: Vec<(String, String)>,
}

/// Why a bot spec is unusable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Malformed text.
    #[error("invalid bot spec '{0}': expected name or name:key=value,...")]
    Syntax(String),
    /// No bot of that name.
    #[error("unknown bot '{name}' (valid: {valid})")]
    UnknownBot {
        /// The name given.
        name: String,
        /// The registered names.
        valid: String,
    },
    /// The bot has no such parameter.
    #[error("unknown parameter '{key}' for bot '{bot}' (valid: {valid})")]
    UnknownParam {
        /// The bot.
        bot: String,
        /// The key given.
        key: String,
        /// The bot's parameters.
        valid: String,
    },
    /// The value does not parse.
    #[error("invalid value '{value}' for {bot}:{key} (valid: {valid})")]
    BadValue {
        /// The bot.
        bot: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is accepted.
        valid: String,
    },
}

impl StrategySpec {
    /// The value of parameter `key` (the last one given), if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The error for a bad value of parameter `key`, naming what is accepted.
    pub fn bad_value(&self, key: &str, valid: &str) -> SpecError {
        SpecError::BadValue {
            bot: self.name.clone(),
            key: key.to_string(),
            value: self.get(key).unwrap_or("").to_string(),
            valid: valid.to_string(),
        }
    }
}

impl FromStr for StrategySpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<StrategySpec, SpecError> {
        let err = || SpecError::Syntax(s.to_string());
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (s.trim(), None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(err());
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            for kv in rest.split(',') {
                let (k, v) = kv.split_once('=').ok_or_else(err)?;
                let (k, v) = (k.trim(), v.trim());
                if k.is_empty() || v.is_empty() {
                    return Err(err());
                }
                params.push((k.to_string(), v.to_string()));
            }
        }
        Ok(StrategySpec { name: name.to_string(), params })
    }
}

impl fmt::Display for StrategySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_params() {
        let s: StrategySpec = "greedy".parse().unwrap();
        assert_eq!(s.name, "greedy");
        assert!(s.params.is_empty());
        let s: StrategySpec = "hoarder:release=2,late=3".parse().unwrap();
        assert_eq!(s.params, vec![("release".into(), "2".into()), ("late".into(), "3".into())]);
        assert_eq!(s.to_string(), "hoarder:release=2,late=3");
        for bad in ["", ":x=1", "greedy:", "greedy:x", "greedy:=1", "gr eedy"] {
            assert!(bad.parse::<StrategySpec>().is_err(), "{bad}");
        }
    }
}

/// Parses a comma-separated list of bot specs. A piece holding `=` but no `:` continues the
/// parameters of the bot before it, so `hoarder:release=2,late=3,greedy` is two bots.
///
/// # Errors
/// [`SpecError::Syntax`] for malformed text.
pub(crate) fn parse_bot_list(s: &str) -> Result<Vec<StrategySpec>, SpecError> {
    let mut out: Vec<String> = Vec::new();
    for piece in s.split(',') {
        match out.last_mut() {
            Some(last) if piece.contains('=') && !piece.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => out.push(piece.to_string()),
        }
    }
    out.iter().map(|p| p.parse()).collect()
}

#[cfg(test)]
mod list_tests {
    use super::*;

    #[test]
    fn bot_lists_split_between_bots_not_params() {
        let l = parse_bot_list("hoarder:release=2,late=3,greedy,random").unwrap();
        let names: Vec<String> = l.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["hoarder:release=2,late=3", "greedy", "random"]);
        assert!(parse_bot_list("greedy,,random").is_err());
    }
}
