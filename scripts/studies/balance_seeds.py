#!/usr/bin/env python3
"""Puts the recommendations of several `mtrain balance --out` folders side by side (one column of
picks and one of candidates per folder) and says per player count whether every pick agrees.

Usage: scripts/studies/balance_seeds.py DIR1 DIR2 ... > seeds.csv
"""
import csv
import sys


def picks(folder):
    with open(f"{folder}/recommendation.csv", newline="") as f:
        return {row["players"]: row for row in csv.DictReader(f)}


def main(folders):
    runs = [picks(d) for d in folders]
    names = [d.rstrip("/").rsplit("/", 1)[-1] for d in folders]
    out = csv.writer(sys.stdout, lineterminator="\n")
    header = ["players", "reference_hand"]
    for n in names:
        header += [f"{n}_pick", f"{n}_candidates"]
    out.writerow(header + ["agree"])
    for players in sorted(runs[0], key=int):
        row = [players, runs[0][players]["reference_hand"]]
        hands = []
        for r in runs:
            rec = r.get(players, {})
            hands.append(rec.get("recommended_hand", ""))
            row += [rec.get("recommended_hand", ""), rec.get("candidates", "")]
        out.writerow(row + ["yes" if len(set(hands)) == 1 else "no"])


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: balance_seeds.py DIR1 DIR2 ...")
    main(sys.argv[1:])
