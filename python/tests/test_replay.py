"""A match the command line plays (`mtrain play --log`) replays move for move through
mtrain.State: the same seed deals the same hands, and the logged choices, applied as actions,
lead to the same scores."""

import json
import subprocess

import pytest

import mtrain
from test_tournament import CLI

PRESETS = ["celko1998", "wikipedia", "dominorules", "family_house", "harbour_cay"]


def same_tile(a: str, b: str) -> bool:
    return sorted(a.split("-")) == sorted(b.split("-"))


def tiles_laid(obs) -> int:
    return sum(t["tiles"] for t in obs["trains"])


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_a_logged_match_replays_through_the_state(tmp_path, preset, players):
    log = tmp_path / "match.jsonl"
    bots = ",".join(["greedy", "planner", "random", "cutthroat"][:players])
    subprocess.run([CLI, "play", "--rules", preset, "--players", str(players), "--bots", bots, "--seed", "11",
                    "--rounds", "3", "--log", str(log)], check=True, capture_output=True)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    rounds = {}  # round number -> its plays; a redeal (harbour_cay) logs its round line again
    for e in events:
        if e["event"] == "round":
            rounds[e["round"]] = []
        elif e["event"] == "play":
            rounds[max(rounds)].append(e)
    final = next(e for e in events if e["event"] == "match_end")

    state = mtrain.Game(preset, players=players, rounds=3).new_state(11)
    decisions = 0
    while not state.is_terminal():
        p = state.current_player()
        obs = state.observation(p)
        plays = rounds[state.round()]
        # The plays the state has made this round are the log's first ones (forced ones too):
        # the next logged play is this decision's, unless it decided to stop or skip.
        nxt = plays[tiles_laid(obs)] if tiles_laid(obs) < len(plays) else None
        choice = None
        if nxt is not None and nxt["seat"] == p:
            for a, m in zip(obs["actions"], obs["moves"]):
                if m["action"] == "play" and same_tile(m["tile"], nxt["tile"]) and m["train"] == nxt["train"]:
                    choice = a
        if choice is None:
            choice = next(a for a, m in zip(obs["actions"], obs["moves"]) if m["action"] in ("stop", "skip"))
        state.apply_action(choice)
        decisions += 1
    assert decisions > 5
    assert state.scores() == final["totals"], f"{preset} at {players}"
