"""The hand-placed facts of the 1941: Operation Barbarossa map: its grid and extent, the
cities the rulebook numbers (the fit's anchors), and the tables typed from general
knowledge in lon/lat (22 June 1941 borders, terrain, cities, rivers, the Finnish limit of
rule 15.2.2 B). The railroads are in `railways`."""

from __future__ import annotations

from adjudicator.engine.hexgrid import HexGrid
from adjudicator.mapgen.frame import HexFrame

GRID = HexGrid(orientation="flat", shifted="even", numbering="CCRR")

# The extent of the map: columns 01-42 (north to south), rows 01-28 (east to west).
COLUMNS = range(1, 43)
ROWS = range(1, 29)
EDGE_NAMES = {"north": "column 01", "south": "column 42", "east": "row 01", "west": "row 28"}
FRAME = HexFrame(GRID, COLUMNS, ROWS)

# The rulebook's numbered cities: the least-squares fit uses these and nothing else.
FIT_ANCHORS = {
    "Moscow": ((37.6136, 55.7541), "1808", "rules: 14.2.4 B"),
    "Leningrad": ((30.3141, 59.9410), "0712", "rules: 15.2.2 B"),
    "Helsinki": ((24.9322, 60.1775), "0416", "rules: 8.2.1 B"),
}

# Hand-made tables (lon, lat), from general knowledge: 1941 borders, terrain, cities,
# railroads.  Accurate to perhaps 10-20 km, a third of a hex.
Coords = list[tuple[float, float]]

# Countries on 22 June 1941.  Land not inside any of these is Soviet.  "germany" is
# Greater Germany of the rules (17.1.3, 20.6.2): the Reich with East Prussia and
# Memel, the annexed Polish lands and the General Government.
_USSR_WEST = [  # the Soviet border from the Baltic to the Uzhok pass (Memel, Bug, San)
    (21.06, 55.87), (21.30, 55.88), (21.65, 55.72), (21.85, 55.55), (22.10, 55.35),
    (22.55, 55.08), (22.85, 55.05), (22.80, 54.90), (22.75, 54.62), (22.73, 54.40),
    (23.30, 54.25), (23.40, 54.05), (23.05, 53.85), (22.55, 53.70), (22.10, 53.50),
    (21.87, 53.23), (22.00, 52.95), (22.05, 52.65), (22.55, 52.40), (23.00, 52.30),
    (23.45, 52.20), (23.62, 52.08), (23.60, 51.80), (23.55, 51.55), (23.65, 51.30),
    (23.85, 51.05), (24.00, 50.80), (24.10, 50.55), (23.90, 50.40), (23.50, 50.30),
    (23.20, 50.15), (22.95, 49.95), (22.77, 49.78), (22.55, 49.55), (22.40, 49.40),
    (22.65, 49.05),
]
_HUNGARY_USSR = [(22.65, 49.05), (22.90, 49.00), (23.40, 48.90), (23.90, 48.70),
                 (24.40, 48.30), (24.65, 48.05), (24.95, 47.75)]
_ROMANIA_USSR = [  # Northern Bukovina, then the Prut and the Chilia arm of the Danube
    (24.95, 47.75), (25.20, 47.85), (25.55, 47.95), (25.90, 47.95), (26.20, 48.00),
    (26.45, 48.10), (26.80, 48.27), (27.20, 47.90), (27.50, 47.55), (27.80, 47.20),
    (28.00, 46.90), (28.20, 46.50), (28.20, 46.00), (28.20, 45.60), (28.20, 45.47),
    (28.84, 45.33), (29.30, 45.28), (29.70, 45.22), (30.20, 45.00),
]
_HUNGARY_ROMANIA = [  # the Vienna award line of 1940
    (24.95, 47.75), (25.30, 47.30), (25.60, 46.90), (25.80, 46.60), (26.10, 46.20),
    (26.00, 45.90), (25.50, 46.00), (24.80, 46.30), (24.20, 46.50), (23.70, 46.60),
    (23.20, 46.55), (22.60, 46.75), (22.00, 46.75), (21.60, 46.65), (21.20, 46.30),
    (20.70, 46.15), (20.20, 46.15),
]
_CARPATHIAN_GG = [(22.65, 49.05), (22.30, 49.15), (21.70, 49.40), (21.00, 49.40),
                  (20.30, 49.40), (19.80, 49.20), (19.00, 49.40), (18.50, 49.50), (17.0, 50.0)]
