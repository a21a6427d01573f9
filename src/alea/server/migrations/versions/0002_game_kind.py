"""Game kinds: ``games.game`` says which engine a game's log belongs to.

Existing games are Alea Iacta Est (``iacta``, the server default); Dado
Romano games are ``romano``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("game", sa.String(16), nullable=False, server_default="iacta"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("game")
