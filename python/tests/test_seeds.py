"""The one seed rule: a stream seed S gives its k-th match the match seed episode_seed(S, k);
environments reset with seed=S play that stream; game i of vec_env(seed=S) plays the stream
stream_seed(S, i); Game.new_state(episode_seed(S, k)) is the same match."""

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import mtrain  # noqa: E402
import mtrain.gym as mtgym  # noqa: E402
import mtrain.pettingzoo as mtpz  # noqa: E402


class Picky:
    """A Python bot whose choice is a function of what it sees, so a test can make the same choice
    by hand from State.observation: move (hand size * 7 + 3) mod the number of moves."""

    def choose(self, observation, legal):
        return pick(observation["hand"], len(legal))


def pick(hand, n):
    return (len(hand) * 7 + 3) % n


def test_the_seed_functions_are_fixed_and_refuse_bad_seeds():
    # Pinned values: changing them changes every seeded environment.
    assert mtrain.episode_seed(1, 0) == 10451216379200822465
    assert mtrain.stream_seed(1, 0) == 18152353299448327883
    assert mtrain.episode_seed(np.uint64(1), np.int8(0)) == mtrain.episode_seed(1, 0)
    assert len({mtrain.episode_seed(7, k) for k in range(100)}) == 100
    assert len({mtrain.stream_seed(7, i) for i in range(100)} | {mtrain.episode_seed(7, k) for k in range(100)}) == 200
    with pytest.raises(ValueError, match="seed must be an integer from 0 to 18446744073709551615; got -1"):
        mtrain.episode_seed(-1, 0)
    with pytest.raises(TypeError, match="k must be an integer"):
        mtrain.episode_seed(1, 0.5)


def by_hand(state, seat, actions):
    """Plays `state` to its end: `actions` (an iterator) for `seat`, Picky's choice for the others.
    Returns the final scores."""
    while not state.is_terminal():
        p = state.current_player()
        if p == seat:
            state.apply_action(next(actions))
        else:
            obs = state.observation(p)
            state.apply_action(obs["actions"][pick(obs["hand"], len(obs["actions"]))])
    assert next(actions, None) is None, "the seat made as many decisions"
    return state.scores()


def test_aec_env_reset_plays_episode_seed_and_then_the_next_matches():
    game = mtrain.Game(players=3, rounds=2)
    env = mtpz.env(players=3, rounds=2)
    for k, seed in enumerate([11, None, None]):
        env.reset(seed=seed)
        state = game.new_state(mtrain.episode_seed(11, k))
        while not state.is_terminal():
            agent = env.agent_selection
            assert agent == f"player_{state.current_player()}"
            obs = env.observe(agent)
            assert (obs["observation"] == state.observation_tensor(state.current_player())).all()
            legal = state.legal_actions()
            assert list(np.flatnonzero(obs["action_mask"])) == legal
            action = legal[len(legal) // 2]
            env.step(action)
            state.apply_action(action)
        assert env.state.scores() == state.scores()


def test_gym_env_vec_env_row_and_a_state_by_hand_play_the_same_matches():
    seed, rows, steps = 5, 3, 150
    vec = mtrain.vec_env(rows, [Picky()], players=2, rounds=1, seed=seed)
    rng = np.random.default_rng(0)
    actions, out = [], []
    for _ in range(steps):
        a = (rng.random(vec.mask.shape) * vec.mask).argmax(axis=1)
        actions.append(a)
        vec.step(a)
        out.append((vec.obs.copy(), vec.mask.copy(), vec.rewards.copy(), vec.dones.copy()))
    assert sum(int(o[3].sum()) for o in out) >= 2 * rows, "several matches per game"
    for i in range(rows):
        env = mtgym.env(opponents=[Picky()], rounds=1)
        env.reset(seed=mtrain.stream_seed(seed, i))
        k = 0
        state = mtrain.Game(players=2, rounds=1).new_state(mtrain.episode_seed(mtrain.stream_seed(seed, i), 0))
        mine = []
        for t in range(steps):
            obs, reward, done, _, _ = env.step(actions[t][i])
            mine.append(int(actions[t][i]))
            assert (obs["observation"] == out[t][0][i]).all() or done
            assert reward == pytest.approx(out[t][2][i]) and done == out[t][3][i]
            if done:
                # The same match by hand: the seat's actions, the opponent's choices as Picky makes them.
                assert by_hand(state, 0, iter(mine)) == env.state.scores()
                obs, _ = env.reset()
                k += 1
                assert (obs["observation"] == out[t][0][i]).all() and (obs["action_mask"] == out[t][1][i]).all()
                state = mtrain.Game(players=2, rounds=1).new_state(mtrain.episode_seed(mtrain.stream_seed(seed, i), k))
                mine = []
        assert k >= 2
