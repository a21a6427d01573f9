"""E-mail notifications: "it is your turn" in a turn-based game, and "the game is over".

:class:`Notifier` listens to the turn clocks (:mod:`alea.server.turns`) and,
for the seats whose accounts switched e-mail on and gave an address, queues
a message on the :class:`~alea.server.mailer.Mailer`. It never blocks the
commit path: the listener only starts a task, which looks the accounts up in
a thread and queues the mail. No mail goes to a seat whose owner is looking
at the table right now (a live connection), nor for real-time games (they
are played at the table; only turn-based players are away between moves),
and "your turn" waits ``Settings.notify_delay`` first: a turn taken within it
needs no mail.

With several processes (:mod:`alea.server.presence`) "looking at the table" means at
any process, and each mail is sent by one process only: the first to claim it in
Redis (every process following the game hears the same moment).

The messages are in English and Italian alike (an account has no language
yet), each with the game's link and a signed one-click unsubscribe link;
both need ``Settings.public_url``, without which nothing is sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol
from urllib.parse import urlencode

from sqlalchemy import Engine

from alea.server import notify_store
from alea.server.mailer import Mail, Mailer, unsubscribe_token
from alea.server.room import Game
from alea.server.turns import ENDED, YOUR_TURN

log = logging.getLogger("alea.server.mail")


class MailGate(Protocol):
    """What several processes share to mail as one (``alea.server.presence``)."""

    async def present_elsewhere(self, game_id: str, seat: int) -> bool:
        """Whether a socket at another process speaks for ``seat``."""

    async def claim(self, what: str) -> bool:
        """Take the right to send the mail ``what`` names (False: another process did)."""


def turn_began(game: Game, seat: int) -> int:
    """The log index where ``seat``'s current turn began: after the last event another
    seat decided (chance events decide nothing). The same at every process, whenever it
    caught up, so it names the turn in a claim."""
    actors = game.actors
    for index in range(len(actors) - 1, -1, -1):
        actor = actors[index]
        if actor is not None and actor != seat:
            return index + 1
    return 0


def unsubscribe_link(public_url: str, key: bytes, user_id: str) -> str:
    """The one-click link that switches e-mail off for ``user_id``."""
    query = urlencode({"user": user_id, "token": unsubscribe_token(key, user_id)})
    return f"{public_url.rstrip('/')}/api/account/unsubscribe?{query}"


def game_link(public_url: str, game_id: str) -> str:
    return f"{public_url.rstrip('/')}/game/{game_id}"


def turn_mail(game: Game, name: str, link: str, unsubscribe: str) -> tuple[str, str]:
    """Subject and text of "your turn" (English, then Italian)."""
    title = game.title or game.info.title
    subject = f"Your turn / Tocca a te: {title}"
    text = (
        f"{name}, it is your turn in {title}.\n"
        f"Play: {link}\n\n"
        f"{name}, tocca a te in {title}.\n"
        f"Gioca: {link}\n\n"
        f"No more e-mail / Niente più e-mail: {unsubscribe}\n"
    )
    return subject, text


def end_mail(game: Game, name: str, link: str, unsubscribe: str) -> tuple[str, str]:
    """Subject and text of "the game is over" (English, then Italian)."""
    title = game.title or game.info.title
    result = game.result or {}
    winners = [game.seats[w].name for w in result.get("winners", []) if 0 <= w < len(game.seats)]
    won = ", ".join(winners) or "-"
    subject = f"Game over / Partita finita: {title}"
    text = (
        f"{name}, {title} is over. Won: {won}.\n"
        f"See it: {link}\n\n"
        f"{name}, {title} è finita. Ha vinto: {won}.\n"
        f"Guardala: {link}\n\n"
        f"No more e-mail / Niente più e-mail: {unsubscribe}\n"
    )
    return subject, text


class Notifier:
    """Turns the clocks' moments into e-mail for the accounts that want it."""

    def __init__(
        self,
        engine: Engine,
        mailer: Mailer,
        public_url: str | None,
        key: Callable[[], bytes],
        delay: float = 60.0,
    ) -> None:
        self.engine = engine
        #: Seconds a turn waits before its mail: a turn taken meanwhile needs none.
        self.delay = delay
        self.mailer = mailer
        self.public_url = public_url
        self.key = key
        #: Set when several processes serve (None: this process is the only one).
        self.gate: MailGate | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def enabled(self) -> bool:
        return self.mailer.enabled and bool(self.public_url)

    def heard(self, game: Game, event: str, seat: int | None) -> None:
        """A listener of :class:`~alea.server.turns.TurnClocks` (sync; starts a task)."""
        if not self.enabled:
            return
        if event == YOUR_TURN and seat is not None:
            if game.control is None or not game.control.turn_based:
                return
            task = asyncio.get_running_loop().create_task(self._turn(game, seat))
        elif event == ENDED:
            seats = [s.seat for s in game.seats if s.connections == 0]
            mail = self._mail(game, event, seats, f"end:{game.id}")
            task = asyncio.get_running_loop().create_task(mail)
        else:
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _turn(self, game: Game, seat: int) -> None:
        """Mail "your turn" if, after :attr:`delay`, it still is, and nobody is looking."""
        started = game.clock_started
        await asyncio.sleep(self.delay)
        if game.clock_seat != seat or game.clock_started != started:
            return  # taken (or timed out) meanwhile
        if game.seats[seat].connections > 0:
            return
        began = turn_began(game, seat)
        await self._mail(game, YOUR_TURN, [seat], f"turn:{game.id}:{began}")

    async def _shared(self, game: Game, seats: list[int], what: str) -> list[int]:
        """The ``seats`` this process mails: with several processes, those at no other
        process whose mail (``what``, then the seat) no other process claimed first.
        Redis out of reach: all of them (a duplicate then, rather than no mail)."""
        gate = self.gate
        if gate is None:
            return seats
        mailed: list[int] = []
        for seat in seats:
            try:
                if await gate.present_elsewhere(game.id, seat):
                    continue
                if not await gate.claim(f"{what}:{seat}"):
                    continue
            except Exception as err:
                log.warning("game %s: mailing as if alone (Redis: %s)", game.id, err)
            mailed.append(seat)
        return mailed

    async def _mail(self, game: Game, event: str, seats: list[int], what: str) -> None:
        assert self.public_url is not None
        seats = await self._shared(game, seats, what)
        if not seats:
            return
        try:
            found = await asyncio.to_thread(notify_store.recipients, self.engine, game.id, seats)
        except Exception:
            log.exception("game %s: the accounts to notify could not be read", game.id)
            return
        key = self.key()
        for who in found:
            link = game_link(self.public_url, game.id)
            unsubscribe = unsubscribe_link(self.public_url, key, who.user_id)
            write = turn_mail if event == YOUR_TURN else end_mail
            subject, text = write(game, who.name, link, unsubscribe)
            self.mailer.send(Mail(who.email, subject, text, unsubscribe))

    async def drain(self) -> None:
        """Drop the turns still waiting; wait for the look-ups under way (stopping)."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
