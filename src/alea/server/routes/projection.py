"""Projected scores: what each seat would score if the game ended now, on request.

The projection is worked out by the game (:attr:`alea.game.GameInfo.projection`)
from one **view**: the asking seat's own (a bearer token or a signed-in player's
session cookie proves the seat), else the spectator's. So the private part
(``own``: the seat's best arrangement, its Senate cards included) reaches only
that seat, and the ``public`` estimates are made of what everyone sees.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Header, Query, Request

from alea import tabletop
from alea.server.errors import ServerError
from alea.server.games import REFEREE
from alea.server.routes.accounts import cookie_seat
from alea.server.routes.common import ERRORS, Server, bearer
from alea.server.schemas import ProjectionOut

router = APIRouter(tags=["play"])


@router.get("/api/games/{game_id}/projection", response_model=ProjectionOut, responses=ERRORS)
async def projection(
    game_id: str,
    server: Server,
    request: Request,
    seat: int | None = Query(None, ge=0, le=11, description="the seat you hold (checked)"),
    authorization: str | None = Header(None),
) -> dict[str, Any]:
    """Your projected score (``own``, with a seat's token or session) and every
    seat's public estimate (``public``: Senate cards are face down, so not counted).

    ``seat``, if given, must be the seat the token or session holds (``bad_token``
    otherwise): the private part is never another seat's.
    """
    game = await server.get(game_id)
    project = game.info.projection
    if project is None:
        raise ServerError("projection_unavailable", 404, game=game.game_name)
    token = bearer(authorization)
    held = game.authenticate(token) if token is not None else None
    if held is None:
        held = await cookie_seat(request, game, change=False)
    if held == REFEREE:
        held = None
    if seat is not None and seat != held:
        raise ServerError("bad_token", 403)
    view = game.view_for(held)
    return explained(await asyncio.to_thread(project, view))


def _why(reason: str) -> dict[str, str]:
    try:
        return {"en": reason, "it": tabletop.italian(reason)}
    except KeyError:  # a form the translator does not know: English for everyone
        return {"en": reason, "it": reason}


def explained(answer: dict[str, Any]) -> dict[str, Any]:
    """``answer`` with each reason of the own arrangement in English and Italian (``why``),
    as ``POST /api/score`` gives them (the optimiser's reasons are English)."""
    own = answer.get("own")
    if isinstance(own, dict):
        for place in own.get("places", []):
            place["why"] = _why(str(place.get("reason", "")))
        for card in own.get("breakdown", {}).get("senate", []):
            card["why"] = _why(str(card.get("reason", "")))
    return answer
