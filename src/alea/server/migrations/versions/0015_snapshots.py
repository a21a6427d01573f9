"""Snapshots of the engine state beside the event log, for a fast start.

One row per game: the engine's full state (``to_json``) after its first ``idx``
events, the rules version it was saved under, and the actor of each of those
events. The log stays the source of truth: a snapshot is only used when it
matches the log (see :mod:`alea.server.state_snapshots`). Deleting a game deletes
its snapshot.

Revision ID: 0015
Revises: 0012
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("rules", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
