"""Durable storage: games, seats and each game's event log, through SQLAlchemy.

Why it looks like this
----------------------
* **The event log is the source of truth.** A game is its player count plus
  the ordered list of every action and chance outcome in notation (RULES.md
  §7), one row per event with primary key ``(game_id, idx)``. Everything else
  in memory is rebuilt from it on start (:meth:`Store.load_unfinished`).
* **Commit before acknowledge, with group commit.** Writes are small
  functions of a SQLAlchemy ``Connection`` handed to :meth:`Store.write`. A
  single writer task gathers every write that arrives while the previous
  commit is in flight and commits them in *one* transaction on a dedicated
  thread, then wakes each caller. A caller acknowledges nothing until its
  write is committed, so killing the process at any moment loses only writes
  nobody was told about, while many concurrent games share each fsync.
* **Optimistic guard.** Appending events also moves ``games.version`` from
  the version the server saw to the new one (``UPDATE ... WHERE version =``);
  if the row does not match, the write fails and changes nothing, so two
  processes on one database can never interleave a game's log.
* **SQLite by default, PostgreSQL by URL**: plain SQLAlchemy Core with
  portable types; SQLite runs in WAL mode.
* **Alembic owns the schema** (:mod:`alea.server.migrations`); the tables below
  must match the latest migration (a test checks that they do).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url

log = logging.getLogger("alea.server.storage")

T = TypeVar("T")

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("players", Integer, nullable=False),
    Column("status", String(16), nullable=False),
    Column("public", Boolean, nullable=False),
    Column("title", String(80), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("result", Text, nullable=True),
    Column("game", String(16), nullable=False, server_default="iacta"),
    Column("time_limit", Integer, nullable=True),
    Column("deadline", Float, nullable=True),
    Column("referee", String(16), nullable=False, server_default="software"),
    Column("referee_name", String(40), nullable=True),
    Column("referee_token", String(64), nullable=True),
    Column("exchange", Text, nullable=True),
    Index("ix_games_status", "status"),
)

seats_table = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("level", String(16), nullable=True),
    Column("name", String(40), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("replaced", Boolean, nullable=False),
)

events_table = Table(
    "events",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("event", String(48), nullable=False),
    Column("actor", Integer, nullable=True),
    Column("created_at", Float, nullable=False),
)


class StorageError(RuntimeError):
    """A write that could not be committed (nothing of it was stored)."""


class VersionConflict(StorageError):
    """The game's stored version was not the one the write expected."""


class StoreClosed(StorageError):
    """The store is shutting down and takes no more writes."""


@dataclass
class SeatRecord:
    """One seat as stored."""

    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: str | None
    replaced: bool = False


@dataclass
class GameRecord:
    """One game as stored: its row, its seats and (when loaded) its events."""

    id: str
    players: int
    status: str
    public: bool
    title: str
    created_at: float
    updated_at: float
    version: int
    result: dict[str, Any] | None
    seats: list[SeatRecord] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    #: The game kind (``iacta`` or ``romano``): which engine replays the events.
    game: str = "iacta"
    #: The time limit in minutes (Dado Romano), or None: no limit.
    time_limit: int | None = None
    #: When the time limit runs out (epoch seconds), fixed when play begins; None before.
    deadline: float | None = None
    #: Who referees (Dado Romano): ``software`` or ``human`` (a person with the referee token).
    referee: str = "software"
    #: The human referee's display name, once the role is claimed.
    referee_name: str | None = None
    #: SHA-256 of the human referee's token, once the role is claimed (like a seat's).
    referee_token: str | None = None
    #: The current riddle or question and answer typed on the table (not engine events).
    exchange: dict[str, Any] | None = None


def _is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(url: str, *, sqlite_synchronous: str = "FULL", **options: Any) -> Engine:
    """A SQLAlchemy engine for ``url``; SQLite gets WAL, a busy timeout and foreign keys."""
    if _is_sqlite(url):
        options.setdefault("connect_args", {}).setdefault("timeout", 30)
        engine = create_engine(url, **options)
        synchronous = sqlite_synchronous.upper()
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"bad SQLite synchronous setting {sqlite_synchronous!r}")

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    options.setdefault("pool_pre_ping", True)
    return create_engine(url, **options)


