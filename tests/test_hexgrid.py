"""Hex grids (adjudicator/engine/hexgrid.py), pinned by the rulebooks' own adjacency
facts and by Red Blob Games' published conversions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.engine.hexgrid import Hex, HexGrid, Hexside, hex_distance

# 1941: Operation Barbarossa prints CCRR numbers on flat-topped hexes in columns; the
# rulebook examples below fix which columns sit lower (the even ones). Moscow '41's
# examples (4.5: 1510 next to 1611) need the odd ones lower instead.
CCRR = HexGrid(orientation="flat", shifted="even", numbering="CCRR")
MOSCOW = HexGrid(orientation="flat", shifted="odd", numbering="CCRR")


def adjacent(a: str, b: str, grid: HexGrid = CCRR) -> bool:
    return grid.adjacent(grid.parse(a), grid.parse(b))


def test_1941_rule_6_2_example_fixes_the_numbering() -> None:
    """6.2: a panzer group in 2621, Soviet armies in 2522 and 2720, moving to 2620."""
    assert adjacent("2621", "2522") and adjacent("2621", "2620")
    assert adjacent("2620", "2720")
    assert not adjacent("2621", "2720")


def test_1941_rule_15_2_2_example_fixes_the_numbering() -> None:
    """15.2.2: Finns in 0708 and 0809 next to Soviets in 0707, 0808 and 0910."""
    assert adjacent("0708", "0707") and adjacent("0708", "0808")
    assert adjacent("0809", "0910")


def test_the_other_shift_breaks_those_facts() -> None:
    odd = HexGrid(orientation="flat", shifted="odd", numbering="CCRR")
    assert not (adjacent("2621", "2522", odd) and not adjacent("2621", "2720", odd))


def test_neighbours_of_an_even_and_an_odd_column() -> None:
    assert sorted(CCRR.label(h) for h in CCRR.neighbours(CCRR.parse("2621"))) == [
        "2521", "2522", "2620", "2622", "2721", "2722"]
    assert sorted(CCRR.label(h) for h in CCRR.neighbours(CCRR.parse("0708"))) == [
        "0607", "0608", "0707", "0709", "0807", "0808"]


@pytest.mark.parametrize("text", ["1808", "0712", "0416", "0713", "1825", "1222", "0101"])
def test_ccrr_labels_round_trip(text: str) -> None:
    assert CCRR.label(CCRR.parse(text)) == text


@pytest.mark.parametrize("bad", ["180", "18088", "18a8", "", "B9"])
def test_ccrr_refuses_other_labels(bad: str) -> None:
    with pytest.raises(ValueError):
        CCRR.parse(bad)


def test_letter_row_labels() -> None:
    grid = HexGrid(orientation="pointy", shifted="odd", numbering="LN")
    for text in ("A1", "B9", "Z3", "AA4", "CC15"):
        assert grid.label(grid.parse(text)) == text
    assert grid.to_offset(grid.parse("CC15")) == (15, 29)  # A..Z are rows 1-26, AA 27, CC 29
    with pytest.raises(ValueError):
        grid.parse("AB3")  # a doubled letter must repeat the same letter


def test_red_blob_offset_conversions() -> None:
    """Red Blob's guide: even-q (0, 0)..(3, 3) and odd-r samples."""
    even_q = HexGrid(orientation="flat", shifted="even")
    assert even_q.from_offset(1, 1) == Hex(1, 0)
    assert even_q.from_offset(2, 2) == Hex(2, 1)
    assert even_q.from_offset(3, 3) == Hex(3, 1)
    odd_r = HexGrid(orientation="pointy", shifted="odd")
    assert odd_r.from_offset(1, 1) == Hex(1, 1)
    assert odd_r.from_offset(3, 3) == Hex(2, 3)
    assert hex_distance(Hex(0, 0), Hex(-3, 3)) == 3


def test_hexsides_are_unordered_pairs_of_adjacent_hexes() -> None:
    a, b = CCRR.parse("2621"), CCRR.parse("2620")
    assert Hexside.between(a, b) == Hexside.between(b, a)
    with pytest.raises(ValueError, match="not adjacent"):
        Hexside.between(a, CCRR.parse("2720"))


grids = st.sampled_from([HexGrid(o, s) for o in ("flat", "pointy") for s in ("even", "odd")])


@given(grids, st.integers(0, 99), st.integers(0, 99))
def test_offset_round_trip_and_six_distinct_neighbours(grid: HexGrid, col: int, row: int) -> None:
    h = grid.from_offset(col, row)
    assert grid.to_offset(h) == (col, row)
    around = grid.neighbours(h)
    assert len(set(around)) == 6 and all(hex_distance(h, n) == 1 for n in around)


def test_moscow_41_examples_fix_the_odd_columns_lower() -> None:
    """Moscow '41 4.5 (1510 -> 1611 -> 1710/1711 -> 1810/1812) and 6.0 (2416 next to
    2315, 2316, 2415, 2417)."""
    for a, b in (("1510", "1611"), ("1611", "1710"), ("1611", "1711"), ("1710", "1810"),
                 ("1711", "1812"), ("2416", "2315"), ("2416", "2316"), ("2416", "2415"),
                 ("2416", "2417"), ("2315", "2415")):
        assert adjacent(a, b, MOSCOW), (a, b)
    assert not adjacent("1510", "1611", CCRR)
