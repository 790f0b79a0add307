"""The reconstructed area map of Leningrad '41 (games/leningrad/data/map.xml, rule 2.0).

The printed map is not available; these tests pin every fact the rulebook states about
it (rule numbers in the test names), the properties the reconstruction promises
(MAP-README.md), and that tools/gen_map.py writes the committed file exactly.
"""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest
from lxml import etree

from adjudicator.engine.module import MODULE_NS, load_module

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "adjudicator" / "games" / "leningrad" / "data"
M = f"{{{MODULE_NS}}}"
CODES = ({str(n) for n in range(1, 154)} | {"F", "G1", "G2", "G3", "G4"}
         | {f"S{n}" for n in range(1, 13)} | {"H", "K", "T", "O", "L"})
ANYTHING = etree.RelaxNG(etree.fromstring(b"""
  <grammar xmlns="http://relaxng.org/ns/structure/1.0">
    <start><ref name="any"/></start>
    <define name="any"><element><anyName/><zeroOrMore><choice>
      <attribute><anyName/></attribute><text/><ref name="any"/>
    </choice></zeroOrMore></element></define>
  </grammar>"""))


@pytest.fixture(scope="module")
def root() -> etree._Element:
    return etree.parse(str(DATA / "map.xml")).getroot()


@pytest.fixture(scope="module")
def areas(root: etree._Element) -> dict[str, etree._Element]:
    return {a.get("id"): a for a in root.findall(f"{M}area")}


@pytest.fixture(scope="module")
def adj(root: etree._Element) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for e in root.findall(f"{M}adjacent"):
        out.setdefault(e.get("a"), set()).add(e.get("b"))
        out.setdefault(e.get("b"), set()).add(e.get("a"))
    return out


def _edge(root: etree._Element, a: str, b: str) -> etree._Element | None:
    for e in root.findall(f"{M}adjacent"):
        if {e.get("a"), e.get("b")} == {a, b}:
            return e
    return None


def _distances(adj: dict[str, set[str]], start: str) -> dict[str, int]:
    dist, todo = {start: 0}, deque([start])
    while todo:
        a = todo.popleft()
        for b in sorted(adj.get(a, ())):
            if b not in dist:
                dist[b] = dist[a] + 1
                todo.append(b)
    return dist


