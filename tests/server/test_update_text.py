"""The ``update`` a seat is sent says what the seat's snapshot says: the per-seat part is
written as text (the view from the engine's text of the position, ``State.view_text``),
and must be the same JSON value as :func:`alea.server.snapshot.own` encoded whole, for
every seat, the spectator and the referee's key, at many positions of random games."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest

import alea.game
from alea.server import snapshot
from alea.server.config import Settings
from alea.server.games import REFEREE
from alea.server.service import GameServer
from alea.server.storage import Store
from alea.server.tables import GameRecord, SeatRecord
from alea.server.writes import op_create_game
from tests.server.support import Database

#: Random positions checked per player count.
POSITIONS = 12


def stored(
    game_id: str, players: int, events: int, rng: random.Random
) -> tuple[GameRecord, list[int | None]]:
    """A game of Alea Iacta Est played at random for about ``events`` events (to its end if
    it ends first), as the server stores it, and the events' actors."""
    state = alea.game.info("iacta").new_game(players)
    actors: list[int | None] = [None] * len(state.history)
    while len(state.history) < events and not state.is_terminal():
        actors.append(state.actor())
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    now = time.time()
    record = GameRecord(
        id=game_id,
        players=players,
        status="finished" if state.is_terminal() else "active",
        public=False,
        title="",
        created_at=now,
        updated_at=now,
        version=len(state.history),
        result=state.result(),
        seats=[SeatRecord(s, "human", None, f"p{s}", f"{s}" * 64) for s in range(players)],
        events=list(state.history),
    )
    return record, actors


def per_seat(message: dict[str, Any]) -> dict[str, Any]:
    return {key: message[key] for key in ("seat", "role", "view", "legal", "undo")}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_updates_own_part_is_the_snapshots(sqlite_db: Database, players: int) -> None:
    store = Store(sqlite_db.url, sqlite_synchronous="OFF")
    store.migrate()
    rng = random.Random(players)
    with store.engine.begin() as conn:
        for n in range(POSITIONS):
            events = 1 + n * 40 if n < POSITIONS - 1 else 10_000  # the last one ends
            op_create_game(*stored(f"text{players}{n:02d}", players, events, rng))(conn)

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
