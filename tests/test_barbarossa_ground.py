"""1941 rules 3.0 stacking, 7.8 retreat, 8.0 supply, 9.2 German armor and 16.0
surrender, on a small open board."""

from __future__ import annotations

import pytest

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, HexGrid, Hexside
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa.combat_results import RetreatMap, retreat_hexes
from adjudicator.games.barbarossa.stacking import Stacked, check_stacking, stacking_problem
from adjudicator.games.barbarossa.supply import SupplyMap, in_supply, rail_supplied
from adjudicator.games.barbarossa.surrender import surrenders
from adjudicator.games.barbarossa.vocabulary import UnitSize

ARMY, CORPS, GROUP = UnitSize.ARMY, UnitSize.CORPS, UnitSize.GROUP

GRID = HexGrid("flat", "even", "CCRR")


def h(label: str) -> Hex:
    return GRID.parse(label)


HEXES = frozenset(GRID.from_offset(c, r) for c in range(1, 13) for r in range(1, 9))
# a railroad along row 04, from 0104 to 1204 (the supply source)
RAIL = frozenset(Hexside.between(GRID.from_offset(c, 4), GRID.from_offset(c + 1, 4))
                 for c in range(1, 12))


@pytest.fixture(scope="module")
def board() -> HexBoard:
    """Columns 01-12, rows 01-08, all clear, with the railroad."""
    return HexBoard(GRID, dict.fromkeys(HEXES, "clear"), dict.fromkeys(RAIL, frozenset({"rail"})))


def units(*sizes: str) -> list[Stacked]:
    return [Stacked(f"u{i}", s) for i, s in enumerate(sizes)]


@pytest.mark.parametrize("sizes", [(GROUP,), (ARMY,), (CORPS,), (CORPS, CORPS)])
def test_3_0_c_the_german_stacks_allowed(sizes: tuple[str, ...]) -> None:
    assert stacking_problem("axis", units(*sizes), fortification=False) is None


@pytest.mark.parametrize("sizes", [(CORPS, GROUP), (ARMY, CORPS), (CORPS,) * 3])
def test_3_0_b_more_than_two_corps_is_overstacked(sizes: tuple[str, ...]) -> None:
    with pytest.raises(IllegalOrder) as refused:
        check_stacking("axis", units(*sizes), "0303", fortification=False)
    assert refused.value.rule == "3.3 A"


@pytest.mark.parametrize("sizes", [(CORPS, CORPS), (CORPS, GROUP), (CORPS, ARMY), (ARMY,)])
def test_3_0_soviet_one_unit_of_any_size_plus_one_corps(sizes: tuple[str, ...]) -> None:
    assert stacking_problem("soviet", units(*sizes), fortification=False) is None


def test_3_0_and_11_0_c_soviet_limits_and_the_fortification_exception() -> None:
    assert stacking_problem("soviet", units(ARMY, ARMY), fortification=False)
    assert stacking_problem("soviet", units(ARMY, GROUP), fortification=True) is None
    with pytest.raises(IllegalOrder) as refused:
        check_stacking("soviet", units(ARMY, ARMY, CORPS), "0713", fortification=True)
    assert refused.value.rule == "11.0 C"
    # 11.0 B: the Axis get no stacking benefit from a fortifications hex
    assert stacking_problem("axis", units(ARMY, CORPS), fortification=True)


def test_7_8_retreat_priorities_and_elimination(board: HexBoard) -> None:
    start = h("0604")
    around = board.neighbours(start)
    enemy_zoc = frozenset(around[:4])
    friendly = frozenset({around[0]})
    terrain = RetreatMap(lambda a, b: False, frozenset(), enemy_zoc, friendly)
    # 7.8.1: zone-free hexes first, then an enemy-ZOC hex a friendly unit holds
    assert retreat_hexes(board, start, terrain) == [around[4:], [around[0]]]
    # 7.8.2 B: nowhere to go -> eliminated; 9.2 B: German armor may enter an open EZOC
    trapped = RetreatMap(lambda a, b: False, frozenset(around[4:]), frozenset(around[:4]),
                         frozenset())
    assert retreat_hexes(board, start, trapped) == []
    assert retreat_hexes(board, start, trapped, german_armor=True) == [around[:4]]


def supply_map(**changes: object) -> SupplyMap:
    base: dict[str, object] = dict(
        sources=frozenset({h("1204")}), rail=lambda a, b: Hexside.between(a, b) in RAIL,
        prohibited=lambda a, b: False, enemy=frozenset(), enemy_zoc=frozenset(),
        friendly_units=frozenset(), friendly_territory=HEXES)
    base.update(changes)
    return SupplyMap(**base)  # type: ignore[arg-type]


def test_8_1_a_three_hexes_to_a_railroad_leading_to_a_source(board: HexBoard) -> None:
    supply = supply_map()
    railheads = rail_supplied(board, supply)
    assert h("0104") in railheads  # the whole line is joined to the source at 1204
    assert in_supply(board, h("0107"), supply, railheads)  # three hexes to 0104
    assert not in_supply(board, h("0108"), supply, railheads)  # four


def test_8_1_b_enemy_zones_block_unless_a_friendly_unit_is_there(board: HexBoard) -> None:
    wall = frozenset(GRID.from_offset(c, 5) for c in range(1, 13))
    supply = supply_map(enemy_zoc=wall)
    railheads = rail_supplied(board, supply)
    assert not in_supply(board, h("0106"), supply, railheads)
    held = supply_map(enemy_zoc=wall, friendly_units=frozenset({h("0105")}))
    assert in_supply(board, h("0106"), held, rail_supplied(board, held))
    # 9.2 A: German armor traces the non-rail part through enemy zones
    assert in_supply(board, h("0106"), supply, railheads, through_zoc=True)


def test_8_1_c_the_rail_part_stays_in_friendly_territory_out_of_enemy_zones(
        board: HexBoard) -> None:
    cut = supply_map(enemy_zoc=frozenset({h("0704")}))
    railheads = rail_supplied(board, cut)
    assert h("0804") in railheads and h("0604") not in railheads
    lost = supply_map(friendly_territory=frozenset(x for x in HEXES
                                                   if GRID.to_offset(x)[0] != 9))
    assert h("0804") not in rail_supplied(board, lost)


def test_13_3_c_mud_shortens_the_axis_supply_line_to_one_hex(board: HexBoard) -> None:
    supply = supply_map()
    railheads = rail_supplied(board, supply)
    assert in_supply(board, h("0105"), supply, railheads, length=1)
    assert not in_supply(board, h("0106"), supply, railheads, length=1)


def test_16_0_a_an_unsupplied_soviet_unit_surrenders_far_from_supplied_friends() -> None:
    assert not surrenders(h("0101"), True, [])
    assert surrenders(h("0101"), False, [h("0701")])  # six hexes away
    assert not surrenders(h("0101"), False, [h("0601")])  # five
