"""Time, on one injected clock: deadlines of time limits, idle turns, and their watcher.

Every time the server measures (when a game was created or last changed, when
the current decision began, when a quiet seat may be handed to a bot, when a
time limit runs out) is read from one :class:`Clock`, built on
``Settings.clock``. Tests inject a clock they move forward, so an hour-long
limit runs out, or a seat goes idle, in one call and without sleeping.

Time limits (Dado Romano, RULES.md B1): the deadline is fixed when play begins
(the status turns ``active``) and stored with that status change; one
:class:`DeadlineWatcher` task (started and stopped with the server) sleeps
until the next deadline and then calls back into the commit path, which
applies the rules' ``last-round`` under the game's lock like a move. After a
restart every stored deadline is watched again, so an overdue game gets its
``last-round`` at once; the engine refuses a second one, so it is never
applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import os
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, Literal

from alea.game import GameInfo
from alea.server.errors import ServerError

log = logging.getLogger("alea.server")

#: The time limits a creator may choose, in minutes (0 or None: no limit). Ten hours is
#: far longer than any game, yet small enough to catch a limit typed in seconds.
MIN_TIME_LIMIT: Final = 1
MAX_TIME_LIMIT: Final = 600
#: Seconds before the watcher tries again a deadline it could not act on.
DEADLINE_RETRY: Final = 1.0


class _Default(enum.Enum):
    """The type of :data:`DEFAULT`: "the creator did not say" (which is not None: no limit)."""

    DEFAULT = "default"


#: ``time_limit`` not given: the game's default (one hour for Dado Romano, none for Iacta).
DEFAULT: Final = _Default.DEFAULT
TimeLimit = int | None | Literal[_Default.DEFAULT]


def utc_text(timestamp: float | None) -> str | None:
    """``timestamp`` (epoch seconds) as ISO 8601 UTC (``2026-01-01T12:00:00Z``), or None."""
    if timestamp is None:
        return None
    moment = datetime.fromtimestamp(timestamp, tz=UTC)
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


class Clock:
    """The server's one clock (``Settings.clock``) and the times measured with it."""

    def __init__(self, now: Callable[[], float], idle_timeout: float) -> None:
        self._now = now
        #: Seconds of silence on a human's turn before the others may hand the seat to a bot.
        self.idle_timeout = idle_timeout

    def now(self) -> float:
        """The time now, in epoch seconds."""
        return self._now()

    def deadline(self, minutes: int | None) -> float | None:
        """The deadline of a time limit of ``minutes`` whose clock starts now (None: none)."""
        if minutes is None:
            return None
        return self._now() + minutes * 60.0

    def takeover_at(self, turn_since: float) -> float:
        """When a decision that began at ``turn_since`` has been idle long enough."""
        return turn_since + self.idle_timeout

    def idle(self, turn_since: float) -> bool:
        """Whether a decision that began at ``turn_since`` has been idle long enough now."""
        return self._now() >= self.takeover_at(turn_since)


#: TEST ONLY, never set in production: the environment variable naming a file whose number
#: ``alea serve`` adds to the wall clock (:class:`OffsetFileClock`). Tests of several
#: processes (tests/server/cluster_support.py) have no ``Settings.clock`` to inject into a
#: child process; with this they move every process's clock forward together, so a
#: one-minute time limit runs out in seconds. Unset (the default), the clock is time.time.
TEST_CLOCK_ENV: Final = "ALEA_TEST_CLOCK_FILE"


