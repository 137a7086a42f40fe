//! `mtrain eval`: the standard evaluation "mtrain-eval v1", a fixed protocol that rates one
//! submitted bot (the candidate) against frozen baselines.
//!
//! **The protocol is data** ([`Protocol`], [`V1`], [`QUICK`]): the presets and the set, the
//! table sizes, the baselines (each pinned by name, version and its full spec, every parameter
//! explicit, so that a later change of a bot's defaults cannot move it), how the seats are
//! filled, the match length, the games per cell, the seeds (derived from the protocol's name)
//! and the statistic. `mtrain eval --protocol` prints it, and every result's manifest holds it.
//!
//! **Cells.** One cell per preset, table size and baseline. Two players: the candidate against
//! the baseline, every deal played twice with the seats swapped (duplicate). Four players: two
//! candidate seats and two baseline seats alternating around the table, every deal played in
//! its four rotations, so each of the candidate's seats plays each of the baseline's hands.
//! Every baseline of a preset and table size meets the candidate on the same deals.
//!
//! **Statistics.** Per cell, the candidate's head-to-head score against the baseline (finishing
//! ahead counts 1, level 1/2, per pair of candidate and baseline seats at a table) with its 95%
//! interval over deals, and the Elo difference of the Bradley-Terry fit of the tournaments'
//! ratings ([`crate::tournament::ratings`], baseline = 0) with its 95% interval. The **rating**
//! places the candidate on one scale with the baselines: each baseline has a frozen rating per
//! preset and table size on the scale where `greedy` is 0 ([`Protocol::league`], measured once
//! by the leaderboard study under the protocol and part of it); each cell gives an estimate of
//! the candidate's rating, that rating plus the Elo difference, and the estimates of a preset
//! and table size are combined with inverse-variance weights (a standard error below 1 Elo
//! counts as 1). The overall rating is the plain mean over the four presets and table sizes.

use crate::error::InvalidInput;
use crate::external::BotSetup;
use crate::rules::TableSpec;
use crate::stats::Z95;
use crate::store::SelfChecked;
use crate::strategies::Registry;
use crate::strategy::StrategySpec;
use crate::tournament::{CellState, ChunkSet, Layout, RunOptions, Schedule, Seating, SweepState, Tally, Tournament};
use serde::{Deserialize, Serialize};

/// The protocol's name: the version every result and manifest names.
pub const VERSION: &str = "mtrain-eval v1";

/// What [`EvalState::kind`] says.
pub const EVAL_KIND: &str = "eval";

/// The version of `eval.json`'s layout.
pub const EVAL_FORMAT: u32 = 1;

/// One frozen baseline: the name results show, its version within the protocol, its full
/// spec, and the fingerprint of its play ([`fingerprint`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Baseline {
    /// The name results show, and the bot's name in the registry.
    pub name: &'static str,
    /// The name the evaluation registers the frozen spec under (`greedy-v1`), so that a
    /// candidate of the same bot is still a bot of its own.
    pub alias: &'static str,
    /// The full spec, every parameter explicit.
    pub spec: &'static str,
    /// [`fingerprint`] of the spec, as committed: a change of the bot's play changes it.
    pub fingerprint: &'static str,
}

/// The baselines of v1, weakest first.
pub const BASELINES: [Baseline; 5] = [
    Baseline { name: "random", alias: "random-v1", spec: "random", fingerprint: "0a13fa0c" },
    Baseline { name: "greedy", alias: "greedy-v1", spec: "greedy:ties=first", fingerprint: "e9ac54d0" },
    Baseline { name: "planner", alias: "planner-v1", spec: "planner", fingerprint: "d0e8b570" },
    Baseline {
        name: "weighted",
        alias: "weighted-v1",
        spec: "weighted:set=wikipedia,pips=0.462543,urgent=1.687504,double=0.437424,open_double=0.57154,own=-0.975204,unmark=1.710909,mexican=1.422504,other=1.074482,plan=1.007879,plan_tile=-2.949265,follow=1.106573,void_end=0.17044,unplayed=-0.515532",
        fingerprint: "ebf073e2",
    },
    Baseline {
        name: "expert",
        alias: "expert-v1",
        spec: "expert:samples=31,ms=0,infer=draws,temp=0.25,pool=8,alloc=halving,depth=12,leaf=hands,net=builtin,prior=5,rollout=weighted,score=margin",
        fingerprint: "8a84b72c",
    },
];

