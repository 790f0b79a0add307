"""Hex boards: terrain, hexside features, movement with rule-supplied costs, traces."""

from __future__ import annotations

import pytest

from adjudicator.engine.hexboard import HexBoard, PathError
from adjudicator.engine.hexgrid import Hex, HexGrid, Hexside

GRID = HexGrid(orientation="flat", shifted="even", numbering="CCRR")
COSTS = {"clear": 1, "forest": 2, "swamp": 3}


def board() -> HexBoard:
    """Columns 01-05, rows 01-05: clear, with a forest at 0302, a swamp at 0303, a lake
    at 0203, and a river on the hexside 0202/0302."""
    terrain = {GRID.from_offset(c, r): "clear" for c in range(1, 6) for r in range(1, 6)}
    terrain[GRID.parse("0302")] = "forest"
    terrain[GRID.parse("0303")] = "swamp"
    terrain[GRID.parse("0203")] = "lake"
    river = Hexside.between(GRID.parse("0202"), GRID.parse("0302"))
    return HexBoard(GRID, terrain, {river: frozenset({"river"})})


def cost(b: HexBoard):  # noqa: ANN201 - a StepCost
    """A TEC in miniature: terrain cost, +2 across a river, lakes closed."""

    def step(here: Hex, there: Hex) -> int | None:
        kind = b.terrain[there]
        if kind == "lake":
            return None
        return COSTS[kind] + (2 if "river" in b.features(here, there) else 0)

    return step


def labels(steps) -> list[tuple[str, int]]:  # noqa: ANN001
    return [(GRID.label(s.hex), s.cost) for s in steps]


def test_a_written_path_reports_the_points_spent_in_every_hex() -> None:
    b = board()
    path = [b.hex(x) for x in ("0202", "0302", "0303")]
    assert labels(b.check_path(path, cost(b))) == [("0302", 4), ("0303", 3)]


@pytest.mark.parametrize("path, index, words", [
    (["0202", "0404"], 1, "not next to"),
    (["0202", "0203"], 1, "cannot be entered"),
])
def test_a_wrong_path_says_which_hex(path: list[str], index: int, words: str) -> None:
    b = board()
    with pytest.raises(PathError, match=words) as err:
        b.check_path([b.hex(x) for x in path], cost(b))
    assert err.value.index == index


def test_off_map_hexes_are_refused() -> None:
    b = board()
    with pytest.raises(ValueError, match="not on the map"):
        b.hex("0909")
    assert GRID.parse("0909") not in b


def test_cheapest_path_goes_around_the_river_and_the_lake() -> None:
    b = board()
    route = b.cheapest_path(b.hex("0202"), b.hex("0302"), cost(b))
    assert route is not None and sum(s.cost for s in route) == 3  # 1 + forest 2, not 2 + 2
    assert len(route) == 2 and route == b.cheapest_path(b.hex("0202"), b.hex("0302"), cost(b))
    assert b.cheapest_path(b.hex("0202"), b.hex("0203"), cost(b)) is None
    assert b.cheapest_path(b.hex("0101"), b.hex("0505"), cost(b), budget=3) is None


def test_movement_costs_within_a_budget() -> None:
    b = board()
    reach = b.movement_costs(b.hex("0101"), cost(b), budget=2)
    assert reach[b.hex("0101")] == 0 and reach[b.hex("0102")] == 1
    assert all(v <= 2 for v in reach.values())
    assert b.hex("0203") not in reach


def test_a_trace_with_a_length_limit_and_a_blocking_rule() -> None:
    b = board()
    reach = b.trace([b.hex("0101")], lambda a, z: b.terrain[z] != "lake", max_length=2)
    assert max(reach.values()) == 2 and b.hex("0203") not in reach
    assert b.trace([GRID.parse("0909")], lambda a, z: True) == {}


def test_hexsides_must_touch_map_hexes() -> None:
    side = Hexside.between(GRID.parse("0909"), GRID.parse("0910"))
    with pytest.raises(ValueError, match="not on the map"):
        HexBoard(GRID, {GRID.parse("0101"): "clear"}, {side: frozenset({"river"})})


def test_a_hex_map_loads_from_module_data() -> None:
    from lxml import etree

    from adjudicator.engine.module import load_module
    from adjudicator.errors import ModuleError

    anything = etree.RelaxNG(etree.fromstring(b"""
      <grammar xmlns="http://relaxng.org/ns/structure/1.0">
        <start><ref name="any"/></start>
        <define name="any"><element><anyName/><zeroOrMore><choice>
          <attribute><anyName/></attribute><text/><ref name="any"/>
        </choice></zeroOrMore></element></define>
      </grammar>"""))
    data = b"""<module xmlns="urn:pbem:module:1" game="toy" version="1">
      <map kind="hexes"><grid orientation="flat" shifted="even" numbering="CCRR"/>
        <hex id="2621" terrain="clear"/><hex id="2620" terrain="forest"/>
        <hex id="2522" terrain="city"/>
        <hexside a="2621" b="2620" features="river"/><hexside a="2620" b="2621" features="road"/>
      </map></module>"""
    b = load_module(data, anything).hex_board()
    assert b.terrain[b.hex("2620")] == "forest"
    assert b.features(b.hex("2620"), b.hex("2621")) == {"river", "road"}
    with pytest.raises(ModuleError, match="not adjacent"):
        load_module(data.replace(b'b="2620" features="river"', b'b="2720" features="river"'),
                    anything).hex_board()
