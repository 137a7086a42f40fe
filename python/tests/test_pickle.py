"""Pickling and copying: Game, State, Solo, VecEnv and the envs travel by recipe and come back
playing the same match."""

import copy
import pickle
import random

import numpy as np
import pytest

import mtrain
from mtrain._mtrain import Solo, VecEnv

#: Tables with different presets, sizes and rule changes (house rules included).
TABLES = [
    dict(rules="wikipedia", players=4, set=12, rounds=2),
    dict(rules="dominorules", players=3, set=9, rounds=2),
    dict(rules="celko1998", players=2, set=12, rounds=2),
    dict(rules="family_house", players=5, set=12, rounds=1),
    dict(rules="wikipedia", players=4, set=9, rounds=2, options={"tap": "draw_two", "blanks_wild": True}),
    dict(rules="harbour_cay", players=3, set=12, rounds=1, options=["swan_drive=true", "bullet_train=true"]),
]


def game_of(table):
    t = dict(table)
    return mtrain.Game(t.pop("rules"), **t)


def snapshot(state):
    """Everything a state shows, for every seat."""
    n = len(state.scores())
    return (
        state.current_player(),
        state.legal_actions(),
        state.returns(),
        state.scores(),
        state.round(),
        state.is_terminal(),
        [state.observation(p) for p in range(n)],
        [state.observation_tensor(p).tobytes() for p in range(n)],
    )


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t['rules']}-{t['players']}-{t['set']}")
def test_a_game_pickles_and_copies_as_its_table(table):
    game = game_of(table)
    back = pickle.loads(pickle.dumps(game))
    assert back == game and repr(back) == repr(game)
    assert back.num_distinct_actions() == game.num_distinct_actions()
    assert back.observation_shape() == game.observation_shape()
    assert copy.deepcopy(game) is game and copy.copy(game) is game
    assert mtrain.Game("dominorules", players=2, rounds=1) != game


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t['rules']}-{t['players']}-{t['set']}")
def test_a_replayed_state_is_the_state_all_along_random_playthroughs(table):
    game = game_of(table)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_state(seed * 1000 + 7)
        steps = 0
        while True:
            if steps % 5 == 0 or state.is_terminal():
                text = state.serialize()
                for back in (
                    game.deserialize_state(text),
                    pickle.loads(pickle.dumps(state)),
                    copy.deepcopy(state),
                    copy.copy(state),
                ):
                    assert snapshot(back) == snapshot(state)
                    assert back.serialize() == text
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
        assert state.history_len() == steps > 5
        # The copy taken halfway plays on to the same end.
        again = game.new_state(seed * 1000 + 7)
        rng = random.Random(seed)
        for _ in range(steps // 2):
            again.apply_action(rng.choice(again.legal_actions()))
        half = pickle.loads(pickle.dumps(again))
        for _ in range(steps - steps // 2):
            a = rng.choice(again.legal_actions())
            again.apply_action(a)
            half.apply_action(a)
        assert snapshot(half) == snapshot(again) == snapshot(state)


def test_a_resampled_state_replays_with_its_resampling():
    game = mtrain.Game("wikipedia", players=4, rounds=2)
    state = game.new_state(3)
    rng = random.Random(4)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    world = state.resample_from_infostate((state.current_player() + 1) % 4, 77)
    for _ in range(6):
        world.apply_action(rng.choice(world.legal_actions()))
    back = pickle.loads(pickle.dumps(world))
    assert snapshot(back) == snapshot(world)
    assert '"resamples"' in world.serialize() and '"resamples"' not in state.serialize()


def test_serialising_costs_little_and_the_recipe_is_compact():
    game = mtrain.Game("wikipedia", players=4)
    state = game.new_state(11)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    text = state.serialize()
    assert len(text) < 8 * state.history_len() + 100
    assert snapshot(game.deserialize_state(text)) == snapshot(state)


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "not a serialised mtrain state"),
        ("{}", "not a serialised mtrain state"),
        ('{"format":"mtrain-state","version":2,"seed":1,"actions":[]}', "version 2"),
        ('{"format":"other","version":1,"seed":1,"actions":[]}', "format \"other\""),
        ('{"format":"mtrain-state","version":1,"seed":1,"actions":[65535]}', "not a state of this game"),
        (
            '{"format":"mtrain-state","version":1,"seed":1,"actions":[],"resamples":[{"after":3,"player":0,"seed":1}]}',
            "past the end",
        ),
    ],
)
def test_a_bad_serialised_state_raises_one_clear_line(text, words):
    game = mtrain.Game("wikipedia", players=4, rounds=1)
    with pytest.raises(ValueError, match=words) as e:
        game.deserialize_state(text)
    assert "\n" not in str(e.value)