/// The presets every evaluation plays.
pub const PRESETS: [&str; 2] = ["wikipedia", "dominorules"];

/// The set: double-12.
pub const SET: u8 = 12;

/// The table sizes.
pub const PLAYERS: [u8; 2] = [2, 4];

/// A protocol: v1 or its quick variant.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Protocol {
    /// Its name (`mtrain-eval v1`, or the quick variant's, which is not v1).
    pub name: &'static str,
    /// Rounds per match: the first `rounds` doubles from 12 down.
    pub rounds: u8,
    /// Games per cell at two players (each seat order of a deal is one game).
    pub games_2p: u64,
    /// Games per cell at four players (each rotation of a deal is one game).
    pub games_4p: u64,
    /// The baselines' frozen ratings on the scale where `greedy` is 0, per preset and table
    /// size in [`Protocol::groups`] order, per baseline in [`BASELINES`] order.
    pub league: [[f64; 5]; 4],
}

/// The frozen ratings of the baselines (greedy = 0) per preset and table size: minus the Elo
/// differences of `mtrain eval --bot greedy` under v1 (greedy's row of the leaderboard,
/// `scripts/studies/eval-leaderboard.sh`), frozen with the protocol.
const LEAGUE_V1: [[f64; 5]; 4] = [
    [-60.2, 0.0, 153.4, 309.2, 342.1],
    [-122.6, 0.0, 80.1, 316.0, 330.5],
    [-51.9, 0.0, 160.0, 290.2, 345.9],
    [-124.9, 0.0, 48.2, 265.8, 261.6],
];

/// mtrain-eval v1: 3-round matches, 640 games a cell at two players (320 deals) and 384 at
/// four (96 deals).
pub const V1: Protocol = Protocol { name: VERSION, rounds: 3, games_2p: 640, games_4p: 384, league: LEAGUE_V1 };

/// The quick variant, for smoke tests: the same cells with 2-round matches and 32 games a
/// cell. Its figures are NOT v1 figures.
pub const QUICK: Protocol = Protocol {
    name: "mtrain-eval v1-quick (smoke test, not v1)",
    rounds: 2,
    games_2p: 32,
    games_4p: 32,
    league: LEAGUE_V1,
};

/// Where a preset and table size are in [`Protocol::groups`].
fn group_index(preset: usize, players: usize) -> usize {
    preset * PLAYERS.len() + players
}

