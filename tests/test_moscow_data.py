"""The reconstructed counters, charts and module of Moscow '41 (games/moscow/data).

The printed counter sheet and charts are not available. These tests pin what the rulebook
states about them (rule numbers in the test names): the 176 pieces, the units it names,
steps, untried Soviet units, the Siberian divisions, the CRT with its errata, the column
shifts, the TEC with its errata, the weather and the Turn Record Track, the victory
schedule; the 4.5 movement example worked on map, TEC and counters together; and that
every file is valid against its schema and the module is composed from the parts.
"""

from __future__ import annotations

import copy
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.hexgrid import HexGrid
from adjudicator.engine.module import MODULE_NS, load_module
from adjudicator.engine.odds import CombatTable, OddsLadder

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "moscow" / "data"
M = f"{{{MODULE_NS}}}"
GRID = HexGrid(orientation="flat", shifted="odd", numbering="CCRR")

# 2.0: "one counter sheet of 176 game pieces"
COUNTERS = 176
SIBERIANS = {"32", "78", "93", "238"}
# Best for the attacker first (attacker/defender notation): the order a CRT must keep.
RESULT_ORDER = ("-/E", "-/2", "-/1", "1/1", "-", "2/1", "1/-", "2/-", "E/-")


def parse(name: str) -> etree._Element:
    return etree.parse(str(DATA / name)).getroot()


@pytest.fixture(scope="module")
def pieces_root() -> etree._Element:
    return parse("pieces.xml")


@pytest.fixture(scope="module")
def pieces(pieces_root) -> list[dict[str, str]]:
    return [dict(el.attrib) for el in pieces_root.iter(f"{M}piece")]


@pytest.fixture(scope="module")
def by_id(pieces) -> dict[str, dict[str, str]]:
    return {p["id"]: p for p in pieces}


@pytest.fixture(scope="module")
def charts() -> etree._Element:
    return parse("charts.xml")


@pytest.fixture(scope="module")
def hexes() -> dict[str, etree._Element]:
    return {h.get("id"): h for h in parse("map.xml").iter(f"{M}hex")}


@pytest.fixture(scope="module")
def crt(charts) -> CombatTable:
    section = charts.find(f"{M}combat-results")
    ladder = OddsLadder.of([c.get("odds") for c in section.iter(f"{M}column")])
    rows = {int(r.get("roll")): r.get("results").split() for r in section.iter(f"{M}row")}
    return CombatTable(ladder, rows)


def named(pieces, name: str) -> dict[str, str]:
    found = [p for p in pieces if p["name"] == name]
    assert len(found) == 1, name
    return found[0]


def ground(pieces) -> list[dict[str, str]]:
    return [p for p in pieces if p["type"] != "air"]


# -- schemas -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["map", "pieces", "charts"])
def test_data_files_are_valid_against_their_schemas(name: str) -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / f"{name}.rng")))
    assert schema.validate(etree.parse(str(DATA / f"{name}.xml"))), schema.error_log


@pytest.mark.parametrize("attribute, value", [
    ("steps", "1"), ("type", "cavalry"), ("size", "corps"), ("setup", "infantry-zone"),
    ("source", "rules"), ("strength", "0"), ("side", "axis"),
])
def test_pieces_schema_rejects_values_outside_the_rules(pieces_root, attribute, value) -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "pieces.rng")))
    bad = copy.deepcopy(pieces_root)
    bad.find(f"{M}piece").set(attribute, value)  # the first piece: a German panzer division
    assert not schema.validate(bad)


def test_charts_schema_refuses_a_reconstruction_without_a_note(charts) -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "charts.rng")))
    bad = copy.deepcopy(charts)
    woods = next(e for e in bad.iter(f"{M}hex-terrain") if e.get("name") == "woods")
    del woods.attrib["note"]
    assert not schema.validate(bad)


