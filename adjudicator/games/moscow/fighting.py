"""Moscow '41 combat and overrun as orders: `<attack>` in the phasing side's Combat
Phase (8.0-8.12) and `<overrun>` in its Movement Phase (7.0-7.8), over the pure
procedures of combat.py and movement.py.

One combat runs in this order: the declaration (8.6 A, checked by 8.0-8.3 / 7.0-7.5
before anything is shown), the German air units (11.0 B, 11.2: the attacker's from the
order; on a Soviet attack on German units the German places them on defence, by
standing instruction or a decision request), the reveal of every untried token taking
part (8.6 D, 12.2), supply judged now (9.0 C), the odds with every shift (8.5, 7.1,
3.2 E, 9.2, 10.1, 11.1, 13.0, 15.1 B, 15.2 B), the roll, and the result: 8.2's swept
units, then the defender's part, then the attacker's (8.9 F), each as one of the legal
options of loss_options (8.9 D-H), retreats unit by unit (8.10-8.11), the advance
(8.12; forced after a successful overrun, 7.6 C), and for an overrun the movers' MPs
(7.3, 7.7 C-D).

Choices go to the side the rules give them (DESIGN §4): the attacker's loss from the
order's `loss` preferences when one fits, the defender's from its standing instruction;
otherwise a decision request. A request stops the step; the answer resumes the combat
from the request's context, which carries the rest of the combat as a queue of tasks.
After the roll nothing in the order can make the combat illegal (that would let a
player re-roll): a named advance that the result does not allow is skipped and said so.

Choice strings (the `loss` attribute and the answers to "loss" requests):
`retreat-1`, `retreat-2`, `step:ID`, `step:ID+ID` (the same German unit twice: both its
steps), `step:ID;retreat-1`. Retreat answers name the hexes entered: `2517-2618`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from adjudicator.engine.decisions import DecisionRequest
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext, next_decision_id, request_decision
from adjudicator.errors import IllegalOrder
from adjudicator.games.moscow import untried
from adjudicator.games.moscow.combat import (
    NO_EFFECT,
    AdvanceMove,
    Combat,
    Combatant,
    CombatCharts,
    CombatMap,
    Option,
    RetreatFacts,
    attacking_victors,
    check_advance,
    check_attack,
    combat_odds,
    defending_victors,
    loss_options,
    overrun_attacker_options,
    retreat_paths,
    swept_away,
)
from adjudicator.games.moscow.game import Game, other_side
from adjudicator.games.moscow.logistics import STACKING_LIMIT
from adjudicator.games.moscow.movement import (
    EnemyZones,
    Overrun,
    Terrain,
    overrun_cost,
    zone_of_control,
)
from adjudicator.games.moscow.moving import (
    check_not_finished,
    interdiction,
    is_supplied,
    left_behind,
    mover,
    mover_from_record,
    mover_record,
    note_mover,
    unit_facts,
    units_of,
)

STEPS = ("air-on-defence", "loss", "retreat", "defender-advance")  # answered here
PER_PHASE = ("attacked", "defended", "retreated")  # 8.1 B, 8.2, 7.8: reset every phase
LOSS_RULES = {"1": "8.9 D", "2": "8.9 E", "E": "8.9 G"}


# -- choice strings -----------------------------------------------------------------------

def loss_text(option: Option) -> str:
    """The string that names a loss option: "step:A+B;retreat-1"."""
    parts = []
    if option.losses:
        parts.append("step:" + "+".join(option.losses))
    if option.retreat:
        parts.append(f"retreat-{option.retreat}")
    return ";".join(parts) or "none"


def parse_loss(text: str) -> str:
    """A `loss` preference checked for its syntax and put in the form `loss_text` gives
    (step losses sorted); ValueError if it is not one."""
    losses: list[str] = []
    retreat = 0
    for part in text.split(";"):
        if part.startswith("step:") and not losses and part[5:]:
            losses = part[5:].split("+")
            if not all(losses):
                raise ValueError(text)
        elif part in ("retreat-1", "retreat-2") and not retreat:
            retreat = int(part[-1])
        else:
            raise ValueError(text)
    return loss_text(Option(tuple(sorted(losses)), retreat))


def path_text(board_label: Any, path: tuple[Hex, ...]) -> str:
    return "-".join(board_label(h) for h in path)


# -- the orders ---------------------------------------------------------------------------

def attack(ctx: StepContext, order: Order) -> None:
    """8.0-8.12: the phasing side's units attack the enemy units in one hex, or in
    several as one coordinated attack (8.3)."""
    state, game = ctx.state, Game.of(ctx.module)
    if state["phase"] != "combat":
        raise IllegalOrder("8.0 A", "attacks are made in the phasing side's Combat Phase "
                           "(an overrun, <overrun>, in its Movement Phase: 7.0 A)",
                           code="not-combat")
    labels = order.words("hexes")
    if not labels:
        raise IllegalOrder("8.6 A", "name the hex or hexes attacked (hexes=)", code="no-defender")
    hexes = [_hex(game, x, "8.6 A") for x in labels]
    if len(set(hexes)) != len(hexes):
        raise IllegalOrder("8.6 A", "a hex is named twice", code="bad-hex")
    attackers = _phasing_units(game, state, order.words("units"), "8.6 A")
    declare(ctx, order, "attack", attackers, hexes, None)


def overrun(ctx: StepContext, order: Order) -> None:
    """7.0-7.8: a moving unit or stack overruns the enemy units in an adjacent hex."""
    state, game = ctx.state, Game.of(ctx.module)
    side = state["player"]
    if state["phase"] != "movement":
        raise IllegalOrder("7.0 A", "an overrun occurs during the phasing side's Movement "
                           "Phase, never in a Combat Phase", code="not-movement")
    units = _phasing_units(game, state, order.words("units"), "7.0 C")
    check_not_finished(state, units)
    target = _hex(game, order.get("hex"), "7.5 A")
    terrain = Terrain.of(ctx.module)
    movers = [mover(game, terrain, state, u) for u in units]
    enemy = EnemyZones.of(terrain, units_of(game, state, other_side(side)))
    cost = overrun_cost(terrain, movers, target, enemy, turn=state["turn"],
                        left_behind=left_behind(game, state, side, units),
                        interdiction=interdiction(game, state, side))
    if not cost.enough:
        short = ", ".join(f"{u} ({cost.costs[u]} MPs)" for u in cost.short)
        raise IllegalOrder("7.3", f"too few MPs left to overrun {game.board.label(target)}: "
                           f"{short}; an overrun costs 2 MPs (1 for German units on Turn 1, "
                           "3.2 C) and the cost of the defenders' hex", code="too-far")
    facts = {
        "target": game.board.label(target),
        "costs": {u: str(c) for u, c in cost.costs.items()},
        "minimum_move": cost.minimum_move, "disengagement": cost.disengagement,
        "into_ezoc": cost.into_ezoc, "left_behind": cost.left_behind,
        "movers": {m.id: mover_record(game, m) for m in movers},
    }
    declare(ctx, order, "overrun", units, [target], facts)


def declare(ctx: StepContext, order: Order, kind: str, attackers: list[str],
            hexes: list[Hex], overrun_facts: dict[str, Any] | None) -> None:
    """8.6 A-C: the attackers and the defenders announced, checked (8.0-8.3, 7.0-7.5)
    with nothing hidden shown; then air (11.2) and the reveal (8.6 D)."""
    state, game = ctx.state, Game.of(ctx.module)
    side = state["player"]
    label = game.board.label
    terrain, ground = Terrain.of(ctx.module), CombatMap.of(ctx.module)
    names = {label(h) for h in hexes}
    defenders = sorted(u for u, x in state["units"].items()
                       if x in names and unit_facts(game, state, u)[0] != side)
    air = order.words("air")
    if len(set(air)) != len(air):
        twice = sorted({a for a in air if air.count(a) > 1})
        raise IllegalOrder("11.0 B", f"{', '.join(twice)} is named twice: an air unit is "
                           "placed once", code="air-units")
    rule = "7.0" if kind == "overrun" else "8.6 A"
    retreated = set(state.get("retreated", []))
    placeholder = Combat(
        tuple(_unseen(game, state, u, retreated) for u in attackers),
        tuple(_unseen(game, state, u, retreated) for u in defenders),
        tuple(hexes), overrun=kind == "overrun", air=len(air), turn=state["turn"],
        weather=state["weather"])

    def in_zoc(a: Hex, b: Hex) -> bool:  # 8.1 A through the movement rules' ZOC (5.0)
        return a in zone_of_control(terrain.board, b, blocked=terrain.blocks_zoc)

    if kind == "overrun":
        check_attack(placeholder, ground, in_zoc)  # 7.5 B: 8.1 B does not apply
    else:
        check_attack(placeholder, ground, in_zoc, attacked=state.get("attacked", []),
                     defended=state.get("defended", []))
    _check_air(game, state, side, air)
    preferences = []
    for text in order.words("loss"):
        try:
            preferences.append(parse_loss(text))
        except ValueError:
            raise IllegalOrder("8.9 D", f"{text!r} is not a loss choice: write retreat-1, "
                               "retreat-2, step:ID, step:ID+ID or step:ID;retreat-1",
                               code="loss-syntax") from None
        first = preferences[-1].partition(";")[0]
        named = first[5:].split("+") if first.startswith("step:") else []
        stray = [x for x in named if x not in attackers]
        if stray:
            raise IllegalOrder("8.9 D", f"{', '.join(stray)} is not attacking here and "
                               "cannot take the loss", code="loss-syntax")
    advance = [_parse_advance(game, text, attackers, rule) for text in order.words("advance")]
    supplied = {u: is_supplied(game, terrain, state, u) for u in [*attackers, *defenders]}
    context: dict[str, Any] = {
        "kind": kind, "side": side, "hexes": [label(h) for h in hexes],
        "attackers": list(attackers), "defenders": defenders, "air": air,
        "loss": preferences, "advance": advance,
        "unsupplied": sorted(u for u, ok in supplied.items() if not ok),
        "origin": {u: state["units"][u] for u in [*attackers, *defenders]},
        "overrun": overrun_facts,
    }
    ctx.emit("attack-declared", combat=kind, side=side, hexes=context["hexes"],
             attackers=context["attackers"], defenders=defenders, air=air,
             unsupplied=context["unsupplied"],
             rule="7.0 D" if kind == "overrun" else "8.6 A")
    german_defends = any(unit_facts(game, state, u)[0] == "german" for u in defenders)
    if side == "soviet" and german_defends:
        available = air_available(game, state)
        standing = _standing(state, "german").get("air-on-defence")
        if available and standing is None:
            request_decision(ctx, DecisionRequest(
                next_decision_id(state), "german", "air-on-defence", "11.0 B",
                [str(n) for n in range(min(len(available), 3) + 1)],
                {**context, "step": "air-on-defence"}))
        if available and standing is not None:
            n = max(0, min(int(standing), len(available), 3))
            ctx.emit("standing-instruction-used", side="german",
                     instruction="air-on-defence", choice=str(n))
            context["air"] = available[:n]
    fight(ctx, context)


def fight(ctx: StepContext, context: dict[str, Any]) -> None:
    """11.4, 8.6 D, 8.5: air committed, untried units revealed, odds, roll, result."""
    state, game = ctx.state, Game.of(ctx.module)
    charts, ground = CombatCharts.of(ctx.module), CombatMap.of(ctx.module)
    overrunning = context["kind"] == "overrun"
    if context["air"]:
        ctx.emit("air-committed", units=context["air"], hexes=context["hexes"], rule="11.4")
    participants = [*context["attackers"], *context["defenders"]]
    untried.reveal(ctx, [u for u in participants if u in state["identity"]],
                   "12.2" if overrunning else "8.6 D")
    unsupplied = set(context["unsupplied"])
    retreated = set(state.get("retreated", []))
    combat = Combat(
        tuple(_combatant(game, state, u, u not in unsupplied, u in retreated)
              for u in context["attackers"]),
        tuple(_combatant(game, state, u, u not in unsupplied, u in retreated)
              for u in context["defenders"]),
        tuple(game.board.hex(x) for x in context["hexes"]), overrun=overrunning,
        air=len(context["air"]), turn=state["turn"], weather=state["weather"])
    odds = combat_odds(charts, ground, combat)
    roll = ctx.roll_d6(f"{context['kind']} at {' '.join(context['hexes'])}")
    result = charts.result(odds.column, roll)
    ctx.emit("combat-resolved", combat=context["kind"], hexes=context["hexes"],
             attackers=context["attackers"], defenders=context["defenders"],
             attack=odds.attack, defense=odds.defense, initial=odds.initial,
             shifts=[{"name": s.name, "columns": s.columns, "rule": s.rule,
                      "detail": s.detail} for s in odds.shifts],
             final=odds.final, roll=roll, result=result.code,
             attacker=result.attacker, defender=result.defender)
    queue: list[dict[str, Any]] = []
    if not overrunning and result.defender != NO_EFFECT:
        queue.append({"task": "sweep"})
    for party in result.order:  # 8.9 F: the defender first
        queue.append({"task": "loss", "party": party})
    queue.append({"task": "advance"})
    if not overrunning:  # 7.7 E: never after an overrun
        queue.append({"task": "defender-advance"})
    if overrunning:
        queue.append({"task": "movers"})
    run(ctx, {**context, "result": {"code": result.code, "attacker": result.attacker,
                                    "defender": result.defender},
              "queue": queue, "retreated": [], "beyond": [], "all_eliminated": False})


def run(ctx: StepContext, context: dict[str, Any]) -> None:
    """The rest of a combat, task by task; a task that needs a choice asks for it."""
    while context["queue"]:
        task = context["queue"][0]
        rest = context["queue"][1:]
        if task["task"] == "sweep":
            context = _sweep(ctx, context)
        elif task["task"] == "loss":
            choice = _loss_choice(ctx, context, task["party"])
            context = apply_loss(ctx, {**context, "queue": rest}, task["party"], choice)
            continue
        elif task["task"] == "retreat":
            path = _retreat_choice(ctx, context, task)
            context = apply_retreat(ctx, context, task, path)
        elif task["task"] == "advance":
            context = _advance(ctx, context)
        elif task["task"] == "defender-advance":
            _defender_advance(ctx, context)
        elif task["task"] == "movers":
            _movers(ctx, context)
        context = {**context, "queue": rest}
    ctx.emit("combat-finished", combat=context["kind"], hexes=context["hexes"],
             success=_cleared(ctx.state, context) if context["kind"] == "overrun" else None)


def answer(ctx: StepContext, pending: dict[str, Any], choice: str) -> None:
    """Resume the combat an answered request interrupted."""
    context = dict(pending["context"])
    step = context.pop("step")
    for key in ("party", "part", "unit"):
        context.pop(key, None)
    if step == "air-on-defence":
        context["air"] = air_available(Game.of(ctx.module), ctx.state)[:int(choice)]
        fight(ctx, context)
        return
    task, rest = context["queue"][0], context["queue"][1:]
    if step == "defender-advance":
        if choice == "none":
            context = {**context, "queue": rest}
        else:  # one unit goes in; the defender is asked again for the others
            unit, _, hex_label = choice.partition("@")
            ctx.emit("units-advanced", side=other_side(context["side"]),
                     moves=[{"unit": unit, "path": [hex_label]}], skipped=[], rule="8.12 C")
            context = {**context, "defender_advanced": [*context.get("defender_advanced", []),
                                                        unit]}
        run(ctx, context)
        return
    if step == "loss":
        context = apply_loss(ctx, {**context, "queue": rest}, task["party"], choice)
    elif choice == "later":  # 8.10 A: the owner retreats this unit after his others
        last = max(i for i, t in enumerate(rest) if t["task"] == "retreat")
        context = {**context, "queue": [*rest[:last + 1], task, *rest[last + 1:]]}
    else:
        labels = choice.split("-")
        context = apply_retreat(ctx, context, task, labels)
        context = {**context, "queue": rest}
    run(ctx, context)


# -- the result ---------------------------------------------------------------------------

def _sweep(ctx: StepContext, context: dict[str, Any]) -> dict[str, Any]:
    """8.2: units that retreated into a defending hex this phase are eliminated when the
    defenders suffer an adverse result."""
    state, game = ctx.state, Game.of(ctx.module)
    retreated = set(state.get("retreated", []))
    defenders = [_combatant(game, state, u, True, u in retreated)
                 for u in context["defenders"] if u in state["units"]]
    for unit in swept_away(context["result"]["defender"], defenders, overrun=False):
        ctx.emit("unit-eliminated", unit=unit, rule="8.2")
    return context


def _party_units(ctx: StepContext, context: dict[str, Any], party: str) -> list[Combatant]:
    state, game = ctx.state, Game.of(ctx.module)
    return [_combatant(game, state, u, True, False) for u in context[party + "s"]
            if u in state["units"]]


def _options(ctx: StepContext, context: dict[str, Any], party: str) -> list[Option]:
    units = _party_units(ctx, context, party)
    part = context["result"][party]
    if party == "attacker" and context["kind"] == "overrun":
        return overrun_attacker_options(part, units, successful=_cleared(ctx.state, context))
    return loss_options(part, units)


def _owner(context: dict[str, Any], party: str) -> str:
    return str(context["side"]) if party == "attacker" else other_side(context["side"])


def _loss_choice(ctx: StepContext, context: dict[str, Any], party: str) -> str:
    """8.9 D-E: the owner of the affected units chooses: the only option; the attacker's
    preference in its order; the defender's standing instruction; else a request."""
    options = [loss_text(o) for o in _options(ctx, context, party)]
    if len(options) <= 1:
        return options[0] if options else "none"
    owner = _owner(context, party)
    if party == "attacker":
        preset = next((p for p in context["loss"] if p in options), None)
        if preset is not None:
            return str(preset)
    standing = _standing(ctx.state, owner).get("loss")
    if standing is not None:
        pick = standing if standing in options else next(
            (o for o in options if standing == "retreat" and o.startswith("retreat")), None)
        if pick is not None:
            ctx.emit("standing-instruction-used", side=owner, instruction="loss", choice=pick)
            return pick
    part = context["result"][party]
    rule = LOSS_RULES.get(part, "8.9")
    if context["kind"] == "overrun" and party == "attacker":
        rule = "7.6 B" if _cleared(ctx.state, context) else "7.7 B"
    request_decision(ctx, DecisionRequest(
        next_decision_id(ctx.state), owner, "loss", rule, options,
        {**context, "step": "loss", "party": party, "part": part}))
    raise AssertionError("unreachable")  # pragma: no cover


