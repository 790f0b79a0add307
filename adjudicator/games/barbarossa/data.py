"""What the 1941 rules read from the module, read once per module and kept: the board
and per hex its country, water, city, fortification and supply source; the counters
(19.0, 14.1); the Soviet fleets (20.1); the charts: the Terrain Effects Chart's movement
and combat rows by weather (5.1, 7.6, 13.x) with the exceptions of mountain and Finnish
units (5.2), the Combat Results Table (7.4), the Turn Record Chart (weather, air points,
replacements), the Victory Point Table and the Victory Tables (18.0, 20.4.4); and the
scenarios.

This is the only module of the game that reads the module's XML.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, Hexside
from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.engine.odds import CombatTable, OddsLadder
from adjudicator.errors import ModuleError
from adjudicator.games.barbarossa.vocabulary import (
    RULES_0_3,
    WATER,
    ZONE_BLOCKING,
    Country,
    Feature,
    Nationality,
    Side,
    UnitType,
    Weather,
)

M = f"{{{MODULE_NS}}}"
MEMO_SIZE = 512  # positions whose zones of control are kept (`GameData.remembered`)


# -- the counters and the fleets ----------------------------------------------------------

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
        return self.type == UnitType.ARMOR

    @property
    def german_armor(self) -> bool:
        """9.2: the German armor-type units' own abilities."""
        return self.armor and self.nationality == Nationality.GERMAN

    @property
    def special(self) -> frozenset[str]:
        """5.2: the exceptions of the Terrain Effects Chart that apply to it."""
        kinds = {self.type} if self.type == UnitType.MOUNTAIN else set()
        if self.nationality == Nationality.FINNISH:
            kinds.add(Nationality.FINNISH)
        return frozenset(kinds)


@dataclass(frozen=True)
class Fleet:
    """20.1: a Soviet fleet, from the module's <fleets>."""

    id: str
    name: str
    crossing: frozenset[Hex]  # 20.1.1 A: the one all-sea hexside it crosses (or none)
    base: Hex | None  # 20.1.1 B, 20.1.4 C: the fortifications hex it holds
    waters: frozenset[str]  # 20.1.2 A: the waters of its all-sea hexsides and ports


# -- the charts -----------------------------------------------------------------------------

@dataclass(frozen=True)
class MoveRow:
    weathers: frozenset[str]
    infantry: int | None
    armor: int | None
    water: str | None  # the row applies to this named water only (13.5 C)


@dataclass(frozen=True)
class CombatRow:
    weathers: frozenset[str]
    effect: str  # none, shift, double, prohibited
    shift: int
    water: str | None
    when: str | None  # "all-attackers-across" for hexsides


@dataclass(frozen=True)
class TurnRecord:
    number: int
    month: str
    year: int
    weather: str
    air: dict[str, int]
    optional: bool
    replacements: str  # the allowance id (14.2.1): "none", "1941", "1942"


def _cost(text: str | None) -> int | None:
    return None if text in (None, "prohibited") else int(text)


