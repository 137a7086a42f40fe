#!/usr/bin/env bash
# The policy-guided search (`expert` at its defaults, named `new` below and pinned to its
# parameters) against the two strongest players we had, by SPRT (elo0 = 0, elo1 = 20,
# alpha = beta = 0.05): at 2 and 4 players, under `wikipedia` and `dominorules`, double-12,
# full matches, against tuned `weighted` and the former `expert` (its defaults before the
# policy search, pinned as `expert-v1` = expert:rollout=greedy,prior=0,depth=8,samples=auto).
# Each run plays duplicate deals with the two bots in every seating (two seats each at 4
# players) until the test decides, at most 4,000 games.
#
# Usage: scripts/studies/study-strongest-sprt.sh            (about 5 minutes on 2 cores)
# Writes results/ladder/strongest-sprt.csv and results/ladder/strongest-sprt.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet --bin mtrain
MT=target/release/mtrain
OUT=results/ladder
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
NEW="expert:rollout=weighted,prior=5,depth=12,samples=31"
FORMER="expert:rollout=greedy,prior=0,depth=8,samples=auto"
echo "preset,players,opponent,games,comparisons,score,score_lo,score_hi,elo,elo_lo,elo_hi,llr,decision" > "$TMP/out.csv"
for preset in wikipedia dominorules; do
  for players in 2 4; do
    for opp in weighted expert-v1; do
      echo "== $preset ${players}p against $opp" >&2
      if [ "$players" = 2 ]; then bots="new,$opp"; else bots="new,new,$opp,$opp"; fi
      rm -rf "$TMP/t"
      "$MT" tournament --rules "$preset" --players "$players" --name "new=$NEW" --name "expert-v1=$FORMER" --bots "$bots" \
        --sprt 0,20 --games 4000 --threads 2 --seed 21 --quiet --out "$TMP/t" > /dev/null
      python3 - "$TMP/t" "$preset" "$players" "$opp" >> "$TMP/out.csv" <<'PY'
import csv, json, sys
d, preset, players, opp = sys.argv[1:]
m = json.load(open(f"{d}/manifest.json"))
row = next(r for r in csv.DictReader(open(f"{d}/pairs.csv")) if r["a"] == "new" and r["b"] == opp)
s = m["sprt"]
cells = [preset, players, opp, m["games"], row["comparisons"], row["a_score"], row["a_score_lo"], row["a_score_hi"],
         row["elo"], row["elo_lo"], row["elo_hi"], f"{s['llr']:.4f}", s["decision"] or "undecided"]
print(",".join(str(c) for c in cells))
PY
    done
  done
done
mv "$TMP/out.csv" "$OUT/strongest-sprt.csv"
python3 - "$OUT" "$NEW" <<'PY'
import csv, sys
out, new = sys.argv[1:]
rows = list(csv.DictReader(open(f"{out}/strongest-sprt.csv")))
name = {"weighted": "tuned `weighted`", "expert-v1": "former `expert` (`expert-v1`)"}
with open(f"{out}/strongest-sprt.md", "w") as f:
    f.write(f"`expert` at its defaults (`{new}`) against each opponent, SPRT (0, 20):\n\n")
    f.write("| rules | players | against | games | score [95% interval] | Elo | SPRT |\n|---|---:|---|---:|---|---|---|\n")
    for r in rows:
        s, lo, hi = (100 * float(r[k]) for k in ("score", "score_lo", "score_hi"))
        f.write(f"| {r['preset']} | {r['players']} | {name[r['opponent']]} | {int(r['games']):,} | {s:.1f}% [{lo:.1f}, {hi:.1f}] | "
                f"{float(r['elo']):+.0f} [{float(r['elo_lo']):+.0f}, {float(r['elo_hi']):+.0f}] | {r['decision']} |\n")
PY
cat "$OUT/strongest-sprt.md"
