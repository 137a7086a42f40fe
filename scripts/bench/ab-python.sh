#!/bin/bash
# `mtrain.vec_env`'s speed in two builds of the package, measured in one process: build A's agent
# steps per CPU-second over build B's (above 1: A is faster). Each build is named by a Python
# interpreter that has it installed (e.g. target/pyenv/bin/python after scripts/checks/python-test.sh,
# and a venv holding the build before a change). Both packages are loaded in one process (copied
# as `mtrain_a` and `mtrain_b`); in each round a vec_env of each (n = 1,024, 4 players, wikipedia,
# seat 0 against `greedy`, seed 1) is stepped in alternate blocks of 10 steps, 60 blocks each, with
# the numpy pick of `bench-python.sh` (random legal actions), each build first in every other pair,
# and the CPU time of each build's blocks summed. A fresh process runs each round. The shared
# machine's speed changes within seconds; alternating blocks in one process is what keeps the
# ratio steady (about +-0.02 between rounds), where two medians taken a process apart move by a
# tenth. Prints each round's ratio and the median; writes nothing.
#
# Usage: scripts/bench/ab-python.sh PYTHON_A PYTHON_B [ROUNDS]    (ROUNDS: 5; a few seconds a round)
set -euo pipefail
if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: scripts/bench/ab-python.sh PYTHON_A PYTHON_B [ROUNDS]" >&2
  exit 2
fi
A="$1" B="$2" ROUNDS="${3:-5}"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "ab-python.sh: ROUNDS must be a positive whole number, not '$ROUNDS'" >&2; exit 2; }
PKGS="$(mktemp -d)"
trap 'rm -rf "$PKGS"' EXIT
for pair in "a:$A" "b:$B"; do
  label="${pair%%:*}" py="${pair#*:}"
  [[ -x "$py" ]] || { echo "ab-python.sh: $py is not an executable Python" >&2; exit 2; }
  dir="$("$py" -c 'import mtrain, os; print(os.path.dirname(mtrain.__file__))' 2>/dev/null)" \
    || { echo "ab-python.sh: $py has no mtrain package installed" >&2; exit 2; }
  cp -r "$dir" "$PKGS/mtrain_$label"
  rm -rf "$PKGS/mtrain_$label/__pycache__"
done
cat > "$PKGS/round.py" <<'PY'
import sys
import time

import numpy as np

sys.path.insert(0, sys.argv[1])
import mtrain_a
import mtrain_b

n, block, blocks = 1024, 10, 60
envs = [m.vec_env(n, ["greedy"], players=4, seed=1) for m in (mtrain_a, mtrain_b)]
priorities = np.random.default_rng(1).integers(1, 256, size=(8,) + envs[0].mask.shape, dtype=np.uint16)
done, cpu_s = [0, 0], [0.0, 0.0]


def run(i, steps):
    for _ in range(steps):
        envs[i].step((envs[i].mask * priorities[done[i] % 8]).argmax(axis=1))
        done[i] += 1


run(0, 100), run(1, 100)  # warm-up
for b in range(blocks):
    for i in ((0, 1) if b % 2 == 0 else (1, 0)):
        t = time.process_time()
        run(i, block)
        cpu_s[i] += time.process_time() - t
print(f"{cpu_s[1] / cpu_s[0]:.3f}")
PY
ratios=()
for r in $(seq 1 "$ROUNDS"); do
  x="$("$A" "$PKGS/round.py" "$PKGS")"
  echo "round $r: A over B $x"
  ratios+=("$x")
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{v[NR]=$1} END {m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2; printf "median of %d rounds: A over B %.3f (range %s to %s)\n", NR, m, v[1], v[NR]}'
