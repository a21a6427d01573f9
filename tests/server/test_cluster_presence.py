"""Two processes in one test, on one PostgreSQL and one Redis: who is at a table, and
which account holds a seat, are known at every process.

* **Abandonment** counts the humans at every process: a table whose players are
  connected only to process A is not closed by process B, which holds the game in
  memory with none of its sockets; with nobody anywhere for the stated time it is
  closed, once between the two.
* **Account links** (``seats.user_id``) travel with a catch-up: an account seated at a
  rated table through one process cannot take a second seat through the other.

Both processes run in this test process (uvicorn threads) on one injected clock, so a
day passes in one call and each sweep is run when the test says. Needs PostgreSQL and
Redis (skips otherwise, saying which is missing).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from alea.server import Settings
from alea.server.tables import VersionConflict
from alea.server.writes import op_abandon, op_append_events, op_record_seen
from tests.server.accounts_support import Browser
from tests.server.cluster_support import redis_url, wait_for
from tests.server.support import (
    Database,
    LiveServer,
    ShiftedClock,
    connect,
    create_game,
    database,
    human_game,
    migrated_from,
    play_turn,
    quick_bots,
)

HOUR = 3600.0
HUMAN = {"kind": "human"}


@contextlib.contextmanager
def two_processes(tmp_path: Path, clock: ShiftedClock) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Processes A and B of one service; their own abandonment sweeps wait an hour (the
    test runs each sweep itself), and a table is abandoned after two hours."""
    url = redis_url()
    prefix = f"alea-t-{secrets.token_hex(4)}"
    with database("postgresql", tmp_path) as db:

        def settings() -> Settings:
            return Settings(
                database_url=db.url,
                redis_url=url,
                redis_prefix=prefix,
                clock=clock,
                bot_factory=quick_bots,
                bot_delay=0.0,
                idle_timeout=10 * 24 * HOUR,
                chance_rng=lambda: random.Random(11),
                abandon_after=2 * HOUR,
                abandon_poll=HOUR,
            )

        try:
            with LiveServer(settings()) as a, LiveServer(settings()) as b:
                yield a, b
        finally:
            with contextlib.suppress(Exception):
                import redis

                client = redis.Redis.from_url(url)
                keys = list(client.scan_iter(f"{prefix}:*"))
                if keys:
                    client.delete(*keys)


async def sweep(server: LiveServer) -> list[str]:
    """Run one abandonment sweep of ``server`` on its own event loop; the ids it closed."""
    turns = server.games.turns
    loop = turns._sweeper.get_loop()
    closed: list[str] = await asyncio.wrap_future(
        asyncio.run_coroutine_threadsafe(turns.sweep(), loop)
    )
    return closed


def status_at(server: LiveServer, game_id: str) -> str:
    found: dict[str, Any] = httpx.get(f"{server.base}/api/games/{game_id}", timeout=30).json()
    return str(found["status"])


def test_a_table_is_abandoned_only_when_nobody_is_at_any_process(tmp_path: Path) -> None:
    clock = ShiftedClock()
    with two_processes(tmp_path, clock) as (a, b):
        created = create_game(a.base, [HUMAN, HUMAN], name="S0")
        game_id = created["game"]["id"]
        claimed = httpx.post(f"{a.base}/api/games/{game_id}/seats/1/claim", json={"name": "S1"})
        assert claimed.status_code == 200, claimed.text
        tokens = [created["token"], claimed.json()["token"]]
        assert status_at(b, game_id) == "active"  # B now holds the game, with no socket
        assert game_id in b.games.core.games

        async def play() -> None:
            clients = [await connect(a.ws_base, game_id, token) for token in tokens]
            # Five hours pass with both players connected at A (each sweep sees them
            # there); B, which has none of their sockets, must not close the table.
            for _ in range(5):
                clock.advance(HOUR)
                assert await sweep(a) == []
                assert await sweep(b) == []
            assert status_at(a, game_id) == status_at(b, game_id) == "active"
            for client in clients:
                await client.close()
            seats = a.games.core.games[game_id].seats
            assert wait_for(lambda: all(s.connections == 0 for s in seats), timeout=10)

            # Nobody anywhere: not yet after one hour, closed after three, and once.
            clock.advance(HOUR)
            assert await sweep(a) == [] and await sweep(b) == []
            clock.advance(2 * HOUR)
            first, second = await asyncio.gather(sweep(a), sweep(b))
            assert sorted(first + second) == [game_id]
            turns = [a.games.turns.abandoned, b.games.turns.abandoned]
            assert sum(turns) == 1, turns
            assert await sweep(a) == [] and await sweep(b) == []

        asyncio.run(play())
        assert wait_for(lambda: status_at(b, game_id) == "abandoned", timeout=10)
        assert status_at(a, game_id) == "abandoned"