def apply_loss(ctx: StepContext, context: dict[str, Any], party: str,
               choice: str) -> dict[str, Any]:
    """8.9 D-H: the steps lost first (a German unit reduced, then eliminated; a Soviet
    unit eliminated), then a retreat of every surviving affected unit, one at a time
    (8.10 A), queued before the rest of the combat."""
    state, game = ctx.state, Game.of(ctx.module)
    options = {loss_text(o): o for o in _options(ctx, context, party)}
    option = options.get(choice, Option())
    part = context["result"][party]
    ctx.emit("loss-chosen", party=party, side=_owner(context, party), part=part,
             choice=choice, hexes=context["hexes"])
    rule = LOSS_RULES.get(part, "8.9")
    for unit in option.losses:
        if unit not in state["units"]:
            continue
        if unit_facts(game, state, unit)[0] == "german" and \
                state["steps"].get(unit, game.pieces[unit].steps) >= 2:
            ctx.emit("unit-reduced", unit=unit, rule=f"{rule}, 8.9 H")
        else:
            ctx.emit("unit-eliminated", unit=unit, rule=f"{rule}, 8.9 H")
    if party == "defender" and not any(u in state["units"] for u in context["defenders"]):
        context = {**context, "all_eliminated": True}  # 8.12 I
    survivors = [u for u in context[party + "s"] if u in state["units"]]
    retreats = [{"task": "retreat", "party": party, "unit": u, "hexes": option.retreat}
                for u in survivors] if option.retreat else []
    if party == "attacker" and option.retreat:
        context = {**context, "retreated": sorted({*context["retreated"], *survivors})}
    return {**context, "queue": [*retreats, *context["queue"]]}


