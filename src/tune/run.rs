//! A tuning run as a job: its checked description ([`Tuning`], from a [`TuningSpec`]), its
//! durable state ([`TuneState`], `tune.json`), the SPSA iterations, and the confirmation of the
//! result on fresh deals. The command line (`mtrain tune`) and any other caller describe a run,
//! hand it a state to continue and a place to save it, and report the result.

use super::{Gains, TuneParam, perturbed, signs, spec_at, step};
use crate::rng::seeds;
use crate::rules::{Rules, TableSpec};
use crate::strategies::Registry;
use crate::strategy::StrategySpec;
use crate::tournament::{ChunkSet, RunOptions, Schedule, Seating, Sprt, SprtState, Tally, Tournament};
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;

/// Format version of `tune.json` (2: the run stored as data, its spec and its bots; 3: its
/// `kind` and a self-`check`, as every state file).
#[doc(hidden)] // SPSA's parts, for the integration tests
pub const TUNE_FORMAT: u32 = 3;

/// Why a tuning run cannot be set up or go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TuneError {
    /// An input that cannot describe a run, in one line naming it and the valid choices.
    #[error("{0}")]
    Invalid(String),
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[doc(hidden)] // SPSA's parts, for the integration tests
pub struct Row {
    /// The iteration's index, from 0.
    pub iteration: u64,
    /// The plus point's head-to-head score against the minus point (½ when they were equal).
    pub score: f64,
    /// Head-to-head comparisons the score rests on.
    pub comparisons: u64,
    /// The parameters after the step, in unit coordinates.
    pub u: Vec<f64>,
}

/// `tune.json`: everything a resume needs, as data: the run's spec and the bots it adds, the
/// start and every iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneState {
    /// [`TUNE_FORMAT`].
    pub format: u32,
    /// `tune` ([`crate::store::TUNE`]).
    pub kind: String,
    /// What the run is: it is rebuilt from this on resume.
    pub spec: TuningSpec,
    /// The external bots and named specs the run's registry adds to the built-ins.
    pub bots: crate::external::BotSetup,
    /// The starting point, unit coordinates.
    pub start: Vec<f64>,
    /// The iterations played.
    pub rows: Vec<Row>,
    /// CRC-32 of the file's content with this field 0.
    pub check: u32,
}

impl crate::store::SelfChecked for TuneState {
    fn check_field(&mut self) -> &mut u32 {
        &mut self.check
    }
}

impl TuneState {
    /// Parses `tune.json`.
    ///
    /// # Errors
    /// A phrase naming the problem: not JSON of this shape, another format, points that do not
    /// match `params` parameters.
    pub(crate) fn from_json(text: &str, params: Option<usize>) -> Result<TuneState, crate::error::InvalidInput> {
        // The format first: a file of another version may not have this one's fields.
        let format = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| v.get("format").and_then(serde_json::Value::as_u64));
        if let Some(f) = format.filter(|&f| f != u64::from(TUNE_FORMAT)) {
            return Err(format!(
                "tune.json was written by another version of mtrain (format {f}; this one reads {TUNE_FORMAT})"
            )
            .into());
        }
        let st: TuneState = serde_json::from_str(text)
            .map_err(|e| format!("not a valid tune.json: {}", crate::error::json_problem(text, &e)))?;
        if st.format != TUNE_FORMAT {
            return Err(format!(
                "tune.json was written by another version of mtrain (format {}; this one reads {TUNE_FORMAT})",
                st.format
            )
            .into());
        }
        if !crate::store::SelfChecked::is_intact(&st) {
            return Err("tune.json was changed after mtrain wrote it (its check does not match its content)".into());
        }
        if let Some(d) = params {
            st.check_points(d)?;
        }
        Ok(st)
    }

    /// Checks that every point has `d` coordinates, one per tuned parameter.
    ///
    /// # Errors
    /// A damaged state, in one line.
    pub(crate) fn check_points(&self, d: usize) -> Result<(), crate::error::InvalidInput> {
        if self.start.len() != d || self.rows.iter().any(|r| r.u.len() != d) {
            return Err("tune.json is damaged: its points do not match its parameters".into());
        }
        Ok(())
    }

    /// Pretty JSON with its check, as `tune.json` holds it.
    pub fn to_json(&self) -> String {
        crate::store::SelfChecked::checked_json(self)
    }
}

