"""The examples in examples/python/ run and show what they say."""

import runpy
import sys
from pathlib import Path

import mtrain

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python"


def test_the_numpy_policy_learns_to_beat_random():
    sys.argv = ["train_numpy.py"]
    ex = runpy.run_path(str(EXAMPLES / "train_numpy.py"), run_name="example")
    theta = ex["train"](1000)
    r = mtrain.tournament([ex["LinearBot"](theta), "random"], players=2, games=600, seed=7)
    rows = {row["strategy"]: row for row in r.summary}
    # Fixed seeds: the same weights every run; the interval is far from even.
    assert rows["numpy"]["win_lo"] > 0.6, rows["numpy"]
