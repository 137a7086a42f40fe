//! Running a tournament: chunks of deals in parallel on a rayon pool, folded in chunk order.
//!
//! Workers claim chunks in increasing order from a shared counter, so chunks finish roughly in
//! order; one collector folds them strictly in order. That makes the early-stopping point of the
//! SPRT independent of the thread count, keeps the per-game rows in game order, and bounds the
//! reorder buffer by the chunks in flight.
//!
//! Nothing on the hot path waits: a worker takes its next chunk with one atomic increment and
//! hands the finished ones to the collector over an unbounded channel, never waiting for it or
//! for a lock, and keeps its own scratch (`Worker`: move list, seated bots, deal accumulator,
//! match result) from game to game and chunk to chunk. The collector's work per chunk (merging a
//! tally) is a few hundred instructions against the millions of playing it.
//!
//! A worker hands its chunks over in batches, a batch at most [`HAND_OVER`] after its first
//! chunk began (so at once, when a chunk alone took that long): a chunk of fast games (16
//! one-round greedy games, some 50 µs) handed over alone woke the sleeping collector each time,
//! and those wake-ups took a quarter of a one-round tournament's CPU time (STEPS.md step 22).
//! Batches change when the collector sees a chunk, never which chunks it folds or in what
//! order, so the results are the same; a worker that stops hands over what it holds first.

use super::sprt::{Sprt, SprtState};
use super::{CHUNK_DEALS, DealAcc, Layout, PerGame, Schedule, Tally};
use crate::game::{MatchResult, MatchSeeds, play_match_reusing};
use crate::log::JsonLog;
use crate::rng::seeds;
use crate::round::MoveList;
use crate::round::NoObserver;
use crate::rules::{MAX_PLAYERS, Rules};
use crate::strategies::{Bot, Registry};
use crate::strategy::{SpecError, Strategy, StrategySpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// How long a worker may hold finished chunks before it hands them to the collector (see the
/// module docs): short against a checkpoint's period or a person watching the progress line,
/// long against the chunks of fast games.
const HAND_OVER: Duration = Duration::from_millis(2);

/// A tournament: rules, the field and the schedule.
#[derive(Clone, Debug)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct Tournament {
    /// Rules of every game.
    pub rules: Rules,
    /// The field, by spec.
    pub specs: Vec<StrategySpec>,
    /// Who plays which game.
    pub schedule: Schedule,
    protos: Vec<Bot>,
}

/// What one chunk produced.
#[derive(Clone, Debug)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct ChunkOutput {
    /// Chunk index.
    pub chunk: u64,
    /// Its statistics.
    pub tally: Tally,
    /// `games.csv` rows (empty unless per-game output is on).
    pub games_csv: Vec<u8>,
    /// `rounds.csv` rows (empty unless per-game output is on).
    pub(crate) rounds_csv: Vec<u8>,
    /// The full-information JSONL log of every game, one after another (empty unless game logs
    /// are on).
    pub(crate) games_jsonl: Vec<u8>,
    /// Decisions the bots took (calls to [`Strategy::choose`]) in the chunk's games.
    pub decisions: u64,
    /// Whether the chunk was cut short (a bot failed, here or in another chunk, or the run was
    /// told to cut): its statistics are partial and must not be counted.
    pub failed: bool,
    /// Whether a bot of this chunk failed.
    pub(crate) bot_failed: bool,
}

/// A worker's finished chunks not yet handed to the collector (see the module docs).
#[derive(Default)]
struct Held {
    chunks: Vec<ChunkOutput>,
    /// When the first of them began.
    since: Option<Instant>,
}

impl Held {
    /// Holds `out`, a chunk begun at `started`; returns the batch to hand over now: when `now`
    /// is [`HAND_OVER`] or more after the first held chunk began (so a chunk that alone took
    /// that long goes at once), or when `out` failed (the run is stopping).
    fn push(&mut self, out: ChunkOutput, started: Instant, now: Instant) -> Option<Vec<ChunkOutput>> {
        let since = *self.since.get_or_insert(started);
        let failed = out.failed;
        self.chunks.push(out);
        if failed || now.saturating_duration_since(since) >= HAND_OVER {
            self.since = None;
            Some(std::mem::take(&mut self.chunks))
        } else {
            None
        }
    }
}

/// A set of chunk indices as sorted, disjoint, non-adjacent half-open ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct ChunkSet(pub Vec<(u64, u64)>);

