#!/bin/bash
# Why the analysis's forecast is off in `weighted` self-play: the sampled worlds against the
# true hands.
#
# For each table below (`wikipedia`, double-12, one bot in every seat), 120 rounds; at every
# third decision with a choice, the played move's round-win chance is forecast over 48 worlds of
# each of three kinds: the hidden tiles dealt uniformly (meeting the void records), dealt as the
# analysis deals them by default for the tuned policy (`--hands plans`: of 16 uniform deals one
# picked with weight e^(bL) per other seat, L its plan length, b = 1 or ½ at 2 players), and the true round with the
# boneyard reshuffled; every seat rolled out by the table's bot (examples/worlds.rs,
# `mexican_train::analyze::worlds`). scripts/studies/analyze_worlds.py compares each forecast with the
# round's outcome: the bias (mean forecast minus mean realised, points of %) with a 95%
# cluster-bootstrap interval over rounds, and the other seats' mean plan length (longest trail
# from their own train's end) in each kind of world.
#
# Writes results/analyze/worlds.csv and prints the table results/analyze/README.md quotes.
# Usage: scripts/studies/study-analyze-worlds.sh    (about 4 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet --example worlds
W=target/release/examples/worlds
OUT="${OUT:-results/analyze}"
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# bot players seed
cat > "$TMP/tables.txt" <<'T'
weighted 4 501
weighted 2 502
weighted 6 503
greedy 4 504
planner 4 505
T
while read -r bot players seed; do
    "$W" wikipedia "$players" "$bot" 120 "$seed" 48 3 > "$TMP/$bot-$players.csv"
done < "$TMP/tables.txt"
python3 scripts/studies/analyze_worlds.py "$TMP" "$TMP/tables.txt" "$OUT/worlds.csv"
