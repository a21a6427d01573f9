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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

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
        watched = [g.id for g in games.values() if g.status == OPEN and g.connections]
        expired: list[str] = []
        try:
            expired = await self.core.store.write(op_expire_open(now - self.ttl, watched))
        except StorageError as err:  # try again at the next sweep
            log.warning("open games not expired yet: %s", err)
        for game_id in expired:
            games.pop(game_id, None)
            self._touched.pop(game_id, None)
        if expired:
            log.info("%d open games expired (nobody joined for %.0f s)", len(expired), self.ttl)
        for game in list(games.values()):
            if not self._idle_open(game):
                continue
            if now - self._touched.get(game.id, game.updated_at) > self.idle:
                del games[game.id]
                self._touched.pop(game.id, None)
        for game_id in [i for i in self._touched if i not in games]:
            del self._touched[game_id]

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
