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
on a connection of its own, in autocommit mode, and the writer task awaits it on
the loop.

**asyncpg, not psycopg.** That connection was psycopg's ``AsyncConnection``
first. Awaited on uvloop, one ``INSERT ... RETURNING`` cost 173 µs of CPU through
it against 60 µs through asyncpg (a statement asyncpg prepares once and caches),
and the moves' statement, one move per commit, 229-291 µs against 148-168 µs
(``bench/loop_writer.py``, medians of three runs each). For every statement
psycopg registers the socket with the loop and removes it again (two
``epoll_ctl`` calls), arms a timer, takes the connection's lock and drives libpq
through a generator; asyncpg speaks the protocol in Cython on a transport of the
loop's, its socket registered once. Only this connection is asyncpg's: the
writer thread and every read stay on SQLAlchemy and psycopg. The statement is
:data:`~alea.server.bulk.PG_APPEND_COMMITTED` itself, its ``%s`` placeholders
numbered for asyncpg (:data:`STATEMENT`), with the same parameters (two JSON
texts, which the statement casts, and two counts). The connection's parameters
are the engine URL's, read as libpq reads them (:func:`connect_args`): the same
host (or socket directory), database, user, password, ``options`` and SSL mode,
so it reaches the server and schema that the thread's connection reaches, and
negotiates SSL as libpq does (``prefer`` unless the URL or ``PGSSLMODE`` says
otherwise). A URL with a parameter asyncpg has no equivalent for leaves every
batch to the thread.

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
import os
import time
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any

import asyncpg
from sqlalchemy import Connection, Engine

from alea.server import bulk
from alea.server.state_snapshots import PG_PUT, PutSnapshot
from alea.server.writes import AppendEvents

log = logging.getLogger("alea.server.storage")

#: Seconds to wait for a new connection before the batch goes to the writer thread.
CONNECT_TIMEOUT = 5
#: Seconds a graceful close may take (at the store's close) before the socket is cut.
CLOSE_TIMEOUT = 2.0
#: Seconds after a failed connection attempt before the next one (in the background).
RETRY_FIRST = 0.5
#: The longest interval between two background attempts.
RETRY_MOST = 5.0


def numbered(sql: str) -> str:
    """``sql`` with its ``%s`` placeholders (psycopg's) as ``$1``, ``$2``... (asyncpg's).

    One SQL text serves both drivers; a ``%`` of any other kind (a literal, ``%%``)
    is refused rather than guessed at.
    """
    parts = sql.split("%s")
    if any("%" in part for part in parts):
        raise ValueError("only %s placeholders can be numbered")
    return "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], 1)) + parts[-1]


#: :data:`alea.server.bulk.PG_APPEND_COMMITTED` as asyncpg takes it. Its parameters are
#: :func:`alea.server.bulk.committed_params`: the two JSON texts (the statement casts them,
#: ``::json``) and the two counts (ints, compared with ``count(*)``: bigint).
STATEMENT = numbered(bulk.PG_APPEND_COMMITTED)
#: :data:`alea.server.state_snapshots.PG_PUT` as asyncpg takes it.
PUT_STATEMENT = numbered(PG_PUT)

#: libpq's connection parameters and asyncpg's keyword for each (those of asyncpg 0.29;
#: a later one's, such as ``service`` or ``krbsrvname``, leave the moves to the thread).
_KEYWORDS = {
    "user": "user",
    "password": "password",
    "passfile": "passfile",
    "dbname": "database",
    "sslmode": "ssl",
    "target_session_attrs": "target_session_attrs",
}
#: Those that go to the server as startup parameters (libpq sends them so too), and the
#: environment variable libpq takes each from when the URL has none (asyncpg reads neither).
_STARTUP = {"options": "PGOPTIONS", "application_name": "PGAPPNAME"}
#: Those asyncpg reads only from a connection URI.
_URI_ONLY = (
    "sslcert",
    "sslkey",
    "sslrootcert",
    "sslcrl",
    "sslpassword",
    "ssl_min_protocol_version",
    "ssl_max_protocol_version",
)
#: Ignored: the timeout is :data:`CONNECT_TIMEOUT` (as it was for psycopg's connection),
#: and ``context`` is SQLAlchemy's (psycopg's type adapters).
_IGNORED = ("connect_timeout", "context")


def connect_args(engine: Engine) -> dict[str, Any]:
    """The keywords of ``asyncpg.connect`` for the database of ``engine`` (psycopg's).

    Read from what the engine's dialect hands libpq for its URL (so a
    socket directory given as ``?host=/run/postgresql``, several hosts, and the query's
    parameters mean what they mean to the writer thread's connection). Anything left
    unset (no host, no password) is asyncpg's default, which like libpq's comes from
    the ``PG*`` environment variables, ``~/.pgpass`` and the socket directories;
    ``PGOPTIONS`` and ``PGAPPNAME``, which asyncpg ignores, are read here.
    ``ValueError`` for a parameter asyncpg cannot honour.
    """
    _, params = engine.dialect.create_connect_args(engine.url)
    found: dict[str, Any] = {"timeout": CONNECT_TIMEOUT}
    settings: dict[str, str] = {}
    uri: dict[str, str] = {}
    for key, value in params.items():
        if key in _IGNORED:
            continue
        if key == "host":
            hosts = str(value).split(",")
            found["host"] = hosts if len(hosts) > 1 else hosts[0]
        elif key == "port":
            ports = [int(p) for p in str(value).split(",")]
            found["port"] = ports if len(ports) > 1 else ports[0]
        elif key in _KEYWORDS:
            found[_KEYWORDS[key]] = str(value)
        elif key in _STARTUP:
            settings[key] = str(value)
        elif key in _URI_ONLY:
            uri[key] = str(value)
        elif key == "client_encoding" and str(value).lower().replace("-", "") == "utf8":
            continue  # asyncpg's own, always
        else:
            raise ValueError(f"the connection parameter {key!r} has no asyncpg equivalent")
    for key, variable in _STARTUP.items():
        if key not in settings and os.environ.get(variable):
            settings[key] = os.environ[variable]  # a schema in PGOPTIONS, say
    if settings:
        found["server_settings"] = settings
    if uri:
        found["dsn"] = "postgresql://?" + urllib.parse.urlencode(uri)
    return found


