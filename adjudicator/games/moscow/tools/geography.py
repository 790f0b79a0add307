"""The hand-placed facts of the Moscow '41 map: its grid and extent, the projection laid
under it (Moscow at the centre of 2808, 20 miles a hex: 2.9), the hexes the rulebook's
examples fix, and the tables typed from general knowledge in lon/lat (the front line of
1 October 1941, terrain, towns, roads, the Natural Earth rivers and lakes to take)."""

from __future__ import annotations

from adjudicator.engine.hexgrid import HexGrid
from adjudicator.mapgen.frame import HexFrame, Point
from adjudicator.mapgen.projection import Anchored, LambertConic

GRID = HexGrid(orientation="flat", shifted="odd", numbering="CCRR")
GRID_SOURCE = "rules: 4.5, 6.0, 1.3.1 G"

# The extent: columns 01-34 (west to east), rows 01-22 (north to south).
COLUMNS = range(1, 35)
ROWS = range(1, 23)
EDGE_NAMES = {"west": "column 01", "east": "column 34", "north": "row 01", "south": "row 22"}

FRAME = HexFrame(GRID, COLUMNS, ROWS)
Coords = list[Point]

# Projection: Lambert conformal conic, north up, at the rulebook's scale; Moscow (the
# Kremlin) is the centre of hex 2808, the one anchor of the transform.
PROJECTION = LambertConic(lon0=33.5, lat0=55.5, par1=52.0, par2=58.0)
KM_PER_HEX = 20 * 1.609344  # rule 2.9: "one hex represents about 20 miles"
MOSCOW_LONLAT = (37.6176, 55.7520)
MOSCOW_HEX = "2808"
TRANSFORM = Anchored(PROJECTION, MOSCOW_LONLAT, FRAME.centre_of(MOSCOW_HEX), KM_PER_HEX)
to_frame = TRANSFORM.to_frame


def lonlat_offset(lon: float, lat: float) -> tuple[int, int]:
    """The printed (column, row) of the hex a place lies in, on the map or off it."""
    return FRAME.hex_at(*to_frame(lon, lat))


def lonlat_hex(lon: float, lat: float) -> str:
    """The label of the hex a place lies in ("off the map" when it is not on it)."""
    col, row = lonlat_offset(lon, lat)
    return FRAME.label(col, row) if FRAME.on_map(col, row) else "off the map"


def describe_transform() -> str:
    return (f"{PROJECTION.describe()}, north up, "
            f"{KM_PER_HEX:.2f} km (20 miles) from hex centre to hex centre; Moscow "
            f"({MOSCOW_LONLAT[0]:.4f}E {MOSCOW_LONLAT[1]:.4f}N) at the centre of {MOSCOW_HEX} "
            f"(frame x = column*sqrt(3)/2, y = row (+0.5 on odd columns))")


# --------------------------------------------------------------------------------------
# Rulebook facts
# --------------------------------------------------------------------------------------
# 4.5: the 12th and 251st Divisions (German infantry, MA 6) move 1510 -> 1611 (2 MPs),
# then the 12th 1611 -> 1710 -> 1810 (4 MPs) and the 251st 1611 -> 1711 -> 1812 (all of
# its MA: 4 MPs).  Read with the TEC: 1611, 1710, 1810, 1711 and 1812 cost 2 MPs each
# (light woods, 2.2 errata), and no road or river on the five hexsides crossed.
EXAMPLE_PATH_SIDES = [("1510", "1611"), ("1611", "1710"), ("1710", "1810"),
                      ("1611", "1711"), ("1711", "1812")]
