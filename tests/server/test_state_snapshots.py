"""Snapshots of the engine state beside the log: written as games go, used at start only
when they match the log, and discarded when the replay of their events disagrees."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import text

import alea.game
from alea.server.config import Settings
from alea.server.service import GameServer
from alea.server.storage import Store
from alea.server.writes import op_create_game
from tests.server.support import Database, stored_game

EVERY = 16


def replayed(store: Store, game_id: str) -> dict[str, Any]:
    """The state the stored log alone gives (every event re-applied), as JSON."""
    state = alea.game.info("iacta").new_game(2)
    for _, event, _ in store.events(game_id):
        state.apply(event)
    return state.to_json()


def snapshot_row(store: Store, game_id: str) -> tuple[int, int, str] | None:
    with store.engine.connect() as conn:
        row = conn.execute(
            text("SELECT idx, rules, state FROM snapshots WHERE game_id = :g"), {"g": game_id}
        ).first()
    return None if row is None else (int(row[0]), int(row[1]), str(row[2]))


def server_for(db: Database, every: int = EVERY) -> GameServer:
    store = Store(db.url, sqlite_synchronous="NORMAL")
    store.migrate()
    settings = Settings(database_url=db.url, snapshot_every=every, bot_processes=0)
    return GameServer(settings, store)


def fill(db: Database) -> None:
    store = Store(db.url)
    store.migrate()
    with store.engine.begin() as conn:
        for game_id, events, seed in (("long", 120, 1), ("short", 30, 2), ("new", 5, 3)):
            op_create_game(*stored_game(game_id, events, seed))(conn)
    store.dispose()


async def play(server: GameServer, game_id: str, moves: int, seed: int) -> None:
    """``moves`` random legal moves through the commit path, as players would make them."""
    rng = random.Random(seed)
    game = await server.get(game_id)
    for _ in range(moves):
        seat = game.to_move()
        assert seat is not None
        action = str(rng.choice(list(game.state.legal_actions())))
        await server.core.act(game, seat, action, game.version)


def test_snapshots_are_written_as_games_go_and_used_at_restart(db: Database) -> None:
    fill(db)

    async def first() -> None:
        server = server_for(db)
        await server.start()
        # No snapshot yet: every log was replayed, and one was written for each game
        # past EVERY events ("new" has fewer).
        assert all(g.snapshot_at in (0, g.version) for g in server.games.values())
        await play(server, "long", 40, seed=7)
        await server.stop()

    asyncio.run(first())
    store = Store(db.url)
    long_version = len(store.events("long"))
    row = snapshot_row(store, "long")
    assert row is not None
    assert long_version - EVERY < row[0] <= long_version  # refreshed during play
    assert row[1] == alea.game.info("iacta").version
    assert snapshot_row(store, "short") is not None
    assert snapshot_row(store, "new") is None

    async def second() -> None:
        server = server_for(db)
        await server.start()
        assert server.games["long"].snapshot_at == row[0]  # started from the snapshot
        assert server.games["new"].snapshot_at == 0
        for game_id, game in server.games.items():
            assert game.state.to_json() == replayed(store, game_id)
            assert len(game.actors) == game.version
            assert [a for _, _, a in store.events(game_id)] == game.actors
        await asyncio.wait_for(server.core.verifier.done.wait(), 30)
        assert server.core.verifier.checked == 2
        assert server.core.verifier.discarded == 0
        await play(server, "long", 3, seed=8)  # and play goes on
        await server.stop()

    asyncio.run(second())
    store.dispose()


def _change_a_hidden_field(state: dict[str, Any], actors: list[Any]) -> None:
    """The same history, another state: what only a replay can tell."""
    state["tokens"] = [t + 1 for t in state["tokens"]]


def _change_the_history(state: dict[str, Any], actors: list[Any]) -> None:
    state["history"] = [*state["history"][:-1], "R:111111"]


def _change_an_actor(state: dict[str, Any], actors: list[Any]) -> None:
    actors[-1] = 1 if actors[-1] != 1 else 0


@pytest.mark.parametrize(
    ("tamper", "used_at_start"),
    [(_change_a_hidden_field, True), (_change_an_actor, True), (_change_the_history, False)],
)
def test_a_snapshot_that_does_not_match_its_log_is_discarded(
    db: Database,
    tamper: Callable[[dict[str, Any], list[Any]], None],
    used_at_start: bool,
) -> None:
    fill(db)

    async def first() -> None:
        server = server_for(db)
        await server.start()
        await server.stop()

    asyncio.run(first())
    store = Store(db.url)
    row = snapshot_row(store, "long")
    assert row is not None
    data = json.loads(row[2])
    tamper(data["state"], data["actors"])
    with store.engine.begin() as conn:
        conn.execute(
            text("UPDATE snapshots SET state = :s WHERE game_id = 'long'"), {"s": json.dumps(data)}
        )
    truth = replayed(store, "long")

    async def second() -> None:
        server = server_for(db)
        await server.start()
        game = server.games["long"]
        await asyncio.wait_for(server.core.verifier.done.wait(), 30)
        if used_at_start:
            # The history matches, so the start used it; the background replay did not
            # agree, so it was deleted and the game rebuilt from its log alone.
            assert server.core.verifier.discarded == 1
            assert snapshot_row(store, "long") is None
            assert game.snapshot_at == 0
        else:
            # Its history is not the log's: never used; the full replay's state was
            # stored as the game's new snapshot instead.
            assert server.core.verifier.discarded == 0
            assert game.snapshot_at == game.version
        assert game.state.to_json() == truth
        await play(server, "long", 2, seed=9)
        await server.stop()

    asyncio.run(second())
    if not used_at_start:
        fresh = snapshot_row(store, "long")
        assert fresh is not None
        assert json.loads(fresh[2])["state"] == truth
    store.dispose()


def test_a_snapshot_of_other_rules_is_not_used(db: Database) -> None:
    fill(db)

    async def first() -> None:
        server = server_for(db)
        await server.start()
        await server.stop()

    asyncio.run(first())
    store = Store(db.url)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE snapshots SET rules = rules + 1"))

    async def second() -> None:
        server = server_for(db)
        await server.start()
        assert all(g.snapshot_at in (0, g.version) for g in server.games.values())
        assert server.core.verifier.checked == 0
        assert server.games["long"].state.to_json() == replayed(store, "long")
        await server.stop()

    asyncio.run(second())
    store.dispose()


def test_no_snapshots_when_switched_off(db: Database) -> None:
    fill(db)

    async def run() -> None:
        server = server_for(db, every=0)
        await server.start()
        await play(server, "long", 20, seed=3)
        await server.stop()

    asyncio.run(run())
    store = Store(db.url)
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM snapshots")).scalar() == 0
    store.dispose()
