//! `expert`: the strongest player, a determinized search guided by the tuned policy.
//!
//! Like `montecarlo` it plays every legal move out in sampled worlds and keeps the move with the
//! best mean result. At its defaults (`rollout=weighted,prior=5,depth=12,samples=31`) it differs
//! in these ways:
//!
//! - **Rollouts played by the tuned policy** (`rollout=weighted`): every seat in a rollout plays
//!   `weighted` with the weights tuned for the match's preset, instead of `greedy`. A rollout
//!   costs about five times a greedy one, and it is a far better forecast.
//! - **The policy as a prior** (`prior=5`): the move the tuned policy plays is credited 5 points
//!   of round score in every world, so the search leaves it only when the rollouts find another
//!   move better by more than that. `prior=100` never leaves it (expert then plays exactly
//!   `weighted`'s match); `prior=0` is a plain search.
//! - **Short rollouts judged by the hands** (`depth=12`). A rollout plays 12 turns per seat (24
//!   at two players, 48 at four) and the position reached is judged by the scores the hands
//!   would get if the round ended there ([`crate::round::RoundState::hand_scores`]); a rollout
//!   that reaches the round's end first is scored as `montecarlo` scores it. A double-12 round
//!   lasts about 70-80 turns, so a full rollout from an early decision plays dozens of turns
//!   whose luck only adds noise. `depth=0` plays every rollout to the round's end.
//! - **31 worlds a legal move** (`samples=31`), whatever the table size: about 0.75 ms a
//!   decision at four players on one core (results/ladder/policy-search.md).
//! - **Sampling from everything the table has seen** (`infer=draws`). `montecarlo` deals the
//!   hidden hands to meet each seat's known voids, and forgets a seat's voids once it takes a
//!   tile in unseen (a draw it keeps, a penalty). But that seat's hand still held nothing
//!   fitting those values before; only the tiles taken in since can fit them. The engine keeps
//!   those loosened records ([`crate::View::loose_voids`]: "at most one tile fits
//!   3, 8 or 11") and the sampler deals hands that respect the counts. `infer=voids` samples as
//!   `montecarlo` does. `infer=policy` also infers from behaviour: the round keeps every
//!   decision, and each world the search plays is picked from `pool` samples (default 8) in
//!   proportion to the likelihood of the other seats' plays had they held what the world deals
//!   them, under the tuned policy made stochastic (a softmax over its move scores at `temp`,
//!   default 0.25, floored so that no play is impossible). It costs several times the time a
//!   decision; results/ladder/inference.md measures how much closer to the truth it deals and
//!   what it buys (`scripts/studies/study-inference.sh`). It is not the default. The record is kept
//!   where the engine plays the round (`play`, `tournament`, `bench`, the Rust `play_match`);
//!   a match stepped one decision at a time (`MatchState`, the Python package's environments)
//!   keeps none, and there `infer=policy` samples as `infer=draws` does.
//! - **Successive halving** (`alloc=halving`) instead of the same number of worlds for every
//!   move. The budget (`samples` × the number of legal moves rollouts) is split evenly over
//!   ⌈log₂ k⌉ stages for k legal moves; each stage plays the surviving moves in fresh worlds
//!   (every survivor in the same worlds, so the comparison keeps common random numbers) and
//!   keeps the better half. Moves that are plainly worse stop costing rollouts early, and the
//!   close contest at the end is decided on many more worlds than a flat search gives each
//!   move. `alloc=race` drops a move once the leader beats it by two standard errors of their
//!   paired difference (tested after 8 worlds, then every quarter more), ends a decision when
//!   one move is left, and spends what clear decisions saved on close ones later in the round
//!   (at most three times a decision's own budget), so the round's total stays that of a flat
//!   search. `alloc=flat` spends the budget as `montecarlo` does.
//! - **No search when there is nothing to choose**: a single legal move is played at once.
//!
//! What the defaults buy, by SPRT (elo0 = 0, elo1 = 20; `scripts/studies/study-strongest-sprt.sh`,
//! results/ladder/strongest-sprt.md): H1 at 2 and 4 players under `wikipedia` and
//! `dominorules` against tuned `weighted` (+46 to +67 Elo) and against the former `expert`
//! (+117 to +206 Elo). How the defaults were chosen (`scripts/studies/study-policy-search.sh`,
//! results/ladder/policy-search.md: 4 players, `wikipedia`, 400 games against tuned `weighted`,
//! two seats each): the former `expert` scores 30.7% against the tuned policy; `weighted`
//! rollouts alone or a prior alone bring it to 45-46%; both, a prior of 5 points with
//! `depth=12,samples=31` (as many rollout turns as the former defaults), score
//! 56.2% [53.4, 59.1] (+44 Elo) at 0.75 ms a decision. `mtrain tune` from there
//! (`scripts/studies/study-tune-expert.sh`, results/ladder/tune-expert.md) found no gain in `prior` and
//! `depth`, nor in `temp` for `infer=policy`; it raised `samples` from 31 to 39 (+28 Elo [+12,
//! +44] by its confirmation), which is more time as much as more strength: the default stays at
//! 31 worlds (about 0.7 ms a decision at four players), and `samples=39` (about 0.9 ms) is there
//! for anyone with the time.
//!
//! **The former `expert`** (its defaults before the policy search: greedy rollouts of 8 turns a seat
//! and `12 + 136 / players` worlds, about 0.2 ms a decision at four players) is
//! `expert:rollout=greedy,prior=0,depth=8,samples=auto`; the studies that measured it
//! (results/ladder/ before the policy search, results/tuning/) name it so. Its measurements
//! against `montecarlo` at about equal time a decision (`scripts/studies/study-depth.sh`,
//! results/ladder/depth.md; two players 1,000 games, four players 400 games with two seats
//! each, `wikipedia`): `depth` 4, 6, 8 and 12 (per seat) scored 70.4%, 75.9%, 79.1% [76.5,
//! 81.5] and 76.2% at two players; `depth` 4, 6 and 8 scored 71.4%, 73.8% and 74.9% [72.3,
//! 77.4] at four. With full rollouts and the same rollouts as `montecarlo`
//! (`depth=0,samples=32`), the other changes together score only 51.8% [49.6, 54.0] (2,000
//! two-player games).
//!
//! **A learned leaf** (`leaf=net`, not the default): the position a rollout reaches at its cut
//! is judged by a value network trained on `mtrain label`'s playouts of true rounds instead of
//! by the hands' scores (docs/labels.md); `depth=0` then judges right after the move. Networks
//! are built in for two and four players on double-12; `net=FILE` reads another (a file
//! `examples/train_value` writes), used at the table it was made for. Elsewhere `leaf=net`
//! judges by the hands. Values are summed in sixteenths of a point, the prior's credit with them.
//! It is not the default because it is not stronger: at equal time a decision (`depth=4`, 35
//! worlds a move at four players, 33 at two) the SPRT (elo0 = 0, elo1 = 20) against the default
//! accepted H0 under `wikipedia` at 2 and 4 players and stopped undecided under `dominorules`
//! (`scripts/studies/study-leaf-net.sh`, results/ladder/README.md).
//!
//! `ms` caps the time of one decision in milliseconds (the search stops at the first world
//! after the deadline and plays the best survivor so far); off by default, because a clock
//! makes results depend on the machine: runs with `ms` set are not reproducible.
//!
//! **A bounded decision at every hand size.** Where draws swell hands past 30 tiles (two players
//! under `celko1998` or `family_house`), the rollout policy's plan search is what costs: each
//! search in a rollout expands at most [`ROLLOUT_PLAN_BUDGET`](super::plan::ROLLOUT_PLAN_BUDGET)
//! nodes (20,000; the bot's own policy keeps the full 200,000), and once a decision's rollouts
//! have expanded [`DECISION_PLAN_BUDGET`] nodes (1,000,000) the search stops at the end of the
//! world it is playing, as at an `ms` deadline, but counted in work rather than time, so the
//! result does not depend on the machine. Hands of the sizes a round deals never reach either
//! bound in the games checked; the costs per preset at two players are in
//! results/benchmarks/DECISION-COST.md (`scripts/bench/bench-decision-cost.sh`).
//!
//! Parameters: `samples` (default 31; `auto` for `12 + 136 / players`), `depth` (default 12; 0
//! for full rollouts), `prior` (default 5), `rollout` (`weighted` by default, `greedy`,
//! `random` or `planner`), `ms` (default 0: no time cap), `infer` (`draws`, `voids` or `policy`),
//! `alloc` (`halving`, `race` or `flat`), `temp` and `pool` (for `infer=policy`), `leaf`
//! (`hands` or `net`), `net` (`builtin` or a file, with `leaf=net`) and `score` as for
//! `montecarlo`.

