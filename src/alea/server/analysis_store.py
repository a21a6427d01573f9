"""Stored analyses: one row per finished game and seat (Alembic revision ``0011``).

Like :mod:`alea.server.account_store`, every function takes a SQLAlchemy
``Engine`` and blocks (called through :func:`asyncio.to_thread`) in a short
transaction of its own, away from the games' group-committing writer: an
analysis is written once per game and seat, long after the game's last move.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import Engine, delete, insert, select
from sqlalchemy.exc import IntegrityError

from alea.server.tables import analyses_table


def load(engine: Engine, game_id: str, seat: int) -> dict[str, Any] | None:
    """The stored analysis of ``seat`` in ``game_id`` (None if it was never computed)."""
    with engine.connect() as conn:
        found = conn.execute(
            select(analyses_table.c.result).where(
                analyses_table.c.game_id == game_id, analyses_table.c.seat == seat
            )
        ).scalar()
    if found is None:
        return None
    data: dict[str, Any] = json.loads(found)
    return data


def save(engine: Engine, game_id: str, seat: int, analysis: dict[str, Any]) -> None:
    """Store an analysis; a second one for the same game and seat keeps the first."""
    row = {
        "game_id": game_id,
        "seat": seat,
        "samples": int(analysis["samples"]),
        "seed": int(analysis["seed"]),
        "result": json.dumps(analysis, separators=(",", ":")),
        "created_at": time.time(),
    }
    try:
        with engine.begin() as conn:
            conn.execute(insert(analyses_table).values(**row))
    except IntegrityError:
        pass  # computed twice (two processes): both are the same seeded analysis


def forget(engine: Engine, game_id: str) -> int:
    """Delete the analyses of ``game_id``; how many there were."""
    with engine.begin() as conn:
        return conn.execute(
            delete(analyses_table).where(analyses_table.c.game_id == game_id)
        ).rowcount
