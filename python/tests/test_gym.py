"""The single-agent environment: one seat against the built-in bots."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from mtrain import gym as mtgym  # noqa: E402


def test_gymnasiums_checker_passes():
    check_env(mtgym.env(opponents=["greedy", "planner"], rounds=2).unwrapped, skip_render_check=True)


@pytest.mark.parametrize("opponents", [["greedy"], ["planner", "random", "cutthroat"], ["expert"]])
def test_an_episode_is_a_match_against_the_bots(opponents):
    e = mtgym.env(opponents=opponents, rounds=2)
    obs, info = e.reset(seed=3)
    total, steps, done = 0.0, 0, False
    while not done:
        legal = obs["action_mask"].nonzero()[0]
        assert len(legal) >= 2
        obs, reward, done, truncated, info = e.step(int(legal[-1]))
        assert not truncated and not info["illegal"]
        total += reward
        steps += 1
    state = e.state
    assert state.is_terminal() and steps > 3
    assert total == pytest.approx(-state.scores()[0] / 100 + state.returns()[0])


def test_the_same_seed_replays_the_episode_and_illegal_actions_are_replaced():
    def run(seed):
        e = mtgym.env(opponents=["greedy", "planner"], rounds=1)
        obs, _ = e.reset(seed=seed)
        out, done = [], False
        while not done:
            obs, reward, done, _, info = e.step(0)  # action 0 is rarely legal: replaced
            out.append((obs["observation"].tobytes(), reward))
        return out, info["illegal"]

    a, illegal = run(7)
    assert a == run(7)[0]
    assert a != run(8)[0]
    assert isinstance(illegal, bool)


def test_a_bad_opponent_is_refused():
    with pytest.raises(ValueError, match="alien"):
        mtgym.env(opponents=["alien"])
    assert np.issubdtype(mtgym.env().observation_space["observation"].dtype, np.floating)


@pytest.mark.filterwarnings("ignore:.*not having a spec")  # made directly, not by gymnasium.make
def test_the_checker_passes_with_a_render_mode():
    check_env(mtgym.env(opponents=["greedy"], rounds=1, render_mode="ansi").unwrapped)


def test_any_integer_action_is_taken_or_flagged_and_floats_and_bools_are_refused():
    e = mtgym.env(opponents=["greedy", "random"], rounds=1)
    obs, _ = e.reset(seed=4)
    for action in [-1, np.int64(-1), 10**6, 2**70]:
        obs, _, done, _, info = e.step(action)
        assert info["illegal"] is True
        if done:
            obs, _ = e.reset()
    for action in [np.int8, np.uint16, np.int32, np.int64]:
        legal = int(obs["action_mask"].nonzero()[0][-1])
        if np.iinfo(action).max >= legal:
            obs, _, done, _, info = e.step(action(legal))
            assert info["illegal"] is False
            if done:
                obs, _ = e.reset()
    for bad in [2.7, float(obs["action_mask"].nonzero()[0][0]), True, np.float32(1), np.bool_(False)]:
        with pytest.raises(TypeError, match=r"action must be an integer action number \(0 to \d+\); got"):
            e.step(bad)


def test_render_modes(capsys):
    e = mtgym.env(opponents=["greedy"], rounds=1, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text.startswith("Round 1 · engine 12-12") and "Hand of seat 0" in text
    e = mtgym.env(opponents=["greedy"], rounds=1, render_mode="human")
    e.reset(seed=1)
    assert e.render() is None
    assert capsys.readouterr().out == text
    with pytest.warns(UserWarning, match="without a render mode"):
        assert mtgym.env().render() is None
    with pytest.raises(ValueError, match="render_mode 'rgb_array': valid are"):
        mtgym.env(render_mode="rgb_array")
