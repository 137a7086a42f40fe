//! Rule sets side by side: what a house rule does to the game, measured on the same deals.
//!
//! A comparison plays two or more rule sets (a preset with `--rule` changes, or a house-rule
//! file) at every player count and hand size asked. Each cell (a player count and a hand size)
//! is one tournament per rule set, all on **the same deals** (the cell's seed is the balance
//! sweep's, [`crate::rng::seeds::balance_cell`], so the first rule set's figures are those of
//! `mtrain balance` with the same seed and a fixed sample): the difference between two rule sets
//! is then paired deal by deal, and its interval is as tight as the deals are alike.
//!
//! **Paired differences.** Every figure is a ratio of per-deal totals, `Σx_d / Σm_d` (the
//! [`Cluster`] of a tally). For a rule set `A` against the first, the baseline `B`, the
//! difference is `Ā - B̄` and its standard error comes from the per-deal differences
//! `u_d = x_Ad / m̄_A - x_Bd / m̄_B` over the `D` deals both played: the state keeps, besides each
//! rule set's tally, the exact integer cross sums `Σ x_Ad · x_Bd` of every cluster
//! ([`CompareCell::cross`]), so the variance of `u` is exact from integer sums and merges across
//! threads, shards and resumes. (Where a figure has units in some deals of one rule set and not
//! the other, the two are taken as independent: a wider, still valid interval.)
//!
//! **Verdicts at a margin, with the multiple comparisons corrected.** Each difference gets a
//! 95% interval, and an interval adjusted for every difference the comparison reports
//! (Bonferroni: `z` for `1 - 0.05 / (2k)` over `k` differences, so that all of them hold at
//! once with 95% confidence). Against an indifference margin (shares: `margin`, 1 percentage
//! point by default; counts such as turns, points and minutes: `relative_margin` of the
//! baseline's figure, 5% by default) the adjusted interval decides: [`Change::Changes`] when it
//! lies wholly beyond the margin on one side, [`Change::NoChange`] (no measurable change at the
//! margin) when it lies wholly within it, [`Change::Undecided`] otherwise (more games would
//! tell). A difference resting on fewer than [`MIN_DEALS`] deals is undecided whatever its
//! interval.
//!
//! **Minutes.** Round and match length are also given in minutes, at
//! [`SECONDS_PER_TURN`] seconds a turn unless asked otherwise (its source is in the constant's
//! documentation).

use crate::balance::{AUTO_MAX_HAND, AUTO_MIN_HAND};
use crate::error::InvalidInput;
use crate::external::BotSetup;
use crate::rules::{PRESETS, Rules, TableSpec};
use crate::stats::{Cluster, Z95};
use crate::store::SelfChecked;
use crate::strategies::Registry;
use crate::strategy::StrategySpec;
use crate::tournament::{
    CHUNK_DEALS, ChunkSet, DealTotals, Layout, RunOptions, Schedule, Seating, SweepState, Tally, Tournament, WIN_UNIT,
};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a comparison's state file says it is.
pub const COMPARE_KIND: &str = "compare";

/// The format of `compare.json`.
pub const COMPARE_FORMAT: u32 = 1;

/// The seconds a turn takes at the table, for minutes ([`crate::balance::SECONDS_PER_TURN`]).
pub const SECONDS_PER_TURN: f64 = crate::balance::SECONDS_PER_TURN;

/// The default margin on shares: 1 percentage point (as `mtrain balance`'s).
pub const MARGIN: f64 = crate::balance::MARGIN;

/// The default margin on counts (turns, minutes, points, tiles): 5% of the baseline's figure.
pub const RELATIVE_MARGIN: f64 = 0.05;

/// The fewest deals a difference is judged on: with fewer, its interval rests on too few
/// per-deal differences to be trusted (a rule that fired in none of a handful of deals would show
/// an interval of width 0), and the verdict is [`Change::Undecided`].
pub const MIN_DEALS: u64 = 30;

/// The default games per cell and rule set.
pub const GAMES: u64 = 2000;

/// One rule set: a preset and its rule changes, and the name results show it by.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSet {
    /// How results name it: the spec as given (`wikipedia:tap=draw_two`), or a house-rule
    /// file's name.
    pub name: String,
    /// The preset.
    pub preset: String,
    /// `key=value` changes, in order.
    pub rules: Vec<String>,
}

impl RuleSet {
    /// Parses `PRESET` or `PRESET:key=value,key=value`.
    ///
    /// # Errors
    /// An unknown preset (naming the valid ones) or a change that is not `key=value`.
    pub fn parse(text: &str) -> Result<RuleSet, InvalidInput> {
        let text = text.trim();
        let (preset, changes) = text.split_once(':').unwrap_or((text, ""));
        let preset = preset.trim();
        if !PRESETS.iter().any(|p| p.name == preset) {
            return Err(InvalidInput(format!(
                "unknown preset '{preset}' in rule set '{text}' (valid: {}; or a house-rule file)",
                PRESETS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
            )));
        }
        let rules = changes.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect();
        let set = RuleSet { name: text.to_string(), preset: preset.to_string(), rules };
        set.check_changes()?;
        Ok(set)
    }

