#!/usr/bin/env bash
# `mtrain tune` on the policy-guided search's own parameters (issue "The strongest player",
# item 4). It shows the tuner on a noisy, slow bot (about 0.7 ms a decision, and seven times that
# with inference). Every run: 4 players, `wikipedia`, double-12, full matches, seed 1, SPSA on
# duplicate deals, then the confirmation SPRT (0, 10) of the tuned bot against the start on fresh
# deals.
#   1. `prior` (0 to 20 points) and `depth` (4 to 24 turns a seat) of
#      `expert:rollout=weighted,prior=5,depth=12,samples=31`: 60 iterations of 32 games, at most
#      800 confirmation games (results/ladder/tune-expert/).
#   2. `samples`, the worlds a legal move (8 to 62), from 31: 60 iterations of 32 games, at most
#      800 confirmation games (results/ladder/tune-expert-samples/). More worlds cost time in
#      proportion; the tuner sees only strength.
#   3. `temp`, the inference temperature (0.05 to 2), from 0.25, of `expert:infer=policy`: 40
#      iterations of 32 games, at most 400 confirmation games (results/ladder/tune-expert-temp/).
#
# Usage: scripts/studies/study-tune-expert.sh            (about 75 minutes on 2 cores)
#        REUSE=1 scripts/studies/study-tune-expert.sh    (keep the runs already written)
# Writes the three folders above (tune.json, trajectory.csv and .svg, tuned.txt, confirm.csv),
# each command's report beside them (tune-expert.txt, tune-expert-samples.txt,
# tune-expert-temp.txt) and results/ladder/tune-expert.md (the three in one table).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet --bin mtrain
OUT=results/ladder
MT=target/release/mtrain

run() { # name, start spec, iterations, confirmation games, --param ...
  local name=$1 spec=$2 iters=$3 confirm=$4
  shift 4
  if [ "${REUSE:-0}" = 1 ] && [ -f "$OUT/$name/confirm.csv" ]; then return; fi
  echo "== $name" >&2
  rm -rf "${OUT:?}/$name"
  "$MT" tune --players 4 --bot "$spec" "$@" --iterations "$iters" --games 32 \
    --confirm-games "$confirm" --seed 1 --threads 2 --quiet --out "$OUT/$name" > "$OUT/$name.txt"
  cat "$OUT/$name.txt"
}

run tune-expert "expert:rollout=weighted,prior=5,depth=12,samples=31" 60 800 \
  --param prior=0:20 --param depth=4:24
run tune-expert-samples "expert:rollout=weighted,prior=5,depth=12,samples=31" 60 800 \
  --param samples=8:62
run tune-expert-temp "expert:infer=policy,temp=0.25" 40 400 \
  --param temp=0.05:2

python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
rows = [("prior, depth", "tune-expert"), ("samples", "tune-expert-samples"), ("temp", "tune-expert-temp")]
with open(f"{out}/tune-expert.md", "w") as f:
    f.write("# `mtrain tune` on `expert`'s own parameters\n\n")
    f.write("Written by `scripts/studies/study-tune-expert.sh`: 4 players, `wikipedia`, full matches, seed 1; "
            "the confirmation is an SPRT (0, 10) of the tuned bot against the start on fresh deals.\n\n")
    f.write("| parameters | start | tuned | confirmation games | score [95% interval] | Elo [95% interval] | decision |\n")
    f.write("|---|---|---|---:|---|---|---|\n")
    for label, d in rows:
        c = next(csv.DictReader(open(f"{out}/{d}/confirm.csv")))
        dec = {"H1": "gain shown", "H0": "no gain of 10 Elo", "none": "undecided"}[c["decision"]]
        f.write(f"| {label} | `{c['start']}` | `{c['tuned']}` | {c['games']} | "
                f"{float(c['score'])*100:.1f}% [{float(c['score_lo'])*100:.1f}, {float(c['score_hi'])*100:.1f}] | "
                f"{float(c['elo']):+.0f} [{float(c['elo_lo']):+.0f}, {float(c['elo_hi']):+.0f}] | {dec} |\n")
    f.write("\nA spec shows only what differs from `expert`'s defaults (`rollout=weighted,prior=5,depth=12,samples=31`, "
            "`temp=0.25`); the first run spells them out.\n")
PY
cat "$OUT/tune-expert.md"
