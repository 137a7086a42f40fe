//! `manifest.json`: one shape for every subcommand that writes a folder (`tournament`,
//! `balance`, `merge`), defined here with serde; `docs/csv.md` documents each field.
//!
//! Every manifest says what was run (the command line, mtrain's version and, when built from a
//! git checkout, its commit), under which rules (every option, and the ones `--rule` changed),
//! with which field and seed, on how many threads, when (start and end of the invocation that
//! wrote it, in UTC, and the seconds between), and whether the results are complete. What only
//! one subcommand has (a tournament's SPRT, a sweep's cells) follows in the same object.

use crate::rules::{PARAMS, Rules};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::SystemTime;

/// The rules of a run: the table and every option.
#[derive(Clone, Debug, Serialize)]
pub struct RulesRecord {
    /// The preset.
    pub preset: String,
    /// M of the double-M set.
    pub set: u8,
    /// Seats (a sweep: every player count it measures).
    pub players: Vec<u8>,
    /// Tiles dealt to each (a sweep: every hand size it measures; empty: the deal table's).
    pub hand: Vec<u8>,
    /// Rounds per match.
    pub rounds: u8,
    /// Every rule parameter, key → value, as `mtrain rules PRESET` lists them.
    pub options: BTreeMap<String, String>,
    /// The `--rule` options as given, key → value (empty for the plain preset).
    pub changed: BTreeMap<String, String>,
}

impl RulesRecord {
    /// The record of `rules` with the `--rule` changes `changed`, at `players` and `hand`.
    pub fn new(rules: &Rules, changed: &[(String, String)], players: Vec<u8>, hand: Vec<u8>) -> RulesRecord {
        RulesRecord {
            preset: rules.preset.name().to_string(),
            set: rules.set.get(),
            players,
            hand,
            rounds: rules.round_count(),
            options: PARAMS.iter().map(|p| (p.key.to_string(), p.value(rules))).collect(),
            changed: changed.iter().cloned().collect(),
        }
    }
}

/// A `manifest.json`.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Manifest {
    /// `tournament`, `balance` or `merge`.
    pub subcommand: String,
    /// The command line, program first.
    pub command: Vec<String>,
    /// mtrain's version.
    pub version: String,
    /// The git commit mtrain was built from (`+changes` when the checkout had uncommitted
    /// changes), when built from a checkout.
    pub commit: Option<String>,
    /// The rules.
    pub rules: RulesRecord,
    /// The distinct bots, as specs.
    pub field: Vec<String>,
    /// The seed.
    pub seed: u64,
    /// Worker threads (results do not depend on it; 0 for `merge`, which plays nothing).
    pub threads: usize,
    /// When the invocation that wrote this started, UTC, RFC 3339.
    pub started: String,
    /// When it wrote this, UTC, RFC 3339.
    pub ended: String,
    /// Seconds between the two.
    pub(crate) elapsed_seconds: f64,
    /// Whether every game planned was played (or an SPRT decided).
    pub complete: bool,
    /// Why it stopped early: `"interrupted"` (a signal, a failing bot) or `"sprt"`; null when
    /// it did not.
    pub stopped: Option<String>,
    /// What only this subcommand records.
    #[serde(flatten)]
    pub(crate) details: serde_json::Map<String, serde_json::Value>,
}

/// The invocation a manifest describes: the subcommand (`tournament`, `balance`, `merge`), the
/// command line, when it started, and the worker threads (0 for `merge`).
#[derive(Clone, Copy, Debug)]
pub struct Invocation<'a> {
    /// The subcommand recorded.
    pub subcommand: &'a str,
    /// The command line, program first.
    pub command: &'a [String],
    /// When it started.
    pub started: Started,
    /// Worker threads.
    pub threads: usize,
}

impl Invocation<'_> {
    /// The manifest of this invocation, written now, as pretty JSON.
    pub fn manifest(
        &self,
        rules: RulesRecord,
        field: Vec<String>,
        seed: u64,
        complete: bool,
        stopped: Option<&str>,
        details: serde_json::Value,
    ) -> String {
        Manifest::new(
            self.subcommand,
            self.command,
            rules,
            field,
            seed,
            self.threads,
            self.started,
            complete,
            stopped,
            details,
        )
        .to_json()
    }
}

/// When an invocation started: the wall clock for the manifest and the monotonic clock for the
/// elapsed time.
#[derive(Clone, Copy, Debug)]
pub struct Started {
    wall: SystemTime,
    mono: std::time::Instant,
}

impl Started {
    /// Now.
    pub fn now() -> Started {
        Started { wall: SystemTime::now(), mono: std::time::Instant::now() }
    }

    /// The time since it started.
    pub fn elapsed(&self) -> std::time::Duration {
        self.mono.elapsed()
    }
}

impl Manifest {
    /// A manifest written now, for an invocation that began at `started`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        subcommand: &str,
        command: &[String],
        rules: RulesRecord,
        field: Vec<String>,
        seed: u64,
        threads: usize,
        started: Started,
        complete: bool,
        stopped: Option<&str>,
        details: serde_json::Value,
    ) -> Manifest {
        let details = match details {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        };
        Manifest {
            subcommand: subcommand.to_string(),
            command: command.to_vec(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: option_env!("MTRAIN_GIT_COMMIT").map(str::to_string),
            rules,
            field,
            seed,
            threads,
            started: humantime::format_rfc3339_seconds(started.wall).to_string(),
            ended: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
            elapsed_seconds: (started.mono.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
            complete,
            stopped: stopped.map(str::to_string),
            details,
        }
    }

    /// Pretty JSON and a newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("serialisable") + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_has_every_common_field_and_the_details_beside_them() {
        let rules = Rules::wikipedia();
        let changed = vec![("tap".to_string(), "draw_two".to_string())];
        let mut r = rules.clone();
        r.apply_rule("tap=draw_two").unwrap();
        let rec = RulesRecord::new(&r, &changed, vec![4], vec![]);
        let m = Manifest::new(
            "tournament",
            &["mtrain".into(), "tournament".into()],
            rec,
            vec!["greedy".into()],
            7,
            2,
            Started::now(),
            true,
            None,
            serde_json::json!({"games": 12}),
        );
        let v: serde_json::Value = serde_json::from_str(&m.to_json()).unwrap();
        for key in [
            "subcommand",
            "command",
            "version",
            "commit",
            "rules",
            "field",
            "seed",
            "threads",
            "started",
            "ended",
            "elapsed_seconds",
            "complete",
            "stopped",
            "games",
        ] {
            assert!(v.get(key).is_some(), "{key} missing");
        }
        assert_eq!(v["rules"]["options"]["tap"], "draw_two");
        assert_eq!(v["rules"]["options"].as_object().unwrap().len(), PARAMS.len());
        assert_eq!(v["rules"]["changed"], serde_json::json!({"tap": "draw_two"}));
        assert_eq!(v["games"], 12);
        let started = v["started"].as_str().unwrap();
        assert!(started.len() == 20 && started.ends_with('Z') && &started[10..11] == "T", "{started}");
    }
}
