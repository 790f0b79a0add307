"""The hexes of the Moscow '41 map: every hex of the grid is land; each takes the terrain
most of its 19 sample points fall in (2.2: clear, light woods, woods, marsh), the side
of the starting front line of 1 October 1941 (1.3.2), and the towns placed in it."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from adjudicator.mapgen.geometry import Region, densify, point_in_polygon

from .geography import (
    FORCED_TERRAIN,
    FRAME,
    GERMAN_SIDE,
    MOSCOW_HEX,
    RULE_NOTES,
    TERRAIN_AREAS,
    TERRAIN_ORDER,
    TOWNS,
    lonlat_offset,
    to_frame,
)


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
        return FRAME.label(self.col, self.row)


# the sample points of a hex: the centre and three rings of six
_SAMPLES = [(0.0, 0.0)] + [
    (r * math.cos(math.radians(a + off)), r * math.sin(math.radians(a + off)))
    for r, off in ((0.25, 30), (0.45, 0), (0.42, 30)) for a in range(0, 360, 60)]


def build_hexes() -> dict[str, HexInfo]:
    areas = [(kind, Region([[to_frame(*p) for p in densify(ring, 0.1)]]))
             for kind, _, ring in TERRAIN_AREAS]
    german = [to_frame(*p) for p in densify(GERMAN_SIDE, 0.1)]
    hexes: dict[str, HexInfo] = {}
    for col, row in FRAME:
        info = HexInfo(col, row)
        cx, cy = FRAME.centre(col, row)
        votes: dict[str, int] = defaultdict(int)
        for dx, dy in _SAMPLES:
            p = (cx + dx, cy + dy)
            kinds = {kind for kind, area in areas if area.contains(p)}
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


def place_towns(hexes: dict[str, HexInfo]
                ) -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Towns in their hexes (the first listed wins a shared hex).  Returns the hex
    (column, row) of every town (also of those off the map or that lost their hex, for
    the roads) and notes."""
    where: dict[str, tuple[int, int]] = {}
    notes = []
    for name, lon, lat, klass in TOWNS:
        col, row = FRAME.offset(MOSCOW_HEX) if name == "Moscow" else lonlat_offset(lon, lat)
        where[name] = (col, row)
        h = hexes.get(FRAME.label(col, row)) if FRAME.on_map(col, row) else None
        if h is None:
            notes.append(f"{name}: off the map ({col:02d}{row:02d})")
            continue
        if h.city:
            notes.append(f"{name}: shares hex {h.id} with {h.city}, left out")
            continue
        h.city, h.city_class = name, klass
        if name == "Moscow":
            h.sources.insert(0, "rules: 13.0, 14.4, 16.0")
            h.notes.append("Moscow: 13.0 defensive ring, 14.4, 16.0 A, 16.2")
    return where, notes
