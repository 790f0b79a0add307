"""Barbarossa Solitaire module 1.1.0 (RULES-ISSUES.md, "What module 1.1.0 changed"): a
garrison named as a unit is refused as a garrison (Movement: "Garrison units cannot
move"), an attack on an area an earlier order made German-controlled says what made it
so; a game of module 1.0.0 keeps the old words its journal holds. And the report's
position table lists every German-controlled area (each counts for victory)."""

from __future__ import annotations

import copy
import gzip
import hashlib

import pytest

from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.engine.step import StepResult, run_step
from adjudicator.games import get_game
from adjudicator.games.solitaire.report import REPORTER
from adjudicator.games.solitaire.vocabulary import RULES_1_1
from tests.conformance.harness import ScriptedDice, load_cases, orders_of

PACKAGE = get_game("solitaire")
RULES = PACKAGE.rules
CASES = {case.id: case for case in load_cases("solitaire")}
POSITION = "urn:pbem:position:1"


def old_module() -> ModuleData:
    raw = gzip.decompress((PACKAGE.data_dir / "history" / "1.0.0.xml.gz").read_bytes())
    return PACKAGE.module_for("1.0.0", hashlib.sha256(raw).hexdigest())


OLD, NEW = old_module(), PACKAGE.bundled_module


def play(module: ModuleData, case_id: str) -> StepResult:
    """A conformance case under `module` (the harness plays the bundled one)."""
    case = CASES[case_id]
    position = case.element.find(f"{{{POSITION}}}position")
    state: State = RULES.position_state(module, copy.deepcopy(position), {})
    dice_el = case.child("dice")
    dice = ScriptedDice([int(v) for v in (dice_el.text or "").split()]
                        if dice_el is not None else [], 6)
    return run_step(RULES, module, state, orders_of(case.children("orders")[0]), "german",
                    dice)


def test_the_editions() -> None:
    assert NEW.at_least(RULES_1_1) and not OLD.at_least(RULES_1_1)
    assert OLD.version == "1.0.0" and OLD.sha256 != NEW.sha256


@pytest.mark.parametrize("case_id, old_words", [
    ("movement-a-garrison-cannot-move", "there is no unit 'berlin' in this game"),
    ("movement-a-garrison-cannot-attack", "there is no unit 'warsaw' in this game"),
])
def test_a_garrison_named_as_a_unit(case_id: str, old_words: str) -> None:
    new, old = play(NEW, case_id), play(OLD, case_id)
    assert new.rejection is not None and old.rejection is not None
    assert (new.rejection.code, new.rejection.rule) == ("garrison-cannot-move", "Movement")
    assert "garrison units cannot move" in new.rejection.message
    assert (old.rejection.code, old.rejection.message) == ("unknown-unit", old_words)


def test_an_area_cut_off_by_an_earlier_attack_of_the_file() -> None:
    case = "combat-an-area-cut-off-earlier-in-the-file-says-why"
    new, old = play(NEW, case), play(OLD, case)
    assert new.rejection is not None and old.rejection is not None
    assert new.applied == old.applied == 1  # the attack on Kurland stands
    assert "earlier in this step (attack on Kurland)" in new.rejection.message
    assert old.rejection.message == ("Estonia is not Soviet-controlled; only "
                                     "Soviet-controlled areas can be attacked")


def test_the_refusal_says_german_forces_hold_an_occupied_area() -> None:
    state = RULES.initial_state(NEW, "campaign", {})
    state["phase"] = "attack"
    result = run_step(RULES, NEW, state, orders_of_text('<attack target="warsaw" '
                                                        'units="GER-16"/>'), "german", None)
    assert result.rejection is not None
    assert "German forces hold Warsaw" in result.rejection.message


def orders_of_text(body: str) -> list:  # noqa: ANN401 - engine orders
    from lxml import etree

    return orders_of(etree.fromstring(f'<orders xmlns="urn:pbem:orders:1">{body}</orders>'))


def test_the_position_table_lists_german_areas_without_units() -> None:
    """Victory Conditions count German-controlled areas: Slovenia, German-side, without
    units or a garrison at the start, is one of them and has its row."""
    state = RULES.initial_state(NEW, "campaign", {})
    assert state["control"]["slovenia"] == "german"
    assert "slovenia" not in state["units"].values() and "slovenia" not in state["garrisons"]
    rows = {row.area: row for row in REPORTER.position(NEW, state)}
    german = {a for a, side in state["control"].items() if side == "german"}
    assert len(rows) == len(german)
    assert any(area.lower() == "slovenia" and not row.units for area, row in rows.items())
