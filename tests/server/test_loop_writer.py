"""The event loop's connection for moves (alea.server.loopwriter) is asyncpg's: the one SQL
text numbered for it, its connection parameters read from the engine's URL as libpq reads
them, a conflict still a VersionConflict that stores nothing. The breaker is tested in
test_loop_writer_breaker.py, a failed connection in test_storage.py."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import asyncpg
import psycopg
import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from alea.server import bulk, loopwriter
from alea.server.loopwriter import LoopWriter, connect_args, numbered
from alea.server.state_snapshots import op_put
from alea.server.storage import Store
from alea.server.tables import SnapshotRecord, StorageError, VersionConflict
from alea.server.writes import op_append_events, op_create_game
from tests.server.support import Database
from tests.server.test_storage import record


def args_of(url: str) -> dict[str, object]:
    return connect_args(create_engine(url))


def test_the_statement_is_numbered_for_asyncpg() -> None:
    assert numbered("SELECT %s, (%s)::int") == "SELECT $1, ($2)::int"
    statement = loopwriter.STATEMENT
    # The one SQL text, its four placeholders numbered in order and nothing else changed.
    assert re.findall(r"\$(\d+)", statement) == ["1", "2", "3", "4"]
    assert re.sub(r"\$\d+", "%s", statement) == bulk.PG_APPEND_COMMITTED
    # The parameters, in the order of the placeholders: two JSON texts, two counts.
    params = bulk.committed_params([{"id": "g"}], [{"game_id": "g"}])
    assert [type(p) for p in params] == [str, str, int, int]
    with pytest.raises(ValueError):
        numbered("SELECT 100 %% 7, %s")


def test_the_connection_parameters_are_the_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PGOPTIONS", raising=False)
    monkeypatch.delenv("PGAPPNAME", raising=False)
    timeout = loopwriter.CONNECT_TIMEOUT
    assert args_of("postgresql+psycopg://postgres@127.0.0.1:5432/test") == {
        "host": "127.0.0.1",
        "port": 5432,
        "user": "postgres",
        "database": "test",
        "timeout": timeout,
    }
    # A password (escaped in the URL), a schema through libpq's options, an application name.
    found = args_of(
        "postgresql+psycopg://alea:p%40ss@db/alea?options=-csearch_path%3Dbench"
        "&application_name=alea&connect_timeout=30"
    )
    assert found == {
        "host": "db",
        "user": "alea",
        "password": "p@ss",
        "database": "alea",
        "server_settings": {"options": "-csearch_path=bench", "application_name": "alea"},
        "timeout": timeout,  # the loop's own, as it was psycopg's
    }
    # A socket directory, and no host at all (asyncpg's defaults, like libpq's).
    assert args_of("postgresql+psycopg://alea@/alea?host=/run/postgresql") == {
        "host": "/run/postgresql",
        "user": "alea",
        "database": "alea",
        "timeout": timeout,
    }
    assert args_of("postgresql+psycopg:///alea") == {"database": "alea", "timeout": timeout}
    # Several hosts; SSL as the URL asks, with the files asyncpg reads from a URI only.
    found = args_of(
        "postgresql+psycopg://alea@/alea?host=a:5432&host=b:5433"
        "&sslmode=verify-full&sslrootcert=/etc/ca.pem"
    )
    assert found["host"] == ["a", "b"] and found["port"] == [5432, 5433]
    assert found["ssl"] == "verify-full"
    assert found["dsn"] == "postgresql://?sslrootcert=%2Fetc%2Fca.pem"


def test_libpqs_startup_variables_are_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    """libpq takes ``options`` and ``application_name`` from PGOPTIONS and PGAPPNAME when
    the URL has none (asyncpg does not): the loop's connection must see the same schema."""
    monkeypatch.setenv("PGOPTIONS", "-csearch_path=env")
    monkeypatch.setenv("PGAPPNAME", "alea-env")
    found = args_of("postgresql+psycopg://alea@db/alea")
    assert found["server_settings"] == {
        "options": "-csearch_path=env",
        "application_name": "alea-env",
    }
    found = args_of("postgresql+psycopg://alea@db/alea?options=-csearch_path%3Durl")
    assert found["server_settings"] == {
        "options": "-csearch_path=url",
        "application_name": "alea-env",
    }


def test_a_url_asyncpg_cannot_follow_leaves_the_moves_to_the_thread() -> None:
    url = "postgresql+psycopg://alea@db/alea?keepalives_idle=30"
    with pytest.raises(ValueError, match="keepalives_idle"):
        args_of(url)
    assert not LoopWriter.serves(create_engine(url))
    assert LoopWriter.serves(create_engine("postgresql+psycopg://alea@db/alea"))
    assert not LoopWriter.serves(create_engine("sqlite://"))


def test_a_conflict_is_recognised_from_either_driver() -> None:
    for err in (asyncpg.exceptions.DivisionByZeroError("x"), psycopg.errors.DivisionByZero("x")):
        assert isinstance(bulk.refused(err), VersionConflict)
    assert bulk.refused(asyncpg.exceptions.UniqueViolationError("x")) is None
    assert bulk.refused(ConnectionResetError()) is None


