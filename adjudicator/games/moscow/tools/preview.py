"""A preview of the generated Moscow '41 map (a development aid): the hexes in their
terrain and side, the real rivers and lakes under them, the hexside features."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.mapgen.frame import SQ3, Point
from adjudicator.mapgen.geojson import load_features
from adjudicator.mapgen.routing import Side

from .geography import COLUMNS, FRAME, ROWS, to_frame

if TYPE_CHECKING:
    from .gen_map import MapData

# ---- preview -------------------------------------------------------------------------------
COLORS = {"clear": "#efe8c8", "light-woods": "#c2dca8", "woods": "#7fb565", "marsh": "#a8cdc8"}
PX = 30.0


def preview_svg(m: MapData) -> str:
    from .gen_map import LAKES_FILE, RIVERS_FILE

    w = (COLUMNS[-1] * SQ3 / 2 + 1.2) * PX
    hgt = (ROWS[-1] + 1.6) * PX

    def xy(p: Point) -> str:
        return f"{p[0] * PX:.1f},{p[1] * PX:.1f}"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{hgt:.0f}" '
           f'font-family="DejaVu Sans">', f'<rect width="{w:.0f}" height="{hgt:.0f}" fill="#fff"/>']
    for h in m.hexes.values():
        pts = " ".join(xy(p) for p in FRAME.corners(h.col, h.row))
        out.append(f'<polygon points="{pts}" fill="{COLORS[h.terrain]}" stroke="#999" '
                   f'stroke-width="0.5"/>')
        if h.side == "german":
            out.append(f'<polygon points="{pts}" fill="#555" fill-opacity="0.15"/>')
        if h.front:
            out.append(f'<polygon points="{pts}" fill="#f2c500" fill-opacity="0.25"/>')
    for geom in (f["geometry"]["coordinates"] for f in load_features(RIVERS_FILE)):
        for ln in geom:
            d = " ".join(xy(to_frame(*p)) for p in ln)
            out.append(f'<polyline points="{d}" fill="none" stroke="#48f" stroke-width="0.6" '
                       f'stroke-opacity="0.7"/>')
    for f in load_features(LAKES_FILE):
        for poly in f["geometry"]["coordinates"]:
            d = " ".join(xy(to_frame(*p)) for p in poly[0])
            out.append(f'<polygon points="{d}" fill="#9cc3e6" stroke="none" opacity="0.8"/>')

    def side_line(sd: Side, color: str, width: float, dash: str = "") -> None:
        (x1, y1), (x2, y2) = FRAME.hexside_segment(*sd)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="{x1 * PX:.1f}" y1="{y1 * PX:.1f}" x2="{x2 * PX:.1f}" '
                   f'y2="{y2 * PX:.1f}" stroke="{color}" stroke-width="{width}"{extra} '
                   f'stroke-linecap="round"/>')

    for sd in m.fronts:
        side_line(sd, "#e0b000", 4.0)
    for sd in m.rivers:
        side_line(sd, "#1f5fd0", 2.4)
    for sd in m.lakes:
        side_line(sd, "#0a3d91", 4.0, "2,2")
    for sd in m.ring:
        side_line(sd, "#c00", 3.0, "5,3")
    for a, b in m.roads:
        (x1, y1), (x2, y2) = FRAME.centre_of(a), FRAME.centre_of(b)
        out.append(f'<line x1="{x1 * PX:.1f}" y1="{y1 * PX:.1f}" x2="{x2 * PX:.1f}" '
                   f'y2="{y2 * PX:.1f}" stroke="#8a2b0e" stroke-width="1.6"/>')
    for h in m.hexes.values():
        cx, cy = FRAME.centre(h.col, h.row)
        out.append(f'<text x="{cx * PX:.1f}" y="{(cy - 0.3) * PX:.1f}" font-size="6" '
                   f'text-anchor="middle" fill="#555">{h.id}</text>')
        if h.entry:
            out.append(f'<circle cx="{cx * PX:.1f}" cy="{cy * PX:.1f}" r="6" fill="none" '
                       f'stroke="#e00" stroke-width="2"/>')
        if h.city:
            big = h.city_class == "city"
            out.append(f'<circle cx="{cx * PX:.1f}" cy="{cy * PX:.1f}" r="{4 if big else 2.4}" '
                       f'fill="{"#b00" if big else "#000"}"/>')
            out.append(f'<text x="{cx * PX:.1f}" y="{(cy + 0.36) * PX:.1f}" '
                       f'font-size="{8 if big else 6.5}" text-anchor="middle">{h.city}</text>')
    out.append("</svg>")
    return "\n".join(out)
