"""Summarises scripts/studies/study-analyze-calibration.sh: predicted against realised round outcomes.

Usage: scripts/studies/analyze_calibration.py TMP TABLES OUT
For each line `name players bots rollout seeds...` of TABLES, reads TMP/name.seed.jsonl (the
match log: its bots and each round's scores) and TMP/name.seed.csv (its review); writes
OUT/calibration.csv and OUT/reliability.csv and prints the first.
"""
import csv
import json
import os
import random
import sys
from collections import defaultdict

tmp, tables, out = sys.argv[1:4]
BOOT = 2000


def outcomes(log):
    """The seats' bots (their names) and per round the win share and margin of every seat."""
    bots, rounds = None, []
    for line in open(log):
        e = json.loads(line)
        if e["event"] == "match":
            bots = [b.split(":")[0] for b in e["bots"]]
        elif e["event"] == "round_end":
            s = e["scores"]
            n, low = len(s), min(s)
            tied = sum(1 for x in s if x == low)
            rounds.append([((1.0 / tied) if x == low else 0.0,
                            (sum(s) - x) / (n - 1) - x) for x in s])
    return bots, rounds


groups = defaultdict(list)  # (table, bot) -> [(cluster, pred_win, real_win, pred_pts, real_pts)]
for line in open(tables):
    name, players, _bots, rollout, *seeds = line.split()
    for seed in seeds:
        bots, rounds = outcomes(f"{tmp}/{name}.{seed}.jsonl")
        for r in csv.DictReader(open(f"{tmp}/{name}.{seed}.csv")):
            rnd, seat = int(r["round"]), int(r["seat"])
            win, margin = rounds[rnd - 1][seat]
            row = ((seed, rnd), float(r["played_win"]), win, float(r["played_points"]), margin)
            groups[(name, int(players), rollout, bots[seat])].append(row)


def stats(rows):
    n = len(rows)
    pw = sum(r[1] for r in rows) / n
    rw = sum(r[2] for r in rows) / n
    pp = sum(r[3] for r in rows) / n
    rp = sum(r[4] for r in rows) / n
    brier = sum((r[1] - r[2]) ** 2 for r in rows) / n
    base = sum((rw - r[2]) ** 2 for r in rows) / n
    skill = 1 - brier / base if base > 0 else 0.0
    return 100 * (pw - rw), pp - rp, skill, (pw, rw, pp, rp, brier, base)


def interval(xs):
    xs = sorted(xs)
    return xs[int(0.025 * len(xs))], xs[int(0.975 * len(xs)) - 1]


table, reliability = [], []
for key in sorted(groups, key=lambda k: (k[0], k[3])):
    name, players, rollout, bot = key
    rows = groups[key]
    clusters = defaultdict(list)
    for r in rows:
        clusters[r[0]].append(r)
    ids = sorted(clusters)
    rng = random.Random(41)
    boot = []
    for _ in range(BOOT):
        sample = [r for _ in ids for r in clusters[ids[rng.randrange(len(ids))]]]
        boot.append(stats(sample)[:3])
    bias, bias_pts, skill, (pw, rw, pp, rp, brier, base) = stats(rows)
    (blo, bhi), (plo, phi), (slo, shi) = (interval([b[i] for b in boot]) for i in range(3))
    table.append({
        "table": name, "players": players, "rollout": rollout, "seat_bot": bot,
        "decisions": len(rows), "rounds": len(ids),
        "predicted_win": round(100 * pw, 2), "realised_win": round(100 * rw, 2),
        "bias_win": round(bias, 2), "bias_win_lo": round(blo, 2), "bias_win_hi": round(bhi, 2),
        "predicted_points": round(pp, 2), "realised_points": round(rp, 2),
        "bias_points": round(bias_pts, 2), "bias_points_lo": round(plo, 2), "bias_points_hi": round(phi, 2),
        "brier": round(brier, 4), "brier_base": round(base, 4),
        "skill": round(skill, 4), "skill_lo": round(slo, 4), "skill_hi": round(shi, 4),
    })
    bins = defaultdict(list)
    for r in rows:
        bins[min(int(r[1] * 10), 9)].append(r)
    for b in sorted(bins):
        rs = bins[b]
        reliability.append({
            "table": name, "seat_bot": bot, "bin": f"{b / 10:.1f}-{(b + 1) / 10:.1f}",
            "decisions": len(rs), "predicted_win": round(100 * sum(r[1] for r in rs) / len(rs), 2),
            "realised_win": round(100 * sum(r[2] for r in rs) / len(rs), 2),
        })
for fname, data in [("calibration.csv", table), ("reliability.csv", reliability)]:
    with open(f"{out}/{fname}.tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(data[0]))
        w.writeheader()
        w.writerows(data)
    os.replace(f"{out}/{fname}.tmp", f"{out}/{fname}")
for t in table:
    print(f"{t['table']:11} {t['seat_bot']:9} {t['decisions']:5} decisions  bias {t['bias_win']:+6.2f} pp "
          f"[{t['bias_win_lo']:+.2f}, {t['bias_win_hi']:+.2f}]  points {t['bias_points']:+6.2f} "
          f"[{t['bias_points_lo']:+.2f}, {t['bias_points_hi']:+.2f}]  Brier {t['brier']:.4f} "
          f"(base {t['brier_base']:.4f}, skill {t['skill']:+.3f} [{t['skill_lo']:+.3f}, {t['skill_hi']:+.3f}])")
