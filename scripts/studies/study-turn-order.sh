#!/usr/bin/env bash
# Study (c): turn-order advantage per preset. For every preset and every player count of its
# double-12 deal table, at the published hand size: 5,000 distinct full matches of `greedy` bots
# (greedy is deterministic, so the seat rotations of a deal would replay one game: each deal is
# played once), fixed seed. Both the per-round edge and the per-match edge (the seat that leads
# round 1; the lead rotates over the match) are written. The advantage of the K-th seat to act in a round is its round
# win rate minus 1/N (rounds won by the lowest round score, ties shared), with a 95% interval.
# Writes results/turn-order/turn_order.csv, two plots, and one tournament folder per run.
#
# Usage: scripts/studies/study-turn-order.sh   (about 2 minutes on 2 cores; GAMES=1000 for a quick look)
set -euo pipefail
MT="${MT:-target/release/mtrain}"   # MT=path runs another build (e.g. a copy while you work on)
cd "$(dirname "$0")/../.."
[ "${MT:-target/release/mtrain}" != target/release/mtrain ] || cargo build --release --quiet   # a given MT is used as it is
OUT="${OUT:-results/turn-order}"
GAMES="${GAMES:-5000}"
SEED=2026
BOT=greedy
rm -rf "$OUT/runs"   # the script's own runs, made anew (mtrain refuses a folder holding another run)
mkdir -p "$OUT/runs"
declare -A PLAYERS=([celko1998]="2 3 4 5 6 7 8" [wikipedia]="2 3 4 5 6 7 8" [dominorules]="2 3 4 5 6 7 8"
                    [family_house]="2 3 4 5 6 7 8 9 10" [harbour_cay]="2 3 4 5 6 7 8 9 10")
for preset in celko1998 wikipedia dominorules family_house harbour_cay; do
  for n in ${PLAYERS[$preset]}; do
    echo "== $preset, $n players" >&2
    "$MT" tournament --rules "$preset" --players "$n" --bots "$BOT" --games "$GAMES" \
      --seed "$SEED" --quiet --out "$OUT/runs/$preset-$n" > /dev/null
  done
done
python3 - "$OUT" <<'PY'
import csv, json, os, sys
out = sys.argv[1]
rows = []
for name in sorted(os.listdir(os.path.join(out, "runs"))):
    run = os.path.join(out, "runs", name)
    preset, n = name.rsplit("-", 1)
    n = int(n)
    with open(os.path.join(run, "manifest.json")) as f:
        hand = json.load(f)["rules"]["hand"]
    # The manifest lists the hand sizes a run deals (one here).
    hand = hand[0] if isinstance(hand, list) else hand
    with open(os.path.join(run, "round_stats.csv")) as f:
        for r in csv.DictReader(f):
            m = r["metric"]
            for per in ("round", "match"):
                suffix = f"_{per}_win"
                if m.startswith("position") and m.endswith(suffix):
                    k = int(m[len("position"):-len(suffix)])
                    fair = 1.0 / n
                    rows.append([preset, n, hand, per, k, int(r["count"]), float(r["value"]), float(r["lo"]),
                                 float(r["hi"]), float(r["value"]) - fair, float(r["lo"]) - fair, float(r["hi"]) - fair])
order = {"celko1998": 0, "wikipedia": 1, "dominorules": 2, "family_house": 3, "harbour_cay": 4}
rows.sort(key=lambda r: (order[r[0]], r[1], r[3], r[4]))
with open(os.path.join(out, "turn_order.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["preset", "players", "hand", "per", "position", "count", "win_rate", "win_lo", "win_hi",
                "advantage", "advantage_lo", "advantage_hi"])
    for r in rows:
        w.writerow(r[:6] + ["%.6f" % x for x in r[6:]])
PY
"$MT" plot --force --csv "$OUT/turn_order.csv" --where position=1 --where per=round --x players --y advantage \
  --lo advantage_lo --hi advantage_hi --group preset --percent --reference 0 \
  --title "First player's round win rate minus 1/N (greedy bots, published hands, double-12)" \
  --x-label "players" --y-label "first player's advantage" --out "$OUT/first_player_advantage.svg"
"$MT" plot --force --csv "$OUT/turn_order.csv" --kind dot --where players=4 --where per=round --x position --y advantage \
  --lo advantage_lo --hi advantage_hi --group preset --percent --reference 0 \
  --title "4 players: round win rate minus 1/4 by position in turn order" \
  --y-label "advantage (position 1 acts first)" --out "$OUT/four_players_by_position.svg"
echo "wrote $OUT/turn_order.csv" >&2
