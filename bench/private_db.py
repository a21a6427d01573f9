"""A private PostgreSQL database for one benchmark run, dropped afterwards.

The benchmarks create hundreds of games; on a shared server (the test database
of CI, a developer's own) they must leave none behind. :func:`private_database`
creates a fresh database beside the one a URL names, yields that database's URL,
and drops it (with whatever the run stored) when the run ends, even on an error
or Ctrl-C. SQLite URLs pass through unchanged: their file is the run's own.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


@contextlib.contextmanager
def private_database(url: str) -> Iterator[str]:
    """``url`` itself for SQLite; for PostgreSQL the URL of a new database, dropped after."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        yield url
        return
    name = f"alea_bench_{secrets.token_hex(4)}"
    admin = create_engine(parsed, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield parsed.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
