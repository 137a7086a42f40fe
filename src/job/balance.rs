//! A balance sweep as a [`Job`]: its configuration ([`SweepConfig`]), its state (`tally.json`,
//! [`SweepState`]: one tournament per cell), its play cell after cell with sequential sampling,
//! its reports ([`crate::report::balance`]) once every cell is complete, and the merge of its
//! shards cell by cell.

use super::{Ending, Job, JobError, Merged, Run};
use crate::balance::{self as bal, Sweep, SweepConfig};
use crate::error::InvalidInput;
use crate::external::BotSetup;
use crate::report::balance as rep;
use crate::store::{BALANCE, Kind, MANIFEST};
use crate::strategies::Registry;
use crate::tournament::{ChunkSet, SweepState};
use std::path::{Path, PathBuf};

/// A balance sweep run: the checked sweep and the slice it plays.
pub struct BalanceRun {
    /// The sweep.
    pub sweep: Sweep,
    /// What the run is, as its state stores it.
    pub config: SweepConfig,
    /// The slice it plays.
    pub shard: Option<(u64, u64)>,
}

impl BalanceRun {
    /// The manifest of `st`.
    fn manifest(&self, st: &SweepState, run: &Run<'_>) -> String {
        let played = (bal::games_played(st), self.sweep.planned_games(st, &run.registry).unwrap_or(0));
        let complete = bal::complete(st);
        let stopped = (!bal::all_planned_played(st)).then_some("interrupted");
        rep::manifest(&self.sweep, &run.invocation, &self.config.spec.bots, st.shard, played, complete, stopped)
    }

    /// The console table of a complete sweep.
    pub fn table(&self, st: &SweepState) -> String {
        crate::report::tournament::trim_lines(&rep::table(&self.sweep, &Sweep::cells_of(st)))
    }

    /// Writes the result files of a complete sweep into the run's folder.
    fn write_results(&self, st: &SweepState, run: &Run<'_>) -> Result<(), JobError> {
        for (name, text) in self.result_files(st)? {
            run.write(&name, &text)?;
        }
        Ok(())
    }
}

impl Job for BalanceRun {
    type Config = SweepConfig;
    type Outputs = ();
    type State = SweepState;
    const KIND: Kind = BALANCE;
    const UNIT: &'static str = "games";

    fn bots(config: &SweepConfig) -> &BotSetup {
        &config.bots
    }

    fn bots_mut(config: &mut SweepConfig) -> &mut BotSetup {
        &mut config.bots
    }

    fn open(
        config: &SweepConfig,
        shard: Option<(u64, u64)>,
        (): (),
        registry: &Registry,
    ) -> Result<BalanceRun, JobError> {
        let sweep = Sweep::new(&config.spec, registry).map_err(|e| JobError::Invalid(e.to_string()))?;
        Ok(BalanceRun { sweep, config: config.clone(), shard })
    }

    fn check_new(&mut self, out: Option<&Path>, _force: bool) -> Result<(), JobError> {
        if self.shard.is_some() && out.is_none() {
            return Err(JobError::Invalid(
                "a shard of a sweep is only useful merged with the others: give --out DIR (then mtrain merge the shards' folders)".into(),
            ));
        }
        if self.shard.is_some() && self.sweep.max_games != self.sweep.games {
            return Err(JobError::Invalid(
                "--shard splits a fixed sample, but sequential sampling decides each cell from all its games: give --max-games equal to --games with --shard".into(),
            ));
        }
        Ok(())
    }

    fn new_state(&self, config: &SweepConfig) -> SweepState {
        self.sweep.new_state(config.to_value(), self.shard)
    }

    fn read_state(text: &str) -> Result<SweepState, InvalidInput> {
        SweepState::from_json(text).map_err(|e| InvalidInput(e.to_string()))
    }

    fn state_text(st: &SweepState) -> String {
        st.to_json()
    }

    fn config_of(st: &SweepState) -> Result<SweepConfig, InvalidInput> {
        SweepConfig::of(st).map_err(|e| InvalidInput(e.to_string()))
    }

    fn store_config(st: &mut SweepState, config: &SweepConfig) {
        st.config = config.to_value();
    }

    fn shard_of(st: &SweepState) -> Option<(u64, u64)> {
        st.shard
    }

