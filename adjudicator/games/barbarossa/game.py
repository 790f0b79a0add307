"""What the 1941 rules read from the module, once per module: the board, the counters,
the charts, and per hex its country, water, city and fortification."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, Hexside
from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.engine.state import State
from adjudicator.games.barbarossa.charts import Charts
from adjudicator.games.barbarossa.edition import since_0_3
from adjudicator.games.barbarossa.ground import Stacked, check_stacking, stacking_problem
from adjudicator.games.barbarossa.zoc import EnemyZones, Unit, zone_of_control

M = f"{{{MODULE_NS}}}"


@dataclass(frozen=True)
class Piece:
    id: str
    name: str
    side: str
    nationality: str
    type: str  # armor, infantry, mountain, shock
    size: str  # corps, group, army
    attack: int
    movement: int
    deploy: str  # 19.0 B / 14.1 C: a hex, a turn, or 1:Od / 1:E (17.1.5)

    @property
    def armor(self) -> bool:
        return self.type == "armor"

    @property
    def special(self) -> frozenset[str]:
        """5.2: the exceptions of the Terrain Effects Chart that apply to it."""
        kinds = {self.type} if self.type == "mountain" else set()
        if self.nationality == "finnish":
            kinds.add("finnish")
        return frozenset(kinds)


@dataclass(frozen=True)
class Fleet:
    """20.1: a Soviet fleet, from the module's <fleets>."""

    id: str
    name: str
    crossing: frozenset[Hex]  # 20.1.1 A: the one all-sea hexside it crosses (or none)
    base: Hex | None  # 20.1.1 B, 20.1.4 C: the fortifications hex it holds
    waters: frozenset[str]  # 20.1.2 A: the waters of its all-sea hexsides and ports


@dataclass(frozen=True)
class Game:
    """What the rules read from the module, once."""

    board: HexBoard
    pieces: dict[str, Piece]
    charts: Charts
    country: dict[Hex, str]
    water: dict[Hex, str]
    fortifications: frozenset[Hex]
    cities: dict[Hex, str]  # city class: major, reference
    supply: dict[Hex, str]  # 8.2: supply sources (axis, soviet, finnish)
    city_names: dict[Hex, str]
    finnish_limit: dict[Hex, str]  # 15.2.2 B: south-of-svir, east-of-canal
    fleets: dict[str, Fleet]  # 20.1
    side_waters: dict[Hexside, frozenset[str]]  # all-sea and all-lake hexsides' waters
    since_0_3: bool = False  # the rules of module 0.3.0 or later (edition.py)
    zones: dict[tuple[Hex, str], frozenset[Hex]] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, module: ModuleData) -> Game:
        return _game(module)

    def start_side(self, h: Hex) -> str:
        """4.0 A: the Soviet Union is Soviet at the start, everything else Axis."""
        return "soviet" if self.country.get(h) == "soviet" else "axis"

    def city(self, name: str) -> Hex:
        """The hex of a named city of the map (Moscow 1808, 14.2.4 B; Leningrad 0712,
        15.2.2 B; Kiev 2519, 20.6.4; Odessa, 17.1.5)."""
        return next(h for h, city in self.city_names.items() if city == name)

    def hexside_waters(self, a: Hex, b: Hex) -> frozenset[str]:
        """The waters an all-sea or all-lake hexside lies on: those of the hexes at its
        two ends (20.1.2 A); none for any other hexside."""
        return self.side_waters.get(Hexside(*sorted((a, b))), frozenset())

    def hexside_water(self, a: Hex, b: Hex) -> str | None:
        """The water whose TEC rows a hexside uses (13.5 C: the Gulf of Onega freezes)."""
        waters = sorted(self.hexside_waters(a, b))
        return waters[0] if waters else None

    def impassable(self, a: Hex, b: Hex, armor: bool, weather: str) -> bool:
        """5.2, 8.1 B: the Terrain Effects Chart prohibits crossing from a into b."""
        return (self.charts.cross_cost(self.board.features(a, b), armor, weather,
                                       water=self.hexside_water(a, b)) is None
                or self.charts.enter_cost(self.board.terrain[b], armor, weather,
                                          water=self.water.get(b)) is None)

    def zone(self, h: Hex, weather: str) -> frozenset[Hex]:
        """6.0 A-B with 13.5 C: the hexes a unit in `h` has in its zone of control in this
        weather (hexsides frozen as the TEC's movement says). Kept once computed: the
        zones are read after every order (4.0 B)."""
        key = (h, weather)
        if key not in self.zones:
            def frozen(a: Hex, b: Hex) -> bool:
                return weather == "snow" and self.charts.cross_cost(
                    self.board.features(a, b), False, weather,
                    water=self.hexside_water(a, b)) is not None
            self.zones[key] = frozenset(zone_of_control(self.board, Unit("", "", h, False),
                                                        frozen=frozen))
        return self.zones[key]

    def fortified(self, state: State, h: Hex) -> bool:
        """11.0: a fortifications hex, unless it is the base of a neutralized fleet
        (20.1.1 B: 0713 is then clear terrain)."""
        return h in self.fortifications and not any(
            fleet.base == h for fleet_id, fleet in self.fleets.items()
            if fleet_id in state.get("neutralized", []))

    def stacking_problem_with(self, state: State, unit: str, h: Hex) -> str | None:
        """3.0, 11.0 C: what would be wrong with the stack in `h` if `unit` joined it."""
        piece, label = self.pieces[unit], self.board.label(h)
        stack = [Stacked(u, self.pieces[u].size) for u, x in state["units"].items()
                 if x == label and u != unit]
        return stacking_problem(piece.side, [*stack, Stacked(unit, piece.size)],
                                fortification=self.fortified(state, h))

    def check_side_stacking(self, state: State, side: str) -> None:
        """3.0: every stack of `side` is within the limits (11.0 C in fortifications)."""
        stacks: dict[str, list[Stacked]] = {}
        for unit, label in sorted(state["units"].items()):
            if self.pieces[unit].side == side:
                stacks.setdefault(label, []).append(Stacked(unit, self.pieces[unit].size))
        for label, units in stacks.items():
            check_stacking(side, units, label,
                           fortification=self.fortified(state, self.board.hex(label)))


