"""The German player's procedures: set-up, movement, attacks, reinforcements.

Rule references name the rulebook's sections ("Movement", "Combat", ...), as the
sheet has no numbered paragraphs.
"""

from __future__ import annotations

from adjudicator.engine.orders import Order
from adjudicator.engine.step import StepContext
from adjudicator.errors import IllegalOrder
from adjudicator.games.solitaire.common import (
    charts_of,
    check_allies_apart,
    check_romanian_line,
    choose_unit_lost,
    german_area,
    name_of,
    nationality,
    refresh_control,
    remove_unit,
    update_control,
)
from adjudicator.games.solitaire.control import (
    GERMAN,
    SOVIET,
    borders_soviet,
    occupied_areas,
    units_in,
)
from adjudicator.games.solitaire.tables import Charts

PHASES = ("setup", "movement", "attack", "reinforcement", "soviet-combat")
RULE_SEQUENCE = "Game Sequence"
RULE_MOVEMENT = "Movement"
RULE_COMBAT = "Combat"
RULE_REINFORCEMENTS = "Reinforcements"
RULE_FREE_PLACEMENT = "Optional Rules: Free placement"


def enter_phase(ctx: StepContext, phase: str, doing: str) -> None:
    """Game Sequence: move, attack, place reinforcements, Soviet combat. An order of a
    later phase ends the phases before it; an order of an earlier phase is too late."""
    current = ctx.state["phase"]
    if PHASES.index(phase) < PHASES.index(current):
        raise IllegalOrder(
            RULE_SEQUENCE,
            f"cannot {doing} now: the {phase} phase of this turn is over (the sequence is "
            f"move, attack, place reinforcements, then the Soviet attacks)", code="phase-over")
    while ctx.state["phase"] != phase:
        if ctx.state["phase"] == "setup" and ctx.state["unplaced"]:
            raise IllegalOrder(
                RULE_FREE_PLACEMENT,
                f"place every unit before play begins; still to place: "
                f"{', '.join(ctx.state['unplaced'])}", code="setup-incomplete")
        following = PHASES[PHASES.index(ctx.state["phase"]) + 1]
        leaving_setup = ctx.state["phase"] == "setup"
        ctx.emit("phase-ended", phase=ctx.state["phase"], next=following)
        if leaving_setup:
            # Free placement: the Restrictions that follow from control (Bucharest or
            # Budapest left Soviet-controlled) apply once every unit is placed.
            update_control(ctx, charts_of(ctx.module), "set-up complete")


def known_unit(charts: Charts, unit: str, rule: str) -> None:
    if unit not in charts.pieces:
        raise IllegalOrder(rule, f"there is no unit {unit!r} in this game", code="unknown-unit")


def known_area(charts: Charts, area: str, rule: str) -> None:
    if area not in charts.board:
        raise IllegalOrder(rule, f"there is no area {area!r} on this map", code="unknown-area")


def unit_on_map(ctx: StepContext, charts: Charts, unit: str, rule: str) -> str:
    known_unit(charts, unit, rule)
    if unit not in ctx.state["units"]:
        raise IllegalOrder(rule, f"{unit} is not on the map", code="unit-not-on-map")
    return str(ctx.state["units"][unit])


def place_unit(ctx: StepContext, order: Order) -> None:
    """Optional rule Free placement: place the units freely (in German-side areas); a
    unit placed where a set-up garrison stands replaces it."""
    charts = charts_of(ctx.module)
    unit, area = order.get("unit"), order.get("area")
    known_unit(charts, unit, RULE_FREE_PLACEMENT)
    known_area(charts, area, RULE_FREE_PLACEMENT)
    if ctx.state["phase"] != "setup":
        raise IllegalOrder(RULE_FREE_PLACEMENT, "units are placed freely only before the "
                           "first turn, with the Free placement option", code="not-setup")
    if unit not in ctx.state["unplaced"]:
        raise IllegalOrder(RULE_FREE_PLACEMENT, f"{unit} is not a unit waiting to be placed",
                           code="not-unplaced")
    if charts.start_side[area] != GERMAN:
        raise IllegalOrder(RULE_FREE_PLACEMENT, f"{name_of(charts, area)} is not a German-side "
                           "(grey) area", code="not-german-side")
    check_romanian_line(charts, [unit], area, "cannot place there")
    check_allies_apart(charts, ctx.state, [unit], area, "cannot place there")
    if area in ctx.state["garrisons"]:
        # A unit entering a garrisoned area removes the garrison (RULES-ISSUES.md #26).
        ctx.emit("garrison-removed", area=area, reason=f"{unit} placed there",
                 rule=RULE_MOVEMENT)
    ctx.emit("unit-placed", unit=unit, area=area)
    refresh_control(ctx, charts, f"{unit} placed")


