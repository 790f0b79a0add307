"""What the Moscow '41 rules read from the module, once per module: the board, the
counters, and per hex its side of the starting front line, city or town, supply
source and entry marking; and a unit of a position as its counter shows it (a Soviet
token by its untried face, 12.1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from lxml import etree

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.memo import Memo
from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.engine.odds import CombatTable, OddsLadder
from adjudicator.engine.state import State
from adjudicator.errors import ModuleError
from adjudicator.games.moscow.vocabulary import ARMOR_TYPES, DIE, GERMAN

if TYPE_CHECKING:
    from adjudicator.games.moscow.charts import CombatCharts, CombatMap
    from adjudicator.games.moscow.terrain import Cost as TecCost
    from adjudicator.games.moscow.terrain import TecRow, Terrain
    from adjudicator.games.moscow.victory import VictorySchedule
    from adjudicator.games.moscow.weather import TurnWeather

M = f"{{{MODULE_NS}}}"


@dataclass(frozen=True)
class Piece:
    """A counter (2.4). German units have a combat strength for both attack and defense
    (2.5) and two steps; Soviet units attack and defense strengths and one step (8.9 H)."""

    id: str
    name: str
    side: str
    type: str  # armor, mechanized, infantry, cavalry, air
    steps: int
    attack: int  # German: full strength (2.5)
    defense: int
    reduced: int  # German: the strength of the reduced side
    movement: int
    setup: str  # west-of-front, infantry-zone, east-of-20, turn-record, off-map
    siberian: bool  # 1.3.1 B
    untried: bool  # 12.1

    @property
    def armor(self) -> bool:
        """10.1 A: armor, not mechanized, gives the armor shift."""
        return self.type == "armor"

    @property
    def moves_as_armor(self) -> bool:
        """2.7 B: infantry and cavalry move as infantry; armor and mechanized as armor."""
        return self.type in ("armor", "mechanized")


@dataclass(frozen=True)
class Game:
    board: HexBoard
    pieces: dict[str, Piece]
    side_of: dict[Hex, str]  # the side of the starting front line (1.3.2 C, 9.4)
    front_line: frozenset[Hex]  # the Soviet front-line hexes (1.3.1 F)
    places: dict[Hex, tuple[str, str]]  # hex -> (name, city or town)
    entries: frozenset[Hex]  # 14.1 B: the east-edge road hexes Soviet reinforcements use
    moscow: Hex
    # what the rules ask again and again of the same position (the supply network of a
    # side where the units stand), kept under the facts it depends on
    memo: Memo[Any, Any] = field(default_factory=lambda: Memo(512), compare=False)

    @classmethod
    def of(cls, module: ModuleData) -> Game:
        return _game(module)


@lru_cache(maxsize=8)
def _game(module: ModuleData) -> Game:
    board = module.hex_board()
    pieces = {}
    for el in module.findall("m:pieces/m:piece"):
        german = el.get("side") == "german"
        strength = int(el.get("strength") or el.get("attack") or 0)
        pieces[el.get("id")] = Piece(
            el.get("id"), el.get("name"), el.get("side"), el.get("type"),
            int(el.get("steps") or 0), strength,
            strength if german else int(el.get("defense") or 0),
            int(el.get("reduced") or 0), int(el.get("movement") or 0), el.get("setup"),
            el.get("marking") == "siberian", el.get("untried") == "yes")
    side_of, front, places, entries = {}, set(), {}, set()
    moscow = None
    for el in module.findall("m:map/m:hex"):
        h = board.hex(el.get("id"))
        side_of[h] = el.get("side")
        if el.get("front-line") == "yes":
            front.add(h)
        if el.get("city"):
            places[h] = (el.get("city"), el.get("city-class"))
            if el.get("city") == "Moscow":
                moscow = h
        if el.get("entry") == "soviet":
            entries.add(h)
    if moscow is None:
        raise ValueError("the Moscow '41 map has no hex named Moscow")
    return Game(board, pieces, side_of, frozenset(front), places, frozenset(entries), moscow)


def unit_facts(game: Game, state: State, unit: str) -> tuple[str, str, int, bool]:
    """Side, type, printed MA and Siberian marking of a unit or an untried token (its
    untried face shows type and MA, 12.1)."""
    face = state["tokens"].get(unit)
    if face is not None:
        return "soviet", face["type"], face["movement"], face["siberian"]
    piece = game.pieces[unit]
    return piece.side, piece.type, piece.movement, piece.siberian


def units_of(game: Game, state: State, side: str) -> list[Unit]:
    return [Unit(u, s, t, game.board.hex(x)) for u, x in sorted(state["units"].items())
            for s, t, _, _ in [unit_facts(game, state, u)] if s == side]


def _cost(text: str | None) -> TecCost:
    from adjudicator.games.moscow.terrain import PROHIBITED, ROAD_ONLY

    if text in (PROHIBITED, ROAD_ONLY):
        return text
    return Fraction(text or "0")


def _row(el: etree._Element | None) -> TecRow:
    from adjudicator.games.moscow.terrain import TecRow

    if el is None:
        raise ModuleError("a line of the Terrain Effects Chart has no <movement>")
    return TecRow(_cost(el.get("infantry")), _cost(el.get("armor")),
                  el.get("replaces-terrain") == "true", el.get("not-along"))


@lru_cache(maxsize=8)
def read_terrain(module: ModuleData) -> Terrain:
    """2.2, 4.2, 4.8, 5.0 C, 7.5 C: the Terrain Effects Chart of charts.xml on the map."""
    from adjudicator.games.moscow.terrain import PROHIBITED, HexsideRow, Terrain

    board = module.hex_board()
    tec = "m:charts/m:terrain-effects"
    terrains = {el.get("name"): _row(el.find(f"{M}movement"))
                for el in module.findall(f"{tec}/m:hex-terrain")}
    features = {el.get("name"): _row(el.find(f"{M}movement"))
                for el in module.findall(f"{tec}/m:hex-feature")}
    sides: dict[str, HexsideRow] = {}
    for el in module.findall(f"{tec}/m:hexside-feature"):
        zoc = el.find(f"{M}zoc")
        overrun = el.find(f"{M}overrun")
        sides[el.get("name")] = HexsideRow(
            _row(el.find(f"{M}movement")),
            zoc is not None and zoc.get("effect") == "blocked",
            zoc.get("except") if zoc is not None else None,
            overrun is not None and overrun.get("effect") == PROHIBITED)
    places = {board.hex(el.get("id")): el.get("city-class")
              for el in module.findall("m:map/m:hex[@city-class]")}
    missing = ({t for t in board.terrain.values() if t not in terrains}
               | {p for p in places.values() if p not in features}
               | {f for fs in board.hexsides.values() for f in fs if f not in sides})
    if missing:
        raise ModuleError(f"module {module.game}: the Terrain Effects Chart has no line for "
                          f"{', '.join(sorted(missing))}")
    return Terrain(board, MappingProxyType(places), MappingProxyType(terrains),
                   MappingProxyType(features), MappingProxyType(sides))


def _loss(text: str | None) -> str:
    from adjudicator.games.moscow.charts import NO_EFFECT

    return NO_EFFECT if text in (None, "0", "-") else str(text)


@lru_cache(maxsize=8)
def read_charts(module: ModuleData) -> CombatCharts:
    """2.3, 8.5 F, 8.9, 2.2: the CRT with its errata, the results, the Column Shifts Chart
    and the combat lines of the Terrain Effects Chart."""
    from adjudicator.games.moscow.charts import CombatCharts, Result, ShiftRule, TerrainCombat

    root = module.find("m:charts")
    section = root.find(f"{M}combat-results")
    effects = root.find(f"{M}terrain-effects")
    chart = root.find(f"{M}column-shifts")
    if section is None or effects is None or chart is None:
        raise ModuleError("the charts need <combat-results>, <terrain-effects> and "
                          "<column-shifts>")
    notation_el = section.find(f"{M}notation")
    notation = notation_el.get("order") if notation_el is not None else "attacker/defender"
    if notation not in ("attacker/defender", "defender/attacker"):
        raise ModuleError(f"unknown CRT notation {notation!r}")
    ladder = OddsLadder.of([c.get("odds") for c in section.iter(f"{M}column")])
    rows = {int(r.get("roll")): list(r.get("results").split())
            for r in section.iter(f"{M}row")}
    errata = tuple((e.get("column"), int(e.get("roll")), e.get("result"))
                   for e in section.iter(f"{M}errata"))
    for column, roll, code in errata:  # 2.3: the errata win over the printed cell
        if column not in ladder.names or roll not in rows:
            raise ModuleError(f"CRT errata for a cell that is not on the table: "
                              f"{column} / {roll}")
        rows[roll][ladder.names.index(column)] = code
    results = {}
    for el in section.iter(f"{M}result"):
        first, second = _loss(el.get("attacker")), _loss(el.get("defender"))
        results[el.get("code")] = Result(el.get("code"), first, second)
    for row in rows.values():
        for code in row:
            if code not in results:
                raise ModuleError(f"the CRT uses {code!r}, which has no <result> line")

    def line(el: Any) -> TerrainCombat:
        c = el.find(f"{M}combat")
        o = el.find(f"{M}overrun")
        return TerrainCombat(
            el.get("name"), c.get("effect") if c is not None else "none",
            int(c.get("shift", "0")) if c is not None else 0,
            c.get("when") if c is not None else None,
            c.get("attacker") if c is not None else None,
            c.get("defender-terrain") if c is not None else None,
            o is not None and o.get("effect") == "prohibited")

    def lines(kind: str) -> dict[str, TerrainCombat]:
        return {el.get("name"): line(el) for el in effects.findall(f"{M}{kind}")}

    shifts = {}
    for el in chart.findall(f"{M}shift"):
        shifts[el.get("cause")] = ShiftRule(
            el.get("cause"), el.get("favour"), int(el.get("columns", "0")),
            el.get("attacker"), frozenset(int(t) for t in el.get("turns", "").split()),
            frozenset(el.get("combat", "").split()), el.get("weather"),
            int(el.get("max-units")) if el.get("max-units") else None)
    return CombatCharts(CombatTable(ladder, rows), notation,
                        int(section.get("best-roll", "1")), results, errata,
                        lines("hex-terrain"), lines("hex-feature"), lines("hexside-feature"),
                        shifts)


@lru_cache(maxsize=8)
def read_combat_map(module: ModuleData) -> CombatMap:
    """10.2: the board and its city hexes as combat sees them."""
    from adjudicator.games.moscow.charts import CombatMap

    board = module.hex_board()
    cities = frozenset(board.hex(el.get("id")) for el in module.findall("m:map/m:hex")
                       if el.get("city-class") == "city")
    return CombatMap(board, cities)


def die_faces(text: str | None) -> frozenset[int]:
    """A Turn Record Track range: "1-4", "6", "1-2 5", "all" (automatic), or nothing.

    >>> sorted(die_faces("1-4")), sorted(die_faces("6")), len(die_faces("all"))
    ([1, 2, 3, 4], [6], 6)
    """
    if not text:
        return frozenset()
    if text.strip() == "all":
        return frozenset(DIE)
    faces: set[int] = set()
    for part in text.split():
        low, _, high = part.partition("-")
        try:
            faces.update(range(int(low), int(high or low) + 1))
        except ValueError:
            raise ModuleError(f"the Turn Record Track has a bad die range {text!r}") from None
    if not faces <= set(DIE):
        raise ModuleError(f"the Turn Record Track range {text!r} is not on one die")
    return frozenset(faces)


def turn_record(module: ModuleData) -> dict[int, TurnWeather]:
    """The Turn Record Track of charts.xml: turn -> its weather ranges and Siberian box."""
    from adjudicator.games.moscow.weather import TurnWeather

    track: dict[int, TurnWeather] = {}
    for el in module.findall("m:charts/m:turn-record/m:turn"):
        weather = el.find(f"{M}weather")
        if weather is None:
            raise ModuleError(f"Turn {el.get('number')} of the Turn Record Track has no weather")
        entry = TurnWeather(int(el.get("number")), weather.get("roll") == "yes",
                            die_faces(weather.get("rasputitsa")), die_faces(weather.get("snow")),
                            el.get("siberian") == "yes")
        if entry.rasputitsa & entry.snow:
            raise ModuleError(f"Turn {entry.turn}: rasputitsa and snow share a die face")
        track[entry.turn] = entry
    if not track:
        raise ModuleError("the charts have no Turn Record Track")
    return track


@lru_cache(maxsize=8)
def read_victory(module: ModuleData) -> VictorySchedule:
    """16.1-16.3, 16.0 A: the schedule of charts.xml's `<victory>`."""
    from adjudicator.games.moscow.victory import Level, VictorySchedule

    root = module.find("m:charts/m:victory")

    def number(text: str | None) -> int | None:
        return None if text is None else int(text)

    casualties = {el.get("type"): (int(el.get("reduced")), int(el.get("eliminated")))
                  for el in root.iter(f"{M}vp")}
    points = root.find(f"{M}moscow-points")
    auto = root.find(f"{M}automatic-victory")
    if points is None or auto is None:
        raise ModuleError("the victory chart lacks the Moscow points or 16.0 A")
    levels = tuple(Level(el.get("name"), el.get("side"), number(el.get("min")),
                         number(el.get("max"))) for el in root.iter(f"{M}level"))
    return VictorySchedule(casualties, int(points.get("per-adjacent-hex")), levels,
                           auto.get("level"))