use super::montecarlo::{SCORE_PARAM, Score, Scratch, SearchParams, Worlds, rollout_stream, world_stream};
use super::plan::{DECISION_PLAN_BUDGET, plan_nodes_on_this_thread};
use super::weighted::Weighted;
use super::{Bot, BotInfo, ParamInfo, Strategy, param};
use crate::error::InvalidInput;
use crate::net::{Activations, Encoder, Inputs, Mlp, NetFile};
use crate::rng::{GameRng, mix, rng_from_seed};
use crate::round::{MoveList, RoundState, WorldSampler};
use crate::strategy::{Needs, SpecError, StrategySpec};
use crate::view::View;
use rand::RngCore;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(super) const INFO: BotInfo = BotInfo {
    name: "expert",
    default_field: false,
    about: "the strongest player: montecarlo's search guided by the tuned policy (weighted rollouts and prior), short rollouts judged by the hands, sampling from every public clue, successive halving; the former expert is expert:rollout=greedy,prior=0,depth=8,samples=auto",
    params: &[
        ParamInfo {
            key: "samples",
            default: "31",
            help: "auto|1..=100000: the search budget, rollouts per legal move on average (each at most `depth` turns a seat); auto: 12 + 136 / players (80 at 2 players, 46 at 4), the former default for greedy rollouts of depth 8",
        },
        ParamInfo {
            key: "ms",
            default: "0",
            help: "0..=60000: time cap per decision in milliseconds, 0 for none (a cap makes runs machine-dependent)",
        },
        ParamInfo {
            key: "infer",
            default: "draws",
            help: "draws|voids|policy: hidden hands meet the void records loosened by later draws too, or the current voids only; policy: as draws, and each world is picked from `pool` samples by how likely the others' recorded plays make it under the tuned policy (softmax at `temp`)",
        },
        ParamInfo {
            key: "temp",
            default: "0.25",
            help: "0.01..=100: with infer=policy, the opponent model's temperature in points of the policy's score per unit of log-odds (lower: the others are taken to play the policy more surely)",
        },
        ParamInfo {
            key: "pool",
            default: "8",
            help: "2..=64: with infer=policy, worlds sampled for each world the search plays, one kept in proportion to its likelihood",
        },
        ParamInfo {
            key: "alloc",
            default: "halving",
            help: "halving|race|flat: halve the moves per stage, drop moves clearly behind and bank the savings for close calls, or the same worlds for every move",
        },
        ParamInfo {
            key: "depth",
            default: "12",
            help: "0..=1000: turns each seat plays in a rollout before the hands are scored as they stand, 0 to play to the round's end",
        },
        ParamInfo {
            key: "prior",
            default: "5",
            help: "0..=100: points of round score a world credits the move the tuned `weighted` policy plays, so the search leaves the policy's move only when the rollouts say another is better by more; 0 for none",
        },
        ParamInfo {
            key: "leaf",
            default: "hands",
            help: "hands|net: a rollout cut at `depth` is judged by the scores the hands would get, or by the value network (docs/labels.md; tables without one are judged by the hands); with net, depth=0 judges right after the move",
        },
        ParamInfo {
            key: "net",
            default: "builtin",
            help: "builtin|FILE: with leaf=net, the value network: the one built in for the table (double-12 at 2 and 4 players), or a network file (docs/labels.md) used at the table it was made for (its players and set; other tables are judged by the hands)",
        },
        ParamInfo {
            key: "rollout",
            default: "weighted",
            help: "greedy|random|weighted|planner: the bot playing every seat in the rollouts (weighted: the tuned policy for the match's preset)",
        },
        SCORE_PARAM,
    ],
    build: |spec| Ok(Bot::Expert(Box::new(Expert::from_spec(spec)?))),
};

