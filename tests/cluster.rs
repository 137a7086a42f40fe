//! A cluster, simulated: runs split into 64 shards played in a shuffled order, one shard killed
//! part-way and retried with the same command, merged to the bytes of one process; and every
//! template of docs/cluster.md run with the variables its scheduler sets.
#![cfg(unix)]

mod common;
use common::temp;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SHARDS: u64 = 64;
/// The variables a scheduler sets, cleared before each run so the test's own environment
/// (a CI job inside a Slurm array, say) cannot leak in.
const SCHEDULER_VARS: &[&str] = &[
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_CPUS_PER_TASK",
    "JOB_COMPLETION_INDEX",
    "PARALLEL_SEQ",
];

/// The binary with the scheduler variables cleared: unlike `common::bin`, which leaves the
/// environment as it is.
fn bin() -> Command {
    let mut c = common::bin();
    for k in SCHEDULER_VARS {
        c.env_remove(k);
    }
    c
}

fn ok(o: Output) -> Output {
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// A fixed-seed shuffle of 1..=n (an xorshift; the order only has to be arbitrary and replay).
fn shuffled(n: u64, seed: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (1..=n).collect();
    let mut x = seed;
    for i in (1..v.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.swap(i, (x % (i as u64 + 1)) as usize);
    }
    v
}

fn same_files(a: &Path, b: &Path, files: &[&str]) {
    for f in files {
        let (x, y) = (std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap());
        assert!(x == y, "{f} of {} differs from {}", a.display(), b.display());
    }
}

/// Plays `args --shard i/64 --out dir/shard-i` for every shard in a shuffled order; shard
/// `victim` is first killed part-way (SIGKILL once its first checkpoint is on disk, before it
/// finishes) and then retried with the very same command, as a scheduler retries a lost task.
/// Returns the shard folders.
fn play_shards(dir: &Path, args: &[&str], victim: u64) -> Vec<PathBuf> {
    let folder = |i: u64| dir.join(format!("shard-{i}"));
    let command = |i: u64| {
        let mut c = bin();
        c.args(args).args(["--shard", &format!("{i}/{SHARDS}"), "--out", &s(&folder(i)), "--quiet"]);
        c
    };
    let mut killed = false;
    for i in shuffled(SHARDS, 2026) {
        if i == victim {
            // A run is killed part-way when its folder shows the run started and the process
            // has not finished; a try that finishes first is simply tried again.
            for _ in 0..20 {
                let mut child = command(i).args(["--checkpoint", "0.001"]).stdout(Stdio::null()).spawn().unwrap();
                let started = Instant::now();
                while !folder(i).join("tally.json").exists() && started.elapsed() < Duration::from_secs(20) {
                    std::thread::sleep(Duration::from_micros(200));
                }
                // SAFETY: kill(2) on the pid of a child this test started and has not yet waited for.
                unsafe {
                    libc::kill(child.id() as libc::pid_t, libc::SIGKILL);
                }
                let status = child.wait().unwrap();
                if status.code().is_none() {
                    killed = true;
                    break;
                }
            }
            assert!(killed, "shard {i} finished every time before it could be killed");
            assert!(folder(i).join("tally.json").exists(), "the killed shard left no state");
        }
        ok(command(i).output().unwrap());
    }
    (1..=SHARDS).map(folder).collect()
}

fn merge(shards: &[PathBuf], out: &Path) -> Output {
    let mut a: Vec<String> = vec!["merge".into()];
    a.extend(shards.iter().map(|p| s(p)));
    a.extend(["--out".into(), s(out)]);
    bin().args(&a).output().unwrap()
}

#[test]
fn a_tournament_in_64_shards_with_one_killed_and_retried_merges_to_one_process() {
    let dir = temp("tournament");
    let run = ["tournament", "--bots", "greedy,random,planner", "--players", "4", "--games", "6000", "--seed", "9"];
    let one = dir.join("one");
    ok(bin().args(run).args(["--quiet", "--out", &s(&one)]).output().unwrap());
    let shards = play_shards(&dir, &run, 37);
    let merged = dir.join("merged");
    ok(merge(&shards, &merged));
    same_files(&merged, &one, &["summary.csv", "seats.csv", "pairs.csv", "ratings.csv", "round_stats.csv"]);
    // The merge refuses a shard given twice and one written by another build, naming them.
    let mut twice = shards.clone();
    twice.push(shards[5].clone());
    let o = merge(&twice, &dir.join("twice"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("shard-6"), "{}", String::from_utf8_lossy(&o.stderr));
    let m = shards[9].join("manifest.json");
    let text = std::fs::read_to_string(&m).unwrap();
    let at = text.find("\"commit\": ").unwrap();
    let end = at + text[at..].find(",\n").unwrap();
    std::fs::write(&m, format!("{}\"commit\": \"0000000\"{}", &text[..at], &text[end..])).unwrap();
    let o = merge(&shards, &dir.join("mixed"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("shard-10") && err.contains("commit 0000000") && err.contains("one build"), "{err}");
    assert!(!dir.join("mixed").exists(), "a refused merge wrote its folder");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_balance_sweep_in_64_shards_with_one_killed_and_retried_merges_to_one_process() {
    let dir = temp("balance");
    let run = [
        "balance",
        "--players",
        "2-4",
        "--hands",
        "8-10",
        "--games",
        "600",
        "--max-games",
        "600",
        "--rounds",
        "4",
        "--seed",
        "3",
    ];
    let one = dir.join("one");
    ok(bin().args(run).args(["--quiet", "--out", &s(&one)]).output().unwrap());
    let shards = play_shards(&dir, &run, 50);
    let merged = dir.join("merged");
    ok(merge(&shards, &merged));
    same_files(
        &merged,
        &one,
        &["balance.csv", "recommendation.csv", "decisions.csv", "skill.svg", "skill_ceiling.svg", "blocked_rate.svg"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// docs/cluster.md.
fn doc() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cluster.md")).unwrap()
}

/// The fenced blocks of `lang` in the section under `heading`, in order.
fn blocks(heading: &str, lang: &str) -> Vec<String> {
    let text = doc();
    let from = text.find(&format!("## {heading}\n")).unwrap_or_else(|| panic!("no section {heading}"));
    let section = &text[from + 3..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let fence = format!("```{lang}\n");
    section.split(&fence).skip(1).map(|b| b[..b.find("```").unwrap()].to_string()).collect()
}

/// A PATH with the test build's `mtrain` first, as a cluster node has it installed.
fn path_with_mtrain() -> String {
    let dir = Path::new(env!("CARGO_BIN_EXE_mtrain")).parent().unwrap().to_path_buf();
    format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default())
}

/// A shell running `script` in `cwd` with mtrain on its path and `env` set.
fn sh(cwd: &Path, script: &str, env: &[(&str, String)]) -> Output {
    let mut c = Command::new("bash");
    c.arg("-c").arg(script).current_dir(cwd).env("PATH", path_with_mtrain());
    for k in SCHEDULER_VARS {
        c.env_remove(k);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// The league the templates play, in one process, at `games` games.
fn one_process(cwd: &Path, games: &str) -> PathBuf {
    let out = cwd.join("one");
    let args = ["tournament", "--bots", "greedy,planner,cutthroat,weighted", "--players", "4", "--games", games];
    ok(bin().args(args).args(["--seed", "42", "--quiet", "--out", &s(&out)]).output().unwrap());
    out
}

const RESULTS: &[&str] = &["summary.csv", "seats.csv", "pairs.csv", "ratings.csv", "round_stats.csv"];

#[test]
fn the_slurm_template_runs_as_a_job_array() {
    let dir = temp("slurm");
    let b = blocks("Slurm job array", "sh");
    let (array, merge) = (&b[0], &b[1]);
    assert!(array.contains("#SBATCH --array=1-64") && array.contains("--shard auto"), "{array}");
    // Slurm runs the script once per task with these variables (an array 1-64: MIN 1).
    for id in shuffled(SHARDS, 7) {
        let env = [
            ("SLURM_ARRAY_TASK_ID", id.to_string()),
            ("SLURM_ARRAY_TASK_MIN", "1".to_string()),
            ("SLURM_ARRAY_TASK_MAX", "64".to_string()),
            ("SLURM_ARRAY_TASK_COUNT", "64".to_string()),
            ("SLURM_ARRAY_TASK_STEP", "1".to_string()),
            ("SLURM_CPUS_PER_TASK", "1".to_string()),
            ("GAMES", "4096".to_string()),
        ];
        ok(sh(&dir, array, &env));
    }
    ok(sh(&dir, merge, &[]));
    same_files(&dir.join("runs/league/all"), &one_process(&dir, "4096"), RESULTS);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_kubernetes_template_runs_as_an_indexed_job() {
    use yaml_rust2::{Yaml, YamlLoader};
    let dir = temp("k8s");
    let text = &blocks("Kubernetes Indexed Job", "yaml")[0];
    let job = &YamlLoader::load_from_str(text).unwrap()[0];
    assert_eq!(job["kind"].as_str(), Some("Job"));
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"].as_str(), Some("Indexed"));
    let completions = spec["completions"].as_i64().unwrap();
    assert_eq!(completions as u64, SHARDS);
    assert!(spec["backoffLimitPerIndex"].as_i64().is_some_and(|n| n > 0), "per-index retries");
    assert_eq!(spec["template"]["spec"]["restartPolicy"].as_str(), Some("Never"));
    let container = &spec["template"]["spec"]["containers"][0];
    let command: Vec<&str> = container["command"].as_vec().unwrap().iter().map(|y| y.as_str().unwrap()).collect();
    assert_eq!(command, ["mtrain"]);
    let args: Vec<String> =
        container["args"].as_vec().unwrap().iter().map(|y| y.as_str().unwrap().to_string()).collect();
    let mount = container["volumeMounts"][0]["mountPath"].as_str().unwrap();
    assert_eq!(mount, "/results");
    assert!(matches!(spec["template"]["spec"]["volumes"][0]["persistentVolumeClaim"], Yaml::Hash(_)));
    // Each pod, as Kubernetes starts it: JOB_COMPLETION_INDEX set, $(JOB_COMPLETION_INDEX) in
    // the arguments replaced; the volume is a folder here, and the games fewer.
    let games = args.iter().position(|a| a == "--games").unwrap() + 1;
    for index in shuffled(SHARDS, 11).into_iter().map(|i| i - 1) {
        let argv: Vec<String> = args
            .iter()
            .enumerate()
            .map(|(i, a)| if i == games { "4096".to_string() } else { a.clone() })
            .map(|a| a.replace("$(JOB_COMPLETION_INDEX)", &index.to_string()).replace("/results", &s(&dir)))
            .collect();
        ok(bin().args(&argv).env("JOB_COMPLETION_INDEX", index.to_string()).output().unwrap());
    }
    let merge_line = doc()
        .lines()
        .find_map(|l| {
            l.strip_prefix("`mtrain merge /results/")
                .map(|rest| format!("mtrain merge /results/{}", rest.trim_end_matches("`.")))
        })
        .expect("the merge line after the Job");
    ok(sh(&dir, &merge_line.replace("/results", &s(&dir)), &[]));
    same_files(&dir.join("league/all"), &one_process(&dir, "4096"), RESULTS);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_gnu_parallel_line_runs() {
    let dir = temp("parallel");
    let block = &blocks("GNU parallel", "sh")[0];
    let joined = block.replace("\\\n", " ");
    let mut lines = joined.lines();
    let line = lines.next().unwrap().to_string();
    let merge = lines.next().unwrap().to_string();
    assert!(
        line.starts_with("parallel ") && line.contains("--shard auto/64") && line.contains(" ::: $(seq 64)"),
        "{line}"
    );
    let (left, inputs) = line.split_once(" ::: ").unwrap();
    assert_eq!(inputs.trim(), "$(seq 64)");
    // The command parallel runs: what follows its own options. Each job gets its input as {}
    // and its sequence number as PARALLEL_SEQ, both 1 to 64 here; the games are fewer.
    let command = &left[left.find(" mtrain ").unwrap() + 1..];
    let command = command.replace("--games 1000000", "--games 4096");
    assert!(command.contains("--games 4096"), "{command}");
    std::fs::create_dir_all(dir.join("runs")).unwrap();
    for seq in shuffled(SHARDS, 13) {
        ok(sh(&dir, &command.replace("{}", &seq.to_string()), &[("PARALLEL_SEQ", seq.to_string())]));
    }
    ok(sh(&dir, &merge, &[]));
    same_files(&dir.join("runs/league/all"), &one_process(&dir, "4096"), RESULTS);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn tournament_shard(out: &Path, games: &str, seed: &str, shard: &str) -> Output {
    let a = ["tournament", "--bots", "greedy,random", "--games", games, "--seed", seed, "--quiet"];
    bin().args(a).args(["--shard", shard, "--out", &s(out)]).output().unwrap()
}

/// Shards of different runs are refused with the option that differs and both values, so the
/// stray folder is found at once.
#[test]
fn merge_names_each_setting_that_differs_between_shards() {
    let dir = temp("differs");
    let (a, b, c) = (dir.join("s1"), dir.join("s2"), dir.join("s3"));
    ok(tournament_shard(&a, "96", "1", "1/2"));
    ok(tournament_shard(&b, "96", "2", "2/2"));
    ok(tournament_shard(&c, "192", "1", "2/2"));
    for (other, says) in [
        (&b, format!("--seed differs (1 in '{}', 2 in '{}')", s(&a), s(&b))),
        (&c, format!("--games differs (96 in '{}', 192 in '{}')", s(&a), s(&c))),
    ] {
        let o = merge(&[a.clone(), other.clone()], &dir.join("m"));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("cannot merge '{}': it is not a shard of the same run as", s(other))), "{err}");
        assert!(err.contains(&says), "{err} lacks {says}");
        assert!(!dir.join("m").exists(), "a refused merge wrote its folder");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// More shards than chunks: `--games 96` is 24 deals in 2 chunks, so shard 1/3 holds none. It
/// says so and plays nothing; the merge counts it, and refuses it given twice (a shard is known
/// by its index, not only by its games).
#[test]
fn an_empty_shard_says_so_and_is_refused_twice_by_merge() {
    let dir = temp("empty-shard");
    let shards: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("s{i}"))).collect();
    for (i, d) in shards.iter().enumerate() {
        let o = ok(tournament_shard(d, "96", "1", &format!("{}/3", i + 1)));
        let err = String::from_utf8_lossy(&o.stderr);
        if i == 0 {
            assert!(
                err.contains(
                    "shard 1/3 holds no deals of this run (24 deals in 2 chunks of 16, for 3 shards): it plays nothing"
                ),
                "{err}"
            );
            assert_eq!(err.lines().count(), 1, "{err}");
        } else {
            assert!(err.is_empty(), "{err}");
        }
    }
    // The same folder twice, and a copy of it.
    let copy = dir.join("copy");
    std::fs::create_dir_all(&copy).unwrap();
    for e in std::fs::read_dir(&shards[0]).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), copy.join(e.file_name())).unwrap();
    }
    for (extra, says) in [
        (&shards[0], format!("cannot merge: '{}' is given twice (it holds shard 1/3)", s(&shards[0]))),
        (&copy, format!("cannot merge '{}': it holds shard 1/3, as '{}' does", s(&copy), s(&shards[0]))),
    ] {
        let twice = vec![shards[0].clone(), shards[1].clone(), extra.clone(), shards[2].clone()];
        let o = merge(&twice, &dir.join("twice"));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(&says), "{err} lacks {says}");
        assert!(!dir.join("twice").exists(), "a refused merge wrote its folder");
    }
    // Each shard once: the whole run.
    let one = dir.join("one");
    ok(bin()
        .args(["tournament", "--bots", "greedy,random", "--games", "96", "--seed", "1", "--quiet", "--out", &s(&one)])
        .output()
        .unwrap());
    let merged = dir.join("merged");
    ok(merge(&shards, &merged));
    same_files(&merged, &one, &["summary.csv", "seats.csv", "pairs.csv", "ratings.csv", "round_stats.csv"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
