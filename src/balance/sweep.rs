//! A hand-size sweep as a job: its checked description ([`Sweep`], built from a [`SweepSpec`]),
//! one tournament per cell, the durable state of all cells ([`SweepState`]), and the run that
//! plays them with sequential sampling. The command line (`mtrain balance`) and any other caller
//! describe a sweep, hand it a state to play and a place to save it, and report the cells.

use super::{Cell, Limits, Metric, Objective, RankBy};
use crate::rules::Rules;
use crate::strategies::Registry;
use crate::strategy::StrategySpec;
use crate::tournament::{
    BALANCE_KIND, CHUNK_DEALS, CellState, ChunkSet, Layout, RunOptions, SWEEP_FORMAT, Schedule, Seating, SweepState,
    Tally, Tournament,
};

/// The smallest hand an automatic sweep covers: fewer tiles make rounds of a few turns that no
/// source deals (the smallest published hand is 6 tiles).
pub(crate) const AUTO_MIN_HAND: u8 = 5;
/// The largest hand an automatic sweep covers: half again the largest any source deals (16), so
/// two and three players do not spend most of the sweep on hands no table would deal.
pub(crate) const AUTO_MAX_HAND: u8 = 24;

/// Why a sweep cannot be set up or its state cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SweepError {
    /// An input that cannot describe a sweep, in one line naming it and the valid choices.
    #[error("{0}")]
    Invalid(String),
    /// A stored state that does not belong to this sweep or cannot be trusted.
    #[error("{0}")]
    State(String),
}

/// What a sweep is asked to be, before it is checked: plain data (serde), the configuration
/// a sweep is rebuilt from.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepSpec {
    /// The preset's name.
    pub preset: String,
    /// The set: double-`set`.
    pub set: u8,
    /// Rounds per match (`None`: every double from the highest down).
    pub rounds: Option<u8>,
    /// `key=value` rule changes, in the order given.
    pub rules: Vec<String>,
    /// Player counts, `lo..=hi`.
    pub players: (u8, u8),
    /// Hand sizes, `lo..=hi`; `None`: from `AUTO_MIN_HAND` to what the set can deal (at most
    /// `AUTO_MAX_HAND`) at each player count.
    pub hands: Option<(u8, u8)>,
    /// The population, as a `--bots` list.
    pub bots: String,
    /// Games per cell at the first look, and per further batch.
    pub games: u64,
    /// The most games a cell may play; `None`: four times `games`.
    pub max_games: Option<u64>,
    /// Master seed.
    pub seed: u64,
    /// How the hand size is picked.
    pub objective: Objective,
    /// The limits the criteria are judged against.
    pub limits: Limits,
    /// The metrics to plot, by name (`None`: all).
    pub metrics: Option<Vec<String>>,
    /// How the candidates are ranked (objective `balanced`).
    #[serde(default)]
    pub rank_by: RankBy,
    /// Seconds a turn, for minutes.
    #[serde(default = "seconds_per_turn")]
    pub seconds_per_turn: f64,
}

fn seconds_per_turn() -> f64 {
    super::SECONDS_PER_TURN
}

/// What a sweep's state stores to rebuild it: its spec and the bots it adds to the built-ins.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SweepConfig {
    /// The sweep.
    pub spec: SweepSpec,
    /// The external bots and named specs of its population.
    pub bots: crate::external::BotSetup,
}

impl SweepConfig {
    /// As stored in a state.
    pub(crate) fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("serialisable")
    }

    /// The configuration a state stores.
    ///
    /// # Errors
    /// [`SweepError::State`] when the stored value does not describe a sweep.
    pub(crate) fn of(st: &SweepState) -> Result<SweepConfig, SweepError> {
        serde_json::from_value(st.config.clone())
            .map_err(|e| SweepError::State(format!("its tally.json does not describe a sweep ({e})")))
    }
}

