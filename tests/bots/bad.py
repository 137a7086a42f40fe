#!/usr/bin/env python3
"""Test bot that plays the first legal move and misbehaves as its first argument says, at its
third decision: crash, hang, garbage (malformed JSON), illegal (a move not offered),
noreply-hello (never answers the handshake), old (speaks protocol 0), crash-once=PATH (crashes
only if it is the first to create PATH), none (never)."""

import json
import os
import sys
import time

mode = sys.argv[1]
if mode.startswith("crash-once="):
    try:
        os.close(os.open(mode.split("=", 1)[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        mode = "crash"
    except FileExistsError:
        mode = "none"
decisions = 0
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        if mode == "noreply-hello":
            time.sleep(3600)
        sys.stdout.write(json.dumps({"type": "ready", "protocol": 0 if mode == "old" else 1}) + "\n")
        sys.stdout.flush()
    elif kind == "decide":
        decisions += 1
        reply = {"move": 0}
        if decisions == 3:
            if mode == "crash":
                print("bad.py: crashing on purpose", file=sys.stderr)
                sys.stderr.flush()
                sys.exit(7)
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                continue
            if mode == "illegal":
                reply = {"move": len(msg["moves"])}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    elif kind == "quit":
        break
