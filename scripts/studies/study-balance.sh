#!/usr/bin/env bash
# The hand-size study: `mtrain balance` with its defaults (the field weighted, planner, greedy;
# the balanced objective; the default games per cell) on the standard double-12 study under
# `wikipedia`, players 2 to 8, every hand size from 5 tiles, for five seeds, then once under
# `dominorules`. One folder per run under results/balance/; results/balance/seeds.csv puts the
# five seeds' picks side by side and says whether they agree.
#
# Usage: scripts/studies/study-balance.sh      (about 15 minutes on this 2-core machine)
set -euo pipefail
cd "$(dirname "$0")/../.."
MT="${MT:-target/release/mtrain}"
[ "$MT" != target/release/mtrain ] || cargo build --release --quiet   # a given MT is used as it is
OUT="${OUT:-results/balance}"
mkdir -p "$OUT"
run() { # preset seed
  local dir="$OUT/d12-$1-seed$2"
  echo "== double-12 $1, seed $2" >&2
  start=$(date +%s)
  rm -rf "$dir"   # the script's own folder, made anew (mtrain refuses a folder with other files)
  "$MT" balance --set 12 --rules "$1" --players 2-8 --hands auto --seed "$2" \
    --quiet --out "$dir" > "$OUT/.console.tmp"
  mv "$OUT/.console.tmp" "$dir/console.txt"
  echo "   $(( $(date +%s) - start )) s" >&2
}
for seed in 1 2 3 4 5; do run wikipedia "$seed"; done
run dominorules 1
python3 scripts/studies/balance_seeds.py "$OUT"/d12-wikipedia-seed{1,2,3,4,5} > "$OUT/seeds.csv"
# The tables results/balance/README.md quotes (tests/readme_numbers.rs checks the quotes).
python3 scripts/studies/balance_table.py "$OUT"/d12-wikipedia-seed1 > "$OUT/table-wikipedia.md"
python3 scripts/studies/balance_table.py "$OUT"/d12-dominorules-seed1 > "$OUT/table-dominorules.md"
cat "$OUT/seeds.csv"
