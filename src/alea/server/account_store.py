"""Accounts in the database: users, sessions, seats linked to a user, the server's key.

Every function takes a SQLAlchemy ``Engine`` and blocks (the service calls
them through :func:`asyncio.to_thread`). They run in their own short
transactions beside the games' group-committing writer: account changes are
rare, and keeping them apart keeps the hot path of moves untouched. The
tables are :data:`~alea.server.tables.users_table`,
:data:`~alea.server.tables.sessions_table`,
:data:`~alea.server.tables.server_keys_table` and ``seats.user_id``
(Alembic revision ``0005``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from alea.server.tables import (
    games_table,
    seats_table,
    server_keys_table,
    sessions_table,
    users_table,
)

#: The name of the cookie-signing key in ``server_keys``.
COOKIE_KEY = "cookie_secret"


@dataclass(frozen=True)
class User:
    """An account as the server uses it (the password hash only where it is checked)."""

    id: str
    name: str
    created_at: float
    password_hash: str = ""


class NameTaken(Exception):
    """Another account already has this name (case-insensitively)."""


def server_key(engine: Engine, name: str = COOKIE_KEY) -> str:
    """The server's stored key ``name``, made and stored on first use.

    Two processes starting together on one database agree: the second insert
    fails on the primary key and both read the first one's key.
    """
    with engine.begin() as conn:
        found = conn.execute(
            select(server_keys_table.c.value).where(server_keys_table.c.name == name)
        ).scalar()
        if found is not None:
            return str(found)
    fresh = secrets.token_urlsafe(48)
    try:
        with engine.begin() as conn:
            conn.execute(insert(server_keys_table).values(name=name, value=fresh))
        return fresh
    except IntegrityError:
        with engine.begin() as conn:
            return str(
                conn.execute(
                    select(server_keys_table.c.value).where(server_keys_table.c.name == name)
                ).scalar_one()
            )


def create_user(
    engine: Engine, user_id: str, name: str, key: str, password_hash: str, now: float
) -> User:
    """Insert a new account; :class:`NameTaken` if ``key`` (the folded name) is taken."""
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(users_table).values(
                    id=user_id,
                    name=name,
                    name_key=key,
                    password_hash=password_hash,
                    created_at=now,
                )
            )
    except IntegrityError:
        raise NameTaken(name) from None
    return User(user_id, name, now)


def user_by_key(engine: Engine, key: str) -> User | None:
    """The account whose folded name is ``key``, with its password hash, or None."""
    with engine.connect() as conn:
        row = conn.execute(select(users_table).where(users_table.c.name_key == key)).first()
    if row is None:
        return None
    return User(str(row.id), str(row.name), float(row.created_at), str(row.password_hash))


def user_by_id(engine: Engine, user_id: str) -> User | None:
    """The account ``user_id``, with its password hash, or None."""
    with engine.connect() as conn:
        row = conn.execute(select(users_table).where(users_table.c.id == user_id)).first()
    if row is None:
        return None
    return User(str(row.id), str(row.name), float(row.created_at), str(row.password_hash))


def set_password(engine: Engine, user_id: str, password_hash: str) -> None:
    """Replace an account's password hash."""
    with engine.begin() as conn:
        conn.execute(
            update(users_table)
            .where(users_table.c.id == user_id)
            .values(password_hash=password_hash)
        )


# ------------------------------------------------------------------ sessions


def create_session(
    engine: Engine, id_hash: str, user_id: str, now: float, expires_at: float
) -> None:
    """Store a new session (by the hash of its id)."""
    with engine.begin() as conn:
        conn.execute(
            insert(sessions_table).values(
                id_hash=id_hash, user_id=user_id, created_at=now, expires_at=expires_at
            )
        )


def session_user(engine: Engine, id_hash: str, now: float) -> User | None:
    """The account of the live session ``id_hash`` (None if unknown, revoked or expired)."""
    with engine.connect() as conn:
        row = conn.execute(
            select(users_table.c.id, users_table.c.name, users_table.c.created_at)
            .join(sessions_table, sessions_table.c.user_id == users_table.c.id)
            .where(sessions_table.c.id_hash == id_hash, sessions_table.c.expires_at > now)
        ).first()
    if row is None:
        return None
    return User(str(row.id), str(row.name), float(row.created_at))


def delete_session(engine: Engine, id_hash: str) -> None:
    """Revoke one session (signing out on this device)."""
    with engine.begin() as conn:
        conn.execute(delete(sessions_table).where(sessions_table.c.id_hash == id_hash))


def delete_sessions(engine: Engine, user_id: str, keep: str | None = None) -> int:
    """Revoke every session of ``user_id`` except ``keep``; how many went, expired included."""
    query = delete(sessions_table).where(sessions_table.c.user_id == user_id)
    if keep is not None:
        query = query.where(sessions_table.c.id_hash != keep)
    with engine.begin() as conn:
        return int(conn.execute(query).rowcount or 0)


def delete_expired(engine: Engine, now: float) -> int:
    """Forget sessions past their expiry (on start; an expired one is refused anyway)."""
    with engine.begin() as conn:
        return int(
            conn.execute(delete(sessions_table).where(sessions_table.c.expires_at <= now)).rowcount
            or 0
        )


# --------------------------------------------------------------------- seats


def link_seat(engine: Engine, game_id: str, seat: int, user_id: str) -> bool:
    """Link a seat to ``user_id`` unless another account holds it; whether it is now theirs."""
    with engine.begin() as conn:
        conn.execute(
            update(seats_table)
            .where(
                seats_table.c.game_id == game_id,
                seats_table.c.seat == seat,
                (seats_table.c.user_id.is_(None)) | (seats_table.c.user_id == user_id),
            )
            .values(user_id=user_id)
        )
        owner = conn.execute(
            select(seats_table.c.user_id).where(
                seats_table.c.game_id == game_id, seats_table.c.seat == seat
            )
        ).scalar()
    return owner == user_id


def linked_seats(engine: Engine, game_id: str, user_id: str) -> list[int]:
    """The seats of ``game_id`` linked to ``user_id``, lowest first."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(seats_table.c.seat)
            .where(seats_table.c.game_id == game_id, seats_table.c.user_id == user_id)
            .order_by(seats_table.c.seat)
        ).all()
    return [int(r.seat) for r in rows]


def user_games(engine: Engine, user_id: str, limit: int) -> list[tuple[str, int]]:
    """``(game_id, seat)`` of the account's seats, the most recently changed games first."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(seats_table.c.game_id, seats_table.c.seat)
            .join(games_table, games_table.c.id == seats_table.c.game_id)
            .where(seats_table.c.user_id == user_id)
            .order_by(games_table.c.updated_at.desc(), seats_table.c.seat)
            .limit(limit)
        ).all()
    return [(str(r.game_id), int(r.seat)) for r in rows]


def carry_links(engine: Engine, old_game: str, new_game: str, seats: list[int]) -> int:
    """Link ``seats`` of ``new_game`` to the accounts that hold them in ``old_game`` (a
    rematch: the same people in the same seats); how many were linked."""
    if not seats:
        return 0
    with engine.begin() as conn:
        owners = conn.execute(
            select(seats_table.c.seat, seats_table.c.user_id).where(
                seats_table.c.game_id == old_game,
                seats_table.c.seat.in_(seats),
                seats_table.c.user_id.is_not(None),
            )
        ).all()
        for row in owners:
            conn.execute(
                update(seats_table)
                .where(seats_table.c.game_id == new_game, seats_table.c.seat == row.seat)
                .values(user_id=row.user_id)
            )
    return len(owners)
