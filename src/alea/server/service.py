"""The game server of one process: its parts put together, started and stopped.

:class:`GameServer` is the one object the HTTP routes and the WebSocket hub
talk to. It owns nothing but the wiring: the games in memory and the commit
path (:attr:`GameServer.core`), seats and bots (:attr:`GameServer.seats`), the
human referee (:attr:`GameServer.referee`), the one clock
(:attr:`GameServer.clock`), and the table talk: chat (:attr:`GameServer.chats`)
and rematches (:attr:`GameServer.rematches`). Creating a game is assembled here because it
touches all of them: the seats asked for, the referee role, the time limit,
then the commit path stores it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from alea.server import auth
from alea.server.admission import Admission
from alea.server.botpool import BotPool
from alea.server.chat import Chats
from alea.server.clock import DEFAULT, Clock, TimeLimit, time_limit_for
from alea.server.cluster import Cluster, check_database, migrate_locked, stored_versions
from alea.server.config import Settings
from alea.server.core import Core
from alea.server.errors import ServerError
from alea.server.games import DEFAULT_GAME, SOFTWARE, hosted
from alea.server.ratelimit import CreationLimits
from alea.server.referee import Refereeing, check_referee, new_referee
from alea.server.rematch import Rematches
from alea.server.retention import Retention
from alea.server.room import PLAYER_ROLE, REFEREE_ROLE, SPECTATOR_ROLE, Game, clean_name
from alea.server.seats import Seating, SeatSpec, check_rated_table, seat_table, sit_creator
from alea.server.state_snapshots import VERIFY_AFTER
from alea.server.storage import Store
from alea.server.tables import StorageError
from alea.server.timecontrol import parse_time_control
from alea.server.turns import TurnClocks

log = logging.getLogger("alea.server")


@dataclass
class Created:
    """A new game, and the creator's seat and token if the creator sat down.

    ``role`` says what the token is for: ``player`` (``seat`` is theirs),
    ``referee`` (the human referee; ``seat`` is None) or ``spectator`` (no token).
    """

    game: Game
    seat: int | None
    token: str | None
    role: str = SPECTATOR_ROLE


class GameServer:
    """Every game of one server process, its store, its clock and its bots."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.clock = Clock(settings.clock, settings.idle_timeout)
        self.core = Core(settings, store, self.clock)
        self.seats = Seating(
            self.core,
            bot_delay=settings.bot_delay,
            takeover_level=settings.takeover_level,
            bot_factory=settings.bot_factory,
            pool=BotPool(settings.bot_processes),
        )
        self.referee = Refereeing(self.core)
        self.retention = Retention(
            self.core,
            self.clock,
            ttl=settings.open_game_ttl,
            idle=settings.open_game_memory,
            poll=settings.retention_poll,
        )
        self.turns = TurnClocks(
            self.core,
            self.seats,
            abandon_after=settings.abandon_after,
            poll=settings.abandon_poll,
            takeover_level=settings.takeover_level,
        )
        # With several processes the limits are counted in Redis, so N allow what one does.
        self.limits = CreationLimits(
            settings.create_rate,
            settings.bot_tables_per_client,
            redis_url=settings.redis_url,
            prefix=settings.redis_prefix,
            statuses=self._stored_statuses,
        )
        self.chats = Chats(
            store,
            self.clock,
            settings.chat_rate,
            redis_url=settings.redis_url,
            prefix=settings.redis_prefix,
        )
        self.rematches = Rematches(
            self.core,
            store.engine,
            timeout=settings.rematch_timeout,
            bot_level=settings.takeover_level,
        )
        check_database(store.url, settings.redis_url)
        #: The gate of WebSocket openings (a burst is queued and bounded, never timed out).
        self.admission = Admission(
            settings.opening_at_once, settings.opening_waiting, settings.opening_wait
        )
        #: This process's part in a service of several (None: it is the only one).
        self.cluster = (
            Cluster(self, settings.redis_url, settings.redis_prefix) if settings.redis_url else None
        )
        #: The verifier's start, scheduled a moment after start-up (cancelled by stop).
        self._verify: asyncio.TimerHandle | None = None

    @property
    def games(self) -> dict[str, Game]:
        """Every game in memory, by id."""
        return self.core.games

    async def get(self, game_id: str) -> Game:
        """The game ``game_id`` (``no_such_game`` if there is none)."""
        game = await self.core.get(game_id)
        self.retention.touch(game)
        return game

    # ------------------------------------------------------------ life cycle

    def migrate(self) -> None:
        """Create or upgrade the schema (blocking); one process at a time when several
        start together."""
        if self.cluster is not None:
            migrate_locked(self.store.engine)
        else:
            self.store.migrate()

    async def start(self) -> None:
        """Start the writer, rebuild every game being played from its log, watch the
        deadlines. Open games are loaded when someone asks for them."""
        self.store.start()
        if self.cluster is not None:
            await self.cluster.start()
        started = time.perf_counter()
        self.core.starting = True
        records = await asyncio.to_thread(self.store.load_active)
        restored = 0
        for record in records:
            try:
                game = self.core.rebuild(record)
            except (ValueError, StorageError, KeyError) as err:
                log.error("game %s cannot be rebuilt from its log: %s", record.id, err)
                continue
            self.games[game.id] = game
            restored += game.snapshot_at > 0
        for game in list(self.games.values()):
            if game.state.is_chance():
                # Never happens with logs this server wrote (chance is committed with the
                # action before it), but a log cut short by hand must not hang the game.
                await self.core.advance_chance(game)
            self.core.notify(game, announce=False)
            # The first start after snapshots existed, or a game far past its last one.
            self.core.save_snapshot(game)
        self.core.deadlines.start()
        self.turns.start()
        self.retention.start()
        self.core.starting = False
        # The games restored from snapshots are checked against their logs once the
        # server serves (a moment after this returns), not while it starts.
        self._verify = asyncio.get_running_loop().call_later(VERIFY_AFTER, self.core.verifier.kick)
        log.info(
            "rebuilt %d unfinished games in %.2f s (%d from snapshots)",
            len(records),
            time.perf_counter() - started,
            restored,
        )

    async def stop(self) -> None:
        """Stop the deadline watcher and the bots, close connections and flush the store."""
        await self.turns.stop()  # no timeout starts a bot turn any more
        await self.seats.stop()  # then nothing starts a bot loop any more
        await self.rematches.stop()
        if self.cluster is not None:
            await self.cluster.stop()  # the leases go now: another process carries on
        await self.limits.close()
        await self.turns.flush()  # the clocks of the last moves reach the store
        await self.retention.stop()
        await self.core.deadlines.stop()  # it finishes a declaration under way, then returns
        if self._verify is not None:
            self._verify.cancel()
        await self.core.stop_snapshots()
        for game in self.games.values():
            for conn in list(game.connections):
                await conn.close(1001)
        await self.store.close()

    async def _stored_statuses(self, ids: list[str]) -> dict[str, str]:
        """The stored status of the games ``ids`` (the limits ask, with several processes)."""
        found = await asyncio.to_thread(stored_versions, self.store.engine, ids)
        return {game_id: status for game_id, (_, status) in found.items()}

    # -------------------------------------------------------------- creation

    async def create(
        self,
        specs: list[SeatSpec],
        *,
        public: bool = True,
        title: str = "",
        claim: int | None = None,
        name: str = "",
        game_name: str = DEFAULT_GAME,
        time_limit: TimeLimit = DEFAULT,
        referee: str = SOFTWARE,
        as_referee: bool = False,
        chance: Any = None,
        time_control: dict[str, object] | None = None,
        rated: bool = False,
        user_id: str | None = None,
    ) -> Created:
        """Create a game: seats, the set-up chance events, and the creator's seat if any.

        ``time_limit`` is in minutes (:data:`DEFAULT`: the game's default; 0 or None: no
        limit); its clock starts when play begins, i.e. when every seat is taken.
        ``referee`` is ``software`` or ``human`` (Dado Romano only); with ``as_referee``
        the creator takes the referee role (and no seat: the referee is not a player).
        ``time_control``: real-time or turn-based clock per move and the timeout policy
        (:func:`alea.server.timecontrol.parse_time_control`), None: none.
        ``chance``: a ``random.Random`` for this game's chance (a tutorial's, seeded so
        that its first rolls are known), else the server's.
        ``rated``: every human seat must be held by an account (:mod:`alea.server.ratings`);
        the creator who sits must then be signed in as ``user_id``.
        """
        try:
            info = hosted(game_name)
        except KeyError:
            raise ServerError("bad_request", 422, detail=f"unknown game {game_name!r}") from None
        limit = time_limit_for(info, time_limit)
        control = parse_time_control(time_control)
        check_referee(info, referee, as_referee=as_referee, claim=claim)
        seats = seat_table(info, specs)
        if rated:
            check_rated_table(seats, referee)
            if claim is not None and user_id is None:
                raise ServerError("rated_needs_account", 403)
        token: str | None = None
        role = SPECTATOR_ROLE
        referee_name = ""
        referee_token: str | None = None
        if as_referee:
            token, referee_token, referee_name = new_referee(name)
            role = REFEREE_ROLE
        if claim is not None:
            token = sit_creator(seats, claim, name, user_id if rated else None)
            role = PLAYER_ROLE
        game = await self.core.create(
            auth.new_game_id(),
            info,
            seats,
            public=public,
            title=clean_name(title, "")[:80],
            time_limit=limit,
            referee=referee,
            referee_name=referee_name,
            referee_token=referee_token,
            rng=chance,
            control=control,
            rated=rated,
        )
        return Created(game, claim, token, role)
