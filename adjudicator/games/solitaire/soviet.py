"""Soviet Combat: the attacks the rules make against the German front line.

Every random choice is a die roll from the committed stream; every choice the
rules give the German player (retreat or lose a unit, which unit, where to) is
his, through an answer, a standing instruction or a decision request.
"""

from __future__ import annotations

from adjudicator.engine.decisions import DecisionRequest
from adjudicator.engine.step import StepContext, next_decision_id, request_decision
from adjudicator.games.solitaire.common import (
    choose_unit_lost,
    german_area,
    name_of,
    nationality,
    remove_unit,
    update_control,
)
from adjudicator.games.solitaire.control import GERMAN, front_line, units_in
from adjudicator.games.solitaire.tables import Charts

RULE_SOVIET = "Soviet Combat"
RULE_EFFECTS = "Soviet Combat: Effects of Soviet Attack"
RULE_TARGET = "Soviet Combat: Soviet Random Attack Chart"
RULE_SEA = "Sea Areas"
RULE_HITLER = "Optional Rules: Hitler's Orders"
OTHER_ALLY = {"romanian": "hungarian", "hungarian": "romanian"}


def number_of_attacks(ctx: StepContext, charts: Charts) -> None:
    """Soviet Combat: the scenario column and the turn's row give the number of
    attacks, modified by the chosen variant (never below zero)."""
    options = ctx.state["options"]
    cell = charts.soviet_attacks(ctx.state["turn"], options["soviet"], options["variant"])
    base = cell.low
    if not cell.fixed:
        base = cell.low + roll_in_range(ctx, cell.high - cell.low + 1)
    count = max(0, base + cell.modifier)
    ctx.emit("soviet-attacks-set", count=count, column=options["soviet"],
             variant=options["variant"], base=base, modifier=cell.modifier,
             low=cell.low, high=cell.high, rule=RULE_SOVIET)


def roll_in_range(ctx: StepContext, size: int) -> int:
    """A 0-based draw over `size` values read from one d6 (sizes 1, 2, 3 and 6: the
    Random column's ranges; reconstructed: d6 1-3/4-6 for two values, D3 for three)."""
    if size not in (1, 2, 3, 6):
        raise ValueError(f"the Random column needs a range of 1, 2, 3 or 6 values, not {size}")
    d6 = ctx.roll_d6("number of Soviet attacks (Random column)")
    return (d6 - 1) * size // 6


def continue_soviet_combat(ctx: StepContext, charts: Charts) -> None:
    """Resolve the turn's remaining Soviet attacks one by one."""
    while ctx.state["soviet"]["left"] > 0:
        number = ctx.state["soviet"]["done"] + 1
        roll = ctx.roll_d6(f"Soviet attack {number}: Random Attack Chart")
        entry = charts.random_attack_chart[roll]
        if entry.target == "roll-twice":
            ctx.emit("soviet-roll-twice", number=number, roll=roll, rule=RULE_TARGET)
            continue
        line = front_line(charts, ctx.state)
        if not line:
            ctx.emit("soviet-attack-target", number=number, roll=roll, target=None,
                     how=entry.target, places=list(entry.places), candidates=[],
                     rule=RULE_TARGET)
            continue
        if entry.target == "weakest-point":
            candidates = weakest_points(charts, ctx.state, line)
        else:
            candidates = nearest_areas(charts, ctx.state, line, entry.places)
        target = ctx.pick(candidates, f"Soviet attack {number}: tie between "
                          f"{', '.join(name_of(charts, a) for a in candidates)}")
        ctx.emit("soviet-attack-target", number=number, roll=roll, target=target,
                 how=entry.target, places=list(entry.places), candidates=candidates,
                 rule=RULE_TARGET)
        attack_effect(ctx, charts, number, target)


def nearest_areas(charts: Charts, state: dict, line: list[str],
                  places: tuple[str, ...]) -> list[str]:
    """The front-line areas nearest to the places named (the named area itself is
    nearest); equally near, prefer the one nearest to the place named first.
    'either-place' counts the distance to whichever place is nearer; 'first-place'
    reads the second place only as the tie break (RULES-ISSUES.md #3)."""
    distances = [charts.board.distances(p) for p in places]
    far = len(charts.board.areas) + 1

    def key(area: str) -> tuple[int, ...]:
        each = [d.get(area, far) for d in distances]
        if state["options"]["target-reading"] == "either-place":
            return (min(each), *each)
        return tuple(each)

    best = min(key(a) for a in line)
    return [a for a in line if key(a) == best]


def weakest_points(charts: Charts, state: dict, line: list[str]) -> list[str]:
    """The weakest point: an area with a garrison only; else one with only
    non-German units; else the one with the fewest German units."""

    def key(area: str) -> tuple[int, int]:
        units = units_in(state, area)
        germans = sum(1 for u in units if nationality(charts, u) == "german")
        if not units:
            return (0, 0)
        if germans == 0:
            return (1, 0)
        return (2, germans)

    best = min(key(a) for a in line)
    return [a for a in line if key(a) == best]


