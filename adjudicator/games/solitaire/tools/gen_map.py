#!/usr/bin/env python3
"""Reconstruct the Barbarossa Solitaire area map as module XML.

The printed map of the game is not available, so the map is rebuilt from real
geography (Natural Earth, public domain):

* land = ``ne_50m_land`` minus the large natural lakes (Ladoga, Onega, Peipus, ...;
  post-1941 reservoirs are not used), projected with an equidistant conic
  projection into a pixel frame 1600 px wide;
* the land is cut into game areas, neutral countries and "not in play" land by a
  Voronoi tessellation of seed points.  Every area has a main seed and may have
  hidden seeds (an area is the union of its cells).  Where a real 1941 border is
  wanted (the Molotov-Ribbentrop line, the 1940 Finnish border, the Prut, the
  Vienna-award line, the Caucasus crest, ...) a border polyline is given in
  lon/lat; it is turned into pairs of seeds just left and right of the line, so
  the Voronoi edge between the two sides runs along the polyline;
* two areas are adjacent when they share a land border longer than
  ``MIN_BORDER_PX``; an explicit override list (``ADJ_ADD`` / ``ADJ_REMOVE``)
  then adds or removes pairs for game sense.

This is a development tool (needs shapely, scipy and numpy: ``pip install -e
'.[dev]'``); the generated ``adjudicator/games/solitaire/data/map.xml`` is committed.
It reads only the clipped copies in ``tools/geodata``, which the 1941 generator shares
(refresh them with ``--extract DIR``).  Its projection and GeoJSON are the map kit's
(adjudicator/mapgen); beside it, ``geography`` holds the facts placed by hand,
``regions`` cuts the areas, ``output`` writes map.xml and ``preview`` draws it.

    python3 -m adjudicator.games.solitaire.tools.gen_map        # regenerate map.xml
    python3 -m adjudicator.games.solitaire.tools.gen_map --preview out.png
    python3 -m adjudicator.games.solitaire.tools.gen_map --extract /path/to/natural-earth-geojson
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from adjudicator.games.solitaire.tools.check_map import check
from adjudicator.mapgen.geojson import load_features, round_coords, write_features

from .geography import (
    ADJ_ADD,
    ADJ_REMOVE,
    AREAS,
    CITIES,
    COVERAGE_TOLERANCE,
    LABEL_RADIUS,
    LAKE_NAMES,
    LAKES,
    MIN_BORDER_PX,
    NEUTRALS,
    RIVERS,
    SEAS,
    project,
)

try:  # the development tools; without them the module still imports (for --help)
    import shapely
    from shapely.geometry import MultiPolygon, Point, box, shape
    from shapely.ops import nearest_points, polylabel, unary_union
except ImportError:  # pragma: no cover - `pip install -e '.[dev]'`
    shapely = None

PACKAGE = Path(__file__).resolve().parent.parent
DATA_DIR = PACKAGE / "data"
OUT_XML = DATA_DIR / "map.xml"
CREDIT = "Natural Earth (public domain)"


def _write_fc(path: Path, feats: list[tuple[dict[str, Any], Any]], nd: int = 3) -> None:
    from .output import WRITTEN_BY

    out = []
    for props, geom in feats:
        gm = dict(shapely.geometry.mapping(geom))
        gm["coordinates"] = round_coords(gm["coordinates"], nd)
        out.append((props, gm))
    write_features(path, out, WRITTEN_BY, credit=CREDIT)


def extract(src: Path) -> None:
    from .regions import GEO_DIR

    GEO_DIR.mkdir(parents=True, exist_ok=True)
    clip = box(4.0, 33.0, 75.0, 73.0)

    def feats(name: str) -> list[dict[str, Any]]:
        return load_features(src / name)

    land = unary_union([shape(f["geometry"]) for f in feats("ne_50m_land.geojson")])
    land = land.intersection(clip).simplify(0.004, preserve_topology=True)
    parts = [p for p in getattr(land, "geoms", [land]) if p.area > 0.002]
    _write_fc(GEO_DIR / "land.geojson", [({"name": "land"}, MultiPolygon(parts))])

    lakes = []
    for f in feats("ne_10m_lakes.geojson"):
        nm = f["properties"].get("name")
        if nm in LAKES:
            g = shape(f["geometry"]).intersection(clip).simplify(0.003, preserve_topology=True)
            if not g.is_empty:
                lakes.append(({"name": LAKE_NAMES.get(nm, nm)}, g))
    for f in feats("ne_10m_lakes_historic.geojson"):
        g = shape(f["geometry"]).intersection(clip).simplify(0.003, preserve_topology=True)
        lakes.append(({"name": "Aral Sea"}, g))
    _write_fc(GEO_DIR / "lakes.geojson", lakes)

    wanted = {alias: disp for disp, aliases in RIVERS.items() for alias in aliases}
    rivers: dict[str, list] = {}
    for f in feats("ne_10m_rivers_lake_centerlines.geojson"):
        nm = f["properties"].get("name")
        if nm in wanted:
            g = shape(f["geometry"]).intersection(clip)
            rivers.setdefault(wanted[nm], []).append(g)
    riv = []
    for disp, gs in sorted(rivers.items()):
        merged = shapely.line_merge(unary_union(gs)).simplify(0.01)
        riv.append(({"name": disp}, merged))
    _write_fc(GEO_DIR / "rivers.geojson", riv)

    seas = []
    for f in feats("ne_50m_geography_marine_polys.geojson"):
        nm = " ".join(f["properties"]["name"].split())
        if nm in ("Baltic Sea", "Gulf of Finland", "Black Sea", "Caspian Sea"):
            g = shape(f["geometry"]).simplify(0.01, preserve_topology=True)
            seas.append(({"name": nm}, g))
    _write_fc(GEO_DIR / "seas.geojson", seas)

    wanted_c = {v[1] for v in CITIES.values() if isinstance(v[1], str)}
    cities = []
    for f in feats("ne_50m_populated_places_simple.geojson"):
        p = f["properties"]
        if p["name"] in wanted_c:
            cities.append(({"name": p["name"]}, Point(p["longitude"], p["latitude"])))
    _write_fc(GEO_DIR / "cities.geojson", cities, nd=4)
    missing = wanted_c - {c[0]["name"] for c in cities}
    if missing:
        sys.exit(f"cities not found: {sorted(missing)}")
    print(f"extracted into {GEO_DIR}")



def generate() -> dict[str, Any]:
    from adjudicator.mapgen.shapes import polygons

    from .regions import (
        FRAME,
        build_land,
        build_sites,
        clean_regions,
        load,
        project_geom,
        shared_length,
        tessellate,
    )
    land, lakes_px = build_land()
    sites = build_sites()
    cells = tessellate(sites)
    regions = {}
    for lab, cell in cells.items():
        g = cell.intersection(land)
        g = shapely.set_precision(g, 0.01)
        if not g.is_empty:
            regions[lab] = g
    regions = clean_regions(regions)
    # simplify all regions together so that shared borders stay shared
    labs = sorted(regions)
    simplified = shapely.coverage_simplify([regions[lab] for lab in labs], COVERAGE_TOLERANCE)
    regions = {lab: shapely.make_valid(geom) for lab, geom in zip(labs, simplified, strict=True)}
    missing = [a for a in AREAS if a not in regions or regions[a].is_empty]
    if missing:
        raise SystemExit(f"areas without land: {missing}")

    # adjacency
    ids = sorted(AREAS)
    adj: dict[tuple[str, str], str] = {}
    lengths = {}
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            ln = shared_length(regions[a], regions[b])
            if ln > 0:
                lengths[(a, b)] = ln
            if ln > MIN_BORDER_PX:
                adj[(a, b)] = "reconstructed"
    for a, b, why in ADJ_REMOVE:
        key = tuple(sorted((a, b)))
        if key not in adj:
            print(f"warning: override remove {key} not computed ({why})")
        adj.pop(key, None)
    for a, b, _why in ADJ_ADD:
        key = tuple(sorted((a, b)))
        if key in adj:
            print(f"note: override add {key} already computed")
        adj[key] = "reconstructed: override"

    # labels
    labels = {}
    for aid in ids:
        # pole of inaccessibility of the main part, kept near the main seed so that
        # very large areas (Siberia, Arkangel) get their label where the seed is
        main = max(polygons(regions[aid]), key=lambda p: p.area)
        near = main.intersection(Point(project(*AREAS[aid]["seed"])).buffer(LABEL_RADIUS))
        near_parts = polygons(near)
        target = max(near_parts, key=lambda p: p.area) if near_parts else main
        lp = polylabel(target, tolerance=1.0)
        labels[aid] = (lp.x, lp.y)

    # seas
    seas_src = {p["name"]: g for p, g in load("seas.geojson")}
    seas_src.update({nm: g for nm, g in ((n, g) for n, g in lakes_px) if nm == "Lake Ladoga"})
    sea_out = []
    for sea in SEAS:
        polys = []
        for nm in sea["polys"]:
            g = seas_src[nm]
            polys.append(g if nm == "Lake Ladoga" else project_geom(g))
        water = unary_union(polys)
        members = []
        for aid, hint in sea["members"].items():
            reg = regions[aid]
            coast = reg.boundary.intersection(water.buffer(3.0))
            hp = Point(project(*hint))
            cpt = nearest_points(coast if not coast.is_empty else reg.boundary, hp)[0]
            inner = reg.buffer(-9.0)
            if inner.is_empty:
                inner = reg.buffer(-4.0)
            mpt = nearest_points(inner, cpt)[0] if not inner.is_empty else cpt
            members.append((aid, mpt.x, mpt.y))
        sea_out.append((sea, project(*sea["label"]), sorted(members)))

    neutrals = {nid: regions[nid] for nid in NEUTRALS if nid in regions}

    rivers = []
    for props, g in load("rivers.geojson"):
        gp = project_geom(g).intersection(FRAME).simplify(1.0)
        if not gp.is_empty:
            rivers.append((props["name"], gp))
    city_src = {p["name"]: g for p, g in load("cities.geojson")}
    cities = []
    for aid in ids:
        if aid not in CITIES:
            continue
        disp, src = CITIES[aid]
        lonlat = (city_src[src].x, city_src[src].y) if isinstance(src, str) else src
        cities.append((disp, aid, project(*lonlat)))

    return dict(regions=regions, adj=adj, lengths=lengths, labels=labels, seas=sea_out,
                neutrals=neutrals, lakes=lakes_px, rivers=rivers, cities=cities)



def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--extract", type=Path, metavar="DIR",
                    help="refresh tools/geodata from a Natural Earth GeoJSON directory")
    ap.add_argument("--out", type=Path, default=OUT_XML)
    ap.add_argument("--preview", type=Path, metavar="PNG", help="also render a preview PNG")
    ap.add_argument("--report", action="store_true", help="print border lengths / points")
    args = ap.parse_args(argv)
    if shapely is None:
        ap.error("this development tool needs shapely, scipy and numpy: pip install -e '.[dev]'")
    if args.extract:
        extract(args.extract)
        return 0
    from .output import count_points, write_xml

    res = generate()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_xml(res, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(AREAS)} areas, "
          f"{len(res['adj'])} adjacencies)")
    if args.report:
        for aid in sorted(AREAS):
            print(f"  {aid:15s} points={count_points(res['regions'][aid]):4d}")
        for (a, b), ln in sorted(res["lengths"].items()):
            flag = "" if ln > MIN_BORDER_PX else "   (below threshold)"
            print(f"  {a}-{b}: {ln:.1f}px{flag}")
    problems = check(args.out, verbose=args.report)
    for p in problems:
        print(f"FAIL: {p}")
    if args.preview:
        import cairosvg

        from .preview import preview_svg

        svg = preview_svg(args.out)
        cairosvg.svg2png(bytestring=svg.encode(), write_to=str(args.preview))
        print(f"preview: {args.preview}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
