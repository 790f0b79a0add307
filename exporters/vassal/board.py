"""The VASSAL board of a game: its image (the report's map drawing, bare, at playing
scale), the grid that names its locations, and where pieces stand in each location.

Area maps become a `ZonedGrid` with one named `Zone` per area (its outline), so
hovering anywhere in an area shows its name; counters stand in a stack under the
area's name. Hex maps become a `HexGrid` whose numbering equals the printed labels
(`grid.place_grid`), and counters stand on the hex centre.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from adjudicator.engine.module import ModuleData
from adjudicator.engine.report import MapView
from adjudicator.reports.areamap import draw_area_map, map_geometry, path_rings
from adjudicator.reports.hexmap import cities_of, draw_hex_board, key_height
from adjudicator.reports.style import style_of
from exporters.vassal.counters import COUNTER_PX, png
from exporters.vassal.encoding import java_int
from exporters.vassal.grid import GridPlacement, place_grid

AREA_SCALE = 1.25  # board pixels per map unit of an area map

Point = tuple[int, int]


@dataclass
class Location:
    """Where one location's pieces go: `stack` for counters, `marker` for the marker
    that shows who holds it (None: at the bottom of the stack, the area is too small
    for two piles); `outline` (board pixels) when the location is an area."""

    id: str
    name: str
    stack: Point
    marker: Point | None
    outline: list[Point] = field(default_factory=list)


@dataclass
class Board:
    name: str
    image: str
    png: bytes
    width: int
    height: int
    locations: dict[str, Location]
    base_fill: dict[str, str]  # the colour each area has on the board image
    grid: GridPlacement | None = None  # for hex maps
    svg: str = ""  # the drawing `png` is rasterized from

    def grid_element(self, board_el: etree._Element) -> None:
        """The grid child of the `Board` element (FORMAT.md §2.3, §7 item 4)."""
        pkg = "VASSAL.build.module.map.boardPicker.board."
        if self.grid is not None:
            hexgrid = etree.SubElement(board_el, pkg + "HexGrid",
                                       self.grid.vassal.grid_attributes())
            etree.SubElement(hexgrid, pkg + "mapgrid.HexGridNumbering",
                             self.grid.vassal.numbering_attributes())
            return
        zoned = etree.SubElement(board_el, pkg + "ZonedGrid")
        for location in self.locations.values():
            path = ";".join(f"{x},{y}" for x, y in location.outline)
            etree.SubElement(zoned, pkg + "mapgrid.Zone", {
                "name": location.name, "path": path, "locationFormat": "$name$",
                "useParentGrid": "false", "useHighlight": "false", "highlightProperty": ""})


def inside(point: tuple[float, float], ring: list[Point]) -> bool:
    """Even-odd point-in-polygon test."""
    x, y = point
    hit = False
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def area_board(module: ModuleData, view: MapView) -> Board:
    """An area map's board: `view` gives the colours of the board image (the position a
    scenario starts from, without counters or front)."""
    geo = map_geometry(module)
    bare = MapView(view.title, view.subtitle, view.area_fill, view.area_rim, [], set(), {}, [])
    svg = draw_area_map(module, bare, chrome=False)
    s = AREA_SCALE
    locations = {}
    for area in geo.areas:
        rings = path_rings(area.d) or []
        ring = max(rings, key=lambda r: _ring_size(r), default=[])
        outline = [(round(x * s), round(y * s)) for x, y in ring]
        lx, ly = area.label[0] * s, area.label[1] * s
        half = COUNTER_PX / 2
        below = (round(lx), round(ly + 8 * s + half))
        above = (round(lx), round(ly - 10 * s - half))
        stack = next((p for p in (below, above) if inside(p, outline)), (round(lx), round(ly)))
        step = round(COUNTER_PX * 0.9)
        besides = [(stack[0] - step, stack[1]), (stack[0] + step, stack[1]),
                   (stack[0], stack[1] + step)]
        marker = next((p for p in besides if inside(p, outline)), None)
        locations[area.id] = Location(area.id, area.name, stack, marker, outline)
    return Board("Map", "board.png", png(svg, scale=s), round(geo.width * s),
                 round(geo.height * s), locations, dict(view.area_fill), svg=svg)


def _ring_size(ring: list[tuple[float, float]]) -> float:
    xs, ys = [p[0] for p in ring], [p[1] for p in ring]
    return (max(xs) - min(xs)) * (max(ys) - min(ys))


def hex_board(module: ModuleData) -> Board:
    """A hex map's board: the printed grid laid out by `place_grid`, drawn by
    `hexmap.draw_hex_board` with the module's cities and, under the hexes, the terrain
    key (the board image grows by it; the grid's origin stays where it is)."""
    board = module.hex_board()
    placement = place_grid(board.grid, sorted(board.terrain))
    cities, style = cities_of(module, board), style_of(module.game)
    svg = draw_hex_board(board, placement.centre, placement.hex_size, placement.width,
                         placement.height, cities, key=True, style=style)
    height = placement.height + key_height(board, cities, placement.width, style)
    locations = {}
    for h in board.terrain:
        label = board.grid.label(h)
        x, y = placement.centre(h)
        locations[label] = Location(label, label, (x, y), None)
    return Board("Map", "board.png", png(svg), placement.width, height, locations,
                 {}, grid=placement, svg=svg)


def board_attributes(board: Board) -> dict[str, str]:
    return {"name": board.name, "image": board.image, "reversible": "false",
            "width": java_int(board.width), "height": java_int(board.height),
            "color": "255,255,255"}