    /// A house-rule file named `name`: `preset = NAME` and one `key = value` rule change a
    /// line, in any order; `#` starts a comment; blank lines are skipped.
    ///
    /// # Errors
    /// A line that is not `key = value` (with its number), or a file without a preset line.
    pub fn from_file(name: &str, text: &str) -> Result<RuleSet, InvalidInput> {
        let mut preset = None;
        let mut rules = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((k, v)) = line.split_once('=') else {
                return Err(InvalidInput(format!(
                    "house-rule file '{name}', line {}: '{line}' is not 'key = value'",
                    i + 1
                )));
            };
            let (k, v) = (k.trim(), v.trim());
            if k == "preset" {
                preset = Some(v.to_string());
            } else {
                rules.push(format!("{k}={v}"));
            }
        }
        let preset = preset.ok_or_else(|| {
            InvalidInput(format!(
                "house-rule file '{name}' names no preset: add a line 'preset = NAME' (valid: {})",
                PRESETS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
            ))
        })?;
        let mut set = RuleSet::parse(&preset)?;
        set.name = name.to_string();
        set.rules = rules;
        set.check_changes()?;
        Ok(set)
    }

    /// Checks that every change applies to the preset.
    fn check_changes(&self) -> Result<(), InvalidInput> {
        let mut rules = Rules::preset(&self.preset)?;
        rules.apply_rules(&self.rules).map_err(|e| InvalidInput(format!("rule set '{}': {e}", self.name)))?;
        Ok(())
    }
}

/// What a comparison is asked to be, before it is checked: plain data (serde), what a run's
/// state stores and a resumed or merged run is rebuilt from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareSpec {
    /// The rule sets, the first the baseline every other is compared with.
    pub rulesets: Vec<RuleSet>,
    /// The set: double-`set`.
    pub set: u8,
    /// Rounds per match (`None`: every double from the highest down).
    pub rounds: Option<u8>,
    /// Player counts, `lo..=hi`.
    pub players: (u8, u8),
    /// Hand sizes, `lo..=hi`; `None`: from 5 tiles (`AUTO_MIN_HAND`) to what every rule set can deal
    /// (at most `AUTO_MAX_HAND`, 24) at each player count.
    pub hands: Option<(u8, u8)>,
    /// The population, as a `--bots` list.
    pub bots: String,
    /// Games per cell and rule set.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// The margin on shares.
    pub margin: f64,
    /// The margin on counts, as a share of the baseline's figure.
    pub relative_margin: f64,
    /// Seconds a turn, for minutes.
    pub seconds_per_turn: f64,
}

/// What a comparison's state stores to rebuild it: its spec and the bots it adds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareConfig {
    /// The comparison.
    pub spec: CompareSpec,
    /// The external bots and named specs of its population.
    pub bots: BotSetup,
}

/// A checked comparison.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The rule sets as given.
    pub sets: Vec<RuleSet>,
    /// Each rule set's rules (players and hand set per cell).
    pub rules: Vec<Rules>,
    /// Each rule set's changes as applied, for reports.
    pub changes: Vec<Vec<(String, String)>>,
    /// `(players, hand)` in player-then-hand order.
    pub cells: Vec<(u8, u8)>,
    /// The distinct bots of the population, canonical.
    pub specs: Vec<StrategySpec>,
    /// The population list as field indices.
    pub entries: Vec<u16>,
    /// Games per cell and rule set.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// The margin on shares.
    pub margin: f64,
    /// The margin on counts, relative.
    pub relative_margin: f64,
    /// Seconds a turn.
    pub seconds_per_turn: f64,
    /// Whether every bot of the population is deterministic.
    pub deterministic: bool,
}

fn seating(deterministic: bool) -> Seating {
    Seating { deterministic, ..Seating::default() }
}

