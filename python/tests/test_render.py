"""The board as text and HTML: State.render(player), State._repr_html_, from one seat's view."""

import re

import pytest

import mtrain


def played(state, moves):
    """`state` after `moves` decisions (the middle legal action each time)."""
    for _ in range(moves):
        legal = state.legal_actions()
        state.apply_action(legal[len(legal) // 2])
    return state


def test_the_board_shows_the_round_the_trains_the_hand_and_the_legal_moves():
    state = played(mtrain.Game(players=4).new_state(7), 12)
    p = state.current_player()
    text = state.render()
    obs = state.observation(p)
    head, *rows = text.splitlines()
    assert head == f"Round 1 · engine 12-12 · seat {p} to act · boneyard {obs['boneyard']} · view of seat {p}"
    for s in range(4):
        (row,) = [r for r in rows if r.startswith(f"seat {s} ")]
        assert f"hand {obs['hands'][s]:>2}" in row and f"score {state.scores()[s]:>3}" in row
        train = obs["trains"][s]
        assert f"open end {train['end']}" in row and ("marker" in row) == train["marked"]
        laid = row.split("[")[0].split("score")[1]
        tiles = re.findall(r"\b\d+-\d+\b", laid)
        earlier = re.findall(r"\((\d+) tiles?\)", laid)
        if train["tiles"]:
            # The tiles laid on the train, in order, each joined to the one before; those laid
            # before the state's first decision (forced plays it did not see) are counted.
            assert len(tiles) + sum(int(n) for n in earlier) == train["tiles"] and len(tiles) >= 1
            assert int(tiles[-1].split("-")[1]) == train["end"]
            assert all(a.split("-")[1] == b.split("-")[0] for a, b in zip(tiles, tiles[1:]))
        else:
            assert "(not started)" in laid
    assert any(r.startswith("Mexican") for r in rows)
    assert f"Hand of seat {p} ({len(obs['hand'])} tiles): {' '.join(obs['hand'])}" in rows
    (legal,) = [r for r in rows if r.startswith("Legal: ")]
    assert sorted(int(a) for a in re.findall(r"(\d+): ", legal)) == state.legal_actions()


def test_a_seats_board_shows_nothing_hidden_from_it():
    state = played(mtrain.Game(players=3, rounds=2).new_state(3), 9)
    for p in range(3):
        text = state.render(p)
        assert f"view of seat {p}" in text and f"Hand of seat {p}" in text
        assert ("Legal: " in text) == (p == state.current_player())
    p = state.current_player()
    text = state.render(p)
    for seed in range(5):
        # Another world with the same view (the hidden hands and boneyard redrawn): the same board.
        world = state.resample_from_infostate(p, seed)
        assert world.render(p) == text
        assert any(world.observation(q)["hand"] != state.observation(q)["hand"] for q in range(3) if q != p)


def test_a_finished_match_shows_the_scores_and_winners():
    state = mtrain.Game(players=2, rounds=1).new_state(1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    text = state.render()
    scores = state.scores()
    assert text.startswith("Match over after round 1\n")
    assert f"seat 0: {scores[0]}  seat 1: {scores[1]}" in text
    winners = [s for s in range(2) if scores[s] == min(scores)]
    assert text.rstrip().endswith("Winner(s): " + ", ".join(f"seat {s}" for s in winners))
    assert "Match over" in state._repr_html_()


def test_the_html_board_and_bad_seats():
    state = played(mtrain.Game(players=4).new_state(2), 6)
    page = state._repr_html_()
    assert page.startswith('<div class="mtrain-board"') and page.endswith("</div>")
    p = state.current_player()
    for tile in state.observation(p)["hand"]:
        assert f">{tile}</span>" in page
    assert "<script" not in page
    with pytest.raises(ValueError, match="player must be an integer from 0 to 3; got 4"):
        state.render(4)
    with pytest.raises(TypeError, match="player must be an integer"):
        state.render(1.0)
