"""shapely on the map kit: geometry read in lon/lat carried into a map's frame, and the
polygons of whatever an operation returns. For the generators whose maps are cut with
polygon operations (unions, intersections, areas: Barbarossa Solitaire's areas, 1941's
hex cover); shapely is a development package (the `dev` extra), imported on use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.mapgen.frame import Point


def to_frame(geom: Any, project: Callable[[float, float], Point],
             segment: float | None = None) -> Any:
    """A lon/lat geometry carried point by point into a frame; with `segment`, first
    densified to points at most that many degrees apart, so that long edges bend as the
    projection bends them."""
    import numpy as np
    import shapely

    if segment is not None:
        geom = shapely.segmentize(geom, segment)

    def each(coords: Any) -> Any:
        out = np.empty_like(coords)
        for i, (lon, lat) in enumerate(coords):
            out[i] = project(lon, lat)
        return out

    return shapely.transform(geom, each)


def polygons(geom: Any) -> list[Any]:
    """The polygons of a geometry, of a collection of them or of nothing (in order)."""
    from shapely.geometry import Polygon

    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    out = []
    for g in getattr(geom, "geoms", []):
        out.extend(polygons(g))
    return out


def drop_degenerate(geom: Any) -> Any:
    """A MultiLineString without the lines that rounding shrank to a point (they break
    GEOS); anything else as it is."""
    from shapely.geometry import MultiLineString

    if geom.geom_type == "MultiLineString":
        return MultiLineString([g for g in geom.geoms if g.length > 0])
    return geom


def line_parts(geom: Any) -> list[Any]:
    """The non-empty LineStrings of a line geometry (in order)."""
    return [g for g in getattr(geom, "geoms", [geom])
            if g.geom_type == "LineString" and g.length > 0]
