"""The committed golden playthroughs still play the same (python/tests/golden_playthroughs.py
writes them)."""

import json

import pytest

from golden_playthroughs import PRESETS, name, playthrough


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_a_golden_playthrough_plays_the_same(preset, players):
    golden = json.loads(name(preset, players).read_text())
    now = playthrough(preset, players)
    assert len(now["steps"]) == len(golden["steps"]) > 5
    for i, (a, b) in enumerate(zip(now["steps"], golden["steps"])):
        assert a == b, f"{preset} at {players}: step {i} differs"
    assert (now["scores"], now["returns"]) == (golden["scores"], golden["returns"])
