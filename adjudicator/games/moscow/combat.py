"""Moscow '41 combat and overrun as orders: `<attack>` in the phasing side's Combat
Phase (8.0-8.12) and `<overrun>` in its Movement Phase (7.0-7.8), over the pure
procedures of combat_odds.py (8.0-8.8), combat_results.py (8.9-8.12), overrun.py and
movement.py; the result is carried out task by task by aftermath.py.

One combat runs in this order: the declaration (8.6 A, checked by 8.0-8.3 / 7.0-7.5
before anything is shown), the German air units (11.0 B, 11.2: the attacker's from the
order; on a Soviet attack on German units the German places them on defence, by
standing instruction or a decision request), the reveal of every untried token taking
part (8.6 D, 12.2), supply judged now (9.0 C), the odds with every shift (8.5, 7.1,
3.2 E, 9.2, 10.1, 11.1, 13.0, 15.1 B, 15.2 B), the roll, and then the result, task by
task (aftermath.py).

Choice strings (the `loss` attribute and the answers to "loss" requests):
`retreat-1`, `retreat-2`, `step:ID`, `step:ID+ID` (the same German unit twice: both its
steps), `step:ID;retreat-1`. Retreat answers name the hexes entered: `2517-2618`.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine.decisions import DecisionRequest
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext, next_decision_id, request_decision
from adjudicator.errors import IllegalOrder
from adjudicator.games.moscow import untried
from adjudicator.games.moscow.aftermath import (
    apply_loss,
    apply_retreat,
    combatant,
    loss_text,
    run,
    standing_of,
)
from adjudicator.games.moscow.air import air_available, interdiction
from adjudicator.games.moscow.charts import NO_EFFECT, CombatCharts, CombatMap
from adjudicator.games.moscow.combat_odds import Combat, Combatant, check_attack, combat_odds
from adjudicator.games.moscow.combat_results import Option
from adjudicator.games.moscow.data import Game, unit_facts, units_of
from adjudicator.games.moscow.movement import (
    Mover,
    check_not_finished,
    left_behind,
    mover,
    mover_record,
    mps_text,
    note_mover,
)
from adjudicator.games.moscow.overrun import Overrun, overrun_cost
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.supply import is_supplied
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.vocabulary import RULES_0_2_0, other_side
from adjudicator.games.moscow.zoc import EnemyZones, zone_of_control

STEPS = ("air-on-defence", "loss", "retreat", "defender-advance")  # answered here


PER_PHASE = ("attacked", "defended", "retreated")  # 8.1 B, 8.2, 7.8: reset every phase


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


def attack(ctx: StepContext, order: Order) -> None:
    """8.0-8.12: the phasing side's units attack the enemy units in one hex, or in
    several as one coordinated attack (8.3)."""
    state, game = ctx.state, Game.of(ctx.module)
    if state["phase"] != "combat":
        raise CATALOGUE.refuse("not-combat", "8.0 A",
            "attacks are made in the phasing side's Combat Phase "
            "(an overrun, <overrun>, in its Movement Phase: 7.0 A)")
    labels = order.words("hexes")
    if not labels:
        raise CATALOGUE.refuse("no-defender", "8.6 A", "name the hex or hexes attacked (hexes=)")
    hexes = [_hex(game, x, "8.6 A") for x in labels]
    if len(set(hexes)) != len(hexes):
        raise CATALOGUE.refuse("bad-hex", "8.6 A", "a hex is named twice")
    attackers = _phasing_units(game, state, order.words("units"), "8.6 A")
    declare(ctx, order, "attack", attackers, hexes, None)


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
        raise CATALOGUE.refuse("air-units", "11.0 B",
            f"{', '.join(twice)} is named twice: an air unit is "
            "placed once")
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
            raise CATALOGUE.refuse("loss-syntax", "8.9 D",
                f"{text!r} is not a loss choice: write retreat-1, "
                "retreat-2, step:ID, step:ID+ID or step:ID;retreat-1") from None
        first = preferences[-1].partition(";")[0]
        named = first[5:].split("+") if first.startswith("step:") else []
        stray = [x for x in named if x not in attackers]
        if stray:
            raise CATALOGUE.refuse("loss-syntax", "8.9 D",
                f"{', '.join(stray)} is not attacking here and "
                "cannot take the loss")
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
        standing = standing_of(state, "german").get("air-on-defence")
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
        tuple(combatant(game, state, u, u not in unsupplied, u in retreated)
              for u in context["attackers"]),
        tuple(combatant(game, state, u, u not in unsupplied, u in retreated)
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


def resume(ctx: StepContext, context: dict[str, Any], choice: str) -> None:
    """Resume the combat an answered request interrupted (the request's context)."""
    context = dict(context)
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


def _hex(game: Game, text: str, rule: str) -> Hex:
    try:
        return game.board.hex(text)
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", rule, str(exc)) from None


def _phasing_units(game: Game, state: State, units: list[str], rule: str, *,
                   not_mine: str = "8.0 A") -> list[str]:
    """The units named for an attack (8.0 A) or an overrun (4.0 B), each the phasing
    side's and on the map."""
    side = state["player"]
    if not units:
        raise CATALOGUE.refuse("no-attacker", rule, "name the attacking units (units=)")
    if len(set(units)) != len(units):
        raise CATALOGUE.refuse("not-phasing", rule, "a unit is named twice")
    for unit in units:
        if unit not in state["units"] or unit_facts(game, state, unit)[0] != side:
            raise CATALOGUE.refuse("not-phasing", not_mine,
                f"{unit!r} is not a unit of the {side} player on "
                "the map")
    return list(units)


def _unseen(game: Game, state: State, unit: str, retreated: set[str]) -> Combatant:
    """A combat unit with its side, type and hex only: what the checks before the reveal
    may look at (12.2)."""
    side, unit_type, _, _ = unit_facts(game, state, unit)
    return Combatant(unit, side, unit_type, game.board.hex(state["units"][unit]), 0, 0,
                     retreated=unit in retreated)


def _check_air(game: Game, state: State, side: str, air: list[str]) -> None:
    """11.0 B, 11.0 E, 11.4: the attacker names its air units; only the German has any."""
    if not air:
        return
    if side != "german":
        raise CATALOGUE.refuse("air-units", "11.0 B",
            "only the German player has air units; on a Soviet "
            "attack he places them on defence when asked")
    available = air_available(game, state)
    for unit in air:
        piece = game.pieces.get(unit)
        if piece is None or piece.type != "air":
            raise CATALOGUE.refuse("air-units", "11.0 A", f"{unit!r} is not a German air unit")
        if unit not in available:
            raise CATALOGUE.refuse("air-committed", "11.4",
                f"{unit} is committed this turn: each air unit is "
                "used once per turn")


def _parse_advance(game: Game, text: str, attackers: list[str],
                   rule: str) -> list[Any]:
    """`ID` (into the first hex vacated) or `ID@HEX` or `ID@HEX,HEX` (8.12 F, 7.6 D)."""
    unit, _, where = text.partition("@")
    if unit not in attackers:
        raise CATALOGUE.refuse("not-victorious", "8.12 B",
            f"{unit!r} does not take part in this combat and "
            "cannot advance after it")
    path = [game.board.label(_hex(game, x, "8.12 A")) for x in where.split(",")] \
        if where else []
    return [unit, path]


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
    """3.1.1 A as movement.apply_moved: an overrun is part of its units' movement."""
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


def _too_fewmps_text(game: Game, cost: Overrun, movers: list[Mover],
                 revised: bool) -> IllegalOrder:
    """7.3, 7.0 D, 4.1 A: an overrun the units have too few MPs left for; from module 0.2.0
    on the refusal says what each needs and has, and names the disengagement cost."""
    target = game.board.label(cost.target)
    if not revised:
        short = ", ".join(f"{u} ({cost.costs[u]} MPs)" for u in cost.short)
        return CATALOGUE.refuse("too-far", "7.3",
            f"too few MPs left to overrun {target}: {short}; an "
            "overrun costs 2 MPs (1 for German units on Turn 1, 3.2 C) and "
            "the cost of the defenders' hex")
    left = {m.id: m.allowance - m.spent for m in movers}
    short = ", ".join(f"{u} needs {mps_text(cost.costs[u])} MPs and has {mps_text(left[u])} left"
                      for u in cost.short)
    extra = (", and the disengagement cost as it leaves the zone of control of other "
             "enemy units (7.0 D: +3, +2 for panzers)") if cost.disengagement else ""
    return CATALOGUE.refuse("too-far", "7.3",
        f"too few MPs left to overrun {target}: {short}; an overrun "
        "costs 2 MPs (1 for German units on Turn 1, 3.2 C) and the cost of "
        f"the defenders' hex{extra}")


def overrun(ctx: StepContext, order: Order) -> None:
    """7.0-7.8: a moving unit or stack overruns the enemy units in an adjacent hex."""
    state, game = ctx.state, Game.of(ctx.module)
    side = state["player"]
    if state["phase"] != "movement":
        raise CATALOGUE.refuse("not-movement", "7.0 A",
            "an overrun occurs during the phasing side's Movement "
            "Phase, never in a Combat Phase")
    revised = ctx.module.at_least(RULES_0_2_0)
    # an overrun is movement: a side moves only its own units (4.0 B; 0.1.0 cited 8.0 A)
    units = _phasing_units(game, state, order.words("units"), "7.0 C",
                           not_mine="4.0 B" if revised else "8.0 A")
    check_not_finished(state, units)
    target = _hex(game, order.get("hex"), "7.5 A")
    terrain = Terrain.of(ctx.module)
    movers = [mover(game, terrain, state, u) for u in units]
    enemy = EnemyZones.of(terrain, units_of(game, state, other_side(side)))
    cost = overrun_cost(terrain, movers, target, enemy, turn=state["turn"],
                        left_behind=left_behind(game, state, side, units),
                        interdiction=interdiction(game, state, side), revised=revised)
    if not cost.enough:
        raise _too_fewmps_text(game, cost, movers, revised)
    facts = {
        "target": game.board.label(target),
        "costs": {u: str(c) for u, c in cost.costs.items()},
        "minimum_move": cost.minimum_move, "disengagement": cost.disengagement,
        "into_ezoc": cost.into_ezoc, "left_behind": cost.left_behind,
        "movers": {m.id: mover_record(ctx, m) for m in movers},
    }
    declare(ctx, order, "overrun", units, [target], facts)
