"""Play: what a seat sees, its moves, the referee's typed exchange.

The game's WebSocket is routed by :mod:`alea.server.socketroute`, ahead of these routes.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Query, Request

from alea.server import i18n, reasons
from alea.server.routes.accounts import cookie_seat
from alea.server.routes.common import ERRORS, Server, acting_seat, bearer
from alea.server.schemas import ActedOut, ActionIn, SayIn, StateOut, UndoIn, UndoneOut
from alea.server.snapshot import state

router = APIRouter(tags=["play"])


@router.get("/api/games/{game_id}/state", response_model=StateOut, responses=ERRORS)
async def game_state(
    game_id: str, server: Server, request: Request, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """The view of the seat whose token is given (a spectator's view without one).

    Without a token, a signed-in player's session cookie stands for the seat their
    account holds in this game.
    """
    game = await server.get(game_id)
    token = bearer(authorization)
    if token is None:
        seat = await cookie_seat(request, game, change=False)
    else:
        seat = game.authenticate(token)
    return state(game, seat, server.clock)


@router.post("/api/games/{game_id}/actions", response_model=ActedOut, responses=ERRORS)
async def post_action(
    game_id: str,
    body: ActionIn,
    server: Server,
    request: Request,
    authorization: str | None = Header(None),
) -> dict[str, Any]:
    """Make a move (the same rules as the WebSocket ``action`` message).

    Without a token, a signed-in player's session cookie (and CSRF token) stands for
    the seat their account holds.
    """
    game = await server.get(game_id)
    seat = None if authorization else await cookie_seat(request, game, change=True)
    if seat is None:
        seat = acting_seat(game, authorization)
    index, version = await server.core.act(game, seat, body.action, body.version)
    return {"index": index, "version": version, "state": state(game, seat, server.clock)}


@router.post("/api/games/{game_id}/undo", response_model=UndoneOut, responses=ERRORS)
async def post_undo(
    game_id: str,
    body: UndoIn,
    server: Server,
    request: Request,
    authorization: str | None = Header(None),
) -> dict[str, Any]:
    """Take back your own last decision (the same rules as the WebSocket ``undo``
    message): only while nothing has happened since (no roll, draw or other player's
    move), never in rated games. The decision leaves the stored log.
    """
    game = await server.get(game_id)
    seat = None if authorization else await cookie_seat(request, game, change=True)
    if seat is None:
        seat = acting_seat(game, authorization)
    version = await server.core.undo(game, seat, body.version)
    return {"version": version, "state": state(game, seat, server.clock)}


@router.get("/api/games/{game_id}/explain", responses=ERRORS)
async def explain(
    game_id: str,
    server: Server,
    action: str = Query(max_length=40),
    lang: str = Query("en", max_length=8),
    authorization: str | None = Header(None),
) -> dict[str, Any]:
    """Why ``action`` is not a legal move of this seat now, in words (the engine's reason).

    ``legal`` says whether it is; ``reason`` is the engine's explanation said again in
    ``lang`` with the players' names (empty when the move is legal), ``detail`` the
    engine's own sentence. Nothing changes: this only reads the seat's position.
    """
    game = await server.get(game_id)
    seat = acting_seat(game, authorization)
    language = i18n.language(lang)
    legal = game.legal_for(seat)
    if action in legal:
        return {"action": action, "legal": True, "reason": "", "detail": ""}
    if not legal:
        text = i18n.message("not_your_turn", language)
        return {"action": action, "legal": False, "reason": text, "detail": text}
    engine_explain = getattr(game.state, "explain", None)
    detail = str(engine_explain(action)) if engine_explain is not None else ""
    names = [s.name or f"{s.seat + 1}" for s in game.seats]
    return {
        "action": action,
        "legal": False,
        "reason": reasons.explain(detail, names, language),
        "detail": detail,
    }


@router.post("/api/games/{game_id}/say", response_model=StateOut, responses=ERRORS)
async def say(
    game_id: str, body: SayIn, server: Server, authorization: str | None = Header(None)
) -> dict[str, Any]:
    """Type the riddle or question (referee) or the answer (the answering player).

    The same rules as the WebSocket ``say`` message: only while an answer
    awaits the human referee's mark.
    """
    game = await server.get(game_id)
    seat = acting_seat(game, authorization)
    await server.referee.say(game, seat, body.text)
    return state(game, seat, server.clock)
