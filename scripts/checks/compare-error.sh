#!/usr/bin/env bash
# Measures how often `mtrain compare`'s intervals miss the true difference. The truth: one run of
# the same comparison (wikipedia against wikipedia with tap=draw_two, 4 players, hands 9-10,
# 3 rounds, greedy and random) with TRUTH_GAMES games per cell, whose differences stand for the
# true ones (at 1000 times the sample size, the truth's own noise widens a sample's error by
# 0.05% at 2000 games). Then, for each sample size in GAMES, SEEDS runs: per run, whether any
# adjusted interval (the Bonferroni ones the verdicts use, which claim to hold all at once with 95%
# confidence) misses its true difference, and how many of the plain 95% intervals do. Each rate
# comes with its Wilson 95% interval. Writes results/compare/error.csv; docs/compare.md quotes it
# and tests/readme_numbers.rs checks the quote.
#
# Usage: scripts/checks/compare-error.sh   (about 6 minutes on 2 cores)
set -euo pipefail
MT="${MT:-target/release/mtrain}"
cd "$(dirname "$0")/../.."
[ "$MT" != target/release/mtrain ] || cargo build --release --quiet
SEEDS="${SEEDS:-1000}"
GAMES="${GAMES:-400 2000}"
TRUTH_GAMES="${TRUTH_GAMES:-2000000}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
ARGS=(compare --ruleset wikipedia --ruleset wikipedia:tap=draw_two --players 4 --hands 9-10 --rounds 3
  --bots greedy,random --quiet)
"$MT" "${ARGS[@]}" --games "$TRUTH_GAMES" --seed 999999 --out "$WORK/truth" > /dev/null
for g in $GAMES; do
  for s in $(seq 1 "$SEEDS"); do
    "$MT" "${ARGS[@]}" --games "$g" --seed "$s" --out "$WORK/g$g-s$s" > /dev/null
  done
done
python3 - "$WORK" "$SEEDS" "$TRUTH_GAMES" $GAMES <<'PY'
import csv, math, os, sys
work, seeds, truth_games, sizes = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
key = lambda r: (r["players"], r["hand"], r["ruleset"], r["metric"])
truth = {key(r): float(r["difference"]) for r in csv.DictReader(open(os.path.join(work, "truth", "compare.csv")))}

def wilson(k, n, z=1.959964):
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return mid - half, mid + half

os.makedirs("results/compare", exist_ok=True)
with open("results/compare/error.csv", "w") as f:
    f.write("seeds,games,truth_games,differences,family_misses,family_miss_rate,family_lo,family_hi,"
            "plain_misses,plain_miss_rate,plain_lo,plain_hi\n")
    for games in sizes:
        family_misses = plain_misses = plain_total = 0
        for s in range(1, seeds + 1):
            rows = list(csv.DictReader(open(os.path.join(work, f"g{games}-s{s}", "compare.csv"))))
            missed = False
            for r in rows:
                t = truth.get(key(r))
                if t is None or r["lo"] == "":
                    continue
                plain_total += 1
                if not float(r["lo"]) <= t <= float(r["hi"]):
                    plain_misses += 1
                if not float(r["adjusted_lo"]) <= t <= float(r["adjusted_hi"]):
                    missed = True
            family_misses += missed
        flo, fhi = wilson(family_misses, seeds)
        plo, phi = wilson(plain_misses, plain_total)
        f.write(f"{seeds},{games},{truth_games},{plain_total},{family_misses},{family_misses / seeds:.4f},"
                f"{flo:.4f},{fhi:.4f},{plain_misses},{plain_misses / plain_total:.4f},{plo:.4f},{phi:.4f}\n")
print(open("results/compare/error.csv").read(), end="")
PY
