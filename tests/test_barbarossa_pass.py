"""1941 module 0.4.0 (RULES-ISSUES.md, "What module 0.4.0 changed"): the referee's pass
for a missed deadline keeps 14.1.3 C ("reinforcements may not be delayed") by bringing
the reinforcements due in at entry hexes the rules take, and a refused entry says where
the unit may enter; a game of module 0.3.0 keeps the old pass and the old words, which
its journal holds."""

from __future__ import annotations

import copy
import gzip
import hashlib

from lxml import etree

from adjudicator.engine.module import ModuleData
from adjudicator.engine.rules import referee_pass
from adjudicator.engine.state import State
from adjudicator.engine.step import StepResult, run_step
from adjudicator.games import get_game
from adjudicator.games.barbarossa.vocabulary import RULES_0_4
from tests.conformance.harness import load_cases, orders_of

PACKAGE = get_game("barbarossa")
RULES = PACKAGE.rules
CASES = {case.id: case for case in load_cases("barbarossa")}
POSITION = "urn:pbem:position:1"


def kept_module(version: str) -> ModuleData:
    raw = gzip.decompress((PACKAGE.data_dir / "history" / f"{version}.xml.gz").read_bytes())
    return PACKAGE.module_for(version, hashlib.sha256(raw).hexdigest())


OLD, NEW = kept_module("0.3.0"), PACKAGE.bundled_module


def case_state(module: ModuleData, case_id: str) -> State:
    position = CASES[case_id].element.find(f"{{{POSITION}}}position")
    return RULES.position_state(module, copy.deepcopy(position), {})


def play_pass(module: ModuleData, state: State, side: str) -> tuple[list[str], StepResult]:
    orders = referee_pass(RULES, module, state, side)
    file = etree.fromstring(f'<orders xmlns="urn:pbem:orders:1">{"".join(orders)}</orders>')
    return orders, run_step(RULES, module, state, orders_of(file), side, None)


def test_the_editions() -> None:
    assert RULES_0_4 == "0.4.0" and NEW.at_least(RULES_0_4) and not OLD.at_least(RULES_0_4)


def test_the_pass_brings_the_reinforcements_due_in_and_the_rules_take_it() -> None:
    """14.1.3 C: the 50th Corps is due on Turn 2; the pass enters it at the first west-edge
    hex the rules take (14.1.1 A) before it ends the phases."""
    state = case_state(NEW, "14.1.3-c-reinforcements-may-not-be-delayed")
    orders, result = play_pass(NEW, state, "axis")
    assert orders[0] == '<enter unit="GER-XXX-50" hex="1028"/>'
    assert orders[1:] == ["<end-phase/>"] * (len(orders) - 1)
    assert result.rejection is None, result.rejection
    assert state["arriving"]["2"] != result.state["arriving"].get("2")
    assert result.state["units"]["GER-XXX-50"] == "1028"
    assert result.state["player"] == "soviet"  # the whole player turn passed


def test_a_0_3_0_game_keeps_the_old_pass_which_14_1_3_c_refuses() -> None:
    state = case_state(OLD, "14.1.3-c-reinforcements-may-not-be-delayed")
    orders, result = play_pass(OLD, state, "axis")
    assert orders == RULES.pass_orders(state, "axis")
    assert all(o == "<end-phase/>" for o in orders)
    assert result.rejection is not None and result.rejection.rule == "14.1.3 C"


def test_a_unit_that_can_enter_nowhere_is_eliminated_by_the_pass() -> None:
    """14.1.3 D: every entry hex is Axis controlled, so the pass enters nothing and the
    28th Army is eliminated when the phase ends."""
    state = case_state(NEW, "14.1.3-d-no-entry-hex-eliminates")
    orders, result = play_pass(NEW, state, "soviet")
    assert not any(o.startswith("<enter") for o in orders)
    assert result.rejection is None, result.rejection
    assert any(e.kind == "unit-eliminated" and e.data.get("rule") == "14.1.3 D"
               for e in result.events)


def test_the_pass_from_the_air_phase_enters_after_it_and_none_after_the_movement() -> None:
    state = RULES.initial_state(NEW, "campaign", {})  # Turn 1, the Axis Air Phase
    orders = referee_pass(RULES, NEW, state, "axis")
    assert orders[0] == "<end-phase/>" and orders[1].startswith('<enter unit="GER-XXX-14Pz"')
    later = copy.deepcopy(state)
    later["segment"], later["phase"] = "first", "combat"
    assert referee_pass(RULES, NEW, later, "axis") == RULES.pass_orders(later, "axis")


def test_the_entry_refusal_says_where_the_unit_may_enter_from_0_4_0() -> None:
    case = CASES["14.1.1-a-the-refusal-says-why-a-west-edge-hex-is-no-entry"]
    words = ("50th Infantry Corps may not enter at 0928: it is a sea hex, and Axis "
             "reinforcements enter at a friendly clear or rough hex on the west map edge")
    for module, suffix in ((OLD, ""), (NEW, ". It may enter at: 1028, 1128")):
        state = case_state(module, case.id)
        result = run_step(RULES, module, state, orders_of(case.children("orders")[0]), "axis",
                          None)
        assert result.rejection is not None
        assert result.rejection.message.startswith(words + suffix)
        if not suffix:
            assert result.rejection.message == words


def test_the_14_1_3_c_refusal_lists_the_entry_hexes_from_0_4_0() -> None:
    case = CASES["14.1.3-c-reinforcements-may-not-be-delayed"]
    old_words = ("50th Infantry Corps (GER-XXX-50) must enter this turn; reinforcements may "
                 "not be delayed")
    for module in (OLD, NEW):
        state = case_state(module, case.id)
        result = run_step(RULES, module, state, orders_of(case.children("orders")[0]), "axis",
                          None)
        assert result.rejection is not None
        message = result.rejection.message
        assert message == old_words if module is OLD else \
            message.startswith(old_words + " (GER-XXX-50 may enter at 1028, 1128")
