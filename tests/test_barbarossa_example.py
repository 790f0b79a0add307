"""The 1941 example in examples/barbarossa/: it verifies, re-playing its signed files
rebuilds the journal byte for byte, and it shows a decision request answered by the
opponent (issue 3)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from adjudicator.referee.gamedir import load_game
from adjudicator.referee.referee import adjudicate, create_game
from adjudicator.referee.verify import verify

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "barbarossa"
TEST_SEED = hashlib.sha256(b"1941 Operation Barbarossa example game").hexdigest()


def entries() -> list[dict[str, Any]]:
    return [json.loads(x) for x in (EXAMPLE / "journal.jsonl").read_text().splitlines()]


def test_the_example_journal_verifies() -> None:
    report = verify(EXAMPLE / "journal.jsonl")
    assert report.ok, report
    assert report.steps == 36 and report.refused == 0


def test_two_full_game_turns_by_both_sides() -> None:
    steps = entries()[1:]
    assert {e["side"] for e in steps} == {"axis", "soviet"}
    final = load_game(EXAMPLE / "journal.jsonl").state
    assert final["turn"] == 3 and (final["player"], final["phase"]) == ("axis", "air")


def test_a_decision_request_answered_by_the_opponent() -> None:
    steps = entries()[1:]
    asked = [(i, e) for i, e in enumerate(steps) if e.get("decision")
             and e["decision"]["side"] != e["side"]]
    assert asked, "no decision request went to the other player"
    i, entry = asked[0]
    answer = steps[i + 1]
    assert answer["side"] == entry["decision"]["side"]
    assert any(ev["kind"] == "decision-answered" for ev in answer["events"])


def test_replaying_the_turn_files_rebuilds_the_journal(tmp_path: Path) -> None:
    header = entries()[0]
    game = tmp_path / "game"
    create_game(game, "barbarossa", header["scenario"],
                {"axis": (EXAMPLE / "german.pub").read_bytes(),
                 "soviet": (EXAMPLE / "soviet.pub").read_bytes()},
                options=header["options"], game_id=header["game_id"],
                test_seed=bytes.fromhex(TEST_SEED))
    for turn in sorted((EXAMPLE / "turns").glob("step-*.xml")):
        adjudicate(game, turn.read_bytes())
    assert (game / "journal.jsonl").read_bytes() == (EXAMPLE / "journal.jsonl").read_bytes()


def test_the_kept_reports_exist_for_both_sides() -> None:
    for step in (EXAMPLE / "reports").iterdir():
        for side in ("axis", "soviet"):
            assert (step / side / "report.html").stat().st_size > 10_000
