"""Soviet Combat: the Soviet forces make a set number of attacks each turn (the Soviet
Attack Chart's scenario column and the turn's row, modified by a variant); each attack
rolls 1D6 on the Soviet Random Attack Chart for its target and D3 on the Effects of
Soviet Attack.

Every random choice is a die roll from the committed stream; every choice the rules
give the German player (retreat or lose a unit, which unit, where to) is his, through
an answer, a standing instruction or a decision request (decisions.py). The attacks
left are counted in the state (`soviet`: left, done), so the procedure that runs them
(sequence.SOVIET_TURN) goes on from there after an answer.
"""

from __future__ import annotations

from adjudicator.engine.procedure import Context, ask
from adjudicator.engine.retreat import retreat_paths
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.solitaire.control import front_line, german_area, units_in
from adjudicator.games.solitaire.data import RANDOM_RANGE_SIZES, Charts, charts_of
from adjudicator.games.solitaire.decisions import choose_unit_lost, chosen, standing_response
from adjudicator.games.solitaire.eliminations import remove_unit
from adjudicator.games.solitaire.optional import hitlers_orders_forbid
from adjudicator.games.solitaire.restrictions import eliminate_forced_together, update_control
from adjudicator.games.solitaire.sea_areas import retreat_neighbours, retreat_via
from adjudicator.games.solitaire.vocabulary import (
    AttackTarget,
    Choice,
    DecisionKind,
    EventKind,
    Nationality,
    Option,
    Rule,
    Side,
    SovietEffect,
    TargetReading,
)


def number_of_attacks(ctx: StepContext, context: Context) -> Context | None:
    """The scenario column and the turn's row give the number of attacks, modified by
    the chosen variant (never below zero)."""
    charts = charts_of(ctx.module)
    options = ctx.state["options"]
    cell = charts.soviet_attacks(ctx.state["turn"], options[Option.SOVIET],
                                 options[Option.VARIANT])
    base = cell.low
    if not cell.fixed:
        base = cell.low + roll_in_range(ctx, cell.high - cell.low + 1)
    count = max(0, base + cell.modifier)
    ctx.emit(EventKind.SOVIET_ATTACKS_SET, count=count, column=options[Option.SOVIET],
             variant=options[Option.VARIANT], base=base, modifier=cell.modifier,
             low=cell.low, high=cell.high, rule=Rule.SOVIET_COMBAT)
    return None


def roll_in_range(ctx: StepContext, size: int) -> int:
    """A 0-based draw over `size` values read from one d6 (sizes 1, 2, 3 and 6: the
    Random column's ranges; reconstructed: d6 1-3/4-6 for two values, D3 for three)."""
    if size not in RANDOM_RANGE_SIZES:
        raise ValueError(f"the Random column needs a range of 1, 2, 3 or 6 values, not {size}")
    d6 = ctx.roll_d6("number of Soviet attacks (Random column)")
    return (d6 - 1) * size // 6


def attacks_left(ctx: StepContext, context: Context) -> Context | None:
    """Resolve the turn's remaining Soviet attacks one by one: the Random Attack Chart
    names the target (or one more attack), the Effects of Soviet Attack what it does."""
    charts = charts_of(ctx.module)
    while ctx.state["soviet"]["left"] > 0:
        number = ctx.state["soviet"]["done"] + 1
        roll = ctx.roll_d6(f"Soviet attack {number}: Random Attack Chart")
        entry = charts.random_attack_chart[roll]
        if entry.target == AttackTarget.ROLL_TWICE:
            ctx.emit(EventKind.SOVIET_ROLL_TWICE, number=number, roll=roll,
                     rule=Rule.SOVIET_TARGETS)
            continue
        line = front_line(charts, ctx.state)
        if not line:
            ctx.emit(EventKind.SOVIET_ATTACK_TARGET, number=number, roll=roll, target=None,
                     how=entry.target, places=list(entry.places), candidates=[],
                     rule=Rule.SOVIET_TARGETS)
            continue
        if entry.target == AttackTarget.WEAKEST_POINT:
            candidates = weakest_points(charts, ctx.state, line)
        else:
            candidates = nearest_areas(charts, ctx.state, line, entry.places)
        target = ctx.pick(candidates, f"Soviet attack {number}: tie between "
                          f"{', '.join(charts.name_of(a) for a in candidates)}")
        ctx.emit(EventKind.SOVIET_ATTACK_TARGET, number=number, roll=roll, target=target,
                 how=entry.target, places=list(entry.places), candidates=candidates,
                 rule=Rule.SOVIET_TARGETS)
        attack_effect(ctx, charts, number, target)
    return None


