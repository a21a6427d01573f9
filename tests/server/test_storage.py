"""Storage: migrations, group commit, failure isolation and the version guard."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, text

from alea.server import bulk
from alea.server.storage import Store
from alea.server.tables import GameRecord, SeatRecord, StorageError, VersionConflict, metadata
from alea.server.writes import op_append_events, op_create_game
from tests.server.support import Database


def record(game_id: str, events: list[str]) -> GameRecord:
    now = time.time()
    return GameRecord(
        id=game_id,
        players=2,
        status="active",
        public=True,
        title="",
        created_at=now,
        updated_at=now,
        version=len(events),
        result=None,
        seats=[
            SeatRecord(0, "human", None, "A", "h" * 64),
            SeatRecord(1, "bot", "easy", "B", None),
        ],
        events=events,
    )


def test_migrations_match_the_tables(db: Database) -> None:
    store = Store(db.url)
    store.migrate()
    store.migrate()  # idempotent
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert diff == []
    assert version == only_head()
    store.dispose()


def only_head() -> str:
    """The one head of the migration scripts (a fork in the chain would have two)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", "alea.server:migrations")
    heads = ScriptDirectory.from_config(config).get_heads()
    assert len(heads) == 1, f"the migrations fork: heads {heads}"
    return str(heads[0])


def test_group_commit_and_failure_isolation(db: Database) -> None:
    store = Store(db.url, sqlite_synchronous="NORMAL")
    store.migrate()

    async def run() -> None:
        store.start()
        await store.write(op_create_game(record("g1", ["province:red1"]), [None]))
        await store.write(op_create_game(record("g2", []), []))
        commits = store.commits
        ops = [op_append_events("g1", 1 + i, [f"e{i}"], [0]) for i in range(1)]
        # 40 writes arrive together; one of them is doomed (wrong version), one raises.
        writes = [store.write(op) for op in ops]
        writes += [store.write(op_append_events("g2", i, [f"x{i}"], [1])) for i in range(1)]

        def broken(conn: Connection) -> None:
            raise RuntimeError("boom")

        many = [
            store.write(op_create_game(record(f"m{i}", ["province:red1"]), [None]))
            for i in range(38)
        ]
        doomed = store.write(op_append_events("g1", 99, ["nope"], [0]))
        failing = store.write(broken)
        results = await asyncio.gather(*writes, *many, doomed, failing, return_exceptions=True)
        assert all(r is None for r in results[:-2])
        assert isinstance(results[-2], VersionConflict)
        assert isinstance(results[-1], StorageError)
        # All 40 arrived while no commit was running: they shared one failed transaction,
        # then were committed one by one; a clean batch commits in one transaction.
        assert store.commits - commits == 40
        commits = store.commits
        more = [store.write(op_create_game(record(f"n{i}", []), [])) for i in range(30)]
        await asyncio.gather(*more)
        assert store.commits - commits == 1
        await store.close()

    asyncio.run(run())
    reader = Store(db.url)
    assert [e for _, e, _ in reader.events("g1")] == ["province:red1", "e0"]
    assert [e for _, e, _ in reader.events("g2")] == ["x0"]
    loaded = reader.load_game("g1")
    assert loaded is not None and loaded.version == 2 and loaded.seats[1].level == "easy"
    assert len(reader.load_unfinished()) == 2 + 38 + 30
    assert reader.load_game("missing") is None
    reader.dispose()


