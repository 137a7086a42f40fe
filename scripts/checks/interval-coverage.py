#!/usr/bin/env python3
"""How often mtrain's 95% intervals cover the truth, for self-play rates.

Runs one large tournament of BOT self-play as the reference ("truth"), then REPS small ones with
seeds 1..REPS, and counts how often each small run's interval for `out_rate` (summary.csv) and
`blocked_rate` (round_stats.csv) contains the reference value. Around 95% is right; the binomial
noise of REPS runs is about 1.5 points at 200.

Usage: scripts/checks/interval-coverage.py BOT PLAYERS GAMES REPS   (e.g. greedy 4 100 200)
Needs target/release/mtrain (cargo build --release).
"""
import csv
import os
import subprocess
import sys
import tempfile

MTRAIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "target", "release", "mtrain")


def run(bot, players, games, seed, out):
    subprocess.run([MTRAIN, "tournament", "--bots", bot, "--players", players, "--games", str(games),
                    "--seed", str(seed), "--quiet", "--out", out], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.csv"), newline="") as f:
        summary = next(csv.DictReader(f))
    with open(os.path.join(out, "round_stats.csv"), newline="") as f:
        rounds = {r["metric"]: r for r in csv.DictReader(f)}
    return (float(summary["out_rate"]), float(summary["out_lo"]), float(summary["out_hi"])), \
        tuple(float(rounds["blocked_rate"][k]) for k in ("value", "lo", "hi"))


def main(bot, players, games, reps):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run")
        (out_truth, _, _), (blocked_truth, _, _) = run(bot, players, 200 * games, 999_999, out)
        hits = [0, 0]
        for seed in range(1, reps + 1):
            o, b = run(bot, players, games, seed, out)
            hits[0] += o[1] <= out_truth <= o[2]
            hits[1] += b[1] <= blocked_truth <= b[2]
    print(f"{bot} self-play, {players} players, {games} games per run, {reps} runs; "
          f"reference out_rate {out_truth:.6f}, blocked_rate {blocked_truth:.6f}")
    print(f"out_rate covered {hits[0]}/{reps}, blocked_rate covered {hits[1]}/{reps}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
