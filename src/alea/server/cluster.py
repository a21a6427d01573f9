"""Several ``alea serve`` processes, one service: PostgreSQL for the log, Redis between them.

The design (docs/deploy.md tells it in full):

* **Apply anywhere, one order.** Any process accepts any request and any
  WebSocket for any game. A move is validated against the process's copy of the
  game and stored through the one commit path, whose version guard
  (``UPDATE games ... WHERE version =``) locks the game's row: of two moves at
  two processes at the same version one is stored, the other finds the version
  moved, stores nothing, and its process catches up from the log and tells its
  client the truth (``stale_version`` with the new state). Seat changes carry a
  row lock and a check of what memory saw (:mod:`alea.server.writelock`) and
  are decided again on the caught-up game.
* **Catch up by version.** A copy that is behind reads only the events from its
  own version on (:mod:`alea.server.catchup`): when the fan-out says a game
  changed, when a write met the guard, when a client quotes a version it has not
  seen, whenever a game is looked up, and in the sweep below.
* **Fan-out** through Redis pub/sub (:mod:`alea.server.fanout`): game ids only,
  never game data, so Redis holds nothing that could be lost. Chat lines ride
  the same channel once stored, so every process's readers hear them
  (:meth:`alea.server.chat.Chats.heard`).
* **Leases** in Redis (:mod:`alea.server.leases`) for the work nobody asks for:
  bots' moves and the time limit's ``last-round`` are done by the process
  holding the game's lease; an idle takeover is asked for by a player and is
  guarded like every seat change.
* **Open games nobody joins** expire exactly once, at whichever process sweeps
  first (:mod:`alea.server.retention`); which open games are watched is shared
  in Redis (:meth:`Cluster.watched_open`) and the ids expired are announced.
* **The sweep**, every ``Settings.cluster_sweep`` seconds: renew this process's
  leases; take the lease of every active game with bots or a time limit whose
  lease nobody holds (its holder died, or Redis restarted) and drive it here;
  compare the stored versions of the games in memory with memory, in case a
  fan-out message was lost.

Without ``Settings.redis_url`` none of this exists and one process serves as
before, SQLite or PostgreSQL. SQLite is refused here: it is a file of one host.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from typing import Any, Protocol

from sqlalchemy import Engine, exists, or_, select, text

from alea.server import catchup
from alea.server.chat import Chats
from alea.server.config import Settings
from alea.server.core import Core
from alea.server.fanout import Fanout
from alea.server.leases import Leases
from alea.server.outage import DatabaseOutage
from alea.server.presence import ClusterPresence
from alea.server.retention import Retention
from alea.server.room import ACTIVE, BOT, FINISHED, OPEN, OVER, Game
from alea.server.seats import Seating
from alea.server.tables import game_clocks_table, games_table, migrate, seats_table

log = logging.getLogger("alea.server.cluster")

#: The PostgreSQL advisory lock taken while migrating, so that processes starting
#: together upgrade the schema one at a time.
MIGRATION_LOCK = 0x616C6561  # "alea"
#: Games whose lease a sweep takes at most (the rest wait for the next sweep).
TAKE_PER_SWEEP = 200
#: Every this many sweeps, the stored versions of the games in memory are compared.
DRIFT_EVERY = 3
#: Announcements kept for a game nobody here watches before the log is read instead.
KEEP_HEARD = 256


class TurnCounts(Protocol):
    """What the health check reads of :class:`alea.server.turns.TurnClocks`."""

    timeouts: int
    abandoned: int


class GameServer(Protocol):
    """What the cluster needs of :class:`alea.server.service.GameServer` (which makes it)."""

    settings: Settings
    core: Core
    seats: Seating
    chats: Chats
    retention: Retention

    @property
    def turns(self) -> TurnCounts: ...

    async def get(self, game_id: str) -> Game: ...


class ClusterRefused(ValueError):
    """Several processes were asked for where they cannot share the database."""


def check_database(url: str, redis_url: str | None) -> None:
    """Refuse Redis (more than one process) on SQLite, with a message saying why."""
    if redis_url and url.startswith("sqlite"):
        raise ClusterRefused(
            "several processes (--redis-url) need a database they can all reach: use "
            "PostgreSQL (--database-url postgresql+psycopg://...). SQLite serves one process."
        )


def process_name() -> str:
    """A name for this process unique across hosts and restarts (leases and fan-out)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def migrate_locked(engine: Engine) -> None:
    """Run the migrations while holding a PostgreSQL advisory lock (blocking)."""
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        try:
            migrate(engine)
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            conn.commit()


