"""1941: Operation Barbarossa above the single hex: 5.4 rail movement, 14.2 Soviet
replacements, 15.1-15.2 Hungary and Finland, 18.2 the level of victory."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.errors import IllegalOrder

LENINGRAD = "0712"  # 15.2.2 B
SOVIET_LOSSES_FOR_A_SHIFT = 40  # 18.2 B
AXIS_LOSSES_FOR_A_SHIFT = 25


# -- 5.4 rail movement ---------------------------------------------------------------

def axis_rail_load(size: str) -> int:
    """5.4 E: the Axis move three corps, or one group or army, by rail per player turn;
    a group or an army uses the whole capacity."""
    return 1 if size == "corps" else 3


def check_rail_capacity(side: str, used: int, size: str, *, turn: int, finnish: bool = False,
                        finnish_used: int = 0, partisans: bool = False,
                        bombed: int = 0) -> tuple[int, int]:
    """5.4 E, 15.2.4 A, 17.1.2, 20.2 B, 20.3: charge one more unit's rail move to its
    side's capacity; the capacity used afterwards (regular, Finnish). The Axis may move
    one Finnish unit a turn besides its capacity; partisans cut the Axis capacity to one
    corps; each German air point bombing railroads cuts the Soviet one by two units."""
    if side == "axis":
        if turn == 1:
            raise IllegalOrder("17.1.2 A", "Germany may not move any units by rail on Turn 1",
                               code="rail-turn-1")
        if finnish and finnish_used == 0:
            return used, 1  # the special Finnish rail move (15.2.4 A)
        load = axis_rail_load(size)
        if partisans and used + load > 1:
            raise IllegalOrder("20.2 B", "partisans cut the Axis rail capacity to one corps "
                               "sized unit this turn", code="rail-capacity")
        if used + load > 3:
            raise IllegalOrder("5.4 E", "the Axis rail capacity is three corps or one group "
                               "or army per player turn, and this move would exceed it",
                               code="rail-capacity")
        return used + load, finnish_used
    capacity = max(0, (2 if turn == 1 else 8) - 2 * bombed)
    if used + 1 > capacity:
        rule = "20.3" if bombed else "17.1.2 B" if turn == 1 else "5.4 E"
        raise IllegalOrder(rule, f"the Soviet rail capacity is {capacity} units this player "
                           "turn, all used", code="rail-capacity")
    return used + 1, finnish_used


def check_rail_path(board: HexBoard, path: Sequence[Hex], *, rail: Callable[[Hex, Hex], bool],
                    friendly: Collection[Hex], enemy_zoc: Collection[Hex],
                    why_not_friendly: Callable[[Hex], str] | None = None) -> None:
    """5.4 A-D: along connected railroad hexes only, in friendly territory, never
    starting in, ending in or passing through an enemy zone of control.
    `why_not_friendly`: what makes a hex not friendly, in words (module 0.3.0)."""
    for i, here in enumerate(path):
        name = board.label(here)
        if here not in friendly and why_not_friendly is not None:
            raise IllegalOrder("5.4 B", f"a unit may move by rail only in friendly territory, "
                               f"as the map stands when it moves; {name} is "
                               f"{why_not_friendly(here)}", code="rail-territory")
        if here not in friendly:
            raise IllegalOrder("5.4 B", f"rail movement stays in friendly territory; {name} "
                               "is not", code="rail-territory")
        if here in enemy_zoc:
            raise IllegalOrder("5.4 D", f"rail movement may not start in, end in or pass "
                               f"through an enemy zone of control, as {name} is",
                               code="rail-zoc")
        if i and not rail(path[i - 1], here):
            raise IllegalOrder("5.4 C", f"no railroad runs directly from "
                               f"{board.label(path[i - 1])} to {name}", code="rail-gap")


# -- 14.2 replacements ------------------------------------------------------------------

@dataclass(frozen=True)
class Eliminated:
    id: str
    strength: int
    kind: str  # "infantry" (infantry-type), "tank corps", "tank group"


def check_replacements(taken: Sequence[Eliminated], *, moscow_lost: bool,
                       year_1942: bool = False, why: str = "") -> None:
    """14.2.2, 14.2.4 B, 20.4.2: four infantry-type units plus one tank corps, or three
    plus one tank group; only one unit stronger than four; one infantry-type unit fewer
    while the Axis hold Moscow, two fewer in 1942. `why`: the reason for the Moscow
    penalty, said in the refusal (module 0.3.0)."""
    infantry = sum(1 for u in taken if u.kind == "infantry")
    corps = sum(1 for u in taken if u.kind == "tank corps")
    groups = sum(1 for u in taken if u.kind == "tank group")
    cut = (1 if moscow_lost else 0) + (2 if year_1942 else 0)
    options = [(4 - cut, 1, 0), (3 - cut, 0, 1)]
    if not any(infantry <= i and corps <= c and groups <= g for i, c, g in options):
        allowed = " or ".join(f"{i} infantry-type units plus one tank {'corps' if c else 'group'}"
                              for i, c, g in options)
        rule = "14.2.4 B" if moscow_lost else "20.4.2" if year_1942 else "14.2.2 A"
        raise IllegalOrder(rule, f"this turn the Soviets may replace {allowed}"
                           + (f", as {why}" if why and moscow_lost else "")
                           + f"; asked: {infantry} infantry-type, {corps} tank corps, "
                           f"{groups} tank groups", code="replacements")
    if sum(1 for u in taken if u.strength > 4) > 1:
        raise IllegalOrder("14.2.2 B", "only one replaced unit may have a combat strength "
                           "greater than four", code="replacement-strength")


# -- 15.1 Hungary, 15.2 Finland -----------------------------------------------------------

def check_hungary(turn: int, entering_country: str) -> None:
    """15.1: no unit of either side enters Hungary on Turn 1."""
    if turn == 1 and entering_country == "hungary":
        raise IllegalOrder("15.1 A", "no unit may enter any hex of Hungary on Turn 1",
                           code="hungary")


def check_finnish_attack(*, turn: int, across_border: bool, target: str, target_limit: str,
                         german_attacking: bool, leningrad_axis: bool) -> None:
    """15.2.2: on Turn 1 Finnish units neither move nor attack across the Finnish-Soviet
    border; later they attack Leningrad only beside German units, and Soviet units
    south of the Svir or east of the White Sea Canal only once Leningrad is Axis held."""
    if turn == 1 and across_border:
        raise IllegalOrder("15.2.2 A", "on Turn 1 no Finnish unit may move or attack across "
                           "the Finnish-Soviet border", code="finnish-turn-1")
    if target == LENINGRAD and not german_attacking:
        raise IllegalOrder("15.2.2 B", "Finnish units may attack Leningrad (0712) only in "
                           "conjunction with German units attacking the hex",
                           code="finnish-leningrad")
    if target_limit and not leningrad_axis:
        where = "south of the Svir" if target_limit == "south-of-svir" else \
            "east of the White Sea Canal"
        raise IllegalOrder("15.2.2 B", f"Finnish units may not attack Soviet units {where} "
                           f"({target}) while Leningrad is not Axis controlled",
                           code="finnish-limit")


# -- 18.2 victory -------------------------------------------------------------------------

def victory_level(levels: Sequence[str], base: int, *, soviet_losses: int,
                  axis_losses: int) -> str:
    """18.2 B-D: the level the VP total gave (`levels` ordered from the Soviets' best to
    Germany's best, `base` its index), shifted one toward Germany for forty or more
    Soviet units eliminated and one toward the Soviets for twenty-five or more Axis
    units; both cancel out.

    >>> LEVELS = ["Soviet decisive", "Soviet substantial", "Soviet marginal",
    ...           "German marginal", "German substantial", "German decisive"]
    >>> victory_level(LEVELS, 3, soviet_losses=43, axis_losses=0)   # 18.2 B example
    'German substantial'
    >>> victory_level(LEVELS, 3, soviet_losses=0, axis_losses=27)   # the second example
    'Soviet marginal'
    """
    shift = (1 if soviet_losses >= SOVIET_LOSSES_FOR_A_SHIFT else 0) \
        - (1 if axis_losses >= AXIS_LOSSES_FOR_A_SHIFT else 0)
    return levels[max(0, min(len(levels) - 1, base + shift))]
