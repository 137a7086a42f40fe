//! A label run as a [`Job`]: its configuration ([`LabelConfig`]), its state (`label.json`,
//! [`LabelState`]: the chunks written), its play chunk after chunk on every thread (each chunk's
//! `.npy` files written as it ends, the state after them), its shards (disjoint sets of
//! chunks) and their merge (the chunk files gathered in one folder), and `labels.json`, which
//! describes the files, once every chunk is written.

use super::{Ending, Job, JobError, Merged, Run};
use crate::error::InvalidInput;
use crate::external::BotSetup;
use crate::label::{LabelConfig, LabelState, Labeler, MATCHES_PER_CHUNK, META, TARGETS, chunk_file};
use crate::report::manifest::RulesRecord;
use crate::store::{Kind, LABEL, MANIFEST};
use crate::strategies::Registry;
use crate::tournament::ChunkSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The file that describes a complete run's labels.
pub const LABELS_JSON: &str = "labels.json";

/// A label run.
pub struct LabelRun {
    /// The run.
    pub labeler: Labeler,
    /// What the run is, as its state stores it.
    pub config: LabelConfig,
    shard: Option<(u64, u64)>,
    /// Labels already written when this invocation began playing.
    labels_before: u64,
}

impl LabelRun {
    /// Matches in the chunks of `set`.
    fn matches_in(&self, set: &ChunkSet) -> u64 {
        let m = self.labeler.spec.matches;
        set.0.iter().map(|&(a, b)| (b * MATCHES_PER_CHUNK).min(m) - (a * MATCHES_PER_CHUNK).min(m)).sum()
    }

    fn manifest(&self, st: &LabelState, run: &Run<'_>) -> String {
        let spec = &self.labeler.spec;
        let rules = self.labeler.rules();
        let changed: Vec<(String, String)> = spec
            .table
            .rules
            .iter()
            .filter_map(|r| r.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
            .collect();
        let record = RulesRecord::new(rules, &changed, vec![rules.players], Vec::new());
        let mut details = serde_json::json!({
            "matches_planned": self.matches_in(&st.planned()),
            "policy": spec.policy,
            "rollout": spec.rollout,
            "rollouts": spec.rollouts,
            "every": spec.every,
            "matches": spec.matches,
            "matches_written": self.matches_in(&st.done),
            "labels": st.labels,
            "shard": st.shard.map(|(i, n)| format!("{i}/{n}")),
        });
        // The cost of a label on this machine: the invocation's time on all its threads over
        // the labels it wrote (setup included; none on a checkpoint before the first chunk).
        let written = st.labels.saturating_sub(self.labels_before);
        let core_seconds = run.invocation.started.elapsed().as_secs_f64() * run.invocation.threads as f64;
        if let Some(map) = details.as_object_mut() {
            map.insert("labels_this_invocation".into(), written.into());
            map.insert(
                "core_ms_per_label".into(),
                (written > 0).then(|| (1000.0 * core_seconds / written as f64 * 1000.0).round() / 1000.0).into(),
            );
        }
        let stopped = (!st.complete()).then_some("interrupted");
        let field = vec![spec.policy.clone(), spec.rollout.clone()];
        run.invocation.manifest(record, field, spec.seed, st.complete(), stopped, details)
    }

    /// `labels.json`: what the files of a complete run hold.
    pub fn labels_json(&self, st: &LabelState) -> String {
        let spec = &self.labeler.spec;
        let rules = self.labeler.rules();
        let files: Vec<serde_json::Value> = (0..st.chunks_total)
            .map(|c| serde_json::json!([chunk_file(c, "x"), chunk_file(c, "y"), chunk_file(c, "meta")]))
            .collect();
        let v = serde_json::json!({
            "format": crate::label::LABEL_FORMAT,
            "labels": st.labels,
            "preset": spec.table.preset,
            "set": rules.set.get(),
            "players": rules.players,
            "rules": spec.table.rules,
            "table": spec.table,
            "policy": spec.policy,
            "rollout": spec.rollout,
            "rollouts": spec.rollouts,
            "every": spec.every,
            "matches": spec.matches,
            "seed": spec.seed,
            "features": self.labeler.width(),
            "observation": [0, self.labeler.observation_len()],
            "hands": [self.labeler.observation_len(), self.labeler.width()],
            "targets": TARGETS,
            "meta": META,
            "files": files,
        });
        serde_json::to_string_pretty(&v).expect("serialisable") + "\n"
    }

    fn report(&self, st: &LabelState) -> String {
        format!(
            "{} labels from {} matches ({} features each) in {} chunks of three .npy files\n",
            st.labels,
            self.matches_in(&st.done),
            self.labeler.width(),
            st.done.len()
        )
    }
}

impl Job for LabelRun {
    type Config = LabelConfig;
    type Outputs = ();
    type State = LabelState;
    const KIND: Kind = LABEL;
    const UNIT: &'static str = "matches";

