"""Summarises scripts/studies/study-analyze-worlds.sh: forecasts in sampled worlds and in the true hands.

Usage: scripts/studies/analyze_worlds.py TMP TABLES OUT_CSV
Reads TMP/bot-players.csv for each line `bot players seed` of TABLES; writes OUT_CSV and prints
it as a Markdown table.
"""
import csv
import random
import sys
from collections import defaultdict

tmp, tables, out = sys.argv[1:4]
BOOT = 2000


def interval(rows, key):
    """Bias (percentage points) of forecast `key` and its 95% cluster-bootstrap interval over rounds."""
    by_round = defaultdict(list)
    for r in rows:
        by_round[r["game"]].append(r)
    clusters = list(by_round.values())
    rng = random.Random(7)

    def bias(cs):
        rs = [r for c in cs for r in c]
        return 100 * sum(float(r[key]) - float(r["realised"]) for r in rs) / len(rs)

    boots = sorted(bias([rng.choice(clusters) for _ in clusters]) for _ in range(BOOT))
    return bias(clusters), boots[int(0.025 * BOOT)], boots[int(0.975 * BOOT) - 1], len(clusters)


header = ["bot", "players", "forecasts", "rounds", "sampled", "planned", "true_hands", "realised", "bias_sampled",
          "bias_sampled_lo", "bias_sampled_hi", "bias_planned", "bias_planned_lo", "bias_planned_hi", "bias_true",
          "bias_true_lo", "bias_true_hi", "plan_sampled", "plan_planned", "plan_true"]
rows_out = []
for line in open(tables):
    bot, players, _seed = line.split()
    rows = list(csv.DictReader(open(f"{tmp}/{bot}-{players}.csv")))
    n = len(rows)
    mean = lambda k: sum(float(r[k]) for r in rows) / n
    row = [bot, players, n, None]
    row += [f"{100 * mean(k):.1f}" for k in ("sampled", "planned", "true_hands", "realised")]
    for k in ("sampled", "planned", "true_hands"):
        b, lo, hi, rounds = interval(rows, k)
        row += [f"{b:.1f}", f"{lo:.1f}", f"{hi:.1f}"]
    row[3] = rounds
    row += [f"{mean(k):.2f}" for k in ("plan_sampled", "plan_planned", "plan_true")]
    rows_out.append(row)
with open(out, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows_out)
print("| bot (every seat) | players | forecasts | rounds | forecast, uniform deals % | forecast, planned deals % "
      "| forecast, true hands % | realised % | bias, uniform [95%] | bias, planned [95%] | bias, true hands [95%] "
      "| others' plan length: uniform | planned | true |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|---:|---:|---:|")
for r in rows_out:
    ci = lambda j: f"{float(r[j]):+.1f} [{float(r[j + 1]):+.1f}, {float(r[j + 2]):+.1f}]"
    print(f"| `{r[0]}` | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} | {r[6]} | {r[7]} | {ci(8)} | {ci(11)} | {ci(14)} "
          f"| {r[17]} | {r[18]} | {r[19]} |")
