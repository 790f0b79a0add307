"""The reconstructed hex map of 1941: Operation Barbarossa (games/barbarossa/data/map.xml).

The printed map is not available; these tests pin the facts the rulebook states about
it (rule numbers in the test names) and the properties the reconstruction promises
(MAP-README.md), so that a regeneration that breaks one is noticed.
"""

from __future__ import annotations

from collections import defaultdict, deque
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, HexGrid, Hexside
from adjudicator.engine.module import MODULE_NS, load_module

DATA = Path(__file__).resolve().parent.parent / "adjudicator" / "games" / "barbarossa" / "data"
MAP_XML = DATA / "map.xml"
MAP_RNG = DATA / "map.rng"
M = f"{{{MODULE_NS}}}"

# Printed so that a regeneration that changes the map's size is noticed: update it
# (and MAP-README.md) deliberately when the extent or the neutral land changes.
EXPECTED_HEX_COUNT = 1147

# A river may leave the map and come back: the number of separate on-map pieces.
RIVER_PIECES = {"volga": 2}

ANYTHING = etree.RelaxNG(etree.fromstring(b"""
  <grammar xmlns="http://relaxng.org/ns/structure/1.0">
    <start><ref name="any"/></start>
    <define name="any"><element><anyName/><zeroOrMore><choice>
      <attribute><anyName/></attribute><text/><ref name="any"/>
    </choice></zeroOrMore></element></define>
  </grammar>"""))


@pytest.fixture(scope="module")
def root() -> etree._Element:
    return etree.parse(str(MAP_XML)).getroot()


@pytest.fixture(scope="module")
def board() -> HexBoard:
    inner = MAP_XML.read_bytes().split(b"?>", 1)[-1]
    data = (b'<module xmlns="urn:pbem:module:1" game="barbarossa" version="0">'
            + inner + b"</module>")
    return load_module(data, ANYTHING, expected_game="barbarossa").hex_board()


@pytest.fixture(scope="module")
def hexes(root: etree._Element) -> dict[str, etree._Element]:
    return {h.get("id"): h for h in root.iter(f"{M}hex")}


@pytest.fixture(scope="module")
def sides(root: etree._Element) -> dict[str, list[etree._Element]]:
    by_feature: dict[str, list[etree._Element]] = defaultdict(list)
    for el in root.iter(f"{M}hexside"):
        by_feature[el.get("features")].append(el)
    return by_feature


def city_hex(hexes: dict[str, etree._Element], name: str) -> str:
    found = [hid for hid, h in hexes.items() if h.get("city") == name]
    assert len(found) == 1, f"{name} is on the map exactly once"
    return found[0]


def side_of(board: HexBoard, a: str, b: str) -> Hexside:
    return Hexside.between(board.hex(a), board.hex(b))


def corners(board: HexBoard, s: Hexside) -> list[frozenset[Hex]]:
    """The two ends of a hexside, each named by the three hexes that meet there."""
    common = set(board.grid.neighbours(s.a)) & set(board.grid.neighbours(s.b))
    assert len(common) == 2
    return [frozenset({s.a, s.b, c}) for c in common]


# -- the file itself -------------------------------------------------------------------
def test_map_is_valid_against_its_schema(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(MAP_RNG)))
    assert schema.validate(root), schema.error_log


def test_1_1_1_hex_numbering_and_count(root: etree._Element, board: HexBoard) -> None:
    grid = root.find(f"{M}grid")
    assert (grid.get("orientation"), grid.get("shifted"), grid.get("numbering")) == (
        "flat", "even", "CCRR")
    assert len(board.terrain) == EXPECTED_HEX_COUNT
    print(f"barbarossa map: {len(board.terrain)} hexes")


def test_every_hexside_joins_two_adjacent_hexes_on_the_map(root, board: HexBoard) -> None:
    for el in root.iter(f"{M}hexside"):
        a, b = board.hex(el.get("a")), board.hex(el.get("b"))  # both on the map
        assert board.grid.adjacent(a, b), (el.get("a"), el.get("b"))


