"""Reconstruct the hex map of 1941: Operation Barbarossa as module XML.

The printed map of the game is not available.  The rulebook gives its grid
(four-digit CCRR hex numbers, flat-topped hexes in columns) and a handful of hex
numbers (Moscow 1808, Leningrad 0712, Helsinki 0416, ...).  The map is rebuilt
from real geography (Natural Earth, public domain) laid under that grid:

* a Lambert conformal conic projection (standard parallels 48 N and 60 N,
  central meridian 32 E) followed by a similarity transform (rotation, one
  scale, offset, with the mirror that turns "y up" into "rows grow downwards")
  fitted by least squares to the three cities the rulebook numbers.  The fit
  puts north on the left of the printed map: columns grow to the south-south-
  east, rows to the west-south-west, about 61 km per hex;
* every hex of columns 01-42 and rows 01-28 is cut from that frame.  A hex is
  water when less than half of it is land (lakes and seas named after the body
  of water), otherwise land, with the terrain that covers most of its land
  (hand-drawn forest, swamp and rough polygons, below) and the 22 June 1941
  country that owns most of it.  Neutral Sweden and Bulgaria are left off;
* rivers, the White Sea Canal and borders become hexside features; railroads
  (typed 1941 main lines) become chains of hexes joined by `rail` hexsides.

Facts the rulebook states are forced and tagged `source="rules: N.N"`; all else
is `source="reconstructed"`.  This is a development tool (needs shapely, lxml,
cairosvg for the preview); the generated map.xml is committed.  It reads only
the shared files of tools/geodata (land, lakes) and its own in geodata/ beside it
(rivers, seas: refresh them with --extract DIR).  Its geometry is the map kit's
(adjudicator/mapgen); the modules beside this one hold the hand-placed facts
(`geography`, `railways`), the hexes (`terrain`), the hexsides (`hexsides`) and the
preview (`preview`).

    python -m adjudicator.games.barbarossa.tools.gen_map           # regenerate map.xml
    python -m adjudicator.games.barbarossa.tools.gen_map --preview out.png --report
    python -m adjudicator.games.barbarossa.tools.gen_map --extract /path/to/natural-earth-geojson
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree
from shapely.geometry import box, mapping, shape
from shapely.ops import unary_union

from adjudicator.mapgen.geojson import CREDIT, load_features, round_coords, write_features
from adjudicator.mapgen.projection import Fitted, LambertConic
from adjudicator.mapgen.routing import side

from .geography import CANALS, COLUMNS, EDGE_NAMES, FIT_ANCHORS, FRAME, RIVERS, ROWS
from .hexsides import (
    border_sides,
    build_canals,
    build_rails,
    build_rivers,
    river_graph,
    water_sides,
)
from .terrain import (
    GEO_DIR,
    Geo,
    HexInfo,
    Side,
    build_hexes,
    load_geo,
    mark_coastal,
    mark_finnish_limit,
    mark_supply,
    place_cities,
)

HERE = Path(__file__).resolve().parent
DATA_DIR = HERE.parent / "data"
OUT_XML = DATA_DIR / "map.xml"
OUT_RNG = DATA_DIR / "map.rng"
NS = "urn:pbem:module:1"
WRITTEN_BY = "tools/gen_barbarossa_map.py"  # the name the committed files carry
PROJECTION = LambertConic(lon0=32.0, lat0=55.0, par1=48.0, par2=60.0)


def fit_transform() -> Fitted:
    """Least squares for (a, b) in frame = a*conj(w) + b over the rulebook's cities."""
    return Fitted.through(PROJECTION, {name: (lonlat, FRAME.centre_of(hid))
                                       for name, (lonlat, hid, _) in FIT_ANCHORS.items()})


def describe(tf: Fitted) -> str:
    return (f"{tf.projection.describe()} -> "
            f"frame = a*conj(x + iy) + b with a = {tf.a.real:.7f}{tf.a.imag:+.7f}i, "
            f"b = {tf.b.real:.4f}{tf.b.imag:+.4f}i (x, y km east/north; frame x = "
            f"column*sqrt(3)/2, y = row (+0.5 on even columns)); {tf.km_per_hex:.2f} "
            f"km per hex, rotation {tf.rotation_deg:.2f} deg")


EXTRACT_BOX = (15.0, 40.0, 52.0, 67.0)
MISLABELLED = {"Oka|Volga"}  # a Natural Earth piece named Oka that is the lower Volga


