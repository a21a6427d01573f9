"""A burst of WebSocket openings: queued and bounded, answered ``busy`` (close 1013) past
the line, and the seats of one game opening together share one read of the log."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import websockets

from alea.server import Settings, catchup
from alea.server.admission import Admission
from alea.server.errors import ServerError
from tests.server.support import Database, LiveServer, connect, human_game, quick_bots


@pytest.mark.serial  # measures time: runs alone (tests/conftest.py)
def test_openings_wait_their_turn_and_past_the_line_are_refused() -> None:
    async def scenario() -> None:
        gate = Admission(at_once=1, waiting=1, wait=5.0)
        order: list[str] = []

        async def opening(name: str, hold: float) -> None:
            async with gate.opening():
                order.append(name)
                await asyncio.sleep(hold)

        first = asyncio.create_task(opening("first", 0.2))
        await asyncio.sleep(0.01)
        second = asyncio.create_task(opening("second", 0))
        await asyncio.sleep(0.01)
        with pytest.raises(ServerError) as refused:  # the line (one) is full
            async with gate.opening():
                pass
        assert refused.value.code == "busy" and refused.value.status == 503
        assert 1 <= refused.value.params["retry_after"] <= 4
        assert refused.value.headers["Retry-After"] == str(refused.value.params["retry_after"])
        await asyncio.gather(first, second)
        assert order == ["first", "second"]  # the second waited, it was not refused
        assert gate.health() == {"waiting": 0, "longest": 1, "refused": 1}

    asyncio.run(scenario())


@pytest.mark.serial  # measures time: runs alone (tests/conftest.py)
def test_an_opening_that_waits_too_long_is_refused() -> None:
    async def scenario() -> None:
        gate = Admission(at_once=1, waiting=10, wait=0.1)

        async def hold() -> None:
            async with gate.opening():
                await asyncio.sleep(0.5)

        holder = asyncio.create_task(hold())
        await asyncio.sleep(0.01)
        started = time.perf_counter()
        with pytest.raises(ServerError) as refused:
            async with gate.opening():
                pass
        assert refused.value.code == "busy"
        assert time.perf_counter() - started < 0.4  # answered at the wait, not at the end
        await holder

    asyncio.run(scenario())


def test_a_socket_past_the_line_hears_busy_and_close_1013(sqlite_db: Database) -> None:
    settings = Settings(database_url=sqlite_db.url, bot_factory=quick_bots, opening_waiting=0)
    with LiveServer(settings) as server:
        game_id, _tokens = human_game(server.base, 2)

        async def scenario() -> tuple[dict[str, Any], int | None]:
            async with websockets.connect(f"{server.ws_base}/ws/games/{game_id}") as ws:
                message = json.loads(await ws.recv())
                with pytest.raises(websockets.ConnectionClosed):
                    await ws.recv()
                assert ws.close_code is not None
                return message, ws.close_code

        message, code = asyncio.run(scenario())
        assert message["type"] == "error" and message["code"] == "busy"
        assert 1 <= message["retry_after"] <= 4 and message["message"]
        assert code == 1013
        health = server.games.admission.health()
        assert health["refused"] == 1


def test_seats_opening_together_share_one_read_of_the_log(
    sqlite_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With other processes on the database, a lookup reads the stored log (read your
    writes anywhere); lookups waiting for the same read take its result."""
    settings = Settings(database_url=sqlite_db.url, bot_factory=quick_bots)
    reads: list[str] = []
    real = catchup.load_since

    def slow_read(engine: Any, game_id: str, start: int) -> Any:
        reads.append(game_id)
        time.sleep(0.2)  # long enough for every seat's lookup to arrive meanwhile
        return real(engine, game_id, start)

    monkeypatch.setattr(catchup, "load_since", slow_read)
    with LiveServer(settings) as server:
        game_id, tokens = human_game(server.base, 4)
        server.games.core.shared = True  # as when other processes share the database
        reads.clear()

        async def scenario() -> None:
            clients = await asyncio.gather(*(connect(server.ws_base, game_id, t) for t in tokens))
            assert [c.seat for c in clients] == [0, 1, 2, 3]
            for client in clients:
                await client.ws.close()

        asyncio.run(scenario())
        # One read for the first lookup, at most one more for those that arrived while it
        # was under way; one read per seat before.
        assert 1 <= len(reads) <= 2, reads
