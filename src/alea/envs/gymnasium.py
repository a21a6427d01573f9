"""Alea Iacta Est as a single-agent Gymnasium environment against :mod:`alea.bots`.

>>> from alea.envs.gymnasium import AleaIactaEstEnv
>>> env = AleaIactaEstEnv(players=3, opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape
((839,), (6201,))

The learner holds one seat (``seat``: a number, or ``"random"`` for a new
seat each episode); the other seats are played by bots: ``opponents`` is one
bot name or level for all of them (``"random"``, ``"easy"``, ``"medium"``,
``"hard"``, ``"greedy"``, or a spec such as ``"ismcts:steps=200"``), a
:class:`alea.bots.Bot`, or a sequence of those, one per other seat in seat
order. Bots see only their own seat's view, as everywhere else.

Actions are ``Discrete(6201)`` (:mod:`alea.envs.encoding`); the legal ones
are ``info["action_mask"]`` (int8) and :meth:`AleaIactaEstEnv.action_masks`
(the name ``sb3_contrib``'s ``MaskablePPO`` looks for). Observations are the
learner's tensor from :mod:`alea.envs.observation`.

Why an illegal action ends the episode (``illegal_action="penalize"``, with
``illegal_reward``) instead of raising: Gymnasium's own ``check_env`` steps
with unmasked random actions, and an agent that ignores the mask should learn
from a bad reward, not crash the run. ``illegal_action="raise"`` raises
:class:`alea.iacta.IllegalActionError` instead.

Every random choice (dice, cards, bots) comes from the generator seeded by
``reset(seed=…)``, so an episode is reproducible. Rewards are zero until the
game ends: then the learner's final score (``reward="score"``) or 1 for a win
and 0 otherwise (``reward="win"``). The environment is registered as
``alea/AleaIactaEst-v0`` for ``gymnasium.make``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import alea.iacta as iacta
from alea.bots import Bot, ask, make
from alea.envs.encoding import NUM_DISTINCT_ACTIONS, decode, legal_mask
from alea.envs.observation import (
    HIGH,
    OBSERVATION_SIZE,
    Memo,
    observation_string,
    observation_tensor,
)
from alea.envs.pettingzoo import REWARDS, final_rewards
from alea.iacta.state import ROUNDS

__all__ = ["ENV_ID", "AleaIactaEstEnv"]

#: The id under which :func:`gymnasium.make` finds this environment.
ENV_ID: Final = "alea/AleaIactaEst-v0"

Opponent = str | Bot


class AleaIactaEstEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of Alea Iacta Est for a learner, the others for bots."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        players: int = 4,
        seat: int | str = 0,
        opponents: Opponent | Sequence[Opponent] = "medium",
        reward: str = "score",
        illegal_action: str = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if players not in ROUNDS:
            raise ValueError(f"Alea Iacta Est is played by 2 to 5 players, not {players}")
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat must be 0..{players - 1} or 'random', not {seat!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if illegal_action not in ("penalize", "raise"):
            raise ValueError(
                f"illegal_action must be 'penalize' or 'raise', not {illegal_action!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.players = players
        self.seat_choice = seat
        self.reward_mode = reward
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.opponents = self._make_opponents(opponents, players)
        self.observation_space = spaces.Box(
            low=0.0, high=HIGH, shape=(OBSERVATION_SIZE,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(NUM_DISTINCT_ACTIONS)
        self.seat = 0 if seat == "random" else int(seat)
        self.game: iacta.State = iacta.new_game(players)
        self._rng = random.Random(0)
        self._memo = Memo()
        self._done = True

    @staticmethod
    def _make_opponents(spec: Opponent | Sequence[Opponent], players: int) -> list[Bot]:
        """One bot per other seat, from a name, a bot, or one of those per seat."""
        if isinstance(spec, str | Bot):
            specs: list[Opponent] = [spec] * (players - 1)
        else:
            specs = list(spec)
            if len(specs) != players - 1:
                raise ValueError(
                    f"{players} players need {players - 1} opponents, not {len(specs)}"
                )
        return [make(s) if isinstance(s, str) else s for s in specs]

    # ---------------------------------------------------------------- episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start a game and play the bots up to the learner's first decision."""
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(self.players))
        self.game = iacta.new_game(self.players)
        self._memo = Memo()
        self._done = False
        self._advance()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the bots and chance until it decides again."""
        if self._done:
            raise RuntimeError("the episode is over: call reset() first")
        game = self.game
        chosen = decode(int(action)) if 0 <= int(action) < NUM_DISTINCT_ACTIONS else None
        if chosen is None or chosen not in game.legal_actions():
            if self.illegal_action == "raise":
                raise iacta.IllegalActionError(
                    f"action {int(action)} ({chosen}) is not legal here; "
                    f"legal: {', '.join(game.legal_actions())}"
                )
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        game.apply(chosen)
        self._advance()
        reward = 0.0
        if game.is_terminal():
            self._done = True
            reward = final_rewards(game, self.reward_mode)[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._done, False, self._info()

    def _advance(self) -> None:
        """Resolve chance and let the bots play until the learner decides (or the end)."""
        game = self.game
        rng = self._rng
        seat = self.seat
        while not game.is_terminal():
            player = game.current_player()
            if player == seat:
                return
            if player == iacta.CHANCE:
                game.apply(game.sample_chance(rng))
            else:
                bot = self.opponents[player if player < seat else player - 1]
                game.apply(ask(bot, game, rng))

    # ------------------------------------------------------------ observation

    def _observation(self) -> npt.NDArray[np.float32]:
        return observation_tensor(self.game, self.seat, memo=self._memo)

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of the learner now, as an int8 mask (all zero once over)."""
        if self.game.is_terminal() or self.game.current_player() != self.seat:
            return np.zeros(NUM_DISTINCT_ACTIONS, dtype=np.int8)
        return legal_mask(self.game)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seat": self.seat}
        if self.game.is_terminal():
            info["score"] = self.game.returns()[self.seat]
            info["winner"] = self.seat in self.game.winners()
        return info

    def render(self) -> str | None:
        """The table as the learner sees it: printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None:
            return None
        text = observation_string(self.game, self.seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="alea.envs.gymnasium:AleaIactaEstEnv")