def move_unit(ctx: StepContext, order: Order) -> None:
    """Movement: a unit may move to one of the areas behind it (through
    German-controlled areas), or to a front-line area adjacent to its own. Each
    unit moves once; garrisons cannot move; a unit entering a garrisoned area
    removes the garrison."""
    charts = charts_of(ctx.module)
    unit, to = order.get("unit"), order.get("to")
    enter_phase(ctx, "movement", f"move {unit}")
    here = unit_on_map(ctx, charts, unit, RULE_MOVEMENT)
    known_area(charts, to, RULE_MOVEMENT)
    if unit in ctx.state["moved"]:
        raise IllegalOrder(RULE_MOVEMENT, f"{unit} has already moved this turn",
                           code="already-moved")
    if to == here:
        raise IllegalOrder(RULE_MOVEMENT, f"{unit} is already in {name_of(charts, to)}",
                           code="no-move")
    if not german_area(ctx.state, to):
        raise IllegalOrder(RULE_MOVEMENT, f"{name_of(charts, to)} is Soviet-controlled: units "
                           "enter Soviet areas only by attacking", code="soviet-area")
    check_romanian_line(charts, [unit], to, f"{unit} cannot move there")
    romanian = nationality(charts, unit) == "romanian"
    route = charts.board.path(
        here, to, lambda a: german_area(ctx.state, a) and (
            not romanian or a in charts.romanian_allowed))
    if route is None:
        raise IllegalOrder(RULE_MOVEMENT, f"{unit} has no way from {name_of(charts, here)} to "
                           f"{name_of(charts, to)} through German-controlled areas",
                           code="no-route")
    if borders_soviet(charts, ctx.state, to) and not charts.board.adjacent(here, to):
        raise IllegalOrder(RULE_MOVEMENT, f"{name_of(charts, to)} is on the front line, and a "
                           f"unit may enter only a front-line area adjacent to its own "
                           f"({name_of(charts, here)} is not adjacent)", code="front-too-far")
    check_allies_apart(charts, ctx.state, [unit], to, f"{unit} cannot move there")
    if to in ctx.state["garrisons"]:
        ctx.emit("garrison-removed", area=to, reason=f"{unit} moved in", rule=RULE_MOVEMENT)
    ctx.emit("moved", unit=unit, **{"from": here}, to=to, route=route)
    update_control(ctx, charts, f"{unit} moved")
    garrison_if_mandatory(ctx, charts, [here])


def garrison_if_mandatory(ctx: StepContext, charts: Charts, left: list[str]) -> None:
    """Movement, optional rule: a garrison must be placed where all units left an
    area that is not adjacent to a Soviet-controlled area."""
    if ctx.state["options"]["mandatory-garrison"] != "yes":
        return
    for area in sorted(set(left)):
        if area not in occupied_areas(ctx.state) and german_area(ctx.state, area) \
                and not borders_soviet(charts, ctx.state, area):
            ctx.emit("garrison-placed", area=area, rule="Movement (optional rule)")


