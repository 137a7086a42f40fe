#!/usr/bin/env bash
# Engine and runner throughput: regenerates results/benchmarks/README.md on this machine.
#   - `mtrain bench` for greedy and planner bots at 1 and 2 threads (medians of 5 timed runs),
#     4 players, double-12, wikipedia, full matches including every deal, each thread count
#     beside as many independent single-thread processes (the machine's own limit);
#   - `mtrain bench` for montecarlo (decisions and rollouts per second, one thread);
#   - the deal-only floor (seeded shuffle and deal of one round);
#   - `mtrain tournament` itself, whole command: greedy full matches, greedy one-round games and
#     planner full matches on one thread; greedy on 2 threads and as 2 independent processes;
#   - instruction counts and their budgets (scripts/bench/instructions.sh, callgrind).
# Run it on a quiet machine: other load lowers the timings (not the instruction counts).
#
# Usage: scripts/bench/bench.sh      (about 6 minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-results/benchmarks}"
SECONDS_PER="${SECONDS_PER:-10}"
mkdir -p "$OUT"
cargo build --release --quiet
M=target/release/mtrain
$M bench --bots greedy --threads 1,2 --seconds "$SECONDS_PER" --runs 5 --out "$OUT/greedy.csv" > "$OUT/greedy.txt"
$M bench --bots planner --threads 1,2 --seconds "$SECONDS_PER" --runs 5 --out "$OUT/planner.csv" > "$OUT/planner.txt"
$M bench --bots montecarlo --threads 1 --seconds "$SECONDS_PER" --runs 5 --out "$OUT/montecarlo.csv" > "$OUT/montecarlo.txt"
$M bench --deal-only --threads 1 --seconds "$SECONDS_PER" --runs 5 --out "$OUT/deal.csv" > "$OUT/deal.txt"

# `mtrain tournament` itself (scheduling, seeding, playing, tallies, files): wall time, median of
# 3 runs, of K processes started together, each with T threads.
ttime() { # bots rounds games threads processes -> seconds
  python3 - "$M" "$@" <<'PY'
import statistics, subprocess, sys, tempfile, time
m, bots, rounds, games, threads, procs = sys.argv[1:7]
times = []
for _ in range(3):
    with tempfile.TemporaryDirectory() as d:
        cmds = [[m, "tournament", "--bots", bots, "--players", "4", "--set", "12", "--rounds", rounds,
                 "--games", games, "--threads", threads, "--quiet", "--out", f"{d}/t{k}"] for k in range(int(procs))]
        start = time.perf_counter()
        ps = [subprocess.Popen(c, stdout=subprocess.DEVNULL) for c in cmds]
        if any(p.wait() != 0 for p in ps):
            sys.exit("tournament failed")
        times.append(time.perf_counter() - start)
print(statistics.median(times))
PY
}
TGAMES="${TGAMES:-40000}"   # greedy full matches
T1GAMES="${T1GAMES:-400000}" # greedy one-round games
PGAMES="${PGAMES:-4000}"    # planner full matches
t_greedy=$(ttime greedy 13 "$TGAMES" 1 1)
t_greedy2=$(ttime greedy 13 "$TGAMES" 2 1)
t_greedy_procs=$(ttime greedy 13 "$TGAMES" 1 2)
t_one=$(ttime greedy 1 "$T1GAMES" 1 1)
t_planner=$(ttime planner 13 "$PGAMES" 1 1)

# Instruction counts against their budgets (fails the script if one is more than 5% over).
scripts/bench/instructions.sh > "$OUT/instructions.txt"

cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
python3 - "$OUT" "$cpu" "$(nproc)" "$TGAMES" "$T1GAMES" "$PGAMES" "$t_greedy" "$t_greedy2" "$t_greedy_procs" "$t_one" "$t_planner" <<'PY'
import csv, sys
out, cpu, cores = sys.argv[1], sys.argv[2], sys.argv[3]
tgames, t1games, pgames = (int(x) for x in sys.argv[4:7])
t_greedy, t_greedy2, t_procs, t_one, t_planner = (float(x) for x in sys.argv[7:12])
def rows(name):
    with open(f"{out}/{name}.csv") as f:
        return list(csv.DictReader(f))
