#!/usr/bin/env bash
# Regenerates the golden transcript and JSONL log that tests/golden.rs compares against.
# Run it only when a rules or format change is intended; review the diff it produces.
# Usage: scripts/update-golden.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --bin mtrain
args=(play --players 4 --set 12 --bots greedy,random,greedy,random --seed 7)
./target/debug/mtrain "${args[@]}" --log tests/golden/play_seed7.jsonl > tests/golden/play_seed7.txt
echo "wrote tests/golden/play_seed7.txt ($(wc -l < tests/golden/play_seed7.txt) lines) and tests/golden/play_seed7.jsonl ($(wc -l < tests/golden/play_seed7.jsonl) lines)"
