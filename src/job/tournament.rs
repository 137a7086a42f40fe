//! A tournament as a [`Job`]: its configuration ([`TournamentConfig`]: the spec and the bots it
//! adds), its state (`tally.json`, [`RunState`]), its play through a [`Session`] (which keeps
//! the per-game files and game logs in step with the state), its reports (`summary.csv` and the
//! rest, [`crate::report::tournament`]) and the merge of its shards, per-game files included.

use super::{Ending, Job, JobError, Merged, Run};
use crate::error::InvalidInput;
use crate::external::BotSetup;
use crate::report::tournament as rep;
use crate::store::{AtomicFile, Kind, MANIFEST, TOURNAMENT};
use crate::strategies::Registry;
use crate::tournament::record::{GAMES_FILE, ROUNDS_FILE, concatenate};
use crate::tournament::{
    CHUNK_DEALS, ChunkSet, Identity, Outputs, PerGameMarks, RunState, STORE_FORMAT, Session, SprtState,
    TOURNAMENT_KIND, TournamentConfig, TournamentJob, TournamentSpec,
};
use std::path::{Path, PathBuf};

/// What a tournament writes besides its reports, and the arguments that gave it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TournamentOutputs {
    /// Keep `games.csv` and `rounds.csv`.
    pub per_game: bool,
    /// The game-log folder (`--log-games`), if any.
    pub(crate) log_games: Option<PathBuf>,
    /// The command line's arguments that gave the run (stored for people reading the folder;
    /// never parsed again).
    pub args: Vec<String>,
}

/// A tournament run: the checked tournament and what it writes.
pub struct TournamentRun {
    /// The tournament, its stopping rule, anchor, gauntlet, shard and labels.
    pub job: TournamentJob,
    /// What the run is, as its state stores it.
    pub config: TournamentConfig,
    /// Its outputs.
    pub outputs: TournamentOutputs,
}

impl TournamentRun {
    /// The run's identity in its state.
    fn identity(&self) -> Identity {
        Identity {
            config: self.config.to_value(),
            shard: self.job.shard,
            args: self.outputs.args.clone(),
            plan: ChunkSet::slice(self.job.tournament.chunk_count(), self.job.shard),
        }
    }

    /// Where its session writes.
    fn session_outputs(&self, dir: Option<&Path>) -> Outputs {
        Outputs {
            dir: dir.map(Path::to_path_buf),
            per_game: self.outputs.per_game,
            logs: self.outputs.log_games.clone(),
        }
    }

    /// The manifest and reports of a checkpoint: the manifest first, so that a run killed before
    /// its first state file leaves a folder the same command recognises as its own.
    fn files(&self, st: &RunState, sprt: Option<&SprtState>, run: &Run<'_>) -> Vec<(&'static str, String)> {
        let mut f = vec![(MANIFEST, rep::manifest(&self.job, &run.invocation, &self.outputs.args, st, sprt))];
        f.extend(rep::files(&self.job.labels, &st.tally, self.job.anchor));
        f
    }

    /// What runs, in words.
    pub(crate) fn header_text(&self) -> String {
        let j = &self.job;
        rep::header(&j.tournament, &j.changes, j.shard, j.gauntlet)
    }

    /// The console report of a tally.
    pub fn console(&self, st: &RunState) -> String {
        rep::console(&self.job.labels, &st.tally, self.job.anchor, self.job.gauntlet)
    }
}

impl Job for TournamentRun {
    type Config = TournamentConfig;
    type Outputs = TournamentOutputs;
    type State = RunState;
    const KIND: Kind = TOURNAMENT;
    const UNIT: &'static str = "games";

    fn bots(config: &TournamentConfig) -> &BotSetup {
        &config.bots
    }

    fn bots_mut(config: &mut TournamentConfig) -> &mut BotSetup {
        &mut config.bots
    }

    fn open(
        config: &TournamentConfig,
        shard: Option<(u64, u64)>,
        outputs: TournamentOutputs,
        registry: &Registry,
    ) -> Result<TournamentRun, JobError> {
        let spec = TournamentSpec { shard, ..config.spec.clone() };
        let job = TournamentJob::new(&spec, registry)?;
        Ok(TournamentRun { job, config: config.clone(), outputs })
    }

    fn check_new(&mut self, out: Option<&Path>, force: bool) -> Result<(), JobError> {
        // A refused log folder leaves no new --out folder behind.
        Session::check_new(&self.identity(), &self.session_outputs(out), force)?;
        Ok(())
    }

