#!/usr/bin/env bash
# Times the README's set-up commands from a fresh clone of this checkout's HEAD, as a new user
# runs them: `cargo run --release -- tournament`, then `cargo test` (split into building and
# running the tests), then `cargo test --benches`. Writes results/setup/times.csv (seconds);
# the README quotes it, and tests/readme_numbers.rs checks the quote. Crates come from cargo's
# local cache when they are there, so download time is not counted.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=results/setup/times.csv
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
git clone -q . "$WORK/mtrain"
cd "$WORK/mtrain"
secs() { local s; s=$(date +%s%N); "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }; awk -v a="$s" -v b="$(date +%s%N)" 'BEGIN { print (b - a) / 1e9 }'; }
run=$(secs cargo run --release -- tournament)
build=$(secs cargo test --no-run)
tests=$(secs cargo test)
benches=$(secs cargo test --benches)
cd - > /dev/null
{
    echo "step,seconds,cores"
    printf 'cargo run --release -- tournament,%.1f,%s\n' "$run" "$(nproc)"
    printf 'cargo test (build),%.1f,%s\n' "$build" "$(nproc)"
    printf 'cargo test (run),%.1f,%s\n' "$tests" "$(nproc)"
    printf 'cargo test --benches,%.1f,%s\n' "$benches" "$(nproc)"
} > "$OUT"
cat "$OUT"