FORCED_TERRAIN = {
    "1611": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: entering costs the 12th and 251st Divisions 2 MPs"),
    "1710": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: 1710 and 1810 cost the 12th Division 4 MPs together"),
    "1810": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: 1710 and 1810 cost the 12th Division 4 MPs together"),
    "1711": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: 1711 and 1812 cost the 251st Division 4 MPs together"),
    "1812": ("light-woods", "rules: 4.5, 2.2",
             "4.5 example: 1711 and 1812 cost the 251st Division 4 MPs together"),
}
# Hexes the rulebook's examples name without saying anything about their terrain.
RULE_NOTES = {
    "1510": ("rules: 4.5", "4.5 example: the 12th and 251st Divisions start here"),
    "1909": ("rules: 9.3", "9.3 example: the 252nd Division here cancels the EZOC"),
    "2416": ("rules: 6.0, 8.3", "6.0 and 8.3 examples"),
    "2316": ("rules: 6.0, 8.3", "6.0 and 8.3 examples"),
    "2315": ("rules: 6.0, 8.3", "6.0 and 8.3 examples (8.3: next to both 2316 and 2416)"),
    "2415": ("rules: 6.0", "6.0 example"),
    "2417": ("rules: 6.0, 8.3", "6.0 and 8.3 examples (8.3: next to both 2316 and 2416)"),
    "2515": ("rules: 6.4", "6.4 example: overrun hex"),
    "2514": ("rules: 6.4", "6.4 example"),
    "2516": ("rules: 6.4", "6.4 example"),
}

# --------------------------------------------------------------------------------------
# Hand-made tables (lon, lat), from general knowledge; accurate to perhaps 10 km.
# --------------------------------------------------------------------------------------
# The front line of 1 October 1941 (the start of Operation Typhoon), north to south:
# II Corps (16th Army) east of Demyansk and west of Lake Seliger; the Western Front
# (22nd, 29th, 30th, 19th, 16th, 20th Armies) from Peno and Andreapol through Zapadnaya
# Dvina, west of Bely, east of Dukhovshchina, on the Vop at Yartsevo and the Dnepr at
# Solovyovo; the Reserve Front (24th, 43rd Armies) west of Yelnya and on the Desna east
# of Roslavl; the Bryansk Front (50th, 3rd, 13th Armies, Group Yermakov) on the Desna west
# of Bryansk, round Trubchevsk and east of Novgorod-Seversky and Glukhov.
FRONT_LINE: Coords = [
    (32.80, 58.30), (32.95, 57.75), (32.88, 57.45), (32.70, 57.20), (32.45, 56.95),
    (32.05, 56.70), (31.85, 56.35), (32.10, 56.00), (32.40, 55.65), (32.55, 55.30),
    (32.75, 55.05), (32.85, 54.80), (32.95, 54.55), (33.10, 54.30), (33.35, 54.05),
    (33.60, 53.75), (33.60, 53.35), (33.65, 53.05), (33.30, 52.80), (32.95, 52.60),
    (33.15, 52.35), (33.55, 52.15), (33.95, 51.95), (34.20, 51.70), (34.45, 51.20),
]
# The German side: west of the front line.
GERMAN_SIDE: Coords = [*FRONT_LINE, (20.0, 51.20), (20.0, 58.30)]

