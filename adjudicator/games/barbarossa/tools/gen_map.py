"""Reconstruct the hex map of 1941: Operation Barbarossa as module XML.

The printed map of the game is not available.  The rulebook gives its grid
(four-digit CCRR hex numbers, flat-topped hexes in columns) and a handful of hex
numbers (Moscow 1808, Leningrad 0712, Helsinki 0416, ...).  The map is rebuilt
from real geography (Natural Earth, public domain) laid under that grid:

* a Lambert conformal conic projection (standard parallels 48 N and 60 N,
  central meridian 32 E) followed by a similarity transform (rotation, one
  scale, offset, with the mirror that turns "y up" into "rows grow downwards")
  fitted by least squares to the three cities the rulebook numbers.  The fit
  puts north on the left of the printed map: columns grow to the south-south-
  east, rows to the west-south-west, about 61 km per hex;
* every hex of columns 01-42 and rows 01-28 is cut from that frame.  A hex is
  water when less than half of it is land (lakes and seas named after the body
  of water), otherwise land, with the terrain that covers most of its land
  (hand-drawn forest, swamp and rough polygons, below) and the 22 June 1941
  country that owns most of it.  Neutral Sweden and Bulgaria are left off;
* rivers, the White Sea Canal and borders become hexside features; railroads
  (typed 1941 main lines) become chains of hexes joined by `rail` hexsides.

Facts the rulebook states are forced and tagged `source="rules: N.N"`; all else
is `source="reconstructed"`.  This is a development tool (needs shapely, lxml,
cairosvg for the preview); the generated map.xml is committed.  It reads only
the shared files of tools/geodata (land, lakes) and its own in geodata/ beside it
(rivers, seas: refresh them with --extract DIR).

    python -m adjudicator.games.barbarossa.tools.gen_map           # regenerate map.xml
    python -m adjudicator.games.barbarossa.tools.gen_map --preview out.png --report
    python -m adjudicator.games.barbarossa.tools.gen_map --extract /path/to/natural-earth-geojson
"""

from __future__ import annotations

import argparse
import cmath
import heapq
import json
import math
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import shapely
from lxml import etree
from shapely.geometry import LineString, MultiLineString, Point, Polygon, box, mapping, shape
from shapely.ops import unary_union

from adjudicator.engine.hexgrid import HexGrid

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
SHARED_GEO_DIR = ROOT / "tools" / "geodata"  # land and lakes, shared with the other maps
GEO_DIR = HERE / "geodata"  # this map's own rivers and seas
DATA_DIR = HERE.parent / "data"
OUT_XML = DATA_DIR / "map.xml"
OUT_RNG = DATA_DIR / "map.rng"
NS = "urn:pbem:module:1"
CREDIT = "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com"
GRID = HexGrid(orientation="flat", shifted="even", numbering="CCRR")
SQ3 = math.sqrt(3.0)

# The extent of the map: columns 01-42 (north to south), rows 01-28 (east to west).
COLUMNS = range(1, 43)
ROWS = range(1, 29)
EDGE_NAMES = {"north": "column 01", "south": "column 42", "east": "row 01", "west": "row 28"}

# --------------------------------------------------------------------------------------
# Projection and the fitted similarity transform
# --------------------------------------------------------------------------------------
LON0, LAT0, PAR1, PAR2 = 32.0, 55.0, 48.0, 60.0
EARTH_KM = 6371.0
_P1, _P2, _PO = (math.radians(v) for v in (PAR1, PAR2, LAT0))
_N = math.log(math.cos(_P1) / math.cos(_P2)) / math.log(
    math.tan(math.pi / 4 + _P2 / 2) / math.tan(math.pi / 4 + _P1 / 2))
_F = math.cos(_P1) * math.tan(math.pi / 4 + _P1 / 2) ** _N / _N
_RHO0 = EARTH_KM * _F / math.tan(math.pi / 4 + _PO / 2) ** _N


def lcc(lon: float, lat: float) -> tuple[float, float]:
    """Lambert conformal conic: km east and north of (LON0, LAT0)."""
    rho = EARTH_KM * _F / math.tan(math.pi / 4 + math.radians(lat) / 2) ** _N
    theta = _N * math.radians(lon - LON0)
    return rho * math.sin(theta), _RHO0 - rho * math.cos(theta)


def lcc_inverse(x: float, y: float) -> tuple[float, float]:
    rho = math.copysign(math.hypot(x, _RHO0 - y), _N)
    theta = math.atan2(x, _RHO0 - y)
    lat = 2 * math.atan((EARTH_KM * _F / rho) ** (1 / _N)) - math.pi / 2
    return LON0 + math.degrees(theta / _N), math.degrees(lat)


def hex_center(col: int, row: int) -> tuple[float, float]:
    """Centre of a printed hex in the map frame: x right, y down, one hex = 1 wide
    (flat side to flat side); even columns sit half a hex lower (shifted="even")."""
    return col * SQ3 / 2, row + (0.5 if col % 2 == 0 else 0.0)


HEX_RADIUS = 1 / SQ3  # centre to corner


def hex_polygon(col: int, row: int) -> Polygon:
    cx, cy = hex_center(col, row)
    return Polygon([(cx + HEX_RADIUS * math.cos(math.radians(a)),
                     cy + HEX_RADIUS * math.sin(math.radians(a))) for a in range(0, 360, 60)])


# The rulebook's numbered cities: the least-squares fit uses these and nothing else.
FIT_ANCHORS = {
    "Moscow": ((37.6136, 55.7541), "1808", "rules: 14.2.4 B"),
    "Leningrad": ((30.3141, 59.9410), "0712", "rules: 15.2.2 B"),
    "Helsinki": ((24.9322, 60.1775), "0416", "rules: 8.2.1 B"),
}


@dataclass(frozen=True)
class Transform:
    """Map frame = a * conj(lcc) + b, in complex numbers: a rotation and scale plus the
    mirror between the north-up projection and the rows-down printed map."""

    a: complex
    b: complex

    def to_frame(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = lcc(lon, lat)
        z = self.a * complex(x, -y) + self.b
        return z.real, z.imag

    def to_lonlat(self, fx: float, fy: float) -> tuple[float, float]:
        w = ((complex(fx, fy) - self.b) / self.a).conjugate()
        return lcc_inverse(w.real, w.imag)

    @property
    def km_per_hex(self) -> float:
        return 1 / abs(self.a)

    @property
    def rotation_deg(self) -> float:
        return math.degrees(cmath.phase(self.a))

    def describe(self) -> str:
        return (f"Lambert conformal conic (standard parallels {PAR1:g}N {PAR2:g}N, central "
                f"meridian {LON0:g}E, origin {LAT0:g}N, sphere R={EARTH_KM:g} km) -> "
                f"frame = a*conj(x + iy) + b with a = {self.a.real:.7f}{self.a.imag:+.7f}i, "
                f"b = {self.b.real:.4f}{self.b.imag:+.4f}i (x, y km east/north; frame x = "
                f"column*sqrt(3)/2, y = row (+0.5 on even columns)); {self.km_per_hex:.2f} "
                f"km per hex, rotation {self.rotation_deg:.2f} deg")


def fit_transform() -> Transform:
    """Least squares for (a, b) in frame = a*conj(w) + b over the rulebook's cities."""
    rows, rhs = [], []
    for (lon, lat), label, _ in FIT_ANCHORS.values():
        x, y = lcc(lon, lat)
        rows.append([complex(x, -y), 1])
        rhs.append(complex(*hex_center(int(label[:2]), int(label[2:]))))
    sol = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)[0]
    return Transform(complex(sol[0]), complex(sol[1]))


def frame_hex(fx: float, fy: float) -> tuple[int, int]:
    """The printed (column, row) of the hex containing a frame point."""
    best = None
    c0 = round(fx / (SQ3 / 2))
    for col in range(c0 - 1, c0 + 2):
        r0 = round(fy - (0.5 if col % 2 == 0 else 0))
        for row in range(r0 - 1, r0 + 2):
            cx, cy = hex_center(col, row)
            d = (cx - fx) ** 2 + (cy - fy) ** 2
            if best is None or d < best[0]:
                best = (d, col, row)
    assert best is not None
    return best[1], best[2]


