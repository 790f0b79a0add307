"""The reconstructed counter mix of 1941: Operation Barbarossa (games/barbarossa/data/pieces.xml).

The printed counter sheet is not available. These tests pin what the rulebook states about
the counters (rule numbers in the test names) and the properties OOB-README.md promises of
the reconstruction: the set-up is on the reconstructed map (map.xml), each side in its own
territory, within the stacking limits, and shaped like the front of 22 June 1941.
"""

from __future__ import annotations

import copy
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.hexgrid import HexGrid, hex_distance
from adjudicator.engine.module import MODULE_NS

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "barbarossa" / "data"
PIECES_XML = DATA / "pieces.xml"
PIECES_RNG = DATA / "pieces.rng"
MAP_XML = DATA / "map.xml"
M = f"{{{MODULE_NS}}}"
GRID = HexGrid(orientation="flat", shifted="even", numbering="CCRR")

# 1.0: "120 die-cut counters"
COUNTERS = 120
# Where each nationality may set up (4.0 A, 15.2.1, 17.1.3, 20.6.2-20.6.3; map `country`)
HOME = {"german": {"germany", "romania"}, "finnish": {"finland"},
        "romanian": {"romania"}, "soviet": {"soviet"}}
NATION_PREFIX = {"german": "GER", "finnish": "FIN", "romanian": "ROM", "soviet": "SOV"}
SIZE_CODE = {"corps": "XXX", "group": "GRP", "army": "XXXX"}


@pytest.fixture(scope="module")
def root() -> etree._Element:
    return etree.parse(str(PIECES_XML)).getroot()


@pytest.fixture(scope="module")
def pieces(root: etree._Element) -> list[dict[str, str]]:
    return [dict(el.attrib) for el in root.iter(f"{M}piece")]


@pytest.fixture(scope="module")
def by_id(pieces: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    return {p["id"]: p for p in pieces}


@pytest.fixture(scope="module")
def hexes() -> dict[str, etree._Element]:
    return {h.get("id"): h for h in etree.parse(str(MAP_XML)).getroot().iter(f"{M}hex")}


def on_map(p: dict[str, str]) -> bool:
    """14.1 B: a four-digit deployment code is a set-up hex; anything else is a turn."""
    return len(p["deploy"]) == 4 and p["deploy"].isdigit()


def setup(pieces: list[dict[str, str]]) -> dict[str, list[dict[str, str]]]:
    stacks: dict[str, list[dict[str, str]]] = defaultdict(list)
    for p in pieces:
        if on_map(p):
            stacks[p["deploy"]].append(p)
    return stacks


def strength(p: dict[str, str]) -> str:
    return f"{p['attack']}-{p['movement']}"


def is_land(h: etree._Element) -> bool:
    return h.get("terrain") not in ("sea", "lake")


# -- the file itself ---------------------------------------------------------------------
def test_pieces_are_valid_against_their_schema(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(PIECES_RNG)))
    assert schema.validate(root), schema.error_log


@pytest.mark.parametrize("attribute, value", [
    ("deploy", "11"), ("deploy", "0"), ("deploy", "123"), ("deploy", "2:Od"),
    ("deploy", "1:W"), ("type", "cavalry"), ("size", "division"), ("abbreviation", "H"),
    ("nationality", "hungarian"), ("source", "rules"), ("attack", "0"),
])
def test_schema_rejects_values_outside_the_rules(root, attribute: str, value: str) -> None:
    schema = etree.RelaxNG(etree.parse(str(PIECES_RNG)))
    bad = copy.deepcopy(root)
    bad.find(f"{M}piece").set(attribute, value)
    assert not schema.validate(bad)


def test_1_0_there_are_120_counters(root, pieces) -> None:
    assert len(pieces) == COUNTERS == int(root.get("counters"))
    print("barbarossa counters:", Counter((p["side"], p["type"], p["size"]) for p in pieces))


def test_piece_ids_are_unique_and_follow_the_scheme(pieces) -> None:
    ids = [p["id"] for p in pieces]
    assert len(ids) == len(set(ids))
    for p in pieces:
        nation, size, _ = p["id"].split("-", 2)
        assert nation == NATION_PREFIX[p["nationality"]], p["id"]
        assert size == SIZE_CODE[p["size"]], p["id"]


def test_only_rule_facts_say_rules(pieces) -> None:
    for p in pieces:
        assert p["source"] == "reconstructed" or p["source"].startswith("rules: "), p["id"]
        assert p["note"].strip(), p["id"]


