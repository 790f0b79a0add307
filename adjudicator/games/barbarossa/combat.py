"""1941 rule 7.0 Combat, with 9.1 (the armor bonus), 10.2 (air power), 11.0 D
(fortifications), 12.0 (shock armies), 13.5 D (snow), 15.2.2 (the Finns) and 20.1.2 A
(the Black Sea Fleet): an attack declared (7.1-7.2), then the kit procedure `ATTACK`
(engine/procedure.py): the defender's air points (10.2 B-C), the strengths, odds, shifts
and roll (7.4-7.6), and the result (7.7) with its retreats (7.8) and advance (7.8.3),
`combat_results.py`.

Choices the rules give a side are made by that side: the defender's air points
(10.2 B, C) and retreats (7.7.4, but the German's on Turn 1, 17.1.4) by standing
instructions or a decision request; the attacker's exchange loss (7.7.6 B) and
advance (7.8.3) in its attack order, or by a decision request when the roll makes
a choice it did not foresee. A request stops the step; the answer resumes the
procedure at the step that asked, with everything it needs kept in the request's
context.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.procedure import Context, Procedure, Step
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa import combat_results, control
from adjudicator.games.barbarossa.air import air_shift, attack_air, defensive_air_available
from adjudicator.games.barbarossa.control import control_of
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.fortifications import fortified
from adjudicator.games.barbarossa.hungary_finland import check_finnish_attack
from adjudicator.games.barbarossa.naval import naval_attacker
from adjudicator.games.barbarossa.orders import Attack
from adjudicator.games.barbarossa.rejections import CATALOGUE
from adjudicator.games.barbarossa.vocabulary import (
    City,
    Country,
    Decision,
    EventKind,
    Feature,
    Nationality,
    Phase,
    Side,
    Terrain,
    UnitType,
)
from adjudicator.games.barbarossa.weather import allows_armor_bonus, halves_axis_attack

SHIFT = "shift"  # the TEC's combat effect that shifts the odds (7.6 C)


@dataclass(frozen=True)
class Combatant:
    id: str
    strength: int  # printed combat strength
    armor: bool  # armor-type (1.3.2)
    halvings: int = 0  # how many times its strength is halved (supply, weather, shock)
    doubled: bool = False  # 11.0 D: infantry-type defending in a fortifications hex


def total_strength(units: Sequence[Combatant]) -> int:
    """7.4 A-C with 7.5: the strengths totalled, every halving done on the exact total
    of the units it applies to, and fractions rounded up only at the end.

    >>> total_strength([Combatant(f"u{i}", 5, False, halvings=1) for i in range(3)])
    8
    """
    exact = sum((Fraction(u.strength * (2 if u.doubled else 1), 2 ** u.halvings)
                 for u in units), Fraction(0))
    return math.ceil(exact)


def armor_bonus(attackers: Sequence[Combatant], defenders: Sequence[Combatant], *,
                defender_terrain: str, weather: str) -> bool:
    """9.1: one column right when only armor-type units attack only infantry-type units
    in a clear hex (a city or a river between is fine), not in mud or snow."""
    return (bool(attackers) and all(u.armor for u in attackers)
            and not any(u.armor for u in defenders)
            and defender_terrain == Terrain.CLEAR and allows_armor_bonus(weather))


# -- 7.1-7.2: the attack declared ---------------------------------------------------------------

def attack(ctx: StepContext, order: Attack) -> None:
    """7.1-7.2: the phasing side's units attack the occupants of one adjacent hex, each
    unit once per Combat Phase, each hex once; air points 10.2-10.3."""
    state, game = ctx.state, GameData.of(ctx.module)
    if state["phase"] != Phase.COMBAT:
        raise CATALOGUE.refuse("not-combat", "7.1 A", "attacks are made in a Combat Phase")
    side = state["player"]
    if game.since_0_3 and len(order.hex.split()) > 1:
        hexes = " and ".join(order.hex.split())
        raise CATALOGUE.refuse("two-hexes", "7.2 B", f"each attack is directed against the "
                               f"occupants of a single hex: two or more hexes may not be "
                               f"attacked in a single attack, so attack {hexes} separately")
    try:
        target = game.board.hex(order.hex)
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "7.2 A", str(exc)) from None
    label = game.board.label(target)
    defenders = sorted(u for u, x in state["units"].items() if x == label)
    if not defenders or game.pieces[defenders[0]].side == side:
        raise CATALOGUE.refuse("no-defender", "7.1 A", f"no enemy unit occupies {label}")
    if all(u in state.get("defended", []) for u in defenders):
        raise CATALOGUE.refuse("attacked-twice", "7.2 E", f"every unit in {label} was already "
                               "attacked in this Combat Phase; a unit may be attacked only once")
    attackers = list(order.units)
    if not attackers:
        raise CATALOGUE.refuse("no-attackers", "7.4 A", "name the attacking units")
    for unit in attackers:
        piece = game.pieces.get(unit)
        if piece is None or unit not in state["units"] or piece.side != side:
            raise CATALOGUE.refuse("not-attacker", "7.1 A", f"{unit!r} is not a unit of the "
                                   "phasing side on the map")
        if unit in state.get("attacked_by", []):
            raise CATALOGUE.refuse("attacked-twice", "7.2 D", f"{piece.name} has already "
                                   "attacked in this Combat Phase")
        if not game.board.grid.adjacent(game.board.hex(state["units"][unit]), target):
            raise CATALOGUE.refuse("not-adjacent", "7.1 A", f"{piece.name} in "
                                   f"{state['units'][unit]} is not next to {label}")
    if game.since_0_3:
        check_named(game, order, attackers)
    naval = [(u, fleet) for u in attackers if (fleet := naval_attacker(game, state, u, target))]
    if len(naval) > 1:
        raise CATALOGUE.refuse("fleet-used", "20.1.2 A", "the Black Sea Fleet supports the "
                               f"attack of one infantry-type unit, not {len(naval)}")
    finns = [u for u in attackers if game.pieces[u].nationality == Nationality.FINNISH]
    if finns:
        check_finnish_attack(
            turn=state["turn"],
            across_border=any(game.country.get(game.board.hex(state["units"][u]))
                              == Country.FINLAND
                              and game.country.get(target) == Country.SOVIET_UNION
                              for u in finns),
            target=label, target_limit=game.finnish_limit.get(target, ""),
            german_attacking=any(game.pieces[u].nationality == Nationality.GERMAN
                                 for u in attackers),
            leningrad_axis=control_of(game, state, game.city(City.LENINGRAD)) == Side.AXIS)
    air = attack_air(game, state, side, order.air, attackers, defenders)
    context: Context = {"hex": label, "attackers": attackers, "defenders": defenders,
                        "air": air, "advance": order.advance, "lose": order.lose}
    # 20.1.2 A: the one unit the Black Sea Fleet carries into the attack (named only then)
    carried = {"naval": naval[0][0], "fleet": naval[0][1]} if naval else {}
    ctx.emit(EventKind.ATTACK_DECLARED, side=side, hex=label, attackers=attackers,
             defenders=defenders, air=air, **carried)
    context.update(carried)
    ATTACK.run(ctx, context)


def check_named(game: GameData, order: Attack, attackers: list[str]) -> None:
    """7.8.3 A, 12.0 D, 7.7.6 B (module 0.3.0): the unit `advance` names is one of the
    attacking units and not a shock army; the unit `lose` names is one of the attacking
    units. Refused when the attack is declared, before any die is rolled; before 0.3.0
    such a name was silently dropped."""
    units = ", ".join(attackers)
    advancing = order.advance
    if advancing and advancing not in attackers:
        raise CATALOGUE.refuse("bad-advance", "7.8.3 A", f"advance names {advancing!r}, which "
                               f"is not one of the units of this attack ({units}): only an "
                               "attacking unit may advance into the hex it clears")
    if advancing and game.pieces[advancing].type == UnitType.SHOCK:
        raise CATALOGUE.refuse("shock-advance", "12.0 D", f"{game.pieces[advancing].name} is a "
                               "shock army, and a shock army may never advance after combat")
    losing = order.lose
    if losing and losing not in attackers:
        raise CATALOGUE.refuse("bad-loss", "7.7.6 B", f"lose names {losing!r}, which is not "
                               f"one of the units of this attack ({units}): the attacker's "
                               "loss in an exchange is one of its attacking units")


# -- the procedure's steps ------------------------------------------------------------------------

def defensive_air(ctx: StepContext, context: Context) -> Context:
    """10.2 B-C: after the attacker's air points, the defender allocates its own: by
    standing instruction, or asked."""
    defender = str(Side(ctx.state["player"]).enemy)
    available = defensive_air_available(GameData.of(ctx.module), ctx.state, context)
    standing = ctx.state.get("standing", {}).get(defender, {})
    if available and Decision.DEFENSIVE_AIR not in standing:
        control.ask_after_settling(ctx, defender, Decision.DEFENSIVE_AIR.value, "10.2 B",
                           [str(n) for n in range(available + 1)],
                           {**context, "step": Decision.DEFENSIVE_AIR.value})
    points = min(available, int(standing.get(Decision.DEFENSIVE_AIR, 0)))
    return {**context, "defence_air": points}


def defensive_air_answered(ctx: StepContext, context: Context, choice: str) -> Context:
    return {**context, "defence_air": int(choice)}


def resolve(ctx: StepContext, context: Context) -> Context:
    """7.4: strengths, ratio, shifts, the roll, the result."""
    state, game = ctx.state, GameData.of(ctx.module)
    attack_total, defence_total, terrain, armor, column = odds(
        game, state, context["hex"], context["attackers"], context["defenders"],
        context.get("naval"), air_shift(context["air"], context["defence_air"]))
    shift = terrain + armor + air_shift(context["air"], context["defence_air"])
    ladder = game.charts.crt.ladder
    roll = ctx.roll_d6(f"combat against {context['hex']}")
    result = game.charts.crt.result(column, roll)
    ctx.emit(EventKind.ATTACK_RESOLVED, hex=context["hex"], attack=attack_total,
             defence=defence_total, shift=shift, odds=ladder.name(column), roll=roll,
             result=result, air={"attacker": context["air"], "defender": context["defence_air"]},
             shifts={"terrain": terrain, "armor": armor})
    return {**context, "result": result}


def odds(game: GameData, state: dict[str, Any], hex_label: str, attacker_ids: list[str],
         defender_ids: list[str], naval: str | None, air: int) -> tuple[int, int, int, int, int]:
    """7.4-7.6, 9.1, 10.2: the attack's strength, the defence's, the terrain and armor
    shifts and the final column on the CRT (after `air`, the air points' shift): what
    `resolve` rolls on, and what the order builder shows before the attack is added."""
    target = game.board.hex(hex_label)
    attackers = [combatant(game, u, state, attacking=True) for u in attacker_ids]
    # 7.3: a unit that retreated into the hex this phase adds nothing to its defence
    defenders = [combatant(game, u, state, attacking=False, target=target)
                 for u in defender_ids if u not in state.get("retreated", [])]
    attack_total, defence_total = total_strength(attackers), total_strength(defenders)
    terrain = terrain_shift(game, state, target, attacker_ids, naval)
    armor = 1 if armor_bonus(attackers, defenders, defender_terrain=game.board.terrain[target],
                             weather=state["weather"]) else 0
    ladder = game.charts.crt.ladder
    column = ladder.final(ladder.clamp(ladder.initial(attack_total, max(defence_total, 1))),
                          terrain + armor + air)
    return attack_total, defence_total, terrain, armor, column


def combatant(game: GameData, unit: str, state: dict[str, Any], *, attacking: bool,
              target: Hex | None = None) -> Combatant:
    """A unit's strength in this attack: halved for an Axis attack in snow (13.5 D), a
    shock army that moved in this segment (12.0 B), an unsupplied attacker (8.3 B);
    doubled for Soviet infantry-type defenders in a fortifications hex (11.0 D)."""
    piece = game.pieces[unit]
    halvings = 0
    if attacking and halves_axis_attack(piece, state):
        halvings += 1
    if attacking and piece.type == UnitType.SHOCK and unit in state["moved"]:
        halvings += 1
    if attacking and unit in state.get("unsupplied", []):  # 8.3 B
        halvings += 1
    doubled = (not attacking and piece.side == Side.SOVIET and not piece.armor
               and target is not None and fortified(game, state, target))
    return Combatant(unit, piece.attack, piece.armor, halvings, doubled)


def terrain_shift(game: GameData, state: dict[str, Any], target: Hex, attackers: list[str],
                  naval: str | None = None) -> int:
    """7.6 B: the defender's hex, its city, and a hexside every attacker crosses; the
    unit the Black Sea Fleet carries attacks as across a river (20.1.2 A a)."""
    weather, water = state["weather"], game.water.get(target)
    shift = 0
    row = game.charts.combat_effect(game.board.terrain[target], weather, water)
    if row is not None and row.effect == SHIFT:
        shift += row.shift
    city = game.cities.get(target)
    if city:
        row = game.charts.combat_effect(f"{city}-city", weather)
        if row is not None and row.effect == SHIFT:
            shift += row.shift
    sides = [game.board.features(game.board.hex(state["units"][u]), target)
             if u != naval else frozenset({Feature.RIVER.value}) for u in attackers]
    for feature in sorted(set.intersection(*(set(f) for f in sides)) if sides else set()):
        row = game.charts.combat_effect(feature, weather)
        if row is not None and row.effect == SHIFT:
            shift += row.shift
    return shift


def finish(ctx: StepContext, context: Context) -> None:
    """7.2 D-E: the attackers have attacked in this Combat Phase."""
    ctx.emit(EventKind.ATTACK_FINISHED, hex=context["hex"], attackers=context["attackers"])


ATTACK = Procedure("attack", (
    Step(Decision.DEFENSIVE_AIR.value, defensive_air, defensive_air_answered),  # 10.2 B-C
    Step("resolve", resolve),  # 7.4-7.6
    Step("eliminate", combat_results.eliminate),  # 7.7.1, 7.7.5
    Step(Decision.EXCHANGE_LOSS.value, combat_results.exchange,
         combat_results.exchange_loss_answered),  # 7.7.6
    Step(Decision.RETREAT.value, combat_results.retreat, combat_results.retreat_answered),
    Step("advance", combat_results.advance_after_combat),  # 7.8.3
    Step("finish", finish),
))
