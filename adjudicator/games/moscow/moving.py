"""Moscow '41 Movement Phase orders on the game's own position: `<move units= path=>`
(4.0-4.8, 6.0-6.4 through movement.py, with 9.0 B-9.1 supply when a unit begins to
move, 11.3 interdiction, 15.1 A and 15.2 A weather), the order of movers (3.1.1 A,
4.5 C-F) and the stacking limit at the end of the phase (4.6 B-C, 3.2 B).

A unit's or a stack's move may be given in several `move` orders (legs): each goes on
where the last stopped, with what the units have spent. Once another unit or stack
moves, the ones before have finished (3.1.1 A); the units of a stack may split off and
move in legs of their own meanwhile (4.5 C-F).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from adjudicator.engine.decisions import DecisionRequest
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.module import ModuleData
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext, next_decision_id, request_decision
from adjudicator.games.moscow.game import RULES_0_2_0, Game, other_side
from adjudicator.games.moscow.logistics import (
    SOVIET_SETUP_STACK,
    STACKING_LIMIT,
    SupplyLines,
    SupplyRates,
    supply_network,
    supply_sources,
)
from adjudicator.games.moscow.movement import (
    EnemyZones,
    Mover,
    Unit,
    check_stack_move,
    movement_allowance,
)
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.terrain import Terrain


def unit_facts(game: Game, state: State, unit: str) -> tuple[str, str, int, bool]:
    """Side, type, printed MA and Siberian marking of a unit or an untried token (its
    untried face shows type and MA, 12.1)."""
    face = state["tokens"].get(unit)
    if face is not None:
        return "soviet", face["type"], face["movement"], face["siberian"]
    piece = game.pieces[unit]
    return piece.side, piece.type, piece.movement, piece.siberian


def units_of(game: Game, state: State, side: str) -> list[Unit]:
    return [Unit(u, s, t, game.board.hex(x)) for u, x in sorted(state["units"].items())
            for s, t, _, _ in [unit_facts(game, state, u)] if s == side]


def supply_lines(game: Game, terrain: Terrain, state: State, side: str) -> SupplyLines:
    """9.3-9.4 and 11.3: what a supply line of `side` may use now."""
    enemies = units_of(game, state, other_side(side))
    sides = {h: game.side_of[h] for h in game.places}  # 9.4: the side each lies on
    occupied = {game.board.hex(x): s for x, s in state["last_occupied"].items()}
    return SupplyLines(
        side, supply_sources(sides, side, occupied),
        frozenset(h for h, (_, kind) in game.places.items() if kind == "city"),
        frozenset(u.hex for u in enemies), EnemyZones.of(terrain, enemies).zoc,
        frozenset(u.hex for u in units_of(game, state, side)),
        interdiction(game, state, side))


def interdiction(game: Game, state: State, side: str) -> dict[Hex, int]:
    """11.3 A-B: the air units interdicting each hex; they slow Soviet units only."""
    if side != "soviet":
        return {}
    return {game.board.hex(x): n for x, n in state["interdicted"].items()}


def left_behind(game: Game, state: State, side: str, units: list[str]) -> int:
    """6.0 B, 6.3: the friendly units that stay in the hex the moving units leave."""
    start = state["units"][units[0]]
    return sum(1 for u, x in state["units"].items() if x == start and u not in units
               and unit_facts(game, state, u)[0] == side)


def stacking_limit(ctx: StepContext, side: str) -> int:
    """4.6 A, 3.2 B: how many units of `side` a hex may hold when the limit is next
    checked: four, but two Soviet units through the German half of Turn 1 (the set-up's
    limit, 1.3.1 E, holds until normal stacking applies at the end of the first Soviet
    Movement Phase; RULES-ISSUES 14). Module 0.1.0 said four throughout."""
    state = ctx.state
    if side == "soviet" and state["turn"] == 1 and state["player"] == "german" \
            and ctx.module.at_least(RULES_0_2_0):
        return SOVIET_SETUP_STACK
    return STACKING_LIMIT


def limit_now(module: ModuleData, state: State, side: str) -> int:
    """1.3.1 E, 1.3.2 D, 3.2 B, 4.6 A: the units of `side` a hex may hold in this position:
    the set-up's two Soviet units a hex until the German half of Turn 1 is over (module
    0.1.0: until the set-up is), four otherwise."""
    if side == "soviet" and (state["phase"] in ("draw", "setup") or (
            state["turn"] == 1 and state["player"] == "german"
            and module.at_least(RULES_0_2_0))):
        return SOVIET_SETUP_STACK
    return STACKING_LIMIT


def check_not_finished(state: State, units: list[str]) -> None:
    """3.1.1 A, 4.5 D-E: a unit or stack that has finished moves no more this phase."""
    for unit in units:
        if unit in state["done"]:
            raise CATALOGUE.refuse("finished", "3.1.1 A",
                f"{unit} has finished its movement: another unit "
                "or stack has moved since (or, split off from its stack, the "
                "rest of the stack has, 4.5 D-E), and each finishes before the "
                "next moves")


def is_supplied(game: Game, terrain: Terrain, state: State, unit: str) -> bool:
    """9.0 A-F: a line of at most 5 MPs to a supply source or a road leading to one."""
    side, _, _, _ = unit_facts(game, state, unit)
    return game.board.hex(state["units"][unit]) in supplied_hexes(game, terrain, state, side)


def supplied_hexes(game: Game, terrain: Terrain, state: State, side: str) -> frozenset[Hex]:
    """9.0 A-F: the hexes where a unit of `side` is in supply now (`supply_network`),
    computed once for the facts it depends on (9.3-9.4, 11.3: where each side's units
    stand, who last occupied each town and city, the interdicted hexes) and kept until
    an event changes one of them."""
    occupied: dict[str, set[str]] = {"german": set(), "soviet": set()}
    for unit, label in state["units"].items():
        occupied[unit_facts(game, state, unit)[0]].add(label)
    key = ("supply", side, frozenset(occupied["german"]), frozenset(occupied["soviet"]),
           frozenset(state["last_occupied"].items()),
           frozenset(state["interdicted"].items()) if side == "soviet" else None)
    rates = game.memo.get("supply-rates", lambda: SupplyRates(
        game.board, frozenset(h for h, (_, kind) in game.places.items() if kind == "city"),
        terrain.enter_cost, terrain.mp_scale))
    return game.memo.get(key, lambda: supply_network(  # type: ignore[no-any-return]
        game.board, supply_lines(game, terrain, state, side), rates))


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


def check_end_of_movement(ctx: StepContext) -> None:
    """4.6 B-C: at the end of the Movement Phase no hex holds more than four units; the
    enemy player selects the units destroyed, one decision at a time. 3.2 B: the Soviet
    set-up limit of two a hex (1.3.1 E) gives way to normal stacking at the end of the
    first Soviet Movement Phase, so four is the limit there too (RULES-ISSUES 8, 14)."""
    state, game = ctx.state, Game.of(ctx.module)
    side = state["player"]
    limit = STACKING_LIMIT
    stacks: dict[str, list[str]] = {}
    for unit, label in sorted(state["units"].items()):
        if unit_facts(game, state, unit)[0] == side:
            stacks.setdefault(label, []).append(unit)
    for label, units in stacks.items():
        if len(units) > limit:
            request_decision(ctx, DecisionRequest(
                next_decision_id(state), other_side(side), "overstack-elimination", "4.6 C",
                units, {"hex": label, "limit": limit, "step": "overstack"}))


def answer_overstack(ctx: StepContext, context: dict[str, Any], choice: str) -> None:
    ctx.emit("unit-eliminated", unit=choice, rule="4.6 C")


# -- events ---------------------------------------------------------------------------------

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

