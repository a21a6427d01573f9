"""Admission of WebSocket openings: a burst is queued and bounded, never left to time out.

Why: when every player of a thousand games connects in the same second (a restart,
a network blip, the start of a tournament round), each new socket costs the event
loop its opening work: the game's lookup (with several processes, a read of the
stored log, :func:`alea.server.catchup.catch_up`), the hello, the first view. Done
all at once, that work interleaves with the still-pending handshakes of the sockets
behind it, so the last ones wait for all of it: measured, 436 of 4,000 clients
timed out in the opening handshake. With this gate the handshake itself (cheap) is
answered at once, only ``at_once`` sockets do their opening work at a time, and the
others wait their turn with their socket open. Past ``waiting`` sockets in line,
more would only wait longer than a client's patience: those get a clear answer, the
``busy`` error with ``retry_after`` and close code 1013 ("try again later"), and
the browser client comes back after that time.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator

from alea.server.errors import ServerError


class Admission:
    """At most ``at_once`` sockets doing their opening work, ``waiting`` in line for at
    most ``wait`` seconds each."""

    def __init__(self, at_once: int, waiting: int, wait: float) -> None:
        self._slots = asyncio.Semaphore(max(1, at_once))
        self._waiting = 0
        self.max_waiting = waiting
        self.wait = wait
        #: Openings refused as busy since start (``/api/health``).
        self.refused = 0
        #: The longest line seen since start.
        self.longest = 0

    @contextlib.asynccontextmanager
    async def opening(self) -> AsyncIterator[None]:
        """Hold a slot for one socket's opening work; ``busy`` (503) if the line is full
        or the slot does not come within ``wait`` seconds.

        ``retry_after`` is spread over 1-4 s so that refused clients do not all come
        back in the same second as the burst they were part of.
        """
        if self._waiting >= self.max_waiting:
            raise self._busy()
        self._waiting += 1
        self.longest = max(self.longest, self._waiting)
        try:
            async with asyncio.timeout(self.wait):
                await self._slots.acquire()
        except TimeoutError:
            raise self._busy() from None
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            self._slots.release()

    def _busy(self) -> ServerError:
        self.refused += 1
        retry = random.randint(1, 4)
        err = ServerError("busy", 503, retry_after=retry)
        err.headers["Retry-After"] = str(retry)
        return err

    def health(self) -> dict[str, int]:
        """What ``/api/health`` says of admission."""
        return {"waiting": self._waiting, "longest": self.longest, "refused": self.refused}
