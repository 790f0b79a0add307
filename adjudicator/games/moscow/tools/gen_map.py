#!/usr/bin/env python3
"""Reconstruct the hex map of Moscow '41 as module XML.

The printed map of the game is not available.  The rulebook gives its grid only
through examples: four-digit CCRR hex numbers on flat-topped hexes in columns,
columns numbered from west to east ("east of hex row 20xx", 1.3.1 G-H), rows from
north to south, and the odd columns half a hex lower than the even ones (the 4.5
example moves 1510 -> 1611 and 1711 -> 1812, the 6.0 example 2416 -> 2315).  It
names no city hex.  The map is rebuilt from real geography (Natural Earth, public
domain) laid under that grid:

* a Lambert conformal conic projection (standard parallels 52 N and 58 N, central
  meridian 33.5 E), north up, at the rulebook's scale of 20 miles (32.19 km) from
  hex centre to hex centre (2.9), placed so that Moscow is the centre of 2808.
  Then Vyazma falls in column 20 (the Soviet set-up line of 1.3.1 G-H), the front
  of 1 October 1941 in columns 16-20 and Moscow ten hexes east of it;
* every hex of columns 01-34 and rows 01-22 is land.  A hex takes the terrain
  (clear, light woods, woods, marsh) that most of 19 sample points in it fall in
  (hand-drawn polygons, below); the starting front line of 1 October 1941 (typed)
  splits the map into the German and the Soviet side;
* rivers and lakes become hexside features, 1941 main roads (typed chains of towns)
  chains of hexes joined by `road` hexsides, the Moscow defensive ring (13.0) the
  border of Moscow and its six neighbours.

Facts the rulebook states are forced and tagged `source="rules: N.N"`; all else is
`source="reconstructed"`.  This is a development tool with no dependency beyond
lxml (the project's own); cairosvg for --preview.  The generated map.xml is
committed; the output is deterministic.  It reads only files in its geodata/
(refresh them with --extract DIR).  Its geometry is the map kit's (adjudicator/mapgen);
beside it, `geography` holds the facts placed by hand, `terrain` the hexes, `hexsides`
the hexside features and `preview` draws the result.

    python3 -m adjudicator.games.moscow.tools.gen_map           # regenerate map.xml
    python3 -m adjudicator.games.moscow.tools.gen_map --preview out.png --report
    python3 -m adjudicator.games.moscow.tools.gen_map --extract /path/to/natural-earth-geojson
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from adjudicator.mapgen.frame import Point
from adjudicator.mapgen.geojson import (
    CREDIT,
    box_pieces,
    lines,
    load_features,
    rings,
    write_features,
)
from adjudicator.mapgen.geometry import seg_distance, simplify
from adjudicator.mapgen.routing import Side, side, vertex_graph

from .geography import (
    _CENTER,
    _EUROPE,
    COLUMNS,
    EDGE_NAMES,
    EXAMPLE_PATH_SIDES,
    FRAME,
    GRID_SOURCE,
    LAKE_FILES,
    LAKES,
    MOSCOW_HEX,
    MOSCOW_LONLAT,
    RIVER_SOURCES,
    ROWS,
    describe_transform,
    lonlat_hex,
)
from .hexsides import (
    build_lakes,
    build_rivers,
    build_roads,
    front_sides,
    mark_front_and_supply,
    moscow_ring,
)
from .terrain import HexInfo, build_hexes, place_towns

HERE = Path(__file__).resolve().parent
GEO_DIR = HERE / "geodata"  # this map's own rivers and lakes
RIVERS_FILE = GEO_DIR / "rivers.geojson"
LAKES_FILE = GEO_DIR / "lakes.geojson"
DATA_DIR = HERE.parent / "data"
OUT_XML = DATA_DIR / "map.xml"
OUT_RNG = DATA_DIR / "map.rng"
NS = "urn:pbem:module:1"

# --------------------------------------------------------------------------------------
# --extract: clipped copies of the Natural Earth files the generator reads
# --------------------------------------------------------------------------------------
EXTRACT_BOX = (24.5, 50.5, 42.5, 58.7)
MADE_BY = "the Moscow '41 map generator"  # the words the committed extracts carry


def _deg_dist(p: Point, a: Point, b: Point) -> float:
    """The distance of a point from a segment in degrees, longitude scaled at 55 N."""
    k = math.cos(math.radians(55.0))
    return seg_distance((p[0] * k, p[1]), (a[0] * k, a[1]), (b[0] * k, b[1]))


def extract(src: Path) -> None:
    """Write geodata/rivers.geojson and lakes.geojson."""
    cache = {name: load_features(src / name) for name in (_CENTER, _EUROPE, *LAKE_FILES)}
    rivers = []
    for rid, sources in RIVER_SOURCES.items():
        found: list[list[Point]] = []
        for fname, name, probe in sources:
            for f in cache[fname]:
                if f["properties"].get("name") != name:
                    continue
                flines = lines(f["geometry"])
                if probe is not None and min(
                        (_deg_dist(probe, a, b) for ln in flines
                         for a, b in zip(ln, ln[1:], strict=False)), default=9) > 0.06:
                    continue
                for ln in flines:
                    found += box_pieces(ln, EXTRACT_BOX)
        found = [[(round(x, 3), round(y, 3)) for x, y in simplify(ln, 0.01)] for ln in found]
        rivers.append(({"id": rid}, {"type": "MultiLineString", "coordinates": found}))
    write_features(RIVERS_FILE, rivers, MADE_BY)

    lakes = []
    for lake, probes in LAKES.items():
        polys = []
        for fname in LAKE_FILES:
            for f in cache[fname]:
                for ring in rings(f["geometry"]):
                    cx = sum(p[0] for p in ring) / len(ring)
                    cy = sum(p[1] for p in ring) / len(ring)
                    if any(math.hypot((cx - px) * 0.57, cy - py) < 0.12 for px, py in probes):
                        polys.append([[[round(x, 3), round(y, 3)] for x, y in ring]])
        lakes.append(({"name": lake}, {"type": "MultiPolygon", "coordinates": polys}))
    write_features(LAKES_FILE, lakes, MADE_BY)
    print(f"extracted {len(rivers)} rivers and {len(lakes)} lakes into {GEO_DIR}")


# --------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------
@dataclass
class MapData:
    hexes: dict[str, HexInfo]
    rivers: dict[Side, list[str]]
    lakes: dict[Side, str]
    roads: dict[Side, str]
    ring: list[Side]
    fronts: list[Side]
    notes: list[str]


def check_grid() -> None:
    """The frame geometry and the engine's grid agree on who touches whom."""
    for hid in ("1510", "2416", "2315", "0101", "3422"):
        for n in FRAME.neighbours(hid):
            assert abs(math.dist(FRAME.centre_of(hid), FRAME.centre_of(n)) - 1) < 1e-9, (hid, n)


