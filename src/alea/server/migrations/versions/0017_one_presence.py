"""Presence in one place: ``games.human_seen`` only (the clock row's copy goes).

Revision 0013 stored when a human was last at a timed table in its clock row
(``game_clocks.human_seen``, written at every turn passed); 0016 added
``games.human_seen`` for every table, written by the abandonment sweep, and a
load took the later of the two. Now the sweep records presence on one process
too (and at shutdown), so the clock row's copy is folded into ``games`` (the later
of the two is kept) and dropped.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "UPDATE games SET human_seen = (SELECT c.human_seen FROM game_clocks AS c "
        "WHERE c.game_id = games.id) "
        "WHERE EXISTS (SELECT 1 FROM game_clocks AS c WHERE c.game_id = games.id "
        "AND c.human_seen IS NOT NULL "
        "AND (games.human_seen IS NULL OR c.human_seen > games.human_seen))"
    )
    with op.batch_alter_table("game_clocks") as batch:
        batch.drop_column("human_seen")


def downgrade() -> None:
    with op.batch_alter_table("game_clocks") as batch:
        batch.add_column(sa.Column("human_seen", sa.Float, nullable=True))
    op.execute(
        "UPDATE game_clocks SET human_seen = (SELECT g.human_seen FROM games AS g "
        "WHERE g.id = game_clocks.game_id)"
    )