_SLOVAK_HUNGARY = [(22.30, 49.15), (22.10, 48.90), (21.60, 48.80), (21.00, 48.80),
                   (20.50, 48.60), (19.00, 48.10), (17.00, 48.00)]

COUNTRIES: dict[str, Coords] = {
    "finland": [(18.0, 59.75), (24.0, 59.75), (26.5, 60.00), (27.5, 60.30), (27.80, 60.45),
                (27.78, 60.56), (28.05, 60.75), (28.55, 61.00), (28.75, 61.14), (29.25, 61.27),
                (29.60, 61.50), (30.05, 61.75), (30.40, 61.95), (30.65, 62.15), (31.00, 62.40),
                (31.35, 62.80), (31.55, 63.10), (31.25, 63.45), (30.60, 63.85), (30.00, 64.20),
                (29.60, 64.70), (30.05, 65.10), (29.70, 65.60), (29.7, 70.0), (18.0, 70.0)],
    "germany": [(20.5, 56.2), *_USSR_WEST, *_CARPATHIAN_GG[1:], (10.0, 50.5), (10.0, 56.2)],
    "slovakia": [*_CARPATHIAN_GG[1:], *_SLOVAK_HUNGARY[::-1]],
    "hungary": [*_SLOVAK_HUNGARY[::-1], *_CARPATHIAN_GG[:1], *_HUNGARY_USSR[1:],
                *_HUNGARY_ROMANIA[1:], (19.5, 46.1), (18.8, 45.9), (16.0, 45.8), (16.0, 48.0)],
    "romania": [*_HUNGARY_ROMANIA[::-1], *_ROMANIA_USSR[1:], (30.5, 43.5), (28.6, 43.75),
                (27.9, 43.98), (27.3, 44.10), (27.0, 44.10), (26.0, 43.90), (25.0, 43.70),
                (22.9, 43.80), (22.4, 44.50), (21.4, 44.80), (20.2, 46.15)],
    # neutral: their land hexes are left off the map
    "sweden": [(10.0, 55.2), (19.45, 55.2), (19.45, 66.0), (10.0, 66.0)],
    "bulgaria": [(22.3, 41.0), (22.4, 44.2), (22.9, 43.80), (25.0, 43.70), (26.0, 43.90),
                 (27.0, 44.10), (27.3, 44.10), (27.9, 43.98), (28.6, 43.75), (30.0, 43.4),
                 (30.0, 41.0)],
}
NEUTRAL = {"sweden", "bulgaria"}
# A coastal city keeps its hex on land when at least this much of the hex is land.
CITY_LAND_SHARE = 0.2

