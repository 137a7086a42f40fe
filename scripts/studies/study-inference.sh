#!/usr/bin/env bash
# Inference from behaviour (issue "The strongest player", item 3): how much closer to the truth
# the worlds get when each is picked by the likelihood of the other seats' recorded plays under
# the tuned policy (`expert:infer=policy`), against the worlds that only meet the void records
# (`infer=draws`, expert's default), and what it buys in play.
#
#   1. The inference itself (examples/inference.rs): rounds of double-12 with `weighted` in seat 0
#      and the opponents given; at every decision of seat 0 with two or more legal moves, 16
#      worlds from each sampler, each scored by the share of the tiles in the other hands it
#      deals to the right hand. Per stage of the round (tiles on the table: under a third, to
#      two thirds, beyond), the mean share under each sampler and the gain with a 95% interval
#      clustered by round (a round's probes are correlated). Cells: wikipedia at 4 players
#      against `weighted` (the model's own policy) and against `planner` (a player the model
#      does not describe), wikipedia at 2 players, dominorules at 4; pools of 8 and 32, temp 0.25.
#   2. The temperature: the same measure at wikipedia 4 players against `weighted`, pool 8, 200
#      rounds, temp 0.1, 0.25, 0.5, 1 and 2 (whole rounds); the default `temp` is chosen here.
#   3. In play: `expert:infer=policy` (pool 8, temp 0.25) against `expert` at its defaults,
#      4 players (two seats each), wikipedia, 400 games, seed 11, and each one's time a decision
#      (`mtrain bench`, 4 players, one thread, median of 3 runs of 2 s).
# Writes results/ladder/inference.csv, inference-temp.csv, inference-play.csv and inference.md.
#
# Usage: scripts/studies/study-inference.sh   (about 10 minutes on 2 cores; REUSE=1 keeps the result in
#        play already in results/ladder/inference-play.csv, and then takes about a minute)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet --bin mtrain --example inference
MT=target/release/mtrain
INF=target/release/examples/inference
OUT="${OUT:-results/ladder}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CELLS=("wikipedia 4 weighted" "wikipedia 4 planner" "wikipedia 2 weighted" "dominorules 4 weighted")
for cell in "${CELLS[@]}"; do
  read -r preset players opp <<< "$cell"
  for pool in 8 32; do
    echo "== inference: $preset, $players players, against $opp, pool $pool" >&2
    "$INF" "$preset" "$players" "$opp" 300 2027 16 "$pool" 0.25 > "$TMP/$preset-$players-$opp-$pool.csv"
  done
done
for temp in 0.1 0.25 0.5 1 2; do
  echo "== temperature $temp" >&2
  "$INF" wikipedia 4 weighted 200 2028 16 8 "$temp" > "$TMP/temp-$temp.csv"
done
python3 - "$TMP" "$OUT" <<'PY'
import csv, math, os, sys
tmp, out = sys.argv[1:]
Z = 1.959964
STAGES = (("early", 0.0, 1 / 3), ("middle", 1 / 3, 2 / 3), ("late", 2 / 3, 1.01))
rows = []
for cell in ("wikipedia 4 weighted", "wikipedia 4 planner", "wikipedia 2 weighted", "dominorules 4 weighted"):
    preset, players, opp = cell.split()
    for pool in (8, 32):
        probes = list(csv.DictReader(open(os.path.join(tmp, f"{preset}-{players}-{opp}-{pool}.csv"))))
        for stage, lo, hi in STAGES + (("all", 0.0, 1.01),):
            mine = [p for p in probes if lo <= float(p["played_share"]) < hi]
            games = {}
            for p in mine:
                d, n, u = games.get(p["game"], (0.0, 0, 0.0))
                games[p["game"]] = (d + float(p["policy"]) - float(p["uniform"]), n + 1, u + float(p["uniform"]))
            total = sum(n for _, n, _ in games.values())
            gain = sum(d for d, _, _ in games.values()) / total
            uniform = sum(u for _, _, u in games.values()) / total
            g = len(games)
            # Cluster-robust variance of the ratio mean (rounds are the clusters).
            var = g / (g - 1) * sum((d - gain * n) ** 2 for d, n, _ in games.values()) / total ** 2
            se = math.sqrt(var)
            rows.append([preset, players, opp, pool, stage, total, g, "%.6f" % uniform, "%.6f" % (uniform + gain),
                         "%.6f" % gain, "%.6f" % (gain - Z * se), "%.6f" % (gain + Z * se)])
with open(os.path.join(out, "inference.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["preset", "players", "opponents", "pool", "stage", "probes", "rounds", "uniform", "policy", "gain",
                "gain_lo", "gain_hi"])
    w.writerows(rows)
