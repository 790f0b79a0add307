"""Where a game lives: its journal, the referee's secrets and the archive of raw
submissions. A game directory (gamedir.GameDir) is one such store; the service
keeps games in its database. The referee only ever talks to this protocol, and
its caller holds the game's lock (a file lock, a database transaction)."""

from __future__ import annotations

from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.referee.journal import JournalLine


class GameStore(Protocol):
    def describe(self) -> str:
        """Where the game is, in words for error messages."""
        ...

    def has_journal(self) -> bool:
        ...

    def journal_lines(self) -> list[JournalLine]:
        """Every journal line, the header first, parsed and checked for canonical form."""
        ...

    def append(self, entry: dict[str, Any]) -> bytes:
        """Append one entry as a canonical JSON line, durably; its bytes."""
        ...

    def create(self, referee_key: Ed25519PrivateKey, secrets: dict[str, Any]) -> None:
        """Make room for a new game, keeping its referee key and first secrets."""
        ...

    def read_secrets(self) -> dict[str, Any]:
        ...

    def write_secrets(self, secrets: dict[str, Any]) -> None:
        """Replace the secrets, durably, before the journal reveals anything."""
        ...

    def referee_key(self) -> Ed25519PrivateKey:
        ...

    def archive(self, raw: bytes) -> str:
        """Keep a submitted file's raw bytes; a reference to them."""
        ...
