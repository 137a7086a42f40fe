#!/bin/bash
# Throughput of the Python environments per CPU-second, with random legal actions on the same
# matches (4 players, wikipedia, double-12), each figure interleaved with its baseline in one run:
#
# - `State` driven directly: each step asks the seat to act for its observation tensor and
#   action mask (`State.observe`) and plays a random legal action (the baseline);
# - the PettingZoo AEC environment (`mtrain.pettingzoo.env`) with the same steps through
#   PettingZoo's loop (`agent_iter`, `last`, `step`);
# - `mtrain.vec_env` at n = 1,024 and n = 64 (seat 0 against `greedy`), agent steps (a step of
#   every game) per CPU-second of the process, bots' turns included, the actions random legal
#   ones picked by a cheap numpy expression;
# - the memory each vec_env game keeps: the growth of the process's resident memory when
#   65,536 games are made and stepped 200 times, over 65,536.
#
# Each rate is the median of RUNS rounds; in each round every measure runs once, in turn, each in
# a fresh process, so a busy machine slows them alike. With BASE=PYTHON (an interpreter with
# another build of the package installed, e.g. the one before a change), every measure that
# build can run is also run there, interleaved in the same rounds, and labelled "(base)".
#
# The shared machine's speed changes within seconds, so the ratio of two medians taken a process
# apart moves by a tenth from run to run. With BASE, each round also measures the vec_env ratio
# inside one process: the base's package loaded beside this one (as `mtrain_base`), the two
# vec_envs (n = 1,024) stepped in alternate blocks of 10 steps, 30 blocks each, and the CPU time
# of each build's blocks summed ("vec_env n=1024 over base, one process": the median of the
# rounds' ratios), which moves by about 0.03.
# Writes results/benchmarks/python.csv.
#
# Usage: [BASE=/path/to/python] scripts/bench/bench-python.sh     (about three minutes on 2 cores once built)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/checks/python-test.sh -q --collect-only > /dev/null   # builds and installs the package (no test runs)
OUT="${OUT:-results/benchmarks/python.csv}"
RUNS="${RUNS:-7}"
BENCH="$(mktemp --suffix=.py)"
BASEPKG="$(mktemp -d)"
trap 'rm -rf "$BENCH" "$BASEPKG"' EXIT
if [[ -n "${BASE:-}" ]]; then
  # The base's package under another name, to load beside this one in one process.
  cp -r "$("$BASE" -c 'import mtrain, os; print(os.path.dirname(mtrain.__file__))')" "$BASEPKG/mtrain_base"
  rm -rf "$BASEPKG/mtrain_base/__pycache__"
fi
cat > "$BENCH" <<'PY'
import csv, os, statistics, subprocess, sys, time
import numpy as np
import mtrain

STEPS = 60_000


def cpu(f):
    """Steps per CPU-second of the process (every thread's time counted)."""
    t = time.process_time()
    steps = f()
    return steps / (time.process_time() - t)


def state():
    game, rng, done, k = mtrain.Game("wikipedia", players=4), np.random.default_rng(1), 0, 0
    while done < STEPS:
        s = game.new_state(mtrain.episode_seed(1, k))
        k += 1
        while not s.is_terminal() and done < STEPS:
            obs, mask = s.observe(s.current_player())
            legal = mask.nonzero()[0]
            s.apply_action(int(legal[rng.integers(len(legal))]))
            done += 1
    return done


def aec():
    from mtrain.pettingzoo import env as aec_env

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
    # Random legal actions at little cost of their own: the legal action of highest priority,
    # the priorities drawn once (8 tables in turn), so the figure is the environment's.
    rng = np.random.default_rng(1)
    priorities = rng.integers(1, 256, size=(8,) + env.mask.shape, dtype=np.uint16)

    def run():
        for k in range(steps):
            env.step((env.mask * priorities[k % 8]).argmax(axis=1))
        return n * steps

    run()  # warm-up
    return run


def bytes_per_game():
    with open("/proc/self/statm") as f:
        before = int(f.read().split()[1])
    big = mtrain.vec_env(65_536, ["greedy"], players=4, seed=1)
    # In play, not just dealt: 200 steps (most of a 13-round match) grow whatever grows.
    for _ in range(200):
        big.step(big.mask.argmax(axis=1))
    with open("/proc/self/statm") as f:
        after = int(f.read().split()[1])
    return (after - before) * os.sysconf("SC_PAGE_SIZE") / len(big)