impl Comparison {
    /// Checks a comparison: at least two rule sets, distinct, each a preset with changes it
    /// takes; every player count one each rule set deals; every hand size dealable under each;
    /// the population known; the margins and the seconds a turn in range.
    ///
    /// # Errors
    /// One line naming the problem, as the command line's options.
    pub fn new(spec: &CompareSpec, registry: &Registry) -> Result<Comparison, InvalidInput> {
        let bad = |m: String| Err(InvalidInput(m));
        if spec.rulesets.len() < 2 {
            return bad(format!(
                "a comparison needs at least two rule sets (the first is the baseline); got {}: give --ruleset twice or more",
                spec.rulesets.len()
            ));
        }
        for (i, a) in spec.rulesets.iter().enumerate() {
            if spec.rulesets[..i].iter().any(|b| b.name == a.name) {
                return bad(format!("two rule sets are named '{}': give each a name of its own", a.name));
            }
        }
        for (name, v, lo, hi) in [
            ("--margin", spec.margin, 0.0, 1.0),
            ("--relative-margin", spec.relative_margin, 0.0, 1.0),
            ("--seconds-per-turn", spec.seconds_per_turn, 0.0, 3600.0),
        ] {
            if !(v > lo && v <= hi) {
                return bad(format!("{name} must be a number above {lo} and at most {hi}; got {v}"));
            }
        }
        let mut rules = Vec::new();
        let mut changes = Vec::new();
        for r in &spec.rulesets {
            let table = TableSpec {
                preset: r.preset.clone(),
                set: spec.set,
                players: 4,
                hand: None,
                rounds: None,
                rules: r.rules.clone(),
            };
            let (mut base, applied) =
                table.preset_rules().map_err(|e| InvalidInput(format!("rule set '{}': {e}", r.name)))?;
            base.rounds = spec.rounds;
            if let Some(j) = rules.iter().position(|b| *b == base) {
                return bad(format!(
                    "rule sets '{}' and '{}' are the same rules: nothing to compare (give each rule set once)",
                    spec.rulesets[j].name, r.name
                ));
            }
            rules.push(base);
            changes.push(applied);
        }
        let (p0, p1) = spec.players;
        let mut cells = Vec::new();
        for players in p0..=p1 {
            let mut max = u8::MAX;
            for (r, base) in spec.rulesets.iter().zip(&rules) {
                let at = Rules { players, hand_size: None, ..base.clone() };
                at.validate().map_err(|e| InvalidInput(format!("--players {players} under '{}': {e}", r.name)))?;
                max = max.min((at.dealable_tiles() / players.max(1) as usize).min(u8::MAX as usize) as u8);
            }
            let (h0, h1) = spec.hands.unwrap_or((AUTO_MIN_HAND.min(max), max.min(AUTO_MAX_HAND)));
            if spec.hands.is_some() && h1 > max {
                return bad(format!(
                    "--hands {h0}-{h1} cannot be dealt to {players} players from double-{} under every rule set: at most {max} tiles each",
                    spec.set
                ));
            }
            for hand in h0..=h1 {
                for (r, base) in spec.rulesets.iter().zip(&rules) {
                    let at = Rules { players, hand_size: Some(hand), ..base.clone() };
                    at.validate().map_err(|e| {
                        InvalidInput(format!("{players} players with {hand} tiles each under '{}': {e}", r.name))
                    })?;
                }
                cells.push((players, hand));
            }
        }
        let field = registry.field(&spec.bots).map_err(|e| InvalidInput(e.to_string()))?;
        let deterministic = registry.deterministic(&field.bots);
        for &(players, _) in &cells {
            Schedule::with_seating(&field.entries, players, seating(deterministic), spec.games, 0)
                .map_err(|e| InvalidInput(e.to_string()))?;
        }
        Ok(Comparison {
            sets: spec.rulesets.clone(),
            rules,
            changes,
            cells,
            specs: field.bots,
            entries: field.entries,
            games: spec.games,
            seed: spec.seed,
            margin: spec.margin,
            relative_margin: spec.relative_margin,
            seconds_per_turn: spec.seconds_per_turn,
            deterministic,
        })
    }

    /// The tournament of rule set `r` in cell `i`: every rule set of a cell plays the same
    /// schedule from the same seed, so the same deals.
    ///
    /// # Errors
    /// A bot the registry cannot build.
    pub fn tournament(&self, i: usize, r: usize, registry: &Registry) -> Result<Tournament, InvalidInput> {
        let (players, hand) = self.cells[i];
        let rules = Rules { players, hand_size: Some(hand), ..self.rules[r].clone() };
        let seed = crate::rng::seeds::balance_cell(self.seed, players, hand);
        let schedule = Schedule::with_seating(&self.entries, players, seating(self.deterministic), self.games, seed)
            .expect("checked by Comparison::new");
        Tournament::with_registry(rules, self.specs.clone(), schedule, registry)
            .map_err(|e| InvalidInput(e.to_string()))
    }

    /// Chunks of each cell.
    pub fn chunks(&self) -> Vec<u64> {
        self.cells
            .iter()
            .map(|&(players, _)| {
                Schedule::with_seating(&self.entries, players, seating(self.deterministic), self.games, 0)
                    .map_or(0, |s| s.deals.div_ceil(CHUNK_DEALS))
            })
            .collect()
    }

    /// The state of a new comparison (or of shard `shard` of it) described by `config`.
    pub fn new_state(&self, config: serde_json::Value, shard: Option<(u64, u64)>) -> CompareState {
        let chunks = self.chunks();
        let planned = SweepState::shard_plan(&chunks, shard);
        let n = self.sets.len();
        CompareState {
            format: COMPARE_FORMAT,
            kind: COMPARE_KIND.to_string(),
            config,
            shard,
            cells: self
                .cells
                .iter()
                .zip(chunks)
                .zip(planned)
                .map(|((&(players, hand), total), plan)| {
                    let layout = Layout { bots: self.specs.len(), players: players as usize };
                    CompareCell {
                        players,
                        hand,
                        chunks_total: total,
                        chunks_planned: plan,
                        done: ChunkSet::default(),
                        tallies: vec![Tally::new(layout); n],
                        cross: vec![vec![0; layout.len()]; n - 1],
                    }
                })
                .collect(),
            check: 0,
        }
    }

    /// Checks a stored state against this comparison (built from the state's configuration).
    ///
    /// # Errors
    /// A phrase naming what does not match.
    pub fn check_state(&self, st: &CompareState) -> Result<(), InvalidInput> {
        let chunks = self.chunks();
        let n = self.sets.len();
        let same = st.cells.len() == self.cells.len()
            && st.cells.iter().zip(&self.cells).zip(&chunks).all(|((c, &(p, h)), &k)| {
                c.players == p && c.hand == h && c.chunks_total == k && c.tallies.len() == n && c.cross.len() == n - 1
            });
        if !same {
            return Err(InvalidInput("its compare.json describes other cells".into()));
        }
        Ok(())
    }