/// A checked sweep.
#[derive(Clone, Debug)]
#[doc(hidden)] // the sweep's parts, for the integration tests
pub struct Sweep {
    /// The rules every cell shares (players and hand set per cell).
    pub base: Rules,
    /// The `--rule` changes as applied, for reports.
    pub changes: Vec<(String, String)>,
    /// `(players, hand)` in player-then-hand order.
    pub cells: Vec<(u8, u8)>,
    /// The distinct bots of the population, canonical.
    pub specs: Vec<StrategySpec>,
    /// The population list as field indices.
    pub entries: Vec<u16>,
    /// Games per cell at the first look.
    pub games: u64,
    /// The most games a cell may play (sequential sampling stops there).
    pub max_games: u64,
    /// Master seed.
    pub seed: u64,
    /// How the hand size is picked.
    pub objective: Objective,
    /// The limits.
    pub limits: Limits,
    /// The metrics to plot.
    pub metrics: Vec<&'static Metric>,
    /// How the candidates are ranked.
    pub rank_by: RankBy,
    /// Seconds a turn, for minutes.
    pub seconds_per_turn: f64,
    /// Whether every bot of the population is deterministic.
    pub deterministic: bool,
}

/// Every rotation and seating order; one game per deal for one deterministic bot everywhere.
fn seating(deterministic: bool) -> Seating {
    Seating { deterministic, ..Seating::default() }
}

fn span_text((a, b): (u8, u8)) -> String {
    if a == b { a.to_string() } else { format!("{a}-{b}") }
}

impl Sweep {
    /// Checks a sweep: every player count one the preset deals, every hand size dealable, the
    /// population known, the limits and games consistent.
    ///
    /// # Errors
    /// [`SweepError::Invalid`], one line naming the problem (as the command line's options).
    pub fn new(spec: &SweepSpec, registry: &Registry) -> Result<Sweep, SweepError> {
        let bad = SweepError::Invalid;
        let table = crate::rules::TableSpec {
            preset: spec.preset.clone(),
            set: spec.set,
            players: 4,
            hand: None,
            rounds: None,
            rules: spec.rules.clone(),
        };
        let (mut base, changes) = table.preset_rules().map_err(|e| bad(e.to_string()))?;
        base.rounds = spec.rounds;
        let set = base.set.get();
        let (p0, p1) = spec.players;
        let mut cells = Vec::new();
        for players in p0..=p1 {
            // The player counts are the preset's (as for `play`); the hand sizes are the sweep's.
            let mut rules = Rules { players, hand_size: None, ..base.clone() };
            rules.validate().map_err(|e| bad(format!("--players {}: {e}", span_text(spec.players))))?;
            let max = (rules.dealable_tiles() / players.max(1) as usize).min(u8::MAX as usize) as u8;
            let (h0, h1) = spec.hands.unwrap_or((AUTO_MIN_HAND.min(max), max.min(AUTO_MAX_HAND)));
            if spec.hands.is_some() && h1 > max {
                return Err(bad(format!(
                    "--hands {h0}-{h1} cannot be dealt to {players} players from double-{set}: at most {max} tiles each ({} tiles to deal)",
                    rules.dealable_tiles()
                )));
            }
            for hand in h0..=h1 {
                rules.hand_size = Some(hand);
                rules.validate().map_err(|e| bad(format!("{players} players with {hand} tiles each: {e}")))?;
                cells.push((players, hand));
            }
        }
        let field = registry.field(&spec.bots).map_err(|e| bad(e.to_string()))?;
        let deterministic = registry.deterministic(&field.bots);
        for &(players, _) in &cells {
            Schedule::with_seating(&field.entries, players, seating(deterministic), spec.games, 0)
                .map_err(|e| bad(e.to_string()))?;
        }
        let l = spec.limits;
        if l.min_skill >= l.max_skill {
            return Err(bad(format!(
                "--min-skill {} is not below --max-skill {}: give a floor below the ceiling",
                l.min_skill, l.max_skill
            )));
        }
        if !(spec.seconds_per_turn > 0.0 && spec.seconds_per_turn <= 3600.0) {
            return Err(bad(format!(
                "--seconds-per-turn must be a number above 0 and at most 3600; got {}",
                spec.seconds_per_turn
            )));
        }
        if spec.rank_by != RankBy::Published && spec.objective != Objective::Balanced {
            return Err(bad(format!(
                "--rank-by {} ranks the candidates of the balanced objective; with --objective {} give no --rank-by",
                spec.rank_by.name(),
                spec.objective.name()
            )));
        }
        let max_games = spec.max_games.unwrap_or(spec.games.saturating_mul(4));
        if max_games < spec.games {
            return Err(bad(format!(
                "--max-games {max_games} is fewer than --games {}: give at least as many (equal: a fixed sample)",
                spec.games
            )));
        }
        let metrics = match &spec.metrics {
            Some(names) => super::parse_metrics(&names.join(",")).map_err(|e| bad(e.to_string()))?,
            None => super::METRICS.iter().collect(),
        };
        Ok(Sweep {
            base,
            changes,
            cells,
            specs: field.bots,
            entries: field.entries,
            games: spec.games,
            max_games,
            seed: spec.seed,
            objective: spec.objective,
            limits: spec.limits,
            metrics,
            rank_by: spec.rank_by,
            seconds_per_turn: spec.seconds_per_turn,
            deterministic,
        })
    }

