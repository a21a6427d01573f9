"""When a human was last at a table is stored in one place, ``games.human_seen``, by every
process's abandonment sweep, a single process included (revision 0017 folded the clock
row's copy into it; a load used to take the later of the two)."""

from __future__ import annotations

import asyncio
import random
import time

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, inspect, text

from alea.server import Settings
from alea.server.tables import migrate
from tests.server.support import (
    Database,
    LiveServer,
    ShiftedClock,
    connect,
    create_game,
    human_game,
    quick_bots,
)

GAME = (
    "INSERT INTO games (id, players, status, public, title, created_at, updated_at, version,"
    " result, game, human_seen) VALUES ('{id}', 2, 'active', true, '', 0, 0, 0, NULL, 'iacta',"
    " {seen})"
)
CLOCK = (
    "INSERT INTO game_clocks (game_id, mode, per_move, bank, on_timeout, banks, human_seen)"
    " VALUES ('{id}', 'turn', 86400, 0, 'bot_move', '[]', {seen})"
)


def test_the_migration_keeps_the_later_presence(db: Database) -> None:
    engine = create_engine(db.url)
    config = Config()
    config.set_main_option("script_location", "alea.server:migrations")
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0016")
        # (games.human_seen, game_clocks.human_seen) before; the later is kept.
        rows = {"a": ("NULL", "100"), "b": ("50", "100"), "c": ("500", "100"), "d": ("7", "NULL")}
        for game_id, (seen, clock_seen) in rows.items():
            conn.execute(text(GAME.format(id=game_id, seen=seen)))
            conn.execute(text(CLOCK.format(id=game_id, seen=clock_seen)))
        conn.execute(text(GAME.format(id="e", seen="NULL")))  # no clock row, no presence
    migrate(engine)
    with engine.connect() as conn:
        found = dict(conn.execute(text("SELECT id, human_seen FROM games")).all())
        columns = {c["name"] for c in inspect(conn).get_columns("game_clocks")}
    assert found == {"a": 100.0, "b": 100.0, "c": 500.0, "d": 7.0, "e": None}
    assert "human_seen" not in columns and "banks" in columns
    engine.dispose()


def test_one_process_stores_when_it_saw_a_human(db: Database) -> None:
    clock = ShiftedClock()
    settings = Settings(
        database_url=db.url,
        bot_factory=quick_bots,
        sqlite_synchronous="NORMAL",
        chance_rng=lambda: random.Random(3),
        clock=clock,
        abandon_poll=0.05,
    )
    with LiveServer(settings) as live:
        store = live.games.store
        game_id, tokens = human_game(live.base, 2)
        clock.advance(3600)

        async def sit_a_while() -> None:
            client = await connect(live.ws_base, game_id, tokens[0])
            deadline = time.time() + 10
            while True:
                record = await asyncio.to_thread(store.load_game, game_id)
                assert record is not None
                if record.human_seen is not None and record.human_seen >= clock() - 1:
                    break
                assert time.time() < deadline, "the presence was not stored"
                await asyncio.sleep(0.05)
            await client.close()

        asyncio.run(sit_a_while())


def test_a_timeout_is_not_a_human_seen_after_a_restart(db: Database) -> None:
    """A timed table's last change may be the clock's (a bot moving for a seat that ran
    out of time): after a restart, when a human was last seen is what was stored as
    seen, not the time of that change (which would put off the table's abandonment)."""
    clock = ShiftedClock()
    settings = Settings(
        database_url=db.url,
        bot_factory=quick_bots,
        bot_delay=0.0,
        idle_timeout=10 * 86400.0,
        sqlite_synchronous="NORMAL",
        chance_rng=lambda: random.Random(11),
        clock=clock,
        deadline_poll=0.05,
        abandon_poll=0.05,
    )
    control = {"mode": "turn", "per_move": 86400, "on_timeout": "bot_move"}
    with LiveServer(settings) as live:
        store = live.games.store
        created = create_game(
            live.base, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], time_control=control
        )
        game_id = created["game"]["id"]
        game = live.games.core.games[game_id]
        deadline = time.time() + 10
        while (record := store.load_game(game_id)) is None or record.human_seen is None:
            assert time.time() < deadline, "the presence was not stored"
            time.sleep(0.05)
        seen = record.human_seen
        version = game.version
        clock.advance(25 * 3600.0)  # the human's turn runs out: a bot moves for the seat
        while game.version == version:
            assert time.time() < deadline + 20, "the turn did not time out"
            time.sleep(0.05)
        assert live.games.turns.timeouts >= 1
        assert game.human_seen == seen  # in memory: a timeout is nobody's presence
    with LiveServer(settings) as live:
        again = live.games.core.games[game_id]
        stored = live.games.store.load_game(game_id)
        assert stored is not None and stored.updated_at > seen + 3600
        assert again.human_seen == seen  # and after the restart too
