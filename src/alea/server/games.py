"""Games in memory and the rules of the room: create, claim, act, bots, takeover.

Each unfinished game lives in memory as a :class:`Game` holding the engine's
full :class:`~alea.iacta.State`; the database holds its event log. An action
goes through :meth:`GameServer.act`, which, under the game's lock:

1. checks the status, the version the client saw, the turn and the notation;
2. applies the action to a *copy* of the state, then draws every chance
   event that follows (rolls, reveals, draws) with the game's secret random
   source, on the copy;
3. commits the new events in one write (group-committed with other games);
4. only then swaps the copy in and tells the connections.

So a refused or failed action changes nothing anywhere, and nobody is ever
told of an action that is not on disk.

Time limits (Dado Romano, RULES.md B1) take the same path. The deadline is
fixed when play begins (the status turns ``active``) and stored with that
status change; one watcher task (:meth:`GameServer._watch_deadlines`, started
and stopped with the server) sleeps until the next deadline and then applies
the kind's ``last-round`` event under the game's lock, committed before anyone
hears of it, exactly like a move. After a restart every stored deadline is
watched again, so an overdue game gets its ``last-round`` at once; the event is
in the replayed log once applied, and the engine refuses a second one, so it is
never applied twice.

A Dado Romano game may have a human referee (RULES.md B5). The referee is a
*role* besides the seats, not a player: it is claimed like a seat (a secret
token, stored hashed), the game stays ``open`` until it is claimed, and inside
the server it acts as the pseudo-seat :data:`~alea.server.kinds.REFEREE` (the
engine's own number for the referee's decisions), so the usual turn check lets
it, and only it, mark answers. Bots never referee and the idle takeover never
concerns it: while the referee is to mark, no seat is to move, so nobody can be
"taken over" and the table simply waits. While an answer awaits its mark, the
referee may type the riddle or question and the answering player their answer
(:meth:`GameServer.say`); that exchange is stored with the game, not in the
event log.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import logging
import random
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final, Literal

import alea.iacta as iacta
from alea.iacta.cards import PLAYER_COLOURS
from alea.server import auth
from alea.server.config import BOT_LEVELS, Bot, Settings
from alea.server.kinds import (
    HUMAN_REFEREE,
    IACTA,
    REFEREE,
    REFEREES,
    SOFTWARE,
    BadMove,
    ChanceMove,
    Kind,
    RefereeMove,
    kind,
)
from alea.server.storage import (
    GameRecord,
    SeatRecord,
    StorageError,
    Store,
    VersionConflict,
    op_append_events,
    op_claim_referee,
    op_create_game,
    op_set_exchange,
    op_update_seats,
)

if TYPE_CHECKING:
    from alea.server.hub import Connection

log = logging.getLogger("alea.server")

OPEN = "open"
ACTIVE = "active"
FINISHED = "finished"

HUMAN = "human"
BOT = "bot"

#: Default names of bots, by seat: Romans of the late Republic.
BOT_NAMES = ("Cicero", "Livia", "Brutus", "Cornelia", "Cassius", "Octavia")

#: The time limits a creator may choose, in minutes (0 or None: no limit). Ten hours is
#: far longer than any game, yet small enough to catch a limit typed in seconds.
MIN_TIME_LIMIT: Final = 1
MAX_TIME_LIMIT: Final = 600
#: Seconds before the watcher tries again to declare a last round it could not store.
DEADLINE_RETRY: Final = 1.0
#: Most characters of a typed riddle, question or answer (a sentence or two, not a chat).
EXCHANGE_MAX: Final = 280

#: What a connection or token stands for: a seat's player, the human referee, or nobody.
PLAYER_ROLE: Final = "player"
REFEREE_ROLE: Final = "referee"
SPECTATOR_ROLE: Final = "spectator"


class _Default(enum.Enum):
    """The type of :data:`DEFAULT`: "the creator did not say" (which is not None: no limit)."""

    DEFAULT = "default"


#: ``time_limit`` not given: the kind's default (one hour for Dado Romano, none for Iacta).
DEFAULT: Final = _Default.DEFAULT
TimeLimit = int | None | Literal[_Default.DEFAULT]


#: Compact JSON without the circular-reference check (the data is plain and acyclic).
_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


class ServerError(Exception):
    """A refusal with a stable ``code`` (see :mod:`alea.server.i18n`) and an HTTP status."""

    def __init__(self, code: str, status: int = 400, detail: str = "", **params: Any) -> None:
        super().__init__(f"{code}: {detail or params}")
        self.code = code
        self.status = status
        self.detail = detail
        self.params = params


def actor_of(state: iacta.State) -> int | None:
    """The seat an event about to be applied belongs to (None for public reveals)."""
    return kind(IACTA).actor_of(state)


def utc_text(timestamp: float | None) -> str | None:
    """``timestamp`` (epoch seconds) as ISO 8601 UTC (``2026-01-01T12:00:00Z``), or None."""
    if timestamp is None:
        return None
    moment = datetime.fromtimestamp(timestamp, tz=UTC)
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


def clean_name(name: object, fallback: str) -> str:
    """A display name: printable, single-line, at most 24 characters."""
    if not isinstance(name, str):
        return fallback
    text = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C").strip()
    return " ".join(text.split())[:24] or fallback


def clean_text(text: object, limit: int = EXCHANGE_MAX) -> str:
    """A typed riddle, question or answer: printable, single-line, at most ``limit`` characters.

    Cleaned like names (control characters dropped, whitespace collapsed), since
    it is shown to everyone at the table; '' if nothing printable is left.
    """
    if not isinstance(text, str):
        return ""
    kept = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())[:limit]


def role_name(seat: int | None) -> str:
    """The role of a connection or token: ``player``, ``referee`` or ``spectator``."""
    if seat is None:
        return SPECTATOR_ROLE
    return REFEREE_ROLE if seat == REFEREE else PLAYER_ROLE


def result_summary(state: iacta.State) -> dict[str, Any]:
    """Scores, tie-breaks and winners of a finished game (stored with the game row)."""
    return kind(IACTA).result_summary(state)


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

    @property
    def claimed(self) -> bool:
        return self.kind == BOT or self.token_hash is not None

    @property
    def bot_plays(self) -> bool:
        return self.kind == BOT

    def record(self) -> SeatRecord:
        return SeatRecord(
            self.seat, self.kind, self.level, self.name, self.token_hash, self.replaced
        )

    def to_json(self, colour: str | None = None) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "colour": colour or PLAYER_COLOURS[self.seat],
            "kind": self.kind,
            "level": self.level,
            "name": self.name,
            "claimed": self.claimed,
            "connected": self.connections > 0,
            "replaced": self.replaced,
        }


@dataclass(eq=False)
class Game:
    """A game in memory: the full engine state plus who sits where and who is watching."""

    id: str
    players: int
    public: bool
    title: str
    created_at: float
    status: str
    #: The engine's full state (``alea.iacta.State`` or ``alea.romano.State``, by ``game``).
    state: Any
    actors: list[int | None]
    seats: list[Seat]
    rng: random.Random
    #: The game kind: ``iacta`` or ``romano`` (see :mod:`alea.server.kinds`).
    game: str = IACTA
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
    #: The typed riddle or question and answer of the current mark (see :meth:`exchange_json`).
    exchange: dict[str, Any] | None = None
    updated_at: float = field(default_factory=time.time)
    #: When the current decision began (wall clock), for the idle takeover.
    turn_since: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    #: The bot object playing each seat, with the level it was made for.
    bots: dict[int, tuple[str, Bot]] = field(default_factory=dict)
    bot_rng: random.Random = field(default_factory=lambda: random.Random(secrets.randbits(64)))
    #: Bumped on every change anyone may see (events, seats, presence): invalidates caches.
    stamp: int = 0
    _cache: dict[int, tuple[int, str]] = field(default_factory=dict)
    _shared: tuple[int, str, str] | None = None

    @property
    def kind(self) -> Kind:
        """The rules engine of this game's kind."""
        return kind(self.game)

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
            self.status == ACTIVE and self.human_referee and self.kind.referee_to_move(self.state)
        )

    def decides(self, seat: int | None) -> bool:
        """Whether ``seat`` (or :data:`REFEREE`) is to decide now as a person (legal shown)."""
        if seat is None or self.status != ACTIVE:
            return False
        if seat == REFEREE:
            return self.referee_to_move()
        return self.to_move() == seat and not self.seats[seat].bot_plays

    def view_for(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat``; the referee sees the public table, like a spectator."""
        return self.kind.view(self.state, None if seat == REFEREE else seat)

    def referee_json(self) -> dict[str, Any] | None:
        """The human referee role as clients show it (None: the software referees)."""
        if not self.human_referee:
            return None
        return {
            "name": self.referee_name,
            "claimed": self.referee_token is not None,
            "connected": self.referee_connections > 0,
        }

    def exchange_json(self) -> dict[str, Any] | None:
        """The typed exchange of the answer awaiting its mark (None when nothing awaits one).

        ``posed`` is the referee's riddle or question, ``answer`` the answering
        seat's reply (each None until typed). A stored exchange of an earlier
        item is not shown: the exchange lives only as long as its mark.
        """
        if not self.referee_to_move():
            return None
        rules = self.kind
        key = rules.exchange_key(self.state)
        found = self.exchange if self.exchange and self.exchange.get("key") == key else {}
        return {
            "seat": rules.answering_seat(self.state),
            "kind": str(self.state.item_kind),
            "posed": found.get("posed"),
            "answer": found.get("answer"),
        }

    def begin(self, deadline: float | None) -> None:
        """Play begins (every seat, and a human referee role, is taken): the game is
        active, the first decision's idle clock starts, and so does the time limit."""
        self.status = ACTIVE
        self.deadline = deadline
        self.turn_since = time.time()

    def changed(self) -> None:
        """Invalidate cached messages and wake every connection."""
        self.stamp += 1
        for conn in self.connections:
            conn.mark_dirty()

    def seats_json(self) -> list[dict[str, Any]]:
        rules = self.kind
        return [s.to_json(rules.colour(s.seat)) for s in self.seats]

    def info(self) -> dict[str, Any]:
        """The public summary of the game (lobby entry, ``GET /api/games/{id}``)."""
        round_, rounds = self.kind.rounds(self.state)
        return {
            "id": self.id,
            "game": self.game,
            "players": self.players,
            "status": self.status,
            "public": self.public,
            "title": self.title,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "version": self.version,
            "round": round_,
            "rounds": rounds,
            "to_move": self.to_move(),
            "seats": self.seats_json(),
            "open_seats": [s.seat for s in self.seats if not s.claimed],
            "spectators": sum(1 for c in self.connections if c.seat is None),
            "result": self.result,
            "clock": self.clock_json(),
            "referee": self.referee_json(),
        }

    def clock_json(self) -> dict[str, Any] | None:
        """The time limit as clients show it (None: the game has none).

        The deadline rather than the time left, so the JSON changes only when the
        game does (it is cached per change) and each client counts down by itself.
        """
        if self.time_limit is None:
            return None
        return {
            "time_limit": self.time_limit,
            "deadline": self.deadline,
            "deadline_utc": utc_text(self.deadline),
            "last_round": self.kind.last_round_declared(self.state),
        }

    def takeover_at(self, idle_timeout: float) -> float | None:
        """When others may hand the seat to move to a bot (None: not a human's turn)."""
        seat = self.to_move()
        if self.status != ACTIVE or seat is None or self.seats[seat].bot_plays:
            return None
        return self.turn_since + idle_timeout

    def log_entries(self, seat: int | None, start: int) -> list[list[Any]]:
        """``[event, actor]`` pairs of the log as ``seat`` may see it, from ``start`` on."""
        shown = self.kind.log(self.state, None if seat == REFEREE else seat)
        return [[e, a] for e, a in zip(shown[start:], self.actors[start:], strict=True)]

    def update_message(self, seat: int | None, start: int, idle_timeout: float) -> str:
        """The ``update`` message for ``seat`` carrying the log from entry ``start`` on.

        This is the server's hot path (every accepted action sends one to every
        connection), so the message is assembled from JSON text: the parts every
        seat shares are encoded once per change, each seat's view and legal
        moves once per change, and only the log delta per connection.
        """
        key = -1 if seat is None else seat  # the referee's key is REFEREE (-5)
        cached = self._cache.get(key)
        if cached is None or cached[0] != self.stamp:
            shared = self._shared_json(idle_timeout)
            state = self.state
            legal = "[]"
            if self.decides(seat):
                legal = _encode([str(a) for a in state.legal_actions()])
            shown_seat = None if seat == REFEREE else seat
            core = (
                f'{{"type":"update",{shared[0]},"seat":{_encode(shown_seat)},'
                f'"role":{_encode(role_name(seat))},'
                f'"view":{_encode(self.view_for(seat))},"legal":{legal},{shared[1]}'
            )
            self._cache[key] = (self.stamp, core)
        else:
            core = cached[1]
        entries = _encode(self.log_entries(seat, start))
        return f'{core},"log_start":{start},"log":{entries}}}'

    def _shared_json(self, idle_timeout: float) -> tuple[str, str]:
        """The parts of an update that every seat shares, as JSON text (cached per change)."""
        if self._shared is None or self._shared[0] != self.stamp:
            head = (
                f'"game":{_encode(self.id)},"status":{_encode(self.status)},'
                f'"version":{self.version}'
            )
            tail = (
                f'"seats":{_encode(self.seats_json())},"turn_since":{_encode(self.turn_since)},'
                f'"takeover_at":{_encode(self.takeover_at(idle_timeout))},'
                f'"clock":{_encode(self.clock_json())},'
                f'"referee":{_encode(self.referee_json())},'
                f'"exchange":{_encode(self.exchange_json())}'
            )
            self._shared = (self.stamp, head, tail)
        return self._shared[1], self._shared[2]

    def seat_for_token(self, token: str) -> int | None:
        """The seat ``token`` belongs to, :data:`REFEREE` for the referee's, or None."""
        for s in self.seats:
            if auth.token_matches(token, s.token_hash):
                return s.seat
        if auth.token_matches(token, self.referee_token):
            return REFEREE
        return None


@dataclass
class SeatSpec:
    """What the creator asks for one seat."""

    kind: str = HUMAN
    level: str | None = None
    name: str = ""


@dataclass
class Created:
    """A new game, and the creator's seat and token if the creator sat down.

    ``role`` says what the token is for: ``player`` (``seat`` is theirs),
    ``referee`` (the human referee; ``seat`` is None) or ``spectator`` (no token).
    """

    game: Game
    seat: int | None
    token: str | None
    role: str = SPECTATOR_ROLE


class GameServer:
    """Every game of one server process, its store and its bots."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.games: dict[str, Game] = {}
        self._finished_order: list[str] = []
        self._bot_factory: Callable[[str], Bot] | None = settings.bot_factory
        self._closing = False
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Games whose time limit has not yet made its last round: id -> deadline.
        self._deadlines: dict[str, float] = {}
        self._deadline_wake: asyncio.Event | None = None
        self._deadline_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Start the writer, rebuild every unfinished game from its log, watch the deadlines."""
        self.store.start()
        records = await asyncio.to_thread(self.store.load_unfinished)
        for record in records:
            try:
                game = self._rebuild(record)
            except (iacta.IllegalActionError, ValueError, StorageError, KeyError) as err:
                log.error("game %s cannot be rebuilt from its log: %s", record.id, err)
                continue
            self.games[game.id] = game
        for game in list(self.games.values()):
            if game.state.is_chance():
                # Never happens with logs this server wrote (chance is committed with the
                # action before it), but a log cut short by hand must not hang the game.
                await self._advance_chance(game)
            self.schedule_bots(game)
            self._watch(game)
        self._deadline_wake = asyncio.Event()
        self._deadline_task = asyncio.get_running_loop().create_task(
            self._watch_deadlines(), name="alea-deadlines"
        )
        log.info("rebuilt %d unfinished games", len(records))

    async def stop(self) -> None:
        """Stop the deadline watcher and the bots, close connections and flush the store."""
        self._closing = True
        if self._deadline_task is not None:
            assert self._deadline_wake is not None
            self._deadline_wake.set()  # it finishes a declaration under way, then returns
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._deadline_task
            self._deadline_task = None
        for game in self.games.values():
            if game.bot_task is not None:
                game.bot_task.cancel()
        tasks = [g.bot_task for g in self.games.values() if g.bot_task is not None]
        tasks.extend(self._tasks)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for game in self.games.values():
            for conn in list(game.connections):
                await conn.close(1001)
        await self.store.close()

    def _rebuild(self, record: GameRecord) -> Game:
        rules = kind(record.game)
        state = rules.new_game(record.players, record.referee)
        actors: list[int | None] = []
        for index, token in enumerate(record.events):
            actors.append(rules.actor_of(state))
            try:
                state.apply(token)
            except rules.illegal as err:
                raise ValueError(f"event {index} ({token}): {err}") from None
        if record.version != len(record.events):
            raise StorageError(
                f"game {record.id}: version {record.version} but {len(record.events)} events"
            )
        seats = [
            Seat(s.seat, s.kind, s.level, s.name, s.token_hash, s.replaced) for s in record.seats
        ]
        return Game(
            id=record.id,
            players=record.players,
            public=record.public,
            title=record.title,
            created_at=record.created_at,
            updated_at=record.updated_at,
            status=record.status,
            state=state,
            actors=actors,
            seats=seats,
            rng=self.settings.chance_rng(),
            result=record.result,
            game=record.game,
            time_limit=record.time_limit,
            deadline=record.deadline,
            referee=record.referee,
            referee_name=record.referee_name or "",
            referee_token=record.referee_token,
            exchange=record.exchange,
        )

    # --------------------------------------------------------------- lookup

    async def get(self, game_id: str) -> Game:
        """The game ``game_id`` (finished games are loaded from the store on demand)."""
        game = self.games.get(game_id)
        if game is not None:
            return game
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 32:
            raise ServerError("no_such_game", 404, game=str(game_id)[:40])
        record = await asyncio.to_thread(self.store.load_game, game_id)
        if record is None:
            raise ServerError("no_such_game", 404, game=game_id)
        game = self.games.get(game_id)  # loaded meanwhile by someone else?
        if game is None:
            game = self._rebuild(record)
            self.games[game_id] = game
            if game.status == FINISHED:
                self._remember_finished(game_id)
            else:  # started by another process on the same database
                self._watch(game)
        return game

    def _remember_finished(self, game_id: str) -> None:
        """Keep at most ``finished_cache`` finished games in memory (watched ones stay)."""
        self._finished_order.append(game_id)
        excess = len(self._finished_order) - self.settings.finished_cache
        if excess <= 0:
            return
        kept: list[str] = []
        for old in self._finished_order:
            game = self.games.get(old)
            if excess > 0 and (game is None or not game.connections):
                self.games.pop(old, None)
                excess -= 1
            else:
                kept.append(old)
        self._finished_order = kept

    def lobby(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        """Public games in memory, newest first; ``status`` filters (open/active/finished)."""
        found = [
            g for g in self.games.values() if g.public and (status is None or g.status == status)
        ]
        found.sort(key=lambda g: g.created_at, reverse=True)
        return [g.info() for g in found[:limit]]

    def authenticate(self, game: Game, token: object) -> int:
        """The seat ``token`` belongs to (:data:`REFEREE` for the referee), or ``bad_token``."""
        if not isinstance(token, str) or not token or len(token) > 200:
            raise ServerError("bad_token", 403)
        seat = game.seat_for_token(token)
        if seat is None:
            raise ServerError("bad_token", 403)
        return seat

    # -------------------------------------------------------------- creation

    async def create(
        self,
        specs: list[SeatSpec],
        *,
        public: bool = True,
        title: str = "",
        claim: int | None = None,
        name: str = "",
        game_kind: str = IACTA,
        time_limit: TimeLimit = DEFAULT,
        referee: str = SOFTWARE,
        as_referee: bool = False,
    ) -> Created:
        """Create a game: seats, the set-up chance events, and the creator's seat if any.

        ``time_limit`` is in minutes (:data:`DEFAULT`: the kind's default; 0 or None: no
        limit); its clock starts when play begins, i.e. when every seat is taken.
        ``referee`` is ``software`` or ``human`` (Dado Romano only); with ``as_referee``
        the creator takes the referee role (and no seat: the referee is not a player).
        """
        try:
            rules = kind(game_kind)
        except KeyError:
            raise ServerError("bad_request", 422, detail=f"unknown game {game_kind!r}") from None
        limit = time_limit_for(rules, time_limit)
        if referee not in REFEREES:
            raise ServerError("bad_referee", 422, detail=f"unknown referee {referee!r}")
        if referee == HUMAN_REFEREE and not rules.human_referee:
            raise ServerError(
                "bad_referee", 422, detail=f"{rules.name} games have no human referee"
            )
        if as_referee and referee != HUMAN_REFEREE:
            raise ServerError(
                "bad_referee", 422, detail="only a game with a human referee has a referee role"
            )
        if as_referee and claim is not None:
            raise ServerError(
                "bad_referee", 422, detail="the referee is not a player: do not claim a seat too"
            )
        n = len(specs)
        lo, hi = rules.min_players, rules.max_players
        if not lo <= n <= hi:
            raise ServerError("bad_request", 422, detail=f"a game has {lo} to {hi} seats")
        seats: list[Seat] = []
        for i, spec in enumerate(specs):
            if spec.kind == BOT:
                level = spec.level or "medium"
                if level not in BOT_LEVELS:
                    raise ServerError("bad_request", 422, detail=f"unknown bot level {level!r}")
                seats.append(Seat(i, BOT, level, clean_name(spec.name, BOT_NAMES[i])))
            elif spec.kind == HUMAN:
                seats.append(Seat(i, HUMAN, None, clean_name(spec.name, "")))
            else:
                raise ServerError("bad_request", 422, detail=f"unknown seat kind {spec.kind!r}")
        token: str | None = None
        role = SPECTATOR_ROLE
        referee_name = ""
        referee_token: str | None = None
        if as_referee:
            token = auth.new_token()
            referee_token = auth.hash_token(token)
            referee_name = clean_name(name, "Referee")
            role = REFEREE_ROLE
        if claim is not None:
            if not 0 <= claim < n or seats[claim].kind != HUMAN:
                raise ServerError("bad_request", 422, detail="the creator must claim a human seat")
            token = auth.new_token()
            seats[claim].token_hash = auth.hash_token(token)
            seats[claim].name = clean_name(name, seats[claim].name or f"Player {claim + 1}")
            role = PLAYER_ROLE
        rng = self.settings.chance_rng()
        state = rules.new_game(n, referee)
        actors: list[int | None] = []
        while state.is_chance():
            actors.append(rules.actor_of(state))
            state.apply(state.sample_chance(rng))
        ready = referee == SOFTWARE or referee_token is not None
        status = ACTIVE if ready and all(s.claimed for s in seats) else OPEN
        now = time.time()
        deadline = self._deadline_from_now(limit) if status == ACTIVE else None
        game = Game(
            id=auth.new_game_id(),
            players=n,
            public=public,
            title=clean_name(title, "")[:80],
            created_at=now,
            updated_at=now,
            status=status,
            state=state,
            actors=actors,
            seats=seats,
            rng=rng,
            game=rules.name,
            time_limit=limit,
            deadline=deadline,
            referee=referee,
            referee_name=referee_name,
            referee_token=referee_token,
        )
        record = GameRecord(
            id=game.id,
            players=n,
            status=status,
            public=public,
            title=game.title,
            created_at=now,
            updated_at=now,
            version=len(state.history),
            result=None,
            seats=[s.record() for s in seats],
            events=list(state.history),
            game=rules.name,
            time_limit=limit,
            deadline=deadline,
            referee=referee,
            referee_name=referee_name or None,
            referee_token=referee_token,
        )
        await self._write(op_create_game(record, actors))
        self.games[game.id] = game
        self.schedule_bots(game)
        self._watch(game)
        return Created(game, claim, token, role)

    async def claim(self, game: Game, seat: int, name: object) -> str:
        """Give the free human seat ``seat`` to whoever asks first; return its token."""
        async with game.lock:
            if not 0 <= seat < game.players:
                raise ServerError("no_such_seat", 404, seat=seat)
            target = game.seats[seat]
            if target.claimed:
                raise ServerError("seat_taken", 409, seat=seat)
            if game.status == FINISHED:
                raise ServerError("game_over", 409)
            token = auth.new_token()
            updated = Seat(
                seat, HUMAN, None, clean_name(name, f"Player {seat + 1}"), auth.hash_token(token)
            )
            status = ACTIVE if game.all_claimed(but=seat) else None
            deadline = self._deadline_from_now(game.time_limit) if status is not None else None
            await self._write(
                op_update_seats(game.id, [updated.record()], status=status, deadline=deadline)
            )
            updated.connections = target.connections
            game.seats[seat] = updated
            if status is not None:
                game.begin(deadline)
            game.updated_at = time.time()
        game.changed()
        self.schedule_bots(game)
        self._watch(game)
        return token

    async def claim_referee(self, game: Game, name: object) -> str:
        """Give the human referee role to whoever asks first; return its token.

        Like a seat claim: the token is shown once and stored hashed, and the claim
        that completes the table starts play (and the time limit's clock).
        """
        async with game.lock:
            if not game.human_referee:
                raise ServerError(
                    "bad_referee", 409, detail="this game is refereed by the software"
                )
            if game.referee_token is not None:
                raise ServerError("referee_taken", 409)
            if game.status == FINISHED:
                raise ServerError("game_over", 409)
            token = auth.new_token()
            hashed = auth.hash_token(token)
            referee_name = clean_name(name, "Referee")
            start = game.status == OPEN and all(s.claimed for s in game.seats)
            status = ACTIVE if start else None
            deadline = self._deadline_from_now(game.time_limit) if start else None
            try:
                await self._write(
                    op_claim_referee(
                        game.id, referee_name, hashed, status=status, deadline=deadline
                    )
                )
            except VersionConflict:
                raise ServerError("referee_taken", 409) from None
            game.referee_token, game.referee_name = hashed, referee_name
            if status is not None:
                game.begin(deadline)
            game.updated_at = time.time()
        game.changed()
        self.schedule_bots(game)
        self._watch(game)
        return token

    async def say(self, game: Game, who: int, text: object) -> None:
        """Type the referee's riddle or question (``who`` is :data:`REFEREE`) or the answer.

        Only while an answer awaits the human referee's mark: the referee poses,
        the answering seat replies, each may retype theirs; anyone else is refused.
        The exchange is stored (so a reload or restart shows it) before anyone
        hears of it, like a move, but it is not an engine event.
        """
        cleaned = clean_text(text)
        if not cleaned:
            raise ServerError(
                "malformed", detail=f"'text' must be 1 to {EXCHANGE_MAX} printable characters"
            )
        async with game.lock:
            if game.status == FINISHED:
                raise ServerError("game_over", 409)
            if not game.referee_to_move():
                raise ServerError("not_marking", 409)
            rules = game.kind
            key = rules.exchange_key(game.state)
            if who == REFEREE:
                field_name = "posed"
            elif who == rules.answering_seat(game.state):
                field_name = "answer"
            else:
                raise ServerError("not_your_turn", 409)
            old = game.exchange if game.exchange and game.exchange.get("key") == key else {}
            exchange = {"key": key, "posed": old.get("posed"), "answer": old.get("answer")}
            exchange[field_name] = cleaned
            await self._write(op_set_exchange(game.id, exchange))
            game.exchange = exchange
            game.updated_at = time.time()
        game.changed()

    async def fill_with_bots(self, game: Game, by_seat: int, level: str) -> None:
        """Seat bots in every free seat so the game can start now (a seated human or referee)."""
        if level not in BOT_LEVELS:
            raise ServerError("bad_request", 422, detail=f"unknown bot level {level!r}")
        async with game.lock:
            if game.status != OPEN:
                raise ServerError("not_allowed", 409, detail="the game has already started")
            changed = [
                Seat(s.seat, BOT, level, BOT_NAMES[s.seat]) for s in game.seats if not s.claimed
            ]
            # Bots never referee: without its human referee the game stays open.
            start = game.referee_ready
            deadline = self._deadline_from_now(game.time_limit) if start else None
            await self._write(
                op_update_seats(
                    game.id,
                    [s.record() for s in changed],
                    status=ACTIVE if start else None,
                    deadline=deadline,
                )
            )
            for s in changed:
                game.seats[s.seat] = s
            if start:
                game.begin(deadline)
            game.updated_at = time.time()
        log.info("game %s: seat %d filled %d seats with bots", game.id, by_seat, len(changed))
        game.changed()
        self.schedule_bots(game)
        self._watch(game)

    # --------------------------------------------------------------- actions

    async def act(self, game: Game, seat: int, text: object, version: object) -> tuple[int, int]:
        """Make ``seat``'s move ``text`` if it is legal at ``version``.

        Returns ``(index of the action in the log, new version)``. Runs shielded
        from the caller's cancellation: once the checks pass, the commit and
        the swap happen together or not at all.
        """
        return await asyncio.shield(self._act(game, seat, text, version))

    async def _act(self, game: Game, seat: int, text: object, version: object) -> tuple[int, int]:
        if not isinstance(text, str) or not text or len(text) > 40:
            raise ServerError("malformed", detail="'action' must be a notation string")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServerError("malformed", detail="'version' must be the integer you saw")
        async with game.lock:
            if game.status == FINISHED:
                raise ServerError("game_over", 409)
            if game.status == OPEN:
                raise ServerError("not_started", 409)
            if version != game.version and not self._only_time_up_since(game, version):
                raise ServerError("stale_version", 409, sent=version, version=game.version)
            state = game.state
            if state.current_player() != seat:
                raise ServerError("not_your_turn", 409)
            rules = game.kind
            try:
                token = rules.parse_action(text)
            except BadMove as err:
                raise ServerError("bad_notation", 422, detail=str(err)) from None
            except ChanceMove:
                raise ServerError(
                    "illegal_action",
                    422,
                    detail=f"{text}: chance outcomes are drawn by the server, not by players",
                ) from None
            except RefereeMove:
                raise ServerError(
                    "illegal_action",
                    422,
                    detail=f"{text}: the server declares the last round when the time limit "
                    "has passed, not the players",
                ) from None
            new = state.clone()
            try:
                new.apply(token)
            except rules.illegal as err:
                raise ServerError("illegal_action", 422, detail=str(err)) from None
            start = game.version
            # The referee's mark belongs to the answering seat, as the replay on restart
            # (kind.actor_of) has it.
            actors: list[int | None] = [rules.actor_of(state) if seat == REFEREE else seat]
            while new.is_chance():
                actors.append(rules.actor_of(new))
                new.apply(new.sample_chance(game.rng))
            await self._commit(game, new, start, actors)
        self.schedule_bots(game)
        return start, game.version

    async def _commit(
        self,
        game: Game,
        new: Any,
        start: int,
        actors: list[int | None],
        *,
        keep_turn: bool = False,
    ) -> None:
        """Store the events from ``start`` on, then make ``new`` the game's state (lock held).

        ``keep_turn``: the events are not the player's doing (the clock's ``last-round``),
        so the player's idle time keeps running.
        """
        events = new.history[start:]
        status: str | None = None
        result: dict[str, Any] | None = None
        if new.is_terminal():
            status = FINISHED
            result = game.kind.result_summary(new)
        try:
            await self._write(
                op_append_events(game.id, start, events, actors, status=status, result=result)
            )
        except VersionConflict:
            await self._reload(game)
            raise ServerError("stale_version", 409, sent=start, version=game.version) from None
        game.state = new
        game.actors.extend(actors)
        game.updated_at = time.time()
        if not keep_turn:
            game.turn_since = game.updated_at
        if status is not None:
            game.status = status
            game.result = result
            self._deadlines.pop(game.id, None)
            self._remember_finished(game.id)
        game.changed()

    async def _write(self, op: Callable[[Any], None]) -> None:
        try:
            await self.store.write(op)
        except VersionConflict:
            raise
        except StorageError as err:
            log.error("storage error: %s", err)
            raise ServerError("storage_error", 503) from None

    async def _reload(self, game: Game) -> None:
        """Replace ``game``'s state with the stored one (after another writer moved it)."""
        record = await asyncio.to_thread(self.store.load_game, game.id)
        if record is None:
            return
        fresh = self._rebuild(record)
        game.state, game.actors, game.status = fresh.state, fresh.actors, fresh.status
        game.result, game.deadline = fresh.result, fresh.deadline
        game.referee_name, game.referee_token = fresh.referee_name, fresh.referee_token
        game.exchange = fresh.exchange
        game.changed()

    async def _advance_chance(self, game: Game) -> None:
        async with game.lock:
            new = game.state.clone()
            start = len(new.history)
            actors: list[int | None] = []
            while new.is_chance():
                actors.append(game.kind.actor_of(new))
                new.apply(new.sample_chance(game.rng))
            if actors:
                await self._commit(game, new, start, actors)

    # ------------------------------------------------------------ time limits

    def _deadline_from_now(self, limit: int | None) -> float | None:
        """The deadline of a game whose play begins now (None without a time limit)."""
        if limit is None:
            return None
        return self.settings.clock() + limit * 60.0

    def _only_time_up_since(self, game: Game, version: object) -> bool:
        """Whether every event after ``version`` is the clock's ``last-round``.

        That event changes neither whose turn it is nor what they may do, so a move
        chosen just before the time ran out is still accepted rather than bounced
        as stale (the player would only have to click the same button again).
        """
        event = game.kind.time_up_event
        if event is None or not isinstance(version, int) or not 0 <= version < game.version:
            return False
        return all(e == event for e in game.state.history[version:])

    def _watch(self, game: Game) -> None:
        """Have the watcher declare ``game``'s last round at its deadline, if still due."""
        if (
            game.deadline is None
            or game.status != ACTIVE
            or game.kind.time_up_event is None
            or not game.kind.time_up_pending(game.state)
        ):
            return
        self._deadlines[game.id] = game.deadline
        if self._deadline_wake is not None:
            self._deadline_wake.set()

    async def _watch_deadlines(self) -> None:
        """The one task behind every time limit: sleep until the next deadline, then act.

        One task for all games (not one per game) keeps the cost independent of how
        many games have a limit. It is woken when a deadline is added and looks at
        the clock at least every ``deadline_poll`` seconds, so an injected or
        jumping clock is noticed too.
        """
        wake = self._deadline_wake
        assert wake is not None
        poll = max(0.01, self.settings.deadline_poll)
        while not self._closing:
            wake.clear()
            delay = poll
            try:
                now = self.settings.clock()
                due = sorted((d, g) for g, d in self._deadlines.items() if d <= now)
                for _, game_id in due:
                    if self._closing:
                        return
                    await self._time_up(game_id)
                upcoming = min(self._deadlines.values(), default=None)
                if upcoming is not None:
                    delay = min(poll, max(0.0, upcoming - self.settings.clock()))
            except Exception:  # the watcher must outlive any one failure, or limits stop
                log.exception("the deadline watcher failed; looking again shortly")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), delay)

    async def _time_up(self, game_id: str) -> None:
        """Declare the last round of ``game_id`` now; on a failure, try again shortly."""
        game = self.games.get(game_id)
        try:
            if game is not None:
                # Shielded like a move: once the write is under way it completes, even if
                # the watcher is cancelled, so memory and disk never disagree.
                await asyncio.shield(self._declare_last_round(game))
        except ServerError as err:
            # stale_version: another process moved the game and it was reloaded; look
            # again shortly (the reloaded log may already hold the declaration).
            log.warning("game %s: last round not declared yet (%s); retrying", game_id, err.code)
            self._deadlines[game_id] = self.settings.clock() + DEADLINE_RETRY
            return
        except Exception:
            log.exception("game %s: declaring the last round failed; retrying", game_id)
            self._deadlines[game_id] = self.settings.clock() + DEADLINE_RETRY
            return
        self._deadlines.pop(game_id, None)

    async def _declare_last_round(self, game: Game) -> None:
        """Apply the kind's time-up event to ``game`` through the same commit as a move."""
        async with game.lock:
            rules = game.kind
            event = rules.time_up_event
            if event is None or game.status != ACTIVE or not rules.time_up_pending(game.state):
                return  # finished meanwhile, or already declared (e.g. by the log on restart)
            new = game.state.clone()
            start = game.version
            new.apply(event)
            actors: list[int | None] = [None]  # the referee's event: nobody's seat
            while new.is_chance():
                actors.append(rules.actor_of(new))
                new.apply(new.sample_chance(game.rng))
            await self._commit(game, new, start, actors, keep_turn=True)
        log.info("game %s: time is up, round %s is the last", game.id, game.state.round)
        self.schedule_bots(game)

    # ------------------------------------------------------- seats and bots

    async def takeover(self, game: Game, by_seat: int, seat: object, level: object) -> None:
        """Hand the quiet human ``seat`` to a bot (asked by another seated player)."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ServerError("malformed", detail="'seat' must be a seat number")
        chosen = self.settings.takeover_level if level is None else level
        if chosen not in BOT_LEVELS:
            raise ServerError("bad_request", 422, detail=f"unknown bot level {chosen!r}")
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
            at = game.takeover_at(self.settings.idle_timeout)
            if game.to_move() != seat or at is None or time.time() < at:
                raise ServerError(
                    "not_idle", 409, seat=seat, seconds=int(self.settings.idle_timeout)
                )
            updated = Seat(
                seat, BOT, str(chosen), target.name, target.token_hash, True, target.connections
            )
            await self._write(op_update_seats(game.id, [updated.record()]))
            game.seats[seat] = updated
        log.info("game %s: seat %d handed seat %d to a bot", game.id, by_seat, seat)
        game.changed()
        self.schedule_bots(game)

    async def reclaim(self, game: Game, seat: int) -> None:
        """Give a seat that a bot took over back to its human."""
        if seat == REFEREE:
            raise ServerError("not_allowed", 409, detail="no bot ever plays for the referee")
        async with game.lock:
            target = game.seats[seat]
            if not target.replaced:
                raise ServerError("not_allowed", 409, detail="no bot is playing for you")
            updated = Seat(
                seat, HUMAN, None, target.name, target.token_hash, False, target.connections
            )
            await self._write(op_update_seats(game.id, [updated.record()]))
            game.seats[seat] = updated
            game.turn_since = time.time()
        game.changed()

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

    def _bot(self, game: Game, seat: int) -> Bot:
        """The bot for ``seat`` at its current level (made once, kept for the game)."""
        level = game.seats[seat].level or "medium"
        found = game.bots.get(seat)
        if found is not None and found[0] == level:
            return found[1]
        own = game.kind.bot(level)
        if own is not None:
            game.bots[seat] = (level, own)
            return own
        factory = self._bot_factory
        if factory is None:
            from alea import bots as bot_module  # the bots layer, imported when first needed

            factory = bot_module.make
            self._bot_factory = factory
        bot = factory(level)
        game.bots[seat] = (level, bot)
        return bot

    async def _bot_loop(self, game: Game) -> None:
        """Play every consecutive bot turn, each after the configured delay."""
        try:
            while not self._closing and game.status == ACTIVE:
                seat = game.to_move()
                if seat is None or not game.seats[seat].bot_plays:
                    return
                await asyncio.sleep(self.settings.bot_delay)
                seat = game.to_move()
                if game.status != ACTIVE or seat is None or not game.seats[seat].bot_plays:
                    return
                version = game.version
                view = game.kind.view(game.state, seat)
                legal = list(game.state.legal_actions())
                bot = self._bot(game, seat)
                try:
                    choice = await asyncio.to_thread(bot.act, view, legal, game.bot_rng)
                except Exception:
                    log.exception(
                        "game %s: bot for seat %d failed; playing a legal move", game.id, seat
                    )
                    choice = legal[0]
                if str(choice) not in {str(a) for a in legal}:
                    log.error(
                        "game %s: bot chose %r, not legal; playing %s", game.id, choice, legal[0]
                    )
                    choice = legal[0]
                if game.version != version:
                    continue
                try:
                    await self.act(game, seat, str(choice), version)
                except ServerError as err:
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

    # ------------------------------------------------------------- presence

    def attach(self, game: Game, conn: Connection, seat: int | None) -> None:
        """Count ``conn`` as watching ``game`` (as ``seat``, the referee, or a spectator)."""
        if conn in game.connections:
            _count(game, conn.seat, -1)
        game.connections.add(conn)
        conn.seat = seat
        _count(game, seat, 1)
        game.changed()

    def detach(self, game: Game, conn: Connection) -> None:
        if conn not in game.connections:
            return
        game.connections.discard(conn)
        _count(game, conn.seat, -1)
        game.changed()


def _count(game: Game, seat: int | None, delta: int) -> None:
    """Move the live-connection count of ``seat`` (or of the referee) by ``delta``."""
    if seat == REFEREE:
        game.referee_connections += delta
    elif seat is not None:
        game.seats[seat].connections += delta


def time_limit_for(rules: Kind, asked: object) -> int | None:
    """The time limit in minutes a new game of ``rules`` gets when ``asked`` (None: none).

    :data:`DEFAULT` gives the kind's default; 0 and None mean no limit. Anything else
    must be a whole number of minutes in ``MIN_TIME_LIMIT..MAX_TIME_LIMIT`` for a kind
    that has a time limit (``bad_time_limit`` otherwise): a silently ignored limit
    would surprise the players far more than a refusal.
    """
    if asked is DEFAULT:
        return rules.default_time_limit if rules.time_up_event is not None else None
    if asked is None or (isinstance(asked, int) and not isinstance(asked, bool) and asked == 0):
        return None
    if rules.time_up_event is None:
        raise ServerError(
            "bad_time_limit",
            422,
            detail=f"{rules.name} games have no time limit",
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


def seat_specs(items: Iterable[dict[str, Any]]) -> list[SeatSpec]:
    """Seat specifications from plain dicts (used by tests and the bench)."""
    return [SeatSpec(d.get("kind", HUMAN), d.get("level"), d.get("name", "")) for d in items]
