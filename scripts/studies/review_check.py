"""Summarises scripts/studies/study-review-check.sh.

Usage: scripts/studies/review_check.py TMP OUT
Reads TMP/mSEED.csv (the reviews), TMP/sample.txt (the sampled flags) and TMP/c.SEED.ROUND.DECISION.json
(their checks); writes OUT/review-flags.csv and OUT/review-check.csv; prints the summary.
"""
import csv
import json
import math
import os
import sys
from collections import Counter

tmp, out = sys.argv[1:3]
flags = []
for seed in (11, 12, 13):
    rows = list(csv.DictReader(open(f"{tmp}/m{seed}.csv")))
    g = Counter(r["grade"] for r in rows)
    flags.append({"match_seed": seed, "decisions": len(rows), "inaccuracies": g["inaccuracy"],
                  "mistakes": g["mistake"], "blunders": g["blunder"], "unconfirmed": g["unconfirmed"],
                  "flagged": sum(r["mistake"] == "true" for r in rows)})
checks = []
for line in open(f"{tmp}/sample.txt"):
    seed, rnd, dec, played, best, loss, lo, grade = line.rstrip("\n").split("\t")
    a = json.load(open(f"{tmp}/c.{seed}.{rnd}.{dec}.json"))
    pts = {m["text"]: m["points"]["mean"] for m in a["moves"]}
    checks.append({"match_seed": int(seed), "round": int(rnd), "decision": int(dec), "played": played, "best": best,
                   "grade": grade, "review_loss": float(loss), "review_loss_lo": float(lo),
                   "check_loss": round(pts[best] - pts[played], 4), "check_worlds": a["worlds"],
                   "confirmed": pts[best] > pts[played]})


def write(name, data):
    with open(f"{out}/{name}.tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(data[0]))
        w.writeheader()
        w.writerows(data)
    os.replace(f"{out}/{name}.tmp", f"{out}/{name}")


write("review-flags.csv", flags)
write("review-check.csv", checks)
d = sum(f["decisions"] for f in flags)
fl = sum(f["flagged"] for f in flags)
print(f"flagged: {fl} of {d} decisions ({100 * fl / d:.1f}%); per match: "
      + ", ".join(f"{f['flagged']}/{f['decisions']}" for f in flags))
n = len(checks)
k = sum(c["confirmed"] for c in checks)
# Wilson 95% interval of the confirmed share.
z = 1.959964
p = k / n
c = (p + z * z / (2 * n)) / (1 + z * z / n)
h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
print(f"confirmed by the check: {k} of {n} ({100 * p:.0f}% [{100 * (c - h):.0f}, {100 * (c + h):.0f}])")
ls = [c["check_loss"] for c in checks]
m = sum(ls) / n
se = math.sqrt(sum((x - m) ** 2 for x in ls) / (n - 1) / n)
print(f"mean loss of a flag: review {sum(c['review_loss'] for c in checks) / n:.2f} points, "
      f"check {m:.2f} [{m - 1.96 * se:.2f}, {m + 1.96 * se:.2f}]")
