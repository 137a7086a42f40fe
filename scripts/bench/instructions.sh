#!/usr/bin/env bash
# Instruction-count check of the hot paths (issue "The main job at the engine's speed").
#
# Counts instructions with callgrind, which gives the same figure on every run whatever the
# machine's load, for:
#   greedy_round         a greedy round through `play_round`, deal included (4 players, double-12)
#   greedy_round_all     the same with the engine cycling 12..0 as in a match (the floor under a
#                        tournament of full matches)
#   greedy_round_general the greedy round on the general turn machine only (what the plain loop saves)
#   deal                 the seeded shuffle, deal and initial state of a round (the floor under it)
#   planner_round        a planner round through `play_round`
#   montecarlo_decision  one montecarlo decision (default settings), rounds through `play_round`
#   expert_decision      one expert decision (default settings: weighted rollouts), likewise
#   tournament_round     a round of `mtrain tournament --bots greedy --players 4 --rounds 1`
#                        (whole command: scheduling, seeding, playing, accumulating), per round
#   tournament_match_round  the same with full 13-round matches, per round
# and compares each with its budget in results/benchmarks/budgets.csv. A figure more than 5%
# over its budget fails the check (exit 1). `--update` writes the measured figures as the new
# budgets (after a change that was meant to cost more, or that saved).
#
# Usage: scripts/bench/instructions.sh [--update]      (about 6 minutes)
# Writes results/benchmarks/instructions.csv (this run) and prints the table.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-results/benchmarks}"
BUDGETS="$OUT/budgets.csv"
UPDATE=0
[[ "${1:-}" == "--update" ]] && UPDATE=1
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }
cargo build --release --quiet
cargo build --release --quiet --example rounds
M=target/release/mtrain
R=target/release/examples/rounds
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

refs() { # command... -> instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>"$TMP/cg.txt" >"$TMP/out.txt"
  grep -oE "refs: +[0-9,]+" "$TMP/cg.txt" | tr -d ', ' | cut -d: -f2
}
decisions() { grep -oE "[0-9]+ decisions" "$TMP/out.txt" | cut -d' ' -f1; }
tournament() { # rounds games -> instructions
  rm -rf "$TMP/t"
  refs "$M" tournament --quiet --bots greedy --players 4 --set 12 --rounds "$1" --games "$2" --threads 1 --out "$TMP/t"
}

greedy=$(refs "$R" greedy 20000 play)
greedy_all=$(refs "$R" greedy 13000 play all)
general=$(refs "$R" greedy 4000 general)
dealonly=$(refs "$R" greedy 20000 deal)
planner=$(refs "$R" planner 2000 play)
mc=$(refs "$R" montecarlo 4 play)
mc_decisions=$(decisions)
ex=$(refs "$R" expert 4 play)
ex_decisions=$(decisions)
t1_small=$(tournament 1 4)
t1=$(tournament 1 4004)
t13_small=$(tournament 13 4)
t13=$(tournament 13 404)

python3 - "$OUT" "$BUDGETS" "$UPDATE" "$greedy" "$greedy_all" "$planner" "$mc" "$mc_decisions" \
  "$t1_small" "$t1" "$t13_small" "$t13" "$general" "$dealonly" "$ex" "$ex_decisions" <<'PY'
import csv, os, sys
out, budgets_path, update = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
greedy, greedy_all, planner, mc, mc_dec, t1s, t1, t13s, t13, general, dealonly, ex, ex_dec = (int(x) for x in sys.argv[4:17])
measured = {
    "greedy_round": greedy / 20000,
    "greedy_round_all": greedy_all / 13000,
    "greedy_round_general": general / 4000,
    "deal": dealonly / 20000,
    "planner_round": planner / 2000,
    "montecarlo_decision": mc / mc_dec,
    "expert_decision": ex / ex_dec,
    "tournament_round": (t1 - t1s) / 4000,
    "tournament_match_round": (t13 - t13s) / (400 * 13),
}
what = {
    "greedy_round": "`examples/rounds greedy 20000 play`, per round",
    "greedy_round_all": "`examples/rounds greedy 13000 play all`, per round",
    "greedy_round_general": "`examples/rounds greedy 4000 general`, per round",
    "deal": "`examples/rounds greedy 20000 deal`, per round",
    "planner_round": "`examples/rounds planner 2000 play`, per round",
    "montecarlo_decision": "`examples/rounds montecarlo 4 play`, per decision",
    "expert_decision": "`examples/rounds expert 4 play`, per decision",
    "tournament_round": "`mtrain tournament --bots greedy --players 4 --rounds 1`, 4004 minus 4 games, per round",
    "tournament_match_round": "`mtrain tournament --bots greedy --players 4`, 404 minus 4 games, per round",
}
budgets = {}
if os.path.exists(budgets_path):
    with open(budgets_path) as f:
        budgets = {r["name"]: float(r["instructions"]) for r in csv.DictReader(f)}
rows, failed = [], []
for name, v in measured.items():
    b = budgets.get(name)
    change = (v / b - 1) * 100 if b else None
    verdict = "no budget" if b is None else ("OVER" if change > 5 else "ok")
    if verdict == "OVER":
        failed.append(name)
    rows.append((name, v, b, change, verdict))
with open(f"{out}/instructions.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["name", "instructions", "budget", "change_pct", "verdict"])
    for name, v, b, change, verdict in rows:
        w.writerow([name, f"{v:.0f}", "" if b is None else f"{b:.0f}", "" if change is None else f"{change:+.2f}", verdict])
print(f"{'what':<24} {'instructions':>13} {'budget':>13} {'change':>8}  verdict")
for name, v, b, change, verdict in rows:
    bs = "-" if b is None else f"{b:,.0f}"
    cs = "-" if change is None else f"{change:+.1f}%"
    print(f"{name:<24} {v:>13,.0f} {bs:>13} {cs:>8}  {verdict}")
print(f"the plain loop: {measured['greedy_round_general'] / measured['greedy_round']:.2f}x fewer instructions than the general machine; "
      f"the deal is {measured['deal'] / measured['greedy_round']:.0%} of a round")
print(f"tournament overhead over play_round: one-round games {measured['tournament_round'] / greedy * 20000 - 1:+.1%}, "
      f"full matches {measured['tournament_match_round'] / measured['greedy_round_all'] - 1:+.1%}")
if update:
    with open(budgets_path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["name", "instructions", "what"])
        for name, v in measured.items():
            w.writerow([name, f"{v:.0f}", what[name]])
    print(f"budgets written to {budgets_path}")
elif failed:
    print(f"FAILED: more than 5% over budget: {', '.join(failed)}", file=sys.stderr)
    sys.exit(1)
PY
