"""The PettingZoo environment passes PettingZoo's own API, seed and max-cycles tests at every
table size."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import (  # noqa: E402
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

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


@pytest.mark.parametrize("players", [2, 4, 8])
def test_the_parallel_env_replays_from_its_seed(players):
    parallel_seed_test(lambda: mtpz.parallel_env(players=players, rounds=2), num_cycles=100)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_masked_random_parallel_play_is_always_legal(players):
    env = mtpz.parallel_env(players=players, rounds=2)
    rng = np.random.default_rng(players)
    decisions = illegal = matches = 0
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            actions = {}
            for a in env.agents:
                mask = obs[a]["action_mask"]
                # Each agent samples from its own mask: the one to act from its legal actions, the
                # others (empty masks) anything at all, which is ignored.
                actions[a] = int(rng.choice(np.flatnonzero(mask))) if mask.any() else int(rng.integers(0, 5))
            acting = [a for a in env.agents if obs[a]["action_mask"].any()]
            assert len(acting) == 1, "one agent to act at each step"
            obs, rewards, terms, truncs, infos = env.step(actions)
            decisions += 1
            illegal += sum(bool(i.get("illegal")) for i in infos.values())
        matches += 1
    assert matches == 4 and decisions > 100
    assert illegal == 0


def test_a_parallel_step_plays_only_the_acting_agents_decision():
    env = mtpz.parallel_env(players=3, rounds=1)
    obs, _ = env.reset(seed=2)
    state = env._aec.state.clone()
    agent = next(a for a in env.agents if obs[a]["action_mask"].any())
    action = int(np.flatnonzero(obs[agent]["action_mask"])[-1])
    others = {a: 0 for a in env.agents if a != agent}
    _, _, _, _, infos = env.step({agent: action, **others})
    state.apply_action(action)
    assert env._aec.state.legal_actions() == state.legal_actions()
    assert env._aec.state.current_player() == state.current_player()
    assert infos[agent] == {"illegal": False} and all(infos[a] == {} for a in others)


@pytest.mark.parametrize("bad", [2.7, True, np.float32(3.0), "3"])
def test_a_float_or_bool_action_is_refused_and_any_integer_flagged(bad):
    env = mtpz.env(players=2, rounds=1)
    env.reset(seed=1)
    with pytest.raises(TypeError, match="action must be an integer action number"):
        env.step(bad)
    for action in [-1, np.int64(-1), np.int32(10**6), None]:
        agent = env.agent_selection
        env.step(action)
        assert env.infos[agent]["illegal"] is True
    legal = env.state.legal_actions()
    agent = env.agent_selection
    env.step(np.uint8(legal[0]) if legal[0] < 256 else np.int64(legal[0]))
    assert env.infos[agent]["illegal"] is False


def test_pettingzoos_render_test_passes_in_both_modes(capsys):
    render_test(lambda render_mode=None: mtpz.env(players=3, rounds=1, render_mode=render_mode))
    assert "engine" in capsys.readouterr().out  # "human" printed the board


def test_render_without_a_render_mode_warns_and_shows_nothing():
    env = mtpz.env(players=3, rounds=1)
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode=\"ansi\""):
        assert env.render() is None
    with pytest.warns(UserWarning, match="without a render mode"):
        assert mtpz.parallel_env(players=3, rounds=1).render() is None