    /// The games the cells of `st` are planned to play in all (every rule set counted).
    pub fn planned_games(&self, st: &CompareState, registry: &Registry) -> Result<u64, InvalidInput> {
        let mut total = 0;
        for (i, c) in st.cells.iter().enumerate() {
            let t = self.tournament(i, 0, registry)?;
            total += c.chunks_planned.0.iter().flat_map(|&(a, b)| a..b).map(|k| t.chunk_games(k)).sum::<u64>();
        }
        Ok(total * self.sets.len() as u64)
    }

    /// Plays what `st` has left, cell after cell: each chunk of deals under every rule set on
    /// one worker thread, `opts.threads` chunks at a time, folded in chunk order (so the state
    /// is a function of the chunks played, never of the threads). `on_cell` hears which cell
    /// starts; `save` sees the state every `opts.checkpoint`. Stops scheduling when `opts.stop`
    /// is set; chunks cut short (`opts.cut`, a failing bot) are not counted. Returns whether
    /// it stopped before the end.
    ///
    /// This needs threads (a rayon pool) and a clock (`Instant`, for the checkpoints), which
    /// WebAssembly in the browser has neither of (`wasm32-unknown-unknown`: the pool cannot
    /// spawn and `Instant::now` panics): there the caller steps through the chunks itself with
    /// [`Comparison::play_chunk`], which uses neither and folds each chunk exactly as this does.
    ///
    /// # Errors
    /// The first error `save` returns, or a bot the registry cannot build.
    pub fn play<E: From<InvalidInput>>(
        &self,
        st: &mut CompareState,
        opts: &RunOptions,
        registry: &Registry,
        mut on_cell: impl FnMut(usize),
        save: impl Fn(&CompareState) -> Result<(), E>,
    ) -> Result<bool, E> {
        let threads = opts.threads.max(1);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
        let mut last = Instant::now();
        for i in 0..st.cells.len() {
            let todo = st.cells[i].chunks_left();
            if todo.is_empty() {
                continue;
            }
            on_cell(i);
            let tours = (0..self.sets.len()).map(|r| self.tournament(i, r, registry)).collect::<Result<Vec<_>, _>>()?;
            for batch in todo.chunks(threads * 2) {
                if opts.stop.load(Ordering::SeqCst) {
                    return Ok(true);
                }
                let played: Vec<Option<Vec<DealTotals>>> = pool.install(|| {
                    use rayon::prelude::*;
                    batch.par_iter().map(|&k| every_rule_set(&tours, k, &opts.cut)).collect()
                });
                for (&k, out) in batch.iter().zip(played) {
                    let Some(out) = out else {
                        // Cut short: what came before it is kept; it is played again on resume.
                        return Ok(true);
                    };
                    st.cells[i].add_chunk(k, out);
                    opts.progress.advance(tours[0].chunk_games(k) * self.sets.len() as u64);
                }
                if let Some(every) = opts.checkpoint
                    && last.elapsed() >= every
                {
                    save(st)?;
                    last = Instant::now();
                }
            }
        }
        Ok(false)
    }

    /// Plays chunk `k` of cell `i` under every rule set on the calling thread and adds it to
    /// `st`, as [`Comparison::play`] adds each chunk, but without its thread pool and its
    /// checkpoint clock: for a caller that has neither (the browser page of `mtrain web`, on
    /// WebAssembly) and steps through [`CompareCell::chunks_left`] itself, in that order, to
    /// show its progress. `tours` are the cell's tournaments, [`Comparison::tournament`] of
    /// every rule set in order. Once every chunk is played the state is the one `play` leaves.
    /// Returns `false`, adding nothing, when `cut` (or a failing bot) cut the chunk short.
    pub fn play_chunk(&self, st: &mut CompareState, i: usize, k: u64, tours: &[Tournament], cut: &AtomicBool) -> bool {
        debug_assert_eq!(tours.len(), self.sets.len());
        match every_rule_set(tours, k, cut) {
            Some(out) => {
                st.cells[i].add_chunk(k, out);
                true
            }
            None => false,
        }
    }
}

/// Chunk `k` of a cell played under every rule set (`tours`, in order) on the calling thread:
/// per rule set its tally and per-deal totals; `None` when one was cut short.
fn every_rule_set(tours: &[Tournament], k: u64, cut: &AtomicBool) -> Option<Vec<DealTotals>> {
    tours.iter().map(|t| t.play_chunk_deals(k, cut)).collect()
}

/// One cell of a comparison: a player count and hand size, a tally per rule set over the same
/// deals, and the cross sums that pair them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareCell {
    /// Seats.
    pub players: u8,
    /// Tiles dealt to each.
    pub hand: u8,
    /// Chunks of the cell.
    pub chunks_total: u64,
    /// Chunks this state was asked to play (a shard's slice, or all).
    pub chunks_planned: ChunkSet,
    /// Chunks whose games are in the tallies.
    pub done: ChunkSet,
    /// A tally per rule set, in order.
    pub tallies: Vec<Tally>,
    /// Per rule set after the first, per cluster of the tally: `Σ_d x_d · x0_d` over the deals
    /// where both have units, `x0` the baseline's (decimal strings in the file: they can pass
    /// 2^64).
    #[serde(with = "u128_rows")]
    pub cross: Vec<Vec<u128>>,
}

