//! Labels for a learned evaluation (`mtrain label`): positions from matches a bot plays, each
//! with what a network reads and what the true round says the position is worth.
//!
//! A label run plays `matches` matches with the position policy (`weighted` by default) in
//! every seat. At each decision of a match, one in `every` (drawn from the match's own label
//! stream) becomes a label, seen from a seat drawn at random (any seat, not only the one to
//! act: a search judges the worlds it reaches after its own move, where another seat is to
//! act). A label holds:
//!
//! - **features** (`x`, float32): the seat's observation tensor, exactly the Python package's
//!   `observation_tensor` ([`ObservationLayout`]: its hand, the tiles on the table, the trains,
//!   the hand sizes, the seats, the round), then every seat's hand (`players` blocks of one
//!   number per tile of the set, 1: held, seat 0 first): the hidden information a network
//!   judging a sampled world reads;
//! - **targets** (`y`, float32), from `rollouts` playouts of the true round to its end with the
//!   rollout policy (`weighted`, tuned for the preset, by default) in every seat, the boneyard
//!   shuffled afresh for each (its order is hidden from everybody): `margin`, the mean over
//!   the playouts of the other seats' mean round score minus the seat's own, in points (what
//!   `expert` maximises, over `players - 1`); `win`, the share of playouts in which the seat has
//!   the lowest round score (a tie shared); `own`, the mean round score of the seat; and
//!   `margin_sd`, the standard deviation of the margin over the playouts (0 with one playout);
//! - **meta** (`meta`, uint32): the match's number in the run, the round (from 1), the turns
//!   played in the round, the seat seen from and the seat to act.
//!
//! The matches are played in chunks of [`MATCHES_PER_CHUNK`]; each chunk's labels are three
//! `.npy` files (`labels-CHUNK.x.npy`, `.y.npy`, `.meta.npy`, CHUNK six digits) that depend
//! on the seed and the chunk alone, so a run is byte-identical at any thread count, shards of
//! it are disjoint sets of chunk files, and a resumed run only plays the chunks it lacks.

use crate::error::InvalidInput;
use crate::external::BotSetup;
use crate::game::{BotSeats, MatchSeeds, ObservationLayout, play_round, play_round_for};
pub use crate::net::files::{META, NpyElement, TARGETS, chunk_file, npy, read_npy};
use crate::rng::{GameRng, below, mix, rng_from_seed};
use crate::round::{MoveList, NoObserver, RoundState, Seat};
use crate::rules::{MAX_PLAYERS, Rules, TableSpec};
use crate::store::SelfChecked;
use crate::strategies::{Bot, Registry};
use crate::strategy::{MatchStart, Strategy, StrategySpec};
use crate::tile::Tile;
use crate::tournament::ChunkSet;
use serde::{Deserialize, Serialize};

/// The format of `label.json` this build reads and writes.
pub const LABEL_FORMAT: u32 = 1;

/// The `kind` a label run's state records.
pub const LABEL_KIND: &str = "label";

/// Matches in a chunk: the unit a run saves, shards and resumes by.
pub const MATCHES_PER_CHUNK: u64 = 4;

/// Largest accepted `rollouts`.
pub const MAX_ROLLOUTS: u32 = 1_000;

/// Largest accepted `every`.
pub const MAX_EVERY: u32 = 10_000;

/// The streams a label run draws from, apart from every stream a match uses.
mod stream {
    /// Which decisions become labels, and the seat each is seen from.
    pub(super) const PICK: u64 = 13 << 32;
    /// The playouts of the label taken at a match's `k`-th decision (`ROLLOUT + k`).
    pub(super) const ROLLOUT: u64 = 14 << 32;
}

/// What a label run is: the table, the bots, how many labels and their seed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelSpec {
    /// The table the matches are played at.
    pub table: TableSpec,
    /// The bot playing every seat of the matches the positions come from.
    pub policy: String,
    /// The bot playing every seat of the playouts that label them.
    pub rollout: String,
    /// Playouts per label.
    pub rollouts: u32,
    /// One decision in `every` becomes a label (on average).
    pub every: u32,
    /// Matches played.
    pub matches: u64,
    /// The run's seed: match `m` is dealt from `mix(seed, m)`.
    pub seed: u64,
}

/// A label run as its state stores it: the spec and the bots the command line added.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelConfig {
    /// The run.
    pub spec: LabelSpec,
    /// External programs and named specs the bots may name.
    pub bots: BotSetup,
}

/// A label run, checked and ready to play chunks.
pub struct Labeler {
    /// The spec.
    pub spec: LabelSpec,
    rules: Rules,
    layout: ObservationLayout,
    policy: StrategySpec,
    rollout: StrategySpec,
    registry: Registry,
}