/// What a tuning run is asked to be, before it is checked: plain data (serde), the
/// configuration a run is rebuilt from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuningSpec {
    /// The table.
    pub table: TableSpec,
    /// The bot to tune, with any fixed parameters (`weighted:pips=1`).
    pub bot: Option<String>,
    /// The parameters to tune, `key=lo:hi` each.
    pub params: Vec<String>,
    /// The SPSA gains and iteration count.
    pub gains: Gains,
    /// Games per iteration.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// The confirmation's SPRT.
    pub confirm: Sprt,
    /// The most games the confirmation plays.
    pub confirm_games: u64,
}

/// A checked tuning run.
#[derive(Clone, Debug)]
#[doc(hidden)] // SPSA's parts, for the integration tests
pub struct Tuning {
    /// The table.
    pub rules: Rules,
    /// The `--rule` changes as applied.
    pub changes: Vec<(String, String)>,
    /// The bot as given (its other parameters stay fixed).
    pub base: StrategySpec,
    /// The tuned parameters.
    pub params: Vec<TuneParam>,
    /// The SPSA gains and iteration count.
    pub gains: Gains,
    /// Games per iteration.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// The confirmation's SPRT.
    pub confirm: Sprt,
    /// The most games the confirmation plays.
    pub confirm_games: u64,
}

/// `spec` with the parameters of `over` set.
fn with_params(spec: &StrategySpec, over: &StrategySpec) -> StrategySpec {
    let mut s = spec.clone();
    for (k, v) in &over.params {
        match s.params.iter_mut().find(|(key, _)| key == k) {
            Some(slot) => slot.1 = v.clone(),
            None => s.params.push((k.clone(), v.clone())),
        }
    }
    s
}

/// The result of the confirmation games.
#[derive(Clone, Debug)]
#[doc(hidden)] // SPSA's parts, for the integration tests
pub struct Confirmation {
    /// The tuned bot's games against the start.
    pub tally: Tally,
    /// The SPRT's end state.
    pub sprt: SprtState,
}

