//! The job driver runs any kind of run: a kind written here, outside the library (a sum of
//! numbers played in chunks), gets a folder, checkpoints, a stop and a resume, shards and a
//! merge from `mexican_train::job` alone, with nothing else touched.

mod common;

use mexican_train::error::InvalidInput;
use mexican_train::external::BotSetup;
use mexican_train::job::{self, Ending, Job, JobError, Merged, Options, Run, Start};
use mexican_train::report::manifest::{Invocation, Started};
use mexican_train::store::{Kind, Progress};
use mexican_train::strategies::Registry;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The kind: the sum of the squares of 0..n, one number a chunk.
const SQUARES: Kind = Kind {
    patterned: None,
    name: "squares",
    described: "a sum of squares",
    state_file: "squares.json",
    files: &["sum.txt", "manifest.json"],
    plots: false,
    merged_mark: Some("n"),
};

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Config {
    n: u64,
    bots: BotSetup,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct State {
    config: Config,
    shard: Option<(u64, u64)>,
    done: Vec<u64>,
    sum: u64,
}

struct Squares {
    n: u64,
    shard: Option<(u64, u64)>,
}

impl Squares {
    fn planned(&self) -> Vec<u64> {
        (0..self.n).filter(|k| self.shard.is_none_or(|(i, n)| k % n == i - 1)).collect()
    }
}

impl Job for Squares {
    type Config = Config;
    type Outputs = ();
    type State = State;
    const KIND: Kind = SQUARES;
    const UNIT: &'static str = "numbers";

    fn bots(c: &Config) -> &BotSetup {
        &c.bots
    }
    fn bots_mut(c: &mut Config) -> &mut BotSetup {
        &mut c.bots
    }
    fn open(c: &Config, shard: Option<(u64, u64)>, (): (), _: &Registry) -> Result<Squares, JobError> {
        if c.n == 0 {
            return Err(JobError::Invalid("n must be at least 1".into()));
        }
        Ok(Squares { n: c.n, shard })
    }
    fn new_state(&self, c: &Config) -> State {
        State { config: c.clone(), shard: self.shard, done: Vec::new(), sum: 0 }
    }
    fn read_state(text: &str) -> Result<State, InvalidInput> {
        serde_json::from_str(text).map_err(|e| InvalidInput(e.to_string()))
    }
    fn state_text(st: &State) -> String {
        serde_json::to_string(st).unwrap()
    }
    fn config_of(st: &State) -> Result<Config, InvalidInput> {
        Ok(st.config.clone())
    }
    fn store_config(st: &mut State, c: &Config) {
        st.config = c.clone();
    }
    fn shard_of(st: &State) -> Option<(u64, u64)> {
        st.shard
    }
    fn outputs_of(_: &State) {}
    fn check_state(&self, st: &State, _: &Path, _: &Registry) -> Result<(), JobError> {
        let sum: u64 = st.done.iter().map(|k| k * k).sum();
        if sum == st.sum { Ok(()) } else { Err(JobError::Invalid("its sum is not its numbers'".into())) }
    }
    fn header(&self, _: &State) -> String {
        format!("squares of 0..{}\n", self.n)
    }
    fn progress(&self, st: &State, _: &Registry) -> Result<(u64, u64), JobError> {
        Ok((self.planned().len() as u64, st.done.len() as u64))
    }
    fn checkpoint_files(&self, st: &State, _: &Run<'_>) -> Vec<(&'static str, String)> {
        vec![("sum.txt", format!("{}\n", st.sum))]
    }
    fn play(&mut self, st: &mut State, run: &Run<'_>) -> Result<Ending, JobError> {
        run.save(self, st)?;
        for k in self.planned() {
            if st.done.contains(&k) {
                continue;
            }
            if run.options.stop.load(Ordering::SeqCst) {
                return Ok(Ending::Stopped { report: String::new(), saved: format!("{} numbers", st.done.len()) });
            }
            st.done.push(k);
            st.sum += k * k;
            run.options.progress.advance(1);
            run.save(self, st)?;
            // A signal arrives after the third number.
            if st.done.len() == 3 && run.options.checkpoint.is_some() {
                run.options.stop.store(true, Ordering::SeqCst);
            }
        }
        Ok(Ending::Complete { report: format!("sum {}\n", st.sum), played: Some(st.done.len() as u64) })
    }
    fn merge(states: &[State], _: &[PathBuf]) -> Result<State, (usize, String)> {
        let mut m = State { shard: None, done: Vec::new(), sum: 0, ..states[0].clone() };
        for (i, st) in states.iter().enumerate() {
            if st.done.iter().any(|k| m.done.contains(k)) {
                return Err((i, "overlap".into()));
            }
            m.done.extend(&st.done);
            m.sum += st.sum;
        }
        Ok(m)
    }
    fn merged_files(&mut self, st: &mut State, _: &[State], _: &[PathBuf], run: &Run<'_>) -> Result<Merged, JobError> {
        run.save(self, st)?;
        Ok(Merged { report: format!("sum {}\n", st.sum), missing: Vec::new() })
    }
    fn result_files(&self, st: &State) -> Result<Vec<(String, String)>, JobError> {
        Ok(vec![("sum.txt".into(), format!("{}\n", st.sum))])
    }
    fn played(st: &State) -> u64 {
        st.done.len() as u64
    }
}

#[derive(Default)]
struct Count(AtomicU64);

impl Progress for Count {
    fn advance(&self, n: u64) {
        self.0.fetch_add(n, Ordering::SeqCst);
    }
}

fn invocation() -> Invocation<'static> {
    Invocation { subcommand: "squares", command: &[], started: Started::now(), threads: 1 }
}

