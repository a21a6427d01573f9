"""The engine's fast paths give exactly what the plain rules and searches give.

Each shortcut of the fourth speed round (docs/engine.md, "Compiled engine") is checked
against the plain way it replaced: the roll sampler's guided search against a binary
search, the Forum's two reads against counting the row, and the outcomes ``apply`` skips
checking (the one ``sample_chance`` just drew) against outcomes no longer possible.
"""

from __future__ import annotations

import random
from bisect import bisect

import pytest

import alea.iacta as iacta
from alea.iacta import dice, forum
from alea.iacta.board import Board
from alea.iacta.dice import roll_info
from alea.iacta.state import REVEAL_PROVINCE
from tests.iacta.helpers import play, started


@pytest.mark.parametrize("count", range(1, 9))
def test_guided_draw_is_the_binary_search(count: int) -> None:
    sampler = dice.roll_sampler(count)
    records, cumulative, _ = sampler
    rng = random.Random(count)
    # Uniform draws, every boundary and its neighbours, and the ends of [0, 1).
    points = [rng.random() for _ in range(3000)] + [0.0, 1.0 - 2.0**-53]
    for c in cumulative:
        points += [c, c - 2.0**-53, c + 2.0**-53]
    for u in points:
        if 0.0 <= u < 1.0:
            assert dice.draw(sampler, u) is records[bisect(cumulative, u)], u


def _forum_reference(row: list[tuple[int, int]], cols: int, roll: tuple[int, ...]) -> list[str]:
    """The Forum's placements counted from the row (RULES.md §4.4), the slow way."""

    def lower(v: int) -> int:
        return sum(1 for value, _ in row if value < v)

    found = [f"F:{v}" for v in sorted(set(roll)) if lower(v) < cols]
    if 1 in roll and 4 in roll and lower(4) + 1 < cols:
        found.append("F:14")
    if 2 in roll and 3 in roll and lower(3) + 1 < cols:
        found.append("F:23")
    return found


def test_forum_reads_two_columns_as_counting_the_row_does() -> None:
    rng = random.Random(5)
    for _ in range(3000):
        players = rng.randint(2, 5)
        cols = players + 2
        row = sorted(
            (rng.randint(1, 6), rng.randrange(players)) for _ in range(rng.randint(0, cols))
        )
        roll = tuple(sorted(rng.randint(1, 6) for _ in range(rng.randint(1, 8))))
        board = Board(players, [()] * players, [None] * players, {}, row)
        found = forum.options_for(board, 0, roll_info(roll))
        assert list(found) == _forum_reference(row, cols, roll), (row, roll)


def test_a_drawn_card_is_applied_unchecked_only_where_it_was_drawn() -> None:
    state = iacta.new_game(4)
    assert state.phase == REVEAL_PROVINCE
    drawn = state.sample_chance(random.Random(1))
    twin = state.clone()
    state.apply(drawn)  # the drawn card is revealed
    card = drawn.card
    assert card in state.revealed_provinces and card not in state.province_pool
    # Drawn again where it is no longer unseen: refused, here and in the clone made before.
    with pytest.raises(iacta.IllegalActionError):
        state.apply(drawn)
    twin.apply(drawn)  # the clone was made while it was still possible: checked, and legal
    assert card in twin.revealed_provinces
    # A draw left unapplied is forgotten once another outcome is applied.
    other = iacta.new_game(4)
    first = other.sample_chance(random.Random(2))
    second = next(o for o, _ in other.chance_outcomes() if o != first)
    other.apply(first)
    with pytest.raises(iacta.IllegalActionError):
        other.apply(first)
    other.apply(second)
    assert second.card in other.revealed_provinces


def test_a_sampled_roll_of_the_wrong_count_is_refused() -> None:
    state = started(4)
    play(state, "roll:11111111 C:1")  # seat 0 has seven dice left; seat 1 rolls eight
    rng = random.Random(3)
    rolled = state.sample_chance(rng)
    assert len(rolled.dice) == 8
    seven = state.clone()
    seven.dice_left[seven.player] = 7  # (a position where seven dice are rolled)
    with pytest.raises(iacta.IllegalActionError):
        seven.apply(rolled)
    state.apply(rolled)
    assert state.roll == rolled.dice