impl Tuning {
    /// Checks a run: a bot the registry knows, each parameter one it takes, a number, with its
    /// starting value (the spec's, else the bot's default) inside its range and both range
    /// ends values the bot accepts. Returns the run and its starting point in unit coordinates.
    ///
    /// # Errors
    /// [`TuneError::Invalid`], one line naming the problem (as the command line's options).
    pub fn new(spec: &TuningSpec, registry: &Registry) -> Result<(Tuning, Vec<f64>), TuneError> {
        let bad = |m: String| TuneError::Invalid(m);
        let (rules, changes) = spec.table.build().map_err(|e| bad(e.to_string()))?;
        let bot = spec.bot.as_deref().ok_or_else(|| bad("give the bot to tune with --bot BOT".into()))?;
        let base: StrategySpec = bot.parse().map_err(|e: crate::strategy::SpecError| bad(e.to_string()))?;
        registry.build(&base).map_err(|e| bad(e.to_string()))?;
        if spec.params.is_empty() {
            return Err(bad("give at least one parameter to tune with --param key=lo:hi".into()));
        }
        let entry = registry.get(&base.name).expect("built");
        let mut params: Vec<TuneParam> = Vec::new();
        let mut start = Vec::new();
        for text in &spec.params {
            let mut p = TuneParam::parse(text).map_err(|e| bad(e.into()))?;
            if params.iter().any(|q| q.key == p.key) {
                return Err(bad(format!("--param {} is given twice", p.key)));
            }
            let default = match &entry.params {
                Some(list) => match list.iter().find(|i| i.key == p.key) {
                    Some(info) => Some(info.default),
                    None => {
                        let valid = list.iter().map(|i| i.key).collect::<Vec<_>>().join(", ");
                        let valid = if valid.is_empty() { "none: it takes no parameters".to_string() } else { valid };
                        return Err(bad(format!(
                            "--param {}: {} has no parameter '{}' (valid: {valid})",
                            p.key, base.name, p.key
                        )));
                    }
                },
                None => None,
            };
            // `weighted` plays a set of weights chosen by its `set` and the rules: a weight the
            // spec leaves out starts from that set's, not from the listed default.
            let from_set = (entry.origin == crate::strategies::Origin::BuiltIn && base.name == "weighted")
                .then(|| crate::strategies::set_weight(&base, &p.key, rules.preset))
                .flatten()
                .map(|w| w.to_string());
            let given = base.get(&p.key).or(from_set.as_deref()).or(default);
            if given.is_none() && entry.params.is_none() {
                // An external bot's defaults are its own: mtrain cannot know where to start.
                return Err(bad(format!(
                    "--param {key}: {name} is an external bot whose default for '{key}' mtrain cannot know: give the starting value in the spec, e.g. --bot {name}:{key}={}",
                    p.text((p.lo + p.hi) / 2.0),
                    key = p.key,
                    name = base.name,
                )));
            }
            let value = match given {
                Some(v) => v.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or_else(|| {
                    bad(format!(
                        "--param {}: {}'s '{}' is not a number ({v}): only numeric parameters can be tuned",
                        p.key, base.name, p.key
                    ))
                })?,
                None => (p.lo + p.hi) / 2.0,
            };
            if value < p.lo || value > p.hi {
                return Err(bad(format!(
                    "--param {}: the starting value {value} lies outside the range {}:{}",
                    p.key, p.lo, p.hi
                )));
            }
            // A parameter the bot refuses halfway between two whole numbers takes whole numbers.
            let half =
                StrategySpec { params: vec![(p.key.clone(), format!("{}", value.floor() + 0.5))], ..base.clone() };
            p.integer = entry.params.is_some() && registry.build(&with_params(&base, &half)).is_err();
            for end in [p.lo, p.hi] {
                let at = StrategySpec { params: vec![(p.key.clone(), p.text(end))], ..base.clone() };
                registry.build(&with_params(&base, &at)).map_err(|e| {
                    bad(format!("--param {}: the range end {} is not a valid value ({e})", p.key, p.text(end)))
                })?;
            }
            start.push(p.unit(value));
            params.push(p);
        }
        let t = Tuning {
            rules,
            changes,
            base,
            params,
            gains: spec.gains,
            games: spec.games,
            seed: spec.seed,
            confirm: spec.confirm,
            confirm_games: spec.confirm_games,
        };
        Ok((t, start))
    }

    /// The state of a new run of `spec` (this run's) with the bots `bots`, starting at `start`.
    pub fn new_state(&self, spec: TuningSpec, bots: crate::external::BotSetup, start: Vec<f64>) -> TuneState {
        TuneState {
            format: TUNE_FORMAT,
            kind: crate::store::TUNE.name.to_string(),
            spec,
            bots,
            start,
            rows: Vec::new(),
            check: 0,
        }
    }

    /// The bot at unit point `u`, canonical.
    ///
    /// # Errors
    /// A point the bot refuses.
    pub(crate) fn bot_at(&self, u: &[f64], registry: &Registry) -> Result<StrategySpec, TuneError> {
        registry.canonical(&spec_at(&self.base, &self.params, u)).map_err(|e| TuneError::Invalid(e.to_string()))
    }

