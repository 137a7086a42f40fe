//! The page's measurements: the engine's speed in the browser, and the rules lab: `mtrain
//! compare` played in the worker, a few chunks of deals a request, so the page can show its
//! progress.
//!
//! The lab builds the comparison the command line builds for the same options
//! ([`Comparison::new`]), plays each chunk of deals under every rule set with
//! [`Comparison::play_chunk`] in the order the command line plays them, and renders the results
//! with the command line's own reports ([`mexican_train::report::compare`]): `compare.csv` and
//! the summary are byte for byte those of `mtrain compare` with the same seed and sample.
//! WebAssembly in the browser has no threads and no clock, so the lab uses neither: one chunk
//! after another on the worker's thread, and no checkpoints (nothing is saved).

use mexican_train::compare::{self as cmp, CompareSpec, CompareState, Comparison, RuleSet};
use mexican_train::report::compare as rep;
use mexican_train::rules::TableSpec;
use mexican_train::strategies::Registry;
use mexican_train::tournament::Tournament;
use mexican_train::{NoObserver, Rules, play_match};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::atomic::AtomicBool;

/// Plays full 4-player matches of `wikipedia` on double-12 with `greedy` in every seat, seeds
/// 1, 2, ..., until at least `rounds` rounds are played; returns the rounds played. The page
/// times it in its worker and `scripts/bench/web-speed.sh` natively: the same work on both.
pub fn greedy_rounds(rounds: u32) -> u64 {
    let rules = Rules::wikipedia();
    let registry = Registry::builtin();
    let bot = registry.build(&"greedy".parse().expect("greedy parses")).expect("greedy builds");
    let mut bots = vec![bot; rules.players as usize];
    let mut played = 0u64;
    let mut seed = 0u64;
    while played < u64::from(rounds) {
        seed += 1;
        let result = play_match(&rules, seed, &mut bots, &mut NoObserver);
        played += result.round_records().count() as u64;
    }
    played
}

/// The games per hand size and rule set the lab plays unless asked: small enough for a browser
/// (a few seconds a hand size), where the command line plays 2000 ([`cmp::GAMES`]).
pub const LAB_GAMES: u64 = 200;

/// A comparison as the page asks for it: `mtrain compare`'s options of the same names.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabSpec {
    /// The rule sets, the first the baseline: `PRESET` or `PRESET:key=value,key=value`.
    pub rulesets: Vec<String>,
    /// Seats.
    #[serde(default = "four")]
    pub players: u8,
    /// Hand sizes: `dealt` (the baseline's deal at that table), `auto`, `H` or `A-B`.
    #[serde(default = "dealt")]
    pub hands: String,
    /// Games per hand size and rule set.
    #[serde(default = "lab_games")]
    pub games: u64,
    /// The master seed, decimal or `0x` hex (text: a seed may exceed a JavaScript number).
    #[serde(default = "seed_one")]
    pub seed: String,
    /// The population, as `--bots` (`None`: the command line's default).
    #[serde(default)]
    pub bots: Option<String>,
    /// The set: double-`set`.
    #[serde(default = "twelve")]
    pub set: u8,
    /// Rounds per match (`None`: every double).
    #[serde(default)]
    pub rounds: Option<u8>,
}

fn four() -> u8 {
    4
}
fn dealt() -> String {
    "dealt".into()
}
fn lab_games() -> u64 {
    LAB_GAMES
}
fn seed_one() -> String {
    "1".into()
}
fn twelve() -> u8 {
    12
}

