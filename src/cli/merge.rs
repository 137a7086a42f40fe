//! `mtrain merge`: combines the outputs of tournament shards into the results of one run.
//!
//! The merged `summary.csv`, `seats.csv`, `pairs.csv` and `round_stats.csv` are byte-identical
//! to those of a single run of the same games, because every statistic is an exact integer sum.

use super::shard::{incomplete, missing_of, one_run, without_shard};
use super::tournament::{header, open};
use super::{AtomicFile, CliError, write_in_folder};
use crate::balance::{self as bal, Sweep, SweepConfig};
use crate::external::{DEFAULT_TIMEOUT, StderrTo};
use crate::job::{BALANCE, Folder, Kind, MANIFEST, TOURNAMENT, TUNE};
use crate::report::balance as brep;
use crate::report::manifest::{Invocation, Started};
use crate::report::tournament as rep;
use crate::strategies::Registry;
use crate::tournament::record::{GAMES_FILE, ROUNDS_FILE, concatenate};
use crate::tournament::{
    ChunkSet, PerGameMarks, RunState, STORE_FORMAT, SweepState, TOURNAMENT_KIND, TournamentConfig,
};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Options of `mtrain merge`.
#[derive(Args, Debug)]
pub(crate) struct MergeArgs {
    /// Output directories of the shards (each holds a tally.json)
    #[arg(required = true, value_name = "DIR")]
    dirs: Vec<PathBuf>,
    /// Where to write the merged results
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Accept a merge that lacks shards (exit code 0). Without it, an incomplete merge still
    /// writes what it has (`mtrain tournament --resume OUT` plays the rest) but exits with code
    /// 4, naming the missing shards on stderr
    #[arg(long)]
    partial: bool,
}