def test_an_abandoned_tables_lease_is_given_up(tmp_path: Path) -> None:
    """A table with a bot has a lease (its bot's moves are driven by one process); once
    the table is abandoned there is nothing left to drive, and the lease goes (it was
    renewed for as long as the game stayed in the holder's memory)."""
    clock = ShiftedClock()
    with two_processes(tmp_path, clock) as (a, b):
        created = create_game(a.base, [HUMAN, {"kind": "bot", "level": "easy"}], name="S0")
        game_id = created["game"]["id"]
        assert status_at(b, game_id) == "active"

        def holders() -> list[bool]:
            return [game_id in p.games.cluster.leases.held for p in (a, b)]

        assert wait_for(lambda: sum(holders()) == 1, timeout=15), holders()
        clock.advance(3 * HOUR)  # nobody came: the table is closed as abandoned

        async def close() -> None:
            first, second = await asyncio.gather(sweep(a), sweep(b))
            assert sorted(first + second) == [game_id]

        asyncio.run(close())
        assert wait_for(lambda: status_at(a, game_id) == status_at(b, game_id) == "abandoned", 10)
        assert wait_for(lambda: sum(holders()) == 0, timeout=10), holders()


def test_an_accounts_seat_is_known_at_the_other_process(tmp_path: Path) -> None:
    with two_processes(tmp_path, ShiftedClock()) as (a, b):
        alice, bruno = Browser(a.base), Browser(a.base)
        for browser, name in ((alice, "Alice"), (bruno, "Bruno")):
            assert browser.sign_up(name).status_code == 201
        seats = [HUMAN, HUMAN, HUMAN]
        created = alice.post("/api/games", {"seats": seats, "rated": True, "name": "Alice"})
        assert created.status_code == 201, created.text
        game_id = created.json()["game"]["id"]
        assert status_at(b, game_id) == "open"  # B loads the game from the log
        claimed = bruno.post(f"/api/games/{game_id}/seats/1/claim", {"name": "Bruno"})
        assert claimed.status_code == 200, claimed.text  # at A; B catches up on its next look
        assert status_at(b, game_id) == "open"

        # Both accounts reach B (one session cookie is good at every process).
        for browser in (alice, bruno):
            browser.http.base_url = httpx.URL(b.base)
            again = browser.post(f"/api/games/{game_id}/seats/2/claim", {"name": "Twice"})
            assert again.status_code == 409, again.text
            assert again.json()["error"]["code"] == "rated_one_seat"
        held = [s.user_id for s in b.games.core.games[game_id].seats]
        assert held[0] is not None and held[1] is not None and held[0] != held[1]
        assert held[2] is None
        for browser in (alice, bruno):
            browser.close()