g, p, mc, d = rows("greedy"), rows("planner"), rows("montecarlo"), rows("deal")
ins = {r["name"]: r for r in rows("instructions")}
f = lambda x: f"{float(x):,.0f}"
pct = lambda x: f"{100 * float(x):.1f}%" if x else "-"
sx = lambda x: f"{float(x):.2f}x" if x else "-"
greedy_rate, greedy2_rate = tgames * 13 / t_greedy, tgames * 13 / t_greedy2
procs_rate, one_rate, planner_rate = 2 * tgames * 13 / t_procs, t1games / t_one, pgames * 13 / t_planner
with open(f"{out}/README.md", "w") as w:
    w.write("# Engine and runner throughput\n\n")
    w.write(f"Machine: {cpu}, {cores} cores. Regenerate with `scripts/bench/bench.sh` (written by it; do not edit).\n")
    w.write("Timings depend on the machine a run gets (sessions have had Intel Xeon and AMD EPYC machines);\n")
    w.write("instruction counts do not. 4 players, double-12, `wikipedia`.\n\n")
    w.write("## `mtrain tournament`, the whole command\n\n")
    w.write("Scheduling, seeding, deals, play, tallies and files; wall time, median of 3 runs:\n\n")
    w.write("| what | command | seconds | rounds/s | target |\n|---|---|---|---|---|\n")
    w.write(f"| greedy, full matches, 1 thread | `--bots greedy --games {tgames} --threads 1` | {t_greedy:.2f} | {greedy_rate:,.0f} | 350,000 |\n")
    w.write(f"| greedy, one-round games, 1 thread | `--bots greedy --rounds 1 --games {t1games} --threads 1` | {t_one:.2f} | {one_rate:,.0f} | 350,000 |\n")
    w.write(f"| planner, full matches, 1 thread | `--bots planner --games {pgames} --threads 1` | {t_planner:.2f} | {planner_rate:,.0f} | 100,000 |\n")
    w.write(f"| greedy, full matches, 2 threads | `--bots greedy --games {tgames} --threads 2` | {t_greedy2:.2f} | {greedy2_rate:,.0f} | |\n")
    w.write(f"| greedy, 2 independent 1-thread processes together | the first row twice at once | {t_procs:.2f} | {procs_rate:,.0f} | |\n")
    w.write(f"\nOn 2 threads the tournament runs {greedy2_rate / greedy_rate:.2f}x faster than on one; two independent\n")
    w.write(f"single-thread processes run {procs_rate / greedy_rate:.2f}x: the runner reaches {100 * greedy2_rate / procs_rate:.1f}% of the machine's own\n")
    w.write("limit (target 95%).\n\n")
    w.write("## `mtrain bench`\n\n")
    w.write("Full 13-round matches with every deal included, each thread playing games as a tournament worker does;\n")
    w.write("each figure is the median of 5 timed runs (`mtrain bench --bots B --threads 1,2 --seconds 10 --runs 5`).\n")
    w.write("*Processes*: the speed-up of as many independent single-thread processes run together;\n")
    w.write("*efficiency*: the threads' rate as a share of theirs.\n\n")
    w.write("| bots | threads | rounds/s | matches/s | decisions/s | ns per round | ns per decision | speed-up | processes | efficiency |\n")
    w.write("|---|---|---|---|---|---|---|---|---|---|\n")
    for name, rs in (("greedy", g), ("planner", p)):
        for r in rs:
            w.write(f"| {name} | {r['threads']} | {f(r['rounds_per_s'])} | {f(r['matches_per_s'])} | {f(r['decisions_per_s'])} "
                    f"| {f(r['ns_per_round'])} | {f(r['ns_per_decision'])} | {float(r['speedup']):.2f}x "
                    f"| {sx(r['process_speedup'])} | {pct(r['efficiency'])} |\n")
    m = mc[0]
    w.write(f"\n`montecarlo` (defaults: 32 worlds, greedy rollouts to the end of the round), one thread\n"
            f"(`mtrain bench --bots montecarlo --threads 1`): {f(m['decisions_per_s'])} decisions/s "
            f"({float(m['ns_per_decision']) / 1000:,.0f} µs each), {f(m['rollouts_per_s'])} rollouts/s "
            f"({1e9 / float(m['rollouts_per_s']):,.0f} ns each), {float(m['rollouts_per_s']) / float(m['decisions_per_s']):.0f} rollouts per decision.\n\n")
    w.write(f"Deal-only floor (`mtrain bench --deal-only --threads 1`): {f(d[0]['rounds_per_s'])} deals/s, "
            f"{float(d[0]['ns_per_round']):.0f} ns per seeded shuffle and deal.\n\n")
    w.write("## Instructions (callgrind)\n\n")
    w.write("`scripts/bench/instructions.sh` (the same figure on every run, whatever the machine's load); budgets in\n")
    w.write("[budgets.csv](budgets.csv), a figure more than 5% over its budget fails the script:\n\n")
    w.write("| what | instructions | budget | change |\n|---|---|---|---|\n")
    for name, r in ins.items():
        w.write(f"| `{name}` | {f(r['instructions'])} | {f(r['budget']) if r['budget'] else '-'} | {(r['change_pct'] + '%') if r['change_pct'] else '-'} |\n")
    gi, ga = float(ins["greedy_round"]["instructions"]), float(ins["greedy_round_all"]["instructions"])
    t1, t13 = float(ins["tournament_round"]["instructions"]), float(ins["tournament_match_round"]["instructions"])
    w.write(f"\nThe tournament path costs {100 * (t1 / gi - 1):.1f}% more instructions per round than `play_round` alone for one-round\n"
            f"games and {100 * (t13 / ga - 1):.1f}% for full matches (target: 10%). See [STEPS.md](STEPS.md) for what bounds each figure.\n")
    gen, deal = float(ins["greedy_round_general"]["instructions"]), float(ins["deal"]["instructions"])
    w.write(f"The plain turn loop runs {gen / gi:.2f}x fewer instructions than the general turn machine, and the seeded\n"
            f"shuffle, deal and initial state are {100 * deal / gi:.0f}% of a greedy round.\n")
    w.write("\nExternal bots (the bot protocol's own cost per decision): [EXTERNAL.md](EXTERNAL.md), written by "
            "`scripts/bench/bench-external.sh`. Search bots at 2 and 4 players: [SEARCH.md](SEARCH.md).\n")
PY
cat "$OUT/README.md"
