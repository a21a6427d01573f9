"""Undo: taking back your own last decision, the one rule every interface shares.

A player may take back their own last decision while **nothing has happened
since that they did not do themselves**: no chance event (a roll, a reveal, a
draw, a riddle), no decision of another player, no referee's mark and no
clock. Undoing past a chance event would let a player re-roll or re-draw for
free; undoing past someone else's decision would take back a move that is not
theirs. So a decision can be taken back only while it is still the last event. And
only a **public** decision: one every other seat's log shows as it is (a
placement, a province or patrician chosen). A secret one (a Senate card kept,
``K:?`` to the others) may not be taken back, because the next chooser may
already see what it left (the rest of the Senate hand), and after a second
choice would know both. Then nothing is learnt from an undone decision that
the others did not already see: the decision itself, in the open.

In Alea Iacta Est the next player's roll follows every placement and re-roll
at once, so those are never undone online; the choices of an evaluation (a
province in the Castrum, a patrician in the Forum) are, until the next chooser
has chosen.

The terminal game (:mod:`alea.play.session`) lets its bots' decisions after a
person's be taken back with it (the bots are the program's own and play at
once); the server does not (its bots may stand in for people). Both ask
:func:`undo_point` with the events' *deciders*, the seat whose own decision
each event was (:func:`decider`), and go back with :func:`taken_back`.

Pure: it imports nothing but the game contract, like the engines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import alea.game
from alea.game import AnyState, GameInfo, IllegalActionError

__all__ = [
    "CHANCE_SINCE",
    "GAME_OVER",
    "NOTHING",
    "OTHERS_SINCE",
    "SECRET",
    "UndoRefused",
    "decider",
    "deciders_of",
    "taken_back",
    "undo_point",
]

#: Reason codes of a refusal (the server's error codes use the same words).
NOTHING: Final = "nothing_to_undo"
CHANCE_SINCE: Final = "chance_since"
OTHERS_SINCE: Final = "others_since"
SECRET: Final = "secret"
GAME_OVER: Final = "game_over"

_REASONS: Final = {
    NOTHING: "nothing to undo: you have made no decision yet",
    CHANCE_SINCE: "nothing to undo: a chance event (a roll, a reveal or a draw) or the clock "
    "has followed your last decision",
    OTHERS_SINCE: "nothing to undo: another player has decided since your last decision",
    GAME_OVER: "the game is over: nothing can be taken back",
    SECRET: "a secret decision (a Senate card kept) cannot be taken back: the next chooser "
    "may already see what it left",
}


class UndoRefused(IllegalActionError):
    """Undo is not allowed now; ``reason`` is one of the codes of this module."""

    def __init__(self, reason: str) -> None:
        super().__init__(_REASONS[reason])
        self.reason = reason


def decider(info: GameInfo, state: AnyState, event: object) -> int | None:
    """The seat whose own decision ``event`` is, about to be applied to ``state``; None for
    an event that is nobody's decision (chance, a referee's mark, the clock's time-up)."""
    seat = state.current_player()
    if seat < 0:
        return None
    if info.time_up_action is not None and str(event) == info.time_up_action:
        return None  # the clock's, applied out of turn
    return seat


def undo_point(
    state: AnyState,
    deciders: Sequence[int | None],
    seat: int,
    *,
    passes: Callable[[int], bool] | None = None,
) -> int:
    """The index of the event ``seat`` may take back (its events from there on go), or
    :class:`UndoRefused` saying why not.

    ``deciders``: the seat whose decision each event of ``state``'s history was (None:
    chance, referee, clock). ``passes``: seats whose later decisions go back with it
    (the terminal's own bots); by default every other seat's decision blocks the undo.
    """
    if state.is_terminal():
        raise UndoRefused(GAME_OVER)
    for index in range(len(deciders) - 1, -1, -1):
        who = deciders[index]
        if who is None:
            raise UndoRefused(CHANCE_SINCE if seat in deciders[:index] else NOTHING)
        if who == seat:
            if _secret(state, index, seat):
                raise UndoRefused(SECRET)
            return index
        if passes is None or not passes(who):
            raise UndoRefused(OTHERS_SINCE)
    raise UndoRefused(NOTHING)


def _secret(state: AnyState, index: int, seat: int) -> bool:
    """Whether event ``index`` (``seat``'s decision) is hidden from any other seat or a
    spectator: its entry in their log differs from the event itself."""
    event = str(state.history[index])
    others: list[int | None] = [o for o in range(state.players) if o != seat]
    return any(state.log(o, index)[0] != event for o in [*others, None])


def taken_back(state: AnyState, index: int) -> AnyState:
    """A new state: ``state`` with its events from ``index`` on taken back (replayed from its
    record without them; ``state`` is not changed)."""
    record = state.record()
    record.pop("result", None)
    record["events"] = list(record["events"])[:index]
    return alea.game.info(str(record["game"])).replay(record)


def deciders_of(state: AnyState) -> list[int | None]:
    """The decider of each event of ``state``'s history (:func:`decider`), found by
    replaying its record from a new game (for a game loaded from a record or a file)."""
    record = state.record()
    info = alea.game.info(str(record["game"]))
    replay = info.new_game(int(record["players"]), **dict(record.get("options") or {}))
    found: list[int | None] = []
    for event in record["events"]:
        found.append(decider(info, replay, event))
        replay.apply(event)
    return found
