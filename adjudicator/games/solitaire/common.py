"""Procedures shared by the German turn and the Soviet combat."""

from __future__ import annotations

from adjudicator.engine.decisions import DecisionRequest
from adjudicator.engine.module import ModuleData
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext, next_decision_id, request_decision
from adjudicator.errors import IllegalOrder
from adjudicator.games.solitaire.control import GERMAN, SOVIET, compute_control, units_in
from adjudicator.games.solitaire.tables import Charts

_CHARTS: dict[str, Charts] = {}

RULE_RESTRICTIONS = "Restrictions"


def charts_of(module: ModuleData) -> Charts:
    """The typed charts of a module, built once per module checksum."""
    if module.sha256 not in _CHARTS:
        _CHARTS[module.sha256] = Charts(module)
    return _CHARTS[module.sha256]


def nationality(charts: Charts, unit: str) -> str:
    return charts.pieces[unit].nationality


def name_of(charts: Charts, area: str) -> str:
    return charts.area_names.get(area, area)


def update_control(ctx: StepContext, charts: Charts, cause: str) -> None:
    """Recompute control after a change, then apply the Restrictions that follow from
    it; eliminations empty areas, so repeat until nothing changes."""
    while True:
        refresh_control(ctx, charts, cause)
        if not eliminate_allies_of_lost_capitals(ctx, charts):
            return


def refresh_control(ctx: StepContext, charts: Charts, cause: str) -> None:
    """Recompute control after a change, without the Restrictions that follow from it
    (during the set-up of Free placement, when Bucharest or Budapest may still be
    waiting for their units)."""
    new = compute_control(charts, ctx.state, ctx.state["control"])
    for area in sorted(new):
        if new[area] != ctx.state["control"][area]:
            ctx.emit("control-changed", area=area, side=new[area], cause=cause)


def eliminate_allies_of_lost_capitals(ctx: StepContext, charts: Charts) -> bool:
    """Restrictions: all Romanian units are eliminated if Bucharest becomes
    Soviet-controlled, all Hungarian units if Budapest does. True if any was."""
    removed = False
    for nat, capital in sorted((n.id, n.capital) for n in charts.nationalities.values()
                               if n.capital):
        if ctx.state["control"].get(capital) != SOVIET:
            continue
        for unit in sorted(ctx.state["units"]):
            if nationality(charts, unit) == nat:
                remove_unit(ctx, charts, unit,
                            f"{name_of(charts, capital)} is Soviet-controlled", RULE_RESTRICTIONS)
                removed = True
    return removed


def remove_unit(ctx: StepContext, charts: Charts, unit: str, reason: str, rule: str) -> None:
    """Remove a unit, from the map or from the reinforcement queue (area None); it
    returns as a reinforcement three turns later, except an Italian unit, which is
    out of the game (rules: Reinforcements)."""
    state = ctx.state
    turn = charts.turn(state["turn"])
    lost_for_good = charts.nationalities[nationality(charts, unit)].lost_for_good
    back = None if lost_for_good else charts.turn_at(turn.index + charts.return_after)
    ctx.emit("unit-removed", unit=unit, area=state["units"].get(unit), reason=reason, rule=rule,
             returns=back.id if back else None)


def german_area(state: State, area: str) -> bool:
    return state["control"].get(area) == GERMAN


def check_allies_apart(charts: Charts, state: State, units: list[str], area: str,
                       rule_words: str) -> None:
    """Restrictions: Romanian and Hungarian units cannot stack in the same area."""
    nats = {nationality(charts, u) for u in units} | {
        nationality(charts, u) for u in units_in(state, area) if u not in units}
    if {"romanian", "hungarian"} <= nats:
        raise IllegalOrder(
            RULE_RESTRICTIONS,
            f"{rule_words}: Romanian and Hungarian units cannot stack in the same area "
            f"({name_of(charts, area)})", code="allies-stacked")


def check_romanian_line(charts: Charts, units: list[str], area: str, rule_words: str) -> None:
    """Restrictions: Romanian units cannot move north of the line
    Belgrade - Bucharest - Slovenia - Kharkov - Don - Stalingrad."""
    if area in charts.romanian_allowed:
        return
    romanians = [u for u in units if nationality(charts, u) == "romanian"]
    if romanians:
        raise IllegalOrder(
            RULE_RESTRICTIONS,
            f"{rule_words}: Romanian units ({', '.join(romanians)}) cannot go north of the line "
            f"Belgrade - Bucharest - Slovenia - Kharkov - Don - Stalingrad, and "
            f"{name_of(charts, area)} is north of it", code="romanian-line")


def choose_unit_lost(
    ctx: StepContext, charts: Charts, candidates: list[str], kind: str, rule: str,
    context: dict[str, object], explicit: str | None = None,
) -> str:
    """Which unit is lost: the player's own choice (explicit, then standing loss
    priority); a single candidate needs no choice; otherwise ask (DESIGN §4)."""
    candidates = sorted(candidates)
    if explicit:
        if explicit not in candidates:
            raise IllegalOrder(rule, f"{explicit} cannot be the unit lost here; choose one of "
                               f"{', '.join(candidates)}", code="bad-loss-choice")
        return explicit
    if len(candidates) == 1:
        return candidates[0]
    for unit in ctx.state["standing"].get("german", {}).get("loss-priority", []):
        if unit in candidates:
            ctx.emit("standing-instruction-used", instruction="loss-priority", choice=unit)
            return unit
    request = DecisionRequest(
        next_decision_id(ctx.state), GERMAN, kind, rule,
        [f"eliminate:{u}" for u in candidates], context)
    request_decision(ctx, request)
    raise AssertionError("unreachable")  # request_decision always raises