def test_moves_are_committed_on_an_asyncpg_connection(db: Database) -> None:
    """A batch is committed on the loop's asyncpg connection, in the URL's schema; a stale
    batch raises VersionConflict and stores nothing, not even its other game's move, and
    the connection stays (a conflict is no failure)."""
    if not db.url.startswith("postgresql"):
        pytest.skip("the loop's connection is PostgreSQL's")
    store = Store(db.url)
    store.migrate()
    writer = LoopWriter(store.engine)

    async def run() -> None:
        store.start()
        for name in ("p", "q"):
            await store.write(op_create_game(record(name, ["province:red1"]), [None]))
        moves = [op_append_events(g, 1, [f"{g}1", f"{g}1c"], [0, None]) for g in ("p", "q")]
        assert await writer.commit(moves)
        conn = writer._conn
        assert isinstance(conn, asyncpg.Connection)
        schema = make_url(db.url).query["options"]
        assert isinstance(schema, str)
        assert await conn.fetchval("SHOW search_path") == schema.removeprefix("-csearch_path=")
        stale = [op_append_events("p", 3, ["p3"], [0]), op_append_events("q", 1, ["q!"], [0])]
        with pytest.raises(VersionConflict):
            await writer.commit(stale)
        assert await writer.commit([op_append_events("p", 3, ["p3"], [1])])
        assert writer._conn is conn and (writer.commits, writer.failures) == (2, 0)
        await writer.close()
        assert conn.is_closed()
        await store.close()

    asyncio.run(run())
    reader = Store(db.url)
    assert [e for _, e, _ in reader.events("p")] == ["province:red1", "p1", "p1c", "p3"]
    assert reader.events("q") == [(0, "province:red1", None), (1, "q1", 0), (2, "q1c", None)]
    loaded = reader.load_game("q")
    assert loaded is not None and loaded.version == 3
    reader.dispose()


def test_snapshots_are_stored_on_the_loops_connection_with_the_moves(db: Database) -> None:
    """A batch of moves and snapshots is committed from the loop: the moves in their one
    statement, each snapshot in one upsert that replaces the game's older snapshot; a
    snapshot the loop cannot store (its game is gone) goes to the writer thread, fails
    there alone, and the moves beside it and the connection stay."""
    if not db.url.startswith("postgresql"):
        pytest.skip("the loop's connection is PostgreSQL's")
    store = Store(db.url)
    store.migrate()
    assert store.loop_writer is not None

    def snap(idx: int) -> SnapshotRecord:
        return SnapshotRecord(idx=idx, rules=1, state=f'{{"at": {idx}}}')

    async def run() -> None:
        store.start()
        await store.write(op_create_game(record("p", ["province:red1"]), [None]))
        await store.write(op_append_events("p", 1, ["p1"], [0]))  # opens the connection
        writer = store.loop_writer
        assert writer is not None and writer.commits == 1
        conn = writer._conn
        first = asyncio.gather(
            store.write(op_put("p", snap(1))), store.write(op_append_events("p", 2, ["p2"], [1]))
        )
        await first
        # One batch: its moves and its snapshot, each one statement on the loop.
        assert writer.commits == 3 and store.commits == 3 and store.writes == 4
        batch = asyncio.gather(
            store.write(op_append_events("p", 3, ["p3"], [0])),
            store.write(op_put("p", snap(3))),
            store.write(op_put("gone", snap(1))),
            return_exceptions=True,
        )
        moved, put, gone = await batch
        assert moved is None and put is None
        assert isinstance(gone, StorageError)  # no such game: refused by the foreign key
        assert writer._conn is conn and writer.failures == 1  # an answer, not a failure
        await store.close()

    asyncio.run(run())
    reader = Store(db.url)
    loaded = reader.load_game("p")
    assert loaded is not None and loaded.version == 4
    assert loaded.snapshot == snap(3)  # the newer one replaced the older
    reader.dispose()


SOCKET_DIR = "/var/run/postgresql"


def test_moves_reach_postgresql_through_its_socket_directory(db: Database) -> None:
    """A URL naming a socket directory (``?host=/run/postgresql``) is followed too."""
    if not db.url.startswith("postgresql"):
        pytest.skip("the loop's connection is PostgreSQL's")
    url = make_url(db.url)
    if url.host not in ("127.0.0.1", "localhost") or not Path(SOCKET_DIR).is_dir():
        pytest.skip("PostgreSQL is not local, or its socket is elsewhere")
    if not os.path.exists(f"{SOCKET_DIR}/.s.PGSQL.{url.port or 5432}"):
        pytest.skip("no socket for PostgreSQL's port")
    through = url.set(host=None).update_query_dict({"host": SOCKET_DIR})
    store = Store(db.url)
    store.migrate()
    writer = LoopWriter(create_engine(through))

    async def run() -> None:
        store.start()
        await store.write(op_create_game(record("s", ["province:red1"]), [None]))
        assert await writer.commit([op_append_events("s", 1, ["s1"], [0])])
        # No server address: the session came through the socket, not TCP.
        assert await writer._conn.fetchval("SELECT inet_server_addr()") is None
        await writer.close()
        await store.close()

    asyncio.run(run())
    reader = Store(db.url)
    assert [e for _, e, _ in reader.events("s")] == ["province:red1", "s1"]
    reader.dispose()