/// Largest accepted `ms`.
pub const MAX_MS: u32 = 60_000;

/// `samples=auto` plays `AUTO_SAMPLES.0 + AUTO_SAMPLES.1 / players` worlds: 80 at two players,
/// 57 at three, 46 at four, 34 at six. A rollout plays `depth` turns per seat, so larger tables
/// need fewer worlds for the same time; with the former defaults (greedy rollouts, `depth=8`)
/// these are the most that keep a decision within `montecarlo`'s time at two and four players
/// (results/benchmarks/SEARCH.md).
pub const AUTO_SAMPLES: (u32, u32) = (12, 136);

/// Largest accepted `depth`.
pub const MAX_DEPTH: u32 = 1_000;

/// Largest accepted `prior`, in points.
pub const MAX_PRIOR: f64 = 100.0;

/// Determinized search with inference from draws and successive halving.
#[doc(hidden)] // a built-in bot's own type, for the integration tests and benches
pub struct Expert {
    samples: u32,
    time_cap: Option<Duration>,
    depth: u32,
    loose: bool,
    /// `infer=policy`: the opponent model's temperature and the pool each world is picked from;
    /// `None` without it.
    inference: Option<(f64, u32)>,
    /// Working space of the inference.
    infer_scratch: Box<InferScratch>,
    alloc: Alloc,
    score: Score,
    rollout: Box<Bot>,
    /// `prior`: points a world credits the policy's move (0: no prior).
    prior: f64,
    /// The policy whose move gets the prior: `weighted` at its defaults for the match's preset.
    policy: Box<Weighted>,
    /// The policy's move in the decision under way, and its credit per world in value units.
    favoured: Option<(usize, i64)>,
    scratch: Box<Scratch>,
    /// Moves still in the running (indices into the move list).
    survivors: Vec<usize>,
    /// Rollout values, world-major (`values[w * k + c]`), for the race's paired tests.
    values: Vec<i64>,
    /// Rollouts saved by this round's earlier decisions (the race spends them later).
    bank: u64,
    /// Where the worlds come from: sampled from the seat's view, or (only for the `oracle`,
    /// which sees every hand) the true round.
    worlds: Worlds,
    /// The bot playing each seat in the rollouts, when they differ (the `oracle`'s model of
    /// each seat's own bot); empty: `rollout` plays every seat.
    seat_models: Vec<Bot>,
    /// `leaf=net`: the rollouts' positions are judged by the value network.
    leaf_net: bool,
    /// `net=FILE`: the network read from the file, in place of the built-in ones.
    net_file: Option<Arc<TableNet>>,
    /// The network's judge for the match's table (with `leaf=net`, where one is built in).
    net_leaf: Option<Box<NetLeaf>>,
}

