"""The 1941 charts as the rules read them, from the module's `<charts>` (charts.xml):
the Terrain Effects Chart's movement costs by weather (5.1, 13.x), the exceptions of
mountain and Finnish units (5.2), and the Turn Record Chart (weather, air points)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.engine.odds import CombatTable, OddsLadder
from adjudicator.errors import ModuleError

M = f"{{{MODULE_NS}}}"
PROHIBITED = None


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
        return _charts(module)

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


@lru_cache(maxsize=8)
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
            {"axis": int(air.get("axis")), "soviet": int(air.get("soviet"))},
            t.get("optional") == "true", t.find(f"{M}replacements").get("allowance"))
    return Charts(hex_moves, side_moves, exceptions, turns, combat, crt)
