"""Python bots play in-process beside the built-ins."""

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
