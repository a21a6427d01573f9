"""A table in memory: one :class:`Game`, its :class:`Seat` s, and who is watching.

Each unfinished game lives in memory as a :class:`Game` holding the engine's
full state (a :class:`~alea.game.GameState`, used only through the contract)
while the database
holds its event log. This module only *describes* a table and answers
questions about it (whose decision is it, may this seat see the legal moves,
which seat does this token open); changing a table is the commit path's job
(:mod:`alea.server.core`), and what clients are shown of it is
:mod:`alea.server.snapshot`'s.

A game may have a human referee (Dado Romano: RULES.md B5). The referee is a
*role* besides the seats, not a player: it is claimed like a seat (a secret
token, stored hashed) and inside the server it acts as the pseudo-seat
:data:`~alea.server.games.REFEREE` (the contract's own number for the referee's
decisions), so the usual turn check lets it, and only it, mark answers.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from alea.bots import Bot
from alea.game import AnyState, GameInfo
from alea.server import auth, wire
from alea.server.clock import Clock
from alea.server.errors import ServerError
from alea.server.games import HUMAN_REFEREE, REFEREE, SOFTWARE
from alea.server.tables import ClockRecord, GameRecord, SeatRecord
from alea.server.timecontrol import TimeControl
from alea.undo import (
    CHANCE_SINCE,
    GAME_OVER,
    NOTHING,
    OTHERS_SINCE,
    SECRET,
    UndoRefused,
    undo_point,
)

OPEN: Final = "open"
ACTIVE: Final = "active"
FINISHED: Final = "finished"
#: A table every human left for too long (:mod:`alea.server.turns`): closed, log kept.
ABANDONED: Final = "abandoned"
#: The statuses of a game that is over, one way or the other.
OVER: Final = (FINISHED, ABANDONED)

#: The server's error code for each reason :mod:`alea.undo` refuses with.
UNDO_CODES: Final = {
    NOTHING: "undo_nothing",
    CHANCE_SINCE: "undo_chance",
    OTHERS_SINCE: "undo_others",
    GAME_OVER: "game_over",
    SECRET: "undo_secret",
}

HUMAN: Final = "human"
BOT: Final = "bot"

#: What a connection or token stands for: a seat's player, the human referee, or nobody.
PLAYER_ROLE: Final = "player"
REFEREE_ROLE: Final = "referee"
SPECTATOR_ROLE: Final = "spectator"


def role_name(seat: int | None) -> str:
    """The role of a connection or token: ``player``, ``referee`` or ``spectator``."""
    if seat is None:
        return SPECTATOR_ROLE
    return REFEREE_ROLE if seat == REFEREE else PLAYER_ROLE


def clean_name(name: object, fallback: str) -> str:
    """A display name: printable, single-line, at most 24 characters."""
    if not isinstance(name, str):
        return fallback
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C").strip()
    return " ".join(text.split())[:24] or fallback


class Listener(Protocol):
    """A live connection watching a game (the WebSocket hub's ``Connection``)."""

    #: The seat it speaks for, :data:`REFEREE` for the human referee, None: a spectator.
    seat: int | None

    def mark_dirty(self) -> None:
        """The game changed: send a fresh update soon."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a small message for this connection alone (a chat line, an error)."""

    async def close(self, code: int = 1000) -> None:
        """Close the connection (the server is stopping)."""


@dataclass
class Seat:
    """One seat at the table: a human (claimed by a token or still free) or a bot."""

    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: str | None = None
    #: True while a bot plays for a human who went quiet (the human may reclaim it).
    replaced: bool = False
    #: Live WebSocket connections authenticated for this seat.
    connections: int = 0
    #: The account the seat is linked to when the server knows it (a rated table's
    #: claims); the database's ``seats.user_id`` is the record of every link.
    user_id: str | None = None

    @property
    def claimed(self) -> bool:
        return self.kind == BOT or self.token_hash is not None

    @property
    def bot_plays(self) -> bool:
        return self.kind == BOT

    def record(self) -> SeatRecord:
        return SeatRecord(
            self.seat,
            self.kind,
            self.level,
            self.name,
            self.token_hash,
            self.replaced,
            self.user_id,
        )


@dataclass
class RematchOffer:
    """A proposed rematch of a finished game (:mod:`alea.server.rematch`).

    Kept in memory only: it lives a minute (:attr:`deadline`), and a server that
    restarts meanwhile simply forgets it (anyone may propose again).
    """

    #: The seat that proposed it (it accepted by proposing).
    by: int
    #: When the seats that have not answered are given to bots (server's clock).
    deadline: float
    #: The human seats asked (every seat a person held, even one a bot took over).
    asked: frozenset[int]
    accepted: set[int] = field(default_factory=set)
    declined: set[int] = field(default_factory=set)
    #: The new game's id, once it is made: everyone at this table is pointed to it.
    game_id: str | None = None
    #: The timer that makes the game at :attr:`deadline` (cancelled when all answered).
    timer: asyncio.Task[None] | None = None

    def json(self) -> dict[str, Any]:
        """The offer as the public state shows it to everyone at the table."""
        return {
            "by": self.by,
            "deadline": self.deadline,
            "asked": sorted(self.asked),
            "accepted": sorted(self.accepted),
            "declined": sorted(self.declined),
            "game": self.game_id,
        }


@dataclass(eq=False)
class Game:
    """A game in memory: the full engine state plus who sits where and who is watching."""

    id: str
    players: int
    public: bool
    title: str
    #: When the game was created and last changed (epoch seconds of the server's clock).
    created_at: float
    updated_at: float
    status: str
    #: The engine's full state (a state of the game :attr:`info`).
    state: AnyState
    #: The seat each event of the log belongs to (None: public), parallel to its history.
    actors: list[int | None]
    seats: list[Seat]
    #: The secret source the game's chance events are drawn from.
    rng: random.Random
    #: The facts of the game played (from the registry, by the stored game name).
    info: GameInfo
    #: When the current decision began, for the idle takeover (server's clock).
    turn_since: float
    result: dict[str, Any] | None = None
    #: The time limit in minutes (Dado Romano), or None: no limit.
    time_limit: int | None = None
    #: When the time limit runs out (epoch seconds of the server's clock), fixed when play
    #: begins; None while the game is open or without a limit.
    deadline: float | None = None
    #: Who referees: ``software`` or ``human`` (Dado Romano only; see the module docstring).
    referee: str = SOFTWARE
    #: The human referee's name and token hash (None until the role is claimed).
    referee_name: str = ""
    referee_token: str | None = None
    #: Live WebSocket connections authenticated as the human referee.
    referee_connections: int = 0
    #: The typed riddle or question and answer of the current mark, stored as given
    #: (``{"key", "posed", "answer"}``; see :func:`alea.server.referee.exchange_json`).
    exchange: dict[str, Any] | None = None
    #: When each seat (or :data:`REFEREE`) that had a connection lost its last one
    #: (server's clock): presence, shown to everyone; a seat never connected has none.
    away: dict[int, float] = field(default_factory=dict)
    #: The rematch proposed after the game ended, if any.
    rematch: RematchOffer | None = None
    #: The table's time control (:mod:`alea.server.timecontrol`), None: none.
    control: TimeControl | None = None
    #: The running clock (:mod:`alea.server.turns`): the human seat whose turn is timed
    #: (None: nobody's), when that turn began, and each seat's bank left (seconds).
    clock_seat: int | None = None
    clock_started: float = 0.0
    banks: list[float] = field(default_factory=list)
    #: When a human last acted or was at the table (server's clock), for abandonment.
    human_seen: float = 0.0
    #: The ``human_seen`` this process last stored (``games.human_seen``; with several
    #: processes, so that the others know a human is here).
    seen_stored: float = 0.0
    #: The version and status the clock service last looked at (to see what changed).
    seen_version: int = -1
    seen_status: str = ""
    #: A rated table: every human seat is held by an account, and the finished game
    #: updates the ratings (:mod:`alea.server.ratings`); no hints are given in it.
    rated: bool = False
    #: The seat whose own decision each event was (None: chance, referee, clock), parallel
    #: to :attr:`actors`: what :mod:`alea.undo`'s rule reads (kept in memory, rebuilt by
    #: the replay on restart).
    deciders: list[int | None] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Reads of the stored log begun for this game (:func:`alea.server.catchup.catch_up`,
    #: each under :attr:`lock`): a lookup that sees the count move while it waits for
    #: the lock knows a read begun after it arrived has been applied, and reads no more.
    reads: int = 0
    #: With other processes: the changes announced for this game while no socket here
    #: watched it and this process held no lease on it, kept unapplied as heard (first
    #: index, events, actors; :meth:`alea.server.cluster.Cluster._heard`), so that a
    #: socket that attaches is shown the game as it stands even while the database is
    #: out of reach (:meth:`alea.server.cluster.Cluster.follow`); None for one that said
    #: no more than "changed", or for more than was kept: the log must be read.
    heard: list[tuple[int, list[str], list[int | None]] | None] = field(default_factory=list)
    #: Since when (the server's clock) :attr:`heard` has held something.
    behind_since: float = 0.0
    connections: set[Listener] = field(default_factory=set)
    #: The task playing the bots' consecutive turns (see :mod:`alea.server.seats`).
    bot_task: asyncio.Task[None] | None = None
    #: The bot object playing each seat, with the level it was made for.
    bots: dict[int, tuple[str, Bot]] = field(default_factory=dict)
    bot_rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))
    #: Names the log as this process holds it: a random number when the game is loaded,
    #: bumped whenever events are taken back (an undo, a reload). A connection sent
    #: entries of another epoch gets the whole log again, never keeping a stale entry.
    log_epoch: int = field(default_factory=lambda: secrets.randbits(30))
    #: How many events the game's stored snapshot covers (0: none; :mod:`.state_snapshots`).
    snapshot_at: int = 0
    #: Bumped on every change anyone may see (events, seats, presence): invalidates caches.
    stamp: int = 0
    #: Encoded snapshots by seat, each with the stamp it was built at (:mod:`.snapshot`).
    seat_cache: dict[int, tuple[int, str]] = field(default_factory=dict)
    shared_cache: tuple[int, str, str] | None = None

    @property
    def game_name(self) -> str:
        """The short name of the game played: the stored ``games.game``."""
        return self.info.name

    @property
    def behind(self) -> bool:
        """Whether changes were announced that this copy did not apply (:attr:`heard`):
        a lookup reads the log anyway; a socket that attaches has it caught up first."""
        return bool(self.heard)

    @property
    def heard_version(self) -> int | None:
        """The version this copy reaches once the announcements it kept are applied (its
        own if none); None if one says only "changed" (the log must be read)."""
        if not self.heard:
            return self.version
        last = self.heard[-1]
        if last is None or None in self.heard:
            return None
        start, events, _ = last
        return start + len(events)

    @property
    def version(self) -> int:
        """How many events the log holds: the number clients quote with their actions."""
        return len(self.state.history)

    def to_move(self) -> int | None:
        """The seat whose decision is next, or None (chance never waits; terminal; referee)."""
        player = self.state.current_player()
        return player if player >= 0 else None

    @property
    def human_referee(self) -> bool:
        """Whether a person referees this game (a role besides the seats)."""
        return self.referee == HUMAN_REFEREE

    @property
    def referee_ready(self) -> bool:
        """Whether play may begin as far as the referee goes (software, or the role claimed)."""
        return not self.human_referee or self.referee_token is not None

    def all_claimed(self, but: int | None = None) -> bool:
        """Whether every seat (except ``but``) and the referee role are taken: play may begin."""
        return self.referee_ready and all(s.claimed for s in self.seats if s.seat != but)

    def referee_to_move(self) -> bool:
        """Whether the game waits for the human referee to mark an answer."""
        return (
            self.status == ACTIVE and self.human_referee and self.state.current_player() == REFEREE
        )

    def decides(self, seat: int | None) -> bool:
        """Whether ``seat`` (or :data:`REFEREE`) is to decide now as a person (legal shown)."""
        if seat is None or self.status != ACTIVE:
            return False
        if seat == REFEREE:
            return self.referee_to_move()
        return self.to_move() == seat and not self.seats[seat].bot_plays

    def legal_for(self, seat: int | None) -> list[str]:
        """The legal actions shown to ``seat``: its own decision's, else none."""
        if not self.decides(seat):
            return []
        return [str(a) for a in self.state.legal_actions()]

    def undo_index(self, seat: int) -> int:
        """The log index ``seat`` would take its events back to (:mod:`alea.undo`'s rule,
        every later decision blocking it), or the typed refusal saying why not."""
        if seat < 0 or seat >= len(self.seats) or self.seats[seat].bot_plays:
            raise ServerError("undo_others", 409)
        try:
            return undo_point(self.state, self.deciders, seat)
        except UndoRefused as err:
            raise ServerError(UNDO_CODES[err.reason], 409, detail=str(err)) from None

    def may_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back its last decision now (the table's Undo button):
        a person's seat, an active unrated game, and the rule allows it."""
        if seat is None or self.status != ACTIVE or getattr(self, "rated", False):
            return False
        # Asked for every seat on every update: under the server's rule (no seat's later
        # decisions pass) only a log ending in the seat's own decision can be taken back,
        # so every other case is answered without the search (and its exception).
        if not self.deciders or self.deciders[-1] != seat:
            return False
        try:
            self.undo_index(seat)
        except ServerError:
            return False
        return True

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat``; the referee sees the public table, like a spectator."""
        return self.state.view(None if seat == REFEREE else seat)

    def view_text(self, seat: int | None) -> str:
        """:meth:`view_for` as the wire's JSON text, the seats' common part written once per
        position by the engine (``GameState.view_text``)."""
        return self.state.view_text(None if seat == REFEREE else seat, wire.dumps)

    def log_entries(self, seat: int | None, start: int) -> list[list[Any]]:
        """``[event, actor]`` pairs of the log as ``seat`` may see it, from ``start`` on."""
        shown = self.state.log(None if seat == REFEREE else seat, start)
        return [[e, a] for e, a in zip(shown, self.actors[start:], strict=True)]

    def current_exchange(self) -> dict[str, Any]:
        """The stored exchange if it is about the item asked now, else ``{}``.

        The exchange lives only as long as its mark: one stored for an earlier
        item (another key) is out of date.
        """
        asked = self.state.asked()
        stored = self.exchange
        return stored if stored and asked is not None and stored.get("key") == asked.key else {}

    def takeover_at(self, clock: Clock) -> float | None:
        """When others may hand the seat to move to a bot (None: not a human's turn)."""
        seat = self.to_move()
        if self.status != ACTIVE or seat is None or self.seats[seat].bot_plays:
            return None
        return clock.takeover_at(self.turn_since)

    def begin(self, deadline: float | None, now: float) -> None:
        """Play begins (every seat, and a human referee role, is taken): the game is
        active, the first decision's idle clock starts, and so does the time limit."""
        self.status = ACTIVE
        self.deadline = deadline
        self.turn_since = now

    def rewound(self) -> None:
        """Events were taken back: every connection's log must be sent anew."""
        self.log_epoch = (self.log_epoch + 1) % (1 << 30)

    def changed(self) -> None:
        """Invalidate cached messages and wake every connection."""
        self.stamp += 1
        for conn in self.connections:
            conn.mark_dirty()

    def only_time_up_since(self, version: object) -> bool:
        """Whether every event after ``version`` is the clock's ``last-round``.

        That event changes neither whose turn it is nor what they may do, so a move
        chosen just before the time ran out is still accepted rather than bounced
        as stale (the player would only have to click the same button again).
        """
        event = self.info.time_up_action
        if event is None or not isinstance(version, int) or not 0 <= version < self.version:
            return False
        return all(e == event for e in self.state.history[version:])

    def seat_for_token(self, token: str) -> int | None:
        """The seat ``token`` belongs to, :data:`REFEREE` for the referee's, or None."""
        for s in self.seats:
            if auth.token_matches(token, s.token_hash):
                return s.seat
        if auth.token_matches(token, self.referee_token):
            return REFEREE
        return None

    def authenticate(self, token: object) -> int:
        """The seat ``token`` belongs to (:data:`REFEREE` for the referee), or ``bad_token``."""
        if not isinstance(token, str) or not token or len(token) > 200:
            raise ServerError("bad_token", 403)
        seat = self.seat_for_token(token)
        if seat is None:
            raise ServerError("bad_token", 403)
        return seat

    # ------------------------------------------------------------- presence

    def attach(self, conn: Listener, seat: int | None, now: float = 0.0) -> None:
        """Count ``conn`` as watching (as ``seat``, the referee, or a spectator).

        ``now`` (the server's clock) is when a seat whose socket moves to another
        seat (a spectator who claims one) was left.
        """
        if conn in self.connections:
            self._count(conn.seat, -1, now)
        self.connections.add(conn)
        conn.seat = seat
        self._count(seat, 1, now)
        self.changed()

    def detach(self, conn: Listener, now: float = 0.0) -> None:
        """``conn`` has gone (at ``now``, the server's clock: the seat is away since then)."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        self._count(conn.seat, -1, now)
        self.changed()

    def live_connections(self, seat: int) -> int:
        """How many sockets speak for ``seat`` (or :data:`REFEREE`) now."""
        return self.referee_connections if seat == REFEREE else self.seats[seat].connections

    def live_seats(self) -> frozenset[int]:
        """The seats with at least one socket here (presence told to other processes)."""
        return frozenset(s.seat for s in self.seats if s.connections > 0)

    def away_since(self, seat: int) -> float | None:
        """Since when ``seat`` (or the referee) has had no connection; None: connected, or
        never connected since the server started (presence is not stored)."""
        return None if self.live_connections(seat) > 0 else self.away.get(seat)

    def _count(self, seat: int | None, delta: int, now: float) -> None:
        """Move the live-connection count of ``seat`` (or of the referee) by ``delta``,
        and note when it fell to none (presence: away since ``now``)."""
        if seat is None:
            return
        if seat == REFEREE:
            self.referee_connections += delta
        else:
            self.seats[seat].connections += delta
        if self.live_connections(seat) > 0:
            self.away.pop(seat, None)
        else:
            self.away[seat] = now


def new_game_record(
    game_id: str,
    game: str,
    events: Sequence[str],
    seats: list[SeatRecord],
    now: float,
    *,
    public: bool,
    title: str,
    time_limit: int | None,
    referee: str,
    referee_name: str,
    referee_token: str | None,
    rated: bool,
    control: TimeControl | None,
) -> GameRecord:
    """The row of a game just created: open, its log the set-up chance drawn (``events``),
    and its time control's clock with a full bank for every seat."""
    record = GameRecord(
        id=game_id,
        players=len(seats),
        status=OPEN,
        public=public,
        title=title,
        created_at=now,
        updated_at=now,
        version=len(events),
        result=None,
        seats=seats,
        events=list(events),
        game=game,
        time_limit=time_limit,
        deadline=None,
        referee=referee,
        referee_name=referee_name or None,
        referee_token=referee_token,
        rated=rated,
    )
    if control is not None:
        record.clock = ClockRecord(
            control.mode,
            control.per_move,
            control.bank,
            control.on_timeout,
            banks=[float(control.bank)] * len(seats),
        )
    return record