@dataclass(frozen=True)
class Charts:
    hex_moves: dict[str, tuple[MoveRow, ...]]
    side_moves: dict[str, tuple[MoveRow, ...]]
    exceptions: dict[tuple[str, str], dict[str, int]]  # (terrain, unit) -> weather -> cost
    turns: dict[int, TurnRecord]
    combat: dict[str, tuple[CombatRow, ...]]  # hex terrain, hexside or hex feature
    crt: CombatTable

    @classmethod
    def of(cls, module: ModuleData) -> Charts:
        return GameData.of(module).charts

    def enter_cost(self, terrain: str, armor: bool, weather: str, *, water: str | None = None,
                   special: frozenset[str] = frozenset()) -> int | None:
        """5.1 A-C: the MPs to enter a hex of `terrain`, None where the TEC prohibits it;
        5.2: a mountain unit's rough and a Finnish unit's swamp cost 1 MP."""
        for kind in sorted(special):
            cost = self.exceptions.get((terrain, kind), {}).get(weather)
            if cost is not None:
                return cost
        return self._lookup(self.hex_moves, terrain, armor, weather, water)

    def cross_cost(self, features: frozenset[str], armor: bool, weather: str, *,
                   water: str | None = None) -> int | None:
        """5.1 B: the extra MPs to cross a hexside, None if a feature prohibits it."""
        total = 0
        for feature in sorted(features):
            if feature not in self.side_moves:
                continue
            cost = self._lookup(self.side_moves, feature, armor, weather, water)
            if cost is None:
                return None
            total += cost
        return total

    @staticmethod
    def _lookup(table: dict[str, tuple[MoveRow, ...]], name: str, armor: bool, weather: str,
                water: str | None) -> int | None:
        rows = table.get(name)
        if rows is None:
            raise ModuleError(f"the Terrain Effects Chart has no movement row for {name!r}")
        # a row for this very water wins over the general row (13.5 C)
        for row in sorted(rows, key=lambda r: r.water is None):
            if weather in row.weathers and row.water in (None, water):
                return row.armor if armor else row.infantry
        raise ModuleError(f"the Terrain Effects Chart gives no cost for {name!r} in {weather}")

    def combat_effect(self, name: str, weather: str, water: str | None = None) -> CombatRow | None:
        """7.6 A-B: what a terrain, hexside feature or hex feature does to combat."""
        for row in sorted(self.combat.get(name, ()), key=lambda r: r.water is None):
            if weather in row.weathers and row.water in (None, water):
                return row
        return None

    def turn(self, number: int) -> TurnRecord:
        try:
            return self.turns[number]
        except KeyError:
            raise ModuleError(f"the Turn Record Chart has no turn {number}") from None


# -- victory (18.0, 20.4.4) and the scenarios -------------------------------------------------

@dataclass(frozen=True)
class VictoryCity:
    """A row of the Victory Point Table: the German VPs by who holds the city."""

    hex: str
    german_control: int
    encircled: int
    soviet_control: int


@dataclass(frozen=True)
class VictoryLevel:
    name: str
    rank: int
    low: int
    high: int


@dataclass(frozen=True)
class Victory:
    cities: tuple[VictoryCity, ...]
    levels: tuple[VictoryLevel, ...]  # by rank: the Soviets' best first (18.2 A)
    winter_levels: tuple[VictoryLevel, ...]  # 20.4.4 C
    objectives: tuple[str, ...]  # 18.3: the hexes of the German strategic victory


@dataclass(frozen=True)
class Scenario:
    id: str
    start: int
    end: int


# -- everything, per module ---------------------------------------------------------------------

