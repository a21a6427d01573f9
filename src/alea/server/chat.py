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
seat (each spectator's address) may say :attr:`Settings.chat_rate` lines; with
several processes that rate is counted in Redis, so a seat speaking through two
processes gets the rate once, not twice (if Redis is out of reach the line is
let through: a restart of Redis must not silence the tables).

A line is stored (:mod:`alea.server.chat_store`, through the group-committing
writer) before anyone hears it, with ``step``: the game's version when it was
said, which is where a replay shows it.

Several processes (docs/deploy.md): the store picks a line's ``idx`` under the
game's row lock (:func:`alea.server.chat_store.op_add_line`), so lines said at
one moment through two processes never share one; a stored line is announced
through the fan-out (:attr:`Chats.announce`, set by :mod:`alea.server.cluster`)
and every other process holding the game adds it to its cached lines and sends
it to its own readers of that channel (:meth:`Chats.heard`).
"""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import logging
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from limits import parse
from limits.aio.strategies import MovingWindowRateLimiter
from sqlalchemy.exc import SQLAlchemyError

from alea.server import chat_store, outage
from alea.server.clock import Clock
from alea.server.errors import ServerError
from alea.server.games import REFEREE
from alea.server.ratelimit import limit_storage
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

    @classmethod
    def from_json(cls, data: Any) -> ChatLine:
        """A line as :meth:`json` wrote it (heard from another process); ValueError if not.

        Checked, not trusted blindly: a malformed or unknown-channel line must never
        be delivered, least of all to readers of the wrong channel.
        """
        try:
            line = cls(
                int(data["idx"]),
                str(data["channel"]),
                None if data["seat"] is None else int(data["seat"]),
                str(data["role"]),
                str(data["name"]),
                str(data["text"]),
                int(data["step"]),
                float(data["at"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a chat line: {err}") from None
        if line.channel not in (PLAYERS, SPECTATORS) or line.idx < 0:
            raise ValueError(f"not a chat line: channel {line.channel!r}, idx {line.idx}")
        return line


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

    def __init__(
        self,
        store: Store,
        clock: Clock,
        rate: str,
        *,
        redis_url: str | None = None,
        prefix: str = "alea",
    ) -> None:
        self.store = store
        self.clock = clock
        self._rate = parse(rate)
        #: Counted in this process, or in Redis when several processes share the games.
        self._limiter = MovingWindowRateLimiter(limit_storage(redis_url, prefix))
        self._lines: OrderedDict[str, list[ChatLine]] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}
        #: Lines heard from other processes while the game's lines were being read.
        self._early: dict[str, list[ChatLine]] = {}
        #: Tells the other processes of a stored line (game id, the line's JSON);
        #: set by the cluster when there are several processes.
        self.announce: Callable[[str, dict[str, Any]], None] | None = None

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
                    if outage.is_outage(err):
                        raise outage.unavailable() from None
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
                for early in self._early.pop(game.id, []):
                    _insert(found, early)
                while len(self._lines) > CACHED_GAMES:
                    self._lines.popitem(last=False)
        self._loading.pop(game.id, None)
        self._early.pop(game.id, None)
        return found

    async def visible(self, game: Game, seat: int | None) -> list[dict[str, Any]]:
        """The lines of ``game`` that ``seat`` (None: a spectator) may read, as JSON."""
        return [line.json() for line in await self.lines(game) if may_read(line.channel, seat)]

    async def _admit(self, game: Game, key: str) -> None:
        try:
            if await self._limiter.hit(self._rate, "chat", game.id, key):
                return
            stats = await self._limiter.get_window_stats(self._rate, "chat", game.id, key)
        except Exception as err:  # Redis out of reach: let the line through
            log.warning("game %s: chat rate not counted (%s)", game.id, err)
            return
        retry = max(1, int(stats.reset_time - time.time() + 0.999))  # limits' own clock
        refused = ServerError("chat_too_fast", 429, retry_after=retry)
        refused.headers["Retry-After"] = str(retry)
        raise refused

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
        await self._admit(game, key)
        await self.lines(game)
        line = ChatLine(
            -1, channel_of(seat), speaker, role, shown, line_text, game.version, self.clock.now()
        )
        try:
            idx = await self.store.write(chat_store.op_add_line(game.id, line.row()))
        except StorageError as err:
            raise outage.refusal(err) from None
        line = dataclasses.replace(line, idx=idx)
        self._remember(game.id, line)
        self._deliver(game, line)
        if self.announce is not None:
            self.announce(game.id, line.json())
        return line

    def heard(self, game: Game, data: Any) -> None:
        """A line stored by another process: cache it and send it to this process's readers.

        A line already cached (read from the database after it was stored) is not
        sent again: those readers had it in their hello.
        """
        try:
            line = ChatLine.from_json(data)
        except ValueError as err:
            log.warning("game %s: a heard chat line was refused: %s", game.id, err)
            return
        if game.id in self._loading and game.id not in self._lines:
            self._early.setdefault(game.id, []).append(line)
        elif not self._remember(game.id, line):
            return
        self._deliver(game, line)

    def _remember(self, game_id: str, line: ChatLine) -> bool:
        """Add ``line`` to the cached lines of ``game_id`` (if cached); False if it was there.

        Lines are kept in idx order whatever order they arrive in. A cache that is
        not the whole log (a fan-out message was lost: idx values are missing) is
        dropped, so that the next reader reads the database, not a gapped copy.
        """
        lines = self._lines.get(game_id)
        if lines is None:
            return True
        if not _insert(lines, line):
            return False
        if lines[-1].idx != len(lines) - 1:
            # A gap: a line maybe still on its way, maybe lost; read them all next time.
            self._lines.pop(game_id, None)
        return True

    @staticmethod
    def _deliver(game: Game, line: ChatLine) -> None:
        """Send ``line`` to the connections of ``game`` here that may read its channel."""
        message = {"type": "chat", "lines": [line.json()]}
        for conn in list(game.connections):
            if may_read(line.channel, conn.seat):
                conn.send(message)


def _insert(lines: list[ChatLine], line: ChatLine) -> bool:
    """Insert ``line`` into ``lines`` (sorted by idx) unless its idx is there; True if added."""
    at = bisect.bisect_left(lines, line.idx, key=lambda x: x.idx)
    if at < len(lines) and lines[at].idx == line.idx:
        return False
    lines.insert(at, line)
    return True
