//! An evaluation as a [`Job`]: its configuration ([`EvalConfig`]), its state (`eval.json`,
//! [`EvalState`]: a tally per cell), its play cell after cell, and its results (`eval.csv`, the
//! console table) once every cell is complete. An evaluation has no shards: it is sized to run
//! on one machine in minutes.

use super::{Ending, Job, JobError, Merged, Run};
use crate::error::InvalidInput;
use crate::eval::{EvalConfig, EvalState, Evaluation};
use crate::external::BotSetup;
use crate::report::manifest::RulesRecord;
use crate::store::{EVAL, Kind, MANIFEST};
use crate::strategies::Registry;
use std::path::{Path, PathBuf};

/// The result file of an evaluation.
pub const EVAL_CSV: &str = "eval.csv";

/// An evaluation run.
pub struct EvalRun {
    /// The evaluation.
    pub eval: Evaluation,
    /// What the run is, as its state stores it.
    pub config: EvalConfig,
}

impl EvalRun {
    fn manifest(&self, st: &EvalState, run: &Run<'_>) -> String {
        let p = self.eval.protocol;
        let table = crate::rules::TableSpec {
            preset: crate::eval::PRESETS[0].to_string(),
            set: crate::eval::SET,
            players: 2,
            hand: None,
            rounds: Some(p.rounds),
            rules: Vec::new(),
        };
        let rules = table.build().map(|(r, _)| r).expect("the protocol's table builds");
        let mut record = RulesRecord::new(&rules, &[], crate::eval::PLAYERS.to_vec(), Vec::new());
        record.preset = crate::eval::PRESETS.join(",");
        let planned = self.eval.planned_games(st).unwrap_or(0);
        let details = serde_json::json!({
            "protocol": p.to_value(),
            "candidate": self.eval.name,
            "candidate_spec": self.eval.full_spec,
            "games_planned": planned,
            "games": st.games(),
        });
        let stopped = (!st.complete()).then_some("interrupted");
        let field = std::iter::once(self.eval.full_spec.clone())
            .chain(crate::eval::BASELINES.iter().map(|b| b.spec.to_string()))
            .collect();
        run.invocation.manifest(record, field, p.seed(), st.complete(), stopped, details)
    }

    /// The console table of a complete evaluation.
    pub fn table(&self, st: &EvalState) -> String {
        self.eval.results(st).table(self.eval.protocol, &self.eval.name)
    }

    /// `eval.csv` of a complete evaluation.
    pub fn csv(&self, st: &EvalState) -> String {
        self.eval.results(st).csv(self.eval.protocol, &self.eval.name)
    }
}

impl Job for EvalRun {
    type Config = EvalConfig;
    type Outputs = ();
    type State = EvalState;
    const KIND: Kind = EVAL;
    const UNIT: &'static str = "games";

    fn bots(config: &EvalConfig) -> &BotSetup {
        &config.bots
    }

    fn bots_mut(config: &mut EvalConfig) -> &mut BotSetup {
        &mut config.bots
    }

    fn open(config: &EvalConfig, shard: Option<(u64, u64)>, (): (), registry: &Registry) -> Result<EvalRun, JobError> {
        if shard.is_some() {
            return Err(JobError::Invalid("an evaluation has no shards: run it whole".into()));
        }
        let eval = Evaluation::new(&config.spec, registry)?;
        Ok(EvalRun { eval, config: config.clone() })
    }

    fn new_state(&self, config: &EvalConfig) -> EvalState {
        self.eval
            .new_state(serde_json::to_value(config).expect("serialisable"))
            .expect("the cells were built by Evaluation::new's registry")
    }

    fn read_state(text: &str) -> Result<EvalState, InvalidInput> {
        EvalState::from_json(text)
    }

    fn state_text(st: &EvalState) -> String {
        st.to_json()
    }

    fn config_of(st: &EvalState) -> Result<EvalConfig, InvalidInput> {
        st.config()
    }

    fn store_config(st: &mut EvalState, config: &EvalConfig) {
        st.config = serde_json::to_value(config).expect("serialisable");
    }

    fn shard_of(_: &EvalState) -> Option<(u64, u64)> {
        None
    }

    fn outputs_of(_: &EvalState) {}

    fn check_state(&self, st: &EvalState, dir: &Path, _registry: &Registry) -> Result<(), JobError> {
        self.eval.check_state(st).map_err(|e| JobError::Invalid(format!("cannot resume from '{}': {e}", dir.display())))
    }

    fn header(&self, _st: &EvalState) -> String {
        let p = self.eval.protocol;
        format!(
            "mtrain eval: {} under {}: {} cells ({} presets x {} table sizes x {} baselines), {}-round matches\n",
            self.eval.name,
            p.name,
            self.eval.cells.len(),
            crate::eval::PRESETS.len(),
            crate::eval::PLAYERS.len(),
            crate::eval::BASELINES.len(),
            p.rounds
        )
    }

    fn progress(&self, st: &EvalState, _registry: &Registry) -> Result<(u64, u64), JobError> {
        Ok((self.eval.planned_games(st)?, st.games()))
    }

    fn checkpoint_files(&self, st: &EvalState, run: &Run<'_>) -> Vec<(&'static str, String)> {
        vec![(MANIFEST, self.manifest(st, run))]
    }

    fn play(&mut self, st: &mut EvalState, run: &Run<'_>) -> Result<Ending, JobError> {
        if !run.resumed {
            run.save(self, st)?;
        }
        let before = st.games();
        let progress = run.options.progress.clone();
        let opts = run.runner_options();
        let cells = self.eval.cells.clone();
        let interrupted = self.eval.play::<JobError>(
            st,
            &opts,
            |i| {
                let c = &cells[i];
                progress.stage(&format!("{} {} players vs {}", c.preset, c.players, c.base.name));
            },
            |st| run.save(self, st),
        )?;
        run.save(self, st)?;
        let played = st.games();
        if interrupted || !st.complete() {
            let total = self.eval.planned_games(st)?;
            return Ok(Ending::Stopped { report: String::new(), saved: format!("{played} of {total} games played") });
        }
        for (name, text) in self.result_files(st)? {
            run.write(&name, &text)?;
        }
        Ok(Ending::Complete { report: self.table(st), played: Some(played - before) })
    }

    fn result_files(&self, st: &EvalState) -> Result<Vec<(String, String)>, JobError> {
        if !st.complete() {
            return Ok(Vec::new());
        }
        Ok(vec![(EVAL_CSV.to_string(), self.csv(st))])
    }

    fn played(st: &EvalState) -> u64 {
        st.games()
    }

    fn merge(_states: &[EvalState], _dirs: &[PathBuf]) -> Result<EvalState, (usize, String)> {
        Err((usize::MAX, "an evaluation has no shards to merge: run it whole".into()))
    }

    fn merged_files(
        &mut self,
        _st: &mut EvalState,
        _states: &[EvalState],
        _dirs: &[PathBuf],
        _run: &Run<'_>,
    ) -> Result<Merged, JobError> {
        Err(JobError::Invalid("an evaluation has no shards to merge: run it whole".into()))
    }
}
