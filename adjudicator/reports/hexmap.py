"""The bare board of a hex map as SVG: every hex in its terrain colour with its
printed number, and the hexside features (rivers, borders) on the shared edges.

Hex centres come from the caller (the VASSAL exporter passes its grid's own
arithmetic), so the drawing and a grid laid over it agree pixel for pixel. Reports
of hex games draw their units over this same board.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from lxml import etree

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.reports.areamap import FONT, INK, PAPER, RIVER, SVG_NS

TERRAIN_FILL = {"clear": "#f3efdc", "forest": "#b5cf9a", "woods": "#b5cf9a",
                "light-woods": "#cfe0b4", "swamp": "#a9c9c0", "marsh": "#a9c9c0",
                "mountain": "#c9b08e", "hills": "#ddc9a3", "rough": "#ddc9a3",
                "city": "#d9c8c8", "major-city": "#cfb3b3", "lake": "#c6dbe8",
                "sea": "#c6dbe8", "water": "#c6dbe8"}
UNKNOWN_TERRAIN = "#e4e2dc"
HEXSIDE_STROKE = {"river": (RIVER, 3.0), "major-river": (RIVER, 5.0), "lake": (RIVER, 5.0),
                  "all-sea": (RIVER, 5.0), "border": ("#6b3f8f", 2.5),
                  "ring": ("#b3261e", 3.0), "road": ("#6d5843", 2.0), "rail": ("#1d1d1b", 2.0)}


def corners(centre: tuple[float, float], size: float, pointy: bool) -> list[tuple[float, float]]:
    start = 30 if pointy else 0
    return [(centre[0] + size * math.cos(math.radians(start + 60 * i)),
             centre[1] + size * math.sin(math.radians(start + 60 * i))) for i in range(6)]


def _edge(a: tuple[float, float], b: tuple[float, float], size: float,
          pointy: bool) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of hex `a` that it shares with the adjacent hex `b`."""
    ring = corners(a, size, pointy)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    nearest = sorted(ring, key=lambda p: math.dist(p, mid))[:2]
    return nearest[0], nearest[1]


def draw_hex_board(board: HexBoard, centre_of: Callable[[Hex], tuple[float, float]],
                   size: float, width: int, height: int) -> str:
    """The SVG document of the bare board: hexes of `size` pixels (centre to corner)
    centred where `centre_of` says, on a `width` x `height` sheet."""
    pointy = board.grid.orientation == "pointy"
    svg = etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS}, width=str(width),
                        height=str(height), viewBox=f"0 0 {width} {height}")
    etree.SubElement(svg, f"{{{SVG_NS}}}rect", x="0", y="0", width=str(width),
                     height=str(height), fill=PAPER)
    centres = {h: centre_of(h) for h in board}
    for h, centre in centres.items():
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(centre, size, pointy))
        terrain = board.terrain[h]
        poly = etree.SubElement(svg, f"{{{SVG_NS}}}polygon", points=points,
                                fill=TERRAIN_FILL.get(terrain, UNKNOWN_TERRAIN),
                                stroke="#8a8577", **{"stroke-width": "0.8"})
        etree.SubElement(poly, f"{{{SVG_NS}}}title").text = f"{board.label(h)} {terrain}"
        label = etree.SubElement(svg, f"{{{SVG_NS}}}text", x=f"{centre[0]:.1f}",
                                 y=f"{centre[1] - size * 0.58:.1f}",
                                 **{"font-size": f"{size * 0.26:.1f}", "font-family": FONT,
                                    "text-anchor": "middle", "fill": INK})
        label.text = board.label(h)
    for side, features in sorted(board.hexsides.items()):
        for feature in sorted(features):
            if feature not in HEXSIDE_STROKE:
                continue
            colour, stroke_width = HEXSIDE_STROKE[feature]
            if feature in ("road", "rail"):  # they cross the hexside, centre to centre
                (x1, y1), (x2, y2) = centres[side.a], centres[side.b]
            else:
                (x1, y1), (x2, y2) = _edge(centres[side.a], centres[side.b], size, pointy)
            etree.SubElement(svg, f"{{{SVG_NS}}}line", x1=f"{x1:.1f}", y1=f"{y1:.1f}",
                             x2=f"{x2:.1f}", y2=f"{y2:.1f}", stroke=colour,
                             **{"stroke-width": str(stroke_width), "stroke-linecap": "round"})
    return str(etree.tostring(svg, encoding="unicode"))
