"""`pbem verify` finds every kind of tampering with a journal (docs/journal.md).

A small game is played for three steps (with a refused file between them), then
its journal is changed in one way at a time. Most changes are made the way a
dishonest referee would make them: the changed line and every line after it are
re-chained and re-signed with the referee's own key, so only the recomputation
can catch them. Each must be reported as the right kind of divergence at the
right journal line.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.cli import main
from adjudicator.engine.dice import commitment
from adjudicator.engine.state import canonical_json
from adjudicator.referee.gamedir import GameDir
from adjudicator.referee.journal import line_hash, sign_entry
from adjudicator.referee.referee import adjudicate, create_game
from adjudicator.referee.verify import VerifyReport, verify
from adjudicator.security.keys import public_key_pem
from adjudicator.security.signing import ORDERS_NS, sign_orders
from adjudicator.security.xmlsafe import parse_untrusted

PLAYER = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"tamper: player").digest())
INTRUDER = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"tamper: intruder").digest())
TEST_SEED = hashlib.sha256(b"tamper: test seed").digest()
LOSS = "ITA-8 HUN-2 RUM-4 RUM-3 GER-8 GER-18 GER-16 GER-17 GER-11 GER-2 GER-4 GER-9 GER-6"
RETREAT = ("berlin prague silesia slovakia warsaw konigsberg budapest bucharest slovenia "
           "belgrade")

STEPS = [
    f'  <standing loss-priority="{LOSS}" on-retreat-or-eliminate="retreat" '
    f'retreat-priority="{RETREAT}"/>\n'
    '  <move unit="GER-9" to="konigsberg"/>\n'
    '  <attack target="kurland" units="GER-16" lose="GER-16"/>\n'
    "  <end-turn/>\n",
    '  <attack target="minsk" units="GER-2 GER-4" lose="GER-4"/>\n  <end-turn/>\n',
    "  <end-turn/>\n",
]
# journal lines: 1 header, 2 step 1, 3 a refused file, 4 step 2, 5 step 3
HEADER, STEP1, REFUSED, STEP2, STEP3 = 1, 2, 3, 4, 5


def order_file(directory: Path, body: str, seq: int) -> bytes:
    from adjudicator.referee.gamedir import load_game

    game = load_game(directory)
    text = (f'<?xml version="1.0" encoding="UTF-8"?>\n<orders xmlns="{ORDERS_NS}" '
            f'game="{game.game_id}" module="solitaire" side="german" seq="{game.next_seq}" '
            f'prev="{game.state_hash}" commit="{game.current_commit}">\n'
            f"  <entropy></entropy>\n{body}</orders>\n")
    return sign_orders(parse_untrusted(text.encode()), PLAYER,
                       entropy=hashlib.sha256(f"entropy {seq}".encode()).digest())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("tamper") / "game"
    create_game(directory, "solitaire", "campaign",
                {"german": public_key_pem(PLAYER.public_key())},
                options={"soviet": "no-purges"}, test_seed=TEST_SEED, game_id="tamper")
    for seq, body in enumerate(STEPS, start=1):
        result = adjudicate(directory, order_file(directory, body, seq))
        assert result.kind == "step" and result.result is not None
        assert result.result.rejection is None and result.result.decision is None
        if seq == 1:
            assert adjudicate(directory, b"<orders>not signed</orders>").kind == "refused"
    return directory


@pytest.fixture()
def game(played: Path, tmp_path: Path) -> Path:
    """A private copy of the played game, to tamper with."""
    target = tmp_path / "game"
    shutil.copytree(played, target)
    return target


def entries(directory: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in GameDir(directory).journal.read_bytes().splitlines()]


def write(directory: Path, lines: list[bytes]) -> None:
    GameDir(directory).journal.write_bytes(b"".join(line + b"\n" for line in lines))


def raw_lines(directory: Path) -> list[bytes]:
    return GameDir(directory).journal.read_bytes().splitlines()


def rewrite(directory: Path, number: int, change: Callable[[dict[str, Any]], None], *,
            resign: bool = True, key: Ed25519PrivateKey | None = None) -> None:
    """Change journal line `number` (1-based). With `resign`, the way a dishonest
    referee would: that line and every later one are re-chained and re-signed."""
    key = key or GameDir(directory).referee_key()
    all_entries = entries(directory)
    change(all_entries[number - 1])
    lines = raw_lines(directory)
    if not resign:
        lines[number - 1] = canonical_json(all_entries[number - 1])
        write(directory, lines)
        return
    for i in range(number - 1, len(all_entries)):
        entry = all_entries[i]
        if i > 0:
            entry["prev_entry"] = line_hash(lines[i - 1])
        lines[i] = canonical_json(sign_entry(entry, key))
    write(directory, lines)


def rechain(directory: Path, lines: list[bytes], start: int) -> None:
    """Re-chain and re-sign lines[start:] after lines were removed or moved."""
    key = GameDir(directory).referee_key()
    for i in range(start, len(lines)):
        entry = json.loads(lines[i])
        entry["prev_entry"] = line_hash(lines[i - 1])
        lines[i] = canonical_json(sign_entry(entry, key))
    write(directory, lines)


def diverged(directory: Path, kind: str, line: int) -> VerifyReport:
    report = verify(directory)
    assert not report.ok, "the tampering was not noticed"
    d = report.divergence
    assert d is not None
    assert (d.kind, d.line) == (kind, line), d
    return report


def first_event(entry: dict[str, Any], kind: str) -> int:
    return next(i for i, e in enumerate(entry["events"]) if e["kind"] == kind)


# -- the untouched game ----------------------------------------------------------------


def test_the_untouched_journal_verifies(played: Path) -> None:
    report = verify(played)
    assert report.ok, report.divergence
    assert (report.steps, report.refused) == (3, 1)
    assert report.rolls > 0
    assert report.final_state_hash == entries(played)[-1]["state_hash"]
    assert verify(GameDir(played).journal).ok  # a bare journal file verifies alike


def test_pbem_verify_json_prints_ok_true(played: Path) -> None:
    result = CliRunner().invoke(main, ["verify", str(played), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] is True and report["divergence"] is None
    assert report["steps"] == 3 and report["refused"] == 1


def test_pbem_verify_json_reports_a_divergence(game: Path) -> None:
    rewrite(game, STEP2, lambda e: e.update(state_hash="0" * 64))
    result = CliRunner().invoke(main, ["verify", str(game), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["ok"] is False
    assert report["divergence"]["kind"] == "state hash"
    assert report["divergence"]["line"] == STEP2 and report["divergence"]["seq"] == 2


# -- events and rolls --------------------------------------------------------------------


def test_a_changed_event_value(game: Path) -> None:
    def change(entry: dict[str, Any]) -> None:
        entry["events"][first_event(entry, "moved")]["to"] = "warsaw"
    rewrite(game, STEP1, change)
    report = diverged(game, "event", STEP1)
    assert "event" in report.divergence.message  # type: ignore[union-attr]


def test_a_changed_roll_value(game: Path) -> None:
    def change(entry: dict[str, Any]) -> None:
        roll = entry["events"][first_event(entry, "roll")]
        roll["value"] = roll["value"] % 3 + 1
    rewrite(game, STEP1, change)
    diverged(game, "roll", STEP1)


def test_a_changed_roll_purpose(game: Path) -> None:
    def change(entry: dict[str, Any]) -> None:
        entry["events"][first_event(entry, "roll")]["purpose"] = "for fun"
    rewrite(game, STEP2, change)
    diverged(game, "roll", STEP2)


def test_a_roll_slipped_in(game: Path) -> None:
    def change(entry: dict[str, Any]) -> None:
        entry["events"].insert(0, {"kind": "roll", "purpose": "extra", "die": "d6",
                                   "sides": 6, "d6": 6, "value": 6})
    rewrite(game, STEP3, change)
    diverged(game, "roll", STEP3)


def test_an_event_dropped_at_the_end(game: Path) -> None:
    rewrite(game, STEP1, lambda e: e["events"].pop())
    diverged(game, "event", STEP1)


@pytest.mark.parametrize("field, value", [("outcome", "rejected"), ("orders_applied", 1),
                                          ("decision", {"id": "D1"})])
def test_a_changed_step_result(game: Path, field: str, value: object) -> None:
    rewrite(game, STEP1, lambda e: e.update({field: value}))
    diverged(game, "event", STEP1)


# -- hashes, seeds, submissions -------------------------------------------------------------


def test_a_changed_state_hash(game: Path) -> None:
    rewrite(game, STEP1, lambda e: e.update(state_hash="ab" * 32))
    diverged(game, "state hash", STEP1)


def test_a_changed_prev_state(game: Path) -> None:
    rewrite(game, STEP3, lambda e: e.update(prev_state="ab" * 32))
    diverged(game, "state hash", STEP3)


def test_a_changed_server_seed(game: Path) -> None:
    rewrite(game, STEP2, lambda e: e.update(server_seed="00" * 32))
    diverged(game, "seed", STEP2)


def test_a_new_seed_with_a_matching_commitment(game: Path) -> None:
    """The referee swaps a seed and rewrites the commitment published before it: the
    commitment no longer matches the one the previous line published."""
    seed = bytes(32)
    rewrite(game, STEP2, lambda e: e.update(server_seed=seed.hex(), commit=commitment(seed)))
    diverged(game, "seed", STEP2)


def test_a_changed_next_commitment(game: Path) -> None:
    rewrite(game, STEP1, lambda e: e.update(next_commit=commitment(bytes(32))))
    diverged(game, "seed", STEP2)  # step 2's commitment is not the one published


def test_a_changed_first_commitment(game: Path) -> None:
    rewrite(game, HEADER, lambda e: e.update(commit=commitment(bytes(32))))
    diverged(game, "seed", STEP1)


def flip_submission(entry: dict[str, Any], *, fix_digest: bool) -> None:
    raw = bytearray(base64.b64decode(entry["submission"]))
    at = raw.index(b'to="konigsberg"') + len(b'to="')
    raw[at:at + len(b"konigsberg")] = b"warsaw"
    entry["submission"] = base64.b64encode(bytes(raw)).decode()
    if fix_digest:
        entry["submission_sha256"] = hashlib.sha256(bytes(raw)).hexdigest()


def test_changed_submission_bytes(game: Path) -> None:
    rewrite(game, STEP1, lambda e: flip_submission(e, fix_digest=True))
    report = diverged(game, "signature", STEP1)
    assert "does not verify" in report.divergence.message  # type: ignore[union-attr]


def test_changed_submission_bytes_without_their_digest(game: Path) -> None:
    rewrite(game, STEP1, lambda e: flip_submission(e, fix_digest=False))
    diverged(game, "format", STEP1)


def test_a_submission_that_is_not_base64(game: Path) -> None:
    rewrite(game, STEP1, lambda e: e.update(submission="!!" + e["submission"]))
    diverged(game, "format", STEP1)


def test_a_changed_entropy(game: Path) -> None:
    rewrite(game, STEP2, lambda e: e.update(entropy="00" * 32))
    diverged(game, "format", STEP2)


def test_a_submission_of_another_step(game: Path) -> None:
    """Step 3's signed file put in place of step 2's (digest fixed): the player signed
    it for another position."""
    third = entries(game)[STEP3 - 1]

    def change(entry: dict[str, Any]) -> None:
        entry.update(submission=third["submission"], entropy=third["entropy"],
                     submission_sha256=third["submission_sha256"])
    rewrite(game, STEP2, change)
    diverged(game, "chain", STEP2)


# -- lines deleted, swapped, re-indented ----------------------------------------------------


@pytest.mark.parametrize("number", [STEP1, REFUSED, STEP2])
def test_a_deleted_line(game: Path, number: int) -> None:
    lines = raw_lines(game)
    del lines[number - 1]
    write(game, lines)
    diverged(game, "chain", number)  # the line after it no longer chains


def test_a_deleted_step_rechained(game: Path) -> None:
    """The referee drops step 2 and re-signs the rest: step 3 is then out of order."""
    lines = raw_lines(game)
    del lines[STEP2 - 1]
    rechain(game, lines, STEP2 - 1)
    diverged(game, "chain", STEP2)


def test_a_deleted_refused_line_rechained_is_not_noticed(game: Path) -> None:
    """A refused file's line carries nothing the steps depend on: a referee who drops
    it and re-signs the rest is not caught by verify (the player's own copy of the
    refusal and the archived file are the evidence)."""
    lines = raw_lines(game)
    del lines[REFUSED - 1]
    rechain(game, lines, REFUSED - 1)
    assert verify(game).ok


@pytest.mark.parametrize("a, b", [(STEP1, REFUSED), (STEP2, STEP3), (STEP1, STEP3)])
def test_two_swapped_lines(game: Path, a: int, b: int) -> None:
    lines = raw_lines(game)
    lines[a - 1], lines[b - 1] = lines[b - 1], lines[a - 1]
    write(game, lines)
    diverged(game, "chain", a)


def test_two_swapped_steps_rechained(game: Path) -> None:
    lines = raw_lines(game)
    lines[STEP2 - 1], lines[STEP3 - 1] = lines[STEP3 - 1], lines[STEP2 - 1]
    rechain(game, lines, STEP2 - 1)
    diverged(game, "chain", STEP2)


def reindented(line: bytes) -> list[bytes]:
    entry = json.loads(line)
    return [b"  " + line, json.dumps(entry, sort_keys=True).encode(),
            json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                       indent=None).encode().replace(b'":', b'": ', 1),
            line + b" ", line.replace(b"\n", b"") + b"\r"]


@pytest.mark.parametrize("number", [HEADER, STEP2, STEP3])
@pytest.mark.parametrize("variant", range(5))
def test_a_reindented_line(game: Path, number: int, variant: int) -> None:
    lines = raw_lines(game)
    lines[number - 1] = reindented(lines[number - 1])[variant]
    assert lines[number - 1] != raw_lines(game)[number - 1]
    write(game, lines)
    report = verify(game)
    assert not report.ok
    assert report.divergence is not None and report.divergence.kind == "format"
    assert f"line {number}" in report.divergence.message


def test_a_reindented_line_is_reported_at_its_line(game: Path) -> None:
    lines = raw_lines(game)
    lines[STEP2 - 1] = b"  " + lines[STEP2 - 1]
    write(game, lines)
    diverged(game, "format", STEP2)


def test_a_line_that_is_not_json(game: Path) -> None:
    lines = raw_lines(game)
    lines[STEP2 - 1] = lines[STEP2 - 1][:-1]
    write(game, lines)
    report = verify(game)
    assert report.divergence is not None and report.divergence.kind == "format"
    assert f"line {STEP2}" in report.divergence.message


# -- the header ----------------------------------------------------------------------------


def test_changed_header_options(game: Path) -> None:
    rewrite(game, HEADER, lambda e: e["options"].update(soviet="hard"), resign=False)
    diverged(game, "signature", HEADER)


def test_changed_header_options_resigned(game: Path) -> None:
    rewrite(game, HEADER, lambda e: e["options"].update(soviet="hard"))
    diverged(game, "state hash", HEADER)


def test_changed_header_options_with_a_new_initial_hash(game: Path) -> None:
    """Options and initial_state_hash changed together: the first step's position
    before it no longer matches."""
    from adjudicator.engine.state import state_hash
    from adjudicator.games import get_game

    package = get_game("solitaire")
    options = {**entries(game)[0]["options"], "soviet": "hard"}
    initial = package.rules.initial_state(package.bundled_module, "campaign", options)

    def change(entry: dict[str, Any]) -> None:
        entry["options"] = options
        entry["initial_state_hash"] = state_hash(initial)
    rewrite(game, HEADER, change)
    diverged(game, "state hash", STEP1)


def test_unknown_header_options(game: Path) -> None:
    rewrite(game, HEADER, lambda e: e["options"].update(weather="sunny"))
    diverged(game, "module", HEADER)


def test_a_changed_roster_key(game: Path) -> None:
    """The referee swaps the player's key for its own in the header: the player's
    signatures no longer match the roster."""
    from adjudicator.security.keys import fingerprint

    def change(entry: dict[str, Any]) -> None:
        entry["roster"][0]["public_key"] = public_key_pem(INTRUDER.public_key()).decode()
        entry["roster"][0]["fingerprint"] = fingerprint(INTRUDER.public_key())
    rewrite(game, HEADER, change)
    diverged(game, "signature", STEP1)


def test_a_changed_journal_format(game: Path) -> None:
    rewrite(game, HEADER, lambda e: e.update(format="pbem-journal/9"))
    diverged(game, "format", HEADER)


# -- forged signatures ---------------------------------------------------------------------


@pytest.mark.parametrize("number", [HEADER, STEP1, REFUSED, STEP3])
def test_a_line_signed_with_another_referee_key(game: Path, number: int) -> None:
    def change(entry: dict[str, Any]) -> None:
        if entry["type"] == "refused":
            entry["reason"]["message"] = "forged"
    rewrite(game, number, change, key=INTRUDER)
    diverged(game, "signature", number)


def test_a_changed_line_that_is_not_resigned(game: Path) -> None:
    rewrite(game, STEP2, lambda e: e.update(state_hash="ab" * 32), resign=False)
    diverged(game, "signature", STEP2)


def test_a_removed_signature(game: Path) -> None:
    rewrite(game, REFUSED, lambda e: e.pop("referee_signature"), resign=False)
    diverged(game, "signature", REFUSED)


# -- recorded fields verify compares with what it recomputes ----------------------------


def test_a_changed_key_field(game: Path) -> None:
    rewrite(game, STEP1, lambda e: e.update(key="0" * 32))
    assert not verify(game).ok


def test_a_changed_side_field(game: Path) -> None:
    rewrite(game, STEP1, lambda e: e.update(side="soviet"))
    assert not verify(game).ok


def test_a_changed_expected_seq_of_a_refused_file(game: Path) -> None:
    rewrite(game, REFUSED, lambda e: e.update(expected_seq=7))
    assert not verify(game).ok