def test_a_state_of_another_game_does_not_replay_silently():
    big = mtrain.Game("wikipedia", players=4, set=12, rounds=1)
    state = big.new_state(2)
    rng = random.Random(2)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="not a state of this game"):
        mtrain.Game("wikipedia", players=3, set=12, rounds=1).deserialize_state(state.serialize())


def test_a_solo_copy_of_the_state_says_it_has_no_recipe():
    solo = Solo(mtrain.Game("wikipedia", players=3, rounds=1), ["greedy"], 0)
    solo.reset(5)
    with pytest.raises(ValueError, match="no recipe"):
        pickle.dumps(solo.state())
    # Copies in memory still work.
    assert copy.deepcopy(solo.state()).scores() == solo.state().scores()


def first_legal(mask):
    return int(np.flatnonzero(np.frombuffer(bytes(mask), dtype=np.uint8))[0]) if len(mask) else 0


def test_a_solo_pickled_mid_match_plays_on_identically():
    game = mtrain.Game("dominorules", players=4, rounds=2)
    solo = Solo(game, ["greedy", "planner", "random"], 1)
    obs, mask = solo.reset(8)
    rng = random.Random(3)
    for _ in range(10):
        legal = np.flatnonzero(np.frombuffer(bytes(mask), dtype=np.uint8))
        obs, mask, _, over, _ = solo.step(int(rng.choice(legal)))
        assert not over
    for twin in (pickle.loads(pickle.dumps(solo)), copy.deepcopy(solo)):
        assert twin.state().scores() == solo.state().scores()
    twin = pickle.loads(pickle.dumps(solo))
    a_mask, over = mask, False
    while not over:
        legal = np.flatnonzero(np.frombuffer(bytes(a_mask), dtype=np.uint8))
        action = int(rng.choice(legal))
        a = solo.step(action)
        b = twin.step(action)
        assert a == b
        a_mask, over = a[1], a[3]
    # A fresh Solo (no match dealt) pickles too.
    fresh = pickle.loads(pickle.dumps(Solo(game, ["greedy"], 0)))
    with pytest.raises(RuntimeError, match="reset"):
        fresh.step(0)


def test_a_vec_env_pickled_mid_run_steps_on_identically():
    game = mtrain.Game("wikipedia", players=3, rounds=1)
    env = VecEnv(6, game, ["greedy", "random"], 0, 5)
    env.reset()
    rng = np.random.default_rng(0)

    def actions(mask):
        return np.array([rng.choice(np.flatnonzero(row)) for row in mask], dtype=np.int64)

    for _ in range(25):
        env.step(actions(env.mask))
    twin = pickle.loads(pickle.dumps(env))
    for field in ("obs", "mask", "rewards", "dones"):
        assert np.array_equal(getattr(twin, field), getattr(env, field))
    assert len(twin) == 6
    ended = 0
    for _ in range(60):
        acts = actions(env.mask)
        env.step(acts)
        twin.step(acts)
        ended += int(env.dones.sum())
        for field in ("obs", "mask", "rewards", "dones"):
            assert np.array_equal(getattr(twin, field), getattr(env, field))
    assert ended > 0, "games ended and were dealt again in both"
    deep = copy.deepcopy(env)
    assert np.array_equal(deep.obs, env.obs)


def test_a_vec_env_pickled_after_illegal_actions_replays_their_substitutes():
    # An illegal action plays the first legal move, which the replay records by its number:
    # the twin must step on in the same games (a wrong number would not replay, or replay
    # another move).
    env = VecEnv(4, mtrain.Game("wikipedia", players=4, rounds=2), ["greedy"], 0, 11)
    env.reset()
    rng = np.random.default_rng(3)
    flagged = 0
    for k in range(40):
        acts = np.array([rng.choice(np.flatnonzero(row)) for row in env.mask], dtype=np.int64)
        if k % 3 == 0:
            acts[k % 4] = -1
        elif k % 3 == 1:
            acts[(k + 1) % 4] = int(np.flatnonzero(env.mask[(k + 1) % 4] == 0)[0])
        env.step(acts)
        flagged += int(env.illegal.sum())
    assert flagged >= 26, "every third step has an action outside the mask and one out of range"
    twin = pickle.loads(pickle.dumps(env))
    for _ in range(40):
        acts = np.array([rng.choice(np.flatnonzero(row)) for row in env.mask], dtype=np.int64)
        env.step(acts)
        twin.step(acts)
        for field in ("obs", "mask", "rewards", "dones"):
            assert np.array_equal(getattr(twin, field), getattr(env, field))


class Counter:
    """A Python bot with no state of its own: picks the first legal move."""

    def choose(self, observation, legal):
        return 0