def test_module_is_composed_of_the_parts_and_loads(hexes) -> None:
    data = (DATA / "module.xml").read_bytes()
    module = load_module(data, etree.RelaxNG(file=str(DATA / "module.rng")),
                         expected_game="moscow")
    for name in ("map", "pieces", "charts"):
        inside = module.root.find(f"{M}{name}")
        assert etree.tostring(inside, method="c14n") == etree.tostring(
            parse(f"{name}.xml"), method="c14n"), f"module.xml is out of date ({name}.xml)"
    body = etree.fromstring(b'<b xmlns="urn:pbem:module:1">'
                            + (DATA / "module-body.xml").read_bytes() + b"</b>")
    for el in body:
        assert etree.tostring(module.root.find(el.tag), method="c14n") == etree.tostring(
            el, method="c14n")
    board = module.hex_board()
    assert board.grid == GRID and len(board.terrain) == len(hexes)
    assert [s.get("id") for s in module.findall("m:sides/m:side")] == ["german", "soviet"]
    [scenario] = module.findall("m:scenarios/m:scenario")
    assert (scenario.get("start"), scenario.get("end")) == ("1", "13")  # 3.1.3


# -- the counter sheet (2.0, 2.4, 8.9 H, 12.0) ----------------------------------------------
def test_2_0_there_are_176_game_pieces(pieces_root, pieces) -> None:
    markers = list(pieces_root.iter(f"{M}marker"))
    assert len(pieces) + len(markers) == COUNTERS == int(pieces_root.get("counters"))
    print("moscow counters:", Counter((p["side"], p["type"]) for p in pieces),
          len(markers), "markers")


def test_piece_ids_are_unique_and_sources_are_rules_or_reconstructed(pieces_root) -> None:
    ids = [el.get("id") for el in pieces_root if isinstance(el.tag, str)]
    assert len(ids) == len(set(ids))
    for el in pieces_root:
        if isinstance(el.tag, str):
            src = el.get("source")
            assert src == "reconstructed" or src.startswith("rules: "), el.get("id")
            assert el.get("note").strip()


def test_2_4_8_9_H_german_units_have_two_steps_soviet_units_one(pieces) -> None:
    for p in ground(pieces):
        if p["side"] == "german":
            assert p["steps"] == "2" and 0 < int(p["reduced"]) < int(p["strength"]), p["id"]
            assert "attack" not in p and "untried" not in p  # 2.5: one combat strength
        else:
            assert p["steps"] == "1" and p["untried"] == "yes", p["id"]  # 8.9 H, 12.1
            assert int(p["attack"]) > 0 and int(p["defense"]) > 0


def test_2_4_B_unit_sizes_and_types(pieces) -> None:
    assert {p["size"] for p in ground(pieces)} == {"division", "brigade"}
    assert {p["type"] for p in ground(pieces)} == {"infantry", "cavalry", "armor", "mechanized"}
    # 16.1 scores German infantry, mechanized and armor units only
    assert {p["type"] for p in ground(pieces) if p["side"] == "german"} == {
        "infantry", "mechanized", "armor"}


def test_1_3_2_B_E_11_0_three_german_air_units_and_no_german_reinforcements(pieces) -> None:
    air = [p for p in pieces if p["type"] == "air"]
    assert len(air) == 3 and all(p["side"] == "german" and p["setup"] == "off-map" for p in air)
    assert all(p["setup"] == "west-of-front" for p in ground(pieces) if p["side"] == "german")


def test_3_1_2_C_game_turn_marker(pieces_root) -> None:
    names = [m.get("name") for m in pieces_root.iter(f"{M}marker")]
    assert "Game Turn" in names


def test_1_3_2_F_the_2nd_ss_is_black_and_not_the_other_2nd_division(pieces) -> None:
    ss = named(pieces, "2nd SS Division Das Reich")
    assert ss["side"] == "german" and ss.get("marking") == "black"
    other = named(pieces, "2nd Panzer Division")
    assert other.get("marking") is None
    assert [p for p in pieces if p.get("marking") == "black"] == [ss]


def test_2_8_B_two_german_brigades_numbered_123(pieces) -> None:
    brigades = [p for p in ground(pieces) if p["side"] == "german" and p["size"] == "brigade"
                and "123" in p["name"]]
    assert len(brigades) == 2
    assert all(p["name"] == "123rd Infantry Brigade" for p in brigades)


@pytest.mark.parametrize("name, rule", [
    ("12th Infantry Division", "4.5"), ("251st Infantry Division", "4.5"),
    ("197th Infantry Division", "9.3"), ("252nd Infantry Division", "9.3"),
])
def test_german_infantry_divisions_the_examples_name(pieces, name: str, rule: str) -> None:
    p = named(pieces, name)
    assert (p["side"], p["type"], p["size"]) == ("german", "infantry", "division")
    assert f"rules: {rule}" in p["source"]


