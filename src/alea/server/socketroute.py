"""The game's WebSocket (``/ws/games/{game_id}``), routed before FastAPI's router.

Why not an ``@router.websocket`` route: FastAPI finds a route by trying the
app's routes one by one (about forty here) and then solves the endpoint's
dependencies, and every socket opening went through that and through four
middlewares, which cost more CPU than the hub's own work for the opening
(profiled: 1.1 s of 1.8 s for 400 openings). At the start of a large server,
or when a process dies and its thousands of sockets reconnect through the load
balancer to the others, openings come in bursts, and that overhead was what the
burst cost. :class:`GameSockets` is an ASGI middleware that hands a WebSocket
whose path is the game socket's straight to :func:`alea.server.hub.serve_socket`;
everything else goes on to FastAPI as before. The socket's protocol is
docs/server.md's, unchanged; HTTP routes never reach this path.
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from alea.server.hub import serve_socket
from alea.server.service import GameServer

#: The path of a game's socket, followed by the game's id.
PREFIX = "/ws/games/"


def game_id_of(scope: Scope) -> str | None:
    """The game id if ``scope`` is a WebSocket to a game's socket, else None. The id is
    one path segment, as FastAPI's ``{game_id}`` would have matched; the hub checks it."""
    if scope["type"] != "websocket":
        return None
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root) :]
    if not path.startswith(PREFIX):
        return None
    game_id = path[len(PREFIX) :]
    return game_id if game_id and "/" not in game_id else None


class GameSockets:
    """ASGI middleware: game sockets to the hub, the rest to the app."""

    def __init__(self, app: ASGIApp, server: GameServer) -> None:
        self.app = app
        self.server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        game_id = game_id_of(scope)
        if game_id is None:
            await self.app(scope, receive, send)
            return
        # In a task of its own: every resumption of a coroutine passes through each
        # coroutine awaiting it, and this one sits under FastAPI's middlewares (about
        # seven frames), while a socket resumes twice per move (the message arrives; the
        # move is committed). The ASGI call only awaits the task's end.
        socket = WebSocket(scope, receive, send)
        task = asyncio.get_running_loop().create_task(
            serve_socket(socket, self.server, game_id), name="ws-game"
        )
        await task
