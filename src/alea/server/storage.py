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
  nobody was told about, while many concurrent games share each fsync. On
  PostgreSQL a batch made only of moves skips the thread: it is one
  autocommit statement sent from the event loop (:mod:`alea.server.loopwriter`).
* **Optimistic guard.** Appending events also moves ``games.version`` from
  the version the server saw to the new one (``UPDATE ... WHERE version =``);
  if the row does not match, the write fails and changes nothing, so two
  processes on one database can never interleave a game's log.
* **SQLite by default, PostgreSQL by URL**, the tables in
  :mod:`alea.server.tables` (Alembic owns the schema), the writes in
  :mod:`alea.server.writes`; this module is the store that runs them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import Connection, select

from alea.server.loopwriter import LoopWriter
from alea.server.outage import is_outage
from alea.server.tables import (
    ClockRecord,
    DatabaseUnavailable,
    GameRecord,
    SeatRecord,
    SnapshotRecord,
    StorageError,
    StoreClosed,
    VersionConflict,
    events_table,
    game_clocks_table,
    games_table,
    make_engine,
    migrate,
    seats_table,
    snapshots_table,
)
from alea.server.writes import AppendEvents

log = logging.getLogger("alea.server.storage")

T = TypeVar("T")


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
        #: The writer thread's own connection, kept between batches (see :meth:`_connection`).
        self._conn: Connection | None = None
        #: Batches of moves only are committed from the event loop on PostgreSQL.
        self.loop_writer = LoopWriter(self.engine) if LoopWriter.serves(self.engine) else None
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
        if self.loop_writer is not None:
            await self.loop_writer.close()
        self._drop_connection()
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
                outcomes = await self._commit_on_loop(ops)
                if outcomes is None:
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

    async def _commit_on_loop(
        self, ops: list[Callable[[Connection], Any]]
    ) -> list[tuple[bool, Any]] | None:
        """Commit a batch made only of moves and snapshots from the event loop
        (:mod:`.loopwriter`); None if it is the writer thread's (other writes, no
        PostgreSQL, a stale game or a failed connection: the thread then runs it,
        retrying write by write). Moves go first and all together; a snapshot the loop
        could not store after them goes to the thread alone."""
        found = LoopWriter.split(ops) if self.loop_writer is not None else None
        if found is None or self.loop_writer is None:
            return None
        moves, puts = found
        if moves:
            try:
                if not await self.loop_writer.commit(moves):
                    return None
            except VersionConflict as err:
                if len(ops) > 1:
                    return None
                return [(False, err)]
            self.commits += 1
            self.writes += len(moves)
        if not puts:
            return [(True, None)] * len(ops)
        outcomes: dict[int, tuple[bool, Any]] = {}
        for put in puts:
            if await self.loop_writer.put(put):
                self.writes += 1
                outcomes[id(put)] = (True, None)
            else:
                alone: list[Callable[[Connection], Any]] = [put]
                loop = asyncio.get_running_loop()
                (outcome,) = await loop.run_in_executor(self._executor, self._commit, alone)
                outcomes[id(put)] = outcome
        return [outcomes.get(id(op), (True, None)) for op in ops]

    def _connection(self) -> Connection:
        """The writer thread's connection, opened on first use and then kept.

        Checking a connection out of the pool for every batch cost a round trip on
        PostgreSQL (the pool's pre-ping) and a pool checkout and reset on every
        commit; the writer is the hot path's one thread, so it keeps its own. After
        a failed transaction it is given back (:meth:`_drop_connection`) and the
        next batch checks out a fresh, pinged one, so a restarted database costs
        one failed batch, as before.
        """
        conn = self._conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._conn = self.engine.connect()
        return conn

    def _drop_connection(self) -> None:
        """Give the writer's connection back to the pool (after a failure, or at close)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _commit(self, ops: list[Callable[[Connection], Any]]) -> list[tuple[bool, Any]]:
        """Commit ``ops`` in one transaction, or each alone if that fails (writer thread).

        A lone write that failed because the database closed the writer's *kept*
        connection meanwhile (it restarted while this process was idle) is tried once
        more on a fresh connection: the database being back, the write is not refused
        for a connection that was dead before it began. Should the first try have
        committed after all (its answer lost with the connection), the second meets the
        version guard or the key it inserted and stores nothing twice.
        """
        kept = self._conn is not None and not (self._conn.closed or self._conn.invalidated)
        try:
            conn = self._connection()
            if AppendEvents.commit_alone(conn, ops):
                self.commits += 1
                self.writes += len(ops)
                return [(True, None) for _ in ops]
            with conn.begin():
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
            if not isinstance(exc, VersionConflict):
                self._drop_connection()
            if len(ops) == 1:
                if kept and is_outage(exc):
                    return self._commit(ops)  # on a fresh connection, once
                log.warning("write failed: %s", exc)
                return [(False, _storage_error(exc))]
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

    def load_active(self) -> list[GameRecord]:
        """Every game being played, with seats, events and snapshot, for rebuilding on start.

        Open games (waiting for players) stay on disk until someone touches them.
        Batched: one query per table for all the games together (not one per game),
        so a start with a thousand games makes five round trips, not thousands.
        """
        active = games_table.c.status == "active"
        with self.engine.connect() as conn:
            rows = conn.execute(select(games_table).where(active)).all()
            records = {str(row.id): _game_record(row._mapping) for row in rows}
            seats = conn.execute(
                select(seats_table)
                .join(games_table, games_table.c.id == seats_table.c.game_id)
                .where(active)
                .order_by(seats_table.c.game_id, seats_table.c.seat)
            ).all()
            for r in seats:
                records[str(r.game_id)].seats.append(_seat_record(r))
            # The one big read (every event of every active game): on the driver's own
            # cursor, without SQLAlchemy's per-row result processing (a third of the time).
            cursor: Any = conn.connection.cursor()
            try:
                cursor.execute(_ACTIVE_EVENTS)
                events = cursor.fetchall()
            finally:
                cursor.close()
            counts: dict[str, int] = {}
            for game_id, idx, event in events:
                expected = counts.get(game_id, 0)
                counts[game_id] = expected + 1 if idx == expected else -1  # -1: a gap
                records[game_id].events.append(event)
            snapshots = conn.execute(
                select(snapshots_table)
                .join(games_table, games_table.c.id == snapshots_table.c.game_id)
                .where(active)
            ).all()
            for r in snapshots:
                records[str(r.game_id)].snapshot = _snapshot_record(r)
            clocks = conn.execute(
                select(game_clocks_table)
                .join(games_table, games_table.c.id == game_clocks_table.c.game_id)
                .where(active)
            ).all()
            for r in clocks:
                records[str(r.game_id)].clock = _clock_record(r)
        found = []
        for game_id, record in records.items():
            if counts.get(game_id, 0) != len(record.events):
                log.error("game %s: the stored event log has gaps", game_id)
                continue
            found.append(record)
        return found

    def list_open(self, limit: int) -> list[str]:
        """The ids of the newest public games waiting for players."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id)
                .where(games_table.c.status == "open", games_table.c.public.is_(True))
                .order_by(games_table.c.created_at.desc())
                .limit(limit)
            ).all()
            return [str(row[0]) for row in rows]

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
        return [_seat_record(r) for r in rows]

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
        record.clock = _clock(conn, record.id)
        snapshot = conn.execute(
            select(snapshots_table).where(snapshots_table.c.game_id == record.id)
        ).first()
        if snapshot is not None:
            record.snapshot = _snapshot_record(snapshot)
        return record