    fn bots(config: &LabelConfig) -> &BotSetup {
        &config.bots
    }

    fn bots_mut(config: &mut LabelConfig) -> &mut BotSetup {
        &mut config.bots
    }

    fn open(
        config: &LabelConfig,
        shard: Option<(u64, u64)>,
        (): (),
        registry: &Registry,
    ) -> Result<LabelRun, JobError> {
        let labeler = Labeler::new(&config.spec, registry)?;
        Ok(LabelRun { labeler, config: config.clone(), shard, labels_before: 0 })
    }

    fn new_state(&self, config: &LabelConfig) -> LabelState {
        LabelState::new(config, self.shard, self.labeler.chunks())
    }

    fn read_state(text: &str) -> Result<LabelState, InvalidInput> {
        LabelState::from_json(text)
    }

    fn state_text(st: &LabelState) -> String {
        st.to_json()
    }

    fn config_of(st: &LabelState) -> Result<LabelConfig, InvalidInput> {
        st.config()
    }

    fn store_config(st: &mut LabelState, config: &LabelConfig) {
        st.config = serde_json::to_value(config).expect("serialisable");
    }

    fn shard_of(st: &LabelState) -> Option<(u64, u64)> {
        st.shard
    }

    fn outputs_of(_: &LabelState) {}

    fn check_state(&self, st: &LabelState, dir: &Path, _registry: &Registry) -> Result<(), JobError> {
        let bad = |why: String| JobError::Invalid(format!("cannot resume from '{}': {why}", dir.display()));
        if st.chunks_total != self.labeler.chunks() {
            return Err(bad(format!(
                "its label.json has {} chunks where the run has {}",
                st.chunks_total,
                self.labeler.chunks()
            )));
        }
        for &(a, b) in &st.done.0 {
            for c in a..b {
                for part in ["x", "y", "meta"] {
                    let name = chunk_file(c, part);
                    if !crate::store::is_regular(&dir.join(&name)) {
                        return Err(bad(format!("{name}, which its label.json records as written, is missing")));
                    }
                }
            }
        }
        Ok(())
    }

    fn notes(&self) -> Vec<String> {
        let planned = ChunkSet::slice(self.labeler.chunks(), self.shard);
        if planned.is_empty() {
            let (i, n) = self.shard.unwrap_or((1, 1));
            return vec![format!("shard {i}/{n} holds no chunk of the run's {}", self.labeler.chunks())];
        }
        Vec::new()
    }

    fn header(&self, st: &LabelState) -> String {
        let spec = &self.labeler.spec;
        let shard = st.shard.map_or(String::new(), |(i, n)| format!(", shard {i}/{n}"));
        format!(
            "mtrain label: {} matches of {} at {} players by {}{shard}; one decision in {} labelled by {} playouts of {}\n",
            spec.matches, spec.table.preset, spec.table.players, spec.policy, spec.every, spec.rollouts, spec.rollout
        )
    }

    fn progress(&self, st: &LabelState, _registry: &Registry) -> Result<(u64, u64), JobError> {
        Ok((self.matches_in(&st.planned()), self.matches_in(&st.done)))
    }

    fn checkpoint_files(&self, st: &LabelState, run: &Run<'_>) -> Vec<(&'static str, String)> {
        vec![(MANIFEST, self.manifest(st, run))]
    }

