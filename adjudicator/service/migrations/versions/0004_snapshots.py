"""The position after each game's last journal line, kept so that a submission never
replays the journal (issue 13); a game without one is replayed once and gets one."""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("snapshot", sa.LargeBinary, nullable=False),
    )
