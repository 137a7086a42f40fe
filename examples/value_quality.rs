//! How well the value network judges positions it was not trained on, against the judges a
//! search could buy with the same time: the mean of k playouts to the round's end, and `expert`'s
//! own judge (k rollouts cut after `depth` turns a seat, judged by the hands left). Issue 48's
//! item 6; scripts/studies/value-quality.sh runs it and results/ladder/value-quality.md reads it.
//!
//! Positions come from fresh matches (`mtrain label`'s positions for `--seed`, which the
//! training run did not play: it used seed 2): the true round, seen from the label's seat. Each
//! position is judged by
//!
//! - `net`: the network on the true round (one call);
//! - `playouts`: the mean of the first k of 16 playouts to the round's end by the rollout policy
//!   (tuned `weighted`), the boneyard reshuffled for each;
//! - `hands`: the mean of the first k of 16 rollouts of `depth` turns a seat (12, `expert`'s
//!   default), each judged by the scores the hands would get (the seat wins if its hand scores
//!   least, a tie shared), as `expert` judges its rollouts;
//! - `cut`: the mean of the first k of 16 rollouts of `net-depth` turns a seat (4), each judged
//!   by the network where the round goes on (`expert:leaf=net,depth=4`);
//!
//! and the reference is the mean of 32 further playouts to the end, drawn on streams none of the
//! judges use. Scores against the reference: the Brier score of the win share, the squared error
//! of the points margin (the other seats' mean round score minus the seat's own), and the paired
//! difference of each judge's Brier score from the network's with a 95% interval clustered by
//! match. The reference's own noise (the mean over positions of its variance, s²/32) is
//! reported as `floor`: a judge that knew each position's true win chance would score it.
//!
//! Single-threaded and seeded: the same command writes the same quality file; the cost file
//! holds times measured in the run (microseconds of one core a call), which vary.
//!
//! Usage: value_quality NET.json OUT_DIR [--matches 300] [--seed 7] [--depth 12] [--net-depth 4]

use mexican_train::label::{LabelSpec, Labeler, Position};
use mexican_train::net::{Encoder, NetFile};
use mexican_train::rng::mix;
use mexican_train::round::Seat;
use mexican_train::rules::{MAX_PLAYERS, TableSpec};
use mexican_train::strategies::Registry;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Playouts (and cut rollouts) a position gets; the judges read the first k of them.
const JUDGE_PLAYOUTS: u32 = 16;
/// The k the judges are scored at.
const KS: [u32; 5] = [1, 2, 4, 8, 16];
/// Playouts of the reference.
const REFERENCE: u32 = 32;
/// Calibration bins of the predicted win share.
const BINS: usize = 10;
/// Stream offsets of the three sets of playouts (the labels' own playouts use 0..rollouts).
const JUDGE_STREAM: u64 = 1 << 20;
const HANDS_STREAM: u64 = 2 << 20;
const REFERENCE_STREAM: u64 = 3 << 20;
const CUT_STREAM: u64 = 4 << 20;
const STAGES: [&str; 3] = ["opening", "middle", "ending"];

fn usage(why: &str) -> ExitCode {
    eprintln!(
        "value_quality: {why}\nusage: value_quality NET.json OUT_DIR [--matches N] [--seed S] [--depth D] [--net-depth D]"
    );
    ExitCode::from(2)
}

/// What the round scores say to `seat`: (win share, margin in points).
fn judged(scores: &[u32; MAX_PLAYERS], seat: usize, n: usize) -> (f64, f64) {
    let s = &scores[..n];
    let low = *s.iter().min().expect("seats");
    let win = if s[seat] == low { 1.0 / s.iter().filter(|&&x| x == low).count() as f64 } else { 0.0 };
    let others: f64 = (0..n).filter(|&x| x != seat).map(|x| f64::from(s[x])).sum();
    (win, others / (n - 1) as f64 - f64::from(s[seat]))
}

/// One position's judgements.
struct Judged {
    game: u64,
    stage: usize,
    net: (f64, f64),
    playouts: Vec<(f64, f64)>,
    hands: Vec<(f64, f64)>,
    cut: Vec<(f64, f64)>,
    reference: (f64, f64),
    /// The reference win share's variance over its playouts, over `REFERENCE`.
    noise: f64,
}

/// The judges' names and their estimate of a position.
fn judges() -> Vec<(String, u32)> {
    let mut j = vec![("net".to_string(), 1)];
    for k in KS {
        j.push(("playouts".into(), k));
    }
    for k in KS {
        j.push(("hands".into(), k));
    }
    for k in KS {
        j.push(("cut".into(), k));
    }
    j
}

