//! The smallest useful bot for mtrain's bot protocol (`docs/bot-protocol.md`): it reads each
//! message's type, shakes hands, and always plays the first legal move. It exists to measure
//! what the protocol itself costs per decision (`mtrain bench --ext-bot`), so it does nothing
//! else; `examples/bots/greedy.py` is the one to read for writing a real bot.
//!
//! Build and run it:
//!
//! ```text
//! cargo build --release --example minimal_bot
//! mtrain bench --ext-bot first=target/release/examples/minimal_bot --bots first --threads 1
//! ```

use std::io::{BufRead, Write};

/// Only the field this bot reads; serde skips the rest of the line.
#[derive(serde::Deserialize)]
struct Message<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
}

fn main() {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line).unwrap_or(0) == 0 {
            return; // mtrain closed our input: the run is over
        }
        let Ok(msg) = serde_json::from_str::<Message<'_>>(&line) else {
            eprintln!("minimal_bot: cannot read {line:?}");
            std::process::exit(1);
        };
        let reply: &[u8] = match msg.kind {
            "hello" => b"{\"type\":\"ready\",\"protocol\":1,\"name\":\"minimal_bot\"}\n",
            "decide" => b"{\"move\":0}\n",
            "quit" => return,
            _ => continue,
        };
        if out.write_all(reply).and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}