def _storage_error(exc: Exception) -> StorageError:
    """``exc`` as the store's error: :class:`DatabaseUnavailable` if the database was out
    of reach (:mod:`alea.server.outage` answers it as ``database_unavailable``)."""
    if isinstance(exc, StorageError):
        return exc
    if is_outage(exc):
        return DatabaseUnavailable(str(exc))
    return StorageError(str(exc))


def _clock(conn: Connection, game_id: str) -> ClockRecord | None:
    """The ``game_clocks`` row of a game (None: it has no time control)."""
    row = conn.execute(
        select(game_clocks_table).where(game_clocks_table.c.game_id == game_id)
    ).first()
    return None if row is None else _clock_record(row)


_ACTIVE_EVENTS = (
    "SELECT e.game_id, e.idx, e.event FROM events e JOIN games g ON g.id = e.game_id "
    "WHERE g.status = 'active' ORDER BY e.game_id, e.idx"
)


def _seat_record(r: Any) -> SeatRecord:
    return SeatRecord(
        seat=int(r.seat),
        kind=str(r.kind),
        level=r.level,
        name=str(r.name),
        token_hash=r.token_hash,
        replaced=bool(r.replaced),
        user_id=r.user_id,
    )


def _clock_record(row: Any) -> ClockRecord:
    try:
        banks = [float(b) for b in json.loads(row.banks)]
    except (ValueError, TypeError):
        banks = []
    return ClockRecord(
        mode=str(row.mode),
        per_move=int(row.per_move),
        bank=int(row.bank),
        on_timeout=str(row.on_timeout),
        turn_seat=None if row.turn_seat is None else int(row.turn_seat),
        turn_started=None if row.turn_started is None else float(row.turn_started),
        banks=banks,
    )


def _snapshot_record(r: Any) -> SnapshotRecord:
    return SnapshotRecord(idx=int(r.idx), rules=int(r.rules), state=str(r.state))


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
        rated=bool(row["rated"]),
        human_seen=None if row.get("human_seen") is None else float(row["human_seen"]),
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
