"""The examples in examples/python/ run and show what they say."""

import runpy
import sys
from pathlib import Path

import pytest

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


def test_shards_on_dask_merge_to_one_process(capsys):
    pytest.importorskip("dask.distributed")
    sys.argv = ["dask_shards.py", "4", "2000"]
    runpy.run_path(str(EXAMPLES / "dask_shards.py"), run_name="__main__")
    assert "4 shards on Dask, merged: byte-identical to one process" in capsys.readouterr().out


def test_the_pandas_example_plots_the_ratings(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "ratings.png"
    sys.argv = ["tables_pandas.py", str(png), "600"]
    runpy.run_path(str(EXAMPLES / "tables_pandas.py"), run_name="__main__")
    assert png.stat().st_size > 10_000 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "win_rate" in capsys.readouterr().out