class LoopWriter:
    """A PostgreSQL connection of the event loop's for batches made only of moves."""

    def __init__(self, engine: Engine) -> None:
        self._connect_args = connect_args(engine)
        self._conn: Any = None  # asyncpg.Connection (asyncpg has no type hints)
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
        """Whether ``engine``'s database can take moves from the loop: PostgreSQL through
        psycopg, with a URL asyncpg can follow (else, said once in the log, the writer
        thread takes every batch, as on SQLite)."""
        if engine.dialect.driver != "psycopg":
            return False
        try:
            connect_args(engine)
        except ValueError as err:
            log.warning("moves are committed by the writer thread only: %s", err)
            return False
        return True

    @staticmethod
    def split(
        ops: Sequence[Callable[[Connection], Any]],
    ) -> tuple[list[AppendEvents], list[PutSnapshot]] | None:
        """``ops`` as moves (plain appends) and snapshots, if they are nothing else (else
        None: the batch is the thread's). A snapshot is written after the commit of the
        events it covers has returned, so within a batch it needs no order with moves."""
        moves: list[AppendEvents] = []
        puts: list[PutSnapshot] = []
        for op in ops:
            if isinstance(op, AppendEvents) and op.plain:
                moves.append(op)
            elif isinstance(op, PutSnapshot):
                puts.append(op)
            else:
                return None
        return moves, puts

    async def put(self, snapshot: PutSnapshot) -> bool:
        """Store ``snapshot`` in one autocommit statement: True once committed, False if
        that could not be done here (the caller hands it to the writer thread).

        Only on a connection already open: a snapshot never waits for a connection
        attempt, and never opens one on its own (the next batch of moves does).
        """
        conn = self._conn
        if conn is None or conn.is_closed() or self.down:
            return False
        try:
            await conn.execute(PUT_STATEMENT, *snapshot.params())
        except Exception as err:
            log.warning(
                "snapshot not stored from the loop (the writer thread retries): %s", _reason(err)
            )
            self.failures += 1
            if not isinstance(err, asyncpg.PostgresError):  # the connection's failure
                self._conn = None
                conn.terminate()
            return False
        self.commits += 1
        return True

    async def commit(self, moves: Sequence[AppendEvents]) -> bool:
        """Store and commit ``moves`` in one statement: True once committed.

        False if that could not be done (a failed connection: nothing acknowledged, the
        caller gives the batch to the writer thread);
        :class:`~alea.server.tables.VersionConflict` if a game was stale (nothing stored).
        Any failure but a conflict counts as the connection's: whatever it was, the thread
        can still commit the batch, so the writer task is never left with an exception.
        """
        params = bulk.committed_params(
            [m.update for m in moves], [row for m in moves for row in m.rows]
        )
        conn = self._conn
        if conn is None or conn.is_closed():
            if self.down:  # the breaker is open: no wait here, the thread takes the batch
                self.bypassed += 1
                self._reconnect_later()
                return False
            try:
                conn = self._conn = await self._connect()
            except Exception as err:
                log.warning(
                    "the loop's connection to PostgreSQL failed (%s); moves go to the "
                    "writer thread until it is back",
                    _reason(err),
                )
                self.failures += 1
                self._opened()
                return False
        try:
            await conn.execute(STATEMENT, *params)
        except Exception as err:
            conflict = bulk.refused(err)
            if conflict is not None:
                raise conflict from None
            log.warning(
                "moves not committed from the loop (the writer thread retries): %s", _reason(err)
            )
            self.failures += 1
            self._conn = None
            conn.terminate()  # no goodbye on a connection that failed: just the socket
            return False
        self.commits += 1
        return True

    async def _connect(self) -> Any:
        return await asyncpg.connect(**self._connect_args)

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
        except Exception:
            self._opened()
        else:
            stale, self._conn = self._conn, conn
            if stale is not None:
                stale.terminate()
            self.down = False
            self._retry_every = RETRY_FIRST
            log.info("the loop's connection to PostgreSQL is back")
        finally:
            self._reconnecting = None

    async def close(self) -> None:
        """Close the connection (at the store's close)."""
        task, self._reconnecting = self._reconnecting, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):  # asyncpg cuts the socket if this fails
                await conn.close(timeout=CLOSE_TIMEOUT)


def _reason(err: Exception) -> str:
    """``err`` for the log: its message, or its kind if it has none (a timeout)."""
    return str(err) or type(err).__name__
