"""Summarises scripts/studies/study-analyze-stability.sh: per position, the moves its runs separated.

Usage: scripts/studies/analyze_stability.py TMP JOBS OUT
Reads TMP/a.LOG.ROUND.DECISION.SEED.json for every line of JOBS; writes OUT/stability-runs.csv
and OUT/stability.csv; prints the summary.
"""
import csv
import itertools
import json
import sys
from collections import defaultdict

tmp, jobs, out = sys.argv[1:4]
logs = {"p2": "2 players, wikipedia", "p4": "4 players, dominorules", "p6": "6 players, celko1998",
        "p3": "3 players, family_house"}
runs = []
for line in open(jobs):
    log, rnd, dec, moves, seed = line.split()
    a = json.load(open(f"{tmp}/a.{log}.{rnd}.{dec}.{seed}.json"))
    runs.append({
        "log": log, "round": int(rnd), "decision": int(dec), "moves": int(moves), "seed": int(seed),
        "stop": a["stop"], "best": a["moves"][0]["text"], "worlds": a["worlds"], "seconds": a["elapsed"],
    })
with open(f"{out}/stability-runs.csv.tmp", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(runs[0]))
    w.writeheader()
    w.writerows(runs)
by_pos = defaultdict(list)
for r in runs:
    by_pos[(r["log"], r["round"], r["decision"])].append(r)
rows = []
for (log, rnd, dec), rs in by_pos.items():
    sep = [r["best"] for r in rs if r["stop"] == "separated"]
    pairs = list(itertools.combinations(rs, 2))
    differ = sum(1 for a, b in pairs
                 if a["stop"] == b["stop"] == "separated" and a["best"] != b["best"])
    rows.append({
        "table": logs[log], "round": rnd, "decision": dec, "moves": rs[0]["moves"], "runs": len(rs),
        "separated": len(sep), "indistinguishable": sum(r["stop"] == "indistinguishable" for r in rs),
        "budget": sum(r["stop"] in ("worlds", "time") for r in rs),
        "separated_moves": len(set(sep)), "pairs": len(pairs), "pairs_differ": differ,
        "median_worlds": sorted(r["worlds"] for r in rs)[len(rs) // 2],
        "max_seconds": max(r["seconds"] for r in rs),
    })
with open(f"{out}/stability.csv.tmp", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
import os
os.replace(f"{out}/stability-runs.csv.tmp", f"{out}/stability-runs.csv")
os.replace(f"{out}/stability.csv.tmp", f"{out}/stability.csv")
n = len(rows)
pairs = sum(r["pairs"] for r in rows)
differ = sum(r["pairs_differ"] for r in rows)
conflicting = sum(r["separated_moves"] > 1 for r in rows)
total = len(runs)
print(f"positions: {n}, runs: {total}")
print(f"runs separated: {sum(r['separated'] for r in rows)}, indistinguishable: "
      f"{sum(r['indistinguishable'] for r in rows)}, budget: {sum(r['budget'] for r in rows)}")
print(f"pairs of runs of one position that separated different moves: {differ} of {pairs} "
      f"({100 * differ / pairs:.2f}%; bound 5%)")
print(f"positions where two of the runs separated different moves: {conflicting} of {n} "
      f"({100 * conflicting / n:.1f}%)")
print(f"median worlds: {sorted(r['worlds'] for r in runs)[total // 2]}, "
      f"slowest analysis: {max(r['seconds'] for r in runs):.2f} s")
