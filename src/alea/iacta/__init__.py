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

The engine may be compiled by mypyc from these same sources (docs/engine.md);
:data:`COMPILED` says whether this process runs the compiled modules, chosen
before any of them is imported (:mod:`alea.iacta._compiled`).
"""

from alea.iacta._compiled import choose as _choose

#: Whether the compiled engine is in use (False: the pure-Python modules).
COMPILED: bool = _choose(__name__, __path__[0]).compiled

from alea.game import CHANCE, TERMINAL  # noqa: E402 (after the choice of modules)
from alea.iacta.errors import AleaError, IllegalActionError, NotationError  # noqa: E402
from alea.iacta.info import INFO  # noqa: E402
from alea.iacta.notation import Action, Outcome, parse  # noqa: E402
from alea.iacta.records import record, replay  # noqa: E402
from alea.iacta.state import State, new_game  # noqa: E402

__all__ = [
    "CHANCE",
    "COMPILED",
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
