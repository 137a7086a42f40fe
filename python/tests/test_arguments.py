"""Every argument is checked in one place: a bad one raises a ValueError (a TypeError for a
value of the wrong type) naming the keyword and its valid range; rule options are taken as a
dict or as a list of "rule=value" strings everywhere."""

import os
import re

import pytest

import mtrain

U64 = "18446744073709551615"


def state():
    return mtrain.Game(players=2).new_state(1)


def actions():
    return mtrain.Game(players=2).num_distinct_actions()


# (call, keyword, words of the range the message must give)
REFUSED = [
    (lambda: mtrain.tournament("greedy", players=2, games=-5), "games", f"from 1 to {U64}; got -5"),
    (lambda: mtrain.tournament("greedy", players=2, games=0), "games", f"from 1 to {U64}; got 0"),
    (lambda: mtrain.tournament("greedy", players=2, games=10, seed=-1), "seed", f"from 0 to {U64}; got -1"),
    (lambda: mtrain.tournament("greedy", players=2, games=10, seed=2**64), "seed", f"from 0 to {U64}; got {2**64}"),
    (lambda: mtrain.tournament("greedy", players=-3, games=10), "players", "from 2 to 16; got -3"),
    (lambda: mtrain.tournament("greedy", players=2, games=10, set=7), "set", "one of 6, 9, 12, 15, 18; got 7"),
    (lambda: mtrain.tournament("greedy", players=2, games=10, hand=-1), "hand", "from 1 to 255; got -1"),
    (lambda: mtrain.tournament("greedy", players=2, games=10, rounds=14), "rounds", "from 1 to 13; got 14"),
    (lambda: mtrain.tournament("greedy", players=2, games=10, threads=0), "threads", "from 1 to"),
    (lambda: mtrain.tournament("greedy", players=2, games=10, threads=10**6), "threads", "4 per core, at least 16"),
    (lambda: mtrain.balance(players=(6, 3), games=10), "players", "(lo, hi) with 2 <= lo <= hi <= 16; got (6, 3)"),
    (lambda: mtrain.balance(players=(), games=10), "players", "(lo, hi) with 2 <= lo <= hi <= 16; got ()"),
    (lambda: mtrain.balance(players=-3, games=10), "players", "from 2 to 16"),
    (lambda: mtrain.balance(players=4, hands=(9, 8), games=10), "hands", "1 <= lo <= hi <= 255; got (9, 8)"),
    (lambda: mtrain.balance(players=4, games=-5), "games", f"from 1 to {U64}; got -5"),
    (lambda: mtrain.balance(players=4, games=10, max_games=-1), "max_games", f"from 1 to {U64}; got -1"),
    (lambda: mtrain.balance(players=4, games=10, seed=-1), "seed", f"from 0 to {U64}; got -1"),
    (lambda: mtrain.balance(players=4, games=10, threads=10**6), "threads", "4 per core, at least 16"),
    (lambda: mtrain.balance(players=4, games=10, max_blocked=1.5), "max_blocked", "a number from 0 to 1; got 1.5"),
    (lambda: mtrain.balance(players=4, games=10, margin=-0.1), "margin", "a number from 0 to 1; got -0.1"),
    (lambda: mtrain.vec_env(-4), "n", "from 1 to 1000000; got -4"),
    (lambda: mtrain.vec_env(2, seed=-1), "seed", f"from 0 to {U64}; got -1"),
    (lambda: mtrain.vec_env(2, seat=2), "seat", "from 0 to 1; got 2"),
    (lambda: mtrain.vec_env(2, ["greedy", "random", "planner"], players=2), "opponents",
     "1 to 1 bot specs for a table of 2 players (fewer are repeated around the table); got 3"),
    (lambda: mtrain.vec_env(2, []), "opponents", "at least one bot spec or Python bot; got an empty list"),
    (lambda: mtrain.Game(players=-3), "players", "from 2 to 16; got -3"),
    (lambda: mtrain.Game(players=17), "players", "from 2 to 16; got 17"),
    (lambda: mtrain.Game(set=-12), "set", "one of 6, 9, 12, 15, 18; got -12"),
    (lambda: mtrain.Game(hand=0), "hand", "from 1 to 255; got 0"),
    (lambda: mtrain.Game(set=6, rounds=8), "rounds", "from 1 to 7; got 8"),
    (lambda: mtrain.Game().new_state(-1), "seed", f"from 0 to {U64}; got -1"),
    (lambda: state().apply_action(-1), "action", f"from 0 to {actions() - 1}; got -1"),
    (lambda: state().action_to_string(actions()), "action", f"from 0 to {actions() - 1}; got {actions()}"),
    (lambda: state().observation(-1), "player", "from 0 to 1; got -1"),
    (lambda: state().observation_tensor(2), "player", "from 0 to 1; got 2"),
    (lambda: state().resample_from_infostate(0, -1), "seed", f"from 0 to {U64}; got -1"),
    (lambda: mtrain._mtrain.Solo(mtrain.Game(players=2), ["greedy"], -1), "seat", "from 0 to 1; got -1"),
    (lambda: mtrain._mtrain.Solo(mtrain.Game(players=2), ["greedy"]).reset(-1), "seed", f"from 0 to {U64}; got -1"),
]


