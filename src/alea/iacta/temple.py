"""The Temple (RULES.md §4.1): growing groups of dice that earn Fortuna tiles.

Only used with 4 or 5 players. Each player has at most one group; the group
sizes are all different, so there is a single *leading* group (the largest).
A placement must bring the player's group to exactly one die more than the
leading group, with a larger sum.
"""

from __future__ import annotations

from alea.iacta.board import Board
from alea.iacta.dice import Roll, roll_info, submultisets_by_size
from alea.iacta.notation import TEMPLE, Action, dice_action


def leading(groups: list[tuple[int, ...]]) -> tuple[int, int]:
    """Size and pip sum of the leading group, ``(0, 0)`` for an empty Temple."""
    size = 0
    best: tuple[int, ...] = ()
    for group in groups:
        if len(group) > size:
            size = len(group)
            best = group
    return size, sum(best)


def _sized(info: Roll, count: int) -> tuple[Action, ...]:
    """``info.temple_actions[count]`` (and ``temple_totals``), made on first use."""
    found = info.temple_actions[count]
    if found is None:
        by_size = submultisets_by_size(info.dice, count)
        found = tuple(dice_action(TEMPLE, dice) for dice, _ in by_size)
        info.temple_totals[count] = tuple(total for _, total in by_size)
        info.temple_actions[count] = found
    return found


def _actions(info: Roll, count: int, min_sum: int) -> list[Action]:
    """Placements of ``count`` dice of the roll adding up to ``min_sum`` or more (a new list)."""
    if count > len(info.dice):
        return []
    actions = info.temple_actions[count]
    if actions is None:
        actions = _sized(info, count)
    totals = info.temple_totals[count]  # made with ``actions``: the same length
    # A plain zip (no ``strict=``): mypyc compiles only that form to a native loop.
    return [a for a, total in zip(actions, totals) if total >= min_sum]  # noqa: B905


def requirement(state: Board, seat: int) -> tuple[int, int]:
    """How many dice ``seat`` must add, and the least pip sum they must add up to."""
    size, total = leading(state.temple)
    own = state.temple[seat]
    return size + 1 - len(own), total - sum(own) + 1


def options(state: Board, seat: int, roll: tuple[int, ...]) -> list[Action]:
    """Every legal Temple placement for ``seat`` with ``roll``."""
    return options_for(state, seat, roll_info(roll))


def options_for(state: Board, seat: int, info: Roll) -> list[Action]:
    """:func:`options` for the roll ``info`` describes (the engine looks it up once), as a
    new list: the engine's legal list starts from it."""
    count, min_sum = requirement(state, seat)
    return _actions(info, count, min_sum)


def explain(state: Board, seat: int, dice: tuple[int, ...]) -> str:
    """Why placing ``dice`` in the Temple is illegal (called only when it is)."""
    if state.players < 4:
        return "Temple: the Temple is only used with 4 or 5 players"
    size, total = leading(state.temple)
    own = state.temple[seat]
    count, min_sum = requirement(state, seat)
    if len(dice) != count:
        if own:
            return (
                f"Temple: the leading group has {size} dice, so your group of {len(own)} must "
                f"grow to exactly {size + 1}: add {count} dice"
            )
        return (
            f"Temple: the leading group has {size} dice, so a new group must have exactly "
            f"{size + 1}"
        )
    return (
        f"Temple: your group must add up to more than the leading group's {total}: "
        f"the dice you add must sum to at least {min_sum}"
    )


def place(state: Board, seat: int, dice: tuple[int, ...]) -> None:
    """Add ``dice`` to ``seat``'s group (legality already checked)."""
    state.temple[seat] = tuple(sorted(state.temple[seat] + dice))
