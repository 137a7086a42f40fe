#!/usr/bin/env python3
"""Test bot that plays the first legal move and misbehaves as its first argument says, at its
third decision: crash, hang, garbage (malformed JSON), illegal (a move not offered),
noreply-hello (never answers the handshake), old (speaks protocol 0), crash-once=PATH (crashes
only if it is the first to create PATH), none (never), twice (two answers to one decide),
huge (a 10 MB answer), exit-child (starts a child that keeps its output open, then exits with
status 5), close-input (closes its standard input, answers, and waits); or at other times:
answer=KIND (answers every message of KIND: match, round or round_end), chatty (writes
12,000,000 bytes on stderr at the handshake, then plays).

With `--child PATH` after the mode, it starts a child process (`sleep 300`) at the handshake
and appends the child's pid to PATH (as does exit-child)."""

import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]
pids = None
if len(sys.argv) > 3 and sys.argv[2] == "--child":
    pids = sys.argv[3]
if mode.startswith("crash-once="):
    try:
        os.close(os.open(mode.split("=", 1)[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        mode = "crash"
    except FileExistsError:
        mode = "none"
answer = mode.split("=", 1)[1] if mode.startswith("answer=") else None


def child(**streams):
    """Starts `sleep 300` and records its pid."""
    c = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL, **streams)
    if pids:
        with open(pids, "a") as f:
            f.write(f"{c.pid}\n")


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


decisions = 0
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == answer:
        send(json.dumps({"move": 0}))
    if kind == "hello":
        if mode == "noreply-hello":
            time.sleep(3600)
        if pids:
            child(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if mode == "chatty":
            chunk = "x" * 999 + "\n"
            for _ in range(12000):
                sys.stderr.write(chunk)
            sys.stderr.flush()
        send(json.dumps({"type": "ready", "protocol": 0 if mode == "old" else 1}))
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
                send("this is not json")
                continue
            if mode == "illegal":
                reply = {"move": len(msg["moves"])}
            if mode == "twice":
                sys.stdout.write(json.dumps(reply) + "\n" + json.dumps(reply) + "\n")
                sys.stdout.flush()
                continue
            if mode == "huge":
                reply = {"move": 0, "pad": "x" * 10_000_000}
            if mode == "exit-child":
                # The child inherits the output: it stays open after the bot exits.
                child()
                sys.exit(5)
            if mode == "close-input":
                os.close(0)
                send(json.dumps(reply))
                time.sleep(3600)
        send(json.dumps(reply))
    elif kind == "quit":
        break
