//! A tournament with its durable record: the run folder readied (new or resumed), the games
//! played with checkpoints, per-game rows and game logs kept in step with the state.
//!
//! [`Session::new`] starts a run in a folder a new run may use (a [`Folder`]); [`Session::resume`] continues a stored [`RunState`] after
//! checking it against the run it claims to be, cutting the per-game files back to its marks and
//! removing game logs it does not count. [`Session::run`] plays the rest, writing a checkpoint
//! ([`Folder::save`], after syncing the per-game files) at the start, every `RunOptions::checkpoint`, and at the end.

use super::record::{self, PerGameMarks, Record};
use super::{ChunkOutput, ChunkSet, RunOptions, RunResult, RunState, STORE_FORMAT, SprtState, Tally, Tournament};
use crate::store::{Folder, FolderError, TOURNAMENT};
use std::path::{Path, PathBuf};

/// Why a session cannot start or go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// The folder or state is not one to write into or resume from (bad input).
    Refused(String),
    /// A file could not be written.
    Io(String),
}

/// What makes a run this run: stored in its state, compared on resume and merge.
#[derive(Clone, Debug)]
pub struct Identity {
    /// What the run is, as data ([`super::TournamentConfig::to_value`]): equal for the shards
    /// of one run.
    pub config: serde_json::Value,
    /// The slice it plays, if it is a shard.
    pub shard: Option<(u64, u64)>,
    /// The command line's arguments that gave it, for people reading the folder.
    pub args: Vec<String>,
    /// The chunks it plays (a shard's slice, or all).
    pub plan: ChunkSet,
}

/// Where a session writes.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// The run folder (`--out`): reports, manifest, `tally.json`, per-game files.
    pub dir: Option<PathBuf>,
    /// Whether to keep `games.csv` and `rounds.csv`.
    pub per_game: bool,
    /// The game-log folder (`--log-games`).
    pub logs: Option<PathBuf>,
}

impl From<FolderError> for SessionError {
    fn from(e: FolderError) -> SessionError {
        SessionError::Refused(e.0)
    }
}

/// A run and its record.
pub struct Session<'a> {
    t: &'a Tournament,
    id: Identity,
    out: Outputs,
    record: Option<Record>,
    start: Tally,
    done: ChunkSet,
    resumed: bool,
}

