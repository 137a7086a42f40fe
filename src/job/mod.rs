//! One kind of run: the [`Job`] trait every durable run implements (a tournament, a balance
//! sweep, a tuning run, and whatever kind comes next), and the one driver that runs any of them.
//!
//! A job says what is particular to its kind: its configuration as data (serde, what a resume
//! or a merge rebuilds it from), its state (the exact sums of the chunks it has played, in a
//! self-checked file), how it plays, which files a checkpoint writes, what its report says, and
//! how the states of its shards add up. The driver does the rest, once for every kind:
//!
//! - **a new run** ([`Start::New`]): the bots registered, the job checked before anything is
//!   written, the folder readied (`Folder::create`: new, empty, or this same run; `force`
//!   replaces only mtrain's files), the state started;
//! - **a resume** ([`Start::Resume`]): the stored state read and checked, the job rebuilt from
//!   the configuration it stores (a corrected external bot command may replace one), the state
//!   checked against the job;
//! - **playing** ([`Prepared::play`]): the threads, the stop and cut flags a front door sets on
//!   a signal, checkpoints every [`Options::checkpoint`] written atomically (reports first, state
//!   last), a progress observer ([`Progress`]), a failing external bot turned into an error
//!   that says what was saved;
//! - **merging** ([`merge`]): the shards' states read, checked to be one run of one build, added
//!   exactly, and written as one run that `--resume` can complete.
//!
//! The front doors (the command line, Python) only describe: they turn their arguments into a
//! [`Start`] and [`Options`], print what a [`Prepared`] and an [`Ending`] say, and map
//! [`JobError`] to their own errors. Adding a kind of run is one file here (its `impl Job`) and
//! one front-door file; [`KINDS`] lists the kinds by name.

pub mod balance;
pub mod compare;
pub mod eval;
pub mod label;
pub mod tournament;
pub mod tune;

use crate::error::InvalidInput;
use crate::external::{BotSetup, ExternalBots, ExternalSpec, Settings, StderrTo};
use crate::report::manifest::Invocation;
use crate::store::{BOT_LOGS, Folder, FolderError, Kind, Progress, Silent, WriteError, write_in_folder};
use crate::strategies::Registry;
use crate::tournament::{ChunkSet, RunOptions};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Why a run could not start, go on or finish.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    /// Bad input: a configuration, folder or state that cannot be used (the command line's exit
    /// code 2).
    #[error("{0}")]
    Invalid(String),
    /// A failure that is not the input's (a file that cannot be written; exit code 1).
    #[error("{0}")]
    Failed(String),
    /// An external bot failed and the run stopped; the message says what was saved (exit
    /// code 3).
    #[error("{0}")]
    BotFailed(String),
}

impl From<FolderError> for JobError {
    fn from(e: FolderError) -> JobError {
        JobError::Invalid(e.0)
    }
}

impl From<WriteError> for JobError {
    fn from(e: WriteError) -> JobError {
        match e {
            WriteError::Refused(m) => JobError::Invalid(m),
            WriteError::Failed(m) => JobError::Failed(m),
        }
    }
}

impl From<crate::error::InvalidInput> for JobError {
    fn from(e: crate::error::InvalidInput) -> JobError {
        JobError::Invalid(e.0)
    }
}

impl From<crate::balance::SweepError> for JobError {
    fn from(e: crate::balance::SweepError) -> JobError {
        JobError::Invalid(e.to_string())
    }
}

impl From<crate::tune::TuneError> for JobError {
    fn from(e: crate::tune::TuneError) -> JobError {
        JobError::Invalid(e.to_string())
    }
}

impl From<crate::tournament::SessionError> for JobError {
    fn from(e: crate::tournament::SessionError) -> JobError {
        match e {
            crate::tournament::SessionError::Refused(m) => JobError::Invalid(m),
            crate::tournament::SessionError::Io(m) => JobError::Failed(m),
        }
    }
}

