"""Restrictions:

- Romanian units and Hungarian units cannot stack in the same area; forced into the
  same area by a retreat, the retreating unit is eliminated;
- Romanian units cannot move north of the line Belgrade - Bucharest - Slovenia -
  Kharkov - Don - Stalingrad;
- all Romanian units are eliminated if Bucharest becomes Soviet-controlled, all
  Hungarian units if Budapest does;
- all Italian units are eliminated at the start of the Autumn 1943 turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.control import refresh_control, units_in
from adjudicator.games.solitaire.data import Charts, Turn
from adjudicator.games.solitaire.eliminations import remove_unit
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.vocabulary import (
    ALLIES_APART,
    OTHER_ALLY,
    Nationality,
    Rule,
    Side,
)


def allies_together(charts: Charts, units: Iterable[str]) -> bool:
    """Romanian and Hungarian units among `units`."""
    return {charts.nationality(u) for u in units} >= ALLIES_APART


def check_allies_apart(charts: Charts, state: State, units: Iterable[str], area: str,
                       rule_words: str) -> None:
    """Romanian and Hungarian units cannot stack in the same area."""
    units = list(units)
    if allies_together(charts, units + [u for u in units_in(state, area) if u not in units]):
        raise CATALOGUE.refuse(
            "allies-stacked", Rule.RESTRICTIONS,
            f"{rule_words}: Romanian and Hungarian units cannot stack in the same area "
            f"({charts.name_of(area)})")


def check_romanian_line(charts: Charts, units: Iterable[str], area: str,
                        rule_words: str) -> None:
    """Romanian units cannot move north of the line Belgrade - Bucharest - Slovenia -
    Kharkov - Don - Stalingrad."""
    if area in charts.romanian_allowed:
        return
    romanians = [u for u in units if charts.nationality(u) == Nationality.ROMANIAN]
    if romanians:
        raise CATALOGUE.refuse(
            "romanian-line", Rule.RESTRICTIONS,
            f"{rule_words}: Romanian units ({', '.join(romanians)}) cannot go north of the line "
            f"Belgrade - Bucharest - Slovenia - Kharkov - Don - Stalingrad, and "
            f"{charts.name_of(area)} is north of it")


def update_control(ctx: StepContext, charts: Charts, cause: str) -> None:
    """Recompute control after a change, then apply the Restrictions that follow from
    it; eliminations empty areas, so repeat until nothing changes."""
    while True:
        refresh_control(ctx, charts, cause)
        if not eliminate_allies_of_lost_capitals(ctx, charts):
            return


def eliminate_allies_of_lost_capitals(ctx: StepContext, charts: Charts) -> bool:
    """All Romanian units are eliminated if Bucharest becomes Soviet-controlled, all
    Hungarian units if Budapest does. True if any was."""
    removed = False
    for nat, capital in sorted((n.id, n.capital) for n in charts.nationalities.values()
                               if n.capital):
        if ctx.state["control"].get(capital) != Side.SOVIET:
            continue
        for unit in sorted(ctx.state["units"]):
            if charts.nationality(unit) == nat:
                remove_unit(ctx, charts, unit, f"{charts.name_of(capital)} is Soviet-controlled",
                            Rule.RESTRICTIONS)
                removed = True
    return removed


def units_leave(ctx: StepContext, charts: Charts, turn: Turn) -> None:
    """All Italian units are eliminated at the start of the Autumn 1943 turn (the turn
    record names the nationality), those still waiting to enter too (RULES-ISSUES.md
    #25)."""
    if not turn.eliminates:
        return
    for unit in sorted(ctx.state["units"]):
        if charts.nationality(unit) == turn.eliminates:
            remove_unit(ctx, charts, unit, f"all {turn.eliminates} units are eliminated at "
                        f"the start of {turn.name}", Rule.RESTRICTIONS)
    for entry in list(ctx.state["queue"]):
        if charts.nationality(entry["unit"]) == turn.eliminates:
            remove_unit(ctx, charts, entry["unit"], f"all {turn.eliminates} units are "
                        f"eliminated at the start of {turn.name}, those still waiting to enter "
                        "too", Rule.RESTRICTIONS)
    update_control(ctx, charts, f"start of {turn.name}")


def eliminate_forced_together(ctx: StepContext, charts: Charts, units: list[str],
                              area: str) -> None:
    """A Romanian or Hungarian unit forced by a retreat into an area with the other is
    eliminated (the retreating unit, not the one that was there)."""
    present = {charts.nationality(u) for u in units_in(ctx.state, area) if u not in units}
    for unit in units:
        nat = charts.nationality(unit)
        if OTHER_ALLY.get(nat) in present:
            remove_unit(ctx, charts, unit, f"retreated into an area with {OTHER_ALLY[nat]} "
                        "units", Rule.RESTRICTIONS)
