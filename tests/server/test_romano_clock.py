"""The Dado Romano time limit online (RULES.md B1): the server's clock declares the last round.

Time is a :class:`~tests.server.support.ShiftedClock` handed to the server as
``Settings.clock``: an hour passes in one call, so nothing here waits for real
minutes. The watcher looks at the clock every 50 ms (``deadline_poll``).
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from alea.romano.ceiling import distance
from alea.server import Settings
from tests.server.support import (
    Client,
    Database,
    LiveServer,
    ShiftedClock,
    connect,
    create_game,
    migrated_from,
)
from tests.server.test_romano_server import BOT, HUMAN, play, romano_game

HOUR = 3600.0


def settings_for(db: Database, clock: ShiftedClock, seed: int = 7) -> Settings:
    return Settings(
        database_url=db.url,
        bot_delay=0.0,
        idle_timeout=60.0,
        sqlite_synchronous="NORMAL",
        chance_rng=lambda: random.Random(seed),
        clock=clock,
        deadline_poll=0.05,
    )


def post_game(base: str, body: dict[str, Any], lang: str = "en") -> httpx.Response:
    return httpx.post(f"{base}/api/games", json=body, headers={"Accept-Language": lang}, timeout=30)


def stored_events(server: LiveServer, game_id: str) -> list[str]:
    return [event for _, event, _ in server.games.store.events(game_id)]


def has_last_round(client: Client) -> bool:
    return ["last-round", None] in client.log


def check_time_winners(view: dict[str, Any]) -> None:
    """The winners of a game that ended on time are the players closest to 150 (B1, B6)."""
    assert view["phase"] == "over"
    if view["end_reason"] != "time":
        # Someone landed on exactly 150 before the last round was over: that wins at once.
        assert view["end_reason"] == "150"
        assert all(view["scores"][w] == 150 for w in view["winners"])
        return
    seats = range(view["players"])
    eligible = [i for i in seats if not view["eliminated"][i]] or list(seats)
    best = min(distance(view["scores"][i]) for i in eligible)
    assert view["winners"] == [i for i in eligible if distance(view["scores"][i]) == best]
    assert view["round"] == view["last_round"]


# ------------------------------------------------------------------ creation


def test_time_limit_at_creation(sqlite_db: Database) -> None:
    clock = ShiftedClock()
    with LiveServer(settings_for(sqlite_db, clock)) as server:
        base = server.base
        # Absent: one hour (RULES.md B1), counted from now since every seat is taken.
        before = clock()
        default = create_game(base, [HUMAN, BOT], game="romano")["game"]
        assert default["status"] == "active"
        limit = default["clock"]
        assert limit["time_limit"] == 60 and limit["last_round"] is False
        assert before + HOUR <= limit["deadline"] <= clock() + HOUR
        assert limit["deadline_utc"].endswith("Z") and "T" in limit["deadline_utc"]
        quarter = create_game(base, [HUMAN, BOT], game="romano", time_limit=15)["game"]
        assert quarter["clock"]["time_limit"] == 15
        assert abs(quarter["clock"]["deadline"] - (clock() + 900)) < 30
        # 0 and null: no limit at all.
        for none in (0, None):
            made = create_game(base, [HUMAN, BOT], game="romano", time_limit=none)["game"]
            assert made["clock"] is None
        # The clock starts when play begins (the last seat is taken), not at creation.
        created = create_game(base, [HUMAN, HUMAN], game="romano", time_limit=30)
        game_id = created["game"]["id"]
        assert created["game"]["status"] == "open"
        assert created["game"]["clock"] == {
            "time_limit": 30,
            "deadline": None,
            "deadline_utc": None,
            "last_round": False,
        }
        clock.advance(5 * HOUR)  # a long wait for a friend changes nothing
        claimed = httpx.post(f"{base}/api/games/{game_id}/seats/1/claim", json={}, timeout=30)
        assert claimed.status_code == 200
        info = httpx.get(f"{base}/api/games/{game_id}").json()
        assert info["status"] == "active"
        assert abs(info["clock"]["deadline"] - (clock() + 1800)) < 30
        state = httpx.get(f"{base}/api/games/{game_id}/state").json()
        assert state["clock"] == info["clock"]
        # Out of range: a typed error, in the client's language.
        for bad in (601, -1, 100_000):
            answer = post_game(base, {"game": "romano", "seats": [HUMAN, BOT], "time_limit": bad})
            assert answer.status_code == 422, answer.text
            error = answer.json()["error"]
            assert error["code"] == "bad_time_limit"
            assert "1 to 600 minutes" in error["message"]
        italian = post_game(
            base, {"game": "romano", "seats": [HUMAN, BOT], "time_limit": 601}, lang="it"
        )
        assert "da 1 a 600 minuti" in italian.json()["error"]["message"]
        # Not a whole number of minutes: refused by the request schema.
        for bad_type in (True, "60", 1.5):
            answer = post_game(
                base, {"game": "romano", "seats": [HUMAN, BOT], "time_limit": bad_type}
            )
            assert answer.status_code == 422
            assert answer.json()["error"]["code"] == "bad_request"
        # Alea Iacta Est has no time limit: none by default, and asking for one is refused.
        iacta = create_game(base, [HUMAN, BOT])["game"]
        assert iacta["game"] == "iacta" and iacta["clock"] is None
        assert create_game(base, [HUMAN, BOT], time_limit=0)["game"]["clock"] is None
        assert create_game(base, [HUMAN, BOT], time_limit=None)["game"]["clock"] is None
        refused = post_game(base, {"seats": [HUMAN, BOT], "time_limit": 30})
        assert refused.status_code == 422
        assert refused.json()["error"]["code"] == "bad_time_limit"
        assert "iacta games have no time limit" in refused.json()["error"]["detail"]
        # The lobby shows the clock too.
        lobby = {g["id"]: g for g in httpx.get(f"{base}/api/games").json()}
        assert lobby[game_id]["clock"] == info["clock"]
        assert lobby[iacta["id"]]["clock"] is None


# ------------------------------------------------------------------ declaring


async def declared_over_the_wire(server: LiveServer, clock: ShiftedClock) -> None:
    game_id, tokens = romano_game(server.base, 3)
    clients = [await connect(server.ws_base, game_id, t) for t in tokens]
    watcher = await connect(server.ws_base, game_id, None)
    rng = random.Random(4)
    await play(clients, rng, limit=2)
    for c in clients:
        await c.until_version(clients[0].version)
    mover = next(c for c in clients if c.legal)
    # Nobody at the table may end the game early: the last round is the clock's.
    await mover.send({"type": "action", "action": "last-round", "version": mover.version})
    refused = await mover.until(lambda m: m["type"] == "error")
    assert refused["code"] == "illegal_action" and "server" in refused["detail"]
    # The hour passes while the mover is still choosing.
    seen_version, choice = mover.version, rng.choice(mover.legal)
    view_before = mover.view
    assert view_before is not None and not view_before["is_last_round"]
    clock.advance(HOUR + 1)
    for c in [*clients, watcher]:
        await c.until(lambda m, c=c: m["type"] == "update" and has_last_round(c), timeout=10)
        assert c.version == seen_version + 1
        assert c.log[seen_version] == ["last-round", None]
        update = c.messages[-1]
        assert update["clock"]["last_round"] is True
        assert c.view is not None and c.view["is_last_round"] is True
        assert c.view["last_round"] == view_before["round"]
        # Neither the turn nor the choices changed.
        assert c.view["turn_of"] == view_before["turn_of"]
    assert mover.legal and choice in mover.legal
    # A move chosen before the declaration is still accepted (nothing it depended on moved).
    await mover.send({"type": "action", "action": choice, "version": seen_version})
    ack = await mover.until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    assert ack["index"] == seen_version + 1
    for c in clients:
        await c.until_version(ack["version"])
    # Everyone finishes the round; then the player closest to 150 wins.
    await play(clients, rng)
    await watcher.until_version(clients[0].version)
    final = clients[0].view
    assert final is not None and clients[0].status == "finished"
    check_time_winners(final)
    info = httpx.get(f"{server.base}/api/games/{game_id}").json()
    assert info["status"] == "finished" and info["clock"]["last_round"] is True
    assert info["result"]["winners"] == final["winners"]
    assert info["result"]["reason"] == final["end_reason"]
    assert stored_events(server, game_id).count("last-round") == 1
    assert stored_events(server, game_id) == [e for e, _ in watcher.log]
    for c in [*clients, watcher]:
        await c.close()


def test_the_clock_declares_the_last_round(db: Database) -> None:
    clock = ShiftedClock()
    with LiveServer(settings_for(db, clock)) as server:
        asyncio.run(declared_over_the_wire(server, clock))
        assert server.games.core.deadlines.pending == {}
    assert not server.thread.is_alive()  # the watcher stopped with the server


def test_a_game_that_ends_first_is_left_alone(sqlite_db: Database) -> None:
    clock = ShiftedClock()
    with LiveServer(settings_for(sqlite_db, clock)) as server:
        bots = create_game(server.base, [BOT, BOT], game="romano", sit=False)["game"]
        game_id = bots["id"]
        for _ in range(400):
            if httpx.get(f"{server.base}/api/games/{game_id}").json()["status"] == "finished":
                break
            time.sleep(0.05)
        info = httpx.get(f"{server.base}/api/games/{game_id}").json()
        assert info["status"] == "finished"
        clock.advance(2 * HOUR)
        time.sleep(0.3)  # several looks at the clock
        events = stored_events(server, game_id)
        assert len(events) == info["version"]
        assert server.games.core.deadlines.pending == {}


# ------------------------------------------------------------------- restart


async def first_moves(server: LiveServer, game_id: str, tokens: list[str]) -> list[Any]:
    clients = [await connect(server.ws_base, game_id, t) for t in tokens]
    await play(clients, random.Random(9), limit=2)
    for c in clients:
        await c.until_version(clients[0].version)
        await c.close()
    return clients[0].log


async def wait_for_declaration(server: LiveServer, game_id: str, token: str) -> float:
    """Seconds from connecting until the client holds the ``last-round`` (0: it had it)."""
    started = time.monotonic()
    client = await connect(server.ws_base, game_id, token)
    if not has_last_round(client):
        await client.until(lambda m: m["type"] == "update" and has_last_round(client))
    await client.close()
    return time.monotonic() - started


async def finish(server: LiveServer, game_id: str, tokens: list[str]) -> dict[str, Any]:
    clients = [await connect(server.ws_base, game_id, t) for t in tokens]
    assert [e for e, _ in clients[0].log].count("last-round") == 1
    assert clients[0].messages[-1]["clock"]["last_round"] is True
    await play(clients, random.Random(10))
    view = clients[0].view
    assert view is not None
    for c in clients:
        await c.close()
    return view


@pytest.mark.serial  # measures time: runs alone (tests/conftest.py)
def test_restart_declares_an_overdue_last_round_exactly_once(db: Database) -> None:
    clock = ShiftedClock()
    with LiveServer(settings_for(db, clock)) as server:
        game_id, tokens = romano_game(server.base, 2)
        deadline = httpx.get(f"{server.base}/api/games/{game_id}").json()["clock"]["deadline"]
        log = asyncio.run(first_moves(server, game_id, tokens))
    assert not server.thread.is_alive()
    # Down for half an hour: the stored deadline is watched again, not yet due.
    clock.advance(HOUR / 2)
    with LiveServer(settings_for(db, clock, seed=8)) as server:
        assert server.games.core.deadlines.pending == {game_id: deadline}
        time.sleep(0.2)
        info = httpx.get(f"{server.base}/api/games/{game_id}").json()
        assert info["clock"]["deadline"] == deadline and info["clock"]["last_round"] is False
        assert "last-round" not in stored_events(server, game_id)
    # Down past the deadline: the restarted server declares the last round at once.
    clock.advance(HOUR)
    with LiveServer(settings_for(db, clock, seed=8)) as server:
        waited = asyncio.run(wait_for_declaration(server, game_id, tokens[0]))
        assert waited < 5.0
        events = stored_events(server, game_id)
        assert events[: len(log)] == [e for e, _ in log]
        assert events.count("last-round") == 1
        assert server.games.core.deadlines.pending == {}
    # Once more: the log holds the declaration, so nothing is applied twice.
    with LiveServer(settings_for(db, clock, seed=8)) as server:
        assert server.games.core.deadlines.pending == {}
        time.sleep(0.2)
        assert stored_events(server, game_id).count("last-round") == 1
        final = asyncio.run(finish(server, game_id, tokens))
        check_time_winners(final)
        assert stored_events(server, game_id).count("last-round") == 1
        assert httpx.get(f"{server.base}/api/games/{game_id}").json()["status"] == "finished"


def test_migration_adds_time_limits(sqlite_db: Database) -> None:
    engine = migrated_from(
        sqlite_db.url,
        "0002",
        "INSERT INTO games (id, players, status, public, title, created_at, updated_at,"
        " version, result, game) VALUES ('old', 2, 'open', 1, '', 0, 0, 0, NULL, 'romano')",
    )
    with engine.connect() as conn:
        row = conn.execute(text("SELECT time_limit, deadline FROM games WHERE id = 'old'")).one()
        assert tuple(row) == (None, None)  # games from before: no time limit
    engine.dispose()