impl ChunkSet {
    /// Adds one chunk.
    pub fn insert(&mut self, c: u64) {
        self.insert_range(c, c + 1);
    }

    /// Adds `[a, b)`.
    pub(crate) fn insert_range(&mut self, a: u64, b: u64) {
        if a >= b {
            return;
        }
        self.0.push((a, b));
        self.0.sort_unstable();
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(self.0.len());
        for &(x, y) in &self.0 {
            match out.last_mut() {
                Some(last) if x <= last.1 => last.1 = last.1.max(y),
                _ => out.push((x, y)),
            }
        }
        self.0 = out;
    }

    /// Whether `c` is in the set.
    pub fn contains(&self, c: u64) -> bool {
        self.0.iter().any(|&(a, b)| a <= c && c < b)
    }

    /// Whether the two sets share a chunk.
    pub(crate) fn overlaps(&self, o: &ChunkSet) -> bool {
        self.0.iter().any(|&(a, b)| o.0.iter().any(|&(x, y)| a < y && x < b))
    }

    /// Number of chunks.
    pub fn len(&self) -> u64 {
        self.0.iter().map(|&(a, b)| b - a).sum()
    }

    /// Whether empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Slice `i` of `n` (from 1) of the chunks `0..total`, as a shard plays it: contiguous, the
    /// slices together exactly the whole; `None` is the whole.
    pub fn slice(total: u64, shard: Option<(u64, u64)>) -> ChunkSet {
        let (i, n) = shard.unwrap_or((1, 1));
        let mut s = ChunkSet::default();
        s.insert_range((i - 1) * total / n, i * total / n);
        s
    }

    /// Union.
    pub fn union(&mut self, o: &ChunkSet) {
        for &(a, b) in &o.0 {
            self.insert_range(a, b);
        }
    }
}

/// How to run.
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct RunOptions {
    /// Worker threads.
    pub threads: usize,
    /// Produce per-game CSV rows.
    pub per_game: bool,
    /// Early stopping for a two-bot field.
    pub sprt: Option<Sprt>,
    /// Set to stop scheduling (a signal); chunks in flight finish.
    pub stop: Arc<AtomicBool>,
    /// Set to cut the chunks in flight short as well (a second signal): they are discarded.
    pub cut: Arc<AtomicBool>,
    /// Who hears the games played.
    pub progress: Arc<dyn crate::store::Progress>,
    /// How often the run hands its state to the checkpoint callback (`None`: never).
    pub checkpoint: Option<Duration>,
    /// Write every game's JSONL log (`Some`: the `--rule` options the logs record).
    pub(crate) log_games: Option<Vec<(String, String)>>,
}

impl RunOptions {
    /// Options with nothing to stop or save: no SPRT, no per-game rows, no checkpoints, no
    /// progress bar.
    pub fn new(threads: usize) -> RunOptions {
        RunOptions {
            threads,
            per_game: false,
            sprt: None,
            stop: Arc::new(AtomicBool::new(false)),
            cut: Arc::new(AtomicBool::new(false)),
            progress: Arc::new(crate::store::Silent),
            checkpoint: None,
            log_games: None,
        }
    }
}

/// A chunk's tally and, per deal in order, `(x, m)` per cluster ([`Tournament::play_chunk_deals`]).
pub(crate) type DealTotals = (Tally, Vec<Vec<(u64, u64)>>);

/// What a run produced.
#[derive(Clone, Debug)]
#[doc(hidden)] // the runner's parts, for the integration tests
pub struct RunResult {
    /// Statistics of every completed chunk (plus the starting tally).
    pub tally: Tally,
    /// Chunks completed (plus those already done).
    pub done: ChunkSet,
    /// The SPRT after the last folded chunk.
    pub sprt: Option<SprtState>,
    /// Whether the run stopped before its chunks were all played (interrupted).
    pub interrupted: bool,
    /// Whether it stopped because a bot failed ([`Strategy::has_failed`]); the chunks it cut
    /// short are not counted.
    pub(crate) bot_failed: bool,
}
impl Tournament {
    /// A tournament; the specs must be valid bot specs (checked by the caller).
    ///
    /// # Panics
    /// Panics if a spec does not build.
    pub fn new(rules: Rules, specs: Vec<StrategySpec>, schedule: Schedule) -> Tournament {
        let protos = specs.iter().map(|s| Bot::from_spec(s).expect("validated bot spec")).collect();
        Tournament { rules, specs, schedule, protos }
    }

