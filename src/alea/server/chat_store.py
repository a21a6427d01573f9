"""Stored chat lines (Alembic revision ``0014``): the write and the read.

A line is written through the store's group-committing writer
(:meth:`alea.server.storage.Store.write`), like a move: nobody hears a line
that is not stored. Reading a game's lines happens once, when its chat is
first needed after a start (:mod:`alea.server.chat` keeps them in memory).

The line's ``idx`` is chosen here, in the insert's transaction, not by the
process: several processes (docs/deploy.md) may speak at one table at the same
moment, and a per-process counter would hand two of them the same idx. The
game's row is locked first (``SELECT ... FOR UPDATE``, the lock the version guard
and seat changes take too), so two transactions never read the same ``MAX(idx)``
on PostgreSQL; SQLite has one writer at a time, so there the lock is moot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select

from alea.server.tables import chat_table, games_table


def op_add_line(game_id: str, row: dict[str, Any]) -> Callable[[Connection], int]:
    """A write that stores one chat line of ``game_id`` and returns the idx it got.

    ``row`` holds the table's other columns (its ``idx``, if any, is ignored): the
    idx is the game's next, read under the game's row lock so that lines said at
    the same moment through several processes get distinct ones.
    """

    def run(conn: Connection) -> int:
        conn.execute(select(games_table.c.id).where(games_table.c.id == game_id).with_for_update())
        c = chat_table.c
        last = conn.execute(select(func.max(c.idx)).where(c.game_id == game_id)).scalar()
        idx = 0 if last is None else int(last) + 1
        values = {k: v for k, v in row.items() if k != "idx"}
        conn.execute(insert(chat_table).values(game_id=game_id, idx=idx, **values))
        return idx

    return run


def load(engine: Engine, game_id: str) -> list[dict[str, Any]]:
    """Every stored line of ``game_id``, in the order they were said."""
    c = chat_table.c
    with engine.connect() as conn:
        rows = conn.execute(
            select(c.idx, c.channel, c.seat, c.role, c.name, c.text, c.step, c.created_at)
            .where(c.game_id == game_id)
            .order_by(c.idx)
        ).all()
    return [dict(row._mapping) for row in rows]
