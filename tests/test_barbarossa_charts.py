"""The charts of 1941: Operation Barbarossa (games/barbarossa/data/charts.xml).

The printed charts (TEC, CRT, TRT, Victory Point Table, Victory Table, Winter Victory
Table) are not in the rulebook text. charts.xml reconstructs them; these tests pin every
fact the rulebook states about them (rule numbers in the test names), read through the
chart data and the project's odds machinery, and the properties the reconstruction
promises (CHARTS-README.md).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.odds import CombatTable, OddsLadder

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "barbarossa" / "data"
CHARTS_XML = DATA / "charts.xml"
CHARTS_RNG = DATA / "charts.rng"
MAP_XML = DATA / "map.xml"
MAP_RNG = DATA / "map.rng"
NS = "urn:pbem:module:1"
M = f"{{{NS}}}"
RNG = "{http://relaxng.org/ns/structure/1.0}"

WEATHERS = ("clear", "rain", "mud", "frost", "snow")
# Best for the defender first: the order in which a CRT must improve for the attacker.
RESULT_ORDER = ("AE", "AR", "NE", "DR", "EX", "DE")


# -- fixtures and readers -----------------------------------------------------------------
@pytest.fixture(scope="module")
def root() -> etree._Element:
    return etree.parse(str(CHARTS_XML)).getroot()


@pytest.fixture(scope="module")
def hexes() -> dict[str, etree._Element]:
    return {h.get("id"): h for h in etree.parse(str(MAP_XML)).getroot().iter(f"{M}hex")}


@pytest.fixture(scope="module")
def crt(root: etree._Element) -> CombatTable:
    section = root.find(f"{M}combat-results")
    ladder = OddsLadder.of([c.get("odds") for c in section.iter(f"{M}column")])
    rows = {int(r.get("roll")): r.get("results").split() for r in section.iter(f"{M}row")}
    return CombatTable(ladder, rows)


def column(table: CombatTable, attack: int, defence: int, shift: int = 0) -> str:
    """7.4 D-E: the ratio, rounded for the defender, read on a printed column; then shifted."""
    ladder = table.ladder
    return ladder.name(ladder.final(ladder.clamp(ladder.initial(attack, defence)), shift))


def entry(root: etree._Element, kind: str, name: str) -> etree._Element:
    found = [e for e in root.iter(f"{M}{kind}") if e.get("name") == name]
    assert len(found) == 1, (kind, name)
    return found[0]


def row(el: etree._Element, tag: str, weather: str, water: str | None = None) -> etree._Element:
    """The row of a TEC entry for a weather; a row for the hex's water overrides."""
    rows = [r for r in el.iter(f"{M}{tag}") if weather in r.get("weather").split()]
    if water is not None:
        special = [r for r in rows if r.get("water") == water]
        if special:
            assert len(special) == 1
            return special[0]
    general = [r for r in rows if r.get("water") is None]
    assert len(general) == 1, (el.get("name"), tag, weather)
    return general[0]


def enter_cost(root: etree._Element, terrain: str, weather: str, unit: str,
               water: str | None = None, special: str | None = None) -> int | str:
    """MPs to enter a hex of `terrain` (unit: infantry or armor; special: mountain, finnish)."""
    el = entry(root, "hex-terrain", terrain)
    cost = row(el, "movement", weather, water).get(unit)
    for exc in el.iter(f"{M}unit-exception"):
        if exc.get("unit") == special and weather in exc.get("weather").split():
            return int(exc.get("cost"))
    return cost if cost == "prohibited" else int(cost)


def mp(cost: int | str) -> int:
    """A cost that must be a number of MPs (not "prohibited")."""
    assert isinstance(cost, int), cost
    return cost


def cross_cost(root: etree._Element, feature: str, weather: str, unit: str,
               water: str | None = None) -> int | str:
    cost = row(entry(root, "hexside-feature", feature), "movement", weather, water).get(unit)
    return cost if cost == "prohibited" else int(cost)