def test_presence_only_moves_forward_and_keeps_a_table_open(db: Database) -> None:
    """The two writes on their own, on both databases, from a database of revision 0015."""
    engine = migrated_from(
        db.url,
        "0015",
        "INSERT INTO games (id, players, status, public, title, created_at, updated_at,"
        " version, result, game) VALUES ('old', 2, 'active', true, '', 0, 0, 0, NULL, 'iacta')",
    )

    def stored() -> tuple[str, float | None]:
        with engine.connect() as conn:
            row = conn.execute(text("SELECT status, human_seen FROM games WHERE id = 'old'")).one()
        return str(row[0]), row[1]

    assert stored() == ("active", None)  # an existing game: never recorded
    for at in (100.0, 50.0):  # a late write of an older sighting changes nothing
        with engine.begin() as conn:
            op_record_seen({"old": at})(conn)
        assert stored() == ("active", 100.0)
    with pytest.raises(VersionConflict), engine.begin() as conn:
        op_abandon("old", 100.0, 200.0)(conn)  # a human was there at the cutoff
    assert stored() == ("active", 100.0)
    with engine.begin() as conn:
        op_abandon("old", 100.5, 200.0)(conn)
    assert stored() == ("abandoned", 100.0)
    with pytest.raises(VersionConflict), engine.begin() as conn:
        op_abandon("old", 100.5, 300.0)(conn)  # closed once
    # A move another process stores a moment after the close is refused like a stale one.
    with pytest.raises(VersionConflict), engine.begin() as conn:
        op_append_events("old", 0, ["x"], [0], now=300.0)(conn)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version FROM games WHERE id = 'old'")).scalar_one() == 0
    engine.dispose()


async def on_loop(server: LiveServer, coro: Any) -> Any:
    """Run ``coro`` on ``server``'s own event loop (where its games live)."""
    loop = server.games.cluster._sweeper.get_loop()
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))


def test_a_socket_never_attaches_to_a_copy_dropped_under_it(tmp_path: Path) -> None:
    """B holds a game nobody there watches: the moves made at A are kept on B's copy,
    unapplied, and B drops the copy once it is left behind. A socket whose lookup got the
    copy just before the drop attaches to the copy in memory when it says hello: its own,
    put back and caught up from what B kept, or the one a lookup loaded meanwhile; never
    a copy that no longer follows the game."""
    clock = ShiftedClock()
    with two_processes(tmp_path, clock) as (a, b):
        game_id, tokens = human_game(a.base, 2, claim_at=b.base)
        cluster = b.games.cluster
        assert cluster is not None
        looked_up = b.games.core.games[game_id]  # what a socket's lookup at B got
        before = looked_up.version

        async def play() -> int:
            clients = [await connect(a.ws_base, game_id, t) for t in tokens]
            for _ in range(3):
                _, ack = await play_turn(clients, random.Random(3))
            for c in clients:
                await c.close()
            version: int = ack["version"]
            return version

        now = asyncio.run(play())
        # Every move's announcement heard at B (not only the first: fan-out is late under
        # load), kept there unapplied.
        assert wait_for(lambda: looked_up.heard_version == now, 10)
        assert looked_up.version == before  # kept, not applied: nobody at B watches it
        # B's sweep compares stored versions with memory: the kept announcements reach the
        # stored version, so it is no drift (no "read the log" is added to them).
        asyncio.run(on_loop(b, cluster._check_drift()))
        assert None not in looked_up.heard and looked_up.heard_version == now

        async def drop_then_attach() -> tuple[bool, int]:
            cluster.unwatched_ttl = 0.0
            cluster._drop_behind()
            dropped = game_id not in b.games.core.games
            again = cluster.current(looked_up)  # the socket's hello, after the drop
            assert again is looked_up and b.games.core.games[game_id] is looked_up
            await cluster.follow(again)  # what B kept is enough: no read of the log
            return dropped, again.version

        dropped, version = asyncio.run(on_loop(b, drop_then_attach()))
        assert dropped and version == now

        async def dropped_and_reloaded() -> bool:
            looked_up.heard.append(None)
            del b.games.core.games[game_id]  # dropped again, and a lookup loads a new copy
            fresh = await b.games.get(game_id)
            return cluster.current(looked_up) is fresh and fresh.version == now

        assert asyncio.run(on_loop(b, dropped_and_reloaded()))