impl<'a> Session<'a> {
    /// A new run, in a folder readied for it ([`crate::store::Folder::create`], after
    /// [`Session::check_new`]); the per-game files start with their headers.
    ///
    /// # Errors
    /// A per-game file or log folder that cannot be written.
    pub fn new(t: &'a Tournament, id: Identity, out: Outputs) -> Result<Session<'a>, SessionError> {
        let record = match &out.dir {
            Some(dir) => Some(if out.per_game {
                Record::create(dir, &super::games_header(), &super::rounds_header(t.rules.players as usize))
                    .map_err(|e| SessionError::Io(e.into()))?
            } else {
                Record::without_games(dir)
            }),
            None => None,
        };
        let s =
            Session { t, id, out, record, start: Tally::new(t.layout()), done: ChunkSet::default(), resumed: false };
        s.ready_logs(false)?;
        Ok(s)
    }

    /// Checks that `st`, the state stored in `out.dir`, can be continued as the run `id`: its
    /// configuration and shard, its chunks and counts, and per-game files it vouches for.
    ///
    /// # Errors
    /// What does not match ([`SessionError::Refused`]).
    pub fn check_resume(t: &Tournament, id: &Identity, out: &Outputs, st: &RunState) -> Result<(), SessionError> {
        let dir = out.dir.clone().expect("a resumed run has a folder");
        let bad = |why: String| SessionError::Refused(format!("cannot resume from '{}': {why}", dir.display()));
        if st.config != id.config || st.shard != id.shard {
            return Err(bad("its tally.json belongs to a different run".into()));
        }
        let has_rows = dir.join(record::GAMES_FILE).exists() || dir.join(record::ROUNDS_FILE).exists();
        if st.per_game.is_none() && has_rows {
            return Err(bad(
                "its tally.json records no per-game files, but the folder has games.csv: the tally.json is another run's"
                    .into(),
            ));
        }
        st.verify(t, &id.plan).map_err(|e| bad(e.into()))?;
        Ok(())
    }

    /// Continues `st`, the state stored in `out.dir`: checked against this run, its per-game
    /// files cut back to the checkpoint's marks, the game logs it does not count removed.
    ///
    /// # Errors
    /// A state that does not belong to this run or cannot be trusted, per-game files that lost
    /// or changed rows ([`SessionError::Refused`]).
    pub fn resume(t: &'a Tournament, id: Identity, out: Outputs, st: RunState) -> Result<Session<'a>, SessionError> {
        Self::check_resume(t, &id, &out, &st)?;
        let dir = out.dir.clone().expect("a resumed run has a folder");
        let bad = |why: String| SessionError::Refused(format!("cannot resume from '{}': {why}", dir.display()));
        Folder { dir: dir.clone(), kind: TOURNAMENT }.remove_temporaries();
        let record = if out.per_game {
            let last = st.done.0.last().map_or(0, |r| r.1);
            let first_todo = id.plan.0.iter().flat_map(|&(a, b)| a..b).find(|&c| !st.done.contains(c));
            if first_todo.is_some_and(|c| c < last) {
                return Err(SessionError::Refused(format!(
                    "cannot resume the per-game files of '{}': games are missing before its last ones (a merge without one of its shards); play the missing shard and merge again",
                    dir.display()
                )));
            }
            let marks = st.per_game.as_ref().ok_or_else(|| bad("its tally.json records no per-game files".into()))?;
            Record::reopen(&dir, marks).map_err(|e| SessionError::Refused(e.into()))?
        } else {
            Record::without_games(&dir)
        };
        let s = Session { t, id, out, record: Some(record), start: st.tally, done: st.done, resumed: true };
        s.ready_logs(true)?;
        Ok(s)
    }

    /// Checks, before anything is created or removed, that a new run `id` may write into `out`'s
    /// game-log folder: it must be new or empty, unless it holds this same run's logs (the run
    /// stored in `out.dir` is this run, writing this log folder) or `force`; its
    /// earlier game logs are then removed, other files left alone. Returns whether `out.dir`
    /// holds a run of this tournament.
    ///
    /// # Errors
    /// A log folder that holds something else ([`SessionError::Refused`]).
    pub fn check_new(id: &Identity, out: &Outputs, force: bool) -> Result<bool, SessionError> {
        let stored = out.dir.as_ref().and_then(|dir| {
            crate::store::read_state(&dir.join("tally.json")).ok().and_then(|s| RunState::from_json(&s).ok())
        });
        let same_run = stored.as_ref().is_some_and(|st| st.config == id.config);
        let own_logs = same_run && stored.as_ref().is_some_and(|st| st.log_games == out.logs);
        let Some(dir) = &out.logs else { return Ok(same_run) };
        if own_logs || force {
            return Ok(same_run);
        }
        let Ok(list) = std::fs::read_dir(dir) else { return Ok(same_run) };
        let mut entries: Vec<String> = list.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
        entries.sort_unstable();
        if entries.is_empty() {
            return Ok(same_run);
        }
        Err(SessionError::Refused(format!(
            "--log-games '{}' is not empty and holds no logs of this run (it has {}): give a new or empty folder, or --force to replace the game logs in it",
            dir.display(),
            crate::store::shown(&entries)
        )))
    }

    /// The game-log folder, created; on resume without the logs its state does not count.
    fn ready_logs(&self, resumed: bool) -> Result<(), SessionError> {
        if let Some(dir) = &self.out.logs {
            std::fs::create_dir_all(dir).map_err(|e| {
                SessionError::Refused(format!(
                    "cannot write --log-games '{}': {}",
                    dir.display(),
                    crate::store::io_text(&e)
                ))
            })?;
            if resumed {
                record::prune_game_logs(dir, |c| self.done.contains(c));
            } else {
                record::prune_game_logs(dir, |_| false);
            }
        }
        Ok(())
    }

    /// The chunks still to play, in order.
    pub fn todo(&self) -> Vec<u64> {
        self.id.plan.0.iter().flat_map(|&(a, b)| a..b).filter(|&c| !self.done.contains(c)).collect()
    }

    /// Games already played when the session began (a resumed run's).
    pub fn games_before(&self) -> u64 {
        self.start.games
    }

    /// The state of `r`, with the per-game marks of a checkpoint.
    fn state(&self, r: &RunResult, marks: Option<PerGameMarks>) -> RunState {
        RunState {
            format: STORE_FORMAT,
            kind: super::TOURNAMENT_KIND.to_string(),
            config: self.id.config.clone(),
            shard: self.id.shard,
            args: self.id.args.clone(),
            log_games: self.out.logs.clone(),
            chunks_total: self.t.chunk_count(),
            chunks_planned: self.id.plan.clone(),
            done: r.done.clone(),
            tally: r.tally.clone(),
            per_game: marks,
            check: 0,
        }
    }

    /// Plays the rest of the run with `opts`. With a folder, a checkpoint is written at the
    /// start (a new run is resumable from its first moment), every `opts.checkpoint`, and at
    /// the end: `files` gives the reports and manifest for a state (written before
    /// `tally.json`), `write` writes a file atomically.
    ///
    /// # Errors
    /// The first failing write.
    pub fn run<E: From<SessionError>>(
        &mut self,
        opts: &RunOptions,
        files: impl Fn(&RunState, Option<&SprtState>) -> Vec<(&'static str, String)>,
        mut write: impl FnMut(&Path, &[u8]) -> Result<(), E>,
    ) -> Result<RunResult, E> {
        let todo = self.todo();
        let record = std::cell::RefCell::new(self.record.take());
        let write = std::cell::RefCell::new(&mut write);
        let save = |r: &RunResult| -> Result<(), E> {
            let Some(dir) = &self.out.dir else { return Ok(()) };
            let shown = self.state(r, None);
            // The per-game files are synced first: the state vouches only for what is on disk.
            let marks = match record.borrow_mut().as_mut() {
                Some(rec) => rec.sync().map_err(|e| E::from(SessionError::Io(e.into())))?,
                None => None,
            };
            let folder = Folder { dir: dir.clone(), kind: TOURNAMENT };
            folder.save(&files(&shown, r.sprt.as_ref()), &self.state(r, marks).to_json(), &mut |p: &Path, b: &[u8]| {
                (write.borrow_mut())(p, b)
            })
        };
        if !self.resumed {
            let empty = RunResult {
                tally: self.start.clone(),
                done: self.done.clone(),
                sprt: None,
                interrupted: true,
                bot_failed: false,
            };
            save(&empty)?;
        }
        let logs = self.out.logs.clone();
        let result = self.t.run(
            &todo,
            self.start.clone(),
            self.done.clone(),
            opts,
            |c: &ChunkOutput| -> Result<(), E> {
                if let Some(dir) = &logs {
                    (write.borrow_mut())(&dir.join(record::log_file_name(c.chunk)), &c.games_jsonl)?;
                }
                match record.borrow_mut().as_mut() {
                    Some(rec) => rec.append(c).map_err(|e| E::from(SessionError::Io(e.into()))),
                    None => Ok(()),
                }
            },
            |r: &RunResult| save(r),
        )?;
        save(&result)?;
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::strategy::StrategySpec;
    use crate::tournament::Schedule;
    use std::sync::atomic::Ordering;

    fn tournament() -> Tournament {
        let rules = Rules { players: 3, ..Rules::wikipedia() };
        let specs: Vec<StrategySpec> = vec!["greedy".parse().unwrap(), "random".parse().unwrap()];
        Tournament::new(rules, specs, Schedule::new(&[0, 1], 3, true, 600, 3).unwrap())
    }

    fn files(st: &RunState, _: Option<&SprtState>) -> Vec<(&'static str, String)> {
        vec![("games_so_far.txt", st.tally.games.to_string())]
    }

    fn write(p: &Path, b: &[u8]) -> Result<(), SessionError> {
        std::fs::write(p, b).map_err(|e| SessionError::Io(e.to_string()))
    }

    #[test]
    fn a_stopped_session_resumes_to_the_files_of_an_unbroken_one() {
        let base = std::env::temp_dir().join(format!("mtrain-session-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let t = tournament();
        let id = Identity {
            config: serde_json::json!("f"),
            shard: None,
            args: vec![],
            plan: ChunkSet::slice(t.chunk_count(), None),
        };
        let outputs = |name: &str| Outputs { dir: Some(base.join(name)), per_game: true, logs: None };
        for name in ["whole", "parts"] {
            std::fs::create_dir_all(base.join(name)).unwrap();
        }
        crate::store::Folder::create(&base.join("whole"), TOURNAMENT, false, |_| false).unwrap();
        let mut whole = Session::new(&t, id.clone(), outputs("whole")).unwrap();
        let r = whole.run(&RunOptions::new(2), files, write).unwrap();
        assert!(!r.interrupted);
        // Stopped before it starts: a state with nothing done, resumable.
        let mut first = Session::new(&t, id.clone(), outputs("parts")).unwrap();
        let opts = RunOptions::new(2);
        opts.stop.store(true, Ordering::SeqCst);
        assert!(first.run(&opts, files, write).unwrap().interrupted);
        let text = std::fs::read_to_string(base.join("parts/tally.json")).unwrap();
        let st = RunState::from_json(&text).unwrap();
        assert_eq!(st.tally.games, 0);
        // Another run's state is refused; this one resumes to the same files.
        let other = Identity { config: serde_json::json!("g"), ..id.clone() };
        assert!(matches!(Session::resume(&t, other, outputs("parts"), st.clone()), Err(SessionError::Refused(_))));
        let mut rest = Session::resume(&t, id, outputs("parts"), st).unwrap();
        assert!(!rest.run(&RunOptions::new(1), files, write).unwrap().interrupted);
        for f in ["games.csv", "rounds.csv", "games_so_far.txt"] {
            let a = std::fs::read(base.join("whole").join(f)).unwrap();
            let b = std::fs::read(base.join("parts").join(f)).unwrap();
            assert!(a == b, "{f} differs");
        }
        std::fs::remove_dir_all(&base).unwrap();
    }
}
