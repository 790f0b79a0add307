"""The hexsides of the Moscow '41 map: rivers routed along the hexsides that follow them
(the map kit's routing, three-hex stretches), lake hexsides (4.8 D, 5.0 C, 7.5 C, 8.0 F),
1941 main roads as chains of hexes with their exits off the map edges (16.0 C), the
Moscow defensive ring (13.0) and the starting front line (1.3.2 C)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from adjudicator.mapgen.frame import Point
from adjudicator.mapgen.geojson import load_features
from adjudicator.mapgen.geometry import (
    Polyline,
    bbox,
    clip_polyline,
    point_in_polygon,
    seg_distance,
)
from adjudicator.mapgen.routing import Graph, Side, hex_chain, river_courses, route_line, side

from .geography import (
    COLUMNS,
    EXAMPLE_PATH_SIDES,
    FRAME,
    LAKE_SIDE_MIN,
    LAKE_SIDE_SHARE,
    MIN_RIVER_HEXES,
    MOSCOW_HEX,
    RIVERS,
    ROADS,
    ROWS,
    to_frame,
)
from .terrain import HexInfo

LAKE_PENALTY = 1.0  # a road crosses a lake hexside only where it must


def map_rect() -> tuple[float, float, float, float]:
    """A rectangle inside the map (every point of it lies in an on-map hex)."""
    x0 = FRAME.centre(COLUMNS[0], 1)[0] - 0.25
    x1 = FRAME.centre(COLUMNS[-1], 1)[0] + 0.25
    return x0, ROWS[0] + 0.05, x1, ROWS[-1] + 0.45


def build_rivers(rivers_file: Path, graph: Graph) -> tuple[dict[Side, list[str]], list[str]]:
    out: dict[Side, list[str]] = defaultdict(list)
    notes = []
    rect = map_rect()
    blocked = {side(a, b) for a, b in EXAMPLE_PATH_SIDES}
    geoms = {f["properties"]["id"]: f["geometry"]["coordinates"]
             for f in load_features(rivers_file)}
    for rid in RIVERS:
        lines = []
        for ln in geoms.get(rid, []):
            frame_line = [to_frame(*p) for p in ln]
            lines += [part[0] for part in clip_polyline(frame_line, rect)]
        courses = [c for c in river_courses(lines) if Polyline(c).length >= MIN_RIVER_HEXES]
        if not courses:
            notes.append(f"{rid}: less than {MIN_RIVER_HEXES} hexes on the map, left out")
        for course in courses:
            for sd in route_line(FRAME, Polyline(course), graph, blocked):
                if rid not in out[sd]:
                    out[sd].append(rid)
    return dict(out), notes


def build_lakes(lakes_file: Path, hexes: dict[str, HexInfo]) -> dict[Side, str]:
    """Hexsides printed over a lake (4.8 D, 5.0 C, 7.5 C, 8.0 F)."""
    out: dict[Side, str] = {}
    for f in load_features(lakes_file):
        name = f["properties"]["name"]
        rings = [[to_frame(*p) for p in poly[0]] for poly in f["geometry"]["coordinates"]]
        wet: dict[Side, float] = {}
        for ring in rings:
            x0, y0, x1, y1 = bbox(ring)
            for hid in sorted(hexes):
                cx, cy = FRAME.centre_of(hid)
                if not (x0 - 1 <= cx <= x1 + 1 and y0 - 1 <= cy <= y1 + 1):
                    continue
                for n in FRAME.neighbours(hid):
                    if n not in hexes or n < hid:
                        continue
                    va, vb = FRAME.hexside_segment(hid, n)
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


def build_roads(hexes: dict[str, HexInfo], where: dict[str, tuple[int, int]],
                lakes: dict[Side, str]) -> tuple[dict[Side, str], list[str]]:
    roads: dict[Side, str] = {}
    notes = []
    rect = map_rect()
    blocked = {side(a, b) for a, b in EXAMPLE_PATH_SIDES}

    def town_point(stop: str | Point) -> Point:
        if isinstance(stop, str):
            return FRAME.centre(*where[stop])
        return to_frame(*stop)

    def passable(h: str, n: str) -> bool:
        return n in hexes and side(h, n) not in blocked

    def wet(h: str, n: str) -> float:
        return LAKE_PENALTY if side(h, n) in lakes else 0.0

    for name, stops in ROADS:
        pts = [town_point(s) for s in stops]
        for part, start_cut, end_cut, start_side, end_side in clip_polyline(pts, rect):
            chain: list[str] = []
            for p, q in zip(part, part[1:], strict=False):
                a, b = FRAME.label(*FRAME.hex_at(*p)), FRAME.label(*FRAME.hex_at(*q))
                if chain:
                    a = chain[-1]
                if a == b:
                    continue
                path = hex_chain(FRAME, a, b, passable,
                                 lambda c, p=p, q=q: seg_distance(c, p, q), penalty=wet)
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
    inner = {MOSCOW_HEX, *FRAME.neighbours(MOSCOW_HEX)}
    return sorted(side(h, n) for h in inner for n in FRAME.neighbours(h) if n not in inner)


def front_sides(hexes: dict[str, HexInfo]) -> list[Side]:
    out = set()
    for hid, h in hexes.items():
        for n in FRAME.neighbours(hid):
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
