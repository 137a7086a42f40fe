//! `mtrain rules`: the presets, and every parameter of one with its value and source.

use super::CliError;
use crate::rules::{PARAMS, PRESETS, Rules, SHORTCUTS};
use clap::Args;
use std::fmt::Write as _;

/// Options of `mtrain rules`.
#[derive(Args, Debug)]
pub(crate) struct RulesArgs {
    /// The preset to show [valid: celko1998, wikipedia, dominorules, family_house, harbour_cay];
    /// without it, list the presets
    #[arg(value_name = "PRESET")]
    preset: Option<String>,
    /// Show the preset with this rule changed (repeatable), as `mtrain play --rule` would play it
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rule: Vec<String>,
}

pub(crate) fn run(a: &RulesArgs) -> Result<(), CliError> {
    let mut out = String::new();
    let Some(name) = &a.preset else {
        let w = PRESETS.iter().map(|p| p.name.len()).max().unwrap_or(0);
        for p in PRESETS {
            let _ = writeln!(out, "{:<w$}  {}", p.name, p.about);
        }
        out.push_str("\nmtrain rules PRESET prints every parameter of one; --rule KEY=VALUE changes one rule.\n");
        out.push_str("Sources, their full titles and every rule: docs/rules.md in the repository.\n");
        out!("{out}");
        return Ok(());
    };
    let base = Rules::preset(name).map_err(CliError::usage)?;
    let mut rules = base.clone();
    for r in &a.rule {
        rules.apply_rule(r).map_err(CliError::usage)?;
    }
    let _ = writeln!(out, "{}: {}", rules.preset, PRESETS.iter().find(|p| p.name == name).map_or("", |p| p.about));
    if let Err(e) = rules.validate() {
        let _ = writeln!(out, "note: as changed, these rules do not validate: {e}");
    }
    let kw = PARAMS.iter().map(|p| p.key.len()).max().unwrap_or(0);
    let vw = PARAMS.iter().map(|p| p.value(&rules).len()).max().unwrap_or(0).max(5);
    let _ = writeln!(out, "\n{:<kw$}  {:<vw$}  source", "parameter", "value");
    for p in PARAMS {
        let v = p.value(&rules);
        let src = if v == p.value(&base) { p.source(rules.preset).to_string() } else { "--rule".to_string() };
        let _ = writeln!(out, "{:<kw$}  {v:<vw$}  {src}", p.key);
    }
    let _ = writeln!(out, "\nDeal table (players -> tiles each; --hand overrides):");
    let mut sets: Vec<u8> = rules.deal_table.0.iter().map(|r| r.set).collect();
    sets.dedup();
    for set in sets {
        let entries: Vec<String> = rules.deal_table.entries(set).map(|(p, h)| format!("{p}->{h}")).collect();
        let _ = writeln!(out, "  double-{set}: {}", entries.join(", "));
    }
    let _ = writeln!(out, "\nRounds: every double from the highest down to 0-0 (--rounds K plays the first K).");
    let _ = writeln!(out, "Keys and values: mtrain rules {name} shows the value; valid values per key:");
    for p in PARAMS {
        let _ = writeln!(out, "  {:<kw$}  {} [{}]", p.key, p.about, (p.valid)());
    }
    let _ = writeln!(out, "Named variations, each setting several of the parameters above (docs/rules.md):");
    for v in SHORTCUTS {
        let _ = writeln!(out, "  {:<kw$}  {} [{}]", v.key, v.about, v.valid);
    }
    let _ = writeln!(out, "House rules and their sources, with examples: docs/house-rules.md");
    out!("{out}");
    Ok(())
}
