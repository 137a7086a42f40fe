"""Summarises scripts/study-analyze-worlds.sh: forecasts in sampled worlds and in the true hands.

Usage: analyze_worlds.py TMP TABLES OUT_CSV
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


header = ["bot", "players", "forecasts", "rounds", "sampled", "true_hands", "realised", "bias_sampled",
          "bias_sampled_lo", "bias_sampled_hi", "bias_true", "bias_true_lo", "bias_true_hi", "plan_sampled",
          "plan_true"]
rows_out = []
for line in open(tables):
    bot, players, _seed = line.split()
    rows = list(csv.DictReader(open(f"{tmp}/{bot}-{players}.csv")))
    n = len(rows)
    mean = lambda k: sum(float(r[k]) for r in rows) / n
    bs, bs_lo, bs_hi, rounds = interval(rows, "sampled")
    bt, bt_lo, bt_hi, _ = interval(rows, "true_hands")
    rows_out.append([bot, players, n, rounds, f"{100 * mean('sampled'):.1f}", f"{100 * mean('true_hands'):.1f}",
                     f"{100 * mean('realised'):.1f}", f"{bs:.1f}", f"{bs_lo:.1f}", f"{bs_hi:.1f}", f"{bt:.1f}",
                     f"{bt_lo:.1f}", f"{bt_hi:.1f}", f"{mean('plan_sampled'):.2f}", f"{mean('plan_true'):.2f}"])
with open(out, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows_out)
print("| bot (every seat) | players | forecasts | rounds | forecast in sampled worlds % | forecast with the true hands % "
      "| realised % | bias, sampled [95%] | bias, true hands [95%] | others' plan length, sampled | true |")
print("|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|")
for r in rows_out:
    print(f"| `{r[0]}` | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} | {r[6]} | {float(r[7]):+.1f} [{float(r[8]):+.1f}, "
          f"{float(r[9]):+.1f}] | {float(r[10]):+.1f} [{float(r[11]):+.1f}, {float(r[12]):+.1f}] | {r[13]} | {r[14]} |")