    fn outputs_of(_: &SweepState) {}

    fn check_state(&self, st: &SweepState, dir: &Path, registry: &Registry) -> Result<(), JobError> {
        self.sweep
            .check_state(st, registry)
            .map_err(|e| JobError::Invalid(format!("cannot resume from '{}': {e}", dir.display())))
    }

    fn header(&self, _st: &SweepState) -> String {
        rep::header(&self.sweep)
    }

    fn progress(&self, st: &SweepState, registry: &Registry) -> Result<(u64, u64), JobError> {
        let total = self.sweep.planned_games(st, registry).map_err(|e| JobError::Invalid(e.to_string()))?;
        Ok((total, bal::games_played(st)))
    }

    fn checkpoint_files(&self, st: &SweepState, run: &Run<'_>) -> Vec<(&'static str, String)> {
        vec![(MANIFEST, self.manifest(st, run))]
    }

    fn play(&mut self, st: &mut SweepState, run: &Run<'_>) -> Result<Ending, JobError> {
        if !run.resumed {
            run.save(self, st)?;
        }
        let before = bal::games_played(st);
        let progress = run.options.progress.clone();
        let opts = run.runner_options();
        let cells = self.sweep.cells.clone();
        let interrupted = self.sweep.play::<JobError>(
            st,
            self.shard.is_some(),
            &opts,
            &run.registry,
            |i| progress.stage(&format!("{} players, {} tiles", cells[i].0, cells[i].1)),
            |games| progress.extend(games),
            |st| run.save(self, st),
        )?;
        // A cell is complete when its sequential sampling has stopped: all it planned is played.
        run.save(self, st)?;
        let played = bal::games_played(st);
        if interrupted || !bal::all_planned_played(st) {
            let total = self.sweep.planned_games(st, &run.registry).map_err(|e| JobError::Invalid(e.to_string()))?;
            return Ok(Ending::Stopped { report: String::new(), saved: format!("{played} of {total} games played") });
        }
        if !bal::complete(st) {
            let (i, n) = self.shard.unwrap_or((1, 1));
            return Ok(Ending::Shard {
                line: format!(
                    "mtrain balance: shard {i}/{n} complete: {played} games; combine the shards with mtrain merge DIR... --out DIR"
                ),
            });
        }
        self.write_results(st, run)?;
        Ok(Ending::Complete { report: self.table(st), played: Some(played - before) })
    }

    fn result_files(&self, st: &SweepState) -> Result<Vec<(String, String)>, JobError> {
        if !bal::complete(st) {
            return Ok(Vec::new());
        }
        rep::result_files(&self.sweep, &Sweep::cells_of(st), &self.config.spec.bots)
            .map_err(|e| JobError::Failed(e.to_string()))
    }

    fn played(st: &SweepState) -> u64 {
        bal::games_played(st)
    }

    fn merge(states: &[SweepState], _dirs: &[PathBuf]) -> Result<SweepState, (usize, String)> {
        SweepState::merge_shards(states)
    }

    fn merged_files(
        &mut self,
        st: &mut SweepState,
        states: &[SweepState],
        _dirs: &[PathBuf],
        run: &Run<'_>,
    ) -> Result<Merged, JobError> {
        run.save(self, st)?;
        if !bal::complete(st) {
            let played = bal::games_played(st);
            let total = self.sweep.planned_games(st, &run.registry).map_err(|e| JobError::Invalid(e.to_string()))?;
            let chunks: Vec<u64> = st.cells.iter().map(|c| c.chunks_total).collect();
            let done: Vec<&ChunkSet> = st.cells.iter().map(|c| &c.done).collect();
            let n = states[0].shard.map_or(1, |(_, n)| n);
            return Ok(Merged {
                report: format!(
                    "mtrain merge: {played} of {total} games of the sweep are in these folders; merge every shard for the results\n"
                ),
                missing: super::missing_of(n, &|s| SweepState::shard_plan(&chunks, s), &done),
            });
        }
        let report = crate::report::tournament::trim_lines(
            &(rep::header(&self.sweep) + &rep::table(&self.sweep, &Sweep::cells_of(st))),
        );
        self.write_results(st, run)?;
        Ok(Merged { report, missing: Vec::new() })
    }
}
