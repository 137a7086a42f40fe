//! A tuning run as a [`Job`]: its configuration ([`TuneConfig`]: the spec and the bots it
//! adds), its state (`tune.json`, [`TuneState`]: every SPSA iteration's point), its play (the
//! iterations, each saved as it ends, then the confirmation on fresh deals), and its files
//! (`trajectory.csv` at every iteration; `trajectory.svg`, `tuned.txt` and `confirm.csv` at the
//! end, [`crate::report::tune`]). A tuning run has no shards: each iteration starts from the one
//! before.

use super::{Ending, Job, JobError, Merged, Run};
use crate::error::InvalidInput;
use crate::external::BotSetup;
use crate::report::tune as rep;
use crate::store::{Kind, TUNE};
use crate::strategies::Registry;
use crate::strategy::StrategySpec;
use crate::tune::{Confirmation, TuneState, Tuning, TuningSpec};
use std::path::{Path, PathBuf};

/// What a tuning run is, as data: its spec and the bots it adds.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TuneConfig {
    /// The run.
    pub spec: TuningSpec,
    /// The external bots and named specs it uses.
    pub bots: BotSetup,
}

/// A tuning run: the checked tuning, its starting point, and the confirmation once played.
pub struct TuneRun {
    /// The tuning.
    pub tuning: Tuning,
    start: Vec<f64>,
    /// The confirmation, once it has decided (or `None`: not played, or nothing to confirm).
    pub confirmed: Option<Confirmation>,
    tuned: Option<(StrategySpec, StrategySpec)>,
}

impl TuneRun {
    /// The tuned bot and the starting one, canonical.
    ///
    /// # Errors
    /// A point the bot refuses.
    pub fn bots_of(&self, st: &TuneState, registry: &Registry) -> Result<(StrategySpec, StrategySpec), JobError> {
        let at = |u: &[f64]| self.tuning.bot_at(u, registry).map_err(|e| JobError::Invalid(e.to_string()));
        Ok((at(st.rows.last().map_or(&st.start, |r| &r.u))?, at(&st.start)?))
    }
}

impl Job for TuneRun {
    type Config = TuneConfig;
    type Outputs = ();
    type State = TuneState;
    const KIND: Kind = TUNE;
    const UNIT: &'static str = "iterations";

    fn bots(config: &TuneConfig) -> &BotSetup {
        &config.bots
    }

    fn bots_mut(config: &mut TuneConfig) -> &mut BotSetup {
        &mut config.bots
    }

    fn open(config: &TuneConfig, _shard: Option<(u64, u64)>, (): (), registry: &Registry) -> Result<TuneRun, JobError> {
        let (tuning, start) = Tuning::new(&config.spec, registry).map_err(|e| JobError::Invalid(e.to_string()))?;
        Ok(TuneRun { tuning, start, confirmed: None, tuned: None })
    }

    fn new_state(&self, config: &TuneConfig) -> TuneState {
        self.tuning.new_state(config.spec.clone(), config.bots.clone(), self.start.clone())
    }

    fn read_state(text: &str) -> Result<TuneState, InvalidInput> {
        TuneState::from_json(text, None).map_err(|e| InvalidInput(e.to_string()))
    }

    fn state_text(st: &TuneState) -> String {
        st.to_json()
    }

    fn config_of(st: &TuneState) -> Result<TuneConfig, InvalidInput> {
        Ok(TuneConfig { spec: st.spec.clone(), bots: st.bots.clone() })
    }

    fn store_config(st: &mut TuneState, config: &TuneConfig) {
        st.spec = config.spec.clone();
        st.bots = config.bots.clone();
    }

    fn shard_of(_: &TuneState) -> Option<(u64, u64)> {
        None
    }

    fn outputs_of(_: &TuneState) {}

    fn check_state(&self, st: &TuneState, _dir: &Path, _registry: &Registry) -> Result<(), JobError> {
        Ok(st.check_points(self.tuning.params.len())?)
    }

