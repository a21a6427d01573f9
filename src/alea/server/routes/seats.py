"""Seats and roles: claim a seat or the referee role, fill with bots, takeover, reclaim."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Request

from alea.server.routes.accounts import claimant, link_claimed
from alea.server.routes.common import ERRORS, Server, client_of, seat_of
from alea.server.schemas import BotLevelIn, ClaimedOut, ClaimedRefereeOut, ClaimIn, GameInfo
from alea.server.seats import DEFAULT_LEVEL
from alea.server.snapshot import info

router = APIRouter(tags=["seats"])


@router.post("/api/games/{game_id}/seats/{seat}/claim", response_model=ClaimedOut, responses=ERRORS)
async def claim_seat(
    game_id: str, seat: int, body: ClaimIn, server: Server, request: Request
) -> dict[str, Any]:
    """Take a free human seat; the answer holds the seat's secret token (shown once).

    A signed-in player's seat is also linked to their account. At a rated table only
    signed-in players may sit (``rated_needs_account``), one seat each (``rated_one_seat``).
    """
    game = await server.get(game_id)
    session = await claimant(request)
    user_id = session.user.id if session is not None else None
    token = await server.seats.claim(game, seat, body.name, user_id)
    await link_claimed(request, session, game, seat)
    return {"game_id": game.id, "seat": seat, "token": token}


@router.post(
    "/api/games/{game_id}/referee/claim", response_model=ClaimedRefereeOut, responses=ERRORS
)
async def claim_referee(game_id: str, body: ClaimIn, server: Server) -> dict[str, Any]:
    """Take the free human referee role of a Dado Romano game (token shown once)."""
    game = await server.get(game_id)
    token = await server.referee.claim(game, body.name)
    return {"game_id": game.id, "role": "referee", "token": token}


@router.post("/api/games/{game_id}/fill-bots", response_model=GameInfo, responses=ERRORS)
async def fill_bots(
    game_id: str,
    body: BotLevelIn,
    server: Server,
    request: Request,
    authorization: str | None = Header(None),
) -> dict[str, Any]:
    """Seat bots in every free seat and start now (any seated player may)."""
    game = await server.get(game_id)
    seat = seat_of(game, authorization)
    client = client_of(request)
    await server.limits.admit_bots(client)  # a table of bots, like creating one with bots
    await server.seats.fill_with_bots(game, seat, body.level or DEFAULT_LEVEL)
    await server.limits.created(client, game, True)
    return info(game)


@router.post(
    "/api/games/{game_id}/seats/{seat}/takeover", response_model=GameInfo, responses=ERRORS
)
async def takeover(
    game_id: str,
    seat: int,
    body: BotLevelIn,
    server: Server,
    authorization: str | None = Header(None),
) -> dict[str, Any]:
    """Hand a quiet human's seat to a bot, after the idle timeout on their turn."""
    game = await server.get(game_id)
    by_seat = seat_of(game, authorization)
    await server.seats.takeover(game, by_seat, seat, body.level)
    return info(game)


@router.post("/api/games/{game_id}/reclaim", response_model=GameInfo, responses=ERRORS)
async def reclaim(
    game_id: str, server: Server, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """Take your seat back from the bot that played for you."""
    game = await server.get(game_id)
    await server.seats.reclaim(game, seat_of(game, authorization))
    return info(game)