def attack_effect(ctx: StepContext, charts: Charts, number: int, target: str) -> None:
    """Effects of Soviet Attack: 1 no effect; 2 retreat or eliminate one unit; 3
    eliminate one unit. A garrison alone is destroyed without a roll; with only
    non-German units a 2 counts as a 3; with nowhere German to retreat, a 2
    eliminates one unit."""
    units = units_in(ctx.state, target)
    if not units:
        ctx.emit("garrison-removed", area=target, reason=f"Soviet attack {number}",
                 rule=RULE_EFFECTS)
        update_control(ctx, charts, f"Soviet attack {number}")
        return
    roll = ctx.roll_d3(f"Soviet attack {number} on {name_of(charts, target)}: effect")
    effect = charts.soviet_effects[roll]
    notes: list[str] = []
    retreat_to: list[str] = []
    if effect == "retreat-or-eliminate":
        if all(nationality(charts, u) != "german" for u in units):
            effect = "eliminate"
            notes.append("only non-German units: a 2 counts as a 3")
        elif hitlers_orders_forbid(ctx, charts):
            effect = "eliminate"
            notes.append("Hitler's Orders: the year's retreat is used, so units are eliminated")
        else:
            retreat_to = retreat_areas(charts, ctx.state, target, units)
            if not retreat_to:
                effect = "eliminate"
                notes.append("no German-controlled area to retreat to: eliminate one unit")
    ctx.emit("soviet-attack-effect", number=number, target=target, roll=roll,
             effect=effect, notes=notes, retreat_to=retreat_to, rule=RULE_EFFECTS)
    context = {"number": number, "target": target, "roll": roll}
    if effect == "none":
        return
    if effect == "eliminate":
        lost = choose_unit_lost(ctx, charts, units, "soviet-attack-loss", RULE_EFFECTS, context)
        apply_loss(ctx, charts, number, lost)
        return
    choice = standing_response(ctx, units, retreat_to)
    if choice is None:
        options = [f"retreat:{a}" for a in retreat_to] + [f"eliminate:{u}" for u in units]
        request_decision(ctx, DecisionRequest(
            next_decision_id(ctx.state), GERMAN, "retreat-or-eliminate", RULE_EFFECTS,
            options, context))
    apply_response(ctx, charts, number, target, choice or "")


def apply_response(ctx: StepContext, charts: Charts, number: int, target: str,
                   choice: str) -> None:
    """Carry out 'retreat:AREA' or 'eliminate:UNIT' for a Soviet attack result of 2."""
    what, _, which = choice.partition(":")
    if what == "eliminate":
        apply_loss(ctx, charts, number, which)
    else:
        retreat(ctx, charts, number, target, which)


def apply_loss(ctx: StepContext, charts: Charts, number: int, unit: str) -> None:
    remove_unit(ctx, charts, unit, f"Soviet attack {number}", RULE_EFFECTS)
    update_control(ctx, charts, f"Soviet attack {number}")


def retreat_areas(charts: Charts, state: dict, area: str, units: list[str]) -> list[str]:
    """German-controlled areas the units may retreat to: adjacent ones, and those
    joined to this area by a sea area (Sea Areas). Romanian units keep south of
    their line (Restrictions)."""
    reachable = set(charts.board.neighbours(area, ("land", "sea")))
    romanian = any(nationality(charts, u) == "romanian" for u in units)
    return sorted(a for a in reachable if german_area(state, a)
                  and (not romanian or a in charts.romanian_allowed))


def hitlers_orders_forbid(ctx: StepContext, charts: Charts) -> bool:
    """Hitler's Orders (optional): only one retreat a year."""
    if ctx.state["options"]["hitlers-orders"] != "yes":
        return False
    year = str(charts.turn(ctx.state["turn"]).year)
    return year in ctx.state["retreat-years"]


def standing_response(ctx: StepContext, units: list[str], retreat_to: list[str]) -> str | None:
    """The German's standing instruction for a result of 2, if it settles the choice."""
    standing = ctx.state["standing"].get("german", {})
    prefer = standing.get("on-retreat-or-eliminate")
    choice = None
    if prefer == "retreat":
        choice = next((f"retreat:{a}" for a in standing.get("retreat-priority", [])
                       if a in retreat_to), None)
    elif prefer == "eliminate":
        choice = next((f"eliminate:{u}" for u in standing.get("loss-priority", [])
                       if u in units), None)
    if choice is not None:
        ctx.emit("standing-instruction-used", instruction="on-retreat-or-eliminate",
                 choice=choice)
    return choice


def retreat(ctx: StepContext, charts: Charts, number: int, source: str, dest: str) -> None:
    """All units in the area retreat together to one German-controlled area, removing a
    garrison there. A Romanian or Hungarian unit forced into an area with the other is
    eliminated."""
    units = units_in(ctx.state, source)
    kind = "land" if charts.board.adjacent(source, dest) else "sea"
    if dest in ctx.state["garrisons"]:
        # Units entering a garrisoned area remove the garrison (Movement; RULES-ISSUES.md #26).
        ctx.emit("garrison-removed", area=dest, reason=f"units retreated from "
                 f"{name_of(charts, source)}", rule="Movement")
    ctx.emit("retreated", units=units, **{"from": source}, to=dest, via=kind,
             year=str(charts.turn(ctx.state["turn"]).year),
             rule=RULE_SEA if kind == "sea" else RULE_EFFECTS)
    present = {nationality(charts, u) for u in units_in(ctx.state, dest) if u not in units}
    for unit in units:
        nat = nationality(charts, unit)
        if OTHER_ALLY.get(nat) in present:
            remove_unit(ctx, charts, unit, f"retreated into an area with {OTHER_ALLY[nat]} "
                        "units", "Restrictions")
    update_control(ctx, charts, f"Soviet attack {number}")