/// A kind of durable run.
///
/// The driver calls, for a new run: [`Job::open`], [`Job::check_new`], then [`Job::new_state`];
/// for a resume: [`Job::read_state`], [`Job::config_of`], [`Job::open`] and
/// [`Job::check_state`]; then [`Job::header`], [`Job::progress`] and [`Job::play`]. A merge
/// calls [`Job::merge`] and [`Job::merged_files`].
pub trait Job: Sized {
    /// What the run is, as data: compared on resume and merge (two folders hold the same run
    /// when their configurations are equal), and what a resumed or merged run is rebuilt from.
    type Config: Clone + PartialEq + Serialize + DeserializeOwned;
    /// Where a new run's outputs go besides its folder, and other per-run choices that do not
    /// change its results (a tournament's per-game files and game logs); a stored state
    /// remembers them.
    type Outputs: Clone + Default;
    /// The exact state a checkpoint stores.
    type State;

    /// What the kind is to its folder: its name, state file and files.
    const KIND: Kind;

    /// The bots the configuration adds to the registry (external bots, named specs).
    fn bots(config: &Self::Config) -> &BotSetup;
    /// The same, to correct an external bot's command on resume.
    fn bots_mut(config: &mut Self::Config) -> &mut BotSetup;

    /// The run `config` describes, playing `shard`, checked against `registry` (which holds
    /// its bots): every error a run can find before it plays.
    ///
    /// # Errors
    /// One line naming the problem ([`JobError::Invalid`]).
    fn open(
        config: &Self::Config,
        shard: Option<(u64, u64)>,
        outputs: Self::Outputs,
        registry: &Registry,
    ) -> Result<Self, JobError>;

    /// Checks, before the folder is touched, what a new run writing to `out` needs (a
    /// tournament's game-log folder, a sweep's shard that has nowhere to go).
    ///
    /// # Errors
    /// Bad input.
    fn check_new(&mut self, _out: Option<&Path>, _force: bool) -> Result<(), JobError> {
        Ok(())
    }

    /// The state of a new run of `config`.
    fn new_state(&self, config: &Self::Config) -> Self::State;

    /// Parses a state file.
    ///
    /// # Errors
    /// A phrase naming the problem (another format, an edited or damaged file).
    fn read_state(text: &str) -> Result<Self::State, InvalidInput>;

    /// The state file's text (with its self-check).
    fn state_text(st: &Self::State) -> String;

    /// The configuration a state stores.
    ///
    /// # Errors
    /// A phrase: the state describes no run of this kind.
    fn config_of(st: &Self::State) -> Result<Self::Config, InvalidInput>;

    /// Stores `config` in `st` (a resumed run's corrected bots).
    fn store_config(st: &mut Self::State, config: &Self::Config);

    /// The shard a state plays.
    fn shard_of(st: &Self::State) -> Option<(u64, u64)>;

    /// The outputs a state records.
    fn outputs_of(st: &Self::State) -> Self::Outputs;

    /// Checks a stored state against this run before it is resumed from `dir`.
    ///
    /// # Errors
    /// Why the state cannot be continued, as one line.
    fn check_state(&self, st: &Self::State, dir: &Path, registry: &Registry) -> Result<(), JobError>;

    /// Notes on what runs, one line each, before it runs (a shard that holds nothing).
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// What runs, before it runs (printed by the front door).
    fn header(&self, st: &Self::State) -> String;

    /// The units of progress ([`Job::UNIT`]) the state is planned to play in all, and those
    /// already played.
    ///
    /// # Errors
    /// A bot the registry cannot build.
    fn progress(&self, st: &Self::State, registry: &Registry) -> Result<(u64, u64), JobError>;

    /// What progress counts.
    const UNIT: &'static str;

    /// The files a checkpoint writes before the state (reports, the manifest).
    fn checkpoint_files(&self, st: &Self::State, run: &Run<'_>) -> Vec<(&'static str, String)>;

