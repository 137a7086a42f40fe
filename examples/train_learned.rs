//! Trains the network of `learned`, the baseline without search, by imitation: matches of a
//! teacher (`expert` by default) in every seat. At each of its decisions with more than one legal
//! move (none of them ending the round), the observation after every legal move is recorded,
//! exactly as `learned` forms it: one world consistent with the seat's view from a fixed seed,
//! the move played on it, the observation tensor of the seat, then `weighted`'s features of the
//! move (`mexican_train::strategies::learned_input`). The move the teacher played is
//! recorded with them. `mexican_train::net::train::train_choices` then fits a softmax over each
//! decision's moves to the teacher's pick, holding out one match in ten. The network file
//! records the held-out agreement with the teacher after each epoch.
//!
//! Seeded: the same options write the same file at any `--threads`. Matches are split over the
//! threads by number and gathered in order; training is single-threaded.
//! scripts/studies/train-learned.sh runs it.
//!
//! Usage: train_learned OUT.json [--players 4] [--matches 400] [--teacher expert] [--seed 3]
//!        [--hidden 64,32] [--epochs 6] [--threads 2]

use mexican_train::net::train::{Choices, TrainConfig, train_choices};
use mexican_train::net::{Encoder, Inputs, NetFile, TestVector};
use mexican_train::play_match;
use mexican_train::rng::{GameRng, mix, rng_from_seed};
use mexican_train::round::{MoveList, NoObserver};
use mexican_train::rules::{Rules, TableSpec};
use mexican_train::strategies::{Bot, MOVE_FEATURES, Registry, Weighted, learned_input};
use mexican_train::strategy::{MatchStart, Needs, Strategy, StrategySpec};
use mexican_train::view::View;
use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

fn usage(why: &str) -> ExitCode {
    eprintln!(
        "train_learned: {why}\nusage: train_learned OUT.json [--players N] [--matches N] [--teacher SPEC] [--seed S] [--hidden 64,32] [--epochs N] [--threads N]"
    );
    ExitCode::from(2)
}

/// A seat played by the teacher, whose decisions are recorded into `out`.
struct Recorder {
    teacher: Bot,
    /// Gives each move's `weighted` features.
    features: Box<Weighted>,
    encoder: Encoder,
    /// The decisions, and at each the move `weighted` would have played.
    out: Rc<RefCell<(Choices, Vec<u32>)>>,
    game: u32,
    round: u8,
    idx: Vec<u32>,
    val: Vec<f32>,
}

impl Strategy for Recorder {
    fn choose(&mut self, view: &View<'_>, moves: &MoveList, rng: &mut GameRng) -> usize {
        let chosen = self.teacher.choose(view, moves, rng);
        if moves.len() < 2 {
            return chosen;
        }
        let Some(world) = view.sample_world(&mut rng_from_seed(0)) else { return chosen };
        let features = self.features.features(view, moves);
        let mut inputs = Vec::with_capacity(moves.len());
        for (i, &m) in moves.iter().enumerate() {
            let mut after = world.clone();
            after.play_unchecked(m, &mut NoObserver);
            if after.is_over() {
                // `learned` plays a move that ends the round without asking its network.
                return chosen;
            }
            learned_input(
                &mut self.encoder,
                &after,
                self.round,
                view.seat(),
                &features[i],
                &mut self.idx,
                &mut self.val,
            );
            inputs.push((self.idx.clone(), self.val.clone()));
        }
        let baseline = self.features.choose(view, moves, rng) as u32;
        let mut out = self.out.borrow_mut();
        for (idx, val) in &inputs {
            out.0.push_after(idx, val);
        }
        out.0.end_decision(chosen as u32, self.game);
        out.1.push(baseline);
        chosen
    }

    fn needs(&self) -> Needs {
        self.teacher.needs().voids(true)
    }

    fn round_start(&mut self, view: &View<'_>) {
        self.round = self.round.saturating_add(1);
        self.teacher.round_start(view);
        self.features.round_start(view);
    }

    fn match_start(&mut self, start: &MatchStart<'_>) {
        self.round = 0;
        self.teacher.match_start(start);
        self.features.match_start(start);
    }
}