/// How the rollouts of one decision are spread over the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Alloc {
    /// The same worlds for every move, `samples` of them (as `montecarlo`).
    Flat,
    /// Successive halving over ⌈log₂ k⌉ stages.
    Halving,
    /// A race: moves clearly behind the leader drop out, the decision ends when one is left,
    /// and what a clear decision saves is spent on close ones later in the round.
    Race,
}

impl Expert {
    pub(super) fn from_spec(spec: &StrategySpec) -> Result<Expert, SpecError> {
        let bad = |key: &str, value: &str, valid: &str| SpecError::BadValue {
            bot: INFO.name.into(),
            key: key.into(),
            value: value.into(),
            valid: valid.into(),
        };
        let SearchParams { samples, rollout, score } = SearchParams::from_spec(spec, &INFO, true)?;
        let v = param(spec, &INFO, "ms");
        let time_cap = match v.parse::<u32>() {
            Ok(0) => None,
            Ok(ms) if ms <= MAX_MS => Some(Duration::from_millis(u64::from(ms))),
            _ => return Err(bad("ms", v, &format!("an integer from 0 (no cap) to {MAX_MS}"))),
        };
        // WebAssembly in the browser (`mtrain web`) has no clock: `Instant::now` panics there, so
        // a time cap is refused rather than left to stop the engine.
        #[cfg(target_family = "wasm")]
        if time_cap.is_some() {
            return Err(bad("ms", v, "0 in the browser, which has no clock for a time cap"));
        }
        let v = param(spec, &INFO, "depth");
        let depth = match v.parse::<u32>() {
            Ok(d) if d <= MAX_DEPTH => d,
            _ => return Err(bad("depth", v, &format!("an integer from 0 (to the round's end) to {MAX_DEPTH}"))),
        };
        let (loose, policy_inference) = match param(spec, &INFO, "infer") {
            "draws" => (true, false),
            "voids" => (false, false),
            "policy" => (true, true),
            v => return Err(bad("infer", v, "draws, voids, policy")),
        };
        let v = param(spec, &INFO, "temp");
        let temp = match v.parse::<f64>() {
            Ok(t) if (0.01..=100.0).contains(&t) => t,
            _ => return Err(bad("temp", v, "a number from 0.01 to 100")),
        };
        let v = param(spec, &INFO, "pool");
        let pool = match v.parse::<u32>() {
            Ok(p) if (2..=64).contains(&p) => p,
            _ => return Err(bad("pool", v, "an integer from 2 to 64")),
        };
        let inference = policy_inference.then_some((temp, pool));
        let v = param(spec, &INFO, "prior");
        let prior = match v.parse::<f64>() {
            Ok(x) if (0.0..=MAX_PRIOR).contains(&x) => x,
            _ => return Err(bad("prior", v, &format!("a number from 0 (no prior) to {MAX_PRIOR}"))),
        };
        let leaf_net = match param(spec, &INFO, "leaf") {
            "hands" => false,
            "net" => true,
            v => return Err(bad("leaf", v, "hands, net")),
        };
        let net_file =
            match param(spec, &INFO, "net") {
                "builtin" => None,
                path if !leaf_net => {
                    return Err(bad("net", path, "builtin, or a network file with leaf=net (the hands need none)"));
                }
                path => Some(load_net(path).map_err(|why| {
                    bad("net", path, &format!("builtin, or a value network file; this one: {}", why.0))
                })?),
            };
        if leaf_net && score == Score::Own {
            return Err(bad("score", "own", "margin with leaf=net (the network predicts the margin)"));
        }
        let alloc = match param(spec, &INFO, "alloc") {
            "race" => Alloc::Race,
            "halving" => Alloc::Halving,
            "flat" => Alloc::Flat,
            v => return Err(bad("alloc", v, "halving, race, flat")),
        };
        Ok(Expert {
            samples,
            time_cap,
            depth,
            loose,
            inference,
            infer_scratch: Box::default(),
            alloc,
            score,
            rollout,
            prior,
            policy: Box::new(Weighted::from_spec(&"weighted".parse().expect("a valid spec"))?),
            favoured: None,
            scratch: Scratch::new(),
            survivors: Vec::with_capacity(SURVIVORS_ROOM),
            values: Vec::new(),
            bank: 0,
            worlds: Worlds::Sampled,
            seat_models: Vec::new(),
            leaf_net,
            net_file,
            net_leaf: None,
        })
    }