# Terrain other than clear.  A sample point takes the first type whose polygon holds
# it, in the order marsh, woods, light woods; a hex takes the type of most of its 19
# points (ties to the first in that order).  Everything else is clear: the open
# farmland south of Moscow (Tula, Orel, Kursk, Yelets, Ryazan) and along the Volga.
TERRAIN_ORDER = ("marsh", "woods", "light-woods", "clear")
TERRAIN_AREAS: list[tuple[str, str, Coords]] = [
    # --- marsh ---
    ("marsh", "Meshchera lowland (Shatura, Gus-Khrustalny)",
     [(39.25, 55.55), (39.75, 55.85), (40.55, 55.80), (40.95, 55.40), (40.60, 55.05),
      (39.90, 55.00), (39.35, 55.20)]),
    ("marsh", "Upper Volga and Western Dvina mires (Peno, Okovsky forest)",
     [(32.35, 56.75), (32.65, 57.05), (33.05, 56.95), (33.15, 56.65), (32.75, 56.50)]),
    ("marsh", "Berezina marshes",
     [(28.45, 54.10), (28.65, 54.75), (29.05, 55.00), (29.35, 54.70), (29.05, 54.25)]),
    ("marsh", "Polesie (the northern edge of the Pripet marshes)",
     [(26.00, 52.55), (27.40, 52.70), (28.60, 52.60), (29.60, 52.45), (30.40, 52.20),
      (30.60, 51.30), (26.00, 51.30)]),
    # --- woods ---
    ("woods", "Okovsky forest, Toropets and Nelidovo",
     [(30.90, 56.00), (31.40, 56.90), (32.10, 57.40), (32.90, 57.70), (33.70, 57.40),
      (33.90, 56.90), (33.40, 56.40), (32.90, 56.05), (32.20, 55.80), (31.40, 55.75)]),
    ("woods", "Valdai forests (Demyansk, Seliger, Vyshny Volochek)",
     [(31.40, 57.40), (31.80, 58.30), (34.80, 58.30), (34.60, 57.60), (33.80, 57.50),
      (32.90, 57.80), (32.10, 57.45)]),
    ("woods", "Bryansk forests (Bryansk, Zhizdra, Lyudinovo, Trubchevsk)",
     [(33.20, 53.05), (33.40, 53.75), (34.00, 54.05), (34.80, 54.05), (35.45, 53.75),
      (35.30, 53.25), (34.80, 52.85), (34.40, 52.45), (33.75, 52.35), (33.30, 52.55)]),
    ("woods", "Vyazma and Dorogobuzh forests",
     [(33.60, 55.00), (33.90, 55.45), (34.60, 55.55), (35.10, 55.30), (34.90, 54.95),
      (34.20, 54.80)]),
    ("woods", "Berezina, Lepel and Polotsk forests",
     [(27.90, 54.10), (28.40, 55.10), (29.10, 55.60), (29.90, 55.90), (30.50, 55.55),
      (29.90, 55.05), (29.50, 54.30), (28.70, 53.85)]),
    ("woods", "Meshchera forests",
     [(38.80, 55.30), (39.10, 56.00), (40.20, 56.10), (41.50, 55.70), (41.50, 54.90),
      (40.20, 54.80), (39.20, 54.95)]),
    ("woods", "Forests north of Moscow (Klin, Dmitrov, Zagorsk)",
     [(36.40, 56.15), (36.90, 56.60), (37.90, 56.85), (38.80, 56.60), (38.60, 56.15),
      (37.80, 56.05), (37.00, 56.00)]),
    ("woods", "Bobruisk and Berezina forests",
     [(27.80, 52.80), (28.20, 53.60), (29.00, 53.70), (29.60, 53.30), (29.30, 52.70),
      (28.40, 52.60)]),
    ("woods", "Kaluga and Ugra forests (Kaluzhskaya zaseka)",
     [(35.30, 54.20), (35.60, 54.55), (36.10, 54.45), (36.30, 54.05), (35.90, 53.75),
      (35.40, 53.85)]),
    # --- light woods ---
    ("light-woods", "Belorussian forests (Minsk, Borisov, Molodechno)",
     [(26.00, 53.30), (26.00, 55.90), (28.00, 56.00), (29.50, 56.30), (30.90, 56.00),
      (30.40, 55.40), (29.80, 54.20), (28.80, 53.40), (27.50, 53.20)]),
    ("light-woods", "Nevel and Velikiye Luki lake country",
     [(28.50, 55.70), (28.50, 57.95), (31.50, 57.95), (31.40, 56.90), (30.90, 56.00),
      (29.50, 56.30)]),
    ("light-woods", "Staritsa and Torzhok",
     [(33.90, 56.40), (34.20, 57.30), (35.20, 57.40), (35.60, 56.70), (34.90, 56.35)]),
    ("light-woods", "Smolensk upland (mixed forest and fields)",
     [(29.80, 54.20), (30.40, 55.40), (31.40, 55.75), (32.60, 55.95), (33.80, 56.10),
      (34.80, 55.95), (35.60, 55.70), (35.80, 55.10), (35.40, 54.60), (34.60, 54.20),
      (33.40, 53.90), (32.20, 53.70), (30.90, 53.80)]),
    ("light-woods", "Rzhev, Zubtsov and Volokolamsk",
     [(33.80, 56.10), (34.20, 56.60), (35.30, 56.55), (36.30, 56.25), (36.90, 55.95),
      (36.40, 55.65), (35.60, 55.70)]),
    ("light-woods", "West of Moscow (Mozhaisk, Naro-Fominsk, Zvenigorod)",
     [(35.60, 55.70), (36.40, 55.65), (37.10, 55.55), (37.20, 55.20), (36.60, 54.90),
      (35.80, 55.10)]),
    ("light-woods", "Kalinin woods (Tvertsa, Medveditsa)",
     [(34.80, 56.90), (35.20, 57.60), (36.40, 57.70), (37.30, 57.20), (36.70, 56.75),
      (35.60, 56.65)]),
    ("light-woods", "Orsha and Mogilev",
     [(28.40, 53.40), (28.80, 54.20), (29.80, 54.20), (30.90, 53.80), (31.10, 53.20),
      (30.20, 52.90), (29.20, 52.95)]),
    ("light-woods", "Bryansk - Roslavl fringe and the Desna",
     [(31.60, 52.70), (32.20, 53.70), (33.40, 53.90), (33.40, 53.75), (33.20, 53.05),
      (33.30, 52.55), (32.60, 52.30)]),
    ("light-woods", "North-east of Moscow (Yaroslavl road, Pereslavl)",
     [(37.90, 56.85), (38.40, 57.40), (39.80, 57.45), (40.40, 56.90), (39.60, 56.40),
      (38.80, 56.60)]),
]

