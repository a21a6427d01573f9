"""Open games: on disk, in memory only while someone asks for them, and gone once nobody
has joined them for the stated time; games being played are loaded at start."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import websockets

from alea.server import Settings
from alea.server.storage import Store
from tests.server.support import (
    Database,
    LiveServer,
    ShiftedClock,
    create_game,
    human_game,
    quick_bots,
)

TTL, IDLE = 3600.0, 120.0


def settings_for(db: Database, clock: ShiftedClock) -> Settings:
    return Settings(
        database_url=db.url,
        bot_factory=quick_bots,
        sqlite_synchronous="NORMAL",
        clock=clock,
        open_game_ttl=TTL,
        open_game_memory=IDLE,
        retention_poll=0.05,
    )


def wait_for(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.time() + timeout
    while not predicate():
        assert time.time() < deadline, "timed out"
        time.sleep(0.02)


HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_idle_open_games_leave_memory_and_come_back_on_demand(db: Database) -> None:
    clock = ShiftedClock()
    with LiveServer(settings_for(db, clock)) as server:
        games = server.games.games
        first = create_game(server.base, HUMANS)["game"]["id"]
        second = create_game(server.base, HUMANS, public=False)["game"]["id"]
        playing, _ = human_game(server.base, 2)
        assert {first, second, playing} <= set(games)
        clock.advance(IDLE + 1)
        wait_for(lambda: first not in games and second not in games)
        assert playing in games  # games being played stay
        # Still there for whoever asks: the page, the lobby, a claim.
        assert httpx.get(f"{server.base}/api/games/{second}").status_code == 200
        assert second in games
        lobby = httpx.get(f"{server.base}/api/games", params={"status": "open"}).json()
        assert [g["id"] for g in lobby] == [first]  # the private one is not listed
        claimed = httpx.post(f"{server.base}/api/games/{first}/seats/1/claim", json={})
        assert claimed.status_code == 200
        assert games[first].status == "active"


def test_open_games_nobody_joins_expire_unless_watched(db: Database) -> None:
    clock = ShiftedClock()
    with LiveServer(settings_for(db, clock)) as server:
        games = server.games.games
        store = server.games.store
        lonely = create_game(server.base, HUMANS)["game"]["id"]
        watched = create_game(server.base, HUMANS)["game"]["id"]
        joined = create_game(server.base, HUMANS)["game"]["id"]

        async def watch_while_time_passes() -> None:
            async with websockets.connect(f"{server.ws_base}/ws/games/{watched}") as ws:
                await ws.send('{"type": "hello"}')
                await ws.recv()
                clock.advance(TTL - 60)
                assert httpx.post(f"{server.base}/api/games/{joined}/seats/1/claim", json={})
                clock.advance(120)  # lonely and watched are now past the time; joined is not
                await asyncio.to_thread(wait_for, lambda: store.load_game(lonely) is None)
                assert store.load_game(watched) is not None
                assert watched in games

        asyncio.run(watch_while_time_passes())
        assert lonely not in games
        refused = httpx.get(f"{server.base}/api/games/{lonely}")
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "no_such_game"
        assert httpx.get(f"{server.base}/api/games/{joined}").json()["status"] == "active"
        # Once nobody watches it any more, the unjoined one expires too.
        wait_for(lambda: store.load_game(watched) is None)
        assert httpx.get(f"{server.base}/api/games/{watched}").status_code == 404


def test_a_restart_loads_only_the_games_being_played(db: Database) -> None:
    clock = ShiftedClock()
    settings = settings_for(db, clock)
    with LiveServer(settings) as server:
        waiting = create_game(server.base, HUMANS)["game"]["id"]
        playing, _ = human_game(server.base, 2)
    with LiveServer(settings) as server:
        games = server.games.games
        assert playing in games and waiting not in games
        assert httpx.get(f"{server.base}/api/health").json()["games"] == 1
        assert httpx.get(f"{server.base}/api/games/{waiting}").json()["status"] == "open"
        assert waiting in games
    Store(db.url).dispose()
