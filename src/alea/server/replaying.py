"""A game's state rebuilt from its stored log, with who acted and who decided each event.

Shared by the core (rebuilding a game) and the snapshots' verifier (replaying the
part of a log a snapshot covers), so that both replay exactly alike.
"""

from __future__ import annotations

from typing import Any

from alea.game import AnyState, IllegalActionError
from alea.server.games import hosted
from alea.server.tables import GameRecord
from alea.undo import decider


def replay_log(
    state: AnyState, record: GameRecord
) -> tuple[AnyState, list[int | None], list[int | None]]:
    """``state`` with the stored events of ``record`` applied, each event's actor and
    decider (:func:`alea.undo.decider`); ValueError naming the first event the engine
    refuses."""
    info = hosted(record.game)
    actors: list[int | None] = []
    deciders: list[int | None] = []
    for index, token in enumerate(record.events):
        actors.append(state.actor())
        deciders.append(decider(info, state, token))
        try:
            state.apply(token)
        except IllegalActionError as err:
            raise ValueError(f"event {index} ({token}): {err}") from None
    return state, actors, deciders


def draw_chance(state: AnyState, rng: Any) -> list[int | None]:
    """Draw every chance event due in ``state`` (in place), until someone must decide.

    Returns the seat each drawn event belongs to (its ``actor`` in the log).
    """
    actors: list[int | None] = []
    while state.is_chance():
        actors.append(state.actor())
        state.apply(state.sample_chance(rng))
    return actors
