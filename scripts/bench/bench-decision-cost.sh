#!/usr/bin/env bash
# What one decision of each built-in bot costs at two players under every preset (draws swell
# hands the most at two players: past 40 tiles under celko1998 and family_house). Every bot
# plays MATCHES full matches against itself (seeds 1..MATCHES) on one thread; a decision's cost
# is the time, plan-search nodes and rollouts between two consecutive events of a round.
# The node, rollout and hand columns do not depend on the machine; the times do (run it on a
# quiet machine). Writes results/benchmarks/decision-cost.csv and DECISION-COST.md.
#
# Usage: scripts/bench/bench-decision-cost.sh [MATCHES]   (default 3: about 5 minutes on one core;
# REUSE=1 rewrites DECISION-COST.md from the CSV without playing)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-results/benchmarks}"
MATCHES="${1:-3}"
BOTS="random,greedy,planner,hoarder,cutthroat,weighted,montecarlo,montecarlo:rollout=weighted,expert,oracle"
mkdir -p "$OUT"
if [ -z "${REUSE:-}" ]; then
    cargo build --release --quiet --example decision_cost
    target/release/examples/decision_cost "$MATCHES" wikipedia,celko1998,dominorules,family_house,harbour_cay "$BOTS" \
        > "$OUT/decision-cost.csv.tmp"
    mv "$OUT/decision-cost.csv.tmp" "$OUT/decision-cost.csv"
fi
python3 - "$OUT" "$MATCHES" <<'PY'
import csv, os, platform, sys
out, matches = sys.argv[1], sys.argv[2]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
rows = list(csv.DictReader(open(os.path.join(out, "decision-cost.csv"))))
with open(os.path.join(out, "DECISION-COST.md"), "w") as f:
    f.write("# What one decision costs, at two players under every preset\n\n")
    f.write(f"Machine: {cpu}, {os.cpu_count()} cores, one thread. Written by `scripts/bench/bench-decision-cost.sh {matches}` (do not\n")
    f.write(f"edit): every bot plays {matches} full matches against itself (seeds 1 to {matches}), double-12, two players. A decision's\n")
    f.write("cost is what happens between two consecutive events of a round (each follows at most one decision).\n")
    f.write("`max hand` is the most tiles one hand held. Nodes are plan-search nodes (the planning bots' longest-trail\n")
    f.write("search, also played in `weighted` and `planner` rollouts); they and the rollouts do not depend on the machine.\n")
    f.write("A rollout's search that repeats a recent one is answered from a memo and counts the nodes that search\n")
    f.write("counted, so the nodes here are those the searches take, whether searched or remembered.\n\n")
    f.write("The budgets: a plan search expands at most 200,000 nodes (a bot's own plan) or 20,000 (a plan searched in a\n")
    f.write("search bot's rollout), and the rollouts of one search decision stop at the end of the world in which they\n")
    f.write("passed 1,000,000 nodes (the world they are in is finished, so a decision may pass the budget by one world's\n")
    f.write("plans). A node costs more the bigger the hand (about 0.5 µs at 40 tiles), so the slowest decisions are\n")
    search = [r for r in rows if r["bot"] in ("expert", "oracle", "montecarlo:rollout=weighted")]
    worst = max(search, key=lambda r: float(r["max_ms"]))
    f.write(f"those of the search bots with planning rollouts where hands pass 40 tiles: at most {float(worst['max_ms']) / 1000:.1f} s\n")
    f.write(f"(`{worst['bot']}`, {worst['preset']}), where one round of `expert` took over 20 CPU seconds before the budgets.\n\n")
    f.write("| preset | bot | decisions | max hand | mean ms | p99 ms | max ms | mean nodes | max nodes | max rollouts |\n")
    f.write("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    for r in rows:
        f.write(f"| {r['preset']} | `{r['bot']}` | {int(r['decisions']):,} | {r['max_hand']} | {float(r['mean_ms']):.3f} | "
                f"{float(r['p99_ms']):.2f} | {float(r['max_ms']):.1f} | {float(r['mean_nodes']):,.0f} | {int(r['max_nodes']):,} | "
                f"{int(r['max_rollouts']):,} |\n")
PY
echo "wrote $OUT/DECISION-COST.md" >&2