def generate() -> MapData:
    check_grid()
    got = lonlat_hex(*MOSCOW_LONLAT)
    if got != MOSCOW_HEX:
        sys.exit(f"the transform puts Moscow in {got}, not {MOSCOW_HEX}")
    hexes = build_hexes()
    where, notes = place_towns(hexes)
    graph = vertex_graph(FRAME, hexes)
    lakes = build_lakes(LAKES_FILE, hexes)
    rivers, rnotes = build_rivers(RIVERS_FILE, graph)
    roads, tnotes = build_roads(hexes, where, lakes)
    ring = moscow_ring()
    fronts = front_sides(hexes)
    mark_front_and_supply(hexes, fronts)
    for a, b in EXAMPLE_PATH_SIDES:  # the 4.5 example needs these hexsides bare
        assert side(a, b) not in rivers and side(a, b) not in roads, (a, b)
    return MapData(hexes, rivers, lakes, roads, ring, fronts, notes + rnotes + tnotes)


def to_xml(m: MapData) -> bytes:
    root = etree.Element(f"{{{NS}}}map", nsmap={None: NS})
    root.set("kind", "hexes")
    root.set("source", "reconstructed")
    root.set("first-column", f"{COLUMNS[0]:02d}")
    root.set("last-column", f"{COLUMNS[-1]:02d}")
    root.set("first-row", f"{ROWS[0]:02d}")
    root.set("last-row", f"{ROWS[-1]:02d}")
    root.set("edges", "; ".join(f"{k}: {v}" for k, v in EDGE_NAMES.items()))
    root.set("projection", describe_transform())
    root.set("credit", CREDIT)
    last = etree.SubElement(root, f"{{{NS}}}grid", orientation="flat", shifted="odd",
                            numbering="CCRR", source=GRID_SOURCE)
    for hid in sorted(m.hexes):
        h = m.hexes[hid]
        el = etree.SubElement(root, f"{{{NS}}}hex", id=hid, terrain=h.terrain, side=h.side)
        if h.front:
            el.set("front-line", "yes")
        if h.city:
            el.set("city", h.city)
            el.set("city-class", h.city_class)
            el.set("supply", h.side)
        if h.road_exit:
            el.set("road-exit", h.road_exit)
        if h.entry:
            el.set("entry", "soviet")
        if h.notes:
            el.set("note", "; ".join(h.notes))
        refs = [ref for src in h.sources if src.startswith("rules: ")
                for ref in src[len("rules: "):].split(", ")]
        el.set("source", f"rules: {', '.join(dict.fromkeys(refs))}; reconstructed"
               if refs else "reconstructed")
        last = el
    sides: list[tuple[Side, str, dict[str, str]]] = []
    for sd, rids in m.rivers.items():
        sides.append((sd, "river", {"rivers": " ".join(rids), "source": "reconstructed"}))
    for sd, lake in m.lakes.items():
        sides.append((sd, "lake", {"lake": lake, "source": "reconstructed"}))
    for sd, src in m.roads.items():
        sides.append((sd, "road", {"source": src}))
    for sd in m.ring:
        sides.append((sd, "moscow-ring", {"source": "rules: 13.0; reconstructed"}))
    for sd in m.fronts:
        sides.append((sd, "front-line", {"source": "rules: 1.3.2 C; reconstructed"}))
    order = {"river": 0, "lake": 1, "road": 2, "moscow-ring": 3, "front-line": 4}
    for (a, b), feat, attrs in sorted(sides, key=lambda s: (order[s[1]], s[0])):
        el = etree.SubElement(root, f"{{{NS}}}hexside", a=a, b=b, features=feat)
        for k, v in attrs.items():
            el.set(k, v)
        last = el
    root.text = "\n  "
    for el in root:
        el.tail = "\n  "
    last.tail = "\n"
    return (b"<?xml version='1.0' encoding='utf-8'?>\n"
            b"<!-- Generated by adjudicator.games.moscow.tools.gen_map from Natural Earth data "
            b"(public domain). Do not edit by hand. -->\n"
            + etree.tostring(root, encoding="utf-8") + b"\n")