    /// The same search over other worlds (the oracle's guided search).
    pub(super) fn with_worlds(mut self, worlds: Worlds) -> Expert {
        self.worlds = worlds;
        self
    }

    /// The bot playing each seat in the rollouts (one per seat), or empty for `rollout` in
    /// every seat. Only the `oracle` sets it: it knows how each seat plays.
    pub(super) fn seat_models_mut(&mut self) -> &mut Vec<Bot> {
        &mut self.seat_models
    }

    /// The rollout bot every seat plays unless [`Expert::seat_models_mut`] says otherwise.
    pub(super) fn rollout_bot(&self) -> &Bot {
        &self.rollout
    }
}

impl Clone for Expert {
    fn clone(&self) -> Expert {
        Expert {
            samples: self.samples,
            time_cap: self.time_cap,
            depth: self.depth,
            loose: self.loose,
            inference: self.inference,
            infer_scratch: Box::default(),
            alloc: self.alloc,
            score: self.score,
            rollout: self.rollout.clone(),
            prior: self.prior,
            policy: self.policy.clone(),
            favoured: None,
            scratch: Scratch::new(),
            survivors: Vec::with_capacity(SURVIVORS_ROOM),
            values: Vec::new(),
            bank: self.bank,
            worlds: self.worlds,
            seat_models: self.seat_models.clone(),
            leaf_net: self.leaf_net,
            net_file: self.net_file.clone(),
            net_leaf: self.net_leaf.clone(),
        }
    }

    /// Copies the configuration and keeps this bot's buffers.
    fn clone_from(&mut self, source: &Expert) {
        self.samples = source.samples;
        self.time_cap = source.time_cap;
        self.depth = source.depth;
        self.loose = source.loose;
        self.inference = source.inference;
        self.alloc = source.alloc;
        self.score = source.score;
        self.rollout.clone_from(&source.rollout);
        self.prior = source.prior;
        self.policy.clone_from(&source.policy);
        self.bank = source.bank;
        self.worlds = source.worlds;
        self.seat_models.clone_from(&source.seat_models);
        self.leaf_net = source.leaf_net;
        self.net_file.clone_from(&source.net_file);
        self.net_leaf.clone_from(&source.net_leaf);
    }
}

impl fmt::Debug for Expert {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Expert")
            .field("samples", &self.samples)
            .field("time_cap", &self.time_cap)
            .field("depth", &self.depth)
            .field("loose", &self.loose)
            .field("inference", &self.inference)
            .field("alloc", &self.alloc)
            .field("score", &self.score)
            .field("rollout", &self.rollout)
            .field("prior", &self.prior)
            .field("worlds", &self.worlds)
            .field("leaf_net", &self.leaf_net)
            .field("net_file", &self.net_file.as_ref().map(|n| (n.players, n.set)))
            .finish_non_exhaustive()
    }
}

/// Room made for the moves in the running at the start: every move list outside blanks wild
/// fits (as the search's totals), so decisions do not grow it.
const SURVIVORS_ROOM: usize = crate::round::TRAIN_SLOTS * crate::tile::PIP_COUNT + 3;

/// Value units of a decision judged by the network: a point of round score is this many, so
/// that the network's fractions of a point count.
pub(super) const NET_UNITS: i64 = 16;

/// A value network and the table it was made for.
pub(super) struct TableNet {
    players: u8,
    set: u8,
    mlp: Mlp,
}

impl TableNet {
    fn from_file(file: &NetFile) -> TableNet {
        TableNet { players: file.players, set: file.set, mlp: file.mlp() }
    }
}