@lru_cache(maxsize=8)
def _game(module: ModuleData) -> Game:
    board = module.hex_board()
    pieces = {p.get("id"): Piece(p.get("id"), p.get("name"), p.get("side"),
                                 p.get("nationality"), p.get("type"), p.get("size"),
                                 int(p.get("attack")), int(p.get("movement")),
                                 p.get("deploy"))
              for p in module.findall("m:pieces/m:piece")}
    country, water, forts, cities, supply, names, limits = {}, {}, set(), {}, {}, {}, {}
    for el in module.findall("m:map/m:hex"):
        h = board.hex(el.get("id"))
        country[h] = el.get("country", "")
        if el.get("water"):
            water[h] = el.get("water")
        if el.get("fortification") in ("yes", "true"):
            forts.add(h)
        if el.get("city-class"):
            cities[h] = el.get("city-class")
        if el.get("supply"):
            supply[h] = el.get("supply")
        if el.get("city"):
            names[h] = el.get("city")
        if el.get("finnish-limit"):
            limits[h] = el.get("finnish-limit")
    fleets = {}
    for el in module.findall("m:fleets/m:fleet"):
        crossing, base = el.find(f"{M}crossing"), el.find(f"{M}base")
        fleets[el.get("id")] = Fleet(
            el.get("id"), el.get("name"),
            frozenset() if crossing is None
            else frozenset({board.hex(crossing.get("a")), board.hex(crossing.get("b"))}),
            None if base is None else board.hex(base.get("hex")),
            frozenset(w.get("name") for w in el.findall(f"{M}water")))
    side_waters = {}
    for side, features in board.hexsides.items():
        if features & {"all-sea", "all-lake"}:
            ends = set(board.neighbours(side.a)) & set(board.neighbours(side.b))
            side_waters[side] = frozenset(water[h] for h in ends if h in water)
    return Game(board, pieces, Charts.of(module), country, water, frozenset(forts), cities,
                supply, names, limits, fleets, side_waters, since_0_3(module))


def other_side(side: str) -> str:
    return "soviet" if side == "axis" else "axis"


def control_of(game: Game, state: State, h: Hex) -> str:
    return str(state["control"].get(game.board.label(h), game.start_side(h)))


def enemy_zones(game: Game, state: State, side: str) -> EnemyZones:
    """The zones of control of `side`'s enemies (6.0), frozen hexsides in snow (13.5 C);
    on Turn 1, throughout the German First Ground Segment, Soviet zones do not extend
    across the border into Greater Germany (17.1.3)."""
    enemies = [Unit(u, game.pieces[u].side, game.board.hex(x), game.pieces[u].armor)
               for u, x in state["units"].items() if game.pieces[u].side != side]
    weather = state["weather"]
    zones = EnemyZones.of(game.board, enemies, zone=lambda unit: game.zone(unit.hex, weather))
    if side == "axis" and state["turn"] == 1 and state["player"] == "axis" \
            and state["segment"] in ("air", "first"):
        german = frozenset(h for h in zones.any if game.country.get(h) == "germany")
        zones = zones.without(german)
    return zones


def zoc_control(game: Game, state: State) -> list[tuple[str, str]]:
    """4.0 B: the land hexes a side's units control by an uncontested zone of control
    (no unit occupies them, no enemy zone reaches them) that the other side holds."""
    changes = []
    occupied = {x for x in state["units"].values()}
    zones = {side: enemy_zones(game, state, other).any
             for side, other in (("soviet", "axis"), ("axis", "soviet"))}
    for side, other in (("axis", "soviet"), ("soviet", "axis")):
        for h in sorted(zones[side] - zones[other]):
            label = game.board.label(h)
            if label in occupied or game.board.terrain[h] in ("sea", "lake"):
                continue
            if control_of(game, state, h) != side:
                changes.append((label, side))
    return changes
