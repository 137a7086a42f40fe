"""mtrain.tournament: the command line's numbers, from Python."""

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

import mtrain

CLI = os.environ.get("MTRAIN", str(Path(__file__).resolve().parents[2] / "target" / "debug" / "mtrain"))
FILES = ["summary.csv", "seats.csv", "pairs.csv", "ratings.csv", "round_stats.csv"]


def cli(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "cli"
    subprocess.run([CLI, "tournament", *args, "--quiet", "--out", str(out)], check=True, capture_output=True)
    return out


def test_the_tables_are_the_files_the_command_line_writes(tmp_path):
    out = cli(tmp_path, "--bots", "greedy,planner,random", "--players", "3", "--games", "600", "--seed", "7",
              "--rules", "dominorules", "--rule", "tap=draw_two")
    r = mtrain.tournament(["greedy", "planner", "random"], players=3, games=600, seed=7, rules="dominorules",
                          options={"tap": "draw_two"}, threads=2)
    assert r.games == 600 and not r.stopped
    for name in FILES:
        table = r.tables[name[: -len(".csv")]]
        assert table.csv == (out / name).read_text(), name
    # Records hold the values: the field in the list's order, win rates summing to one.
    assert [row["strategy"] for row in r.summary] == ["greedy", "planner", "random"]
    assert sum(row["win_rate"] for row in r.summary) == pytest.approx(1.0, abs=1e-5)
    assert r.summary.columns[:3] == ["strategy", "spec", "sees_hidden"]


def test_any_thread_count_gives_the_same_numbers():
    one = mtrain.tournament("greedy,random", players=2, games=400, seed=3, threads=1)
    two = mtrain.tournament("greedy,random", players=2, games=400, seed=3, threads=2)
    assert {k: t.csv for k, t in one.tables.items()} == {k: t.csv for k, t in two.tables.items()}
    other = mtrain.tournament("greedy,random", players=2, games=400, seed=4, threads=2)
    assert other.summary.csv != one.summary.csv


def test_bad_input_raises_one_line_naming_the_problem():
    with pytest.raises(ValueError, match="unknown bot 'alien'"):
        mtrain.tournament(["alien"], players=2, games=10)
    with pytest.raises(ValueError, match="tap"):
        mtrain.tournament(["greedy"], players=2, games=10, options={"tap": "sometimes"})
    with pytest.raises(ValueError, match="threads"):
        mtrain.tournament(["greedy"], players=2, games=10, threads=0)


def test_ctrl_c_stops_a_run_cleanly():
    # Python's own Ctrl-C handler, whatever this process inherited: a process started in the
    # background by a non-interactive shell ignores SIGINT, and the signal would never arrive.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
        start = time.monotonic()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            mtrain.tournament(["planner", "greedy"], players=4, games=10_000_000, seed=1, threads=2)
        assert time.monotonic() - start < 20
    finally:
        signal.signal(signal.SIGINT, previous)


def test_pandas_reads_the_same_rows():
    pd = pytest.importorskip("pandas")
    r = mtrain.tournament(["greedy", "random"], players=2, games=200, seed=1)
    df = r.summary.to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert list(df["strategy"]) == ["greedy", "random"]
    assert df["games"].tolist() == [row["games"] for row in r.summary]


def test_the_built_in_bots_are_listed():
    bots = mtrain.strategies()
    assert {"greedy", "planner", "expert", "oracle"} <= set(bots)
    assert all(isinstance(v, str) and v for v in bots.values())
