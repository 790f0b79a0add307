"""Reinforcements: the scenario's schedule (Winter 1942: the Italian 8th and Hungarian
2nd Armies; Summer 1942: the German 8th Army) and the units that return three turns
after their removal (eliminations.py). Only one reinforcement unit may enter a turn
(two in Winter 1942); the others enter later, first come first served. German units
enter at Berlin or Prague, Romanian at Bucharest, Hungarian at Budapest, Italian at
either of those two, and only if that area is not a front-line area.
"""

from __future__ import annotations

from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.control import borders_soviet, german_area, units_in
from adjudicator.games.solitaire.data import Charts, charts_of
from adjudicator.games.solitaire.flow import enter_phase
from adjudicator.games.solitaire.orders import Reinforce, known_area, known_unit
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.restrictions import allies_together, update_control
from adjudicator.games.solitaire.vocabulary import EventKind, Phase, Rule


def units_due(charts: Charts, state: State) -> tuple[list[str], dict[str, int]]:
    """The units waiting to enter that are due by now, those that waited longest first
    (of units due in the same turn, in the queue's order), and since when (turn index)."""
    turn = charts.turn(state["turn"])
    since = {entry["unit"]: charts.turn(entry["due"]).index for entry in state["queue"]
             if charts.turn(entry["due"]).index <= turn.index}
    return sorted(since, key=lambda u: since[u]), since


def place_reinforcement(ctx: StepContext, order: Order) -> None:
    """Reinforcements: one unit a turn (two in Winter 1942) enters, first come first
    served (units due in the same turn in the player's order), at its nationality's entry
    area if that area is not on the front line."""
    charts = charts_of(ctx.module)
    spec = Reinforce.from_order(order)
    unit, area = spec.unit, spec.area
    enter_phase(ctx, Phase.REINFORCEMENT, f"place {unit}")
    known_unit(charts, unit, Rule.REINFORCEMENTS)
    known_area(charts, area, Rule.REINFORCEMENTS)
    turn = charts.turn(ctx.state["turn"])
    due, since = units_due(charts, ctx.state)
    if unit not in due:
        raise CATALOGUE.refuse("not-due", Rule.REINFORCEMENTS,
                               f"{unit} is not a reinforcement due this turn (due now: "
                               f"{', '.join(due) or 'none'})")
    if ctx.state["entered"] >= turn.reinforcements:
        raise CATALOGUE.refuse("too-many-reinforcements", Rule.REINFORCEMENTS,
                               f"only {turn.reinforcements} reinforcement unit(s) may enter "
                               f"in {turn.name}; the others enter later")
    problem = entry_problem(charts, ctx.state, unit, area)
    if problem:
        raise CATALOGUE.refuse("bad-entry", Rule.REINFORCEMENTS, problem)
    # Only a unit due in an earlier turn has waited longer; of units due in the same
    # turn the player chooses (RULES-ISSUES.md #24).
    for earlier in (u for u in due if since[u] < since[unit]):
        if any(entry_problem(charts, ctx.state, earlier, a) is None
               for a in entry_areas(charts, earlier)):
            raise CATALOGUE.refuse("queue-order", Rule.REINFORCEMENTS,
                                   f"{earlier} has waited longer and can enter now, so it "
                                   f"enters before {unit}")
    if area in ctx.state["garrisons"]:
        ctx.emit(EventKind.GARRISON_REMOVED, area=area, reason=f"{unit} entered",
                 rule=Rule.MOVEMENT)
    ctx.emit(EventKind.REINFORCEMENT_PLACED, unit=unit, area=area)
    update_control(ctx, charts, f"{unit} entered")


def entry_areas(charts: Charts, unit: str) -> tuple[str, ...]:
    return charts.nationalities[charts.nationality(unit)].enters


def entry_problem(charts: Charts, state: State, unit: str, area: str) -> str | None:
    """Why `unit` cannot enter at `area` now, or None if it can."""
    nat = charts.nationalities[charts.nationality(unit)]
    if area not in nat.enters:
        where = " or ".join(charts.name_of(a) for a in nat.enters)
        return f"{nat.name} units enter at {where}"
    if not german_area(state, area):
        return f"{charts.name_of(area)} is Soviet-controlled"
    if borders_soviet(charts, state, area):
        return f"{charts.name_of(area)} is a front-line area, where no reinforcement may enter"
    if allies_together(charts, [*units_in(state, area), unit]):
        return "Romanian and Hungarian units cannot stack in the same area"
    return None


def scheduled_reinforcements(state: State, turn_id: str) -> list[str]:
    """The scenario's reinforcements and the returning units due this turn (Scenarios,
    Reinforcements), those not already on the map, waiting or out of the game."""
    waiting = {entry["unit"] for entry in state["queue"]}
    return [unit for unit, due in state["schedule"] if due == turn_id
            and unit not in state["units"] and unit not in state["out"]
            and unit not in waiting]
