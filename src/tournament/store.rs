//! The run-state file `tally.json`: exact statistics, which chunks they cover, what run they
//! belong to, and how much of the per-game files they vouch for. `mtrain merge` adds the tallies
//! of shards; `--resume` continues a run from its last checkpoint.
//!
//! The file carries a CRC-32 of its own content (`check`): a file edited by hand, truncated or
//! damaged is refused rather than trusted.

use super::record::PerGameMarks;
use super::{ChunkSet, Tally, Tournament};
use crate::error::StoreError;
use crate::store::SelfChecked;
use serde::{Deserialize, Serialize};

/// Format version of a tournament's `tally.json` (5: the run stored as data, its configuration
/// and shard, instead of a fingerprint and a command line to parse again).
#[doc(hidden)] // the runner's parts, for the integration tests
pub const STORE_FORMAT: u32 = 5;

/// Format version of a balance sweep's `tally.json` (5: the sweep stored as data, its
/// configuration and shard, instead of a fingerprint and a command line).
#[doc(hidden)] // the runner's parts, for the integration tests
pub const SWEEP_FORMAT: u32 = 5;

impl SelfChecked for RunState {
    fn check_field(&mut self) -> &mut u32 {
        &mut self.check
    }
}

impl SelfChecked for SweepState {
    fn check_field(&mut self) -> &mut u32 {
        &mut self.check
    }
}

/// Refuses a `tally.json` of another format version than `reads`.
fn check_format(format: u32, reads: u32) -> Result<(), StoreError> {
    if format == reads { Ok(()) } else { Err(StoreError::OtherFormat { found: format, reads }) }
}

/// The `format` of a `tally.json`, if it has one.
fn format_of(s: &str) -> Option<u32> {
    let v: serde_json::Value = serde_json::from_str(s).ok()?;
    v.get("format").and_then(serde_json::Value::as_u64).and_then(|f| u32::try_from(f).ok())
}

/// Everything needed to merge or resume a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunState {
    /// [`STORE_FORMAT`].
    pub format: u32,
    /// `TOURNAMENT_KIND`.
    pub kind: String,
    /// What the run is, as data (a [`super::TournamentConfig`]: the tournament's spec without
    /// its shard, and the bots it adds): compared on resume and merge, and what a resumed or
    /// merged run is rebuilt from. Shards of one run store equal configurations.
    pub config: serde_json::Value,
    /// The slice `(i, n)` this state plays, if it is a shard's.
    pub shard: Option<(u64, u64)>,
    /// The command line's arguments that gave the run (without threads, output or progress
    /// options), for people reading the folder; never parsed again.
    pub args: Vec<String>,
    /// The game-log folder (`--log-games`) the run writes, if any.
    pub(crate) log_games: Option<std::path::PathBuf>,
    /// Total chunks in the whole (unsharded) run.
    pub chunks_total: u64,
    /// Chunks this state was asked to play (a shard's slice, or all).
    pub(crate) chunks_planned: ChunkSet,
    /// Chunks whose games are in `tally`.
    pub done: ChunkSet,
    /// The statistics.
    pub tally: Tally,
    /// How much of `games.csv` and `rounds.csv` belongs to `done` (per-game runs only).
    #[serde(default)]
    pub per_game: Option<PerGameMarks>,
    /// CRC-32 of the file's content with this field 0.
    #[serde(default)]
    pub check: u32,
}

impl RunState {
    /// Serialises to pretty JSON, with its check.
    pub fn to_json(&self) -> String {
        self.checked_json()
    }

    /// Parses `tally.json`.
    ///
    /// # Errors
    /// A message naming the problem.
    pub(crate) fn from_json(s: &str) -> Result<RunState, StoreError> {
        if kind_of(s).is_some_and(|k| k == BALANCE_KIND) {
            return Err(StoreError::SweepNotRun);
        }
        // The format first: a file of another version may not have this one's fields.
        if let Some(f) = format_of(s) {
            check_format(f, STORE_FORMAT)?;
        }
        let st: RunState =
            serde_json::from_str(s).map_err(|e| StoreError::NotJson(crate::error::json_problem(s, &e)))?;
        check_format(st.format, STORE_FORMAT)?;
        if !st.tally.fits_layout() {
            return Err(StoreError::Damaged);
        }
        if !st.is_intact() {
            return Err(StoreError::Edited);
        }
        Ok(st)
    }
}