/// The decisions of match `m`, and at each the move `weighted` would have played.
fn record(rules: &Rules, teacher: &StrategySpec, seed: u64, m: u64) -> (Choices, Vec<u32>) {
    let out = Rc::new(RefCell::new((Choices::new(), Vec::new())));
    let registry = Registry::builtin();
    let mut seats: Vec<Recorder> = (0..rules.players)
        .map(|_| Recorder {
            teacher: registry.build(teacher).expect("checked"),
            features: match Bot::parse("weighted") {
                Ok(Bot::Weighted(w)) => w,
                _ => unreachable!("weighted is a built-in bot"),
            },
            encoder: Encoder::with_inputs(rules, Inputs::Observation),
            out: Rc::clone(&out),
            game: m as u32,
            round: 0,
            idx: Vec::new(),
            val: Vec::new(),
        })
        .collect();
    play_match(rules, mix(seed, m), &mut seats, &mut NoObserver);
    drop(seats);
    Rc::try_unwrap(out).map(RefCell::into_inner).unwrap_or_else(|rc| rc.borrow().clone())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut cfg = TrainConfig { epochs: 6, seed: 3, ..TrainConfig::default() };
    let (mut players, mut matches, mut threads, mut teacher) = (4u8, 400u64, 2usize, "expert".to_string());
    let mut out_path = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        let parsed: Result<(), String> = match a.as_str() {
            "--players" => value("--players")
                .and_then(|v| v.parse().map(|p| players = p).map_err(|_| format!("--players {v}: a whole number"))),
            "--matches" => value("--matches").and_then(|v| {
                v.parse().ok().filter(|&n| n >= 1).map(|n| matches = n).ok_or(format!("--matches {v}: 1 or more"))
            }),
            "--threads" => value("--threads").and_then(|v| {
                v.parse().ok().filter(|&n| n >= 1).map(|n| threads = n).ok_or(format!("--threads {v}: 1 or more"))
            }),
            "--teacher" => value("--teacher").map(|v| teacher = v),
            "--seed" => value("--seed")
                .and_then(|v| v.parse().map(|s| cfg.seed = s).map_err(|_| format!("--seed {v}: a whole number"))),
            "--epochs" => value("--epochs").and_then(|v| {
                v.parse().ok().filter(|&e| e >= 1).map(|e| cfg.epochs = e).ok_or(format!("--epochs {v}: 1 or more"))
            }),
            "--hidden" => value("--hidden").and_then(|v| {
                v.split(',')
                    .map(|s| s.trim().parse::<usize>().ok().filter(|&n| (1..=4096).contains(&n)))
                    .collect::<Option<Vec<_>>>()
                    .map(|h| cfg.hidden = h)
                    .ok_or(format!("--hidden {v}: layer sizes from 1 to 4096, like 64,32"))
            }),
            s if s.starts_with("--") => Err(format!("unknown option {s}")),
            _ => {
                out_path = Some(a.clone());
                Ok(())
            }
        };
        if let Err(why) = parsed {
            return usage(&why);
        }
    }
    let Some(out_path) = out_path else { return usage("give OUT.json") };
    let table = TableSpec { preset: "wikipedia".into(), set: 12, players, hand: None, rounds: None, rules: Vec::new() };
    let rules = match table.build() {
        Ok((r, _)) => r,
        Err(e) => return usage(&e.to_string()),
    };
    let spec: StrategySpec = match teacher.parse() {
        Ok(s) => s,
        Err(e) => return usage(&format!("--teacher {teacher}: {e}")),
    };
    if let Err(e) = Registry::builtin().build(&spec) {
        return usage(&format!("--teacher {teacher}: {e}"));
    }
    let started = Instant::now();
    // Each thread plays the matches of its residue; the decisions are gathered in match order.
    let mut per_match: Vec<(u64, (Choices, Vec<u32>))> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (rules, spec) = (&rules, &spec);
                let seed = cfg.seed;
                scope.spawn(move || {
                    (t as u64..matches).step_by(threads).map(|m| (m, record(rules, spec, seed, m))).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a recording thread")).collect()
    });
    per_match.sort_by_key(|(m, _)| *m);
    let mut data = Choices::new();
    let mut baseline = Vec::new();
    for (_, (c, b)) in &per_match {
        data.extend(c);
        baseline.extend_from_slice(b);
    }
    let moves = data.after.len();
    eprintln!(
        "{} decisions ({moves} moves, {:.1} a decision) of {matches} matches of {teacher} recorded in {:.0} s",
        data.len(),
        moves as f64 / data.len().max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    let width = Encoder::with_inputs(&rules, Inputs::Observation).width() + MOVE_FEATURES;
    let t = Instant::now();
    let (net, history) = train_choices(&data, width, &cfg, |e| {
        eprintln!(
            "epoch {:>3}: loss {:.4}  held out: agreement with {teacher} {:.1}%, loss {:.4}  ({:.0} s)",
            e.epoch,
            e.loss,
            100.0 * e.held_out_agreement,
            e.held_out_loss,
            t.elapsed().as_secs_f64()
        );
    });
    // Test vectors: the first move's position of eight held-out decisions.
    let held: Vec<usize> = (0..data.len()).filter(|&k| data.matches[k] % cfg.holdout == cfg.holdout - 1).collect();
    let mut acts = net.activations();
    let vectors: Vec<TestVector> = (0..8.min(held.len()))
        .map(|k| {
            let r = data.starts[held[k * held.len() / 8]];
            let (idx, val) = data.after.input(r);
            TestVector { idx: idx.to_vec(), val: val.to_vec(), out: net.forward(idx, val, &mut acts) }
        })
        .collect();
    // How often `weighted`, whose features the network reads, plays the teacher's move there.
    let weighted_agreement =
        held.iter().filter(|&&k| baseline[k] == data.chosen[k]).count() as f64 / held.len().max(1) as f64;
    eprintln!("weighted plays {teacher}'s move at {:.1}% of the held-out decisions", 100.0 * weighted_agreement);
    let trained = serde_json::json!({
        "method": "imitation: a softmax over each decision's moves of output 0 of the position after each, fitted by cross-entropy to the teacher's move",
        "teacher": teacher,
        "matches": matches,
        "decisions": data.len(),
        "held_out_decisions": held.len(),
        "weighted_held_out_agreement": weighted_agreement,
        "config": cfg,
        "parameters": net.parameters(),
        "epochs": history,
    });
    let file = NetFile::new(&net, &rules, Inputs::Observation, vectors, trained);
    let tmp = format!("{out_path}.tmp");
    if let Err(e) = std::fs::write(&tmp, file.to_json()).and_then(|()| std::fs::rename(&tmp, &out_path)) {
        eprintln!("train_learned: cannot write '{out_path}': {e}");
        return ExitCode::from(1);
    }
    let last = history.last().map_or(0.0, |e| e.held_out_agreement);
    eprintln!(
        "wrote {out_path} ({} parameters) after {:.0} s: held-out agreement with {teacher} {:.1}%",
        net.parameters(),
        started.elapsed().as_secs_f64(),
        100.0 * last
    );
    ExitCode::SUCCESS
}
