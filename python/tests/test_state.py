"""mtrain.Game and mtrain.State: a match one decision at a time."""

import random

import pytest

import mtrain


def play_out(state, rng, actions=None):
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) and len(legal) >= 2, "only real choices, ascending"
        assert actions is None or legal[-1] < actions
        state.apply_action(rng.choice(legal))
        steps += 1
    return steps


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
def test_a_random_match_ends_with_zero_sum_returns(players):
    game = mtrain.Game("wikipedia", players=players, rounds=3)
    state = game.new_state(seed=players)
    assert state.current_player() in range(players)
    steps = play_out(state, random.Random(players), game.num_distinct_actions())
    assert steps > 10
    assert state.current_player() == -4
    returns = state.returns()
    assert len(returns) == players and abs(sum(returns)) < 1e-9
    assert max(returns) > 0


def test_the_same_seed_and_actions_give_the_same_match():
    game = mtrain.Game("dominorules", players=4, rounds=2)
    a, b = game.new_state(9), game.new_state(9)
    assert a.observation(0) == b.observation(0)
    play_out(a, random.Random(1))
    play_out(b, random.Random(1))
    assert a.scores() == b.scores()
    c = game.new_state(10)
    assert c.observation(0)["hand"] != game.new_state(9).observation(0)["hand"]


def test_an_observation_is_the_protocol_message_with_action_numbers():
    game = mtrain.Game("wikipedia", players=3)
    state = game.new_state(5)
    p = state.current_player()
    obs = state.observation(p)
    assert obs["type"] == "decide" and obs["seat"] == p and obs["round"] == 1
    assert sorted(obs["actions"]) == state.legal_actions()
    assert len(obs["actions"]) == len(obs["moves"])
    for a, m in zip(obs["actions"], obs["moves"]):
        text = state.action_to_string(a)
        assert m["action"] in text if m["action"] != "play" else m["tile"] in text
    # Another seat sees its own hand and no moves; hidden hands are counts only.
    other = (p + 1) % 3
    seen = state.observation(other)
    assert seen["moves"] == [] and seen["actions"] == []
    assert seen["hand"] != obs["hand"] and seen["hands"] == obs["hands"]


def test_clones_are_independent_and_illegal_actions_are_refused():
    state = mtrain.Game(players=2).new_state(3)
    copy = state.clone()
    before, player = state.legal_actions(), state.current_player()
    state.apply_action(before[0])
    # The copy stays where the original was.
    assert copy.legal_actions() == before and copy.current_player() == player
    assert copy.observation(player)["hand"] != state.observation(player)["hand"]
    illegal = next(a for a in range(10_000) if a not in copy.legal_actions())
    with pytest.raises(ValueError, match="not legal"):
        copy.apply_action(illegal)
    with pytest.raises(ValueError, match="unknown preset|preset"):
        mtrain.Game("nowhere")


def test_a_resampled_state_keeps_what_the_player_knows_and_redraws_the_rest():
    game = mtrain.Game("wikipedia", players=4)
    state = game.new_state(21)
    rng = random.Random(2)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    mine = state.observation(p)
    worlds = [state.resample_from_infostate(p, seed) for seed in range(6)]
    for w in worlds:
        # The acting player's knowledge is unchanged, so are its legal actions.
        assert w.observation(p)["hand"] == mine["hand"] and w.legal_actions() == state.legal_actions()
        assert w.observation(p)["trains"] == mine["trains"] and w.observation(p)["hands"] == mine["hands"]
    other = (p + 1) % 4
    hands = {tuple(w.observation(other)["hand"]) for w in worlds}
    assert len(hands) > 1, "the hidden hands are redrawn"
    assert worlds[0].observation(other)["hand"] == state.resample_from_infostate(p, 0).observation(other)["hand"]
    # Each world plays on to the end.
    w = worlds[1]
    while not w.is_terminal():
        w.apply_action(rng.choice(w.legal_actions()))
