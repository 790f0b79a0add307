"""The reconstructed hex map of Moscow '41 (games/moscow/data/map.xml).

The printed map is not available; these tests pin the facts the rulebook states about
it (rule numbers in the test names: the hex numbers of its examples, the grid they
imply, Moscow and its defensive ring, the front line, the set-up columns, lakes and
roads, supply sources, entry hexes) and the properties the reconstruction promises
(MAP-README.md), and check that the package's map generator (tools/gen_map.py)
regenerates the file exactly.
"""

from __future__ import annotations

import importlib.util
from collections import defaultdict, deque
from pathlib import Path
from types import ModuleType

import pytest
from lxml import etree

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, HexGrid, Hexside
from adjudicator.engine.module import MODULE_NS, load_module

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "adjudicator" / "games" / "moscow" / "data"
MAP_XML = DATA / "map.xml"
MAP_RNG = DATA / "map.rng"
M = f"{{{MODULE_NS}}}"

# Printed so that a regeneration that changes the map's size is noticed: update it
# (and MAP-README.md) deliberately when the extent changes.
EXPECTED_HEX_COUNT = 34 * 22
TERRAINS = {"clear", "light-woods", "woods", "marsh"}
FEATURES = {"river", "lake", "road", "moscow-ring", "front-line"}
# Every hex the rulebook names (rule -> hexes).
RULE_HEXES = {
    "4.5": ["1510", "1611", "1710", "1810", "1711", "1812"],
    "6.0": ["2416", "2315", "2316", "2415", "2417"],
    "6.4": ["2515", "2514", "2516"],
    "8.3": ["2416", "2316"],
    "9.3": ["1909"],
}
EXAMPLE_PATH = [("1510", "1611"), ("1611", "1710"), ("1710", "1810"), ("1611", "1711"),
                ("1711", "1812")]
# A river may leave the map and come back: the number of separate on-map pieces.
RIVER_PIECES = {"volga": 2, "western-dvina": 2}

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
    data = b'<module xmlns="urn:pbem:module:1" game="moscow" version="0">' + inner + b"</module>"
    return load_module(data, ANYTHING, expected_game="moscow").hex_board()


@pytest.fixture(scope="module")
def hexes(root: etree._Element) -> dict[str, etree._Element]:
    return {h.get("id"): h for h in root.iter(f"{M}hex")}


@pytest.fixture(scope="module")
def sides(root: etree._Element) -> dict[str, list[etree._Element]]:
    by_feature: dict[str, list[etree._Element]] = defaultdict(list)
    for el in root.iter(f"{M}hexside"):
        by_feature[el.get("features")].append(el)
    return by_feature


def load_generator() -> ModuleType:
    return importlib.import_module("adjudicator.games.moscow.tools.gen_map")


def side_of(board: HexBoard, a: str, b: str) -> Hexside:
    return Hexside.between(board.hex(a), board.hex(b))


def corners(board: HexBoard, s: Hexside) -> list[frozenset[Hex]]:
    """The two ends of a hexside, each named by the three hexes that meet there."""
    common = set(board.grid.neighbours(s.a)) & set(board.grid.neighbours(s.b))
    assert len(common) == 2
    return [frozenset({s.a, s.b, c}) for c in common]


def pieces_of(board: HexBoard, chain: list[Hexside]) -> int:
    """How many connected pieces (joined at hex corners) a set of hexsides makes."""
    at: dict[frozenset[Hex], list[Hexside]] = defaultdict(list)
    for s in chain:
        for c in corners(board, s):
            at[c].append(s)
    seen: set[Hexside] = set()
    count = 0
    for s in chain:
        if s in seen:
            continue
        count += 1
        queue = deque([s])
        seen.add(s)
        while queue:
            for c in corners(board, queue.popleft()):
                for nxt in at[c]:
                    if nxt not in seen:
                        seen.add(nxt)
                        queue.append(nxt)
    return count


def column(hid: str) -> int:
    return int(hid[:2])


# -- the file itself -------------------------------------------------------------------
def test_map_is_valid_against_its_schema(root: etree._Element) -> None:
    schema = etree.RelaxNG(etree.parse(str(MAP_RNG)))
    assert schema.validate(root), schema.error_log


