"""The Senate (RULES.md §4.2): one straight per player, all straights different.

A straight is stored as ``(low, high)``; it is identical to another when both
ends match (same lowest value and same length).
"""

from __future__ import annotations

from alea.iacta.board import Board
from alea.iacta.dice import Roll, roll_info
from alea.iacta.notation import SENATE, Action, dice_action

Straight = tuple[int, int]


def _run_in(mask: int, low: int, high: int) -> bool:
    """Whether every value ``low..high`` is in the bit mask (an empty run is)."""
    return all(mask >> v & 1 for v in range(low, high + 1))


def _bit(straight: Straight) -> int:
    """The bit of ``straight`` in a set of straights kept as one int (bits 9 to 54)."""
    return 1 << (straight[0] * 8 + straight[1])


#: _candidates' memo, indexed by rolled values and own straight packed in one small int
#: (:func:`_candidates_key`): only the values rolled matter, so 63 masks cover the 3,003
#: rolls. A list, indexed without hashing; an entry is made when first asked.
_CANDIDATES: list[tuple[tuple[int, ...], tuple[Action, ...]] | None] = [None] * 4096


def _candidates_key(mask: int, own: Straight | None) -> int:
    """The rolled values (bits 1-6 of ``mask``) and the own straight as one int below 4,096."""
    return (mask >> 1) * 64 + (0 if own is None else own[0] * 8 + own[1])


def _candidates(mask: int, own: Straight | None) -> tuple[tuple[int, ...], tuple[Action, ...]]:
    """Straights reachable with the rolled values ``mask`` (as their :func:`_bit`), and the
    action for each (memoised; two flat tuples, which the garbage collector need not track,
    rather than pairs holding an ``Action``)."""
    key = _candidates_key(mask, own)
    found = _CANDIDATES[key]
    if found is None:
        pairs = _find_candidates(mask, own)
        found = (
            tuple(_bit(straight) for straight, _ in pairs),
            tuple(action for _, action in pairs),
        )
        _CANDIDATES[key] = found
    return found


def _find_candidates(mask: int, own: Straight | None) -> tuple[tuple[Straight, Action], ...]:
    """Straights reachable with the rolled values ``mask`` (a bit per value)."""
    found: list[tuple[Straight, Action]] = []
    if own is None:
        for low in range(1, 7):
            for high in range(low, 7):
                if not _run_in(mask, low, high):
                    break
                found.append(((low, high), dice_action(SENATE, tuple(range(low, high + 1)))))
        return tuple(found)
    old_low, old_high = own
    for low in range(old_low, 0, -1):
        if not _run_in(mask, low, old_low - 1):
            break
        for high in range(old_high, 7):
            if not _run_in(mask, old_high + 1, high):
                break
            if (low, high) == own:
                continue
            dice = tuple(range(low, old_low)) + tuple(range(old_high + 1, high + 1))
            found.append(((low, high), dice_action(SENATE, dice)))
    return tuple(found)


def options(state: Board, seat: int, roll: tuple[int, ...]) -> tuple[Action, ...]:
    """Every legal Senate placement for ``seat`` with ``roll``."""
    return options_for(state, seat, roll_info(roll))


def options_for(state: Board, seat: int, info: Roll) -> tuple[Action, ...]:
    """:func:`options` for the roll ``info`` describes (the engine looks it up once)."""
    straights = state.senate
    bits, actions = _candidates(info.mask, straights[seat])
    if not actions:
        return actions
    taken = 0  # the other seats' straights, one bit each (as _bit): no tuple comparisons
    for q, s in enumerate(straights):
        if s is not None and q != seat:
            taken |= 1 << (s[0] * 8 + s[1])
    if not taken:
        return actions
    return tuple([actions[i] for i in range(len(actions)) if not taken & bits[i]])


def result_of(own: Straight | None, dice: tuple[int, ...]) -> Straight | None:
    """The straight ``own`` becomes with ``dice`` added, or None if it is no straight."""
    values = sorted(set(dice))
    if len(values) != len(dice):
        return None
    if own is not None:
        values = sorted(values + list(range(own[0], own[1] + 1)))
    if len(set(values)) != len(values) or values[-1] - values[0] != len(values) - 1:
        return None
    return values[0], values[-1]


def describe(straight: Straight) -> str:
    """A straight as players say it, e.g. ``3-4-5``."""
    return "-".join(str(v) for v in range(straight[0], straight[1] + 1))


def explain(state: Board, seat: int, dice: tuple[int, ...]) -> str:
    """Why placing ``dice`` in the Senate is illegal (called only when it is)."""
    own = state.senate[seat]
    after = result_of(own, dice)
    if after is None:
        if own is None:
            return "Senate: a straight is dice of consecutive, different values, e.g. 3-4-5"
        return (
            f"Senate: you already have the straight {describe(own)}; you may only extend it "
            "at either end with consecutive values"
        )
    for other, straight in enumerate(state.senate):
        if other != seat and straight == after:
            return (
                f"Senate: seat {other} already has the straight {describe(after)}; "
                "no two straights may be identical"
            )
    return "Senate: that placement is not allowed"


def place(state: Board, seat: int, dice: tuple[int, ...]) -> None:
    """Start or extend ``seat``'s straight (legality already checked).

    A legal placement is a straight (sorted ``dice``) or extends one at either end, so
    the new straight runs from the lower to the higher of the two ends: what
    :func:`result_of` finds, without building its lists.
    """
    own = state.senate[seat]
    low = dice[0]
    high = dice[-1]
    if own is not None:
        if own[0] < low:
            low = own[0]
        if own[1] > high:
            high = own[1]
    state.senate[seat] = (low, high)


def ranking(straights: list[Straight | None]) -> list[int]:
    """Seats with a straight, best first: longest, then highest top value."""
    holders = [(s[1] - s[0], s[1], seat) for seat, s in enumerate(straights) if s is not None]
    holders.sort(reverse=True)
    return [seat for _, _, seat in holders]


def takers(players: int) -> int:
    """How many ranked players take a Senate card: 1 with 2 players, 3 with 5, else 2."""
    return 1 if players == 2 else 3 if players == 5 else 2
