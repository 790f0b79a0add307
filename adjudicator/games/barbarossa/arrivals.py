"""1941 orders of the Air Segment and of the Movement Phase beside moving overland:
air negation (10.4), rail movement (5.4, 8.3 C, 15.2.4, 17.1.2) and reinforcements
entering play (14.1, 17.1.5)."""

from __future__ import annotations

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa import entry
from adjudicator.games.barbarossa.combat import negate_air
from adjudicator.games.barbarossa.game import Game, control_of, enemy_zones, other_side
from adjudicator.games.barbarossa.ground import (
    SupplyMap,
    in_supply,
    rail_supplied,
)
from adjudicator.games.barbarossa.movement import check_room_at_the_end
from adjudicator.games.barbarossa.strategic import (
    Eliminated,
    check_hungary,
    check_rail_capacity,
    check_rail_path,
    check_replacements,
)
from adjudicator.games.barbarossa.supply import supply_map


def negate(ctx: StepContext, order: Order) -> None:
    """10.4: in its Air Segment the phasing side negates the other side's air points."""
    state = ctx.state
    if state["phase"] != "air":
        raise IllegalOrder("10.4", "air points are negated in the Air Segment",
                           code="not-air")
    side = state["player"]
    try:
        points = int(order.get("points"))
    except ValueError:
        raise IllegalOrder("10.4", "points is a number of air points", code="bad-points") \
            from None
    mine, theirs = negate_air(state["air"][side], state["air"][other_side(side)], points)
    ctx.emit("air-negated", side=side, points=points, left={side: mine, other_side(side): theirs})


def option(state: State, name: str) -> bool:
    return bool(state.get("options", {}).get(name) == "yes")


def partisans(ctx: StepContext, order: Order) -> None:
    """20.2: the Soviets declare partisans for the coming game turn (at its start), cutting
    the Axis rail capacity to one corps; twice a game, not before Turn 3; and on every
    turn of 1942 besides (20.4.3)."""
    state = ctx.state
    if not option(state, "partisans"):
        raise IllegalOrder("20.2", "the partisan rule (20.2) is not in play in this game",
                           code="option-off")
    if state["player"] != "soviet":
        raise IllegalOrder("20.2 A", "the Soviets declare partisans in their player turn, "
                           "for the game turn that follows", code="not-soviet")
    turn = state["turn"] + 1
    if turn < 3:
        raise IllegalOrder("20.2 C", "partisans may not be used before Turn 3",
                           code="partisans-early")
    used = state.get("partisans", {}).get("used", 0)
    if turn < 8 and used >= 2:
        raise IllegalOrder("20.2 C", "the Soviets may use partisans only twice per game "
                           "(and on every turn of 1942)", code="partisans-spent")
    ctx.emit("partisans-declared", turn=turn, counts=turn < 8)


def bomb_rail(ctx: StepContext, order: Order) -> None:
    """20.3: in its Air Segment Germany spends air points on Soviet railroads, each cutting
    the Soviet rail capacity by two units for the turn."""
    state = ctx.state
    if not option(state, "rail-bombing"):
        raise IllegalOrder("20.3", "the railroad bombing rule (20.3) is not in play",
                           code="option-off")
    if state["player"] != "axis" or state["phase"] != "air":
        raise IllegalOrder("20.3", "Germany bombs railroads in its Air Segment",
                           code="not-air")
    points = int(order.get("points", "0") or 0)
    if not 1 <= points <= state["air"]["axis"]:
        raise IllegalOrder("20.3", f"Germany has {state['air']['axis']} air points, not "
                           f"{points}", code="air-points")
    ctx.emit("rail-bombed", points=points, turn=str(state["turn"]))


