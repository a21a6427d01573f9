"""The hot path's two statements, run on the driver's own cursor.

Every accepted action moves its game's version and appends its events. A batch
of the group commit can hold many of them, and they used to go through
SQLAlchemy's ``executemany``: per row, SQLAlchemy builds and processes a
parameter dictionary, and the driver binds it, all on the writer thread, which
competes with the event loop for the GIL. Here the same two statements run on
the DBAPI cursor of the writer's connection:

* **PostgreSQL** (psycopg): *one* statement for the whole batch (the update in a
  ``WITH`` clause, the insert guarded by its count), its rows passed as two JSON
  texts (encoded by orjson, in C) and spread by ``json_to_recordset``. Passing
  them as nine typed arrays, as before, cost the writer thread more than the
  round trip itself: psycopg adapts a Python list in Python, looking at every
  element to choose the array's type (about 150 µs of a 400 µs commit). A batch
  costs one round trip whatever its size (psycopg prepares it on the server
  after a few uses). When the batch holds nothing else, :func:`append_committed`
  runs that statement as its own transaction (autocommit), so the commit needs
  no ``BEGIN`` and ``COMMIT`` round trips either;
* **SQLite** (the standard ``sqlite3`` module): ``executemany`` with positional
  tuples, which runs its loop in C.

Any other driver gets the portable Core statements of :mod:`alea.server.writes`
(:func:`supported` says which). The version guard is the same either way: the
rows updated must be as many as the games in the batch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import orjson
import psycopg
from sqlalchemy import Connection

from alea.server.tables import VersionConflict

#: One version update: the ``AppendEvents.update`` mapping (``new``, ``now``, ``id``, ``old``).
Update = dict[str, Any]
#: One new event row (``game_id``, ``idx``, ``event``, ``actor``, ``created_at``).
Row = dict[str, Any]

#: The version updates of a batch (a JSON array of ``Update`` objects), moved if still at
#: their old version; ``RETURNING`` says which moved.
_PG_MOVE = (
    "UPDATE games AS g SET version = v.new, updated_at = v.now "
    "FROM json_to_recordset(%s::json) AS v(id varchar, old int, new int, now float8) "
    "WHERE g.id = v.id AND g.version = v.old AND g.status <> 'abandoned'"
)
#: The new events (a JSON array of ``Row`` objects), inserted only if all ``%s`` games moved.
_PG_ADD = (
    "INSERT INTO events (game_id, idx, event, actor, created_at) "
    "SELECT game_id, idx, event, actor, created_at FROM json_to_recordset(%s::json) "
    "AS r(game_id varchar, idx int, event varchar, actor int, created_at float8) "
    "WHERE (SELECT count(*) FROM moved) = %s"
)
#: Both statements in one: the update moves the versions it can, and the events are
#: inserted only if it moved all of them, so the guard still holds and the whole batch
#: costs one round trip. The insert's rowcount tells the caller which.
_PG_APPEND = f"WITH moved AS ({_PG_MOVE} RETURNING g.id) {_PG_ADD}"
#: The same as a transaction of its own (autocommit): a stale game must then undo the
#: whole statement, so the final ``SELECT`` divides by zero unless every game moved (an
#: error aborts the statement, and with it the update and the insert; SQL has no plainer
#: way to raise). Nothing is stored unless the statement returns.
PG_APPEND_COMMITTED = (
    f"WITH moved AS ({_PG_MOVE} RETURNING g.id), added AS ({_PG_ADD} RETURNING 1) "
    "SELECT 1 / ((SELECT count(*) FROM moved) = %s)::int, (SELECT count(*) FROM added)"
)
_SQLITE_ADVANCE = (
    "UPDATE games SET version = ?, updated_at = ? "
    "WHERE id = ? AND version = ? AND status <> 'abandoned'"
)
_SQLITE_INSERT = (
    "INSERT INTO events (game_id, idx, event, actor, created_at) VALUES (?, ?, ?, ?, ?)"
)


def supported(conn: Connection) -> bool:
    """Whether this connection's driver has the fast path (psycopg or sqlite3)."""
    return conn.dialect.driver in ("psycopg", "pysqlite")


