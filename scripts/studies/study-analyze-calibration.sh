#!/bin/bash
# Is the analysis calibrated? The predicted round-win probability (and point margin) of the move
# each seat played, against how the round really ended.
#
# Tables (4 players, `wikipedia` unless named): self-play of the rollout model `weighted` (the
# analysis's assumption holds: every seat plays like the model), at 2, 4 and 6 players; a mixed
# table (`expert`, `greedy`, `weighted`, `planner`); `expert` self-play; and `greedy` self-play
# analysed with greedy rollouts (`--rollout greedy`, again the model's own self-play). Every match
# is reviewed with the analysis at its defaults but at most 2,000 worlds a decision
# (`--samples 2000`: the played move's estimate is then within about 1 percentage point, far
# less than the spread this measures) and no deeper check.
#
# scripts/studies/analyze_calibration.py compares each decision's predicted win probability of the
# played move with the round's outcome for that seat (a win shared by seats tied for the lowest
# score), per table and kind of seat: the bias (mean predicted minus mean realised, percentage
# points) and the same in points, each with a 95% cluster-bootstrap interval over rounds (the
# decisions of one round share its outcome), the Brier score against always predicting the
# base rate, and a reliability table by tenths of predicted probability.
#
# Writes results/analyze/calibration.csv and results/analyze/reliability.csv.
# Usage: scripts/studies/study-analyze-calibration.sh    (about 5 minutes on 2 cores; MT=path skips the
# build)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${MT:-}" ]; then
    cargo build --release --quiet --bin mtrain
    MT=target/release/mtrain
fi
OUT="${OUT:-results/analyze}"
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# name players bots rollout seeds...
cat > "$TMP/tables.txt" <<'T'
weighted-4 4 weighted weighted 101 102 103 104 105 106
weighted-2 2 weighted weighted 111 112 113 114 115 116 117 118
weighted-6 6 weighted weighted 121 122 123 124
mixed-4 4 expert,greedy,weighted,planner weighted 201 202 203 204 205 206
expert-4 4 expert weighted 301 302 303 304
greedy-4 4 greedy greedy 401 402 403 404 405 406
T
while read -r name players bots rollout seeds; do
    for seed in $seeds; do
        "$MT" play --rules wikipedia --players "$players" --bots "$bots" --seed "$seed" \
            --log "$TMP/$name.$seed.jsonl" > /dev/null
        "$MT" analyze --log "$TMP/$name.$seed.jsonl" --review --rollout "$rollout" --samples 2000 \
            --check-worlds 0 --threads 2 --seed "$seed" --csv "$TMP/$name.$seed.csv" > /dev/null
    done
done < "$TMP/tables.txt"
python3 scripts/studies/analyze_calibration.py "$TMP" "$TMP/tables.txt" "$OUT"
python3 scripts/studies/analyze_tables.py "$OUT"