def test_only_rule_facts_say_rules(root: etree._Element) -> None:
    for el in root.iter(f"{M}hex", f"{M}hexside"):
        src = el.get("source")
        assert src == "reconstructed" or src.startswith("rules: "), src


# -- rule 6.2 and 15.2.2 examples: the grid geometry --------------------------------------
def test_6_2_example_adjacencies(board: HexBoard) -> None:
    h = board.hex
    assert board.grid.adjacent(h("2621"), h("2522"))
    assert board.grid.adjacent(h("2621"), h("2620"))
    assert board.grid.adjacent(h("2620"), h("2720"))
    assert not board.grid.adjacent(h("2621"), h("2720"))
    # moving 2621 -> 2620 goes from one infantry ZOC to another: both hexes touch 2522
    # or 2720, which is the point of the example
    assert board.grid.adjacent(h("2620"), h("2522")) or board.grid.adjacent(h("2620"),
                                                                            h("2720"))


def test_15_2_2_example_adjacencies(board: HexBoard) -> None:
    h = board.hex
    assert board.grid.adjacent(h("0708"), h("0707"))
    assert board.grid.adjacent(h("0708"), h("0808"))
    assert board.grid.adjacent(h("0809"), h("0910"))


def test_15_2_2_finnish_attack_limits(hexes: dict[str, etree._Element]) -> None:
    assert hexes["0707"].get("finnish-limit") is None  # may be attacked from 0708
    assert hexes["0808"].get("finnish-limit") == "south-of-svir"
    assert hexes["0910"].get("finnish-limit") == "south-of-svir"
    assert hexes["0712"].get("finnish-limit") is None  # Leningrad has its own clause
    for h in hexes.values():
        if h.get("finnish-limit"):
            assert h.get("country") == "soviet"


def test_15_2_2_svir_and_white_sea_canal_are_on_the_map(sides) -> None:
    assert any("svir" in el.get("rivers").split() for el in sides["river"])
    assert sides["canal"]


# -- hexes the rulebook names ---------------------------------------------------------------
@pytest.mark.parametrize("hid, city, rule", [
    ("1808", "Moscow", "14.2.4 B"), ("0712", "Leningrad", "15.2.2 B"),
    ("0416", "Helsinki", "8.2.1 B"),
])
def test_rule_numbered_cities(hexes, hid: str, city: str, rule: str) -> None:
    assert hexes[hid].get("city") == city
    assert f"rules: {rule}" in hexes[hid].get("source")


def test_8_2_1_B_helsinki_is_the_finnish_supply_source(hexes) -> None:
    assert hexes["0416"].get("country") == "finland"
    assert hexes["0416"].get("supply") == "finnish"


def test_14_2_4_B_moscow_and_14_1_2_2_kalinin_are_major_soviet_cities(hexes) -> None:
    assert hexes["1808"].get("city-class") == "major"
    assert hexes["1808"].get("country") == "soviet"
    assert hexes[city_hex(hexes, "Kalinin")].get("city-class") == "major"


def test_18_3_archangel_and_sevastopol_are_on_the_map_and_not_major(hexes) -> None:
    for name in ("Archangel", "Sevastopol"):
        assert hexes[city_hex(hexes, name)].get("city-class") == "reference"


def test_1_1_2_A_krasnodar_and_vologda_are_on_the_map(hexes) -> None:
    for name in ("Krasnodar", "Vologda"):
        assert hexes[city_hex(hexes, name)].get("country") == "soviet"


def test_17_1_5_odessa_and_20_6_4_kiev_are_on_the_map(hexes) -> None:
    assert hexes[city_hex(hexes, "Odessa")].get("coastal") == "yes"  # a Black Sea port
    city_hex(hexes, "Kiev")