class OffsetFileClock:
    """TEST ONLY: the wall clock plus the seconds written in a file, read at every call.

    Time still flows; a test moves it forward by rewriting the file (atomically, with a
    rename, so a reader never sees half a number). Every process given the same file
    shares one clock, as machines on one time server do.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self()  # an unreadable file fails at start-up, not at the first deadline

    def __call__(self) -> float:
        return time.time() + float(self.path.read_text())


def clock_from_environment() -> Callable[[], float]:
    """The clock ``alea serve`` measures with: time.time, unless a test set
    :data:`TEST_CLOCK_ENV` (then an :class:`OffsetFileClock` on that file)."""
    path = os.environ.get(TEST_CLOCK_ENV)
    if not path:
        return time.time
    log.warning("%s is set: the server's clock is moved by a test (%s)", TEST_CLOCK_ENV, path)
    return OffsetFileClock(Path(path))


def time_limit_for(info: GameInfo, asked: object) -> int | None:
    """The time limit in minutes a new game of ``info`` gets when ``asked`` (None: none).

    :data:`DEFAULT` gives the game's default; 0 and None mean no limit. Anything else
    must be a whole number of minutes in ``MIN_TIME_LIMIT..MAX_TIME_LIMIT`` for a game
    that has a time limit (``bad_time_limit`` otherwise): a silently ignored limit
    would surprise the players far more than a refusal.
    """
    if asked is DEFAULT:
        return info.default_time_limit if info.time_up_action is not None else None
    if asked is None or (isinstance(asked, int) and not isinstance(asked, bool) and asked == 0):
        return None
    if info.time_up_action is None:
        raise ServerError(
            "bad_time_limit",
            422,
            detail=f"{info.name} games have no time limit",
            low=MIN_TIME_LIMIT,
            high=MAX_TIME_LIMIT,
        )
    if (
        isinstance(asked, bool)
        or not isinstance(asked, int)
        or not MIN_TIME_LIMIT <= asked <= MAX_TIME_LIMIT
    ):
        raise ServerError(
            "bad_time_limit",
            422,
            detail=f"time_limit {asked!r} is not {MIN_TIME_LIMIT} to {MAX_TIME_LIMIT} minutes",
            low=MIN_TIME_LIMIT,
            high=MAX_TIME_LIMIT,
        )
    return asked


#: What the watcher calls at a game's deadline: True when done, False to try again shortly.
DueHandler = Callable[[str], Awaitable[bool]]


class DeadlineWatcher:
    """The one task behind every time limit: sleep until the next deadline, then act.

    One task for all games (not one per game) keeps the cost independent of how
    many games have a limit. It is woken when a deadline is added and looks at
    the clock at least every ``poll`` seconds, so an injected or jumping clock is
    noticed too. What happens at a deadline is the caller's ``on_due``: the
    watcher knows times and game ids, nothing of games.
    """

    def __init__(self, clock: Clock, poll: float, on_due: DueHandler) -> None:
        self.clock = clock
        self.poll = max(0.01, poll)
        self.on_due = on_due
        #: Game id -> deadline, for every game whose deadline has not been acted on yet.
        self.pending: dict[str, float] = {}
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False

    def watch(self, game_id: str, deadline: float) -> None:
        """Act on ``game_id`` at ``deadline`` (at once if it has passed).

        A game already watched keeps its time (a deadline never moves once fixed; a
        retry waits its turn), so this may be called after every change of a game.
        """
        if game_id in self.pending:
            return
        self.pending[game_id] = deadline
        if self._wake is not None:
            self._wake.set()

    def forget(self, game_id: str) -> None:
        """Nothing is due for ``game_id`` any more (it finished, or was acted on)."""
        self.pending.pop(game_id, None)

    def start(self) -> None:
        """Start the task (in the running event loop)."""
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="alea-deadlines")

    async def stop(self) -> None:
        """Stop the task; an action under way finishes first."""
        self._closing = True
        if self._task is None:
            return
        assert self._wake is not None
        self._wake.set()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        self._task = None

    async def _run(self) -> None:
        wake = self._wake
        assert wake is not None
        while not self._closing:
            wake.clear()
            delay = self.poll
            try:
                now = self.clock.now()
                due = sorted((d, g) for g, d in self.pending.items() if d <= now)
                for _, game_id in due:
                    if self._closing:
                        return
                    await self._act(game_id)
                upcoming = min(self.pending.values(), default=None)
                if upcoming is not None:
                    delay = min(self.poll, max(0.0, upcoming - self.clock.now()))
            except Exception:  # the watcher must outlive any one failure, or limits stop
                log.exception("the deadline watcher failed; looking again shortly")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), delay)

    async def _act(self, game_id: str) -> None:
        try:
            done = await self.on_due(game_id)
        except Exception:
            log.exception("game %s: acting on its deadline failed; retrying", game_id)
            done = False
        if done:
            self.forget(game_id)
        else:
            self.pending[game_id] = self.clock.now() + DEADLINE_RETRY
