//! Fitting an [`Mlp`] to the label files of `mtrain label`: a squared error on the margin (over
//! the network's scale) plus the cross-entropy of the win share, minibatch Adam with a linearly
//! decaying step, one thread, every random choice (the first weights, the order of the labels
//! each epoch) from the seed: the same labels and settings give the same weights, bit for bit.
//! One match in [`TrainConfig::holdout`] is held out (by its number) and judged after every
//! epoch.

use super::files::{META, TARGETS, chunk_file, read_npy};
use super::{Encoder, Inputs, Mlp};
use crate::error::InvalidInput;
use crate::rng::{GameRng, rng_from_seed, shuffle};
use crate::rules::{Rules, TableSpec};
use rand::RngCore;
use std::path::Path;

/// Labels loaded for training: each input sparse, renumbered from its seat ([`Encoder`]).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Where each label's input starts in `idx` and `val` (one more than the labels).
    pub starts: Vec<usize>,
    /// Input columns that are not 0.
    pub idx: Vec<u32>,
    /// Their values.
    pub val: Vec<f32>,
    /// The margin target, in points.
    pub margin: Vec<f32>,
    /// The win-share target.
    pub win: Vec<f32>,
    /// The match of each label in its run.
    pub matches: Vec<u32>,
    /// The round of each label (from 1).
    pub rounds: Vec<u32>,
}

impl Dataset {
    /// Labels.
    pub fn len(&self) -> usize {
        self.margin.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.margin.is_empty()
    }

    /// Label `r`'s sparse input.
    pub fn input(&self, r: usize) -> (&[u32], &[f32]) {
        let (a, b) = (self.starts[r], self.starts[r + 1]);
        (&self.idx[a..b], &self.val[a..b])
    }

    /// The labels in folder `dir` (a complete `mtrain label` run) as inputs of `inputs`, with
    /// the rules they were played under.
    ///
    /// # Errors
    /// A phrase naming the folder and the problem.
    pub fn load(dir: &Path, inputs: Inputs) -> Result<(Dataset, Rules), InvalidInput> {
        let bad = |why: String| InvalidInput(format!("'{}': {why}", dir.display()));
        let text = std::fs::read_to_string(dir.join("labels.json"))
            .map_err(|e| bad(format!("no labels.json ({e}): give the folder of a complete mtrain label run")))?;
        let about: serde_json::Value = serde_json::from_str(&text).map_err(|e| bad(format!("labels.json: {e}")))?;
        let spec: TableSpec = serde_json::from_value(about["table"].clone())
            .map_err(|e| bad(format!("labels.json names no table ({e})")))?;
        let (rules, _) = spec.build().map_err(|e| bad(e.to_string()))?;
        let encoder = Encoder::with_inputs(&rules, inputs);
        // The files hold both blocks whatever the network reads.
        let width = Encoder::new(&rules).width();
        let chunks = about["files"].as_array().map_or(0, Vec::len) as u64;
        let mut d = Dataset { starts: vec![0], ..Dataset::default() };
        let (mut idx, mut val) = (Vec::new(), Vec::new());
        for c in 0..chunks {
            let read = |part: &str, descr: &str, cols: usize| -> Result<(usize, Vec<u8>), InvalidInput> {
                let name = chunk_file(c, part);
                let bytes = std::fs::read(dir.join(&name)).map_err(|e| bad(format!("{name}: {e}")))?;
                let (shape, data) = read_npy(&bytes, descr).map_err(|e| bad(format!("{name}: {e}")))?;
                if shape.len() != 2 || shape[1] != cols {
                    return Err(bad(format!("{name} has shape {shape:?}, not (labels, {cols})")));
                }
                Ok((shape[0], data.to_vec()))
            };
            let (rows, x) = read("x", "<f4", width)?;
            let (yrows, y) = read("y", "<f4", TARGETS.len())?;
            let (mrows, meta) = read("meta", "<u4", META.len())?;
            if yrows != rows || mrows != rows {
                return Err(bad(format!("chunk {c}'s files hold different numbers of labels")));
            }
            let f32_at = |b: &[u8], i: usize| f32::from_le_bytes(b[4 * i..4 * i + 4].try_into().expect("4 bytes"));
            let u32_at = |b: &[u8], i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().expect("4 bytes"));
            let mut row = vec![0f32; width];
            for r in 0..rows {
                for (k, v) in row.iter_mut().enumerate() {
                    *v = f32_at(&x, r * width + k);
                }
                let seen = u32_at(&meta, r * META.len() + 3) as usize;
                if seen >= rules.players as usize {
                    return Err(bad(format!("chunk {c}, label {r}: seat {seen} at a table of {}", rules.players)));
                }
                encoder.from_row(&row, seen, &mut idx, &mut val);
                d.idx.extend_from_slice(&idx);
                d.val.extend_from_slice(&val);
                d.starts.push(d.idx.len());
                d.margin.push(f32_at(&y, r * TARGETS.len()));
                d.win.push(f32_at(&y, r * TARGETS.len() + 1));
                d.matches.push(u32_at(&meta, r * META.len()));
                d.rounds.push(u32_at(&meta, r * META.len() + 1));
            }
        }
        Ok((d, rules))
    }
}