fn estimate(p: &Judged, judge: &str, k: u32) -> (f64, f64) {
    let mean = |v: &[(f64, f64)]| {
        let k = k as usize;
        let (w, m) = v[..k].iter().fold((0.0, 0.0), |(a, b), &(w, m)| (a + w, b + m));
        (w / k as f64, m / k as f64)
    };
    match judge {
        "net" => p.net,
        "playouts" => mean(&p.playouts),
        "hands" => mean(&p.hands),
        _ => mean(&p.cut),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut matches, mut seed, mut depth, mut net_depth) = (300u64, 7u64, 12u32, 4u32);
    let mut paths = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            let v = it.next().ok_or(format!("{name} needs a value"))?;
            v.parse().map_err(|_| format!("{name} {v}: a whole number"))
        };
        let parsed = match a.as_str() {
            "--matches" => number("--matches").map(|v| matches = v.max(1)),
            "--seed" => number("--seed").map(|v| seed = v),
            "--depth" => number("--depth").map(|v| depth = v.clamp(1, 1000) as u32),
            "--net-depth" => number("--net-depth").map(|v| net_depth = v.clamp(1, 1000) as u32),
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
    let [net_path, out] = paths.as_slice() else { return usage("give NET.json and OUT_DIR") };
    let file = match std::fs::read_to_string(net_path)
        .map_err(|e| e.to_string())
        .and_then(|t| NetFile::from_json(&t).map_err(|e| e.to_string()))
    {
        Ok(f) => f,
        Err(why) => return usage(&format!("cannot read the network '{}': {why}", net_path.display())),
    };
    let net = file.mlp();
    let spec = LabelSpec {
        table: TableSpec {
            preset: file.preset.clone(),
            set: file.set,
            players: file.players,
            hand: None,
            rounds: None,
            rules: Vec::new(),
        },
        policy: "weighted".into(),
        rollout: "weighted".into(),
        rollouts: 1,
        every: 4,
        matches,
        seed,
    };
    let labeler = match Labeler::new(&spec, &Registry::builtin()) {
        Ok(l) => l,
        Err(e) => return usage(&e.0),
    };
    let rules = labeler.rules().clone();
    let n = rules.players as usize;
    let dealt = f64::from(rules.hand().unwrap_or(0)) * n as f64;
    let turns = depth * n as u32;
    let mut encoder = Encoder::new(&rules);
    let mut acts = net.activations();
    let (mut idx, mut val) = (Vec::new(), Vec::new());
    let mut x = vec![0f32; labeler.width()];
    // Time of one core, in seconds, and calls, for each kind of judgement.
    let (mut t_net, mut t_play, mut t_hands, mut t_cut, mut calls) = (0f64, 0f64, 0f64, 0f64, 0u64);
    let mut positions: Vec<Judged> = Vec::new();
    let started = Instant::now();
    for m in 0..matches {
        labeler.visit_match(m, |pos: Position<'_>, playout| {
            let seat = pos.seen.index();
            let t = Instant::now();
            x.fill(0.0);
            labeler.features(&pos, &mut x);
            encoder.from_row(&x, seat, &mut idx, &mut val);
            let v = net.value(&idx, &val, &mut acts);
            t_net += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let playouts: Vec<(f64, f64)> = (0..JUDGE_PLAYOUTS)
                .map(|r| judged(&playout.play(pos.round, mix(pos.seed, JUDGE_STREAM + u64::from(r))), seat, n))
                .collect();
            t_play += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let hands: Vec<(f64, f64)> = (0..JUDGE_PLAYOUTS)
                .map(|r| {
                    let scores = playout.play_for(pos.round, mix(pos.seed, HANDS_STREAM + u64::from(r)), turns);
                    judged(&scores, seat, n)
                })
                .collect();
            t_hands += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let cut: Vec<(f64, f64)> = (0..JUDGE_PLAYOUTS)
                .map(|r| {
                    let seed = mix(pos.seed, CUT_STREAM + u64::from(r));
                    match playout.cut(pos.round, seed, net_depth * n as u32) {
                        (_, Some(scores)) => judged(&scores, seat, n),
                        (world, None) => {
                            encoder.from_round(&world, pos.round_number, pos.seen, &mut idx, &mut val);
                            let v = net.value(&idx, &val, &mut acts);
                            (f64::from(v.win), f64::from(v.margin))
                        }
                    }
                })
                .collect();
            t_cut += t.elapsed().as_secs_f64();
            calls += 1;
            let refs: Vec<(f64, f64)> = (0..REFERENCE)
                .map(|r| judged(&playout.play(pos.round, mix(pos.seed, REFERENCE_STREAM + u64::from(r))), seat, n))
                .collect();
            let k = f64::from(REFERENCE);
            let (w, mg) = refs.iter().fold((0.0, 0.0), |(a, b), &(w, m)| (a + w, b + m));
            let (w, mg) = (w / k, mg / k);
            let var = refs.iter().map(|&(x, _)| (x - w).powi(2)).sum::<f64>() / (k - 1.0);
            let left: usize = (0..n).map(|s| pos.round.hand(Seat::from_index(s)).len()).sum();
            let frac = left as f64 / dealt.max(1.0);
            let stage = if frac > 2.0 / 3.0 {
                0
            } else if frac > 1.0 / 3.0 {
                1
            } else {
                2
            };
            positions.push(Judged {
                game: m,
                stage,
                net: (f64::from(v.win), f64::from(v.margin)),
                playouts,
                hands,
                cut,
                reference: (w, mg),
                noise: var / k,
            });
        });
    }
    eprintln!(
        "{} positions from {matches} matches judged in {:.0} s",
        positions.len(),
        started.elapsed().as_secs_f64()
    );

    let mut quality = String::from(
        "stage,judge,k,positions,brier,margin_mse,brier_minus_net,brier_minus_net_lo,brier_minus_net_hi,floor\n",
    );
    let stage_sets: Vec<(&str, Vec<usize>)> = std::iter::once(("all", (0..positions.len()).collect()))
        .chain(STAGES.iter().enumerate().map(|(i, &name)| {
            (name, (0..positions.len()).filter(|&p| positions[p].stage == i).collect::<Vec<usize>>())
        }))
        .collect();
    for (stage, rows) in &stage_sets {
        let count = rows.len().max(1) as f64;
        let floor = rows.iter().map(|&p| positions[p].noise).sum::<f64>() / count;
        for (judge, k) in judges() {
            let (mut brier, mut mse) = (0.0, 0.0);
            // Per match: the sum of (judge's Brier term - the network's), for a clustered interval.
            let mut per_match: std::collections::BTreeMap<u64, f64> = std::collections::BTreeMap::new();
            for &p in rows {
                let pos = &positions[p];
                let (w, m) = estimate(pos, &judge, k);
                let b = (w - pos.reference.0).powi(2);
                brier += b;
                mse += (m - pos.reference.1).powi(2);
                *per_match.entry(pos.game).or_default() += b - (pos.net.0 - pos.reference.0).powi(2);
            }
            let diff: f64 = per_match.values().sum::<f64>() / count;
            // The variance of a ratio of cluster sums over a fixed position count.
            let g = per_match.len() as f64;
            let sizes: std::collections::BTreeMap<u64, f64> = rows.iter().fold(Default::default(), |mut acc, &p| {
                *acc.entry(positions[p].game).or_default() += 1.0;
                acc
            });
            let var = per_match.iter().map(|(m, s)| (s - diff * sizes[m]).powi(2)).sum::<f64>() * g
                / ((g - 1.0).max(1.0) * count * count);
            let half = 1.96 * var.sqrt();
            let _ = writeln!(
                quality,
                "{stage},{judge},{k},{},{:.5},{:.2},{:.5},{:.5},{:.5},{:.5}",
                rows.len(),
                brier / count,
                mse / count,
                diff,
                diff - half,
                diff + half,
                floor
            );
        }
    }
    let mut calibration = String::from("judge,k,bin,positions,mean_predicted,mean_reference\n");
    for (judge, k) in judges() {
        let mut bins = [(0usize, 0f64, 0f64); BINS];
        for pos in &positions {
            let w = estimate(pos, &judge, k).0;
            let b = ((w * BINS as f64) as usize).min(BINS - 1);
            bins[b].0 += 1;
            bins[b].1 += w;
            bins[b].2 += pos.reference.0;
        }
        for (b, &(c, sp, sr)) in bins.iter().enumerate() {
            if c > 0 {
                let _ = writeln!(calibration, "{judge},{k},{b},{c},{:.4},{:.4}", sp / c as f64, sr / c as f64);
            }
        }
    }
    let per = |t: f64| 1e6 * t / calls.max(1) as f64;
    let cost = format!(
        "judge,calls,us_per_call\nnet,{calls},{:.2}\nplayout,{},{:.2}\nhands,{},{:.2}\ncut,{},{:.2}\n",
        per(t_net),
        calls * u64::from(JUDGE_PLAYOUTS),
        per(t_play) / f64::from(JUDGE_PLAYOUTS),
        calls * u64::from(JUDGE_PLAYOUTS),
        per(t_hands) / f64::from(JUDGE_PLAYOUTS),
        calls * u64::from(JUDGE_PLAYOUTS),
        per(t_cut) / f64::from(JUDGE_PLAYOUTS)
    );
    let md = table(&quality, &calibration, &cost, (matches, seed, depth, net_depth), &net_path.display().to_string());
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("value_quality: cannot make '{}': {e}", out.display());
        return ExitCode::from(1);
    }
    for (name, text) in [
        ("value-quality.csv", &quality),
        ("value-calibration.csv", &calibration),
        ("value-cost.csv", &cost),
        ("value-quality.md", &md),
    ] {
        let path = out.join(name);
        let tmp = out.join(format!(".{name}.tmp"));
        if let Err(e) = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, &path)) {
            eprintln!("value_quality: cannot write '{}': {e}", path.display());
            return ExitCode::from(1);
        }
    }
    eprint!("{cost}");
    ExitCode::SUCCESS
}

