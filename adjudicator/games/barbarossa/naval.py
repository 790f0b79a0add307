"""1941 optional rule 20.1, Soviet Naval Abilities: the Baltic Sea Fleet carries one
infantry-type unit per Soviet Movement Phase across the all-sea hexside Leningrad-0713
(20.1.1); the Black Sea Fleet, once per Soviet Ground Segment, carries one
infantry-type unit port to port or across an all-sea hexside of the Black Sea and the
Sea of Azov, or lets one attack across such a hexside as across a river (20.1.2); a unit
carried moves no other way that phase (20.1.3); Germany neutralizes a fleet for good
with three air points, by holding 0713, or by holding every Soviet Black Sea port
(20.1.4)."""

from __future__ import annotations

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa.control import control_of
from adjudicator.games.barbarossa.data import Fleet, GameData
from adjudicator.games.barbarossa.movement import check_room_at_the_end
from adjudicator.games.barbarossa.optional import option
from adjudicator.games.barbarossa.orders import Disband, Neutralize, SeaMove
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.stacking import problem_in
from adjudicator.games.barbarossa.vocabulary import (
    Country,
    EventKind,
    Feature,
    Option,
    Phase,
    Side,
)

NEUTRALIZING_AIR_POINTS = 3  # 20.1.4 A
PROHIBITED = "prohibited"  # the TEC's combat effect that forbids an attack (7.6 A)


def fleet_ready(state: State, fleet: Fleet) -> bool:
    return option(state, Option.NAVAL) and fleet.id not in state.get("neutralized", [])


def all_sea_waters(game: GameData, a: Hex, b: Hex) -> frozenset[str]:
    """The waters of an all-sea hexside (none if a and b share no all-sea hexside)."""
    if not game.board.grid.adjacent(a, b) or Feature.ALL_SEA not in game.board.features(a, b):
        return frozenset()
    return game.hexside_waters(a, b)


def ports(game: GameData, fleet: Fleet) -> list[Hex]:
    """20.1.2 A: a port is any city in a coastal hex; the fleet's are on its waters."""
    def on_its_waters(h: Hex) -> bool:
        return any(game.water.get(n) in fleet.waters for n in game.board.neighbours(h)) \
            or any(all_sea_waters(game, h, n) & fleet.waters for n in game.board.neighbours(h))
    return sorted(h for h in game.cities if on_its_waters(h))


def used_this_segment(state: State, fleet: Fleet) -> bool:
    return fleet.id in state.get("fleets_used", [])


def check_fleet(state: State, fleet: Fleet, rule: str) -> None:
    """20.1.1 B, 20.1.2 B, 20.1.1 A, 20.1.2 A: neutralized, or already used."""
    if not option(state, Option.NAVAL):
        raise CATALOGUE.refuse("option-off", "20.1", "the Soviet naval rule (20.1) is not in "
                               "play in this game")
    if fleet.id in state.get("neutralized", []):
        raise CATALOGUE.refuse("fleet-neutralized", rule[:-2] + " B", f"the {fleet.name} is "
                               "neutralized (20.1.4) and may not be used for the rest of the "
                               "game")
    if used_this_segment(state, fleet):
        when = "Movement Phase" if fleet.crossing else "Soviet Ground Segment"
        raise CATALOGUE.refuse("fleet-used", rule, f"the {fleet.name} has already been used in "
                               f"this {when}")


def carrying_fleet(game: GameData, state: State, here: Hex, there: Hex) -> tuple[Fleet, str]:
    """Which fleet may carry a unit from `here` to `there`, and under which rule."""
    routes = []
    for fleet in game.fleets.values():
        if fleet.crossing:  # 20.1.1 A
            if fleet.crossing == {here, there}:
                return fleet, "20.1.1 A"
            a, b = sorted(game.board.label(h) for h in fleet.crossing)
            routes.append(f"the {fleet.name} crosses only the all-sea hexside {a}-{b}")
            continue
        if all_sea_waters(game, here, there) & fleet.waters:  # 20.1.2 A
            return fleet, "20.1.2 A"
        harbours = [p for p in ports(game, fleet) if control_of(game, state, p) == Side.SOVIET]
        if here in harbours and there in harbours and here != there:
            return fleet, "20.1.2 A"
        routes.append(f"the {fleet.name} crosses one all-sea hexside of "
                      f"{' or '.join(sorted(fleet.waters))}, or sails between two "
                      "Soviet-controlled ports there")
    raise CATALOGUE.refuse("no-sea-route", "20.1.2 A", f"no Soviet fleet sails from "
                           f"{game.board.label(here)} to {game.board.label(there)}: "
                           f"{'; '.join(routes)}")