temps = []
for temp in ("0.1", "0.25", "0.5", "1", "2"):
    probes = list(csv.DictReader(open(os.path.join(tmp, f"temp-{temp}.csv"))))
    games = {}
    for p in probes:
        d, n = games.get(p["game"], (0.0, 0))
        games[p["game"]] = (d + float(p["policy"]) - float(p["uniform"]), n + 1)
    total = sum(n for _, n in games.values())
    gain = sum(d for d, _ in games.values()) / total
    g = len(games)
    se = math.sqrt(g / (g - 1) * sum((d - gain * n) ** 2 for d, n in games.values()) / total ** 2)
    temps.append([temp, total, g, "%.6f" % gain, "%.6f" % (gain - Z * se), "%.6f" % (gain + Z * se)])
with open(os.path.join(out, "inference-temp.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["temp", "probes", "rounds", "gain", "gain_lo", "gain_hi"])
    w.writerows(temps)
PY

# In play: the guided inference against expert's default sampler, and each one's time.
POLICY="expert:infer=policy,pool=8,temp=0.25"
if ! { [ "${REUSE:-0}" = 1 ] && [ -f "$OUT/inference-play.csv" ]; }; then
rm -rf "$TMP/t"
echo "== in play: $POLICY against expert" >&2
"$MT" tournament --players 4 --name "policy=$POLICY" --bots policy,policy,expert,expert --games 400 --seed 11 \
  --quiet --out "$TMP/t" > /dev/null
row=$(awk -F, '$1=="policy" && $2=="expert" {print $3","$7","$8","$9","$10","$11","$12}' "$TMP/t/pairs.csv")
ms() {
  "$MT" bench --bots "$1" --players 4 --threads 1 --seconds 2 --runs 3 --out "$TMP/b.csv" > /dev/null
  python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(f\"{float(r[-1]['ns_per_decision'])/1e6:.3f}\")" "$TMP/b.csv"
}
{
  echo "spec,opponent,comparisons,score,score_lo,score_hi,elo,elo_lo,elo_hi,ms_per_decision,opponent_ms_per_decision"
  echo "\"$POLICY\",expert,$row,$(ms "$POLICY"),$(ms expert)"
} > "$OUT/inference-play.csv"
fi

python3 - "$OUT" <<'PY'
import csv, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "inference.csv"))))
play = next(csv.DictReader(open(os.path.join(out, "inference-play.csv"))))
temps = list(csv.DictReader(open(os.path.join(out, "inference-temp.csv"))))
pct = lambda x: "%.1f" % (100 * float(x))
with open(os.path.join(out, "inference.md"), "w") as f:
    f.write("<!-- written by scripts/studies/study-inference.sh -->\n\n")
    f.write("Share of the tiles in the other hands that a world deals to the right hand, in points (per probe, "
            "the mean over 16 worlds; the gain's 95% interval clustered by round):\n\n")
    f.write("| rules | players | opponents | pool | stage | probes | void records only | likelihood-picked | gain [95% interval] |\n")
    f.write("|---|---|---|---|---|---:|---:|---:|---|\n")
    for r in rows:
        f.write(f"| {r['preset']} | {r['players']} | `{r['opponents']}` | {r['pool']} | {r['stage']} | {int(r['probes']):,} | "
                f"{pct(r['uniform'])} | {pct(r['policy'])} | {float(r['gain']) * 100:+.2f} [{float(r['gain_lo']) * 100:+.2f}, "
                f"{float(r['gain_hi']) * 100:+.2f}] |\n")
    f.write("\nThe temperature (wikipedia, 4 players, against `weighted`, pool 8, 200 rounds, whole rounds):\n\n")
    f.write("| temp | probes | gain [95% interval] |\n|---|---:|---|\n")
    for r in temps:
        f.write(f"| {r['temp']} | {int(r['probes']):,} | {float(r['gain']) * 100:+.2f} [{float(r['gain_lo']) * 100:+.2f}, "
                f"{float(r['gain_hi']) * 100:+.2f}] |\n")
    f.write(f"\nIn play, 4 players, wikipedia, 400 games: `{play['spec']}` against `expert` scores {pct(play['score'])}% "
            f"[{pct(play['score_lo'])}, {pct(play['score_hi'])}] ({float(play['elo']):+.0f} Elo [{float(play['elo_lo']):+.0f}, "
            f"{float(play['elo_hi']):+.0f}]) at {float(play['ms_per_decision']):.2f} ms a decision against "
            f"{float(play['opponent_ms_per_decision']):.2f} ms.\n")
PY
cat "$OUT/inference.md"
