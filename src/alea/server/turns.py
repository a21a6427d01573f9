"""The clocks of timed tables, their timeouts, and the closing of abandoned tables.

:class:`TurnClocks` follows every change of every game (it is one of the
commit path's :attr:`~alea.server.core.Core.followers`) and keeps, for a table
with a time control (:mod:`alea.server.timecontrol`), the clock of the turn
being played: which human seat is timed, since when, and each seat's bank.
It stores that clock (``game_clocks``) whenever the turn passes, so a restart
resumes every clock where it stood rather than giving everyone fresh time.

When a turn runs out (one :class:`TurnWatcher` task for every table, on the
server's injected clock) the table's policy applies:

* ``bot_move``: a bot plays that turn for the seat, through
  :meth:`~alea.server.core.Core.act` like any move (it sees only the seat's
  view; the engine checks its choice); the seat stays its owner's.
* ``bot_seat``: the seat passes to a bot (stored, like an idle takeover) until
  its owner reclaims it.

**Abandonment**: a table at which no human has acted or been connected for
:func:`~alea.server.timecontrol.abandon_after` (``Settings.abandon_after``,
longer for turn-based tables) is closed with the status ``abandoned``: it is
no longer listed as in progress, its log is kept, and no move is accepted.
Every sweep (and at shutdown) a process records when it saw a human at its
tables (``games.human_seen``, the one place presence is stored). With several
processes each sees only its own sockets, and a table
is closed only by a write that finds no human recorded there by any process for
that time, so it is never closed while its players are at another process, and
closed once.

Interested parties (the notifier, :mod:`alea.server.notify`) subscribe to the
moments people care about: a turn passing to a human seat, a game ending.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any, Final

from alea.server import catchup
from alea.server.clock import Clock, DeadlineWatcher
from alea.server.core import Core
from alea.server.errors import ServerError
from alea.server.room import ABANDONED, ACTIVE, BOT, FINISHED, HUMAN, OVER, Game, Seat
from alea.server.seats import Seating
from alea.server.tables import ClockRecord, VersionConflict
from alea.server.timecontrol import BOT_SEAT, abandon_after, bank_after, deadline
from alea.server.writes import (
    op_abandon,
    op_record_seen,
    op_save_clock,
    op_set_status,
    op_update_seats,
)

log = logging.getLogger("alea.server")

#: What subscribers hear: ``(game, event, seat)``; event is :data:`YOUR_TURN` (the
#: turn passed to human ``seat``) or :data:`ENDED` (seat None).
Listener = Callable[[Game, str, int | None], None]
YOUR_TURN: Final = "your_turn"
ENDED: Final = "ended"


class TurnWatcher(DeadlineWatcher):
    """A :class:`DeadlineWatcher` whose deadlines move: one per table, re-armed each turn."""

    def arm(self, game_id: str, at: float) -> None:
        """Act on ``game_id`` at ``at``, replacing any earlier deadline of it."""
        if self.pending.get(game_id) == at:
            return
        self.pending[game_id] = at
        if self._wake is not None:
            self._wake.set()

    async def _act(self, game_id: str) -> None:
        before = self.pending.get(game_id)
        try:
            done = await self.on_due(game_id)
        except Exception:
            log.exception("game %s: acting on a turn's timeout failed; retrying", game_id)
            done = False
        if self.pending.get(game_id) != before:
            return  # re-armed meanwhile for the next turn: keep that deadline
        if done:
            self.forget(game_id)
        else:
            self.pending[game_id] = self.clock.now() + 1.0


def timed_seat(game: Game) -> int | None:
    """The human seat whose turn is being played now (None: a bot's, chance, or over)."""
    if game.status != ACTIVE:
        return None
    seat = game.to_move()
    if seat is None or game.seats[seat].bot_plays:
        return None
    return seat


def turn_deadline(game: Game) -> float | None:
    """When the current human turn runs out (None: no control, or nobody's turn)."""
    if game.control is None or game.clock_seat is None:
        return None
    bank = game.banks[game.clock_seat] if game.clock_seat < len(game.banks) else 0.0
    return deadline(game.control, game.clock_started, bank)


def clock_json(game: Game) -> dict[str, object] | None:
    """The time control and running clock as clients show it (None: no control).

    ``deadline`` is absolute (epoch seconds), so the JSON changes only when the
    turn does and each client counts down by itself.
    """
    control = game.control
    if control is None:
        return None
    return {
        **control.to_json(),
        "seat": game.clock_seat,
        "turn_started": game.clock_started if game.clock_seat is not None else None,
        "deadline": turn_deadline(game),
        "banks": [round(b) for b in game.banks],
    }


class TurnClocks:
    """The turn clocks of one server's timed tables, and the abandonment sweep."""

    def __init__(
        self,
        core: Core,
        seating: Seating,
        *,
        abandon_after: float,
        poll: float,
        takeover_level: str,
    ) -> None:
        self.core = core
        self.seating = seating
        self.clock: Clock = core.clock
        self.abandon = abandon_after
        self.poll = max(0.01, poll)
        self.takeover_level = takeover_level
        self.watcher = TurnWatcher(core.clock, core.settings.deadline_poll, self._timeout)
        self.listeners: list[Listener] = []
        self._bot_turns: dict[str, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        #: Clock writes under way (kept referenced until done).
        self._writes: set[asyncio.Task[None]] = set()
        self._closing = False
        self._flushed = False
        #: Turns this process timed out (a policy applied): across the processes of one
        #: service each timeout happens once (``/api/health``'s cluster part).
        self.timeouts = 0
        #: Tables this process closed as abandoned (across processes, each closed once).
        self.abandoned = 0
        core.followers.append(self.follow)

    # ------------------------------------------------------------ life cycle

    def start(self) -> None:
        self.watcher.start()
        self._sweeper = asyncio.get_running_loop().create_task(
            self._sweep_loop(), name="alea-abandon"
        )

    async def stop(self) -> None:
        self._closing = True
        await self.watcher.stop()
        tasks = [t for t in (self._sweeper, *self._bot_turns.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def flush(self) -> None:
        """Wait for the clock writes under way (after the bots stopped, before the store
        closes), so the clocks of the last moves are stored too."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)
        with contextlib.suppress(Exception):  # the presence seen since the last sweep
            await self._record_presence()
        self._flushed = True

    # --------------------------------------------------------------- follow

    def follow(self, game: Game) -> None:
        """``game`` changed: move its clock on if the turn passed, tell who cares."""
        now = self.clock.now()
        seat = timed_seat(game)
        if game.clock_seat is not None and game.version != game.seen_version:
            due = turn_deadline(game)
            if due is None or now < due:  # a human's own move, not one a timeout caused
                game.human_seen = now
        game.seen_version = game.version
        if game.status != game.seen_status:
            ended = game.status == FINISHED
            game.seen_status = game.status
            if ended:
                self._tell(game, ENDED, None)
        if game.status in OVER:
            self.watcher.forget(game.id)
            if game.control is not None and game.clock_seat is not None:
                self._pass_turn(game, None, now)
            return
        if seat != game.clock_seat or (seat is not None and not game.clock_started):
            self._pass_turn(game, seat, now)
            if seat is not None:
                self._tell(game, YOUR_TURN, seat)
        due = turn_deadline(game)
        if due is None:
            self.watcher.forget(game.id)
        else:
            self.watcher.arm(game.id, due)

    def _pass_turn(self, game: Game, seat: int | None, now: float) -> None:
        """The timed turn passes to ``seat`` (None: to nobody): settle the bank, store."""
        control = game.control
        if control is None:
            game.clock_seat, game.clock_started = seat, now
            return
        ending = game.clock_seat
        if ending is not None and 0 <= ending < len(game.banks):
            game.banks[ending] = bank_after(control, now - game.clock_started, game.banks[ending])
        game.clock_seat, game.clock_started = seat, now
        record = ClockRecord(
            control.mode,
            control.per_move,
            control.bank,
            control.on_timeout,
            turn_seat=seat,
            turn_started=now if seat is not None else None,
            banks=list(game.banks),
        )
        if self._flushed:
            # A move shielded from the shutdown finished after the last flush: the store
            # is closing. On restart that turn simply starts again (docs/server.md).
            return
        # Queued behind the write that moved the game (the store keeps their order).
        self._spawn(self._save(game.id, record), f"clock-{game.id}")

    async def _save(self, game_id: str, record: ClockRecord) -> None:
        try:
            await self.core.write(op_save_clock(game_id, record))
        except ServerError:
            log.warning("game %s: the turn clock could not be stored", game_id)

    def _tell(self, game: Game, event: str, seat: int | None) -> None:
        for listener in self.listeners:
            try:
                listener(game, event, seat)
            except Exception:
                log.exception("game %s: a %s listener failed", game.id, event)

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()
            return
        task = loop.create_task(coro, name=name)
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    # -------------------------------------------------------------- timeout

    async def _timeout(self, game_id: str) -> bool:
        """A turn ran out (the watcher's call): apply the table's policy."""
        game = self.core.games.get(game_id)
        if game is None or game.control is None or self._closing:
            return True
        seat = game.clock_seat
        due = turn_deadline(game)
        if seat is None or due is None or timed_seat(game) != seat:
            return True
        if self.clock.now() < due:
            self.watcher.arm(game.id, due)
            return True
        if self.core.may_drive is not None and not await self.core.may_drive(game_id):
            # Another process holds the game's lease and times this turn out; look again
            # in a second (the watcher's retry), in case it died and its lease lapses.
            return False
        if game.control.on_timeout == BOT_SEAT:
            await self._hand_to_bot(game, seat)
            return True
        running = self._bot_turns.get(game.id)
        if running is None or running.done():
            self.timeouts += 1  # not again while its bot plays the turn's decisions
            self._bot_turns[game.id] = asyncio.get_running_loop().create_task(
                self._bot_turn(game, seat, game.clock_started), name=f"timeout-{game.id}"
            )
        return True

    async def _bot_turn(self, game: Game, seat: int, started: float) -> None:
        """``bot_move``: a bot plays the timed-out turn of ``seat``, decision by decision,
        until the turn passes (the seat stays its owner's)."""
        bot = self.seating.bot_factory(game.game_name, self.takeover_level)
        try:
            while (
                not self._closing
                and timed_seat(game) == seat
                and game.clock_seat == seat
                and game.clock_started == started
            ):
                state, version = game.state, game.version
                try:
                    choice = await self.seating.pool.ask(bot, state, game.bot_rng)
                except Exception:
                    choice = state.legal_actions()[0]
                    log.exception("game %s: timeout bot failed; playing %s", game.id, choice)
                if game.version != version:
                    continue  # the owner moved meanwhile
                try:
                    await self.core.act(game, seat, str(choice), version)
                except ServerError as err:
                    if err.code not in ("stale_version", "not_your_turn"):
                        log.error("game %s: timeout move %s refused: %s", game.id, choice, err)
                        return
                log.info("game %s: seat %d timed out; a bot played %s", game.id, seat, choice)
                if timed_seat(game) == seat:
                    await asyncio.sleep(self.seating.bot_delay)
        finally:
            if self._bot_turns.get(game.id) is asyncio.current_task():
                del self._bot_turns[game.id]

    async def _hand_to_bot(self, game: Game, seat: int) -> None:
        """``bot_seat``: the seat passes to a bot until its owner reclaims it."""
        async with game.lock:
            target = game.seats[seat]
            if timed_seat(game) != seat or target.kind != HUMAN:
                return
            updated = Seat(
                seat,
                BOT,
                self.takeover_level,
                target.name,
                target.token_hash,
                True,
                target.connections,
            )
            await self.core.write(
                op_update_seats(game.id, [updated.record()], now=self.clock.now())
            )
            self.timeouts += 1
            game.seats[seat] = updated
            self.core.notify(game)
        log.info("game %s: seat %d timed out and passed to a bot", game.id, seat)

    # ---------------------------------------------------------- abandonment

    async def _sweep_loop(self) -> None:
        while not self._closing:
            try:
                await self.sweep()
            except Exception:
                log.exception("the abandonment sweep failed")
            await asyncio.sleep(self.poll)

    async def sweep(self) -> list[str]:
        """Close every table all humans left long enough ago; the ids closed.

        It first records where it saw humans (``games.human_seen``, one statement a
        sweep, the only place presence is stored, so that a restart knows it). With
        several processes (``Core.shared``) a process sees only its own sockets, so it
        closes a table only by a write that finds no human recorded there by any
        process for the stated time (:func:`~alea.server.writes.op_abandon`).
        """
        now = self.clock.now()
        due = []
        for game in list(self.core.games.values()):
            if game.status != ACTIVE:
                continue
            humans = [s for s in game.seats if s.kind == HUMAN or s.replaced]
            if not humans:
                continue  # a bots-only table plays itself to the end
            if any(s.connections > 0 for s in humans) or game.referee_connections > 0:
                game.human_seen = now
            elif now - game.human_seen >= abandon_after(game.control, game.players, self.abandon):
                due.append(game)
        await self._record_presence()
        closed = []
        for game in due:
            if await self._close(game):
                closed.append(game.id)
        return closed

    async def _record_presence(self) -> None:
        """Store when this process last saw a human at each table it newly saw one at,
        so the other processes know (at most one write a sweep, for all tables)."""
        seen = {
            game.id: game.human_seen
            for game in list(self.core.games.values())
            if game.status == ACTIVE and game.human_seen > game.seen_stored
        }
        if not seen:
            return
        try:
            await self.core.write(op_record_seen(seen))
        except ServerError:
            log.warning("the presence of %d tables could not be stored", len(seen))
            return
        for game_id, at in seen.items():
            game = self.core.games.get(game_id)
            if game is not None:
                game.seen_stored = max(game.seen_stored, at)

    async def _close(self, game: Game) -> bool:
        """Close ``game`` as abandoned, under its lock; whether this process closed it."""
        async with game.lock:
            after = abandon_after(game.control, game.players, self.abandon)
            now = self.clock.now()
            if game.status != ACTIVE or now - game.human_seen < after:
                return False
            if self.core.shared:
                try:
                    await self.core.write(op_abandon(game.id, now - after, now))
                except VersionConflict:
                    # A human was seen at another process (or it was closed, or it ended
                    # there): take what is stored, and look again at the next sweep.
                    await catchup.catch_up(self.core, game)
                    return False
            else:
                await self.core.write(op_set_status(game.id, ABANDONED, now))
            game.status = ABANDONED
            game.updated_at = now
            self.abandoned += 1
            self.core.notify(game)
            self.core.remember_finished(game.id)
        log.info("game %s: every human left; closed as abandoned", game.id)
        return True