    /// A tournament whose bots come from `registry` (custom and external bots included).
    ///
    /// # Errors
    /// A spec the registry cannot build.
    pub(crate) fn with_registry(
        rules: Rules,
        specs: Vec<StrategySpec>,
        schedule: Schedule,
        registry: &Registry,
    ) -> Result<Tournament, SpecError> {
        let protos = specs.iter().map(|s| registry.build(s)).collect::<Result<_, _>>()?;
        Ok(Tournament { rules, specs, schedule, protos })
    }

    /// The statistics layout.
    pub fn layout(&self) -> Layout {
        Layout { bots: self.specs.len(), players: self.rules.players as usize }
    }

    /// Number of chunks.
    pub(crate) fn chunk_count(&self) -> u64 {
        self.schedule.deals.div_ceil(CHUNK_DEALS)
    }

    /// The deals of chunk `c`.
    pub(crate) fn chunk_deals(&self, c: u64) -> Range<u64> {
        c * CHUNK_DEALS..((c + 1) * CHUNK_DEALS).min(self.schedule.deals)
    }

    /// Games in chunk `c`.
    pub fn chunk_games(&self, c: u64) -> u64 {
        let d = self.chunk_deals(c);
        (d.end - d.start) * self.schedule.rotations()
    }

    /// Plays chunk `c`. No heap allocation per game, except the per-game rows when asked.
    pub fn play_chunk(&self, c: u64, per_game: bool) -> ChunkOutput {
        self.play_chunk_until(c, per_game, None, &AtomicBool::new(false), &mut Worker::new(self), None)
    }

    /// Plays chunk `c` unless `abandon` is set (then `None`), keeping every deal's totals as
    /// well: the chunk's tally and, per deal in order, `(x, m)` per cluster in
    /// [`Tally::clusters`] order. A paired comparison plays the same chunk under two rule sets
    /// and multiplies the two deals' totals.
    pub(crate) fn play_chunk_deals(&self, c: u64, abandon: &AtomicBool) -> Option<DealTotals> {
        let mut deals = Vec::new();
        let out = self.play_chunk_until(c, false, None, abandon, &mut Worker::new(self), Some(&mut deals));
        (!out.failed).then_some((out.tally, deals))
    }

    /// Plays chunk `c` unless `abandon` is set: it is checked after every game, and the chunk
    /// is cut short (marked [`ChunkOutput::failed`]) when it is set or a bot of this chunk
    /// fails. `w` is the calling thread's scratch, kept from chunk to chunk.
    fn play_chunk_until(
        &self,
        c: u64,
        per_game: bool,
        log: Option<&[(String, String)]>,
        abandon: &AtomicBool,
        w: &mut Worker,
        mut deals: Option<&mut Vec<Vec<(u64, u64)>>>,
    ) -> ChunkOutput {
        let layout = self.layout();
        let n = self.rules.players as usize;
        let mut tally = Tally::new(layout);
        let mut rows = per_game.then(PerGame::default);
        let mut games_jsonl = Vec::new();
        let mut decisions = 0u64;
        for d in self.chunk_deals(c) {
            for g in self.schedule.deal_games(d) {
                w.seat(self, &g.seats[..n]);
                let seeds = MatchSeeds {
                    seed: g.deal_seed,
                    deal: seeds::shuffles(g.deal_seed),
                    bots: std::array::from_fn(|s| if s < n { g.bot_seed(s) } else { 0 }),
                    game: g.game,
                };
                let r = &mut w.result;
                match log {
                    None => play_match_reusing(
                        &self.rules,
                        &seeds,
                        &mut w.seats,
                        &mut NoObserver,
                        &mut w.moves,
                        &mut w.state,
                        r,
                    ),
                    Some(options) => {
                        let names = (0..n).map(|s| self.specs[g.seats[s] as usize].to_string()).collect();
                        let mut jl =
                            JsonLog::new(&mut games_jsonl, names).with_options(options.to_vec()).with_game(g.game);
                        play_match_reusing(&self.rules, &seeds, &mut w.seats, &mut jl, &mut w.moves, &mut w.state, r);
                    }
                }
                let r = &w.result;
                let bot_failed = w.seats.iter().any(Strategy::has_failed);
                if bot_failed || abandon.load(Ordering::Relaxed) {
                    // The deal in progress is not counted: the worker's accumulator starts the
                    // next chunk empty.
                    w.acc.clear();
                    return ChunkOutput {
                        chunk: c,
                        tally,
                        games_csv: Vec::new(),
                        rounds_csv: Vec::new(),
                        games_jsonl,
                        decisions,
                        failed: true,
                        bot_failed,
                    };
                }
                decisions += w.acc.add_game(&g, r);
                if let Some(rows) = rows.as_mut() {
                    rows.add(self, &g, r);
                }
            }
            if let Some(deals) = deals.as_deref_mut() {
                deals.push(w.acc.cells().to_vec());
            }
            tally.fold(&mut w.acc);
        }
        let (games_csv, rounds_csv) = rows.map(PerGame::into_bytes).unwrap_or_default();
        ChunkOutput { chunk: c, tally, games_csv, rounds_csv, games_jsonl, decisions, failed: false, bot_failed: false }
    }