def one_process():
    """vec_env's agent steps per CPU-second over the base's, both stepped in this process."""
    sys.path.insert(0, os.environ["BASEPKG"])
    import mtrain_base

    n, block, blocks = 1024, 10, 30
    envs = [mtrain.vec_env(n, ["greedy"], players=4, seed=1), mtrain_base.vec_env(n, ["greedy"], players=4, seed=1)]
    priorities = np.random.default_rng(1).integers(1, 256, size=(8,) + envs[0].mask.shape, dtype=np.uint16)
    done, cpu_s = [0, 0], [0.0, 0.0]

    def run(i, steps):
        for _ in range(steps):
            envs[i].step((envs[i].mask * priorities[done[i] % 8]).argmax(axis=1))
            done[i] += 1

    run(0, 100), run(1, 100)  # warm-up
    for b in range(blocks):
        for i in ((0, 1) if b % 2 == 0 else (1, 0)):  # each build first in every other pair
            t = time.process_time()
            run(i, block)
            cpu_s[i] += time.process_time() - t
    return cpu_s[1] / cpu_s[0]


MEASURES = {
    "State steps/cpu-s": lambda: cpu(state),
    "pettingzoo AEC steps/cpu-s": lambda: cpu(aec),
    "vec_env n=1024 steps/cpu-s": lambda: cpu(vec(1024, 150)),
    "vec_env n=64 steps/cpu-s": lambda: cpu(vec(64, 2000)),
    "vec_env bytes per game (n=65536, 200 steps)": bytes_per_game,
}

if sys.argv[1] == "--together":  # both builds in this process: print the ratio
    print(one_process())
    sys.exit(0)
if sys.argv[1] == "--one":  # one measure in this process: print its figure, or nothing
    try:
        print(MEASURES[sys.argv[2]]())
    except AttributeError:  # a build without what the measure uses
        pass
    sys.exit(0)

out, runs, base = sys.argv[1], int(sys.argv[2]), sys.argv[3]
pythons = [("", sys.executable)] + ([(" (base)", base)] if base else [])
values = {}
ONE = "vec_env n=1024 over base, one process"
for r in range(runs):
    for name in MEASURES:
        if name.startswith("vec_env bytes") and r > 0:
            continue
        for label, python in pythons:
            got = subprocess.run([python, __file__, "--one", name], capture_output=True, text=True, check=True).stdout
            if got.strip():
                values.setdefault(name + label, []).append(float(got))
    if base:
        got = subprocess.run([sys.executable, __file__, "--together"], capture_output=True, text=True, check=True)
        values.setdefault(ONE, []).append(float(got.stdout))
rows = [[name, len(v), os.cpu_count(), f"{min(v):.0f}", f"{statistics.median(v):.0f}", f"{max(v):.0f}"]
        for name, v in values.items() if name != ONE]
med = {name: statistics.median(v) for name, v in values.items()}
rows.append(["State over AEC", runs, os.cpu_count(), "", f"{med['State steps/cpu-s'] / med['pettingzoo AEC steps/cpu-s']:.2f}", ""])
if "vec_env n=1024 steps/cpu-s (base)" in med:
    rows.append(["vec_env n=1024 over base", runs, os.cpu_count(), "",
                 f"{med['vec_env n=1024 steps/cpu-s'] / med['vec_env n=1024 steps/cpu-s (base)']:.2f}", ""])
    v = values[ONE]
    rows.append([ONE, len(v), os.cpu_count(), f"{min(v):.3f}", f"{statistics.median(v):.3f}", f"{max(v):.3f}"])
with open(out, "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["what", "runs", "cores", "min", "median", "max"])
    w.writerows(rows)
for row in rows:
    print(f"{row[0]:<44} median {row[4]:>10}  (min {row[3]}, max {row[5]})")
PY
BASEPKG="$BASEPKG" target/pyenv/bin/python "$BENCH" "$OUT" "$RUNS" "${BASE:-}"
echo "wrote $OUT" >&2