/// Hand sizes as `mtrain compare --hands` takes them (`auto`: `None`), or `dealt`: the hand the
/// baseline's deal table gives `players` seats. (The command line's parser belongs to its
/// `clap` layer, which the browser's engine is built without; this reads the same forms.)
fn hands_of(text: &str, base: &RuleSet, set: u8, players: u8) -> Result<Option<(u8, u8)>, String> {
    let t = text.trim();
    match t {
        "auto" => return Ok(None),
        "" | "dealt" => {
            let table = TableSpec {
                preset: base.preset.clone(),
                set,
                players,
                hand: None,
                rounds: None,
                rules: base.rules.clone(),
            };
            let (rules, _) = table.build().map_err(|e| format!("rule set '{}': {e}", base.name))?;
            let h = rules.hand().ok_or_else(|| {
                format!("'{}' deals no hand to {players} players from double-{set}: give hand sizes", base.name)
            })?;
            return Ok(Some((h, h)));
        }
        _ => {}
    }
    let bad = || format!("hand sizes '{t}': expected dealt, auto, H or A-B like 8-15");
    let num = |s: &str| s.trim().parse::<u8>().map_err(|_| bad());
    let (lo, hi) = match t.split_once('-') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(t)?, num(t)?),
    };
    if lo == 0 || lo > hi {
        return Err(bad());
    }
    Ok(Some((lo, hi)))
}

fn parse_seed(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse::<u64>(),
    };
    r.map_err(|_| format!("seed '{s}' is not a number (decimal, or hex as 0x...)"))
}

/// A word of a command line, quoted for a POSIX shell where it needs to be.
fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "_-=:,./+".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// A comparison being played in the page.
pub struct Lab {
    spec: CompareSpec,
    comparison: Comparison,
    state: CompareState,
    registry: Registry,
    total: u64,
    /// The cell being played and its tournaments, one per rule set (built once a cell).
    tours: Option<(usize, Vec<Tournament>)>,
    /// Never set: the page stops a comparison by not asking for more.
    cut: AtomicBool,
}

impl Lab {
    /// Checks the comparison `spec` asks for, as `mtrain compare` checks its options.
    ///
    /// # Errors
    /// One line naming the problem.
    pub fn start(spec: &LabSpec) -> Result<Lab, String> {
        let rulesets = spec
            .rulesets
            .iter()
            .map(|r| RuleSet::parse(r).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        let base = rulesets.first().ok_or("a comparison needs at least two rule sets (the first is the baseline)")?;
        if spec.games == 0 {
            return Err("0 games play nothing: give 1 or more games".into());
        }
        let hands = hands_of(&spec.hands, base, spec.set, spec.players)?;
        let cspec = CompareSpec {
            rulesets,
            set: spec.set,
            rounds: spec.rounds,
            players: (spec.players, spec.players),
            hands,
            bots: spec.bots.clone().unwrap_or_else(|| mexican_train::balance::DEFAULT_POPULATION.to_string()),
            games: spec.games,
            seed: parse_seed(&spec.seed)?,
            margin: cmp::MARGIN,
            relative_margin: cmp::RELATIVE_MARGIN,
            seconds_per_turn: cmp::SECONDS_PER_TURN,
        };
        let registry = Registry::builtin();
        let comparison = Comparison::new(&cspec, &registry).map_err(|e| e.to_string())?;
        let state = comparison.new_state(Value::Null, None);
        let total = comparison.planned_games(&state, &registry).map_err(|e| e.to_string())?;
        Ok(Lab { spec: cspec, comparison, state, registry, total, tours: None, cut: AtomicBool::new(false) })
    }

    /// Games played and planned, every rule set counted.
    pub fn progress(&self) -> (u64, u64) {
        (self.state.games(), self.total)
    }

    /// Whether every game is played.
    pub fn finished(&self) -> bool {
        self.state.complete()
    }

    /// Plays chunks of deals, in the command line's order, until at least `games` more games
    /// are played or none is left.
    ///
    /// # Errors
    /// A bot that failed (the chunk is not counted).
    pub fn step(&mut self, games: u64) -> Result<(), String> {
        let before = self.state.games();
        while self.state.games() - before < games.max(1) {
            let Some((i, k)) =
                self.state.cells.iter().enumerate().find_map(|(i, c)| c.chunks_left().first().map(|&k| (i, k)))
            else {
                break;
            };
            if self.tours.as_ref().is_none_or(|(at, _)| *at != i) {
                let tours = (0..self.comparison.sets.len())
                    .map(|r| self.comparison.tournament(i, r, &self.registry))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| e.to_string())?;
                self.tours = Some((i, tours));
            }
            let (_, tours) = self.tours.as_ref().expect("built above");
            if !self.comparison.play_chunk(&mut self.state, i, k, tours, &self.cut) {
                return Err(format!("a bot failed in chunk {k} of the games at {} tiles", self.state.cells[i].hand));
            }
        }
        if self.finished() {
            self.tours = None;
        }
        Ok(())
    }

