"""The guided first game's table: ``POST /api/tutorial``.

A private game of the default game, you in seat 0 against three easy bots, its dice
drawn from a fixed seed (the same opening roll for everyone, as the engine draws it
from that seed); bad input is refused with the typed error.
"""

from __future__ import annotations

import asyncio
import random

import httpx

import alea.game
from alea.server import Settings
from alea.server.routes.tutorial import BOTS, LEVEL, TUTORIAL_SEED
from alea.server.tables import DEFAULT_GAME
from tests.server.support import Database, LiveServer, connect


def settings_for(db: Database) -> Settings:
    # The server's own chance source differs from the tutorial's seed on purpose.
    return Settings(
        database_url=db.url,
        bot_delay=0.0,
        idle_timeout=60.0,
        sqlite_synchronous="NORMAL",
        chance_rng=lambda: random.Random(99),
    )


def test_a_tutorial_table_is_seeded_private_and_yours(sqlite_db: Database) -> None:
    info = alea.game.info(DEFAULT_GAME)
    expected = info.new_game(1 + BOTS)
    rng = random.Random(TUTORIAL_SEED)
    while expected.is_chance():
        expected.apply(expected.sample_chance(rng))
    with LiveServer(settings_for(sqlite_db)) as server:
        answers = [
            httpx.post(f"{server.base}/api/tutorial", json={"name": "Livia"}, timeout=30)
            for _ in range(2)
        ]
        for answer in answers:
            assert answer.status_code == 201, answer.text
            body = answer.json()
            game = body["game"]
            assert body["seat"] == 0 and body["token"] and body["role"] == "player"
            assert game["game"] == DEFAULT_GAME and game["status"] == "active"
            assert [s["kind"] for s in game["seats"]] == ["human"] + ["bot"] * BOTS
            assert {s["level"] for s in game["seats"][1:]} == {LEVEL}
            assert body["links"]["play"] == f"/game/{game['id']}?tutorial=1"
            state = server.games.games[game["id"]].state
            # Every tutorial opens on the seeded roll, the engine's from that seed.
            assert state.history[: len(expected.history)] == expected.history
        lobby = httpx.get(f"{server.base}/api/games").json()
        assert not any(g["id"] in {a.json()["game"]["id"] for a in answers} for g in lobby)
        # The player's seat sees the same table the engine shows seat 0.
        first = answers[0].json()

        async def look() -> None:
            client = await connect(server.ws_base, first["game"]["id"], first["token"])
            assert client.view is not None
            assert client.view["turn"]["roll"] == expected.view(0)["turn"]["roll"]
            await client.close()

        asyncio.run(look())
        bad = httpx.post(f"{server.base}/api/tutorial", json={"name": "x", "seed": 1}, timeout=30)
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_request"
