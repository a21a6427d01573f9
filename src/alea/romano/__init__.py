"""Dado Romano: the Roman party dice game of RULES.md Part B.

The rules engine (this package, standard library only) is shaped like the main
game's :mod:`alea.iacta`: a mutable :class:`State` with ``current_player``,
``legal_actions``, ``chance_outcomes``, ``apply``, ``clone`` and JSON
round-trips, and :func:`replay` for game records. The terminal game is
:mod:`alea.romano.play` and the random-game statistics are
:mod:`alea.romano.simulate` (both use rich; the engine does not).
"""

from __future__ import annotations

from alea.romano.bank import Bank, Item, default_bank
from alea.romano.ceiling import TARGET, is_above, landed_change
from alea.romano.combinations import FIGURES, Figure, face, figure
from alea.romano.notation import Action, IllegalActionError, Outcome, parse
from alea.romano.state import (
    CHANCE,
    REFEREE,
    TERMINAL,
    Event,
    State,
    new_game,
    position,
    replay,
)

__all__ = [
    "CHANCE",
    "FIGURES",
    "REFEREE",
    "TARGET",
    "TERMINAL",
    "Action",
    "Bank",
    "Event",
    "Figure",
    "IllegalActionError",
    "Item",
    "Outcome",
    "State",
    "default_bank",
    "face",
    "figure",
    "is_above",
    "landed_change",
    "new_game",
    "parse",
    "position",
    "replay",
]