def sea_move(ctx: StepContext, order: SeaMove) -> None:
    """20.1.1 A, 20.1.2 A, 20.1.3: in a Soviet Movement Phase a fleet carries one
    infantry-type unit that has not moved, and it moves no further in the phase."""
    state, game = ctx.state, GameData.of(ctx.module)
    unit = order.unit
    piece = game.pieces.get(unit)
    if state["player"] != Side.SOVIET or state["phase"] != Phase.MOVEMENT:
        raise CATALOGUE.refuse("not-movement", "20.1.2 A", "the Soviet fleets carry units in a "
                               "Soviet Movement Phase")
    if piece is None or unit not in state["units"] or piece.side != Side.SOVIET:
        # 20.1 A: "the Soviets have some limited naval abilities" (module 0.3.0; 20.1.1 A
        # before, the Baltic Sea Fleet's rule, also for the Black Sea)
        raise CATALOGUE.refuse("no-unit", "20.1 A" if game.since_0_3 else "20.1.1 A",
                               f"{unit!r} is not a Soviet unit on the map")
    if piece.armor and not game.since_0_3:
        raise CATALOGUE.refuse("not-infantry", "20.1.1 A", f"{piece.name} is armor-type; the "
                               "fleets carry infantry-type units only")
    if unit in state["moved"]:
        raise CATALOGUE.refuse("already-moved", "20.1.3", f"{piece.name} has already moved in "
                               "this phase; a unit carried by a fleet may not otherwise move "
                               "in the phase")
    try:
        there = game.board.hex(order.to)
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "20.1.2 A", str(exc)) from None
    here = game.board.hex(state["units"][unit])
    fleet, rule = carrying_fleet(game, state, here, there)
    if piece.armor:  # module 0.3.0: the rule of the fleet asked for (20.1.1 A or 20.1.2 A)
        raise CATALOGUE.refuse("not-infantry", rule, f"{piece.name} is armor-type; the "
                               f"{fleet.name} carries infantry-type units only")
    check_fleet(state, fleet, rule)
    label = game.board.label(there)
    if game.is_water(there):
        raise CATALOGUE.refuse("not-land", "20.1.2 A", f"the unit must end its move on a land "
                               f"hex; {label} is water")
    if any(x == label and game.pieces[u].side != Side.SOVIET for u, x in state["units"].items()):
        raise CATALOGUE.refuse("enemy-hex", "5.0 E", f"{piece.name} may never enter {label}: "
                               "enemy units occupy it")
    check_room_at_the_end(game, state, unit, there, moving_on=None)  # 3.3 A
    ctx.emit(EventKind.UNIT_SHIPPED, unit=unit, fleet=fleet.id,
             path=[state["units"][unit], label], rule=rule)
    if control_of(game, state, there) != Side.SOVIET:  # 4.0 B
        ctx.emit(EventKind.CONTROL_CHANGED, hex=label, side=Side.SOVIET.value)


def naval_attacker(game: GameData, state: State, unit: str, target: Hex) -> str | None:
    """7.6 A with 20.1.2 A: the fleet an attacker crosses an all-sea hexside with, or
    IllegalOrder when the Terrain Effects Chart prohibits its attack."""
    here = game.board.hex(state["units"][unit])
    features = game.board.features(here, target)
    prohibited = [f for f in sorted(features)
                  if (row := game.charts.combat_effect(f, state["weather"],
                                                       game.hexside_water(here, target)))
                  is not None and row.effect == PROHIBITED]
    if not prohibited:
        return None
    piece = game.pieces[unit]
    fleet = next((f for f in game.fleets.values()
                  if f.waters and all_sea_waters(game, here, target) & f.waters), None)
    if fleet is None or not option(state, Option.NAVAL) or piece.side != Side.SOVIET:
        raise CATALOGUE.refuse("prohibited-attack", "7.6 A", f"{piece.name} may not attack from "
                               f"{game.board.label(here)} across the {prohibited[0]} hexside "
                               f"into {game.board.label(target)}: the Terrain Effects Chart "
                               "prohibits it")
    if piece.armor:
        raise CATALOGUE.refuse("not-infantry", "20.1.2 A", f"{piece.name} is armor-type; the "
                               f"{fleet.name} supports the attack of an infantry-type unit "
                               "only")
    check_fleet(state, fleet, "20.1.2 A")
    return fleet.id