    /// Plays what `st` has left. A checkpoint ([`Run::save`], or the kind's own record) is
    /// written at the start of a new run, every [`Run::checkpoint`], and at the end; the
    /// progress observer hears what is played; the run stops scheduling when [`Run::stop`] is
    /// set. Writes the result files of a complete run.
    ///
    /// # Errors
    /// A failed write, or a bot the registry cannot build.
    fn play(&mut self, st: &mut Self::State, run: &Run<'_>) -> Result<Ending, JobError>;

    /// The state of the whole run from the states of its shards (`dirs[i]` holds `states[i]`),
    /// added exactly.
    ///
    /// # Errors
    /// The index of the offending state and why (another run, games another shard has).
    fn merge(states: &[Self::State], dirs: &[PathBuf]) -> Result<Self::State, (usize, String)>;

    /// Writes the merged state `st` into the merge's folder `run.folder`, with the files a
    /// complete run has (a merge plays nothing), and says what it holds.
    ///
    /// # Errors
    /// A failed write, or shards whose per-game files cannot be joined.
    fn merged_files(
        &mut self,
        st: &mut Self::State,
        states: &[Self::State],
        dirs: &[PathBuf],
        run: &Run<'_>,
    ) -> Result<Merged, JobError>;

    /// The files a complete run writes besides its state and checkpoint files (its results),
    /// for a front door that keeps them in memory (Python); none before the run is complete.
    ///
    /// # Errors
    /// A plot that cannot be drawn.
    fn result_files(&self, st: &Self::State) -> Result<Vec<(String, String)>, JobError>;

    /// The units played in `st` (games, iterations).
    fn played(st: &Self::State) -> u64;
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Everything it planned is played (or a test decided early); `report` is what it says, and
    /// `played` the units played in this session, for a timing line (`None`: none is shown).
    Complete { report: String, played: Option<u64> },
    /// Stopped by a signal or a failing bot before the end: `report` (possibly empty) is what it
    /// has, `saved` how far it got in words ("120 of 400 games played").
    Stopped { report: String, saved: String },
    /// A shard played its slice: the line that says so and how to combine the shards.
    Shard { line: String },
    /// An external bot failed and the run stopped: `report` is what it has, `message` the
    /// failure with what was saved and how to go on.
    BotFailed { report: String, message: String },
}

/// What a merge holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The report of the merged run (the header and the console table).
    pub report: String,
    /// The shards missing from a partial merge, in words (`shard 2/3 (all 10 chunks)`);
    /// empty when complete.
    pub missing: Vec<String>,
}

/// How a run plays, from its front door.
#[derive(Clone)]
pub struct Options {
    /// Worker threads.
    pub threads: usize,
    /// Set (by a signal) to stop scheduling; what is in flight finishes.
    pub stop: Arc<AtomicBool>,
    /// Set (by a second signal) to cut what is in flight short as well.
    pub cut: Arc<AtomicBool>,
    /// Seconds between checkpoints of a run with a folder (`None`: only at the start and end).
    pub checkpoint: Option<Duration>,
    /// Who hears the progress.
    pub progress: Arc<dyn Progress>,
    /// How long an external bot may take to answer.
    pub bot_timeout: Duration,
}

impl Options {
    /// Options with nothing to stop or show: `threads` threads, no checkpoints between the
    /// first and the last, silent progress, the default bot timeout.
    pub fn new(threads: usize) -> Options {
        Options {
            threads,
            stop: Arc::new(AtomicBool::new(false)),
            cut: Arc::new(AtomicBool::new(false)),
            checkpoint: None,
            progress: Arc::new(Silent),
            bot_timeout: crate::external::DEFAULT_TIMEOUT,
        }
    }
}

/// Where a run starts.
pub enum Start<J: Job> {
    /// A new run of `config`, playing `shard`, into `out` (if any); `force` allows a folder
    /// that holds other files (mtrain's own are replaced).
    New { config: J::Config, shard: Option<(u64, u64)>, outputs: J::Outputs, out: Option<PathBuf>, force: bool },
    /// The run stored in `dir`, with corrected commands for external bots it names.
    Resume { dir: PathBuf, ext: Vec<ExternalSpec> },
}