def terrain_shift(root: etree._Element, weather: str, hex_terrain: str,
                  features: Iterable[str] = (), hexsides: Iterable[str] = ()) -> int:
    """7.6 B: the column shift of the defender's hex (with its features) and of the hexside
    every attacker attacks across."""
    combats = [row(entry(root, "hex-terrain", hex_terrain), "combat", weather)]
    combats += [row(entry(root, "hex-feature", f), "combat", weather) for f in features]
    combats += [row(entry(root, "hexside-feature", s), "combat", weather) for s in hexsides]
    assert all(c.get("effect") != "prohibited" for c in combats)
    return sum(int(c.get("shift", "0")) for c in combats if c.get("effect") == "shift")


def shift_rule(root: etree._Element, cause: str) -> etree._Element:
    found = [s for s in root.iter(f"{M}shift") if s.get("cause") == cause]
    assert len(found) == 1
    return found[0]


def armor_bonus(root: etree._Element, weather: str, defender_terrain: str,
                attackers: str = "armor-only", defenders_have_armor: bool = False) -> int:
    rule = shift_rule(root, "armor")
    if weather in rule.get("not-in").split():
        return 0
    if defender_terrain not in rule.get("defender-terrain").split():
        return 0
    if attackers != rule.get("attackers") or defenders_have_armor:
        return 0
    return int(rule.get("columns"))


def air_shift(root: etree._Element, attacker_points: int, defender_points: int) -> int:
    return (attacker_points * int(shift_rule(root, "attacker-air").get("columns"))
            + defender_points * int(shift_rule(root, "defender-air").get("columns")))


def turns(root: etree._Element) -> list[etree._Element]:
    return list(root.find(f"{M}turn-record").iter(f"{M}turn"))


def turn(root: etree._Element, number: int) -> etree._Element:
    return turns(root)[number - 1]


def capacity(root: etree._Element, cap_id: str) -> etree._Element:
    found = [c for c in root.iter(f"{M}capacity") if c.get("id") == cap_id]
    assert len(found) == 1
    return found[0]


def allowance(root: etree._Element, allowance_id: str) -> list[tuple[int, int, int]]:
    found = [a for a in root.find(f"{M}replacements").iter(f"{M}allowance")
             if a.get("id") == allowance_id]
    assert len(found) == 1
    return [(int(o.get("infantry")), int(o.get("tank-corps")), int(o.get("tank-groups")))
            for o in found[0].iter(f"{M}option")]


def levels(root: etree._Element, section: str) -> list[etree._Element]:
    found = list(root.find(f"{M}{section}").iter(f"{M}level"))
    return sorted(found, key=lambda lv: int(lv.get("rank")))


def base_level(root: etree._Element, section: str, vp: int) -> int:
    """The rank of the level whose VP range holds vp."""
    hits = [int(lv.get("rank")) for lv in levels(root, section)
            if int(lv.get("min", vp)) <= vp <= int(lv.get("max", vp))]
    assert len(hits) == 1, (section, vp, hits)
    return hits[0]


def victory(root: etree._Element, vp: int, soviet_lost: int = 0, axis_lost: int = 0) -> str:
    """18.2: the level of the VP total, shifted for excessive losses."""
    section = root.find(f"{M}victory-levels")
    ranks = [int(lv.get("rank")) for lv in levels(root, "victory-levels")]
    rank = base_level(root, "victory-levels", vp)
    shift = 0
    for ls in section.iter(f"{M}loss-shift"):
        lost = soviet_lost if ls.get("losing-side") == "soviet" else axis_lost
        if lost >= int(ls.get("eliminated-at-least")):
            sign = 1 if ls.get("toward") == "german" else -1
            shift += sign * int(ls.get("levels"))
    rank = min(max(rank + shift, min(ranks)), max(ranks))
    return next(lv.get("name") for lv in levels(root, "victory-levels")
                if int(lv.get("rank")) == rank)


def level_named(root: etree._Element, section: str, name: str) -> etree._Element:
    found = [lv for lv in levels(root, section) if lv.get("name") == name]
    assert len(found) == 1, name
    return found[0]


def rng_values(attribute: str) -> set[str]:
    """The values map.rng allows for an attribute (the map's vocabularies)."""
    grammar = etree.parse(str(MAP_RNG)).getroot()
    return {v.text for a in grammar.iter(f"{RNG}attribute") if a.get("name") == attribute
            for v in a.iter(f"{RNG}value")}


