#!/usr/bin/env bash
# The SPRT's false-positive rate, checked by simulation: many `--sprt 0,20` runs between two
# bots of exactly equal strength, each with its own seed; the test should accept "A is 20 Elo
# better" (H1) in at most about alpha = 5% of them.
#
# The two bots are one algorithm under two names: `expert:samples=1,depth=1` and the same with
# `ms=60000`, a one-minute time cap per decision that never comes near to triggering (a decision
# here takes microseconds), so both play every position identically; they draw on their own
# random streams, so their games differ. Two-player one-round games, duplicate deals.
#
# Writes results/sprt/{runs.csv, README.md}.
# Usage: scripts/checks/sprt-error.sh   (RUNS=400 by default: about 5 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
OUT="${OUT:-results/sprt}"
RUNS="${RUNS:-400}"
MT=target/release/mtrain
A="expert:samples=1,depth=1"
B="expert:samples=1,depth=1,ms=60000"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
export MT A B TMP
seq 1 "$RUNS" | xargs -P "$(nproc)" -I{} sh -c \
  '"$MT" tournament --players 2 --rounds 1 --bots "$A,$B" --sprt 0,20 --games 200000 --seed {} --threads 1 --quiet --out "$TMP/run-{}" > /dev/null'
python3 - "$TMP" "$OUT" "$RUNS" "$A" "$B" <<'PY'
import csv, json, math, os, sys
tmp, out, runs, a, b = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
rows = []
for i in range(1, runs + 1):
    d = os.path.join(tmp, f"run-{i}")
    with open(os.path.join(d, "manifest.json")) as f:
        m = json.load(f)
    with open(os.path.join(d, "pairs.csv")) as f:
        p = next(csv.DictReader(f))
    s = m["sprt"]
    rows.append([i, s["decision"], "%.6f" % s["llr"], int(p["comparisons"]), p["a_score"]])
with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["seed", "decision", "llr", "comparisons", "a_score"])
    w.writerows(rows)

def wilson(k, n, z=1.959964):
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, c - h, c + h

h1 = sum(r[1] == "H1" for r in rows)
h0 = sum(r[1] == "H0" for r in rows)
undecided = runs - h1 - h0
p, lo, hi = wilson(h1, runs)
comps = sorted(r[3] for r in rows)
with open(os.path.join(out, "README.md"), "w") as f:
    f.write("# The SPRT's error rate, checked by simulation\n\n")
    f.write("Written by `scripts/checks/sprt-error.sh` (do not edit); the runs are in `runs.csv`.\n\n")
    f.write(f"{runs} runs of `mtrain tournament --players 2 --rounds 1 --bots '{a},{b}' --sprt 0,20 "
            "--games 200000 --seed S`, S = 1 to %d. The two bots are one algorithm under two names (the second's "
            "one-minute time cap per decision never triggers), so their true Elo difference is exactly 0 = elo0, "
            "and the test should accept H1 (elo1 = 20) in at most about alpha = 5%% of runs.\n\n" % runs)
    f.write("| outcome | runs | share [95% interval] |\n|---|---|---|\n")
    f.write(f"| H1 accepted (false positive) | {h1} | {100*p:.1f}% [{100*lo:.1f}, {100*hi:.1f}] |\n")
    p0, lo0, hi0 = wilson(h0, runs)
    f.write(f"| H0 accepted | {h0} | {100*p0:.1f}% [{100*lo0:.1f}, {100*hi0:.1f}] |\n")
    f.write(f"| undecided after 200,000 games | {undecided} | |\n\n")
    f.write(f"Comparisons a run took: median {comps[len(comps)//2]:,}, 90th percentile "
            f"{comps[int(0.9*len(comps))]:,}, largest {comps[-1]:,}.\n")
print(f"H1 {h1}/{runs} = {100*p:.1f}% [{100*lo:.1f}, {100*hi:.1f}]; H0 {h0}; undecided {undecided}", file=sys.stderr)
PY
