"""`pbem verify`: recompute a whole game from its journal header (docs/journal.md).

Nothing recorded in a step is trusted: the submission's signature is checked
against the roster, the revealed seed against its commitment, and the orders
are adjudicated again from the revealed seed and the player's entropy; the
events and the state hash must come out identical. The first divergence is
reported with its line and kind.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from lxml import etree

from adjudicator.engine.dice import DiceStream, commitment
from adjudicator.engine.rules import referee_pass
from adjudicator.engine.state import State, copy_state, state_hash
from adjudicator.engine.step import run_step
from adjudicator.errors import JournalError, PbemError
from adjudicator.referee.gamedir import (
    Game,
    GameDir,
    header_initial_state,
    header_module,
)
from adjudicator.referee.journal import JOURNAL_FORMAT, JournalLine, entry_signature_ok, line_hash
from adjudicator.referee.journal import read_lines as read_journal_lines
from adjudicator.referee.referee import pass_entropy
from adjudicator.referee.rollback import ROLLBACK_VERSION, plan_rollback
from adjudicator.referee.submission import Submission, check_addressed, open_submission
from adjudicator.security.keys import load_public_key
from adjudicator.security.signing import ORDERS_NS


@dataclass(frozen=True)
class Divergence:
    line: int
    seq: int | None
    kind: str  # format, signature, chain, module, seed, roll, event, state hash
    message: str


@dataclass
class VerifyReport:
    game_id: str | None = None
    test_game: bool = False
    steps: int = 0
    refused: int = 0
    rollbacks: int = 0  # referee's rollbacks (docs/journal.md): each voids some steps
    voided: int = 0
    rolls: int = 0
    final_state_hash: str | None = None
    summary: dict[str, Any] | None = None
    divergence: Divergence | None = None

    @property
    def ok(self) -> bool:
        return self.divergence is None

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


class _Diverged(Exception):  # noqa: N818 - internal control flow
    def __init__(self, divergence: Divergence) -> None:
        self.divergence = divergence


def verify(path: Path) -> VerifyReport:
    """Verify a game directory or a bare journal file."""
    journal = path if path.is_file() else GameDir(path).journal
    report = VerifyReport()
    try:
        _verify(journal, report)
    except _Diverged as stop:
        report.divergence = stop.divergence
    except JournalError as exc:
        report.divergence = Divergence(exc.line or 0, None, "format", exc.message)
    return report


def _fail(line: int, seq: int | None, kind: str, message: str) -> _Diverged:
    return _Diverged(Divergence(line, seq, kind, message))


def _verify(journal: Path, report: VerifyReport) -> None:
    if not journal.exists():
        raise JournalError(f"there is no journal at {journal}")
    lines = list(read_journal_lines(journal))
    if not lines or lines[0].entry.get("type") != "header":
        raise _fail(1, None, "format", "the journal does not start with a header")
    head = lines[0]
    header = head.entry
    if header.get("format") != JOURNAL_FORMAT:
        raise _fail(1, None, "format", f"unknown journal format {header.get('format')!r}")
    report.game_id = header.get("game_id")
    report.test_game = bool(header.get("test_game"))
    try:
        referee = load_public_key(header["referee"]["public_key"].encode("ascii"))
        package, module = header_module(header)
        state = header_initial_state(package, module, header)
    except (PbemError, KeyError, TypeError, ValueError) as exc:
        raise _fail(1, None, "module", f"cannot rebuild the game from its header: {exc}") \
            from None
    if not entry_signature_ok(header, referee):
        raise _fail(1, None, "signature", "the header's referee signature does not verify")
    if state_hash(state) != header.get("initial_state_hash"):
        raise _fail(1, None, "state hash", "the initial position does not hash to the "
                    "header's initial_state_hash")
    expected_commit = header["commit"]
    known: str | None = header.get("initial_state_hash")  # the hash of `state`, as checked
    previous = head.raw
    seen: list[JournalLine] = []
    for line in lines[1:]:
        entry = line.entry
        seq = entry.get("seq")
        if entry.get("prev_entry") != line_hash(previous):
            raise _fail(line.number, seq, "chain", "prev_entry is not the hash of the line "
                        "before: a line was removed, inserted or changed")
        if not entry_signature_ok(entry, referee):
            raise _fail(line.number, seq, "signature", "the referee's signature on this line "
                        "does not verify")
        if entry["type"] == "refused":
            if entry.get("expected_seq") != report.steps + 1:
                raise _fail(line.number, None, "chain", "a refused file's expected_seq is not "
                            "the step the game was waiting for")
            report.refused += 1
        elif entry["type"] == "step":
            # The game as it stands before this step; `initial` is not read here, and
            # the step runs on a copy of `state`
            game = Game(header, head.raw, list(seen), package, module, state, state,
                        known_hash=known)
            state = _verify_step(game, line, expected_commit, report, referee)
            known = entry["state_hash"]  # `_verify_step` checked it
            expected_commit = entry["next_commit"]
            report.steps += 1
        elif entry["type"] == "rollback":
            game = Game(header, head.raw, list(seen), package, module, state, copy_state(state))
            initial = header_initial_state(package, module, header)
            state = _verify_rollback(game, initial, line, report)
            known = None
        else:
            raise _fail(line.number, seq, "format", f"unknown entry type {entry['type']!r}")
        seen.append(line)
        previous = line.raw
    report.final_state_hash = state_hash(state)
    report.summary = package.rules.summary(state)


def _verify_rollback(game: Game, initial: State, line: JournalLine,
                     report: VerifyReport) -> State:
    """A referee's rollback (a versioned addition, docs/journal.md): it must void exactly
    the steps after its `to_seq` that were still in play, and its state hash must be the
    position after step `to_seq`, which the following steps are then checked against."""
    entry, n = line.entry, line.number
    if entry.get("rollback") != ROLLBACK_VERSION:
        raise _fail(n, None, "format", f"rollback line version {entry.get('rollback')!r} is "
                    f"not one this verifier knows ({ROLLBACK_VERSION})")
    game.initial = initial
    try:
        expected, state = plan_rollback(game, int(entry.get("to_seq", -1)),
                                        str(entry.get("reason")))
    except (PbemError, TypeError, ValueError) as exc:
        raise _fail(n, None, "chain", f"the rollback is not one the referee could make: "
                    f"{getattr(exc, 'message', exc)}") from None
    for name in ("voided", "last_seq", "by", "prev_entry"):
        if entry.get(name) != expected[name]:
            raise _fail(n, None, "chain", f"the rollback's {name} is {entry.get(name)!r}, "
                        f"where {expected[name]!r} follows from the journal before it")
    if entry.get("state_hash") != expected["state_hash"]:
        raise _fail(n, None, "state hash", "the rollback's state hash is not the hash of "
                    f"the position after step {entry['to_seq']}")
    report.rollbacks += 1
    report.voided += len(expected["voided"])
    return state


def _check_referee_pass(game: Game, submission: Submission, commit: str, n: int) -> None:
    """A step the referee played for a missed deadline must be exactly the rules' pass,
    with the entropy the commitment fixes: the referee chose neither orders nor dice."""
    seq = game.next_seq
    if submission.envelope.entropy != pass_entropy(commit):
        raise _fail(n, seq, "seed", "the referee's pass does not use the entropy its "
                    "commitment fixes")
    side = game.acting_side
    expected = referee_pass(game.package.rules, game.module, game.state, side) if side else []
    made = [etree.tostring(child, method="c14n").decode() for child in submission.root
            if isinstance(child.tag, str) and etree.QName(child).localname
            not in ("entropy", "signature")]
    wanted = [etree.tostring(etree.fromstring(
        f'<x xmlns="{ORDERS_NS}">{order}</x>')[0], method="c14n").decode() for order in expected]
    if not expected or made != wanted:
        raise _fail(n, seq, "event", "the referee played orders for the side that are not the "
                    "rules' pass")


def _verify_step(game: Game, line: JournalLine, expected_commit: str,
                 report: VerifyReport, referee: Ed25519PublicKey) -> State:
    entry, n = line.entry, line.number
    seq = game.next_seq
    if entry.get("seq") != seq:
        raise _fail(n, entry.get("seq"), "chain", f"step {entry.get('seq')} where step {seq} "
                    "was due")
    if entry.get("commit") != expected_commit:
        raise _fail(n, seq, "seed", "the step's commitment is not the one published before it")
    try:
        seed = bytes.fromhex(entry["server_seed"])
        raw = base64.b64decode(entry["submission"], validate=True)
    except (KeyError, TypeError, ValueError):
        raise _fail(n, seq, "format", "the seed or the submission is not readable") from None
    if commitment(seed) != expected_commit:
        raise _fail(n, seq, "seed", "the revealed seed does not match its commitment")
    if hashlib.sha256(raw).hexdigest() != entry.get("submission_sha256"):
        raise _fail(n, seq, "format", "submission_sha256 is not the digest of the submission")
    if entry.get("prev_state") != game.state_hash:
        raise _fail(n, seq, "state hash", "prev_state is not the hash of the position before")
    by_referee = entry.get("by") == "referee"
    try:
        submission = open_submission(game, raw, referee=referee if by_referee else None)
    except PbemError as exc:
        raise _fail(n, seq, "signature", f"the submission does not verify: {exc.message}") \
            from None
    if by_referee:
        _check_referee_pass(game, submission, expected_commit, n)
    try:
        check_addressed(game, submission.envelope)
    except PbemError as exc:
        raise _fail(n, seq, "chain", f"the submission was not addressed to this step: "
                    f"{exc.message}") from None
    facts = {"entropy": submission.envelope.entropy.hex(), "key": submission.fingerprint,
             "side": submission.envelope.side}
    for name, value in facts.items():
        if entry.get(name) != value:
            raise _fail(n, seq, "format", f"the recorded {name} is not the submission's")
    dice = DiceStream(seed, game.game_id, seq, submission.envelope.entropy)
    result = run_step(game.package.rules, game.module, game.state, submission.orders,
                      submission.envelope.side, dice)
    recomputed = [event.to_json() for event in result.events]
    recorded = entry.get("events", [])
    for i, (mine, theirs) in enumerate(zip(recomputed, recorded, strict=False)):
        if mine != theirs:
            kind = "roll" if "roll" in (mine.get("kind"), theirs.get("kind")) else "event"
            raise _fail(n, seq, kind, f"event {i + 1} differs: recorded {theirs}, "
                        f"recomputed {mine}")
    if len(recomputed) != len(recorded):
        raise _fail(n, seq, "event", f"{len(recorded)} events recorded, {len(recomputed)} "
                    "recomputed")
    checks = {
        "outcome": result.outcome,
        "orders_applied": result.applied,
        "rejection": result.rejection.as_record() if result.rejection else None,
        "decision": result.decision.to_json() if result.decision else None,
    }
    for name, value in checks.items():
        if entry.get(name) != value:
            raise _fail(n, seq, "event", f"{name} recorded as {entry.get(name)!r}, "
                        f"recomputed as {value!r}")
    if state_hash(result.state) != entry.get("state_hash"):
        raise _fail(n, seq, "state hash", "the recorded state hash is not the recomputed one")
    report.rolls += sum(1 for e in recomputed if e["kind"] == "roll")
    return result.state
