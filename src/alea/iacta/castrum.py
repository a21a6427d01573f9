"""The Castrum (RULES.md §4.3): sets of equal dice that conquer provinces.

Sets are stored as ``{(owner, value): count}``: a player has at most one set
of each value, and no two sets anywhere may share both value and count.
"""

from __future__ import annotations

from alea.iacta.board import Board
from alea.iacta.dice import Roll, roll_info
from alea.iacta.notation import CASTRUM, Action, dice_action

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


#: CASTRUM_ACTIONS[value][k - 1] is the action placing k dice of ``value`` (value 0 unused).
CASTRUM_ACTIONS: tuple[tuple[Action, ...], ...] = (
    (),
    *(tuple(dice_action(CASTRUM, (value,) * k) for k in range(1, 9)) for value in range(1, 7)),
)


#: _allowed's memo, indexed by :func:`_allowed_key` (a list: no hashing).
_ALLOWED: list[tuple[Action, ...] | None] = [None] * (256 * 80)


def _all_options(info: Roll) -> tuple[Action, ...]:
    """Every set the roll can form in an empty Castrum (kept on its :class:`Roll`)."""
    found = info.castrum_all
    if found is None:
        found = tuple(
            CASTRUM_ACTIONS[value][k - 1] for value, have in info.groups for k in range(1, have + 1)
        )
        info.castrum_all = found
    return found


def _allowed_key(value: int, have: int, blocked: int) -> int:
    """One int below 20,480 for :func:`_allowed`'s arguments (sizes 1-8 of ``blocked``)."""
    return (blocked & 0x1FE) * 40 + have * 8 + value


def _allowed(value: int, have: int, blocked: int) -> tuple[Action, ...]:
    """Placements of 1..``have`` dice of ``value`` where bit k of ``blocked`` forbids k dice."""
    key = _allowed_key(value, have, blocked)
    found = _ALLOWED[key]
    if found is None:
        found = tuple(
            CASTRUM_ACTIONS[value][k - 1] for k in range(1, have + 1) if not blocked >> k & 1
        )
        _ALLOWED[key] = found
    return found


def options(state: Board, seat: int, roll: tuple[int, ...]) -> list[Action] | tuple[Action, ...]:
    """Every legal Castrum placement for ``seat`` with ``roll``.

    For each value, a bit mask of the set sizes already in the Castrum,
    shifted by the size of the player's own set of that value, says which
    numbers of dice would make an identical set.
    """
    return options_for(state, seat, roll_info(roll))


def options_for(state: Board, seat: int, info: Roll) -> list[Action] | tuple[Action, ...]:
    """:func:`options` for the roll ``info`` describes (the engine looks it up once).

    The sizes taken of each value, and the seat's own sizes, are packed in two ints (nine
    bits per value, four bits per value) rather than two lists made on every call.
    """
    sets = state.castrum
    if not sets:
        return _all_options(info)
    taken = 0  # bit 9 * value + k: some set of ``value`` has k dice
    own = 0  # bits 4 * value ...: the size of the seat's own set of ``value``
    for (owner, value), count in sets.items():  # unpacked in the loop: no item look-ups
        taken |= 1 << (9 * value + count)
        if owner == seat:
            own |= count << (4 * value)
    groups = info.groups
    if len(groups) == 1:
        value, have = groups[0]
        return _allowed(value, have, (taken >> 9 * value & 0x1FF) >> (own >> 4 * value & 15))
    found: list[Action] = []
    for value, have in groups:
        found.extend(_allowed(value, have, (taken >> 9 * value & 0x1FF) >> (own >> 4 * value & 15)))
    return found


def describe(value: int, count: int) -> str:
    """A set as players say it, e.g. ``three 4s``."""
    word = NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)
    return f"{word} {value}{'s' if count > 1 else ''}"


def explain(state: Board, seat: int, dice: tuple[int, ...]) -> str:
    """Why placing ``dice`` in the Castrum is illegal (called only when it is)."""
    if len(set(dice)) != 1:
        return (
            "Castrum: place one set of equal dice, or add equal dice to one of your sets; "
            "never two values in one turn"
        )
    value = dice[0]
    base = state.castrum.get((seat, value), 0)
    after = base + len(dice)
    for (owner, v), count in state.castrum.items():
        if v == value and count == after and owner != seat:
            what = f"your set would become {describe(value, after)}" if base else "it would match"
            return (
                f"Castrum: seat {owner} already has a set of {describe(value, count)} and "
                f"{what}; no two sets may be identical"
            )
    return "Castrum: that placement is not allowed"


def place(state: Board, seat: int, dice: tuple[int, ...]) -> None:
    """Start or grow ``seat``'s set of ``dice[0]`` (legality already checked)."""
    key = (seat, dice[0])
    state.castrum[key] = state.castrum.get(key, 0) + len(dice)


def ranking(sets: dict[tuple[int, int], int]) -> list[tuple[int, int, int]]:
    """All sets as ``(owner, value, count)``, best first: most dice, then highest value."""
    ordered = sorted(
        ((count, value, owner) for (owner, value), count in sets.items()), reverse=True
    )
    return [(owner, value, count) for count, value, owner in ordered]
