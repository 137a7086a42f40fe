#!/usr/bin/env bash
# The mtrain-eval v1 leaderboard (issue 46, item 4): `mtrain eval --bot BOT` for every frozen
# baseline and other built-in bots, each under the full v1 protocol, and one table of the ratings
# (greedy = 0). Writes each bot's eval.csv and manifest.json under results/eval/runs/BOT/, the
# combined results/eval/leaderboard.csv and its Markdown table results/eval/leaderboard.md
# (scripts/studies/eval_leaderboard.py), with each evaluation's wall time.
#
# Usage: scripts/studies/eval-leaderboard.sh                       # the published rows
#        BOTS="greedy montecarlo" scripts/studies/eval-leaderboard.sh   # these rows only (others kept)
#        PY_BOTS="mine=my_module:make_bot" scripts/studies/eval-leaderboard.sh
#            # adds a Python bot's row: my_module.make_bot() (or the object itself) evaluated by
#            # mtrain.evaluate through scripts/studies/eval_python_bot.py, run by $PYTHON (an
#            # interpreter with mtrain installed; default python3)
#        BOTS=" " PYTHON=target/pyenv/bin/python PYTHONPATH=examples/python \
#          PY_BOTS="ppo_example=train_eval:trained" scripts/studies/eval-leaderboard.sh
#            # the trained example policy's row (examples/python/train_eval.py), alone
#
# greedy's row is the one the protocol's frozen league ratings come from (minus its Elo
# differences), so its rating is 0 by construction. Runs are kept in $WORK (resumable with
# `mtrain eval --resume DIR` if stopped); THREADS sets the worker threads (default 2).
set -euo pipefail
MT="${MT:-target/release/mtrain}"   # MT=path runs another build (e.g. a copy while you work on)
cd "$(dirname "$0")/../.."
[ "$MT" != target/release/mtrain ] || cargo build --release --quiet   # a given MT is used as it is
BOTS="${BOTS:-greedy random planner weighted hoarder expert}"
PY_BOTS="${PY_BOTS:-}"
OUT="${OUT:-results/eval}"
WORK="${WORK:-target/eval-leaderboard}"
THREADS="${THREADS:-2}"
mkdir -p "$OUT/runs" "$WORK"
"$MT" eval --protocol > "$OUT/protocol.txt"
for bot in $BOTS; do
  echo "== $bot" >&2
  start=$(date +%s)
  rm -rf "${WORK:?}/$bot"
  "$MT" eval --bot "$bot" --threads "$THREADS" --quiet --out "$WORK/$bot" > "$WORK/$bot.txt"
  secs=$(( $(date +%s) - start ))
  mkdir -p "$OUT/runs/$bot"
  cp "$WORK/$bot/eval.csv" "$WORK/$bot/manifest.json" "$OUT/runs/$bot/"
  cp "$WORK/$bot.txt" "$OUT/runs/$bot/console.txt"
  echo "$secs" > "$OUT/runs/$bot/seconds.txt"
  echo "   $secs s on $THREADS threads" >&2
done
for entry in $PY_BOTS; do
  name="${entry%%=*}"
  target="${entry#*=}"
  echo "== $name (Python: $target)" >&2
  start=$(date +%s)
  mkdir -p "$OUT/runs/$name"
  "${PYTHON:-python3}" scripts/studies/eval_python_bot.py "$target" "$OUT/runs/$name" --threads "$THREADS"
  echo "$(( $(date +%s) - start ))" > "$OUT/runs/$name/seconds.txt"
done
python3 scripts/studies/eval_leaderboard.py "$OUT" "$THREADS"
cat "$OUT/leaderboard.md"
