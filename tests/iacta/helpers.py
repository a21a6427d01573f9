"""Shared helpers for engine tests: drive a game with notation strings, or walk a random one."""

from __future__ import annotations

import random
from collections.abc import Iterator

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


def every_node(players: int, seed: int) -> Iterator[iacta.State]:
    """Every position of one seeded random game: decisions, chance events and the final one.

    Yields the live state (use it before the next ``next``): the caller sees
    each position once, in play order.
    """
    rng = random.Random(seed)
    state = iacta.new_game(players)
    while True:
        yield state
        if state.is_terminal():
            return
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
