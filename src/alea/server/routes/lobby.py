"""Games and the lobby: create a game, list the public ones, one game's summary."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, Request

from alea.server.clock import DEFAULT
from alea.server.cluster import public_games
from alea.server.errors import ServerError
from alea.server.room import BOT, FINISHED, HUMAN, OPEN
from alea.server.routes.accounts import claimant, link_claimed
from alea.server.routes.common import ERRORS, Server, client_of
from alea.server.schemas import CreatedOut, CreateGameIn, GameInfo
from alea.server.seats import SeatSpec
from alea.server.snapshot import info

router = APIRouter(tags=["games"])


def links(game_id: str) -> dict[str, str]:
    """The browser pages of a game: play, watch, replay."""
    return {
        "play": f"/game/{game_id}",
        "watch": f"/game/{game_id}?watch=1",
        "replay": f"/replay/{game_id}",
    }


@router.post("/api/games", response_model=CreatedOut, status_code=201, responses=ERRORS)
async def create_game(body: CreateGameIn, server: Server, request: Request) -> dict[str, Any]:
    """Create a game; the creator gets a seat token unless ``sit`` is false.

    ``time_limit`` (Dado Romano, minutes): absent means the default of one hour,
    0 or null no limit; the clock starts when every seat is taken.
    ``referee`` (Dado Romano): ``human`` adds a referee role, which the creator
    takes with ``as_referee`` (then ``token`` is the referee's and ``role`` says so);
    the game starts when every seat and the referee role are taken.
    A signed-in creator's seat is linked to their account. ``rated``: a rated table,
    whose human seats only signed-in players take (``rated_needs_account``).
    """
    session = await claimant(request)
    specs = [SeatSpec(s.kind, s.level, s.name) for s in body.seats]
    client = client_of(request)
    with_bots = any(s.kind == BOT for s in specs)
    await server.limits.admit(client, with_bots)
    claim = body.claim
    if body.as_referee:
        pass  # the referee takes no seat (an explicit claim too is refused as bad_referee)
    elif not body.sit:
        claim = None
    elif claim is None:
        claim = next((i for i, s in enumerate(specs) if s.kind == HUMAN), None)
    created = await server.create(
        specs,
        public=body.public,
        title=body.title,
        claim=claim,
        name=body.name,
        game_name=body.game,
        # Absent and null differ: absent is the game's default, null is "no limit".
        time_limit=body.time_limit if "time_limit" in body.model_fields_set else DEFAULT,
        referee=body.referee,
        as_referee=body.as_referee,
        time_control=body.time_control,
        rated=body.rated,
        user_id=session.user.id if session is not None else None,
    )
    await server.limits.created(client, created.game, with_bots)
    if created.seat is not None:
        await link_claimed(request, session, created.game, created.seat)
    return {
        "game": info(created.game),
        "seat": created.seat,
        "token": created.token,
        "role": created.role,
        "links": links(created.game.id),
    }


@router.get("/api/games", response_model=list[GameInfo])
async def list_games(server: Server, status: str | None = None, limit: int = 50) -> list[Any]:
    """The lobby: public games, newest first (``status``: open, active or finished)."""
    if status not in (None, "open", "active", "finished"):
        raise ServerError("bad_request", 422, detail="status is open, active or finished")
    limit = max(1, min(limit, 200))
    if server.cluster is not None and status != FINISHED:
        # Several processes: the games being played may live in another's memory.
        engine = server.store.engine
        for game_id in await asyncio.to_thread(public_games, engine, status, limit):
            with contextlib.suppress(ServerError):
                await server.get(game_id)
    elif status in (None, OPEN):
        # Open games live on disk and come into memory when asked for: ask for the newest.
        for game_id in await asyncio.to_thread(server.store.list_open, limit):
            with contextlib.suppress(ServerError):  # expired meanwhile
                await server.get(game_id)
    found = [info(g) for g in server.core.lobby(status, limit)]
    if status == FINISHED and len(found) < limit:
        seen = {g["id"] for g in found}
        for record in await asyncio.to_thread(server.store.list_finished, limit):
            if record.id in seen or not record.public:
                continue
            found.append(info(await server.get(record.id)))
            if len(found) >= limit:
                break
    return found


@router.get("/api/games/{game_id}", response_model=GameInfo, responses=ERRORS)
async def game_info(game_id: str, server: Server) -> dict[str, Any]:
    """Who sits where, the status and the version of one game."""
    return info(await server.get(game_id))
