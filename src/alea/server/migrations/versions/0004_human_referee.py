"""The human referee of Dado Romano: ``games.referee``, its name and token, the exchange.

RULES.md B5 lets a person referee Dado Romano: they pose their own riddles and
questions and mark the answers right or wrong. Online that person holds a
referee role besides the player seats, proved by a secret token stored hashed
like a seat's (``referee_token``). ``referee`` says which referee replays the
log (``software``, the default and every earlier game, or ``human``): the
engine needs it to rebuild the game. ``exchange`` is the current question and
answer typed on the table, as JSON, kept so a reload or restart still shows
them; it is not part of the event log.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("referee", sa.String(16), nullable=False, server_default="software")
        )
        batch.add_column(sa.Column("referee_name", sa.String(40), nullable=True))
        batch.add_column(sa.Column("referee_token", sa.String(64), nullable=True))
        batch.add_column(sa.Column("exchange", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("exchange")
        batch.drop_column("referee_token")
        batch.drop_column("referee_name")
        batch.drop_column("referee")
