//! `mtrain strategies`: the bots a command line knows (the built-ins, and any a program or
//! `--ext-bot` added), each with its idea, its parameters and their defaults.

use super::{BotArgs, CliError};
use crate::external::StderrTo;
use crate::strategies::{Origin, Registry};
use clap::Args;
use std::fmt::Write as _;

/// Options of `mtrain strategies`.
#[derive(Args, Debug)]
pub(crate) struct StrategiesArgs {
    #[command(flatten)]
    bot_args: BotArgs,
}

pub(crate) fn run(a: &StrategiesArgs, base: &Registry) -> Result<(), CliError> {
    let (registry, _ext) = a.bot_args.registry(base, StderrTo::Discard)?;
    let mut out = String::new();
    let entries = registry.entries();
    let w = entries.iter().map(|b| b.name.len()).max().unwrap_or(0);
    let pw = entries
        .iter()
        .flat_map(|b| b.params.iter().flatten())
        .map(|p| p.key.len() + 1 + p.default.len())
        .max()
        .unwrap_or(0);
    for b in entries {
        let origin = match &b.origin {
            Origin::BuiltIn => "",
            Origin::Rust => " [added by this program]",
            Origin::External(_) => " [external]",
            Origin::Alias(_) => " [named with --name]",
        };
        let _ = writeln!(out, "{:<w$}  {}{origin}", b.name, b.about);
        match &b.params {
            None => {
                let _ = writeln!(out, "{:<w$}    parameters are passed on to the program unchecked", "");
            }
            Some(p) if p.is_empty() => {
                let _ = writeln!(out, "{:<w$}    no parameters", "");
            }
            Some(params) => {
                for p in params {
                    let kv = format!("{}={}", p.key, p.default);
                    let _ = writeln!(out, "{:<w$}    {kv:<pw$}  {}", "", p.help);
                }
            }
        }
    }
    out.push_str("\nParameters are shown at their defaults. Use a bot in --bots as NAME or NAME:KEY=VALUE,...,\n");
    out.push_str("e.g. --bots planner,hoarder:release=1,late=2,cutthroat,greedy\n");
    out.push_str("Bring your own bot: --ext-bot NAME=COMMAND (docs/bot-protocol.md), or a Rust Strategy (README).\n");
    out!("{out}");
    Ok(())
}