    fn play(&mut self, st: &mut LabelState, run: &Run<'_>) -> Result<Ending, JobError> {
        self.labels_before = st.labels;
        if !run.resumed {
            run.save(self, st)?;
        }
        let todo: Vec<u64> = st.planned().0.iter().flat_map(|&(a, b)| a..b).filter(|&c| !st.done.contains(c)).collect();
        let before = self.matches_in(&st.done);
        let next = AtomicUsize::new(0);
        let shared = Mutex::new((st.clone(), Instant::now(), None::<JobError>));
        let opts = &run.options;
        let this = &*self;
        let width = this.labeler.width();
        let worker = || {
            loop {
                if opts.stop.load(Ordering::SeqCst) {
                    return;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&c) = todo.get(i) else { return };
                let Some(chunk) = this.labeler.chunk(c, &|| opts.cut.load(Ordering::SeqCst)) else { return };
                // The chunk's files first, then (in the state) the record that they are written.
                let written = chunk
                    .npy_files(width)
                    .iter()
                    .try_for_each(|(part, bytes)| run.write_bytes(&chunk_file(c, part), bytes));
                let mut held = shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let (state, last, failed) = &mut *held;
                if let Err(e) = written {
                    failed.get_or_insert(e);
                    opts.stop.store(true, Ordering::SeqCst);
                    return;
                }
                state.done.insert(c);
                state.labels += chunk.rows as u64;
                let mut one = ChunkSet::default();
                one.insert(c);
                opts.progress.advance(this.matches_in(&one));
                if opts.checkpoint.is_some_and(|every| last.elapsed() >= every) {
                    if let Err(e) = run.save(this, state) {
                        failed.get_or_insert(e);
                        opts.stop.store(true, Ordering::SeqCst);
                        return;
                    }
                    *last = Instant::now();
                }
            }
        };
        std::thread::scope(|s| {
            for _ in 0..opts.threads.max(1) {
                s.spawn(worker);
            }
        });
        let (state, _, failed) = shared.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        *st = state;
        run.save(self, st)?;
        if let Some(e) = failed {
            return Err(e);
        }
        let played = self.matches_in(&st.done);
        if !st.complete() {
            let total = self.matches_in(&st.planned());
            return Ok(Ending::Stopped {
                report: self.report(st),
                saved: format!("{played} of {total} matches labelled ({} labels)", st.labels),
            });
        }
        if st.done.len() < st.chunks_total {
            let (i, n) = st.shard.unwrap_or((1, 1));
            return Ok(Ending::Shard {
                line: format!(
                    "mtrain label: shard {i}/{n} complete: {} labels from {played} matches; combine the shards with mtrain merge DIR... --out DIR",
                    st.labels
                ),
            });
        }
        for (name, text) in self.result_files(st)? {
            run.write(&name, &text)?;
        }
        Ok(Ending::Complete { report: self.report(st), played: Some(played - before) })
    }

    fn result_files(&self, st: &LabelState) -> Result<Vec<(String, String)>, JobError> {
        if st.done.len() < st.chunks_total {
            return Ok(Vec::new());
        }
        Ok(vec![(LABELS_JSON.to_string(), self.labels_json(st))])
    }

    fn played(st: &LabelState) -> u64 {
        st.labels
    }

    fn merge(states: &[LabelState], _dirs: &[PathBuf]) -> Result<LabelState, (usize, String)> {
        let mut merged = states[0].clone();
        merged.shard = None;
        for (i, s) in states.iter().enumerate().skip(1) {
            if s.chunks_total != merged.chunks_total {
                return Err((i, "its run has another number of chunks".into()));
            }
            if s.done.overlaps(&merged.done) {
                return Err((i, "it holds chunks another folder holds too".into()));
            }
            merged.done.union(&s.done);
            merged.labels += s.labels;
        }
        Ok(merged)
    }

    fn merged_files(
        &mut self,
        st: &mut LabelState,
        states: &[LabelState],
        dirs: &[PathBuf],
        run: &Run<'_>,
    ) -> Result<Merged, JobError> {
        for (s, dir) in states.iter().zip(dirs) {
            for &(a, b) in &s.done.0 {
                for c in a..b {
                    for part in ["x", "y", "meta"] {
                        let name = chunk_file(c, part);
                        let bytes = std::fs::read(dir.join(&name)).map_err(|e| {
                            JobError::Invalid(format!(
                                "cannot merge '{}': cannot read {name} ({})",
                                dir.display(),
                                crate::store::io_text(&e)
                            ))
                        })?;
                        run.write_bytes(&name, &bytes)?;
                    }
                }
            }
        }
        run.save(self, st)?;
        if st.done.len() < st.chunks_total {
            let n = states[0].shard.map_or(1, |(_, n)| n);
            let total = st.chunks_total;
            return Ok(Merged {
                report: format!(
                    "mtrain merge: {} labels, {} of {total} chunks of the label run are in these folders; merge every shard for labels.json\n",
                    st.labels,
                    st.done.len()
                ),
                missing: super::missing_of(n, &|s| vec![ChunkSet::slice(total, s)], &[&st.done]),
            });
        }
        for (name, text) in self.result_files(st)? {
            run.write(&name, &text)?;
        }
        Ok(Merged { report: self.report(st), missing: Vec::new() })
    }
}