impl RunState {
    /// Checks the state against the run it claims to be: its chunks are the run's (within
    /// `plan`), and its counts are what those chunks hold. A state edited by hand with a
    /// recomputed check still fails here.
    ///
    /// # Errors
    /// What does not match, as a phrase.
    pub(crate) fn verify(&self, t: &Tournament, plan: &ChunkSet) -> Result<(), StoreError> {
        if self.chunks_total != t.chunk_count() {
            return Err(StoreError::Mismatch(format!(
                "its tally.json counts {} chunks, this run has {}",
                self.chunks_total,
                t.chunk_count()
            )));
        }
        if self.done.0.iter().any(|&(a, b)| (a..b).any(|c| !plan.contains(c))) {
            return Err(StoreError::Mismatch("its tally.json counts chunks outside this run".into()));
        }
        let chunks = || self.done.0.iter().flat_map(|&(a, b)| a..b);
        let games: u64 = chunks().map(|c| t.chunk_games(c)).sum();
        let deals: u64 = chunks().map(|c| t.chunk_deals(c).count() as u64).sum();
        if self.tally.games != games || self.tally.deals != deals {
            return Err(StoreError::Mismatch(format!(
                "its tally.json holds {} games of {} deals, but the chunks it lists hold {games} of {deals}",
                self.tally.games, self.tally.deals
            )));
        }
        Ok(())
    }

    /// The chunks and statistics of shards of one run, added: exact, so the result equals a
    /// single run of the same chunks.
    ///
    /// # Errors
    /// The index of the offending state and why: a different run, or chunks another state
    /// already has.
    pub(crate) fn merge_shards(states: &[RunState]) -> Result<(ChunkSet, Tally), (usize, String)> {
        let first = states.first().ok_or((0, "nothing to merge".to_string()))?;
        let mut done = ChunkSet::default();
        let mut tally = Tally::new(first.tally.layout);
        for (i, st) in states.iter().enumerate() {
            if st.config != first.config {
                return Err((i, "a shard of a different run (rules, bots, seed or games differ)".into()));
            }
            if done.overlaps(&st.done) {
                return Err((i, "its games overlap another folder's (the same shard given twice?)".into()));
            }
            done.union(&st.done);
            tally.merge(&st.tally);
        }
        Ok((done, tally))
    }
}

/// One cell of a sweep: the tournament of one player count and hand size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct CellState {
    /// Seats.
    pub players: u8,
    /// Tiles dealt to each.
    pub hand: u8,
    /// Chunks of the cell's whole tournament.
    pub chunks_total: u64,
    /// Chunks this state was asked to play (a shard's slice, or all).
    pub(crate) chunks_planned: ChunkSet,
    /// Chunks whose games are in `tally`.
    pub done: ChunkSet,
    /// The statistics.
    pub tally: Tally,
}

/// What [`RunState::kind`] says for `mtrain tournament`.
pub(crate) const TOURNAMENT_KIND: &str = "tournament";

/// What [`SweepState::kind`] says for `mtrain balance`.
pub(crate) const BALANCE_KIND: &str = "balance";

/// The state of a sweep (`mtrain balance`): one tournament per cell, played cell after cell,
/// kept in the same `tally.json` with the same self-check as a tournament's, for resuming and
/// merging shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepState {
    /// [`SWEEP_FORMAT`].
    pub format: u32,
    /// `BALANCE_KIND`.
    pub kind: String,
    /// What the sweep is, as data (the sweep's spec and the bots it adds): compared on resume
    /// and merge, and what a resumed or merged sweep is rebuilt from.
    pub config: serde_json::Value,
    /// The slice `(i, n)` this state plays, if it is a shard's.
    pub shard: Option<(u64, u64)>,
    /// Every cell, in sweep order.
    pub cells: Vec<CellState>,
    /// CRC-32 of the file's content with this field 0.
    #[serde(default)]
    pub check: u32,
}

