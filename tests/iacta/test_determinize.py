"""determinize(): a full state consistent with a seat's view, playable to the end."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import alea.iacta as iacta
from alea.iacta.determinize import DeterminizeError, determinize


def _positions(players: int, seed: int, every: int = 7) -> Iterator[iacta.State]:
    """Positions of one random game (every ``every``-th event, plus the end)."""
    rng = random.Random(seed)
    state = iacta.new_game(players)
    step = 0
    while not state.is_terminal():
        if step % every == 0:
            yield state.clone()
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        step += 1
    yield state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_view_is_preserved(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(3):
        for state in _positions(players, seed * 10 + players):
            for seat in range(players):
                view = state.view(seat)
                sampled = determinize(view, rng)
                assert sampled.view(seat) == view
                assert sampled.clone().view(seat) == view
                assert sampled.current_player() == state.current_player()
                if state.current_player() == seat:
                    assert sampled.legal_actions() == state.legal_actions()
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [2, 4, 5])
def test_determinised_state_plays_to_the_end(players: int) -> None:
    rng = random.Random(99)
    for i, state in enumerate(_positions(players, 1000 + players, every=37)):
        seat = i % players
        sampled = determinize(state.view(seat), rng)
        while not sampled.is_terminal():
            if sampled.is_chance():
                sampled.apply(sampled.sample_chance(rng))
            else:
                sampled.apply(rng.choice(sampled.legal_actions()))
        assert len(sampled.returns()) == players


def test_hidden_parts_vary_and_conserve_cards() -> None:
    """Other seats' Senate cards and Fortuna draws are really sampled, and add up."""
    rng = random.Random(5)
    seen_cards: set[tuple[str, ...]] = set()
    for state in _positions(4, 77, every=3):
        if state.is_terminal() or not any(state.senate_cards[1:]):
            continue
        view = state.view(0)
        for _ in range(20):
            sampled = determinize(view, rng)
            assert sampled.senate_cards[0] == state.senate_cards[0]
            assert [len(c) for c in sampled.senate_cards] == [len(c) for c in state.senate_cards]
            every = (
                sampled.senate_pool
                + sampled.senate_hand
                + [c for c, _ in sampled.senate_bottom]
                + [c for cards in sampled.senate_cards for c in cards]
            )
            assert sorted(every) == sorted(
                state.senate_pool
                + state.senate_hand
                + [c for c, _ in state.senate_bottom]
                + [c for cards in state.senate_cards for c in cards]
            )
            tiles = (
                sampled.fortuna_stack[1]
                + sampled.fortuna_stack[2]
                + sampled.fortuna_stack[3]
                + sum(sampled.fortuna_discards)
                + sum(len(d) for d in sampled.fortuna_drawn)
                + sum(len(k) for k in sampled.fortuna_kept)
            )
            assert tiles == 30
            seen_cards.add(tuple(sorted(c for cards in sampled.senate_cards[1:] for c in cards)))
        break
    assert len(seen_cards) > 1


def test_same_rng_same_sample() -> None:
    state = next(s for i, s in enumerate(_positions(4, 3, every=11)) if i == 12)
    view = state.view(2)
    assert determinize(view, random.Random(1)) == determinize(view, random.Random(1))


def test_spectator_view_is_refused() -> None:
    state = iacta.new_game(3)
    with pytest.raises(DeterminizeError):
        determinize(state.view(None), random.Random(0))


def test_impossible_view_is_refused() -> None:
    state = iacta.new_game(4)
    view = state.view(0)
    view["players_info"][1]["provinces"] = ["red4"]
    view["removed"]["provinces"] = ["red4"]
    with pytest.raises(DeterminizeError):
        determinize(view, random.Random(0))
