"""Limits on what one client may open: games per minute, and bot tables at once.

Creating a game needs no account and no token, so one client created 5,000
games in 18.5 s, and 32 tables of four ``hard`` bots were enough to keep every
core busy. Two limits, per client address (the peer address uvicorn reports,
which honours ``X-Forwarded-For`` only from the proxies it trusts):

* **creation rate**: ``Settings.create_rate`` in the notation of the
  :mod:`limits` library (``"20/minute;200/hour"``), counted in a moving window
  in memory; past it ``POST /api/games`` is ``429 rate_limited`` with
  ``Retry-After`` (seconds);
* **bot tables**: at most ``Settings.bot_tables_per_client`` unfinished games
  with a bot seat created by one address at a time (``429 rate_limited`` too,
  until one of them ends), so one client cannot fill the bot workers' queue.

Both live in the process's memory: a restart forgets them, which only ever
lets a client in early.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from alea.server.errors import ServerError
from alea.server.room import OVER, Game

#: The namespace of the creation counters in the limiter's storage.
CREATE = "create"


class CreationLimits:
    """The creation rate and the bot tables of every client address."""

    def __init__(self, rate: str, bot_tables: int) -> None:
        self.rates: list[RateLimitItem] = parse_many(rate) if rate.strip() else []
        self.bot_tables = bot_tables
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        #: Games with bots each address created that may still be playing.
        self._tables: dict[str, list[Game]] = {}

    def admit(self, client: str, with_bots: bool) -> None:
        """Count one creation by ``client``, or refuse it (``rate_limited``, 429)."""
        self.forget_idle()  # every creation: no finished game stays referenced from here
        if with_bots:
            self.admit_bots(client)
        for rate in self.rates:
            if not self._limiter.hit(rate, CREATE, client):
                reset = self._limiter.get_window_stats(rate, CREATE, client).reset_time
                raise self._refusal(f"at most {rate} new games", reset - time.time())

    def admit_bots(self, client: str) -> None:
        """Refuse ``client`` one more table with bots while it has its fill of them."""
        if self.bot_tables <= 0:
            return
        playing = [g for g in self._tables.pop(client, ()) if g.status not in OVER]
        if playing:
            self._tables[client] = playing
        if len(playing) >= self.bot_tables:
            raise self._refusal(f"at most {self.bot_tables} unfinished games with bots", 60)

    def created(self, client: str, game: Game, with_bots: bool) -> None:
        """Remember ``game``, created by ``client``, while it has bots to play."""
        if with_bots and self.bot_tables > 0:
            self._tables.setdefault(client, []).append(game)

    def forget_idle(self) -> None:
        """Forget the tables that ended (so no finished game is kept alive from here)."""
        for client, games in list(self._tables.items()):
            playing = [g for g in games if g.status not in OVER]
            if playing:
                self._tables[client] = playing
            else:
                del self._tables[client]

    @staticmethod
    def _refusal(detail: str, retry_after: float) -> ServerError:
        seconds = max(1, math.ceil(retry_after))
        err = ServerError("rate_limited", 429, detail=detail, retry_after=seconds)
        err.headers["Retry-After"] = str(seconds)
        return err