def label(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def parse_label(text: str) -> tuple[int, int]:
    return int(text[:2]), int(text[2:])


# --------------------------------------------------------------------------------------
# Hand-made tables (lon, lat), from general knowledge: 1941 borders, terrain, cities,
# railroads.  Accurate to perhaps 10-20 km, a third of a hex.
# --------------------------------------------------------------------------------------
Coords = list[tuple[float, float]]

# Countries on 22 June 1941.  Land not inside any of these is Soviet.  "germany" is
# Greater Germany of the rules (17.1.3, 20.6.2): the Reich with East Prussia and
# Memel, the annexed Polish lands and the General Government.
_USSR_WEST = [  # the Soviet border from the Baltic to the Uzhok pass (Memel, Bug, San)
    (21.06, 55.87), (21.30, 55.88), (21.65, 55.72), (21.85, 55.55), (22.10, 55.35),
    (22.55, 55.08), (22.85, 55.05), (22.80, 54.90), (22.75, 54.62), (22.73, 54.40),
    (23.30, 54.25), (23.40, 54.05), (23.05, 53.85), (22.55, 53.70), (22.10, 53.50),
    (21.87, 53.23), (22.00, 52.95), (22.05, 52.65), (22.55, 52.40), (23.00, 52.30),
    (23.45, 52.20), (23.62, 52.08), (23.60, 51.80), (23.55, 51.55), (23.65, 51.30),
    (23.85, 51.05), (24.00, 50.80), (24.10, 50.55), (23.90, 50.40), (23.50, 50.30),
    (23.20, 50.15), (22.95, 49.95), (22.77, 49.78), (22.55, 49.55), (22.40, 49.40),
    (22.65, 49.05),
]
_HUNGARY_USSR = [(22.65, 49.05), (22.90, 49.00), (23.40, 48.90), (23.90, 48.70),
                 (24.40, 48.30), (24.65, 48.05), (24.95, 47.75)]
_ROMANIA_USSR = [  # Northern Bukovina, then the Prut and the Chilia arm of the Danube
    (24.95, 47.75), (25.20, 47.85), (25.55, 47.95), (25.90, 47.95), (26.20, 48.00),
    (26.45, 48.10), (26.80, 48.27), (27.20, 47.90), (27.50, 47.55), (27.80, 47.20),
    (28.00, 46.90), (28.20, 46.50), (28.20, 46.00), (28.20, 45.60), (28.20, 45.47),
    (28.84, 45.33), (29.30, 45.28), (29.70, 45.22), (30.20, 45.00),
]
_HUNGARY_ROMANIA = [  # the Vienna award line of 1940
    (24.95, 47.75), (25.30, 47.30), (25.60, 46.90), (25.80, 46.60), (26.10, 46.20),
    (26.00, 45.90), (25.50, 46.00), (24.80, 46.30), (24.20, 46.50), (23.70, 46.60),
    (23.20, 46.55), (22.60, 46.75), (22.00, 46.75), (21.60, 46.65), (21.20, 46.30),
    (20.70, 46.15), (20.20, 46.15),
]
_CARPATHIAN_GG = [(22.65, 49.05), (22.30, 49.15), (21.70, 49.40), (21.00, 49.40),
                  (20.30, 49.40), (19.80, 49.20), (19.00, 49.40), (18.50, 49.50), (17.0, 50.0)]
_SLOVAK_HUNGARY = [(22.30, 49.15), (22.10, 48.90), (21.60, 48.80), (21.00, 48.80),
                   (20.50, 48.60), (19.00, 48.10), (17.00, 48.00)]

COUNTRIES: dict[str, Coords] = {
    "finland": [(18.0, 59.75), (24.0, 59.75), (26.5, 60.00), (27.5, 60.30), (27.80, 60.45),
                (27.78, 60.56), (28.05, 60.75), (28.55, 61.00), (28.75, 61.14), (29.25, 61.27),
                (29.60, 61.50), (30.05, 61.75), (30.40, 61.95), (30.65, 62.15), (31.00, 62.40),
                (31.35, 62.80), (31.55, 63.10), (31.25, 63.45), (30.60, 63.85), (30.00, 64.20),
                (29.60, 64.70), (30.05, 65.10), (29.70, 65.60), (29.7, 70.0), (18.0, 70.0)],
    "germany": [(20.5, 56.2), *_USSR_WEST, *_CARPATHIAN_GG[1:], (10.0, 50.5), (10.0, 56.2)],
    "slovakia": [*_CARPATHIAN_GG[1:], *_SLOVAK_HUNGARY[::-1]],
    "hungary": [*_SLOVAK_HUNGARY[::-1], *_CARPATHIAN_GG[:1], *_HUNGARY_USSR[1:],
                *_HUNGARY_ROMANIA[1:], (19.5, 46.1), (18.8, 45.9), (16.0, 45.8), (16.0, 48.0)],
    "romania": [*_HUNGARY_ROMANIA[::-1], *_ROMANIA_USSR[1:], (30.5, 43.5), (28.6, 43.75),
                (27.9, 43.98), (27.3, 44.10), (27.0, 44.10), (26.0, 43.90), (25.0, 43.70),
                (22.9, 43.80), (22.4, 44.50), (21.4, 44.80), (20.2, 46.15)],
    # neutral: their land hexes are left off the map
    "sweden": [(10.0, 55.2), (19.45, 55.2), (19.45, 66.0), (10.0, 66.0)],
    "bulgaria": [(22.3, 41.0), (22.4, 44.2), (22.9, 43.80), (25.0, 43.70), (26.0, 43.90),
                 (27.0, 44.10), (27.3, 44.10), (27.9, 43.98), (28.6, 43.75), (30.0, 43.4),
                 (30.0, 41.0)],
}
NEUTRAL = {"sweden", "bulgaria"}
# A coastal city keeps its hex on land when at least this much of the hex is land.
CITY_LAND_SHARE = 0.2

# Terrain other than clear.  A land hex takes the type that covers most of its land
# when that is at least TERRAIN_SHARE of it (rough before swamp before forest on a tie).
TERRAIN_SHARE = 0.42
TERRAIN_AREAS: list[tuple[str, str, Coords]] = [
    # --- rough: mountains ---
    ("rough", "Carpathians (Beskids, Gorgany, Bukovina)",
     [(21.6, 49.45), (22.4, 49.55), (23.3, 49.3), (24.2, 48.95), (24.9, 48.45), (25.4, 47.95),
      (25.8, 47.55), (26.1, 47.0), (26.4, 46.4), (26.6, 45.9), (26.6, 45.5), (26.0, 45.35),
      (25.5, 45.45), (25.4, 45.9), (25.2, 46.5), (24.9, 47.1), (24.4, 47.6), (23.7, 48.1),
      (23.0, 48.45), (22.3, 48.7), (21.7, 49.0)]),
    ("rough", "Southern Carpathians (Transylvanian Alps)",
     [(22.2, 45.7), (23.5, 45.7), (24.6, 45.75), (25.5, 45.75), (26.4, 45.6), (26.6, 45.4),
      (26.0, 45.2), (25.2, 45.25), (24.2, 45.25), (23.2, 45.2), (22.3, 45.3)]),
    ("rough", "Apuseni mountains",
     [(22.3, 46.3), (22.6, 46.9), (23.2, 46.85), (23.5, 46.4), (23.0, 46.05)]),
    ("rough", "Tatra and Slovak ore mountains",
     [(19.2, 49.35), (20.5, 49.35), (21.3, 49.2), (21.2, 48.75), (20.0, 48.6), (19.0, 48.8)]),
    ("rough", "Crimean mountains",
     [(33.45, 44.45), (33.55, 44.75), (33.95, 44.95), (34.5, 45.05), (35.2, 45.15),
      (35.5, 45.05), (35.2, 44.8), (34.5, 44.6), (33.9, 44.4)]),
    ("rough", "Caucasus foothills (Maikop, Tuapse)",
     [(37.4, 44.8), (38.6, 44.55), (39.6, 44.45), (40.5, 44.45), (41.5, 44.2), (42.6, 43.9),
      (43.0, 43.4), (41.0, 43.3), (39.5, 43.7), (38.3, 44.2), (37.3, 44.6)]),
    # --- swamp ---
    ("swamp", "Pripet marshes (Polesie)",
     [(23.9, 52.0), (24.6, 52.45), (25.6, 52.65), (26.8, 52.75), (28.0, 52.6), (29.3, 52.4),
      (30.3, 52.05), (30.6, 51.6), (29.8, 51.4), (28.3, 51.45), (27.0, 51.35), (25.8, 51.45),
      (24.9, 51.5), (24.2, 51.7)]),
    ("swamp", "Volkhov and Lake Ilmen marshes",
     [(30.8, 58.2), (31.1, 58.7), (31.5, 59.25), (32.2, 59.8), (32.9, 59.6), (32.5, 58.9),
      (32.1, 58.3), (31.6, 57.9)]),
    ("swamp", "Lovat and Polist marshes (south of Lake Ilmen)",
     [(30.9, 57.8), (31.6, 58.05), (32.4, 57.95), (32.3, 57.4), (31.5, 57.25), (30.8, 57.45)]),
    ("swamp", "Danube delta",
     [(28.7, 45.15), (29.0, 45.5), (29.75, 45.45), (29.75, 44.8), (28.9, 44.9)]),
    # --- forest ---
    ("forest", "Finland, Karelia and the northern taiga",
     [(18.0, 60.55), (23.5, 60.6), (26.0, 60.7), (27.6, 60.8), (28.6, 60.95), (29.4, 60.6),
      (29.9, 60.35), (30.6, 60.35), (31.5, 60.15), (32.3, 59.7), (33.2, 59.25), (34.3, 58.7),
      (35.5, 58.5), (37.0, 58.55), (38.5, 58.75), (40.5, 58.9), (42.5, 58.5), (44.5, 58.0),
      (50.0, 57.8), (50.0, 66.0), (18.0, 66.0)]),
    ("forest", "Luga and Ingria forests",
     [(28.1, 59.05), (29.4, 59.25), (30.3, 59.35), (30.9, 59.15), (30.9, 58.6), (30.4, 58.0),
      (29.4, 57.95), (28.5, 58.3)]),
    ("forest", "Valdai hills and the upper Volga",
     [(31.7, 57.25), (32.4, 58.2), (33.6, 58.6), (35.2, 58.3), (36.6, 58.0), (37.6, 57.7),
      (36.6, 56.9), (35.0, 56.6), (33.5, 56.3), (32.2, 56.5)]),
    ("forest", "Belyi, Rzhev and Vyazma forests",
     [(31.4, 56.0), (32.2, 56.35), (33.6, 56.15), (34.8, 55.7), (35.2, 55.15), (34.2, 54.85),
      (32.9, 55.1), (31.9, 55.5)]),
    ("forest", "Bryansk forests",
     [(32.8, 54.35), (34.4, 54.3), (35.7, 53.95), (35.6, 53.0), (34.7, 52.4), (33.6, 52.35),
      (32.7, 52.8), (32.5, 53.6)]),
    ("forest", "Forests north of Moscow (Klin, Dmitrov, Zagorsk)",
     [(36.3, 56.35), (37.4, 56.6), (38.6, 56.85), (39.6, 57.1), (39.2, 57.8), (37.8, 57.9),
      (36.9, 57.4)]),
    ("forest", "Meshchera",
     [(38.7, 55.9), (40.3, 56.05), (41.9, 55.7), (41.6, 54.9), (40.1, 54.7), (38.8, 55.1)]),
    ("forest", "Vetluga and Kerzhenets forests",
     [(42.2, 56.75), (44.0, 56.55), (50.0, 56.3), (50.0, 58.0), (43.0, 58.2), (42.0, 57.8)]),
    ("forest", "Berezina, Lepel and Polotsk forests",
     [(27.6, 54.0), (28.3, 55.0), (29.0, 55.8), (29.8, 56.2), (30.6, 55.9), (29.9, 55.1),
      (29.4, 54.1), (28.6, 53.6), (27.9, 53.6)]),
    ("forest", "Naliboki forest",
     [(25.7, 53.55), (26.6, 54.2), (27.3, 53.95), (26.7, 53.4)]),
    ("forest", "Bialowieza forest",
     [(23.4, 52.5), (24.1, 53.0), (24.6, 52.55), (23.9, 52.3)]),
    ("forest", "Augustow forest",
     [(22.7, 53.7), (23.5, 54.15), (23.9, 53.8), (23.2, 53.45)]),
    ("forest", "Polesie woods of Volhynia and Zhitomir",
     [(24.6, 51.45), (25.8, 51.35), (27.6, 51.3), (29.6, 51.25), (30.4, 51.05), (30.2, 50.65),
      (29.0, 50.55), (27.6, 50.6), (26.4, 50.75), (25.2, 50.95)]),
    ("forest", "Chernigov and Desna woods",
     [(30.6, 51.3), (31.3, 52.1), (32.8, 52.3), (33.4, 51.9), (32.5, 51.55), (31.5, 51.25)]),
    ("forest", "Latgale and north-east Estonia",
     [(26.9, 59.1), (27.9, 59.35), (28.1, 58.9), (27.6, 57.2), (27.9, 56.5), (27.3, 56.3),
      (26.7, 56.9), (27.0, 58.3), (27.2, 58.85)]),
]

# Cities: (name, lon, lat, class).  Major cities: the Soviet cities of 200,000 people or
# more in 1939 (Kalinin is a major city by rule 14.1.2.2's example).  Archangel and
# Sevastopol are named but are not major cities (18.3).  Names as in 1941.
CITIES: list[tuple[str, float, float, str]] = [
    ("Moscow", 37.62, 55.75, "major"), ("Leningrad", 30.31, 59.94, "major"),
    ("Kiev", 30.52, 50.45, "major"), ("Kharkov", 36.25, 50.00, "major"),
    ("Gorky", 44.00, 56.33, "major"), ("Odessa", 30.73, 46.48, "major"),
    ("Rostov", 39.71, 47.24, "major"), ("Dnepropetrovsk", 35.00, 48.47, "major"),
    ("Stalino", 37.80, 48.00, "major"), ("Stalingrad", 44.50, 48.71, "major"),
    ("Voronezh", 39.20, 51.67, "major"), ("Yaroslavl", 39.87, 57.63, "major"),
    ("Ivanovo", 40.98, 57.00, "major"), ("Zaporozhye", 35.14, 47.84, "major"),
    ("Tula", 37.62, 54.19, "major"), ("Kalinin", 35.90, 56.86, "major"),
    ("Minsk", 27.56, 53.90, "major"), ("Riga", 24.11, 56.95, "major"),
    ("Archangel", 40.54, 64.54, "reference"), ("Sevastopol", 33.52, 44.60, "reference"),
    ("Vologda", 39.89, 59.22, "reference"), ("Krasnodar", 38.98, 45.04, "reference"),
    ("Helsinki", 24.94, 60.17, "reference"),
    ("Tallinn", 24.75, 59.44, "reference"), ("Narva", 28.19, 59.38, "reference"),
    ("Tartu", 26.72, 58.38, "reference"), ("Pskov", 28.33, 57.82, "reference"),
    ("Novgorod", 31.27, 58.52, "reference"), ("Staraya Russa", 31.35, 57.99, "reference"),
    ("Luga", 29.85, 58.74, "reference"), ("Tikhvin", 33.60, 59.64, "reference"),
    ("Volkhov", 32.35, 59.92, "reference"), ("Petrozavodsk", 34.36, 61.79, "reference"),
    ("Vyborg", 28.75, 60.71, "reference"), ("Sortavala", 30.69, 61.70, "reference"),
    ("Kholm", 31.13, 57.15, "reference"), ("Demyansk", 32.47, 57.64, "reference"),
    ("Velikiye Luki", 30.53, 56.34, "reference"), ("Toropets", 31.63, 56.50, "reference"),
    ("Nevel", 29.92, 56.02, "reference"), ("Rzhev", 34.33, 56.26, "reference"),
    ("Vyazma", 34.30, 55.21, "reference"), ("Smolensk", 32.05, 54.78, "reference"),
    ("Vitebsk", 30.20, 55.19, "reference"), ("Polotsk", 28.80, 55.49, "reference"),
    ("Orsha", 30.42, 54.51, "reference"), ("Mogilev", 30.33, 53.90, "reference"),
    ("Bobruisk", 29.22, 53.14, "reference"), ("Gomel", 30.98, 52.44, "reference"),
    ("Mozyr", 29.25, 52.05, "reference"), ("Pinsk", 26.10, 52.11, "reference"),
    ("Baranovichi", 26.00, 53.13, "reference"), ("Brest", 23.69, 52.10, "reference"),
    ("Grodno", 23.83, 53.68, "reference"), ("Bialystok", 23.16, 53.13, "reference"),
    ("Lida", 25.30, 53.89, "reference"), ("Vilnius", 25.28, 54.69, "reference"),
    ("Kaunas", 23.90, 54.90, "reference"), ("Siauliai", 23.32, 55.93, "reference"),
    ("Liepaja", 21.01, 56.51, "reference"), ("Ventspils", 21.57, 57.39, "reference"),
    ("Daugavpils", 26.53, 55.87, "reference"), ("Rezekne", 27.33, 56.51, "reference"),
    ("Valga", 26.05, 57.78, "reference"), ("Bryansk", 34.36, 53.25, "reference"),
    ("Roslavl", 32.86, 53.95, "reference"), ("Orel", 36.07, 52.97, "reference"),
    ("Kursk", 36.19, 51.73, "reference"), ("Belgorod", 36.59, 50.60, "reference"),
    ("Yelets", 38.50, 52.62, "reference"), ("Kaluga", 36.27, 54.51, "reference"),
    ("Ryazan", 39.74, 54.63, "reference"), ("Vladimir", 40.40, 56.13, "reference"),
    ("Kostroma", 40.93, 57.77, "reference"), ("Rybinsk", 38.84, 58.05, "reference"),
    ("Cherepovets", 37.90, 59.13, "reference"), ("Tambov", 41.45, 52.72, "reference"),
    ("Saratov", 46.03, 51.53, "reference"), ("Penza", 45.00, 53.20, "reference"),
    ("Chernigov", 31.30, 51.49, "reference"), ("Konotop", 33.20, 51.24, "reference"),
    ("Poltava", 34.55, 49.59, "reference"), ("Sumy", 34.80, 50.91, "reference"),
    ("Kremenchug", 33.42, 49.07, "reference"), ("Cherkassy", 32.06, 49.44, "reference"),
    ("Kirovograd", 32.26, 48.51, "reference"), ("Krivoi Rog", 33.39, 47.91, "reference"),
    ("Nikolaev", 31.99, 46.97, "reference"), ("Kherson", 32.62, 46.64, "reference"),
    ("Uman", 30.22, 48.75, "reference"), ("Vinnitsa", 28.47, 49.23, "reference"),
    ("Zhitomir", 28.66, 50.25, "reference"), ("Korosten", 28.64, 50.95, "reference"),
    ("Proskurov", 27.00, 49.42, "reference"), ("Kamenets-Podolsky", 26.58, 48.68, "reference"),
    ("Tarnopol", 25.59, 49.55, "reference"), ("Lvov", 24.03, 49.84, "reference"),
    ("Stanislav", 24.71, 48.92, "reference"), ("Chernovtsy", 25.93, 48.29, "reference"),
    ("Rovno", 26.25, 50.62, "reference"), ("Lutsk", 25.33, 50.75, "reference"),
    ("Kovel", 24.72, 51.21, "reference"), ("Sarny", 26.61, 51.34, "reference"),
    ("Kishinev", 28.86, 47.01, "reference"), ("Beltsy", 27.93, 47.76, "reference"),
    ("Izmail", 28.84, 45.35, "reference"), ("Tiraspol", 29.63, 46.84, "reference"),
    ("Simferopol", 34.10, 44.95, "reference"), ("Kerch", 36.47, 45.36, "reference"),
    ("Feodosiya", 35.38, 45.03, "reference"), ("Yevpatoria", 33.37, 45.19, "reference"),
    ("Melitopol", 35.37, 46.85, "reference"), ("Mariupol", 37.55, 47.10, "reference"),
    ("Taganrog", 38.90, 47.22, "reference"), ("Voroshilovgrad", 39.31, 48.57, "reference"),
    ("Izyum", 37.26, 49.21, "reference"), ("Kupyansk", 37.62, 49.71, "reference"),
    ("Millerovo", 40.40, 48.92, "reference"), ("Kamensk", 40.27, 48.32, "reference"),
    ("Novocherkassk", 40.10, 47.42, "reference"), ("Salsk", 41.54, 46.47, "reference"),
    ("Tikhoretsk", 40.13, 45.85, "reference"), ("Armavir", 41.12, 45.00, "reference"),
    ("Maikop", 40.10, 44.61, "reference"), ("Novorossiysk", 37.77, 44.72, "reference"),
    ("Voroshilovsk", 41.97, 45.04, "reference"), ("Elista", 44.27, 46.31, "reference"),
    ("Kotelnikovo", 43.15, 47.63, "reference"), ("Kalach", 43.50, 48.69, "reference"),
    ("Rossosh", 39.57, 50.20, "reference"), ("Borisoglebsk", 42.08, 51.37, "reference"),
    ("Kamyshin", 45.40, 50.09, "reference"), ("Michurinsk", 40.50, 52.90, "reference"),
    ("Murom", 42.05, 55.57, "reference"), ("Mozhaisk", 36.03, 55.50, "reference"),
    ("Bologoye", 34.05, 57.88, "reference"), ("Ostashkov", 33.10, 57.14, "reference"),
    ("Ostrov", 28.36, 57.34, "reference"), ("Lodeynoye Pole", 33.55, 60.73, "reference"),
    ("Medvezhyegorsk", 34.46, 62.91, "reference"), ("Nyandoma", 40.20, 61.67, "reference"),
    ("Kargopol", 38.95, 61.50, "reference"), ("Onega", 38.12, 63.91, "reference"),
    ("Belozersk", 37.79, 60.03, "reference"), ("Vytegra", 36.45, 61.00, "reference"),
    ("Konigsberg", 20.51, 54.71, "reference"), ("Tilsit", 21.88, 55.08, "reference"),
    ("Memel", 21.13, 55.71, "reference"), ("Insterburg", 21.80, 54.63, "reference"),
    ("Elbing", 19.40, 54.16, "reference"), ("Warsaw", 21.01, 52.23, "reference"),
    ("Lublin", 22.57, 51.25, "reference"), ("Przemysl", 22.77, 49.78, "reference"),
    ("Radom", 21.15, 51.40, "reference"), ("Kielce", 20.63, 50.87, "reference"),
    ("Litzmannstadt", 19.46, 51.76, "reference"), ("Suwalki", 22.93, 54.10, "reference"),
    ("Chelm", 23.47, 51.14, "reference"), ("Zamosc", 23.25, 50.72, "reference"),
    ("Iasi", 27.59, 47.16, "reference"), ("Bucharest", 26.10, 44.43, "reference"),
    ("Ploiesti", 26.02, 44.94, "reference"), ("Galati", 28.05, 45.43, "reference"),
    ("Constanta", 28.63, 44.17, "reference"), ("Focsani", 27.18, 45.70, "reference"),
    ("Bacau", 26.91, 46.57, "reference"), ("Brasov", 25.60, 45.65, "reference"),
    ("Suceava", 26.25, 47.65, "reference"), ("Mukacevo", 22.72, 48.44, "reference"),
    ("Turku", 22.27, 60.45, "reference"), ("Kotka", 26.95, 60.47, "reference"),
    ("Lappeenranta", 28.19, 61.06, "reference"), ("Mikkeli", 27.27, 61.69, "reference"),
    ("Kouvola", 26.70, 60.87, "reference"), ("Joensuu", 29.76, 62.60, "reference"),
    ("Tampere", 23.76, 61.50, "reference"), ("Kuopio", 27.68, 62.89, "reference"),
]

# Where the rulebook names a hex, the city is put there whatever the fit says.
RULE_CITY_HEXES = {"Moscow": "1808", "Leningrad": "0712", "Helsinki": "0416"}
RULE_CITY_SOURCES = {
    "Moscow": "rules: 14.2.4 B", "Leningrad": "rules: 15.2.2 B", "Helsinki": "rules: 8.2.1 B",
    "Kalinin": "rules: 14.1.2.2", "Archangel": "rules: 18.3", "Sevastopol": "rules: 18.3",
    "Vologda": "rules: 1.1.2 A", "Krasnodar": "rules: 1.1.2 A", "Odessa": "rules: 17.1.5",
    "Kiev": "rules: 20.6.4",
}

# Hexes the rulebook names for other reasons (setup hexes, the Baltic Fleet crossing).
RULE_HEXES = {
    "1825": ("46th Panzer Corps deployment hex", "rules: 1.2.2"),
    "1222": ("Soviet 11th Army deployment hex", "rules: 19.0 B"),
    "0713": ("fortifications hex across the all-sea hexside from Leningrad", "rules: 20.1.1 B"),
}
FORTIFICATIONS = {"0713": "rules: 20.1.1 B"}

# 1941 railroads, as chains of towns (lon, lat).  A chain whose end lies off the map
# leads off the edge it crosses.
T = {
    "Leningrad": (30.31, 59.94), "Moscow": (37.62, 55.75), "Chudovo": (31.67, 59.12),
    "Malaya Vishera": (32.23, 58.85), "Bologoye": (34.05, 57.88),
    "Vyshny Volochek": (34.57, 57.59), "Kalinin": (35.90, 56.86), "Klin": (36.73, 56.33),
    "Gatchina": (30.12, 59.57), "Luga": (29.85, 58.74), "Pskov": (28.33, 57.82),
    "Pechory": (27.61, 57.81), "Valga": (26.05, 57.78), "Valmiera": (25.43, 57.54),
    "Sigulda": (24.85, 57.15), "Riga": (24.11, 56.95), "Ostrov": (28.36, 57.34),
    "Pytalovo": (27.92, 57.07), "Rezekne": (27.33, 56.51), "Daugavpils": (26.53, 55.87),
    "Svencionys": (26.15, 55.15), "Vilnius": (25.28, 54.69), "Grodno": (23.83, 53.68),
    "Bialystok": (23.16, 53.13), "Malkinia": (22.03, 52.70), "Warsaw": (21.01, 52.23),
    "Kingisepp": (28.60, 59.37), "Narva": (28.19, 59.38), "Rakvere": (26.36, 59.35),
    "Tapa": (25.95, 59.26), "Tallinn": (24.75, 59.44), "Tartu": (26.72, 58.38),
    "Jelgava": (23.72, 56.65), "Siauliai": (23.32, 55.93), "Radviliskis": (23.53, 55.81),
    "Kaunas": (23.90, 54.90), "Virbalis": (22.77, 54.63), "Insterburg": (21.80, 54.63),
    "Konigsberg": (20.51, 54.71), "Elbing": (19.40, 54.16), "Marienburg": (19.03, 54.04),
    "Dirschau": (18.78, 54.06), "Taurage": (22.29, 55.25), "Tilsit": (21.88, 55.08),
    "Mazeikiai": (22.35, 56.31), "Liepaja": (21.01, 56.51), "Tukums": (23.16, 56.97),
    "Ventspils": (21.57, 57.39), "Krustpils": (25.86, 56.51), "Molodechno": (26.85, 54.31),
    "Minsk": (27.56, 53.90), "Borisov": (28.50, 54.23), "Orsha": (30.42, 54.51),
    "Smolensk": (32.05, 54.78), "Vyazma": (34.30, 55.21), "Mozhaisk": (36.03, 55.50),
    "Baranovichi": (26.00, 53.13), "Brest": (23.69, 52.10), "Siedlce": (22.27, 52.17),
    "Kobrin": (24.36, 52.21), "Pinsk": (26.10, 52.11), "Luninets": (26.80, 52.25),
    "Kalinkovichi": (29.33, 52.13), "Rechitsa": (30.39, 52.36), "Gomel": (30.98, 52.44),
    "Sarny": (26.61, 51.34), "Rovno": (26.25, 50.62), "Zdolbunov": (26.25, 50.52),
    "Brody": (25.15, 50.08), "Lvov": (24.03, 49.84), "Kovel": (24.72, 51.21),
    "Chelm": (23.47, 51.14), "Lublin": (22.57, 51.25), "Deblin": (21.85, 51.56),
    "Radom": (21.15, 51.40), "Kielce": (20.63, 50.87), "Krakow": (19.96, 50.06),
    "Bobruisk": (29.22, 53.14), "Zhlobin": (30.02, 52.89), "Mogilev": (30.33, 53.90),
    "Vitebsk": (30.20, 55.19), "Polotsk": (28.80, 55.49), "Nevel": (29.92, 56.02),
    "Velikiye Luki": (30.53, 56.34), "Novosokolniki": (30.16, 56.34), "Dno": (29.97, 57.83),
    "Batetsky": (30.31, 58.64), "Sebezh": (28.49, 56.29), "Rzhev": (34.33, 56.26),
    "Volokolamsk": (35.95, 56.03), "Toropets": (31.63, 56.50), "Ostashkov": (33.10, 57.14),
    "Roslavl": (32.86, 53.95), "Bryansk": (34.36, 53.25), "Kaluga": (36.27, 54.51),
    "Tula": (37.62, 54.19), "Sukhinichi": (35.33, 54.10), "Maloyaroslavets": (36.47, 55.01),
    "Khutor Mikhailovsky": (33.93, 52.07), "Konotop": (33.20, 51.24), "Bakhmach": (32.80, 51.18),
    "Nezhin": (31.89, 51.05), "Kiev": (30.52, 50.45), "Orel": (36.07, 52.97),
    "Kursk": (36.19, 51.73), "Belgorod": (36.59, 50.60), "Kharkov": (36.25, 50.00),
    "Lozovaya": (36.32, 48.89), "Izyum": (37.26, 49.21), "Slavyansk": (37.60, 48.85),
    "Konstantinovka": (37.70, 48.53), "Debaltsevo": (38.40, 48.34), "Ilovaisk": (38.20, 47.93),
    "Taganrog": (38.90, 47.22), "Rostov": (39.71, 47.24), "Pavlograd": (35.87, 48.53),
    "Sinelnikovo": (35.51, 48.32), "Zaporozhye": (35.14, 47.84), "Melitopol": (35.37, 46.85),
    "Dzhankoi": (34.39, 45.71), "Simferopol": (34.10, 44.95), "Sevastopol": (33.52, 44.60),
    "Vladislavovka": (35.40, 45.17), "Kerch": (36.47, 45.36),
    "Krasnograd": (35.45, 49.37), "Novomoskovsk": (35.21, 48.63),
    "Dnepropetrovsk": (35.00, 48.47), "Pyatikhatki": (33.69, 48.56), "Znamenka": (32.66, 48.71),
    "Kirovograd": (32.26, 48.51), "Pomoshnaya": (31.41, 48.24), "Birzula": (29.53, 47.75),
    "Razdelnaya": (30.08, 46.84), "Odessa": (30.73, 46.48), "Poltava": (34.55, 49.59),
    "Kremenchug": (33.42, 49.07), "Krivoi Rog": (33.39, 47.91), "Dolinskaya": (32.77, 48.10),
    "Nikolaev": (31.99, 46.97), "Kherson": (32.62, 46.64), "Snigirevka": (32.80, 47.07),
    "Tiraspol": (29.63, 46.84), "Kishinev": (28.86, 47.01), "Ungheni": (27.80, 47.20),
    "Iasi": (27.59, 47.16), "Pascani": (26.72, 47.25), "Suceava": (26.25, 47.65),
    "Chernovtsy": (25.93, 48.29), "Kolomyya": (25.04, 48.53), "Stanislav": (24.71, 48.92),
    "Stryi": (23.85, 49.26), "Lavochne": (23.15, 48.99), "Mukacevo": (22.72, 48.44),
    "Chop": (22.20, 48.43), "Przemysl": (22.77, 49.78), "Tarnow": (20.99, 50.01),
    "Bacau": (26.91, 46.57), "Focsani": (27.18, 45.70), "Buzau": (26.82, 45.15),
    "Ploiesti": (26.02, 44.94), "Bucharest": (26.10, 44.43), "Craiova": (23.80, 44.32),
    "Brasov": (25.60, 45.65), "Galati": (28.05, 45.43), "Braila": (27.96, 45.27),
    "Constanta": (28.63, 44.17), "Cernavoda": (28.03, 44.34), "Basarabeasca": (28.70, 46.33),
    "Reni": (28.27, 45.45), "Okniza": (27.43, 48.38), "Beltsy": (27.93, 47.76),
    "Zhmerinka": (28.11, 49.04), "Proskurov": (27.00, 49.42), "Tarnopol": (25.59, 49.55),
    "Kazatin": (28.84, 49.72), "Fastov": (29.92, 50.08), "Berdichev": (28.58, 49.90),
    "Shepetovka": (27.06, 50.18), "Korosten": (28.64, 50.95), "Ovruch": (28.80, 51.32),
    "Vapnyarka": (28.75, 48.53), "Grebenka": (32.44, 50.11), "Lubny": (33.00, 50.02),
    "Vorozhba": (34.26, 51.18), "Lgov": (35.26, 51.66), "Kastornoye": (38.13, 52.01),
    "Voronezh": (39.20, 51.67), "Gryazi": (39.95, 52.49), "Michurinsk": (40.50, 52.90),
    "Ryazan": (39.74, 54.63), "Kolomna": (38.75, 55.08), "Liski": (39.50, 50.98),
    "Rossosh": (39.57, 50.20), "Millerovo": (40.40, 48.92), "Kamensk": (40.27, 48.32),
    "Likhaya": (40.20, 48.10), "Tambov": (41.45, 52.72), "Rtishchevo": (43.78, 52.26),
    "Saratov": (46.03, 51.53), "Uralsk": (51.37, 51.23), "Borisoglebsk": (42.08, 51.37),
    "Povorino": (42.24, 51.20), "Archeda": (43.40, 49.94), "Ilovlya": (44.30, 49.30),
    "Stalingrad": (44.50, 48.71), "Chir": (42.95, 48.55), "Morozovsk": (41.83, 48.35),
    "Kotelnikovo": (43.15, 47.63), "Salsk": (41.54, 46.47), "Tikhoretsk": (40.13, 45.85),
    "Bataysk": (39.74, 47.14), "Kushchevskaya": (39.63, 46.56), "Armavir": (41.12, 45.00),
    "Mineralnye Vody": (43.13, 44.21), "Krasnodar": (38.98, 45.04),
    "Novorossiysk": (37.77, 44.72), "Timashevsk": (38.96, 45.62),
    "Stalino": (37.80, 48.00), "Yasinovataya": (37.86, 48.13), "Krasnoarmeisk": (37.18, 48.28),
    "Volnovakha": (37.50, 47.60), "Mariupol": (37.55, 47.10), "Pologi": (36.26, 47.48),
    "Voroshilovgrad": (39.31, 48.57), "Rodakovo": (39.00, 48.52), "Kupyansk": (37.62, 49.71),
    "Valuyki": (38.10, 50.21), "Yelets": (38.50, 52.62), "Uzlovaya": (38.17, 53.98),
    "Lisichansk": (38.43, 48.90), "Sergiyev Posad": (38.13, 56.31),
    "Alexandrov": (38.70, 56.40), "Rostov Veliky": (39.41, 57.19), "Yaroslavl": (39.87, 57.63),
    "Danilov": (40.18, 58.19), "Vologda": (39.89, 59.22), "Konosha": (40.16, 60.97),
    "Nyandoma": (40.20, 61.67), "Obozersky": (40.30, 63.45), "Archangel": (40.54, 64.54),
    "Bui": (41.53, 58.48), "Kirov": (49.67, 58.59), "Vladimir": (40.40, 56.13),
    "Kovrov": (41.32, 56.36), "Gorky": (44.00, 56.33), "Kotelnich": (48.32, 58.30),
    "Murom": (42.05, 55.57), "Arzamas": (43.82, 55.39), "Kazan": (49.12, 55.75),
    "Ruzayevka": (44.95, 54.06), "Kuibyshev": (50.15, 53.20), "Penza": (45.00, 53.20),
    "Syzran": (48.47, 53.16), "Rybinsk": (38.84, 58.05), "Sonkovo": (37.15, 57.78),
    "Kashin": (37.61, 57.36), "Savelovo": (37.35, 56.85), "Mga": (31.06, 59.75),
    "Volkhovstroy": (32.35, 59.92), "Tikhvin": (33.60, 59.64), "Babaevo": (35.93, 59.39),
    "Cherepovets": (37.90, 59.13), "Lodeynoye Pole": (33.55, 60.73),
    "Petrozavodsk": (34.36, 61.79), "Medvezhyegorsk": (34.46, 62.91),
    "Segezha": (34.31, 63.74), "Belomorsk": (34.80, 64.52), "Kem": (34.57, 64.95),
    "Onega": (38.12, 63.91), "Sumsky Posad": (35.40, 64.25), "Vyborg": (28.75, 60.71),
    "Hiitola": (29.73, 61.22), "Sortavala": (30.69, 61.70), "Vartsila": (30.67, 62.18),
    "Joensuu": (29.76, 62.60), "Kouvola": (26.70, 60.87), "Riihimaki": (24.77, 60.74),
    "Helsinki": (24.94, 60.17), "Turku": (22.27, 60.45), "Karis": (23.66, 60.07),
    "Hanko": (22.95, 59.82), "Tampere": (23.76, 61.50), "Vainikkala": (28.31, 60.86),
    "Lappeenranta": (28.19, 61.06), "Mikkeli": (27.27, 61.69), "Pieksamaki": (27.16, 62.30),
    "Kuopio": (27.68, 62.89), "Kotka": (26.95, 60.47), "Simola": (28.07, 60.92),
    "Elisenvaara": (29.73, 61.40), "Unecha": (32.68, 52.85), "Krichev": (31.71, 53.71),
    "Lida": (25.30, 53.89), "Volkovysk": (24.47, 53.16), "Mosty": (24.54, 53.41),
    "Kutno": (19.36, 52.23), "Posen": (16.93, 52.41), "Koluszki": (19.82, 51.74),
    "Litzmannstadt": (19.46, 51.76), "Konitz": (17.56, 53.70), "Lyck": (22.36, 53.83),
    "Allenstein": (20.48, 53.78), "Deutsch Eylau": (19.57, 53.53), "Thorn": (18.60, 53.01),
    "Grajewo": (22.45, 53.65), "Sibiu": (24.15, 45.79), "Fagaras": (24.97, 45.84),
    "Debrecen": (21.63, 47.53), "Satu Mare": (22.88, 47.79),
}

RAILWAYS: list[tuple[str, list[str]]] = [
    ("Leningrad-Moscow (October railway)", ["Leningrad", "Chudovo", "Malaya Vishera",
     "Bologoye", "Vyshny Volochek", "Kalinin", "Klin", "Moscow"]),
    ("Leningrad-Pskov-Riga", ["Leningrad", "Gatchina", "Luga", "Pskov", "Pechory", "Valga",
     "Valmiera", "Sigulda", "Riga"]),
    ("Pskov-Daugavpils-Vilnius-Warsaw", ["Pskov", "Ostrov", "Pytalovo", "Rezekne",
     "Daugavpils", "Svencionys", "Vilnius", "Grodno", "Bialystok", "Malkinia", "Warsaw"]),
    ("Leningrad-Narva-Tallinn", ["Leningrad", "Kingisepp", "Narva", "Rakvere", "Tapa",
     "Tallinn"]),
    ("Tapa-Tartu-Valga", ["Tapa", "Tartu", "Valga"]),
    ("Riga-Siauliai-Kaunas-Vilnius", ["Riga", "Jelgava", "Siauliai", "Radviliskis", "Kaunas",
     "Vilnius"]),
    ("Kaunas-Insterburg-Konigsberg-Marienburg-Konitz", ["Kaunas", "Virbalis", "Insterburg",
     "Konigsberg", "Elbing", "Marienburg", "Dirschau", "Konitz"]),
    ("Bialystok-Lyck-Allenstein-Thorn-Posen", ["Bialystok", "Grajewo", "Lyck", "Allenstein",
     "Deutsch Eylau", "Thorn", "Posen"]),
    ("Lyck-Insterburg", ["Lyck", "Insterburg"]),
    ("Warsaw-Kutno-Posen", ["Warsaw", "Kutno", "Posen"]),
    ("Warsaw-Litzmannstadt", ["Warsaw", "Koluszki", "Litzmannstadt", "Posen"]),
    ("Siauliai-Tilsit-Insterburg", ["Siauliai", "Taurage", "Tilsit", "Insterburg"]),
    ("Riga-Liepaja", ["Jelgava", "Mazeikiai", "Liepaja"]),
    ("Riga-Ventspils", ["Riga", "Tukums", "Ventspils"]),
    ("Riga-Daugavpils-Polotsk-Vitebsk", ["Riga", "Krustpils", "Daugavpils", "Polotsk",
     "Vitebsk"]),
    ("Vilnius-Minsk-Smolensk-Moscow", ["Vilnius", "Molodechno", "Minsk", "Borisov", "Orsha",
     "Smolensk", "Vyazma", "Mozhaisk", "Moscow"]),
    ("Warsaw-Brest-Minsk", ["Warsaw", "Siedlce", "Brest", "Baranovichi", "Minsk"]),
    ("Bialystok-Volkovysk-Baranovichi", ["Bialystok", "Volkovysk", "Baranovichi"]),
    ("Grodno-Lida-Molodechno", ["Grodno", "Mosty", "Lida", "Molodechno"]),
    ("Molodechno-Polotsk", ["Molodechno", "Polotsk"]),
    ("Brest-Pinsk-Gomel (Polesie line)", ["Brest", "Kobrin", "Pinsk", "Luninets",
     "Kalinkovichi", "Rechitsa", "Gomel"]),
    ("Baranovichi-Luninets-Sarny-Rovno-Lvov", ["Baranovichi", "Luninets", "Sarny", "Rovno",
     "Zdolbunov", "Brody", "Lvov"]),
    ("Brest-Kovel-Sarny-Korosten-Kiev", ["Brest", "Kovel", "Sarny", "Korosten", "Kiev"]),
    ("Kovel-Chelm-Lublin-Warsaw", ["Kovel", "Chelm", "Lublin", "Deblin", "Warsaw"]),
    ("Lublin-Radom-Kielce-Krakow", ["Lublin", "Radom", "Kielce", "Krakow"]),
    ("Lvov-Przemysl-Krakow", ["Lvov", "Przemysl", "Tarnow", "Krakow"]),
    ("Minsk-Bobruisk-Gomel", ["Minsk", "Bobruisk", "Zhlobin", "Gomel"]),
    ("Orsha-Mogilev-Zhlobin-Kalinkovichi-Korosten", ["Orsha", "Mogilev", "Zhlobin",
     "Kalinkovichi", "Ovruch", "Korosten"]),
    ("Vitebsk-Orsha", ["Vitebsk", "Orsha"]),
    ("Vitebsk-Nevel-Novosokolniki-Dno-Leningrad", ["Vitebsk", "Nevel", "Novosokolniki",
     "Dno", "Batetsky", "Leningrad"]),
    ("Pskov-Dno-Bologoye", ["Pskov", "Dno", "Bologoye"]),
    ("Moscow-Rzhev-Velikiye Luki-Rezekne", ["Moscow", "Volokolamsk", "Rzhev",
     "Velikiye Luki", "Novosokolniki", "Sebezh", "Rezekne"]),
    ("Bologoye-Toropets-Velikiye Luki-Polotsk", ["Bologoye", "Ostashkov", "Toropets",
     "Velikiye Luki", "Nevel", "Polotsk"]),
    ("Vyazma-Rzhev-Kalinin", ["Vyazma", "Rzhev", "Kalinin"]),
    ("Smolensk-Roslavl-Bryansk", ["Smolensk", "Roslavl", "Bryansk"]),
    ("Vyazma-Kaluga-Tula", ["Vyazma", "Kaluga", "Tula"]),
    ("Moscow-Bryansk-Kiev", ["Moscow", "Maloyaroslavets", "Sukhinichi", "Bryansk",
     "Khutor Mikhailovsky", "Konotop", "Bakhmach", "Nezhin", "Kiev"]),
    ("Orel-Bryansk-Unecha-Gomel", ["Orel", "Bryansk", "Unecha", "Gomel"]),
    ("Unecha-Krichev-Orsha", ["Unecha", "Krichev", "Mogilev"]),
    ("Moscow-Tula-Orel-Kursk-Kharkov", ["Moscow", "Tula", "Orel", "Kursk", "Belgorod",
     "Kharkov"]),
    ("Kharkov-Izyum-Debaltsevo-Rostov", ["Kharkov", "Izyum", "Slavyansk", "Konstantinovka",
     "Debaltsevo", "Ilovaisk", "Taganrog", "Rostov"]),
    ("Kharkov-Lozovaya-Sinelnikovo-Zaporozhye-Crimea", ["Kharkov", "Lozovaya", "Pavlograd",
     "Sinelnikovo", "Zaporozhye", "Melitopol", "Dzhankoi", "Simferopol", "Sevastopol"]),
    ("Dzhankoi-Kerch", ["Dzhankoi", "Vladislavovka", "Kerch"]),
    ("Kharkov-Dnepropetrovsk-Znamenka-Odessa", ["Kharkov", "Krasnograd", "Novomoskovsk",
     "Dnepropetrovsk", "Pyatikhatki", "Znamenka", "Kirovograd", "Pomoshnaya", "Birzula",
     "Razdelnaya", "Odessa"]),
    ("Kharkov-Poltava-Kremenchug-Znamenka", ["Kharkov", "Poltava", "Kremenchug", "Znamenka"]),
    ("Kiev-Grebenka-Poltava", ["Kiev", "Grebenka", "Lubny", "Poltava"]),
    ("Dnepropetrovsk-Krivoi Rog-Nikolaev-Kherson", ["Dnepropetrovsk", "Krivoi Rog",
     "Dolinskaya", "Snigirevka", "Nikolaev"]),
    ("Snigirevka-Kherson", ["Snigirevka", "Kherson"]),
    ("Odessa-Kiev", ["Odessa", "Razdelnaya", "Birzula", "Vapnyarka", "Zhmerinka", "Kazatin",
     "Fastov", "Kiev"]),
    ("Kiev-Kazatin-Shepetovka-Lvov", ["Kazatin", "Berdichev", "Shepetovka", "Zdolbunov"]),
    ("Zhmerinka-Proskurov-Tarnopol-Lvov", ["Zhmerinka", "Proskurov", "Tarnopol", "Lvov"]),
    ("Lvov-Stanislav-Chernovtsy-Iasi", ["Lvov", "Stryi", "Stanislav", "Kolomyya",
     "Chernovtsy", "Suceava", "Pascani", "Iasi"]),
    ("Stryi-Mukacevo (Beskid pass)", ["Stryi", "Lavochne", "Mukacevo", "Chop"]),
    ("Odessa-Tiraspol-Kishinev-Iasi", ["Odessa", "Razdelnaya", "Tiraspol", "Kishinev",
     "Ungheni", "Iasi"]),
    ("Kishinev-Basarabeasca-Reni-Galati", ["Kishinev", "Basarabeasca", "Reni", "Galati"]),
    ("Birzula-Okniza-Chernovtsy", ["Birzula", "Beltsy", "Okniza", "Chernovtsy"]),
    ("Pascani-Bacau-Focsani-Ploiesti-Bucharest", ["Pascani", "Bacau", "Focsani", "Buzau",
     "Ploiesti", "Bucharest", "Craiova"]),
    ("Ploiesti-Brasov-Sibiu", ["Ploiesti", "Brasov", "Fagaras", "Sibiu"]),
    ("Chop-Debrecen", ["Chop", "Satu Mare"]),
    ("Galati-Braila-Buzau", ["Galati", "Braila", "Buzau"]),
    ("Bucharest-Constanta", ["Bucharest", "Cernavoda", "Constanta"]),
    ("Kiev-Konotop-Kursk-Voronezh", ["Bakhmach", "Konotop", "Vorozhba", "Lgov", "Kursk",
     "Kastornoye", "Voronezh"]),
    ("Moscow-Ryazan-Michurinsk-Voronezh-Rostov", ["Moscow", "Kolomna", "Ryazan",
     "Michurinsk", "Gryazi", "Voronezh", "Liski", "Rossosh", "Millerovo", "Kamensk",
     "Likhaya", "Novocherkassk" if False else "Rostov"]),
    ("Orel-Yelets-Gryazi", ["Orel", "Yelets", "Gryazi"]),
    ("Tula-Yelets-Valuyki-Kupyansk-Lisichansk", ["Tula", "Uzlovaya", "Yelets", "Kastornoye",
     "Valuyki", "Kupyansk", "Lisichansk", "Debaltsevo"]),
    ("Michurinsk-Tambov-Saratov", ["Michurinsk", "Tambov", "Rtishchevo", "Saratov",
     "Uralsk"]),
    ("Gryazi-Borisoglebsk-Stalingrad", ["Gryazi", "Borisoglebsk", "Povorino", "Archeda",
     "Ilovlya", "Stalingrad"]),
    ("Stalingrad-Likhaya-Debaltsevo", ["Stalingrad", "Chir", "Morozovsk", "Likhaya",
     "Rodakovo", "Debaltsevo"]),
    ("Rodakovo-Voroshilovgrad", ["Rodakovo", "Voroshilovgrad"]),
    ("Stalingrad-Kotelnikovo-Tikhoretsk", ["Stalingrad", "Kotelnikovo", "Salsk",
     "Tikhoretsk"]),
    ("Rostov-Tikhoretsk-Armavir-Baku", ["Rostov", "Bataysk", "Kushchevskaya", "Tikhoretsk",
     "Armavir", "Mineralnye Vody"]),
    ("Rostov-Timashevsk-Krasnodar-Novorossiysk", ["Bataysk", "Timashevsk", "Krasnodar",
     "Novorossiysk"]),
    ("Tikhoretsk-Krasnodar", ["Tikhoretsk", "Krasnodar"]),
    ("Dnepropetrovsk-Krasnoarmeisk-Stalino", ["Sinelnikovo", "Krasnoarmeisk", "Yasinovataya",
     "Debaltsevo"]),
    ("Stalino-Volnovakha-Mariupol", ["Yasinovataya", "Stalino", "Volnovakha", "Mariupol"]),
    ("Volnovakha-Pologi-Zaporozhye", ["Volnovakha", "Pologi", "Zaporozhye"]),
    ("Moscow-Yaroslavl-Vologda-Archangel", ["Moscow", "Sergiyev Posad", "Alexandrov",
     "Rostov Veliky", "Yaroslavl", "Danilov", "Vologda", "Konosha", "Nyandoma", "Obozersky",
     "Archangel"]),
    ("Danilov-Bui-Kirov", ["Danilov", "Bui", "Kirov"]),
    ("Moscow-Vladimir-Gorky-Kirov", ["Moscow", "Vladimir", "Kovrov", "Gorky", "Kotelnich"]),
    ("Moscow-Murom-Arzamas-Kazan", ["Kovrov", "Murom", "Arzamas", "Kazan"]),
    ("Ryazan-Ruzayevka-Kuibyshev", ["Ryazan", "Ruzayevka", "Kuibyshev"]),
    ("Rtishchevo-Penza-Syzran", ["Rtishchevo", "Penza", "Syzran"]),
    ("Yaroslavl-Rybinsk-Sonkovo-Bologoye", ["Yaroslavl", "Rybinsk", "Sonkovo", "Bologoye"]),
    ("Moscow-Savelovo-Sonkovo", ["Moscow", "Savelovo", "Kashin", "Sonkovo"]),
    ("Leningrad-Tikhvin-Vologda", ["Leningrad", "Mga", "Volkhovstroy", "Tikhvin", "Babaevo",
     "Cherepovets", "Vologda"]),
    ("Chudovo-Volkhovstroy", ["Chudovo", "Volkhovstroy"]),
    ("Leningrad-Petrozavodsk-Murmansk (Kirov railway)", ["Volkhovstroy", "Lodeynoye Pole",
     "Petrozavodsk", "Medvezhyegorsk", "Segezha", "Belomorsk", "Kem"]),
    ("Obozersky-Belomorsk (Soroka line)", ["Obozersky", "Onega", "Sumsky Posad", "Belomorsk"]),
    ("Leningrad-Vyborg-Helsinki", ["Leningrad", "Vyborg", "Vainikkala", "Simola", "Kouvola",
     "Riihimaki", "Helsinki"]),
    ("Helsinki-Turku", ["Helsinki", "Karis", "Turku"]),
    ("Karis-Hanko", ["Karis", "Hanko"]),
    ("Riihimaki-Tampere", ["Riihimaki", "Tampere"]),
    ("Kouvola-Kotka", ["Kouvola", "Kotka"]),
    ("Simola-Lappeenranta-Mikkeli-Kuopio", ["Simola", "Lappeenranta", "Mikkeli",
     "Pieksamaki", "Kuopio"]),
    ("Vyborg-Sortavala-Joensuu", ["Vyborg", "Hiitola", "Elisenvaara", "Sortavala",
     "Vartsila", "Joensuu"]),
    ("Leningrad-Hiitola", ["Leningrad", "Hiitola"]),
]
RAILWAYS = [(name, [t for t in towns if t]) for name, towns in RAILWAYS]

# Rivers: id -> (name as printed, Natural Earth names (name or "name|name_alt")).
RIVERS: dict[str, tuple[str, list[str]]] = {
    "volga": ("Volga", ["Volga"]),
    "dnepr": ("Dnepr", ["Dnipro", "Dnepre", "Dnepr"]),
    "don": ("Don", ["Don"]),
    "daugava": ("Western Dvina (Daugava)", ["Daugava"]),
    "neman": ("Neman", ["Neman", "Usha|Nyoman"]),
    "bug": ("Bug", ["Bug", "Zakhidnyy Buh"]),
    "pripyat": ("Pripyat", ["Pripyat", "Prypyat"]),
    "berezina": ("Berezina", ["Byarezina"]),
    "desna": ("Desna", ["Desna"]),
    "dniester": ("Dniester", ["Dniester"]),
    "prut": ("Prut", ["Prut"]),
    "southern-bug": ("Southern Bug", ["Southern Bug"]),
    "volkhov": ("Volkhov", ["Volkhov"]),
    "svir": ("Svir", ["Svir"]),
    "narva": ("Narva", ["Narva"]),
    "neva": ("Neva", ["Neva"]),
    "oka": ("Oka", ["Oka"]),
    "northern-dvina": ("Northern Dvina", ["Severnaya Dvina"]),
    "velikaya": ("Velikaya", ["Velikaya"]),
    "luga": ("Luga", ["Luga"]),
    "sozh": ("Sozh", ["Sozh"]),
    "seym": ("Seym", ["Seym"]),
    "donets": ("Donets", ["Donets", "Seversky Donets"]),
    "kuban": ("Kuban", ["Kuban"]),
    "vistula": ("Vistula", ["Vistula"]),
    "narew": ("Narew", ["Narew"]),
    "san": ("San", ["San|Wisla"]),
    "vuoksi": ("Vuoksi", ["Vuoksi", "Vuoksi|Ladoga, Neva"]),
    "danube": ("Danube", ["Danube", "Bratul Chillia"]),
    "lovat": ("Lovat", []),
}
# Natural Earth has no Lovat: typed from general knowledge, source to mouth.
LOVAT = [(30.0, 56.0), (30.53, 56.34), (30.75, 56.75), (31.13, 57.15), (31.30, 57.60),
         (31.40, 57.95), (31.45, 58.20)]
CANALS = {"white-sea-canal": ("White Sea Canal", ["White Sea Canal"])}
MIN_RIVER_HEXES = 1.2  # a river shorter than this on the map is not drawn


# --------------------------------------------------------------------------------------
# --extract: clipped copies of the Natural Earth files the generator reads
# --------------------------------------------------------------------------------------
def _write_fc(path: Path, feats: list[tuple[dict, object]], nd: int = 3) -> None:
    def rnd(obj):
        if isinstance(obj, float):
            return round(obj, nd)
        if isinstance(obj, (list, tuple)):
            return [rnd(o) for o in obj]
        return obj

    out = {"type": "FeatureCollection",
           # the words the committed files carry (the tool's name when it wrote them)
           "credit": CREDIT + "; clipped and simplified by tools/gen_barbarossa_map.py",
           "features": []}
    for props, geom in feats:
        g = dict(mapping(geom))
        g["coordinates"] = rnd(g["coordinates"])
        out["features"].append({"type": "Feature", "properties": props, "geometry": g})
    path.write_text(json.dumps(out, separators=(",", ":"), ensure_ascii=False) + "\n")


EXTRACT_BOX = (15.0, 40.0, 52.0, 67.0)
MISLABELLED = {"Oka|Volga"}  # a Natural Earth piece named Oka that is the lower Volga


def extract(src: Path) -> None:
    """Write geodata/rivers.geojson and geodata/seas.geojson."""
    clip = box(*EXTRACT_BOX)

    def feats(name):
        return json.loads((src / name).read_text(encoding="utf-8"))["features"]

    wanted = {alias: rid for rid, (_, aliases) in {**RIVERS, **CANALS}.items()
              for alias in aliases}
    parts: dict[str, list] = defaultdict(list)
    for fname in ("ne_10m_rivers_lake_centerlines.geojson", "ne_10m_rivers_europe.geojson"):
        for f in feats(fname):
            p = f["properties"]
            key = p.get("name")
            full = f"{key}|{p.get('name_alt')}"
            rid = wanted.get(full) or (wanted.get(key) if full not in MISLABELLED else None)
            if rid:
                g = shape(f["geometry"]).intersection(clip)
                if not g.is_empty:
                    parts[rid].append(g)
    rivers = []
    for rid in sorted(parts):
        merged = shapely.line_merge(unary_union(parts[rid])).simplify(0.005)
        rivers.append(({"id": rid}, merged))
    _write_fc(GEO_DIR / "rivers.geojson", rivers)

    seas = []
    for f in feats("ne_50m_geography_marine_polys.geojson"):
        nm = " ".join(f["properties"]["name"].split())
        if nm in ("White Sea", "Baltic Sea", "Gulf of Finland", "Gulf of Bothnia", "Black Sea",
                  "Caspian Sea"):
            g = shape(f["geometry"]).intersection(clip).simplify(0.01, preserve_topology=True)
            seas.append(({"name": nm}, g))
    _write_fc(GEO_DIR / "seas.geojson", seas)
    print(f"extracted {len(rivers)} rivers and {len(seas)} seas into {GEO_DIR}")


# --------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------
def load(name: str) -> list[tuple[dict, object]]:
    path = GEO_DIR / name if (GEO_DIR / name).is_file() else SHARED_GEO_DIR / name
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(f["properties"], drop_degenerate(shape(f["geometry"]))) for f in data["features"]]


