#!/usr/bin/env python3
"""Test bot: appends every line mtrain sends to the file named by its first argument and plays a
legal move drawn from a generator seeded by the match's seed (so runs replay exactly)."""

import json
import random
import sys


def main():
    path = sys.argv[1]
    rngs = {}
    with open(path, "a") as log:
        for line in sys.stdin:
            log.write(line)
            msg = json.loads(line)
            kind = msg["type"]
            if kind == "hello":
                out = {"type": "ready", "protocol": 1}
            elif kind == "match":
                rngs[msg["seat"]] = random.Random(msg["seed"])
                continue
            elif kind == "decide":
                out = {"move": rngs[msg["seat"]].randrange(len(msg["moves"]))}
            elif kind == "quit":
                break
            else:
                continue
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
