"""The games a server hosts: whatever :mod:`alea.game` has registered, through its contract.

No module of :mod:`alea.server` knows a rules engine by name. A stored game
names its game (``games.game``, a registered :class:`~alea.game.GameInfo`'s
short name); :func:`hosted` finds its facts in the registry, and everything
else the server needs is a member of the contract: the facts of
:class:`~alea.game.GameInfo` (player counts, colours, time limit and the
action a clock applies when it runs out, whether a person may referee, the
notation) and the questions a :class:`~alea.game.GameState` answers (who the
next event belongs to, each seat's view and log, what a human referee asks, the
result, the replay of a finished game). Registering a third game with
:func:`alea.game.register` is all it takes for the server to host it.

A game may have a *human* referee when its facts say so (Dado Romano,
RULES.md B5): the server then makes the game with the option
``referee="human"``, and the decisions at :data:`~alea.game.REFEREE` belong
to the referee role, not to any seat.
"""

from __future__ import annotations

from typing import Any, Final

import alea.game
from alea.game import AnyState, GameInfo
from alea.server.errors import ServerError
from alea.server.tables import DEFAULT_GAME

__all__ = [
    "DEFAULT_GAME",
    "HUMAN_REFEREE",
    "REFEREE",
    "REFEREES",
    "SOFTWARE",
    "describe_games",
    "hosted",
    "names",
    "new_state",
    "parse_move",
]

#: Who referees a game: the server's software (chance and clock) or a person.
SOFTWARE: Final = "software"
HUMAN_REFEREE: Final = "human"
REFEREES: Final = (SOFTWARE, HUMAN_REFEREE)
#: The pseudo-seat of a human referee: the contract's own number for the referee's
#: decisions, so "is it this role's turn?" is one comparison for seats and referee.
#: Never an index into the seats (it is negative).
REFEREE: Final = alea.game.REFEREE


def hosted(name: str) -> GameInfo:
    """The facts of the game called ``name`` (``KeyError`` if none is registered)."""
    return alea.game.info(name)


def names() -> tuple[str, ...]:
    """The short names of the games this server hosts now, the default first."""
    return tuple(info.name for info in alea.game.games())


def describe_games() -> str:
    """The hosted games with their seat counts, for the API's description."""
    return " or ".join(
        f"{i.title} ({i.name}, {i.min_players}-{i.max_players} seats)" for i in alea.game.games()
    )


def new_state(info: GameInfo, players: int, referee: str, *, table: bool = True) -> AnyState:
    """A new game of ``info`` for ``players`` seats, refereed by ``referee`` (``software`` or
    ``human``; the server has checked that the game may have a human referee), with the
    game's table options (``table=False``: without, for games stored before them)."""
    options: dict[str, Any] = dict(info.table_options) if table else {}
    if referee == HUMAN_REFEREE:
        options["referee"] = HUMAN_REFEREE
    return info.new_game(players, **options)


def parse_move(info: GameInfo, text: str) -> object:
    """The decision ``text`` stands for, as a player may send it.

    Refused with a typed error: ``bad_notation`` for text that is not notation of
    the game, ``illegal_action`` for a chance outcome (only the server draws
    those) and for the game's time-up action (only the server's clock applies
    it: the engine takes it from the referee at any time, so a player may not end
    the game early).
    """
    try:
        move = info.parse(text)
    except alea.game.IllegalActionError as err:
        raise ServerError("bad_notation", 422, detail=str(err)) from None
    if not info.is_decision(move):
        raise ServerError(
            "illegal_action",
            422,
            detail=f"{text}: chance outcomes are drawn by the server, not by players",
        )
    if info.time_up_action is not None and str(move) == info.time_up_action:
        raise ServerError(
            "illegal_action",
            422,
            detail=f"{text}: the server's clock applies it when the time limit has passed, "
            "not the players",
        )
    return move