impl Protocol {
    /// The protocol `quick` names.
    pub fn of(quick: bool) -> &'static Protocol {
        if quick { &QUICK } else { &V1 }
    }

    /// The master seed: the CRC-32 of the protocol's name, so a new version plays new deals.
    pub fn seed(&self) -> u64 {
        u64::from(crc32fast::hash(self.name.as_bytes()))
    }

    /// The seed of a preset and table size: every baseline of it plays the same deals.
    pub fn group_seed(&self, preset: &str, players: u8) -> u64 {
        u64::from(crc32fast::hash(format!("{}/{preset}/{players}", self.name).as_bytes()))
    }

    /// The games of a cell at `players`.
    pub fn games(&self, players: u8) -> u64 {
        if players == 2 { self.games_2p } else { self.games_4p }
    }

    /// The presets and table sizes, in order.
    pub fn groups(&self) -> Vec<(&'static str, u8)> {
        PRESETS.iter().flat_map(|&p| PLAYERS.iter().map(move |&n| (p, n))).collect()
    }

    /// The cells, in play order: preset, table size, baseline.
    pub fn cells(&self) -> Vec<Cell> {
        let mut out = Vec::new();
        for (pi, &preset) in PRESETS.iter().enumerate() {
            for (ni, &players) in PLAYERS.iter().enumerate() {
                for (b, base) in BASELINES.iter().enumerate() {
                    out.push(Cell { preset, players, baseline: b, group: group_index(pi, ni), base: *base });
                }
            }
        }
        out
    }

    /// The protocol as data (JSON), as the manifest holds it.
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::json!({
            "protocol": self.name,
            "presets": PRESETS,
            "set": SET,
            "players": PLAYERS,
            "rounds_per_match": self.rounds,
            "games_per_cell": {"2": self.games_2p, "4": self.games_4p},
            "seats": {
                "2": "candidate and baseline, every deal played with both seat orders (duplicate)",
                "4": "candidate, baseline, candidate, baseline around the table, every deal in its 4 rotations (duplicate)",
            },
            "seed": self.seed(),
            "group_seeds": self.groups().iter().map(|&(p, n)| serde_json::json!({"preset": p, "players": n, "seed": self.group_seed(p, n)})).collect::<Vec<_>>(),
            "baselines": BASELINES,
            "league": self.groups().iter().zip(&self.league).map(|(&(p, n), r)| serde_json::json!({
                "preset": p, "players": n,
                "ratings": BASELINES.iter().zip(r).map(|(b, x)| (b.name.to_string(), serde_json::json!(x))).collect::<serde_json::Map<_, _>>(),
            })).collect::<Vec<_>>(),
            "statistic": "per cell: head-to-head score (ahead 1, level 1/2) with a 95% interval over deals, and the Elo difference of the Bradley-Terry fit (baseline = 0) with its 95% sandwich interval over deals; rating: per preset and table size the inverse-variance weighted mean over baselines of (frozen baseline rating + Elo difference), greedy = 0; overall: the mean over presets and table sizes",
        })
    }

    /// The protocol in words, as `mtrain eval --protocol` prints it.
    pub fn text(&self) -> String {
        let mut s = format!("{}\n", self.name);
        s.push_str(&format!("  presets      {} (double-{SET})\n", PRESETS.join(", ")));
        s.push_str(&format!(
            "  tables       2 players: candidate vs baseline, each deal with both seat orders ({} games a cell)\n",
            self.games_2p
        ));
        s.push_str(&format!(
            "               4 players: candidate, baseline, candidate, baseline; each deal in its 4 rotations ({} games a cell)\n",
            self.games_4p
        ));
        s.push_str(&format!("  matches      {} rounds (doubles 12 down to {})\n", self.rounds, 13 - self.rounds));
        s.push_str(&format!(
            "  seed         {} (CRC-32 of the protocol's name; per preset and table size: of name/preset/players)\n",
            self.seed()
        ));
        s.push_str("  baselines    (frozen specs; fingerprint of a fixed match set)\n");
        for b in &BASELINES {
            s.push_str(&format!("    {:<9} {}  [{}]\n", b.name, b.spec, b.fingerprint));
        }
        s.push_str("  league       frozen baseline ratings, greedy = 0\n");
        s.push_str(&format!(
            "    {:<12} {:>7} {}\n",
            "preset",
            "players",
            BASELINES.iter().map(|b| format!("{:>9}", b.name)).collect::<String>()
        ));
        for (&(p, n), r) in self.groups().iter().zip(&self.league) {
            s.push_str(&format!("    {p:<12} {n:>7} {}\n", r.iter().map(|x| format!("{x:>+9.0}")).collect::<String>()));
        }
        s.push_str(
            "  statistic    per cell: the candidate's head-to-head score (ahead 1, level 1/2) and its Elo difference\n",
        );
        s.push_str("               (Bradley-Terry, baseline = 0) with 95% intervals over deals; rating: per preset and table\n");
        s.push_str("               size, the inverse-variance mean of (baseline rating + Elo difference); overall: their mean\n");
        s
    }
}

