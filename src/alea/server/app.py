"""The FastAPI application: HTTP API, WebSocket endpoint and the browser client.

``create_app(settings)`` builds a self-contained app: its lifespan opens the
store, runs the Alembic migrations, rebuilds every unfinished game from its
event log and starts the group-commit writer; on shutdown it stops the bots
and flushes the writer. FastAPI generates the OpenAPI description at
``/openapi.json`` (and ``/docs``); the WebSocket protocol is in docs/server.md.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

import alea
import alea.iacta as iacta
from alea.server import i18n
from alea.server.config import Settings
from alea.server.games import (
    DEFAULT,
    FINISHED,
    HUMAN,
    Game,
    GameServer,
    SeatSpec,
    ServerError,
    role_name,
)
from alea.server.hub import serve_socket
from alea.server.kinds import IACTA, REFEREE
from alea.server.schemas import (
    ActedOut,
    ActionIn,
    BotLevelIn,
    ClaimedOut,
    ClaimedRefereeOut,
    ClaimIn,
    CreatedOut,
    CreateGameIn,
    ErrorOut,
    GameInfo,
    Health,
    ReplayOut,
    ReplayStepOut,
    SayIn,
    StateOut,
)
from alea.server.storage import Store

log = logging.getLogger("alea.server")

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut},
    403: {"model": ErrorOut},
    404: {"model": ErrorOut},
    409: {"model": ErrorOut},
    422: {"model": ErrorOut},
}


def web_root() -> Path:
    """The directory of the static browser client (``alea/web/static``)."""
    return Path(str(resources.files("alea.web") / "static"))


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ServerError("bad_token", 403)
    return token.strip()


def _language(request: Request) -> str:
    return i18n.language(request.headers.get("accept-language", ""))


def _links(game_id: str) -> dict[str, str]:
    return {
        "play": f"/game/{game_id}",
        "watch": f"/game/{game_id}?watch=1",
        "replay": f"/replay/{game_id}",
    }


def state_out(game: Game, seat: int | None, idle_timeout: float) -> dict[str, Any]:
    """The HTTP twin of the WebSocket ``update`` message (whole log).

    ``seat`` is :data:`REFEREE` for the human referee, shown as seat null and role
    ``referee``: the referee is not a player, and sees the public table.
    """
    legal: list[str] = []
    if game.decides(seat):
        legal = [str(a) for a in game.state.legal_actions()]
    return {
        "game": game.id,
        "status": game.status,
        "version": game.version,
        "seat": None if seat == REFEREE else seat,
        "role": role_name(seat),
        "view": game.view_for(seat),
        "legal": legal,
        "log": game.log_entries(seat, 0),
        "seats": game.seats_json(),
        "takeover_at": game.takeover_at(idle_timeout),
        "clock": game.clock_json(),
        "referee": game.referee_json(),
        "exchange": game.exchange_json(),
    }


def replay_view(state: iacta.State) -> dict[str, Any]:
    """A spectator view with every hand shown: for replays of finished games only."""
    view = state.view(None)
    for seat, info in enumerate(view["players_info"]):
        own = state.view(seat)["players_info"][seat]
        info["fortuna_drawn_values"] = own["fortuna_drawn_values"]
        info["senate"] = own["senate"]
    if state.senate_hand:
        view["senate_hand"] = list(state.senate_hand)
    view["senate_bottom"] = [card for card, _ in state.senate_bottom]
    return view


def create_app(settings: Settings | None = None) -> FastAPI:
    """A ready-to-serve application for ``settings`` (defaults: SQLite in the cwd)."""
    settings = settings or Settings()
    store = Store(
        settings.database_url,
        sqlite_synchronous=settings.sqlite_synchronous,
        **settings.engine_options,
    )
    server = GameServer(settings, store)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(store.migrate)
        await server.start()
        if settings.tune_gc:
            gc.collect()
            gc.freeze()
            gc.set_threshold(2_000, 20, 100)
            sys.setswitchinterval(0.0005)
        log.info("serving %d games from %s", len(server.games), store.engine.url.render_as_string())
        try:
            yield
        finally:
            await server.stop()

    app = FastAPI(
        title="Alea Iacta Est server",
        version=alea.__version__,
        summary="Play Alea Iacta Est online: games, seats, moves, replays.",
        description=(
            "HTTP API of the Alea Iacta Est game server. Real-time play uses the "
            "WebSocket at `/ws/games/{game_id}` (see docs/server.md for every message). "
            "Moves are written in the notation of RULES.md §7; a seat proves itself "
            "with its secret token as `Authorization: Bearer <token>`."
        ),
        lifespan=lifespan,
    )
    app.state.server = server
    app.state.settings = settings

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, err: ServerError) -> JSONResponse:
        params = dict(err.params)
        params.setdefault("detail", err.detail)
        body = {
            "error": {
                "code": err.code,
                "message": i18n.message(err.code, _language(request), **params),
                "detail": err.detail,
            }
        }
        return JSONResponse(body, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, err: RequestValidationError) -> JSONResponse:
        detail = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
            for e in err.errors()
        )
        body = {
            "error": {
                "code": "bad_request",
                "message": i18n.message("bad_request", _language(request), detail=detail),
                "detail": detail,
            }
        }
        return JSONResponse(body, status_code=422)

    # ------------------------------------------------------------------ API

    @app.get("/api/health", response_model=Health, tags=["server"])
    async def health() -> dict[str, Any]:
        """Liveness: the number of games in memory and the database backend."""
        return {
            "ok": True,
            "games": len(server.games),
            "database": store.engine.url.get_backend_name(),
        }

    @app.post(
        "/api/games", response_model=CreatedOut, status_code=201, responses=ERRORS, tags=["games"]
    )
    async def create_game(body: CreateGameIn) -> dict[str, Any]:
        """Create a game; the creator gets a seat token unless ``sit`` is false.

        ``time_limit`` (Dado Romano, minutes): absent means the default of one hour,
        0 or null no limit; the clock starts when every seat is taken.
        ``referee`` (Dado Romano): ``human`` adds a referee role, which the creator
        takes with ``as_referee`` (then ``token`` is the referee's and ``role`` says so);
        the game starts when every seat and the referee role are taken.
        """
        specs = [SeatSpec(s.kind, s.level, s.name) for s in body.seats]
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
            game_kind=body.game,
            # Absent and null differ: absent is the kind's default, null is "no limit".
            time_limit=body.time_limit if "time_limit" in body.model_fields_set else DEFAULT,
            referee=body.referee,
            as_referee=body.as_referee,
        )
        return {
            "game": created.game.info(),
            "seat": created.seat,
            "token": created.token,
            "role": created.role,
            "links": _links(created.game.id),
        }

    @app.get("/api/games", response_model=list[GameInfo], tags=["games"])
    async def list_games(status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """The lobby: public games, newest first (``status``: open, active or finished)."""
        if status not in (None, "open", "active", "finished"):
            raise ServerError("bad_request", 422, detail="status is open, active or finished")
        limit = max(1, min(limit, 200))
        found = server.lobby(status, limit)
        if status == FINISHED and len(found) < limit:
            seen = {g["id"] for g in found}
            for record in await asyncio.to_thread(store.list_finished, limit):
                if record.id in seen or not record.public:
                    continue
                found.append((await server.get(record.id)).info())
                if len(found) >= limit:
                    break
        return found

    @app.get("/api/games/{game_id}", response_model=GameInfo, responses=ERRORS, tags=["games"])
    async def game_info(game_id: str) -> dict[str, Any]:
        """Who sits where, the status and the version of one game."""
        return (await server.get(game_id)).info()

    @app.post(
        "/api/games/{game_id}/seats/{seat}/claim",
        response_model=ClaimedOut,
        responses=ERRORS,
        tags=["seats"],
    )
    async def claim_seat(game_id: str, seat: int, body: ClaimIn) -> dict[str, Any]:
        """Take a free human seat; the answer holds the seat's secret token (shown once)."""
        game = await server.get(game_id)
        token = await server.claim(game, seat, body.name)
        return {"game_id": game.id, "seat": seat, "token": token}

    @app.post(
        "/api/games/{game_id}/referee/claim",
        response_model=ClaimedRefereeOut,
        responses=ERRORS,
        tags=["seats"],
    )
    async def claim_referee(game_id: str, body: ClaimIn) -> dict[str, Any]:
        """Take the free human referee role of a Dado Romano game (token shown once)."""
        game = await server.get(game_id)
        token = await server.claim_referee(game, body.name)
        return {"game_id": game.id, "role": "referee", "token": token}

    @app.post("/api/games/{game_id}/say", response_model=StateOut, responses=ERRORS, tags=["play"])
    async def say(
        game_id: str, body: SayIn, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """Type the riddle or question (referee) or the answer (the answering player).

        The same rules as the WebSocket ``say`` message: only while an answer
        awaits the human referee's mark.
        """
        game = await server.get(game_id)
        token = _bearer(authorization)
        if token is None:
            raise ServerError("spectator", 403)
        seat = server.authenticate(game, token)
        await server.say(game, seat, body.text)
        return state_out(game, seat, settings.idle_timeout)

    @app.get("/api/games/{game_id}/state", response_model=StateOut, responses=ERRORS, tags=["play"])
    async def game_state(game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """The view of the seat whose token is given (a spectator's view without one)."""
        game = await server.get(game_id)
        token = _bearer(authorization)
        seat = None if token is None else server.authenticate(game, token)
        return state_out(game, seat, settings.idle_timeout)

    @app.post(
        "/api/games/{game_id}/actions", response_model=ActedOut, responses=ERRORS, tags=["play"]
    )
    async def post_action(
        game_id: str, body: ActionIn, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """Make a move (the same rules as the WebSocket ``action`` message)."""
        game = await server.get(game_id)
        token = _bearer(authorization)
        if token is None:
            raise ServerError("spectator", 403)
        seat = server.authenticate(game, token)
        index, version = await server.act(game, seat, body.action, body.version)
        return {
            "index": index,
            "version": version,
            "state": state_out(game, seat, settings.idle_timeout),
        }

    @app.post(
        "/api/games/{game_id}/fill-bots", response_model=GameInfo, responses=ERRORS, tags=["seats"]
    )
    async def fill_bots(
        game_id: str, body: BotLevelIn, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """Seat bots in every free seat and start now (any seated player may)."""
        game = await server.get(game_id)
        seat = server.authenticate(game, _bearer(authorization))
        await server.fill_with_bots(game, seat, body.level or "medium")
        return game.info()

    @app.post(
        "/api/games/{game_id}/seats/{seat}/takeover",
        response_model=GameInfo,
        responses=ERRORS,
        tags=["seats"],
    )
    async def takeover(
        game_id: str, seat: int, body: BotLevelIn, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        """Hand a quiet human's seat to a bot, after the idle timeout on their turn."""
        game = await server.get(game_id)
        by_seat = server.authenticate(game, _bearer(authorization))
        await server.takeover(game, by_seat, seat, body.level)
        return game.info()

    @app.post(
        "/api/games/{game_id}/reclaim", response_model=GameInfo, responses=ERRORS, tags=["seats"]
    )
    async def reclaim(game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        """Take your seat back from the bot that played for you."""
        game = await server.get(game_id)
        seat = server.authenticate(game, _bearer(authorization))
        await server.reclaim(game, seat)
        return game.info()

    @app.get(
        "/api/games/{game_id}/replay", response_model=ReplayOut, responses=ERRORS, tags=["replay"]
    )
    async def replay(game_id: str) -> dict[str, Any]:
        """The whole record of a finished game: every action and chance outcome."""
        game = await server.get(game_id)
        if game.status != FINISHED:
            raise ServerError("not_finished", 409)
        return {
            "game": game.info(),
            "players": game.players,
            "events": list(game.state.history),
            "actors": list(game.actors),
            "result": game.kind.final_result(game.state),
        }

    @app.get(
        "/api/games/{game_id}/replay/{step}",
        response_model=ReplayStepOut,
        responses=ERRORS,
        tags=["replay"],
    )
    async def replay_step(game_id: str, step: int) -> dict[str, Any]:
        """The table after the first ``step`` events of a finished game, hands shown."""
        game = await server.get(game_id)
        if game.status != FINISHED:
            raise ServerError("not_finished", 409)
        events = game.state.history
        if not 0 <= step <= len(events):
            raise ServerError("bad_request", 422, detail=f"step is 0 to {len(events)}")
        rules = game.kind
        state = rules.new_game(game.players, game.referee)
        for token in events[:step]:
            state.apply(token)
        return {
            "step": step,
            "steps": len(events),
            "event": events[step - 1] if step else None,
            "actor": game.actors[step - 1] if step else None,
            "view": replay_view(state) if rules.name == IACTA else rules.view(state, None),
        }

    # ------------------------------------------------------------ WebSocket

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await serve_socket(websocket, server, game_id)

    # -------------------------------------------------------- browser client

    if settings.serve_web:
        root = web_root()
        index = root / "index.html"
        no_cache = {"Cache-Control": "no-cache"}

        async def page() -> Response:
            return FileResponse(index, headers=no_cache)

        for path in ("/", "/game/{game_id}", "/replay/{game_id}"):
            app.add_api_route(path, page, methods=["GET"], include_in_schema=False)
        app.mount("/static", StaticFiles(directory=root), name="static")

    return app
