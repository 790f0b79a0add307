"""The Moscow '41 example in examples/moscow/: it verifies, re-playing its signed files
rebuilds the journal byte for byte, it shows an overrun, untried units revealed (each
against the commitment published when it was drawn) and decision requests answered by
the opponent, and no kept report names a counter that was still untried at its step,
nor a salt or a seed that would let a player work one out (12.0, docs/architecture.md, Hidden
information)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from adjudicator.games import get_game
from adjudicator.games.moscow.data import Game
from adjudicator.games.moscow.untried import commitment
from adjudicator.referee.gamedir import load_game
from adjudicator.referee.referee import adjudicate, create_game
from adjudicator.referee.verify import verify

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "moscow"
TEST_SEED = hashlib.sha256(b"Moscow '41 example game").hexdigest()


def entries() -> list[dict[str, Any]]:
    return [json.loads(x) for x in (EXAMPLE / "journal.jsonl").read_text().splitlines()]


def events(kind: str) -> list[tuple[int, dict[str, Any]]]:
    return [(e["seq"], ev) for e in entries()[1:] for ev in e["events"] if ev["kind"] == kind]


def test_the_example_journal_verifies() -> None:
    report = verify(EXAMPLE / "journal.jsonl")
    assert report.ok, report
    assert report.steps == len(entries()) - 1 and report.refused == 0


def test_the_set_up_and_two_full_game_turns_by_both_sides() -> None:
    steps = entries()[1:]
    assert [e["side"] for e in steps[:3]] == ["soviet", "soviet", "german"]  # 1.3
    final = load_game(EXAMPLE / "journal.jsonl").state
    assert final["turn"] == 3 and (final["player"], final["phase"]) == ("german", "movement")
    phases = {(ev["player"], ev["phase"]) for _, ev in events("phase-ended")}
    assert {("german", "combat"), ("german", "interdiction"), ("soviet", "movement"),
            ("soviet", "combat")} <= phases
    assert [ev["turn"] for _, ev in events("turn-began")] == [2, 3]


def test_it_shows_each_kind_of_activity() -> None:
    declared = [ev for _, ev in events("attack-declared")]
    assert any(ev["combat"] == "overrun" and ev["side"] == "german" for ev in declared)  # 7.0
    assert any(ev["combat"] == "attack" and ev["side"] == "soviet" for ev in declared)
    assert any(ev["air"] for ev in declared if ev["side"] == "german")  # 11.2
    assert events("air-interdicted")  # 11.3
    assert events("reinforcement-entered")  # 14.0
    moved = [ev for _, ev in events("units-moved")]
    assert any(len(ev["units"]) > 1 for ev in moved)  # a German stack (4.5)
    assert any(ev["units"][0].startswith("U") for ev in moved)  # a Soviet move
    assert len(events("untried-revealed")) >= 10


def test_decision_requests_answered_by_the_opponent() -> None:
    steps = entries()[1:]
    asked = [(i, e) for i, e in enumerate(steps) if e.get("decision")
             and e["decision"]["side"] != e["side"]]
    kinds = {e["decision"]["kind"] for _, e in asked}
    assert {"loss", "air-on-defence"} <= kinds  # 8.9 D-E for the Soviet, 11.0 B German
    for i, entry in asked:
        answer = steps[i + 1]
        assert answer["side"] == entry["decision"]["side"]
        assert any(ev["kind"] == "decision-answered" for ev in answer["events"])
    assert events("decision-requested") and events("decision-answered")


def test_every_reveal_verifies_against_its_commitment() -> None:
    published = {ev["token"]: ev["commitment"] for _, ev in events("untried-drawn")}
    reveals = [ev for _, ev in events("untried-revealed")]
    assert reveals
    for ev in reveals:
        assert commitment(ev["token"], ev["piece"], ev["attack"], ev["defense"],
                          ev["salt"]) == published[ev["token"]], ev


def test_replaying_the_turn_files_rebuilds_the_journal(tmp_path: Path) -> None:
    header = entries()[0]
    game = tmp_path / "game"
    create_game(game, "moscow", header["scenario"],
                {"german": (EXAMPLE / "german.pub").read_bytes(),
                 "soviet": (EXAMPLE / "soviet.pub").read_bytes()},
                options=header["options"], game_id=header["game_id"],
                test_seed=bytes.fromhex(TEST_SEED))
    for turn in sorted((EXAMPLE / "turns").glob("step-*.xml")):
        adjudicate(game, turn.read_bytes())
    assert (game / "journal.jsonl").read_bytes() == (EXAMPLE / "journal.jsonl").read_bytes()


def hidden_at(seq: int) -> tuple[set[str], set[str]]:
    """The counters behind the tokens still untried after step `seq`, and their salts."""
    drawn: dict[str, dict[str, str]] = {}
    revealed: set[str] = set()
    for entry in entries()[1:seq + 1]:
        for ev in entry["events"]:
            if ev["kind"] == "untried-drawn":
                drawn[ev["token"]] = ev["secret"]
            elif ev["kind"] == "untried-revealed":
                revealed.add(ev["token"])
    hidden = {t: s for t, s in drawn.items() if t not in revealed}
    return {s["piece"] for s in hidden.values()}, {s["salt"] for s in hidden.values()}


def test_no_kept_report_names_an_unrevealed_counter() -> None:
    game = Game.of(get_game("moscow").bundled_module)
    seeds = [e["server_seed"] for e in entries()[1:] if e.get("server_seed")]
    assert seeds
    steps = sorted(int(p.name.split("-")[1]) for p in (EXAMPLE / "reports").iterdir())
    assert len(steps) >= 8
    for seq in steps:
        pieces, salts = hidden_at(seq)
        assert pieces and salts
        # a counter's id and name, whole words: SOV-XX-1 is not SOV-XX-17
        words = [re.escape(x) for p in pieces for x in (p, game.pieces[p].name)]
        pattern = re.compile(r"(?<![\w-])(" + "|".join(words) + r")(?![\w-])")
        for side in ("german", "soviet"):
            report = EXAMPLE / "reports" / f"step-{seq}" / side / "report.html"
            text = report.read_text("utf-8")
            assert len(text) > 10_000
            found = pattern.search(text)
            assert found is None, (report, found.group(0) if found else None)
            assert not any(salt in text for salt in salts), report
            assert not any(seed in text for seed in seeds), report