# Towns and cities: (name, lon, lat, class).  "city": the large cities of 1941 (the
# TEC's city line, 9.0 F); "town": every other place the map names.  Both are supply
# sources on their own side of the starting front line (9.4).  Names as in 1941.  In a
# shared hex the first listed wins.
TOWNS: list[tuple[str, float, float, str]] = [
    ("Moscow", 37.62, 55.75, "city"), ("Kalinin", 35.90, 56.86, "city"),
    ("Tula", 37.62, 54.19, "city"), ("Smolensk", 32.05, 54.78, "city"),
    ("Orel", 36.07, 52.97, "city"), ("Bryansk", 34.36, 53.25, "city"),
    ("Kaluga", 36.27, 54.51, "city"), ("Ryazan", 39.74, 54.63, "city"),
    ("Kursk", 36.19, 51.73, "city"), ("Vitebsk", 30.20, 55.19, "city"),
    ("Mogilev", 30.33, 53.90, "city"), ("Gomel", 30.98, 52.44, "city"),
    ("Minsk", 27.56, 53.90, "city"), ("Vladimir", 40.40, 56.13, "city"),
    ("Rzhev", 34.33, 56.26, "town"), ("Vyazma", 34.30, 55.21, "town"),
    ("Mozhaisk", 36.03, 55.50, "town"), ("Volokolamsk", 35.96, 56.03, "town"),
    ("Klin", 36.73, 56.33, "town"), ("Maloyaroslavets", 36.47, 55.01, "town"),
    ("Serpukhov", 37.41, 54.92, "town"), ("Podolsk", 37.55, 55.43, "town"),
    ("Yukhnov", 34.75, 54.74, "town"), ("Roslavl", 32.86, 53.95, "town"),
    ("Yelnya", 33.18, 54.58, "town"), ("Yartsevo", 32.68, 55.07, "town"),
    ("Dorogobuzh", 33.30, 54.92, "town"), ("Bely", 32.94, 55.83, "town"),
    ("Ostashkov", 33.10, 57.15, "town"), ("Toropets", 31.63, 56.50, "town"),
    ("Velikiye Luki", 30.53, 56.34, "town"), ("Nevel", 29.92, 56.02, "town"),
    ("Demyansk", 32.47, 57.64, "town"), ("Andreapol", 32.27, 56.65, "town"),
    ("Nelidovo", 32.78, 56.22, "town"), ("Olenino", 33.48, 56.21, "town"),
    ("Sychevka", 34.28, 55.83, "town"), ("Gzhatsk", 35.01, 55.55, "town"),
    ("Zubtsov", 34.58, 56.18, "town"), ("Staritsa", 34.93, 56.51, "town"),
    ("Torzhok", 34.96, 57.04, "town"), ("Bezhetsk", 36.65, 57.78, "town"),
    ("Kashin", 37.61, 57.36, "town"), ("Kalyazin", 37.84, 57.24, "town"),
    ("Dmitrov", 37.52, 56.34, "town"), ("Zagorsk", 38.13, 56.30, "town"),
    ("Pereslavl", 38.85, 56.74, "town"), ("Rostov", 39.41, 57.19, "town"),
    ("Solnechnogorsk", 36.98, 56.18, "town"), ("Istra", 36.85, 55.91, "town"),
    ("Naro-Fominsk", 36.73, 55.39, "town"), ("Medyn", 35.86, 54.97, "town"),
    ("Noginsk", 38.44, 55.85, "town"), ("Orekhovo-Zuyevo", 38.98, 55.81, "town"),
    ("Kolomna", 38.77, 55.09, "town"), ("Kashira", 38.15, 54.84, "town"),
    ("Venev", 38.27, 54.35, "town"), ("Stalinogorsk", 38.27, 54.01, "town"),
    ("Mikhailov", 39.03, 54.23, "town"), ("Yefremov", 38.42, 53.15, "town"),
    ("Yelets", 38.50, 52.62, "town"), ("Lipetsk", 39.60, 52.61, "town"),
    ("Livny", 37.60, 52.42, "town"), ("Novosil", 37.04, 52.97, "town"),
    ("Plavsk", 37.29, 53.71, "town"), ("Mtsensk", 36.57, 53.28, "town"),
    ("Aleksin", 37.07, 54.50, "town"), ("Odoyev", 36.69, 53.94, "town"),
    ("Belev", 36.13, 53.81, "town"), ("Kozelsk", 35.79, 54.04, "town"),
    ("Sukhinichi", 35.34, 54.10, "town"), ("Zhizdra", 34.74, 53.75, "town"),
    ("Lyudinovo", 34.45, 53.87, "town"), ("Kirov", 34.32, 54.08, "town"),
    ("Spas-Demensk", 34.02, 54.41, "town"), ("Karachev", 35.12, 53.12, "town"),
    ("Bolkhov", 36.01, 53.44, "town"), ("Kromy", 35.70, 52.69, "town"),
    ("Dmitrovsk", 35.15, 52.51, "town"), ("Sevsk", 34.48, 52.15, "town"),
    ("Fatezh", 35.86, 52.09, "town"), ("Lgov", 35.26, 51.66, "town"),
    ("Rylsk", 34.69, 51.57, "town"), ("Glukhov", 33.91, 51.68, "town"),
    ("Novgorod-Seversky", 33.26, 52.01, "town"), ("Trubchevsk", 33.05, 52.58, "town"),
    ("Pochep", 33.47, 52.93, "town"), ("Unecha", 32.68, 52.85, "town"),
    ("Klintsy", 32.24, 52.75, "town"), ("Novozybkov", 31.93, 52.54, "town"),
    ("Zhukovka", 33.77, 53.53, "town"), ("Krichev", 31.71, 53.71, "town"),
    ("Pochinok", 32.45, 54.40, "town"), ("Dukhovshchina", 32.42, 55.20, "town"),
    ("Rudnya", 31.09, 54.94, "town"), ("Velizh", 31.10, 55.61, "town"),
    ("Krasny", 31.42, 54.56, "town"), ("Orsha", 30.42, 54.51, "town"),
    ("Shklov", 30.29, 54.21, "town"), ("Bykhov", 30.25, 53.52, "town"),
    ("Rogachev", 30.05, 53.09, "town"), ("Zhlobin", 30.03, 52.89, "town"),
    ("Bobruisk", 29.22, 53.14, "town"), ("Berezino", 28.99, 53.84, "town"),
    ("Borisov", 28.50, 54.23, "town"), ("Tolochin", 29.70, 54.41, "town"),
    ("Lepel", 28.69, 54.88, "town"), ("Polotsk", 28.80, 55.49, "town"),
    ("Gorodok", 29.99, 55.46, "town"), ("Mozyr", 29.25, 52.05, "town"),
    ("Rechitsa", 30.39, 52.36, "town"), ("Slutsk", 27.55, 53.03, "town"),
    ("Molodechno", 26.85, 54.31, "town"), ("Pokrov", 39.18, 55.92, "town"),
    ("Yegoryevsk", 39.04, 55.38, "town"), ("Zaraisk", 38.88, 54.76, "town"),
    ("Skopin", 39.55, 53.82, "town"), ("Kasimov", 41.42, 54.94, "town"),
    ("Kuvshinovo", 34.17, 57.03, "town"), ("Selizharovo", 33.46, 56.85, "town"),
    ("Shakhovskaya", 35.50, 56.03, "town"), ("Ruza", 36.20, 55.70, "town"),
    ("Vereya", 36.09, 55.34, "town"), ("Borovsk", 36.52, 55.21, "town"),
    ("Tarusa", 37.18, 54.72, "town"), ("Bogoroditsk", 38.13, 53.77, "town"),
]

