"""The bare board of a hex map as SVG: every hex in its terrain colour with its
printed number, the hexside features (rivers, borders) on the shared edges, and the
cities the module names (`<hex city="Smolensk" city-class="...">`), each a symbol with
its name; and the key to it all (`board_key`), which a report's legend and a VASSAL
board's margin show.

Hex centres come from the caller (the VASSAL exporter passes its grid's own
arithmetic), so the drawing and a grid laid over it agree pixel for pixel. Reports
of hex games draw their units over this same board.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lxml import etree

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.report import LegendItem, MapView
from adjudicator.reports.areamap import (
    COUNTER_H,
    COUNTER_W,
    FONT,
    HEADER_H,
    INK,
    LEGEND_PAD,
    LEGEND_ROW_H,
    PAPER,
    SVG_NS,
    _draw_legend,
    _halo_text,
    _legend_rows,
    draw_city_symbol,
    draw_counter,
)
from adjudicator.reports.layers import MapLayers, Part
from adjudicator.reports.style import MapStyle, style_of

# city classes drawn as a major city (a square); every other class is a dot. The
# classes are the modules' own words: a game's map data says which cities are major
MAJOR_CITY_CLASSES = frozenset({"major", "city"})


@dataclass(frozen=True)
class City:
    hex: Hex
    name: str
    kind: str  # the module's city-class ("major", "town", ...); "" if it names none

    @property
    def major(self) -> bool:
        return self.kind in MAJOR_CITY_CLASSES


@dataclass(frozen=True)
class CityLabel:
    """Where a city's name is written: centred on x, baseline y, `size` pixels high."""

    city: City
    x: float
    y: float
    size: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom), from DejaVu Sans' average advance (bold is
        wider): what the tests check for names written over each other."""
        width = (0.64 if self.city.major else 0.6) * self.size * len(self.city.name)
        return (self.x - width / 2, self.y - 0.78 * self.size, self.x + width / 2,
                self.y + 0.24 * self.size)


def cities_of(module: Any, board: HexBoard) -> list[City]:
    """The cities the module's map names, in hex order."""
    found = [City(board.hex(el.get("id")), el.get("city"), el.get("city-class") or "")
             for el in module.findall("m:map/m:hex") if el.get("city")]
    return sorted(found, key=lambda c: c.hex)


def city_labels(cities: list[City], centre_of: Callable[[Hex], tuple[float, float]],
                size: float) -> list[CityLabel]:
    """Each name under its symbol, in the lower part of the hex: the printed number is
    at the top, a counter over the centre; the band between neighbouring hexes' numbers
    and symbols is free, so names in adjacent hexes do not run into each other."""
    labels = []
    for city in cities:
        x, y = centre_of(city.hex)
        font = size * (0.33 if city.major else 0.3)
        labels.append(CityLabel(city, x, y + size * 0.62, font))
    return labels


def _draw_cities(svg: etree._Element, cities: list[City],
                 centre_of: Callable[[Hex], tuple[float, float]], size: float) -> None:
    group = etree.SubElement(svg, f"{{{SVG_NS}}}g")
    group.set("class", "cities")
    for city in cities:
        x, y = centre_of(city.hex)
        draw_city_symbol(group, x, y, size * 0.17, city.major, city.name)
    for label in city_labels(cities, centre_of, size):
        _halo_text(group, round(label.x, 1), round(label.y, 1), label.city.name,
                   size=round(label.size, 1), weight="bold" if label.city.major else "normal",
                   halo_w=max(2.0, label.size * 0.28))


def _words(name: str) -> str:
    return name.replace("-", " ").capitalize()


