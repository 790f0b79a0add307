"""1941 rule 7.0 as orders: an attack (7.1-7.4), its odds and shifts (7.6, 9.1, 10.2),
the roll, and its result (7.7) with retreats (7.8) and advance (7.8.3).

Choices the rules give a side are made by that side: the defender's air points
(10.2 B, C) and retreats (7.7.4, but the German's on Turn 1, 17.1.4) by standing
instructions or a decision request; the attacker's exchange loss (7.7.6 B) and
advance (7.8.3) in its attack order, or by a decision request when the roll makes
a choice it did not foresee. A request stops the step; the answer resumes the
attack where it stopped, with everything it needs kept in the request's context.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine.decisions import DecisionRequest
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.orders import Order
from adjudicator.engine.step import StepContext, next_decision_id, request_decision
from adjudicator.errors import IllegalOrder
from adjudicator.games.barbarossa import control
from adjudicator.games.barbarossa.combat import (
    Combatant,
    air_shift,
    armor_bonus,
    check_axis_air,
    exchange_candidates,
    total_strength,
)
from adjudicator.games.barbarossa.game import Game, control_of, enemy_zones, other_side
from adjudicator.games.barbarossa.ground import RetreatMap, retreat_hexes
from adjudicator.games.barbarossa.naval import naval_attacker
from adjudicator.games.barbarossa.strategic import check_finnish_attack


def attack(ctx: StepContext, order: Order) -> None:
    """7.1-7.2: the phasing side's units attack the occupants of one adjacent hex, each
    unit once per Combat Phase, each hex once; air points 10.2-10.3."""
    state, game = ctx.state, Game.of(ctx.module)
    if state["phase"] != "combat":
        raise IllegalOrder("7.1 A", "attacks are made in a Combat Phase", code="not-combat")
    side = state["player"]
    if game.since_0_3 and len(order.words("hex")) > 1:
        hexes = " and ".join(order.words("hex"))
        raise IllegalOrder("7.2 B", f"each attack is directed against the occupants of a "
                           f"single hex: two or more hexes may not be attacked in a single "
                           f"attack, so attack {hexes} separately", code="two-hexes")
    try:
        target = game.board.hex(order.get("hex"))
    except ValueError as exc:
        raise IllegalOrder("7.2 A", str(exc), code="bad-hex") from None
    label = game.board.label(target)
    defenders = sorted(u for u, x in state["units"].items() if x == label)
    if not defenders or game.pieces[defenders[0]].side == side:
        raise IllegalOrder("7.1 A", f"no enemy unit occupies {label}", code="no-defender")
    if all(u in state.get("defended", []) for u in defenders):
        raise IllegalOrder("7.2 E", f"every unit in {label} was already attacked in this "
                           "Combat Phase; a unit may be attacked only once",
                           code="attacked-twice")
    attackers = order.words("units")
    if not attackers:
        raise IllegalOrder("7.4 A", "name the attacking units", code="no-attackers")
    for unit in attackers:
        piece = game.pieces.get(unit)
        if piece is None or unit not in state["units"] or piece.side != side:
            raise IllegalOrder("7.1 A", f"{unit!r} is not a unit of the phasing side on the "
                               "map", code="not-attacker")
        if unit in state.get("attacked_by", []):
            raise IllegalOrder("7.2 D", f"{piece.name} has already attacked in this Combat "
                               "Phase", code="attacked-twice")
        if not game.board.grid.adjacent(game.board.hex(state["units"][unit]), target):
            raise IllegalOrder("7.1 A", f"{piece.name} in {state['units'][unit]} is not next "
                               f"to {label}", code="not-adjacent")
    if game.since_0_3:
        check_named(game, order, attackers)
    naval = [(u, fleet) for u in attackers if (fleet := naval_attacker(game, state, u, target))]
    if len(naval) > 1:
        raise IllegalOrder("20.1.2 A", "the Black Sea Fleet supports the attack of one "
                           f"infantry-type unit, not {len(naval)}", code="fleet-used")
    finns = [u for u in attackers if game.pieces[u].nationality == "finnish"]
    if finns:
        check_finnish_attack(
            turn=state["turn"],
            across_border=any(game.country.get(game.board.hex(state["units"][u])) == "finland"
                              and game.country.get(target) == "soviet" for u in finns),
            target=label, target_limit=game.finnish_limit.get(target, ""),
            german_attacking=any(game.pieces[u].nationality == "german" for u in attackers),
            leningrad_axis=control_of(game, state, game.city("Leningrad")) == "axis")
    try:
        air = int(order.get("air", "0") or 0)
    except ValueError:
        raise IllegalOrder("10.2 A", "air is a number of air points", code="air-points") \
            from None
    if (air < 0 or air > state["air"][side]) and game.since_0_3:
        who = "Germany has" if side == "axis" else "the Soviets have"
        raise IllegalOrder("10.1 B", f"{who} {state['air'][side]} air points left this "
                           f"turn, not {air}; each may be used once per turn, in either "
                           "player turn", code="air-points")
    if air < 0 or air > state["air"][side]:  # module 0.2.0's words
        raise IllegalOrder("10.1 B", f"{side} has {state['air'][side]} air points left this "
                           f"turn, not {air}; each may be used once", code="air-points")
    if side == "axis":
        check_axis_air(air, [game.pieces[u].nationality for u in attackers],
                       [game.pieces[u].nationality for u in defenders])
    context = {"hex": label, "attackers": attackers, "defenders": defenders, "air": air,
               "advance": order.get("advance"), "lose": order.get("lose")}
    # 20.1.2 A: the one unit the Black Sea Fleet carries into the attack (named only then)
    carried = {"naval": naval[0][0], "fleet": naval[0][1]} if naval else {}
    ctx.emit("attack-declared", side=side, hex=label, attackers=attackers,
             defenders=defenders, air=air, **carried)
    context.update(carried)
    defensive_air(ctx, context)


def check_named(game: Game, order: Order, attackers: list[str]) -> None:
    """7.8.3 A, 12.0 D, 7.7.6 B (module 0.3.0): the unit `advance` names is one of the
    attacking units and not a shock army; the unit `lose` names is one of the attacking
    units. Refused when the attack is declared, before any die is rolled; before 0.3.0
    such a name was silently dropped."""
    units = ", ".join(attackers)
    advancing = order.get("advance")
    if advancing and advancing not in attackers:
        raise IllegalOrder("7.8.3 A", f"advance names {advancing!r}, which is not one of the "
                           f"units of this attack ({units}): only an attacking unit may "
                           "advance into the hex it clears", code="bad-advance")
    if advancing and game.pieces[advancing].type == "shock":
        raise IllegalOrder("12.0 D", f"{game.pieces[advancing].name} is a shock army, and a "
                           "shock army may never advance after combat", code="shock-advance")
    losing = order.get("lose")
    if losing and losing not in attackers:
        raise IllegalOrder("7.7.6 B", f"lose names {losing!r}, which is not one of the units "
                           f"of this attack ({units}): the attacker's loss in an exchange is "
                           "one of its attacking units", code="bad-loss")


def ask(ctx: StepContext, request: DecisionRequest) -> None:
    """Stop for a decision, with control as the attack has left the map so far (4.0 B,
    module 0.3.0): the step may end here."""
    control.settle(ctx)
    request_decision(ctx, request)


def defensive_air(ctx: StepContext, context: dict[str, Any]) -> None:
    """10.2 B-C: after the attacker's air points, the defender allocates its own: by
    standing instruction, or asked."""
    defender = other_side(ctx.state["player"])
    available = ctx.state["air"][defender]
    if defender == "axis" and not german_in(Game.of(ctx.module), context):
        available = 0  # 10.3: German air only where a German unit attacks or defends
    standing = ctx.state.get("standing", {}).get(defender, {})
    if available and "defensive-air" not in standing:
        ask(ctx, DecisionRequest(
            next_decision_id(ctx.state), defender, "defensive-air", "10.2 B",
            [str(n) for n in range(available + 1)], {**context, "step": "defensive-air"}))
    points = min(available, int(standing.get("defensive-air", 0)))
    resolve(ctx, {**context, "defence_air": points})


def german_in(game: Game, context: dict[str, Any]) -> bool:
    """10.3: whether a German unit attacks or defends in this attack."""
    return any(game.pieces[u].nationality == "german"
               for u in [*context["attackers"], *context["defenders"]])


def resolve(ctx: StepContext, context: dict[str, Any]) -> None:
    """7.4: strengths, ratio, shifts, the roll, the result."""
    state, game = ctx.state, Game.of(ctx.module)
    weather = state["weather"]
    target = game.board.hex(context["hex"])
    attackers = [combatant(game, u, state, attacking=True) for u in context["attackers"]]
    # 7.3: a unit that retreated into the hex this phase adds nothing to its defence
    defenders = [combatant(game, u, state, attacking=False, target=target)
                 for u in context["defenders"] if u not in state.get("retreated", [])]
    attack_total, defence_total = total_strength(attackers), total_strength(defenders)
    terrain = terrain_shift(game, state, target, context["attackers"], context.get("naval"))
    armor = 1 if armor_bonus(attackers, defenders, defender_terrain=game.board.terrain[target],
                             weather=weather) else 0
    shift = terrain + armor + air_shift(context["air"], context["defence_air"])
    ladder = game.charts.crt.ladder
    column = ladder.final(ladder.clamp(ladder.initial(attack_total, max(defence_total, 1))),
                          shift)
    roll = ctx.roll_d6(f"combat against {context['hex']}")
    result = game.charts.crt.result(column, roll)
    ctx.emit("attack-resolved", hex=context["hex"], attack=attack_total,
             defence=defence_total, shift=shift, odds=ladder.name(column), roll=roll,
             result=result, air={"attacker": context["air"], "defender": context["defence_air"]},
             shifts={"terrain": terrain, "armor": armor})
    apply_result(ctx, {**context, "result": result})


def combatant(game: Game, unit: str, state: dict[str, Any], *, attacking: bool,
              target: Hex | None = None) -> Combatant:
    """A unit's strength in this attack: halved for an Axis attack in snow (13.5 D), a
    shock army that moved in this segment (12.0 B), an unsupplied attacker (8.3 B);
    doubled for Soviet infantry-type defenders in a fortifications hex (11.0 D)."""
    piece = game.pieces[unit]
    halvings = 0
    if attacking and piece.side == "axis" and state["weather"] == "snow":
        halvings += 1
    if attacking and piece.type == "shock" and unit in state["moved"]:
        halvings += 1
    if attacking and unit in state.get("unsupplied", []):  # 8.3 B
        halvings += 1
    doubled = (not attacking and piece.side == "soviet" and not piece.armor
               and target is not None and game.fortified(state, target))
    return Combatant(unit, piece.attack, piece.armor, halvings, doubled)


def terrain_shift(game: Game, state: dict[str, Any], target: Hex, attackers: list[str],
                  naval: str | None = None) -> int:
    """7.6 B: the defender's hex, its city, and a hexside every attacker crosses; the
    unit the Black Sea Fleet carries attacks as across a river (20.1.2 A a)."""
    weather, water = state["weather"], game.water.get(target)
    shift = 0
    row = game.charts.combat_effect(game.board.terrain[target], weather, water)
    if row is not None and row.effect == "shift":
        shift += row.shift
    city = game.cities.get(target)
    if city:
        row = game.charts.combat_effect(f"{city}-city", weather)
        if row is not None and row.effect == "shift":
            shift += row.shift
    sides = [game.board.features(game.board.hex(state["units"][u]), target)
             if u != naval else frozenset({"river"}) for u in attackers]
    for feature in sorted(set.intersection(*(set(f) for f in sides)) if sides else set()):
        row = game.charts.combat_effect(feature, weather)
        if row is not None and row.effect == "shift":
            shift += row.shift
    return shift


def apply_result(ctx: StepContext, context: dict[str, Any]) -> None:
    """7.7: the six results."""
    result = context["result"]
    if result == "AE":
        for unit in context["attackers"]:
            ctx.emit("unit-eliminated", unit=unit, rule="7.7.1")
    elif result == "DE":
        for unit in context["defenders"]:
            ctx.emit("unit-eliminated", unit=unit, rule="7.7.5")
        advance(ctx, context)
    elif result == "EX":
        exchange(ctx, context)
    elif result in ("DR", "AR"):
        units = context["defenders"] if result == "DR" else context["attackers"]
        retreat_next(ctx, {**context, "retreating": list(units)})
    finish_attack(ctx, context)


def exchange(ctx: StepContext, context: dict[str, Any]) -> None:
    """7.7.6: the defenders eliminated, then the attacker's loss (its choice)."""
    game = Game.of(ctx.module)
    lost = sum(game.pieces[u].attack for u in context["defenders"]  # 7.7.6 D
               if u not in ctx.state.get("retreated", []))
    for unit in context["defenders"]:
        ctx.emit("unit-eliminated", unit=unit, rule="7.7.6 A")
    attackers = [Combatant(u, game.pieces[u].attack, game.pieces[u].armor)
                 for u in context["attackers"]]
    candidates = exchange_candidates(attackers, lost)
    if candidates:
        choice = context.get("lose") if context.get("lose") in candidates else None
        if choice is None and len(candidates) > 1:
            ask(ctx, DecisionRequest(
                next_decision_id(ctx.state), ctx.state["player"], "exchange-loss", "7.7.6 B",
                candidates, {**context, "step": "exchange-loss"}))
        ctx.emit("unit-eliminated", unit=choice or candidates[0], rule="7.7.6 B")
    advance(ctx, context)