# -- the file itself -------------------------------------------------------------------------
def test_charts_are_valid_against_their_schema(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(CHARTS_RNG)))
    assert schema.validate(root), schema.error_log


def test_schema_refuses_a_reconstruction_without_a_note(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(CHARTS_RNG)))
    broken = copy.deepcopy(root)
    air = broken.find(f"{M}turn-record/{M}turn/{M}air")
    assert air.get("source") == "reconstructed"
    del air.attrib["note"]
    assert not schema.validate(broken)
    air.set("note", "why")
    air.set("source", "rules: 10.4 X Y")
    assert not schema.validate(broken)


def test_only_rule_facts_say_rules(root: etree._Element) -> None:
    for el in root.iter():
        src = el.get("source")
        if src is None:
            continue
        assert src == "reconstructed" or src.startswith("rules: "), src
        if src.endswith("reconstructed"):
            assert el.get("note"), etree.tostring(el)


# -- 5.0 movement and the TEC -------------------------------------------------------------------
def test_5_1_tec_has_every_terrain_and_hexside_feature_of_the_map(root: etree._Element) -> None:
    hex_terrains = {e.get("name") for e in root.iter(f"{M}hex-terrain")}
    features = {e.get("name") for e in root.iter(f"{M}hexside-feature")}
    assert hex_terrains == rng_values("terrain")
    assert features == rng_values("features")
    assert {e.get("name") for e in root.iter(f"{M}hex-feature")} == {
        "major-city", "reference-city", "fortification"}
    assert {"major", "reference"} == rng_values("city-class")


def test_5_1_every_entry_has_one_row_per_weather(root: etree._Element) -> None:
    for kind in ("hex-terrain", "hexside-feature", "hex-feature"):
        for el in root.iter(f"{M}{kind}"):
            for tag in ("movement", "combat", "zoc"):
                general = [w for r in el.iter(f"{M}{tag}") if r.get("water") is None
                           for w in r.get("weather").split()]
                if tag == "zoc" and not general:
                    continue
                assert sorted(general) == sorted(WEATHERS), (el.get("name"), tag)


def test_5_1_c_infantry_and_armor_costs_differ_by_terrain(root: etree._Element) -> None:
    assert enter_cost(root, "clear", "clear", "infantry") == 1
    assert enter_cost(root, "clear", "clear", "armor") == 1
    assert mp(enter_cost(root, "forest", "clear", "armor")) > mp(
        enter_cost(root, "forest", "clear", "infantry"))
    for weather in WEATHERS:
        for terrain in ("clear", "forest", "rough", "swamp"):
            inf = enter_cost(root, terrain, weather, "infantry")
            arm = enter_cost(root, terrain, weather, "armor")
            assert isinstance(inf, int) and isinstance(arm, int) and 1 <= inf <= arm


def test_5_2_a_mountain_units_pay_1_mp_for_rough(root: etree._Element) -> None:
    for weather in WEATHERS:
        assert mp(enter_cost(root, "rough", weather, "infantry")) > 1  # or 5.2 A says nothing
        assert enter_cost(root, "rough", weather, "infantry", special="mountain") == 1
    # the ability is for rough hexes only
    assert enter_cost(root, "swamp", "clear", "infantry", special="mountain") == \
        enter_cost(root, "swamp", "clear", "infantry")


def test_5_2_b_and_15_2_3_finnish_units_pay_1_mp_for_swamp(root: etree._Element) -> None:
    for weather in ("clear", "rain", "mud"):
        assert mp(enter_cost(root, "swamp", weather, "infantry")) > 1
    for weather in WEATHERS:
        assert enter_cost(root, "swamp", weather, "infantry", special="finnish") == 1
    assert enter_cost(root, "rough", "clear", "infantry", special="finnish") == \
        enter_cost(root, "rough", "clear", "infantry")


def test_5_1_b_hexside_costs_are_in_addition_to_the_hex(root: etree._Element) -> None:
    assert mp(cross_cost(root, "river", "clear", "infantry")) >= 1
    assert cross_cost(root, "rail", "clear", "armor") == 0
    assert cross_cost(root, "border", "snow", "infantry") == 0
    assert cross_cost(root, "all-sea", "clear", "infantry") == "prohibited"


