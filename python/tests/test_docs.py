"""The figures docs/python.md and README quote are those of the committed benchmark CSV."""

import csv
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_quoted_throughputs_are_the_csvs():
    rows = {r["what"]: int(r["median"]) for r in csv.DictReader(open(ROOT / "results/benchmarks/python.csv"))}
    doc = (ROOT / "docs/python.md").read_text()
    quoted = {
        "vec_env n=1024 steps/s": r"`vec_env`, n = 1024 \| ([\d,]+) agent steps",
        "vec_env n=64 steps/s": r"`vec_env`, n = 64 \| ([\d,]+) agent steps",
        "pettingzoo turns/s": r"PettingZoo AEC, driven from Python \| ([\d,]+) turns",
    }
    for what, pattern in quoted.items():
        m = re.search(pattern, doc)
        assert m, what
        assert int(m.group(1).replace(",", "")) == rows[what], what
    readme = re.search(r"steps 1,024 games\nat ([\d,]+) agent steps per second", (ROOT / "README.md").read_text())
    assert readme and int(readme.group(1).replace(",", "")) == rows["vec_env n=1024 steps/s"]
    # The targets: 500,000 agent steps a second at n = 1024, 50,000 AEC turns a second.
    assert rows["vec_env n=1024 steps/s"] >= 500_000 and rows["pettingzoo turns/s"] >= 50_000