def board_key(board: HexBoard, cities: list[City], style: MapStyle) -> list[LegendItem]:
    """The terrain key: each terrain on the map in its colour, each hexside feature the
    board draws (both in the order of the game's style), each class of city (major
    first)."""
    order = list(style.terrain)
    terrains = sorted(set(board.terrain.values()), key=lambda t: (
        order.index(t) if t in order else len(order), t))
    items = [LegendItem("area", _words(t), fill=style.fill(t)) for t in terrains]
    features = sorted({f for fs in board.hexsides.values() for f in fs
                       if f in style.hexsides}, key=list(style.hexsides).index)
    items += [LegendItem("hexside", _words(f), stroke=style.hexsides[f][0],
                         stroke_width=style.hexsides[f][1]) for f in features]
    for minor, kind in sorted({(not c.major, c.kind) for c in cities}):
        items.append(LegendItem("city" if minor else "major-city", _city_words(kind)))
    return items


def _city_words(kind: str) -> str:
    """"major" -> "Major city", "town" -> "Town", "city" -> "City"."""
    if not kind:
        return "City"
    return _words(kind) + ("" if kind in ("city", "town") or "city" in kind else " city")


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
                   size: float, width: int, height: int, cities: list[City] | None = None,
                   key: bool = False, style: MapStyle | None = None) -> str:
    """The SVG document of the bare board: hexes of `size` pixels (centre to corner)
    centred where `centre_of` says, on a `width` x `height` sheet, with `cities`. One
    hex shape is defined once and placed per hex, and labels and hexsides share their
    styles in groups: a 1941 map is a thousand hexes, and the drawing travels in every
    report. With `key` the sheet grows by the terrain key, drawn under the board
    (`key_height` says by how much)."""
    cities, style = cities or [], style or MapStyle()
    key_rows = _legend_rows(board_key(board, cities, style), width) if key else []
    sheet = height + _legend_height(key_rows)
    svg = _bare_board(board, centre_of, size, width, sheet, style)
    _draw_cities(svg, cities, centre_of, size)
    if key_rows:
        _draw_legend(svg, key_rows, height, width)
    return str(etree.tostring(svg, encoding="unicode"))


def _legend_height(rows: list[list[LegendItem]]) -> int:
    return len(rows) * LEGEND_ROW_H + 2 * LEGEND_PAD - 8 if rows else 0


def key_height(board: HexBoard, cities: list[City], width: int, style: MapStyle) -> int:
    """How much taller than the board `draw_hex_board(..., key=True)` draws the sheet."""
    return _legend_height(_legend_rows(board_key(board, cities, style), width))


def _bare_board(board: HexBoard, centre_of: Callable[[Hex], tuple[float, float]],
                size: float, width: int, height: int, style: MapStyle) -> etree._Element:
    pointy = board.grid.orientation == "pointy"
    svg = etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS}, width=str(width),
                        height=str(height), viewBox=f"0 0 {width} {height}")
    etree.SubElement(svg, f"{{{SVG_NS}}}rect", x="0", y="0", width=str(width),
                     height=str(height), fill=PAPER)
    defs = etree.SubElement(svg, f"{{{SVG_NS}}}defs")
    etree.SubElement(defs, f"{{{SVG_NS}}}polygon", id="pbem-hex", points=" ".join(
        f"{x:.1f},{y:.1f}" for x, y in corners((0.0, 0.0), size, pointy)),
        stroke="#8a8577", **{"stroke-width": "0.8"})
    centres = {h: centre_of(h) for h in board}
    cells = etree.SubElement(svg, f"{{{SVG_NS}}}g")
    labels = etree.SubElement(svg, f"{{{SVG_NS}}}g", fill=INK, **{
        "font-size": f"{size * 0.26:.1f}", "font-family": FONT, "text-anchor": "middle"})
    for h, (x, y) in centres.items():
        terrain = board.terrain[h]
        cell = etree.SubElement(cells, f"{{{SVG_NS}}}use", x=f"{x:.1f}", y=f"{y:.1f}",
                                fill=style.fill(terrain))
        cell.set("href", "#pbem-hex")
        etree.SubElement(cell, f"{{{SVG_NS}}}title").text = f"{board.label(h)} {terrain}"
        etree.SubElement(labels, f"{{{SVG_NS}}}text", x=f"{x:.1f}",
                         y=f"{y - size * 0.58:.1f}").text = board.label(h)
    strokes: dict[str, Any] = {}
    for side, features in sorted(board.hexsides.items()):
        for feature in sorted(features):
            if feature not in style.hexsides:
                continue
            if feature not in strokes:
                colour, stroke_width = style.hexsides[feature]
                strokes[feature] = etree.SubElement(svg, f"{{{SVG_NS}}}g", stroke=colour, **{
                    "stroke-width": str(stroke_width), "stroke-linecap": "round"})
            if feature in ("road", "rail"):  # they cross the hexside, centre to centre
                (x1, y1), (x2, y2) = centres[side.a], centres[side.b]
            else:
                (x1, y1), (x2, y2) = _edge(centres[side.a], centres[side.b], size, pointy)
            etree.SubElement(strokes[feature], f"{{{SVG_NS}}}line", x1=f"{x1:.1f}",
                             y1=f"{y1:.1f}", x2=f"{x2:.1f}", y2=f"{y2:.1f}")
    return svg