def test_1_2_2_46th_panzer_corps_sets_up_in_greater_germany(hexes) -> None:
    assert hexes["1825"].get("country") == "germany"
    assert hexes["1825"].get("terrain") != "swamp"


def test_19_0_B_soviet_11th_army_sets_up_in_the_soviet_union(hexes) -> None:
    assert hexes["1222"].get("country") == "soviet"
    assert hexes["1222"].get("terrain") in ("clear", "forest", "swamp", "rough")


def test_20_1_1_baltic_fleet_crossing_and_0713_fortifications(board, hexes) -> None:
    assert hexes["0713"].get("fortification") == "yes"
    assert hexes["0713"].get("country") == "soviet"
    assert board.terrain[board.hex("0713")] not in ("sea", "lake")
    assert "all-sea" in board.hexsides[side_of(board, "0712", "0713")]


def test_11_0_fortifications_only_where_the_rules_put_them(hexes) -> None:
    assert [hid for hid, h in hexes.items() if h.get("fortification")] == ["0713"]


# -- errata 1.1.2 --------------------------------------------------------------------------
def test_1_1_2_B_rail_line_0105_0106(board: HexBoard) -> None:
    assert "rail" in board.hexsides[side_of(board, "0105", "0106")]


def test_1_1_2_C_northern_dvina_runs_from_hexside_0101_0102(board, sides) -> None:
    dvina = [side_of(board, el.get("a"), el.get("b")) for el in sides["river"]
             if "northern-dvina" in el.get("rivers").split()]
    first = side_of(board, "0101", "0102")
    assert first in dvina
    ends = set(corners(board, first))
    assert any(ends & set(corners(board, s)) for s in dvina if s != first), \
        "the Dvina goes on from 0101/0102"


# -- rivers, rail, supply --------------------------------------------------------------------
def test_5_1_rivers_form_connected_chains_of_hexsides(board, sides) -> None:
    by_river: dict[str, list[Hexside]] = defaultdict(list)
    for el in sides["river"]:
        for rid in el.get("rivers").split():
            by_river[rid].append(side_of(board, el.get("a"), el.get("b")))
    assert {"dnepr", "daugava", "neman", "bug", "pripyat", "berezina", "desna", "don",
            "volga", "dniester", "prut", "southern-bug", "volkhov", "svir", "narva",
            "lovat", "oka", "northern-dvina"} <= set(by_river)
    for rid, chain in by_river.items():
        at: dict[frozenset[Hex], list[Hexside]] = defaultdict(list)
        for s in chain:
            for c in corners(board, s):
                at[c].append(s)
        seen: set[Hexside] = set()
        pieces = 0
        for s in chain:
            if s in seen:
                continue
            pieces += 1
            queue = deque([s])
            seen.add(s)
            while queue:
                cur = queue.popleft()
                for c in corners(board, cur):
                    for nxt in at[c]:
                        if nxt not in seen:
                            seen.add(nxt)
                            queue.append(nxt)
        assert pieces <= RIVER_PIECES.get(rid, 1), f"{rid} is broken into {pieces} pieces"


def rail_network(board: HexBoard) -> dict[Hex, set[Hex]]:
    net: dict[Hex, set[Hex]] = defaultdict(set)
    for s, feats in board.hexsides.items():
        if "rail" in feats:
            net[s.a].add(s.b)
            net[s.b].add(s.a)
    return net


def test_5_4_rail_network_connects_the_great_cities(board, hexes) -> None:
    net = rail_network(board)
    start = board.hex(city_hex(hexes, "Moscow"))
    reached = {start}
    queue = deque([start])
    while queue:
        for n in net[queue.popleft()]:
            if n not in reached:
                reached.add(n)
                queue.append(n)
    for name in ("Leningrad", "Kiev", "Minsk", "Riga", "Kharkov", "Rostov", "Odessa",
                 "Smolensk", "Helsinki", "Warsaw", "Konigsberg", "Bucharest", "Sevastopol",
                 "Stalingrad", "Vologda", "Archangel"):
        assert board.hex(city_hex(hexes, name)) in reached, name


