#!/usr/bin/env bash
# Engine throughput (issue "Throughput"): regenerates results/benchmarks/ on this machine.
#   - `mtrain bench` for greedy and planner bots at 1 and 2 threads (medians of 5 timed runs),
#     4 players, double-12, wikipedia, full matches including every deal;
#   - the deal-only floor (seeded shuffle and deal of one round);
#   - callgrind instruction counts per round and per decision (greedy, 20,000 rounds).
# Run it on a quiet machine: other load lowers the timings (not the instruction counts).
#
# Usage: scripts/bench.sh      (about 3 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-results/benchmarks}"
SECONDS_PER="${SECONDS_PER:-10}"
mkdir -p "$OUT"
cargo build --release --quiet
cargo build --release --quiet --example rounds
M=target/release/mtrain
$M bench --bots greedy --threads 1,2 --seconds "$SECONDS_PER" --runs 5 --out "$OUT/greedy.csv" > "$OUT/greedy.txt"
$M bench --bots planner --threads 1,2 --seconds "$SECONDS_PER" --runs 5 --out "$OUT/planner.csv" > "$OUT/planner.txt"
$M bench --deal-only --threads 1 --seconds "$SECONDS_PER" --runs 5 --out "$OUT/deal.csv" > "$OUT/deal.txt"
# `mtrain tournament` itself (rayon runner, tallies, CSV): wall time of the same greedy tournament
# on 1 and 2 threads, median of 3 runs each.
TGAMES="${TGAMES:-40000}"
ttime() { # threads -> seconds
  python3 - "$M" "$TGAMES" "$1" <<'PY'
import statistics, subprocess, sys, time
m, games, threads = sys.argv[1:4]
cmd = [m, "tournament", "--bots", "greedy", "--players", "4", "--games", games, "--threads", threads,
       "--quiet", "--out", "/tmp/mtrain-bench-t"]
times = []
for _ in range(3):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    times.append(time.perf_counter() - start)
print(statistics.median(times))
PY
}
t1=$(ttime 1)
t2=$(ttime 2)

# Instructions per round: greedy on the plain loop and on the general machine, the deal floor,
# and the planner (callgrind counts every instruction; the figure is the same on any load).
count() { # bot rounds mode -> "instructions decisions"
  valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/rounds "$1" "$2" "$3" 2>&1 \
    | tee /tmp/mtrain-callgrind.txt >/dev/null
  echo "$(grep -oE "refs: +[0-9,]+" /tmp/mtrain-callgrind.txt | tr -d ', ' | cut -d: -f2) $(grep -oE "[0-9]+ decisions" /tmp/mtrain-callgrind.txt | cut -d' ' -f1)"
}
rounds=20000
read -r instr decisions <<<"$(count greedy $rounds play)"
read -r general _ <<<"$(count greedy $rounds general)"
read -r dealinstr _ <<<"$(count greedy $rounds deal)"
prounds=3000
read -r pinstr pdecisions <<<"$(count planner $prounds play)"
cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
python3 - "$OUT" "$instr" "$rounds" "$decisions" "$cpu" "$(nproc)" "$general" "$dealinstr" "$pinstr" "$prounds" "$pdecisions" "$TGAMES" "$t1" "$t2" <<'PY'
import csv, sys
out, instr, rounds, decisions, cpu, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
general, deal, pinstr, prounds, pdecisions = (int(x) for x in sys.argv[7:12])
tgames, t1, t2 = int(sys.argv[12]), float(sys.argv[13]), float(sys.argv[14])
def rows(name):
    with open(f"{out}/{name}.csv") as f:
        return list(csv.DictReader(f))
g, p, d = rows("greedy"), rows("planner"), rows("deal")
f = lambda x: f"{float(x):,.0f}"
with open(f"{out}/README.md", "w") as w:
    w.write("# Engine throughput\n\n")
    w.write(f"Machine: {cpu}, {cores} cores. Regenerate with `scripts/bench.sh` (written by it; do not edit).\n")
    w.write("4 players, double-12, `wikipedia`, full 13-round matches with every deal included; each figure\n")
    w.write("is the median of 5 timed runs (`mtrain bench --bots B --threads 1,2 --seconds 10 --runs 5`).\n\n")
    w.write("| bots | threads | rounds/s | matches/s | decisions/s | ns per round | ns per decision | speed-up |\n")
    w.write("|---|---|---|---|---|---|---|---|\n")
    for name, rs in (("greedy", g), ("planner", p)):
        for r in rs:
            w.write(f"| {name} | {r['threads']} | {f(r['rounds_per_s'])} | {f(r['matches_per_s'])} | {f(r['decisions_per_s'])} "
                    f"| {f(r['ns_per_round'])} | {f(r['ns_per_decision'])} | {float(r['speedup']):.2f}x |\n")
    w.write(f"\nDeal-only floor (`mtrain bench --deal-only --threads 1`): {f(d[0]['rounds_per_s'])} deals/s, "
            f"{float(d[0]['ns_per_round']):.0f} ns per seeded shuffle and deal.\n\n")
    w.write(f"`mtrain tournament --bots greedy --players 4 --games {tgames} --threads T` (whole command, median of\n")
    w.write(f"3 runs): {t1:.2f} s on 1 thread, {t2:.2f} s on 2, a {t1 / t2:.2f}x speed-up "
            f"({tgames * 13 / t1:,.0f} and {tgames * 13 / t2:,.0f} rounds/s).\n\n")
    w.write("Instruction counts (`valgrind --tool=callgrind target/release/examples/rounds BOT ROUNDS MODE`, deal\n")
    w.write("included; the same on every run whatever the machine's load):\n\n")
    w.write("| what | instructions per round | per decision |\n|---|---|---|\n")
    w.write(f"| greedy, `play_round` (plain turn loop), {rounds:,} rounds | {instr / rounds:,.0f} | {instr / decisions:,.0f} |\n")
    w.write(f"| greedy, general turn machine only (`general`) | {general / rounds:,.0f} | {general / decisions:,.0f} |\n")
    w.write(f"| seeded shuffle, deal and initial state only (`deal`) | {deal / rounds:,.0f} | - |\n")
    w.write(f"| planner, `play_round`, {prounds:,} rounds | {pinstr / prounds:,.0f} | {pinstr / pdecisions:,.0f} |\n")
    w.write(f"\nGreedy: {decisions / rounds:.1f} decisions per round; the plain loop runs "
            f"{general / instr:.2f}x fewer instructions than the general machine, and the deal is "
            f"{100 * deal / instr:.0f}% of a round.\n")
    w.write("\nExternal bots (the bot protocol's own cost per decision): [EXTERNAL.md](EXTERNAL.md), written by "
            "`scripts/bench-external.sh`.\n")
PY
cat "$OUT/README.md"