def retreat_facts(ctx: StepContext, context: dict[str, Any], unit: str,
                  party: str) -> RetreatFacts:
    """8.11: the enemy units that caused the retreat, from the hexes they attacked or
    defended in (their original hexes, 8.11 B), the enemy units and their ZOCs now,
    the other friendly units."""
    state, game = ctx.state, Game.of(ctx.module)
    terrain = Terrain.of(ctx.module)
    side = unit_facts(game, state, unit)[0]
    enemy_party = "defenders" if party == "attacker" else "attackers"
    causers = frozenset(game.board.hex(context["origin"][u]) for u in context[enemy_party])
    enemies = units_of(game, state, other_side(side))
    friendly: dict[Hex, int] = {}
    for u in units_of(game, state, side):
        if u.id != unit:
            friendly[u.hex] = friendly.get(u.hex, 0) + 1
    return RetreatFacts(causers, frozenset(u.hex for u in enemies),
                        EnemyZones.of(terrain, enemies).zoc, friendly)


def _retreat_choice(ctx: StepContext, context: dict[str, Any],
                    task: dict[str, Any]) -> list[str]:
    """8.10 A, 8.11: the owner retreats each unit; one safe path is taken, none
    eliminates the unit (an empty list), a choice goes to the owner."""
    state, game = ctx.state, Game.of(ctx.module)
    unit = task["unit"]
    if unit not in state["units"]:
        return []
    ground = CombatMap.of(ctx.module)
    facts = retreat_facts(ctx, context, unit, task["party"])
    here = game.board.hex(state["units"][unit])
    paths = [path_text(game.board.label, p)
             for p in retreat_paths(ground, here, task["hexes"], facts)]
    if len(paths) <= 1:
        return paths[0].split("-") if paths else []
    owner = unit_facts(game, state, unit)[0]
    if _standing(state, owner).get("retreat") == "first":
        ctx.emit("standing-instruction-used", side=owner, instruction="retreat",
                 choice=paths[0])
        return paths[0].split("-")
    # 8.10 A: "in any order the owner chooses": with more of his units still to
    # retreat from this combat, he may retreat this one later
    others = any(t["task"] == "retreat" and t["unit"] != unit and t["unit"] in state["units"]
                 and unit_facts(game, state, t["unit"])[0] == owner
                 for t in context["queue"][1:])
    request_decision(ctx, DecisionRequest(
        next_decision_id(state), owner, "retreat", "8.10 A",
        [*paths, "later"] if others else paths, {**context, "step": "retreat", "unit": unit}))
    raise AssertionError("unreachable")  # pragma: no cover


