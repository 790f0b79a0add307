"""The Natural Earth data the Leningrad '41 map is drawn from, and its projection.

`extract` clips the Natural Earth GeoJSON files (public domain) to the game's box once
and writes the copies in tools/geodata/ (README.md there credits them); the generator
reads only those copies.

>>> x, y = PROJECTION.forward(30.3, 59.94)
>>> round(x), round(y)
(72, 105)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adjudicator.mapgen.geojson import box_pieces, lines, load_features, rings, write_features
from adjudicator.mapgen.projection import LambertConic

Point = tuple[float, float]
GEODATA = Path(__file__).resolve().parent / "geodata"
MADE_BY = "adjudicator/games/leningrad/tools/geo.py"
# Lambert conformal conic through the middle of the map (rule 1.5: 1 cm = 10 km; the
# frame is in km, so 1 km of the frame is 1 mm of a board printed at 1:1,000,000).
PROJECTION = LambertConic(lon0=29.0, lat0=59.0, par1=57.0, par2=61.0)
BOX = (20.5, 55.0, 38.0, 63.3)  # lon/lat box of the clipped copies
# The four named lakes of rule 2.4 (Pejpus is Peipus with the Pskov lake).
LAKES = {"Lake Ladoga": "ladoga", "Lake Onega": "onega", "Lake Peipus": "pejpus",
         "Pskoyskoye Ozero": "pejpus", "Lake Il'Men'": "ilmen"}
# The rivers the map prints as river borders (rule 2.4.7); file, Natural Earth name.
RIVERS = {
    "daugava": ("ne_10m_rivers_lake_centerlines.geojson", "Daugava"),
    "neva": ("ne_10m_rivers_lake_centerlines.geojson", "Neva"),
    "svir": ("ne_10m_rivers_lake_centerlines.geojson", "Svir"),
    "volkhov": ("ne_10m_rivers_lake_centerlines.geojson", "Volkhov"),
    "narva": ("ne_10m_rivers_lake_centerlines.geojson", "Narva"),
    "velikaya": ("ne_10m_rivers_lake_centerlines.geojson", "Velikaya"),
    "msta": ("ne_10m_rivers_lake_centerlines.geojson", "Msta"),
    "luga": ("ne_10m_rivers_europe.geojson", "Luga"),
    "shelon": ("ne_10m_rivers_europe.geojson", "Shelon`"),
}


def _clip_ring(ring: list[Point], box: tuple[float, float, float, float]) -> list[Point]:
    """Sutherland-Hodgman against the box."""
    x0, y0, x1, y1 = box
    edges = [(lambda p: p[0] >= x0, lambda a, b: _at_x(a, b, x0)),
             (lambda p: p[0] <= x1, lambda a, b: _at_x(a, b, x1)),
             (lambda p: p[1] >= y0, lambda a, b: _at_y(a, b, y0)),
             (lambda p: p[1] <= y1, lambda a, b: _at_y(a, b, y1))]
    out = ring
    for keep, cut in edges:
        src, out = out, []
        for k, cur in enumerate(src):
            prev = src[k - 1]
            if keep(cur):
                if not keep(prev):
                    out.append(cut(prev, cur))
                out.append(cur)
            elif keep(prev):
                out.append(cut(prev, cur))
        if not out:
            break
    return [(round(x, 4), round(y, 4)) for x, y in out]


def _at_x(a: Point, b: Point, x: float) -> Point:
    return x, a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0])


def _at_y(a: Point, b: Point, y: float) -> Point:
    return a[0] + (b[0] - a[0]) * (y - a[1]) / (b[1] - a[1]), y


def extract(src: Path) -> None:
    """Write the clipped copies from the Natural Earth files in `src`."""
    land: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for feat in load_features(src / "ne_50m_land.geojson"):
        for ring in rings(feat["geometry"]):
            clipped = _clip_ring([(float(x), float(y)) for x, y in ring], BOX)
            if len(clipped) >= 4:
                land.append(({}, {"type": "Polygon", "coordinates": [clipped]}))
    write_features(GEODATA / "land.geojson", land, MADE_BY)
    lakes = []
    for feat in load_features(src / "ne_10m_lakes.geojson"):
        name = feat["properties"].get("name")
        if name in LAKES:
            lakes.append(({"lake": LAKES[name], "name": name}, feat["geometry"]))
    write_features(GEODATA / "lakes.geojson", lakes, MADE_BY)
    rivers = []
    for rid, (file, name) in RIVERS.items():
        for feat in load_features(src / file):
            if feat["properties"].get("name") != name or feat["properties"].get(
                    "featurecla") not in ("River", None):
                continue
            for line in lines(feat["geometry"]):
                for piece in box_pieces(line, BOX):
                    rivers.append(({"river": rid}, {"type": "LineString",
                                                    "coordinates": piece}))
    write_features(GEODATA / "rivers.geojson", rivers, MADE_BY)


def load(name: str) -> list[dict[str, Any]]:
    data = json.loads((GEODATA / name).read_text(encoding="utf-8"))
    feats: list[dict[str, Any]] = data["features"]
    return feats


def project(points: list[Point]) -> list[Point]:
    return [PROJECTION.forward(lon, lat) for lon, lat in points]
