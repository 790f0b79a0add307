#!/usr/bin/env python3
"""Reconstruct the hex map of Moscow '41 as module XML.

The printed map of the game is not available.  The rulebook gives its grid only
through examples: four-digit CCRR hex numbers on flat-topped hexes in columns,
columns numbered from west to east ("east of hex row 20xx", 1.3.1 G-H), rows from
north to south, and the odd columns half a hex lower than the even ones (the 4.5
example moves 1510 -> 1611 and 1711 -> 1812, the 6.0 example 2416 -> 2315).  It
names no city hex.  The map is rebuilt from real geography (Natural Earth, public
domain) laid under that grid:

* a Lambert conformal conic projection (standard parallels 52 N and 58 N, central
  meridian 33.5 E), north up, at the rulebook's scale of 20 miles (32.19 km) from
  hex centre to hex centre (2.9), placed so that Moscow is the centre of 2808.
  Then Vyazma falls in column 20 (the Soviet set-up line of 1.3.1 G-H), the front
  of 1 October 1941 in columns 16-20 and Moscow ten hexes east of it;
* every hex of columns 01-34 and rows 01-22 is land.  A hex takes the terrain
  (clear, light woods, woods, marsh) that most of 19 sample points in it fall in
  (hand-drawn polygons, below); the starting front line of 1 October 1941 (typed)
  splits the map into the German and the Soviet side;
* rivers and lakes become hexside features, 1941 main roads (typed chains of towns)
  chains of hexes joined by `road` hexsides, the Moscow defensive ring (13.0) the
  border of Moscow and its six neighbours.

Facts the rulebook states are forced and tagged `source="rules: N.N"`; all else is
`source="reconstructed"`.  This is a development tool with no dependency beyond
lxml (the project's own); cairosvg for --preview.  The generated map.xml is
committed; the output is deterministic.  It reads only files in its geodata/
(refresh the moscow_* ones with --extract DIR).

    python3 -m adjudicator.games.moscow.tools.gen_map           # regenerate map.xml
    python3 -m adjudicator.games.moscow.tools.gen_map --preview out.png --report
    python3 -m adjudicator.games.moscow.tools.gen_map --extract /path/to/natural-earth-geojson
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from adjudicator.engine.hexgrid import HexGrid

HERE = Path(__file__).resolve().parent
GEO_DIR = HERE / "geodata"  # this map's own rivers and lakes
RIVERS_FILE = GEO_DIR / "rivers.geojson"
LAKES_FILE = GEO_DIR / "lakes.geojson"
DATA_DIR = HERE.parent / "data"
OUT_XML = DATA_DIR / "map.xml"
OUT_RNG = DATA_DIR / "map.rng"
NS = "urn:pbem:module:1"
CREDIT = "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com"
GRID = HexGrid(orientation="flat", shifted="odd", numbering="CCRR")
GRID_SOURCE = "rules: 4.5, 6.0, 1.3.1 G"
SQ3 = math.sqrt(3.0)
HEX_RADIUS = 1 / SQ3  # centre to corner, one hex = 1 from flat side to flat side

# The extent: columns 01-34 (west to east), rows 01-22 (north to south).
COLUMNS = range(1, 35)
ROWS = range(1, 23)
EDGE_NAMES = {"west": "column 01", "east": "column 34", "north": "row 01", "south": "row 22"}

Coords = list[tuple[float, float]]
Point = tuple[float, float]

# --------------------------------------------------------------------------------------
# Projection and transform
# --------------------------------------------------------------------------------------
LON0, LAT0, PAR1, PAR2 = 33.5, 55.5, 52.0, 58.0
EARTH_KM = 6371.0
KM_PER_HEX = 20 * 1.609344  # rule 2.9: "one hex represents about 20 miles"
_P1, _P2, _PO = (math.radians(v) for v in (PAR1, PAR2, LAT0))
_N = math.log(math.cos(_P1) / math.cos(_P2)) / math.log(
    math.tan(math.pi / 4 + _P2 / 2) / math.tan(math.pi / 4 + _P1 / 2))
_F = math.cos(_P1) * math.tan(math.pi / 4 + _P1 / 2) ** _N / _N
_RHO0 = EARTH_KM * _F / math.tan(math.pi / 4 + _PO / 2) ** _N

# Moscow (the Kremlin) is the centre of hex 2808: the one anchor of the transform.
MOSCOW_LONLAT = (37.6176, 55.7520)
MOSCOW_HEX = "2808"


def lcc(lon: float, lat: float) -> Point:
    """Lambert conformal conic: km east and north of (LON0, LAT0)."""
    rho = EARTH_KM * _F / math.tan(math.pi / 4 + math.radians(lat) / 2) ** _N
    theta = _N * math.radians(lon - LON0)
    return rho * math.sin(theta), _RHO0 - rho * math.cos(theta)


def lcc_inverse(x: float, y: float) -> Point:
    rho = math.copysign(math.hypot(x, _RHO0 - y), _N)
    theta = math.atan2(x, _RHO0 - y)
    lat = 2 * math.atan((EARTH_KM * _F / rho) ** (1 / _N)) - math.pi / 2
    return LON0 + math.degrees(theta / _N), math.degrees(lat)


def label(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def parse_label(text: str) -> tuple[int, int]:
    return int(text[:2]), int(text[2:])


def hex_center(col: int, row: int) -> Point:
    """Centre of a printed hex in the map frame: x east, y south, one hex = 1 from flat
    side to flat side; odd columns sit half a hex lower (shifted="odd")."""
    return col * SQ3 / 2, row + (0.5 if col % 2 == 1 else 0.0)


_MX, _MY = lcc(*MOSCOW_LONLAT)
_CX, _CY = hex_center(*parse_label(MOSCOW_HEX))


def to_frame(lon: float, lat: float) -> Point:
    x, y = lcc(lon, lat)
    return _CX + (x - _MX) / KM_PER_HEX, _CY - (y - _MY) / KM_PER_HEX


def to_lonlat(fx: float, fy: float) -> Point:
    return lcc_inverse(_MX + (fx - _CX) * KM_PER_HEX, _MY - (fy - _CY) * KM_PER_HEX)


def describe_transform() -> str:
    return (f"Lambert conformal conic (standard parallels {PAR1:g}N {PAR2:g}N, central "
            f"meridian {LON0:g}E, origin {LAT0:g}N, sphere R={EARTH_KM:g} km), north up, "
            f"{KM_PER_HEX:.2f} km (20 miles) from hex centre to hex centre; Moscow "
            f"({MOSCOW_LONLAT[0]:.4f}E {MOSCOW_LONLAT[1]:.4f}N) at the centre of {MOSCOW_HEX} "
            f"(frame x = column*sqrt(3)/2, y = row (+0.5 on odd columns))")


def frame_hex(fx: float, fy: float) -> tuple[int, int]:
    """The printed (column, row) of the hex containing a frame point."""
    best: tuple[float, int, int] | None = None
    c0 = round(fx / (SQ3 / 2))
    for col in range(c0 - 1, c0 + 2):
        r0 = round(fy - (0.5 if col % 2 == 1 else 0.0))
        for row in range(r0 - 1, r0 + 2):
            cx, cy = hex_center(col, row)
            d = (cx - fx) ** 2 + (cy - fy) ** 2
            if best is None or d < best[0]:
                best = (d, col, row)
    assert best is not None
    return best[1], best[2]


def lonlat_hex(lon: float, lat: float) -> str:
    return label(*frame_hex(*to_frame(lon, lat)))


# --------------------------------------------------------------------------------------
# Plane geometry (no shapely: the generator runs in the project's own environment)
# --------------------------------------------------------------------------------------
def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    """Even-odd rule; `poly` is a closed or open ring."""
    x, y = p
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def bbox(points: Iterable[Point]) -> tuple[float, float, float, float]:
    pts = list(points)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def seg_distance(p: Point, a: Point, b: Point) -> float:
    (x, y), (x1, y1), (x2, y2) = p, a, b
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length2))
    return math.hypot(x - x1 - t * dx, y - y1 - t * dy)


class Polyline:
    """A line in the frame, with a bucket index of its segments for distance queries."""

    CELL = 1.0

    def __init__(self, coords: Sequence[Point]) -> None:
        self.coords = list(coords)
        self.segments = list(zip(self.coords, self.coords[1:], strict=False))
        self.buckets: dict[tuple[int, int], list[int]] = defaultdict(list)
        for i, (a, b) in enumerate(self.segments):
            x0, y0, x1, y1 = bbox((a, b))
            for gx in range(math.floor(x0 / self.CELL), math.floor(x1 / self.CELL) + 1):
                for gy in range(math.floor(y0 / self.CELL), math.floor(y1 / self.CELL) + 1):
                    self.buckets[(gx, gy)].append(i)

    def distance(self, p: Point) -> float:
        gx, gy = math.floor(p[0] / self.CELL), math.floor(p[1] / self.CELL)
        for reach in range(0, 6):
            cand = {i for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)
                    for i in self.buckets.get((gx + dx, gy + dy), ())}
            if cand:
                best = min(seg_distance(p, *self.segments[i]) for i in sorted(cand))
                if best <= reach * self.CELL:
                    return best
        return min((seg_distance(p, a, b) for a, b in self.segments), default=math.inf)

    @property
    def length(self) -> float:
        return sum(math.dist(a, b) for a, b in self.segments)


def clip_polyline(coords: Sequence[Point], rect: tuple[float, float, float, float]
                  ) -> list[tuple[list[Point], bool, bool, str, str]]:
    """The parts of a polyline inside a rectangle (Liang-Barsky per segment).  Each part:
    (points, starts on the boundary, ends on the boundary, boundary side at the start,
    at the end); sides are 'west', 'east', 'north', 'south' (frame y grows southward)."""
    x0, y0, x1, y1 = rect
    parts: list[tuple[list[Point], bool, bool, str, str]] = []
    cur: list[Point] = []
    cur_start_cut, cur_start_side = False, ""
    for (ax, ay), (bx, by) in zip(coords, coords[1:], strict=False):
        dx, dy = bx - ax, by - ay
        t0, t1 = 0.0, 1.0
        side0, side1 = "", ""
        ok = True
        for p, q, side in ((-dx, ax - x0, "west"), (dx, x1 - ax, "east"),
                           (-dy, ay - y0, "north"), (dy, y1 - ay, "south")):
            if p == 0:
                if q < 0:
                    ok = False
                    break
                continue
            t = q / p
            if p < 0:
                if t > t1:
                    ok = False
                    break
                if t > t0:
                    t0, side0 = t, side
            else:
                if t < t0:
                    ok = False
                    break
                if t < t1:
                    t1, side1 = t, side
        if not ok:
            if cur:
                parts.append((cur, cur_start_cut, False, cur_start_side, ""))
                cur = []
            continue
        pa = (ax + t0 * dx, ay + t0 * dy)
        pb = (ax + t1 * dx, ay + t1 * dy)
        if not cur or t0 > 0:
            if cur:
                parts.append((cur, cur_start_cut, False, cur_start_side, ""))
            cur = [pa]
            cur_start_cut, cur_start_side = t0 > 0, side0
        cur.append(pb)
        if t1 < 1:
            parts.append((cur, cur_start_cut, True, cur_start_side, side1))
            cur = []
    if cur:
        parts.append((cur, cur_start_cut, False, cur_start_side, ""))
    return [p for p in parts if len(p[0]) >= 2]


# --------------------------------------------------------------------------------------
# Rulebook facts
# --------------------------------------------------------------------------------------
# 4.5: the 12th and 251st Divisions (German infantry, MA 6) move 1510 -> 1611 (2 MPs),
# then the 12th 1611 -> 1710 -> 1810 (4 MPs) and the 251st 1611 -> 1711 -> 1812 (all of
# its MA: 4 MPs).  Read with the TEC: 1611, 1710, 1810, 1711 and 1812 cost 2 MPs each
# (light woods, 2.2 errata), and no road or river on the five hexsides crossed.
EXAMPLE_PATH_SIDES = [("1510", "1611"), ("1611", "1710"), ("1710", "1810"),
                      ("1611", "1711"), ("1711", "1812")]
FORCED_TERRAIN = {
    "1611": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: entering costs the 12th and 251st Divisions 2 MPs"),
    "1710": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: 1710 and 1810 cost the 12th Division 4 MPs together"),
    "1810": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: 1710 and 1810 cost the 12th Division 4 MPs together"),
    "1711": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: 1711 and 1812 cost the 251st Division 4 MPs together"),
    "1812": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: 1711 and 1812 cost the 251st Division 4 MPs together"),
}
# Hexes the rulebook's examples name without saying anything about their terrain.
RULE_NOTES = {
    "1510": ("rules: 4.5", "4.5 example: the 12th and 251st Divisions start here"),
    "1909": ("rules: 9.3", "9.3 example: the 252nd Division here cancels the EZOC"),
    "2416": ("rules: 6.0, 8.3", "6.0 and 8.3 examples"),
    "2316": ("rules: 6.0, 8.3", "6.0 and 8.3 examples"),
    "2315": ("rules: 6.0, 8.3", "6.0 and 8.3 examples (8.3: next to both 2316 and 2416)"),
    "2415": ("rules: 6.0", "6.0 example"),
    "2417": ("rules: 6.0, 8.3", "6.0 and 8.3 examples (8.3: next to both 2316 and 2416)"),
    "2515": ("rules: 6.4", "6.4 example: overrun hex"),
    "2514": ("rules: 6.4", "6.4 example"),
    "2516": ("rules: 6.4", "6.4 example"),
}

# --------------------------------------------------------------------------------------
# Hand-made tables (lon, lat), from general knowledge; accurate to perhaps 10 km.
# --------------------------------------------------------------------------------------
# The front line of 1 October 1941 (the start of Operation Typhoon), north to south:
# II Corps (16th Army) east of Demyansk and west of Lake Seliger; the Western Front
# (22nd, 29th, 30th, 19th, 16th, 20th Armies) from Peno and Andreapol through Zapadnaya
# Dvina, west of Bely, east of Dukhovshchina, on the Vop at Yartsevo and the Dnepr at
# Solovyovo; the Reserve Front (24th, 43rd Armies) west of Yelnya and on the Desna east
# of Roslavl; the Bryansk Front (50th, 3rd, 13th Armies, Group Yermakov) on the Desna west
# of Bryansk, round Trubchevsk and east of Novgorod-Seversky and Glukhov.
FRONT_LINE: Coords = [
    (32.80, 58.30), (32.95, 57.75), (32.88, 57.45), (32.70, 57.20), (32.45, 56.95),
    (32.05, 56.70), (31.85, 56.35), (32.10, 56.00), (32.40, 55.65), (32.55, 55.30),
    (32.75, 55.05), (32.85, 54.80), (32.95, 54.55), (33.10, 54.30), (33.35, 54.05),
    (33.60, 53.75), (33.60, 53.35), (33.65, 53.05), (33.30, 52.80), (32.95, 52.60),
    (33.15, 52.35), (33.55, 52.15), (33.95, 51.95), (34.20, 51.70), (34.45, 51.20),
]
# The German side: west of the front line.
GERMAN_SIDE: Coords = [*FRONT_LINE, (20.0, 51.20), (20.0, 58.30)]

# Terrain other than clear.  A sample point takes the first type whose polygon holds
# it, in the order marsh, woods, light woods; a hex takes the type of most of its 19
# points (ties to the first in that order).  Everything else is clear: the open
# farmland south of Moscow (Tula, Orel, Kursk, Yelets, Ryazan) and along the Volga.
TERRAIN_ORDER = ("marsh", "woods", "light-woods", "clear")
TERRAIN_AREAS: list[tuple[str, str, Coords]] = [
    # --- marsh ---
    ("marsh", "Meshchera lowland (Shatura, Gus-Khrustalny)",
     [(39.25, 55.55), (39.75, 55.85), (40.55, 55.80), (40.95, 55.40), (40.60, 55.05),
      (39.90, 55.00), (39.35, 55.20)]),
    ("marsh", "Upper Volga and Western Dvina mires (Peno, Okovsky forest)",
     [(32.35, 56.75), (32.65, 57.05), (33.05, 56.95), (33.15, 56.65), (32.75, 56.50)]),
    ("marsh", "Berezina marshes",
     [(28.45, 54.10), (28.65, 54.75), (29.05, 55.00), (29.35, 54.70), (29.05, 54.25)]),
    ("marsh", "Polesie (the northern edge of the Pripet marshes)",
     [(26.00, 52.55), (27.40, 52.70), (28.60, 52.60), (29.60, 52.45), (30.40, 52.20),
      (30.60, 51.30), (26.00, 51.30)]),
    # --- woods ---
    ("woods", "Okovsky forest, Toropets and Nelidovo",
     [(30.90, 56.00), (31.40, 56.90), (32.10, 57.40), (32.90, 57.70), (33.70, 57.40),
      (33.90, 56.90), (33.40, 56.40), (32.90, 56.05), (32.20, 55.80), (31.40, 55.75)]),
    ("woods", "Valdai forests (Demyansk, Seliger, Vyshny Volochek)",
     [(31.40, 57.40), (31.80, 58.30), (34.80, 58.30), (34.60, 57.60), (33.80, 57.50),
      (32.90, 57.80), (32.10, 57.45)]),
    ("woods", "Bryansk forests (Bryansk, Zhizdra, Lyudinovo, Trubchevsk)",
     [(33.20, 53.05), (33.40, 53.75), (34.00, 54.05), (34.80, 54.05), (35.45, 53.75),
      (35.30, 53.25), (34.80, 52.85), (34.40, 52.45), (33.75, 52.35), (33.30, 52.55)]),
    ("woods", "Vyazma and Dorogobuzh forests",
     [(33.60, 55.00), (33.90, 55.45), (34.60, 55.55), (35.10, 55.30), (34.90, 54.95),
      (34.20, 54.80)]),
    ("woods", "Berezina, Lepel and Polotsk forests",
     [(27.90, 54.10), (28.40, 55.10), (29.10, 55.60), (29.90, 55.90), (30.50, 55.55),
      (29.90, 55.05), (29.50, 54.30), (28.70, 53.85)]),
    ("woods", "Meshchera forests",
     [(38.80, 55.30), (39.10, 56.00), (40.20, 56.10), (41.50, 55.70), (41.50, 54.90),
      (40.20, 54.80), (39.20, 54.95)]),
    ("woods", "Forests north of Moscow (Klin, Dmitrov, Zagorsk)",
     [(36.40, 56.15), (36.90, 56.60), (37.90, 56.85), (38.80, 56.60), (38.60, 56.15),
      (37.80, 56.05), (37.00, 56.00)]),
    ("woods", "Bobruisk and Berezina forests",
     [(27.80, 52.80), (28.20, 53.60), (29.00, 53.70), (29.60, 53.30), (29.30, 52.70),
      (28.40, 52.60)]),
    ("woods", "Kaluga and Ugra forests (Kaluzhskaya zaseka)",
     [(35.30, 54.20), (35.60, 54.55), (36.10, 54.45), (36.30, 54.05), (35.90, 53.75),
      (35.40, 53.85)]),
    # --- light woods ---
    ("light-woods", "Belorussian forests (Minsk, Borisov, Molodechno)",
     [(26.00, 53.30), (26.00, 55.90), (28.00, 56.00), (29.50, 56.30), (30.90, 56.00),
      (30.40, 55.40), (29.80, 54.20), (28.80, 53.40), (27.50, 53.20)]),
    ("light-woods", "Nevel and Velikiye Luki lake country",
     [(28.50, 55.70), (28.50, 57.95), (31.50, 57.95), (31.40, 56.90), (30.90, 56.00),
      (29.50, 56.30)]),
    ("light-woods", "Staritsa and Torzhok",
     [(33.90, 56.40), (34.20, 57.30), (35.20, 57.40), (35.60, 56.70), (34.90, 56.35)]),
    ("light-woods", "Smolensk upland (mixed forest and fields)",
     [(29.80, 54.20), (30.40, 55.40), (31.40, 55.75), (32.60, 55.95), (33.80, 56.10),
      (34.80, 55.95), (35.60, 55.70), (35.80, 55.10), (35.40, 54.60), (34.60, 54.20),
      (33.40, 53.90), (32.20, 53.70), (30.90, 53.80)]),
    ("light-woods", "Rzhev, Zubtsov and Volokolamsk",
     [(33.80, 56.10), (34.20, 56.60), (35.30, 56.55), (36.30, 56.25), (36.90, 55.95),
      (36.40, 55.65), (35.60, 55.70)]),
    ("light-woods", "West of Moscow (Mozhaisk, Naro-Fominsk, Zvenigorod)",
     [(35.60, 55.70), (36.40, 55.65), (37.10, 55.55), (37.20, 55.20), (36.60, 54.90),
      (35.80, 55.10)]),
    ("light-woods", "Kalinin woods (Tvertsa, Medveditsa)",
     [(34.80, 56.90), (35.20, 57.60), (36.40, 57.70), (37.30, 57.20), (36.70, 56.75),
      (35.60, 56.65)]),
    ("light-woods", "Orsha and Mogilev",
     [(28.40, 53.40), (28.80, 54.20), (29.80, 54.20), (30.90, 53.80), (31.10, 53.20),
      (30.20, 52.90), (29.20, 52.95)]),
    ("light-woods", "Bryansk - Roslavl fringe and the Desna",
     [(31.60, 52.70), (32.20, 53.70), (33.40, 53.90), (33.40, 53.75), (33.20, 53.05),
      (33.30, 52.55), (32.60, 52.30)]),
    ("light-woods", "North-east of Moscow (Yaroslavl road, Pereslavl)",
     [(37.90, 56.85), (38.40, 57.40), (39.80, 57.45), (40.40, 56.90), (39.60, 56.40),
      (38.80, 56.60)]),
]

# Towns and cities: (name, lon, lat, class).  "city": the large cities of 1941 (the
# TEC's city line, 9.0 F); "town": every other place the map names.  Both are supply
# sources on their own side of the starting front line (9.4).  Names as in 1941.  In a
# shared hex the first listed wins.
TOWNS: list[tuple[str, float, float, str]] = [
    ("Moscow", 37.62, 55.75, "city"), ("Kalinin", 35.90, 56.86, "city"),
    ("Tula", 37.62, 54.19, "city"), ("Smolensk", 32.05, 54.78, "city"),
    ("Orel", 36.07, 52.97, "city"), ("Bryansk", 34.36, 53.25, "city"),
    ("Kaluga", 36.27, 54.51, "city"), ("Ryazan", 39.74, 54.63, "city"),
    ("Kursk", 36.19, 51.73, "city"), ("Vitebsk", 30.20, 55.19, "city"),
    ("Mogilev", 30.33, 53.90, "city"), ("Gomel", 30.98, 52.44, "city"),
    ("Minsk", 27.56, 53.90, "city"), ("Vladimir", 40.40, 56.13, "city"),
    ("Rzhev", 34.33, 56.26, "town"), ("Vyazma", 34.30, 55.21, "town"),
    ("Mozhaisk", 36.03, 55.50, "town"), ("Volokolamsk", 35.96, 56.03, "town"),
    ("Klin", 36.73, 56.33, "town"), ("Maloyaroslavets", 36.47, 55.01, "town"),
    ("Serpukhov", 37.41, 54.92, "town"), ("Podolsk", 37.55, 55.43, "town"),
    ("Yukhnov", 34.75, 54.74, "town"), ("Roslavl", 32.86, 53.95, "town"),
    ("Yelnya", 33.18, 54.58, "town"), ("Yartsevo", 32.68, 55.07, "town"),
    ("Dorogobuzh", 33.30, 54.92, "town"), ("Bely", 32.94, 55.83, "town"),
    ("Ostashkov", 33.10, 57.15, "town"), ("Toropets", 31.63, 56.50, "town"),
    ("Velikiye Luki", 30.53, 56.34, "town"), ("Nevel", 29.92, 56.02, "town"),
    ("Demyansk", 32.47, 57.64, "town"), ("Andreapol", 32.27, 56.65, "town"),
    ("Nelidovo", 32.78, 56.22, "town"), ("Olenino", 33.48, 56.21, "town"),
    ("Sychevka", 34.28, 55.83, "town"), ("Gzhatsk", 35.01, 55.55, "town"),
    ("Zubtsov", 34.58, 56.18, "town"), ("Staritsa", 34.93, 56.51, "town"),
    ("Torzhok", 34.96, 57.04, "town"), ("Bezhetsk", 36.65, 57.78, "town"),
    ("Kashin", 37.61, 57.36, "town"), ("Kalyazin", 37.84, 57.24, "town"),
    ("Dmitrov", 37.52, 56.34, "town"), ("Zagorsk", 38.13, 56.30, "town"),
    ("Pereslavl", 38.85, 56.74, "town"), ("Rostov", 39.41, 57.19, "town"),
    ("Solnechnogorsk", 36.98, 56.18, "town"), ("Istra", 36.85, 55.91, "town"),
    ("Naro-Fominsk", 36.73, 55.39, "town"), ("Medyn", 35.86, 54.97, "town"),
    ("Noginsk", 38.44, 55.85, "town"), ("Orekhovo-Zuyevo", 38.98, 55.81, "town"),
    ("Kolomna", 38.77, 55.09, "town"), ("Kashira", 38.15, 54.84, "town"),
    ("Venev", 38.27, 54.35, "town"), ("Stalinogorsk", 38.27, 54.01, "town"),
    ("Mikhailov", 39.03, 54.23, "town"), ("Yefremov", 38.42, 53.15, "town"),
    ("Yelets", 38.50, 52.62, "town"), ("Lipetsk", 39.60, 52.61, "town"),
    ("Livny", 37.60, 52.42, "town"), ("Novosil", 37.04, 52.97, "town"),
    ("Plavsk", 37.29, 53.71, "town"), ("Mtsensk", 36.57, 53.28, "town"),
    ("Aleksin", 37.07, 54.50, "town"), ("Odoyev", 36.69, 53.94, "town"),
    ("Belev", 36.13, 53.81, "town"), ("Kozelsk", 35.79, 54.04, "town"),
    ("Sukhinichi", 35.34, 54.10, "town"), ("Zhizdra", 34.74, 53.75, "town"),
    ("Lyudinovo", 34.45, 53.87, "town"), ("Kirov", 34.32, 54.08, "town"),
    ("Spas-Demensk", 34.02, 54.41, "town"), ("Karachev", 35.12, 53.12, "town"),
    ("Bolkhov", 36.01, 53.44, "town"), ("Kromy", 35.70, 52.69, "town"),
    ("Dmitrovsk", 35.15, 52.51, "town"), ("Sevsk", 34.48, 52.15, "town"),
    ("Fatezh", 35.86, 52.09, "town"), ("Lgov", 35.26, 51.66, "town"),
    ("Rylsk", 34.69, 51.57, "town"), ("Glukhov", 33.91, 51.68, "town"),
    ("Novgorod-Seversky", 33.26, 52.01, "town"), ("Trubchevsk", 33.05, 52.58, "town"),
    ("Pochep", 33.47, 52.93, "town"), ("Unecha", 32.68, 52.85, "town"),
    ("Klintsy", 32.24, 52.75, "town"), ("Novozybkov", 31.93, 52.54, "town"),
    ("Zhukovka", 33.77, 53.53, "town"), ("Krichev", 31.71, 53.71, "town"),
    ("Pochinok", 32.45, 54.40, "town"), ("Dukhovshchina", 32.42, 55.20, "town"),
    ("Rudnya", 31.09, 54.94, "town"), ("Velizh", 31.10, 55.61, "town"),
    ("Krasny", 31.42, 54.56, "town"), ("Orsha", 30.42, 54.51, "town"),
    ("Shklov", 30.29, 54.21, "town"), ("Bykhov", 30.25, 53.52, "town"),
    ("Rogachev", 30.05, 53.09, "town"), ("Zhlobin", 30.03, 52.89, "town"),
    ("Bobruisk", 29.22, 53.14, "town"), ("Berezino", 28.99, 53.84, "town"),
    ("Borisov", 28.50, 54.23, "town"), ("Tolochin", 29.70, 54.41, "town"),
    ("Lepel", 28.69, 54.88, "town"), ("Polotsk", 28.80, 55.49, "town"),
    ("Gorodok", 29.99, 55.46, "town"), ("Mozyr", 29.25, 52.05, "town"),
    ("Rechitsa", 30.39, 52.36, "town"), ("Slutsk", 27.55, 53.03, "town"),
    ("Molodechno", 26.85, 54.31, "town"), ("Pokrov", 39.18, 55.92, "town"),
    ("Yegoryevsk", 39.04, 55.38, "town"), ("Zaraisk", 38.88, 54.76, "town"),
    ("Skopin", 39.55, 53.82, "town"), ("Kasimov", 41.42, 54.94, "town"),
    ("Kuvshinovo", 34.17, 57.03, "town"), ("Selizharovo", 33.46, 56.85, "town"),
    ("Shakhovskaya", 35.50, 56.03, "town"), ("Ruza", 36.20, 55.70, "town"),
    ("Vereya", 36.09, 55.34, "town"), ("Borovsk", 36.52, 55.21, "town"),
    ("Tarusa", 37.18, 54.72, "town"), ("Bogoroditsk", 38.13, 53.77, "town"),
]

# 1941 main roads (chaussees and the better dirt roads) as chains of towns; a point
# given as coordinates lies off the map and makes the road lead off that edge.
ROADS: list[tuple[str, list[str | Point]]] = [
    ("Minsk - Smolensk - Vyazma - Moscow highway",
     [(25.0, 53.75), "Minsk", "Borisov", "Tolochin", "Orsha", "Krasny", "Smolensk",
      "Yartsevo", "Vyazma", "Gzhatsk", "Mozhaisk", "Moscow"]),
    ("Warsaw highway (Bobruisk - Roslavl - Yukhnov - Moscow)",
     [(25.0, 52.95), "Bobruisk", "Rogachev", "Krichev", "Roslavl", "Spas-Demensk",
      "Yukhnov", "Medyn", "Maloyaroslavets", "Podolsk", "Moscow"]),
    # the highway crosses the Shosha reach of the Ivankovo Reservoir (Moscow Sea, 1937)
    # between Zavidovo and Kozlovo
    ("Leningrad highway", ["Moscow", "Solnechnogorsk", "Klin", (36.70, 56.56), (36.30, 56.65),
                           "Kalinin", "Torzhok", (34.60, 58.40)]),
    ("Volokolamsk road", ["Moscow", "Istra", "Volokolamsk", "Shakhovskaya", "Zubtsov",
                          "Rzhev"]),
    ("Rzhev - Velikiye Luki road", ["Rzhev", "Olenino", "Nelidovo", "Velikiye Luki",
                                    "Nevel", (28.50, 56.20)]),
    ("Simferopol highway (Moscow - Tula - Orel - Kursk)",
     ["Moscow", "Podolsk", "Serpukhov", "Tula", "Plavsk", "Mtsensk", "Orel", "Kromy",
      "Fatezh", "Kursk", (36.60, 50.80)]),
    ("Ryazan road", ["Moscow", "Kolomna", "Ryazan", (41.60, 54.40)]),
    ("Vladimir road", ["Moscow", "Noginsk", "Pokrov", "Vladimir", (41.60, 56.20)]),
    ("Yaroslavl road", ["Moscow", "Zagorsk", "Pereslavl", "Rostov", (39.90, 58.30)]),
    ("Kashira road", ["Moscow", "Kashira", "Venev", "Stalinogorsk", "Yefremov", "Yelets",
                      "Lipetsk", (41.20, 52.50)]),
    ("Kiev road (Moscow - Naro-Fominsk - Kaluga)", ["Moscow", "Naro-Fominsk",
                                                    "Maloyaroslavets", "Kaluga"]),
    ("Kaluga - Tula road", ["Kaluga", "Aleksin", "Tula"]),
    ("Kaluga - Sukhinichi - Bryansk road", ["Kaluga", "Kozelsk", "Sukhinichi", "Zhizdra",
                                            "Bryansk"]),
    ("Bryansk - Orel road", ["Bryansk", "Karachev", "Orel", "Novosil", "Yefremov"]),
    ("Roslavl - Bryansk road", ["Roslavl", "Zhukovka", "Bryansk"]),
    ("Smolensk - Roslavl road", ["Smolensk", "Pochinok", "Roslavl"]),
    ("Smolensk - Vitebsk road", ["Smolensk", "Rudnya", "Vitebsk", "Polotsk",
                                 (27.00, 55.70)]),
    ("Smolensk - Bely road", ["Smolensk", "Dukhovshchina", "Bely", "Olenino"]),
    ("Vyazma - Rzhev road", ["Vyazma", "Sychevka", "Rzhev", "Staritsa", "Kalinin"]),
    ("Gomel - Bryansk road", [(28.50, 52.10), "Gomel", "Novozybkov", "Unecha", "Pochep",
                              "Bryansk"]),
    ("Vitebsk - Orsha - Mogilev - Gomel road", ["Vitebsk", "Orsha", "Shklov", "Mogilev",
                                                "Bykhov", "Rogachev", "Zhlobin",
                                                "Gomel"]),
    ("Minsk - Mogilev road", ["Minsk", "Berezino", "Mogilev", "Krichev"]),
    ("Glukhov - Sevsk - Orel road", ["Glukhov", "Sevsk", "Dmitrovsk", "Kromy"]),
    ("Kursk - Rylsk - Glukhov road", ["Kursk", "Lgov", "Rylsk", "Glukhov",
                                      "Novgorod-Seversky", "Trubchevsk", "Pochep"]),
    ("Ostashkov - Torzhok road", ["Ostashkov", "Kuvshinovo", "Torzhok"]),
    ("Kalinin - Bezhetsk road", ["Kalinin", "Bezhetsk", (36.90, 58.40)]),
    ("Dmitrov road", ["Moscow", "Dmitrov", "Kalyazin", "Kashin"]),
    ("Volokolamsk - Klin road", ["Volokolamsk", "Klin"]),
    ("Mozhaisk - Maloyaroslavets - Kaluga road", ["Mozhaisk", "Vereya", "Borovsk",
                                                  "Maloyaroslavets"]),
    ("Orel - Yelets road", ["Orel", "Livny", "Yelets"]),
    ("Ryazan - Mikhailov - Stalinogorsk road", ["Ryazan", "Mikhailov", "Stalinogorsk",
                                                "Bogoroditsk", "Plavsk"]),
]

# Rivers: id -> name as printed; the Natural Earth features are chosen by --extract.
RIVERS: dict[str, str] = {
    "volga": "Volga", "oka": "Oka", "dnepr": "Dnepr", "desna": "Desna",
    "western-dvina": "Western Dvina", "moskva": "Moskva", "ugra": "Ugra",
    "zhizdra": "Zhizdra", "vazuza": "Vazuza", "seym": "Seym", "tvertsa": "Tvertsa",
    "upa": "Upa", "zusha": "Zusha", "protva": "Protva", "sozh": "Sozh", "iput": "Iput",
    "klyazma": "Klyazma", "berezina": "Berezina", "bystraya-sosna": "Bystraya Sosna",
}
# --extract: (Natural Earth file, name (None: unnamed), probe point or None).  A feature
# is taken when its name matches and, with a probe, it passes within 0.06 deg of it.
_CENTER = "ne_10m_rivers_lake_centerlines.geojson"
_EUROPE = "ne_10m_rivers_europe.geojson"
RIVER_SOURCES: dict[str, list[tuple[str, str | None, Point | None]]] = {
    "volga": [(_CENTER, "Volga", None), (_EUROPE, "Volga", None)],
    "oka": [(_CENTER, "Oka", None)],
    "dnepr": [(_CENTER, "Dnipro", None), (_CENTER, "Dnepre", None)],
    "desna": [(_CENTER, "Desna", None)],
    "western-dvina": [(_CENTER, "Daugava", None), (_EUROPE, "Daugava", None)],
    "moskva": [(_CENTER, None, (37.62, 55.75))],
    # Natural Earth calls the Ugra "Oka" (alternative name "Volga"), the Upa and the
    # Zusha "Oka"; the Zhizdra and the Protva have no name
    "ugra": [(_EUROPE, "Oka", (35.44, 54.77))],
    "upa": [(_EUROPE, "Oka", (37.62, 54.20))],
    "zusha": [(_EUROPE, "Oka", (36.57, 53.28))],
    "zhizdra": [(_EUROPE, None, (35.79, 54.04))],
    "protva": [(_EUROPE, None, (36.50, 55.20))],
    "vazuza": [(_EUROPE, "Vazuza", None)],
    "seym": [(_CENTER, "Seym", None)],
    "tvertsa": [(_CENTER, "Tvertsa", None)],
    "sozh": [(_EUROPE, "Sozh", None)],
    "iput": [(_EUROPE, "Iputs", None)],
    "klyazma": [(_EUROPE, "Klyazma", None)],
    "berezina": [(_EUROPE, "Byarezina", None)],
    "bystraya-sosna": [(_EUROPE, "Bystraya Sosna", None)],
}
MIN_RIVER_HEXES = 1.5  # a river piece shorter than this on the map is not drawn

# Lakes and reservoirs that existed in 1941 (no post-war reservoir: Vazuza, Mozhaisk,
# Ruza, Desnogorsk; not the Rybinsk and Uglich reservoirs, still filling): name -> probe
# points; every Natural Earth lake polygon whose centroid lies within 0.12 deg of a
# probe is taken.
LAKES: dict[str, list[Point]] = {
    "Lake Seliger": [(33.00, 57.24), (33.03, 57.45), (33.03, 57.70), (33.14, 57.05),
                     (33.38, 57.67)],
    "Upper Volga lakes": [(32.72, 57.02), (33.11, 56.92)],
    "Ivankovo Reservoir": [(36.73, 56.70)],
    "Vyshny Volochek Reservoir": [(34.44, 57.56)],
    "Lake Zhizhitskoye": [(31.26, 56.24), (31.22, 56.11)],
    "Lake Pleshcheyevo": [(38.78, 56.77)],
    "Lake Nero": [(39.42, 57.16)],
    "Lake Lukoml": [(29.07, 54.67)],
    "Lake Naroch": [(26.76, 54.87)],
}
LAKE_FILES = ("ne_10m_lakes.geojson", "ne_10m_lakes_europe.geojson")
LAKE_SIDE_SHARE = 0.3  # a hexside at least this much over a lake is a lake hexside
LAKE_SIDE_MIN = 0.2  # a lake with no such hexside keeps its wettest one if this wet


# --------------------------------------------------------------------------------------
# --extract: clipped copies of the Natural Earth files the generator reads
# --------------------------------------------------------------------------------------
EXTRACT_BOX = (24.5, 50.5, 42.5, 58.7)


def _lines(geom: dict) -> list[list[Point]]:
    if geom["type"] == "LineString":
        return [[tuple(c) for c in geom["coordinates"]]]
    if geom["type"] == "MultiLineString":
        return [[tuple(c) for c in line] for line in geom["coordinates"]]
    return []


def _rings(geom: dict) -> list[list[Point]]:
    if geom["type"] == "Polygon":
        return [[tuple(c) for c in geom["coordinates"][0]]]
    if geom["type"] == "MultiPolygon":
        return [[tuple(c) for c in poly[0]] for poly in geom["coordinates"]]
    return []


def _deg_dist(p: Point, a: Point, b: Point) -> float:
    k = math.cos(math.radians(55.0))
    return seg_distance((p[0] * k, p[1]), (a[0] * k, a[1]), (b[0] * k, b[1]))


def _simplify(line: list[Point], tol: float) -> list[Point]:
    """Douglas-Peucker."""
    if len(line) < 3:
        return line
    dmax, index = 0.0, 0
    for i in range(1, len(line) - 1):
        d = seg_distance(line[i], line[0], line[-1])
        if d > dmax:
            dmax, index = d, i
    if dmax <= tol:
        return [line[0], line[-1]]
    return _simplify(line[:index + 1], tol)[:-1] + _simplify(line[index:], tol)


def _in_box(p: Point) -> bool:
    return EXTRACT_BOX[0] <= p[0] <= EXTRACT_BOX[2] and EXTRACT_BOX[1] <= p[1] <= EXTRACT_BOX[3]


def _box_pieces(line: list[Point]) -> list[list[Point]]:
    pieces, cur = [], []
    for p in line:
        if _in_box(p):
            cur.append(p)
        else:
            if len(cur) >= 2:
                pieces.append(cur)
            cur = []
    if len(cur) >= 2:
        pieces.append(cur)
    return pieces


def _write_fc(path: Path, feats: list[tuple[dict, dict]]) -> None:
    out = {"type": "FeatureCollection",
           "credit": CREDIT + "; clipped and simplified by the Moscow '41 map generator",
           "features": [{"type": "Feature", "properties": props, "geometry": geom}
                        for props, geom in feats]}
    path.write_text(json.dumps(out, separators=(",", ":"), ensure_ascii=False) + "\n",
                    encoding="utf-8")


def extract(src: Path) -> None:
    """Write geodata/rivers.geojson and lakes.geojson."""
    def feats(name: str) -> list[dict]:
        return json.loads((src / name).read_text(encoding="utf-8"))["features"]

    cache = {name: feats(name) for name in (_CENTER, _EUROPE, *LAKE_FILES)}
    rivers = []
    for rid, sources in RIVER_SOURCES.items():
        lines: list[list[Point]] = []
        for fname, name, probe in sources:
            for f in cache[fname]:
                if f["properties"].get("name") != name:
                    continue
                flines = _lines(f["geometry"])
                if probe is not None and min(
                        (_deg_dist(probe, a, b) for ln in flines
                         for a, b in zip(ln, ln[1:], strict=False)), default=9) > 0.06:
                    continue
                for ln in flines:
                    lines += _box_pieces(ln)
        lines = [[(round(x, 3), round(y, 3)) for x, y in _simplify(ln, 0.01)] for ln in lines]
        rivers.append(({"id": rid}, {"type": "MultiLineString", "coordinates": lines}))
    _write_fc(RIVERS_FILE, rivers)

    lakes = []
    for lake, probes in LAKES.items():
        polys = []
        for fname in LAKE_FILES:
            for f in cache[fname]:
                for ring in _rings(f["geometry"]):
                    cx = sum(p[0] for p in ring) / len(ring)
                    cy = sum(p[1] for p in ring) / len(ring)
                    if any(math.hypot((cx - px) * 0.57, cy - py) < 0.12 for px, py in probes):
                        polys.append([[[round(x, 3), round(y, 3)] for x, y in ring]])
        lakes.append(({"name": lake}, {"type": "MultiPolygon", "coordinates": polys}))
    _write_fc(LAKES_FILE, lakes)
    print(f"extracted {len(rivers)} rivers and {len(lakes)} lakes into {GEO_DIR}")


# --------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------
@dataclass
class HexInfo:
    col: int
    row: int
    terrain: str = "clear"
    side: str = ""  # german / soviet: the side of the starting front line
    front: bool = False
    city: str = ""
    city_class: str = ""
    road_exit: str = ""
    entry: bool = False
    sources: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return label(self.col, self.row)


Side = tuple[str, str]
Vertex = tuple[int, int]


def side(a: str, b: str) -> Side:
    return (a, b) if a < b else (b, a)


def neighbours(hid: str) -> list[str]:
    h = GRID.parse(hid)
    return sorted(GRID.label(n) for n in GRID.neighbours(h))


def corners(col: int, row: int) -> list[Point]:
    cx, cy = hex_center(col, row)
    return [(cx + HEX_RADIUS * math.cos(math.radians(a)), cy + HEX_RADIUS * math.sin(
        math.radians(a))) for a in range(0, 360, 60)]


def vkey(p: Point) -> Vertex:
    """Hex corners lie on a lattice: x in sixths of sqrt(3), y in halves."""
    return round(p[0] / (HEX_RADIUS / 2)), round(p[1] * 2)


def vpoint(v: Vertex) -> Point:
    return v[0] * HEX_RADIUS / 2, v[1] / 2


def hexside_ends(a: str, b: str) -> tuple[Vertex, Vertex]:
    ka = {vkey(p) for p in corners(*parse_label(a))}
    kb = {vkey(p) for p in corners(*parse_label(b))}
    shared = sorted(ka & kb)
    assert len(shared) == 2, (a, b)
    return shared[0], shared[1]


# the sample points of a hex: the centre and three rings of six
_SAMPLES = [(0.0, 0.0)] + [
    (r * math.cos(math.radians(a + off)), r * math.sin(math.radians(a + off)))
    for r, off in ((0.25, 30), (0.45, 0), (0.42, 30)) for a in range(0, 360, 60)]


class Area:
    def __init__(self, kind: str, name: str, ring: Coords) -> None:
        self.kind, self.name = kind, name
        self.ring = [to_frame(*p) for p in densify(ring, 0.1)]
        self.box = bbox(self.ring)

    def contains(self, p: Point) -> bool:
        x0, y0, x1, y1 = self.box
        return x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and point_in_polygon(p, self.ring)


def densify(coords: Coords, step: float) -> Coords:
    """Extra points every `step` degrees so that projected edges bend as they should."""
    out: Coords = []
    for a, b in zip(coords, coords[1:] + coords[:1], strict=False):
        n = max(1, math.ceil(math.dist(a, b) / step))
        out += [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n)]
    return out


def build_hexes() -> dict[str, HexInfo]:
    areas = [Area(k, n, c) for k, n, c in TERRAIN_AREAS]
    german = [to_frame(*p) for p in densify(GERMAN_SIDE, 0.1)]
    hexes: dict[str, HexInfo] = {}
    for col in COLUMNS:
        for row in ROWS:
            info = HexInfo(col, row)
            cx, cy = hex_center(col, row)
            votes: dict[str, int] = defaultdict(int)
            for dx, dy in _SAMPLES:
                p = (cx + dx, cy + dy)
                kinds = {a.kind for a in areas if a.contains(p)}
                votes[next((k for k in TERRAIN_ORDER if k in kinds), "clear")] += 1
            info.terrain = max(TERRAIN_ORDER, key=lambda k: (votes[k], -TERRAIN_ORDER.index(k)))
            info.side = "german" if point_in_polygon((cx, cy), german) else "soviet"
            info.sources.append("reconstructed")
            hexes[info.id] = info
    for hid, (terrain, src, note) in FORCED_TERRAIN.items():
        hexes[hid].terrain = terrain
        hexes[hid].sources.insert(0, src)
        hexes[hid].notes.append(note)
    for hid, (src, note) in RULE_NOTES.items():
        hexes[hid].sources.insert(0, src)
        hexes[hid].notes.append(note)
    return hexes


def place_towns(hexes: dict[str, HexInfo]) -> tuple[dict[str, str], list[str]]:
    """Towns in their hexes (the first listed wins a shared hex).  Returns the hex of
    every town (also of those that lost their hex, for the roads) and notes."""
    where: dict[str, str] = {}
    notes = []
    for name, lon, lat, klass in TOWNS:
        hid = MOSCOW_HEX if name == "Moscow" else lonlat_hex(lon, lat)
        where[name] = hid
        h = hexes.get(hid)
        if h is None:
            notes.append(f"{name}: off the map ({hid})")
            continue
        if h.city:
            notes.append(f"{name}: shares hex {hid} with {h.city}, left out")
            continue
        h.city, h.city_class = name, klass
        if name == "Moscow":
            h.sources.insert(0, "rules: 13.0, 14.4, 16.0")
            h.notes.append("Moscow: 13.0 defensive ring, 14.4, 16.0 A, 16.2")
    return where, notes


def map_rect() -> tuple[float, float, float, float]:
    """A rectangle inside the map (every point of it lies in an on-map hex)."""
    x0 = hex_center(COLUMNS[0], 1)[0] - 0.25
    x1 = hex_center(COLUMNS[-1], 1)[0] + 0.25
    return x0, ROWS[0] + 0.05, x1, ROWS[-1] + 0.45


def vertex_graph(hexes: dict[str, HexInfo]) -> dict[Vertex, list[tuple[Vertex, Side]]]:
    graph: dict[Vertex, list[tuple[Vertex, Side]]] = defaultdict(list)
    for hid in sorted(hexes):
        for n in neighbours(hid):
            if n in hexes and hid < n:
                v1, v2 = hexside_ends(hid, n)
                graph[v1].append((v2, (hid, n)))
                graph[v2].append((v1, (hid, n)))
    for v in graph:
        graph[v].sort()
    return graph


def route_line(line: Polyline, graph, blocked: set[Side]) -> list[Side]:
    """The chain of hexsides that best follows a line: the line is cut into stretches of
    about three hexes (so that a river bending back on itself is followed, not cut
    short), and each stretch is routed by Dijkstra over hex corners from the corner
    nearest its start to the corner nearest its end, each hexside costing its length
    plus its distance from the stretch."""
    verts = sorted(graph)

    def nearest(p: Point) -> Vertex:
        return min(verts, key=lambda v: (math.dist(vpoint(v), p), v))

    chain: list[Side] = []
    for stretch in stretches(line.coords, 3.0):
        for sd in route_stretch(Polyline(stretch), nearest(stretch[0]), nearest(stretch[-1]),
                                graph, blocked):
            if sd not in chain:
                chain.append(sd)
    return chain


def stretches(coords: Sequence[Point], length: float) -> list[list[Point]]:
    """A line cut into consecutive pieces of about `length` (the last may be longer)."""
    out: list[list[Point]] = []
    cur = [coords[0]]
    run = 0.0
    for a, b in zip(coords, coords[1:], strict=False):
        cur.append(b)
        run += math.dist(a, b)
        if run >= length:
            out.append(cur)
            cur, run = [b], 0.0
    if len(cur) > 1:
        if out and run < length / 2:
            out[-1] += cur[1:]
        else:
            out.append(cur)
    return out


def route_stretch(line: Polyline, start: Vertex, goal: Vertex, graph,
                  blocked: set[Side]) -> list[Side]:
    best = {start: 0.0}
    prev: dict[Vertex, tuple[Vertex, Side]] = {}
    queue = [(0.0, start)]
    while queue:
        cost, v = heapq.heappop(queue)
        if v == goal:
            break
        if cost > best[v]:
            continue
        for w, sd in graph[v]:
            if sd in blocked:
                continue
            pv, pw = vpoint(v), vpoint(w)
            d = line.distance(((pv[0] + pw[0]) / 2, (pv[1] + pw[1]) / 2))
            total = cost + HEX_RADIUS * (1 + 8 * d * d + 4 * d)
            if total < best.get(w, math.inf) - 1e-12:
                best[w] = total
                prev[w] = (v, sd)
                heapq.heappush(queue, (total, w))
    if goal not in best:
        return []
    chain = []
    v = goal
    while v != start:
        v, sd = prev[v]
        chain.append(sd)
    return chain[::-1]


def load_features(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["features"]


def river_courses(lines: list[list[Point]]) -> list[list[Point]]:
    """The pieces of a river as lines: the longest part first, grown at either end by
    the nearest other part within 1.5 hexes (Natural Earth breaks rivers at lakes and
    name changes); parts farther away start a piece of their own."""
    parts = sorted((list(ln) for ln in lines if len(ln) >= 2),
                   key=lambda c: (-Polyline(c).length, c))
    courses = []
    while parts:
        coords = parts.pop(0)
        while True:
            best = None
            for i, pc in enumerate(parts):
                for at_end in (True, False):
                    anchor = coords[-1] if at_end else coords[0]
                    for seq in (pc, pc[::-1]):
                        d = math.dist(anchor, seq[0] if at_end else seq[-1])
                        if best is None or d < best[0]:
                            best = (d, i, at_end, seq)
            if best is None or best[0] > 1.5:
                break
            _, i, at_end, seq = best
            parts.pop(i)
            coords = coords + seq if at_end else seq + coords
        courses.append(coords)
    return courses


def build_rivers(hexes, graph) -> tuple[dict[Side, list[str]], list[str]]:
    out: dict[Side, list[str]] = defaultdict(list)
    notes = []
    rect = map_rect()
    blocked = {side(a, b) for a, b in EXAMPLE_PATH_SIDES}
    geoms = {f["properties"]["id"]: f["geometry"]["coordinates"]
             for f in load_features(RIVERS_FILE)}
    for rid in RIVERS:
        lines = []
        for ln in geoms.get(rid, []):
            frame_line = [to_frame(*p) for p in ln]
            lines += [part[0] for part in clip_polyline(frame_line, rect)]
        courses = [c for c in river_courses(lines) if Polyline(c).length >= MIN_RIVER_HEXES]
        if not courses:
            notes.append(f"{rid}: less than {MIN_RIVER_HEXES} hexes on the map, left out")
        for course in courses:
            for sd in route_line(Polyline(course), graph, blocked):
                if rid not in out[sd]:
                    out[sd].append(rid)
    return dict(out), notes


def build_lakes(hexes) -> dict[Side, str]:
    """Hexsides printed over a lake (4.8 D, 5.0 C, 7.5 C, 8.0 F)."""
    out: dict[Side, str] = {}
    for f in load_features(LAKES_FILE):
        name = f["properties"]["name"]
        rings = [[to_frame(*p) for p in poly[0]] for poly in f["geometry"]["coordinates"]]
        wet: dict[Side, float] = {}
        for ring in rings:
            x0, y0, x1, y1 = bbox(ring)
            for hid in sorted(hexes):
                cx, cy = hex_center(*parse_label(hid))
                if not (x0 - 1 <= cx <= x1 + 1 and y0 - 1 <= cy <= y1 + 1):
                    continue
                for n in neighbours(hid):
                    if n not in hexes or n < hid:
                        continue
                    va, vb = (vpoint(v) for v in hexside_ends(hid, n))
                    pts = [(va[0] + (vb[0] - va[0]) * i / 20, va[1] + (vb[1] - va[1]) * i / 20)
                           for i in range(21)]
                    share = sum(point_in_polygon(p, ring) for p in pts) / len(pts)
                    wet[(hid, n)] = wet.get((hid, n), 0.0) + share
        if not wet:
            continue
        chosen = [sd for sd, s in sorted(wet.items()) if s >= LAKE_SIDE_SHARE]
        if not chosen:
            best = max(sorted(wet.items()), key=lambda kv: kv[1])
            if best[1] >= LAKE_SIDE_MIN:
                chosen = [best[0]]
        for sd in chosen:
            out.setdefault(sd, name)
    return out


def hex_path(a: str, b: str, seg: tuple[Point, Point], hexes, blocked: set[Side],
             lakes: dict[Side, str]) -> list[str]:
    """Hexes from a to b hugging the segment (Dijkstra, ties by label); a lake hexside
    costs more, so that a road crosses a lake only where it must."""
    best = {a: 0.0}
    prev: dict[str, str] = {}
    queue = [(0.0, a)]
    while queue:
        cost, h = heapq.heappop(queue)
        if h == b:
            break
        if cost > best[h]:
            continue
        for n in neighbours(h):
            sd = side(h, n)
            if n not in hexes or sd in blocked:
                continue
            d = seg_distance(hex_center(*parse_label(n)), *seg)
            total = cost + 1 + 3 * d + (1.0 if sd in lakes else 0.0)
            if total < best.get(n, math.inf) - 1e-12:
                best[n] = total
                prev[n] = h
                heapq.heappush(queue, (total, n))
    if b not in best:
        return []
    path = [b]
    while path[-1] != a:
        path.append(prev[path[-1]])
    return path[::-1]


def build_roads(hexes, where: dict[str, str], lakes: dict[Side, str]
                ) -> tuple[dict[Side, str], list[str]]:
    roads: dict[Side, str] = {}
    notes = []
    rect = map_rect()
    blocked = {side(a, b) for a, b in EXAMPLE_PATH_SIDES}

    def town_point(stop: str | Point) -> Point:
        if isinstance(stop, str):
            return hex_center(*parse_label(where[stop]))
        return to_frame(*stop)

    for name, stops in ROADS:
        pts = [town_point(s) for s in stops]
        for part, start_cut, end_cut, start_side, end_side in clip_polyline(pts, rect):
            chain: list[str] = []
            for p, q in zip(part, part[1:], strict=False):
                a, b = label(*frame_hex(*p)), label(*frame_hex(*q))
                if chain:
                    a = chain[-1]
                if a == b:
                    continue
                path = hex_path(a, b, (p, q), hexes, blocked, lakes)
                if not path:
                    notes.append(f"{name}: no path {a}-{b}")
                    continue
                chain.extend(path if not chain else path[1:])
            for x, y in zip(chain, chain[1:], strict=False):
                roads.setdefault(side(x, y), "reconstructed")
            if chain and start_cut:
                hexes[chain[0]].road_exit = start_side
            if chain and end_cut:
                hexes[chain[-1]].road_exit = end_side
    return roads, notes


def moscow_ring() -> list[Side]:
    """13.0: the border around Moscow and its nearby hexes (here: its six neighbours)."""
    inner = {MOSCOW_HEX, *neighbours(MOSCOW_HEX)}
    return sorted(side(h, n) for h in inner for n in neighbours(h) if n not in inner)


def front_sides(hexes: dict[str, HexInfo]) -> list[Side]:
    out = set()
    for hid, h in hexes.items():
        for n in neighbours(hid):
            if n in hexes and hexes[n].side != h.side:
                out.add(side(hid, n))
    return sorted(out)


def mark_front_and_supply(hexes: dict[str, HexInfo], fronts: list[Side]) -> None:
    for a, b in fronts:
        for hid in (a, b):
            if hexes[hid].side == "soviet":
                hexes[hid].front = True
    for h in hexes.values():
        if h.road_exit == "east":
            h.entry = True


@dataclass
class MapData:
    hexes: dict[str, HexInfo]
    rivers: dict[Side, list[str]]
    lakes: dict[Side, str]
    roads: dict[Side, str]
    ring: list[Side]
    fronts: list[Side]
    notes: list[str]


def check_grid() -> None:
    """The frame geometry and the engine's grid agree on who touches whom."""
    for hid in ("1510", "2416", "2315", "0101", "3422"):
        c, r = parse_label(hid)
        cx, cy = hex_center(c, r)
        for n in neighbours(hid):
            nc, nr = parse_label(n)
            assert abs(math.dist((cx, cy), hex_center(nc, nr)) - 1) < 1e-9, (hid, n)


