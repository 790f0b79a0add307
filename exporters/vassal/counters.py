"""Counter images for VASSAL pieces: the report's `Counter` drawn at playing size in
the usual NATO style (unit-type box with its size marks, the unit id, the factors
of each step, nationality colours, the formation band), one SVG per step, then
rasterized by cairosvg like every other drawing of the project."""

from __future__ import annotations

import io
import math

import cairosvg
from lxml import etree

from adjudicator.engine.report import Counter
from adjudicator.reports.areamap import FONT, SVG_NS

COUNTER_PX = 56
MARKER_PX = 38
CONTROL_PX = 44
ECHELON_MARKS = {"army group": "XXXXX", "army": "XXXX", "corps": "XXX", "division": "XX",
                 "brigade": "X", "regiment": "III", "battalion": "II"}


def _el(parent: etree._Element, tag: str, text: object = None,
        **attrs: object) -> etree._Element:
    el = etree.SubElement(parent, f"{{{SVG_NS}}}{tag}")
    for key, value in attrs.items():
        el.set(key.rstrip("_").replace("_", "-"), str(value))
    if text is not None:
        el.text = str(text)
    return el


def _svg(size: int) -> etree._Element:
    return etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS}, width=str(size),
                         height=str(size), viewBox=f"0 0 {size} {size}")


def _unit_symbol(parent: etree._Element, symbol: str, x: float, y: float, w: float,
                 h: float, ink: str) -> None:
    """The NATO unit-type box (APP-6 land unit frame) with its type mark."""
    line: dict[str, object] = {"stroke": ink, "stroke_width": 1.4, "fill": "none"}
    _el(parent, "rect", x=x, y=y, width=w, height=h, **line)
    if symbol in ("infantry", "mechanized", "motorized"):
        _el(parent, "path", d=f"M{x},{y} L{x + w},{y + h} M{x + w},{y} L{x},{y + h}", **line)
    if symbol in ("armor", "mechanized"):
        _el(parent, "rect", x=x + w * 0.18, y=y + h * 0.22, width=w * 0.64, height=h * 0.56,
            rx=h * 0.28, **line)
    if symbol == "cavalry":
        _el(parent, "path", d=f"M{x},{y + h} L{x + w},{y}", **line)
    if symbol == "mountain":
        _el(parent, "path", d=f"M{x + w * 0.35},{y + h} L{x + w / 2},{y + h * 0.62} "
            f"L{x + w * 0.65},{y + h} Z", fill=ink)
    if symbol == "artillery":
        _el(parent, "circle", cx=x + w / 2, cy=y + h / 2, r=h * 0.16, fill=ink)
    if symbol == "motorized":
        _el(parent, "path", d=f"M{x + w / 2},{y} L{x + w / 2},{y + h}", **line)


def counter_svg(counter: Counter, step: int = 0) -> str:
    """One face of a unit counter (0 = as set up: full strength, or untried), or a marker.

    A concealed face (`step < counter.concealed`, an untried face) shows the counter's
    type and that face's factors and nothing else: no band text, no unit id, no size,
    no name in its title. Every counter with the same type, colours and factors so gets
    the same drawing, byte for byte: the face cannot tell which counter it is."""
    if counter.marker or not counter.symbol:
        return marker_svg(counter.text, counter.fill, counter.ink, counter.title)
    concealed = step < counter.concealed
    factors = counter.factors[step] if step < len(counter.factors) else ""
    s = COUNTER_PX
    svg = _svg(s)
    _el(svg, "title", f"{counter.side} {counter.symbol} {factors}".strip() if concealed
        else counter.title)
    _el(svg, "rect", x=0.75, y=0.75, width=s - 1.5, height=s - 1.5, rx=4, fill=counter.fill,
        stroke="#1d1d1b", stroke_width=1.5)
    text = {"font_family": FONT, "font_weight": "bold", "text_anchor": "middle"}
    if counter.band:  # the band's colour is the side's or the formation's, its text the id
        _el(svg, "path", d=f"M1.5,13 V5 Q1.5,1.5 5,1.5 H{s - 5} Q{s - 1.5},1.5 {s - 1.5},5 "
            "V13 Z", fill=counter.band_fill)
        if not concealed:
            _el(svg, "text", counter.band, x=s / 2, y=10.5, font_size=9, fill="#ffffff",
                **text)
    # the unit id beside the box, where no band carries it (and never a strength: the
    # factors have their own line, and a strength beside the box runs over it)
    ident = "" if concealed or counter.band or counter.text in counter.factors \
        else counter.text
    box_w, box_h = (26.0, 15.0) if factors else (30.0, 17.0)
    box_x = (s - box_w) / 2 - (8 if ident and factors else 0)
    # a concealed face does not show the size either: an untried face shows the type,
    # the factors and the untried mark, and a size would tell brigades from divisions
    mark = "" if concealed else ECHELON_MARKS.get(counter.echelon, "")
    if mark:
        _el(svg, "text", mark, x=box_x + box_w / 2, y=20.5, font_size=6.5, fill=counter.ink,
            **text)
    _unit_symbol(svg, counter.symbol, box_x, 22.5, box_w, box_h, counter.ink)
    if factors:
        if ident:
            _el(svg, "text", ident, x=s - 3, y=33, font_size=9 if len(ident) <= 3 else 7,
                fill=counter.ink, **{**text, "text_anchor": "end"})
        if step > counter.concealed:  # a reduced side carries a stripe, as printed ones do
            _el(svg, "rect", x=1.5, y=40, width=s - 3, height=14, fill="#ffffff",
                fill_opacity=0.45)
        _el(svg, "text", factors, x=s / 2, y=52, font_size=13 if len(factors) <= 5 else 11,
            fill=counter.ink, **text)
    else:
        size = 14 if len(counter.text) <= 3 else 10
        _el(svg, "text", counter.text, x=s / 2, y=52, font_size=size, fill=counter.ink, **text)
    return str(etree.tostring(svg, encoding="unicode"))


