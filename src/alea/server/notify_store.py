"""Notification settings in the database: an account's e-mail address and its switch.

Blocking functions of a SQLAlchemy ``Engine`` (called through
:func:`asyncio.to_thread`), in short transactions of their own like the rest
of :mod:`alea.server.account_store`. The columns are ``users.email`` and
``users.notify_email`` (Alembic revision ``0013``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Engine, select, update

from alea.server.tables import seats_table, users_table


@dataclass(frozen=True)
class Recipient:
    """An account to be told by e-mail, and the seat it holds in the game concerned."""

    user_id: str
    name: str
    email: str
    seat: int


def settings(engine: Engine, user_id: str) -> tuple[str | None, bool]:
    """The account's address and whether it wants e-mail."""
    with engine.connect() as conn:
        row = conn.execute(
            select(users_table.c.email, users_table.c.notify_email).where(
                users_table.c.id == user_id
            )
        ).first()
    if row is None:
        return None, False
    return row.email, bool(row.notify_email)


def set_settings(engine: Engine, user_id: str, email: str | None, notify: bool) -> None:
    """Store the account's address (None: none) and its switch."""
    with engine.begin() as conn:
        conn.execute(
            update(users_table)
            .where(users_table.c.id == user_id)
            .values(email=email, notify_email=notify)
        )


def unsubscribe(engine: Engine, user_id: str) -> bool:
    """Switch e-mail off for ``user_id``; whether the account exists."""
    with engine.begin() as conn:
        done = conn.execute(
            update(users_table).where(users_table.c.id == user_id).values(notify_email=False)
        )
    return bool(done.rowcount)


def recipients(engine: Engine, game_id: str, seats: Iterable[int]) -> list[Recipient]:
    """The accounts holding ``seats`` of ``game_id`` that want e-mail and have an address."""
    wanted = list(seats)
    if not wanted:
        return []
    with engine.connect() as conn:
        rows = conn.execute(
            select(users_table.c.id, users_table.c.name, users_table.c.email, seats_table.c.seat)
            .join(seats_table, seats_table.c.user_id == users_table.c.id)
            .where(
                seats_table.c.game_id == game_id,
                seats_table.c.seat.in_(wanted),
                users_table.c.notify_email.is_(True),
                users_table.c.email.is_not(None),
            )
            .order_by(seats_table.c.seat)
        ).all()
    return [Recipient(str(r.id), str(r.name), str(r.email), int(r.seat)) for r in rows]
