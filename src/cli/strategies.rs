//! `mtrain strategies`: the built-in bots, each with its idea, its parameters and their defaults.

use super::CliError;
use crate::strategies::BOTS;
use clap::Args;
use std::fmt::Write as _;

/// Options of `mtrain strategies` (none yet).
#[derive(Args, Debug)]
pub(crate) struct StrategiesArgs {}

pub(crate) fn run(_a: &StrategiesArgs) -> Result<(), CliError> {
    let mut out = String::new();
    let w = BOTS.iter().map(|b| b.name.len()).max().unwrap_or(0);
    let pw = BOTS.iter().flat_map(|b| b.params).map(|p| p.key.len() + 1 + p.default.len()).max().unwrap_or(0);
    for b in BOTS {
        let _ = writeln!(out, "{:<w$}  {}", b.name, b.about);
        if b.params.is_empty() {
            let _ = writeln!(out, "{:<w$}    no parameters", "");
        }
        for p in b.params {
            let kv = format!("{}={}", p.key, p.default);
            let _ = writeln!(out, "{:<w$}    {kv:<pw$}  {}", "", p.help);
        }
    }
    out.push_str("\nParameters are shown at their defaults. Use a bot in --bots as NAME or NAME:KEY=VALUE,...,\n");
    out.push_str("e.g. --bots planner,hoarder:release=1,late=2,cutthroat,greedy\n");
    print!("{out}");
    Ok(())
}
