"""Chat at the table: the players' channel and the spectators', kept with the game.

Who reads what (the choice documented in docs/server.md, "Chat"):

* **players** — said by the seated players (and a human referee); read only by
  them. Players may talk tactics, so spectators never see it, not even in the
  replay of a finished game (a replay shows a player's channel only to a seat
  holder of that game).
* **spectators** — said by anyone watching without a seat; read by everyone at
  the table, players included (the page lets each player mute anyone).

Who speaks is never taken from the message: the channel and the seat are those
of the connection's (or request's) credential, so nobody can speak for a seat
they do not hold. A line is plain text (control characters dropped, at most
:data:`MAX_CHARS` characters) that clients show as text, never as HTML; each
seat (each spectator's address) may say :attr:`Settings.chat_rate` lines.

A line is stored (:mod:`alea.server.chat_store`, through the group-committing
writer) before anyone hears it, with ``step``: the game's version when it was
said, which is where a replay shows it.
"""

from __future__ import annotations

import asyncio
import logging
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy.exc import SQLAlchemyError

from alea.server import chat_store
from alea.server.clock import Clock
from alea.server.errors import ServerError
from alea.server.games import REFEREE
from alea.server.room import PLAYER_ROLE, REFEREE_ROLE, SPECTATOR_ROLE, Game, clean_name
from alea.server.storage import Store
from alea.server.tables import StorageError

log = logging.getLogger("alea.server.chat")

PLAYERS: Final = "players"
SPECTATORS: Final = "spectators"
#: The longest line, in characters (after cleaning).
MAX_CHARS: Final = 300
#: Games whose lines stay in memory once read (the least recently used go first).
CACHED_GAMES: Final = 512


@dataclass(frozen=True)
class ChatLine:
    """One line said at a table."""

    idx: int
    channel: str
    #: The speaker's seat; None for a spectator and for the human referee.
    seat: int | None
    role: str
    name: str
    text: str
    #: The game's version when it was said (the replay step it belongs to).
    step: int
    at: float

    def json(self) -> dict[str, Any]:
        return {
            "idx": self.idx,
            "channel": self.channel,
            "seat": self.seat,
            "role": self.role,
            "name": self.name,
            "text": self.text,
            "step": self.step,
            "at": self.at,
        }

    def row(self) -> dict[str, Any]:
        """The columns of the ``chat`` table (without the game id)."""
        row = self.json()
        row["created_at"] = row.pop("at")
        return row


def clean_text(text: object) -> str:
    """``text`` as one line of plain text, or a typed refusal (empty, too long, not text).

    Control characters (line breaks, bidi overrides' neighbours in category C) are
    dropped or turned into spaces; HTML is *not* touched: it is shown as text.
    """
    if not isinstance(text, str):
        raise ServerError("malformed", detail="'text' must be a string")
    kept = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    line = " ".join(kept.split())
    if not line:
        raise ServerError("chat_empty", 422)
    if len(line) > MAX_CHARS:
        raise ServerError("chat_too_long", 422, limit=MAX_CHARS)
    return line


def channel_of(seat: int | None) -> str:
    """The channel a connection speaks in: its role's (a seat or the referee: players)."""
    return SPECTATORS if seat is None else PLAYERS


def may_read(channel: str, seat: int | None) -> bool:
    """Whether a connection of ``seat`` (None: spectator) reads ``channel``."""
    return channel == SPECTATORS or seat is not None


class Chats:
    """Every table's chat: the lines in memory, the rate limit, storing and delivery."""

    def __init__(self, store: Store, clock: Clock, rate: str) -> None:
        self.store = store
        self.clock = clock
        self._rate = parse(rate)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._lines: OrderedDict[str, list[ChatLine]] = OrderedDict()
        self._next: dict[str, int] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    async def lines(self, game: Game) -> list[ChatLine]:
        """Every line of ``game`` (read from the database the first time)."""
        found = self._lines.get(game.id)
        if found is not None:
            self._lines.move_to_end(game.id)
            return found
        lock = self._loading.setdefault(game.id, asyncio.Lock())
        async with lock:
            found = self._lines.get(game.id)
            if found is None:
                try:
                    rows = await asyncio.to_thread(chat_store.load, self.store.engine, game.id)
                except SQLAlchemyError as err:
                    log.error("game %s: the chat cannot be read: %s", game.id, err)
                    raise ServerError("storage_error", 503) from None
                found = [
                    ChatLine(
                        r["idx"],
                        r["channel"],
                        r["seat"],
                        r["role"],
                        r["name"],
                        r["text"],
                        r["step"],
                        r["created_at"],
                    )
                    for r in rows
                ]
                self._lines[game.id] = found
                self._next[game.id] = found[-1].idx + 1 if found else 0
                while len(self._lines) > CACHED_GAMES:
                    old, _ = self._lines.popitem(last=False)
                    self._next.pop(old, None)
        self._loading.pop(game.id, None)
        return found

    async def visible(self, game: Game, seat: int | None) -> list[dict[str, Any]]:
        """The lines of ``game`` that ``seat`` (None: a spectator) may read, as JSON."""
        return [line.json() for line in await self.lines(game) if may_read(line.channel, seat)]

    def _admit(self, game: Game, key: str) -> None:
        if not self._limiter.hit(self._rate, "chat", game.id, key):
            stats = self._limiter.get_window_stats(self._rate, "chat", game.id, key)
            retry = max(1, int(stats.reset_time - time.time() + 0.999))  # limits' own clock
            err = ServerError("chat_too_fast", 429, retry_after=retry)
            err.headers["Retry-After"] = str(retry)
            raise err

    async def say(
        self, game: Game, seat: int | None, text: object, name: object, who: str
    ) -> ChatLine:
        """Store and deliver a line said by ``seat`` (None: a spectator at address ``who``).

        ``seat`` comes from the speaker's credential, never from the message.
        """
        line_text = clean_text(text)
        if seat is None:
            role, speaker, shown = SPECTATOR_ROLE, None, clean_name(name, "?")
            key = f"spectator:{who}"
        elif seat == REFEREE:
            role, speaker, shown = REFEREE_ROLE, None, game.referee_name or "Referee"
            key = "referee"
        else:
            role, speaker = PLAYER_ROLE, seat
            shown = game.seats[seat].name or f"{seat + 1}"
            key = f"seat:{seat}"
        self._admit(game, key)
        lines = await self.lines(game)
        idx = self._next.get(game.id, 0)
        self._next[game.id] = idx + 1
        line = ChatLine(
            idx, channel_of(seat), speaker, role, shown, line_text, game.version, self.clock.now()
        )
        try:
            await self.store.write(chat_store.op_add_line(game.id, line.row()))
        except StorageError:
            raise ServerError("storage_error", 503) from None
        lines.append(line)
        message = {"type": "chat", "lines": [line.json()]}
        for conn in list(game.connections):
            if may_read(line.channel, conn.seat):
                conn.send(message)
        return line
