"""The Forum (RULES.md §4.4): a sorted row of columns; dice pushed off the end are lost.

The row is a list of ``(value, owner)`` kept sorted by value. A new die goes
to the right of every lower die and to the left of every equal or higher one.
"""

from __future__ import annotations

from bisect import bisect_left

from alea.iacta.board import Board
from alea.iacta.dice import Roll, roll_info
from alea.iacta.notation import FORUM, Action, dice_action

#: The two pairs that may be placed together: they sum to 5.
PAIRS = ((1, 4), (2, 3))


def columns(players: int) -> int:
    """Number of Forum columns: players + 2 (RULES.md §2)."""
    return players + 2


def _index(row: list[tuple[int, int]], value: int) -> int:
    """Column a die of ``value`` would land in: after every lower die."""
    return bisect_left(row, (value, -1))


def _options(info: Roll, limit: int, pair14: bool, pair23: bool) -> tuple[Action, ...]:
    """Forum placements of the roll when values below ``limit`` fit and the pairs as given."""
    memo = info.forum_memo
    key = limit * 4 + (2 if pair14 else 0) + (1 if pair23 else 0)
    found = memo[key]
    if found is None:
        counts = info.counts
        actions = [dice_action(FORUM, (value,)) for value in range(1, limit) if counts[value]]
        if pair14 and counts[1] and counts[4]:
            actions.append(dice_action(FORUM, (1, 4)))
        if pair23 and counts[2] and counts[3]:
            actions.append(dice_action(FORUM, (2, 3)))
        found = tuple(actions)
        memo[key] = found
    return found


def options(state: Board, seat: int, roll: tuple[int, ...]) -> tuple[Action, ...]:
    """Every legal Forum placement for ``seat`` with ``roll``.

    A die of value v fits when fewer than ``columns`` dice are lower than v, a
    pair when the higher die still lands inside; with two free columns
    everything fits.
    """
    return options_for(state, seat, roll_info(roll))


def options_for(state: Board, seat: int, info: Roll) -> tuple[Action, ...]:
    """:func:`options` for the roll ``info`` describes (the engine looks it up once).

    The row is sorted, so "fewer than ``columns`` dice lower than v" is "the die in the
    last column (if any) is not lower than v", and a pair's higher die fits when the die
    in the last column but one is not lower than it: two reads, no search.
    """
    row = state.forum
    cols = state.players + 2
    n = len(row)
    if n + 1 < cols:
        return _options(info, 7, True, True)
    # Values below ``limit`` fit: all when the last column is free, else up to that die.
    limit = row[cols - 1][0] + 1 if n >= cols else 7
    before_last = row[cols - 2][0]
    return _options(info, limit, before_last >= 4, before_last >= 3)


def explain(state: Board, seat: int, dice: tuple[int, ...]) -> str:
    """Why placing ``dice`` in the Forum is illegal (called only when it is)."""
    if len(dice) > 2 or (len(dice) == 2 and dice not in PAIRS):
        return "Forum: place one die of any value, or two dice that sum to 5 (1+4 or 2+3)"
    return (
        f"Forum: the row has only {columns(state.players)} columns; a die you place may not "
        "itself be pushed off the end"
    )


def place(state: Board, seat: int, dice: tuple[int, ...]) -> list[int]:
    """Insert ``dice`` (legality already checked); return the owners of dice pushed off."""
    row = state.forum
    for value in dice:
        row.insert(_index(row, value), (value, seat))
    pushed: list[int] = []
    cols = state.players + 2
    while len(row) > cols:
        pushed.append(row.pop()[1])
    return pushed