# 1941 main roads (chaussees and the better dirt roads) as chains of towns; a point
# given as coordinates lies off the map and makes the road lead off that edge.
ROADS: list[tuple[str, list[str | Point]]] = [
    ("Minsk - Smolensk - Vyazma - Moscow highway",
     [(25.0, 53.75), "Minsk", "Borisov", "Tolochin", "Orsha", "Krasny", "Smolensk",
      "Yartsevo", "Vyazma", "Gzhatsk", "Mozhaisk", "Moscow"]),
    ("Warsaw highway (Bobruisk - Roslavl - Yukhnov - Moscow)",
     [(25.0, 52.95), "Bobruisk", "Rogachev", "Krichev", "Roslavl", "Spas-Demensk",
      "Yukhnov", "Medyn", "Maloyaroslavets", "Podolsk", "Moscow"]),
    # the highway crosses the Shosha reach of the Ivankovo Reservoir (Moscow Sea, 1937)
    # between Zavidovo and Kozlovo
    ("Leningrad highway", ["Moscow", "Solnechnogorsk", "Klin", (36.70, 56.56), (36.30, 56.65),
                           "Kalinin", "Torzhok", (34.60, 58.40)]),
    ("Volokolamsk road", ["Moscow", "Istra", "Volokolamsk", "Shakhovskaya", "Zubtsov",
                          "Rzhev"]),
    ("Rzhev - Velikiye Luki road", ["Rzhev", "Olenino", "Nelidovo", "Velikiye Luki",
                                    "Nevel", (28.50, 56.20)]),
    ("Simferopol highway (Moscow - Tula - Orel - Kursk)",
     ["Moscow", "Podolsk", "Serpukhov", "Tula", "Plavsk", "Mtsensk", "Orel", "Kromy",
      "Fatezh", "Kursk", (36.60, 50.80)]),
    ("Ryazan road", ["Moscow", "Kolomna", "Ryazan", (41.60, 54.40)]),
    ("Vladimir road", ["Moscow", "Noginsk", "Pokrov", "Vladimir", (41.60, 56.20)]),
    ("Yaroslavl road", ["Moscow", "Zagorsk", "Pereslavl", "Rostov", (39.90, 58.30)]),
    ("Kashira road", ["Moscow", "Kashira", "Venev", "Stalinogorsk", "Yefremov", "Yelets",
                      "Lipetsk", (41.20, 52.50)]),
    ("Kiev road (Moscow - Naro-Fominsk - Kaluga)", ["Moscow", "Naro-Fominsk",
                                                    "Maloyaroslavets", "Kaluga"]),
    ("Kaluga - Tula road", ["Kaluga", "Aleksin", "Tula"]),
    ("Kaluga - Sukhinichi - Bryansk road", ["Kaluga", "Kozelsk", "Sukhinichi", "Zhizdra",
                                            "Bryansk"]),
    ("Bryansk - Orel road", ["Bryansk", "Karachev", "Orel", "Novosil", "Yefremov"]),
    ("Roslavl - Bryansk road", ["Roslavl", "Zhukovka", "Bryansk"]),
    ("Smolensk - Roslavl road", ["Smolensk", "Pochinok", "Roslavl"]),
    ("Smolensk - Vitebsk road", ["Smolensk", "Rudnya", "Vitebsk", "Polotsk",
                                 (27.00, 55.70)]),
    ("Smolensk - Bely road", ["Smolensk", "Dukhovshchina", "Bely", "Olenino"]),
    ("Vyazma - Rzhev road", ["Vyazma", "Sychevka", "Rzhev", "Staritsa", "Kalinin"]),
    ("Gomel - Bryansk road", [(28.50, 52.10), "Gomel", "Novozybkov", "Unecha", "Pochep",
                              "Bryansk"]),
    ("Vitebsk - Orsha - Mogilev - Gomel road", ["Vitebsk", "Orsha", "Shklov", "Mogilev",
                                                "Bykhov", "Rogachev", "Zhlobin",
                                                "Gomel"]),
    ("Minsk - Mogilev road", ["Minsk", "Berezino", "Mogilev", "Krichev"]),
    ("Glukhov - Sevsk - Orel road", ["Glukhov", "Sevsk", "Dmitrovsk", "Kromy"]),
    ("Kursk - Rylsk - Glukhov road", ["Kursk", "Lgov", "Rylsk", "Glukhov",
                                      "Novgorod-Seversky", "Trubchevsk", "Pochep"]),
    ("Ostashkov - Torzhok road", ["Ostashkov", "Kuvshinovo", "Torzhok"]),
    ("Kalinin - Bezhetsk road", ["Kalinin", "Bezhetsk", (36.90, 58.40)]),
    ("Dmitrov road", ["Moscow", "Dmitrov", "Kalyazin", "Kashin"]),
    ("Volokolamsk - Klin road", ["Volokolamsk", "Klin"]),
    ("Mozhaisk - Maloyaroslavets - Kaluga road", ["Mozhaisk", "Vereya", "Borovsk",
                                                  "Maloyaroslavets"]),
    ("Orel - Yelets road", ["Orel", "Livny", "Yelets"]),
    ("Ryazan - Mikhailov - Stalinogorsk road", ["Ryazan", "Mikhailov", "Stalinogorsk",
                                                "Bogoroditsk", "Plavsk"]),
]

