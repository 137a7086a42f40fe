//! Trains a value network on the labels of `mtrain label` and writes it as a network file
//! (`mexican_train::net::NetFile`, JSON): the weights, eight test vectors from held-out labels,
//! and how it was trained. Seeded and single-threaded: the same labels and options give the
//! same file. scripts/studies/train-value-net.sh runs it.
//!
//! Usage: cargo run --release --example train_value -- LABELS_DIR OUT.json
//!        [--hidden 64,32] [--epochs 20] [--batch 256] [--lr 0.001] [--seed 1]
//!        [--inputs observation+hands|observation]
//!
//! `--inputs observation` trains a network that reads only what the seat sees (the observation
//! tensor), as the player without search (`learned`) needs; the default reads every hand too.

use mexican_train::net::train::{Dataset, TrainConfig, fit, test_vectors, train};
use mexican_train::net::{Encoder, Inputs, NetFile};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

fn usage(why: &str) -> ExitCode {
    eprintln!(
        "train_value: {why}\nusage: train_value LABELS_DIR OUT.json [--hidden 64,32] [--epochs N] [--batch N] [--lr X] [--seed S] [--inputs observation+hands|observation]"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut cfg = TrainConfig::default();
    let mut inputs = Inputs::ObservationAndHands;
    let mut paths = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        let parsed: Result<(), String> = match a.as_str() {
            "--hidden" => value("--hidden").and_then(|v| {
                cfg.hidden = v
                    .split(',')
                    .map(|s| s.trim().parse::<usize>().ok().filter(|&n| (1..=4096).contains(&n)))
                    .collect::<Option<Vec<_>>>()
                    .ok_or(format!("--hidden {v}: give layer sizes from 1 to 4096, like 64,32"))?;
                Ok(())
            }),
            "--epochs" => value("--epochs").and_then(|v| {
                cfg.epochs =
                    v.parse().ok().filter(|&e| e >= 1).ok_or(format!("--epochs {v}: a whole number, 1 or more"))?;
                Ok(())
            }),
            "--batch" => value("--batch").and_then(|v| {
                cfg.batch =
                    v.parse().ok().filter(|&b| b >= 1).ok_or(format!("--batch {v}: a whole number, 1 or more"))?;
                Ok(())
            }),
            "--lr" => value("--lr").and_then(|v| {
                cfg.lr = v
                    .parse()
                    .ok()
                    .filter(|&x: &f32| x > 0.0 && x < 1.0)
                    .ok_or(format!("--lr {v}: a step size between 0 and 1"))?;
                Ok(())
            }),
            "--inputs" => value("--inputs").and_then(|v| {
                inputs = match v.as_str() {
                    "observation" => Inputs::Observation,
                    "observation+hands" => Inputs::ObservationAndHands,
                    _ => return Err(format!("--inputs {v}: give observation or observation+hands")),
                };
                Ok(())
            }),
            "--seed" => value("--seed").and_then(|v| {
                cfg.seed = v.parse().map_err(|_| format!("--seed {v}: a whole number"))?;
                Ok(())
            }),
            s if s.starts_with("--") => Err(format!("unknown option {s}")),
            _ => {
                paths.push(PathBuf::from(a));
                Ok(())
            }
        };
        if let Err(why) = parsed {
            return usage(&why);
        }
    }
    let [labels, out] = paths.as_slice() else { return usage("give LABELS_DIR and OUT.json") };
    let started = Instant::now();
    let (data, rules) = match Dataset::load(labels, inputs) {
        Ok(d) => d,
        Err(why) => return usage(&why),
    };
    let width = Encoder::with_inputs(&rules, inputs).width();
    eprintln!(
        "{} labels ({:.1} inputs not 0 on average) read in {:.1} s",
        data.len(),
        data.idx.len() as f64 / data.len().max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    let held: Vec<usize> = (0..data.len()).filter(|&r| data.matches[r] % cfg.holdout == cfg.holdout - 1).collect();
    // The held-out labels judged by their mean (the training labels'), for scale.
    let train_rows = (0..data.len()).filter(|r| !held.contains(r));
    let (mut n, mut sm, mut sw) = (0f64, 0f64, 0f64);
    for r in train_rows {
        n += 1.0;
        sm += f64::from(data.margin[r]);
        sw += f64::from(data.win[r]);
    }
    let (mm, mw) = (sm / n.max(1.0), sw / n.max(1.0));
    let base_mse =
        held.iter().map(|&r| (f64::from(data.margin[r]) - mm).powi(2)).sum::<f64>() / held.len().max(1) as f64;
    let base_brier =
        held.iter().map(|&r| (f64::from(data.win[r]) - mw).powi(2)).sum::<f64>() / held.len().max(1) as f64;
    eprintln!("held out: {} labels; the mean alone: margin MSE {base_mse:.2}, win Brier {base_brier:.4}", held.len());
    let t = Instant::now();
    let (net, history) = train(&data, width, &cfg, |e| {
        eprintln!(
            "epoch {:>3}: loss {:.4}  held out: margin MSE {:.2}, win Brier {:.4}  ({:.0} s)",
            e.epoch,
            e.loss,
            e.held_out.margin_mse,
            e.held_out.win_brier,
            t.elapsed().as_secs_f64()
        );
    });
    let last = fit(&net, &data, held.iter().copied());
    let picks: Vec<usize> = (0..8).map(|k| held[k * held.len() / 8]).collect();
    let trained = serde_json::json!({
        "labels": labels.display().to_string(),
        "labels_total": data.len(),
        "held_out": held.len(),
        "config": cfg,
        "parameters": net.parameters(),
        "mean_baseline": {"margin_mse": base_mse, "win_brier": base_brier},
        "held_out_fit": last,
        "epochs": history,
    });
    let file = NetFile::new(&net, &rules, inputs, test_vectors(&net, &data, &picks), trained);
    if let Err(e) = std::fs::write(out, file.to_json()) {
        eprintln!("train_value: cannot write '{}': {e}", out.display());
        return ExitCode::from(1);
    }
    eprintln!(
        "wrote {} ({} parameters) after {:.0} s: held out margin MSE {:.2} (the mean alone {base_mse:.2}), win Brier {:.4} ({base_brier:.4})",
        out.display(),
        net.parameters(),
        started.elapsed().as_secs_f64(),
        last.margin_mse,
        last.win_brier
    );
    ExitCode::SUCCESS
}
