#!/usr/bin/env bash
# The strategy league (issue "Strategy bots", item 7): every built-in bot against the others at 2,
# 4 and 6 players on double-12 under `wikipedia` and `dominorules`, full 13-round matches, fixed
# seeds. Writes one tournament folder per (rules, players) under results/strategies/ and the
# combined table results/strategies/league.csv (scripts/studies/league_table.py).
#
# Usage: scripts/studies/strategies.sh            # the published sizes (see results/strategies/README.md)
#        GAMES_SCALE=0.1 scripts/studies/strategies.sh   # a quick, smaller run
#
# A field of 7 bots on a table of N plays every combination of N bots equally often, in every seat
# rotation. Game counts are chosen so that every win rate's 95% interval is narrower than two
# percentage points; the table's last line reports the widest interval measured.
set -euo pipefail
MT="${MT:-target/release/mtrain}"   # MT=path runs another build (e.g. a copy while you work on)
cd "$(dirname "$0")/../.."
[ "${MT:-target/release/mtrain}" != target/release/mtrain ] || cargo build --release --quiet   # a given MT is used as it is
# `tuned` is `weighted` with the weights the tuning study found under wikipedia (results/tuning/):
# its defaults since that study, so tuned.txt reads `weighted` (the committed runs name the full spec).
TUNED="$(cat results/tuning/runs/tune-wikipedia/tuned.txt)"
BOTS="${BOTS:-random,greedy,planner,hoarder,cutthroat,montecarlo,tuned}"
OUT="${OUT:-results/strategies}"
SCALE="${GAMES_SCALE:-1}"
SEED=2026
mkdir -p "$OUT"
rm -rf "$OUT"/{wikipedia,dominorules}-{2,4,6}p   # the script's own runs, made anew
# Games per player count: 2 players play 15 pairings, 4 players 15 lineups, 6 players one.
declare -A GAMES=([2]=36000 [4]=18000 [6]=12000)
for preset in wikipedia dominorules; do
  for players in 2 4 6; do
    games=$(python3 -c "import math; print(max(${players}, math.ceil(${GAMES[$players]} * ${SCALE})))")
    echo "== $preset, $players players, $games games" >&2
    start=$(date +%s)
    "$MT" tournament --rules "$preset" --players "$players" --name "tuned=$TUNED" --bots "$BOTS" \
      --games "$games" --seed "$SEED" --quiet --out "$OUT/$preset-${players}p" > "$OUT/$preset-${players}p.txt"
    echo "   $(( $(date +%s) - start )) s" >&2
  done
done
python3 scripts/studies/league_table.py "$OUT" > "$OUT/league.md"
cat "$OUT/league.md"
