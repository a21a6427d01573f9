"""Presence: ``games.human_seen``, when a human was last at the table at any process.

With several processes, a table's players may be connected to one process while
another holds the game in memory with none of its sockets. Each process records
in this column (at most once a sweep, ``Settings.abandon_poll``) when it last saw
a human at a table, and a table is closed as abandoned only by a write that
checks this column (:mod:`alea.server.turns`), so no process closes a table whose
players are at another. Existing games have none (null): their presence is what
a process sees from now on.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("human_seen", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("human_seen")