def test_5_4_e_rail_capacities(root: etree._Element) -> None:
    axis = capacity(root, "axis")
    assert (axis.get("corps"), axis.get("or-groups-armies")) == ("3", "1")
    assert capacity(root, "soviet").get("units") == "8"
    assert capacity(root, "finnish").get("units") == "1"  # 15.2.4 A, on top of the Axis
    for t in turns(root)[1:]:
        rail = t.find(f"{M}rail")
        assert (rail.get("axis"), rail.get("soviet"), rail.get("finnish")) == (
            "axis", "soviet", "finnish")


def test_17_1_2_turn_1_rail_capacity(root: etree._Element) -> None:
    rail = turn(root, 1).find(f"{M}rail")
    axis = capacity(root, rail.get("axis"))
    assert (axis.get("corps"), axis.get("or-groups-armies")) == ("0", "0")
    assert capacity(root, rail.get("soviet")).get("units") == "2"
    assert capacity(root, rail.get("finnish")).get("units") == "0"


def test_20_2_and_20_3_partisans_and_bombing(root: etree._Element) -> None:
    partisans = capacity(root, "axis-partisans")
    assert (partisans.get("corps"), partisans.get("or-groups-armies")) == ("1", "0")
    bombing = root.find(f"{M}rail-capacity/{M}bombing")
    assert (bombing.get("air-points"), bombing.get("soviet-units")) == ("1", "-2")


# -- 6.0 zones of control ---------------------------------------------------------------------
def test_6_0_b_zoc_stops_at_unfrozen_all_sea_and_all_lake_hexsides(root) -> None:
    sea, lake = entry(root, "hexside-feature", "all-sea"), entry(root, "hexside-feature",
                                                                  "all-lake")
    for weather in WEATHERS:
        assert row(sea, "zoc", weather, "Baltic Sea").get("effect") == "blocked"
    for weather in ("clear", "rain", "mud", "frost"):
        assert row(lake, "zoc", weather).get("effect") == "blocked"
    assert row(lake, "zoc", "snow").get("effect") == "normal"
    assert row(sea, "zoc", "snow", "Gulf of Onega").get("effect") == "normal"


# -- 7.0 combat -------------------------------------------------------------------------------
def test_7_4_odds_round_down_for_the_defender(crt: CombatTable) -> None:
    assert column(crt, 23, 5) == "4:1"
    assert column(crt, 6, 3) == "2:1"
    assert column(crt, 5, 9) == "1:2"  # 1:1.8 is worse than 1:1


def test_7_4_d_the_ratio_is_read_on_a_printed_column_before_shifts(crt, root) -> None:
    outside = root.find(f"{M}combat-results/{M}outside-columns")
    assert outside.get("initial") == "nearest-column"
    assert column(crt, 9, 1) == "6:1"
    assert column(crt, 9, 1, shift=-1) == "5:1"  # 6:1 shifted, not 9:1 shifted
    assert column(crt, 1, 3) == "1:2"
    assert column(crt, 6, 1, shift=+3) == "6:1"  # shifts stop at the ends
    assert column(crt, 1, 1, shift=-4) == "1:2"


def test_7_6_forest_shifts_one_column_left(root, crt: CombatTable) -> None:
    shift = terrain_shift(root, "clear", "forest")
    assert shift == -1
    assert column(crt, 6, 3, shift) == "1:1"  # the 7.6 C example: a 6-3 against a 3-3


def test_7_6_b_effects_of_the_defenders_hex_and_the_attack_hexside(root, crt) -> None:
    assert terrain_shift(root, "clear", "clear") == 0
    assert terrain_shift(root, "clear", "clear", hexsides=["river"]) == -1
    assert terrain_shift(root, "clear", "forest", hexsides=["river"]) == -2
    river = row(entry(root, "hexside-feature", "river"), "combat", "clear")
    assert river.get("when") == "all-attackers-across"
    assert column(crt, 12, 3, terrain_shift(root, "rain", "clear", hexsides=["river"])) == "3:1"


