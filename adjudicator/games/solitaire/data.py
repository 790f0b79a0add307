"""Barbarossa Solitaire's module data, typed: the map, the pieces, the turn record, the
charts, the options and the scenarios. The only reader of the module XML in the
package; built once per module (`charts_of`).

Each table answers a lookup and can list every cell, so tests check the whole chart
and reports can show what a roll could have done. `check_module` says what the schema
cannot: that the charts have every row the rules read and that the ids point at things
that exist; a module a referee loads with `--module` is checked before any game starts
with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from lxml import etree

from adjudicator.engine.board import AreaBoard
from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.errors import ModuleError
from adjudicator.games.solitaire.vocabulary import (
    OPTION_VALUES,
    AttackTarget,
    Nationality,
    SovietColumn,
    Variant,
)

# the sizes of the Random column's ranges that one d6 can read (RULES-ISSUES.md #18)
RANDOM_RANGE_SIZES = (1, 2, 3, 6)
_M = f"{{{MODULE_NS}}}"


@dataclass(frozen=True)
class Turn:
    id: str
    name: str
    year: int
    season: str
    index: int
    reinforcements: int = 1
    eliminates: str | None = None  # the nationality whose units leave as it begins


@dataclass(frozen=True)
class Piece:
    id: str
    name: str
    nationality: str
    group: str


@dataclass(frozen=True)
class Nation:
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
    result: str  # an AttackResult


@dataclass(frozen=True)
class RandomAttackEntry:
    roll: int
    target: str  # an AttackTarget
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


@dataclass(frozen=True)
class Placement:
    """A unit a scenario sets up; `option`: only when that option is "yes"."""

    piece: str
    area: str
    option: str | None = None


@dataclass(frozen=True)
class Arrival:
    """A reinforcement a scenario schedules."""

    piece: str
    turn: str


@dataclass(frozen=True)
class Scenario:
    """Initial Setup, or a scenario's (Scenarios)."""

    id: str
    name: str
    start: str
    end: str
    rear_garrisons: bool  # "place garrisons in all German-controlled areas behind the front"
    places: tuple[Placement, ...]
    garrisons: tuple[str, ...]
    control: tuple[tuple[str, str], ...]  # (area, side) in the order the scenario gives
    reinforcements: tuple[Arrival, ...]


@dataclass
class Charts:
    """Every chart and list of the module, typed."""

    module: ModuleData
    turns: list[Turn] = field(init=False)
    pieces: dict[str, Piece] = field(init=False)
    nationalities: dict[str, Nation] = field(init=False)

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
            n.get("id"): Nation(n.get("id"), n.get("name"), tuple(n.get("enters").split()),
                                n.get("lost-for-good") == "true", n.get("capital"))
            for n in m.findall("m:nationalities/m:nationality")
        }
        for piece in self.pieces.values():
            if piece.nationality not in self.nationalities:
                raise ModuleError(f"piece {piece.id} has unknown nationality {piece.nationality}")

    @cached_property
    def title(self) -> str | None:
        return self.module.root.get("title")

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
        """Restrictions: the areas south of the line Belgrade - Bucharest - Slovenia -
        Kharkov - Don - Stalingrad (reconstructed, data/MAP-README.md)."""
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
    def sea_names(self) -> dict[str, str]:
        return {s.get("id"): s.get("name") for s in self.module.findall("m:map/m:sea")}

    @cached_property
    def supply_sources(self) -> tuple[str, ...]:
        """Movement, Combat: Arkangel, Siberia, Gorky, Stalingrad and Astrakhan."""
        return tuple(self.module.find("m:supply-sources").get("areas").split())

    @cached_property
    def return_after(self) -> int:
        """Reinforcements: a removed unit returns this many turns later."""
        return int(self.module.find("m:unit-return").get("after-turns"))

    def nationality(self, unit: str) -> str:
        return self.pieces[unit].nationality

    def name_of(self, area: str) -> str:
        return self.area_names.get(area, area)

    def is_german(self, unit: str) -> bool:
        return self.nationality(unit) == Nationality.GERMAN

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
        """Combat: +3/+1 in 1941, +2/0 in 1942, +1/0 in 1943, with/without German units."""
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
                modifier = 0 if variant == Variant.NONE else int(row.get(variant))
                if column == SovietColumn.RANDOM:
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

    def scenario(self, scenario_id: str) -> Scenario:
        """The scenario of that id; ModuleError naming the module's scenarios."""
        for s in self._scenario_elements():
            if s.get("id") == scenario_id:
                return _scenario(s)
        known = ", ".join(s.get("id") for s in self._scenario_elements())
        raise ModuleError(f"unknown scenario {scenario_id!r} (this module has: {known})")

    def _scenario_elements(self) -> list[etree._Element]:
        return self.module.findall("m:scenarios/m:scenario")