def apply_retreat(ctx: StepContext, context: dict[str, Any], task: dict[str, Any],
                  labels: list[str]) -> dict[str, Any]:
    state, game = ctx.state, Game.of(ctx.module)
    unit = task["unit"]
    if unit not in state["units"]:
        return context
    if not labels:
        ctx.emit("unit-eliminated", unit=unit, rule="8.11 A")
        return context
    ctx.emit("unit-retreated", unit=unit, side=unit_facts(game, state, unit)[0],
             path=labels, rule="7.7 B" if context["kind"] == "overrun"
             and task["party"] == "attacker" else "8.10")
    if task["party"] == "defender" and len(labels) == 2:  # 8.12 F: both hexes vacated
        context = {**context, "beyond": sorted({*context["beyond"], labels[0]})}
    return context


def _cleared(state: State, context: dict[str, Any]) -> bool:
    """7.6 A, 7.7 A: the overrun succeeds when no defender stays in the hex."""
    return not any(state["units"].get(u) in context["hexes"] for u in context["defenders"])


def _advance(ctx: StepContext, context: dict[str, Any]) -> dict[str, Any]:
    """8.12, 7.6 C-D: the named victorious attackers advance into the hexes the combat
    vacated; after a successful overrun at least one (by default the first named
    overrunning unit) must. Never after a failed overrun (7.7 E: nor the defender)."""
    state, game = ctx.state, Game.of(ctx.module)
    ground = CombatMap.of(ctx.module)
    label, hexes = game.board.label, context["hexes"]
    occupied = set(state["units"].values())
    vacated = [x for x in hexes if x not in occupied]
    if not vacated:
        return context
    overrunning = context["kind"] == "overrun"
    present = [u for u in context["attackers"] if u in state["units"]]
    victors = attacking_victors(_party_units(ctx, context, "attacker"),
                                retreated=context["retreated"])
    wanted = [(u, list(p)) for u, p in context["advance"]]
    if overrunning and not wanted and victors:
        wanted = [(next(u for u in present if u in victors), [])]
    accepted: list[AdvanceMove] = []
    skipped: list[dict[str, str]] = []
    beyond = frozenset(game.board.hex(x) for x in context["beyond"] if x not in occupied)
    vacant = frozenset(game.board.hex(x) for x in vacated)
    for unit, path in wanted:
        move = AdvanceMove(unit, tuple(game.board.hex(x) for x in (path or vacated[:1])))
        try:
            check_advance(ground, [*accepted, move], victors=victors, vacated=vacant,
                          beyond=beyond, all_eliminated=context["all_eliminated"])
        except IllegalOrder as exc:
            skipped.append({"unit": unit, "rule": exc.rule, "why": str(exc)})
            continue
        accepted.append(move)
    if overrunning and not accepted and victors:  # 7.6 C: someone must go in
        accepted = [AdvanceMove(next(u for u in present if u in victors),
                                (game.board.hex(vacated[0]),))]
    facts = context["overrun"]
    if overrunning and facts["disengagement"] and facts["left_behind"] < 1 \
            and len(accepted) > 1 and len(accepted) == len(present):
        dropped = accepted.pop()  # 6.0 B: one must stay in the hex the overrun left
        skipped.append({"unit": dropped.unit, "rule": "6.0 B",
                        "why": "a friendly combat unit must remain in the hex (6.3)"})
    if accepted or skipped:
        ctx.emit("units-advanced", side=context["side"],
                 moves=[{"unit": m.unit, "path": [label(h) for h in m.path]}
                        for m in accepted], skipped=skipped,
                 rule="7.6 C" if overrunning else "8.12")
    return {**context, "advanced": [m.unit for m in accepted]}


