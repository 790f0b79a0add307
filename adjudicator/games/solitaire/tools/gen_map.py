#!/usr/bin/env python3
"""Reconstruct the Barbarossa Solitaire area map as module XML.

The printed map of the game is not available, so the map is rebuilt from real
geography (Natural Earth, public domain):

* land = ``ne_50m_land`` minus the large natural lakes (Ladoga, Onega, Peipus, ...;
  post-1941 reservoirs are not used), projected with an equidistant conic
  projection into a pixel frame 1600 px wide;
* the land is cut into game areas, neutral countries and "not in play" land by a
  Voronoi tessellation of seed points.  Every area has a main seed and may have
  hidden seeds (an area is the union of its cells).  Where a real 1941 border is
  wanted (the Molotov-Ribbentrop line, the 1940 Finnish border, the Prut, the
  Vienna-award line, the Caucasus crest, ...) a border polyline is given in
  lon/lat; it is turned into pairs of seeds just left and right of the line, so
  the Voronoi edge between the two sides runs along the polyline;
* two areas are adjacent when they share a land border longer than
  ``MIN_BORDER_PX``; an explicit override list (``ADJ_ADD`` / ``ADJ_REMOVE``)
  then adds or removes pairs for game sense.

This is a development tool (needs shapely, scipy and numpy: ``pip install -e
'.[dev]'``); the generated ``adjudicator/games/solitaire/data/map.xml`` is committed.
It reads only the clipped copies in ``tools/geodata``, which the 1941 generator shares
(refresh them with ``--extract DIR``).

    python3 -m adjudicator.games.solitaire.tools.gen_map        # regenerate map.xml
    python3 -m adjudicator.games.solitaire.tools.gen_map --preview out.png
    python3 -m adjudicator.games.solitaire.tools.gen_map --extract /path/to/natural-earth-geojson
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from lxml import etree

from adjudicator.games.solitaire.tools.check_map import check

try:  # the development tools; without them the module still imports (for the doctests)
    import shapely
    from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box, shape
    from shapely.ops import nearest_points, polylabel, unary_union
except ImportError:  # pragma: no cover - `pip install -e '.[dev]'`
    shapely = None

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent.parent.parent
GEO_DIR = ROOT / "tools" / "geodata"
DATA_DIR = PACKAGE / "data"
OUT_XML = DATA_DIR / "map.xml"
NS = "urn:pbem:module:1"
# The files this tool writes name it by its former path: map.xml is part of module
# 1.0.0, whose bytes the journals name, and the geodata credit is in the 1941 map's too.
WRITTEN_BY = "tools/gen_solitaire_map.py"

# --------------------------------------------------------------------------
# Projection: equidistant conic, standard parallels 45 N and 62 N, central
# meridian 37 E (Moscow).  Frame in projected degrees of arc (y up).
# --------------------------------------------------------------------------
LON0, PAR1, PAR2 = 37.0, 45.0, 62.0
FRAME_X0, FRAME_X1 = -16.6, 15.2  # left edge ~ 8 E at 55 N, right edge ~ 63 E at 55 N
FRAME_Y0, FRAME_Y1 = -56.6, -28.5  # bottom ~ 38.9 N, top ~ 67.3 N on the central meridian
WIDTH = 1600
SCALE = WIDTH / (FRAME_X1 - FRAME_X0)  # pixels per degree of arc
HEIGHT = round((FRAME_Y1 - FRAME_Y0) * SCALE)

_P1, _P2 = math.radians(PAR1), math.radians(PAR2)
_N = (math.cos(_P1) - math.cos(_P2)) / (_P2 - _P1)
_G = math.cos(_P1) / _N + _P1

PROJECTION_TEXT = (
    f"equidistant conic, standard parallels {PAR1:g}N and {PAR2:g}N, central meridian "
    f"{LON0:g}E; {SCALE:.2f} px per degree of arc; x right, y down"
)


def project(lon: float, lat: float) -> tuple[float, float]:
    rho = _G - math.radians(lat)
    theta = _N * math.radians(lon - LON0)
    x = math.degrees(rho * math.sin(theta))
    y = -math.degrees(rho * math.cos(theta))
    return (x - FRAME_X0) * SCALE, (FRAME_Y1 - y) * SCALE


def project_geom(geom):
    def fn(coords):
        import numpy as np

        out = np.empty_like(coords)
        for i, (lon, lat) in enumerate(coords):
            out[i] = project(lon, lat)
        return out

    return shapely.transform(geom, fn)


FRAME = box(0, 0, WIDTH, HEIGHT) if shapely is not None else None

# --------------------------------------------------------------------------
# Areas.  start-side, romanian-allowed, name, main seed (lon, lat) and hidden
# seeds.  The main seed is also the default label anchor region.
# --------------------------------------------------------------------------
G, S = "german", "soviet"
AREAS: dict[str, dict] = {
    # --- German side (grey) ---
    "berlin": dict(name="Berlin", side=G, rom=False, seed=(12.6, 52.3),
                   hidden=[(11.0, 51.0), (12.0, 53.6), (12.3, 49.5), (9.6, 54.3), (9.5, 52.5)]),
    "prague": dict(name="Prague", side=G, rom=False, seed=(15.2, 49.8), hidden=[]),
    "silesia": dict(name="Silesia", side=G, rom=False, seed=(16.8, 52.2),
                    hidden=[(16.4, 51.0), (15.8, 53.7), (18.3, 53.6), (18.9, 50.3)]),
    "konigsberg": dict(name="Konigsberg", side=G, rom=False, seed=(21.0, 54.1),
                       hidden=[(20.4, 53.0), (22.6, 54.0), (21.5, 55.5)]),
    "warsaw": dict(name="Warsaw", side=G, rom=False, seed=(21.2, 51.5),
                   hidden=[(22.8, 51.0), (20.3, 50.4)]),
    "slovakia": dict(name="Slovakia", side=G, rom=False, seed=(19.4, 48.8), hidden=[]),
    "budapest": dict(name="Budapest", side=G, rom=False, seed=(19.6, 47.2),
                     hidden=[(23.6, 47.2), (23.0, 48.3), (25.3, 46.3)]),
    "slovenia": dict(name="Slovenia", side=G, rom=True, seed=(16.2, 45.4),
                     hidden=[(17.6, 44.3), (16.2, 43.6), (18.0, 43.0)]),
    "belgrade": dict(name="Belgrade", side=G, rom=True, seed=(20.8, 44.0),
                     hidden=[(20.0, 45.5), (19.3, 42.8), (21.4, 41.7), (20.8, 42.6)]),
    "bucharest": dict(name="Bucharest", side=G, rom=True, seed=(25.2, 44.9),
                      hidden=[(27.0, 46.8), (21.9, 45.5), (28.3, 44.5), (23.8, 45.9),
                              (26.0, 47.6)]),
    # --- Soviet side (white) ---
    "estonia": dict(name="Estonia", side=S, rom=False, seed=(25.8, 58.8),
                    hidden=[(22.5, 58.4), (22.7, 58.9)]),
    "kurland": dict(name="Kurland", side=S, rom=False, seed=(24.5, 56.2),
                    hidden=[(22.0, 56.8), (25.4, 55.0), (23.5, 55.3), (27.0, 56.5)]),
    "leningrad": dict(name="Leningrad", side=S, rom=False, seed=(30.4, 59.4),
                      hidden=[(29.2, 60.6), (29.2, 58.8), (32.6, 59.5), (28.7, 57.9),
                              (30.0, 61.0), (31.4, 58.8)]),
    "arkangel": dict(name="Arkangel", side=S, rom=False, seed=(40.0, 63.3),
                     hidden=[(34.0, 62.5), (33.5, 65.0), (32.7, 61.2), (31.2, 62.0),
                             (35.8, 61.0), (45.5, 65.0), (36.0, 67.5), (43.5, 62.0),
                             (48.0, 66.5)]),
    "velikje-luki": dict(name="Velikje Luki", side=S, rom=False, seed=(30.6, 56.3),
                         hidden=[(29.0, 56.7)]),
    "demyansk": dict(name="Demyansk", side=S, rom=False, seed=(32.5, 57.6),
                     hidden=[(33.8, 58.4), (31.3, 57.8)]),
    "kalinin": dict(name="Kalinin", side=S, rom=False, seed=(35.6, 56.8),
                    hidden=[(34.1, 56.2), (37.3, 57.7)]),
    "minsk": dict(name="Minsk", side=S, rom=False, seed=(26.6, 53.8),
                  hidden=[(23.8, 53.1), (28.6, 55.5), (25.4, 53.4)]),
    "pripet": dict(name="Pripet", side=S, rom=False, seed=(27.6, 52.0),
                   hidden=[(24.6, 52.0), (29.6, 51.9), (26.0, 51.4), (30.8, 52.4)]),
    "lvov": dict(name="Lvov", side=S, rom=False, seed=(24.6, 49.7),
                 hidden=[(24.9, 50.9), (26.1, 50.5), (25.9, 48.3), (26.5, 49.4),
                         (23.5, 49.3)]),
    "kiev": dict(name="Kiev", side=S, rom=False, seed=(30.5, 50.2),
                 hidden=[(28.6, 50.3), (28.6, 49.2), (32.3, 50.6), (31.8, 49.4)]),
    "odessa": dict(name="Odessa", side=S, rom=True, seed=(30.2, 47.0),
                   hidden=[(28.6, 47.0), (27.9, 48.1), (29.0, 45.8), (32.2, 47.0), (30.5, 46.3),
                           (30.0, 48.2)]),
    "sevastopol": dict(name="Sevastopol", side=S, rom=True, seed=(34.1, 45.1),
                       hidden=[(33.4, 45.4), (35.9, 45.3)]),
    "smolensk": dict(name="Smolensk", side=S, rom=False, seed=(32.4, 54.6),
                     hidden=[(30.2, 55.1), (30.2, 53.9), (34.3, 55.1)]),
    "bryansk": dict(name="Bryansk", side=S, rom=False, seed=(34.2, 53.0),
                    hidden=[(32.3, 52.6), (36.0, 52.9)]),
    "moscow": dict(name="Moscow", side=S, rom=False, seed=(37.7, 55.7),
                   hidden=[(39.2, 55.7)]),
    "tula": dict(name="Tula", side=S, rom=False, seed=(37.6, 54.0),
                 hidden=[(39.8, 54.4)]),
    "kursk": dict(name="Kursk", side=S, rom=False, seed=(36.3, 51.7),
                  hidden=[(34.6, 51.4), (37.8, 51.2)]),
    "voronezh": dict(name="Voronezh", side=S, rom=False, seed=(39.4, 51.6),
                     hidden=[(41.0, 52.4), (40.2, 50.4)]),
    "kharkov": dict(name="Kharkov", side=S, rom=True, seed=(36.1, 50.1),
                    hidden=[(34.3, 49.8), (37.8, 50.5)]),
    "izyum": dict(name="Izyum", side=S, rom=True, seed=(37.5, 49.2),
                  hidden=[(37.7, 48.0), (37.5, 47.2)]),
    "dnepropetrovsk": dict(name="Dnepropetrovsk", side=S, rom=True, seed=(34.8, 48.2),
                           hidden=[(33.6, 47.7), (35.3, 47.0), (33.8, 46.5), (34.9, 47.6)]),
    "rostov": dict(name="Rostov", side=S, rom=True, seed=(40.1, 47.4),
                   hidden=[(39.4, 48.5), (41.3, 46.6), (38.9, 46.7), (40.3, 46.1)]),
    "don": dict(name="Don", side=S, rom=True, seed=(42.3, 49.0),
                hidden=[(41.2, 50.1), (42.4, 48.0)]),
    "stalingrad": dict(name="Stalingrad", side=S, rom=True, seed=(44.9, 48.6),
                       hidden=[(45.6, 49.8), (44.2, 47.6), (46.0, 48.6)]),
    "astrakhan": dict(name="Astrakhan", side=S, rom=True, seed=(47.3, 46.6),
                      hidden=[(45.6, 46.2), (49.5, 47.3), (48.0, 45.5)]),
    "grozny": dict(name="Grozny", side=S, rom=True, seed=(45.4, 43.7),
                   hidden=[(42.2, 45.0), (43.6, 43.6), (47.2, 42.6), (44.4, 44.8)]),
    "maikop": dict(name="Maikop", side=S, rom=True, seed=(39.6, 44.9),
                   hidden=[(37.8, 45.1), (40.8, 45.0), (39.0, 44.2)]),
    "baku": dict(name="Baku", side=S, rom=True, seed=(45.2, 41.4),
                 hidden=[(42.3, 42.2), (41.0, 43.0), (44.8, 40.2), (49.5, 40.4),
                         (45.4, 39.2), (48.7, 38.9), (47.5, 40.5)]),
    "gorky": dict(name="Gorky", side=S, rom=False, seed=(43.8, 56.1),
                  hidden=[(41.0, 56.6), (44.2, 55.3), (44.0, 57.4)]),
    "vologda": dict(name="Vologda", side=S, rom=False, seed=(40.2, 59.5),
                    hidden=[(38.2, 58.0), (42.5, 58.7), (45.5, 60.5), (36.8, 59.6)]),
    "kazan": dict(name="Kazan", side=S, rom=False, seed=(49.0, 55.8),
                  hidden=[(47.2, 56.1), (48.5, 57.3), (49.6, 58.6)]),
    "kuibyshev": dict(name="Kuibyshev", side=S, rom=False, seed=(50.3, 53.3),
                      hidden=[(48.3, 54.2), (45.4, 53.2)]),
    "saratov": dict(name="Saratov", side=S, rom=False, seed=(46.2, 51.5),
                    hidden=[(43.9, 52.3), (48.6, 50.6)]),
    "siberia": dict(name="Siberia", side=S, rom=False, seed=(58.0, 56.5),
                    hidden=[(52.0, 61.0), (56.2, 58.0), (55.9, 54.6), (55.1, 51.8),
                            (53.5, 49.3), (57.5, 48.5), (60.5, 48.5), (55.0, 64.5),
                            (60.5, 62.0)]),
}

# Neutral land (not game areas), drawn as background.
NEUTRALS: dict[str, dict] = {
    "finland": dict(name="Finland", seeds=[(26.0, 63.0), (24.0, 61.0), (28.0, 65.5),
                                           (20.0, 60.2), (27.5, 61.2)]),
    "sweden": dict(name="Sweden", seeds=[(15.0, 60.0), (18.0, 64.0), (14.0, 57.0),
                                         (18.5, 57.5), (16.5, 56.7), (18.0, 59.5),
                                         (13.5, 55.8)]),
    "norway": dict(name="Norway", seeds=[(11.0, 64.5), (10.0, 61.0), (14.5, 66.5)]),
    "denmark": dict(name="Denmark", seeds=[(11.8, 55.5), (14.9, 55.1), (9.5, 56.2),
                                           (12.2, 54.8)]),
    "austria": dict(name="Austria", seeds=[(14.5, 47.5), (12.0, 47.3)]),
    "italy": dict(name="Italy", seeds=[(12.5, 44.0), (16.0, 41.0), (13.0, 45.9),
                                       (14.0, 45.3)]),
    "albania": dict(name="Albania", seeds=[(20.0, 41.0)]),
    "greece": dict(name="Greece", seeds=[(22.5, 39.5), (25.0, 41.0), (19.85, 39.6),
                                         (26.3, 39.2), (24.0, 38.5)]),
    "bulgaria": dict(name="Bulgaria", seeds=[(25.0, 42.7), (27.3, 43.2)]),
    "turkey": dict(name="Turkey", seeds=[(33.0, 39.5), (28.0, 41.5), (41.0, 39.8),
                                         (36.0, 41.0), (27.5, 39.0)]),
    "iran": dict(name="Iran", seeds=[(47.0, 38.2), (45.0, 37.8)]),
    "central-asia": dict(name="Soviet Central Asia (not in play)",
                         seeds=[(56.0, 43.0), (60.0, 41.0), (54.0, 45.5), (53.0, 41.0),
                                (51.6, 44.9), (51.6, 43.6)]),
}

SOVIET = "|".join(k for k, v in AREAS.items() if v["side"] == S)

# --------------------------------------------------------------------------
# Border polylines: (left, right, [(lon, lat), ...]).  "left"/"right" are seen
# walking along the line on a north-up map.  A side may list several areas
# ("a|b"); each seed on that side then goes to the nearest of them.
# All coordinates are approximations of the 22 June 1941 borders drawn from
# general knowledge (Natural Earth has no historical boundaries).
# --------------------------------------------------------------------------
BORDERS: list[tuple[str, str, str, list[tuple[float, float]]]] = [
    ("Oder-Neisse line (Brandenburg/Saxony | Pomerania/Silesia)", "silesia", "berlin",
     [(14.2, 54.05), (14.22, 53.87), (14.25, 53.7), (14.4, 53.45), (14.3, 53.2),
      (14.15, 52.95), (14.55, 52.6), (14.6, 52.3), (14.7, 52.05), (14.75, 51.8),
      (14.95, 51.45), (15.0, 51.15), (14.82, 50.87)]),
    ("Saxony/Bavaria | Bohemia", "prague", "berlin",
     [(14.82, 50.87), (14.3, 50.88), (13.6, 50.72), (13.2, 50.5), (12.6, 50.4),
      (12.1, 50.3), (12.45, 49.9), (12.4, 49.75), (12.6, 49.5), (12.9, 49.35),
      (13.4, 49.05), (13.84, 48.77)]),
    ("Sudetes (Silesia | Bohemia-Moravia)", "silesia", "prague",
     [(14.82, 50.87), (15.0, 51.0), (15.3, 50.9), (15.8, 50.75), (16.1, 50.65),
      (16.2, 50.45), (16.45, 50.15), (16.8, 50.2), (16.95, 50.45), (17.2, 50.38),
      (17.7, 50.3), (17.9, 50.1), (18.05, 50.05), (18.3, 49.95), (18.6, 49.85),
      (18.85, 49.52)]),
    ("Bohemia-Moravia | Austria", "prague", "austria",
     [(13.84, 48.77), (14.05, 48.6), (14.7, 48.6), (15.0, 49.0), (15.5, 48.95),
      (16.1, 48.75), (16.5, 48.8), (16.94, 48.62)]),
    ("Bavaria | Austria", "berlin", "austria",
     [(9.6, 47.55), (10.2, 47.35), (10.5, 47.55), (11.0, 47.4), (11.6, 47.58),
      (12.2, 47.7), (12.8, 47.65), (13.0, 47.47), (13.05, 47.8), (12.85, 48.1),
      (13.0, 48.27), (13.45, 48.55), (13.84, 48.77)]),
    ("Morava (Austria | Slovakia)", "austria", "slovakia",
     [(17.15, 48.0), (16.98, 48.17), (16.87, 48.45), (16.94, 48.62)]),
    ("Moravia | Slovakia", "prague", "slovakia",
     [(16.94, 48.62), (17.2, 48.85), (17.6, 48.85), (17.9, 49.0), (18.15, 49.3),
      (18.55, 49.5), (18.85, 49.52)]),
    ("Beskids (annexed Upper Silesia | Slovakia)", "silesia", "slovakia",
     [(18.85, 49.52), (19.2, 49.4), (19.45, 49.6)]),
    ("Tatra/Beskids (General Government | Slovakia)", "warsaw", "slovakia",
     [(19.45, 49.6), (19.8, 49.22), (20.1, 49.2), (20.6, 49.4), (21.0, 49.4),
      (21.6, 49.43), (22.0, 49.22), (22.56, 49.08)]),
    ("Bieszczady (General Government | Hungarian Ruthenia)", "warsaw", "budapest",
     [(22.56, 49.08), (22.68, 49.02)]),
    ("Reich | General Government", "silesia", "warsaw",
     [(19.45, 49.6), (19.5, 49.85), (19.55, 50.05), (19.75, 50.35), (19.3, 50.6),
      (18.95, 50.8), (19.0, 51.05), (19.3, 51.3), (19.75, 51.55), (19.7, 51.9),
      (19.6, 52.15), (19.9, 52.45)]),
    ("Danzig-West Prussia | East Prussia", "silesia", "konigsberg",
     [(19.9, 52.45), (19.5, 52.8), (19.45, 53.2), (19.6, 53.55), (19.45, 53.9),
      (19.45, 54.2), (19.5, 54.45), (19.3, 54.8)]),
    ("East Prussia (Zichenau) | General Government", "konigsberg", "warsaw",
     [(19.9, 52.45), (20.4, 52.42), (20.9, 52.55), (21.5, 52.68), (22.1, 52.68)]),
    ("German-Soviet line 1939 (East Prussia | Bialystok)", "konigsberg", SOVIET,
     [(22.1, 52.68), (21.95, 52.95), (22.1, 53.2), (22.6, 53.42), (23.1, 53.6),
      (23.5, 53.95)]),
    ("East Prussia and Memel | Lithuania", "konigsberg", "kurland",
     [(23.5, 53.95), (23.45, 54.2), (22.8, 54.38), (22.75, 54.5), (22.85, 54.75),
      (22.8, 54.95), (22.6, 55.07), (22.1, 55.3), (21.6, 55.65), (21.3, 55.8),
      (21.07, 55.87), (20.8, 55.9)]),
    ("German-Soviet line 1939 (Bug, San)", SOVIET, "warsaw",
     [(22.1, 52.68), (22.7, 52.42), (23.2, 52.28), (23.6, 52.1), (23.6, 51.55),
      (23.8, 51.2), (24.1, 50.85), (24.2, 50.5), (23.8, 50.35), (23.3, 50.2),
      (22.9, 50.1), (22.7, 49.98), (22.77, 49.78), (22.45, 49.8), (22.23, 49.78),
      (22.2, 49.56), (22.33, 49.47), (22.55, 49.25), (22.68, 49.02)]),
    ("Carpathians (Hungarian Ruthenia | Galicia, Bukovina)", SOVIET, "budapest",
     [(22.68, 49.02), (23.3, 48.75), (23.9, 48.45), (24.5, 48.15), (24.85, 47.85),
      (25.0, 47.75)]),
    ("First Vienna Award line (Hungary | Slovakia)", "budapest", "slovakia",
     [(22.56, 49.08), (22.2, 49.0), (21.95, 48.8), (21.6, 48.75), (21.25, 48.78),
      (20.8, 48.75), (20.3, 48.6), (19.7, 48.45), (19.2, 48.35), (18.6, 48.35),
      (18.0, 48.3), (17.6, 48.25), (17.25, 48.05), (17.15, 48.0)]),
    ("Austria | Hungary", "austria", "budapest",
     [(16.1, 46.87), (16.45, 47.4), (16.65, 47.6), (16.9, 47.75), (17.05, 48.0),
      (17.15, 48.0)]),
    ("Karawanken (Austria | Yugoslavia)", "austria", "slovenia",
     [(13.7, 46.52), (14.5, 46.43), (15.0, 46.62), (15.65, 46.7), (16.0, 46.68),
      (16.1, 46.87)]),
    ("Austria | Italy", "austria", "italy",
     [(10.5, 46.85), (11.0, 46.77), (11.5, 47.0), (12.2, 47.08), (12.7, 46.65),
      (13.7, 46.52)]),
    ("Rapallo line (Italy | Yugoslavia)", "slovenia", "italy",
     [(13.7, 46.52), (14.0, 46.3), (14.15, 46.0), (14.35, 45.8), (14.4, 45.55),
      (14.45, 45.35), (14.4, 45.2)]),
    ("Drava/Mur (Hungary | Yugoslavia)", "budapest", "slovenia",
     [(16.1, 46.87), (16.4, 46.6), (16.6, 46.47), (16.9, 46.3), (17.3, 46.0),
      (17.7, 45.92), (18.3, 45.77), (18.55, 45.8), (18.9, 45.93)]),
    ("Trianon line (Hungary | Backa, Banat)", "budapest", "belgrade",
     [(18.9, 45.93), (19.5, 46.15), (20.1, 46.17), (20.26, 46.12)]),
    ("Croatia-Bosnia | Serbia-Montenegro (Danube, Drina)", "belgrade", "slovenia",
     [(18.9, 45.93), (19.0, 45.5), (19.4, 45.2), (19.1, 44.95), (19.35, 44.88),
      (19.15, 44.55), (19.5, 44.0), (19.55, 43.6), (19.2, 43.4), (18.75, 43.0),
      (18.55, 42.6), (18.5, 42.43), (18.4, 42.3)]),
    ("Second Vienna Award line (Northern Transylvania | Romania)", "budapest", "bucharest",
     [(20.26, 46.12), (20.75, 46.2), (21.25, 46.4), (21.65, 46.8), (22.0, 46.78),
      (22.55, 46.85), (23.0, 46.8), (23.55, 46.65), (23.9, 46.55), (24.4, 46.4),
      (24.8, 46.3), (25.2, 46.1), (25.65, 45.8), (25.9, 45.75), (26.2, 45.85),
      (26.15, 46.2), (25.9, 46.5), (25.7, 46.9), (25.35, 47.3), (25.0, 47.75)]),
    ("Banat, Danube (Romania | Yugoslavia)", "bucharest", "belgrade",
     [(20.26, 46.12), (20.7, 45.75), (20.9, 45.5), (21.4, 45.2), (21.45, 44.8),
      (21.9, 44.63), (22.3, 44.65), (22.55, 44.5), (22.68, 44.21)]),
    ("Danube, Dobruja 1940 (Romania | Bulgaria)", "bucharest", "bulgaria",
     [(22.68, 44.21), (23.0, 43.85), (23.6, 43.8), (24.3, 43.72), (24.9, 43.7),
      (25.4, 43.63), (25.95, 43.87), (26.5, 44.05), (27.0, 44.12), (27.27, 44.12),
      (27.6, 44.0), (27.95, 43.9), (28.3, 43.75), (28.58, 43.74), (28.9, 43.74)]),
    ("Northern Bukovina, Prut, Chilia arm (Romania | USSR)", SOVIET, "bucharest",
     [(25.0, 47.75), (25.7, 47.92), (26.1, 47.98), (26.3, 48.15), (26.65, 48.27),
      (27.0, 48.2), (27.2, 48.0), (27.5, 47.65), (27.8, 47.25), (28.05, 46.85),
      (28.1, 46.5), (28.2, 46.1), (28.15, 45.7), (28.2, 45.47), (28.55, 45.32),
      (28.84, 45.3), (29.27, 45.42), (29.6, 45.38), (29.9, 45.3)]),
    ("Serbia/Macedonia | Bulgaria", "bulgaria", "belgrade",
     [(22.68, 44.21), (22.45, 43.9), (22.55, 43.45), (22.95, 43.15), (22.6, 42.9),
      (22.45, 42.45), (22.85, 41.9), (22.95, 41.35)]),
    ("Macedonia | Greece", "greece", "belgrade",
     [(22.95, 41.35), (22.6, 41.15), (22.2, 41.15), (21.5, 40.9), (20.98, 40.86)]),
    ("Yugoslavia | Albania", "albania", "belgrade",
     [(20.98, 40.86), (20.7, 41.1), (20.5, 41.6), (20.55, 42.0), (20.25, 42.3),
      (20.0, 42.55), (19.7, 42.6), (19.4, 42.3), (19.37, 41.85), (19.3, 41.7)]),
    ("Albania | Greece", "greece", "albania",
     [(20.98, 40.86), (20.7, 40.3), (20.2, 39.65), (19.95, 39.68)]),
    ("Bulgaria | Greece", "bulgaria", "greece",
     [(22.95, 41.35), (23.6, 41.4), (24.1, 41.55), (24.6, 41.42), (25.3, 41.25),
      (25.9, 41.3), (26.35, 41.72)]),
    ("Bulgaria | Turkey", "bulgaria", "turkey",
     [(26.35, 41.72), (26.6, 41.95), (27.0, 42.05), (27.55, 41.95), (28.0, 41.98),
      (28.4, 41.98)]),
    ("Evros, Aegean (Greece | Turkey)", "turkey", "greece",
     [(26.35, 41.72), (26.6, 41.3), (26.3, 40.95), (26.05, 40.73), (25.8, 40.15),
      (26.0, 39.7), (26.5, 39.45), (26.55, 39.0), (26.2, 38.6), (26.2, 37.5)]),
    ("Turkey | Soviet Transcaucasia", "baku", "turkey",
     [(41.3, 41.6), (41.55, 41.52), (42.4, 41.5), (42.8, 41.58), (43.4, 41.2),
      (43.6, 40.9), (43.75, 40.7), (43.65, 40.1), (44.3, 40.0), (44.8, 39.7)]),
    ("Turkey | Iran", "iran", "turkey",
     [(44.8, 39.7), (44.5, 39.4), (44.2, 39.0), (44.3, 38.4), (44.4, 37.0)]),
    ("Aras, Astara (Iran | Soviet Transcaucasia)", "baku", "iran",
     [(44.8, 39.7), (45.5, 39.0), (46.0, 38.87), (46.5, 38.9), (47.0, 39.2),
      (47.8, 39.65), (48.35, 39.4), (48.05, 39.0), (48.3, 38.6), (48.85, 38.43),
      (49.1, 38.43)]),
    ("Main Caucasus crest (North Caucasus | Transcaucasia)", "maikop|grozny", "baku",
     [(39.8, 43.35), (40.0, 43.38), (40.7, 43.55), (41.5, 43.3), (42.5, 43.2),
      (43.2, 42.85), (44.0, 42.75), (44.6, 42.75), (45.2, 42.55), (45.7, 42.3),
      (46.2, 41.95), (46.6, 41.85), (47.3, 41.3), (47.9, 41.2), (48.4, 41.6),
      (48.58, 41.84), (48.8, 41.95)]),
    ("Siberia, Astrakhan | Soviet Central Asia (cut for the map)", SOVIET, "central-asia",
     [(52.6, 46.0), (53.4, 46.75), (54.0, 46.8), (56.0, 46.7), (58.3, 46.9),
      (62.0, 46.9), (67.0, 47.0)]),
    ("Moscow peace line 1940 (Finland | USSR)", "finland", SOVIET,
     [(27.6, 60.3), (27.78, 60.53), (28.2, 60.75), (28.7, 61.05), (29.2, 61.3),
      (29.7, 61.55), (30.3, 61.85), (30.8, 62.1), (31.2, 62.35), (31.5, 62.75),
      (31.2, 63.1), (30.5, 63.45), (30.0, 63.8), (30.2, 64.25), (29.95, 64.5),
      (29.6, 64.85), (29.8, 65.2), (29.9, 65.6), (30.1, 65.95), (29.6, 66.4),
      (29.2, 66.8), (29.05, 67.1), (29.0, 67.5), (28.7, 68.2), (28.5, 69.0)]),
    ("Torne (Sweden | Finland)", "sweden", "finland",
     [(24.0, 65.5), (24.15, 65.75), (23.9, 66.2), (23.65, 66.5), (23.9, 67.0),
      (23.5, 67.5), (23.0, 68.0), (21.0, 69.0)]),
    ("Norway | Sweden", "norway", "sweden",
     [(11.2, 58.85), (11.45, 59.0), (11.8, 59.8), (12.5, 60.1), (12.3, 61.0),
      (12.15, 61.7), (12.3, 62.3), (12.05, 63.0), (12.2, 63.5), (13.9, 64.0),
      (14.15, 64.5), (14.5, 65.3), (15.5, 66.2), (16.0, 66.9), (16.5, 67.5),
      (18.0, 68.5)]),
    ("Kattegat, Oresund (Sweden | Denmark)", "sweden", "denmark",
     [(11.4, 57.8), (11.9, 56.7), (12.6, 56.1), (12.75, 55.7), (12.75, 55.3),
      (13.5, 55.2), (14.5, 55.38), (15.5, 55.6)]),
    ("Schleswig, western Baltic (Denmark | Germany)", "denmark", "berlin|silesia",
     [(8.3, 54.95), (8.6, 54.9), (9.2, 54.85), (9.6, 54.83), (9.9, 54.75),
      (10.5, 54.6), (11.3, 54.55), (12.0, 54.5), (12.5, 54.6), (13.0, 54.75),
      (13.8, 54.85), (14.5, 54.85), (16.0, 54.85)]),
    ("Gulf of Riga, Latvia | Estonia", "estonia", "kurland",
     [(20.5, 57.75), (21.8, 57.8), (22.3, 57.84), (23.5, 57.75), (24.35, 57.87),
      (24.9, 57.95), (25.3, 58.05), (25.8, 57.9), (26.05, 57.78), (26.5, 57.55),
      (27.0, 57.6), (27.35, 57.55), (27.65, 57.55)]),
    ("Petseri, Peipus, Narva (Estonia | Russia)", "estonia", SOVIET,
     [(27.65, 57.55), (27.85, 57.65), (27.9, 57.85), (27.75, 57.95), (27.55, 58.05),
      (27.5, 58.5), (27.75, 58.95), (28.0, 59.1), (28.25, 59.35), (28.05, 59.55),
      (28.0, 59.8)]),
    ("Latvia, Lithuania | Russia, Belorussia", SOVIET, "kurland",
     [(27.65, 57.55), (28.0, 57.25), (28.1, 56.95), (28.2, 56.6), (28.15, 56.15),
      (27.6, 55.8), (26.9, 55.7), (26.6, 55.67), (26.8, 55.3), (26.2, 54.95),
      (25.75, 54.8), (25.55, 54.3), (25.8, 54.15), (25.5, 54.0), (24.8, 54.0),
      (24.45, 53.9), (24.0, 53.93), (23.5, 53.95)]),
    ("Perekop, Sivash (Crimea)", "dnepropetrovsk", "sevastopol",
     [(32.8, 45.95), (33.6, 46.05), (34.0, 46.0), (34.5, 46.0), (34.9, 46.0),
      (35.2, 45.95), (35.6, 46.05)]),
    ("Kerch strait", "maikop", "sevastopol",
     [(36.6, 45.6), (36.58, 45.35), (36.55, 45.15), (36.5, 44.9)]),
    ("Lower Dnepr (Kherson bank | Nogai steppe)", "odessa", "dnepropetrovsk",
     [(31.3, 46.58), (31.55, 46.58), (32.0, 46.55), (32.6, 46.62), (33.35, 46.76)]),
]

# Adjacency overrides, applied after the computed adjacency.
ADJ_ADD: list[tuple[str, str, str]] = [
    # Army Group South (3 armies) starts in Slovakia; the rules need it to be a
    # front-line area on turn 1.  In 1941 the Slovak frontier ended ~10 km short of
    # the Soviet San (Hungarian Ruthenia in between); the 17th Army attacked from the
    # San corner just north of it.
    ("lvov", "slovakia", "AG South starts in Slovakia and must be able to attack Galicia"),
]
ADJ_REMOVE: list[tuple[str, str, str]] = []

MIN_BORDER_PX = 12.0  # ~25 km: shorter contacts are corners, not borders
COVERAGE_TOLERANCE = 1.0  # px, simplification of the finished area/neutral shapes
LABEL_RADIUS = 70.0  # px around the main seed in which the label is placed

# Sea areas: membership from the rules; marker hint (lon, lat) per member.
SEAS = [
    dict(id="baltic", name="Baltic Sea", source="rules: Sea Areas", label=(19.2, 56.6),
         polys=["Baltic Sea", "Gulf of Finland"],
         members={"leningrad": (29.5, 59.9), "kurland": (21.2, 56.6),
                  "konigsberg": (20.3, 54.85), "silesia": (16.5, 54.5)}),
    dict(id="ladoga", name="Lake Ladoga", source="rules: Sea Areas", label=(31.3, 61.0),
         polys=["Lake Ladoga"],
         members={"leningrad": (30.9, 60.05), "arkangel": (32.8, 61.0)}),
    dict(id="black-sea", name="Black Sea", source="rules: Sea Areas", label=(34.5, 43.4),
         polys=["Black Sea"],
         members={"bucharest": (28.65, 44.2), "odessa": (30.7, 46.45),
                  "sevastopol": (33.5, 44.6), "baku": (41.65, 42.1)}),
    dict(id="caspian", name="Caspian Sea", source="rules: Sea Areas", label=(50.8, 42.6),
         polys=["Caspian Sea"],
         members={"baku": (49.6, 40.5), "astrakhan": (48.0, 45.8)}),
]

# Real city dots for areas named after a city.  Natural Earth names where the
# 50m populated places have them, else approximate coordinates (general
# knowledge) given here.
CITIES = {
    "berlin": ("Berlin", "Berlin"), "prague": ("Prague", "Prague"),
    "konigsberg": ("Konigsberg", "Kaliningrad"), "warsaw": ("Warsaw", "Warsaw"),
    "budapest": ("Budapest", "Budapest"), "belgrade": ("Belgrade", "Belgrade"),
    "bucharest": ("Bucharest", "Bucharest"), "leningrad": ("Leningrad", "St. Petersburg"),
    "arkangel": ("Arkangel", "Archangel"), "velikje-luki": ("Velikje Luki", (30.53, 56.34)),
    "demyansk": ("Demyansk", (32.47, 57.64)), "kalinin": ("Kalinin", "Tver"),
    "minsk": ("Minsk", "Minsk"), "lvov": ("Lvov", "Lvov"), "kiev": ("Kiev", "Kiev"),
    "odessa": ("Odessa", "Odessa"), "sevastopol": ("Sevastopol", "Sevastapol"),
    "smolensk": ("Smolensk", "Smolensk"), "bryansk": ("Bryansk", "Bryansk"),
    "moscow": ("Moscow", "Moscow"), "tula": ("Tula", (37.62, 54.20)),
    "kursk": ("Kursk", (36.19, 51.73)), "voronezh": ("Voronezh", "Voronezh"),
    "kharkov": ("Kharkov", "Kharkiv"), "izyum": ("Izyum", (37.26, 49.21)),
    "dnepropetrovsk": ("Dnepropetrovsk", "Dnipro"), "rostov": ("Rostov", "Rostov"),
    "stalingrad": ("Stalingrad", "Volgograd"), "astrakhan": ("Astrakhan", "Astrakhan"),
    "grozny": ("Grozny", "Groznyy"), "maikop": ("Maikop", (40.10, 44.61)),
    "baku": ("Baku", "Baku"), "gorky": ("Gorky", "Nizhny Novgorod"),
    "vologda": ("Vologda", "Vologda"), "kazan": ("Kazan", "Kazan"),
    "kuibyshev": ("Kuibyshev", "Samara"), "saratov": ("Saratov", "Saratov"),
}

# Rivers for looks (Natural Earth names -> display name).
RIVERS = {
    "Dnepr": ["Dnipro", "Dnepre"], "Don": ["Don"], "Volga": ["Volga"],
    "Daugava": ["Daugava"], "Vistula": ["Vistula"], "Dniester": ["Dniester"],
    "Bug": ["Bug"], "Southern Bug": ["Southern Bug"], "Danube": ["Danube", "Donau"],
    "Oder": ["Oder"], "Neman": ["Neman"], "Donets": ["Donets"], "Desna": ["Desna"],
    "Pripyat": ["Pripyat"], "Oka": ["Oka"], "Northern Dvina": ["Severnaya Dvina"],
    "Neva": ["Neva"], "Svir": ["Svir"], "Volkhov": ["Volkhov"], "Prut": ["Prut"],
    "Kama": ["Kama"], "Kuban": ["Kuban"], "Elbe": ["Elbe"], "Sava": ["Sava"],
    "Tisza": ["Tisa"], "Ural": ["Ural"],
}

# Natural lakes kept (subtracted from land, drawn as water).  Post-1941
# reservoirs (Rybinsk, Kuibyshev/Samara, Kakhovka, Kremenchug, Tsimlyansk,
# Volgograd, Kiev, Gorky, ...) are deliberately not in this list.
LAKES = [
    "Lake Ladoga", "Lake Onega", "Lake Peipus", "Pskoyskoye Ozero", "Lake Il'Men'",
    "Lake Beloye", "Ozero Kubenskoye", "Lake Vygozero", "Lake Segozerskoye",
    "Lake Topozero", "Lake Imandra", "Lake Kovdozero", "Syvash", "Lake Saimaa",
    "Pielinen", "Oulujarvi", "Pjrvi", "Vänern", "Vättern", "Mälaren", "Lake Balaton",
    "Lake Sevan", "Lake Urmia", "Lake Van", "Lake Tuz", "Võrtsjärv", "Zalew Wislany",
    "Kaliningradskiy Zaliv", "Lake Geneva", "Bodensee", "Lago di Garda", "Lake Skadar",
]
LAKE_NAMES = {"Lake Il'Men'": "Lake Ilmen", "Pskoyskoye Ozero": "Lake Pskov",
              "Pjrvi": "Paijanne", "Syvash": "Sivash", "Zalew Wislany": "Vistula Lagoon",
              "Kaliningradskiy Zaliv": "Vistula Lagoon", "Ozero Kubenskoye": "Lake Kubenskoye"}

CREDIT = "Natural Earth (public domain)"


# ==========================================================================
# --extract: copy the needed Natural Earth parts into tools/geodata
# ==========================================================================
def _round_coords(obj, nd):
    if isinstance(obj, float):
        return round(obj, nd)
    if isinstance(obj, list):
        return [_round_coords(o, nd) for o in obj]
    return obj


def _write_fc(path: Path, feats: list[tuple[dict, object]], nd: int = 3) -> None:
    out = {"type": "FeatureCollection",
           "credit": CREDIT + f"; clipped and simplified by {WRITTEN_BY}",
           "features": []}
    for props, geom in feats:
        g = shapely.geometry.mapping(geom)
        g = json.loads(json.dumps(g))  # tuples -> lists
        g["coordinates"] = _round_coords(g["coordinates"], nd)
        out["features"].append({"type": "Feature", "properties": props, "geometry": g})
    path.write_text(json.dumps(out, separators=(",", ":"), ensure_ascii=False) + "\n")


def extract(src: Path) -> None:
    GEO_DIR.mkdir(parents=True, exist_ok=True)
    clip = box(4.0, 33.0, 75.0, 73.0)

    def feats(name):
        return json.loads((src / name).read_text(encoding="utf-8"))["features"]

    land = unary_union([shape(f["geometry"]) for f in feats("ne_50m_land.geojson")])
    land = land.intersection(clip).simplify(0.004, preserve_topology=True)
    parts = [p for p in getattr(land, "geoms", [land]) if p.area > 0.002]
    _write_fc(GEO_DIR / "land.geojson", [({"name": "land"}, MultiPolygon(parts))])

    lakes = []
    for f in feats("ne_10m_lakes.geojson"):
        nm = f["properties"].get("name")
        if nm in LAKES:
            g = shape(f["geometry"]).intersection(clip).simplify(0.003, preserve_topology=True)
            if not g.is_empty:
                lakes.append(({"name": LAKE_NAMES.get(nm, nm)}, g))
    for f in feats("ne_10m_lakes_historic.geojson"):
        g = shape(f["geometry"]).intersection(clip).simplify(0.003, preserve_topology=True)
        lakes.append(({"name": "Aral Sea"}, g))
    _write_fc(GEO_DIR / "lakes.geojson", lakes)

    wanted = {alias: disp for disp, aliases in RIVERS.items() for alias in aliases}
    rivers: dict[str, list] = {}
    for f in feats("ne_10m_rivers_lake_centerlines.geojson"):
        nm = f["properties"].get("name")
        if nm in wanted:
            g = shape(f["geometry"]).intersection(clip)
            rivers.setdefault(wanted[nm], []).append(g)
    riv = []
    for disp, gs in sorted(rivers.items()):
        merged = shapely.line_merge(unary_union(gs)).simplify(0.01)
        riv.append(({"name": disp}, merged))
    _write_fc(GEO_DIR / "rivers.geojson", riv)

    seas = []
    for f in feats("ne_50m_geography_marine_polys.geojson"):
        nm = " ".join(f["properties"]["name"].split())
        if nm in ("Baltic Sea", "Gulf of Finland", "Black Sea", "Caspian Sea"):
            g = shape(f["geometry"]).simplify(0.01, preserve_topology=True)
            seas.append(({"name": nm}, g))
    _write_fc(GEO_DIR / "seas.geojson", seas)

    wanted_c = {v[1] for v in CITIES.values() if isinstance(v[1], str)}
    cities = []
    for f in feats("ne_50m_populated_places_simple.geojson"):
        p = f["properties"]
        if p["name"] in wanted_c:
            cities.append(({"name": p["name"]}, Point(p["longitude"], p["latitude"])))
    _write_fc(GEO_DIR / "cities.geojson", cities, nd=4)
    missing = wanted_c - {c[0]["name"] for c in cities}
    if missing:
        sys.exit(f"cities not found: {sorted(missing)}")
    print(f"extracted into {GEO_DIR}")


# ==========================================================================
# generation
# ==========================================================================
def load(name: str) -> list[tuple[dict, object]]:
    data = json.loads((GEO_DIR / name).read_text(encoding="utf-8"))
    return [(f["properties"], shape(f["geometry"])) for f in data["features"]]


def parts_of(geom) -> list[Polygon]:
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    out = []
    for g in getattr(geom, "geoms", []):
        out.extend(parts_of(g))
    return out


def densify_px(pts: list[tuple[float, float]], step: float) -> list[tuple[float, ...]]:
    """Points every `step` px along the projected polyline, with unit direction."""
    out = []
    carry = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        dx, dy = x1 - x0, y1 - y0
        seg = math.hypot(dx, dy)
        if seg == 0:
            continue
        ux, uy = dx / seg, dy / seg
        t = carry
        while t < seg:
            out.append((x0 + ux * t, y0 + uy * t, ux, uy))
            t += step
        carry = t - seg
    return out


def build_sites():
    """Return [(x, y, label)] for the Voronoi tessellation."""
    core: list[tuple[float, float, str]] = []
    for aid, a in AREAS.items():
        for lonlat in [a["seed"], *a["hidden"]]:
            core.append((*project(*lonlat), aid))
    for nid, nd in NEUTRALS.items():
        for lonlat in nd["seeds"]:
            core.append((*project(*lonlat), nid))

    def resolve(spec: str, x: float, y: float) -> str:
        opts = spec.split("|")
        if len(opts) == 1:
            return opts[0]
        best = min((c for c in core if c[2] in opts),
                   key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2)
        return best[2]

    sites = list(core)
    off, step = 1.6, 4.0
    for _title, left, right, pts in BORDERS:
        for spec in (left, right):
            for lab in spec.split("|"):
                if lab not in AREAS and lab not in NEUTRALS:
                    raise SystemExit(f"unknown label {lab!r} in border {_title!r}")
        ppts = [project(*p) for p in pts]
        for x, y, ux, uy in densify_px(ppts, step):
            # screen coords (y down): left of direction (ux, uy) is (uy, -ux)
            lx, ly = x + uy * off, y - ux * off
            rx, ry = x - uy * off, y + ux * off
            sites.append((lx, ly, resolve(left, x, y)))
            sites.append((rx, ry, resolve(right, x, y)))
    # de-duplicate (voronoi needs distinct points)
    seen = set()
    uniq = []
    for x, y, lab in sites:
        k = (round(x, 3), round(y, 3))
        if k not in seen:
            seen.add(k)
            uniq.append((x, y, lab))
    return uniq


def tessellate(sites):
    """Voronoi cells (scipy) of the sites, dissolved per label."""
    import numpy as np
    from scipy.spatial import Voronoi

    far = 20 * max(WIDTH, HEIGHT)
    pts = np.array([(x, y) for x, y, _ in sites]
                   + [(-far, -far), (far, -far), (far, far), (-far, far)])
    vor = Voronoi(pts)
    bound = FRAME.buffer(400)
    by_label: dict[str, list] = {}
    for i, (_, _, lab) in enumerate(sites):
        region = vor.regions[vor.point_region[i]]
        if not region or -1 in region:
            raise SystemExit(f"unbounded Voronoi cell for site {i}")
        cell = Polygon(vor.vertices[region]).intersection(bound)
        if not cell.is_empty:
            by_label.setdefault(lab, []).append(cell)
    return {lab: shapely.union_all(cs, grid_size=0.001) for lab, cs in by_label.items()}


def build_land():
    land = unary_union([g for _, g in load("land.geojson")])
    lakes = load("lakes.geojson")
    land = land.difference(unary_union([g for _, g in lakes]))
    land_px = project_geom(land.intersection(box(0, 30, 80, 75)))
    land_px = land_px.intersection(FRAME)
    land_px = land_px.simplify(0.8, preserve_topology=True)
    keep = [p for p in parts_of(land_px) if p.area >= 8.0]
    land_px = unary_union(keep)
    by_name: dict[str, list] = {}
    for props, g in lakes:
        gp = project_geom(g).intersection(FRAME)
        gp = gp.simplify(0.8, preserve_topology=True)
        by_name.setdefault(props["name"], []).extend(p for p in parts_of(gp) if p.area >= 6.0)
    lakes_px = [(name, unary_union(polys)) for name, polys in sorted(by_name.items()) if polys]
    return land_px, lakes_px


def clean_regions(regions: dict[str, object], min_frag: float = 40.0):
    """Give small non-island fragments to the neighbour with the longest shared edge."""
    for _round in range(3):
        moves = []
        for lab, geom in regions.items():
            ps = parts_of(geom)
            if len(ps) < 2:
                continue
            main = max(ps, key=lambda p: p.area)
            for p in ps:
                if p is main or p.area >= min_frag:
                    continue
                best, blen = None, 0.0
                for other, og in regions.items():
                    if other == lab or not og.intersects(p.buffer(0.05)):
                        continue
                    ln = p.boundary.intersection(og.buffer(0.05)).length
                    if ln > blen:
                        best, blen = other, ln
                if best is not None and blen > 0.5:
                    moves.append((lab, best, p))
        if not moves:
            break
        give: dict[str, list] = {}
        take: dict[str, list] = {}
        for src, dst, p in moves:
            take.setdefault(src, []).append(p)
            give.setdefault(dst, []).append(p)
        for lab in set(give) | set(take):
            keep = [q for q in parts_of(regions[lab])
                    if not any(q.equals(t) for t in take.get(lab, []))]
            regions[lab] = shapely.union_all(keep + give.get(lab, []), grid_size=0.01)
    return regions


def shared_length(a, b) -> float:
    if not a.buffer(0.5).intersects(b):
        return 0.0
    return a.boundary.intersection(b.buffer(0.05)).length


def ring_path(coords, reverse: bool) -> str:
    pts = [(round(x, 1), round(y, 1)) for x, y in coords]
    if reverse:
        pts.reverse()
    dedup = []
    for p in pts:
        if not dedup or p != dedup[-1]:
            dedup.append(p)
    if len(dedup) > 1 and dedup[0] == dedup[-1]:
        dedup.pop()
    if len(dedup) < 3:
        return ""
    first = dedup[0]
    rest = " ".join(f"{fmt(x)} {fmt(y)}" for x, y in dedup[1:])
    return f"M{fmt(first[0])} {fmt(first[1])} L{rest} Z"


def fmt(v: float) -> str:
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def geom_path(geom, min_area: float = 0.0) -> str:
    """SVG path; exteriors clockwise on screen, holes counter-clockwise (nonzero-safe)."""
    subs = []
    for p in parts_of(geom):
        if p.area < min_area:
            continue
        p = shapely.geometry.polygon.orient(p, sign=-1.0)  # y-down: CW on screen
        subs.append(ring_path(p.exterior.coords, False))
        for hole in p.interiors:
            subs.append(ring_path(hole.coords, False))
    return " ".join(s for s in subs if s)


def line_path(geom) -> str:
    subs = []
    lines = [geom] if isinstance(geom, LineString) else list(getattr(geom, "geoms", []))
    for ln in lines:
        if not isinstance(ln, LineString) or ln.length < 4:
            continue
        pts = []
        for x, y in ln.coords:
            p = (round(x, 1), round(y, 1))
            if not pts or p != pts[-1]:
                pts.append(p)
        if len(pts) < 2:
            continue
        subs.append(f"M{fmt(pts[0][0])} {fmt(pts[0][1])} L"
                    + " ".join(f"{fmt(x)} {fmt(y)}" for x, y in pts[1:]))
    return " ".join(subs)


def count_points(geom) -> int:
    n = 0
    for p in parts_of(geom):
        n += len(p.exterior.coords) - 1 + sum(len(h.coords) - 1 for h in p.interiors)
    return n


def generate():
    land, lakes_px = build_land()
    sites = build_sites()
    cells = tessellate(sites)
    regions = {}
    for lab, cell in cells.items():
        g = cell.intersection(land)
        g = shapely.set_precision(g, 0.01)
        if not g.is_empty:
            regions[lab] = g
    regions = clean_regions(regions)
    # simplify all regions together so that shared borders stay shared
    labs = sorted(regions)
    simplified = shapely.coverage_simplify([regions[lab] for lab in labs], COVERAGE_TOLERANCE)
    regions = {lab: shapely.make_valid(geom) for lab, geom in zip(labs, simplified, strict=True)}
    missing = [a for a in AREAS if a not in regions or regions[a].is_empty]
    if missing:
        raise SystemExit(f"areas without land: {missing}")

    # adjacency
    ids = sorted(AREAS)
    adj: dict[tuple[str, str], str] = {}
    lengths = {}
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            ln = shared_length(regions[a], regions[b])
            if ln > 0:
                lengths[(a, b)] = ln
            if ln > MIN_BORDER_PX:
                adj[(a, b)] = "reconstructed"
    for a, b, why in ADJ_REMOVE:
        key = tuple(sorted((a, b)))
        if key not in adj:
            print(f"warning: override remove {key} not computed ({why})")
        adj.pop(key, None)
    for a, b, _why in ADJ_ADD:
        key = tuple(sorted((a, b)))
        if key in adj:
            print(f"note: override add {key} already computed")
        adj[key] = "reconstructed: override"

    # labels
    labels = {}
    for aid in ids:
        # pole of inaccessibility of the main part, kept near the main seed so that
        # very large areas (Siberia, Arkangel) get their label where the seed is
        main = max(parts_of(regions[aid]), key=lambda p: p.area)
        near = main.intersection(Point(project(*AREAS[aid]["seed"])).buffer(LABEL_RADIUS))
        near_parts = parts_of(near)
        target = max(near_parts, key=lambda p: p.area) if near_parts else main
        lp = polylabel(target, tolerance=1.0)
        labels[aid] = (lp.x, lp.y)

    # seas
    seas_src = {p["name"]: g for p, g in load("seas.geojson")}
    seas_src.update({nm: g for nm, g in ((n, g) for n, g in lakes_px) if nm == "Lake Ladoga"})
    sea_out = []
    for sea in SEAS:
        polys = []
        for nm in sea["polys"]:
            g = seas_src[nm]
            polys.append(g if nm == "Lake Ladoga" else project_geom(g))
        water = unary_union(polys)
        members = []
        for aid, hint in sea["members"].items():
            reg = regions[aid]
            coast = reg.boundary.intersection(water.buffer(3.0))
            hp = Point(project(*hint))
            cpt = nearest_points(coast if not coast.is_empty else reg.boundary, hp)[0]
            inner = reg.buffer(-9.0)
            if inner.is_empty:
                inner = reg.buffer(-4.0)
            mpt = nearest_points(inner, cpt)[0] if not inner.is_empty else cpt
            members.append((aid, mpt.x, mpt.y))
        sea_out.append((sea, project(*sea["label"]), sorted(members)))

    neutrals = {nid: regions[nid] for nid in NEUTRALS if nid in regions}

    rivers = []
    for props, g in load("rivers.geojson"):
        gp = project_geom(g).intersection(FRAME).simplify(1.0)
        if not gp.is_empty:
            rivers.append((props["name"], gp))
    city_src = {p["name"]: g for p, g in load("cities.geojson")}
    cities = []
    for aid in ids:
        if aid not in CITIES:
            continue
        disp, src = CITIES[aid]
        lonlat = (city_src[src].x, city_src[src].y) if isinstance(src, str) else src
        cities.append((disp, aid, project(*lonlat)))

    return dict(regions=regions, adj=adj, lengths=lengths, labels=labels, seas=sea_out,
                neutrals=neutrals, lakes=lakes_px, rivers=rivers, cities=cities)


def write_xml(res, path: Path) -> None:
    E = etree.Element
    root = E(f"{{{NS}}}map", nsmap={None: NS})
    root.set("kind", "areas")
    root.set("width", str(WIDTH))
    root.set("height", str(HEIGHT))
    root.set("source", "reconstructed")
    root.set("projection", PROJECTION_TEXT)
    regions = res["regions"]
    for aid in sorted(AREAS):
        a = AREAS[aid]
        el = etree.SubElement(root, f"{{{NS}}}area")
        el.set("id", aid)
        el.set("name", a["name"])
        el.set("start-side", a["side"])
        el.set("romanian-allowed", "true" if a["rom"] else "false")
        lx, ly = res["labels"][aid]
        el.set("label-x", fmt(round(lx, 1)))
        el.set("label-y", fmt(round(ly, 1)))
        el.set("source", "reconstructed")
        sh = etree.SubElement(el, f"{{{NS}}}shape")
        sh.set("d", geom_path(regions[aid]))
    for (a, b), src in sorted(res["adj"].items()):
        el = etree.SubElement(root, f"{{{NS}}}adjacent")
        el.set("a", a)
        el.set("b", b)
        el.set("source", src)
    for sea, (lx, ly), members in res["seas"]:
        el = etree.SubElement(root, f"{{{NS}}}sea")
        el.set("id", sea["id"])
        el.set("name", sea["name"])
        el.set("source", sea["source"])
        el.set("label-x", fmt(round(lx, 1)))
        el.set("label-y", fmt(round(ly, 1)))
        for aid, mx, my in members:
            m = etree.SubElement(el, f"{{{NS}}}member")
            m.set("area", aid)
            m.set("x", fmt(round(mx, 1)))
            m.set("y", fmt(round(my, 1)))
    bd = etree.SubElement(root, f"{{{NS}}}backdrop")
    for name, g in res["lakes"]:
        el = etree.SubElement(bd, f"{{{NS}}}water")
        el.set("name", name)
        el.set("d", geom_path(g))
    for nid in sorted(res["neutrals"], key=lambda n: NEUTRALS[n]["name"]):
        el = etree.SubElement(bd, f"{{{NS}}}neutral")
        el.set("name", NEUTRALS[nid]["name"])
        el.set("d", geom_path(res["neutrals"][nid], min_area=8.0))
    for name, g in sorted(res["rivers"], key=lambda r: r[0]):
        d = line_path(g)
        if d:
            el = etree.SubElement(bd, f"{{{NS}}}river")
            el.set("name", name)
            el.set("d", d)
    for disp, _aid, (x, y) in sorted(res["cities"]):
        el = etree.SubElement(bd, f"{{{NS}}}city")
        el.set("name", disp)
        el.set("x", fmt(round(x, 1)))
        el.set("y", fmt(round(y, 1)))
    comment = etree.Comment(
        f" Generated by {WRITTEN_BY} from Natural Earth data (public domain)."
        " Do not edit by hand. ")
    body = etree.tostring(root, pretty_print=True, encoding="unicode")
    text = ('<?xml version="1.0" encoding="utf-8"?>\n'
            + etree.tostring(comment, encoding="unicode") + "\n" + body)
    path.write_text(text, encoding="utf-8")


# ==========================================================================
# preview (development aid only)
# ==========================================================================
SEA_COLOURS = {"baltic": "#d62728", "ladoga": "#9467bd", "black-sea": "#2ca02c",
               "caspian": "#ff7f0e"}


def preview_svg(xml_path: Path) -> str:
    doc = etree.parse(str(xml_path))
    ns = {"m": NS}
    r = doc.getroot()
    w, h = r.get("width"), r.get("height")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}">', f'<rect width="{w}" height="{h}" fill="#b9d3e6"/>']
    for n in r.iterfind("m:backdrop/m:neutral", ns):
        out.append(f'<path d="{n.get("d")}" fill="#e8e2cf" stroke="#b0a890" '
                   f'stroke-width="0.6"/>')
    for a in r.iterfind("m:area", ns):
        fill = "#b4b4b4" if a.get("start-side") == "german" else "#ffffff"
        d = a.find("m:shape", ns).get("d")
        out.append(f'<path d="{d}" fill="{fill}" stroke="#333" stroke-width="1.1" '
                   f'stroke-linejoin="round"/>')
    for wt in r.iterfind("m:backdrop/m:water", ns):
        out.append(f'<path d="{wt.get("d")}" fill="#b9d3e6" stroke="#6b8fb0" '
                   f'stroke-width="0.5"/>')
    for rv in r.iterfind("m:backdrop/m:river", ns):
        out.append(f'<path d="{rv.get("d")}" fill="none" stroke="#5b8fc7" '
                   f'stroke-width="1.2"/>')
    for c in r.iterfind("m:backdrop/m:city", ns):
        out.append(f'<circle cx="{c.get("x")}" cy="{c.get("y")}" r="2.6" fill="#000"/>')
    for s in r.iterfind("m:sea", ns):
        col = SEA_COLOURS.get(s.get("id"), "#f0f")
        out.append(f'<text x="{s.get("label-x")}" y="{s.get("label-y")}" font-size="15" '
                   f'font-style="italic" fill="#1f4e79" text-anchor="middle" '
                   f'font-family="sans-serif">{s.get("name")}</text>')
        for m in s.iterfind("m:member", ns):
            out.append(f'<circle cx="{m.get("x")}" cy="{m.get("y")}" r="6" fill="{col}" '
                       f'stroke="#000" stroke-width="0.8"/>')
    for a in r.iterfind("m:area", ns):
        x, y = a.get("label-x"), a.get("label-y")
        for extra in ('fill="#fff" stroke="#fff" stroke-width="3"', 'fill="#000"'):
            out.append(f'<text x="{x}" y="{y}" font-size="12" font-weight="bold" '
                       f'text-anchor="middle" font-family="sans-serif" {extra}>'
                       f'{a.get("name")}</text>')
        if a.get("romanian-allowed") == "true":
            out.append(f'<text x="{x}" y="{float(y) + 12}" font-size="9" fill="#a00" '
                       f'text-anchor="middle" font-family="sans-serif">R</text>')
    out.append("</svg>")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--extract", type=Path, metavar="DIR",
                    help="refresh tools/geodata from a Natural Earth GeoJSON directory")
    ap.add_argument("--out", type=Path, default=OUT_XML)
    ap.add_argument("--preview", type=Path, metavar="PNG", help="also render a preview PNG")
    ap.add_argument("--report", action="store_true", help="print border lengths / points")
    args = ap.parse_args(argv)
    if shapely is None:
        ap.error("this development tool needs shapely, scipy and numpy: pip install -e '.[dev]'")
    if args.extract:
        extract(args.extract)
        return 0
    res = generate()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_xml(res, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(AREAS)} areas, "
          f"{len(res['adj'])} adjacencies)")
    if args.report:
        for aid in sorted(AREAS):
            print(f"  {aid:15s} points={count_points(res['regions'][aid]):4d}")
        for (a, b), ln in sorted(res["lengths"].items()):
            flag = "" if ln > MIN_BORDER_PX else "   (below threshold)"
            print(f"  {a}-{b}: {ln:.1f}px{flag}")
    problems = check(args.out, verbose=args.report)
    for p in problems:
        print(f"FAIL: {p}")
    if args.preview:
        import cairosvg

        svg = preview_svg(args.out)
        cairosvg.svg2png(bytestring=svg.encode(), write_to=str(args.preview))
        print(f"preview: {args.preview}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
