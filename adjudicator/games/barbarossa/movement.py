"""1941 rule 5.0 Movement overland, with 5.3 (halving the MA), 6.1-6.2 (zones of control),
13.x (weather) and 3.3 A (stacking at the end of the Movement Phase).

A unit's move may be given in several `move` orders in one phase: each goes on from
where the last stopped, and the whole path is checked as one move (5.0 D, 6.1 A) by the
kit's path walker (engine/walker.py) with the checks of 5.0 and 6.0; a check's `Stop`
becomes the refusal in the rulebook's words (`refusal`). The same costs and zones give
the kit's search the hexes a unit may reach (`reachable`, for the listing).
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.engine.hexboard import HexBoard, PathStep
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.odds import halved
from adjudicator.engine.search import Reached, least_costs
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.engine.walker import PathStep as WalkStep
from adjudicator.engine.walker import Stop, walk
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa import control
from adjudicator.games.barbarossa.data import GameData, Piece
from adjudicator.games.barbarossa.hungary_finland import check_finnish_border, check_hungary
from adjudicator.games.barbarossa.orders import Move
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.stacking import problem_with
from adjudicator.games.barbarossa.vocabulary import Carried, EventKind, Phase
from adjudicator.games.barbarossa.weather import ma_halvings
from adjudicator.games.barbarossa.zoc import EnemyZones, Unit, enemy_zones, zoc_stop, zoc_to_zoc

# (unit, from, to) -> MPs to enter `to` from `from` by the TEC, None if prohibited
TerrainCost = Callable[[Unit, Hex, Hex], "int | None"]


def movement_allowance(piece: Piece, state: State) -> int:
    """5.3 with 8.3 B, 13.2, 13.3 A, 13.5 A: the MA, halved (rounding up) for each cause."""
    times = ma_halvings(piece, state)
    if piece.id in state.get("unsupplied", []):  # 8.3 B
        times += 1
    return halved(piece.movement, times) if times else piece.movement


def terrain_costs(game: GameData, weather: str) -> TerrainCost:
    """5.1-5.2: the MPs to enter a hex, the hexside crossed included."""
    def cost(unit: Unit, here: Hex, there: Hex) -> int | None:
        piece = game.pieces[unit.id]
        enter = game.charts.enter_cost(game.board.terrain[there], piece.armor, weather,
                                       water=game.water.get(there), special=piece.special)
        cross = game.charts.cross_cost(game.board.features(here, there), piece.armor, weather,
                                       water=game.hexside_water(here, there))
        return None if enter is None or cross is None else enter + cross
    return cost


# -- the path walked: 5.0 and 6.0 as checks -------------------------------------------------

def move_checks(board: HexBoard, unit: Unit, enemy: EnemyZones
                ) -> list[Callable[[WalkStep[Hex]], Stop[Hex] | None]]:
    """5.0 C-E and 6.1 A, in the order a step is judged."""
    def on_map(step: WalkStep[Hex]) -> Stop[Hex] | None:
        return None if step.there in board else Stop("off-map", step)

    def adjacent(step: WalkStep[Hex]) -> Stop[Hex] | None:
        return None if board.grid.adjacent(step.here, step.there) else Stop("not-adjacent", step)

    def not_enemy(step: WalkStep[Hex]) -> Stop[Hex] | None:  # 5.0 E
        return Stop("enemy-hex", step) if step.there in enemy.occupied else None

    return [on_map, adjacent, not_enemy, zoc_stop(unit, enemy)]


def walk_move(board: HexBoard, unit: Unit, path: list[Hex], allowance: int,
              terrain_cost: TerrainCost, enemy: EnemyZones, *, zone_by_zone: bool = False
              ) -> tuple[list[int], Stop[Hex] | None]:
    """5.0 and 6.0: the MPs the unit spends entering each hex of the path, and why the
    walk stops if it does (the kit's walker with the checks of 5.0 C-E and 6.1 A, the
    cost of 5.1 with 6.1 B-6.2 B, and the allowance of 5.0 D)."""
    if not path or path[0] != unit.hex:
        return [], Stop("path-start")

    def cost(step: WalkStep[Hex]) -> int | Stop[Hex]:
        terrain = terrain_cost(unit, step.here, step.there)
        if terrain is None:
            return Stop("prohibited-terrain", step)
        if step.here in enemy.any and step.there in enemy.any:
            extra = zoc_to_zoc(unit, step, enemy, zone_by_zone=zone_by_zone)
            if isinstance(extra, Stop):
                return extra
            terrain += extra
        return terrain

    def within(step: WalkStep[Hex], entered: int) -> Stop[Hex] | None:  # 5.0 D
        spent = step.spent_before + entered
        return Stop("too-far", step, {"spent": spent}) if spent > allowance else None

    done = walk(path, move_checks(board, unit, enemy), cost=cost, after_cost=[within])
    return list(done.costs), done.stop


def refusal(board: HexBoard, unit: Unit, allowance: int, stop: Stop[Hex], *,
            zone_by_zone: bool) -> IllegalOrder:
    """A stopped walk in the rulebook's words: the rule it breaks and why."""
    if stop.step is None:
        return CATALOGUE.refuse("path-start", "5.0", f"{unit.id} is in {board.label(unit.hex)}; "
                                "its path must start there")
    here, there = stop.step.here, stop.step.there
    where = f"{board.label(here)} to {board.label(there)}"
    reason = stop.reason
    if reason == "off-map":
        return CATALOGUE.refuse("off-map", "5.0", f"{board.label(there)} is not on the map")
    if reason == "not-adjacent":
        return CATALOGUE.refuse("not-adjacent", "5.0 C", f"{unit.id} moves from hex to "
                                f"adjacent hex; {board.label(there)} is not next to "
                                f"{board.label(here)}")
    if reason == "enemy-hex":
        return CATALOGUE.refuse("enemy-hex", "5.0 E", f"{unit.id} may never enter "
                                f"{board.label(there)}: enemy units occupy it")
    if reason == "zoc-stop":
        return CATALOGUE.refuse("zoc-stop", "6.1 A", f"{unit.id} is infantry-type and had to stop "
                                f"on entering {board.label(here)}, which is in an enemy zone "
                                "of control")
    if reason == "prohibited-terrain":
        return CATALOGUE.refuse("prohibited-terrain", "5.1", f"{unit.id} cannot move from "
                                f"{where}: the Terrain Effects Chart prohibits it")
    if reason == "zoc-to-zoc":
        return CATALOGUE.refuse("zoc-to-zoc", "6.1 B", f"{unit.id} is infantry-type: it may "
                                f"not move directly from one hex in an enemy zone of control to "
                                f"another ({where}); it must first enter a hex in no enemy zone")
    if reason == "armor-zoc" and zone_by_zone:
        return CATALOGUE.refuse("armor-zoc", "6.2 B", f"{unit.id} may not move directly from "
                                f"{where}: both are in enemy zones of control, and the move "
                                f"would {stop.facts['how']} the zone of an enemy armor-type "
                                "unit")
    if reason == "armor-zoc":
        return CATALOGUE.refuse("armor-zoc", "6.2 B", f"{unit.id} may not move directly from "
                                f"{where}: both are in enemy zones of control and the move "
                                "would leave or enter the zone of an enemy armor-type unit")
    return CATALOGUE.refuse("too-far", "5.0 D", f"{unit.id} has {allowance} MPs; moving from "
                            f"{where} would bring it to {stop.facts['spent']}")