# Rivers: id -> name as printed; the Natural Earth features are chosen by --extract.
RIVERS: dict[str, str] = {
    "volga": "Volga", "oka": "Oka", "dnepr": "Dnepr", "desna": "Desna",
    "western-dvina": "Western Dvina", "moskva": "Moskva", "ugra": "Ugra",
    "zhizdra": "Zhizdra", "vazuza": "Vazuza", "seym": "Seym", "tvertsa": "Tvertsa",
    "upa": "Upa", "zusha": "Zusha", "protva": "Protva", "sozh": "Sozh", "iput": "Iput",
    "klyazma": "Klyazma", "berezina": "Berezina", "bystraya-sosna": "Bystraya Sosna",
}
# --extract: (Natural Earth file, name (None: unnamed), probe point or None).  A feature
# is taken when its name matches and, with a probe, it passes within 0.06 deg of it.
_CENTER = "ne_10m_rivers_lake_centerlines.geojson"
_EUROPE = "ne_10m_rivers_europe.geojson"
RIVER_SOURCES: dict[str, list[tuple[str, str | None, Point | None]]] = {
    "volga": [(_CENTER, "Volga", None), (_EUROPE, "Volga", None)],
    "oka": [(_CENTER, "Oka", None)],
    "dnepr": [(_CENTER, "Dnipro", None), (_CENTER, "Dnepre", None)],
    "desna": [(_CENTER, "Desna", None)],
    "western-dvina": [(_CENTER, "Daugava", None), (_EUROPE, "Daugava", None)],
    "moskva": [(_CENTER, None, (37.62, 55.75))],
    # Natural Earth calls the Ugra "Oka" (alternative name "Volga"), the Upa and the
    # Zusha "Oka"; the Zhizdra and the Protva have no name
    "ugra": [(_EUROPE, "Oka", (35.44, 54.77))],
    "upa": [(_EUROPE, "Oka", (37.62, 54.20))],
    "zusha": [(_EUROPE, "Oka", (36.57, 53.28))],
    "zhizdra": [(_EUROPE, None, (35.79, 54.04))],
    "protva": [(_EUROPE, None, (36.50, 55.20))],
    "vazuza": [(_EUROPE, "Vazuza", None)],
    "seym": [(_CENTER, "Seym", None)],
    "tvertsa": [(_CENTER, "Tvertsa", None)],
    "sozh": [(_EUROPE, "Sozh", None)],
    "iput": [(_EUROPE, "Iputs", None)],
    "klyazma": [(_EUROPE, "Klyazma", None)],
    "berezina": [(_EUROPE, "Byarezina", None)],
    "bystraya-sosna": [(_EUROPE, "Bystraya Sosna", None)],
}
MIN_RIVER_HEXES = 1.5  # a river piece shorter than this on the map is not drawn

