"""What every route module shares: the server of the app, bearer tokens, error docs."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request

from alea.server.errors import ServerError
from alea.server.room import Game
from alea.server.schemas import ErrorOut
from alea.server.service import GameServer

#: The error answers every endpoint may give (documented in the OpenAPI description).
ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut},
    403: {"model": ErrorOut},
    404: {"model": ErrorOut},
    413: {"model": ErrorOut},
    409: {"model": ErrorOut},
    422: {"model": ErrorOut},
    429: {"model": ErrorOut},
}


def server_of(request: Request) -> GameServer:
    """The :class:`GameServer` of the app serving ``request``."""
    server: GameServer = request.app.state.server
    return server


#: A route parameter that receives the app's :class:`GameServer`.
Server = Annotated[GameServer, Depends(server_of)]


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None without a header)."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServerError("bad_token", 403)
    return token.strip()


def seat_of(game: Game, authorization: str | None) -> int:
    """The seat (or :data:`~alea.server.games.REFEREE`) the bearer token opens."""
    return game.authenticate(bearer(authorization))


def acting_seat(game: Game, authorization: str | None) -> int:
    """Like :func:`seat_of`, but without a token the caller is a spectator: refused."""
    token = bearer(authorization)
    if token is None:
        raise ServerError("spectator", 403)
    return game.authenticate(token)


def client_of(request: Request) -> str:
    """The address of the client (as uvicorn reports it: a trusted proxy's
    ``X-Forwarded-For`` honoured), for the limits of :mod:`alea.server.ratelimit`."""
    return request.client.host if request.client else "unknown"