def place_garrison(ctx: StepContext, order: Order) -> None:
    """Movement: if all units leave an area that is not adjacent to a
    Soviet-controlled area, a garrison may be placed in that area."""
    charts = charts_of(ctx.module)
    area = order.get("area")
    known_area(charts, area, RULE_MOVEMENT)
    if ctx.state["phase"] == "setup":
        if charts.start_side[area] != GERMAN or area in occupied_areas(ctx.state):
            raise IllegalOrder(RULE_FREE_PLACEMENT, f"a garrison can be placed at set-up only "
                               f"in an empty German-side area; {name_of(charts, area)} is not "
                               "one", code="bad-garrison")
        ctx.emit("garrison-placed", area=area, rule=RULE_FREE_PLACEMENT)
        refresh_control(ctx, charts, "garrison placed")
        return
    if ctx.state["phase"] not in ("movement", "attack"):
        raise IllegalOrder(RULE_SEQUENCE, "garrisons are placed when units leave an area, in "
                           "the movement or attack phase; that is over", code="phase-over")
    if area not in ctx.state["vacated"]:
        raise IllegalOrder(RULE_MOVEMENT, f"a garrison may be placed only where all units left "
                           f"this turn, and no unit left {name_of(charts, area)}",
                           code="not-vacated")
    if area in occupied_areas(ctx.state):
        raise IllegalOrder(RULE_MOVEMENT, f"{name_of(charts, area)} is not empty",
                           code="not-empty")
    if not german_area(ctx.state, area) or borders_soviet(charts, ctx.state, area):
        raise IllegalOrder(RULE_MOVEMENT, f"{name_of(charts, area)} is adjacent to a "
                           "Soviet-controlled area, so no garrison may be placed there",
                           code="garrison-at-front")
    ctx.emit("garrison-placed", area=area, rule=RULE_MOVEMENT)


def attack(ctx: StepContext, order: Order) -> None:
    """Combat: units attack an adjacent Soviet-controlled area; roll D3, add the
    year's modifier, read the Attack Chart; on success the survivors move in."""
    charts = charts_of(ctx.module)
    target, units = order.get("target"), order.words("units")
    enter_phase(ctx, "attack", f"attack {target}")
    known_area(charts, target, RULE_COMBAT)
    if not units:
        raise IllegalOrder(RULE_COMBAT, "an attack needs at least one unit", code="no-units")
    if len(set(units)) != len(units):
        raise IllegalOrder(RULE_COMBAT, "a unit is listed twice in the attack",
                           code="unit-twice")
    if ctx.state["control"][target] != SOVIET:
        raise IllegalOrder(RULE_COMBAT, f"{name_of(charts, target)} is not Soviet-controlled; "
                           "only Soviet-controlled areas can be attacked", code="not-soviet")
    origins: dict[str, str] = {}
    for unit in units:
        here = unit_on_map(ctx, charts, unit, RULE_COMBAT)
        if unit in ctx.state["attacked"]:
            raise IllegalOrder(RULE_COMBAT, f"{unit} has already attacked this turn; each unit "
                               "may attack one area", code="already-attacked")
        if not charts.board.adjacent(here, target):  # so `here` is on the front line too
            raise IllegalOrder(RULE_COMBAT, f"{unit} in {name_of(charts, here)} is not adjacent "
                               f"to {name_of(charts, target)}", code="not-adjacent")
        origins[unit] = here
    check_romanian_line(charts, units, target, "they cannot attack there, as they would move in")
    check_allies_apart(charts, ctx.state, units, target, "they cannot attack together")
    explicit_loss = order.get("lose") or None
    if explicit_loss is not None and explicit_loss not in units:
        raise IllegalOrder(RULE_COMBAT, f"lose={explicit_loss} is not one of the attacking units",
                           code="bad-loss-choice")

    year = charts.turn(ctx.state["turn"]).year
    german = any(nationality(charts, u) == "german" for u in units)
    roll = ctx.roll_d3(f"German attack on {name_of(charts, target)}")
    outcome = charts.attack_outcome(len(units), roll, charts.year_modifier(year, german))
    ctx.emit("attacked", target=target, units=sorted(units), origins=origins,
             german_taking_part=german, year=year, roll=roll, modifier=outcome.modifier,
             modified=outcome.modified, row=outcome.row, column=outcome.column,
             result=outcome.result, rule=RULE_COMBAT)
    resolve_attack(ctx, charts, target, sorted(units), outcome.result, explicit_loss)


