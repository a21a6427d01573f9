"""Time controls, turn-based tables and notification settings.

``game_clocks`` holds the time control a table chose at creation (real time
with a bank, or turn-based) and the clock of the turn being timed, so that a
restart resumes every clock where it was. ``users.email`` and
``users.notify_email`` are where, and whether, an account gets e-mail when it
is its turn or a game ends.

Revision ID: 0013
Revises: 0011
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_clocks",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("per_move", sa.Integer, nullable=False),
        sa.Column("bank", sa.Integer, nullable=False),
        sa.Column("on_timeout", sa.String(16), nullable=False),
        sa.Column("turn_seat", sa.Integer, nullable=True),
        sa.Column("turn_started", sa.Float, nullable=True),
        sa.Column("banks", sa.Text, nullable=False),
        sa.Column("human_seen", sa.Float, nullable=True),
    )
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(
            sa.Column("notify_email", sa.Boolean, nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("notify_email")
        batch.drop_column("email")
    op.drop_table("game_clocks")
