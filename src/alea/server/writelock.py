"""One writer per game at a time across processes: a row lock and what memory saw.

Appending events needs nothing more than the version guard of
:class:`~alea.server.writes.AppendEvents`: its ``UPDATE games ... WHERE version =``
locks the game's row, so two processes appending at the same version are applied
one after the other and the second finds the version moved (PostgreSQL re-reads
the row once the first commits) and stores nothing.

A change of who sits where does not move the version, so it carries its own
guard, :func:`guarded`: inside its transaction it first locks the game's row
(``SELECT ... FOR UPDATE``; SQLite, one writer at a time anyway, needs no lock),
then checks that the stored version, status, referee role and seats are still
what this process's memory showed when it decided (a free seat free, the game
open, the seat to take over still a human's). If anything moved, the write is a
:class:`~alea.server.tables.VersionConflict` and stores nothing; the caller
catches up from the log and decides again on the truth. Two claims of two seats
at two processes thus both succeed, in one order, and the second sees that the
table is now complete; two claims of one seat give it to one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, select

from alea.server.room import Game
from alea.server.tables import VersionConflict, games_table, seats_table

#: What a guarded write compares: version, status, referee token, and each seat's
#: ``(seat, kind, level, token_hash, replaced)``.
Seen = tuple[int, str, str | None, tuple[tuple[Any, ...], ...]]


def seen(game: Game) -> Seen:
    """What ``game`` in memory says of the stored row and seats, now."""
    return (
        game.version,
        game.status,
        game.referee_token,
        tuple((s.seat, s.kind, s.level, s.token_hash, s.replaced) for s in game.seats),
    )


def stored(conn: Connection, game_id: str) -> Seen | None:
    """The same facts as stored, with the game's row locked until the transaction ends."""
    row = conn.execute(
        select(games_table.c.version, games_table.c.status, games_table.c.referee_token)
        .where(games_table.c.id == game_id)
        .with_for_update()
    ).first()
    if row is None:
        return None
    seats = conn.execute(
        select(
            seats_table.c.seat,
            seats_table.c.kind,
            seats_table.c.level,
            seats_table.c.token_hash,
            seats_table.c.replaced,
        )
        .where(seats_table.c.game_id == game_id)
        .order_by(seats_table.c.seat)
    ).all()
    return (
        int(row[0]),
        str(row[1]),
        row[2],
        tuple((int(s[0]), str(s[1]), s[2], s[3], bool(s[4])) for s in seats),
    )


def guarded(game: Game, op: Callable[[Connection], Any]) -> Callable[[Connection], Any]:
    """``op``, run only if the stored game is still what memory shows of it now."""
    expected = seen(game)
    game_id = game.id

    def run(conn: Connection) -> Any:
        if stored(conn, game_id) != expected:
            raise VersionConflict(f"game {game_id}: changed by another process")
        return op(conn)

    return run
