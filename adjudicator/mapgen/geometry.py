"""Plane geometry for the map generators, in the frame of a map (engine-free and
shapely-free: fast enough for thousands of hexes and exact to the last bit from run to
run). Where a generator needs polygon operations (unions, intersections, areas), it uses
shapely on top of these.

>>> point_in_polygon((0.5, 0.5), [(0, 0), (1, 0), (1, 1), (0, 1)])
True
>>> simplify([(0, 0), (1, 0.001), (2, 0)], 0.01)
[(0, 0), (2, 0)]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

Point = tuple[float, float]
Coords = list[Point]


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


def simplify(line: list[Point], tol: float) -> list[Point]:
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
    return simplify(line[:index + 1], tol)[:-1] + simplify(line[index:], tol)


def densify(coords: Coords, step: float) -> Coords:
    """Extra points every `step` degrees so that projected edges bend as they should."""
    out: Coords = []
    for a, b in zip(coords, coords[1:] + coords[:1], strict=False):
        n = max(1, math.ceil(math.dist(a, b) / step))
        out += [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n)]
    return out

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


class Region:
    """The inside of some rings (even-odd over all of them), with the rings' edges kept in
    horizontal strips so that testing thousands of points stays fast without shapely.

    >>> square = Region([[(0, 0), (4, 0), (4, 4), (0, 4)], [(1, 1), (2, 1), (2, 2), (1, 2)]])
    >>> square.contains((3, 3)), square.contains((1.5, 1.5)), square.contains((5, 1))
    (True, False, False)
    """

    STRIP = 0.25

    def __init__(self, rings: Iterable[Sequence[Point]]) -> None:
        self.strips: dict[int, list[tuple[Point, Point]]] = defaultdict(list)
        for ring in rings:
            pts = list(ring)
            for a, b in zip(pts, pts[1:] + pts[:1], strict=False):
                if a[1] == b[1]:
                    continue
                lo, hi = min(a[1], b[1]), max(a[1], b[1])
                for k in range(math.floor(lo / self.STRIP), math.floor(hi / self.STRIP) + 1):
                    self.strips[k].append((a, b))

    def contains(self, p: Point) -> bool:
        x, y = p
        inside = False
        for (xi, yi), (xj, yj) in self.strips.get(math.floor(y / self.STRIP), ()):
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
        return inside

    def share(self, points: Sequence[Point]) -> float:
        """The fraction of `points` inside."""
        return sum(1 for p in points if self.contains(p)) / len(points) if points else 0.0
