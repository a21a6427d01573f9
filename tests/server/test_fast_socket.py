"""The game socket's fast paths: updates written synchronously by the protocol
(alea.server.fastsocket), openings routed ahead of FastAPI (alea.server.socketroute),
and the coalescing of updates for a client that stops reading, which the fast path
must leave to the sender task."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
from typing import Any

import pytest

from alea.server import Settings
from alea.server.fastsocket import FastSocketProtocol
from alea.server.socketroute import game_id_of
from tests.server.support import Database, LiveServer, connect, human_game, play_turn, unread_socket


def settings_for(db: Database) -> Settings:
    return Settings(
        database_url=db.url,
        sqlite_synchronous="NORMAL",
        chance_rng=lambda: random.Random(11),
    )


@pytest.mark.parametrize(
    ("scope", "expected"),
    [
        ({"type": "websocket", "path": "/ws/games/abc"}, "abc"),
        ({"type": "websocket", "path": "/alea/ws/games/abc", "root_path": "/alea"}, "abc"),
        ({"type": "websocket", "path": "/ws/games/"}, None),
        ({"type": "websocket", "path": "/ws/games/abc/more"}, None),
        ({"type": "websocket", "path": "/ws/other/abc"}, None),
        ({"type": "http", "path": "/ws/games/abc"}, None),
    ],
)
def test_only_a_game_socket_takes_the_short_route(
    scope: dict[str, Any], expected: str | None
) -> None:
    assert game_id_of(scope) == expected


def test_updates_go_out_through_the_synchronous_send(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every update and reply of a game played over the wire is written by
    ``send_now`` (none by the sender task's awaiting path), in order, each seat's
    log without a gap (Client checks that), and the movers' acks in their updates."""
    sent: list[str] = []
    original = FastSocketProtocol.send_now

    def counting(self: FastSocketProtocol, text: str) -> bool:
        done = original(self, text)
        if done:
            sent.append(json.loads(text)["type"])
        return done

    monkeypatch.setattr(FastSocketProtocol, "send_now", counting)

    async def run(server: LiveServer) -> None:
        game_id, tokens = human_game(server.base, 3)
        clients = [await connect(server.ws_base, game_id, t) for t in tokens]
        rng = random.Random(5)
        for _ in range(12):
            await play_turn(clients, rng)
        received = sum(len(c.raw) for c in clients)
        for client in clients:
            await client.close()
        # Each seat's welcome and updates: every frame it got went through send_now.
        assert sent.count("welcome") == 3
        assert sent.count("update") >= received - 3
        assert len(sent) >= received

    with LiveServer(settings_for(sqlite_db)) as server:
        asyncio.run(run(server))


def test_a_paused_reader_gets_the_latest_state_coalesced(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A spectator whose socket stops reading (tiny buffers on both ends, the client
    library reading nothing) while the game goes on: the server must not buffer every
    update for it; once it reads again it gets fewer updates than there were moves, the
    last of them at the game's version, and a log with no gap or repeat."""
    made = FastSocketProtocol.connection_made

    def small_buffers(self: FastSocketProtocol, transport: Any) -> None:
        # Loopback's autotuned send buffer takes megabytes before the transport pauses.
        transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        transport.set_write_buffer_limits(high=8192)
        made(self, transport)

    monkeypatch.setattr(FastSocketProtocol, "connection_made", small_buffers)

    async def run(server: LiveServer) -> None:
        game_id, tokens = human_game(server.base, 5)
        players = [await connect(server.ws_base, game_id, t) for t in tokens]
        ws = await unread_socket(server, game_id)
        await ws.send(json.dumps({"type": "hello", "watch": True}))
        rng = random.Random(9)
        moves = 0
        started = time.monotonic()
        game = server.games.games[game_id]
        # Enough moves that the unread updates overflow the socket's buffers.
        while moves < 120 and game.status == "active" and time.monotonic() - started < 60:
            await play_turn(players, rng)
            moves += 1
        version = game.version
        updates: list[dict[str, Any]] = []
        log: list[Any] = []
        while not updates or updates[-1]["version"] < version:
            message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if message["type"] != "update":
                continue
            updates.append(message)
            if message["log_start"] == 0:
                log = list(message["log"])
            else:
                assert message["log_start"] == len(log), "a gap or a repeat in the log"
                log.extend(message["log"])
        assert updates[-1]["version"] == version
        assert len(log) == version
        assert len(updates) < moves, f"{len(updates)} updates for {moves} moves: none coalesced"
        await ws.close()
        for client in players:
            await client.close()

    with LiveServer(settings_for(sqlite_db)) as server:
        asyncio.run(run(server))
