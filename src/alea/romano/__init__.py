"""Dado Romano: the Roman party dice game of RULES.md Part B.

The rules engine (this package, standard library only) speaks the game
contract of :mod:`alea.game`, like the main game's :mod:`alea.iacta`: a
mutable :class:`State` with ``current_player``, ``legal_actions``,
``chance_outcomes``, ``apply``, ``clone``, views and JSON round-trips,
:func:`replay` for game records, and :data:`INFO`, the game's fixed facts.
The terminal game is :mod:`alea.play.romano` and the random-game statistics
are :mod:`alea.sim.romano` (both use rich; the engine does not).
"""

from __future__ import annotations

from alea.game import CHANCE, REFEREE, TERMINAL
from alea.romano.bank import Bank, Item, default_bank
from alea.romano.ceiling import TARGET, is_above, landed_change
from alea.romano.combinations import FIGURES, Figure, face, figure
from alea.romano.events import Event
from alea.romano.info import INFO
from alea.romano.notation import Action, IllegalActionError, NotationError, Outcome, parse
from alea.romano.records import new_game, position, replay
from alea.romano.state import State

__all__ = [
    "CHANCE",
    "FIGURES",
    "INFO",
    "REFEREE",
    "TARGET",
    "TERMINAL",
    "Action",
    "Bank",
    "Event",
    "Figure",
    "IllegalActionError",
    "Item",
    "NotationError",
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
