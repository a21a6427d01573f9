"""The writes of the server: each a function of an open transaction, batched by the store.

A write changes nothing unless its whole transaction commits (the store's
writer retries a failed batch write by write, so one bad write never sinks
another). The hot path, :class:`AppendEvents`, can also be *merged* with the
other appends of a batch.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, bindparam, delete, or_, select, text, update

from alea.server import bulk
from alea.server.tables import (
    ClockRecord,
    GameRecord,
    SeatRecord,
    VersionConflict,
    chat_table,
    events_table,
    game_clocks_table,
    games_table,
    seats_table,
)


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
                "rated": record.rated,
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
                    "user_id": s.user_id,
                }
                for s in record.seats
            ],
        )
        if record.clock is not None:
            conn.execute(game_clocks_table.insert(), _clock_row(record.id, record.clock))
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
#: The version guard of every append. A table closed as abandoned (by another process, a
#: moment before) takes no more events: the append fails like a stale one.
_ADVANCE = text(
    "UPDATE games SET version = :new, updated_at = :now "
    "WHERE id = :id AND version = :old AND status <> 'abandoned'"
)
_FINISH = text(
    "UPDATE games SET version = :new, updated_at = :now, status = :status, result = :result "
    "WHERE id = :id AND version = :old AND status <> 'abandoned'"
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
        if self.plain and bulk.supported(conn):
            if bulk.advance_and_append(conn, [self.update], self.rows) != 1:
                raise VersionConflict(f"game {self.game_id}: stored version is not {self.start}")
            return
        done = conn.execute(_ADVANCE if self.plain else _FINISH, self.update)
        if done.rowcount != 1:
            raise VersionConflict(f"game {self.game_id}: stored version is not {self.start}")
        if self.rows:
            conn.execute(_INSERT_EVENT, self.rows)

    @staticmethod
    def commit_alone(conn: Connection, ops: Sequence[Callable[[Connection], Any]]) -> bool:
        """Store and commit a batch made only of plain appends as one statement, without a
        transaction of the writer's (PostgreSQL: :func:`alea.server.bulk.append_committed`).

        False, having done nothing, if the batch holds anything else or the database
        cannot: the caller then runs it in a transaction. :class:`VersionConflict` if a
        game of the batch was stale (nothing stored).
        """
        if not bulk.commits_alone(conn):
            return False
        writes: list[AppendEvents] = []
        for op in ops:
            if not isinstance(op, AppendEvents) or not op.plain:
                return False
            writes.append(op)
        bulk.append_committed(conn, [w.update for w in writes], [r for w in writes for r in w.rows])
        return True

    @staticmethod
    def merged(conn: Connection, writes: list[AppendEvents]) -> None:
        """Run many plain appends with two statements (see the class docstring)."""
        if bulk.supported(conn):
            rows = [row for w in writes for row in w.rows]
            if bulk.advance_and_append(conn, [w.update for w in writes], rows) != len(writes):
                raise VersionConflict("a game in the batch was not at its expected version")
            return
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


def op_truncate_events(
    game_id: str, keep: int, old: int, *, now: float | None = None
) -> Callable[[Connection], None]:
    """Cut a game's log back to its first ``keep`` events (an undo), at version ``old``.

    The version moves back in the same transaction as the rows go, and only if the
    stored version is still ``old`` (else :class:`VersionConflict`, nothing changed), so
    the log and the version never disagree and a restart replays the game as it stands.
    """
    updated_at = time.time() if now is None else now

    def run(conn: Connection) -> None:
        done = conn.execute(
            update(games_table)
            .where(games_table.c.id == game_id, games_table.c.version == old)
            .values(version=keep, updated_at=updated_at)
        )
        if done.rowcount != 1:
            raise VersionConflict(f"game {game_id}: stored version is not {old}")
        conn.execute(
            delete(events_table).where(
                events_table.c.game_id == game_id, events_table.c.idx >= keep
            )
        )

    return run


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
            values: dict[str, Any] = {
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "token_hash": s.token_hash,
                "replaced": s.replaced,
            }
            if s.user_id is not None:  # a rated table's claim links the account with it
                values["user_id"] = s.user_id
            conn.execute(
                update(seats_table)
                .where(seats_table.c.game_id == game_id, seats_table.c.seat == s.seat)
                .values(**values)
            )
        game_values: dict[str, Any] = {"updated_at": updated_at}
        if status is not None:
            game_values["status"] = status
        if deadline is not None:
            game_values["deadline"] = deadline
        conn.execute(update(games_table).where(games_table.c.id == game_id).values(**game_values))

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


def op_expire_open(cutoff: float, keep: Sequence[str]) -> Callable[[Connection], list[str]]:
    """Delete the games still open (nobody claimed a seat) since before ``cutoff``.

    ``keep``: ids not to touch (a socket at some process is watching them). Returns the
    deleted ids. Several processes may run this at the same moment: the stale rows are
    locked as they are chosen (``FOR UPDATE SKIP LOCKED`` on PostgreSQL), so each game
    is deleted by exactly one of them, and a claim committed first (at any process)
    moved ``updated_at`` past the cutoff or the status off ``open``: PostgreSQL checks
    the condition again on the row as it now is, so a claimed game is never deleted.
    A claim arriving after the lock waits for it and then finds no game. (SQLite: one
    process, whose writes are serialised.)
    """
    kept = set(keep)

    def run(conn: Connection) -> list[str]:
        stale = conn.execute(
            select(games_table.c.id)
            .where(games_table.c.status == "open", games_table.c.updated_at < cutoff)
            .with_for_update(skip_locked=True)
        ).all()
        ids = [str(row[0]) for row in stale if str(row[0]) not in kept]
        for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
            conn.execute(delete(events_table).where(events_table.c.game_id.in_(chunk)))
            conn.execute(delete(chat_table).where(chat_table.c.game_id.in_(chunk)))
            conn.execute(delete(seats_table).where(seats_table.c.game_id.in_(chunk)))
            conn.execute(delete(games_table).where(games_table.c.id.in_(chunk)))
        return ids

    return run


def _clock_row(game_id: str, clock: ClockRecord) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "mode": clock.mode,
        "per_move": clock.per_move,
        "bank": clock.bank,
        "on_timeout": clock.on_timeout,
        "turn_seat": clock.turn_seat,
        "turn_started": clock.turn_started,
        "banks": json.dumps(clock.banks),
    }


def op_save_clock(game_id: str, clock: ClockRecord) -> Callable[[Connection], None]:
    """Store the running clock of a timed table (whose turn, since when, the banks)."""
    row = _clock_row(game_id, clock)
    del row["game_id"]

    def run(conn: Connection) -> None:
        conn.execute(
            update(game_clocks_table).where(game_clocks_table.c.game_id == game_id).values(**row)
        )

    return run


def op_set_status(game_id: str, status: str, now: float) -> Callable[[Connection], None]:
    """Set a game's status (an abandoned table is closed this way; its log is kept)."""

    def run(conn: Connection) -> None:
        conn.execute(
            update(games_table)
            .where(games_table.c.id == game_id)
            .values(status=status, updated_at=now)
        )

    return run