/// The labels of one chunk, row-major.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chunk {
    /// Labels.
    pub rows: usize,
    /// Features, `rows` x [`Labeler::width`].
    pub x: Vec<f32>,
    /// Targets, `rows` x [`TARGETS`].
    pub y: Vec<f32>,
    /// Meta, `rows` x [`META`].
    pub meta: Vec<u32>,
}

impl Labeler {
    /// The run `spec` with the bots of `registry`.
    ///
    /// # Errors
    /// One line naming what is wrong: the table, a bot, or a count out of range.
    pub fn new(spec: &LabelSpec, registry: &Registry) -> Result<Labeler, InvalidInput> {
        let (rules, _) = spec.table.build().map_err(|e| InvalidInput(e.to_string()))?;
        let bot = |role: &str, s: &str| -> Result<StrategySpec, InvalidInput> {
            let parsed: StrategySpec = s.parse().map_err(|e| InvalidInput(format!("{role} '{s}': {e}")))?;
            registry.build(&parsed).map_err(|e| InvalidInput(format!("{role} '{s}': {e}")))?;
            Ok(parsed)
        };
        let policy = bot("--policy", &spec.policy)?;
        let rollout = bot("--rollout", &spec.rollout)?;
        if !(1..=MAX_ROLLOUTS).contains(&spec.rollouts) {
            return Err(InvalidInput(format!(
                "--rollouts {}: give a whole number from 1 to {MAX_ROLLOUTS} (playouts per label)",
                spec.rollouts
            )));
        }
        if !(1..=MAX_EVERY).contains(&spec.every) {
            return Err(InvalidInput(format!(
                "--every {}: give a whole number from 1 (every decision) to {MAX_EVERY}",
                spec.every
            )));
        }
        if spec.matches == 0 {
            return Err(InvalidInput("--matches 0: give at least one match".into()));
        }
        Ok(Labeler {
            spec: spec.clone(),
            layout: ObservationLayout::new(&rules),
            rules,
            policy,
            rollout,
            registry: registry.clone(),
        })
    }

    /// The rules the matches are played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Numbers in the observation tensor (the first block of the features).
    pub fn observation_len(&self) -> usize {
        self.layout.len()
    }

    /// Features per label: the observation tensor, then a hand block per seat.
    pub fn width(&self) -> usize {
        self.layout.len() + self.rules.players as usize * Tile::set_size(self.rules.set)
    }

    /// Chunks in the whole run.
    pub fn chunks(&self) -> u64 {
        self.spec.matches.div_ceil(MATCHES_PER_CHUNK)
    }

    /// The labels of chunk `c`, or `None` when `abandon` says to stop (checked before each
    /// match and once more at the end: a match played while searches were being cut short is
    /// not the match, so its chunk is dropped; a resume plays the chunk again).
    pub fn chunk(&self, c: u64, abandon: &dyn Fn() -> bool) -> Option<Chunk> {
        let mut out = Chunk::default();
        let first = c * MATCHES_PER_CHUNK;
        for m in first..(first + MATCHES_PER_CHUNK).min(self.spec.matches) {
            if abandon() {
                return None;
            }
            self.label_match(m, &mut out);
        }
        (!abandon()).then_some(out)
    }

    /// A bot of `spec` for `seat`, told of the match.
    fn bot(&self, spec: &StrategySpec, seat: usize, seeds: &MatchSeeds) -> Bot {
        let mut b = self.registry.build(spec).expect("checked by Labeler::new");
        let seed = if b.needs().rng { crate::rng::seeds::bot_public(seeds.bots[seat]) } else { 0 };
        b.match_start(&MatchStart { rules: &self.rules, seat: Seat::from_index(seat), game: seeds.game, seed });
        b
    }

    /// Plays match `m` and appends its labels to `out`.
    fn label_match(&self, m: u64, out: &mut Chunk) {
        self.visit_match(m, |pos, playout| self.label(&pos, playout, out));
    }

