"""Fixtures: a fresh database per test (SQLite always; PostgreSQL when configured)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.support import DB_KINDS, Database, database


@pytest.fixture(params=DB_KINDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A database of each kind: the same test runs on SQLite and on PostgreSQL."""
    with database(request.param, tmp_path) as found:
        yield found


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[Database]:
    with database("sqlite", tmp_path) as found:
        yield found