/// One cell of an evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Cell {
    /// The preset.
    pub preset: &'static str,
    /// Seats.
    pub players: u8,
    /// Index into [`BASELINES`].
    pub baseline: usize,
    /// Index into [`Protocol::groups`].
    pub group: usize,
    /// The baseline.
    pub base: Baseline,
}

/// The registry `base` with the frozen baselines added under their aliases.
///
/// # Errors
/// A baseline's name already taken (an external bot or `--name` named like it).
pub fn with_baselines(base: &Registry) -> Result<Registry, InvalidInput> {
    let mut r = base.clone();
    for b in &BASELINES {
        if r.get(b.alias).is_some() {
            return Err(InvalidInput(format!(
                "the name '{}' is the frozen baseline {}'s in the evaluation: give your bot another name",
                b.alias, b.name
            )));
        }
        r.alias(b.alias, b.spec).map_err(|e| InvalidInput(format!("the baseline {}: {e}", b.name)))?;
    }
    Ok(r)
}

/// The tournament of `cell` for a candidate `candidate` under `p`.
fn cell_tournament(
    p: &Protocol,
    cell: &Cell,
    candidate: &StrategySpec,
    registry: &Registry,
) -> Result<Tournament, InvalidInput> {
    let table = TableSpec {
        preset: cell.preset.to_string(),
        set: SET,
        players: cell.players,
        hand: None,
        rounds: Some(p.rounds),
        rules: Vec::new(),
    };
    let (rules, _) = table.build().map_err(|e| InvalidInput(e.to_string()))?;
    let base = StrategySpec { name: cell.base.alias.to_string(), params: Vec::new() };
    let specs = vec![candidate.clone(), base];
    let entries: Vec<u16> = (0..cell.players).map(|s| u16::from(s % 2)).collect();
    let seating =
        Seating { rotate: true, vary_order: false, deterministic: registry.deterministic(&specs), gauntlet: None };
    let schedule = Schedule::with_seating(
        &entries,
        cell.players,
        seating,
        p.games(cell.players),
        p.group_seed(cell.preset, cell.players),
    )
    .map_err(|e| InvalidInput(e.to_string()))?;
    Tournament::with_registry(rules, specs, schedule, registry).map_err(|e| InvalidInput(e.to_string()))
}

/// What an evaluation is asked to be: the candidate's spec and the protocol (plain data, what
/// a resumed run is rebuilt from).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalSpec {
    /// The candidate, a bot spec (a built-in, a `--name`, an external bot).
    pub bot: String,
    /// The quick variant instead of v1.
    pub quick: bool,
    /// The protocol's name, checked on resume (empty: the protocol `quick` names, filled in
    /// by the front door).
    #[serde(default)]
    pub protocol: String,
}

impl EvalSpec {
    /// An evaluation of `bot` under v1 (or its quick variant).
    pub fn new(bot: &str, quick: bool) -> EvalSpec {
        EvalSpec { bot: bot.to_string(), quick, protocol: Protocol::of(quick).name.to_string() }
    }
}

/// What an evaluation's state stores to rebuild it: its spec and the bots it adds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalConfig {
    /// The evaluation.
    pub spec: EvalSpec,
    /// The external bots and named specs.
    pub bots: BotSetup,
}

/// A checked evaluation.
#[derive(Clone, Debug)]
pub struct Evaluation {
    /// The protocol.
    pub protocol: &'static Protocol,
    /// The candidate, canonical.
    pub candidate: StrategySpec,
    /// The candidate as given.
    pub name: String,
    /// The candidate's full spec (the named spec of a `--name`).
    pub full_spec: String,
    /// The cells.
    pub cells: Vec<Cell>,
    /// The registry with the baselines.
    pub registry: Registry,
}