def answer_exchange(ctx: StepContext, context: dict[str, Any], choice: str) -> None:
    ctx.emit("unit-eliminated", unit=choice, rule="7.7.6 B")
    advance(ctx, context)
    finish_attack(ctx, context)


def advance(ctx: StepContext, context: dict[str, Any]) -> None:
    """7.8.3: one attacking unit may enter the hex cleared of defenders (shock armies
    never, 12.0 D); it is named in the attack order."""
    unit = context.get("advance")
    state, game = ctx.state, Game.of(ctx.module)
    if not unit or unit not in state["units"] or unit not in context["attackers"]:
        return
    if any(x == context["hex"] for x in state["units"].values()):
        return  # not cleared
    if game.pieces[unit].type == "shock":
        return  # 12.0 D
    ctx.emit("unit-advanced", unit=unit, to=context["hex"])
    if state["control"].get(context["hex"], game.start_side(game.board.hex(context["hex"]))) \
            != game.pieces[unit].side:
        ctx.emit("control-changed", hex=context["hex"], side=game.pieces[unit].side)


def retreat_next(ctx: StepContext, context: dict[str, Any]) -> None:
    """7.8: retreat the units one by one; the owner chooses among equal priorities (the
    German for Soviet units on Turn 1, 17.1.4); no hex at all eliminates the unit."""
    state, game = ctx.state, Game.of(ctx.module)
    while context["retreating"]:
        unit = context["retreating"][0]
        piece = game.pieces[unit]
        options = retreat_options(game, state, unit)
        chooser = "axis" if state["turn"] == 1 and piece.side == "soviet" else piece.side
        standing = state.get("standing", {}).get(chooser, {})
        if not options:
            ctx.emit("unit-eliminated", unit=unit, rule="7.8.2 B")
        elif len(options) == 1 or standing.get("retreat") == "first":
            ctx.emit("unit-retreated", unit=unit, to=options[0])
        else:
            ask(ctx, DecisionRequest(
                next_decision_id(state), chooser, "retreat", "17.1.4" if chooser != piece.side
                else "7.8.1", options, {**context, "step": "retreat", "unit": unit}))
        context = {**context, "retreating": context["retreating"][1:]}
    if context["result"] == "DR":
        advance(ctx, context)