def air_supply(ctx: StepContext, order: Order) -> None:
    """20.5: in its Air Segment Germany supplies a German unit by air for the whole
    player turn: one air point for a corps, two for a group or an army."""
    state, game = ctx.state, Game.of(ctx.module)
    if not option(state, "air-supply"):
        raise IllegalOrder("20.5", "the German air supply rule (20.5) is not in play",
                           code="option-off")
    if state["player"] != "axis" or state["phase"] != "air":
        raise IllegalOrder("20.5 A", "Germany supplies by air in its Air Segment",
                           code="not-air")
    unit = order.get("unit")
    piece = game.pieces.get(unit)
    if piece is None or unit not in state["units"] or piece.nationality != "german":
        raise IllegalOrder("20.5 A", f"{unit!r} is not a German unit on the map",
                           code="not-german")
    cost = 1 if piece.size == "corps" else 2
    if state["air"]["axis"] < cost:
        raise IllegalOrder("20.5 A", f"supplying {piece.name} by air costs {cost} air "
                           f"points; {state['air']['axis']} are left", code="air-points")
    ctx.emit("air-supplied", unit=unit, points=cost)


def rail(ctx: StepContext, order: Order) -> None:
    """5.4: a supplied unit moves by rail along connected railroads in friendly territory,
    never in an enemy ZOC, instead of moving overland, within the side's capacity."""
    state, game = ctx.state, Game.of(ctx.module)
    unit = order.get("unit")
    piece = game.pieces.get(unit)
    if state["phase"] != "movement":
        raise IllegalOrder("5.4 A", "rail movement is made in a Movement Phase",
                           code="not-movement")
    if piece is None or unit not in state["units"] or piece.side != state["player"]:
        raise IllegalOrder("5.4 A", f"{unit!r} is not a unit of the phasing side on the map",
                           code="no-unit")
    if unit in state["moved"]:
        raise IllegalOrder("5.4 A", f"{piece.name} has already moved in this phase"
                           + ("; a unit that moves by rail may not otherwise move in the same "
                              "phase" if game.since_0_3 else ""), code="already-moved")
    if unit in state.get("unsupplied", []):
        raise IllegalOrder("8.3 C", f"{piece.name} is unsupplied and may not use rail "
                           "movement", code="unsupplied-rail")
    try:
        path = [game.board.hex(x) for x in order.words("path")]
    except ValueError as exc:
        raise IllegalOrder("5.4 C", str(exc), code="bad-path") from None
    if not path or game.board.label(path[0]) != state["units"][unit]:
        raise IllegalOrder("5.4 A", f"{piece.name} starts its rail move where it stands, "
                           f"{state['units'][unit]}", code="path-start")
    side = piece.side
    special = False
    if piece.nationality == "finnish" and state["turn"] > 1:  # Turn 1: 17.1.2 A first
        special = state["rail_used"]["finnish"] == 0 and traces_supply(
            game, state, path[0], "finnish", by_rail_only=True)  # 15.2.4 A
        if not special and not traces_supply(game, state, path[0], "axis"):
            raise IllegalOrder("15.2.4 B", f"{piece.name} may use the regular Axis rail "
                               "capacity only with a supply line to an Axis supply source on "
                               "the west edge (and the one special Finnish move a turn needs "
                               "a line entirely by rail to Helsinki)", code="finnish-rail")
    used, finnish = check_rail_capacity(
        side, state["rail_used"][side], piece.size, turn=state["turn"],
        finnish=special, finnish_used=state["rail_used"]["finnish"],
        partisans=state.get("partisans", {}).get("active") == state["turn"],
        bombed=state.get("rail_bombed", {}).get(str(state["turn"]), 0))
    friendly = [h for h in game.board if control_of(game, state, h) == side]
    zones = enemy_zones(game, state, side)
    def why_not_friendly(h: Hex) -> str:  # 5.4 B in words (module 0.3.0)
        if h in zones.occupied:
            return "occupied by enemy units"
        return f"{'Soviet' if control_of(game, state, h) == 'soviet' else 'Axis'} controlled"

    check_rail_path(game.board, path, rail=lambda a, b: "rail" in game.board.features(a, b),
                    friendly=set(friendly) - zones.occupied, enemy_zoc=zones.any,
                    why_not_friendly=why_not_friendly if game.since_0_3 else None)
    check_room_at_the_end(game, state, unit, path[-1], moving_on=None)  # 3.3 A
    ctx.emit("unit-railed", unit=unit, path=[game.board.label(h) for h in path],
             used={side: used, "finnish": finnish})