    /// The tournament of cell `i`, scheduled for the most games it may play: its first chunks
    /// are the first look (a schedule's games depend only on their index, so a longer schedule
    /// extends a shorter one).
    ///
    /// # Errors
    /// A bot the registry cannot build.
    pub(crate) fn cell_tournament(&self, i: usize, registry: &Registry) -> Result<Tournament, SweepError> {
        let (players, hand) = self.cells[i];
        let rules = Rules { players, hand_size: Some(hand), ..self.base.clone() };
        let seed = crate::rng::seeds::balance_cell(self.seed, players, hand);
        let schedule =
            Schedule::with_seating(&self.entries, players, seating(self.deterministic), self.max_games, seed)
                .expect("checked by Sweep::new");
        Tournament::with_registry(rules, self.specs.clone(), schedule, registry)
            .map_err(|e| SweepError::Invalid(e.to_string()))
    }

    /// Chunks of each cell's tournament of `games` games.
    pub(crate) fn chunks_of(&self, games: u64) -> Vec<u64> {
        self.cells
            .iter()
            .map(|&(players, _)| {
                Schedule::with_seating(&self.entries, players, seating(self.deterministic), games, 0)
                    .map_or(0, |s| s.deals.div_ceil(CHUNK_DEALS))
            })
            .collect()
    }

    /// The state of a new sweep (or of shard `shard` of it) described by `config` (the data it
    /// is rebuilt from: its spec and bots): each cell planned for its first look.
    pub fn new_state(&self, config: serde_json::Value, shard: Option<(u64, u64)>) -> SweepState {
        let chunks = self.chunks_of(self.max_games);
        let planned = SweepState::shard_plan(&self.chunks_of(self.games), shard);
        SweepState {
            format: SWEEP_FORMAT,
            kind: BALANCE_KIND.to_string(),
            config,
            shard,
            cells: self
                .cells
                .iter()
                .zip(&chunks)
                .zip(&planned)
                .map(|((&(players, hand), &n), plan)| CellState {
                    players,
                    hand,
                    chunks_total: n,
                    chunks_planned: plan.clone(),
                    done: ChunkSet::default(),
                    tally: Tally::new(Layout { bots: self.specs.len(), players: players as usize }),
                })
                .collect(),
            check: 0,
        }
    }

    /// Checks a stored state against this sweep (built from the state's configuration): the
    /// same cells, and counts that its chunks hold.
    ///
    /// # Errors
    /// [`SweepError::State`], a phrase naming what does not match.
    pub fn check_state(&self, st: &SweepState, registry: &Registry) -> Result<(), SweepError> {
        let bad = |why: &str| Err(SweepError::State(why.to_string()));
        let chunks = self.chunks_of(self.max_games);
        let same_cells = st.cells.len() == self.cells.len()
            && st
                .cells
                .iter()
                .zip(&self.cells)
                .zip(&chunks)
                .all(|((c, &(pl, h)), &n)| c.players == pl && c.hand == h && c.chunks_total == n);
        if !same_cells {
            return bad("its tally.json describes other cells");
        }
        for (i, c) in st.cells.iter().enumerate() {
            let t = self.cell_tournament(i, registry)?;
            let outside = c.done.0.iter().any(|&(x, y)| (x..y).any(|k| !c.chunks_planned.contains(k)));
            if outside || c.tally.games != games_in(&t, &c.done) {
                return bad("its tally.json counts games its chunks do not hold");
            }
        }
        Ok(())
    }