impl<J: Job> Start<J> {
    /// A new run of `config` with no folder (nothing is written: a front door that keeps the
    /// results in memory), playing `shard`, with the default outputs.
    pub fn unsaved(config: J::Config, shard: Option<(u64, u64)>) -> Start<J> {
        Start::New { config, shard, outputs: J::Outputs::default(), out: None, force: false }
    }
}

/// What a job sees of its run while it plays.
pub struct Run<'a> {
    /// The options.
    pub options: Options,
    /// The registry with the run's bots.
    pub registry: Registry,
    /// The run's folder, if it has one.
    pub folder: Option<Folder>,
    /// The command that started it, for manifests.
    pub invocation: Invocation<'a>,
    /// Whether it continues a stored state.
    pub resumed: bool,
}

impl Run<'_> {
    /// Writes a checkpoint of `job` at `st` into the folder (none without one): the job's
    /// checkpoint files first, then the state, each atomically.
    ///
    /// # Errors
    /// The first failed write.
    pub fn save<J: Job>(&self, job: &J, st: &J::State) -> Result<(), JobError> {
        let Some(folder) = &self.folder else { return Ok(()) };
        Ok(folder.save(&job.checkpoint_files(st, self), &J::state_text(st), &mut |p, b| write_in_folder(p, b))?)
    }

    /// Writes a file of the run's folder atomically (none without a folder).
    ///
    /// # Errors
    /// A failed write.
    pub fn write(&self, name: &str, text: &str) -> Result<(), JobError> {
        match &self.folder {
            Some(f) => Ok(write_in_folder(&f.dir.join(name), text.as_bytes())?),
            None => Ok(()),
        }
    }

    /// Writes a binary file of the run's folder atomically (none without a folder).
    ///
    /// # Errors
    /// A failed write.
    pub fn write_bytes(&self, name: &str, bytes: &[u8]) -> Result<(), JobError> {
        match &self.folder {
            Some(f) => Ok(write_in_folder(&f.dir.join(name), bytes)?),
            None => Ok(()),
        }
    }

    /// The folder's path, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.folder.as_ref().map(|f| f.dir.as_path())
    }

    /// The tournament runner's options: the threads, the flags, the checkpoint interval (with a
    /// folder) and the progress observer.
    pub(crate) fn runner_options(&self) -> RunOptions {
        RunOptions {
            stop: self.options.stop.clone(),
            cut: self.options.cut.clone(),
            checkpoint: self.folder.as_ref().and(self.options.checkpoint),
            progress: self.options.progress.clone(),
            ..RunOptions::new(self.options.threads)
        }
    }
}

/// A run ready to play: checked, its folder readied, its state loaded.
pub struct Prepared<'a, J: Job> {
    /// The job.
    pub job: J,
    /// Its state.
    pub state: J::State,
    /// Its run.
    pub run: Run<'a>,
    /// The external bots, whose failure stops it.
    ext: ExternalBots,
}

/// Where external bots' stderr goes: `bot-logs/` in the run's folder, if it has one.
fn bot_logs(out: Option<&Path>) -> StderrTo {
    out.map_or(StderrTo::Discard, |d| StderrTo::Dir(d.join(BOT_LOGS)))
}

/// The registry `base` with the bots of `bots`, external bots' stderr to `stderr`.
fn registry(
    bots: &BotSetup,
    base: &Registry,
    timeout: Duration,
    stderr: StderrTo,
) -> Result<(Registry, ExternalBots), JobError> {
    Ok(bots.registry(base, &Settings { timeout, stderr })?)
}