mod u128_rows {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[Vec<u128>], s: S) -> Result<S::Ok, S::Error> {
        let rows: Vec<Vec<String>> = v.iter().map(|r| r.iter().map(u128::to_string).collect()).collect();
        serde::Serialize::serialize(&rows, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u128>>, D::Error> {
        let rows = Vec::<Vec<String>>::deserialize(d)?;
        rows.iter().map(|r| r.iter().map(|x| x.parse().map_err(serde::de::Error::custom)).collect()).collect()
    }
}

impl CompareCell {
    /// The chunks planned and not yet played, in order.
    pub fn chunks_left(&self) -> Vec<u64> {
        self.chunks_planned.0.iter().flat_map(|&(x, y)| x..y).filter(|&k| !self.done.contains(k)).collect()
    }

    /// Adds chunk `k`, played under every rule set: each tally, and the cross sums deal by deal.
    fn add_chunk(&mut self, k: u64, out: Vec<DealTotals>) {
        let base = &out[0].1;
        for (r, (tally, deals)) in out.iter().enumerate() {
            self.tallies[r].merge(tally);
            if r == 0 {
                continue;
            }
            let cross = &mut self.cross[r - 1];
            for (d, d0) in deals.iter().zip(base) {
                for (j, (&(x, m), &(x0, m0))) in d.iter().zip(d0).enumerate() {
                    if m > 0 && m0 > 0 {
                        cross[j] += u128::from(x) * u128::from(x0);
                    }
                }
            }
        }
        self.done.insert(k);
    }
}

/// The state of a comparison (`compare.json`): a cell per player count and hand size, for
/// resuming and merging shards, with the self-check every state file has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareState {
    /// [`COMPARE_FORMAT`].
    pub format: u32,
    /// [`COMPARE_KIND`].
    pub kind: String,
    /// What the comparison is, as data ([`CompareConfig`]).
    pub config: serde_json::Value,
    /// The slice `(i, n)` this state plays, if it is a shard's.
    pub shard: Option<(u64, u64)>,
    /// Every cell, in order.
    pub cells: Vec<CompareCell>,
    /// CRC-32 of the file's content with this field 0.
    #[serde(default)]
    pub check: u32,
}

impl SelfChecked for CompareState {
    fn check_field(&mut self) -> &mut u32 {
        &mut self.check
    }
}

impl CompareState {
    /// Pretty JSON with its check.
    pub fn to_json(&self) -> String {
        self.checked_json()
    }

    /// Parses a `compare.json`.
    ///
    /// # Errors
    /// A phrase naming the problem: another kind or format, damaged or edited.
    pub fn from_json(s: &str) -> Result<CompareState, InvalidInput> {
        let st: CompareState = serde_json::from_str(s)
            .map_err(|e| InvalidInput(format!("not a comparison's state ({})", crate::error::json_problem(s, &e))))?;
        if st.kind != COMPARE_KIND {
            return Err(InvalidInput(format!("it holds a {} run, not a comparison", st.kind)));
        }
        if st.format != COMPARE_FORMAT {
            return Err(InvalidInput(format!(
                "its compare.json is format {}; this mtrain reads format {COMPARE_FORMAT}",
                st.format
            )));
        }
        let fits = st.cells.iter().all(|c| {
            c.tallies.iter().all(Tally::fits_layout)
                && c.cross.iter().all(|r| c.tallies.first().is_some_and(|t| r.len() == t.clusters.len()))
        });
        if !fits {
            return Err(InvalidInput("its compare.json is damaged (sizes that do not fit)".into()));
        }
        if !st.is_intact() {
            return Err(InvalidInput("its compare.json was edited or damaged (its check does not match)".into()));
        }
        Ok(st)
    }

    /// The configuration it stores.
    ///
    /// # Errors
    /// The stored value describes no comparison.
    pub fn config(&self) -> Result<CompareConfig, InvalidInput> {
        serde_json::from_value(self.config.clone())
            .map_err(|e| InvalidInput(format!("its compare.json does not describe a comparison ({e})")))
    }

    /// Whether every planned chunk is played.
    pub fn all_planned_played(&self) -> bool {
        self.cells.iter().all(|c| c.done == c.chunks_planned)
    }

    /// Whether it holds the whole comparison.
    pub fn complete(&self) -> bool {
        self.cells.iter().all(|c| c.done.len() == c.chunks_total)
    }

    /// Games played, every rule set counted.
    pub fn games(&self) -> u64 {
        self.cells.iter().flat_map(|c| &c.tallies).map(|t| t.games).sum()
    }