# -- the report's hex map: the board, who holds each hex, the counters ------------------

REPORT_HEX_SIZE = 21.0
REPORT_MARGIN = 12


def report_layout(board: HexBoard, size: float = REPORT_HEX_SIZE
                  ) -> tuple[Callable[[Hex], tuple[float, float]], int, int]:
    """Hex centres for a report: printed columns (or rows, pointy) in order, the
    shifted ones half a hex along; the sheet that holds them."""
    pointy = board.grid.orientation == "pointy"
    offsets = {h: board.grid.to_offset(h) for h in board}
    lines = [(row, col) if pointy else (col, row) for col, row in offsets.values()]
    first_line = min(line for line, _ in lines)
    first_pos = min(pos for _, pos in lines)
    across, along = 1.5 * size, math.sqrt(3) * size
    lower = 0 if board.grid.shifted == "even" else 1

    def centre(h: Hex) -> tuple[float, float]:
        col, row = offsets[h]
        line, pos = (row, col) if pointy else (col, row)
        a = REPORT_MARGIN + size + across * (line - first_line)
        b = REPORT_MARGIN + along / 2 + along * (pos - first_pos + (0.5 if line % 2 == lower
                                                                    else 0.0))
        return (b, a) if pointy else (a, b)

    xs = [centre(h)[0] for h in board]
    ys = [centre(h)[1] for h in board]
    return centre, math.ceil(max(xs) + size + REPORT_MARGIN), \
        math.ceil(max(ys) + along + REPORT_MARGIN)


@dataclass(frozen=True)
class ReportBoard:
    """The part of a hex game's report map that is the same in every report: the board
    with its cities, laid out for reports, as SVG markup (the children of its group)."""

    centre: Callable[[Hex], tuple[float, float]]
    width: int
    height: int
    markup: str
    key: tuple[LegendItem, ...]


_BOARDS: dict[str, ReportBoard] = {}


def report_board(module: Any) -> ReportBoard:
    """The report board of a module, drawn once per module."""
    if module.sha256 not in _BOARDS:
        board = module.hex_board()
        centre, width, height = report_layout(board)
        cities, style = cities_of(module, board), style_of(module.game)
        bare = draw_hex_board(board, centre, REPORT_HEX_SIZE, width, height, cities,
                              style=style)
        markup = bare[bare.index(">") + 1:bare.rindex("</svg>")]  # the sheet's children
        _BOARDS[module.sha256] = ReportBoard(centre, width, height, markup,
                                             tuple(board_key(board, cities, style)))
    return _BOARDS[module.sha256]


BOARD_SLOT = '<g class="board"/>'


def draw_hex_map(module: Any, view: MapView) -> str:
    """The report's map of a hex game (`hex_map_layers`)."""
    return hex_map_layers(module, view).svg