@pytest.mark.parametrize("name", ["3rd Panzer Division", "9th Panzer Division",
                                  "18th Panzer Division", "20th Panzer Division"])
def test_8_3_and_6_4_panzer_divisions(pieces, name: str) -> None:
    p = named(pieces, name)
    assert (p["side"], p["type"], p["size"]) == ("german", "armor", "division")
    assert "8.3" in p["source"]


def test_1_3_1_B_I_the_four_siberian_divisions(pieces) -> None:
    siberian = [p for p in pieces if p.get("marking") == "siberian"]
    assert {p["id"].split("-")[-1] for p in siberian} == SIBERIANS
    for p in siberian:
        assert (p["side"], p["type"], p["size"]) == ("soviet", "infantry", "division")
        assert p["setup"] == "turn-record" and p["turns"] == "3 4 5 6"
        assert p["untried"] == "yes"
    assert all(p.get("setup") != "turn-record" for p in pieces if p not in siberian)


def test_1_3_1_C_H_soviet_set_up(pieces) -> None:
    for p in ground(pieces):
        if p["side"] != "soviet" or p.get("marking") == "siberian":
            continue
        if p["type"] == "infantry":
            assert p["setup"] == "infantry-zone", p["id"]  # 1.3.1 F-G
        else:
            assert p["setup"] == "east-of-20", p["id"]  # 1.3.1 H: armor, mech, cavalry


def test_1_3_1_E_F_G_front_line_can_be_filled_and_the_infantry_fits(pieces, hexes) -> None:
    """Two Soviet infantry units in every front-line hex, at most two a hex at set-up,
    the rest between the front line and hex row 20xx."""
    infantry = [p for p in pieces if p["side"] == "soviet" and p["setup"] == "infantry-zone"]
    front = [h for h in hexes.values() if h.get("front-line") == "yes"]
    behind = [hid for hid, h in hexes.items() if h.get("side") == "soviet"
              and not h.get("front-line") and int(hid[:2]) <= 20]
    assert 2 * len(front) <= len(infantry) <= 2 * (len(front) + len(behind))
    others = [p for p in pieces if p["side"] == "soviet" and p["setup"] == "east-of-20"]
    east = [hid for hid, h in hexes.items() if h.get("side") == "soviet"
            and not h.get("front-line") and int(hid[:2]) >= 21]
    assert len(others) <= 2 * len(east)


def test_1_3_1_play_note_tanks_mostly_stronger_than_infantry(pieces) -> None:
    def mean(kind: str) -> Fraction:
        units = [p for p in pieces if p["side"] == "soviet" and p["type"] == kind]
        return Fraction(sum(int(p["attack"]) + int(p["defense"]) for p in units), len(units))

    assert mean("armor") > mean("infantry") and mean("mechanized") > mean("infantry")
    rifle = [p for p in pieces if p["side"] == "soviet" and p["type"] == "infantry"]
    tanks = [p for p in pieces if p["side"] == "soviet" and p["type"] == "armor"]
    # "although this is not always strictly true"
    assert max(int(p["attack"]) for p in rifle) > min(int(p["attack"]) for p in tanks)


# -- 4.5: the movement example on map, TEC and counters --------------------------------------
def terrain_entry(charts, kind: str, name: str) -> etree._Element:
    found = [e for e in charts.iter(f"{M}{kind}") if e.get("name") == name]
    assert len(found) == 1, (kind, name)
    return found[0]


def enter_cost(charts, hexes, sides, a: str, b: str, unit: str) -> Fraction:
    """MPs for a unit (infantry or armor column) to enter b from a (4.2, 4.8, TEC)."""
    feats = sides.get(tuple(sorted((a, b))), set())
    if "road" in feats:
        road = terrain_entry(charts, "hexside-feature", "road").find(f"{M}movement")
        return Fraction(road.get(unit))
    assert "lake" not in feats
    h = hexes[b]
    if h.get("city-class") == "city":
        cost = Fraction(terrain_entry(charts, "hex-feature", "city").find(f"{M}movement").get(unit))
    else:
        cost = Fraction(terrain_entry(charts, "hex-terrain", h.get("terrain"))
                        .find(f"{M}movement").get(unit))
    if "river" in feats:
        river = terrain_entry(charts, "hexside-feature", "river").find(f"{M}movement")
        cost += Fraction(river.get(unit))
    return cost