def drop_degenerate(geom):
    """Lines that rounding shrank to a point break GEOS; leave them out."""
    if geom.geom_type == "MultiLineString":
        return MultiLineString([g for g in geom.geoms if g.length > 0])
    return geom


def to_frame_geom(geom, tf: Transform):
    """A lon/lat geometry in the map frame (densified first so long edges bend)."""
    geom = shapely.segmentize(geom, 0.1)

    def fn(coords):
        out = np.empty_like(coords)
        for i, (lon, lat) in enumerate(coords):
            out[i] = tf.to_frame(lon, lat)
        return out

    return shapely.transform(geom, fn)


@dataclass
class HexInfo:
    col: int
    row: int
    terrain: str = "clear"
    country: str = ""
    water: str = ""  # name of the sea or lake of a water hex
    city: str = ""
    city_class: str = ""
    sources: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    fortification: str = ""
    rail_exit: str = ""
    supply: str = ""
    coastal: bool = False
    finnish_limit: str = ""

    @property
    def id(self) -> str:
        return label(self.col, self.row)

    @property
    def is_water(self) -> bool:
        return self.terrain in ("sea", "lake")


@dataclass
class Geo:
    """The geography in the map frame."""

    land: object
    lakes: list[tuple[str, object]]
    seas: list[tuple[str, object]]
    countries: dict[str, object]
    terrain: list[tuple[str, str, object]]
    rivers: dict[str, object]
    canals: dict[str, object]