def _defender_advance(ctx: StepContext, context: dict[str, Any]) -> None:
    """8.12 A-C: when the attackers' hexes are vacated (they retreated or were
    eliminated), the victorious defending units (no loss, no retreat) may advance into
    them, four at most a hex. The defender chooses, one unit at a time: by decision, or
    not at all by standing instruction `advance="never"`."""
    state, game = ctx.state, Game.of(ctx.module)
    charts = CombatCharts.of(ctx.module)
    result = charts.parse(context["result"]["code"])
    done = context.get("defender_advanced", [])
    victors = [u for u in defending_victors(result, _party_units(ctx, context, "defender"),
                                            overrun=False) if u not in done]
    occupied = list(state["units"].values())
    vacated = sorted({context["origin"][u] for u in context["attackers"]} - set(occupied))
    options = [f"{u}@{x}" for u in victors for x in vacated
               if game.board.grid.adjacent(game.board.hex(state["units"][u]), game.board.hex(x))
               and occupied.count(x) < STACKING_LIMIT]
    defender = other_side(context["side"])
    if not options or _standing(state, defender).get("advance") == "never":
        return
    request_decision(ctx, DecisionRequest(
        next_decision_id(state), defender, "defender-advance", "8.12 C", ["none", *options],
        {**context, "step": "defender-advance"}))