impl Evaluation {
    /// Checks an evaluation: the candidate one bot the registry knows.
    ///
    /// # Errors
    /// One line naming the problem.
    pub fn new(spec: &EvalSpec, registry: &Registry) -> Result<Evaluation, InvalidInput> {
        let protocol = Protocol::of(spec.quick);
        if spec.protocol != protocol.name {
            return Err(InvalidInput(format!(
                "it was made under the protocol '{}', and this mtrain evaluates under '{}'",
                spec.protocol, protocol.name
            )));
        }
        let registry = with_baselines(registry)?;
        let field = registry.field(&spec.bot).map_err(|e| InvalidInput(format!("--bot: {e}")))?;
        if field.entries.len() != 1 {
            return Err(InvalidInput(format!(
                "--bot '{}' is not one bot but {}: give one name or name:key=value spec",
                spec.bot,
                field.entries.len()
            )));
        }
        let candidate = field.bots[0].clone();
        let full_spec = registry.full_spec(&candidate);
        Ok(Evaluation { protocol, candidate, name: spec.bot.clone(), full_spec, cells: protocol.cells(), registry })
    }

    /// The tournament of cell `i`.
    ///
    /// # Errors
    /// A bot the registry cannot build.
    pub fn tournament(&self, i: usize) -> Result<Tournament, InvalidInput> {
        cell_tournament(self.protocol, &self.cells[i], &self.candidate, &self.registry)
    }

    /// The state of a new evaluation described by `config`.
    pub fn new_state(&self, config: serde_json::Value) -> Result<EvalState, InvalidInput> {
        let mut cells = Vec::new();
        for i in 0..self.cells.len() {
            let t = self.tournament(i)?;
            let total = t.schedule.deals.div_ceil(crate::tournament::CHUNK_DEALS);
            cells.push(CellState {
                players: self.cells[i].players,
                hand: 0,
                chunks_total: total,
                chunks_planned: ChunkSet(vec![(0, total)]),
                done: ChunkSet::default(),
                tally: Tally::new(Layout { bots: 2, players: self.cells[i].players as usize }),
            });
        }
        Ok(EvalState { format: EVAL_FORMAT, kind: EVAL_KIND.to_string(), config, cells, check: 0 })
    }

    /// Checks a stored state against this evaluation.
    ///
    /// # Errors
    /// A phrase naming what does not match.
    pub fn check_state(&self, st: &EvalState) -> Result<(), InvalidInput> {
        let mut same = st.cells.len() == self.cells.len();
        for (i, (c, e)) in st.cells.iter().zip(&self.cells).enumerate() {
            let chunks = self.tournament(i)?.schedule.deals.div_ceil(crate::tournament::CHUNK_DEALS);
            same &= c.players == e.players && c.tally.layout.bots == 2 && c.chunks_total == chunks;
        }
        if !same {
            return Err(InvalidInput("its eval.json describes other cells".into()));
        }
        Ok(())
    }

    /// The games planned in all.
    pub fn planned_games(&self, st: &EvalState) -> Result<u64, InvalidInput> {
        let mut total = 0;
        for (i, c) in st.cells.iter().enumerate() {
            let t = self.tournament(i)?;
            total += (0..c.chunks_total).map(|k| t.chunk_games(k)).sum::<u64>();
        }
        Ok(total)
    }