impl SweepState {
    /// Serialises to pretty JSON, with its check.
    pub fn to_json(&self) -> String {
        self.checked_json()
    }

    /// Parses a sweep's `tally.json`.
    ///
    /// # Errors
    /// A message naming the problem.
    pub(crate) fn from_json(s: &str) -> Result<SweepState, StoreError> {
        if kind_of(s).as_deref() != Some(BALANCE_KIND) {
            return Err(StoreError::RunNotSweep);
        }
        // The format first: a file of another version may not have this one's fields.
        if let Some(f) = format_of(s) {
            check_format(f, SWEEP_FORMAT)?;
        }
        let st: SweepState =
            serde_json::from_str(s).map_err(|e| StoreError::NotJson(crate::error::json_problem(s, &e)))?;
        check_format(st.format, SWEEP_FORMAT)?;
        if st.cells.iter().any(|c| !c.tally.fits_layout()) {
            return Err(StoreError::Damaged);
        }
        if !st.is_intact() {
            return Err(StoreError::Edited);
        }
        Ok(st)
    }
}

impl SweepState {
    /// The shards of one sweep, added cell by cell: the state of the whole sweep as far as
    /// they go (every cell's plan the whole cell).
    ///
    /// # Errors
    /// The index of the offending state and why: another sweep, or games another state
    /// already has.
    pub(crate) fn merge_shards(states: &[SweepState]) -> Result<SweepState, (usize, String)> {
        let first = states.first().ok_or((0, "nothing to merge".to_string()))?;
        let mut merged = first.clone();
        merged.shard = None;
        for c in &mut merged.cells {
            c.done = ChunkSet::default();
            c.tally = Tally::new(c.tally.layout);
            c.chunks_planned = ChunkSet(vec![(0, c.chunks_total)]);
        }
        for (i, st) in states.iter().enumerate() {
            if st.config != first.config || st.cells.len() != first.cells.len() {
                return Err((i, "a shard of a different sweep".into()));
            }
            for (m, c) in merged.cells.iter_mut().zip(&st.cells) {
                if m.done.overlaps(&c.done) {
                    return Err((i, "its games overlap another folder's (the same shard given twice?)".into()));
                }
                m.done.union(&c.done);
                m.tally.merge(&c.tally);
            }
        }
        Ok(merged)
    }
}

impl SweepState {
    /// The chunks of each cell that slice `i` of `n` plays (`None`: all): the sweep's chunks,
    /// cell after cell, cut into `n` contiguous slices, so that slices of a sweep cost about
    /// the same whatever their cells.
    pub(crate) fn shard_plan(chunks: &[u64], shard: Option<(u64, u64)>) -> Vec<ChunkSet> {
        let total: u64 = chunks.iter().sum();
        let whole = ChunkSet::slice(total, shard);
        let (lo, hi) = whole.0.first().copied().unwrap_or((0, 0));
        let mut start = 0;
        chunks
            .iter()
            .map(|&c| {
                let mut set = ChunkSet::default();
                let (a, b) = (lo.max(start), hi.min(start + c));
                if a < b {
                    set.insert_range(a - start, b - start);
                }
                start += c;
                set
            })
            .collect()
    }

