"""The hot path's two statements, run on the driver's own cursor.

Every accepted action moves its game's version and appends its events. A batch
of the group commit can hold many of them, and they used to go through
SQLAlchemy's ``executemany``: per row, SQLAlchemy builds and processes a
parameter dictionary, and the driver binds it, all on the writer thread, which
competes with the event loop for the GIL. Here the same two statements run on
the DBAPI cursor of the writer's connection (same transaction, so nothing about
durability changes):

* **PostgreSQL** (psycopg): *one* statement for the whole batch (the update in a
  ``WITH`` clause, the insert guarded by its count), its rows passed as arrays
  and spread by ``unnest``, so the per-row work is the driver adapting a list in
  C, and a batch costs one round trip plus the commit whatever its size
  (psycopg also prepares it on the server after a few uses);
* **SQLite** (the standard ``sqlite3`` module): ``executemany`` with positional
  tuples, which runs its loop in C.

Any other driver gets the portable Core statements of :mod:`alea.server.writes`
(:func:`supported` says which). The version guard is the same either way: the
rows updated must be as many as the games in the batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

#: One version update: the ``AppendEvents.update`` mapping (``new``, ``now``, ``id``, ``old``).
Update = dict[str, Any]
#: One new event row (``game_id``, ``idx``, ``event``, ``actor``, ``created_at``).
Row = dict[str, Any]

#: Both statements in one: the update moves the versions it can, and the events are
#: inserted only if it moved all of them (``%s`` games), so the guard still holds and the
#: whole batch costs one round trip. The insert's rowcount tells the caller which.
_PG_APPEND = (
    "WITH moved AS ("
    "UPDATE games AS g SET version = v.new, updated_at = v.now "
    "FROM unnest(%s::varchar[], %s::int[], %s::int[], %s::float8[]) AS v(id, old, new, now) "
    "WHERE g.id = v.id AND g.version = v.old RETURNING g.id) "
    "INSERT INTO events (game_id, idx, event, actor, created_at) "
    "SELECT * FROM unnest(%s::varchar[], %s::int[], %s::varchar[], %s::int[], %s::float8[]) "
    "WHERE (SELECT count(*) FROM moved) = %s"
)
_PG_ADVANCE = (
    "UPDATE games AS g SET version = v.new, updated_at = v.now "
    "FROM unnest(%s::varchar[], %s::int[], %s::int[], %s::float8[]) AS v(id, old, new, now) "
    "WHERE g.id = v.id AND g.version = v.old"
)
_SQLITE_ADVANCE = "UPDATE games SET version = ?, updated_at = ? WHERE id = ? AND version = ?"
_SQLITE_INSERT = (
    "INSERT INTO events (game_id, idx, event, actor, created_at) VALUES (?, ?, ?, ?, ?)"
)


def supported(conn: Connection) -> bool:
    """Whether this connection's driver has the fast path (psycopg or sqlite3)."""
    return conn.dialect.driver in ("psycopg", "pysqlite")


def advance_and_append(conn: Connection, updates: Sequence[Update], rows: Sequence[Row]) -> int:
    """Move each game's version (guarded by its old one) and insert ``rows``, in the
    connection's open transaction. Returns how many games rows were updated: the
    caller compares it with ``len(updates)``."""
    cursor: Any = conn.connection.cursor()
    try:
        if conn.dialect.driver == "psycopg" and rows:
            cursor.execute(
                _PG_APPEND,
                (
                    *_advance_arrays(updates),
                    [r["game_id"] for r in rows],
                    [r["idx"] for r in rows],
                    [r["event"] for r in rows],
                    [r["actor"] for r in rows],
                    [r["created_at"] for r in rows],
                    len(updates),
                ),
            )
            # Every row or none: all versions moved, or the guard refused the batch.
            return len(updates) if cursor.rowcount == len(rows) else 0
        if conn.dialect.driver == "psycopg":  # nothing to insert: only the versions move
            cursor.execute(_PG_ADVANCE, _advance_arrays(updates))
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


def _advance_arrays(updates: Sequence[Update]) -> tuple[list[Any], ...]:
    """The version updates as the four arrays ``unnest`` spreads (id, old, new, now)."""
    return (
        [u["id"] for u in updates],
        [u["old"] for u in updates],
        [u["new"] for u in updates],
        [u["now"] for u in updates],
    )