    fn new_state(&self, _config: &TournamentConfig) -> RunState {
        let t = &self.job.tournament;
        let id = self.identity();
        RunState {
            format: STORE_FORMAT,
            kind: TOURNAMENT_KIND.to_string(),
            config: id.config,
            shard: id.shard,
            args: id.args,
            log_games: self.outputs.log_games.clone(),
            chunks_total: t.chunk_count(),
            chunks_planned: id.plan,
            done: ChunkSet::default(),
            tally: crate::tournament::Tally::new(t.layout()),
            per_game: None,
            check: 0,
        }
    }

    fn read_state(text: &str) -> Result<RunState, InvalidInput> {
        RunState::from_json(text).map_err(|e| InvalidInput(e.to_string()))
    }

    fn state_text(st: &RunState) -> String {
        st.to_json()
    }

    fn config_of(st: &RunState) -> Result<TournamentConfig, InvalidInput> {
        TournamentConfig::of(st).map_err(|e| InvalidInput(e.to_string()))
    }

    fn store_config(st: &mut RunState, config: &TournamentConfig) {
        st.config = config.to_value();
    }

    fn shard_of(st: &RunState) -> Option<(u64, u64)> {
        st.shard
    }

    fn outputs_of(st: &RunState) -> TournamentOutputs {
        TournamentOutputs { per_game: st.per_game.is_some(), log_games: st.log_games.clone(), args: st.args.clone() }
    }

    fn check_state(&self, st: &RunState, dir: &Path, _registry: &Registry) -> Result<(), JobError> {
        Session::check_resume(&self.job.tournament, &self.identity(), &self.session_outputs(Some(dir)), st)?;
        Ok(())
    }

    fn notes(&self) -> Vec<String> {
        let t = &self.job.tournament;
        match self.job.shard {
            Some((i, n)) if self.identity().plan.is_empty() => {
                // More shards than chunks: a slice of none is legal (merge counts it) but plays nothing.
                let chunks = t.chunk_count();
                vec![format!(
                    "shard {i}/{n} holds no deals of this run ({} deals in {chunks} chunk{} of {CHUNK_DEALS}, for {n} shards): it plays nothing (give at most {chunks} shards to give each some deals)",
                    t.schedule.deals,
                    if chunks == 1 { "" } else { "s" },
                )]
            }
            _ => Vec::new(),
        }
    }

    fn header(&self, _st: &RunState) -> String {
        self.header_text() + "\n"
    }

    fn progress(&self, st: &RunState, _registry: &Registry) -> Result<(u64, u64), JobError> {
        let t = &self.job.tournament;
        let planned: u64 = st.chunks_planned.0.iter().flat_map(|&(a, b)| a..b).map(|c| t.chunk_games(c)).sum();
        Ok((planned, st.tally.games))
    }

    fn checkpoint_files(&self, st: &RunState, run: &Run<'_>) -> Vec<(&'static str, String)> {
        self.files(st, None, run)
    }

    fn play(&mut self, st: &mut RunState, run: &Run<'_>) -> Result<Ending, JobError> {
        let t = &self.job.tournament;
        let id = self.identity();
        let outputs = self.session_outputs(run.dir());
        let mut session =
            if run.resumed { Session::resume(t, id, outputs, st.clone())? } else { Session::new(t, id, outputs)? };
        let opts = crate::tournament::RunOptions {
            per_game: self.outputs.per_game,
            sprt: self.job.sprt,
            log_games: self.outputs.log_games.as_ref().map(|_| self.job.changes.clone()),
            ..run.runner_options()
        };
        let before = session.games_before();
        let files = |st: &RunState, sprt: Option<&SprtState>| self.files(st, sprt, run);
        let write = |p: &Path, b: &[u8]| -> Result<(), JobError> { Ok(crate::store::write_in_folder(p, b)?) };
        let result = session.run::<JobError>(&opts, files, write)?;
        st.tally = result.tally.clone();
        st.done = result.done.clone();
        let mut report = self.console(st);
        if let (Some(p), Some(s)) = (&self.job.sprt, &result.sprt) {
            report.push('\n');
            report.push_str(&rep::sprt_text(p, s));
        }
        Ok(if result.interrupted || result.bot_failed {
            Ending::Stopped { report, saved: format!("{} of {} games played", result.tally.games, t.schedule.games()) }
        } else {
            Ending::Complete { report, played: Some(result.tally.games - before) }
        })
    }

    fn result_files(&self, st: &RunState) -> Result<Vec<(String, String)>, JobError> {
        Ok(rep::files(&self.job.labels, &st.tally, self.job.anchor)
            .into_iter()
            .map(|(n, t)| (n.to_string(), t))
            .collect())
    }

    fn played(st: &RunState) -> u64 {
        st.tally.games
    }

