"""1941: Operation Barbarossa, rule 6.0 Zones of Control, and what they do to a move
(6.1 infantry, 6.2 armor) and to a move's legality in general (5.0).

The position comes in as plain facts (`Unit`: where, whose, armor-type or not) and
the terrain costs as a function from the Terrain Effects Chart, so these procedures
read like the rulebook and are tested on its own examples.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from adjudicator.engine.hexboard import HexBoard, PathStep
from adjudicator.engine.hexgrid import Hex
from adjudicator.errors import IllegalOrder

# hexsides a ZOC never extends through while unfrozen (6.0 B)
ZOC_BLOCKING_HEXSIDES = frozenset({"all-sea", "all-lake"})
ARMOR_ZOC_TO_ZOC_COST = 2  # 6.2 B: in addition to the terrain cost

# (unit, from, to) -> MPs to enter `to` from `from` by the TEC, None if prohibited
TerrainCost = Callable[["Unit", Hex, Hex], "int | None"]


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    hex: Hex
    armor: bool  # armor-type (tank, panzer); everything else is infantry-type (1.3.2)


def never_frozen(a: Hex, b: Hex) -> bool:
    return False


def zone_of_control(board: HexBoard, unit: Unit, *,
                    frozen: Callable[[Hex, Hex], bool] = never_frozen) -> set[Hex]:
    """6.0 A-B: the six hexes around the unit, except across an all-sea or all-lake
    hexside that is not frozen (`frozen`: 13.5 C, the lakes and some seas in snow)."""
    zone = set()
    for there in board.neighbours(unit.hex):
        if board.features(unit.hex, there) & ZOC_BLOCKING_HEXSIDES \
                and not frozen(unit.hex, there):
            continue
        zone.add(there)
    return zone


@dataclass(frozen=True)
class EnemyZones:
    """The hexes in the ZOC of any enemy unit, and of any enemy armor-type unit; and
    the zone of each enemy armor-type unit apart (6.2 B: entering or exiting one)."""

    any: frozenset[Hex]
    armor: frozenset[Hex]
    occupied: frozenset[Hex]
    armor_zones: tuple[frozenset[Hex], ...] = ()

    @classmethod
    def of(cls, board: HexBoard, enemies: Iterable[Unit], *,
           frozen: Callable[[Hex, Hex], bool] = never_frozen,
           zone: Callable[[Unit], frozenset[Hex]] | None = None) -> EnemyZones:
        """`zone`: each unit's zone of control, if the caller keeps them (else computed
        with `frozen`)."""
        any_zone: set[Hex] = set()
        armor_zones: list[frozenset[Hex]] = []
        occupied: set[Hex] = set()
        for enemy in enemies:
            here = zone(enemy) if zone is not None else \
                frozenset(zone_of_control(board, enemy, frozen=frozen))
            any_zone |= here
            if enemy.armor:
                armor_zones.append(here)
            occupied.add(enemy.hex)
        armor_zone = frozenset(h for zone in armor_zones for h in zone)
        return cls(frozenset(any_zone), armor_zone, frozenset(occupied), tuple(armor_zones))

    def without(self, hexes: frozenset[Hex]) -> EnemyZones:
        """The same zones, none reaching into `hexes` (17.1.3)."""
        return EnemyZones(self.any - hexes, self.armor - hexes, self.occupied,
                          tuple(zone - hexes for zone in self.armor_zones))


def check_move(board: HexBoard, unit: Unit, path: list[Hex], allowance: int,
               terrain_cost: TerrainCost, enemy: EnemyZones, *,
               zone_by_zone: bool = False) -> list[PathStep]:
    """5.0 and 6.0: the movement points a unit spends in each hex of the path it was
    ordered along, or IllegalOrder naming the rule the first wrong hex breaks.
    `zone_by_zone`: the 6.2 B reading of module 0.3.0 (see `zoc_to_zoc`)."""
    if not path or path[0] != unit.hex:
        raise IllegalOrder("5.0", f"{unit.id} is in {board.label(unit.hex)}; its path must "
                           "start there", code="path-start")
    steps: list[PathStep] = []
    spent = 0
    for i, (here, there) in enumerate(zip(path, path[1:], strict=False), start=1):
        where = f"{board.label(here)} to {board.label(there)}"
        if there not in board:
            raise IllegalOrder("5.0", f"{board.label(there)} is not on the map",
                               code="off-map")
        if not board.grid.adjacent(here, there):
            raise IllegalOrder("5.0 C", f"{unit.id} moves from hex to adjacent hex; "
                               f"{board.label(there)} is not next to {board.label(here)}",
                               code="not-adjacent")
        if there in enemy.occupied:
            raise IllegalOrder("5.0 E", f"{unit.id} may never enter {board.label(there)}: "
                               "enemy units occupy it", code="enemy-hex")
        if i > 1 and not unit.armor and here in enemy.any:
            raise IllegalOrder("6.1 A", f"{unit.id} is infantry-type and had to stop on "
                               f"entering {board.label(here)}, which is in an enemy zone of "
                               "control", code="zoc-stop")
        cost = terrain_cost(unit, here, there)
        if cost is None:
            raise IllegalOrder("5.1", f"{unit.id} cannot move from {where}: the Terrain "
                               "Effects Chart prohibits it", code="prohibited-terrain")
        if here in enemy.any and there in enemy.any:
            cost += zoc_to_zoc(board, unit, here, there, enemy, zone_by_zone=zone_by_zone)
        spent += cost
        if spent > allowance:
            raise IllegalOrder("5.0 D", f"{unit.id} has {allowance} MPs; moving from {where} "
                               f"would bring it to {spent}", code="too-far")
        steps.append(PathStep(there, cost))
    return steps


def zoc_to_zoc(board: HexBoard, unit: Unit, here: Hex, there: Hex,
               enemy: EnemyZones, *, zone_by_zone: bool = False) -> int:
    """6.1 B / 6.2 B: moving directly from one hex in an enemy ZOC to another. Forbidden
    to infantry-type units; armor-type units may, at 2 MPs more, "as long as it is
    neither entering nor exiting a ZOC of an enemy armor-type unit".

    Until module 0.3.0 any hex in the zone of an enemy armor-type unit at either end
    forbade the move; from 0.3.0 (`zone_by_zone`, RULES-ISSUES 51) the text is read zone
    by zone: a move between two hexes of the same enemy tank's zone neither enters
    nor exits it, and is allowed."""
    where = f"{board.label(here)} to {board.label(there)}"
    if not unit.armor:
        raise IllegalOrder("6.1 B", f"{unit.id} is infantry-type: it may not move directly "
                           f"from one hex in an enemy zone of control to another ({where}); "
                           "it must first enter a hex in no enemy zone", code="zoc-to-zoc")
    if zone_by_zone:
        entering = any(there in zone and here not in zone for zone in enemy.armor_zones)
        exiting = any(here in zone and there not in zone for zone in enemy.armor_zones)
        if entering or exiting:
            how = " and ".join(w for w, yes in (("exit", exiting), ("enter", entering)) if yes)
            raise IllegalOrder("6.2 B", f"{unit.id} may not move directly from {where}: both "
                               f"are in enemy zones of control, and the move would {how} the "
                               "zone of an enemy armor-type unit", code="armor-zoc")
        return ARMOR_ZOC_TO_ZOC_COST
    if here in enemy.armor or there in enemy.armor:
        raise IllegalOrder("6.2 B", f"{unit.id} may not move directly from {where}: both are "
                           "in enemy zones of control and the move would leave or enter the "
                           "zone of an enemy armor-type unit", code="armor-zoc")
    return ARMOR_ZOC_TO_ZOC_COST
