"""1941 rules 5.4 rail movement, 14.2 replacements, 15.1-15.2 Hungary and Finland,
17.1.2 Turn 1 rail, 18.2 victory shifts: the rulebook's cases and examples."""

from __future__ import annotations

import pytest

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import HexGrid
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa.hungary_finland import check_finnish_attack, check_hungary
from adjudicator.games.barbarossa.rail import check_rail_capacity, check_rail_path
from adjudicator.games.barbarossa.reinforcements import Eliminated, check_replacements
from adjudicator.games.barbarossa.victory import victory_level

LEVELS = ["Soviet decisive", "Soviet substantial", "Soviet marginal", "German marginal",
          "German substantial", "German decisive"]


def test_5_4_e_axis_rail_capacity_three_corps_or_one_group_or_army() -> None:
    used, finns = 0, 0
    for _ in range(3):
        used, finns = check_rail_capacity("axis", used, "corps", turn=2)
    with pytest.raises(IllegalOrder) as error:
        check_rail_capacity("axis", used, "corps", turn=2)
    assert error.value.rule == "5.4 E"
    assert check_rail_capacity("axis", 0, "army", turn=2) == (3, 0)
    with pytest.raises(IllegalOrder):
        check_rail_capacity("axis", 1, "group", turn=2)


def test_15_2_4_a_one_finnish_rail_move_besides_the_capacity() -> None:
    assert check_rail_capacity("axis", 3, "corps", turn=3, finnish=True) == (3, 1)
    with pytest.raises(IllegalOrder):  # the second Finnish move counts against the capacity
        check_rail_capacity("axis", 3, "corps", turn=3, finnish=True, finnish_used=1)


def test_5_4_e_and_17_1_2_soviet_rail_capacity() -> None:
    used = 0
    for _ in range(8):
        used, _ = check_rail_capacity("soviet", used, "army", turn=2)
    with pytest.raises(IllegalOrder) as error:
        check_rail_capacity("soviet", used, "corps", turn=2)
    assert error.value.rule == "5.4 E"
    used, _ = check_rail_capacity("soviet", 1, "army", turn=1)
    with pytest.raises(IllegalOrder) as error:
        check_rail_capacity("soviet", used, "army", turn=1)
    assert error.value.rule == "17.1.2 B"
    with pytest.raises(IllegalOrder) as error:
        check_rail_capacity("axis", 0, "corps", turn=1)
    assert error.value.rule == "17.1.2 A"


def test_5_4_b_to_d_rail_path() -> None:
    grid = HexGrid("flat", "even", "CCRR")
    line = [grid.from_offset(1, r) for r in range(1, 6)]  # one column: adjacent hexes
    board = HexBoard(grid, dict.fromkeys(line, "clear"))
    rail = lambda a, b: True  # noqa: E731 - the whole column is railroad
    check_rail_path(board, line, rail=rail, friendly=line, enemy_zoc=[])
    for kwargs, rule in ((dict(friendly=line[:4], enemy_zoc=[]), "5.4 B"),
                         (dict(friendly=line, enemy_zoc=[line[2]]), "5.4 D")):
        with pytest.raises(IllegalOrder) as error:
            check_rail_path(board, line, rail=rail, **kwargs)  # type: ignore[arg-type]
        assert error.value.rule == rule
    with pytest.raises(IllegalOrder) as error:
        check_rail_path(board, line, rail=lambda a, b: a != line[1], friendly=line,
                        enemy_zoc=[])
    assert error.value.rule == "5.4 C"


def infantry(n: int, strength: int = 4) -> list[Eliminated]:
    return [Eliminated(f"inf{i}", strength, "infantry") for i in range(n)]


def test_14_2_2_the_two_replacement_options() -> None:
    check_replacements([*infantry(4), Eliminated("tc", 5, "tank corps")], moscow_lost=False)
    check_replacements([*infantry(3), Eliminated("tg", 8, "tank group")], moscow_lost=False)
    with pytest.raises(IllegalOrder) as error:
        check_replacements([*infantry(4), Eliminated("tg", 8, "tank group")],
                           moscow_lost=False)
    assert error.value.rule == "14.2.2 A"


def test_14_2_2_b_only_one_unit_stronger_than_four() -> None:
    with pytest.raises(IllegalOrder) as error:
        check_replacements([*infantry(1, 5), Eliminated("tc", 5, "tank corps")],
                           moscow_lost=False)
    assert error.value.rule == "14.2.2 B"


def test_14_2_4_b_and_20_4_2_fewer_replacements() -> None:
    with pytest.raises(IllegalOrder) as error:
        check_replacements(infantry(4), moscow_lost=True)
    assert error.value.rule == "14.2.4 B"
    check_replacements(infantry(3), moscow_lost=True)
    with pytest.raises(IllegalOrder):
        check_replacements(infantry(3), moscow_lost=False, year_1942=True)
    check_replacements(infantry(1), moscow_lost=True, year_1942=True)


def test_15_1_no_unit_enters_hungary_on_turn_1() -> None:
    with pytest.raises(IllegalOrder) as error:
        check_hungary(1, "hungary")
    assert error.value.rule == "15.1 A"
    check_hungary(2, "hungary")


def test_15_2_2_example_finnish_attacks() -> None:
    """Finns in 0708 and 0809, Soviets in 0707, 0808 and 0910, Leningrad Soviet: 0707 may
    be attacked, 0808 and 0910 may not (south of the Svir / east of the canal)."""
    common = dict(turn=3, across_border=False, german_attacking=False, leningrad_axis=False)
    check_finnish_attack(target="0707", target_limit="", **common)  # type: ignore[arg-type]
    for target, limit in (("0808", "south-of-svir"), ("0910", "east-of-canal")):
        with pytest.raises(IllegalOrder) as error:
            check_finnish_attack(target=target, target_limit=limit, **common)  # type: ignore[arg-type]
        assert error.value.rule == "15.2.2 B"
    check_finnish_attack(target="0808", target_limit="south-of-svir",
                         **{**common, "leningrad_axis": True})  # type: ignore[arg-type]


def test_15_2_2_leningrad_only_with_the_germans_and_nothing_across_the_border_on_turn_1(
        ) -> None:
    with pytest.raises(IllegalOrder):
        check_finnish_attack(turn=3, across_border=False, target="0712", target_limit="",
                             german_attacking=False, leningrad_axis=False)
    check_finnish_attack(turn=3, across_border=False, target="0712", target_limit="",
                         german_attacking=True, leningrad_axis=False)
    with pytest.raises(IllegalOrder) as error:
        check_finnish_attack(turn=1, across_border=True, target="0515", target_limit="",
                             german_attacking=True, leningrad_axis=False)
    assert error.value.rule == "15.2.2 A"


def test_18_2_victory_shifts_and_their_cancelling() -> None:
    assert victory_level(LEVELS, 3, soviet_losses=43, axis_losses=0) == "German substantial"
    assert victory_level(LEVELS, 3, soviet_losses=0, axis_losses=27) == "Soviet marginal"
    assert victory_level(LEVELS, 3, soviet_losses=40, axis_losses=25) == "German marginal"
    assert victory_level(LEVELS, 5, soviet_losses=50, axis_losses=0) == "German decisive"
