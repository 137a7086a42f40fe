#!/bin/bash
# Does `mtrain analyze` name the same best move from every seed? The error rate of its
# "separated" verdict, measured.
#
# Four matches are logged (2 players `wikipedia`, 4 players `dominorules`, 6 players
# `celko1998`, 3 players `family_house`, each with a mixed field of bots and a fixed seed). From
# each, 10 decisions are drawn at random (Python's random with seed 41, among the decisions with
# at least two legal moves), 40 positions in all. Each position is analysed at the defaults
# (rollout model `weighted`, hidden hands dealt as the tuned policy keeps them, 95% confidence,
# from 128 worlds) but at most CAP worlds (10,000; the command's default cap is 100,000), with
# seeds 1 to 20, on one core per analysis, two at a time. The cap keeps the study to about 40
# minutes: one position of the `family_house` match costs about 12 ms a world (a `weighted`
# rollout of a `family_house` round searches a plan on every draw), so at the default cap its 20
# runs alone took over two hours. A cap changes how many looks a run may take, not the error
# control of each look: a run that reaches it says so (stop "worlds") and separates nothing.
#
# Writes results/analyze/stability-runs.csv (one row per position and seed: the stop, the best
# move, worlds, seconds) and results/analyze/stability.csv (one row per position: how many runs
# separated, how many distinct moves they separated, the pairs of runs that separated different
# moves), and prints the summary results/analyze/README.md quotes.
#
# Usage: scripts/studies/study-analyze-stability.sh     (about 40 minutes on 2 cores; MT=path skips the
# build, SEEDS=n and PER_LOG=n shrink it for a try, CAP=100000 runs the default cap)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${MT:-}" ]; then
    cargo build --release --quiet --bin mtrain
    MT=target/release/mtrain
fi
OUT="${OUT:-results/analyze}"
SEEDS="${SEEDS:-20}"
PER_LOG="${PER_LOG:-10}"
CAP="${CAP:-10000}"
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$MT" play --rules wikipedia --players 2 --bots expert,greedy --seed 21 --log "$TMP/p2.jsonl" > /dev/null
"$MT" play --rules dominorules --players 4 --bots expert,planner,weighted,greedy --seed 22 --log "$TMP/p4.jsonl" > /dev/null
"$MT" play --rules celko1998 --players 6 --bots weighted,expert,greedy --seed 23 --log "$TMP/p6.jsonl" > /dev/null
"$MT" play --rules family_house --players 3 --bots planner,expert,weighted --seed 24 --log "$TMP/p3.jsonl" > /dev/null
for log in p2 p4 p6 p3; do
    # Every decision of the match (one world each: only the list is wanted).
    "$MT" analyze --log "$TMP/$log.jsonl" --review --samples 8 --threads 2 --json > "$TMP/$log.all.json"
done
python3 - "$TMP" "$PER_LOG" > "$TMP/positions.txt" <<'PY'
import json, random, sys
tmp, per = sys.argv[1], int(sys.argv[2])
rng = random.Random(41)
for log in ["p2", "p4", "p6", "p3"]:
    rows = json.load(open(f"{tmp}/{log}.all.json"))["decisions"]
    for d in sorted(rng.sample(rows, per), key=lambda d: (d["round"], d["decision"])):
        print(log, d["round"], d["decision"], d["moves"])
PY
# One job per position and seed; two at a time, each on its own core.
while read -r log round decision moves; do
    for seed in $(seq 1 "$SEEDS"); do
        echo "$log $round $decision $moves $seed"
    done
done < "$TMP/positions.txt" > "$TMP/jobs.txt"
export MT TMP CAP
xargs -P 2 -L 1 sh -c '
    log=$0 round=$1 decision=$2 moves=$3 seed=$4
    "$MT" analyze --log "$TMP/$log.jsonl" --round "$round" --decision "$decision" --seed "$seed" --samples "$CAP" --json \
        > "$TMP/a.$log.$round.$decision.$seed.json"
' < "$TMP/jobs.txt"
python3 scripts/studies/analyze_stability.py "$TMP" "$TMP/jobs.txt" "$OUT"
python3 scripts/studies/analyze_tables.py "$OUT"