def hex_map_layers(module: Any, view: MapView) -> MapLayers:
    """The report's map of a hex game, its static board a layer of its own (layers.py):
    title, the board with each hex tinted by who
    holds it where that differs from the start (`view.area_fill`), the stacks of
    counters (`view.counters`, by hex label: the top counter, and how many are under
    it), the legend and the board's key (`board_key`)."""
    plate = report_board(module)
    board = module.hex_board()
    centre, width, height = plate.centre, plate.width, plate.height
    legend_rows = _legend_rows([*view.legend, *plate.key], width)
    legend_h = _legend_height(legend_rows)
    total = HEADER_H + height + legend_h
    svg = etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS}, width=str(width),
                        height=str(total), viewBox=f"0 0 {width} {total}", role="img")
    svg.set("class", "hex-map")
    etree.SubElement(svg, f"{{{SVG_NS}}}title").text = f"{view.title}. {view.subtitle}"
    etree.SubElement(svg, f"{{{SVG_NS}}}rect", x="0", y="0", width=str(width),
                     height=str(HEADER_H), fill=PAPER)
    for text, y, size, weight in ((view.title, 27, "21", "bold"),
                                  (view.subtitle, 47, "13", "normal")):
        t = etree.SubElement(svg, f"{{{SVG_NS}}}text", x="16", y=str(y), fill=INK,
                             **{"font-size": size, "font-weight": weight,
                                "font-family": FONT})
        t.text = text
    group = etree.SubElement(svg, f"{{{SVG_NS}}}g", transform=f"translate(0,{HEADER_H})")
    static = etree.SubElement(group, f"{{{SVG_NS}}}g")
    static.set("class", "board")  # the same in every report of the game: drawn once
    tint = etree.SubElement(group, f"{{{SVG_NS}}}g", opacity="0.45")
    pointy = board.grid.orientation == "pointy"
    for label, fill in sorted(view.area_fill.items()):
        h = board.hex(label)
        points = " ".join(f"{x:.1f},{y:.1f}"
                          for x, y in corners(centre(h), REPORT_HEX_SIZE * 0.92, pointy))
        etree.SubElement(tint, f"{{{SVG_NS}}}polygon", points=points, fill=fill)
    hints = etree.SubElement(group, f"{{{SVG_NS}}}g", fill="none")
    hints.set("class", "zoc")
    for label, colours in sorted(view.zoc.items()):
        h = board.hex(label)
        for i, colour in enumerate(colours):  # one dashed rim per side, nested
            size = REPORT_HEX_SIZE * (0.78 - 0.14 * i)
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners(centre(h), size, pointy))
            etree.SubElement(hints, f"{{{SVG_NS}}}polygon", points=points, stroke=colour,
                             **{"stroke-width": "2", "stroke-dasharray": "4 3"})
    units = etree.SubElement(group, f"{{{SVG_NS}}}g")
    units.set("class", "units")
    for label, counters in sorted(view.counters.items()):
        x, y = centre(board.hex(label))
        top = counters[-1]
        draw_counter(units, top, x - COUNTER_W / 2, y - COUNTER_H / 2 + 3)
        if len(counters) > 1:
            badge = etree.SubElement(units, f"{{{SVG_NS}}}text", x=f"{x + COUNTER_W / 2:.1f}",
                                     y=f"{y - COUNTER_H / 2 + 4:.1f}", fill=INK,
                                     **{"font-size": "10", "font-weight": "bold",
                                        "font-family": FONT, "text-anchor": "end"})
            badge.text = f"+{len(counters) - 1}"
            etree.SubElement(badge, f"{{{SVG_NS}}}title").text = ", ".join(
                c.title for c in counters)
    if legend_rows:
        _draw_legend(svg, legend_rows, HEADER_H + height, width)
    overlay = str(etree.tostring(svg, encoding="unicode"))
    if BOARD_SLOT not in overlay:
        raise AssertionError("the board's place is missing from the report map")
    drawing = overlay.replace(BOARD_SLOT, f'<g class="board">{plate.markup}</g>', 1)
    sheet = (f'<svg xmlns="{SVG_NS}" width="{width}" height="{total}" '
             f'viewBox="0 0 {width} {total}"><g transform="translate(0,{HEADER_H})">'
             f"{plate.markup}</g></svg>")
    return MapLayers(drawing, (Part(sheet, static=True), Part(overlay)))
