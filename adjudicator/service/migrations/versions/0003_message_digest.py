"""Received e-mails are found again by the digest of their bytes (a retried SMTP
delivery, a poller re-reading after a crash), through an index."""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.add_column("messages", sa.Column("sha256", sa.String(64), nullable=True))
    op.create_index("ix_messages_sha256", "messages", ["sha256"])