def traces_supply(game: Game, state: State, h: Hex, kind: str, *,
                  by_rail_only: bool = False) -> bool:
    """15.2.4: whether an Axis unit in `h` traces a supply line to the friendly supply
    sources of `kind` (axis: the west edge; finnish: Helsinki), or entirely by rail."""
    sources = frozenset(s for s, k in game.supply.items()
                        if k == kind and control_of(game, state, s) == "axis")
    terrain = supply_map(game, state, "axis", sources)
    railheads = rail_supplied(game.board, terrain)
    return h in railheads if by_rail_only else in_supply(game.board, h, terrain, railheads)


def entry_hexes(game: Game, state: State, unit: str) -> list[Hex]:
    """14.1.1-14.1.2, 17.1.5: where a reinforcement may enter this turn."""
    piece = game.pieces[unit]
    side = piece.side
    occupied = {game.board.hex(x) for u, x in state["units"].items()
                if game.pieces[u].side != side}
    if piece.deploy == "1:Od":  # 17.1.5 A
        odessa = game.city("Odessa")
        return [odessa] if control_of(game, state, odessa) == "soviet" else []
    if side == "axis":  # 14.1.1 A: friendly clear or rough hexes of the west edge (1.1)
        west_edge = max(game.board.grid.to_offset(h)[1] for h in game.board)
        return [h for h in game.board if game.board.grid.to_offset(h)[1] == west_edge
                and game.board.terrain[h] in ("clear", "rough")
                and control_of(game, state, h) == "axis" and h not in occupied
                and not (state["turn"] == 1 and game.country.get(h) == "hungary")]  # 15.1
    sources = [h for h, kind in game.supply.items() if kind == "soviet"
               and control_of(game, state, h) == "soviet" and h not in occupied]
    if piece.deploy == "1:E":  # 17.1.5 B
        return sources
    if state["moved"]:  # 14.1.2.2 D: cities only before any unit moves in the phase
        return sources
    # 14.1.2.2: a friendly major city of the Soviet Union that traces to the east edge
    terrain: SupplyMap = supply_map(game, state, "soviet", frozenset(sources))
    railheads = rail_supplied(game.board, terrain)
    cities = [h for h, kind in game.cities.items() if kind == "major"
              and game.country[h] == "soviet" and control_of(game, state, h) == "soviet"
              and h not in occupied and in_supply(game.board, h, terrain, railheads)]
    return sorted(set(sources) | set(cities))


