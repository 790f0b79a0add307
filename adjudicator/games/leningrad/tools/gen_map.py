#!/usr/bin/env python3
"""Reconstruct the Leningrad '41 area map (rule 2.0) as module XML.

The printed map is not available, so it is rebuilt from real geography (Natural
Earth, public domain; the clipped copies in tools/geodata):

* the frame is a Lambert conformal conic in km (1 km = 1 px = 1 mm of a board at
  rule 1.5's 1:1,000,000), rasterised in `CELL` km cells: land is Natural Earth land
  minus the four named lakes of rule 2.4 (Ladoga, Onega, Pejpus, Ilmen); every other
  lake is land, as the rule says they have no effect;
* each of the 175 areas grows from its seed (tools/seeds.py) over the land, the nearest
  seed taking each cell, and the rivers of rule 2.4.7 are barriers while growing, so
  that river borders run along the rivers;
* two areas are adjacent when their land borders are `MIN_BORDER` cells long or more
  (`ADJ_ADD` and `ADJ_REMOVE` then add or remove pairs); a border is a river border
  when most of it is crossed by a river; the three white double arrows of rule 2.4.8
  join the Baltic islands;
* coastal areas touch the sea (the Neva Bay is the sea east of `NEVA_BAY_WEST`), lake
  shores touch a lake, and the scenarios' control follows their front lines.

Every fact the rulebook does not state is marked source="reconstructed" and listed in
data/MAP-README.md.

    python3 -m adjudicator.games.leningrad.tools.gen_map          # regenerate map.xml
    python3 -m adjudicator.games.leningrad.tools.gen_map --check  # compare, exit 1 if not
    python3 -m adjudicator.games.leningrad.tools.gen_map --extract DIR  # refresh geodata
    python3 -m adjudicator.games.leningrad.tools.gen_map --preview map.svg  # look at it
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

from adjudicator.games.leningrad.tools import features
from adjudicator.games.leningrad.tools.geo import PROJECTION, extract, load, project
from adjudicator.games.leningrad.tools.raster import Raster, outline
from adjudicator.games.leningrad.tools.seeds import SEEDS
from adjudicator.mapgen.geometry import simplify

DATA = Path(__file__).resolve().parent.parent / "data"
OUT_XML = DATA / "map.xml"
WRITTEN_BY = "adjudicator/games/leningrad/tools/gen_map.py"
FRAME = (-440.0, -380.0, 430.0, 410.0)  # x west, y south, x east, y north (km)
CELL = 3.0
MIN_BORDER = 2  # cell sides: 6 km of common border make two areas adjacent
NEVA_BAY_WEST = (29.45, 59.75)
# Rule 2.0: the southeastern corner holds the publisher's logo, no playable Area.
LOGO = (330.0, -380.0, 430.0, -250.0)  # the sea east of this meridian and north of this parallel
# Game sense over raster accidents: pairs added or removed after the border count.
ADJ_ADD: tuple[tuple[str, str], ...] = ()
ADJ_REMOVE: tuple[tuple[str, str], ...] = ()
# Rule 2.4.8: the three white double arrows of the Baltic islands.
ARROWS = (("53", "K"), ("53", "54"), ("54", "K"))


def build() -> dict[str, object]:
    """Every fact of the map, computed from the seeds and the geodata."""
    r = Raster(*FRAME, CELL)
    land_polys = [[project([tuple(p) for p in f["geometry"]["coordinates"][0]])]
                  for f in load("land.geojson")]
    land = r.fill_polygons(land_polys)
    lake_cells: dict[str, set[tuple[int, int]]] = defaultdict(set)
    lake_shapes: dict[str, list[list[tuple[float, float]]]] = defaultdict(list)
    for f in load("lakes.geojson"):
        geom = f["geometry"]
        polys = geom["coordinates"] if geom["type"] == "MultiPolygon" else [geom["coordinates"]]
        for poly in polys:
            rings = [project([tuple(p) for p in ring]) for ring in poly]
            lake_cells[f["properties"]["lake"]] |= r.fill_polygons([rings])
            lake_shapes[f["properties"]["lake"]].append(rings[0])
    all_cells = {(i, j) for i in range(r.nx) for j in range(r.ny)}
    water = all_cells - land
    edge = [c for c in water if c[0] in (0, r.nx - 1) or c[1] in (0, r.ny - 1)]
    sea = r.flood(edge, water - set().union(*lake_cells.values()))
    lakes = {c for cells in lake_cells.values() for c in cells}
    land = all_cells - sea - lakes  # land-locked water that is no named lake is land
    land = {c for c in land if not (LOGO[0] <= r.centre(*c)[0] <= LOGO[2]
                                    and LOGO[1] <= r.centre(*c)[1] <= LOGO[3])}
    rivers: dict[str, list[list[tuple[float, float]]]] = defaultdict(list)
    for f in load("rivers.geojson"):
        coords = [tuple(p) for p in f["geometry"]["coordinates"]]
        rivers[f["properties"]["river"]].append(project(coords))
    river_blocked = {rid: r.barriers(rivers[rid], land) for rid in sorted(rivers)}
    blocked = set().union(*river_blocked.values())
    seed_cells: dict[str, tuple[int, int]] = {}
    moved: dict[str, float] = {}
    for s in SEEDS:
        p = PROJECTION.forward(s.lon, s.lat)
        c = r.cell_of(p)
        if c not in land:
            near = [(c[0] + di, c[1] + dj) for di in range(-5, 6) for dj in range(-5, 6)]
            c = min([q for q in near if q in land] or land,
                    key=lambda q, p=p: (_dist(r.centre(*q), p), q))
            moved[s.code] = round(_dist(r.centre(*c), p), 1)
        seed_cells[s.code] = c
    owner = r.grow(seed_cells, land, blocked)
    # borders: 4-neighbour pairs of cells of two areas; river borders crossed by a river
    border: Counter[tuple[str, str]] = Counter()
    crossed: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for (i, j), a in owner.items():
        for n in ((i + 1, j), (i, j + 1)):
            b = owner.get(n)
            if b is None or b == a:
                continue
            pair = (a, b) if _key(a) < _key(b) else (b, a)
            border[pair] += 1
            for rid, steps in river_blocked.items():
                if ((i, j), n) in steps:
                    crossed[pair][rid] += 1
    adjacent: dict[tuple[str, str], str] = {}
    for pair, n in border.items():
        if n >= MIN_BORDER and pair not in ADJ_REMOVE:
            river, hits = (crossed[pair].most_common(1) or [("", 0)])[0]
            adjacent[pair] = river if hits * 2 >= n else ""
    for a, b in ADJ_ADD:
        adjacent[(a, b) if _key(a) < _key(b) else (b, a)] = ""
    arrows = {(a, b) if _key(a) < _key(b) else (b, a) for a, b in ARROWS}
    # coasts and shores
    bay_x, bay_y = PROJECTION.forward(*NEVA_BAY_WEST)
    coastal: dict[str, set[str]] = defaultdict(set)
    for (i, j), a in owner.items():
        for n in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if n in sea:
                x, y = r.centre(*n)
                coastal[a].add("baltic")
                if x >= bay_x and y >= bay_y:
                    coastal[a].add("neva-bay")
            for lake, cells in lake_cells.items():
                if n in cells:
                    coastal[a].add(lake)
    shapes = {}
    cells_of: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for c, a in owner.items():
        cells_of[a].add(c)
    for code, cells in cells_of.items():
        shapes[code] = [simplify(_closed([_px(r, q) for q in ring]), 0.8)
                        for ring in outline(cells)]
    sizes = {code: len(cells) * CELL * CELL for code, cells in cells_of.items()}
    return {"raster": r, "owner": owner, "adjacent": adjacent, "arrows": arrows,
            "coastal": coastal, "shapes": shapes, "sizes": sizes, "moved": moved,
            "labels": {code: r.centre(*c) for code, c in seed_cells.items() if code in moved},
            "lake_shapes": lake_shapes, "rivers": rivers, "land_polys": land_polys}


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def _key(code: str) -> tuple[int, str]:
    return (int(code), "") if code.isdigit() else (1000, code)


def _closed(ring: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return ring + ring[:1]


def _px(r: Raster, corner: tuple[int, int]) -> tuple[float, float]:
    """A lattice corner in map pixels (x right, y down, 1 px = 1 km)."""
    return corner[0] * r.cell, corner[1] * r.cell


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    ap.add_argument("--extract", type=Path, help="refresh tools/geodata from Natural Earth")
    ap.add_argument("--out", type=Path, default=OUT_XML)
    ap.add_argument("--preview", type=Path, help="write an SVG drawing of the committed map")
    args = ap.parse_args(argv)
    if args.preview:
        args.preview.write_text(features.preview_svg(args.out.read_bytes()), encoding="utf-8")
        print(f"wrote {args.preview}")
        return 0
    if args.extract:
        extract(args.extract)
    xml = features.render(build(), WRITTEN_BY, FRAME)
    if args.check:
        same = args.out.read_bytes() == xml
        print("map.xml is up to date" if same else "map.xml differs from the generator")
        return 0 if same else 1
    args.out.write_bytes(xml)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
