#!/usr/bin/env bash
# The strategy guide's study (docs/strategy.md): what each rule of thumb of the tuned policy is
# worth. The tuned `weighted` bot scores every move by a weighted sum of 13 named features (one
# per rule of thumb: shed pips, lift your marker, keep your plan's tiles...). For each feature,
# the tuned bot plays the same bot with that one weight set to 0 (`weighted:FEATURE=0`), under
# `wikipedia`, double-12, full matches: at 4 players (two seats each) and at 2 players, GAMES
# games each (duplicate deals, every seat rotation, seating order varied), fixed seed. Two sizes
# per feature: the tuned bot's head-to-head score (how often it finishes a match ahead of the
# bot without the rule) with its 95% interval and Elo, and the points per round the rule saves
# (the ablated bot's mean match total minus the tuned bot's, over the rounds, averaged per deal,
# with a 95% interval over deals).
# Then the example positions: one logged match of the tuned bot in every seat
# (results/strategy/example.jsonl, `mtrain play --seed 45`), and for each feature the first move
# where the bot without it would have played differently (scripts/studies/strategy_examples.py).
# Writes results/strategy/ablation.csv, ablation.md, example.jsonl and examples.csv.
#
# Usage: scripts/studies/study-strategy.sh   (about 5 minutes on 2 cores; GAMES=2000 for a quick look)
set -euo pipefail
MT="${MT:-target/release/mtrain}"   # MT=path runs another build (e.g. a copy while you work on)
cd "$(dirname "$0")/../.."
[ "${MT:-target/release/mtrain}" != target/release/mtrain ] || cargo build --release --quiet   # a given MT is used as it is
OUT="${OUT:-results/strategy}"
GAMES="${GAMES:-24000}"
SEED=45
RULES=wikipedia
FEATURES="pips urgent double open_double own unmark mexican other plan plan_tile follow void_end unplayed"
mkdir -p "$OUT"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
echo "feature,weight,rules,players,games,deals,comparisons,score,score_lo,score_hi,elo,elo_lo,elo_hi,points,points_lo,points_hi" > "$TMP/ablation.csv"
for players in 4 2; do
  for f in $FEATURES; do
    echo "== $players players: without $f" >&2
    if [ "$players" = 2 ]; then bots="tuned,without"; else bots="tuned,tuned,without,without"; fi
    rm -rf "$TMP/run"
    "$MT" tournament --rules "$RULES" --players "$players" --name tuned=weighted --name "without=weighted:$f=0" \
      --bots "$bots" --games "$GAMES" --seed "$SEED" --threads 2 --per-game --quiet --out "$TMP/run" > /dev/null
    python3 - "$TMP/run" "$f" "$MT" >> "$TMP/ablation.csv" <<'PY'
import csv, json, math, subprocess, sys
from collections import defaultdict
run, feature, mt = sys.argv[1:]
m = json.load(open(f"{run}/manifest.json"))
pair = next(r for r in csv.DictReader(open(f"{run}/pairs.csv")) if r["a"] == "tuned" and r["b"] == "without")
# the tuned weight of the feature, as `mtrain strategies` lists it
weight = next(line.split()[0].split("=", 1)[1] for line in subprocess.run([mt, "strategies"], capture_output=True,
              text=True, check=True).stdout.splitlines() if line.strip().startswith(feature + "="))
# points per round the feature saves: per deal, the bot without it's mean match total minus the
# tuned bot's, over the rounds of a match; then the mean over deals with a normal 95% interval
rounds = m["rules"]["rounds"]
per = defaultdict(lambda: {"tuned": [], "without": []})
for r in csv.DictReader(open(f"{run}/games.csv")):
    per[r["deal"]][r["strategy"]].append(float(r["score"]))
d = [(sum(v["without"]) / len(v["without"]) - sum(v["tuned"]) / len(v["tuned"])) / rounds for v in per.values()]
n = len(d)
mean = sum(d) / n
se = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)
cells = [feature, weight, m["rules"]["preset"], m["rules"]["players"][0], m["games"], n, pair["comparisons"],
         pair["a_score"], pair["a_score_lo"], pair["a_score_hi"], pair["elo"], pair["elo_lo"], pair["elo_hi"],
         f"{mean:.4f}", f"{mean - 1.96 * se:.4f}", f"{mean + 1.96 * se:.4f}"]
print(",".join(str(c) for c in cells))
PY
  done
done
mv "$TMP/ablation.csv" "$OUT/ablation.csv"
python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/ablation.csv")))
with open(f"{out}/ablation.md", "w") as f:
    f.write("<!-- written by scripts/studies/study-strategy.sh -->\n\n")
    f.write("The tuned `weighted` against itself with one weight set to 0, `wikipedia`, double-12, full matches "
            "(at 4 players two seats each). Score: how often the tuned bot finishes ahead; points: what the "
            "rule saves a round.\n\n")
    f.write("| feature | tuned weight | players | games | tuned bot's score [95% interval] | Elo | points a round saved [95% interval] |\n")
    f.write("|---|---:|---:|---:|---|---|---|\n")
    for r in rows:
        s, lo, hi = (100 * float(r[k]) for k in ("score", "score_lo", "score_hi"))
        f.write(f"| `{r['feature']}` | {float(r['weight']):+.2f} | {r['players']} | {int(r['games']):,} | {s:.1f}% [{lo:.1f}, {hi:.1f}] | "
                f"{float(r['elo']):+.0f} [{float(r['elo_lo']):+.0f}, {float(r['elo_hi']):+.0f}] | "
                f"{float(r['points']):+.2f} [{float(r['points_lo']):+.2f}, {float(r['points_hi']):+.2f}] |\n")
PY
echo "== example positions" >&2
python3 scripts/studies/strategy_examples.py "$MT" "$OUT/example.jsonl" "$OUT/examples.csv" "$SEED" 4 "$RULES" $FEATURES
cat "$OUT/ablation.md"
echo "wrote $OUT/ablation.csv, ablation.md, example.jsonl, examples.csv" >&2