    /// Plays match `m` with the position policy and calls `f` at each decision the run labels
    /// (the same positions, seen from the same seats, as [`Labeler::chunk`] writes), with the
    /// rollout bots of the match. A study that judges positions its own way (the value
    /// network's quality, scripts/studies/value-quality.sh) reads them here.
    pub fn visit_match(&self, m: u64, mut f: impl FnMut(Position<'_>, &mut Playout)) {
        let match_seed = mix(self.spec.seed, m);
        let seeds = MatchSeeds { game: m, ..MatchSeeds::from_seed(match_seed) };
        let n = self.rules.players as usize;
        let bots: Vec<Option<Bot>> = (0..n).map(|s| Some(self.bot(&self.policy, s, &seeds))).collect();
        // The rollout bots are told of the match as a seat's bot is; each playout starts from
        // copies of them.
        let models: Vec<Bot> = (0..n).map(|s| self.bot(&self.rollout, s, &seeds)).collect();
        let mut playout = Playout { seats: models.clone(), models, moves: MoveList::new() };
        let (mut seats, mut st) = BotSeats::deal(&self.rules, &seeds, bots);
        let mut pick = rng_from_seed(mix(match_seed, stream::PICK));
        let mut decision = 0u64;
        while let Some(to_act) = st.current() {
            let take = below(&mut pick, u64::from(self.spec.every)) == 0;
            let seen = Seat::from_index(below(&mut pick, n as u64) as usize);
            if take {
                let round = st.round().expect("a seat to act means a round in play");
                let seed = mix(match_seed, stream::ROLLOUT + decision);
                let pos = Position { round, round_number: st.round_number(), to_act, seen, game: m, seed };
                f(pos, &mut playout);
            }
            decision += 1;
            seats.step_observed(&mut st, &mut NoObserver);
        }
    }

    /// Writes the features of `pos` (the seat's observation tensor, then every seat's hand)
    /// into `x`, [`Labeler::width`] numbers, all 0 beforehand.
    pub fn features(&self, pos: &Position<'_>, x: &mut [f32]) {
        let obs = self.layout.len();
        self.layout.write(&pos.round.view(pos.seen), pos.round_number, Some(pos.to_act), &mut x[..obs]);
        let tiles = Tile::set_size(self.rules.set);
        for s in 0..self.rules.players as usize {
            for t in pos.round.hand(Seat::from_index(s)).iter() {
                x[obs + s * tiles + t.index()] = 1.0;
            }
        }
    }

    /// Appends the label of `pos` to `out`.
    fn label(&self, pos: &Position<'_>, playout: &mut Playout, out: &mut Chunk) {
        let width = self.width();
        let start = out.x.len();
        out.x.resize(start + width, 0.0);
        self.features(pos, &mut out.x[start..]);
        let n = self.rules.players as usize;
        let (round, seen, seed) = (pos.round, pos.seen, pos.seed);
        let (mut sum, mut sq, mut wins, mut own) = (0f64, 0f64, 0f64, 0f64);
        for r in 0..self.spec.rollouts {
            let scores = playout.play(round, mix(seed, u64::from(r)));
            let mine = f64::from(scores[seen.index()]);
            let others: f64 = (0..n).filter(|&s| s != seen.index()).map(|s| f64::from(scores[s])).sum();
            let margin = others / (n - 1) as f64 - mine;
            sum += margin;
            sq += margin * margin;
            let low = scores[..n].iter().copied().min().unwrap_or(0);
            if scores[seen.index()] == low {
                wins += 1.0 / scores[..n].iter().filter(|&&s| s == low).count() as f64;
            }
            own += mine;
        }
        let k = f64::from(self.spec.rollouts);
        let mean = sum / k;
        let sd = if self.spec.rollouts > 1 { ((sq - sum * mean) / (k - 1.0)).max(0.0).sqrt() } else { 0.0 };
        out.y.extend([mean as f32, (wins / k) as f32, (own / k) as f32, sd as f32]);
        out.meta.extend([
            u32::try_from(pos.game).unwrap_or(u32::MAX),
            u32::from(pos.round_number),
            round.turns(),
            seen.index() as u32,
            pos.to_act.index() as u32,
        ]);
        out.rows += 1;
    }
}

/// A position a label run takes: the round in play, seen from `seen`.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    /// The true round (every hand, the boneyard).
    pub round: &'a RoundState,
    /// The round's number in the match, from 1.
    pub round_number: u8,
    /// The seat to act.
    pub to_act: Seat,
    /// The seat the label is seen from.
    pub seen: Seat,
    /// The match's number in the run.
    pub game: u64,
    /// The position's own seed: playout `r` of the label is played with `mix(seed, r)`.
    pub seed: u64,
}

/// The rollout bots of a match (one per seat, as told of the match) and the buffers of the
/// playouts from its positions.
pub struct Playout {
    /// The rollout bots as told of the match, one per seat.
    models: Vec<Bot>,
    /// The bots of the playout in progress.
    seats: Vec<Bot>,
    moves: MoveList,
}

impl Playout {
    /// The round scores of `round` played to its end with its boneyard shuffled by `seed`'s
    /// stream, each seat's bot drawing from a stream of its own.
    pub fn play(&mut self, round: &RoundState, seed: u64) -> [u32; MAX_PLAYERS] {
        self.cut(round, seed, u32::MAX).1.expect("a round played to its end")
    }

    /// [`Playout::play`] for at most `turns` turns: the round scores if the round ended within
    /// them, otherwise the scores the hands left would get ([`RoundState::hand_scores`]), as
    /// `expert`'s rollouts of depth `turns` judge the position they reach.
    pub fn play_for(&mut self, round: &RoundState, seed: u64, turns: u32) -> [u32; MAX_PLAYERS] {
        match self.cut(round, seed, turns) {
            (_, Some(scores)) => scores,
            (world, None) => world.hand_scores(),
        }
    }