def test_7_7_results_use_the_six_codes(root, crt: CombatTable) -> None:
    codes = {r.get("code") for r in root.iter(f"{M}result")}
    assert codes == set(RESULT_ORDER)
    used = {res for roll in crt.rows for res in crt.rows[roll]}
    assert used == codes
    assert sorted(crt.rows) == [1, 2, 3, 4, 5, 6]


def test_7_7_6_exchange_examples_can_happen(crt: CombatTable) -> None:
    # B: 6-3, 4-3 and 3-3 against a 5-3; C: 16-6 and 14-6 against a 4-3
    assert "EX" in crt.distribution(crt.ladder.names.index(column(crt, 13, 5)))
    assert column(crt, 30, 4) == "6:1"
    assert "EX" in crt.distribution(crt.ladder.names.index(column(crt, 30, 4)))


def test_crt_improves_for_the_attacker_with_odds_and_roll(crt: CombatTable) -> None:
    rank = {code: i for i, code in enumerate(RESULT_ORDER)}
    n = len(crt.ladder.columns)
    for roll in range(1, 7):
        values = [rank[crt.result(c, roll)] for c in range(n)]
        assert values == sorted(values), roll
    for c in range(n):
        values = [rank[crt.result(c, roll)] for roll in range(1, 7)]
        assert values == sorted(values), crt.ladder.name(c)


def test_crt_1_to_1_is_risky_3_to_1_good_6_to_1_nearly_certain(crt: CombatTable) -> None:
    def dist(odds: str) -> dict[str, int]:
        return crt.distribution(crt.ladder.names.index(odds))

    def attacker_hurt(odds: str) -> int:
        return dist(odds)["AE"] + dist(odds)["AR"]

    def defender_hit(odds: str) -> int:
        return dist(odds)["DR"] + dist(odds)["DE"] + dist(odds)["EX"]

    assert attacker_hurt("1:2") >= 4
    assert attacker_hurt("1:1") >= 3 and defender_hit("1:1") <= 2
    assert defender_hit("3:1") >= 4
    assert defender_hit("6:1") == 6 and dist("6:1")["DE"] + dist("6:1")["EX"] >= 5


# -- 9.0 armor, 10.0 air ---------------------------------------------------------------------
def test_9_1_armor_bonus_one_column_right_only_in_clear_and_not_in_mud_or_snow(root, crt):
    assert armor_bonus(root, "clear", "clear") == 1
    assert column(crt, 6, 3, armor_bonus(root, "clear", "clear")) == "3:1"  # 9.1 B example
    for weather in ("clear", "rain", "frost"):
        assert armor_bonus(root, weather, "clear") == 1
    for weather in ("mud", "snow"):
        assert armor_bonus(root, weather, "clear") == 0
    for terrain in ("forest", "rough", "swamp"):
        assert armor_bonus(root, "clear", terrain) == 0
    assert armor_bonus(root, "clear", "clear", attackers="mixed") == 0  # 9.1 C
    assert armor_bonus(root, "clear", "clear", defenders_have_armor=True) == 0  # 9.1 D


def test_9_1_e_a_city_and_a_river_keep_the_clear_hex_bonus(root, crt) -> None:
    # the hex stays clear for 9.1 E; the city's and the river's own shifts still apply
    bonus = armor_bonus(root, "clear", "clear")
    total = bonus + terrain_shift(root, "clear", "clear", ["major-city"], ["river"])
    assert bonus == 1 and total == -1
    assert column(crt, 9, 3, total) == "2:1"


def test_10_2_each_air_point_shifts_one_column(root, crt: CombatTable) -> None:
    assert column(crt, 9, 3, air_shift(root, 2, 0)) == "5:1"
    assert column(crt, 9, 3, air_shift(root, 0, 2)) == "1:1"
    assert column(crt, 9, 3, air_shift(root, 2, 2)) == "3:1"


def test_10_4_turn_6_germany_three_air_points_soviets_two(root: etree._Element) -> None:
    air = turn(root, 6).find(f"{M}air")
    assert (air.get("axis"), air.get("soviet")) == ("3", "2")
    assert air.get("source") == "rules: 10.4"