    /// Plays what `st` has left, cell after cell, `opts.threads` chunks at a time, folded in
    /// chunk order (the state is a function of the chunks played, never of the threads).
    /// `on_cell` hears which cell starts; `save` sees the state at every checkpoint. Returns
    /// whether it stopped before the end.
    ///
    /// # Errors
    /// The first error `save` returns, or a bot the registry cannot build.
    pub fn play<E: From<InvalidInput>>(
        &self,
        st: &mut EvalState,
        opts: &RunOptions,
        on_cell: impl FnMut(usize),
        save: impl Fn(&EvalState) -> Result<(), E>,
    ) -> Result<bool, E> {
        let mut sweep = SweepState {
            format: crate::tournament::SWEEP_FORMAT,
            kind: EVAL_KIND.to_string(),
            config: st.config.clone(),
            shard: None,
            cells: std::mem::take(&mut st.cells),
            check: 0,
        };
        let wrap = |s: &SweepState| EvalState {
            format: EVAL_FORMAT,
            kind: EVAL_KIND.to_string(),
            config: s.config.clone(),
            cells: s.cells.clone(),
            check: 0,
        };
        let result = sweep.play(
            opts,
            |i| self.tournament(i).map_err(E::from),
            on_cell,
            |_, _| None,
            |_, _| {},
            |s| save(&wrap(s)),
        );
        st.cells = sweep.cells;
        result
    }

    /// The results of a complete state: a row per cell, then the ratings.
    pub fn results(&self, st: &EvalState) -> Results {
        let mut cells = Vec::new();
        for (c, s) in self.cells.iter().zip(&st.cells) {
            cells.push(CellResult::of(c, &s.tally));
        }
        let mut groups = Vec::new();
        for (g, &(preset, players)) in self.protocol.groups().iter().enumerate() {
            let (mut sw, mut swx) = (0.0, 0.0);
            for r in cells.iter().filter(|r| r.group == g) {
                if !r.elo.is_finite() || !r.se.is_finite() {
                    continue;
                }
                let se = r.se.max(1.0);
                let w = 1.0 / (se * se);
                sw += w;
                swx += w * (self.protocol.league[g][r.baseline] + r.elo);
            }
            let (rating, se) = if sw > 0.0 { (swx / sw, (1.0 / sw).sqrt()) } else { (f64::NAN, f64::NAN) };
            groups.push(RatingRow { preset: preset.to_string(), players: players.to_string(), rating, se });
        }
        let k = groups.len() as f64;
        let rating = groups.iter().map(|g| g.rating).sum::<f64>() / k;
        let se = groups.iter().map(|g| g.se * g.se).sum::<f64>().sqrt() / k;
        groups.push(RatingRow { preset: "all".into(), players: "all".into(), rating, se });
        Results { cells, ratings: groups }
    }
}

/// One cell's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct CellResult {
    /// The preset.
    pub preset: &'static str,
    /// Seats.
    pub players: u8,
    /// Index into [`BASELINES`].
    pub baseline: usize,
    /// Index into the groups.
    pub group: usize,
    /// Games played.
    pub games: u64,
    /// Head-to-head comparisons between a candidate seat and a baseline seat.
    pub comparisons: u64,
    /// The candidate's score and its 95% interval.
    pub score: (f64, f64, f64),
    /// The Elo difference (candidate − baseline).
    pub elo: f64,
    /// Its 95% interval.
    pub elo_lo: f64,
    /// Its 95% interval.
    pub elo_hi: f64,
    /// Its standard error.
    pub se: f64,
}

impl CellResult {
    fn of(c: &Cell, t: &Tally) -> CellResult {
        let pair = t.pair_score(0, 1);
        let score = pair.proportion(1.0).map_or((f64::NAN, f64::NAN, f64::NAN), |e| (e.value, e.lo, e.hi));
        let r = crate::tournament::ratings(t, 1).bots[0];
        CellResult {
            preset: c.preset,
            players: c.players,
            baseline: c.baseline,
            group: c.group,
            games: t.games,
            comparisons: pair.units / 2,
            score,
            elo: r.elo,
            elo_lo: r.lo,
            elo_hi: r.hi,
            se: r.se,
        }
    }
}

/// A rating on the league's scale (greedy = 0).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The preset, or `all`.
    pub preset: String,
    /// Seats, or `all`.
    pub players: String,
    /// The rating.
    pub rating: f64,
    /// Its standard error.
    pub se: f64,
}

