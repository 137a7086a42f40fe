#!/bin/bash
# Throughput of the Python environments per CPU-second, with random legal actions on the same
# matches (4 players, wikipedia, double-12), each figure interleaved with its baseline in one run:
#
# - `State` driven directly: each step asks the seat to act for its observation tensor and
#   action mask (`State.observe`) and plays a random legal action (the baseline);
# - the PettingZoo AEC environment (`mtrain.pettingzoo.env`) with the same steps through
#   PettingZoo's loop (`agent_iter`, `last`, `step`);
# - `mtrain.vec_env` at n = 1,024 and n = 64 (seat 0 against `greedy`), agent steps (a step of
#   every game) per CPU-second of the process, bots' turns included;
# - the memory each vec_env game keeps: the growth of the process's resident memory when
#   65,536 games are made, over 65,536.
#
# Each rate is the median of RUNS rounds; in each round every measure runs once, in turn, so a
# busy machine slows them alike. Writes results/benchmarks/python.csv.
#
# Usage: scripts/bench/bench-python.sh     (about two minutes on 2 cores; a quiet machine is best)
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
STEPS = 20_000


def cpu(f):
    """Steps per CPU-second of the process (every thread's time counted)."""
    t = time.process_time()
    steps = f()
    return steps / (time.process_time() - t)


def state():
    game, rng, done, k = mtrain.Game("wikipedia", players=4), np.random.default_rng(1), 0, 0
    while done < STEPS:
        s = game.new_state(mtrain.episode_seed(1, k)) if hasattr(mtrain, "episode_seed") else game.new_state(k)
        k += 1
        while not s.is_terminal() and done < STEPS:
            obs, mask = s.observe(s.current_player())
            legal = mask.nonzero()[0]
            s.apply_action(int(legal[rng.integers(len(legal))]))
            done += 1
    return done


def aec():
    e, rng, done = aec_env(players=4), np.random.default_rng(1), 0
    e.reset(seed=1)
    while done < STEPS:
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.integers(len(legal))]))
            done += 1
            if done >= STEPS:
                break
        e.reset()
    return done


def vec(n, steps):
    env = mtrain.vec_env(n, ["greedy"], players=4, seed=1)
    rng = np.random.default_rng(1)

    def run():
        for _ in range(steps):
            env.step((rng.random(env.mask.shape) * env.mask).argmax(axis=1))
        return n * steps

    run()
    return run


def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


measures = {
    "State steps/cpu-s": state,
    "pettingzoo AEC steps/cpu-s": aec,
    "vec_env n=1024 steps/cpu-s": vec(1024, 40),
    "vec_env n=64 steps/cpu-s": vec(64, 400),
}
for f in measures.values():
    f()  # warm-up
values = {name: [] for name in measures}
for _ in range(runs):
    for name, f in measures.items():
        values[name].append(cpu(f))
rows = [[name, runs, os.cpu_count(), f"{min(v):.0f}", f"{statistics.median(v):.0f}", f"{max(v):.0f}"] for name, v in values.items()]
ratio = [statistics.median(values["State steps/cpu-s"]) / statistics.median(values["pettingzoo AEC steps/cpu-s"])]
rows.append(["State over AEC (ratio of medians)", runs, os.cpu_count(), "", f"{ratio[0]:.2f}", ""])
before = resident()
big = mtrain.vec_env(65_536, ["greedy"], players=4, seed=1)
per_game = (resident() - before) / len(big)
rows.append(["vec_env bytes per game (n=65536)", 1, os.cpu_count(), "", f"{per_game:.0f}", ""])
with open(out, "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["what", "runs", "cores", "min", "median", "max"])
    w.writerows(rows)
for r in rows:
    print(f"{r[0]:<36} median {r[4]:>10}  (min {r[3]}, max {r[5]})")
PY
echo "wrote $OUT" >&2