# -- 5.0: zones of control ------------------------------------------------------------------
@dataclass(frozen=True)
class Unit:
    """A combat unit where it stands. `type` is that of 2.4.4: infantry, cavalry, armor
    or mechanized."""

    id: str
    side: str  # german, soviet
    type: str
    hex: Hex

    @property
    def moves_as_armor(self) -> bool:
        """2.7 B: the TEC's Armor/Mech column; infantry and cavalry move as infantry."""
        return self.type in ARMOR_TYPES

    @property
    def panzer(self) -> bool:
        """6.2: a German armor or mechanized unit (disengages for +2, at any time)."""
        return self.side == GERMAN and self.type in ARMOR_TYPES


@lru_cache(maxsize=8)
def scenario_turns(module: ModuleData) -> dict[str, tuple[int, int]]:
    """3.1.3: each scenario's first and last turn (scenarios.xml)."""
    return {el.get("id"): (int(el.get("start")), int(el.get("end")))
            for el in module.findall("m:scenarios/m:scenario")}


@lru_cache(maxsize=8)
def turn_dates(module: ModuleData) -> dict[int, tuple[str, str]]:
    """The first and last day of each turn on the Turn Record Track (charts.xml)."""
    return {int(el.get("number")): (el.get("first-day"), el.get("last-day"))
            for el in module.findall("m:charts/m:turn-record/m:turn")}
