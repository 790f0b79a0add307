"""The service's database: SQLAlchemy Core tables, engines for SQLite (WAL, one
writer at a time) and PostgreSQL, and migrations with Alembic.

The journal stays the source of truth (docs/journal.md): `journal_lines` holds each
game's journal byte for byte, `pbem verify` checks an export of it. Everything else
is bookkeeping around it: who plays, every submission's raw bytes and verdict,
the raw e-mails, rendered reports, deadlines and the outgoing mail queue.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
)

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(64), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("title", Text, nullable=False),
    Column("scenario", String(64), nullable=False),
    Column("tournament", String(128)),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False),  # active, paused, over, forfeited
    Column("policy", String(16), nullable=False),  # missed deadline: wait, pass, forfeit
    Column("deadline_hours", Integer, nullable=False),
    Column("deadline_at", DateTime(timezone=True)),
    Column("reminded_at", DateTime(timezone=True)),
    Column("paused_until", DateTime(timezone=True)),  # unused since 0002
    Column("paused_remaining_s", Integer),  # a paused game's time left on its deadline
    Column("next_seq", Integer, nullable=False),
    Column("acting_side", String(32)),
    Column("result", Text),  # since 0006: JSON of the final result, for the standings
)

# Since 0006: a tournament's points scheme (JSON, service/standings.py); a tournament
# without a row here counts win 1, draw 1/2, loss 0.
tournaments = Table(
    "tournaments", metadata,
    Column("name", String(128), primary_key=True),
    Column("scheme", Text, nullable=False),
)

journal_lines = Table(
    "journal_lines", metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("line_no", Integer, primary_key=True),
    Column("line", LargeBinary, nullable=False),
)

game_secrets = Table(
    "game_secrets", metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("referee_key", LargeBinary, nullable=False),
    Column("secrets", Text, nullable=False),
)

# The position after a game's last journal line, so that a submission never replays the
# journal; checked against the journal's state hash before use (referee.current_game).
snapshots = Table(
    "snapshots", metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("snapshot", LargeBinary, nullable=False),  # canonical JSON of a Snapshot
)

players = Table(
    "players", metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("side", String(32), primary_key=True),
    Column("name", Text, nullable=False),
    Column("email", Text, nullable=False),
    Column("timezone", String(64), nullable=False),
    Column("fingerprint", String(128), nullable=False),
    Column("link_token_sha256", String(64), nullable=False, unique=True),
)

submissions = Table(
    "submissions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("sha256", String(64), nullable=False, unique=True),
    Column("raw", LargeBinary, nullable=False),
    Column("game_id", String(64)),
    Column("channel", String(16), nullable=False),  # web, smtp, maildir, imap, cli
    Column("sender", Text),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Column("outcome", String(16), nullable=False),  # accepted rejected decision refused invalid
    Column("seq", Integer),
    Column("answer", Text, nullable=False),  # JSON: what the submitter was told
    # since 0006: who sent it, for the rate limit ("web:ADDRESS", "mail:ADDRESS")
    Column("source", String(200), index=False),
)

messages = Table(
    "messages", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("channel", String(16), nullable=False),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Column("sender", Text),
    Column("raw", LargeBinary, nullable=False),
    Column("outcome", Text, nullable=False),
    Column("submission_id", Integer, ForeignKey("submissions.id")),
    Column("sha256", String(64), index=True),  # since 0003: find the same bytes again
)

reports = Table(
    "reports", metadata,
    Column("game_id", String(64), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("side", String(32), primary_key=True),
    Column("html", Text),  # NULL until rendered
    Column("png", LargeBinary),
    Column("rendered_at", DateTime(timezone=True)),
    # since 0005: the worker rendering it, and live steps (0) before bulk work (1)
    Column("claimed_by", String(128)),
    Column("claimed_at", DateTime(timezone=True)),
    Column("priority", Integer, nullable=False, server_default="0"),
    Column("queued_at", DateTime(timezone=True)),
    Column("label", Text),  # since 0006: "turn 3, movement · accepted", for the list
)

outbox = Table(
    "outbox", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("to_addr", Text, nullable=False),
    Column("subject", Text, nullable=False),
    Column("body_text", Text, nullable=False),
    Column("game_id", String(64)),
    Column("report_seq", Integer),  # attach this step's report of report_side, once rendered
    Column("report_side", String(32)),
    Column("sent_at", DateTime(timezone=True)),
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", Text),
    Column("claimed_by", String(128)),  # since 0005: the worker sending it
    Column("claimed_at", DateTime(timezone=True)),
    # since 0006: "problem" for an answer to a file or mail that was not adjudicated
    # (rate-limited per address), "digest" for those held back and sent together later
    Column("kind", String(16)),
    Column("not_before", DateTime(timezone=True)),  # a digest waits until then
)

admin_log = Table(
    "admin_log", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64)),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("what", Text, nullable=False),
    Column("public", Boolean, nullable=False, default=True),
)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def make_engine(url: str) -> Engine:
    """An engine for `url`. SQLite gets WAL, full fsync and BEGIN IMMEDIATE, so
    writers queue instead of failing and a transaction is all or nothing."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 60, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=60000")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(connection: Any) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return create_engine(url, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (idempotent; safe to run from several
    processes: Alembic takes the version table's row lock on PostgreSQL)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
