"""1941's rules editions (RULES-ISSUES.md, "What module 0.3.0 changed"): every reading
module 0.3.0 changed keeps its old behaviour, word for word, for the games of module
0.2.0, whose journals must replay byte for byte (docs/architecture.md, "Compatibility").

Each test plays a conformance case of the change under both modules: the case itself
(tests/conformance/barbarossa/) pins 0.3.0, the test pins what 0.2.0 did."""

from __future__ import annotations

import copy
import gzip
import hashlib

import pytest
from lxml import etree

from adjudicator.engine.module import ModuleData
from adjudicator.engine.step import StepResult, run_step
from adjudicator.errors import InvalidInput
from adjudicator.games import get_game
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.vocabulary import RULES_0_3
from tests.conformance.harness import ScriptedDice, load_cases, orders_of

PACKAGE = get_game("barbarossa")
CASES = {case.id: case for case in load_cases("barbarossa")}
POSITION = "urn:pbem:position:1"


def old_module() -> ModuleData:
    raw = gzip.decompress((PACKAGE.data_dir / "history" / "0.2.0.xml.gz").read_bytes())
    return PACKAGE.module_for("0.2.0", hashlib.sha256(raw).hexdigest())


OLD, NEW = old_module(), PACKAGE.bundled_module


def play(module: ModuleData, case_id: str) -> StepResult:
    """A conformance case's steps under `module` (the harness plays the bundled one)."""
    case = CASES[case_id]
    options_el = case.child("options")
    options = dict(options_el.attrib) if options_el is not None else {}
    position = case.element.find(f"{{{POSITION}}}position")
    state = PACKAGE.rules.position_state(module, copy.deepcopy(position), options) \
        if position is not None else PACKAGE.rules.initial_state(module, "campaign", options)
    dice_el = case.child("dice")
    dice = ScriptedDice([int(v) for v in (dice_el.text or "").split()]
                        if dice_el is not None else [], 6)
    events = []
    for container in case.children("orders"):
        result = run_step(PACKAGE.rules, module, state, orders_of(container),
                          container.get("side") or "axis", dice)
        events.extend(result.events)
        state = result.state
    result.events = events
    return result


def kinds(result: StepResult, kind: str) -> list[dict]:
    return [e.to_json() for e in result.events if e.kind == kind]


def test_the_editions() -> None:
    assert RULES_0_3 == "0.3.0" and NEW.at_least(RULES_0_3)
    assert OLD.version == "0.2.0" and OLD.sha256 != NEW.sha256
    assert GameData.of(NEW).since_0_3 and not GameData.of(OLD).since_0_3


def test_4_0_b_control_at_the_instant_only_from_0_3_0() -> None:
    case = "5.4-b-rail-through-a-hex-just-controlled-by-zoc"
    old = play(OLD, case)
    assert old.rejection is not None
    assert (old.rejection.rule, old.rejection.message) == (
        "5.4 B", "rail movement stays in friendly territory; 1725 is not")
    assert not kinds(old, "control-changed")  # zones took hexes only at the end of a phase
    assert play(NEW, case).rejection is None


def test_4_0_b_a_retreat_took_no_hex_before_0_3_0() -> None:
    old = play(OLD, "4.0-b-a-retreat-takes-the-hex-it-ends-in")
    assert old.rejection is None and old.state["control"]["1624"] == "axis"


def test_4_0_b_victory_cities_after_surrender() -> None:
    case = "18.1-d-a-city-falls-to-a-zone-when-its-garrison-surrenders"
    assert "1719" not in play(OLD, case).state["control"]  # still Soviet at the end
    assert play(NEW, case).state["control"]["1719"] == "axis"


def test_14_2_4_b_the_recapture_restored_the_rate_at_once_before_0_3_0() -> None:
    case = "14.2.4-b-the-rate-stays-reduced-in-the-turn-moscow-is-retaken"
    old = play(OLD, case)
    assert old.rejection is None and not kinds(old, "replacements-reduced")
    assert "replacements_reduced" not in old.state


def test_12_0_d_and_7_8_3_a_names_were_dropped_before_0_3_0() -> None:
    old = play(OLD, "12.0-d-an-attack-naming-a-shock-army-to-advance-is-refused")
    assert old.rejection is None and kinds(old, "attack-resolved")
    assert not kinds(old, "unit-advanced")
    for case in ("7.8.3-a-only-an-attacking-unit-may-advance",
                 "7.7.6-b-the-exchange-loss-is-one-of-the-attacking-units"):
        assert play(OLD, case).rejection is None


def test_7_2_b_two_hexes_were_a_bad_hex_before_0_3_0() -> None:
    old = play(OLD, "7.2-b-two-hexes-may-not-be-attacked-in-a-single-attack")
    assert old.rejection is not None and (old.rejection.rule, old.rejection.code) == (
        "7.2 A", "bad-hex")