@pytest.mark.parametrize("attribute, value", [
    ("terrain", "forest"), ("terrain", "swamp"), ("side", "axis"), ("city-class", "major"),
    ("front-line", "no"), ("source", "rules"), ("id", "180"),
])
def test_schema_rejects_values_outside_the_vocabulary(root, attribute: str, value: str) -> None:
    schema = etree.RelaxNG(etree.parse(str(MAP_RNG)))
    bad = etree.fromstring(etree.tostring(root))
    target = next(h for h in bad.iter(f"{M}hex") if h.get("city"))
    target.set(attribute, value)
    assert not schema.validate(bad)


def test_extent_and_hex_count(root: etree._Element, board: HexBoard) -> None:
    assert (root.get("first-column"), root.get("last-column")) == ("01", "34")
    assert (root.get("first-row"), root.get("last-row")) == ("01", "22")
    assert len(board.terrain) == EXPECTED_HEX_COUNT
    print(f"moscow map: {len(board.terrain)} hexes, {len(board.hexsides)} hexsides")


def test_every_hexside_joins_two_adjacent_hexes_on_the_map(root, board: HexBoard) -> None:
    for el in root.iter(f"{M}hexside"):
        a, b = board.hex(el.get("a")), board.hex(el.get("b"))
        assert board.grid.adjacent(a, b), (el.get("a"), el.get("b"))
        assert el.get("a") < el.get("b")
        assert el.get("features") in FEATURES


def test_only_rule_facts_say_rules(root: etree._Element, hexes) -> None:
    for el in root.iter(f"{M}hex", f"{M}hexside", f"{M}grid"):
        src = el.get("source")
        assert src == "reconstructed" or src.startswith("rules: "), src
    ruled = {hid for hid, h in hexes.items() if h.get("source").startswith("rules: ")}
    named = {hid for hexlist in RULE_HEXES.values() for hid in hexlist}
    moscow = {hid for hid, h in hexes.items() if h.get("city") == "Moscow"}
    assert ruled == named | moscow


# -- the grid: flat hexes, odd columns lower, columns west to east (4.5, 6.0, 8.3) --------
def test_4_5_and_6_0_fix_the_grid(root: etree._Element, board: HexBoard) -> None:
    grid = root.find(f"{M}grid")
    assert (grid.get("orientation"), grid.get("shifted"), grid.get("numbering")) == (
        "flat", "odd", "CCRR")
    assert board.grid == HexGrid(orientation="flat", shifted="odd", numbering="CCRR")


def test_4_5_example_path_is_a_chain_of_neighbours(board: HexBoard) -> None:
    for a, b in EXAMPLE_PATH:
        assert board.grid.adjacent(board.hex(a), board.hex(b)), (a, b)


def test_the_other_parity_breaks_the_examples() -> None:
    even = HexGrid(orientation="flat", shifted="even", numbering="CCRR")
    assert not even.adjacent(even.parse("1510"), even.parse("1611"))  # 4.5
    assert not even.adjacent(even.parse("2416"), even.parse("2315"))  # 6.0


def test_6_0_disengagement_example(board: HexBoard) -> None:
    h = board.hex
    assert {board.label(n) for n in board.neighbours(h("2416"))} == {
        "2415", "2417", "2315", "2316", "2515", "2516"}
    # out of 2416 into 2315 and then on into 2415
    assert board.grid.adjacent(h("2315"), h("2415"))


def test_6_4_overrun_example(board: HexBoard) -> None:
    h = board.hex
    assert board.grid.adjacent(h("2515"), h("2514"))
    assert board.grid.adjacent(h("2515"), h("2516"))


def test_8_3_coordinated_attack_example(board: HexBoard) -> None:
    """All attackers must be next to both 2416 and 2316: they stand in 2315 or 2417."""
    h = board.hex
    both = set(board.neighbours(h("2416"))) & set(board.neighbours(h("2316")))
    assert {board.label(x) for x in both} == {"2315", "2417"}


@pytest.mark.parametrize("rule, hid", [(r, h) for r, hs in RULE_HEXES.items() for h in hs])
def test_hexes_the_rulebook_names_are_on_the_map(hexes, rule: str, hid: str) -> None:
    assert hid in hexes
    assert f"{rule}" in hexes[hid].get("source")


def test_1_3_1_G_hex_row_20xx_is_on_the_map(hexes) -> None:
    assert {hid for hid in hexes if column(hid) == 20} == {f"20{r:02d}" for r in range(1, 23)}


