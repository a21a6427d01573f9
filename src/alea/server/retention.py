"""Which games stay in memory, and open games nobody joins expiring.

Every game used to live in memory from its creation (and from every restart)
until it finished, open ones included: one client's 5,000 open games stayed
resident (~14 KB each) and were all rebuilt at each start. Now:

* **only games being played are loaded at start** (``status = active``); an
  open game stays on disk until someone touches it (its page, the lobby, a
  claim), and is then loaded on demand like a finished one;
* **an open game nobody touches is dropped from memory** after
  ``Settings.open_game_memory`` seconds (5 minutes) unless a socket watches it;
  it is still on disk, and the next touch loads it again;
* **an open game whose seats nobody claims expires**: ``Settings.open_game_ttl``
  seconds (24 hours) after its last change (its creation or the last claim) it
  is deleted, seats, events and all, unless a socket is watching it. Its link
  then answers ``no_such_game``.

One task (started and stopped with the server) looks every
``Settings.retention_poll`` seconds, against the server's one clock.

Several processes (docs/deploy.md): every process sweeps, and each open game
expires exactly once. The deletion locks the rows it picks (``FOR UPDATE SKIP
LOCKED``, :func:`alea.server.writes.op_expire_open`), so two processes sweeping
at once never both delete a game, and a claim committed at another process is
seen. A process expires open games it never loaded (it asks the database, not
its memory). Which games are watched is shared through Redis
(:meth:`alea.server.cluster.Cluster.watched_open`): a socket at any process
keeps its game; if Redis cannot say, nothing expires until it can. The ids
expired are announced, and the other processes drop their copies from memory,
so no process keeps serving a deleted game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from alea.server.clock import Clock
from alea.server.core import Core
from alea.server.room import OPEN, Game
from alea.server.tables import StorageError
from alea.server.writes import op_expire_open

log = logging.getLogger("alea.server")


class Retention:
    """Evicts idle open games from memory and deletes the expired ones."""

    def __init__(self, core: Core, clock: Clock, *, ttl: float, idle: float, poll: float) -> None:
        self.core = core
        self.clock = clock
        self.ttl = ttl
        self.idle = idle
        self.poll = poll
        #: When each open game in memory was last asked for (the server's clock).
        self._touched: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None
        #: Every open game watched at any process, given those watched here and now (set
        #: by the cluster; None: this process is the only one).
        self.watched_anywhere: Callable[[list[str], float], Awaitable[set[str]]] | None = None
        #: Tells the other processes which games expired here (set by the cluster).
        self.announce_expired: Callable[[list[str]], None] | None = None
        #: Open games this process deleted as expired, since start (``/api/health``).
        self.expired = 0

    def touch(self, game: Game) -> None:
        """``game`` was just asked for: keep it in memory a while longer."""
        if game.status == OPEN:
            self._touched[game.id] = self.clock.now()
        else:
            self._touched.pop(game.id, None)

    def _idle_open(self, game: Game) -> bool:
        """Whether ``game`` is open, unwatched and not being changed right now."""
        return game.status == OPEN and not game.connections and not game.lock.locked()

    async def sweep(self) -> None:
        """Delete expired open games, then drop idle open games from memory."""
        now = self.clock.now()
        games = self.core.games
        expired = await self._expire(now)
        self.forget(expired)
        if expired:
            self.expired += len(expired)
            log.info("%d open games expired (nobody joined for %.0f s)", len(expired), self.ttl)
            if self.announce_expired is not None:
                self.announce_expired(expired)
        for game in list(games.values()):
            if not self._idle_open(game):
                continue
            if now - self._touched.get(game.id, game.updated_at) > self.idle:
                del games[game.id]
                self._touched.pop(game.id, None)
        for game_id in [i for i in self._touched if i not in games]:
            del self._touched[game_id]

    async def _expire(self, now: float) -> list[str]:
        """Delete the open games past their time that nobody watches; their ids."""
        watched = [g.id for g in self.core.games.values() if g.status == OPEN and g.connections]
        keep = set(watched)
        if self.watched_anywhere is not None:
            try:
                keep = await self.watched_anywhere(watched, now)
            except Exception as err:  # which are watched elsewhere is unknown: expire none
                log.warning("open games not expired yet (watchers unknown: %s)", err)
                return []
        try:
            expired: list[str] = await self.core.store.write(
                op_expire_open(now - self.ttl, sorted(keep))
            )
        except StorageError as err:  # try again at the next sweep
            log.warning("open games not expired yet: %s", err)
            return []
        return expired

    def forget(self, expired: list[str]) -> None:
        """Drop the expired games ``expired`` from memory (deleted here or elsewhere).

        Only open ones: an id is never reused, and a game that is no longer open was
        not expired (a stale announcement must not drop a game being played).
        """
        for game_id in expired:
            game = self.core.games.get(game_id)
            if game is not None and game.status == OPEN:
                del self.core.games[game_id]
            self._touched.pop(game_id, None)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # never let housekeeping take the server down
                log.exception("retention sweep failed")

    def start(self) -> None:
        """Start sweeping (the server is serving)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="retention")

    async def stop(self) -> None:
        """Stop sweeping (the server is stopping)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