def test_20_1_4_germany_can_find_three_air_points_to_neutralize_a_fleet(root) -> None:
    assert any(int(t.find(f"{M}air").get("axis")) >= 3 for t in turns(root))


# -- 11.0 fortifications ----------------------------------------------------------------------
def test_11_0_fortifications_double_defending_soviet_infantry(root, hexes) -> None:
    fort = entry(root, "hex-feature", "fortification")
    for weather in WEATHERS:
        c = row(fort, "combat", weather)
        assert (c.get("effect"), c.get("side"), c.get("units")) == ("double", "soviet",
                                                                     "infantry")
    assert hexes["0713"].get("fortification") == "yes"


# -- 13.0 weather -----------------------------------------------------------------------------
def conditions(root: etree._Element) -> dict[str, etree._Element]:
    return {c.get("name"): c for c in root.iter(f"{M}condition")}


def test_13_0_the_five_weather_conditions(root: etree._Element) -> None:
    assert tuple(conditions(root)) == WEATHERS
    assert {t.find(f"{M}weather").get("condition") for t in turns(root)} <= set(WEATHERS)
    assert not list(conditions(root)["clear"])  # 13.1: no special restrictions


def test_13_2_to_13_5_movement_allowance_halving(root: etree._Element) -> None:
    def halving(name: str) -> set[tuple[str, str]]:
        return {(h.get("units"), s) for h in conditions(root)[name].iter(f"{M}halve-ma")
                for s in h.get("segments").split()}

    assert halving("rain") == {("armor", "second")}
    assert halving("mud") == {("all", "first"), ("all", "second")}
    assert halving("frost") == set()
    assert halving("snow") == {("armor", "first"), ("armor", "second")}


def test_13_3_b_mud_doubles_armor_cost_in_clear_to_2_mp(root: etree._Element) -> None:
    assert enter_cost(root, "clear", "clear", "armor") == 1
    assert enter_cost(root, "clear", "mud", "armor") == 2
    assert enter_cost(root, "clear", "mud", "infantry") == 1


def test_13_3_and_13_5_axis_supply_line_and_armor_bonus(root: etree._Element) -> None:
    for name in ("mud", "snow"):
        cond = conditions(root)[name]
        assert cond.find(f"{M}supply-range").get("hexes") == "1"
        assert cond.find(f"{M}no-armor-bonus") is not None
    for name in ("clear", "rain", "frost"):
        assert conditions(root)[name].find(f"{M}no-armor-bonus") is None
    assert conditions(root)["snow"].find(f"{M}halve-attack").get("side") == "axis"
    assert conditions(root)["mud"].find(f"{M}halve-attack") is None


def test_13_4_frost_and_snow_freeze_rivers_and_swamps(root: etree._Element) -> None:
    for weather in ("frost", "snow"):
        frozen = {w for f in conditions(root)[weather].iter(f"{M}freeze")
                  for w in f.get("what").split()}
        assert {"river", "swamp"} <= frozen
        assert cross_cost(root, "river", weather, "infantry") == 0  # 13.4 B
        assert terrain_shift(root, weather, "clear", hexsides=["river"]) == 0
        assert enter_cost(root, "swamp", weather, "infantry") == 1  # 13.4 C
        assert enter_cost(root, "swamp", weather, "armor") == 2
        assert terrain_shift(root, weather, "swamp") == 0
    for weather in ("clear", "rain", "mud"):
        assert terrain_shift(root, weather, "clear", hexsides=["river"]) < 0
        assert terrain_shift(root, weather, "swamp") < 0


