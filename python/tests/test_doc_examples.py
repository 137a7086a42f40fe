"""The Python examples of README.md and of docs/python.md's sections on the game, the
environments, seeds and rendering run as written, and the board the docs show is the board
State.render draws."""

import re
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import mtrain  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = [
    "The game, one decision at a time",
    "PettingZoo",
    "Gymnasium: one seat against the built-in bots",
    "Many games at once",
    "Seeds",
    "Rendering",
]


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def blocks(text: str, lang: str = "python"):
    return re.findall(rf"```{lang}\n(.*?)```", text, re.S)


def test_the_readme_example_runs():
    pytest.importorskip("pandas")
    (code,) = blocks((ROOT / "README.md").read_text())
    exec(compile(code, "README.md", "exec"), {})


@pytest.mark.parametrize("title", SECTIONS)
def test_the_docs_examples_run(title):
    code = blocks(section((ROOT / "docs/python.md").read_text(), title))
    assert code, title
    ns = {"mtrain": mtrain}
    for i, c in enumerate(code):
        exec(compile(c, f"docs/python.md: {title} [{i}]", "exec"), ns)


def test_the_board_shown_is_the_board_drawn():
    part = section((ROOT / "docs/python.md").read_text(), "Rendering")
    (code,) = blocks(part)
    (shown,) = blocks(part, "text")
    assert "mtrain.Game(players=3).new_state(7)" in code
    assert mtrain.Game(players=3).new_state(7).render() == shown