def _extent(area: etree._Element) -> tuple[float, float, float, float]:
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", area.find(f"{M}shape").get("d"))]
    xs, ys = nums[0::2], nums[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def _shore(root: etree._Element, water: str) -> set[str]:
    el = root.find(f"{M}water[@id='{water}']")
    return {s.get("area") for s in el.findall(f"{M}shore")}


# ---- the file itself

def test_map_validates_against_its_schema() -> None:
    schema = etree.RelaxNG(etree.parse(str(DATA / "map.rng")))
    assert schema.validate(etree.parse(str(DATA / "map.xml"))), schema.error_log


def test_generator_writes_the_committed_map() -> None:
    from adjudicator.games.leningrad.tools import features, gen_map
    xml = features.render(gen_map.build(), gen_map.WRITTEN_BY, gen_map.FRAME)
    assert xml == (DATA / "map.xml").read_bytes(), "run tools/gen_map.py and commit map.xml"


def test_engine_reads_the_map_as_an_area_board() -> None:
    inner = (DATA / "map.xml").read_bytes().split(b"?>", 1)[-1]
    data = b'<module xmlns="urn:pbem:module:1" game="leningrad" version="0">' + inner + b"</module>"
    board = load_module(data, ANYTHING, expected_game="leningrad").area_board()
    assert set(board) == CODES
    assert board.adjacent("L", "64")
    # 10.11: the Air Range may be traced over Lake Ilmen and Pejpus (shore to shore)
    assert "116" in board.neighbours("95", kinds=("ilmen",))
    assert "93" in board.neighbours("88", kinds=("pejpus",))
    assert not board.adjacent("88", "93")


def test_the_game_is_not_listed_yet() -> None:
    package = DATA.parent
    assert not (DATA / "module.xml").exists() and not (DATA / "build.xml").exists()
    assert not (package / "__init__.py").exists()


# ---- 2.0 the areas

def test_2_0_has_175_areas_with_the_printed_codes(areas: dict[str, etree._Element]) -> None:
    assert len(areas) == 175
    assert set(areas) == CODES


def test_2_0_five_baltic_ports(areas: dict[str, etree._Element]) -> None:
    assert {c for c, a in areas.items() if a.get("port") == "true"} == {"H", "K", "T", "O", "L"}


def test_2_0_logo_corner_is_no_area(root: etree._Element, areas: dict[str, etree._Element]) -> None:
    width, height = int(root.get("width")), int(root.get("height"))
    for code, area in areas.items():
        x0, y0, x1, y1 = _extent(area)
        corner_x, corner_y = width - 100, height - 130
        assert not (x0 >= corner_x and y0 >= corner_y), code


def test_2_0_every_area_has_a_dot(areas: dict[str, etree._Element]) -> None:
    assert {a.get("dot") for a in areas.values()} == {"green", "yellow", "red", "victory"}


def test_every_label_lies_in_its_own_area(areas: dict[str, etree._Element]) -> None:
    from adjudicator.mapgen.geometry import point_in_polygon
    for code, area in areas.items():
        rings = [[(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+) (-?[\d.]+)", part)]
                 for part in area.find(f"{M}shape").get("d").split("M")[1:]]
        label = (float(area.get("label-x")), float(area.get("label-y")))
        assert sum(point_in_polygon(label, ring) for ring in rings) % 2 == 1, code


def test_adjacency_is_symmetric_connected_and_without_loops(root: etree._Element,
                                                            adj: dict[str, set[str]]) -> None:
    pairs = [(e.get("a"), e.get("b")) for e in root.findall(f"{M}adjacent")]
    assert all(a != b for a, b in pairs)
    assert len({frozenset(p) for p in pairs}) == len(pairs)
    assert set(_distances(adj, "L")) == CODES


# ---- 2.1 supply sources

def test_2_1_twelve_soviet_supply_sources_on_the_red_border(
        root: etree._Element, areas: dict[str, etree._Element]) -> None:
    width, height = int(root.get("width")), int(root.get("height"))
    soviet = {c for c, a in areas.items() if a.get("supply") == "soviet"}
    assert soviet == {f"S{n}" for n in range(1, 13)}
    for code in soviet:
        x0, y0, x1, y1 = _extent(areas[code])
        assert x1 >= width - 1 or y0 <= 1 or y1 >= height - 1, code
    on_east_edge = {c for c, a in areas.items() if _extent(a)[2] >= width - 1}
    assert on_east_edge <= soviet


def test_2_1_five_axis_supply_sources(areas: dict[str, etree._Element]) -> None:
    assert {c for c, a in areas.items() if a.get("supply") == "axis"} == {
        "F", "G1", "G2", "G3", "G4"}


def test_2_1_note_g4_is_soviet_at_the_campaign_start(areas: dict[str, etree._Element]) -> None:
    assert areas["G4"].get("campaign") == "soviet"
    assert areas["G4"].get("name") == "Velikiye Luki"


def test_2_1_1_baltic_coastal_areas(areas: dict[str, etree._Element]) -> None:
    coastal = {c for c, a in areas.items() if "baltic" in (a.get("coast") or "").split()}
    assert {"H", "K", "T", "O", "L", "53", "54", "58", "108"} <= coastal
    assert not coastal & {"64", "93", "79", "95", "70", "146"}


# ---- 2.2 special boxes

def test_2_2_trail_to_murmansk_has_ten_boxes_from_petsamo_to_murmansk(root: etree._Element) -> None:
    trail = sorted(root.findall(f"{M}box[@kind='trail']"), key=lambda b: int(b.get("order")))
    assert [int(b.get("order")) for b in trail] == list(range(1, 11))
    assert trail[0].get("name") == "Petsamo" and trail[-1].get("name") == "Murmansk"
    assert trail[-1].get("victory") == "true"


def test_2_5_nine_trail_boxes_are_soviet_at_the_start(root: etree._Element) -> None:
    sides = [b.get("campaign") for b in root.findall(f"{M}box[@kind='trail']")]
    assert sides.count("soviet") == 9 and sides.count("axis") == 1


def test_2_2_leaders_boxes_and_velikiye_luki(root: etree._Element) -> None:
    leaders = {b.get("name"): b.get("side") for b in root.findall(f"{M}box[@kind='leader']")}
    assert leaders == {"Rastenburg": "axis", "Moscow": "soviet"}
    assert root.find(f"{M}box[@id='velikiye-luki']") is not None


def test_scenario_3_titovka_is_a_trail_box(root: etree._Element) -> None:
    assert root.find(f"{M}box[@name='Titovka']").get("kind") == "trail"


# ---- 2.4 terrain

def test_2_4_the_four_named_lakes_and_their_shores(root: etree._Element) -> None:
    lakes = {w.get("id") for w in root.findall(f"{M}water[@kind='lake']")}
    assert lakes == {"ladoga", "onega", "pejpus", "ilmen"}
    assert {"67", "68", "69", "42"} <= _shore(root, "ladoga")
    assert "95" in _shore(root, "ilmen") and "93" in _shore(root, "pejpus")
    assert "30" in _shore(root, "onega")


def test_2_4_4_six_victory_areas(areas: dict[str, etree._Element]) -> None:
    victory = {a.get("name") for a in areas.values() if a.get("victory") == "true"}
    assert victory == {"Riga", "Tallinn", "Novgorod", "Ostashkov", "Tikhvin", "Leningrad"}
    assert all(a.get("dot") == "victory" for a in areas.values() if a.get("victory"))


def test_2_4_4_2_campaign_start_victory_points(areas: dict[str, etree._Element]) -> None:
    axis = {a.get("name") for a in areas.values()
            if a.get("victory") and a.get("campaign") == "axis"}
    assert axis == {"Riga"}  # 1 VP; the Soviets 5 areas + Murmansk = 6


def test_2_4_5_four_german_staging_areas(areas: dict[str, etree._Element]) -> None:
    assert {c for c, a in areas.items() if a.get("staging") == "true"} == {"G1", "G2", "G3", "G4"}
    assert areas["F"].get("staging") is None and areas["F"].get("city") == "Helsinki"


def test_2_4_7_rivers_border_areas(root: etree._Element) -> None:
    rivers = {e.get("river") for e in root.findall(f"{M}adjacent") if e.get("river")}
    assert {"daugava", "neva", "svir", "volkhov", "luga", "velikaya"} <= rivers


def test_2_4_8_three_double_arrows_join_the_baltic_islands(root: etree._Element,
                                                          adj: dict[str, set[str]]) -> None:
    arrows = {frozenset((e.get("a"), e.get("b"))) for e in root.findall(f"{M}adjacent")
              if e.get("arrow") == "true"}
    assert arrows == {frozenset(p) for p in (("53", "K"), ("53", "54"), ("54", "K"))}
    assert adj["53"] == {"K", "54"} and adj["K"] == {"53", "54"}


# ---- 2.5 area control

def test_2_5_campaign_start_133_soviet_areas(areas: dict[str, etree._Element]) -> None:
    soviet = [c for c, a in areas.items() if a.get("campaign") == "soviet"]
    assert len(soviet) == 133


def test_2_5_axis_controls_finland_g1_g3_and_west_of_the_daugava(
        areas: dict[str, etree._Element]) -> None:
    axis = {c for c, a in areas.items() if a.get("campaign") == "axis"}
    finland = {c for c, a in areas.items() if a.get("region") == "fi"} - {"H"}
    west = {c for c, a in areas.items() if a.get("region") == "lvw"}
    assert axis == finland | west | {"G1", "G2", "G3"}
    assert areas["H"].get("campaign") == "soviet"


def test_2_5_the_start_line_runs_along_the_daugava(root: etree._Element,
                                                   areas: dict[str, etree._Element]) -> None:
    front = root.find(f"{M}front[@id='campaign']")
    latvia = [(b.get("a"), b.get("b")) for b in front.findall(f"{M}between")
              if "lvw" in (areas[b.get("a")].get("region"), areas[b.get("b")].get("region"))]
    assert latvia and all(_edge(root, a, b).get("river") == "daugava" for a, b in latvia)


# ---- 2.7 Finnish Attack Zone

def test_2_7_faz_north_of_the_svir_and_west_of_s1(areas: dict[str, etree._Element],
                                                  root: etree._Element) -> None:
    faz = {c for c, a in areas.items() if a.get("faz") == "true"}
    assert {"6", "37", "40", "13", "28", "41", "42", "45", "46", "30", "48"} <= faz
    assert not faz & {"S1", "43", "44", "69", "L", "O"}
    assert _edge(root, "42", "43").get("river") == "svir"


# ---- 2.9 the terrain chart

def test_2_9_terrain_chart(root: etree._Element) -> None:
    chart = {t.get("id"): (int(t.get("absorb")), int(t.get("stacking")), int(t.get("mp")))
             for t in root.findall(f"{M}terrain")}
    assert chart == {"green": (0, 4, 1), "yellow": (1, 2, 2), "red": (2, 2, 3),
                     "victory": (2, 2, 2)}


# ---- areas the rulebook names

def test_10_7_mikkeli_is_area_6(areas: dict[str, etree._Element]) -> None:
    assert areas["6"].get("name") == "Mikkeli" and areas["6"].get("placed") == "rulebook"


def test_10_13_2_vyborg_has_a_city_and_area_40_none_both_rough_in_the_faz(
        areas: dict[str, etree._Element]) -> None:
    vyborg = next(a for a in areas.values() if a.get("name") == "Vyborg")
    assert vyborg.get("city") and vyborg.get("dot") in ("yellow", "red")
    assert areas["40"].get("city") is None and areas["40"].get("dot") in ("yellow", "red")
    assert vyborg.get("faz") == areas["40"].get("faz") == "true"


def test_10_15_1_luga_is_a_yellow_area_with_a_city(areas: dict[str, etree._Element]) -> None:
    luga = next(a for a in areas.values() if a.get("name") == "Luga")
    assert luga.get("dot") == "yellow" and luga.get("city") == "Luga"


def test_10_3_manstein_from_114_to_111_and_93_out_of_two_areas(adj: dict[str, set[str]]) -> None:
    assert "111" in adj["114"]
    assert _distances(adj, "111")["93"] > 2


def test_named_places_exist(areas: dict[str, etree._Element]) -> None:
    names = {a.get("name") for a in areas.values()}
    assert {"Pushkin", "Luga", "Narva", "Pskov", "Petrosavodsk", "Vyborg", "Oranienbaum",
            "Hanko", "Tallinn", "Riga", "Novgorod", "Velikiye Luki"} <= names


def test_9_3_and_14_4_pushkin_borders_leningrad(areas: dict[str, etree._Element],
                                               adj: dict[str, set[str]]) -> None:
    pushkin = next(c for c, a in areas.items() if a.get("name") == "Pushkin")
    assert pushkin in adj["L"] and areas[pushkin].get("city")


def test_14_1_islands_are_53_and_k_beside_54(areas: dict[str, etree._Element]) -> None:
    assert areas["53"].get("name") == "Hiiumaa" and areas["K"].get("name") == "Saaremaa"


def test_14_2_white_harbours(areas: dict[str, etree._Element]) -> None:
    white = {a.get("harbour-name"): c for c, a in areas.items() if a.get("harbour") == "white"}
    assert white == {"Leningrad": "L", "Oranienbaum": "O", "Hanko": "H", "Tallinn": "T",
                     "Kuressaare": "K"}
    assert areas["53"].get("harbour") is None  # the example: Hiiumaa has no harbour


def test_14_3_six_neva_bay_coastal_areas(areas: dict[str, etree._Element],
                                        root: etree._Element) -> None:
    bay = {c for c, a in areas.items() if "neva-bay" in (a.get("coast") or "").split()}
    assert bay == {"45", "47", "L", "63", "62", "O"} == _shore(root, "neva-bay")


def test_14_4_blue_harbours_on_the_ladoga(areas: dict[str, etree._Element],
                                         root: etree._Element) -> None:
    blue = {a.get("harbour-name"): c for c, a in areas.items() if a.get("harbour") == "blue"}
    assert set(blue) == {"Kobona", "Sjas'stroj'", "Sviritsa"}
    assert set(blue.values()) <= _shore(root, "ladoga")


def test_10_10_white_bordered_s1_to_s4(areas: dict[str, etree._Element]) -> None:
    assert {c for c, a in areas.items() if a.get("white-border")} == {"S1", "S2", "S3", "S4"}


# ---- the reconstruction

def test_reconstructed_facts_are_marked(root: etree._Element,
                                        areas: dict[str, etree._Element]) -> None:
    assert root.get("source") == "reconstructed"
    assert all(a.get("source") == "reconstructed" for a in areas.values())
    assert all(e.get("source") for e in root.findall(f"{M}adjacent"))
    placed = {c for c, a in areas.items() if a.get("placed") == "rulebook"}
    assert {"6", "53", "K", "45", "47", "L", "63", "62", "O", "64", "79", "93"} <= placed
    readme = (DATA / "MAP-README.md").read_text(encoding="utf-8").lower()
    for fact in ("seeds", "dots", "cities", "rivers", "trail to murmansk", "icons", "scale"):
        assert fact in readme


def test_scenario_fronts_cut_the_map_in_two(root: etree._Element) -> None:
    for front in ("campaign", "in-sight", "ring"):
        assert root.find(f"{M}front[@id='{front}']").findall(f"{M}between")


def test_preview_draws_every_area() -> None:
    from adjudicator.games.leningrad.tools.features import preview_svg
    svg = preview_svg((DATA / "map.xml").read_bytes())
    assert svg.count("<path d=") >= 175 and svg.count("<text ") == 175
