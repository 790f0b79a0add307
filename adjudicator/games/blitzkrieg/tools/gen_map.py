"""Generate the Blitzkrieg '41 hex map (data/map.xml) from real geography.

The rulebook prints no map, only hex numbers (1.2: the map "altered slightly" from the
real world). The grid is the one its numbers imply (MAP-README.md, "The grid"): rows
lettered A (north) to DD (south), pointy-topped hexes 45 miles across (1.1 A), the
numbers growing from the east edge (column 1) westward, the rows B, D, F, ... half a
hex farther west. A Lambert conic is fitted through the hexes the rules give to real
places (Leningrad B9, Riga E16, Kaunas H17, Kiev R15, Odessa Y17, Sevastopol CC15,
Novorossisk DD10, Perekop AA14, the Kerch Straits CC11/CC12); its scale comes out at
44.8 miles a hex, which confirms the reading. Terrain, rivers, lakes and coasts come from
Natural Earth (tools/geodata, see its README), the 1939 and 1941 borders and terrain
areas are typed from general knowledge, and every hex the rules name is then put where
they say. Deterministic: the committed map.xml is exactly what this writes
(tests/test_blitzkrieg_map.py checks it).

    python -m adjudicator.games.blitzkrieg.tools.gen_map            # write data/map.xml
    python -m adjudicator.games.blitzkrieg.tools.gen_map --check    # compare only
    python -m adjudicator.games.blitzkrieg.tools.gen_map --extract DIR  # refresh geodata
    python -m adjudicator.games.blitzkrieg.tools.gen_map --svg map.svg  # a preview
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.engine.hexgrid import HexGrid, hex_distance
from adjudicator.mapgen.frame import SQ3, HexFrame, Point
from adjudicator.mapgen.geojson import CREDIT, lines, load_features
from adjudicator.mapgen.geometry import Polyline, Region
from adjudicator.mapgen.projection import Fitted, LambertConic
from adjudicator.mapgen.routing import Side, river_courses, route_line, side, vertex_graph

from . import geography as geo

HERE = Path(__file__).resolve().parent
GEO_DIR = HERE / "geodata"
OUT_XML = HERE.parent / "data" / "map.xml"
NS = "urn:pbem:module:1"

GRID = HexGrid(orientation="pointy", shifted="even", numbering="LN", first_row=1)
COLUMNS = range(1, 26)
ROWS = range(1, 31)  # A .. DD
FRAME = HexFrame(GRID, COLUMNS, ROWS)
PROJECTION = LambertConic(lon0=32.0, lat0=52.0, par1=47.0, par2=57.0)

LAND_SHARE = 0.5  # a hex is land when at least half of it is
TERRAIN_SHARE = 0.42  # a terrain area gives its type to a hex it covers this much of
ALL_SEA = 0.9  # a hexside between land hexes is all-sea when this much of it is sea
PARTIAL = 0.1  # ... and partial-land when at least this much is
LAKE_SIDE = 0.45  # a hexside is a lake hexside when this much of the line across it is lake
WATER_REACH = 2  # sea hexes this close to a land hex of the map are on the map
MIN_RIVER_HEXES = 1.2  # a river piece shorter than this on the map is not drawn


def fit() -> Fitted:
    anchors = {name: (lonlat, FRAME.centre_of(hid))
               for name, (lonlat, hid, _) in geo.ANCHORS.items()}
    return Fitted.through(PROJECTION, anchors, mirror=False)


@dataclass
class Hex:
    hid: str
    land: float
    terrain: str = "clear"
    water: str = ""
    country: str = ""
    attrs: dict[str, str] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)

    def rule(self, ref: str) -> None:
        if ref not in self.rules:
            self.rules.append(ref)


@dataclass
class HexsideInfo:
    attrs: dict[str, str] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)


# -- geography in the frame ---------------------------------------------------------------
def hex_samples(col: int, row: int) -> list[Point]:
    """61 points spread evenly over a hex (a triangular lattice inside it): area shares
    are counted on them, so the generator needs no polygon library."""
    cx, cy = FRAME.centre(col, row)
    step = 1 / 9
    out = []
    for i in range(-4, 5):
        for j in range(-4, 5):
            if abs(i + j) <= 4:
                out.append((cx + step * (i + j / 2), cy + step * j * SQ3 / 2))
    return out


def along(a: Point, b: Point, n: int = 11) -> list[Point]:
    """n points evenly along a segment, ends excluded."""
    return [(a[0] + (b[0] - a[0]) * (k + 0.5) / n, a[1] + (b[1] - a[1]) * (k + 0.5) / n)
            for k in range(n)]


class Geo:
    """The geography in the frame: land, lakes, countries, terrain areas, rivers."""

    def __init__(self, tf: Fitted) -> None:
        def frame_rings(path: Path, key: str | None = None) -> dict[str, list[list[Point]]]:
            out: dict[str, list[list[Point]]] = {}
            for f in load_features(path):
                name = f["properties"].get(key, "") if key else ""
                out.setdefault(name, []).extend(
                    [[tf.to_frame(*c) for c in r] for r in all_rings(f["geometry"])])
            return out

        self.land = Region(frame_rings(GEO_DIR / "land.geojson")[""])
        lakes = frame_rings(GEO_DIR / "lakes.geojson", "name")
        self.lakes = {name: Region(rs) for name, rs in sorted(lakes.items())}
        self.hexside_lakes = {n: r for n, r in self.lakes.items()
                              if n not in (geo.LADOGA, geo.SIVASH)}
        self.countries = {name: Region([[tf.to_frame(*c) for c in geo.densify(ring)]])
                          for name, ring in geo.COUNTRIES.items()}
        self.areas = [(kind, name, Region([[tf.to_frame(*c) for c in geo.densify(ring)]]))
                      for kind, name, ring in geo.TERRAIN]
        self.border_1939 = Polyline([tf.to_frame(*c) for c in geo.densify_line(geo.BORDER_1939)])
        self.rivers: dict[str, list[list[Point]]] = {}
        for f in load_features(GEO_DIR / "rivers.geojson"):
            rid = f["properties"]["id"]
            if rid in geo.RIVERS:
                self.rivers[rid] = [[tf.to_frame(*c) for c in ln] for ln in lines(f["geometry"])]

    def ground(self, p: Point) -> bool:
        """Land that fills a hex: not sea, not Lake Ladoga (9.24 A)."""
        return self.land.contains(p) and not self.lakes[geo.LADOGA].contains(p)

    def sea(self, p: Point) -> bool:
        return not self.land.contains(p)


def all_rings(geom: dict[str, Any]) -> list[list[Point]]:
    """Every ring of a Polygon or MultiPolygon, holes too (the Region is even-odd)."""
    if geom["type"] == "Polygon":
        return [[tuple(c) for c in r] for r in geom["coordinates"]]
    if geom["type"] == "MultiPolygon":
        return [[tuple(c) for c in r] for poly in geom["coordinates"] for r in poly]
    return []


def country_at(g: Geo, p: Point) -> str:
    for name in sorted(g.countries):
        if name != geo.OLD_USSR and g.countries[name].contains(p):
            return name
    return "soviet"


def build_hexes(tf: Fitted, g: Geo) -> dict[str, Hex]:
    """Every hex of the frame with its land share, terrain and country; the map keeps the
    Soviet land, the ZOMO strip west of it (5.14 A) and the water near them."""
    every: dict[str, Hex] = {}
    for col, row in FRAME:
        hid = FRAME.label(col, row)
        pts = hex_samples(col, row)
        share = sum(1 for p in pts if g.ground(p)) / len(pts)
        h = Hex(hid, share)
        if g.lakes[geo.LADOGA].share(pts) >= LAND_SHARE:
            h.terrain, h.water = "lake", geo.LADOGA
        elif share < LAND_SHARE:
            h.terrain, h.water = "sea", sea_name(tf, FRAME.centre(col, row))
        else:
            h.country = country_at(g, FRAME.centre(col, row))
            h.terrain = pick_terrain(g, [p for p in pts if g.ground(p)], h)
        every[hid] = h
    for hid, (kind, country, ref) in geo.FORCED_HEXES.items():
        h = every[hid]
        if kind == "land":
            if h.terrain in ("sea", "lake"):
                col, row = FRAME.offset(hid)
                h.terrain, h.water = pick_terrain(g, hex_samples(col, row), h), ""
            h.country = country or h.country or "soviet"
        else:
            h.terrain, h.country = kind, ""
            h.water = geo.LADOGA if kind == "lake" else sea_name(tf, FRAME.centre_of(hid))
            h.attrs.pop("mountain", None)
        h.rule(ref)
    soviet = {hid for hid, h in every.items() if h.country == "soviet"}
    zomo = {hid for hid, h in every.items() if h.country in geo.AXIS_COUNTRIES
            and any(n in soviet for n in FRAME.neighbours(hid))}
    land = soviet | zomo
    keep = set(land)
    for hid in sorted(every):
        if every[hid].terrain in ("sea", "lake") and any(
                hex_distance(GRID.parse(hid), GRID.parse(k)) <= WATER_REACH
                for k in _land_near(hid, land)):
            keep.add(hid)
    hexes = {hid: every[hid] for hid in sorted(keep)}
    for hid in sorted(zomo):
        h = hexes[hid]
        h.attrs["zomo"] = h.country
        h.rule("rules: 5.14 A")
    for hid, ref in geo.PROTRUDING_ZOMO.items():
        if hexes[hid].attrs.get("zomo") != "germany":
            raise ValueError(f"{hid} should be a German ZOMO hex ({ref})")
        hexes[hid].attrs["protruding"] = "yes"
        hexes[hid].rule(ref)
    return hexes


def _land_near(hid: str, land: set[str]) -> list[str]:
    col, row = FRAME.offset(hid)
    return [FRAME.label(col + dc, row + dr)
            for dr in range(-WATER_REACH, WATER_REACH + 1)
            for dc in range(-WATER_REACH - 1, WATER_REACH + 2)
            if FRAME.on_map(col + dc, row + dr) and FRAME.label(col + dc, row + dr) in land]


def sea_name(tf: Fitted, p: Point) -> str:
    lon, lat = tf.to_lonlat(*p)
    if lat > 53.0:
        return "Baltic Sea"
    if lon > geo.AZOV_WEST and lat > geo.AZOV_SOUTH:
        return "Sea of Azov"
    return "Black Sea"


def pick_terrain(g: Geo, land: list[Point], h: Hex) -> str:
    """9.11: one natural terrain per hex, the type of the area covering most of its land."""
    best = ("clear", 0.0, "")
    for kind, name, region in g.areas:
        share = region.share(land)
        if share >= TERRAIN_SHARE and share > best[1] + 1e-9:
            best = (kind, share, name)
    if best[2] in geo.MOUNTAIN_AREAS:
        h.attrs["mountain"] = "yes"
    else:
        h.attrs.pop("mountain", None)
    return best[0]


# -- places -------------------------------------------------------------------------------
def place_cities(tf: Fitted, hexes: dict[str, Hex]) -> None:
    """Cities and towns (2.0 .. 15.2): where the rules number a hex, there; otherwise the
    hex the fit puts the place in, moved to the nearest land hex of the map if needed."""
    taken: dict[str, str] = {}
    for name, lon, lat, kind, hid, ref in geo.PLACES:
        if not hid:
            col, row = FRAME.hex_at(*tf.to_frame(lon, lat))
            hid = FRAME.label(col, row) if FRAME.on_map(col, row) else ""
            if hid not in hexes or hexes[hid].terrain in ("sea", "lake") or hid in taken:
                hid = nearest_land(tf, lon, lat, hexes, taken)
        h = hexes[hid]
        if hid in taken:
            raise ValueError(f"{name} and {taken[hid]} both in {hid}")
        if h.country != "soviet":
            continue  # the map shows Soviet places only (supply sources, 5.2 D)
        taken[hid] = name
        h.attrs["place"] = name
        h.attrs["oilfield" if kind == "oilfield" else "settlement"] = \
            "yes" if kind == "oilfield" else kind
        if ref:
            h.rule(ref)
        vp = geo.VICTORY_POINTS.get(name)
        if vp:
            h.attrs["vp"] = str(vp[0])
            h.rule(vp[1])
        if kind == "city":
            h.terrain = "clear"  # 9.16 A: all cities are on clear terrain
            h.attrs.pop("mountain", None)
    for hid, (name, ref) in geo.PORTS.items():
        assert hexes[hid].attrs.get("place") == name, (hid, name)
        hexes[hid].attrs["port"] = "yes"
        hexes[hid].rule(ref)


def nearest_land(tf: Fitted, lon: float, lat: float, hexes: dict[str, Hex],
                 taken: dict[str, str]) -> str:
    fx, fy = tf.to_frame(lon, lat)
    best = min((((FRAME.centre_of(hid)[0] - fx) ** 2 + (FRAME.centre_of(hid)[1] - fy) ** 2,
                 hid) for hid, h in hexes.items()
                if h.terrain not in ("sea", "lake") and hid not in taken
                and h.country == "soviet"))
    return best[1]


def mark_features(g: Geo, hexes: dict[str, Hex]) -> None:
    for hid, (what, ref) in geo.FORTIFICATIONS.items():
        hexes[hid].attrs["fortification"] = what
        hexes[hid].rule(ref)
    for line, (hids, ref) in geo.FORTIFIED_LINES.items():
        for hid in hids:
            hexes[hid].attrs["fortified-line"] = line
            hexes[hid].rule(ref)
    for hid in stalin_line(g, hexes):
        hexes[hid].attrs["stalin-line"] = "yes"
        hexes[hid].rule("rules: 9.17")
    for hid in geo.SOUTHERN_ZONE:
        hexes[hid].attrs["weather-zone"] = "southern"
        hexes[hid].rule("rules: 9.1 B")
    hexes[geo.LADOGA_MAIN].attrs["ladoga"] = "main"
    hexes[geo.LADOGA_MAIN].rule("rules: 9.24 C")
    for hid, h in hexes.items():
        col, row = FRAME.offset(hid)
        edges = [e for e, ok in (("east", col == COLUMNS[0]), ("south", row == ROWS[-1]),
                                 ("north", row == ROWS[0])) if ok]
        if edges and h.terrain not in ("sea", "lake"):
            h.attrs["edge"] = " ".join(edges)
            if "east" in edges or "south" in edges:
                h.rule("rules: 4.5.1.4 C")


def stalin_line(g: Geo, hexes: dict[str, Hex]) -> list[str]:
    """9.17: the Stalin Line runs along the 1939 border: the Soviet land hexes on the old
    Soviet side of that border next to a land hex on the other side."""
    old = g.countries[geo.OLD_USSR]
    inside = {hid: old.contains(FRAME.centre_of(hid)) for hid in hexes}
    return sorted(hid for hid, h in hexes.items()
                  if h.country == "soviet" and h.terrain not in ("sea", "lake") and inside[hid]
                  and any(n in hexes and not inside[n] and hexes[n].terrain not in ("sea", "lake")
                          for n in FRAME.neighbours(hid)))


# -- hexsides -----------------------------------------------------------------------------
def build_hexsides(g: Geo, hexes: dict[str, Hex]) -> dict[Side, HexsideInfo]:
    """Water on the hexsides between land hexes (all-sea, partial-land: 5.6; lakes: 9.24),
    rivers routed along the hexsides that follow them (9.9), then the rule-named ones."""
    sides: dict[Side, HexsideInfo] = {}
    land_hexes = sorted(hid for hid, h in hexes.items() if h.terrain not in ("sea", "lake"))
    on_land = set(land_hexes)
    for hid in land_hexes:
        for n in FRAME.neighbours(hid):
            if n not in on_land or n < hid:
                continue
            a, b = FRAME.hexside_segment(hid, n)
            edge = along(a, b, 9)
            across = along(FRAME.centre_of(hid), FRAME.centre_of(n), 12)
            wet = sum(1 for p in edge if g.sea(p)) / len(edge)
            info = HexsideInfo()
            if wet >= ALL_SEA:
                info.attrs["water"] = "all-sea"
            elif wet >= PARTIAL or sum(1 for p in across if g.sea(p)) / len(across) >= PARTIAL:
                info.attrs["water"] = "partial-land"
            for name, lake in g.hexside_lakes.items():
                if lake.share(across) >= LAKE_SIDE and "lake" not in info.attrs:
                    info.attrs["lake"] = name
                    info.rules.append("rules: 9.24 B")
            if info.attrs:
                sides[side(hid, n)] = info
    graph = vertex_graph(FRAME, land_hexes)
    for rid in sorted(g.rivers):
        name, kind = geo.RIVERS[rid]
        for course in river_courses(g.rivers[rid]):
            line = Polyline(course)
            if line.length < MIN_RIVER_HEXES:
                continue
            for sd in route_line(FRAME, line, graph, set()):
                info = sides.setdefault(sd, HexsideInfo())
                if info.attrs.get("water") == "all-sea" or "lake" in info.attrs:
                    continue
                if info.attrs.get("river") == "major" and kind == "minor":
                    continue
                info.attrs["river"] = kind
                info.attrs["river-name"] = name
    for (a, b), (feature, ref) in geo.FORCED_HEXSIDES.items():
        info = sides.setdefault(side(a, b), HexsideInfo())
        for k in ("river", "river-name", "lake", "water"):
            info.attrs.pop(k, None)
        if feature == "kerch":
            info.attrs["water"] = "all-sea"
            info.attrs["strait"] = "kerch"
        else:
            info.attrs["sivash"] = "yes"
        info.rules = [ref]
    return {sd: i for sd, i in sorted(sides.items()) if i.attrs}


def mark_coasts(hexes: dict[str, Hex], sides: dict[Side, HexsideInfo]) -> None:
    """A coastal hex (5.13, 5.18, 10.1) touches a sea hex or an all-sea or partial-land
    hexside; it names the seas it touches."""
    for hid, h in hexes.items():
        if h.terrain in ("sea", "lake"):
            continue
        seas = {hexes[n].water for n in FRAME.neighbours(hid)
                if n in hexes and hexes[n].terrain == "sea"}
        for n in FRAME.neighbours(hid):
            info = sides.get(side(hid, n))
            if info and info.attrs.get("water") in ("all-sea", "partial-land") \
                    and "sivash" not in info.attrs:
                ends = set(FRAME.neighbours(hid)) & set(FRAME.neighbours(n))
                seas |= {hexes[x].water for x in sorted(ends)
                         if x in hexes and hexes[x].terrain == "sea"}
        if hid in geo.NOT_COASTAL:
            h.rule(geo.NOT_COASTAL[hid])
            continue
        if hid in geo.FORCED_COASTS:
            seas.add(geo.FORCED_COASTS[hid][0])
            h.rule(geo.FORCED_COASTS[hid][1])
        if seas:
            h.attrs["coast"] = " ".join(sorted(seas))


# -- output -------------------------------------------------------------------------------
def generate() -> str:
    tf = fit()
    g = Geo(tf)
    hexes = build_hexes(tf, g)
    place_cities(tf, hexes)
    mark_features(g, hexes)
    sides = build_hexsides(g, hexes)
    mark_coasts(hexes, sides)
    return write_xml(tf, hexes, sides)


HEX_ORDER = ("terrain", "water", "country", "mountain", "place", "settlement", "oilfield", "vp",
             "port", "fortification", "fortified-line", "stalin-line", "zomo", "protruding",
             "weather-zone", "ladoga", "coast", "edge")


def _q(v: str) -> str:
    return v.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def write_xml(tf: Fitted, hexes: dict[str, Hex], sides: dict[Side, HexsideInfo]) -> str:
    out = ["<?xml version='1.0' encoding='utf-8'?>",
           "<!-- Generated by adjudicator/games/blitzkrieg/tools/gen_map.py from Natural Earth "
           "data (public domain). Do not edit by hand. -->",
           f'<map xmlns="{NS}" kind="hexes" source="reconstructed" first-column="1" '
           f'last-column="{COLUMNS[-1]}" first-row="A" last-row="DD" '
           f'edges="east: column 1; south: row DD; north: row A; west: the ZOMO" '
           f'miles-per-hex="45" projection="{_q(describe(tf))}" credit="{_q(CREDIT)}">',
           '  <grid orientation="pointy" shifted="even" numbering="LN" first-row="1" '
           'source="rules: 1.2, 5.4, 5.15 D; reconstructed"/>']
    for hid in sorted(hexes, key=lambda k: (FRAME.offset(k)[1], FRAME.offset(k)[0])):
        h = hexes[hid]
        attrs = {"terrain": h.terrain, "water": h.water, "country": h.country, **h.attrs}
        text = " ".join(f'{k}="{_q(attrs[k])}"' for k in HEX_ORDER if attrs.get(k))
        src = "; ".join([*h.rules, "reconstructed"]) if h.rules else "reconstructed"
        out.append(f'  <hex id="{hid}" {text} source="{src}"/>')
    order = ("water", "strait", "sivash", "lake", "river", "river-name")
    for (a, b), info in sides.items():
        text = " ".join(f'{k}="{_q(info.attrs[k])}"' for k in order if k in info.attrs)
        src = "; ".join([*info.rules, "reconstructed"]) if info.rules else "reconstructed"
        out.append(f'  <hexside a="{a}" b="{b}" {text} source="{src}"/>')
    out.append("</map>")
    return "\n".join(out) + "\n"


def describe(tf: Fitted) -> str:
    return (f"{PROJECTION.describe()} -> frame = a*(x + iy) + b with a = {tf.a:.7f}, "
            f"b = {tf.b:.4f} (x, y km east/north; frame x = column (+0.5 on rows B, D, ...), "
            f"y = row*sqrt(3)/2); {tf.km_per_hex / 1.609344:.2f} miles per hex, rotation "
            f"{tf.rotation_deg:.2f} deg")


# -- a preview for the eye (not part of the module) -------------------------------------
COLOURS = {"clear": "#efe8c8", "broken": "#c4a27a", "forest": "#8fbf77", "marsh": "#a8cdb8",
           "sea": "#9cc3e6", "lake": "#b8d8f0"}
ZOMO_TINT = {"germany": "#777777", "hungary": "#a0a0d0", "romania": "#d0d080"}


def preview_svg(text: str, px: float = 30.0) -> str:
    """The map as an SVG drawn from map.xml's text: terrain, ZOMO, places, forts, the
    Stalin Line and the hexsides (rivers blue, lakes and sea pale, Kerch and Sivash red);
    east is to the right, as on the printed map."""
    from lxml import etree

    root = etree.fromstring(text.encode("utf-8"))
    width = (COLUMNS[-1] + 2) * px

    def pt(p: Point) -> tuple[float, float]:
        return width - (p[0] + 0.5) * px, (p[1] + 1) * px  # numbers grow westward

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
           f'height="{(ROWS[-1] + 2) * SQ3 / 2 * px:.0f}" font-family="sans-serif">']
    for el in root.iter(f"{{{NS}}}hex"):
        col, row = FRAME.offset(el.get("id"))
        fill = ZOMO_TINT.get(el.get("zomo", ""), COLOURS[el.get("terrain")])
        ring = " ".join(f"{x:.1f},{y:.1f}" for x, y in map(pt, FRAME.corners(col, row)))
        stroke = "#c00000" if el.get("fortified-line") or el.get("fortification") else "#999"
        out.append(f'<polygon points="{ring}" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="{2 if stroke != "#999" else 0.5}"/>')
        x, y = pt(FRAME.centre(col, row))
        if el.get("stalin-line"):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{px / 3:.1f}" fill="none" '
                       f'stroke="#803030" stroke-dasharray="2,2"/>')
        if el.get("weather-zone"):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{px / 2.4:.1f}" fill="none" '
                       f'stroke="#e08000"/>')
        label = el.get("place") or ""
        if label:
            size = 8 if el.get("settlement") == "city" or el.get("vp") else 5
            out.append(f'<rect x="{x - 2:.1f}" y="{y - 2:.1f}" width="4" height="4"/>'
                       f'<text x="{x:.1f}" y="{y + size + 2:.1f}" font-size="{size}" '
                       f'text-anchor="middle">{_q(label)}</text>')
        out.append(f'<text x="{x:.1f}" y="{y - px / 4:.1f}" font-size="5" fill="#555" '
                   f'text-anchor="middle">{el.get("id")}</text>')
    for el in root.iter(f"{{{NS}}}hexside"):
        a, b = (pt(p) for p in FRAME.hexside_segment(el.get("a"), el.get("b")))
        colour, w = "#2060c0", 1.5 if el.get("river") == "minor" else 3.0
        if el.get("lake"):
            colour, w = "#70b0ff", 4.0
        if el.get("water") == "all-sea":
            colour, w = "#9cc3e6", 4.0
        if el.get("strait") or el.get("sivash"):
            colour, w = "#e00000", 4.0
        if el.get("water") == "partial-land" and not el.get("river"):
            colour, w = "#9cc3e6", 1.5
        out.append(f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" '
                   f'stroke="{colour}" stroke-width="{w}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- geodata extraction -------------------------------------------------------------------
EXTRACT_BOX = (18.0, 42.0, 47.0, 62.0)


def extract(src: Path) -> None:
    """Clipped copies of the Natural Earth files the generator reads (tools/geodata)."""
    from shapely.geometry import box, mapping, shape

    clip = box(*EXTRACT_BOX)

    def write(name: str, feats: list[tuple[dict[str, Any], Any]]) -> None:
        out = {"type": "FeatureCollection",
               "credit": f"{CREDIT}; clipped and simplified by "
                         "adjudicator/games/blitzkrieg/tools/gen_map.py",
               "features": [{"type": "Feature", "properties": p,
                             "geometry": _rounded(mapping(gm))} for p, gm in feats]}
        (GEO_DIR / name).write_text(json.dumps(out, separators=(",", ":")) + "\n")

    land = [({}, shape(f["geometry"]).intersection(clip).simplify(0.004))
            for f in load_features(src / "ne_50m_land.geojson")
            if shape(f["geometry"]).intersects(clip)]
    write("land.geojson", [(p, gm) for p, gm in land if not gm.is_empty])
    lakes = []
    for f in load_features(src / "ne_10m_lakes.geojson"):
        name = geo.LAKE_NAMES.get(f["properties"].get("name") or "")
        if name:
            lakes.append(({"name": name}, shape(f["geometry"]).simplify(0.004)))
    write("lakes.geojson", lakes)


def _rounded(gm: dict[str, Any]) -> dict[str, Any]:
    def rnd(c: Any) -> Any:
        if isinstance(c[0], (int, float)):
            return [round(c[0], 3), round(c[1], 3)]
        return [rnd(x) for x in c]

    return {"type": gm["type"], "coordinates": rnd(gm["coordinates"])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with data/map.xml")
    ap.add_argument("--extract", type=Path, help="refresh tools/geodata from Natural Earth")
    ap.add_argument("--svg", type=Path, help="also draw data/map.xml as an SVG preview")
    args = ap.parse_args(argv)
    if args.extract:
        extract(args.extract)
        return 0
    if args.svg:
        args.svg.write_text(preview_svg(OUT_XML.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote {args.svg}")
        return 0
    text = generate()
    if args.check:
        same = OUT_XML.read_text(encoding="utf-8") == text
        print("map.xml is up to date" if same else "map.xml differs from the generator")
        return 0 if same else 1
    OUT_XML.write_text(text, encoding="utf-8")
    print(f"wrote {OUT_XML}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
