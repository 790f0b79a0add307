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

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.module import ModuleData
from adjudicator.engine.odds import CombatTable, OddsLadder
from adjudicator.errors import ModuleError
from adjudicator.games.moscow.data import read_charts, read_combat_map
from adjudicator.games.moscow.rejections import CATALOGUE

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
        return read_charts(module)

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
        return read_combat_map(module)

    def adjacent(self, a: Hex, b: Hex) -> bool:
        return self.board.grid.adjacent(a, b)

    def features(self, a: Hex, b: Hex) -> frozenset[str]:
        return self.board.features(a, b)

    def terrain(self, h: Hex) -> str:
        return self.board.terrain[h]


