"""Moscow '41 around the fighting: the German Air Interdiction Phase (11.0 C-D, 11.3-
11.4), the Soviet reinforcements of each turn (14.0-14.4, 1.3.1 I) and the end of the
game (16.0-16.3) on the game's own position."""

from __future__ import annotations

from typing import Any

from adjudicator.engine.orders import Order
from adjudicator.engine.state import State
from adjudicator.engine.step import StepContext
from adjudicator.games.moscow.game import RULES_0_2_0, Game
from adjudicator.games.moscow.logistics import (
    GermanLoss,
    VictorySchedule,
    casualty_points,
    check_reinforcement_entry,
    entry_cost,
    game_result,
    moscow_points,
    reinforcement_hexes,
)
from adjudicator.games.moscow.movement import EnemyZones, movement_allowance
from adjudicator.games.moscow.moving import is_supplied, unit_facts, units_of
from adjudicator.games.moscow.rejections import CATALOGUE
from adjudicator.games.moscow.terrain import Terrain
from adjudicator.games.moscow.untried import draw_tokens

MAX_INTERDICTING = 2  # 11.0 D


def air_units(game: Game) -> list[str]:
    return sorted(u for u, p in game.pieces.items() if p.type == "air")


def interdict(ctx: StepContext, order: Order) -> None:
    """11.0 C-D, 11.4: in the Air Interdiction Phase the German places an air unit not
    yet used this turn on any hex, two at most on one hex."""
    state, game = ctx.state, Game.of(ctx.module)
    if (state["player"], state["phase"]) != ("german", "interdiction"):
        raise CATALOGUE.refuse("not-interdiction", "11.0 C",
            "air units interdict in the German Air Interdiction "
            "Phase")
    air = order.get("air")
    if air not in air_units(game):
        raise CATALOGUE.refuse("not-air", "11.0 A",
            f"{air!r} is not a German air unit; they are "
            f"{', '.join(air_units(game))}")
    if air in state["air_used"]:
        raise CATALOGUE.refuse("air-committed", "11.4", f"{air} has already been used this turn")
    try:
        label = game.board.label(game.board.hex(order.get("hex")))
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "11.0 C", str(exc)) from None
    if state["interdicted"].get(label, 0) >= MAX_INTERDICTING:
        raise CATALOGUE.refuse("interdiction-full", "11.0 D",
            f"two air units already interdict {label}, the most "
            "one hex may have")
    ctx.emit("air-interdicted", air=air, hex=label)


# -- 14.0 Soviet reinforcements -------------------------------------------------------------

def german_in_moscow(game: Game, state: State) -> bool:
    moscow = game.board.label(game.moscow)
    return any(x == moscow and unit_facts(game, state, u)[0] == "german"
               for u, x in state["units"].items())


def draw_reinforcement(ctx: StepContext) -> None:
    """14.0 A-D, 14.3 C, 14.4: as the Soviet Movement Phase begins, one unit is drawn at
    random from the cup of eliminated infantry, untried face up; none while a German land
    unit occupies Moscow or when the cup is empty (RULES-ISSUES 10-11)."""
    state, game = ctx.state, Game.of(ctx.module)
    if german_in_moscow(game, state) or not state["cup"]:
        return
    token = f"U{sum(1 for t in state['tokens'] if t.startswith('U')) + 1:02d}"
    draw_tokens(ctx, [token], state["cup"], f"the reinforcement of Turn {state['turn']}")
    ctx.emit("reinforcement-drawn", token=token, turn=str(state["turn"]))


def entry_facts(game: Game, state: State) -> tuple[list[Any], dict[Any, int]]:
    german = [game.board.hex(x) for u, x in state["units"].items()
              if unit_facts(game, state, u)[0] == "german"]
    soviet: dict[Any, int] = {}
    for u, x in state["units"].items():
        if unit_facts(game, state, u)[0] == "soviet":
            h = game.board.hex(x)
            soviet[h] = soviet.get(h, 0) + 1
    return german, soviet


