"""What the Blitzkrieg '41 map generator (gen_map.py) knows beyond Natural Earth: the hexes
the rulebook numbers, the 1939 and 1941 borders, terrain areas and places, typed from the
rulebook and from general knowledge (approximate, 10-20 km). MAP-README.md lists each
reconstruction and why."""

from __future__ import annotations

import math

Coords = list[tuple[float, float]]

# -- hexes the rulebook gives to real places: the anchors of the fit -----------------------
ANCHORS: dict[str, tuple[tuple[float, float], str, str]] = {
    "Leningrad": ((30.31, 59.94), "B9", "rules: 5.2 C"),
    "Oranienbaum": ((29.77, 59.92), "B10", "rules: 6.20 B"),
    "Riga": ((24.11, 56.95), "E16", "rules: 5.4"),
    "Kaunas": ((23.90, 54.90), "H17", "rules: 5.4"),
    "Kiev": ((30.52, 50.45), "R15", "rules: 9.19"),
    "Odessa": ((30.73, 46.48), "Y17", "rules: 5.13 B"),
    "Sevastopol": ((33.52, 44.60), "CC15", "rules: 5.13 B"),
    "Novorossisk": ((37.77, 44.72), "DD10", "rules: 5.13 B"),
    "Perekop": ((33.69, 46.15), "AA14", "rules: 9.19"),
    "Kerch": ((36.47, 45.36), "CC12", "rules: 9.12 A"),
    "Taman": ((36.72, 45.21), "CC11", "rules: 9.12 A"),
}

