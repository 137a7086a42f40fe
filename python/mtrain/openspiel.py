"""Mexican Train as an OpenSpiel game: ``import mtrain.openspiel`` registers ``"mtrain"`` with
pyspiel, so OpenSpiel's algorithms and tools (``random_sim_test``, ``evaluate_bots``, MCTS,
ISMCTS, ...) play it.

>>> import pyspiel
>>> import mtrain.openspiel
>>> game = pyspiel.load_game("mtrain", {"players": 3, "rounds": 2})
>>> state = game.new_initial_state()      # the deal: a chance node
>>> state.apply_action(42)                 # deal 42
>>> state.apply_action(state.legal_actions()[0])

Parameters (all optional, their defaults in :data:`DEFAULTS`): ``rules`` (a preset, default
``"wikipedia"``), ``players`` (2 to 16, default 4), ``set`` (6, 9, 12, 15 or 18, default 12),
``hand`` (tiles dealt to each seat; 0, the default, keeps the preset's deal table), ``rounds``
(rounds per match; 0, the default, plays one per double from the highest down), ``options``
(rule changes as ``"key:value;key:value"``: ``--rule key=value`` written with ``:`` and ``;``,
as OpenSpiel's game string reserves ``=`` and ``,``; default none), ``deals`` (how many deals
the opening chance node picks from, default 65,536) and ``seed`` (mixed into every deal's seed,
default 0).

**Chance.** One explicit chance node opens the match: it picks one of ``deals`` seeds
(default 65,536), uniformly, and the match is dealt from it (mixed with ``seed``). Everything
after it (the later deals, every draw) is fixed by that seed, so the rest of the game is
deterministic given the state, and OpenSpiel sees exactly the game it plays: a random deal among
``deals``, then the players' choices. A state carries its future draws, and so does its
``clone()``: plain MCTS searching on clones sees the tiles it will draw.
:class:`open_spiel.python.algorithms.ismcts.ISMCTSBot`, which searches worlds resampled from the
player's information state (``resample_from_infostate``: the hidden hands, the boneyard and the
later deals all redrawn), is the fair search.

**Rewards.** ``returns()`` is the match's result for each seat: its share of the win (1/k for
each of k co-winners) minus 1/N, so the returns sum to zero (``ZERO_SUM``, utilities from -1/N
to 1 - 1/N); 0 before the end. ``rewards()`` is the change since the last action: the returns at
the end, 0 before (``RewardModel.TERMINAL``).

**Observations.** Tensors are :meth:`mtrain.State.observation_tensor` (the same for the
information state and the observation; docs/python.md gives the layout). The observation string
is the seat's view of the table as JSON (its hand, the trains, the counts, the match scores); the
information-state string adds the events of the round in play as the seat saw them (its view of
the history; earlier rounds enter through their scores: their tiles are all dealt again).

**Serialisation.** ``pyspiel.serialize_game_and_state`` and ``deserialize_game_and_state`` work:
a state travels as its recipe (the match seed and the actions applied, see
:meth:`mtrain.State.serialize`) and is rebuilt by replaying it.
"""

from __future__ import annotations

import json
from typing import Dict, List, Optional

import numpy as np
import pyspiel

from ._mtrain import Game, State

__all__ = ["MexicanTrainGame", "MexicanTrainState", "GAME_TYPE", "DEFAULTS", "max_game_length"]

_M64 = (1 << 64) - 1

#: The parameters and their defaults.
DEFAULTS: Dict[str, object] = {
    "rules": "wikipedia",
    "players": 4,
    "set": 12,
    "hand": 0,
    "rounds": 0,
    "options": "",
    "deals": 1 << 16,
    "seed": 0,
}

GAME_TYPE = pyspiel.GameType(
    short_name="mtrain",
    long_name="Mexican Train (mtrain)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=16,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS),
)


