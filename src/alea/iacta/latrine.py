"""The Latrine (RULES.md §4.5): one die, only when nothing else is legal.

Dice in the Latrine earn one re-roll token each at evaluation.
"""

from __future__ import annotations

from functools import cache

from alea.iacta.notation import LATRINE, Action, dice_action


@cache
def options(roll: tuple[int, ...]) -> tuple[Action, ...]:
    """The forced Latrine placements: any one die of the roll."""
    return tuple(dice_action(LATRINE, (value,)) for value in sorted(set(roll)))


def explain(dice: tuple[int, ...], other_placements: bool) -> str:
    """Why placing ``dice`` in the Latrine is illegal (called only when it is)."""
    if other_placements:
        return (
            "Latrine: a die may go to the Latrine only when no other building can take any "
            "of your dice"
        )
    return "Latrine: place exactly one die in the Latrine"
