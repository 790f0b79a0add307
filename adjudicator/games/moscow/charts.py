"""Moscow '41 combat charts and combat ground as data: the CRT with its errata (2.3), the
result codes (8.9), the Column Shifts Chart (2.3, 8.5 F) and the combat lines of the
Terrain Effects Chart (2.2) of charts.xml, and the map as combat sees it (the city
hexes of 10.2). Read once per module by `CombatCharts.of` and `CombatMap.of`.

Reading the CRT: results are attacker/defender (charts.xml `<notation>`); a number is
steps to lose or hexes to retreat at the owner's choice (8.9 D-E), E eliminates every
affected unit (8.9 G), "-" is no effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.engine.odds import CombatTable, OddsLadder
from adjudicator.errors import ModuleError
from adjudicator.games.moscow.rejections import CATALOGUE

M = f"{{{MODULE_NS}}}"
NO_EFFECT, ELIMINATED = "-", "E"


# ======================================================================== the charts
@dataclass(frozen=True)
class TerrainCombat:
    """One combat line of the TEC: a hex terrain, a hex feature (city, town) or a
    hexside feature (river, lake, road, moscow-ring)."""

    name: str
    effect: str  # none, shift, road-only
    shift: int = 0  # columns, negative = to the left (for the defender)
    when: str | None = None  # "all-attackers-across": a hexside counts only then
    attacker: str | None = None  # only when this side attacks (the ring: german)
    defender_terrain: str | None = None  # road-only hexsides: the defender's hex counts as
    overrun_prohibited: bool = False  # 7.5 C


@dataclass(frozen=True)
class ShiftRule:
    """One line of the Column Shifts Chart."""

    cause: str
    favour: str  # attacker, defender, german, owner
    columns: int
    attacker: str | None = None  # only when this side attacks
    turns: frozenset[int] = frozenset()  # only on these turns (empty: every turn)
    combat: frozenset[str] = frozenset()  # attack, overrun (empty: both)
    weather: str | None = None  # only in this weather
    max_units: int | None = None  # air: at most so many units


@dataclass(frozen=True)
class Result:
    """A CRT result split into the attacker's and the defender's parts: "-", "1", "2"
    or "E" (8.9)."""

    code: str
    attacker: str
    defender: str

    @property
    def split(self) -> bool:
        """8.9 F: a result that affects both sides."""
        return self.attacker != NO_EFFECT and self.defender != NO_EFFECT

    @property
    def order(self) -> tuple[str, ...]:
        """8.9 F: the sides that apply losses, the defender first.

        >>> Result("2/1", "2", "1").order
        ('defender', 'attacker')
        """
        return tuple(side for side, part in (("defender", self.defender),
                                             ("attacker", self.attacker))
                     if part != NO_EFFECT)


@dataclass(frozen=True)
class CombatCharts:
    """The combat charts of charts.xml: the CRT with its errata (2.3), the result codes
    (8.9), the Column Shifts Chart (2.3, 8.5 F) and the combat lines of the TEC (2.2)."""

    crt: CombatTable
    notation: str  # "attacker/defender"
    best_roll: int
    results: Mapping[str, Result]
    errata: tuple[tuple[str, int, str], ...]  # (column, roll, result)
    hex_terrain: Mapping[str, TerrainCombat]
    hex_features: Mapping[str, TerrainCombat]
    hexsides: Mapping[str, TerrainCombat]
    shifts: Mapping[str, ShiftRule]

    @classmethod
    def of(cls, module: ModuleData) -> CombatCharts:
        return _charts(module)

    @property
    def ladder(self) -> OddsLadder:
        return self.crt.ladder

    def column(self, odds: str) -> int:
        """The index of a printed column ("4-1")."""
        try:
            return self.ladder.names.index(odds)
        except ValueError:
            raise ModuleError(f"the CRT has no column {odds!r}") from None

    def result(self, column: int, roll: int) -> Result:
        """8.5 G: the result where the final column meets the die roll."""
        if roll not in self.crt.rows:
            raise CATALOGUE.refuse("bad-roll", "8.5 G", f"a die roll of {roll} is not on the CRT")
        return self.parse(self.crt.result(column, roll))

    def parse(self, code: str) -> Result:
        """8.9 A: the attacker's and defender's parts of a CRT code."""
        try:
            return self.results[code]
        except KeyError:
            raise ModuleError(f"the CRT result {code!r} is not a known result code") from None

    def shift(self, cause: str) -> ShiftRule:
        try:
            return self.shifts[cause]
        except KeyError:
            raise ModuleError(f"the Column Shifts Chart has no {cause!r} line") from None


def _loss(text: str | None) -> str:
    return NO_EFFECT if text in (None, "0", "-") else str(text)


@lru_cache(maxsize=8)
def _charts(module: ModuleData) -> CombatCharts:
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


# ========================================================================= the ground
@dataclass(frozen=True)
class CombatMap:
    """The map as combat sees it: the board (terrain, hexside features) and the city
    hexes (a city replaces its hex's terrain on the TEC; 10.2). Towns leave the terrain
    of their hex and are not listed."""

    board: HexBoard
    cities: frozenset[Hex] = frozenset()

    @classmethod
    def of(cls, module: ModuleData) -> CombatMap:
        return _combat_map(module)

    def adjacent(self, a: Hex, b: Hex) -> bool:
        return self.board.grid.adjacent(a, b)

    def features(self, a: Hex, b: Hex) -> frozenset[str]:
        return self.board.features(a, b)

    def terrain(self, h: Hex) -> str:
        return self.board.terrain[h]


@lru_cache(maxsize=8)
def _combat_map(module: ModuleData) -> CombatMap:
    board = module.hex_board()
    cities = frozenset(board.hex(el.get("id")) for el in module.findall("m:map/m:hex")
                       if el.get("city-class") == "city")
    return CombatMap(board, cities)