/// An evaluation's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    /// Per cell.
    pub cells: Vec<CellResult>,
    /// Per preset and table size, then overall (`all`, `all`).
    pub ratings: Vec<RatingRow>,
}

/// The header of `eval.csv`.
pub const CSV_HEADER: &str = "protocol,candidate,preset,players,baseline,baseline_spec,games,comparisons,score,score_lo,score_hi,elo,elo_lo,elo_hi";

fn num(x: f64, digits: usize) -> String {
    if x.is_finite() { unsigned_zero(format!("{x:.digits$}")) } else { String::new() }
}

/// `text` without the sign of a figure that rounds to zero (`-0.0` is `0.0`).
fn unsigned_zero(text: String) -> String {
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => text,
    }
}

/// A signed whole number of Elo for the console (`+12`, `-3`, `+0`: never `-0`).
fn elo(x: f64) -> String {
    let s = format!("{x:+.0}");
    if s == "-0" { "+0".to_string() } else { s }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

impl Results {
    /// `eval.csv`: a row per cell (`elo` the Elo difference to the baseline), then a row per
    /// preset and table size and one overall (`baseline` = `rating`: `elo` the rating on the
    /// league's scale, greedy = 0).
    pub fn csv(&self, protocol: &Protocol, candidate: &str) -> String {
        let mut s = String::from(CSV_HEADER);
        s.push('\n');
        let head = format!("{},{}", csv_field(protocol.name), csv_field(candidate));
        for r in &self.cells {
            let b = &BASELINES[r.baseline];
            s.push_str(&format!(
                "{head},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                r.preset,
                r.players,
                b.name,
                csv_field(b.spec),
                r.games,
                r.comparisons,
                num(r.score.0, 4),
                num(r.score.1, 4),
                num(r.score.2, 4),
                num(r.elo, 1),
                num(r.elo_lo, 1),
                num(r.elo_hi, 1)
            ));
        }
        for g in &self.ratings {
            s.push_str(&format!(
                "{head},{},{},rating,,,,,,,{},{},{}\n",
                g.preset,
                g.players,
                num(g.rating, 1),
                num(g.rating - Z95 * g.se, 1),
                num(g.rating + Z95 * g.se, 1)
            ));
        }
        s
    }

    /// The console table.
    pub fn table(&self, protocol: &Protocol, candidate: &str) -> String {
        let mut s = format!("{}: {candidate} against the frozen baselines\n\n", protocol.name);
        s.push_str(&format!(
            "{:<12} {:>7}  {:<9} {:>6}  {:>22}  {:>22}\n",
            "preset", "players", "baseline", "games", "score [95%]", "Elo diff [95%]"
        ));
        for r in &self.cells {
            s.push_str(&format!(
                "{:<12} {:>7}  {:<9} {:>6}  {:>22}  {:>22}\n",
                r.preset,
                r.players,
                BASELINES[r.baseline].name,
                r.games,
                format!("{:.1}% [{:.1}, {:.1}]", 100.0 * r.score.0, 100.0 * r.score.1, 100.0 * r.score.2),
                format!("{} [{}, {}]", elo(r.elo), elo(r.elo_lo), elo(r.elo_hi))
            ));
        }
        s.push_str("\nRating (greedy = 0; the baselines at their frozen ratings)\n");
        for g in &self.ratings {
            let at = if g.preset == "all" { "overall".to_string() } else { format!("{} {}p", g.preset, g.players) };
            s.push_str(&format!(
                "  {at:<18} {} [{}, {}]\n",
                elo(g.rating),
                elo(g.rating - Z95 * g.se),
                elo(g.rating + Z95 * g.se)
            ));
        }
        s
    }
}

/// The state of an evaluation (`eval.json`): a tournament per cell, with the same
/// self-check as every run's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvalState {
    /// [`EVAL_FORMAT`].
    pub format: u32,
    /// [`EVAL_KIND`].
    pub kind: String,
    /// What the evaluation is, as data ([`EvalConfig`]).
    pub config: serde_json::Value,
    /// Every cell, in order.
    pub cells: Vec<CellState>,
    /// CRC-32 of the file's content with this field 0.
    #[serde(default)]
    pub check: u32,
}