@pytest.fixture(scope="module")
def sides() -> dict[tuple[str, str], set[str]]:
    out: dict[tuple[str, str], set[str]] = {}
    for el in parse("map.xml").iter(f"{M}hexside"):
        out.setdefault((el.get("a"), el.get("b")), set()).add(el.get("features"))
    return out


def test_4_5_stack_movement_example(charts, hexes, sides, pieces) -> None:
    def path_cost(path: list[str]) -> Fraction:
        return sum((enter_cost(charts, hexes, sides, a, b, "infantry")
                    for a, b in zip(path, path[1:], strict=False)), Fraction(0))

    assert path_cost(["1510", "1611"]) == 2  # the stack enters 1611 for 2 MPs
    assert path_cost(["1611", "1710", "1810"]) == 4  # the 12th: an additional 4 MPs
    assert path_cost(["1611", "1711", "1812"]) == 4
    twelfth = named(pieces, "12th Infantry Division")
    assert int(twelfth["movement"]) == 2 + 4  # "has now expended 6 MPs", all of its MA
    assert int(named(pieces, "251st Infantry Division")["movement"]) == 2 + 4


# -- TEC (2.2, 4.2, 4.8, 5.0 C, 7.5 C, 8.0 F, 9.0 F, 13.0) -------------------------------------
def test_4_2_B_clear_costs_1(charts) -> None:
    move = terrain_entry(charts, "hex-terrain", "clear").find(f"{M}movement")
    assert (move.get("infantry"), move.get("armor")) == ("1", "1")


def test_2_2_errata_light_woods_costs_2_for_all_units(charts) -> None:
    move = terrain_entry(charts, "hex-terrain", "light-woods").find(f"{M}movement")
    assert (move.get("infantry"), move.get("armor")) == ("2", "2")
    assert move.get("source") == "rules: 2.2"
    assert "0.5" not in {m.get("armor") for m in terrain_entry(
        charts, "hex-terrain", "light-woods").iter(f"{M}movement")}


def test_tec_covers_the_map_vocabulary(charts) -> None:
    rng = etree.parse(str(DATA / "map.rng")).getroot()
    ns = "{http://relaxng.org/ns/structure/1.0}"
    terrain_attr = next(a for a in rng.iter(f"{ns}attribute") if a.get("name") == "terrain")
    map_terrains = {v.text for v in terrain_attr.iter(f"{ns}value")}
    assert {e.get("name") for e in charts.iter(f"{M}hex-terrain")} == map_terrains
    assert {e.get("name") for e in charts.iter(f"{M}hexside-feature")} == {
        "road", "river", "lake", "moscow-ring", "front-line"}


def test_4_8_and_5_0_C_7_5_C_8_0_F_lake_hexsides(charts) -> None:
    lake = terrain_entry(charts, "hexside-feature", "lake")
    move = lake.find(f"{M}movement")
    assert (move.get("infantry"), move.get("armor")) == ("road-only", "road-only")  # 4.8 D
    combat = lake.find(f"{M}combat")
    assert (combat.get("effect"), combat.get("defender-terrain")) == ("road-only", "marsh")
    assert lake.find(f"{M}overrun").get("effect") == "prohibited"  # 7.5 C
    zoc = lake.find(f"{M}zoc")
    assert (zoc.get("effect"), zoc.get("except")) == ("blocked", "road")  # 5.0 C, 8.0 F


def test_4_8_B_C_rivers_never_block_and_roads_bridge_them(charts) -> None:
    move = terrain_entry(charts, "hexside-feature", "river").find(f"{M}movement")
    assert move.get("infantry") not in ("prohibited", "road-only")
    assert move.get("not-along") == "road"


def test_4_2_D_road_cost_replaces_the_terrain(charts) -> None:
    move = terrain_entry(charts, "hexside-feature", "road").find(f"{M}movement")
    assert move.get("replaces-terrain") == "true"


