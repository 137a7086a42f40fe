#!/usr/bin/env bash
# Search guided by the tuned policy (issue "The strongest player", first measurements): `expert`
# with `weighted` rollouts and a prior on the policy's move, against tuned `weighted` head to
# head at 4 players (`--bots X,X,weighted,weighted`), `wikipedia`, double-12, full matches, 400
# games on the same deals (seed 11), and each variant's time per decision on one thread
# (`mtrain bench`, 4 players, median of 3 runs of 3 s).
#
# Usage: scripts/studies/study-policy-search.sh            (about 8 minutes on 2 cores)
# Writes results/ladder/policy-search.csv and results/ladder/policy-search.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet --bin mtrain
MT=target/release/mtrain
OUT=results/ladder
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Every spec names rollout, prior, depth and samples, so that each keeps meaning the same bot
# whatever expert's defaults are: the first is the former `expert` (its defaults before this
# study), the eighth is today's `expert` at its defaults.
VARIANTS=(
  "expert:rollout=greedy,prior=0,depth=8,samples=auto"
  "expert:rollout=greedy,prior=5,depth=8,samples=auto"
  "expert:rollout=weighted,prior=0,depth=8,samples=auto"
  "expert:rollout=weighted,prior=3,depth=8,samples=auto"
  "expert:rollout=weighted,prior=5,depth=8,samples=auto"
  "expert:rollout=weighted,prior=10,depth=8,samples=auto"
  "expert:rollout=weighted,prior=5,depth=4,samples=80"
  "expert:rollout=weighted,prior=5,depth=12,samples=31"
  "expert:rollout=weighted,prior=5,depth=16,samples=23"
)
echo "spec,games,comparisons,score,score_lo,score_hi,elo,elo_lo,elo_hi,ms_per_decision" > "$TMP/out.csv"
for spec in "${VARIANTS[@]}"; do
  echo "== $spec" >&2
  rm -rf "$TMP/t"
  "$MT" tournament --players 4 --name "x=$spec" --bots x,x,weighted,weighted --games 400 --threads 2 \
    --seed 11 --quiet --out "$TMP/t" > /dev/null
  row=$(awk -F, '$1=="x" && $2=="weighted" {print $3","$7","$8","$9","$10","$11","$12}' "$TMP/t/pairs.csv")
  "$MT" bench --bots "$spec" --players 4 --threads 1 --seconds 3 --runs 3 --out "$TMP/b.csv" > /dev/null
  ns=$(python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(r[-1]['ns_per_decision'])" "$TMP/b.csv")
  ms=$(python3 -c "print(f'{$ns/1e6:.3f}')")
  echo "\"$spec\",400,$row,$ms" >> "$TMP/out.csv"
done
mv "$TMP/out.csv" "$OUT/policy-search.csv"
python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/policy-search.csv")))
with open(f"{out}/policy-search.md", "w") as f:
    f.write("| spec | score against tuned `weighted` [95% interval] | Elo | ms per decision |\n|---|---|---|---:|\n")
    for r in rows:
        s, lo, hi = (100 * float(r[k]) for k in ("score", "score_lo", "score_hi"))
        f.write(f"| `{r['spec']}` | {s:.1f}% [{lo:.1f}, {hi:.1f}] | {float(r['elo']):+.0f} [{float(r['elo_lo']):+.0f}, {float(r['elo_hi']):+.0f}] | {float(r['ms_per_decision']):.2f} |\n")
PY
cat "$OUT/policy-search.md"
