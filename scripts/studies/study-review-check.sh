#!/bin/bash
# Are the review's mistakes real? The share of the strongest player's decisions the review flags,
# and how many of them a deeper, independent check confirms.
#
# Three 4-player `wikipedia` matches of four `expert` bots (seeds 11, 12, 13) are reviewed at the
# defaults (rollout model `weighted`, 95% joint intervals, a mistake's loss holding 1 point, the
# deeper check of 32 worlds with every seat's own bot). Of the decisions flagged (mistakes and
# blunders), up to 24 drawn at random (Python's random, seed 41) are analysed again with `expert`
# in every seat of the rollouts (the players' own bots), 96 worlds, fresh seeds (`--seed 7000+i`):
# a flag is confirmed when the played move's expected points come out below the flagged best
# move's.
#
# Writes results/analyze/review-flags.csv (per match: decisions, inaccuracies, mistakes,
# blunders, unconfirmed) and results/analyze/review-check.csv (per sampled flag: the review's
# loss and the check's), and prints the summary results/analyze/README.md quotes.
# Usage: scripts/studies/study-review-check.sh    (about 5 minutes on 2 cores; MT=path skips the build)
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
for seed in 11 12 13; do
    "$MT" play --rules wikipedia --players 4 --bots expert --seed "$seed" --log "$TMP/m$seed.jsonl" > /dev/null
    "$MT" analyze --log "$TMP/m$seed.jsonl" --review --threads 2 --csv "$TMP/m$seed.csv" > /dev/null
done
python3 - "$TMP" > "$TMP/sample.txt" <<'PY'
import csv, random, sys
tmp = sys.argv[1]
flags = []
for seed in (11, 12, 13):
    for r in csv.DictReader(open(f"{tmp}/m{seed}.csv")):
        if r["mistake"] == "true":
            flags.append((seed, int(r["round"]), int(r["decision"]), r["played"], r["best"], r["loss"], r["loss_lo"],
                          r["grade"]))
rng = random.Random(41)
for f in sorted(rng.sample(flags, min(24, len(flags)))):
    print("\t".join(map(str, f)))
PY
i=0
while IFS=$'\t' read -r seed round decision played best loss lo grade; do
    i=$((i + 1))
    echo "$seed $round $decision $((7000 + i))"
done < "$TMP/sample.txt" > "$TMP/jobs.txt"
export MT TMP
xargs -P 2 -L 1 sh -c '
    "$MT" analyze --log "$TMP/m$0.jsonl" --round "$1" --decision "$2" --rollout expert --samples 96 \
        --min-samples 96 --seed "$3" --json > "$TMP/c.$0.$1.$2.json"
' < "$TMP/jobs.txt"
python3 scripts/studies/review_check.py "$TMP" "$OUT"
python3 scripts/studies/analyze_tables.py "$OUT"