def test_9_0_F_a_city_has_a_cheaper_armor_cost(charts) -> None:
    move = terrain_entry(charts, "hex-feature", "city").find(f"{M}movement")
    assert Fraction(move.get("armor")) < Fraction(move.get("infantry"))


def test_13_0_moscow_ring_is_one_left_shift_when_all_germans_attack_across(charts) -> None:
    combat = terrain_entry(charts, "hexside-feature", "moscow-ring").find(f"{M}combat")
    assert (combat.get("shift"), combat.get("when"), combat.get("attacker")) == (
        "-1", "all-attackers-across", "german")


# -- CRT (2.3, 8.5-8.9) ------------------------------------------------------------------------
def test_crt_columns_and_results(crt: CombatTable, charts) -> None:
    assert crt.ladder.names == ("1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1",
                                "8-1", "9-1", "10-1")
    codes = {r.get("code") for r in charts.iter(f"{M}result")}
    assert codes == set(RESULT_ORDER)
    assert {c for roll in crt.rows for c in crt.rows[roll]} <= codes
    assert sorted(crt.rows) == [1, 2, 3, 4, 5, 6]


def test_2_3_errata_4_1_column_die_roll_6_reads_2_dash(crt: CombatTable, charts) -> None:
    assert crt.result(crt.ladder.names.index("4-1"), 6) == "2/-"
    errata = charts.find(f"{M}combat-results/{M}errata")
    assert (errata.get("column"), errata.get("roll"), errata.get("result"), errata.get(
        "source")) == ("4-1", "6", "2/-", "rules: 2.3")


def test_crt_gets_better_with_odds_and_worse_with_higher_rolls(crt: CombatTable, charts) -> None:
    assert charts.find(f"{M}combat-results").get("best-roll") == "1"
    rank = {code: i for i, code in enumerate(RESULT_ORDER)}
    for roll in range(1, 7):
        row = [rank[c] for c in crt.rows[roll]]
        assert row == sorted(row, reverse=True), roll
    for col in range(len(crt.ladder.names)):
        column = [rank[crt.result(col, roll)] for roll in range(1, 7)]
        assert column == sorted(column), crt.ladder.names[col]


def test_8_9_result_codes_match_their_losses(charts) -> None:
    for r in charts.iter(f"{M}result"):
        code = r.get("code")
        if code == "-":
            assert (r.get("attacker"), r.get("defender")) == ("0", "0")
        else:
            a, d = code.split("/")
            assert (r.get("attacker"), r.get("defender")) == (
                a.replace("-", "0"), d.replace("-", "0"))


def column_of(crt: CombatTable, attack: int, defence: int, shift: int = 0) -> str:
    """8.7 A: shifts count from the initial ratio even off the table; 8.7 B: the final
    column is clamped to the printed ones."""
    ladder = crt.ladder
    return ladder.name(ladder.final(ladder.initial(attack, defence), shift))


def test_8_5_D_8_8_and_8_7_examples(crt: CombatTable, charts) -> None:
    assert column_of(crt, 8, 4) == "2-1"  # 8.5 D
    assert column_of(crt, 11, 4) == "2-1"  # 8.8: rounded in favour of the defender
    assert column_of(crt, 11, 1) == "10-1"  # 8.7 B
    assert column_of(crt, 13, 1, shift=-2) == "10-1"  # 8.7 A: from 13:1, not from 10:1
    assert column_of(crt, 12, 1, shift=-4) == "8-1"
    section = charts.find(f"{M}combat-results")
    assert section.find(f"{M}odds-rounding").get("favour") == "defender"
    assert section.find(f"{M}outside-columns").get("initial") == "whole-ratios"


# -- Column Shifts Chart -------------------------------------------------------------------------
def shift(charts, cause: str) -> dict[str, str]:
    found = [dict(s.attrib) for s in charts.iter(f"{M}shift") if s.get("cause") == cause]
    assert len(found) == 1, cause
    return found[0]


@pytest.mark.parametrize("cause, favour, columns, rule", [
    ("turn-1", "attacker", "4", "3.2 E"), ("overrun", "defender", "2", "7.1"),
    ("unsupplied-attacker", "defender", "2", "9.2"),
    ("unsupplied-defender", "attacker", "2", "9.2"), ("armor", "owner", "1", "10.1 A"),
    ("air", "german", "1", "11.1 A"), ("moscow-ring", "defender", "1", "13.0"),
    ("rasputitsa", "defender", "1", "15.1 B"), ("snow", "defender", "2", "15.2 B"),
])
def test_column_shifts(charts, cause: str, favour: str, columns: str, rule: str) -> None:
    s = shift(charts, cause)
    assert (s["favour"], s["columns"]) == (favour, columns)
    assert rule in s["source"]