/// Readies a run of `J` from `start`: everything is checked before anything is written, then
/// the folder is readied and the state loaded. Bots come from `base` plus those the
/// configuration adds.
///
/// # Errors
/// Bad input ([`JobError::Invalid`]): the configuration, the folder, or the stored state.
pub fn prepare<'a, J: Job>(
    start: Start<J>,
    base: &Registry,
    options: Options,
    invocation: Invocation<'a>,
) -> Result<Prepared<'a, J>, JobError> {
    let timeout = options.bot_timeout;
    let (job, state, registry, ext, folder, resumed) = match start {
        Start::Resume { dir, ext } => {
            let (folder, text) = Folder::open(&dir, J::KIND)?;
            let bad = |e: InvalidInput| JobError::Invalid(format!("cannot resume from '{}': {e}", dir.display()));
            let mut st = J::read_state(&text).map_err(bad)?;
            // The run is rebuilt from the configuration its state stores, not from a command line.
            let mut config = J::config_of(&st).map_err(bad)?;
            let fixed = J::bots(&config).with_commands(&ext)?;
            *J::bots_mut(&mut config) = fixed;
            J::store_config(&mut st, &config);
            let (registry, ext) = registry(J::bots(&config), base, timeout, bot_logs(Some(&dir)))?;
            let job = J::open(&config, J::shard_of(&st), J::outputs_of(&st), &registry)?;
            job.check_state(&st, &dir, &registry)?;
            (job, st, registry, ext, Some(folder), true)
        }
        Start::New { config, shard, outputs, out, force } => {
            let (registry, ext) = registry(J::bots(&config), base, timeout, bot_logs(out.as_deref()))?;
            let mut job = J::open(&config, shard, outputs, &registry)?;
            job.check_new(out.as_deref(), force)?;
            let folder = match &out {
                Some(dir) => {
                    let same = |text: &str| {
                        J::read_state(text).ok().and_then(|st| J::config_of(&st).ok()) == Some(config.clone())
                    };
                    Some(Folder::create(dir, J::KIND, force, same)?)
                }
                None => None,
            };
            let st = job.new_state(&config);
            (job, st, registry, ext, folder, false)
        }
    };
    Ok(Prepared { job, state, run: Run { options, registry, folder, invocation, resumed }, ext })
}

impl<J: Job> Prepared<'_, J> {
    /// What runs, before it runs.
    pub fn header(&self) -> String {
        self.job.header(&self.state)
    }

    /// Notes on what runs, one line each.
    pub fn notes(&self) -> Vec<String> {
        self.job.notes()
    }

    /// Plays the run to its end or until stopped, and says how it ended (a failing external
    /// bot: [`Ending::BotFailed`], saying what was saved and how to go on).
    ///
    /// # Errors
    /// A failed write, a failing bot.
    pub fn play(&mut self) -> Result<Ending, JobError> {
        let (total, done) = self.job.progress(&self.state, &self.run.registry)?;
        let progress = self.run.options.progress.clone();
        progress.begin(total, done);
        let ending = self.job.play(&mut self.state, &self.run);
        progress.end();
        let ending = ending?;
        if let Some(f) = self.ext.failure() {
            let (report, saved) = match ending {
                Ending::Stopped { report, saved } => (report, saved),
                Ending::Complete { report, .. } => (report, String::new()),
                Ending::Shard { .. } | Ending::BotFailed { .. } => (String::new(), String::new()),
            };
            let message = format!("{f}; {}", resume_hint(J::KIND.name, self.run.dir(), &saved));
            return Ok(Ending::BotFailed { report, message });
        }
        Ok(ending)
    }

    /// The line that says what a stopped run saved and how to go on.
    pub fn resume_hint(&self, saved: &str) -> String {
        resume_hint(J::KIND.name, self.run.dir(), saved)
    }
}

/// What a stopped run saved and how to go on, in words: `saved` ("120 of 400 games played"),
/// and the `--resume` command of `command` on `out` (or that nothing was saved without one).
pub(crate) fn resume_hint(command: &str, out: Option<&Path>, saved: &str) -> String {
    match out {
        Some(dir) => format!(
            "{saved} and saved; continue with: mtrain {command} --resume {}",
            shell_word(&dir.display().to_string())
        ),
        None => format!("{saved}; without --out nothing was saved to resume from"),
    }
}

/// `w` as one shell word: as is when it holds only safe characters, else in single quotes.
pub(crate) fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// `args` without any option `flag` (`--flag VALUE` or `--flag=VALUE`).
pub(crate) fn without_option(args: &[String], flag: &str) -> Vec<String> {
    let joined = format!("{flag}=");
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == flag {
            it.next();
        } else if !a.starts_with(&joined) {
            out.push(a.clone());
        }
    }
    out
}