# -- borders (22 June 1941), as in the other 1941 maps of the project -----------------------
_USSR_WEST = [  # from the Baltic to the Uzhok pass (Memel, East Prussia, the Bug, the San)
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
_HUNGARY_ROMANIA = [
    (24.95, 47.75), (25.30, 47.30), (25.60, 46.90), (25.80, 46.60), (26.10, 46.20),
    (26.00, 45.90), (25.50, 46.00), (24.80, 46.30), (24.20, 46.50), (23.70, 46.60),
    (23.20, 46.55), (22.60, 46.75), (22.00, 46.75), (21.60, 46.65), (21.20, 46.30),
    (20.70, 46.15), (20.20, 46.15),
]
_CARPATHIAN_GG = [(22.65, 49.05), (22.30, 49.15), (21.70, 49.40), (21.00, 49.40),
                  (20.30, 49.40), (19.80, 49.20), (19.00, 49.40), (18.50, 49.50), (17.0, 50.0)]
_SLOVAK_HUNGARY = [(22.30, 49.15), (22.10, 48.90), (21.60, 48.80), (21.00, 48.80),
                   (20.50, 48.60), (19.00, 48.10), (17.00, 48.00)]

# The Soviet border of 1939 (before the annexations of 1939-40), north to south: the
# Karelian isthmus, the Narva, Lake Peipus, the Latvian and Polish borders, the Zbruch
# and the Dniester. The Stalin Line runs along it (9.17).
BORDER_1939: Coords = [
    (31.00, 60.60), (30.40, 60.35), (29.95, 60.12),
    (28.05, 59.47), (28.20, 59.38), (27.95, 59.20), (27.72, 58.98), (27.55, 58.50),
    (27.55, 58.00), (27.50, 57.80), (27.55, 57.53), (27.85, 57.30), (27.80, 56.90),
    (28.15, 56.50), (28.20, 56.15), (28.00, 55.85), (27.70, 55.50), (27.50, 55.10),
    (27.30, 54.60), (27.05, 54.10), (27.00, 53.70), (27.20, 53.20), (27.60, 52.70),
    (27.70, 52.20), (27.60, 51.70), (27.60, 51.20), (27.40, 50.80), (27.20, 50.40),
    (26.60, 50.00), (26.20, 49.60), (26.20, 49.10), (26.40, 48.60), (26.90, 48.50),
    (27.40, 48.45), (27.80, 48.40), (28.30, 48.20), (28.70, 48.00), (29.00, 47.70),
    (29.20, 47.30), (29.50, 47.00), (29.70, 46.80), (30.00, 46.45), (30.30, 46.10),
]

COUNTRIES: dict[str, Coords] = {
    "finland": [(18.0, 59.75), (24.0, 59.75), (26.5, 60.00), (27.5, 60.30), (27.80, 60.45),
                (27.78, 60.56), (28.05, 60.75), (28.55, 61.00), (28.75, 61.14),
                (29.25, 61.27), (29.60, 61.50), (30.05, 61.75), (30.4, 63.0), (18.0, 63.0)],
    "germany": [(20.5, 56.2), *_USSR_WEST, *_CARPATHIAN_GG[1:], (10.0, 50.5), (10.0, 56.2)],
    "slovakia": [*_CARPATHIAN_GG[1:], *_SLOVAK_HUNGARY[::-1]],
    "hungary": [*_SLOVAK_HUNGARY[::-1], *_CARPATHIAN_GG[:1], *_HUNGARY_USSR[1:],
                *_HUNGARY_ROMANIA[1:], (19.5, 46.1), (18.8, 45.9), (16.0, 45.8), (16.0, 48.0)],
    "romania": [*_HUNGARY_ROMANIA[::-1], *_ROMANIA_USSR[1:], (30.5, 43.5), (28.6, 43.75),
                (27.9, 43.98), (27.3, 44.10), (27.0, 44.10), (26.0, 43.90), (25.0, 43.70),
                (22.9, 43.80), (22.4, 44.50), (21.4, 44.80), (20.2, 46.15)],
    "sweden": [(10.0, 55.2), (19.45, 55.2), (19.45, 66.0), (10.0, 66.0)],
    "bulgaria": [(22.3, 41.0), (22.4, 44.2), (22.9, 43.80), (25.0, 43.70), (26.0, 43.90),
                 (27.0, 44.10), (27.3, 44.10), (27.9, 43.98), (28.6, 43.75), (30.0, 43.4),
                 (30.0, 41.0)],
    # not a country of 1941: the USSR of 1939, only to tell the Stalin Line's side
    "ussr-1939": [*BORDER_1939, (30.6, 40.0), (50.0, 40.0), (50.0, 70.0), (31.5, 70.0)],
}
AXIS_COUNTRIES = ("germany", "hungary", "romania")  # 2.6.1: the ZOMO is theirs (5.14 A)
OLD_USSR = "ussr-1939"

# -- the hexes the rulebook names -----------------------------------------------------------
# hex -> (kind: land / lake / sea, country of a land hex or "", rule)
FORCED_HEXES: dict[str, tuple[str, str, str]] = {
    "B9": ("land", "soviet", "rules: 5.2 C"),
    "B10": ("land", "soviet", "rules: 6.20 B"),
    "B8": ("lake", "", "rules: 9.24 A"),
    "C15": ("land", "soviet", "rules: 5.6 A"),
    "C16": ("sea", "", "rules: 5.6 A"),
    "C17": ("land", "soviet", "rules: 5.6 A"),
    "E16": ("land", "soviet", "rules: 5.4"),
    "G19": ("land", "soviet", "rules: 5.4"),
    "H17": ("land", "soviet", "rules: 5.4"),
    "H9": ("land", "soviet", "rules: 5.15 D"),
    "H19": ("land", "germany", "rules: 5.14 A"),
    "I19": ("land", "soviet", "rules: 5.14 A"),
    "P23": ("land", "germany", "rules: 5.15 A"),
    "O21": ("land", "germany", "rules: 5.14 A"),
    "Q23": ("land", "hungary", "rules: 5.15 A"),
    "K5": ("land", "soviet", "rules: 15.1"),
    "K7": ("land", "soviet", "rules: 6.18 C"),
    "R15": ("land", "soviet", "rules: 9.19"),
    "Y17": ("land", "soviet", "rules: 5.13 B"),
    "CC15": ("land", "soviet", "rules: 5.13 B"),
    "DD10": ("land", "soviet", "rules: 5.13 B"),
    "Z13": ("land", "soviet", "rules: 9.13 A"),
    "AA13": ("land", "soviet", "rules: 9.13 A"),
    "AA14": ("land", "soviet", "rules: 9.19"),
    "CC11": ("land", "soviet", "rules: 9.12 A"),
    "CC12": ("land", "soviet", "rules: 9.12 A"),
    "BB12": ("land", "soviet", "rules: 9.1 B"),
    "BB15": ("land", "soviet", "rules: 9.1 B"),
}
PROTRUDING_ZOMO = {"H19": "rules: 5.14 A", "O21": "rules: 5.14 A"}
FORCED_HEXSIDES: dict[tuple[str, str], tuple[str, str]] = {
    ("CC11", "CC12"): ("kerch", "rules: 9.12 A"),
    ("Z13", "AA14"): ("sivash", "rules: 9.13 A"),
    ("AA13", "AA14"): ("sivash", "rules: 9.13 A"),
}
NOT_COASTAL = {"Z13": "rules: 9.13 B"}
# Leningrad's Neva Bay is narrower than a hex: its coast is set (German Baltic supply, 5.21)
FORCED_COASTS = {"B9": ("Baltic Sea", "rules: 5.21")}
LADOGA = "Lake Ladoga"
LADOGA_MAIN = "B8"
SIVASH = "Sivash"
RYBINSK = "Rybinsk Reservoir"

FORTIFICATIONS: dict[str, tuple[str, str]] = {  # 9.19: independent fortifications
    "Y17": ("Odessa", "rules: 9.19"), "CC15": ("Sevastopol", "rules: 9.19"),
    "AA14": ("Perekop", "rules: 9.19"), "R15": ("Kiev", "rules: 9.19"),
    "B10": ("Oranienbaum", "rules: 9.19"), "B9": ("Leningrad", "rules: 9.19"),
}
FORTIFIED_LINES: dict[str, tuple[list[str], str]] = {  # 9.20
    "Luga": (["B11", "C11", "D10", "E10"], "rules: 9.20 A"),
    "Vyazma": (["I9", "J8", "K9", "L8", "M9"], "rules: 9.20 B"),
    "Mozhaisk": (["J7", "K7", "L7", "M7", "N6"], "rules: 9.20 C"),
    "Moscow": (["J5", "K6", "L5"], "rules: 9.20 D"),
}
# 9.1 B: the southern weather zone, the nine Crimean hexes inside the weather line
SOUTHERN_ZONE = ["AA14", "BB12", "BB13", "BB14", "BB15", "CC12", "CC13", "CC14", "CC15"]

# -- places: (name as the rulebook spells it, lon, lat, city/town/oilfield, hex, rule) -------
_CITIES = [
    ("Leningrad", 30.31, 59.94, "B9", "rules: 5.2 C"),
    ("Moscow", 37.62, 55.75, "K5", "rules: 15.1"),
    ("Kiev", 30.52, 50.45, "R15", "rules: 9.19"),
    ("Riga", 24.11, 56.95, "E16", "rules: 5.4"),
    ("Odessa", 30.73, 46.48, "Y17", "rules: 5.13 B"),
    ("Sevastopol", 33.52, 44.60, "CC15", "rules: 5.13 B"),
    ("Novorossisk", 37.77, 44.72, "DD10", "rules: 5.13 B"),
    ("Minsk", 27.56, 53.90, "", "rules: 15.2 B"),
    ("Smolensk", 32.05, 54.78, "", "rules: 15.2 B"),
    ("Kharkhov", 36.25, 50.00, "", "rules: 15.2 B"),
    ("Gorki", 44.00, 56.33, "L1", "rules: 15.2 B"),
    ("Stalingrad", 44.50, 48.71, "", "rules: 15.2 B"),
    ("Dnepro Petrovsk", 35.00, 48.47, "", "rules: 15.2 B"),
]
_TOWNS = [
    ("Kaunas", 23.90, 54.90, "H17", "rules: 5.4"),
    ("Oranienbaum", 29.77, 59.92, "B10", "rules: 6.20 B"),
    ("Stalino", 37.80, 48.00, "", "rules: 15.2 A"),
    ("Tallinn", 24.75, 59.44), ("Narva", 28.19, 59.38), ("Tartu", 26.72, 58.38),
    ("Parnu", 24.50, 58.39), ("Pskov", 28.33, 57.82), ("Novgorod", 31.27, 58.52),
    ("Staraya Russa", 31.35, 57.99), ("Luga", 29.85, 58.74), ("Tikhvin", 33.60, 59.64),
    ("Volkhov", 32.35, 59.92), ("Kholm", 31.13, 57.15), ("Velikiye Luki", 30.53, 56.34),
    ("Nevel", 29.92, 56.02), ("Rzhev", 34.33, 56.26), ("Vyazma", 34.30, 55.21),
    ("Vitebsk", 30.20, 55.19), ("Polotsk", 28.80, 55.49), ("Orsha", 30.42, 54.51),
    ("Mogilev", 30.33, 53.90), ("Bobruisk", 29.22, 53.14), ("Gomel", 30.98, 52.44),
    ("Mozyr", 29.25, 52.05), ("Pinsk", 26.10, 52.11), ("Baranovichi", 26.00, 53.13),
    ("Brest", 23.69, 52.10), ("Grodno", 23.83, 53.68), ("Bialystok", 23.16, 53.13),
    ("Lida", 25.30, 53.89), ("Vilnius", 25.28, 54.69), ("Siauliai", 23.32, 55.93),
    ("Liepaja", 21.01, 56.51), ("Ventspils", 21.57, 57.39), ("Daugavpils", 26.53, 55.87),
    ("Rezekne", 27.33, 56.51), ("Valga", 26.05, 57.78), ("Bryansk", 34.36, 53.25),
    ("Roslavl", 32.86, 53.95), ("Orel", 36.07, 52.97), ("Kursk", 36.19, 51.73),
    ("Belgorod", 36.59, 50.60), ("Kaluga", 36.27, 54.51), ("Tula", 37.62, 54.19),
    ("Ryazan", 39.74, 54.63), ("Vladimir", 40.40, 56.13), ("Kalinin", 35.90, 56.86),
    ("Yaroslavl", 39.87, 57.63), ("Rybinsk", 38.84, 58.05), ("Cherepovets", 37.90, 59.13),
    ("Ivanovo", 40.98, 57.00), ("Voronezh", 39.20, 51.67), ("Yelets", 38.50, 52.62),
    ("Chernigov", 31.30, 51.49), ("Konotop", 33.20, 51.24), ("Poltava", 34.55, 49.59),
    ("Sumy", 34.80, 50.91), ("Kremenchug", 33.42, 49.07), ("Cherkassy", 32.06, 49.44),
    ("Kirovograd", 32.26, 48.51), ("Krivoi Rog", 33.39, 47.91), ("Nikolaev", 31.99, 46.97),
    ("Kherson", 32.62, 46.64), ("Uman", 30.22, 48.75), ("Vinnitsa", 28.47, 49.23),
    ("Zhitomir", 28.66, 50.25), ("Korosten", 28.64, 50.95), ("Proskurov", 27.00, 49.42),
    ("Kamenets-Podolsky", 26.58, 48.68), ("Tarnopol", 25.59, 49.55), ("Lvov", 24.03, 49.84),
    ("Stanislav", 24.71, 48.92), ("Chernovtsy", 25.93, 48.29), ("Rovno", 26.25, 50.62),
    ("Lutsk", 25.33, 50.75), ("Kovel", 24.72, 51.21), ("Kishinev", 28.86, 47.01),
    ("Beltsy", 27.93, 47.76), ("Izmail", 28.84, 45.35), ("Simferopol", 34.10, 44.95),
    ("Kerch", 36.47, 45.36, "CC12", "rules: 9.12 A"), ("Feodosiya", 35.38, 45.03),
    ("Yevpatoria", 33.37, 45.19), ("Melitopol", 35.37, 46.85), ("Zaporozhye", 35.14, 47.84),
    ("Mariupol", 37.55, 47.10), ("Taganrog", 38.90, 47.22), ("Rostov", 39.71, 47.24),
    ("Voroshilovgrad", 39.31, 48.57), ("Izyum", 37.26, 49.21), ("Millerovo", 40.40, 48.92),
    ("Krasnodar", 38.98, 45.04), ("Tikhoretsk", 40.13, 45.85), ("Armavir", 41.12, 45.00),
    ("Salsk", 41.54, 46.47), ("Kotelnikovo", 43.15, 47.63), ("Kalach", 43.50, 48.69),
    ("Rossosh", 39.57, 50.20), ("Borisoglebsk", 42.08, 51.37), ("Tambov", 41.45, 52.72),
    ("Michurinsk", 40.50, 52.90), ("Murom", 42.05, 55.57), ("Bologoye", 34.05, 57.88),
    ("Ostashkov", 33.10, 57.14), ("Ostrov", 28.36, 57.34), ("Mozhaisk", 36.03, 55.50),
]
PLACES: list[tuple[str, float, float, str, str, str]] = [
    *[(n, lon, lat, "city", h, r) for n, lon, lat, h, r in _CITIES],
    *[(t[0], t[1], t[2], "town", t[3] if len(t) > 3 else "", t[4] if len(t) > 4 else "")
      for t in _TOWNS],
    ("Maikop oilfield", 40.10, 44.61, "oilfield", "", "rules: 15.2 A"),
]
PORTS = {"Y17": ("Odessa", "rules: 5.13 B"), "CC15": ("Sevastopol", "rules: 5.13 B"),
         "DD10": ("Novorossisk", "rules: 5.13 B")}
VICTORY_POINTS: dict[str, tuple[int, str]] = {  # 15.2 B; Leningrad 15.7 B; oil 15.2 A
    "Dnepro Petrovsk": (3, "rules: 15.2 B"), "Sevastopol": (4, "rules: 15.2 B"),
    "Moscow": (18, "rules: 15.2 B"), "Odessa": (3, "rules: 15.2 B"),
    "Kiev": (5, "rules: 15.2 B"), "Riga": (3, "rules: 15.2 B"),
    "Stalino": (2, "rules: 15.2 B"), "Minsk": (3, "rules: 15.2 B"),
    "Gorki": (4, "rules: 15.2 B"), "Smolensk": (4, "rules: 15.2 B"),
    "Kharkhov": (4, "rules: 15.2 B"), "Stalingrad": (6, "rules: 15.2 B"),
    "Leningrad": (12, "rules: 15.7 B"), "Maikop oilfield": (12, "rules: 15.2 A, B"),
}
AZOV_WEST, AZOV_SOUTH = 34.8, 45.28  # water north-east of the Kerch Straits is the Azov

# -- rivers (9.9): Natural Earth ids -> (name, major/minor) -----------------------------------
RIVERS: dict[str, tuple[str, str]] = {
    "dnepr": ("Dnepr", "major"), "don": ("Don", "major"), "volga": ("Volga", "major"),
    "daugava": ("Western Dvina", "major"), "dniester": ("Dniester", "major"),
    "neman": ("Neman", "minor"), "berezina": ("Berezina", "minor"),
    "desna": ("Desna", "minor"), "pripyat": ("Pripyat", "minor"), "bug": ("Bug", "minor"),
    "southern-bug": ("Southern Bug", "minor"), "prut": ("Prut", "minor"),
    "volkhov": ("Volkhov", "minor"), "narva": ("Narva", "minor"), "neva": ("Neva", "minor"),
    "oka": ("Oka", "minor"), "velikaya": ("Velikaya", "minor"), "luga": ("Luga", "minor"),
    "sozh": ("Sozh", "minor"), "seym": ("Seym", "minor"), "donets": ("Donets", "minor"),
    "kuban": ("Kuban", "minor"),
}
# Natural Earth lake names -> the map's (small lakes lie on hexsides, 9.24 A)
LAKE_NAMES = {"Lake Ladoga": LADOGA, "Lake Peipus": "Lake Peipus",
              "Pskoyskoye Ozero": "Lake Peipus", "Lake Il'Men'": "Lake Ilmen",
              "Rybinsk Reservoir": RYBINSK, "Lake Beloye": "Lake Beloye",
              "Syvash": SIVASH}

# -- terrain areas (9.11): broken (hills), marsh, forest -------------------------------------
MOUNTAIN_AREAS = {"Carpathians", "Crimean mountains"}
TERRAIN: list[tuple[str, str, Coords]] = [
    ("broken", "Carpathians",
     [(21.6, 49.45), (22.4, 49.55), (23.3, 49.3), (24.2, 48.95), (24.9, 48.45), (25.4, 47.95),
      (25.8, 47.55), (26.1, 47.0), (26.4, 46.4), (26.6, 45.9), (26.6, 45.5), (26.0, 45.35),
      (25.5, 45.45), (25.4, 45.9), (25.2, 46.5), (24.9, 47.1), (24.4, 47.6), (23.7, 48.1),
      (23.0, 48.45), (22.3, 48.7), (21.7, 49.0)]),
    ("broken", "Crimean mountains",
     [(33.45, 44.45), (33.55, 44.75), (33.95, 44.95), (34.5, 45.05), (35.2, 45.15),
      (35.5, 45.05), (35.2, 44.8), (34.5, 44.6), (33.9, 44.4)]),
    ("broken", "Caucasus foothills",
     [(37.4, 44.8), (38.6, 44.55), (39.6, 44.45), (40.5, 44.45), (41.5, 44.2), (42.6, 43.9),
      (43.0, 43.4), (41.0, 43.3), (39.5, 43.7), (38.3, 44.2), (37.3, 44.6)]),
    ("broken", "Valdai hills",
     [(32.0, 57.0), (32.6, 57.9), (33.6, 58.2), (34.2, 57.6), (33.6, 56.9), (32.6, 56.7)]),
    ("broken", "Central Russian upland (Kursk, Orel)",
     [(35.6, 52.6), (36.9, 52.9), (38.0, 52.2), (37.9, 51.2), (36.9, 50.9), (35.7, 51.4)]),
    ("broken", "Donets ridge",
     [(37.9, 48.5), (38.9, 48.6), (39.9, 48.3), (39.7, 47.9), (38.6, 47.85), (37.9, 48.0)]),
    ("marsh", "Pripet marshes (Polesie)",
     [(23.9, 52.0), (24.6, 52.45), (25.6, 52.65), (26.8, 52.75), (28.0, 52.6), (29.3, 52.4),
      (30.3, 52.05), (30.6, 51.6), (29.8, 51.4), (28.3, 51.45), (27.0, 51.35), (25.8, 51.45),
      (24.9, 51.5), (24.2, 51.7)]),
    ("marsh", "Volkhov and Lake Ilmen marshes",
     [(30.8, 58.2), (31.1, 58.7), (31.5, 59.25), (32.2, 59.8), (32.9, 59.6), (32.5, 58.9),
      (32.1, 58.3), (31.6, 57.9)]),
    ("marsh", "Lovat and Polist marshes",
     [(30.9, 57.8), (31.6, 58.05), (32.4, 57.95), (32.3, 57.4), (31.5, 57.25), (30.8, 57.45)]),
    ("marsh", "Danube delta",
     [(28.7, 45.15), (29.0, 45.5), (29.75, 45.45), (29.75, 44.8), (28.9, 44.9)]),
    ("forest", "Northern taiga",
     [(27.6, 60.8), (28.6, 60.95), (29.4, 60.6), (29.9, 60.35), (30.6, 60.35), (31.5, 60.15),
      (32.3, 59.7), (33.2, 59.25), (34.3, 58.7), (35.5, 58.5), (37.0, 58.55), (38.5, 58.75),
      (40.5, 58.9), (42.5, 58.5), (44.5, 58.0), (50.0, 57.8), (50.0, 63.0), (27.6, 63.0)]),
    ("forest", "Luga and Ingria forests",
     [(28.1, 59.05), (29.4, 59.25), (30.3, 59.35), (30.9, 59.15), (30.9, 58.6), (30.4, 58.0),
      (29.4, 57.95), (28.5, 58.3)]),
    ("forest", "Upper Volga forests",
     [(34.2, 57.6), (35.2, 58.3), (36.6, 58.0), (37.6, 57.7), (36.6, 56.9), (35.0, 56.6),
      (33.6, 56.9)]),
    ("forest", "Belyi, Rzhev and Vyazma forests",
     [(31.4, 56.0), (32.2, 56.35), (33.6, 56.15), (34.8, 55.7), (35.2, 55.15), (34.2, 54.85),
      (32.9, 55.1), (31.9, 55.5)]),
    ("forest", "Bryansk forests",
     [(32.8, 54.35), (34.4, 54.3), (35.7, 53.95), (35.6, 53.0), (34.7, 52.4), (33.6, 52.35),
      (32.7, 52.8), (32.5, 53.6)]),
    ("forest", "Forests north of Moscow",
     [(36.3, 56.35), (37.4, 56.6), (38.6, 56.85), (39.6, 57.1), (39.2, 57.8), (37.8, 57.9),
      (36.9, 57.4)]),
    ("forest", "Meshchera",
     [(38.7, 55.9), (40.3, 56.05), (41.9, 55.7), (41.6, 54.9), (40.1, 54.7), (38.8, 55.1)]),
    ("forest", "Berezina, Lepel and Polotsk forests",
     [(27.6, 54.0), (28.3, 55.0), (29.0, 55.8), (29.8, 56.2), (30.6, 55.9), (29.9, 55.1),
      (29.4, 54.1), (28.6, 53.6), (27.9, 53.6)]),
    ("forest", "Naliboki forest",
     [(25.7, 53.55), (26.6, 54.2), (27.3, 53.95), (26.7, 53.4)]),
    ("forest", "Bialowieza forest",
     [(23.4, 52.5), (24.1, 53.0), (24.6, 52.55), (23.9, 52.3)]),
    ("forest", "Polesie woods of Volhynia and Zhitomir",
     [(24.6, 51.45), (25.8, 51.35), (27.6, 51.3), (29.6, 51.25), (30.4, 51.05), (30.2, 50.65),
      (29.0, 50.55), (27.6, 50.6), (26.4, 50.75), (25.2, 50.95)]),
    ("forest", "Chernigov and Desna woods",
     [(30.6, 51.3), (31.3, 52.1), (32.8, 52.3), (33.4, 51.9), (32.5, 51.55), (31.5, 51.25)]),
    ("forest", "Latgale and north-east Estonia",
     [(26.9, 59.1), (27.9, 59.35), (28.1, 58.9), (27.6, 57.2), (27.9, 56.5), (27.3, 56.3),
      (26.7, 56.9), (27.0, 58.3), (27.2, 58.85)]),
]


def densify(coords: Coords, step: float = 0.1) -> Coords:
    """A closed ring with extra points every `step` degrees, so projected edges bend."""
    out: Coords = []
    for a, b in zip(coords, coords[1:] + coords[:1], strict=False):
        n = max(1, math.ceil(math.dist(a, b) / step))
        out += [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n)]
    return out


def densify_line(coords: Coords, step: float = 0.1) -> Coords:
    """An open line with extra points every `step` degrees."""
    out: Coords = []
    for a, b in zip(coords, coords[1:], strict=False):
        n = max(1, math.ceil(math.dist(a, b) / step))
        out += [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n)]
    return [*out, coords[-1]]
