"""A report map as layers for its PNG (issue 13): what is the same in every report of a
game is rasterized once per process and only what changes is drawn over it.

The SVG stays one drawing (inline in the HTML, map.svg); the PNG is built from it, bottom
to top: static parts (a hex game's board; an area map's backdrop, and its borders,
rivers and seas), an area map's fills from an index image (each area's pixels hold its
number; a palette gives each its colour in this report, so a control change costs no
drawing), its front line and its area names (kept drawn: they change only when the
front moves), and the live rest (counters, title, legend) drawn per report. The layers
split the drawing by its groups' classes, so the order of what is drawn over what
changes only where an area map's PNG draws its front line above its sea-area marks and
its cities above the area names instead of below them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from lxml import etree

from adjudicator.reports.areamap import SVG_NS

NS = f"{{{SVG_NS}}}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
# an area map's groups (areamap.draw_area_map), by the layer of the PNG they go in
AREA_BOTTOM = frozenset({"backdrop"})
AREA_TOP = frozenset({"start-side", "area-borders", "rivers", "seas"})
AREA_FILLS = "area-fills"
# the same from one report to the next as long as the front does not move: kept drawn
AREA_FRONT, AREA_LABELS = "front-line", "area-labels"
AREA_KEPT = AREA_BOTTOM | AREA_TOP | {AREA_FILLS, AREA_FRONT, AREA_LABELS}
MAX_INDEXED_AREAS = 255  # an index image holds area numbers 1-255 in one channel


@dataclass(frozen=True)
class Part:
    """One layer: its SVG on the whole sheet; `static`: the same in many reports (kept
    rasterized); `colours`: an index image, whose pixel value i (1...) takes colours[i-1]
    and 0 nothing."""

    svg: str
    static: bool = False
    colours: tuple[str, ...] | None = None


@dataclass(frozen=True)
class MapLayers:
    svg: str  # the whole drawing
    parts: tuple[Part, ...]  # the PNG's layers, bottom first


def whole(svg: str) -> MapLayers:
    """A drawing rasterized as it is."""
    return MapLayers(svg, (Part(svg),))


def area_layers(svg: str) -> MapLayers:
    """An area map's drawing as layers (the whole drawing if it is not the shape
    `areamap.draw_area_map` draws)."""
    root = etree.fromstring(svg.encode("utf-8"))
    inner = root.find(f"{NS}g[@class='board']/{NS}g")
    defs = root.find(f"{NS}defs")
    fills = inner.find(f"{NS}g[@class='{AREA_FILLS}']") if inner is not None else None
    if inner is None or defs is None or fills is None or len(fills) > MAX_INDEXED_AREAS:
        return whole(svg)
    bottom = _keep(root, lambda el: el.get("class") in AREA_BOTTOM or _is_water(el))
    top = _keep(root, lambda el: el.get("class") in AREA_TOP)
    front = _keep(root, lambda el: el.get("class") == AREA_FRONT)
    labels = _keep(root, lambda el: el.get("class") == AREA_LABELS)
    live = _keep(root, lambda el: el.get("class") not in AREA_KEPT and not _is_water(el),
                 chrome=True)
    index = _keep(root, lambda el: el.get("class") == AREA_FILLS)
    colours = []
    group = index.find(f"{NS}g[@class='board']/{NS}g/{NS}g[@class='{AREA_FILLS}']")
    for number, use in enumerate(group, start=1):
        colours.append(use.get("fill") or "#ffffff")
        use.set("fill", f"#{number:02x}0000")
    group.set("shape-rendering", "crispEdges")  # whole pixels: no blend of two numbers
    return MapLayers(svg, (Part(_text(bottom), static=True),
                           Part(_text(index), static=True, colours=tuple(colours)),
                           Part(_text(top), static=True), Part(_text(front), static=True),
                           Part(_text(labels), static=True), Part(_text(live))))


def _is_water(el: etree._Element) -> bool:
    """The board's sea background, the first thing drawn on it."""
    return el.tag == f"{NS}rect" and el.getparent() is not None \
        and el.getparent().index(el) == 0


def _keep(root: etree._Element, wanted: object, chrome: bool = False) -> etree._Element:
    """A copy of the drawing with only the board's wanted groups (and, with `chrome`,
    what is drawn outside the board: title, legend, the board's frame)."""
    copied = copy.deepcopy(root)
    board = copied.find(f"{NS}g[@class='board']")
    inner = board.find(f"{NS}g")
    for el in list(inner):
        if not wanted(el):  # type: ignore[operator]
            inner.remove(el)
    if not chrome:  # not even the title, which names the step: the layer is kept drawn
        for el in list(copied):
            if el.tag != f"{NS}defs" and el is not board:
                copied.remove(el)
        for el in list(board):
            if el is not inner:
                board.remove(el)
    return copied


def _text(root: etree._Element) -> str:
    return str(etree.tostring(root, encoding="unicode"))
