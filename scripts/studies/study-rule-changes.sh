#!/usr/bin/env bash
# Study (d): which single rule change moves the turn-order advantage or the blocked-round share
# most. Baseline: `wikipedia`, double-12, 4 players, 15 tiles, `planner` bots, full matches. Each
# change is one `--rule` on that baseline, 5,000 distinct games (planner is deterministic, so each
# deal is played once), the same seed (so the deals are the same
# across changes). For each change: blocked-round share, first player's round advantage and the
# noise-corrected turn-order advantage, and their differences from the baseline with 95% intervals
# (the runs are treated as independent, which makes the intervals conservative).
#
# Usage: scripts/studies/study-rule-changes.sh   (about 1 minute on 2 cores; GAMES=1000 for a quick look)
set -euo pipefail
MT="${MT:-target/release/mtrain}"   # MT=path runs another build (e.g. a copy while you work on)
cd "$(dirname "$0")/../.."
[ "${MT:-target/release/mtrain}" != target/release/mtrain ] || cargo build --release --quiet   # a given MT is used as it is
OUT="${OUT:-results/rule-changes}"
GAMES="${GAMES:-5000}"
SEED=2026
BOT=planner
CHANGES=(
  "baseline"
  "marker_removal=any_play_on_train" "marker_removal=owner_anywhere"
  "mexican_start=only_if_no_other_play" "mexican_start=requires_own_train_play" "max_mexican_trains=2"
  "first_turn_own_train_only=false" "mark_on_empty_boneyard=false" "last_of_suit_exempt=false"
  "reprivatise_exempt=true" "go_out_on_double=must_cover" "early_end_when_stuck=true"
  "any_train_can_cover=anyone" "cover_optional=true" "multiple_doubles=true" "double_public=true"
  "continuous_draw=true" "tap=draw_two" "tap=draw_one_else_skip" "fast_game=true"
  "delayed_first_turn=true" "swan_drive=true" "bullet_train=true" "blanks_wild=true"
  "branching_doubles=four_way" "branching_doubles=four_way_triple_cover" "partnerships=true"
  "galt_opening=true" "first_player=highest_pip_draw"
)
rm -rf "$OUT/runs"   # the script's own runs, made anew (mtrain refuses a folder holding another run)
mkdir -p "$OUT/runs"
for c in "${CHANGES[@]}"; do
  echo "== $c" >&2
  rule=()
  [ "$c" = baseline ] || rule=(--rule "$c")
  "$MT" tournament --rules wikipedia --players 4 --bots "$BOT" --games "$GAMES" --seed "$SEED" \
    "${rule[@]}" --quiet --out "$OUT/runs/${c//=/-}" > /dev/null
done
python3 - "$OUT" "${CHANGES[@]}" <<'PY'
import csv, math, os, sys
from statistics import NormalDist
out, changes = sys.argv[1], sys.argv[2:]
Z = 1.959963984540054
# Multiple comparisons: every change is compared with the baseline on two figures. A difference
# "survives" when it stays clear of 0 at the Bonferroni level 0.05 / (2 x changes), two-sided.
TESTS = 2 * (len(changes) - 1)
ZB = NormalDist().inv_cdf(1 - 0.05 / (2 * TESTS))
def stats(change):
    with open(os.path.join(out, "runs", change.replace("=", "-"), "round_stats.csv")) as f:
        m = {r["metric"]: r for r in csv.DictReader(f)}
    n = 4
    est = lambda k: (float(m[k]["value"]), float(m[k]["lo"]), float(m[k]["hi"]))
    pos = [est("position%d_round_win" % (k + 1)) for k in range(n)]
    # Noise-corrected RMS of the position advantages (as `mtrain balance`'s turn_order_advantage,
    # with the standard error taken from the interval's half-width).
    ss = sum((v - 1 / n) ** 2 - ((hi - lo) / (2 * Z)) ** 2 for v, lo, hi in pos) / n
    rms = math.sqrt(max(ss, 0.0))
    first = tuple(x - 1 / n for x in pos[0])
    return {"blocked_rate": est("blocked_rate"), "first_player_advantage": first, "turn_order_rms": rms}
base = stats("baseline")
rows = []
for c in changes:
    s = stats(c)
    row = {"change": c}
    for k in ("blocked_rate", "first_player_advantage"):
        v, lo, hi = s[k]
        bv, blo, bhi = base[k]
        se = math.hypot((hi - lo) / (2 * Z), (bhi - blo) / (2 * Z))
        d = v - bv
        row.update({k: v, k + "_lo": lo, k + "_hi": hi,
                    "delta_" + k: d, "delta_" + k + "_lo": d - Z * se, "delta_" + k + "_hi": d + Z * se,
                    "survives_" + k: c != "baseline" and abs(d) > ZB * se})
    row["turn_order_rms"] = s["turn_order_rms"]
    rows.append(row)
cols = ["change", "blocked_rate", "blocked_rate_lo", "blocked_rate_hi", "delta_blocked_rate",
        "delta_blocked_rate_lo", "delta_blocked_rate_hi", "first_player_advantage", "first_player_advantage_lo",
        "first_player_advantage_hi", "delta_first_player_advantage", "delta_first_player_advantage_lo",
        "delta_first_player_advantage_hi", "turn_order_rms", "survives_blocked_rate",
        "survives_first_player_advantage"]
# Largest absolute change in the blocked share first.
rows.sort(key=lambda r: (r["change"] != "baseline", -abs(r["delta_blocked_rate"]), r["change"]))
with open(os.path.join(out, "rule_changes.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([r["change"]] + ["%.6f" % r[c] for c in cols[1:-2]]
                   + [str(r[c]).lower() for c in cols[-2:]])
PY
"$MT" plot --force --csv "$OUT/rule_changes.csv" --kind dot --x change --y delta_blocked_rate \
  --lo delta_blocked_rate_lo --hi delta_blocked_rate_hi --percent --reference 0 \
  --title "Change in blocked rounds, one rule at a time (wikipedia, 4 planners)" \
  --y-label "blocked-round share minus the baseline's" --out "$OUT/blocked_rate_change.svg"
"$MT" plot --force --csv "$OUT/rule_changes.csv" --kind dot --x change --y first_player_advantage \
  --lo first_player_advantage_lo --hi first_player_advantage_hi --percent --reference 0 \
  --title "First player's round advantage under each single rule change (wikipedia, 4 planners)" \
  --y-label "first player's round win rate minus 1/4" --out "$OUT/first_player_advantage.svg"
echo "wrote $OUT/rule_changes.csv" >&2