    /// Plays the chunks `todo` (ascending) on `opts.threads` threads, starting from `start` and
    /// `done`. Chunks are counted strictly in `todo` order: `on_chunk` sees each folded chunk in
    /// that order (for per-game output), and a run that stops early keeps only the chunks before
    /// the first one unfinished, so that what it saved is always `done` plus a prefix of `todo`
    /// (a resumed run then appends, and tests the SPRT at the same points). Every
    /// `opts.checkpoint`, and not in between, `on_checkpoint` sees the state so far.
    ///
    /// # Errors
    /// The first error a callback returns (the run stops scheduling).
    pub fn run<E>(
        &self,
        todo: &[u64],
        start: Tally,
        done: ChunkSet,
        opts: &RunOptions,
        mut on_chunk: impl FnMut(&ChunkOutput) -> Result<(), E>,
        mut on_checkpoint: impl FnMut(&RunResult) -> Result<(), E>,
    ) -> Result<RunResult, E> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.threads.max(1)).build().expect("thread pool");
        let next = AtomicUsize::new(0);
        let (tx, rx) = std::sync::mpsc::channel::<Vec<ChunkOutput>>();
        let mut result = RunResult { tally: start, done, sprt: None, interrupted: false, bot_failed: false };
        let mut error = None;
        let mut decided = false;
        std::thread::scope(|scope| {
            let next = &next;
            let stop = &opts.stop;
            let cut = &opts.cut;
            scope.spawn(move || {
                pool.scope(|s| {
                    for _ in 0..opts.threads.max(1) {
                        let tx = tx.clone();
                        s.spawn(move |_| {
                            let mut worker = Worker::new(self);
                            let mut held = Held::default();
                            loop {
                                if stop.load(Ordering::SeqCst) {
                                    break;
                                }
                                let i = next.fetch_add(1, Ordering::SeqCst);
                                let Some(&c) = todo.get(i) else { break };
                                let started = Instant::now();
                                let out = self.play_chunk_until(
                                    c,
                                    opts.per_game,
                                    opts.log_games.as_deref(),
                                    cut,
                                    &mut worker,
                                    None,
                                );
                                if out.bot_failed {
                                    // A bot failed: stop scheduling, and cut short the chunks
                                    // in flight (their games are replayed on resume).
                                    cut.store(true, Ordering::SeqCst);
                                    stop.store(true, Ordering::SeqCst);
                                }
                                if let Some(batch) = held.push(out, started, Instant::now())
                                    && tx.send(batch).is_err()
                                {
                                    return;
                                }
                            }
                            if !held.chunks.is_empty() {
                                let _ = tx.send(held.chunks);
                            }
                        });
                    }
                });
                drop(tx);
            });
            // Collector: fold strictly in `todo` order.
            let mut buffer: BTreeMap<u64, ChunkOutput> = BTreeMap::new();
            let mut pos = 0usize;
            let mut last_checkpoint = Instant::now();
            loop {
                let received = match opts.checkpoint {
                    Some(every) => {
                        let wait = (last_checkpoint + every).saturating_duration_since(Instant::now());
                        match rx.recv_timeout(wait) {
                            Ok(out) => Some(out),
                            Err(RecvTimeoutError::Timeout) => None,
                            Err(RecvTimeoutError::Disconnected) => break,
                        }
                    }
                    None => match rx.recv() {
                        Ok(out) => Some(out),
                        Err(_) => break,
                    },
                };
                for out in received.into_iter().flatten() {
                    if out.failed {
                        result.bot_failed |= out.bot_failed;
                        continue;
                    }
                    buffer.insert(out.chunk, out);
                    while let Some(&c) = todo.get(pos) {
                        let Some(out) = buffer.remove(&c) else { break };
                        pos += 1;
                        if decided || error.is_some() {
                            continue;
                        }
                        result.tally.merge(&out.tally);
                        result.done.insert(out.chunk);
                        opts.progress.advance(self.chunk_games(out.chunk));
                        if let Err(e) = on_chunk(&out) {
                            error = Some(e);
                            opts.stop.store(true, Ordering::SeqCst);
                            continue;
                        }
                        if let Some(t) = &opts.sprt {
                            let st = t.state(result.tally.pair_score(0, 1));
                            result.sprt = Some(st);
                            if st.decision.is_some() {
                                decided = true;
                                opts.stop.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                }
                if let Some(every) = opts.checkpoint
                    && error.is_none()
                    && last_checkpoint.elapsed() >= every
                {
                    if let Err(e) = on_checkpoint(&result) {
                        error = Some(e);
                        opts.stop.store(true, Ordering::SeqCst);
                    }
                    last_checkpoint = Instant::now();
                }
            }
            // Chunks finished after a gap are dropped: they are played again on resume.
        });
        if let Some(e) = error {
            return Err(e);
        }
        let all_done = todo.iter().all(|&c| result.done.contains(c));
        result.interrupted = !all_done && !decided;
        Ok(result)
    }
}

/// A worker thread's scratch, kept from game to game and chunk to chunk: the move list, the
/// bots at the table and the deal accumulator. Nothing in it is sized per game: the move list
/// is set up once per thread instead of once per game, and the seats are reset in place.
struct Worker {
    moves: Box<MoveList>,
    /// One instance per field bot and seat: the seating order changes which bot sits where from
    /// deal to deal, and moving instances in and out (each reset from its prototype, same kind,
    /// before a game) keeps a search bot's buffers instead of reallocating them.
    pool: Vec<Vec<Bot>>,
    /// The bots at the table.
    seats: Vec<Bot>,
    /// Which pool instance (field bot, copy) sits in each seat; the pool keeps a stand-in there.
    taken: Vec<(u16, u8)>,
    next: Vec<u8>,
    acc: DealAcc,
    result: MatchResult,
    /// The round state, dealt again in place for every round of every game.
    state: Option<crate::round::RoundState>,
}

impl Worker {
    fn new(t: &Tournament) -> Worker {
        let n = t.rules.players as usize;
        let mut w = Worker {
            moves: Box::new(MoveList::new()),
            pool: t.protos.iter().map(|p| vec![p.clone(); n]).collect(),
            seats: (0..n).map(|_| t.protos[0].clone()).collect(),
            taken: vec![(0, 0); n],
            next: vec![0; t.protos.len()],
            acc: DealAcc::new(t.layout()),
            result: MatchResult::empty(t.rules.players),
            state: None,
        };
        // Seat 0..n hold instances (0, 0..n) of the first bot: swap them in.
        for s in 0..n {
            std::mem::swap(&mut w.seats[s], &mut w.pool[0][s]);
            w.taken[s] = (0, s as u8);
        }
        w
    }

    /// Seats field bots `lineup` (one per seat) and resets each from its prototype. An instance
    /// already in the right seat stays; only a changed seating moves instances.
    fn seat(&mut self, t: &Tournament, lineup: &[u16]) {
        self.next.fill(0);
        let mut want = [(0u16, 0u8); MAX_PLAYERS];
        for (s, &b) in lineup.iter().enumerate() {
            let k = self.next[b as usize];
            self.next[b as usize] += 1;
            want[s] = (b, k);
        }
        if want[..lineup.len()] != self.taken[..] {
            // Every instance back to the pool, then the wanted ones out.
            for (s, bot) in self.seats.iter_mut().enumerate() {
                let (b, k) = self.taken[s];
                std::mem::swap(bot, &mut self.pool[b as usize][k as usize]);
            }
            for (s, bot) in self.seats.iter_mut().enumerate() {
                let (b, k) = want[s];
                std::mem::swap(bot, &mut self.pool[b as usize][k as usize]);
                self.taken[s] = (b, k);
            }
        }
        for (s, bot) in self.seats.iter_mut().enumerate() {
            bot.clone_from(&t.protos[self.taken[s].0 as usize]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_chunks_are_handed_over_in_batches_of_at_most_the_hand_over_time() {
        let out = |chunk: u64, failed: bool| ChunkOutput {
            chunk,
            tally: Tally::new(Layout { bots: 1, players: 4 }),
            games_csv: Vec::new(),
            rounds_csv: Vec::new(),
            games_jsonl: Vec::new(),
            decisions: 0,
            failed,
            bot_failed: false,
        };
        let t0 = Instant::now();
        let ms = |k: u64| t0 + Duration::from_micros(k * 1000);
        let chunks = |b: Option<Vec<ChunkOutput>>| b.map(|b| b.iter().map(|o| o.chunk).collect::<Vec<_>>());
        let mut held = Held::default();
        // Fast chunks (0.5 ms each) are held until 2 ms after the first began.
        assert_eq!(chunks(held.push(out(0, false), ms(0), t0 + Duration::from_micros(500))), None);
        assert_eq!(chunks(held.push(out(1, false), ms(1), ms(1) + Duration::from_micros(500))), None);
        assert_eq!(chunks(held.push(out(2, false), ms(1) + Duration::from_micros(500), ms(2))), Some(vec![0, 1, 2]));
        // A chunk that alone took the hand-over time goes at once, and so does a failed one.
        assert_eq!(chunks(held.push(out(3, false), ms(3), ms(6))), Some(vec![3]));
        assert_eq!(chunks(held.push(out(4, false), ms(6), ms(6) + Duration::from_micros(100))), None);
        assert_eq!(chunks(held.push(out(5, true), ms(6), ms(6) + Duration::from_micros(200))), Some(vec![4, 5]));
        assert!(held.chunks.is_empty() && held.since.is_none());
    }

    #[test]
    fn a_chunk_cut_mid_deal_leaves_the_worker_clean() {
        // Two bots at two seats: every deal is two games (the seats swapped).
        let rules = Rules { players: 2, ..Rules::wikipedia() };
        let specs: Vec<StrategySpec> = ["greedy", "planner"].iter().map(|s| s.parse().unwrap()).collect();
        let t = Tournament::new(rules, specs, Schedule::new(&[0, 1], 2, true, 4 * CHUNK_DEALS, 9).unwrap());
        assert_eq!(t.schedule.rotations(), 2);
        let mut w = Worker::new(&t);
        // A deal's first game accumulated, then the chunk cut (as a signal or another chunk's
        // failing bot can do between two games); then chunk 1 on the same worker.
        let mut bots = [Bot::parse("greedy").unwrap(), Bot::parse("planner").unwrap()];
        let first = crate::game::play_match(&t.rules, 1, &mut bots, &mut NoObserver);
        w.acc.add_game(&t.schedule.game(0), &first);
        let cut = t.play_chunk_until(0, false, None, &AtomicBool::new(true), &mut w, None);
        assert!(cut.failed && !cut.bot_failed && cut.tally.games == 0);
        let next = t.play_chunk_until(1, true, None, &AtomicBool::new(false), &mut w, None);
        let fresh = t.play_chunk(1, true);
        assert_eq!(next.tally, fresh.tally);
        assert_eq!(next.games_csv, fresh.games_csv);
        assert_eq!(next.decisions, fresh.decisions);
        assert!(fresh.decisions > 0);
    }

    #[test]
    fn chunk_sets_merge_ranges() {
        let mut s = ChunkSet::default();
        for c in [5, 1, 2, 3, 7, 6] {
            s.insert(c);
        }
        assert_eq!(s.0, vec![(1, 4), (5, 8)]);
        assert!(s.contains(6) && !s.contains(4));
        assert_eq!(s.len(), 6);
        let mut o = ChunkSet::default();
        o.insert(4);
        assert!(!s.overlaps(&o));
        s.union(&o);
        assert_eq!(s.0, vec![(1, 8)]);
        assert!(s.overlaps(&o));
        // Slices of a run: contiguous, disjoint, together the whole.
        for total in [0u64, 1, 7, 100] {
            for n in 1..=5u64 {
                let mut all = ChunkSet::default();
                for i in 1..=n {
                    let part = ChunkSet::slice(total, Some((i, n)));
                    assert!(part.0.len() <= 1 && !all.overlaps(&part));
                    all.union(&part);
                }
                assert_eq!(all.len(), total);
                assert_eq!(all, ChunkSet::slice(total, None));
            }
        }
    }
}
