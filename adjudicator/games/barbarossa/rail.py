"""1941 rule 5.4 Rail Movement, with 8.3 C (unsupplied units may not), 15.2.4 (the Finnish
rail move), 17.1.2 (Turn 1), 20.2 B (partisans) and 20.3 (bombing): the path checked by
the kit's walker (engine/walker.py), the capacity charged per player turn."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.step import StepContext
from adjudicator.engine.walker import PathStep, Stop, walk
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa.control import control_of
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.first_turn import FIRST_TURN, SOVIET_RAIL_CAPACITY
from adjudicator.games.barbarossa.hungary_finland import finnish_rail_move
from adjudicator.games.barbarossa.movement import check_room_at_the_end
from adjudicator.games.barbarossa.orders import Rail
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.vocabulary import (
    SIDE_ADJECTIVES,
    EventKind,
    Feature,
    Phase,
    Side,
    SupplySource,
    UnitSize,
)
from adjudicator.games.barbarossa.zoc import enemy_zones

AXIS_RAIL_CAPACITY = 3  # 5.4 E: three corps, or one group or army
SOVIET_RAIL_CAPACITY_PER_TURN = 8  # 5.4 E
BOMBED_UNITS_PER_POINT = 2  # 20.3
PARTISAN_RAIL_CAPACITY = 1  # 20.2 B: one corps


def axis_rail_load(size: str) -> int:
    """5.4 E: the Axis move three corps, or one group or army, by rail per player turn;
    a group or an army uses the whole capacity."""
    return 1 if size == UnitSize.CORPS else AXIS_RAIL_CAPACITY


def check_rail_capacity(side: str, used: int, size: str, *, turn: int, finnish: bool = False,
                        finnish_used: int = 0, partisans: bool = False,
                        bombed: int = 0) -> tuple[int, int]:
    """5.4 E, 15.2.4 A, 17.1.2, 20.2 B, 20.3: charge one more unit's rail move to its
    side's capacity; the capacity used afterwards (regular, Finnish). The Axis may move
    one Finnish unit a turn besides its capacity; partisans cut the Axis capacity to one
    corps; each German air point bombing railroads cuts the Soviet one by two units."""
    if side == Side.AXIS:
        if turn == FIRST_TURN:
            raise CATALOGUE.refuse("rail-turn-1", "17.1.2 A", "Germany may not move any units "
                                   "by rail on Turn 1")
        if finnish and finnish_used == 0:
            return used, 1  # the special Finnish rail move (15.2.4 A)
        load = axis_rail_load(size)
        if partisans and used + load > PARTISAN_RAIL_CAPACITY:
            raise CATALOGUE.refuse("rail-capacity", "20.2 B", "partisans cut the Axis rail "
                                   "capacity to one corps sized unit this turn")
        if used + load > AXIS_RAIL_CAPACITY:
            raise CATALOGUE.refuse("rail-capacity", "5.4 E", "the Axis rail capacity is three "
                                   "corps or one group or army per player turn, and this move "
                                   "would exceed it")
        return used + load, finnish_used
    full = SOVIET_RAIL_CAPACITY if turn == FIRST_TURN else SOVIET_RAIL_CAPACITY_PER_TURN
    capacity = max(0, full - BOMBED_UNITS_PER_POINT * bombed)
    if used + 1 > capacity:
        rule = "20.3" if bombed else "17.1.2 B" if turn == FIRST_TURN else "5.4 E"
        raise CATALOGUE.refuse("rail-capacity", rule, f"the Soviet rail capacity is {capacity} "
                               "units this player turn, all used")
    return used + 1, finnish_used


def check_rail_path(board: HexBoard, path: Sequence[Hex], *, rail: Callable[[Hex, Hex], bool],
                    friendly: Collection[Hex], enemy_zoc: Collection[Hex],
                    why_not_friendly: Callable[[Hex], str] | None = None) -> None:
    """5.4 A-D: along connected railroad hexes only, in friendly territory, never
    starting in, ending in or passing through an enemy zone of control: the start, then
    each hex entered, by the kit's walker. `why_not_friendly`: what makes a hex not
    friendly, in words (module 0.3.0)."""
    def closed(h: Hex) -> str | None:
        if h not in friendly:
            return "rail-territory"
        return "rail-zoc" if h in enemy_zoc else None

    def territory(step: PathStep[Hex]) -> Stop[Hex] | None:  # 5.4 B, D
        reason = closed(step.there)
        return None if reason is None else Stop(reason, step)

    def railroad(step: PathStep[Hex]) -> Stop[Hex] | None:  # 5.4 C
        return None if rail(step.here, step.there) else Stop("rail-gap", step)

    if path and (reason := closed(path[0])) is not None:
        raise _rail_refusal(board, reason, path[0], path[0], why_not_friendly)
    stop = walk(list(path), [territory, railroad]).stop
    if stop is not None and stop.step is not None:
        raise _rail_refusal(board, stop.reason, stop.step.here, stop.step.there,
                            why_not_friendly)


def _rail_refusal(board: HexBoard, reason: str, here: Hex, there: Hex,
                  why_not_friendly: Callable[[Hex], str] | None) -> IllegalOrder:
    name = board.label(there)
    if reason == "rail-territory" and why_not_friendly is not None:
        return CATALOGUE.refuse("rail-territory", "5.4 B", f"a unit may move by rail only in "
                                f"friendly territory, as the map stands when it moves; {name} is "
                                f"{why_not_friendly(there)}")
    if reason == "rail-territory":
        return CATALOGUE.refuse("rail-territory", "5.4 B", f"rail movement stays in friendly "
                                f"territory; {name} is not")
    if reason == "rail-zoc":
        return CATALOGUE.refuse("rail-zoc", "5.4 D", f"rail movement may not start in, end in or "
                                f"pass through an enemy zone of control, as {name} is")
    return CATALOGUE.refuse("rail-gap", "5.4 C", f"no railroad runs directly from "
                            f"{board.label(here)} to {name}")


def rail(ctx: StepContext, order: Rail) -> None:
    """5.4: a supplied unit moves by rail along connected railroads in friendly territory,
    never in an enemy ZOC, instead of moving overland, within the side's capacity."""
    state, game = ctx.state, GameData.of(ctx.module)
    unit = order.unit
    piece = game.pieces.get(unit)
    if state["phase"] != Phase.MOVEMENT:
        raise CATALOGUE.refuse("not-movement", "5.4 A", "rail movement is made in a Movement "
                               "Phase")
    if piece is None or unit not in state["units"] or piece.side != state["player"]:
        raise CATALOGUE.refuse("no-unit", "5.4 A", f"{unit!r} is not a unit of the phasing "
                               "side on the map")
    if unit in state["moved"]:
        raise CATALOGUE.refuse("already-moved", "5.4 A", f"{piece.name} has already moved in "
                               "this phase" + ("; a unit that moves by rail may not otherwise "
                                               "move in the same phase" if game.since_0_3
                                               else ""))
    if unit in state.get("unsupplied", []):
        raise CATALOGUE.refuse("unsupplied-rail", "8.3 C", f"{piece.name} is unsupplied and may "
                               "not use rail movement")
    try:
        path = [game.board.hex(x) for x in order.path]
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-path", "5.4 C", str(exc)) from None
    if not path or game.board.label(path[0]) != state["units"][unit]:
        raise CATALOGUE.refuse("path-start", "5.4 A", f"{piece.name} starts its rail move where "
                               f"it stands, {state['units'][unit]}")
    side = piece.side
    special = finnish_rail_move(game, state, piece, path[0])  # 15.2.4
    used, finnish = check_rail_capacity(
        side, state["rail_used"][side], piece.size, turn=state["turn"],
        finnish=special, finnish_used=state["rail_used"][SupplySource.FINNISH],
        partisans=state.get("partisans", {}).get("active") == state["turn"],
        bombed=state.get("rail_bombed", {}).get(str(state["turn"]), 0))
    friendly = [h for h in game.board if control_of(game, state, h) == side]
    zones = enemy_zones(game, state, side)

    def why_not_friendly(h: Hex) -> str:  # 5.4 B in words (module 0.3.0)
        if h in zones.occupied:
            return "occupied by enemy units"
        return f"{SIDE_ADJECTIVES[Side(control_of(game, state, h))]} controlled"

    check_rail_path(game.board, path, rail=lambda a, b: Feature.RAIL in game.board.features(a, b),
                    friendly=set(friendly) - zones.occupied, enemy_zoc=zones.any,
                    why_not_friendly=why_not_friendly if game.since_0_3 else None)
    check_room_at_the_end(game, state, unit, path[-1], moving_on=None)  # 3.3 A
    ctx.emit(EventKind.UNIT_RAILED, unit=unit, path=[game.board.label(h) for h in path],
             used={side: used, SupplySource.FINNISH.value: finnish})
