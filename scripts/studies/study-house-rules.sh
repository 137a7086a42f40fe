#!/usr/bin/env bash
# Study: the house rules families play, against the wikipedia rules, at 3 to 8 players, with
# `mtrain compare` (every rule set on the same deals, paired differences, intervals adjusted for
# every difference reported, verdicts at a margin of 1 point on shares and 5% on counts). At each
# player count the hand sizes around the published one (wikipedia deals 15 tiles to 3-4
# players, 12 to 5-6, 11 to 7-8), the default population (weighted, planner, greedy), GAMES games
# per cell and rule set. Writes results/house-rules/pN/ (compare.csv, rulesets.csv, summary.txt,
# manifest.json, report.html) and results/house-rules/README.md, which quotes every summary and
# tabulates the differences at the published hand (tests/readme_numbers.rs checks the quotes).
#
# Usage: scripts/studies/study-house-rules.sh   (about 15 minutes on 2 cores; GAMES=200 for a quick look)
set -euo pipefail
MT="${MT:-target/release/mtrain}"
cd "$(dirname "$0")/../.."
[ "$MT" != target/release/mtrain ] || cargo build --release --quiet
OUT="${OUT:-results/house-rules}"
GAMES="${GAMES:-1000}"
SEED=2026
RULESETS=(
  "wikipedia"
  "wikipedia:tap=draw_two,tap_forget=0.2,tap_catch=0.5"
  "wikipedia:tap=draw_two"
  "wikipedia:uncovered_double_penalty=2"
  "wikipedia:follow_up=any_eligible"
  "wikipedia:mexican_start=only_if_no_other_play"
  "wikipedia:continuous_draw=true"
)
# Hands per player count: the published hand, three below and one above (at 8 players 11 is the
# most double-12 deals).
declare -A HANDS=([3]=12-16 [4]=12-16 [5]=9-13 [6]=9-13 [7]=8-12 [8]=8-11)
args=()
for r in "${RULESETS[@]}"; do args+=(--ruleset "$r"); done
for p in 3 4 5 6 7 8; do
  echo "== $p players" >&2
  rm -rf "$OUT/p$p"
  "$MT" compare "${args[@]}" --players "$p" --hands "${HANDS[$p]}" --games "$GAMES" --seed "$SEED" \
    --quiet --out "$OUT/p$p" > /dev/null
  "$MT" report "$OUT/p$p" > /dev/null
done
python3 - "$OUT" "$GAMES" <<'PY'
import csv, os, sys
out, games = sys.argv[1], sys.argv[2]
published = {3: 15, 4: 15, 5: 12, 6: 12, 7: 11, 8: 11}
show = [("turns", "turns/round", 1), ("match_minutes", "minutes/match", 1), ("blocked_rate", "blocked (pt)", 100),
        ("match_first_player_advantage", "first player (pt)", 100), ("skill", "skill (pt)", 100)]
mark = {"changes": "*", "no_change": "=", "undecided": "?"}
lines = [
    "# House rules against the wikipedia rules, 3 to 8 players",
    "",
    "What the house rules families play do to the game, measured by `mtrain compare` on the same deals:",
    "every rule set plays the same schedule of deals as the baseline (wikipedia as published) at each",
    f"player count and hand size, {games} games per cell and rule set (every seat rotation of a deal is",
    "one game), the default population (weighted, planner, greedy), seed 2026. Each difference has an",
    "interval adjusted for every difference of its player count (Bonferroni); a change is called",
    "beyond a margin of 1 percentage point on shares and 5% of the baseline's figure on counts.",
    "Minutes at 15 seconds a turn.",
    "",
    "Made by `scripts/studies/study-house-rules.sh` (about 15 minutes on 2 cores). Each `pN/` folder",
    "holds the run (`compare.csv`, `rulesets.csv`, `summary.txt`, `report.html`).",
    "",
    "## At the published hand",
    "",
    "Differences from wikipedia at the hand wikipedia deals (`*` changes beyond the margin, `=` no",
    "measurable change at the margin, `?` undecided), from each `pN/compare.csv`:",
    "",
    "| players | hand | rule set | " + " | ".join(h for _, h, _ in show) + " |",
    "|---|---|---|" + "---|" * len(show),
]
summaries = []
for p in range(3, 9):
    path = os.path.join(out, f"p{p}", "compare.csv")
    rows = list(csv.DictReader(open(path)))
    hand = str(published[p])
    sets = []
    for r in rows:
        if r["ruleset"] not in sets:
            sets.append(r["ruleset"])
    for s in sets:
        cells = []
        for metric, _, k in show:
            r = next((r for r in rows if r["ruleset"] == s and r["hand"] == hand and r["metric"] == metric), None)
            cells.append("-" if r is None else f"{k * float(r['difference']):+.1f}{mark[r['verdict']]}")
        lines.append(f"| {p} | {hand} | `{s}` | " + " | ".join(cells) + " |")
    summaries.append((p, open(os.path.join(out, f"p{p}", "summary.txt")).read().strip()))
lines += ["", "## In plain words", "", "Each player count's `summary.txt`, as `mtrain compare` wrote it:", ""]
for p, text in summaries:
    lines += [f"### {p} players", ""]
    for para in text.split("\n\n"):
        lines += [para.strip(), ""]
open(os.path.join(out, "README.md"), "w").write("\n".join(lines).rstrip() + "\n")
PY
echo "wrote $OUT/README.md" >&2