def test_8_2_1_A_railroads_lead_off_the_west_edge(root, board, hexes) -> None:
    west_row = int(root.get("last-row"))
    exits = [hid for hid, h in hexes.items() if h.get("rail-exit") == "west"]
    assert exits
    net = rail_network(board)
    for hid in exits:
        assert int(hid[2:]) == west_row
        assert hexes[hid].get("supply") == "axis"
        assert hexes[hid].get("country") in ("germany", "slovakia", "hungary", "romania")
        assert net[board.hex(hid)], f"{hid} has a railroad"


def test_8_2_2_A_railroads_lead_off_the_east_edge(root, board, hexes) -> None:
    east_row = int(root.get("first-row"))
    exits = [hid for hid, h in hexes.items() if h.get("rail-exit") == "east"]
    assert exits
    for hid in exits:
        assert int(hid[2:]) == east_row
        assert hexes[hid].get("supply") == "soviet"
        assert hexes[hid].get("country") == "soviet"


# -- countries (4.0, 15.0, 17.1.3) ------------------------------------------------------------
def test_4_0_and_15_0_countries_and_borders(board, hexes, sides) -> None:
    countries = {h.get("country") for h in hexes.values() if h.get("country")}
    assert {"soviet", "finland", "germany", "hungary", "romania"} <= countries
    pairs = {el.get("countries") for el in sides["border"]}
    assert {"finland soviet", "germany soviet", "hungary soviet", "romania soviet"} <= pairs
    for el in sides["border"]:
        a, b = hexes[el.get("a")], hexes[el.get("b")]
        assert a.get("country") != b.get("country")
    for s in board.hexsides:
        ca, cb = hexes[board.label(s.a)].get("country"), hexes[board.label(s.b)].get("country")
        if ca and cb and ca != cb:
            assert "border" in board.hexsides[s], (board.label(s.a), board.label(s.b))


def test_13_5_C_gulf_of_onega_and_white_sea_are_told_apart(hexes) -> None:
    waters = {h.get("water") for h in hexes.values() if h.get("water")}
    assert {"Lake Ladoga", "Lake Onega", "Gulf of Finland", "Black Sea", "Sea of Azov"} <= waters
    assert waters & {"Gulf of Onega", "White Sea"}


def test_grid_of_the_module_matches_the_printed_numbering(board: HexBoard) -> None:
    assert board.grid == HexGrid(orientation="flat", shifted="even", numbering="CCRR")


def test_the_generator_modules_are_small_enough_to_read() -> None:
    tools = DATA.parent / "tools"
    assert {p.name: n for p in tools.glob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600} == {}


def test_the_generator_reproduces_map_xml_byte_for_byte() -> None:
    """The generator runs on the map kit (adjudicator/mapgen) and writes exactly the
    committed file (a development tool: it needs shapely, the `dev` extra)."""
    pytest.importorskip("shapely")
    from adjudicator.games.barbarossa.tools import gen_map

    assert gen_map.render(gen_map.generate()) == MAP_XML.read_bytes()


def test_the_extract_writer_keeps_the_committed_geodata(tmp_path: Path) -> None:
    """--extract writes its GeoJSON with the kit's writer: read back and written again,
    the committed extracts come out byte for byte."""
    pytest.importorskip("shapely")
    from shapely.geometry import shape

    from adjudicator.games.barbarossa.tools import gen_map
    from adjudicator.mapgen.geojson import load_features

    for name in ("rivers.geojson", "seas.geojson"):
        src = gen_map.GEO_DIR / name
        gen_map._write_fc(tmp_path / name, [(f["properties"], shape(f["geometry"]))
                                            for f in load_features(src)])
        assert (tmp_path / name).read_bytes() == src.read_bytes(), name
