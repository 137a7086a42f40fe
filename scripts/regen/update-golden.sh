#!/usr/bin/env bash
# Regenerates the golden transcripts and JSONL logs that tests/golden.rs compares against: one
# match per preset. Run it only when a rules or format change is intended; review the diff.
# Usage: scripts/regen/update-golden.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet --bin mtrain
args=(play --players 4 --set 12 --bots greedy,random,greedy,random --seed 7)
./target/debug/mtrain "${args[@]}" --log tests/golden/play_seed7.jsonl > tests/golden/play_seed7.txt
echo "wrote tests/golden/play_seed7.txt and .jsonl (wikipedia)"
for preset in celko1998 dominorules family_house harbour_cay; do
    ./target/debug/mtrain "${args[@]}" --rules "$preset" --log "tests/golden/${preset}_seed7.jsonl" > "tests/golden/${preset}_seed7.txt"
    echo "wrote tests/golden/${preset}_seed7.txt and .jsonl"
done
