"""1941 rule 5.0 Movement overland, with 6.1-6.2 (zones of control), 13.x (weather)
and 3.3 A (stacking at the end of the Movement Phase).

A unit's move may be given in several `move` orders in one phase: each goes on from
where the last stopped, and the whole path is checked as one move (5.0 D, 6.1 A).
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.engine.hexboard import PathStep
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.odds import halved
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa import control
from adjudicator.games.barbarossa.game import Game, Piece, control_of, enemy_zones
from adjudicator.games.barbarossa.strategic import check_hungary
from adjudicator.games.barbarossa.zoc import Unit, check_move


def movement_allowance(piece: Piece, state: State) -> int:
    """5.3 with 8.3 B, 13.2, 13.3 A, 13.5 A: the MA, halved (rounding up) for each cause."""
    weather, times = state["weather"], 0
    if piece.id in state.get("unsupplied", []):  # 8.3 B
        times += 1
    if weather == "mud" or (weather == "snow" and piece.armor):
        times += 1
    if weather == "rain" and piece.armor and state["segment"] == "second":
        times += 1
    return halved(piece.movement, times) if times else piece.movement


def terrain_costs(game: Game, weather: str) -> Callable[[Unit, Hex, Hex], int | None]:
    def cost(unit: Unit, here: Hex, there: Hex) -> int | None:
        piece = game.pieces[unit.id]
        enter = game.charts.enter_cost(game.board.terrain[there], piece.armor, weather,
                                       water=game.water.get(there), special=piece.special)
        cross = game.charts.cross_cost(game.board.features(here, there), piece.armor, weather,
                                       water=game.hexside_water(here, there))
        return None if enter is None or cross is None else enter + cross
    return cost


def phase_path(game: Game, state: State, unit: str) -> list[Hex]:
    """The hexes the unit has moved through overland in this phase, from its start."""
    labels = state.get("paths", {}).get(unit) or [state["units"][unit]]
    return [game.board.hex(x) for x in labels]


def overland_steps(game: Game, state: State, unit: str, path: list[Hex]) -> list[PathStep]:
    """5.0, 6.1-6.2: the MPs of every hex of the unit's whole path this phase."""
    piece = game.pieces[unit]
    allowance = movement_allowance(piece, state) - state.get("entry_mps", {}).get(unit, 0)
    return check_move(game.board, Unit(unit, piece.side, path[0], piece.armor), path,
                      allowance, terrain_costs(game, state["weather"]),
                      enemy_zones(game, state, piece.side), zone_by_zone=game.since_0_3)


def move(ctx: StepContext, order: Order) -> None:
    """5.0: a phasing unit moves hex by hex within its MA, never into an enemy hex;
    zones of control as 6.1-6.2. A second `move` of the unit in the phase goes on
    from where the first stopped, with what is left of its MA."""
    state, game = ctx.state, Game.of(ctx.module)
    unit_id = order.get("unit")
    if state["phase"] != "movement":
        raise IllegalOrder("2.0 E", f"units move only in a Movement Phase; this is the "
                           f"{state['segment']} segment's {state['phase']} phase",
                           code="not-movement")
    piece = game.pieces.get(unit_id)
    if piece is None or unit_id not in state["units"]:
        raise IllegalOrder("5.0 A", f"{unit_id!r} is not a unit on the map", code="no-unit")
    if piece.side != state["player"]:
        raise IllegalOrder("5.0 A", f"{piece.name} is not a unit of the phasing side",
                           code="not-phasing")
    carried = state.get("carried", {}).get(unit_id)
    if carried:
        rule, by = ("20.1.3", "by sea") if carried == "sea" else ("5.4 A", "by rail")
        raise IllegalOrder(rule, f"{piece.name} moved {by} in this phase and may not "
                           "otherwise move", code="already-moved")
    try:
        path = [game.board.hex(x) for x in order.words("path")]
    except ValueError as exc:
        raise IllegalOrder("5.0 C", str(exc), code="bad-path") from None
    here = game.board.hex(state["units"][unit_id])
    if not path or path[0] != here:
        raise IllegalOrder("5.0", f"{piece.name} is in {game.board.label(here)}; its path must "
                           "start there", code="path-start")
    earlier = phase_path(game, state, unit_id)
    steps = overland_steps(game, state, unit_id, earlier + path[1:])[len(earlier) - 1:]
    for a, b in zip(path, path[1:], strict=False):
        check_hungary(state["turn"], game.country.get(b, ""))
        if piece.nationality == "finnish" and state["turn"] == 1 \
                and {game.country.get(a), game.country.get(b)} == {"finland", "soviet"}:
            raise IllegalOrder("15.2.2 A", "on Turn 1 no Finnish unit may move across the "
                               "Finnish-Soviet border", code="finnish-turn-1")
    check_room_at_the_end(game, state, unit_id, path[-1], moving_on=earlier + path[1:])
    labels = [game.board.label(h) for h in path]
    if game.since_0_3:  # 4.0 B at each hex it enters: occupation and zones (control.py)
        taken = control.along_path(game, state, unit_id, labels)
    else:  # module 0.2.0: only the hexes it occupied, each once
        taken = list(dict.fromkeys((game.board.label(h), piece.side) for h in path[1:]
                                   if control_of(game, state, h) != piece.side))
    ctx.emit("unit-moved", unit=unit_id, path=labels, mps=[s.cost for s in steps])
    for label, side in taken:
        ctx.emit("control-changed", hex=label, side=side)


def can_still_leave(game: Game, state: State, unit: str, path: list[Hex] | None) -> bool:
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


def check_room_at_the_end(game: Game, state: State, unit: str, there: Hex, *,
                          moving_on: list[Hex] | None) -> None:
    """3.3 A: stacking limits hold at the end of the Movement Phase, so a move that leaves
    a hex overstacked with no unit there able to move out any more is refused at once
    (the phase could never end). `moving_on`: the mover's path this phase, or None if
    it may not move again (rail, sea, placement)."""
    if state["phase"] != "movement":
        return
    problem = game.stacking_problem_with(state, unit, there)
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
    raise IllegalOrder("3.3 A", f"{label}: {problem}; no unit there could move out again "
                       "before the Movement Phase ends, when the limits apply",
                       code="overstacked")