    /// Plays every cell's remaining chunks in order, cell `i` by `cells(i)`, each with `opts`;
    /// `save` sees the whole sweep's state at every checkpoint of a cell. When a cell has played
    /// all it planned, `more(i, cell)` may extend its plan to the chunks `0..end` (sequential
    /// sampling); `extended` is told the tournament and the chunks added. Stops at the first
    /// cell that stops (a signal, a failing bot).
    ///
    /// # Errors
    /// The first error `cells` or `save` returns.
    pub(crate) fn play<E>(
        &mut self,
        opts: &super::RunOptions,
        mut cells: impl FnMut(usize) -> Result<Tournament, E>,
        mut on_cell: impl FnMut(usize),
        mut more: impl FnMut(usize, &CellState) -> Option<u64>,
        mut extended: impl FnMut(&Tournament, &ChunkSet),
        save: impl Fn(&SweepState) -> Result<(), E>,
    ) -> Result<bool, E> {
        for i in 0..self.cells.len() {
            let mut t: Option<Tournament> = None;
            loop {
                let c = &self.cells[i];
                let todo: Vec<u64> =
                    c.chunks_planned.0.iter().flat_map(|&(x, y)| x..y).filter(|&k| !c.done.contains(k)).collect();
                if todo.is_empty() {
                    // Everything planned is played: sample on, or go to the next cell.
                    let Some(end) = more(i, c) else { break };
                    let from = c.chunks_planned.0.last().map_or(0, |r| r.1);
                    if end <= from {
                        break;
                    }
                    let mut added = ChunkSet::default();
                    added.insert_range(from, end);
                    if t.is_none() {
                        t = Some(cells(i)?);
                    }
                    extended(t.as_ref().expect("set"), &added);
                    self.cells[i].chunks_planned.insert_range(from, end);
                    save(self)?;
                    continue;
                }
                on_cell(i);
                if t.is_none() {
                    t = Some(cells(i)?);
                }
                let tour = t.as_ref().expect("set");
                let snapshot = |r: &super::RunResult| {
                    let mut st = self.clone();
                    st.cells[i].tally = r.tally.clone();
                    st.cells[i].done = r.done.clone();
                    st
                };
                let result =
                    tour.run(&todo, c.tally.clone(), c.done.clone(), opts, |_| Ok(()), |r| save(&snapshot(r)))?;
                self.cells[i].tally = result.tally;
                self.cells[i].done = result.done;
                if result.interrupted {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// The `kind` of a `tally.json` (`None` for a tournament's, which has none), if it parses.
#[doc(hidden)] // the runner's parts, for the integration tests
pub fn kind_of(s: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(s).ok()?;
    v.get("kind").and_then(|k| k.as_str()).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::strategy::StrategySpec;
    use crate::tournament::Schedule;

    fn tournament(games: u64) -> Tournament {
        let rules = Rules { players: 2, ..Rules::wikipedia() };
        let specs: Vec<StrategySpec> = vec!["greedy".parse().unwrap(), "random".parse().unwrap()];
        let schedule = Schedule::new(&[0, 1], 2, true, games, 5).unwrap();
        Tournament::new(rules, specs, schedule)
    }

    fn state(t: &Tournament, chunks: &[u64]) -> RunState {
        let mut tally = Tally::new(t.layout());
        let mut done = ChunkSet::default();
        for &c in chunks {
            tally.merge(&t.play_chunk(c, false).tally);
            done.insert(c);
        }
        RunState {
            format: STORE_FORMAT,
            kind: TOURNAMENT_KIND.into(),
            config: serde_json::json!({"run": 1}),
            shard: None,
            args: Vec::new(),
            log_games: None,
            chunks_total: t.chunk_count(),
            chunks_planned: ChunkSet(vec![(0, t.chunk_count())]),
            done,
            tally,
            per_game: None,
            check: 0,
        }
    }

    #[test]
    fn a_state_round_trips_and_any_edit_is_refused() {
        let t = tournament(200);
        let st = state(&t, &[0, 1]);
        let text = st.to_json();
        let back = RunState::from_json(&text).unwrap();
        assert_eq!(back.tally, st.tally);
        assert_eq!(back.done, st.done);
        let edited = text.replacen("\"games\": ", "\"games\": 9", 1);
        assert_eq!(RunState::from_json(&edited).unwrap_err(), crate::error::StoreError::Edited);
        assert!(
            RunState::from_json(&text[..text.len() / 2]).unwrap_err().to_string().contains("not a valid tally.json")
        );
    }

    #[test]
    fn verify_refuses_counts_that_the_chunks_do_not_hold() {
        let t = tournament(200);
        let all = ChunkSet(vec![(0, t.chunk_count())]);
        let mut st = state(&t, &[0, 1]);
        st.verify(&t, &all).unwrap();
        // A forged `done` with a valid check: the games it claims are not in the tally.
        st.done.insert(2);
        let st = RunState::from_json(&st.to_json()).unwrap();
        assert!(st.verify(&t, &all).unwrap_err().to_string().contains("but the chunks it lists hold"));
        let mut outside = state(&t, &[0]);
        outside.done.insert(t.chunk_count() + 3);
        assert!(outside.verify(&t, &all).unwrap_err().to_string().contains("outside this run"));
        assert!(
            state(&t, &[0]).verify(&tournament(400), &all).unwrap_err().to_string().contains("chunks, this run has")
        );
    }

    #[test]
    fn sweep_shards_slice_the_chunks_of_every_cell_in_order() {
        let chunks = [3u64, 0, 5, 2];
        for n in 1..=4u64 {
            let mut per_cell = vec![ChunkSet::default(); chunks.len()];
            for i in 1..=n {
                for (cell, part) in SweepState::shard_plan(&chunks, Some((i, n))).into_iter().enumerate() {
                    assert!(!per_cell[cell].overlaps(&part));
                    per_cell[cell].union(&part);
                }
            }
            for (cell, set) in per_cell.iter().enumerate() {
                assert_eq!(set.len(), chunks[cell], "{n} shards, cell {cell}");
            }
        }
        let halves = SweepState::shard_plan(&chunks, Some((1, 2)));
        assert_eq!(halves[0].0, vec![(0, 3)]);
        assert_eq!(halves[2].0, vec![(0, 2)]);
        assert!(halves[3].is_empty());
    }

    #[test]
    fn sweep_shards_merge_cell_by_cell() {
        let t = tournament(300);
        let n = t.chunk_count();
        let cell = |chunks: &[u64]| {
            let st = state(&t, chunks);
            CellState {
                players: 2,
                hand: 15,
                chunks_total: n,
                chunks_planned: st.done.clone(),
                done: st.done,
                tally: st.tally,
            }
        };
        let sweep = |cells: Vec<CellState>| SweepState {
            format: SWEEP_FORMAT,
            kind: BALANCE_KIND.into(),
            config: serde_json::json!({"sweep": 1}),
            shard: None,
            cells,
            check: 0,
        };
        let all: Vec<u64> = (0..n).collect();
        let a = sweep(vec![cell(&all), cell(&[0])]);
        let b = sweep(vec![cell(&[]), cell(&all[1..])]);
        let m = SweepState::merge_shards(&[b.clone(), a.clone()]).unwrap();
        assert_eq!(m.cells[0].tally, cell(&all).tally);
        assert_eq!(m.cells[1].done, ChunkSet(vec![(0, n)]));
        assert_eq!(m.cells[1].tally, cell(&all).tally);
        let back = SweepState::from_json(&m.to_json()).unwrap();
        assert_eq!(back, SweepState { check: back.check, ..m });
        assert!(RunState::from_json(&a.to_json()).unwrap_err().to_string().contains("balance sweep's"));
        let (i, why) = SweepState::merge_shards(&[a.clone(), a]).unwrap_err();
        assert_eq!((i, why.contains("overlap")), (1, true));
    }

    #[test]
    fn shards_merge_to_the_whole_run_and_refuse_overlaps_and_strangers() {
        let t = tournament(300);
        let n = t.chunk_count();
        assert!(n >= 3);
        let whole = state(&t, &(0..n).collect::<Vec<_>>());
        let parts = [state(&t, &[2]), state(&t, &(3..n).collect::<Vec<_>>()), state(&t, &[0, 1])];
        let (done, tally) = RunState::merge_shards(&parts).unwrap();
        assert_eq!(done, whole.done);
        assert_eq!(tally, whole.tally);
        let (i, why) = RunState::merge_shards(&[state(&t, &[0, 1]), state(&t, &[1])]).unwrap_err();
        assert_eq!(i, 1);
        assert!(why.contains("overlap"));
        let mut other = state(&t, &[2]);
        other.config = serde_json::json!({"run": 2});
        let (i, why) = RunState::merge_shards(&[state(&t, &[0]), other]).unwrap_err();
        assert_eq!(i, 1);
        assert!(why.contains("different run"));
    }
}