def answer_retreat(ctx: StepContext, context: dict[str, Any], choice: str) -> None:
    ctx.emit("unit-retreated", unit=context["unit"], to=choice)
    retreat_next(ctx, {**context, "retreating": context["retreating"][1:]})
    finish_attack(ctx, context)


RETREAT_SEARCH = 6  # 7.8.2 C: how far a retreat may go on to find room (ample on this map)


def retreat_options(game: Game, state: dict[str, Any], unit: str) -> list[str]:
    """7.8.1-7.8.2: the hexes the unit may end its retreat in. One hex, by priority; where
    every such hex would overstack it, it retreats additional hexes, the minimum
    necessary, through hexes it may retreat into (7.8.2 C); none: eliminated."""
    piece = game.pieces[unit]
    here = game.board.hex(state["units"][unit])
    zones = enemy_zones(game, state, piece.side)
    friendly = frozenset(game.board.hex(x) for u, x in state["units"].items()
                         if game.pieces[u].side == piece.side and u != unit)
    def prohibited(a: Hex, b: Hex) -> bool:  # 7.8.2 A, with 15.1 A: Hungary on Turn 1
        return game.impassable(a, b, piece.armor, state["weather"]) \
            or (state["turn"] == 1 and game.country.get(b) == "hungary")
    terrain = RetreatMap(prohibited, zones.occupied, zones.any, friendly)
    german_armor = piece.armor and piece.nationality == "german"

    def room(h: Hex) -> bool:
        return game.stacking_problem_with(state, unit, h) is None

    tiers = retreat_hexes(game.board, here, terrain, german_armor=german_armor)
    seen = {here, *(h for tier in tiers for h in tier)}
    for _ in range(RETREAT_SEARCH):
        for tier in tiers:  # 7.8.1: the best priority with room
            fits = [h for h in tier if room(h)]
            if fits:
                return [game.board.label(h) for h in fits]
        further: list[Hex] = []
        for h in sorted(h for tier in tiers for h in tier):
            for nxt in (x for tier in retreat_hexes(game.board, h, terrain,
                                                    german_armor=german_armor) for x in tier):
                if nxt not in seen:
                    seen.add(nxt)
                    further.append(nxt)
        if not further:
            return []
        tiers = [sorted(further)]
    return []


def finish_attack(ctx: StepContext, context: dict[str, Any]) -> None:
    ctx.emit("attack-finished", hex=context["hex"], attackers=context["attackers"])


def answer_battle(ctx: StepContext, pending: dict[str, Any], choice: str) -> None:
    """Resume the attack an answered request interrupted."""
    context = pending["context"]
    step = context["step"]
    if step == "defensive-air":
        resolve(ctx, {**context, "defence_air": int(choice)})
    elif step == "exchange-loss":
        answer_exchange(ctx, context, choice)
    elif step == "retreat":
        answer_retreat(ctx, context, choice)
    else:
        raise IllegalOrder("7.0", f"nothing waits for a {step!r} answer", code="no-decision")