# Terrain other than clear.  A land hex takes the type that covers most of its land
# when that is at least TERRAIN_SHARE of it (rough before swamp before forest on a tie).
TERRAIN_SHARE = 0.42
TERRAIN_AREAS: list[tuple[str, str, Coords]] = [
    # --- rough: mountains ---
    ("rough", "Carpathians (Beskids, Gorgany, Bukovina)",
     [(21.6, 49.45), (22.4, 49.55), (23.3, 49.3), (24.2, 48.95), (24.9, 48.45), (25.4, 47.95),
      (25.8, 47.55), (26.1, 47.0), (26.4, 46.4), (26.6, 45.9), (26.6, 45.5), (26.0, 45.35),
      (25.5, 45.45), (25.4, 45.9), (25.2, 46.5), (24.9, 47.1), (24.4, 47.6), (23.7, 48.1),
      (23.0, 48.45), (22.3, 48.7), (21.7, 49.0)]),
    ("rough", "Southern Carpathians (Transylvanian Alps)",
     [(22.2, 45.7), (23.5, 45.7), (24.6, 45.75), (25.5, 45.75), (26.4, 45.6), (26.6, 45.4),
      (26.0, 45.2), (25.2, 45.25), (24.2, 45.25), (23.2, 45.2), (22.3, 45.3)]),
    ("rough", "Apuseni mountains",
     [(22.3, 46.3), (22.6, 46.9), (23.2, 46.85), (23.5, 46.4), (23.0, 46.05)]),
    ("rough", "Tatra and Slovak ore mountains",
     [(19.2, 49.35), (20.5, 49.35), (21.3, 49.2), (21.2, 48.75), (20.0, 48.6), (19.0, 48.8)]),
    ("rough", "Crimean mountains",
     [(33.45, 44.45), (33.55, 44.75), (33.95, 44.95), (34.5, 45.05), (35.2, 45.15),
      (35.5, 45.05), (35.2, 44.8), (34.5, 44.6), (33.9, 44.4)]),
    ("rough", "Caucasus foothills (Maikop, Tuapse)",
     [(37.4, 44.8), (38.6, 44.55), (39.6, 44.45), (40.5, 44.45), (41.5, 44.2), (42.6, 43.9),
      (43.0, 43.4), (41.0, 43.3), (39.5, 43.7), (38.3, 44.2), (37.3, 44.6)]),
    # --- swamp ---
    ("swamp", "Pripet marshes (Polesie)",
     [(23.9, 52.0), (24.6, 52.45), (25.6, 52.65), (26.8, 52.75), (28.0, 52.6), (29.3, 52.4),
      (30.3, 52.05), (30.6, 51.6), (29.8, 51.4), (28.3, 51.45), (27.0, 51.35), (25.8, 51.45),
      (24.9, 51.5), (24.2, 51.7)]),
    ("swamp", "Volkhov and Lake Ilmen marshes",
     [(30.8, 58.2), (31.1, 58.7), (31.5, 59.25), (32.2, 59.8), (32.9, 59.6), (32.5, 58.9),
      (32.1, 58.3), (31.6, 57.9)]),
    ("swamp", "Lovat and Polist marshes (south of Lake Ilmen)",
     [(30.9, 57.8), (31.6, 58.05), (32.4, 57.95), (32.3, 57.4), (31.5, 57.25), (30.8, 57.45)]),
    ("swamp", "Danube delta",
     [(28.7, 45.15), (29.0, 45.5), (29.75, 45.45), (29.75, 44.8), (28.9, 44.9)]),
    # --- forest ---
    ("forest", "Finland, Karelia and the northern taiga",
     [(18.0, 60.55), (23.5, 60.6), (26.0, 60.7), (27.6, 60.8), (28.6, 60.95), (29.4, 60.6),
      (29.9, 60.35), (30.6, 60.35), (31.5, 60.15), (32.3, 59.7), (33.2, 59.25), (34.3, 58.7),
      (35.5, 58.5), (37.0, 58.55), (38.5, 58.75), (40.5, 58.9), (42.5, 58.5), (44.5, 58.0),
      (50.0, 57.8), (50.0, 66.0), (18.0, 66.0)]),
    ("forest", "Luga and Ingria forests",
     [(28.1, 59.05), (29.4, 59.25), (30.3, 59.35), (30.9, 59.15), (30.9, 58.6), (30.4, 58.0),
      (29.4, 57.95), (28.5, 58.3)]),
    ("forest", "Valdai hills and the upper Volga",
     [(31.7, 57.25), (32.4, 58.2), (33.6, 58.6), (35.2, 58.3), (36.6, 58.0), (37.6, 57.7),
      (36.6, 56.9), (35.0, 56.6), (33.5, 56.3), (32.2, 56.5)]),
    ("forest", "Belyi, Rzhev and Vyazma forests",
     [(31.4, 56.0), (32.2, 56.35), (33.6, 56.15), (34.8, 55.7), (35.2, 55.15), (34.2, 54.85),
      (32.9, 55.1), (31.9, 55.5)]),
    ("forest", "Bryansk forests",
     [(32.8, 54.35), (34.4, 54.3), (35.7, 53.95), (35.6, 53.0), (34.7, 52.4), (33.6, 52.35),
      (32.7, 52.8), (32.5, 53.6)]),
    ("forest", "Forests north of Moscow (Klin, Dmitrov, Zagorsk)",
     [(36.3, 56.35), (37.4, 56.6), (38.6, 56.85), (39.6, 57.1), (39.2, 57.8), (37.8, 57.9),
      (36.9, 57.4)]),
    ("forest", "Meshchera",
     [(38.7, 55.9), (40.3, 56.05), (41.9, 55.7), (41.6, 54.9), (40.1, 54.7), (38.8, 55.1)]),
    ("forest", "Vetluga and Kerzhenets forests",
     [(42.2, 56.75), (44.0, 56.55), (50.0, 56.3), (50.0, 58.0), (43.0, 58.2), (42.0, 57.8)]),
    ("forest", "Berezina, Lepel and Polotsk forests",
     [(27.6, 54.0), (28.3, 55.0), (29.0, 55.8), (29.8, 56.2), (30.6, 55.9), (29.9, 55.1),
      (29.4, 54.1), (28.6, 53.6), (27.9, 53.6)]),
    ("forest", "Naliboki forest",
     [(25.7, 53.55), (26.6, 54.2), (27.3, 53.95), (26.7, 53.4)]),
    ("forest", "Bialowieza forest",
     [(23.4, 52.5), (24.1, 53.0), (24.6, 52.55), (23.9, 52.3)]),
    ("forest", "Augustow forest",
     [(22.7, 53.7), (23.5, 54.15), (23.9, 53.8), (23.2, 53.45)]),
    ("forest", "Polesie woods of Volhynia and Zhitomir",
     [(24.6, 51.45), (25.8, 51.35), (27.6, 51.3), (29.6, 51.25), (30.4, 51.05), (30.2, 50.65),
      (29.0, 50.55), (27.6, 50.6), (26.4, 50.75), (25.2, 50.95)]),
    ("forest", "Chernigov and Desna woods",
     [(30.6, 51.3), (31.3, 52.1), (32.8, 52.3), (33.4, 51.9), (32.5, 51.55), (31.5, 51.25)]),
    ("forest", "Latgale and north-east Estonia",
     [(26.9, 59.1), (27.9, 59.35), (28.1, 58.9), (27.6, 57.2), (27.9, 56.5), (27.3, 56.3),
      (26.7, 56.9), (27.0, 58.3), (27.2, 58.85)]),
]

