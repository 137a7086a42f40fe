#!/usr/bin/env python3
"""Collects the strategy league runs under results/strategies/<preset>-<N>p/ into one table.

Usage: scripts/studies/league_table.py results/strategies
Writes results/strategies/league.csv and prints a Markdown table (one row per preset, player
count and bot, ranked by win rate) for the README. Standard library only.
"""
import csv
import os
import sys


def main(root):
    rows = []
    for name in sorted(os.listdir(root)):
        run = os.path.join(root, name)
        summary = os.path.join(run, "summary.csv")
        if not os.path.isfile(summary):
            continue
        preset_name, _, count = name.rpartition("-")
        with open(summary) as f:
            for r in csv.DictReader(f):
                rows.append({
                    "preset": preset_name,
                    "players": int(count.rstrip("p")),
                    "bot": r["strategy"],
                    "games": int(r["games"]),
                    "win_rate": float(r["win_rate"]),
                    "win_lo": float(r["win_lo"]),
                    "win_hi": float(r["win_hi"]),
                    "mean_score": float(r["mean_score"]),
                    "score_lo": float(r["score_lo"]),
                    "score_hi": float(r["score_hi"]),
                })
    rows.sort(key=lambda r: (r["preset"], r["players"], -r["win_rate"], r["bot"]))
    out = os.path.join(root, "league.csv")
    cols = ["preset", "players", "rank", "bot", "games", "win_rate", "win_lo", "win_hi", "interval_width",
            "mean_score", "score_lo", "score_hi"]
    rank = {}
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            key = (r["preset"], r["players"])
            rank[key] = rank.get(key, 0) + 1
            r["rank"] = rank[key]
            r["interval_width"] = r["win_hi"] - r["win_lo"]
            w.writerow([r["preset"], r["players"], r["rank"], r["bot"], r["games"]]
                       + ["%.6f" % r[c] for c in cols[5:]])
    print("| rules | players | rank | bot | win rate [95% interval] | mean match score |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %d | %d | `%s` | %.1f%% [%.1f, %.1f] | %.0f |" % (
            r["preset"], r["players"], r["rank"], r["bot"], 100 * r["win_rate"], 100 * r["win_lo"],
            100 * r["win_hi"], r["mean_score"]))
    widest = max(r["interval_width"] for r in rows)
    print()
    print("Widest 95%% interval: %.2f percentage points." % (100 * widest))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results/strategies")
