//! `mtrain web`: writes the play page (docs/web.md), the engine inside it.
//!
//! The engine is `web/mtrain.wasm`, the `web/` crate built for `wasm32-unknown-unknown` by
//! `scripts/regen/build-web.sh` and committed, so this command needs no WebAssembly toolchain;
//! `tests/web_page.rs` fails when the module is older than the sources it was built from.

use super::{AtomicFile, CliError, check_out_file};
use crate::report::html::page::written_with;
use crate::report::html::web::{MARKER, render};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// The engine, built by scripts/regen/build-web.sh.
const WASM: &[u8] = include_bytes!("../../web/mtrain.wasm");

/// Options of `mtrain web`.
#[derive(Args, Debug)]
pub(crate) struct WebArgs {
    /// The HTML file to write. An existing file is replaced only if it is a page `mtrain web`
    /// wrote
    #[arg(long, value_name = "FILE", default_value = "mtrain.html")]
    out: PathBuf,
}

pub(crate) fn run(args: &WebArgs) -> Result<(), CliError> {
    let out = &args.out;
    check_out_file("--out", out)?;
    if let Ok(meta) = std::fs::metadata(out)
        && meta.is_file()
        && !written_with(out, MARKER).is_ok_and(|ours| ours)
    {
        return Err(CliError::usage(format!(
            "--out '{}' exists and is not a page mtrain web wrote: not replacing it (remove it or choose another --out)",
            out.display()
        )));
    }
    let html = render(WASM);
    let mut f = AtomicFile::create(out)?;
    f.writer()
        .write_all(html.as_bytes())
        .map_err(|e| CliError::failure(format!("cannot write '{}': {}", out.display(), crate::store::io_text(&e))))?;
    f.commit()?;
    let summary = format!(
        "mtrain web: wrote {} ({:.1} MB; open it in a browser, no server needed)",
        out.display(),
        html.len() as f64 / 1e6
    );
    if std::fs::metadata(out).is_ok_and(|m| m.is_file()) {
        outln!("{summary}");
    } else {
        eprintln!("{summary}");
    }
    Ok(())
}
