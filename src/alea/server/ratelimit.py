"""Limits on what one client may open: games per minute, and bot tables at once.

Creating a game needs no account and no token, so one client created 5,000
games in 18.5 s, and 32 tables of four ``hard`` bots were enough to keep every
core busy. Two limits, per client address (the peer address uvicorn reports,
which honours ``X-Forwarded-For`` only from the proxies it trusts):

* **creation rate**: ``Settings.create_rate`` in the notation of the
  :mod:`limits` library (``"20/minute;200/hour"``), counted in a moving window;
  past it ``POST /api/games`` is ``429 rate_limited`` with ``Retry-After``
  (seconds);
* **bot tables**: at most ``Settings.bot_tables_per_client`` unfinished games
  with a bot seat created by one address at a time (``429 rate_limited`` too,
  until one of them ends), so one client cannot fill the bot workers' queue.

One process counts in its memory: a restart forgets, which only ever lets a
client in early. Several processes (``Settings.redis_url``) count in Redis, so
that N processes behind a load balancer allow what one does, not N times as
much: the rate in the :mod:`limits` library's own Redis storage (its moving
window is one Lua script, so two processes counting at once count both), the
bot tables as a Redis set of game ids per address, whose games' status is read
from the database (a game may end on any process). If Redis cannot be reached
the limits let the request in (and log it): a Redis restart must not stop the
service, and what it lets through is bounded by the minutes it is down.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from alea.server.errors import ServerError
from alea.server.room import OVER, Game

log = logging.getLogger("alea.server.limits")

#: The namespace of the creation counters in the limiter's storage.
CREATE = "create"
#: Seconds a client's set of bot tables is kept in Redis after its last creation.
TABLES_TTL = 86_400
#: Game id -> stored status, for some game ids (the database's answer).
Statuses = Callable[[list[str]], Awaitable[dict[str, str]]]


def limit_storage(redis_url: str | None, prefix: str) -> Storage:
    """Where the :mod:`limits` counters live: this process's memory, or Redis (shared by
    every process of the service, so N processes allow what one does).

    Short timeouts: a request waits at most a second for Redis before it is let in.
    """
    if redis_url is None:
        return MemoryStorage()
    return RedisStorage(
        f"async+{redis_url}",
        implementation="redispy",
        key_prefix=f"{prefix}:limits",
        socket_timeout=1.0,
        socket_connect_timeout=1.0,
    )


class CreationLimits:
    """The creation rate and the bot tables of every client address.

    ``redis_url`` (with ``prefix`` and ``statuses``): count across processes in Redis.
    """

    def __init__(
        self,
        rate: str,
        bot_tables: int,
        *,
        redis_url: str | None = None,
        prefix: str = "alea",
        statuses: Statuses | None = None,
    ) -> None:
        self.rates: list[RateLimitItem] = parse_many(rate) if rate.strip() else []
        self.bot_tables = bot_tables
        storage = limit_storage(redis_url if statuses is not None else None, prefix)
        self._redis: Any = None
        if redis_url is not None and statuses is not None:
            from redis import asyncio as aioredis

            self._redis = aioredis.from_url(
                redis_url, socket_timeout=1.0, socket_connect_timeout=1.0
            )
        self._prefix = prefix
        self._statuses = statuses
        self._limiter = MovingWindowRateLimiter(storage)
        #: Games with bots each address created here that may still be playing (memory).
        self._tables: dict[str, list[Game]] = {}

    async def admit(self, client: str, with_bots: bool) -> None:
        """Count one creation by ``client``, or refuse it (``rate_limited``, 429)."""
        self.forget_idle()  # every creation: no finished game stays referenced from here
        if with_bots:
            await self.admit_bots(client)
        for rate in self.rates:
            try:
                if await self._limiter.hit(rate, CREATE, client):
                    continue
                reset = (await self._limiter.get_window_stats(rate, CREATE, client)).reset_time
            except Exception as err:  # Redis out of reach: let the client in
                log.warning("creation rate not counted (%s)", err)
                continue
            raise self._refusal(f"at most {rate} new games", reset - time.time())

    async def admit_bots(self, client: str) -> None:
        """Refuse ``client`` one more table with bots while it has its fill of them."""
        if self.bot_tables <= 0:
            return
        try:
            playing = await self._playing(client)
        except Exception as err:
            log.warning("bot tables not counted (%s)", err)
            return
        if playing >= self.bot_tables:
            raise self._refusal(f"at most {self.bot_tables} unfinished games with bots", 60)

    async def _playing(self, client: str) -> int:
        """How many unfinished games with bots ``client`` has (here, or everywhere)."""
        if self._redis is None or self._statuses is None:
            games = [g for g in self._tables.pop(client, ()) if g.status not in OVER]
            if games:
                self._tables[client] = games
            return len(games)
        key = self._tables_key(client)
        members = await self._redis.smembers(key)
        ids = sorted(m.decode() if isinstance(m, bytes) else str(m) for m in members)
        statuses = await self._statuses(ids) if ids else {}
        over = [i for i in ids if statuses.get(i, "finished") in OVER]
        if over:
            await self._redis.srem(key, *over)
        return len(ids) - len(over)

    async def created(self, client: str, game: Game, with_bots: bool) -> None:
        """Remember ``game``, created by ``client``, while it has bots to play."""
        if not with_bots or self.bot_tables <= 0:
            return
        if self._redis is None:
            self._tables.setdefault(client, []).append(game)
            return
        key = self._tables_key(client)
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.sadd(key, game.id)
                pipe.expire(key, TABLES_TTL)
                await pipe.execute()
        except Exception as err:
            log.warning("bot table not counted (%s)", err)

    def forget_idle(self) -> None:
        """Forget the tables that ended (so no finished game is kept alive from here)."""
        for client, games in list(self._tables.items()):
            playing = [g for g in games if g.status not in OVER]
            if playing:
                self._tables[client] = playing
            else:
                del self._tables[client]

    async def close(self) -> None:
        """Close the Redis connections (when several processes share the limits)."""
        if self._redis is not None:
            await self._redis.aclose()

    def _tables_key(self, client: str) -> str:
        return f"{self._prefix}:bot-tables:{client}"

    @staticmethod
    def _refusal(detail: str, retry_after: float) -> ServerError:
        seconds = max(1, math.ceil(retry_after))
        err = ServerError("rate_limited", 429, detail=detail, retry_after=seconds)
        err.headers["Retry-After"] = str(seconds)
        return err
