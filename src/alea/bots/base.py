"""The one interface every bot implements, and the driver helper that keeps bots honest.

A bot is given exactly what a player at the table knows: its seat's view
(``state.view(seat)``, RULES.md §6), the legal actions, and a
``random.Random`` for any randomness it wants. It returns one of the legal
actions. It never receives the :class:`~alea.iacta.State`: a bot that wants
to look into hidden information must sample it from what its view allows
(:func:`alea.iacta.determinize.determinize`). Keeping the state out of the
signature makes cheating impossible by construction rather than by review.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from alea.iacta.notation import Action

if TYPE_CHECKING:
    from alea.game import GameState

ActionT = TypeVar("ActionT")


class Bot(ABC):
    """A player program: ``act(view, legal_actions, rng) -> action``."""

    #: A short name for tables and logs (``"greedy"``, ``"hard"`` ...).
    name: str = "bot"

    @abstractmethod
    def act(
        self, view: dict[str, Any], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """One of ``legal_actions``, chosen from ``view`` (and ``rng``) alone."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def ask(bot: Bot, state: GameState[ActionT, Any], rng: random.Random) -> ActionT:
    """Ask ``bot`` for the decision of the seat to move, showing it only that seat's view.

    Every driver (tournaments, terminal play, the server) goes through here,
    so the rule "bots see views, never states" is enforced in one place, and
    a bot that answers with an illegal action is caught at once. ``state`` is a
    state of any game (:class:`alea.game.GameState`).
    """
    seat = state.current_player()
    if seat < 0:
        raise ValueError("no player decides now (chance event or game over)")
    legal = state.legal_actions()
    # A bot of any game takes that game's actions (typed as Alea Iacta Est's, its first).
    action: Any = bot.act(state.view(seat), list(legal), rng)  # type: ignore[arg-type]
    if action not in legal:
        raise ValueError(f"bot {bot.name!r} chose {action!r}, which is not legal here")
    return legal[legal.index(action)]