/// Merges the shards of one run of `J` in `dirs` into the new folder `out`: their states read
/// and checked (one run, one build, no shard twice), added exactly, and written as one run with
/// the files a run of the kind writes; `mtrain KIND --resume OUT` plays what missing shards
/// lack. Nothing is played: external bots are named, never started.
///
/// # Errors
/// Bad input: folders that are not shards of one run, or an output folder that holds something
/// else; a failed write.
pub fn merge<J: Job>(
    dirs: &[PathBuf],
    out: &Path,
    base: &Registry,
    invocation: Invocation<'_>,
) -> Result<Merged, JobError> {
    let mut states = Vec::new();
    for d in dirs {
        let text = crate::store::read_state(&d.join(J::KIND.state_file)).map_err(|e| {
            JobError::Invalid(format!(
                "cannot merge '{}': no readable {} ({})",
                d.display(),
                J::KIND.state_file,
                crate::store::io_text(&e)
            ))
        })?;
        states
            .push(J::read_state(&text).map_err(|e| JobError::Invalid(format!("cannot merge '{}': {e}", d.display())))?);
    }
    let configs = states
        .iter()
        .zip(dirs)
        .map(|(st, d)| {
            J::config_of(st)
                .map(|c| serde_json::to_value(c).expect("serialisable"))
                .map_err(|e| JobError::Invalid(format!("cannot merge '{}': {e}", d.display())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let shards: Vec<Option<(u64, u64)>> = states.iter().map(J::shard_of).collect();
    one_run(dirs, &configs.iter().collect::<Vec<_>>(), &shards)?;
    let mut merged = J::merge(&states, dirs).map_err(|(i, why)| match i {
        usize::MAX => JobError::Invalid(why),
        i => JobError::Invalid(format!("cannot merge '{}' (with '{}'): {why}", dirs[i].display(), dirs[0].display())),
    })?;
    // The merged run is rebuilt from the configuration the shards share.
    let config =
        J::config_of(&merged).map_err(|e| JobError::Invalid(format!("cannot merge '{}': {e}", dirs[0].display())))?;
    let (registry, _ext) = registry(J::bots(&config), base, crate::external::DEFAULT_TIMEOUT, StderrTo::Discard)?;
    let mut job = J::open(&config, None, J::outputs_of(&merged), &registry)?;
    let same = |text: &str| J::read_state(text).ok().and_then(|st| J::config_of(&st).ok()) == Some(config.clone());
    let folder = Folder::create_merged(out, J::KIND, same)?;
    let run = Run { options: Options::new(1), registry, folder: Some(folder), invocation, resumed: false };
    job.merged_files(&mut merged, &states, dirs, &run)
}

/// Merges the shards in `dirs` into `out` ([`merge`]), whatever kind of run they hold (one
/// kind: a sweep's folder beside a tournament's is a mix-up), returning the kind and what the
/// merge holds.
///
/// # Errors
/// As [`merge`]; folders of different kinds; a kind that has no shards.
pub(crate) fn merge_any(
    dirs: &[PathBuf],
    out: &Path,
    base: &Registry,
    invocation: Invocation<'_>,
) -> Result<(Kind, Merged), JobError> {
    // The output may not be an input: merging would read the files it replaces.
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    if let Some(o) = canon(out)
        && let Some(d) = dirs.iter().find(|d| canon(d).as_ref() == Some(&o))
    {
        return Err(JobError::Invalid(format!(
            "merge --out '{}' is one of the folders to merge: give a new folder",
            d.display()
        )));
    }
    // Shards of one run are all of one kind.
    let kinds: Vec<Option<Kind>> = dirs.iter().map(|d| Kind::of_folder(d)).collect();
    let first = kinds.iter().position(Option::is_some).map_or(crate::store::TOURNAMENT, |i| kinds[i].expect("some"));
    if let Some(i) = kinds.iter().position(|k| k.is_some_and(|k| k != first)) {
        let (j, other) = (kinds.iter().position(|k| *k == Some(first)).expect("seen"), kinds[i].expect("some"));
        return Err(JobError::Invalid(format!(
            "cannot merge {} with {}: '{}' holds {}, '{}' {}; merge the shard folders of one run",
            first.described,
            other.described,
            dirs[j].display(),
            first.described,
            dirs[i].display(),
            other.described
        )));
    }
    if first.merged_mark.is_none() {
        // A kind without shards refuses before anything is read.
        return Err(JobError::Invalid(format!(
            "cannot merge '{}': it holds a tuning run, which has no shards (each SPSA iteration starts from the one before)",
            dirs[0].display()
        )));
    }
    same_build(dirs)?;
    let merged = match first.name {
        "balance" => merge::<balance::BalanceRun>(dirs, out, base, invocation)?,
        "compare" => merge::<compare::CompareRun>(dirs, out, base, invocation)?,
        "label" => merge::<label::LabelRun>(dirs, out, base, invocation)?,
        _ => merge::<tournament::TournamentRun>(dirs, out, base, invocation)?,
    };
    Ok((first, merged))
}

/// The shards the merged folders lack, in words (`shard 2/3 (all 10 chunks)`), of a run cut
/// into `n` shards, from the chunks a shard plays in each cell (`plan`) and the chunks done in
/// each cell. A run not cut into shards (`n` = 1) lacks "the run".
pub(crate) fn missing_of(
    n: u64,
    plan: &dyn Fn(Option<(u64, u64)>) -> Vec<ChunkSet>,
    done: &[&ChunkSet],
) -> Vec<String> {
    // Chunks of [a, b) in `done`.
    let overlap = |done: &ChunkSet, a: u64, b: u64| -> u64 {
        done.0.iter().map(|&(x, y)| y.min(b).saturating_sub(x.max(a))).sum()
    };
    let mut out = Vec::new();
    for i in 1..=n {
        let (mut want, mut have) = (0, 0);
        for (slice, done) in plan(Some((i, n))).iter().zip(done) {
            for &(a, b) in &slice.0 {
                want += b - a;
                have += overlap(done, a, b);
            }
        }
        if have < want {
            let what = if n == 1 { "the run".to_string() } else { format!("shard {i}/{n}") };
            out.push(if have == 0 {
                format!("{what} (all {want} chunks)")
            } else {
                format!("{what} ({} of {want} chunks)", want - have)
            });
        }
    }
    out
}

/// The option that sets a field of a stored run's configuration (a tournament's or a sweep's
/// spec, or the bots it adds), by the field's name.
fn option_of(field: &str) -> String {
    match field {
        "preset" => "--rules".into(),
        "rules" => "--rule".into(),
        "rotate" => "--no-rotate".into(),
        "vary_order" => "--fixed-seating".into(),
        "ext" => "--ext-bot".into(),
        "names" => "--name".into(),
        other => format!("--{}", other.replace('_', "-")),
    }
}

/// A configuration field's value as its option is given (`not given` for none; a span as
/// `A-B`; a flag as given or not).
fn shown_value(field: &str, v: &serde_json::Value) -> String {
    use serde_json::Value;
    match (field, v) {
        // Stored as what the flag turns off.
        ("rotate" | "vary_order", Value::Bool(on)) => (if *on { "not given" } else { "given" }).into(),
        (_, Value::Null) => "not given".into(),
        (_, Value::String(s)) => s.clone(),
        ("players" | "hands", Value::Array(span)) if span.len() == 2 => format!("{}-{}", span[0], span[1]),
        ("ext" | "names", Value::Array(pairs)) if pairs.is_empty() => "not given".into(),
        ("ext" | "names", Value::Array(pairs)) => pairs
            .iter()
            .map(|p| match p.as_array().map(Vec::as_slice) {
                Some([Value::String(k), Value::String(v)]) => format!("{k}={v}"),
                _ => p.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" "),
        ("rules" | "metrics", Value::Array(items)) if items.is_empty() => "not given".into(),
        ("rules" | "metrics", Value::Array(items)) => {
            items.iter().map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_string)).collect::<Vec<_>>().join(",")
        }
        (_, other) => other.to_string(),
    }
}

/// How the run configuration `b` (of folder `b_dir`) differs from `a` (of `a_dir`), one phrase
/// per differing setting, named by its option: `--seed differs (1 in 's1', 2 in 's2')`.
pub(crate) fn differences(a: &serde_json::Value, b: &serde_json::Value, a_dir: &str, b_dir: &str) -> Vec<String> {
    fn walk(key: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<(String, String, String)>) {
        match (a, b) {
            (serde_json::Value::Object(x), serde_json::Value::Object(y)) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort_unstable();
                keys.dedup();
                let none = serde_json::Value::Null;
                for k in keys {
                    walk(k, x.get(k).unwrap_or(&none), y.get(k).unwrap_or(&none), out);
                }
            }
            _ if a != b => out.push((option_of(key), shown_value(key, a), shown_value(key, b))),
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk("", a, b, &mut found);
    found.into_iter().map(|(opt, x, y)| format!("{opt} differs ({x} in '{a_dir}', {y} in '{b_dir}')")).collect()
}

/// Refuses folders of different runs, naming the settings that differ, and the same shard
/// given twice (an empty shard has no games to overlap, so shards are known by their index).
/// `configs` and `shards` are the folders' stored configurations and shards, in `dirs` order.
pub(crate) fn one_run(
    dirs: &[std::path::PathBuf],
    configs: &[&serde_json::Value],
    shards: &[Option<(u64, u64)>],
) -> Result<(), JobError> {
    let name = |i: usize| dirs[i].display().to_string();
    for i in 1..dirs.len() {
        if configs[i] != configs[0] {
            let mut diff = differences(configs[0], configs[i], &name(0), &name(i));
            if diff.is_empty() {
                diff.push("their stored settings differ".into());
            }
            return Err(JobError::Invalid(format!(
                "cannot merge '{}': it is not a shard of the same run as '{}': {}; merge the shards of one run",
                name(i),
                name(0),
                diff.join(", ")
            )));
        }
    }
    for i in 1..dirs.len() {
        if let Some((k, n)) = shards[i]
            && let Some(j) = (0..i).find(|&j| shards[j] == shards[i])
        {
            let real = |d: &std::path::PathBuf| std::fs::canonicalize(d).ok();
            if real(&dirs[i]).is_some() && real(&dirs[i]) == real(&dirs[j]) {
                return Err(JobError::Invalid(format!(
                    "cannot merge: '{}' is given twice (it holds shard {k}/{n}); give each shard's folder once",
                    name(i)
                )));
            }
            return Err(JobError::Invalid(format!(
                "cannot merge '{}': it holds shard {k}/{n}, as '{}' does (the same shard given twice); give each shard's folder once",
                name(i),
                name(j)
            )));
        }
    }
    Ok(())
}

/// The build that wrote a folder, from its `manifest.json`: `mtrain VERSION (commit C)`.
pub(crate) fn build_of(dir: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("manifest.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let version = v.get("version")?.as_str()?;
    let commit = v.get("commit").and_then(|c| c.as_str()).unwrap_or("unknown");
    Some(format!("mtrain {version} (commit {commit})"))
}

/// Refuses shards written by different builds of mtrain, naming two of them: a change to the
/// engine or a bot between builds would change the games, and the sums would mix two runs.
pub(crate) fn same_build(dirs: &[PathBuf]) -> Result<(), JobError> {
    let builds: Vec<(usize, String)> =
        dirs.iter().enumerate().filter_map(|(i, d)| build_of(d).map(|b| (i, b))).collect();
    if let Some((first, b0)) = builds.first()
        && let Some((i, b)) = builds.iter().find(|(_, b)| b != b0)
    {
        return Err(JobError::Invalid(format!(
            "cannot merge '{}' (with '{}'): its shard was written by {b}, the other by {b0}; play every shard with one build",
            dirs[*i].display(),
            dirs[*first].display()
        )));
    }
    Ok(())
}
