#!/usr/bin/env python3
"""Instruction counts of one function by machine instruction and by source line.

callgrind_annotate gives counts by source line, but in the engine's hot loops (one inlined turn,
thousands of instructions) a line's count mixes its own work with the register spills and bounds
checks the compiler placed there. This joins callgrind's count of each instruction with the
disassembly (objdump -d -l), so a step can be judged on what it compiled to.

Usage:
  CARGO_PROFILE_RELEASE_DEBUG=line-tables-only CARGO_TARGET_DIR=target/reldbg \\
      cargo build --release --example rounds
  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=/tmp/cg.out \\
      target/reldbg/release/examples/rounds greedy 20000 play
  scripts/bench/asm-profile.py /tmp/cg.out target/reldbg/release/examples/rounds play_plain \\
      --per 20000 [--min 1] [--lines 40]

Prints the function's total, then (with --lines N) the N source lines with the most
instructions, else every instruction run at least --min times per unit, in address order. The
binary must be the one profiled (a rebuild moves every address). Counts are divided by --per
(the rounds or decisions of the run) to read per round or per decision.
"""
import argparse
import collections
import re
import shutil
import signal
import subprocess
import sys


def fail(msg):
    print(f"asm-profile.py: {msg}", file=sys.stderr)
    sys.exit(2)


def counts_by_address(path):
    """Self counts per instruction address from a callgrind file with positions `instr line`."""
    counts = collections.Counter()
    addr = line = 0
    skip_next = False  # the cost line after `calls=` is the call's inclusive cost
    positions_ok = False

    def step(tok, prev):
        if tok == "*":
            return prev
        if tok[0] in "+-":
            return prev + int(tok, 0)
        return int(tok, 0)

    try:
        f = open(path)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    with f:
        for raw in f:
            if raw.startswith("positions:"):
                positions_ok = raw.split()[1:] == ["instr", "line"]
                continue
            if raw.startswith("calls="):
                skip_next = True
                continue
            if not raw or raw[0] not in "0123456789+-*":
                continue
            parts = raw.split()
            if len(parts) < 3:
                continue
            addr, line = step(parts[0], addr), step(parts[1], line)
            if skip_next:
                skip_next = False
                continue
            counts[addr] += int(parts[2])
    if not positions_ok:
        fail(f"{path} has no per-instruction counts: profile with valgrind --tool=callgrind --dump-instr=yes")
    return counts


def disassembly(binary, name):
    """(address, instruction, file:line) of every function whose demangled name contains `name`."""
    if shutil.which("objdump") is None:
        fail("objdump is not installed (apt-get install binutils)")
    run = subprocess.run(["objdump", "-d", "-l", "-C", "--no-show-raw-insn", binary], capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"objdump cannot read {binary}: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else 'error'}")
    out, inside, where = [], False, "?"
    for l in run.stdout.splitlines():
        head = re.match(r"^[0-9a-f]+ <(.*)>:$", l)
        if head:
            inside = name in head.group(1)
            continue
        if not inside:
            continue
        src = re.match(r"^(/\S+|\S+\.rs):(\d+)", l)
        if src:
            where = f"{src.group(1).split('/')[-1]}:{src.group(2)}"
            continue
        ins = re.match(r"^\s+([0-9a-f]+):\s+(.*)$", l)
        if ins:
            out.append((int(ins.group(1), 16), ins.group(2).strip(), where))
    if not out:
        fail(f"no function of {binary} has {name!r} in its name")
    return out


def main():
    # Piped into `head`: stop quietly when the reader does.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("callgrind_out")
    ap.add_argument("binary")
    ap.add_argument("function", help="part of the demangled function name (every match is counted)")
    ap.add_argument("--per", type=float, default=1.0, help="divide counts by this (rounds, decisions)")
    ap.add_argument("--min", type=float, default=1.0, help="print instructions run at least this often")
    ap.add_argument("--lines", type=int, default=0, help="print the N costliest source lines instead")
    a = ap.parse_args()
    if a.per <= 0:
        fail(f"--per must be above 0, not {a.per}")
    counts = counts_by_address(a.callgrind_out)
    code = disassembly(a.binary, a.function)
    rows = [(addr, counts.get(addr, 0) / a.per, ins, where) for addr, ins, where in code]
    total = sum(c for _, c, _, _ in rows)
    if total == 0:
        fail(f"no instruction of {a.function!r} ran in {a.callgrind_out}: was this binary the one profiled?")
    print(f"{total:,.0f} instructions per unit in functions matching {a.function!r}")
    if a.lines:
        by_line = collections.Counter()
        for _, c, _, where in rows:
            by_line[where] += c
        for where, c in by_line.most_common(a.lines):
            print(f"{c:9.0f}  {where}")
        return
    for addr, c, ins, where in rows:
        if c >= a.min:
            print(f"{addr:8x} {c:9.1f}  {ins[:64]:64s} {where}")


if __name__ == "__main__":
    main()
