"""A game directory: the public journal, the referee's secrets kept apart from it,
and the archive of every file ever submitted. It is the file-system `GameStore`
(store.py); the service keeps the same things in its database.

    DIR/journal.jsonl        public: header + one line per step or refused file
    DIR/submissions/         every submitted file's raw bytes, as received
    DIR/referee/             secret: referee.key, secrets.json (unrevealed seeds)
    DIR/reports/step-N/SIDE/ the turn reports
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import hmac
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from adjudicator.engine.events import Event
from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State, canonical_json, copy_state, state_hash
from adjudicator.errors import InvalidInput, JournalError, PbemError
from adjudicator.games import GamePackage, get_game, position_schema
from adjudicator.referee.journal import JournalLine, append_line, parse_lines, read_lines
from adjudicator.security.keys import load_private_key, load_public_key, private_key_pem
from adjudicator.security.xmlsafe import parse_untrusted

TEST_REFEREE_TAG = b"pbem/test-referee/v1\x00"


def test_referee_key(test_seed: bytes) -> Ed25519PrivateKey:
    """The referee key of a test game: derived from the test seed, so examples
    reproduce byte for byte (docs/protocol.md)."""
    return Ed25519PrivateKey.from_private_bytes(
        hmac.new(test_seed, TEST_REFEREE_TAG, hashlib.sha256).digest())


@dataclass
class GameDir:
    path: Path
    _read: tuple[tuple[int, int], list[bytes]] | None = field(default=None, repr=False,
                                                               compare=False)

    @property
    def journal(self) -> Path:
        return self.path / "journal.jsonl"

    @property
    def referee_dir(self) -> Path:
        return self.path / "referee"

    @property
    def secrets_file(self) -> Path:
        return self.referee_dir / "secrets.json"

    @property
    def referee_key_file(self) -> Path:
        return self.referee_dir / "referee.key"

    @property
    def submissions(self) -> Path:
        return self.path / "submissions"

    @property
    def snapshot_file(self) -> Path:
        # with the referee's secrets: the position holds what the rules hide
        return self.referee_dir / "snapshot.json"

    def reports_for(self, seq: int, side: str) -> Path:
        return self.path / "reports" / f"step-{seq}" / side

    # -- the GameStore protocol ---------------------------------------------------------

    def describe(self) -> str:
        return str(self.path)

    def has_journal(self) -> bool:
        return self.journal.exists()

    def journal_lines(self) -> list[JournalLine]:
        return list(read_lines(self.journal))

    def append(self, entry: dict[str, Any]) -> bytes:
        return append_line(self.journal, entry)

    def count_lines(self) -> int:
        return len(self._raw_lines())

    def line(self, number: int) -> JournalLine:
        raws = self._raw_lines()
        if not 1 <= number <= len(raws):
            raise JournalError(f"the journal has no line {number}", line=number)
        return next(parse_lines([raws[number - 1]], first=number))

    def _raw_lines(self) -> list[bytes]:
        """The journal's lines, read once for as long as the file is unchanged."""
        stat = self.journal.stat()
        key = (stat.st_size, stat.st_mtime_ns)
        if self._read is None or self._read[0] != key:
            self._read = (key, self.journal.read_bytes().split(b"\n")[:-1])
        return self._read[1]

    def read_snapshot(self) -> Snapshot | None:
        try:
            return Snapshot.from_json(json.loads(self.snapshot_file.read_bytes()))
        except (OSError, ValueError, KeyError, TypeError):
            return None  # none yet, or unreadable: the journal is replayed instead

    def write_snapshot(self, snapshot: Snapshot) -> None:
        """Atomically, owner-only; not synced: a lost snapshot costs one replay."""
        self.referee_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = self.snapshot_file.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(canonical_json(snapshot.to_json()))
        os.replace(tmp, self.snapshot_file)

    def create(self, referee_key: Ed25519PrivateKey, secrets: dict[str, Any]) -> None:
        """Make the directory and keep the referee key and first secrets (owner-only)."""
        if self.journal.exists():
            raise PbemError(f"{self.path} already holds a game", code="exists")
        self.path.mkdir(parents=True, exist_ok=True)
        self.referee_dir.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(self.referee_key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(private_key_pem(referee_key))
        self.write_secrets(secrets)

    def read_secrets(self) -> dict[str, Any]:
        try:
            return json.loads(self.secrets_file.read_text("utf-8"))  # type: ignore[no-any-return]
        except (OSError, ValueError) as exc:
            raise JournalError(f"cannot read the referee's secrets in {self.referee_dir} "
                               f"(only the referee can adjudicate): {exc}") from None

    def write_secrets(self, secrets: dict[str, Any]) -> None:
        """Write atomically with owner-only permissions: a crash leaves old or new."""
        self.referee_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = self.secrets_file.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(secrets, handle, sort_keys=True, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.secrets_file)

    def referee_key(self) -> Ed25519PrivateKey:
        try:
            return load_private_key(self.referee_key_file.read_bytes())
        except OSError as exc:
            raise JournalError(f"cannot read the referee key: {exc.strerror}") from None

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the game's lock: one adjudication at a time per game directory."""
        with (self.path / ".lock").open("a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def archive(self, raw: bytes) -> str:
        """Keep a submitted file's bytes, whatever they are, before anything else."""
        self.submissions.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(raw).hexdigest()
        number = len(list(self.submissions.iterdir())) + 1
        path = self.submissions / f"{number:05d}-{digest[:16]}.xml"
        path.write_bytes(raw)
        return str(path)


@dataclass(frozen=True)
class Snapshot:
    """The position after a game's last journal line, which its store keeps so that a
    submission never replays the journal. It is checked, never trusted: it must cover
    the journal as it is (as many lines, the same last line) and its state must hash to
    the state hash of the last step it covers (`current_game`)."""

    lines: int  # the journal lines it covers, the header included
    steps: int  # the adjudicated steps among them
    step_line: int  # the line number of the last step (1: none yet, the header)
    last_line: bytes
    commit: str  # the commitment the next step is due under
    state: State

    def to_json(self) -> dict[str, Any]:
        return {"lines": self.lines, "steps": self.steps, "step_line": self.step_line,
                "last_line": base64.b64encode(self.last_line).decode("ascii"),
                "commit": self.commit, "state": self.state}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Snapshot:
        return cls(int(value["lines"]), int(value["steps"]), int(value["step_line"]),
                   base64.b64decode(value["last_line"]), str(value["commit"]),
                   dict(value["state"]))


@dataclass
class Game:
    """A game as its journal describes it, replayed to the current position."""

    header: dict[str, Any]
    header_raw: bytes
    lines: list[JournalLine]
    package: GamePackage
    module: ModuleData
    initial: State
    state: State = field(default_factory=dict)
    tail: Snapshot | None = None  # a game read from its snapshot: `lines` is not read
    # the hash of `state` when the caller has just computed it (a snapshot checked against
    # the journal, a step verified): addressing a file asks it, and it is not computed
    # again; a Game's state is never changed in place (a step works on a copy)
    known_hash: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.state:
            return  # the caller (verification, a snapshot) knows the position already
        self.state = self.replay(effective_chain(self.lines))

    @property
    def game_id(self) -> str:
        return str(self.header["game_id"])

    @property
    def last_line(self) -> bytes:
        """The bytes of the journal's last line, which the next line chains to."""
        if self.tail is not None:
            return self.tail.last_line
        return self.lines[-1].raw if self.lines else self.header_raw

    @property
    def steps(self) -> list[JournalLine]:
        """Every adjudicated step, voided ones included: step numbers run on across a
        rollback (docs/journal.md), so step N is `steps[N - 1]`."""
        if self.tail is not None:
            raise RuntimeError("a game read from its snapshot does not hold its steps")
        return [line for line in self.lines if line.entry["type"] == "step"]

    @property
    def voided(self) -> set[int]:
        """The steps a referee's rollback voided (still in the journal, still readable)."""
        if self.tail is not None:
            raise RuntimeError("a game read from its snapshot does not hold its steps")
        return {seq for line in self.lines if line.entry["type"] == "rollback"
                for seq in line.entry["voided"]}

    def replay(self, chain: list[JournalLine]) -> State:
        """The initial position with the events of `chain` applied, in order."""
        state = copy_state(self.initial)
        for line in chain:
            for event in line.entry["events"]:
                self.package.rules.apply(state, Event.from_json(event))
        return state

    @property
    def next_seq(self) -> int:
        return self.tail.steps + 1 if self.tail is not None else len(self.steps) + 1

    @property
    def current_commit(self) -> str:
        if self.tail is not None:
            return self.tail.commit
        steps = self.steps
        return str(steps[-1].entry["next_commit"] if steps else self.header["commit"])

    def snapshot(self) -> Snapshot:
        """The position after the journal's last line, for its store to keep."""
        if self.tail is not None:
            return self.tail
        marks = [line.number for line in self.lines
                 if line.entry["type"] in ("step", "rollback")]
        return Snapshot(len(self.lines) + 1, len(self.steps), marks[-1] if marks else 1,
                        self.last_line, self.current_commit, self.state)

    @property
    def state_hash(self) -> str:
        if self.known_hash is None:
            self.known_hash = state_hash(self.state)
        return self.known_hash

    @property
    def acting_side(self) -> str | None:
        return self.package.rules.acting_side(self.state)

    def roster_key(self, side: str) -> Ed25519PublicKey:
        for player in self.header["roster"]:
            if player["side"] == side:
                return load_public_key(player["public_key"].encode("ascii"))
        raise PbemError(f"this game has no side {side!r}", code="unknown-side")

    def side_of_fingerprint(self, fp: str) -> str | None:
        return next((p["side"] for p in self.header["roster"] if p["fingerprint"] == fp), None)

    def state_before(self, seq: int) -> State:
        """The position step `seq` was played on (seq 1 = the initial position): after
        a rollback, the steps it voided are not part of it."""
        upto = next((i for i, line in enumerate(self.lines)
                     if line.entry["type"] == "step" and line.entry["seq"] == seq),
                    len(self.lines))
        return self.replay(effective_chain(self.lines[:upto]))


def effective_chain(lines: list[JournalLine]) -> list[JournalLine]:
    """The steps that make the position after `lines`: every step, less those a later
    rollback voided (a rollback to step N keeps the steps up to N of the chain)."""
    chain: list[JournalLine] = []
    for line in lines:
        kind = line.entry["type"]
        if kind == "step":
            chain.append(line)
        elif kind == "rollback":
            chain = [s for s in chain if s.entry["seq"] <= line.entry["to_seq"]]
    return chain


def header_module(header: dict[str, Any]) -> tuple[GamePackage, ModuleData]:
    """The game package and the exact module data the game was created with: a custom
    module travels in the header; a bundled one is the current version or an earlier
    one the installation keeps (GamePackage.module_for)."""
    info = header["module"]
    package = get_game(info["id"])
    if info.get("data") is None:
        return package, package.module_for(info["version"], info["sha256"])
    module = package.load_module(base64.b64decode(info["data"]))
    if module.sha256 != info["sha256"]:
        raise JournalError(
            f"the module data in the header has sha256 {module.sha256[:16]}..., not the "
            f"{info['sha256'][:16]}... it records", code="module-mismatch")
    return package, module


def header_initial_state(package: GamePackage, module: ModuleData,
                         header: dict[str, Any]) -> State:
    """The starting position: the scenario's, or the position file's embedded in the header."""
    if header.get("position") is not None:
        root = parse_position(base64.b64decode(header["position"]), package.id)
        return package.rules.position_state(module, root, header["options"])
    return package.rules.initial_state(module, header["scenario"], header["options"])


def parse_position(data: bytes, game: str):  # noqa: ANN201 - an lxml element
    """A position file, parsed with the hardened parser and checked by its schema."""
    root = parse_untrusted(data)
    schema = position_schema()
    if not schema.validate(root):
        first = schema.error_log[0]
        raise InvalidInput(f"position file line {first.line}: {first.message}")
    if root.get("game") != game:
        raise InvalidInput(f"this position file is for game {root.get('game')!r}, not {game!r}")
    return root


def current_game(store: Any) -> Game:
    """The game in a store as it stands now, to adjudicate its next step: read from the
    store's snapshot when that covers the journal exactly and its state hashes to the
    journal's state hash after its last step; otherwise the journal is replayed (and the
    snapshot written again). Either way the cost does not grow with the game's length
    once a snapshot is there (docs/architecture.md, "Performance")."""
    head = store.line(1)
    if head.entry.get("type") != "header":
        raise JournalError(f"{store.describe()} does not start with a journal header")
    snapshot = store.read_snapshot()
    count = store.count_lines()
    if snapshot is not None and snapshot.lines == count:
        last = store.line(count)
        step = head if snapshot.step_line == 1 else store.line(snapshot.step_line)
        expected = head.entry.get("initial_state_hash") if snapshot.step_line == 1 \
            else step.entry.get("state_hash")
        # the last step's line, or a rollback's, which records the steps before it
        seen = step.entry.get("last_seq", 0) if step.entry.get("type") == "rollback" \
            else step.entry.get("seq", 0)
        if last.raw == snapshot.last_line and seen == snapshot.steps \
                and state_hash(snapshot.state) == expected:
            package, module = header_module(head.entry)
            return Game(head.entry, head.raw, [], package, module, {}, snapshot.state,
                        tail=snapshot, known_hash=expected)
    game = game_from_lines(store.journal_lines(), store.describe())
    store.write_snapshot(game.snapshot())
    return game


def load_game(path: Path) -> Game:
    """Read a game directory (or a bare journal file) and replay it."""
    journal = path if path.is_file() else GameDir(path).journal
    if not journal.exists():
        raise JournalError(f"{path} is not a game directory: there is no {journal.name}")
    return game_from_lines(list(read_lines(journal)), str(journal))


def game_from_lines(lines: list[JournalLine], where: str) -> Game:
    """Replay a journal given as its parsed lines (`where` names it in errors)."""
    if not lines or lines[0].entry.get("type") != "header":
        raise JournalError(f"{where} does not start with a journal header")
    header = lines[0].entry
    package, module = header_module(header)
    initial = header_initial_state(package, module, header)
    return Game(header, lines[0].raw, lines[1:], package, module, initial)