def load_geo(tf: Transform) -> Geo:
    frame = box(-2, -2, 40, 32)
    land_ll = unary_union([g for _, g in load("land.geojson")])
    lakes_ll = [(p["name"], g) for p, g in load("lakes.geojson")]
    land = to_frame_geom(land_ll.intersection(box(10, 38, 55, 68)), tf).intersection(frame)
    lakes = [(n, to_frame_geom(g, tf).intersection(frame)) for n, g in lakes_ll
             if g.intersects(box(10, 38, 55, 68))]
    lakes = [(n, g) for n, g in lakes if not g.is_empty]
    land = land.difference(unary_union([g for _, g in lakes]))
    seas = [(p["name"], to_frame_geom(g, tf)) for p, g in load("seas.geojson")]
    countries = {k: to_frame_geom(Polygon(v).buffer(0), tf) for k, v in COUNTRIES.items()}
    terrain = [(kind, name, to_frame_geom(Polygon(c).buffer(0), tf))
               for kind, name, c in TERRAIN_AREAS]
    rivers, canals = {}, {}
    for p, g in load("rivers.geojson"):
        (canals if p["id"] in CANALS else rivers)[p["id"]] = to_frame_geom(g, tf)
    rivers["lovat"] = to_frame_geom(LineString(LOVAT), tf)
    return Geo(land, lakes, seas, countries, terrain, rivers, canals)


