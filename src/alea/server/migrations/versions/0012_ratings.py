"""Rated games and ratings: the ``rated`` flag, ratings per game kind, their history.

``games.rated`` marks a table created rated (every human seat held by an
account). ``ratings`` holds one openskill (Plackett-Luce) rating per account
and game kind with the games played and won; ``rating_history`` one row per
account and rated game, the rating before and after it. ``rated_games`` is the
guard that makes rating idempotent: its primary key is the game id, written in
the same transaction as the result and the new ratings, so a game is rated at
most once whatever happens to the process.

Revision ID: 0012
Revises: 0014
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column(
            "user_id",
            sa.String(32),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_table(
        "rated_games",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("rated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column(
            "user_id",
            sa.String(32),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_user_at", "rating_history", ["user_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_user_at", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_table("rated_games")
    op.drop_index("ix_ratings_game", table_name="ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rated")