fn new(n: u64, shard: Option<(u64, u64)>, out: &Path) -> Start<Squares> {
    Start::New {
        config: Config { n, bots: BotSetup::default() },
        shard,
        outputs: (),
        out: Some(out.into()),
        force: false,
    }
}

#[test]
fn a_kind_written_outside_the_library_stops_resumes_and_merges() {
    let base = common::temp("job-driver");
    let registry = Registry::builtin();
    let (one, whole) = (base.join("one"), base.join("whole"));
    // Bad input is refused before the folder is made.
    let e = job::prepare::<Squares>(new(0, None, &one), &registry, Options::new(1), invocation()).err().unwrap();
    assert_eq!(e, JobError::Invalid("n must be at least 1".into()));
    assert!(!one.exists());
    // Stopped after three numbers (a checkpoint interval set: the stand-in signal), saved.
    let opts = Options { checkpoint: Some(std::time::Duration::from_secs(60)), ..Options::new(1) };
    let mut p = job::prepare::<Squares>(new(10, None, &one), &registry, opts, invocation()).unwrap();
    assert_eq!(p.header(), "squares of 0..10\n");
    assert_eq!(p.play().unwrap(), Ending::Stopped { report: String::new(), saved: "3 numbers".into() });
    assert_eq!(std::fs::read_to_string(one.join("sum.txt")).unwrap(), "5\n");
    // A new run into the folder of another run is refused; the resume goes on to the end.
    let e = job::prepare::<Squares>(new(11, None, &one), &registry, Options::new(1), invocation()).err().unwrap();
    assert!(e.to_string().contains("holds another sum of squares"), "{e}");
    let count = Arc::new(Count::default());
    let opts = Options { progress: count.clone(), ..Options::new(1) };
    let resume = Start::Resume { dir: one.clone(), ext: Vec::new() };
    let mut p = job::prepare::<Squares>(resume, &registry, opts, invocation()).unwrap();
    assert_eq!(p.play().unwrap(), Ending::Complete { report: "sum 285\n".into(), played: Some(10) });
    assert_eq!(count.0.load(Ordering::SeqCst), 7);
    // Two shards merge into the whole run's sum.
    let mut dirs = Vec::new();
    for i in 1..=2 {
        let dir = base.join(format!("shard{i}"));
        let mut p =
            job::prepare::<Squares>(new(10, Some((i, 2)), &dir), &registry, Options::new(1), invocation()).unwrap();
        assert!(matches!(p.play().unwrap(), Ending::Complete { .. }));
        dirs.push(dir);
    }
    let merged = job::merge::<Squares>(&dirs, &whole, &registry, invocation()).unwrap();
    assert_eq!(merged.report, "sum 285\n");
    assert_eq!(std::fs::read_to_string(whole.join("sum.txt")).unwrap(), "285\n");
    // The same shard twice is refused, naming it.
    let e = job::merge::<Squares>(&[dirs[0].clone(), dirs[0].clone()], &base.join("twice"), &registry, invocation());
    assert!(e.unwrap_err().to_string().contains("is given twice"));
    std::fs::remove_dir_all(&base).unwrap();
}