def test_a_batch_of_moves_commits_as_one_statement_and_a_stale_one_fails_alone(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hot path: moves queued together are stored by one statement that is its own
    transaction, sent from the event loop on PostgreSQL (alea.server.loopwriter); a stale
    move among them undoes that statement, then the writer thread tries the batch (one
    statement again, bulk.append_committed) and every move alone: only the stale one fails."""
    store = Store(db.url, sqlite_synchronous="NORMAL")
    store.migrate()
    alone: list[int] = []
    real = bulk.append_committed

    def counted(
        conn: Connection, updates: list[dict[str, Any]], rows: list[dict[str, Any]]
    ) -> None:
        alone.append(len(updates))
        real(conn, updates, rows)

    monkeypatch.setattr(bulk, "append_committed", counted)

    async def run() -> None:
        store.start()
        for name in ("a", "b", "c"):
            await store.write(op_create_game(record(name, ["province:red1"]), [None]))
        commits = store.commits
        good = [store.write(op_append_events(g, 1, [f"{g}1"], [0])) for g in ("a", "b", "c")]
        assert await asyncio.gather(*good) == [None, None, None]
        assert store.commits - commits == 1  # one transaction for the three
        stale = store.write(op_append_events("b", 1, ["stale"], [0]))
        fine = [store.write(op_append_events(g, 2, [f"{g}2"], [1])) for g in ("a", "c")]
        results = await asyncio.gather(stale, *fine, return_exceptions=True)
        assert isinstance(results[0], VersionConflict)
        assert results[1:] == [None, None]
        if db.url.startswith("postgresql"):
            assert store.loop_writer is not None
            assert (store.loop_writer.commits, store.loop_writer.failures) == (1, 0)
            # the batch with the stale move on the thread, then each move alone
            assert alone == [3, 1, 1, 1]
        else:
            assert store.loop_writer is None and alone == []
        await store.close()

    asyncio.run(run())
    reader = Store(db.url)
    assert [e for _, e, _ in reader.events("a")] == ["province:red1", "a1", "a2"]
    assert [e for _, e, _ in reader.events("b")] == ["province:red1", "b1"]
    assert [e for _, e, _ in reader.events("c")] == ["province:red1", "c1", "c2"]
    loaded = reader.load_game("b")
    assert loaded is not None and loaded.version == 2
    reader.dispose()


def test_moves_go_to_the_writer_thread_when_the_loops_connection_fails(db: Database) -> None:
    """A connection of the loop's that breaks loses nothing: the batch is committed by the
    writer thread, and the next batch opens a fresh connection (PostgreSQL only)."""
    if not db.url.startswith("postgresql"):
        pytest.skip("the loop's connection is PostgreSQL's")
    store = Store(db.url)
    store.migrate()

    async def run() -> None:
        store.start()
        await store.write(op_create_game(record("k", ["province:red1"]), [None]))
        await store.write(op_append_events("k", 1, ["k1"], [0]))
        loop_writer = store.loop_writer
        assert loop_writer is not None and loop_writer.commits == 1
        conn = loop_writer._conn
        assert conn is not None
        # The server ends the loop's session, as a restart of PostgreSQL would.
        pid = conn.get_server_pid()
        with store.engine.connect() as admin:
            admin.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            admin.commit()
        await store.write(op_append_events("k", 2, ["k2"], [0]))  # by the thread
        assert (loop_writer.commits, loop_writer.failures) == (1, 1)
        await store.write(op_append_events("k", 3, ["k3"], [0]))  # a new connection
        assert (loop_writer.commits, loop_writer.failures) == (2, 1)
        await store.close()

    asyncio.run(run())
    reader = Store(db.url)
    assert [e for _, e, _ in reader.events("k")] == ["province:red1", "k1", "k2", "k3"]
    reader.dispose()


def test_closed_store_refuses_writes(sqlite_db: Database) -> None:
    store = Store(sqlite_db.url)
    store.migrate()

    async def run() -> None:
        store.start()
        await store.close()
        with pytest.raises(StorageError):
            await store.write(op_create_game(record("late", []), []))

    asyncio.run(run())


def test_sqlite_runs_in_wal_mode(sqlite_db: Database) -> None:
    store = Store(sqlite_db.url)
    store.migrate()
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
    store.dispose()
    with pytest.raises(ValueError):
        Store(sqlite_db.url, sqlite_synchronous="SOMETIMES")
