"""The rules engine of *Alea Iacta Est* (RULES.md Part A), standard library only.

>>> import random
>>> import alea.iacta as iacta
>>> state = iacta.new_game(players=4)
>>> state.is_chance()
True
>>> rng = random.Random(7)
>>> while state.is_chance():
...     state.apply(state.sample_chance(rng))
>>> state.current_player()
0
>>> len(state.roll)
8

The public API: :func:`new_game`, :class:`State` (``current_player``,
``legal_actions``, ``chance_outcomes``, ``apply``, ``sample_chance``,
``clone``, ``returns``, ``winners``, ``view``, ``log``, ``to_json``,
``from_json``, ``record``, and the rest of the game contract of
:mod:`alea.game`), :func:`replay`, :class:`Action`, :class:`Outcome`,
:func:`parse`, the errors, and :data:`INFO`, the game's fixed facts.
"""

from alea.game import CHANCE, TERMINAL
from alea.iacta.errors import AleaError, IllegalActionError, NotationError
from alea.iacta.info import INFO
from alea.iacta.notation import Action, Outcome, parse
from alea.iacta.records import record, replay
from alea.iacta.state import State, new_game

__all__ = [
    "CHANCE",
    "INFO",
    "TERMINAL",
    "Action",
    "AleaError",
    "IllegalActionError",
    "NotationError",
    "Outcome",
    "State",
    "new_game",
    "parse",
    "record",
    "replay",
]