def migrate(engine: Engine) -> None:
    """Bring the database schema up to the latest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "alea.server:migrations")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


# --------------------------------------------------------------------- writes
# Each write is a function of an open transaction; the writer batches them.


def op_create_game(
    record: GameRecord, actors: Sequence[int | None]
) -> Callable[[Connection], None]:
    """Insert a new game with its seats and its first events (the set-up chance)."""

    def run(conn: Connection) -> None:
        now = record.created_at
        conn.execute(
            games_table.insert(),
            {
                "id": record.id,
                "players": record.players,
                "status": record.status,
                "public": record.public,
                "game": record.game,
                "title": record.title,
                "created_at": now,
                "updated_at": now,
                "version": len(record.events),
                "result": None,
                "time_limit": record.time_limit,
                "deadline": record.deadline,
                "referee": record.referee,
                "referee_name": record.referee_name,
                "referee_token": record.referee_token,
                "exchange": None,
            },
        )
        conn.execute(
            seats_table.insert(),
            [
                {
                    "game_id": record.id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "replaced": s.replaced,
                }
                for s in record.seats
            ],
        )
        if record.events:
            conn.execute(
                events_table.insert(),
                [
                    {"game_id": record.id, "idx": i, "event": e, "actor": a, "created_at": now}
                    for i, (e, a) in enumerate(zip(record.events, actors, strict=True))
                ],
            )

    return run


# The hot path (one per accepted action) uses prepared text statements: building Core
# statements per call costs three times as much CPU, and these are portable as written.
_ADVANCE = text(
    "UPDATE games SET version = :new, updated_at = :now WHERE id = :id AND version = :old"
)
_FINISH = text(
    "UPDATE games SET version = :new, updated_at = :now, status = :status, result = :result "
    "WHERE id = :id AND version = :old"
)
_INSERT_EVENT = text(
    "INSERT INTO events (game_id, idx, event, actor, created_at) "
    "VALUES (:game_id, :idx, :event, :actor, :created_at)"
)


class AppendEvents:
    """A write that appends events to a game's log and moves its version past them.

    It is a callable like every other write, and the writer also knows how to
    *merge* many of them: the version updates of a whole batch go to the
    database as one ``executemany`` and all the new events as another, so the
    writer thread does a constant amount of Python work per transaction rather
    than per action (it competes with the event loop for the GIL). If the
    merged update does not match every game's expected version, the batch is
    retried write by write and only the stale one fails.
    """

    __slots__ = ("game_id", "rows", "start", "update")

    def __init__(
        self,
        game_id: str,
        start: int,
        events: Sequence[str],
        actors: Sequence[int | None],
        *,
        status: str | None = None,
        result: dict[str, Any] | None = None,
        now: float | None = None,
    ) -> None:
        if now is None:
            now = time.time()
        self.game_id = game_id
        self.start = start
        self.update: dict[str, Any] = {
            "new": start + len(events),
            "now": now,
            "id": game_id,
            "old": start,
        }
        if status is not None:
            self.update["status"] = status
            self.update["result"] = json.dumps(result) if result is not None else None
        self.rows = [
            {"game_id": game_id, "idx": start + i, "event": e, "actor": a, "created_at": now}
            for i, (e, a) in enumerate(zip(events, actors, strict=True))
        ]

    @property
    def plain(self) -> bool:
        """Whether this write only advances the version (no status change): mergeable."""
        return "status" not in self.update

    def __call__(self, conn: Connection) -> None:
        done = conn.execute(_ADVANCE if self.plain else _FINISH, self.update)
        if done.rowcount != 1:
            raise VersionConflict(f"game {self.game_id}: stored version is not {self.start}")
        if self.rows:
            conn.execute(_INSERT_EVENT, self.rows)

    @staticmethod
    def merged(conn: Connection, writes: list[AppendEvents]) -> None:
        """Run many plain appends with two statements (see the class docstring)."""
        done = conn.execute(_ADVANCE, [w.update for w in writes])
        if conn.dialect.supports_sane_multi_rowcount and done.rowcount != len(writes):
            raise VersionConflict("a game in the batch was not at its expected version")
        if not conn.dialect.supports_sane_multi_rowcount:  # pragma: no cover - both do
            raise VersionConflict("cannot check merged versions on this database")
        rows = [row for w in writes for row in w.rows]
        if rows:
            conn.execute(_INSERT_EVENT, rows)


def op_append_events(
    game_id: str,
    start: int,
    events: Sequence[str],
    actors: Sequence[int | None],
    *,
    status: str | None = None,
    result: dict[str, Any] | None = None,
    now: float | None = None,
) -> AppendEvents:
    """Append ``events`` at index ``start`` and move the game's version past them.

    With ``status`` (and ``result``) the game row is also marked, e.g. finished.
    ``now`` is the time stored with them (default: the system clock).
    """
    return AppendEvents(game_id, start, events, actors, status=status, result=result, now=now)


def op_update_seats(
    game_id: str,
    seats: Sequence[SeatRecord],
    *,
    status: str | None = None,
    deadline: float | None = None,
    now: float | None = None,
) -> Callable[[Connection], None]:
    """Store new seat rows (a claim, a bot filling in, a takeover) and maybe a new status.

    ``deadline`` is stored with the status change that starts play, in the same
    transaction, so a game is never active on disk without the deadline its
    time limit gives it. ``now`` is the game's new ``updated_at`` (default: the
    system clock).
    """
    updated_at = time.time() if now is None else now

    def run(conn: Connection) -> None:
        for s in seats:
            conn.execute(
                update(seats_table)
                .where(seats_table.c.game_id == game_id, seats_table.c.seat == s.seat)
                .values(
                    kind=s.kind,
                    level=s.level,
                    name=s.name,
                    token_hash=s.token_hash,
                    replaced=s.replaced,
                )
            )
        values: dict[str, Any] = {"updated_at": updated_at}
        if status is not None:
            values["status"] = status
        if deadline is not None:
            values["deadline"] = deadline
        conn.execute(update(games_table).where(games_table.c.id == game_id).values(**values))

    return run


def op_claim_referee(
    game_id: str,
    name: str,
    token_hash: str,
    *,
    status: str | None = None,
    deadline: float | None = None,
    now: float | None = None,
) -> Callable[[Connection], None]:
    """Give the human referee role its name and token hash, maybe starting play.

    Like :func:`op_update_seats`, the status change and the deadline it fixes are
    stored in the same transaction as the claim. The ``referee_token IS NULL``
    guard makes a second claimant (another process on the same database) fail
    rather than overwrite the first one's token.
    """
    updated_at = time.time() if now is None else now

    def run(conn: Connection) -> None:
        values: dict[str, Any] = {
            "referee_name": name,
            "referee_token": token_hash,
            "updated_at": updated_at,
        }
        if status is not None:
            values["status"] = status
        if deadline is not None:
            values["deadline"] = deadline
        done = conn.execute(
            update(games_table)
            .where(games_table.c.id == game_id, games_table.c.referee_token.is_(None))
            .values(**values)
        )
        if done.rowcount != 1:
            raise VersionConflict(f"game {game_id}: the referee role is already taken")

    return run


def op_set_exchange(game_id: str, exchange: dict[str, Any]) -> Callable[[Connection], None]:
    """Store the current question-and-answer exchange of a human-refereed game (JSON)."""
    encoded = json.dumps(exchange, ensure_ascii=False)

    def run(conn: Connection) -> None:
        conn.execute(
            update(games_table).where(games_table.c.id == game_id).values(exchange=encoded)
        )

    return run


# ------------------------------------------------------------------- the store


class Store:
    """The database behind a server: migrations, loading, and group-committed writes."""

    #: Most writes committed in one transaction.
    MAX_BATCH = 512

    def __init__(self, url: str, *, sqlite_synchronous: str = "FULL", **options: Any) -> None:
        self.url = url
        self.engine = make_engine(url, sqlite_synchronous=sqlite_synchronous, **options)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="alea-db-writer")
        self._pending: list[tuple[Callable[[Connection], Any], asyncio.Future[Any]]] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        #: Counters for tests and benchmarks: transactions and writes committed.
        self.commits = 0
        self.writes = 0

    # -- life cycle

    def migrate(self) -> None:
        """Create or upgrade the schema (blocking; call before serving)."""
        migrate(self.engine)

    def start(self) -> None:
        """Start the writer task on the running event loop."""
        self._wake = asyncio.Event()
        self._closing = False
        self._task = asyncio.get_running_loop().create_task(self._run(), name="alea-db-writer")

    async def close(self) -> None:
        """Commit what is queued, stop the writer and release the database."""
        self._closing = True
        if self._wake is not None:
            self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._executor.shutdown(wait=True)
        self.engine.dispose()

    def dispose(self) -> None:
        """Release the database without a running loop (after a synchronous use)."""
        self._executor.shutdown(wait=False)
        self.engine.dispose()

    # -- writes

    async def write(self, op: Callable[[Connection], T]) -> T:
        """Run ``op`` in a committed transaction; return once it is durable.

        Concurrent calls share transactions (group commit). If the transaction
        fails, each write of the batch is retried alone, so one bad write
        never sinks its neighbours; the caller of a failed write gets its
        exception and nothing of that write is stored.
        """
        if self._closing or self._wake is None:
            raise StoreClosed("the store is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append((op, future))
        self._wake.set()
        return await future

    async def _run(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch = self._pending[: self.MAX_BATCH]
                del self._pending[: self.MAX_BATCH]
                ops = [op for op, _ in batch]
                outcomes = await loop.run_in_executor(self._executor, self._commit, ops)
                for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                    if future.done():
                        continue
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
            if self._closing:
                return

    def _commit(self, ops: list[Callable[[Connection], Any]]) -> list[tuple[bool, Any]]:
        """Commit ``ops`` in one transaction, or each alone if that fails (writer thread)."""
        try:
            with self.engine.begin() as conn:
                plain = [op for op in ops if isinstance(op, AppendEvents) and op.plain]
                merged: set[int] = set()
                if len(plain) > 1:
                    AppendEvents.merged(conn, plain)
                    merged = {id(op) for op in plain}
                results = [None if id(op) in merged else op(conn) for op in ops]
            self.commits += 1
            self.writes += len(ops)
            return [(True, r) for r in results]
        except Exception as exc:
            if len(ops) == 1:
                log.warning("write failed: %s", exc)
                return [(False, exc if isinstance(exc, StorageError) else StorageError(str(exc)))]
        outcomes: list[tuple[bool, Any]] = []
        for op in ops:
            outcomes.extend(self._commit([op]))
        return outcomes

    # -- reads (blocking: call through asyncio.to_thread while serving)

    def load_unfinished(self) -> list[GameRecord]:
        """Every game not yet finished, with seats and events, for rebuilding on start."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(games_table).where(games_table.c.status != "finished")).all()
            return [self._full_record(conn, row._mapping) for row in rows]

    def load_game(self, game_id: str) -> GameRecord | None:
        """One game with seats and events, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            return self._full_record(conn, row._mapping)

    def list_finished(self, limit: int) -> list[GameRecord]:
        """The most recently finished games (rows and seats, no events)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table)
                .where(games_table.c.status == "finished")
                .order_by(games_table.c.updated_at.desc())
                .limit(limit)
            ).all()
            records = []
            for row in rows:
                record = _game_record(row._mapping)
                record.seats = self._seats(conn, record.id)
                records.append(record)
            return records

    def events(self, game_id: str) -> list[tuple[int, str, int | None]]:
        """A game's stored log as ``(idx, event, actor)`` rows in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events_table.c.idx, events_table.c.event, events_table.c.actor)
                .where(events_table.c.game_id == game_id)
                .order_by(events_table.c.idx)
            ).all()
            return [(int(r[0]), str(r[1]), None if r[2] is None else int(r[2])) for r in rows]

    def _seats(self, conn: Connection, game_id: str) -> list[SeatRecord]:
        rows = conn.execute(
            select(seats_table).where(seats_table.c.game_id == game_id).order_by(seats_table.c.seat)
        ).all()
        return [
            SeatRecord(
                seat=int(r.seat),
                kind=str(r.kind),
                level=r.level,
                name=str(r.name),
                token_hash=r.token_hash,
                replaced=bool(r.replaced),
            )
            for r in rows
        ]

    def _full_record(self, conn: Connection, row: Any) -> GameRecord:
        record = _game_record(row)
        record.seats = self._seats(conn, record.id)
        events = conn.execute(
            select(events_table.c.idx, events_table.c.event)
            .where(events_table.c.game_id == record.id)
            .order_by(events_table.c.idx)
        ).all()
        record.events = [str(e.event) for e in events]
        if [int(e.idx) for e in events] != list(range(len(events))):
            raise StorageError(f"game {record.id}: the stored event log has gaps")
        return record


def _game_record(row: Any) -> GameRecord:
    return GameRecord(
        id=str(row["id"]),
        players=int(row["players"]),
        status=str(row["status"]),
        public=bool(row["public"]),
        title=str(row["title"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
        version=int(row["version"]),
        result=json.loads(row["result"]) if row["result"] else None,
        game=str(row["game"]),
        time_limit=None if row["time_limit"] is None else int(row["time_limit"]),
        deadline=None if row["deadline"] is None else float(row["deadline"]),
        referee=str(row["referee"] or "software"),
        referee_name=row["referee_name"],
        referee_token=row["referee_token"],
        exchange=_exchange(row["exchange"]),
    )


def _exchange(stored: str | None) -> dict[str, Any] | None:
    """The stored exchange, or None if absent or unreadable (it is a courtesy, not state)."""
    if not stored:
        return None
    try:
        found = json.loads(stored)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None
