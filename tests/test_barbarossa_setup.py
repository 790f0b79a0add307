"""1941 module assembly and rule 19.0 set-up: the module (map, counters, charts, sides,
scenarios, options) validates, the charts read as the rules need them, and the
scenario starts where the rulebook says."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.module import ModuleData, load_module
from adjudicator.errors import ModuleError
from adjudicator.games.barbarossa.data import Charts
from adjudicator.games.barbarossa.setup import scenario_state

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "barbarossa" / "data"


@pytest.fixture(scope="module")
def module() -> ModuleData:
    schema = etree.RelaxNG(file=str(DATA / "module.rng"))
    return load_module((DATA / "module.xml").read_bytes(), schema, expected_game="barbarossa")


def test_the_module_is_the_parts_it_is_built_from(module: ModuleData) -> None:
    """tools/build_module.py barbarossa: map.xml, pieces.xml and charts.xml verbatim."""
    text = (DATA / "module.xml").read_text("utf-8")
    for part in ("map.xml", "pieces.xml", "charts.xml"):
        body = (DATA / part).read_text("utf-8")
        tag = {"map.xml": "<map", "pieces.xml": "<pieces", "charts.xml": "<charts"}[part]
        assert body[body.index(tag):].strip() in text, f"{part} changed: rebuild the module"
    assert hashlib.sha256(module.raw).hexdigest() == module.sha256


def test_5_1_and_13_movement_costs_from_the_tec(module: ModuleData) -> None:
    charts = Charts.of(module)
    assert charts.enter_cost("clear", False, "clear") == 1
    assert charts.enter_cost("clear", True, "mud") == 2  # 13.3 B
    assert charts.enter_cost("swamp", True, "frost") == 2  # 13.4 C
    assert charts.enter_cost("swamp", False, "frost") == 1
    assert charts.enter_cost("sea", False, "clear") is None
    assert charts.enter_cost("sea", False, "snow", water="White Sea") == 1  # 13.5 C
    assert charts.enter_cost("sea", False, "snow", water="Baltic Sea") is None
    assert charts.cross_cost(frozenset({"river"}), False, "frost") == 0  # 13.4 B
    assert charts.cross_cost(frozenset({"all-sea"}), False, "clear") is None


def test_5_2_mountain_and_finnish_units(module: ModuleData) -> None:
    charts = Charts.of(module)
    assert charts.enter_cost("rough", False, "clear") > 1
    assert charts.enter_cost("rough", False, "clear", special=frozenset({"mountain"})) == 1
    assert charts.enter_cost("swamp", False, "clear", special=frozenset({"finnish"})) == 1


def test_10_4_turn_6_air_points(module: ModuleData) -> None:
    assert Charts.of(module).turn(6).air == {"axis": 3, "soviet": 2}


def test_19_0_b_units_start_on_their_deployment_hexes(module: ModuleData) -> None:
    state = scenario_state(module, "campaign", {})
    assert state["units"]["SOV-XXXX-11"] == "1222"  # 19.0 B example
    forty_sixth = next(p.get("id") for p in module.findall("m:pieces/m:piece")
                       if "46" in p.get("name") and "Panzer" in p.get("name"))
    assert state["units"][forty_sixth] == "1825"  # 1.2.2 errata
    assert (state["turn"], state["player"], state["segment"]) == (1, "axis", "air")


def test_14_1_reinforcements_wait_for_their_turn(module: ModuleData) -> None:
    state = scenario_state(module, "campaign", {})
    fiftieth = next(p.get("id") for p in module.findall("m:pieces/m:piece")
                    if p.get("name").startswith("50th"))
    assert fiftieth in state["arriving"]["2"] and fiftieth not in state["units"]
    assert len(state["arriving"]["1"]) >= 2  # 1:Od and 1:E (17.1.5), the Turn 1 panzers
    on_map = len(state["units"])
    assert on_map + sum(len(v) for v in state["arriving"].values()) == 120


def test_options_are_the_optional_rules(module: ModuleData) -> None:
    state = scenario_state(module, "winter", {"partisans": "yes"})
    assert state["options"]["partisans"] == "yes" and state["last_turn"] == 10
    assert scenario_state(module, "campaign", {"naval": "yes"})["options"]["naval"] == "yes"
    with pytest.raises(ModuleError, match="takes no or yes"):
        scenario_state(module, "campaign", {"naval": "maybe"})
    with pytest.raises(ModuleError):
        scenario_state(module, "campaign", {"nukes": "yes"})
    with pytest.raises(ModuleError):
        scenario_state(module, "typhoon", {})