def _write_fc(path: Path, feats: list[tuple[dict[str, Any], Any]]) -> None:
    out = []
    for props, geom in feats:
        gm = dict(mapping(geom))
        gm["coordinates"] = round_coords(gm["coordinates"], 3)
        out.append((props, gm))
    write_features(path, out, WRITTEN_BY)


def extract(src: Path) -> None:
    """Write geodata/rivers.geojson and geodata/seas.geojson."""
    import shapely

    clip = box(*EXTRACT_BOX)
    wanted = {alias: rid for rid, (_, aliases) in {**RIVERS, **CANALS}.items()
              for alias in aliases}
    parts: dict[str, list[Any]] = defaultdict(list)
    for fname in ("ne_10m_rivers_lake_centerlines.geojson", "ne_10m_rivers_europe.geojson"):
        for f in load_features(src / fname):
            p = f["properties"]
            key = p.get("name")
            full = f"{key}|{p.get('name_alt')}"
            rid = wanted.get(full) or (wanted.get(key) if full not in MISLABELLED else None)
            if rid:
                g = shape(f["geometry"]).intersection(clip)
                if not g.is_empty:
                    parts[rid].append(g)
    rivers = []
    for rid in sorted(parts):
        merged = shapely.line_merge(unary_union(parts[rid])).simplify(0.005)
        rivers.append(({"id": rid}, merged))
    _write_fc(GEO_DIR / "rivers.geojson", rivers)

    seas = []
    for f in load_features(src / "ne_50m_geography_marine_polys.geojson"):
        nm = " ".join(f["properties"]["name"].split())
        if nm in ("White Sea", "Baltic Sea", "Gulf of Finland", "Gulf of Bothnia", "Black Sea",
                  "Caspian Sea"):
            g = shape(f["geometry"]).intersection(clip).simplify(0.01, preserve_topology=True)
            seas.append(({"name": nm}, g))
    _write_fc(GEO_DIR / "seas.geojson", seas)
    print(f"extracted {len(rivers)} rivers and {len(seas)} seas into {GEO_DIR}")


@dataclass
class MapData:
    tf: Fitted
    hexes: dict[str, HexInfo]
    rivers: dict[Side, list[str]]
    canals: dict[Side, str]
    waters: dict[Side, tuple[str, str]]
    borders: dict[Side, str]
    rails: dict[Side, str]
    notes: list[str]
    geo: Geo


def generate() -> MapData:
    tf = fit_transform()
    for name, ((lon, lat), want, _) in FIT_ANCHORS.items():
        got = FRAME.label(*FRAME.hex_at(*tf.to_frame(lon, lat)))
        if got != want:
            sys.exit(f"the fit puts {name} in {got}, not {want}")
    geo = load_geo(tf)
    hexes = build_hexes(tf, geo)
    notes = place_cities(tf, hexes)
    waters = water_sides(hexes, geo)
    borders = border_sides(hexes)
    graph = river_graph(hexes)
    rivers, rnotes = build_rivers(geo, hexes, graph)
    canals = build_canals(geo, hexes, graph)
    blocked = set(waters)
    rails, tnotes = build_rails(tf, hexes, blocked)
    mark_supply(hexes)
    mark_coastal(hexes, waters)
    mark_finnish_limit(tf, hexes)
    return MapData(tf, hexes, rivers, canals, waters, borders, rails, notes + rnotes + tnotes,
                   geo)


