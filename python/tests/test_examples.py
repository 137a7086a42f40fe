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


def test_a_policy_trained_in_vec_env_is_rated_by_the_evaluation_as_it_is():
    sys.argv = ["train_eval.py"]
    ex = runpy.run_path(str(EXAMPLES / "train_eval.py"), run_name="example")
    theta = ex["train"](8)
    # Fixed seeds: the same weights every run. Eight iterations already value pips and doubles.
    assert theta[0] > 0 and theta[1] > 0, theta
    r = mtrain.evaluate(ex["Policy"](theta), quick=True, threads=2)
    cells = [row for row in r.table if row["baseline"] == "random"]
    assert len(cells) == 4 and all(row["candidate"] == "ppo_example" for row in cells)
    # Against random the trained policy scores above even in every preset and table size.
    assert all(row["score"] > 0.5 for row in cells), [row["score"] for row in cells]
    assert r.rating is not None and r.rating > -96, r.rating  # above random's v1 rating
