"""Natural Earth GeoJSON for the map generators: reading features, their lines and rings,
and writing the clipped and simplified extracts a generator keeps beside itself (the
project reads only those: the full Natural Earth files are a development input)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

Point = tuple[float, float]
CREDIT = "Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com"


def load_features(path: Path) -> list[dict[str, Any]]:
    features: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["features"]
    return features


def lines(geom: dict[str, Any]) -> list[list[Point]]:
    """The lines of a LineString or MultiLineString (none for anything else)."""
    if geom["type"] == "LineString":
        return [[tuple(c) for c in geom["coordinates"]]]
    if geom["type"] == "MultiLineString":
        return [[tuple(c) for c in line] for line in geom["coordinates"]]
    return []


def rings(geom: dict[str, Any]) -> list[list[Point]]:
    """The outer rings of a Polygon or MultiPolygon (none for anything else)."""
    if geom["type"] == "Polygon":
        return [[tuple(c) for c in geom["coordinates"][0]]]
    if geom["type"] == "MultiPolygon":
        return [[tuple(c) for c in poly[0]] for poly in geom["coordinates"]]
    return []


def in_box(p: Point, box: tuple[float, float, float, float]) -> bool:
    """Whether a lon/lat lies in (west, south, east, north)."""
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def box_pieces(line: list[Point], box: tuple[float, float, float, float]) -> list[list[Point]]:
    """The runs of a line that lie in a lon/lat box (two points or more)."""
    pieces, cur = [], []
    for p in line:
        if in_box(p, box):
            cur.append(p)
        else:
            if len(cur) >= 2:
                pieces.append(cur)
            cur = []
    if len(cur) >= 2:
        pieces.append(cur)
    return pieces


def round_coords(obj: Any, digits: int) -> Any:
    """Coordinates (nested lists or tuples of floats) rounded, as lists: what an extract
    keeps of Natural Earth's precision."""
    if isinstance(obj, float):
        return round(obj, digits)
    if isinstance(obj, list | tuple):
        return [round_coords(o, digits) for o in obj]
    return obj


def write_features(path: Path, feats: list[tuple[dict[str, Any], dict[str, Any]]],
                   made_by: str, credit: str = CREDIT) -> None:
    """A FeatureCollection of (properties, geometry), compact, with the credit."""
    out = {"type": "FeatureCollection", "credit": f"{credit}; clipped and simplified by "
           f"{made_by}",
           "features": [{"type": "Feature", "properties": props, "geometry": geom}
                        for props, geom in feats]}
    path.write_text(json.dumps(out, separators=(",", ":"), ensure_ascii=False) + "\n",
                    encoding="utf-8")
