"""Bots that play at random: the ``random`` baseline and the ``easy`` level.

``random`` is uniform over the legal actions, re-rolls included: the floor
every other bot must beat by a wide margin. ``easy`` is what a beginner
plays like: it never wastes its tokens on aimless re-rolls, usually picks a
placement at random, and now and then sees the good move (it asks the greedy
bot with probability ``insight``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from alea.bots.base import Bot
from alea.iacta.notation import REROLL, Action


class RandomBot(Bot):
    """Uniform over the legal actions."""

    def __init__(self, name: str = "random") -> None:
        self.name = name

    def act(
        self, view: dict[str, Any], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """A legal action drawn uniformly with ``rng``."""
        return legal_actions[int(rng.random() * len(legal_actions))]


class EasyBot(Bot):
    """Random placements without re-rolls, and the greedy choice now and then."""

    def __init__(self, insight: float = 0.25, reroll: float = 0.05, name: str = "easy") -> None:
        from alea.bots.greedy import GreedyBot, GreedyParams

        self.insight = insight
        self.reroll = reroll
        self.name = name
        self._greedy = GreedyBot(GreedyParams(reroll_samples=0))

    def act(
        self, view: dict[str, Any], legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Greedy with probability ``insight``, else a random placement or card."""
        if rng.random() < self.insight:
            return self._greedy.act(view, legal_actions, rng)
        places = [a for a in legal_actions if a.kind != REROLL]
        if len(places) < len(legal_actions) and rng.random() < self.reroll:
            places = [a for a in legal_actions if a.kind == REROLL]
        return places[int(rng.random() * len(places))]
