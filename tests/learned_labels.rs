//! `mtrain label`: training labels for a learned evaluation, written as `.npy` files that are
//! the same at any thread count, split into shards that merge into the whole run, resumed
//! chunk by chunk, and hold what docs/labels.md says they hold.

mod common;

use common::{read, rejects, run_ok, temp_path};
use mexican_train::label::LabelState;
use std::path::Path;

/// An `.npy` file read back: its dtype, its shape and its numbers as 4-byte little-endian
/// words.
struct Npy {
    descr: String,
    shape: Vec<usize>,
    words: Vec<[u8; 4]>,
}

fn npy(path: &Path) -> Npy {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00", "{}: magic and version 1.0", path.display());
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "the data starts at a multiple of 64 bytes");
    let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert!(header.ends_with('\n') && header.contains("'fortran_order': False"), "{header}");
    let descr = header.split("'descr': '").nth(1).unwrap().split('\'').next().unwrap().to_string();
    let dims = header.split("'shape': (").nth(1).unwrap().split(')').next().unwrap();
    let shape: Vec<usize> =
        dims.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect();
    let words: Vec<[u8; 4]> = bytes[10 + len..].chunks_exact(4).map(|c| c.try_into().unwrap()).collect();
    assert_eq!(words.len() * 4, bytes.len() - 10 - len, "whole words");
    assert_eq!(words.len(), shape.iter().product::<usize>(), "{}: the data fills the shape", path.display());
    Npy { descr, shape, words }
}

impl Npy {
    fn f32s(&self) -> Vec<f32> {
        assert_eq!(self.descr, "<f4");
        self.words.iter().map(|w| f32::from_le_bytes(*w)).collect()
    }

    fn u32s(&self) -> Vec<u32> {
        assert_eq!(self.descr, "<u4");
        self.words.iter().map(|w| u32::from_le_bytes(*w)).collect()
    }
}

/// The files of a label folder but the manifest (which records times), name → bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("labels"))
        .map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap()))
        .collect();
    out.sort();
    out
}

const RUN: &[&str] = &["label", "--matches", "10", "--rollouts", "3", "--every", "6", "--seed", "7", "--quiet"];

fn label(extra: &[&str]) -> String {
    let mut args = RUN.to_vec();
    args.extend_from_slice(extra);
    run_ok(&args)
}

