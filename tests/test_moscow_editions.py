"""Moscow '41 module 0.2.0 against 0.1.0 (RULES-ISSUES.md, "What module 0.2.0 changed";
docs/architecture.md, "Compatibility"): every gated rules fix. The conformance cases of
the fixes run under the current module (tests/conformance/moscow/); here the same cases
run under the kept module 0.1.0, which must still give that version's outcome, its
refusals word for word, so that a game begun before the upgrade verifies and plays on."""

from __future__ import annotations

import copy
import gzip
import hashlib
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.step import StepResult, run_step
from adjudicator.games import get_game
from adjudicator.games.moscow.vocabulary import RULES_0_2_0
from tests.conformance.harness import ScriptedDice, load_cases, orders_of

CASES = {case.id: case for case in load_cases("moscow")}
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "moscow" / "journal.jsonl"


def module_0_1_0() -> ModuleData:
    package = get_game("moscow")
    raw = gzip.decompress((package.data_dir / "history" / "0.1.0.xml.gz").read_bytes())
    return package.module_for("0.1.0", hashlib.sha256(raw).hexdigest())


def play(case_id: str, module: ModuleData) -> tuple[StepResult, list[dict[str, Any]]]:
    """A conformance case's steps under `module` (the harness runs the bundled one)."""
    package = get_game("moscow")
    case = CASES[case_id]
    position = case.element.find("{urn:pbem:position:1}position")
    state = package.rules.position_state(module, copy.deepcopy(position), {})
    dice_el = case.child("dice")
    dice = ScriptedDice([int(v) for v in (dice_el.text or "").split()]
                        if dice_el is not None else [])
    events: list[dict[str, Any]] = []
    for container in case.children("orders"):
        result = run_step(package.rules, module, state, orders_of(container),
                          container.get("side") or "german", dice)
        events += [e.to_json() for e in result.events]
        state = result.state
    return result, events


def refusal(result: StepResult) -> tuple[str, str, str]:
    assert result.rejection is not None, result.outcome
    record = result.rejection.as_record()
    return record["rule"], record["code"], record["message"]


def test_the_bundled_module_is_0_2_0_and_0_1_0_is_kept() -> None:
    assert get_game("moscow").bundled_module.at_least(RULES_0_2_0)
    old = module_0_1_0()
    assert old.version == "0.1.0" and not old.at_least(RULES_0_2_0)


def test_0_1_0_refuses_a_lone_overrun_out_of_an_ezoc() -> None:
    """4.7 D (RULES-ISSUES 18): 0.1.0 read 6.0 B into the overrun."""
    result, _ = play("4.7-d-a-lone-panzer-overruns-out-of-two-zocs", module_0_1_0())
    assert refusal(result) == (
        "6.0 B", "no-detachment", "GER-XX-18Pz would disengage from 2416 by overrunning and "
        "must advance if it succeeds (7.6 C): a friendly combat unit must remain in the hex "
        "(6.3)")


def test_0_1_0_keeps_one_overrunning_unit_back() -> None:
    result, events = play("4.7-d-every-overrunning-unit-may-advance-out-of-the-ezoc",
                          module_0_1_0())
    assert result.outcome == "accepted"
    assert result.state["units"]["GER-XX-20Pz"] == "2416"
    advanced = next(e for e in events if e["kind"] == "units-advanced")
    assert advanced["skipped"] == [{"unit": "GER-XX-20Pz", "rule": "6.0 B",
                                    "why": "a friendly combat unit must remain in the hex "
                                           "(6.3)"}]


def test_0_1_0_keeps_the_unit_that_stayed_behind_halted() -> None:
    """7.4 C (RULES-ISSUES 19)."""
    result, _ = play("7.4-c-the-unit-that-stayed-behind-moves-on-from-the-cleared-hex",
                     module_0_1_0())
    assert refusal(result) == ("4.7 B", "zoc-stop", "GER-XX-20Pz entered an enemy zone of "
                               "control this phase and may move no further")


def test_0_1_0_lets_a_reinforcement_disengage_from_its_entry_hex() -> None:
    """4.7 B, 6.1 (RULES-ISSUES 25): no `halted` in 0.1.0's event."""
    result, events = play("4.7-b-a-reinforcement-that-enters-an-ezoc-hex-stops-there",
                          module_0_1_0())
    assert result.outcome == "accepted" and result.state["units"]["U02"] == "3306"
    entered = next(e for e in events if e["kind"] == "reinforcement-entered")
    assert "halted" not in entered


def test_0_1_0_refuses_an_off_map_move_as_a_bad_path() -> None:
    result, _ = play("4.8-a-a-unit-may-not-move-off-the-map", module_0_1_0())
    assert refusal(result) == ("4.0 D", "bad-path", "hex 0010 is not on the map")


@pytest.mark.parametrize("case_id, unit", [
    ("6.4-example-the-overrunning-force-cannot-move-further", "GER-XX-18Pz"),
    ("6.4-the-unit-that-stayed-behind-is-part-of-the-overrunning-force", "GER-XX-20Pz"),
    ("6.4-a-panzer-may-not-disengage-after-the-overrun-advance", "GER-XX-18Pz"),
    ("7.7-c-a-unit-that-retreated-from-an-overrun-moves-no-further", "GER-XX-20Pz"),
])
def test_0_1_0_cites_4_1_a_for_a_unit_that_has_finished(case_id: str, unit: str) -> None:
    result, _ = play(case_id, module_0_1_0())
    assert refusal(result) == ("4.1 A", "finished",
                               f"{unit} has ended its movement for this Movement Phase")
    assert not any("ended" in m for m in result.state["movers"].values())