# Cities: (name, lon, lat, class).  Major cities: the Soviet cities of 200,000 people or
# more in 1939 (Kalinin is a major city by rule 14.1.2.2's example).  Archangel and
# Sevastopol are named but are not major cities (18.3).  Names as in 1941.
CITIES: list[tuple[str, float, float, str]] = [
    ("Moscow", 37.62, 55.75, "major"), ("Leningrad", 30.31, 59.94, "major"),
    ("Kiev", 30.52, 50.45, "major"), ("Kharkov", 36.25, 50.00, "major"),
    ("Gorky", 44.00, 56.33, "major"), ("Odessa", 30.73, 46.48, "major"),
    ("Rostov", 39.71, 47.24, "major"), ("Dnepropetrovsk", 35.00, 48.47, "major"),
    ("Stalino", 37.80, 48.00, "major"), ("Stalingrad", 44.50, 48.71, "major"),
    ("Voronezh", 39.20, 51.67, "major"), ("Yaroslavl", 39.87, 57.63, "major"),
    ("Ivanovo", 40.98, 57.00, "major"), ("Zaporozhye", 35.14, 47.84, "major"),
    ("Tula", 37.62, 54.19, "major"), ("Kalinin", 35.90, 56.86, "major"),
    ("Minsk", 27.56, 53.90, "major"), ("Riga", 24.11, 56.95, "major"),
    ("Archangel", 40.54, 64.54, "reference"), ("Sevastopol", 33.52, 44.60, "reference"),
    ("Vologda", 39.89, 59.22, "reference"), ("Krasnodar", 38.98, 45.04, "reference"),
    ("Helsinki", 24.94, 60.17, "reference"),
    ("Tallinn", 24.75, 59.44, "reference"), ("Narva", 28.19, 59.38, "reference"),
    ("Tartu", 26.72, 58.38, "reference"), ("Pskov", 28.33, 57.82, "reference"),
    ("Novgorod", 31.27, 58.52, "reference"), ("Staraya Russa", 31.35, 57.99, "reference"),
    ("Luga", 29.85, 58.74, "reference"), ("Tikhvin", 33.60, 59.64, "reference"),
    ("Volkhov", 32.35, 59.92, "reference"), ("Petrozavodsk", 34.36, 61.79, "reference"),
    ("Vyborg", 28.75, 60.71, "reference"), ("Sortavala", 30.69, 61.70, "reference"),
    ("Kholm", 31.13, 57.15, "reference"), ("Demyansk", 32.47, 57.64, "reference"),
    ("Velikiye Luki", 30.53, 56.34, "reference"), ("Toropets", 31.63, 56.50, "reference"),
    ("Nevel", 29.92, 56.02, "reference"), ("Rzhev", 34.33, 56.26, "reference"),
    ("Vyazma", 34.30, 55.21, "reference"), ("Smolensk", 32.05, 54.78, "reference"),
    ("Vitebsk", 30.20, 55.19, "reference"), ("Polotsk", 28.80, 55.49, "reference"),
    ("Orsha", 30.42, 54.51, "reference"), ("Mogilev", 30.33, 53.90, "reference"),
    ("Bobruisk", 29.22, 53.14, "reference"), ("Gomel", 30.98, 52.44, "reference"),
    ("Mozyr", 29.25, 52.05, "reference"), ("Pinsk", 26.10, 52.11, "reference"),
    ("Baranovichi", 26.00, 53.13, "reference"), ("Brest", 23.69, 52.10, "reference"),
    ("Grodno", 23.83, 53.68, "reference"), ("Bialystok", 23.16, 53.13, "reference"),
    ("Lida", 25.30, 53.89, "reference"), ("Vilnius", 25.28, 54.69, "reference"),
    ("Kaunas", 23.90, 54.90, "reference"), ("Siauliai", 23.32, 55.93, "reference"),
    ("Liepaja", 21.01, 56.51, "reference"), ("Ventspils", 21.57, 57.39, "reference"),
    ("Daugavpils", 26.53, 55.87, "reference"), ("Rezekne", 27.33, 56.51, "reference"),
    ("Valga", 26.05, 57.78, "reference"), ("Bryansk", 34.36, 53.25, "reference"),
    ("Roslavl", 32.86, 53.95, "reference"), ("Orel", 36.07, 52.97, "reference"),
    ("Kursk", 36.19, 51.73, "reference"), ("Belgorod", 36.59, 50.60, "reference"),
    ("Yelets", 38.50, 52.62, "reference"), ("Kaluga", 36.27, 54.51, "reference"),
    ("Ryazan", 39.74, 54.63, "reference"), ("Vladimir", 40.40, 56.13, "reference"),
    ("Kostroma", 40.93, 57.77, "reference"), ("Rybinsk", 38.84, 58.05, "reference"),
    ("Cherepovets", 37.90, 59.13, "reference"), ("Tambov", 41.45, 52.72, "reference"),
    ("Saratov", 46.03, 51.53, "reference"), ("Penza", 45.00, 53.20, "reference"),
    ("Chernigov", 31.30, 51.49, "reference"), ("Konotop", 33.20, 51.24, "reference"),
    ("Poltava", 34.55, 49.59, "reference"), ("Sumy", 34.80, 50.91, "reference"),
    ("Kremenchug", 33.42, 49.07, "reference"), ("Cherkassy", 32.06, 49.44, "reference"),
    ("Kirovograd", 32.26, 48.51, "reference"), ("Krivoi Rog", 33.39, 47.91, "reference"),
    ("Nikolaev", 31.99, 46.97, "reference"), ("Kherson", 32.62, 46.64, "reference"),
    ("Uman", 30.22, 48.75, "reference"), ("Vinnitsa", 28.47, 49.23, "reference"),
    ("Zhitomir", 28.66, 50.25, "reference"), ("Korosten", 28.64, 50.95, "reference"),
    ("Proskurov", 27.00, 49.42, "reference"), ("Kamenets-Podolsky", 26.58, 48.68, "reference"),
    ("Tarnopol", 25.59, 49.55, "reference"), ("Lvov", 24.03, 49.84, "reference"),
    ("Stanislav", 24.71, 48.92, "reference"), ("Chernovtsy", 25.93, 48.29, "reference"),
    ("Rovno", 26.25, 50.62, "reference"), ("Lutsk", 25.33, 50.75, "reference"),
    ("Kovel", 24.72, 51.21, "reference"), ("Sarny", 26.61, 51.34, "reference"),
    ("Kishinev", 28.86, 47.01, "reference"), ("Beltsy", 27.93, 47.76, "reference"),
    ("Izmail", 28.84, 45.35, "reference"), ("Tiraspol", 29.63, 46.84, "reference"),
    ("Simferopol", 34.10, 44.95, "reference"), ("Kerch", 36.47, 45.36, "reference"),
    ("Feodosiya", 35.38, 45.03, "reference"), ("Yevpatoria", 33.37, 45.19, "reference"),
    ("Melitopol", 35.37, 46.85, "reference"), ("Mariupol", 37.55, 47.10, "reference"),
    ("Taganrog", 38.90, 47.22, "reference"), ("Voroshilovgrad", 39.31, 48.57, "reference"),
    ("Izyum", 37.26, 49.21, "reference"), ("Kupyansk", 37.62, 49.71, "reference"),
    ("Millerovo", 40.40, 48.92, "reference"), ("Kamensk", 40.27, 48.32, "reference"),
    ("Novocherkassk", 40.10, 47.42, "reference"), ("Salsk", 41.54, 46.47, "reference"),
    ("Tikhoretsk", 40.13, 45.85, "reference"), ("Armavir", 41.12, 45.00, "reference"),
    ("Maikop", 40.10, 44.61, "reference"), ("Novorossiysk", 37.77, 44.72, "reference"),
    ("Voroshilovsk", 41.97, 45.04, "reference"), ("Elista", 44.27, 46.31, "reference"),
    ("Kotelnikovo", 43.15, 47.63, "reference"), ("Kalach", 43.50, 48.69, "reference"),
    ("Rossosh", 39.57, 50.20, "reference"), ("Borisoglebsk", 42.08, 51.37, "reference"),
    ("Kamyshin", 45.40, 50.09, "reference"), ("Michurinsk", 40.50, 52.90, "reference"),
    ("Murom", 42.05, 55.57, "reference"), ("Mozhaisk", 36.03, 55.50, "reference"),
    ("Bologoye", 34.05, 57.88, "reference"), ("Ostashkov", 33.10, 57.14, "reference"),
    ("Ostrov", 28.36, 57.34, "reference"), ("Lodeynoye Pole", 33.55, 60.73, "reference"),
    ("Medvezhyegorsk", 34.46, 62.91, "reference"), ("Nyandoma", 40.20, 61.67, "reference"),
    ("Kargopol", 38.95, 61.50, "reference"), ("Onega", 38.12, 63.91, "reference"),
    ("Belozersk", 37.79, 60.03, "reference"), ("Vytegra", 36.45, 61.00, "reference"),
    ("Konigsberg", 20.51, 54.71, "reference"), ("Tilsit", 21.88, 55.08, "reference"),
    ("Memel", 21.13, 55.71, "reference"), ("Insterburg", 21.80, 54.63, "reference"),
    ("Elbing", 19.40, 54.16, "reference"), ("Warsaw", 21.01, 52.23, "reference"),
    ("Lublin", 22.57, 51.25, "reference"), ("Przemysl", 22.77, 49.78, "reference"),
    ("Radom", 21.15, 51.40, "reference"), ("Kielce", 20.63, 50.87, "reference"),
    ("Litzmannstadt", 19.46, 51.76, "reference"), ("Suwalki", 22.93, 54.10, "reference"),
    ("Chelm", 23.47, 51.14, "reference"), ("Zamosc", 23.25, 50.72, "reference"),
    ("Iasi", 27.59, 47.16, "reference"), ("Bucharest", 26.10, 44.43, "reference"),
    ("Ploiesti", 26.02, 44.94, "reference"), ("Galati", 28.05, 45.43, "reference"),
    ("Constanta", 28.63, 44.17, "reference"), ("Focsani", 27.18, 45.70, "reference"),
    ("Bacau", 26.91, 46.57, "reference"), ("Brasov", 25.60, 45.65, "reference"),
    ("Suceava", 26.25, 47.65, "reference"), ("Mukacevo", 22.72, 48.44, "reference"),
    ("Turku", 22.27, 60.45, "reference"), ("Kotka", 26.95, 60.47, "reference"),
    ("Lappeenranta", 28.19, 61.06, "reference"), ("Mikkeli", 27.27, 61.69, "reference"),
    ("Kouvola", 26.70, 60.87, "reference"), ("Joensuu", 29.76, 62.60, "reference"),
    ("Tampere", 23.76, 61.50, "reference"), ("Kuopio", 27.68, 62.89, "reference"),
]

