//! `learned`: a learned baseline without search. It plays the move its network scores highest,
//! the network reading only what the seat sees.
//!
//! For each legal move the bot forms the seat's observation after the move: the Python package's
//! observation tensor. It appends the move's `weighted` features (pips, double, which train, how
//! the hand follows, and so on). The network scores that input, and the bot plays the move with
//! the highest score; the first in the engine's order wins a tie, and a move that ends the round
//! (going out) is always played. The observation after a move depends only on the public table
//! and the seat's own hand. The bot forms it on one world dealt consistently with its view from a
//! fixed seed, so the same view always gives the same move; the hidden tiles of that world are
//! never read.
//!
//! The networks were trained by imitation of `expert`, whose search the bot does not run
//! (scripts/studies/train-learned.sh, `examples/train_learned`). `expert` played 1,000 matches in
//! every seat under `wikipedia` on double-12. At each of its decisions the softmax of the
//! network's scores over the legal moves was fitted to the move `expert` played. The networks are
//! built in for double-12 at two and four players (`strategies/nets/learned-d12-2p.json`,
//! `learned-d12-4p.json`). Other tables, and the browser (whose page does not carry the
//! networks), are played as `weighted` plays them; `mtrain strategies` says so.
//!
//! It is meant as a baseline for researchers: a policy from learning alone, rated against
//! `weighted` and `expert` (results/ladder/README.md, scripts/studies/study-learned.sh). Cost per
//! decision: one network call per legal move (a few microseconds each), `weighted`'s features,
//! and one sampled world.

use super::weighted::{FEATURES, Features, Weighted};
use super::{Bot, BotInfo, Strategy};
use crate::net::{Activations, Encoder, Inputs, Mlp};
use crate::rng::{GameRng, rng_from_seed};
use crate::round::{MoveList, NoObserver, RoundState, Seat};
use crate::strategy::{MatchStart, Needs, SpecError, StrategySpec};
use crate::view::View;

pub(super) const INFO: BotInfo = BotInfo {
    name: "learned",
    default_field: false,
    about: "a learned baseline without search: a network trained by imitation of expert scores what the seat sees after each legal move, with the move's weighted features, and the best is played (networks built in for double-12 at 2 and 4 players; other tables are played as weighted)",
    params: &[],
    build: |spec| Ok(Bot::Learned(Box::new(Learned::from_spec(spec)?))),
};

/// The built-in network of a table of `players` seats and double-`set` that reads the
/// observation alone, if one is shipped: what it reads and the network.
fn builtin(players: u8, set: u8) -> Option<&'static (Inputs, usize, Mlp)> {
    #[cfg(not(target_family = "wasm"))]
    {
        use crate::net::NetFile;
        use std::sync::OnceLock;
        static D12_2P: OnceLock<(Inputs, usize, Mlp)> = OnceLock::new();
        static D12_4P: OnceLock<(Inputs, usize, Mlp)> = OnceLock::new();
        let read = |text: &str| {
            let file = NetFile::from_json(text).expect("a built-in network reads");
            (file.inputs, file.extras, file.mlp())
        };
        match (players, set) {
            (2, 12) => return Some(D12_2P.get_or_init(|| read(include_str!("nets/learned-d12-2p.json")))),
            (4, 12) => return Some(D12_4P.get_or_init(|| read(include_str!("nets/learned-d12-4p.json")))),
            _ => {}
        }
    }
    let _ = (players, set);
    None
}

/// Numbers describing the move after the observation: `weighted`'s features of it (each of
/// [`FEATURES`]), then 1 for a bullet train and 1 for ending an optional sequence.
pub const MOVE_FEATURES: usize = FEATURES.len() + 2;

