"""Talk at the table over HTTP: the chat (read and say) and the rematch.

The same rules as the WebSocket ``chat`` and ``rematch`` messages. Who speaks
or answers is the request's credential: a seat token (``Authorization:
Bearer``), else a signed-in player's session cookie (with the CSRF token for a
change), else nobody (a spectator). No seat number is ever taken from the body.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Request

from alea.server.room import Game
from alea.server.routes.accounts import cookie_seat
from alea.server.routes.common import ERRORS, Server, bearer, client_of
from alea.server.schemas import ChatIn, ChatLineOut, RematchIn, RematchOut

router = APIRouter(tags=["table"])


async def credential_seat(
    request: Request, game: Game, authorization: str | None, *, change: bool
) -> int | None:
    """The seat (or referee) the request's token or session opens; None: a spectator."""
    token = bearer(authorization)
    if token is not None:
        return game.authenticate(token)
    return await cookie_seat(request, game, change=change)


@router.get("/api/games/{game_id}/chat", response_model=list[ChatLineOut], responses=ERRORS)
async def read_chat(
    game_id: str, server: Server, request: Request, authorization: str | None = Header(None)
) -> list[dict[str, Any]]:
    """The chat the caller may read: a seat's holder both channels, others the spectators'.

    Also for finished games (the replay shows each line at its ``step``).
    """
    game = await server.get(game_id)
    seat = await credential_seat(request, game, authorization, change=False)
    return await server.chats.visible(game, seat)


@router.post(
    "/api/games/{game_id}/chat", response_model=ChatLineOut, status_code=201, responses=ERRORS
)
async def say_chat(
    game_id: str,
    body: ChatIn,
    server: Server,
    request: Request,
    authorization: str | None = Header(None),
) -> dict[str, Any]:
    """Say a line: a seat's holder in the players' channel, a spectator in theirs."""
    game = await server.get(game_id)
    seat = await credential_seat(request, game, authorization, change=True)
    line = await server.chats.say(game, seat, body.text, body.name, client_of(request))
    return line.json()


@router.post("/api/games/{game_id}/rematch", response_model=RematchOut, responses=ERRORS)
async def rematch(
    game_id: str,
    body: RematchIn,
    server: Server,
    request: Request,
    authorization: str | None = Header(None),
) -> dict[str, Any]:
    """Propose or accept (``accept``: true) or decline the rematch, for your own seat."""
    game = await server.get(game_id)
    seat = await credential_seat(request, game, authorization, change=True)
    offer = await server.rematches.answer(game, seat, body.accept)
    return offer.json()