    /// The shards of one comparison, added cell by cell.
    ///
    /// # Errors
    /// The index of the offending state and why.
    pub fn merge_shards(states: &[CompareState]) -> Result<CompareState, (usize, String)> {
        let first = states.first().ok_or((0, "nothing to merge".to_string()))?;
        let mut merged = first.clone();
        merged.shard = None;
        for c in &mut merged.cells {
            c.done = ChunkSet::default();
            for t in &mut c.tallies {
                *t = Tally::new(t.layout);
            }
            for r in &mut c.cross {
                r.fill(0);
            }
            c.chunks_planned = ChunkSet(vec![(0, c.chunks_total)]);
        }
        for (i, st) in states.iter().enumerate() {
            if st.config != first.config || st.cells.len() != first.cells.len() {
                return Err((i, "a shard of a different comparison".into()));
            }
            for (m, c) in merged.cells.iter_mut().zip(&st.cells) {
                if m.done.overlaps(&c.done) {
                    return Err((i, "its games overlap another folder's (the same shard given twice?)".into()));
                }
                m.done.union(&c.done);
                for (a, b) in m.tallies.iter_mut().zip(&c.tallies) {
                    a.merge(b);
                }
                for (a, b) in m.cross.iter_mut().zip(&c.cross) {
                    for (x, y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                }
            }
        }
        Ok(merged)
    }
}

/// What a compared figure is read from: a cluster of the tally, the scale its totals are
/// divided by, and a shift (an advantage is a win share minus `1/N`).
pub struct Figure {
    /// The cluster.
    pub cluster: Cluster,
    /// Its index in the tally (for the cross sums).
    pub index: usize,
    /// Divides the totals.
    pub scale: f64,
    /// Subtracted from the value (not from a difference).
    pub shift: f64,
}

/// A figure a comparison measures.
pub struct Measure {
    /// CSV name.
    pub name: &'static str,
    /// In words.
    pub label: &'static str,
    /// A share in [0, 1] (margin absolute), else a count (margin relative).
    pub share: bool,
    /// Reads it from a cell's tally, with the seconds a turn (`None`: no such figure here).
    pub read: fn(&Tally, f64) -> Option<Figure>,
}

fn figure(t: &Tally, c: &Cluster, scale: f64, shift: f64) -> Option<Figure> {
    Some(Figure { cluster: *c, index: t.index_of(c).expect("a cluster of this tally"), scale, shift })
}

/// Turns per match: the rounds' turns over the games (every deal plays the same games).
fn per_match(t: &Tally, scale: f64) -> Option<Figure> {
    let c = t.round_turns();
    let mut f = figure(t, c, scale, 0.0)?;
    f.cluster.units = t.games;
    Some(f)
}

fn luck_pair(t: &Tally) -> Option<&Cluster> {
    let bots = t.layout.bots;
    let second = if bots >= 3 { 1 } else { 0 };
    (bots >= 2).then(|| t.pair_score(second, bots - 1))
}

/// Every figure a comparison measures, in CSV order: each `mtrain balance` metric that is a
/// ratio of per-deal totals, match length in turns, and both lengths in minutes. (Not here: the
/// round-to-round spread of round length and the turn-order RMS, which are not such ratios.)
pub const MEASURES: &[Measure] = &[
    Measure {
        name: "blocked_rate",
        label: "rounds nobody goes out",
        share: true,
        read: |t, _| figure(t, t.round_blocked(), 1.0, 0.0),
    },
    Measure {
        name: "match_first_player_advantage",
        label: "match win rate of round 1's first player minus 1/N",
        share: true,
        read: |t, _| figure(t, t.match_position_win(0), WIN_UNIT as f64, 1.0 / t.layout.players as f64),
    },
    Measure {
        name: "first_player_advantage",
        label: "first player's round win rate minus 1/N",
        share: true,
        read: |t, _| figure(t, t.position_win(0), WIN_UNIT as f64, 1.0 / t.layout.players as f64),
    },
    Measure {
        name: "skill",
        label: "skill: first bot's head-to-head score against the last",
        share: true,
        read: |t, _| (t.layout.bots >= 2).then(|| figure(t, t.pair_score(0, t.layout.bots - 1), 1.0, 0.0)).flatten(),
    },
    Measure {
        name: "skill_ceiling",
        label: "luck pair: second bot's head-to-head score against the last",
        share: true,
        read: |t, _| luck_pair(t).and_then(|c| figure(t, c, 1.0, 0.0)),
    },
    Measure {
        name: "turns",
        label: "turns per round",
        share: false,
        read: |t, _| figure(t, t.round_turns(), 1.0, 0.0),
    },
    Measure { name: "match_turns", label: "turns per match", share: false, read: |t, _| per_match(t, 1.0) },
    Measure {
        name: "round_minutes",
        label: "minutes per round",
        share: false,
        read: |t, s| figure(t, t.round_turns(), 60.0 / s, 0.0),
    },
    Measure { name: "match_minutes", label: "minutes per match", share: false, read: |t, s| per_match(t, 60.0 / s) },
    Measure {
        name: "winner_margin",
        label: "winner's margin per match (points)",
        share: false,
        read: |t, _| figure(t, t.game_margin(), 1.0, 0.0),
    },
    Measure {
        name: "lead_changes",
        label: "lead changes per match",
        share: false,
        read: |t, _| figure(t, t.game_lead_changes(), 1.0, 0.0),
    },
    Measure {
        name: "draws",
        label: "tiles drawn per round",
        share: false,
        read: |t, _| figure(t, t.round_draws(), 1.0, 0.0),
    },
    Measure {
        name: "dry_rate",
        label: "rounds that empty the boneyard",
        share: true,
        read: |t, _| figure(t, t.round_dry(), 1.0, 0.0),
    },
    Measure {
        name: "score_spread",
        label: "score spread per match (points)",
        share: false,
        read: |t, _| figure(t, t.game_spread(), 1.0, 0.0),
    },
    Measure {
        name: "no_start_rate",
        label: "players unable to start their train on turn 1",
        share: true,
        read: |t, _| figure(t, t.round_no_start(), 1.0, 0.0),
    },
];

/// How a difference stands against its margin, decided on its adjusted interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The adjusted interval lies wholly beyond the margin: the rule changes the figure by more.
    Changes,
    /// The adjusted interval lies wholly within the margin: no measurable change at the margin.
    NoChange,
    /// Neither: more games would tell.
    Undecided,
}