def _mix(seed: int, k: int) -> int:
    """The match seed of deal ``k`` of a game of ``seed`` (a SplitMix64 step)."""
    z = (seed + (k + 1) * 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def max_game_length(game: Game, set: int) -> int:
    """A bound on the actions of a match: the deal, then ``rounds * (3 * T + 2 * N)`` decisions
    at most, for ``T`` tiles in the set and ``N`` seats. Every decision lays a tile (at most
    ``T`` a round), ends a sequence after a tile laid in that turn (a build, a double's
    follow-up, a swan walk: each begun by a tile, so at most one per tile), skips the Mexican
    train on a swan walk (at most once a walk), or declares a bullet train or passes a delayed
    first turn (each at most once per seat and round); forced moves are not decisions."""
    tiles = (set + 1) * (set + 2) // 2
    return 1 + game.num_rounds() * (3 * tiles + 2 * game.num_players())


def _options(text: object) -> List[str]:
    """The rule changes of the ``options`` parameter, ``key:value`` items separated by ``;``, as
    ``key=value`` rule changes."""
    text = str(text)
    if "," in text or "=" in text:
        raise ValueError(
            f"options {text!r}: write rule changes as 'key:value;key:value' "
            "(OpenSpiel's game string reserves ',' and '=')"
        )
    return [o.strip().replace(":", "=", 1) for o in text.split(";") if o.strip()]


def _game_of(params: Dict[str, object]) -> Game:
    """The :class:`mtrain.Game` of OpenSpiel parameters (0 for ``hand``/``rounds``: the preset's)."""
    options = _options(params["options"])
    hand = int(params["hand"]) or None
    rounds = int(params["rounds"]) or None
    return Game(
        str(params["rules"]),
        set=int(params["set"]),
        players=int(params["players"]),
        hand=hand,
        rounds=rounds,
        options=options,
    )


class MexicanTrainGame(pyspiel.Game):
    """The ``"mtrain"`` game; parameters as the module describes."""

    def __init__(self, params: Optional[Dict[str, object]] = None) -> None:
        full = dict(DEFAULTS)
        for key, value in (params or {}).items():
            if key not in DEFAULTS:
                raise ValueError(f"unknown mtrain parameter {key!r} (valid: {', '.join(DEFAULTS)})")
            full[key] = value
        self.table = _game_of(full)
        self.deals = int(full["deals"])
        if not 1 <= self.deals <= 1 << 24:
            raise ValueError(f"deals {self.deals}: give 1 to {1 << 24}")
        n = self.table.num_players()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.table.num_distinct_actions(),
            max_chance_outcomes=self.deals,
            num_players=n,
            min_utility=-1.0 / n,
            max_utility=1.0 - 1.0 / n,
            utility_sum=0.0,
            max_game_length=max_game_length(self.table, int(full["set"])),
        )
        super().__init__(GAME_TYPE, info, full)
        self.seed = int(full["seed"]) & _M64

    def new_initial_state(self) -> "MexicanTrainState":
        """The match before its deal: a chance node over the ``deals`` seeds."""
        return MexicanTrainState(self)

    def max_chance_nodes_in_history(self) -> int:
        return 1

    def make_py_observer(self, iig_obs_type=None, params=None) -> "MexicanTrainObserver":
        """The observer OpenSpiel asks for: the information state (``perfect_recall``) or the
        observation."""
        if params:
            raise ValueError(f"mtrain observers take no parameters; got {params}")
        info_state = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return MexicanTrainObserver(self.table, info_state)


class MexicanTrainState(pyspiel.State):
    """A match: before its deal a chance node, then an :class:`mtrain.State` (``state.mtrain``,
    ``None`` before the deal)."""

    def __init__(self, game: MexicanTrainGame) -> None:
        super().__init__(game)
        self.mtrain: Optional[State] = None

    def current_player(self) -> int:
        if self.mtrain is None:
            return pyspiel.PlayerId.CHANCE
        return self.mtrain.current_player()

    def chance_outcomes(self):
        """The deals, equally likely."""
        k = self.get_game().deals
        return [(d, 1.0 / k) for d in range(k)]

    def _legal_actions(self, player: int) -> List[int]:
        if self.mtrain is None or player != self.mtrain.current_player():
            return []
        return self.mtrain.legal_actions()

    def _apply_action(self, action: int) -> None:
        if self.mtrain is None:
            game = self.get_game()
            self.mtrain = game.table.new_state(_mix(game.seed, action))
        else:
            self.mtrain.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.mtrain.action_to_string(action)

    def is_terminal(self) -> bool:
        return self.mtrain is not None and self.mtrain.is_terminal()

    def returns(self) -> List[float]:
        if self.mtrain is None:
            return [0.0] * self.num_players()
        return self.mtrain.returns()

    def rewards(self) -> List[float]:
        # Terminal rewards: the returns arrive with the last action, nothing before.
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> "MexicanTrainState":
        """A state ``player_id`` cannot tell from this one: the hidden hands, the boneyard and
        the later deals redrawn (:meth:`mtrain.State.resample_from_infostate`). The seed comes
        from ``probability_sampler()`` (a uniform number in [0, 1), as ISMCTS passes one), or
        from the state's own recipe when there is none."""
        if self.mtrain is None:
            raise ValueError("the match is not dealt yet: nothing to resample")
        if probability_sampler is not None:
            seed = int(probability_sampler() * 2.0**53)
        else:
            seed = _mix(self.mtrain.history_len(), player_id)
        out = self.clone()
        out.mtrain = self.mtrain.resample_from_infostate(player_id, seed)
        return out

    def __str__(self) -> str:
        st = self.mtrain
        if st is None:
            return "(the deal)"
        hands = [" ".join(st.observation(p).get("hand", [])) for p in range(self.num_players())]
        return f"{st!r} hands: " + " | ".join(hands)


class MexicanTrainObserver:
    """OpenSpiel's Python observer protocol: ``tensor`` and ``dict`` written by ``set_from``,
    strings by ``string_from``."""

    def __init__(self, table: Game, info_state: bool) -> None:
        self.info_state = info_state
        self.tensor = np.zeros(table.observation_shape(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MexicanTrainState, player: int) -> None:
        if state.mtrain is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = state.mtrain.observation_tensor(player)

    def string_from(self, state: MexicanTrainState, player: int) -> str:
        st = state.mtrain
        if st is None:
            return '{"type":"deal"}'
        view = st.observation(player)
        view["scores"] = st.scores()
        if not self.info_state:
            view.pop("events", None)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


pyspiel.register_game(GAME_TYPE, MexicanTrainGame)