def driven_games(engine: Engine) -> list[str]:
    """Active games with timed work (a bot seat, a time limit or a time control's turn
    clock), from the database."""
    has_bot = exists().where(seats_table.c.game_id == games_table.c.id, seats_table.c.kind == BOT)
    has_clock = exists().where(game_clocks_table.c.game_id == games_table.c.id)
    with engine.connect() as conn:
        rows = conn.execute(
            select(games_table.c.id).where(
                games_table.c.status == ACTIVE,
                or_(games_table.c.deadline.is_not(None), has_bot, has_clock),
            )
        ).all()
    return [str(r[0]) for r in rows]


def stored_versions(engine: Engine, ids: list[str]) -> dict[str, tuple[int, str]]:
    """The stored ``(version, status)`` of the games ``ids``."""
    found: dict[str, tuple[int, str]] = {}
    with engine.connect() as conn:
        for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
            rows = conn.execute(
                select(games_table.c.id, games_table.c.version, games_table.c.status).where(
                    games_table.c.id.in_(chunk)
                )
            ).all()
            found.update({str(r[0]): (int(r[1]), str(r[2])) for r in rows})
    return found


def public_games(engine: Engine, status: str | None, limit: int) -> list[str]:
    """The newest public open and active games (or of one ``status``), from the database:
    the lobby of every process is the same one."""
    wanted = [status] if status else [OPEN, ACTIVE]
    with engine.connect() as conn:
        rows = conn.execute(
            select(games_table.c.id)
            .where(games_table.c.status.in_(wanted), games_table.c.public.is_(True))
            .order_by(games_table.c.created_at.desc())
            .limit(limit)
        ).all()
    return [str(r[0]) for r in rows]