/// How to train.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TrainConfig {
    /// Hidden layer sizes.
    pub hidden: Vec<usize>,
    /// Passes over the training labels.
    pub epochs: u32,
    /// Labels per step.
    pub batch: usize,
    /// The first step size (decays linearly to a tenth of it by the last step).
    pub lr: f32,
    /// Seeds the first weights and the order of the labels.
    pub seed: u64,
    /// Points per unit of the margin output.
    pub margin_scale: f32,
    /// One match in `holdout` (by its number) is held out of training and judged.
    pub holdout: u32,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig { hidden: vec![64, 32], epochs: 20, batch: 256, lr: 1e-3, seed: 1, margin_scale: 25.0, holdout: 10 }
    }
}

/// How well a network predicts some labels.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Fit {
    /// Labels judged.
    pub labels: usize,
    /// Mean squared error of the margin, in points squared.
    pub margin_mse: f64,
    /// Mean squared error of the win share (the Brier score against the playouts' share).
    pub win_brier: f64,
}

/// One epoch of training.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Epoch {
    /// Its number, from 1.
    pub epoch: u32,
    /// The training loss, averaged over the epoch's steps.
    pub loss: f64,
    /// The held-out labels after it.
    pub held_out: Fit,
}

/// Whether label `r` is held out.
fn held_out(d: &Dataset, r: usize, holdout: u32) -> bool {
    holdout > 0 && d.matches[r] % holdout == holdout - 1
}

/// A uniform number in `[-a, a)`.
fn uniform(rng: &mut GameRng, a: f32) -> f32 {
    ((rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0) * a
}

/// A network of `sizes` with weights drawn from `rng` (uniform, scaled to each layer's inputs;
/// the first layer's by the mean number of inputs that are not 0, `active`), biases 0.
fn initial(sizes: &[usize], active: f32, margin_scale: f32, rng: &mut GameRng) -> Mlp {
    let layers = sizes.len() - 1;
    let mut w = Vec::new();
    for l in 0..layers {
        let fan_in = if l == 0 { active.max(1.0) } else { sizes[l] as f32 };
        let a = (6.0 / fan_in).sqrt() * if l + 1 == layers { 0.1 } else { 1.0 };
        w.push((0..sizes[l] * sizes[l + 1]).map(|_| uniform(rng, a)).collect());
    }
    let b = sizes[1..].iter().map(|&n| vec![0.0; n]).collect();
    Mlp { sizes: sizes.to_vec(), w, b, margin_scale }
}

/// How `net` predicts the labels `rows` of `d`.
pub fn fit(net: &Mlp, d: &Dataset, rows: impl Iterator<Item = usize>) -> Fit {
    let mut a = net.activations();
    let (mut n, mut se, mut brier) = (0usize, 0f64, 0f64);
    for r in rows {
        let (idx, val) = d.input(r);
        let v = net.value(idx, val, &mut a);
        se += f64::from(v.margin - d.margin[r]).powi(2);
        brier += f64::from(v.win - d.win[r]).powi(2);
        n += 1;
    }
    let m = n.max(1) as f64;
    Fit { labels: n, margin_mse: se / m, win_brier: brier / m }
}

/// Minibatch Adam over a network's weights: the summed gradients of the batch in progress and
/// the moments, shaped as the weights, with a step size that decays linearly from `lr` to a tenth
/// of it by the last of `total_steps`.
struct Adam {
    gw: Vec<Vec<f32>>,
    gb: Vec<Vec<f32>>,
    mw: Vec<Vec<f32>>,
    mb: Vec<Vec<f32>>,
    vw: Vec<Vec<f32>>,
    vb: Vec<Vec<f32>>,
    step: usize,
    total_steps: usize,
    lr: f32,
}

impl Adam {
    fn new(net: &Mlp, total_steps: usize, lr: f32) -> Adam {
        let w = || -> Vec<Vec<f32>> { net.w.iter().map(|w| vec![0.0; w.len()]).collect() };
        let b = || -> Vec<Vec<f32>> { net.b.iter().map(|b| vec![0.0; b.len()]).collect() };
        Adam { gw: w(), gb: b(), mw: w(), mb: b(), vw: w(), vb: b(), step: 0, total_steps: total_steps.max(1), lr }
    }

    /// Clears the gradients for a new batch.
    fn zero(&mut self) {
        for g in self.gw.iter_mut().chain(self.gb.iter_mut()) {
            g.fill(0.0);
        }
    }

    /// One step of `net` along the mean of the gradients summed over a batch of `batch` inputs.
    fn apply(&mut self, net: &mut Mlp, batch: usize) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.step += 1;
        let step = self.step;
        let lr = self.lr * (1.0 - 0.9 * (step - 1) as f32 / self.total_steps as f32);
        let scale = 1.0 / batch as f32;
        let (c1, c2) = (1.0 - b1.powi(step as i32), 1.0 - b2.powi(step as i32));
        let adam = |p: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32]| {
            for k in 0..p.len() {
                let gk = g[k] * scale;
                m[k] = b1 * m[k] + (1.0 - b1) * gk;
                v[k] = b2 * v[k] + (1.0 - b2) * gk * gk;
                p[k] -= lr * (m[k] / c1) / ((v[k] / c2).sqrt() + eps);
            }
        };
        for l in 0..net.w.len() {
            adam(&mut net.w[l], &self.gw[l], &mut self.mw[l], &mut self.vw[l]);
            adam(&mut net.b[l], &self.gb[l], &mut self.mb[l], &mut self.vb[l]);
        }
    }
}

