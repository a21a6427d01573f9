"""Hostile WebSocket input: deep JSON, odd spellings of moves, floods of requests, and
clients that never read."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from typing import Any

import websockets

from alea.server import Settings
from tests.server.support import (
    Client,
    Database,
    LiveServer,
    connect,
    human_game,
    quick_bots,
    unread_socket,
)


def settings_for(db: Database, **extra: Any) -> Settings:
    options: dict[str, Any] = {
        "bot_delay": 0.0,
        "bot_factory": quick_bots,
        "sqlite_synchronous": "NORMAL",
        "chance_rng": lambda: random.Random(7),
    }
    options.update(extra)
    return Settings(database_url=db.url, **options)


def respelled(legal: list[str]) -> tuple[str, str]:
    """A legal move and another spelling of it (its dice in another order)."""
    for action in legal:
        found = re.fullmatch(r"([A-Z]):(\d+)", action)
        if found and len(set(found.group(2))) > 1:
            return action, f"{found.group(1)}:{found.group(2)[::-1]}"
    raise AssertionError(f"no move with two different dice in {legal}")


def test_deep_json_is_malformed_and_the_socket_lives_on(db: Database) -> None:
    async def run(server: LiveServer) -> None:
        game_id, tokens = human_game(server.base, 2)
        client = await connect(server.ws_base, game_id, tokens[0])
        for depth in (1_000, 2_000):
            deep = "[" * depth + "]" * depth
            assert len(deep) <= server.settings.max_message
            await client.send(deep)
            reply = await client.until(lambda m: m["type"] == "error")
            assert reply["code"] == "malformed", reply
        await client.send('{"type": "ping", "id": 3, "x": ' + "{" * 1500 + "}" * 1500 + "}")
        reply = await client.until(lambda m: m["type"] in ("error", "pong"))
        assert reply["code"] == "malformed"
        await client.send({"type": "ping", "id": 4})
        pong = await client.until(lambda m: m["type"] == "pong")
        assert pong["id"] == 4
        await client.close()

    with LiveServer(settings_for(db)) as server:
        asyncio.run(run(server))


def test_ack_names_the_move_as_the_log_stores_it(db: Database) -> None:
    async def run(server: LiveServer) -> None:
        game_id, tokens = human_game(server.base, 2)
        clients = [await connect(server.ws_base, game_id, t) for t in tokens]
        mover = next(c for c in clients if c.legal)
        canonical, other = respelled(mover.legal)
        await mover.send({"type": "action", "action": other, "version": mover.version})
        ack = await mover.until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
        stored = server.games.store.events(game_id)
        assert [e for i, e, _ in stored if i == ack["index"]] == [canonical]
        assert ack["action"] == canonical
        await mover.until_version(ack["version"])
        assert mover.log[ack["index"]][0] == canonical
        for c in clients:
            await c.close()

    with LiveServer(settings_for(db)) as server:
        asyncio.run(run(server))


def test_a_burst_of_requests_is_answered_in_full(db: Database) -> None:
    async def run(server: LiveServer) -> None:
        game_id, tokens = human_game(server.base, 2)
        ws = await websockets.connect(f"{server.ws_base}/ws/games/{game_id}", max_size=2**22)
        hello = json.dumps({"type": "hello", "token": tokens[0]})
        for _ in range(2_000):  # pipelined: nothing is read until all are sent
            await ws.send(hello)
        welcomes = 0
        while welcomes < 2_000:
            message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            assert message["type"] in ("welcome", "update"), message
            welcomes += message["type"] == "welcome"
        await ws.send(json.dumps({"type": "ping", "id": "last"}))
        client = Client(ws, 0)
        pong = await client.until(lambda m: m["type"] == "pong")
        assert pong["id"] == "last"
        await ws.close()

    with LiveServer(settings_for(db)) as server:
        asyncio.run(run(server))


def test_a_client_that_never_reads_is_dropped(sqlite_db: Database) -> None:
    async def run(server: LiveServer) -> float:
        # Five seats: the largest state per reply, so the buffers fill soonest.
        game_id, tokens = human_game(server.base, 5)
        game = server.games.games[game_id]
        ws = await unread_socket(server, game_id)
        hello = json.dumps({"type": "hello", "token": tokens[0]})
        started = time.monotonic()
        seen = False
        # Filling the kernel's buffers takes a few seconds alone and much longer on a
        # loaded machine (the full suite on two cores): the bound is generous.
        while time.monotonic() - started < 90:
            seen = seen or bool(game.connections)
            if seen and not game.connections:
                break
            try:
                await asyncio.wait_for(ws.send(hello), 0.2)
            except (TimeoutError, websockets.ConnectionClosed):
                await asyncio.sleep(0.1)
        assert seen and not game.connections, "the server kept a client that never reads"
        ws.transport.abort()
        return time.monotonic() - started

    with LiveServer(settings_for(sqlite_db, slow_client_timeout=1.0)) as server:
        assert asyncio.run(run(server)) < 90