def _movers(ctx: StepContext, context: dict[str, Any]) -> None:
    """7.3, 7.7 C-D, 7.4 C: the overrunning units have paid the overrun's MPs; those that
    advanced stand in the hex (halted in an EZOC, 4.7 B); those that retreated have
    ended their movement; the rest may move on with what they have left."""
    state, game = ctx.state, Game.of(ctx.module)
    terrain = Terrain.of(ctx.module)
    facts = context["overrun"]
    survivors = [u for u in context["attackers"] if u in state["units"]]
    if not survivors:  # 3.1.1 A: still the stack that moved last
        ctx.emit("overrun-movers", units=context["attackers"], movers={})
        return
    movers = [mover_from_record(game, state, u, facts["movers"][u]) for u in survivors]
    advanced = [u for u in context.get("advanced", []) if u in survivors]
    left = facts["left_behind"]
    if facts["disengagement"] and advanced and len(advanced) == len(movers) and left < 1:
        left = 1  # 7.6 C forces the last unit in; 6.0 B yields (see _advance)
    cost = Overrun(game.board.hex(facts["target"]),
                   {u: Fraction(c) for u, c in facts["costs"].items()},
                   True, facts["minimum_move"], facts["disengagement"], facts["into_ezoc"],
                   (), left)
    zoc = EnemyZones.of(terrain, units_of(game, state, other_side(context["side"]))).zoc
    after = cost.after(movers, advanced=advanced, zoc=zoc)
    records = {}
    for m in after:
        here = game.board.hex(state["units"][m.id])
        m = replace(m, unit=replace(m.unit, hex=here))
        if m.id in context["retreated"]:  # 7.7 C
            m = replace(m, finished=True)
        if facts["minimum_move"]:
            m = replace(m, finished=True)  # 4.3: the overrun spent every MP
        records[m.id] = mover_record(game, m)
    ctx.emit("overrun-movers", units=survivors, movers=records)


