"""Movement: each unit may move to one of the areas behind it (through German-controlled
areas), including the (friendly) front-line area adjacent to its own. Garrisons cannot
move; a unit moving into an area containing a garrison removes it; if all units leave
an area that is not adjacent to a Soviet-controlled area, a garrison may be placed
there (optional rule: must be). There is no stacking limit.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.engine.orders import Order
from adjudicator.engine.search import Reached, reachable
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire import optional
from adjudicator.games.solitaire.control import (
    borders_soviet,
    german_area,
    occupied_areas,
)
from adjudicator.games.solitaire.data import Charts, charts_of
from adjudicator.games.solitaire.flow import enter_phase
from adjudicator.games.solitaire.orders import (
    Garrison,
    Move,
    known_area,
    not_a_garrison,
    unit_on_map,
)
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.restrictions import (
    check_allies_apart,
    check_romanian_line,
    update_control,
)
from adjudicator.games.solitaire.vocabulary import (
    RULES_1_1,
    EventKind,
    Nationality,
    Option,
    Phase,
    Rule,
    Switch,
)


def route_passable(charts: Charts, state: State, unit: str) -> Callable[[str], bool]:
    """The areas a unit's route may pass: German-controlled ones, south of the Romanian
    line for a Romanian unit (Restrictions)."""
    romanian = charts.nationality(unit) == Nationality.ROMANIAN
    return lambda a: german_area(state, a) and (not romanian or a in charts.romanian_allowed)


def routes(charts: Charts, state: State, unit: str, here: str) -> Reached[str, int]:
    """Every area a unit's route reaches from `here`, with the route (the kit's
    breadth-first search, the one `AreaBoard.path` makes)."""
    passable = route_passable(charts, state, unit)
    return reachable([here], charts.board.neighbours, lambda a, b: passable(b))


def move_unit(ctx: StepContext, order: Order) -> None:
    """Movement: a unit may move to one of the areas behind it (through
    German-controlled areas), or to a front-line area adjacent to its own. Each
    unit moves once; garrisons cannot move; a unit entering a garrisoned area
    removes the garrison."""
    charts = charts_of(ctx.module)
    move = Move.from_order(order)
    unit, to = move.unit, move.to
    enter_phase(ctx, Phase.MOVEMENT, f"move {unit}")
    if ctx.module.at_least(RULES_1_1):
        not_a_garrison(ctx.state, charts, unit, Rule.MOVEMENT,
                       f"move to {charts.name_of(to)}")
    here = unit_on_map(ctx.state, charts, unit, Rule.MOVEMENT)
    known_area(charts, to, Rule.MOVEMENT)
    if unit in ctx.state["moved"]:
        raise CATALOGUE.refuse("already-moved", Rule.MOVEMENT,
                               f"{unit} has already moved this turn")
    if to == here:
        raise CATALOGUE.refuse("no-move", Rule.MOVEMENT,
                               f"{unit} is already in {charts.name_of(to)}")
    if not german_area(ctx.state, to):
        raise CATALOGUE.refuse("soviet-area", Rule.MOVEMENT,
                               f"{charts.name_of(to)} is Soviet-controlled: units enter Soviet "
                               "areas only by attacking")
    check_romanian_line(charts, [unit], to, f"{unit} cannot move there")
    route = charts.board.path(here, to, route_passable(charts, ctx.state, unit))
    if route is None:
        raise CATALOGUE.refuse("no-route", Rule.MOVEMENT,
                               f"{unit} has no way from {charts.name_of(here)} to "
                               f"{charts.name_of(to)} through German-controlled areas")
    if borders_soviet(charts, ctx.state, to) and not charts.board.adjacent(here, to):
        raise CATALOGUE.refuse("front-too-far", Rule.MOVEMENT,
                               f"{charts.name_of(to)} is on the front line, and a unit may "
                               f"enter only a front-line area adjacent to its own "
                               f"({charts.name_of(here)} is not adjacent)")
    check_allies_apart(charts, ctx.state, [unit], to, f"{unit} cannot move there")
    if to in ctx.state["garrisons"]:
        ctx.emit(EventKind.GARRISON_REMOVED, area=to, reason=f"{unit} moved in",
                 rule=Rule.MOVEMENT)
    ctx.emit(EventKind.MOVED, unit=unit, **{"from": here}, to=to, route=route)
    update_control(ctx, charts, f"{unit} moved")
    garrison_if_mandatory(ctx, charts, [here])


def garrison_if_mandatory(ctx: StepContext, charts: Charts, left: list[str]) -> None:
    """Movement, optional rule: a garrison must be placed where all units left an
    area that is not adjacent to a Soviet-controlled area."""
    if ctx.state["options"][Option.MANDATORY_GARRISON] != Switch.YES:
        return
    for area in sorted(set(left)):
        if area not in occupied_areas(ctx.state) and german_area(ctx.state, area) \
                and not borders_soviet(charts, ctx.state, area):
            ctx.emit(EventKind.GARRISON_PLACED, area=area, rule=Rule.MANDATORY_GARRISON)


def place_garrison(ctx: StepContext, order: Order) -> None:
    """Movement: if all units leave an area that is not adjacent to a
    Soviet-controlled area, a garrison may be placed in that area (at the set-up of
    Free placement: optional.place_setup_garrison)."""
    charts = charts_of(ctx.module)
    area = Garrison.from_order(order).area
    known_area(charts, area, Rule.MOVEMENT)
    if ctx.state["phase"] == Phase.SETUP:
        optional.place_setup_garrison(ctx, charts, area)
        return
    if ctx.state["phase"] not in (Phase.MOVEMENT, Phase.ATTACK):
        raise CATALOGUE.refuse("phase-over", Rule.SEQUENCE,
                               "garrisons are placed when units leave an area, in the "
                               "movement or attack phase; that is over")
    if area not in ctx.state["vacated"]:
        raise CATALOGUE.refuse("not-vacated", Rule.MOVEMENT,
                               f"a garrison may be placed only where all units left this "
                               f"turn, and no unit left {charts.name_of(area)}")
    if area in occupied_areas(ctx.state):
        raise CATALOGUE.refuse("not-empty", Rule.MOVEMENT,
                               f"{charts.name_of(area)} is not empty")
    if not german_area(ctx.state, area) or borders_soviet(charts, ctx.state, area):
        raise CATALOGUE.refuse("garrison-at-front", Rule.MOVEMENT,
                               f"{charts.name_of(area)} is adjacent to a Soviet-controlled "
                               "area, so no garrison may be placed there")
    ctx.emit(EventKind.GARRISON_PLACED, area=area, rule=Rule.MOVEMENT)
