"""State.resample_from_infostate for every seat, to act or not."""

import random

import pytest

import mtrain

TABLES = [
    dict(rules="wikipedia", players=4, set=12, rounds=2),
    dict(rules="dominorules", players=3, set=9, rounds=2),
    dict(rules="wikipedia", players=4, set=9, rounds=1, options={"tap": "draw_two", "blanks_wild": True}),
    dict(rules="harbour_cay", players=3, set=12, rounds=1, options=["swan_drive=true"]),
]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t['rules']}-{t['players']}-{t['set']}")
def test_every_seat_resamples_a_world_it_cannot_tell_from_the_real_one(table):
    t = dict(table)
    game = mtrain.Game(t.pop("rules"), **t)
    n = game.num_players()
    rng = random.Random(n)
    redrawn_actor = hidden = varied = 0
    for match in range(3):
        state = game.new_state(100 + match)
        points = 0
        while not state.is_terminal():
            if rng.random() < 0.2:
                points += 1
                actor = state.current_player()
                for seat in range(n):
                    seen = state.observation(seat)
                    tensor = state.observation_tensor(seat).tobytes()
                    worlds = [state.resample_from_infostate(seat, s) for s in range(5)]
                    for w in worlds:
                        # Everything the seat has seen is as it was: hand, trains, counts,
                        # events, the seat to act; so is its tensor.
                        assert w.observation(seat) == seen
                        assert w.observation_tensor(seat).tobytes() == tensor
                        assert w.current_player() == actor and w.scores() == state.scores()
                        assert w.round() == state.round()
                        if seat == actor:
                            assert w.legal_actions() == state.legal_actions()
                        assert len(w.legal_actions()) >= 2, "the seat to act still has a real choice"
                        assert len(w.observation(actor)["hand"]) == seen["hands"][actor]
                    # The tiles it cannot see are redrawn: another seat's hand differs across
                    # seeds (unless its known voids and the seat to act's need of a choice
                    # leave it one hand: rare, so counted over the run).
                    for other in (s for s in range(n) if s not in (seat, actor)):
                        if seen["hands"][other] and seen["boneyard"] + sum(seen["hands"]) - seen["hands"][seat] > seen["hands"][other]:
                            hands = {tuple(w.observation(other)["hand"]) for w in worlds}
                            hidden += 1
                            varied += len(hands) > 1
                    if seat != actor:
                        real = state.observation(actor)["hand"]
                        redrawn_actor += sum(w.observation(actor)["hand"] != real for w in worlds)
                    # The same seed gives the same world.
                    assert (
                        state.resample_from_infostate(seat, 3).observation((seat + 1) % n)
                        == worlds[3].observation((seat + 1) % n)
                    )
            state.apply_action(rng.choice(state.legal_actions()))
        assert points > 0
        with pytest.raises(ValueError, match="the match is over"):
            state.resample_from_infostate(0, 1)
    assert redrawn_actor > 0, "a watcher's worlds redraw the acting seat's hand too"
    assert hidden > 50 and varied > 0.9 * hidden, f"hidden hands redrawn: {varied} of {hidden}"


def test_a_watchers_world_plays_on_to_the_end():
    game = mtrain.Game("wikipedia", players=4, rounds=2)
    state = game.new_state(5)
    rng = random.Random(5)
    for _ in range(15):
        state.apply_action(rng.choice(state.legal_actions()))
    watcher = (state.current_player() + 2) % 4
    world = state.resample_from_infostate(watcher, 9)
    while not world.is_terminal():
        world.apply_action(rng.choice(world.legal_actions()))
    assert abs(sum(world.returns())) < 1e-9
