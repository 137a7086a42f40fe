#!/usr/bin/env bash
# External bots (issue "Bring your own bot"): what the bot protocol itself costs per decision.
#   - examples/bots/minimal.rs (answers every `decide` with move 0) in every seat: the cost of
#     a request and its answer, JSON included, over pipes;
#   - examples/bots/greedy.py in every seat: a bot in Python, for comparison;
#   - the built-in greedy, the engine alone.
# 4 players, double-12, wikipedia, full matches; `mtrain bench`, medians of 5 timed runs at 1
# and 2 threads. Regenerates results/benchmarks/EXTERNAL.md and its CSV files.
#
# Usage: scripts/bench/bench-external.sh      (about 2 minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-results/benchmarks}"
SECONDS_PER="${SECONDS_PER:-10}"
mkdir -p "$OUT"
cargo build --release --quiet
cargo build --release --quiet --example minimal_bot
M=target/release/mtrain
MIN=target/release/examples/minimal_bot
$M bench --players 4 --ext-bot first="$MIN" --bots first --threads 1,2 --seconds "$SECONDS_PER" --runs 5 \
  --out "$OUT/external-minimal.csv" > "$OUT/external-minimal.txt"
$M bench --players 4 --ext-bot pygreedy='python3 examples/bots/greedy.py' --bots pygreedy --threads 1,2 \
  --seconds "$SECONDS_PER" --runs 5 --out "$OUT/external-python.csv" > "$OUT/external-python.txt"
$M bench --players 4 --bots greedy --threads 1,2 --seconds "$SECONDS_PER" --runs 5 \
  --out "$OUT/external-builtin.csv" > "$OUT/external-builtin.txt"
cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
python3 - "$OUT" "$cpu" "$(nproc)" "$(python3 --version)" <<'PY'
import csv, sys
out, cpu, cores, py = sys.argv[1:5]
def rows(name):
    with open(f"{out}/external-{name}.csv") as f:
        return list(csv.DictReader(f))
f = lambda x: f"{float(x):,.0f}"
with open(f"{out}/EXTERNAL.md", "w") as w:
    w.write("# External bots: the protocol's own cost\n\n")
    w.write(f"Machine: {cpu}, {cores} cores; {py}. Regenerate with `scripts/bench/bench-external.sh` (written by it; do not edit).\n")
    w.write("4 players, double-12, `wikipedia`, full 13-round matches, the same bot in every seat; each figure is the\n")
    w.write("median of 5 timed runs of `mtrain bench --ext-bot NAME=COMMAND --bots NAME --threads 1,2 --seconds 10 --runs 5`.\n")
    w.write("A decision is one `decide` request and its answer; \"µs per decision\" is thread time per decision,\n")
    w.write("the engine's own share included (the built-in greedy's row shows how small it is).\n\n")
    w.write("| bot | threads | decisions/s | decisions/s per thread | µs per decision | rounds/s |\n|---|---|---|---|---|---|\n")
    for name, label in (("minimal", "`examples/bots/minimal.rs` (compiled, move 0)"),
                        ("python", "`examples/bots/greedy.py` (Python, plays as greedy)"),
                        ("builtin", "built-in `greedy` (no protocol)")):
        for r in rows(name):
            t = int(r["threads"])
            w.write(f"| {label} | {t} | {f(r['decisions_per_s'])} | {f(float(r['decisions_per_s']) / t)} "
                    f"| {float(r['ns_per_decision']) / 1000:.2f} | {f(r['rounds_per_s'])} |\n")
    m = rows("minimal")
    worst = max(float(r["ns_per_decision"]) for r in m) / 1000
    w.write(f"\nThe protocol's own cost: at most {worst:.1f} µs per decision on this machine "
            f"({min(float(r['decisions_per_s']) / int(r['threads']) for r in m):,.0f} decisions per second per thread or more).\n")
PY
cat "$OUT/EXTERNAL.md"