    /// The playout [`Playout::play_for`] plays, and where it stopped: the round reached, and its
    /// scores if it ended.
    pub fn cut(&mut self, round: &RoundState, seed: u64, turns: u32) -> (RoundState, Option<[u32; MAX_PLAYERS]>) {
        let mut world = round.clone();
        let mut shuffle = rng_from_seed(mix(seed, MAX_PLAYERS as u64));
        world.reshuffle_boneyard(&mut shuffle);
        let n = self.models.len();
        for (bot, model) in self.seats.iter_mut().zip(&self.models) {
            bot.clone_from(model);
        }
        let mut rngs: [GameRng; MAX_PLAYERS] = std::array::from_fn(|s| rng_from_seed(mix(seed, s as u64)));
        let (seats, rngs) = (&mut self.seats[..n], &mut rngs[..n]);
        let ended = if turns == u32::MAX {
            Some(play_round(&mut world, seats, rngs, &mut self.moves, &mut NoObserver))
        } else {
            play_round_for(&mut world, seats, rngs, &mut self.moves, &mut NoObserver, turns)
        };
        (world, ended.map(|o| o.scores))
    }
}

impl Chunk {
    /// The chunk's three `.npy` files: `(suffix, bytes)` for `x`, `y` and `meta`, with `width`
    /// features a label.
    pub fn npy_files(&self, width: usize) -> [(&'static str, Vec<u8>); 3] {
        [
            ("x", npy(&self.x, "<f4", &[self.rows, width])),
            ("y", npy(&self.y, "<f4", &[self.rows, TARGETS.len()])),
            ("meta", npy(&self.meta, "<u4", &[self.rows, META.len()])),
        ]
    }
}

/// The state of a label run (`label.json`): the chunks written, with the same self-check as
/// every run's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelState {
    /// [`LABEL_FORMAT`].
    pub format: u32,
    /// [`LABEL_KIND`].
    pub kind: String,
    /// What the run is ([`LabelConfig`]).
    pub config: serde_json::Value,
    /// The shard this folder plays (`None`: the whole run).
    pub shard: Option<(u64, u64)>,
    /// Chunks in the whole run.
    pub chunks_total: u64,
    /// The chunks whose files are written.
    pub done: ChunkSet,
    /// Labels in those chunks.
    pub labels: u64,
    /// CRC-32 of the file's content with this field 0.
    #[serde(default)]
    pub check: u32,
}

impl SelfChecked for LabelState {
    fn check_field(&mut self) -> &mut u32 {
        &mut self.check
    }
}

impl LabelState {
    /// A new run of `config` playing `shard` of `chunks_total` chunks.
    pub fn new(config: &LabelConfig, shard: Option<(u64, u64)>, chunks_total: u64) -> LabelState {
        LabelState {
            format: LABEL_FORMAT,
            kind: LABEL_KIND.into(),
            config: serde_json::to_value(config).expect("serialisable"),
            shard,
            chunks_total,
            done: ChunkSet::default(),
            labels: 0,
            check: 0,
        }
    }

    /// Pretty JSON with its check.
    pub fn to_json(&self) -> String {
        self.checked_json()
    }

    /// Parses a `label.json`.
    ///
    /// # Errors
    /// A phrase naming the problem: another kind or format, damaged or edited.
    pub fn from_json(s: &str) -> Result<LabelState, InvalidInput> {
        let st: LabelState = serde_json::from_str(s)
            .map_err(|e| InvalidInput(format!("not a label run's state ({})", crate::error::json_problem(s, &e))))?;
        if st.kind != LABEL_KIND {
            return Err(InvalidInput(format!("it holds a {} run, not a label run", st.kind)));
        }
        if st.format != LABEL_FORMAT {
            return Err(InvalidInput(format!(
                "its label.json is format {}; this mtrain reads format {LABEL_FORMAT}",
                st.format
            )));
        }
        if !st.is_intact() {
            return Err(InvalidInput("its label.json was edited or damaged (its check does not match)".into()));
        }
        Ok(st)
    }

    /// The configuration it stores.
    ///
    /// # Errors
    /// The stored value describes no label run.
    pub fn config(&self) -> Result<LabelConfig, InvalidInput> {
        serde_json::from_value(self.config.clone())
            .map_err(|e| InvalidInput(format!("its label.json does not describe a label run ({e})")))
    }

    /// The chunks this state's shard plays.
    pub fn planned(&self) -> ChunkSet {
        ChunkSet::slice(self.chunks_total, self.shard)
    }

    /// Whether every chunk of its shard is written.
    pub fn complete(&self) -> bool {
        self.planned().0.iter().all(|&(a, b)| (a..b).all(|c| self.done.contains(c)))
    }
}
