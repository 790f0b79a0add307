"""Optional Rules (each may be used, none, or several):

- Free placement: do not use the initial setup; place the units freely (all units, the
  translator reads; in German-side areas, RULES-ISSUES.md) before the first turn;
- Voluntary alliance: the Italian and Hungarian units start in Slovenia (the scenario's
  placements that name the option, setup.py);
- Hitler's Orders: only one retreat a year; after it, units must be eliminated instead.

The optional garrison rule is Movement's (movement.garrison_if_mandatory).
"""

from __future__ import annotations

from adjudicator.engine.orders import Order
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.control import occupied_areas, refresh_control
from adjudicator.games.solitaire.data import Charts, charts_of
from adjudicator.games.solitaire.orders import Place, known_area, known_unit
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.restrictions import check_allies_apart, check_romanian_line
from adjudicator.games.solitaire.vocabulary import EventKind, Option, Phase, Rule, Side, Switch


def place_unit(ctx: StepContext, order: Order) -> None:
    """Free placement: place the units freely (in German-side areas); a unit placed
    where a set-up garrison stands replaces it. Control follows each placement; the
    Restrictions that follow from it wait until play begins (flow.end_phase)."""
    charts = charts_of(ctx.module)
    place = Place.from_order(order)
    unit, area = place.unit, place.area
    known_unit(charts, unit, Rule.FREE_PLACEMENT)
    known_area(charts, area, Rule.FREE_PLACEMENT)
    if ctx.state["phase"] != Phase.SETUP:
        raise CATALOGUE.refuse("not-setup", Rule.FREE_PLACEMENT, "units are placed freely only "
                               "before the first turn, with the Free placement option")
    if unit not in ctx.state["unplaced"]:
        raise CATALOGUE.refuse("not-unplaced", Rule.FREE_PLACEMENT,
                               f"{unit} is not a unit waiting to be placed")
    if charts.start_side[area] != Side.GERMAN:
        raise CATALOGUE.refuse("not-german-side", Rule.FREE_PLACEMENT,
                               f"{charts.name_of(area)} is not a German-side (grey) area")
    check_romanian_line(charts, [unit], area, "cannot place there")
    check_allies_apart(charts, ctx.state, [unit], area, "cannot place there")
    if area in ctx.state["garrisons"]:
        # A unit entering a garrisoned area removes the garrison (RULES-ISSUES.md #26).
        ctx.emit(EventKind.GARRISON_REMOVED, area=area, reason=f"{unit} placed there",
                 rule=Rule.MOVEMENT)
    ctx.emit(EventKind.UNIT_PLACED, unit=unit, area=area)
    refresh_control(ctx, charts, f"{unit} placed")


def place_setup_garrison(ctx: StepContext, charts: Charts, area: str) -> None:
    """Free placement: a garrison in an empty German-side area at the set-up."""
    if charts.start_side[area] != Side.GERMAN or area in occupied_areas(ctx.state):
        raise CATALOGUE.refuse("bad-garrison", Rule.FREE_PLACEMENT,
                               f"a garrison can be placed at set-up only in an empty "
                               f"German-side area; {charts.name_of(area)} is not one")
    ctx.emit(EventKind.GARRISON_PLACED, area=area, rule=Rule.FREE_PLACEMENT)
    refresh_control(ctx, charts, "garrison placed")


def hitlers_orders_forbid(ctx: StepContext, charts: Charts) -> bool:
    """Hitler's Orders: only one retreat a year; True when this year's is used."""
    if ctx.state["options"][Option.HITLERS_ORDERS] != Switch.YES:
        return False
    year = str(charts.turn(ctx.state["turn"]).year)
    return year in ctx.state["retreat-years"]