WRONG_TYPE = [
    (lambda: mtrain.tournament("greedy", players=2, games=2.5), "games", "got 2.5 (float)"),
    (lambda: mtrain.tournament("greedy", players=2, games="10"), "games", "got '10' (str)"),
    (lambda: mtrain.tournament("greedy", players=True, games=10), "players", "got True (bool)"),
    (lambda: mtrain.Game(players="4"), "players", "got '4' (str)"),
    (lambda: mtrain.balance(players="2-8", games=10), "players", "got '2-8' (str)"),
    (lambda: mtrain.balance(players=4, games=10, min_skill="high"), "min_skill", "got 'high' (str)"),
    (lambda: mtrain.Game(options=5), "options", "a dict {rule: value} or a list of \"rule=value\" strings; got 5"),
    (lambda: mtrain.Game(options="tap=draw_two"), "options", "a dict {rule: value} or a list"),
    (lambda: mtrain.Game(None), "rules",
     "a preset name (celko1998, wikipedia, dominorules, family_house, harbour_cay); got None (NoneType)"),
    (lambda: mtrain.vec_env(2, rules=7), "rules", "a preset name (celko1998, wikipedia"),
    (lambda: mtrain.vec_env(2).step(None), "actions", "an integer array of shape (2,) (any integer dtype), or a list of 2 ints; got None"),
]


BAD = [(ValueError, *case) for case in REFUSED] + [(TypeError, *case) for case in WRONG_TYPE]


@pytest.mark.parametrize(
    "error, call, keyword, words", BAD, ids=[f"{err.__name__}-{k}-{i}" for i, (err, _, k, _) in enumerate(BAD)]
)
def test_a_bad_argument_is_refused_naming_the_keyword_and_what_it_must_be(error, call, keyword, words):
    """A number out of range raises ValueError, a value of the wrong type TypeError; either names
    the keyword and what it must be."""
    with pytest.raises(error) as e:
        call()
    message = str(e.value)
    assert type(e.value) is error, message
    assert message.startswith(f"{keyword} must be "), message
    assert words in message, message


def test_a_thread_count_is_bounded_as_on_the_command_line():
    with pytest.raises(ValueError) as e:
        mtrain.tournament("greedy", players=2, games=10, threads=10**6)
    found = re.match(
        r"threads must be an integer from 1 to (\d+) \(4 per core, at least 16: this machine has (\d+) cores?",
        str(e.value),
    )
    assert found, str(e.value)
    most, cores = int(found[1]), int(found[2])
    assert most == max(4 * cores, 16) and 1 <= cores <= (os.cpu_count() or 1)
    with pytest.raises(ValueError, match=rf"from 1 to {most} .*; got {most + 1}$"):
        mtrain.tournament("greedy", players=2, games=10, threads=most + 1)
    # The most allowed runs, with the numbers of any other thread count.
    a = mtrain.tournament("greedy,random", players=2, games=20, threads=most)
    b = mtrain.tournament("greedy,random", players=2, games=20, threads=1)
    assert a.games == 20 and a.summary.csv == b.summary.csv


def test_a_numpy_integer_is_an_integer():
    np = pytest.importorskip("numpy")
    a = mtrain.tournament("greedy,random", players=np.int64(2), games=np.uint16(40), seed=np.int32(3))
    b = mtrain.tournament("greedy,random", players=2, games=40, seed=3)
    assert a.summary.csv == b.summary.csv


OPTIONS_DICT = {"tap": "draw_two", "fast_game": True}
OPTIONS_LIST = ["tap=draw_two", "fast_game=true"]


def test_both_shapes_of_options_give_the_same_results():
    kw = dict(players=3, games=300, seed=4, threads=2)
    as_dict = mtrain.tournament(["greedy", "planner", "random"], options=OPTIONS_DICT, **kw)
    as_list = mtrain.tournament(["greedy", "planner", "random"], options=OPTIONS_LIST, **kw)
    plain = mtrain.tournament(["greedy", "planner", "random"], **kw)
    assert {k: t.csv for k, t in as_dict.tables.items()} == {k: t.csv for k, t in as_list.tables.items()}
    assert as_dict.header == as_list.header
    assert as_dict.summary.csv != plain.summary.csv  # the options do change the game

    # A Game, a vectorised environment and a balance sweep take both shapes too.
    expected = _played(mtrain.Game(players=3, options=OPTIONS_DICT))
    assert _played(mtrain.Game(players=3)) != expected
    for options in (OPTIONS_LIST, tuple(OPTIONS_LIST)):
        assert _played(mtrain.Game(players=3, options=options)) == expected
    d = mtrain.vec_env(2, ["greedy"], options=OPTIONS_DICT, seed=3)
    lst = mtrain.vec_env(2, ["greedy"], options=OPTIONS_LIST, seed=3)
    assert (d.obs == lst.obs).all() and (d.mask == lst.mask).all()
    kw = dict(players=3, hands=8, games=60, seed=2, threads=2)
    bd = mtrain.balance(["greedy", "random"], options=OPTIONS_DICT, **kw)
    bl = mtrain.balance(["greedy", "random"], options=OPTIONS_LIST, **kw)
    assert bd.header == bl.header and bd.report == bl.report


def _played(game):
    """The scores and the moves of the match of seed 9, each seat playing its last legal action."""
    s, moves = game.new_state(9), []
    while not s.is_terminal():
        a = s.legal_actions()[-1]
        moves.append(s.action_to_string(a))
        s.apply_action(a)
    return s.scores(), moves


def test_a_bad_option_is_refused_in_either_shape():
    for options in ({"tap": "sometimes"}, ["tap=sometimes"]):
        with pytest.raises(ValueError, match="tap"):
            mtrain.Game(options=options)
    with pytest.raises(ValueError, match="options must be .*; got \"tap\", with no '='"):
        mtrain.Game(options=["tap"])