def enter(ctx: StepContext, order: Order) -> None:
    """14.1-14.2: a reinforcement of this turn enters on the east edge along a road free of
    German units (or, all blocked, at the nearest free non-road edge hex), paying the
    entry hex's MPs, and may move on with the rest (14.0 E: it enters in supply).

    14.1 C lets it enter within an EZOC; it has entered that hex, so it stops there
    (4.7 B), and it cannot disengage: it began the phase off the map (6.1; RULES-ISSUES
    25). Module 0.1.0 let it move on as from a hex it began the phase in."""
    state, game = ctx.state, Game.of(ctx.module)
    unit = order.get("unit")
    if (state["player"], state["phase"]) != ("soviet", "movement"):
        raise CATALOGUE.refuse("not-movement", "14.0 A",
            "Soviet reinforcements enter in the Soviet Movement "
            "Phase")
    if unit not in state["arriving"].get(str(state["turn"]), []):
        raise CATALOGUE.refuse("not-arriving", "14.0 B",
            f"{unit!r} is not a reinforcement of Turn "
            f"{state['turn']}")
    if german_in_moscow(game, state):
        raise CATALOGUE.refuse("moscow-penalty", "14.4",
            "no Soviet reinforcement enters while a German land unit "
            "occupies Moscow")
    try:
        where = game.board.hex(order.get("hex"))
    except ValueError as exc:
        raise CATALOGUE.refuse("bad-hex", "14.1 B", str(exc)) from None
    german, soviet = entry_facts(game, state)
    check_reinforcement_entry(game.board, where, game.entries, german, soviet)
    face = state["tokens"][unit]
    terrain = Terrain.of(ctx.module)
    cost = entry_cost(game.board, terrain.enter_cost, where,
                      face["type"] in ("armor", "mechanized"),
                      interdicting=state["interdicted"].get(game.board.label(where), 0))
    allowance = movement_allowance(face["movement"], german=False, siberian=face["siberian"],
                                   weather=state["weather"])  # 14.0 E: in supply
    stop: dict[str, bool] = {}
    if ctx.module.at_least(RULES_0_2_0):
        zoc = EnemyZones.of(terrain, units_of(game, state, "german")).zoc
        stop["halted"] = where in zoc
    ctx.emit("reinforcement-entered", unit=unit, hex=game.board.label(where),
             turn=str(state["turn"]), mps=str(cost), movement=allowance, **stop)


def missing_reinforcements(ctx: StepContext) -> None:
    """14.3: a reinforcement that can enter must (none is held back); one that cannot
    is lost forever, a Siberian division due while a German land unit holds Moscow
    included (14.4; RULES-ISSUES 36)."""
    state, game = ctx.state, Game.of(ctx.module)
    waiting = list(state["arriving"].get(str(state["turn"]), []))
    if not waiting:
        return
    german, soviet = entry_facts(game, state)
    hexes, _ = reinforcement_hexes(game.board, game.entries, german, soviet)
    if hexes and not german_in_moscow(game, state):
        raise CATALOGUE.refuse("reinforcement-due", "14.3 A",
            f"{', '.join(waiting)} must enter this turn (at "
            f"{', '.join(game.board.label(h) for h in hexes)}); reinforcements "
            "may not be held back")
    for unit in waiting:
        ctx.emit("reinforcement-lost", unit=unit, turn=str(state["turn"]),
                 rule="14.4" if german_in_moscow(game, state) else "14.3 B")


# -- 16.0 how to win ------------------------------------------------------------------------

def final_result(ctx: StepContext) -> dict[str, Any]:
    """16.1-16.3 after Turn 13: Soviet VPs for German casualties, German VPs for supplied
    German land units next to Moscow, the level for the difference."""
    state, game = ctx.state, Game.of(ctx.module)
    schedule = VictorySchedule.of(ctx.module)
    losses = [GermanLoss(game.pieces[u].type, True) for u in state["eliminated"]
              if u in game.pieces and game.pieces[u].side == "german"]
    losses += [GermanLoss(game.pieces[u].type, False) for u, steps in state["steps"].items()
               if steps == 1 and u in state["units"]]
    terrain = Terrain.of(ctx.module)
    german = {game.board.hex(x): is_supplied(game, terrain, state, u)
              for u, x in sorted(state["units"].items())
              if unit_facts(game, state, u)[0] == "german"}
    outcome = game_result(schedule, german_in_moscow=False,
                          german_points=moscow_points(game.board, game.moscow, german,
                                                      schedule),
                          soviet_points=casualty_points(losses, schedule),
                          bid=int(state["options"].get("bid", "0")))  # 16.4
    return {"level": outcome.level, "german": outcome.german_points,
            "soviet": outcome.soviet_points, "rule": "16.3"}


# -- events ---------------------------------------------------------------------------------

def apply_interdicted(state: State, data: dict[str, Any]) -> None:
    state["air_used"] = sorted({*state["air_used"], data["air"]})
    state["interdicted"][data["hex"]] = state["interdicted"].get(data["hex"], 0) + 1


def apply_reinforcement_drawn(state: State, data: dict[str, Any]) -> None:
    state["arriving"].setdefault(data["turn"], []).append(data["token"])


def apply_reinforcement_entered(state: State, data: dict[str, Any]) -> None:
    state["arriving"][data["turn"]].remove(data["unit"])
    state["units"][data["unit"]] = data["hex"]
    state["movers"][data["unit"]] = {"allowance": data["movement"], "start": data["hex"],
                                     "spent": data["mps"],
                                     "halted": data.get("halted", False), "finished": False}


def apply_reinforcement_lost(state: State, data: dict[str, Any]) -> None:
    state["arriving"][data["turn"]].remove(data["unit"])
