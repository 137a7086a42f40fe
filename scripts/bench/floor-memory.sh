#!/usr/bin/env bash
# What the greedy round does beyond the bare prototype engine, by callgrind's cache and branch
# simulation (issue "A plain-rules kernel"): instructions, data reads and writes, first-level
# data misses and mispredicted conditional branches per round, for the prototype's
# `floor play 20000 1` and this tree's `examples/rounds greedy 20000 play`, each less a run of 0
# rounds (the start-up). The prototype is the team's measuring stick, not part of this
# repository: a build of its `floor` binary is given as FLOOR. Counts do not depend on the load.
#
# Usage: FLOOR=/path/to/floor scripts/bench/floor-memory.sh     (about 2 minutes)
# Writes results/benchmarks/floor-memory.csv (`OUT=` another folder), which STEPS.md quotes.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-results/benchmarks}"
[[ -x "${FLOOR:-}" ]] || { echo "floor-memory.sh: FLOOR must name the prototype's floor binary" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "floor-memory.sh: valgrind is not installed" >&2; exit 2; }
# The example alone, as instructions.sh builds it.
cargo build --release --quiet --example rounds
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
sim() { # file command... : callgrind's summary lines
  valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --callgrind-out-file=/dev/null "${@:2}" \
    >/dev/null 2>"$TMP/$1"
}
sim floor0 "$FLOOR" play 0 1
sim floor "$FLOOR" play 20000 1
sim mtrain0 target/release/examples/rounds greedy 0 play
sim mtrain target/release/examples/rounds greedy 20000 play
python3 - "$TMP" "$OUT/floor-memory.csv" <<'PY'
import csv, re, sys
tmp, out = sys.argv[1], sys.argv[2]
def counts(name):
    text = open(f"{tmp}/{name}").read()
    num = lambda pat: int(re.search(pat, text).group(1).replace(",", ""))
    return {
        "instructions": num(r"I\s+refs:\s+([\d,]+)"),
        "data_reads": num(r"D\s+refs:\s+[\d,]+\s+\(\s*([\d,]+) rd"),
        "data_writes": num(r"D\s+refs:\s+[\d,]+\s+\(\s*[\d,]+ rd \+\s*([\d,]+) wr"),
        "d1_misses": num(r"D1\s+misses:\s+([\d,]+)"),
        "mispredicted_branches": num(r"Mispredicts:\s+[\d,]+\s+\(\s*([\d,]+) cond"),
    }
with open(out, "w", newline="") as f:
    w = csv.writer(f)
    cols = ["instructions", "data_reads", "data_writes", "d1_misses", "mispredicted_branches"]
    w.writerow(["engine", *cols])
    for label, name in (("prototype", "floor"), ("mtrain", "mtrain")):
        run, start = counts(name), counts(name + "0")
        per = {c: (run[c] - start[c]) / 20000 for c in cols}
        w.writerow([label, *(f"{per[c]:.1f}" for c in cols)])
        print(label, ", ".join(f"{c} {per[c]:,.1f}" for c in cols))
print(f"written to {out}")
PY