/// Trains a network on the labels of `d` not held out; `each` hears every epoch as it ends.
pub fn train(d: &Dataset, width: usize, cfg: &TrainConfig, mut each: impl FnMut(&Epoch)) -> (Mlp, Vec<Epoch>) {
    let mut rng = rng_from_seed(cfg.seed);
    let mut sizes = vec![width];
    sizes.extend_from_slice(&cfg.hidden);
    sizes.push(2);
    let train_rows: Vec<usize> = (0..d.len()).filter(|&r| !held_out(d, r, cfg.holdout)).collect();
    let active = d.idx.len() as f32 / d.len().max(1) as f32;
    let mut net = initial(&sizes, active, cfg.margin_scale, &mut rng);
    let layers = net.w.len();
    let mut a = net.activations();
    let mut delta: Vec<Vec<f32>> = sizes[1..].iter().map(|&n| vec![0.0; n]).collect();
    let batch = cfg.batch.max(1);
    let steps_per_epoch = train_rows.len().div_ceil(batch).max(1);
    let mut adam = Adam::new(&net, steps_per_epoch * cfg.epochs as usize, cfg.lr);
    let mut order = train_rows.clone();
    let mut history = Vec::new();
    for epoch in 1..=cfg.epochs {
        shuffle(&mut rng, &mut order);
        let mut loss_sum = 0f64;
        for chunk in order.chunks(batch) {
            adam.zero();
            for &r in chunk {
                let (idx, val) = d.input(r);
                let [o_m, o_w] = net.forward(idx, val, &mut a);
                let t = d.margin[r] / cfg.margin_scale;
                let p = 1.0 / (1.0 + (-o_w).exp());
                let win = d.win[r];
                loss_sum += f64::from((o_m - t).powi(2))
                    - f64::from(win * p.max(1e-7).ln() + (1.0 - win) * (1.0 - p).max(1e-7).ln());
                delta[layers - 1][0] = 2.0 * (o_m - t);
                delta[layers - 1][1] = p - win;
                backward(&net, &a, idx, val, &mut delta, &mut adam.gw, &mut adam.gb);
            }
            adam.apply(&mut net, chunk.len());
        }
        let e = Epoch {
            epoch,
            loss: loss_sum / train_rows.len().max(1) as f64,
            held_out: fit(&net, d, (0..d.len()).filter(|&r| held_out(d, r, cfg.holdout))),
        };
        each(&e);
        history.push(e);
    }
    (net, history)
}

