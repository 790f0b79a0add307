"""map.xml of the Barbarossa Solitaire map: the areas as SVG paths (exteriors clockwise
on screen, holes counter-clockwise, to a tenth of a pixel), their adjacencies, the sea
areas with their members' markers, and the backdrop (lakes, neutral land, rivers, city
dots)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import shapely
from lxml import etree
from shapely.geometry import LineString

from adjudicator.mapgen.shapes import polygons

from .geography import AREAS, HEIGHT, NEUTRALS, PROJECTION_TEXT, WIDTH

NS = "urn:pbem:module:1"
# The files this tool writes name it by its former path: map.xml is part of module
# 1.0.0, whose bytes the journals name, and the geodata credit is in the 1941 map's too.
WRITTEN_BY = "tools/gen_solitaire_map.py"


def ring_path(coords: Any, reverse: bool) -> str:
    pts = [(round(x, 1), round(y, 1)) for x, y in coords]
    if reverse:
        pts.reverse()
    dedup = []
    for p in pts:
        if not dedup or p != dedup[-1]:
            dedup.append(p)
    if len(dedup) > 1 and dedup[0] == dedup[-1]:
        dedup.pop()
    if len(dedup) < 3:
        return ""
    first = dedup[0]
    rest = " ".join(f"{fmt(x)} {fmt(y)}" for x, y in dedup[1:])
    return f"M{fmt(first[0])} {fmt(first[1])} L{rest} Z"


def fmt(v: float) -> str:
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def geom_path(geom: Any, min_area: float = 0.0) -> str:
    """SVG path; exteriors clockwise on screen, holes counter-clockwise (nonzero-safe)."""
    subs = []
    for p in polygons(geom):
        if p.area < min_area:
            continue
        p = shapely.geometry.polygon.orient(p, sign=-1.0)  # y-down: CW on screen
        subs.append(ring_path(p.exterior.coords, False))
        for hole in p.interiors:
            subs.append(ring_path(hole.coords, False))
    return " ".join(s for s in subs if s)


def line_path(geom: Any) -> str:
    subs = []
    lines = [geom] if isinstance(geom, LineString) else list(getattr(geom, "geoms", []))
    for ln in lines:
        if not isinstance(ln, LineString) or ln.length < 4:
            continue
        pts = []
        for x, y in ln.coords:
            p = (round(x, 1), round(y, 1))
            if not pts or p != pts[-1]:
                pts.append(p)
        if len(pts) < 2:
            continue
        subs.append(f"M{fmt(pts[0][0])} {fmt(pts[0][1])} L"
                    + " ".join(f"{fmt(x)} {fmt(y)}" for x, y in pts[1:]))
    return " ".join(subs)


def count_points(geom: Any) -> int:
    n = 0
    for p in polygons(geom):
        n += len(p.exterior.coords) - 1 + sum(len(h.coords) - 1 for h in p.interiors)
    return n



def write_xml(res: dict[str, Any], path: Path) -> None:
    path.write_text(render(res), encoding="utf-8")


def render(res: dict[str, Any]) -> str:
    """The map.xml of a generated map, as committed."""
    E = etree.Element
    root = E(f"{{{NS}}}map", nsmap={None: NS})
    root.set("kind", "areas")
    root.set("width", str(WIDTH))
    root.set("height", str(HEIGHT))
    root.set("source", "reconstructed")
    root.set("projection", PROJECTION_TEXT)
    regions = res["regions"]
    for aid in sorted(AREAS):
        a = AREAS[aid]
        el = etree.SubElement(root, f"{{{NS}}}area")
        el.set("id", aid)
        el.set("name", a["name"])
        el.set("start-side", a["side"])
        el.set("romanian-allowed", "true" if a["rom"] else "false")
        lx, ly = res["labels"][aid]
        el.set("label-x", fmt(round(lx, 1)))
        el.set("label-y", fmt(round(ly, 1)))
        el.set("source", "reconstructed")
        sh = etree.SubElement(el, f"{{{NS}}}shape")
        sh.set("d", geom_path(regions[aid]))
    for (a, b), src in sorted(res["adj"].items()):
        el = etree.SubElement(root, f"{{{NS}}}adjacent")
        el.set("a", a)
        el.set("b", b)
        el.set("source", src)
    for sea, (lx, ly), members in res["seas"]:
        el = etree.SubElement(root, f"{{{NS}}}sea")
        el.set("id", sea["id"])
        el.set("name", sea["name"])
        el.set("source", sea["source"])
        el.set("label-x", fmt(round(lx, 1)))
        el.set("label-y", fmt(round(ly, 1)))
        for aid, mx, my in members:
            m = etree.SubElement(el, f"{{{NS}}}member")
            m.set("area", aid)
            m.set("x", fmt(round(mx, 1)))
            m.set("y", fmt(round(my, 1)))
    bd = etree.SubElement(root, f"{{{NS}}}backdrop")
    for name, g in res["lakes"]:
        el = etree.SubElement(bd, f"{{{NS}}}water")
        el.set("name", name)
        el.set("d", geom_path(g))
    for nid in sorted(res["neutrals"], key=lambda n: NEUTRALS[n]["name"]):
        el = etree.SubElement(bd, f"{{{NS}}}neutral")
        el.set("name", NEUTRALS[nid]["name"])
        el.set("d", geom_path(res["neutrals"][nid], min_area=8.0))
    for name, g in sorted(res["rivers"], key=lambda r: r[0]):
        d = line_path(g)
        if d:
            el = etree.SubElement(bd, f"{{{NS}}}river")
            el.set("name", name)
            el.set("d", d)
    for disp, _aid, (x, y) in sorted(res["cities"]):
        el = etree.SubElement(bd, f"{{{NS}}}city")
        el.set("name", disp)
        el.set("x", fmt(round(x, 1)))
        el.set("y", fmt(round(y, 1)))
    comment = etree.Comment(
        f" Generated by {WRITTEN_BY} from Natural Earth data (public domain)."
        " Do not edit by hand. ")
    body = etree.tostring(root, pretty_print=True, encoding="unicode")
    return ('<?xml version="1.0" encoding="utf-8"?>\n'
            + etree.tostring(comment, encoding="unicode") + "\n" + body)

