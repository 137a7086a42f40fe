//! A comparison of rule sets as a [`Job`]: its configuration ([`CompareConfig`]), its state
//! (`compare.json`, [`CompareState`]: a tally per rule set and the cross sums that pair them,
//! per cell), its play cell after cell, its reports ([`crate::report::compare`]) once every
//! cell is complete, and the merge of its shards cell by cell.

use super::{Ending, Job, JobError, Merged, Run};
use crate::compare::{CompareConfig, CompareState, Comparison};
use crate::error::InvalidInput;
use crate::external::BotSetup;
use crate::report::compare as rep;
use crate::store::{COMPARE, Kind, MANIFEST};
use crate::strategies::Registry;
use crate::tournament::{ChunkSet, SweepState};
use std::path::{Path, PathBuf};

/// A comparison run: the checked comparison and the slice it plays.
pub struct CompareRun {
    /// The comparison.
    pub comparison: Comparison,
    /// What the run is, as its state stores it.
    pub config: CompareConfig,
    /// The slice it plays.
    pub shard: Option<(u64, u64)>,
}

impl CompareRun {
    fn manifest(&self, st: &CompareState, run: &Run<'_>) -> String {
        let played = (st.games(), self.comparison.planned_games(st, &run.registry).unwrap_or(0));
        let stopped = (!st.all_planned_played()).then_some("interrupted");
        rep::manifest(
            &self.comparison,
            &run.invocation,
            &self.config.spec.bots,
            st.shard,
            played,
            st.complete(),
            stopped,
        )
    }

    /// The console table and summary of a complete comparison.
    pub fn table(&self, st: &CompareState) -> String {
        crate::report::tournament::trim_lines(&rep::table(&self.comparison, &st.cells))
    }

    fn write_results(&self, st: &CompareState, run: &Run<'_>) -> Result<(), JobError> {
        for (name, text) in self.result_files(st)? {
            run.write(&name, &text)?;
        }
        Ok(())
    }

    fn total(&self, st: &CompareState, registry: &Registry) -> Result<u64, JobError> {
        Ok(self.comparison.planned_games(st, registry)?)
    }
}

impl Job for CompareRun {
    type Config = CompareConfig;
    type Outputs = ();
    type State = CompareState;
    const KIND: Kind = COMPARE;
    const UNIT: &'static str = "games";

    fn bots(config: &CompareConfig) -> &BotSetup {
        &config.bots
    }

    fn bots_mut(config: &mut CompareConfig) -> &mut BotSetup {
        &mut config.bots
    }

    fn open(
        config: &CompareConfig,
        shard: Option<(u64, u64)>,
        (): (),
        registry: &Registry,
    ) -> Result<CompareRun, JobError> {
        let comparison = Comparison::new(&config.spec, registry)?;
        Ok(CompareRun { comparison, config: config.clone(), shard })
    }

    fn check_new(&mut self, out: Option<&Path>, _force: bool) -> Result<(), JobError> {
        if self.shard.is_some() && out.is_none() {
            return Err(JobError::Invalid(
                "a shard of a comparison is only useful merged with the others: give --out DIR (then mtrain merge the shards' folders)".into(),
            ));
        }
        Ok(())
    }

    fn new_state(&self, config: &CompareConfig) -> CompareState {
        self.comparison.new_state(serde_json::to_value(config).expect("serialisable"), self.shard)
    }

    fn read_state(text: &str) -> Result<CompareState, InvalidInput> {
        CompareState::from_json(text)
    }

    fn state_text(st: &CompareState) -> String {
        st.to_json()
    }

    fn config_of(st: &CompareState) -> Result<CompareConfig, InvalidInput> {
        st.config()
    }

    fn store_config(st: &mut CompareState, config: &CompareConfig) {
        st.config = serde_json::to_value(config).expect("serialisable");
    }

    fn shard_of(st: &CompareState) -> Option<(u64, u64)> {
        st.shard
    }

    fn outputs_of(_: &CompareState) {}

    fn check_state(&self, st: &CompareState, dir: &Path, _registry: &Registry) -> Result<(), JobError> {
        self.comparison
            .check_state(st)
            .map_err(|e| JobError::Invalid(format!("cannot resume from '{}': {e}", dir.display())))
    }

    fn header(&self, _st: &CompareState) -> String {
        rep::header(&self.comparison)
    }

    fn progress(&self, st: &CompareState, registry: &Registry) -> Result<(u64, u64), JobError> {
        Ok((self.total(st, registry)?, st.games()))
    }

    fn checkpoint_files(&self, st: &CompareState, run: &Run<'_>) -> Vec<(&'static str, String)> {
        vec![(MANIFEST, self.manifest(st, run))]
    }

    fn play(&mut self, st: &mut CompareState, run: &Run<'_>) -> Result<Ending, JobError> {
        if !run.resumed {
            run.save(self, st)?;
        }
        let before = st.games();
        let progress = run.options.progress.clone();
        let opts = run.runner_options();
        let cells = self.comparison.cells.clone();
        let interrupted = self.comparison.play::<JobError>(
            st,
            &opts,
            &run.registry,
            |i| progress.stage(&format!("{} players, {} tiles", cells[i].0, cells[i].1)),
            |st| run.save(self, st),
        )?;
        run.save(self, st)?;
        let played = st.games();
        if interrupted || !st.all_planned_played() {
            let total = self.total(st, &run.registry)?;
            return Ok(Ending::Stopped { report: String::new(), saved: format!("{played} of {total} games played") });
        }
        if !st.complete() {
            let (i, n) = self.shard.unwrap_or((1, 1));
            return Ok(Ending::Shard {
                line: format!(
                    "mtrain compare: shard {i}/{n} complete: {played} games; combine the shards with mtrain merge DIR... --out DIR"
                ),
            });
        }
        self.write_results(st, run)?;
        Ok(Ending::Complete { report: self.table(st), played: Some(played - before) })
    }

    fn result_files(&self, st: &CompareState) -> Result<Vec<(String, String)>, JobError> {
        if !st.complete() {
            return Ok(Vec::new());
        }
        Ok(rep::result_files(&self.comparison, &st.cells))
    }

    fn played(st: &CompareState) -> u64 {
        st.games()
    }

    fn merge(states: &[CompareState], _dirs: &[PathBuf]) -> Result<CompareState, (usize, String)> {
        CompareState::merge_shards(states)
    }

    fn merged_files(
        &mut self,
        st: &mut CompareState,
        states: &[CompareState],
        _dirs: &[PathBuf],
        run: &Run<'_>,
    ) -> Result<Merged, JobError> {
        run.save(self, st)?;
        if !st.complete() {
            let played = st.games();
            let total = self.total(st, &run.registry)?;
            let chunks: Vec<u64> = st.cells.iter().map(|c| c.chunks_total).collect();
            let done: Vec<&ChunkSet> = st.cells.iter().map(|c| &c.done).collect();
            let n = states[0].shard.map_or(1, |(_, n)| n);
            return Ok(Merged {
                report: format!(
                    "mtrain merge: {played} of {total} games of the comparison are in these folders; merge every shard for the results\n"
                ),
                missing: super::missing_of(n, &|s| SweepState::shard_plan(&chunks, s), &done),
            });
        }
        let report = crate::report::tournament::trim_lines(
            &(rep::header(&self.comparison) + &rep::table(&self.comparison, &st.cells)),
        );
        self.write_results(st, run)?;
        Ok(Merged { report, missing: Vec::new() })
    }
}