def test_13_5_c_snow_freezes_lakes_the_gulf_of_onega_and_the_white_sea(root, hexes) -> None:
    freezes = [f for f in conditions(root)["snow"].iter(f"{M}freeze")
               if "sea" in f.get("what").split()]
    assert {w.get("name") for f in freezes for w in f.iter(f"{M}water")} == {
        "Gulf of Onega", "White Sea"}
    assert "Gulf of Onega" in {h.get("water") for h in hexes.values()}
    for weather in ("clear", "rain", "mud", "frost"):
        assert enter_cost(root, "lake", weather, "infantry") == "prohibited"
        assert enter_cost(root, "sea", weather, "armor", water="Gulf of Onega") == "prohibited"
        assert cross_cost(root, "all-lake", weather, "infantry") == "prohibited"
    # frozen: treated as clear terrain
    for water in ("Gulf of Onega", "White Sea"):
        assert enter_cost(root, "sea", "snow", "infantry", water=water) == \
            enter_cost(root, "clear", "snow", "infantry")
        assert cross_cost(root, "all-sea", "snow", "armor", water=water) == 0
    assert enter_cost(root, "lake", "snow", "armor") == enter_cost(root, "clear", "snow",
                                                                    "armor")
    assert cross_cost(root, "all-lake", "snow", "infantry") == 0
    # other seas never freeze
    for water in ("Black Sea", "Baltic Sea", "Gulf of Finland", "Sea of Azov"):
        assert enter_cost(root, "sea", "snow", "infantry", water=water) == "prohibited"
        assert cross_cost(root, "all-sea", "snow", "infantry", water=water) == "prohibited"


# -- 14.0 replacements ------------------------------------------------------------------------
def test_14_2_1_soviet_replacements_on_turns_3_to_7(root: etree._Element) -> None:
    given = {int(t.get("number")): t.find(f"{M}replacements").get("allowance")
             for t in turns(root)}
    assert [n for n, a in given.items() if a == "1941"] == [3, 4, 5, 6, 7]
    assert given[1] == given[2] == "none"
    assert allowance(root, "none") == []
    assert sorted(allowance(root, "1941")) == [(3, 0, 1), (4, 1, 0)]  # 14.2.2 A


def test_14_2_2_b_and_14_2_4_b_limits(root: etree._Element) -> None:
    strong = root.find(f"{M}replacements/{M}strong-units")
    assert (strong.get("at-most"), strong.get("strength-above")) == ("1", "4")
    moscow = root.find(f"{M}replacements/{M}moscow-penalty")
    assert (moscow.get("hex"), moscow.get("infantry")) == ("1808", "-1")


def test_20_4_2_reduced_replacements_on_turns_8_to_10(root: etree._Element) -> None:
    for n in (8, 9, 10):
        assert turn(root, n).find(f"{M}replacements").get("allowance") == "1942"
    reduced = sorted((inf - 2, corps, groups) for inf, corps, groups in allowance(root, "1941"))
    assert sorted(allowance(root, "1942")) == reduced == [(1, 0, 1), (2, 1, 0)]


# -- the Turn Record Chart --------------------------------------------------------------------
def test_2_0_a_turns_are_months_from_june_1941(root: etree._Element) -> None:
    months = ["June", "July", "August", "September", "October", "November", "December",
              "January", "February", "March"]
    ts = turns(root)
    assert [int(t.get("number")) for t in ts] == list(range(1, 11))
    assert [t.get("month") for t in ts] == months
    assert [t.get("year") for t in ts] == ["1941"] * 7 + ["1942"] * 3


def test_18_1_a_and_20_4_turns_8_to_10_are_optional(root: etree._Element) -> None:
    assert [int(t.get("number")) for t in turns(root) if t.get("optional") == "true"] == [8,
                                                                                        9, 10]


def test_13_0_weather_follows_the_1941_seasons(root: etree._Element) -> None:
    weather = [t.find(f"{M}weather").get("condition") for t in turns(root)]
    assert set(weather[:4]) <= {"clear", "rain"}
    assert "rain" in weather  # 13.2 is used
    assert weather[4:7] == ["mud", "frost", "snow"]
    assert weather[7:9] == ["snow", "snow"]


def test_20_4_1_the_winter_game_has_a_thaw_from_snow_to_mud(root: etree._Element) -> None:
    weather = [t.find(f"{M}weather").get("condition") for t in turns(root)]
    assert any(weather[i - 1] == "snow" and weather[i] == "mud" for i in range(7, 10))


# -- 18.0 victory -----------------------------------------------------------------------------
def vp_cities(root: etree._Element) -> list[etree._Element]:
    return list(root.iter(f"{M}city"))