def test_0_1_0_lets_a_soviet_retreat_make_three_in_a_hex_on_turn_1() -> None:
    """3.2 B (RULES-ISSUES 14)."""
    result, _ = play("3.2-b-on-turn-1-a-soviet-retreat-may-not-make-three-in-a-hex",
                     module_0_1_0())
    assert result.outcome == "accepted" and result.state["units"]["U01"] == "2617"


def test_0_1_0_takes_the_higher_interdiction_multiplier() -> None:
    """11.3 C (RULES-ISSUES 26)."""
    result, _ = play("11.3-c-an-interdicted-start-hex-and-an-interdicted-first-hex-compound",
                     module_0_1_0())
    assert result.state["movers"]["U01"]["spent"] == "2"


def test_0_1_0_does_not_halt_a_two_hex_overrun_advance() -> None:
    result, _ = play("7.6-d-a-unit-that-advances-two-hexes-next-to-an-enemy-stops-there",
                     module_0_1_0())
    assert result.state["units"]["GER-XX-18Pz"] == "2514"
    assert result.state["movers"]["GER-XX-18Pz"]["halted"] is False


POSITION = """<position xmlns="urn:pbem:position:1" game="moscow" turn="2"
    phase="german.movement"><unit id="GER-XX-18Pz" at="2416"/><unit id="SOV-XX-174" at="2515"/>
    <value name="weather" value="clear"/></position>"""


def overrun_step(module: ModuleData, units: str, spent: str | None = None) -> StepResult:
    """An overrun of the Soviet unit in 2515 from 2416 (after the 18th Panzer has spent
    `spent` MPs coming from 2316)."""
    package = get_game("moscow")
    state = package.rules.position_state(module, etree.fromstring(POSITION), {})
    if spent is not None:
        state["movers"]["GER-XX-18Pz"] = {"allowance": 8, "start": "2316", "spent": spent,
                                          "halted": True, "finished": False}
    return run_step(package.rules, module, state,
                    [Order("overrun", {"units": units, "hex": "2515"})], "german", None)


def test_the_words_of_two_overrun_refusals() -> None:
    """An overrun with a unit not one's own cites 4.0 B (0.1.0: 8.0 A); one with too few
    MPs says what each unit needs and has (0.1.0: only the cost)."""
    new, old = get_game("moscow").bundled_module, module_0_1_0()
    assert refusal(overrun_step(new, "U01"))[:2] == ("4.0 B", "not-phasing")
    assert refusal(overrun_step(old, "U01"))[:2] == ("8.0 A", "not-phasing")
    assert refusal(overrun_step(new, "GER-XX-18Pz", "6")) == (
        "7.3", "too-far", "too few MPs left to overrun 2515: GER-XX-18Pz needs 3 MPs and has "
        "2 left; an overrun costs 2 MPs (1 for German units on Turn 1, 3.2 C) and the cost "
        "of the defenders' hex")
    assert refusal(overrun_step(old, "GER-XX-18Pz", "6")) == (
        "7.3", "too-far", "too few MPs left to overrun 2515: GER-XX-18Pz (3 MPs); an overrun "
        "costs 2 MPs (1 for German units on Turn 1, 3.2 C) and the cost of the defenders' hex")


def test_0_3_0_the_pass_ends_the_sides_own_phases() -> None:
    """RULES-ISSUES.md, "What module 0.3.0 changed": the German pass ends his own phases
    (3.1.1) and the rules take it; module 0.2.0 keeps its pass (an end-phase for each
    phase of the game turn), which its journals hold and 3.1 D stops short."""
    from adjudicator.engine.rules import referee_pass
    from adjudicator.games.moscow.flow import SEQUENCE, game_turn
    from adjudicator.games.moscow.vocabulary import RULES_0_3_0
    from adjudicator.referee.gamedir import load_game

    package = get_game("moscow")
    new = package.bundled_module
    assert new.at_least(RULES_0_3_0)
    raw = gzip.decompress((package.data_dir / "history" / "0.2.0.xml.gz").read_bytes())
    old = package.module_for("0.2.0", hashlib.sha256(raw).hexdigest())
    rules = package.rules
    state = load_game(EXAMPLE).state  # the example ends at a German Movement Phase
    assert (state["player"], state["phase"], state.get("pending")) == ("german", "movement",
                                                                        None)
    passed = referee_pass(rules, new, state, "german")
    held = game_turn(new).remaining(SEQUENCE.index(("german", "movement")), state,
                                    player="german")
    assert passed == ["<end-phase/>"] * held and held in (2, 3)  # 3.1.1 C while held
    result = run_step(rules, new, state, [Order("end-phase", index=i)
                                          for i in range(len(passed))], "german",
                      ScriptedDice([3] * 12))
    assert result.rejection is None and result.applied == len(passed)
    assert (result.state["player"], result.state["phase"]) == ("soviet", "movement")
    kept = referee_pass(rules, old, state, "german")
    assert kept == ["<end-phase/>"] * 5
    stopped = run_step(rules, old, state, [Order("end-phase", index=i) for i in range(5)],
                       "german", ScriptedDice([3] * 12))  # 3.1 D: not the German's phase
    assert stopped.rejection is not None and stopped.rejection.rule.startswith("3.1")
