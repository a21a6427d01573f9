"""The guided first game: ``POST /api/tutorial`` seats a new player at a tutorial table.

A tutorial table is an ordinary private game of the default game against three bots
at the easy level, its chance drawn from a fixed seed so that the opening roll is
always the same; the browser's guide (``js/tutorial.js``) walks the player through
the round with hints, and every move still goes through the engine like any other.
"""

from __future__ import annotations

import random
from typing import Any, Final

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from alea.server.room import BOT, HUMAN
from alea.server.routes.accounts import claimant, link_claimed
from alea.server.routes.common import ERRORS, Server, client_of
from alea.server.routes.lobby import links
from alea.server.schemas import CreatedOut
from alea.server.seats import SeatSpec
from alea.server.snapshot import info
from alea.server.tables import DEFAULT_GAME

router = APIRouter(tags=["games"])

#: The seed of every tutorial table's dice: the same opening roll for everyone.
TUTORIAL_SEED: Final = 2024
#: You, then three bots: four players, so that every building is in play.
BOTS: Final = 3
#: The bots' level at a tutorial table.
LEVEL: Final = "easy"


class TutorialIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field("", max_length=40, description="the new player's name (optional)")


@router.post("/api/tutorial", response_model=CreatedOut, status_code=201, responses=ERRORS)
async def create_tutorial(body: TutorialIn, server: Server, request: Request) -> dict[str, Any]:
    """A tutorial table: you in seat 0 against three easy bots, the dice seeded."""
    session = await claimant(request)
    specs = [SeatSpec(HUMAN, None, body.name)] + [SeatSpec(BOT, LEVEL, "")] * BOTS
    client = client_of(request)
    await server.limits.admit(client, True)
    created = await server.create(
        specs,
        public=False,
        title="Tutorial",
        claim=0,
        name=body.name,
        game_name=DEFAULT_GAME,
        chance=random.Random(TUTORIAL_SEED),
    )
    await server.limits.created(client, created.game, True)
    if created.seat is not None:
        await link_claimed(request, session, created.game, created.seat)
    page = links(created.game.id)
    page["play"] = f"/game/{created.game.id}?tutorial=1"
    return {
        "game": info(created.game),
        "seat": created.seat,
        "token": created.token,
        "role": created.role,
        "links": page,
    }