class Cluster:
    """This process's part in a service of several: fan-out, leases and the sweep."""

    def __init__(self, server: GameServer, redis_url: str, prefix: str) -> None:
        from redis import asyncio as aioredis

        settings = server.settings
        self.server = server
        self.core = server.core
        self.name = process_name()
        self.prefix = prefix
        self.redis: Any = aioredis.from_url(
            redis_url, socket_timeout=5.0, socket_connect_timeout=5.0, health_check_interval=10
        )
        self.leases = Leases(self.redis, prefix, self.name, settings.lease_ttl)
        #: Which seats have sockets at which process (the notifier's mail, once).
        self.presence = ClusterPresence(self.redis, prefix, self.name, settings.lease_ttl)
        self.fanout = Fanout(
            self.redis, f"{prefix}:games", self.name, self._heard, self._catch_up_all
        )
        self.sweep_every = settings.cluster_sweep
        self.unwatched_ttl = settings.unwatched_ttl
        #: Game id -> whether another catch-up is wanted after the one under way.
        self._catching: dict[str, bool] = {}
        #: Game id -> the turn clock last announced for it (timed tables), not yet taken.
        self._clocks: dict[str, dict[str, Any]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        #: Catch-ups that changed a game, and games taken over from another process.
        self.caught_up = 0
        self.appended = 0
        self.taken = 0
        #: Announced changes not applied here (nobody here watched the game): marked behind.
        self.skipped = 0
        #: Copies dropped from memory because they were behind and nobody here needed them.
        self.dropped = 0
        core = server.core
        core.shared = True
        core.announcers.append(self._announce)
        core.may_drive = self.leases.acquire
        server.seats.lease = self.leases.acquire
        server.seats.holds = self.leases.holds
        server.chats.announce = self.fanout.announce_chat
        self.fanout.chat_heard = self._chat_heard
        server.retention.watched_anywhere = self.watched_open
        server.retention.announce_expired = self.fanout.announce_expired
        self.fanout.expired_heard = server.retention.forget
        #: Seconds a process's word that it watches an open game holds (it says it again
        #: at each of its retention sweeps; a process that died stops saying it).
        self.watch_holds = 3 * settings.retention_poll + 5.0

    # ------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Subscribe to the fan-out (waiting up to 10 s for Redis), start the sweep."""
        self.fanout.start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.fanout.subscribed.wait(), 10.0)
        if not self.fanout.subscribed.is_set():
            log.warning("Redis is not answering yet: serving, and subscribing when it does")
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(), name="alea-sweep")
        log.info("process %s joined the service (prefix %r)", self.name, self.prefix)

    async def stop(self) -> None:
        """Stop the sweep and the fan-out, give the leases up so others take over now."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.leases.release_all()
        await self.presence.stop()
        await self.fanout.stop()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def status(self) -> dict[str, Any]:
        """What the health check tells of this process's part."""
        return {
            "process": self.name,
            "leases": len(self.leases.held),
            "subscribed": self.fanout.subscribed.is_set(),
            "announced": self.fanout.sent,
            "heard": self.fanout.received,
            "caught_up": self.caught_up,
            "appended": self.appended,
            "skipped": self.skipped,
            "dropped": self.dropped,
            "taken_over": self.taken,
            "bot_moves": self.server.seats.bot_moves,
            "bot_stale": self.server.seats.bot_stale,
            "timeouts": self.server.turns.timeouts,
            "abandoned": self.server.turns.abandoned,
            "open_expired": self.server.retention.expired,
        }

    # ---------------------------------------------------------------- fan-out

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _announce(self, game: Game, start: int | None) -> None:
        if start is not None and game.version > start:
            events = [str(e) for e in game.state.history[start:]]
            self.fanout.announce(
                game.id, start, events, list(game.actors[start:]), catchup.clock_state(game)
            )
        else:
            self.fanout.announce(game.id, clock=catchup.clock_state(game))
        if game.status in OVER and self.leases.holds(game.id):
            self._spawn(self.leases.release(game.id))

    def _heard(
        self,
        game_id: str,
        start: int | None = None,
        events: list[str] | None = None,
        actors: list[int | None] | None = None,
        clock: dict[str, Any] | None = None,
    ) -> None:
        """Another process changed ``game_id``: catch it up if it is in memory here and
        someone here needs it now (a socket watches it, or this process holds its lease
        and so drives its timed work); else keep the announcement on the game, marked
        :attr:`~Game.behind`, unapplied.

        Why not follow every game in memory: every process loads every active game at
        start, and the HTTP requests of a game's players reach any process, so each
        process held most games and applied (and checked) every move made anywhere,
        while nginx sends all of a game's sockets to one process. A copy nobody here
        watches is caught up when it is next wanted: a lookup (:meth:`Core.get` reads the
        log anyway), a socket that attaches (:meth:`follow`: from the announcements kept,
        which need no database), the lease taken over (:meth:`_take_orphans` looks the
        game up). Left unwanted, it is dropped from memory (:meth:`_drop_behind`).
        """
        game = self.core.games.get(game_id)
        if game is None:
            return
        if (
            not game.connections
            and game_id not in self._catching
            and not self.leases.holds(game_id)
        ):
            if not game.heard:
                game.behind_since = self.core.clock.now()
            if start is not None and events and actors is not None:
                game.heard.append((start, events, actors))
            else:
                game.heard.append(None)  # "changed", no more: the log will be read
            if len(game.heard) > KEEP_HEARD:
                game.heard.clear()
                game.heard.append(None)  # too many to keep: the log will be read
            if clock is not None:
                self._clocks[game_id] = clock
            self.skipped += 1
            return
        if clock is not None:  # the newest clock heard, for the catch-up (one under way too)
            self._clocks[game_id] = clock
        if game_id in self._catching:
            self._catching[game_id] = True
            return
        self._catching[game_id] = False
        self._spawn(self._catch_up(game_id, start, events, actors))

    async def _catch_up(
        self,
        game_id: str,
        start: int | None = None,
        events: list[str] | None = None,
        actors: list[int | None] | None = None,
        *,
        kept: bool = False,
    ) -> None:
        """Bring ``game_id`` up to date: from the announced ``events``, or (``kept``) from
        those kept while nobody here watched it (:meth:`_heard`), reading the log when
        they do not continue memory or more was announced meanwhile."""
        try:
            game = self.core.games.get(game_id)
            if game is not None and kept:
                if await self._append_kept(game) and not self._catching.get(game_id):
                    return
                self._catching[game_id] = False
            elif game is not None and start is not None and events and actors is not None:
                if await self._append(game, start, events, actors) and not self._catching.get(
                    game_id
                ):
                    return  # the announcement said it all: no read of the log
                self._catching[game_id] = False
            while True:
                game = self.core.games.get(game_id)
                if game is None:
                    return
                async with game.lock:
                    clock = self._clocks.pop(game_id, None)
                    if await catchup.catch_up(self.core, game, clock):
                        self.caught_up += 1
                if not self._catching.get(game_id):
                    return
                self._catching[game_id] = False
        except DatabaseOutage:
            log.info("game %s: not caught up from the log yet (database out of reach)", game_id)
        except Exception:
            log.exception("game %s: catching up failed (the sweep tries again)", game_id)
        finally:
            self._catching.pop(game_id, None)
            self._clocks.pop(game_id, None)

    async def _append_kept(self, game: Game) -> bool:
        """Apply the announcements kept for ``game`` while nobody here watched it; False if
        the log must be read (one said only "changed", or they do not continue memory):
        the game is then left behind, to be read."""
        async with game.lock:
            kept = list(game.heard)
            game.heard.clear()
        for item in kept:
            if item is None or not await self._append(game, *item):
                game.heard.append(None)  # the log, then
                return False
        return True

    async def _append(
        self, game: Game, start: int, events: list[str], actors: list[int | None]
    ) -> bool:
        """Append announced events to ``game``; False if the log must be read instead."""
        async with game.lock:
            clock = self._clocks.get(game.id)
            if game.version >= start + len(events):
                # Already known (caught up another way): only the mover's clock may be news.
                if catchup.take_clock(game, clock):
                    self.core.notify(game, announce=False)
                return True
            if not catchup.apply_heard(game, start, events, actors, self.core.clock.now()):
                return False
            self._clocks.pop(game.id, None)
            catchup.take_clock(game, clock)  # before the followers look at the turn
            self.appended += 1
            if game.status == FINISHED:
                self.core.remember_finished(game.id)
            self.core.notify(game, announce=False)
            return True

    def current(self, game: Game) -> Game:
        """The copy of ``game`` a socket that looked it up a moment ago should attach to:
        the one in memory now (the sweep may have dropped the copy it was given, and a
        lookup loaded another), else ``game`` itself, put back; then :meth:`follow`."""
        found = self.core.games.get(game.id)
        if found is None:
            found = self.core.games[game.id] = game
            # Dropped: what was announced since went unheard here; the log says it.
            game.heard.append(None)
            self.core.track_deadline(game)
        return found

    async def follow(self, game: Game) -> None:
        """Before a socket attaches to ``game`` (its first update is built after this): if
        changes were announced that this copy did not apply (nobody here watched it),
        apply the announcements kept, which needs no database; if they do not say it all,
        the log is read once the socket is attached (:meth:`follow_later`)."""
        if game.behind and game.id not in self._catching:
            await self._append_kept(game)

    def follow_later(self, game: Game) -> None:
        """Once a socket is attached to ``game``: catch up what :meth:`follow` could not
        (from the log), and what was announced meanwhile, in the background."""
        if game.behind and game.id not in self._catching:
            self._catching[game.id] = False
            self._spawn(self._catch_up(game.id, kept=True))

    def _chat_heard(self, game_id: str, line: Any) -> None:
        """Another process stored a chat line: pass it on if the game is in memory here.

        A game not in memory has no readers here, and its lines are read from the
        database when it is next loaded.
        """
        game = self.core.games.get(game_id)
        if game is None:
            return
        try:
            self.server.chats.heard(game, line)
        except Exception:
            log.exception("game %s: a heard chat line was not passed on", game_id)

    def _catch_up_all(self) -> None:
        """Subscribed (again): messages may have been missed, so catch every game up."""
        for game_id, game in list(self.core.games.items()):
            if game.status != FINISHED:
                self._heard(game_id)

    async def watched_open(self, mine: list[str], now: float) -> set[str]:
        """Every open game a socket watches at any process: say which are watched here
        (``mine``), forget what no process said lately, and read the rest (Redis).

        Raises if Redis cannot be reached: the caller then expires nothing.
        """
        key = f"{self.prefix}:watched-open"
        async with self.redis.pipeline(transaction=False) as pipe:
            if mine:
                pipe.zadd(key, dict.fromkeys(mine, now))
            pipe.zremrangebyscore(key, "-inf", now - self.watch_holds)
            pipe.zrange(key, 0, -1)
            answers = await pipe.execute()
        found = {m.decode() if isinstance(m, bytes) else str(m) for m in answers[-1]}
        return found | set(mine)

    # ------------------------------------------------------------------ sweep

    async def _sweep(self) -> None:
        rounds = 0
        while True:
            await asyncio.sleep(self.sweep_every)
            rounds += 1
            try:
                await self.leases.renew()
                await self.presence.renew()
                await self._take_orphans()
                if rounds % DRIFT_EVERY == 0:
                    await self._check_drift()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("cluster sweep failed (%s); again shortly", err)

    async def _take_orphans(self) -> None:
        """Drive every active game with timed work whose lease nobody holds."""
        engine = self.core.store.engine
        ids = await asyncio.to_thread(driven_games, engine)
        free = await self.leases.free([g for g in ids if not self.leases.holds(g)])
        for game_id in free[:TAKE_PER_SWEEP]:
            if not await self.leases.acquire(game_id):
                continue
            try:
                game = await self.server.get(game_id)
            except Exception as err:
                log.warning("game %s not taken over: %s", game_id, err)
                await self.leases.release(game_id)
                continue
            self.taken += 1
            self.core.track_deadline(game)
            self.server.seats.schedule_bots(game)
        for game_id in list(self.leases.held):
            held = self.core.games.get(game_id)
            if held is None or held.status in OVER:  # an abandoned table has no more work
                await self.leases.release(game_id)

    def _drop_behind(self) -> None:
        """Drop from memory the games left :attr:`~Game.behind` for
        ``Settings.unwatched_ttl`` seconds that nobody here watches or drives: each is read
        from the log again when next wanted, while kept it would show an old position (in
        the lobby, say) and never leave memory. (Until then, a socket that comes here
        while the database restarts is still shown the game as it stands, from the
        announcements kept.)"""
        now = self.core.clock.now()
        for game in list(self.core.games.values()):
            if (
                game.behind
                and now - game.behind_since >= self.unwatched_ttl
                and not game.connections
                and not game.lock.locked()
                and game.id not in self._catching
                and not self.leases.holds(game.id)
            ):
                del self.core.games[game.id]
                self.core.deadlines.forget(game.id)
                self._clocks.pop(game.id, None)
                self.dropped += 1

    async def _check_drift(self) -> None:
        """Drop the copies nobody here needs that fell behind; catch up every other game
        in memory whose stored version or status moved unheard."""
        self._drop_behind()
        mine = {g.id: g for g in self.core.games.values() if g.status != FINISHED}
        if not mine:
            return
        stored = await asyncio.to_thread(stored_versions, self.core.store.engine, list(mine))
        for game_id, (version, status) in stored.items():
            known = mine[game_id]
            # A copy nobody here watches lags by design: drift is only what the
            # announcements it kept do not reach (else its next socket would need the log).
            if version != known.heard_version or status != known.status:
                self._heard(game_id)
