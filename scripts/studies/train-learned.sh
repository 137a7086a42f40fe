#!/bin/bash
# Trains the networks of `learned`, the baseline without search (strategies/nets/learned-d12-2p.json
# and learned-d12-4p.json): `examples/train_learned` records 1,000 matches of `expert` in every
# seat under wikipedia on double-12 (the observation after every legal move of each decision with
# the move's `weighted` features, and the move expert played), then fits a softmax over each decision's moves to expert's pick
# (hidden layers 128 and 64, 10 epochs, seed 3; one match in ten held out, its agreement with expert
# recorded in the file beside how often `weighted` plays expert's move there). Seeded: the same
# command writes the same files.
#
# Usage: scripts/studies/train-learned.sh      (about 20 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet --release --example train_learned
for players in 2 4; do
  target/release/examples/train_learned "strategies/nets/learned-d12-${players}p.json" \
    --players "$players" --matches 1000 --hidden 128,64 --epochs 10 --seed 3 --threads 2
done