def check_move(board: HexBoard, unit: Unit, path: list[Hex], allowance: int,
               terrain_cost: TerrainCost, enemy: EnemyZones, *,
               zone_by_zone: bool = False) -> list[PathStep]:
    """5.0 and 6.0: the movement points a unit spends in each hex of the path it was
    ordered along, or IllegalOrder naming the rule the first wrong hex breaks.
    `zone_by_zone`: the 6.2 B reading of module 0.3.0 (`zoc.zoc_to_zoc`)."""
    costs, stop = walk_move(board, unit, path, allowance, terrain_cost, enemy,
                            zone_by_zone=zone_by_zone)
    if stop is not None:
        raise refusal(board, unit, allowance, stop, zone_by_zone=zone_by_zone)
    return [PathStep(h, c) for h, c in zip(path[1:], costs, strict=True)]


# -- the move order ---------------------------------------------------------------------------

def phase_path(game: GameData, state: State, unit: str) -> list[Hex]:
    """The hexes the unit has moved through overland in this phase, from its start."""
    labels = state.get("paths", {}).get(unit) or [state["units"][unit]]
    return [game.board.hex(x) for x in labels]


def allowance_left(game: GameData, state: State, unit: str) -> int:
    """5.0 B, 14.1.1 B: the unit's MA this phase, less what its entry hex cost."""
    return movement_allowance(game.pieces[unit], state) - state.get("entry_mps", {}).get(unit, 0)


def overland_steps(game: GameData, state: State, unit: str, path: list[Hex]) -> list[PathStep]:
    """5.0, 6.1-6.2: the MPs of every hex of the unit's whole path this phase."""
    piece = game.pieces[unit]
    return check_move(game.board, Unit(unit, piece.side, path[0], piece.armor), path,
                      allowance_left(game, state, unit), terrain_costs(game, state["weather"]),
                      enemy_zones(game, state, piece.side), zone_by_zone=game.since_0_3)


