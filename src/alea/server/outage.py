"""The database out of reach: one typed answer, ``database_unavailable``, and a probe.

PostgreSQL restarts (an upgrade, a failover, a crash) while the game service
runs. Nothing can be committed meanwhile, so nothing is acknowledged, and the
service must say so in a way a client can act on rather than with a 500 and a
traceback: every write or read that fails because the database cannot be
reached is refused with the code ``database_unavailable`` (HTTP 503 with
``Retry-After``; on the WebSocket an ``error`` of that code), which the web
client shows as its "reconnecting" state until :func:`probe` (through
``/api/health``) says the database answers again. Nothing needs restarting: the
writer and the connection pool open fresh connections on their next use.

A failure of another kind (a constraint, a bug) is not an outage and keeps its
own code (``storage_error``) or is a 500 as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

from alea.server.errors import ServerError
from alea.server.tables import DatabaseUnavailable, StorageError

T = TypeVar("T")

#: Seconds a client is told to wait before trying again.
RETRY_AFTER = 2
#: Seconds the health check waits for the database's answer.
PROBE_TIMEOUT = 2.0
#: Seconds between two attempts to reach the database at start: the first, and the most.
START_RETRY_FIRST = 0.5
START_RETRY_MOST = 10.0

log = logging.getLogger("alea.server")


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not be reached (not that it refused).

    The driver's own errors count as SQLAlchemy's wrappers of them do: the writer
    thread's one-statement commit of moves (:mod:`alea.server.bulk`) runs on psycopg's
    cursor directly, so its lost connection arrives unwrapped. (The event loop's, on
    asyncpg, reports no failure to anyone: :mod:`alea.server.loopwriter` hands the
    batch to the thread instead.)
    """
    if isinstance(exc, (OperationalError, InterfaceError)):
        return True
    if isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError)):
        return True
    return isinstance(exc, DBAPIError) and bool(exc.connection_invalidated)


class DatabaseOutage(ServerError):
    """``database_unavailable``: what needed the database was not done; try again."""


def unavailable() -> DatabaseOutage:
    """The refusal of anything that needs the database while it is out of reach."""
    err = DatabaseOutage(
        "database_unavailable", 503, detail="database unreachable", retry_after=RETRY_AFTER
    )
    err.headers["Retry-After"] = str(RETRY_AFTER)
    return err


def refusal(err: StorageError) -> ServerError:
    """How a failed write is refused: ``database_unavailable`` if the database was out of
    reach, else ``storage_error`` (both 503: nothing of the write was stored)."""
    if isinstance(err, DatabaseUnavailable):
        return unavailable()
    return ServerError("storage_error", 503)


async def read(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a thread (a blocking read); an outage becomes :func:`unavailable`."""
    try:
        return await asyncio.to_thread(fn, *args)
    except Exception as exc:
        if is_outage(exc):
            raise unavailable() from None
        raise


def _select_one(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


async def probe(engine: Engine) -> bool:
    """Whether the database answers a ``SELECT 1`` within :data:`PROBE_TIMEOUT` seconds."""
    try:
        await asyncio.wait_for(asyncio.to_thread(_select_one, engine), PROBE_TIMEOUT)
    except Exception:
        return False
    return True


def wait_until_reachable(
    engine: Engine,
    shown: str,
    *,
    first: float = START_RETRY_FIRST,
    most: float = START_RETRY_MOST,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """Block until the database answers ``SELECT 1``; the failed attempts before it did.

    ``alea serve`` calls this before it serves: a process started while PostgreSQL is
    down (booting hosts, a failover) waits for it, saying so at every attempt, instead
    of exiting. It does not listen meanwhile, so a load balancer sends nobody to it.
    Attempts are ``first`` seconds apart, doubling up to ``most``. Any failure other
    than the database being out of reach (a wrong schema, a bug) is raised at once.
    """
    delay = first
    failed = 0
    while True:
        try:
            _select_one(engine)
        except Exception as exc:
            if not is_outage(exc):
                raise
            failed += 1
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
            log.warning(
                "the database %s does not answer (%s); not serving yet, trying again in %.1f s",
                shown,
                reason,
                delay,
            )
            sleep(delay)
            delay = min(2 * delay, most)
            continue
        if failed:
            log.warning("the database %s answers after %d failed attempts", shown, failed)
        return failed
