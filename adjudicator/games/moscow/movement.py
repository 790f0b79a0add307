"""Moscow '41 rules 4.0 Movement and 6.0 Disengagement: the movement allowance (2.7, 9.1 A,
15.1 A, 15.2 A), moving a unit or a stack hex by hex (4.0-4.8) with its disengagements
(6.0-6.4) and interdiction (11.3), the Turn 1 rules (3.2 C-D), and the `<move>` order on
the game's position.

A unit's or a stack's move may be given in several `move` orders (legs): each goes on
where the last stopped, with what the units have spent. Once another unit or stack
moves, the ones before have finished (3.1.1 A); the units of a stack may split off and
move in legs of their own meanwhile (4.5 C-F).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.errors import IllegalOrder
from adjudicator.games.moscow.air import interdiction
from adjudicator.games.moscow.data import Game, Unit, unit_facts, units_of
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.supply import is_supplied
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.vocabulary import (
    GERMAN,
    INTERDICTION_FACTOR,
    RULES_0_2_0,
    SOVIET,
    STACKING_LIMIT,
    WEATHERS,
    other_side,
)
from adjudicator.games.moscow.zoc import EnemyZones

DISENGAGEMENT_COST = 3  # 6.1: German infantry and every Soviet unit


PANZER_DISENGAGEMENT_COST = 2  # 6.2: German armor and mechanized units


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
    if len(movers) > STACKING_LIMIT:
        raise CATALOGUE.refuse("stack", rule,
            f"at most {STACKING_LIMIT} units move together as a stack; "
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
    if count not in INTERDICTION_FACTOR:
        raise ValueError(f"{count} air units interdict one hex; at most two may (11.0 D)")
    return INTERDICTION_FACTOR[count]


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


def left_behind(game: Game, state: State, side: str, units: list[str]) -> int:
    """6.0 B, 6.3: the friendly units that stay in the hex the moving units leave."""
    start = state["units"][units[0]]
    return sum(1 for u, x in state["units"].items() if x == start and u not in units
               and unit_facts(game, state, u)[0] == side)


def check_not_finished(state: State, units: list[str]) -> None:
    """3.1.1 A, 4.5 D-E: a unit or stack that has finished moves no more this phase."""
    for unit in units:
        if unit in state["done"]:
            raise CATALOGUE.refuse("finished", "3.1.1 A",
                f"{unit} has finished its movement: another unit "
                "or stack has moved since (or, split off from its stack, the "
                "rest of the stack has, 4.5 D-E), and each finishes before the "
                "next moves")


def mover(game: Game, terrain: Terrain, state: State, unit: str) -> Mover:
    """The unit in the course of this Movement Phase: its MA fixed when it began to move
    (9.1 B), what it has spent, whether it must stop or has finished."""
    side, unit_type, printed, siberian = unit_facts(game, state, unit)
    here = game.board.hex(state["units"][unit])
    record = state["movers"].get(unit)
    if record is None:
        supplied = is_supplied(game, terrain, state, unit)  # 9.0 B: the moment it begins to move
        allowance = movement_allowance(printed, german=side == "german", siberian=siberian,
                                       supplied=supplied, weather=state["weather"])
        return Mover(Unit(unit, side, unit_type, here), allowance, here)
    return mover_from_record(game, state, unit, record)


def mover_from_record(game: Game, state: State, unit: str, record: dict[str, Any]) -> Mover:
    side, unit_type, _, _ = unit_facts(game, state, unit)
    return Mover(Unit(unit, side, unit_type, game.board.hex(state["units"][unit])),
                 record["allowance"], game.board.hex(record["start"]),
                 Fraction(record["spent"]), record["halted"], record["finished"],
                 record.get("ended", ""))


def mover_record(ctx: StepContext, m: Mover) -> dict[str, Any]:
    """A mover as the state keeps it (`state["movers"]`). From module 0.2.0 on a unit that
    has finished keeps the rule that ended its movement (`ended`, cited when it is ordered
    to move again); module 0.1.0's state has no such key, so its hashes stay as they were."""
    record = {"allowance": m.allowance, "start": Game.of(ctx.module).board.label(m.start),
              "spent": str(m.spent), "halted": m.halted, "finished": m.finished}
    if m.ended and ctx.module.at_least(RULES_0_2_0):
        record["ended"] = m.ended
    return record


def move(ctx: StepContext, order: Order) -> None:
    """4.0-4.8, 6.0-6.4: a unit or a stack of up to four that began the phase together
    moves one leg along `path`."""
    state, game = ctx.state, Game.of(ctx.module)
    side = state["player"]
    if state["phase"] != "movement":
        raise CATALOGUE.refuse("not-movement", "4.0 C",
            "units move in their side's Movement Phase")
    units = order.words("units")
    if not units:
        raise CATALOGUE.refuse("no-units", "4.0 D",
            "name the unit or the units of the stack that move")
    for unit in units:
        if unit not in state["units"] or unit_facts(game, state, unit)[0] != side:
            raise CATALOGUE.refuse("not-phasing", "4.0 B",
                f"{unit!r} is not a unit of the {side} player on the "
                "map")
    check_not_finished(state, units)
    revised = ctx.module.at_least(RULES_0_2_0)
    # a hex number beyond the map's edge is a hex all the same: the move checks refuse
    # it with 4.8 A; module 0.1.0 refused it here as a bad path (4.0 D)
    parse = game.board.grid.parse if revised else game.board.hex
    try:
        path = [parse(x) for x in order.words("path")]
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-path", "4.0 D", str(exc)) from None
    terrain = Terrain.of(ctx.module)
    movers = [mover(game, terrain, state, u) for u in units]
    enemy = EnemyZones.of(terrain, units_of(game, state, other_side(side)))
    leg = check_stack_move(terrain, movers, path, enemy, turn=state["turn"],
                           left_behind=left_behind(game, state, side, units),
                           interdiction=interdiction(game, state, side), revised=revised)
    ctx.emit("units-moved", units=units, path=[game.board.label(h) for h in path],
             mps={u: [str(c) for c in leg.costs(u)] for u in units},
             movers={m.id: mover_record(ctx, m) for m in leg.movers})


def apply_moved(state: State, data: dict[str, Any]) -> None:
    units = list(data["units"])
    note_mover(state, units)
    for unit in units:
        state["units"][unit] = data["path"][-1]
    state["movers"].update({u: dict(m) for u, m in data["movers"].items()})
    for label in data["path"][1:]:  # 9.4: who last occupied a hex (towns, cities)
        state["last_occupied"][label] = state["player"]


def note_mover(state: State, units: list[str]) -> None:
    """3.1.1 A: once another unit or stack moves, the one before has finished; 4.5 D-E:
    within a stack, a unit that split off has finished once the rest moves on
    (RULES-ISSUES 7)."""
    if not set(units) <= set(state["moving"]):
        state["done"] = sorted({*state["done"], *state["moving"]})
        state["moving"] = units
    elif not set(units) & set(state.get("last_leg", [])):
        state["done"] = sorted({*state["done"], *state["last_leg"]})
    state["last_leg"] = units


def reset_movement(state: State) -> None:
    state["movers"], state["moving"], state["done"] = {}, [], []
    state.pop("last_leg", None)
