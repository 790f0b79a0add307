"""Odds combat (adjudicator/engine/odds.py), pinned by the rulebooks' worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.engine.odds import CombatTable, OddsLadder, halved, ratio_value

# Column headings only (the printed CRTs are not in the rulebooks).
LADDER_1941 = OddsLadder.of(["1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1"])
LADDER_MOSCOW = OddsLadder.of(["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1",
                               "9-1", "10-1"])


def column(ladder: OddsLadder, attack: int, defence: int, shift: int = 0) -> str:
    return ladder.name(ladder.final(ladder.initial(attack, defence), shift))


def test_1941_7_4_d_23_to_5_rounds_down_to_4_to_1() -> None:
    assert column(LADDER_1941, 23, 5) == "4:1"


def test_1941_7_6_c_forest_shifts_2_to_1_to_1_to_1() -> None:
    assert column(LADDER_1941, 6, 3) == "2:1"
    assert column(LADDER_1941, 6, 3, shift=-1) == "1:1"


def test_1941_7_5_a_halving_rounds_up_after_all_halvings() -> None:
    assert halved(15) == 8
    assert halved(15, times=2) == 4  # 15 / 4 = 3.75, cumulative, then rounded up


def test_moscow_8_5_initial_ratio_8_to_4_is_2_to_1() -> None:
    assert column(LADDER_MOSCOW, 8, 4) == "2-1"


def test_moscow_8_8_rounding_11_against_4_is_2_to_1() -> None:
    assert column(LADDER_MOSCOW, 11, 4) == "2-1"


def test_moscow_8_7_final_ratio_11_to_1_uses_10_to_1() -> None:
    assert column(LADDER_MOSCOW, 11, 1) == "10-1"


def test_moscow_8_7_a_shifts_count_from_the_initial_ratio_off_the_table() -> None:
    # 13:1 shifted two columns left is 11:1, still off the table: the 10-1 column.
    assert column(LADDER_MOSCOW, 13, 1, shift=-2) == "10-1"
    # 14:1 shifted four left is 10:1; 1:4 shifted two right is 1:2.
    assert column(LADDER_MOSCOW, 14, 1, shift=-4) == "10-1"
    assert column(LADDER_MOSCOW, 1, 4, shift=2) == "1-2"
    assert column(LADDER_MOSCOW, 1, 4, shift=1) == "1-2"  # 1:3, below the table


def test_rounding_below_one_to_one_favours_the_defender() -> None:
    assert LADDER_1941.initial(4, 11) == -1  # 1:2.75 rounds to 1:3, below 1:2
    assert column(LADDER_1941, 5, 9) == "1:2"  # 1:1.8 rounds to 1:2


def test_bad_ratios_and_strengths_are_refused() -> None:
    for text in ("0:1", "3", "1:0", "a:b"):
        with pytest.raises(ValueError):
            ratio_value(text)
    with pytest.raises(ValueError):
        OddsLadder.of(["2:1", "1:1"])
    with pytest.raises(ValueError):
        LADDER_1941.initial(0, 3)


def test_a_table_lists_its_outcome_distribution() -> None:
    table = CombatTable(OddsLadder.of(["1:1", "2:1"]),
                        {1: ["AE", "NE"], 2: ["AR", "DR"], 3: ["NE", "DR"], 4: ["NE", "DE"],
                         5: ["DR", "DE"], 6: ["DR", "DE"]})
    assert table.result(1, 4) == "DE"
    assert table.distribution(0) == {"AE": 1, "AR": 1, "NE": 2, "DR": 2}
    with pytest.raises(ValueError, match="results for"):
        CombatTable(OddsLadder.of(["1:1"]), {1: ["AE", "NE"]})


@given(st.integers(1, 200), st.integers(1, 200), st.integers(-5, 5))
def test_odds_never_favour_the_attacker(attack: int, defence: int, shift: int) -> None:
    position = LADDER_MOSCOW.initial(attack, defence)
    if 0 <= position < len(LADDER_MOSCOW.columns):
        assert LADDER_MOSCOW.columns[position] <= attack / defence
    final = LADDER_MOSCOW.final(position, shift)
    assert 0 <= final < len(LADDER_MOSCOW.columns)
    more = LADDER_MOSCOW.initial(attack + 1, defence)
    assert more >= position