/// Adds the gradient of the loss for input (`idx`, `val`) to `gw` and `gb`, given the forward
/// pass's activations `a` and the loss's derivative by the outputs in `delta`'s last layer (the
/// other layers of `delta` are working space).
fn backward(
    net: &Mlp,
    a: &super::Activations,
    idx: &[u32],
    val: &[f32],
    delta: &mut [Vec<f32>],
    gw: &mut [Vec<f32>],
    gb: &mut [Vec<f32>],
) {
    let layers = net.w.len();
    for l in (0..layers).rev() {
        let out = net.sizes[l + 1];
        let (d_l, lower) = {
            let (lo, hi) = delta.split_at_mut(l);
            (&hi[0], lo)
        };
        for (g, &dj) in gb[l].iter_mut().zip(d_l.iter()) {
            *g += dj;
        }
        if l == 0 {
            for (&i, &v) in idx.iter().zip(val) {
                let row = &mut gw[0][i as usize * out..(i as usize + 1) * out];
                for (g, &dj) in row.iter_mut().zip(d_l.iter()) {
                    *g += v * dj;
                }
            }
        } else {
            let input = &a.h[l - 1];
            let w = &net.w[l];
            let below = &mut lower[l - 1];
            for (i, &x) in input.iter().enumerate() {
                let wrow = &w[i * out..(i + 1) * out];
                if x != 0.0 {
                    let grow = &mut gw[l][i * out..(i + 1) * out];
                    for (g, &dj) in grow.iter_mut().zip(d_l.iter()) {
                        *g += x * dj;
                    }
                }
                // Back through the ReLU of the layer below.
                below[i] =
                    if a.z[l - 1][i] > 0.0 { wrow.iter().zip(d_l.iter()).map(|(&wj, &dj)| wj * dj).sum() } else { 0.0 };
            }
        }
    }
}

/// Labels `r` of `d` as test vectors of `net`: their inputs and the network's raw outputs.
pub fn test_vectors(net: &Mlp, d: &Dataset, rows: &[usize]) -> Vec<super::TestVector> {
    let mut a = net.activations();
    rows.iter()
        .map(|&r| {
            let (idx, val) = d.input(r);
            super::TestVector { idx: idx.to_vec(), val: val.to_vec(), out: net.forward(idx, val, &mut a) }
        })
        .collect()
}

/// Decisions to imitate: at each, the inputs of the position after every legal move and the
/// move the teacher played. A network trained on them ([`train_choices`]) scores a position
/// after a move by its first output; the move with the highest score is its pick.
#[derive(Clone, Debug, Default)]
pub struct Choices {
    /// The positions after the moves, one input each, decisions one after another.
    pub after: Dataset,
    /// Where each decision's moves start in `after` (one more than the decisions).
    pub starts: Vec<usize>,
    /// The teacher's move at each decision, counted from its first.
    pub chosen: Vec<u32>,
    /// The match of each decision in its run.
    pub matches: Vec<u32>,
}

impl Choices {
    /// An empty set.
    pub fn new() -> Choices {
        Choices { after: Dataset { starts: vec![0], ..Dataset::default() }, starts: vec![0], ..Choices::default() }
    }

    /// Decisions.
    pub fn len(&self) -> usize {
        self.chosen.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }

    /// Adds the input of the position after one more move of the decision being built.
    pub fn push_after(&mut self, idx: &[u32], val: &[f32]) {
        let d = &mut self.after;
        d.idx.extend_from_slice(idx);
        d.val.extend_from_slice(val);
        d.starts.push(d.idx.len());
        d.margin.push(0.0);
        d.win.push(0.0);
    }

    /// Ends the decision being built: the teacher played its move `chosen`, in match `game`.
    pub fn end_decision(&mut self, chosen: u32, game: u32) {
        self.starts.push(self.after.len());
        self.chosen.push(chosen);
        self.matches.push(game);
    }

    /// Appends `other`'s decisions.
    pub fn extend(&mut self, other: &Choices) {
        for k in 0..other.len() {
            for r in other.starts[k]..other.starts[k + 1] {
                let (idx, val) = other.after.input(r);
                self.push_after(idx, val);
            }
            self.end_decision(other.chosen[k], other.matches[k]);
        }
    }