    /// The state a run of this sweep starts from: `previous` (a resumed run's, checked against
    /// this sweep) or a new one that stores `config` and plays `shard`. A shard splits a fixed
    /// sample only.
    ///
    /// # Errors
    /// [`SweepError::Invalid`] for a shard of a sequential sweep; [`SweepError::State`] for a
    /// state of another sweep.
    pub fn start(
        &self,
        previous: Option<SweepState>,
        config: &SweepConfig,
        shard: Option<(u64, u64)>,
        registry: &Registry,
    ) -> Result<SweepState, SweepError> {
        if shard.is_some() && self.max_games != self.games {
            return Err(SweepError::Invalid(
                "--shard splits a fixed sample, but sequential sampling decides each cell from all its games: give --max-games equal to --games with --shard".into(),
            ));
        }
        match previous {
            Some(st) => self.check_state(&st, registry).map(|()| st),
            None => Ok(self.new_state(config.to_value(), shard)),
        }
    }

    /// The games the cells of `st` are planned to play in all.
    ///
    /// # Errors
    /// A bot the registry cannot build.
    pub(crate) fn planned_games(&self, st: &SweepState, registry: &Registry) -> Result<u64, SweepError> {
        st.cells
            .iter()
            .enumerate()
            .map(|(i, c)| Ok(games_in(&self.cell_tournament(i, registry)?, &c.chunks_planned)))
            .sum()
    }

    /// Plays what `st` has left, cell after cell, with `opts`. Sequential sampling: a cell with
    /// a figure not yet decided against its limit plays another `games` (its next chunks), up to
    /// `max_games`; decided after whole batches, so the games played depend only on the seed,
    /// never on the thread count or an interruption (a shard plays its slice only). `on_cell`
    /// hears which cell starts, `extended` how many games a cell added, `save` sees the state at
    /// every checkpoint. Returns whether the run was interrupted.
    ///
    /// # Errors
    /// The first error `save` returns, or a bot the registry cannot build.
    #[allow(clippy::too_many_arguments)]
    pub fn play<E: From<SweepError>>(
        &self,
        st: &mut SweepState,
        sharded: bool,
        opts: &RunOptions,
        registry: &Registry,
        mut on_cell: impl FnMut(usize),
        mut extended: impl FnMut(u64),
        save: impl Fn(&SweepState) -> Result<(), E>,
    ) -> Result<bool, E> {
        let chunks = self.chunks_of(self.max_games);
        let first = self.chunks_of(self.games);
        let more = |i: usize, c: &CellState| -> Option<u64> {
            let end = c.chunks_planned.0.last().map_or(0, |r| r.1);
            let cell = Cell { players: c.players, hand: c.hand, tally: c.tally.clone() };
            (!sharded && end < chunks[i] && super::undecided(&cell, &self.limits))
                .then(|| (end + first[i]).min(chunks[i]))
        };
        st.play(
            opts,
            |i| self.cell_tournament(i, registry).map_err(E::from),
            &mut on_cell,
            more,
            |t, added| extended(games_in(t, added)),
            save,
        )
    }

    /// The cells of a state, for the report.
    pub(crate) fn cells_of(st: &SweepState) -> Vec<Cell> {
        st.cells.iter().map(|c| Cell { players: c.players, hand: c.hand, tally: c.tally.clone() }).collect()
    }
}

/// The games of a cell's chunks.
fn games_in(t: &Tournament, set: &ChunkSet) -> u64 {
    set.0.iter().flat_map(|&(a, b)| a..b).map(|c| t.chunk_games(c)).sum()
}

/// Whether a run's result leaves every planned chunk of `st` played.
pub(crate) fn all_planned_played(st: &SweepState) -> bool {
    st.cells.iter().all(|c| c.done == c.chunks_planned)
}

/// Whether `st` holds the whole sweep: every cell played out, and (a shard's or a merge's
/// state) every chunk of every cell.
#[doc(hidden)] // the sweep's parts, for the integration tests
pub fn complete(st: &SweepState) -> bool {
    all_planned_played(st) && (st.shard.is_none() || st.cells.iter().all(|c| c.done.len() == c.chunks_total))
}

/// The games `st` has played.
pub(crate) fn games_played(st: &SweepState) -> u64 {
    st.cells.iter().map(|c| c.tally.games).sum()
}
