"""Analysis of finished games and hints during casual games (:mod:`alea.server.analyses`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request

from alea.server.analyses import Analyses
from alea.server.routes.common import ERRORS, Server, acting_seat

router = APIRouter(tags=["analysis"])


def analyses_of(request: Request) -> Analyses:
    """The :class:`Analyses` of the app serving ``request``."""
    found: Analyses = request.app.state.analyses
    return found


Jobs = Annotated[Analyses, Depends(analyses_of)]


@router.get("/api/games/{game_id}/analysis", responses=ERRORS)
async def analysis_status(
    game_id: str, server: Server, jobs: Jobs, seat: int = Query(ge=0, le=15)
) -> dict[str, Any]:
    """Where the analysis of ``seat`` stands; with ``status: done``, the analysis itself.

    Every decision of the seat, judged from that seat's own view at the time: the
    move played and the best move found, their expected final-score margins over
    the best rival and winning chances, the points lost and whether it is flagged
    as a mistake. Anyone may read it once the game is over.
    """
    game = await server.get(game_id)
    return await jobs.status(game, seat)


@router.post("/api/games/{game_id}/analysis", status_code=202, responses=ERRORS)
async def analysis_start(
    game_id: str, server: Server, jobs: Jobs, seat: int = Query(ge=0, le=15)
) -> dict[str, Any]:
    """Analyse ``seat`` of a finished game in the background (progress by GET).

    One analysis per game at a time (``analysis_busy`` for another seat meanwhile);
    once done it is stored and served from then on.
    """
    game = await server.get(game_id)
    return await jobs.start(game, seat)


@router.post("/api/games/{game_id}/hint", responses=ERRORS)
async def hint(
    game_id: str, server: Server, jobs: Jobs, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """The move the analyser would play for the caller's seat now, with its figures.

    Only the seat to move (its token), only in casual games while they are played:
    ``hint_unavailable`` in rated games, ``spectator`` without a token.
    """
    game = await server.get(game_id)
    seat = acting_seat(game, authorization)
    return await jobs.hint(game, seat)
