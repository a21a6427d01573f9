"""Alea Iacta Est as a PettingZoo AEC environment (``pettingzoo.test.api_test`` clean).

>>> from alea.envs.pettingzoo import env
>>> e = env(players=3)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].dtype.name
((839,), 'int8')

Agents are ``player_0`` … ``player_{n-1}`` (seat ``i`` is ``player_i``; seat 0
is the first start player). Each agent observes
``{"observation": float32[839], "action_mask": int8[6201]}``: the tensor of
:mod:`alea.envs.observation` for its seat, and the legal actions of
:mod:`alea.envs.encoding` (all zero when it is not that agent's turn).

Why chance is resolved inside: an AEC environment has no "chance agent". Every
roll, reveal and draw is sampled with a :class:`random.Random` seeded by
``reset(seed=…)``, so two environments reset with the same seed and given the
same actions play the same game (``pettingzoo.test.seed_test``).

Rewards are zero until the game ends; then each agent receives its final
reward once: ``reward="score"`` (default) gives the final score of RULES.md
§5.3, ``reward="win"`` gives 1 to every winner (shared victories included) and
0 to the others. The final infos carry ``score`` and ``winner`` either way.

An illegal action raises :class:`alea.iacta.IllegalActionError` (a
``ValueError``) and leaves the game unchanged: wrap the environment in
``pettingzoo.utils.wrappers.TerminateIllegalWrapper`` for the other convention.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

import alea.iacta as iacta
from alea.envs.encoding import NUM_DISTINCT_ACTIONS, decode, legal_mask
from alea.envs.observation import (
    HIGH,
    OBSERVATION_SIZE,
    Memo,
    compiled_observe,
    observation_string,
    observation_tensor,
)
from alea.iacta.state import ROUNDS

__all__ = ["REWARDS", "AleaIactaEstAEC", "env", "raw_env"]

#: Reward modes: the final score, or 1 for a win and 0 otherwise.
REWARDS: Final = ("score", "win")

Observation = dict[str, npt.NDArray[Any]]


def final_rewards(state: iacta.State, mode: str) -> list[float]:
    """Each seat's end-of-game reward under ``mode`` (see :data:`REWARDS`)."""
    if mode == "win":
        winners = set(state.winners())
        return [1.0 if seat in winners else 0.0 for seat in range(state.players)]
    return [float(score) for score in state.returns()]