    /// The head-to-head games of `a` against `b`: `games` games from master seed `seed` on
    /// `opts.threads` threads, stopped by `opts`' flags, under `opts.sprt` if given. `None` when
    /// a signal (or a failing bot) stopped it before an SPRT decided.
    ///
    /// # Errors
    /// A bot or a schedule that cannot be built.
    pub(crate) fn play_pair(
        &self,
        a: &StrategySpec,
        b: &StrategySpec,
        games: u64,
        seed: u64,
        registry: &Registry,
        opts: &RunOptions,
    ) -> Result<Option<(Tally, Option<SprtState>)>, TuneError> {
        let bad = |e: String| TuneError::Invalid(e);
        let specs = vec![a.clone(), b.clone()];
        let seating = Seating { deterministic: registry.deterministic(&specs), ..Seating::default() };
        let schedule = Schedule::with_seating(&[0, 1], self.rules.players, seating, games, seed)
            .map_err(|e| bad(e.to_string()))?;
        let t =
            Tournament::with_registry(self.rules.clone(), specs, schedule, registry).map_err(|e| bad(e.to_string()))?;
        let todo: Vec<u64> = (0..t.chunk_count()).collect();
        let mut run = RunOptions::new(opts.threads);
        run.stop = opts.stop.clone();
        run.cut = opts.cut.clone();
        run.sprt = opts.sprt;
        let r = t.run::<TuneError>(&todo, Tally::new(t.layout()), ChunkSet::default(), &run, |_| Ok(()), |_| Ok(()))?;
        let decided = r.sprt.is_some_and(|s| s.decision.is_some());
        Ok(if r.interrupted && !decided { None } else { Some((r.tally, r.sprt)) })
    }

    /// Plays the iterations `st` has left (with `opts` less any SPRT), stepping the parameters after each and handing the
    /// state to `save` (then telling `stepped`). Stops early when `opts.stop` is set or a game
    /// run is cut short. Returns whether it stopped early.
    ///
    /// # Errors
    /// The first error `save` returns, or a point the bot refuses.
    pub(crate) fn iterate<E: From<TuneError>>(
        &self,
        st: &mut TuneState,
        registry: &Registry,
        opts: &RunOptions,
        mut save: impl FnMut(&TuneState) -> Result<(), E>,
        mut stepped: impl FnMut(),
    ) -> Result<bool, E> {
        let d = self.params.len();
        let mut u = st.rows.last().map_or_else(|| st.start.clone(), |r| r.u.clone());
        for k in st.rows.len() as u64..self.gains.iterations {
            if opts.stop.load(Ordering::SeqCst) {
                return Ok(true);
            }
            let delta = signs(self.seed, k, d);
            let (plus, minus) = perturbed(&u, &delta, self.gains.c_k(k));
            let (ps, ms) = (self.bot_at(&plus, registry)?, self.bot_at(&minus, registry)?);
            let (score, comparisons) = if ps == ms {
                // Both points round to the same bot: the games would say nothing.
                (0.5, 0)
            } else {
                match self.play_pair(&ps, &ms, self.games, seeds::tune_iteration(self.seed, k), registry, opts)? {
                    None => return Ok(true),
                    Some((tally, _)) => {
                        let cl = tally.pair_score(0, 1);
                        (cl.sum as f64 / cl.units.max(1) as f64, cl.units / 2)
                    }
                }
            };
            step(&mut u, &delta, &self.gains, k, score);
            st.rows.push(Row { iteration: k, score, comparisons, u: u.clone() });
            save(st)?;
            stepped();
        }
        Ok(false)
    }

    /// The confirmation: `tuned` against `start` on fresh deals under the run's SPRT. `None`
    /// when a signal stopped it before the SPRT decided.
    ///
    /// # Errors
    /// A bot that cannot be built.
    pub fn confirmation(
        &self,
        tuned: &StrategySpec,
        start: &StrategySpec,
        registry: &Registry,
        opts: &RunOptions,
    ) -> Result<Option<Confirmation>, TuneError> {
        let seed = seeds::tune_confirm(self.seed);
        let mut run = RunOptions::new(opts.threads);
        run.stop = opts.stop.clone();
        run.cut = opts.cut.clone();
        run.sprt = Some(self.confirm);
        Ok(self
            .play_pair(tuned, start, self.confirm_games, seed, registry, &run)?
            .map(|(tally, sprt)| Confirmation { tally, sprt: sprt.expect("an SPRT ran") }))
    }
}