def enter(ctx: StepContext, order: Order) -> None:
    """14.1.3 A: the phasing side's reinforcements of this turn enter in the Movement
    Phase of its First Ground Segment, at a hex 14.1.1-14.1.2 allows, within the stacking
    limits (14.1.2.2 E)."""
    state, game = ctx.state, Game.of(ctx.module)
    unit = order.get("unit")
    piece = game.pieces.get(unit)
    if (state["segment"], state["phase"]) != ("first", "movement"):
        raise IllegalOrder("14.1.3 A", "reinforcements enter in the Movement Phase of the "
                           "First Ground Segment", code="not-entry-phase")
    if piece is None or piece.side != state["player"] \
            or unit not in state["arriving"].get(str(state["turn"]), []):
        raise IllegalOrder("14.1 C", f"{unit!r} is not a reinforcement of the phasing side "
                           f"for Turn {state['turn']}", code="not-arriving")
    try:
        where = game.board.hex(order.get("hex"))
    except ValueError as exc:
        raise IllegalOrder("14.1", str(exc), code="bad-hex") from None
    check_hungary(state["turn"], game.country.get(where, ""))  # 15.1 A
    edge = piece.side == "axis" or where in [h for h, kind in game.supply.items()
                                             if kind == "soviet"]
    if not game.since_0_3 and not edge and state["moved"] and piece.deploy != "1:Od":
        raise IllegalOrder("14.1.2.2 D", "reinforcements appearing at major cities must be "
                           "placed before any units move in the phase", code="city-entry-late")
    allowed = entry_hexes(game, state, unit)
    if where not in allowed and game.since_0_3:  # the condition that fails, in words
        raise entry.why_not(game, state, unit, where)
    if where not in allowed:
        rule = {"1:Od": "17.1.5 A", "1:E": "17.1.5 B"}.get(piece.deploy, "14.1.1 A"
                                                            if piece.side == "axis"
                                                            else "14.1.2")
        raise IllegalOrder(rule, f"{piece.name} may not enter at {game.board.label(where)}",
                           code="bad-entry")
    label = game.board.label(where)
    if edge:  # 3.3 A: stacking counts at the end of the phase; the unit may move on
        check_room_at_the_end(game, state, unit, where, moving_on=[where])
    else:  # 3.3 C, 14.1.2.2 E: stacking holds where units are placed at cities
        problem = game.stacking_problem_with(state, unit, where)
        if problem:
            raise IllegalOrder("14.1.2.2 E", f"{label}: {problem}", code="overstacked")
    # 14.1.1 B, 14.1.2.1 B: entering from a map edge costs the hex's MPs (a major city
    # costs nothing, 14.1.2.2 C); the unit moves on with the rest, or by rail from a
    # supply source, counted against the rail capacity (14.1.1 C-D, 14.1.2.1 C)
    cost = entry_cost(game, state, unit, where) if edge and piece.deploy != "1:Od" else 0
    ctx.emit("unit-entered", unit=unit, hex=label, turn=str(state["turn"]), mps=cost)


def entry_cost(game: Game, state: State, unit: str, where: Hex) -> int:
    """14.1.1 B, 14.1.2.1 B: a unit entering from a map edge pays for its entry hex."""
    piece = game.pieces[unit]
    cost = game.charts.enter_cost(game.board.terrain[where], piece.armor, state["weather"],
                                  water=game.water.get(where), special=piece.special)
    return cost or 0


def missing_reinforcements(ctx: StepContext) -> None:
    """14.1.3 C-D at the end of the First Movement Phase: a reinforcement that could have
    entered must have; one that could not is eliminated."""
    state, game = ctx.state, Game.of(ctx.module)
    due = [u for u in state["arriving"].get(str(state["turn"]), [])
           if game.pieces[u].side == state["player"]]
    can_enter = [u for u in due if entry_hexes(game, state, u)]
    if can_enter:
        names = ", ".join(f"{game.pieces[u].name} ({u})" for u in can_enter)
        raise IllegalOrder("14.1.3 C", f"{names} must enter this turn; reinforcements may "
                           "not be delayed", code="reinforcement-due")
    for unit in due:
        ctx.emit("unit-eliminated", unit=unit, rule="14.1.3 D")


MOSCOW_HELD = "Moscow (1808) is Axis controlled (14.2.4 B)"
MOSCOW_RETAKEN = ("Moscow (1808) was Axis controlled when this turn's replacements came, and "
                  "the rate returns to normal only on the turns after its recapture (14.2.4 B)")


def judge_replacement_rate(ctx: StepContext) -> None:
    """14.2.4 B (module 0.3.0): "If the Soviets recapture Moscow, the replacement rate
    returns to normal on following turns." The rate of a turn is judged when the Soviet
    First Movement Phase begins, in which the replacements come (14.2.3 A): if Moscow is
    Axis controlled then, the turn's rate stays reduced even if Moscow is retaken before
    the replacements are taken (RULES-ISSUES 57)."""
    state, game = ctx.state, Game.of(ctx.module)
    if not game.since_0_3 or state["player"] != "soviet" \
            or game.charts.turn(state["turn"]).replacements == "none":
        return
    if control_of(game, state, game.city("Moscow")) == "axis":
        ctx.emit("replacements-reduced", turn=state["turn"], rule="14.2.4 B",
                 hex=game.board.label(game.city("Moscow")))


