#!/bin/bash
# Rates `learned`, the baseline without search, against tuned `weighted` (2,000 games) and
# `expert` (1,000 games) at 2 and 4 players under wikipedia, the preset its networks were trained
# under, and dominorules, which they never saw (double-12, full matches; at 4 players two seats
# each, alternating). Fixed-size tournaments on deals none of the training matches used (seed 31):
# the score of learned with its 95% interval over deals, and the Elo difference.
# Writes results/ladder/learned.csv and learned.md.
#
# Usage: scripts/studies/study-learned.sh      (about 6 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --quiet --release --bin mtrain
MT=target/release/mtrain
OUT=results/ladder
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "preset,players,opponent,games,comparisons,score,score_lo,score_hi,elo,elo_lo,elo_hi" > "$TMP/out.csv"
for preset in wikipedia dominorules; do
  for players in 2 4; do
    for opp in weighted expert; do
      if [ "$opp" = weighted ]; then games=2000; else games=1000; fi
      if [ "$players" = 2 ]; then bots="learned,$opp"; else bots="learned,$opp,learned,$opp"; fi
      echo "== $preset ${players}p against $opp ($games games)" >&2
      rm -rf "$TMP/t"
      "$MT" tournament --rules "$preset" --players "$players" --bots "$bots" --games "$games" --threads 2 \
        --seed 31 --quiet --out "$TMP/t" > /dev/null
      python3 - "$TMP/t" "$preset" "$players" "$opp" >> "$TMP/out.csv" <<'PY'
import csv, json, sys
d, preset, players, opp = sys.argv[1:]
m = json.load(open(f"{d}/manifest.json"))
row = next(r for r in csv.DictReader(open(f"{d}/pairs.csv")) if r["a"] == "learned" and r["b"] == opp)
cells = [preset, players, opp, m["games"], row["comparisons"], row["a_score"], row["a_score_lo"],
         row["a_score_hi"], row["elo"], row["elo_lo"], row["elo_hi"]]
print(",".join(str(c) for c in cells))
PY
    done
  done
done
mv "$TMP/out.csv" "$OUT/learned.csv"
python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/learned.csv")))
lines = ["| preset | players | opponent | games | learned's score [95% interval] | Elo [95% interval] |",
         "|---|---:|---|---:|---|---|"]
for r in rows:
    s, lo, hi = (100 * float(r[k]) for k in ("score", "score_lo", "score_hi"))
    e, elo_lo, elo_hi = (float(r[k]) for k in ("elo", "elo_lo", "elo_hi"))
    lines.append(f"| `{r['preset']}` | {r['players']} | `{r['opponent']}` | {r['games']} | {s:.1f}% [{lo:.1f}, {hi:.1f}] | "
                 f"{e:+.0f} [{elo_lo:+.0f}, {elo_hi:+.0f}] |")
open(f"{out}/learned.md", "w").write("\n".join(lines) + "\n")
PY
cat "$OUT/learned.md"
