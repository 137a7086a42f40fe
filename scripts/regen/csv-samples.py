#!/usr/bin/env python3
"""Regenerates the sample lines of docs/csv.md from the commands that document names.

Usage: scripts/regen/csv-samples.py [MTRAIN]   (default: target/release/mtrain; build it first)

docs/csv.md opens with a ```sh block of `mtrain ...` commands, each with `--out DIR`. Every
`### FILE...` heading under `## mtrain SUBCOMMAND` that is followed by a ```text block gets that
block rewritten from DIR/FILE as the SUBCOMMAND's command wrote it: the header line and the first
rows, a long line cut at a comma and ended with `...`. tests/csv_docs.rs runs the same commands
and checks every sample line against what they write, so a sample that drifts fails the suite.
"""

import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "csv.md")
# Rows shown after the header, where one is not enough to show the file's shape.
ROWS = {"ratings.csv": 3, "round_stats.csv": 4, "balance.csv": 3, "compare.csv": 3, "rulesets.csv": 2}
WIDTH = 180


def cut(line):
    """A line of at most WIDTH characters: cut at a comma, `...` after it."""
    if len(line) <= WIDTH:
        return line
    at = line.rfind(",", 0, WIDTH - 4)
    return line[: at + 1] + "..."


def commands(text):
    """(subcommand, argv without the program, output folder) of the opening sh block."""
    block = re.search(r"```sh\n(.*?)```", text, re.S).group(1)
    out = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if not words or words[0] != "mtrain":
            continue
        folder = words[words.index("--out") + 1]
        out.append((words[1], words[1:], folder))
    return out


def main():
    mtrain = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/mtrain"))
    text = open(DOC, encoding="utf-8").read()
    folders = {}
    with tempfile.TemporaryDirectory() as work:
        for sub, argv, folder in commands(text):
            subprocess.run([mtrain, *argv, "--quiet"], cwd=work, check=True, stdout=subprocess.DEVNULL)
            folders[sub] = os.path.join(work, folder)
        out, section, heading = [], None, None
        lines = text.split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            m = re.match(r"## mtrain (\w+)", line)
            if m:
                section = m.group(1)
            m = re.match(r"### (\S+\.csv)", line)
            if m:
                heading = m.group(1)
            out.append(line)
            if line == "```text" and section in folders and heading:
                with open(os.path.join(folders[section], heading), encoding="utf-8") as f:
                    rows = f.read().splitlines()
                shown = [cut(r) for r in rows[: 1 + ROWS.get(heading, 1)]]
                if len(rows) > len(shown):
                    shown.append("...")
                out.extend(shown)
                i += 1
                while lines[i] != "```":
                    i += 1
                out.append("```")
                heading = None
            i += 1
    with open(DOC, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