impl Change {
    /// The word CSVs use.
    pub fn name(self) -> &'static str {
        match self {
            Change::Changes => "changes",
            Change::NoChange => "no_change",
            Change::Undecided => "undecided",
        }
    }
}

/// One figure of one rule set in one cell, with its 95% interval (of the figure alone).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// The figure.
    pub value: f64,
    /// Its 95% interval (`None` with fewer than two deals).
    pub interval: Option<(f64, f64)>,
}

/// One rule set against the baseline, for one figure in one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Cell: seats.
    pub players: u8,
    /// Cell: tiles each.
    pub hand: u8,
    /// The rule set (index, ≥ 1).
    pub set: usize,
    /// The figure.
    pub measure: &'static Measure,
    /// The baseline's figure.
    pub baseline: Value,
    /// The rule set's figure.
    pub value: Value,
    /// `value - baseline`.
    pub difference: f64,
    /// Its standard error (paired where the deals pair).
    pub se: f64,
    /// Whether the deals paired (else the two were taken as independent).
    pub paired: bool,
    /// The 95% interval of this difference alone.
    pub interval: (f64, f64),
    /// The interval adjusted for every difference reported.
    pub adjusted: (f64, f64),
    /// The margin it is judged at.
    pub margin: f64,
    /// The deals both played.
    pub deals: u64,
    /// The verdict.
    pub change: Change,
}

impl std::fmt::Debug for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl PartialEq for Measure {
    fn eq(&self, o: &Measure) -> bool {
        self.name == o.name
    }
}

/// A figure's value and its 95% interval: Wilson on the effective sample for shares, normal
/// for counts, as the tournament and sweep reports give them.
pub fn value_of(m: &Measure, f: &Figure) -> Option<Value> {
    let e = if m.share { f.cluster.proportion(f.scale) } else { f.cluster.mean(f.scale) }?;
    let interval = (e.lo.is_finite() && e.hi.is_finite()).then_some((e.lo - f.shift, e.hi - f.shift));
    Some(Value { value: e.value - f.shift, interval })
}

/// The difference `a - b` of one figure and its standard error, paired through `cross`
/// (`Σ x_a · x_b` over the deals) when both have units in all `deals`; else as independent.
/// `None` without units, or with fewer than two deals.
pub fn paired_difference(a: &Figure, b: &Figure, cross: u128, deals: u64) -> Option<(f64, f64, bool)> {
    let (ca, cb) = (&a.cluster, &b.cluster);
    if ca.units == 0 || cb.units == 0 {
        return None;
    }
    let diff = ca.sum as f64 / ca.units as f64 / a.scale - cb.sum as f64 / cb.units as f64 / b.scale;
    if ca.deals == deals && cb.deals == deals && deals >= 2 {
        let d = deals as f64;
        // u_d = x_a,d / (m̄_a s_a) - x_b,d / (m̄_b s_b): its mean is the difference.
        let (ka, kb) = (ca.units as f64 / d * a.scale, cb.units as f64 / d * b.scale);
        let su = ca.sum as f64 / ka - cb.sum as f64 / kb;
        let su2 = ca.sum_sq as f64 / (ka * ka) + cb.sum_sq as f64 / (kb * kb) - 2.0 * cross as f64 / (ka * kb);
        let var = ((su2 - su * su / d) / (d - 1.0)).max(0.0);
        return Some((diff, (var / d).sqrt(), true));
    }
    let se2 = |c: &Cluster, s: f64| c.mean_variance(s);
    let (va, vb) = (se2(ca, a.scale)?, se2(cb, b.scale)?);
    Some((diff, (va + vb).sqrt(), false))
}

/// `z` for a two-sided interval that holds for all of `k` differences at once with 95%
/// confidence (Bonferroni).
pub fn adjusted_z(k: usize) -> f64 {
    if k <= 1 {
        return Z95;
    }
    let normal = Normal::new(0.0, 1.0).expect("the standard normal");
    normal.inverse_cdf(1.0 - 0.05 / (2.0 * k as f64))
}

/// The verdict of an adjusted interval against `margin`.
pub fn change_of((lo, hi): (f64, f64), margin: f64) -> Change {
    if lo > margin || hi < -margin {
        Change::Changes
    } else if lo >= -margin && hi <= margin {
        Change::NoChange
    } else {
        Change::Undecided
    }
}

/// Every rule set's figures per cell, in cell, rule set and measure order: `(cell, set,
/// measure, value)`.
pub fn values(cmp: &Comparison, cells: &[CompareCell]) -> Vec<(usize, usize, &'static Measure, Value)> {
    let mut out = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        for (r, t) in c.tallies.iter().enumerate() {
            for m in MEASURES {
                if let Some(v) = (m.read)(t, cmp.seconds_per_turn).and_then(|f| value_of(m, &f)) {
                    out.push((i, r, m, v));
                }
            }
        }
    }
    out
}

