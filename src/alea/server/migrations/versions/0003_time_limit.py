"""Time limits: ``games.time_limit`` (minutes) and ``games.deadline`` (epoch seconds).

Dado Romano games may have a time limit (RULES.md B1). The limit is chosen
at creation; the deadline is fixed when play begins (every seat taken), and
both are stored so that a restarted server still declares the last round on
time, or at once if the deadline passed while it was down. Existing games
have neither (null): no time limit.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("time_limit", sa.Integer, nullable=True))
        batch.add_column(sa.Column("deadline", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deadline")
        batch.drop_column("time_limit")
