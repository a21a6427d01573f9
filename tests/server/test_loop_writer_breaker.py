"""PostgreSQL out of reach (packets dropped, not connections refused): the loop's writer
waits its connect timeout once, not once per batch (a circuit breaker), and takes the
moves again by itself once PostgreSQL answers (issue 15, "Unreachable PostgreSQL").

The unreachable database is a socket that listens and never accepts: the kernel
completes the handshake, and the client then waits for an answer that never comes,
as with a host whose packets are dropped. PostgreSQL only (skips otherwise).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from alea.server import loopwriter
from alea.server.loopwriter import LoopWriter
from alea.server.storage import Store
from alea.server.writes import op_append_events, op_create_game
from tests.server.outage_support import TcpProxy
from tests.server.support import Database
from tests.server.test_storage import record


@contextlib.contextmanager
def black_hole(port: int) -> Iterator[None]:
    """Listen on ``port`` and never accept: connections hang, unanswered."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(64)
    try:
        yield
    finally:
        sock.close()


@pytest.mark.serial  # measures time: runs alone (tests/conftest.py)
def test_an_unreachable_database_delays_the_loop_writer_once(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not db.url.startswith("postgresql"):
        pytest.skip("the loop's connection is PostgreSQL's")
    # A wait of the whole timeout must stand out from a write straight to the thread even on
    # a loaded machine (a write there has taken 0.56 s): twice the largest such write allowed.
    monkeypatch.setattr(loopwriter, "CONNECT_TIMEOUT", 2)
    store = Store(db.url)
    store.migrate()
    real = make_url(db.url)
    proxy = TcpProxy(real.host or "127.0.0.1", real.port or 5432)  # not listening yet
    # The loop's own connection goes through the port that is unreachable for now;
    # the writer thread's reaches the database (it stands for the rest of the store).
    through = real.set(host="127.0.0.1", port=proxy.port)
    writer = LoopWriter(create_engine(through))
    store.loop_writer = writer

    async def timed_write(version: int) -> float:
        began = time.perf_counter()
        await store.write(op_append_events("u", version, [f"u{version}"], [0]))
        return time.perf_counter() - began

    async def run() -> None:
        store.start()
        await store.write(op_create_game(record("u", ["province:red1"]), [None]))
        with black_hole(proxy.port):
            first = await timed_write(1)  # waits the connect timeout, then the thread
            assert 1.8 <= first < 6.0, first
            assert writer.down and writer.failures == 1
            later = [await timed_write(v) for v in (2, 3, 4)]
            # The breaker is open: no more waiting, straight to the thread.
            assert max(later) < 1.0, later
            assert writer.bypassed >= 3 and writer.failures == 1 and writer.commits == 0
        proxy.restore()  # PostgreSQL answers again on that port
        version = 5
        deadline = time.monotonic() + 20
        while writer.down:  # each batch may start a background attempt; none waits for it
            assert time.monotonic() < deadline, "the loop's connection did not come back"
            assert await timed_write(version) < 1.0
            version += 1
            await asyncio.sleep(0.2)
        await timed_write(version)
        assert writer.commits == 1  # the loop commits moves again
        await store.close()

    try:
        asyncio.run(run())
    finally:
        proxy.cut()
    reader = Store(db.url)
    events = [e for _, e, _ in reader.events("u")]
    assert events == ["province:red1", *[f"u{v}" for v in range(1, len(events))]]
    reader.dispose()
