"""1941 rule 7.0 combat with 9.0 armor and 10.0 air power: the rulebook's examples."""

from __future__ import annotations

import pytest

from adjudicator.engine.odds import OddsLadder
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa.air import air_shift, check_axis_air, negate_air
from adjudicator.games.barbarossa.combat import Combatant, armor_bonus, total_strength
from adjudicator.games.barbarossa.combat_results import exchange_candidates

# the odds columns the rules' examples use (the printed CRT is module data)
LADDER = OddsLadder.of(["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"])


def unit(name: str, strength: int, armor: bool = False, **kw: object) -> Combatant:
    return Combatant(name, strength, armor, **kw)  # type: ignore[arg-type]


def test_7_4_d_23_to_5_rounds_down_to_4_to_1() -> None:
    assert LADDER.name(LADDER.initial(23, 5)) == "4:1"


def test_7_5_a_three_5_3_units_at_half_strength_attack_with_8() -> None:
    assert total_strength([unit(f"u{i}", 5, halvings=1) for i in range(3)]) == 8


def test_7_5_c_all_halving_before_rounding() -> None:
    # 5 halved twice is 1.25 -> 2, not (5 -> 3) -> 2, and with a 3 halved once: 2.75 -> 3
    assert total_strength([unit("a", 5, halvings=2)]) == 2
    assert total_strength([unit("a", 5, halvings=2), unit("b", 3, halvings=1)]) == 3


def test_7_6_c_forest_shifts_a_6_against_3_from_2_to_1_to_1_to_1() -> None:
    assert LADDER.name(LADDER.final(LADDER.initial(6, 3), -1)) == "1:1"


def test_7_7_6_b_exchange_the_attacker_chooses_among_the_closest() -> None:
    attackers = [unit("6-3", 6), unit("4-3", 4), unit("3-3", 3)]
    assert exchange_candidates(attackers, 5) == ["6-3", "4-3"]


def test_7_7_6_c_no_loss_when_every_attacker_is_three_times_the_loss() -> None:
    assert exchange_candidates([unit("16-6", 16, True), unit("14-6", 14, True)], 4) == []
    # one attacker short of three times: the exchange costs a unit
    assert exchange_candidates([unit("16-6", 16, True), unit("11-6", 11, True)], 4) == ["11-6"]


def test_9_1_armor_bonus_only_armor_against_only_infantry_in_clear_weather_allowing() -> None:
    panzers = [unit("pz", 12, True)]
    rifles = [unit("inf", 4)]
    assert armor_bonus(panzers, rifles, defender_terrain="clear", weather="clear")
    assert not armor_bonus([*panzers, unit("inf", 3)], rifles, defender_terrain="clear",
                           weather="clear")  # 9.1 C
    assert not armor_bonus(panzers, [*rifles, unit("tk", 4, True)], defender_terrain="clear",
                           weather="clear")  # 9.1 D
    assert not armor_bonus(panzers, rifles, defender_terrain="forest", weather="clear")  # E
    for weather in ("mud", "snow"):  # 9.1 F, 13.3 D, 13.5 F
        assert not armor_bonus(panzers, rifles, defender_terrain="clear", weather=weather)


def test_10_2_air_points_shift_the_odds() -> None:
    three_to_one = LADDER.initial(9, 3)
    assert LADDER.name(LADDER.final(three_to_one, air_shift(2, 0))) == "5:1"  # 10.2 A
    assert LADDER.name(LADDER.final(three_to_one, air_shift(0, 2))) == "1:1"  # 10.2 B


def test_10_3_axis_air_only_where_a_german_unit_fights() -> None:
    check_axis_air(2, ["german", "romanian"], ["soviet"])
    check_axis_air(0, ["finnish"], ["soviet"])
    with pytest.raises(IllegalOrder) as refused:
        check_axis_air(1, ["finnish"], ["soviet"])
    assert refused.value.rule == "10.3"


def test_10_4_negation_example_turn_6() -> None:
    assert negate_air(3, 2, 2) == (1, 0)
    with pytest.raises(IllegalOrder):
        negate_air(3, 2, 3)


def test_11_0_d_fortification_doubles_defending_infantry() -> None:
    assert total_strength([unit("inf", 4, doubled=True), unit("tk", 5, True)]) == 13