def commits_alone(conn: Connection) -> bool:
    """Whether :func:`append_committed` can store a batch of appends as its own
    transaction on this connection (PostgreSQL through psycopg)."""
    return conn.dialect.driver == "psycopg"


def _json(values: Sequence[dict[str, Any]]) -> str:
    return orjson.dumps(values).decode()


def advance_and_append(conn: Connection, updates: Sequence[Update], rows: Sequence[Row]) -> int:
    """Move each game's version (guarded by its old one) and insert ``rows``, in the
    connection's open transaction. Returns how many games rows were updated: the
    caller compares it with ``len(updates)``."""
    cursor: Any = conn.connection.cursor()
    try:
        if conn.dialect.driver == "psycopg" and rows:
            cursor.execute(_PG_APPEND, (_json(updates), _json(rows), len(updates)))
            # Every row or none: all versions moved, or the guard refused the batch.
            return len(updates) if cursor.rowcount == len(rows) else 0
        if conn.dialect.driver == "psycopg":  # nothing to insert: only the versions move
            cursor.execute(_PG_MOVE, (_json(updates),))
            return int(cursor.rowcount)
        cursor.executemany(
            _SQLITE_ADVANCE, [(u["new"], u["now"], u["id"], u["old"]) for u in updates]
        )
        done = int(cursor.rowcount)
        if rows and done == len(updates):
            cursor.executemany(
                _SQLITE_INSERT,
                [(r["game_id"], r["idx"], r["event"], r["actor"], r["created_at"]) for r in rows],
            )
        return done
    finally:
        cursor.close()


def committed_params(updates: Sequence[Update], rows: Sequence[Row]) -> tuple[Any, ...]:
    """The parameters of :data:`PG_APPEND_COMMITTED` for a batch (the writer thread's
    :func:`append_committed` and the event loop's :mod:`alea.server.loopwriter` share them)."""
    return (_json(updates), _json(rows), len(updates), len(updates))


#: PostgreSQL's SQLSTATE for ``division_by_zero``.
DIVISION_BY_ZERO = "22012"


def refused(err: Exception) -> VersionConflict | None:
    """The version conflict that ``err``, raised by :data:`PG_APPEND_COMMITTED`, stands
    for (its guard divided by zero), or None for any other failure.

    Read from the error's SQLSTATE, which psycopg's errors (the writer thread's) and
    asyncpg's (the event loop's, :mod:`alea.server.loopwriter`) both carry as ``sqlstate``.
    """
    if getattr(err, "sqlstate", None) == DIVISION_BY_ZERO:
        return VersionConflict("a game in the batch was not at its expected version")
    return None


def append_committed(conn: Connection, updates: Sequence[Update], rows: Sequence[Row]) -> None:
    """Store a batch of appends and commit it, as one statement in autocommit mode
    (only where :func:`commits_alone`; ``conn`` must have no transaction open).

    One round trip instead of three (``BEGIN``, the statement, ``COMMIT``), as
    durable: PostgreSQL commits an autocommit statement before answering, with
    the same ``synchronous_commit`` as an explicit ``COMMIT``. If a game of the
    batch is not at its expected version nothing is stored and
    :class:`~alea.server.tables.VersionConflict` is raised.
    """
    dbapi: Any = conn.connection.dbapi_connection
    dbapi.autocommit = True
    try:
        with dbapi.cursor() as cursor:
            try:
                cursor.execute(PG_APPEND_COMMITTED, committed_params(updates, rows))
            except psycopg.Error as err:
                conflict = refused(err)
                if conflict is None:
                    raise
                raise conflict from None
    finally:
        with contextlib.suppress(Exception):  # a broken connection is dropped by the caller
            dbapi.autocommit = False