def neutralize(ctx: StepContext, order: Neutralize) -> None:
    """20.1.4 A-B: in its Air Segment Germany neutralizes a fleet for the rest of the
    game by spending three air points on it at once."""
    state, game = ctx.state, GameData.of(ctx.module)
    if not option(state, Option.NAVAL):
        raise CATALOGUE.refuse("option-off", "20.1", "the Soviet naval rule (20.1) is not in "
                               "play in this game")
    if state["player"] != Side.AXIS or state["phase"] != Phase.AIR:
        raise CATALOGUE.refuse("not-air", "20.1.4 A", "Germany neutralizes a fleet in the "
                               "German Air Segment")
    fleet = game.fleets.get(order.fleet)
    if fleet is None:
        raise CATALOGUE.refuse("no-fleet", "20.1.4 A", f"there is no fleet {order.fleet!r}; the "
                               f"fleets are {', '.join(game.fleets)}")
    if fleet.id in state.get("neutralized", []):
        raise CATALOGUE.refuse("fleet-neutralized", "20.1.4 B", f"the {fleet.name} is already "
                               "neutralized")
    if state["air"][Side.AXIS] < NEUTRALIZING_AIR_POINTS:
        raise CATALOGUE.refuse("air-points", "20.1.4 A", f"neutralizing the {fleet.name} takes "
                               f"three air points in one Air Segment; Germany has "
                               f"{state['air'][Side.AXIS]}")
    ctx.emit(EventKind.FLEET_NEUTRALIZED, fleet=fleet.id, points=NEUTRALIZING_AIR_POINTS,
             rule="20.1.4 A")


def neutralize_by_control(ctx: StepContext) -> None:
    """20.1.4 C-D: Germany neutralizes the Baltic Sea Fleet when it ever controls 0713,
    the Black Sea Fleet when it ever controls every Soviet port on those waters at once."""
    state, game = ctx.state, GameData.of(ctx.module)
    for fleet in game.fleets.values():
        if not fleet_ready(state, fleet):
            continue
        if fleet.base is not None:
            held = [fleet.base]
            rule = "20.1.4 C"
        else:
            held = [p for p in ports(game, fleet) if game.country.get(p) == Country.SOVIET_UNION]
            rule = "20.1.4 D"
        if held and all(control_of(game, state, h) == Side.AXIS for h in held):
            ctx.emit(EventKind.FLEET_NEUTRALIZED, fleet=fleet.id, points=0, rule=rule)


def neutralized_bases(game: GameData, state: State) -> list[str]:
    """20.1.1 B: the hexes of neutralized fleets, no longer fortifications hexes."""
    return sorted(game.board.label(f.base) for f in game.fleets.values()
                  if f.base is not None and f.id in state.get("neutralized", []))


def disband(ctx: StepContext, order: Disband) -> None:
    """20.1.1 B: once the Baltic Sea Fleet is neutralized the Soviets meet the stacking
    limits in 0713 by the end of their next Movement Phase, or eliminate units there
    until they do."""
    state, game = ctx.state, GameData.of(ctx.module)
    unit = order.unit
    piece = game.pieces.get(unit)
    bases = set(neutralized_bases(game, state))
    where = state["units"].get(unit)
    if state["player"] != Side.SOVIET or state["phase"] != Phase.MOVEMENT or piece is None \
            or where not in bases:
        base = ", ".join(sorted(game.board.label(f.base) for f in game.fleets.values()
                                if f.base is not None))
        raise CATALOGUE.refuse("no-disband", "20.1.1 B", "the Soviets eliminate units only in "
                               f"the hex of a neutralized fleet ({base}), in a Soviet Movement "
                               f"Phase, and {unit!r} is not a unit there")
    if problem_in(game, state, where, Side.SOVIET) is None:
        raise CATALOGUE.refuse("no-disband", "20.1.1 B", f"{where} is within the stacking "
                               "limits; no unit there needs to be eliminated")
    ctx.emit(EventKind.UNIT_ELIMINATED, unit=unit, rule="20.1.1 B")


def check_base_stacking(ctx: StepContext) -> None:
    """20.1.1 B: at the end of a Soviet Movement Phase the hex of the neutralized Baltic
    Sea Fleet is within the stacking limits, as every other hex (3.0)."""
    state, game = ctx.state, GameData.of(ctx.module)
    if state["player"] != Side.SOVIET:
        return
    for fleet in game.fleets.values():
        if fleet.base is None or fleet.id not in state.get("neutralized", []):
            continue
        label = game.board.label(fleet.base)
        problem = problem_in(game, state, label, Side.SOVIET)
        if problem:
            raise CATALOGUE.refuse("overstacked", "20.1.1 B", f"{label} is no longer a "
                                   f"fortifications hex now that the {fleet.name} is "
                                   f"neutralized, and {problem}: move units out, or eliminate "
                                   'some there with <disband unit="ID"/>, before the Movement '
                                   "Phase ends")
