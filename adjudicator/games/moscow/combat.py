"""Moscow '41 combat as pure procedures over plain facts: 8.0-8.12 (attacks, odds,
results, retreats, advance after combat) with 7.0-7.8 (overrun), 9.2 (supply), 10.0-10.2
(armor), 11.0-11.2 (air), 13.0 (the Moscow defensive ring), 3.2 E (Turn 1) and
15.1 B / 15.2 B (weather).

The CRT, the Column Shifts Chart and the combat lines of the TEC are module data
(charts.xml), read by `CombatCharts.of`. The odds columns go through the engine's
`OddsLadder`, whose positions run past the printed columns along whole ratios, as 8.7 A
wants ("use the initial combat ratio as the basis"), and clamp only the final column
(8.7 B). Zones of control are the movement rules' business: they come in as a function.

Reading the CRT: results are attacker/defender (charts.xml `<notation>`); a number is
steps to lose or hexes to retreat at the owner's choice (8.9 D-E), E eliminates every
affected unit (8.9 G), "-" is no effect.

>>> ladder = OddsLadder.of(["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1",
...                         "8-1", "9-1", "10-1"])
>>> resolve_odds(ladder, 8, 4, ()).final            # 8.5 D: 8 / 4 = 2
'2-1'
>>> resolve_odds(ladder, 11, 4, ()).final           # 8.8: 11 against 4 rounds to 2:1
'2-1'
>>> odds = resolve_odds(ladder, 11, 1, ())           # 8.7 B: 11:1 is read on 10:1
>>> odds.initial, odds.final
('11-1', '10-1')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any, Protocol

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, hex_distance
from adjudicator.engine.module import MODULE_NS, ModuleData
from adjudicator.engine.odds import CombatTable, OddsLadder
from adjudicator.errors import IllegalOrder, ModuleError

M = f"{{{MODULE_NS}}}"
GERMAN, SOVIET = "german", "soviet"
NO_EFFECT, ELIMINATED = "-", "E"
STACK = 4  # 4.6 A, 7.4 A, 8.11 B, 8.12 A
MAX_AIR = 3  # 11.0 A, 11.0 E (the chart's max-units wins when it says otherwise)

# (attacker's hex, defender's hex) -> is the attacker's hex in the ZOC of the units in
# the defender's hex (5.0, from the movement rules)
InZoc = Callable[[Hex, Hex], bool]


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
            raise IllegalOrder("8.5 G", f"a die roll of {roll} is not on the CRT",
                               code="bad-roll")
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


# ========================================================================= the units
class PieceLike(Protocol):
    """What a counter gives combat (the printed values of pieces.xml)."""

    @property
    def id(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def steps(self) -> int: ...
    @property
    def attack(self) -> int: ...
    @property
    def defense(self) -> int: ...
    @property
    def reduced(self) -> int: ...


@dataclass(frozen=True)
class Combatant:
    """A combat unit in one attack or overrun.

    German units: `attack` = `defense` = the printed combat strength (2.5), `reduced` the
    strength of the reduced face, `steps` 2 at full strength and 1 reduced. Soviet units:
    the attack and defense strengths (2.6 A) and one step (8.9 H)."""

    id: str
    side: str  # german, soviet
    type: str  # armor, mechanized, infantry, cavalry
    hex: Hex
    attack: int
    defense: int
    reduced: int = 0
    steps: int = 1  # steps left
    supplied: bool = True  # 9.2, judged when the combat is declared (9.0 C)
    retreated: bool = False  # retreated into its hex during this phase (8.2, 7.8)

    @classmethod
    def of(cls, piece: PieceLike, where: Hex, *, steps: int | None = None,
           supplied: bool = True, retreated: bool = False) -> Combatant:
        return cls(piece.id, piece.side, piece.type, where, piece.attack, piece.defense,
                   piece.reduced, piece.steps if steps is None else steps, supplied,
                   retreated)

    @property
    def armor(self) -> bool:
        """10.1 A: armor, not mechanized."""
        return self.type == "armor"

    @property
    def full_strength(self) -> bool:
        return self.side != GERMAN or self.steps >= 2


def strength(unit: Combatant, *, attacking: bool) -> int:
    """2.5, 2.6 A, 8.4 A: a German unit's combat strength (its reduced strength after a
    step loss, 8.9 H) both ways; a Soviet unit's attack or defense strength. A unit
    always uses all of it (8.4 A-B).

    >>> panzer = Combatant("GER-XX-1Pz", "german", "armor", Hex(0, 0), 7, 7, 4, 2)
    >>> strength(panzer, attacking=True), strength(panzer, attacking=False)
    (7, 7)
    >>> from dataclasses import replace
    >>> strength(replace(panzer, steps=1), attacking=True)
    4
    >>> rifles = Combatant("SOV-XX-174", "soviet", "infantry", Hex(0, 0), 2, 3)
    >>> strength(rifles, attacking=True), strength(rifles, attacking=False)
    (2, 3)
    """
    if unit.side == GERMAN:
        return unit.attack if unit.steps >= 2 else unit.reduced
    return unit.attack if attacking else unit.defense


def defending_units(defenders: Iterable[Combatant], *, overrun: bool) -> list[Combatant]:
    """8.2: the units whose strength defends. Units that retreated into the hex during
    this Combat Phase add nothing to an attack; during an overrun they do (7.8)."""
    return [u for u in defenders if overrun or not u.retreated]


def attack_strength(attackers: Iterable[Combatant]) -> int:
    """8.5 A: the attack strengths totalled."""
    return sum(strength(u, attacking=True) for u in attackers)


def defense_strength(defenders: Iterable[Combatant], *, overrun: bool = False) -> int:
    """8.5 B with 8.2 and 7.8: the defense strengths of the units that defend, totalled.

    >>> here = Hex(0, 0)
    >>> stay = Combatant("a", "soviet", "infantry", here, 2, 3)
    >>> came = Combatant("b", "soviet", "infantry", here, 1, 2, retreated=True)
    >>> defense_strength([stay, came]), defense_strength([stay, came], overrun=True)
    (3, 5)
    """
    return sum(strength(u, attacking=False)
               for u in defending_units(defenders, overrun=overrun))


# ======================================================================== one combat
@dataclass(frozen=True)
class Combat:
    """One attack (Combat Phase) or overrun (Movement Phase) as plain facts."""

    attackers: tuple[Combatant, ...]
    defenders: tuple[Combatant, ...]  # every unit in the defending hexes (8.2)
    hexes: tuple[Hex, ...]  # the defending hexes (8.3: more than one)
    overrun: bool = False
    air: int = 0  # German air units placed on this combat (11.0 B)
    turn: int = 2
    weather: str = "clear"  # clear, rasputitsa, snow

    @property
    def attacker_side(self) -> str:
        return self.attackers[0].side if self.attackers else ""

    @property
    def kind(self) -> str:
        return "overrun" if self.overrun else "attack"

    @property
    def defending(self) -> list[Combatant]:
        """The units that defend (8.2, 7.8)."""
        return defending_units(self.defenders, overrun=self.overrun)


def check_attack(combat: Combat, ground: CombatMap, in_zoc: InZoc, *,
                 attacked: Collection[str] = (), defended: Collection[str] = ()) -> None:
    """Whether an attack or an overrun may be made; IllegalOrder if not.

    * 8.0 A: the attackers of one side attack units of the other side, in the hexes named.
    * 11.0 E: at most three German air units on one combat, and only on a combat (11.0 B).
    * 8.3 B: in a coordinated attack every attacker is adjacent to every defending hex.
    * 8.0 F: an attack across a lake hexside only where a road crosses it.
    * 8.1 A: every attacker in the ZOC of the units it attacks (`in_zoc`).
    * 8.1 B: no unit attacks twice (`attacked`: the units that have attacked in this
      Combat Phase) nor defends twice (`defended`: the units that have defended); units
      that retreated into a defending hex are carried by 8.2 and do not count, but each
      defending hex needs a unit that can defend.
    * Overruns: 7.5 A one hex, 7.4 A at most four units, 7.0 C adjacent, 7.5 C never
      across a lake hexside; 8.1 B does not apply (7.5 B).
    """
    if not combat.attackers:
        raise IllegalOrder("8.0 A", "an attack needs at least one attacking unit",
                           code="no-attacker")
    side = combat.attacker_side
    if any(u.side != side for u in combat.attackers):
        raise IllegalOrder("8.0 A", "the units of one attack all belong to one side",
                           code="mixed-sides")
    if not combat.hexes:
        raise IllegalOrder("8.0 A", "an attack needs a hex to attack", code="no-defender")
    for u in combat.defenders:
        if u.side == side:
            raise IllegalOrder("8.0 A", f"{u.id} is not an enemy unit", code="own-unit")
        if u.hex not in combat.hexes:
            raise IllegalOrder("8.2", f"{u.id} is not in a hex under attack",
                               code="defender-elsewhere")
    for h in combat.hexes:
        if not any(u.hex == h for u in combat.defenders):
            raise IllegalOrder("8.0 A", f"there is no enemy unit in {ground.board.label(h)} "
                               "to attack", code="empty-hex")
    _check_air(combat)
    if combat.overrun:
        _check_overrun(combat, ground)
        return
    label = ground.board.label
    for u in combat.attackers:
        for h in combat.hexes:
            if not ground.adjacent(u.hex, h):
                if len(combat.hexes) > 1:
                    raise IllegalOrder("8.3 B", f"{u.id} in {label(u.hex)} is not adjacent "
                                       f"to {label(h)}: in a coordinated attack every "
                                       "attacking unit must be adjacent to every defending "
                                       "hex", code="not-adjacent")
                raise IllegalOrder("8.1 A", f"{u.id} in {label(u.hex)} is not next to "
                                   f"{label(h)}", code="not-adjacent")
    for u in combat.attackers:
        for h in combat.hexes:
            _check_lake(ground, u.hex, h, u.id)
            if not in_zoc(u.hex, h):
                raise IllegalOrder("8.1 A", f"{u.id} in {label(u.hex)} is not in the zone "
                                   f"of control of the units in {label(h)}, so it cannot "
                                   "attack them", code="not-in-zoc")
    twice = sorted(u.id for u in combat.attackers if u.id in attacked)
    if twice:
        raise IllegalOrder("8.1 B", f"{', '.join(twice)} already attacked in this Combat "
                           "Phase; no unit attacks twice", code="attacked-twice")
    again = sorted(u.id for u in combat.defenders if u.id in defended and not u.retreated)
    if again:
        raise IllegalOrder("8.1 B", f"{', '.join(again)} already defended in this Combat "
                           "Phase; no unit defends twice", code="defended-twice")
    for h in combat.hexes:
        if not any(u.hex == h and not u.retreated for u in combat.defenders):
            raise IllegalOrder("8.1 B", f"the units in {label(h)} all retreated there after "
                               "defending in this Combat Phase; they cannot defend again",
                               code="defended-twice")


def _check_air(combat: Combat) -> None:
    if combat.air < 0:
        raise IllegalOrder("11.0 B", "a number of air units cannot be negative",
                           code="air-units")
    if combat.air > MAX_AIR:
        raise IllegalOrder("11.0 E", f"at most {MAX_AIR} air units can affect one combat, "
                           f"not {combat.air}", code="air-units")


def _check_lake(ground: CombatMap, a: Hex, b: Hex, unit: str) -> None:
    """8.0 F: across a lake hexside only where a road crosses it."""
    features = ground.features(a, b)
    if "lake" in features and "road" not in features:
        label = ground.board.label
        raise IllegalOrder("8.0 F", f"{unit} in {label(a)} cannot attack across the lake "
                           f"hexside into {label(b)}: no road crosses it", code="lake")


def _check_overrun(combat: Combat, ground: CombatMap) -> None:
    label = ground.board.label
    if len(combat.hexes) != 1:
        raise IllegalOrder("7.5 A", "an overrun is conducted against the units of one hex",
                           code="overrun-hexes")
    if len(combat.attackers) > STACK:
        raise IllegalOrder("7.4 A", f"at most {STACK} units overrun together, not "
                           f"{len(combat.attackers)}", code="overrun-stack")
    if len({u.hex for u in combat.attackers}) > 1:
        raise IllegalOrder("7.4 B", "the units of an overrun move together as one stack, "
                           "from one hex", code="overrun-stack")
    target = combat.hexes[0]
    for u in combat.attackers:
        if not ground.adjacent(u.hex, target):
            raise IllegalOrder("7.0 C", f"{u.id} in {label(u.hex)} is not next to "
                               f"{label(target)}", code="not-adjacent")
        if "lake" in ground.features(u.hex, target):
            raise IllegalOrder("7.5 C", f"{u.id} cannot overrun across the lake hexside "
                               f"between {label(u.hex)} and {label(target)}, even where a "
                               "road crosses it", code="overrun-lake")


# ============================================================================= odds
@dataclass(frozen=True)
class Shift:
    """One column shift: right (for the attacker) positive, left negative."""

    name: str
    columns: int
    rule: str
    detail: str = ""


@dataclass(frozen=True)
class Odds:
    attack: int
    defense: int
    initial: str  # 8.5 D: the initial combat ratio, off the table if it is (8.7 A)
    position: int  # the initial ratio's place on the ladder (OddsLadder)
    shifts: tuple[Shift, ...]
    column: int  # the final printed column (8.7 B)
    final: str

    @property
    def total_shift(self) -> int:
        return sum(s.columns for s in self.shifts)


def ratio_name(ladder: OddsLadder, position: int) -> str:
    """The name of a ladder position, off the table too (8.7 A): "11-1", "1-3"."""
    sep = "-" if "-" in ladder.names[0] else ":"
    last = len(ladder.columns) - 1
    if 0 <= position <= last:
        return ladder.name(position)
    if position > last:
        return f"{math.floor(ladder.columns[-1]) + position - last}{sep}1"
    return f"1{sep}{math.floor(1 / ladder.columns[0]) - position}"


def resolve_odds(ladder: OddsLadder, attack: int, defense: int,
                 shifts: Sequence[Shift]) -> Odds:
    """8.5 C-F with 8.7-8.8: the initial ratio rounded in favour of the defender (8.8),
    kept as the basis even off the table (8.7 A), every shift added (8.5 F), and the
    final column clamped to the printed ones (8.7 B).

    >>> ladder = OddsLadder.of(["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1",
    ...                         "8-1", "9-1", "10-1"])
    >>> odds = resolve_odds(ladder, 13, 1, [Shift("overrun", -2, "7.1")])
    >>> odds.initial, odds.final        # 8.7 A: from 13:1, two left is still 10:1
    ('13-1', '10-1')
    >>> resolve_odds(ladder, 1, 3, [Shift("turn-1", 4, "3.2 E")]).final
    '3-1'
    """
    if attack <= 0:
        raise IllegalOrder("8.5 A", "the attacking units have no attack strength",
                           code="no-strength")
    if defense <= 0:
        raise IllegalOrder("8.2", "no unit in the defending hexes adds any defense strength",
                           code="no-strength")
    position = ladder.initial(attack, defense)
    column = ladder.final(position, sum(s.columns for s in shifts))
    return Odds(attack, defense, ratio_name(ladder, position), position, tuple(shifts),
                column, ladder.name(column))


def combat_odds(charts: CombatCharts, ground: CombatMap, combat: Combat) -> Odds:
    """8.5: the strengths of `combat` (8.2, 7.8, 8.4), its column shifts, the final
    column."""
    return resolve_odds(charts.ladder, attack_strength(combat.attackers),
                        defense_strength(combat.defenders, overrun=combat.overrun),
                        column_shifts(charts, ground, combat))


def effective_terrain(charts: CombatCharts, ground: CombatMap, h: Hex,
                      attackers: Iterable[Combatant]) -> str:
    """The terrain a defending hex counts as: its TEC terrain, a city instead when there
    is one (the TEC: a city replaces the terrain of its hex; a town does not), and the
    terrain a road-crossed lake hexside gives (8.0 F: marsh) when an attacker attacks
    across one."""
    for u in attackers:
        if not ground.adjacent(u.hex, h):
            continue
        for name in sorted(ground.features(u.hex, h)):
            line = charts.hexsides.get(name)
            if line is not None and line.effect == "road-only" and line.defender_terrain:
                return line.defender_terrain
    if h in ground.cities and "city" in charts.hex_features:
        return "city"
    return ground.terrain(h)


def _terrain_line(charts: CombatCharts, name: str) -> TerrainCombat:
    line = charts.hex_terrain.get(name) or charts.hex_features.get(name)
    if line is None:
        raise ModuleError(f"the TEC has no combat line for {name!r}")
    return line


def hex_shifts(charts: CombatCharts, ground: CombatMap, h: Hex,
               attackers: Sequence[Combatant]) -> list[Shift]:
    """The TEC's shifts for one defending hex: its terrain (8.0 F, the TEC), and each
    hexside feature that counts only when every attacker attacks across it: a river
    (the TEC) or the Moscow defensive ring, which helps only against German attackers
    (13.0 A-C)."""
    label = ground.board.label(h)
    out = []
    terrain = effective_terrain(charts, ground, h, attackers)
    line = _terrain_line(charts, terrain)
    if line.effect == "shift" and line.shift:
        rule = "8.0 F" if terrain != ground.terrain(h) and terrain != "city" else "8.5 F"
        out.append(Shift("terrain", line.shift, f"{rule} (TEC)", f"{terrain} in {label}"))
    side = attackers[0].side if attackers else ""
    for name, feature in sorted(charts.hexsides.items()):
        if feature.effect != "shift" or not feature.shift:
            continue
        if feature.attacker is not None and feature.attacker != side:
            continue
        across = [name in ground.features(u.hex, h) for u in attackers
                  if ground.adjacent(u.hex, h)]
        applies = (all(across) and bool(across) if feature.when == "all-attackers-across"
                   else any(across))
        if applies:
            rule = "13.0 B-C" if name == "moscow-ring" else "8.5 F (TEC)"
            out.append(Shift(name, feature.shift, rule, f"every attacker attacks {label} "
                             f"across a {name} hexside"))
    return out


def terrain_shifts(charts: CombatCharts, ground: CombatMap,
                   combat: Combat) -> tuple[Hex | None, list[Shift]]:
    """8.3 A: of the defending hexes, the one whose terrain (hex and hexsides together)
    helps the defender most, with its shifts; ties go to the first hex named."""
    best: tuple[Hex | None, list[Shift]] = (None, [])
    best_total = None
    for h in combat.hexes:
        shifts = hex_shifts(charts, ground, h, combat.attackers)
        if len(combat.hexes) > 1:
            shifts = [replace(s, rule=f"8.3 A, {s.rule}") for s in shifts]
        total = sum(s.columns for s in shifts)
        if best_total is None or total < best_total:
            best, best_total = (h, shifts), total
    return best


def _applies(rule: ShiftRule, combat: Combat) -> bool:
    return ((rule.attacker is None or rule.attacker == combat.attacker_side)
            and (not rule.turns or combat.turn in rule.turns)
            and (not rule.combat or combat.kind in rule.combat)
            and (rule.weather is None or rule.weather == combat.weather))


def column_shifts(charts: CombatCharts, ground: CombatMap, combat: Combat) -> tuple[Shift, ...]:
    """8.5 F: every column shift of one combat, itemized, right positive.

    * terrain, rivers, the Moscow ring: `terrain_shifts` (8.3 A, 8.0 F, 13.0);
    * Turn 1: German attacks and overruns 4R (3.2 E);
    * overrun: 2L (7.1), on Turn 1 too (3.2 E);
    * supply: 2L if any attacking unit is unsupplied, 2R if any defending unit is (9.2);
    * armor (10.1): one column for the owner however many armor (not mechanized) units;
      the attacker's only when every defending hex is clear terrain (rivers ignored,
      10.1 C); the defender's always (10.1 D) except German armor in a city (10.2);
    * air: one column in the German favour per air unit (11.1 A), at most three (11.0 E);
    * rasputitsa: 1L on every attack (15.1 B); snow: 2L on German attacks (15.2 B).

    Column counts come from the Column Shifts Chart.
    """
    out: list[Shift] = []
    german_attacks = combat.attacker_side == GERMAN
    _, terrain = terrain_shifts(charts, ground, combat)
    out += terrain
    rule = charts.shifts.get("turn-1")
    if rule is not None and _applies(rule, combat):
        out.append(Shift("turn-1", _signed(rule, german_attacks), "3.2 E",
                         f"Turn 1: German {combat.kind}s"))
    rule = charts.shifts.get("overrun")
    if rule is not None and _applies(rule, combat):
        out.append(Shift("overrun", _signed(rule, german_attacks), "7.1", "overrun penalty"))
    defending = combat.defending
    rule = charts.shift("unsupplied-attacker")
    lacking = sorted(u.id for u in combat.attackers if not u.supplied)
    if lacking:
        out.append(Shift("unsupplied-attacker", _signed(rule, german_attacks), "9.2",
                         f"unsupplied: {', '.join(lacking)}"))
    rule = charts.shift("unsupplied-defender")
    lacking = sorted(u.id for u in defending if not u.supplied)
    if lacking:
        out.append(Shift("unsupplied-defender", _signed(rule, german_attacks), "9.2",
                         f"unsupplied: {', '.join(lacking)}"))
    out += armor_shifts(charts, ground, combat)
    if combat.air:
        _check_air(combat)
        rule = charts.shift("air")
        units = min(combat.air, rule.max_units or MAX_AIR)
        out.append(Shift("air", _signed(rule, german_attacks) * units, "11.1 A",
                         f"{units} German air unit{'s' if units > 1 else ''}"))
    for cause, why in (("rasputitsa", "15.1 B"), ("snow", "15.2 B")):
        rule = charts.shifts.get(cause)
        if rule is not None and _applies(rule, combat):
            out.append(Shift(cause, _signed(rule, german_attacks), why, f"{cause} weather"))
    return tuple(out)


def _signed(rule: ShiftRule, german_attacks: bool) -> int:
    if rule.favour == "attacker":
        return rule.columns
    if rule.favour == "defender":
        return -rule.columns
    if rule.favour == "german":
        return rule.columns if german_attacks else -rule.columns
    raise ModuleError(f"the {rule.cause!r} shift favours {rule.favour!r}, which needs a rule")


def armor_shifts(charts: CombatCharts, ground: CombatMap, combat: Combat) -> list[Shift]:
    """10.1-10.2: the armor shifts of both sides (each at most once, 10.1 B).

    The attacker's needs every defending hex to be clear terrain (10.1 C: rivers do not
    matter; a city or a hex counting as marsh, 8.0 F, is not clear). The defender's
    applies always (10.1 D), except that German armor defending in a city gives none
    (10.2)."""
    rule = charts.shift("armor")
    out = []
    attacking = sorted(u.id for u in combat.attackers if u.armor)
    if attacking and all(effective_terrain(charts, ground, h, combat.attackers) == "clear"
                         for h in combat.hexes):
        out.append(Shift("armor", rule.columns, "10.1 C",
                         f"attacking armor: {', '.join(attacking)}"))
    defending = sorted(u.id for u in combat.defending if u.armor
                       and not (u.side == GERMAN and u.hex in ground.cities))
    if defending:
        out.append(Shift("armor-defending", -rule.columns, "10.1 D",
                         f"defending armor: {', '.join(defending)}"))
    return out


# ========================================================================== results
@dataclass(frozen=True)
class Option:
    """One way a side may carry out its part of a result (8.9 D-G): the steps lost (a
    unit named twice loses both its steps), then how many hexes every surviving
    affected unit retreats; `eliminated`: the units left with no step."""

    losses: tuple[str, ...] = ()
    retreat: int = 0
    eliminated: tuple[str, ...] = ()


def _option(units: Sequence[Combatant], losses: Iterable[str], retreat: int) -> Option:
    lost = tuple(sorted(losses))
    gone = tuple(sorted(u.id for u in units if lost.count(u.id) >= u.steps))
    if len(gone) == len(units):
        retreat = 0  # nobody is left to retreat
    return Option(lost, retreat, gone)


def loss_options(part: str, units: Sequence[Combatant], *,
                 may_retreat: bool = True) -> list[Option]:
    """8.9 D-H: every way the affected units may carry out "-", "1", "2" or "E".

    * "1": one unit loses one step, or all retreat one hex (8.9 D).
    * "2": two steps, or all retreat two hexes, or one step and then all retreat one
      hex (8.9 E). German units have two steps: two units may lose one each, or one
      full-strength unit both (8.9 E, H); a Soviet unit has one step (8.9 H), so two
      steps are two units. A side with fewer steps than it must lose loses them all.
    * "E": all eliminated (8.9 G).

    `may_retreat=False` (a successful overrun's attackers, 7.6 B) leaves the losses only.

    >>> here = Hex(0, 0)
    >>> pz = Combatant("18Pz", "german", "armor", here, 6, 6, 3, 2)
    >>> inf = Combatant("12", "german", "infantry", here, 4, 4, 2, 1)
    >>> [(o.losses, o.retreat, o.eliminated) for o in loss_options("2", [pz, inf])]
    ... # doctest: +NORMALIZE_WHITESPACE
    [((), 2, ()), (('12',), 1, ('12',)), (('18Pz',), 1, ()),
     (('12', '18Pz'), 0, ('12',)), (('18Pz', '18Pz'), 0, ('18Pz',))]
    """
    if part == NO_EFFECT:
        return [Option()]
    if not units:
        return []
    if part == ELIMINATED:
        return [_option(units, [u.id for u in units for _ in range(u.steps)], 0)]
    if part not in ("1", "2"):
        raise ModuleError(f"{part!r} is not a CRT loss (1, 2, E or -)")
    need = int(part)
    options = set()
    if may_retreat:
        options.add(_option(units, (), need))
    pool = [u.id for u in units if u.steps > 0]
    if not pool:
        return sorted(options, key=_order)
    steps = {u.id: u.steps for u in units}
    take = min(need, sum(steps.values()))
    for chosen in combinations_with_replacement(sorted(pool), take):
        if all(chosen.count(uid) <= steps[uid] for uid in set(chosen)):
            options.add(_option(units, chosen, 0))
    if need == 2 and may_retreat:
        for uid in pool:
            options.add(_option(units, (uid,), 1))
    return sorted(options, key=_order)


def _order(o: Option) -> tuple[int, tuple[str, ...], int]:
    return (len(o.losses), o.losses, -o.retreat)


def check_loss_choice(part: str, units: Sequence[Combatant], losses: Sequence[str],
                      retreat: int, *, may_retreat: bool = True) -> Option:
    """8.9 D-G (7.6 B): the option a player chose, checked; IllegalOrder if the result
    does not allow it."""
    chosen = _option(units, losses, retreat)
    allowed = loss_options(part, units, may_retreat=may_retreat)
    if chosen in allowed:
        return chosen
    rule = {"1": "8.9 D", "2": "8.9 E", "E": "8.9 G"}.get(part, "8.9 B")
    if retreat and not may_retreat:
        raise IllegalOrder("7.6 B", "after a successful overrun the overrunning units "
                           "absorb their loss; they do not retreat", code="loss-choice")
    if any(lid not in {u.id for u in units} for lid in losses):
        raise IllegalOrder(rule, "only the units in this combat can lose steps for it",
                           code="loss-choice")
    wording = {
        "-": "no effect: nothing to lose and no retreat",
        "1": "one unit loses one step, or all the units retreat one hex",
        "2": ("two steps lost, or all the units retreat two hexes, or one step lost and "
              "then all retreat one hex; a German unit may lose both its steps"),
        "E": "every unit is eliminated",
    }[part]
    raise IllegalOrder(rule, f"the result {part} means: {wording}", code="loss-choice")


def swept_away(defender_part: str, defenders: Iterable[Combatant], *,
               overrun: bool) -> tuple[str, ...]:
    """8.2: when the defending units suffer an adverse result (any loss or retreat),
    the units that had retreated into the defending hexes in this Combat Phase are
    eliminated. Not in an overrun: there they defend (7.8)."""
    if overrun or defender_part == NO_EFFECT:
        return ()
    return tuple(sorted(u.id for u in defenders if u.retreated))


def overrun_successful(option: Option, defenders: Sequence[Combatant]) -> bool:
    """7.6 A, 7.7 A: an overrun succeeds when the defending units are eliminated or
    retreat, that is when none of them stays in its hex."""
    if option.retreat:
        return True
    return len(option.eliminated) == len(defenders)


def overrun_attacker_options(part: str, attackers: Sequence[Combatant], *,
                             successful: bool) -> list[Option]:
    """7.6 B: after a successful overrun the overrunning units absorb their loss; 7.7 B:
    after an unsuccessful one they absorb it or retreat (8.9), and if they retreat their
    movement is over (7.7 C, `overrun_movement_over`)."""
    return loss_options(part, attackers, may_retreat=not successful)


def overrun_movement_over(option: Option) -> bool:
    """7.7 C-D: overrunning units that retreat stop; otherwise they may move on."""
    return option.retreat > 0


# ========================================================================== retreats
@dataclass(frozen=True)
class RetreatFacts:
    """What a retreat must know (8.11): the hexes of the enemy units that caused it (for
    an enemy unit that retreated too, its original hex), the enemy-occupied hexes, the
    hexes in an enemy ZOC, and how many other friendly units stand in each hex."""

    causers: frozenset[Hex]
    enemy: frozenset[Hex] = frozenset()
    enemy_zoc: frozenset[Hex] = frozenset()
    friendly: Mapping[Hex, int] = field(default_factory=dict)


def _distance(h: Hex, causers: Collection[Hex]) -> int:
    return min(hex_distance(h, c) for c in causers)


def _step_problem(ground: CombatMap, a: Hex, b: Hex, facts: RetreatFacts) -> str | None:
    """Why `b` is not safe to enter from `a` (8.11 B, 4.4, 4.8 D), or None."""
    label = ground.board.label
    if b not in ground.board:
        return "it is off the map (4.8 A): the unit would be eliminated"
    if not ground.adjacent(a, b):
        return f"{label(b)} is not next to {label(a)}"
    if b in facts.enemy:
        return f"{label(b)} holds enemy units (4.4)"
    features = ground.features(a, b)
    if "lake" in features and "road" not in features:
        return f"no road crosses the lake hexside into {label(b)} (4.8 D)"
    if _distance(b, facts.causers) <= _distance(a, facts.causers):
        return (f"{label(b)} is no farther than {label(a)} from the nearest enemy unit "
                "that caused the retreat")
    if b in facts.enemy_zoc and not facts.friendly.get(b, 0):
        return f"{label(b)} is in an enemy zone of control and no friendly unit is there"
    return None


def retreat_paths(ground: CombatMap, start: Hex, hexes: int,
                  facts: RetreatFacts) -> list[tuple[Hex, ...]]:
    """8.10-8.11: the retreats of `hexes` hexes one unit may make, each a path of the
    hexes entered. Every hex entered is safe (8.11 B): farther from the nearest enemy
    unit that caused the retreat than the hex before, not enemy-occupied (4.4), not in
    an enemy ZOC unless a friendly unit is there, not across a lake hexside without a
    road (4.8 D); the final hex holds fewer than four other friendly units (4.6). Only
    the paths entering the fewest occupied hexes are offered: vacant safe hexes before
    occupied ones (8.11 C). Empty: there is no safe hex and the unit is eliminated, as
    it is off the map (8.11 A)."""
    if not facts.causers:
        raise ValueError("a retreat needs the enemy units that caused it")
    paths: list[tuple[Hex, ...]] = [()]
    for _ in range(hexes):
        longer = []
        for path in paths:
            here = path[-1] if path else start
            longer += [(*path, there) for there in ground.board.neighbours(here)
                       if _step_problem(ground, here, there, facts) is None]
        paths = longer
    paths = [p for p in paths if p and facts.friendly.get(p[-1], 0) < STACK]
    if not paths:
        return []
    occupied = {p: sum(1 for h in p if facts.friendly.get(h, 0)) for p in paths}
    fewest = min(occupied.values())
    return sorted(p for p in paths if occupied[p] == fewest)


def check_retreat(ground: CombatMap, start: Hex, path: Sequence[Hex], hexes: int,
                  facts: RetreatFacts) -> None:
    """8.11: IllegalOrder unless `path` is one of `retreat_paths`, saying why."""
    label = ground.board.label
    if len(path) != hexes:
        raise IllegalOrder("8.9 D" if hexes == 1 else "8.9 E", f"the retreat is {hexes} "
                           f"hex{'es' if hexes > 1 else ''}, not {len(path)}",
                           code="retreat-length")
    allowed = retreat_paths(ground, start, hexes, facts)
    if tuple(path) in allowed:
        return
    if not allowed:
        raise IllegalOrder("8.11 A", f"no safe retreat from {label(start)}: the unit is "
                           "eliminated", code="no-retreat")
    here = start
    for there in path:
        problem = _step_problem(ground, here, there, facts)
        if problem:
            raise IllegalOrder("8.11 B", f"not a safe retreat: {problem}",
                               code="unsafe-retreat")
        here = there
    if facts.friendly.get(path[-1], 0) >= STACK:
        raise IllegalOrder("8.11 B", f"{label(path[-1])} already holds {STACK} other "
                           "friendly units (4.6)", code="unsafe-retreat")
    raise IllegalOrder("8.11 C", "a unit retreats into a vacant safe hex before a hex a "
                       "friendly unit occupies, whenever it can: "
                       + " or ".join("-".join(label(h) for h in p) for p in allowed),
                       code="retreat-priority")


# ========================================================================== advance
@dataclass(frozen=True)
class AdvanceMove:
    """One unit's advance after combat: the hexes it enters in order (8.12)."""

    unit: str
    path: tuple[Hex, ...]


def attacking_victors(attackers: Iterable[Combatant], *, retreated: Collection[str],
                      eliminated: Collection[str] = ()) -> tuple[str, ...]:
    """8.12 B, 8.9 F: the attacking units that did not retreat (a step loss does not
    stop them) and are still there."""
    return tuple(sorted(u.id for u in attackers
                        if u.id not in retreated and u.id not in eliminated))


def defending_victors(result: Result, defenders: Iterable[Combatant], *,
                      overrun: bool) -> tuple[str, ...]:
    """8.12 C: the defending units that suffered no loss or retreat; none in a split
    result (8.9 F) and none after an overrun (7.7 E). Units that only retreated into the
    hex (8.2) did not take part."""
    if overrun or result.split or result.defender != NO_EFFECT:
        return ()
    return tuple(sorted(u.id for u in defending_units(defenders, overrun=False)))


def check_advance(ground: CombatMap, moves: Sequence[AdvanceMove], *,
                  victors: Collection[str], vacated: Collection[Hex],
                  beyond: Collection[Hex] = (), all_eliminated: bool = False,
                  must_advance: bool = False) -> None:
    """8.12: IllegalOrder unless the advances after one combat are allowed.

    * only victorious units (`victors`: 8.12 B-C, 8.9 F, 7.7 E);
    * first into a hex this combat vacated (`vacated`, 8.12 A), then, after a two-hex
      retreat, on into an adjacent hex the retreat emptied (`beyond`, 8.12 F; 7.6 D);
      but only one hex when every enemy unit was eliminated (8.12 I);
    * at most four units end in each hex (8.12 A);
    * zones of control do not stop an advance (8.12 G) and it costs no MPs (8.12 H);
    * after a successful overrun at least one overrunning unit advances into the
      vacated hex (`must_advance`: 7.0 E, 7.6 C, 8.12 E).
    """
    label = ground.board.label
    seen: set[str] = set()
    ending: dict[Hex, int] = {}
    for move in moves:
        if move.unit in seen:
            raise IllegalOrder("8.12 A", f"{move.unit} advances once", code="advance-twice")
        seen.add(move.unit)
        if move.unit not in victors:
            raise IllegalOrder("8.12 B-C", f"{move.unit} is not a victorious unit of this "
                               "combat, so it cannot advance", code="not-victorious")
        if not move.path:
            raise IllegalOrder("8.12 A", f"{move.unit} needs a hex to advance into",
                               code="advance-path")
        if move.path[0] not in vacated:
            raise IllegalOrder("8.12 A", f"{label(move.path[0])} was not vacated by this "
                               "combat", code="advance-path")
        if len(move.path) > 1:
            if all_eliminated:
                raise IllegalOrder("8.12 I", "every enemy unit was eliminated, so advancing "
                                   "units go one hex only", code="advance-path")
            if len(move.path) > 2 or move.path[1] not in beyond or not ground.adjacent(
                    move.path[0], move.path[1]):
                raise IllegalOrder("8.12 F", "a second hex of advance must be next to the "
                                   "first and emptied by a two-hex retreat",
                                   code="advance-path")
        ending[move.path[-1]] = ending.get(move.path[-1], 0) + 1
    for h, count in sorted(ending.items()):
        if count > STACK:
            raise IllegalOrder("8.12 A", f"at most {STACK} units advance into "
                               f"{label(h)}, not {count}", code="advance-stack")
    if must_advance and not any(m.path for m in moves):
        raise IllegalOrder("7.6 C", "after a successful overrun at least one overrunning "
                           "unit advances into the vacated hex", code="must-advance")

