"""A raster of the Leningrad '41 frame: land and water cells, areas grown from seeds.

Plain Python (no shapely, no numpy) and exact from run to run, so that the committed
map.xml is what tools/gen_map.py writes on any machine. The frame is in km (x east,
y north) of the map's projection; one cell is `CELL` km square.

>>> r = Raster(0.0, 0.0, 9.0, 6.0, 3.0)
>>> r.nx, r.ny, r.centre(0, 0)
(3, 2, (1.5, 4.5))
>>> sorted(r.fill_polygons([[[(0.0, 0.0), (4.0, 0.0), (4.0, 6.0), (0.0, 6.0)]]]))
[(0, 0), (0, 1)]
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

Point = tuple[float, float]
Cell = tuple[int, int]  # (column i from the west, row j from the north)
STEPS = ((1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
         (1, 1, math.sqrt(2)), (1, -1, math.sqrt(2)), (-1, 1, math.sqrt(2)),
         (-1, -1, math.sqrt(2)))


def _cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segment ab properly intersects segment cd."""
    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    o1, o2 = orient(a, b, c), orient(a, b, d)
    o3, o4 = orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0)


class Raster:
    def __init__(self, x0: float, y0: float, x1: float, y1: float, cell: float) -> None:
        self.x0, self.y0, self.x1, self.y1, self.cell = x0, y0, x1, y1, cell
        self.nx = round((x1 - x0) / cell)
        self.ny = round((y1 - y0) / cell)

    def centre(self, i: int, j: int) -> Point:
        return self.x0 + (i + 0.5) * self.cell, self.y1 - (j + 0.5) * self.cell

    def cell_of(self, p: Point) -> Cell:
        return (min(self.nx - 1, max(0, int((p[0] - self.x0) // self.cell))),
                min(self.ny - 1, max(0, int((self.y1 - p[1]) // self.cell))))

    def inside(self, i: int, j: int) -> bool:
        return 0 <= i < self.nx and 0 <= j < self.ny

    def fill_polygons(self, polygons: Iterable[Sequence[Sequence[Point]]]) -> set[Cell]:
        """Cells whose centre is inside any polygon (a polygon: its rings, even-odd)."""
        out: set[Cell] = set()
        for rings in polygons:
            edges = [(a, b) for ring in rings for a, b in zip(ring, list(ring[1:]) + [ring[0]],
                                                              strict=True) if a[1] != b[1]]
            if not edges:
                continue
            ys = [p[1] for a, b in edges for p in (a, b)]
            j_top = max(0, int((self.y1 - max(ys)) // self.cell))
            j_bottom = min(self.ny - 1, int((self.y1 - min(ys)) // self.cell))
            for j in range(j_top, j_bottom + 1):
                y = self.y1 - (j + 0.5) * self.cell
                xs = sorted(a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
                            for a, b in edges if (a[1] > y) != (b[1] > y))
                for k in range(0, len(xs) - 1, 2):
                    i0 = max(0, math.ceil((xs[k] - self.x0) / self.cell - 0.5))
                    i1 = min(self.nx - 1, math.floor((xs[k + 1] - self.x0) / self.cell - 0.5))
                    out.update((i, j) for i in range(i0, i1 + 1))
        return out

    def flood(self, start: Iterable[Cell], allowed: set[Cell]) -> set[Cell]:
        """Cells of `allowed` 4-connected to `start`."""
        seen = {c for c in start if c in allowed}
        todo = list(seen)
        while todo:
            i, j = todo.pop()
            for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n = (i + di, j + dj)
                if n in allowed and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    def barriers(self, lines: Iterable[Sequence[Point]],
                 cells: set[Cell]) -> set[tuple[Cell, Cell]]:
        """The cell steps (both directions) whose centre-to-centre segment crosses a line."""
        buckets: dict[Cell, list[tuple[Point, Point]]] = defaultdict(list)
        for line in lines:
            for a, b in zip(line, line[1:], strict=False):
                n = max(1, math.ceil(math.dist(a, b) / (self.cell / 2)))
                touched = {self.cell_of((a[0] + (b[0] - a[0]) * k / n,
                                         a[1] + (b[1] - a[1]) * k / n))
                           for k in range(n + 1)}
                for c in sorted(touched):
                    buckets[c].append((a, b))
        blocked: set[tuple[Cell, Cell]] = set()
        for (ci, cj), segs in sorted(buckets.items()):
            for i in range(ci - 1, ci + 2):
                for j in range(cj - 1, cj + 2):
                    if (i, j) not in cells:
                        continue
                    for di, dj, _ in STEPS:
                        n = (i + di, j + dj)
                        if n not in cells or ((i, j), n) in blocked:
                            continue
                        p, q = self.centre(i, j), self.centre(*n)
                        if any(_cross(p, q, a, b) for a, b in segs):
                            blocked.add(((i, j), n))
                            blocked.add((n, (i, j)))
        return blocked

    def grow(self, seeds: dict[str, Cell], cells: set[Cell],
             blocked: set[tuple[Cell, Cell]]) -> dict[Cell, str]:
        """Each cell to the seed nearest along steps that cross no barrier (ties: the
        smaller code); cells no seed reaches that way then go to the nearest area
        ignoring the barriers."""
        owner = _dijkstra([(c, code) for code, c in sorted(seeds.items())], cells, blocked)
        rest = cells - set(owner)
        if rest:
            rim = sorted((c, owner[c]) for c in owner
                         if any((c[0] + di, c[1] + dj) in rest for di, dj, _ in STEPS))
            owner.update(_dijkstra(rim, rest | {c for c, _ in rim}, set()))
        return owner


def _dijkstra(starts: list[tuple[Cell, str]], cells: set[Cell],
              blocked: set[tuple[Cell, Cell]]) -> dict[Cell, str]:
    dist: dict[Cell, float] = {}
    heap: list[tuple[float, str, Cell]] = []
    for c, code in starts:
        dist[c] = 0.0
        heap.append((0.0, code, c))
    heapq.heapify(heap)
    done: dict[Cell, str] = {}
    while heap:
        d, code, c = heapq.heappop(heap)
        if c in done:
            continue
        done[c] = code
        for di, dj, w in STEPS:
            n = (c[0] + di, c[1] + dj)
            if n not in cells or n in done or (c, n) in blocked:
                continue
            if d + w < dist.get(n, math.inf):
                dist[n] = d + w
                heapq.heappush(heap, (d + w, code, n))
    return done


def outline(cells: set[Cell]) -> list[list[tuple[int, int]]]:
    """The boundary rings of a set of cells, as lattice corners (i right, j down),
    each ring with the cells on its right when followed on a y-down screen."""
    nxt: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for i, j in cells:
        if (i, j - 1) not in cells:
            nxt[(i, j)].append((i + 1, j))
        if (i + 1, j) not in cells:
            nxt[(i + 1, j)].append((i + 1, j + 1))
        if (i, j + 1) not in cells:
            nxt[(i + 1, j + 1)].append((i, j + 1))
        if (i - 1, j) not in cells:
            nxt[(i, j + 1)].append((i, j))
    for v in nxt.values():
        v.sort()
    rings: list[list[tuple[int, int]]] = []
    for start in sorted(nxt):
        while nxt[start]:
            ring = [start]
            cur = nxt[start].pop(0)
            while cur != start:
                ring.append(cur)
                cur = nxt[cur].pop(0)
            rings.append(_corners(ring))
    return rings


def _corners(ring: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drop the points where the ring goes straight on."""
    out = []
    n = len(ring)
    for k in range(n):
        a, b, c = ring[k - 1], ring[k], ring[(k + 1) % n]
        if (b[0] - a[0], b[1] - a[1]) != (c[0] - b[0], c[1] - b[1]):
            out.append(b)
    return out
