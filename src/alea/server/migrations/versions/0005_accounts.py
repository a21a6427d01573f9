"""Player accounts: users, their server-side sessions, and seats linked to a user.

Accounts are optional (guests keep playing with seat tokens). ``users`` holds a
name (unique case-insensitively through ``name_key``) and an Argon2 hash of the
password, never the password. ``sessions`` holds only the SHA-256 of each
session id, so a leaked database opens no session, and deleting rows signs a
user out everywhere. ``seats.user_id`` links a seat to the account that holds
it (null for a guest), so a signed-in player resumes from any device.
``server_keys`` keeps the cookie-signing key the server generates on first
start when none is configured.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ux_users_name_key", "users", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id",
            sa.String(32),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_user_id", "sessions", ["user_id"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("user_id", sa.String(32), nullable=True))
        batch.create_foreign_key(
            "fk_seats_user_id", "users", ["user_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_index("ix_seats_user_id", ["user_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_user_id")
        batch.drop_constraint("fk_seats_user_id", type_="foreignkey")
        batch.drop_column("user_id")
    op.drop_table("server_keys")
    op.drop_index("ix_sessions_user_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_index("ux_users_name_key", table_name="users")
    op.drop_table("users")