# -- counters the rulebook names ------------------------------------------------------------
def test_1_2_2_46th_panzer_corps_is_6_6_and_deploys_at_1825(by_id) -> None:
    p = by_id["GER-XXX-46Pz"]
    assert (p["name"], p["nationality"], p["type"], p["size"]) == (
        "46th Panzer Corps", "german", "armor", "corps")
    assert strength(p) == "6-6"
    assert p["deploy"] == "1825"
    assert p["source"] == "rules: 1.2.2"


def test_19_0_B_soviet_11th_army_deploys_at_1222(by_id) -> None:
    p = by_id["SOV-XXXX-11"]
    assert (p["name"], p["side"], p["size"]) == ("11th Army", "soviet", "army")
    assert p["deploy"] == "1222"
    assert p["source"].startswith("rules: 19.0 B")


def test_14_1_C_50th_infantry_corps_is_3_3_and_enters_on_turn_2(by_id) -> None:
    p = by_id["GER-XXX-50"]
    assert (p["name"], p["nationality"], p["type"], p["size"]) == (
        "50th Infantry Corps", "german", "infantry", "corps")
    assert strength(p) == "3-3"
    assert p["deploy"] == "2"
    assert p["source"] == "rules: 14.1 C"


def test_1_3_the_12th_is_an_infantry_army(by_id) -> None:
    p = by_id["SOV-XXXX-12"]
    assert (p["type"], p["size"]) == ("infantry", "army")


def test_12_0_A_the_soviets_have_exactly_four_shock_armies(pieces) -> None:
    shock = [p for p in pieces if p["type"] == "shock"]
    assert len(shock) == 4
    for p in shock:
        assert (p["side"], p["size"], p.get("abbreviation")) == ("soviet", "army", "S")
        assert p["source"].startswith("rules: 12.0 A")
    assert sorted(p["name"] for p in shock) == [
        "1st Shock Army", "2nd Shock Army", "3rd Shock Army", "4th Shock Army"]


def test_17_1_5_soviet_turn_1_reinforcements_enter_at_odessa_and_the_east_edge(pieces) -> None:
    soviet_turn_1 = [p for p in pieces if p["side"] == "soviet"
                     and p["deploy"].split(":")[0] == "1"]
    assert sorted(p["deploy"] for p in soviet_turn_1) == ["1:E", "1:Od"]  # "the unit" each
    for p in pieces:
        if p["deploy"] in ("1:Od", "1:E"):
            assert p["side"] == "soviet"


def test_20_6_3_B_germany_has_one_turn_1_panzer_corps_reinforcement(pieces) -> None:
    turn_1 = [p for p in pieces if p["side"] == "axis" and p["deploy"] == "1"]
    assert [(p["nationality"], p["type"], p["size"]) for p in turn_1] == [
        ("german", "armor", "corps")]


def test_20_6_3_A_three_german_corps_start_in_romania(pieces, hexes) -> None:
    in_romania = [p for p in pieces if p["nationality"] == "german" and on_map(p)
                  and hexes[p["deploy"]].get("country") == "romania"]
    assert len(in_romania) == 3
    assert all(p["size"] == "corps" for p in in_romania)


def test_20_6_2_other_german_units_start_in_greater_germany(pieces, hexes) -> None:
    countries = Counter(hexes[p["deploy"]].get("country") for p in pieces
                        if p["nationality"] == "german" and on_map(p))
    assert set(countries) == {"germany", "romania"}
    assert countries["germany"] > 20


def test_15_2_1_finnish_units_are_marked_F_and_start_in_finland(pieces, hexes) -> None:
    finns = [p for p in pieces if p["nationality"] == "finnish"]
    assert finns
    for p in finns:
        assert p.get("abbreviation") == "F"
        assert on_map(p), p["id"]
        assert hexes[p["deploy"]].get("country") == "finland", p["id"]


def test_1_3_3_abbreviations_belong_to_their_side(pieces) -> None:
    for p in pieces:
        abbr = p.get("abbreviation")
        assert (abbr == "F") == (p["nationality"] == "finnish"), p["id"]
        assert (abbr == "R") == (p["nationality"] == "romanian"), p["id"]
        assert (abbr == "S") == (p["type"] == "shock"), p["id"]
        if abbr == "M":
            assert (p["side"], p["type"]) == ("soviet", "armor"), p["id"]
    assert any(p.get("abbreviation") == "Cst" for p in pieces)
    assert any(p.get("abbreviation") == "M" for p in pieces)


