"""1941: Operation Barbarossa on the ground: 3.0 stacking, 7.8 retreats, 8.0 supply
lines and 16.0 surrender, as procedures over plain facts (who stands where, whose
territory, which hexes are in enemy zones of control)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex, hex_distance
from adjudicator.errors import IllegalOrder

CORPS, GROUP, ARMY = "corps", "group", "army"
SUPPLY_LINE_HEXES = 3  # 8.1 A
SHORT_SUPPLY_LINE_HEXES = 1  # 13.3 C, 13.5 E: Axis units in mud and snow
SURRENDER_RADIUS = 5  # 16.0 A


@dataclass(frozen=True)
class Stacked:
    id: str
    size: str  # corps, group, army


def stacking_problem(side: str, units: Sequence[Stacked], *, fortification: bool) -> str | None:
    """3.1-3.2: what is wrong with a stack, in words, or None.

    Axis: at most two corps, a group or an army counting as two (3.1 A-B; the Axis get
    nothing from fortifications, 11.0 B). Soviets: one unit of any size plus one corps
    (3.2 A-B), two units of any size in a fortifications hex (3.2 C, 11.0 C)."""
    if side == "axis":
        load = sum(1 if u.size == CORPS else 2 for u in units)
        if load > 2:
            return ("Axis units stack at most two corps per hex, and a group or an army "
                    "stacks with no other unit (3.1 A-B)")
        return None
    if len(units) > 2:
        where = "a fortifications hex" if fortification else "a hex"
        return f"at most two Soviet units may stack in {where} (3.2, 11.0 C)"
    if not fortification and sum(1 for u in units if u.size != CORPS) > 1:
        return ("outside a fortifications hex the Soviets stack one unit of any size plus "
                "one corps (3.2 A)")
    return None


def check_stacking(side: str, units: Sequence[Stacked], where: str, *,
                   fortification: bool) -> None:
    """3.3 A: the limits at the end of a Movement Phase."""
    problem = stacking_problem(side, units, fortification=fortification)
    if problem:
        raise IllegalOrder("11.0 C" if fortification and side == "soviet" else "3.3 A",
                           f"at the end of the Movement Phase {where} holds "
                           f"{', '.join(u.id for u in units)}: {problem}", code="overstacked")


@dataclass(frozen=True)
class RetreatMap:
    """What a retreat must know (7.8.2): prohibited hexsides, enemy-occupied hexes, the
    hexes in enemy ZOCs, the hexes friendly units occupy."""

    prohibited: Callable[[Hex, Hex], bool]
    enemy: frozenset[Hex]
    enemy_zoc: frozenset[Hex]
    friendly: frozenset[Hex]


def retreat_hexes(board: HexBoard, start: Hex, terrain: RetreatMap, *,
                  german_armor: bool = False) -> list[list[Hex]]:
    """7.8.1-7.8.2: the hexes a unit may retreat one hex into, by priority: A, the hexes
    in no enemy ZOC; only then B, hexes in an enemy ZOC that a friendly unit occupies; a
    German armor-type unit may, when there is nothing else, retreat into an enemy ZOC no
    friendly unit occupies (9.2 B). Empty: the unit is eliminated (7.8.2 B)."""
    open_hexes, covered, exposed = [], [], []
    for there in board.neighbours(start):
        if there in terrain.enemy or terrain.prohibited(start, there):
            continue
        if there not in terrain.enemy_zoc:
            open_hexes.append(there)
        elif there in terrain.friendly:
            covered.append(there)
        else:
            exposed.append(there)
    tiers = [tier for tier in (open_hexes, covered) if tier]
    return tiers or ([exposed] if german_armor and exposed else [])


@dataclass(frozen=True)
class SupplyMap:
    """What a supply line must know (8.1)."""

    sources: frozenset[Hex]  # 8.2: the side's supply sources
    rail: Callable[[Hex, Hex], bool]  # a railroad runs directly between the two hexes
    prohibited: Callable[[Hex, Hex], bool]  # a hexside or hex the line may not use
    enemy: frozenset[Hex]  # enemy-occupied hexes
    enemy_zoc: frozenset[Hex]
    friendly_units: frozenset[Hex]  # hexes friendly units occupy (they negate EZOCs)
    friendly_territory: frozenset[Hex]


def rail_supplied(board: HexBoard, supply: SupplyMap) -> set[Hex]:
    """8.1 C: the railroad hexes joined to a supply source entirely along connected rail
    lines through friendly territory, never into an enemy ZOC a friendly unit does not
    occupy."""
    def usable(h: Hex) -> bool:
        return (h in supply.friendly_territory and h not in supply.enemy
                and (h not in supply.enemy_zoc or h in supply.friendly_units))

    starts = [s for s in supply.sources if usable(s)]
    reached = board.trace(starts, lambda a, b: supply.rail(a, b) and usable(b))
    return set(reached)


def in_supply(board: HexBoard, unit_hex: Hex, supply: SupplyMap, railheads: Collection[Hex],
              *, length: int = SUPPLY_LINE_HEXES, through_zoc: bool = False) -> bool:
    """8.1 A-B: a line of at most `length` hexes from the unit to a supply source or to a
    railroad leading to one (`railheads`, from `rail_supplied`), not across a prohibited
    hexside, not into an enemy-occupied hex, and not into an enemy ZOC no friendly unit
    occupies, except for German armor-type units (9.2 A: `through_zoc`)."""
    goals = set(railheads) | set(supply.sources)
    if unit_hex in goals:
        return True

    def passable(a: Hex, b: Hex) -> bool:
        if supply.prohibited(a, b) or b in supply.enemy:
            return False
        return through_zoc or b not in supply.enemy_zoc or b in supply.friendly_units

    reached = board.trace([unit_hex], passable, max_length=length)
    return any(h in goals for h in reached)


def surrenders(unit_hex: Hex, supplied: bool, supplied_soviet_hexes: Collection[Hex]) -> bool:
    """16.0 A: at the end of a turn an unsupplied Soviet unit surrenders if no supplied
    Soviet unit is within five hexes."""
    if supplied:
        return False
    return not any(hex_distance(unit_hex, h) <= SURRENDER_RADIUS
                   for h in supplied_soviet_hexes)
