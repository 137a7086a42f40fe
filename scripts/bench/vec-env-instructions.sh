#!/bin/bash
# Instructions per agent step of `mtrain.vec_env` (4 players, wikipedia, double-12, seat 0
# against `greedy`, 256 games, actions random legal ones picked by a numpy expression), counted
# with callgrind, which gives the same figure whatever the machine's load: a run of 200 steps
# minus a run of none (import, construction and the first deal cancel out), over 200 x 256. The
# whole process is counted, the bench's numpy pick included, with the functions that cost most.
# With BASE=PYTHON (an interpreter with another build of the package installed) that build is
# counted too, labelled "base".
# Writes results/benchmarks/vec-env-instructions.csv (what, build, instructions per agent step).
#
# Usage: [BASE=/path/to/python] scripts/bench/vec-env-instructions.sh    (about 3 minutes once built)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "vec-env-instructions.sh: valgrind is not installed" >&2; exit 2; }
scripts/checks/python-test.sh -q --collect-only > /dev/null   # builds and installs the package (no test runs)
OUT="${OUT:-results/benchmarks/vec-env-instructions.csv}"
# One thread each for the pool and numpy's OpenBLAS: callgrind runs threads one at a time, and
# an idle thread's spinning would add a count that differs from run to run.
export RAYON_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/steps.py" <<'PY'
import sys
import numpy as np
import mtrain

n, steps = int(sys.argv[1]), int(sys.argv[2])
env = mtrain.vec_env(n, ["greedy"], players=4, seed=1)
priorities = np.random.default_rng(1).integers(1, 256, size=(8,) + env.mask.shape, dtype=np.uint16)
for k in range(steps):
    env.step((env.mask * priorities[k % 8]).argmax(axis=1))
PY
N=256
STEPS=200
builds=("now:target/pyenv/bin/python")
[[ -n "${BASE:-}" ]] && builds+=("base:$BASE")
for b in "${builds[@]}"; do
  label="${b%%:*}"; py="${b#*:}"
  for s in 0 "$STEPS"; do
    valgrind --tool=callgrind --callgrind-out-file="$TMP/$label.$s.out" "$py" "$TMP/steps.py" "$N" "$s" 2>/dev/null
  done
done
python3 - "$TMP" "$OUT" "$N" "$STEPS" "${builds[@]}" <<'PY'
import csv, re, subprocess, sys

tmp, out, n, steps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
labels = [b.split(":", 1)[0] for b in sys.argv[5:]]


def functions(path):
    text = subprocess.run(["callgrind_annotate", "--threshold=100", path], capture_output=True, text=True).stdout
    total, per = 0, {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) (?:\([^)]*\))?\s+(.*)", line)
        if not m:
            continue
        count = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = count
            continue
        name = re.sub(r"\s*\[.*\]$", "", m.group(2)).split(":", 1)[-1].strip()
        per[name] = per.get(name, 0) + count
    return total, per


rows = []
for label in labels:
    (t0, f0), (t1, f1) = functions(f"{tmp}/{label}.0.out"), functions(f"{tmp}/{label}.{steps}.out")
    agent_steps = n * steps
    rows.append(["agent step", label, round((t1 - t0) / agent_steps)])
    diff = {k: f1.get(k, 0) - f0.get(k, 0) for k in set(f0) | set(f1)}
    for name, v in sorted(diff.items(), key=lambda kv: -kv[1])[:12]:
        rows.append([name, label, round(v / agent_steps)])
with open(out, "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["what", "build", "instructions_per_agent_step"])
    w.writerows(rows)
for r in rows:
    print(f"{r[2]:>8}  {r[1]:<5} {r[0][:110]}")
PY
echo "wrote $OUT" >&2
