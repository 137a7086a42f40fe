#!/bin/bash
# Trains the value network `expert:leaf=net` uses at four players on double-12
# (strategies/nets/value-d12-4p.json): labels of 10,000 matches of the tuned `weighted` policy's
# self-play under wikipedia (`mtrain label --matches 10000 --seed 2`: one decision in four, each
# judged by 8 playouts of `weighted`; about 1.36 million labels), then
# `examples/train_value` (hidden layers 64 and 32, 4 epochs, seed 1; one match in ten held out).
# Seeded and single-threaded where it trains: the same command writes the same file.
# The labels stay in LABELS (default target/labels-d12-4p) for other studies; an interrupted
# labelling is resumed.
#
# Usage: [LABELS=DIR] scripts/studies/train-value-net.sh      (about 5 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../.."
LABELS="${LABELS:-target/labels-d12-4p}"
OUT="${OUT:-strategies/nets/value-d12-4p.json}"
cargo build --quiet --release --bin mtrain --example train_value
if [[ -f "$LABELS/labels.json" ]]; then
  echo "labels already in $LABELS" >&2
elif [[ -f "$LABELS/label.json" ]]; then
  target/release/mtrain label --resume "$LABELS" --quiet
else
  target/release/mtrain label --matches 10000 --seed 2 --out "$LABELS" --quiet
fi
target/release/examples/train_value "$LABELS" "$OUT" --hidden 64,32 --epochs 4 --seed 1
