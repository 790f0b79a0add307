"""Barbarossa Solitaire's charts, read from the module data.

Each table answers a lookup and can list every cell, so tests check the
whole chart and reports can show what a roll could have done.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from adjudicator.engine.board import AreaBoard
from adjudicator.engine.module import ModuleData
from adjudicator.errors import ModuleError


@dataclass(frozen=True)
class Turn:
    id: str
    name: str
    year: int
    season: str
    index: int
    reinforcements: int = 1
    eliminates: str | None = None


@dataclass(frozen=True)
class Piece:
    id: str
    name: str
    nationality: str
    group: str


@dataclass(frozen=True)
class Nationality:
    id: str
    name: str
    enters: tuple[str, ...]
    lost_for_good: bool
    capital: str | None = None  # all its units are eliminated if this area turns Soviet


@dataclass(frozen=True)
class AttackOutcome:
    """One cell of the Attack Chart, with how it was found."""

    units: int
    row: int
    roll: int
    modifier: int
    modified: int
    column: int
    result: str  # "-1", "X-1" or "X"


@dataclass(frozen=True)
class RandomAttackEntry:
    roll: int
    target: str  # "nearest", "roll-twice" or "weakest-point"
    places: tuple[str, ...] = ()


@dataclass(frozen=True)
class SovietAttackCount:
    """The Soviet Attack Chart cell for a turn: a fixed number or a range to roll."""

    low: int
    high: int
    modifier: int

    @property
    def fixed(self) -> bool:
        return self.low == self.high


@dataclass(frozen=True)
class VictoryLevel:
    low: int
    high: int | None
    name: str


@dataclass
class Charts:
    """Every chart and list of the module, typed."""

    module: ModuleData
    turns: list[Turn] = field(init=False)
    pieces: dict[str, Piece] = field(init=False)
    nationalities: dict[str, Nationality] = field(init=False)

    def __post_init__(self) -> None:
        m = self.module
        self.turns = [
            Turn(t.get("id"), t.get("name"), int(t.get("year")), t.get("season"), i,
                 int(t.get("reinforcements", "1")), t.get("eliminates"))
            for i, t in enumerate(m.findall("m:turns/m:turn"))
        ]
        self.pieces = {
            p.get("id"): Piece(p.get("id"), p.get("name"), p.get("nationality"), p.get("group"))
            for p in m.findall("m:pieces/m:piece")
        }
        self.nationalities = {
            n.get("id"): Nationality(n.get("id"), n.get("name"), tuple(n.get("enters").split()),
                                     n.get("lost-for-good") == "true", n.get("capital"))
            for n in m.findall("m:nationalities/m:nationality")
        }
        for piece in self.pieces.values():
            if piece.nationality not in self.nationalities:
                raise ModuleError(f"piece {piece.id} has unknown nationality {piece.nationality}")

    # -- map ---------------------------------------------------------------
    @cached_property
    def board(self) -> AreaBoard:
        return self.module.area_board()

    @cached_property
    def area_names(self) -> dict[str, str]:
        return {a.get("id"): a.get("name") for a in self.module.findall("m:map/m:area")}

    @cached_property
    def start_side(self) -> dict[str, str]:
        return {a.get("id"): a.get("start-side") for a in self.module.findall("m:map/m:area")}

    @cached_property
    def romanian_allowed(self) -> frozenset[str]:
        return frozenset(a.get("id") for a in self.module.findall("m:map/m:area")
                         if a.get("romanian-allowed") == "true")

    @cached_property
    def seas(self) -> dict[str, tuple[str, ...]]:
        """Sea area id -> member areas (rules: Sea Areas)."""
        return {
            s.get("id"): tuple(sorted(m.get("area") for m in s))
            for s in self.module.findall("m:map/m:sea")
        }

    @cached_property
    def supply_sources(self) -> tuple[str, ...]:
        return tuple(self.module.find("m:supply-sources").get("areas").split())

    @cached_property
    def return_after(self) -> int:
        return int(self.module.find("m:unit-return").get("after-turns"))

    # -- turns -------------------------------------------------------------
    def turn(self, turn_id: str) -> Turn:
        for turn in self.turns:
            if turn.id == turn_id:
                return turn
        raise ModuleError(f"unknown turn {turn_id!r}")

    def turn_at(self, index: int) -> Turn | None:
        return self.turns[index] if 0 <= index < len(self.turns) else None

    # -- the Attack Chart (rules: Combat) ------------------------------------
    @cached_property
    def _attack_rows(self) -> dict[int, list[str]]:
        chart = self.module.find("m:attack-chart")
        return {int(r.get("units")): r.get("results").split() for r in chart}

    @cached_property
    def attack_limits(self) -> tuple[int, int]:
        chart = self.module.find("m:attack-chart")
        return int(chart.get("max-units")), int(chart.get("max-roll"))

    def year_modifier(self, year: int, german_taking_part: bool) -> int:
        for y in self.module.findall("m:year-modifiers/m:year"):
            if int(y.get("value")) == year:
                return int(y.get("with-german" if german_taking_part else "without-german"))
        raise ModuleError(f"no combat modifier for the year {year}")

    def attack_outcome(self, units: int, roll: int, modifier: int) -> AttackOutcome:
        """Attack Chart lookup. More units than the last row read the last row, and a
        modified roll past the last column reads the last column (reconstructed:
        the printed chart stops at 4 on both)."""
        max_units, max_roll = self.attack_limits
        row = min(units, max_units)
        modified = roll + modifier
        column = max(1, min(modified, max_roll))
        return AttackOutcome(units, row, roll, modifier, modified, column,
                             self._attack_rows[row][column - 1])

    def attack_cells(self) -> list[tuple[int, int, str]]:
        """Every printed cell: (units, roll column, result)."""
        return [(u, c + 1, r) for u, row in sorted(self._attack_rows.items())
                for c, r in enumerate(row)]

    # -- Soviet combat ---------------------------------------------------------
    def soviet_attacks(self, turn_id: str, column: str, variant: str) -> SovietAttackCount:
        """The Soviet Attack Chart cell for this turn, scenario column and variant."""
        for row in self.module.findall("m:soviet-attack-chart/m:turn"):
            if row.get("id") == turn_id:
                modifier = 0 if variant == "none" else int(row.get(variant))
                if column == "random":
                    low, high = (int(v) for v in row.get("random").split("-"))
                else:
                    low = high = int(row.get(column))
                return SovietAttackCount(low, high, modifier)
        raise ModuleError(f"the Soviet Attack Chart has no row for {turn_id}")

    @cached_property
    def random_attack_chart(self) -> dict[int, RandomAttackEntry]:
        return {
            int(r.get("value")): RandomAttackEntry(
                int(r.get("value")), r.get("target"), tuple(r.get("places", "").split()))
            for r in self.module.find("m:random-attack-chart")
        }

    @cached_property
    def soviet_effects(self) -> dict[int, str]:
        return {int(r.get("value")): r.get("effect")
                for r in self.module.find("m:soviet-attack-effects")}

    @cached_property
    def victory_levels(self) -> list[VictoryLevel]:
        return [
            VictoryLevel(int(v.get("min")), int(v.get("max")) if v.get("max") else None,
                         v.get("name"))
            for v in self.module.find("m:victory-levels")
        ]

    def victory_level(self, areas: int) -> str:
        for level in self.victory_levels:
            if areas >= level.low and (level.high is None or areas <= level.high):
                return level.name
        raise ModuleError(f"no victory level for {areas} areas")

    # -- options and scenarios -------------------------------------------------
    @cached_property
    def option_specs(self) -> dict[str, tuple[str, tuple[str, ...], str]]:
        """Option id -> (default, allowed values, description)."""
        return {
            o.get("id"): (o.get("default"), tuple(o.get("values").split()),
                          " ".join((o.text or "").split()))
            for o in self.module.findall("m:options/m:option")
        }

    def scenario(self, scenario_id: str):  # noqa: ANN201 - an lxml element
        for s in self.module.findall("m:scenarios/m:scenario"):
            if s.get("id") == scenario_id:
                return s
        known = ", ".join(s.get("id") for s in self.module.findall("m:scenarios/m:scenario"))
        raise ModuleError(f"unknown scenario {scenario_id!r} (this module has: {known})")
