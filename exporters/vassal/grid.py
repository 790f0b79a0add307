"""A printed hex grid as VASSAL's `HexGrid` + `HexGridNumbering` (FORMAT.md §2.3).

VASSAL knows one hex layout: raw columns `c` and rows `r` from the origin, odd raw
columns half a hex lower, everything transposed when `sideways` (pointy-topped
hexes). The printed numbering is `getName(r + vOff, c + hOff)`. So a printed grid
maps onto VASSAL by choosing the column offset whose parity puts the printed
"lower" columns on odd raw columns, and the row offset that makes the numbers (or
letters) come out as printed; `stagger` stays off because our printed numbering is
plain offset numbering (rule 6.2 of 1941 pins that: 2621 is next to 2522).

`locate` re-implements VASSAL's point -> label path (HexGrid.getRawColumn/getRawRow,
HexGridNumbering.getRow/getColumn, RegularGridNumbering.getName) so the exporter can
prove, hex by hex, that hovering over a hex in VASSAL shows its printed label.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from adjudicator.engine.hexgrid import Hex, HexGrid
from exporters.vassal.encoding import java_double, java_int


@dataclass(frozen=True)
class VassalHexGrid:
    """The attributes of one `HexGrid` and its `HexGridNumbering`."""

    dx: float
    dy: float
    x0: int
    y0: int
    sideways: bool
    first: str  # "H": column name first, "V": row name first
    h_type: str  # "N" numeric, "A" alphabetic
    v_type: str
    h_off: int
    v_off: int
    h_leading: int
    v_leading: int

    def grid_attributes(self) -> dict[str, str]:
        return {"dx": java_double(self.dx), "dy": java_double(self.dy),
                "x0": java_int(self.x0), "y0": java_int(self.y0),
                "sideways": str(self.sideways).lower(), "snapTo": "true",
                "edgesLegal": "false", "cornersLegal": "false", "visible": "false",
                "dotsVisible": "false", "color": "0,0,0"}

    def numbering_attributes(self) -> dict[str, str]:
        return {"first": self.first, "hType": self.h_type, "vType": self.v_type, "sep": "",
                "hOff": java_int(self.h_off), "vOff": java_int(self.v_off),
                "hLeading": java_int(self.h_leading), "vLeading": java_int(self.v_leading),
                "hDescend": "false", "vDescend": "false", "stagger": "false",
                "visible": "false", "locationFormat": "$gridLocation$", "fontSize": "9",
                "color": "0,0,0", "rotateText": "0", "hDrawOff": "0", "vDrawOff": "0"}

    # -- VASSAL's arithmetic ------------------------------------------------------------

    def centre(self, column: int, row: int) -> tuple[int, int]:
        """Board pixel of raw (column, row), as HexGrid.hexPointCenterFromRawIndex."""
        x = int(self.dx * column + self.x0)
        y = (int(self.dy * row + self.y0) if column % 2 == 0
             else int(self.dy * row + int(self.dy / 2) + self.y0))
        return (y, x) if self.sideways else (x, y)

    def raw_index(self, x: int, y: int) -> tuple[int, int]:
        """HexGrid.getRawColumn / getRawRow of a board point."""
        if self.sideways:
            x, y = y, x
        column = math.floor((x - self.x0) / self.dx + 0.5)
        nx = _java_round((x - self.x0) / self.dx)
        offset = 0.0 if nx % 2 == 0 else self.dy / 2
        return column, _java_round((y - self.y0 - offset) / self.dy)

    def locate(self, x: int, y: int) -> str:
        """The location name VASSAL shows at a board point (stagger and descending off)."""
        column, row = self.raw_index(x, y)
        row_name = _name(row + self.v_off, self.v_type, self.v_leading)
        column_name = _name(column + self.h_off, self.h_type, self.h_leading)
        return column_name + row_name if self.first == "H" else row_name + column_name


def _java_round(value: float) -> int:
    return math.floor(value + 0.5)


def _name(value: int, kind: str, leading: int) -> str:
    """RegularGridNumbering.getName(int, char, int)."""
    text = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        while True:
            text += chr(ord("A") + value % 26)
            value -= 26
            if value < 0:
                return text
    while leading > 0 and value < 10 ** leading:
        text += "0"
        leading -= 1
    return text + str(value)


@dataclass(frozen=True)
class GridPlacement:
    """A printed grid laid out on a board image: VASSAL's attributes, the raw index of
    every hex, and the board size that holds them all."""

    vassal: VassalHexGrid
    raw: dict[Hex, tuple[int, int]]
    width: int
    height: int
    hex_size: float  # centre to corner, pixels

    def centre(self, h: Hex) -> tuple[int, int]:
        return self.vassal.centre(*self.raw[h])


def place_grid(grid: HexGrid, hexes: list[Hex], *, hex_size: float = 37.0,
               margin: int = 24) -> GridPlacement:
    """Lay the printed `grid`'s `hexes` out on a board: flat-topped hexes in columns (or
    pointy-topped in rows, VASSAL's `sideways`), `hex_size` pixels centre to corner."""
    if not hexes:
        raise ValueError("a hex map needs at least one hex")
    # along a raw column (dy) the hexes touch flat side to flat side; raw columns sit
    # 3/4 of a hex apart (dx)
    dy = math.sqrt(3) * hex_size
    dx = 1.5 * hex_size
    sideways = grid.orientation == "pointy"
    printed = {h: grid.to_offset(h) for h in hexes}
    # (along-line, across-line) printed numbers: lines are columns, or rows if sideways
    lines = {h: ((row, col) if sideways else (col, row)) for h, (col, row) in printed.items()}
    first_line = min(line for line, _ in lines.values())
    lower_parity = 0 if grid.shifted == "even" else 1
    # raw line = printed line - line_off must be odd exactly for the shifted lines
    line_off = first_line if (first_line - lower_parity) % 2 == 1 else first_line - 1
    first_pos = min(pos for _, pos in lines.values())
    raw = {h: (line - line_off, pos - first_pos) for h, (line, pos) in lines.items()}

    first_raw = min(c for c, _ in raw.values())  # 1 when the first line is a shifted one
    x0 = math.ceil(margin + hex_size - dx * first_raw)  # centre of raw column 0
    y0 = math.ceil(margin + dy / 2)
    if grid.numbering == "CCRR":
        leading, kinds = 1, ("N", "N")
        line_names, pos_names = line_off, first_pos
    else:  # LN: a row letter (A = first_row) and a column number
        leading = 0
        if sideways:  # lines are rows: lettered
            kinds, line_names, pos_names = ("A", "N"), line_off - grid.first_row, first_pos
        else:
            kinds, line_names, pos_names = ("N", "A"), line_off, first_pos - grid.first_row
    # VASSAL's "column" is always the raw column (our line); "first" says which name leads
    column_first = (grid.numbering == "CCRR") != sideways
    vassal = VassalHexGrid(dx=dx, dy=dy, x0=x0, y0=y0, sideways=sideways,
                           first="H" if column_first else "V",
                           h_type=kinds[0], v_type=kinds[1], h_off=line_names,
                           v_off=pos_names, h_leading=leading, v_leading=leading)
    max_line = max(c for c, _ in raw.values())
    max_pos = max(r for _, r in raw.values())
    across = math.ceil(x0 + dx * max_line + hex_size + margin)
    along = math.ceil(y0 + dy * max_pos + dy + margin)
    width, height = (along, across) if sideways else (across, along)
    return GridPlacement(vassal, raw, width, height, hex_size)
