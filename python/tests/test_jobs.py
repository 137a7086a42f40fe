"""One kind of run: mtrain.tune, mtrain.run(kind, spec) and the progress callback, played by the
library's one job driver, give the files the command line writes."""

import json
import subprocess

import pytest

import mtrain
from test_tournament import CLI


def test_tune_gives_the_files_the_command_line_writes(tmp_path):
    out = tmp_path / "cli"
    subprocess.run(
        [CLI, "tune", "--bot", "weighted", "--param", "pips=0:3", "--iterations", "6", "--games", "32",
         "--confirm-games", "400", "--seed", "3", "--quiet", "--out", str(out)],
        check=True, capture_output=True,
    )
    r = mtrain.tune("weighted", params=["pips=0:3"], iterations=6, games=32, confirm_games=400, seed=3, threads=2)
    assert not r.stopped
    assert r.iterations == 6
    assert r.trajectory.csv == (out / "trajectory.csv").read_text()
    assert r.plots["trajectory.svg"] == (out / "trajectory.svg").read_text()
    assert r.tuned + "\n" == (out / "tuned.txt").read_text()
    if (out / "confirm.csv").exists():
        assert r.confirm.csv == (out / "confirm.csv").read_text()
    else:
        assert r.confirm is None


def test_a_stored_run_plays_again_from_its_spec(tmp_path):
    out = tmp_path / "cli"
    subprocess.run(
        [CLI, "tournament", "--bots", "greedy,random", "--players", "3", "--games", "300", "--seed", "9",
         "--quiet", "--out", str(out)],
        check=True, capture_output=True,
    )
    spec = json.loads((out / "tally.json").read_text())["config"]["spec"]
    r = mtrain.run("tournament", spec, threads=2)
    assert isinstance(r, mtrain.TournamentResult) and r.games == 300
    for name in ["summary", "seats", "pairs", "ratings", "round_stats"]:
        assert r.tables[name].csv == (out / f"{name}.csv").read_text(), name
    # The same spec as JSON text, the same result.
    assert mtrain.run("tournament", json.dumps(spec)).summary.csv == r.summary.csv


def test_run_refuses_an_unknown_kind_and_a_spec_that_does_not_parse():
    with pytest.raises(ValueError, match=r"unknown kind of run 'league' \(valid: tournament, balance, tune\)"):
        mtrain.run("league", {})
    with pytest.raises(ValueError, match="not a tournament spec"):
        mtrain.run("tournament", {"games": "many"})


def test_progress_hears_every_game_and_ends_at_the_total():
    heard = []
    r = mtrain.tournament(["greedy", "random"], players=2, games=400, seed=2, threads=2,
                          progress=lambda done, total: heard.append((done, total)))
    assert heard, "the callback was never called"
    assert heard[-1] == (400, 400)
    assert all(a[0] <= b[0] for a, b in zip(heard, heard[1:]))
    assert r.games == 400


def test_an_exception_in_progress_stops_the_run_and_is_raised():
    def fail(done, total):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        mtrain.tournament(["planner", "greedy"], players=4, games=200_000, seed=2, threads=2, progress=fail)
