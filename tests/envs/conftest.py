"""Shared fixtures for the research-interface tests: random positions of every player count."""

from __future__ import annotations

import random
from collections.abc import Iterator

import alea.iacta as iacta


def random_game(players: int, seed: int) -> Iterator[iacta.State]:
    """Every decision point of one uniformly random game, then its final state."""
    rng = random.Random(seed)
    state = iacta.new_game(players)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        yield state
        state.apply(rng.choice(state.legal_actions()))
    yield state