    /// The command line that plays the same comparison.
    pub fn command(&self) -> String {
        let s = &self.spec;
        let mut w: Vec<String> = vec!["mtrain".into(), "compare".into()];
        for r in &s.rulesets {
            w.extend(["--ruleset".into(), r.name.clone()]);
        }
        if s.set != 12 {
            w.extend(["--set".into(), s.set.to_string()]);
        }
        w.extend(["--players".into(), s.players.0.to_string()]);
        if let Some((lo, hi)) = s.hands {
            w.extend(["--hands".into(), if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") }]);
        }
        w.extend(["--games".into(), s.games.to_string()]);
        if let Some(r) = s.rounds {
            w.extend(["--rounds".into(), r.to_string()]);
        }
        if s.bots != mexican_train::balance::DEFAULT_POPULATION {
            w.extend(["--bots".into(), s.bots.clone()]);
        }
        w.extend(["--seed".into(), s.seed.to_string()]);
        w.iter().map(|x| shell_word(x)).collect::<Vec<_>>().join(" ")
    }

    /// What the comparison is: the command line's header, the hand sizes and the equivalent
    /// command.
    pub fn about(&self) -> Value {
        let hands: Vec<u8> = self.comparison.cells.iter().map(|c| c.1).collect();
        json!({
            "header": rep::header(&self.comparison),
            "command": self.command(),
            "hands": hands,
            "games": self.spec.games,
            "seed": self.spec.seed.to_string(),
        })
    }

    /// The results of a finished comparison: `compare.csv`, `rulesets.csv` and the summary as
    /// `mtrain compare` writes them, and every difference as data for the page's table and plot.
    ///
    /// # Errors
    /// Games are left to play.
    pub fn result(&self) -> Result<Value, String> {
        if !self.finished() {
            let (done, total) = self.progress();
            return Err(format!("the comparison is not finished: {done} of {total} games played"));
        }
        let (c, cells) = (&self.comparison, &self.state.cells);
        let diffs = cmp::differences(c, cells);
        let rows: Vec<Value> = diffs
            .iter()
            .map(|d| {
                let headline = rep::HEADLINE.iter().find(|(n, _)| *n == d.measure.name).map(|(_, h)| *h);
                json!({
                    "players": d.players,
                    "hand": d.hand,
                    "ruleset": c.sets[d.set].name,
                    "baseline": c.sets[0].name,
                    "metric": d.measure.name,
                    "label": d.measure.label,
                    "headline": headline,
                    "share": d.measure.share,
                    "baseline_value": d.baseline.value,
                    "value": d.value.value,
                    "difference": d.difference,
                    "lo": d.interval.0,
                    "hi": d.interval.1,
                    "adjusted_lo": d.adjusted.0,
                    "adjusted_hi": d.adjusted.1,
                    "margin": d.margin,
                    "paired": d.paired,
                    "deals": d.deals,
                    "verdict": d.change.name(),
                })
            })
            .collect();
        Ok(json!({
            "compare_csv": rep::compare_csv(c, &diffs),
            "rulesets_csv": rep::rulesets_csv(c, cells),
            "summary": rep::summary(c, &diffs),
            "z": cmp::adjusted_z(diffs.len()),
            "min_deals": cmp::MIN_DEALS,
            "rows": rows,
        }))
    }
}