def move(ctx: StepContext, order: Move) -> None:
    """5.0: a phasing unit moves hex by hex within its MA, never into an enemy hex;
    zones of control as 6.1-6.2. A second `move` of the unit in the phase goes on
    from where the first stopped, with what is left of its MA."""
    state, game = ctx.state, GameData.of(ctx.module)
    unit_id = order.unit
    if state["phase"] != Phase.MOVEMENT:
        raise CATALOGUE.refuse("not-movement", "2.0 E", f"units move only in a Movement Phase; "
                               f"this is the {state['segment']} segment's {state['phase']} phase")
    piece = game.pieces.get(unit_id)
    if piece is None or unit_id not in state["units"]:
        raise CATALOGUE.refuse("no-unit", "5.0 A", f"{unit_id!r} is not a unit on the map")
    if piece.side != state["player"]:
        raise CATALOGUE.refuse("not-phasing", "5.0 A",
                               f"{piece.name} is not a unit of the phasing side")
    carried = state.get("carried", {}).get(unit_id)
    if carried:
        rule, by = ("20.1.3", "by sea") if carried == Carried.SEA else ("5.4 A", "by rail")
        raise CATALOGUE.refuse("already-moved", rule, f"{piece.name} moved {by} in this phase "
                               "and may not otherwise move")
    try:
        path = [game.board.hex(x) for x in order.path]
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-path", "5.0 C", str(exc)) from None
    here = game.board.hex(state["units"][unit_id])
    if not path or path[0] != here:
        raise CATALOGUE.refuse("path-start", "5.0", f"{piece.name} is in "
                               f"{game.board.label(here)}; its path must start there")
    earlier = phase_path(game, state, unit_id)
    steps = overland_steps(game, state, unit_id, earlier + path[1:])[len(earlier) - 1:]
    for a, b in zip(path, path[1:], strict=False):
        check_hungary(state["turn"], game.country.get(b, ""))
        check_finnish_border(game, state, piece, a, b)
    check_room_at_the_end(game, state, unit_id, path[-1], moving_on=earlier + path[1:])
    labels = [game.board.label(h) for h in path]
    taken = control.taken_by_entering(game, state, unit_id, labels)
    ctx.emit(EventKind.UNIT_MOVED, unit=unit_id, path=labels, mps=[s.cost for s in steps])
    for label, side in taken:
        ctx.emit(EventKind.CONTROL_CHANGED, hex=label, side=side)


# -- 3.3 A: room at the end of the phase ------------------------------------------------------

def can_still_leave(game: GameData, state: State, unit: str, path: list[Hex] | None) -> bool:
    """Whether the unit could still move one more hex overland in this phase (`path`:
    its whole path so far; None when it moved by rail or sea, or has just arrived)."""
    if path is None:
        return False
    for there in game.board.neighbours(path[-1]):
        try:
            overland_steps(game, state, unit, [*path, there])
        except IllegalOrder:
            continue
        return True
    return False


def check_room_at_the_end(game: GameData, state: State, unit: str, there: Hex, *,
                          moving_on: list[Hex] | None) -> None:
    """3.3 A: stacking limits hold at the end of the Movement Phase, so a move that leaves
    a hex overstacked with no unit there able to move out any more is refused at once
    (the phase could never end). `moving_on`: the mover's path this phase, or None if
    it may not move again (rail, sea, placement)."""
    if state["phase"] != Phase.MOVEMENT:
        return
    problem = problem_with(game, state, unit, there)
    if problem is None:
        return
    label = game.board.label(there)
    others = [u for u, x in sorted(state["units"].items())
              if x == label and u != unit and game.pieces[u].side == state["player"]]
    if can_still_leave(game, state, unit, moving_on):
        return
    for other in others:
        if other not in state.get("carried", {}) \
                and can_still_leave(game, state, other, phase_path(game, state, other)):
            return
    raise CATALOGUE.refuse("overstacked", "3.3 A", f"{label}: {problem}; no unit there could "
                           "move out again before the Movement Phase ends, when the limits "
                           "apply")


# -- where a unit may go (the listing) -----------------------------------------------------------

def reachable(game: GameData, state: State, unit: str) -> Reached[Hex, int]:
    """The hexes a unit that has not yet moved overland may reach this phase, at their
    least cost, by the kit's search with the walker's own rules: 5.0 E enemy hexes
    closed, 5.1 the TEC, 6.1 A infantry stops in an enemy zone, 6.1 B-6.2 B from zone to
    zone, within 5.0 D's allowance."""
    piece = game.pieces[unit]
    start = game.board.hex(state["units"][unit])
    mover = Unit(unit, piece.side, start, piece.armor)
    enemy = enemy_zones(game, state, piece.side)
    terrain = terrain_costs(game, state["weather"])

    def step(here: Hex, there: Hex) -> int | None:
        if there in enemy.occupied:
            return None
        cost = terrain(mover, here, there)
        if cost is None:
            return None
        if here in enemy.any and there in enemy.any:
            extra = zoc_to_zoc(mover, WalkStep(0, here, there, 0), enemy,
                               zone_by_zone=game.since_0_3)
            if isinstance(extra, Stop):
                return None
            cost += extra
        return cost

    return least_costs([start], game.board.neighbours, step,
                       budget=allowance_left(game, state, unit),
                       expand=lambda h: piece.armor or h not in enemy.any)