/// The build that wrote a folder, from its `manifest.json`: `mtrain VERSION (commit C)`.
fn build_of(dir: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("manifest.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let version = v.get("version")?.as_str()?;
    let commit = v.get("commit").and_then(|c| c.as_str()).unwrap_or("unknown");
    Some(format!("mtrain {version} (commit {commit})"))
}

/// The state of each folder in `dirs`, parsed by `parse`.
fn read_states<T, E: std::fmt::Display>(
    dirs: &[PathBuf],
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<Vec<T>, CliError> {
    let mut states = Vec::new();
    for d in dirs {
        let text = crate::job::read_state(&d.join("tally.json")).map_err(|e| {
            CliError::usage(format!(
                "cannot merge '{}': no readable tally.json ({})",
                d.display(),
                crate::job::io_text(&e)
            ))
        })?;
        states.push(parse(&text).map_err(|e| CliError::usage(format!("cannot merge '{}': {e}", d.display())))?);
    }
    Ok(states)
}

/// `mtrain merge` of balance shards: the cells' tallies added; the result files once every cell
/// is complete.
fn sweep(a: &MergeArgs, raw: &[String], base: &Registry, started: Started) -> Result<i32, CliError> {
    let (dirs, out) = (&a.dirs, &a.out);
    let states = read_states(dirs, SweepState::from_json)?;
    let configs: Vec<&serde_json::Value> = states.iter().map(|st| &st.config).collect();
    one_run(dirs, &configs, &states.iter().map(|st| st.shard).collect::<Vec<_>>())?;
    let merged = SweepState::merge_shards(&states).map_err(|(i, why)| {
        CliError::usage(format!("cannot merge '{}' (with '{}'): {why}", dirs[i].display(), dirs[0].display()))
    })?;
    // The merged sweep is rebuilt from the configuration the shards share.
    let c =
        SweepConfig::of(&merged).map_err(|e| CliError::usage(format!("cannot merge '{}': {e}", dirs[0].display())))?;
    let (p, registry, _ext) = super::balance::open(&c, base, StderrTo::Discard, DEFAULT_TIMEOUT.as_secs_f64())?;
    let config = c.to_value();
    let folder =
        Folder::create_merged(out, BALANCE, |text| SweepState::from_json(text).is_ok_and(|st| st.config == config))?;
    let complete = bal::complete(&merged);
    let (played, total_games) = (bal::games_played(&merged), p.planned_games(&merged, &registry)?);
    let inv = Invocation { subcommand: "merge", command: raw, started, threads: 0 };
    let stopped = (!complete).then_some("interrupted");
    let m = brep::manifest(&p, &inv, &c.spec.bots, None, (played, total_games), complete, stopped);
    folder.save(&[("manifest.json", m)], &merged.to_json(), &mut |p, b| write_in_folder(p, b))?;
    if !complete {
        outln!(
            "mtrain merge: {played} of {total_games} games of the sweep are in these folders; merge every shard for the results"
        );
        let chunks: Vec<u64> = merged.cells.iter().map(|c| c.chunks_total).collect();
        let done: Vec<&ChunkSet> = merged.cells.iter().map(|c| &c.done).collect();
        let n = states[0].shard.map_or(1, |(_, n)| n);
        let lacking = missing_of(n, &|s| SweepState::shard_plan(&chunks, s), &done);
        return Ok(incomplete("balance", &lacking, out, a.partial));
    }
    let cells = Sweep::cells_of(&merged);
    out!("{}", crate::report::tournament::trim_lines(&(brep::header(&p) + &brep::table(&p, &cells))));
    super::balance::write_results(out, &p, &cells, &c.spec.bots)?;
    Ok(0)
}

/// Refuses shards written by different builds of mtrain, naming two of them: a change to the
/// engine or a bot between builds would change the games, and the sums would mix two runs.
fn same_build(dirs: &[PathBuf]) -> Result<(), CliError> {
    let builds: Vec<(usize, String)> =
        dirs.iter().enumerate().filter_map(|(i, d)| build_of(d).map(|b| (i, b))).collect();
    if let Some((first, b0)) = builds.first()
        && let Some((i, b)) = builds.iter().find(|(_, b)| b != b0)
    {
        return Err(CliError::usage(format!(
            "cannot merge '{}' (with '{}'): its shard was written by {b}, the other by {b0}; play every shard with one build",
            dirs[*i].display(),
            dirs[*first].display()
        )));
    }
    Ok(())
}

pub(crate) fn run(a: &MergeArgs, raw_all: &[String], registry: &Registry) -> Result<i32, CliError> {
    let started = Started::now();
    // The output may not be an input: merging would read the files it replaces.
    let canon = |p: &std::path::Path| std::fs::canonicalize(p).ok();
    if let Some(out) = canon(&a.out)
        && let Some(d) = a.dirs.iter().find(|d| canon(d).as_ref() == Some(&out))
    {
        return Err(CliError::usage(format!(
            "merge --out '{}' is one of the folders to merge: give a new folder",
            d.display()
        )));
    }
    // Shards of one run are all of one kind: a sweep's folder beside a tournament's is a mix-up.
    let kinds: Vec<Option<Kind>> = a.dirs.iter().map(|d| Kind::of_folder(d)).collect();
    let first = kinds.iter().position(Option::is_some).map_or(TOURNAMENT, |i| kinds[i].expect("some"));
    if let Some(i) = kinds.iter().position(|k| k.is_some_and(|k| k != first)) {
        let (j, other) = (kinds.iter().position(|k| *k == Some(first)).expect("seen"), kinds[i].expect("some"));
        return Err(CliError::usage(format!(
            "cannot merge {} with {}: '{}' holds {}, '{}' {}; merge the shard folders of one run",
            first.described,
            other.described,
            a.dirs[j].display(),
            first.described,
            a.dirs[i].display(),
            other.described
        )));
    }
    if first == TUNE {
        return Err(CliError::usage(format!(
            "cannot merge '{}': it holds a tuning run, which has no shards (each SPSA iteration starts from the one before)",
            a.dirs[0].display()
        )));
    }
    same_build(&a.dirs)?;
    if first == BALANCE {
        return sweep(a, raw_all, registry, started);
    }
    let states = read_states(&a.dirs, RunState::from_json)?;
    let configs: Vec<&serde_json::Value> = states.iter().map(|st| &st.config).collect();
    one_run(&a.dirs, &configs, &states.iter().map(|st| st.shard).collect::<Vec<_>>())?;
    let with_rows = states.iter().filter(|st| st.per_game.is_some()).count();
    if with_rows != 0 && with_rows != states.len() {
        let lacking: Vec<String> = a
            .dirs
            .iter()
            .zip(&states)
            .filter(|(_, st)| st.per_game.is_none())
            .map(|(d, _)| d.display().to_string())
            .collect();
        return Err(CliError::usage(format!(
            "cannot merge: some shards have per-game files and {} do{} not (run them with --per-game, or merge only the tallies of shards without)",
            lacking.join(", "),
            if lacking.len() == 1 { "es" } else { "" }
        )));
    }
    let first = &states[0];
    let (done, tally) = RunState::merge_shards(&states).map_err(|(i, why)| {
        CliError::usage(format!("cannot merge '{}' (with '{}'): {why}", a.dirs[i].display(), a.dirs[0].display()))
    })?;
    // The merged run is rebuilt from the configuration the shards share. Nothing is played:
    // external bots are named, never started.
    let stored = TournamentConfig::of(first)
        .map_err(|e| CliError::usage(format!("cannot merge '{}': {e}", a.dirs[0].display())))?;
    let config = open(
        stored,
        None,
        registry,
        crate::external::StderrTo::Discard,
        crate::external::DEFAULT_TIMEOUT.as_secs_f64(),
    )?;
    let same = |text: &str| RunState::from_json(text).is_ok_and(|st| st.config == first.config);
    let folder = Folder::create_merged(&a.out, TOURNAMENT, same)?;
    // Arguments that reproduce the merged run: without the shard.
    let args = without_shard(&first.args);
    // The merged result stands for the whole run: a missing shard leaves it incomplete, and
    // `mtrain tournament --resume` on the merged directory plays what is missing.
    let mut plan = ChunkSet::default();
    plan.insert_range(0, first.chunks_total);
    let mut state = RunState {
        format: STORE_FORMAT,
        kind: TOURNAMENT_KIND.to_string(),
        config: first.config.clone(),
        shard: None,
        args,
        log_games: None,
        chunks_total: first.chunks_total,
        chunks_planned: plan,
        done,
        tally,
        per_game: None,
        check: 0,
    };
    let inv = Invocation { subcommand: "merge", command: raw_all, started, threads: 0 };
    // The manifest first, before the per-game files and the reports: a merge stopped before its
    // state file leaves a folder the same command recognises as a start of its own and replaces.
    write_in_folder(&a.out.join(MANIFEST), rep::manifest(&config.job, &inv, &state.args, &state, None).as_bytes())?;
    if with_rows > 0 {
        // Each shard's rows are its chunks in order, and the shards' chunks do not interleave:
        // the shards in chunk order, one after the other, are the whole run in game order.
        let mut order: Vec<usize> = (0..states.len()).filter(|&i| !states[i].done.is_empty()).collect();
        order.sort_by_key(|&i| states[i].done.0[0].0);
        for w in order.windows(2) {
            let (x, y) = (&states[w[0]].done.0, &states[w[1]].done.0);
            if x.last().map_or(0, |r| r.1) > y[0].0 {
                return Err(CliError::usage(format!(
                    "cannot merge the per-game files of '{}' and '{}': their games interleave (merge shards of one run, each played or resumed on its own)",
                    a.dirs[w[0]].display(),
                    a.dirs[w[1]].display()
                )));
            }
        }
        if order.is_empty() {
            order.push(0);
        }
        let mut marks = PerGameMarks::default();
        for (name, pick) in [(GAMES_FILE, 0), (ROUNDS_FILE, 1)] {
            let parts: Vec<(&std::path::Path, _)> = order
                .iter()
                .map(|&i| {
                    let m = states[i].per_game.expect("checked");
                    (a.dirs[i].as_path(), if pick == 0 { m.games } else { m.rounds })
                })
                .collect();
            let mut f = AtomicFile::create_in_folder(&a.out.join(name))?;
            let mark = concatenate(name, &parts, f.writer()).map_err(CliError::usage)?;
            f.commit()?;
            if pick == 0 {
                marks.games = mark;
            } else {
                marks.rounds = mark;
            }
        }
        state.per_game = Some(marks);
    }
    let mut files = vec![(MANIFEST, rep::manifest(&config.job, &inv, &state.args, &state, None))];
    files.extend(rep::files(&config.labels, &state.tally, config.anchor));
    folder.save(&files, &state.to_json(), &mut |p, b| write_in_folder(p, b))?;
    let mut report = header(&config);
    report.push('\n');
    report.push_str(&rep::console(&config.labels, &state.tally, config.anchor, config.gauntlet));
    let missing = state.chunks_total - state.done.len();
    if missing > 0 {
        report.push_str(&format!(
            "\nIncomplete: {missing} of {} chunks are in none of the merged directories\n",
            state.chunks_total
        ));
    }
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
    if missing > 0 {
        let total = state.chunks_total;
        let n = first.shard.map_or(1, |(_, n)| n);
        let lacking = missing_of(n, &|s| vec![ChunkSet::slice(total, s)], &[&state.done]);
        return Ok(incomplete("tournament", &lacking, &a.out, a.partial));
    }
    Ok(0)
}
