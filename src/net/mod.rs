//! A small value network: what a position is worth to a seat, from what that seat sees and the
//! hands of a world (a sampled guess of the hidden tiles, or the true ones), for `expert`'s
//! learned leaf (`expert:leaf=net`).
//!
//! The network is a multilayer perceptron: the input ([`Encoder`]: the features of
//! [`crate::label`], with the seats renumbered from the seat judged), hidden layers with ReLU,
//! and two outputs: the round-score margin over [`Mlp::margin_scale`] points and the logit of
//! the round-win share. It is hand-written rather than taken from a crate: it is a few hundred
//! lines, its first layer reads a sparse input (about a hundred of its 640 numbers are not 0),
//! and inference allocates nothing and gives the same bits on every machine, which a
//! general-purpose tensor crate does not promise. [`train`] fits one to label files, seeded and
//! single-threaded, so the same labels and settings give the same weights; the weights and test
//! vectors live in a JSON file ([`NetFile`], docs/labels.md has the format) that Rust and
//! Python both check.

pub mod files;
pub mod train;

use crate::error::InvalidInput;
use crate::game::ObservationLayout;
use crate::round::{RoundState, Seat};
use crate::rules::Rules;
use crate::tile::Tile;
use serde::{Deserialize, Serialize};

/// The `format` of a network file.
pub const NET_FORMAT: &str = "mtrain-value-net";

/// The version of the format this build reads and writes.
pub const NET_VERSION: u32 = 1;

/// The input of a network: a label's features (the observation tensor of the seat judged, then
/// every seat's hand) with the seats renumbered so that the seat judged is seat 0 and the others
/// follow clockwise: the same position seen from any chair is the same input. A sparse list of
/// (column, value) pairs: the first layer reads only what is not 0.
#[derive(Clone, Debug)]
pub struct Encoder {
    inputs: Inputs,
    layout: ObservationLayout,
    obs: usize,
    width: usize,
    tiles: usize,
    /// `perms[seen][c]`: the network's column of label column `c` seen from `seen`.
    perms: Vec<Vec<u32>>,
    dense: Vec<f32>,
}

/// What a network reads of a label's features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Inputs {
    /// Both blocks: the seat's observation tensor and every seat's hand (a judge of sampled
    /// worlds, as `expert:leaf=net` uses).
    #[default]
    ObservationAndHands,
    /// The observation tensor alone: what the seat sees (a player without search, `learned`).
    Observation,
}

impl Encoder {
    /// The encoder of matches under `rules`, both blocks read.
    pub fn new(rules: &Rules) -> Encoder {
        Encoder::with_inputs(rules, Inputs::ObservationAndHands)
    }

    /// The encoder of matches under `rules` reading `inputs`.
    pub fn with_inputs(rules: &Rules, inputs: Inputs) -> Encoder {
        let layout = ObservationLayout::new(rules);
        let (tiles, p) = (Tile::set_size(rules.set), rules.players as usize);
        let (m, per_train) = (rules.max_mexican_trains as usize, rules.set.index() + 1 + 3);
        let obs = layout.len();
        let width = obs + p * tiles;
        let perms = (0..p)
            .map(|seen| {
                let rot = |s: usize| (s + p - seen) % p;
                let mut perm: Vec<u32> = (0..width as u32).collect();
                let trains = 2 * tiles;
                for s in 0..p {
                    for k in 0..per_train {
                        perm[trains + s * per_train + k] = (trains + rot(s) * per_train + k) as u32;
                    }
                }
                let sizes = trains + (p + m) * per_train;
                let (seat, to_act) = (sizes + p + 1, sizes + 2 * p + 1);
                for s in 0..p {
                    perm[sizes + s] = (sizes + rot(s)) as u32;
                    perm[seat + s] = (seat + rot(s)) as u32;
                    perm[to_act + s] = (to_act + rot(s)) as u32;
                    for t in 0..tiles {
                        perm[obs + s * tiles + t] = (obs + rot(s) * tiles + t) as u32;
                    }
                }
                perm
            })
            .collect();
        Encoder { inputs, layout, obs, width, tiles, perms, dense: vec![0.0; width] }
    }

    /// Numbers in an input: the label's features, or their first block alone.
    pub fn width(&self) -> usize {
        match self.inputs {
            Inputs::ObservationAndHands => self.width,
            Inputs::Observation => self.obs,
        }
    }

