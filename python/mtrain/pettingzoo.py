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

An action outside the mask (any integer, ``-1`` too, or ``None``) plays the agent's first legal
action instead (``infos[agent]["illegal"]`` says so), so unmasked exploration never crashes a
run; a float or a bool action raises ``TypeError`` rather than being truncated. ``max_cycles``
(default: none) caps each agent's decisions: an agent that has decided ``max_cycles`` times is
truncated, and its seat then plays its first legal action until every agent is truncated or the
match ends. :func:`parallel_env` gives the same game in PettingZoo's parallel API, where one step
is the decision of the agent to act (the one agent whose mask is not empty); the other agents'
actions are ignored, so agents that each sample from their own mask always play legally.

Seeds follow the package's one rule (docs/python.md, "Seeds"): ``reset(seed=S)`` deals the match
``mtrain.episode_seed(S, 0)`` (the match ``Game.new_state(episode_seed(S, 0))`` deals) and each
later ``reset()`` the next match of that stream; before any seed is given the stream is drawn at
random.

``render_mode="ansi"`` makes ``render()`` return the board as text, as the agent to act sees it
(:meth:`mtrain.State.render`); ``"human"`` prints it. In a notebook the environment shows the
board as HTML.
"""

from __future__ import annotations

import operator
import random
import warnings
from typing import Any, Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from . import _NO_RENDER_MODE, Options, _game
from ._mtrain import episode_seed

__all__ = ["MexicanTrainEnv", "MexicanTrainParallelEnv", "env", "parallel_env"]

ROUND_SCALE = 100.0


def env(**kwargs: Any) -> "MexicanTrainEnv":
    """A Mexican Train AEC environment; keyword arguments as :class:`MexicanTrainEnv`."""
    return MexicanTrainEnv(**kwargs)


def parallel_env(**kwargs: Any) -> "MexicanTrainParallelEnv":
    """The same game in PettingZoo's parallel API; keyword arguments as :class:`MexicanTrainEnv`."""
    return MexicanTrainParallelEnv(**kwargs)


def action_number(action, n: int) -> Optional[int]:
    """``action`` as an int (a Python or numpy integer; ``None`` stays ``None``); a float, a bool
    or anything else raises ``TypeError`` naming what was given and what is taken."""
    if action is None:
        return None
    if not isinstance(action, (bool, np.bool_)):
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise TypeError(f"action must be an integer action number (0 to {n - 1}); got {action!r} ({type(action).__name__})")


def _legal_or_first(state, action, n: int) -> tuple:
    """``action`` if it is legal now, else the first legal action; and whether it was illegal."""
    action = action_number(action, n)
    legal = state.legal_actions()
    if action is not None and action in legal:
        return action, False
    return legal[0], True


