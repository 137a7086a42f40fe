#!/usr/bin/env bash
# Cost of the search bots per decision: `mtrain bench` on one thread, every seat the same bot,
# wikipedia, double-12, 2 and 4 players, full matches; medians of 3 timed runs of 5 s.
# Writes results/benchmarks/SEARCH.md and search-*.csv. Run on a quiet machine.
#
# Usage: scripts/bench/bench-search.sh   (about 3 minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-results/benchmarks}"
mkdir -p "$OUT"
cargo build --release --quiet
M=target/release/mtrain
# `expert` at its defaults, then the former `expert` (its defaults before the policy search) and
# that search with full rollouts, each spelled out so that it stays the same bot.
BOTS="montecarlo expert expert:rollout=greedy,prior=0,depth=8,samples=auto expert:rollout=greedy,prior=0,depth=0,samples=32 oracle oracle:search=flat oracle:search=flat,sees=hands"
for n in 2 4; do
  for b in $BOTS; do
    f="$OUT/search-${n}p-${b//[:=,]/-}.csv"
    $M bench --bots "$b" --players "$n" --threads 1 --seconds 5 --runs 3 --out "$f" > /dev/null
  done
done
python3 - "$OUT" "$BOTS" <<'PY'
import csv, os, platform, sys
out, bots = sys.argv[1], sys.argv[2].split()
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
with open(os.path.join(out, "SEARCH.md"), "w") as f:
    f.write("# Search bots: cost per decision\n\n")
    f.write(f"Machine: {cpu}, {os.cpu_count()} cores. Written by `scripts/bench/bench-search.sh` (do not edit): every seat the\n")
    f.write("same bot, wikipedia, double-12, full matches, one thread, median of 3 timed runs\n")
    f.write("(`mtrain bench --bots B --players N --threads 1 --seconds 5 --runs 3`). A decision is a call to the\n")
    f.write("bot with two or more legal moves.\n\n")
    f.write("| players | bot | decisions/s | µs per decision |\n|---|---|---|---|\n")
    for n in (2, 4):
        for b in bots:
            name = b.replace(":", "-").replace("=", "-").replace(",", "-")
            with open(os.path.join(out, f"search-{n}p-{name}.csv")) as c:
                r = next(csv.DictReader(c))
            ns = float(r["ns_per_decision"])
            f.write(f"| {n} | `{b}` | {float(r['decisions_per_s']):,.0f} | {ns / 1000:,.0f} |\n")
PY
echo "wrote $OUT/SEARCH.md" >&2