#[test]
fn the_labels_are_the_same_at_any_thread_count_and_from_shards_merged() {
    let (one, three) = (temp_path("one"), temp_path("three"));
    let out = label(&["--threads", "1", "--out", one.to_str().unwrap()]);
    assert!(out.contains("labels from 10 matches (640 features each) in 3 chunks of three .npy files"), "{out}");
    label(&["--threads", "3", "--out", three.to_str().unwrap()]);
    let whole = files(&one);
    // 3 chunks (4 + 4 + 2 matches) x 3 files, and labels.json.
    assert_eq!(whole.len(), 10, "{:?}", whole.iter().map(|f| &f.0).collect::<Vec<_>>());
    assert_eq!(whole, files(&three), "the same bytes at 1 and 3 threads");

    let (a, b, merged) = (temp_path("a"), temp_path("b"), temp_path("merged"));
    let shard = label(&["--shard", "1/2", "--out", a.to_str().unwrap()]);
    assert!(shard.is_empty() || !shard.contains("labels.json"), "{shard}");
    assert!(!a.join("labels.json").exists(), "a shard does not describe the whole run");
    label(&["--shard", "2/2", "--out", b.to_str().unwrap()]);
    run_ok(&["merge", a.to_str().unwrap(), b.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    assert_eq!(files(&merged), whole, "two shards merged are the whole run");
    // The merged folder is a complete run: resuming it plays nothing and changes nothing.
    run_ok(&["label", "--resume", merged.to_str().unwrap(), "--quiet"]);
    assert_eq!(files(&merged), whole);
}

#[test]
fn a_resumed_run_plays_only_the_chunks_it_lacks() {
    let dir = temp_path("resume");
    label(&["--out", dir.to_str().unwrap()]);
    let whole = files(&dir);
    // As a run stopped before its second chunk was recorded: the state without it, its files
    // gone.
    let mut st = LabelState::from_json(&read(&dir.join("label.json"))).unwrap();
    let x = npy(&dir.join("labels-000001.x.npy"));
    st.done = mexican_train::tournament::ChunkSet(vec![(0, 1), (2, 3)]);
    st.labels -= x.shape[0] as u64;
    std::fs::write(dir.join("label.json"), st.to_json()).unwrap();
    for part in ["x", "y", "meta"] {
        std::fs::remove_file(dir.join(format!("labels-000001.{part}.npy"))).unwrap();
    }
    std::fs::remove_file(dir.join("labels.json")).unwrap();
    let out = run_ok(&["label", "--resume", dir.to_str().unwrap(), "--quiet"]);
    assert!(out.contains("in 3 chunks of three .npy files"), "{out}");
    assert_eq!(files(&dir), whole, "the resumed run wrote the missing chunk as the first run did");

    // A state that records a chunk whose files are gone is refused.
    std::fs::remove_file(dir.join("labels-000002.y.npy")).unwrap();
    rejects(&["label", "--resume", dir.to_str().unwrap()], &["labels-000002.y.npy", "missing"]);
}

#[test]
fn each_label_holds_the_observation_the_hands_and_targets_in_range() {
    let dir = temp_path("content");
    label(&["--out", dir.to_str().unwrap()]);
    let about: serde_json::Value = serde_json::from_str(&read(&dir.join("labels.json"))).unwrap();
    let (obs, width, tiles, n) = (276, 640, 91, 4);
    assert_eq!(about["features"], width);
    assert_eq!(about["observation"], serde_json::json!([0, obs]));
    assert_eq!(about["targets"], serde_json::json!(["margin", "win", "own", "margin_sd"]));
    let (mut rows, mut wins, mut sd_seen) = (0usize, 0f64, false);
    for c in 0..3 {
        let x = npy(&dir.join(format!("labels-{c:06}.x.npy")));
        let y = npy(&dir.join(format!("labels-{c:06}.y.npy")));
        let meta = npy(&dir.join(format!("labels-{c:06}.meta.npy")));
        let k = x.shape[0];
        assert_eq!((x.shape.clone(), y.shape.clone(), meta.shape.clone()), (vec![k, width], vec![k, 4], vec![k, 5]));
        let (x, y, meta) = (x.f32s(), y.f32s(), meta.u32s());
        for r in 0..k {
            let (xr, yr, mr) = (&x[r * width..(r + 1) * width], &y[r * 4..(r + 1) * 4], &meta[r * 5..(r + 1) * 5]);
            let seen = mr[3] as usize;
            assert!(seen < n && (mr[4] as usize) < n && (1..=13).contains(&mr[1]), "{mr:?}");
            // The seat's hand in its observation is its block among the hands.
            assert_eq!(&xr[..tiles], &xr[obs + seen * tiles..obs + (seen + 1) * tiles], "label {r} of chunk {c}");
            // Every tile is in at most one hand.
            for t in 0..tiles {
                let held: f32 = (0..n).map(|s| xr[obs + s * tiles + t]).sum();
                assert!(held <= 1.0, "tile {t} in {held} hands");
            }
            // The observation's seat one-hot names the seat the label is seen from.
            let seat_at = obs - 1 - 2 * n;
            assert_eq!(xr[seat_at + seen], 1.0, "{mr:?}");
            let (margin, win, own, sd) = (yr[0], yr[1], yr[2], yr[3]);
            assert!((0.0..=1.0).contains(&win) && own >= 0.0 && sd >= 0.0, "{yr:?}");
            assert!(margin.abs() <= 400.0, "{yr:?}");
            sd_seen |= sd > 0.0;
            wins += f64::from(win);
        }
        rows += k;
    }
    assert_eq!(about["labels"], rows);
    // Over ~700 labels, a seat wins a round about one time in four (seen from a seat at random).
    let share = wins / rows as f64;
    assert!(rows > 400 && (0.15..0.35).contains(&share), "{rows} labels, win share {share}");
    assert!(sd_seen, "three playouts of a shuffled boneyard disagree somewhere");

    // One playout: no spread.
    let single = temp_path("single");
    run_ok(&["label", "--matches", "2", "--rollouts", "1", "--quiet", "--out", single.to_str().unwrap()]);
    let y = npy(&single.join("labels-000000.y.npy")).f32s();
    assert!(y.chunks(4).all(|r| r[3] == 0.0), "margin_sd is 0 with one playout");
}

#[test]
fn bad_label_options_get_one_line_and_exit_code_2() {
    let dir = temp_path("bad");
    let out = dir.to_str().unwrap();
    rejects(&["label", "--matches", "2"], &["--out"]);
    rejects(&["label", "--out", out, "--rollouts", "0"], &["--rollouts", "1 to 1000"]);
    rejects(&["label", "--out", out, "--every", "0"], &["--every", "1 (every decision) to 10000"]);
    rejects(&["label", "--out", out, "--matches", "0"], &["--matches"]);
    rejects(&["label", "--out", out, "--policy", "nosuchbot"], &["--policy", "nosuchbot"]);
    rejects(&["label", "--out", out, "--rollout", "greedy:depth=3"], &["--rollout", "depth"]);
    rejects(&["label", "--out", out, "--rules", "nosuchpreset"], &["nosuchpreset"]);
    assert!(!dir.exists(), "nothing written for a refused run");
}
