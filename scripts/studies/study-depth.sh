#!/usr/bin/env bash
# How long `expert`'s rollouts should be: `expert:depth=D` (turns per seat before the hands are
# scored) against `montecarlo` at its defaults, `wikipedia`, double-12, full matches, with
# `samples` chosen for about equal time a decision (shorter rollouts, more worlds); and
# `expert:depth=0,samples=32` (full rollouts, montecarlo's budget) for the other changes alone.
# This measured the former `expert` (greedy rollouts, no prior: its defaults before the policy
# search), so every spec below pins `rollout=greedy,prior=0`.
# Writes results/ladder/depth.csv and depth.md.
#
# Usage: scripts/studies/study-depth.sh   (about 7 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "${MT:-target/release/mtrain}" != target/release/mtrain ] || cargo build --release --quiet   # a given MT is used as it is
OUT="${OUT:-results/ladder}"
MT="${MT:-target/release/mtrain}"   # MT=path runs another build (e.g. a copy while you work on)
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
rows=()
# one PLAYERS BOT GAMES SEED
one() {
  local n=$1 b=$2 g=$3 seed=$4 bots
  bots="$b,montecarlo"
  if [ "$n" = 4 ]; then bots="$b,$b,montecarlo,montecarlo"; fi
  echo "== $n players: $b" >&2
  "$MT" tournament --players "$n" --bots "$bots" --games "$g" --seed "$seed" --quiet --out "$TMP/run" --force > /dev/null
  rows+=("$n,\"$b\",$g,$seed,$(sed -n 2p "$TMP/run/pairs.csv" | awk -F, '{print $(NF-5)","$(NF-4)","$(NF-3)}')")
}
for ds in 4:96 6:88 8:80 12:64; do one 2 "expert:rollout=greedy,prior=0,depth=${ds%:*},samples=${ds#*:}" 1000 12; done
for ds in 4:64 6:56 8:48; do one 4 "expert:rollout=greedy,prior=0,depth=${ds%:*},samples=${ds#*:}" 400 12; done
one 2 "expert:rollout=greedy,prior=0,depth=0,samples=32" 2000 11
{
  echo "players,bot,games,seed,score,score_lo,score_hi"
  printf '%s\n' "${rows[@]}"
} > "$OUT/depth.csv"
python3 - "$OUT" <<'PY'
import csv, os, sys
out = sys.argv[1]
with open(os.path.join(out, "depth.csv")) as f:
    rows = list(csv.DictReader(f))
with open(os.path.join(out, "depth.md"), "w") as f:
    f.write("<!-- written by scripts/studies/study-depth.sh -->\n\n")
    f.write("The former `expert` (greedy rollouts, no prior) against `montecarlo` (its defaults), wikipedia, double-12, full matches; at 4 players two seats each.\n\n")
    f.write("| players | expert's settings | games | seed | expert's score [95% interval] |\n|---|---|---|---|---|\n")
    for r in rows:
        f.write(f"| {r['players']} | `{r['bot']}` | {r['games']} | {r['seed']} | {100*float(r['score']):.1f}% "
                f"[{100*float(r['score_lo']):.1f}, {100*float(r['score_hi']):.1f}] |\n")
PY
echo "wrote $OUT/depth.csv, depth.md" >&2
