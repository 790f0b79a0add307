"""The area map after a step, as SVG: the one drawing code path (docs/architecture.md, Reports).

Geometry comes from the module's `<map kind="areas">` (area shapes, label points,
adjacencies, sea areas, backdrop); what to colour and which counters to place
comes from a `MapView` that the game's reporter builds from the projected state.
The PNG is cairosvg's rasterization of exactly this SVG string.

The SVG is built with lxml, so every name from the module or the state is escaped.
Each area's outline is one `<path>` (in `<defs>`); fills, the start-side rim and the
front line are `<use>`s of it, the rim and front clipped to the area's inside.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from adjudicator.engine.module import ModuleData
from adjudicator.engine.report import Counter, LegendItem, MapView

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
M = "{urn:pbem:module:1}"
HREF = f"{{{XLINK_NS}}}href"

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
HEADER_H = 58
LEGEND_ROW_H = 34
LEGEND_PAD = 12
COUNTER_W = 30
COUNTER_H = 28
COUNTER_GAP = 3
COUNTERS_PER_ROW = 4
MARKER_SIZE = 18

WATER = "#c6dbe8"
NEUTRAL = "#ece7da"
NEUTRAL_EDGE = "#c2bba9"
RIVER = "#5f9cc2"
BORDER = "#6e6e68"
FRONT = "#b3261e"
PAPER = "#fbfaf6"
INK = "#1d1d1b"
SEA_COLOURS = ("#1f6fb2", "#12a3a3", "#7b3fa0", "#d4731c", "#3a8f3a", "#b8327a")


@dataclass(frozen=True)
class AreaShape:
    id: str
    name: str
    start_side: str
    d: str
    label: tuple[float, float]


@dataclass(frozen=True)
class SeaShape:
    id: str
    name: str
    label: tuple[float, float] | None
    members: list[tuple[str, float, float]]


@dataclass
class MapGeometry:
    """The drawable part of an area map, read from the module."""

    width: float
    height: float
    areas: list[AreaShape]
    adjacent: list[tuple[str, str]]
    seas: list[SeaShape]
    water: list[str] = field(default_factory=list)
    neutrals: list[tuple[str, str, tuple[float, float] | None]] = field(default_factory=list)
    rivers: list[tuple[str, str]] = field(default_factory=list)
    cities: list[tuple[str, float, float]] = field(default_factory=list)

    def neighbours(self, area: str) -> list[str]:
        return sorted({b for a, b in self.adjacent if a == area}
                      | {a for a, b in self.adjacent if b == area})


def _num(value: str | None, default: float = 0.0) -> float:
    try:
        return float(value) if value is not None else default
    except ValueError:
        return default


def _point(el: Any, x: str = "label-x", y: str = "label-y") -> tuple[float, float] | None:
    if el.get(x) is None or el.get(y) is None:
        return None
    return _num(el.get(x)), _num(el.get(y))


def map_geometry(module: Any) -> MapGeometry:
    """Read the `<map>` of a module (anything with ModuleData's `find`/`findall`)."""
    root = module.find("m:map")
    areas = []
    for a in module.findall("m:map/m:area"):
        d = " ".join(s.get("d", "") for s in a.findall(f"{M}shape"))
        areas.append(AreaShape(a.get("id"), a.get("name") or a.get("id"),
                               a.get("start-side", ""), d,
                               _point(a) or (0.0, 0.0)))
    adjacent = [(e.get("a"), e.get("b")) for e in module.findall("m:map/m:adjacent")]
    seas = [
        SeaShape(s.get("id"), s.get("name") or s.get("id"), _point(s),
                 [(m.get("area"), _num(m.get("x")), _num(m.get("y")))
                  for m in s.findall(f"{M}member")])
        for s in module.findall("m:map/m:sea")
    ]
    geo = MapGeometry(_num(root.get("width"), 1000.0), _num(root.get("height"), 800.0),
                      areas, adjacent, seas)
    for backdrop in module.findall("m:map/m:backdrop"):
        for el in backdrop:
            if not isinstance(el.tag, str):
                continue
            tag = etree.QName(el).localname
            if tag == "water":
                geo.water.append(el.get("d", ""))
            elif tag == "neutral":
                geo.neutrals.append((el.get("name", ""), el.get("d", ""), _point(el)))
            elif tag == "river":
                geo.rivers.append((el.get("name", ""), el.get("d", "")))
            elif tag == "city":
                geo.cities.append((el.get("name", ""), _num(el.get("x")), _num(el.get("y"))))
    return geo


# -- small SVG helpers -------------------------------------------------------------------


def _el(parent: etree._Element, tag: str, text: str | None = None, **attrs: Any) -> Any:
    el = etree.SubElement(parent, f"{{{SVG_NS}}}{tag}")
    for key, value in attrs.items():
        if value is None:
            continue
        name = HREF if key == "href" else key.rstrip("_").replace("_", "-")
        el.set(name, _fmt(value) if isinstance(value, float | int) else str(value))
    if text is not None:
        el.text = text
    return el


def _fmt(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _safe_id(prefix: str, raw: str) -> str:
    return prefix + re.sub(r"[^A-Za-z0-9_-]", "_", raw)


def _halo_text(parent: etree._Element, x: float, y: float, text: str, *, size: float,
               weight: str = "normal", fill: str = INK, anchor: str = "middle",
               style: str = "normal", halo: str = "#ffffff", halo_w: float = 3.0) -> None:
    """Text with a light halo so it reads over borders (drawn twice: cairosvg ignores
    paint-order)."""
    common = dict(x=x, y=y, font_size=size, font_weight=weight, text_anchor=anchor,
                  font_style=style, font_family=FONT)
    _el(parent, "text", text, **common, fill="none", stroke=halo, stroke_width=halo_w,
        stroke_linejoin="round", stroke_opacity=0.85)
    _el(parent, "text", text, **common, fill=fill)


def draw_counter(parent: etree._Element, counter: Counter, x: float, y: float) -> None:
    """A counter with its top-left corner at (x, y): a coloured band with the formation
    and the number below it; a marker is a small square with one letter."""
    g = _el(parent, "g", class_="marker" if counter.marker else "counter")
    _el(g, "title", counter.title)
    if counter.marker:
        s = MARKER_SIZE
        _el(g, "rect", x=x, y=y, width=s, height=s, rx=3, fill=counter.fill, stroke=INK,
            stroke_width=1)
        _el(g, "text", counter.text, x=x + s / 2, y=y + s / 2 + 4.5, font_size=12,
            font_weight="bold", text_anchor="middle", font_family=FONT, fill=counter.ink)
        return
    w, h, band = COUNTER_W, COUNTER_H, 10
    _el(g, "rect", x=x + 1.5, y=y + 1.5, width=w, height=h, rx=2.5, fill="#000000",
        fill_opacity=0.28)
    _el(g, "rect", x=x, y=y, width=w, height=h, rx=2.5, fill=counter.fill, stroke=INK,
        stroke_width=0.9)
    if counter.band:
        _el(g, "path", d=f"M{_fmt(x + 0.45)},{_fmt(y + band)} V{_fmt(y + 2.5)} "
            f"Q{_fmt(x + 0.45)},{_fmt(y + 0.45)} {_fmt(x + 2.5)},{_fmt(y + 0.45)} "
            f"H{_fmt(x + w - 2.5)} Q{_fmt(x + w - 0.45)},{_fmt(y + 0.45)} "
            f"{_fmt(x + w - 0.45)},{_fmt(y + 2.5)} V{_fmt(y + band)} Z",
            fill=counter.band_fill)
        _el(g, "text", counter.band, x=x + w / 2, y=y + band - 2.2, font_size=7.2,
            font_weight="bold", text_anchor="middle", font_family=FONT, fill="#ffffff")
    size = 13 if len(counter.text) <= 2 else 10.5
    _el(g, "text", counter.text, x=x + w / 2, y=y + h - 4.5, font_size=size,
        font_weight="bold", text_anchor="middle", font_family=FONT, fill=counter.ink)


def draw_city_symbol(parent: etree._Element, x: float, y: float, r: float, major: bool,
                     title: str = "") -> None:
    """A city on a hex map, centred on (x, y): a major city a square of half-side `r`,
    any other a dot of radius `r` * 0.65, dark with a white rim so it reads on every
    terrain colour."""
    if major:
        el = _el(parent, "rect", x=round(x - r, 1), y=round(y - r, 1), width=round(2 * r, 1),
                 height=round(2 * r, 1), fill=INK, stroke="#ffffff", stroke_width=1.2)
    else:
        el = _el(parent, "circle", cx=round(x, 1), cy=round(y, 1), r=round(r * 0.65, 1),
                 fill=INK, stroke="#ffffff", stroke_width=1.0)
    if title:
        _el(el, "title", title)


def _stack(counters: list[Counter], cx: float, top: float) -> list[tuple[Counter, float, float]]:
    """Place counters in rows of at most COUNTERS_PER_ROW, centred under a label.
    Markers share the first row; every row is centred on cx."""
    rows: list[list[Counter]] = []
    for counter in counters:
        if not rows or len(rows[-1]) >= COUNTERS_PER_ROW:
            rows.append([])
        rows[-1].append(counter)
    placed = []
    y = top
    for row in rows:
        widths = [MARKER_SIZE if c.marker else COUNTER_W for c in row]
        x = cx - (sum(widths) + COUNTER_GAP * (len(row) - 1)) / 2
        for counter, w in zip(row, widths, strict=True):
            dy = (COUNTER_H - MARKER_SIZE) / 2 if counter.marker else 0
            placed.append((counter, x, y + dy))
            x += w + COUNTER_GAP
        y += COUNTER_H + COUNTER_GAP
    return placed


# -- the legend ------------------------------------------------------------------------


def _legend_width(item: LegendItem) -> float:
    glyph = COUNTER_W if item.kind == "counter" else 26
    return glyph + 8 + 6.6 * len(item.label) + 22


def _legend_rows(items: list[LegendItem], width: float) -> list[list[LegendItem]]:
    rows: list[list[LegendItem]] = [[]]
    used = LEGEND_PAD
    for item in items:
        w = _legend_width(item)
        if rows[-1] and used + w > width - LEGEND_PAD:
            rows.append([])
            used = LEGEND_PAD
        rows[-1].append(item)
        used += w
    return rows if rows[0] else []


def _draw_legend(parent: etree._Element, rows: list[list[LegendItem]], top: float,
                 width: float) -> None:
    g = _el(parent, "g", class_="legend")
    _el(g, "rect", x=0, y=top, width=width, height=len(rows) * LEGEND_ROW_H + 2 * LEGEND_PAD - 8,
        fill=PAPER)
    _el(g, "line", x1=0, y1=top, x2=width, y2=top, stroke="#9a968a", stroke_width=1)
    y = top + LEGEND_PAD - 2
    for row in rows:
        x = LEGEND_PAD
        mid = y + LEGEND_ROW_H / 2 - 2
        for item in row:
            glyph = 26.0
            if item.kind in ("area", "rim"):
                _el(g, "rect", x=x, y=mid - 8, width=26, height=16, fill=item.fill or "none",
                    stroke=item.stroke or BORDER, stroke_width=3 if item.kind == "rim" else 1)
            elif item.kind == "front":
                _el(g, "line", x1=x, y1=mid, x2=x + 26, y2=mid, stroke=item.stroke or FRONT,
                    stroke_width=6, stroke_linecap="round")
            elif item.kind == "sea":
                _el(g, "circle", cx=x + 13, cy=mid, r=8, fill=item.fill, stroke="#ffffff",
                    stroke_width=1.5)
            elif item.kind == "hexside":
                _el(g, "line", x1=x, y1=mid, x2=x + 26, y2=mid, stroke=item.stroke,
                    stroke_width=item.stroke_width or 3, stroke_linecap="round")
            elif item.kind in ("city", "major-city"):
                _el(g, "rect", x=x, y=mid - 8, width=26, height=16, fill=PAPER,
                    stroke=BORDER, stroke_width=1)
                draw_city_symbol(g, x + 13, mid, 5.0, item.kind == "major-city")
            elif item.kind == "river":
                _el(g, "path", d=f"M{_fmt(x)},{_fmt(mid + 3)} q7,-8 13,-2 t13,-3",
                    fill="none", stroke=RIVER, stroke_width=1.6)
            elif item.kind == "counter" and item.counter is not None:
                c = item.counter
                if c.marker:
                    draw_counter(g, c, x + (COUNTER_W - MARKER_SIZE) / 2, mid - MARKER_SIZE / 2)
                else:
                    draw_counter(g, c, x, mid - COUNTER_H / 2)
                glyph = COUNTER_W
            _el(g, "text", item.label, x=x + glyph + 8, y=mid + 4.5, font_size=12.5,
                font_family=FONT, fill=INK)
            x += _legend_width(item)
        y += LEGEND_ROW_H


# -- the map -----------------------------------------------------------------------------


def draw_area_map(module: Any, view: MapView, *, id_prefix: str = "m-",
                  chrome: bool = True) -> str:
    """The SVG document (a string, no XML declaration) of `view` on the module's map.
    Without `chrome` it is the bare board (no title, no legend), as a VASSAL board."""
    geo = map_geometry(module)
    legend_rows = _legend_rows(view.legend, geo.width) if chrome else []
    legend_h = len(legend_rows) * LEGEND_ROW_H + 2 * LEGEND_PAD - 8 if legend_rows else 0
    header_h = HEADER_H if chrome else 0
    total_h = header_h + geo.height + legend_h
    svg = etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS, "xlink": XLINK_NS})
    svg.set("width", _fmt(geo.width))
    svg.set("height", _fmt(total_h))
    svg.set("viewBox", f"0 0 {_fmt(geo.width)} {_fmt(total_h)}")
    svg.set("role", "img")
    svg.set("class", "area-map")
    _el(svg, "title", f"{view.title}. {view.subtitle}")

    defs = _el(svg, "defs")
    ids = {a.id: _safe_id(id_prefix + "a-", a.id) for a in geo.areas}
    clips = {a.id: _safe_id(id_prefix + "c-", a.id) for a in geo.areas}
    for area in geo.areas:
        _el(defs, "path", id=ids[area.id], d=area.d, class_="area", data_area=area.id)
        clip = _el(defs, "clipPath", id=clips[area.id])
        _el(clip, "use", href=f"#{ids[area.id]}")

    if chrome:
        _el(svg, "rect", x=0, y=0, width=geo.width, height=HEADER_H, fill=PAPER)
        _el(svg, "text", view.title, x=16, y=27, font_size=21, font_weight="bold",
            font_family=FONT, fill=INK)
        _el(svg, "text", view.subtitle, x=16, y=47, font_size=13, font_family=FONT,
            fill="#4a4a44")
        _el(svg, "line", x1=0, y1=HEADER_H, x2=geo.width, y2=HEADER_H, stroke="#9a968a",
            stroke_width=1)

    board = _el(svg, "g", transform=f"translate(0,{header_h})", class_="board")
    clip_board = _el(defs, "clipPath", id=id_prefix + "board")
    _el(clip_board, "rect", x=0, y=0, width=geo.width, height=geo.height)
    board_inner = _el(board, "g", clip_path=f"url(#{id_prefix}board)")
    _el(board_inner, "rect", x=0, y=0, width=geo.width, height=geo.height, fill=WATER)

    layer = _el(board_inner, "g", class_="backdrop")
    for name, d, _ in geo.neutrals:
        n = _el(layer, "path", d=d, fill=NEUTRAL, stroke=NEUTRAL_EDGE, stroke_width=0.8)
        _el(n, "title", name)
    for d in geo.water:
        _el(layer, "path", d=d, fill=WATER, stroke="none")

    fills = _el(board_inner, "g", class_="area-fills")
    for area in geo.areas:
        _el(fills, "use", href=f"#{ids[area.id]}", fill=view.area_fill.get(area.id, "#ffffff"),
            data_area=area.id)
    rims = _el(board_inner, "g", class_="start-side", fill="none", stroke_width=4,
               stroke_opacity=0.7)
    for area in geo.areas:
        rim = view.area_rim.get(area.id)
        if rim:
            _el(rims, "use", href=f"#{ids[area.id]}", stroke=rim,
                clip_path=f"url(#{clips[area.id]})")
    borders = _el(board_inner, "g", class_="area-borders", fill="none", stroke=BORDER,
                  stroke_width=0.9, stroke_linejoin="round")
    for area in geo.areas:
        _el(borders, "use", href=f"#{ids[area.id]}")

    rivers = _el(board_inner, "g", class_="rivers", fill="none", stroke=RIVER,
                 stroke_width=1.4, stroke_linecap="round", stroke_linejoin="round")
    for name, d in geo.rivers:
        r = _el(rivers, "path", d=d)
        _el(r, "title", name)

    # the front: the stroke of each side's outline, clipped to the other side's inside,
    # is a band along exactly their shared border
    front = _el(board_inner, "g", class_="front-line", fill="none", stroke=FRONT,
                stroke_width=7, stroke_linejoin="round")
    for own, enemy in sorted(set(view.front)):
        if own in ids and enemy in ids:
            _el(front, "use", href=f"#{ids[enemy]}", clip_path=f"url(#{clips[own]})")
            _el(front, "use", href=f"#{ids[own]}", clip_path=f"url(#{clips[enemy]})")

    seas = _el(board_inner, "g", class_="seas")
    for i, sea in enumerate(geo.seas):
        colour = SEA_COLOURS[i % len(SEA_COLOURS)]
        g = _el(seas, "g", data_sea=sea.id)
        _el(g, "title", sea.name)
        for _, x, y in sea.members:
            _el(g, "circle", cx=x, cy=y, r=8.5, fill=colour, stroke="#ffffff", stroke_width=2)
        if sea.label:
            _halo_text(g, sea.label[0], sea.label[1], sea.name, size=12.5, style="italic",
                       fill=colour, halo=WATER, halo_w=4)

    for name, d, point in geo.neutrals:
        where = point or interior_point(d)
        if where and name:
            _halo_text(layer, where[0], where[1], name, size=12, style="italic",
                       fill="#8a8474", halo=NEUTRAL, halo_w=3)

    # city dots, except where they would sit on an area's name or counters
    busy = [_label_box(a, view) for a in geo.areas]
    cities = _el(board_inner, "g", class_="cities")
    for name, x, y in geo.cities:
        if any(x0 - 3 <= x <= x1 + 3 and y0 - 3 <= y <= y1 + 3 for x0, y0, x1, y1 in busy):
            continue
        c = _el(cities, "circle", cx=x, cy=y, r=2.2, fill="#55524a")
        _el(c, "title", name)

    labels = _el(board_inner, "g", class_="area-labels")
    stacks = _el(board_inner, "g", class_="units")
    for area in sorted(geo.areas, key=lambda a: (a.label[1], a.label[0], a.id)):
        lx, ly = area.label
        strong = area.id in view.strong
        _halo_text(labels, lx, ly + 4, area.name, size=13 if strong else 12,
                   weight="bold" if strong else "normal")
        counters = view.counters.get(area.id, [])
        if counters:
            group = _el(stacks, "g", data_area=area.id)
            for counter, x, y in _stack(counters, lx, ly + 9):
                draw_counter(group, counter, x, y)

    _el(board, "rect", x=0.5, y=0.5, width=geo.width - 1, height=geo.height - 1, fill="none",
        stroke="#6b675c", stroke_width=1)
    if legend_rows:
        _draw_legend(svg, legend_rows, header_h + geo.height, geo.width)
    return etree.tostring(svg, encoding="unicode")


