"""The tables results/analyze/README.md quotes, from the studies' CSVs.

Usage: scripts/studies/analyze_tables.py DIR
Reads DIR/stability.csv, DIR/calibration.csv, DIR/reliability.csv, DIR/review-flags.csv and
DIR/review-check.csv (whichever exist) and writes DIR/stability.md, DIR/calibration.md and
DIR/review-check.md. tests/readme_numbers.rs checks that the README quotes them.
"""
import csv
import math
import os
import sys

d = sys.argv[1]


def rows(name):
    path = f"{d}/{name}"
    return list(csv.DictReader(open(path))) if os.path.exists(path) else None


def write(name, text):
    with open(f"{d}/{name}.tmp", "w") as f:
        f.write(text)
    os.replace(f"{d}/{name}.tmp", f"{d}/{name}")


st = rows("stability.csv")
if st:
    out = ["| table | positions | runs | separated | indistinguishable | budget ran out | pairs of runs separating different moves | positions where two runs separated different moves |",
           "|---|---:|---:|---:|---:|---:|---|---:|"]
    tables = []
    for r in st:
        if r["table"] not in tables:
            tables.append(r["table"])
    for t in tables + ["all"]:
        rs = [r for r in st if t == "all" or r["table"] == t]
        s = lambda c: sum(int(r[c]) for r in rs)
        pairs, differ = s("pairs"), s("pairs_differ")
        name = "**all**" if t == "all" else t
        out.append(f"| {name} | {len(rs)} | {s('runs')} | {s('separated')} | {s('indistinguishable')} | {s('budget')} | "
                   f"{differ} of {pairs} ({100 * differ / pairs:.2f}%) | {sum(int(r['separated_moves']) > 1 for r in rs)} |")
    write("stability.md", "\n".join(out) + "\n")

cal = rows("calibration.csv")
if cal:
    out = ["| table | rollout model | seat | decisions | rounds | predicted win % | realised win % | bias (points of %) [95%] | bias in round points [95%] | Brier | Brier of the base rate | skill [95%] |",
           "|---|---|---|---:|---:|---:|---:|---|---|---:|---:|---|"]
    for r in cal:
        out.append(f"| {r['table']} | `{r['rollout']}` | `{r['seat_bot']}` | {r['decisions']} | {r['rounds']} | "
                   f"{float(r['predicted_win']):.1f} | {float(r['realised_win']):.1f} | "
                   f"{float(r['bias_win']):+.1f} [{float(r['bias_win_lo']):+.1f}, {float(r['bias_win_hi']):+.1f}] | "
                   f"{float(r['bias_points']):+.1f} [{float(r['bias_points_lo']):+.1f}, {float(r['bias_points_hi']):+.1f}] | "
                   f"{float(r['brier']):.4f} | {float(r['brier_base']):.4f} | "
                   f"{float(r['skill']):+.3f} [{float(r['skill_lo']):+.3f}, {float(r['skill_hi']):+.3f}] |")
    text = "\n".join(out) + "\n"
    rel = rows("reliability.csv")
    if rel:
        text += "\nReliability, `weighted` self-play at 4 players (predicted against realised round-win %, by tenths of the prediction):\n\n"
        text += "| predicted | decisions | mean predicted % | realised % |\n|---|---:|---:|---:|\n"
        for r in rel:
            if r["table"] == "weighted-4":
                text += f"| {r['bin']} | {r['decisions']} | {float(r['predicted_win']):.1f} | {float(r['realised_win']):.1f} |\n"
    write("calibration.md", text)

fl, ck = rows("review-flags.csv"), rows("review-check.csv")
if fl and ck:
    out = ["| match seed | decisions | inaccuracies | mistakes | blunders | unconfirmed by the deeper check | flagged |",
           "|---:|---:|---:|---:|---:|---:|---|"]
    for r in fl:
        out.append(f"| {r['match_seed']} | {r['decisions']} | {r['inaccuracies']} | {r['mistakes']} | {r['blunders']} | "
                   f"{r['unconfirmed']} | {r['flagged']} ({100 * int(r['flagged']) / int(r['decisions']):.1f}%) |")
    dec = sum(int(r["decisions"]) for r in fl)
    flagged = sum(int(r["flagged"]) for r in fl)
    out.append(f"| **all** | {dec} | {sum(int(r['inaccuracies']) for r in fl)} | {sum(int(r['mistakes']) for r in fl)} | "
               f"{sum(int(r['blunders']) for r in fl)} | {sum(int(r['unconfirmed']) for r in fl)} | "
               f"{flagged} ({100 * flagged / dec:.1f}%) |")
    n = len(ck)
    k = sum(r["confirmed"] == "True" for r in ck)
    z = 1.959964
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    ls = [float(r["check_loss"]) for r in ck]
    m = sum(ls) / n
    se = math.sqrt(sum((x - m) ** 2 for x in ls) / (n - 1) / n)
    rl = sum(float(r["review_loss"]) for r in ck) / n
    text = "\n".join(out) + "\n\n"
    text += (f"Of {n} flagged decisions drawn at random, the independent check (`expert` in every seat of the "
             f"rollouts, 96 fresh worlds) finds the played move behind the flagged best in **{k} of {n} "
             f"({100 * p:.0f}% [{100 * (c - h):.0f}, {100 * (c + h):.0f}])**; the mean loss of a flag is "
             f"{rl:.2f} points by the review and {m:.2f} [{m - 1.96 * se:.2f}, {m + 1.96 * se:.2f}] by the check.\n")
    write("review-check.md", text)
