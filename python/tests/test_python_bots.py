"""Python bots play in-process beside the built-ins."""

import numpy as np
import pytest

import mtrain


class Heaviest:
    """Plays the legal tile with the most pips (the first move otherwise)."""

    name = "heaviest"

    def __init__(self):
        self.calls = 0

    def choose(self, observation, legal):
        self.calls += 1
        assert observation["type"] == "decide" and observation["moves"] == legal
        pips = [sum(map(int, m["tile"].split("-"))) if m["action"] == "play" else -1 for m in legal]
        return max(range(len(legal)), key=lambda i: pips[i])


def test_a_python_bot_plays_a_tournament_and_beats_random():
    bot = Heaviest()
    r = mtrain.tournament([bot, "random"], players=2, games=200, seed=3, threads=2)
    assert bot.calls > 1000
    rows = {row["strategy"]: row for row in r.summary}
    assert set(rows) == {"heaviest", "random"}
    assert rows["heaviest"]["win_rate"] > 0.6
    again = mtrain.tournament([Heaviest(), "random"], players=2, games=200, seed=3, threads=1)
    assert again.summary.csv == r.summary.csv, "the same games at any thread count"


def test_a_python_bot_that_raises_fails_the_run_naming_it():
    class Broken:
        name = "broken"

        def choose(self, observation, legal):
            raise KeyError("no such tile")

    with pytest.raises(RuntimeError, match="Python bot 'broken' failed: .*no such tile"):
        mtrain.tournament([Broken(), "greedy"], players=2, games=20, seed=1)

    class OutOfRange:
        def choose(self, observation, legal):
            return len(legal)

    with pytest.raises(RuntimeError, match="'python1' failed: choose returned"):
        mtrain.tournament([OutOfRange(), "greedy"], players=2, games=20, seed=1)
    with pytest.raises(TypeError, match="neither a bot spec"):
        mtrain.tournament([object(), "greedy"], players=2, games=20)


def test_a_python_bot_plays_a_balance_sweep():
    bot = Heaviest()
    r = mtrain.balance([bot, "random"], players=2, hands=(7, 8), games=100, rounds=2, seed=2)
    assert bot.calls > 100 and not r.stopped
    assert {row["recommended_hand"] for row in r.recommendation} <= {7, 8}


def test_python_bots_are_opponents_in_the_environments():
    from mtrain import gym as mtgym

    bot = Heaviest()
    e = mtgym.env(opponents=[bot, "greedy"], rounds=1)
    obs, _ = e.reset(seed=1)
    done = False
    while not done:
        obs, reward, done, _, _ = e.step(int(obs["action_mask"].nonzero()[0][0]))
    assert bot.calls > 3
    env = mtrain.vec_env(4, [Heaviest()], players=2, rounds=1, seed=2)
    for _ in range(20):
        env.step(env.mask.argmax(axis=1).astype("int64"))

    class Broken:
        def choose(self, observation, legal):
            raise ValueError("lost")

    with pytest.raises(RuntimeError, match="'python1' failed: ValueError: lost"):
        e = mtgym.env(opponents=[Broken()], rounds=1)
        obs, _ = e.reset(seed=1)
        while True:
            obs, *_ = e.step(int(obs["action_mask"].nonzero()[0][0]))


class Lowest:
    """A tensor bot: plays the lowest legal action number, and records what it was given."""

    name = "lowest"

    def __init__(self):
        self.seen = []

    def act(self, obs, mask):
        assert obs.dtype == np.float32 and mask.dtype == np.int8
        self.seen.append((obs.copy(), mask.copy()))
        return np.flatnonzero(mask)[0]  # a numpy integer


def test_a_tensor_bot_is_given_what_the_environments_give_at_the_same_decision():
    game = mtrain.Game("wikipedia", players=2, rounds=3)
    bot = Lowest()
    solo = mtrain._mtrain.Solo(game, ["lowest"], 0, [("lowest", bot)])
    obs, mask = solo.reset(17)
    over = False
    while not over:
        mask = np.frombuffer(mask, dtype=np.uint8)
        obs, mask, _, over, illegal = solo.step(int(np.flatnonzero(mask)[0]))
        assert not illegal
    # The same match stepped by hand, both seats playing their lowest legal action: at every
    # decision of seat 1 the tensor and the mask are the bot's, in order.
    state, k = game.new_state(17), 0
    while not state.is_terminal():
        if state.current_player() == 1:
            want_mask = np.zeros(game.num_distinct_actions(), dtype=np.int8)
            want_mask[state.legal_actions()] = 1
            got_obs, got_mask = bot.seen[k]
            np.testing.assert_array_equal(got_obs, state.observation_tensor(1))
            np.testing.assert_array_equal(got_mask, want_mask)
            k += 1
        state.apply_action(min(state.legal_actions()))
    assert k == len(bot.seen) > 50


def test_a_tensor_bot_plays_tournaments_the_same_at_any_thread_count():
    bot = Lowest()
    r = mtrain.tournament([bot, "random"], players=2, games=60, rounds=2, seed=5, threads=2)
    assert len(bot.seen) > 500
    assert {row["strategy"] for row in r.summary} == {"lowest", "random"}
    again = mtrain.tournament([Lowest(), "random"], players=2, games=60, rounds=2, seed=5, threads=1)
    assert again.summary.csv == r.summary.csv


def test_a_tensor_bot_plays_balance_and_as_an_opponent_in_the_environments():
    bot = Lowest()
    r = mtrain.balance([bot, "random"], players=2, hands=7, games=40, rounds=1, seed=2)
    assert not r.stopped and len(bot.seen) > 40
    before = len(bot.seen)
    env = mtrain.vec_env(4, [bot], players=2, rounds=1, seed=3)
    for _ in range(20):
        env.step(np.array([np.flatnonzero(m)[0] for m in env.mask], dtype=np.int64))
    assert len(bot.seen) > before


def test_a_tensor_bot_that_answers_wrong_fails_the_run_naming_it():
    class Illegal:
        name = "illegal"

        def act(self, obs, mask):
            return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(RuntimeError, match=r"Python bot 'illegal' failed: act returned action \d+, which is not legal here \(legal: \["):
        mtrain.tournament([Illegal(), "greedy"], players=2, games=10, seed=1)

    class Floating:
        name = "floating"

        def act(self, obs, mask):
            return 1.5

    with pytest.raises(RuntimeError, match="'floating' failed: act returned 1.5, not an action number"):
        mtrain.tournament([Floating(), "greedy"], players=2, games=10, seed=1)