def test_python_bots_travel_with_the_env():
    from mtrain.gym import MexicanTrainEnv

    env = MexicanTrainEnv(opponents=[Counter(), "greedy"], rounds=1)
    obs, _ = env.reset(seed=4)
    twin = pickle.loads(pickle.dumps(env))
    rng = random.Random(1)
    done = False
    while not done:
        action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, _, info = env.step(action)
        o2, r2, d2, _, i2 = twin.step(action)
        assert np.array_equal(o2["observation"], obs["observation"]) and (r2, d2) == (reward, done)
        assert info["illegal"] == i2["illegal"]


def test_the_gym_env_pickles_mid_match():
    from mtrain.gym import MexicanTrainEnv

    env = MexicanTrainEnv(opponents=["greedy", "planner", "expert:samples=4"], rounds=2)
    obs, _ = env.reset(seed=11)
    rng = random.Random(5)
    for _ in range(6):
        obs, *_ = env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        state_a, state_b = env.state, twin.state
        assert state_a.scores() == state_b.scores()
    twin = copy.deepcopy(env)
    done = False
    while not done:
        action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, trunc, info = env.step(action)
        o2, r2, d2, t2, _ = twin.step(action)
        assert np.array_equal(o2["observation"], obs["observation"])
        assert np.array_equal(o2["action_mask"], obs["action_mask"])
        assert (r2, d2, t2) == (reward, done, trunc)
    # The environments' own random streams travel too: the next episode deals alike.
    assert np.array_equal(env.reset()[0]["observation"], twin.reset()[0]["observation"])


def test_the_pettingzoo_envs_pickle_mid_match():
    from mtrain.pettingzoo import env as aec_env
    from mtrain.pettingzoo import parallel_env

    aec = aec_env(players=3, rounds=1)
    aec.reset(seed=6)
    rng = random.Random(6)

    def act(e):
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        return None if e.terminations[agent] or e.truncations[agent] else int(rng.choice(np.flatnonzero(mask)))

    for _ in range(8):
        aec.step(act(aec))
    twin = pickle.loads(pickle.dumps(aec))
    while aec.agents:
        a = act(aec)
        aec.step(a)
        twin.step(a)
        assert twin.agent_selection == aec.agent_selection
        assert twin.rewards == aec.rewards and twin.terminations == aec.terminations
        if aec.agents:
            assert np.array_equal(
                twin.observe(aec.agent_selection)["observation"], aec.observe(aec.agent_selection)["observation"]
            )
    assert twin.agents == []

    par = parallel_env(players=3, rounds=1)
    obs, _ = par.reset(seed=6)
    for _ in range(4):
        obs, *_ = par.step(
            {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0 for a, o in obs.items()}
        )
    twin = copy.deepcopy(par)
    while par.agents:
        acts = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0 for a, o in obs.items()
        }
        obs, rew, term, trunc, _ = par.step(acts)
        o2, r2, t2, u2, _ = twin.step(acts)
        assert rew == r2 and term == t2 and trunc == u2
        for a in obs:
            assert np.array_equal(obs[a]["observation"], o2[a]["observation"])


def test_the_quoted_recipe_costs_are_the_csvs():
    import csv
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    rows = {r["what"]: float(r["seconds"]) for r in csv.DictReader(open(root / "results/benchmarks/recipe.csv"))}
    doc = (root / "docs/python.md").read_text()
    m = re.search(
        r"`serialize\(\)` (\d+) µs, the\nreplaying `deserialize_state\(\)` ([\d.]+) ms, a pickle round trip ([\d.]+) ms, "
        r"`copy.deepcopy` (\d+) µs.",
        doc,
    )
    assert m, "docs/python.md quotes the recipe costs"
    assert int(m.group(1)) == round(rows["serialize"] * 1e6)
    assert float(m.group(2)) == round(rows["deserialize_state"] * 1e3, 2)
    assert float(m.group(3)) == round(rows["pickle_round_trip"] * 1e3, 2)
    assert int(m.group(4)) == round(rows["deepcopy"] * 1e6)
    sim = re.search(r"simulations\) takes ([\d.]+) s there", doc)
    assert sim and float(sim.group(1)) == round(rows["random_sim_test_3_sims"], 2)


def test_a_recipe_names_its_table():
    game = mtrain.Game("wikipedia", players=4, rounds=1, options={"tap": "draw_two"})
    text = game.new_state(1).serialize()
    assert '"preset":"wikipedia"' in text and "tap=draw_two" in text
    with pytest.raises(ValueError, match="not a state of this game: it was played on"):
        mtrain.Game("wikipedia", players=4, rounds=1).deserialize_state(text)
