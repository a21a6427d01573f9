"""Rematch: after a game ends, the same table again, seat for seat.

One click of a seated player proposes it (:meth:`Rematches.answer`, which
counts as their acceptance); every other seat a person held is asked. Each
answers for *its own* seat only: the seat is the one the answering
credential (seat token, or the signed-in account's linked seat) opens,
never a number in the message. When every seat asked has answered, or
:attr:`Settings.rematch_timeout` seconds have passed, the new game is made:

* a seat that accepted is the same person's again: the new seat keeps the
  old seat's token hash (so the same token opens it) and its account link;
* a seat that declined or did not answer is given to a bot (the table's
  choice, at :attr:`Settings.takeover_level`), so the game starts at once;
* bot seats stay the same bots; a human referee keeps the role.

Everyone at the old table sees the new game's id in the offer
(``rematch.game`` of the public state) and is pointed there. The offer lives
in memory only: a restart forgets it, and anyone may propose again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy import Engine

from alea.server import account_store, auth
from alea.server.core import Core
from alea.server.errors import ServerError
from alea.server.games import REFEREE
from alea.server.room import BOT, FINISHED, HUMAN, Game, RematchOffer, Seat
from alea.server.seats import bot_name

log = logging.getLogger("alea.server.rematch")


def asked_seats(game: Game) -> frozenset[int]:
    """The seats a person held (a bot may have taken one over): they answer a rematch."""
    return frozenset(s.seat for s in game.seats if s.kind == HUMAN or s.replaced)


class Rematches:
    """Rematch offers of one server's finished games, and the games they make."""

    def __init__(self, core: Core, engine: Engine, *, timeout: float, bot_level: str) -> None:
        self.core = core
        self.engine = engine
        self.timeout = timeout
        self.bot_level = bot_level

    async def answer(self, game: Game, seat: int | None, accept: bool) -> RematchOffer:
        """``seat`` proposes or accepts (``accept``), or declines, the rematch of ``game``.

        ``seat`` is the caller's own, from its credential (None: a spectator, refused).
        """
        if seat is None:
            raise ServerError("spectator", 403)
        if seat == REFEREE:
            raise ServerError("not_asked", 403, detail="the referee keeps the role")
        async with game.lock:
            if game.status != FINISHED:
                raise ServerError("rematch_too_soon", 409)
            asked = asked_seats(game)
            if seat not in asked:
                raise ServerError("not_asked", 403)
            offer = game.rematch
            if offer is not None and offer.game_id is not None:
                raise ServerError("rematch_made", 409, game=offer.game_id)
            if offer is None:
                if not accept:
                    raise ServerError("no_rematch", 409)
                offer = RematchOffer(seat, self.core.clock.now() + self.timeout, asked)
                game.rematch = offer
                offer.timer = asyncio.get_running_loop().create_task(
                    self._expire(game, offer), name=f"rematch-{game.id}"
                )
            (offer.accepted if accept else offer.declined).add(seat)
            (offer.declined if accept else offer.accepted).discard(seat)
            if offer.accepted | offer.declined >= offer.asked:
                await self._settle(game, offer)
            else:
                game.changed()
        return offer

    async def _expire(self, game: Game, offer: RematchOffer) -> None:
        """At the deadline, make the game with what was answered (bots for the rest)."""
        await asyncio.sleep(self.timeout)
        async with game.lock:
            if game.rematch is offer and offer.game_id is None:
                offer.timer = None
                await self._settle(game, offer)

    async def _settle(self, game: Game, offer: RematchOffer) -> None:
        """Make the new game (someone accepted) or drop the offer (nobody did); the
        game's lock is held."""
        timer, offer.timer = offer.timer, None
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        if not offer.accepted:
            game.rematch = None
            game.changed()
            return
        seats = []
        for old in game.seats:
            if old.seat in offer.accepted:
                seats.append(Seat(old.seat, HUMAN, None, old.name, old.token_hash))
            elif old.seat in offer.asked:
                seats.append(Seat(old.seat, BOT, self.bot_level, bot_name(old.seat)))
            else:
                seats.append(Seat(old.seat, BOT, old.level, old.name))
        try:
            new = await self.core.create(
                auth.new_game_id(),
                game.info,
                seats,
                public=game.public,
                title=game.title,
                time_limit=game.time_limit,
                referee=game.referee,
                referee_name=game.referee_name,
                referee_token=game.referee_token,
            )
            await asyncio.to_thread(
                account_store.carry_links, self.engine, game.id, new.id, sorted(offer.accepted)
            )
        except ServerError:
            # Not stored: keep the offer open so that the next answer tries again.
            log.exception("game %s: the rematch could not be made", game.id)
            raise
        offer.game_id = new.id
        game.changed()
        log.info("game %s: rematch %s made (%d seats kept)", game.id, new.id, len(offer.accepted))

    async def stop(self) -> None:
        """Cancel every pending offer's timer (the server is stopping)."""
        timers = [
            g.rematch.timer
            for g in self.core.games.values()
            if g.rematch is not None and g.rematch.timer is not None
        ]
        for task in timers:
            task.cancel()
        for task in timers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