def generate() -> MapData:
    check_grid()
    got = lonlat_hex(*MOSCOW_LONLAT)
    if got != MOSCOW_HEX:
        sys.exit(f"the transform puts Moscow in {got}, not {MOSCOW_HEX}")
    hexes = build_hexes()
    where, notes = place_towns(hexes)
    graph = vertex_graph(hexes)
    lakes = build_lakes(hexes)
    rivers, rnotes = build_rivers(hexes, graph)
    roads, tnotes = build_roads(hexes, where, lakes)
    ring = moscow_ring()
    fronts = front_sides(hexes)
    mark_front_and_supply(hexes, fronts)
    for a, b in EXAMPLE_PATH_SIDES:  # the 4.5 example needs these hexsides bare
        assert side(a, b) not in rivers and side(a, b) not in roads, (a, b)
    return MapData(hexes, rivers, lakes, roads, ring, fronts, notes + rnotes + tnotes)


def to_xml(m: MapData) -> bytes:
    root = etree.Element(f"{{{NS}}}map", nsmap={None: NS})
    root.set("kind", "hexes")
    root.set("source", "reconstructed")
    root.set("first-column", f"{COLUMNS[0]:02d}")
    root.set("last-column", f"{COLUMNS[-1]:02d}")
    root.set("first-row", f"{ROWS[0]:02d}")
    root.set("last-row", f"{ROWS[-1]:02d}")
    root.set("edges", "; ".join(f"{k}: {v}" for k, v in EDGE_NAMES.items()))
    root.set("projection", describe_transform())
    root.set("credit", CREDIT)
    last = etree.SubElement(root, f"{{{NS}}}grid", orientation="flat", shifted="odd",
                            numbering="CCRR", source=GRID_SOURCE)
    for hid in sorted(m.hexes):
        h = m.hexes[hid]
        el = etree.SubElement(root, f"{{{NS}}}hex", id=hid, terrain=h.terrain, side=h.side)
        if h.front:
            el.set("front-line", "yes")
        if h.city:
            el.set("city", h.city)
            el.set("city-class", h.city_class)
            el.set("supply", h.side)
        if h.road_exit:
            el.set("road-exit", h.road_exit)
        if h.entry:
            el.set("entry", "soviet")
        if h.notes:
            el.set("note", "; ".join(h.notes))
        refs = [ref for src in h.sources if src.startswith("rules: ")
                for ref in src[len("rules: "):].split(", ")]
        el.set("source", f"rules: {', '.join(dict.fromkeys(refs))}; reconstructed"
               if refs else "reconstructed")
        last = el
    sides: list[tuple[Side, str, dict[str, str]]] = []
    for sd, rids in m.rivers.items():
        sides.append((sd, "river", {"rivers": " ".join(rids), "source": "reconstructed"}))
    for sd, lake in m.lakes.items():
        sides.append((sd, "lake", {"lake": lake, "source": "reconstructed"}))
    for sd, src in m.roads.items():
        sides.append((sd, "road", {"source": src}))
    for sd in m.ring:
        sides.append((sd, "moscow-ring", {"source": "rules: 13.0; reconstructed"}))
    for sd in m.fronts:
        sides.append((sd, "front-line", {"source": "rules: 1.3.2 C; reconstructed"}))
    order = {"river": 0, "lake": 1, "road": 2, "moscow-ring": 3, "front-line": 4}
    for (a, b), feat, attrs in sorted(sides, key=lambda s: (order[s[1]], s[0])):
        el = etree.SubElement(root, f"{{{NS}}}hexside", a=a, b=b, features=feat)
        for k, v in attrs.items():
            el.set(k, v)
        last = el
    root.text = "\n  "
    for el in root:
        el.tail = "\n  "
    last.tail = "\n"
    return (b"<?xml version='1.0' encoding='utf-8'?>\n"
            b"<!-- Generated by adjudicator.games.moscow.tools.gen_map from Natural Earth data "
            b"(public domain). Do not edit by hand. -->\n"
            + etree.tostring(root, encoding="utf-8") + b"\n")


