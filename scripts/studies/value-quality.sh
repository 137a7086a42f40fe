#!/bin/bash
# How well the value network judges positions it was not trained on (issue 48, item 6): the
# network against the mean of k playouts to the round's end, against `expert`'s own judge
# (rollouts of 12 turns a seat judged by the hands left) and against rollouts of 4 turns a seat
# judged by the network, on the positions of 300 fresh matches (seed 7; the network was trained
# on seed 2's), each scored against 32 further playouts. Brier score of the round-win share,
# squared error of the margin, per round stage, calibration, and the cost of each judge
# measured in the run. Single-threaded and seeded: the same command writes the same quality and
# calibration files (the cost file holds times, which vary).
#
# Usage: [NET=strategies/nets/value-d12-4p.json] [OUT=results/ladder] scripts/studies/value-quality.sh
#        (about 1 minute)
# Writes OUT/value-quality.csv, value-calibration.csv, value-cost.csv and value-quality.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
NET="${NET:-strategies/nets/value-d12-4p.json}"
OUT="${OUT:-results/ladder}"
cargo build --quiet --release --example value_quality
target/release/examples/value_quality "$NET" "$OUT" --matches 300 --seed 7 --depth 12 --net-depth 4
