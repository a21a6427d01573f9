"""The FastAPI application: the routes of :mod:`alea.server.routes` around one game server.

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
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

import alea
from alea.server import i18n, outage
from alea.server.account_service import Accounts
from alea.server.analyses import Analyses
from alea.server.bodylimit import BodyLimit
from alea.server.config import Settings
from alea.server.errors import ServerError, error_body
from alea.server.mailer import Mailer
from alea.server.notify import Notifier
from alea.server.routes import accounts as account_routes
from alea.server.routes import analysis as analysis_routes
from alea.server.routes import (
    lobby,
    me,
    pages,
    play,
    players,
    projection,
    replay,
    score,
    seats,
    social,
    tutorial,
)
from alea.server.schemas import Health
from alea.server.service import GameServer
from alea.server.socketroute import GameSockets
from alea.server.storage import Store

#: Objects allocated between two collections of the youngest generation (tune_gc).
GC_YOUNG = 25_000

log = logging.getLogger("alea.server")


def _language(request: Request) -> str:
    return i18n.language(request.headers.get("accept-language", ""))


#: The codes of the refusals the framework makes before a route runs (unknown path,
#: wrong method, a body that cannot be parsed), so they too speak the documented shape.
HTTP_CODES: dict[int, str] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
}


def _error(request: Request, code: str, status: int, detail: Any, **params: Any) -> JSONResponse:
    """The one shape of every refusal: ``{"error": {"code", "message", "detail"}}``."""
    return JSONResponse(error_body(code, _language(request), detail, **params), status_code=status)


def create_app(settings: Settings | None = None) -> FastAPI:
    """A ready-to-serve application for ``settings`` (defaults: SQLite in the cwd)."""
    settings = settings or Settings()
    store = Store(
        settings.database_url,
        sqlite_synchronous=settings.sqlite_synchronous,
        **settings.engine_options,
    )
    server = GameServer(settings, store)
    accounts = Accounts(settings, store.engine)
    analyses = Analyses(settings, store.engine)
    mailer = Mailer(settings.smtp_url, settings.mail_from)
    notifier = Notifier(
        store.engine, mailer, settings.public_url, lambda: accounts.key, settings.notify_delay
    )
    server.turns.listeners.append(notifier.heard)
    if server.cluster is not None:  # a seat at another process, a mail another one sent
        notifier.gate = server.cluster.presence
    server.core.followers.append(analyses.follow)  # a game over keeps no hint in memory

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(server.migrate)
        await server.start()
        await accounts.start()
        mailer.start()
        if settings.tune_gc:
            gc.collect()
            gc.freeze()
            gc.set_threshold(GC_YOUNG, 20, 100)  # why: Settings.tune_gc
            sys.setswitchinterval(0.0005)
        log.info("serving %d games from %s", len(server.games), store.engine.url.render_as_string())
        try:
            yield
        finally:
            await analyses.close()
            await server.stop()
            await notifier.drain()
            await mailer.stop()

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
    # Outermost: a body over the limit is refused before anything reads it in full.
    app.add_middleware(BodyLimit, max_body=settings.max_body)
    # The game's WebSocket skips the router and the middlewares (alea.server.socketroute).
    app.add_middleware(GameSockets, server=server)
    app.state.server = server
    app.state.settings = settings
    app.state.accounts = accounts
    app.state.analyses = analyses
    app.state.mailer = mailer

    @app.exception_handler(ServerError)
    async def _server_error(request: Request, err: ServerError) -> JSONResponse:
        response = _error(request, err.code, err.status, err.detail, **err.params)
        response.headers.update(err.headers)
        return response

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(err.status_code, "http_error")
        response = _error(request, code, err.status_code, str(err.detail))
        for name, value in (err.headers or {}).items():  # e.g. a 405's Allow
            response.headers[name] = value
        return response

    @app.exception_handler(DBAPIError)
    async def _database_error(request: Request, err: DBAPIError) -> JSONResponse:
        # A read that found the database out of reach (restarting): a typed 503 the client
        # can wait out, never a 500 with a traceback. Any other database error is a bug.
        if not outage.is_outage(err):
            raise err
        refusal = outage.unavailable()
        response = _error(request, refusal.code, refusal.status, refusal.detail, **refusal.params)
        response.headers.update(refusal.headers)
        return response

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, err: RequestValidationError) -> JSONResponse:
        detail = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
            for e in err.errors()
        )
        return _error(request, "bad_request", 422, detail)

    @app.get("/api/health", response_model=Health, tags=["server"])
    async def health() -> dict[str, Any]:
        """Liveness: the number of games in memory, the database backend and whether the
        database answers now (the web client's "reconnecting" state waits for that)."""
        return {
            "ok": True,
            "storage": "ok" if await outage.probe(store.engine) else "unavailable",
            "games": len(server.games),
            "database": store.engine.url.get_backend_name(),
            "cluster": server.cluster.status() if server.cluster is not None else None,
            "admission": server.admission.health(),
        }

    for module in (
        lobby,
        seats,
        play,
        social,
        projection,
        replay,
        analysis_routes,
        score,
        tutorial,
        account_routes,
        me,
        players,
    ):
        app.include_router(module.router)
    if settings.serve_web:
        app.include_router(pages.router)
        app.include_router(score.pages)
        app.include_router(players.pages)
        app.mount("/static", pages.static_files(), name="static")
    return app
