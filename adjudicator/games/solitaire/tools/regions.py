"""The areas of the Barbarossa Solitaire map cut from the land: Natural Earth land less
the large natural lakes, projected into the pixel frame, and a Voronoi tessellation of
the areas' seeds (a border line becomes pairs of seeds either side of it, so the cells'
edge runs along it), dissolved per area and cleaned of slivers. Needs shapely, scipy and
numpy (the `dev` extra)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import Polygon, box, shape
from shapely.ops import unary_union

from adjudicator.mapgen.geojson import load_features
from adjudicator.mapgen.shapes import polygons, to_frame

from .geography import AREAS, BORDERS, HEIGHT, NEUTRALS, WIDTH, project

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent.parent.parent
GEO_DIR = ROOT / "tools" / "geodata"
FRAME = box(0, 0, WIDTH, HEIGHT)
Site = tuple[float, float, str]


def project_geom(geom: Any) -> Any:
    return to_frame(geom, project)


def load(name: str) -> list[tuple[dict[str, Any], Any]]:
    return [(f["properties"], shape(f["geometry"])) for f in load_features(GEO_DIR / name)]




def densify_px(pts: list[tuple[float, float]], step: float) -> list[tuple[float, ...]]:
    """Points every `step` px along the projected polyline, with unit direction."""
    out = []
    carry = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        dx, dy = x1 - x0, y1 - y0
        seg = math.hypot(dx, dy)
        if seg == 0:
            continue
        ux, uy = dx / seg, dy / seg
        t = carry
        while t < seg:
            out.append((x0 + ux * t, y0 + uy * t, ux, uy))
            t += step
        carry = t - seg
    return out


def build_sites() -> list[Site]:
    """Return [(x, y, label)] for the Voronoi tessellation."""
    core: list[tuple[float, float, str]] = []
    for aid, a in AREAS.items():
        for lonlat in [a["seed"], *a["hidden"]]:
            core.append((*project(*lonlat), aid))
    for nid, nd in NEUTRALS.items():
        for lonlat in nd["seeds"]:
            core.append((*project(*lonlat), nid))

    def resolve(spec: str, x: float, y: float) -> str:
        opts = spec.split("|")
        if len(opts) == 1:
            return opts[0]
        best = min((c for c in core if c[2] in opts),
                   key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2)
        return best[2]

    sites = list(core)
    off, step = 1.6, 4.0
    for _title, left, right, pts in BORDERS:
        for spec in (left, right):
            for lab in spec.split("|"):
                if lab not in AREAS and lab not in NEUTRALS:
                    raise SystemExit(f"unknown label {lab!r} in border {_title!r}")
        ppts = [project(*p) for p in pts]
        for x, y, ux, uy in densify_px(ppts, step):
            # screen coords (y down): left of direction (ux, uy) is (uy, -ux)
            lx, ly = x + uy * off, y - ux * off
            rx, ry = x - uy * off, y + ux * off
            sites.append((lx, ly, resolve(left, x, y)))
            sites.append((rx, ry, resolve(right, x, y)))
    # de-duplicate (voronoi needs distinct points)
    seen = set()
    uniq = []
    for x, y, lab in sites:
        k = (round(x, 3), round(y, 3))
        if k not in seen:
            seen.add(k)
            uniq.append((x, y, lab))
    return uniq


def tessellate(sites: list[Site]) -> dict[str, Any]:
    """Voronoi cells (scipy) of the sites, dissolved per label."""
    import numpy as np
    from scipy.spatial import Voronoi

    far = 20 * max(WIDTH, HEIGHT)
    pts = np.array([(x, y) for x, y, _ in sites]
                   + [(-far, -far), (far, -far), (far, far), (-far, far)])
    vor = Voronoi(pts)
    bound = FRAME.buffer(400)
    by_label: dict[str, list] = {}
    for i, (_, _, lab) in enumerate(sites):
        region = vor.regions[vor.point_region[i]]
        if not region or -1 in region:
            raise SystemExit(f"unbounded Voronoi cell for site {i}")
        cell = Polygon(vor.vertices[region]).intersection(bound)
        if not cell.is_empty:
            by_label.setdefault(lab, []).append(cell)
    return {lab: shapely.union_all(cs, grid_size=0.001) for lab, cs in by_label.items()}


def build_land() -> tuple[Any, list[tuple[str, Any]]]:
    land = unary_union([g for _, g in load("land.geojson")])
    lakes = load("lakes.geojson")
    land = land.difference(unary_union([g for _, g in lakes]))
    land_px = project_geom(land.intersection(box(0, 30, 80, 75)))
    land_px = land_px.intersection(FRAME)
    land_px = land_px.simplify(0.8, preserve_topology=True)
    keep = [p for p in polygons(land_px) if p.area >= 8.0]
    land_px = unary_union(keep)
    by_name: dict[str, list] = {}
    for props, g in lakes:
        gp = project_geom(g).intersection(FRAME)
        gp = gp.simplify(0.8, preserve_topology=True)
        by_name.setdefault(props["name"], []).extend(p for p in polygons(gp) if p.area >= 6.0)
    lakes_px = [(name, unary_union(polys)) for name, polys in sorted(by_name.items()) if polys]
    return land_px, lakes_px


def clean_regions(regions: dict[str, Any], min_frag: float = 40.0) -> dict[str, Any]:
    """Give small non-island fragments to the neighbour with the longest shared edge."""
    for _round in range(3):
        moves = []
        for lab, geom in regions.items():
            ps = polygons(geom)
            if len(ps) < 2:
                continue
            main = max(ps, key=lambda p: p.area)
            for p in ps:
                if p is main or p.area >= min_frag:
                    continue
                best, blen = None, 0.0
                for other, og in regions.items():
                    if other == lab or not og.intersects(p.buffer(0.05)):
                        continue
                    ln = p.boundary.intersection(og.buffer(0.05)).length
                    if ln > blen:
                        best, blen = other, ln
                if best is not None and blen > 0.5:
                    moves.append((lab, best, p))
        if not moves:
            break
        give: dict[str, list] = {}
        take: dict[str, list] = {}
        for src, dst, p in moves:
            take.setdefault(src, []).append(p)
            give.setdefault(dst, []).append(p)
        for lab in set(give) | set(take):
            keep = [q for q in polygons(regions[lab])
                    if not any(q.equals(t) for t in take.get(lab, []))]
            regions[lab] = shapely.union_all(keep + give.get(lab, []), grid_size=0.01)
    return regions


def shared_length(a: Any, b: Any) -> float:
    if not a.buffer(0.5).intersects(b):
        return 0.0
    return a.boundary.intersection(b.buffer(0.05)).length

