//! `mtrain merge`: combines the outputs of tournament shards into the results of one run.
//!
//! The merged `summary.csv`, `seats.csv`, `pairs.csv` and `round_stats.csv` are byte-identical
//! to those of a single run of the same games, because every statistic is an exact integer sum.

use super::tournament::{
    GAMES_HEADER, fingerprint, header, manifest, merge_rows, rounds_header, stored_config, write_outputs,
};
use super::{CliError, write_atomic};
use crate::report::tournament as rep;
use crate::tournament::{ChunkSet, RunState, STORE_FORMAT};
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
}

pub(crate) fn run(a: &MergeArgs, raw_all: &[String], registry: &crate::strategies::Registry) -> Result<i32, CliError> {
    let mut states = Vec::new();
    for d in &a.dirs {
        let text = std::fs::read_to_string(d.join("tally.json"))
            .map_err(|e| CliError::usage(format!("cannot merge '{}': no readable tally.json ({e})", d.display())))?;
        let st =
            RunState::from_json(&text).map_err(|e| CliError::usage(format!("cannot merge '{}': {e}", d.display())))?;
        states.push(st);
    }
    let first = &states[0];
    for (d, st) in a.dirs.iter().zip(&states).skip(1) {
        if st.fingerprint != first.fingerprint {
            return Err(CliError::usage(format!(
                "cannot merge '{}' with '{}': they are shards of different runs (rules, bots, seed or games differ)",
                d.display(),
                a.dirs[0].display()
            )));
        }
    }
    let mut done = ChunkSet::default();
    let mut tally = first.tally.clone();
    tally.clusters.iter_mut().for_each(|c| *c = Default::default());
    (tally.deals, tally.games, tally.rounds) = (0, 0, 0);
    for (d, st) in a.dirs.iter().zip(&states) {
        if done.overlaps(&st.done) {
            return Err(CliError::usage(format!(
                "cannot merge '{}': its games overlap another directory's (the same shard given twice?)",
                d.display()
            )));
        }
        done.union(&st.done);
        tally.merge(&st.tally);
    }
    let mut argv = vec!["mtrain".to_string(), "tournament".to_string()];
    argv.extend(first.args.iter().cloned());
    // Nothing is played: external bots are named, never started.
    let mut config = stored_config(
        &argv,
        registry,
        crate::external::StderrTo::Discard,
        crate::external::DEFAULT_TIMEOUT.as_secs_f64(),
    )?;
    config.shard = None;
    if fingerprint(&config) != first.fingerprint {
        return Err(CliError::usage("cannot merge: the stored run arguments no longer describe these shards"));
    }
    super::tournament::check_out_dir(&a.out)?;
    // Arguments that reproduce the merged run: without the shard.
    let mut args = Vec::new();
    let mut it = first.args.iter();
    while let Some(x) = it.next() {
        if x == "--shard" {
            it.next();
        } else if !x.starts_with("--shard=") {
            args.push(x.clone());
        }
    }
    // The merged result stands for the whole run: a missing shard leaves it incomplete, and
    // `mtrain tournament --resume` on the merged directory plays what is missing.
    let mut plan = ChunkSet::default();
    plan.insert_range(0, first.chunks_total);
    let state = RunState {
        format: STORE_FORMAT,
        fingerprint: first.fingerprint.clone(),
        args,
        chunks_total: first.chunks_total,
        chunks_planned: plan,
        done,
        tally,
    };
    let t = &config.tournament;
    if a.dirs.iter().all(|d| d.join("games.csv").is_file() && d.join("rounds.csv").is_file()) {
        let read = |p: PathBuf| {
            std::fs::read_to_string(&p).map_err(|e| CliError::usage(format!("cannot read '{}': {e}", p.display())))
        };
        let mut g_old = String::from(GAMES_HEADER);
        let mut r_old = rounds_header(t.rules.players as usize);
        for d in &a.dirs {
            g_old.extend(read(d.join("games.csv"))?.lines().skip(1).map(|l| format!("{l}\n")));
            r_old.extend(read(d.join("rounds.csv"))?.lines().skip(1).map(|l| format!("{l}\n")));
        }
        let mut g = GAMES_HEADER.as_bytes().to_vec();
        g.extend(merge_rows(&g_old, &[], 3));
        let mut r = rounds_header(t.rules.players as usize).into_bytes();
        r.extend(merge_rows(&r_old, &[], 2));
        write_atomic(&a.out.join("games.csv"), &g)?;
        write_atomic(&a.out.join("rounds.csv"), &r)?;
    }
    write_outputs(&a.out, &t.specs, &state.tally)?;
    write_atomic(&a.out.join("tally.json"), state.to_json().as_bytes())?;
    let threads = 0;
    write_atomic(&a.out.join("manifest.json"), manifest(&config, raw_all, threads, &state, None).as_bytes())?;
    let mut report = header(&config);
    report.push('\n');
    report.push_str(&rep::console(&t.specs, &state.tally));
    let missing = state.chunks_total - state.done.len();
    if missing > 0 {
        report.push_str(&format!(
            "\nIncomplete: {missing} of {} chunks are in none of the merged directories\n",
            state.chunks_total
        ));
    }
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
    Ok(0)
}