def test_column_shift_details(charts) -> None:
    turn1 = shift(charts, "turn-1")
    assert (turn1["attacker"], turn1["turns"], turn1["combat"]) == ("german", "1",
                                                                   "attack overrun")
    assert shift(charts, "armor")["once"] == "true"  # 10.1 B
    assert shift(charts, "air")["max-units"] == "3"  # 11.0 E
    assert shift(charts, "snow")["attacker"] == "german"  # 15.2 B
    assert "attacker" not in shift(charts, "rasputitsa")  # 15.1 B: all attacks


# -- weather and the Turn Record Track (3.1.3, 15.0, 1.3.1 I, 14.0) ------------------------------
def test_15_1_15_2_weather_effects_on_movement(charts) -> None:
    conditions = {c.get("name"): c for c in charts.iter(f"{M}condition")}
    mud = conditions["rasputitsa"].find(f"{M}movement")
    assert (mud.get("side"), mud.get("effect"), mud.get("rounding")) == ("german", "halve", "up")
    snow = conditions["snow"].find(f"{M}movement")
    assert (snow.get("side"), snow.get("effect"), snow.get("except")) == (
        "both", "minus-one", "siberian")


def die_faces(text: str | None) -> set[int]:
    if text is None:
        return set()
    if text == "all":
        return set(range(1, 7))
    low, _, high = text.partition("-")
    return set(range(int(low), int(high or low) + 1))


def test_3_1_3_15_0_turn_record(charts) -> None:
    turns = list(charts.iter(f"{M}turn"))
    assert [int(t.get("number")) for t in turns] == list(range(1, 14))
    assert turns[0].find(f"{M}weather").get("roll") == "no"  # 15.0 A: from Turn 2
    automatic = 0
    for t in turns[1:]:
        w = t.find(f"{M}weather")
        assert w.get("roll") == "yes"
        mud, snow = die_faces(w.get("rasputitsa")), die_faces(w.get("snow"))
        assert not mud & snow
        automatic += len(mud | snow) == 6
    assert automatic >= 1  # 15.0 B: "occurs automatically in some turns"
    assert turns[0].get("special") == "3.2"


def test_1_3_1_I_siberian_boxes_are_turns_3_to_6(charts) -> None:
    boxes = [int(t.get("number")) for t in charts.iter(f"{M}turn") if t.get("siberian") == "yes"]
    assert boxes == [3, 4, 5, 6]


def test_14_0_soviet_reinforcements(charts) -> None:
    r = charts.find(f"{M}soviet-reinforcements")
    assert (r.get("per-turn"), r.get("from"), r.get("except"), r.get("enter"),
            r.get("blocked-by-moscow")) == ("1", "eliminated-infantry", "siberian",
                                            "east-edge-road", "true")


# -- victory (16.0-16.4) -------------------------------------------------------------------------
def test_16_1_casualty_points(charts) -> None:
    vps = {v.get("type"): (int(v.get("reduced")), int(v.get("eliminated")))
           for v in charts.iter(f"{M}vp")}
    assert vps == {"infantry": (1, 3), "mechanized": (4, 12), "armor": (5, 15)}


def test_16_0_A_16_2_16_4_moscow_points_and_bid(charts) -> None:
    victory = charts.find(f"{M}victory")
    assert victory.find(f"{M}moscow-points").get("per-adjacent-hex") == "30"
    assert victory.find(f"{M}automatic-victory").get("level") == "German Strategic"
    assert victory.find(f"{M}bid").get("awarded-to") == "soviet"


def test_16_3_victory_levels(charts) -> None:
    levels = [(lv.get("name"), lv.get("min"), lv.get("max")) for lv in charts.iter(f"{M}level")]
    assert levels == [("German Strategic", "31", None), ("German Tactical", "1", "30"),
                      ("Soviet Tactical", "-20", "0"), ("Soviet Strategic", None, "-21")]