# -- 4.5 / 2.2: the movement example's terrain --------------------------------------------
def test_4_5_example_hexes_are_light_woods_without_road_or_river(hexes, board: HexBoard) -> None:
    """Each of the five hexes costs 2 MPs (the costs themselves: test_moscow_data.py); no
    road, river or lake on the hexsides crossed changes that (the front line, a printed
    border only, may run there)."""
    for hid in ("1611", "1710", "1810", "1711", "1812"):
        assert hexes[hid].get("terrain") == "light-woods", hid
        assert "rules: 4.5, 2.2" in hexes[hid].get("source")
    for a, b in EXAMPLE_PATH:
        assert not board.features(board.hex(a), board.hex(b)) & {"road", "river", "lake"}


# -- Moscow and the defensive ring (13.0, 14.4, 16.0, 16.2) ---------------------------------
def test_16_0_moscow_is_one_soviet_city_hex(hexes) -> None:
    found = [hid for hid, h in hexes.items() if h.get("city") == "Moscow"]
    assert found == ["2808"]
    moscow = hexes["2808"]
    assert (moscow.get("city-class"), moscow.get("side"), moscow.get("supply")) == (
        "city", "soviet", "soviet")
    assert moscow.get("source").startswith("rules: 13.0, 14.4, 16.0")


def test_13_0_ring_borders_moscow_and_its_neighbours(board: HexBoard, sides) -> None:
    moscow = board.hex("2808")
    inside = {moscow, *board.neighbours(moscow)}
    ring = {side_of(board, el.get("a"), el.get("b")) for el in sides["moscow-ring"]}
    expected = {Hexside.between(h, n) for h in inside for n in board.neighbours(h)
                if n not in inside}
    assert ring == expected
    assert len(ring) == 18
    assert pieces_of(board, sorted(ring)) == 1  # a closed border
    for el in sides["moscow-ring"]:
        assert el.get("source") == "rules: 13.0; reconstructed"


# -- the front line (1.3.1 F-H, 1.3.2 C, 9.4) -----------------------------------------------
def test_1_3_2_C_front_line_separates_the_two_sides(board: HexBoard, hexes, sides) -> None:
    front = {side_of(board, el.get("a"), el.get("b")) for el in sides["front-line"]}
    crossing = {s for s in (Hexside.between(h, n) for h in board for n in board.neighbours(h))
                if hexes[board.label(s.a)].get("side") != hexes[board.label(s.b)].get("side")}
    assert front == crossing
    assert pieces_of(board, sorted(front)) == 1, "one unbroken line"
    rows = {int(board.label(h)[2:]) for s in front for h in s}
    assert min(rows) == 1 and max(rows) == 22, "from the north edge to the south edge"


def test_1_3_1_F_front_line_hexes_are_the_soviet_hexes_on_the_line(board, hexes) -> None:
    for hid, h in hexes.items():
        touches = any(hexes[board.label(n)].get("side") == "german"
                      for n in board.neighbours(board.hex(hid)))
        expected = h.get("side") == "soviet" and touches
        assert (h.get("front-line") == "yes") == expected, hid
    count = sum(h.get("front-line") == "yes" for h in hexes.values())
    print(f"moscow front line: {count} Soviet front-line hexes")


def test_1_3_1_G_H_set_up_zones(hexes) -> None:
    """The front line lies west of hex row 20xx except where it bends east in the south, so
    Soviet infantry has room between it and 20xx, and armor room east of 20xx."""
    german = [hid for hid, h in hexes.items() if h.get("side") == "german"]
    assert max(column(hid) for hid in german) <= 20
    behind = [hid for hid, h in hexes.items() if h.get("side") == "soviet"
              and not h.get("front-line") and column(hid) <= 20]
    east = [hid for hid, h in hexes.items() if h.get("side") == "soviet"
            and not h.get("front-line") and column(hid) >= 21]
    assert len(behind) >= 30 and len(east) >= 200
    assert all(column(hid) <= 21 for hid, h in hexes.items() if h.get("front-line"))
    assert column("2808") > 20  # Moscow lies in the armor zone


# -- towns and cities (9.0 F, 9.4) -----------------------------------------------------------
def test_9_4_every_town_and_city_is_a_supply_source_of_its_side(hexes) -> None:
    towns = [h for h in hexes.values() if h.get("city")]
    for h in towns:
        assert h.get("supply") == h.get("side"), h.get("city")
    assert {h.get("side") for h in towns} == {"german", "soviet"}
    names = [h.get("city") for h in towns]
    assert len(names) == len(set(names))
    for name in ("Moscow", "Kalinin", "Tula", "Smolensk", "Vyazma", "Bryansk", "Orel",
                 "Kaluga", "Rzhev", "Mozhaisk"):
        assert name in names


