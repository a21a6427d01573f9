"""The 150 ceiling (RULES.md B3 and B6), kept in this one module.

Every change to a score goes through :func:`landed_change` or
:func:`landed_value`, so the rule "above 150 at the start of the turn, gains
and losses are inverted; *set to* effects are not" lives in exactly one place
and the engine never re-implements it per figure.
"""

from __future__ import annotations

from typing import Final

#: The score every player aims at: ending a turn on exactly this wins (B1).
TARGET: Final = 150


def is_above(score: int) -> bool:
    """Whether a score puts its owner above the ceiling (strictly more than 150).

    The engine samples this for every player at the start of each turn (B6) and
    keeps the answer fixed for the whole turn, whoever's turn it is.
    """
    return score > TARGET


def landed_change(change: int, inverted: bool) -> int:
    """The change that actually lands on a score: the opposite one when inverted.

    ``change`` is the nominal change of the effect (+10 for Tacitus, −5 for
    Constantinus, new − old for halving and doubling); ``inverted`` is the
    player's ceiling state fixed at the start of the current turn.
    """
    return -change if inverted else change


def landed_value(score: int, change: int, inverted: bool) -> int:
    """The new score after a relative change of ``change`` under the ceiling."""
    return score + landed_change(change, inverted)


def distance(score: int) -> int:
    """How far a score is from 150, above or below (the time-limit criterion, B1)."""
    return abs(score - TARGET)
