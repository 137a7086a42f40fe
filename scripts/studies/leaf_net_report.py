"""Writes results/ladder/leaf-net.md from the CSVs scripts/studies/study-leaf-net.sh leaves in
results/ladder/leaf-net/ (those present; a stage not yet run is left out).

Usage: python3 scripts/studies/leaf_net_report.py results/ladder/leaf-net > results/ladder/leaf-net.md
"""

import csv
import statistics
import sys
from pathlib import Path


def rows(path):
    return list(csv.DictReader(open(path))) if path.exists() else []


def score(r):
    s, lo, hi = (100 * float(r[k]) for k in ("score", "score_lo", "score_hi"))
    return f"{s:.1f}% [{lo:.1f}, {hi:.1f}]"


def elo(r):
    return f"{float(r['elo']):+.0f} [{float(r['elo_lo']):+.0f}, {float(r['elo_hi']):+.0f}]"


def ms(ns):
    return f"{float(ns) / 1e6:.2f}"


def main():
    d = Path(sys.argv[1])
    out = ["Written by `scripts/studies/study-leaf-net.sh` from the CSVs in results/ladder/leaf-net/. "
            "`expert` is the default (`rollout=weighted,prior=5,depth=12,samples=31`, rollouts judged "
            "by the hands); `leaf=net` judges the position a rollout reaches by the built-in value "
            "network (docs/labels.md). Full matches on double-12, duplicate deals, the two bots in "
            "every seating (two seats each at four players); a score is the share of pairwise "
            "comparisons won by the `leaf=net` bot, with its 95% interval. Times are one core's "
            "milliseconds a decision, `mtrain bench` at four players (median of three runs).", ""]

    depth = rows(d / "depth.csv")
    if depth:
        base = next((r for r in depth if r["depth"] == "expert"), None)
        out += ["### 1. Depth of the rollout before the network judges", ""]
        out += ["4 players, `wikipedia`, 200 games each (seed 5), 31 worlds a move as `expert`"
                + (f" (`expert` itself: {ms(base['ns_per_decision'])} ms a decision)." if base else "."), ""]
        out += ["| depth (turns a seat) | score against `expert` | Elo | ms a decision |", "|---:|---|---|---:|"]
        for r in depth:
            if r["depth"] == "expert":
                continue
            out.append(f"| {r['depth']} | {score(r)} | {elo(r)} | {ms(r['ns_per_decision'])} |")
        out.append("")

    tuned = d / "tune" / "tuned.txt"
    confirm = rows(d / "tune" / "confirm.csv")
    if tuned.exists() and confirm:
        c = confirm[0]
        out += ["### 2. `mtrain tune` on `depth` and `prior`", ""]
        out += ["From `expert:leaf=net,depth=4,prior=5`: 40 SPSA iterations of 32 games, depth 0 to 12 "
                "and prior 0 to 20, 4 players, `wikipedia`, seed 1 (results/ladder/leaf-net/tune/); "
                "the confirmation is an SPRT (0, 10) of the tuned bot against the start on fresh deals.", ""]
        out += ["| start | tuned | confirmation games | score | Elo | decision |", "|---|---|---:|---|---|---|"]
        out.append(f"| `{c['start']}` | `{tuned.read_text().strip()}` | {c['games']} | {score(c)} | {elo(c)} | "
                   f"{'undecided' if c['decision'] == 'none' else c['decision']} |")
        out.append("")

    time = rows(d / "time.csv")
    if time:
        out += ["### 3. Equal time", ""]
        out += ["Milliseconds a decision on one thread: five rounds of one `mtrain bench` run of 3 s "
                "for each bot in turn, the median (the times are this machine's, measured when the "
                "study ran). The worlds a move of the `leaf=net` bot in the SPRT are pinned at "
                "31 times `expert`'s median over its own at 31, rounded.", ""]
        out += ["| players | `expert` | `leaf=net`, 31 worlds | 31 x ratio | pinned worlds | `leaf=net`, pinned worlds |",
                "|---:|---:|---:|---:|---:|---:|"]
        for p in sorted({r["players"] for r in time}, key=int, reverse=True):
            rs = [r for r in time if r["players"] == p]
            med = {c: statistics.median(float(r[c]) for r in rs) for c in ("expert_ns", "leaf_ns", "pinned_ns")}
            implied = 31 * med["expert_ns"] / med["leaf_ns"]
            out.append(f"| {p} | {ms(med['expert_ns'])} | {ms(med['leaf_ns'])} | {implied:.1f} | "
                       f"{rs[0]['pinned_samples']} | {ms(med['pinned_ns'])} |")
        out.append("")

    sprt = rows(d / "sprt.csv")
    if sprt:
        out += ["### 4. SPRT at equal time", ""]
        out += ["SPRT (elo0 = 0, elo1 = 20, alpha = beta = 0.05) against `expert`, seed 21, at most "
                "1,200 games; H0 means `leaf=net` is not 20 Elo stronger, H1 that it is.", ""]
        out += ["| rules | players | spec | games | score | Elo | LLR | SPRT |", "|---|---:|---|---:|---|---|---:|---|"]
        for r in sprt:
            out.append(f"| {r['preset']} | {r['players']} | `{r['spec']}` | {int(r['games']):,} | {score(r)} | "
                       f"{elo(r)} | {float(r['llr']):.2f} | {r['decision']} |")
        out.append("")

    curve = rows(d / "curve.csv")
    if curve:
        names = {"size": "hidden layers", "labels": "matches of labels", "samples": "worlds a move (both bots)"}
        out += ["### 5. Strength against network size, labels and time", ""]
        out += ["4 players, `wikipedia`, 200 games each (seed 5). Other networks were trained by "
                "`examples/train_value` (seed 1, 4 epochs) on the same labels (or the first 1,250 "
                "matches of them) and played with `net=FILE`; each network's held-out margin error "
                "(points squared) is its training's last epoch, on one match in ten of its own labels "
                "held out.", ""]
        out += ["| axis | setting | spec | against | parameters | held-out margin MSE | score | Elo |",
                "|---|---|---|---|---:|---:|---|---|"]
        for r in curve:
            out.append(f"| {names[r['axis']]} | {r['setting']} | `{r['spec']}` | `{r['opponent']}` | "
                       f"{int(r['parameters']):,} | {r['held_out_mse']} | {score(r)} | {elo(r)} |")
        out.append("")
    print("\n".join(out).rstrip())


if __name__ == "__main__":
    main()
