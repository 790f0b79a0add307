"""Moscow '41 combat as pure procedures over plain facts: 8.0-8.8 (the units in an attack,
whether it may be made, its odds) with 7.0-7.5 (overrun), 9.2 (supply), 10.0-10.2
(armor), 11.0-11.2 (air), 13.0 (the Moscow defensive ring), 3.2 E (Turn 1) and
15.1 B / 15.2 B (weather). The results (8.9-8.12) are in combat_results.py.

The CRT, the Column Shifts Chart and the combat lines of the TEC are module data
(charts.xml), read by `CombatCharts.of` (charts.py). The odds columns go through the engine's
`OddsLadder`, whose positions run past the printed columns along whole ratios, as 8.7 A
wants ("use the initial combat ratio as the basis"), and clamp only the final column
(8.7 B). Zones of control are the movement rules' business: they come in as a function.

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
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.odds import OddsLadder
from adjudicator.errors import ModuleError
from adjudicator.games.moscow.charts import CombatCharts, CombatMap, ShiftRule, TerrainCombat
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.vocabulary import GERMAN, MAX_AIR, STACKING_LIMIT

# (attacker's hex, defender's hex) -> is the attacker's hex in the ZOC of the units in
# the defender's hex (5.0, from the movement rules)
InZoc = Callable[[Hex, Hex], bool]


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
      defending hex needs a unit that can defend (RULES-ISSUES 27).
    * Overruns: 7.5 A one hex, 7.4 A at most four units, 7.0 C adjacent, 7.5 C never
      across a lake hexside; 8.1 B does not apply (7.5 B).
    """
    if not combat.attackers:
        raise CATALOGUE.refuse("no-attacker", "8.0 A",
            "an attack needs at least one attacking unit")
    side = combat.attacker_side
    if any(u.side != side for u in combat.attackers):
        raise CATALOGUE.refuse("mixed-sides", "8.0 A",
            "the units of one attack all belong to one side")
    if not combat.hexes:
        raise CATALOGUE.refuse("no-defender", "8.0 A", "an attack needs a hex to attack")
    for u in combat.defenders:
        if u.side == side:
            raise CATALOGUE.refuse("own-unit", "8.0 A", f"{u.id} is not an enemy unit")
        if u.hex not in combat.hexes:
            raise CATALOGUE.refuse("defender-elsewhere", "8.2",
                f"{u.id} is not in a hex under attack")
    for h in combat.hexes:
        if not any(u.hex == h for u in combat.defenders):
            raise CATALOGUE.refuse("empty-hex", "8.0 A",
                f"there is no enemy unit in {ground.board.label(h)} "
                "to attack")
    _check_air(combat)
    if combat.overrun:
        _check_overrun(combat, ground)
        return
    label = ground.board.label
    for u in combat.attackers:
        for h in combat.hexes:
            if not ground.adjacent(u.hex, h):
                if len(combat.hexes) > 1:
                    raise CATALOGUE.refuse("not-adjacent", "8.3 B",
                        f"{u.id} in {label(u.hex)} is not adjacent "
                        f"to {label(h)}: in a coordinated attack every "
                        "attacking unit must be adjacent to every defending "
                        "hex")
                raise CATALOGUE.refuse("not-adjacent", "8.1 A",
                    f"{u.id} in {label(u.hex)} is not next to "
                    f"{label(h)}")
    for u in combat.attackers:
        for h in combat.hexes:
            _check_lake(ground, u.hex, h, u.id)
            if not in_zoc(u.hex, h):
                raise CATALOGUE.refuse("not-in-zoc", "8.1 A",
                    f"{u.id} in {label(u.hex)} is not in the zone "
                    f"of control of the units in {label(h)}, so it cannot "
                    "attack them")
    twice = sorted(u.id for u in combat.attackers if u.id in attacked)
    if twice:
        raise CATALOGUE.refuse("attacked-twice", "8.1 B",
            f"{', '.join(twice)} already attacked in this Combat "
            "Phase; no unit attacks twice")
    again = sorted(u.id for u in combat.defenders if u.id in defended and not u.retreated)
    if again:
        raise CATALOGUE.refuse("defended-twice", "8.1 B",
            f"{', '.join(again)} already defended in this Combat "
            "Phase; no unit defends twice")
    for h in combat.hexes:
        if not any(u.hex == h and not u.retreated for u in combat.defenders):
            raise CATALOGUE.refuse("defended-twice", "8.1 B",
                f"the units in {label(h)} all retreated there after "
                "defending in this Combat Phase; they cannot defend again")


def _check_air(combat: Combat) -> None:
    if combat.air < 0:
        raise CATALOGUE.refuse("air-units", "11.0 B", "a number of air units cannot be negative")
    if combat.air > MAX_AIR:
        raise CATALOGUE.refuse("air-units", "11.0 E",
            f"at most {MAX_AIR} air units can affect one combat, "
            f"not {combat.air}")


def _check_lake(ground: CombatMap, a: Hex, b: Hex, unit: str) -> None:
    """8.0 F: across a lake hexside only where a road crosses it."""
    features = ground.features(a, b)
    if "lake" in features and "road" not in features:
        label = ground.board.label
        raise CATALOGUE.refuse("lake", "8.0 F",
            f"{unit} in {label(a)} cannot attack across the lake "
            f"hexside into {label(b)}: no road crosses it")


def _check_overrun(combat: Combat, ground: CombatMap) -> None:
    label = ground.board.label
    if len(combat.hexes) != 1:
        raise CATALOGUE.refuse("overrun-hexes", "7.5 A",
            "an overrun is conducted against the units of one hex")
    if len(combat.attackers) > STACKING_LIMIT:
        raise CATALOGUE.refuse("overrun-stack", "7.4 A",
            f"at most {STACKING_LIMIT} units overrun together, not "
            f"{len(combat.attackers)}")
    if len({u.hex for u in combat.attackers}) > 1:
        raise CATALOGUE.refuse("overrun-stack", "7.4 B",
            "the units of an overrun move together as one stack, "
            "from one hex")
    target = combat.hexes[0]
    for u in combat.attackers:
        if not ground.adjacent(u.hex, target):
            raise CATALOGUE.refuse("not-adjacent", "7.0 C",
                f"{u.id} in {label(u.hex)} is not next to "
                f"{label(target)}")
        if "lake" in ground.features(u.hex, target):
            raise CATALOGUE.refuse("overrun-lake", "7.5 C",
                f"{u.id} cannot overrun across the lake hexside "
                f"between {label(u.hex)} and {label(target)}, even where a "
                "road crosses it")


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
        raise CATALOGUE.refuse("no-strength", "8.5 A",
            "the attacking units have no attack strength")
    if defense <= 0:
        raise CATALOGUE.refuse("no-strength", "8.2",
            "no unit in the defending hexes adds any defense strength")
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
    across one, for the whole attack (RULES-ISSUES 28)."""
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
