"""Mexican Train as a Gymnasium single-agent environment: one seat is yours, the others are
mtrain's built-in bots.

>>> from mtrain.gym import env
>>> e = env(opponents=["greedy", "planner", "expert"])
>>> obs, info = e.reset(seed=42)
>>> obs, reward, terminated, truncated, info = e.step(int(obs["action_mask"].nonzero()[0][0]))

The bots play in Rust between your choices, exactly as in a tournament. Observations and
actions are those of :mod:`mtrain.pettingzoo` (``{"observation", "action_mask"}``, a fixed
``Discrete`` action space); rewards too (minus each round's score over 100 as the round ends,
the win share minus 1/N at the end). An action outside the mask plays the first legal action
instead and sets ``info["illegal"]`` (any integer counts, ``-1`` too, Python's or numpy's), so
random exploration never crashes a run; mask your policy to avoid it. A float or a bool action
raises ``TypeError`` rather than being truncated. An episode is one match (``rounds=`` shortens
it).

Seeds follow the package's one rule (docs/python.md, "Seeds"): ``reset(seed=S)`` deals the match
``mtrain.episode_seed(S, 0)`` and each later ``reset()`` the next match of that stream
(``episode_seed(S, 1)``, ...); before any seed is given the stream is drawn at random.

``render_mode="ansi"`` makes ``render()`` return the board as text (:meth:`mtrain.State.render`
from your seat); ``"human"`` prints it. In a notebook the environment shows the board as HTML.
"""

from __future__ import annotations

import random
import warnings
from typing import Any, Dict, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _NO_RENDER_MODE, Options, _game, _opponents
from ._mtrain import Solo, episode_seed

__all__ = ["MexicanTrainEnv", "env"]


def env(**kwargs: Any) -> "MexicanTrainEnv":
    """A single-agent Mexican Train environment; keyword arguments as :class:`MexicanTrainEnv`."""
    return MexicanTrainEnv(**kwargs)


class MexicanTrainEnv(gymnasium.Env):
    """Your seat (``seat``, default 0) against ``opponents``: built-in bot specs or Python bots
    (objects with ``choose(observation, legal)``, as in :func:`mtrain.tournament`) for the other
    seats, in seat order, repeated when fewer (``["greedy"]``: greedy everywhere). The table is
    ``players`` seats (default: you and one seat per opponent given) under ``rules``, ``set``,
    ``hand``, ``rounds`` and ``options`` as in :class:`mtrain.Game`."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        opponents: Union[str, Sequence[str]] = ("greedy",),
        players: Optional[int] = None,
        seat: int = 0,
        rules: str = "wikipedia",
        set: int = 12,
        hand: Optional[int] = None,
        rounds: Optional[int] = None,
        options: Optional[Options] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        names, python_bots = _opponents(opponents)
        players = players if players is not None else len(names) + 1
        self.game = _game(rules, set, players, hand, rounds, options)
        self._solo = Solo(self.game, names, seat, python_bots)
        self._seat = seat
        n = self.game.num_distinct_actions()
        self.action_space = spaces.Discrete(n)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self.game.observation_shape(), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: valid are {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self._stream: Optional[int] = None
        self._episode = 0

    @staticmethod
    def _obs(raw: Tuple[list, list]) -> Dict[str, np.ndarray]:
        obs, mask = raw  # the mask comes as bytes, one per action
        return {
            "observation": np.asarray(obs, dtype=np.float32),
            "action_mask": np.frombuffer(mask, dtype=np.uint8).astype(np.int8),
        }

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if seed is not None:
            self._stream, self._episode = seed, 0
        elif self._stream is None:
            self._stream, self._episode = random.getrandbits(64), 0
        obs = self._obs(self._solo.reset(episode_seed(self._stream, self._episode)))
        self._episode += 1
        return obs, {"action_mask": obs["action_mask"]}

    def step(self, action):
        obs, mask, reward, over, illegal = self._solo.step(action)
        o = self._obs((obs, mask))
        return o, float(reward), bool(over), False, {"action_mask": o["action_mask"], "illegal": illegal}

    def render(self) -> Optional[str]:
        """The board from your seat as text (``render_mode="ansi"``), or printed
        (``"human"``); ``None`` without a render mode (with a warning)."""
        if self.render_mode is None:
            warnings.warn(_NO_RENDER_MODE, stacklevel=2)
            return None
        text = self._solo.state().render(self._seat)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def _repr_html_(self) -> str:
        try:
            return self._solo.state()._repr_html_()
        except RuntimeError:  # not reset yet
            return "<div>mtrain: call reset() first</div>"

    @property
    def state(self):
        """The match as it stands (a copy): an :class:`mtrain.State`."""
        return self._solo.state()