def test_18_1_c_every_vp_city_is_a_city_of_the_map(root, hexes) -> None:
    seen = set()
    for city in vp_cities(root):
        hid = city.get("hex")
        assert hid in hexes, hid
        assert hexes[hid].get("city") == city.get("name"), hid
        assert hid not in seen
        seen.add(hid)


def test_18_1_c_germany_gains_for_soviet_cities_and_loses_for_soviet_control(root,
                                                                          hexes) -> None:
    for city in vp_cities(root):
        country = hexes[city.get("hex")].get("country")
        gain, encircled = int(city.get("german-control")), int(city.get("encircled"))
        if country == "soviet":
            assert gain > 0 and encircled > 0 and city.get("soviet-control") == "0"
        else:
            assert gain == encircled == 0 and int(city.get("soviet-control")) < 0
    moscow = next(c for c in vp_cities(root) if c.get("hex") == "1808")
    assert int(moscow.get("german-control")) == max(int(c.get("german-control"))
                                                    for c in vp_cities(root))


def test_18_3_strategic_victory_needs_every_major_city_archangel_and_sevastopol(root, hexes):
    objectives = {o.get("hex") for o in root.iter(f"{M}objective")}
    majors = {hid for hid, h in hexes.items()
              if h.get("city-class") == "major" and h.get("country") == "soviet"}
    named = {hid for hid, h in hexes.items() if h.get("city") in ("Archangel", "Sevastopol")}
    assert len(named) == 2
    assert objectives == majors | named
    # each objective is worth VPs too
    assert objectives <= {c.get("hex") for c in vp_cities(root)}


@pytest.mark.parametrize("section", ["victory-levels", "winter-victory-levels"])
def test_18_2_victory_levels_cover_every_total_without_gaps(root, section: str) -> None:
    lv = levels(root, section)
    assert [int(x.get("rank")) for x in lv] == list(range(1, len(lv) + 1))
    assert lv[0].get("min") is None and lv[-1].get("max") is None
    for lower, upper in zip(lv, lv[1:], strict=False):
        assert int(upper.get("min")) == int(lower.get("max")) + 1
    for x in lv[1:-1]:
        assert int(x.get("min")) <= int(x.get("max"))
    sides = [x.get("side") for x in lv]
    assert sides == sorted(sides, key=lambda s: s != "soviet")  # Soviet first, then German
    most = sum(int(c.get("german-control")) for c in vp_cities(root))
    least = sum(int(c.get("soviet-control")) for c in vp_cities(root)) - 2 * 10
    for vp in range(least, most + 1):
        base_level(root, section, vp)


def test_18_2_the_level_names(root: etree._Element) -> None:
    names = [x.get("name") for x in levels(root, "victory-levels")]
    for needed in ("German substantial victory", "German marginal victory",
                   "Soviet marginal victory"):
        assert needed in names
    # 18.2 B second example: one shift turns German marginal into Soviet marginal
    assert names.index("German marginal victory") - names.index("Soviet marginal victory") == 1
    assert names.index("German substantial victory") - names.index(
        "German marginal victory") == 1
    assert [x.get("name") for x in levels(root, "winter-victory-levels")] == names


def test_18_2_b_losses_shift_the_level(root: etree._Element) -> None:
    marginal = int(level_named(root, "victory-levels", "German marginal victory").get("min"))
    assert victory(root, marginal) == "German marginal victory"
    assert victory(root, marginal, soviet_lost=43) == "German substantial victory"
    assert victory(root, marginal, soviet_lost=39) == "German marginal victory"
    assert victory(root, marginal, axis_lost=27) == "Soviet marginal victory"
    assert victory(root, marginal, axis_lost=24) == "German marginal victory"
    assert victory(root, marginal, soviet_lost=43, axis_lost=27) == "German marginal victory"


def test_20_4_4_winter_victory_table_and_panzer_group_losses(root: etree._Element) -> None:
    losses = list(root.iter(f"{M}unit-loss"))
    assert [(x.get("kind"), x.get("vp"), x.get("game")) for x in losses] == [
        ("german-panzer-group", "-2", "winter")]
    winter = root.find(f"{M}winter-victory-levels")
    assert winter.find(f"{M}loss-shift") is None  # 20.4.4 C: no adjustment for losses
    assert levels(root, "winter-victory-levels")
