"""Issue 16: where each submission came from (a rate limit per source; a file no player
signed kept apart from the public record), problem answers held back into a digest, the
label of each report (turn, phase, outcome), each game's final result and the
tournaments' points schemes (standings)."""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.add_column("submissions", sa.Column("source", sa.String(200), nullable=True))
    op.create_index("ix_submissions_source", "submissions", ["source", "received_at"])
    op.add_column("outbox", sa.Column("kind", sa.String(16), nullable=True))
    op.add_column("outbox", sa.Column("not_before", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_outbox_kind", "outbox", ["to_addr", "kind", "created_at"])
    op.add_column("reports", sa.Column("label", sa.Text, nullable=True))
    op.add_column("games", sa.Column("result", sa.Text, nullable=True))
    op.create_table(
        "tournaments",
        sa.Column("name", sa.String(128), primary_key=True),
        sa.Column("scheme", sa.Text, nullable=False))
