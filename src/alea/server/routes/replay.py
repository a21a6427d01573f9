"""Replays of finished games: the whole record, and the table after any step."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from alea.server.errors import ServerError
from alea.server.room import FINISHED, Game
from alea.server.routes.common import ERRORS, Server
from alea.server.schemas import ReplayOut, ReplayStepOut
from alea.server.snapshot import info

router = APIRouter(tags=["replay"])


async def finished(server: Server, game_id: str) -> Game:
    """The finished game ``game_id`` (``not_finished`` while it is still played)."""
    game = await server.get(game_id)
    if game.status != FINISHED:
        raise ServerError("not_finished", 409)
    return game


@router.get("/api/games/{game_id}/replay", response_model=ReplayOut, responses=ERRORS)
async def replay(game_id: str, server: Server) -> dict[str, Any]:
    """The whole record of a finished game: every action and chance outcome."""
    game = await finished(server, game_id)
    return {
        "game": info(game),
        "players": game.players,
        "events": list(game.state.history),
        "actors": list(game.actors),
        "result": game.state.view(None)["result"],
    }


@router.get("/api/games/{game_id}/replay/{step}", response_model=ReplayStepOut, responses=ERRORS)
async def replay_step(game_id: str, step: int, server: Server) -> dict[str, Any]:
    """The table after the first ``step`` events of a finished game, hands shown."""
    game = await finished(server, game_id)
    events = game.state.history
    if not 0 <= step <= len(events):
        raise ServerError("bad_request", 422, detail=f"step is 0 to {len(events)}")
    return {
        "step": step,
        "steps": len(events),
        "event": events[step - 1] if step else None,
        "actor": game.actors[step - 1] if step else None,
        "view": game.state.replay_view(step),
    }
