"""A paused game keeps the time its player had left, to give it back on resume."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("games", sa.Column("paused_remaining_s", sa.Integer(), nullable=True))
