"""Who is at a table across processes, and e-mail sent once, for the notifier.

Why: the "your turn" and "game over" mails (:mod:`alea.server.notify`) go to a seat
whose owner is not looking at the table, and each process that follows a game hears
the moments that send them. With several processes that was wrong twice over: a
process counted only its own sockets, so it mailed a player who was at the table
through another process; and every process following the game mailed, so a player
away from all of them got the mail once per process.

:class:`ClusterPresence` keeps, in Redis:

* ``{prefix}:present:{game}``: a set of ``"{seat}|{process}"``, one member for each
  seat a process has a live socket for. A process rewrites its members when its
  sockets for the game change (:meth:`seen`, a diff against what it last wrote), not
  per move.
* ``{prefix}:alive:{process}``: a key each process renews at every cluster sweep,
  expiring after ``ttl`` seconds. A member whose process's key is gone (it died, or
  Redis restarted) does not count, and the reader removes it. When Redis comes back
  empty, the next renewal finds its key missing and writes every member again.
* ``{prefix}:mailed:{what}``: set once (``SET NX``) by the process that sends a mail;
  any other process that would send the same one finds it taken.

If Redis cannot be reached the notifier mails as one process would (a duplicate is
possible then, never a lost mail).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger("alea.server.cluster")

#: How long a claim to have sent a mail is kept (a turn-based game's turn lasts days).
MAILED_KEPT = 14 * 24 * 3600
#: How long a game's presence set outlives its last write (a game nobody opens again).
PRESENT_KEPT = 2 * 24 * 3600


class ClusterPresence:
    """This process's sockets per seat, told to Redis; the others', read from it."""

    def __init__(self, redis: Any, prefix: str, name: str, ttl: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.name = name
        self.ttl_ms = max(100, int(ttl * 1000))
        #: Game id -> the seats this process last wrote as live there.
        self.reported: dict[str, frozenset[int]] = {}
        #: Game id -> the seats live here now (what :meth:`seen` was last told).
        self.live: dict[str, frozenset[int]] = {}
        #: Games whose members differ from what was written, and the one task writing them.
        self._dirty: set[str] = set()
        self._flushing: asyncio.Task[None] | None = None

    def key(self, game_id: str) -> str:
        return f"{self.prefix}:present:{game_id}"

    def alive_key(self, name: str) -> str:
        return f"{self.prefix}:alive:{name}"

    # ---------------------------------------------------------------- writing

    def seen(self, game_id: str, live: frozenset[int]) -> None:
        """The seats with a live socket here for ``game_id`` are now ``live``: write the
        difference to Redis in the background (sockets opening and closing, not moves;
        the changes of a burst of openings go together in one round trip)."""
        if live:
            self.live[game_id] = live
        else:
            self.live.pop(game_id, None)
        if self.reported.get(game_id, frozenset()) != live:
            self._dirty.add(game_id)
            self._flush_soon()

    def _flush_soon(self) -> None:
        """Start the writer unless it is running (it writes until nothing is due)."""
        if self._flushing is not None and not self._flushing.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a test's synchronous call): nothing to tell
            return
        self._flushing = loop.create_task(self._flush())

    async def _flush(self) -> None:
        """Write the members of every game :meth:`seen` marked, until none is left."""
        while self._dirty:
            ids, self._dirty = self._dirty, set()
            wrote: dict[str, frozenset[int]] = {}
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for game_id in ids:
                        live = self.live.get(game_id, frozenset())
                        before = self.reported.get(game_id, frozenset())
                        key = self.key(game_id)
                        gone = [f"{seat}|{self.name}" for seat in before - live]
                        new = [f"{seat}|{self.name}" for seat in live - before]
                        if gone:
                            pipe.srem(key, *gone)
                        if new:
                            pipe.sadd(key, *new)
                            pipe.expire(key, PRESENT_KEPT)
                        wrote[game_id] = live
                    await pipe.execute()
            except Exception as err:  # Redis away: told again at the next renewal
                log.warning("presence at %d tables not told: %s", len(ids), err)
                self._dirty.update(ids)
                return
            for game_id, live in wrote.items():
                if live:
                    self.reported[game_id] = live
                else:
                    self.reported.pop(game_id, None)

    async def renew(self) -> None:
        """Say this process is alive (the cluster's sweep); if Redis lost the word (it
        restarted, or the process stalled past ``ttl``), write every member again. Never
        raises: the sweep's other work goes on while Redis is away."""
        key = self.alive_key(self.name)
        try:
            if not await self.redis.set(key, "1", px=self.ttl_ms, xx=True):
                await self.redis.set(key, "1", px=self.ttl_ms)
                self.reported.clear()  # Redis kept nothing: every member is due
                self._dirty.update(self.live)
        except Exception as err:
            log.warning("presence not renewed: %s", err)
            return
        if self._dirty:  # and what a failed write left
            self._flush_soon()
            if self._flushing is not None:
                await self._flushing

    async def stop(self) -> None:
        """Leaving the service: this process's members stop counting at once."""
        if self._flushing is not None:
            self._flushing.cancel()
        try:
            await self.redis.delete(self.alive_key(self.name))
        except Exception as err:
            log.warning("presence not withdrawn (it expires by itself): %s", err)

    # ---------------------------------------------------------------- reading

    async def present_elsewhere(self, game_id: str, seat: int) -> bool:
        """Whether another live process has a socket for ``seat`` of ``game_id``."""
        key = self.key(game_id)
        members = await self.redis.smembers(key)
        names: list[str] = []
        for member in members:
            text = member.decode() if isinstance(member, bytes) else str(member)
            said, _, name = text.partition("|")
            if said == str(seat) and name != self.name:
                names.append(name)
        if not names:
            return False
        alive = await self.redis.mget([self.alive_key(name) for name in names])
        dead = [f"{seat}|{name}" for name, word in zip(names, alive, strict=True) if word is None]
        if dead:
            await self.redis.srem(key, *dead)
        return any(word is not None for word in alive)

    async def claim(self, what: str) -> bool:
        """Take the right to send the mail ``what`` names; False if a process took it."""
        taken = await self.redis.set(
            f"{self.prefix}:mailed:{what}", self.name, nx=True, ex=MAILED_KEPT
        )
        return bool(taken)