def water_name(poly: Polygon, geo: Geo, lonlat: tuple[float, float]) -> tuple[str, str]:
    """(terrain, name) of a water hex: the lake covering most of it, else the sea.  The
    Sea of Azov, the Gulf of Riga and the Gulf of Onega are not separate Natural Earth
    seas, so they are told apart by position."""
    lake_best = max(((g.intersection(poly).area, n) for n, g in geo.lakes), default=(0, ""))
    water = poly.difference(geo.land)
    lake_area = sum(g.intersection(poly).area for _, g in geo.lakes)
    if lake_best[0] > 0 and lake_area >= 0.5 * water.area:
        name = lake_best[1]
        if name == "Sivash":
            return "sea", "Sea of Azov"
        return "lake", name
    lon, lat = lonlat
    if 34.8 < lon < 39.6 and 45.25 < lat < 47.4:
        return "sea", "Sea of Azov"
    if 21.8 < lon < 24.6 and 56.9 < lat < 58.6:
        return "sea", "Gulf of Riga"
    c = poly.centroid
    best = min(((g.distance(c), n) for n, g in geo.seas), default=(0, "Baltic Sea"))[1]
    if best == "White Sea" and lon < 37.9 and lat < 65.0:
        return "sea", "Gulf of Onega"
    return "sea", best


