"""Combat: in a front-line area each unit may attack one adjacent Soviet-controlled area
(an area may be attacked from several); roll D3, add the year's modifier and read the
Attack Chart by the number of units:

- -1: the attack fails; the attacker loses 1 unit;
- X: the attack succeeds; all attacking units move into the area;
- X-1: the attack succeeds; the attacker loses 1 unit, the others move in (if none
  remains the area stays Soviet-controlled).

The attack after its roll is a procedure of the kit (`GERMAN_ATTACK`): the loss may
need the player's choice, and his answer resumes it.
"""

from __future__ import annotations

from adjudicator.engine.orders import Order
from adjudicator.engine.procedure import Context, Procedure, Step
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.control import occupied_areas
from adjudicator.games.solitaire.data import Charts, charts_of
from adjudicator.games.solitaire.decisions import choose_unit_lost, chosen
from adjudicator.games.solitaire.eliminations import remove_unit
from adjudicator.games.solitaire.flow import enter_phase
from adjudicator.games.solitaire.movement import garrison_if_mandatory
from adjudicator.games.solitaire.orders import Attack, known_area, not_a_garrison, unit_on_map
from adjudicator.games.solitaire.rejections import CATALOGUE
from adjudicator.games.solitaire.restrictions import (
    check_allies_apart,
    check_romanian_line,
    update_control,
)
from adjudicator.games.solitaire.vocabulary import (
    LOSING,
    RULES_1_1,
    SUCCEEDING,
    DecisionKind,
    EventKind,
    Phase,
    Rule,
    Side,
)


def attack(ctx: StepContext, order: Order) -> None:
    """Combat: units attack an adjacent Soviet-controlled area; roll D3, add the
    year's modifier, read the Attack Chart; on success the survivors move in."""
    charts = charts_of(ctx.module)
    spec = Attack.from_order(order)
    target, units = spec.target, list(spec.units)
    enter_phase(ctx, Phase.ATTACK, f"attack {target}")
    known_area(charts, target, Rule.COMBAT)
    if not units:
        raise CATALOGUE.refuse("no-units", Rule.COMBAT, "an attack needs at least one unit")
    if len(set(units)) != len(units):
        raise CATALOGUE.refuse("unit-twice", Rule.COMBAT, "a unit is listed twice in the attack")
    since_1_1 = ctx.module.at_least(RULES_1_1)
    if ctx.state["control"][target] != Side.SOVIET and since_1_1:
        raise CATALOGUE.refuse("not-soviet", Rule.COMBAT,
                               f"{charts.name_of(target)} is not Soviet-controlled: "
                               f"{why_german(ctx, charts, target)}; only Soviet-controlled "
                               "areas can be attacked")
    if ctx.state["control"][target] != Side.SOVIET:
        raise CATALOGUE.refuse("not-soviet", Rule.COMBAT,
                               f"{charts.name_of(target)} is not Soviet-controlled; only "
                               "Soviet-controlled areas can be attacked")
    origins: dict[str, str] = {}
    for unit in units:
        if since_1_1:
            not_a_garrison(ctx.state, charts, unit, Rule.COMBAT,
                           f"attack {charts.name_of(target)}")
        here = unit_on_map(ctx.state, charts, unit, Rule.COMBAT)
        if unit in ctx.state["attacked"]:
            raise CATALOGUE.refuse("already-attacked", Rule.COMBAT,
                                   f"{unit} has already attacked this turn; each unit may "
                                   "attack one area")
        if not charts.board.adjacent(here, target):  # so `here` is on the front line too
            raise CATALOGUE.refuse("not-adjacent", Rule.COMBAT,
                                   f"{unit} in {charts.name_of(here)} is not adjacent to "
                                   f"{charts.name_of(target)}")
        origins[unit] = here
    check_romanian_line(charts, units, target, "they cannot attack there, as they would move in")
    check_allies_apart(charts, ctx.state, units, target, "they cannot attack together")
    explicit_loss = spec.lose or None
    if explicit_loss is not None and explicit_loss not in units:
        raise CATALOGUE.refuse("bad-loss-choice", Rule.COMBAT,
                               f"lose={explicit_loss} is not one of the attacking units")

    year = charts.turn(ctx.state["turn"]).year
    german = any(charts.is_german(u) for u in units)
    roll = ctx.roll_d3(f"German attack on {charts.name_of(target)}")
    outcome = charts.attack_outcome(len(units), roll, charts.year_modifier(year, german))
    ctx.emit(EventKind.ATTACKED, target=target, units=sorted(units), origins=origins,
             german_taking_part=german, year=year, roll=roll, modifier=outcome.modifier,
             modified=outcome.modified, row=outcome.row, column=outcome.column,
             result=outcome.result, rule=Rule.COMBAT)
    GERMAN_ATTACK.run(ctx, {"target": target, "units": sorted(units), "result": outcome.result,
                            "lose": explicit_loss})