# -- helpers ------------------------------------------------------------------------------

def _hex(game: Game, text: str, rule: str) -> Hex:
    try:
        return game.board.hex(text)
    except ValueError as exc:
        raise IllegalOrder(rule, str(exc), code="bad-hex") from None


def _phasing_units(game: Game, state: State, units: list[str], rule: str) -> list[str]:
    side = state["player"]
    if not units:
        raise IllegalOrder(rule, "name the attacking units (units=)", code="no-attacker")
    if len(set(units)) != len(units):
        raise IllegalOrder(rule, "a unit is named twice", code="not-phasing")
    for unit in units:
        if unit not in state["units"] or unit_facts(game, state, unit)[0] != side:
            raise IllegalOrder("8.0 A", f"{unit!r} is not a unit of the {side} player on the "
                               "map", code="not-phasing")
    return list(units)


def _unseen(game: Game, state: State, unit: str, retreated: set[str]) -> Combatant:
    """A combat unit with its side, type and hex only: what the checks before the reveal
    may look at (12.2)."""
    side, unit_type, _, _ = unit_facts(game, state, unit)
    return Combatant(unit, side, unit_type, game.board.hex(state["units"][unit]), 0, 0,
                     retreated=unit in retreated)


def _combatant(game: Game, state: State, unit: str, supplied: bool,
               retreated: bool) -> Combatant:
    """A unit's printed values (an untried token's counter once revealed) with its steps
    left (8.9 H), supply (9.0 C) and whether it retreated into its hex (8.2, 7.8)."""
    piece = game.pieces[untried.piece_of(state, unit)]
    here = game.board.hex(state["units"][unit])
    steps = state["steps"].get(unit) if piece.side == "german" else None
    return replace(Combatant.of(piece, here, steps=steps, supplied=supplied,
                                retreated=retreated), id=unit)


