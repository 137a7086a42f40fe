#!/usr/bin/env python3
"""Example positions for the strategy guide: where one rule of thumb decides a move.

Plays one match of the tuned `weighted` in every seat (the example log), then, for each feature
and each seat, the same match (same seed, so the same deal and boneyard) with that seat's
feature weight set to 0. `weighted` is deterministic, so the two logs agree line for line until
the first decision where the bot without the feature plays differently: a position where that
feature alone turns the tuned bot's choice. The earliest such line over the seats is the
feature's example. Writes examples.csv (one row per feature; docs/csv-like columns below).

Usage: strategy_examples.py MTRAIN LOG OUT_CSV SEED PLAYERS RULES FEATURE...

Columns of OUT_CSV: feature, move (the line of LOG after the `match` line: the viewer's move
number), round, seat, tile, train (as the log writes it), alt_seat, alt_kind (play, draw, pass,
...: the event the bot without the feature produced at that line), alt_tile, alt_train, hands (every seat's tile count just before the move, seat 0 first) and
marked (the seats whose trains carry a marker then).
"""

import csv
import json
import os
import subprocess
import sys
import tempfile


def play(mt, seed, players, rules, bots, log):
    subprocess.run(
        [mt, "play", "--rules", rules, "--players", str(players), "--seed", str(seed),
         "--bots", ",".join(bots), "--log", log, "--force"],
        check=True, stdout=subprocess.DEVNULL)
    with open(log) as f:
        return [json.loads(line) for line in f]


def table_before(events, i):
    """The hand sizes of every seat and the marked trains just before line `i`, replayed from
    the round's deal (docs/log-format.md)."""
    hands, marked = [], set()
    for e in events[:i]:
        kind = e["event"]
        if kind == "round":
            hands, marked = [len(h) for h in e["hands"]], set()
        elif kind in ("play", "engine") and "seat" in e:
            hands[e["seat"]] -= 1
        elif kind == "draw":
            hands[e["seat"]] += 1
        elif kind == "penalty":
            hands[e["seat"]] += len(e["tiles"])
        elif kind == "mark":
            marked.add(e["seat"])
        elif kind == "unmark":
            marked.discard(e["seat"])
    return hands, marked


def main():
    mt, log, out, seed, players, rules, *features = sys.argv[1:]
    players = int(players)
    base = play(mt, seed, players, rules, ["weighted"] * players, log)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for feature in features:
            best = None
            for seat in range(players):
                bots = ["weighted"] * players
                bots[seat] = f"weighted:{feature}=0"
                other = play(mt, seed, players, rules, bots, os.path.join(tmp, "b.jsonl"))
                # line 0 is the `match` line (it names the bots); the play starts at line 1
                for i in range(1, min(len(base), len(other))):
                    if base[i] != other[i]:
                        if best is None or i < best[0]:
                            best = (i, other[i])
                        break
            if best is None:
                rows.append({"feature": feature})
                continue
            i, alt = best
            ev = base[i]
            rnd = max(e["round"] for e in base[:i] if e["event"] == "round")
            hands, marked = table_before(base, i)
            assert ev["event"] == "play", f"{feature}: the tuned bot's move at line {i} is {ev}"
            rows.append({
                "feature": feature, "move": i, "round": rnd, "seat": ev["seat"], "tile": ev["tile"],
                "train": ev["train"], "alt_seat": alt.get("seat", ""), "alt_kind": alt["event"],
                "alt_tile": alt.get("tile", ""), "alt_train": alt.get("train", ""),
                "hands": " ".join(str(h) for h in hands), "marked": " ".join(str(m) for m in sorted(marked)),
            })
    cols = ["feature", "move", "round", "seat", "tile", "train", "alt_seat", "alt_kind", "alt_tile", "alt_train",
            "hands", "marked"]
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)


if __name__ == "__main__":
    main()