def resolve_attack(ctx: StepContext, charts: Charts, target: str, units: list[str],
                   result: str, explicit_loss: str | None) -> None:
    """Combat results: -1 the attack fails and the attacker loses a unit; X the attack
    succeeds and all attackers move in; X-1 it succeeds, one is lost, the rest move in
    (if none remain the area stays Soviet)."""
    survivors = list(units)
    if result in ("-1", "X-1"):
        lost = choose_unit_lost(
            ctx, charts, units, "attack-loss", RULE_COMBAT,
            {"target": target, "units": units, "result": result}, explicit_loss)
        remove_unit(ctx, charts, lost, f"lost attacking {name_of(charts, target)} ({result})",
                    RULE_COMBAT)
        survivors.remove(lost)
    origins = sorted({ctx.state["units"][u] for u in survivors})
    if result in ("X", "X-1") and survivors:
        ctx.emit("advanced", units=survivors, origins=origins, to=target)
    update_control(ctx, charts, f"attack on {name_of(charts, target)}")
    garrison_if_mandatory(ctx, charts, origins)


def place_reinforcement(ctx: StepContext, order: Order) -> None:
    """Reinforcements: one unit a turn (two in Winter 1942) enters, first come first
    served (units due in the same turn in the player's order), at its nationality's entry
    area if that area is not on the front line."""
    charts = charts_of(ctx.module)
    unit, area = order.get("unit"), order.get("area")
    enter_phase(ctx, "reinforcement", f"place {unit}")
    known_unit(charts, unit, RULE_REINFORCEMENTS)
    known_area(charts, area, RULE_REINFORCEMENTS)
    turn = charts.turn(ctx.state["turn"])
    since = {entry["unit"]: charts.turn(entry["due"]).index for entry in ctx.state["queue"]
             if charts.turn(entry["due"]).index <= turn.index}
    due = sorted(since, key=lambda u: since[u])
    if unit not in due:
        raise IllegalOrder(RULE_REINFORCEMENTS, f"{unit} is not a reinforcement due this turn "
                           f"(due now: {', '.join(due) or 'none'})", code="not-due")
    if ctx.state["entered"] >= turn.reinforcements:
        raise IllegalOrder(RULE_REINFORCEMENTS, f"only {turn.reinforcements} reinforcement "
                           f"unit(s) may enter in {turn.name}; the others enter later",
                           code="too-many-reinforcements")
    problem = entry_problem(ctx, charts, unit, area)
    if problem:
        raise IllegalOrder(RULE_REINFORCEMENTS, problem, code="bad-entry")
    # Only a unit due in an earlier turn has waited longer; of units due in the same
    # turn the player chooses (RULES-ISSUES.md #24).
    for earlier in (u for u in due if since[u] < since[unit]):
        if any(entry_problem(ctx, charts, earlier, a) is None
               for a in entry_areas(charts, earlier)):
            raise IllegalOrder(RULE_REINFORCEMENTS, f"{earlier} has waited longer and can enter "
                               f"now, so it enters before {unit}", code="queue-order")
    if area in ctx.state["garrisons"]:
        ctx.emit("garrison-removed", area=area, reason=f"{unit} entered", rule=RULE_MOVEMENT)
    ctx.emit("reinforcement-placed", unit=unit, area=area)
    update_control(ctx, charts, f"{unit} entered")


def entry_areas(charts: Charts, unit: str) -> tuple[str, ...]:
    return charts.nationalities[nationality(charts, unit)].enters


def entry_problem(ctx: StepContext, charts: Charts, unit: str, area: str) -> str | None:
    """Why `unit` cannot enter at `area` now, or None if it can."""
    nat = charts.nationalities[nationality(charts, unit)]
    if area not in nat.enters:
        where = " or ".join(name_of(charts, a) for a in nat.enters)
        return f"{nat.name} units enter at {where}"
    if not german_area(ctx.state, area):
        return f"{name_of(charts, area)} is Soviet-controlled"
    if borders_soviet(charts, ctx.state, area):
        return f"{name_of(charts, area)} is a front-line area, where no reinforcement may enter"
    nats = {nationality(charts, u) for u in units_in(ctx.state, area)} | {nat.id}
    if {"romanian", "hungarian"} <= nats:
        return "Romanian and Hungarian units cannot stack in the same area"
    return None
