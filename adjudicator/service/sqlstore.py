"""A game kept in the service's database, as the referee's `GameStore`.

Every method runs on the connection of the caller's transaction, which holds the
game's lock, so an adjudication and the recording of its result commit together
or not at all (docs/service.md)."""

from __future__ import annotations

import json
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import Connection, func, insert, select, update

from adjudicator.engine.state import canonical_json
from adjudicator.errors import JournalError, PbemError
from adjudicator.referee.gamedir import Snapshot
from adjudicator.referee.journal import JournalLine, parse_lines
from adjudicator.security.keys import load_private_key, private_key_pem
from adjudicator.service.db import game_secrets, games, journal_lines, snapshots

# The games this process has loaded, kept warm: the snapshot it last wrote or read for
# each. current_game checks it against the journal before using it, so a snapshot left
# by a transaction that rolled back, or outdated by another process, is never used.
WARM: dict[str, Snapshot] = {}


class SqlGameStore:
    def __init__(self, connection: Connection, game_id: str) -> None:
        self.connection = connection
        self.game_id = game_id
        self.archived: list[bytes] = []  # the service records raw bytes with the verdict

    def describe(self) -> str:
        return f"game {self.game_id}"

    def has_journal(self) -> bool:
        found = self.connection.execute(
            select(func.count()).select_from(journal_lines)
            .where(journal_lines.c.game_id == self.game_id)).scalar_one()
        return bool(found)

    def journal_lines(self) -> list[JournalLine]:
        rows = self.connection.execute(
            select(journal_lines.c.line).where(journal_lines.c.game_id == self.game_id)
            .order_by(journal_lines.c.line_no)).scalars()
        return list(parse_lines(bytes(row) for row in rows))

    def count_lines(self) -> int:
        return int(self.connection.execute(
            select(func.count()).select_from(journal_lines)
            .where(journal_lines.c.game_id == self.game_id)).scalar_one())

    def line(self, number: int) -> JournalLine:
        raw = self.connection.execute(
            select(journal_lines.c.line).where(journal_lines.c.game_id == self.game_id,
                                               journal_lines.c.line_no == number)).scalar()
        if raw is None:
            raise JournalError(f"{self.describe()} has no journal line {number}", line=number)
        return next(parse_lines([bytes(raw)], first=number))

    def read_snapshot(self) -> Snapshot | None:
        warm = WARM.get(self.game_id)
        if warm is not None and warm.lines == self.count_lines():
            return warm
        raw = self.connection.execute(select(snapshots.c.snapshot).where(
            snapshots.c.game_id == self.game_id)).scalar()
        if raw is None:
            return None
        try:
            snapshot = Snapshot.from_json(json.loads(bytes(raw)))
        except (ValueError, KeyError, TypeError):
            return None  # the journal is replayed instead
        WARM[self.game_id] = snapshot
        return snapshot

    def write_snapshot(self, snapshot: Snapshot) -> None:
        WARM[self.game_id] = snapshot
        data = canonical_json(snapshot.to_json())
        done = self.connection.execute(update(snapshots).where(
            snapshots.c.game_id == self.game_id).values(snapshot=data))
        if not done.rowcount:
            self.connection.execute(insert(snapshots).values(game_id=self.game_id,
                                                             snapshot=data))

    def journal_bytes(self) -> bytes:
        return b"".join(line.raw + b"\n" for line in self.journal_lines())

    def append(self, entry: dict[str, Any]) -> bytes:
        line = canonical_json(entry)
        count = self.count_lines()
        self.connection.execute(insert(journal_lines).values(
            game_id=self.game_id, line_no=count + 1, line=line))
        return line

    def create(self, referee_key: Ed25519PrivateKey, secrets: dict[str, Any]) -> None:
        exists = self.connection.execute(
            select(games.c.id).where(games.c.id == self.game_id)).first()
        if exists is None:
            raise PbemError(f"game {self.game_id} must be registered before its journal",
                            code="no-game")
        self.connection.execute(insert(game_secrets).values(
            game_id=self.game_id, referee_key=private_key_pem(referee_key),
            secrets=json.dumps(secrets, sort_keys=True)))

    def read_secrets(self) -> dict[str, Any]:
        row = self._secrets_row()
        return json.loads(row.secrets)  # type: ignore[no-any-return]

    def write_secrets(self, secrets: dict[str, Any]) -> None:
        self.connection.execute(update(game_secrets)
                                .where(game_secrets.c.game_id == self.game_id)
                                .values(secrets=json.dumps(secrets, sort_keys=True)))

    def referee_key(self) -> Ed25519PrivateKey:
        return load_private_key(bytes(self._secrets_row().referee_key))

    def archive(self, raw: bytes) -> str:
        self.archived.append(raw)
        return f"the submissions of {self.describe()}"

    def _secrets_row(self) -> Any:
        row = self.connection.execute(
            select(game_secrets).where(game_secrets.c.game_id == self.game_id)).first()
        if row is None:
            raise JournalError(f"{self.describe()} has no referee secrets")
        return row