def op_record_seen(seen: dict[str, float]) -> Callable[[Connection], None]:
    """Record that a human was at each table of ``seen`` (game id -> when), in one
    statement: ``games.human_seen`` only moves forward, whichever process writes it."""
    rows = [{"gid": game_id, "seen": at} for game_id, at in seen.items()]

    def run(conn: Connection) -> None:
        column = games_table.c.human_seen
        conn.execute(
            update(games_table)
            .where(
                games_table.c.id == bindparam("gid"),
                or_(column.is_(None), column < bindparam("seen")),
            )
            .values(human_seen=bindparam("seen")),
            rows,
        )

    return run


def op_abandon(game_id: str, cutoff: float, now: float) -> Callable[[Connection], None]:
    """Close an active table as ``abandoned`` unless a human was recorded at it at or
    after ``cutoff`` (by any process); :class:`VersionConflict` if it was not closed.

    The check is the ``UPDATE``'s own condition, under the row's lock: two processes
    closing at once close it once (the second finds it no longer active), and a
    presence recorded first keeps it open.
    """

    def run(conn: Connection) -> None:
        column = games_table.c.human_seen
        done = conn.execute(
            update(games_table)
            .where(
                games_table.c.id == game_id,
                games_table.c.status == "active",
                or_(column.is_(None), column < cutoff),
            )
            .values(status="abandoned", updated_at=now)
        )
        if done.rowcount != 1:
            raise VersionConflict(f"game {game_id}: not active, or a human was seen there")

    return run