def test_14_2_2_soviets_have_tank_corps_tank_groups_and_units_over_four(pieces) -> None:
    soviet = [p for p in pieces if p["side"] == "soviet"]
    assert any(p["type"] == "armor" and p["size"] == "corps" for p in soviet)
    assert any(p["type"] == "armor" and p["size"] == "group" for p in soviet)
    assert any(int(p["attack"]) > 4 for p in soviet)
    assert any(int(p["attack"]) <= 4 and p["type"] != "armor" for p in soviet)


def test_20_4_4_B_germany_has_panzer_groups(pieces) -> None:
    groups = [p for p in pieces if p["nationality"] == "german" and p["size"] == "group"]
    assert len(groups) == 4
    assert all(p["type"] == "armor" and p["movement"] == "6" for p in groups)


def test_7_examples_unit_strengths_exist(pieces) -> None:
    """7.5 A, 7.6 C, 7.7.6 B-C use 6-3, 4-3, 3-3, 5-3, 16-6 and 14-6 units."""
    printed = {strength(p) for p in pieces}
    for example in ("6-3", "4-3", "3-3", "5-3", "16-6", "14-6"):
        assert example in printed, example


def test_18_2_B_loss_thresholds_can_be_reached(pieces) -> None:
    sides = Counter(p["side"] for p in pieces)
    assert sides["soviet"] >= 40 and sides["axis"] >= 25


def test_5_2_mountain_units_exist(pieces) -> None:
    assert any(p["type"] == "mountain" for p in pieces)


# -- the set-up on the map ---------------------------------------------------------------------
def test_19_0_setup_hexes_are_on_the_map(pieces, hexes) -> None:
    for p in pieces:
        if on_map(p):
            assert p["deploy"] in hexes, p["id"]
            assert is_land(hexes[p["deploy"]]), p["id"]


def test_4_0_setup_is_in_own_territory(pieces, hexes) -> None:
    for p in pieces:
        if on_map(p):
            assert hexes[p["deploy"]].get("country") in HOME[p["nationality"]], p["id"]


def test_15_1_no_unit_starts_in_hungary(pieces, hexes) -> None:
    assert all(hexes[p["deploy"]].get("country") != "hungary" for p in pieces if on_map(p))


def test_3_0_initial_setup_respects_stacking(pieces, hexes) -> None:
    for hid, stack in setup(pieces).items():
        assert len({p["side"] for p in stack}) == 1, hid
        sizes = sorted(p["size"] for p in stack)
        if stack[0]["side"] == "axis":  # 3.1: one group, one army, one corps or two corps
            assert sizes in (["group"], ["army"], ["corps"], ["corps", "corps"]), hid
        elif hexes[hid].get("fortification") == "yes":  # 3.2 C, 11.0 C
            assert len(stack) <= 2, hid
        else:  # 3.2 A-B: one unit of any size plus one corps
            assert len(stack) <= 2, hid
            assert sum(s != "corps" for s in sizes) <= 1, hid


def test_14_1_reinforcements_enter_on_turns_1_to_10(pieces) -> None:
    for p in pieces:
        if not on_map(p):
            turn = int(p["deploy"].split(":")[0])
            assert 1 <= turn <= 10, p["id"]


def test_12_0_shock_armies_are_reinforcements(pieces) -> None:
    """Historically formed from late November 1941: none is on the map on 22 June."""
    assert all(not on_map(p) for p in pieces if p["type"] == "shock")


def test_setup_looks_like_22_june_1941(pieces, hexes) -> None:
    """The Axis masses on the border; the Soviets stand west of Moscow; each side's
    units on the map are the bulk of its army."""
    soviet_land = [GRID.parse(h) for h, el in hexes.items()
                   if is_land(el) and el.get("country") == "soviet"]
    for p in pieces:
        if not on_map(p):
            continue
        here = GRID.parse(p["deploy"])
        if p["side"] == "axis":
            assert min(hex_distance(here, s) for s in soviet_land) <= 2, p["id"]
        else:
            assert int(p["deploy"][2:]) >= 8, p["id"]  # row 08 is Moscow's (1808)
    axis = [p for p in pieces if p["side"] == "axis"]
    assert sum(on_map(p) for p in axis) > 0.8 * len(axis)
    # every panzer group stands on the border, next to a Soviet hex
    for p in axis:
        if p["size"] == "group":
            here = GRID.parse(p["deploy"])
            assert min(hex_distance(here, s) for s in soviet_land) == 1, p["id"]