def nearest_areas(charts: Charts, state: State, line: list[str],
                  places: tuple[str, ...]) -> list[str]:
    """The front-line areas nearest to the places named (the named area itself is
    nearest); equally near, prefer the one nearest to the place named first.
    'either-place' counts the distance to whichever place is nearer; 'first-place'
    reads the second place only as the tie break (RULES-ISSUES.md #3)."""
    distances = [charts.board.distances(p) for p in places]
    far = len(charts.board.areas) + 1

    def key(area: str) -> tuple[int, ...]:
        each = [d.get(area, far) for d in distances]
        if state["options"][Option.TARGET_READING] == TargetReading.EITHER_PLACE:
            return (min(each), *each)
        return tuple(each)

    best = min(key(a) for a in line)
    return [a for a in line if key(a) == best]


def weakness(charts: Charts, state: State, area: str) -> tuple[int, int]:
    """How weak a front-line area is, weakest first: a garrison only (0, 0); only
    non-German units (1, 0); else (2, the number of German units)."""
    units = units_in(state, area)
    germans = sum(1 for u in units if charts.is_german(u))
    if not units:
        return (0, 0)
    if germans == 0:
        return (1, 0)
    return (2, germans)


def weakest_points(charts: Charts, state: State, line: list[str]) -> list[str]:
    """The weakest point: an area with a garrison only; else one with only
    non-German units; else the one with the fewest German units."""
    best = min(weakness(charts, state, a) for a in line)
    return [a for a in line if weakness(charts, state, a) == best]


def attack_effect(ctx: StepContext, charts: Charts, number: int, target: str) -> None:
    """Effects of Soviet Attack: 1 no effect; 2 retreat or eliminate one unit; 3
    eliminate one unit. A garrison alone is destroyed without a roll; with only
    non-German units a 2 counts as a 3; with nowhere German to retreat, a 2
    eliminates one unit."""
    units = units_in(ctx.state, target)
    if not units:
        ctx.emit(EventKind.GARRISON_REMOVED, area=target, reason=f"Soviet attack {number}",
                 rule=Rule.SOVIET_EFFECTS)
        update_control(ctx, charts, f"Soviet attack {number}")
        return
    roll = ctx.roll_d3(f"Soviet attack {number} on {charts.name_of(target)}: effect")
    effect = charts.soviet_effects[roll]
    notes: list[str] = []
    retreat_to: list[str] = []
    if effect == SovietEffect.RETREAT_OR_ELIMINATE:
        if not any(charts.is_german(u) for u in units):
            effect = SovietEffect.ELIMINATE
            notes.append("only non-German units: a 2 counts as a 3")
        elif hitlers_orders_forbid(ctx, charts):
            effect = SovietEffect.ELIMINATE
            notes.append("Hitler's Orders: the year's retreat is used, so units are eliminated")
        else:
            retreat_to = retreat_areas(charts, ctx.state, target, units)
            if not retreat_to:
                effect = SovietEffect.ELIMINATE
                notes.append("no German-controlled area to retreat to: eliminate one unit")
    ctx.emit(EventKind.SOVIET_ATTACK_EFFECT, number=number, target=target, roll=roll,
             effect=effect, notes=notes, retreat_to=retreat_to, rule=Rule.SOVIET_EFFECTS)
    context = {"number": number, "target": target, "roll": roll}
    if effect == SovietEffect.NONE:
        return
    if effect == SovietEffect.ELIMINATE:
        lost = choose_unit_lost(ctx, units, DecisionKind.SOVIET_ATTACK_LOSS,
                                Rule.SOVIET_EFFECTS, context)
        eliminate(ctx, charts, number, lost)
        return
    choice = standing_response(ctx, units, retreat_to)
    if choice is None:
        options = [Choice.RETREAT.of(a) for a in retreat_to] + \
            [Choice.ELIMINATE.of(u) for u in units]
        ask(ctx, Side.GERMAN, DecisionKind.RETREAT_OR_ELIMINATE, Rule.SOVIET_EFFECTS, options,
            context)
    respond(ctx, charts, number, target, choice or "")


