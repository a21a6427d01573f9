"""Shared helpers for engine tests: drive a game with notation strings."""

from __future__ import annotations

import alea.iacta as iacta
from alea.iacta.cards import PATRICIANS, PROVINCES


def play(state: iacta.State, events: str) -> iacta.State:
    """Apply space-separated notation tokens in order; return the state."""
    for token in events.split():
        state.apply(token)
    return state


def reveal(
    state: iacta.State, provinces: list[str] | None = None, patricians: list[str] | None = None
) -> iacta.State:
    """Do the round's reveals: the given cards, else the first unseen ones in box order."""
    n = state.players
    provinces = provinces or [p for p in PROVINCES if p in state.province_pool][:n]
    patricians = patricians or [p for p in PATRICIANS if p in state.patrician_pool][: n + 2]
    for card in provinces:
        state.apply(f"province:{card}")
    for card in patricians:
        state.apply(f"patrician:{card}")
    return state


def started(players: int) -> iacta.State:
    """A new game with its first reveals done: the start player is about to roll."""
    return reveal(iacta.new_game(players))
