"""The Blitzkrieg '41 hex map (adjudicator/games/blitzkrieg/data/map.xml): every hex and
hexside the rulebook names is where it says, one test per fact named after its rule; the
reconstructed rest is checked for shape (MAP-README.md); and tools/gen_map.py
regenerates the file exactly."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.hexgrid import HexGrid, hex_distance

PACKAGE = Path(__file__).resolve().parents[1] / "adjudicator" / "games" / "blitzkrieg"
DATA = PACKAGE / "data"
NS = "{urn:pbem:module:1}"
GRID = HexGrid(orientation="pointy", shifted="even", numbering="LN", first_row=1)
ROWS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + ["AA", "BB", "CC", "DD"]
# Printed so that a regeneration that changes the map's size is noticed: update it
# (and MAP-README.md) when the map is meant to change.
HEX_COUNT, HEXSIDE_COUNT = 607, 414


@pytest.fixture(scope="module")
def root() -> etree._Element:
    return etree.parse(str(DATA / "map.xml")).getroot()


@pytest.fixture(scope="module")
def hexes(root: etree._Element) -> dict[str, etree._Element]:
    return {h.get("id"): h for h in root.iter(f"{NS}hex")}


@pytest.fixture(scope="module")
def sides(root: etree._Element) -> dict[frozenset[str], etree._Element]:
    return {frozenset((s.get("a"), s.get("b"))): s for s in root.iter(f"{NS}hexside")}


def d(a: str, b: str) -> int:
    return hex_distance(GRID.parse(a), GRID.parse(b))


def row_of(hid: str) -> int:
    return GRID.to_offset(GRID.parse(hid))[1]


def column_of(hid: str) -> int:
    return GRID.to_offset(GRID.parse(hid))[0]


def is_land(h: etree._Element) -> bool:
    return h.get("terrain") not in ("sea", "lake")


def connected(ids: list[str]) -> bool:
    todo, seen = deque(ids[:1]), {ids[0]}
    while todo:
        cur = todo.popleft()
        for other in ids:
            if other not in seen and d(cur, other) == 1:
                seen.add(other)
                todo.append(other)
    return seen == set(ids)


# -- the file ---------------------------------------------------------------------------
def test_map_is_valid_against_its_schema(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "map.rng")))
    assert schema.validate(root.getroottree()), schema.error_log.last_error


@pytest.mark.parametrize(("attribute", "value"), [("terrain", "mountain"), ("zomo", "finland"),
                                                  ("country", "slovakia"), ("id", "b9")])
def test_schema_rejects_values_outside_the_vocabulary(root, attribute: str, value: str) -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "map.rng")))
    doc = etree.fromstring(etree.tostring(root))
    doc.find(f"{NS}hex[@country]").set(attribute, value)
    assert not schema.validate(doc)


def test_generator_reproduces_map_xml() -> None:
    from adjudicator.games.blitzkrieg.tools import gen_map

    assert gen_map.generate() == (DATA / "map.xml").read_text(encoding="utf-8")


def test_generator_reads_only_its_own_geodata() -> None:
    from adjudicator.games.blitzkrieg.tools import gen_map

    assert gen_map.GEO_DIR == PACKAGE / "tools" / "geodata"
    for name in ("land.geojson", "lakes.geojson", "rivers.geojson", "README.md"):
        assert (gen_map.GEO_DIR / name).is_file()
    for path in (PACKAGE / "tools").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "shared" not in text and "/work" not in text, path


def test_counts_of_hexes_and_hexsides(hexes, sides) -> None:
    assert (len(hexes), len(sides)) == (HEX_COUNT, HEXSIDE_COUNT)


def test_every_hexside_joins_two_adjacent_land_hexes_of_the_map(hexes, sides) -> None:
    for pair in sides:
        a, b = sorted(pair)
        assert a in hexes and b in hexes and d(a, b) == 1
        assert is_land(hexes[a]) and is_land(hexes[b])


def test_1_1_A_the_fit_is_45_miles_a_hex() -> None:
    from adjudicator.games.blitzkrieg.tools import gen_map

    miles = gen_map.fit().km_per_hex / 1.609344
    assert 44.0 < miles < 46.0


def test_1_2_the_fit_puts_the_rules_places_in_their_hexes() -> None:
    import math

    from adjudicator.games.blitzkrieg.tools import gen_map, geography

    tf = gen_map.fit()
    off = {name: math.dist(tf.to_frame(*lonlat), gen_map.FRAME.centre_of(hid))
           for name, (lonlat, hid, _) in geography.ANCHORS.items()}
    assert max(off.values()) < 0.65
    assert [n for n, v in off.items() if v > 0.5] == ["Kiev"]  # MAP-README.md


# -- the grid (1.2, 5.4, 5.15 D, 9.20) ---------------------------------------------------
def test_5_4_g19_has_three_intervening_hexes_to_riga(hexes) -> None:
    assert d("G19", "E16") - 1 == 3
    assert hexes["E16"].get("place") == "Riga" and hexes["E16"].get("settlement") == "city"


def test_5_4_g19_has_one_intervening_hex_to_kaunas(hexes) -> None:
    assert d("G19", "H17") - 1 == 1
    assert hexes["H17"].get("place") == "Kaunas" and hexes["H17"].get("settlement") == "town"
    assert hexes["G19"].get("country") == "soviet"


def test_5_15_D_h9_is_ten_hexes_from_h19(hexes) -> None:
    assert d("H19", "H9") == 10
    assert is_land(hexes["H9"]) and hexes["H19"].get("zomo") == "germany"


def test_the_other_row_parity_breaks_the_fortified_lines() -> None:
    other = HexGrid(orientation="pointy", shifted="odd", numbering="LN", first_row=1)
    assert hex_distance(other.parse("I9"), other.parse("J8")) != 1
    assert hex_distance(other.parse("G19"), other.parse("H17")) - 1 != 1


@pytest.mark.parametrize(("line", "ids"), [
    ("Luga", ["B11", "C11", "D10", "E10"]),
    ("Vyazma", ["I9", "J8", "K9", "L8", "M9"]),
    ("Mozhaisk", ["J7", "K7", "L7", "M7", "N6"]),
    ("Moscow", ["J5", "K6", "L5"]),
])
def test_9_20_fortified_lines_are_unbroken_chains_of_land(hexes, line: str, ids) -> None:
    assert sorted(h for h, el in hexes.items() if el.get("fortified-line") == line) == sorted(ids)
    assert all(d(a, b) == 1 for a, b in zip(ids, ids[1:], strict=False))
    assert all(hexes[h].get("country") == "soviet" and is_land(hexes[h]) for h in ids)


def test_9_20_D_moscow_line_rings_moscow_on_its_west(hexes) -> None:
    assert hexes["K5"].get("place") == "Moscow" and hexes["K5"].get("settlement") == "city"
    assert all(d("K5", h) == 1 for h in ("J5", "K6", "L5"))
    assert all(column_of(h) >= column_of("K5") for h in ("J5", "K6", "L5"))


def test_9_19_existing_fortifications(hexes) -> None:
    forts = {h: el.get("fortification") for h, el in hexes.items() if el.get("fortification")}
    assert forts == {"Y17": "Odessa", "CC15": "Sevastopol", "AA14": "Perekop", "R15": "Kiev",
                     "B10": "Oranienbaum", "B9": "Leningrad"}


def test_5_2_C_leningrad_is_b9_beside_oranienbaum_b10_and_lake_ladoga_b8(hexes) -> None:
    assert hexes["B9"].get("place") == "Leningrad" and hexes["B9"].get("settlement") == "city"
    assert hexes["B10"].get("place") == "Oranienbaum"
    assert d("B9", "B10") == 1 and d("B9", "B8") == 1
    for hid in ("B9", "B10"):  # 5.21, 6.20: on the Gulf of Finland
        assert hexes[hid].get("coast") == "Baltic Sea"


def test_9_24_C_lake_ladoga_fills_b8_and_more(hexes) -> None:
    lake = sorted(h for h, el in hexes.items() if el.get("terrain") == "lake")
    assert "B8" in lake and len(lake) > 1
    assert [h for h in lake if hexes[h].get("ladoga") == "main"] == ["B8"]
    assert all(hexes[h].get("water") == "Lake Ladoga" for h in lake)


def test_9_24_B_lake_hexsides_include_the_rybinsk_reservoir(sides) -> None:
    lakes = {s.get("lake") for s in sides.values() if s.get("lake")}
    assert {"Rybinsk Reservoir", "Lake Peipus", "Lake Ilmen"} <= lakes


def test_5_6_A_an_all_sea_hex_lies_between_c17_and_c15(hexes) -> None:
    assert is_land(hexes["C15"]) and is_land(hexes["C17"])
    assert hexes["C16"].get("terrain") == "sea"
    assert d("C15", "C16") == 1 and d("C16", "C17") == 1


def test_5_6_C_three_seas(hexes) -> None:
    seas = {el.get("water") for el in hexes.values() if el.get("terrain") == "sea"}
    assert seas == {"Baltic Sea", "Black Sea", "Sea of Azov"}


def test_9_12_A_kerch_straits_hexside_cc11_cc12(hexes, sides) -> None:
    strait = [s for s in sides.values() if s.get("strait")]
    assert len(strait) == 1
    assert {strait[0].get("a"), strait[0].get("b")} == {"CC11", "CC12"}
    assert strait[0].get("water") == "all-sea"
    for hid in ("CC11", "CC12"):  # 10.4: both lie in the Black Sea and the Sea of Azov
        assert hexes[hid].get("coast") == "Black Sea Sea of Azov"


def test_9_13_sivash_hexsides_and_perekop(hexes, sides) -> None:
    sivash = sorted(tuple(sorted(k)) for k, s in sides.items() if s.get("sivash"))
    assert sivash == [("AA13", "AA14"), ("AA14", "Z13")]
    assert hexes["AA14"].get("fortification") == "Perekop"
    assert not hexes["Z13"].get("coast")  # 9.13 B


def test_5_13_C_the_sea_of_azov_coast_lies_beyond_the_kerch_straits(hexes) -> None:
    azov = [h for h, el in hexes.items() if "Sea of Azov" in el.get("coast", "")]
    assert {"CC11", "CC12", "AA13"} <= set(azov)
    assert all(row_of(h) <= row_of("CC12") for h in azov)
    for hid in ("CC13", "CC14", "CC15", "DD10", "Y17"):
        assert hexes[hid].get("coast") == "Black Sea", hid


def test_5_13_B_three_port_cities(hexes) -> None:
    ports = {h: el.get("place") for h, el in hexes.items() if el.get("port")}
    assert ports == {"Y17": "Odessa", "CC15": "Sevastopol", "DD10": "Novorossisk"}
    assert all(hexes[h].get("settlement") == "city" and hexes[h].get("coast") for h in ports)
    assert "Sea of Azov" not in hexes["Y17"].get("coast")


def test_9_19_kiev_is_r15(hexes) -> None:
    assert hexes["R15"].get("place") == "Kiev" and hexes["R15"].get("settlement") == "city"


def test_6_18_C_k7_is_a_land_hex(hexes) -> None:
    assert hexes["K7"].get("country") == "soviet" and is_land(hexes["K7"])


def test_9_1_B_nine_crimean_hexes_form_the_southern_zone(hexes) -> None:
    south = sorted(h for h, el in hexes.items() if el.get("weather-zone") == "southern")
    assert len(south) == 9 and connected(south)
    assert {"AA14", "CC12", "CC15"} <= set(south)
    assert not {"CC11", "Z13", "AA13"} & set(south)  # Taman; the mainland past the Sivash
    assert all(is_land(hexes[h]) and hexes[h].get("country") == "soviet" for h in south)


# -- the border, the ZOMO, the edges (3.0 D, 5.14, 5.15, 11.1) ------------------------------
def test_5_14_A_protruding_zomo_hexes_h19_and_o21(hexes) -> None:
    protruding = sorted(h for h, el in hexes.items() if el.get("protruding"))
    assert protruding == ["H19", "O21"]
    for hid in protruding:
        assert hexes[hid].get("zomo") == "germany"
        near = [n for n in hexes if d(n, hid) == 1]
        assert any(hexes[n].get("zomo") for n in near)  # 5.14 B can be met
        assert sum(hexes[n].get("country") == "soviet" for n in near) >= 3  # it sticks out


def test_5_14_A_every_zomo_hex_touches_the_soviet_border(hexes) -> None:
    zomo = [h for h, el in hexes.items() if el.get("zomo")]
    assert zomo
    for hid in zomo:
        assert hexes[hid].get("zomo") == hexes[hid].get("country")
        assert any(hexes[n].get("country") == "soviet" for n in hexes if d(n, hid) == 1)
    land = [el for el in hexes.values() if is_land(el)]
    assert all(el.get("country") == "soviet" or el.get("zomo") for el in land)


def test_5_14_A_the_zomo_is_the_west_rim_of_the_map(hexes) -> None:
    for hid, el in hexes.items():
        if el.get("country") == "soviet":
            row = row_of(hid)
            zomo_cols = [column_of(z) for z, e in hexes.items()
                         if e.get("zomo") and row_of(z) == row]
            assert not zomo_cols or column_of(hid) < max(zomo_cols)


def test_5_15_A_zomo_north_of_q23_is_german(hexes) -> None:
    assert hexes["Q23"].get("zomo") == "hungary"
    q = row_of("Q23")
    for hid, el in hexes.items():
        if el.get("zomo"):
            assert (el.get("zomo") == "germany") == (row_of(hid) < q), hid


def test_11_1_romanian_zomo_lies_south_of_row_s_and_hungarian_south_of_row_o(hexes) -> None:
    for hid, el in hexes.items():
        if el.get("zomo") == "romania":
            assert row_of(hid) >= ROWS.index("S") + 1
        if el.get("zomo") == "hungary":
            assert row_of(hid) >= ROWS.index("O") + 1


def test_4_5_1_4_C_east_and_south_edges(hexes) -> None:
    for hid, el in hexes.items():
        if not is_land(el):
            continue
        edge = el.get("edge", "").split()
        assert ("east" in edge) == (column_of(hid) == 1)
        assert ("south" in edge) == (row_of(hid) == len(ROWS))
    assert all(f"{r}1" in hexes and is_land(hexes[f"{r}1"]) for r in ROWS)


def test_9_17_stalin_line_runs_from_the_gulf_of_finland_to_the_dniester(hexes) -> None:
    line = [h for h, el in hexes.items() if el.get("stalin-line")]
    assert all(hexes[h].get("country") == "soviet" and is_land(hexes[h]) for h in line)
    rows = {row_of(h) for h in line}
    assert set(range(ROWS.index("B") + 1, ROWS.index("Y") + 2)) <= rows
    assert "K15" in line  # Minsk, on the old border
    assert not any(hexes[h].get("weather-zone") for h in line)


# -- places (2.0 .. 15.2) -------------------------------------------------------------------
def test_15_2_B_victory_point_places(hexes) -> None:
    vps = {el.get("place"): int(el.get("vp")) for el in hexes.values() if el.get("vp")}
    assert vps == {"Dnepro Petrovsk": 3, "Sevastopol": 4, "Moscow": 18, "Odessa": 3,
                   "Kiev": 5, "Riga": 3, "Stalino": 2, "Minsk": 3, "Gorki": 4, "Smolensk": 4,
                   "Kharkhov": 4, "Stalingrad": 6, "Leningrad": 12, "Maikop oilfield": 12}


def test_15_2_B_there_are_83_available_vps(hexes) -> None:
    assert sum(int(el.get("vp")) for el in hexes.values() if el.get("vp")) == 83


def test_15_2_A_stalino_is_the_only_point_yielding_town(hexes) -> None:
    towns = [el.get("place") for el in hexes.values()
             if el.get("vp") and el.get("settlement") == "town"]
    assert towns == ["Stalino"]


def test_9_16_A_every_city_is_on_clear_terrain(hexes) -> None:
    cities = [el for el in hexes.values() if el.get("settlement") == "city"]
    assert len(cities) == 13
    assert all(el.get("terrain") == "clear" and el.get("country") == "soviet" for el in cities)


def test_5_2_D_towns_and_cities_are_soviet_land(hexes) -> None:
    places = [el for el in hexes.values() if el.get("settlement")]
    assert all(el.get("country") == "soviet" and is_land(el) for el in places)
    assert len({el.get("place") for el in places}) == len(places)


def test_9_11_one_natural_terrain_per_land_hex_and_mountains_are_broken(hexes) -> None:
    kinds = {el.get("terrain") for el in hexes.values() if is_land(el)}
    assert kinds == {"clear", "broken", "forest", "marsh"}
    assert all(el.get("terrain") == "broken" for el in hexes.values() if el.get("mountain"))


def test_9_9_major_and_minor_rivers(sides) -> None:
    kinds = {s.get("river") for s in sides.values() if s.get("river")}
    assert kinds == {"major", "minor"}
    assert sides[frozenset(("R14", "R15"))].get("river-name") == "Dnepr"


def test_only_rule_facts_cite_rules(hexes) -> None:
    named = {"B9", "B10", "B8", "E16", "H17", "G19", "H9", "H19", "O21", "Q23", "R15", "Y17",
             "CC15", "DD10", "AA14", "Z13", "AA13", "CC11", "CC12", "K5", "K7", "C15", "C16",
             "C17"}
    for hid in named:
        assert "rules:" in hexes[hid].get("source"), hid
    for el in hexes.values():
        assert el.get("source").endswith("reconstructed") or "rules:" in el.get("source")


# -- the engine's board reads the map: supply traces over it (5.4, 5.6, 5.15) --------------
@pytest.fixture(scope="module")
def board(hexes, sides):
    from adjudicator.engine.hexboard import HexBoard
    from adjudicator.engine.hexgrid import Hexside

    features = {}
    for pair, el in sides.items():
        a, b = sorted(pair)
        marks = {k for k in ("water", "strait", "sivash", "lake", "river") if el.get(k)}
        features[Hexside.between(GRID.parse(a), GRID.parse(b))] = frozenset(
            f"{k}={el.get(k)}" for k in marks)
    return HexBoard(GRID, {GRID.parse(h): el.get("terrain") for h, el in hexes.items()},
                    features)


def land_trace(board, strait: bool = True):
    """A supply line's step: land to land, never across an all-sea hexside but the Kerch
    Straits (5.6 A); lakes are no bar (5.6 D)."""
    def passable(a, b) -> bool:
        if board.terrain[b] == "sea" or board.terrain[a] == "sea":
            return False
        feats = board.features(a, b)
        if "water=all-sea" in feats:
            return strait and "strait=kerch" in feats
        return True
    return passable


def test_5_4_traces_from_g19_to_riga_and_kaunas(board) -> None:
    reach = board.trace([GRID.parse("G19")], land_trace(board))
    assert reach[GRID.parse("E16")] - 1 == 3 and reach[GRID.parse("H17")] - 1 == 1


def test_5_15_D_a_line_from_h19_reaches_h9_in_ten(board) -> None:
    reach = board.trace([GRID.parse("H19")], land_trace(board))
    assert reach[GRID.parse("H9")] == 10


def test_5_6_A_c17_cannot_trace_through_the_sea_to_c15(board) -> None:
    reach = board.trace([GRID.parse("C17")], land_trace(board))
    assert GRID.parse("C16") not in reach
    assert reach[GRID.parse("C15")] > 2  # round the Gulf of Riga, not across it


def test_5_6_A_the_kerch_straits_carry_a_supply_line(board) -> None:
    with_strait = board.trace([GRID.parse("CC12")], land_trace(board), max_length=1)
    without = board.trace([GRID.parse("CC12")], land_trace(board, strait=False), max_length=1)
    assert GRID.parse("CC11") in with_strait and GRID.parse("CC11") not in without


def test_the_readme_and_register_list_every_hand_set_reconstruction() -> None:
    """Every hex the generator sets by hand for a reason other than a rule's number is
    explained in MAP-README.md, and the text's inconsistencies are in the register."""
    from adjudicator.games.blitzkrieg.tools import geography

    readme = (DATA / "MAP-README.md").read_text(encoding="utf-8")
    register = (PACKAGE / "RULES-ISSUES.md").read_text(encoding="utf-8")
    for hid in ("K5", "L1", "I19", "P23", "BB12", "BB15", "C16"):
        assert hid in readme, hid
    for place, (_, ref) in geography.VICTORY_POINTS.items():
        assert ref.startswith("rules:") and (place in readme or ref != "rules: 15.2 A, B")
    for topic in ("Moscow", "83", "mountain", "Gorki", "8-1", "fortification", "ZOMO", "AA13"):
        assert topic in register, topic
    assert str(HEX_COUNT) in readme and str(HEXSIDE_COUNT) in readme


def test_5_6_B_partial_land_and_all_sea_hexsides_between_land_hexes(sides) -> None:
    water = {s.get("water") for s in sides.values() if s.get("water")}
    assert water == {"all-sea", "partial-land"}
    assert sum(1 for s in sides.values() if s.get("water") == "all-sea"
               and not s.get("strait")) >= 1  # the Irbe strait off Saaremaa


def test_5_17_B_and_14_39_2_F_the_north_edge_west_of_leningrad(hexes) -> None:
    north = [h for h, el in hexes.items() if "north" in el.get("edge", "").split()]
    assert north and all(row_of(h) == 1 for h in north)
    west = [h for h in north if column_of(h) >= column_of("B9") and is_land(hexes[h])]
    assert west and min(d("B9", h) for h in west) <= 3  # 14.11 B 1: Finland lies beyond
