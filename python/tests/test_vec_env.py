"""mtrain.vec_env: many games stepped in Rust, arrays written in place."""

import numpy as np
import pytest

import mtrain


def first_legal(mask):
    return mask.argmax(axis=1).astype(np.int64)


def random_legal(mask, rng):
    return (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int64)


def test_the_arrays_have_their_shapes_and_every_game_has_a_choice():
    env = mtrain.vec_env(16, ["greedy", "planner", "random"], rounds=2, seed=3)
    game = mtrain.Game(players=4)
    assert env.obs.shape == (16, game.observation_shape()[0]) and env.obs.dtype == np.float32
    assert env.mask.shape == (16, game.num_distinct_actions()) and env.mask.dtype == np.uint8
    assert (env.mask.sum(axis=1) >= 2).all()
    obs = env.obs  # the same array, written in place
    env.step(first_legal(env.mask))
    assert obs is not None and np.shares_memory(obs, env.obs)
    assert (env.mask.sum(axis=1) >= 2).all()
    # Each step rewrites only what changed in a row, so the rows are read-only; a copy is not.
    with pytest.raises(ValueError, match="read-only"):
        env.obs[0, 0] = 1.0
    mine = env.obs.copy()
    mine[0, 0] = 1.0


def test_episodes_end_reset_and_replay_from_the_seed():
    def run(seed):
        env = mtrain.vec_env(8, ["greedy"], players=3, rounds=1, seed=seed)
        rng = np.random.default_rng(0)
        out, ends = [], 0
        for _ in range(200):
            env.step(random_legal(env.mask, rng))
            out.append((env.rewards.copy(), env.dones.copy()))
            ends += int(env.dones.sum())
        return out, ends

    a, ends = run(5)
    assert ends > 8, "matches end and are dealt again"
    b, _ = run(5)
    assert all((x[0] == y[0]).all() and (x[1] == y[1]).all() for x, y in zip(a, b))
    c, _ = run(6)
    assert any((x[0] != y[0]).any() for x, y in zip(a, c))


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="alien"):
        mtrain.vec_env(4, ["alien"])
    env = mtrain.vec_env(4, ["greedy"])
    with pytest.raises(ValueError, match="3 actions for 4 games"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="3 actions for 4 games"):
        env.step([1, 2, 3])
    with pytest.raises(ValueError, match=r"shape \(4,\) .*; got shape \(4, 1\)"):
        env.step(np.zeros((4, 1), dtype=np.int64))
    with pytest.raises(TypeError, match="got float32 values"):
        env.step(np.zeros(4, dtype=np.float32))
    with pytest.raises(TypeError, match="got float64 values"):
        env.step([0.0, 1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="got bool values"):
        env.step(np.ones(4, dtype=bool))
    with pytest.raises(TypeError, match="got object values"):
        env.step([1, None, 2, 3])


class ArrayLike:
    """An array of another library (a JAX or torch CPU array): numpy reads it through __array__."""

    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        return self.a if dtype is None else self.a.astype(dtype)


@pytest.mark.parametrize(
    "convert",
    [
        lambda a: a.astype(np.int8),
        lambda a: a.astype(np.int16),
        lambda a: a.astype(np.int32),
        lambda a: a.astype(np.uint16),
        lambda a: a.astype(np.uint64),
        lambda a: np.stack([a, a], axis=1)[:, 1],  # strided
        lambda a: a.tolist(),
        lambda a: tuple(int(x) for x in a),
        lambda a: ArrayLike(a.astype(np.int32)),  # as a JAX array converts: through __array__
    ],
)
def test_every_integer_dtype_plays_the_same_as_int64(convert):
    def run(conv):
        # Double-6: every action number (87 of them) fits in an int8.
        env = mtrain.vec_env(6, ["greedy"], players=2, set=6, rounds=1, seed=8)
        out = []
        for _ in range(40):
            env.step(conv(first_legal(env.mask).astype(np.int16)))
            out.append(env.obs.copy())
        return out

    assert all((x == y).all() for x, y in zip(run(lambda a: a.astype(np.int64)), run(convert)))


def test_illegal_actions_are_flagged_and_infos_returned():
    env = mtrain.vec_env(8, ["greedy"], players=3, rounds=1, seed=2)
    assert not env.illegal.any() and env.illegal.dtype == np.bool_
    actions = first_legal(env.mask)
    actions[::2] = -1  # odd rows legal, even rows illegal
    obs, rewards, dones, infos = env.step(actions)
    assert obs is env.obs or np.shares_memory(obs, env.obs)
    assert list(env.illegal) == [True, False] * 4
    assert infos["illegal"] is not None and list(infos["illegal"]) == list(env.illegal)
    assert list(infos["episode"]) == [0] * 8
    env.step(first_legal(env.mask))
    assert not env.illegal.any()
    for _ in range(300):
        env.step(first_legal(env.mask))
    assert (env.episodes >= 1).all(), "matches end and the next of each stream is dealt"


def test_vec_env_is_also_known_as_VecEnv_and_the_state_tensor_is_numpy():
    env = mtrain.VecEnv(4, players=3, opponents=["greedy", "random"], seed=9)
    assert env.obs.shape[0] == 4 and len(env) == 4
    state = mtrain.Game(players=3).new_state(1)
    t = state.observation_tensor(state.current_player())
    assert isinstance(t, np.ndarray) and t.dtype == np.float32
    assert t.shape == mtrain.Game(players=3).observation_shape()
    assert (t >= 0).all() and (t <= 1).all() and t.sum() > 10  # scaled to 0..1, a hand's worth of ones
