#!/bin/bash
# Trains the value networks `expert:leaf=net` uses on double-12 (strategies/nets/value-d12-4p.json
# and value-d12-2p.json): labels of the tuned `weighted` policy's self-play under wikipedia
# (`mtrain label --seed 2`: one decision in four, each judged by 8 playouts of `weighted`;
# 10,000 matches at four players and 14,000 at two, about 1.36 million labels each), then
# `examples/train_value` (hidden layers 64 and 32, 4 epochs, seed 1; one match in ten held out).
# Seeded and single-threaded where it trains: the same command writes the same file.
# The labels stay in LABELS (default target/labels-d12-<players>p) for other studies; an
# interrupted labelling is resumed.
#
# Usage: [PLAYERS=2|4] [LABELS=DIR] [OUT=FILE] scripts/studies/train-value-net.sh
#        (about 5 minutes a table size on 2 cores; PLAYERS defaults to 4)
set -euo pipefail
cd "$(dirname "$0")/../.."
PLAYERS="${PLAYERS:-4}"
case "$PLAYERS" in
  4) MATCHES=10000 ;;
  2) MATCHES=14000 ;;
  *) echo "PLAYERS must be 2 or 4, not $PLAYERS" >&2; exit 2 ;;
esac
LABELS="${LABELS:-target/labels-d12-${PLAYERS}p}"
OUT="${OUT:-strategies/nets/value-d12-${PLAYERS}p.json}"
cargo build --quiet --release --bin mtrain --example train_value
if [[ -f "$LABELS/labels.json" ]]; then
  echo "labels already in $LABELS" >&2
elif [[ -f "$LABELS/label.json" ]]; then
  target/release/mtrain label --resume "$LABELS" --quiet
else
  target/release/mtrain label --players "$PLAYERS" --matches "$MATCHES" --seed 2 --out "$LABELS" --quiet
fi
target/release/examples/train_value "$LABELS" "$OUT" --hidden 64,32 --epochs 4 --seed 1