    fn header(&self, st: &TuneState) -> String {
        rep::header(&self.tuning, st)
    }

    fn progress(&self, st: &TuneState, _registry: &Registry) -> Result<(u64, u64), JobError> {
        Ok((self.tuning.gains.iterations, st.rows.len() as u64))
    }

    fn checkpoint_files(&self, st: &TuneState, _run: &Run<'_>) -> Vec<(&'static str, String)> {
        vec![("trajectory.csv", rep::trajectory_csv(&self.tuning, st))]
    }

    fn play(&mut self, st: &mut TuneState, run: &Run<'_>) -> Result<Ending, JobError> {
        run.save(self, st)?;
        // Each iteration is saved as it ends: no timed checkpoints.
        let opts = crate::tournament::RunOptions { checkpoint: None, ..run.runner_options() };
        let progress = run.options.progress.clone();
        let this = &*self;
        let interrupted = this.tuning.iterate::<JobError>(
            st,
            &run.registry,
            &opts,
            |st| run.save(this, st),
            || progress.advance(1),
        )?;
        let total = self.tuning.gains.iterations;
        let (tuned, startspec) = self.bots_of(st, &run.registry)?;
        let mut report =
            format!("after {} of {total} iterations:\nstart: {startspec}\ntuned: {tuned}\n", st.rows.len());
        if interrupted {
            return Ok(Ending::Stopped { report, saved: format!("{} of {total} iterations played", st.rows.len()) });
        }
        self.tuned = Some((tuned.clone(), startspec.clone()));
        // The tuned bot and the trajectory are written before the confirmation, which may stop.
        for (name, text) in self.result_files(st)? {
            run.write(&name, &text)?;
        }
        // The confirmation: fresh deals, an SPRT.
        if tuned == startspec {
            report
                .push_str("\nConfirmation: the tuned parameters are the starting ones; there is no gain to confirm.\n");
        } else {
            let confirmed = self
                .tuning
                .confirmation(&tuned, &startspec, &run.registry, &opts)
                .map_err(|e| JobError::Invalid(e.to_string()))?;
            let Some(c) = confirmed else {
                return Ok(Ending::Stopped {
                    report,
                    saved: format!("the {total} iterations played (the confirmation stopped; a resume runs it again)"),
                });
            };
            let (line, csv) = rep::confirmation(&self.tuning, &tuned, &startspec, &c);
            run.write("confirm.csv", &csv)?;
            report.push_str(&line);
            self.confirmed = Some(c);
        }
        Ok(Ending::Complete { report, played: None })
    }

    fn merge(_states: &[TuneState], dirs: &[PathBuf]) -> Result<TuneState, (usize, String)> {
        Err((
            usize::MAX,
            format!(
                "cannot merge '{}': it holds a tuning run, which has no shards (each SPSA iteration starts from the one before)",
                dirs[0].display()
            ),
        ))
    }

    fn merged_files(
        &mut self,
        _st: &mut TuneState,
        _states: &[TuneState],
        _dirs: &[PathBuf],
        _run: &Run<'_>,
    ) -> Result<Merged, JobError> {
        unreachable!("a tuning run is never merged")
    }

    fn result_files(&self, st: &TuneState) -> Result<Vec<(String, String)>, JobError> {
        let mut files = vec![("trajectory.csv".to_string(), rep::trajectory_csv(&self.tuning, st))];
        let Some((tuned, start)) = &self.tuned else { return Ok(files) };
        let svg = rep::trajectory_svg(&self.tuning, st).map_err(|e| JobError::Failed(e.to_string()))?;
        files.push(("trajectory.svg".into(), svg));
        files.push(("tuned.txt".into(), format!("{tuned}\n")));
        if let Some(c) = &self.confirmed {
            files.push(("confirm.csv".into(), rep::confirmation(&self.tuning, tuned, start, c).1));
        }
        Ok(files)
    }

    fn played(st: &TuneState) -> u64 {
        st.rows.len() as u64
    }
}
