"""Hex grids: axial coordinates inside, the printed labels only at the edges.

A map's module data declares its grid: the hex orientation (flat-topped hexes in
vertical columns, or pointy-topped hexes in horizontal rows), which columns (or
rows) are shifted half a hex, and how the printed labels read (`CCRR` four
digits, or a letter row and a number like `B9` and `CC15`). Everything else, the
neighbours, distances and hexsides, is computed in axial coordinates (Red Blob
Games' hexagon guide: https://www.redblobgames.com/grids/hexagons/).

>>> grid = HexGrid(orientation="flat", shifted="even", numbering="CCRR")
>>> grid.adjacent(grid.parse("2621"), grid.parse("2522"))
True
>>> grid.label(grid.parse("0707"))
'0707'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple


class Hex(NamedTuple):
    """Axial coordinates (q, r); the third cube coordinate is s = -q - r."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: tuple[int, ...]) -> Hex:  # type: ignore[override]
        return Hex(self.q + other[0], self.r + other[1])


class Hexside(NamedTuple):
    """The side shared by two adjacent hexes, the same whichever hex names it first."""

    a: Hex
    b: Hex

    @classmethod
    def between(cls, one: Hex, other: Hex) -> Hexside:
        if hex_distance(one, other) != 1:
            raise ValueError(f"{one} and {other} are not adjacent, so they share no hexside")
        return cls(*sorted((one, other)))


AXIAL_DIRECTIONS = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def hex_distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes.

    >>> hex_distance(Hex(0, 0), Hex(3, -1))
    3
    """
    return (abs(a.q - b.q) + abs(a.r - b.r) + abs(a.s - b.s)) // 2


_CCRR = re.compile(r"(\d{2})(\d{2})")
_LETTER_ROW = re.compile(r"([A-Z])\1*(\d+)")


@dataclass(frozen=True)
class HexGrid:
    """A printed hex grid.

    - orientation "flat": flat-topped hexes in vertical columns; `shifted` says
      whether the "even" or the "odd" columns sit half a hex lower.
    - orientation "pointy": pointy-topped hexes in horizontal rows; `shifted` says
      whether the "even" or "odd" rows sit half a hex to the right.
    - numbering "CCRR": two digits of column then two of row (`2621`); "LN": a row
      letter (A..Z, then AA..ZZ) and a column number (`B9`, `CC15`).
    - first_row: the row number the letter A stands for (LN numbering).
    """

    orientation: str = "flat"
    shifted: str = "even"
    numbering: str = "CCRR"
    first_row: int = 1

    def __post_init__(self) -> None:
        if self.orientation not in ("flat", "pointy") or self.shifted not in ("even", "odd"):
            raise ValueError(f"unknown grid {self.orientation}/{self.shifted}")
        if self.numbering not in ("CCRR", "LN"):
            raise ValueError(f"unknown hex numbering {self.numbering!r}")

    # -- offset (printed column, row) <-> axial ---------------------------------------
    def from_offset(self, column: int, row: int) -> Hex:
        """The hex at a printed (column, row). Parity is that of the printed numbers,
        so "even" means the columns printed 02, 04, ... sit lower."""
        if self.orientation == "flat":
            return Hex(column, row - self._half(column))
        return Hex(column - self._half(row), row)

    def _half(self, line: int) -> int:
        """How far a column (or row) is shifted, in whole hexes, as rows accumulate."""
        if self.shifted == "even":
            return (line + (line & 1)) // 2
        return (line - (line & 1)) // 2

    def to_offset(self, h: Hex) -> tuple[int, int]:
        """The printed (column, row) of a hex."""
        if self.orientation == "flat":
            return h.q, h.r + self._half(h.q)
        return h.q + self._half(h.r), h.r

    # -- printed labels ------------------------------------------------------------------
    def parse(self, text: str) -> Hex:
        """The hex a printed label names; ValueError for a label of another scheme."""
        if self.numbering == "CCRR":
            match = _CCRR.fullmatch(text)
            if not match:
                raise ValueError(f"{text!r} is not a four-digit hex number like 1808")
            return self.from_offset(int(match.group(1)), int(match.group(2)))
        match = _LETTER_ROW.fullmatch(text)
        if not match:
            raise ValueError(f"{text!r} is not a hex label like B9 or CC15")
        letters = len(text) - len(match.group(2))
        row = (ord(match.group(1)) - ord("A")) + 26 * (letters - 1) + self.first_row
        return self.from_offset(int(match.group(2)), row)

    def label(self, h: Hex) -> str:
        """The printed label of a hex."""
        col, row = self.to_offset(h)
        if self.numbering == "CCRR":
            if not (0 <= col <= 99 and 0 <= row <= 99):
                raise ValueError(f"{h} lies outside a four-digit numbering")
            return f"{col:02d}{row:02d}"
        index = row - self.first_row
        if index < 0:
            raise ValueError(f"{h} lies above the first lettered row")
        return chr(ord("A") + index % 26) * (index // 26 + 1) + str(col)

    # -- geometry --------------------------------------------------------------------------
    def neighbours(self, h: Hex) -> list[Hex]:
        return [h + d for d in AXIAL_DIRECTIONS]

    def adjacent(self, a: Hex, b: Hex) -> bool:
        return hex_distance(a, b) == 1