def _label_box(area: AreaShape, view: MapView) -> tuple[float, float, float, float]:
    """The box an area's name and counter stack cover (approximate text width)."""
    lx, ly = area.label
    half = 3.6 * len(area.name) + 4
    counters = view.counters.get(area.id, [])
    rows = -(-len(counters) // COUNTERS_PER_ROW)
    half = max(half, min(len(counters), COUNTERS_PER_ROW) * (COUNTER_W + COUNTER_GAP) / 2)
    return lx - half, ly - 9, lx + half, ly + 9 + rows * (COUNTER_H + COUNTER_GAP)


_TOKEN = re.compile(r"[MLHVZmlhvzA-Za-z]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def path_rings(d: str) -> list[list[tuple[float, float]]] | None:
    """The rings of a path made of absolute M/L/H/V/Z commands, or None for anything
    else (curves, relative moves): callers then do without."""
    rings: list[list[tuple[float, float]]] = []
    command, numbers = "", []
    x = y = 0.0
    tokens = _TOKEN.findall(d)
    tokens.append("Z")
    for token in tokens:
        if token.isalpha():
            if token not in "MLHVZ":
                return None
            command = token
            if token == "Z" and rings and len(rings[-1]) > 2:
                rings.append([])
            continue
        numbers.append(float(token))
        if command in "ML" and len(numbers) == 2:
            x, y = numbers
            numbers = []
            if command == "M" or not rings:
                rings.append([])
                command = "L"
            rings[-1].append((x, y))
        elif command in "HV":
            x, y = (numbers[0], y) if command == "H" else (x, numbers[0])
            numbers = []
            if rings:
                rings[-1].append((x, y))
    return [r for r in rings if len(r) > 2]


def _ring_area(ring: list[tuple[float, float]]) -> float:
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1)
                   in zip(ring, ring[1:] + ring[:1], strict=True))) / 2


