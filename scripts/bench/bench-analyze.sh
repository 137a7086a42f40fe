#!/bin/bash
# Time of `mtrain analyze` on typical positions, and of a whole match's review.
#
# A 4-player double-12 `wikipedia` match of four `expert` bots (seed 1, 13 rounds) is logged.
# Positions: in every round, the decision nearest the middle of the round's decisions among
# those with at least three legal moves. Each is analysed at the defaults on one core (taskset
# where there is one), and its time, worlds and stopping reason are recorded. Then the whole
# match is reviewed (every seat, every decision) with two threads, timed as wall clock.
# Writes results/benchmarks/analyze.csv (positions) and results/benchmarks/review.csv.
#
# Usage: scripts/bench/bench-analyze.sh      (about a minute on 2 cores; MT=path skips the build)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${MT:-}" ]; then
    cargo build --release --quiet --bin mtrain
    MT=target/release/mtrain
fi
OUT="${OUT:-results/benchmarks}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ONE=()
command -v taskset > /dev/null && ONE=(taskset -c 0)
"$MT" play --rules wikipedia --players 4 --bots expert --seed 1 --log "$TMP/match.jsonl" > /dev/null
# Every decision, with its number of legal moves (a fast review: one world each).
"$MT" analyze --log "$TMP/match.jsonl" --review --samples 1 --threads 1 --json > "$TMP/all.json"
python3 - "$TMP/all.json" > "$TMP/positions.txt" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["decisions"]
for r in sorted({r["round"] for r in rows}):
    mine = [d for d in rows if d["round"] == r]
    mid = len(mine) / 2
    wide = [d for d in mine if d["moves"] >= 3] or mine
    d = min(wide, key=lambda d: (abs(d["decision"] - mid), d["decision"]))
    print(r, d["decision"])
PY
{
    echo "round,decision,moves,worlds,rollouts,stop,seconds"
    while read -r round decision; do
        "${ONE[@]}" "$MT" analyze --log "$TMP/match.jsonl" --round "$round" --decision "$decision" --json \
            | python3 -c '
import json, sys
a = json.load(sys.stdin)
print("%s,%s,%d,%d,%d,%s,%.3f" % (sys.argv[1], sys.argv[2], len(a["moves"]), a["worlds"], a["rollouts"], a["stop"], a["elapsed"]))
' "$round" "$decision"
    done < "$TMP/positions.txt"
} > "$OUT/analyze.csv.tmp"
mv "$OUT/analyze.csv.tmp" "$OUT/analyze.csv"
start=$(date +%s.%N)
"$MT" analyze --log "$TMP/match.jsonl" --review --threads 2 --csv "$TMP/review.csv" > /dev/null 2>&1
end=$(date +%s.%N)
decisions=$(($(wc -l < "$TMP/review.csv") - 1))
{
    echo "players,rounds,decisions,threads,seconds"
    python3 -c "print('4,13,$decisions,2,%.1f' % ($end - $start))"
} > "$OUT/review.csv"
cat "$OUT/analyze.csv" "$OUT/review.csv"
