"""1941 rules 7.7 Combat Results and 7.8 Retreat, the steps of the attack procedure
(`combat.ATTACK`) after the roll: eliminations (7.7.1, 7.7.5), the exchange (7.7.6), the
retreats (7.8.1-7.8.2, with 9.2 B and 17.1.4; 7.8.2 C's longer retreat through the kit's
rings, engine/retreat.py) and the advance after combat (7.8.3, 12.0 D)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.engine.hexboard import HexBoard
from adjudicator.engine.hexgrid import Hex
from adjudicator.engine.procedure import Context
from adjudicator.engine.retreat import rings
from adjudicator.engine.step import StepContext
from adjudicator.games.barbarossa.control import ask_after_settling
from adjudicator.games.barbarossa.data import GameData
from adjudicator.games.barbarossa.first_turn import is_first_turn, retreat_chooser
from adjudicator.games.barbarossa.stacking import problem_with
from adjudicator.games.barbarossa.vocabulary import (
    Country,
    Decision,
    EventKind,
    Result,
    RetreatChoice,
    UnitType,
)
from adjudicator.games.barbarossa.zoc import enemy_zones

EXCHANGE_IMMUNITY = 3  # 7.7.6 C: an attacker three times the defender's loss loses nothing
RETREAT_SEARCH = 6  # 7.8.2 C: how far a retreat may go on to find room (ample on this map)


@dataclass(frozen=True)
class Strength:
    """An attacking unit's printed combat strength (7.7.6 D)."""

    id: str
    strength: int


def exchange_candidates(attackers: Sequence[Any], lost: int) -> list[str]:
    """7.7.6 B-D: after an exchange the attacker removes one unit whose printed strength
    most closely approximates the strength the defender lost (its choice among ties),
    none if every attacker has at least three times that strength (`attackers`: units
    with an `id` and a printed `strength`)."""
    if not attackers or all(u.strength >= EXCHANGE_IMMUNITY * lost for u in attackers):
        return []
    best = min(abs(u.strength - lost) for u in attackers)
    return [u.id for u in attackers if abs(u.strength - lost) == best]


# -- 7.7: the results ------------------------------------------------------------------------------

def eliminate(ctx: StepContext, context: Context) -> None:
    """7.7.1 AE: all attacking units are removed; 7.7.5 DE: all defending units."""
    if context["result"] == Result.AE:
        for unit in context["attackers"]:
            ctx.emit(EventKind.UNIT_ELIMINATED, unit=unit, rule="7.7.1")
    elif context["result"] == Result.DE:
        for unit in context["defenders"]:
            ctx.emit(EventKind.UNIT_ELIMINATED, unit=unit, rule="7.7.5")


def exchange(ctx: StepContext, context: Context) -> None:
    """7.7.6 EX: the defenders eliminated, then the attacker's loss (its choice: named in
    the attack order, else asked when there is more than one candidate)."""
    if context["result"] != Result.EX:
        return
    game = GameData.of(ctx.module)
    lost = sum(game.pieces[u].attack for u in context["defenders"]  # 7.7.6 D
               if u not in ctx.state.get("retreated", []))
    for unit in context["defenders"]:
        ctx.emit(EventKind.UNIT_ELIMINATED, unit=unit, rule="7.7.6 A")
    candidates = exchange_candidates([Strength(u, game.pieces[u].attack)
                                      for u in context["attackers"]], lost)
    if candidates:
        choice = context.get("lose") if context.get("lose") in candidates else None
        if choice is None and len(candidates) > 1:
            ask_after_settling(ctx, ctx.state["player"], Decision.EXCHANGE_LOSS.value,
                               "7.7.6 B", candidates,
                               {**context, "step": Decision.EXCHANGE_LOSS.value})
        ctx.emit(EventKind.UNIT_ELIMINATED, unit=choice or candidates[0], rule="7.7.6 B")


def exchange_loss_answered(ctx: StepContext, context: Context, choice: str) -> None:
    ctx.emit(EventKind.UNIT_ELIMINATED, unit=choice, rule="7.7.6 B")


# -- 7.8: retreats ---------------------------------------------------------------------------------

def retreat(ctx: StepContext, context: Context) -> Context | None:
    """7.7.2 AR, 7.7.4 DR: every attacking or defending unit retreats one hex."""
    if context["result"] not in (Result.DR, Result.AR):
        return None
    units = context["defenders"] if context["result"] == Result.DR else context["attackers"]
    return retreat_units(ctx, {**context, "retreating": list(units)})


def retreat_answered(ctx: StepContext, context: Context, choice: str) -> Context:
    ctx.emit(EventKind.UNIT_RETREATED, unit=context["unit"], to=choice)
    return retreat_units(ctx, {**context, "retreating": context["retreating"][1:]})