def why_german(ctx: StepContext, charts: Charts, area: str) -> str:
    """What made a German-controlled area so (Combat: "If an area is occupied by German
    units, it becomes German-controlled"; one "cut off ... also becomes German-controlled"),
    in words: the order of this file that changed it, or the position it stands in."""
    name = charts.name_of(area)
    if area in occupied_areas(ctx.state):
        return f"German forces hold {name}"
    changed = [e for e in ctx.events
               if e.kind == EventKind.CONTROL_CHANGED and e.data.get("area") == area]
    names = [charts.name_of(s) for s in charts.supply_sources]
    sources = f"{', '.join(names[:-1])} or {names[-1]}"
    if changed and changed[-1].data.get("side") == Side.GERMAN:
        return (f"it became German-controlled earlier in this step ({changed[-1]['cause']}): "
                f"German-held areas cut it off from {sources}")
    if charts.start_side.get(area) == Side.GERMAN:
        return f"it is a German-side area, and no trace from {sources} reaches it"
    return f"German-held areas have cut it off from {sources}"


def lose_a_unit(ctx: StepContext, context: Context) -> Context | None:
    """-1 and X-1: the attacker loses a unit, the one he names (`lose=`, then his
    standing loss priority), else he is asked (the request's context: target, units,
    result)."""
    if context["result"] not in LOSING:
        return None
    lost = choose_unit_lost(
        ctx, context["units"], DecisionKind.ATTACK_LOSS, Rule.COMBAT,
        {"target": context["target"], "units": context["units"], "result": context["result"]},
        context.get("lose"))
    return unit_lost(ctx, context, lost)


def loss_chosen(ctx: StepContext, context: Context, choice: str) -> Context:
    """The player's answer `eliminate:UNIT` names the attacker lost."""
    return unit_lost(ctx, context, chosen(choice)[1])


def unit_lost(ctx: StepContext, context: Context, lost: str) -> Context:
    charts = charts_of(ctx.module)
    remove_unit(ctx, charts, lost, f"lost attacking {charts.name_of(context['target'])} "
                f"({context['result']})", Rule.COMBAT)
    return {**context, "lost": lost}


def advance(ctx: StepContext, context: Context) -> Context | None:
    """X and X-1: the surviving attackers move into the area; control follows, and
    with the optional rule a garrison where all units left."""
    charts = charts_of(ctx.module)
    target = context["target"]
    survivors = [u for u in context["units"] if u != context.get("lost")]
    origins = sorted({ctx.state["units"][u] for u in survivors})
    if context["result"] in SUCCEEDING and survivors:
        ctx.emit(EventKind.ADVANCED, units=survivors, origins=origins, to=target)
    update_control(ctx, charts, f"attack on {charts.name_of(target)}")
    garrison_if_mandatory(ctx, charts, origins)
    return None


GERMAN_ATTACK = Procedure("German attack", (
    Step(DecisionKind.ATTACK_LOSS, lose_a_unit, resume=loss_chosen),
    Step("advance", advance),
))