# ---- preview -------------------------------------------------------------------------------
COLORS = {"clear": "#efe8c8", "light-woods": "#c2dca8", "woods": "#7fb565", "marsh": "#a8cdc8"}
PX = 30.0


def preview_svg(m: MapData) -> str:
    w = (COLUMNS[-1] * SQ3 / 2 + 1.2) * PX
    hgt = (ROWS[-1] + 1.6) * PX

    def xy(p: Point) -> str:
        return f"{p[0] * PX:.1f},{p[1] * PX:.1f}"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{hgt:.0f}" '
           f'font-family="DejaVu Sans">', f'<rect width="{w:.0f}" height="{hgt:.0f}" fill="#fff"/>']
    for h in m.hexes.values():
        pts = " ".join(xy(p) for p in corners(h.col, h.row))
        out.append(f'<polygon points="{pts}" fill="{COLORS[h.terrain]}" stroke="#999" '
                   f'stroke-width="0.5"/>')
        if h.side == "german":
            out.append(f'<polygon points="{pts}" fill="#555" fill-opacity="0.15"/>')
        if h.front:
            out.append(f'<polygon points="{pts}" fill="#f2c500" fill-opacity="0.25"/>')
    for geom in (f["geometry"]["coordinates"] for f in load_features(RIVERS_FILE)):
        for ln in geom:
            d = " ".join(xy(to_frame(*p)) for p in ln)
            out.append(f'<polyline points="{d}" fill="none" stroke="#48f" stroke-width="0.6" '
                       f'stroke-opacity="0.7"/>')
    for f in load_features(LAKES_FILE):
        for poly in f["geometry"]["coordinates"]:
            d = " ".join(xy(to_frame(*p)) for p in poly[0])
            out.append(f'<polygon points="{d}" fill="#9cc3e6" stroke="none" opacity="0.8"/>')

    def side_line(sd: Side, color: str, width: float, dash: str = "") -> None:
        (x1, y1), (x2, y2) = (vpoint(v) for v in hexside_ends(*sd))
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{x1 * PX:.1f}" y1="{y1 * PX:.1f}" x2="{x2 * PX:.1f}" '
                   f'y2="{y2 * PX:.1f}" stroke="{color}" stroke-width="{width}"{extra} '
                   f'stroke-linecap="round"/>')

    for sd in m.fronts:
        side_line(sd, "#e0b000", 4.0)
    for sd in m.rivers:
        side_line(sd, "#1f5fd0", 2.4)
    for sd in m.lakes:
        side_line(sd, "#0a3d91", 4.0, "2,2")
    for sd in m.ring:
        side_line(sd, "#c00", 3.0, "5,3")
    for a, b in m.roads:
        (x1, y1), (x2, y2) = hex_center(*parse_label(a)), hex_center(*parse_label(b))
        out.append(f'<line x1="{x1 * PX:.1f}" y1="{y1 * PX:.1f}" x2="{x2 * PX:.1f}" '
                   f'y2="{y2 * PX:.1f}" stroke="#8a2b0e" stroke-width="1.6"/>')
    for h in m.hexes.values():
        cx, cy = hex_center(h.col, h.row)
        out.append(f'<text x="{cx * PX:.1f}" y="{(cy - 0.3) * PX:.1f}" font-size="6" '
                   f'text-anchor="middle" fill="#555">{h.id}</text>')
        if h.entry:
            out.append(f'<circle cx="{cx * PX:.1f}" cy="{cy * PX:.1f}" r="6" fill="none" '
                       f'stroke="#e00" stroke-width="2"/>')
        if h.city:
            big = h.city_class == "city"
            out.append(f'<circle cx="{cx * PX:.1f}" cy="{cy * PX:.1f}" r="{4 if big else 2.4}" '
                       f'fill="{"#b00" if big else "#000"}"/>')
            out.append(f'<text x="{cx * PX:.1f}" y="{(cy + 0.36) * PX:.1f}" '
                       f'font-size="{8 if big else 6.5}" text-anchor="middle">{h.city}</text>')
    out.append("</svg>")
    return "\n".join(out)