def air_available(game: Game, state: State) -> list[str]:
    """11.0 A, 11.4: the German air units not yet committed this turn."""
    used = set(state["air_used"])
    return sorted(p.id for p in game.pieces.values() if p.type == "air" and p.id not in used)


def _check_air(game: Game, state: State, side: str, air: list[str]) -> None:
    """11.0 B, 11.0 E, 11.4: the attacker names its air units; only the German has any."""
    if not air:
        return
    if side != "german":
        raise IllegalOrder("11.0 B", "only the German player has air units; on a Soviet "
                           "attack he places them on defence when asked", code="air-units")
    available = air_available(game, state)
    for unit in air:
        piece = game.pieces.get(unit)
        if piece is None or piece.type != "air":
            raise IllegalOrder("11.0 A", f"{unit!r} is not a German air unit",
                               code="air-units")
        if unit not in available:
            raise IllegalOrder("11.4", f"{unit} is committed this turn: each air unit is "
                               "used once per turn", code="air-committed")


def _parse_advance(game: Game, text: str, attackers: list[str],
                   rule: str) -> list[Any]:
    """`ID` (into the first hex vacated) or `ID@HEX` or `ID@HEX,HEX` (8.12 F, 7.6 D)."""
    unit, _, where = text.partition("@")
    if unit not in attackers:
        raise IllegalOrder("8.12 B", f"{unit!r} does not take part in this combat and "
                           "cannot advance after it", code="not-victorious")
    path = [game.board.label(_hex(game, x, "8.12 A")) for x in where.split(",")] \
        if where else []
    return [unit, path]


def _standing(state: State, side: str) -> dict[str, Any]:
    """A side's standing instructions (DESIGN §4), if the game keeps any."""
    return dict((state.get("standing") or {}).get(side) or {})


# -- events -------------------------------------------------------------------------------

def apply_declared(state: State, data: dict[str, Any]) -> None:
    """8.1 B: in a Combat Phase, each unit attacks once and defends once."""
    if data["combat"] == "attack":
        state["attacked"] = sorted({*state.get("attacked", []), *data["attackers"]})
        state["defended"] = sorted({*state.get("defended", []), *data["defenders"]})


def apply_air_committed(state: State, data: dict[str, Any]) -> None:
    state["air_used"] = sorted({*state["air_used"], *data["units"]})


def apply_reduced(state: State, data: dict[str, Any]) -> None:
    state["steps"][data["unit"]] = 1


def apply_retreated(state: State, data: dict[str, Any]) -> None:
    state["units"][data["unit"]] = data["path"][-1]
    state["retreated"] = sorted({*state.get("retreated", []), data["unit"]})
    for label in data["path"]:  # 9.4: who last occupied a hex
        state["last_occupied"][label] = data["side"]


def apply_advanced(state: State, data: dict[str, Any]) -> None:
    for move in data["moves"]:
        state["units"][move["unit"]] = move["path"][-1]
        for label in move["path"]:
            state["last_occupied"][label] = data["side"]


def apply_overrun_movers(state: State, data: dict[str, Any]) -> None:
    """3.1.1 A as moving.apply_moved: an overrun is part of its units' movement."""
    note_mover(state, list(data["units"]))
    state["movers"].update({u: dict(m) for u, m in data["movers"].items()})


def apply_nothing(state: State, data: dict[str, Any]) -> None:
    """An event for the report: what happened, already applied by the others."""


def reset_fighting(state: State) -> None:
    """A new phase: no unit has attacked, defended or retreated in it yet."""
    for key in PER_PHASE:
        state.pop(key, None)


EVENTS = {
    "attack-declared": apply_declared,
    "air-committed": apply_air_committed,
    "combat-resolved": apply_nothing,
    "loss-chosen": apply_nothing,
    "unit-reduced": apply_reduced,
    "unit-retreated": apply_retreated,
    "units-advanced": apply_advanced,
    "overrun-movers": apply_overrun_movers,
    "combat-finished": apply_nothing,
    "standing-instruction-used": apply_nothing,
}