# Where the rulebook names a hex, the city is put there whatever the fit says.
RULE_CITY_HEXES = {"Moscow": "1808", "Leningrad": "0712", "Helsinki": "0416"}
RULE_CITY_SOURCES = {
    "Moscow": "rules: 14.2.4 B", "Leningrad": "rules: 15.2.2 B", "Helsinki": "rules: 8.2.1 B",
    "Kalinin": "rules: 14.1.2.2", "Archangel": "rules: 18.3", "Sevastopol": "rules: 18.3",
    "Vologda": "rules: 1.1.2 A", "Krasnodar": "rules: 1.1.2 A", "Odessa": "rules: 17.1.5",
    "Kiev": "rules: 20.6.4",
}

# Hexes the rulebook names for other reasons (setup hexes, the Baltic Fleet crossing).
RULE_HEXES = {
    "1825": ("46th Panzer Corps deployment hex", "rules: 1.2.2"),
    "1222": ("Soviet 11th Army deployment hex", "rules: 19.0 B"),
    "0713": ("fortifications hex across the all-sea hexside from Leningrad", "rules: 20.1.1 B"),
}
FORTIFICATIONS = {"0713": "rules: 20.1.1 B"}

# Rivers: id -> (name as printed, Natural Earth names (name or "name|name_alt")).
RIVERS: dict[str, tuple[str, list[str]]] = {
    "volga": ("Volga", ["Volga"]),
    "dnepr": ("Dnepr", ["Dnipro", "Dnepre", "Dnepr"]),
    "don": ("Don", ["Don"]),
    "daugava": ("Western Dvina (Daugava)", ["Daugava"]),
    "neman": ("Neman", ["Neman", "Usha|Nyoman"]),
    "bug": ("Bug", ["Bug", "Zakhidnyy Buh"]),
    "pripyat": ("Pripyat", ["Pripyat", "Prypyat"]),
    "berezina": ("Berezina", ["Byarezina"]),
    "desna": ("Desna", ["Desna"]),
    "dniester": ("Dniester", ["Dniester"]),
    "prut": ("Prut", ["Prut"]),
    "southern-bug": ("Southern Bug", ["Southern Bug"]),
    "volkhov": ("Volkhov", ["Volkhov"]),
    "svir": ("Svir", ["Svir"]),
    "narva": ("Narva", ["Narva"]),
    "neva": ("Neva", ["Neva"]),
    "oka": ("Oka", ["Oka"]),
    "northern-dvina": ("Northern Dvina", ["Severnaya Dvina"]),
    "velikaya": ("Velikaya", ["Velikaya"]),
    "luga": ("Luga", ["Luga"]),
    "sozh": ("Sozh", ["Sozh"]),
    "seym": ("Seym", ["Seym"]),
    "donets": ("Donets", ["Donets", "Seversky Donets"]),
    "kuban": ("Kuban", ["Kuban"]),
    "vistula": ("Vistula", ["Vistula"]),
    "narew": ("Narew", ["Narew"]),
    "san": ("San", ["San|Wisla"]),
    "vuoksi": ("Vuoksi", ["Vuoksi", "Vuoksi|Ladoga, Neva"]),
    "danube": ("Danube", ["Danube", "Bratul Chillia"]),
    "lovat": ("Lovat", []),
}
# Natural Earth has no Lovat: typed from general knowledge, source to mouth.
LOVAT = [(30.0, 56.0), (30.53, 56.34), (30.75, 56.75), (31.13, 57.15), (31.30, 57.60),
         (31.40, 57.95), (31.45, 58.20)]