@pytest.mark.parametrize(("case", "rule", "message"), [
    ("14.1.2.2-a-no-entry-at-an-axis-controlled-city", "14.1.2",
     "34th Army may not enter at 2519"),
    ("14.1.2.2-b-a-cut-off-city-is-not-eligible", "14.1.2", "28th Army may not enter at 1719"),
    ("14.1.1-a-the-refusal-says-why-a-west-edge-hex-is-no-entry", "14.1.1 A",
     "50th Infantry Corps may not enter at 0928"),
    ("14.1.2.1-a-not-at-an-enemy-controlled-source", "14.1.2", "28th Army may not enter at 1901"),
    ("20.6.1-finnish-units-are-deployed-as-in-the-historical-game", "20.6.2",
     "'FIN-XXX-4F' is not a German unit on the map"),
    ("20.1.2-A-the-black-sea-fleet-carries-infantry-type-units-only", "20.1.1 A",
     "2nd Mechanized Corps is armor-type; the fleets carry infantry-type units only"),
    ("10.1-b-air-points-serve-both-player-turns", "10.1 B",
     "soviet has 0 air points left this turn, not 1; each may be used once"),
    ("5.4-b-rail-only-in-friendly-territory", "5.4 B",
     "rail movement stays in friendly territory; 1811 is not"),
    ("14.2.3-a-replacements-only-at-an-east-edge-source", "14.2.3 B",
     "replacements enter at a friendly supply source on the east edge (1501, 2101, 2501, "
     "2601, 2901), not 1809"),
])
def test_refusals_keep_their_0_2_0_words(case: str, rule: str, message: str) -> None:
    old = play(OLD, case)
    assert old.rejection is not None
    assert (old.rejection.rule, old.rejection.message) == (rule, message)


def test_14_1_2_1_a_a_source_taken_mid_phase_stayed_open_before_0_3_0() -> None:
    old = play(OLD, "14.1.2.1-a-a-source-lost-to-a-zone-in-the-middle-of-the-phase")
    assert old.rejection is None and kinds(old, "unit-entered")


def test_6_2_b_any_hex_of_a_tanks_zone_forbade_the_move_before_0_3_0() -> None:
    old = play(OLD, "6.2-b-armor-moves-within-the-zone-of-one-enemy-tank")
    assert old.rejection is not None and (old.rejection.rule, old.rejection.code) == (
        "6.2 B", "armor-zoc")


def gulf_of_finland_in_snow(module: ModuleData) -> None:
    root = etree.fromstring(f'<position xmlns="{POSITION}" game="barbarossa" turn="7" '
                            'phase="soviet.first.movement"><unit id="SOV-XXXX-7" at="0613"/>'
                            '</position>'.encode())
    PACKAGE.rules.position_state(module, root, {})


def test_13_5_c_a_position_on_the_unfrozen_gulf_of_finland() -> None:
    gulf_of_finland_in_snow(OLD)  # 0.2.0 took any water hex in snow
    with pytest.raises(InvalidInput) as refused:
        gulf_of_finland_in_snow(NEW)
    assert refused.value.message == (
        "position file: SOV-XXXX-7 stands in 0613, a sea hex of the Gulf of Finland, and it "
        "does not freeze: no unit can be there (13.5 C: only in snow, and then only the "
        "lakes, the Gulf of Onega and the White Sea freeze)")



def test_13_5_c_a_lake_outside_snow_is_refused_in_both_editions() -> None:
    board = NEW.hex_board()
    lake = board.label(next(h for h, t in sorted(board.terrain.items()) if t == "lake"))
    root = etree.fromstring(f'<position xmlns="{POSITION}" game="barbarossa" turn="5" '
                            f'phase="axis.air"><unit id="FIN-XXX-4F" at="{lake}"/></position>'
                            .encode())
    with pytest.raises(InvalidInput, match="all-lake, outside snow"):
        PACKAGE.rules.position_state(OLD, copy.deepcopy(root), {})
    with pytest.raises(InvalidInput, match="a lake hex of Lake .*, and the weather is mud"):
        PACKAGE.rules.position_state(NEW, root, {})


def test_14_2_4_b_a_position_at_the_soviet_first_movement_phase_keeps_the_penalty() -> None:
    """A position file starts as its phase begins (docs/position-files.md): with Moscow Axis
    controlled then, the turn's replacement rate is reduced even if Moscow is retaken."""
    root = etree.fromstring(f'<position xmlns="{POSITION}" game="barbarossa" turn="3" '
                            'phase="soviet.first.movement"><control area="1808" side="axis"/>'
                            '</position>'.encode())
    assert PACKAGE.rules.position_state(NEW, copy.deepcopy(root), {})[
        "replacements_reduced"] == 3
    assert "replacements_reduced" not in PACKAGE.rules.position_state(OLD, root, {})