/// Reads a value network file for `net=FILE`: a network of the observation and the hands (not
/// `learned`'s), checked for shape.
fn load_net(path: &str) -> Result<Arc<TableNet>, InvalidInput> {
    let text = std::fs::read_to_string(path).map_err(|e| InvalidInput(format!("cannot be read ({e})")))?;
    let file = NetFile::from_json(&text)?;
    if file.inputs != Inputs::ObservationAndHands || file.extras != 0 {
        return Err(InvalidInput(
            "reads other inputs than a label's observation and hands (a policy network such as learned's?)".into(),
        ));
    }
    // Its input width must be what its own table gives (the check `NetFile::encoder` makes).
    let set = crate::tile::Pip::new(file.set).ok_or_else(|| InvalidInput(format!("double-{} is no set", file.set)))?;
    file.encoder(&crate::rules::Rules { players: file.players, set, ..crate::rules::Rules::wikipedia() })?;
    Ok(Arc::new(TableNet::from_file(&file)))
}

/// The built-in value network for a table of `players` seats and double-`set`, if one is
/// shipped (`strategies/nets/`; none in WebAssembly, whose page would carry it).
fn builtin_net(players: u8, set: u8) -> Option<Arc<TableNet>> {
    #[cfg(not(target_family = "wasm"))]
    {
        use std::sync::OnceLock;
        static D12_2P: OnceLock<Arc<TableNet>> = OnceLock::new();
        static D12_4P: OnceLock<Arc<TableNet>> = OnceLock::new();
        let read =
            |text: &str| Arc::new(TableNet::from_file(&NetFile::from_json(text).expect("the built-in network reads")));
        match (players, set) {
            (2, 12) => return Some(D12_2P.get_or_init(|| read(include_str!("nets/value-d12-2p.json"))).clone()),
            (4, 12) => return Some(D12_4P.get_or_init(|| read(include_str!("nets/value-d12-4p.json"))).clone()),
            _ => {}
        }
    }
    let _ = (players, set);
    None
}

/// The value network as `expert`'s judge of the positions its rollouts reach.
#[derive(Clone)]
pub(super) struct NetLeaf {
    net: Arc<TableNet>,
    encoder: Encoder,
    acts: Activations,
    idx: Vec<u32>,
    val: Vec<f32>,
    /// The round in play (counted by `round_start`; 0 before the first).
    round: u8,
}

impl NetLeaf {
    /// The judge for the table of `rules`: with `file`, its network where it was made for this
    /// table (none elsewhere); without, the one built in for the table, if any. None either way
    /// where a rule change alters the input (more than one Mexican train): the hands judge.
    fn for_table(rules: &crate::rules::Rules, file: Option<&Arc<TableNet>>) -> Option<NetLeaf> {
        let net = match file {
            Some(f) => Some(f.clone()).filter(|f| (f.players, f.set) == (rules.players, rules.set.get()))?,
            None => builtin_net(rules.players, rules.set.get())?,
        };
        let encoder = Encoder::new(rules);
        if encoder.width() != net.mlp.sizes[0] {
            return None;
        }
        // Room for every input column: a call never grows them.
        let width = encoder.width();
        Some(NetLeaf {
            acts: net.mlp.activations(),
            net,
            encoder,
            idx: Vec::with_capacity(width),
            val: Vec::with_capacity(width),
            round: 0,
        })
    }

    /// What `state` is worth to `me`, in [`NET_UNITS`] of the `margin` score.
    pub(super) fn judge(&mut self, state: &RoundState, me: crate::round::Seat) -> i64 {
        self.encoder.from_round(state, self.round.max(1), me, &mut self.idx, &mut self.val);
        let v = self.net.mlp.value(&self.idx, &self.val, &mut self.acts);
        let n = f64::from(state.players());
        (f64::from(v.margin) * (n - 1.0) * NET_UNITS as f64).round() as i64
    }
}

/// ⌈log₂ k⌉ for k ≥ 2: the halvings that take k moves down to one.
fn stages(k: usize) -> usize {
    (usize::BITS - (k - 1).leading_zeros()) as usize
}

/// A move drops out of the race when the leader beats it by more than this many standard
/// errors of the paired difference over the worlds both were played in.
const RACE_Z: f64 = 2.0;

/// Worlds played before the race's first test.
const RACE_MIN_WORLDS: u32 = 8;

/// The most one decision may spend, in units of its own budget (`samples` × moves).
const RACE_MAX_SHARE: u64 = 3;

