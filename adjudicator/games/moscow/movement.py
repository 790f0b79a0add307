"""Moscow '41 movement as procedures over plain facts: the movement allowance (2.7, 9.1 A,
15.1 A, 15.2 A), zones of control (5.0), moving a unit or a stack (4.0-4.8),
disengagement (6.0-6.4), air interdiction of Soviet movement (11.3), the Turn 1 rules
(3.2 C-D) and the movement side of overrun (7.0 C-D, 7.3, 7.4, 7.5 C).

Nothing here reads or writes game state. The position comes in as dataclasses (`Unit`,
`Mover`, `EnemyZones`), the chart values from the module (`Terrain.of`, terrain.py), and
the answer is a result or an `IllegalOrder` naming the rule that forbids the move.

A unit's move in one Movement Phase may be ordered in several legs: a stack moves
together, a unit splits off and goes on alone (4.5 C-F), the rest of the stack goes on
later. Every leg is checked by `check_stack_move` from the `Mover` state the previous leg
returned (hex, MPs spent, whether the unit had to stop), so the caller threads the
returned movers from leg to leg.

MPs are exact `Fraction`s: the TEC has half MPs (the Armor/Mech road and city rates).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.errors import IllegalOrder
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.terrain import Terrain

GERMAN, SOVIET = "german", "soviet"
# 2.7 B, 2.4.4: the TEC's Armor/Mech column; infantry and cavalry move as infantry
ARMOR_TYPES = frozenset({"armor", "mechanized"})
STACK_LIMIT = 4  # 4.0 D, 4.5 A, 7.4 A
DISENGAGEMENT_COST = 3  # 6.1: German infantry and every Soviet unit
PANZER_DISENGAGEMENT_COST = 2  # 6.2: German armor and mechanized units
OVERRUN_COST = 2  # 7.3
TURN_1_GERMAN_OVERRUN_COST = 1  # 3.2 C, 7.3 exception
INTERDICTION_MULTIPLIER = {0: 1, 1: 2, 2: 4}  # 11.3 A-B, 11.0 D: at most two air units
WEATHERS = ("clear", "rasputitsa", "snow")  # 15.0; "clear" is charts.xml's name
NOTHING: Mapping[Hex, int] = MappingProxyType({})


def _label(board: HexBoard, h: Hex) -> str:
    try:
        return board.label(h)
    except ValueError:
        return str(h)


def mps_text(value: Fraction) -> str:
    """2, 1/2 or 1 1/2 MPs, as a player reads them."""
    whole, part = divmod(value, 1)
    if not part:
        return str(int(whole))
    return f"{int(whole)} {part}" if whole else str(part)



# -- 2.7, 9.1 A, 15.1 A, 15.2 A: the movement allowance -----------------------------------
def movement_allowance(printed: int, *, german: bool, siberian: bool = False,
                       supplied: bool = True, weather: str = "clear") -> int:
    """The MA a unit has for the whole Movement Phase (9.1 B).

    - 15.1 A rasputitsa: the printed MA of every German unit is halved, fractions
      rounded up. Soviet units are not affected.
    - 15.2 A snow: the printed MA of every unit is reduced by 1, except the four Siberian
      divisions (`siberian`, Soviet only).
    - 9.1 A unsupplied: the MA is halved, dropping all fractions.

    The weather first, then supply (RULES-ISSUES 6): German infantry (6) unsupplied in
    rasputitsa has 6 -> 3 -> 1, in snow 6 -> 5 -> 2. The two weathers never fall on the
    same turn.
    """
    if weather not in WEATHERS:
        raise ValueError(f"unknown weather {weather!r}; the weathers are {', '.join(WEATHERS)}")
    allowance = printed
    if weather == "rasputitsa" and german:
        allowance = -(-allowance // 2)  # 15.1 A: round up
    elif weather == "snow" and (german or not siberian):
        allowance -= 1  # 15.2 A
    if not supplied:
        allowance //= 2  # 9.1 A: drop fractions
    return max(allowance, 0)


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


def never_blocked(a: Hex, b: Hex) -> bool:
    return False


def zone_of_control(board: HexBoard, h: Hex, *,
                    blocked: Callable[[Hex, Hex], bool] = never_blocked) -> frozenset[Hex]:
    """5.0 A, C: the six hexes adjacent to a combat unit in `h`, except across a hexside
    that `blocked` names (Terrain.blocks_zoc: a lake hexside no road crosses)."""
    return frozenset(n for n in board.neighbours(h) if not blocked(h, n))


def zones_of_control(board: HexBoard, units: Iterable[Unit], *,
                     blocked: Callable[[Hex, Hex], bool] = never_blocked) -> frozenset[Hex]:
    """5.0 A-D: every hex in the ZOC of any of `units` (all combat units exert one; two
    ZOCs in a hex add nothing, 5.0 D). Air units are not combat units: leave them out."""
    zone: set[Hex] = set()
    for h in {u.hex for u in units}:
        zone |= zone_of_control(board, h, blocked=blocked)
    return frozenset(zone)


@dataclass(frozen=True)
class EnemyZones:
    """The enemy combat units as movement sees them: the hexes they occupy (4.4) and
    the hexes in their ZOCs (4.7). Friendly units never negate an EZOC for movement
    (4.7 C), so nothing friendly goes in here."""

    occupied: frozenset[Hex]
    zoc: frozenset[Hex]
    zones: Mapping[Hex, frozenset[Hex]]  # occupied hex -> the ZOC its units exert

    @classmethod
    def of(cls, terrain: Terrain, enemies: Iterable[Unit]) -> EnemyZones:
        occupied = frozenset(u.hex for u in enemies)
        zones = {h: zone_of_control(terrain.board, h, blocked=terrain.blocks_zoc)
                 for h in sorted(occupied)}
        everywhere = frozenset(h for zone in zones.values() for h in zone)
        return cls(occupied, everywhere, MappingProxyType(zones))

    def zoc_without(self, h: Hex) -> frozenset[Hex]:
        """The EZOC hexes without the ZOC of the units in `h` (an overrun's defenders)."""
        return frozenset(x for where, zone in self.zones.items() if where != h for x in zone)


# -- 4.0-4.8, 6.0-6.4, 11.3: moving a unit or a stack ----------------------------------------
@dataclass(frozen=True)
class Mover:
    """A unit in the course of its Movement Phase.

    `start` is the hex it began the phase in (4.3, 4.5 A, 6.1, 11.3 C); `allowance` its MA
    for the phase (`movement_allowance`); `spent` the MPs it has spent so far (4.1);
    `halted` says it has entered an EZOC hex and must stop (4.7 A-B) unless it disengages;
    `finished` that it may not move at all any more this phase, and `ended` the rule that
    says so: a minimum move (4.3), the 6.4 exception after an overrun, a retreat after an
    overrun (7.7 C). A mover kept by module 0.1.0 has no `ended` (the state of its
    journals does not change) and is refused in that version's words.
    """

    unit: Unit
    allowance: int
    start: Hex
    spent: Fraction = Fraction(0)
    halted: bool = False
    finished: bool = False
    ended: str = ""

    @classmethod
    def at_start(cls, unit: Unit, allowance: int) -> Mover:
        """A unit that has not moved yet this phase."""
        return cls(unit, allowance, unit.hex)

    @property
    def id(self) -> str:
        return self.unit.id

    @property
    def hex(self) -> Hex:
        return self.unit.hex

    @property
    def has_moved(self) -> bool:
        return self.spent > 0 or self.unit.hex != self.start


@dataclass(frozen=True)
class Step:
    """One hex entered, with the MPs each moving unit spent to enter it: terrain (4.2),
    interdiction (11.3) and disengagement (6.1-6.2) together."""

    hex: Hex
    costs: Mapping[str, Fraction]
    disengagement: bool = False
    minimum_move: bool = False


@dataclass(frozen=True)
class StackMove:
    """A leg checked by `check_stack_move`: the MPs per hex, and the movers after it."""

    steps: tuple[Step, ...]
    movers: tuple[Mover, ...]

    def costs(self, unit_id: str) -> list[Fraction]:
        """The MPs the unit spent in each hex of this leg."""
        return [s.costs[unit_id] for s in self.steps]

    def spent(self, unit_id: str) -> Fraction:
        """The MPs the unit has spent this phase, this leg included."""
        return next(m.spent for m in self.movers if m.id == unit_id)


# why a unit that has finished moves no further (Mover.ended), as a player reads it
ENDED = {
    "4.3": "made a minimum move, which spends all its MPs",
    "6.4": ("took part in an overrun of a hex in the zone of control of other enemy units "
            "(6.4 exception: the overrunning force cannot move any further)"),
    "7.7 C": "retreated after an unsuccessful overrun, which is the end of its movement",
}


def finished_error(m: Mover, *, overrun: bool = False) -> IllegalOrder:
    """4.3, 6.4, 7.7 C: the refusal of a move or an overrun by a unit that has finished,
    citing the rule that ended its movement. Without a rule (module 0.1.0) the words of
    that version: 4.1 A for a move, 7.0 C for an overrun."""
    if not m.ended:
        if overrun:
            return CATALOGUE.refuse("finished", "7.0 C",
                f"{m.id} has ended its movement for this Movement "
                "Phase and cannot overrun")
        return CATALOGUE.refuse("finished", "4.1 A",
            f"{m.id} has ended its movement for this Movement "
            "Phase")
    what = "move or overrun" if overrun else "move"
    return CATALOGUE.refuse("finished", m.ended,
        f"{m.id} {ENDED[m.ended]}, so it may not {what} again this "
        "Movement Phase")


def check_stack(movers: Sequence[Mover], *, rule: str = "4.5 A") -> None:
    """4.0 D, 4.5 A (and 7.4 A-B for an overrun, `rule`): one unit, or up to four units of
    one side that began the Movement Phase in the same hex and are together now."""
    if not movers:
        raise CATALOGUE.refuse("stack", rule, "a move needs at least one unit")
    ids = [m.id for m in movers]
    if len(set(ids)) != len(ids):
        raise CATALOGUE.refuse("stack", rule,
            f"a unit is named twice in the stack {', '.join(ids)}")
    if len(movers) > STACK_LIMIT:
        raise CATALOGUE.refuse("stack", rule,
            f"at most {STACK_LIMIT} units move together as a stack; "
            f"{', '.join(ids)} are {len(movers)}")
    first = movers[0]
    for m in movers[1:]:
        if m.unit.side != first.unit.side:
            raise CATALOGUE.refuse("stack", rule,
                f"{m.id} and {first.id} are not on the same side")
        if m.hex != first.hex:
            raise CATALOGUE.refuse("stack", rule,
                f"{m.id} and {first.id} are not in the same hex, so "
                "they cannot move as a stack")
        if m.start != first.start:
            raise CATALOGUE.refuse("stack", rule,
                f"{m.id} and {first.id} did not begin the Movement "
                "Phase in the same hex, so they cannot move together as a "
                "stack")


def disengagement_cost(unit: Unit, *, turn: int) -> int:
    """6.1, 6.2, 3.2 D: +3 MPs for German infantry and every Soviet unit, +2 for German
    armor and mechanized units, nothing for German units on Turn 1."""
    if unit.side == GERMAN and turn == 1:
        return 0
    return PANZER_DISENGAGEMENT_COST if unit.panzer else DISENGAGEMENT_COST


def check_disengagement(board: HexBoard, mover: Mover) -> None:
    """4.7 B, 6.1, 6.2: may this unit leave the EZOC hex it is in?

    A German armor or mechanized unit may disengage at any time, each time, even after it
    entered the EZOC hex and had to stop (6.2; 4.7 B "unless the unit subsequently
    disengages"). German infantry and every Soviet unit only from the hex where they began
    the Movement Phase, and not after entering an EZOC hex (6.1, 4.7 B), that hex or a
    reinforcement's entry hex included (RULES-ISSUES 24-25)."""
    where = _label(board, mover.hex)
    if mover.unit.panzer:
        return
    if mover.hex != mover.start:
        raise CATALOGUE.refuse("disengagement", "6.1",
            f"{mover.id} may leave {where}, in an enemy zone of "
            "control, only by disengaging (4.7 D), and German infantry and "
            "Soviet units disengage only from the hex where they began the "
            f"Movement Phase ({_label(board, mover.start)})")
    if mover.halted:
        raise CATALOGUE.refuse("zoc-stop", "4.7 B",
            f"{mover.id} entered {where}, in an enemy zone of control, "
            "and had to stop there; it may no longer disengage (6.1)")


def _multiplier(count: int) -> int:
    if count not in INTERDICTION_MULTIPLIER:
        raise ValueError(f"{count} air units interdict one hex; at most two may (11.0 D)")
    return INTERDICTION_MULTIPLIER[count]


def interdiction_multiplier(unit: Unit, there: Hex, interdiction: Mapping[Hex, int], *,
                            began_in: Hex | None = None, compound: bool = True) -> int:
    """11.3 A-C: what a Soviet unit's MP cost for entering `there` is multiplied by.

    Double with one interdicting air unit on `there`, quadruple with two (11.3 A-B); and
    for the first hex a Soviet unit enters in the phase, double or quadruple again if the
    hex it began the phase in (`began_in`, given only for that first hex) is interdicted
    (11.3 C). The two compound (RULES-ISSUES 26); `compound=False` is module 0.1.0's
    reading, the higher of the two. German units are never affected."""
    if unit.side != SOVIET:
        return 1
    times = _multiplier(interdiction.get(there, 0))
    if began_in is not None:
        start = _multiplier(interdiction.get(began_in, 0))
        times = times * start if compound else max(times, start)
    return times


def _entry_cost(terrain: Terrain, mover: Mover, here: Hex, there: Hex,
                interdiction: Mapping[Hex, int], rule: str, *, first: bool,
                revised: bool) -> Fraction:
    """The TEC cost of entering `there` for this unit, with interdiction; `first`: the
    first hex the unit enters this phase (11.3 C)."""
    board = terrain.board
    cost = terrain.enter_cost(here, there, mover.unit.moves_as_armor)
    if cost is None:
        where = f"{_label(board, here)} to {_label(board, there)}"
        if "lake" in board.features(here, there):
            raise CATALOGUE.refuse("lake", "4.8 D",
                f"{mover.id} cannot cross the lake hexside from "
                f"{where}: a lake hexside may be crossed only where a road "
                "crosses it")
        raise CATALOGUE.refuse("prohibited-terrain", rule,
            f"{mover.id} cannot move from {where}: the Terrain Effects "
            "Chart prohibits it")
    began_in = mover.start if first else None
    return cost * interdiction_multiplier(mover.unit, there, interdiction, began_in=began_in,
                                          compound=revised)


def check_stack_move(terrain: Terrain, movers: Sequence[Mover], path: Sequence[Hex],
                     enemy: EnemyZones, *, turn: int, left_behind: int = 0,
                     interdiction: Mapping[Hex, int] = NOTHING,
                     revised: bool = True) -> StackMove:
    """4.0-4.8, 6.0-6.4, 11.3: one leg of a move by a unit or a stack, hex by hex along
    `path` (its first hex is where the movers are). Each unit pays its own TEC column
    (2.7 B) and its own disengagement cost; the stack enters a hex only if every unit can
    pay for it, so it moves at the rate of its slowest unit (4.5 B). Returns the MPs each
    unit spent per hex and the movers after the leg, or IllegalOrder:

    - 4.5 A (4.0 D): more than four units, or units that did not begin the phase together;
    - 4.3, 6.4, 7.7 C (4.1 A): a unit that has finished moving (`finished_error`);
    - 4.0 D: two hexes that are not adjacent; 4.8 A: a hex off the map;
    - 4.4: an enemy-occupied hex;
    - 4.8 D: a lake hexside no road crosses;
    - 4.1 A: more MPs than the MA, except the minimum move (4.3): one hex from the start
      hex, as the unit's first move, spending all its MPs; never to disengage (4.3
      exception, 6.4) and never into an enemy hex (4.4);
    - 4.7 A-B: going on after entering an EZOC hex (friendly units there change nothing,
      4.7 C); disengaging from a hex entered in this same leg is not possible either:
      order the disengagement as a new leg, which says what stays behind (6.0 B;
      RULES-ISSUES 24);
    - 4.7 D, 6.1: leaving an EZOC hex other than by disengagement;
    - 6.0 B, 6.3: disengaging with no friendly combat unit left in the hex
      (`left_behind`: how many stay in the leg's first hex as the movers leave it);
    - 6.4: disengaging directly into another EZOC hex.

    Disengagement costs +3 or +2 (6.1-6.2), nothing for German units on Turn 1 (3.2 D,
    whose other disengagement rules still apply: RULES-ISSUES 23). A Soviet unit pays
    double or quadruple in interdicted hexes (11.3; `interdiction`: hex -> air units
    there). `revised` False: module 0.1.0's reading of 11.3 C (`interdiction_multiplier`).
    """
    board = terrain.board
    check_stack(movers)
    here0 = movers[0].hex
    names = ", ".join(m.id for m in movers)
    if not path or path[0] != here0:
        raise CATALOGUE.refuse("path-start", "4.0 D",
            f"{names} {'are' if len(movers) > 1 else 'is'} in "
            f"{_label(board, here0)}; the path must start there")
    if len(path) > 1:
        for m in movers:
            if m.finished:
                raise finished_error(m)
    spent = {m.id: m.spent for m in movers}
    minimum = {m.id: False for m in movers}
    steps: list[Step] = []
    for i, (here, there) in enumerate(zip(path, path[1:], strict=False), start=1):
        where = f"{_label(board, here)} to {_label(board, there)}"
        if not board.grid.adjacent(here, there):
            raise CATALOGUE.refuse("not-adjacent", "4.0 D",
                f"units move hex by hex; {_label(board, there)} is "
                f"not next to {_label(board, here)}")
        if there not in board:
            raise CATALOGUE.refuse("off-map", "4.8 A",
                f"{_label(board, there)} is off the map; a unit may "
                "not leave the map")
        if there in enemy.occupied:
            raise CATALOGUE.refuse("enemy-hex", "4.4",
                f"{names} may never enter or pass through "
                f"{_label(board, there)}: enemy units occupy it")
        if any(minimum.values()):
            raise CATALOGUE.refuse("minimum-move", "4.3",
                f"a minimum move is one hex and spends all the MPs: "
                f"{names} cannot go on from {_label(board, here)}")
        disengaging = here in enemy.zoc
        if disengaging:
            if i > 1:
                raise CATALOGUE.refuse("zoc-stop", "4.7 B",
                    f"{names} entered {_label(board, here)}, in an "
                    "enemy zone of control, and must stop there; friendly "
                    "units do not negate it (4.7 C)")
            for m in movers:
                check_disengagement(board, m)
            if left_behind < 1:
                raise CATALOGUE.refuse("no-detachment", "6.0 B",
                    f"{names} may disengage from "
                    f"{_label(board, here)} only if a friendly combat unit "
                    "remains in the hex as they leave (6.3)")
            if there in enemy.zoc:
                raise CATALOGUE.refuse("zoc-to-zoc", "6.4",
                    f"{names} may not disengage from {where}: no unit "
                    "may disengage by directly entering another enemy zone "
                    "of control")
        elif i == 1:
            for m in movers:
                if m.halted:
                    raise CATALOGUE.refuse("zoc-stop", "4.7 B",
                        f"{m.id} entered an enemy zone of control "
                        "this phase and may move no further")
        costs: dict[str, Fraction] = {}
        for m in movers:
            cost = _entry_cost(terrain, m, here, there, interdiction, "4.2",
                               first=i == 1 and not m.has_moved, revised=revised)
            if disengaging:
                cost += disengagement_cost(m.unit, turn=turn)
            if spent[m.id] + cost > m.allowance:
                if i == 1 and not m.has_moved and not disengaging and m.allowance > 0:
                    cost, minimum[m.id] = Fraction(m.allowance) - spent[m.id], True
                else:
                    raise CATALOGUE.refuse("too-far", "4.5 B" if len(movers) > 1 else "4.1 A",
                        f"{m.id} has an MA of {m.allowance} and has spent "
                        f"{mps_text(spent[m.id])} MPs; entering {_label(board, there)} from "
                        f"{_label(board, here)} costs {mps_text(cost)} more"
                        + (" (a stack moves at the rate of its slowest unit)"
                           if len(movers) > 1 else ""))
            costs[m.id] = cost
        for m in movers:
            spent[m.id] += costs[m.id]
        steps.append(Step(there, MappingProxyType(costs), disengaging,
                          any(minimum[m.id] for m in movers)))
    if not steps:
        return StackMove((), tuple(movers))
    end = path[-1]
    after = tuple(replace(m, unit=replace(m.unit, hex=end), spent=spent[m.id],
                          halted=end in enemy.zoc, finished=m.finished or minimum[m.id],
                          ended="4.3" if minimum[m.id] and not m.finished else m.ended)
                  for m in movers)
    return StackMove(tuple(steps), after)


# -- 7.0-7.5: the movement side of an overrun -------------------------------------------------
@dataclass(frozen=True)
class Overrun:
    """What an overrun costs (7.3, 3.2 C) and whether the overrunning units have it.

    `costs`: the MPs each unit expends; `enough`: every unit has them left, or makes the
    overrun as its minimum move (4.3); `short`: the units that lack them;
    `disengagement`: the overrunning hex is in the ZOC of enemy units other than the
    defenders, so the overrun pays the disengagement cost too (7.0 D, 7.2); `into_ezoc`:
    the defenders' hex is in the ZOC of other enemy units (the 6.4 exception);
    `left_behind`: the friendly combat units not in the overrun that stay in the
    overrunning hex (module 0.1.0's 6.0 B check); `revised` False: module 0.1.0's
    readings (RULES-ISSUES, "What module 0.2.0 changed")."""

    target: Hex
    costs: Mapping[str, Fraction]
    enough: bool
    minimum_move: bool
    disengagement: bool
    into_ezoc: bool
    short: tuple[str, ...] = ()
    left_behind: int = 0
    revised: bool = True

    def after(self, movers: Sequence[Mover], *, advanced: Collection[str] = (),
              zoc: frozenset[Hex] | None = None,
              ends: Mapping[str, Hex] | None = None) -> tuple[Mover, ...]:
        """The movers once the overrun is resolved: every one has paid its cost (7.3;
        all its MPs for a minimum move, 4.3, which leaves it none); those in `advanced`
        stand in the target hex (7.6 C-D, at no MP cost), or in the hex `ends` names
        after a two-hex advance (7.6 D, 8.12 F).

        - 4.7 B: a unit that advanced stops if the hex it ended in is in an EZOC (`zoc`:
          the EZOC after the combat, by default the other enemy units' ZOC before it).
        - 7.0 B, 7.4 C: a unit that stopped on entering the overrunning hex may go on if
          the combat left that hex in no EZOC (RULES-ISSUES 19).
        - 6.4 exception: after an overrun that disengaged and advanced into an EZOC hex,
          the whole overrunning force may move no further this phase, panzers included
          (`ended` "6.4"; RULES-ISSUES 20).
        - A force that retreated after the overrun is finished too (7.7 C): the caller
          knows where it went and says so.

        Module 0.1.0 (`revised` False) read 6.0 B into an overrun that disengaged (its
        hex may not be left empty: IllegalOrder if every overrunning unit advances and
        nothing else stays), placed every advancing unit in the target hex and left a
        unit that stayed behind as halted as it was.
        """
        if not self.revised and self.disengagement and advanced and self.left_behind < 1 \
                and all(m.id in advanced for m in movers):
            raise CATALOGUE.refuse("no-detachment", "6.0 B",
                "the overrun disengaged from the hex, so a friendly "
                "combat unit must remain there: not every overrunning unit "
                "may advance (6.3)")
        in_zoc = (self.target in zoc) if zoc is not None else self.into_ezoc
        stopped = bool(advanced) and in_zoc and self.disengagement
        out = []
        for m in movers:
            moved = m.id in advanced
            if not self.revised:
                out.append(replace(
                    m, unit=replace(m.unit, hex=self.target) if moved else m.unit,
                    spent=m.spent + self.costs[m.id],
                    halted=(moved and in_zoc) or (m.halted and not moved),
                    finished=m.finished or stopped))
                continue
            here = (ends or {}).get(m.id, self.target) if moved else m.hex
            if zoc is None:
                halted = in_zoc if moved else m.halted
            else:
                halted = here in zoc if moved else m.halted and here in zoc
            out.append(replace(
                m, unit=replace(m.unit, hex=here), spent=m.spent + self.costs[m.id],
                halted=halted, finished=m.finished or stopped,
                ended="6.4" if stopped and not m.finished else m.ended))
        return tuple(out)


def overrun_cost(terrain: Terrain, movers: Sequence[Mover], target: Hex, enemy: EnemyZones,
                 *, turn: int, left_behind: int = 0,
                 interdiction: Mapping[Hex, int] = NOTHING,
                 revised: bool = True) -> Overrun:
    """7.0 C-D, 7.3, 7.4, 7.5 C, 4.3: the MPs a unit or stack spends to overrun the enemy
    units in the adjacent `target` hex, and whether it has them.

    Each unit pays +2 MPs (+1 for German units on Turn 1, 3.2 C) plus its own TEC cost
    of entering the defenders' hex from its own (7.3; a road or river on the hexside
    counts as for a move), that cost doubled or quadrupled for a Soviet unit by
    interdiction (11.3; RULES-ISSUES 21). If the overrunning hex is also in the ZOC of
    enemy units other than the defenders, the overrun leaves an EZOC (4.7 D) and pays the
    disengagement cost (7.0 D, 7.2; 6.1-6.2, none for Germans on Turn 1); who may pay it
    is as for a disengagement (6.1), but no friendly unit need stay in the hex (6.0 B is
    about disengaging; RULES-ISSUES 18), and 6.4 yields to its exception. A unit that has
    not moved yet may overrun the first hex by spending all its MPs (4.3), except when
    the overrun disengages (4.3's exception; RULES-ISSUES 21).

    IllegalOrder: 7.4 A-B a stack of more than four or that did not begin the phase
    together; 7.0 C a target not adjacent; 7.5 A a target with no enemy unit; 7.5 C a
    lake hexside, road or not; 4.3, 6.4, 7.7 C a unit that has finished moving; 6.1 a
    German infantry or Soviet unit leaving an EZOC hex it did not begin the phase in.
    `revised` False: module 0.1.0, which refused a lone unit's overrun out of an EZOC
    hex with no friendly unit left behind (6.0 B) and did not compound 11.3 C.
    """
    board = terrain.board
    check_stack(movers, rule="7.4 B" if len(movers) > 1 else "7.0 C")
    here = movers[0].hex
    names = ", ".join(m.id for m in movers)
    where = f"{_label(board, here)} to {_label(board, target)}"
    for m in movers:
        if m.finished:
            raise finished_error(m, overrun=True)
    if target not in board or not board.grid.adjacent(here, target):
        raise CATALOGUE.refuse("not-adjacent", "7.0 C",
            f"a unit may overrun only an adjacent hex; "
            f"{_label(board, target)} is not next to {_label(board, here)}")
    if target not in enemy.occupied:
        raise CATALOGUE.refuse("overrun-target", "7.5 A",
            f"an overrun is made against enemy units; there are none "
            f"in {_label(board, target)}")
    if terrain.blocks_overrun(here, target):
        raise CATALOGUE.refuse("lake", "7.5 C",
            f"{names} cannot overrun from {where} across a lake "
            "hexside, even where a road crosses it")
    others = enemy.zoc_without(target)
    disengaging = here in others
    if disengaging:
        for m in movers:
            check_disengagement(board, m)
        if not revised and left_behind < 1 and len(movers) == 1:
            raise CATALOGUE.refuse("no-detachment", "6.0 B",
                f"{names} would disengage from {_label(board, here)} "
                "by overrunning and must advance if it succeeds (7.6 C): a "
                "friendly combat unit must remain in the hex (6.3)")
    costs: dict[str, Fraction] = {}
    short: list[str] = []
    minimum = False
    for m in movers:
        base = TURN_1_GERMAN_OVERRUN_COST if turn == 1 and m.unit.side == GERMAN \
            else OVERRUN_COST
        cost = base + _entry_cost(terrain, m, here, target, interdiction, "7.3",
                                  first=not m.has_moved, revised=revised)
        if disengaging:
            cost += disengagement_cost(m.unit, turn=turn)
        if m.spent + cost > m.allowance:
            if not m.has_moved and not disengaging and m.allowance > 0:
                cost, minimum = Fraction(m.allowance) - m.spent, True
            else:
                short.append(m.id)
        costs[m.id] = cost
    return Overrun(target, MappingProxyType(costs), not short, minimum, disengaging,
                   target in others, tuple(short), left_behind, revised)
