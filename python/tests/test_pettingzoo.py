"""The PettingZoo environment passes PettingZoo's own API, seed and max-cycles tests at every
table size."""

import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test  # noqa: E402

from mtrain import pettingzoo as mtpz  # noqa: E402


@pytest.mark.parametrize("players", range(2, 9))
def test_the_api_holds(players):
    api_test(mtpz.env(players=players, rounds=2), num_cycles=200)


@pytest.mark.parametrize("players", range(2, 9))
def test_the_same_seed_plays_the_same_episode(players):
    seed_test(lambda: mtpz.env(players=players, rounds=2), num_cycles=200)


@pytest.mark.parametrize("players", range(2, 9))
def test_max_cycles_holds(players):
    class Table:
        """The module as max_cycles_test takes it, at this table size."""

        env = staticmethod(lambda **kw: mtpz.env(players=players, **kw))
        parallel_env = staticmethod(lambda **kw: mtpz.parallel_env(players=players, **kw))

    max_cycles_test(Table)


@pytest.mark.parametrize("players", [2, 4, 8])
def test_the_parallel_api_holds(players):
    parallel_api_test(mtpz.parallel_env(players=players, rounds=2), num_cycles=100)


def test_a_match_rewards_low_totals_and_the_win():
    env = mtpz.env(players=3, rounds=2)
    env.reset(seed=1)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = int(obs["action_mask"].nonzero()[0][0])
        env.step(action)
    scores, returns = env.state.scores(), env.state.returns()
    for i, a in enumerate(env.possible_agents):
        assert totals[a] == pytest.approx(-scores[i] / 100 + returns[i])
