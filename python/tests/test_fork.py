"""vec_env and tournaments in a child forked after the parent used them: each process steps its
games on a pool of its own, so the child finishes, with the parent's results for the same seed."""

import multiprocessing
import sys

import numpy as np
import pytest

import mtrain

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="fork is the Linux start method")


def play(seed):
    env = mtrain.vec_env(32, ["greedy"], players=3, rounds=1, seed=seed)
    total = np.zeros(32)
    for _ in range(60):
        env.step(env.mask.argmax(axis=1))
        total += env.rewards
    return total.tolist()


def in_child(queue):
    queue.put(("vec_env", play(4)))
    r = mtrain.tournament(bots=["greedy", "random"], players=2, games=40, seed=3, threads=2)
    queue.put(("tournament", r.report))


def test_a_forked_child_steps_vec_env_and_plays_a_tournament():
    parent = play(4)  # the parent's pool is started before the fork
    expected = mtrain.tournament(bots=["greedy", "random"], players=2, games=40, seed=3, threads=2).report
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=in_child, args=(queue,))
    child.start()
    try:
        got = dict(queue.get(timeout=120) for _ in range(2))
        child.join(timeout=60)
    finally:
        if child.is_alive():
            child.kill()
    assert child.exitcode == 0
    assert got["vec_env"] == parent
    assert got["tournament"] == expected
