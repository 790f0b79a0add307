"""Rivers, roads and railroads laid on a hex map: a line of real geography becomes the
chain of hexsides (a river) or of hexes (a road) that follows it best. The routing is a
least-cost walk over hex corners (or hexes) with costs from the line's distance, deterministic to
the bit (fixed tie-breaking), so a map regenerates byte for byte."""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Callable, Collection

from adjudicator.mapgen.frame import HEX_RADIUS, HexFrame, Point, Vertex
from adjudicator.mapgen.geometry import Polyline, stretches

Side = tuple[str, str]  # a hexside: its two hexes' labels, in order
Graph = dict[Vertex, list[tuple[Vertex, Side]]]


def side(a: str, b: str) -> Side:
    return (a, b) if a < b else (b, a)


def vertex_graph(frame: HexFrame, hexes: Collection[str]) -> Graph:
    """The hex corners of the map joined by the hexsides between its hexes."""
    graph: Graph = defaultdict(list)
    on_map = set(hexes)
    for hid in sorted(on_map):
        for n in frame.neighbours(hid):
            if n in on_map and hid < n:
                v1, v2 = frame.hexside_ends(hid, n)
                graph[v1].append((v2, (hid, n)))
                graph[v2].append((v1, (hid, n)))
    for v in graph:
        graph[v].sort()
    return graph


def route_line(frame: HexFrame, line: Polyline, graph: Graph, blocked: set[Side],
               stretch: float = 3.0) -> list[Side]:
    """The chain of hexsides that best follows a line: the line is cut into stretches of
    about `stretch` hexes (so that a river bending back on itself is followed, not cut
    short), and each stretch is routed over hex corners from the corner nearest its
    start to the corner nearest its end, each hexside costing its length plus its
    distance from the stretch; `blocked` hexsides are never used."""
    verts = sorted(graph)

    def nearest(p: Point) -> Vertex:
        return min(verts, key=lambda v: (math.dist(frame.vertex_point(v), p), v))

    chain: list[Side] = []
    for piece in stretches(line.coords, stretch):
        for sd in route_stretch(frame, Polyline(piece), nearest(piece[0]), nearest(piece[-1]),
                                graph, blocked):
            if sd not in chain:
                chain.append(sd)
    return chain


def route_stretch(frame: HexFrame, line: Polyline, start: Vertex, goal: Vertex, graph: Graph,
                  blocked: set[Side]) -> list[Side]:
    return cheapest_chain(frame, graph, start, goal, line.distance, blocked)


def cheapest_chain(frame: HexFrame, graph: Graph, start: Vertex, goal: Vertex,
                   distance: Callable[[Point], float], blocked: Collection[Side] = (),
                   penalty: Callable[[Side], float] | None = None) -> list[Side]:
    """The cheapest chain of hexsides from one hex corner to another (none if the goal
    cannot be reached): each hexside costs its length grown by the `distance` of its
    midpoint from what it follows, plus a game's `penalty`; `blocked` hexsides are never
    used. Ties go to the smaller corner (the graph's lists are sorted)."""
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
            pv, pw = frame.vertex_point(v), frame.vertex_point(w)
            d = distance(((pv[0] + pw[0]) / 2, (pv[1] + pw[1]) / 2))
            step = HEX_RADIUS * (1 + 8 * d * d + 4 * d)
            if penalty is not None:
                step += penalty(sd)
            total = cost + step
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


def hex_chain(frame: HexFrame, a: str, b: str, passable: Callable[[str, str], bool],
              distance: Callable[[Point], float], weight: float = 3.0,
              penalty: Callable[[str, str], float] | None = None) -> list[str]:
    """The cheapest chain of hexes from `a` to `b` (a road or railroad; none if `b`
    cannot be reached): each step into a hex costs 1 plus `weight` times the distance of
    its centre from what the chain follows, plus a game's `penalty(from, to)`; only
    steps `passable(from, to)` are taken. Ties go to the smaller label."""
    best = {a: 0.0}
    prev: dict[str, str] = {}
    queue = [(0.0, a)]
    while queue:
        cost, h = heapq.heappop(queue)
        if h == b:
            break
        if cost > best[h]:
            continue
        for n in frame.neighbours(h):
            if not passable(h, n):
                continue
            total = cost + 1 + weight * distance(frame.centre_of(n))
            if penalty is not None:
                total += penalty(h, n)
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


def river_courses(lines: list[list[Point]], join: float = 1.5) -> list[list[Point]]:
    """The pieces of a river as lines: the longest part first, grown at either end by
    the nearest other part within `join` hexes (Natural Earth breaks rivers at lakes and
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
            if best is None or best[0] > join:
                break
            _, i, at_end, seq = best
            parts.pop(i)
            coords = coords + seq if at_end else seq + coords
        courses.append(coords)
    return courses