def respond(ctx: StepContext, charts: Charts, number: int, target: str, choice: str) -> None:
    """Carry out 'retreat:AREA' or 'eliminate:UNIT' for a Soviet attack result of 2."""
    what, which = chosen(choice)
    if what == Choice.ELIMINATE:
        eliminate(ctx, charts, number, which)
    else:
        retreat(ctx, charts, number, target, which)


def eliminate(ctx: StepContext, charts: Charts, number: int, unit: str) -> None:
    remove_unit(ctx, charts, unit, f"Soviet attack {number}", Rule.SOVIET_EFFECTS)
    update_control(ctx, charts, f"Soviet attack {number}")


def retreat_areas(charts: Charts, state: State, area: str, units: list[str]) -> list[str]:
    """German-controlled areas the units may retreat to (the kit's retreat of one
    step): adjacent ones, and those joined to this area by a sea area (Sea Areas).
    Romanian units keep south of their line (Restrictions)."""
    romanian = any(charts.nationality(u) == Nationality.ROMANIAN for u in units)

    def allowed(here: str, there: str) -> bool:
        return german_area(state, there) and (not romanian or there in charts.romanian_allowed)

    paths = retreat_paths(area, lambda a: retreat_neighbours(charts, a), 1, allowed)
    return [path[0] for path in paths]


def retreat(ctx: StepContext, charts: Charts, number: int, source: str, dest: str) -> None:
    """All units in the area retreat together to one German-controlled area, removing a
    garrison there. A Romanian or Hungarian unit forced into an area with the other is
    eliminated (Restrictions)."""
    units = units_in(ctx.state, source)
    via, rule = retreat_via(charts, source, dest)
    if dest in ctx.state["garrisons"]:
        # Units entering a garrisoned area remove the garrison (Movement; RULES-ISSUES.md #26).
        ctx.emit(EventKind.GARRISON_REMOVED, area=dest, reason=f"units retreated from "
                 f"{charts.name_of(source)}", rule=Rule.MOVEMENT)
    ctx.emit(EventKind.RETREATED, units=units, **{"from": source}, to=dest, via=via,
             year=str(charts.turn(ctx.state["turn"]).year), rule=rule)
    eliminate_forced_together(ctx, charts, units, dest)
    update_control(ctx, charts, f"Soviet attack {number}")


# -- the answers: the attack that asked ends as the player chose ------------------------


def no_attack_waits(ctx: StepContext, context: Context) -> Context | None:
    """On the way in, no attack waits for the German's answer."""
    return None


def elimination_chosen(ctx: StepContext, context: Context, choice: str) -> Context | None:
    """The answer to soviet-attack-loss: the unit he named is eliminated."""
    eliminate(ctx, charts_of(ctx.module), context["number"], chosen(choice)[1])
    return None


def response_chosen(ctx: StepContext, context: Context, choice: str) -> Context | None:
    """The answer to retreat-or-eliminate: the units retreat, or one is eliminated."""
    respond(ctx, charts_of(ctx.module), context["number"], context["target"], choice)
    return None