    fn merge(states: &[RunState], dirs: &[PathBuf]) -> Result<RunState, (usize, String)> {
        let with_rows = states.iter().filter(|st| st.per_game.is_some()).count();
        if with_rows != 0 && with_rows != states.len() {
            let lacking: Vec<String> = dirs
                .iter()
                .zip(states)
                .filter(|(_, st)| st.per_game.is_none())
                .map(|(d, _)| d.display().to_string())
                .collect();
            return Err((
                usize::MAX,
                format!(
                    "cannot merge: some shards have per-game files and {} do{} not (run them with --per-game, or merge only the tallies of shards without)",
                    lacking.join(", "),
                    if lacking.len() == 1 { "es" } else { "" }
                ),
            ));
        }
        let first = &states[0];
        let (done, tally) = RunState::merge_shards(states)?;
        // The merged result stands for the whole run: a missing shard leaves it incomplete, and
        // `mtrain tournament --resume` on the merged directory plays what is missing.
        let mut plan = ChunkSet::default();
        plan.insert_range(0, first.chunks_total);
        Ok(RunState {
            format: STORE_FORMAT,
            kind: TOURNAMENT_KIND.to_string(),
            config: first.config.clone(),
            shard: None,
            // Arguments that reproduce the merged run: without the shard.
            args: super::without_option(&first.args, "--shard"),
            log_games: None,
            chunks_total: first.chunks_total,
            chunks_planned: plan,
            done,
            tally,
            per_game: None,
            check: 0,
        })
    }

    fn merged_files(
        &mut self,
        st: &mut RunState,
        states: &[RunState],
        dirs: &[PathBuf],
        run: &Run<'_>,
    ) -> Result<Merged, JobError> {
        let out = run.dir().expect("a merge has a folder").to_path_buf();
        self.outputs.args = st.args.clone();
        // The manifest first, before the per-game files and the reports: a merge stopped before
        // its state file leaves a folder the same command recognises as a start of its own.
        run.write(MANIFEST, &rep::manifest(&self.job, &run.invocation, &st.args, st, None))?;
        if states.iter().any(|s| s.per_game.is_some()) {
            st.per_game = Some(join_per_game(states, dirs, &out)?);
        }
        run.save(self, st)?;
        let mut report = self.header_text();
        report.push('\n');
        report.push_str(&self.console(st));
        let missing = st.chunks_total - st.done.len();
        if missing > 0 {
            report.push_str(&format!(
                "\nIncomplete: {missing} of {} chunks are in none of the merged directories\n",
                st.chunks_total
            ));
        }
        let total = st.chunks_total;
        let n = states[0].shard.map_or(1, |(_, n)| n);
        let lacking =
            if missing > 0 { super::missing_of(n, &|s| vec![ChunkSet::slice(total, s)], &[&st.done]) } else { vec![] };
        Ok(Merged { report, missing: lacking })
    }
}

/// The per-game files of the shards `states` (in `dirs`), joined in game order into `out`.
fn join_per_game(states: &[RunState], dirs: &[PathBuf], out: &Path) -> Result<PerGameMarks, JobError> {
    // Each shard's rows are its chunks in order, and the shards' chunks do not interleave: the
    // shards in chunk order, one after the other, are the whole run in game order.
    let mut order: Vec<usize> = (0..states.len()).filter(|&i| !states[i].done.is_empty()).collect();
    order.sort_by_key(|&i| states[i].done.0[0].0);
    for w in order.windows(2) {
        let (x, y) = (&states[w[0]].done.0, &states[w[1]].done.0);
        if x.last().map_or(0, |r| r.1) > y[0].0 {
            return Err(JobError::Invalid(format!(
                "cannot merge the per-game files of '{}' and '{}': their games interleave (merge shards of one run, each played or resumed on its own)",
                dirs[w[0]].display(),
                dirs[w[1]].display()
            )));
        }
    }
    if order.is_empty() {
        order.push(0);
    }
    let mut marks = PerGameMarks::default();
    for (name, pick) in [(GAMES_FILE, 0), (ROUNDS_FILE, 1)] {
        let parts: Vec<(&Path, _)> = order
            .iter()
            .map(|&i| {
                let m = states[i].per_game.expect("checked");
                (dirs[i].as_path(), if pick == 0 { m.games } else { m.rounds })
            })
            .collect();
        let mut f = AtomicFile::create_in_folder(&out.join(name))?;
        let mark = concatenate(name, &parts, f.writer()).map_err(|e| JobError::Invalid(e.to_string()))?;
        f.commit()?;
        if pick == 0 {
            marks.games = mark;
        } else {
            marks.rounds = mark;
        }
    }
    Ok(marks)
}
