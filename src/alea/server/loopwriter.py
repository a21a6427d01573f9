"""Moves committed from the event loop itself, on PostgreSQL: no hand-off to a thread.

The store's writer thread exists because SQLAlchemy's connections block. For
every batch it costs a hand-off each way: the event loop queues the batch to the
thread (a futex wake), the thread runs it and hands the outcome back
(``call_soon_threadsafe``, a write to the loop's self-pipe, a wake-up). On a
quiet server nearly every batch holds one move, so that hand-off (measured:
about 90 µs of CPU per call of ``run_in_executor``) was paid per move, besides
the commit itself. Most batches are nothing but moves (plain appends: no status
change), and those are one statement that is its own transaction
(:data:`alea.server.bulk.PG_APPEND_COMMITTED`), so :class:`LoopWriter` sends it
on an asyncio psycopg connection of its own, in autocommit mode, and the writer
task awaits it on the loop.

Nothing about durability changes: the writer task still wakes no caller until
the statement has returned, and PostgreSQL answers an autocommit statement only
once it is committed. Anything else (a batch with another write, a stale game,
a failed connection) goes to the writer thread as before, which retries write
by write and reports failures: a connection that failed is closed here and
opened again for the next batch.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from sqlalchemy import Connection, Engine

from alea.server import bulk
from alea.server.writes import AppendEvents

log = logging.getLogger("alea.server.storage")

#: Seconds to wait for a new connection before the batch goes to the writer thread.
CONNECT_TIMEOUT = 5


class LoopWriter:
    """A PostgreSQL connection of the event loop's for batches made only of moves."""

    def __init__(self, engine: Engine) -> None:
        args, params = engine.dialect.create_connect_args(engine.url)
        self._args: Sequence[Any] = args
        self._params: dict[str, Any] = {**params, "connect_timeout": CONNECT_TIMEOUT}
        self._conn: psycopg.AsyncConnection[Any] | None = None
        #: Batches committed here, and batches handed to the thread after a failure.
        self.commits = 0
        self.failures = 0

    @staticmethod
    def serves(engine: Engine) -> bool:
        """Whether ``engine``'s database can take moves from the loop (psycopg)."""
        return engine.dialect.driver == "psycopg"

    @staticmethod
    def moves(ops: Sequence[Callable[[Connection], Any]]) -> list[AppendEvents] | None:
        """``ops`` as moves if every one is a plain append (else None: the thread's)."""
        found: list[AppendEvents] = []
        for op in ops:
            if not isinstance(op, AppendEvents) or not op.plain:
                return None
            found.append(op)
        return found

    async def commit(self, moves: Sequence[AppendEvents]) -> bool:
        """Store and commit ``moves`` in one statement: True once committed.

        False if that could not be done (a failed connection: nothing acknowledged, the
        caller gives the batch to the writer thread);
        :class:`~alea.server.tables.VersionConflict` if a game was stale (nothing stored).
        """
        params = bulk.committed_params(
            [m.update for m in moves], [row for m in moves for row in m.rows]
        )
        try:
            conn = self._conn
            if conn is None or conn.closed:
                conn = self._conn = await psycopg.AsyncConnection.connect(
                    *self._args, autocommit=True, **self._params
                )
            async with conn.cursor() as cursor:
                await cursor.execute(bulk.PG_APPEND_COMMITTED, params)
        except psycopg.Error as err:
            conflict = bulk.refused(err)
            if conflict is not None:
                raise conflict from None
            log.warning("moves not committed from the loop (the writer thread retries): %s", err)
            self.failures += 1
            await self.close()
            return False
        self.commits += 1
        return True

    async def close(self) -> None:
        """Close the connection (at the store's close, or after a failure)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
