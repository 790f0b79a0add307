"""1941 rule 5.0 (movement) and 6.0 (zones of control), on the reconstructed map and
the rulebook's own example of 6.2."""

from __future__ import annotations

import pytest

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.module import load_module
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa.movement import check_move
from adjudicator.games.barbarossa.zoc import EnemyZones, Unit, zone_of_control
from tests.test_barbarossa_map import ANYTHING, MAP_XML


def load_board() -> HexBoard:
    inner = MAP_XML.read_bytes().split(b"?>", 1)[-1]
    data = (b'<module xmlns="urn:pbem:module:1" game="barbarossa" version="0">'
            + inner + b"</module>")
    return load_module(data, ANYTHING, expected_game="barbarossa").hex_board()


@pytest.fixture(scope="module")
def board() -> HexBoard:
    return load_board()


def at(board: HexBoard, label: str) -> Hex:
    return board.hex(label)


def clear_costs(unit: Unit, here: Hex, there: Hex) -> int:
    return 1  # every hex of these examples is clear (the TEC's clear cost)


def soviet(board: HexBoard, *placements: tuple[str, bool]) -> EnemyZones:
    return EnemyZones.of(board, [Unit(f"SOV-{i}", "soviet", at(board, h), armor)
                                 for i, (h, armor) in enumerate(placements)])


def path(board: HexBoard, *labels: str) -> list[Hex]:
    return [at(board, x) for x in labels]


def test_6_2_example_panzer_group_moves_from_zoc_to_zoc_for_3_mps(board: HexBoard) -> None:
    """A panzer group in 2621, Soviet infantry armies in 2522 and 2720: 2621 -> 2620
    costs 3 MPs (1 for clear, 2 for leaving one enemy ZOC straight into another)."""
    panzer = Unit("GER-PzGr2", "axis", at(board, "2621"), armor=True)
    enemy = soviet(board, ("2522", False), ("2720", False))
    steps = check_move(board, panzer, path(board, "2621", "2620"), 6, clear_costs, enemy)
    assert [s.cost for s in steps] == [3]


@pytest.mark.parametrize("tanks", [("2522",), ("2720",), ("2522", "2720")])
def test_6_2_example_forbidden_when_soviet_tanks_are_there(board: HexBoard,
                                                           tanks: tuple[str, ...]) -> None:
    panzer = Unit("GER-PzGr2", "axis", at(board, "2621"), armor=True)
    enemy = soviet(board, *((h, h in tanks) for h in ("2522", "2720")))
    with pytest.raises(IllegalOrder) as refused:
        check_move(board, panzer, path(board, "2621", "2620"), 6, clear_costs, enemy)
    assert refused.value.rule == "6.2 B" and "armor-type" in refused.value.message


def test_6_1_a_infantry_stops_on_entering_an_enemy_zone(board: HexBoard) -> None:
    infantry = Unit("GER-IX", "axis", at(board, "2621"), armor=False)
    enemy = soviet(board, ("2720", False))  # its zone: 2619 2620 2719 2721 2819 2820
    assert at(board, "2721") in enemy.any and at(board, "2621") not in enemy.any
    with pytest.raises(IllegalOrder) as refused:
        check_move(board, infantry, path(board, "2621", "2721", "2722"), 6, clear_costs,
                   enemy)
    assert refused.value.rule == "6.1 A"
    # stopping there is fine
    check_move(board, infantry, path(board, "2621", "2721"), 6, clear_costs, enemy)


def test_6_1_b_infantry_leaves_a_zone_but_not_straight_into_another(board: HexBoard) -> None:
    infantry = Unit("GER-IX", "axis", at(board, "2621"), armor=False)
    enemy = soviet(board, ("2522", False), ("2720", False))
    with pytest.raises(IllegalOrder) as refused:
        check_move(board, infantry, path(board, "2621", "2620"), 6, clear_costs, enemy)
    assert refused.value.rule == "6.1 B"  # the 6.2 example's move, for infantry
    # leaving for a hex in no enemy zone is allowed (2622 is next to neither army)
    assert at(board, "2722") not in enemy.any
    check_move(board, infantry, path(board, "2621", "2722"), 6, clear_costs, enemy)


def test_5_0_e_never_into_an_enemy_hex_and_5_0_d_not_past_the_allowance(
        board: HexBoard) -> None:
    infantry = Unit("GER-IX", "axis", at(board, "2621"), armor=False)
    enemy = soviet(board, ("2522", False))
    with pytest.raises(IllegalOrder) as refused:
        check_move(board, infantry, path(board, "2621", "2522"), 6, clear_costs, enemy)
    assert refused.value.rule == "5.0 E"
    far = path(board, "2621", "2620", "2619", "2618", "2617")  # up one column, zone-free
    with pytest.raises(IllegalOrder) as refused:
        check_move(board, infantry, far, 3, clear_costs, enemy)
    assert refused.value.rule == "5.0 D"


def test_6_0_b_no_zone_across_the_unfrozen_all_sea_hexside_0712_0713(board: HexBoard) -> None:
    """Leningrad (0712) and 0713 share an all-sea hexside (20.1.1): no ZOC across it,
    unless frozen (13.5 C)."""
    leningrad = Unit("SOV-Len", "soviet", at(board, "0712"), armor=False)
    assert at(board, "0713") not in zone_of_control(board, leningrad)
    assert at(board, "0713") in zone_of_control(board, leningrad, frozen=lambda a, b: True)
