"""The charts of Leningrad '41 (games/leningrad/data/charts.xml), pinned to the rules and
to the rulebook's worked numbers."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.module import MODULE_NS

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "leningrad" / "data"
M = f"{{{MODULE_NS}}}"


@pytest.fixture(scope="module")
def charts() -> etree._Element:
    return etree.parse(str(DATA / "charts.xml")).getroot()


def _fraction(value: int, divisor: int, charts: etree._Element) -> int:
    """Rule 3.1 as the chart states it: round down, never below the minimum."""
    rule = charts.find(f"{M}fractions")
    assert rule.get("round") == "down"
    return max(int(rule.get("minimum")), value // divisor)


def test_charts_validate_against_their_schema() -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "charts.rng")))
    assert schema.validate(etree.parse(str(DATA / "charts.xml"))), schema.error_log


def test_4_2_2_firepower_and_7_2_2_replacement_cost(charts: etree._Element) -> None:
    got = {c.get("id"): (c.get("hits"), c.get("replace"))
           for c in charts.find(f"{M}firepower").findall(f"{M}colour")}
    assert got == {"black": ("6", "1"), "white": ("5 6", "2"), "red": ("4 5 6", "3"),
                   "blue": ("", None)}


def test_4_2_1_and_2_8_movement(charts: etree._Element) -> None:
    mv = charts.find(f"{M}movement")
    assert (mv.get("slow"), mv.get("fast"), mv.get("disengage")) == ("3", "5", "1")


def test_3_1_fractions(charts: etree._Element) -> None:
    assert _fraction(7, 2, charts) == 3 and _fraction(1, 2, charts) == 1


def test_7_2_november_example_nine_halved_to_four(charts: etree._Element) -> None:
    halved = {h.get("weather"): h.get("sides") for h in
              charts.find(f"{M}logistics").findall(f"{M}halved")}
    assert halved["snowy"] == "axis"
    assert _fraction(0 + 4 + 3 + 2, 2, charts) == 4


def test_7_1_logistics_pause_regenerates_to_four(charts: etree._Element) -> None:
    assert charts.find(f"{M}logistics/{M}pause").get("leader-regenerates-to") == "4"


def test_6_0_six_turns_logistics_from_the_second(charts: etree._Element) -> None:
    turns = charts.find(f"{M}turns").findall(f"{M}turn")
    assert [t.get("month") for t in turns] == ["July", "August", "September", "October",
                                               "November", "December"]
    assert [t.get("logistics") for t in turns] == ["false"] + ["true"] * 5
    assert [t.get("weather") for t in turns] == ["sunny"] * 3 + ["roll"] * 3


def test_8_1_weather_changes_on_the_box_number_or_less(charts: etree._Element) -> None:
    weather = charts.find(f"{M}weather")
    assert weather.get("from-turn") == "4"
    boxes = {int(b.get("n")): b.get("changes-on").split() for b in weather.findall(f"{M}box")}
    assert boxes[1] == ["1"] and boxes[2] == ["1", "2"]
    assert all(len(v) == n for n, v in boxes.items())
    changes = [(c.get("from"), c.get("to")) for c in weather.findall(f"{M}change")]
    assert changes == [("sunny", "rainy"), ("rainy", "snowy")]


def test_8_0_rain_and_snow_effects(charts: etree._Element) -> None:
    eff = {e.get("weather"): e for e in charts.find(f"{M}weather").findall(f"{M}effect")}
    assert eff["rainy"].get("enter-mp") == "3" and eff["rainy"].get("attack-strength") == "1"
    assert eff["snowy"].get("enter-mp") == "2" and eff["snowy"].get("rivers") == "frozen"


def test_10_3_tactical_range_is_strength(charts: etree._Element) -> None:
    ranges = {r.get("stars"): r.get("areas") for r in
              charts.find(f"{M}tactical-range").findall(f"{M}range")}
    assert ranges == {"4": "4", "3": "3", "2": "2", "0": "0"}


def test_10_14_absorb_at_most_three(charts: etree._Element) -> None:
    absorb = charts.find(f"{M}absorb")
    assert absorb.get("maximum") == "3" and absorb.get("order") == "terrain city line"


def test_10_15_1_luga_example_total_absorb(charts: etree._Element) -> None:
    absorb = charts.find(f"{M}absorb")
    yellow, city, line = 1, int(absorb.get("city")), int(absorb.get("line"))
    assert min(int(absorb.get("maximum")), yellow + city + line) == 3


def test_2_4_4_2_sudden_death_at_seven(charts: etree._Element) -> None:
    assert charts.find(f"{M}victory").get("sudden-death") == "7"


def test_14_2_baltic_control(charts: etree._Element) -> None:
    req = charts.find(f"{M}baltic-control/{M}requires")
    assert (req.get("all"), req.get("any")) == ("L O", "H T K")


def test_14_4_road_of_life_limits(charts: etree._Element) -> None:
    rol = charts.find(f"{M}road-of-life")
    assert (rol.get("per-harbour"), rol.get("maximum"), rol.get("isolated-maximum")) == (
        "1", "3", "2")


def test_14_6_typhoon_eight_blocks_seven_impulses_then_zhukov(charts: etree._Element) -> None:
    typhoon = charts.find(f"{M}typhoon")
    assert len(typhoon.findall(f"{M}candidate")) == 8
    assert typhoon.get("removals") == "7" and typhoon.get("then") == "zhukov"
    assert {"ger-6pz", "ger-8fk", "ger-3mot"} <= {c.get("block") for c in typhoon}


def test_14_7_agility_fourteen_axis_infantry_divisions_and_three_shock_armies(
        charts: etree._Element) -> None:
    four = charts.find(f"{M}agility/{M}four-mp").get("blocks").split()
    axis = [b for b in four if not b.startswith("sov-")]
    assert len(axis) == 14 and sum(b.startswith("fin-") for b in axis) == 7
    assert len(four) - len(axis) == 3


def test_14_0_optional_rules_in_order(charts: etree._Element) -> None:
    ids = [r.get("id") for r in charts.find(f"{M}optional-rules")]
    assert ids == [f"14.{n}" for n in range(1, 10)]


def test_14_9_lend_lease(charts: etree._Element) -> None:
    ll = charts.find(f"{M}lend-lease")
    assert ll.get("areas") == "S1 S2 S3 S4" and ll.get("box") == "trail-10"


def test_chart_block_references_exist(charts: etree._Element) -> None:
    blocks = {b.get("id") for b in etree.parse(str(DATA / "pieces.xml")).getroot()
              .findall(f"{M}block")}
    named = {c.get("block") for c in charts.iter(f"{M}candidate")}
    for el in charts.iter():
        if el.get("blocks"):
            named |= set(el.get("blocks").split())
        if el.get("block"):
            named.add(el.get("block"))
    assert named <= blocks
