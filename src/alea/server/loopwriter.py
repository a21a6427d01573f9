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

**A circuit breaker for a database out of reach.** A PostgreSQL that is
unreachable (packets dropped, not connections refused) makes a connection
attempt wait its whole timeout (:data:`CONNECT_TIMEOUT`). Once an attempt has
failed, batches no longer try: they go to the writer thread at once, and the
loop's connection is opened again in the background, first after
:data:`RETRY_FIRST` seconds, then at doubling intervals up to
:data:`RETRY_MOST`. So an outage costs at most one wait of the timeout here,
not one per batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from sqlalchemy import Connection, Engine

from alea.server import bulk
from alea.server.writes import AppendEvents

log = logging.getLogger("alea.server.storage")

#: Seconds to wait for a new connection before the batch goes to the writer thread.
CONNECT_TIMEOUT = 5
#: Seconds after a failed connection attempt before the next one (in the background).
RETRY_FIRST = 0.5
#: The longest interval between two background attempts.
RETRY_MOST = 5.0


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
        #: Whether the last connection attempt failed (the breaker is open: batches go to
        #: the thread at once), and batches sent there that way.
        self.down = False
        self.bypassed = 0
        self._retry_at = 0.0
        self._retry_every = RETRY_FIRST
        self._reconnecting: asyncio.Task[None] | None = None

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
        conn = self._conn
        if conn is None or conn.closed:
            if self.down:  # the breaker is open: no wait here, the thread takes the batch
                self.bypassed += 1
                self._reconnect_later()
                return False
            try:
                conn = self._conn = await self._connect()
            except psycopg.Error as err:
                log.warning(
                    "the loop's connection to PostgreSQL failed (%s); moves go to the "
                    "writer thread until it is back",
                    err,
                )
                self.failures += 1
                self._opened()
                return False
        try:
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

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        return await psycopg.AsyncConnection.connect(*self._args, autocommit=True, **self._params)

    def _opened(self) -> None:
        """A connection attempt failed: open the breaker, try again after a while."""
        self.down = True
        self._retry_at = time.monotonic() + self._retry_every
        self._retry_every = min(2 * self._retry_every, RETRY_MOST)

    def _reconnect_later(self) -> None:
        """Try to connect again in the background, if none is under way and it is time."""
        if self._reconnecting is not None or time.monotonic() < self._retry_at:
            return
        self._reconnecting = asyncio.get_running_loop().create_task(
            self._reconnect(), name="alea-loop-writer-reconnect"
        )

    async def _reconnect(self) -> None:
        try:
            conn = await self._connect()
        except psycopg.Error:
            self._opened()
        else:
            stale, self._conn = self._conn, conn
            if stale is not None:
                with contextlib.suppress(Exception):
                    await stale.close()
            self.down = False
            self._retry_every = RETRY_FIRST
            log.info("the loop's connection to PostgreSQL is back")
        finally:
            self._reconnecting = None

    async def close(self) -> None:
        """Close the connection (at the store's close, or after a failure)."""
        task, self._reconnecting = self._reconnecting, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