    /// What it reads.
    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    /// The sparse input of a label's feature row `row` (both blocks) seen from seat `seen`,
    /// into `idx` and `val` (cleared first), in the label's column order.
    pub fn from_row(&self, row: &[f32], seen: usize, idx: &mut Vec<u32>, val: &mut Vec<f32>) {
        idx.clear();
        val.clear();
        let perm = &self.perms[seen];
        for (c, &v) in row[..self.width()].iter().enumerate() {
            if v != 0.0 {
                idx.push(perm[c]);
                val.push(v);
            }
        }
    }

    /// The sparse input of `round` (round `round_number` of its match) judged for `seen`: the
    /// features a label of it would hold, renumbered as [`Encoder::from_row`] does.
    pub fn from_round(
        &mut self,
        round: &RoundState,
        round_number: u8,
        seen: Seat,
        idx: &mut Vec<u32>,
        val: &mut Vec<f32>,
    ) {
        let mut dense = std::mem::take(&mut self.dense);
        dense.fill(0.0);
        let to_act = (!round.is_over()).then(|| round.current());
        self.layout.write(&round.view(seen), round_number, to_act, &mut dense[..self.obs]);
        let hands = if self.inputs == Inputs::Observation { 0 } else { round.players() as usize };
        for s in 0..hands {
            for t in round.hand(Seat::from_index(s)).iter() {
                dense[self.obs + s * self.tiles + t.index()] = 1.0;
            }
        }
        self.from_row(&dense, seen.index(), idx, val);
        self.dense = dense;
    }
}

/// A multilayer perceptron: ReLU hidden layers, a linear output of two numbers (the margin over
/// [`Mlp::margin_scale`] points, the logit of the win share).
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    /// Layer sizes, the input's first: `[inputs, hidden..., 2]`.
    pub sizes: Vec<usize>,
    /// Per layer, its weights, input-major (`w[i * out + j]`: input `i` to output `j`).
    pub w: Vec<Vec<f32>>,
    /// Per layer, its biases.
    pub b: Vec<Vec<f32>>,
    /// Points per unit of the margin output.
    pub margin_scale: f32,
}

/// Working space of [`Mlp::forward`]: every layer's pre-activations, kept for training's
/// backward pass. Made once ([`Mlp::activations`]); a forward pass allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    /// Per layer, its outputs before the ReLU.
    pub z: Vec<Vec<f32>>,
    /// Per hidden layer, its outputs after the ReLU.
    pub h: Vec<Vec<f32>>,
}

/// What a network says of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// The expected round-score margin, in points (the other seats' mean minus the seat's own).
    pub margin: f32,
    /// The expected round-win share, 0 to 1.
    pub win: f32,
}

impl Mlp {
    /// Working space for this network.
    pub fn activations(&self) -> Activations {
        Activations {
            z: self.sizes[1..].iter().map(|&n| vec![0.0; n]).collect(),
            h: self.sizes[1..self.sizes.len() - 1].iter().map(|&n| vec![0.0; n]).collect(),
        }
    }

    /// The two raw outputs for the sparse input (`idx`, `val`), left in `a.z`'s last layer.
    pub fn forward(&self, idx: &[u32], val: &[f32], a: &mut Activations) -> [f32; 2] {
        let layers = self.w.len();
        for l in 0..layers {
            let out = self.sizes[l + 1];
            let (w, z) = (&self.w[l], &mut a.z[l]);
            z.copy_from_slice(&self.b[l]);
            let mut add = |i: usize, v: f32| {
                for (zj, &wj) in z.iter_mut().zip(&w[i * out..(i + 1) * out]) {
                    *zj += v * wj;
                }
            };
            if l == 0 {
                for (&i, &v) in idx.iter().zip(val) {
                    add(i as usize, v);
                }
            } else {
                for (i, &v) in a.h[l - 1].iter().enumerate() {
                    if v != 0.0 {
                        add(i, v);
                    }
                }
            }
            if l + 1 < layers {
                for (h, &zj) in a.h[l].iter_mut().zip(a.z[l].iter()) {
                    *h = zj.max(0.0);
                }
            }
        }
        let o = &a.z[layers - 1];
        [o[0], o[1]]
    }

    /// The value of the sparse input (`idx`, `val`).
    pub fn value(&self, idx: &[u32], val: &[f32], a: &mut Activations) -> Value {
        let [m, logit] = self.forward(idx, val, a);
        Value { margin: m * self.margin_scale, win: 1.0 / (1.0 + (-logit).exp()) }
    }

    /// Parameters.
    pub fn parameters(&self) -> usize {
        self.w.iter().map(Vec::len).sum::<usize>() + self.b.iter().map(Vec::len).sum::<usize>()
    }
}

/// One layer as a network file stores it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayerFile {
    /// Weights, input-major.
    pub w: Vec<f32>,
    /// Biases.
    pub b: Vec<f32>,
}

