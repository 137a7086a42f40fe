#!/usr/bin/env bash
# Times `mtrain compare` at its default precision for the question a designer asks first: two
# rule sets (wikipedia against wikipedia with tap=draw_two) at one player count (4) over every
# hand size the set deals (5 to 22 tiles), 2000 games per cell and rule set, on every core.
# Three runs; writes results/compare/time.csv (seconds: median, min, max, and the cores); the
# README quotes the median, and tests/readme_numbers.rs checks the quote.
#
# Usage: scripts/bench/compare-time.sh   (builds the release binary first)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
OUT=results/compare/time.csv
CMD=(compare --ruleset wikipedia --ruleset wikipedia:tap=draw_two --players 4 --quiet)
times=()
for _ in 1 2 3; do
    s=$(date +%s%N)
    target/release/mtrain "${CMD[@]}" > /dev/null
    times+=("$(awk -v a="$s" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')")
done
sorted=($(printf '%s\n' "${times[@]}" | sort -g))
mkdir -p "$(dirname "$OUT")"
{
    echo "command,median_seconds,min_seconds,max_seconds,cores"
    echo "mtrain ${CMD[*]},${sorted[1]},${sorted[0]},${sorted[2]},$(nproc)"
} > "$OUT"
cat "$OUT"