class AleaIactaEstAEC(AECEnv):  # type: ignore[misc]
    """The AEC environment; use :func:`env` for the order-enforcing wrapped one."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["human", "ansi"],
        "name": "alea_iacta_est_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, players: int = 4, reward: str = "score", render_mode: str | None = None
    ) -> None:
        super().__init__()
        if players not in ROUNDS:
            raise ValueError(f"Alea Iacta Est is played by 2 to 5 players, not {players}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.players = players
        self.reward_mode = reward
        self.render_mode = render_mode
        self.possible_agents: list[str] = [f"player_{i}" for i in range(players)]
        self._seat: dict[str, int] = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=HIGH, shape=(OBSERVATION_SIZE,), dtype=np.float32
                ),
                "action_mask": spaces.Box(
                    low=0, high=1, shape=(NUM_DISTINCT_ACTIONS,), dtype=np.int8
                ),
            }
        )
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: spaces.Dict(dict(obs_space.spaces)) for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: spaces.Discrete(NUM_DISTINCT_ACTIONS) for a in self.possible_agents
        }
        self.game: iacta.State = iacta.new_game(players)
        self._rng = random.Random()
        self._memo = Memo()

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # --------------------------------------------------------------- lifecycle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes every chance event of it.

        ``options={"state": s}`` starts from a copy of the :class:`alea.iacta.State`
        ``s`` instead (it must have this environment's player count); other
        options are ignored.
        """
        self._rng = random.Random(seed)
        start = (options or {}).get("state")
        if isinstance(start, iacta.State):
            if start.players != self.players:
                raise ValueError(
                    f"options['state'] has {start.players} players, not {self.players}"
                )
            self.game = start.clone()
        else:
            self.game = iacta.new_game(self.players)
        self._memo = Memo()
        self._resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if self.game.is_terminal():
            self._finish()
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[self.game.current_player()]

    def _resolve_chance(self) -> None:
        game = self.game
        rng = self._rng
        while game.is_chance():
            game.apply(game.sample_chance(rng))

    def _finish(self) -> None:
        """The game is over: hand out the final rewards and end every agent."""
        game = self.game
        values = final_rewards(game, self.reward_mode)
        scores = game.returns()
        winners = set(game.winners())
        for agent in self.agents:
            seat = self._seat[agent]
            self.rewards[agent] = values[seat]
            self.terminations[agent] = True
            self.infos[agent] = {"score": scores[seat], "winner": seat in winners}
        if getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play ``action`` (an index of :mod:`alea.envs.encoding`) for the selected agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents that are done")
        game = self.game
        game.apply(decode(int(action)))
        self._cumulative_rewards[agent] = 0.0
        rng = self._rng
        while game.is_chance():
            game.apply(game.sample_chance(rng))
        if game.is_terminal():
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._finish()
            self._accumulate_rewards()
        else:
            # Rewards are all zero until the end (and were cleared by the last
            # step that set them), so there is nothing to clear or accumulate.
            self.agent_selection = self.possible_agents[game.player]
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------ observation

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation tensor and action mask (zeros unless it is to move)."""
        game = self.game
        to_move = agent == self.agent_selection and not game.is_terminal()
        if compiled_observe is not None:
            return compiled_observe(game, self._seat[agent], to_move)
        mask = legal_mask(game) if to_move else np.zeros(NUM_DISTINCT_ACTIONS, dtype=np.int8)
        obs = observation_tensor(game, self._seat[agent], memo=self._memo)
        return {"observation": obs, "action_mask": mask}

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, end flags and info.

        PettingZoo's own ``last``, without its indirections: it runs at every step.
        """
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def render(self) -> str | None:
        """The table as a spectator sees it: printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None:
            return None
        text = observation_string(self.game, None)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release (no window, no files); here for the PettingZoo contract."""


#: PettingZoo's conventional name for the unwrapped environment class.
raw_env = AleaIactaEstAEC


class _AgentIterator:
    """PettingZoo's order-enforcing agent iterator, reading the environment directly.

    The stock one reaches ``agents`` and ``agent_selection`` through the
    wrapper's properties at every step; this one behaves the same: it stops
    when no agent is left or after ``max_iter`` steps, and refuses to go on
    when the loop did not call ``step()`` (or ``reset()``) since the last agent.
    """

    __slots__ = ("env", "left", "wrapper")

    def __init__(self, wrapper: _OrderEnforcing, max_iter: int) -> None:
        self.wrapper = wrapper
        self.env: AleaIactaEstAEC = wrapper.env
        self.left = max_iter

    def __iter__(self) -> _AgentIterator:
        return self

    def __next__(self) -> str:
        env = self.env
        if not env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        wrapper = self.wrapper
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        return env.agent_selection


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order enforcement, with direct paths for the per-step calls.

    ``OrderEnforcingWrapper`` reaches every attribute of the environment through
    two levels of ``__getattr__``; ``last()`` and the agent iterator read five
    of them per step. These properties, ``last``, ``step`` and ``agent_iter`` do
    the same checks and forward directly, which keeps the wrapper's cost per
    step small next to the engine's (``bench/envs.py``).
    """

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return str(self.env.agent_selection)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterator:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterator(self, max_iter)

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | np.integer[Any] | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self.env.step(action)


def env(players: int = 4, reward: str = "score", render_mode: str | None = None) -> Any:
    """The AEC environment wrapped in PettingZoo's order enforcement.

    ``players`` is 2–5; ``reward`` is ``"score"`` or ``"win"`` (:data:`REWARDS`);
    ``render_mode`` is ``None``, ``"human"`` or ``"ansi"``.
    """
    return _OrderEnforcing(AleaIactaEstAEC(players=players, reward=reward, render_mode=render_mode))