def replacement_kind(game: Game, unit: str) -> str:
    """14.2.2 A: infantry-type units, tank corps, tank groups."""
    piece = game.pieces[unit]
    if not piece.armor:
        return "infantry"
    return "tank group" if piece.size == "group" else "tank corps"


def replace(ctx: StepContext, order: Order) -> None:
    """14.2: from Turn 3 (August 1941) the Soviets return eliminated units to play in the
    Movement Phase of their First Ground Segment, within the turn's allowance, at a
    friendly supply source on the east edge (14.2.3: never at a major city)."""
    state, game = ctx.state, Game.of(ctx.module)
    unit = order.get("unit")
    piece = game.pieces.get(unit)
    if state["player"] != "soviet" or (state["segment"], state["phase"]) != ("first",
                                                                           "movement"):
        raise IllegalOrder("14.2.3 A", "replacements enter in the Movement Phase of the "
                           "Soviet First Ground Segment", code="not-replacement-phase")
    if game.charts.turn(state["turn"]).replacements == "none":
        raise IllegalOrder("14.2.1", f"the Soviets receive no replacements on Turn "
                           f"{state['turn']} (only from Turn 3, August 1941)",
                           code="no-replacements")
    if piece is None or piece.side != "soviet" or unit not in state["eliminated"] \
            or unit in state["units"]:
        raise IllegalOrder("14.2.2 C", f"{unit!r} is not an eliminated Soviet unit",
                           code="not-eliminated")
    taken = [*state.get("replaced", []), unit]
    moscow_axis = control_of(game, state, game.city("Moscow")) == "axis"
    reduced = game.since_0_3 and state.get("replacements_reduced") == state["turn"]
    check_replacements(
        [Eliminated(u, game.pieces[u].attack, replacement_kind(game, u)) for u in taken],
        moscow_lost=moscow_axis or reduced, year_1942=state["turn"] >= 8,
        why="" if not game.since_0_3 else MOSCOW_HELD if moscow_axis else MOSCOW_RETAKEN
        if reduced else "")
    try:
        where = game.board.hex(order.get("hex"))
    except ValueError as exc:
        raise IllegalOrder("14.2.3 A", str(exc), code="bad-hex") from None
    sources = [h for h, kind in game.supply.items() if kind == "soviet"
               and control_of(game, state, h) == "soviet"]
    if where not in sources:
        allowed = ", ".join(game.board.label(h) for h in sorted(sources))
        if game.since_0_3:
            raise replacement_entry_refusal(game, state, where, allowed)
        raise IllegalOrder("14.2.3 B", f"replacements enter at a friendly supply source on "
                           f"the east edge ({allowed}), not {game.board.label(where)}",
                           code="bad-entry")
    check_room_at_the_end(game, state, unit, where, moving_on=[where])  # 3.3 A
    # 14.2.3 A: as a reinforcement at the east edge, it pays for its entry hex
    ctx.emit("unit-replaced", unit=unit, hex=game.board.label(where),
             mps=entry_cost(game, state, unit, where))


def replacement_entry_refusal(game: Game, state: State, where: Hex, allowed: str) -> IllegalOrder:
    """14.2.3 (module 0.3.0): why a replacement may not enter at `where`, under the rule
    that says so: never at a major city (B); only at a friendly controlled supply source on
    the east map edge (A)."""
    at = entry.place(game, where)
    if game.cities.get(where) == "major":
        return IllegalOrder("14.2.3 B", f"Soviet replacements may not enter at major cities "
                            f"such as {at}; they enter at a friendly supply source on the east "
                            f"edge ({allowed})", code="bad-entry")
    why = "is Axis controlled" if game.supply.get(where) == "soviet" else \
        "is not a supply source on the east edge"
    return IllegalOrder("14.2.3 A", f"Soviet replacements enter from the east map edge, at a "
                        f"friendly controlled supply source ({allowed}); {at} {why}",
                        code="bad-entry")
