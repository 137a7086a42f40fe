#!/usr/bin/env python3
"""A bot for mtrain's bot protocol (docs/bot-protocol.md) that plays exactly as the built-in
`greedy`: the legal move whose tile has the most pips, the first one offered on ties.

Standard library only. Run it in a tournament with

    mtrain tournament --ext-bot pygreedy='python3 examples/bots/greedy.py' --bots pygreedy,random --players 2

It reads one JSON object per line on standard input and answers `hello` and `decide` with one
JSON object per line on standard output; everything else it only reads. Anything it wants to say
to a person goes to standard error (mtrain keeps it in a log file).
"""

import json
import sys

PROTOCOL = 1


def pips(move):
    """Pips of a move's tile; stop, skip and bullet moves carry no tile and count 0."""
    if move["action"] != "play":
        return 0
    low, high = move["tile"].split("-")
    return int(low) + int(high)


def choose(moves):
    """Index of the heaviest move; the first in the order offered on ties."""
    best = 0
    for i, move in enumerate(moves):
        if pips(move) > pips(moves[best]):
            best = i
    return best


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if msg["params"]:
                # This bot takes no parameters: say why on stderr and stop (mtrain reports it).
                print("greedy.py takes no parameters, got %r" % msg["params"], file=sys.stderr)
                return 1
            send({"type": "ready", "protocol": PROTOCOL, "name": "greedy.py"})
        elif kind == "decide":
            send({"move": choose(msg["moves"])})
        elif kind == "quit":
            break
        # "match", "round" and "round_end" need no answer; this bot keeps no state.
    return 0


if __name__ == "__main__":
    sys.exit(main())
