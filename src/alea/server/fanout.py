"""Fan-out: every process hears of every change of a game, through Redis pub/sub.

A change committed by one process is announced on the channel
``{prefix}:games`` as JSON: the process, the game id and, for appended events,
the index of the first and the events with their actors, exactly as stored.
Each process subscribed to it that has the game in memory appends those events
(the engine checks them) if they continue its copy, and otherwise catches the
game up from the stored log (:mod:`alea.server.catchup`); a change of seats
always reads the log. Its connections then get their updates as for a change of
their own. The log stays the one source of truth: a message lost, late or out
of order costs only time (and a read). Announcements are queued and sent by one
task, pipelined, so committing never waits for Redis. The events include hidden
chance outcomes, as the database does: Redis is as private as PostgreSQL.

A process that may have missed messages (its subscription dropped: Redis
restarted, a network blip) catches up every game in memory as soon as it is
subscribed again, and the cluster's sweep compares stored versions with memory
every few seconds besides (:mod:`alea.server.cluster`).

A chat line stored by one process travels on the same channel, as the game id
and the line's JSON under ``c`` (no ``s``/``e``: it is not a change of the
game), so the other processes' readers hear it (:meth:`alea.server.chat.Chats.heard`).
Open games expired by one process travel as their ids under ``x`` (``g`` is ``*``),
so that the others drop their copies (:meth:`alea.server.retention.Retention.forget`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

#: What a process heard: the game id, and the appended events' first index, events and
#: actors (None, None, None: read the log), and the turn clock of a timed table as the
#: announcing process set it (:func:`alea.server.catchup.clock_state`; None: none).
Heard = Callable[
    [str, int | None, list[str] | None, list[int | None] | None, dict[str, Any] | None], None
]
#: A chat line heard from another process: the game id and the line's JSON.
ChatHeard = Callable[[str, Any], None]
#: Open games another process expired (deleted): their ids.
ExpiredHeard = Callable[[list[str]], None]

log = logging.getLogger("alea.server.cluster")

#: Most announcements sent in one pipeline.
BATCH = 256


class Fanout:
    """Announce this process's changes; hear the other processes'."""

    def __init__(
        self,
        redis: Any,
        channel: str,
        origin: str,
        heard: Heard,
        resubscribed: Callable[[], None],
    ) -> None:
        self.redis = redis
        self.channel = channel
        self.origin = origin
        self.heard = heard
        self.resubscribed = resubscribed
        #: Called for a chat line another process stored (None: chat lines are ignored).
        self.chat_heard: ChatHeard | None = None
        #: Called with the open games another process expired (None: ignored).
        self.expired_heard: ExpiredHeard | None = None
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        #: Announcements sent and heard (for tests and the health check).
        self.sent = 0
        self.received = 0
        self.subscribed = asyncio.Event()

    def announce(
        self,
        game_id: str,
        start: int | None = None,
        events: list[str] | None = None,
        actors: list[int | None] | None = None,
        clock: dict[str, Any] | None = None,
    ) -> None:
        """Queue the news that ``game_id`` changed here (never blocks)."""
        message: dict[str, Any] = {"o": self.origin, "g": game_id}
        if start is not None and events:
            message.update(s=start, e=events, a=actors)
        if clock is not None:
            message["k"] = clock
        self._queue.put_nowait(message)

    def announce_chat(self, game_id: str, line: dict[str, Any]) -> None:
        """Queue a chat line stored here for ``game_id`` (never blocks)."""
        self._queue.put_nowait({"o": self.origin, "g": game_id, "c": line})

    def announce_expired(self, game_ids: list[str]) -> None:
        """Queue the ids of open games expired (deleted) here (never blocks)."""
        for first in range(0, len(game_ids), BATCH):
            chunk = game_ids[first : first + BATCH]
            self._queue.put_nowait({"o": self.origin, "g": "*", "x": chunk})

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._send(), name="alea-fanout-send"),
            loop.create_task(self._listen(), name="alea-fanout-listen"),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []

    async def _send(self) -> None:
        while True:
            first = await self._queue.get()
            queued = [first]
            while not self._queue.empty() and len(queued) < BATCH:
                queued.append(self._queue.get_nowait())
            messages = [json.dumps(m, separators=(",", ":")) for m in queued]
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for message in messages:
                        pipe.publish(self.channel, message)
                    await pipe.execute()
                self.sent += len(messages)
            except Exception as err:  # the others catch up by their sweep
                log.warning("fan-out of %d changes failed: %s", len(messages), err)
                await asyncio.sleep(0.2)

    async def _listen(self) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                self.subscribed.set()
                self.resubscribed()
                while True:
                    message = await pubsub.get_message(timeout=5.0)
                    if message is None or message.get("type") != "message":
                        continue
                    data = message["data"]
                    text = data.decode() if isinstance(data, bytes) else str(data)
                    try:
                        found = json.loads(text)
                        origin, game_id = found["o"], str(found["g"])
                    except (ValueError, KeyError, TypeError):
                        log.warning("fan-out message not understood: %.80s", text)
                        continue
                    if origin == self.origin:
                        continue
                    self.received += 1
                    if "x" in found:
                        expired = found["x"]
                        if self.expired_heard is not None and isinstance(expired, list):
                            self.expired_heard([str(i) for i in expired])
                    elif "c" in found:
                        if self.chat_heard is not None:
                            self.chat_heard(game_id, found["c"])
                    else:
                        self.heard(
                            game_id, found.get("s"), found.get("e"), found.get("a"), found.get("k")
                        )
            except asyncio.CancelledError:
                raise
            except Exception as err:
                self.subscribed.clear()
                log.warning("fan-out subscription lost (%s); subscribing again", err)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