/// Whether move `c` is clearly behind move `lead` over the first `worlds` worlds of `values`
/// (world-major, `k` moves a world): the mean paired difference exceeds [`RACE_Z`] standard
/// errors. Two moves with the same result in every world are as good as each other: the later
/// one drops out.
fn behind(values: &[i64], k: usize, worlds: usize, lead: usize, c: usize) -> bool {
    let (mut sum, mut sq) = (0f64, 0f64);
    for w in 0..worlds {
        let d = (values[w * k + lead] - values[w * k + c]) as f64;
        sum += d;
        sq += d * d;
    }
    let m = worlds as f64;
    let mean = sum / m;
    let var = ((sq - sum * mean) / (m - 1.0)).max(0.0);
    if var == 0.0 {
        return mean >= 0.0;
    }
    mean > RACE_Z * (var / m).sqrt()
}

/// Working space of `infer=policy`.
#[derive(Default)]
struct InferScratch {
    pool: Vec<RoundState>,
    log_likelihood: Vec<f64>,
    ws: crate::round::Workspace,
}

impl Expert {
    /// A world to play: sampled to meet the void records; with `infer=policy`, picked from
    /// `pool` such samples in proportion to the likelihood the recorded plays give it.
    fn sample(&mut self, view: &View<'_>, worlds: &WorldSampler<'_>, rng: &mut GameRng) -> Option<RoundState> {
        match (self.worlds, view.hidden()) {
            (Worlds::True, Some(state)) => return Some(state.clone()),
            (Worlds::TrueHands, Some(state)) => {
                let mut w = state.clone();
                w.reshuffle_boneyard(rng);
                return Some(w);
            }
            _ => {}
        }
        let draw = |rng: &mut GameRng| worlds.sample_with(rng, self.loose);
        let (Some((temp, pool)), Some(history)) = (self.inference, view.history()) else { return draw(rng) };
        let sc = &mut *self.infer_scratch;
        sc.pool.clear();
        sc.log_likelihood.clear();
        for _ in 0..pool {
            let world = draw(rng)?;
            let ll = history.log_likelihood(&world, view.seat(), &mut *self.policy, temp, &mut sc.ws);
            sc.pool.push(world);
            sc.log_likelihood.push(ll);
        }
        let top = sc.log_likelihood.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = sc.log_likelihood.iter().map(|l| (l - top).exp()).sum();
        // A uniform draw in [0, total): the first world whose running weight passes it.
        let mut u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        let mut pick = sc.pool.len() - 1;
        for (i, l) in sc.log_likelihood.iter().enumerate() {
            u -= (l - top).exp();
            if u < 0.0 {
                pick = i;
                break;
            }
        }
        Some(sc.pool.swap_remove(pick))
    }

    /// Plays one world: every survivor's move in world `index`, added to the totals (and, for
    /// the race, stored). `None` when no world can be sampled.
    #[allow(clippy::too_many_arguments)]
    fn play_world(
        &mut self,
        view: &View<'_>,
        worlds: &WorldSampler<'_>,
        moves: &MoveList,
        seed: u64,
        index: u32,
        store: bool,
    ) -> Option<()> {
        let mut world_rng = rng_from_seed(mix(seed, world_stream(index)));
        let world = self.sample(view, worlds, &mut world_rng)?;
        let rollout_seed = mix(seed, rollout_stream(index));
        let k = moves.len();
        if store {
            self.values.resize((index as usize + 1) * k, 0);
        }
        let sc = &mut *self.scratch;
        let models: &[Bot] =
            if self.seat_models.is_empty() { std::slice::from_ref(&*self.rollout) } else { &self.seat_models };
        let units = if self.net_leaf.is_some() { NET_UNITS } else { 1 };
        for &c in &self.survivors {
            let credit = match self.favoured {
                Some((f, credit)) if f == c => credit * units,
                _ => 0,
            };
            let v = credit
                + sc.play_out(
                    &world,
                    moves[c],
                    models,
                    rollout_seed,
                    self.score,
                    view.seat(),
                    self.depth * u32::from(view.players()),
                    self.net_leaf.as_deref_mut(),
                );
            sc.totals[c] += v;
            if store {
                self.values[index as usize * k + c] = v;
            }
        }
        Some(())
    }

    /// The survivor with the highest total; ties go to the first in move order.
    fn best_survivor(&self) -> usize {
        let totals = &self.scratch.totals;
        let mut best = self.survivors[0];
        for &c in &self.survivors[1..] {
            if totals[c] > totals[best] {
                best = c;
            }
        }
        best
    }
}

