"""The ``update`` a seat is sent says what the seat's snapshot says: the per-seat part is
written as text (the view from the engine's text of the position, ``State.view_text``),
and must be the same JSON value as :func:`alea.server.snapshot.own` encoded whole, for
every seat, the spectator and the referee's key, at many positions of random games."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from alea.server import snapshot
from alea.server.config import Settings
from alea.server.games import REFEREE
from alea.server.service import GameServer
from alea.server.storage import Store
from alea.server.writes import op_create_game
from tests.server.support import Database, stored_game

#: Random positions checked per player count.
POSITIONS = 12


def per_seat(message: dict[str, Any]) -> dict[str, Any]:
    return {key: message[key] for key in ("seat", "role", "view", "legal", "undo")}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_updates_own_part_is_the_snapshots(sqlite_db: Database, players: int) -> None:
    store = Store(sqlite_db.url, sqlite_synchronous="OFF")
    store.migrate()
    with store.engine.begin() as conn:
        for n in range(POSITIONS):
            events = 1 + n * 40 if n < POSITIONS - 1 else 10_000  # the last one ends
            game_id = f"text{players}{n:02d}"
            op_create_game(*stored_game(game_id, events, n, players))(conn)

    async def check() -> int:
        settings = Settings(database_url=sqlite_db.url, snapshot_every=0, bot_processes=0)
        server = GameServer(settings, store)
        await server.start()
        checked = 0
        try:
            for n in range(POSITIONS):
                game = await server.get(f"text{players}{n:02d}")
                for seat in [*range(players), None, REFEREE]:
                    sent = json.loads(snapshot.update_message(game, seat, 0, server.clock))
                    expected = json.loads(json.dumps(snapshot.own(game, seat)))
                    assert per_seat(sent) == expected, (game.id, seat)
                    # Asked again (the texts kept for the position): the same.
                    again = json.loads(snapshot.update_message(game, seat, 0, server.clock))
                    assert again == sent
                    checked += 1
        finally:
            await server.stop()
        return checked

    assert asyncio.run(check()) == POSITIONS * (players + 2)
