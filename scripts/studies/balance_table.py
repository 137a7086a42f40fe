#!/usr/bin/env python3
"""The picks of one `mtrain balance --out` folder as a markdown table (results/balance/README.md
quotes it; tests/readme_numbers.rs checks the quote): per player count the published hand, the
pick, the candidates, and at the published hand the games played and each criterion's figure,
95% interval and verdict.

Usage: scripts/studies/balance_table.py DIR > table.md
"""
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def spans(hands):
    """Hand sizes as compact ranges: 5-13 15."""
    hands = sorted(int(h) for h in hands.split())
    out, i = [], 0
    while i < len(hands):
        j = i
        while j + 1 < len(hands) and hands[j + 1] == hands[j] + 1:
            j += 1
        out.append(str(hands[i]) if i == j else f"{hands[i]}-{hands[j]}")
        i = j + 1
    return " ".join(out) or "none"


MARK = {"within": "", "on_limit": " ~", "beyond": " **defect**", "undecided": " ?", "unknown": ""}


def figure(d, points):
    """The figure with its interval and verdict mark ("not measurable" where mtrain left it empty:
    luck, where the second bot does not beat the last)."""
    if d["value"] == "":
        return "not measurable"
    v, lo, hi = float(d["value"]), float(d["lo"]), float(d["hi"])
    mark = MARK[d["verdict"]]
    if points:
        return f"{100 * v:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]{mark}"
    return f"{v:.3f} [{lo:.3f}, {hi:.3f}]{mark}"


def blocked(d):
    v, lo, hi = (100 * float(d[k]) for k in ("value", "lo", "hi"))
    return f"{v:.1f}% [{lo:.1f}, {hi:.1f}]{MARK[d['verdict']]}"


def main(folder):
    rec = rows(f"{folder}/recommendation.csv")
    dec = {(r["players"], r["hand"], r["criterion"]): r for r in rows(f"{folder}/decisions.csv")}
    print("| players | published | pick | candidates | at the published hand: games | blocked | first player per match (points) | skill | luck |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rec:
        p, ref = r["players"], r["reference_hand"]
        pick = r["recommended_hand"] + ("*" if r["fallback"] == "true" else "")
        b, f, s, c = (dec[(p, ref, c)] for c in ("blocked", "first_player", "skill", "skill_ceiling"))
        print(f"| {p} | {ref} | {pick} | {spans(r['candidates'])} | {b['games']} | {blocked(b)} | {figure(f, True)} | {figure(s, False)} | {figure(c, False)} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: balance_table.py DIR")
    main(sys.argv[1])