/// The rows of a CSV text after its header, split at commas.
fn rows(csv: &str) -> Vec<Vec<&str>> {
    csv.lines().skip(1).map(|l| l.split(',').collect()).collect()
}

/// value-quality.md: the judges side by side (Brier score per stage, margin error, cost), then
/// the network's calibration.
fn table(quality: &str, calibration: &str, cost: &str, run: (u64, u64, u32, u32), net: &str) -> String {
    let (matches, seed, depth, net_depth) = run;
    let q = rows(quality);
    let costs = rows(cost);
    let us = |judge: &str| -> f64 { costs.iter().find(|r| r[0] == judge).map_or(0.0, |r| r[2].parse().unwrap_or(0.0)) };
    let positions = q.first().map_or("0", |r| r[3]);
    let mut md = format!(
        "The value network `{net}` against the judges a search could buy with its time, on {positions} positions \
         of {matches} fresh matches (`value_quality --matches {matches} --seed {seed} --depth {depth} --net-depth {net_depth}`; the \
         network was trained on seed 2's). Brier score of the round-win share and squared error of the points \
         margin against the mean of 32 further playouts (lower is better; the reference's own noise, the \
         Brier score a judge that knew the true chance would get, is {floor}). Cost: microseconds of one core \
         a judgement, measured in the run.\n\n\
         | judge | k | cost (µs) | Brier, all | opening | middle | ending | margin MSE | Brier − net's [95%] |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---|\n",
        floor = q.first().map_or("", |r| r[9]),
    );
    for r in q.iter().filter(|r| r[0] == "all") {
        let (judge, k) = (r[1], r[2]);
        let per = match judge {
            "net" => us("net"),
            "playouts" => us("playout") * k.parse::<f64>().unwrap_or(0.0),
            "hands" => us("hands") * k.parse::<f64>().unwrap_or(0.0),
            _ => us("cut") * k.parse::<f64>().unwrap_or(0.0),
        };
        let stage =
            |name: &str| q.iter().find(|s| s[0] == name && s[1] == judge && s[2] == k).map_or("", |s| s[4]).to_string();
        let name = match judge {
            "net" => "network".to_string(),
            "playouts" => "playouts to the end".to_string(),
            "hands" => format!("rollouts of {depth} turns a seat, judged by the hands"),
            _ => format!("rollouts of {net_depth} turns a seat, judged by the network"),
        };
        let diff = if judge == "net" { "".to_string() } else { format!("{} [{}, {}]", r[6], r[7], r[8]) };
        let _ = writeln!(
            md,
            "| {name} | {k} | {per:.1} | {} | {} | {} | {} | {} | {diff} |",
            r[4],
            stage("opening"),
            stage("middle"),
            stage("ending"),
            r[5]
        );
    }
    md.push_str(
        "\nStages: opening while more than two thirds of the tiles dealt are in the hands, ending below one \
         third.\n\nThe network's calibration (all positions, by predicted win share):\n\n\
         | predicted | positions | mean predicted | mean reference |\n|---|---:|---:|---:|\n",
    );
    for r in rows(calibration).iter().filter(|r| r[0] == "net") {
        let b: usize = r[2].parse().unwrap_or(0);
        let _ = writeln!(
            md,
            "| {:.1}-{:.1} | {} | {} | {} |",
            b as f64 / BINS as f64,
            (b + 1) as f64 / BINS as f64,
            r[3],
            r[4],
            r[5]
        );
    }
    md
}
