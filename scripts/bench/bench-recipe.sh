#!/bin/bash
# Cost of saving a match by its recipe and of OpenSpiel's random_sim_test on the game: a
# 4-player wikipedia match (every round) played to its end by random legal actions, then
# State.serialize(), Game.deserialize_state() (a full replay), pickle.dumps/loads and
# copy.deepcopy of that state, each the median of RUNS timings over MATCHES matches; and
# pyspiel.random_sim_test(serialize=True) on the OpenSpiel game (3 players, double-9, 1 round,
# 3 simulations), the median of RUNS runs. Writes results/benchmarks/recipe.csv.
#
# Usage: scripts/bench/bench-recipe.sh     (about a minute on 2 cores after the package build)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/checks/python-test.sh -q -k "openspiel" > /dev/null   # builds and installs the package
OUT="${OUT:-results/benchmarks/recipe.csv}"
RUNS="${RUNS:-5}"
MATCHES="${MATCHES:-20}"
target/pyenv/bin/python - "$OUT" "$RUNS" "$MATCHES" <<'PY'
import copy, csv, os, pickle, random, statistics, sys, time
import mtrain

out, runs, matches = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = mtrain.Game("wikipedia", players=4)
states = []
for m in range(matches):
    state, rng = game.new_state(m), random.Random(m)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    states.append(state)
texts = [s.serialize() for s in states]
actions = statistics.mean(s.history_len() for s in states)

def per_match(f, items):
    best = []
    for _ in range(runs):
        t = time.perf_counter()
        for x in items:
            f(x)
        best.append((time.perf_counter() - t) / len(items))
    return statistics.median(best)

rows = [
    ("serialize", per_match(lambda s: s.serialize(), states)),
    ("deserialize_state", per_match(game.deserialize_state, texts)),
    ("pickle_round_trip", per_match(lambda s: pickle.loads(pickle.dumps(s)), states)),
    ("deepcopy", per_match(copy.deepcopy, states)),
]
import pyspiel
import mtrain.openspiel  # noqa: F401
osg = pyspiel.load_game("mtrain", {"players": 3, "set": 9, "rounds": 1})
sims = []
for _ in range(runs):
    t = time.perf_counter()
    pyspiel.random_sim_test(osg, num_sims=3, serialize=True, verbose=False)
    sims.append(time.perf_counter() - t)
rows.append(("random_sim_test_3_sims", statistics.median(sims)))
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out + ".tmp", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["what", "seconds", "mean_actions_per_match", "matches", "runs"])
    for name, sec in rows:
        w.writerow([name, f"{sec:.6g}", f"{actions:.1f}", matches, runs])
os.replace(out + ".tmp", out)
for name, sec in rows:
    print(f"{name:24s} {sec * 1e3:10.3f} ms")
print(f"mean actions per match: {actions:.1f}; mean recipe length: {statistics.mean(map(len, texts)):.0f} characters")
PY