def marker_svg(text: str, fill: str, ink: str, title: str) -> str:
    """A square marker with a short text (garrison, hidden unit)."""
    s = MARKER_PX
    svg = _svg(s)
    _el(svg, "title", title)
    _el(svg, "rect", x=0.75, y=0.75, width=s - 1.5, height=s - 1.5, rx=4, fill=fill,
        stroke="#1d1d1b", stroke_width=1.5)
    size = 17 if len(text) <= 2 else 12
    _el(svg, "text", text, x=s / 2, y=s / 2 + size * 0.36, font_size=size, font_family=FONT,
        font_weight="bold", text_anchor="middle", fill=ink)
    return str(etree.tostring(svg, encoding="unicode"))


def control_marker_svg(label: str, fill: str, title: str) -> str:
    """A control marker: a disc in the holding side's colour (the map legend's), ringed
    in white, with the side's name across it. Round, and smaller than a counter, so it
    is never taken for a unit."""
    s = CONTROL_PX
    svg = _svg(s)
    _el(svg, "title", title)
    _el(svg, "circle", cx=s / 2, cy=s / 2, r=s / 2 - 1, fill=fill, stroke="#1d1d1b",
        stroke_width=1.5)
    _el(svg, "circle", cx=s / 2, cy=s / 2, r=s / 2 - 4.5, fill="none", stroke="#ffffff",
        stroke_width=1.5, stroke_opacity=0.8)
    # the widest text the inner ring holds, for DejaVu Sans Bold's ~0.66 em advance
    size = min(12.0, (s - 10) / max(1, 0.66 * len(label)))
    _el(svg, "text", label, x=s / 2, y=s / 2 + size * 0.36, font_size=round(size, 1),
        font_family=FONT, font_weight="bold", text_anchor="middle", fill=_ink_on(fill))
    return str(etree.tostring(svg, encoding="unicode"))


def _ink_on(fill: str) -> str:
    """Black or white, whichever contrasts more with `fill` (#rrggbb), by WCAG's
    relative luminance: black wins above about 0.18."""
    try:
        channels = [int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    except ValueError:
        return "#1d1d1b"
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#1d1d1b" if (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) else "#ffffff"


def png(svg: str, scale: float = 1.0) -> bytes:
    result: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return result


SHEET_COLUMNS = 24


def pngs(svgs: list[str]) -> list[bytes]:
    """The PNG of each of many small drawings (counters), rasterized together on one
    sheet and cut apart: one pass of the rasterizer instead of one per image, which for
    a few hundred counters is most of an export's time. Each drawing keeps its own
    `<svg>` element at whole-pixel offsets, so each piece is what it would be alone."""
    from adjudicator.reports.render import rasterize

    unique = list(dict.fromkeys(svgs))  # a face shared by several pieces is drawn once
    if not unique:
        return []
    roots = [etree.fromstring(svg.encode("utf-8")) for svg in unique]
    sizes = [(math.ceil(float(r.get("width"))), math.ceil(float(r.get("height"))))
             for r in roots]
    cell_w = max(w for w, _ in sizes)
    cell_h = max(h for _, h in sizes)
    rows = math.ceil(len(roots) / SHEET_COLUMNS)
    sheet = etree.Element(f"{{{SVG_NS}}}svg", nsmap={None: SVG_NS},
                          width=str(cell_w * SHEET_COLUMNS), height=str(cell_h * rows))
    places = []
    for i, root in enumerate(roots):
        x, y = (i % SHEET_COLUMNS) * cell_w, (i // SHEET_COLUMNS) * cell_h
        root.set("x", str(x))
        root.set("y", str(y))
        sheet.append(root)
        places.append((x, y))
    # cairo's PNG writer rounds half-transparent edges: each face as it would be alone
    picture = rasterize(etree.tostring(sheet, encoding="unicode"), as_cairo_writes_it=True)
    drawn = {}
    for svg, (x, y), (w, h) in zip(unique, places, sizes, strict=True):
        buffer = io.BytesIO()
        picture.crop((x, y, x + w, y + h)).save(buffer, "PNG")
        drawn[svg] = buffer.getvalue()
    return [drawn[svg] for svg in svgs]
