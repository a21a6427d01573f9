"""Server settings: one frozen object handed to :func:`alea.server.create_app`.

Everything that tests and benchmarks want to change (database, bot delay,
idle timeout, the random source, the clock of time limits) is a field here
rather than a global, so two apps with different settings can live in one
process.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alea.bots import Bot

#: ``factory(game, level)`` -> a bot for the game of that short name; the default is
#: :func:`alea.bots.for_game`.
BotFactory = Callable[[str, str], Bot]


def default_database_url(directory: Path | None = None) -> str:
    """The embedded default: an SQLite file ``alea.sqlite`` in ``directory`` (or the cwd)."""
    path = (directory or Path.cwd()) / "alea.sqlite"
    return f"sqlite:///{path}"


def _system_random() -> random.Random:
    return random.SystemRandom()


@dataclass(frozen=True)
class Settings:
    """How one server instance behaves.

    ``chance_rng`` makes the generator every game draws its chance events
    from; the default is :class:`random.SystemRandom`, so there is no seed at
    all that could leak, and the drawn outcomes are stored in the event log so
    that replays stay exact. Tests may pass a seeded factory.
    """

    database_url: str = field(default_factory=default_database_url)
    #: Seconds a bot waits before acting, so that humans can follow the game.
    bot_delay: float = 0.8
    #: Seconds a human may stay silent on their turn before others may hand the seat to a bot.
    idle_timeout: float = 90.0
    #: Worker processes bots think in (:mod:`alea.server.botpool`): at most this many cores
    #: go to bots however many tables play; 0 thinks in one dedicated thread instead.
    bot_processes: int = 2
    #: Worker processes game analyses and hints run in (:mod:`alea.server.analyses`);
    #: 0 runs them in one dedicated thread instead.
    analysis_processes: int = 1
    #: Sampled deals per decision of a stored analysis, and of a hint (quicker).
    analysis_samples: int = 24
    hint_samples: int = 12
    #: New games one client address may create, in the notation of the ``limits`` library
    #: (moving window; ``""``: no limit). Past it, ``429 rate_limited`` with Retry-After.
    create_rate: str = "20/minute;200/hour"
    #: Unfinished games with bots one client address may have created at once (0: no limit).
    bot_tables_per_client: int = 8
    #: Seconds after its last change (creation, a claim) an open game nobody completes is
    #: deleted, unless a socket watches it (:mod:`alea.server.retention`).
    open_game_ttl: float = 24 * 3600.0
    #: Seconds an open game nobody asks for stays in memory (it stays on disk).
    open_game_memory: float = 300.0
    #: Seconds between two looks at which open games to expire or drop from memory.
    retention_poll: float = 30.0
    #: Default difficulty for seats handed to a bot (and rematch seats nobody took).
    takeover_level: str = "medium"
    #: Chat lines one seat (or one spectator's address) may say per game: a ``limits``
    #: rate string (alea.server.chat).
    chat_rate: str = "5/10 seconds"
    #: Seconds a rematch offer waits for the seats' answers before bots take the rest.
    rematch_timeout: float = 60.0
    #: ``(game, level) -> bot``; None means :func:`alea.bots.for_game`.
    bot_factory: BotFactory | None = None
    chance_rng: Callable[[], random.Random] = _system_random
    #: SQLite ``synchronous`` pragma: FULL survives power loss too; NORMAL survives
    #: process kills (the promise here) and is faster.
    sqlite_synchronous: str = "FULL"
    #: Largest WebSocket text message accepted from a client, in characters.
    max_message: int = 4096
    #: Largest WebSocket frame uvicorn accepts (``ws_max_size``), in bytes: bigger frames
    #: close the socket (1009) before they are read in full.
    max_frame: int = 64 * 1024
    #: Largest HTTP request body, in bytes: larger ones are refused with 413 before they
    #: are read in full (the biggest legitimate body is about 2 KB).
    max_body: int = 64 * 1024
    #: Seconds a connection's queued replies may stay undelivered before it is dropped
    #: as a client that does not read (while they wait, its messages are not read).
    slow_client_timeout: float = 10.0
    #: Sockets doing their opening work (lookup, hello) at once, how many more may wait in
    #: line and for how many seconds; past either an opening is answered ``busy`` (close
    #: 1013) with ``retry_after`` (:mod:`alea.server.admission`).
    opening_at_once: int = 16
    opening_waiting: int = 5000
    opening_wait: float = 10.0
    #: How many finished games to keep in memory for views and replays.
    finished_cache: int = 256
    #: Store a snapshot of a game's engine state every this many events, so that a
    #: restart replays only the events after it (:mod:`alea.server.state_snapshots`);
    #: 0: no snapshots (a restart replays every log from its start).
    snapshot_every: int = 64
    #: Access log lines from uvicorn (off for benchmarks).
    access_log: bool = False
    #: Whether to serve the browser client (``alea.web``) at ``/``.
    serve_web: bool = True
    #: Tune the garbage collector for a long-running server (``alea serve`` does): after
    #: start-up the loaded games are frozen out of the collector's sight and full
    #: collections become rare, because a full pass over every object of hundreds of
    #: live games paused the event loop for a quarter of a second under load. The
    #: youngest generation is collected after 25,000 new objects rather than 2,000:
    #: every move replaces its game's engine state (some forty lists), so each young
    #: collection walked the fresh states of every game moved since the last one, and
    #: at 2,000 that cost 43 µs of CPU per move (7% of the server's) against 9.5 µs
    #: (measured with gc.callbacks under bench/server_load.py, 250 games). In steady
    #: play nothing is cyclic garbage, so the rarer collections keep no more memory.
    tune_gc: bool = False
    #: Extra keyword arguments for SQLAlchemy's ``create_engine``.
    engine_options: dict[str, Any] = field(default_factory=dict)
    #: The wall clock (epoch seconds) the server measures every time with: time-limit
    #: deadlines, when a turn began (the idle takeover), when a game was created and
    #: last changed. Tests inject a clock they can move forward, so that an hour-long
    #: Dado Romano limit runs out, or a seat goes idle, at once.
    clock: Callable[[], float] = time.time
    #: Longest the time-limit watcher sleeps before it looks at the clock again (seconds).
    #: It sleeps until the next deadline and is woken when a new one appears, so this
    #: only bounds the delay after the wall clock (or an injected clock) jumps ahead.
    deadline_poll: float = 5.0
    # -- player accounts (optional; see docs/server.md "Accounts")
    #: The key that signs session cookies and derives CSRF tokens. None: a random key is
    #: generated on first start and stored in the database (``server_keys``), so every
    #: process serving that database, and every restart, agrees on it.
    cookie_secret: str | None = None
    #: The ``Secure`` flag of the session cookie. None: set it when the request came over
    #: https (directly, or through a proxy whose ``X-Forwarded-Proto`` uvicorn trusts).
    secure_cookies: bool | None = None
    #: How long a session lasts after signing in (days); "sign out everywhere" ends it sooner.
    session_days: float = 30.0
    #: Wrong passwords allowed per account name, and per client address (``limits`` notation).
    login_limit_per_account: str = "5/minute"
    login_limit_per_address: str = "20/minute"
    #: New accounts per client address.
    signup_limit_per_address: str = "10/hour"
    #: Origins besides the server's own (``Host``) allowed to send cookie-authenticated
    #: changes, e.g. ``("https://alea.example",)`` behind a proxy that rewrites ``Host``.
    trusted_origins: tuple[str, ...] = ()
    # -- time controls, abandonment, notifications (see docs/server.md "Time controls")
    #: Seconds without any human acting at or connected to a table before it is closed as
    #: ``abandoned`` (turn-based tables wait at least two rounds of full turns).
    abandon_after: float = 3 * 86400.0
    #: Seconds between two looks for abandoned tables.
    abandon_poll: float = 60.0
    #: The SMTP server notifications are sent through (``smtp://host:port``, or
    #: ``smtps://`` for TLS from the start; ``user:password@`` if it wants a login).
    #: None: no e-mail at all (the default).
    smtp_url: str | None = None
    #: The ``From`` address of notification e-mail.
    mail_from: str = "alea@localhost"
    #: The server's address as players reach it (``https://alea.example``), for the links
    #: in e-mail; None: e-mail cannot be sent (a link to nowhere helps nobody).
    public_url: str | None = None
    #: Seconds a turn-based turn waits before its "your turn" mail (none if taken by then).
    notify_delay: float = 60.0
    # -- several processes, one service (see docs/deploy.md)
    #: Redis, shared by every process serving the same PostgreSQL database: fan-out of
    #: changes and leases of timed work. None: this process is the only one (the default).
    redis_url: str | None = None
    #: Prefix of every Redis key and channel: services sharing one Redis keep apart.
    redis_prefix: str = "alea"
    #: Seconds a lease on a game's timed work (bots, time limit) lasts unless renewed: when
    #: its process dies, another takes the game over within about this long.
    lease_ttl: float = 3.0
    #: Seconds between two sweeps: lease renewal, taking over orphaned games, and the
    #: comparison of stored versions with memory.
    cluster_sweep: float = 1.0
    #: Seconds a process keeps a game nobody there watches once it stopped following its
    #: moves (with other processes; :meth:`alea.server.cluster.Cluster._drop_behind`).
    unwatched_ttl: float = 30.0