class MexicanTrainEnv(AECEnv):
    """Mexican Train for N agents: ``players``, ``rules`` (a preset), ``set`` (double-``set``),
    ``hand``, ``rounds`` and ``options`` (rule changes, ``{"tap": "draw_two"}`` or
    ``["tap=draw_two"]``) as in :class:`mtrain.Game`; ``render_mode`` ``"ansi"`` returns the
    board as text from ``render()``, ``"human"`` prints it."""

    metadata = {"name": "mexican_train_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 4,
        rules: str = "wikipedia",
        set: int = 12,
        hand: Optional[int] = None,
        rounds: Optional[int] = None,
        options: Optional[Options] = None,
        render_mode: Optional[str] = None,
        max_cycles: Optional[int] = None,
    ) -> None:
        super().__init__()
        self.max_cycles = max_cycles
        self.game = _game(rules, set, players, hand, rounds, options)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        n = self._actions = self.game.num_distinct_actions()
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
        self._stream: Optional[int] = None
        self._episode = 0
        self.state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Deals a new match: ``episode_seed(seed, 0)`` when ``seed`` is given (the same seed, the
        same match), else the next match of the stream last seeded (drawn at random at first)."""
        if seed is not None:
            self._stream, self._episode = seed, 0
        elif self._stream is None:
            self._stream, self._episode = random.getrandbits(64), 0
        self.state = self.game.new_state(episode_seed(self._stream, self._episode))
        self._episode += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._decisions = {a: 0 for a in self.agents}
        self._rewarded = False
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        # One call for both arrays (State.observe): the tensor, and the mask (empty unless the
        # agent is to act).
        obs, mask = self.state.observe(self._index[agent])
        return {"observation": obs, "action_mask": mask}

    def _play(self, action: int) -> None:
        """Plays `action` for the seat to act, adding round and match rewards to the agents."""
        self._add(self.state.apply_action_rewards(action))

    def _add(self, gained) -> None:
        """Adds each seat's reward of a move (``State.apply_action_rewards``: minus the score of a
        round it ended over 100, and the match return at the end) to the agents still in."""
        if any(gained):
            self._rewarded = True
            for a in self.agents:
                self.rewards[a] += gained[self._index[a]]

    def _live(self, agent: str) -> bool:
        return agent in self.agents and not (self.terminations[agent] or self.truncations[agent])

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # the last step's rewards, back to zero (most steps reward nothing)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        state = self.state
        if type(action) is not int:
            action = action_number(action, self._actions)
        try:
            # A legal action is played at once; anything else is refused by the state.
            gained, illegal = state.apply_action_rewards(-1 if action is None else action), False
        except ValueError:
            gained, illegal = state.apply_action_rewards(state.legal_actions()[0]), True
        self._add(gained)
        self.infos[agent] = {"illegal": illegal}
        if self.max_cycles is not None:
            self._decisions[agent] += 1
            if self._decisions[agent] >= self.max_cycles:
                self.truncations[agent] = True
            # A seat whose agent has left plays its first legal action.
            while not state.is_terminal() and not self._live(self.possible_agents[state.current_player()]):
                self._play(state.legal_actions()[0])
        player = state.current_player()
        if player < 0:
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[player]
        if self._rewarded:
            for a, r in self.rewards.items():
                self._cumulative_rewards[a] += r
        # Agents that just ended step once more (with None) to leave.
        if player < 0 or self.max_cycles is not None:
            self._deads_step_first()

    def render(self) -> Optional[str]:
        """The board as the agent to act sees it, as text (``render_mode="ansi"``) or printed
        (``"human"``); ``None`` before ``reset()``, and without a render mode (with a warning)."""
        if self.render_mode is None or self.state is None:
            if self.render_mode is None:
                warnings.warn(_NO_RENDER_MODE, stacklevel=2)
            return None
        text = self.state.render()
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def _repr_html_(self) -> str:
        if self.state is None:
            return "<div>mtrain: call reset() first</div>"
        return self.state._repr_html_()

    def close(self) -> None:
        pass


class MexicanTrainParallelEnv(ParallelEnv):
    """Mexican Train in PettingZoo's parallel API (arguments as :class:`MexicanTrainEnv`). A
    turn-based game has one seat to act at a time, so one parallel step plays one decision: that
    of the agent to act, the one agent whose ``action_mask`` is not empty; every other agent's
    action is ignored (give any value, or leave it out). An agent that samples from its own mask
    therefore always plays legally. The acting agent's action is checked as in the AEC env (an
    illegal one, or a missing one, plays its first legal action and sets ``infos[agent]
    ["illegal"]``). Every agent's reward is what that decision earned it (the round and match
    rewards of the AEC env). ``max_cycles`` truncates every agent after that many steps."""

    metadata = {"name": "mexican_train_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, max_cycles: Optional[int] = None, **kwargs: Any) -> None:
        self._aec = MexicanTrainEnv(**kwargs)
        self.max_cycles = max_cycles
        self.possible_agents = self._aec.possible_agents
        self.render_mode = self._aec.render_mode

    def observation_space(self, agent: str) -> spaces.Space:
        return self._aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space:
        return self._aec.action_space(agent)

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        self._aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        self._steps = 0
        return {a: self._aec.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: Dict[str, int]):
        aec, state = self._aec, self._aec.state
        rewards = {a: 0.0 for a in self.agents}
        infos: Dict[str, dict] = {a: {} for a in self.agents}
        if not state.is_terminal():
            agent = self.possible_agents[state.current_player()]
            n = aec.game.num_distinct_actions()
            chosen, illegal = _legal_or_first(state, actions.get(agent), n)
            infos[agent] = {"illegal": illegal}
            aec.rewards = {a: 0.0 for a in aec.agents}
            aec._play(chosen)
            for a in self.agents:
                rewards[a] += aec.rewards[a]
        self._steps += 1
        over = state.is_terminal()
        truncated = self.max_cycles is not None and self._steps >= self.max_cycles and not over
        terminations = {a: over for a in self.agents}
        truncations = {a: truncated for a in self.agents}
        observations = {a: aec.observe(a) for a in self.agents}
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> Optional[str]:
        return self._aec.render()

    def _repr_html_(self) -> str:
        return self._aec._repr_html_()

    def close(self) -> None:
        pass