/// Every difference of a rule set from the baseline, per cell and measure, with the intervals
/// adjusted over all of them and the verdicts.
pub fn differences(cmp: &Comparison, cells: &[CompareCell]) -> Vec<Difference> {
    let mut out = Vec::new();
    for c in cells {
        let base = &c.tallies[0];
        for r in 1..c.tallies.len() {
            let t = &c.tallies[r];
            for m in MEASURES {
                let (Some(fa), Some(fb)) = ((m.read)(t, cmp.seconds_per_turn), (m.read)(base, cmp.seconds_per_turn))
                else {
                    continue;
                };
                let (Some(va), Some(vb)) = (value_of(m, &fa), value_of(m, &fb)) else { continue };
                let deals = base.deals.min(t.deals);
                let Some((difference, se, paired)) = paired_difference(&fa, &fb, c.cross[r - 1][fa.index], deals)
                else {
                    continue;
                };
                let margin = if m.share { cmp.margin } else { cmp.relative_margin * vb.value.abs() };
                out.push(Difference {
                    players: c.players,
                    hand: c.hand,
                    set: r,
                    measure: m,
                    baseline: vb,
                    value: va,
                    difference,
                    se,
                    paired,
                    interval: (difference - Z95 * se, difference + Z95 * se),
                    adjusted: (0.0, 0.0),
                    margin,
                    deals,
                    change: Change::Undecided,
                });
            }
        }
    }
    let z = adjusted_z(out.len());
    for d in &mut out {
        d.adjusted = (d.difference - z * d.se, d.difference + z * d.se);
        d.change = if d.deals < MIN_DEALS { Change::Undecided } else { change_of(d.adjusted, d.margin) };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_set_parses_from_a_spec_or_a_house_rule_file() {
        let r = RuleSet::parse("wikipedia:tap=draw_two, continuous_draw=true").unwrap();
        assert_eq!(r.preset, "wikipedia");
        assert_eq!(r.rules, ["tap=draw_two", "continuous_draw=true"]);
        assert_eq!(RuleSet::parse("celko1998").unwrap().rules, Vec::<String>::new());
        let e = RuleSet::parse("wikipedai").unwrap_err().to_string();
        assert!(e.contains("unknown preset 'wikipedai'") && e.contains("valid: celko1998"), "{e}");
        assert!(RuleSet::parse("wikipedia:tap=sometimes").unwrap_err().to_string().contains("tap"));
        let f =
            RuleSet::from_file("ours", "# our table\npreset = wikipedia\ntap = draw_two  # nobody taps\n\n").unwrap();
        assert_eq!((f.name.as_str(), f.rules.as_slice()), ("ours", ["tap=draw_two".to_string()].as_slice()));
        assert!(RuleSet::from_file("ours", "tap = draw_two").unwrap_err().to_string().contains("no preset"));
        assert!(RuleSet::from_file("ours", "preset = wikipedia\ntap").unwrap_err().to_string().contains("line 2"));
    }

    #[test]
    fn a_verdict_is_decided_by_where_the_adjusted_interval_lies_against_the_margin() {
        assert_eq!(change_of((0.02, 0.05), 0.01), Change::Changes);
        assert_eq!(change_of((-0.05, -0.02), 0.01), Change::Changes);
        assert_eq!(change_of((-0.004, 0.006), 0.01), Change::NoChange);
        assert_eq!(change_of((0.002, 0.008), 0.01), Change::NoChange);
        assert_eq!(change_of((0.005, 0.02), 0.01), Change::Undecided);
        assert_eq!(change_of((-0.03, 0.03), 0.01), Change::Undecided);
        // Bonferroni over 20 differences: z for 1 - 0.05/40.
        assert!((adjusted_z(20) - 3.0233).abs() < 1e-3, "{}", adjusted_z(20));
        assert_eq!(adjusted_z(1), Z95);
    }

    /// Paired through the cross sums: two figures that move together deal by deal differ
    /// with a smaller standard error than independent ones would.
    #[test]
    fn a_paired_difference_uses_the_cross_sums() {
        let deals = [(10u64, 4u64, 12u64), (20, 4, 21), (30, 4, 33), (40, 4, 41)];
        let mut a = Cluster::default();
        let mut b = Cluster::default();
        let mut cross = 0u128;
        for &(xb, m, xa) in &deals {
            a.add_deal(xa, m);
            b.add_deal(xb, m);
            cross += u128::from(xa) * u128::from(xb);
        }
        let f = |c: Cluster| Figure { cluster: c, index: 0, scale: 1.0, shift: 0.0 };
        let (d, se, paired) = paired_difference(&f(a), &f(b), cross, 4).unwrap();
        assert!(paired);
        // Per-deal differences of the means: 0.5, 0.25, 0.75, 0.25 → mean 0.4375.
        assert!((d - 0.4375).abs() < 1e-12);
        let u = [0.5f64, 0.25, 0.75, 0.25];
        let var = u.iter().map(|x| (x - 0.4375).powi(2)).sum::<f64>() / 3.0;
        assert!((se - (var / 4.0).sqrt()).abs() < 1e-12, "{se}");
        let (_, se_ind, paired) = paired_difference(&f(a), &f(b), cross, 5).unwrap();
        assert!(!paired && se_ind > 10.0 * se);
    }
}
