"""The Latrine (RULES.md §4.5): one die, only when nothing else is legal.

Dice in the Latrine earn one re-roll token each at evaluation.
"""

from __future__ import annotations

from alea.iacta.dice import Roll
from alea.iacta.notation import LATRINE, Action, dice_action

_OPTIONS: dict[tuple[int, ...], tuple[Action, ...]] = {}


def options(roll: tuple[int, ...]) -> tuple[Action, ...]:
    """The forced Latrine placements: any one die of the roll."""
    found = _OPTIONS.get(roll)
    if found is None:
        found = tuple(dice_action(LATRINE, (value,)) for value in sorted(set(roll)))
        _OPTIONS[roll] = found
    return found


def options_for(info: Roll) -> tuple[Action, ...]:
    """:func:`options` for the roll ``info`` describes (kept on its record)."""
    found = info.latrine
    if found is None:
        found = info.latrine = options(info.dice)
    return found


def explain(dice: tuple[int, ...], other_placements: bool) -> str:
    """Why placing ``dice`` in the Latrine is illegal (called only when it is)."""
    if other_placements:
        return (
            "Latrine: a die may go to the Latrine only when no other building can take any "
            "of your dice"
        )
    return "Latrine: place exactly one die in the Latrine"
