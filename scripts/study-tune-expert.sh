#!/usr/bin/env bash
# `mtrain tune` on the policy-guided search's own parameters (issue "The strongest player",
# item 4): `prior` (0 to 20 points) and `depth` (4 to 24 turns a seat) of
# `expert:rollout=weighted,prior=5,depth=12,samples=31`, 4 players, `wikipedia`, double-12,
# full matches, SPSA with 60 iterations of 32 games, then the confirmation SPRT (0, 10) of the
# tuned bot against the start on fresh deals, at most 800 games. It shows the tuner on a noisy,
# slow bot: about 0.7 ms a decision.
#
# Usage: scripts/study-tune-expert.sh            (about 15 minutes on 2 cores)
# Writes results/ladder/tune-expert/ (tune.json, trajectory.csv and .svg, tuned.txt,
# confirm.csv) and results/ladder/tune-expert.txt (the command's report).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin mtrain
OUT=results/ladder
rm -rf "$OUT/tune-expert"
target/release/mtrain tune --players 4 --bot "expert:rollout=weighted,prior=5,depth=12,samples=31" \
  --param prior=0:20 --param depth=4:24 --iterations 60 --games 32 --confirm-games 800 --seed 1 \
  --threads 2 --quiet --out "$OUT/tune-expert" > "$OUT/tune-expert.txt"
cat "$OUT/tune-expert.txt"
