"""The table-top scorer: ``POST /api/score`` and the ``/score`` and ``/rules`` pages.

People who own the physical game send every player's end-game holdings and get
each one's best arrangement, the ranking and the winner (:mod:`alea.tabletop`,
which uses the same optimiser as ``alea score``). Nothing is stored: the
endpoint is a pure function of its body, so it needs no game, seat or token.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field

from alea.server.errors import ServerError
from alea.server.routes.common import ERRORS
from alea.server.routes.pages import web_root
from alea.tabletop import TableError, box, score_table

router = APIRouter(tags=["scoring"])
pages = APIRouter(include_in_schema=False)


class TablePlayerIn(BaseModel):
    name: str = Field(description="the player's name, 1 to 24 characters, unique at the table")
    holdings: dict[str, Any] = Field(
        description="provinces, patricians, senate (card notation, RULES.md §8), fortuna "
        "(tile values 1-3), tokens (a whole number); missing fields are empty",
        examples=[
            {
                "provinces": ["red4", "grey0"],
                "patricians": ["redm2", "redw3", "bluew1"],
                "senate": ["V", "XII-green/blue"],
                "fortuna": [2, 3],
                "tokens": 5,
            }
        ],
    )


class ScoreIn(BaseModel):
    players: list[TablePlayerIn] = Field(description="the table, in seating order (1 to 5)")


@router.get("/api/score/box")
async def box_contents() -> dict[str, Any]:
    """The pieces in the box and the table's limits (the scorer page draws its pieces from it)."""
    return box()


@router.post("/api/score", responses=ERRORS)
async def score(body: ScoreIn) -> dict[str, Any]:
    """Every player's optimal arrangement, explained, then the ranking, tie-breaks and winners.

    The whole table is checked against the box (each province and patrician exists
    once, XIII twice, other Senate cards once, Fortuna tiles 8 × 1, 14 × 2, 8 × 3);
    a refusal is ``422`` with one of the codes ``unknown_card``, ``wrong_section``,
    ``too_many``, ``out_of_range``, ``bad_players``, ``bad_holdings``, and
    ``detail`` naming the player and the piece.
    """
    table = [(p.name, p.holdings) for p in body.players]
    try:
        # The optimiser takes milliseconds, but a full table of hard holdings is worth a thread.
        return await asyncio.to_thread(score_table, table)
    except TableError as error:
        raise ServerError(
            error.code,
            422,
            detail=error.detail,
            player=error.player or "",
            section=error.section,
        ) from None


def _page(name: str) -> Response:
    return FileResponse(web_root() / name, headers={"Cache-Control": "no-cache"})


@pages.get("/score")
async def score_page() -> Response:
    """The phone-first table-top scorer (its script calls ``POST /api/score``)."""
    return _page("score.html")


@pages.get("/rules")
async def rules_page() -> Response:
    """The illustrated rules, drawn from the same help content as the in-game help."""
    return _page("rules.html")


@pages.get("/sw.js")
async def service_worker() -> Response:
    """The scorer's service worker, served from the root so that its scope covers ``/score``."""
    return FileResponse(
        web_root() / "js" / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )
