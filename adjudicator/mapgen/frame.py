"""The hex frame of a printed grid: where each printed hex lies in a plane whose unit is
one hex across its flats (x right, y down), for any grid the engine knows (flat-topped
hexes in columns or pointy-topped hexes in rows, either half shifted, CCRR or letter-row
labels). The frame is what a projection maps geography onto and what hexsides,
corners and sample points are computed in.

>>> from adjudicator.engine.hexgrid import HexGrid
>>> frame = HexFrame(HexGrid("flat", "odd", "CCRR"), range(1, 35), range(1, 23))
>>> frame.centre(28, 8)
(24.24871130596428, 8.0)
>>> frame.label(*frame.hex_at(24.3, 8.1))
'2808'
>>> frame.hexside_ends("2808", "2809") == frame.hexside_ends("2809", "2808")
True
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from adjudicator.engine.hexgrid import HexGrid

Point = tuple[float, float]
Vertex = tuple[int, int]
SQ3 = math.sqrt(3.0)
HEX_RADIUS = 1 / SQ3  # centre to corner, when a hex is 1 across its flats


@dataclass(frozen=True)
class HexFrame:
    grid: HexGrid
    columns: range
    rows: range

    @property
    def flat(self) -> bool:
        return self.grid.orientation == "flat"

    def _shifted(self, line: int) -> bool:
        return line % 2 == (0 if self.grid.shifted == "even" else 1)

    # -- printed hexes -----------------------------------------------------------------
    def label(self, col: int, row: int) -> str:
        return self.grid.label(self.grid.from_offset(col, row))

    def offset(self, label: str) -> tuple[int, int]:
        """The printed (column, row) of a label."""
        return self.grid.to_offset(self.grid.parse(label))

    def __iter__(self) -> Iterator[tuple[int, int]]:
        """Every printed hex, column by column."""
        for col in self.columns:
            for row in self.rows:
                yield col, row

    def labels(self) -> list[str]:
        return [self.label(c, r) for c, r in self]

    def on_map(self, col: int, row: int) -> bool:
        return col in self.columns and row in self.rows

    def neighbours(self, label: str) -> list[str]:
        """The printed neighbours of a hex that lie on the map, sorted."""
        out = []
        for n in self.grid.neighbours(self.grid.parse(label)):
            col, row = self.grid.to_offset(n)
            if self.on_map(col, row):
                out.append(self.grid.label(n))
        return sorted(out)

    # -- geometry ----------------------------------------------------------------------
    def centre(self, col: int, row: int) -> Point:
        """The centre of a printed hex: flat hexes stand in columns SQ3/2 apart, the
        shifted columns half a hex lower; pointy hexes in rows, the shifted rows half a
        hex to the right."""
        if self.flat:
            return col * SQ3 / 2, row + (0.5 if self._shifted(col) else 0.0)
        return col + (0.5 if self._shifted(row) else 0.0), row * SQ3 / 2

    def centre_of(self, label: str) -> Point:
        return self.centre(*self.offset(label))

    def hex_at(self, fx: float, fy: float) -> tuple[int, int]:
        """The printed (column, row) of the hex containing a frame point (on or off the
        map)."""
        best: tuple[float, int, int] | None = None
        if self.flat:
            c0 = round(fx / (SQ3 / 2))
            lines = [(col, round(fy - (0.5 if self._shifted(col) else 0.0)))
                     for col in range(c0 - 1, c0 + 2)]
            candidates = [(c, r) for c, r0 in lines for r in range(r0 - 1, r0 + 2)]
        else:
            r0 = round(fy / (SQ3 / 2))
            lines = [(row, round(fx - (0.5 if self._shifted(row) else 0.0)))
                     for row in range(r0 - 1, r0 + 2)]
            candidates = [(c, r) for r, c0 in lines for c in range(c0 - 1, c0 + 2)]
        for col, row in candidates:
            cx, cy = self.centre(col, row)
            d = (cx - fx) ** 2 + (cy - fy) ** 2
            if best is None or d < best[0]:
                best = (d, col, row)
        assert best is not None
        return best[1], best[2]

    def corners(self, col: int, row: int) -> list[Point]:
        cx, cy = self.centre(col, row)
        start = 0 if self.flat else 30
        return [(cx + HEX_RADIUS * math.cos(math.radians(a)),
                 cy + HEX_RADIUS * math.sin(math.radians(a)))
                for a in range(start, 360 + start, 60)]

    def polygon(self, col: int, row: int) -> Any:
        """The hex as a shapely Polygon."""
        from shapely.geometry import Polygon

        return Polygon(self.corners(col, row))

    def vertex(self, p: Point) -> Vertex:
        """Hex corners lie on a lattice (along the hexes' rows or columns, sixths of SQ3;
        across them, halves): a corner's key, the same from every hex that shares it."""
        if self.flat:
            return round(p[0] / (HEX_RADIUS / 2)), round(p[1] * 2)
        return round(p[0] * 2), round(p[1] / (HEX_RADIUS / 2))

    def vertex_point(self, v: Vertex) -> Point:
        if self.flat:
            return v[0] * HEX_RADIUS / 2, v[1] / 2
        return v[0] / 2, v[1] * HEX_RADIUS / 2

    def hexside_ends(self, a: str, b: str) -> tuple[Vertex, Vertex]:
        """The two corners two adjacent hexes share, in order."""
        ka = {self.vertex(p) for p in self.corners(*self.offset(a))}
        kb = {self.vertex(p) for p in self.corners(*self.offset(b))}
        shared = sorted(ka & kb)
        if len(shared) != 2:
            raise ValueError(f"{a} and {b} are not adjacent")
        return shared[0], shared[1]

    def hexside_segment(self, a: str, b: str) -> tuple[Point, Point]:
        va, vb = self.hexside_ends(a, b)
        return self.vertex_point(va), self.vertex_point(vb)
