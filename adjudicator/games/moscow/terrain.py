"""Moscow '41 rules 2.2, 4.2, 4.8, 5.0 C and 7.5 C as data: the Terrain Effects Chart of the
module (charts.xml) applied to its map, read once per module. What entering a hex costs
each column of the chart (Infantry, Armor/Mech: 2.7 B), where a zone of control does not
reach and where no overrun goes. MPs are exact `Fraction`s: the TEC has half MPs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.memo import Memo
from adjudicator.engine.module import ModuleData
from adjudicator.errors import ModuleError
from adjudicator.games.moscow.data import read_terrain

ROAD = "road"

# a chart cost: MPs, or "road-only" / "prohibited"
Cost = Fraction | str
PROHIBITED, ROAD_ONLY = "prohibited", "road-only"

# -- 2.2, 4.2, 4.8: the Terrain Effects Chart ---------------------------------------------
@dataclass(frozen=True)
class TecRow:
    """One movement line of the TEC (charts.xml `<movement>`)."""

    infantry: Cost
    armor: Cost
    replaces_terrain: bool = False  # a city's cost, or a road's, replaces the hex's
    not_along: str | None = None  # a river costs nothing through a road hexside (4.8 B)

    def cost(self, armor: bool) -> Cost:
        return self.armor if armor else self.infantry


@dataclass(frozen=True)
class HexsideRow:
    """A hexside feature's TEC line: movement, and whether it blocks ZOC and overrun."""

    movement: TecRow
    zoc_blocked: bool = False  # 5.0 C
    zoc_except: str | None = None  # ... except where this feature (a road) crosses too
    overrun_prohibited: bool = False  # 7.5 C


@dataclass(frozen=True, eq=False)
class Terrain:
    """The TEC applied to the module's map: what entering a hex costs (4.2, 4.8), where
    a ZOC does not reach (5.0 C) and where no overrun goes (7.5 C)."""

    board: HexBoard
    places: Mapping[Hex, str]  # hex -> its hex feature: "city" or "town"
    terrains: Mapping[str, TecRow]
    hex_features: Mapping[str, TecRow]
    hexside_features: Mapping[str, HexsideRow]
    # what the rules ask again and again of the same units where they stand (their zones
    # of control), kept under the facts it depends on
    memo: Memo[Any, Any] = field(default_factory=lambda: Memo(256), compare=False)

    @classmethod
    def of(cls, module: ModuleData) -> Terrain:
        """The module's TEC and map, read once per module."""
        return read_terrain(module)

    def enter_cost(self, a: Hex, b: Hex, armor: bool) -> Fraction | None:
        """4.2, 4.8: the MPs to enter `b` from the adjacent `a` for the Infantry column
        (`armor` False: infantry and cavalry, 2.7 B) or the Armor/Mech column, or None if
        the TEC forbids it.

        - The hex: its terrain, or a city's own cost instead (the city line replaces the
          terrain); a town leaves the terrain as it is.
        - A road hexside (4.2 D): entering through it costs the road rate, whatever the
          hex; a road on the hex's other hexsides has no effect.
        - A river hexside: its cost is added, except where a road crosses it (4.8 B).
        - A lake hexside (4.8 D): only where a road crosses it, at the road rate.
        """
        column = "armor" if armor else "infantry"
        features = self.board.features(a, b)
        rows = {f: self.hexside_features[f].movement for f in features}
        if any(row.cost(armor) == PROHIBITED for row in rows.values()):
            return None
        if any(row.cost(armor) == ROAD_ONLY for row in rows.values()) and ROAD not in rows:
            return None
        replacing = [row.cost(armor) for row in rows.values() if row.replaces_terrain]
        hex_cost = (min(_number(c, column) for c in replacing) if replacing
                    else self._hex_cost(b, armor))
        if hex_cost is None:
            return None
        total = hex_cost
        for row in rows.values():
            extra = row.cost(armor)
            if row.replaces_terrain or extra == ROAD_ONLY:
                continue
            if row.not_along is not None and row.not_along in features:
                continue
            total += _number(extra, column)
        return total

    def _hex_cost(self, h: Hex, armor: bool) -> Fraction | None:
        cost = self.terrains[self.board.terrain[h]].cost(armor)
        place = self.places.get(h)
        if place is not None:
            row = self.hex_features[place]
            extra = row.cost(armor)
            if PROHIBITED in (cost, extra):
                return None
            if row.replaces_terrain:
                cost = extra
            elif isinstance(cost, Fraction) and isinstance(extra, Fraction):
                cost += extra
        return cost if isinstance(cost, Fraction) else None

    @property
    def mp_scale(self) -> int:
        """The least number of which every cost of the chart is a whole multiple of the
        reciprocal (2: the TEC has half MPs), so MPs may be counted in integers."""
        rows = [*self.terrains.values(), *self.hex_features.values(),
                *(row.movement for row in self.hexside_features.values())]
        return math.lcm(1, *(c.denominator for row in rows for c in (row.infantry, row.armor)
                             if isinstance(c, Fraction)))

    def blocks_zoc(self, a: Hex, b: Hex) -> bool:
        """5.0 C: a ZOC does not extend across a lake hexside, except (charts.xml, from
        8.0 F and 8.1 A) where a road crosses it."""
        features = self.board.features(a, b)
        for f in features:
            row = self.hexside_features[f]
            if row.zoc_blocked and (row.zoc_except is None or row.zoc_except not in features):
                return True
        return False

    def blocks_overrun(self, a: Hex, b: Hex) -> bool:
        """7.5 C: no overrun across a lake hexside, even where a road crosses it."""
        return any(self.hexside_features[f].overrun_prohibited
                   for f in self.board.features(a, b))


def _number(cost: Cost, column: str) -> Fraction:
    if not isinstance(cost, Fraction):
        raise ModuleError(f"the TEC gives {cost!r} in the {column} column where a number of "
                          "MPs is needed")
    return cost