# Lakes and reservoirs that existed in 1941 (no post-war reservoir: Vazuza, Mozhaisk,
# Ruza, Desnogorsk; not the Rybinsk and Uglich reservoirs, still filling): name -> probe
# points; every Natural Earth lake polygon whose centroid lies within 0.12 deg of a
# probe is taken.
LAKES: dict[str, list[Point]] = {
    "Lake Seliger": [(33.00, 57.24), (33.03, 57.45), (33.03, 57.70), (33.14, 57.05),
                     (33.38, 57.67)],
    "Upper Volga lakes": [(32.72, 57.02), (33.11, 56.92)],
    "Ivankovo Reservoir": [(36.73, 56.70)],
    "Vyshny Volochek Reservoir": [(34.44, 57.56)],
    "Lake Zhizhitskoye": [(31.26, 56.24), (31.22, 56.11)],
    "Lake Pleshcheyevo": [(38.78, 56.77)],
    "Lake Nero": [(39.42, 57.16)],
    "Lake Lukoml": [(29.07, 54.67)],
    "Lake Naroch": [(26.76, 54.87)],
}
LAKE_FILES = ("ne_10m_lakes.geojson", "ne_10m_lakes_europe.geojson")
LAKE_SIDE_SHARE = 0.3  # a hexside at least this much over a lake is a lake hexside
LAKE_SIDE_MIN = 0.2  # a lake with no such hexside keeps its wettest one if this wet