/// An input and what the network answers, for checking an implementation of the forward pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TestVector {
    /// The input's columns that are not 0, in the order they are summed.
    pub idx: Vec<u32>,
    /// Their values.
    pub val: Vec<f32>,
    /// The two raw outputs.
    pub out: [f32; 2],
}

/// A network as a file holds it (JSON): what it is for, its weights, test vectors, and how it
/// was trained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetFile {
    /// [`NET_FORMAT`].
    pub format: String,
    /// [`NET_VERSION`].
    pub version: u32,
    /// The table it judges: preset, set (double-`set`) and seats.
    pub preset: String,
    /// The set.
    pub set: u8,
    /// Seats.
    pub players: u8,
    /// What it reads (files without the field read both blocks).
    #[serde(default)]
    pub inputs: Inputs,
    /// Numbers after the encoder's columns that describe the move just played (`learned`'s
    /// networks: `weighted`'s features of the move); 0 (files without the field) for none.
    #[serde(default)]
    pub extras: usize,
    /// Layer sizes, the input's first.
    pub sizes: Vec<usize>,
    /// Points per unit of the margin output.
    pub margin_scale: f32,
    /// The layers.
    pub layers: Vec<LayerFile>,
    /// Inputs and the outputs this network gives them.
    pub test_vectors: Vec<TestVector>,
    /// How it was trained (labels, settings, losses), as data.
    pub trained: serde_json::Value,
}

impl NetFile {
    /// The file of `net` reading `inputs` for the table of `rules`, with `vectors` and
    /// `trained`.
    pub fn new(
        net: &Mlp,
        rules: &Rules,
        inputs: Inputs,
        vectors: Vec<TestVector>,
        trained: serde_json::Value,
    ) -> NetFile {
        NetFile {
            inputs,
            extras: net.sizes[0].saturating_sub(Encoder::with_inputs(rules, inputs).width()),
            format: NET_FORMAT.into(),
            version: NET_VERSION,
            preset: rules.preset.name().into(),
            set: rules.set.get(),
            players: rules.players,
            sizes: net.sizes.clone(),
            margin_scale: net.margin_scale,
            layers: net.w.iter().zip(&net.b).map(|(w, b)| LayerFile { w: w.clone(), b: b.clone() }).collect(),
            test_vectors: vectors,
            trained,
        }
    }

    /// Parses a network file and checks its shapes.
    ///
    /// # Errors
    /// A phrase naming the problem.
    pub fn from_json(text: &str) -> Result<NetFile, InvalidInput> {
        let bad = |why: String| InvalidInput(why);
        let f: NetFile = serde_json::from_str(text).map_err(|e| bad(format!("not a value network file ({e})")))?;
        if f.format != NET_FORMAT || f.version != NET_VERSION {
            return Err(bad(format!(
                "a {} version {} file; this mtrain reads {NET_FORMAT} version {NET_VERSION}",
                f.format, f.version
            )));
        }
        if f.sizes.len() < 2 || f.layers.len() != f.sizes.len() - 1 || *f.sizes.last().unwrap_or(&0) != 2 {
            return Err(bad("its layer sizes do not fit its layers".into()));
        }
        for (l, layer) in f.layers.iter().enumerate() {
            if layer.w.len() != f.sizes[l] * f.sizes[l + 1] || layer.b.len() != f.sizes[l + 1] {
                return Err(bad(format!("its layer {l} has weights that do not fit its sizes")));
            }
        }
        Ok(f)
    }

    /// The encoder of its inputs at the table of `rules`.
    ///
    /// # Errors
    /// A phrase naming the mismatch when the network was made for another table.
    pub fn encoder(&self, rules: &Rules) -> Result<Encoder, InvalidInput> {
        let e = Encoder::with_inputs(rules, self.inputs);
        if e.width() + self.extras != self.sizes[0] || rules.players != self.players || rules.set.get() != self.set {
            return Err(InvalidInput(format!(
                "the network reads {} inputs of {} players on double-{}; this table gives {} of {} players on double-{}",
                self.sizes[0],
                self.players,
                self.set,
                e.width() + self.extras,
                rules.players,
                rules.set.get()
            )));
        }
        Ok(e)
    }

    /// The network.
    pub fn mlp(&self) -> Mlp {
        Mlp {
            sizes: self.sizes.clone(),
            w: self.layers.iter().map(|l| l.w.clone()).collect(),
            b: self.layers.iter().map(|l| l.b.clone()).collect(),
            margin_scale: self.margin_scale,
        }
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("serialisable") + "\n"
    }
}
