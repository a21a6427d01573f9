"""Dado Romano's tables are paced: each die waits for its player's throw, a bot's after the
server's bot delay (``Settings.bot_delay``), so a table of people can follow the dice."""

from __future__ import annotations

import asyncio
import itertools
import random
from dataclasses import replace

import pytest

import alea.romano as romano
from alea.server import Settings
from alea.server.tables import GameRecord, SeatRecord
from tests.server.support import Database, LiveServer, connect, create_game

BOT = {"kind": "bot"}


def settings_for(db: Database, delay: float) -> Settings:
    return Settings(
        database_url=db.url,
        bot_delay=delay,
        idle_timeout=60.0,
        sqlite_synchronous="NORMAL",
        chance_rng=lambda: random.Random(4),
    )


async def roll_times(server: LiveServer, game_id: str, rolls: int) -> list[float]:
    """When a spectator saw each of the first ``rolls`` rolls arrive."""
    watcher = await connect(server.ws_base, game_id, None)
    seen: list[float] = []
    count = sum(1 for e, _ in watcher.log if e.startswith("roll:"))
    while len(seen) < rolls:
        msg = await watcher.recv(30)
        if msg["type"] != "update":
            continue
        now = sum(1 for e, _ in watcher.log if e.startswith("roll:"))
        seen.extend([watcher.times[-1]] * (now - count))
        count = now
    await watcher.close()
    return seen


def test_bots_roll_one_die_at_a_time_after_the_delay(sqlite_db: Database) -> None:
    delay = 0.25
    with LiveServer(settings_for(sqlite_db, delay)) as server:
        created = create_game(server.base, [BOT, BOT, BOT], game="romano")
        game_id = created["game"]["id"]
        times = asyncio.run(roll_times(server, game_id, 6))
        game = server.games.games[game_id]
        history = game.state.history
        # Every roll followed its own throw: the dice never come in bursts.
        rolls = [i for i, e in enumerate(history) if e.startswith("roll:")]
        assert rolls and all(history[i - 1] == "throw" for i in rolls)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= delay * 0.8, gaps


def test_a_game_stored_before_pacing_is_rebuilt_unpaced(sqlite_db: Database) -> None:
    # A log written when the server drew every die at once: no throws in it.
    state = romano.new_game(2)
    rng = random.Random(3)
    while len(state.history) < 30:
        if state.is_chance():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    seats = [SeatRecord(i, "bot", "medium", f"Bot {i}", None) for i in range(2)]
    record = GameRecord(
        id="old-romano",
        players=2,
        status="active",
        public=True,
        title="",
        created_at=0.0,
        updated_at=0.0,
        version=len(state.history),
        result=None,
        seats=seats,
        events=list(state.history),
        game="romano",
    )
    with LiveServer(settings_for(sqlite_db, 0.0)) as server:
        game = server.games.core.rebuild(record)
        assert game.state.to_json() == state.to_json()
        # A new game of the same kind is paced.
        fresh = server.games.core.rebuild(replace(record, events=["throw"], version=1))
        assert fresh.state.history == ["throw"] and fresh.state.is_chance()
        # A log neither way replays is refused, naming the event.
        with pytest.raises(ValueError, match="event 0"):
            server.games.core.rebuild(replace(record, events=["A:1"], version=1))
