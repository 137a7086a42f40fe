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
    with pytest.raises(ValueError, match=r"unknown kind of run 'league' \(valid: tournament, balance, tune, compare, eval\)"):
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


def test_a_keyword_call_tells_its_spec_and_run_plays_it_again(tmp_path):
    """The keywords become the very spec the command line stores: ``result.spec`` equals the
    ``config.spec`` of the command line's tally.json, and ``mtrain.run`` plays it to the same
    tables."""
    out = tmp_path / "cli"
    subprocess.run(
        [CLI, "tournament", "--bots", "greedy,random", "--players", "3", "--games", "300", "--seed", "9",
         "--rule", "tap=draw_two", "--quiet", "--out", str(out)],
        check=True, capture_output=True,
    )
    r = mtrain.tournament("greedy,random", players=3, games=300, seed=9, options={"tap": "draw_two"}, threads=2)
    assert r.spec == json.loads((out / "tally.json").read_text())["config"]["spec"]
    again = mtrain.run("tournament", r.spec, threads=1)
    assert again.spec == r.spec
    assert {k: t.csv for k, t in again.tables.items()} == {k: t.csv for k, t in r.tables.items()}
    assert again.report == r.report

    b = mtrain.balance(["greedy", "random"], players=3, hands=8, games=60, seed=2, max_blocked=0.5, threads=2)
    assert b.spec["limits"]["max_blocked"] == 0.5 and b.spec["players"] == [3, 3]
    rb = mtrain.run("balance", b.spec, threads=2)
    assert {k: t.csv for k, t in rb.tables.items()} == {k: t.csv for k, t in b.tables.items()}

    t = mtrain.tune("weighted", params=["pips=0:3"], iterations=3, games=16, confirm_games=200, seed=3, threads=2)
    assert t.spec["gains"] == {"iterations": 3, "c": 0.1, "r": 2.0}
    rt = mtrain.run("tune", t.spec, threads=2)
    assert rt.trajectory.csv == t.trajectory.csv and rt.tuned == t.tuned


def test_an_unknown_keyword_is_refused_naming_it_and_the_valid_ones():
    with pytest.raises(TypeError, match=r"tournament\(\) got an unexpected keyword argument 'gams' \(valid: bots, "):
        mtrain._mtrain.run_keywords("tournament", {"gams": 3})
    with pytest.raises(TypeError, match=r"'threads'.*\(valid: .*margin, rank_by, seconds_per_turn\)"):
        mtrain._mtrain.run_keywords("balance", {"threads": 3})
    with pytest.raises(ValueError, match=r"unknown kind of run 'league' \(valid: tournament, balance, tune, compare, eval\)"):
        mtrain._mtrain.run_keywords("league", {})


@pytest.mark.parametrize("kind", ["tournament", "balance", "tune", "compare"])
def test_each_keyword_function_takes_the_keywords_of_its_table(kind):
    """A keyword is spelled in its function's signature and in one row of its kind's table in
    Rust: the two list the same keywords, in the same order."""
    import inspect

    signature = [p for p in inspect.signature(getattr(mtrain, kind)).parameters if p not in ("threads", "progress")]
    assert signature == mtrain._mtrain.kind_keywords(kind)


def test_tune_refuses_a_bad_gain_and_bad_elo_bounds():
    kw = dict(params=["pips=0:3"], iterations=2, games=8, confirm_games=100)
    with pytest.raises(ValueError, match=r"^perturbation must be a number above 0 and at most 0.5; got 0.7$"):
        mtrain.tune("weighted", perturbation=0.7, **kw)
    with pytest.raises(ValueError, match=r"^rate must be a number above 0 and at most 100; got 0$"):
        mtrain.tune("weighted", rate=0, **kw)
    with pytest.raises(ValueError, match=r"^confirm_sprt: expected two Elo differences elo0,elo1"):
        mtrain.tune("weighted", confirm_sprt=(10, 0), **kw)
    with pytest.raises(TypeError, match=r"^argument 'confirm_sprt': "):
        mtrain.tune("weighted", confirm_sprt=("a", "b"), **kw)
    with pytest.raises(ValueError, match=r"^iterations must be an integer from 1 to 1000000; got 0$"):
        mtrain.tune("weighted", **{**kw, "iterations": 0})


def test_compare_is_the_command_lines_and_runs_again_from_its_spec(tmp_path):
    """mtrain.compare gives the files of mtrain compare --out with the same arguments, and its
    spec plays the same comparison again through mtrain.run."""
    args = dict(hands=(9, 10), games=32, rounds=2, bots="greedy,random")
    r = mtrain.compare(["wikipedia", "wikipedia:tap=draw_two"], **args)
    assert r.compare[0]["ruleset"] == "wikipedia:tap=draw_two"
    assert "(against wikipedia) at 4 players, hands of 9-10 tiles" in r.summary
    out = tmp_path / "cmp"
    subprocess.run(
        [CLI, "compare", "--ruleset", "wikipedia", "--ruleset", "wikipedia:tap=draw_two",
         "--hands", "9-10", "--games", "32", "--rounds", "2", "--bots", "greedy,random", "--quiet", "--out", str(out)],
        check=True,
    )
    assert r.compare.csv == (out / "compare.csv").read_text()
    assert r.rulesets.csv == (out / "rulesets.csv").read_text()
    again = mtrain.run("compare", r.spec)
    assert again.compare.csv == r.compare.csv
    with pytest.raises(ValueError, match="rulesets: unknown preset 'wikipedai'"):
        mtrain.compare(["wikipedia", "wikipedai"], **args)
    with pytest.raises(ValueError, match="at least two rule sets"):
        mtrain.compare(["wikipedia"], **args)