def retreat_units(ctx: StepContext, context: Context) -> Context:
    """7.8: retreat the units one by one; the owner chooses among equal priorities (the
    German for Soviet units on Turn 1, 17.1.4); no hex at all eliminates the unit."""
    state, game = ctx.state, GameData.of(ctx.module)
    while context["retreating"]:
        unit = context["retreating"][0]
        piece = game.pieces[unit]
        options = retreat_options(game, state, unit)
        chooser = retreat_chooser(state, piece.side)
        standing = state.get("standing", {}).get(chooser, {})
        if not options:
            ctx.emit(EventKind.UNIT_ELIMINATED, unit=unit, rule="7.8.2 B")
        elif len(options) == 1 or standing.get(Decision.RETREAT) == RetreatChoice.FIRST:
            ctx.emit(EventKind.UNIT_RETREATED, unit=unit, to=options[0])
        else:
            ask_after_settling(ctx, chooser, Decision.RETREAT.value,
                               "17.1.4" if chooser != piece.side else "7.8.1", options,
                               {**context, "step": Decision.RETREAT.value, "unit": unit})
        context = {**context, "retreating": context["retreating"][1:]}
    return context


@dataclass(frozen=True)
class RetreatMap:
    """What a retreat must know (7.8.2): prohibited hexsides, enemy-occupied hexes, the
    hexes in enemy ZOCs, the hexes friendly units occupy."""

    prohibited: Callable[[Hex, Hex], bool]
    enemy: frozenset[Hex]
    enemy_zoc: frozenset[Hex]
    friendly: frozenset[Hex]


def retreat_hexes(board: HexBoard, start: Hex, terrain: RetreatMap, *,
                  german_armor: bool = False) -> list[list[Hex]]:
    """7.8.1-7.8.2: the hexes a unit may retreat one hex into, by priority: A, the hexes
    in no enemy ZOC; only then B, hexes in an enemy ZOC that a friendly unit occupies; a
    German armor-type unit may, when there is nothing else, retreat into an enemy ZOC no
    friendly unit occupies (9.2 B). Empty: the unit is eliminated (7.8.2 B)."""
    open_hexes, covered, exposed = [], [], []
    for there in board.neighbours(start):
        if there in terrain.enemy or terrain.prohibited(start, there):
            continue
        if there not in terrain.enemy_zoc:
            open_hexes.append(there)
        elif there in terrain.friendly:
            covered.append(there)
        else:
            exposed.append(there)
    tiers = [tier for tier in (open_hexes, covered) if tier]
    return tiers or ([exposed] if german_armor and exposed else [])


def retreat_options(game: GameData, state: dict[str, Any], unit: str) -> list[str]:
    """7.8.1-7.8.2: the hexes the unit may end its retreat in. One hex, by priority; where
    every such hex would overstack it, it retreats additional hexes, the minimum
    necessary, through hexes it may retreat into (7.8.2 C: the kit's rings of the
    retreat); none: eliminated."""
    piece = game.pieces[unit]
    here = game.board.hex(state["units"][unit])
    zones = enemy_zones(game, state, piece.side)
    friendly = frozenset(game.board.hex(x) for u, x in state["units"].items()
                         if game.pieces[u].side == piece.side and u != unit)

    def prohibited(a: Hex, b: Hex) -> bool:  # 7.8.2 A, with 15.1 A: Hungary on Turn 1
        return game.impassable(a, b, piece.armor, state["weather"]) \
            or (is_first_turn(state) and game.country.get(b) == Country.HUNGARY)

    terrain = RetreatMap(prohibited, zones.occupied, zones.any, friendly)
    allowed: dict[Hex, list[list[Hex]]] = {}

    def tiers_from(h: Hex) -> list[list[Hex]]:
        if h not in allowed:
            allowed[h] = retreat_hexes(game.board, h, terrain, german_armor=piece.german_armor)
        return allowed[h]

    def room(h: Hex) -> bool:
        return problem_with(game, state, unit, h) is None

    found = rings(here, game.board.neighbours,
                  lambda a, b: any(b in tier for tier in tiers_from(a)), deepest=RETREAT_SEARCH)
    # 7.8.1: the first ring keeps its priorities; every ring further is one (7.8.2 C)
    by_priority = [[h for h in tier if h in found[0]] for tier in tiers_from(here)] \
        if found else []
    for tier in [*by_priority, *found[1:]]:
        fits = [h for h in tier if room(h)]
        if fits:
            return [game.board.label(h) for h in fits]
    return []


# -- 7.8.3: the advance after combat ------------------------------------------------------------

def advance_after_combat(ctx: StepContext, context: Context) -> None:
    """7.8.3: after DE, EX or DR one attacking unit may enter the hex cleared of
    defenders (shock armies never, 12.0 D); it is named in the attack order."""
    if context["result"] not in (Result.DE, Result.EX, Result.DR):
        return
    unit = context.get("advance")
    state, game = ctx.state, GameData.of(ctx.module)
    if not unit or unit not in state["units"] or unit not in context["attackers"]:
        return
    if any(x == context["hex"] for x in state["units"].values()):
        return  # not cleared
    if game.pieces[unit].type == UnitType.SHOCK:
        return  # 12.0 D
    ctx.emit(EventKind.UNIT_ADVANCED, unit=unit, to=context["hex"])
    if state["control"].get(context["hex"], game.start_side(game.board.hex(context["hex"]))) \
            != game.pieces[unit].side:
        ctx.emit(EventKind.CONTROL_CHANGED, hex=context["hex"], side=game.pieces[unit].side)