impl SelfChecked for EvalState {
    fn check_field(&mut self) -> &mut u32 {
        &mut self.check
    }
}

impl EvalState {
    /// Pretty JSON with its check.
    pub fn to_json(&self) -> String {
        self.checked_json()
    }

    /// Parses an `eval.json`.
    ///
    /// # Errors
    /// A phrase naming the problem: another kind or format, damaged or edited.
    pub fn from_json(s: &str) -> Result<EvalState, InvalidInput> {
        let st: EvalState = serde_json::from_str(s)
            .map_err(|e| InvalidInput(format!("not an evaluation's state ({})", crate::error::json_problem(s, &e))))?;
        if st.kind != EVAL_KIND {
            return Err(InvalidInput(format!("it holds a {} run, not an evaluation", st.kind)));
        }
        if st.format != EVAL_FORMAT {
            return Err(InvalidInput(format!(
                "its eval.json is format {}; this mtrain reads format {EVAL_FORMAT}",
                st.format
            )));
        }
        if st.cells.iter().any(|c| !c.tally.fits_layout()) {
            return Err(InvalidInput("its eval.json is damaged (sizes that do not fit)".into()));
        }
        if !st.is_intact() {
            return Err(InvalidInput("its eval.json was edited or damaged (its check does not match)".into()));
        }
        Ok(st)
    }

    /// The configuration it stores.
    ///
    /// # Errors
    /// The stored value describes no evaluation.
    pub fn config(&self) -> Result<EvalConfig, InvalidInput> {
        serde_json::from_value(self.config.clone())
            .map_err(|e| InvalidInput(format!("its eval.json does not describe an evaluation ({e})")))
    }

    /// Whether every cell is played.
    pub fn complete(&self) -> bool {
        self.cells.iter().all(|c| c.done.len() == c.chunks_total)
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.cells.iter().map(|c| c.tally.games).sum()
    }
}

/// The fingerprint of a baseline: the CRC-32, in hex, of the statistics of a short fixed
/// match set of the spec against itself (wikipedia, double-12, 2-round matches, 8 games at
/// two players and 8 at four, on one thread). A change to the bot's code that changes its
/// play changes it; the committed value is [`Baseline::fingerprint`].
///
/// # Panics
/// If the spec does not build (the protocol's specs are checked by the tests).
pub fn fingerprint(spec: &str) -> String {
    let registry = Registry::builtin();
    let field = registry.field(spec).expect("a baseline's spec builds");
    let bot = field.bots[0].clone();
    let mut text = String::new();
    for players in PLAYERS {
        let table =
            TableSpec { preset: "wikipedia".into(), set: SET, players, hand: None, rounds: Some(2), rules: Vec::new() };
        let (rules, _) = table.build().expect("the preset builds");
        let seating = Seating { rotate: true, vary_order: false, deterministic: false, gauntlet: None };
        let entries = vec![0u16; players as usize];
        let schedule =
            Schedule::with_seating(&entries, players, seating, 8, u64::from(crc32fast::hash(VERSION.as_bytes())))
                .expect("a schedule");
        let t = Tournament::with_registry(rules, vec![bot.clone()], schedule, &registry).expect("builds");
        let chunks: Vec<u64> = (0..t.schedule.deals.div_ceil(crate::tournament::CHUNK_DEALS)).collect();
        let r = t
            .run::<()>(
                &chunks,
                Tally::new(t.layout()),
                ChunkSet::default(),
                &RunOptions::new(1),
                |_| Ok(()),
                |_| Ok(()),
            )
            .expect("no callback fails");
        text.push_str(&serde_json::to_string(&r.tally).expect("serialisable"));
    }
    format!("{:08x}", crc32fast::hash(text.as_bytes()))
}