@dataclass(frozen=True)
class GameData:
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
    victory: Victory
    scenarios: dict[str, Scenario]
    since_0_3: bool = False  # the rules of module 0.3.0 or later (vocabulary.RULES_0_3)
    # the zones of control round a hex in a weather (6.0 A-B, 13.5 C), kept once computed:
    # zones are read after every order (4.0 B)
    reach: dict[tuple[Hex, str], tuple[Hex, ...]] = field(default_factory=dict, compare=False)
    # the printed label of every hex and back (the rules convert them after every order)
    labels: dict[Hex, str] = field(default_factory=dict, compare=False)
    hexes: dict[str, Hex] = field(default_factory=dict, compare=False)
    # what the rules compute again and again from the same facts (the zones of a side's
    # units where they stand), kept for the last positions asked: see `remembered`
    memo: OrderedDict[Hashable, Any] = field(default_factory=OrderedDict, compare=False)
    # 4.0 A: who holds each hex at the start, by label (control is read for most hexes
    # after every order, and the state records only the hexes that changed hands)
    start_sides: dict[str, str] = field(default_factory=dict, compare=False)
    prohibited: dict[tuple[Hex, Hex, bool, str], bool] = field(default_factory=dict,
                                                               compare=False)
    territories: dict[str, frozenset[Hex]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for h in self.board:
            label = self.board.label(h)
            self.labels[h], self.hexes[label] = label, h
            self.start_sides[label] = self.start_side(h)

    @classmethod
    def of(cls, module: ModuleData) -> GameData:
        return _read(module)

    def hex(self, label: str) -> Hex:
        """The hex of a label the state holds (ValueError for one not on the map)."""
        found = self.hexes.get(label)
        return found if found is not None else self.board.hex(label)

    def label(self, h: Hex) -> str:
        found = self.labels.get(h)
        return found if found is not None else self.board.label(h)

    def start_side(self, h: Hex) -> str:
        """4.0 A: the Soviet Union is Soviet at the start, everything else Axis."""
        return Side.SOVIET if self.country.get(h) == Country.SOVIET_UNION else Side.AXIS

    def start_territory(self, side: str) -> frozenset[Hex]:
        """4.0 A: the hexes `side` holds at the start (kept once computed)."""
        if side not in self.territories:
            self.territories[side] = frozenset(h for h in self.board
                                               if self.start_sides[self.label(h)] == side)
        return self.territories[side]

    def city(self, name: str) -> Hex:
        """The hex of a named city of the map (Moscow 1808, 14.2.4 B; Leningrad 0712,
        15.2.2 B; Kiev 2519, 20.6.4; Odessa, 17.1.5)."""
        return next(h for h, city in self.city_names.items() if city == name)

    def place(self, h: Hex) -> str:
        """A hex as a player reads it: its number, and its city if it has one."""
        label = self.board.label(h)
        return f"{self.city_names[h]} ({label})" if h in self.city_names else label

    def is_water(self, h: Hex) -> bool:
        return self.board.terrain[h] in WATER

    def hexside_waters(self, a: Hex, b: Hex) -> frozenset[str]:
        """The waters an all-sea or all-lake hexside lies on: those of the hexes at its
        two ends (20.1.2 A); none for any other hexside."""
        return self.side_waters.get(Hexside(*sorted((a, b))), frozenset())

    def hexside_water(self, a: Hex, b: Hex) -> str | None:
        """The water whose TEC rows a hexside uses (13.5 C: the Gulf of Onega freezes)."""
        waters = sorted(self.hexside_waters(a, b))
        return waters[0] if waters else None

    def impassable(self, a: Hex, b: Hex, armor: bool, weather: str) -> bool:
        """5.2, 8.1 B: the Terrain Effects Chart prohibits crossing from a into b (a board
        fact per weather, kept once read: every supply line and move asks it)."""
        key = (a, b, armor, weather)
        known = self.prohibited.get(key)
        if known is None:
            known = self.prohibited[key] = (
                self.charts.cross_cost(self.board.features(a, b), armor, weather,
                                       water=self.hexside_water(a, b)) is None
                or self.charts.enter_cost(self.board.terrain[b], armor, weather,
                                          water=self.water.get(b)) is None)
        return known

    def zone_reach(self, h: Hex, weather: str) -> tuple[Hex, ...]:
        """6.0 A-B with 13.5 C: the hexes next to `h` that a zone of control in `h` extends
        into in this weather: not across an all-sea or all-lake hexside, unless the TEC's
        movement rows freeze it (the lakes and some seas in snow)."""
        key = (h, weather)
        if key not in self.reach:
            def extends(a: Hex, b: Hex) -> bool:
                if not self.board.features(a, b) & ZONE_BLOCKING:
                    return True
                return weather == Weather.SNOW and self.charts.cross_cost(
                    self.board.features(a, b), False, weather,
                    water=self.hexside_water(a, b)) is not None
            self.reach[key] = tuple(n for n in self.board.neighbours(h) if extends(h, n))
        return self.reach[key]

    def remembered(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """`compute()`, kept under `key` (the facts it depends on) for the last
        `MEMO_SIZE` keys asked: the same facts give the same answer."""
        if key in self.memo:
            self.memo.move_to_end(key)
            return self.memo[key]
        value = self.memo[key] = compute()
        if len(self.memo) > MEMO_SIZE:
            self.memo.popitem(last=False)
        return value

    def west_edge(self) -> int:
        """1.1: the printed row of the west map edge (14.1.1 A)."""
        return max(self.board.grid.to_offset(h)[1] for h in self.board)


@lru_cache(maxsize=8)
def _read(module: ModuleData) -> GameData:
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
        if features & {Feature.ALL_SEA, Feature.ALL_LAKE}:
            ends = set(board.neighbours(side.a)) & set(board.neighbours(side.b))
            side_waters[side] = frozenset(water[h] for h in ends if h in water)
    scenarios = {s.get("id"): Scenario(s.get("id"), int(s.get("start")), int(s.get("end")))
                 for s in module.findall("m:scenarios/m:scenario")}
    return GameData(board, pieces, _charts(module), country, water, frozenset(forts), cities,
                    supply, names, limits, fleets, side_waters, _victory(module), scenarios,
                    module.at_least(RULES_0_3))


def _charts(module: ModuleData) -> Charts:
    root = module.find("m:charts")
    effects = root.find(f"{M}terrain-effects")
    if effects is None:
        raise ModuleError("the charts have no <terrain-effects>")

    def rows(el: Any) -> tuple[MoveRow, ...]:
        return tuple(MoveRow(frozenset(m.get("weather").split()), _cost(m.get("infantry")),
                             _cost(m.get("armor")), m.get("water"))
                     for m in el.findall(f"{M}movement"))

    hex_moves = {el.get("name"): rows(el) for el in effects.findall(f"{M}hex-terrain")}
    side_moves = {el.get("name"): rows(el) for el in effects.findall(f"{M}hexside-feature")}
    exceptions: dict[tuple[str, str], dict[str, int]] = {}
    for el in effects.findall(f"{M}hex-terrain"):
        for ex in el.findall(f"{M}unit-exception"):
            costs = exceptions.setdefault((el.get("name"), ex.get("unit")), {})
            for weather in ex.get("weather").split():
                costs[weather] = int(ex.get("cost"))
    combat = {
        el.get("name"): tuple(
            CombatRow(frozenset(c.get("weather").split()), c.get("effect"),
                      int(c.get("shift", "0")), c.get("water"), c.get("when"))
            for c in el.findall(f"{M}combat"))
        for kind in ("hex-terrain", "hexside-feature", "hex-feature")
        for el in effects.findall(f"{M}{kind}")}
    section = root.find(f"{M}combat-results")
    ladder = OddsLadder.of([c.get("odds") for c in section.iter(f"{M}column")])
    crt = CombatTable(ladder, {int(r.get("roll")): r.get("results").split()
                               for r in section.iter(f"{M}row")})
    turns = {}
    for t in root.find(f"{M}turn-record").findall(f"{M}turn"):
        air = t.find(f"{M}air")
        turns[int(t.get("number"))] = TurnRecord(
            int(t.get("number")), t.get("month"), int(t.get("year")),
            t.find(f"{M}weather").get("condition"),
            {Side.AXIS.value: int(air.get(Side.AXIS)),
             Side.SOVIET.value: int(air.get(Side.SOVIET))},
            t.get("optional") == "true", t.find(f"{M}replacements").get("allowance"))
    return Charts(hex_moves, side_moves, exceptions, turns, combat, crt)


def _victory(module: ModuleData) -> Victory:
    charts = module.find("m:charts")

    def levels(name: str) -> tuple[VictoryLevel, ...]:
        table = charts.find(f"{M}{name}")
        return tuple(sorted((VictoryLevel(el.get("name"), int(el.get("rank")),
                                          int(el.get("min", "-999")), int(el.get("max", "999")))
                             for el in table.findall(f"{M}level")), key=lambda v: v.rank))

    cities = tuple(VictoryCity(c.get("hex"), int(c.get("german-control")),
                               int(c.get("encircled")), int(c.get("soviet-control")))
                   for c in charts.find(f"{M}victory-points").findall(f"{M}city"))
    return Victory(cities, levels("victory-levels"), levels("winter-victory-levels"),
                   tuple(o.get("hex") for o in charts.iter(f"{M}objective")))