def report(m: MapData) -> None:
    print(describe_transform())
    kinds: dict[str, int] = defaultdict(int)
    for h in m.hexes.values():
        kinds[h.terrain] += 1
    print(f"hexes: {len(m.hexes)} {dict(sorted(kinds.items()))}")
    print(f"german side {sum(h.side == 'german' for h in m.hexes.values())}, front-line "
          f"hexes {sum(h.front for h in m.hexes.values())}, front hexsides {len(m.fronts)}")
    print(f"rivers: {len(m.rivers)} hexsides; lakes {len(m.lakes)}; roads {len(m.roads)}; "
          f"ring {len(m.ring)}")
    print("entry hexes:", sorted(h.id for h in m.hexes.values() if h.entry))
    print("road exits:", sorted((h.id, h.road_exit) for h in m.hexes.values() if h.road_exit))
    print("lake hexsides with a road:", sorted(sd for sd in m.lakes if sd in m.roads))
    for n in m.notes:
        print("  note:", n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--extract", type=Path, metavar="DIR",
                    help="refresh geodata/*.geojson from Natural Earth")
    ap.add_argument("--out", type=Path, default=OUT_XML)
    ap.add_argument("--preview", type=Path, metavar="PNG", help="also render a preview PNG")
    ap.add_argument("--report", action="store_true", help="print the counts")
    args = ap.parse_args(argv)
    if args.extract:
        extract(args.extract)
        return 0
    m = generate()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(to_xml(m))
    if args.report:
        report(m)
    if args.preview:
        import cairosvg

        from .preview import preview_svg

        cairosvg.svg2png(bytestring=preview_svg(m).encode(), write_to=str(args.preview))
    if OUT_RNG.exists():
        schema = etree.RelaxNG(etree.parse(str(OUT_RNG)))
        if not schema.validate(etree.parse(str(args.out))):
            print(schema.error_log, file=sys.stderr)
            return 1
    print(f"wrote {args.out} ({len(m.hexes)} hexes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