    /// The share of decisions `rows` at which `net`'s pick is the teacher's, and the mean
    /// cross-entropy of the teacher's move under the softmax of the scores.
    pub fn agreement(&self, net: &Mlp, rows: impl Iterator<Item = usize>) -> (f64, f64) {
        let mut a = net.activations();
        let (mut n, mut hits, mut xent) = (0usize, 0usize, 0f64);
        let mut scores = Vec::new();
        for k in rows {
            scores.clear();
            for r in self.starts[k]..self.starts[k + 1] {
                let (idx, val) = self.after.input(r);
                scores.push(net.forward(idx, val, &mut a)[0]);
            }
            let best = scores.iter().enumerate().fold(0, |b, (i, &s)| if s > scores[b] { i } else { b });
            hits += usize::from(best == self.chosen[k] as usize);
            let top = scores.iter().copied().fold(f32::MIN, f32::max);
            let z: f64 = scores.iter().map(|&s| f64::from(s - top).exp()).sum();
            xent += z.ln() - f64::from(scores[self.chosen[k] as usize] - top);
            n += 1;
        }
        (hits as f64 / n.max(1) as f64, xent / n.max(1) as f64)
    }
}

/// One epoch of imitation.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ChoiceEpoch {
    /// Its number, from 1.
    pub epoch: u32,
    /// The training cross-entropy, averaged over the epoch's decisions.
    pub loss: f64,
    /// The held-out decisions' agreement with the teacher after it.
    pub held_out_agreement: f64,
    /// Their cross-entropy.
    pub held_out_loss: f64,
}

/// Trains a network to pick the teacher's moves of `c` (those of matches not held out): the
/// softmax over a decision's moves of the first output of the position after each, fitted by
/// cross-entropy to the move played; minibatches of `cfg.batch` decisions, Adam, one thread,
/// seeded as [`train`]. The second output is not trained.
pub fn train_choices(
    c: &Choices,
    width: usize,
    cfg: &TrainConfig,
    mut each: impl FnMut(&ChoiceEpoch),
) -> (Mlp, Vec<ChoiceEpoch>) {
    let mut rng = rng_from_seed(cfg.seed);
    let mut sizes = vec![width];
    sizes.extend_from_slice(&cfg.hidden);
    sizes.push(2);
    let held = |k: usize| cfg.holdout > 0 && c.matches[k] % cfg.holdout == cfg.holdout - 1;
    let train_rows: Vec<usize> = (0..c.len()).filter(|&k| !held(k)).collect();
    let active = c.after.idx.len() as f32 / c.after.len().max(1) as f32;
    let mut net = initial(&sizes, active, cfg.margin_scale, &mut rng);
    let layers = net.w.len();
    let mut a = net.activations();
    let mut delta: Vec<Vec<f32>> = sizes[1..].iter().map(|&n| vec![0.0; n]).collect();
    let batch = cfg.batch.max(1);
    let mut adam = Adam::new(&net, train_rows.len().div_ceil(batch).max(1) * cfg.epochs as usize, cfg.lr);
    let mut order = train_rows.clone();
    let mut history = Vec::new();
    let mut scores: Vec<f32> = Vec::new();
    for epoch in 1..=cfg.epochs {
        shuffle(&mut rng, &mut order);
        let mut loss_sum = 0f64;
        for chunk in order.chunks(batch) {
            adam.zero();
            for &k in chunk {
                let moves = c.starts[k]..c.starts[k + 1];
                scores.clear();
                for r in moves.clone() {
                    let (idx, val) = c.after.input(r);
                    scores.push(net.forward(idx, val, &mut a)[0]);
                }
                let top = scores.iter().copied().fold(f32::MIN, f32::max);
                let z: f32 = scores.iter().map(|&s| (s - top).exp()).sum();
                let chosen = c.chosen[k] as usize;
                loss_sum += f64::from(z.ln() - (scores[chosen] - top));
                // The forward pass again for each move, then back with the softmax's gradient.
                for (i, r) in moves.enumerate() {
                    let (idx, val) = c.after.input(r);
                    net.forward(idx, val, &mut a);
                    let p = (scores[i] - top).exp() / z;
                    delta[layers - 1][0] = p - f32::from(u8::from(i == chosen));
                    delta[layers - 1][1] = 0.0;
                    backward(&net, &a, idx, val, &mut delta, &mut adam.gw, &mut adam.gb);
                }
            }
            adam.apply(&mut net, chunk.len());
        }
        let (agree, xent) = c.agreement(&net, (0..c.len()).filter(|&k| held(k)));
        let e = ChoiceEpoch {
            epoch,
            loss: loss_sum / train_rows.len().max(1) as f64,
            held_out_agreement: agree,
            held_out_loss: xent,
        };
        each(&e);
        history.push(e);
    }
    (net, history)
}
