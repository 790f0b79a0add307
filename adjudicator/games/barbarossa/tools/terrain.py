"""The hexes of the 1941: Operation Barbarossa map: the geography carried into the hex
frame, each hex classified as water (6.0 A: a sea or lake covering most of it) or land of
a terrain and a 22 June 1941 country, the cities placed, and the marks the rules read
(supply sources 8.2, coastal hexes, the Finnish limit of 15.2.2 B)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shapely.geometry import LineString, Polygon, box, shape
from shapely.ops import unary_union

from adjudicator.mapgen.geojson import load_features
from adjudicator.mapgen.projection import Fitted
from adjudicator.mapgen.shapes import drop_degenerate, to_frame

from . import geography as g
from .geography import FRAME

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
SHARED_GEO_DIR = ROOT / "tools" / "geodata"  # land and lakes, shared with the other maps
GEO_DIR = HERE / "geodata"  # this map's own rivers and seas
Side = tuple[str, str]


def load(name: str) -> list[tuple[dict[str, Any], Any]]:
    path = GEO_DIR / name if (GEO_DIR / name).is_file() else SHARED_GEO_DIR / name
    return [(f["properties"], drop_degenerate(shape(f["geometry"])))
            for f in load_features(path)]


def to_frame_geom(geom: Any, tf: Fitted) -> Any:
    """A lon/lat geometry in the map frame (densified first so long edges bend)."""
    return to_frame(geom, tf.to_frame, segment=0.1)


@dataclass
class HexInfo:
    col: int
    row: int
    terrain: str = "clear"
    country: str = ""
    water: str = ""  # name of the sea or lake of a water hex
    city: str = ""
    city_class: str = ""
    sources: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    fortification: str = ""
    rail_exit: str = ""
    supply: str = ""
    coastal: bool = False
    finnish_limit: str = ""

    @property
    def id(self) -> str:
        return FRAME.label(self.col, self.row)

    @property
    def is_water(self) -> bool:
        return self.terrain in ("sea", "lake")


@dataclass
class Geo:
    """The geography in the map frame."""

    land: Any
    lakes: list[tuple[str, Any]]
    seas: list[tuple[str, Any]]
    countries: dict[str, Any]
    terrain: list[tuple[str, str, Any]]
    rivers: dict[str, Any]
    canals: dict[str, Any]


def load_geo(tf: Fitted) -> Geo:
    frame = box(-2, -2, 40, 32)
    land_ll = unary_union([geom for _, geom in load("land.geojson")])
    lakes_ll = [(p["name"], geom) for p, geom in load("lakes.geojson")]
    land = to_frame_geom(land_ll.intersection(box(10, 38, 55, 68)), tf).intersection(frame)
    lakes = [(n, to_frame_geom(geom, tf).intersection(frame)) for n, geom in lakes_ll
             if geom.intersects(box(10, 38, 55, 68))]
    lakes = [(n, geom) for n, geom in lakes if not geom.is_empty]
    land = land.difference(unary_union([geom for _, geom in lakes]))
    seas = [(p["name"], to_frame_geom(geom, tf)) for p, geom in load("seas.geojson")]
    countries = {k: to_frame_geom(Polygon(v).buffer(0), tf) for k, v in g.COUNTRIES.items()}
    terrain = [(kind, name, to_frame_geom(Polygon(c).buffer(0), tf))
               for kind, name, c in g.TERRAIN_AREAS]
    rivers, canals = {}, {}
    for p, geom in load("rivers.geojson"):
        (canals if p["id"] in g.CANALS else rivers)[p["id"]] = to_frame_geom(geom, tf)
    rivers["lovat"] = to_frame_geom(LineString(g.LOVAT), tf)
    return Geo(land, lakes, seas, countries, terrain, rivers, canals)


def water_name(poly: Any, geo: Geo, lonlat: tuple[float, float]) -> tuple[str, str]:
    """(terrain, name) of a water hex: the lake covering most of it, else the sea.  The
    Sea of Azov, the Gulf of Riga and the Gulf of Onega are not separate Natural Earth
    seas, so they are told apart by position."""
    lake_best = max(((lake.intersection(poly).area, n) for n, lake in geo.lakes),
                    default=(0, ""))
    water = poly.difference(geo.land)
    lake_area = sum(lake.intersection(poly).area for _, lake in geo.lakes)
    if lake_best[0] > 0 and lake_area >= 0.5 * water.area:
        name = lake_best[1]
        if name == "Sivash":
            return "sea", "Sea of Azov"
        return "lake", name
    lon, lat = lonlat
    if 34.8 < lon < 39.6 and 45.25 < lat < 47.4:
        return "sea", "Sea of Azov"
    if 21.8 < lon < 24.6 and 56.9 < lat < 58.6:
        return "sea", "Gulf of Riga"
    c = poly.centroid
    best = min(((sea.distance(c), n) for n, sea in geo.seas), default=(0, "Baltic Sea"))[1]
    if best == "White Sea" and lon < 37.9 and lat < 65.0:
        return "sea", "Gulf of Onega"
    return "sea", best


def build_hexes(tf: Fitted, geo: Geo) -> dict[str, HexInfo]:
    hexes: dict[str, HexInfo] = {}
    forced_land = set(g.RULE_CITY_HEXES.values()) | set(g.RULE_HEXES)
    city_hexes = {FRAME.label(*FRAME.hex_at(*tf.to_frame(lon, lat))): name
                  for name, lon, lat, _ in g.CITIES}
    for col, row in FRAME:
        poly = FRAME.polygon(col, row)
        info = HexInfo(col, row)
        land = geo.land.intersection(poly)
        lonlat = tf.to_lonlat(*FRAME.centre(col, row))
        share = land.area / poly.area
        if share < 0.5 and info.id not in forced_land and not (
                share >= g.CITY_LAND_SHARE and city_hexes.get(info.id)):
            info.terrain, info.water = water_name(poly, geo, lonlat)
            info.sources.append("reconstructed")
            hexes[info.id] = info
            continue
        if land.area < 0.05 * poly.area:  # a forced hex with almost no land
            land = poly
        shares = {k: c.intersection(land).area for k, c in geo.countries.items()}
        country, share = max(shares.items(), key=lambda kv: kv[1])
        info.country = country if share >= 0.5 * land.area else "soviet"
        if info.country in g.NEUTRAL:
            continue
        info.terrain = pick_terrain(land, geo)
        info.sources.append("reconstructed")
        hexes[info.id] = info
    return hexes


def pick_terrain(land: Any, geo: Geo) -> str:
    cover: dict[str, float] = defaultdict(float)
    for kind, _, area in geo.terrain:
        cover[kind] += area.intersection(land).area
    order = {"rough": 0, "swamp": 1, "forest": 2}
    best = sorted(cover.items(), key=lambda kv: (-round(kv[1], 6), order[kv[0]]))
    if best and best[0][1] >= g.TERRAIN_SHARE * land.area:
        return best[0][0]
    return "clear"


def place_cities(tf: Fitted, hexes: dict[str, HexInfo]) -> list[str]:
    """Cities in their hexes; the first listed wins a shared hex.  Returns notes about
    cities that fell on water or off the map or lost their hex."""
    notes = []
    for name, lon, lat, klass in g.CITIES:
        hid = g.RULE_CITY_HEXES.get(name) or FRAME.label(*FRAME.hex_at(*tf.to_frame(lon, lat)))
        h = hexes.get(hid)
        if h is None or h.is_water:
            if h is not None and h.is_water:
                notes.append(f"{name}: hex {hid} is water, city left out")
            continue
        if h.city:
            notes.append(f"{name}: shares hex {hid} with {h.city}, left out")
            continue
        h.city, h.city_class = name, klass
        if name in g.RULE_CITY_SOURCES:
            h.sources.insert(0, g.RULE_CITY_SOURCES[name])
    for hid, (note, src) in g.RULE_HEXES.items():
        hexes[hid].notes.append(note)
        hexes[hid].sources.insert(0, src)
    for hid, src in g.FORTIFICATIONS.items():
        hexes[hid].fortification = "yes"
        if src not in hexes[hid].sources:
            hexes[hid].sources.insert(0, src)
    return notes


def mark_finnish_limit(tf: Fitted, hexes: dict[str, HexInfo]) -> None:
    for h in hexes.values():
        if h.is_water or h.country != "soviet":
            continue
        lon, lat = tf.to_lonlat(*FRAME.centre(h.col, h.row))
        if lon > g.SVIR_MOUTH_LON and lat < g.svir_latitude(lon):
            h.finnish_limit = "south-of-svir"
        elif lon > g.CANAL_LON and lat >= g.SVIR_LAT:
            h.finnish_limit = "east-of-canal"
    for hid, zone in g.FINNISH_LIMIT_EXAMPLE.items():
        hexes[hid].finnish_limit = zone
        hexes[hid].sources.insert(0, "rules: 15.2.2 B")


def mark_supply(hexes: dict[str, HexInfo]) -> None:
    for h in hexes.values():
        if h.rail_exit == "west":
            h.supply = "axis"  # 8.2.1 A
        elif h.rail_exit == "east":
            h.supply = "soviet"  # 8.2.2 A
    hexes["0416"].supply = "finnish"  # 8.2.1 B, 15.2.5


def mark_coastal(hexes: dict[str, HexInfo], waters: dict[Side, tuple[str, str]]) -> None:
    for h in hexes.values():
        if h.is_water:
            continue
        for n in FRAME.neighbours(h.id):
            if n in hexes and hexes[n].terrain == "sea":
                h.coastal = True
        for (a, b), (kind, _) in waters.items():
            if kind == "all-sea" and h.id in (a, b):
                h.coastal = True