def build_hexes(tf: Transform, geo: Geo) -> dict[str, HexInfo]:
    hexes: dict[str, HexInfo] = {}
    forced_land = set(RULE_CITY_HEXES.values()) | set(RULE_HEXES)
    city_hexes = {label(*frame_hex(*tf.to_frame(lon, lat))): name
                  for name, lon, lat, _ in CITIES}
    for col in COLUMNS:
        for row in ROWS:
            poly = hex_polygon(col, row)
            info = HexInfo(col, row)
            land = geo.land.intersection(poly)
            lonlat = tf.to_lonlat(*hex_center(col, row))
            share = land.area / poly.area
            if share < 0.5 and info.id not in forced_land and not (
                    share >= CITY_LAND_SHARE and city_hexes.get(info.id)):
                info.terrain, info.water = water_name(poly, geo, lonlat)
                info.sources.append("reconstructed")
                hexes[info.id] = info
                continue
            if land.area < 0.05 * poly.area:  # a forced hex with almost no land
                land = poly
            shares = {k: g.intersection(land).area for k, g in geo.countries.items()}
            country, share = max(shares.items(), key=lambda kv: kv[1])
            info.country = country if share >= 0.5 * land.area else "soviet"
            if info.country in NEUTRAL:
                continue
            info.terrain = pick_terrain(land, geo)
            info.sources.append("reconstructed")
            hexes[info.id] = info
    return hexes


def pick_terrain(land, geo: Geo) -> str:
    cover: dict[str, float] = defaultdict(float)
    for kind, _, g in geo.terrain:
        cover[kind] += g.intersection(land).area
    order = {"rough": 0, "swamp": 1, "forest": 2}
    best = sorted(cover.items(), key=lambda kv: (-round(kv[1], 6), order[kv[0]]))
    if best and best[0][1] >= TERRAIN_SHARE * land.area:
        return best[0][0]
    return "clear"


def place_cities(tf: Transform, hexes: dict[str, HexInfo]) -> list[str]:
    """Cities in their hexes; the first listed wins a shared hex.  Returns notes about
    cities that fell on water or off the map or lost their hex."""
    notes = []
    for name, lon, lat, klass in CITIES:
        hid = RULE_CITY_HEXES.get(name) or label(*frame_hex(*tf.to_frame(lon, lat)))
        h = hexes.get(hid)
        if h is None or h.is_water:
            if h is not None and h.is_water:
                notes.append(f"{name}: hex {hid} is water, city left out")
            continue
        if h.city:
            notes.append(f"{name}: shares hex {hid} with {h.city}, left out")
            continue
        h.city, h.city_class = name, klass
        if name in RULE_CITY_SOURCES:
            h.sources.insert(0, RULE_CITY_SOURCES[name])
    for hid, (note, src) in RULE_HEXES.items():
        hexes[hid].notes.append(note)
        hexes[hid].sources.insert(0, src)
    for hid, src in FORTIFICATIONS.items():
        hexes[hid].fortification = "yes"
        if src not in hexes[hid].sources:
            hexes[hid].sources.insert(0, src)
    return notes


# ---- hexsides ------------------------------------------------------------------------
Side = tuple[str, str]


def side(a: str, b: str) -> Side:
    return (a, b) if a < b else (b, a)


def neighbours(hid: str) -> list[str]:
    h = GRID.parse(hid)
    return [GRID.label(n) for n in GRID.neighbours(h)]


def hexside_segment(a: str, b: str) -> LineString:
    """The printed hexside between two adjacent hexes, in the frame."""
    pa, pb = hex_polygon(*parse_label(a)), hex_polygon(*parse_label(b))
    shared = pa.buffer(1e-6).intersection(pb.buffer(1e-6))
    mn = shared.minimum_rotated_rectangle
    coords = list(mn.exterior.coords)
    # the long axis of the sliver is the hexside
    pts = sorted({(round(x, 6), round(y, 6)) for x, y in coords})
    far = max(((p, q) for p in pts for q in pts), key=lambda pq: math.dist(*pq))
    return LineString(far)


