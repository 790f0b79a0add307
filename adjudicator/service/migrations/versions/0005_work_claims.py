"""Reports and mail are done by worker processes (`pbem worker`, several at once, on
other machines too): a report or a mail is claimed by one worker before it does it, and
a live step's reports go before bulk work such as preloading the examples."""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    for table in ("reports", "outbox"):
        op.add_column(table, sa.Column("claimed_by", sa.String(128), nullable=True))
        op.add_column(table, sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("reports", sa.Column("priority", sa.Integer, nullable=False,
                                       server_default="0"))
    op.add_column("reports", sa.Column("queued_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_reports_pending", "reports", ["priority", "queued_at"])
