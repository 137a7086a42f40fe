#!/usr/bin/env bash
# The hand-size study: `mtrain balance` with its defaults (the field planner, cutthroat, greedy;
# the balanced objective; the default games per cell) on the standard double-12 study under
# `wikipedia`, players 2 to 8, every hand size from 5 tiles, for three seeds, then once under
# `dominorules`. One folder per run under results/balance/; results/balance/seeds.csv puts the
# three seeds' picks side by side and says whether they agree.
#
# Usage: scripts/study-balance.sh      (about 6 minutes on this 2-core machine)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
OUT="${OUT:-results/balance}"
mkdir -p "$OUT"
run() { # preset seed
  local dir="$OUT/d12-$1-seed$2"
  echo "== double-12 $1, seed $2" >&2
  start=$(date +%s)
  mkdir -p "$dir"
  target/release/mtrain balance --set 12 --rules "$1" --players 2-8 --hands auto --seed "$2" \
    --quiet --out "$dir" > "$dir/console.txt"
  echo "   $(( $(date +%s) - start )) s" >&2
}
for seed in 1 2 3; do run wikipedia "$seed"; done
run dominorules 1
python3 scripts/balance_seeds.py "$OUT"/d12-wikipedia-seed1 "$OUT"/d12-wikipedia-seed2 "$OUT"/d12-wikipedia-seed3 \
  > "$OUT/seeds.csv"
cat "$OUT/seeds.csv"