def land_sides(hexes: dict[str, HexInfo]) -> list[Side]:
    out = set()
    for hid, h in hexes.items():
        if h.is_water:
            continue
        for n in neighbours(hid):
            if n in hexes and not hexes[n].is_water:
                out.add(side(hid, n))
    return sorted(out)


def water_sides(hexes: dict[str, HexInfo], geo: Geo) -> dict[Side, tuple[str, str]]:
    """Land-to-land hexsides printed over water: 'all-sea' or 'all-lake' (6.0 B)."""
    out = {}
    lakes = unary_union([g for _, g in geo.lakes])
    for a, b in land_sides(hexes):
        seg = hexside_segment(a, b)
        wet = seg.difference(geo.land)
        if wet.length < 0.6 * seg.length:
            continue
        kind = "all-lake" if seg.intersection(lakes).length >= 0.5 * wet.length else "all-sea"
        out[(a, b)] = (kind, "reconstructed")
    # rule 20.1.1 A: the hexside between Leningrad and 0713 is all-sea
    out[side("0712", "0713")] = ("all-sea", "rules: 20.1.1 A")
    return out


def border_sides(hexes: dict[str, HexInfo]) -> dict[Side, str]:
    out = {}
    for a, b in land_sides(hexes):
        if hexes[a].country != hexes[b].country:
            out[(a, b)] = " ".join(sorted((hexes[a].country, hexes[b].country)))
    return out


# ---- routing rivers along hexsides -----------------------------------------------------
Vertex = tuple[int, int]


def vkey(x: float, y: float) -> Vertex:
    """Hex corners lie on a lattice: x in sixths of sqrt(3), y in halves."""
    return round(x / (HEX_RADIUS / 2)), round(y * 2)


def vpoint(v: Vertex) -> tuple[float, float]:
    return v[0] * HEX_RADIUS / 2, v[1] / 2


def vertex_graph(hexes: dict[str, HexInfo]) -> dict[Vertex, list[tuple[Vertex, Side]]]:
    """Corner-to-corner edges for every hexside between two on-map hexes."""
    graph: dict[Vertex, list[tuple[Vertex, Side]]] = defaultdict(list)
    for hid in hexes:
        for n in neighbours(hid):
            if n in hexes and hid < n:
                seg = hexside_segment(hid, n)
                (x1, y1), (x2, y2) = seg.coords
                v1, v2 = vkey(x1, y1), vkey(x2, y2)
                graph[v1].append((v2, (hid, n)))
                graph[v2].append((v1, (hid, n)))
    return graph


def route_line(line, graph, hexes, forced_start: Side | None = None) -> list[Side]:
    """The chain of hexsides that best follows a line: Dijkstra over hex corners from the
    corner nearest the line's start to the corner nearest its end, each hexside costing
    its length plus its distance from the line; hexsides next to water cost more."""
    if line.is_empty or not graph:
        return []
    verts = sorted(graph)
    pts = np.array([vpoint(v) for v in verts])

    def nearest(x, y):
        i = int(np.argmin(((pts - (x, y)) ** 2).sum(axis=1)))
        return verts[i]

    coords = list(line.coords)
    start, goal = nearest(*coords[0]), nearest(*coords[-1])
    prefix: list[Side] = []
    if forced_start is not None:
        seg = hexside_segment(*forced_start)
        ends = [vkey(*c) for c in seg.coords]
        # leave the forced hexside by the corner nearer the river's course
        far = max(ends, key=lambda v: Point(vpoint(v)).distance(Point(coords[0])))
        near = min(ends, key=lambda v: line.distance(Point(vpoint(v))))
        start = near if near != far else ends[1]
        prefix = [forced_start]
    best = {start: 0.0}
    prev: dict[Vertex, tuple[Vertex, Side]] = {}
    queue = [(0.0, start)]
    while queue:
        cost, v = heapq.heappop(queue)
        if v == goal:
            break
        if cost > best[v]:
            continue
        for w, sd in sorted(graph[v]):
            if forced_start is not None and sd == forced_start:
                continue
            mid = Point((np.array(vpoint(v)) + np.array(vpoint(w))) / 2)
            d = line.distance(mid)
            wet = any(hexes[h].is_water for h in sd)
            step = HEX_RADIUS * (1 + 8 * d * d + 4 * d) + (2.0 if wet else 0.0)
            total = cost + step
            if total < best.get(w, math.inf) - 1e-12:
                best[w] = total
                prev[w] = (v, sd)
                heapq.heappush(queue, (total, w))
    if goal not in best:
        return prefix
    chain = []
    v = goal
    while v != start:
        v, sd = prev[v]
        chain.append(sd)
    return prefix + chain[::-1]


def river_courses(geom) -> list[LineString]:
    """The pieces of a river as lines: the longest part first, grown at either end by
    the nearest other part within 1.5 hexes (Natural Earth breaks rivers at lakes and
    name changes); parts farther away start a piece of their own (a river that leaves
    the map and comes back is two pieces)."""
    parts = [list(g.coords) for g in getattr(geom, "geoms", [geom])
             if g.geom_type == "LineString" and g.length > 0]
    parts.sort(key=lambda c: -LineString(c).length)
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
        courses.append(LineString(coords))
    return courses


def map_shape(hexes: dict[str, HexInfo]):
    """The area the map's hexes cover (grown a hair so that float noise leaves no cracks
    between neighbouring hexes)."""
    return unary_union([hex_polygon(h.col, h.row).buffer(1e-3) for h in hexes.values()])


def build_rivers(geo: Geo, hexes, graph) -> tuple[dict[Side, list[str]], list[str]]:
    """River hexsides with the rivers that run along them, biggest rivers first."""
    out: dict[Side, list[str]] = defaultdict(list)
    notes = []
    # rivers stop at lakes and the sea (Natural Earth runs some through lakes)
    inner = map_shape(hexes).buffer(-0.05).intersection(geo.land.buffer(0.15))
    for rid in RIVERS:
        geom = geo.rivers.get(rid)
        if geom is None:
            notes.append(f"{rid}: no geometry")
            continue
        forced = side("0101", "0102") if rid == "northern-dvina" else None
        courses = [c for c in river_courses(geom.intersection(inner))
                   if c.length >= MIN_RIVER_HEXES]
        if forced is not None:
            # the errata (1.1.2 C): the Dvina runs south-east from hexside 0101/0102
            near = [c for c in courses if c.distance(hexside_segment(*forced)) < 1.0]
            chains = [route_line(near[0], graph, hexes, forced)] if near else [[forced]]
        else:
            chains = [route_line(c, graph, hexes) for c in courses]
        if not chains:
            notes.append(f"{rid}: less than {MIN_RIVER_HEXES} hexes on the map, left out")
        for chain in chains:
            for sd in chain:
                if rid not in out[sd]:
                    out[sd].append(rid)
    return out, notes


# ---- railroads -------------------------------------------------------------------------
def hex_path(a: str, b: str, seg: LineString, hexes, blocked: set[Side]) -> list[str]:
    """Land hexes from a to b hugging the segment (Dijkstra, ties by label)."""
    best = {a: 0.0}
    prev: dict[str, str] = {}
    queue = [(0.0, a)]
    while queue:
        cost, h = heapq.heappop(queue)
        if h == b:
            break
        if cost > best[h]:
            continue
        for n in sorted(neighbours(h)):
            if n not in hexes or hexes[n].is_water or side(h, n) in blocked:
                continue
            d = seg.distance(Point(hex_center(*parse_label(n))))
            total = cost + 1 + 3 * d
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


def edge_of(col: int, row: int) -> str:
    if row == ROWS[-1]:
        return "west"
    if row == ROWS[0]:
        return "east"
    if col == COLUMNS[0]:
        return "north"
    if col == COLUMNS[-1]:
        return "south"
    return ""


def build_rails(tf: Transform, hexes, blocked: set[Side]) -> tuple[dict[Side, str], list[str]]:
    rails: dict[Side, str] = {}
    notes = []
    shape_ = map_shape(hexes)
    for name, towns in RAILWAYS:
        pts = [tf.to_frame(*T[t]) for t in towns]
        line = LineString(pts)
        # a little beyond the hexes, so that a line hugging the map edge stays whole
        inside = line.intersection(shape_.buffer(0.25))
        for part in getattr(inside, "geoms", [inside]):
            if part.is_empty or part.geom_type != "LineString" or part.length < 0.3:
                continue
            coords = list(part.coords)
            stops = [coords[0]] + [p for p in pts if Point(p).distance(part) < 1e-6
                                   and p not in (coords[0], coords[-1])] + [coords[-1]]
            stops.sort(key=lambda p: part.project(Point(p)))
            chain: list[str] = []
            for p, q in zip(stops, stops[1:], strict=False):
                a, b = label(*frame_hex(*p)), label(*frame_hex(*q))
                if a == b:
                    continue
                a, b = dry(a, p, hexes), dry(b, q, hexes)
                if chain:  # carry on from where the line has got to
                    a = chain[-1]
                if a == b:
                    continue
                seg_path = hex_path(a, b, LineString([p, q]), hexes, blocked)
                if not seg_path:
                    notes.append(f"{name}: no land path {a}-{b}")
                    continue
                chain.extend(seg_path if not chain else seg_path[1:])
            for x, y in zip(chain, chain[1:], strict=False):
                rails.setdefault(side(x, y), "reconstructed")
            for end, pt in ((coords[0], pts[0]), (coords[-1], pts[-1])):
                off_map = math.dist(end, pt) > 1e-6 or label(*frame_hex(*pt)) not in hexes
                if off_map and chain:  # the line leads off the map here
                    hid = chain[0] if end == coords[0] else chain[-1]
                    edge = edge_of(*parse_label(hid))
                    if edge:
                        hexes[hid].rail_exit = edge
    # rule 1.1.2 B: a rail line connects 0105 directly to 0106
    rails[side("0105", "0106")] = "rules: 1.1.2 B"
    return rails, notes


def dry(hid: str, p, hexes) -> str:
    """The nearest on-map land hex to a point (a port town whose hex is water)."""
    if hid in hexes and not hexes[hid].is_water:
        return hid
    cands = [h for h in hexes.values() if not h.is_water]
    best = min(cands, key=lambda h: (math.dist(hex_center(h.col, h.row), p), h.id))
    return best.id


# Rule 15.2.2 B: Finnish units may not attack Soviet units south of the Svir or east of
# the White Sea Canal.  The rulebook does not say where those areas end; reconstructed
# as: land east of the Svir's mouth (33.0 E) and south of the Svir / Lake Onega's south
# shore (61.0 N); and land east of the canal and Lake Onega (34.9 E) north of 61.0 N.
# The rule's example then fixes three hexes (0707 may be attacked, 0808 and 0910 not).
SVIR_MOUTH_LON, SVIR_LAT, CANAL_LON = 33.0, 61.0, 34.9
FINNISH_LIMIT_EXAMPLE = {"0707": "", "0808": "south-of-svir", "0910": "south-of-svir"}


def svir_latitude(lon: float) -> float:
    """The Svir from Ladoga (32.95 E) to Lake Onega (35.5 E), then Onega's south shore."""
    course = [(32.95, 60.50), (33.55, 60.73), (34.17, 60.91), (35.47, 61.01), (40.0, 61.0)]
    for (x1, y1), (x2, y2) in zip(course, course[1:], strict=False):
        if x1 <= lon <= x2:
            return y1 + (y2 - y1) * (lon - x1) / (x2 - x1)
    return course[-1][1]


def mark_finnish_limit(tf: Transform, hexes: dict[str, HexInfo]) -> None:
    for h in hexes.values():
        if h.is_water or h.country != "soviet":
            continue
        lon, lat = tf.to_lonlat(*hex_center(h.col, h.row))
        if lon > SVIR_MOUTH_LON and lat < svir_latitude(lon):
            h.finnish_limit = "south-of-svir"
        elif lon > CANAL_LON and lat >= SVIR_LAT:
            h.finnish_limit = "east-of-canal"
    for hid, zone in FINNISH_LIMIT_EXAMPLE.items():
        hexes[hid].finnish_limit = zone
        hexes[hid].sources.insert(0, "rules: 15.2.2 B")