def report(m: MapData) -> None:
    print(describe_transform())
    kinds: dict[str, int] = defaultdict(int)
    for h in m.hexes.values():
        kinds[h.terrain] += 1
    print(f"hexes: {len(m.hexes)} {dict(sorted(kinds.items()))}")
    print(f"german side {sum(h.side == 'german' for h in m.hexes.values())}, front-line "
          f"hexes {sum(h.front for h in m.hexes.values())}, front hexsides {len(m.fronts)}")
    print(f"rivers: {len(m.rivers)} hexsides; lakes {len(m.lakes)}; roads {len(m.roads)}; "
          f"ring {len(m.ring)}")
    print("entry hexes:", sorted(h.id for h in m.hexes.values() if h.entry))
    print("road exits:", sorted((h.id, h.road_exit) for h in m.hexes.values() if h.road_exit))
    print("lake hexsides with a road:", sorted(sd for sd in m.lakes if sd in m.roads))
    for n in m.notes:
        print("  note:", n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--extract", type=Path, metavar="DIR",
                    help="refresh geodata/*.geojson from Natural Earth")
    ap.add_argument("--out", type=Path, default=OUT_XML)
    ap.add_argument("--preview", type=Path, metavar="PNG", help="also render a preview PNG")
    ap.add_argument("--report", action="store_true", help="print the counts")
    args = ap.parse_args(argv)
    if args.extract:
        extract(args.extract)
        return 0
    m = generate()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(to_xml(m))
    if args.report:
        report(m)
    if args.preview:
        import cairosvg

        cairosvg.svg2png(bytestring=preview_svg(m).encode(), write_to=str(args.preview))
    if OUT_RNG.exists():
        schema = etree.RelaxNG(etree.parse(str(OUT_RNG)))
        if not schema.validate(etree.parse(str(args.out))):
            print(schema.error_log, file=sys.stderr)
            return 1
    print(f"wrote {args.out} ({len(m.hexes)} hexes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
