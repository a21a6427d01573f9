"""What clients are shown of a table: the lobby entry and the one per-seat snapshot.

The snapshot of a seat (its view, legal moves, log, the seats, the clock, the
referee and the exchange) is built here once, from three parts (:func:`head`
and :func:`tail`, which every seat shares, and the seat's :func:`own`), for
both transports: the HTTP ``GET …/state`` answer (:func:`state`) and the WebSocket
``update`` message (:func:`update_message`). Nothing reaches a client that
did not pass through the engine's view and log of that seat.

The ``update`` is the server's hot path (every accepted action sends one to
every connection), so it is assembled from JSON text: the parts every seat
shares are encoded once per change, each seat's part (:func:`own_text`: its view
written by the engine from the position's public text, ``GameState.view_text``,
and its legal moves) once per change, and only the log delta per connection. The
HTTP answer goes through the ``StateOut`` schema, which leaves out ``turn_since``
(the browser only needs it to count an idle takeover down).
"""

from __future__ import annotations

from typing import Any

from alea.server import wire
from alea.server.clock import Clock, utc_text
from alea.server.games import REFEREE
from alea.server.referee import exchange_json, referee_json
from alea.server.room import Game, role_name
from alea.server.turns import clock_json as turn_clock_json

_encode = wire.dumps


def seats_json(game: Game) -> list[dict[str, Any]]:
    """Who sits where, in the colours of the game."""
    colours = game.info.colours
    return [
        {
            "seat": s.seat,
            "colour": colours[s.seat],
            "kind": s.kind,
            "level": s.level,
            "name": s.name,
            "claimed": s.claimed,
            "connected": s.connections > 0,
            # Presence: since when the seat's player has had no connection (None while
            # connected, and for a seat nobody has opened since the server started).
            "away_since": game.away_since(s.seat),
            "replaced": s.replaced,
        }
        for s in game.seats
    ]


def spectators(game: Game) -> int:
    """How many sockets watch the game without a seat or role (presence)."""
    return sum(1 for c in game.connections if c.seat is None)


def clock_json(game: Game) -> dict[str, Any] | None:
    """The time limit as clients show it (None: the game has none).

    The deadline rather than the time left, so the JSON changes only when the
    game does (it is cached per change) and each client counts down by itself.
    """
    if game.time_limit is None:
        return None
    return {
        "time_limit": game.time_limit,
        "deadline": game.deadline,
        "deadline_utc": utc_text(game.deadline),
        "last_round": game.state.time_up_declared(),
    }


def info(game: Game) -> dict[str, Any]:
    """The public summary of the game (lobby entry, ``GET /api/games/{id}``)."""
    round_, rounds = game.state.progress()
    return {
        "id": game.id,
        "game": game.game_name,
        "players": game.players,
        "status": game.status,
        "public": game.public,
        "title": game.title,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "version": game.version,
        "round": round_,
        "rounds": rounds,
        "to_move": game.to_move(),
        "seats": seats_json(game),
        "open_seats": [s.seat for s in game.seats if not s.claimed],
        "spectators": spectators(game),
        "result": game.result,
        "clock": clock_json(game),
        "time_control": turn_clock_json(game),
        "referee": referee_json(game),
        "rated": game.rated,
    }


def head(game: Game) -> dict[str, Any]:
    """The first keys every seat shares: which game, its status and version."""
    return {"game": game.id, "status": game.status, "version": game.version, "rated": game.rated}


def own(game: Game, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` sees: its view and, when it is its decision, its legal moves.

    ``seat`` is :data:`REFEREE` for the human referee, shown as seat null and role
    ``referee``: the referee is not a player, and sees the public table.
    """
    return {
        "seat": None if seat == REFEREE else seat,
        "role": role_name(seat),
        "view": game.view_for(seat),
        "legal": game.legal_for(seat),
        # Whether this seat may take back its own last decision now (alea.undo).
        "undo": game.may_undo(seat),
    }


def own_text(game: Game, seat: int | None) -> str:
    """:func:`own` as JSON text without its braces (the ``update``'s per-seat part): the
    view written by the engine from the position's public text (``Game.view_text``)."""
    legal = game.legal_for(seat)
    return (
        f'"seat":{"null" if seat is None or seat == REFEREE else seat},'
        f'"role":{_encode(role_name(seat))},"view":{game.view_text(seat)},'
        f'"legal":{_encode(legal) if legal else "[]"},'
        f'"undo":{"true" if game.may_undo(seat) else "false"}'
    )


def tail(game: Game, clock: Clock) -> dict[str, Any]:
    """The last keys every seat shares: seats and presence, idle takeover, time limit,
    referee, and the rematch offered after the end."""
    return {
        "seats": seats_json(game),
        "turn_since": game.turn_since,
        "takeover_at": game.takeover_at(clock),
        "clock": clock_json(game),
        "time_control": turn_clock_json(game),
        "referee": referee_json(game),
        "exchange": exchange_json(game),
        "spectators": spectators(game),
        "rematch": game.rematch.json() if game.rematch is not None else None,
    }


def state(game: Game, seat: int | None, clock: Clock) -> dict[str, Any]:
    """The snapshot of ``seat`` with the whole log: the HTTP ``state`` answer."""
    return {
        **head(game),
        **own(game, seat),
        "log": game.log_entries(seat, 0),
        **tail(game, clock),
    }


def update_message(
    game: Game, seat: int | None, start: int, clock: Clock, acks: list[str] | None = None
) -> str:
    """The WebSocket ``update`` for ``seat``: its snapshot and the log from entry ``start``,
    and ``acks`` (encoded acknowledgements of the connection's own actions) if any."""
    key = -1 if seat is None else seat  # the referee's key is REFEREE (-5)
    cached = game.seat_cache.get(key)
    if cached is None or cached[0] != game.stamp:
        shared = game.shared_cache
        if shared is None or shared[0] != game.stamp:
            shared = (game.stamp, _inner(head(game)), _inner(tail(game, clock)))
            game.shared_cache = shared
        text = f'{{"type":"update",{shared[1]},{own_text(game, seat)},{shared[2]}'
        game.seat_cache[key] = (game.stamp, text)
    else:
        text = cached[1]
    entries = _encode(game.log_entries(seat, start))
    if acks:
        return f'{text},"log_start":{start},"log":{entries},"acks":[{",".join(acks)}]}}'
    return f'{text},"log_start":{start},"log":{entries}}}'


def _inner(part: dict[str, Any]) -> str:
    """``part`` as JSON without its braces, to be joined with other parts into one object."""
    return _encode(part)[1:-1]
