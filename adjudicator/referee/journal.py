"""The journal: an append-only chain of referee-signed JSON lines (docs/journal.md).

Line 1 is the header (module, scenario, options, roster, referee key, the first
seed commitment); each further line is one entry: an adjudicated `step` (the
signed submission bytes, the commitment and the revealed seed, the events and
the resulting state hash) or a `refused` submission with its reason. Every line
is canonical JSON, carries the SHA-256 of the line before it (`prev_entry`), and
is signed by the referee over its own canonical bytes without the signature.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from adjudicator.engine.state import canonical_json
from adjudicator.errors import JournalError

JOURNAL_FORMAT = "pbem-journal/1"
SIGNATURE_FIELD = "referee_signature"
MAX_LINE_BYTES = 8 * 1024 * 1024


def line_hash(line: bytes) -> str:
    """The `prev_entry` value the next line carries: SHA-256 of this line's bytes."""
    return hashlib.sha256(line).hexdigest()


def sign_entry(entry: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    unsigned = {k: v for k, v in entry.items() if k != SIGNATURE_FIELD}
    signature = key.sign(canonical_json(unsigned))
    return {**unsigned, SIGNATURE_FIELD: base64.b64encode(signature).decode("ascii")}


def entry_signature_ok(entry: dict[str, Any], key: Ed25519PublicKey) -> bool:
    unsigned = {k: v for k, v in entry.items() if k != SIGNATURE_FIELD}
    try:
        key.verify(base64.b64decode(entry.get(SIGNATURE_FIELD, ""), validate=True),
                   canonical_json(unsigned))
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class JournalLine:
    number: int  # 1-based line number in the file
    raw: bytes   # the line's bytes without the newline
    entry: dict[str, Any]


def read_lines(path: Path) -> Iterator[JournalLine]:
    """Every line of a journal file, parsed. JournalError names the line that is broken."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise JournalError(f"cannot read the journal {path}: {exc.strerror or exc}") from None
    with handle:
        yield from parse_lines(raw.rstrip(b"\n") for raw in handle)


def parse_lines(raws: Iterable[bytes], first: int = 1) -> Iterator[JournalLine]:
    """Journal lines (without their newlines) from a file or a database, parsed; `first`
    is the number of the first."""
    for number, raw in enumerate(raws, start=first):
        if len(raw) > MAX_LINE_BYTES:
            raise JournalError(f"journal line {number} is too long", line=number)
        try:
            entry = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise JournalError(f"journal line {number} is not JSON: {exc}",
                               line=number) from None
        if not isinstance(entry, dict) or "type" not in entry:
            raise JournalError(f"journal line {number} is not a journal entry", line=number)
        if canonical_json(entry) != raw:
            raise JournalError(f"journal line {number} is not in canonical form "
                               "(it was edited)", line=number)
        yield JournalLine(number, raw, entry)


def append_line(path: Path, entry: dict[str, Any]) -> bytes:
    """Append one entry as a canonical JSON line, flushed to disk; returns its bytes."""
    line = canonical_json(entry)
    with path.open("ab") as handle:
        handle.write(line + b"\n")
        handle.flush()
        os.fsync(handle.fileno())
    return line