/// The input of `learned`'s network for the seat `me` in `world`, the position after a move whose
/// `weighted` features are `features`: the observation (as `encoder` renumbers it), then the
/// move's [`MOVE_FEATURES`]. The trainer (`examples/train_learned`) records exactly this.
#[doc(hidden)] // for the trainer
pub fn input(
    encoder: &mut Encoder,
    world: &RoundState,
    round: u8,
    me: Seat,
    features: &Features,
    idx: &mut Vec<u32>,
    val: &mut Vec<f32>,
) {
    encoder.from_round(world, round.max(1), me, idx, val);
    let base = encoder.width() as u32;
    let mut push = |k: usize, v: f64| {
        if v != 0.0 {
            idx.push(base + k as u32);
            val.push(v as f32);
        }
    };
    match features {
        Features::Place(x) => {
            for (k, &v) in x.iter().enumerate() {
                push(k, v);
            }
        }
        Features::Bullet => push(FEATURES.len(), 1.0),
        Features::End => push(FEATURES.len() + 1, 1.0),
    }
}

/// The network and its buffers, at a table that has one.
#[derive(Clone)]
struct Judge {
    net: &'static Mlp,
    encoder: Encoder,
    acts: Activations,
    idx: Vec<u32>,
    val: Vec<f32>,
}

/// The learned baseline.
#[derive(Clone)]
#[doc(hidden)] // a built-in bot's own type, for the integration tests
pub struct Learned {
    /// Plays the tables without a network.
    fallback: Weighted,
    judge: Option<Judge>,
    /// The round in play (counted by `round_start`; 0 before the first).
    round: u8,
}

impl std::fmt::Debug for Learned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Learned").field("network", &self.judge.is_some()).field("round", &self.round).finish()
    }
}

impl Learned {
    pub(super) fn from_spec(_spec: &StrategySpec) -> Result<Learned, SpecError> {
        let fallback = Weighted::from_spec(&"weighted".parse().expect("a valid spec"))?;
        Ok(Learned { fallback, judge: None, round: 0 })
    }

    /// The network's score of the seat's position in `world` after a move with `weighted`'s
    /// `features`: its first output.
    fn score(judge: &mut Judge, world: &RoundState, round: u8, me: Seat, features: &Features) -> f32 {
        input(&mut judge.encoder, world, round, me, features, &mut judge.idx, &mut judge.val);
        judge.net.forward(&judge.idx, &judge.val, &mut judge.acts)[0]
    }
}

impl Strategy for Learned {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        if moves.len() == 1 {
            return 0;
        }
        let Some(judge) = self.judge.as_mut() else { return self.fallback.choose(view, moves, rng) };
        // One world consistent with the view, from a fixed seed: the observation after a move
        // does not depend on its hidden tiles.
        let Some(world) = view.sample_world(&mut rng_from_seed(0)) else {
            return self.fallback.choose(view, moves, rng);
        };
        let me = view.seat();
        let features = self.fallback.features(view, moves);
        let (mut best, mut best_value) = (0, f32::NEG_INFINITY);
        for (i, &m) in moves.iter().enumerate() {
            let mut after = world.clone();
            after.play_unchecked(m, &mut NoObserver);
            if after.is_over() {
                // Going out is always played.
                return i;
            }
            let v = Learned::score(judge, &after, self.round, me, &features[i]);
            if v > best_value {
                best = i;
                best_value = v;
            }
        }
        best
    }

    fn match_start(&mut self, start: &MatchStart<'_>) {
        self.fallback.match_start(start);
        self.round = 0;
        self.judge = builtin(start.rules.players, start.rules.set.get()).and_then(|(inputs, extras, net)| {
            let encoder = Encoder::with_inputs(start.rules, *inputs);
            // A preset whose tensor differs in size (more Mexican trains) has no network.
            (encoder.width() + extras == net.sizes[0] && *extras == MOVE_FEATURES).then(|| {
                let width = encoder.width();
                Judge {
                    net,
                    acts: net.activations(),
                    encoder,
                    idx: Vec::with_capacity(width),
                    val: Vec::with_capacity(width),
                }
            })
        });
    }

    fn round_start(&mut self, view: &View<'_>) {
        self.round = self.round.saturating_add(1);
        self.fallback.round_start(view);
    }

    /// Sampling the world reads the voids the table has revealed (as `weighted` does); no
    /// random stream.
    fn needs(&self) -> Needs {
        Needs::NOTHING.voids(true)
    }
}