impl Strategy for Expert {
    /// The surviving move with the highest summed rollout value; ties go to the first in move
    /// order. A view whose seat is not to act (no world can be sampled) gets the first move.
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        if super::searches_abandoned() {
            // The game is being cut short and will not be counted: no search.
            return 0;
        }
        let seed = rng.next_u64();
        let k = moves.len();
        if k == 1 {
            return 0;
        }
        let deadline = self.time_cap.map(|d| Instant::now() + d);
        // The clock (`ms`, off by default), and the work the rollouts' plan searches may do.
        let nodes = plan_nodes_on_this_thread();
        let late = |w: u32| {
            w > 0
                && (plan_nodes_on_this_thread() - nodes >= DECISION_PLAN_BUDGET
                    || deadline.is_some_and(|d| Instant::now() >= d))
        };
        self.scratch.reset(&self.rollout, view.players() as usize, k);
        self.favoured = (self.prior > 0.0).then(|| {
            let n = f64::from(view.players());
            // The credit in the score's units: margin values are (n - 1) times a point.
            let units = match self.score {
                Score::Margin => self.prior * (n - 1.0),
                Score::Own => self.prior,
            };
            (self.policy.choose(view, moves, rng), units.round() as i64)
        });
        self.survivors.clear();
        self.survivors.extend(0..k);
        // What every world of this decision shares, computed once.
        let sampler = view.world_sampler();
        let samples = match self.samples {
            0 => AUTO_SAMPLES.0 + AUTO_SAMPLES.1 / u32::from(view.players()),
            s => s,
        };
        let base = u64::from(samples) * k as u64;
        let mut spent = 0u64;
        let mut w = 0u32;
        match self.alloc {
            Alloc::Flat => {
                while w < samples && !late(w) {
                    if self.play_world(view, &sampler, moves, seed, w, false).is_none() {
                        return 0;
                    }
                    w += 1;
                }
            }
            Alloc::Halving => {
                let stage_count = stages(k);
                'search: for stage in 0..stage_count {
                    // The budget left, split evenly over the stages left, shared by the survivors.
                    let budget = (base - spent.min(base)) / (stage_count - stage) as u64;
                    let worlds = (budget / self.survivors.len() as u64).max(1);
                    for _ in 0..worlds {
                        if late(w) {
                            break 'search;
                        }
                        if self.play_world(view, &sampler, moves, seed, w, false).is_none() {
                            return 0;
                        }
                        spent += self.survivors.len() as u64;
                        w += 1;
                    }
                    if stage + 1 < stage_count {
                        // Best first; equal totals keep move order (the sort is stable).
                        let totals = &self.scratch.totals;
                        self.survivors.sort_by(|&a, &b| totals[b].cmp(&totals[a]));
                        self.survivors.truncate(self.survivors.len().div_ceil(2));
                        self.survivors.sort_unstable();
                    }
                }
            }
            Alloc::Race => {
                self.values.clear();
                let cap = (base + self.bank).min(RACE_MAX_SHARE * base);
                let mut next_test = RACE_MIN_WORLDS;
                while self.survivors.len() > 1 && spent + self.survivors.len() as u64 <= cap && !late(w) {
                    if self.play_world(view, &sampler, moves, seed, w, true).is_none() {
                        return 0;
                    }
                    spent += self.survivors.len() as u64;
                    w += 1;
                    if w == next_test {
                        next_test = w + (w / 4).max(4);
                        let lead = self.best_survivor();
                        let (values, worlds) = (&self.values, w as usize);
                        self.survivors.retain(|&c| c == lead || !behind(values, k, worlds, lead, c));
                    }
                }
                self.bank = (self.bank + base).saturating_sub(spent);
            }
        }
        self.best_survivor()
    }

    /// The rollout bot learns the match's rules (`weighted` picks its set by them).
    fn match_start(&mut self, start: &crate::strategy::MatchStart<'_>) {
        self.rollout.match_start(start);
        self.policy.match_start(start);
        self.net_leaf =
            if self.leaf_net { NetLeaf::for_table(start.rules, self.net_file.as_ref()).map(Box::new) } else { None };
    }

    /// A new round: the budget saved in the last one is not carried over.
    fn round_start(&mut self, view: &View<'_>) {
        self.bank = 0;
        self.policy.round_start(view);
        if let Some(leaf) = self.net_leaf.as_mut() {
            leaf.round = leaf.round.saturating_add(1);
        }
    }

    /// The sampled worlds respect the voids the table has revealed, and the search draws on
    /// its random stream; `infer=policy` reads the round's record of decisions; only as the
    /// `oracle`'s guided search, which plays the true round, does it see the hidden tiles.
    fn needs(&self) -> Needs {
        Needs::SAFE.history(self.inference.is_some()).hidden(self.worlds != Worlds::Sampled)
    }
}

#[cfg(test)]
mod tests {
    use super::stages;

    #[test]
    fn stages_halve_down_to_one_move() {
        assert_eq!([2, 3, 4, 5, 8, 9, 16, 17].map(stages), [1, 2, 2, 3, 3, 4, 4, 5]);
    }
}
