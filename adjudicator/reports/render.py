"""Turn reports: the view model of one step for one side, rendered to HTML (map inline),
SVG and PNG (docs/architecture.md, Reports).

Everything is built from the side's projection of the step (`project_step`), so a
report can only show what that side may see. HTML comes from the Jinja templates in
`templates/` with autoescaping on; the map is drawn once as SVG (`areamap`) and the
PNG is cairosvg's rasterization of that same string.
"""

from __future__ import annotations

import hashlib
import io
import re
import shlex
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

import cairosvg
import cairosvg.parser
import cairosvg.surface
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup
from PIL import Image

from adjudicator.engine.dice import commitment
from adjudicator.engine.report import RenderedReport, RollRow, StepReport
from adjudicator.reports.areamap import draw_area_map
from adjudicator.reports.games import reporter_for
from adjudicator.reports.hexmap import hex_map_layers
from adjudicator.reports.layers import MapLayers, area_layers, whole
from adjudicator.reports.projection import project_step

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "templates"
REPORT_TEMPLATE = "report.html.j2"
OUTCOME_WORDS = {
    "accepted": "Accepted",
    "rejected": "Partly carried out",  # the orders before the refused one stand
    "decision": "Stopped for a decision",
    "initial": "Initial position",
}


@lru_cache(maxsize=4)
def environment(template_dir: Path = TEMPLATE_DIR) -> Environment:
    return Environment(
        loader=FileSystemLoader(str(template_dir)),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


@dataclass(frozen=True)
class OrderRow:
    index: int
    line: int | None
    xml: str  # the order as written, e.g. <move unit="GER-6" to="lvov"/>
    words: str  # the order in words
    mark: str  # "applied", "decision", "rejected", "not-reached"
    note: str


def order_xml(order: dict[str, Any]) -> str:
    attrs = "".join(f" {k}={quoteattr(str(v))}" for k, v in (order.get("attrs") or {}).items())
    return f"<{order.get('kind', '?')}{attrs}/>"


def order_rows(step: StepReport) -> list[OrderRow]:
    reporter = reporter_for(step.game)
    rejected = step.rejection["index"] if step.rejection else None
    rows = []
    for order in step.orders:
        i = int(order.get("index", len(rows)))
        if rejected is not None and i == rejected:
            mark = "rejected"
            note = f"[rule: {step.rejection['rule']}] {step.rejection['message']}"  # type: ignore[index]
        elif rejected is not None and i > rejected:
            mark, note = "not-reached", "not carried out (an earlier order was rejected)"
        elif step.outcome == "decision" and i == step.orders_applied - 1:
            mark = "decision"
            note = f"carried out up to decision {step.decision['id']}" if step.decision else \
                "carried out up to a decision"
        elif i < step.orders_applied:
            mark, note = "applied", ""
        else:
            mark = "not-reached"
            note = "not carried out (the step stopped for a decision)" \
                if step.outcome == "decision" else "not carried out"
        rows.append(OrderRow(i, order.get("line"), order_xml(order),
                             reporter.describe_order(step.module, order), mark, note))
    return rows


def roll_rows(events: list[dict[str, Any]]) -> list[RollRow]:
    rows = []
    for event in events:
        if event.get("kind") != "roll":
            continue
        value: int | str = event.get("value", "")
        note = ""
        if event.get("candidates"):
            value = f"{value} → {event.get('choice')}"
            note = "candidates in id order: " + ", ".join(event["candidates"])
        rows.append(RollRow(len(rows) + 1, str(event.get("purpose", "")), str(event.get("die", "")),
                            event.get("d6"), value, note))
    return rows


def seed_check(step: StepReport) -> dict[str, Any]:
    """The seed reveal and whether the revealed seed matches the commitment."""
    matches: bool | None = None
    if step.server_seed and step.commit:
        try:
            matches = commitment(bytes.fromhex(step.server_seed)) == step.commit.lower()
        except ValueError:
            matches = False
    command = None
    if step.server_seed is not None:
        sides = [str(e.get("sides", 6)) for e in step.events if e.get("kind") == "roll"]
        if len(set(sides)) > 1:
            draws = ["--sides", ",".join(sides)]
        else:
            draws = ["--sides", sides[0] if sides else "6", "--count", str(max(1, len(sides)))]
        command = " ".join([
            "pbem dice derive", "--server-seed", shlex.quote(step.server_seed),
            "--game", shlex.quote(step.game_id), "--seq", str(step.seq),
            "--entropy", shlex.quote(step.entropy or ""), *draws,
        ])
    return {"commit": step.commit, "server_seed": step.server_seed, "entropy": step.entropy,
            "next_commit": step.next_commit, "matches": matches, "command": command}


def map_caption(step: StepReport) -> str:
    when = "initial position" if step.seq == 0 else f"after step {step.seq}"
    return f"Game {step.game_id} · {when} · {step.side.capitalize()} player's view"


def report_context(step: StepReport, svg: str) -> dict[str, Any]:
    """Everything the template shows, from an already projected step."""
    reporter = reporter_for(step.game)
    before = reporter.status(step.module, step.state_before)
    after = reporter.status(step.module, step.state_after)
    decision = reporter.decision(step.module, step.decision) if step.decision else None
    return {
        "step": step,
        "outcome_words": OUTCOME_WORDS.get(step.outcome, step.outcome),
        "before": before,
        "after": after,
        "orders": order_rows(step),
        "sections": reporter.narrate(step),
        "rolls": roll_rows(step.events),
        "decision": decision,
        "losses": reporter.losses(step),
        "position": reporter.position(step.module, step.state_after),
        "map_svg": Markup(svg),  # built by lxml, every text node escaped
        "print_css": Markup(print_css(svg)),  # numbers of the drawing only
        "seed": seed_check(step),
    }


# The map's own printed page (report.css: `@page map`, A4 landscape, 8 mm margins): the
# drawing is scaled to fit this box, in CSS px (96 per inch).
PRINT_MAP_BOX = (281 / 25.4 * 96, 172 / 25.4 * 96)
PRINT_MIN_PT = 7.0  # no name, figure or legend line smaller than this on paper
VIEWBOX = re.compile(r'<svg[^>]*\bviewBox="0 0 ([0-9.]+) ([0-9.]+)"')
FONT_SIZE = re.compile(r'<text[^>]*\bfont-size="([0-9.]+)"')


def print_css(svg: str) -> str:
    """The print rules that keep the map's text legible on its A4 landscape page: the
    drawing is scaled down to fit the page, so every font size of the drawing that would
    come out under 7 pt is raised to the size that prints at 7 pt (CSS overrides the
    drawing's presentation attributes; the screen and the PNG are not touched)."""
    box = VIEWBOX.search(svg)
    if box is None:
        return ""
    width, height = float(box.group(1)), float(box.group(2))
    scale = min(PRINT_MAP_BOX[0] / width, PRINT_MAP_BOX[1] / height)
    least = PRINT_MIN_PT * 96 / 72 / scale  # in the drawing's units
    small = sorted({size for size in FONT_SIZE.findall(svg) if float(size) < least},
                   key=float)
    if not small:
        return ""
    selectors = ", ".join(f'#map svg text[font-size="{size}"]' for size in small)
    return f"@media print {{ {selectors} {{ font-size: {least:.1f}px; }} }}"


def render_html(step: StepReport, svg: str) -> str:
    """The HTML page of an already projected step with `svg` inline."""
    template = environment().get_template(REPORT_TEMPLATE)
    return template.render(**report_context(step, svg))


def rasterize(svg: str, *, as_cairo_writes_it: bool = False) -> Image.Image:
    """The SVG drawn by cairo, as an RGBA image, straight from cairo's pixels (no PNG is
    written and read back in between); `as_cairo_writes_it`: through cairo's own PNG
    writer after all, whose rounding of half-transparent pixels some images must keep."""
    tree = cairosvg.parser.Tree(bytestring=svg.encode("utf-8"))
    surface = cairosvg.surface.PNGSurface(tree, None, 96)
    pixels = surface.cairo
    pixels.flush()
    if as_cairo_writes_it:
        written = io.BytesIO()
        pixels.write_to_png(written)
        surface.finish()
        return Image.open(io.BytesIO(written.getvalue())).convert("RGBA")
    # cairo keeps premultiplied BGRA in native (little-endian) order: PIL's "BGRa"
    image = Image.frombuffer("RGBa", (pixels.get_width(), pixels.get_height()),
                             bytes(pixels.get_data()), "raw", "BGRa", pixels.get_stride(), 1)
    surface.finish()
    return image.convert("RGBA")


_STATIC: dict[str, Image.Image] = {}
STATIC_RASTERS_KEPT = 16  # the static layers of a few games and sheet sizes, per process


def static_raster(svg: str) -> Image.Image:
    """A layer that is the same in many reports, rasterized once per process."""
    key = hashlib.sha256(svg.encode("utf-8")).hexdigest()
    if key not in _STATIC:
        if len(_STATIC) >= STATIC_RASTERS_KEPT:
            del _STATIC[next(iter(_STATIC))]
        _STATIC[key] = rasterize(svg)
    return _STATIC[key]


def painted(index: Image.Image, colours: tuple[str, ...]) -> Image.Image:
    """An index layer in this report's colours: pixel value i takes colours[i-1]."""
    numbers = Image.frombytes("P", index.size, index.getchannel("R").tobytes())
    palette = [0, 0, 0]
    for colour in colours:
        palette += [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    numbers.putpalette(palette + [0] * (768 - len(palette)))
    numbers.info["transparency"] = 0
    return numbers.convert("RGBA")


def layers_to_png(layers: MapLayers) -> bytes:
    """The PNG of a map, its layers composited bottom first (layers.py), stored with a
    256-colour palette (a map has few colours, and the file, mailed with every report,
    shrinks about fourfold) at zlib's default level: `optimize` cost more time than the
    few per cent it saved."""
    picture: Image.Image | None = None
    for part in layers.parts:
        layer = static_raster(part.svg) if part.static else rasterize(part.svg)
        if part.colours is not None:
            layer = painted(layer, part.colours)
        picture = layer if picture is None else Image.alpha_composite(picture, layer)
    if picture is None:
        raise ValueError("a map with no layers")
    palette = picture.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                                              dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, "PNG", compress_level=6)
    return out.getvalue()


def svg_to_png(svg: str) -> bytes:
    """The PNG of a drawing as it is."""
    return layers_to_png(whole(svg))


def render_report(step: StepReport) -> RenderedReport:
    """The report of one step for `step.side`: HTML, SVG and PNG of the same map."""
    seen = project_step(step)
    view = reporter_for(seen.game).map_view(seen.module, seen.state_after, seen.side,
                                            map_caption(seen))
    layers = map_layers(seen.module, view)
    return RenderedReport(render_html(seen, layers.svg), layers.svg, layers_to_png(layers))


def public_map_png(game: Any) -> bytes:
    """The map of a game's current position as both sides may see it: each side's view
    applied in turn, so nothing either side may not see is drawn (the public game page)."""
    from adjudicator.reports.projection import project_state

    state = game.state
    sides = list(game.package.rules.sides)
    for side in sides:
        state = project_state(game.package.id, state, side)
    seq = game.next_seq - 1
    caption = (f"{game.package.title} · game {game.game_id} · "
               f"{'the start' if seq == 0 else f'after step {seq}'}: the position as both "
               "sides may see it")
    view = reporter_for(game.package.id).map_view(game.module, state, sides[0], caption)
    return layers_to_png(map_layers(game.module, view))


def map_layers(module: Any, view: Any) -> MapLayers:
    """The one drawing of a map view, an area map or a hex map as the module has it, with
    its static board apart where it has one."""
    if module.findall("m:map/m:grid"):
        return hex_map_layers(module, view)
    return area_layers(draw_area_map(module, view))


def draw_map(module: Any, view: Any) -> str:
    """The one drawing of a map view: an area map or a hex map, as the module has it."""
    return map_layers(module, view).svg


def write_report(step: StepReport, outdir: Path) -> dict[str, Path]:
    """Write report.html (map inline), map.svg and map.png into `outdir`."""
    report = render_report(step)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = {"html": outdir / "report.html", "svg": outdir / "map.svg",
             "png": outdir / "map.png"}
    paths["html"].write_text(report.html, encoding="utf-8")
    paths["svg"].write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + report.svg + "\n",
                            encoding="utf-8")
    paths["png"].write_bytes(report.png)
    return paths
