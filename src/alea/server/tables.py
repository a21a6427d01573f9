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
    false,
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
    #: A rated table (revision 0012): every human seat held by an account.
    Column("rated", Boolean, nullable=False, server_default=false()),
    #: When a process last saw a human at the table (revision 0016): abandonment across
    #: processes (alea.server.turns); null: never recorded.
    Column("human_seen", Float, nullable=True),
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
    #: Where notifications go (revision 0013), checked with ``email-validator``; null: none.
    Column("email", String(254), nullable=True),
    #: Whether the account wants e-mail when it is their turn or a game ends (0013).
    Column("notify_email", Boolean, nullable=False, server_default=false()),
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

# Chat at the table (revision 0014; alea.server.chat_store reads and writes it): kept
# with the game, so its replay shows each line at the step it was said.
chat_table = Table(
    "chat",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    #: ``players`` or ``spectators`` (alea.server.chat: who may read it).
    Column("channel", String(16), nullable=False),
    #: The speaker's seat; null for a spectator and for the human referee.
    Column("seat", Integer, nullable=True),
    Column("role", String(16), nullable=False),
    Column("name", String(40), nullable=False),
    Column("text", Text, nullable=False),
    #: The game's version when the line was said: the replay step it belongs to.
    Column("step", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
)

# Time controls of tables that have one (revision 0013; alea.server.turns keeps them):
# the control chosen at creation and the running clock, so a restart resumes it.
game_clocks_table = Table(
    "game_clocks",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    #: ``realtime`` or ``turn`` (alea.server.timecontrol).
    Column("mode", String(16), nullable=False),
    #: Seconds per move (per turn of one seat), and the bank each seat starts with.
    Column("per_move", Integer, nullable=False),
    Column("bank", Integer, nullable=False),
    #: ``bot_move`` or ``bot_seat``: what happens when a seat's time runs out.
    Column("on_timeout", String(16), nullable=False),
    #: The seat whose turn is being timed and when it began (null: nobody's).
    Column("turn_seat", Integer, nullable=True),
    Column("turn_started", Float, nullable=True),
    #: JSON list: the bank each seat has left, in seconds.
    Column("banks", Text, nullable=False),
)

# Ratings (revision 0012; alea.server.rating_store reads and writes them): one openskill
# rating per account and game kind, each rated game's change, and the guard that rates a
# game once.
ratings_table = Table(
    "ratings",
    metadata,
    Column("user_id", String(32), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_ratings_game", "game"),
)

#: One row per rated game: written with the result, so a game is never rated twice.
rated_games_table = Table(
    "rated_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("rated_at", Float, nullable=False),
)

rating_history_table = Table(
    "rating_history",
    metadata,
    Column("user_id", String(32), ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    #: 1 for the winner; seats that tie share a place.
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_rating_history_user_at", "user_id", "at"),
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


class DatabaseUnavailable(StorageError):
    """The write failed because the database could not be reached (nothing was stored)."""


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
    #: The account the seat is linked to, when known at the write (a rated table's
    #: seats are linked in the same write that seats them); None leaves it as it is.
    user_id: str | None = None


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
    #: The time control and running clock (a ``game_clocks`` row), None: no control.
    clock: ClockRecord | None = None
    #: A rated table (every human seat held by an account; see :mod:`alea.server.ratings`).
    rated: bool = False
    #: The stored snapshot of the engine state, if any (checked against ``events`` before use).
    snapshot: SnapshotRecord | None = None
    #: When a process last recorded a human at the table (None: never; see ``games.human_seen``).
    human_seen: float | None = None


@dataclass
class ClockRecord:
    """A ``game_clocks`` row: the control chosen and the clock of the turn being timed."""

    mode: str
    per_move: int
    bank: int
    on_timeout: str
    turn_seat: int | None = None
    turn_started: float | None = None
    banks: list[float] = field(default_factory=list)


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


#: Seconds a new PostgreSQL connection may take before the attempt fails.
CONNECT_TIMEOUT = 5


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
    if make_url(url).get_driver_name() == "psycopg":
        # A database out of reach (packets dropped) would otherwise hold a connection
        # attempt for the kernel's TCP timeout, about two minutes, per attempt.
        options.setdefault("connect_args", {}).setdefault("connect_timeout", CONNECT_TIMEOUT)
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