def render(m: MapData) -> bytes:
    """The map.xml of a generated map, byte for byte as committed."""
    nsmap = {None: NS}
    root = etree.Element(f"{{{NS}}}map", nsmap=nsmap)
    root.set("kind", "hexes")
    root.set("source", "reconstructed")
    root.set("first-column", f"{COLUMNS[0]:02d}")
    root.set("last-column", f"{COLUMNS[-1]:02d}")
    root.set("first-row", f"{ROWS[0]:02d}")
    root.set("last-row", f"{ROWS[-1]:02d}")
    root.set("edges", "; ".join(f"{k}: {v}" for k, v in EDGE_NAMES.items()))
    root.set("projection", describe(m.tf))
    root.set("credit", CREDIT)
    root.text = "\n  "
    grid = etree.SubElement(root, f"{{{NS}}}grid", orientation="flat", shifted="even",
                            numbering="CCRR", source="rules: 1.1.1 B, 6.2")
    last = grid
    for hid in sorted(m.hexes):
        h = m.hexes[hid]
        el = etree.SubElement(root, f"{{{NS}}}hex", id=hid, terrain=h.terrain)
        if h.is_water:
            el.set("water", h.water)
        else:
            el.set("country", h.country)
        if h.city:
            el.set("city", h.city)
            el.set("city-class", h.city_class)
        if h.fortification:
            el.set("fortification", "yes")
        if h.rail_exit:
            el.set("rail-exit", h.rail_exit)
        if h.supply:
            el.set("supply", h.supply)
        if h.coastal:
            el.set("coastal", "yes")
        if h.finnish_limit:
            el.set("finnish-limit", h.finnish_limit)
        if h.notes:
            el.set("note", "; ".join(h.notes))
        el.set("source", "; ".join(dict.fromkeys(h.sources)))
        last = el
    sides: list[tuple[Side, str, dict[str, str]]] = []
    for sd, rids in m.rivers.items():
        src = "rules: 1.1.2 C" if sd == side("0101", "0102") else "reconstructed"
        sides.append((sd, "river", {"rivers": " ".join(rids), "source": src}))
    for sd, cid in m.canals.items():
        sides.append((sd, "canal", {"canal": cid, "source": "reconstructed"}))
    for sd, (kind, src) in m.waters.items():
        sides.append((sd, kind, {"source": src}))
    for sd, pair in m.borders.items():
        sides.append((sd, "border", {"countries": pair, "source": "reconstructed"}))
    for sd, src in m.rails.items():
        sides.append((sd, "rail", {"source": src}))
    order = {"river": 0, "canal": 1, "all-sea": 2, "all-lake": 3, "border": 4, "rail": 5}
    for (a, b), feat, attrs in sorted(sides, key=lambda s: (order[s[1]], s[0])):
        el = etree.SubElement(root, f"{{{NS}}}hexside", a=a, b=b, features=feat)
        for k, v in attrs.items():
            el.set(k, v)
        last = el
    for el in root:
        el.tail = "\n  "
    last.tail = "\n"
    return (b"<?xml version='1.0' encoding='utf-8'?>\n"
            # the committed map.xml says so, byte for byte (a changed comment
            # would be a new module version)
            b"<!-- Generated by tools/gen_barbarossa_map.py from Natural Earth data "
            b"(public domain). Do not edit by hand. -->\n"
            + etree.tostring(root, encoding="utf-8") + b"\n")


def write_xml(m: MapData, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(render(m))



def report(m: MapData) -> None:
    tf = m.tf
    print(describe(tf))
    for name, ((lon, lat), want, _) in FIT_ANCHORS.items():
        fx, fy = tf.to_frame(lon, lat)
        cx, cy = FRAME.centre_of(want)
        print(f"  {name:10s} {want}  {math.hypot(fx - cx, fy - cy):.2f} hex from the centre")
    kinds = defaultdict(int)
    for h in m.hexes.values():
        kinds[h.terrain] += 1
    print(f"hexes: {len(m.hexes)} {dict(sorted(kinds.items()))}")
    print(f"rivers: {len(m.rivers)} hexsides; canal {len(m.canals)}; water sides "
          f"{len(m.waters)}; borders {len(m.borders)}; rail {len(m.rails)}")
    print("rail exits:", sorted((h.id, h.rail_exit) for h in m.hexes.values() if h.rail_exit))
    for n in m.notes:
        print("  note:", n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--extract", type=Path, metavar="DIR",
                    help="refresh geodata/rivers.geojson and seas.geojson from Natural Earth")
    ap.add_argument("--out", type=Path, default=OUT_XML)
    ap.add_argument("--preview", type=Path, metavar="PNG", help="also render a preview PNG")
    ap.add_argument("--report", action="store_true", help="print the fit and the counts")
    args = ap.parse_args(argv)
    if args.extract:
        extract(args.extract)
        return 0
    m = generate()
    write_xml(m, args.out)
    if args.report:
        report(m)
    if args.preview:
        import cairosvg

        from .preview import preview_svg

        cairosvg.svg2png(bytestring=preview_svg(m).encode(), write_to=str(args.preview))
    schema = etree.RelaxNG(etree.parse(str(OUT_RNG))) if OUT_RNG.exists() else None
    if schema is not None and not schema.validate(etree.parse(str(args.out))):
        print(schema.error_log, file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({len(m.hexes)} hexes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