def _scenario(s: etree._Element) -> Scenario:
    return Scenario(
        s.get("id"), s.get("name"), s.get("start"), s.get("end"),
        s.get("garrison-rear") == "true",
        tuple(Placement(p.get("piece"), p.get("area"), p.get("option"))
              for p in s.iter(f"{_M}place")),
        tuple(g.get("area") for g in s.iter(f"{_M}garrison")),
        tuple((area, c.get("side")) for c in s.iter(f"{_M}control")
              for area in c.get("areas").split()),
        tuple(Arrival(r.get("piece"), r.get("turn")) for r in s.iter(f"{_M}reinforcement")))


_CHARTS: dict[str, Charts] = {}


def charts_of(module: ModuleData) -> Charts:
    """The typed charts of a module, built once per module checksum."""
    if module.sha256 not in _CHARTS:
        _CHARTS[module.sha256] = Charts(module)
    return _CHARTS[module.sha256]


# -- what the schema cannot say -------------------------------------------------------


def check_module(module: ModuleData) -> None:
    """Raise ModuleError listing every problem found (schema validity is assumed)."""
    try:
        charts = Charts(module)
        problems = list(module_problems(module, charts))
    except (ModuleError, KeyError, ValueError) as exc:
        raise ModuleError(f"module {module.game}: {exc}") from None
    if problems:
        raise ModuleError(f"module {module.game} is incomplete: " + "; ".join(problems[:8])
                          + (f"; and {len(problems) - 8} more" if len(problems) > 8 else ""))


def module_problems(module: ModuleData, charts: Charts) -> Iterator[str]:
    areas = set(charts.board.areas)
    turns = [t.id for t in charts.turns]
    for option, values in OPTION_VALUES.items():
        allowed = {v.value for v in values}
        spec = charts.option_specs.get(option)
        if spec is None:
            yield f"option {option} is missing"
        elif not set(spec[1]) <= allowed or spec[0] not in spec[1]:
            yield f"option {option} must offer values among {sorted(allowed)} with its default"
    if len(set(turns)) != len(turns) or not turns:
        yield "the turn record needs turns with distinct ids"
    years = {int(y.get("value")) for y in module.findall("m:year-modifiers/m:year")}
    rows = {r.get("id"): r for r in module.findall("m:soviet-attack-chart/m:turn")}
    for turn in charts.turns:
        if turn.year not in years:
            yield f"no combat modifier for {turn.year}"
        if turn.id not in rows:
            yield f"the Soviet Attack Chart has no row for {turn.id}"
            continue
        low, _, high = rows[turn.id].get("random").partition("-")
        if int(low) > int(high) or int(high) - int(low) + 1 not in RANDOM_RANGE_SIZES:
            yield f"the Random column of {turn.id} must span 1, 2, 3 or 6 values"
    max_units, max_roll = charts.attack_limits
    chart = {int(r.get("units")): r.get("results").split()
             for r in module.findall("m:attack-chart/m:row")}
    if sorted(chart) != list(range(1, max_units + 1)) or \
            any(len(results) != max_roll for results in chart.values()):
        yield f"the Attack Chart needs rows 1-{max_units} with {max_roll} results each"
    if sorted(charts.random_attack_chart) != list(range(1, 7)):
        yield "the Soviet Random Attack Chart needs rows for rolls 1-6"
    for entry in charts.random_attack_chart.values():
        if entry.target == AttackTarget.NEAREST and \
                (not entry.places or not set(entry.places) <= areas):
            yield f"Random Attack Chart roll {entry.roll} names places that are not areas"
    if sorted(charts.soviet_effects) != [1, 2, 3]:
        yield "the Effects of Soviet Attack need rows for rolls 1-3"
    for count in range(len(areas) + 1):
        if not any(count >= v.low and (v.high is None or count <= v.high)
                   for v in charts.victory_levels):
            yield f"no victory level for {count} areas"
            break
    if not set(charts.supply_sources) <= areas or not charts.supply_sources:
        yield "the Soviet supply sources must be areas"
    for nat in charts.nationalities.values():
        if not set(nat.enters) <= areas or (nat.capital and nat.capital not in areas):
            yield f"the {nat.name} entry areas and capital must be areas"
    for sea, members in charts.seas.items():
        if not set(members) <= areas:
            yield f"sea area {sea} names an area that does not exist"
    for scenario in charts._scenario_elements():
        yield from scenario_problems(charts, scenario, areas, turns)


def scenario_problems(charts: Charts, scenario: etree._Element, areas: set[str],
                      turns: list[str]) -> Iterator[str]:
    name = scenario.get("id")
    if scenario.get("start") not in turns or scenario.get("end") not in turns or \
            turns.index(scenario.get("start")) > turns.index(scenario.get("end")):
        yield f"scenario {name} must start and end on turns of the turn record, in order"
    for el in scenario:
        if not isinstance(el.tag, str):
            continue
        piece, area, turn = el.get("piece"), el.get("area"), el.get("turn")
        named_areas = el.get("areas", "").split() + ([area] if area else [])
        if piece is not None and piece not in charts.pieces:
            yield f"scenario {name} names unknown piece {piece}"
        if not set(named_areas) <= areas:
            yield f"scenario {name} names an unknown area in {sorted(named_areas)}"
        if turn is not None and turn not in turns:
            yield f"scenario {name} names unknown turn {turn}"
