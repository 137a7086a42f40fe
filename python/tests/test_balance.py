"""mtrain.balance: the command line's sweep, from Python."""

import subprocess

import pytest

import mtrain
from test_tournament import CLI


def test_the_tables_and_plots_are_the_files_the_command_line_writes(tmp_path):
    out = tmp_path / "cli"
    subprocess.run(
        [CLI, "balance", "--players", "3-4", "--hands", "8-10", "--games", "200", "--bots", "planner,greedy",
         "--seed", "5", "--quiet", "--out", str(out)],
        check=True, capture_output=True,
    )
    r = mtrain.balance(["planner", "greedy"], players=(3, 4), hands=(8, 10), games=200, seed=5, threads=2)
    assert not r.stopped
    for name in ["balance", "recommendation", "decisions"]:
        assert r.tables[name].csv == (out / f"{name}.csv").read_text(), name
    svgs = sorted(p.name for p in out.glob("*.svg"))
    assert sorted(r.plots) == svgs and len(svgs) > 10
    for name in svgs:
        assert r.plots[name] == (out / name).read_text(), name
    # A pick for each player count, within the hands swept.
    picks = {row["players"]: row for row in r.recommendation}
    assert set(picks) == {3, 4}


def test_bad_input_raises_one_line():
    with pytest.raises(ValueError, match="objective"):
        mtrain.balance(["greedy"], players=3, hands=9, games=50, objective="fairest")
    with pytest.raises(ValueError, match="first"):
        mtrain.balance(["greedy"], players=3, hands=9, games=50, first_player="sometimes")
