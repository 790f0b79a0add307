"""The hexsides of the 1941: Operation Barbarossa map: all-sea and all-lake hexsides
between land hexes (6.0 B), borders, rivers and the White Sea Canal routed along the
hexsides that follow them, and railroads as chains of hexes (8.1). The routing is the map
kit's; what is 1941's own is the forced start of the Northern Dvina (errata 1.1.2 C), the
dearer hexsides next to water, and the rules' fixed hexsides (1.1.2 B, 20.1.1 A)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import numpy as np
from shapely.geometry import LineString, Point
from shapely.ops import unary_union

from adjudicator.mapgen.frame import Point as XY
from adjudicator.mapgen.frame import Vertex
from adjudicator.mapgen.projection import Fitted
from adjudicator.mapgen.routing import (
    Graph,
    cheapest_chain,
    hex_chain,
    river_courses,
    side,
    vertex_graph,
)
from adjudicator.mapgen.shapes import line_parts

from . import geography as g
from .geography import FRAME
from .railways import RAILWAYS, T
from .terrain import Geo, HexInfo, Side

WET_PENALTY = 2.0  # a river hexside next to a water hex costs this much more
JOIN = 1.5  # hexes: Natural Earth's pieces of one river closer than this are joined


def hexside_segment(a: str, b: str) -> LineString:
    """The printed hexside between two adjacent hexes, in the frame."""
    return LineString(FRAME.hexside_segment(a, b))


def land_sides(hexes: dict[str, HexInfo]) -> list[Side]:
    out = set()
    for hid, h in hexes.items():
        if h.is_water:
            continue
        for n in FRAME.neighbours(hid):
            if n in hexes and not hexes[n].is_water:
                out.add(side(hid, n))
    return sorted(out)


def water_sides(hexes: dict[str, HexInfo], geo: Geo) -> dict[Side, tuple[str, str]]:
    """Land-to-land hexsides printed over water: 'all-sea' or 'all-lake' (6.0 B)."""
    out = {}
    lakes = unary_union([lake for _, lake in geo.lakes])
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


def route_line(line: Any, graph: Graph, hexes: dict[str, HexInfo],
               forced_start: Side | None = None) -> list[Side]:
    """The chain of hexsides that best follows a line, from the corner nearest its start
    to the corner nearest its end (one stretch: 1941's rivers were routed whole), the
    hexsides next to water dearer; with `forced_start`, the chain begins with that
    hexside and leaves it by the corner nearer the river's course."""
    if line.is_empty or not graph:
        return []
    verts = sorted(graph)
    pts = np.array([FRAME.vertex_point(v) for v in verts])

    def nearest(x: float, y: float) -> Vertex:
        return verts[int(np.argmin(((pts - (x, y)) ** 2).sum(axis=1)))]

    coords = list(line.coords)
    start, goal = nearest(*coords[0]), nearest(*coords[-1])
    prefix: list[Side] = []
    if forced_start is not None:
        ends = list(FRAME.hexside_ends(*forced_start))
        far = max(ends, key=lambda v: Point(FRAME.vertex_point(v)).distance(Point(coords[0])))
        near = min(ends, key=lambda v: line.distance(Point(FRAME.vertex_point(v))))
        start = near if near != far else ends[1]
        prefix = [forced_start]

    def wet(sd: Side) -> float:
        return WET_PENALTY if any(hexes[h].is_water for h in sd) else 0.0

    return prefix + cheapest_chain(FRAME, graph, start, goal,
                                   lambda p: line.distance(Point(p)),
                                   {forced_start} if forced_start else set(), wet)


def courses(geom: Any) -> list[LineString]:
    """The pieces of a river as lines (a river that leaves the map and comes back is two
    pieces)."""
    return [LineString(c) for c in river_courses([list(ln.coords) for ln in line_parts(geom)],
                                                 JOIN)]


def map_shape(hexes: dict[str, HexInfo]) -> Any:
    """The area the map's hexes cover (grown a hair so that float noise leaves no cracks
    between neighbouring hexes)."""
    return unary_union([FRAME.polygon(h.col, h.row).buffer(1e-3) for h in hexes.values()])


def build_rivers(geo: Geo, hexes: dict[str, HexInfo], graph: Graph
                 ) -> tuple[dict[Side, list[str]], list[str]]:
    """River hexsides with the rivers that run along them, biggest rivers first."""
    out: dict[Side, list[str]] = defaultdict(list)
    notes = []
    # rivers stop at lakes and the sea (Natural Earth runs some through lakes)
    inner = map_shape(hexes).buffer(-0.05).intersection(geo.land.buffer(0.15))
    for rid in g.RIVERS:
        geom = geo.rivers.get(rid)
        if geom is None:
            notes.append(f"{rid}: no geometry")
            continue
        forced = side("0101", "0102") if rid == "northern-dvina" else None
        pieces = [c for c in courses(geom.intersection(inner)) if c.length >= g.MIN_RIVER_HEXES]
        if forced is not None:
            # the errata (1.1.2 C): the Dvina runs south-east from hexside 0101/0102
            near = [c for c in pieces if c.distance(hexside_segment(*forced)) < 1.0]
            chains = [route_line(near[0], graph, hexes, forced)] if near else [[forced]]
        else:
            chains = [route_line(c, graph, hexes) for c in pieces]
        if not chains:
            notes.append(f"{rid}: less than {g.MIN_RIVER_HEXES} hexes on the map, left out")
        for chain in chains:
            for sd in chain:
                if rid not in out[sd]:
                    out[sd].append(rid)
    return out, notes


def build_canals(geo: Geo, hexes: dict[str, HexInfo], graph: Graph) -> dict[Side, str]:
    canals = {}
    for cid, geom in geo.canals.items():
        for course in courses(geom.intersection(map_shape(hexes).buffer(-0.05))):
            for sd in route_line(course, graph, hexes):
                canals[sd] = cid
    return canals


def river_graph(hexes: dict[str, HexInfo]) -> Graph:
    return vertex_graph(FRAME, hexes)


def edge_of(col: int, row: int) -> str:
    if row == g.ROWS[-1]:
        return "west"
    if row == g.ROWS[0]:
        return "east"
    if col == g.COLUMNS[0]:
        return "north"
    if col == g.COLUMNS[-1]:
        return "south"
    return ""


def build_rails(tf: Fitted, hexes: dict[str, HexInfo], blocked: set[Side]
                ) -> tuple[dict[Side, str], list[str]]:
    rails: dict[Side, str] = {}
    notes = []
    shape_ = map_shape(hexes)

    def passable(h: str, n: str) -> bool:
        return n in hexes and not hexes[n].is_water and side(h, n) not in blocked

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
            stops.sort(key=lambda p, part=part: part.project(Point(p)))
            chain: list[str] = []
            for p, q in zip(stops, stops[1:], strict=False):
                a, b = FRAME.label(*FRAME.hex_at(*p)), FRAME.label(*FRAME.hex_at(*q))
                if a == b:
                    continue
                a, b = dry(a, p, hexes), dry(b, q, hexes)
                if chain:  # carry on from where the line has got to
                    a = chain[-1]
                if a == b:
                    continue
                seg = LineString([p, q])
                seg_path = hex_chain(FRAME, a, b, passable,
                                     lambda c, seg=seg: seg.distance(Point(c)))
                if not seg_path:
                    notes.append(f"{name}: no land path {a}-{b}")
                    continue
                chain.extend(seg_path if not chain else seg_path[1:])
            for x, y in zip(chain, chain[1:], strict=False):
                rails.setdefault(side(x, y), "reconstructed")
            for end, pt in ((coords[0], pts[0]), (coords[-1], pts[-1])):
                off_map = (math.dist(end, pt) > 1e-6
                           or FRAME.label(*FRAME.hex_at(*pt)) not in hexes)
                if off_map and chain:  # the line leads off the map here
                    hid = chain[0] if end == coords[0] else chain[-1]
                    edge = edge_of(*FRAME.offset(hid))
                    if edge:
                        hexes[hid].rail_exit = edge
    # rule 1.1.2 B: a rail line connects 0105 directly to 0106
    rails[side("0105", "0106")] = "rules: 1.1.2 B"
    return rails, notes


def dry(hid: str, p: XY, hexes: dict[str, HexInfo]) -> str:
    """The nearest on-map land hex to a point (a port town whose hex is water)."""
    if hid in hexes and not hexes[hid].is_water:
        return hid
    cands = [h for h in hexes.values() if not h.is_water]
    best = min(cands, key=lambda h: (math.dist(FRAME.centre(h.col, h.row), p), h.id))
    return best.id