def mark_supply(hexes: dict[str, HexInfo]) -> None:
    for h in hexes.values():
        if h.rail_exit == "west":
            h.supply = "axis"  # 8.2.1 A
        elif h.rail_exit == "east":
            h.supply = "soviet"  # 8.2.2 A
    hexes["0416"].supply = "finnish"  # 8.2.1 B, 15.2.5


def mark_coastal(hexes: dict[str, HexInfo], waters: dict[Side, tuple[str, str]]) -> None:
    for h in hexes.values():
        if h.is_water:
            continue
        for n in neighbours(h.id):
            if n in hexes and hexes[n].terrain == "sea":
                h.coastal = True
        for (a, b), (kind, _) in waters.items():
            if kind == "all-sea" and h.id in (a, b):
                h.coastal = True


# ---- the whole map ----------------------------------------------------------------------
@dataclass
class MapData:
    tf: Transform
    hexes: dict[str, HexInfo]
    rivers: dict[Side, list[str]]
    canals: dict[Side, str]
    waters: dict[Side, tuple[str, str]]
    borders: dict[Side, str]
    rails: dict[Side, str]
    notes: list[str]
    geo: Geo


def generate() -> MapData:
    tf = fit_transform()
    for name, ((lon, lat), want, _) in FIT_ANCHORS.items():
        got = label(*frame_hex(*tf.to_frame(lon, lat)))
        if got != want:
            sys.exit(f"the fit puts {name} in {got}, not {want}")
    geo = load_geo(tf)
    hexes = build_hexes(tf, geo)
    notes = place_cities(tf, hexes)
    waters = water_sides(hexes, geo)
    borders = border_sides(hexes)
    graph = vertex_graph(hexes)
    rivers, rnotes = build_rivers(geo, hexes, graph)
    canals = {}
    for cid, geom in geo.canals.items():
        for course in river_courses(geom.intersection(map_shape(hexes).buffer(-0.05))):
            for sd in route_line(course, graph, hexes):
                canals[sd] = cid
    blocked = {sd for sd, (kind, _) in waters.items()}
    rails, tnotes = build_rails(tf, hexes, blocked)
    mark_supply(hexes)
    mark_coastal(hexes, waters)
    mark_finnish_limit(tf, hexes)
    return MapData(tf, hexes, rivers, canals, waters, borders, rails, notes + rnotes + tnotes,
                   geo)


def write_xml(m: MapData, path: Path) -> None:
    nsmap = {None: NS}
    root = etree.Element(f"{{{NS}}}map", nsmap=nsmap)
    root.set("kind", "hexes")
    root.set("source", "reconstructed")
    root.set("first-column", f"{COLUMNS[0]:02d}")
    root.set("last-column", f"{COLUMNS[-1]:02d}")
    root.set("first-row", f"{ROWS[0]:02d}")
    root.set("last-row", f"{ROWS[-1]:02d}")
    root.set("edges", "; ".join(f"{k}: {v}" for k, v in EDGE_NAMES.items()))
    root.set("projection", m.tf.describe())
    root.set("credit", CREDIT)
    root.text = "\n  "
    grid = etree.SubElement(root, f"{{{NS}}}grid", orientation="flat", shifted="even",
                            numbering="CCRR", source="rules: 1.1.1 B, 6.2")
    last = grid
    for hid in sorted(m.hexes):
        h = m.hexes[hid]
        el = etree.SubElement(root, f"{{{NS}}}hex", id=hid, terrain=h.terrain)
        if h.is_water:
            el.set("water", h.water)
        else:
            el.set("country", h.country)
        if h.city:
            el.set("city", h.city)
            el.set("city-class", h.city_class)
        if h.fortification:
            el.set("fortification", "yes")
        if h.rail_exit:
            el.set("rail-exit", h.rail_exit)
        if h.supply:
            el.set("supply", h.supply)
        if h.coastal:
            el.set("coastal", "yes")
        if h.finnish_limit:
            el.set("finnish-limit", h.finnish_limit)
        if h.notes:
            el.set("note", "; ".join(h.notes))
        el.set("source", "; ".join(dict.fromkeys(h.sources)))
        last = el
    sides: list[tuple[Side, str, dict[str, str]]] = []
    for sd, rids in m.rivers.items():
        src = "rules: 1.1.2 C" if sd == side("0101", "0102") else "reconstructed"
        sides.append((sd, "river", {"rivers": " ".join(rids), "source": src}))
    for sd, cid in m.canals.items():
        sides.append((sd, "canal", {"canal": cid, "source": "reconstructed"}))
    for sd, (kind, src) in m.waters.items():
        sides.append((sd, kind, {"source": src}))
    for sd, pair in m.borders.items():
        sides.append((sd, "border", {"countries": pair, "source": "reconstructed"}))
    for sd, src in m.rails.items():
        sides.append((sd, "rail", {"source": src}))
    order = {"river": 0, "canal": 1, "all-sea": 2, "all-lake": 3, "border": 4, "rail": 5}
    for (a, b), feat, attrs in sorted(sides, key=lambda s: (order[s[1]], s[0])):
        el = etree.SubElement(root, f"{{{NS}}}hexside", a=a, b=b, features=feat)
        for k, v in attrs.items():
            el.set(k, v)
        last = el
    for el in root:
        el.tail = "\n  "
    last.tail = "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"<?xml version='1.0' encoding='utf-8'?>\n"
                     # the committed map.xml says so, byte for byte (a changed comment
                     # would be a new module version)
                     b"<!-- Generated by tools/gen_barbarossa_map.py from Natural Earth data "
                     b"(public domain). Do not edit by hand. -->\n"
                     + etree.tostring(root, encoding="utf-8") + b"\n")


# ---- preview -------------------------------------------------------------------------------
COLORS = {"clear": "#efe8c8", "forest": "#8fbf77", "swamp": "#a8cdb8", "rough": "#c4a27a",
          "sea": "#9cc3e6", "lake": "#b5d9f0"}
COUNTRY_TINT = {"finland": "#ffffff", "germany": "#555555", "slovakia": "#777777",
                "hungary": "#9a6f3a", "romania": "#c9a100", "soviet": None}
PX = 34.0  # pixels per hex width (--scale changes it)


def preview_svg(m: MapData) -> str:
    w = (COLUMNS[-1] * SQ3 / 2 + 1.2) * PX
    hgt = (ROWS[-1] + 1.6) * PX

    def xy(x, y):
        return f"{x * PX:.1f},{y * PX:.1f}"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{hgt:.0f}" '
           f'font-family="DejaVu Sans">', f'<rect width="{w:.0f}" height="{hgt:.0f}" fill="#fff"/>']
    for h in m.hexes.values():
        poly = hex_polygon(h.col, h.row)
        pts = " ".join(xy(x, y) for x, y in list(poly.exterior.coords)[:-1])
        out.append(f'<polygon points="{pts}" fill="{COLORS[h.terrain]}" stroke="#999" '
                   f'stroke-width="0.5"/>')
        tint = COUNTRY_TINT.get(h.country)
        if tint:
            out.append(f'<polygon points="{pts}" fill="{tint}" fill-opacity="0.18"/>')
        if h.terrain == "swamp":
            cx, cy = hex_center(h.col, h.row)
            for dy in (-0.15, 0, 0.15):
                out.append(f'<line x1="{(cx - 0.2) * PX:.1f}" y1="{(cy + dy) * PX:.1f}" '
                           f'x2="{(cx + 0.2) * PX:.1f}" y2="{(cy + dy) * PX:.1f}" '
                           f'stroke="#3b7a60" stroke-width="1"/>')
    # the real coast and rivers, thin, to check the hexes against
    for g in [m.geo.land]:
        for poly in getattr(g, "geoms", [g]):
            if poly.geom_type != "Polygon":
                continue
            for ring in [poly.exterior, *poly.interiors]:
                d = " ".join(xy(x, y) for x, y in ring.coords)
                out.append(f'<polyline points="{d}" fill="none" stroke="#345" '
                           f'stroke-width="0.6" stroke-opacity="0.6"/>')
    for geom in m.geo.rivers.values():
        for ln in getattr(geom, "geoms", [geom]):
            d = " ".join(xy(x, y) for x, y in ln.coords)
            out.append(f'<polyline points="{d}" fill="none" stroke="#48f" stroke-width="0.6" '
                       f'stroke-opacity="0.6"/>')

    def side_line(sd, color, width, dash=""):
        (x1, y1), (x2, y2) = hexside_segment(*sd).coords
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{x1 * PX:.1f}" y1="{y1 * PX:.1f}" x2="{x2 * PX:.1f}" '
                   f'y2="{y2 * PX:.1f}" stroke="{color}" stroke-width="{width}"{extra} '
                   f'stroke-linecap="round"/>')

    for sd in m.borders:
        side_line(sd, "#c0137a", 3.2, "6,3")
    for sd in m.rivers:
        side_line(sd, "#1f5fd0", 2.6)
    for sd in m.canals:
        side_line(sd, "#0bb", 2.6, "3,2")
    for sd in m.waters:
        side_line(sd, "#0a3d91", 4.0, "2,2")
    for a, b in m.rails:
        (x1, y1), (x2, y2) = hex_center(*parse_label(a)), hex_center(*parse_label(b))
        out.append(f'<line x1="{x1 * PX:.1f}" y1="{y1 * PX:.1f}" x2="{x2 * PX:.1f}" '
                   f'y2="{y2 * PX:.1f}" stroke="#222" stroke-width="1.6"/>')
    for h in m.hexes.values():
        cx, cy = hex_center(h.col, h.row)
        out.append(f'<text x="{cx * PX:.1f}" y="{(cy - 0.3) * PX:.1f}" font-size="6.5" '
                   f'text-anchor="middle" fill="#555">{h.id}</text>')
        if h.rail_exit:
            out.append(f'<circle cx="{cx * PX:.1f}" cy="{cy * PX:.1f}" r="5" fill="none" '
                       f'stroke="#e00" stroke-width="2"/>')
        if h.fortification:
            out.append(f'<rect x="{(cx - 0.2) * PX:.1f}" y="{(cy - 0.2) * PX:.1f}" '
                       f'width="{0.4 * PX:.1f}" height="{0.4 * PX:.1f}" fill="none" '
                       f'stroke="#900" stroke-width="2"/>')
        if h.city:
            major = h.city_class == "major"
            r = 4.2 if major else 2.6
            out.append(f'<circle cx="{cx * PX:.1f}" cy="{cy * PX:.1f}" r="{r}" '
                       f'fill="{"#b00" if major else "#000"}"/>')
            out.append(f'<text x="{cx * PX:.1f}" y="{(cy + 0.38) * PX:.1f}" '
                       f'font-size="{8.5 if major else 7}" text-anchor="middle" '
                       f'font-weight="{"bold" if major else "normal"}">{h.city}</text>')
    out.append("</svg>")
    return "\n".join(out)


def report(m: MapData) -> None:
    tf = m.tf
    print(tf.describe())
    for name, ((lon, lat), want, _) in FIT_ANCHORS.items():
        fx, fy = tf.to_frame(lon, lat)
        cx, cy = hex_center(*parse_label(want))
        print(f"  {name:10s} {want}  {math.hypot(fx - cx, fy - cy):.2f} hex from the centre")
    kinds = defaultdict(int)
    for h in m.hexes.values():
        kinds[h.terrain] += 1
    print(f"hexes: {len(m.hexes)} {dict(sorted(kinds.items()))}")
    print(f"rivers: {len(m.rivers)} hexsides; canal {len(m.canals)}; water sides "
          f"{len(m.waters)}; borders {len(m.borders)}; rail {len(m.rails)}")
    print("rail exits:", sorted((h.id, h.rail_exit) for h in m.hexes.values() if h.rail_exit))
    for n in m.notes:
        print("  note:", n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--extract", type=Path, metavar="DIR",
                    help="refresh geodata/rivers.geojson and seas.geojson from Natural Earth")
    ap.add_argument("--out", type=Path, default=OUT_XML)
    ap.add_argument("--preview", type=Path, metavar="PNG", help="also render a preview PNG")
    ap.add_argument("--report", action="store_true", help="print the fit and the counts")
    args = ap.parse_args(argv)
    if args.extract:
        extract(args.extract)
        return 0
    m = generate()
    write_xml(m, args.out)
    if args.report:
        report(m)
    if args.preview:
        import cairosvg

        cairosvg.svg2png(bytestring=preview_svg(m).encode(), write_to=str(args.preview))
    schema = etree.RelaxNG(etree.parse(str(OUT_RNG))) if OUT_RNG.exists() else None
    if schema is not None and not schema.validate(etree.parse(str(args.out))):
        print(schema.error_log, file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({len(m.hexes)} hexes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
