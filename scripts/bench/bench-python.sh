#!/bin/bash
# Throughput of the Python environments, random legal actions: the vectorised environment
# (mtrain.vec_env, n games of seat 0 against greedy bots, 4 players, wikipedia) in agent steps
# per second at n = 1024, and the PettingZoo AEC environment driven from Python in turns per
# second. Each figure is the median of RUNS timed runs after a warm-up.
# Writes results/benchmarks/python.csv.
#
# Usage: scripts/bench/bench-python.sh     (about a minute on 2 cores; run it on a quiet machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/checks/python-test.sh -q -k "not a_random_match" > /dev/null   # builds and installs the package
OUT="${OUT:-results/benchmarks/python.csv}"
RUNS="${RUNS:-5}"
target/pyenv/bin/python - "$OUT" "$RUNS" <<'PY'
import csv, os, statistics, sys, time
import numpy as np
import mtrain
from mtrain.pettingzoo import env as aec_env

out, runs = sys.argv[1], int(sys.argv[2])
rows = []

def vec(n, steps):
    env = mtrain.vec_env(n, ["greedy"], players=4, seed=1)
    rng = np.random.default_rng(1)
    for _ in range(20):
        env.step((rng.random(env.mask.shape) * env.mask).argmax(axis=1).astype(np.int64))
    t = time.perf_counter()
    for _ in range(steps):
        env.step((rng.random(env.mask.shape) * env.mask).argmax(axis=1).astype(np.int64))
    return n * steps / (time.perf_counter() - t)

def aec(turns):
    e = aec_env(players=4)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    done = 0
    t = time.perf_counter()
    while done < turns:
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.integers(len(legal))]))
            done += 1
            if done >= turns:
                break
        e.reset()
    return turns / (time.perf_counter() - t)

cores = os.cpu_count()
for name, f in [("vec_env n=1024 steps/s", lambda: vec(1024, 100)), ("vec_env n=64 steps/s", lambda: vec(64, 1000)),
                ("pettingzoo turns/s", lambda: aec(20000))]:
    f()
    values = [f() for _ in range(runs)]
    rows.append([name, runs, cores, f"{min(values):.0f}", f"{statistics.median(values):.0f}", f"{max(values):.0f}"])
with open(out, "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["what", "runs", "cores", "min", "median", "max"])
    w.writerows(rows)
for r in rows:
    print(f"{r[0]:<26} median {int(r[4]):>10,}  (min {int(r[3]):,}, max {int(r[5]):,})")
PY
echo "wrote $OUT" >&2
