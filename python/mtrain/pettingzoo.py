"""Mexican Train as a PettingZoo AEC environment.

>>> from mtrain.pettingzoo import env
>>> e = env(players=4)
>>> e.reset(seed=42)
>>> obs, reward, terminated, truncated, info = e.last()

Agents are ``player_0`` .. ``player_{N-1}`` (the seats). Each step is one real choice: draws,
passes and turns with one legal move are played for you, so the agent to act always has at
least two legal actions. Observations are ``{"observation": float32 vector, "action_mask":
int8 vector}``: the vector is :meth:`mtrain.State.observation_tensor` (docs/python.md has its
layout) and the mask marks the legal actions of the fixed ``Discrete`` action space
(:meth:`mtrain.Game.num_distinct_actions`); only the agent to act has legal actions.

Rewards: when a round ends, each agent receives minus its round score over 100 (a round score is
the pips left in hand: lower is better); when the match ends, each also receives its share of the
win (1/k for each of k co-winners) minus 1/N. A match's rewards therefore favour both a low
total and winning.
"""

from __future__ import annotations

import random
from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import Game

__all__ = ["MexicanTrainEnv", "env"]

ROUND_SCALE = 100.0


def env(**kwargs: Any) -> "MexicanTrainEnv":
    """A Mexican Train AEC environment; keyword arguments as :class:`MexicanTrainEnv`."""
    return MexicanTrainEnv(**kwargs)


class MexicanTrainEnv(AECEnv):
    """Mexican Train for N agents: ``players``, ``rules`` (a preset), ``set`` (double-``set``),
    ``hand``, ``rounds`` and ``options`` (rule changes, ``{"tap": "draw_two"}``) as in
    :class:`mtrain.Game`; ``render_mode`` ``"ansi"`` renders the state as text."""

    metadata = {"name": "mexican_train_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 4,
        rules: str = "wikipedia",
        set: int = 12,
        hand: Optional[int] = None,
        rounds: Optional[int] = None,
        options: Optional[Dict[str, object]] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        changes = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in (options or {}).items()]
        self.game = Game(rules, set=set, players=players, hand=hand, rounds=rounds, options=changes)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.game.num_distinct_actions()
        shape = self.game.observation_shape()
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: valid are {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self._rng = random.Random()
        self.state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Deals a new match: from ``seed`` when given (the same seed, the same match), else from
        the environment's own stream."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_state(self._rng.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        i = self._index[agent]
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self.state.current_player() == i:
            mask[self.state.legal_actions()] = 1
        return {"observation": np.asarray(self.state.observation_tensor(i), dtype=np.float32), "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        before_round, before = self.state.round(), self.state.scores()
        self.state.apply_action(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        over = self.state.is_terminal()
        if over or self.state.round() != before_round:
            after = self.state.scores()
            for a in self.agents:
                i = self._index[a]
                self.rewards[a] -= (after[i] - before[i]) / ROUND_SCALE
        if over:
            for a, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] += r
                self.terminations[a] = True
            self._accumulate_rewards()
            # Every agent now steps once more (with None) to leave.
            self.agent_selection = self.agents[0]
            return
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def render(self) -> Optional[str]:
        if self.render_mode == "ansi":
            return repr(self.state)
        return None

    def close(self) -> None:
        pass
