"""A preview of the generated 1941: Operation Barbarossa map (a development aid): the
hexes in their terrain, the real coast and rivers under them, the hexside features."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.mapgen.frame import SQ3

from .geography import COLUMNS, FRAME, ROWS
from .hexsides import hexside_segment

if TYPE_CHECKING:
    from .gen_map import MapData

COLORS = {"clear": "#efe8c8", "forest": "#8fbf77", "swamp": "#a8cdb8", "rough": "#c4a27a",
          "sea": "#9cc3e6", "lake": "#b5d9f0"}
COUNTRY_TINT = {"finland": "#ffffff", "germany": "#555555", "slovakia": "#777777",
                "hungary": "#9a6f3a", "romania": "#c9a100", "soviet": None}
PX = 34.0  # pixels per hex width (--scale changes it)


def preview_svg(m: MapData) -> str:
    w = (COLUMNS[-1] * SQ3 / 2 + 1.2) * PX
    hgt = (ROWS[-1] + 1.6) * PX

    def xy(x, y):
        return f"{x * PX:.1f},{y * PX:.1f}"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{hgt:.0f}" '
           f'font-family="DejaVu Sans">', f'<rect width="{w:.0f}" height="{hgt:.0f}" fill="#fff"/>']
    for h in m.hexes.values():
        poly = FRAME.polygon(h.col, h.row)
        pts = " ".join(xy(x, y) for x, y in list(poly.exterior.coords)[:-1])
        out.append(f'<polygon points="{pts}" fill="{COLORS[h.terrain]}" stroke="#999" '
                   f'stroke-width="0.5"/>')
        tint = COUNTRY_TINT.get(h.country)
        if tint:
            out.append(f'<polygon points="{pts}" fill="{tint}" fill-opacity="0.18"/>')
        if h.terrain == "swamp":
            cx, cy = FRAME.centre(h.col, h.row)
            for dy in (-0.15, 0, 0.15):
                out.append(f'<line x1="{(cx - 0.2) * PX:.1f}" y1="{(cy + dy) * PX:.1f}" '
                           f'x2="{(cx + 0.2) * PX:.1f}" y2="{(cy + dy) * PX:.1f}" '
                           f'stroke="#3b7a60" stroke-width="1"/>')
    # the real coast and rivers, thin, to check the hexes against
    for g in [m.geo.land]:
        for poly in getattr(g, "geoms", [g]):
            if poly.geom_type != "Polygon":
                continue
            for ring in [poly.exterior, *poly.interiors]:
                d = " ".join(xy(x, y) for x, y in ring.coords)
                out.append(f'<polyline points="{d}" fill="none" stroke="#345" '
                           f'stroke-width="0.6" stroke-opacity="0.6"/>')
    for geom in m.geo.rivers.values():
        for ln in getattr(geom, "geoms", [geom]):
            d = " ".join(xy(x, y) for x, y in ln.coords)
            out.append(f'<polyline points="{d}" fill="none" stroke="#48f" stroke-width="0.6" '
                       f'stroke-opacity="0.6"/>')

    def side_line(sd, color, width, dash=""):
        (x1, y1), (x2, y2) = hexside_segment(*sd).coords
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{x1 * PX:.1f}" y1="{y1 * PX:.1f}" x2="{x2 * PX:.1f}" '
                   f'y2="{y2 * PX:.1f}" stroke="{color}" stroke-width="{width}"{extra} '
                   f'stroke-linecap="round"/>')

    for sd in m.borders:
        side_line(sd, "#c0137a", 3.2, "6,3")
    for sd in m.rivers:
        side_line(sd, "#1f5fd0", 2.6)
    for sd in m.canals:
        side_line(sd, "#0bb", 2.6, "3,2")
    for sd in m.waters:
        side_line(sd, "#0a3d91", 4.0, "2,2")
    for a, b in m.rails:
        (x1, y1), (x2, y2) = FRAME.centre_of(a), FRAME.centre_of(b)
        out.append(f'<line x1="{x1 * PX:.1f}" y1="{y1 * PX:.1f}" x2="{x2 * PX:.1f}" '
                   f'y2="{y2 * PX:.1f}" stroke="#222" stroke-width="1.6"/>')
    for h in m.hexes.values():
        cx, cy = FRAME.centre(h.col, h.row)
        out.append(f'<text x="{cx * PX:.1f}" y="{(cy - 0.3) * PX:.1f}" font-size="6.5" '
                   f'text-anchor="middle" fill="#555">{h.id}</text>')
        if h.rail_exit:
            out.append(f'<circle cx="{cx * PX:.1f}" cy="{cy * PX:.1f}" r="5" fill="none" '
                       f'stroke="#e00" stroke-width="2"/>')
        if h.fortification:
            out.append(f'<rect x="{(cx - 0.2) * PX:.1f}" y="{(cy - 0.2) * PX:.1f}" '
                       f'width="{0.4 * PX:.1f}" height="{0.4 * PX:.1f}" fill="none" '
                       f'stroke="#900" stroke-width="2"/>')
        if h.city:
            major = h.city_class == "major"
            r = 4.2 if major else 2.6
            out.append(f'<circle cx="{cx * PX:.1f}" cy="{cy * PX:.1f}" r="{r}" '
                       f'fill="{"#b00" if major else "#000"}"/>')
            out.append(f'<text x="{cx * PX:.1f}" y="{(cy + 0.38) * PX:.1f}" '
                       f'font-size="{8.5 if major else 7}" text-anchor="middle" '
                       f'font-weight="{"bold" if major else "normal"}">{h.city}</text>')
    out.append("</svg>")
    return "\n".join(out)

