"""Stored chat lines (Alembic revision ``0014``): the write and the read.

A line is written through the store's group-committing writer
(:meth:`alea.server.storage.Store.write`), like a move: nobody hears a line
that is not stored. Reading a game's lines happens once, when its chat is
first needed after a start (:mod:`alea.server.chat` keeps them in memory).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, insert, select

from alea.server.tables import chat_table


def op_add_line(game_id: str, row: dict[str, Any]) -> Callable[[Connection], None]:
    """A write that stores one chat line of ``game_id`` (``row``: the table's columns)."""

    def run(conn: Connection) -> None:
        conn.execute(insert(chat_table).values(game_id=game_id, **row))

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
