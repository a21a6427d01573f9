"""``alea serve``: the online game server on an embedded SQLite file by default.

The first command of the README: it needs no other service. The database is
``alea.sqlite`` in ``--data-dir`` (default: the current directory) unless
``--database-url`` names another (``postgresql+psycopg://user@host/db``).
With ``--redis-url`` (and PostgreSQL) it is one of several processes serving
the same games (docs/deploy.md); SQLite serves one process only.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to the ``alea`` application."""

    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="Interface to listen on."),
        port: int = typer.Option(8000, help="TCP port (0: any free port)."),
        database_url: str | None = typer.Option(
            None,
            "--database-url",
            envvar="ALEA_DATABASE_URL",
            help="SQLAlchemy URL; default: SQLite file alea.sqlite in --data-dir.",
        ),
        data_dir: str = typer.Option(
            ".", "--data-dir", help="Directory for the default SQLite database."
        ),
        bot_delay: float = typer.Option(0.8, help="Seconds a bot waits before each move."),
        idle_timeout: float = typer.Option(
            90.0, help="Seconds of silence on a turn before others may hand the seat to a bot."
        ),
        bot_processes: int = typer.Option(
            2, help="Worker processes bots think in (0: one thread of the server's)."
        ),
        create_rate: str = typer.Option(
            "20/minute;200/hour",
            help='New games per client address ("limits" notation; "" for no limit).',
        ),
        bot_tables_per_client: int = typer.Option(
            8, help="Unfinished games with bots one client address may have (0: no limit)."
        ),
        chat_rate: str = typer.Option(
            "5/10 seconds",
            help='Chat lines per seat (or spectator address) and game ("limits" notation).',
        ),
        open_game_ttl: float = typer.Option(
            86400.0,
            help="Seconds after its last change an open game nobody completes is deleted "
            "(unless someone watches it).",
        ),
        retention_poll: float = typer.Option(
            30.0, help="Seconds between two looks for open games to expire."
        ),
        unwatched_ttl: float = typer.Option(
            30.0,
            help="With several processes: seconds a process keeps a game nobody there "
            "watches once it stopped following its moves (it is read again when wanted).",
        ),
        rematch_timeout: float = typer.Option(
            60.0, help="Seconds a rematch waits for answers before bots take the other seats."
        ),
        sqlite_synchronous: str = typer.Option(
            "FULL", help="SQLite synchronous pragma: FULL (power-safe) or NORMAL (crash-safe)."
        ),
        snapshot_every: int = typer.Option(
            64,
            help="Store a snapshot of each game's state every N events, so that a restart "
            "replays only the events after it (0: none).",
        ),
        access_log: bool = typer.Option(False, help="Log every HTTP request."),
        ws: str = typer.Option(
            "alea",
            help="WebSocket implementation: alea (uvicorn's websockets-sansio with a "
            "synchronous send for game updates), websockets-sansio, websockets or wsproto.",
        ),
        log_level: str = typer.Option("info", help="Log level: debug, info, warning, error."),
        cookie_secret: str | None = typer.Option(
            None,
            "--cookie-secret",
            envvar="ALEA_COOKIE_SECRET",
            help="Key signing account session cookies; default: generated on first start "
            "and stored in the database.",
        ),
        secure_cookies: bool | None = typer.Option(
            None,
            "--secure-cookies/--no-secure-cookies",
            help="Mark session cookies Secure; default: when the request came over https "
            "(directly or via a proxy's X-Forwarded-Proto).",
        ),
        trusted_origin: Annotated[
            list[str] | None,
            typer.Option(
                "--trusted-origin",
                help="Another origin allowed to send signed-in changes (repeatable), e.g. "
                "https://alea.example behind a proxy that rewrites Host.",
            ),
        ] = None,
        abandon_after: float = typer.Option(
            3 * 86400.0,
            help="Seconds without any human at a table before it is closed as abandoned "
            "(turn-based tables wait at least two rounds of full turns).",
        ),
        smtp_url: str | None = typer.Option(
            None,
            "--smtp-url",
            envvar="ALEA_SMTP_URL",
            help="Send notification e-mail through this server: smtp://host:port or "
            "smtps://user:password@host:port. Default: no e-mail.",
        ),
        mail_from: str = typer.Option(
            "alea@localhost", "--mail-from", help="The From address of notification e-mail."
        ),
        public_url: str | None = typer.Option(
            None,
            "--public-url",
            help="The address players reach this server at (https://alea.example), for "
            "the links in e-mail; e-mail needs it.",
        ),
        redis_url: str | None = typer.Option(
            None,
            "--redis-url",
            envvar="ALEA_REDIS_URL",
            help="Redis shared by several processes on one PostgreSQL database (fan-out and "
            "leases; see docs/deploy.md). Default: this process is the only one.",
        ),
        redis_prefix: str = typer.Option(
            "alea",
            "--redis-prefix",
            envvar="ALEA_REDIS_PREFIX",
            help="Prefix of the Redis keys and channel (services sharing one Redis differ).",
        ),
    ) -> None:
        """Start the game server and print its URL (Ctrl-C stops it)."""
        import socket

        import uvicorn

        from alea.server import Settings, create_app
        from alea.server.clock import clock_from_environment
        from alea.server.cluster import ClusterRefused, check_database
        from alea.server.config import default_database_url
        from alea.server.fastsocket import socket_options

        directory = Path(data_dir)
        directory.mkdir(parents=True, exist_ok=True)
        url = database_url or default_database_url(directory.resolve())
        try:
            check_database(url, redis_url)
        except ClusterRefused as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(2) from None
        settings = Settings(
            database_url=url,
            bot_delay=bot_delay,
            idle_timeout=idle_timeout,
            bot_processes=bot_processes,
            create_rate=create_rate,
            bot_tables_per_client=bot_tables_per_client,
            chat_rate=chat_rate,
            open_game_ttl=open_game_ttl,
            retention_poll=retention_poll,
            unwatched_ttl=unwatched_ttl,
            rematch_timeout=rematch_timeout,
            sqlite_synchronous=sqlite_synchronous,
            snapshot_every=max(0, snapshot_every),
            access_log=access_log,
            tune_gc=True,
            cookie_secret=cookie_secret,
            secure_cookies=secure_cookies,
            trusted_origins=tuple(trusted_origin or ()),
            abandon_after=abandon_after,
            smtp_url=smtp_url,
            mail_from=mail_from,
            public_url=public_url,
            redis_url=redis_url or None,
            redis_prefix=redis_prefix,
            clock=clock_from_environment(),  # time.time but in tests (TEST_CLOCK_ENV)
        )
        if smtp_url:
            from alea.server.mailer import parse_smtp_url

            try:
                parse_smtp_url(smtp_url)
            except ValueError as err:
                raise typer.BadParameter(str(err), param_hint="--smtp-url") from None
            if not public_url:
                raise typer.BadParameter(
                    "e-mail links need the server's address", param_hint="--public-url"
                )
        logging.basicConfig(
            level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
        # Migrations talk a lot at INFO; say only what matters when all is well.
        logging.getLogger("alembic").setLevel(max(logging.WARNING, logging.root.level))
        # Bind the socket ourselves so that --port 0 works and the URL printed is the real one.
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        bound = sock.getsockname()[1]
        if not url.startswith("sqlite"):
            # Not listening yet (bound only): connections are refused, not left hanging,
            # until the database answers; then the server starts as usual.
            from alea.server.outage import wait_until_reachable
            from alea.server.tables import make_engine

            probe = make_engine(url)
            try:
                wait_until_reachable(probe, _safe(url))
            finally:
                probe.dispose()
        shown = f"[{host}]" if ":" in host else host
        typer.echo(f"Alea Iacta Est server: http://{shown}:{bound}/  (open it in a browser)")
        typer.echo(f"database: {_safe(url)}")
        if redis_url:
            typer.echo(f"one of several processes: Redis {_safe_redis(redis_url)}")
        typer.echo("Ctrl-C stops the server; games continue where they were when it restarts.")
        config = uvicorn.Config(
            create_app(settings),
            log_level=log_level.lower(),
            access_log=access_log,
            **socket_options(settings.max_frame, ws),
            timeout_graceful_shutdown=5,
        )
        uvicorn.Server(config).run(sockets=[sock])


def _safe_redis(url: str) -> str:
    """The Redis URL without its password, for printing."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def _safe(url: str) -> str:
    """The database URL without its password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
