"""mtrain.evaluate: the standard evaluation (mtrain-eval v1) from Python, equal to the command line."""

import inspect
import subprocess

import pytest

import mtrain
from test_tournament import CLI


def test_a_quick_evaluation_is_the_eval_csv_of_the_command_line(tmp_path):
    out = tmp_path / "cli"
    subprocess.run(
        [CLI, "eval", "--bot", "greedy", "--quick", "--threads", "2", "--quiet", "--out", str(out)],
        check=True, capture_output=True,
    )
    r = mtrain.evaluate("greedy", quick=True, threads=1)
    assert not r.stopped
    assert r.table.csv == (out / "eval.csv").read_text()
    assert r.games == 640
    assert r.spec == {"bot": "greedy", "quick": True, "protocol": "mtrain-eval v1-quick (smoke test, not v1)"}
    # greedy against its frozen self: exactly level, so its rating is the league's greedy, 0.
    level = [row for row in r.table if row["baseline"] == "greedy"]
    assert len(level) == 4 and all(row["score"] == 0.5 and row["elo"] == 0.0 for row in level)
    assert r.rating == 0.0
    lo, hi = r.rating_interval
    assert lo <= 0.0 <= hi
    assert "mtrain-eval v1-quick" in str(r)
    # The spec plays the same run again.
    assert mtrain.run("eval", r.spec, threads=2).table.csv == r.table.csv


class Heaviest:
    """Plays the legal tile with the most pips (the first move otherwise)."""

    name = "heaviest"

    def __init__(self):
        self.calls = 0

    def choose(self, observation, legal):
        self.calls += 1
        pips = [sum(map(int, m["tile"].split("-"))) if m["action"] == "play" else -1 for m in legal]
        return max(range(len(legal)), key=lambda i: pips[i])


def test_a_python_bot_is_evaluated():
    bot = Heaviest()
    r = mtrain.evaluate(bot, quick=True, threads=2)
    assert bot.calls > 5000
    cells = [row for row in r.table if row["baseline"] != "rating"]
    assert len(cells) == 20 and {row["candidate"] for row in r.table} == {"heaviest"}
    # The heaviest tile first beats the random baseline in every preset and table size.
    assert all(row["score"] > 0.5 for row in cells if row["baseline"] == "random")
    assert r.rating is not None and -400 < r.rating < 400


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="nonsense"):
        mtrain.evaluate("nonsense", quick=True)
    with pytest.raises(ValueError, match="not one bot"):
        mtrain.evaluate("greedy,random", quick=True)
    with pytest.raises(TypeError, match="quick"):
        mtrain.evaluate("greedy", quick="yes")
    with pytest.raises(TypeError):
        mtrain.evaluate(42, quick=True)


def test_the_keywords_are_those_of_the_table():
    signature = [p for p in inspect.signature(mtrain.evaluate).parameters if p not in ("threads", "progress")]
    assert signature == mtrain._mtrain.kind_keywords("eval")
