"""The database's tables, the records read from them, and how to open and migrate it.

**Alembic owns the schema** (:mod:`alea.server.migrations`); the tables below
must match the latest migration (a test checks that they do). SQLite is the
default and PostgreSQL is chosen by URL: plain SQLAlchemy Core with portable
types; SQLite runs in WAL mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import (
    Boolean,
    Column,
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
)
from sqlalchemy.engine import make_url

#: The game of the rows written before games had a ``game`` column (migration 0002), and
#: of a new game whose creator names none: the only game name the server holds.
DEFAULT_GAME: Final = "iacta"

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
    Column("game", String(16), nullable=False, server_default=DEFAULT_GAME),
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
    # The account a seat is linked to (revision 0005); null for a guest's seat.
    Column(
        "user_id",
        String(32),
        ForeignKey("users.id", ondelete="SET NULL", name="fk_seats_user_id"),
        nullable=True,
    ),
    Index("ix_seats_user_id", "user_id"),
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

# Player accounts (revision 0005; alea.server.account_store reads and writes them).
users_table = Table(
    "users",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(24), nullable=False),
    #: The name case-folded: unique, so "Marco" and "marco" cannot both exist.
    Column("name_key", String(64), nullable=False),
    #: The Argon2 hash in PHC format; the password itself is never stored.
    Column("password_hash", String(255), nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ux_users_name_key", "name_key", unique=True),
)

sessions_table = Table(
    "sessions",
    metadata,
    #: SHA-256 of the session id; the id itself lives only in the browser's cookie.
    Column("id_hash", String(64), primary_key=True),
    Column("user_id", String(32), ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("ix_sessions_user_id", "user_id"),
)

# Analyses of finished games (revision 0011; alea.server.analysis_store reads and writes
# them): computed once in the background, then served from here.
analyses_table = Table(
    "analyses",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("samples", Integer, nullable=False),
    Column("seed", Integer, nullable=False),
    #: The analysis as JSON (:meth:`alea.analysis.Analysis.to_json`).
    Column("result", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

# Snapshots of the engine state (revision 0015; alea.server.state_snapshots): the state
# after the first ``idx`` events of a game's log, so that a restart replays only the rest.
snapshots_table = Table(
    "snapshots",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, nullable=False),
    #: The rules version (:attr:`alea.game.GameInfo.version`) the state was saved under.
    Column("rules", Integer, nullable=False),
    #: JSON: ``{"state": <to_json()>, "actors": [the actor of each of the idx events]}``.
    Column("state", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

#: Secrets the server makes for itself on first start (the cookie-signing key).
server_keys_table = Table(
    "server_keys",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
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
    #: The game's short name (:attr:`alea.game.GameInfo.name`): which engine replays the events.
    game: str = DEFAULT_GAME
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
    #: The stored snapshot of the engine state, if any (checked against ``events`` before use).
    snapshot: SnapshotRecord | None = None


@dataclass
class SnapshotRecord:
    """A stored snapshot: the engine state after the first ``idx`` events of the log."""

    idx: int
    #: The rules version it was saved under (:attr:`alea.game.GameInfo.version`).
    rules: int
    #: The JSON text of ``{"state": ..., "actors": [...]}``.
    state: str


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