def interior_point(d: str) -> tuple[float, float] | None:
    """A point well inside the largest ring of a path: the middle of the widest
    horizontal span across the ring's vertical middle."""
    rings = path_rings(d)
    if not rings:
        return None
    ring = max(rings, key=_ring_area)
    ys = [p[1] for p in ring]
    best: tuple[float, float, float] | None = None
    for frac in (0.5, 0.4, 0.6, 0.3, 0.7):
        y = min(ys) + (max(ys) - min(ys)) * frac
        xs = sorted(x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True)
                    if (y0 <= y < y1) or (y1 <= y < y0))
        for a, b in zip(xs[::2], xs[1::2], strict=False):
            if best is None or b - a > best[0]:
                best = (b - a, (a + b) / 2, y)
    return None if best is None else (best[1], best[2] + 4)


def render_map_svg(module: ModuleData, state: dict[str, Any], side: str, *,
                   caption: str | None = None) -> str:
    """The map of `state` as `side` sees it. The state is projected here, so no caller
    can draw a raw state by accident (projections are idempotent, so projecting an
    already projected state is harmless)."""
    from adjudicator.reports.games import reporter_for
    from adjudicator.reports.projection import project_state

    game = str(state.get("game") or module.game)
    view = reporter_for(game).map_view(module, project_state(game, state, side), side, caption)
    from adjudicator.reports.render import draw_map

    return draw_map(module, view)


def svg_size(svg: str) -> tuple[int, int]:
    """Width and height (px) an SVG string declares."""
    root = etree.fromstring(svg.encode("utf-8"))
    return round(float(root.get("width"))), round(float(root.get("height")))
