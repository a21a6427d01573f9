"""Who sits where: the table a creator asks for, claims, bots filling in, takeover,
reclaim, and the loop that plays the bots' turns.

Every change here is stored before anyone hears of it, through the commit
path's :meth:`~alea.server.core.Core.seat_change` (which also begins play
when a change completes the table). Bots are driven like in every other
driver of the project: the bot of a game and level comes from
:func:`alea.bots.for_game`; it is shown only its seat's view and its answer
is checked, as :func:`alea.bots.ask` does, in a worker of the bot pool
(:mod:`alea.server.botpool`, never the thread pool the request path needs); the
chosen move then goes through
:meth:`~alea.server.core.Core.act` like a person's, so a bot can do nothing a
player could not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, TypeVar

from alea import bots
from alea.game import GameInfo
from alea.server import auth, catchup
from alea.server.botpool import BotPool
from alea.server.core import Core
from alea.server.errors import ServerError
from alea.server.games import REFEREE
from alea.server.room import ACTIVE, BOT, HUMAN, OPEN, OVER, Game, Seat, clean_name
from alea.server.tables import VersionConflict
from alea.server.writes import op_update_seats

log = logging.getLogger("alea.server")

#: Default names of bots, by seat: Romans of the late Republic.
BOT_NAMES: Final = ("Cicero", "Livia", "Brutus", "Cornelia", "Cassius", "Octavia")
T = TypeVar("T")
#: Times a seating change is decided again after another process changed the game.
RETRIES: Final = 8

#: The level a bot gets when nobody says.
DEFAULT_LEVEL: Final = "medium"


def bot_name(seat: int) -> str:
    """The default name of a bot in ``seat`` (numbered past the list, for larger tables)."""
    return BOT_NAMES[seat] if seat < len(BOT_NAMES) else f"Bot {seat + 1}"


def check_level(level: object) -> str:
    """``level`` if it is a bot level players may choose (``alea.bots.LEVELS``)."""
    if not isinstance(level, str) or level not in bots.LEVELS:
        raise ServerError("bad_request", 422, detail=f"unknown bot level {level!r}")
    return level


@dataclass
class SeatSpec:
    """What the creator asks for one seat."""

    kind: str = HUMAN
    level: str | None = None
    name: str = ""


def seat_table(info: GameInfo, specs: list[SeatSpec]) -> list[Seat]:
    """The seats of a new game of ``info`` as the creator asked for them (all free)."""
    lo, hi = info.min_players, info.max_players
    if not lo <= len(specs) <= hi:
        raise ServerError("bad_request", 422, detail=f"a game has {lo} to {hi} seats")
    seats: list[Seat] = []
    for i, spec in enumerate(specs):
        if spec.kind == BOT:
            level = check_level(spec.level or DEFAULT_LEVEL)
            seats.append(Seat(i, BOT, level, clean_name(spec.name, bot_name(i))))
        elif spec.kind == HUMAN:
            seats.append(Seat(i, HUMAN, None, clean_name(spec.name, "")))
        else:
            raise ServerError("bad_request", 422, detail=f"unknown seat kind {spec.kind!r}")
    return seats


def sit_creator(seats: list[Seat], claim: int, name: str, user_id: str | None = None) -> str:
    """Seat the creator in the human seat ``claim`` of a new game; return its token.

    ``user_id``: the account the seat is linked to in the write that creates the game
    (a rated table's, so that none of its human seats is ever stored without one).
    """
    if not 0 <= claim < len(seats) or seats[claim].kind != HUMAN:
        raise ServerError("bad_request", 422, detail="the creator must claim a human seat")
    seats[claim].user_id = user_id
    token = auth.new_token()
    seats[claim].token_hash = auth.hash_token(token)
    seats[claim].name = clean_name(name, seats[claim].name or f"Player {claim + 1}")
    return token


def check_rated_claim(game: Game, user_id: str | None) -> None:
    """Refuse a claim at the rated ``game`` by a guest, or by an account already seated."""
    if user_id is None:
        raise ServerError("rated_needs_account", 403)
    if any(s.user_id == user_id for s in game.seats):
        raise ServerError("rated_one_seat", 409)


def check_rated_table(seats: list[Seat], referee: str) -> None:
    """Refuse to make a rated table without a human seat or with a human referee."""
    if not any(s.kind == HUMAN for s in seats):
        raise ServerError("rated_not_possible", 422, detail="it has no seat for a person")
    if referee != "software":
        raise ServerError("rated_not_possible", 422, detail="a human referee's marks are not rated")


class Seating:
    """Claims, bots filling in, takeover and reclaim of one server's games, and its bots."""

    def __init__(
        self,
        core: Core,
        *,
        bot_delay: float,
        takeover_level: str,
        bot_factory: Callable[[str, str], bots.Bot] | None = None,
        pool: BotPool | None = None,
    ) -> None:
        self.core = core
        #: Where bots think (never the default thread pool the request path needs).
        self.pool = pool or BotPool(0)
        self.bot_delay = bot_delay
        self.takeover_level = takeover_level
        self.bot_factory: Callable[[str, str], bots.Bot] = bot_factory or bots.for_game
        self._closing = False
        #: With other processes: takes (or confirms) the game's lease before a bot loop
        #: runs here, so each bot move is decided by one process (None: one process).
        self.lease: Callable[[str], Awaitable[bool]] | None = None
        #: Whether this process still holds a game's lease (checked before each bot move).
        self.holds: Callable[[str], bool] | None = None
        #: Bot moves this process stored, and bot moves refused because the game had moved
        #: (tests check that across processes every bot move is decided exactly once).
        self.bot_moves = 0
        self.bot_stale = 0
        core.followers.append(self.schedule_bots)

    async def _again(self, game: Game, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run a seating change; if another process changed the game meanwhile (the
        guarded write refused), catch up from the log and decide again."""
        for _ in range(RETRIES):
            try:
                return await attempt()
            except VersionConflict:
                async with game.lock:
                    await catchup.catch_up(self.core, game)
        raise ServerError("storage_error", 503)

    async def claim(self, game: Game, seat: int, name: object, user_id: str | None = None) -> str:
        """Give the free human seat ``seat`` to whoever asks first; return its token.

        At a rated table only an account may sit (``user_id``; ``rated_needs_account``),
        once (``rated_one_seat``), and the seat is linked to it in the same write.
        """
        return await self._again(game, lambda: self._claim(game, seat, name, user_id))

    async def _claim(self, game: Game, seat: int, name: object, user_id: str | None) -> str:
        async with game.lock:
            if game.rated:
                check_rated_claim(game, user_id)
            if not 0 <= seat < game.players:
                raise ServerError("no_such_seat", 404, seat=seat)
            target = game.seats[seat]
            if target.claimed:
                raise ServerError("seat_taken", 409, seat=seat)
            if game.status in OVER:
                raise ServerError("game_over", 409)
            token = auth.new_token()
            updated = Seat(
                seat,
                HUMAN,
                None,
                clean_name(name, f"Player {seat + 1}"),
                auth.hash_token(token),
                connections=target.connections,
                user_id=user_id if game.rated else None,
            )

            def sit() -> None:
                game.seats[seat] = updated

            await self.core.seat_change(
                game,
                lambda status, deadline: op_update_seats(
                    game.id, [updated.record()], status=status, deadline=deadline, now=self._now()
                ),
                sit,
                begins=game.all_claimed(but=seat),
            )
        return token

    async def fill_with_bots(self, game: Game, by_seat: int, level: str) -> None:
        """Seat bots in every free seat so the game can start now (a seated human or referee)."""
        check_level(level)
        await self._again(game, lambda: self._fill(game, by_seat, level))

    async def _fill(self, game: Game, by_seat: int, level: str) -> None:
        async with game.lock:
            if game.status != OPEN:
                raise ServerError("not_allowed", 409, detail="the game has already started")
            added = [
                Seat(s.seat, BOT, level, bot_name(s.seat)) for s in game.seats if not s.claimed
            ]

            def sit() -> None:
                for s in added:
                    game.seats[s.seat] = s

            await self.core.seat_change(
                game,
                lambda status, deadline: op_update_seats(
                    game.id,
                    [s.record() for s in added],
                    status=status,
                    deadline=deadline,
                    now=self._now(),
                ),
                sit,
                # Bots never referee: without its human referee the game stays open.
                begins=game.referee_ready,
            )
        log.info("game %s: seat %d filled %d seats with bots", game.id, by_seat, len(added))

    async def takeover(self, game: Game, by_seat: int, seat: object, level: object) -> None:
        """Hand the quiet human ``seat`` to a bot (asked by another seated player)."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ServerError("malformed", detail="'seat' must be a seat number")
        chosen = check_level(self.takeover_level if level is None else level)
        await self._again(game, lambda: self._takeover(game, by_seat, seat, chosen))

    async def _takeover(self, game: Game, by_seat: int, seat: int, chosen: str) -> None:
        clock = self.core.clock
        async with game.lock:
            if not 0 <= seat < game.players:
                raise ServerError("no_such_seat", 404, seat=seat)
            if seat == by_seat:
                raise ServerError(
                    "not_allowed",
                    409,
                    detail="hand your own seat over by leaving; others may take it",
                )
            if game.status != ACTIVE:
                raise ServerError("not_allowed", 409, detail="the game is not being played")
            target = game.seats[seat]
            if target.kind != HUMAN:
                raise ServerError("not_human_seat", 409, seat=seat)
            at = game.takeover_at(clock)
            if game.to_move() != seat or at is None or clock.now() < at:
                raise ServerError("not_idle", 409, seat=seat, seconds=int(clock.idle_timeout))
            updated = Seat(
                seat,
                BOT,
                chosen,
                target.name,
                target.token_hash,
                True,
                target.connections,
                target.user_id,
            )
            await self.core.write_seats(
                game, op_update_seats(game.id, [updated.record()], now=self._now())
            )
            game.seats[seat] = updated
            self.core.notify(game)
        log.info("game %s: seat %d handed seat %d to a bot", game.id, by_seat, seat)

    async def reclaim(self, game: Game, seat: int) -> None:
        """Give a seat that a bot took over back to its human."""
        if seat == REFEREE:
            raise ServerError("not_allowed", 409, detail="no bot ever plays for the referee")
        await self._again(game, lambda: self._reclaim(game, seat))

    async def _reclaim(self, game: Game, seat: int) -> None:
        async with game.lock:
            target = game.seats[seat]
            if not target.replaced:
                raise ServerError("not_allowed", 409, detail="no bot is playing for you")
            updated = Seat(
                seat,
                HUMAN,
                None,
                target.name,
                target.token_hash,
                False,
                target.connections,
                target.user_id,
            )
            await self.core.write_seats(
                game, op_update_seats(game.id, [updated.record()], now=self._now())
            )
            game.seats[seat] = updated
            game.turn_since = self._now()
            self.core.notify(game)

    def _now(self) -> float:
        return self.core.clock.now()

    # ------------------------------------------------------------------ bots

    def schedule_bots(self, game: Game) -> None:
        """Start the game's bot loop if a bot is to move and none is running."""
        if self._closing or game.status != ACTIVE:
            return
        if game.bot_task is not None and not game.bot_task.done():
            return
        seat = game.to_move()
        if seat is None or not game.seats[seat].bot_plays:
            return
        game.bot_task = asyncio.get_running_loop().create_task(
            self._bot_loop(game), name=f"bots-{game.id}"
        )

    def _bot(self, game: Game, seat: int) -> bots.Bot:
        """The bot for ``seat`` at its current level (made once, kept for the game)."""
        level = game.seats[seat].level or DEFAULT_LEVEL
        found = game.bots.get(seat)
        if found is not None and found[0] == level:
            return found[1]
        bot = self.bot_factory(game.game_name, level)
        game.bots[seat] = (level, bot)
        return bot

    async def _bot_loop(self, game: Game) -> None:
        """Play every consecutive bot turn, each after the configured delay."""
        try:
            if self.lease is not None and not await self.lease(game.id):
                return  # another process drives this game's bots
            while not self._closing and game.status == ACTIVE:
                seat = game.to_move()
                if seat is None or not game.seats[seat].bot_plays:
                    return
                await asyncio.sleep(self.bot_delay)
                seat = game.to_move()
                if game.status != ACTIVE or seat is None or not game.seats[seat].bot_plays:
                    return
                # The state is never changed in place (the commit path swaps in a copy), so
                # the bot may think in a worker while the game goes on.
                state, version = game.state, game.version
                bot = self._bot(game, seat)
                try:
                    choice = await self.pool.ask(bot, state, game.bot_rng)
                except Exception:
                    choice = state.legal_actions()[0]
                    log.exception(
                        "game %s: bot for seat %d failed; playing %s", game.id, seat, choice
                    )
                # The same version is not enough: an undo and another move may have
                # brought the game back to it with another position. The state object is
                # swapped on every change, so its identity names the position.
                if game.state is not state or game.version != version:
                    continue
                if self.holds is not None and not self.holds(game.id):
                    return  # the lease was lost (Redis restarted): its new holder plays
                try:
                    await self.core.act(game, seat, str(choice), version)
                    self.bot_moves += 1
                except ServerError as err:
                    if err.code == "stale_version":
                        self.bot_stale += 1
                    if err.code == "storage_error":
                        await asyncio.sleep(1.0)
                    elif err.code not in ("stale_version", "not_your_turn"):
                        log.error("game %s: bot move %s refused: %s", game.id, choice, err)
                        return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: bot loop crashed", game.id)
        finally:
            if game.bot_task is asyncio.current_task():
                game.bot_task = None

    async def stop(self) -> None:
        """Stop every bot loop (the server is stopping)."""
        self._closing = True
        tasks = [g.bot_task for g in self.core.games.values() if g.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.pool.close()