# -- terrain (2.2, 4.2, 8.0 F) ----------------------------------------------------------------
def test_2_2_terrain_vocabulary(hexes) -> None:
    used = {h.get("terrain") for h in hexes.values()}
    assert used == TERRAINS


# -- rivers and lakes (4.8, 5.0 C, 7.5 C, 8.0 F) ----------------------------------------------
def test_4_8_rivers_form_connected_chains_of_hexsides(board: HexBoard, sides) -> None:
    by_river: dict[str, list[Hexside]] = defaultdict(list)
    for el in sides["river"]:
        for rid in el.get("rivers").split():
            by_river[rid].append(side_of(board, el.get("a"), el.get("b")))
    assert {"volga", "oka", "dnepr", "desna", "moskva", "ugra"} <= set(by_river)
    for rid, chain in by_river.items():
        assert pieces_of(board, chain) <= RIVER_PIECES.get(rid, 1), rid


def test_4_8_D_lake_hexsides_and_a_road_across_one(board: HexBoard, sides) -> None:
    lakes = {side_of(board, el.get("a"), el.get("b")) for el in sides["lake"]}
    roads = {side_of(board, el.get("a"), el.get("b")) for el in sides["road"]}
    assert lakes
    assert lakes & roads, "4.8 D, 7.5 C and 8.0 F speak of a road across a lake hexside"


# -- roads and Soviet entry (4.2 D, 9.0 D, 14.1) ------------------------------------------------
def road_network(board: HexBoard) -> dict[Hex, set[Hex]]:
    net: dict[Hex, set[Hex]] = defaultdict(set)
    for s, feats in board.hexsides.items():
        if "road" in feats:
            net[s.a].add(s.b)
            net[s.b].add(s.a)
    return net


def test_4_2_D_roads_connect_the_cities(board: HexBoard, hexes) -> None:
    net = road_network(board)
    start = board.hex("2808")
    reached = {start}
    queue = deque([start])
    while queue:
        for n in net[queue.popleft()]:
            if n not in reached:
                reached.add(n)
                queue.append(n)
    for hid, h in hexes.items():
        if h.get("city-class") == "city":
            assert board.hex(hid) in reached, h.get("city")


def test_14_1_B_soviet_entry_hexes_are_east_edge_road_hexes(root, board, hexes) -> None:
    east = int(root.get("last-column"))
    net = road_network(board)
    entries = [hid for hid, h in hexes.items() if h.get("entry") == "soviet"]
    assert len(entries) >= 2
    for hid in entries:
        h = hexes[hid]
        assert column(hid) == east
        assert h.get("road-exit") == "east" and h.get("side") == "soviet"
        assert net[board.hex(hid)]
    assert {hid for hid, h in hexes.items() if h.get("road-exit") == "east"} == set(entries)


# -- the generator ----------------------------------------------------------------------------
def test_generator_is_deterministic_and_reproduces_map_xml() -> None:
    gen = load_generator()
    first = gen.to_xml(gen.generate())
    second = gen.to_xml(gen.generate())
    assert first == second
    assert first == MAP_XML.read_bytes(), \
        "map.xml is out of date: run python -m adjudicator.games.moscow.tools.gen_map"


def test_generator_reads_only_the_projects_own_geodata() -> None:
    gen = load_generator()
    geo = ROOT / "adjudicator" / "games" / "moscow" / "tools" / "geodata"
    for path in (gen.RIVERS_FILE, gen.LAKES_FILE):
        assert path.parent == geo and path.exists()
    assert "/shared/" not in Path(gen.__file__).read_text(encoding="utf-8")
    assert (geo / "README.md").exists()


def test_the_extract_writer_keeps_the_committed_geodata(tmp_path: Path) -> None:
    """--extract writes with the map kit's GeoJSON writer: the committed extracts, read
    back and written again, come out byte for byte (credit and all)."""
    from adjudicator.mapgen.geojson import load_features, write_features

    gen = load_generator()
    for path in (gen.RIVERS_FILE, gen.LAKES_FILE):
        feats = [(f["properties"], f["geometry"]) for f in load_features(path)]
        write_features(tmp_path / path.name, feats, gen.MADE_BY)
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name
