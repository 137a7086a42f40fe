"""mtrain.openspiel: the game registered with pyspiel and OpenSpiel's own tests and algorithms."""

import json
import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (open_spiel) is not installed")

import mtrain  # noqa: E402
import mtrain.openspiel  # noqa: E402,F401  (registers "mtrain")

SMALL = {"players": 3, "set": 9, "rounds": 1}


def dealt(game, deal=0):
    """A match of `game` past its opening chance node."""
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(deal)
    return state


def random_play(state, rng, limit=None):
    steps = 0
    while not state.is_terminal() and (limit is None or steps < limit):
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def test_the_game_loads_with_its_parameters_and_facts():
    game = pyspiel.load_game("mtrain", {"rules": "dominorules", "players": 4, "set": 12, "rounds": 2})
    table = mtrain.Game("dominorules", players=4, set=12, rounds=2)
    assert game.num_players() == 4
    assert game.num_distinct_actions() == table.num_distinct_actions()
    assert game.observation_tensor_shape() == list(table.observation_shape())
    assert game.information_state_tensor_shape() == list(table.observation_shape())
    assert game.min_utility() == pytest.approx(-0.25) and game.max_utility() == pytest.approx(0.75)
    assert game.utility_sum() == 0.0
    tiles = 13 * 14 // 2
    assert game.max_game_length() == 1 + 2 * (3 * tiles + 2 * 4)
    assert game.max_chance_outcomes() == 65536
    t = game.get_type()
    assert t.short_name == "mtrain"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    # Defaults: wikipedia, 4 players, double-12, the preset's deal and every round.
    default = pyspiel.load_game("mtrain")
    assert default.num_players() == 4
    assert default.max_game_length() == 1 + 13 * (3 * tiles + 2 * 4)
    # Rule changes and the game string round trip.
    house = pyspiel.load_game("mtrain", {"options": "tap:draw_two;blanks_wild:true", "players": 3, "deals": 10})
    again = pyspiel.load_game(str(house))
    assert str(again) == str(house)
    assert again.num_distinct_actions() == mtrain.Game(players=3, options=["tap=draw_two", "blanks_wild=true"]).num_distinct_actions()


def test_bad_parameters_raise_one_clear_line():
    with pytest.raises(Exception, match="set"):
        pyspiel.load_game("mtrain", {"set": 7})
    with pytest.raises(Exception, match="nonsense"):
        pyspiel.load_game("mtrain", {"options": "nonsense:1"})
    for bad in ("tap=draw_two", "tap:draw_two,blanks_wild:true"):
        with pytest.raises(Exception, match="write rule changes as 'key:value;key:value'"):
            pyspiel.load_game("mtrain", {"options": bad})
    with pytest.raises(Exception, match="deals 0"):
        pyspiel.load_game("mtrain", {"deals": 0})


def test_random_sim_test_passes_with_serialisation():
    for params in (
        SMALL,
        {"players": 2, "set": 9, "options": "tap:draw_two;blanks_wild:true", "deals": 100},
        {"rules": "harbour_cay", "players": 4, "rounds": 1},
    ):
        game = pyspiel.load_game("mtrain", params)
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_serialize_game_and_state_round_trips_along_a_match():
    game = pyspiel.load_game("mtrain", dict(SMALL, seed=5))
    state = game.new_initial_state()
    assert str(pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]) == str(state)
    state.apply_action(1234)
    rng = random.Random(1)
    while True:
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(state2) == str(state) and state2.history() == state.history()
        for p in range(game.num_players()):
            assert state2.information_state_string(p) == state.information_state_string(p)
            assert state2.observation_tensor(p) == state.observation_tensor(p)
        assert state2.returns() == state.returns()
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.history()) <= game.max_game_length()
    # And pickling an OpenSpiel state goes the same way.
    back = pickle.loads(pickle.dumps(state))
    assert str(back) == str(state)


def test_the_state_api():
    game = pyspiel.load_game("mtrain", dict(SMALL, seed=9))
    state = game.new_initial_state()
    n = game.num_players()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 65536 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert state.returns() == [0.0] * n and state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal 7"
    assert not np.any(state.observation_tensor(0))
    state.apply_action(7)
    rng = random.Random(3)
    length = 0
    while not state.is_terminal():
        p = state.current_player()
        assert 0 <= p < n
        legal = state.legal_actions()
        assert legal == state.legal_actions(p) == sorted(legal) and len(legal) >= 2
        for q in range(n):
            if q != p:
                assert state.legal_actions(q) == []
            info = state.information_state_string(q)
            obs = state.observation_string(q)
            assert json.loads(info)["seat"] == q and "events" in json.loads(info)
            assert "events" not in json.loads(obs)
            assert np.array_equal(state.observation_tensor(q), state.information_state_tensor(q))
            assert np.array_equal(state.observation_tensor(q), state.mtrain.observation_tensor(q))
        assert state.rewards() == [0.0] * n and state.returns() == [0.0] * n
        assert state.action_to_string(p, legal[0]) == state.mtrain.action_to_string(legal[0])
        state.apply_action(rng.choice(legal))
        length += 1
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9 and max(returns) > 0
    assert state.rewards() == returns
    for q in range(n):
        # At the end the observation says so, and never raises.
        assert json.loads(state.observation_string(q))["type"] == "over"
        assert not np.any(state.observation_tensor(q))
    assert length <= game.max_game_length()


def test_clones_are_independent_and_deals_follow_the_outcome_and_the_seed():
    game = pyspiel.load_game("mtrain", dict(SMALL, seed=3))
    a = dealt(game, 5)
    b = a.clone()
    a.apply_action(a.legal_actions()[0])
    assert len(b.history()) == 1 and len(a.history()) == 2
    hands = lambda s: s.mtrain.observation(0)["hand"]  # noqa: E731
    same = pyspiel.load_game("mtrain", dict(SMALL, seed=3))
    assert hands(dealt(same, 5)) == hands(b)
    assert hands(dealt(same, 6)) != hands(b)
    other = pyspiel.load_game("mtrain", dict(SMALL, seed=4))
    assert hands(dealt(other, 5)) != hands(b)


def test_information_states_match_across_resampled_worlds():
    game = pyspiel.load_game("mtrain", dict(SMALL, players=4, seed=2))
    state = dealt(game, 2)
    random_play(state, random.Random(2), limit=10)
    for p in range(4):
        sampler = iter(np.linspace(0.1, 0.9, 4))
        worlds = [state.resample_from_infostate(p, lambda: next(sampler)) for _ in range(4)]
        for w in worlds:
            assert w.information_state_string(p) == state.information_state_string(p)
            assert w.observation_tensor(p) == state.observation_tensor(p)
            assert w.current_player() == state.current_player()
        q = (p + 1) % 4
        assert len({w.information_state_string(q) for w in worlds}) > 1


def test_evaluate_bots_with_uniform_random_bots():
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("mtrain", dict(SMALL, seed=1))
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(3)]
    total = np.zeros(3)
    for k in range(4):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(k))
        assert abs(sum(returns)) < 1e-9
        total += returns
    assert total.max() > 0


def test_mcts_and_ismcts_play_a_match():
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    game = pyspiel.load_game("mtrain", {"players": 2, "set": 6, "rounds": 1, "seed": 7})
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    search = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rs)
    fair = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs)
    for bots in ([search, fair], [fair, search]):
        # (evaluate_bots needs Bot.restart_at, which these Python bots do not have.)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rs.randint(game.max_chance_outcomes())))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        assert len(returns) == 2 and abs(sum(returns)) < 1e-9