CANALS = {"white-sea-canal": ("White Sea Canal", ["White Sea Canal"])}
MIN_RIVER_HEXES = 1.2  # a river shorter than this on the map is not drawn

# Rule 15.2.2 B: Finnish units may not attack Soviet units south of the Svir or east of
# the White Sea Canal.  The rulebook does not say where those areas end; reconstructed
# as: land east of the Svir's mouth (33.0 E) and south of the Svir / Lake Onega's south
# shore (61.0 N); and land east of the canal and Lake Onega (34.9 E) north of 61.0 N.
# The rule's example then fixes three hexes (0707 may be attacked, 0808 and 0910 not).
SVIR_MOUTH_LON, SVIR_LAT, CANAL_LON = 33.0, 61.0, 34.9
FINNISH_LIMIT_EXAMPLE = {"0707": "", "0808": "south-of-svir", "0910": "south-of-svir"}


def svir_latitude(lon: float) -> float:
    """The Svir from Ladoga (32.95 E) to Lake Onega (35.5 E), then Onega's south shore."""
    course = [(32.95, 60.50), (33.55, 60.73), (34.17, 60.91), (35.47, 61.01), (40.0, 61.0)]
    for (x1, y1), (x2, y2) in zip(course, course[1:], strict=False):
        if x1 <= lon <= x2:
            return y1 + (y2 - y1) * (lon - x1) / (x2 - x1)
    return course[-1][1]
