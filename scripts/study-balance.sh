#!/usr/bin/env bash
# Study (a): hand-size balance for double-9, -12 and -15 under each preset whose deal table has
# that set, over the player counts the table lists, every hand size the set can deal, greedy bots,
# full matches, 4,000 games per cell, fixed seed. One `mtrain balance` folder per (set, preset)
# under results/balance/, then results/balance/recommendations.csv gathers every recommendation
# beside the published hand sizes.
#
# Usage: scripts/study-balance.sh      (about 15 minutes on 2 cores; GAMES=500 for a quick look)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
OUT="${OUT:-results/balance}"
GAMES="${GAMES:-4000}"
SEED=2026
mkdir -p "$OUT"
run() { # set preset players
  local dir="$OUT/d$1-$2"
  echo "== double-$1 $2, players $3" >&2
  start=$(date +%s)
  mkdir -p "$dir"
  target/release/mtrain balance --set "$1" --rules "$2" --players "$3" --hands auto --games "$GAMES" \
    --seed "$SEED" --quiet --out "$dir" > "$dir/console.txt"
  echo "   $(( $(date +%s) - start )) s" >&2
}
for p in wikipedia dominorules; do run 9 "$p" 2-4; done
run 9 family_house 2-5
for p in celko1998 wikipedia dominorules; do run 12 "$p" 2-8; done
for p in family_house harbour_cay; do run 12 "$p" 2-10; done
for p in wikipedia dominorules; do run 15 "$p" 9-12; done
# Every recommendation in one table (the objective column is the same in every file).
{
  echo "set,preset,players,recommended_hand,playable,playable_hands,turn_order_advantage,first_player_advantage,blocked_rate,dry_rate,published_by_this_preset"
  for d in "$OUT"/d9-*/ "$OUT"/d12-*/ "$OUT"/d15-*/; do
    name=$(basename "$d"); set_=${name%%-*}; set_=${set_#d}; preset=${name#*-}
    col=$(head -1 "$d/recommendation.csv" | tr ',' '\n' | grep -n "^$preset\$" | cut -d: -f1)
    tail -n +2 "$d/recommendation.csv" | while IFS= read -r line; do
      pub=$(echo "$line" | cut -d, -f"$col")
      echo "$set_,$preset,$(echo "$line" | cut -d, -f2-9),$pub"
    done
  done
} > "$OUT/recommendations.csv"
cat "$OUT/recommendations.csv"
