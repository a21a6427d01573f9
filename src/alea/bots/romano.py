"""Dado Romano's bot: a uniformly random legal action (answers included).

Dado Romano (RULES.md Part B) is a party game of luck and trivia: there is no
strategy worth a search, so its one bot picks uniformly among the legal
actions, whatever level a seat asks for. It lives here, beside the Alea Iacta
Est bots, so that every driver (the server among them) asks it through
:func:`alea.bots.ask` like any other bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from alea.bots.base import Bot


class RandomRomanoBot(Bot):
    """Uniform over the legal actions of a Dado Romano decision."""

    def __init__(self, name: str = "random") -> None:
        self.name = name

    def act(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """A legal action drawn uniformly with ``rng`` (the view is not needed)."""
        return rng.choice(legal_actions)
