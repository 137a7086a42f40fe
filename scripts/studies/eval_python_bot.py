"""Evaluates a Python bot under mtrain-eval v1 for the leaderboard (scripts/studies/eval-leaderboard.sh).

Usage: python3 scripts/studies/eval_python_bot.py MODULE:NAME OUTDIR [--threads T] [--quick]

MODULE:NAME is a bot object (anything with act(obs, mask) or choose(observation, legal): what
mtrain.evaluate takes) or a function of no arguments that returns one. Writes OUTDIR/eval.csv (the table
mtrain.evaluate returns, the same columns as `mtrain eval --out`) and OUTDIR/console.txt.
"""

import argparse
import importlib
import pathlib

import mtrain


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("target", help="MODULE:NAME, a bot object or a function that makes one")
    ap.add_argument("out", type=pathlib.Path)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--quick", action="store_true", help="the quick variant (not v1)")
    a = ap.parse_args()
    module, _, name = a.target.partition(":")
    if not name:
        ap.error(f"expected MODULE:NAME, not {a.target!r}")
    obj = getattr(importlib.import_module(module), name)
    bot = obj() if callable(obj) and not (hasattr(obj, "choose") or hasattr(obj, "act")) else obj
    r = mtrain.evaluate(bot, quick=a.quick, threads=a.threads)
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "eval.csv").write_text(r.table.csv)
    (a.out / "console.txt").write_text(r.header + r.report)


if __name__ == "__main__":
    main()
